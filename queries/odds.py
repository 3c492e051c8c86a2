"""Exact dice odds and the statistics that compare observed dice with them. Pure, no scipy.

>>> battle_odds(1, 1)
{0: Fraction(5, 12), 1: Fraction(7, 12)}
>>> chi_square([10, 20], [15.0, 15.0])[1] < 0.1
True
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from tabletape.replay.fairness import chi_square_sf
from tabletape.rules.dice import DEFENDER, NO_BONUS, Bonus, settle


@cache
def battle_odds(attacker_dice: int, defender_dice: int, attacker_sides: int = 6,
                defender_sides: int = 6) -> dict[int, Fraction]:
    """Exact distribution of the attacker's losses when each side's dice are all one size.

    >>> odds = battle_odds(3, 2)
    >>> [odds[k] * 7776 for k in range(3)]
    [Fraction(2890, 1), Fraction(2611, 1), Fraction(2275, 1)]
    """
    return dice_odds((attacker_sides,) * attacker_dice, (defender_sides,) * defender_dice)


@cache
def dice_odds(attacker: tuple[int, ...], defender: tuple[int, ...],
              attacker_bonus: Bonus = NO_BONUS,
              defender_bonus: Bonus = NO_BONUS) -> dict[int, Fraction]:
    """Exact distribution of the attacker's losses in one battle of dice of any sizes.

    ``attacker`` and ``defender`` give the sides of each die a side rolls: ``(8, 6)`` is a d8
    and a d6. Each side's :class:`~tabletape.rules.dice.Bonus` is applied as the rules apply it
    (:func:`tabletape.rules.dice.settle`): ``each`` on every die, ``one`` on the die where it
    helps its side most, the attacker placing first and the defender answering. Both lineups
    are sorted highest first and paired; ties go to the defender; the loser of each pair loses
    one. The attacker loses ``k`` of ``min(a, d)`` contested pairs. Every roll is enumerated.

    >>> dice_odds((8,), (6,))  # a d8 beats a d6 in 27 of 48 rolls
    {0: Fraction(9, 16), 1: Fraction(7, 16)}
    >>> dice_odds((6,), (6,), Bonus(one=1))  # a +1 on the attacker's die: wins when a >= d
    {0: Fraction(7, 12), 1: Fraction(5, 12)}
    """
    pairs = min(len(attacker), len(defender))
    attacker_bonus, defender_bonus = map(chosen_anywhere, (attacker_bonus, defender_bonus))
    counts: Counter[int] = Counter()
    defences = lineups(defender, kept(defender, pairs, defender_bonus))
    for attack, ways in lineups(attacker, kept(attacker, pairs, attacker_bonus)).items():
        for defend, other in defences.items():
            counts[attacker_losses(attack, defend, attacker_bonus, defender_bonus)] += ways * other
    total = math.prod(attacker) * math.prod(defender)
    return {losses: Fraction(counts[losses], total) for losses in range(pairs + 1)}


def attacker_losses(attack: tuple[int, ...], defend: tuple[int, ...], attacker_bonus: Bonus,
                    defender_bonus: Bonus) -> int:
    """Pairs the attacker loses in one roll of two lineups (highest first).

    Without bonuses the pairs are compared directly (the report's plain matchups stay as quick
    as before; the same answer as settling them, ties to the defender).

    >>> attacker_losses((6, 3), (5, 3), NO_BONUS, NO_BONUS)
    1
    >>> attacker_losses((6, 3), (5, 3), Bonus(one=1), NO_BONUS)
    0
    """
    if attacker_bonus == defender_bonus == NO_BONUS:
        return sum(a <= d for a, d in zip(attack, defend, strict=False))
    settled = settle(attack, defend, attacker_bonus=attacker_bonus, defender_bonus=defender_bonus)
    return settled.winners.count(DEFENDER)


def chosen_anywhere(bonus: Bonus) -> Bonus:
    """The odds of a one-die bonus are those of the best placement, whatever a roll chose."""
    return Bonus(each=bonus.each, one=bonus.one)


def kept(sides: Sequence[int], pairs: int, bonus: Bonus) -> int:
    """How many of a side's highest dice the odds need: all of them when a one-die bonus may
    land on any, else only the contested ones."""
    return len(sides) if bonus.one else pairs


def lineups(sides: Sequence[int], keep: int) -> Counter[tuple[int, ...]]:
    """How many rolls of dice of ``sides`` give each lineup of their ``keep`` highest faces.

    >>> lineups((6, 6), 1)[(6,)]  # the higher of two d6 is a 6 in 11 of 36 rolls
    11
    """
    return Counter(tuple(sorted(roll, reverse=True)[:keep])
                   for roll in itertools.product(*(range(1, n + 1) for n in sides)))


def chi_square(observed: Sequence[int], expected: Sequence[float]) -> tuple[float, float]:
    """Pearson's statistic and its p-value for counts against expected counts.

    >>> statistic, p = chi_square([10, 10, 10, 10, 10, 10], [10.0] * 6)
    >>> (statistic, p)
    (0.0, 1.0)
    """
    cells = [(o, e) for o, e in zip(observed, expected, strict=True) if e > 0]
    statistic = sum((o - e) ** 2 / e for o, e in cells)
    return statistic, chi_square_sf(statistic, len(cells) - 1)


def face_test(faces: Sequence[int] | Counter[int], sides: int) -> tuple[float, float]:
    """Chi-square statistic and p-value of fair ``sides``-sided dice showing ``faces``."""
    counts = faces if isinstance(faces, Counter) else Counter(faces)
    n = sum(counts.values())
    return chi_square([counts.get(face, 0) for face in range(1, sides + 1)],
                      [n / sides] * sides)


def z_score(observed: int, n: int, p: float) -> float:
    """(observed - n p) / sqrt(n p (1 - p)); 0 when the variance is 0."""
    variance = n * p * (1 - p)
    return (observed - n * p) / math.sqrt(variance) if variance > 0 else 0.0
