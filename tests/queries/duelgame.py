"""A test-only dice game, "duel": two players trade Risk-style dice battles until one has no troops.

Each turn the active player attacks the other once: up to three attack dice against up to two
defence dice (one die per troop), pairs compared highest first, ties to the defender; each lost
pair costs one troop. An optional ``bonus`` adds to every attack die and ``boost`` to the first
one only (a card that modifies one die); the ``attacker_mix`` option rolls attack dice of
different sizes (a leader's d8 beside d6s). Its projections (``dice``, ``battles``) follow the
queries plug-in convention.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from tabletape.ledger.events import Event, GameStarted
from tabletape.queries.projections import (
    BATTLES,
    DICE,
    Projection,
    battle_dice,
    dice_row,
    register_projections,
)
from tabletape.replay.visitor import GameInfo, Visit
from tabletape.rules import dice
from tabletape.rules.kernel import ActionSpec, IllegalAction, Result, Rules, TurnInfo
from tabletape.rules.registry import register


class Attacked(Event, tag="attack"):
    count: int = 3
    """Attack dice chosen (at most three, at most the attacker's troops)."""
    bonus: int = 0
    attacker: tuple[int, ...] = ()
    defender: tuple[int, ...] = ()
    boost: int = 0
    """Added to the first attack die only."""


class DuelOptions(msgspec.Struct, kw_only=True):
    troops: int = 8
    attacker_sides: int = 6
    defender_sides: int = 6
    teams: dict[str, str] = {}
    """Each player's team, as the figures and the result name it (a test of team columns)."""
    attacker_mix: list[int] = []
    """Sides of each attack die when they differ (``[8, 6, 6]``); the first ``count`` roll."""
    bias: int = 0
    """Test hook: 1 in ``bias`` of ``cheat``'s attack dice is rolled as a 6 (a loaded die)."""
    cheat: str = ""


class DuelState(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[str, ...]
    troops: tuple[int, ...]
    options: dict[str, Any]
    turn: int = 1


class Duel(Rules[DuelState]):
    name = "duel"
    title = "Duel"
    short = "du"
    min_players = 2
    max_players = 2
    events = (Attacked,)
    Options = DuelOptions

    def start(self, started: GameStarted) -> DuelState:
        troops = started.options.get("troops", 8)
        return DuelState(players=started.players, troops=(troops, troops),
                         options=dict(started.options))

    def seats(self, state: DuelState) -> tuple[int, int]:
        me = (state.turn - 1) % 2
        return me, 1 - me

    def dice_counts(self, state: DuelState, count: int) -> tuple[int, int]:
        me, other = self.seats(state)
        return dice.dice_count(min(count, state.troops[me]), 3), dice.dice_count(
            state.troops[other], 2)

    def complete(self, state: DuelState, actor: str, event: Event, rng: random.Random) -> Event:
        if not isinstance(event, Attacked) or event.attacker:
            return event
        a, d = self.dice_counts(state, event.count)
        sides_d = state.options["defender_sides"]
        bias = state.options.get("bias", 0) if actor == state.options.get("cheat") else 0
        attack = tuple(sides_a if bias and rng.randrange(bias) == 0 else rng.randint(1, sides_a)
                       for sides_a in attack_sides(state.options, a))
        return msgspec.structs.replace(event, attacker=attack, defender=dice.roll(rng, d, sides_d))

    def check(self, state: DuelState, actor: str, event: Event) -> None:
        if self.result(state) is not None:
            raise IllegalAction("the duel is over")
        me, _ = self.seats(state)
        if actor != state.players[me]:
            raise IllegalAction(f"it is {state.players[me]}'s turn")
        assert isinstance(event, Attacked)
        a, d = self.dice_counts(state, event.count)
        if (len(event.attacker), len(event.defender)) != (a, d):
            raise IllegalAction(f"roll {a} attack dice and {d} defence dice")

    def apply(self, state: DuelState, actor: str, event: Event) -> DuelState:
        assert isinstance(event, Attacked)
        lost_a, lost_d = dice.losses(dice.compare(attack_values(event), event.defender))
        me, other = self.seats(state)
        troops = list(state.troops)
        troops[me] -= lost_a
        troops[other] -= lost_d
        return msgspec.structs.replace(state, troops=tuple(troops), turn=state.turn + 1)

    def turn(self, state: DuelState) -> TurnInfo:
        me, _ = self.seats(state)
        return TurnInfo(turn=state.turn, round=(state.turn + 1) // 2, phase="attack",
                        active=(state.players[me],))

    def result(self, state: DuelState) -> Result | None:
        for seat, troops in enumerate(state.troops):
            if troops <= 0:
                winner = state.players[1 - seat]
                return Result(winners=(winner,), team=(state.options.get("teams") or {}).get(
                    winner), reason=f"{state.players[seat]} has no troops")
        return None

    def legal_actions(self, state: DuelState) -> tuple[ActionSpec, ...]:
        if self.result(state) is not None:
            return ()
        return (ActionSpec(type="attack", actors=(state.players[self.seats(state)[0]],)),)

    def figures(self, state: DuelState) -> list[dict[str, Any]]:
        teams = state.options.get("teams") or {}
        return [{"name": p, "troops": t, "faction": "red" if seat == 0 else "black",
                 **({"team": teams[p]} if p in teams else {})}
                for seat, (p, t) in enumerate(zip(state.players, state.troops, strict=True))]

    def bot_action(self, state: DuelState, rng: random.Random) -> tuple[str, Event] | None:
        if self.result(state) is not None:
            return None
        me, _ = self.seats(state)
        bonus = 1 if rng.random() < 0.1 else 0
        return state.players[me], Attacked(count=rng.randint(1, 3), bonus=bonus)


def attack_sides(options: dict[str, Any], count: int) -> list[int]:
    """The sides of each of ``count`` attack dice."""
    mix = options.get("attacker_mix") or []
    return list(mix[:count]) if mix else [options["attacker_sides"]] * count


def attack_values(event: Attacked) -> tuple[int, ...]:
    """Each attack die after ``bonus`` (every die) and ``boost`` (the first die)."""
    return tuple(face + event.bonus + (event.boost if die == 0 else 0)
                 for die, face in enumerate(event.attacker))


DUEL = register(Duel())


class DuelDice(Projection):
    schema = DICE

    def visit_event(self, visit: Visit) -> None:
        event = visit.event
        if not visit.effective or not isinstance(event, Attacked):
            return
        state: DuelState = visit.before
        me, other = (visit.turn.turn - 1) % 2, visit.turn.turn % 2
        options = state.options
        seq, turn = visit.record.seq, visit.turn.turn
        sides = attack_sides(options, len(event.attacker))
        for die, (face, value) in enumerate(zip(event.attacker, attack_values(event),
                                                strict=True), start=1):
            self.row(*dice_row(seq, turn, state.players[me], "attacker", die, sides[die - 1],
                               face, value))
        for die, face in enumerate(event.defender, start=1):
            self.row(*dice_row(seq, turn, state.players[other], "defender", die,
                               options["defender_sides"], face, face))


class DuelBattles(Projection):
    schema = BATTLES

    def begin_game(self, info: GameInfo) -> None:
        self.players = info.started.players

    def visit_event(self, visit: Visit) -> None:
        event = visit.event
        if not visit.effective or not isinstance(event, Attacked):
            return
        before: DuelState = visit.before
        after: DuelState = visit.after
        me, other = (visit.turn.turn - 1) % 2, visit.turn.turn % 2
        self.row(visit.record.seq, visit.turn.turn, self.players[me], self.players[other],
                 "home", "away",
                 *battle_dice(event.attacker, event.defender,
                              attacker_sides=attack_sides(before.options, len(event.attacker)),
                              defender_sides=before.options["defender_sides"],
                              attacker_values=attack_values(event),
                              attacker_bonus=dice.Bonus(each=event.bonus)),
                 event.bonus != 0 or event.boost != 0,
                 before.troops[me] - after.troops[me], before.troops[other] - after.troops[other])


def projections() -> list[Projection]:
    return [DuelDice(), DuelBattles()]


register_projections("duel", projections)
