"""Seeded bot games to a legal end, and properties of the fold."""

from __future__ import annotations

import random
from typing import Union

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletape.ledger.events import Event
from tabletape.rules.bot_games import bot_game
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_strike import RULES
from tabletape.rules.risk_strike.events import (
    Attacked,
    Dealt,
    Deployed,
    Drew,
    Passed,
    Played,
    Resolved,
    Retreated,
    Rolled,
    RolledOff,
)
from tabletape.rules.risk_strike.state import CONTINENTS, TACTICS, State, invariant_errors
from tests.support.bots import bot_prefix as shared_bot_prefix
from tests.support.bots import seed_chunks

from .helpers import started

NAMES = ("Olga", "Patrick", "Carol", "Dan", "Eve")
GAMES, CHUNK = 500, 25


def players_for(seed: int) -> tuple[str, ...]:
    return NAMES[: 2 + seed % 4]


def replay_checked(seed: int) -> None:
    """One bot game to a result, then its replay with every card and coin accounted for."""
    begun = started(players_for(seed), seed=seed)
    played = bot_game(RULES, begun, random.Random(seed))
    state = RULES.start(begun)
    for number, (actor, event) in enumerate(played, start=1):
        state = RULES.apply(state, actor, event)
        errors = invariant_errors(state)
        assert not errors, f"seed {seed}, event {number} {event!r}: {errors}"
    result = RULES.result(state)
    assert result is not None and len(result.winners) == 1, f"seed {seed}: no winner"


@pytest.mark.parametrize(("first", "end"), seed_chunks(GAMES, CHUNK))
def test_bot_games_end_legally(first: int, end: int) -> None:
    """Winning: every seeded bot game ends with one player holding two domination coins, and
    after each event all 42 continent cards, 40 tactics cards and 6 coins are accounted for."""
    for seed in range(first, end):
        replay_checked(seed)


def bot_prefix(seed: int, steps: int) -> State:
    """The state after ``steps`` bot actions of the game seeded ``seed``."""
    return shared_bot_prefix(RULES, started(players_for(seed), seed=seed), steps)


WORDS = st.sampled_from(CONTINENTS + TACTICS + NAMES + ("attacker", "defender", "", "2", "mars"))
DICE = st.lists(st.integers(0, 7), max_size=4).map(tuple)
ANY_EVENT = st.one_of(
    st.builds(
        Dealt,
        player=WORDS,
        continents=st.lists(WORDS, max_size=4).map(tuple),
        tactics=st.lists(WORDS, max_size=4).map(tuple),
    ),
    st.builds(RolledOff, dice=DICE),
    st.builds(
        Drew,
        continents=st.lists(WORDS, max_size=3).map(tuple),
        lineup=st.lists(WORDS, max_size=2).map(tuple),
        tactics=st.lists(WORDS, max_size=2).map(tuple),
    ),
    st.builds(Attacked, from_=WORDS, target=WORDS, defender=WORDS),
    st.builds(Deployed, troops=st.integers(-1, 4), side=WORDS),
    st.builds(Rolled, attacker=DICE, defender=DICE),
    st.builds(Played, card=WORDS, target=WORDS, side=WORDS, die=st.integers(0, 7),
              troops=st.integers(-1, 3)),
    st.builds(Resolved, lost=st.lists(WORDS, max_size=2).map(tuple)),
    st.just(Retreated()),
    st.builds(Passed, drew=WORDS),
)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_bot_actions_always_fold(seed: int, steps: int) -> None:
    """How to Use Tactics Cards and every rule: any sequence of legal bot actions folds, and the
    cards add up after it."""
    state = bot_prefix(seed, steps)
    assert invariant_errors(state) == []
    assert RULES.legal_actions(state) or RULES.result(state) is not None
    status = {
        "turn": RULES.turn(state),
        "figures": RULES.figures(state),
        "extra": RULES.extra(state),
    }
    assert msgspec.json.decode(msgspec.json.encode(status))


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 80),
    actor=st.sampled_from((*NAMES, "table")),
    event=ANY_EVENT,
)
def test_any_action_is_refused_or_applied_without_touching_the_state(
    seed: int, steps: int, actor: str, event: object
) -> None:
    """Errors are for people: an action is either refused with IllegalAction or applied, and
    apply never changes the state it was given."""
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


PROBES: dict[str, tuple[Event, ...]] = {
    "deploy": (Deployed(troops=0), Deployed(troops=1), Deployed(troops=1, side="attacker"),
               Deployed(troops=1, side="defender")),
    "roll": (Rolled(),),
    "resolve": (Resolved(),),
    "retreat": (Retreated(),),
}
"""Entries any player might type in a battle, by action."""


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(8, 120))
def test_legal_actions_name_exactly_who_may_act(seed: int, steps: int) -> None:
    """Attack Phases 2 and 3, step by step: ``legal_actions`` lists exactly the players whose
    entry is accepted now (so ``by=`` may be left out exactly when one player may act)."""
    state = bot_prefix(seed, steps)
    listed = {spec.type: set(spec.actors) for spec in RULES.legal_actions(state)}
    for action, probes in PROBES.items():
        accepted = {seat.name for seat in state.seats
                    if any(accepts(state, seat.name, probe) for probe in probes)}
        assert accepted == listed.get(action, set()), (action, RULES.turn(state).detail)


def accepts(state: State, actor: str, event: Event) -> bool:
    try:
        RULES.check(state, actor, RULES.complete(state, actor, event, random.Random(0)))
    except IllegalAction:
        return False
    return True


def test_bot_is_deterministic_for_a_seed() -> None:
    """Randomness has provenance: the same seed plays the same game."""
    begun = started(players_for(7), seed=7)
    first = bot_game(RULES, begun, random.Random(7))
    assert first == bot_game(RULES, begun, random.Random(7))


def test_events_round_trip_as_stored() -> None:
    """Every log is self-describing: events encode to tagged JSON and decode to themselves."""
    union = Union[tuple(RULES.event_types().values())]  # noqa: UP007
    decoder = msgspec.json.Decoder(union)
    for _, event in bot_game(RULES, started(players_for(3), seed=3), random.Random(3)):
        assert decoder.decode(msgspec.json.encode(event)) == event
