package org.perflab.stragglers;

import java.util.Locale;

/**
 * A straggler's encoded locality and its stage's normal (non-straggler) tasks' (reference 002 Eq. 3.2, 3.5).
 *
 * @param code the straggler's locality code, {@link #code(String)}
 * @param normalCodeSum sum of the codes of the stage's normal tasks
 * @param normalTasks number of the stage's normal tasks
 */
public record LocalityEvidence(int code, double normalCodeSum, long normalTasks) {
  /** No locality known. */
  public static final LocalityEvidence NONE = new LocalityEvidence(0, 0, 0);

  /**
   * Eq. 3.2: PROCESS_LOCAL = 0, NODE_LOCAL = 1, RACK_LOCAL and ANY = 2. NO_PREF (shuffle-reading tasks have no
   * preference) and unknown values are 0, as the reference suggests: the thesis's "otherwise = 2" would make every
   * shuffle-reading straggler look non-local.
   */
  public static int code(String locality) {
    if (locality == null) {
      return 0;
    }
    return switch (locality.toUpperCase(Locale.ROOT)) {
      case "NODE_LOCAL" -> 1;
      case "RACK_LOCAL", "ANY" -> 2;
      default -> 0;
    };
  }
}
