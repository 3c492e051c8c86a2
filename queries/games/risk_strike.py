"""Risk Strike's projections: every die (``dice``) and every battle roll (``battles``).

A roll is recorded by ``roll`` with the faces as they landed; Rally and Bombard may change it
while its window is open, and the losses are derived when it is resolved (by ``resolve``, the
next ``roll`` or ``retreat``). So rows are made at resolution, from the roll as the rules
resolved it (the state records it: :func:`~tabletape.rules.risk_strike.state.roll_resolved`).
Roll-off dice are ``dice`` rows with role ``roll-off``.
"""

from __future__ import annotations

from typing import Any

from tabletape.queries.projections import BATTLES, DICE, Projection, battle_dice, dice_row
from tabletape.replay.visitor import GameInfo, Visit
from tabletape.rules import dice
from tabletape.rules.dice import Bonus
from tabletape.rules.risk_strike.events import Rolled, RolledOff
from tabletape.rules.risk_strike.state import CONTINENTS, Dice, State, roll_resolved


class OpenRoll:
    """A roll recorded and not resolved yet: where it came from and its faces as they landed."""

    def __init__(self, visit: Visit, state: State) -> None:
        battle = state.battle
        assert battle is not None and battle.roll is not None
        self.seq = visit.record.seq
        self.turn = visit.turn.turn
        self.attacker = state.name(battle.attacker)
        self.defender = state.name(battle.defender)
        self.source = CONTINENTS[battle.source]
        self.target = CONTINENTS[battle.target]
        self.landed = battle.roll


class RollWatcher(Projection):
    """Shared bookkeeping: which roll is open, and when it is resolved."""

    def begin_game(self, info: GameInfo) -> None:
        self.open: OpenRoll | None = None

    def visit_event(self, visit: Visit) -> None:
        if not visit.effective:
            return
        if isinstance(visit.event, RolledOff):
            self.roll_off(visit)
            return
        roll = roll_resolved(visit.before, visit.after)
        if roll is not None and self.open is not None:
            self.resolved(self.open, roll)
            self.open = None
        after: State = visit.after
        if isinstance(visit.event, Rolled) and after.battle is not None and after.battle.roll:
            self.open = OpenRoll(visit, after)

    def end_game(self, info: GameInfo, final_state: Any) -> None:
        if self.open is not None:
            self.unresolved(self.open)

    def roll_off(self, visit: Visit) -> None:
        """Dice of the first-player roll-off (only ``dice`` keeps them)."""

    def resolved(self, roll: OpenRoll, final: Dice) -> None:
        """``roll`` was resolved as ``final`` (faces after Bombard, bonuses from Rally)."""

    def unresolved(self, roll: OpenRoll) -> None:
        """The log ends with ``roll`` still open."""


class RiskStrikeDice(RollWatcher):
    """``dice``: each die when its roll is resolved (value after Rally and Bombard)."""

    schema = DICE

    def roll_off(self, visit: Visit) -> None:
        before: State = visit.before
        for die, (seat, face) in enumerate(zip(before.contenders, visit.event.dice,  # type: ignore[attr-defined]
                                               strict=False), start=1):
            self.row(*dice_row(visit.record.seq, visit.turn.turn, before.name(seat), "roll-off",
                               die, dice.D6, face, face))

    def resolved(self, roll: OpenRoll, final: Dice) -> None:
        self.sides(roll, final.attacker, final.attacker_bonus, final.defender,
                   final.defender_bonus)

    def unresolved(self, roll: OpenRoll) -> None:
        self.sides(roll, roll.landed.attacker, 0, roll.landed.defender, 0)

    def sides(self, roll: OpenRoll, attack: tuple[int, ...], attack_bonus: int,
              defend: tuple[int, ...], defend_bonus: int) -> None:
        for role, player, landed, shown, bonus in (
            (dice.ATTACKER, roll.attacker, roll.landed.attacker, attack, attack_bonus),
            (dice.DEFENDER, roll.defender, roll.landed.defender, defend, defend_bonus),
        ):
            for die, (face, value) in enumerate(zip(landed, shown, strict=True), start=1):
                self.row(*dice_row(roll.seq, roll.turn, player, role, die, dice.D6, face,
                                   value + bonus))


class RiskStrikeBattles(RollWatcher):
    """``battles``: one row per resolved roll, losses as the rules derive them."""

    schema = BATTLES

    def resolved(self, roll: OpenRoll, final: Dice) -> None:
        winners = dice.compare(final.attacker, final.defender,
                               attacker_bonus=final.attacker_bonus,
                               defender_bonus=final.defender_bonus)
        attacker_losses, defender_losses = dice.losses(winners)
        modified = bool(final.attacker_bonus or final.defender_bonus
                        or final.attacker != roll.landed.attacker
                        or final.defender != roll.landed.defender)
        self.row(roll.seq, roll.turn, roll.attacker, roll.defender, roll.source, roll.target,
                 *battle_dice(roll.landed.attacker, roll.landed.defender, attacker_sides=dice.D6,
                              defender_sides=dice.D6,
                              attacker_values=values_after(final.attacker, final.attacker_bonus),
                              defender_values=values_after(final.defender, final.defender_bonus),
                              attacker_bonus=Bonus(each=final.attacker_bonus),
                              defender_bonus=Bonus(each=final.defender_bonus)),
                 modified, attacker_losses, defender_losses)


def values_after(shown: tuple[int, ...], bonus: int) -> tuple[int, ...]:
    """Each die's value after Bombard (``shown``) and Rally (``bonus``), in the order rolled."""
    return tuple(face + bonus for face in shown)


def projections() -> list[Projection]:
    """Risk Strike's projections, fresh for one game."""
    return [RiskStrikeDice(), RiskStrikeBattles()]
