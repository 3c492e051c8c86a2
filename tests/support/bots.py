"""What every game's bot tests share: playing a seeded prefix of a game, action by action."""

from __future__ import annotations

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
