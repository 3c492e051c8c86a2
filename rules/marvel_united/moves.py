"""Check and apply in one pure step: each action yields the next state or raises
:class:`~tabletape.rules.kernel.IllegalAction` saying why, in table words.

The flow: ``setup``, a ``deal`` per hero, then villain turns (``villain-turn``) and hero turns
(``draw``, ``play``, actions, ``end``). Effects that need judgement wait in ``State.pending`` as
windows whose results are recorded and closed with ``done``; derived steps (placing Thugs and
Civilians) run by themselves (:func:`advance`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from msgspec.structs import replace

from tabletape.ledger.events import Event
from tabletape.rules import steps
from tabletape.rules.kernel import closest
from tabletape.rules.marvel_united import data, windows
from tabletape.rules.marvel_united.events import (
    Attacked,
    Damaged,
    Dealt,
    Discarded,
    Done,
    Drew,
    Ended,
    Gained,
    Heroic,
    Hit,
    Invulnerable,
    LocationEffect,
    Moved,
    Played,
    Plot,
    Relocated,
    Rescued,
    SetUp,
    Special,
    Spent,
    Swapped,
    Tokens,
    VillainTurn,
)
from tabletape.rules.marvel_united.state import (
    ATTACK,
    HEROIC,
    MOVE,
    NOBODY,
    SYMBOL_NAMES,
    WILD,
    Place,
    State,
    Step,
    Threat,
    Turn,
    adjacent,
    around,
    bump,
    card_names,
    card_of,
    has_special,
    kinds,
    last_hero_card,
    passes_by_itself,
    place_of,
    players,
    put,
    recorded_as_v1,
    seat_of,
    symbols_of,
    threat_here,
    window_words,
    with_hero,
    with_place,
    with_threat,
)
from tabletape.rules.seats import no_such_player, unknown
from tabletape.rules.steps import Steps, refuse, require_table

END = "end the turn"
LOCATION = "use a location effect"
VILLAIN_WINDOWS = ("threat-move", "bam", "overflow", "special", "ko-bam")
HERO_WINDOWS = ("hero-special", "location")
LOSSES = {
    "plot": "the villain's plot is complete",
    "deck": "a Masterplan card must be drawn from an empty deck",
    "cards": "a hero starts a turn with no cards",
}


# -- the step ----------------------------------------------------------------------------------


def step(state: State, actor: int, event: Event) -> State:
    """The state after ``actor`` (a seat, or ``NOBODY`` for the table) records ``event``."""
    if state.outcome:
        refuse(f"the game is over: {state.reason}")
    handler = HANDLERS.find(event)
    state = handler(state, actor, event)
    return judge(nothing_to_draw(advance(state)))


def judge(state: State) -> State:
    """Derived endings: the villain at 0 health, or the plot complete."""
    if state.outcome or not state.places:
        return state
    if state.health <= 0:
        title = data.VILLAINS[state.villain].title
        return over(replace(state, health=0), "won", f"the heroes defeated {title}")
    if state.plot == "fear" and state.fear >= state.plot_limit:
        return over(state, "lost", LOSSES["plot"], f"Fear reached {state.plot_limit}")
    if state.plot == "full-city" and all(p.free == 0 for p in state.places):
        return over(state, "lost", LOSSES["plot"], "every location is full")
    return state


def over(state: State, outcome: str, reason: str, detail: str = "") -> State:
    return replace(state, outcome=outcome, reason=reason, detail=detail, phase="over",
                   pending=())


# -- arguments in table words ------------------------------------------------------------------


def hero_arg(state: State, text: str) -> int:
    seat = seat_of(state, text)
    if seat is None:
        raise no_such_player(text, players(state), refusal=f"no hero called '{text}' plays")
    return seat


def place_arg(state: State, text: str) -> int:
    index = place_of(state, text)
    if index is None:
        raise unknown(f"'{text}' is not a location in play", text,
                      [p.name for p in state.places])
    return index


def card_arg(state: State, seat: int, text: str, where: str = "deck") -> int:
    """The card kind a typed name means; an unknown name is refused with the cards ``where``
    (:func:`.state.card_names`: the hand for a card played or discarded, the deck for a
    draw)."""
    hero = state.heroes[seat]
    kind = card_of(hero.hero, text)
    if kind is None:
        raise unknown(f"'{text}' is not a {data.HERO_TITLES[hero.hero]} card", text,
                      card_names(hero, where))
    return kind


def require_hero(state: State, actor: int, what: str) -> Turn:
    """The turn in progress, when ``actor`` is its hero and no effect is being resolved."""
    turn = state.turn
    if turn is None or state.phase not in ("draw", "play", "act"):
        refuse(f"nobody may {what} now: {phase_words(state)}")
    if actor != turn.seat:
        refuse(f"it is {state.name(turn.seat)}'s turn: only they may {what}",
               [state.name(turn.seat)])
    if state.pending:
        refuse_pending(state)
    return turn


def refuse_pending(state: State) -> NoReturn:
    """What must happen first: the third Mission's draws, or the effect being resolved."""
    if state.pending[0].kind == "mission-draw":
        owed = ", ".join(state.name(seat) for seat in mission_draws(state))
        refuse(f"the third Mission's cards are drawn first ({owed}: draw)", ["draw"])
    refuse(f"resolve {window_words(state.pending[0], state)} first (then 'done')", ["done"])


def require_phase(state: State, phase: str, what: str) -> None:
    """Refuse ``what`` unless the game is in ``phase``, saying what happens now instead."""
    steps.require_phase(state, phase, lambda: f"{what} is not possible now: {phase_words(state)}")


# -- setup -------------------------------------------------------------------------------------


def on_setup(state: State, actor: int, event: SetUp) -> State:
    """Setup: 6 Locations in a ring with their tokens, a Threat on each, the Masterplan deck,
    the villain at a location and the heroes at the opposite one."""
    require_table(state, actor, "the setup")
    require_phase(state, "setup", "setup")
    names = check_locations(state, event.locations)
    threats = check_threats(state, event.threats)
    start = event.start.strip().casefold()
    if start not in data.LOCATIONS:
        raise unknown(f"'{event.start}' is not a location", event.start, names)
    if start not in names:
        refuse(f"the villain starts at a location in play, not '{event.start}'", names)
    bam = flags(state, event.bam, threats, "bam", lambda t: t.bam)
    on_move = flags(state, event.on_move, threats, "on-move", lambda t: t.on_move)
    asks = threat_slots(state, event.slots, threats)
    places, cards = [], []
    for index, (name, threat) in enumerate(zip(names, threats, strict=True)):
        tile, card = data.LOCATIONS[name], data.THREATS[state.villain][threat]
        places.append(Place(name, tile.slots, tile.thugs, tile.civilians, threat=index))
        slots = "" if card.health else asks.get(threat, data.THREAT_SLOTS.value)
        cards.append(Threat(threat, index, card.health > 0, card.health, slots=slots,
                            bam=threat in bam, on_move=threat in on_move))
    named = "table" if event.bam is not None and event.on_move is not None else "I"
    at = names.index(start)
    opposite = (at + len(names) // 2) % len(names)
    heroes = tuple(replace(h, location=opposite) for h in state.heroes)
    return replace(state, places=tuple(places), threats=tuple(cards), villain_at=at,
                   heroes=heroes, deck=tuple(data.MASTERPLANS[state.villain]), phase="deal",
                   threat_flags=named)


def check_locations(state: State, names: Sequence[str]) -> list[str]:
    wanted = data.LOCATIONS_IN_PLAY.value
    found = [n.strip().casefold() for n in names]
    for name in found:
        if name not in data.LOCATIONS:
            raise unknown(f"'{name}' is not a location", name, tuple(data.LOCATIONS))
    twice = sorted({n for n in found if found.count(n) > 1})
    if twice:
        refuse(f"name {wanted} different locations, clockwise: {', '.join(twice)} is named "
               "twice", [n for n in data.LOCATIONS if n not in found])
    if len(found) != wanted:
        refuse(f"name {wanted} different locations, clockwise, not {len(found)}")
    if state.locations_option and found != list(state.locations_option):
        refuse("this game's options fix the locations", state.locations_option)
    return found


def check_threats(state: State, names: Sequence[str]) -> list[str]:
    deck = data.THREATS[state.villain]
    found = [n.strip().casefold() for n in names]
    for name in found:
        if name not in deck:
            refuse(f"'{name}' is not one of {data.VILLAINS[state.villain].title}'s Threats",
                   tuple(deck))
    if sorted(found) != sorted(deck):
        refuse(f"one Threat per location: all {len(deck)} of the villain's, each once")
    return found


def flags(state: State, given: Sequence[str] | None, threats: Sequence[str], what: str,
          default: Callable[[data.Threat], bool]) -> set[str]:
    deck = data.THREATS[state.villain]
    if given is None:
        return {t for t in threats if default(deck[t])}
    found = {name.strip().casefold() for name in given}
    for name in found:
        if name not in deck:
            refuse(f"{what}: '{name}' is not a Threat in play", threats)
    return found


def threat_slots(state: State, given: Sequence[str], threats: Sequence[str]) -> dict[str, str]:
    """``threat:symbols`` as typed (``hydra-elite-troops:mma``): the symbols a Threat's slots
    ask for, when the card shows others than 3 Heroic."""
    deck = data.THREATS[state.villain]
    found: dict[str, str] = {}
    for entry in given:
        name, _, symbols = entry.strip().casefold().partition(":")
        letters = symbols.upper()
        if name not in threats or deck[name].health:
            refuse(f"slots: '{name}' is not a Threat in play cleared with action tokens",
                   [t for t in threats if not deck[t].health])
        if not letters or set(letters) - set(data.SYMBOLS[:WILD]):
            refuse(f"slots: '{entry}': the threat, ':' and one letter per slot: M Move, "
                   "A Attack, H Heroic (e.g. hydra-elite-troops:mma)")
        found[name] = letters
    return found


def on_deal(state: State, actor: int, event: Dealt) -> State:
    """Setup: 'Each player draws 3 cards from the top of their deck into their hand'."""
    require_table(state, actor, "the opening hands")
    require_phase(state, "deal", "dealing")
    seat = hero_arg(state, event.player)
    if state.heroes[seat].dealt:
        refuse(f"{state.name(seat)} has their opening hand",
               [h.player for h in state.heroes if not h.dealt])
    cards = [card_arg(state, seat, c) for c in event.cards]
    if len(cards) != data.OPENING_HAND.value:
        refuse(f"{state.name(seat)} draws {data.OPENING_HAND.value} cards, not {len(cards)}")
    state = draw_cards(state, seat, cards)
    state = with_hero(state, seat, replace(state.heroes[seat], dealt=True))
    if all(h.dealt for h in state.heroes):
        state = replace(state, phase="villain")
    return state


def draw_cards(state: State, seat: int, cards: Sequence[int]) -> State:
    """Cards drawn from the top: the shuffled part first, then the bottom in its order."""
    hero = state.heroes[seat]
    deck, bottom, hand = list(hero.deck), list(hero.bottom), list(hero.hand)
    names = kinds(hero.hero)
    for kind in cards:
        if sum(deck):
            if not deck[kind]:
                left = [names[k] for k, n in enumerate(deck) if n]
                refuse(f"{hero.player}'s deck holds no '{names[kind]}' card now", left)
        elif not bottom:
            refuse(f"{hero.player}'s deck is empty")
        elif bottom[0] != kind:
            refuse(f"the next card of {hero.player}'s deck is the '{names[bottom[0]]}' put "
                   "under it", [names[bottom[0]]])
        if sum(deck):
            deck[kind] -= 1
        else:
            bottom.pop(0)
        hand[kind] += 1
    return with_hero(state, seat, replace(hero, deck=tuple(deck), bottom=tuple(bottom),
                                          hand=tuple(hand)))


# -- villain turns -------------------------------------------------------------------------------


def on_villain_turn(state: State, actor: int, event: VillainTurn) -> State:
    """Villain Turn: draw a Masterplan card, move 'clockwise (unless otherwise indicated)':
    a negative move is counterclockwise; then BaM!, Thugs/Civilians and the special effect."""
    require_table(state, actor, "the villain's turn")
    require_phase(state, "villain", "a villain turn")
    card = event.card.strip().casefold()
    if card not in state.deck:
        if not card and plays_shipped_faces(state) and typed_face(event):
            refuse(f"with the shipped deck a card's face follows the card: name the card "
                   f"(card=) with {' '.join(typed_face(event))}, or leave the face out too and "
                   "tabletape draws the card")
        if not card:
            refuse("name the Masterplan card drawn (card=) and record what the card shows",
                   state.deck)
        refuse(f"'{card}' is not in the Masterplan deck", state.deck)
    face = masterplan_face(state, card, event)
    move, thugs, civilians = face.move, face.thugs, face.civilians
    for what, values in (("thugs", thugs), ("civilians", civilians)):
        if len(values) != 3 or min(values) < 0:
            refuse(f"{what}: three numbers, for the location before the villain, his own and "
                   "the one after (e.g. 1,0,1)")
    ring = len(state.places)
    if not -ring <= move <= ring:
        refuse(f"move: -{ring} to {ring} locations (clockwise; negative: counterclockwise, as "
               f"a card may indicate), not {move}")
    at = (state.villain_at + move) % len(state.places)
    steps: list[Step] = []
    threat = threat_here(state, at)
    if move and threat is not None and threat.on_move:
        steps.append(Step("threat-move"))
    if face.bam:
        steps.append(Step("bam"))
    steps.append(Step("place", thugs=thugs, civilians=civilians))
    if face.special:
        steps.append(Step("special"))
    return replace(
        state, deck=tuple(c for c in state.deck if c != card),
        storyline=(*state.storyline, f"villain:{card}"), villain_at=at, pending=tuple(steps),
        phase="villain-resolving", since=0, rounds=state.rounds + 1, turns=state.turns + 1,
        turn=None,
    )


def masterplan_face(state: State, card: str, event: VillainTurn) -> data.MasterplanCard:
    """What the card shows, as recorded; what is left out comes from the shipped deck only
    when the table plays with it (its faces are placeholders)."""
    given = {"move": event.move, "bam": event.bam, "thugs": event.thugs or None,
             "civilians": event.civilians or None, "special": event.special}
    missing = [f"{name}=" for name, value in given.items() if value is None]
    if missing and state.masterplan_deck != "shipped":
        refuse(f"record what the card shows: {' '.join(missing)} (the shipped faces are "
               "placeholders; --option masterplan-deck=shipped plays with them)", missing)
    face = data.MASTERPLANS[state.villain][card]
    if plays_shipped_faces(state):
        refuse_other_face(card, face, event)
    special = face.special
    if event.special is not None:
        special = (face.special or card) if event.special else ""
    return data.MasterplanCard(
        face.move if event.move is None else event.move,
        face.bam if event.bam is None else event.bam,
        tuple(event.thugs) or face.thugs,
        tuple(event.civilians) or face.civilians,
        special,
    )


def plays_shipped_faces(state: State) -> bool:
    """Whether the table chose the shipped Masterplan faces (``masterplan-deck=shipped``): a
    card's face is then the shipped one. Version 1 logs, which have no such option, typed the
    faces they saw and are read as typed."""
    return state.masterplan_deck == "shipped" and not recorded_as_v1(state)


def typed_face(event: VillainTurn) -> list[str]:
    """The face fields a villain turn typed (``bam=``, ``thugs=``…)."""
    typed = {"move": event.move, "bam": event.bam, "thugs": event.thugs or None,
             "civilians": event.civilians or None, "special": event.special}
    return [f"{name}=" for name, value in typed.items() if value is not None]


def complete_villain(state: State, event: VillainTurn, rng: random.Random) -> VillainTurn:
    """A Masterplan card from the shipped deck (placeholders, I): drawn when none is named, and
    what it shows filled in where the event leaves it out. A face typed without its card is
    not completed when the table plays the shipped faces: the check refuses it (a face follows
    its card; a refusal naming the card drawn would show it unrecorded)."""
    if not event.card and plays_shipped_faces(state) and typed_face(event):
        return event
    card = event.card or (rng.choice(sorted(state.deck)) if state.deck else "")
    face = data.MASTERPLANS[state.villain].get(card.strip().casefold())
    if face is None:
        return replace(event, card=card)
    return replace(
        event, card=card,
        move=face.move if event.move is None else event.move,
        bam=face.bam if event.bam is None else event.bam,
        thugs=event.thugs or face.thugs, civilians=event.civilians or face.civilians,
        special=bool(face.special) if event.special is None else event.special,
    )


def shown(face: data.MasterplanCard) -> dict[str, str]:
    """A Masterplan card's face as a villain-turn types it."""
    return {"move": str(face.move), "bam": str(face.bam).lower(),
            "thugs": ",".join(map(str, face.thugs)),
            "civilians": ",".join(map(str, face.civilians)),
            "special": str(bool(face.special)).lower()}


def refuse_other_face(card: str, face: data.MasterplanCard, event: VillainTurn) -> None:
    """With ``masterplan-deck=shipped`` the table plays with the shipped faces (the option: "the
    table plays with the shipped faces"; README: "with --option masterplan-deck=shipped, empty:
    tabletape draws from the shipped placeholder faces"): a typed face field must be the card's
    own, or the log would store the card with a face it does not have."""
    wanted = shown(face)
    given = shown(data.MasterplanCard(
        face.move if event.move is None else event.move,
        face.bam if event.bam is None else event.bam,
        tuple(event.thugs) or face.thugs, tuple(event.civilians) or face.civilians,
        ("x" if event.special else "") if event.special is not None else face.special))
    other = [name for name in (field.rstrip("=") for field in typed_face(event))
             if given[name] != wanted[name]]
    if other:
        face_words = " ".join(f"{name}={value}" for name, value in wanted.items())
        typed_words = " ".join(f"{name}={given[name]}" for name in other)
        refuse(f"{card} shows {face_words} in the shipped deck this game plays with "
               f"(masterplan-deck=shipped), not {typed_words}: leave the face out (tabletape "
               "fills it) or type it as the card shows")


def place_tokens(state: State, placing: Step) -> State:
    """Place Thugs/Civilians: clockwise over the three locations, Thugs first at each; the
    tokens with no empty slot trigger the villain's overflow effect (once per location)."""
    overflows: list[Step] = []
    for index, thugs, civilians in zip(around(state, state.villain_at), placing.thugs,
                                       placing.civilians, strict=True):
        place = state.places[index]
        put_thugs = min(thugs, place.free)
        put_civilians = min(civilians, place.free - put_thugs)
        missing = thugs + civilians - put_thugs - put_civilians
        if missing:
            overflows.append(Step("overflow", count=missing, place=index,
                                  thugs=(thugs - put_thugs,),
                                  civilians=(civilians - put_civilians,)))
        state = with_place(state, index, replace(place, thugs=place.thugs + put_thugs,
                                                 civilians=place.civilians + put_civilians))
    return replace(state, pending=(*overflows, *state.pending))


def advance(state: State) -> State:
    """Run derived steps, pass the windows where nothing may be recorded (rules version 3:
    :func:`.windows.nothing_to_record`), and move on when nothing is left to resolve."""
    while state.pending:
        head, rest = state.pending[0], state.pending[1:]
        if head.kind == "place":
            state = place_tokens(replace(state, pending=rest), head)
        elif windows.nothing_to_record(state):
            state = replace(state, pending=rest)
        else:
            break
    if state.pending or state.outcome:
        return state
    if state.phase == "villain-resolving":
        return next_hero(state)
    if state.phase == "ending":
        return finish_turn(state)
    return state


def next_hero(state: State) -> State:
    """After a villain turn: the next hero clockwise, or the heroes choose who starts."""
    if state.last_seat == NOBODY:
        return replace(state, phase="draw", turn=None)
    return begin_turn(state, (state.last_seat + 1) % len(state.heroes))


def begin_turn(state: State, seat: int) -> State:
    """A hero's turn begins: they stand up, lose Invulnerable, and lose the game for the heroes
    if they have no cards in deck or hand."""
    hero = state.heroes[seat]
    state = with_hero(state, seat, replace(hero, ko=False, invulnerable=False))
    state = replace(state, turn=Turn(seat, stood_up=hero.ko), phase="draw",
                    turns=state.turns + 1)
    if not hero.hand_size and not hero.cards_in_deck:
        return over(state, "lost", LOSSES["cards"], f"{hero.player} has no cards")
    return state


def finish_turn(state: State) -> State:
    """Turn Sequence: a Masterplan card after every 3 Hero cards (2 when Under Pressure)."""
    assert state.turn is not None
    seat = state.turn.seat
    state = replace(state, last_seat=seat, turn=None)
    if state.since >= (2 if state.under_pressure else 3):
        if not state.deck:
            return over(state, "lost", LOSSES["deck"], "the Masterplan deck is empty")
        return replace(state, phase="villain")
    return begin_turn(state, (seat + 1) % len(state.heroes))


# -- hero turns --------------------------------------------------------------------------------


def on_draw(state: State, actor: int, event: Drew) -> State:
    """Draw Card: one card (up to 4 after a KO); fewer when the deck runs out. Also a draw an
    effect grants, or the third Mission's card."""
    window = state.pending[0] if state.pending else None
    if window is not None:
        return effect_draw(state, actor, event, window)
    if state.phase == "draw" and state.turn is None:
        if actor == NOBODY:
            refuse("the heroes choose who starts: that player draws",
                   [h.player for h in state.heroes])
        state = begin_turn(state, actor)
        if state.outcome:
            return state
    turn = require_hero(state, actor, "draw")
    require_phase(state, "draw", "drawing")
    hero = state.heroes[turn.seat]
    need = draw_need(state, turn)
    cards = [card_arg(state, turn.seat, c) for c in event.cards]
    if len(cards) != need:
        refuse(f"{hero.player} draws {need} card{'s' if need != 1 else ''}, not {len(cards)}")
    return replace(draw_cards(state, turn.seat, cards), phase="play")


def nothing_to_draw(state: State) -> State:
    """Draw Card: "If their deck runs out, the player simply doesn't draw a card": from rules
    version 3 a hero's turn whose draw takes no card (an empty deck, or 4 cards in hand after a
    KO) goes on to playing a card, with no ``draw`` typed."""
    turn = state.turn
    if (state.phase != "draw" or turn is None or state.pending or not passes_by_itself(state)
            or draw_need(state, turn)):
        return state
    return replace(state, phase="play")


def draw_need(state: State, turn: Turn) -> int:
    """Draw Card: 1 card, or up to 4 after a KO; fewer when the deck runs out."""
    hero = state.heroes[turn.seat]
    need = max(0, data.KO_DRAW.value - hero.hand_size) if turn.stood_up else 1
    return min(need, hero.cards_in_deck)


def effect_draw(state: State, actor: int, event: Drew, window: Step) -> State:
    if window.kind == "mission-draw":
        return mission_draw(state, actor, event)
    check_window_actor(state, actor, window)
    seat = hero_arg(state, event.hero) if event.hero else window.hero
    if seat == NOBODY:
        refuse("name the hero who draws (hero=NAME)", [h.player for h in state.heroes])
    cards = [card_arg(state, seat, c) for c in event.cards]
    target_hero(state, seat)
    if not cards:
        refuse("name the cards drawn")
    return counted(state, draw_cards(state, seat, cards), event)


def mission_draws(state: State) -> tuple[int, ...]:
    """The heroes still owed the third Mission's card: the draws at the head of the pending
    steps, taken in any order."""
    owed: list[int] = []
    for pending in state.pending:
        if pending.kind != "mission-draw":
            break
        owed.append(pending.hero)
    return tuple(owed)


def mission_draw(state: State, actor: int, event: Drew) -> State:
    """Completing Missions: the third lets 'all players ... immediately draw 1 card from their
    deck into their hand': each hero draws their own, in any order."""
    owed = mission_draws(state)
    names = [state.name(seat) for seat in owed]
    if recorded_as_v1(state):
        actor = v1_drawer(state, actor, event, owed)
    if actor == NOBODY:
        refuse("each hero draws their own third-Mission card (by=NAME)", names)
    if event.hero and hero_arg(state, event.hero) != actor:
        refuse(f"{state.name(actor)} draws their own third-Mission card, not "
               f"{state.name(hero_arg(state, event.hero))}'s", names)
    if actor not in owed:
        refuse(f"{state.name(actor)} is not owed a third-Mission card now (1 each, once)", names)
    cards = [card_arg(state, actor, c) for c in event.cards]
    if len(cards) != 1:
        refuse("the third Mission gives 1 card")
    index = state.pending.index(Step("mission-draw", hero=actor))
    return replace(draw_cards(state, actor, cards),
                   pending=(*state.pending[:index], *state.pending[index + 1:]))


def v1_drawer(state: State, actor: int, event: Drew, owed: tuple[int, ...]) -> int:
    """Who drew a third-Mission card in a version 1 log, where anyone could type it: the hero
    named (``hero=``), else the one who typed it, or the first owed when the table did."""
    if event.hero:
        return hero_arg(state, event.hero)
    return owed[0] if actor == NOBODY else actor


def on_play(state: State, actor: int, event: Played) -> State:
    """Play Card and Resolve Actions: this card's symbols and the previous Hero card's (even
    across a Masterplan card); the first Hero card has none to borrow."""
    turn = require_hero(state, actor, "play a card")
    require_phase(state, "play", "playing a card")
    seat = turn.seat
    hero = state.heroes[seat]
    kind = card_arg(state, seat, event.card, "hand")
    if not hero.hand[kind]:
        held = [kinds(hero.hero)[k] for k, n in enumerate(hero.hand) if n]
        refuse(f"{hero.player} holds no '{kinds(hero.hero)[kind]}' card", held)
    symbols = symbols_of(hero.hero, kind)
    previous = last_hero_card(state)
    if previous is not None:
        other = symbols_of(state.heroes[previous[0]].hero, previous[1])
        symbols = tuple(a + b for a, b in zip(symbols, other, strict=True))
    hero = replace(hero, hand=bump(hero.hand, kind, -1), played=bump(hero.played, kind))
    state = with_hero(state, seat, hero)
    turn = replace(turn, card=kind, symbols=symbols, special=has_special(hero.hero, kind))
    return replace(state, turn=turn, phase="act", since=state.since + 1,
                   storyline=(*state.storyline, f"{hero.player}:{kinds(hero.hero)[kind]}"))


def spend(state: State, symbol: int, token: bool) -> State:
    """Use one symbol: the cards' own first, then a Wild, then an Action token (own, then
    Wild); ``token`` spends a token even while the cards have symbols."""
    turn = state.turn
    assert turn is not None
    if not token:
        for use in (symbol, WILD):
            if turn.symbols[use]:
                return replace(state, turn=replace(turn, symbols=bump(turn.symbols, use, -1)))
    hero = state.heroes[turn.seat]
    for use in (symbol, WILD):
        if hero.tokens[use]:
            return with_hero(state, turn.seat, replace(hero, tokens=bump(hero.tokens, use, -1)))
    refuse(f"no {SYMBOL_NAMES[symbol].title()} symbol left (nor a Wild, nor an Action "
           f"token); left: {available_words(state) or 'nothing'}")


def available_words(state: State) -> str:
    """The symbols and Action tokens the active hero has left (``1 Attack symbol, 1 Wild
    token``)."""
    turn = state.turn
    assert turn is not None
    hero = state.heroes[turn.seat]
    found = [f"{n} {SYMBOL_NAMES[s].title()} {what}{'s' if n != 1 else ''}"
             for what, counts in (("symbol", turn.symbols), ("token", hero.tokens))
             for s, n in enumerate(counts) if n]
    return ", ".join(found)


def acting(state: State, actor: int, what: str) -> Turn:
    """The turn in progress, in its Resolve Actions step (or its Location Effect step, for
    ``end``)."""
    turn = require_hero(state, actor, what)
    require_phase(state, "act", what)
    if turn.location_used and what not in (END, LOCATION):
        refuse(f"the Location effect is the last step of a turn: {state.name(turn.seat)} may "
               f"not {what} after it, only end the turn", ["end"])
    return turn


def on_move(state: State, actor: int, event: Moved) -> State:
    """Move: to an adjacent Location, in any direction."""
    seat = acting(state, actor, "move").seat
    to = place_arg(state, event.to)
    here = state.heroes[seat].location
    near = [state.places[i].name for i in around(state, here) if i != here]
    if to == here:
        refuse(f"{state.name(seat)} is at {state.places[here].name} already: a Move goes to an "
               "adjacent Location", near)
    if not adjacent(state, here, to):
        refuse(f"{state.places[to].name} is not next to {state.places[here].name}", near)
    state = spend(state, MOVE, event.token)
    return with_hero(state, seat, replace(state.heroes[seat], location=to))


def on_attack(state: State, actor: int, event: Attacked) -> State:
    """Attack: 1 damage to an enemy here: a Thug, a Henchman, the villain (after 2 Missions)."""
    seat = acting(state, actor, "attack").seat
    here = state.heroes[seat].location
    target = event.target.strip().casefold()
    allowed = attack_targets(state, here)
    if target not in ENEMIES:
        close = closest(target, ENEMIES)
        refuse(f"'{target}' is not an enemy to attack"
               f"{f' (did you mean {close!r}?)' if close else ''}: {', '.join(ENEMIES)}",
               allowed)
    if target == "villain" and target not in allowed:
        refuse(villain_guarded(state, here), allowed)
    if target == "crisis":
        require_crisis_open(state, here)
    if target not in allowed:
        refuse(f"no {target} to attack at {state.places[here].name}", allowed)
    if event.survives:
        thug_survives(state, here, target)
    state = spend(state, ATTACK, event.token)
    if target == "thug":
        state = state if event.survives else remove_tokens(state, here, thugs=1, mission=True)
    elif target == "henchman":
        state = hurt_henchman(state, state.places[here].threat, 1)
    elif target == "villain":
        state = replace(state, health=state.health - 1)
    else:
        state = with_place(state, here, replace(state.places[here],
                                                crisis=state.places[here].crisis - 1))
    return state


HEROIC_TARGETS = ("threat", "crisis")
"""What ``heroic target=`` names besides rescuing (``rescue``): the Threat here, or a Crisis
token (Taskmaster's rule)."""
ENEMIES = ("thug", "henchman", "villain", "crisis")
"""What ``attack target=`` names (a Crisis token: Taskmaster's rule)."""


def attack_targets(state: State, here: int) -> tuple[str, ...]:
    place = state.places[here]
    threat = threat_here(state, here)
    found = []
    if place.thugs:
        found.append("thug")
    if threat is not None and threat.henchman:
        found.append("henchman")
    if state.villain_at == here and state.damageable:
        found.append("villain")
    if crisis_open(state, here):
        found.append("crisis")
    return tuple(found)


def thug_survives(state: State, here: int, target: str) -> None:
    """Attack: a Thug 'is eliminated upon receiving 1 damage (unless a Threat card in its
    Location says otherwise)': ``survives=true`` only for a Thug, where a Threat card is."""
    if target != "thug":
        refuse("survives=true is for a Thug that a Threat card keeps in play", ["thug"])
    if threat_here(state, here) is None:
        refuse(f"a Thug is eliminated upon receiving 1 damage: no Threat at "
               f"{state.places[here].name} says otherwise")


def villain_guarded(state: State, here: int) -> str:
    """Why the villain cannot be attacked here, in the rulebook's words."""
    if not state.damageable:
        return undamageable(state)
    return (f"{data.VILLAINS[state.villain].title} is not at {state.places[here].name} but at "
            f"{state.places[state.villain_at].name}: an Attack hits an enemy here")


def undamageable(state: State) -> str:
    """Why the villain cannot be damaged yet: the Missions, or Taskmaster's Crisis tokens."""
    if len(state.completed) < 2:
        return (f"Only after resolving 2 Missions, Heroes can attack the Villain directly "
                f"({len(state.completed)} complete)")
    return (f"{data.VILLAINS[state.villain].title} cannot be damaged while a Crisis token is "
            "out (the dashboard, C)")


def crisis_open(state: State, here: int) -> bool:
    """Taskmaster: a Heroic or Attack where there are no Civilians or Thugs discards a Crisis."""
    place = state.places[here]
    return state.villain == "taskmaster" and place.crisis > 0 and not place.thugs + place.civilians


def require_crisis_open(state: State, here: int) -> None:
    if not crisis_open(state, here):
        refuse("a Crisis token is discarded only by Taskmaster's rule: at a location with "
               "a Crisis token and no Civilians or Thugs")


def on_rescue(state: State, actor: int, event: Rescued) -> State:
    """Heroic Action: rescue 1 Civilian here; it goes to its Mission (or the pool)."""
    seat = acting(state, actor, "rescue").seat
    here = state.heroes[seat].location
    if not state.places[here].civilians:
        refuse(f"no Civilian to rescue at {state.places[here].name}")
    state = spend(state, HEROIC, event.token)
    return remove_tokens(state, here, civilians=1, mission=True)


def on_heroic(state: State, actor: int, event: Heroic) -> State:
    """Heroic Action: a Heroic token on an empty slot of the Threat here; 3 clear it."""
    seat = acting(state, actor, "place a Heroic token").seat
    here = state.heroes[seat].location
    target = event.target.strip().casefold()
    if target not in HEROIC_TARGETS:
        windows.typo(state, f"'{target}' is not something a Heroic Action targets: "
                     f"{', '.join(HEROIC_TARGETS)}", HEROIC_TARGETS)
    if target == "crisis":
        require_crisis_open(state, here)
        state = spend(state, HEROIC, event.token)
        return with_place(state, here, replace(state.places[here],
                                               crisis=state.places[here].crisis - 1))
    return fill_slot(state, here, HEROIC, event.token)


def on_spend(state: State, actor: int, event: Spent) -> State:
    """Clear Threats: 'some Threats may display other types of actions that must be spent':
    a Move or Attack action on an empty slot asking for it (Heroic: ``heroic``)."""
    seat = acting(state, actor, "spend an action on a Threat").seat
    name = event.symbol.strip().casefold()
    here = state.heroes[seat].location
    threat = threat_here(state, here)
    if name == SYMBOL_NAMES[HEROIC] and threat is not None and "H" in threat.slots:
        refuse("a Heroic action on the Threat here is recorded with 'heroic'", ["heroic"])
    if name not in SYMBOL_NAMES[:WILD]:
        refuse(f"'{name}' is not an action a Threat's slot asks for", SYMBOL_NAMES[:HEROIC])
    return fill_slot(state, here, SYMBOL_NAMES.index(name), event.token)


def fill_slot(state: State, here: int, symbol: int, token: bool) -> State:
    """An action token on an empty slot of the Threat here that asks for ``symbol``; the
    Threat is cleared when no slot is empty."""
    threat = threat_here(state, here)
    if threat is None or threat.henchman:
        refuse(f"no Threat taking action tokens at {state.places[here].name}")
    letter = data.SYMBOLS[symbol]
    if letter not in threat.slots:
        asks = ", ".join(SYMBOL_NAMES[data.SYMBOLS.index(s)].title() for s in threat.slots)
        refuse(f"no {SYMBOL_NAMES[symbol].title()} slot open on {threat.name}: it asks for "
               f"{asks}", tuple(dict.fromkeys(slot_action(s) for s in threat.slots)))
    state = spend(state, symbol, token)
    index = state.places[here].threat
    threat = replace(threat, heroic=threat.heroic + 1, slots=threat.slots.replace(letter, "", 1))
    state = with_threat(state, index, threat)
    return clear_threat(state, index) if not threat.slots else state


def slot_action(letter: str) -> str:
    """What a table types to fill a Threat slot showing ``letter`` (M, A, H)."""
    name = SYMBOL_NAMES[data.SYMBOLS.index(letter)]
    return name if letter == "H" else f"spend symbol={name}"


def on_special(state: State, actor: int, event: Special) -> State:
    """Special Effect: only the card's owner, once; its results follow, then ``done``."""
    turn = acting(state, actor, "use a special effect")
    if not turn.special:
        refuse("the card played has no special effect left to use")
    return replace(state, turn=replace(turn, special=False),
                   pending=(Step("hero-special", hero=turn.seat),))


def on_location_effect(state: State, actor: int, event: LocationEffect) -> State:
    """Location Effect: once a turn, only where no Threat covers it."""
    turn = acting(state, actor, LOCATION)
    here = state.heroes[turn.seat].location
    if turn.location_used:
        refuse("a hero uses a single Location effect each turn")
    if threat_here(state, here) is not None:
        refuse(f"a Threat covers {state.places[here].name}'s End of Turn effect")
    if data.LOCATION_RESULTS[state.places[here].name].shuffle:
        state = shuffle_deck(state, turn.seat)
    return replace(state, turn=replace(turn, location_used=True),
                   pending=(Step("location", hero=turn.seat, place=here),))


def shuffle_deck(state: State, seat: int) -> State:
    """The whole deck shuffled: the cards put under it join the shuffled part."""
    hero = state.heroes[seat]
    deck = list(hero.deck)
    for kind in hero.bottom:
        deck[kind] += 1
    return with_hero(state, seat, replace(hero, deck=tuple(deck), bottom=()))


def on_end(state: State, actor: int, event: Ended) -> State:
    """The turn ends; a hero who played their last card is KO'd now."""
    turn = acting(state, actor, END)
    hero = state.heroes[turn.seat]
    state = replace(state, phase="ending")
    if not hero.hand_size and not hero.ko:
        state = knock_out(state, turn.seat)
    return state


# -- tokens, threats, missions -------------------------------------------------------------------


def remove_tokens(state: State, index: int, *, thugs: int = 0, civilians: int = 0,
                  mission: bool) -> State:
    place = state.places[index]
    state = with_place(state, index, replace(place, thugs=place.thugs - thugs,
                                             civilians=place.civilians - civilians))
    if mission:
        state = credit(state, "thugs", thugs)
        state = credit(state, "rescue", civilians)
    return state


def hurt_henchman(state: State, index: int, amount: int) -> State:
    threat = state.threats[index]
    threat = replace(threat, health=threat.health - amount)
    state = with_threat(state, index, threat)
    return clear_threat(state, index) if threat.health <= 0 else state


def clear_threat(state: State, index: int) -> State:
    """Clear Threats: the card leaves, uncovering the End of Turn effect; its Threat token goes
    to the Clear Threats Mission (or the pool)."""
    threat = state.threats[index]
    state = with_threat(state, index, replace(threat, cleared=True, heroic=0, health=0,
                                              slots=""))
    state = with_place(state, threat.place, replace(state.places[threat.place], threat=NOBODY))
    return credit(state, "threats", 1)


def credit(state: State, mission: str, count: int) -> State:
    """Tokens to a Mission's empty slots (the rest to the pool); a full Mission is complete."""
    which = data.MISSIONS.index(mission)
    if not count or mission in state.completed:
        return state
    filled = min(state.missions[which] + count, state.mission_slots[which])
    state = replace(state, missions=put(state.missions, which, filled))
    if filled < state.mission_slots[which]:
        return state
    state = replace(state, completed=(*state.completed, mission))
    if len(state.completed) == len(data.MISSIONS):
        draws = tuple(Step("mission-draw", hero=s) for s, h in enumerate(state.heroes)
                      if not h.ko and h.cards_in_deck)
        state = replace(state, pending=draws + state.pending)
    return state


def knock_out(state: State, seat: int) -> State:
    """KO: the hero is ignored by every effect, and the villain's BaM! resolves at once."""
    hero = state.heroes[seat]
    state = with_hero(state, seat, replace(hero, ko=True, invulnerable=False))
    return replace(state, pending=(Step("ko-bam", hero=seat), *state.pending))


# -- effect results ------------------------------------------------------------------------------


def window(state: State, actor: int, what: str) -> Step:
    """The window being resolved, when ``actor`` records its results."""
    if not state.pending:
        refuse(f"{what} is an effect's result: no effect is being resolved")
    head = state.pending[0]
    if head.kind == "mission-draw":
        refuse_pending(state)
    check_window_actor(state, actor, head)
    if what not in ("discard", "done"):
        require_cost(state, head)
    return head


def require_cost(state: State, head: Step) -> None:
    """An effect with a cost works only once the cost is paid (a cost is not damage)."""
    cost = windows.cost_first(state, head)
    if cost:
        place = data.LOCATIONS[state.places[head.place].name].title
        refuse(f"{place}'s effect costs {cost} card: discard a card first (discard cards=X), "
               "or 'done' to skip it", ["discard", "done"])


def check_window_actor(state: State, actor: int, head: Step) -> None:
    if head.kind in HERO_WINDOWS:
        if actor != head.hero:
            refuse(f"{state.name(head.hero)} records the results of their effect",
                   [state.name(head.hero)])
    elif actor != NOBODY:
        refuse(f"the table records the results of {window_words(head, state)}", ["table"])


def target_hero(state: State, seat: int) -> None:
    if state.heroes[seat].ko:
        refuse(f"{state.name(seat)} is KO'd: ignored by all effects")


def on_damage(state: State, actor: int, event: Damaged) -> State:
    """Hero Damage: one card from hand to the bottom of the deck per damage; the last card
    discarded KOs the hero. Invulnerable heroes take none."""
    window(state, actor, "damage")
    seat = hero_arg(state, event.hero)
    target_hero(state, seat)
    if state.heroes[seat].invulnerable:
        refuse(f"{state.name(seat)} is Invulnerable until their next turn")
    if not event.cards:
        refuse("name one card from hand per damage")
    return to_bottom(state, seat, event.cards)


def on_discard(state: State, actor: int, event: Discarded) -> State:
    """A cost an effect asks for (S.H.I.E.L.D. HQ: 'discard a card to the bottom of your
    deck'): not damage, so an Invulnerable hero pays it; the last card KOs (KO: 'If a Hero
    discards the last card in their hand, they are immediately KO'd')."""
    head = window(state, actor, "discard")
    seat = hero_arg(state, event.hero) if event.hero else head.hero
    if seat == NOBODY:
        refuse("name the hero who discards (hero=NAME)", [h.player for h in state.heroes])
    target_hero(state, seat)
    if seat != head.hero and windows.cost_first(state, head):
        refuse(f"the effect's cost is paid from {state.name(head.hero)}'s own hand",
               [state.name(head.hero)])
    if not event.cards:
        refuse("name the cards discarded from hand")
    return to_bottom(state, seat, event.cards)


def to_bottom(state: State, seat: int, names: Sequence[str]) -> State:
    """Cards from a hero's hand to the bottom of their deck, in order; the last one KOs."""
    hero = state.heroes[seat]
    cards = [card_arg(state, seat, c, "hand") for c in names]
    hand, bottom = list(hero.hand), list(hero.bottom)
    for kind in cards:
        if not hand[kind]:
            refuse(f"{hero.player} holds no '{kinds(hero.hero)[kind]}' card",
                   [kinds(hero.hero)[k] for k, n in enumerate(hand) if n])
        hand[kind] -= 1
        bottom.append(kind)
    state = with_hero(state, seat, replace(hero, hand=tuple(hand), bottom=tuple(bottom)))
    return state if sum(hand) else knock_out(state, seat)


def on_tokens(state: State, actor: int, event: Tokens) -> State:
    """Tokens an effect adds or removes; removed ones go to the pool unless defeated or
    rescued (``mission=true``). The supply is unlimited; slots are not."""
    head = window(state, actor, "tokens")
    mission = windows.to_mission(state, head, event)
    index = place_arg(state, event.location)
    place = state.places[index]
    thugs, civilians = place.thugs + event.thugs, place.civilians + event.civilians
    crisis = place.crisis + event.crisis
    if min(thugs, civilians, crisis) < 0:
        refuse(f"{place.name} holds {place.thugs} Thugs, {place.civilians} Civilians, "
               f"{place.crisis} Crisis tokens")
    if thugs + civilians > place.slots:
        refuse(f"{place.name} has {place.free} empty slots")
    if mission and max(event.thugs, event.civilians) > 0:
        refuse("only removed tokens (negative numbers) go to a Mission")
    state = with_place(state, index, replace(place, crisis=crisis))
    state = with_place(state, index, replace(state.places[index], thugs=thugs,
                                             civilians=civilians))
    if mission:
        state = credit(state, "thugs", -event.thugs)
        state = credit(state, "rescue", -event.civilians)
    return state


def on_hit(state: State, actor: int, event: Hit) -> State:
    """Health an effect removes: the villain only once damageable; a Henchman at a location."""
    window(state, actor, "hit")
    target = event.target.strip().casefold()
    if target == "villain":
        if event.amount > 0 and not state.damageable:
            refuse(undamageable(state))
        health = state.health - event.amount
        if not 0 <= health <= state.start_health:
            refuse(f"the villain has {state.health} of {state.start_health} health")
        return replace(state, health=health)
    if target != "henchman":
        refuse(f"'{target}' cannot be hit", ("villain", "henchman"))
    index = place_arg(state, event.location)
    threat = threat_here(state, index)
    if threat is None or not threat.henchman:
        refuse(f"no Henchman at {state.places[index].name}")
    if not 0 <= threat.health - event.amount <= data.THREATS[state.villain][threat.name].health:
        refuse(f"{threat.name} has {threat.health} health")
    return hurt_henchman(state, state.places[index].threat, event.amount)


def on_plot(state: State, actor: int, event: Plot) -> State:
    """The villain's track (Red Skull's Fear) moves; reaching its end completes the plot."""
    window(state, actor, "plot")
    if state.plot != "fear":
        refuse(f"{data.VILLAINS[state.villain].title} has no track")
    fear = min(state.plot_limit, state.fear + event.amount)
    if event.amount == 0 or fear < 0:
        refuse(f"Fear is {state.fear} of {state.plot_limit}")
    return replace(state, fear=fear)


def on_gain(state: State, actor: int, event: Gained) -> State:
    """Action tokens an effect gives; held until spent in a Resolve Actions step."""
    window(state, actor, "gain")
    seat = hero_arg(state, event.hero)
    target_hero(state, seat)
    tokens = state.heroes[seat].tokens
    for typed in event.tokens:
        name = typed.strip().casefold()
        if name not in SYMBOL_NAMES:
            refuse(f"'{typed}' is not an Action token", SYMBOL_NAMES)
        tokens = bump(tokens, SYMBOL_NAMES.index(name))
    return with_hero(state, seat, replace(state.heroes[seat], tokens=tokens))


def on_invulnerable(state: State, actor: int, event: Invulnerable) -> State:
    """Invulnerable: the hero cannot be damaged until their next turn."""
    window(state, actor, "invulnerable")
    seat = hero_arg(state, event.hero)
    target_hero(state, seat)
    if state.heroes[seat].invulnerable:
        windows.unchanged(state, f"{state.name(seat)} is Invulnerable already")
    return with_hero(state, seat, replace(state.heroes[seat], invulnerable=True))


def on_relocate(state: State, actor: int, event: Relocated) -> State:
    """An effect moves a hero to any location (the Helicarrier, for one)."""
    window(state, actor, "relocate")
    seat = hero_arg(state, event.hero)
    target_hero(state, seat)
    to = place_arg(state, event.to)
    if to == state.heroes[seat].location:
        windows.unchanged(state, f"{state.name(seat)} is at {state.places[to].name} already")
    return with_hero(state, seat, replace(state.heroes[seat], location=to))


def on_swap(state: State, actor: int, event: Swapped) -> State:
    """Stark Labs: swap a card in hand with one of the hero's own face-up Storyline cards."""
    head = window(state, actor, "swap")
    if head.kind != "location":
        refuse("only a Location's End of Turn effect (Stark Labs) swaps cards")
    seat = head.hero
    hero = state.heroes[seat]
    names = kinds(hero.hero)
    given = card_arg(state, seat, event.card, "hand")
    taken = card_arg(state, seat, event.storyline, "storyline")
    if not hero.hand[given]:
        refuse(f"{hero.player} holds no '{names[given]}' card",
               [names[k] for k, n in enumerate(hero.hand) if n])
    entry = f"{hero.player}:{names[taken]}"
    mine = [i for i, e in enumerate(state.storyline) if e == entry]
    if not mine or (event.at and event.at - 1 not in mine):
        refuse(f"no '{names[taken]}' card of {hero.player}'s "
               f"{'at that place ' if mine else ''}in the Storyline",
               [str(i + 1) for i in mine] or [e for e in state.storyline
                                              if e.startswith(f"{hero.player}:")])
    place = event.at - 1 if event.at else mine[-1]
    hand = bump(bump(hero.hand, given, -1), taken)
    played = bump(bump(hero.played, given), taken, -1)
    storyline = put_entry(state.storyline, place, f"{hero.player}:{names[given]}")
    state = with_hero(state, seat, replace(hero, hand=hand, played=played))
    return replace(state, storyline=storyline)


def put_entry(storyline: tuple[str, ...], index: int, entry: str) -> tuple[str, ...]:
    return (*storyline[:index], entry, *storyline[index + 1:])


def on_done(state: State, actor: int, event: Done) -> State:
    """The effect being resolved is over; the next one (or the turn) goes on."""
    windows.check_done(state, window(state, actor, "done"))
    return replace(state, pending=state.pending[len(windows.answered(state)):])


# -- words ---------------------------------------------------------------------------------------


def phase_words(state: State) -> str:
    if state.outcome:
        return state.reason
    if state.pending:
        head = state.pending[0]
        if head.kind == "mission-draw":
            owed = [state.name(seat) for seat in mission_draws(state)]
            if len(owed) == 1:
                return f"the third Mission: {owed[0]} draws 1 card"
            return f"the third Mission: {', '.join(owed)} draw 1 card each"
        who = f"{state.name(head.hero)}: " if head.hero != NOBODY else ""
        due = windows.still_owed(state)
        expected = f"; still expected: {windows.words(state, due)}" if due else ""
        effect = windows.effect_words(state, head) or window_words(head, state)
        return f"resolving {who}{effect}{expected}"
    if state.phase == "draw" and state.turn is None:
        return "the heroes choose who starts: that player draws"
    turn = state.turn
    who = state.name(turn.seat) if turn is not None else ""
    return {
        "setup": "the table sets up (setup)",
        "deal": "the table deals the opening hands (deal)",
        "villain": "the villain's turn: the table draws a Masterplan card (villain-turn)",
        "draw": f"{who} draws",
        "play": f"{who} plays a card",
        "act": f"{who} resolves actions, then ends the turn",
    }.get(state.phase, state.phase)


def result_step(handler: Callable[[State, int, Any], State]) -> Callable[[State, int, Any], State]:
    """A result handler that also counts the result in its window."""

    def run(state: State, actor: int, event: Any) -> State:
        return counted(state, handler(state, actor, event), event)

    return run


def counted(before: State, after: State, event: Event) -> State:
    """``after`` a result, once checked against the effect being resolved: counted and tallied
    in its window (which effects it set off, such as a KO's BaM!, may now precede)."""
    head = before.pending[0]
    tally = windows.check_result(before, head, event)
    if not after.pending or after.pending[-len(before.pending):][0] is not head:
        return after
    index = len(after.pending) - len(before.pending)
    steps = windows.answered(before)
    shares = windows.spread(before, steps, tally)
    bumped = tuple(replace(step, results=step.results + (1 if step is head else 0),
                           tally=step.tally + share)
                   for step, share in zip(steps, shares, strict=True))
    return replace(after, pending=(*after.pending[:index], *bumped,
                                   *after.pending[index + len(steps):]))


HANDLERS: Steps[State] = Steps("Marvel United", {
    SetUp: on_setup,
    Dealt: on_deal,
    VillainTurn: on_villain_turn,
    Drew: on_draw,
    Played: on_play,
    Moved: on_move,
    Attacked: on_attack,
    Rescued: on_rescue,
    Heroic: on_heroic,
    Spent: on_spend,
    Special: on_special,
    LocationEffect: on_location_effect,
    Ended: on_end,
    Damaged: result_step(on_damage),
    Discarded: result_step(on_discard),
    Tokens: result_step(on_tokens),
    Hit: result_step(on_hit),
    Plot: result_step(on_plot),
    Gained: result_step(on_gain),
    Invulnerable: result_step(on_invulnerable),
    Relocated: result_step(on_relocate),
    Swapped: result_step(on_swap),
    Done: on_done,
})
