"""Phase 2, "Morph!" (T8), and upgrade cards played outside battle.

``morph`` flips the player's own leader (on the board). ``change`` turns a special zone with a
card's change icon: the player controls the zone itself, its open war factory or another zone of
its sector (A18); one card, one change; the card is then discarded and is not also used for its
upgrade ("You can use one or the other on your turn, not both"). A spinning zone goes to a
position (A8: any, or with ``rotation=step`` only the next one either way); a sliding zone opens
(a robot from the player's scrapheap goes in the war factory, a vehicle there exchanged for
3 robots when none is left; neither: it cannot open, A10) or closes (what stands in the
factory is crushed to its owners' scrapheaps, the leader too, A3).

``play`` in Phase 1 step B takes the cards whose timing on the board is ``phase-1`` (the
rulebook: "If you have any upgrade cards that give you bonus robots, you can play them now"):
``robots+N`` adds N robots, ``sector-bonus*K`` multiplies step C, ``table`` is recorded for the
table to apply. ``play`` in Phase 2 takes ``phase-2`` and ``any-time`` cards: the card is
recorded and discarded, and the table records what it did (``note``). A back-up card (effect
``back-up``, or a ``table`` card the table says is one) is played with its move, ``back-up
card=... from=... to=...`` (:func:`back_up`): the same move and connection rule as Phase 4
(:func:`.backup.move`), Optimus Prime in vehicle form left out, Phase 4's own back-up move
still to come.
``play`` in Phase 3 before an attack takes ``before-attack`` and ``any-time`` cards into
:attr:`State.played`, where the next attack finds its cards "for this attack"; during an attack
the attacker and the defender play theirs before a roll. An ``any-time`` card (the deck's
placeholders) is played on its player's turn in Phases 2 to 5 (Phase 1 takes only bonus-robot
cards, T3), the table noting what it did.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from tabletape.rules.kernel import ActionSpec, FieldSpec
from tabletape.rules.risk_transformers import backup, battle, data
from tabletape.rules.risk_transformers.events import BackedUp, Changed, Morphed, Played
from tabletape.rules.risk_transformers.reinforce import (
    BONUS_STEP,
    PHASE_WORDS,
    card_owed,
    close_bonus_step,
    placeable,
    receive,
    require_phase_one,
)
from tabletape.rules.risk_transformers.state import (
    EMPTY,
    TURN_PHASES,
    Receipt,
    State,
    Zone,
    card_called,
    controlled,
    put,
    scrap_units,
    sector_places,
    take_scrap_robots,
    unseen,
    with_seat,
    with_zone,
    zone_called,
)
from tabletape.rules.steps import refuse, require_turn

PHASE_TWO = "Phase 2: Morph!"
OPEN, CLOSED = "open", "closed"
STEP_ONE_TIMINGS = ("phase-1",)
"""Card timings playable in Phase 1 step B (the board's word on what gives bonus robots)."""
PHASE_TWO_TIMINGS = ("phase-2", "any-time")
"""Card timings playable in Phase 2 (back-up cards and what the table allows)."""
BACK_UP_EFFECTS = ("back-up", "table")
"""Card effects that may call for back-up in Phase 2: a back-up card, or a card the rules do
not know (the table says it is one)."""
PHASE_TWO_BACK_UP = "Calling for back-up (Phase 2)"
ANY_TIME = "any-time"
"""A card the table may play on its player's turn in any phase (and in battle)."""
ATTACK_TIMINGS = ("before-attack", "any-time")
"""Card timings the attacker plays in Phase 3, before declaring an attack or before a roll."""
DEFENCE_TIMINGS = ("before-defence", "any-time")
"""Card timings the defender plays during an attack, before a roll."""
PLAY_CARDS = "Phase 3: Play Cards"
BEFORE_ROLL = ("defend", "roll", "next")
"""The stages of an attack where cards may be played: before a roll (the first, or the next
when the attack continues), not while casualties are taken or after a capture."""

# -- cards -----------------------------------------------------------------------------------------


def discard(state: State, seat: int, card: str) -> State:
    """``card`` from ``seat``'s hand to the discard pile ("Whenever you play an upgrade card,
    place it faceup on the discard pile"); a card drawn face down and not known is revealed as
    it is played, if it can still be that card."""
    hand = list(state.seats[seat].hand)
    if card in hand:
        hand.remove(card)
    elif "" in hand and card in unseen(state):
        hand.remove("")
    else:
        refuse(f"{state.name(seat)} does not hold {card}",
               [c for c in hand if c], rule="Upgrade cards")
    state = with_seat(state, seat, hand=tuple(hand))
    return replace(state, discard=(*state.discard, card))


def play(state: State, seat: int, event: Played) -> State:
    """``play card=...``: an upgrade card for its upgrade, by phase (:data:`PLAYS`)."""
    player = PLAYS.get(state.phase)
    if player is None:
        refuse("upgrade cards are played (outside battle) in Phase 1 step B, Phase 2 and "
               "Phase 3 before an attack", rule="Play Cards: Each card tells you when to play it")
    return player(state, seat, event)


def play_bonus(state: State, seat: int, event: Played) -> State:
    """Phase 1 step B: "If you have any upgrade cards that give you bonus robots, you can play
    them now" (T3); Mass-Production's robots go to the pile at once, a sector-bonus card waits
    for step C."""
    require_phase_one(state, seat, "play a bonus card")
    card = card_called(state, event.card)
    if state.step != BONUS_STEP:
        refuse("bonus cards are played in Phase 1 step B, before any robot is placed",
               rule="Phase 1 B: Play Cards")
    if card.timing not in STEP_ONE_TIMINGS:
        refuse(f"{card.name} is not played in Phase 1 (its timing: {card.timing})",
               rule="Phase 1 B: only upgrade cards that give you bonus robots")
    state = replace(discard(state, seat, card.id), played=(*state.played, card.id))
    if card.effect.startswith("robots+"):
        state = receive(state, Receipt(card.id, int(card.effect.removeprefix("robots+"))))
    return state


def play_in_phase_two(state: State, seat: int, event: Played) -> State:
    """Phase 2: a back-up card or another card the table allows now, recorded and discarded;
    what it did is the table's to record (``note``)."""
    require_phase_two(state, seat, "play an upgrade card")
    card = card_called(state, event.card)
    if card.timing not in PHASE_TWO_TIMINGS:
        refuse(f"{card.name} is not played in Phase 2 (its timing: {card.timing})",
               rule=PHASE_TWO_BACK_UP)
    if card.effect == "back-up":
        refuse(f"{card.name} calls for back-up: record the move with it, back-up "
               f"card={card.id} from=ZONE to=ZONE robots=N", rule=PHASE_TWO_BACK_UP)
    return replace(discard(state, seat, card.id), played=(*state.played, card.id))


def back_up(state: State, seat: int, event: BackedUp) -> State:
    """``back-up``: Phase 4's move (:func:`.backup.back_up`), or in Phase 2 with ``card=``:
    "There are upgrade cards which allow you to call for back-up in Phase 2 before an attack.
    The rules for back-up are exactly the same as for this phase but you cannot move OPTIMUS
    PRIME in vehicle form".

    Readings: the card's move is its own, so Phase 4's back-up move is still to come (the card
    is the bonus); one card, one move; "cannot move OPTIMUS PRIME in vehicle form" keeps him
    out of the move (and his Phase 4 jump is not offered now); a card whose effect the rules do
    not know (``table``) may be the back-up card, as the table says."""
    if state.phase != "morph":
        return backup.back_up(state, seat, event)
    require_phase_two(state, seat, "call for back-up with a card")
    if not event.card:
        refuse("in Phase 2 back-up is called with an upgrade card: back-up card=... "
               "(Phase 4's back-up move comes later)", back_up_cards(state),
               rule=PHASE_TWO_BACK_UP)
    card = card_called(state, event.card)
    if card.effect not in BACK_UP_EFFECTS or card.timing not in PHASE_TWO_TIMINGS:
        refuse(f"{card.name} does not call for back-up in Phase 2", back_up_cards(state),
               rule=PHASE_TWO_BACK_UP)
    me = state.seats[seat]
    if event.leader and me.leader == data.OPTIMUS and me.form == data.VEHICLE:
        refuse("you cannot move OPTIMUS PRIME in vehicle form with a Phase 2 back-up",
               rule=PHASE_TWO_BACK_UP)
    moved = backup.move(state, seat, event, PHASE_TWO_BACK_UP)
    return replace(discard(moved, seat, card.id), played=(*moved.played, card.id))


def back_up_cards(state: State) -> list[str]:
    """The current player's cards that may call for back-up in Phase 2."""
    return [c for c in playable(state, PHASE_TWO_TIMINGS)
            if state.board.card(c).effect in BACK_UP_EFFECTS]


def play_before_attack(state: State, seat: int, event: Played) -> State:
    """Phase 3, between attacks: Play Cards, "The attacker and defender can play upgrade cards
    during the attack. Each card tells you when to play it": a ``before-attack`` (or
    ``any-time``) card goes to :attr:`State.played`, where the next attack takes the cards "for
    this attack" from. Cards once an attack is declared are the battle's."""
    if state.attack is not None:
        return play_in_battle(state, seat, event)
    require_turn(state, seat, state.current, "play a card before an attack")
    card = card_called(state, event.card)
    if card.timing not in ATTACK_TIMINGS:
        refuse(f"{card.name} is not played before an attack (its timing: {card.timing})",
               rule=PLAY_CARDS)
    return replace(discard(state, seat, card.id), played=(*state.played, card.id))


def play_in_battle(state: State, seat: int, event: Played) -> State:
    """Play Cards: "The attacker and defender can play upgrade cards during the attack", before
    a roll (:data:`BEFORE_ROLL`): the attacker a ``before-attack`` card, the defender a
    ``before-defence`` one (or either an ``any-time`` card). A card "for this attack" stays
    with the attack; the attacker's "this turn" card with the turn. Reading: the defender's
    cards count for the attack in progress only (the turn is the attacker's)."""
    fight = state.attack
    assert fight is not None
    if fight.stage not in BEFORE_ROLL:
        refuse("cards are played in an attack before a roll, not while it waits to "
               f"{battle.WAITS[fight.stage]}", rule=PLAY_CARDS)
    if seat not in (fight.attacker, fight.defender):
        refuse(f"only {state.name(fight.attacker)} and {state.name(fight.defender)} play cards "
               "in this attack", rule=PLAY_CARDS)
    card = card_called(state, event.card)
    timings = ATTACK_TIMINGS if seat == fight.attacker else DEFENCE_TIMINGS
    if card.timing not in timings:
        who = "the attacker" if seat == fight.attacker else "the defender"
        refuse(f"{card.name} is not played by {who} (its timing: {card.timing})",
               playable_in_battle(state, seat), rule=PLAY_CARDS)
    state = discard(state, seat, card.id)
    if seat == fight.attacker and card.lasts == "turn":
        return replace(state, played=(*state.played, card.id))
    return replace(state, attack=replace(fight, cards=(*fight.cards, card.id)))


def playable_in_battle(state: State, seat: int) -> list[str]:
    """``seat``'s cards it may play in the attack in progress now."""
    fight = state.attack
    if fight is None or fight.stage not in BEFORE_ROLL or seat not in (fight.attacker,
                                                                        fight.defender):
        return []
    timings = ATTACK_TIMINGS if seat == fight.attacker else DEFENCE_TIMINGS
    return list(dict.fromkeys(c for c in known_hand(state, seat)
                              if state.board.card(c).timing in timings))


def play_any_time(state: State, seat: int, event: Played) -> State:
    """An ``any-time`` card (the placeholders of a deck whose text is not known) on the
    player's turn in Phases 4 and 5 (2 and 3 take them too): recorded and discarded, what it
    did is the table's (``note``): "Otherwise the card has an instant effect. Do what it says,
    then put it faceup on the discard pile"."""
    require_turn(state, seat, state.current, "play a card")
    card = card_called(state, event.card)
    if card.timing != ANY_TIME:
        refuse(f"{card.name} is not played in {PHASE_WORDS[state.phase]} (its timing: "
               f"{card.timing})", rule=PLAY_CARDS)
    return replace(discard(state, seat, card.id), played=(*state.played, card.id))


PLAYS: dict[str, Callable[[State, int, Played], State]] = {
    "place": play_bonus,
    "morph": play_in_phase_two,
    "attack": play_before_attack,
    "back-up": play_any_time,
    "draw": play_any_time,
}
"""The card plays of each phase outside battle (cards during an attack are the battle's)."""

# -- Phase 2 ---------------------------------------------------------------------------------------


def require_phase_two(state: State, seat: int, what: str) -> None:
    if state.phase != "morph":
        refuse(f"{what} only in Phase 2 (Morph!)", rule=PHASE_TWO)
    require_turn(state, seat, state.current, what)


def morph(state: State, seat: int, event: Morphed) -> State:
    """Morph Your Leader: "Flip your leader over to change him from robot form to vehicle form
    or vice versa" (only while he is on the board)."""
    require_phase_two(state, seat, "morph the leader")
    me = state.seats[seat]
    if me.scrapped:
        refuse(f"{me.name}'s leader is on the scrapheap", rule=PHASE_TWO)
    return with_seat(state, seat, form="vehicle" if me.form == "robot" else "robot")


def change(state: State, seat: int, event: Changed) -> State:
    """Change a Special Zone: "Control the special zone itself or another zone in the same
    sector, AND Play an upgrade card with a change icon on it"."""
    require_phase_two(state, seat, "change a special zone")
    card = card_called(state, event.card)
    if not card.change:
        refuse(f"{card.name} has no change icon", rule=f"{PHASE_TWO}: Change a Special Zone")
    zone = state.places[zone_called(state, event.zone)]
    if zone not in (*state.board.spinning, *state.board.sliding):
        refuse(f"{zone} is not a spinning or sliding zone",
               [*state.board.spinning, *state.board.sliding], rule="Change a Special Zone")
    require_sector(state, seat, zone)
    state = discard(state, seat, card.id)  # first: a closing may put its player out (A18)
    return spin(state, zone, event.to) if zone in state.board.spinning else slide(
        state, seat, zone, event.to)


def require_sector(state: State, seat: int, zone: str) -> None:
    """Refuse unless ``seat`` controls ``zone`` or another zone of its sector (A18)."""
    sector = state.board.sector_of(zone)
    mine = {state.places[p] for p in controlled(state, seat)}
    if not mine.intersection(sector_places(state, sector)):
        refuse(f"{state.name(seat)} controls no zone of {zone}'s sector ({sector})",
               rule="Change a Special Zone: Control the special zone itself or another zone "
                    "in the same sector")


def spin(state: State, zone: str, to: str) -> State:
    """Rotate a spinning zone to position ``to`` (A8)."""
    index = state.board.spinning.index(zone)
    allowed = turns(state, zone)
    if to not in allowed:
        refuse(f"{zone} cannot turn to '{to}'", allowed, rule="Spinning Zones (A8)")
    return replace(state, positions=put(state.positions, index, to))


def turns(state: State, zone: str) -> list[str]:
    """The positions a spinning zone may turn to now: any other (A8 ``rotation=any``) or the
    next one either way (``rotation=step``)."""
    positions = list(state.board.positions(zone))
    now = state.positions[state.board.spinning.index(zone)]
    if state.settings.options.rotation == "any":
        return [p for p in positions if p != now]
    at = positions.index(now)
    return list(dict.fromkeys(p for p in (positions[at - 1], positions[(at + 1) % len(
        positions)]) if p != now))


def slide(state: State, seat: int, zone: str, to: str) -> State:
    """Open or close a sliding zone's war factory."""
    factory = state.board.factories[zone]
    is_open = factory in state.open_factories
    if to not in (OPEN, CLOSED):
        refuse(f"a sliding zone is changed to '{OPEN}' or '{CLOSED}', not '{to}'",
               [OPEN, CLOSED], rule="Sliding Zones")
    if (to == OPEN) == is_open:
        refuse(f"{zone} is already {to}", [CLOSED if is_open else OPEN], rule="Sliding Zones")
    return open_factory(state, seat, factory) if to == OPEN else close_factory(state, factory)


def open_factory(state: State, seat: int, factory: str) -> State:
    """"Open the zone to reveal a secret war factory. Place a robot from your scrapheap in the
    war factory" (a vehicle there exchanged for 3 robots when none is left,
    :func:`.state.take_scrap_robots`; neither: it cannot open, A10)."""
    if not scrap_units(state, seat):
        refuse(f"{state.name(seat)} has no robot on the scrapheap to put in the war factory",
               rule="Sliding Zones: Place a robot from your scrapheap in the war factory (A10)")
    state, _ = take_scrap_robots(state, seat, 1)
    state = replace(state, open_factories=(*state.open_factories, factory))
    return with_zone(state, state.place(factory), Zone(owner=seat, robots=1))


def close_factory(state: State, factory: str) -> State:
    """"Close the zone. Any robots on it are crushed and returned to their owner's scrapheap"
    (the leader too, A3); an owner left with nothing on the board is out ("Out of Robots!")."""
    place = state.place(factory)
    zone = state.zones[place]
    if zone.pieces:
        owner = state.seats[zone.owner]
        state = with_seat(state, zone.owner, scrap_robots=owner.scrap_robots + zone.robots,
                          scrap_vehicles=owner.scrap_vehicles + zone.vehicles,
                          scrapped=owner.scrapped or zone.leader)
    state = with_zone(state, place, EMPTY)
    state = replace(state, open_factories=tuple(f for f in state.open_factories if f != factory))
    return battle.eliminate(state, zone.owner) if zone.pieces else state

# -- what may be recorded now ----------------------------------------------------------------------


def turn_actions(state: State) -> tuple[ActionSpec, ...]:
    """The actions the current player may record now in Phases 1, 2, 4 and 5, and ``end``
    (not while robots are left to place or a Phase 5 card is owed)."""
    if state.phase not in TURN_PHASES:
        return ()
    if state.attack is not None:
        return battle_card_actions(state)
    actors = (state.name(state.current),)
    actions = [action(actors) for action in PHASE_ACTIONS.get(state.phase, no_actions)(state)]
    if (state.phase == "place" and to_place(state)) or card_owed(state):
        return tuple(actions)
    end = FieldSpec(name="turn", kind="bool", required=False, doc="end every phase left")
    return (*actions, ActionSpec(type="end", actors=actors, fields=(end,),
                                 doc="end this phase"))


Action = Callable[[tuple[str, ...]], ActionSpec]


def battle_card_actions(state: State) -> tuple[ActionSpec, ...]:
    """``play`` for the attacker and the defender holding cards for the attack in progress."""
    fight = state.attack
    assert fight is not None
    return tuple(card_action("play", tuple(cards), "a card for this attack")((state.name(seat),))
                 for seat in (fight.attacker, fight.defender)
                 if (cards := playable_in_battle(state, seat)))


def phase_one_actions(state: State) -> list[Action]:
    """Phase 1: cards in step B, placing, bringing the leader back."""
    me = state.seats[state.current]
    zones = FieldSpec(name="zone", kind="str", choices=tuple(placeable(state)))
    found: list[Action] = []
    if state.step == BONUS_STEP and playable(state, STEP_ONE_TIMINGS):
        found.append(card_action("play", playable(state, STEP_ONE_TIMINGS),
                                 "a bonus-robot card (Phase 1 B)"))
    if to_place(state):
        count = FieldSpec(name="count", kind="int", required=False, doc="robots (1)")
        found.append(lambda actors: ActionSpec(type="place", actors=actors,
                                               fields=(zones, count),
                                               doc="operational robots (Phase 1 E)"))
    if me.scrapped and me.operational >= data.LEADER_RETURN.value:
        form = FieldSpec(name="form", kind="str", required=False, choices=("robot", "vehicle"))
        found.append(lambda actors: ActionSpec(type="revive", actors=actors,
                                               fields=(zones, form),
                                               doc="bring the leader back for 3 robots"))
    return found


def to_place(state: State) -> int:
    """The operational robots the current player has to place in Phase 1, steps C and D
    counted while the turn is still at step B (they come with the first ``place`` or ``end``,
    so ``place`` is offered even when step A gave nothing)."""
    return close_bonus_step(state).seats[state.current].operational


def phase_two_actions(state: State) -> list[Action]:
    """Phase 2: morph, change a special zone, play a card."""
    me = state.seats[state.current]
    found: list[Action] = []
    if not me.scrapped:
        found.append(lambda actors: ActionSpec(type="morph", actors=actors,
                                               doc="flip the leader's form"))
    changers = tuple(c for c in known_hand(state) if state.board.card(c).change)
    if changers:
        special = (*state.board.spinning, *state.board.sliding)
        fields = (FieldSpec(name="card", kind="str", choices=changers),
                  FieldSpec(name="zone", kind="str", choices=special),
                  FieldSpec(name="to", kind="str", doc="a position, or open / closed"))
        found.append(lambda actors: ActionSpec(type="change", actors=actors, fields=fields,
                                               doc="a special zone with a change card"))
    others = tuple(c for c in playable(state, PHASE_TWO_TIMINGS)
                   if state.board.card(c).effect != "back-up")
    if others:
        found.append(card_action("play", others, "a card the table applies"))
    moving = back_up_action(state, tuple(back_up_cards(state)))
    if moving is not None:
        found.append(moving)
    return found


def back_up_action(state: State, cards: tuple[str, ...]) -> Action | None:
    """``back-up card=... from=... to=...``: a Phase 2 back-up card's move; None when no zone
    has a route (:func:`.backup.route_fields`)."""
    if not cards:
        return None
    card = FieldSpec(name="card", kind="str", choices=cards)
    fields = backup.route_fields(state, state.current, card)
    if not fields:
        return None
    return lambda actors: ActionSpec(type="back-up", actors=actors, fields=fields,
                                     doc="pieces to a connected zone, with a back-up card")


def phase_three_actions(state: State) -> list[Action]:
    """Phase 3 before an attack: a card to play (attacks are the battle's to offer)."""
    cards = playable(state, ATTACK_TIMINGS)
    return [card_action("play", cards, "a card before an attack")] if cards else []


def any_time_actions(state: State) -> list[Action]:
    """An ``any-time`` card to play (Phases 4 and 5)."""
    cards = playable(state, (ANY_TIME,))
    return [card_action("play", cards, "a card the table applies")] if cards else []


PHASE_ACTIONS: dict[str, Callable[[State], list[Action]]] = {
    "place": phase_one_actions, "morph": phase_two_actions, "attack": phase_three_actions,
    "back-up": lambda state: [*backup.phase_four_actions(state), *any_time_actions(state)],
    "draw": lambda state: [*backup.phase_five_actions(state), *any_time_actions(state)]}


def no_actions(state: State) -> list[Action]:
    return []


def known_hand(state: State, seat: int | None = None) -> tuple[str, ...]:
    """The current player's (or ``seat``'s) cards as known (a face-down unknown card may be
    any unseen one)."""
    hand = state.seats[state.current if seat is None else seat].hand
    known = tuple(c for c in hand if c)
    return known + (unseen(state) if "" in hand else ())


def playable(state: State, timings: tuple[str, ...]) -> tuple[str, ...]:
    """The current player's cards whose timing is one of ``timings``."""
    return tuple(dict.fromkeys(c for c in known_hand(state)
                               if state.board.card(c).timing in timings))


def card_action(kind: str, cards: tuple[str, ...], doc: str) -> Action:
    card = FieldSpec(name="card", kind="str", choices=cards)
    note = FieldSpec(name="note", kind="str", required=False, doc="what the table did")
    return lambda actors: ActionSpec(type=kind, actors=actors, fields=(card, note), doc=doc)
