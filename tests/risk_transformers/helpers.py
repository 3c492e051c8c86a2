"""Building Risk: Transformers states for tests: start a game with options."""

from __future__ import annotations

from typing import Any

from tabletape.ledger.events import GameStarted
from tabletape.rules.risk_transformers.game import RiskTransformers
from tabletape.rules.risk_transformers.state import State

GAME = RiskTransformers()
NAMES = ("Olga", "Patrick", "Paula", "Quentin")


def started(players: int, **options: Any) -> State:
    """The state after the game-started event of ``players`` players (seat order = NAMES)."""
    names = NAMES[:players]
    given = GAME.options(options, names)
    return GAME.start(GameStarted(kind=GAME.name, rules_version=GAME.rules_version,
                                  tabletape_version="test", players=names, options=given))
