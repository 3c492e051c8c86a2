"""The Risk: Transformers rules object: setup, the phase machine, the five phases, the days
and the end of the game."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from tabletape.ledger.events import Event, GameStarted
from tabletape.rules.dice import roll_mixed
from tabletape.rules.fair_dice import stream
from tabletape.rules.kernel import (
    ActionSpec,
    FieldSpec,
    IllegalAction,
    Result,
    SteppedRules,
    TurnInfo,
    protocol_version,
)
from tabletape.rules.risk_transformers import MANIFEST, allspark
from tabletape.rules.risk_transformers.battle import battle_actions, battle_dice, waiting_on
from tabletape.rules.risk_transformers.events import EVENTS, AllSpark, Rolled
from tabletape.rules.risk_transformers.moves import (
    allowed_places,
    canonical,
    exchange_actions,
    start_state,
    step,
)
from tabletape.rules.risk_transformers.options import (
    Options,
    check_choices,
    resolve_board,
    settings,
    validate,
)
from tabletape.rules.risk_transformers.reinforce import phase_words, turn_detail
from tabletape.rules.risk_transformers.special import turn_actions
from tabletape.rules.risk_transformers.state import (
    Refused,
    State,
    controls_sector,
    on_board,
    robot_units,
    teammates,
    zones_held,
)
from tabletape.rules.seats import NOBODY, UnknownName, seat_named


class RiskTransformers(SteppedRules[State], manifest=MANIFEST):
    """Risk: Transformers – Cybertron Battle Edition, 2 to 4 players: setup, the phase
    machine, the five phases, the AllSpark at the end of each day and the end of the game."""

    rules_version = "1"
    min_players = 2
    max_players = 4
    events = EVENTS
    Options = Options

    def options(self, raw: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        """Options with ``board=FILE`` turned into the board's content (the log holds the board
        in force), a value outside an option's list refused with "did you mean"."""
        check_choices(raw)
        given = dict(raw)
        given["board"] = resolve_board(given.get("board"))
        return super().options(given, players)

    def validate_options(self, options: Any, players: Sequence[str]) -> None:
        validate(options, players)

    def start(self, started: GameStarted) -> State:
        protocol_version(self.title, started.rules_version, (self.rules_version,))
        found = settings(started.options, len(started.players))
        return start_state(found, started.players)

    def step(self, state: State, actor: str, event: Event) -> State:
        """The state after ``actor``'s event; a rule's refusal suggests no zone or card for a
        typed value that names one (:class:`.state.Refused`)."""
        try:
            return step(state, seat_of(state, actor), event)
        except (UnknownName, Refused):
            raise
        except IllegalAction as error:
            raise Refused(error, state.board) from None

    def complete(self, state: State, actor: str, event: Event, rng: random.Random) -> Event:
        """A battle's dice left empty (both sides) are rolled from ``rng``, a d8 per leader; an
        AllSpark card left empty is turned from ``rng`` (:func:`.allspark.turn_card`), one typed
        as the zone it shows is that card (:func:`.allspark.card_showing`); zones and cards
        typed by name are stored by id (:func:`.moves.canonical`)."""
        event = canonical(state, event)
        if isinstance(event, AllSpark) and allspark.owed(state):
            card = (allspark.card_showing(state, event.card) if event.card
                    else allspark.turn_card(state, rng))
            return event if card == event.card else msgspec.structs.replace(event, card=card)
        sides = battle_dice(state)
        if isinstance(event, Rolled) and sides and not event.attacker and not event.defender:
            return msgspec.structs.replace(
                event, attacker=roll_mixed(stream(rng, "attacker"), sides[0]),
                defender=roll_mixed(stream(rng, "defender"), sides[1]))
        return event

    def turn(self, state: State) -> TurnInfo:
        """Who is expected to act: the player whose turn it is, or whom the attack in progress
        waits for (:func:`.battle.waiting_on`: the defender declaring, a side choosing)."""
        playing = state.current != NOBODY and state.phase != "over"
        seats = waiting_on(state) or ((state.current,) if playing else ())
        active = tuple(state.name(seat) for seat in seats)
        ending = state.phase in ("allspark", "over")
        return TurnInfo(turn=state.turn, round=state.day, phase=phase_words(state),
                        active=active,
                        detail=allspark.over_words(state) if ending else turn_detail(state))

    def result(self, state: State) -> Result | None:
        """Once the game is over: the side that destroyed every enemy army, or the most zones at
        the end of day 6 (the Launch Pad breaking a tie); ``team`` the faction with 4 players."""
        return allspark.result(state)

    def legal_actions(self, state: State) -> tuple[ActionSpec, ...]:
        if state.phase in ("setup", "leftover"):
            zones = tuple(state.places[p] for p in allowed_places(state, state.current))
            zone = FieldSpec(name="zone", kind="str", choices=zones)
            return (ActionSpec(type="place", actors=(state.name(state.current),),
                               fields=(zone,), doc="a robot on a zone (Setup 5)"),)
        return (turn_actions(state) + battle_actions(state) + allspark.allspark_actions(state)
                + exchange_actions(state))

    def bot_action(self, state: State, rng: random.Random) -> tuple[str, Event] | None:
        from tabletape.rules.risk_transformers import (
            bot,  # the bot is not needed to record or replay a game
        )

        return bot.choose(self, state, rng)

    def figures(self, state: State) -> list[dict[str, Any]]:
        """Each player's figures; the numbers are the catalog's ``standings`` after every turn
        (zones, sectors, pieces on the board, operational pile, scrapheap, cards in hand)."""
        return [{"name": me.name, "leader": me.leader, "faction": me.faction,
                 "team": team_name(state, seat), "form": me.form,
                 "zones": zones_held(state, seat), "sectors": sectors_held(state, seat),
                 "robots": robots, "vehicles": vehicles, "leader_on_board": bool(leaders),
                 "robot_units": robot_units(state, seat), "operational": me.operational,
                 "scrapheap": me.scrap_robots, "scrap_vehicles": me.scrap_vehicles,
                 "cards": len(me.hand), "eliminated": me.eliminated}
                for seat, me in enumerate(state.seats)
                for robots, vehicles, leaders in (on_board(state, seat),)]


def seat_of(state: State, actor: str) -> int:
    """The seat ``actor`` names: a stored actor is a player's exact name (found without
    :func:`~tabletape.rules.seats.seat_named`'s folding, which reads anything else the same)."""
    for seat, me in enumerate(state.seats):
        if me.name == actor:
            return seat
    return seat_named(actor, tuple(me.name for me in state.seats), table=True)


def team_name(state: State, seat: int) -> str | None:
    """``autobots`` or ``decepticons``: the seat's team with 4 players (Setup 2, "play in 2
    teams – AUTOBOTS vs. DECEPTICONS"); None with 2 or 3 players, where each plays alone (the
    two Decepticons of a 3-player game are not a team)."""
    return f"{state.seats[seat].faction}s" if teammates(state, seat) else None


def sectors_held(state: State, seat: int) -> int:
    """Sectors ``seat`` controls whole (its open factories included, T4)."""
    return sum(controls_sector(state, seat, sector) for sector in state.board.sectors)
