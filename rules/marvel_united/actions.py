"""What may be recorded now, by whom, with which values: for prompts, errors and the bot."""

from __future__ import annotations

from tabletape.ledger.events import TABLE
from tabletape.rules.kernel import ActionSpec, FieldSpec
from tabletape.rules.marvel_united import data
from tabletape.rules.marvel_united.moves import (
    HERO_WINDOWS,
    attack_targets,
    crisis_open,
    draw_need,
    mission_draws,
)
from tabletape.rules.marvel_united.state import (
    ATTACK,
    HEROIC,
    MOVE,
    NOBODY,
    SYMBOL_NAMES,
    WILD,
    State,
    around,
    card_names,
    kinds,
    threat_here,
)
from tabletape.rules.marvel_united.windows import decided, named, result_types


def legal_actions(state: State) -> tuple[ActionSpec, ...]:
    """Every action type that may be recorded now, with its actors and fields."""
    if state.outcome:
        return ()
    if state.pending:
        return window_actions(state)
    if state.phase == "setup":
        return (setup_action(state),)
    if state.phase == "deal":
        waiting = tuple(h.player for h in state.heroes if not h.dealt)
        return (ActionSpec(type="deal", actors=(TABLE,), doc="3 cards (empty: tabletape draws)",
                           fields=(FieldSpec(name="player", kind="str", choices=waiting),
                                   cards_field(state, required=False))),)
    if state.phase == "villain":
        return (villain_turn(state),)
    return hero_actions(state)


def villain_turn(state: State) -> ActionSpec:
    """The villain's turn: with the shipped deck tabletape may draw the card (and fill its face);
    else the table names the card drawn and what it shows (left out, it is refused)."""
    shipped = state.masterplan_deck == "shipped"
    card = FieldSpec(name="card", kind="str", required=not shipped,
                     choices=tuple(sorted(state.deck)))
    doc = ("draw a Masterplan card (empty: tabletape draws)" if shipped else
           "the Masterplan card drawn and what it shows (move= bam= thugs= civilians= "
           "special=)")
    return ActionSpec(type="villain-turn", actors=(TABLE,), fields=(card,), doc=doc)


def cards_field(state: State, required: bool = True, seat: int = NOBODY,
                where: str = "deck", seats: tuple[int, ...] = (),
                reach: int = data.KO_DRAW.value) -> FieldSpec:
    """The cards the heroes (``seat``, else ``seats``, else all) may name: those a draw of
    ``reach`` cards may take from their deck, or those in their hand (``where="hand"``:
    damage, a cost)."""
    chosen = (seat,) if seat != NOBODY else seats or tuple(range(len(state.heroes)))
    names = tuple(dict.fromkeys(name for s in chosen
                                for name in card_names(state.heroes[s], where, reach)))
    return FieldSpec(name="cards", kind="list[str]", required=required, choices=names)




def setup_action(state: State) -> ActionSpec:
    threats = tuple(data.THREATS[state.villain])
    places = state.locations_option or tuple(data.LOCATIONS)
    fields = (
        FieldSpec(name="locations", kind="list[str]", required=False, choices=places,
                  doc="6, clockwise"),
        FieldSpec(name="threats", kind="list[str]", required=False, choices=threats,
                  doc="one per location, same order"),
        FieldSpec(name="start", kind="str", required=False, choices=places),
        FieldSpec(name="bam", kind="list[str]", required=False, choices=threats),
        FieldSpec(name="on-move", kind="list[str]", required=False, choices=threats),
        FieldSpec(name="slots", kind="list[str]", required=False, choices=tuple(
            t for t in threats if not data.THREATS[state.villain][t].health),
            doc="threat:symbols (e.g. hydra-elite-troops:mma) when not 3 Heroic"),
    )
    return ActionSpec(type="setup", actors=(TABLE,), fields=fields,
                      doc="empty fields: tabletape picks")


def hero_actions(state: State) -> tuple[ActionSpec, ...]:
    turn = state.turn
    if turn is None:
        players = tuple(h.player for h in state.heroes)
        return (ActionSpec(type="draw", actors=players, fields=(cards_field(state, False),),
                           doc="the hero who starts draws"),)
    who = (state.name(turn.seat),)
    if state.phase == "draw":
        return (ActionSpec(type="draw", actors=who,
                           fields=(cards_field(state, False, turn.seat,
                                               reach=draw_need(state, turn)),)),)
    hero = state.heroes[turn.seat]
    if state.phase == "play":
        held = tuple(kinds(hero.hero)[k] for k, n in enumerate(hero.hand) if n)
        return (ActionSpec(type="play", actors=who,
                           fields=(FieldSpec(name="card", kind="str", choices=held),)),)
    if turn.location_used:
        return (ActionSpec(type="end", actors=who, doc="the Location effect was the last step"),)
    token = FieldSpec(name="token", kind="bool", required=False, doc="spend an Action token")
    specs: list[ActionSpec] = []
    here = hero.location
    if can_spend(state, MOVE):
        near = tuple(state.places[i].name for i in around(state, here) if i != here)
        specs.append(ActionSpec(type="move", actors=who, fields=(
            FieldSpec(name="to", kind="str", choices=near), token)))
    targets = attack_targets(state, here)
    if can_spend(state, ATTACK) and targets:
        survives = FieldSpec(name="survives", kind="bool", required=False,
                             doc="the Thug stays, as a Threat here says")
        specs.append(ActionSpec(type="attack", actors=who, fields=(
            FieldSpec(name="target", kind="str", choices=targets), token,
            *((survives,) if "thug" in targets and threat_here(state, here) else ()))))
    slots = spendable_slots(state, here)
    if slots:
        specs.append(ActionSpec(type="spend", actors=who, doc="an action on the Threat here",
                                fields=(FieldSpec(name="symbol", kind="str", choices=slots),
                                        token)))
    if can_spend(state, HEROIC):
        if state.places[here].civilians:
            specs.append(ActionSpec(type="rescue", actors=who, fields=(token,)))
        heroic = heroic_targets(state, here)
        if heroic:
            specs.append(ActionSpec(type="heroic", actors=who, fields=(
                FieldSpec(name="target", kind="str", required=False, choices=heroic), token)))
    if turn.special:
        specs.append(ActionSpec(type="special", actors=who, doc="the card's own special"))
    if not turn.location_used and threat_here(state, here) is None:
        specs.append(ActionSpec(type="location-effect", actors=who))
    specs.append(ActionSpec(type="end", actors=who))
    return tuple(specs)


def heroic_targets(state: State, here: int) -> tuple[str, ...]:
    threat = threat_here(state, here)
    found = ["threat"] if threat is not None and "H" in threat.slots else []
    return tuple(found + (["crisis"] if crisis_open(state, here) else []))


def spendable_slots(state: State, here: int) -> tuple[str, ...]:
    """The Move and Attack actions the Threat here still asks for that the hero can spend now
    (a Heroic one is ``heroic``)."""
    threat = threat_here(state, here)
    if threat is None:
        return ()
    return tuple(SYMBOL_NAMES[s] for s in (MOVE, ATTACK)
                 if data.SYMBOLS[s] in threat.slots and can_spend(state, s))


def can_spend(state: State, symbol: int) -> bool:
    turn = state.turn
    assert turn is not None
    tokens = state.heroes[turn.seat].tokens
    return bool(turn.symbols[symbol] or turn.symbols[WILD] or tokens[symbol] or tokens[WILD])


def window_actions(state: State) -> tuple[ActionSpec, ...]:
    head = state.pending[0]
    heroes = tuple(h.player for h in state.heroes if not h.ko)
    places = tuple(p.name for p in state.places)
    if head.kind == "mission-draw":
        owed = mission_draws(state)
        who = tuple(state.name(seat) for seat in owed)
        cards = cards_field(state, False, seats=owed, reach=1)
        return (ActionSpec(type="draw", actors=who, fields=(cards,),
                           doc="the third Mission's card, each hero their own"),)
    who = (state.name(head.hero),) if head.kind in HERO_WINDOWS else (TABLE,)
    allowed = decided(state, head)

    def listed(*kinds: str) -> tuple[int, ...]:
        """Seats or places the data allows for these results (all, when the table judges)."""
        return tuple(range(len(state.heroes))) if allowed is None else named(allowed, kinds)

    def hero_field(*kinds: str, required: bool = True) -> FieldSpec:
        names = tuple(state.name(s) for s in listed(*kinds) if state.name(s) in heroes)
        return FieldSpec(name="hero", kind="str", required=required, choices=names)

    def hand_cards(*kinds: str) -> FieldSpec:
        return cards_field(state, where="hand", seats=listed(*kinds))

    token_places = (tuple(state.places[i].name for i in listed("thugs", "civilians", "crisis"))
                    if allowed is not None else places)
    place = FieldSpec(name="location", kind="str", choices=token_places)
    number = FieldSpec(name="amount", kind="int")
    specs = [
        ActionSpec(type="damage", actors=who, fields=(hero_field("damage"),
                                                      hand_cards("damage"))),
        ActionSpec(type="discard", actors=who, doc="a cost, not damage", fields=(
            hand_cards("discard"), hero_field("discard", required=False))),
        ActionSpec(type="tokens", actors=who, fields=(
            place, *(FieldSpec(name=n, kind="int", required=False)
                     for n in ("thugs", "civilians", "crisis")),
            FieldSpec(name="mission", kind="bool", required=False))),
        ActionSpec(type="hit", actors=who, fields=(
            FieldSpec(name="target", kind="str", choices=("villain", "henchman")),
            FieldSpec(name="amount", kind="int", required=False),
            FieldSpec(name="location", kind="str", required=False, choices=tuple(
                state.places[t.place].name for t in state.threats
                if t.henchman and not t.cleared)))),
        ActionSpec(type="gain", actors=who, fields=(
            hero_field("gain"), FieldSpec(name="tokens", kind="list[str]",
                                          choices=SYMBOL_NAMES))),
        ActionSpec(type="invulnerable", actors=who, fields=(hero_field("invulnerable"),)),
        ActionSpec(type="relocate", actors=who, fields=(
            hero_field("relocate"), FieldSpec(name="to", kind="str", choices=places))),
        ActionSpec(type="draw", actors=who, fields=(
            cards_field(state, seats=listed("draw")), hero_field("draw", required=False))),
        ActionSpec(type="done", actors=who, doc="the effect is resolved"),
    ]
    if state.plot == "fear":
        specs.insert(3, ActionSpec(type="plot", actors=who, fields=(number,)))
    if head.kind == "location":
        specs.insert(-1, swap_action(state, head.hero))
    accepted = result_types(state, head)
    return tuple(s for s in specs if s.type in accepted or s.type == "done")


def swap_action(state: State, seat: int) -> ActionSpec:
    """Stark Labs: a card in hand for one of the hero's Storyline cards."""
    hero = state.heroes[seat]
    names = kinds(hero.hero)
    held = tuple(names[k] for k, n in enumerate(hero.hand) if n)
    played = tuple(names[k] for k, n in enumerate(hero.played) if n)
    return ActionSpec(type="swap", actors=(hero.player,), fields=(
        FieldSpec(name="card", kind="str", choices=held),
        FieldSpec(name="storyline", kind="str", choices=played),
        FieldSpec(name="at", kind="int", required=False, doc="its place in the Storyline")))
