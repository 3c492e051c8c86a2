"""A test-only dice game, "duel": two players trade Risk-style dice battles until one has no troops.

Each turn the active player attacks the other once: up to three attack dice against up to two
defence dice (one die per troop), pairs compared highest first, ties to the defender; each lost
pair costs one troop. An optional ``bonus`` adds to every attack die (a modified battle). Its
projections (``dice``, ``battles``) follow the queries plug-in convention.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from tabletape.ledger.events import Event, GameStarted
from tabletape.queries.projections import BATTLES, DICE, Projection, register_projections
from tabletape.replay.visitor import GameInfo, Visit
from tabletape.rules import dice
from tabletape.rules.kernel import ActionSpec, IllegalAction, Result, Rules, TurnInfo, register


class Attacked(Event, tag="attack"):
    count: int = 3
    """Attack dice chosen (at most three, at most the attacker's troops)."""
    bonus: int = 0
    attacker: tuple[int, ...] = ()
    defender: tuple[int, ...] = ()


class DuelOptions(msgspec.Struct, kw_only=True):
    troops: int = 8
    attacker_sides: int = 6
    defender_sides: int = 6
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
        sides_a, sides_d = state.options["attacker_sides"], state.options["defender_sides"]
        bias = state.options.get("bias", 0) if actor == state.options.get("cheat") else 0
        attack = tuple(sides_a if bias and rng.randrange(bias) == 0 else rng.randint(1, sides_a)
                       for _ in range(a))
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
        lost_a, lost_d = dice.losses(dice.compare(event.attacker, event.defender,
                                                  attacker_bonus=event.bonus))
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
                return Result(winners=(winner,), reason=f"{state.players[seat]} has no troops")
        return None

    def legal_actions(self, state: DuelState) -> tuple[ActionSpec, ...]:
        if self.result(state) is not None:
            return ()
        return (ActionSpec(type="attack", actors=(state.players[self.seats(state)[0]],)),)

    def figures(self, state: DuelState) -> list[dict[str, Any]]:
        return [{"name": p, "troops": t, "faction": "red" if seat == 0 else "black"}
                for seat, (p, t) in enumerate(zip(state.players, state.troops, strict=True))]

    def bot_action(self, state: DuelState, rng: random.Random) -> tuple[str, Event] | None:
        if self.result(state) is not None:
            return None
        me, _ = self.seats(state)
        bonus = 1 if rng.random() < 0.1 else 0
        return state.players[me], Attacked(count=rng.randint(1, 3), bonus=bonus)


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
        for die, face in enumerate(event.attacker, start=1):
            self.row(seq, turn, state.players[me], "attacker", die, options["attacker_sides"],
                     face, face + event.bonus)
        for die, face in enumerate(event.defender, start=1):
            self.row(seq, turn, state.players[other], "defender", die,
                     options["defender_sides"], face, face)


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
                 "home", "away", len(event.attacker), len(event.defender),
                 before.options["attacker_sides"], before.options["defender_sides"],
                 list(event.attacker), list(event.defender), event.bonus != 0,
                 before.troops[me] - after.troops[me], before.troops[other] - after.troops[other])


def projections() -> list[Projection]:
    return [DuelDice(), DuelBattles()]


register_projections("duel", projections)
