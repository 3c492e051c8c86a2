"""Is a die fair? The chi-square test, computed without scipy (audit and stats both use it).

>>> round(chi_square_sf(3.841458820694124, 1), 4)
0.05
>>> chi_square_uniform([10, 10, 10, 10, 10, 10])
(0.0, 5, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def regularized_gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function.

    >>> round(regularized_gamma_q(1, 2), 6) == round(math.exp(-2), 6)
    True
    """
    if a <= 0 or x < 0:
        raise ValueError(f"Q(a, x) needs a > 0 and x >= 0, not a={a}, x={x}")
    if x == 0:
        return 1.0
    if x < a + 1:
        return max(0.0, 1.0 - gamma_p_series(a, x))
    return min(1.0, gamma_q_fraction(a, x))


def gamma_prefactor(a: float, x: float) -> float:
    return math.exp(-x + a * math.log(x) - math.lgamma(a))


def gamma_p_series(a: float, x: float) -> float:
    """P(a, x) by its power series (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(10_000):
        n += 1
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-16:
            break
    return total * gamma_prefactor(a, x)


def gamma_q_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction, modified Lentz (converges fast for x >= a + 1)."""
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return h * gamma_prefactor(a, x)


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square distributed with ``df`` degrees of freedom."""
    if df <= 0:
        return 1.0
    return regularized_gamma_q(df / 2, max(statistic, 0.0) / 2)


def chi_square_uniform(counts: Sequence[int]) -> tuple[float, int, float]:
    """``(statistic, df, p)`` of observed face ``counts`` against a fair die."""
    total = sum(counts)
    expected = total / len(counts)
    statistic = sum((observed - expected) ** 2 / expected for observed in counts)
    df = len(counts) - 1
    return statistic, df, chi_square_sf(statistic, df)
