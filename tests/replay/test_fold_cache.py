"""Issue 17, the fold cache: ``status`` of a long game answers from a snapshot of its fold, kept
in ``<ledger>/cache/folds`` and used only for the very bytes it was folded from.

What the cache did is observed through :data:`tabletape.replay.snapshots.STATS` and by making the
whole fold fail (never by timing): a snapshot is used when it matches; a changed, cut, rewritten
or grown log, other rules, a damaged or foreign snapshot are never served from it; a read-only
ledger works; and every answer is the one the plain fold gives.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import tabletape
import tests.support.tinygame as tiny
from tabletape import ledger as ledger_package
from tabletape.batch import recorded_json
from tabletape.ledger import Draft, GameStarted, Ledger, LedgerError, Retracted
from tabletape.replay import render, snapshots
from tabletape.replay.fold import Folded, action_text, decode_event, fold_records
from tabletape.replay.recording import append_all, open_game, prepare_line, record_line
from tabletape.replay.simulate import simulate
from tabletape.replay.undo import undo
from tabletape.rules.registry import find_game
from tests.cli.test_os_conditions import in_namespace, snapshot
from tests.cli.test_os_conditions import tabletape as tabletape_process

APP = tabletape.build_app()
PLAYERS = ("ann", "bob", "cat")
AT = "2026-01-01T00:00:00.000000Z"
"""Every event's recorded-at: the same game gives the same bytes in every ledger."""
KINDS = ("risk-strike", "risk-deep-space", "risk-transformers", "marvel-united")


# -- helpers -------------------------------------------------------------------------------------


def long_game(store: Ledger, events: int = 400, seed: int = 1, game_id: str = "ty-long") -> str:
    """A tiny game of ``events`` events (well over the cache's threshold), written in one go."""
    started = GameStarted(kind="tiny", rules_version="1", tabletape_version="0.1.0",
                          players=PLAYERS, options={"target": 10**9}, seed=seed)
    game = store.create(started, game_id=game_id, at=AT)
    rng = random.Random(seed)
    drafts: list[Draft] = []
    turn = 0
    while len(drafts) < events - 1:
        if rng.random() < 0.3:
            drafts.append((rng.choice(PLAYERS), tiny.Cheered()))
            continue
        drafts.append((PLAYERS[turn % len(PLAYERS)], tiny.Added(n=rng.randint(1, 3))))
        turn += 1
    for start in range(0, len(drafts), 10):  # appends of ten events: ends at 11, 21, ...
        store.append(game, drafts[start:start + 10], expected_seq=start + 1, at=AT)
    assert store.path(game).stat().st_size >= snapshots.KEEP_FROM_BYTES
    return game


def plain(store: Ledger, game: str) -> Folded:
    """The game folded as without any cache."""
    return fold_records(game, store.records(game))


def answers(folded: Folded) -> dict[str, Any]:
    """What status, actions and the log say of a folded game (JSON shapes and the status text)."""
    from rich.console import Console

    console = Console(record=True, width=100, color_system=None)
    console.print(render.status_view(folded))
    return {"status": render.status_json(folded),
            "actions": msgspec.to_builtins(folded.rules.legal_actions(folded.state)),
            "log": render.log_rows(folded), "text": console.export_text(),
            "state": msgspec.to_builtins(folded.state), "uid": folded.uid,
            "head_seq": folded.head_seq, "steps": [s.record.seq for s in folded.steps]}


def counts() -> dict[str, int]:
    return dict(snapshots.STATS)


def change(before: dict[str, int], key: str) -> int:
    return snapshots.STATS[key] - before.get(key, 0)


def snapshot_file(store: Ledger, game: str) -> Path:
    return snapshots.cache_folder(store) / f"{game}.fold"


def cli(ledger: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(APP, [*args, "--ledger", str(ledger)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@contextmanager
def no_whole_fold() -> Iterator[None]:
    """Any whole fold fails the test: what is answered comes from a snapshot."""
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("the whole log was folded")

    with mock.patch.object(snapshots, "fold_records", refuse):
        yield


@contextmanager
def cache_all_sizes() -> Iterator[None]:
    """Short bot games cached too (the threshold keeps them out otherwise)."""
    with mock.patch.object(snapshots, "KEEP_FROM_BYTES", 0):
        yield


def error_of(call: Any) -> str:
    try:
        call()
    except LedgerError as error:
        return f"{type(error).__name__}: {error}"
    raise AssertionError("no error")


# -- a snapshot is used when it matches ----------------------------------------------------------


def test_a_long_game_is_folded_once_then_served_from_its_snapshot(tmp_path: Path) -> None:
    store = Ledger(tmp_path)
    game = long_game(store)
    before = counts()
    first = open_game(store, game)
    assert change(before, "folded") == 1 and change(before, "kept") == 1
    assert snapshot_file(store, game).is_file()
    with no_whole_fold():
        kept = open_game(store, game)
        assert change(before, "hit") == 1
        assert type(kept).__name__ == "KeptFolded"
        assert render.status_json(kept) == render.status_json(first)
        assert kept.uid == first.uid and kept.head_seq == first.head_seq == 400


def test_status_actions_and_log_say_the_same_with_and_without_the_cache(tmp_path: Path) -> None:
    store = Ledger(tmp_path)
    game = long_game(store)
    commands = [("status", game), ("status", game, "--json"), ("actions", game, "--json"),
                ("log", game, "--json", "--last", "30"), ("actions", game)]
    cold = [cli(tmp_path, *command) for command in commands]
    assert snapshot_file(store, game).is_file()
    before = counts()
    warm = [cli(tmp_path, *command) for command in commands]
    assert change(before, "hit") == len(commands) and change(before, "folded") == 0
    shutil.rmtree(tmp_path / "cache")
    again = [cli(tmp_path, *command) for command in commands]
    assert cold == warm == again
    assert all(code == 0 for code, _ in cold)


def test_the_kept_fold_is_the_plain_fold_in_every_answer(tmp_path: Path) -> None:
    store = Ledger(tmp_path)
    game = long_game(store, seed=4)
    open_game(store, game)
    assert answers(open_game(store, game)) == answers(plain(store, game))


# -- a log that is not the one folded is never served --------------------------------------------


@pytest.mark.parametrize("where", [0.1, 0.5, 0.97])
def test_a_changed_byte_anywhere_is_found_as_without_the_cache(tmp_path: Path,
                                                               where: float) -> None:
    """A digit of a payload changed (the size and the head line stay): the log is damaged and
    refused exactly as it is without a cache, never answered from the snapshot."""
    store = Ledger(tmp_path)
    game = long_game(store)
    open_game(store, game)
    path = store.path(game)
    data = bytearray(path.read_bytes())
    at = data.index(b'"n":', int(len(data) * where)) + 4
    data[at] = ord("1") if data[at] != ord("1") else ord("2")
    path.write_bytes(bytes(data))
    expected = error_of(lambda: store.records(game))
    before = counts()
    assert error_of(lambda: open_game(store, game)) == expected
    assert "Damaged" in expected and change(before, "hit") == change(before, "extended") == 0
    code, output = cli(tmp_path, "status", game)
    assert code == 1 and "fails verification" in " ".join(output.split())


def test_a_log_cut_short_is_never_served_from_the_longer_snapshot(tmp_path: Path) -> None:
    store = Ledger(tmp_path)
    game = long_game(store)
    open_game(store, game)
    path = store.path(game)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:251]))  # a whole, verifying log of 251 events
    before = counts()
    shorter = open_game(store, game)
    assert shorter.head_seq == 251 and change(before, "hit") == 0
    assert answers(shorter) == answers(plain(store, game))
    path.write_bytes(b"".join(lines[:251]) + lines[251][:40])  # a torn last line
    assert error_of(lambda: open_game(store, game)) == error_of(lambda: store.records(game))


def test_a_rewritten_log_is_never_served_from_the_snapshot(tmp_path: Path) -> None:
    """Another whole valid game under the same id, even as long: its own fold answers."""
    store, other = Ledger(tmp_path / "a"), Ledger(tmp_path / "b")
    game = long_game(store, seed=1)
    kept = answers(open_game(store, game))
    long_game(other, seed=2)
    shutil.copy(other.path(game), store.path(game))
    before = counts()
    rewritten = open_game(store, game)
    assert change(before, "hit") == change(before, "extended") == 0
    assert answers(rewritten) == answers(plain(other, game))
    assert answers(rewritten)["state"] != kept["state"]


def test_a_grown_log_is_folded_on_from_the_snapshot(tmp_path: Path) -> None:
    """Events appended since (by another process) are verified and folded from the kept state;
    the answer is the plain fold's, and the snapshot is kept at the new head."""
    store = Ledger(tmp_path)
    game = long_game(store)
    open_game(store, game)
    store.append(game, [("ann", tiny.Cheered()), ("bob", tiny.Added(n=2))], expected_seq=400)
    before = counts()
    with no_whole_fold():
        grown = open_game(store, game)
    assert change(before, "extended") == 1 and change(before, "kept") == 1
    assert answers(grown) == answers(plain(store, game))
    with no_whole_fold():
        assert open_game(store, game).head_seq == 402
    assert change(before, "hit") == 1


def test_an_undo_since_the_snapshot_refolds_the_whole_log(tmp_path: Path) -> None:
    store = Ledger(tmp_path)
    game = long_game(store)
    open_game(store, game)
    target = plain(store, game).steps[-1].record.seq
    store.append(game, [("table", Retracted(seq=target))], expected_seq=400)
    before = counts()
    undone = open_game(store, game)
    assert change(before, "extended") == 0 and change(before, "folded") == 1
    assert answers(undone) == answers(plain(store, game))


@pytest.mark.parametrize("tail", [b"not json\n", b'{"seq":401}\n', b"torn"])
def test_damage_after_the_snapshot_is_refused_as_without_the_cache(tmp_path: Path,
                                                                   tail: bytes) -> None:
    store = Ledger(tmp_path)
    game = long_game(store)
    open_game(store, game)
    with store.path(game).open("ab") as log:
        log.write(tail)
    expected = error_of(lambda: store.records(game))
    before = counts()
    assert error_of(lambda: open_game(store, game)) == expected
    assert change(before, "extended") == change(before, "hit") == 0


def test_other_rules_or_another_tabletape_never_use_the_snapshot(tmp_path: Path) -> None:
    store = Ledger(tmp_path)
    game = long_game(store)
    open_game(store, game)
    for patch in (mock.patch.object(tiny.Tiny, "rules_version", "2"),
                  mock.patch.object(ledger_package, "__version__", "99.0")):
        before = counts()
        with patch:
            open_game(store, game)
        assert change(before, "ignored") == 1 and change(before, "folded") == 1
    before = counts()
    open_game(store, game)  # the snapshot kept last was folded under the other version
    assert change(before, "ignored") == 1 and change(before, "folded") == 1
    open_game(store, game)
    assert change(before, "hit") == 1


def test_a_changed_board_or_rules_file_changes_the_key(tmp_path: Path) -> None:
    """The key covers every code and data file of the game's package (its shipped board too) and
    of the rules kernel, by size and modification time."""
    rules = find_game("risk-deep-space")
    files = snapshots.code_files(type(rules).__module__)
    names = {path.name for path in files}
    assert {"default-board.json", "game.py", "kernel.py", "board.py", "fold.py"} <= names
    copies = []
    for path in (tmp_path / "a.py", tmp_path / "default-board.json"):
        path.write_text("{}")
        copies.append(path)
    first = snapshots.code_digest(copies)
    os.utime(copies[1], ns=(1, 1))
    assert snapshots.code_digest(copies) != first


# -- a snapshot file that is not a good one of this ledger is ignored ----------------------------


def garbage(path: Path, store: Ledger) -> None:
    path.write_bytes(os.urandom(300))


def emptied(path: Path, store: Ledger) -> None:
    path.write_bytes(b"")


def truncated(path: Path, store: Ledger) -> None:
    path.write_bytes(path.read_bytes()[:-20])


def flipped(path: Path, store: Ledger) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))


def resealed_elsewhere(path: Path, store: Ledger) -> None:
    """A well-formed snapshot whose state says something else, sealed with another key (planted
    by someone without this ledger's key)."""
    body = msgspec.msgpack.decode(path.read_bytes()[snapshots.SEAL_BYTES:],
                                  type=snapshots.FoldSnapshot)
    state = msgspec.msgpack.decode(body.state)
    state["total"] = -5
    forged = msgspec.structs.replace(body, state=msgspec.msgpack.encode(state))
    encoded = msgspec.msgpack.encode(forged)
    path.write_bytes(snapshots.seal(b"k" * snapshots.KEY_BYTES, encoded) + encoded)


def from_another_ledger(path: Path, store: Ledger) -> None:
    """The same log and its snapshot, copied from another ledger (another key)."""
    other = Ledger(path.parent.parent.parent.parent / "other")
    long_game(other)
    open_game(other, "ty-long")
    shutil.copy(snapshot_file(other, "ty-long"), path)


def a_folder(path: Path, store: Ledger) -> None:
    path.unlink()
    path.mkdir()


def a_pipe(path: Path, store: Ledger) -> None:
    path.unlink()
    os.mkfifo(path)


def a_dangling_link(path: Path, store: Ledger) -> None:
    path.unlink()
    path.symlink_to(path.parent / "gone")


@pytest.mark.parametrize("spoil", [garbage, emptied, truncated, flipped, resealed_elsewhere,
                                   from_another_ledger, a_folder, a_pipe, a_dangling_link])
def test_a_spoiled_snapshot_is_ignored_and_replaced(tmp_path: Path, spoil: Any) -> None:
    store = Ledger(tmp_path / "ledger")
    game = long_game(store)
    expected = answers(open_game(store, game))
    path = snapshot_file(store, game)
    spoil(path, store)
    before = counts()
    assert answers(open_game(store, game)) == expected
    assert change(before, "hit") == 0 and change(before, "folded") == 1
    if spoil not in (a_folder,):  # a folder in its place is never replaced: it stays a miss
        with no_whole_fold():
            replaced = open_game(store, game)
        assert answers(replaced) == expected


@pytest.mark.parametrize("key", [b"", b"short", b"x" * 40])
def test_a_key_of_the_wrong_size_caches_nothing(tmp_path: Path, key: bytes) -> None:
    store = Ledger(tmp_path)
    game = long_game(store)
    (snapshots.cache_folder(store)).mkdir(parents=True)
    (snapshots.cache_folder(store) / "key").write_bytes(key)
    before = counts()
    assert answers(open_game(store, game)) == answers(plain(store, game))
    open_game(store, game)
    assert change(before, "kept") == change(before, "hit") == 0
    assert not snapshot_file(store, game).exists()


def test_the_key_is_the_owners_only(tmp_path: Path) -> None:
    store = Ledger(tmp_path)
    open_game(store, long_game(store))
    assert (snapshots.cache_folder(store) / "key").stat().st_mode & 0o077 == 0


# -- a cache that cannot be written --------------------------------------------------------------


def test_a_cache_that_cannot_be_written_is_skipped_silently(tmp_path: Path) -> None:
    store = Ledger(tmp_path)
    game = long_game(store)
    open_game(store, game)  # the key exists; now every write fails (as on a full disk)
    snapshot_file(store, game).unlink()
    full = OSError(28, "No space left on device")
    with mock.patch("tempfile.mkstemp", side_effect=full):
        before = counts()
        assert answers(open_game(store, game)) == answers(plain(store, game))
        assert change(before, "kept") == 0
    assert sorted(p.name for p in snapshots.cache_folder(store).iterdir()) == ["key"]


def test_status_on_a_read_only_ledger_answers_and_changes_nothing(tmp_path: Path) -> None:
    """A read-only mount: without a cache (none can be made) and with one made before."""
    root = tmp_path / "ledger"
    store = Ledger(root)
    game = long_game(store)
    expected = cli(root, "status", game, "--json")
    read_only = f"mount --bind {root} {root}; mount -o remount,bind,ro {root}"
    for _ in range(2):
        before = snapshot(root)
        answered = in_namespace(read_only, "status", game, "--json", ledger=root)
        assert answered.returncode == 0, answered.stderr
        assert answered.stderr == "" and json.loads(answered.stdout) == json.loads(expected[1])
        assert snapshot(root) == before
        open_game(store, game)  # the second round: a snapshot made while writable
    assert snapshot_file(store, game).exists()


def test_the_cache_folder_is_made_by_a_process_as_a_person_runs_it(tmp_path: Path) -> None:
    root = tmp_path / "ledger"
    game = long_game(Ledger(root))
    first = tabletape_process("status", game, "--json", ledger=root)
    assert first.returncode == 0 and snapshot_file(Ledger(root), game).is_file()
    again = tabletape_process("status", game, "--json", ledger=root)
    assert again.stdout == first.stdout


# -- recording on a game opened from its snapshot ------------------------------------------------


def test_record_and_undo_on_a_kept_game_give_what_they_give_without_it(tmp_path: Path) -> None:
    cached, bare = Ledger(tmp_path / "cached"), Ledger(tmp_path / "bare")
    game = long_game(cached)
    long_game(bare)
    open_game(cached, game)
    at = AT
    with mock.patch.object(snapshots, "KEEP_FROM_BYTES", 1 << 40):  # the bare ledger: no cache
        bare_line = record_line(bare, game, "cheer by=cat", at=at)
    with no_whole_fold():
        kept_line = record_line(cached, game, "cheer by=cat", at=at)
    assert recorded_json(*kept_line) == recorded_json(*bare_line)
    assert answers(kept_line[0]) == answers(bare_line[0])
    assert cached.path(game).read_bytes() == bare.path(game).read_bytes()
    active = render.status_json(kept_line[0])["active"][0]
    with mock.patch.object(snapshots, "KEEP_FROM_BYTES", 1 << 40):
        bare_after = record_line(bare, game, f"add n=2 by={active}", at=at)[0]
        bare_undone = undo(bare, game, at=at)
    kept_after = record_line(cached, game, f"add n=2 by={active}", at=at)[0]
    assert answers(kept_after) == answers(bare_after)
    kept_undone = undo(cached, game, at=at)
    assert answers(kept_undone[0]) == answers(bare_undone[0])
    assert kept_undone[1] == bare_undone[1]
    assert cached.path(game).read_bytes() == bare.path(game).read_bytes()


def test_a_session_of_appends_on_a_kept_game_stays_one_log_deep(tmp_path: Path) -> None:
    """The prompt and a batch append line after line to the game they hold: the kept game grows
    by its new records only, and answers as the plain fold."""
    store = Ledger(tmp_path)
    game = long_game(store)
    open_game(store, game)
    folded = open_game(store, game)
    for line in ("cheer by=ann", "cheer by=bob", "cheer by=cat words=go"):
        folded, _ = append_all(store, folded, prepare_line(folded, line), at=AT)
    assert isinstance(folded, snapshots.KeptFolded)
    assert folded.log.before is not None and folded.log.before.before is None
    assert answers(folded) == answers(plain(store, game))


# -- every game, folded whole or on from a snapshot of its beginning -----------------------------


def prefix_game(store: Ledger, kind: str, seed: int, keep: float) -> tuple[str, list[Draft],
                                                                             list[str]]:
    """A simulated game of ``kind`` written up to a share ``keep`` of its events; the rest of
    its events (to append) and their times."""
    source = Ledger(store.root.parent / f"source-{kind}-{seed}")
    if not source.root.exists():
        simulate(source, kind, games=1, seed=seed)
    (full,) = source.game_ids()
    records = source.records(full)
    rules = find_game(kind)
    started = msgspec.json.decode(records[0].payload, type=GameStarted)
    drafts = [(r.actor, decode_event(rules, r)) for r in records[1:]]
    stamps = [r.at for r in records[1:]]
    cut = max(1, int(len(drafts) * keep))
    game = store.create(started, game_id=f"g-{seed}", at=records[0].at, then=drafts[:cut],
                        then_at=stamps[:cut])
    return game, drafts[cut:], stamps[cut:]


@pytest.mark.slow
@settings(max_examples=16, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 3), keep=st.floats(0.05, 1.0))
def test_every_kind_answers_alike_from_a_snapshot_and_folded_whole(
        tmp_path_factory: pytest.TempPathFactory, kind: str, seed: int, keep: float) -> None:
    """Bots of all four games: a snapshot of the game's beginning, the rest appended since; the
    game opened from it (folded on) and opened again (served whole) answers as the plain fold."""
    store = Ledger(tmp_path_factory.mktemp("ledger"))
    with cache_all_sizes():
        game, rest, stamps = prefix_game(store, kind, seed, keep)
        open_game(store, game)
        if rest:
            store.append(game, rest, expected_seq=store.head(game).seq, at=stamps)
        before = counts()
        with no_whole_fold():
            grown = open_game(store, game)
            served = open_game(store, game)
        assert change(before, "hit") == (2 if not rest else 1)
        expected = answers(plain(store, game))
        assert answers(grown) == expected
        assert answers(served) == expected


def test_a_state_that_does_not_round_trip_is_not_kept(tmp_path: Path) -> None:
    store = Ledger(tmp_path)
    game = long_game(store)
    with mock.patch.object(snapshots, "encoded_state", lambda state: None):
        before = counts()
        open_game(store, game)
        open_game(store, game)
    assert change(before, "kept") == 0 and change(before, "folded") == 2
    assert snapshots.encoded_state(object()) is None
    assert snapshots.encoded_state(tiny.TinyState(players=("a",), target=1)) is not None


def test_the_action_text_of_a_kept_game_is_unchanged(tmp_path: Path) -> None:
    """Steps worked out lazily (undo, the log) are the plain fold's steps."""
    store = Ledger(tmp_path)
    game = long_game(store)
    open_game(store, game)
    kept, whole = open_game(store, game), plain(store, game)
    assert [action_text(s.event) for s in kept.steps] == [action_text(s.event) for s in
                                                          whole.steps]
    assert kept.retracted == whole.retracted
