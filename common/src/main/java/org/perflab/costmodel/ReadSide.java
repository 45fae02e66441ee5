package org.perflab.costmodel;

/**
 * How a stage's reduce side handles fetched records (reference 000 §2.3): {@link #AGGREGATE} combines them in a hash
 * map (an Aggregator: reduceByKey, aggregations); {@link #SORT} buffers them without combining (an ExternalSorter:
 * sortByKey, joins, repartition). For {@link #SORT} the combine and merge selectivities are 1 and the combine costs 0.
 */
public enum ReadSide {
  AGGREGATE, SORT
}
