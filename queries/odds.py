"""Exact dice odds and the statistics that compare observed dice with them. Pure, no scipy.

>>> battle_odds(1, 1)
{0: Fraction(5, 12), 1: Fraction(7, 12)}
>>> round(chi_square_p(3.841458820694124, 1), 6)
0.05
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache


@cache
def battle_odds(attacker_dice: int, defender_dice: int, attacker_sides: int = 6,
                defender_sides: int = 6) -> dict[int, Fraction]:
    """Exact distribution of the attacker's losses in one dice battle, by enumeration.

    Both sides' dice are lined up highest first and paired; ties go to the defender; the loser
    of each pair loses one. The attacker loses ``k`` of ``min(a, d)`` contested pairs.

    >>> odds = battle_odds(3, 2)
    >>> [odds[k] * 7776 for k in range(3)]
    [Fraction(2890, 1), Fraction(2611, 1), Fraction(2275, 1)]
    """
    pairs = min(attacker_dice, defender_dice)
    counts: Counter[int] = Counter()
    for attack in itertools.product(range(1, attacker_sides + 1), repeat=attacker_dice):
        top_attack = sorted(attack, reverse=True)[:pairs]
        for defend in itertools.product(range(1, defender_sides + 1), repeat=defender_dice):
            top_defend = sorted(defend, reverse=True)[:pairs]
            counts[sum(a <= d for a, d in zip(top_attack, top_defend, strict=True))] += 1
    total = attacker_sides ** attacker_dice * defender_sides ** defender_dice
    return {losses: Fraction(counts[losses], total) for losses in range(pairs + 1)}


def regularized_gamma_q(s: float, x: float) -> float:
    """Q(s, x) = Γ(s, x) / Γ(s), the upper regularized incomplete gamma function.

    Series for ``x < s + 1``, Lentz's continued fraction otherwise (Numerical Recipes 6.2).

    >>> round(regularized_gamma_q(1.0, 2.0), 12) == round(math.exp(-2.0), 12)
    True
    """
    if x <= 0:
        return 1.0
    log_prefix = s * math.log(x) - x - math.lgamma(s)
    if x < s + 1:
        term = total = 1.0 / s
        denominator = s
        for _ in range(10_000):
            denominator += 1
            term *= x / denominator
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    tiny = 1e-300
    b = x + 1 - s
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - s)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_prefix) * h


def chi_square_p(statistic: float, degrees: int) -> float:
    """P(X >= statistic) for X chi-square distributed with ``degrees`` degrees of freedom."""
    if degrees <= 0:
        return 1.0
    return regularized_gamma_q(degrees / 2, statistic / 2)


def chi_square(observed: Sequence[int], expected: Sequence[float]) -> tuple[float, float]:
    """Pearson's statistic and its p-value for counts against expected counts.

    >>> statistic, p = chi_square([10, 10, 10, 10, 10, 10], [10.0] * 6)
    >>> (statistic, p)
    (0.0, 1.0)
    """
    cells = [(o, e) for o, e in zip(observed, expected, strict=True) if e > 0]
    statistic = sum((o - e) ** 2 / e for o, e in cells)
    return statistic, chi_square_p(statistic, len(cells) - 1)


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
