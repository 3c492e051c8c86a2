"""Building Risk: Transformers states for tests: start a game with options."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from msgspec.structs import replace

from tabletape.ledger.events import GameStarted
from tabletape.ledger.store import Ledger
from tabletape.rules.kernel import ActionSpec
from tabletape.rules.risk_transformers.events import Placed
from tabletape.rules.risk_transformers.game import RiskTransformers
from tabletape.rules.risk_transformers.moves import allowed_places
from tabletape.rules.risk_transformers.state import State, invariant_errors, with_seat

GAME = RiskTransformers()
NAMES = ("Olga", "Patrick", "Paula", "Quentin")


def started(players: int, **options: Any) -> State:
    """The state after the game-started event of ``players`` players (seat order = NAMES)."""
    names = NAMES[:players]
    given = GAME.options(options, names)
    return GAME.start(GameStarted(kind=GAME.name, rules_version=GAME.rules_version,
                                  tabletape_version="test", players=names, options=given))


def place_next(state: State) -> tuple[State, int]:
    """The current placer puts a robot on the first place allowed; the state and the seat."""
    seat = state.current
    where = state.places[allowed_places(state, seat)[0]]
    after = GAME.apply(state, state.name(seat), Placed(zone=where))
    assert invariant_errors(after) == []
    return after, seat


def fill(state: State) -> tuple[State, Counter[int]]:
    """Setup 5 until every zone holds a robot; how many robots each seat placed."""
    placed: Counter[int] = Counter()
    while state.phase == "setup":
        state, seat = place_next(state)
        placed[seat] += 1
    return state, placed


def playing(players: int = 2, **options: Any) -> State:
    """The first turn's Phase 1 step B (setup played out, leftovers kept: ``leftover=keep``)."""
    state, _ = fill(started(players, leftover="keep", **options))
    return state


def dealt(state: State, seat: int, *cards: str) -> State:
    """``cards`` from the draw pile into ``seat``'s hand."""
    state = with_seat(state, seat, hand=(*state.seats[seat].hand, *cards))
    return replace(state, pile=state.pile - len(cards))


def recorded_game(ledger: Ledger, players: int = 2, **options: Any) -> str:
    """A new game of ``players`` (seat order = NAMES) created in ``ledger``; its id."""
    names = NAMES[:players]
    begun = GameStarted(kind=GAME.name, rules_version=GAME.rules_version,
                        tabletape_version="test", players=names,
                        options=GAME.options(options, names))
    return ledger.create(begun, prefix=GAME.short)


NAMED = ("zone", "from", "target", "card")
"""Fields naming a zone or a card: the rules always list what they may be."""


def unfillable(actions: Iterable[ActionSpec]) -> list[tuple[str, str]]:
    """The (action, field) pairs offered with a required zone or card field that lists no
    choice: an action no one could record."""
    return [(spec.type, field.name) for spec in actions for field in spec.fields
            if field.name in NAMED and field.required and not field.choices]
