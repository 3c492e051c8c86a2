"""The Marvel United rules object: the kernel protocol over :mod:`.moves` and :mod:`.state`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from tabletape.ledger.events import TABLE, Event, GameStarted
from tabletape.rules.kernel import ActionSpec, Result, SteppedRules, TurnInfo, protocol_version
from tabletape.rules.marvel_united import MANIFEST, data
from tabletape.rules.marvel_united.actions import legal_actions
from tabletape.rules.marvel_united.events import EVENTS, Dealt, Drew, SetUp, VillainTurn
from tabletape.rules.marvel_united.moves import (
    complete_villain,
    mission_draws,
    phase_words,
    step,
    v1_drawer,
    window_words,
)
from tabletape.rules.marvel_united.options import Options, settings, validate
from tabletape.rules.marvel_united.state import (
    NOBODY,
    RULES_VERSIONS,
    SYMBOL_NAMES,
    Hero,
    State,
    kinds,
    players,
    recorded_as_v1,
    seat_of,
)
from tabletape.rules.seats import no_such_player


class MarvelUnited(SteppedRules[State], manifest=MANIFEST):
    """Marvel United for 2 to 4 heroes against Red Skull, Ultron or Taskmaster."""

    rules_version = RULES_VERSIONS[-1]
    """Version 2 records a Masterplan card's face, each overflowing location's ``done`` and a
    Location effect's cost as ``discard``; version 3 passes a window with nothing to record by
    itself; older logs keep their protocol (:func:`.state.recorded_as_v1`,
    :func:`.state.passes_by_itself`)."""
    min_players = 2
    max_players = 4
    events = EVENTS
    Options = Options
    """``apply`` runs the very step ``check`` runs (see
    :func:`tabletape.replay.fold.fold_records`)."""

    def validate_options(self, options: Any, players: Sequence[str]) -> None:
        validate(options, players)

    def start(self, started: GameStarted) -> State:
        found = settings(started.options, len(started.players))
        heroes = tuple(new_hero(player, hero, found.removed)
                       for player, hero in zip(started.players, found.heroes, strict=True))
        return State(villain=found.villain, heroes=heroes, health=found.health,
                     start_health=found.health, plot=found.plot, plot_limit=found.plot_limit,
                     mission_slots=found.mission_slots, locations_option=found.locations,
                     masterplan_deck=found.masterplan_deck, typos=found.typos,
                     protocol=protocol_version(self.title, started.rules_version, RULES_VERSIONS))

    def step(self, state: State, actor: str, event: Event) -> State:
        return step(state, actor_seat(state, actor), event)

    def complete(self, state: State, actor: str, event: Event, rng: random.Random) -> Event:
        """What the table left to tabletape: the setup, cards drawn, the Masterplan card (and
        what it shows, from the data)."""
        match event:
            case SetUp():
                return complete_setup(state, event, rng)
            case Dealt() if not event.cards and state.phase == "deal":
                seat = seat_of(state, event.player)
                if seat is not None:
                    return replace(event, cards=random_cards(state, seat, 3, rng))
            case VillainTurn() if state.masterplan_deck == "shipped":
                return complete_villain(state, event, rng)
            case Drew() if not event.cards:
                return complete_draw(state, actor, event, rng)
        return event

    def turn(self, state: State) -> TurnInfo:
        active = active_now(state)
        if state.phase in ("setup", "deal"):
            return TurnInfo(turn=0, round=0, phase=state.phase, active=active,
                            detail=phase_words(state))
        phase = state.phase
        if state.pending:
            phase = state.pending[0].kind
        return TurnInfo(turn=hero_turn(state), round=state.rounds, phase=phase, active=active,
                        detail=phase_words(state))

    def result(self, state: State) -> Result | None:
        if state.outcome == "won":
            return Result(winners=tuple(h.player for h in state.heroes), team=HEROES_TEAM,
                          reason=state.reason)
        if state.outcome == "lost":
            return Result(winners=(), team="villain", reason=state.reason)
        return None

    def legal_actions(self, state: State) -> tuple[ActionSpec, ...]:
        return legal_actions(state)

    def figures(self, state: State) -> list[dict[str, Any]]:
        return [hero_figures(state, seat) for seat in range(len(state.heroes))]

    def extra(self, state: State) -> dict[str, Any]:
        return extra_figures(state)

    def bot_action(self, state: State, rng: random.Random) -> tuple[str, Event] | None:
        from tabletape.rules.marvel_united import (
            bot,  # the bot is not needed to record or replay a game
        )

        return bot.choose(state, rng)


def new_hero(player: str, hero: str, removed: Sequence[str]) -> Hero:
    """A hero's deck, less the cards a Challenge removes (one of each named kind)."""
    deck = [card.count for card in data.HEROES[hero].values()]
    for kind in removed:
        deck[kinds(hero).index(kind)] -= 1
    return Hero(player, hero, total=sum(deck), deck=tuple(deck), hand=(0,) * len(deck),
                played=(0,) * len(deck))


def actor_seat(state: State, actor: str) -> int:
    """The seat of the actor, or ``NOBODY`` for the table."""
    if actor.strip().casefold() == TABLE:
        return NOBODY
    seat = seat_of(state, actor)
    if seat is None:
        raise no_such_player(actor, players(state), table=True)
    return seat


def active_now(state: State) -> tuple[str, ...]:
    if state.outcome:
        return ()
    if state.pending:
        head = state.pending[0]
        if head.kind == "mission-draw":
            return tuple(state.name(seat) for seat in mission_draws(state))
        return (state.name(head.hero),) if head.kind in ("hero-special", "location") else (TABLE,)
    if state.phase in ("setup", "deal", "villain"):
        return (TABLE,)
    if state.turn is None:
        return tuple(h.player for h in state.heroes)
    return (state.name(state.turn.seat),)


# -- completion ------------------------------------------------------------------------------------


def complete_setup(state: State, event: SetUp, rng: random.Random) -> SetUp:
    locations = event.locations or state.locations_option or tuple(
        rng.sample(sorted(data.LOCATIONS), data.LOCATIONS_IN_PLAY.value))
    threats = event.threats or tuple(rng.sample(sorted(data.THREATS[state.villain]),
                                                len(data.THREATS[state.villain])))
    start = event.start or rng.choice(locations)
    return replace(event, locations=tuple(locations), threats=threats, start=start)


def random_cards(state: State, seat: int, count: int, rng: random.Random) -> tuple[str, ...]:
    """``count`` cards off the top: random from the shuffled part, then the bottom in order."""
    hero = state.heroes[seat]
    names = kinds(hero.hero)
    shuffled = [names[k] for k, n in enumerate(hero.deck) for _ in range(n)]
    rng.shuffle(shuffled)
    pile = shuffled + [names[k] for k in hero.bottom]
    return tuple(pile[:count])


def complete_draw(state: State, actor: str, event: Drew, rng: random.Random) -> Drew:
    head = state.pending[0] if state.pending else None
    if head is not None and head.kind == "mission-draw":
        seat = seat_of(state, actor)
        if recorded_as_v1(state):
            seat = v1_drawer(state, NOBODY if seat is None else seat, event, mission_draws(state))
        if seat not in mission_draws(state):
            return event
        return replace(event, cards=random_cards(state, seat, 1, rng))
    if head is not None or state.phase != "draw":
        return event
    seat = state.turn.seat if state.turn is not None else seat_of(state, actor)
    if seat is None:
        return event
    hero = state.heroes[seat]
    stood_up = hero.ko if state.turn is None else state.turn.stood_up
    need = max(0, data.KO_DRAW.value - hero.hand_size) if stood_up else 1
    return replace(event, cards=random_cards(state, seat, need, rng))


# -- figures -------------------------------------------------------------------------------------


HEROES_TEAM = "heroes"
"""Every player's side: the heroes play together against the villain (the winning team is
``heroes`` or ``villain``)."""


def hero_turn(state: State) -> int:
    """The number of the latest hero turn: the first hero turn is turn 1; the villain's opening
    turn comes before it (turn 0, with the setup), a later villain turn keeps the number of the
    hero turn it follows (its round is the next one).

    ``state.turns`` counts villain turns too (``state.rounds`` of them), so they are taken off.
    """
    return state.turns - state.rounds


def hero_figures(state: State, seat: int) -> dict[str, Any]:
    hero = state.heroes[seat]
    names = kinds(hero.hero)
    return {
        "name": hero.player,
        "hero": hero.hero,
        "team": HEROES_TEAM,
        "hand": hero.hand_size,
        "cards": {names[k]: n for k, n in enumerate(hero.hand) if n},
        "deck": hero.cards_in_deck,
        "played": sum(hero.played),
        "location": state.places[hero.location].name if hero.location != NOBODY else None,
        "ko": hero.ko,
        "invulnerable": hero.invulnerable,
        "tokens": dict(zip(SYMBOL_NAMES, hero.tokens, strict=True)),
        "turn": state.turn is not None and state.turn.seat == seat,
    }


def extra_figures(state: State) -> dict[str, Any]:
    villain = data.VILLAINS[state.villain]
    turn = state.turn
    return {
        "villain": state.villain,
        "villain_title": villain.title,
        "health": state.health,
        "start_health": state.start_health,
        "health_mark": health_mark(state),
        "plot": state.plot,
        "fear": state.fear if state.plot == "fear" else None,
        "plot_limit": state.plot_limit or None,
        "villain_at": state.places[state.villain_at].name if state.places else None,
        "dashboard": {"bam": villain.bam.text, "overflow": villain.overflow.text,
                      "mark": data.VILLAINS[state.villain].health.mark},
        "ring": [place_figures(state, i) for i in range(len(state.places))],
        "storyline": list(state.storyline),
        "masterplan_deck": len(state.deck),
        "missions": {
            mission: {"filled": n, "slots": slots, "complete": mission in state.completed}
            for mission, n, slots in zip(data.MISSIONS, state.missions, state.mission_slots,
                                         strict=True)
        },
        "completed": list(state.completed),
        "under_pressure": state.under_pressure,
        "damageable": state.damageable,
        "hero_cards_since_villain": state.since,
        "symbols": dict(zip(SYMBOL_NAMES, turn.symbols, strict=True)) if turn else None,
        "resolving": [window_words(s, state) for s in state.pending],
        "lost_by": state.detail or None,
        "data_marks": {"masterplan": masterplan_mark(state),
                       "threat_flags": state.threat_flags,
                       "hero_decks": data.HERO_DECKS.mark,
                       "locations": data.LOCATION_MARK.mark,
                       "missions": data.MISSION_SLOTS.mark},
    }


def masterplan_mark(state: State) -> str:
    """``table`` when each card's face is recorded, the data's mark (I) for the shipped deck."""
    return data.MASTERPLAN_FACES.mark if state.masterplan_deck == "shipped" else "table"


def health_mark(state: State) -> str:
    """The villain's health as printed (R for Red Skull with 4 heroes), from the data (C), or
    set by this game's options (``table``)."""
    fact = data.VILLAINS[state.villain].health
    players = len(state.heroes)
    if state.start_health != fact.value[players - 2]:
        return "table"
    return "R" if (state.villain, players) == ("red-skull", 4) else fact.mark


def place_figures(state: State, index: int) -> dict[str, Any]:
    place = state.places[index]
    threat = state.threats[place.threat] if place.threat != NOBODY else None
    return {
        "name": place.name,
        "slots": place.slots,
        "thugs": place.thugs,
        "civilians": place.civilians,
        "crisis": place.crisis,
        "threat": None if threat is None else {
            "name": threat.name, "henchman": threat.henchman, "health": threat.health,
            "heroic": threat.heroic, "slots": threat.slots, "bam": threat.bam,
            "on_move": threat.on_move},
        "effect": data.LOCATIONS[place.name].effect,
        "villain": state.villain_at == index,
        "heroes": [h.player for h in state.heroes if h.location == index],
    }
