"""The ledger's contract: create, append, read, head, verify, repair, and how each one fails.

Every test works on a fresh ledger folder under ``tmp_path``; none needs a game's rules.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest

from tabletape import ledger as ledger_pkg
from tabletape.ledger import (
    GENESIS_HASH,
    TABLE,
    Corrupt,
    GameStarted,
    Ledger,
    LedgerError,
    Noted,
    Retracted,
    TornTail,
    UnfinishedAppend,
    UnknownGameId,
    VersionConflict,
    default_root,
)
from tabletape.ledger.codec import line_body
from tabletape.ledger.store import ID_ALPHABET

STARTED = GameStarted(kind="tiny", rules_version="3", tabletape_version=ledger_pkg.__version__,
                      players=("olga", "patrick", "zoë"), options={"target": 12}, seed=987654321)


@pytest.fixture
def store(tmp_path: Path) -> Ledger:
    return Ledger(tmp_path / "ledger")


@pytest.fixture
def game(store: Ledger) -> str:
    return store.create(STARTED)


def notes(*texts: str, actor: str = "olga") -> list[tuple[str, Noted]]:
    return [(actor, Noted(text=text)) for text in texts]


def file_bytes(store: Ledger, game: str) -> bytes:
    return store.path(game).read_bytes()


# -- create ----------------------------------------------------------------------------------------


def test_create_writes_one_game_started_line_in_games_folder(store: Ledger, game: str) -> None:
    path = store.root / "games" / f"{game}.jsonl"
    assert path.is_file()
    assert store.path(game) == path
    data = path.read_bytes()
    assert data.endswith(b"\n") and data.count(b"\n") == 1

    (record,) = store.records(game)
    assert record.seq == 1
    assert record.type == "game-started"
    assert record.actor == TABLE
    assert record.prev == GENESIS_HASH
    assert store.started(game) == STARTED
    decoded = msgspec.json.decode(record.payload, type=GameStarted)
    assert decoded.players == ("olga", "patrick", "zoë")  # seat order kept
    assert (decoded.kind, decoded.rules_version, decoded.seed) == ("tiny", "3", 987654321)
    assert decoded.tabletape_version == ledger_pkg.__version__
    assert decoded.options == {"target": 12}


def test_envelope_fields_and_order(store: Ledger, game: str) -> None:
    store.append(game, notes("hi"), expected_seq=1)
    line = file_bytes(store, game).splitlines()[1]
    keys = list(json.loads(line))
    assert keys == ["seq", "at", "actor", "type", "payload", "prev", "hash"]


def test_recorded_at_is_utc_with_microseconds(store: Ledger, game: str) -> None:
    before = datetime.now(UTC)
    (record,) = store.append(game, notes("now"), expected_seq=1)
    after = datetime.now(UTC)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", record.at)
    moment = datetime.strptime(record.at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    assert before <= moment <= after


def test_hash_is_sha256_of_the_stored_line_without_its_hash(store: Ledger, game: str) -> None:
    store.append(game, notes("a", "b"), expected_seq=1)
    prev = GENESIS_HASH
    for line in file_bytes(store, game).splitlines():
        stored = json.loads(line)
        assert stored["prev"] == prev
        body = line_body(line)
        assert b'"hash"' not in body
        assert json.loads(body) == {k: v for k, v in stored.items() if k != "hash"}
        assert stored["hash"] == hashlib.sha256(body).hexdigest()
        prev = stored["hash"]


def test_create_with_a_taken_id_is_refused_and_changes_nothing(store: Ledger) -> None:
    game = store.create(STARTED, game_id="ty-abcd")
    before = file_bytes(store, game)
    with pytest.raises(LedgerError, match="already used"):
        store.create(STARTED, game_id="ty-abcd")
    assert file_bytes(store, game) == before


def test_generated_ids_are_short_unique_and_from_the_id_alphabet(store: Ledger) -> None:
    assert not set("01ilo") & set(ID_ALPHABET)
    ids = [store.create(STARTED) for _ in range(60)]
    assert len(set(ids)) == len(ids)
    for game in ids:
        prefix, _, suffix = game.partition("-")
        assert prefix == "ti"  # from the kind
        assert 4 <= len(suffix) <= 8
        assert set(suffix) <= set(ID_ALPHABET), game
    assert sorted(store.game_ids()) == sorted(ids)
    fresh = {store.new_game_id("ty") for _ in range(200)}
    assert all(re.fullmatch(rf"ty-[{ID_ALPHABET}]{{4}}", g) for g in fresh)
    assert not fresh & set(ids)


def test_generated_id_collision_draws_again(store: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    taken = store.create(STARTED, game_id="ti-2222")
    draws = iter(["ti-2222", "ti-3333"])
    # new_game_id saw a free id, but another process took it before the file was created
    monkeypatch.setattr(store, "new_game_id", lambda prefix: next(draws))
    game = store.create(STARTED)
    assert game == "ti-3333"
    assert store.head(taken).seq == 1 and store.head(game).seq == 1


# -- append ----------------------------------------------------------------------------------------


def test_append_returns_records_with_contiguous_seqs_and_chain(store: Ledger, game: str) -> None:
    first = store.append(game, notes("one"), expected_seq=1)
    batch = store.append(game, [("olga", Noted(text="two")), ("patrick", Retracted(seq=2)),
                                (TABLE, Noted(text="four", about=3))], expected_seq=2)
    assert [r.seq for r in first + batch] == [2, 3, 4, 5]
    assert [r.type for r in batch] == ["note", "undo", "note"]
    assert [r.actor for r in batch] == ["olga", "patrick", TABLE]
    assert batch[0].prev == first[0].hash
    assert batch[1].prev == batch[0].hash and batch[2].prev == batch[1].hash
    assert store.records(game)[1:] == first + batch
    head = store.head(game)
    assert (head.seq, head.hash, head.at) == (5, batch[-1].hash, batch[-1].at)
    assert msgspec.json.decode(batch[2].payload) == {"text": "four", "about": 3}


def test_append_with_explicit_stamps(store: Ledger, game: str) -> None:
    stamps = ["2026-01-01T00:00:00.000001Z", "2026-01-01T00:00:00.000002Z"]
    records = store.append(game, notes("a", "b"), expected_seq=1, at=stamps)
    assert [r.at for r in records] == stamps
    assert store.verify(game).ok


def test_version_conflict_writes_nothing(store: Ledger, game: str) -> None:
    store.append(game, notes("a", "b"), expected_seq=1)
    before = file_bytes(store, game)
    for stale in (0, 1, 2, 4, 99):
        with pytest.raises(VersionConflict) as caught:
            store.append(game, notes("late"), expected_seq=stale)
        assert (caught.value.expected, caught.value.actual) == (stale, 3)
        assert "nothing was written" in str(caught.value)
        assert file_bytes(store, game) == before
    assert isinstance(caught.value, LedgerError)
    assert store.append(game, notes("c"), expected_seq=3)[0].seq == 4


def test_each_append_is_one_write_then_fsync(store: Ledger, game: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int]] = []
    real_write, real_fsync = os.write, os.fsync

    def write(fd: int, data: bytes) -> int:
        calls.append(("write", len(data)))
        return real_write(fd, data)

    def fsync(fd: int) -> None:
        calls.append(("fsync", fd))
        real_fsync(fd)

    monkeypatch.setattr(os, "write", write)
    monkeypatch.setattr(os, "fsync", fsync)
    size = store.path(game).stat().st_size
    store.append(game, notes(*(f"event {i}" for i in range(7))), expected_seq=1)
    grown = store.path(game).stat().st_size - size
    assert [kind for kind, _ in calls] == ["write", "fsync"]
    assert calls[0][1] == grown  # all seven lines in that one write
    assert store.head(game).seq == 8

    calls.clear()
    store.append(game, notes("single"), expected_seq=8)
    assert [kind for kind, _ in calls] == ["write", "fsync"]


def test_short_write_is_an_error_and_leaves_the_log_as_it_was(
        store: Ledger, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store.append(game, notes("kept"), expected_seq=1)
    before = file_bytes(store, game)
    real_write = os.write

    def half_write(fd: int, data: bytes) -> int:  # a full disk takes part of the bytes
        return real_write(fd, data[: len(data) // 2])

    monkeypatch.setattr(os, "write", half_write)
    with pytest.raises(OSError, match="short write"):
        store.append(game, notes("lost", "also lost"), expected_seq=2)
    monkeypatch.undo()
    assert file_bytes(store, game) == before
    assert store.verify(game).ok
    assert store.append(game, notes("next"), expected_seq=2)[0].seq == 3


def test_append_refuses_a_torn_log_without_writing(store: Ledger, game: str) -> None:
    store.append(game, notes("a"), expected_seq=1)
    with open(store.path(game), "ab") as handle:
        handle.write(b'{"seq":3,"at":"2026')
    before = file_bytes(store, game)
    with pytest.raises(TornTail):
        store.append(game, notes("b"), expected_seq=2)
    assert file_bytes(store, game) == before


# -- reading ---------------------------------------------------------------------------------------


def test_read_streams_records(store: Ledger, game: str) -> None:
    store.append(game, notes(*map(str, range(50))), expected_seq=1)
    stream = store.read(game)
    assert next(stream).seq == 1  # a generator, not a list
    assert [r.seq for r in stream] == list(range(2, 52))
    assert list(store.lines(game)) == file_bytes(store, game).splitlines()


def test_torn_last_line_is_reported_never_dropped(store: Ledger, game: str) -> None:
    store.append(game, notes("a", "b"), expected_seq=1)
    whole = file_bytes(store, game)
    torn = whole + b'{"seq":4,"at":"2026-01-01T00:0'
    store.path(game).write_bytes(torn)

    with pytest.raises(TornTail) as caught:
        store.records(game)
    assert caught.value.after_seq == 3
    assert caught.value.size == len(torn) - len(whole)
    assert f"tabletape repair {game}" in str(caught.value)
    with pytest.raises(TornTail):
        list(store.lines(game))
    with pytest.raises(TornTail):
        store.head(game)
    result = store.verify(game)
    assert not result.ok and result.first_bad_seq == 4 and result.events == 3
    assert "torn" in result.problem


def test_repair_cuts_a_torn_tail_and_keeps_a_backup(store: Ledger, game: str) -> None:
    store.append(game, notes("a", "b"), expected_seq=1)
    whole = file_bytes(store, game)
    torn = whole + b'{"seq":4,"at":"20'
    store.path(game).write_bytes(torn)

    backup = store.repair(game)
    assert backup is not None and backup.exists()
    assert backup.read_bytes() == torn  # the original, byte for byte
    assert backup.parent == store.path(game).parent and backup.name.endswith(".bak")
    assert file_bytes(store, game) == whole
    assert store.verify(game).ok
    assert store.game_ids() == [game]  # the backup is not a game
    assert store.append(game, notes("c"), expected_seq=3)[0].seq == 4


def cut_after_lines(store: Ledger, game: str, keep: int, torn: bytes = b"") -> bytes:
    """Leave only the first ``keep`` lines of the log (and ``torn`` after them): a crash."""
    lines = file_bytes(store, game).splitlines(keepends=True)
    store.path(game).write_bytes(b"".join(lines[:keep]) + torn)
    return b"".join(lines[:keep])


def test_an_append_is_marked_so_that_its_lines_end_together(store: Ledger, game: str) -> None:
    records = store.append(game, notes("a", "b", "c"), expected_seq=1)
    assert [r.more for r in records] == [2, 1, 0]
    assert [r.more for r in store.records(game)] == [0, 2, 1, 0]
    single = store.append(game, notes("d"), expected_seq=4)[0]
    assert b'"more"' not in file_bytes(store, game).splitlines()[-1] and single.more == 0


@pytest.mark.parametrize("torn", [b"", b'{"seq":5,"at":"20'])
def test_an_append_cut_short_is_reported_and_repaired_whole(store: Ledger, game: str,
                                                            torn: bytes) -> None:
    """A kill can cut one write of several lines short at a line boundary: all or none."""
    store.append(game, notes("a"), expected_seq=1)
    whole = file_bytes(store, game)
    store.append(game, notes("b", "c", "d"), expected_seq=2)
    cut_after_lines(store, game, 4, torn)  # events 3 and 4 of the 3-event append are there
    with pytest.raises(TornTail) as caught:
        store.records(game)
    assert f"tabletape repair {game}" in str(caught.value)
    if not torn:
        assert isinstance(caught.value, UnfinishedAppend) and caught.value.after_seq == 2
        stream = store.read(game)  # the complete appends stream out, then the error
        assert [next(stream).seq, next(stream).seq] == [1, 2]
        with pytest.raises(UnfinishedAppend):
            next(stream)
    with pytest.raises(TornTail):
        store.head(game)
    before = file_bytes(store, game)
    with pytest.raises(TornTail):
        store.append(game, notes("e"), expected_seq=4)
    assert file_bytes(store, game) == before
    result = store.verify(game)
    assert not result.ok and result.events == (4 if torn else 2)
    assert store.repair(game) is not None
    assert file_bytes(store, game) == whole
    assert store.verify(game).ok and store.head(game).seq == 2
    assert store.append(game, notes("e"), expected_seq=2)[0].seq == 3


def test_repair_of_a_sound_log_changes_nothing(store: Ledger, game: str) -> None:
    store.append(game, notes("a"), expected_seq=1)
    before = file_bytes(store, game)
    assert store.repair(game) is None
    assert file_bytes(store, game) == before
    assert list(store.games_dir.iterdir()) == [store.path(game)]


def test_verify_ok_counts_events_and_reports_head(store: Ledger, game: str) -> None:
    records = store.append(game, notes("a", "b", "c"), expected_seq=1)
    result = store.verify(game)
    assert result.ok and result.events == 4 and result.first_bad_seq is None
    assert result.head == records[-1].hash


@pytest.mark.parametrize("line_index", [0, 1, 3])
def test_verify_names_the_first_changed_line(store: Ledger, game: str, line_index: int) -> None:
    store.append(game, notes("alpha", "beta", "gamma"), expected_seq=1)
    lines = file_bytes(store, game).splitlines(keepends=True)
    lines[line_index] = lines[line_index].replace(b'"seq":', b'"seq": ', 1)
    store.path(game).write_bytes(b"".join(lines))
    result = store.verify(game)
    assert not result.ok
    assert result.first_bad_seq == line_index + 1 and result.events == line_index
    assert "changed" in result.problem


def test_verify_finds_a_rehashed_line_by_the_broken_chain(store: Ledger, game: str) -> None:
    """Rewriting a line *and* its own hash still breaks the next line's ``prev``."""
    from tabletape.ledger.codec import seal

    store.append(game, notes("honest", "after"), expected_seq=1)
    lines = file_bytes(store, game).splitlines()
    forged = line_body(lines[1]).replace(b"honest", b"forged")
    lines[1] = seal(forged)
    store.path(game).write_bytes(b"\n".join(lines) + b"\n")
    result = store.verify(game)
    assert not result.ok and result.first_bad_seq == 3
    assert "chain" in result.problem


def test_verify_finds_a_removed_line(store: Ledger, game: str) -> None:
    store.append(game, notes("a", "b", "c"), expected_seq=1)
    lines = file_bytes(store, game).splitlines(keepends=True)
    del lines[2]
    store.path(game).write_bytes(b"".join(lines))
    result = store.verify(game)
    assert not result.ok and result.first_bad_seq == 3
    with pytest.raises(Corrupt) as caught:
        store.records(game)
    assert caught.value.seq == 3


def test_an_empty_log_file_is_damage_not_an_empty_game(store: Ledger, game: str) -> None:
    store.path(game).write_bytes(b"")
    result = store.verify(game)
    assert not result.ok and result.first_bad_seq == 1
    with pytest.raises(Corrupt):
        store.records(game)
    with pytest.raises(Corrupt):
        store.head(game)


# -- names and places ------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["records", "head", "started", "verify", "repair", "lines"])
def test_unknown_game_id(store: Ledger, game: str, method: str) -> None:
    call = getattr(store, method)
    with pytest.raises(UnknownGameId) as caught:
        result = call("ti-nope")  # "o" is not in the id alphabet: never a generated id
        if method == "lines":
            list(result)
    assert isinstance(caught.value, LedgerError)
    assert game in str(caught.value)  # lists the games there are


def test_unknown_game_id_on_append_writes_nothing(store: Ledger, game: str) -> None:
    with pytest.raises(UnknownGameId):
        store.append("ty-nope", notes("x"), expected_seq=1)
    assert not store.path("ty-nope").exists()


@pytest.mark.parametrize("bad", ["", "../escape", "a/b", ".hidden", "a\\b"])
def test_ids_that_are_paths_are_refused(store: Ledger, bad: str) -> None:
    with pytest.raises(UnknownGameId):
        store.path(bad)


def test_unknown_game_message_suggests_a_close_id(store: Ledger) -> None:
    store.create(STARTED, game_id="rs-k7pq")
    with pytest.raises(UnknownGameId, match="did you mean 'rs-k7pq'"):
        store.head("rs-k7pg")


def test_default_root_honours_tabletape_ledger(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETAPE_LEDGER", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_root() == tmp_path / "mine"
    assert Ledger().root == tmp_path / "mine"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TABLETAPE_LEDGER", "~/games")
    assert default_root() == tmp_path / "home" / "games"


def test_default_root_is_the_user_data_folder(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLETAPE_LEDGER", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_root() == tmp_path / "xdg" / "tabletape"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_root() == tmp_path / "home" / ".local" / "share" / "tabletape"
    monkeypatch.setenv("TABLETAPE_LEDGER", "")  # empty means unset
    assert default_root() == tmp_path / "home" / ".local" / "share" / "tabletape"


def test_ledgers_are_independent(tmp_path: Path) -> None:
    one, two = Ledger(tmp_path / "one"), Ledger(tmp_path / "two")
    game = one.create(STARTED)
    assert two.game_ids() == []
    with pytest.raises(UnknownGameId):
        two.head(game)
