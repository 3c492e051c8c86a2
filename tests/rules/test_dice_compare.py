"""Issue 17, the fold's generic path: the faster dice comparison still pairs dice as the rules
say ("compare the highest die of each side, then the next; ties go to the defender")."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tabletape.rules import dice

DICE = st.lists(st.integers(1, 8), max_size=4)
SIDES = st.sampled_from(dice.BATTLE_SIDES)


@given(attack=DICE, defend=DICE, attacker_bonus=st.integers(0, 2),
       defender_bonus=st.integers(0, 2), ties_to=SIDES)
def test_compare_pairs_the_highest_dice_first(attack: list[int], defend: list[int],
                                              attacker_bonus: int, defender_bonus: int,
                                              ties_to: dice.Side) -> None:
    """Each pair, highest first after the bonuses, is won as :func:`dice.pair_winner` says; the
    longer side's extra dice are not contested."""
    ours = sorted((face + attacker_bonus for face in attack), reverse=True)
    theirs = sorted((face + defender_bonus for face in defend), reverse=True)
    expected = tuple(dice.pair_winner(a, d, ties_to) for a, d in zip(ours, theirs, strict=False))
    assert dice.compare(attack, defend, attacker_bonus=attacker_bonus,
                        defender_bonus=defender_bonus, ties_to=ties_to) == expected


@given(values=DICE, amount=st.integers(0, 2), at=st.none() | st.integers(0, 3))
def test_raised_adds_to_every_die_or_the_one_named(values: list[int], amount: int,
                                                    at: int | None) -> None:
    raised = dice.raised(values, amount, at=at)
    assert isinstance(raised, tuple) and len(raised) == len(values)
    for index, (before, after) in enumerate(zip(values, raised, strict=True)):
        assert after == before + (amount if at is None or index == at else 0)


@given(attack=DICE, defend=DICE, one=st.integers(0, 1), each=st.integers(0, 1))
def test_settle_with_one_bonus_placed_by_the_player_is_that_placement(
        attack: list[int], defend: list[int], one: int, each: int) -> None:
    """A +1 the player placed (``at``) is where it goes, whoever else has a bonus."""
    at = 0 if attack else None
    bonus = dice.Bonus(each=each, one=one, at=at)
    settled = dice.settle(attack, defend, attacker_bonus=bonus)
    expected = dice.raised(dice.raised(attack, each), one, at=at) if one and attack else \
        dice.raised(attack, each)
    assert settled.attacker == expected
    assert settled.defender == tuple(defend)
    assert settled.winners == dice.compare(expected, defend)
