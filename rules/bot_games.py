"""Playing without a table: a game played to its end by each player's bot (tests, the demo,
``simulate``).
"""

from __future__ import annotations

import random
from typing import Any

from tabletape.ledger.events import (
    TABLE,
    Event,
    GameStarted,
    SecretRevealed,
)
from tabletape.rules.fair_dice import chance_rng, completed, drawn_draft
from tabletape.rules.kernel import IllegalAction, Rules


class BotStuck(RuntimeError):
    """The bot produced an action its own rules refuse: a bug in the game module, never a user's."""


def bot_game(
    rules: Rules[Any], started: GameStarted, rng: random.Random, *, max_events: int = 100_000,
    secret: bytes | None = None,
) -> list[tuple[str, Event]]:
    """Let the game's bot play a whole game from ``started``; return the ``(actor, event)`` list.

    Every event is completed, checked and applied exactly as a recorded one would be (by
    ``apply`` alone for rules whose ``apply`` checks, as the fold does). Game-started
    is seq 1 in a log, so the n-th event here gets seq n + 1 and its dice match a ledger replay.
    A game with a commitment draws from ``secret`` by roll index; events that drew are
    :class:`~tabletape.ledger.events.DrawnDraft`\\s (the bot never undoes, so every roll counts),
    and a game that ends is followed by the table's ``secret-revealed``.
    """
    state = rules.start(started)
    played: list[tuple[str, Event]] = []
    seq, rolls = 2, 0
    while rules.result(state) is None:
        if len(played) >= max_events:
            raise BotStuck(f"{rules.name}: no result after {max_events} events")
        choice = rules.bot_action(state, rng)
        if choice is None:
            break
        actor, typed = choice
        draws = chance_rng(started, seq, rolls, secret)
        event = completed(rules, state, actor, typed, draws)
        try:
            if not rules.apply_checks:  # else apply refuses what check does: one step
                rules.check(state, actor, event)
            state = rules.apply(state, actor, event)
        except IllegalAction as error:
            raise BotStuck(f"{rules.name} bot chose {event!r} for {actor}: {error}") from None
        played.append(drawn_draft(actor, typed, event, draws, rolls))
        rolls += 1 if draws.count else 0
        seq += 1
    if secret is not None and started.commitment and rules.result(state) is not None:
        played.append((TABLE, SecretRevealed(secret=secret.hex())))
    return played
