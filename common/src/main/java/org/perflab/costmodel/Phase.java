package org.perflab.costmodel;

/** The five task phases of the cost model (reference 000 §2.2–2.6), in the order a task runs them. */
public enum Phase {
  /** Input split read from storage, eqs. (6)–(10). */
  READ,
  /** Fetch, decompress, deserialize, combine or sort, spill and merge of the parent stage's output, eqs. (11)–(29). */
  SHUFFLE_READ,
  /** The user's transformations, eqs. (30)–(33). */
  COMPUTE,
  /** Partition, combine, sort, spill, merge and write of the map output, eqs. (34)–(44). */
  SHUFFLE_WRITE,
  /** Results sent to the driver (result stages only), eq. (45). */
  FUNC
}
