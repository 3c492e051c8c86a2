"""Mixed dice and modifiers in the shared dice code (issue 14, for Risk: Transformers): a d8 per
leader beside d6s, the typed syntax ``d8:7,3``, rolling mixed sizes from one generator, and a +1
on each die or on one die placed after the roll (spec M6, M7, A14)."""

from __future__ import annotations

import itertools
import random

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletape.ledger.events import Event
from tabletape.replay.fold import action_text
from tabletape.rules import dice, fair_dice
from tabletape.rules.actions import (
    ActionSyntaxError,
    describe_kind,
    event_from,
    kind_of,
    parse_action,
)
from tabletape.rules.dice import Bonus, Die, settle

LEADER = Bonus(one=1)
"""A robot-form leader who rolls: "+1 on any one die"."""
FUSION_CANNONS = Bonus(each=1)
"""Fusion Cannons: "Play before you attack. Add 1 to each die for this attack.\""""


class Fought(Event, tag="fight"):
    """A battle event of the shape a game with mixed dice records."""

    attacker: tuple[Die, ...] = ()
    defender: tuple[int, ...] = ()


def typed(text: str) -> Event:
    return event_from(parse_action(text), {"fight": Fought})


# -- the typed syntax ----------------------------------------------------------------------------


def test_a_leaders_d8_is_typed_beside_bare_d6_faces() -> None:
    """"Leaders always use an 8-sided die when attacking and defending": ``d8:7`` is the
    leader's die, a bare face a robot's d6, as ``attacker=6,3,2`` always meant."""
    event = typed("fight attacker=d8:7,3 defender=6,3,2")
    assert event == Fought(attacker=(Die(8, 7), Die(6, 3)), defender=(6, 3, 2))
    assert typed("fight attacker=6,3,2") == Fought(attacker=(Die(6, 6), Die(6, 3), Die(6, 2)))
    assert typed("fight attacker=D8:1") == Fought(attacker=(Die(8, 1),))


def test_typed_dice_print_back_and_store_as_pairs() -> None:
    event = typed("fight attacker=d8:7,3,d8:8")
    assert action_text(event) == "fight attacker=d8:7,3,d8:8"
    stored = msgspec.json.encode(event)
    assert b'"attacker":[[8,7],[6,3],[8,8]]' in stored
    assert msgspec.json.decode(stored, type=Fought) == event


@pytest.mark.parametrize("value", ["d8:x", "8:7", "d:7", "seven", "d8:"])
def test_a_die_that_is_not_one_is_named_with_the_syntax(value: str) -> None:
    with pytest.raises(ActionSyntaxError) as error:
        typed(f"fight attacker={value}")
    assert str(error.value) == f"bad value for attacker: '{value}' is not a die: {dice.DIE_SYNTAX}"


def test_a_dice_field_describes_its_syntax() -> None:
    assert kind_of(tuple[Die, ...]) == "list[die]"
    assert kind_of(tuple[Die, ...] | None) == "list[die]|none"
    assert kind_of(tuple[int, ...]) == "list[int]"
    assert "d8:7" in describe_kind("list[die]")


# -- checking and rolling ------------------------------------------------------------------------


def test_the_dice_a_side_rolls_are_checked_by_size_and_face() -> None:
    """"Make sure you use the right dice (6-sided for robots/vehicles or 8-sided for your
    leader)": the sizes must be those the side rolls (in any order), each face one of its die."""
    assert dice.dice_problem((Die(6, 3), Die(8, 8)), (8, 6), "Red") is None
    assert dice.dice_problem((Die(6, 3), Die(6, 4)), (8, 6), "Red") == (
        "Red rolls a d8 and a d6, not two d6 (d8:7,3 types a d8 showing 7 and a d6 showing 3)")
    assert dice.dice_problem((Die(8, 3),), (8, 6), "Red") is not None
    assert dice.dice_problem((Die(6, 7), Die(8, 1)), (8, 6), "Red") == (
        "a d6 has no face 7 (its faces are 1 to 6)")
    assert dice.dice_problem((Die(8, 0),), (8,), "Red") == (
        "a d8 has no face 0 (its faces are 1 to 8)")


@given(seed=st.integers(0, 2**32), sides=st.lists(st.sampled_from((6, 8)), max_size=5))
def test_mixed_dice_roll_from_one_generator_in_order(seed: int, sides: list[int]) -> None:
    """Tabletape rolls the dice left empty: one die of each size, deterministic per seed."""
    rolled = dice.roll_mixed(random.Random(seed), sides)
    assert rolled == dice.roll_mixed(random.Random(seed), sides)
    assert [die.sides for die in rolled] == sides
    assert dice.dice_problem(rolled, sides, "olga") is None


@given(seed=st.integers(0, 2**32), count=st.integers(0, 5))
def test_a_roll_of_d6s_draws_what_it_always_drew(seed: int, count: int) -> None:
    """Seeded logs stay byte-identical: rolling d6s as dice gives the faces ``roll`` gives."""
    rolled = dice.roll_mixed(random.Random(seed), (6,) * count)
    assert dice.faces(rolled) == dice.roll(random.Random(seed), count)


@given(seed=st.integers(0, 2**32), seq=st.integers(1, 10**6), count=st.integers(0, 5))
def test_an_auditor_re_derives_tabletapes_dice(seed: int, seq: int, count: int) -> None:
    """The dice tabletape rolls for ``seq`` come from ``dice_rng(seed, seq)``: rolled as mixed
    dice they are those ``fair_dice.roll_dice`` re-derives (d6s and d8s alike)."""
    for sides in (6, 8):
        rolled = dice.roll_mixed(fair_dice.dice_rng(seed, seq), (sides,) * count)
        assert dice.faces(rolled) == fair_dice.roll_dice(seed, seq, count, sides)


# -- modifiers -----------------------------------------------------------------------------------


def test_the_rulebook_battle_example() -> None:
    """Battle Example: "Black rolls three 6-sided dice for the 3 robots. Red rolls a 6-sided die
    for the robot and an 8-sided die for the leader. ... They compare their highest rolls and
    Black wins (6 vs. 4). ... Red uses OPTIMUS PRIME'S +1 defense bonus to increase his roll from
    3 to 4. They now have the same score (4 vs. 4). As the defender wins any ties, Red wins."
    The rulebook prints no third attacking die nor which of Red's dice showed 4: any will do."""
    for third, red in itertools.product((1, 2, 3, 4), ((Die(6, 3), Die(8, 4)),
                                                       (Die(6, 4), Die(8, 3)))):
        settled = settle((6, 4, third), dice.faces(red), defender_bonus=LEADER)
        assert settled.winners == ("attacker", "defender")
        assert sorted(settled.defender) == [4, 4]  # the +1 went on the 3, not on the 4


def test_the_rulebook_example_continued() -> None:
    """"Red defends with the last robot in the zone (OPTIMUS PRIME). They roll... Even with
    OPTIMUS PRIME'S +1 bonus, Black has the higher roll." (faces not printed: 6 against 4)"""
    assert settle((6, 2, 1), (4,), defender_bonus=LEADER).winners == ("attacker",)


def test_the_bonus_goes_on_any_die_and_may_pass_the_highest_face() -> None:
    """"This bonus can be added to any die, not necessarily the leader's" (the d6 here); A14: it
    may exceed the die's highest face (a d8 showing 8 counts 9)."""
    assert settle((8, 3), (6, 3), attacker_bonus=LEADER) == dice.Settled(
        (8, 4), (6, 3), ("attacker", "attacker"))
    assert settle((8,), (8,), attacker_bonus=LEADER) == dice.Settled((9,), (8,), ("attacker",))


def test_fusion_cannons_add_one_to_each_die() -> None:
    """Fusion Cannons: "Add 1 to each die for this attack." Values sort after the bonus."""
    assert settle((5, 2), (6, 2), attacker_bonus=FUSION_CANNONS) == dice.Settled(
        (6, 3), (6, 2), ("defender", "attacker"))
    both = settle((5, 2), (6, 5), attacker_bonus=LEADER + FUSION_CANNONS)
    assert both.attacker == (7, 3) and both.winners == ("attacker", "defender")


def test_a_chosen_die_is_honoured() -> None:
    """The table may say where its leader's +1 went, even where it does not help."""
    settled = settle((6, 3), (4, 3), attacker_bonus=Bonus(one=1, at=0))
    assert settled.attacker == (7, 3) and settled.winners == ("attacker", "defender")


def test_when_both_leaders_roll_the_defender_answers_the_attacker() -> None:
    """Both sides' +1: the attacker places first, the defender answers (the reading; it decides
    only when each side has a tie to break, as here: whichever pair the attacker raises, the
    defender raises the same one)."""
    settled = settle((5, 4), (5, 4), attacker_bonus=LEADER, defender_bonus=LEADER)
    assert settled.winners == ("defender", "defender")
    assert settle((3,), (3,), attacker_bonus=LEADER, defender_bonus=LEADER).winners == (
        "defender",)


@given(attack=st.lists(st.integers(1, 8), max_size=3), defend=st.lists(st.integers(1, 8),
                                                                       max_size=2))
def test_without_bonuses_settle_is_compare(attack: list[int], defend: list[int]) -> None:
    assert settle(attack, defend) == dice.Settled(tuple(attack), tuple(defend),
                                                  dice.compare(attack, defend))


def every_placement(values: tuple[int, ...], bonus: Bonus) -> list[tuple[int, ...]]:
    """All the ways a side's bonus can land, computed here independently of the rules."""
    each = tuple(v + bonus.each for v in values)
    if not bonus.one:
        return [each]
    return [tuple(v + bonus.one * (i == at) for i, v in enumerate(each)) for at in range(len(each))]


def best_for_attacker(attack: tuple[int, ...], defend: tuple[int, ...], attacker_bonus: Bonus,
                      defender_bonus: Bonus) -> int:
    """Pairs the attacker wins when he places first and the defender answers, by enumeration."""
    return max(min(dice.compare(a, d).count("attacker")
                   for d in every_placement(defend, defender_bonus))
               for a in every_placement(attack, attacker_bonus))


@pytest.mark.parametrize(("attacker_bonus", "defender_bonus"), [
    (LEADER, dice.NO_BONUS), (dice.NO_BONUS, LEADER), (LEADER, LEADER),
    (Bonus(each=1, one=1), LEADER), (FUSION_CANNONS, dice.NO_BONUS),
])
@pytest.mark.slow
def test_the_placement_is_the_best_of_every_placement(attacker_bonus: Bonus,
                                                      defender_bonus: Bonus) -> None:
    """Every roll of a d8 and two d6 against a d8 and a d6: where settle puts each +1 wins its
    side as many pairs as the best of every possible placement (the attacker placing first)."""
    for attack in itertools.product(range(1, 9), range(1, 7), range(1, 7)):
        for defend in itertools.product(range(1, 9), range(1, 7)):
            settled = settle(attack, defend, attacker_bonus=attacker_bonus,
                             defender_bonus=defender_bonus)
            assert settled.winners.count("attacker") == best_for_attacker(
                attack, defend, attacker_bonus, defender_bonus)
            assert settled.attacker in every_placement(attack, attacker_bonus)
            assert settled.defender in every_placement(defend, defender_bonus)
