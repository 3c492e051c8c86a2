"""A tiny game used only by tests to exercise the kernel, the ledger and the CLI.

Players take turns adding 1 to 3 to a shared total, or rolling a die and adding its face; whoever
brings the total to ``target`` or beyond wins. ``cheer`` may be played by anyone, any time.
"""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING, Any

import msgspec

from tabletape.ledger.events import Event, GameStarted
from tabletape.rules.kernel import ActionSpec, FieldSpec, IllegalAction, Result, Rules, TurnInfo
from tabletape.rules.registry import REGISTERED, manifest_of, register

if TYPE_CHECKING:
    import pytest


class Added(Event, tag="add"):
    n: int


class Rolled(Event, tag="roll"):
    dice: tuple[int, ...] = ()


class Cheered(Event, tag="cheer"):
    words: str = "hooray"


class TinyOptions(msgspec.Struct, kw_only=True):
    target: int = 10


class TinyState(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[str, ...]
    target: int
    total: int = 0
    turn: int = 1
    cheers: int = 0


class Tiny(Rules[TinyState]):
    name = "tiny"
    title = "Tiny"
    aliases = ("tiny-test",)
    short = "ty"
    min_players = 1
    max_players = 4
    events = (Added, Rolled, Cheered)
    Options = TinyOptions

    def start(self, started: GameStarted) -> TinyState:
        return TinyState(players=started.players, target=started.options.get("target", 10))

    def active(self, state: TinyState) -> str:
        return state.players[(state.turn - 1) % len(state.players)]

    def check(self, state: TinyState, actor: str, event: Event) -> None:
        if self.result(state) is not None:
            raise IllegalAction("the game is over")
        if isinstance(event, Cheered):
            return
        if actor != self.active(state):
            raise IllegalAction(f"it is {self.active(state)}'s turn, not {actor}'s")
        if isinstance(event, Added) and not 1 <= event.n <= 3:
            raise IllegalAction(f"you may add 1 to 3, not {event.n}", allowed=("1", "2", "3"))
        if isinstance(event, Rolled) and (len(event.dice) != 1 or not 1 <= event.dice[0] <= 6):
            raise IllegalAction("roll one six-sided die")

    def complete(self, state: TinyState, actor: str, event: Event, rng: random.Random) -> Event:
        if isinstance(event, Rolled) and not event.dice:
            return Rolled(dice=(rng.randint(1, 6),))
        return event

    def apply(self, state: TinyState, actor: str, event: Event) -> TinyState:
        match event:
            case Added(n=n):
                return msgspec.structs.replace(state, total=state.total + n, turn=state.turn + 1)
            case Rolled(dice=dice):
                return msgspec.structs.replace(state, total=state.total + sum(dice),
                                               turn=state.turn + 1)
            case Cheered():
                return msgspec.structs.replace(state, cheers=state.cheers + 1)
        return state

    def turn(self, state: TinyState) -> TurnInfo:
        rounds = (state.turn - 1) // len(state.players) + 1
        return TurnInfo(turn=state.turn, round=rounds, phase="add", active=(self.active(state),))

    def result(self, state: TinyState) -> Result | None:
        if state.total < state.target:
            return None
        winner = state.players[(state.turn - 2) % len(state.players)]
        return Result(winners=(winner,), reason=f"{winner} reached {state.target}")

    def legal_actions(self, state: TinyState) -> tuple[ActionSpec, ...]:
        if self.result(state) is not None:
            return ()
        me = (self.active(state),)
        return (
            ActionSpec(type="add", actors=me,
                       fields=(FieldSpec(name="n", kind="int", choices=("1", "2", "3")),)),
            ActionSpec(type="roll", actors=me,
                       fields=(FieldSpec(name="dice", kind="list[int]", required=False),)),
            ActionSpec(type="cheer", actors=state.players,
                       fields=(FieldSpec(name="words", kind="str", required=False),)),
        )

    def figures(self, state: TinyState) -> list[dict[str, Any]]:
        return [{"name": p} for p in state.players]

    def extra(self, state: TinyState) -> dict[str, Any]:
        return {"total": state.total, "target": state.target}

    def dice(self, visit: Any) -> list[tuple[str, int, int]]:
        """The dice rolled in one visited event (for ``tabletape audit``): ``(player, 6, face)``."""
        if isinstance(visit.event, Rolled):
            return [(visit.record.actor, 6, face) for face in visit.event.dice]
        return []

    def bot_action(self, state: TinyState, rng: random.Random) -> tuple[str, Event] | None:
        if self.result(state) is not None:
            return None
        return self.active(state), Added(n=rng.randint(1, 3))


TINY = Tiny()
register(TINY, dice=TINY.dice)  # its manifest, made in code: the rules object and its dice hook


def with_parts(monkeypatch: pytest.MonkeyPatch, kind: str = "tiny", **parts: Any) -> None:
    """Give the registered game ``kind`` these manifest parts (``view=``, ``conservation=``...)
    for one test; ``monkeypatch`` puts its manifest back after."""
    manifest = manifest_of(kind)
    assert manifest is not None
    monkeypatch.setitem(REGISTERED, kind, dataclasses.replace(manifest, **parts))
