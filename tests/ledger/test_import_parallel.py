"""Import of many logs checks them in parallel worker processes (issue 17, "One machine, faster":
verification and decoding in one pass, in parallel across files).

Every test runs twice: file by file, and with the parallel path forced (its threshold at 0 bytes,
two CPUs). The outcome must be the same: the same files imported byte for byte under the same
handles, the same refusals, nothing left behind by a refused batch, and every copy fsynced before
any is linked into the ledger.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tabletape
import tabletape.ledger.transfer as transfer
from tabletape.ledger import Ledger
from tests.queries.conftest import bot_games, record, start_game
from tests.support.tinygame import Added, Rolled

APP = tabletape.build_app()


def run(root: Path, *args: str) -> tuple[int, Any]:
    result = CliRunner().invoke(APP, [*args, "--ledger", str(root), "--json"])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, json.loads(result.output)


class Pools:
    """Counts the worker pools an import starts."""

    def __init__(self) -> None:
        self.started = 0


@pytest.fixture(params=["file-by-file", "parallel"])
def pools(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Pools:
    """Force the path: the parallel one needs fork (else the test is skipped)."""
    parallel = request.param == "parallel"
    if parallel and transfer.fork_workers(2) == 1 and (os.cpu_count() or 1) > 1:
        pytest.skip("this platform cannot fork worker processes")
    monkeypatch.setattr(transfer, "PARALLEL_BYTES", 0 if parallel else 10**15)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    counted = Pools()
    real = transfer.ProcessPoolExecutor

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            counted.started += 1
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(transfer, "ProcessPoolExecutor", Counting)
    return counted


@pytest.fixture
def logs(tmp_path: Path) -> dict[str, Path]:
    """Exported logs of five games: four duel bot games and a tiny game with rolls."""
    source = Ledger(tmp_path / "source")
    games = bot_games(source, "duel", 4)
    game = start_game(source, "tiny", ("ann", "bob"), seed=5, game_id="ty-rolls")
    record(source, game, [("ann", Rolled(dice=(4,))), ("bob", Added(n=3))])
    folder = tmp_path / "logs"
    folder.mkdir()
    files = {}
    for name in [*games, game]:
        files[name] = folder / f"{name}.jsonl"
        files[name].write_bytes(source.path(name).read_bytes())
    return files


def hidden(ledger: Path) -> list[str]:
    """Names left in the games folder that are not logs (scratch copies)."""
    games = ledger / "games"
    return [p.name for p in games.iterdir() if not p.name.endswith(".jsonl")] if games.exists() \
        else []


def test_a_batch_imports_the_same_files_under_the_same_handles(
        pools: Pools, logs: dict[str, Path], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    target = tmp_path / "target"
    code, outcome = run(target, "import", *map(str, logs.values()))
    assert code == 0, outcome
    assert [done["game"] for done in outcome["imported"]] == list(logs)
    assert all(done["renamed_from"] is None for done in outcome["imported"])
    assert [done["events"] for done in outcome["imported"]] == [
        len(path.read_bytes().splitlines()) for path in logs.values()]
    ledger = Ledger(target)
    for name, path in logs.items():
        assert ledger.path(name).read_bytes() == path.read_bytes()
        assert ledger.verify(name).ok
    assert hidden(target) == []
    assert pools.started == (1 if "parallel" in request.node.name else 0)


def test_one_refused_file_refuses_the_batch_and_leaves_nothing(
        pools: Pools, logs: dict[str, Path], tmp_path: Path) -> None:
    """A damaged log, the same game twice, a log whose events the rules refuse: nothing is
    linked, each refusal says why, and the ledger folder the import made is gone again."""
    folder = next(iter(logs.values())).parent
    good = list(logs.values())
    data = good[0].read_bytes()
    flipped = folder / "flipped.jsonl"
    flipped.write_bytes(data.replace(b'"actor":"patrick"', b'"actor":"patrice"', 1))
    twice = folder / "twice.jsonl"
    twice.write_bytes(good[1].read_bytes())
    target = tmp_path / "target"
    code, outcome = run(target, "import", *map(str, [*good, flipped, twice]))
    assert code == 1
    assert set(outcome["refused"]) == {str(flipped), str(twice)}
    assert "its hash does not match" in outcome["refused"][str(flipped)]
    assert "same game as" in outcome["refused"][str(twice)]
    assert [held["source"] for held in outcome["not_imported"]] == list(map(str, good))
    assert outcome["imported"] == []
    assert not target.exists()


def test_a_stored_game_and_a_taken_handle_in_a_big_batch(
        pools: Pools, logs: dict[str, Path], tmp_path: Path) -> None:
    """Against a ledger that holds games: the same game again is refused; another game with a
    taken handle is imported under a new one, its bytes those checked."""
    target = Ledger(tmp_path / "target")
    start_game(target, "tiny", ("cy", "dan"), seed=77, game_id="ty-rolls")  # another game
    names = list(logs)
    code, outcome = run(target.root, "import", *map(str, logs.values()))
    assert code == 0, outcome
    renamed = outcome["imported"][-1]
    assert renamed["renamed_from"] == "ty-rolls" and renamed["game"] != "ty-rolls"
    assert target.path(renamed["game"]).read_bytes() == logs["ty-rolls"].read_bytes()
    code, outcome = run(target.root, "import", *map(str, logs.values()))
    assert code == 1 and set(outcome["refused"]) == set(map(str, logs.values()))
    assert all("already in ledger" in why for why in outcome["refused"].values())
    assert sorted(target.game_ids()) == sorted([*names, renamed["game"]])
    assert hidden(target.root) == []


def test_every_copy_is_on_disk_before_any_is_linked(
        pools: Pools, logs: dict[str, Path], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    at_links: list[set[str]] = []
    fsync_file, link = transfer.fsync_file, os.link

    def recording_fsync(path: Path) -> None:
        fsync_file(path)
        synced.append(str(path))

    def checking_link(scratch: Any, target: Any, **kwargs: Any) -> None:
        at_links.append(set(synced))
        link(scratch, target, **kwargs)

    monkeypatch.setattr(transfer, "fsync_file", recording_fsync)
    monkeypatch.setattr(os, "link", checking_link)
    code, outcome = run(tmp_path / "target", "import", *map(str, logs.values()))
    assert code == 0, outcome
    assert len(at_links) == len(logs) and len(synced) == len(logs)
    assert all(seen == set(synced) for seen in at_links)  # all fsynced before the first link


def test_only_a_big_import_of_several_files_is_checked_in_parallel(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLETAPE_IMPORT_WORKERS", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    forks = transfer.fork_workers(8) > 1
    assert transfer.import_workers(1, 10**9) == 1  # one file: nothing to share
    assert transfer.import_workers(3, transfer.PARALLEL_BYTES - 1) == 1  # too little to check
    assert transfer.import_workers(3, transfer.PARALLEL_BYTES) == (3 if forks else 1)
    assert transfer.import_workers(9, 10**9) == (4 if forks else 1)  # at most four
    monkeypatch.setenv("TABLETAPE_IMPORT_WORKERS", "2")
    assert transfer.import_workers(3, 0) == (2 if forks else 1)
    assert transfer.import_workers(1, 0) == 1
