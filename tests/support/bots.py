"""What every game's bot tests share: playing a seeded prefix of a game, action by action."""

from __future__ import annotations

import itertools
import random
from typing import Any

from tabletape.ledger.events import GameStarted, event_type
from tabletape.rules.fair_dice import dice_rng
from tabletape.rules.kernel import Rules


def bot_prefix(rules: Rules[Any], begun: GameStarted, steps: int) -> Any:
    """The state after ``steps`` bot actions of ``begun``, each listed by ``legal_actions``,
    completed and checked exactly as a recorded action would be."""
    state, rng = rules.start(begun), random.Random(begun.seed)
    for number in range(steps):
        choice = rules.bot_action(state, rng)
        if choice is None:
            break
        actor, event = choice
        allowed = {(spec.type, who) for spec in rules.legal_actions(state) for who in spec.actors}
        assert (event_type(event), actor) in allowed, f"{event!r} by {actor} not listed"
        event = rules.complete(state, actor, event, dice_rng(begun.seed, number + 2))
        rules.check(state, actor, event)
        state = rules.apply(state, actor, event)
    return state


FEW = 5
"""Seeded bot games of each game the default test run plays to the end; the rest of a bot
marathon (hundreds of games) is marked ``slow`` and runs in CI after the default run."""


def seed_chunks(games: int, chunk: int) -> list[Any]:
    """``range(games)`` as ``(first, end)`` parameters: seeds ``0..FEW-1`` in the default run,
    then chunks of ``chunk`` seeds marked ``slow``, so that every seed is still played.

    >>> [(p.values, p.id, [m.name for m in p.marks]) for p in seed_chunks(60, 25)]
    ... # doctest: +NORMALIZE_WHITESPACE
    [((0, 5), 'seeds0-4', []), ((5, 25), 'seeds5-24', ['slow']),
     ((25, 50), 'seeds25-49', ['slow']), ((50, 60), 'seeds50-59', ['slow'])]
    """
    import pytest

    bounds = [0, FEW, *range(chunk, games, chunk), games]
    return [pytest.param(first, end, id=f"seeds{first}-{end - 1}",
                         marks=() if first == 0 else pytest.mark.slow)
            for first, end in itertools.pairwise(bounds)]
