"""Parquet that round-trips: seeds as exact 64-bit integers, times as UTC instants.

Read back with DuckDB and with pyarrow, value for value, whatever the reading session's time
zone is.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import tabletape
from tabletape.ledger import Ledger
from tabletape.queries.catalog import catalog_path, opened, sync
from tabletape.queries.parquet import export_parquet
from tests.queries.conftest import EPOCH, record, start_game
from tests.support.tinygame import Rolled

SEED = 4037046547977563902
"""A seed as ``tabletape new`` draws them (below 2**63) that a DOUBLE cannot hold."""
LARGEST = 2**63 - 1


@pytest.fixture
def seeded(ledger: Ledger) -> Ledger:
    game = start_game(ledger, "tiny", ("ann", "bob"), seed=SEED, game_id="ty-seed")
    record(ledger, game, [("ann", Rolled(dice=(4,)))])
    start_game(ledger, "tiny", ("ann",), seed=LARGEST, game_id="ty-max")
    sync(ledger)
    return ledger


def export(ledger: Ledger, folder: Path) -> None:
    result = CliRunner().invoke(tabletape.build_app(), [
        "export", "--parquet", str(folder), "--ledger", str(ledger.root)])
    assert result.exit_code == 0, result.output


def test_seeds_and_times_round_trip_through_duckdb(seeded: Ledger, tmp_path: Path) -> None:
    export(seeded, tmp_path / "out")
    con = duckdb.connect()
    con.execute("SET TimeZone = 'Asia/Tokyo'")  # the reader's zone must not shift instants
    games = f"read_parquet('{tmp_path}/out/games/**/*.parquet', hive_partitioning = true)"
    types = dict(con.execute(f"SELECT column_name, column_type FROM (DESCRIBE "
                             f"SELECT seed, started FROM {games})").fetchall())
    assert types == {"seed": "BIGINT", "started": "TIMESTAMP WITH TIME ZONE"}
    rows = dict(con.execute(f"SELECT game, seed FROM {games}").fetchall())
    assert rows == {"ty-seed": SEED, "ty-max": LARGEST}
    (started,) = con.execute(f"SELECT started FROM {games} WHERE game = 'ty-seed'").fetchone()
    assert started == EPOCH  # an aware datetime: the same instant in any zone
    events = f"read_parquet('{tmp_path}/out/events/**/*.parquet', hive_partitioning = true)"
    (at,) = con.execute(f"SELECT recorded_at FROM {events} WHERE game = 'ty-seed' AND seq = 2"
                        ).fetchone()
    assert at == datetime.fromisoformat(Ledger(seeded.root).records("ty-seed")[1].at)


def test_seeds_and_times_round_trip_through_pyarrow(seeded: Ledger, tmp_path: Path) -> None:
    export(seeded, tmp_path / "out")
    table = pq.read_table(tmp_path / "out" / "games")
    assert str(table.schema.field("seed").type) == "int64"
    assert str(table.schema.field("started").type) == "timestamp[us, tz=UTC]"
    rows = {row["game"]: row for row in table.to_pylist()}
    assert rows["ty-seed"]["seed"] == SEED and rows["ty-max"]["seed"] == LARGEST
    assert rows["ty-seed"]["started"] == EPOCH
    assert rows["ty-seed"]["started"].tzinfo is not None


def test_sql_format_parquet_writes_the_same_types(seeded: Ledger, tmp_path: Path) -> None:
    target = tmp_path / "games.parquet"
    result = CliRunner().invoke(tabletape.build_app(), [
        "sql", "SELECT game, seed, started FROM games", "--format", "parquet", "-o", str(target),
        "--ledger", str(seeded.root)])
    assert result.exit_code == 0, result.output
    rows = {row["game"]: row for row in pq.read_table(target).to_pylist()}
    assert rows["ty-seed"]["seed"] == SEED and rows["ty-seed"]["started"] == EPOCH


def test_the_export_ignores_the_session_time_zone(seeded: Ledger, tmp_path: Path) -> None:
    with opened(catalog_path(seeded), read_only=True) as con:
        con.execute("SET TimeZone = 'America/New_York'")
        export_parquet(con, tmp_path / "out")
    started = pq.read_table(tmp_path / "out" / "games").column("started").to_pylist()
    assert set(started) == {EPOCH}


def test_new_refuses_a_seed_that_does_not_fit_64_bits(ledger: Ledger) -> None:
    for seed in (str(2**63), "-1"):
        result = CliRunner().invoke(tabletape.build_app(), [
            "new", "tiny", "--player", "ann", "--seed", seed, "--ledger", str(ledger.root)])
        assert result.exit_code == 2, result.output
    assert ledger.game_ids() == []
