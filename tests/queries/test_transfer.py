"""Moving games: log export/import between ledgers (verified, duplicates refused), Parquet."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

import tabletape
from ledger import Ledger
from queries.catalog import connect, records_from_catalog
from replay.fold import fold_records
from tests.queries.conftest import bot_games, record, start_game
from tests.tinygame import Added, Rolled

APP = tabletape.build_app()


def run(ledger: Ledger, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(APP, [*args, "--ledger", str(ledger.root)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output
    return result.exit_code, " ".join(result.output.split())


@pytest.fixture
def source(tmp_path: Path) -> Ledger:
    ledger = Ledger(tmp_path / "source")
    bot_games(ledger, "duel", 3)
    game = start_game(ledger, "tiny", ("ann", "bob"), seed=5, game_id="ty-rolls")
    record(ledger, game, [("ann", Rolled(dice=(4,))), ("bob", Added(n=3)),
                          ("ann", Rolled(dice=(6,)))])
    return ledger


def test_export_and_import_round_trip(source: Ledger, tmp_path: Path) -> None:
    target = Ledger(tmp_path / "target")
    exported = tmp_path / "ty-rolls.jsonl"
    code, output = run(source, "export", "ty-rolls", "--jsonl", str(exported))
    assert code == 0 and exported.read_bytes() == source.path("ty-rolls").read_bytes()
    code, output = run(target, "import", str(exported), "--json")
    assert code == 0
    assert json.loads(output)["imported"][0] == {"game": "ty-rolls", "kind": "tiny", "events": 4,
                                                 "source": str(exported)}
    assert target.verify("ty-rolls").ok
    with connect(source) as a, connect(target) as b:
        query = "SELECT * EXCLUDE (game) FROM events WHERE game = 'ty-rolls' ORDER BY seq"
        assert a.sql(query).fetchall() == b.sql(query).fetchall()


def test_importing_the_same_log_twice_is_refused(source: Ledger, tmp_path: Path) -> None:
    target = Ledger(tmp_path / "target")
    exported = tmp_path / "copy.jsonl"
    run(source, "export", "du-0-1", "--jsonl", str(exported))
    assert run(target, "import", str(exported))[0] == 0
    code, output = run(target, "import", str(exported))
    assert code == 1 and "already in ledger" in output and "game copy (the same log)" in output
    renamed = tmp_path / "other-name.jsonl"
    renamed.write_bytes(exported.read_bytes())
    code, output = run(target, "import", str(renamed), "--as", "fresh-id")
    assert code == 1 and "as game copy" in output
    assert target.game_ids() == ["copy"]


def test_a_clashing_game_id_is_refused_then_imported_under_another(
        source: Ledger, tmp_path: Path) -> None:
    target = Ledger(tmp_path / "target")
    bot_games(target, "duel", 1, seed=9, prefix="du-0")  # id du-0-9-0 … clash below
    clash = tmp_path / f"{target.game_ids()[0]}.jsonl"
    clash.write_bytes(source.path("du-0-0").read_bytes())
    code, output = run(target, "import", str(clash))
    assert code == 1 and "already used" in output and "--as" in output
    code, output = run(target, "import", str(clash), "--as", "du-new")
    assert code == 0 and "du-new" in output
    assert target.path("du-new").read_bytes() == source.path("du-0-0").read_bytes()


def test_damaged_logs_are_refused(source: Ledger, tmp_path: Path) -> None:
    target = Ledger(tmp_path / "target")
    data = source.path("du-0-0").read_bytes()
    flipped = tmp_path / "flipped.jsonl"
    flipped.write_bytes(data.replace(b'"actor":"patrick"', b'"actor":"patrice"', 1))
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(data[:-20])
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    unfinished = tmp_path / "unfinished.jsonl"
    unfinished.write_bytes(b"".join(data.splitlines(keepends=True)[:2]))  # of a bot game's append
    code, output = run(target, "import", str(flipped), str(torn), str(empty),
                       str(unfinished), str(tmp_path / "missing.jsonl"))
    assert code == 1
    assert "event 3: its hash does not match" in output
    assert "torn line" in output and "is empty" in output and "cannot read" in output
    assert "append cut short" in output
    assert target.game_ids() == []


def test_export_needs_one_target(source: Ledger, tmp_path: Path) -> None:
    assert run(source, "export")[0] == 2
    assert run(source, "export", "--jsonl", str(tmp_path / "x.jsonl"))[0] == 2
    code, output = run(source, "export", "nope", "--jsonl", str(tmp_path / "x.jsonl"))
    assert code == 2 and "no game 'nope'" in output


def test_parquet_export_partitioned_by_kind_and_replayable(source: Ledger,
                                                           tmp_path: Path) -> None:
    folder = tmp_path / "parquet"
    code, output = run(source, "export", "--parquet", str(folder), "--json")
    counts = json.loads(output)["tables"]
    assert code == 0 and counts["events"] == 4 + sum(
        len(source.records(g)) for g in source.game_ids() if g != "ty-rolls")
    assert sorted(p.name for p in (folder / "events").iterdir()) == ["kind=duel", "kind=tiny"]
    with duckdb.connect() as con:
        for table, n in counts.items():
            if n:
                con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet("
                            f"'{folder}/{table}/*/*.parquet', hive_partitioning = true)")
                assert con.execute(f"SELECT count(*) FROM {table}").fetchone() == (n,)
        assert con.execute("SELECT count(*) FROM dice WHERE kind = 'tiny'").fetchone() == (2,)
        for game in source.game_ids():
            rebuilt = records_from_catalog(con, game)
            original = source.records(game)
            assert [r.hash for r in rebuilt] == [r.hash for r in original]
            assert fold_records(game, rebuilt).state == fold_records(game, original).state
