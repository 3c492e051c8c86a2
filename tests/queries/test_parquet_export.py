"""Issue 17, Parquet a data team would accept: exact types read back by DuckDB, pyarrow and
polars; key-value metadata in every file; Hive partitions by kind and month of play; an export
built aside and renamed into place; ``sql --parquet DIR`` answering as ``sql`` does."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pyarrow.parquet as pq
import pytest

import tabletape
from tabletape.ledger import Ledger
from tabletape.queries import parquet
from tabletape.queries.catalog import catalog_path, opened
from tabletape.queries.schema import CATALOG_VERSION
from tests.queries.conftest import bot_games, record, start_game
from tests.support.cli import run, said
from tests.support.tinygame import Rolled

BIG_SEED = 2**62 + 1
"""19 digits: a DOUBLE would round it."""
LARGEST = 2**63 - 1
FEBRUARY = datetime(2026, 2, 15, 9, 30, 15, 123456, tzinfo=UTC)


@pytest.fixture
def league(tmp_path: Path) -> Ledger:
    """Tiny games in two months (19-digit seeds), and two bot Risk Strike games (battles)."""
    ledger = Ledger(tmp_path / "ledger")
    game = start_game(ledger, "tiny", ("ann", "bob"), seed=BIG_SEED, game_id="ty-big")
    record(ledger, game, [("ann", Rolled(dice=(4, 2))), ("bob", Rolled(dice=(6,)))])
    start_game(ledger, "tiny", ("ann",), seed=LARGEST, game_id="ty-feb", at=FEBRUARY)
    bot_games(ledger, "risk-strike", 2)
    return ledger


def export(ledger: Ledger, folder: Path) -> dict[str, Any]:
    code, output = run("export", "--parquet", str(folder), "--ledger", str(ledger.root), "--json")
    assert code == 0, output
    return dict(json.loads(output))


def catalog_rows(ledger: Ledger, query: str) -> list[tuple[Any, ...]]:
    with opened(catalog_path(ledger), read_only=True) as con:
        return con.execute(query).fetchall()


def parquet_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.parquet"))


@pytest.mark.slow
def test_partitions_are_named_kind_and_month_of_play(league: Ledger, tmp_path: Path) -> None:
    export(league, tmp_path / "out")
    games = tmp_path / "out" / "games"
    folders = {str(p.parent.relative_to(games)) for p in parquet_files(games)}
    assert folders == {"kind=tiny/month=2026-01", "kind=tiny/month=2026-02",
                       "kind=risk-strike/month=2026-01"}
    events = tmp_path / "out" / "events"  # a table without a kind column: its game's partitions
    (feb,) = [p for p in parquet_files(events) if "month=2026-02" in str(p)]
    assert {row["game"] for row in pq.read_table(feb).to_pylist()} == {"ty-feb"}


@pytest.mark.slow
def test_exact_values_read_back_by_duckdb_pyarrow_and_polars(league: Ledger,
                                                            tmp_path: Path) -> None:
    export(league, tmp_path / "out")
    started = {game: datetime.fromisoformat(league.records(game)[0].at)
               for game in league.game_ids()}
    assert started["ty-feb"] == FEBRUARY
    games = tmp_path / "out" / "games"
    con = duckdb.connect()
    con.execute("SET TimeZone = 'Pacific/Auckland'")  # the reader's zone shifts no instant
    by_duckdb = {game: (seed, at) for game, seed, at in con.execute(
        f"SELECT game, seed, started FROM read_parquet('{games}/**/*.parquet', "
        "hive_partitioning = true)").fetchall()}
    by_pyarrow = {row["game"]: (row["seed"], row["started"])
                  for row in pq.read_table(games).to_pylist()}
    by_polars = {row["game"]: (row["seed"], row["started"]) for row in pl.read_parquet(
        f"{games}/**/*.parquet", hive_partitioning=True).to_dicts()}
    seeds = dict(catalog_rows(league, "SELECT game, seed FROM games"))
    assert seeds["ty-big"] == BIG_SEED and seeds["ty-feb"] == LARGEST
    expected = {game: (seeds[game], started[game]) for game in league.game_ids()}
    assert by_duckdb == by_pyarrow == by_polars == expected


def test_event_times_are_the_logs_instants(league: Ledger, tmp_path: Path) -> None:
    export(league, tmp_path / "out")
    table = pq.read_table(tmp_path / "out" / "events")
    assert str(table.schema.field("recorded_at").type) == "timestamp[us, tz=UTC]"
    read = {(row["game"], row["seq"]): row["recorded_at"] for row in table.to_pylist()}
    logged = {(game, r.seq): datetime.fromisoformat(r.at)
              for game in league.game_ids() for r in league.records(game)}
    assert read == logged


@pytest.mark.slow
def test_list_columns_are_lists_and_json_columns_text(league: Ledger, tmp_path: Path) -> None:
    export(league, tmp_path / "out")
    battles = pl.read_parquet(f"{tmp_path}/out/battles/**/*.parquet", hive_partitioning=True)
    assert battles.schema["attacker_faces"] == pl.List(pl.Int32)
    read = sorted((r["game"], r["seq"], r["attacker_faces"], r["defender_faces"])
                  for r in battles.to_dicts())
    stored = sorted(catalog_rows(league, "SELECT game, seq, attacker_faces, defender_faces "
                                         "FROM battles"))
    assert read and read == [(g, s, list(a), list(d)) for g, s, a, d in stored]
    games = pq.read_table(tmp_path / "out" / "games")
    assert str(games.schema.field("players").type) == "list<element: string>"
    assert str(games.schema.field("options").type) == "string"
    assert str(pl.read_parquet(f"{tmp_path}/out/events/**/*.parquet").schema["payload"]) == \
        "String"
    options = {row["game"]: json.loads(row["options"]) for row in games.to_pylist()}
    assert options == {game: json.loads(text) for game, text in catalog_rows(
        league, "SELECT game, CAST(options AS VARCHAR) FROM games")}


def test_every_file_carries_versions_and_export_time(league: Ledger, tmp_path: Path) -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    export(league, tmp_path / "out")
    files = parquet_files(tmp_path / "out")
    assert len(files) >= 10
    for path in files:
        meta = {k.decode(): v.decode() for k, v in pq.read_metadata(path).metadata.items()
                if k.startswith(b"tabletape.")}
        assert meta["tabletape.version"] == tabletape.version()
        assert meta["tabletape.catalog_version"] == CATALOG_VERSION
        assert meta["tabletape.table"] == path.relative_to(tmp_path / "out").parts[0]
        at = datetime.fromisoformat(meta["tabletape.exported_at"])
        assert before <= at <= datetime.now(UTC)
        if meta["tabletape.table"] == "games":
            assert meta["tabletape.json_columns"] == "options"
    manifest = json.loads((tmp_path / "out" / parquet.MANIFEST).read_text())
    assert manifest["version"] == tabletape.version()
    assert manifest["tables"]["games"]["rows"] == len(league.game_ids())


@pytest.mark.slow
def test_an_export_replaces_the_earlier_one_whole(league: Ledger, tmp_path: Path) -> None:
    export(league, tmp_path / "out")
    assert not (tmp_path / "out" / "games" / "kind=duel").exists()
    start_game(league, "duel", ("ann", "bob"), seed=1, game_id="du-one")
    league.path("ty-feb").unlink()
    counts = export(league, tmp_path / "out")["tables"]
    games = pq.read_table(tmp_path / "out" / "games").column("game").to_pylist()
    assert sorted(games) == sorted(league.game_ids()) and counts["games"] == len(games)
    assert not any("month=2026-02" in str(p) for p in parquet_files(tmp_path / "out"))
    assert sorted(os.listdir(tmp_path)) == ["ledger", "out"]  # no staging folder left


@pytest.mark.slow
def test_a_failed_export_leaves_the_earlier_one_intact(league: Ledger, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    export(league, tmp_path / "out")
    before = {p: p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()}
    written = parquet.write_table

    def full_disk(con: Any, stage: Path, table: str, versions: dict[str, str],
                  **kept: Any) -> Any:
        if table == "games":  # a few tables are written, then the disk is full
            raise OSError(28, "No space left on device")
        return written(con, stage, table, versions, **kept)

    monkeypatch.setattr(parquet, "write_table", full_disk)
    start_game(league, "duel", ("ann", "bob"), seed=1, game_id="du-one")
    code, output = run("export", "--parquet", str(tmp_path / "out"), "--ledger",
                       str(league.root))
    assert code == 1 and "disk is full; nothing was changed" in said(output), output
    after = {p: p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()}
    assert after == before
    assert sorted(os.listdir(tmp_path)) == ["ledger", "out"]


def test_a_folder_holding_other_files_is_refused(league: Ledger, tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    code, output = run("export", "--parquet", str(folder), "--ledger", str(league.root))
    assert code == 2 and f"holds files and no {parquet.MANIFEST}" in said(output), output
    assert os.listdir(folder) == ["notes.txt"] and (folder / "notes.txt").read_text() == "keep me"


QUERIES = [
    "SELECT game, seed, started, options, players, winners FROM games ORDER BY game",
    "SELECT game, seq, recorded_at, payload FROM events ORDER BY game, seq",
    "SELECT player, count(*) AS n, sum(face) AS faces FROM dice GROUP BY player ORDER BY player",
    "SELECT game, seq, attacker_faces, defender_faces FROM battles ORDER BY game, seq",
    "SELECT count(*) AS n FROM zone_changes",
]


@pytest.mark.slow
@pytest.mark.parametrize("query", QUERIES)
def test_sql_parquet_answers_as_sql_does(league: Ledger, tmp_path: Path, query: str) -> None:
    export(league, tmp_path / "out")
    code, on_catalog = run("sql", query, "--json", "--ledger", str(league.root))
    assert code == 0, on_catalog
    elsewhere = {"TABLETAPE_LEDGER": str(tmp_path / "no-ledger"), "TZ": "Asia/Kolkata"}
    code, on_export = run("sql", "--parquet", str(tmp_path / "out"), query, "--json",
                          env=elsewhere)
    assert code == 0, on_export
    assert json.loads(on_export) == json.loads(on_catalog)
    assert not (tmp_path / "no-ledger").exists()  # no ledger was opened or made


@pytest.mark.slow
def test_sql_parquet_keeps_the_catalogs_types(league: Ledger, tmp_path: Path) -> None:
    export(league, tmp_path / "out")
    query = "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM {})"
    for table in ("games", "events", "battles", "zone_changes"):
        code, output = run("sql", "--parquet", str(tmp_path / "out"), query.format(table),
                           "--json")
        assert code == 0, output
        read = {row["column_name"]: row["column_type"] for row in json.loads(output)}
        stored = dict(catalog_rows(league, query.format(table)))
        assert {k: v for k, v in read.items() if k not in ("kind", "month")} == \
            {k: v for k, v in stored.items() if k != "kind"}
        assert read["month"] == "VARCHAR"


@pytest.mark.parametrize("statement", [
    "DROP VIEW games",
    "CREATE TABLE x AS SELECT 1",
    "COPY games TO 'stolen.csv'",
    "ATTACH 'other.duckdb'",
])
@pytest.mark.slow
def test_sql_parquet_refuses_writes(league: Ledger, tmp_path: Path, statement: str) -> None:
    export(league, tmp_path / "out")
    before = sorted(p.name for p in (tmp_path / "out").rglob("*"))
    code, output = run("sql", "--parquet", str(tmp_path / "out"), statement)
    assert code == 2 and "read-only" in said(output), output
    assert sorted(p.name for p in (tmp_path / "out").rglob("*")) == before


def test_sql_parquet_refuses_a_folder_that_is_no_export(tmp_path: Path) -> None:
    code, output = run("sql", "--parquet", str(tmp_path), "SELECT 1")
    assert code == 2 and "is not a tabletape Parquet export" in said(output), output
    (tmp_path / parquet.MANIFEST).write_text("{not json")
    code, output = run("sql", "--parquet", str(tmp_path), "SELECT 1")
    assert code == 2 and "cannot be read as an export's manifest" in said(output), output


@pytest.mark.parametrize("change", [
    {"columns": {"game": "VARCHAR) AS game FROM range(1); COPY (SELECT 1) TO 'evil.csv'; --"}},
    {"columns": {"game; DROP": "VARCHAR"}},
    {"rows": "many"},
])
def test_sql_parquet_refuses_a_hostile_manifest(league: Ledger, tmp_path: Path,
                                                change: dict[str, Any]) -> None:
    export(league, tmp_path / "out")
    path = tmp_path / "out" / parquet.MANIFEST
    manifest = json.loads(path.read_text())
    manifest["tables"]["games"].update(change)
    path.write_text(json.dumps(manifest))
    code, output = run("sql", "--parquet", str(tmp_path / "out"), "SELECT count(*) FROM games")
    assert code == 2 and "cannot be read as an export's manifest" in said(output), output
    assert not (Path.cwd() / "evil.csv").exists()


def rows_of(folder: Path, table: str) -> list[tuple[Any, ...]]:
    with duckdb.connect() as con:
        return sorted(con.execute(f"SELECT * FROM read_parquet('{folder}/{table}/**/*.parquet', "
                                  "hive_partitioning = true)").fetchall(), key=repr)


@pytest.mark.slow
def test_an_export_writes_only_the_partitions_that_changed(league: Ledger,
                                                           tmp_path: Path) -> None:
    export(league, tmp_path / "out")
    files = {p.relative_to(tmp_path / "out"): os.stat(p).st_ino
             for p in parquet_files(tmp_path / "out")}
    record(league, "ty-big", [("ann", Rolled(dice=(1,)))], start=datetime(2026, 3, 1, tzinfo=UTC))
    export(league, tmp_path / "out")
    again = {p.relative_to(tmp_path / "out"): os.stat(p).st_ino
             for p in parquet_files(tmp_path / "out")}
    assert again.keys() == files.keys()
    changed = {str(p) for p in files if files[p] != again[p]}
    assert changed and all("kind=tiny/month=2026-01" in p for p in changed)
    assert any("kind=tiny/month=2026-02" in str(p) for p in files)  # kept, not written again
    export(league, tmp_path / "fresh")  # and the result is what a whole export writes
    for table in ("games", "events", "dice", "battles", "standings"):
        assert rows_of(tmp_path / "out", table) == rows_of(tmp_path / "fresh", table)


def test_no_projection_has_a_column_named_like_a_partition() -> None:
    """The export partitions every table by the game's ``kind`` and ``month`` of play: a table's
    own column of either name would be replaced by the game's (zone_changes' zone ``kind`` was,
    before it became ``zone_kind``)."""
    from tabletape.queries.schema import known_schemas

    clashes = {schema.name: name for schema in known_schemas().values()
               for name in (column.name for column in schema.columns)
               if name in parquet.PARTITIONS}
    assert clashes == {}
