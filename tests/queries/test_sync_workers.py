"""Syncs folding in worker processes (rows handed over as Parquet) against one-process syncs."""

from __future__ import annotations

from pathlib import Path

import duckdb
import msgspec

from tabletape.ledger import Ledger
from tabletape.queries.catalog import sync
from tabletape.queries.loading import EVENT_ROWS, rows_sql
from tabletape.queries.schema import EVENTS
from tests.queries.conftest import bot_games
from tests.queries.test_catalog import dump


def damage(ledger: Ledger, game: str) -> None:
    """Change one character of the log's third line (its hash no longer matches)."""
    path = ledger.log_files()[game].path
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"seq":3', b'"seq":3 ', 1)
    path.write_bytes(b"\n".join(lines))


def test_workers_load_what_one_process_loads_and_name_a_damaged_log(ledger: Ledger) -> None:
    games = bot_games(ledger, "duel", 8, seed=3)
    damage(ledger, games[5])
    one = sync(ledger, workers=1)
    serial = dump(ledger)
    two = sync(ledger, rebuild=True, workers=2)
    assert set(two.problems) == set(one.problems) == {games[5]}
    assert two.loaded == one.loaded == 7 and two.events == one.events > 0
    assert dump(ledger) == serial
    assert all(row[0] != games[5] for row in serial["events"])


def test_workers_reload_a_grown_log_with_every_event(ledger: Ledger) -> None:
    games = bot_games(ledger, "duel", 6, seed=4)
    sync(ledger, workers=2)
    bot_games(ledger, "duel", 2, seed=5)
    report = sync(ledger, workers=2)
    assert report.new == 2 and not report.problems
    rows = dump(ledger)
    assert len({row[0] for row in rows["events"]}) == len(games) + 2


def test_event_rows_become_events_rows_typed_as_stored(tmp_path: Path) -> None:
    row = {"game": "ty-a", "seq": 2, "turn": 1, "round": 1, "phase": "play", "actor": "ann",
           "type": "add", "recorded_at": "2026-01-01T00:00:20.000001Z", "retracted": False,
           "effective": True, "payload": '{"n":2}', "prev": "p", "hash": "h"}
    source = tmp_path / "0-_event_rows.json"
    source.write_bytes(msgspec.json.encode({name: [value] for name, value in row.items()}))
    con = duckdb.connect()
    described = con.execute(f"DESCRIBE {rows_sql(EVENT_ROWS, source)}").fetchall()
    assert [(r[0], r[1]) for r in described] == [(c.name, c.type) for c in EVENTS.all_columns()]
    got = con.execute(rows_sql(EVENT_ROWS, source)).fetchone()
    assert got is not None and str(got[7]) == "2026-01-01 00:00:20.000001" and got[10] == '{"n":2}'


def test_a_seed_keeps_every_digit_through_the_workers_parquet(tmp_path: Path) -> None:
    """Parquet has no 128-bit integer: DuckDB writes HUGEINT as DOUBLE, and the catalog's
    ``seed`` (HUGEINT) came back rounded from a worker's file (3564903716152661335 -> ...504)."""
    from tabletape.queries.loading import write_tables
    from tabletape.queries.schema import GAMES

    seeds = [3564903716152661335, 2**63 - 1, 0]
    data = [[None] * len(seeds) for _ in GAMES.all_columns()]
    names = [c.name for c in GAMES.all_columns()]
    data[names.index("game")] = ["a", "b", "c"]
    data[names.index("seed")] = seeds
    files = write_tables({"games": (GAMES, data)}, tmp_path, 0, parquet=True)
    schema, path = files["games"]
    assert path.endswith(".parquet")
    got = duckdb.connect().execute(f"SELECT game, seed FROM ({rows_sql(schema, Path(path))}) "
                                   "ORDER BY game").fetchall()
    assert got == list(zip(["a", "b", "c"], seeds, strict=True))
