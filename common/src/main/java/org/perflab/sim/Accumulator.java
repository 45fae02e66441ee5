package org.perflab.sim;

/** Running sum, sum of squares and count of samples, turned into a {@link Measure} at the end. */
final class Accumulator {
  private double sum;
  private double sumOfSquares;
  private long n;

  void add(double x) {
    sum += x;
    sumOfSquares += x * x;
    n++;
  }

  long count() {
    return n;
  }

  double relativeHalfWidth(double z) {
    return Measure.of(sum, sumOfSquares, n, z).relativeHalfWidth();
  }

  Measure measure(double z) {
    return Measure.of(sum, sumOfSquares, n, z);
  }
}
