"""``tabletape sql`` and ``tabletape sync``: read-only refusals, output formats, one-line errors."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

import tabletape
from tabletape.ledger import Ledger
from tests.queries.conftest import bot_games

pytestmark = pytest.mark.smoke  # also run on the declared minimum versions (.ci/minimums)

APP = tabletape.build_app()


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Ledger:
    ledger = Ledger(tmp_path_factory.mktemp("sql") / "ledger")
    bot_games(ledger, "duel", 6)
    return ledger


def run(ledger: Ledger, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(APP, [*args, "--ledger", str(ledger.root)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize("statement", [
    "INSERT INTO games (game) VALUES ('x')",
    "CREATE TABLE mine AS SELECT 1 AS one",
    "COPY games TO 'stolen.csv'",
    "COPY (SELECT * FROM games) TO 'stolen.parquet' (FORMAT PARQUET)",
    "ATTACH 'other.duckdb' AS other",
    "DROP TABLE games",
    "UPDATE games SET kind = 'x'",
    "DELETE FROM events",
    "SET threads = 1",
    "INSTALL httpfs",
    "PRAGMA threads = 2",
    "EXPLAIN ANALYZE INSERT INTO games (game) VALUES ('x')",
    "WITH a AS (SELECT 1) INSERT INTO games (game) SELECT 'x' FROM a",
    "SELECT 1; DROP TABLE games",
])
def test_writing_statements_are_refused(games: Ledger, statement: str) -> None:
    code, output = run(games, "sql", statement)
    assert code == 2
    assert "Traceback" not in output
    assert output.startswith("error: ")
    assert "read-only" in output or "one statement" in output
    code, output = run(games, "sql", "SELECT count(*) AS n FROM games", "--format", "json")
    assert json.loads(output) == [{"n": 6}]


def test_the_catalog_connection_itself_is_read_only(games: Ledger) -> None:
    from tabletape.queries.catalog import connect

    with connect(games) as con, pytest.raises(duckdb.Error, match="read-only"):
        con.execute("INSERT INTO all_games (game) VALUES ('x')")


@pytest.mark.parametrize("statement", [
    "WITH w AS (SELECT * FROM games) SELECT count(*) FROM w",
    "FROM games SELECT game",
    "DESCRIBE games",
    "SHOW TABLES",
    "SUMMARIZE battles",
    "EXPLAIN SELECT * FROM dice",
    "PRAGMA show_tables",
    "PRAGMA table_info('events')",
])
def test_reading_statements_run(games: Ledger, statement: str) -> None:
    code, output = run(games, "sql", statement)
    assert code == 0, output


def test_a_duckdb_error_is_one_message(games: Ledger) -> None:
    code, output = run(games, "sql", "SELECT nope FROM games")
    assert code == 2
    assert output.startswith("error: Binder Error") and "Traceback" not in output
    code, output = run(games, "sql", "SELEKT 1")
    assert code == 2 and "syntax error" in output


def test_csv_output(games: Ledger, tmp_path: Path) -> None:
    code, output = run(games, "sql", "SELECT game, players, finished FROM games ORDER BY game",
                       "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(output)))
    assert code == 0 and len(rows) == 6
    assert json.loads(rows[0]["players"]) == ["olga", "patrick"]
    assert rows[0]["finished"] == "True"
    target = tmp_path / "games.csv"
    code, _ = run(games, "sql", "SELECT game FROM games", "-f", "csv", "--output", str(target))
    assert code == 0 and target.read_text().splitlines()[0] == "game"


def test_json_output_is_a_list_of_row_objects(games: Ledger) -> None:
    code, output = run(games, "sql", "SELECT game, options, started, winners FROM games "
                       "ORDER BY game LIMIT 2", "--format", "json")
    rows = json.loads(output)
    assert code == 0 and [sorted(r) for r in rows] == [["game", "options", "started",
                                                        "winners"]] * 2
    assert rows[0]["options"]["troops"] == 8
    assert rows[0]["started"].startswith("2026-01-01T18:00:00")


def test_parquet_output(games: Ledger, tmp_path: Path) -> None:
    target = tmp_path / "battles.parquet"
    code, _ = run(games, "sql", "SELECT * FROM battles", "--format", "parquet", "-o", str(target))
    assert code == 0
    with duckdb.connect() as con:
        count = con.execute(f"SELECT count(*) FROM read_parquet('{target}')").fetchone()
        with connect_catalog(games) as catalog:
            assert count == catalog.execute("SELECT count(*) FROM battles").fetchone()
    code, output = run(games, "sql", "SELECT 1", "--format", "parquet")
    assert code == 2 and "--output" in output


def connect_catalog(ledger: Ledger) -> duckdb.DuckDBPyConnection:
    from tabletape.queries.catalog import connect

    return connect(ledger, sync_first=False)


def test_table_output(games: Ledger) -> None:
    code, output = run(games, "sql", "SELECT kind, count(*) AS n FROM games GROUP BY kind")
    assert code == 0 and "duel" in output and "1 row" in output


def test_sync_json_shape(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "ledger")
    bot_games(ledger, "duel", 2)
    code, output = run(ledger, "sync", "--json")
    report = json.loads(output)
    assert code == 0
    assert {k: report[k] for k in ("games", "loaded", "new", "events", "problems")} == {
        "games": 2, "loaded": 2, "new": 2, "events": report["events"], "problems": {}}
    code, output = run(ledger, "sync", "--json")
    assert json.loads(output)["unchanged"] == 2
    code, output = run(ledger, "sync")
    assert code == 0 and "nothing changed" in output


def test_refusal_from_a_real_process_has_no_traceback(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "tabletape", "sql", "CREATE TABLE x (a INT)",
         "--ledger", str(tmp_path / "ledger")],
        cwd=root, capture_output=True, text=True)
    assert done.returncode == 2
    assert "read-only" in done.stderr and "Traceback" not in done.stderr + done.stdout


def test_cells_are_shown_as_they_are_never_as_markup(games: Ledger) -> None:
    """A value that looks like rich markup is printed as it is, not interpreted (or crashing)."""
    code, output = run(games, "sql", "SELECT '[/x] [bold]loud' AS t")
    assert code == 0 and "[/x] [bold]loud" in output


# -- where results are written (issue 12) -------------------------------------------------------


@pytest.mark.parametrize("fmt", ["csv", "json", "table", "parquet"])
def test_sql_output_never_writes_inside_the_ledger(tmp_path: Path, fmt: str) -> None:
    ledger = Ledger(tmp_path / "ledger")
    bot_games(ledger, "duel", 1)
    log = ledger.path(ledger.game_ids()[0])
    before = log.read_bytes()
    link = tmp_path / "innocent.csv"
    link.symlink_to(log)
    for target in (log, ledger.root / "results.csv", link):
        code, output = run(ledger, "sql", "SELECT 1 AS one", "--format", fmt, "--output",
                           str(target), "--force")
        assert code == 2 and "inside the ledger" in " ".join(output.split()), output
    assert log.read_bytes() == before
    assert not (ledger.root / "results.csv").exists()


def test_sql_output_overwrites_a_file_only_with_force(games: Ledger, tmp_path: Path) -> None:
    target = tmp_path / "kept.csv"
    target.write_text("precious\n")
    code, output = run(games, "sql", "SELECT 1 AS one", "--format", "csv", "--output",
                       str(target))
    assert code == 2 and "--force" in output and target.read_text() == "precious\n"
    code, output = run(games, "sql", "SELECT 1 AS one", "--format", "csv", "--output",
                       str(target), "--force")
    assert code == 0 and target.read_text() == "one\n1\n"


def test_export_never_writes_inside_the_ledger(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "ledger")
    bot_games(ledger, "duel", 2)
    first, second = ledger.game_ids()
    before = {game: ledger.path(game).read_bytes() for game in (first, second)}
    code, output = run(ledger, "export", first, "--jsonl", str(ledger.path(second)))
    assert code == 2 and "inside the ledger" in " ".join(output.split())
    code, output = run(ledger, "export", "--parquet", str(ledger.root))
    assert code == 2 and "inside the ledger" in " ".join(output.split())
    assert {game: ledger.path(game).read_bytes() for game in (first, second)} == before
