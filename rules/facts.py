"""Game data with provenance: each value a game ships carries a mark saying where it comes from.

Marks (see ``shared/research/game-data.md``): **R** printed in the rulebook, **V** an official
source, **C** fan transcriptions agree, **S** one source, **D** sources disagree, **I** our
inference (a default a table may override in the game's options), **NF** not found.

>>> ATTACK_DICE = Fact(3, "R", "Risk Strike rulebook, Battle")
>>> ATTACK_DICE.value, ATTACK_DICE.mark
(3, 'R')
>>> Fact(4, "I").source
''
"""

from __future__ import annotations

from typing import Any, NamedTuple

MARKS = ("R", "V", "C", "S", "D", "I", "NF")
"""Every provenance mark, from the most to the least certain."""


class Fact(NamedTuple):
    """A value and where it comes from."""

    value: Any
    mark: str
    """One of :data:`MARKS`."""
    source: str = ""
    """Where it is printed or how we reached it, in words."""


MARK_WORDS = {
    "R": "printed in the rulebook",
    "V": "from an official source",
    "C": "fan transcriptions agree",
    "S": "from one source only",
    "D": "sources disagree",
    "I": "our inference: a default a table may override in the game's options",
    "NF": "not found in any source",
}
"""What each of :data:`MARKS` means, in words for people (pages, reports)."""
