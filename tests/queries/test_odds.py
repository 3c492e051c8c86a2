"""Exact battle odds by enumeration, and the chi-square p-values computed without scipy."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from tabletape.queries.odds import battle_odds, chi_square, dice_odds, face_test
from tabletape.replay.fairness import chi_square_sf as chi_square_p
from tabletape.replay.fairness import regularized_gamma_q
from tabletape.rules import dice


def test_three_against_two_d6_known_values() -> None:
    assert battle_odds(3, 2) == {0: Fraction(2890, 7776), 1: Fraction(2611, 7776),
                                 2: Fraction(2275, 7776)}


def test_one_against_one_attacker_wins_15_of_36() -> None:
    assert battle_odds(1, 1)[0] == Fraction(15, 36)


@pytest.mark.parametrize(("a", "d", "sa", "sd"), [
    (a, d, sa, sd) for a in (1, 2, 3) for d in (1, 2) for sa, sd in ((6, 6), (8, 6), (6, 8),
                                                                      (8, 8))])
def test_odds_agree_with_the_rules_dice_and_sum_to_one(a: int, d: int, sa: int, sd: int) -> None:
    """Every roll compared by tabletape.rules.dice (the rules' own lineup and ties to the
    defender)."""
    counts = [0] * (min(a, d) + 1)
    for attack in itertools.product(range(1, sa + 1), repeat=a):
        for defend in itertools.product(range(1, sd + 1), repeat=d):
            counts[dice.losses(dice.compare(attack, defend))[0]] += 1
    total = sa ** a * sd ** d
    odds = battle_odds(a, d, sa, sd)
    assert odds == {k: Fraction(n, total) for k, n in enumerate(counts)}
    assert sum(odds.values()) == 1


def test_a_d8_and_a_d6_against_one_d6_by_hand() -> None:
    """The higher of a d8 and a d6 is at most m (m <= 6) in m/8 * m/6 of rolls, so the defender's
    d6 showing z wins (ties to the defender) in z^2/48 of them: sum(z^2)/288 = 91/288."""
    assert dice_odds((8, 6), (6,)) == {0: Fraction(197, 288), 1: Fraction(91, 288)}
    assert dice_odds((8,), (6,)) == {0: Fraction(27, 48), 1: Fraction(21, 48)}


@pytest.mark.parametrize(("attacker", "defender"), [
    ((8, 6), (6, 6)), ((8, 6, 6), (6, 6)), ((6, 8), (6,)), ((6,), (8, 6)), ((8, 8, 6), (8, 6)),
])
def test_mixed_dice_odds_agree_with_the_rules_dice(attacker: tuple[int, ...],
                                                   defender: tuple[int, ...]) -> None:
    """Every roll of dice of mixed sizes compared by tabletape.rules.dice."""
    counts = [0] * (min(len(attacker), len(defender)) + 1)
    for attack in itertools.product(*(range(1, n + 1) for n in attacker)):
        for defend in itertools.product(*(range(1, n + 1) for n in defender)):
            counts[dice.losses(dice.compare(attack, defend))[0]] += 1
    total = math.prod(attacker) * math.prod(defender)
    odds = dice_odds(attacker, defender)
    assert odds == {k: Fraction(n, total) for k, n in enumerate(counts)}
    assert sum(odds.values()) == 1


def test_dice_of_one_size_give_the_old_answers() -> None:
    for a, d, sa, sd in ((3, 2, 6, 6), (1, 1, 8, 6), (2, 2, 6, 8)):
        assert dice_odds((sa,) * a, (sd,) * d) == battle_odds(a, d, sa, sd)


@pytest.mark.parametrize(("statistic", "degrees", "p"), [
    (3.841458820694124, 1, 0.05),
    (11.070497693516351, 5, 0.05),
    (23.209251158954356, 10, 0.01),
    (0.1148318, 3, 0.99),
    (1.0, 2, math.exp(-0.5)),
    (200.0, 7, 7.8e-40),
])
def test_chi_square_p_values(statistic: float, degrees: int, p: float) -> None:
    assert chi_square_p(statistic, degrees) == pytest.approx(p, rel=1e-4)


def test_regularized_gamma_edges() -> None:
    assert regularized_gamma_q(2.5, 0.0) == 1.0
    for x in (1e-12, 0.3, 1.4, 9.0, 40.0):
        assert regularized_gamma_q(0.5, x) == pytest.approx(math.erfc(math.sqrt(x)), rel=1e-9)
    assert chi_square_p(5.0, 0) == 1.0


def test_face_test_flags_a_loaded_die() -> None:
    _, fair = face_test([1, 2, 3, 4, 5, 6] * 50, 6)
    _, loaded = face_test([6] * 150 + [1, 2, 3, 4, 5] * 30, 6)
    assert fair == pytest.approx(1.0) and loaded < 1e-20
    assert chi_square([5, 15], [10.0, 10.0])[0] == 5.0
