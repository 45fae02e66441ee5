package org.perflab.grouping;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkloadRuleTest {

  @Test
  void theTagWinsThenThePropertyThenTheName() {
    assertThat(WorkloadRule.identify(" wordcount ", "hibench-wc", "perflab-wordcount-tiny"))
        .isEqualTo(new Workload("wordcount", WorkloadSource.TAG));
    assertThat(WorkloadRule.identify(null, " HiBench WordCount ", "ScalaWordCount"))
        .isEqualTo(new Workload("HiBench WordCount", WorkloadSource.PROPERTY));
    assertThat(WorkloadRule.identify("  ", "", "ScalaWordCount"))
        .isEqualTo(new Workload("scalawordcount", WorkloadSource.NAME));
    assertThat(WorkloadRule.identify(null, null, null)).isEqualTo(new Workload("unnamed", WorkloadSource.NAME));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      // HiBench's application names
      "ScalaSort | scalasort",
      "Spark Wordcount | spark wordcount",
      "ScalaTeraSort | scalaterasort",
      "ScalaPageRank | scalapagerank",
      "Spark KMeans with 10 clusters | spark kmeans with clusters",
      "SparkSQL Aggregation 20GB | sparksql aggregation",
      // PerfLab's corpus names (without the tag): the scale profile is dropped
      "perflab-wordcount-tiny | perflab wordcount",
      "perflab-sort-large | perflab sort",
      "perflab-terasort-bigdata | perflab terasort",
      // case, whitespace and separators
      "  Spark   Pi  | spark pi",
      "spark_pi | spark pi",
      "SPARK-PI | spark pi",
      "Spark shell | spark shell",
      // paths and URIs
      "Sort hdfs://nn:8020/data/sort/input | sort",
      "WordCount /user/alice/input/part-00000 | wordcount",
      "etl s3a://bucket/2024/01/31/events.parquet | etl",
      "load file:/tmp/x.csv | load",
      "run C:\\data\\in.csv | run",
      // ids
      "nightly-etl-app-20161116163331-0000 | nightly etl",
      "report application_1553914137147_0018 | report",
      "local-1422981780767 | unnamed",
      "ingest 123e4567-e89b-12d3-a456-426614174000 | ingest",
      "job 3f9a1c2b | job",
      "export 0x1f2e3d4c | export",
      // dates and times
      "Daily ETL 2024-01-31 | daily etl",
      "Daily ETL 2024-01-31T10:30:00Z | daily etl",
      "Daily ETL 2024/01/31 | daily etl",
      "Daily ETL 31.01.2024 | daily etl",
      "Daily ETL 20240131 | daily etl",
      "Daily ETL 20240131T103000Z | daily etl",
      "Daily ETL at 10:30 | daily etl at",
      "Monthly report Jan 2024 | monthly report",
      "Monthly report 31 January 2024 | monthly report",
      "etl20240131 | etl",
      // sizes and numbers
      "Sort 1GB | sort",
      "Sort 10 GB | sort",
      "Sort 1.5TiB | sort",
      "sort-512m | sort",
      "sort 100 bytes | sort",
      "Sort 10 | sort",
      "Sort run 3 of 5 | sort run of",
      "Pi 3.14159 | pi",
      // digits inside words stay: they name things
      "Word2Vec | word2vec",
      "TPC-DS q19 | tpc ds q19",
      "TPC-DS q20 | tpc ds q20",
      "log4j audit | log4j audit",
      // a scale word only goes when it ends the name
      "Small files compaction | small files compaction",
      "large join | large join",
      // nothing left
      "2024-01-31 | unnamed",
      "'   ' | unnamed",
  })
  void normalisesApplicationNames(String name, String expected) {
    assertThat(WorkloadRule.normalizeName(name)).isEqualTo(expected);
  }

  @Test
  void dataSizeIsNotIdentity() {
    assertThat(WorkloadRule.normalizeName("Sort 1GB")).isEqualTo(WorkloadRule.normalizeName("Sort 10GB"))
        .isEqualTo(WorkloadRule.normalizeName("sort-large"));
    assertThat(WorkloadRule.normalizeName("TPC-DS q19")).isNotEqualTo(WorkloadRule.normalizeName("TPC-DS q20"));
  }
}
