"""Risk: Deep Space's projections: every die (``dice``) and every battle exchange (``battles``).

A battle is a series of exchanges of one die each; each exchange is one ``battle`` event and one
``battles`` row. The Space Dog's +1 is the ``value``/``modifier``/``modified`` part; a defeat a
Space Dog absorbs still counts as a loss of the side. Roll-off dice are ``dice`` rows with role
``roll-off``. ``standings`` (bases, recruits, gems, ore...) come from the game's figures.
"""

from __future__ import annotations

from tabletape.queries.projections import BATTLES, DICE, Projection, battle_dice, dice_row
from tabletape.replay.visitor import Visit
from tabletape.rules import dice
from tabletape.rules.dice import Bonus
from tabletape.rules.risk_deep_space.events import Battled, RolledOff
from tabletape.rules.risk_deep_space.state import State


def exchange(visit: Visit) -> tuple[State, int, int, int, int] | None:
    """``(before, attacker face, defender face, attacker bonus, defender bonus)`` of a battle
    exchange (the bonus as the rules recorded it), or None when ``visit`` is not one."""
    if not visit.effective or not isinstance(visit.event, Battled):
        return None
    before: State = visit.before
    if before.battle is None:
        return None
    after: State = visit.after
    return before, visit.event.attacker, visit.event.defender, *after.bonus


class DeepSpaceDice(Projection):
    """``dice``: both dice of each exchange, and the roll-off dice."""

    schema = DICE

    def visit_event(self, visit: Visit) -> None:
        seq, turn = visit.record.seq, visit.turn.turn
        if visit.effective and isinstance(visit.event, RolledOff):
            before: State = visit.before
            for die, (seat, face) in enumerate(zip(before.contenders, visit.event.dice,
                                                   strict=False), start=1):
                self.row(*dice_row(seq, turn, before.name(seat), "roll-off", die, dice.D6, face,
                                   face))
            return
        found = exchange(visit)
        if found is None:
            return
        state, attack, defend, attack_bonus, defend_bonus = found
        fight = state.battle
        assert fight is not None
        self.row(*dice_row(seq, turn, state.name(fight.attacker), dice.ATTACKER, 1, dice.D6,
                           attack, attack + attack_bonus))
        self.row(*dice_row(seq, turn, state.name(fight.defender), dice.DEFENDER, 1, dice.D6,
                           defend, defend + defend_bonus))


class DeepSpaceBattles(Projection):
    """``battles``: one row per exchange, with who lost it."""

    schema = BATTLES

    def visit_event(self, visit: Visit) -> None:
        found = exchange(visit)
        if found is None:
            return
        state, attack, defend, attack_bonus, defend_bonus = found
        fight = state.battle
        assert fight is not None
        winner = dice.pair_winner(attack + attack_bonus, defend + defend_bonus)
        attacker_losses, defender_losses = dice.losses((winner,))
        self.row(visit.record.seq, visit.turn.turn, state.name(fight.attacker),
                 state.name(fight.defender), state.space(fight.source),
                 state.space(fight.target),
                 *battle_dice((attack,), (defend,), attacker_sides=dice.D6, defender_sides=dice.D6,
                              attacker_values=(attack + attack_bonus,),
                              defender_values=(defend + defend_bonus,),
                              attacker_bonus=Bonus(each=attack_bonus),
                              defender_bonus=Bonus(each=defend_bonus)),
                 bool(attack_bonus or defend_bonus), attacker_losses, defender_losses)


def projections() -> list[Projection]:
    """Risk: Deep Space's projections, fresh for one game."""
    return [DeepSpaceDice(), DeepSpaceBattles()]
