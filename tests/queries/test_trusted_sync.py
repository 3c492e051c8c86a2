"""The catalog trusts only verified logs: sync checks each chain it loads, names what it leaves
out, and every query says so; the catalog is written only when there is something to sync."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import tabletape
from tabletape.ledger import Ledger
from tabletape.queries import catalog
from tabletape.queries.catalog import connect, sync
from tests.queries.conftest import record, start_game
from tests.support.tinygame import Rolled

ROOT = Path(__file__).resolve().parents[2]


def run(ledger: Ledger, *args: str) -> Result:
    result = CliRunner().invoke(tabletape.build_app(), [*args, "--ledger", str(ledger.root)],
                                env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def flat(text: str) -> str:
    return " ".join(text.split())


def rolled(ledger: Ledger, game_id: str, faces: tuple[int, ...] = (2, 5, 3)) -> str:
    """A tiny game of three rolls (events 2 to 4)."""
    game = start_game(ledger, "tiny", ("ann", "bob"), seed=1, game_id=game_id,
                      options={"target": "100"})
    players = ("ann", "bob")
    record(ledger, game, [(players[i % 2], Rolled(dice=(face,))) for i, face in enumerate(faces)])
    return game


def change_die(ledger: Ledger, game: str, seq: int, old: int, new: int) -> None:
    """Change one die of event ``seq`` by hand, without rehashing (same length)."""
    path = ledger.path(game)
    lines = path.read_bytes().splitlines(keepends=True)
    assert f'"dice":[{old}]'.encode() in lines[seq - 1]
    lines[seq - 1] = lines[seq - 1].replace(f'"dice":[{old}]'.encode(), f'"dice":[{new}]'.encode())
    path.write_bytes(b"".join(lines))


def dice_of(ledger: Ledger, game: str) -> list[int]:
    with connect(ledger, sync_first=False) as con:
        return [row[0] for row in con.execute(
            "SELECT seq FROM events WHERE game = ? ORDER BY seq", [game]).fetchall()]


def test_a_changed_die_is_left_out_and_named_before_any_sync(ledger: Ledger) -> None:
    good = rolled(ledger, "ty-good")
    bad = rolled(ledger, "ty-bad")
    change_die(ledger, bad, 3, 5, 6)
    report = sync(ledger)
    assert set(report.problems) == {bad}
    assert "event 3" in report.problems[bad] and "hash does not match" in report.problems[bad]
    assert report.games == 1
    with connect(ledger, sync_first=False) as con:
        for table in ("games", "players", "events", "dice"):
            assert con.execute(f"SELECT count(*) FROM {table} WHERE game = ?",
                               [bad]).fetchone() == (0,), table
    assert dice_of(ledger, good) == [1, 2, 3, 4]


def test_a_die_changed_after_a_sync_leaves_the_game_out(ledger: Ledger) -> None:
    """Same size, same head, another mtime: a log changed in place is checked whole."""
    game = rolled(ledger, "ty-later")
    sync(ledger)
    change_die(ledger, game, 2, 2, 4)
    os.utime(ledger.path(game), ns=(time.time_ns(), time.time_ns() + 10**9))
    report = sync(ledger)
    assert set(report.problems) == {game} and "event 2" in report.problems[game]
    assert report.games == 0


def test_a_log_that_grew_is_checked_from_the_stored_head(ledger: Ledger) -> None:
    game = rolled(ledger, "ty-grow")
    sync(ledger)
    record(ledger, game, [("ann", Rolled(dice=(4,))), ("bob", Rolled(dice=(1,)))])
    change_die(ledger, game, 6, 1, 2)  # a new line, changed before the next sync
    report = sync(ledger)
    assert set(report.problems) == {game} and "event 6" in report.problems[game]
    assert report.games == 0


def test_a_log_that_grew_soundly_loads_only_after_its_chain_checks(ledger: Ledger) -> None:
    game = rolled(ledger, "ty-fine")
    sync(ledger)
    record(ledger, game, [("ann", Rolled(dice=(4,)))])
    report = sync(ledger)
    assert (report.grew, report.problems) == (1, {})
    assert dice_of(ledger, game) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("how", ["cut", "rewritten"])
def test_a_log_no_longer_holding_the_loaded_head_is_a_problem(ledger: Ledger, how: str) -> None:
    game = rolled(ledger, "ty-rw")
    sync(ledger)
    path = ledger.path(game)
    if how == "cut":  # a sound log again, but shorter than what the catalog loaded
        path.write_bytes(path.read_bytes().splitlines(keepends=True)[0])
    else:  # another chain under the same id, one event longer
        path.unlink()
        rolled(ledger, "ty-rw", faces=(1, 1, 1, 1))
    assert ledger.verify(game).ok
    report = sync(ledger)
    assert set(report.problems) == {game}
    assert "no longer begins with the 4 events" in report.problems[game]
    assert "sync --rebuild" in report.problems[game]
    assert report.rewritten == 1 and report.games == 0
    assert set(sync(ledger).problems) == {game}  # it stays out until the catalog is rebuilt
    rebuilt = sync(ledger, rebuild=True)
    assert rebuilt.problems == {} and rebuilt.games == 1


def test_a_log_that_does_not_fold_is_named_by_sql(ledger: Ledger) -> None:
    """A sound chain whose payload its game cannot decode: left out, and every query says so."""
    from tabletape.ledger.codec import decode_line, encode_body, seal

    rolled(ledger, "ty-ok")
    game = rolled(ledger, "ty-odd")
    path = ledger.path(game)
    first, second, *_ = path.read_bytes().splitlines(keepends=True)
    roll = decode_line(second.rstrip(b"\n"))
    body = encode_body(2, roll.at, roll.actor, roll.type, b'{"dice":"six"}', roll.prev)
    path.write_bytes(first + seal(body) + b"\n")
    assert ledger.verify(game).ok
    report = sync(ledger)
    assert set(report.problems) == {game} and "event 2" in report.problems[game]
    result = run(ledger, "sql", "SELECT count(*) AS n FROM games", "--format", "csv")
    assert (result.exit_code, result.stdout) == (0, "n\n1\n")
    assert "1 game is left out of the catalog" in flat(result.stderr)
    assert "(results leave it out)" in flat(
        result.stderr)
    assert f"{game}: event 2 of game {game} is refused" in flat(result.stderr)


def test_problems_are_named_by_every_sync_not_only_the_first(ledger: Ledger) -> None:
    rolled(ledger, "ty-ok")
    bad = rolled(ledger, "ty-bad")
    change_die(ledger, bad, 2, 2, 6)
    assert set(sync(ledger).problems) == {bad}
    again = sync(ledger)
    assert (again.loaded, set(again.problems)) == (0, {bad})


def test_connect_warns_of_games_left_out(ledger: Ledger) -> None:
    rolled(ledger, "ty-ok")
    bad = rolled(ledger, "ty-bad")
    change_die(ledger, bad, 2, 2, 6)
    with pytest.warns(catalog.LeftOutWarning, match=f"1 game.*{bad}: game {bad} fails"):
        connect(ledger).close()


def test_sql_and_stats_say_how_many_games_are_left_out(ledger: Ledger) -> None:
    rolled(ledger, "ty-ok")
    bad = rolled(ledger, "ty-bad")
    change_die(ledger, bad, 2, 2, 6)
    for command in (("sql", "SELECT count(*) AS n FROM games"), ("stats", "players"),
                    ("sql", "SELECT 1", "--no-sync")):
        result = run(ledger, *command)
        assert result.exit_code == 0, result.output
        message = flat(result.stderr)
        assert "1 game is left out of the catalog" in message, (command, message)
        assert f"{bad}: game {bad} fails verification at event 2" in message
    assert "1" in run(ledger, "sql", "SELECT count(*) AS n FROM games").stdout


def test_strict_makes_a_left_out_game_an_error(ledger: Ledger) -> None:
    rolled(ledger, "ty-ok")
    bad = rolled(ledger, "ty-bad")
    assert run(ledger, "sql", "SELECT 1", "--strict").exit_code == 0
    change_die(ledger, bad, 2, 2, 6)
    for command in (("sql", "SELECT count(*) FROM games", "--strict"),
                    ("stats", "--strict")):
        result = run(ledger, *command)
        assert result.exit_code == 1, result.output
        assert "1 game is left out of the catalog" in flat(result.stderr)
        assert result.stdout == ""


def test_sync_json_names_the_changed_log(ledger: Ledger) -> None:
    import json

    bad = rolled(ledger, "ty-bad")
    change_die(ledger, bad, 2, 2, 6)
    result = run(ledger, "sync", "--json")
    assert set(json.loads(result.stdout)["problems"]) == {bad}


def test_a_current_catalog_is_not_written(ledger: Ledger) -> None:
    rolled(ledger, "ty-one")
    sync(ledger)
    path = catalog.catalog_path(ledger)
    before = (path.stat().st_mtime_ns, path.read_bytes())
    report = sync(ledger)
    assert report.unchanged == 1
    assert (path.stat().st_mtime_ns, path.read_bytes()) == before
    assert not path.with_name(path.name + ".wal").exists()


HOLDER = """
import sys
import tests.support.tinygame, tests.queries.conftest  # the games and projections of the test
from tabletape.queries import connect
con = connect(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()
"""


def test_sql_and_stats_work_while_a_notebook_holds_a_connection(ledger: Ledger) -> None:
    rolled(ledger, "ty-one")
    sync(ledger)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(ledger.root)], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        result = run(ledger, "sql", "SELECT count(*) AS n FROM games", "--format", "csv")
        assert (result.exit_code, result.stdout) == (0, "n\n1\n"), result.output
        assert run(ledger, "stats", "players").exit_code == 0
    finally:
        holder.communicate("\n", timeout=60)


def test_queries_work_on_a_read_only_ledger_whose_catalog_is_current(ledger: Ledger) -> None:
    """Without root: folders and files without write bits (as root, where those bits do not
    stop a write, tests/cli/test_os_conditions.py runs the same on a read-only mount)."""
    if os.geteuid() == 0:
        pytest.skip("root writes through missing write bits: see tests/cli/test_os_conditions.py")
    rolled(ledger, "ty-one")
    sync(ledger)
    paths = [ledger.root, ledger.games_dir, catalog.catalog_path(ledger),
             *ledger.games_dir.iterdir()]
    modes = {path: path.stat().st_mode for path in paths}
    try:
        for path in paths:
            path.chmod(0o555 if path.is_dir() else 0o444)
        result = run(ledger, "sql", "SELECT count(*) AS n FROM games", "--format", "csv")
        assert (result.exit_code, result.stdout) == (0, "n\n1\n"), result.output
    finally:
        for path, mode in modes.items():
            path.chmod(mode)


def test_no_sync_queries_the_catalog_as_it_is(ledger: Ledger) -> None:
    game = rolled(ledger, "ty-one")
    sync(ledger)
    record(ledger, game, [("ann", Rolled(dice=(4,)))])
    result = run(ledger, "sql", "SELECT head_seq FROM games", "--format", "csv", "--no-sync")
    assert (result.exit_code, result.stdout) == (0, "head_seq\n4\n"), result.output
    result = run(ledger, "sql", "SELECT head_seq FROM games", "--format", "csv")
    assert result.stdout == "head_seq\n5\n"


def test_no_sync_without_a_catalog_says_to_sync(ledger: Ledger) -> None:
    rolled(ledger, "ty-one")
    result = run(ledger, "sql", "SELECT 1", "--no-sync")
    assert result.exit_code == 1
    assert "has no catalog yet: run `tabletape sync`" in flat(result.stderr)
    assert not catalog.catalog_path(ledger).exists()


def test_a_reader_in_the_same_program_shares_a_current_catalog(ledger: Ledger) -> None:
    game = rolled(ledger, "ty-one")
    with connect(ledger) as reader:
        with connect(ledger) as again:  # nothing to sync: read-only beside the first
            assert again.execute("SELECT count(*) FROM games").fetchone() == (1,)
        record(ledger, game, [("ann", Rolled(dice=(4,)))])
        with pytest.raises(catalog.CatalogError, match="close that connection"):
            sync(ledger)
        assert reader.execute("SELECT head_seq FROM games").fetchone() == (4,)
    assert sync(ledger).grew == 1


def test_export_parquet_names_games_left_out_and_strict_refuses(ledger: Ledger,
                                                               tmp_path: Path) -> None:
    rolled(ledger, "ty-ok")
    bad = rolled(ledger, "ty-bad")
    change_die(ledger, bad, 2, 2, 6)
    strict = run(ledger, "export", "--parquet", str(tmp_path / "strict"), "--strict")
    assert strict.exit_code == 1 and not (tmp_path / "strict").exists()
    assert "1 game is left out of the catalog" in flat(strict.stderr)
    done = run(ledger, "export", "--parquet", str(tmp_path / "out"))
    assert done.exit_code == 0 and f"{bad}: game {bad} fails" in flat(done.stderr)
    exported = duckdb_games(tmp_path / "out")
    assert exported == ["ty-ok"]


def duckdb_games(folder: Path) -> list[str]:
    import duckdb

    with duckdb.connect() as con:
        return [row[0] for row in con.execute(
            f"SELECT game FROM read_parquet('{folder}/games/**/*.parquet')").fetchall()]
