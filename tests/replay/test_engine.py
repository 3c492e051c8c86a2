"""The replay engine: points, seeking, stepping, snapshots, forks."""

from __future__ import annotations

import tempfile
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletape.ledger import Ledger
from tabletape.replay import engine
from tabletape.replay.engine import (
    BadPoint,
    Cursor,
    Point,
    Replay,
    fork_game,
    open_replay,
    parse_point,
)
from tabletape.replay.fold import UNDOABLE_SKIP, decode_event, retractions
from tabletape.replay.recording import open_game
from tabletape.replay.render import status_json
from tabletape.rules.registry import find_game
from tests.replay.conftest import bot_log, record_script, tiny_started

TINY = find_game("tiny")


def naive_state(replay: Replay, position: int) -> Any:
    """The state at ``position`` folded from the start, the slow obvious way."""
    retracted = retractions(replay.records)
    state = TINY.start(replay.started)
    for record in replay.records[1:position + 1]:
        if record.type not in UNDOABLE_SKIP and record.seq not in retracted:
            state = TINY.apply(state, record.actor, decode_event(TINY, record))
    return state


OPS = st.sampled_from(["add n=1", "add n=2", "add n=3", "roll", "cheer by=olga",
                       "cheer by=patrick", "undo", "note hm"])


def scripted_replay(ops: list[str], target: int = 40) -> Replay:
    """A tiny game of ``ops`` (an undo with nothing to undo is skipped; the end stops it)."""
    store = Ledger(tempfile.mkdtemp())
    record_script(store, "ty-h", [], tiny_started(target=target))
    for index, op in enumerate(ops):
        folded = open_game(store, "ty-h")
        if TINY.result(folded.state) is not None:
            break
        if op == "undo" and not folded.steps:
            continue
        record_script_line(store, op, index)
    return open_replay(store, "ty-h")


def record_script_line(store: Ledger, line: str, index: int) -> None:
    from tabletape.replay.recording import record_action
    from tabletape.replay.undo import undo
    from tests.replay.conftest import stamp

    if line == "undo":
        undo(store, "ty-h", at=stamp(index + 1))
    elif line.startswith("note"):
        from tabletape.ledger import Noted

        store.append("ty-h", [("table", Noted(text="hm"))],
                     expected_seq=store.head("ty-h").seq, at=stamp(index + 1))
    else:
        record_action(store, "ty-h", line, at=stamp(index + 1))


# -- points --------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["start", "end", "seq=4", "turn=3", "turn=3:end", "turn=2:add",
                                  "round=2", "round=2:end", "phase=add"])
def test_points_format_as_they_parse(text: str) -> None:
    assert str(parse_point(text)) == text


@pytest.mark.parametrize("text", ["", "seq", "seq=", "seq=-1", "turn=x", "seq=3:end",
                                  "round=2:add", "middle", "turn=1=2"])
def test_bad_points_say_what_is_accepted(text: str) -> None:
    with pytest.raises(BadPoint, match="write"):
        parse_point(text)


def test_points_this_game_lacks_are_named(store: Ledger, story: str) -> None:
    replay = open_replay(store, story)
    with pytest.raises(BadPoint, match="has events 1 to 13"):
        replay.position("seq=14")
    with pytest.raises(BadPoint, match="has turns 1 to"):
        replay.position("turn=99")
    with pytest.raises(BadPoint, match="no phase 'battle'"):
        replay.position("phase=battle")


def test_points_land_where_they_say(store: Ledger, story: str) -> None:
    replay = open_replay(store, story)
    assert replay.position("start") == 0
    assert replay.position("end") == len(replay) - 1
    assert replay.seq(replay.position("seq=5")) == 5
    turn3 = replay.position("turn=3")
    assert replay.turn_info(turn3).turn == 3 and replay.turn_info(turn3 - 1).turn == 2
    end3 = replay.position("turn=3:end")
    assert replay.turn_info(end3).turn == 3 and replay.turn_info(end3 + 1).turn == 4
    assert end3 > turn3  # the cheer happens inside turn 3
    assert replay.turn_info(replay.position("round=2")).round == 2


# -- states --------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OPS, min_size=0, max_size=25), st.data())
def test_seek_equals_folding_from_the_start(ops: list[str], data: st.DataObject) -> None:
    replay = scripted_replay(ops)
    position = data.draw(st.integers(0, replay.last))
    assert replay.state_at(position) == naive_state(replay, position)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OPS, min_size=1, max_size=25), st.data())
def test_k_steps_forward_then_k_back_is_the_same_state(ops: list[str],
                                                       data: st.DataObject) -> None:
    replay = scripted_replay(ops)
    start = data.draw(st.integers(0, replay.last))
    k = data.draw(st.integers(0, replay.last - start))
    cursor = Cursor(replay, start)
    before = cursor.state
    cursor.forward(k)
    assert cursor.position == start + k
    assert cursor.back(k).state == before
    assert cursor.position == start


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4))
def test_the_end_is_the_status(seed: int, players: int) -> None:
    store = Ledger(tempfile.mkdtemp())
    game = bot_log(store, "ty-bot", seed, players=("ann", "bob", "cat", "dan")[:players])
    replay = open_replay(store, game)
    assert status_json(replay.folded_at(replay.position("end"))) == status_json(
        open_game(store, game))


def test_turn_steps_land_on_turn_starts_and_come_back(store: Ledger, story: str) -> None:
    replay = open_replay(store, story)
    cursor = Cursor(replay)
    seen = []
    while cursor.position < replay.last:
        cursor.next_turn()
        seen.append(cursor.info.turn)
    assert seen == sorted(seen) and len(set(seen)) == len(seen)
    middle = Cursor(replay).seek("turn=3")
    assert middle.next_turn().previous_turn().position == replay.position("turn=3")
    inside = Cursor(replay, replay.position("turn=3") + 1)
    assert inside.previous_turn().position == replay.position("turn=3")  # first to its start
    assert Cursor(replay).previous_turn().position == 0
    assert Cursor(replay).next_round().info.round == 2


def test_retracted_events_never_count(store: Ledger, story: str) -> None:
    replay = open_replay(store, story)
    undone = replay.position("seq=6")  # patrick's roll of 4, undone at seq 7
    assert replay.state_at(undone) == replay.state_at(undone - 1)
    assert not replay.effective[undone]


def test_a_seek_applies_a_bounded_number_of_events(store: Ledger, monkeypatch) -> None:
    long_turn = ["cheer by=olga"] * 100 + ["add n=1"] + ["cheer by=patrick"] * 100
    record_script(store, "ty-long", long_turn)
    replay = open_replay(store, "ty-long")
    applied = []
    original = Replay.apply
    monkeypatch.setattr(Replay, "apply",
                        lambda self, state, at: applied.append(at) or original(self, state, at))
    for position in range(len(replay)):
        applied.clear()
        assert replay.state_at(position) == naive_state(replay, position)
        assert len(applied) < engine.SNAPSHOT_EVERY


# -- forks ---------------------------------------------------------------------------------------


def test_fork_repeats_the_game_up_to_the_point(store: Ledger, story: str) -> None:
    made = fork_game(store, story, Point("seq", 6), "ty-what-if")
    started = store.started(made.game)
    assert (started.parent, started.fork_seq) == (story, 6)
    assert store.verify(made.game).ok
    parent = open_replay(store, story)
    assert made.carried_undos == 1  # seq 6 was undone later (at 7): the fork starts without it
    assert open_game(store, made.game).state == parent.state_at(parent.position("seq=6"))
    copied = store.records(made.game)[1:6]
    assert [(r.actor, r.type, r.at, bytes(r.payload)) for r in copied] == [
        (r.actor, r.type, r.at, bytes(r.payload)) for r in store.records(story)[1:6]]


def test_fork_at_a_turn(store: Ledger, story: str) -> None:
    made = fork_game(store, story, "turn=2")
    assert made.fork_seq == 2 and made.carried_undos == 0
    assert store.head(made.game).seq == 2
