"""The Risk: Deep Space rules object: the kernel protocol over :mod:`.moves` and :mod:`.state`."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from msgspec.structs import replace

from tabletape.ledger.events import TABLE, Event, GameStarted
from tabletape.rules import dice
from tabletape.rules.kernel import ActionSpec, Result, SteppedRules, TurnInfo, protocol_version
from tabletape.rules.risk_deep_space import MANIFEST, data
from tabletape.rules.risk_deep_space.actions import legal_actions
from tabletape.rules.risk_deep_space.events import EVENTS, Battled, RolledOff
from tabletape.rules.risk_deep_space.moves import (
    STAGE_WORDS,
    acting_now,
    closed_spaces,
    may_roll_off,
    phase_words,
    rollers,
    step,
)
from tabletape.rules.risk_deep_space.options import (
    Options,
    readings,
    resolve_board,
    settings,
    validate,
)
from tabletape.rules.risk_deep_space.state import (
    CARDS,
    Seat,
    State,
    bases_built,
    dogs_at,
    mine_at,
    on_board,
    players,
)
from tabletape.rules.seats import NOBODY, seat_named


class RiskDeepSpace(SteppedRules[State], manifest=MANIFEST):
    """Risk: Deep Space for 2 to 4 players: Recruits, Gems and Ore, Bases on planets."""

    rules_version = "1"
    min_players = 2
    max_players = 4
    events = EVENTS
    several: ClassVar[Mapping[str, str]] = MappingProxyType({"battle": "exchange"})
    """``battle attacker=3,5,2 defender=4,1,6``: a battle's exchanges in one line, in order."""
    Options = Options
    """``apply`` runs the very step ``check`` runs, so it refuses whatever ``check`` refuses."""

    def options(self, raw: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        """Options with ``board=FILE`` turned into the board's content, so the log holds the
        board in force and replays without the file; a new game waits for the invaded player's
        answer (``defender-answers=wait``) unless the table says otherwise."""
        given = dict(raw)
        given["board"] = resolve_board(given.get("board"))
        given.setdefault("defender-answers", data.DEFENDER_ANSWERS.value)
        return super().options(given, players)

    def validate_options(self, options: Any, players: Sequence[str]) -> None:
        validate(options, players)

    def start(self, started: GameStarted) -> State:
        protocol_version(self.title, started.rules_version, (self.rules_version,))
        found = settings(started.options, len(started.players))
        board = found.board
        homes = board.tag_values("home")
        seats = tuple(
            Seat(name=name, colour=colour, home=board.index(homes[colour]),
                 supply=data.RECRUITS.value - data.START_RECRUITS.value,
                 bases=data.BASES.value, gems=data.START_GEMS.value)
            for name, colour in zip(started.players, found.colours, strict=True)
        )
        spaces = len(board.spaces)
        holders, recruits = [NOBODY] * spaces, [0] * spaces
        for seat, me in enumerate(seats):
            holders[me.home], recruits[me.home] = seat, data.START_RECRUITS.value
        state = State(
            settings=found, seats=seats, homes=tuple(me.home for me in seats),
            holders=tuple(holders), recruits=tuple(recruits),
            bases=((),) * spaces, deck=found.mix, discard=(0,) * len(CARDS),
            gems=data.GEMS.value - data.START_GEMS.value * len(seats), ore=data.ORE.value,
            dogs_left=data.SPACE_DOGS.value,
        )
        return replace(state, closed=closed_spaces(state))

    # -- the fold ------------------------------------------------------------------------------

    def step(self, state: State, actor: str, event: Event) -> State:
        return step(state, actor_seat(state, actor), event)

    def complete(self, state: State, actor: str, event: Event, rng: random.Random) -> Event:
        """Dice left empty (all of them) are rolled from ``rng``; one die given and one left
        out is left for the rules to refuse."""
        if isinstance(event, RolledOff) and not event.dice and may_roll_off(state):
            return replace(event, dice=dice.roll(rng, len(rollers(state))))
        if (isinstance(event, Battled) and state.battle is not None
                and not event.attacker and not event.defender):
            return replace(event, attacker=rng.randint(1, dice.D6),
                           defender=rng.randint(1, dice.D6))
        return event

    # -- what the table sees -------------------------------------------------------------------

    def turn(self, state: State) -> TurnInfo:
        if state.phase in ("deal", "cover", "roll-off"):
            return TurnInfo(turn=0, round=0, phase=state.phase, active=(TABLE,),
                            detail=phase_words(state))
        if state.phase == "over":
            return TurnInfo(turn=state.turn, round=state.round, phase="over", active=(),
                            detail=phase_words(state))
        phase = "battle" if state.battle else STAGE_WORDS[state.stage]
        return TurnInfo(turn=state.turn, round=state.round, phase=phase,
                        active=(state.name(acting_now(state)),), detail=phase_words(state))

    def result(self, state: State) -> Result | None:
        if state.winner == NOBODY:
            return None
        who = state.name(state.winner)
        return Result(winners=(who,), reason=f"{who} built {bases_built(state, state.winner)} "
                                             "Bases")

    def legal_actions(self, state: State) -> tuple[ActionSpec, ...]:
        return legal_actions(state)

    def figures(self, state: State) -> list[dict[str, Any]]:
        return [seat_figures(state, s) for s in range(len(state.seats))]

    def extra(self, state: State) -> dict[str, Any]:
        board = state.board
        return {
            "board": {"name": board.name, "mark": board.mark, "note": board.note},
            "readings": readings(state.settings),
            "order": [state.name(s) for s in state.order],
            "turn_player": state.name(state.current) if state.current != NOBODY else None,
            "planets": planet_figures(state),
            "covered": [state.space(p) for p in state.covered],
            "supply": {"gems": state.gems, "ore": state.ore, "space_dogs": state.dogs_left,
                       "force_fields": state.fields_left},
            "force_fields": state.settings.force_fields,
            "shields": [{"planet": state.space(p), "owner": state.name(owner)}
                        for p, owner in state.shields],
            "deck": dict(zip(CARDS, state.deck, strict=True)),
            "deck_size": sum(state.deck),
            "discard": {c: n for c, n in zip(CARDS, state.discard, strict=True) if n},
            "battle": battle_figures(state),
            "movements_left": state.moves_left if state.phase == "turn" else 0,
            "energy_boost": state.boost,
            "win_bases": data.WIN_BASES.value[len(state.seats)],
            "rolloffs": [list(r) for r in state.rolloffs],
        }

    def bot_action(self, state: State, rng: random.Random) -> tuple[str, Event] | None:
        from tabletape.rules.risk_deep_space import (
            bot,  # the bot is not needed to record or replay a game
        )

        return bot.choose(state, rng)


def actor_seat(state: State, actor: str) -> int:
    """The seat of the actor, or ``NOBODY`` for the table (a player's name, never a colour)."""
    if actor == TABLE:  # as stored
        return NOBODY
    for seat, me in enumerate(state.seats):  # the fold's fast path: actors are stored exact
        if me.name == actor:
            return seat
    return seat_named(actor, players(state), table=True)


def seat_figures(state: State, seat: int) -> dict[str, Any]:
    me = state.seats[seat]
    return {
        "name": me.name,
        "colour": me.colour,
        "bases": bases_built(state, seat),
        "bases_left": me.bases,
        "recruits": on_board(state, seat),
        "recruits_in_supply": me.supply,
        "gems": me.gems,
        "ore": me.ore,
        "cards": list(me.hand),
        "space_dogs": sum(dog.owner == seat for dog in state.dogs),
        "planets": sum(1 for who in state.holders if who == seat),
        "first": bool(state.order) and state.order[0] == seat,
        "turn": state.current == seat,
    }


def planet_figures(state: State) -> list[dict[str, Any]]:
    """Each space: who holds it, with how many Recruits, Bases and Space Dogs."""
    rows = []
    for p, space in enumerate(state.board.spaces):
        who = state.holders[p]
        rows.append({
            "id": space.id,
            "name": space.title,
            "tags": list(space.tags),
            "holder": state.name(who) if who != NOBODY else None,
            "recruits": state.recruits[p],
            "bases": [state.name(s) for s in state.bases[p]],
            "space_dogs": [state.name(d.owner) for d in state.dogs if d.space == p],
            "covered": p in state.covered,
            "force_field": next((state.name(owner) for q, owner in state.shields if q == p),
                                None),
        })
    return rows


def battle_figures(state: State) -> dict[str, Any] | None:
    fight = state.battle
    if fight is None:
        return None
    return {
        "attacker": state.name(fight.attacker),
        "defender": state.name(fight.defender),
        "from": state.space(fight.source),
        "planet": state.space(fight.target),
        "attacking": fight.crew,
        "defending": mine_at(state, fight.defender, fight.target),
        "attacker_dogs": len(dogs_at(state, fight.target, fight.attacker)),
        "defender_dogs": len(dogs_at(state, fight.target, fight.defender)),
        "exchanges": fight.exchanges,
        "last": list(fight.last) if fight.exchanges else None,
    }
