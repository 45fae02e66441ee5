package org.perflab.sim;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A task-duration or think-time distribution, with dagSim's type names and parameter names (see docs/simulator.md).
 * Values are in the model's time unit. Stateless families are their own {@link Sampler}; {@link Replay} hands out a
 * fresh cursor per run so that runs stay independent and reproducible.
 */
public sealed interface Distribution extends Serializable {

  /** dagSim's name for the family, as written in a model file's {@code distr.type}. */
  String type();

  /** The mean, in model time units (for the plain normal, of the untruncated law). */
  double mean();

  /** A sampler for one simulation run. */
  Sampler sampler();

  /**
   * The law of {@code factor} × X for X of this law, in the same family: every duration stretched by {@code factor}
   * (&gt; 0), so that the mean becomes {@code factor × mean()}.
   */
  Distribution scaled(double factor);

  /** Samples multiplied by {@code factor}. */
  private static double[] times(double[] samples, double factor) {
    double[] out = new double[samples.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = samples[i] * factor;
    }
    return out;
  }

  /** A uniform double in (0, 1], so that logarithms stay finite. */
  private static double openUniform(SplittableRandom rng) {
    return 1.0 - rng.nextDouble();
  }

  /** Sum of {@code k} exponential phases of rate {@code lambda}. */
  private static double erlang(SplittableRandom rng, int k, double lambda) {
    double sum = 0.0;
    for (int i = 0; i < k; i++) {
      sum -= Math.log(openUniform(rng));
    }
    return sum / lambda;
  }

  /** {@code exp{rate}}: exponential with the given rate (mean 1/rate). */
  record Exponential(double rate) implements Distribution, Sampler {
    @Override public String type() { return "exp"; }
    @Override public Distribution scaled(double f) { return new Exponential(rate / f); }
    @Override public double mean() { return 1.0 / rate; }
    @Override public Sampler sampler() { return this; }
    @Override public double next(SplittableRandom rng) { return -Math.log(openUniform(rng)) / rate; }
  }

  /** {@code erl{k, lambda}}: sum of k exponential phases, each of rate lambda (mean k/lambda). */
  record Erlang(int k, double lambda) implements Distribution, Sampler {
    @Override public String type() { return "erl"; }
    @Override public Distribution scaled(double f) { return new Erlang(k, lambda / f); }
    @Override public double mean() { return k / lambda; }
    @Override public Sampler sampler() { return this; }
    @Override public double next(SplittableRandom rng) { return erlang(rng, k, lambda); }
  }

  /** {@code det{val}}: always {@code val}. */
  record Deterministic(double val) implements Distribution, Sampler {
    @Override public String type() { return "det"; }
    @Override public Distribution scaled(double f) { return new Deterministic(val * f); }
    @Override public double mean() { return val; }
    @Override public Sampler sampler() { return this; }
    @Override public double next(SplittableRandom rng) { return val; }
  }

  /** {@code unif{min, max}}: uniform on [min, max]. */
  record Uniform(double min, double max) implements Distribution, Sampler {
    @Override public String type() { return "unif"; }
    @Override public Distribution scaled(double f) { return new Uniform(min * f, max * f); }
    @Override public double mean() { return (min + max) / 2.0; }
    @Override public Sampler sampler() { return this; }
    @Override public double next(SplittableRandom rng) { return min + (max - min) * rng.nextDouble(); }
  }

  /** {@code norm{mu, sigma}}: normal; the engine clamps negative durations to zero. */
  record Normal(double mu, double sigma) implements Distribution, Sampler {
    @Override public String type() { return "norm"; }
    @Override public Distribution scaled(double f) { return new Normal(mu * f, sigma * f); }
    @Override public double mean() { return mu; }
    @Override public Sampler sampler() { return this; }
    @Override public double next(SplittableRandom rng) { return mu + sigma * gaussian(rng); }
  }

  /** How {@link PositiveNormal} keeps samples non-negative, as dagSim's {@code tech} parameter. */
  enum Positivity { TRUNC, ABS, REFL }

  /**
   * {@code Pnorm{mu, sigma, tech}}: normal made non-negative by redrawing ({@code trunc}, up to 10,000 times),
   * clamping to zero ({@code abs}) or reflecting ({@code refl}).
   */
  record PositiveNormal(double mu, double sigma, Positivity tech) implements Distribution, Sampler {
    @Override public String type() { return "Pnorm"; }
    @Override public Distribution scaled(double f) { return new PositiveNormal(mu * f, sigma * f, tech); }
    @Override public double mean() { return mu; }
    @Override public Sampler sampler() { return this; }

    @Override
    public double next(SplittableRandom rng) {
      double v = mu + sigma * gaussian(rng);
      switch (tech) {
        case TRUNC -> {
          for (int i = 0; i < 10_000 && v < 0; i++) {
            v = mu + sigma * gaussian(rng);
          }
          return Math.max(v, 0.0);
        }
        case ABS -> {
          return Math.max(v, 0.0);
        }
        default -> {
          return Math.abs(v);
        }
      }
    }
  }

  /** {@code lognorm{mu, sigma}}: exp of a normal(mu, sigma). */
  record LogNormal(double mu, double sigma) implements Distribution, Sampler {
    @Override public String type() { return "lognorm"; }
    @Override public Distribution scaled(double f) { return new LogNormal(mu + Math.log(f), sigma); }
    @Override public double mean() { return Math.exp(mu + sigma * sigma / 2.0); }
    @Override public Sampler sampler() { return this; }
    @Override public double next(SplittableRandom rng) { return Math.exp(mu + sigma * gaussian(rng)); }
  }

  /** {@code pareto{xm, alpha}}: Pareto with scale xm and shape alpha. */
  record Pareto(double xm, double alpha) implements Distribution, Sampler {
    @Override public String type() { return "pareto"; }
    @Override public Distribution scaled(double f) { return new Pareto(xm * f, alpha); }
    @Override public double mean() { return alpha > 1 ? alpha * xm / (alpha - 1) : Double.POSITIVE_INFINITY; }
    @Override public Sampler sampler() { return this; }
    @Override public double next(SplittableRandom rng) { return xm / Math.pow(openUniform(rng), 1.0 / alpha); }
  }

  /** {@code weib{k, lambda}}: Weibull with shape k and scale lambda. */
  record Weibull(double k, double lambda) implements Distribution, Sampler {
    @Override public String type() { return "weib"; }
    @Override public Distribution scaled(double f) { return new Weibull(k, lambda * f); }
    @Override public double mean() { return lambda * Math.exp(logGamma(1.0 + 1.0 / k)); }
    @Override public Sampler sampler() { return this; }
    @Override public double next(SplittableRandom rng) {
      return lambda * Math.pow(-Math.log(openUniform(rng)), 1.0 / k);
    }
  }

  /** One branch of a {@link HyperSumOfErlangs}: taken with probability {@code prob}, a sum of Erlang phases. */
  record ErlangBranch(double prob, int[] k, double[] lambda) implements Serializable {
    double mean() {
      double m = 0;
      for (int i = 0; i < k.length; i++) {
        m += k[i] / lambda[i];
      }
      return m;
    }
  }

  /** {@code HSE}: with probability {@code prob_i}, the sum of branch i's Erlang(k, lambda) stages. */
  record HyperSumOfErlangs(List<ErlangBranch> branches) implements Distribution, Sampler {
    public HyperSumOfErlangs {
      branches = List.copyOf(branches);
    }

    @Override public String type() { return "HSE"; }

    @Override
    public Distribution scaled(double f) {
      List<ErlangBranch> stretched = new java.util.ArrayList<>();
      for (ErlangBranch b : branches) {
        double[] l = new double[b.lambda().length];
        for (int i = 0; i < l.length; i++) {
          l[i] = b.lambda()[i] / f;
        }
        stretched.add(new ErlangBranch(b.prob(), b.k(), l));
      }
      return new HyperSumOfErlangs(stretched);
    }

    @Override
    public double mean() {
      double m = 0;
      for (ErlangBranch b : branches) {
        m += b.prob() * b.mean();
      }
      return m;
    }

    @Override public Sampler sampler() { return this; }

    @Override
    public double next(SplittableRandom rng) {
      double r = rng.nextDouble();
      ErlangBranch chosen = branches.get(branches.size() - 1);
      for (ErlangBranch b : branches) {
        if (r < b.prob()) {
          chosen = b;
          break;
        }
        r -= b.prob();
      }
      double out = 0;
      for (int i = 0; i < chosen.k().length; i++) {
        out += erlang(rng, chosen.k()[i], chosen.lambda()[i]);
      }
      return out;
    }
  }

  /** {@code empirical{samples}} (alias {@code emp}): a uniform draw from the samples. */
  record Empirical(double[] samples) implements Distribution, Sampler {
    @Override public String type() { return "empirical"; }
    @Override public Distribution scaled(double f) { return new Empirical(times(samples, f)); }
    @Override public double mean() { return Arrays.stream(samples).average().orElse(0); }
    @Override public Sampler sampler() { return this; }
    @Override public double next(SplittableRandom rng) { return samples[rng.nextInt(samples.length)]; }
  }

  /** {@code replay{samples}}: the samples in order, cyclically, from the start of every run. */
  record Replay(double[] samples) implements Distribution {
    @Override public String type() { return "replay"; }
    @Override public Distribution scaled(double f) { return new Replay(times(samples, f)); }
    @Override public double mean() { return Arrays.stream(samples).average().orElse(0); }

    @Override
    public Sampler sampler() {
      return new Sampler() {
        private int cursor;

        @Override
        public double next(SplittableRandom rng) {
          double v = samples[cursor];
          cursor = cursor + 1 == samples.length ? 0 : cursor + 1;
          return v;
        }
      };
    }
  }

  /** A standard normal draw (polar Box–Muller without caching, so samplers stay stateless). */
  private static double gaussian(SplittableRandom rng) {
    double u;
    double v;
    double s;
    do {
      u = 2.0 * rng.nextDouble() - 1.0;
      v = 2.0 * rng.nextDouble() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    return u * Math.sqrt(-2.0 * Math.log(s) / s);
  }

  /** The log-gamma function, from commons-math3 (on Spark's classpath). */
  private static double logGamma(double x) {
    return org.apache.commons.math3.special.Gamma.logGamma(x);
  }
}
