"""Seeded bot games to a legal end, every piece and token accounted for after every event."""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletape.rules.bot_games import bot_game
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_deep_space import RULES
from tabletape.rules.risk_deep_space.state import State, invariant_errors
from tests.support.bots import bot_prefix as shared_bot_prefix
from tests.support.bots import seed_chunks

from .helpers import started

NAMES = ("Olga", "Patrick", "Carol", "Dan")
GAMES, CHUNK = 500, 50


def players_for(seed: int) -> tuple[str, ...]:
    return NAMES[: 2 + seed % 3]


@pytest.mark.parametrize(("first", "end"), seed_chunks(GAMES, CHUNK))
def test_bot_games_end_legally(first: int, end: int) -> None:
    """Win, and Components: every seeded bot game ends with a player's fourth (fifth) Base, and
    after each event all 32 Recruits and 5 Bases per colour, 31 Gems, 31 Ore, 3 Space Dogs and
    36 Action cards are somewhere."""
    for seed in range(first, end):
        begun = started(players_for(seed), seed=seed)
        state = RULES.start(begun)
        for number, (actor, event) in enumerate(bot_game(RULES, begun, random.Random(seed)), 1):
            state = RULES.apply(state, actor, event)
            errors = invariant_errors(state)
            assert not errors, f"seed {seed}, event {number} {event!r}: {errors}"
        result = RULES.result(state)
        assert result is not None and len(result.winners) == 1, f"seed {seed}: no winner"


def test_bot_is_deterministic_for_a_seed() -> None:
    begun = started(players_for(7), seed=7)
    assert bot_game(RULES, begun, random.Random(7)) == bot_game(RULES, begun, random.Random(7))


def bot_prefix(seed: int, steps: int) -> State:
    """The state after ``steps`` bot actions of the game seeded ``seed``."""
    return shared_bot_prefix(RULES, started(players_for(seed), seed=seed), steps)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 300))
def test_bot_actions_are_listed_and_status_encodes(seed: int, steps: int) -> None:
    state = bot_prefix(seed, steps)
    assert RULES.legal_actions(state) or RULES.result(state) is not None
    status = {"turn": RULES.turn(state), "figures": RULES.figures(state),
              "extra": RULES.extra(state)}
    assert msgspec.json.decode(msgspec.json.encode(status))


WORDS = st.sampled_from(("n1", "red-station", "centre", "nw-corner", "mars", "olga", "air-leak",
                         "space-dog-paw", "tractor-beam", "gem", "ore", ""))


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 150),
       actor=st.sampled_from((*NAMES, "table")),
       line=st.tuples(st.sampled_from(tuple(RULES.event_types())), WORDS, WORDS,
                      st.integers(-1, 7)))
def test_any_action_is_refused_or_applied_without_touching_the_state(
    seed: int, steps: int, actor: str, line: tuple[str, str, str, int]
) -> None:
    """Errors are for people: an action is refused with IllegalAction or applied; apply never
    changes the state it was given, and all still adds up."""
    kind, word, other, number = line
    cls = RULES.event_types()[kind]
    values = {"player": word, "cards": [word], "planets": [word, other], "dice": [number],
              "planet": word, "resource": other, "count": number, "from": word, "to": other,
              "attacker": number, "defender": number, "card": word, "take": other}
    fields = {f.encode_name for f in msgspec.structs.fields(cls)}
    try:
        event = msgspec.convert({k: v for k, v in values.items() if k in fields}, cls)
    except msgspec.ValidationError:
        return
    state = bot_prefix(seed, steps)
    before = msgspec.json.encode(state)
    try:
        RULES.check(state, actor, event)
    except IllegalAction as error:
        assert error.message()
        return
    after = RULES.apply(state, actor, event)
    assert msgspec.json.encode(state) == before
    assert invariant_errors(after) == []
