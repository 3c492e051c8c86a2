"""Pebbles: in turn, take 1 to 3 pebbles from the pile, or roll a die and take half its face
(rounded up); whoever takes the last pebble wins."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from pebbles import MANIFEST
from tabletape.ledger.events import Event, GameStarted
from tabletape.rules.kernel import ActionSpec, FieldSpec, IllegalAction, Result, Rules, TurnInfo


class Took(Event, tag="take"):
    n: int


class Rolled(Event, tag="roll"):
    dice: tuple[int, ...] = ()


class Options(msgspec.Struct, kw_only=True):
    pile: int = 15


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[str, ...]
    pile: int
    start: int
    taken: tuple[int, ...]
    moves: int = 0
    last: str = ""


def taken_by(state: State, event: Event) -> int:
    """How many pebbles ``event`` takes (never more than the pile holds)."""
    wanted = event.n if isinstance(event, Took) else (event.dice[0] + 1) // 2
    return min(wanted, state.pile)


class Pebbles(Rules[State], manifest=MANIFEST):
    min_players = 2
    max_players = 4
    events = (Took, Rolled)
    Options = Options

    def start(self, started: GameStarted) -> State:
        pile = started.options.get("pile", 15)
        return State(players=started.players, pile=pile, start=pile,
                     taken=(0,) * len(started.players))

    def active(self, state: State) -> str:
        return state.players[state.moves % len(state.players)]

    def check(self, state: State, actor: str, event: Event) -> None:
        if state.pile == 0:
            raise IllegalAction("the game is over")
        if actor.casefold() != self.active(state).casefold():
            raise IllegalAction(f"it is {self.active(state)}'s turn")
        if isinstance(event, Took) and not 1 <= event.n <= min(3, state.pile):
            raise IllegalAction(f"take 1 to {min(3, state.pile)}, not {event.n}")
        if isinstance(event, Rolled) and (len(event.dice) != 1 or not 1 <= event.dice[0] <= 6):
            raise IllegalAction("roll one six-sided die")

    def apply(self, state: State, actor: str, event: Event) -> State:
        if not isinstance(event, Took | Rolled):
            return state
        seat = state.moves % len(state.players)
        n = taken_by(state, event)
        taken = tuple(t + n if i == seat else t for i, t in enumerate(state.taken))
        return msgspec.structs.replace(state, pile=state.pile - n, taken=taken,
                                       moves=state.moves + 1, last=state.players[seat])

    def complete(self, state: State, actor: str, event: Event, rng: random.Random) -> Event:
        return Rolled(dice=(rng.randint(1, 6),)) if event == Rolled() else event

    def turn(self, state: State) -> TurnInfo:
        return TurnInfo(turn=state.moves + 1, round=state.moves // len(state.players) + 1,
                        phase="take", active=(self.active(state),))

    def result(self, state: State) -> Result | None:
        if state.pile:
            return None
        return Result(winners=(state.last,), reason=f"{state.last} took the last pebble")

    def legal_actions(self, state: State) -> tuple[ActionSpec, ...]:
        if state.pile == 0:
            return ()
        me = (self.active(state),)
        counts = tuple(str(n) for n in range(1, min(3, state.pile) + 1))
        return (ActionSpec(type="take", actors=me,
                           fields=(FieldSpec(name="n", kind="int", choices=counts),)),
                ActionSpec(type="roll", actors=me,
                           fields=(FieldSpec(name="dice", kind="list[int]", required=False),)))

    def figures(self, state: State) -> list[dict[str, Any]]:
        return [{"name": p, "pebbles": n} for p, n in zip(state.players, state.taken, strict=True)]

    def bot_action(self, state: State, rng: random.Random) -> tuple[str, Event] | None:
        if state.pile == 0:
            return None
        if rng.random() < 0.5:
            return self.active(state), Rolled()
        return self.active(state), Took(n=rng.randint(1, min(3, state.pile)))
