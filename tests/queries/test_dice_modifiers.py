"""Exact odds with dice modifiers (issue 14): a +1 on each die of a side (Fusion Cannons) and a
robot-form leader's +1 on one die placed after the roll, by hand and by brute force; and the
catalog's ``dice`` and ``battles`` rows of a synthetic mixed roll holding both."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import duckdb
import pytest

from tabletape.queries.odds import battle_odds, dice_odds
from tabletape.queries.projections import (
    BATTLES,
    DICE,
    battle_dice,
    settled_battle_dice,
    side_dice_rows,
)
from tabletape.rules import dice
from tabletape.rules.dice import NO_BONUS, Bonus, Die

LEADER = Bonus(one=1)
"""Robot form: "OPTIMUS PRIME and BARRICADE add +1 to any die when defending. BUMBLEBEE and
MEGATRON add +1 to any die when attacking.\""""
FUSION_CANNONS = Bonus(each=1)
"""Fusion Cannons: "Add 1 to each die for this attack.\""""


def test_a_leaders_plus_one_by_hand() -> None:
    """One d6 each. The attacker's +1 wins when a >= d: 21 of 36 rolls. The defender's +1: the
    attacker needs a >= d + 2: 4 + 3 + 2 + 1 = 10 of 36. A d8 with +1 against a d6 wins when
    a >= d: sum over d of (9 - d) = 33 of 48. Both sides' +1 on one pair cancel: 15 of 36."""
    assert dice_odds((6,), (6,), LEADER) == {0: Fraction(21, 36), 1: Fraction(15, 36)}
    assert dice_odds((6,), (6,), NO_BONUS, LEADER) == {0: Fraction(10, 36), 1: Fraction(26, 36)}
    assert dice_odds((8,), (6,), LEADER) == {0: Fraction(33, 48), 1: Fraction(15, 48)}
    assert dice_odds((6,), (6,), LEADER, LEADER) == battle_odds(1, 1)


def test_a_plus_one_on_each_die_by_hand() -> None:
    """Fusion Cannons on two d6 against one d6: the higher attacking die is at most m in m^2/36
    rolls, and it loses to a defender's z when max + 1 <= z: sum over z of (z - 1)^2 / 216 =
    (0 + 1 + 4 + 9 + 16 + 25) / 216 = 55/216."""
    assert dice_odds((6, 6), (6,), FUSION_CANNONS) == {0: Fraction(161, 216),
                                                       1: Fraction(55, 216)}


def test_the_plus_one_goes_where_it_turns_a_pair() -> None:
    """Two d6 each, the attacker's +1 on one die: it turns a pair exactly when the attacker's
    die ties the defender's, so the placement matters only on rolls with a tied pair; the odds
    are strictly better than both "always on the highest" and no bonus at all."""
    best = dice_odds((6, 6), (6, 6), LEADER)
    plain = dice_odds((6, 6), (6, 6))
    on_highest = brute_force((6, 6), (6, 6), lambda a, d: dice.compare(
        (max(a) + 1, min(a)), d).count("defender"))
    assert best[0] > on_highest[0] > plain[0]
    assert best[2] < on_highest[2] <= plain[2]


Losses = Callable[[tuple[int, ...], tuple[int, ...]], int]


def brute_force(attacker: tuple[int, ...], defender: tuple[int, ...],
                losses: Losses) -> dict[int, Fraction]:
    """The odds of every roll, one by one, with ``losses(attack, defend)`` per roll."""
    counts = [0] * (min(len(attacker), len(defender)) + 1)
    for attack in itertools.product(*(range(1, n + 1) for n in attacker)):
        for defend in itertools.product(*(range(1, n + 1) for n in defender)):
            counts[losses(attack, defend)] += 1
    total = math.prod(attacker) * math.prod(defender)
    return {k: Fraction(n, total) for k, n in enumerate(counts)}


def every_placement(values: tuple[int, ...], bonus: Bonus) -> list[tuple[int, ...]]:
    each = tuple(v + bonus.each for v in values)
    if not bonus.one:
        return [each]
    return [tuple(v + bonus.one * (i == at) for i, v in enumerate(each)) for at in range(len(each))]


@pytest.mark.parametrize(("attacker", "defender", "attacker_bonus", "defender_bonus"), [
    ((8, 6, 6), (6, 6), LEADER, NO_BONUS),
    ((6, 6, 6), (8, 6), NO_BONUS, LEADER),
    ((8, 6, 6), (8, 6), LEADER, LEADER),
    ((8, 6), (8,), Bonus(each=1, one=1), NO_BONUS),
    ((6, 6, 6), (6, 6), FUSION_CANNONS, NO_BONUS),
    ((8,), (6, 6), LEADER, NO_BONUS),
    ((6, 6), (8, 6), FUSION_CANNONS, LEADER),
])
def test_odds_with_modifiers_match_every_placement_of_every_roll(
        attacker: tuple[int, ...], defender: tuple[int, ...], attacker_bonus: Bonus,
        defender_bonus: Bonus) -> None:
    """Brute force independent of ``settle``: every roll, every placement of each +1 (the
    attacker's best against the defender's best answer), compared by ``dice.compare``."""

    def losses(attack: tuple[int, ...], defend: tuple[int, ...]) -> int:
        return min(max(dice.compare(a, d).count("defender")
                       for d in every_placement(defend, defender_bonus))
                   for a in every_placement(attack, attacker_bonus))

    odds = dice_odds(attacker, defender, attacker_bonus, defender_bonus)
    assert odds == brute_force(attacker, defender, losses)
    assert sum(odds.values()) == 1


def test_a_chosen_die_does_not_change_the_odds() -> None:
    """Odds are of the best placement: where one roll's +1 went (``at``) is not part of them."""
    assert dice_odds((8, 6), (6,), Bonus(one=1, at=1)) == dice_odds((8, 6), (6,), LEADER)


def test_the_catalog_holds_a_mixed_roll_with_both_modifiers() -> None:
    """Megatron (d8, robot form, +1 on one die) and two robots attack with Fusion Cannons (+1
    each die) against Optimus (d8, robot form, +1 when defending) and a robot: the ``dice`` and
    ``battles`` rows keep each die's sides and what the modifiers did to it."""
    attack, defend = (Die(8, 5), Die(6, 3), Die(6, 1)), (Die(8, 6), Die(6, 3))
    settled = dice.settle(dice.faces(attack), dice.faces(defend),
                          attacker_bonus=Bonus(each=1, one=1), defender_bonus=LEADER)
    # attacker 6, 4, 2 after the cannons; the +1 makes the 6 a 7 against the 6 (the 4 already
    # beats the 3); Optimus answers on his 6 (7 v 7: the tie is the defender's).
    assert settled == dice.Settled((7, 4, 2), (7, 3), ("defender", "attacker"))
    con = duckdb.connect()
    con.execute(DICE.ddl())
    con.execute(BATTLES.ddl())
    rows = (side_dice_rows(9, 4, "olga", "attacker", attack, settled.attacker)
            + side_dice_rows(9, 4, "patrick", "defender", defend, settled.defender))
    insert(con, DICE.stored, [("tf-1", *row) for row in rows])
    battle = settled_battle_dice(attack, defend, settled)
    assert battle == battle_dice((5, 3, 1), (6, 3), attacker_sides=(8, 6, 6),
                                 defender_sides=(8, 6), attacker_values=(7, 4, 2),
                                 defender_values=(7, 3))
    insert(con, BATTLES.stored, [("tf-1", 1, 9, 4, "olga", "patrick", "iacon", "kaon", *battle,
                                  True, *dice.losses(settled.winners))])
    assert con.sql(f"SELECT sides, face, value, modifier FROM {DICE.stored} ORDER BY role, die"
                   ).fetchall() == [(8, 5, 7, 2), (6, 3, 4, 1), (6, 1, 2, 1), (8, 6, 7, 1),
                                    (6, 3, 3, 0)]
    assert con.sql("SELECT attacker_sides, defender_sides, attacker_die_sides, "
                   "attacker_modifiers, defender_modifiers, attacker_losses, defender_losses "
                   f"FROM {BATTLES.stored}").fetchall() == [
                       (None, None, [8, 6, 6], [2, 1, 1], [1, 0], 1, 1)]


def insert(con: duckdb.DuckDBPyConnection, table: str, rows: Sequence[Sequence[Any]]) -> None:
    marks = ", ".join("?" * len(rows[0]))
    con.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
