package org.perflab.sim;

import java.io.Serializable;
import java.util.List;

/**
 * One stage of the application DAG: {@code tasks} identical tasks whose durations follow {@code distribution}; it can
 * start once every stage named in {@code pre} has ended. {@code post} is the inverse relation, kept as written in
 * the model file.
 */
public record Stage(String name, int tasks, List<String> pre, List<String> post, Distribution distribution)
    implements Serializable {
  public Stage {
    pre = List.copyOf(pre);
    post = List.copyOf(post);
  }
}
