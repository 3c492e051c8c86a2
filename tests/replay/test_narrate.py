"""Narration: every event in table words, plug-ins named by the manifest, never a failure."""

from __future__ import annotations

import io
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text

from tabletape.ledger import Ledger
from tabletape.replay import render
from tabletape.replay.narrate import FAILED_MARK, narrate_game
from tabletape.rules.manifest import GameNotLoaded
from tabletape.rules.registry import find_game
from tests.replay.conftest import bot_log
from tests.support.tinygame import with_parts


def test_every_event_is_told_undo_and_notes_too(store: Ledger, story: str) -> None:
    lines = {line.seq: " ".join(line.sentences) for line in narrate_game(story,
                                                                         store.records(story))}
    assert lines[1] == "Tiny begins with olga, patrick (in seat order); options: target=20."
    assert lines[2] == "olga: add n=2"
    assert lines[6] == "patrick: roll dice=4 (retracted by the undo at seq 7)"
    assert lines[7] == "Undo by patrick: patrick's roll (seq 6) is retracted."
    assert lines[8] == "Note (table): the die rolled off the table"
    last = lines[max(lines)]
    assert "The game ends:" in last and "won" in last


def test_turn_positions_are_those_the_event_was_recorded_in(store: Ledger, story: str) -> None:
    lines = narrate_game(story, store.records(story))
    cheer = next(line for line in lines if line.type == "cheer")
    assert (cheer.turn, cheer.round, cheer.active) == (3, 2, ("olga",))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 100_000), st.integers(1, 4), st.integers(5, 60))
def test_narration_never_fails_on_a_bot_game(seed: int, players: int, target: int) -> None:
    store = Ledger(tempfile.mkdtemp())
    game = bot_log(store, "ty-bot", seed, target=target,
                   players=("ann", "bob", "cat", "dan")[:players])
    records = store.records(game)
    lines = narrate_game(game, records)
    assert [line.seq for line in lines] == [record.seq for record in records]
    for line in lines:
        assert line.sentences and all(line.sentences)
        assert not any(FAILED_MARK in sentence for sentence in line.sentences)


def test_a_game_plugin_narrates_and_views(monkeypatch, store: Ledger, story: str) -> None:
    with_parts(monkeypatch,
               narrate=lambda visit: [f"{visit.record.actor.title()} adds up to "
                                  f"{visit.after.total}."],
               view=lambda rules, state: Text(f"total {state.total}"))
    lines = narrate_game(story, store.records(story))
    assert lines[1].sentences == ["Olga adds up to 2."]
    assert render.game_view(find_game("tiny"), find_game("tiny").start(
        store.started(story))).plain == "total 0"


def test_a_failing_narrator_falls_back_to_the_generic_sentence(monkeypatch, store: Ledger,
                                                               story: str) -> None:
    with_parts(monkeypatch, narrate=lambda visit: 1 / 0)
    lines = narrate_game(story, store.records(story))
    assert lines[1].sentences[0] == "olga: add n=2"
    assert FAILED_MARK in lines[1].sentences[1]


def test_a_part_that_cannot_be_imported_is_left_out_with_a_warning(monkeypatch, store: Ledger,
                                                                   story: str) -> None:
    """A broken plug-in module never breaks the game: its generic view and narrator stand in."""
    with_parts(monkeypatch, view="no_such_plugin_module:view",
               narrate="tests.support.tinygame:nothing")
    rules = find_game("tiny")
    with pytest.warns(GameNotLoaded, match=r"'tiny' part view \(no_such_plugin_module:view\)"):
        view = render.game_view(rules, rules.start(store.started(story)))
    console = Console(file=io.StringIO(), width=80)
    console.print(view)
    assert "olga" in console.file.getvalue()  # the figures table
    with pytest.warns(GameNotLoaded, match=r"'tiny' part narrate .*AttributeError"):
        lines = narrate_game(story, store.records(story))
    assert lines[1].sentences == ["olga: add n=2"]
