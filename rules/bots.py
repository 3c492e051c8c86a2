"""What every game's random bot shares: drawing weighted candidate actions until one is legal.

A bot proposes ``(weight, seat, event)`` candidates; :func:`first_legal` draws them by weight,
without replacement, and returns the first that ``attempt`` accepts (``attempt`` returns the
event to record, perhaps completed, or raises :class:`~tabletape.rules.kernel.IllegalAction`).

>>> import random
>>> def attempt(seat, event):
...     if event == "bad":
...         raise IllegalAction("no")
...     return event
>>> first_legal([(1.0, 0, "bad"), (1.0, 1, "good")], random.Random(1), attempt)
(1, 'good')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from tabletape.rules.kernel import IllegalAction

Candidate = tuple[float, int, Any]
"""A proposed action: its weight, the seat that would take it, the event."""


def first_legal(candidates: Sequence[Candidate], rng: random.Random,
                attempt: Callable[[int, Any], Any]) -> tuple[int, Any] | None:
    """The first candidate, drawn by weight, that ``attempt`` accepts: ``(seat, event)``."""
    pool = list(candidates)
    while pool:
        picked = rng.choices(range(len(pool)), [candidate[0] for candidate in pool])[0]
        _, seat, event = pool.pop(picked)
        try:
            return seat, attempt(seat, event)
        except IllegalAction:
            continue
    return None
