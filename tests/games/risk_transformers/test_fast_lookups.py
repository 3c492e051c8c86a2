"""The fold's shortcuts (issue 17, "One machine, faster") answer exactly what the definitions
they stand in for answer: table look-ups, remembered dice, direct checks of one zone or card.

Along seeded bot games (2, 3 and 4 players, the option variants of ``test_bot``), every state
is asked both ways; rolls and dice are checked against :mod:`tabletape.rules.dice` for any
dice hypothesis draws. ``apply`` stays pure: the state it is given encodes the same after.
"""

from __future__ import annotations

import dataclasses
import functools
import random

import msgspec
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from tabletape.ledger.events import Event
from tabletape.rules import dice
from tabletape.rules.bot_games import bot_game
from tabletape.rules.dice import Bonus, Die
from tabletape.rules.risk_transformers.battle import dice_fit, settled_roll
from tabletape.rules.risk_transformers.moves import allowed_places, may_place
from tabletape.rules.risk_transformers.state import (
    State,
    any_empty_zone,
    controlled,
    controls,
    empty_zones,
    is_unseen,
    live_places,
    unseen,
    zones_held,
)
from tests.games.risk_transformers.helpers import GAME
from tests.games.risk_transformers.test_bot import begun

SEEDS = range(12)
"""2, 3 and 4 players, each option variant of :func:`.test_bot.begun`."""


@functools.cache
def states(seed: int) -> list[tuple[State, str, Event]]:
    """Each state of bot game ``seed`` with the event applied to it."""
    started = begun(seed)
    state, found = GAME.start(started), []
    for actor, event in bot_game(GAME, started, random.Random(seed)):
        found.append((state, actor, event))
        state = GAME.apply(state, actor, event)
    return found


def test_apply_leaves_the_state_it_was_given_as_it_was() -> None:
    """Pure: the state before each event encodes the same after ``apply`` (the caches hold
    values keyed on immutable ones, never a state's parts to change)."""
    encode = msgspec.json.Encoder().encode
    for seed in SEEDS:
        for state, actor, event in states(seed)[::3]:
            before = encode(replace(state, settings=None))
            GAME.apply(state, actor, event)
            assert encode(replace(state, settings=None)) == before, (seed, event)


def test_direct_checks_agree_with_the_lists_they_stand_in_for() -> None:
    """A zone's owner checked directly, a card's copies counted, a zone found by table: the
    same answers as :func:`allowed_places`, :func:`controlled`, :func:`empty_zones`,
    :func:`unseen`, ``places.index`` and :func:`live_places`."""
    phases = set()
    for seed in SEEDS:
        for number, (state, _, _) in enumerate(states(seed)):
            places, cards = range(len(state.places)), state.board.card_ids
            if state.phase in ("setup", "leftover"):  # every placing, the leftovers are few
                phases.add(state.phase)
                for seat in range(len(state.seats)):
                    allowed = allowed_places(state, seat)
                    assert [p for p in places if may_place(state, seat, p)] == allowed
            if number % 7:
                continue
            assert any_empty_zone(state) == bool(empty_zones(state))
            left = unseen(state)
            for card in (*cards, "", "no-such-card"):
                assert is_unseen(state, card) == (card in left), (seed, card)
            for seat in range(len(state.seats)):
                mine = controlled(state, seat)
                assert [p for p in places if controls(state, seat, p)] == mine
                assert zones_held(state, seat) == sum(
                    state.zones[p].owner == seat for p in live_places(state))
            copied = replace(state, places=tuple(list(state.places)))  # not the board's tuple
            for place in state.places:
                assert state.place(place) == copied.place(place) == state.places.index(place)
    assert phases == {"setup", "leftover"}


def test_typed_zones_are_found_as_the_board_finds_them() -> None:
    """:meth:`Cybertron.find` remembers what :meth:`Board.find` says, asked twice or not."""
    board = states(0)[0][0].board
    typed = [*board.places, *(s.title for s in board.board.spaces), "  Kalis ", "nowhere", ""]
    for text in typed * 2:
        assert board.find(text) == board.board.find(text), text


FACES = st.integers(min_value=1, max_value=8)
DICE = st.lists(st.tuples(st.sampled_from((6, 8)), FACES).map(lambda d: Die(*d)), max_size=3)
BONUSES = st.builds(Bonus, each=st.integers(0, 2), one=st.integers(0, 1),
                    at=st.none() | st.integers(0, 2))


@given(attacker=DICE, defender=DICE, attacker_bonus=BONUSES, defender_bonus=BONUSES)
def test_remembered_rolls_settle_as_the_dice_module_does(
        attacker: list[Die], defender: list[Die], attacker_bonus: Bonus,
        defender_bonus: Bonus) -> None:
    """The cached casualties and counted dice are :func:`.dice.settle`'s, however asked."""
    attacker_bonus, defender_bonus = fitted(attacker_bonus, attacker), fitted(defender_bonus,
                                                                              defender)
    found = dice.settle(dice.faces(attacker), dice.faces(defender),
                        attacker_bonus=attacker_bonus, defender_bonus=defender_bonus)
    for _ in range(2):  # computed, then remembered
        assert settled_roll(tuple(attacker), tuple(defender), attacker_bonus,
                            defender_bonus) == (dice.losses(found.winners),
                                                (found.attacker, found.defender))


def fitted(bonus: Bonus, rolled: list[Die]) -> Bonus:
    """``bonus`` placed on one of the ``rolled`` dice, or left to place (as the game checks)."""
    fits = bonus.at is None or bonus.at < len(rolled)
    return bonus if fits else dataclasses.replace(bonus, at=None)


@given(rolled=DICE, sides=st.lists(st.sampled_from((6, 8)), max_size=3))
def test_remembered_dice_checks_refuse_what_dice_problem_refuses(
        rolled: list[Die], sides: list[int]) -> None:
    """:func:`.battle.dice_fit` is true exactly when :func:`.dice.dice_problem` finds
    nothing."""
    for _ in range(2):
        assert dice_fit(tuple(rolled), tuple(sides)) == (
            dice.dice_problem(rolled, sides, "Olga") is None)
