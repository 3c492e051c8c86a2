"""A test-only game with two dice fields per roll, "volley": each ``shot`` rolls ``count`` of
``mine`` and two of ``theirs``. Risk Strike fills whichever side is left out; with the option
``together`` it fills both only when both are left out (as a Transformers battle does), each from
its own stream (:func:`tabletape.rules.fair_dice.stream`)."""

from __future__ import annotations

import random

import msgspec

from tabletape.ledger.events import Event, GameStarted
from tabletape.rules import dice
from tabletape.rules.fair_dice import stream
from tabletape.rules.kernel import ActionSpec, FieldSpec, IllegalAction, Result, Rules, TurnInfo
from tabletape.rules.registry import register


class Shot(Event, tag="shot"):
    count: int = 1
    mine: tuple[int, ...] = ()
    theirs: tuple[int, ...] = ()


class VolleyOptions(msgspec.Struct, kw_only=True):
    together: bool = False


class VolleyState(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[str, ...]
    together: bool
    shots: int = 0


class Volley(Rules[VolleyState]):
    name = "volley"
    title = "Volley"
    short = "vo"
    min_players = 1
    max_players = 2
    events = (Shot,)
    Options = VolleyOptions

    def start(self, started: GameStarted) -> VolleyState:
        return VolleyState(players=started.players,
                           together=bool(started.options.get("together")))

    def complete(self, state: VolleyState, actor: str, event: Event,
                 rng: random.Random) -> Event:
        if not isinstance(event, Shot):
            return event
        if state.together:
            if event.mine or event.theirs:
                return event
            return msgspec.structs.replace(event, mine=dice.roll(stream(rng, "mine"), event.count),
                                           theirs=dice.roll(stream(rng, "theirs"), 2))
        return msgspec.structs.replace(event, mine=event.mine or dice.roll(rng, event.count),
                                       theirs=event.theirs or dice.roll(rng, 2))

    def check(self, state: VolleyState, actor: str, event: Event) -> None:
        assert isinstance(event, Shot)
        if len(event.mine) != event.count or len(event.theirs) != 2:
            raise IllegalAction(f"roll {event.count} of mine and 2 of theirs")

    def apply(self, state: VolleyState, actor: str, event: Event) -> VolleyState:
        return msgspec.structs.replace(state, shots=state.shots + 1)

    def turn(self, state: VolleyState) -> TurnInfo:
        return TurnInfo(turn=state.shots + 1, round=1, phase="shoot", active=state.players)

    def result(self, state: VolleyState) -> Result | None:
        return None

    def legal_actions(self, state: VolleyState) -> tuple[ActionSpec, ...]:
        fields = (FieldSpec(name="count", kind="int", required=False),
                  FieldSpec(name="mine", kind="list[int]", required=False),
                  FieldSpec(name="theirs", kind="list[int]", required=False))
        return (ActionSpec(type="shot", actors=state.players, fields=fields),)


VOLLEY = register(Volley())
