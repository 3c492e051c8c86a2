"""Issue 18, the SQL door: ``tabletape sql`` (on the catalog, or ``--parquet DIR``) reaches the
catalog, or the export asked for, and nothing else: no other file, folder or URL, no setting
changed, no DuckDB extension installed or loaded. Each refusal is one message, exit 2, no
traceback, nothing written; what tabletape itself writes (``--output``) still works."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tabletape.ledger import Ledger
from tabletape.queries.database import door_refusal, folder_prefix, query_door
from tests.queries.conftest import bot_games
from tests.support.cli import run, said


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Ledger:
    """Four duel games people played, synced, and exported as Parquet beside the ledger."""
    store = Ledger(tmp_path_factory.mktemp("door") / "ledger")
    bot_games(store, "duel", 4)
    code, output = run("export", "--parquet", str(export_of(store)), "--ledger", str(store.root))
    assert code == 0, output
    return store


def export_of(store: Ledger) -> Path:
    return store.root.parent / "export"


@pytest.fixture(scope="module")
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder beside the ledger holding files a query must not read: a Parquet file, a CSV,
    and a folder whose name starts as the export's does."""
    folder = tmp_path_factory.mktemp("outside")
    with duckdb.connect() as con:
        con.execute(f"COPY (SELECT 42 AS secret) TO '{folder / 'secret.parquet'}'")
    (folder / "secret.csv").write_text("secret\n42\n")
    return folder


def refused(code: int, output: str, *words: str) -> None:
    """One message saying what was refused (``words``), exit 2, no traceback."""
    assert code == 2, output
    assert output.startswith("error: ") and "Traceback" not in output, output
    assert output.count("error:") == 1, output
    assert "refused" in said(output) and all(w in said(output) for w in words), output


READS = {
    "read_csv": ("SELECT * FROM read_csv('/etc/passwd', sep = ':')", "/etc/passwd"),
    "read_text": ("SELECT * FROM read_text('/etc/passwd')", "/etc/passwd"),
    "read_blob": ("SELECT * FROM read_blob('/etc/hostname')", "/etc/hostname"),
    "glob": ("SELECT * FROM glob('/*')", "/*"),
    "url": ("SELECT * FROM read_csv('https://example.com/x.csv')", "https://example.com"),
    "url_as_table": ("SELECT * FROM 'http://example.com/x.parquet'", "http://example.com"),
    "s3": ("SELECT * FROM read_parquet('s3://bucket/x.parquet')", "s3://bucket"),
    "extension_list": ("SELECT * FROM duckdb_extensions()", "out of reach"),
}
"""Reading statements (they pass the read-only check) that reach past the catalog: query,
and what the refusal names."""


@pytest.mark.parametrize("name", sorted(READS))
def test_reading_past_the_catalog_is_refused(ledger: Ledger, name: str) -> None:
    query, named = READS[name]
    code, output = run("sql", query, "--ledger", str(ledger.root))
    refused(code, output, named, "reads the catalog only")


def test_files_beside_the_catalog_are_out_of_reach(ledger: Ledger, outside: Path) -> None:
    """A Parquet file outside any export, a game's own log (the catalog holds what verified
    logs say; the log itself is not the door's), and a walk up out of the ledger."""
    log = ledger.path(ledger.game_ids()[0])
    for query in (f"SELECT * FROM read_parquet('{outside / 'secret.parquet'}')",
                  f"SELECT * FROM read_json('{log}')",
                  f"SELECT * FROM read_text('{ledger.root}/../../{outside.name}/secret.csv')"):
        code, output = run("sql", query, "--ledger", str(ledger.root))
        refused(code, output, "out of reach")


def test_an_extension_function_is_refused_not_installed(ledger: Ledger) -> None:
    code, output = run("sql", "SELECT * FROM st_read('/etc/passwd')", "--ledger",
                       str(ledger.root))
    refused(code, output, "spatial extension", "built-in functions only")


STATEMENTS = {
    "SET enable_external_access = true": "locked settings",
    "SET allowed_directories = ['/']": "locked settings",
    "RESET enable_external_access": "locked settings",
    "RESET threads": "locked settings",
    "PRAGMA threads = 1": "locked settings",
    "SET VARIABLE x = 1": "locked settings",
    "INSTALL httpfs": "no DuckDB extension",
    "LOAD httpfs": "no DuckDB extension",
    "FORCE INSTALL httpfs": "no DuckDB extension",
    "ATTACH '{out}/other.duckdb' AS other": "the catalog only",
    "ATTACH ':memory:' AS other": "the catalog only",
    "COPY games TO '{out}/stolen.csv'": "no other file",
    "COPY (SELECT * FROM read_text('/etc/passwd')) TO '{out}/passwd.csv'": "no other file",
    "EXPORT DATABASE '{out}/dump'": "no other file",
}
"""Statements that would change a setting, load an extension or reach another file -> why
the refusal says they are refused."""


@pytest.mark.parametrize("statement", sorted(STATEMENTS))
def test_settings_extensions_and_files_by_statement_are_refused(
        ledger: Ledger, tmp_path: Path, statement: str) -> None:
    query = statement.format(out=tmp_path)
    for where in (["--ledger", str(ledger.root)], ["--parquet", str(export_of(ledger))]):
        code, output = run("sql", query, *where)
        refused(code, output, STATEMENTS[statement])
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "jsonl", "parquet"])
def test_a_refused_query_writes_nothing(ledger: Ledger, tmp_path: Path, fmt: str) -> None:
    target = tmp_path / f"rows.{fmt}"
    code, output = run("sql", "SELECT * FROM read_text('/etc/passwd')", "--ledger",
                       str(ledger.root), "--format", fmt, "--output", str(target))
    if fmt in ("json", "jsonl"):  # a JSON answer's error is JSON too
        assert code == 2 and "refused" in json.loads(output)["error"], output
    else:
        refused(code, output, "/etc/passwd")
    assert os.listdir(tmp_path) == []
    target.write_bytes(b"precious")
    code, _ = run("sql", "SELECT * FROM read_text('/etc/passwd')", "--ledger", str(ledger.root),
                  "--format", fmt, "--output", str(target), "--force")
    assert code == 2 and target.read_bytes() == b"precious"
    assert os.listdir(tmp_path) == [target.name]


def test_a_refusal_from_a_real_process_has_no_traceback(ledger: Ledger) -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "tabletape", "sql", "SELECT * FROM read_csv('/etc/passwd')",
         "--ledger", str(ledger.root), "--no-sync"],
        cwd=root, capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert "Traceback" not in done.stderr and "/etc/passwd is out of reach" in said(done.stderr)
    assert "root:" not in done.stderr  # nothing of the file itself


# -- what the door lets through -------------------------------------------------------------------


def test_queries_on_the_catalog_still_run(ledger: Ledger) -> None:
    code, output = run("sql", "SELECT count(*) AS n, any_value(options->>'troops') AS troops "
                       "FROM games", "--ledger", str(ledger.root), "--json")
    assert code == 0 and json.loads(output) == [{"n": 4, "troops": "8"}]
    code, output = run("sql", "SELECT count(*) AS n FROM games", "--ledger", str(ledger.root),
                       "--include-simulated", "--json")
    assert code == 0 and json.loads(output) == [{"n": 4}]


def test_parquet_output_is_written_by_tabletape(ledger: Ledger, tmp_path: Path) -> None:
    target = tmp_path / "dice.parquet"
    code, output = run("sql", "SELECT * FROM dice", "--ledger", str(ledger.root), "--format",
                       "parquet", "--output", str(target))
    assert code == 0, output
    assert os.listdir(tmp_path) == [target.name]  # no scratch left beside it
    code, output = run("sql", "SELECT count(*) AS n FROM dice", "--ledger", str(ledger.root),
                       "--json")
    with duckdb.connect() as con:
        written = con.execute(f"SELECT count(*) FROM read_parquet('{target}')").fetchone()
    assert written == (json.loads(output)[0]["n"],)
    code, output = run("sql", "SELECT 1 AS one", "--ledger", str(ledger.root), "--format",
                       "parquet", "--output", str(target), "--force")
    assert code == 0, output
    with duckdb.connect() as con:
        assert con.execute(f"SELECT * FROM read_parquet('{target}')").fetchall() == [(1,)]


@pytest.mark.slow
def test_parquet_to_standard_output(ledger: Ledger) -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "tabletape", "sql", "SELECT 7 AS seven", "--ledger",
         str(ledger.root), "--no-sync", "--format", "parquet", "--output", "-"],
        cwd=root, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"PAR1") and done.stdout.endswith(b"PAR1")


def test_the_export_is_read_and_nothing_beside_it(ledger: Ledger, outside: Path,
                                                  tmp_path: Path) -> None:
    export = export_of(ledger)
    code, output = run("sql", "--parquet", str(export), "SELECT count(*) AS n FROM games",
                       "--json")
    assert code == 0 and json.loads(output) == [{"n": 4}], output
    files = export / "games" / "**" / "*.parquet"
    code, output = run("sql", "--parquet", str(export), f"SELECT count(*) AS n FROM "
                       f"read_parquet('{files}')", "--json")
    assert code == 0 and json.loads(output) == [{"n": 4}], output
    sibling = export.parent / (export.name + "-old")  # starts as the export's name does
    sibling.mkdir(exist_ok=True)
    (sibling / "secret.csv").write_text("secret\n42\n")
    for query in (f"SELECT * FROM read_parquet('{outside / 'secret.parquet'}')",
                  f"SELECT * FROM read_csv('{sibling / 'secret.csv'}')",
                  f"SELECT * FROM read_text('{export}/../ledger/catalog.duckdb')",
                  "SELECT * FROM read_text('/etc/passwd')"):
        code, output = run("sql", "--parquet", str(export), query)
        refused(code, output, "out of reach")
    target = tmp_path / "games.parquet"
    code, output = run("sql", "--parquet", str(export), "SELECT game FROM games", "--format",
                       "parquet", "--output", str(target))
    assert code == 0, output
    with duckdb.connect() as con:
        assert con.execute(f"SELECT count(*) FROM '{target}'").fetchone() == (4,)


def test_a_link_in_an_allowed_folder_reaches_nothing_outside(outside: Path,
                                                             tmp_path: Path) -> None:
    """DuckDB follows a link before it compares paths: a link planted in a folder the door
    opens (by whoever could write there) opens no file outside it."""
    folder = tmp_path / "export" / "games"
    folder.mkdir(parents=True)
    (folder / "peek.csv").symlink_to(outside / "secret.csv")
    with query_door(None, folders=[folder]) as con, pytest.raises(duckdb.Error) as raised:
        con.execute(f"SELECT * FROM read_csv('{folder / 'peek.csv'}')")
    assert "out of reach" in str(door_refusal(raised.value))


def damaged(code: int, output: str, *words: str) -> None:
    """One line: the export is damaged (``words`` say what), export it again; exit 2."""
    assert code == 2 and output.count("\n") == 1 and "Traceback" not in output, output
    assert "is damaged" in output and "export it again" in output, output
    assert all(word in output for word in words), output


def test_a_damaged_export_is_one_line(ledger: Ledger, outside: Path, tmp_path: Path) -> None:
    """A link or a stray file planted in an export's table folder, or a table's files gone:
    every query on it says the export is damaged, in one line (not DuckDB's Hive partition
    mismatch or "No files found"), and reads nothing."""
    export = tmp_path / "export"
    code, output = run("export", "--parquet", str(export), "--ledger", str(ledger.root))
    assert code == 0, output
    for planted in ("peek.csv", "passwd.parquet"):
        (export / "games" / planted).symlink_to(outside / "secret.csv")
        code, output = run("sql", "--parquet", str(export),
                           f"SELECT * FROM read_csv('{export / 'games' / planted}')")
        damaged(code, output, f"games/{planted} is a link")
        (export / "games" / planted).unlink()
    (export / "games" / "stray.parquet").write_bytes(b"PAR1")
    code, output = run("sql", "--parquet", str(export), "SELECT count(*) FROM games")
    damaged(code, output, "games/stray.parquet does not belong in it")
    (export / "games" / "stray.parquet").unlink()
    file = sorted((export / "games").glob("kind=*/month=*/*.parquet"))[0]
    kept = file.read_bytes()
    file.write_bytes(b"garbage")
    code, output = run("sql", "--parquet", str(export), "SELECT count(*) FROM games")
    damaged(code, output, "too small to be a Parquet file")
    file.write_bytes(kept)
    for partition in (export / "dice").iterdir():
        import shutil

        shutil.rmtree(partition)
    code, output = run("sql", "--parquet", str(export), "SELECT count(*) FROM games")
    damaged(code, output, "the files of the table dice are missing")


def in_progress(root: Path) -> Path:
    """A ledger at ``root`` with a game going on: its dice secret is in ``private``."""
    code, output = run("new", "risk-strike", "-p", "olga,patrick", "--ledger", str(root))
    assert code == 0, output
    (secret,) = (root / "private" / "dice").glob("*.secret")
    return secret


def test_a_ledger_in_the_export_folder_is_out_of_reach(ledger: Ledger, tmp_path: Path) -> None:
    """The leak the testers found: an export folder that came to hold a ledger (a game going
    on) let `sql --parquet` read the dice secret; "nobody can foresee a roll" (README, Fair
    play). Refused: the export's folder holds a ledger; and so is its replacing by an export."""
    club = tmp_path / "club"
    code, output = run("export", "--parquet", str(club), "--ledger", str(ledger.root))
    assert code == 0, output
    secret = in_progress(club / "ledger")
    code, output = run("sql", "--parquet", str(club),
                       f"SELECT content FROM read_text('{secret.parent}/*.secret')")
    refused(code, output, "holds the ledger", str(club / "ledger"))
    assert secret.read_text() not in output
    code, output = run("export", "--parquet", str(club), "--ledger", str(ledger.root))
    assert code == 2 and "holds the ledger" in said(output), output
    assert secret.exists()
    code, output = run("sql", "--parquet", str(secret.parent), "SELECT 1")
    assert code == 2 and "is inside the ledger" in said(output), output


def test_a_planted_manifest_opens_no_ledger(tmp_path: Path) -> None:
    """A 14-byte manifest planted in the folder holding the current ledger ($TABLETAPE_LEDGER)
    makes no export of it."""
    secret = in_progress(tmp_path / "ledger")
    (tmp_path / "_tabletape.json").write_text('{"tables": {}}')
    query = f"SELECT content FROM read_text('{secret}')"
    code, output = run("sql", "--parquet", str(tmp_path), query,
                       env={"TABLETAPE_LEDGER": str(tmp_path / "ledger")})
    refused(code, output, "holds the ledger")
    assert secret.read_text() not in output


def test_only_the_exports_tables_and_manifest_are_in_reach(ledger: Ledger,
                                                           tmp_path: Path) -> None:
    """The door opens on the export's table folders (its manifest names them) and its
    manifest, not on everything else the folder holds."""
    export = tmp_path / "export"
    code, output = run("export", "--parquet", str(export), "--ledger", str(ledger.root))
    assert code == 0, output
    (export / "notes").mkdir()
    (export / "notes" / "private.csv").write_text("secret\n42\n")
    code, output = run("sql", "--parquet", str(export),
                       f"SELECT * FROM read_csv('{export / 'notes' / 'private.csv'}')")
    refused(code, output, "out of reach")
    code, output = run("sql", "--parquet", str(export), "SELECT count(*) AS n FROM read_json("
                       f"'{export / '_tabletape.json'}')", "--json")
    assert code == 0 and json.loads(output) == [{"n": 1}], output


@pytest.mark.parametrize("place", ["games/evil.jsonl", "private/dice/x.secret", "linked/x.csv",
                                   "link.jsonl"])
@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_no_output_inside_a_ledger(ledger: Ledger, tmp_path: Path, place: str,
                                   fmt: str) -> None:
    """`sql --parquet DIR --output FILE` writes nowhere in a ledger (the current one or any
    other, links followed), as `sql --output` without --parquet does not."""
    other = tmp_path / "other"
    in_progress(other)
    (tmp_path / "linked").symlink_to(other / "games")
    (tmp_path / "link.jsonl").symlink_to(next((other / "games").glob("*.jsonl")))
    target = tmp_path / place if place.startswith("link") else other / place
    before = {path: path.read_bytes() for path in other.rglob("*") if path.is_file()}
    for where in (["--parquet", str(export_of(ledger))], ["--ledger", str(ledger.root)]):
        code, output = run("sql", "SELECT 1 AS one", *where, "--format", fmt, "--output",
                           str(target))
        assert code == 2 and "is inside the ledger" in said(output), output
    assert {path: path.read_bytes() for path in other.rglob("*") if path.is_file()} == before
    code, output = run("sql", "SELECT 1 AS one", "--parquet", str(export_of(ledger)),
                       "--output", str(ledger.path(ledger.game_ids()[0])), "--force")
    assert code == 2 and "is inside the ledger" in said(output), output


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_a_bad_output_path_names_it(ledger: Ledger, tmp_path: Path, fmt: str) -> None:
    """A missing folder, a folder given as the file: exit 2, the person's path named (never
    tabletape's scratch file)."""
    for target, words in ((tmp_path / "nofolder" / f"x.{fmt}", "does not exist"),
                          (tmp_path, "is a folder")):
        for where in (["--parquet", str(export_of(ledger))], ["--ledger", str(ledger.root)]):
            code, output = run("sql", "SELECT 1 AS one", *where, "--format", fmt, "--output",
                               str(target), "--force")
            assert code == 2 and str(target) in output and words in output, output
            assert "tabletape-" not in output and "rows.parquet" not in output, output


@pytest.mark.parametrize("exists", [True, False])
def test_a_query_failing_half_way_leaves_the_output_as_it_was(
        ledger: Ledger, tmp_path: Path, exists: bool) -> None:
    """--format jsonl streams: a query failing after many rows leaves the old file whole (or
    no new file), as the other formats do."""
    target = tmp_path / "k.txt"
    if exists:
        target.write_text("precious\n")
    code, output = run("sql", "SELECT CASE WHEN i < 90000 THEN i ELSE error('boom') END AS i "
                       "FROM range(100000) t(i)", "--ledger", str(ledger.root), "--no-sync",
                       "--format", "jsonl", "--output", str(target), "--force")
    assert code == 2 and "boom" in output, output
    assert os.listdir(tmp_path) == (["k.txt"] if exists else [])
    if exists:
        assert target.read_text() == "precious\n"


def test_a_statement_kind_duckdb_python_does_not_know_is_refused(ledger: Ledger) -> None:
    code, output = run("sql", "UPDATE EXTENSIONS", "--ledger", str(ledger.root), "--no-sync")
    refused(code, output, "UPDATE EXTENSIONS statements are refused", "no DuckDB extension")


NAMED = {
    "/* x */ SET threads = 1": ("SET", "locked settings"),
    "-- hi\nSET threads = 1": ("SET", "locked settings"),
    "CHECKPOINT": ("CHECKPOINT", ""),
    "ANALYZE": ("ANALYZE", ""),
    "IMPORT DATABASE '/tmp/x'": ("IMPORT DATABASE", "no other file"),
    "COPY FROM DATABASE a TO b": ("COPY FROM DATABASE", "no other file"),
    "PRAGMA threads(1)": ("PRAGMA", "locked settings"),
    "PRAGMA threads = 1": ("PRAGMA", "locked settings"),
    "WITH a AS (SELECT 1) INSERT INTO t FROM a": ("INSERT", ""),
}
"""Statements -> the kind their refusal names (the first word(s) after comments), and why."""


@pytest.mark.parametrize("statement", sorted(NAMED))
def test_a_refusal_names_the_statement_typed(ledger: Ledger, statement: str) -> None:
    shown, why = NAMED[statement]
    code, output = run("sql", "--ledger", str(ledger.root), "--no-sync", "--", statement)
    refused(code, output, f"read-only: {shown} statements are refused", why)


@pytest.mark.parametrize("query", ["FROM '/etc/passwd'", "SUMMARIZE '/etc/passwd'",
                                   "DESCRIBE '/etc/passwd'",
                                   "SELECT * FROM query_table('/etc/passwd')"])
def test_a_file_named_as_a_table_is_one_friendly_line(ledger: Ledger, query: str) -> None:
    code, output = run("sql", query, "--ledger", str(ledger.root), "--no-sync")
    refused(code, output, "the file /etc/passwd is out of reach")
    assert output.count("\n") == 1 and "_meta" not in output, output


def test_duckdbs_own_files_are_named_as_such(ledger: Ledger) -> None:
    code, output = run("sql", "SELECT * FROM duckdb_secrets()", "--ledger", str(ledger.root),
                       "--no-sync")
    refused(code, output, "DuckDB's own files")
    assert ".duckdb/" not in output, output


def test_a_table_not_found_is_one_line_without_internal_guesses(ledger: Ledger) -> None:
    code, output = run("sql", "SELECT * FROM gamez", "--ledger", str(ledger.root), "--no-sync")
    assert code == 2 and output.count("\n") == 1 and "'games'" in output, output
    code, output = run("sql", "SELECT * FROM _metaz", "--ledger", str(ledger.root), "--no-sync")
    assert code == 2 and output.count("\n") == 1 and "_meta'" not in output, output


@pytest.mark.parametrize("query", ["EXPLAIN (FORMAT json) SELECT 1",
                                   "PRAGMA show_tables /* = */"])
def test_harmless_statements_run(ledger: Ledger, query: str) -> None:
    code, output = run("sql", query, "--ledger", str(ledger.root), "--no-sync", "--json")
    assert code == 0, output


def test_folder_messages_say_what_is_wrong(ledger: Ledger, tmp_path: Path) -> None:
    """An export folder that holds the ledger says so (not "is inside"); a --parquet folder
    that does not exist, or is a file, says so (not "no _tabletape.json")."""
    for folder in ("/", str(ledger.root.parent)):
        code, output = run("export", "--parquet", folder, "--ledger", str(ledger.root))
        assert code == 2 and f"{folder} holds the ledger" in said(output), output
    code, output = run("sql", "--parquet", str(tmp_path / "nofolder"), "SELECT 1")
    assert code == 2 and "no such folder" in output and "_tabletape" not in output, output
    (tmp_path / "file").write_text("x")
    code, output = run("sql", "--parquet", str(tmp_path / "file"), "SELECT 1")
    assert code == 2 and "not a folder" in output and "NotADirectoryError" not in output, output


def test_a_long_refusal_stays_on_one_line_off_a_terminal(ledger: Ledger) -> None:
    """Standard error is not a terminal: a refusal naming a long path is not wrapped."""
    path = "/" + "/".join(["a-long-folder-name"] * 8) + "/secret.csv"
    code, output = run("sql", f"SELECT * FROM read_csv('{path}')", "--ledger",
                       str(ledger.root), "--no-sync")
    assert code == 2 and output.count("\n") == 1 and path in output, output


# -- the door itself, past the statement check -------------------------------------------------


PAST_THE_CHECK = [
    "SET enable_external_access = true",
    "RESET enable_external_access",
    "SET lock_configuration = false",
    "SET allowed_directories = ['/']",
    "PRAGMA threads = 1",
    "SET autoload_known_extensions = true",
    "LOAD httpfs",
    "INSTALL httpfs",
    "ATTACH '{out}/other.duckdb' AS other",
    "COPY (SELECT 1) TO '{out}/one.csv'",
    "EXPORT DATABASE '{out}/dump'",
    "CREATE SECRET (TYPE s3)",
]
"""What the statement check refuses first; the connection refuses each again by itself."""


@pytest.mark.parametrize("statement", PAST_THE_CHECK)
def test_the_connection_itself_refuses(ledger: Ledger, tmp_path: Path, statement: str) -> None:
    from tabletape.queries.catalog import catalog_path

    for catalog in (catalog_path(ledger), None):
        with query_door(catalog) as con, pytest.raises(duckdb.Error) as raised:
            con.execute(statement.format(out=tmp_path))
        assert door_refusal(raised.value) is not None, raised.value
        with query_door(catalog) as con:  # still fenced and unchanged afterwards
            assert con.execute("SELECT current_setting('enable_external_access'), "
                               "current_setting('lock_configuration')").fetchone() == (False, True)
    assert os.listdir(tmp_path) == []


def test_nothing_is_loaded_or_installed_behind_a_query() -> None:
    with query_door(None) as con:
        settings_ = dict(con.execute(
            "SELECT name, value FROM duckdb_settings() WHERE name IN "
            "('autoinstall_known_extensions', 'autoload_known_extensions', "
            "'enable_external_access', 'lock_configuration')").fetchall())
    assert settings_ == {"autoinstall_known_extensions": "false",
                         "autoload_known_extensions": "false",
                         "enable_external_access": "false", "lock_configuration": "true"}


@pytest.mark.slow
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.sampled_from(["a", "b", "export", "export-old", "..", "."]),
                      min_size=1, max_size=4))
@example(parts=["export", "a", ".", ".."])  # in, out and back: inside
@example(parts=["export-old"])
def test_only_paths_inside_the_allowed_folder_are_read(tmp_path: Path, parts: list[str]) -> None:
    """Property: a file is read through the door exactly when, with ``.`` and ``..`` followed,
    it lies inside the allowed folder (``export``; not ``export-old`` beside it)."""
    base = tmp_path.joinpath("up", "up", "up", "up")  # no walk of 4 parts leaves tmp_path
    folder = base / "export"
    walked = base
    for part in parts:  # every folder walked through exists, so the walk lands somewhere
        walked = walked / part
        Path(os.path.normpath(walked)).mkdir(parents=True, exist_ok=True)
    path = walked / "f.csv"
    real = Path(os.path.normpath(path))
    real.write_text("x\n1\n")
    inside = real.is_relative_to(folder)
    with query_door(None, folders=[folder]) as con:
        try:
            con.execute(f"SELECT * FROM read_csv('{path}')").fetchall()
            read = True
        except duckdb.PermissionException:
            read = False
    assert read == inside, (path, real)
    assert folder_prefix(folder).endswith("/export/")


@pytest.mark.parametrize("kind", ["link", "fifo", "device"])
def test_output_is_never_a_link_a_pipe_or_a_device(ledger: Ledger, tmp_path: Path,
                                                  kind: str) -> None:
    """`--output /dev/stdout --force` once replaced the system's link with a file: results go to
    a plain file of their own (or `--output -`), never over a link, a pipe or a device."""
    target = tmp_path / "out.csv"
    if kind == "link":
        (tmp_path / "real.csv").write_text("kept\n")
        target.symlink_to(tmp_path / "real.csv")
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target = Path("/dev/null")
    before = os.lstat(target)
    code, output = run("sql", "SELECT 1 AS one", "--ledger", str(ledger.root), "--format", "csv",
                       "--output", str(target), "--force")
    assert code == 2 and "--output - writes them to standard output" in said(output), output
    after = os.lstat(target)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    if kind == "link":
        assert (tmp_path / "real.csv").read_text() == "kept\n"


def test_duckdbs_temporary_folder_is_not_in_the_ledger(ledger: Ledger) -> None:
    """DuckDB lets a query read its temporary folder (by default `catalog.duckdb.tmp/` beside the
    catalog, inside the ledger, where a planted link would reach a dice secret): the door gives
    it a fresh folder of its own, outside the ledger, gone afterwards."""
    planted = ledger.root / "catalog.duckdb.tmp"
    planted.mkdir(exist_ok=True)
    (planted / "x").write_text("planted")
    try:
        code, output = run("sql", "SELECT value FROM duckdb_settings() WHERE name = "
                           "'allowed_directories'", "--ledger", str(ledger.root), "--json")
        assert code == 0, output
        allowed = json.loads(output)[0]["value"]
        assert str(ledger.root) not in allowed and "tabletape-sql-" in allowed
        assert not Path(allowed.strip("[]").rstrip("/")).exists()
        code, output = run("sql", f"SELECT content FROM read_text('{planted}/*')",
                           "--ledger", str(ledger.root))
        assert code == 2 and "out of reach" in said(output), output
    finally:
        (planted / "x").unlink()
        planted.rmdir()


def test_a_pivot_says_how_to_run_it(ledger: Ledger) -> None:
    """A PIVOT listing no values makes a type first (a write): refused, saying the form that
    reads only; that form runs."""
    code, output = run("sql", "PIVOT games ON kind USING count(*)", "--ledger", str(ledger.root))
    assert code == 2 and "IN ('risk-strike', 'marvel-united')" in said(output), output
    code, output = run("sql", "PIVOT (FROM games SELECT kind) ON kind IN ('risk-strike') USING "
                       "count(*)", "--ledger", str(ledger.root), "--json")
    assert code == 0 and "risk-strike" in json.loads(output)[0], output
