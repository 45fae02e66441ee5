package org.perflab.spark.workload;

import java.time.LocalDate;
import java.util.Random;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * HiBench's SQL workloads over the {@code rankings} and {@code uservisits} tables (the schema of Pavlo et al.'s
 * benchmark, which HiBench uses), stored as Parquet and queried with Spark SQL so that each query appears as a SQL
 * execution in the event log.
 */
final class SqlWorkload implements WorkloadRunner {
  /** Rows of {@code uservisits} per scale. */
  static final ScaleTable USERVISITS = ScaleTable.of(1_000, 100_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000);
  /** Rows of {@code rankings} (pages) per scale. */
  static final ScaleTable PAGES = ScaleTable.of(120, 12_000, 120_000, 240_000, 600_000, 1_200_000);

  static final StructType RANKINGS = new StructType()
      .add("pageURL", DataTypes.StringType, false)
      .add("pageRank", DataTypes.IntegerType, false)
      .add("avgDuration", DataTypes.IntegerType, false);
  static final StructType USER_VISITS = new StructType()
      .add("sourceIP", DataTypes.StringType, false)
      .add("destURL", DataTypes.StringType, false)
      .add("visitDate", DataTypes.DateType, false)
      .add("adRevenue", DataTypes.DoubleType, false)
      .add("userAgent", DataTypes.StringType, false)
      .add("countryCode", DataTypes.StringType, false)
      .add("languageCode", DataTypes.StringType, false)
      .add("searchWord", DataTypes.StringType, false)
      .add("duration", DataTypes.IntegerType, false);

  private static final String[] AGENTS = {"Mozilla/5.0", "Opera/9.80", "curl/8.0", "Safari/605.1"};
  private static final String[] COUNTRIES = {"USA", "DEU", "FRA", "CHN", "IND", "BRA", "NZL"};
  private static final String[] LANGUAGES = {"en", "de", "fr", "zh", "hi", "pt"};
  private static final LocalDate FIRST_VISIT = LocalDate.of(1998, 1, 1);
  private static final int VISIT_DAYS = 4 * 365;

  /** The three HiBench SQL queries. */
  enum Query {
    /** {@code SELECT * FROM uservisits}, copied to the output. */
    SCAN("SELECT * FROM uservisits"),
    /** Revenue per source IP. */
    AGGREGATION("SELECT sourceIP, SUM(adRevenue) AS sumAdRevenue FROM uservisits GROUP BY sourceIP"),
    /** Revenue and average page rank per source IP over 1999 visits, joined with rankings. */
    JOIN("SELECT sourceIP, AVG(pageRank) AS avgPageRank, SUM(adRevenue) AS totalRevenue"
        + " FROM rankings R JOIN (SELECT sourceIP, destURL, adRevenue FROM uservisits UV"
        + " WHERE datediff(UV.visitDate, '1999-01-01') >= 0 AND datediff(UV.visitDate, '2000-01-01') <= 0) NUV"
        + " ON (R.pageURL = NUV.destURL) GROUP BY sourceIP ORDER BY totalRevenue DESC");

    private final String sql;

    Query(String sql) {
      this.sql = sql;
    }

    String sql() {
      return sql;
    }
  }

  private final Query query;

  SqlWorkload(Query query) {
    this.query = query;
  }

  @Override
  public void prepare(SparkSession spark, WorkloadSpec spec) {
    long pages = PAGES.at(spec.scale());
    JavaRDD<Row> rankings = Generators.generate(spark, pages, spec.partitions(), spec.seed(),
        (random, index) -> RowFactory.create(url(index), 1 + random.nextInt(100), 1 + random.nextInt(60)));
    spark.createDataFrame(rankings, RANKINGS).write().mode("overwrite").parquet(spec.inputDir() + "/rankings");
    JavaRDD<Row> visits = Generators.generate(spark, USERVISITS.at(spec.scale()), spec.partitions(),
        spec.seed() + 1, (random, index) -> visit(random, pages));
    spark.createDataFrame(visits, USER_VISITS).write().mode("overwrite").parquet(spec.inputDir() + "/uservisits");
  }

  @Override
  public WorkloadResult run(SparkSession spark, WorkloadSpec spec) {
    spark.read().parquet(spec.inputDir() + "/rankings").createOrReplaceTempView("rankings");
    spark.read().parquet(spec.inputDir() + "/uservisits").createOrReplaceTempView("uservisits");
    spark.sparkContext().setJobDescription("PerfLab " + query.name().toLowerCase() + ": " + query.sql());
    Dataset<Row> result = spark.sql(query.sql());
    result.write().mode("overwrite").parquet(spec.outputDir());
    long rows = spark.read().parquet(spec.outputDir()).count();
    spark.sparkContext().setJobDescription(null);
    return new WorkloadResult(HiBenchWorkload.valueOf(query.name()), rows, "");
  }

  static String url(long page) {
    return "http://perflab.example/page/" + page;
  }

  private static Row visit(Random random, long pages) {
    String ip = (1 + random.nextInt(223)) + "." + random.nextInt(256) + "." + random.nextInt(16) + "." + random.nextInt(4);
    return RowFactory.create(
        ip,
        url(Generators.skewed(random, pages)),
        java.sql.Date.valueOf(FIRST_VISIT.plusDays(random.nextInt(VISIT_DAYS))),
        Math.round(random.nextDouble() * 100_000) / 100.0,
        AGENTS[random.nextInt(AGENTS.length)],
        COUNTRIES[random.nextInt(COUNTRIES.length)],
        LANGUAGES[random.nextInt(LANGUAGES.length)],
        "word" + Generators.skewed(random, 1_000),
        1 + random.nextInt(100));
  }
}
