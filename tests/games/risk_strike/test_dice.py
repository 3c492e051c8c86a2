"""The generic dice battle of rules/dice.py, as Risk Strike uses it."""

from __future__ import annotations

import doctest
import random

from hypothesis import given
from hypothesis import strategies as st

import tabletape.rules.dice
from tabletape.rules import dice

FACES = st.lists(st.integers(1, 6), min_size=1, max_size=3)


def test_doctests() -> None:
    """The examples in rules/dice.py run."""
    assert doctest.testmod(tabletape.rules.dice).failed == 0


@given(attack=FACES, defend=st.lists(st.integers(1, 6), min_size=1, max_size=2))
def test_pairs_highest_first_ties_to_the_defender(attack: list[int], defend: list[int]) -> None:
    """Roll Dice: 'line up the dice you rolled from highest to lowest. For each pair of attacking
    and defending dice, the player with the higher die wins. If there's a tie, the defender
    wins.'"""
    winners = dice.compare(attack, defend)
    assert len(winners) == min(len(attack), len(defend))
    for a, d, winner in zip(
        sorted(attack, reverse=True), sorted(defend, reverse=True), winners, strict=False
    ):
        assert winner == ("attacker" if a > d else "defender")
    assert sum(dice.losses(winners)) == len(winners)


def test_bonus_and_a_changed_die_reorder_the_lineup() -> None:
    """Tactics Cards, Bombard: 'change any one die to a 6 ... reorder the dice lineup'; Rally:
    'Add 2 to each die you rolled.'"""
    assert dice.compare((5, 4, 1), (3, 6)) == ("defender", "attacker")  # (3, 2) with 2 -> 6
    assert dice.compare((4, 1), (5, 3), attacker_bonus=2) == ("attacker", "defender")
    assert dice.compare((3,), (3,), ties_to="attacker") == ("attacker",)


def test_dice_count_and_roll() -> None:
    """Roll Dice: 'roll that many ... You can roll a maximum of three' (d8s work the same)."""
    assert [dice.dice_count(n, 3) for n in range(5)] == [0, 1, 2, 3, 3]
    rolled = dice.roll(random.Random(1), 4, sides=8)
    assert len(rolled) == 4 and all(1 <= d <= 8 for d in rolled)
