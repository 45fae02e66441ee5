package org.perflab.recommend;

import java.util.Locale;
import org.perflab.errors.BadInputException;

/**
 * What a configuration's resources cost: a price per core-hour and per GB-hour in one currency, or, without prices,
 * core-hours themselves ({@link #coreHoursOnly()}).
 *
 * @param perCoreHour price of one core for one hour, in {@code currency}; ≥ 0
 * @param perGbHour price of one GiB of executor memory (heap plus overhead) for one hour, in {@code currency}; ≥ 0
 * @param currency the prices' currency (for example {@code USD}); null for {@link #coreHoursOnly()}
 */
public record Prices(double perCoreHour, double perGbHour, String currency) implements java.io.Serializable {
  /** The cost unit without prices. */
  public static final String CORE_HOURS = "core_hours";

  /** No prices: a configuration's cost is its core-hours. */
  public static Prices coreHoursOnly() {
    return new Prices(1.0, 0.0, null);
  }

  /**
   * Prices from the options, validated: each price finite and ≥ 0, a currency with any price, no currency without a
   * price, not both prices 0.
   *
   * @param perCoreHour {@code --price-core-hour}; null when not given
   * @param perGbHour {@code --price-gb-hour}; null when not given
   * @param currency {@code --currency}; null when not given
   * @throws BadInputException naming the option and its valid range
   */
  public static Prices of(Double perCoreHour, Double perGbHour, String currency) {
    requirePrice("--price-core-hour", perCoreHour);
    requirePrice("--price-gb-hour", perGbHour);
    boolean priced = perCoreHour != null || perGbHour != null;
    boolean named = currency != null && !currency.isBlank();
    BadInputException.require(priced || !named, "Cannot price configurations: --currency %s is given without "
        + "--price-core-hour or --price-gb-hour (give a price, or no currency)", currency);
    if (!priced) {
      return coreHoursOnly();
    }
    BadInputException.require(named, "Cannot price configurations: --currency is missing for the prices given (a "
        + "currency code such as USD or EUR)");
    double core = perCoreHour == null ? 0.0 : perCoreHour;
    double gb = perGbHour == null ? 0.0 : perGbHour;
    BadInputException.require(core > 0 || gb > 0, "Cannot price configurations: --price-core-hour and "
        + "--price-gb-hour are both 0 (at least one > 0)");
    return new Prices(core, gb, currency.trim());
  }

  /** Whether a currency is priced, rather than core-hours. */
  public boolean priced() {
    return currency != null;
  }

  /** The unit of {@link #cost}: the currency, or {@value #CORE_HOURS}. */
  public String unit() {
    return priced() ? currency : CORE_HOURS;
  }

  /**
   * The cost of a run's resources.
   *
   * @param coreHours core·h
   * @param gbHours GiB·h; null when the memory is unknown (then only the core price applies)
   */
  public double cost(double coreHours, Double gbHours) {
    if (!priced()) {
      return coreHours;
    }
    return perCoreHour * coreHours + (gbHours == null ? 0.0 : perGbHour * gbHours);
  }

  private static void requirePrice(String option, Double value) {
    BadInputException.require(value == null || (Double.isFinite(value) && value >= 0), String.format(Locale.ROOT,
        "Cannot price configurations: %s is %s (a finite price >= 0)", option, value).replace("%", "%%"));
  }
}
