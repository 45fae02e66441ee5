package org.perflab.sweep;

import java.io.Serializable;

/** One simulation run of a sweep: replication {@code replication} of grid point number {@code pointIndex}. */
public record Trial(int pointIndex, GridPoint point, int replication, long seed) implements Serializable {}
