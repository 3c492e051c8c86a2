"""Issue 18, "the catalog remembers every head it has seen and `sync` reports a log whose known
head is gone (truncated or rewritten) as a problem": a log renamed, copied or deleted after a
rewrite, the counts of every sync, and a rewrite that keeps the file's size and time."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tabletape.ledger import Ledger
from tests.fairplay.test_heads import rewrite, sync_json, tiny_game, truncate
from tests.support.cli import run, said


@pytest.fixture
def store(tmp_path: Path) -> Ledger:
    return Ledger(tmp_path / "ledger")


def heads_seen(store: Ledger) -> list[tuple[str, int, str | None]]:
    import duckdb

    with duckdb.connect(str(store.root / "catalog.duckdb"), read_only=True) as con:
        return con.execute("SELECT game, seq, uid FROM heads_seen ORDER BY game, seq").fetchall()


def moved(store: Ledger, game: str, to: str) -> None:
    store.path(game).rename(store.path(game).with_name(f"{to}.jsonl"))


# -- "the catalog remembers every head it has seen": by the game's identity too ----------------


def test_a_rewritten_log_renamed_is_still_caught(store: Ledger) -> None:
    game = tiny_game(store, 10)
    assert sync_json(store)["problems"] == {}
    rewrite(store, game, keep=10, rename=("patrick", "mallory"))
    moved(store, game, "ty-renamed")
    report = sync_json(store)
    assert report["vanished"] == 1 and set(report["problems"]) == {"ty-renamed"}, report
    why = report["problems"]["ty-renamed"]
    assert f"the head of game {game} (the same game identity)" in why and "rewritten" in why
    assert report["games"] == 0 and report["gone"] == {}  # the identity is still here
    again = sync_json(store)  # and every sync says so
    assert again["problems"].keys() == {"ty-renamed"} and again["vanished"] == 1, again


def test_a_log_renamed_as_it_was_just_moves(store: Ledger) -> None:
    game = tiny_game(store, 10)
    sync_json(store)
    moved(store, game, "ty-renamed")
    report = sync_json(store)
    assert report["problems"] == {} and report["gone"] == {} and report["games"] == 1, report
    assert (report["new"], report["removed"]) == (1, 1)
    assert [row[0] for row in heads_seen(store)] == [game, "ty-renamed"]


def test_a_copy_of_a_log_is_named_and_left_out(store: Ledger) -> None:
    game = tiny_game(store, 6)
    sync_json(store)
    copy = store.path(game).with_name("ty-copy.jsonl")
    copy.write_bytes(store.path(game).read_bytes())
    report = sync_json(store)
    assert report["duplicate"] == 1 and report["games"] == 1, report
    assert "holds the identity" in report["problems"]["ty-copy"]
    assert f"of game {game} too" in report["problems"]["ty-copy"]
    store.path(game).unlink()  # the original goes: the copy is the game now
    report = sync_json(store)
    assert report["problems"] == {} and report["gone"] == {} and report["games"] == 1, report


@pytest.mark.slow
def test_a_deleted_log_is_named_by_every_sync_until_rebuild(store: Ledger) -> None:
    game = tiny_game(store, 8)
    tiny_game(store, 4, game_id="ty-other")
    sync_json(store)
    store.path(game).unlink()
    report = sync_json(store)
    assert report["removed"] == 1 and set(report["gone"]) == {game}, report
    assert "is gone" in report["gone"][game] and "seq 8" in report["gone"][game]
    report = sync_json(store)
    assert report["removed"] == 0 and set(report["gone"]) == {game}  # said again
    code, output = run("sync", "--ledger", str(store.root))
    assert code == 0 and f"gone {game}:" in said(output), output
    assert sync_json(store, "--rebuild")["gone"] == {}  # the logs as they are now
    assert sync_json(store)["gone"] == {}


def test_a_rewritten_log_renamed_and_its_identity_changed_leaves_the_old_one_gone(
        store: Ledger) -> None:
    game = tiny_game(store, 6)
    sync_json(store)
    path, uid = store.path(game), store.started(game).uid
    path.write_bytes(path.read_bytes().replace(uid.encode(), uid[:-1].encode() + b"f"))
    rewrite(store, game, keep=6, rename=("olga", "olgb"))  # hashes recomputed
    moved(store, game, "ty-new")
    report = sync_json(store)
    assert set(report["gone"]) == {game} and report["games"] == 1, report


# -- counts that agree from one sync to the next ------------------------------------------------


def test_counts_stay_true_on_every_sync(store: Ledger) -> None:
    game = tiny_game(store, 10)
    tiny_game(store, 4, game_id="ty-b")
    tiny_game(store, 4, game_id="ty-c")
    sync_json(store)
    truncate(store, game, 7)
    for _ in range(2):  # the sync that found it and the one after say the same
        report = sync_json(store)
        counts = (report["games"], report["unchanged"], report["rewritten"], report["vanished"])
        assert counts == (2, 2, 1, 0), report  # the catalog had loaded that head itself
        assert set(report["problems"]) == {game}


def test_a_rewritten_log_stays_counted(store: Ledger) -> None:
    game = tiny_game(store, 10)
    sync_json(store)
    rewrite(store, game, keep=10, rename=("patrick", "mallory"))
    first = sync_json(store)
    again = sync_json(store)
    assert (first["rewritten"], first["vanished"], first["unchanged"]) == (1, 0, 0), first
    assert (again["rewritten"], again["vanished"], again["unchanged"]) == (1, 0, 0), again


# -- a rewrite that keeps size and modification time -------------------------------------------


def test_a_rewrite_keeping_size_and_time_is_caught(store: Ledger) -> None:
    game = tiny_game(store, 10)
    sync_json(store)
    path = store.path(game)
    stat = path.stat()
    rewrite(store, game, keep=10, rename=("patrick", "mallorx"))  # same length of name
    assert path.stat().st_size == stat.st_size
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # touch -r
    report = sync_json(store)
    assert set(report["problems"]) == {game} and report["rewritten"] == 1, report


def test_connect_warns_of_a_gone_log(store: Ledger) -> None:
    from tabletape.queries.catalog import GoneLogWarning, connect

    game = tiny_game(store, 5)
    sync_json(store)
    store.path(game).unlink()
    with pytest.warns(GoneLogWarning, match=f"the log of game {game} is gone"):
        connect(store).close()


def test_the_readme_names_todays_catalog_version() -> None:
    import re

    from tabletape.queries.schema import CATALOG_VERSION

    readme = (Path(__file__).resolve().parents[2] / "docs" / "reference" / "queries.md"
              ).read_text()
    assert re.findall(r"today's is (\d+)", readme) == [CATALOG_VERSION]


# -- sync: a cut copy put back under the old id ----------------------------------------------------


def sync_report(store: Ledger) -> dict:
    """``sync --json``'s report, which may exit 1 (a problem found) and be followed by warnings."""
    code, output = run("sync", "--ledger", str(store.root), "--json")
    assert code in (0, 1), output
    return dict(json.JSONDecoder().raw_decode(output)[0])


def test_a_cut_copy_under_the_old_id_does_not_drop_the_intact_log(store: Ledger) -> None:
    """Tester: "putting a cut-short copy back under a game's old id also drops the intact,
    loaded log from the catalog"."""
    game = tiny_game(store, 8, game_id="ty-h1")
    assert sync_report(store)["games"] == 1
    moved = store.path(game).with_name("ty-h1r.jsonl")
    store.path(game).rename(moved)
    report = sync_report(store)
    assert report["games"] == 1 and report["new"] == 1, report
    truncate_to = moved.read_bytes().splitlines()[:5]
    store.path(game).write_bytes(b"".join(x + b"\n" for x in truncate_to))
    report = sync_report(store)
    assert report["games"] == 1 and "ty-h1r" not in report["problems"], report
    assert "ty-h1" in report["problems"] and report["vanished"] == 1, report
    assert (report["loaded"], report["new"], report["unchanged"]) == (0, 0, 1), report
