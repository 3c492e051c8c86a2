"""Seeded bot games to a legal end for each villain, every card and token accounted for."""

from __future__ import annotations

import random

import pytest

from tabletape.ledger.events import event_type
from tabletape.rules.bot_games import bot_game
from tabletape.rules.fair_dice import dice_rng
from tabletape.rules.marvel_united import RULES
from tabletape.rules.marvel_united.state import invariant_errors
from tests.support.bots import seed_chunks

from .helpers import started

NAMES = ("Olga", "Patrick", "Quinn", "Rosa")
VILLAINS = ("red-skull", "ultron", "taskmaster")
GAMES, CHUNK = 300, 50


def players_for(seed: int) -> tuple[str, ...]:
    return NAMES[: 2 + seed % 3]


def replay_checked(villain: str, seed: int) -> str:
    """One bot game to a result, replayed with the invariants after every event."""
    begun = started(players_for(seed), seed=seed, villain=villain)
    played = bot_game(RULES, begun, random.Random(seed))
    state = RULES.start(begun)
    for number, (actor, event) in enumerate(played, start=1):
        state = RULES.apply(state, actor, event)
        errors = invariant_errors(state)
        assert not errors, f"{villain} seed {seed}, event {number} {event!r}: {errors}"
    result = RULES.result(state)
    assert result is not None, f"{villain} seed {seed}: no result"
    if result.team == "heroes":
        assert result.winners == players_for(seed) and state.health == 0
    else:
        assert result.team == "villain" and result.winners == ()
    return result.reason


@pytest.mark.parametrize("villain", VILLAINS)
@pytest.mark.parametrize(("first", "end"), seed_chunks(GAMES, CHUNK))
def test_bot_games_end_legally(villain: str, first: int, end: int) -> None:
    """Winning & Losing: every seeded bot game ends in a win or a loss, and after each event
    every hero card, Masterplan card, Threat and token is accounted for, health never negative."""
    for seed in range(first, end):
        replay_checked(villain, seed)


def test_bot_games_are_deterministic() -> None:
    begun = started(NAMES[:3], seed=7, villain="ultron")
    assert bot_game(RULES, begun, random.Random(7)) == bot_game(RULES, begun, random.Random(7))


@pytest.mark.parametrize("villain", VILLAINS)
def test_bot_actions_are_listed_by_legal_actions(villain: str) -> None:
    """The bot only takes actions ``legal_actions`` lists, for the actor it lists."""
    begun = started(NAMES[:2], seed=3, villain=villain)
    state, rng = RULES.start(begun), random.Random(3)
    for number in range(400):
        choice = RULES.bot_action(state, rng)
        if choice is None:
            break
        actor, event = choice
        allowed = {(spec.type, who) for spec in RULES.legal_actions(state) for who in spec.actors}
        assert (event_type(event), actor) in allowed, f"{event!r} by {actor} not listed"
        event = RULES.complete(state, actor, event, dice_rng(3, number + 2))
        state = RULES.apply(state, actor, event)
