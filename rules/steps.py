"""The step dispatcher and the refusals every game's steps share.

A game's ``moves.py`` maps each of its event types to a step function ``(state, actor, event)
-> state`` in a :class:`Steps` table; an event of another type is refused with the action as
people type it. Actors are seats (:data:`~tabletape.rules.seats.NOBODY` for the table); a state
names a seat with ``state.name(seat)``.

>>> from tabletape.ledger.events import Noted
>>> Steps("Risk Strike", {}).find(Noted(text="hi"))
Traceback (most recent call last):
...
tabletape.rules.kernel.IllegalAction: 'note' is not a Risk Strike action.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, NoReturn, Protocol, TypeVar

from tabletape.ledger.events import TABLE, Event, event_type
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.seats import NOBODY

S = TypeVar("S")
T = TypeVar("T")
Step = Callable[[S, int, Any], S]
"""A game's step for one event type: the state after the actor's event, or a refusal."""


class Named(Protocol):
    """A state that names its seats (every game's state does)."""

    def name(self, seat: int) -> str: ...


class Phased(Protocol):
    """A state with a phase in table words."""

    @property
    def phase(self) -> str: ...


class Steps(Generic[S]):
    """The step function of each event type of one game."""

    def __init__(self, title: str, steps: Mapping[type[Event], Step[S]]) -> None:
        self.title = title
        """The game's title, for the refusal of another game's action."""
        self.steps = dict(steps)

    def find(self, event: Event) -> Step[S]:
        """The step for ``event``; refused, named as people type it, when the game has none."""
        step = self.steps.get(type(event))
        if step is None:
            refuse(f"'{event_type(event)}' is not a {self.title} action")
        return step


def refuse(reason: str, allowed: Sequence[str] = (), rule: str = "") -> NoReturn:
    """Raise :class:`~tabletape.rules.kernel.IllegalAction`: ``reason`` in table words, what is
    allowed instead, and where the rulebook says so."""
    raise IllegalAction(reason, allowed=allowed, rule=rule)


def require_table(state: Named, actor: int, what: str) -> None:
    """Refuse unless the table (not a player) records ``what``.

    >>> class Seats:
    ...     def name(self, seat: int) -> str: return ("Olga", "Patrick")[seat]
    >>> require_table(Seats(), 1, "the deal")
    Traceback (most recent call last):
    ...
    tabletape.rules.kernel.IllegalAction: the table records the deal, not Patrick. Allowed: table.
    """
    if actor != NOBODY:
        refuse(f"the table records {what}, not {state.name(actor)}", [TABLE])


def require_phase(state: Phased, phase: str, reason: str | Callable[[], str]) -> None:
    """Refuse with ``reason`` (a callable is asked only then) unless the game is in ``phase``."""
    if state.phase != phase:
        refuse(reason if isinstance(reason, str) else reason())


def require_turn(state: Named, actor: int, current: int, what: str) -> int:
    """Refuse unless ``actor`` is ``current``, the player whose turn it is; return the seat."""
    if actor != current:
        name = state.name(current)
        refuse(f"it is {name}'s turn: only {name} may {what}")
    return actor


def put(values: Sequence[T], index: int, value: T) -> tuple[T, ...]:
    """``values`` with ``values[index]`` replaced: the copy-on-write every game's state uses.

    >>> put((1, 2, 3), 1, 9)
    (1, 9, 3)
    """
    changed = list(values)
    changed[index] = value
    return tuple(changed)
