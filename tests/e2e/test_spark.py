"""Issue 17, Spark when one machine is not enough: ``tabletape spark build-catalog`` on
``local[2]`` over a few hundred simulated games of every kind writes what the DuckDB catalog of
the same logs holds, row for row, in the schema and partitions ``export --parquet`` writes; a
damaged log is named, never used or dropped silently; bad input is one message, no traceback.

Spark starts once for the module (its JVM takes seconds); the tests skip, saying why, only when
no Java runtime can be found. The tests that need pyspark are marked ``spark`` (not in the default
run; .ci/run installs the spark extra and runs them); bad input needs no Spark and runs always.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq
import pytest

from tabletape.ledger import Ledger
from tabletape.queries import parquet, spark_job
from tabletape.queries.catalog import catalog_path, opened, sync
from tabletape.replay.simulate import simulate
from tests.queries.conftest import bot_games
from tests.support.cli import run, said

KINDS = ("risk-strike", "risk-deep-space", "risk-transformers", "marvel-united")
SIMULATED = 40
"""Simulated games of each kind (the bots' whole games; a few hundred in all)."""
DAMAGED = "rs-bad"


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Ledger:
    """Simulated games of every kind, two recorded (real) games of each, and a damaged log."""
    ledger = Ledger(tmp_path_factory.mktemp("spark") / "ledger")
    for number, kind in enumerate(KINDS):
        simulate(ledger, kind, games=SIMULATED, seed=number + 1)
        bot_games(ledger, kind, 2)
    log = ledger.path("rs-0-0").read_bytes()
    middle = log.index(b'"seq":5,')  # a byte of the sixth event flipped: the chain breaks there
    ledger.path(DAMAGED).write_bytes(log[:middle] + log[middle:].replace(b"olga", b"olgA", 1))
    sync(ledger)
    return ledger


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    """One Spark session on ``local[2]`` for the module."""
    if spark_job.java_runtime() is None:
        pytest.skip("no Java runtime (JAVA_HOME or java on the PATH): Spark cannot start; "
                    ".ci/run installs Debian's default-jre-headless")
    session = spark_job.start_session("local[2]")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def with_simulated(league: Ledger, spark: Any) -> spark_job.BuildReport:
    """The Spark job's export of every game, simulated ones too."""
    out = league.root.parent / "spark-all"
    return spark_job.build_catalog(str(league.root), out, include_simulated=True, session=spark)


@pytest.fixture(scope="module")
def recorded(league: Ledger) -> Path:
    """A folder (not a ledger) of the league's recorded games and its damaged log: quick."""
    logs = league.root.parent / "recorded"
    logs.mkdir()
    for game in league.game_ids():
        if "-s" not in game:
            (logs / f"{game}.jsonl").write_bytes(league.path(game).read_bytes())
    return logs


@pytest.fixture(scope="module")
def real_only(league: Ledger, recorded: Path, spark: Any) -> tuple[Path, Path]:
    """The Spark job's export of the recorded games' logs (a ``file://`` URL) and the ledger's
    ``export --parquet`` (which leaves the simulated ones out)."""
    ours, theirs = league.root.parent / "spark-real", league.root.parent / "export"
    spark_job.build_catalog(recorded.as_uri(), ours, session=spark)
    code, output = run("export", "--parquet", str(theirs), "--ledger", str(league.root))
    assert code == 0, output
    return ours, theirs


def tables_of(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """Every table people query, with its columns (the export's kind and month left out)."""
    return {table: [name for name, _ in parquet.table_columns(con, table)]
            for table in parquet.public_tables(con)}


def rows(con: duckdb.DuckDBPyConnection, table: str, columns: list[str]) -> list[Any]:
    picked = ", ".join(parquet.quote(name) for name in columns)
    return con.execute(f"SELECT {picked} FROM {parquet.quote(table)} ORDER BY ALL").fetchall()


@pytest.mark.spark
def test_every_table_is_the_duckdb_catalogs_row_for_row(
        league: Ledger, with_simulated: spark_job.BuildReport) -> None:
    export = duckdb.connect()
    parquet.open_export(export, Path(with_simulated.directory))
    with opened(catalog_path(league), read_only=True) as con:
        con.execute("SET VARIABLE include_simulated = true")
        tables = tables_of(con)
        assert set(tables) == set(with_simulated.tables)
        for table, columns in tables.items():
            expected = rows(con, table, columns)
            assert with_simulated.tables[table] == len(expected), table
            assert rows(export, table, columns) == expected, table
    assert with_simulated.games == len(league.log_files()) - 1  # every game but the damaged one
    kinds = {kind for (kind,) in export.execute("SELECT DISTINCT kind FROM games").fetchall()}
    assert kinds == set(KINDS)
    assert with_simulated.tasks > 1  # the games were folded by several tasks


@pytest.mark.spark
def test_a_damaged_log_is_named_as_sync_names_it(league: Ledger,
                                                 with_simulated: spark_job.BuildReport) -> None:
    synced = sync(league)
    assert list(synced.problems) == [DAMAGED]
    assert with_simulated.problems == synced.problems  # the same check, the same words
    manifest = parquet.read_manifest(Path(with_simulated.directory))
    assert manifest["problems"] == synced.problems
    export = duckdb.connect()
    parquet.open_export(export, Path(with_simulated.directory))
    for table in ("games", "events", "players"):
        assert not export.execute(f"SELECT count(*) FROM {table} WHERE game = ?",
                                  [DAMAGED]).fetchone()[0]  # type: ignore[index]


def partition_folders(folder: Path) -> set[str]:
    return {str(file.parent.relative_to(folder)) for file in folder.rglob("*.parquet")}


@pytest.mark.spark
def test_the_schema_partitions_and_metadata_are_export_parquets(
        real_only: tuple[Path, Path]) -> None:
    ours, theirs = real_only
    assert partition_folders(ours) == partition_folders(theirs)
    assert all("1970" not in folder for folder in partition_folders(ours))  # simulated: out
    mine, export = parquet.read_manifest(ours), parquet.read_manifest(theirs)
    assert mine["tables"] == export["tables"]
    assert mine["fingerprints"] == export["fingerprints"]
    assert set(mine) == set(export)
    for table in export["tables"]:
        files = sorted((theirs / table).rglob("*.parquet"))
        if not files:
            continue
        expected = pq.read_schema(files[0])
        for file in (ours / table).rglob("*.parquet"):
            schema = pq.read_schema(file)
            assert schema.remove_metadata() == expected.remove_metadata(), file
            meta = {key: value for key, value in schema.metadata.items()
                    if key.startswith(b"tabletape.")}
            wanted = {key: value for key, value in expected.metadata.items()
                      if key.startswith(b"tabletape.")}
            assert meta.keys() == wanted.keys()
            assert {k: v for k, v in meta.items() if k != b"tabletape.exported_at"} == \
                {k: v for k, v in wanted.items() if k != b"tabletape.exported_at"}


@pytest.mark.spark
def test_sql_parquet_answers_over_the_jobs_output(real_only: tuple[Path, Path]) -> None:
    ours, theirs = real_only
    query = "SELECT kind, count(*) AS n, sum(turns) FROM games GROUP BY kind ORDER BY kind"
    answers = []
    for folder in (ours, theirs):
        code, output = run("sql", query, "--parquet", str(folder), "--format", "json")
        assert code == 0, output
        answers.append(json.loads(output))
    assert answers[0] == answers[1] and len(answers[0]) == len(KINDS)


@pytest.mark.spark
def test_the_command_writes_and_replaces_its_export(recorded: Path, spark: Any,
                                                    tmp_path: Path) -> None:
    """The CLI runs in the module's Spark session (it is kept running); a second run replaces
    the first whole; ``--strict`` refuses to write while a log is damaged."""
    logs = recorded
    out = tmp_path / "catalog"
    for _ in range(2):
        code, output = run("spark", "build-catalog", "--logs", str(logs), "--out", str(out),
                           "--json")
        assert code == 0, output
    report, _ = json.JSONDecoder().raw_decode(output[output.index("{"):])
    assert report["directory"] == str(out) and report["tables"]["games"] == 8
    assert list(report["problems"]) == [DAMAGED]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog"]  # no staging folder left
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    code, output = run("spark", "build-catalog", "--logs", str(logs), "--out", str(out),
                       "--strict")
    assert code == 1 and "nothing was written" in said(output) and "Traceback" not in output
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert spark.sparkContext._jsc is not None  # the session it did not start still runs


@pytest.mark.spark
def test_a_zones_kind_survives_the_partitions(league: Ledger,
                                           with_simulated: spark_job.BuildReport) -> None:
    export = duckdb.connect()
    parquet.open_export(export, Path(with_simulated.directory))
    with opened(catalog_path(league), read_only=True) as con:
        con.execute("SET VARIABLE include_simulated = true")
        columns = ["game", "seq", "zone_kind"]
        assert rows(export, "zone_changes", columns) == rows(con, "zone_changes", columns)


# -- bad input: one message, no traceback, nothing written (no Spark needed) -----------------


@pytest.mark.parametrize(("args", "code", "message"), [
    (("--logs", "{tmp}/nowhere", "--out", "{tmp}/out"), 2, "the logs folder {tmp}/nowhere does "
     "not exist"),
    (("--logs", "{tmp}/logs", "--out", "{tmp}/foreign"), 2, "holds files and no _tabletape.json"),
    (("--logs", "{tmp}/logs", "--out", "{tmp}/no/such/out"), 2, "does not exist (create it "
     "first)"),
    (("--logs", "{tmp}/logs", "--out", "{tmp}/logs/games/out"), 1, "is inside the ledger"),
])
def test_bad_folders_are_one_message(tmp_path: Path, args: tuple[str, ...], code: int,
                                     message: str) -> None:
    (tmp_path / "logs" / "games").mkdir(parents=True)
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "notes.txt").write_text("mine")
    given = [arg.format(tmp=tmp_path) for arg in args]
    done, output = run("spark", "build-catalog", *given)
    assert done == code, output
    assert message.format(tmp=tmp_path) in said(output)
    assert "Traceback" not in output
    assert (tmp_path / "foreign" / "notes.txt").read_text() == "mine"


def test_no_pyspark_says_how_to_install_it(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspark.sql", None)  # import fails as when not installed
    (tmp_path / "games").mkdir()
    code, output = run("spark", "build-catalog", "--logs", str(tmp_path), "--out",
                       str(tmp_path.parent / f"{tmp_path.name}-out"))
    assert code == 1 and "pip install 'tabletape[spark]'" in said(output), output
    assert "Traceback" not in output


@pytest.mark.spark
def test_no_java_is_one_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.delenv("PYSPARK_GATEWAY_PORT", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no java on it
    from pyspark.sql import SparkSession  # and no session running (the module's is)

    monkeypatch.setattr(SparkSession, "getActiveSession", staticmethod(lambda: None))
    (tmp_path / "games").mkdir()
    code, output = run("spark", "build-catalog", "--logs", str(tmp_path), "--out",
                       str(tmp_path.parent / f"{tmp_path.name}-out"), "--json")
    assert code == 1, output
    assert "no Java runtime found" in said(output) and "Traceback" not in output


def test_the_module_runs_for_spark_submit() -> None:
    """``python -m tabletape.commands.spark`` (what spark-submit runs) takes the command's
    options."""
    done = subprocess.run([sys.executable, "-m", "tabletape.commands.spark", "--help"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "--logs" in done.stdout and "--out" in done.stdout
