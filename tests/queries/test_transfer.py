"""Moving games: log export/import between ledgers (verified, duplicates refused), Parquet."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

import tabletape
from tabletape.ledger import Ledger
from tabletape.ledger.identity import game_uid
from tabletape.queries.catalog import connect, records_from_catalog
from tabletape.replay.fold import fold_records
from tests.queries.conftest import bot_games, record, start_game
from tests.support.tinygame import Added, Rolled

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
    assert json.loads(output)["imported"][0] == {
        "game": "ty-rolls", "kind": "tiny", "events": 4, "source": str(exported),
        "uid": game_uid("", source.records("ty-rolls")[0].hash), "renamed_from": None}
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


def test_a_clashing_game_id_chosen_with_as_is_refused_then_imported_under_another(
        source: Ledger, tmp_path: Path) -> None:
    target = Ledger(tmp_path / "target")
    bot_games(target, "duel", 1, seed=9, prefix="du-0")  # id du-0-9-0 … clash below
    clash = tmp_path / "clash.jsonl"
    clash.write_bytes(source.path("du-0-0").read_bytes())
    code, output = run(target, "import", str(clash), "--as", target.game_ids()[0])
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
                            f"'{folder}/{table}/**/*.parquet', hive_partitioning = true)")
                assert con.execute(f"SELECT count(*) FROM {table}").fetchone() == (n,)
        assert con.execute("SELECT count(*) FROM dice WHERE kind = 'tiny'").fetchone() == (2,)
        for game in source.game_ids():
            rebuilt = records_from_catalog(con, game)
            original = source.records(game)
            assert [r.hash for r in rebuilt] == [r.hash for r in original]
            assert fold_records(game, rebuilt).state == fold_records(game, original).state


# -- import: everything checked before anything is linked (issue 12) ------------------------------


def sealed_log(*lines: tuple[str, str, bytes]) -> bytes:
    """A log whose chain is intact, of ``(actor, type, payload)`` lines, whatever they say."""
    from tabletape.ledger.codec import GENESIS_HASH, sealed_record

    prev, out = GENESIS_HASH, []
    for seq, (actor, kind, payload) in enumerate(lines, 1):
        line, sealed = sealed_record(seq, "2026-01-01T00:00:00.000000Z", actor, kind, payload,
                                     prev)
        prev = sealed.hash
        out.append(line + b"\n")
    return b"".join(out)


TINY_STARTED = (b'{"kind":"tiny","rules_version":"1","tabletape_version":"0",'
                b'"players":["ann","bob"],"options":{"target":10},"seed":1}')


@pytest.mark.parametrize(("name", "log", "says"), [
    ("bad-start", sealed_log(("table", "game-started", b'{"kind":"tiny","players":7}')),
     "game-started"),
    ("not-started", sealed_log(("ann", "add", b'{"n":1}')), "game-started"),
    ("unknown-kind", sealed_log(("table", "game-started", TINY_STARTED.replace(
        b'"tiny"', b'"chess-9000"'))), "chess-9000"),
    ("bad-options", sealed_log(("table", "game-started", TINY_STARTED.replace(
        b'{"target":10}', b'{"target":"lots"}'))), "bad option"),
    ("bad-event", sealed_log(("table", "game-started", TINY_STARTED),
                             ("ann", "add", b'{"n":"three"}')), "event 2"),
    ("unknown-event", sealed_log(("table", "game-started", TINY_STARTED),
                                 ("ann", "teleport", b'{}')), "teleport"),
    ("illegal-event", sealed_log(("table", "game-started", TINY_STARTED),
                                 ("bob", "add", b'{"n":1}')), "event 2"),
])
def test_a_chain_valid_log_that_is_not_a_game_is_refused_whole(
        tmp_path: Path, name: str, log: bytes, says: str) -> None:
    """A log whose chain holds but whose events are not a game is refused: nothing linked."""
    target = Ledger(tmp_path / "target")
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(log)
    code, output = run(target, "import", str(path))
    assert code == 1 and says in output and "Traceback" not in output
    assert target.game_ids() == []
    assert not (target.games_dir.exists() and list(target.games_dir.iterdir()))


def test_an_import_of_several_files_is_all_or_nothing_with_each_outcome(
        source: Ledger, tmp_path: Path) -> None:
    """One refused file: no file is imported, and every file's outcome is reported."""
    target = Ledger(tmp_path / "target")
    good = tmp_path / "good.jsonl"
    good.write_bytes(source.path("du-0-0").read_bytes())
    other = tmp_path / "other.jsonl"
    other.write_bytes(source.path("ty-rolls").read_bytes())
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(sealed_log(("table", "game-started", TINY_STARTED),
                               ("ann", "add", b'{"n":"three"}')))
    code, output = run(target, "import", str(good), str(bad), str(other), "--json")
    assert code == 1
    outcome = json.loads(output)
    assert outcome["imported"] == []
    assert list(outcome["refused"]) == [str(bad)]
    assert [f["source"] for f in outcome["not_imported"]] == [str(good), str(other)]
    assert target.game_ids() == []
    code, output = run(target, "import", str(good), str(bad), str(other))
    assert code == 1
    assert f"{good}" in output and f"{other}" in output and "Nothing was imported" in output
    code, output = run(target, "import", str(good), str(other))
    assert code == 0 and sorted(target.game_ids()) == ["good", "other"]


def test_two_files_of_one_batch_that_clash_are_refused(source: Ledger, tmp_path: Path) -> None:
    """The same game twice in one command: refused, nothing linked. Two games under one id
    (issue 17): the second is imported under a new handle."""
    target = Ledger(tmp_path / "target")
    first = tmp_path / "a" / "same.jsonl"
    second = tmp_path / "b" / "same.jsonl"
    for path, game in ((first, "du-0-0"), (second, "du-0-1")):
        path.parent.mkdir()
        path.write_bytes(source.path(game).read_bytes())
    code, output = run(target, "import", str(first), str(second), "--json")
    renamed = json.loads(output)["imported"][1]
    assert code == 0 and renamed["renamed_from"] == "same"
    assert sorted(target.game_ids()) == sorted(["same", renamed["game"]])
    target = Ledger(tmp_path / "target2")
    twin = tmp_path / "twin.jsonl"
    twin.write_bytes(first.read_bytes())
    code, output = run(target, "import", str(first), str(twin))
    assert code == 1 and "twice" in output and target.game_ids() == []


@pytest.mark.parametrize("game_id", ["x" * 300, "bad/id", ".hidden"])
def test_an_unusable_game_id_is_refused_before_anything_is_written(
        source: Ledger, tmp_path: Path, game_id: str) -> None:
    target = Ledger(tmp_path / "target")
    path = tmp_path / "log.jsonl"
    path.write_bytes(source.path("du-0-0").read_bytes())
    code, output = run(target, "import", str(path), "--as", game_id)
    assert code in (1, 2) and "game id" in output
    assert target.game_ids() == []
