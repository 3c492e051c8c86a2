"""Every rule of Risk: Deep Space as one pure ``step(state, seat, event)``.

``check`` runs ``step`` and throws the result away; ``apply`` returns it. A refusal raises
:class:`~tabletape.rules.kernel.IllegalAction` with the reason in table words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from msgspec.structs import replace

from tabletape.ledger.events import Event
from tabletape.ledger.text import plural
from tabletape.rules import dice, steps
from tabletape.rules.actions import quoted
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_deep_space import data
from tabletape.rules.risk_deep_space.events import (
    Battled,
    Built,
    Covered,
    Dealt,
    Drew,
    Ended,
    Mined,
    Moved,
    Passed,
    Played,
    Recruited,
    RolledOff,
    SentDog,
    Shielded,
    TradedCards,
)
from tabletape.rules.risk_deep_space.state import (
    CARDS,
    Battle,
    Dog,
    State,
    bases_built,
    card_called,
    card_index,
    dogs_at,
    mine_at,
    one_less,
    put,
    rollers,
    seat_called,
    set_recruits,
    shield_on,
    with_seat,
)
from tabletape.rules.seats import NOBODY, unknown
from tabletape.rules.steps import Steps, require_phase, require_table

DRAW, START, MINE, RECRUIT, ACT = range(5)
"""Stages of a turn: each action may come at its stage or earlier, and moves the turn on."""
STAGE_WORDS = ("draw", "trade cards or mine", "mine or trade cards", "recruit", "move and build")
RESOURCES = ("gem", "ore")

# -- setup -----------------------------------------------------------------------------------------


def deal(state: State, seat: int, event: Dealt) -> State:
    """Get Ready! 4: "deal each player two cards faceup"."""
    require_phase(state, "deal", "cards are dealt only during setup")
    require_table(state, seat, "the deal")
    target = seat_called(state, event.player)
    if state.seats[target].hand:
        waiting = [s.name for s in state.seats if not s.hand]
        raise IllegalAction(f"{state.name(target)} has been dealt already", allowed=waiting)
    if len(event.cards) != data.START_CARDS.value:
        raise IllegalAction(f"deal two cards face up, not {len(event.cards)}")
    return setup_done(draw_cards(state, target, event.cards))


def setup_done(state: State) -> State:
    """Get Ready! 4 and 5 in either order, and the roll for first player before or after them:
    the first turn begins once every player is dealt, the covers are on (two players) and the
    roll is decided."""
    if not all(s.hand for s in state.seats):
        return state
    if needs_covers(state):
        return replace(state, phase="cover")
    if not state.order:
        return replace(state, phase="roll-off", contenders=rollers(state))
    return begin_turn(replace(state, phase="turn"), state.order[0])


SETUP = ("deal", "cover", "roll-off")


def may_roll_off(state: State) -> bool:
    """The roll for first player is still to be decided (at any point of the setup)."""
    return state.phase in SETUP and not state.order


def needs_covers(state: State) -> bool:
    return len(state.seats) == 2 and not state.covered


def cover(state: State, seat: int, event: Covered) -> State:
    """Get Ready! 5: "For a 2-player game, cover either pair of opposing corner planets" (before
    or after the deal, step 4: a table lays out the board as it likes)."""
    if len(state.seats) != 2:
        raise IllegalAction(f"only a 2-player game covers planets; this one has "
                            f"{len(state.seats)} players")
    if state.phase not in ("deal", "cover") or state.covered:
        raise IllegalAction("the planet covers go on once, during setup, before the roll for "
                            "first player")
    require_table(state, seat, "the planet covers")
    board = state.board
    pairs = corner_pairs(state)
    for text in event.planets:
        if board.find(text) is None:
            raise unknown(f"no planet called '{text}' on this board", text,
                          [planet for pair in pairs for planet in pair])
    wanted = {board.find(text) or text for text in event.planets}
    if wanted not in [set(pair) for pair in pairs]:
        raise IllegalAction("cover a pair of opposing corner planets",
                            allowed=[",".join(pair) for pair in pairs])
    covered = tuple(sorted(board.index(space) for space in wanted))
    return setup_done(replace(state, covered=covered))


def corner_pairs(state: State) -> list[tuple[str, str]]:
    corners = set(state.board.tagged("corner"))
    return [pair for pair in state.board.opposites if set(pair) <= corners]


def roll_off(state: State, seat: int, event: RolledOff) -> State:
    """Get Ready!: "Each player rolls the dice. Whoever rolls highest goes first, and play moves
    to the left." Players tied for highest roll again."""
    if not may_roll_off(state):
        raise IllegalAction("the roll for first player is decided once, during setup")
    require_table(state, seat, "the roll-off")
    rolling = rollers(state)
    if len(event.dice) != len(rolling) or not dice.faces_fit(event.dice):
        who = ", ".join(state.name(s) for s in rolling)
        raise IllegalAction(f"roll one die each for {who}: {len(rolling)} faces from 1 to 6")
    best = max(event.dice)
    tied = tuple(s for s, d in zip(rolling, event.dice, strict=True) if d == best)
    state = replace(state, rolloffs=(*state.rolloffs, event.dice), contenders=tied)
    if len(tied) > 1:
        return state
    first = tied[0]
    players = len(state.seats)
    order = tuple((first + k) % players for k in range(players))
    return setup_done(replace(state, order=order, contenders=()))


# -- the turn --------------------------------------------------------------------------------------


def begin_turn(state: State, seat: int) -> State:
    """On Your Turn: draw first when holding fewer than two cards (and any are left). The
    player's Force Fields (``force-fields=shield``) go back by the board."""
    state = lift_shields(state, seat)
    turn = state.turn + 1
    short = len(state.seats[seat].hand) < data.HAND.value and cards_left(state)
    return replace(
        state, current=seat, turn=turn, round=(turn - 1) // len(state.seats) + 1,
        stage=DRAW if short else START, moves_left=data.MOVEMENTS.value, mined=(), boost=False,
    )


def draw(state: State, seat: int, event: Drew) -> State:
    """On Your Turn: "If you start your turn with less than two Action cards, draw from the deck
    until you have two!" """
    require_turn(state, seat, "draw")
    if state.stage != DRAW:
        raise IllegalAction("cards are drawn only at the start of a turn, to top up to two")
    need = min(data.HAND.value - len(state.seats[seat].hand), cards_left(state))
    if len(event.cards) != need:
        raise IllegalAction(f"{state.name(seat)} draws {need} card{'s' if need != 1 else ''}, "
                            f"not {len(event.cards)}")
    return replace(draw_cards(state, seat, event.cards), stage=START)


def draw_cards(state: State, seat: int, cards: Sequence[str]) -> State:
    """Cards off the deck into a hand, face up; an empty deck takes the discards reshuffled.
    The cards shown may be typed in any order: those still in the deck come off it first."""
    pending = [card_off_deck(state, text, len(cards)) for text in cards]
    while pending:
        state = reshuffle_if_empty(state)
        card = next((c for c in pending if state.deck[card_index(c)]), None)
        if card is None:
            raise no_such_card(state, pending[0])
        pending.remove(card)
        k = card_index(card)
        state = replace(state, deck=put(state.deck, k, state.deck[k] - 1))
        state = with_seat(state, seat, hand=(*state.seats[seat].hand, card))
        if card == data.DOG_PAW:
            state = replace(state, paws=(*state.paws, seat))
    return state


def no_such_card(state: State, card: str) -> IllegalAction:
    """A card typed that the deck cannot give now (its last cards come before a reshuffle)."""
    left = deck_cards(state)
    reason = f"no {data.title(card)} is left in the deck"
    if sum(state.discard):
        names = ", ".join(data.title(c) for c in left)
        reason += f"; its last cards ({names}) are drawn before the discards are shuffled"
    return IllegalAction(reason, allowed=left)


def deck_cards(state: State) -> list[str]:
    """The cards the deck holds now."""
    return [c for c, n in zip(CARDS, state.deck, strict=True) if n]


def drawable(state: State, count: int = 1) -> tuple[str, ...]:
    """Cards that may come off the deck in a draw of ``count``: the discards too once the
    deck runs out on the way."""
    pile = (state.deck if sum(state.deck) >= count
            else tuple(n + d for n, d in zip(state.deck, state.discard, strict=True)))
    return tuple(card for card, n in zip(CARDS, pile, strict=True) if n)


def card_off_deck(state: State, text: str, count: int) -> str:
    """The card typed for a draw of ``count``; a name no card has is refused naming the cards
    that may come."""
    try:
        return card_called(text)
    except IllegalAction:
        raise unknown(f"no Action card called '{text}'", text,
                      drawable(state, count)) from None


def reshuffle_if_empty(state: State) -> State:
    if sum(state.deck) or not sum(state.discard):
        return state
    return replace(state, deck=state.discard, discard=(0,) * len(CARDS))


def cards_left(state: State) -> int:
    return sum(state.deck) + sum(state.discard)


def trade_cards(state: State, seat: int, event: TradedCards) -> State:
    """"At the beginning of your turn, you can choose to discard both of your Action cards in
    exchange for a new Recruit. Place that new Recruit on your Home Station." Mining is also
    the beginning of the turn: trading comes before or after it, before anything else."""
    require_turn(state, seat, "trade cards")
    if state.stage not in (START, MINE):
        raise IllegalAction("cards are traded only at the beginning of the turn (after the draw, "
                            "before or after mining, before anything else)")
    me = state.seats[seat]
    if len(me.hand) != data.HAND.value:
        raise IllegalAction(f"trading discards both Action cards; {me.name} holds {len(me.hand)}")
    if not me.supply:
        raise IllegalAction(f"{me.name} has no Recruit left off the board")
    for card in me.hand:
        state = discard_card(state, seat, card)
    return add_at_home(state, seat, 1)


def mine(state: State, seat: int, event: Mined) -> State:
    """Mine: "If you have at least two Recruits on one planet, you can choose to mine one Gem or
    one Ore from that planet ... you may only mine at the beginning of your turn"."""
    require_stage(state, seat, MINE, "mine")
    space = planet_called(state, event.planet, lambda: mine_sites(state, seat))
    if space in homes_in_use(state):
        raise IllegalAction("nothing is mined on a Home Station", allowed=mineable(state, seat))
    if mine_at(state, seat, space) < data.MINE_CREW.value:
        raise IllegalAction(f"mining needs two of your Recruits on {state.title(space)}",
                            allowed=mineable(state, seat))
    if space in state.mined:
        raise IllegalAction(f"{state.title(space)} was mined this turn already",
                            allowed=mineable(state, seat))
    resource = event.resource.strip().casefold()
    if resource not in RESOURCES:
        said = f", not '{event.resource}'" if event.resource else ""
        raise IllegalAction(f"mine a Gem or an Ore: resource=gem or resource=ore{said}",
                            allowed=RESOURCES)
    if not getattr(state, "gems" if resource == "gem" else "ore"):
        raise IllegalAction(f"no {resource} token is left by the board")
    me = state.seats[seat]
    seats = put(state.seats, seat, replace(me, gems=me.gems + 1) if resource == "gem"
                else replace(me, ore=me.ore + 1))
    if resource == "gem":
        return replace(state, gems=state.gems - 1, seats=seats, mined=(*state.mined, space),
                       stage=MINE)
    return replace(state, ore=state.ore - 1, seats=seats, mined=(*state.mined, space),
                   stage=MINE)


def mineable(state: State, seat: int) -> list[str]:
    return [state.space(p) for p in mine_sites(state, seat)]


def mine_sites(state: State, seat: int) -> list[int]:
    """Planets ``seat`` may still mine this turn: two of their Recruits, not a Home Station."""
    homes = homes_in_use(state)
    return [p for p in range(len(state.holders))
            if p not in homes and p not in state.mined
            and mine_at(state, seat, p) >= data.MINE_CREW.value]


def recruit(state: State, seat: int, event: Recruited) -> State:
    """Recruit: "You may pay one Gem to gain a single Recruit." New Recruits go on the Home
    Station (a reading: the rulebook does not say where)."""
    require_stage(state, seat, RECRUIT, "recruit")
    me = state.seats[seat]
    if event.count < 1:
        raise IllegalAction("recruit at least one")
    if event.count > me.gems:
        raise IllegalAction(f"each Recruit costs a Gem; {me.name} has {me.gems}")
    if event.count > me.supply:
        raise IllegalAction(f"{me.name} has {me.supply} Recruits left off the board")
    state = with_seat(replace(state, gems=state.gems + event.count), seat,
                      gems=me.gems - event.count)
    return replace(add_at_home(state, seat, event.count), stage=RECRUIT)


def add_at_home(state: State, seat: int, count: int) -> State:
    """Up to ``count`` Recruits from the supply onto the Home Station (as many as are left)."""
    me = state.seats[seat]
    count = min(count, me.supply)
    state = with_seat(state, seat, supply=me.supply - count)
    return set_recruits(state, me.home, seat, mine_at(state, seat, me.home) + count)


def build(state: State, seat: int, event: Built) -> State:
    """Build a Base: "you must have three Recruits on the planet ... Pay three Ore"."""
    require_stage(state, seat, ACT, "build")
    sites = base_sites(state, seat)
    space = planet_called(state, event.planet, sites)
    me = state.seats[seat]
    where = [state.space(p) for p in sites]
    if mine_at(state, seat, space) < data.BASE_CREW.value:
        raise IllegalAction(f"a Base needs three of your Recruits on {state.title(space)}",
                            allowed=where)
    if me.ore < data.BASE_ORE.value:
        raise IllegalAction(f"a Base costs three Ore; {me.name} has {me.ore}")
    if not me.bases:
        raise IllegalAction(f"{me.name} has no Base left")
    if seat in state.bases[space]:
        raise IllegalAction(f"{me.name} has a Base on {state.title(space)} already",
                            allowed=where)
    if space in homes_in_use(state) and not state.settings.home_bases:
        raise IllegalAction("no Base on a Home Station (option home-bases=true allows it)",
                            allowed=where)
    state = with_seat(replace(state, ore=state.ore + data.BASE_ORE.value), seat,
                      ore=me.ore - data.BASE_ORE.value, bases=me.bases - 1)
    state = replace(state, bases=put(state.bases, space, (*state.bases[space], seat)),
                    stage=ACT)
    return check_win(state, seat)


def base_sites(state: State, seat: int) -> list[int]:
    """Planets where ``seat`` could build a Base (Ore aside): three of their Recruits, none of
    their Bases yet, not a Home Station unless the table allows it."""
    homes = () if state.settings.home_bases else homes_in_use(state)
    return [p for p in held(state, seat) if state.recruits[p] >= data.BASE_CREW.value
            and seat not in state.bases[p] and p not in homes]


def check_win(state: State, seat: int) -> State:
    """Win: "the first player to build four Bases wins" (five in a 2-player game)."""
    if bases_built(state, seat) >= win_bases(state):
        return replace(state, winner=seat, phase="over")
    return state


def win_bases(state: State) -> int:
    table: dict[int, int] = data.WIN_BASES.value
    return table[len(state.seats)]


def end(state: State, seat: int, event: Ended) -> State:
    """The turn passes to the left (the next seat in play order)."""
    require_turn(state, seat, "end the turn")
    require_drawn(state)
    position = state.order.index(seat)
    return begin_turn(state, state.order[(position + 1) % len(state.order)])


# -- Force Fields (force-fields=shield, our reading: the rulebook prints no rule) ------------------


def shield(state: State, seat: int, event: Shielded) -> State:
    """``force-fields=shield``: once per turn, as one of the two movements, pay a Gem to put a
    Force Field from the supply on a planet you occupy that has none; until your next turn no
    opponent may move onto it."""
    if state.settings.force_fields != "shield":
        raise IllegalAction("Force Field tokens are not used at this table "
                            "(option force-fields=shield)")
    require_stage(state, seat, ACT, "put a Force Field")
    me = state.seats[seat]
    if any(owner == seat for _, owner in state.shields):
        raise IllegalAction(f"{me.name} has put a Force Field this turn already (one a turn)")
    if not state.moves_left:
        raise IllegalAction("a Force Field takes a movement, and both of this turn are used")
    if not state.fields_left:
        raise IllegalAction("no Force Field token is left by the board")
    space = planet_called(state, event.planet, lambda: shieldable(state, seat))
    if not mine_at(state, seat, space) or space in state.closed:
        raise IllegalAction(f"a Force Field goes on a planet {me.name} occupies",
                            allowed=[state.space(p) for p in shieldable(state, seat)])
    if shield_on(state, space) != NOBODY:
        raise IllegalAction(f"{state.title(space)} has a Force Field already",
                            allowed=[state.space(p) for p in shieldable(state, seat)])
    cost = data.FORCE_FIELD_COST.value
    if me.gems < cost:
        raise IllegalAction(f"a Force Field costs a Gem; {me.name} has none")
    state = with_seat(replace(state, gems=state.gems + cost), seat, gems=me.gems - cost)
    return replace(state, fields_left=state.fields_left - 1,
                   shields=(*state.shields, (space, seat)),
                   moves_left=state.moves_left - 1, stage=ACT)


def shieldable(state: State, seat: int) -> list[int]:
    """Planets ``seat`` occupies that may take a Force Field (Home Stations need none)."""
    return [p for p in held(state, seat)
            if p not in state.closed and shield_on(state, p) == NOBODY]


def lift_shields(state: State, seat: int) -> State:
    """At the start of ``seat``'s turn their Force Fields go back by the board."""
    kept = tuple((p, owner) for p, owner in state.shields if owner != seat)
    if len(kept) == len(state.shields):
        return state
    return replace(state, shields=kept,
                   fields_left=state.fields_left + len(state.shields) - len(kept))


def shielded_against(state: State, seat: int, space: int) -> bool:
    """An opponent's Force Field is on ``space``: ``seat`` may not move onto it."""
    return shield_on(state, space) not in (NOBODY, seat)


# -- movement and battle ---------------------------------------------------------------------------


def move(state: State, seat: int, event: Moved) -> State:
    """Move: up to two movements a turn, a Recruit or a Crew to a connected planet; never onto a
    Home Station; one Gem to pass through the centre; over Deep Space free. Moving onto an
    opponent's Recruits starts a battle."""
    require_stage(state, seat, ACT, "move")
    if not state.moves_left:
        raise IllegalAction("both movements of this turn are used")
    source = planet_called(state, event.from_, lambda: held(state, seat))
    here = mine_at(state, seat, source)
    if not here:
        raise IllegalAction(f"{state.name(seat)} has no Recruits on {state.title(source)}",
                            allowed=[state.space(p) for p in held(state, seat)])
    targets = move_targets(state, seat, source)
    target = planet_called(state, event.to, lambda: sorted(targets))
    if not 1 <= event.count <= here:
        raise IllegalAction(f"say how many Recruits move from {state.title(source)}: "
                            f"count=1 to {here}")
    if target not in targets:
        raise IllegalAction(refusal(state, seat, target),
                            allowed=[state.space(p) for p in sorted(targets)])
    toll = targets[target]
    me = state.seats[seat]
    if toll > me.gems:
        raise IllegalAction("passing through the centre costs a Gem")
    if event.dog and not dogs_at(state, source, seat):
        raise IllegalAction(f"{me.name} has no Space Dog on {state.title(source)}")
    if toll:
        state = with_seat(replace(state, gems=state.gems + toll), seat, gems=me.gems - toll)
    state = walk_dogs(state, seat, source, target, take_one=event.dog,
                      take_all=here == event.count)
    recruits, holders = list(state.recruits), list(state.holders)  # one copy for both planets
    left = here - event.count
    recruits[source], holders[source] = left, seat if left else NOBODY
    holder = holders[target]
    if holder not in (NOBODY, seat):
        battle = Battle(attacker=seat, defender=holder, source=source, target=target,
                        crew=event.count)
        return replace(state, recruits=tuple(recruits), holders=tuple(holders), moves_left=(
            state.moves_left - 1), boost=False, stage=ACT, battle=battle,
            battles=state.battles + 1)
    arrived = (recruits[target] if holder == seat else 0) + event.count
    recruits[target], holders[target] = arrived, seat if arrived else NOBODY
    state = replace(state, recruits=tuple(recruits), holders=tuple(holders),
                    moves_left=state.moves_left - 1, boost=False, stage=ACT)
    return take_planet(state, seat, target)


def refusal(state: State, seat: int, target: int) -> str:
    if shielded_against(state, seat, target):
        owner = state.name(shield_on(state, target))
        return (f"{owner}'s Force Field shields {state.title(target)} until {owner}'s next "
                "turn")
    if target in state.covered:
        return f"{state.title(target)} is Deep Space: nobody stops there"
    if state.space(target) in state.board.tagged("centre"):
        return "nobody stops on the centre: move through it to a planet beyond, for a Gem"
    if target in state.closed:
        return "nobody moves onto a Home Station"
    return f"{state.title(target)} cannot be reached in one movement"


def move_targets(state: State, seat: int, source: int) -> dict[int, int]:
    """Planets one movement from ``source`` reaches, with the Gems it costs; never one an
    opponent's Force Field shields (passing over it is allowed)."""
    found = reachable_from(state, seat, source)
    if not state.shields:
        return found
    return {p: toll for p, toll in found.items() if not shielded_against(state, seat, p)}


def reachable_from(state: State, seat: int, source: int) -> dict[int, int]:
    """Where one movement goes; Energy Boost adds the planets beyond occupied ones, and keeps
    every destination the movement had without it (the occupied planets included)."""
    cache: dict[tuple[object, ...], dict[int, int]] = state.settings.__dict__.setdefault(
        "reach", {})  # the same board, covers and closed spaces always reach the same planets
    key = (source, state.covered, state.closed)
    found = cache.get(key)
    if found is None:
        found = cache[key] = reach(state, source, ())
    if not state.boost:
        return found
    boosted = reach(state, source, tuple(p for p, who in enumerate(state.holders)
                                         if who not in (NOBODY, seat)))
    return {p: min(toll for toll in (found.get(p), boosted.get(p)) if toll is not None)
            for p in dict.fromkeys([*found, *boosted])}


def reach(state: State, source: int, occupied: tuple[int, ...]) -> dict[int, int]:
    """Destinations over covered planets (and ``occupied`` ones), through the centre for a Gem."""
    board = state.board
    ids = board.ids
    pass_over = {ids[p] for p in (*state.covered, *occupied)}
    found = board.reachable(ids[source], pass_over=pass_over, toll=board.tagged("centre"))
    index = board.index
    return {index(space): toll for space, toll in found.items()
            if index(space) not in state.closed}


def walk_dogs(state: State, seat: int, source: int, target: int, *, take_one: bool,
              take_all: bool) -> State:
    """Space Dogs travel with the Crew: one when asked, all when nobody stays, and a dog waiting
    at the Home Station with the next Crew that leaves it."""
    dogs = list(state.dogs)
    moved = 0
    for i in dogs_at(state, source, seat):
        if take_all or dogs[i].waiting or (take_one and not moved):
            dogs[i] = Dog(owner=seat, space=target)
            moved += 1
    return replace(state, dogs=tuple(dogs)) if moved else state


def battle(state: State, seat: int, event: Battled) -> State:
    """Battle: "You and your opponent each roll one die. Attacking Crew rolls first. The higher
    roller wins ... If there's a tie, victory goes to the defending Crew." A loss removes one
    Recruit, or the side's Space Dog first; the battle goes on until one side has no Recruits."""
    fight = require_battle(state)
    answers = awaited_answers(state)
    if answers:
        defender = state.name(fight.defender)
        raise IllegalAction(
            f"{defender} may first answer the invasion, before the dice: "
            f"{' or '.join(data.title(c) for c in answers)} "
            f"(play card=CARD by={quoted(defender)}), or pass (pass by={quoted(defender)})")
    if seat != fight.attacker:
        raise IllegalAction(f"{state.name(fight.attacker)} records the dice of the battle",
                            allowed=(state.name(fight.attacker),))
    faces = (event.attacker, event.defender)
    if not dice.faces_fit(faces):
        raise IllegalAction("one die each: attacker=1..6 defender=1..6")
    bonus = battle_bonus(state, fight)
    winner = dice.pair_winner(faces[0] + bonus[0], faces[1] + bonus[1])
    fight = replace(fight, exchanges=fight.exchanges + 1, last=faces)
    state = replace(state, battle=fight, bonus=bonus)
    loser = fight.defender if winner == dice.ATTACKER else fight.attacker
    return finish_battle(defeat(state, fight, loser))


def awaited_answers(state: State) -> list[str]:
    """Cards the invaded player may still play before the first dice ("You can use this card
    when a player tries to battle you!"), until they pass: the dice wait for them."""
    fight = state.battle
    if (fight is None or fight.exchanges or fight.answered
            or state.settings.defender_answers != "wait"):
        return []
    return pre_dice_cards(state, fight.defender)


def pre_dice_cards(state: State, seat: int) -> list[str]:
    """The cards ``seat`` may play in this battle before its first dice: Tractor Beam (the
    invaded player) and Good Space Dog (either side, a token left), if they can pay."""
    fight = state.battle
    if fight is None or fight.exchanges:
        return []
    me = state.seats[seat]
    usable = [data.GOOD_DOG] if state.dogs_left else []
    if seat == fight.defender:
        usable.append(data.TRACTOR_BEAM)
    return [card for card in dict.fromkeys(me.hand)
            if card in usable and card_cost(state, card) <= me.gems]


def pass_answer(state: State, seat: int, event: Passed) -> State:
    """The invaded player plays no (more) card before the dice: the attacker may roll."""
    fight = require_battle(state)
    if seat != fight.defender or not awaited_answers(state):
        raise IllegalAction("only the invaded player passes, before the first dice, when they "
                            "hold a card they could play then")
    return replace(state, battle=replace(fight, answered=True))


def battle_bonus(state: State, fight: Battle) -> tuple[int, int]:
    """Space Dog: "When you enter battle, add +1 to your dice rolls" (once, however many)."""
    return (int(bool(dogs_at(state, fight.target, fight.attacker))),
            int(bool(dogs_at(state, fight.target, fight.defender))))


def defeat(state: State, fight: Battle, loser: int) -> State:
    """One lost exchange: the loser's Space Dog goes back by the board instead of a Recruit."""
    dogs = dogs_at(state, fight.target, loser)
    if dogs:
        return replace(state, dogs=tuple(d for i, d in enumerate(state.dogs) if i != dogs[0]),
                       dogs_left=state.dogs_left + 1)
    return lose_recruits(state, fight, loser, 1)


def lose_recruits(state: State, fight: Battle, loser: int, count: int) -> State:
    """``count`` of ``loser``'s Recruits in the battle go to their off-board pile."""
    if loser == fight.attacker:
        count = min(count, fight.crew)
        state = replace(state, battle=replace(fight, crew=fight.crew - count))
    else:
        count = min(count, state.recruits[fight.target])
        state = set_recruits(state, fight.target, loser, state.recruits[fight.target] - count)
    return with_seat(state, loser, supply=state.seats[loser].supply + count)


def finish_battle(state: State) -> State:
    """When one side has no Recruits left the battle is over; a winning attacker occupies the
    planet. "Whether they win or lose the battle, the attacking player gets to complete their
    turn." """
    fight = state.battle
    assert fight is not None
    defenders = state.recruits[fight.target]
    if fight.crew and defenders:
        return state
    state = replace(state, battle=None)
    if fight.crew:
        state = set_recruits(state, fight.target, fight.attacker, fight.crew)
        state = take_planet(state, fight.attacker, fight.target)
    return state


def take_planet(state: State, seat: int, space: int) -> State:
    """The option ``lost-base=destroyed``: other players' Bases on a planet ``seat`` now holds
    go back to their owners. By default (``stays``) a Base stays and keeps counting."""
    if state.settings.lost_base != "destroyed":
        return state
    for owner in state.bases[space]:
        if owner != seat:
            state = with_seat(state, owner, bases=state.seats[owner].bases + 1)
    kept = tuple(owner for owner in state.bases[space] if owner == seat)
    return replace(state, bases=put(state.bases, space, kept))


def settle_dogs(state: State) -> State:
    """A Space Dog whose Crew was wiped out by an Action card goes to another of its owner's
    Crews: the largest (first on the board when tied) unless its owner sends it elsewhere
    (:func:`send_dog`), or it waits at the Home Station."""
    fight = state.battle
    dogs = list(state.dogs)
    for i, dog in enumerate(dogs):
        attacking = fight is not None and fight.attacker == dog.owner and fight.target == dog.space
        if mine_at(state, dog.owner, dog.space) or attacking or dog.waiting:
            continue
        crews = held(state, dog.owner)
        if crews:
            best = max(crews, key=lambda p: (state.recruits[p], -p))
            dogs[i] = Dog(owner=dog.owner, space=best, stray=len(crews) > 1)
        else:
            dogs[i] = Dog(owner=dog.owner, space=state.seats[dog.owner].home, waiting=True)
    return replace(state, dogs=tuple(dogs)) if dogs != list(state.dogs) else state


def send_dog(state: State, seat: int, event: SentDog) -> State:
    """Space Dog, Paw!: "If another player uses an Action card to wipe out the Crew that Space
    Dog is traveling with, move the Space Dog token to another one of your Crews on the board."
    The owner chooses which, right after the card (before the next action)."""
    strays = stray_dogs(state, seat)
    if not strays:
        raise IllegalAction("a Space Dog is sent to another Crew only right after an Action card "
                            f"wiped out its Crew, by its owner{owners_of_strays(state)}")
    space = planet_called(state, event.to, lambda: held(state, seat))
    if not mine_at(state, seat, space):
        raise IllegalAction(f"the Space Dog joins one of {state.name(seat)}'s Crews",
                            allowed=[state.space(p) for p in held(state, seat)])
    dog = Dog(owner=seat, space=space)
    return replace(state, dogs=put(state.dogs, strays[0], dog))


def stray_dogs(state: State, seat: int) -> list[int]:
    """Indexes of ``seat``'s Space Dogs that its owner may still send to another Crew."""
    return [i for i, dog in enumerate(state.dogs) if dog.stray and dog.owner == seat]


def stray_owners(state: State) -> list[str]:
    """The owners of Space Dogs whose Crew an Action card just wiped out."""
    return list(dict.fromkeys(state.name(dog.owner) for dog in state.dogs if dog.stray))


def owners_of_strays(state: State) -> str:
    owners = stray_owners(state)
    return f" ({', '.join(owners)} may now)" if owners else ""


def settle_strays(state: State) -> State:
    """Space Dogs not sent on stay with the Crew they joined (the next action closes the
    choice)."""
    if not any(dog.stray for dog in state.dogs):
        return state
    return replace(state, dogs=tuple(replace(dog, stray=False) for dog in state.dogs))


# -- Action cards ----------------------------------------------------------------------------------


def play(state: State, seat: int, event: Played) -> State:
    """Action cards: each with its timing and cost (see :data:`data.CARD_COSTS`)."""
    if seat == NOBODY:
        raise IllegalAction("a player plays Action cards (by=NAME)")
    card = card_in_hand(state, seat, event.card)
    if card not in state.seats[seat].hand:
        raise IllegalAction(f"{state.name(seat)} holds no {data.title(card)}",
                            allowed=state.seats[seat].hand)
    effect = CARD_EFFECTS[card]
    state = effect(state, seat, event)
    state = discard_card(state, seat, card)
    return pay(state, seat, card)


def card_cost(state: State, card: str) -> int:
    """Gems a card costs to play (Bribe a Rival's goes to the opponent)."""
    return int(state.settings.costs[card_index(card)] == data.GEM)


def pay(state: State, seat: int, card: str) -> State:
    """A card's Gem cost goes by the board (Bribe a Rival pays its opponent in its effect)."""
    if card == data.BRIBE or not card_cost(state, card):
        return state
    me = state.seats[seat]
    if not me.gems:
        raise IllegalAction(f"{data.title(card)} costs a Gem; {me.name} has none")
    return with_seat(replace(state, gems=state.gems + 1), seat, gems=me.gems - 1)


def discard_card(state: State, seat: int, card: str) -> State:
    k = card_index(card)
    state = with_seat(state, seat, hand=one_less(state.seats[seat].hand, card))
    return replace(state, discard=put(state.discard, k, state.discard[k] + 1))


def tractor_beam(state: State, seat: int, event: Played) -> State:
    """Tractor Beam: "When an opponent invades a planet you occupy, move their Crew back to the
    planet they came from. The other player does not regain their lost movement." """
    fight = require_battle(state)
    if seat != fight.defender or fight.exchanges:
        raise IllegalAction("Tractor Beam is played by the invaded player, before the dice")
    state = set_recruits(state, fight.source,
                         fight.attacker, mine_at(state, fight.attacker, fight.source) + fight.crew)
    dogs = tuple(Dog(owner=d.owner, space=fight.source)
                 if d.owner == fight.attacker and d.space == fight.target else d
                 for d in state.dogs)
    return replace(state, battle=None, dogs=dogs)


def energy_boost(state: State, seat: int, event: Played) -> State:
    """Energy Boost: "You may move past an occupied planet without battling." (the next
    movement may pass over occupied planets)."""
    require_stage(state, seat, ACT, "play Energy Boost")
    return replace(state, boost=True, stage=ACT)


def bribe(state: State, seat: int, event: Played) -> State:
    """Bribe a Rival: "Pay one Gem to any opponent and remove two of their Recruits from any
    planet directly connected to a planet you occupy. Add two Recruits to your Home Station." """
    require_stage(state, seat, ACT, "play Bribe a Rival")
    targets = bribe_targets(state, seat)
    space = planet_for(state, event.planet, targets, "Bribe a Rival strikes")
    if space not in targets:
        raise IllegalAction(f"Bribe a Rival strikes an opponent's Recruits next to a planet "
                            f"{state.name(seat)} occupies",
                            allowed=[state.space(p) for p in targets])
    me = state.seats[seat]
    if not me.gems:
        raise IllegalAction(f"Bribe a Rival costs a Gem; {me.name} has none")
    rival = state.holders[space]
    state = with_seat(state, seat, gems=me.gems - 1)
    state = with_seat(state, rival, gems=state.seats[rival].gems + 1)
    removed = min(2, state.recruits[space])
    state = set_recruits(state, space, rival, state.recruits[space] - removed)
    state = with_seat(state, rival, supply=state.seats[rival].supply + removed)
    return replace(add_at_home(state, seat, 2), stage=ACT)


def bribe_targets(state: State, seat: int) -> list[int]:
    board = state.board
    mine_ = {state.space(p) for p in held(state, seat)}
    return [p for p, who in enumerate(state.holders) if who not in (NOBODY, seat)
            and any(board.linked(state.space(p), m) for m in mine_)]


def air_leak(state: State, seat: int, event: Played) -> State:
    """Air Leak: "During battle, remove three opponent Recruits and one of your own Recruits
    from the planet you are on." (your own Recruit is its cost)."""
    fight = require_battle(state)
    if seat not in (fight.attacker, fight.defender):
        raise IllegalAction("Air Leak is played by a player in the battle")
    other = fight.defender if seat == fight.attacker else fight.attacker
    state = lose_recruits(state, fight, other, 3)
    state = lose_recruits(state, require_battle(state), seat, 1)
    return finish_battle(state)


def mail(state: State, seat: int, event: Played) -> State:
    """Mail from Mom: "Look through the first three cards in the Action deck and choose one
    card." The deck's order is unknown, so any card in it may be chosen."""
    require_stage(state, seat, ACT, "play Mail from Mom")
    state = replace(state, stage=ACT)
    if not cards_left(state):
        if event.take:
            raise IllegalAction("the deck and the discards are empty: take nothing")
        return state
    if not event.take:
        raise IllegalAction("Mail from Mom takes a card from the deck: take=CARD",
                            allowed=drawable(state))
    return draw_cards(state, seat, (event.take,))


def dog_paw(state: State, seat: int, event: Played) -> State:
    """Space Dog, Paw!: "When you draw this card, you can pay one Gem to activate a Space Dog
    ... place a Space Dog token on any planet where you have Recruits." Each Paw! drawn may be
    activated until its player's next action, "before a battle begins", not in the middle of
    one."""
    if seat not in state.paws:
        raise IllegalAction("Space Dog, Paw! is activated only right after it is drawn, before "
                            f"{state.name(seat)}'s next action")
    if in_battle(state, seat):
        raise IllegalAction("Space Dog, Paw! is activated before a battle begins, not in the "
                            "middle of one")
    space = planet_for(state, event.planet, held(state, seat), "the Space Dog goes")
    state = place_dog(state, seat, space)
    return replace(state, paws=one_less(state.paws, seat))


def may_activate(state: State, seat: int) -> bool:
    """``seat`` may activate a Space Dog, Paw! now: a window open, the card, a Gem, a token by
    the board, Recruits to join, and no battle of theirs under way."""
    me = state.seats[seat]
    return (seat in state.paws and not in_battle(state, seat) and state.dogs_left > 0
            and data.DOG_PAW in me.hand and me.gems >= card_cost(state, data.DOG_PAW)
            and bool(held(state, seat)))


def in_battle(state: State, seat: int) -> bool:
    fight = state.battle
    return fight is not None and seat in (fight.attacker, fight.defender)


def good_dog(state: State, seat: int, event: Played) -> State:
    """Good Space Dog: "When you battle, place the Space Dog token on that planet." (before the
    first exchange, as the Space Dog must be activated "before a battle begins")."""
    fight = require_battle(state)
    if seat not in (fight.attacker, fight.defender) or fight.exchanges:
        raise IllegalAction("Good Space Dog is played by a player in the battle, before the dice")
    if not state.dogs_left:
        raise IllegalAction("no Space Dog token is left by the board")
    dog = Dog(owner=seat, space=fight.target)
    return replace(state, dogs=(*state.dogs, dog), dogs_left=state.dogs_left - 1)


def place_dog(state: State, seat: int, space: int) -> State:
    if not state.dogs_left:
        raise IllegalAction("no Space Dog token is left by the board")
    if not mine_at(state, seat, space):
        raise IllegalAction(f"the Space Dog joins a planet with {state.name(seat)}'s Recruits",
                            allowed=[state.space(p) for p in held(state, seat)])
    return replace(state, dogs=(*state.dogs, Dog(owner=seat, space=space)),
                   dogs_left=state.dogs_left - 1)


CARD_EFFECTS: dict[str, Callable[[State, int, Played], State]] = {
    data.TRACTOR_BEAM: tractor_beam,
    data.ENERGY_BOOST: energy_boost,
    data.BRIBE: bribe,
    data.AIR_LEAK: air_leak,
    data.MAIL: mail,
    data.DOG_PAW: dog_paw,
    data.GOOD_DOG: good_dog,
}


# -- the step --------------------------------------------------------------------------------------

STEPS: Steps[State] = Steps("Risk: Deep Space", {
    Dealt: deal, Covered: cover, RolledOff: roll_off, Drew: draw, TradedCards: trade_cards,
    Mined: mine, Recruited: recruit, Moved: move, Battled: battle, Built: build, Played: play,
    Shielded: shield, SentDog: send_dog, Passed: pass_answer, Ended: end,
})


def step(state: State, seat: int, event: Event) -> State:
    """The state after ``seat`` (``NOBODY``: the table) records ``event``; IllegalAction if the
    rules refuse it."""
    if state.phase == "over":
        raise IllegalAction("the game is over")
    action = STEPS.find(event)
    if seat in state.paws and not is_activation(event):
        state = replace(state, paws=tuple(s for s in state.paws if s != seat))
    if not isinstance(event, SentDog):
        state = settle_strays(state)
    state = action(state, seat, event)
    return settle_dogs(state)


def is_activation(event: Event) -> bool:
    """Space Dog, Paw! played, however its name is typed (as :func:`card_called` reads it)."""
    if not isinstance(event, Played):
        return False
    try:
        return card_called(event.card) == data.DOG_PAW
    except IllegalAction:
        return False


# -- requirements and names ------------------------------------------------------------------------


def require_turn(state: State, seat: int, what: str) -> None:
    """A player's action in their own turn, once the game has begun and no battle is on."""
    if state.phase != "turn":
        raise IllegalAction(f"nobody can {what} before the game begins")
    steps.require_turn(state, seat, state.current, what)
    if state.battle is not None:
        raise IllegalAction("a battle is on: roll (battle) or play a battle card")


def require_drawn(state: State) -> None:
    if state.stage == DRAW:
        raise IllegalAction(f"{state.name(state.current)} first draws up to two Action cards")


def require_stage(state: State, seat: int, stage: int, what: str) -> None:
    """``what`` belongs at ``stage`` of the turn: refused once the turn has gone past it."""
    require_turn(state, seat, what)
    require_drawn(state)
    if state.stage > stage:
        done = STAGE_WORDS[state.stage]
        raise IllegalAction(f"too late to {what}: this turn is at '{done}' (Mine, then Recruit, "
                            "then move and build)")


def require_battle(state: State) -> Battle:
    if state.battle is None:
        raise IllegalAction("there is no battle")
    return state.battle


def card_in_hand(state: State, seat: int, text: str) -> str:
    """The card a player typed; a name no card has is refused naming the cards they hold."""
    try:
        return card_called(text)
    except IllegalAction:
        raise unknown(f"no Action card called '{text}'", text,
                      tuple(dict.fromkeys(state.seats[seat].hand))) from None


Among = Sequence[int] | Callable[[], Sequence[int]] | None
"""The planets an action may take, for a refusal: listed, asked only when needed, or None."""

FOUND_KEPT = 4096
"""How many typed planet names a board's look-up remembers (a fold meets a few dozen ids)."""


def planet_called(state: State, text: str, among: Among = None) -> int:
    """The space a typed name means; an unknown name is refused naming ``among`` (the planets
    this action may take, or a function listing them), else every space of the board."""
    found: dict[str, int] = state.settings.__dict__.setdefault("found", {})
    space = found.get(text)  # the same board always reads a text the same: remembered
    if space is not None:
        return space
    name = state.board.find(text)
    if name is None:
        listed = among() if callable(among) else among
        allowed = state.board.ids if listed is None else [state.space(p) for p in listed]
        raise unknown(f"no planet called '{text}' on this board", text, allowed)
    space = state.board.index(name)
    if len(found) < FOUND_KEPT:
        found[text] = space
    return space


def planet_for(state: State, text: str, choices: Sequence[int], what: str) -> int:
    """The planet a card names; refused with that card's own planets when none is given."""
    if not text.strip():
        raise IllegalAction(f"say where {what}: planet=PLANET",
                            allowed=[state.space(p) for p in choices])
    return planet_called(state, text, choices)


def homes_in_use(state: State) -> tuple[int, ...]:
    return state.homes


def closed_spaces(state: State) -> tuple[int, ...]:
    """Spaces nobody stops on (covered planets aside): Home Stations and the centre."""
    board = state.board
    homes = [board.index(s) for s in board.tag_values("home").values()]
    if state.settings.open_stations:
        homes = list(state.homes)
    centre = [board.index(s) for s in board.tagged("centre")]
    return tuple(sorted({*homes, *state.homes, *centre}))


def held(state: State, seat: int) -> list[int]:
    """Planets where ``seat`` has Recruits."""
    return [p for p, who in enumerate(state.holders) if who == seat]


def phase_words(state: State) -> str:
    """What happens now, for people."""
    if state.phase == "over":
        return f"{state.name(state.winner)} has won"
    return ((setup_words(state) if state.phase != "turn" else turn_words(state))
            + paw_words(state) + stray_words(state))


def setup_words(state: State) -> str:
    first = roll_words(state)
    if state.phase == "deal":
        waiting = [s.name for s in state.seats if not s.hand]
        covers = " (and covers a pair of opposing corners)" if needs_covers(state) else ""
        return "the table deals two Action cards face up to " + ", ".join(waiting) + covers + first
    if state.phase == "cover":
        return "the table covers a pair of opposing corner planets" + first
    return "roll for first player: " + ", ".join(state.name(s) for s in rollers(state))


def roll_words(state: State) -> str:
    """The roll for first player, when it was made during the deal or the covers."""
    if state.order:
        return f"; {state.name(state.order[0])} goes first"
    if state.rolloffs:
        return "; a tie for first player: " + ", ".join(
            state.name(s) for s in rollers(state)) + " roll again"
    return ""


def acting_now(state: State) -> int:
    """The seat expected to act: the invaded player while the dice wait for their answer, else
    the player whose turn it is."""
    if awaited_answers(state):
        assert state.battle is not None
        return state.battle.defender
    return state.current


def turn_words(state: State) -> str:
    who = state.name(state.current)
    if state.battle is not None:
        fight = state.battle
        answers = awaited_answers(state)
        waiting = (f"; {state.name(fight.defender)} may play "
                   f"{' or '.join(data.title(c) for c in answers)} or pass" if answers else "")
        return (f"battle on {state.title(fight.target)}: {state.name(fight.attacker)} "
                f"({fight.crew}) against {state.name(fight.defender)} "
                f"({state.recruits[fight.target]}){waiting}")
    if state.stage == DRAW:
        return f"{who} draws up to two Action cards"
    return f"{who}: {STAGE_WORDS[state.stage]} ({plural(state.moves_left, 'movement')} left)"


def paw_words(state: State) -> str:
    """Who may still activate a Space Dog, Paw! they drew (outside a battle they are in)."""
    names = dict.fromkeys(state.name(s) for s in state.paws if may_activate(state, s))
    return f"; {', '.join(names)} may activate Space Dog, Paw! for a Gem" if names else ""


def stray_words(state: State) -> str:
    """Who may still send a Space Dog whose Crew an Action card wiped out to another Crew."""
    owners = stray_owners(state)
    if not owners:
        return ""
    return f"; {', '.join(owners)} may send the Space Dog to another Crew (send-dog to=PLANET)"
