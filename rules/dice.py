"""Dice battles in the Risk family: pairs compared highest first, ties to the defender.

Generic over the number of sides and dice, with a bonus to each die of one side; game modules add
their own modifiers (Risk Strike's Bombard turns one die to a 6) and decide what a lost pair
costs. A side may roll dice of different sizes (:class:`Die`: a leader's d8 beside d6s, typed
``d8:7,3``) and carry a :class:`Bonus`: a number added to each die (a card's "+1 to each die")
and one placed on a single die after the roll (a leader's "+1 on any one die"); :func:`settle`
places it and compares.

>>> compare((6, 3, 2), (5, 5))
('attacker', 'defender')
>>> compare((4, 1), (5, 3), attacker_bonus=2)
('attacker', 'defender')
>>> losses(compare((6, 3, 2), (5, 5)))
(1, 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import msgspec

Side = Literal["attacker", "defender"]
ATTACKER: Side = "attacker"
DEFENDER: Side = "defender"
BATTLE_SIDES: tuple[Side, Side] = (ATTACKER, DEFENDER)
"""The two sides of a battle, as people type them (``side=attacker``)."""

D6 = 6
"""Faces of the six-sided dice every shipped game rolls."""

Values = tuple[int, ...]
"""One side's dice values (faces, or faces after modifiers), in the order rolled."""


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
    return tuple(sorted([face + bonus for face in faces] if bonus else faces, reverse=True))


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
    # pair_winner of each pair, inline: every roll of every fold is compared
    pairs = zip(lined_up(attacker, attacker_bonus), lined_up(defender, defender_bonus),
                strict=False)  # the longer lineup's extra dice are not contested
    return tuple([ties_to if a == d else ATTACKER if a > d else DEFENDER for a, d in pairs])


def pair_winner(attacker: int, defender: int, ties_to: Side = DEFENDER) -> Side:
    """Who wins one pair of dice."""
    if attacker == defender:
        return ties_to
    return ATTACKER if attacker > defender else DEFENDER


def losses(winners: Sequence[Side]) -> tuple[int, int]:
    """``(attacker losses, defender losses)``: each side loses one unit per pair it lost."""
    return winners.count(DEFENDER), winners.count(ATTACKER)


# -- dice of mixed sizes -------------------------------------------------------------------------


class Die(msgspec.Struct, frozen=True, array_like=True):
    """One die as it landed: its ``sides`` and its ``face``; stored as ``[sides, face]``.

    Typed as the bare face for a d6 (``6``) and ``dN:FACE`` for any other size (``d8:7``), so
    ``attacker=6,3,2`` keeps meaning three d6 and ``attacker=d8:7,3`` is a d8 and a d6.

    >>> Die.parse("d8:7"), Die.parse("3"), str(Die(8, 7)), str(Die(6, 3))
    (Die(sides=8, face=7), Die(sides=6, face=3), 'd8:7', '3')
    """

    sides: int
    face: int

    def __str__(self) -> str:
        return str(self.face) if self.sides == D6 else f"d{self.sides}:{self.face}"

    @classmethod
    def parse(cls, text: str) -> Die:
        """The die typed as ``text``; :class:`ValueError` names the syntax when it is not one."""
        size, sep, face = text.strip().lower().rpartition(":")
        try:
            sides = int(size.removeprefix("d")) if sep else D6
            if sep and not size.startswith("d"):
                raise ValueError(size)
            return cls(sides, int(face))
        except ValueError:
            raise ValueError(f"'{text}' is not a die: {DIE_SYNTAX}") from None


DIE_SYNTAX = "type a d6 as its face (5) and another die as dSIDES:FACE (d8:7), e.g. d8:7,3,2"
"""How a person types dice of mixed sizes, for messages and usage lines."""


def faces(dice: Iterable[Die]) -> Values:
    """The faces of ``dice``, in order.

    >>> faces((Die(8, 7), Die(6, 3)))
    (7, 3)
    """
    return tuple(die.face for die in dice)


def roll_mixed(rng: random.Random, sides: Sequence[int]) -> tuple[Die, ...]:
    """One die of each size in ``sides``, rolled in that order from ``rng``.

    A roll of d6s only draws exactly what :func:`roll` draws, so the same seed gives the same
    faces whichever way a game asks.

    >>> [d.face for d in roll_mixed(random.Random(3), (6, 6))] == list(roll(random.Random(3), 2))
    True
    """
    return tuple(Die(n, rng.randint(1, n)) for n in sides)


def dice_problem(dice: Sequence[Die], sides: Sequence[int], who: str) -> str | None:
    """Why ``dice`` are not what ``who`` rolls with dice of ``sides`` (any order), or None.

    >>> dice_problem((Die(8, 7), Die(6, 3)), (6, 8), "Red") is None
    True
    >>> dice_problem((Die(6, 7), Die(6, 3)), (8, 6), "Red")
    'Red rolls a d8 and a d6, not two d6 (d8:7,3 types a d8 showing 7 and a d6 showing 3)'
    >>> dice_problem((Die(8, 9),), (8,), "Red")
    'a d8 has no face 9 (its faces are 1 to 8)'
    """
    if sorted(die.sides for die in dice) != sorted(sides):
        return (f"{who} rolls {dice_words(sides)}, not {dice_words([d.sides for d in dice])} "
                f"(d8:7,3 types a d8 showing 7 and a d6 showing 3)")
    wrong = next((die for die in dice if not faces_fit((die.face,), die.sides)), None)
    if wrong is not None:
        return (f"a d{wrong.sides} has no face {wrong.face} "
                f"(its faces are 1 to {wrong.sides})")
    return None


def dice_words(sides: Sequence[int]) -> str:
    """``a d8 and two d6``: dice sizes in table words, largest first.

    >>> dice_words((6, 8, 6)), dice_words(()), dice_words((6,) * 5)
    ('a d8 and two d6', 'no dice', '5 d6')
    """
    counts = {n: list(sides).count(n) for n in sorted(set(sides), reverse=True)}
    words = [f"{COUNT_WORDS.get(k, str(k))} d{n}" for n, k in counts.items()]
    return " and ".join(words) if words else "no dice"


COUNT_WORDS = {1: "a", 2: "two", 3: "three"}


# -- modifiers: a bonus to each die, and one placed on a single die after the roll ---------------


@dataclass(frozen=True)
class Bonus:
    """What one side adds to its dice: ``each`` to every die, ``one`` to a single die.

    ``each`` is a card's "Add 1 to each die for this attack"; ``one`` is a robot-form leader's
    "+1 on any one die", placed after the roll on one of the side's own dice (it may exceed the
    die's highest face). ``at`` is the position (in the roll as recorded) the player chose for
    ``one`` (the game checks it names one of the side's dice); None lets :func:`settle` place it
    where it helps most.
    """

    each: int = 0
    one: int = 0
    at: int | None = None

    def __add__(self, other: Bonus) -> Bonus:
        """Both bonuses at once (a leader's +1 on one die and a card's +1 on each). Two
        one-die bonuses would add up on one die; no side rolls with two leaders.

        >>> Bonus(one=1) + Bonus(each=1)
        Bonus(each=1, one=1, at=None)
        """
        at = self.at if self.at is not None else other.at
        return Bonus(self.each + other.each, self.one + other.one, at)


NO_BONUS = Bonus()


@dataclass(frozen=True)
class Settled:
    """A settled roll: each die's value after modifiers (in the order rolled) and the winners."""

    attacker: Values
    defender: Values
    winners: tuple[Side, ...]


def settle(attacker: Sequence[int], defender: Sequence[int], *,
           attacker_bonus: Bonus = NO_BONUS, defender_bonus: Bonus = NO_BONUS) -> Settled:
    """Apply both sides' bonuses, then compare highest first (ties to the defender).

    A ``one`` bonus nobody placed goes where it wins its side the most pairs: the attacker
    places first, then the defender answers knowing where the attacker's went (it matters only
    when both sides have one). Among equally good dice the higher die, then the first rolled.

    Rulebook, Battle Example: Red's leader adds +1 to the 3, not the 4 that loses to a 6 anyway.

    >>> settle((6, 4, 1), (4, 3), defender_bonus=Bonus(one=1))
    Settled(attacker=(6, 4, 1), defender=(4, 4), winners=('attacker', 'defender'))
    >>> settle((1, 2), (2,), attacker_bonus=Bonus(each=1)).attacker
    (2, 3)
    """
    base = (raised(attacker, attacker_bonus.each), raised(defender, defender_bonus.each))
    attacks, defends = placements(base[0], attacker_bonus), placements(base[1], defender_bonus)
    if len(attacks) == len(defends) == 1:  # most rolls: no bonus left to place
        return Settled(attacks[0], defends[0], compare(attacks[0], defends[0]))

    def answer(attack: Values) -> Values:
        return best(defends, lambda d: wins(attack, d, DEFENDER))

    attack = best(attacks, lambda a: wins(a, answer(a), ATTACKER))
    defend = answer(attack)
    return Settled(attack, defend, compare(attack, defend))


def raised(values: Sequence[int], amount: int, at: int | None = None) -> Values:
    """``values`` with ``amount`` added to every die, or only to the die at ``at``.

    >>> raised((3, 5), 1), raised((3, 5), 1, at=0)
    ((4, 6), (4, 5))
    """
    if at is None:
        return tuple([v + amount for v in values] if amount else values)
    return tuple([v + amount if i == at else v for i, v in enumerate(values)])


def placements(values: Values, bonus: Bonus) -> list[Values]:
    """Every way the side's ``one`` bonus can land (just ``values`` when it has none or chose).

    Ordered as the tie-break prefers: the higher die first, then the first rolled.

    >>> placements((2, 5), Bonus(one=1))
    [(2, 6), (3, 5)]
    """
    if not bonus.one or not values:
        return [values]
    if bonus.at is not None:
        return [raised(values, bonus.one, at=bonus.at)]
    order = sorted(range(len(values)), key=lambda i: (-values[i], i))
    return [raised(values, bonus.one, at=i) for i in order]


def best(options: list[Values], score: Callable[[Values], int]) -> Values:
    """The first of ``options`` with the highest ``score`` (a single option is not scored: most
    rolls have no bonus to place, and scoring compares the dice again)."""
    return options[0] if len(options) == 1 else max(options, key=score)


def wins(attacker: Sequence[int], defender: Sequence[int], side: Side) -> int:
    """How many pairs ``side`` wins when these values meet."""
    return compare(attacker, defender).count(side)
