"""The fold's shortcuts in Risk: Deep Space (issue 17, "One machine, faster") answer what the
definitions they stand in for answer: typed planets remembered per board, the planets a refusal
lists computed only when it refuses; ``apply`` stays pure along seeded bot games."""

from __future__ import annotations

import random

import msgspec
import pytest
from msgspec.structs import replace

from tabletape.rules.bot_games import bot_game
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_deep_space import RULES
from tabletape.rules.risk_deep_space.moves import planet_called

from .helpers import TWO, start, started


def test_typed_planets_are_found_as_the_board_finds_them() -> None:
    """Every id and title, in any case, asked twice (computed, then remembered), is the space
    :meth:`Board.find` and :meth:`Board.index` give."""
    state = start()
    board = state.board
    typed = [*board.ids, *(space.title for space in board.spaces),
             *(space.title.upper() for space in board.spaces)]
    for text in typed * 2:
        name = board.find(text)
        assert name is not None
        assert planet_called(state, text) == board.index(name), text


@pytest.mark.parametrize("among", [None, [0, 1], lambda: [0, 1]], ids=["board", "list", "asked"])
def test_an_unknown_planet_is_refused_naming_the_planets_allowed(among: object) -> None:
    """A refusal lists ``among`` whether given as a list or asked for, else every space."""
    state = start()
    with pytest.raises(IllegalAction) as refused:
        planet_called(state, "nowhere", among)  # type: ignore[arg-type]
    wanted = state.board.ids if among is None else tuple(state.space(p) for p in (0, 1))
    assert refused.value.allowed == tuple(wanted)


@pytest.mark.parametrize("players", [TWO, ("Olga", "Patrick", "Carol", "Dan")])
def test_apply_leaves_the_state_it_was_given_as_it_was(players: tuple[str, ...]) -> None:
    """Pure: the state before each event encodes the same after ``apply``."""
    begun = started(players, seed=3)
    encode = msgspec.json.Encoder().encode
    state = RULES.start(begun)
    for actor, event in bot_game(RULES, begun, random.Random(3)):
        before = encode(replace(state, settings=None))
        after = RULES.apply(state, actor, event)
        assert encode(replace(state, settings=None)) == before, event
        state = after
