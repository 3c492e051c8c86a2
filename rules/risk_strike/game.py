"""The Risk Strike rules object: the kernel protocol over :mod:`.moves` and :mod:`.state`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from tabletape.ledger.events import TABLE, Event, GameStarted
from tabletape.rules import dice
from tabletape.rules.kernel import ActionSpec, Result, SteppedRules, TurnInfo, protocol_version
from tabletape.rules.risk_strike import MANIFEST, data
from tabletape.rules.risk_strike.actions import legal_actions
from tabletape.rules.risk_strike.events import (
    EVENTS,
    Attacked,
    Dealt,
    Deployed,
    Drew,
    Passed,
    Played,
    Resolved,
    Rolled,
    RolledOff,
)
from tabletape.rules.risk_strike.hidden import first_world
from tabletape.rules.risk_strike.moves import dice_allowed, phase_words, prepare, resolve_roll, step
from tabletape.rules.risk_strike.options import Options, settings, validate
from tabletape.rules.risk_strike.state import (
    ATTACKER_STEP,
    CONTINENTS,
    DEFENDER_STEP,
    HELPERS_STEP,
    NOBODY,
    RULES_VERSIONS,
    TACTICS,
    Battle,
    Dice,
    Seat,
    State,
    card_of,
    coins_of,
    continent_of,
    exact_seat_names,
    players,
    seat_of,
    title,
    unseen,
)
from tabletape.rules.seats import seat_named


class RiskStrike(SteppedRules[State], manifest=MANIFEST):
    """Risk Strike for 2 to 5 players: continent cards, tactics cards, domination coins."""

    rules_version = RULES_VERSIONS[-1]
    """Version 2 records the attacker's and the defender's deployment steps (``deploy troops=0``
    declines), names Bombard's die by what it shows and keeps Expand's draw past the battle;
    games recorded under version 1 keep its recording protocol (:attr:`.state.State.protocol`)."""
    min_players = 2
    max_players = 5
    events = EVENTS
    Options = Options
    """``apply`` runs the very step ``check`` runs, so it refuses whatever ``check`` refuses:
    a fold of a stored log may call ``apply`` alone (see
    :func:`tabletape.replay.fold.fold_records`)."""

    def validate_options(self, options: Any, players: Sequence[str]) -> None:
        validate(options, players)

    def start(self, started: GameStarted) -> State:
        found = settings(started.options)
        players = len(started.players)
        return State(
            seats=tuple(
                Seat(name, (0,) * len(CONTINENTS), (0,) * len(TACTICS)) for name in started.players
            ),
            sizes=found.sizes,
            domination=found.domination,
            links=found.links,
            tactics_total=data.TACTICS_DECK.value,
            dealt=(False,) * players,
            contenders=tuple(range(players)),
            deck=found.sizes,
            lineup=(0,) * len(CONTINENTS),
            tactics_deck=sum(data.TACTICS_DECK.value),
            discard=(0,) * len(TACTICS),
            coins=(NOBODY,) * len(CONTINENTS),
            seat_names=exact_seat_names(started.players),
            worlds=first_world(data.TACTICS_DECK.value, players),
            reshuffle_when_empty=found.readings["reshuffle"] == "when-empty",
            expand_cards_active=found.readings["expand-cards"] == "active",
            stop_after_win=found.readings["after-win"] == "stop",
            protocol=protocol_version(self.title, started.rules_version, RULES_VERSIONS),
        )

    # -- the fold ------------------------------------------------------------------------------

    def step(self, state: State, actor: str, event: Event) -> State:
        return step(state, actor_seat(state, actor), event)

    def complete(self, state: State, actor: str, event: Event, rng: random.Random) -> Event:
        """Names in their stored spelling; dice left empty rolled from ``rng``."""
        event = canonical(state, event)
        if isinstance(event, RolledOff) and not event.dice and state.phase == "roll-off":
            return replace(event, dice=dice.roll(rng, len(state.contenders)))
        if isinstance(event, Rolled) and not (event.attacker and event.defender):
            rolling = resolve_roll(prepare(state, event))
            if rolling.battle is not None:
                attack, defend = dice_allowed(rolling, rolling.battle)
                return replace(
                    event,
                    attacker=event.attacker or dice.roll(rng, attack),
                    defender=event.defender or dice.roll(rng, defend),
                )
        return event

    # -- what the table sees -------------------------------------------------------------------

    def turn(self, state: State) -> TurnInfo:
        """Turn, round, a short phase name and who is expected to act next.

        Cheap (no legal-action search): replay and the catalog ask it at every event. Players
        who *may* act out of turn (Canceled Orders, a helper's troops) are not listed as active;
        ``legal_actions`` names them.
        """
        phase, seats = expected_now(state)
        if phase == "setup":
            return TurnInfo(turn=0, round=0, phase=state.phase, active=(TABLE,),
                            detail=phase_words(state))
        active = tuple(state.name(seat) for seat in seats)
        return TurnInfo(turn=state.turn, round=state.round, phase=phase, active=active,
                        detail=phase_words(state))

    def result(self, state: State) -> Result | None:
        if state.winner == NOBODY:
            return None
        who = state.name(state.winner)
        coins = " and ".join(title(CONTINENTS[c]) for c in coins_of(state, state.winner))
        return Result(winners=(who,), reason=f"{who} holds two domination coins: {coins}")

    def legal_actions(self, state: State) -> tuple[ActionSpec, ...]:
        return legal_actions(state)

    def figures(self, state: State) -> list[dict[str, Any]]:
        return [seat_figures(state, s) for s in range(len(state.seats))]

    def extra(self, state: State) -> dict[str, Any]:
        return {
            "order": [state.name(s) for s in state.order],
            "turn_player": state.name(state.current) if state.current != NOBODY else None,
            "continent_deck": per_continent(state.deck),
            "continent_deck_size": sum(state.deck),
            "lineup": per_continent(state.lineup),
            "tactics_deck": state.tactics_deck,
            "discard": per_card(state.discard),
            "discard_size": sum(state.discard),
            "reshuffles": state.reshuffles,
            "unseen": {card: unseen(state, k) for k, card in enumerate(TACTICS)},
            "coins": {
                c: (state.name(holder) if holder != NOBODY else None)
                for c, holder in zip(CONTINENTS, state.coins, strict=True)
            },
            "continents": continent_data(state),
            "battle": battle_figures(state, state.battle) if state.battle else None,
            "pending": pending_figures(state),
            "expand_owed": state.expand_owed,
            "rolloffs": [list(roll) for roll in state.rolloffs],
        }

    def bot_action(self, state: State, rng: random.Random) -> tuple[str, Event] | None:
        from tabletape.rules.risk_strike import (
            bot,  # the bot is not needed to record or replay a game
        )

        return bot.choose(state, rng)


# -- actors and names ------------------------------------------------------------------------------


def actor_seat(state: State, actor: str) -> int:
    """The seat of the actor, or ``NOBODY`` for the table."""
    exact = state.seat_names  # the fold's fast path: a stored actor is spelled as seated
    if actor in exact:
        return exact.index(actor)
    return seat_named(actor, players(state), table=True)


def canonical(state: State, event: Event) -> Event:
    """The event with names spelled as stored: seat names, full continent and card names."""
    match event:
        case Dealt():
            return replace(
                event,
                player=player_name(state, event.player),
                continents=continents(event.continents),
                tactics=cards(event.tactics),
            )
        case Drew():
            return replace(
                event,
                continents=continents(event.continents),
                lineup=continents(event.lineup),
                tactics=cards(event.tactics),
            )
        case Attacked():
            return replace(
                event,
                from_=continents((event.from_,))[0],
                target=continents((event.target,))[0],
                defender=player_name(state, event.defender),
            )
        case Deployed():
            return replace(event, side=player_name(state, event.side))
        case Played():
            return replace(
                event,
                card=cards((event.card,))[0],
                target=player_name(state, event.target),
                side=player_name(state, event.side),
            )
        case Resolved() if event.lost:
            return replace(event, lost=tuple(player_name(state, name) for name in event.lost))
        case Passed() if event.drew:
            return replace(event, drew=cards((event.drew,))[0])
    return event


def player_name(state: State, text: str) -> str:
    """The stored spelling of a typed player name; another word (a side: ``attacker``) folded."""
    word = text.strip().casefold()
    seat = None if word in dice.BATTLE_SIDES else seat_of(state, text)
    return state.name(seat) if seat is not None else word


def continents(texts: Sequence[str]) -> tuple[str, ...]:
    found = (continent_of(text) for text in texts)
    return tuple(CONTINENTS[c] if c is not None else t for c, t in zip(found, texts, strict=True))


def cards(texts: Sequence[str]) -> tuple[str, ...]:
    found = (card_of(text) for text in texts)
    return tuple(
        TACTICS[k] if k is not None else t.strip() for k, t in zip(found, texts, strict=True)
    )


# -- figures ---------------------------------------------------------------------------------------


def per_continent(counts: Sequence[int]) -> dict[str, int]:
    return dict(zip(CONTINENTS, counts, strict=True))


def per_card(counts: Sequence[int]) -> dict[str, int]:
    return {card: n for card, n in zip(TACTICS, counts, strict=True) if n}


def seat_figures(state: State, seat: int) -> dict[str, Any]:
    cards_in_front = state.seats[seat]
    return {
        "name": cards_in_front.name,
        "continents": per_continent(cards_in_front.continents),
        "continent_cards": sum(cards_in_front.continents),
        "coins": [CONTINENTS[c] for c in coins_of(state, seat)],
        "hand": cards_in_front.hand,
        "known": per_card(cards_in_front.known),
        "unknown": cards_in_front.unknown,
        "first": bool(state.order) and state.order[0] == seat,
        "turn": state.current == seat,
    }


def mark(value: Any, fact: data.Fact) -> str:
    """The provenance of a value in force: its data mark, or ``table`` when overridden."""
    return fact.mark if value == fact.value else "table"


def continent_data(state: State) -> dict[str, dict[str, Any]]:
    """Sizes, domination numbers and links in force, each with its mark."""
    result = {}
    for c, name in enumerate(CONTINENTS):
        links = tuple(CONTINENTS[i] for i in state.links[c][1:])
        result[name] = {
            "cards": state.sizes[c],
            "cards_mark": mark(state.sizes[c], data.SIZES[name]),
            "domination": state.domination[c],
            "domination_mark": mark(state.domination[c], data.DOMINATION[name]),
            "links": list(links),
            "links_mark": mark(links, data.LINKS[name]),
        }
    return result


def dice_figures(roll: Dice | None) -> dict[str, Any] | None:
    if roll is None:
        return None
    return {
        "attacker": list(roll.attacker),
        "defender": list(roll.defender),
        "attacker_bonus": roll.attacker_bonus,
        "defender_bonus": roll.defender_bonus,
        "winners": list(roll.winners),
    }


def battle_figures(state: State, battle: Battle) -> dict[str, Any]:
    return {
        "attacker": state.name(battle.attacker),
        "defender": state.name(battle.defender),
        "from": CONTINENTS[battle.source],
        "target": CONTINENTS[battle.target],
        "attacking_cards": battle.attack_cards,
        "defending_cards": battle.defend_cards,
        "troops": [{"owner": state.name(t.owner), "side": t.side} for t in battle.troops],
        "step": battle.step,
        "rolls": battle.rolls,
        "roll": dice_figures(battle.roll),
        "last": dice_figures(battle.last),
    }


def pending_figures(state: State) -> dict[str, Any] | None:
    pending = state.pending
    if pending is None:
        return None
    return {
        "player": state.name(pending.player),
        "card": TACTICS[pending.card],
        "target": state.name(pending.target) if pending.target != NOBODY else None,
        "side": pending.side or None,
        "die": pending.die or None,
        "troops": pending.troops or None,
        "canceled_orders": pending.cancels,
        "canceled": pending.canceled,
    }


def expected_now(state: State) -> tuple[str, tuple[int, ...]]:
    """The phase's short name and the seats expected to act in it.

    >>> # phases: setup, draw, expand draw, attack or pass, card played, battle: deploy,
    >>> # battle: roll, battle: dice rolled, battle: roll again or retreat, over
    """
    if state.phase == "over":
        return "over", ()
    if state.turn == 0:
        return "setup", ()
    me = (state.current,)
    if state.pending is not None:
        return "card played", me
    if state.expand_owed:
        return "expand draw", me
    if state.phase in ("draw", "act"):
        return ("draw" if state.phase == "draw" else "attack or pass"), me
    battle = state.battle
    if battle is None:
        return state.phase, me
    if battle.deploy_step in (ATTACKER_STEP, DEFENDER_STEP):
        own = battle.attacker if battle.deploy_step == ATTACKER_STEP else battle.defender
        return "battle: deploy", (own,)
    if battle.deploy_step == HELPERS_STEP:  # helpers may deploy; the attacker rolls next
        return "battle: deploy", (battle.attacker,)
    words = {"ready": "battle: roll", "rolled": "battle: dice rolled",
             "between": "battle: roll again or retreat"}
    return words[battle.step], (battle.attacker,)
