"""Dice battles in the Risk family: pairs compared highest first, ties to the defender.

Generic over the number of sides and dice, with a bonus to each die of one side; game modules add
their own modifiers (Risk Strike's Bombard turns one die to a 6) and decide what a lost pair
costs.

>>> compare((6, 3, 2), (5, 5))
('attacker', 'defender')
>>> compare((4, 1), (5, 3), attacker_bonus=2)
('attacker', 'defender')
>>> losses(compare((6, 3, 2), (5, 5)))
(1, 1)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

Side = Literal["attacker", "defender"]
ATTACKER: Side = "attacker"
DEFENDER: Side = "defender"
BATTLE_SIDES: tuple[Side, Side] = (ATTACKER, DEFENDER)
"""The two sides of a battle, as people type them (``side=attacker``)."""

D6 = 6
"""Faces of the six-sided dice every shipped game rolls."""


def dice_count(units: int, maximum: int) -> int:
    """How many dice a side rolls: one per unit, at most ``maximum``, never below zero.

    >>> dice_count(5, 3), dice_count(1, 2), dice_count(0, 2)
    (3, 1, 0)
    """
    return max(0, min(units, maximum))


def faces_fit(faces: Sequence[int], sides: int = D6) -> bool:
    """Whether every value is a face of a die with ``sides`` faces (1 to ``sides``).

    >>> faces_fit((6, 1)), faces_fit((7,)), faces_fit((8,), sides=8), faces_fit(())
    (True, False, True, True)
    """
    return not faces or (min(faces) >= 1 and max(faces) <= sides)


def roll(rng: random.Random, count: int, sides: int = D6) -> tuple[int, ...]:
    """``count`` dice of ``sides`` faces from ``rng``."""
    return tuple(rng.randint(1, sides) for _ in range(count))


def lined_up(faces: Sequence[int], bonus: int = 0) -> tuple[int, ...]:
    """Dice values with ``bonus`` added to each, highest first (the dice lineup).

    >>> lined_up((2, 6, 3), bonus=2)
    (8, 5, 4)
    """
    return tuple(sorted((face + bonus for face in faces), reverse=True))


def compare(
    attacker: Sequence[int],
    defender: Sequence[int],
    *,
    attacker_bonus: int = 0,
    defender_bonus: int = 0,
    ties_to: Side = DEFENDER,
) -> tuple[Side, ...]:
    """The winner of each contested pair, highest pair first.

    Both lineups are sorted highest first (after bonuses) and paired; extra dice on the longer
    side are not contested. A tie goes to ``ties_to``.
    """
    lineups = lined_up(attacker, attacker_bonus), lined_up(defender, defender_bonus)
    pairs = zip(*lineups, strict=False)  # the longer lineup's extra dice are not contested
    return tuple(pair_winner(a, d, ties_to) for a, d in pairs)


def pair_winner(attacker: int, defender: int, ties_to: Side = DEFENDER) -> Side:
    """Who wins one pair of dice."""
    if attacker == defender:
        return ties_to
    return ATTACKER if attacker > defender else DEFENDER


def losses(winners: Sequence[Side]) -> tuple[int, int]:
    """``(attacker losses, defender losses)``: each side loses one unit per pair it lost."""
    return winners.count(DEFENDER), winners.count(ATTACKER)
