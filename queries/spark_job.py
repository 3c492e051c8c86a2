"""The catalog built by Apache Spark, for a league whose logs outgrow one machine.

``tabletape spark build-catalog --logs DIR|URL --out DIR`` runs it; so does ``spark-submit`` of
the command's own file, :mod:`tabletape.commands.spark` (``python -m tabletape.commands.spark``
takes the same options)::

    spark-submit --master spark://head:7077 \\
        "$(python -c 'import tabletape.commands.spark as job; print(job.__file__)')" \\
        --logs s3a://league/games --out /shared/league-catalog

Spark reads the JSON Lines logs (a ledger's ``games/`` folder or any folder Spark reads:
``file://``, ``s3a://``, ``hdfs://``) as one record per log file, the game whole and byte for
byte (the ``binaryFile`` source), so every game is folded by one task. Each task writes its
games into a scratch ledger and loads them into an in-memory catalog with the code ``sync``
runs (:func:`tabletape.queries.loading.load_logs`: the ledger's chain check, the game's own
rules, the same projections): the rules are never re-implemented for Spark. The task then
writes its catalog's tables into the export's staging folder as ``export --parquet`` does
(:func:`tabletape.queries.parquet.write_table`: same columns, types, Hive partitions
``kind=…/month=…``, key-value metadata), one file per task and partition. The driver gathers
what the tasks did, writes the manifest (``_tabletape.json``, the games left out in its
``problems``) and renames the folder into place (:func:`tabletape.queries.parquet.
staged_export`): a reader never sees half a catalog.

The output folder is a file system path every executor can write (one machine, or a mount the
cluster shares); the logs may be anywhere Spark reads. A log that does not verify or fold is
left out and named, as ``sync`` names it. Simulated games are left out unless
``include_simulated`` (as the catalog's tables show them).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from tabletape.ledger.errors import TabletapeError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

INSTALL = "pip install 'tabletape[spark]'"
"""How to get pyspark, as errors say it."""

LOG_LEVELS = ("ERROR", "WARN", "INFO", "DEBUG")
"""Spark's own log levels a run may choose (it logs to standard error)."""

QUIET_LOG4J = """\
rootLogger.level = {level}
rootLogger.appenderRef.stderr.ref = stderr
appender.console.type = Console
appender.console.name = stderr
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{{HH:mm:ss}} %p %c{{1}}: %m%n%ex
"""
"""Spark's log4j2 configuration while the job starts its own JVM: ``level`` and above only,
on standard error (Spark's default says INFO lines and a banner before a level can be set)."""


class SparkUnavailable(TabletapeError):
    """Spark cannot run here: pyspark is not installed, or no Java runtime (exit 1)."""

    exit_code = 1


class SparkRefused(TabletapeError):
    """Logs the job cannot read, or options it cannot take (exit 2)."""

    exit_code = 2


class GamesLeftOut(TabletapeError):
    """``--strict``: a log did not verify or fold; nothing was written (exit 1)."""

    exit_code = 1


class Job(msgspec.Struct, frozen=True):
    """What every task is told: where to write, the export's versions, which games count."""

    stage: str
    """The export's staging folder (every executor writes there)."""
    versions: dict[str, str]
    """:func:`tabletape.queries.parquet.export_versions`, the same in every file."""
    include_simulated: bool = False


class TaskResult(msgspec.Struct):
    """What one task did: rows written per table, its games' partitions, its games left out."""

    rows: dict[str, int]
    loaded: int
    """Events the task folded and loaded (simulated games too, whether exported or not)."""
    partitions: list[tuple[str, ...]]
    """:func:`tabletape.queries.parquet.partition_games` rows of the task's catalog."""
    problems: dict[str, str]
    error: str = ""
    """Why the task could not write its files (the job then fails, nothing replaced)."""


class BuildReport(msgspec.Struct, kw_only=True):
    """What ``spark build-catalog`` wrote (its ``--json``)."""

    directory: str
    tables: dict[str, int]
    """Rows per table, as ``export --parquet --json`` says them."""
    games: int
    events: int
    """Events exported (the ``events`` table's rows)."""
    loaded: int
    """Events folded (simulated games too when they are left out)."""
    tasks: int
    """Spark tasks the logs were split into."""
    seconds: float
    problems: dict[str, str] = {}
    """Every game left out -> why (its log fails verification, or does not fold)."""


# -- the driver -----------------------------------------------------------------------------------


def build_catalog(logs: str, out: Path, *, include_simulated: bool = False,
                  strict: bool = False, master: str | None = None, log_level: str = "ERROR",
                  session: SparkSession | None = None,
                  stage: Callable[[str], None] = lambda _: None) -> BuildReport:
    """Fold every log in ``logs`` on Spark and write the catalog as Parquet to ``out``.

    ``session``: the Spark session to use (kept running); otherwise the session already
    running in this process (kept running too), or one started on ``master`` (by default
    Spark's own: ``local[*]``, or what ``spark-submit`` was given) and stopped at the end.
    ``strict``: a game left out fails the job before anything is replaced. ``stage`` is told
    what the job is doing as it goes (for a person waiting: starting Spark takes a while).
    """
    from tabletape.queries.parquet import check_target

    began = time.perf_counter()
    source, ledger_root = logs_source(logs)
    target = check_target(out, ledger_root)
    if session is None:
        stage("starting Spark")
    spark, own = (session, False) if session is not None else running_session(master,
                                                                                 log_level)
    try:
        stage("verifying and folding the logs on Spark")
        report = write_catalog(spark, logs_folder(spark, source), target, include_simulated,
                               strict)
    finally:
        if own:
            spark.stop()
    report.seconds = round(time.perf_counter() - began, 3)
    return report


def write_catalog(spark: SparkSession, url: str, target: Path, include_simulated: bool,
                  strict: bool) -> BuildReport:
    """Run the tasks into a staging folder; write the manifest; rename it into place."""
    from tabletape.queries.parquet import (
        export_manifest,
        export_versions,
        fingerprint_partitions,
        finish_export,
        public_tables,
        staged_export,
    )

    versions = export_versions()
    with staged_export(target) as stage:
        results = run_tasks(spark, url, Job(str(stage), versions, include_simulated))
        failed = [result.error for result in results if result.error]
        if failed:
            raise OSError(failed[0])
        problems = {game: why for result in results for game, why in result.problems.items()}
        if strict and problems:
            raise GamesLeftOut(f"{len(problems)} of the logs do not verify or fold (--strict): "
                               f"nothing was written; first {min(problems)}: "
                               f"{problems[min(problems)]}")
        with empty_catalog() as con:
            rows = {table: sum(result.rows.get(table, 0) for result in results)
                    for table in public_tables(con)}
            prints = fingerprint_partitions(
                (game for result in results for game in result.partitions), versions)
            manifest = export_manifest(con, versions, prints, rows, problems)
        finish_export(stage, manifest)
    return BuildReport(directory=str(target), tables=rows, games=rows.get("games", 0),
                       events=rows.get("events", 0),
                       loaded=sum(result.loaded for result in results), tasks=len(results),
                       seconds=0.0, problems=dict(sorted(problems.items())))


def run_tasks(spark: SparkSession, url: str, job: Job) -> list[TaskResult]:
    """Every log under ``url`` folded and written by Spark's tasks; what each task did.

    A failure inside Spark (an executor lost, a file it cannot read) is :class:`OSError`, in
    one line.
    """
    frame = (spark.read.format("binaryFile").option("pathGlobFilter", "*.jsonl")
             .load(url).select("path", "content"))
    try:
        return frame.rdd.mapPartitionsWithIndex(partial(build_task, job=job)).collect()
    except Exception as error:  # py4j's and pyspark's errors: a page of JVM stack
        raise OSError(f"the Spark job failed: {spark_message(error)}") from None


def spark_message(error: BaseException) -> str:
    """The line of a Spark or JVM error that says what went wrong (its stack left out).

    >>> spark_message(RuntimeError("An error occurred\\n java.io.FileNotFoundException: x\\n at"))
    'java.io.FileNotFoundException: x'
    """
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    for line in lines:
        if "Exception:" in line or "Error:" in line:
            return line
    return lines[0] if lines else type(error).__name__


def logs_source(logs: str) -> tuple[str, Path | None]:
    """The folder Spark reads, and the ledger it belongs to when it is on this machine.

    A local folder must exist; a ledger (a folder holding ``games/``) means its ``games/``.
    A URL of another scheme (``s3a://``, ``hdfs://``) is checked once Spark runs.
    """
    if "://" in logs and not logs.startswith("file://"):
        return logs, None
    folder = Path(logs.removeprefix("file://")).expanduser()
    if not folder.is_dir():
        what = "is a file" if folder.exists() else "does not exist"
        raise SparkRefused(f"the logs folder {logs} {what}: name a ledger, its games/ folder, "
                           "or a folder of .jsonl logs")
    folder = folder.resolve()
    if (folder / "games").is_dir():
        return (folder / "games").as_uri(), folder
    return folder.as_uri(), folder.parent if folder.name == "games" else folder


def logs_folder(spark: SparkSession, url: str) -> str:
    """``url``, or its ``games/`` folder when it is a ledger's; refused when Spark cannot list
    it (no such folder, or a scheme with no file system configured)."""
    context: Any = spark.sparkContext  # py4j's handles: the JVM, Hadoop's configuration
    jvm, conf = context._jvm, context._jsc.hadoopConfiguration()
    try:
        path = jvm.org.apache.hadoop.fs.Path(url)
        files = path.getFileSystem(conf)
        if not files.getFileStatus(path).isDirectory():
            raise SparkRefused(f"the logs folder {url} is a file: name a folder of .jsonl logs")
        games = jvm.org.apache.hadoop.fs.Path(path, "games")
        return str(games.toString()) if files.exists(games) else url
    except SparkRefused:
        raise
    except Exception as error:  # py4j: FileNotFoundException, no FileSystem for the scheme
        raise SparkRefused(f"Spark cannot read the logs folder {url}: "
                           f"{spark_message(error)}") from None


@contextmanager
def empty_catalog() -> Iterator[Any]:
    """An in-memory catalog with every table and view and no game (the tables' columns)."""
    import duckdb

    from tabletape.queries.schema import known_schemas, prepare_tables

    con = duckdb.connect()
    try:
        con.execute("SET threads = 1")
        prepare_tables(con, known_schemas(), rebuild=False)
        yield con
    finally:
        con.close()


# -- starting Spark -------------------------------------------------------------------------------


def java_runtime() -> str | None:
    """The Java runtime Spark would start (``$JAVA_HOME/bin/java``, else ``java`` on the path),
    or None."""
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").is_file():
        return str(Path(home) / "bin" / "java")
    return shutil.which("java")


def running_session(master: str | None, log_level: str) -> tuple[SparkSession, bool]:
    """The Spark session running in this process, else a new one (:func:`start_session`); and
    whether it is new (the job stops only a session it started)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise SparkUnavailable(f"pyspark is not installed: {INSTALL}") from None
    active = SparkSession.getActiveSession()
    if active is not None:
        return active, False
    return start_session(master, log_level), True


def start_session(master: str | None, log_level: str = "ERROR") -> SparkSession:
    """A Spark session for the job (``spark-submit``'s own when it runs the job), quiet below
    ``log_level``; :class:`SparkUnavailable` when pyspark or Java is missing."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise SparkUnavailable(f"pyspark is not installed: {INSTALL}") from None
    if log_level.upper() not in LOG_LEVELS:
        raise SparkRefused(f"no log level {log_level!r}: one of {', '.join(LOG_LEVELS)}")
    builder = (SparkSession.builder.appName("tabletape build-catalog")
               .config("spark.ui.showConsoleProgress", "false"))
    if master:
        builder = builder.master(master)
    own_jvm = "PYSPARK_GATEWAY_PORT" not in os.environ  # spark-submit started one already
    if own_jvm and java_runtime() is None:
        raise SparkUnavailable("no Java runtime found (Spark needs Java 17 or later): install "
                               "one (Debian: apt-get install default-jre-headless) or set "
                               "JAVA_HOME")
    with tempfile.TemporaryDirectory(prefix="tabletape-spark-") as scratch:
        if own_jvm:
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # workers import tabletape
            config = Path(scratch) / "log4j2.properties"
            config.write_text(QUIET_LOG4J.format(level=log_level.lower()), encoding="utf-8")
            builder = builder.config("spark.driver.extraJavaOptions",
                                     f"-Dlog4j2.configurationFile={config.as_uri()}")
        try:
            spark = builder.getOrCreate()
        except Exception as error:  # the JVM did not start: pyspark's error, then Java's
            raise SparkUnavailable(f"Spark did not start: {spark_message(error)}") from None
    spark.sparkContext.setLogLevel(log_level.upper())
    return spark


# -- a task, in a Python worker -------------------------------------------------------------------


def build_task(index: int, logs: Iterable[Any], job: Job) -> Iterator[TaskResult]:
    """Task ``index``: its logs (``path``, ``content`` rows) into a scratch ledger, folded into
    an in-memory catalog, written as Parquet files named after the task (a task run again, as
    Spark does after a lost executor, writes the same files)."""
    from tabletape.ledger import Ledger

    with tempfile.TemporaryDirectory(prefix="tabletape-spark-task-") as scratch:
        ledger = Ledger(Path(scratch) / "ledger")
        ledger.games_dir.mkdir(parents=True)
        for row in logs:
            (ledger.games_dir / game_file(row.path)).write_bytes(row.content)
        yield fold_and_write(ledger, index, job)


def game_file(url: str) -> str:
    """The file name of a log Spark read (its game id and ``.jsonl``), URL escapes undone.

    >>> game_file("file:/league/games/rs-k7pq.jsonl"), game_file("s3a://b/g/a%20b.jsonl")
    ('rs-k7pq.jsonl', 'a b.jsonl')
    """
    from urllib.parse import unquote, urlsplit

    return unquote(urlsplit(url).path.rsplit("/", 1)[-1])


def fold_and_write(ledger: Any, index: int, job: Job) -> TaskResult:
    """``ledger``'s logs loaded as ``sync`` loads them, then every table written to the stage."""
    import duckdb

    from tabletape.queries.loading import load_logs
    from tabletape.queries.parquet import partition_games, public_tables, write_table
    from tabletape.queries.schema import INCLUDE_SIMULATED
    from tabletape.queries.sync import stored_problems

    with empty_catalog() as con:
        todo = [(log, None) for _, log in sorted(ledger.log_files().items())]
        loaded = sum(result.events for result in load_logs(con, ledger, todo, None, None))
        if job.include_simulated:
            con.execute(f"SET VARIABLE {INCLUDE_SIMULATED} = true")
        rows: dict[str, int] = {}
        try:
            for table in public_tables(con):
                rows[table] = write_table(con, Path(job.stage), table, job.versions,
                                          files=f"part-{index:05d}-{{i}}")["rows"]
        except (OSError, duckdb.Error) as error:
            return TaskResult({}, loaded, [], {}, error=f"task {index}: {error}")
        return TaskResult(rows, loaded, partition_games(con), stored_problems(con))
