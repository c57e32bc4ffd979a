"""Level 1 of analyze on Apache Spark: per-run statistics and chart inputs from raw request rows.

Reads a dataset folder from any Spark-readable location (a local path, s3a://, hdfs://):
runs.csv, an optional dataset.toml, and the requests as requests.csv, requests.parquet or a
folder of Parquet files with hive partitions (requests/run_id=.../part-*.parquet,
requests/date=.../...). Writes a dataset folder of run-level tables that analyze reads instead
of the requests, one coalesced Parquet file per table (spark/README.md describes each column):

- run_stats.parquet: per run the counts, the nearest-rank percentiles with their ranks, min,
  max, the largest schedule lag, rule = nearest-rank;
- run_statuses.parquet: per run and HTTP status, how many requests (0 = no response);
- label_stats.parquet, when the requests have a `label` column: per run and label, the requests,
  the errors, the nearest-rank p50/p95/p99 and the max of the 2xx latencies (analyze's
  stats/labels.rs; analyze shows the 12 labels with most requests and counts the rest together,
  this table keeps every label);
- run_ecdf.parquet, run_points.parquet, run_bands.parquet, run_errors.parquet: what the charts
  draw, reduced exactly as analyze reduces it (analyze/src/stats/figures.rs and bands.rs);
- runs.csv, dataset.toml, the articles and the side tables (large responses, temp files,
  resources) copied unchanged; a side table given as a folder of Parquet files becomes one file.

The percentiles are Spark SQL's percentile_disc, which takes rank ceil(p·n) (SPARK-44871, with
spark.sql.legacy.percentileDiscCalculation=false): analyze's nearest rank. p is passed as a
decimal literal (0.999), never computed as 99.9/100. Runnable unchanged with spark-submit:

    spark-submit analyze_level1.py s3a://bucket/campaign s3a://bucket/campaign-level1
"""

import argparse
import json
import sys
import tomllib

from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F

# The constants of analyze/src/stats/figures.rs, stats/bands.rs and model/time_columns.rs: one
# home there, mirrored here and checked against analyze's own chart inputs by the tests.
KEEP_ALL = 4000
TAIL_CAP = 2000
ECDF_STEPS = 1000
# Runs of at most MARK_ALL 2xx responses are drawn point by point; larger ones in COLUMNS columns
# of send time, each with its own p50 and p95 (nearest rank within the column, in thousandths),
# its slowest response and its distinct send times counted up to MIN_SEND_TIMES.
MARK_ALL = 300
COLUMNS = 100
MIN_SEND_TIMES = 3
COLUMN_QUANTILES = (50_000, 95_000)
ERRORS_KEEP_ALL = 300
ERROR_COLUMNS = COLUMNS

# Every run reports these, besides the headline (analyze's Percentile::STANDARD), in
# thousandths of a percent so ranks are exact integers.
STANDARD = (50_000, 90_000, 95_000, 99_000, 99_900)
DEFAULT_HEADLINE = 95_000
P99 = 99_000
# The optional column of request names, and the percentiles each label gets (stats/labels.rs).
LABEL = "label"
LABEL_PERCENTILES = (50_000, 95_000, 99_000)

RULE = "nearest-rank"
SIDE_TABLES = ("large_responses", "tempfiles", "resources")
COPIED_FILES = ("runs.csv", "dataset.toml", "plan.toml", "article.md", "article.ja.md", "README.md", "README.ja.md")
MARKER = "level1.json"


class Level1Error(Exception):
    """A dataset this job cannot read, said with the place and the fix."""


def session(master=None, builder=None):
    """The SparkSession with the one setting the statistics depend on."""
    builder = builder or SparkSession.builder
    builder = builder.appName("analyze-level1")
    if master:
        builder = builder.master(master)
    spark = (
        builder.config("spark.sql.legacy.percentileDiscCalculation", "false")
        # A hive partition run_id=007 stays the text "007", as in runs.csv.
        .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
        # Local folders without Hadoop's .crc side files, so the output is only the dataset.
        .config("spark.hadoop.fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem")
        .getOrCreate()
    )
    return spark


# ---------------------------------------------------------------- files through Hadoop's FileSystem


def _path(spark, uri):
    jvm = spark.sparkContext._jvm
    path = jvm.org.apache.hadoop.fs.Path(uri)
    return path, path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())


def exists(spark, uri):
    path, fs = _path(spark, uri)
    return fs.exists(path)


def is_dir(spark, uri):
    path, fs = _path(spark, uri)
    return fs.exists(path) and fs.getFileStatus(path).isDirectory()


def read_bytes(spark, uri):
    path, fs = _path(spark, uri)
    stream = fs.open(path)
    try:
        out = spark.sparkContext._jvm.java.io.ByteArrayOutputStream()
        spark.sparkContext._jvm.org.apache.hadoop.io.IOUtils.copyBytes(stream, out, 65536, False)
        return bytes(out.toByteArray())
    finally:
        stream.close()


def write_bytes(spark, uri, data):
    path, fs = _path(spark, uri)
    stream = fs.create(path, True)
    try:
        stream.write(bytearray(data))
    finally:
        stream.close()


def copy(spark, src, dst):
    src_path, src_fs = _path(spark, src)
    dst_path, dst_fs = _path(spark, dst)
    jvm = spark.sparkContext._jvm
    if not jvm.org.apache.hadoop.fs.FileUtil.copy(src_fs, src_path, dst_fs, dst_path, False, True, spark.sparkContext._jsc.hadoopConfiguration()):
        raise Level1Error(f"{src}: could not copy it to {dst}")


def rename(spark, src, dst):
    src_path, fs = _path(spark, src)
    dst_path, _ = _path(spark, dst)
    if not fs.rename(src_path, dst_path):
        raise Level1Error(f"{dst}: could not move {src} there")


def delete(spark, uri):
    path, fs = _path(spark, uri)
    fs.delete(path, True)


def child(folder, name):
    return folder.rstrip("/") + "/" + name


# ---------------------------------------------------------------- inputs


def headline_thousandths(spark, dataset):
    """The headline percentile of dataset.toml in thousandths of a percent (95 without one)."""
    uri = child(dataset, "dataset.toml")
    if not exists(spark, uri):
        return DEFAULT_HEADLINE
    try:
        manifest = tomllib.loads(read_bytes(spark, uri).decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise Level1Error(f"{uri}: {error}: run `analyze check` on the dataset") from error
    p = manifest.get("percentile")
    if p is None:
        return DEFAULT_HEADLINE
    # analyze's Percentile::new: 0 < p < 100 and a whole number of thousandths of a percent,
    # refused rather than rounded.
    number = isinstance(p, (int, float)) and not isinstance(p, bool)
    thousandths = round(float(p) * 1000) if number and 0 < p < 100 else 0
    if not (0 < thousandths < 100_000 and thousandths / 1000 == float(p)):
        raise Level1Error(f"{uri}: percentile = {p!r} is not between 0 and 100 (exclusive) in thousandths of a percent")
    return thousandths


def literal(thousandths):
    """p as the decimal fraction Spark SQL parses exactly: 99_900 -> 0.999."""
    return "0." + f"{thousandths:05d}".rstrip("0")


def key(thousandths):
    """analyze's percentile key: 95, 99.9."""
    whole, fraction = divmod(thousandths, 1000)
    return str(whole) if fraction == 0 else f"{whole}." + f"{fraction:03d}".rstrip("0")


def column(thousandths):
    """The run_stats column stem of a percentile: p95, p99_9, p97_5."""
    return "p" + key(thousandths).replace(".", "_")


def read_runs(spark, dataset):
    uri = child(dataset, "runs.csv")
    if not exists(spark, uri):
        raise Level1Error(f"{uri}: missing: a dataset needs runs.csv (datasets/README.md)")
    runs = spark.read.option("header", "true").option("inferSchema", "false").option("multiLine", "true").csv(uri)
    if "run_id" not in runs.columns:
        raise Level1Error(f"{uri}:1: no run_id column")
    return runs.select("run_id")


def read_requests(spark, dataset):
    """The request rows, typed as analyze types them, from whichever form the dataset has."""
    csv, parquet, folder = (child(dataset, n) for n in ("requests.csv", "requests.parquet", "requests"))
    found = [uri for uri in (csv, parquet, folder) if exists(spark, uri)]
    if not found:
        raise Level1Error(f"{dataset}: no requests.csv, requests.parquet or requests/ folder")
    if len(found) > 1:
        raise Level1Error(f"{dataset}: requests are given twice ({', '.join(found)}): keep one")
    uri = found[0]
    if uri == csv:
        # Read as text and cast by name: extra columns and any column order are accepted, and
        # Spark's ANSI casts fail on a value that is not a number instead of making it null.
        rows = spark.read.option("header", "true").option("inferSchema", "false").csv(uri)
    else:
        rows = spark.read.parquet(uri)
    wanted = {"run_id": "string", "scheduled_ms": "double", "sent_ms": "double", "latency_ms": "double", "status": "int"}
    missing = [name for name in wanted if name not in rows.columns]
    if missing:
        raise Level1Error(f"{uri}: no {', '.join(missing)} column: the columns are listed in datasets/README.md")
    # The optional request name; an empty cell (null to Spark's CSV reader) is the unnamed one.
    label = [F.coalesce(F.col(LABEL).cast("string"), F.lit("")).alias(LABEL)] if LABEL in rows.columns else []
    return rows.select([F.col(name).cast(kind).alias(name) for name, kind in wanted.items()] + label), uri


# ---------------------------------------------------------------- level 1


def run_stats(spark, requests, runs, headline):
    """Per run: counts, percentiles with their nearest ranks, min, max, schedule lag."""
    wanted = list(STANDARD) + ([headline] if headline not in STANDARD else [])
    requests.createOrReplaceTempView("level1_requests")
    percentiles = ",\n".join(
        f"percentile_disc({literal(p)}) WITHIN GROUP (ORDER BY ok_latency_ms) AS {column(p)}_ms" for p in wanted
    )
    counted = spark.sql(
        f"""
        WITH rows AS (
            SELECT run_id, scheduled_ms, sent_ms, latency_ms, status,
                   CASE WHEN latency_ms IS NOT NULL AND status BETWEEN 200 AND 299 THEN latency_ms END AS ok_latency_ms
            FROM level1_requests)
        SELECT run_id,
               COUNT(*) AS requests,
               COUNT(ok_latency_ms) AS ok_responses,
               COUNT_IF(latency_ms IS NOT NULL AND NOT status BETWEEN 200 AND 299) AS non_2xx,
               COUNT_IF(latency_ms IS NULL) AS no_response,
               {percentiles},
               MIN(ok_latency_ms) AS min_ms,
               MAX(ok_latency_ms) AS max_ms,
               -- Rounded to a nanosecond exactly as analyze's stats/precision.rs does: a difference
               -- of microsecond times carries binary noise (0.9279999999998836 -> 0.928).
               CASE WHEN ABS(MAX(sent_ms - scheduled_ms)) < 1e9
                    THEN ROUND(MAX(sent_ms - scheduled_ms) * 1000000D) / 1000000D
                    ELSE MAX(sent_ms - scheduled_ms) END AS max_lag_ms,
               MAX(sent_ms) AS last_sent_ms,
               -- The span requests per second are counted over: first send, last completion.
               MIN(sent_ms) AS first_sent_ms,
               MAX(sent_ms + latency_ms) AS last_done_ms
        FROM rows GROUP BY run_id"""
    )
    counted = counted.join(mean_of_ok(requests), "run_id", "left")
    listed = runs.withColumn("listed", F.lit(True))
    stats = listed.join(counted, "run_id", "full_outer")
    zero = F.lit(0).cast("long")
    for name in ("requests", "ok_responses", "non_2xx", "no_response"):
        stats = stats.withColumn(name, F.coalesce(F.col(name), zero))
    stats = stats.withColumn("errors", F.col("non_2xx") + F.col("no_response"))
    n = F.col("ok_responses")
    for p in wanted:
        # ceil(p·n/100) in integers, at least 1: analyze's Percentile::rank.
        rank = F.greatest(F.lit(1).cast("long"), F.expr(f"({p} * ok_responses + 99999) DIV 100000"))
        stats = stats.withColumn(f"{column(p)}_rank", F.when(n > 0, rank))
    # figures.rs tail_from: where a reduced chart's tail starts, max(p99 rank, n - TAIL_CAP + 1).
    p99_rank = F.greatest(F.lit(1).cast("long"), F.expr(f"({P99} * ok_responses + 99999) DIV 100000"))
    stats = stats.withColumn("tail_rank", F.when(n > 0, F.greatest(p99_rank, n - TAIL_CAP + 1)))
    stats = (
        stats.withColumn("headline_percentile", F.lit(float(key(headline))))
        .withColumn("headline_ms", F.col(f"{column(headline)}_ms"))
        .withColumn("headline_rank", F.col(f"{column(headline)}_rank"))
        .withColumn("rule", F.lit(RULE))
    )
    order = ["run_id", "requests", "ok_responses", "errors", "non_2xx", "no_response"]
    for p in wanted:
        order += [f"{column(p)}_ms", f"{column(p)}_rank"]
    order += ["headline_percentile", "headline_ms", "headline_rank", "min_ms", "mean_ms", "max_ms", "max_lag_ms"]
    order += ["first_sent_ms", "last_sent_ms", "last_done_ms", "rule"]
    # tail_rank stays inside the job: the charts need it, analyze computes it again. listed is
    # false for a run that only the requests name, which check_listed refuses.
    return stats.select(order + ["tail_rank", F.coalesce(F.col("listed"), F.lit(False)).alias("listed")])


def label_stats(spark, requests):
    """Per run and label: requests, errors (no 2xx response), nearest-rank p50/p95/p99 and max of
    the 2xx latencies, as analyze's stats/labels.rs computes them."""
    requests.createOrReplaceTempView("level1_labelled")
    percentiles = ",\n".join(
        f"percentile_disc({literal(p)}) WITHIN GROUP (ORDER BY ok_latency_ms) AS {column(p)}_ms" for p in LABEL_PERCENTILES
    )
    return spark.sql(
        f"""
        WITH rows AS (
            SELECT run_id, {LABEL},
                   CASE WHEN latency_ms IS NOT NULL AND status BETWEEN 200 AND 299 THEN latency_ms END AS ok_latency_ms
            FROM level1_labelled)
        SELECT run_id, {LABEL},
               COUNT(*) AS requests,
               COUNT(*) - COUNT(ok_latency_ms) AS errors,
               {percentiles},
               MAX(ok_latency_ms) AS max_ms
        FROM rows GROUP BY run_id, {LABEL}"""
    )


def value_counts(requests):
    """Per run, each distinct 2xx latency and how many responses took it."""
    return ok_rows(requests).groupBy("run_id", "latency_ms").agg(F.count(F.lit(1)).alias("count"))


def mean_of_ok(requests):
    """The mean 2xx latency: each distinct value times its count, added in ascending order of value,
    over n. analyze sums the sorted values one by one; both round the mean to a nanosecond
    (stats/precision.rs), where the two sums agree. The array holds one entry per distinct value
    (bounded with latencies in whole microseconds), never one per request."""
    ordered = F.array_sort(F.collect_list(F.struct("latency_ms", "count")))
    total = F.aggregate(ordered, F.lit(0.0), lambda acc, x: acc + x["latency_ms"] * x["count"].cast("double"))
    n = F.sum("count").cast("double")
    return value_counts(requests).groupBy("run_id").agg((total / n).alias("mean_ms"))


def check_listed(stats):
    """Requests of a run that runs.csv does not list are an error, as in analyze."""
    unknown = stats.where(~F.col("listed")).select("run_id").orderBy("run_id").limit(5).collect()
    if unknown:
        names = ", ".join(repr(r.run_id) for r in unknown)
        raise Level1Error(f"requests name runs that runs.csv does not list: {names}")


def public(stats):
    """run_stats as written: without the job's own columns."""
    return stats.drop("tail_rank", "listed")


def run_statuses(requests):
    return requests.groupBy("run_id", "status").agg(F.count(F.lit(1)).alias("requests"))


def ok_rows(requests):
    return requests.where(F.col("latency_ms").isNotNull() & F.col("status").between(200, 299))


# The ranks analyze's ECDF draws (figures.rs ecdf_ranks): all of them up to KEEP_ALL; else
# ECDF_STEPS evenly spaced ranks ceil(k·n/ECDF_STEPS), the tail from tail_rank, the first and the
# headline rank. Evaluated on a run_stats row.
ECDF_RANKS = f"""
    CASE WHEN ok_responses <= {KEEP_ALL} THEN sequence(1L, ok_responses)
    ELSE filter(array_distinct(concat(
        transform(sequence(1L, {ECDF_STEPS}L), k -> (k * ok_responses + {ECDF_STEPS - 1}) DIV {ECDF_STEPS}),
        sequence(tail_rank, ok_responses),
        array(1L),
        array(headline_rank))), r -> r IS NOT NULL)
    END"""


def run_ecdf(requests, stats):
    """Per run, the latency at each rank the ECDF draws, from per-value counts (never a sort of
    every row): the value at rank r is the one whose cumulative count first reaches r."""
    counts = value_counts(requests)
    upto = Window.partitionBy("run_id").orderBy("latency_ms").rowsBetween(Window.unboundedPreceding, Window.currentRow)
    values = counts.withColumn("first_rank", F.sum("count").over(upto) - F.col("count") + 1).select(
        "run_id", F.col("first_rank").alias("rank"), "latency_ms", F.lit(0).alias("is_wanted")
    )
    n = F.col("ok_responses")
    wanted = stats.where(n > 0).select("run_id", F.explode(F.expr(ECDF_RANKS)).alias("rank"))
    wanted = wanted.select("run_id", "rank", F.lit(None).cast("double").alias("latency_ms"), F.lit(1).alias("is_wanted"))
    before = Window.partitionBy("run_id").orderBy("rank", "is_wanted").rowsBetween(Window.unboundedPreceding, Window.currentRow)
    merged = values.unionByName(wanted).withColumn("value", F.last("latency_ms", ignorenulls=True).over(before))
    return merged.where(F.col("is_wanted") == 1).select("run_id", "rank", F.col("value").alias("latency_ms"))


def time_column(t_s, last_sent_s, columns):
    """model/time_columns.rs column_of: the column of send time, floor(t / last * columns) in
    that order, clamped to the columns; 0 when every send is at one instant."""
    scaled = F.floor((t_s / last_sent_s) * float(columns))
    clamped = F.least(F.greatest(scaled, F.lit(0)), F.lit(columns - 1)).cast("int")
    return F.when(last_sent_s > 0.0, clamped).otherwise(F.lit(0))


def chart_plan(stats):
    """Per run: whether its time series is drawn point by point, and its last send in s."""
    return stats.select("run_id", (F.col("ok_responses") <= MARK_ALL).alias("all"), (F.col("last_sent_ms") / 1000.0).alias("last_sent_s"))


def run_points(requests, stats):
    """Latency over time of a run of at most MARK_ALL 2xx responses: every one, equal points once."""
    points = ok_rows(requests).select("run_id", (F.col("sent_ms") / 1000.0).alias("t_s"), "latency_ms").join(F.broadcast(chart_plan(stats)), "run_id")
    return points.where("all").select("run_id", "t_s", "latency_ms").distinct()


def run_bands(requests, stats):
    """Latency over time of a larger run (bands.rs): per column of send time its 2xx responses,
    their own p50 and p95 (percentile_disc: the nearest rank within the column), the slowest and
    its send time (of responses as slow, the first sent) and the distinct send times, counted up
    to MIN_SEND_TIMES."""
    rows = ok_rows(requests).join(F.broadcast(chart_plan(stats)), "run_id").where(~F.col("all"))
    rows = rows.withColumn("column", time_column(F.col("sent_ms") / 1000.0, F.col("last_sent_s"), COLUMNS))
    quantile = lambda q: F.expr(f"percentile_disc({literal(q)}) WITHIN GROUP (ORDER BY latency_ms)")  # noqa: E731
    columns = rows.groupBy("run_id", "column").agg(
        F.count(F.lit(1)).alias("requests"),
        quantile(COLUMN_QUANTILES[0]).alias("p50_ms"),
        quantile(COLUMN_QUANTILES[1]).alias("p95_ms"),
        F.max(F.struct(F.col("latency_ms"), (-F.col("sent_ms")).alias("later"))).alias("slowest"),
        F.least(F.countDistinct("sent_ms"), F.lit(MIN_SEND_TIMES)).alias("send_times"),
    )
    return columns.select(
        "run_id",
        "column",
        "requests",
        "p50_ms",
        "p95_ms",
        F.col("slowest.latency_ms").alias("max_ms"),
        ((-F.col("slowest.later")) / 1000.0).alias("slowest_t_s"),
        "send_times",
    )


def run_errors(requests, stats):
    """The requests without a 2xx response: all of them up to ERRORS_KEEP_ALL; else per column of
    send time the fastest and the slowest error response and the first request with no response
    (ties to the earlier send, then the lower status)."""
    plan = stats.select("run_id", (F.col("errors") <= ERRORS_KEEP_ALL).alias("all"), (F.col("last_sent_ms") / 1000.0).alias("last_sent_s"))
    answered = F.col("latency_ms").isNotNull() & F.col("status").between(200, 299)
    errors = requests.where(~answered).select(
        "run_id", (F.col("sent_ms") / 1000.0).alias("t_s"), "latency_ms", "status"
    )
    errors = errors.join(F.broadcast(plan), "run_id")
    whole = errors.where("all").select("run_id", "t_s", "latency_ms", "status")
    reduced = errors.where(~F.col("all"))
    has_latency = F.col("latency_ms").isNotNull()
    by_column = reduced.groupBy("run_id", time_column(F.col("t_s"), F.col("last_sent_s"), ERROR_COLUMNS).alias("column")).agg(
        F.min(F.when(has_latency, F.struct("latency_ms", "t_s", "status"))).alias("fastest"),
        F.max(F.when(has_latency, F.struct(F.col("latency_ms"), (-F.col("t_s")).alias("later"), (-F.col("status")).alias("lower")))).alias("slowest"),
        F.min(F.when(~has_latency, F.struct("t_s", "status"))).alias("unanswered"),
    )
    fastest = by_column.where(F.col("fastest").isNotNull()).select(
        "run_id", F.col("fastest.t_s").alias("t_s"), F.col("fastest.latency_ms").alias("latency_ms"), F.col("fastest.status").alias("status")
    )
    slowest_point = F.struct(
        (-F.col("slowest.later")).alias("t_s"), F.col("slowest.latency_ms").alias("latency_ms"), (-F.col("slowest.lower")).alias("status")
    )
    fastest_point = F.struct(F.col("fastest.t_s").alias("t_s"), F.col("fastest.latency_ms").alias("latency_ms"), F.col("fastest.status").alias("status"))
    # The fastest and the slowest are one point when the column has one error response.
    slowest = by_column.where(F.col("slowest").isNotNull() & (slowest_point != fastest_point)).select("run_id", slowest_point.alias("p")).select("run_id", "p.*")
    unanswered = by_column.where(F.col("unanswered").isNotNull()).select(
        "run_id", F.col("unanswered.t_s").alias("t_s"), F.lit(None).cast("double").alias("latency_ms"), F.col("unanswered.status").alias("status")
    )
    return whole.unionByName(fastest).unionByName(slowest).unionByName(unanswered)


# ---------------------------------------------------------------- output


def write_table(spark, frame: DataFrame, order, folder, name):
    """One Parquet file `name`.parquet in `folder`, rows sorted so the same input gives the same file."""
    parts = child(folder, "_parts_" + name)
    # repartition, not coalesce: the aggregation before it keeps its parallelism.
    frame.repartition(1).sortWithinPartitions(*order).write.mode("error").parquet(parts)
    path, fs = _path(spark, parts)
    files = [s.getPath().getName() for s in fs.listStatus(path) if s.getPath().getName().endswith(".parquet")]
    if len(files) != 1:
        raise Level1Error(f"{parts}: expected one Parquet file, found {len(files)}")
    rename(spark, child(parts, files[0]), child(folder, name + ".parquet"))
    delete(spark, parts)


def pass_through(spark, dataset, folder):
    """Copies runs.csv, dataset.toml, the articles and the side tables; a side table given as a
    folder of Parquet files becomes one file."""
    for name in COPIED_FILES:
        if exists(spark, child(dataset, name)):
            copy(spark, child(dataset, name), child(folder, name))
    for table in SIDE_TABLES:
        for suffix in (".csv", ".parquet"):
            uri = child(dataset, table + suffix)
            if not exists(spark, uri):
                continue
            if is_dir(spark, uri):
                rows = spark.read.parquet(uri)
                write_table(spark, rows, rows.columns, folder, table)
            else:
                copy(spark, uri, child(folder, table + suffix))


def level1(spark, dataset, out):
    """Reads `dataset`, writes the run-level dataset to `out` (built beside it, then moved into
    place; a folder this job did not write is never replaced)."""
    if exists(spark, out) and not exists(spark, child(out, MARKER)):
        raise Level1Error(f"{out}: exists and was not written by this job: choose another folder or remove it")
    headline = headline_thousandths(spark, dataset)
    runs = read_runs(spark, dataset)
    requests, source = read_requests(spark, dataset)
    # Six tables read the requests. Parsing CSV six times costs more than keeping the parsed
    # columns; Parquet is re-read column by column instead, which scales with the cluster's
    # storage rather than its memory.
    if source.endswith(".csv"):
        requests = requests.persist()
    stats = run_stats(spark, requests, runs, headline).persist()
    check_listed(stats)
    ecdf = run_ecdf(requests, stats).persist()
    building = out.rstrip("/") + ".building"
    delete(spark, building)
    write_table(spark, public(stats), ["run_id"], building, "run_stats")
    write_table(spark, run_statuses(requests), ["run_id", "status"], building, "run_statuses")
    if LABEL in requests.columns:
        write_table(spark, label_stats(spark, requests), ["run_id", LABEL], building, "label_stats")
    write_table(spark, ecdf, ["run_id", "rank"], building, "run_ecdf")
    write_table(spark, run_points(requests, stats), ["run_id", "t_s", "latency_ms"], building, "run_points")
    write_table(spark, run_bands(requests, stats), ["run_id", "column"], building, "run_bands")
    errors = run_errors(requests, stats)
    write_table(spark, errors, ["run_id", "t_s", F.col("latency_ms").isNull(), "latency_ms", "status"], building, "run_errors")
    pass_through(spark, dataset, building)
    marker = {"engine": "Apache Spark", "version": spark.version, "rule": RULE, "requests": source.rstrip("/").rsplit("/", 1)[-1]}
    write_bytes(spark, child(building, MARKER), (json.dumps(marker, indent=2, sort_keys=True) + "\n").encode())
    for frame in (ecdf, stats, requests):
        frame.unpersist()
    delete(spark, out)
    rename(spark, building, out)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Per-run statistics and chart inputs of a dataset, on Spark.")
    parser.add_argument("dataset", help="the dataset folder: a path or any Spark-readable URI (s3a://, hdfs://)")
    parser.add_argument("out", help="the run-level dataset folder to write")
    parser.add_argument("--master", help="e.g. local[2]; by default what spark-submit says")
    args = parser.parse_args(argv)
    spark = session(args.master)
    spark.sparkContext.setLogLevel("WARN")
    try:
        level1(spark, args.dataset, args.out)
    except Level1Error as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        spark.stop()
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
