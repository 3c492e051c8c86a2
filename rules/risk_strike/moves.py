"""Check and apply in one pure step: each action either yields the next state or raises
:class:`~tabletape.rules.kernel.IllegalAction` saying why, in table words, and what is allowed.

Windows: a tactics card played (other than a Troop) waits in ``pending`` while others may answer
it with Canceled Orders; any other action closes that window first (:func:`settle`), so cards
resolve in the order they were played. A roll waits in ``battle.roll`` for Rally, Bombard and
Artillery until ``resolve`` or the attacker's next ``roll`` or ``retreat``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from msgspec.structs import replace

from tabletape.ledger.events import Event
from tabletape.ledger.text import plural
from tabletape.rules import dice, steps
from tabletape.rules.actions import quoted
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_strike import data
from tabletape.rules.risk_strike.events import (
    Attacked,
    Dealt,
    Deployed,
    Drew,
    Passed,
    Played,
    Resolved,
    Retreated,
    Rolled,
    RolledOff,
)
from tabletape.rules.risk_strike.state import (
    ARTILLERY,
    ATTACKER_STEP,
    BOMBARD,
    CANCEL,
    CONTINENTS,
    DECLINES_RECORDED,
    DEFENDER_STEP,
    DEPLOYED,
    DICE_NAMED_AS_SHOWN,
    DRAW_OUTLIVES_BATTLE,
    EXPAND,
    HELPERS_STEP,
    NOBODY,
    RALLY,
    SABOTAGE,
    SPY,
    TACTICS,
    TROOP,
    Battle,
    Dice,
    Pending,
    Resolution,
    State,
    Troop,
    bump,
    card_of,
    continent_of,
    could_hold,
    discard,
    draw_tactics,
    draw_unknown,
    drawable_kinds,
    gain_all,
    in_use,
    name_face_down,
    names,
    players,
    put,
    tactics_left,
    take_cards,
    title,
    unseen,
)
from tabletape.rules.seats import find_seat, seat_named, unknown
from tabletape.rules.steps import Steps, refuse, require_table

ATTACKER, DEFENDER, BATTLE_SIDES = dice.ATTACKER, dice.DEFENDER, dice.BATTLE_SIDES
ATTACK_DICE, DEFEND_DICE = data.ATTACK_DICE.value, data.DEFEND_DICE.value


# -- the step ----------------------------------------------------------------------------------


def step(state: State, actor: int, event: Event) -> State:
    """The state after ``actor`` (a seat, or ``NOBODY`` for the table) records ``event``."""
    if state.phase == "over":
        refuse(f"the game is over: {state.name(state.winner)} won")
    handler = HANDLERS.find(event)
    if state.pending is not None:  # else prepare() has nothing to close
        require_battle_left(state, event)
        state = prepare(state, event)
    if state.phase == "end" and actor != state.current and state.protocol < DRAW_OUTLIVES_BATTLE:
        state = end_turn(replace(state, expand_owed=0))  # version 1: the table moved on
    if state.expand_owed and not isinstance(event, Drew):
        who = state.name(state.current)
        refuse(f"{who} draws for Expand first: 2 continent cards or 1 tactics card", ["draw"])
    state = handler(state, actor, event)
    return state if state.winner == NOBODY else replace(state, phase="over")


def prepare(state: State, event: Event) -> State:
    """The state an action is judged in: an open Canceled Orders window closes first, unless the
    action answers it (or is ``resolve``, which closes it itself)."""
    if isinstance(event, Resolved) or is_cancel(event):
        return state
    return settle(state)


def require_battle_left(state: State, event: Event) -> None:
    """A battle entry while a Sabotage waits is refused for that reason: once its window closes
    it ends the battle (Canceled Orders may still answer it)."""
    pending = state.pending
    assert pending is not None
    if (isinstance(event, Deployed | Rolled | Retreated) and pending.card == SABOTAGE
            and not pending.canceled and state.battle is not None):
        refuse(f"{state.name(pending.player)}'s Sabotage ends the battle unless Canceled Orders "
               f"answers it (play card=canceled-orders), or {state.name(state.current)} "
               "resolves it", ["play", "resolve"])


def is_cancel(event: Event) -> bool:
    return isinstance(event, Played) and card_of(event.card) == CANCEL


# -- arguments in table words ------------------------------------------------------------------


def player_arg(state: State, text: str, what: str = "player") -> int:
    return seat_named(text, players(state), refusal=f"no {what} called '{text}' plays this game")


def continent_arg(text: str) -> int:
    continent = continent_of(text)
    if continent is None:
        raise unknown(f"'{text}' is not a continent", text, CONTINENTS)
    return continent


def card_arg(text: str) -> int:
    card = card_of(text)
    if card is None:
        raise unknown(f"'{text}' is not a tactics card", text, TACTICS)
    return card


def tactics_arg(items: Sequence[str], default: int) -> list[int | None]:
    """Cards drawn, in order: a name for a card seen, a number for cards drawn face down."""
    if not items:
        return [None] * default
    cards: list[int | None] = []
    for item in items:
        if item.strip().isdigit():
            cards.extend([None] * int(item))
        elif item.strip() in ("?", "unknown"):
            cards.append(None)
        else:
            cards.append(card_arg(item))
    return cards


def require_player(state: State, actor: int) -> int:
    if actor == NOBODY:
        refuse("a player does this, not the table (name them with by=NAME)", players(state))
    return actor


def require_turn(state: State, actor: int, what: str) -> int:
    """A player's action in their own turn, once the game has begun; returns their seat."""
    seat = require_player(state, actor)
    if state.current == NOBODY:
        refuse(f"the game has not begun: {setup_words(state)}")
    return steps.require_turn(state, seat, state.current, what)


def setup_words(state: State) -> str:
    return {
        "deal": "the table deals the starting cards",
        "roll-off": "the table rolls off for the first player",
        "fourth-card": "the second player takes a fourth continent card",
    }.get(state.phase, state.phase)


# -- setup -------------------------------------------------------------------------------------


def on_deal(state: State, actor: int, event: Dealt) -> State:
    """Game Setup 1, 2 and 6: three continent cards face up and three tactics cards each; in a
    two-player game the player who does not go first takes a fourth continent card."""
    require_table(state, actor, "the deal")
    seat = player_arg(state, event.player)
    if state.phase == "deal":
        waiting = [s for s, done in enumerate(state.dealt) if not done]
        if seat not in waiting:
            refuse(f"{state.name(seat)} has been dealt already", names(state, waiting))
        continents, cards = data.OPENING_CONTINENTS.value, data.OPENING_TACTICS.value
    elif state.phase == "fourth-card":
        second = state.order[1]
        if seat != second:
            refuse(f"only {state.name(second)} takes a fourth continent card", [state.name(second)])
        continents, cards = 1, 0
    elif extra_nameable(state):
        return name_extra(state, seat, event)
    else:
        refuse(f"the cards have been dealt: {phase_words(state)}")
    if len(event.continents) != continents:
        refuse(
            f"{state.name(seat)} is dealt {cards_count(continents, 'continent')}, not "
            f"{len(event.continents)}"
        )
    if state.phase == "fourth-card":  # with the additional tactics card, if named
        return begin_turn(name_extra(state, seat, event), 1)
    drawn = tactics_arg(event.tactics, cards)
    if len(drawn) != cards:
        refuse(f"{state.name(seat)} is dealt {cards_count(cards, 'tactics')}, not {len(drawn)}")
    state = take_continents(state, seat, event.continents, "deck")
    state = draw_tactics(state, seat, drawn)
    dealt = put(state.dealt, seat, True)
    return replace(state, dealt=dealt, phase="deal" if not all(dealt) else "roll-off")


def extra_nameable(state: State) -> bool:
    """Whether the table may still name an additional setup tactics card (Game Setup 6): right
    after setup, before the first player's first entry."""
    return (state.turn == 1 and state.phase == "draw" and state.drawn == 0
            and state.pending is None and state.current == state.order[0])


def extra_holders(state: State) -> tuple[int, ...]:
    """Players whose additional setup tactics card is face down and may be named now."""
    return tuple(seat for seat in state.order[1:] if seat not in state.extra_named
                 and state.seats[seat].unknown)


def name_extra(state: State, seat: int, event: Dealt) -> State:
    """Game Setup 6: 'All players except the player going first draw an additional tactics
    card' (face down at the roll-off); a table dealing openly names it (``deal player=NAME
    tactics=spy``; in a two-player game with the fourth continent card), or leaves it face down
    (``tactics=1`` or nothing)."""
    name = state.name(seat)
    if seat == state.order[0]:
        refuse(f"{name} goes first and draws no additional tactics card",
               names(state, extra_holders(state)))
    if state.phase != "fourth-card" and event.continents:
        refuse(f"the continent cards have been dealt: the table may still name {name}'s "
               f"additional tactics card (deal player={name} tactics=CARD)")
    state = take_continents(state, seat, event.continents, "deck")
    drawn = tactics_arg(event.tactics, 1)
    if len(drawn) != 1:
        refuse(f"{name} draws 1 additional tactics card, not {len(drawn)}")
    if drawn[0] is None:
        return state
    if seat in state.extra_named:
        refuse(f"{name}'s additional tactics card is named already",
               names(state, extra_holders(state)))
    try:
        return name_face_down(state, seat, drawn[0], extra_named=(*state.extra_named, seat))
    except IllegalAction as error:
        refuse(str(error.reason), drawable_kinds(state))


def on_roll_off(state: State, actor: int, event: RolledOff) -> State:
    """Game Setup 5: 'the highest roller goes first. (Roll again if there's a tie.)'; Setup 6:
    all players except the first draw an additional tactics card."""
    require_table(state, actor, "the roll-off")
    if state.phase != "roll-off":
        refuse(f"there is no roll-off now: {phase_words(state)}")
    contenders = state.contenders
    expect_dice(
        event.dice, len(contenders), f"one die each for {', '.join(names(state, contenders))}"
    )
    top = max(event.dice)
    tied = tuple(seat for seat, die in zip(contenders, event.dice, strict=True) if die == top)
    state = replace(state, rolloffs=(*state.rolloffs, tuple(event.dice)))
    if len(tied) > 1:
        return replace(state, contenders=tied)
    first = tied[0]
    order = tuple((first + i) % len(state.seats) for i in range(len(state.seats)))
    state = replace(state, contenders=(), order=order)
    for seat in order[1:]:
        state = draw_unknown(state, seat)
    if len(state.seats) == 2:
        return replace(state, phase="fourth-card")
    return begin_turn(state, 1)


def dice_fit(values: Sequence[int], count: int) -> bool:
    """Whether :func:`expect_dice` accepts ``values`` (without wording its refusal first)."""
    return len(values) == count and dice.faces_fit(values)


def expect_dice(values: Sequence[int], count: int, what: str) -> None:
    if len(values) != count:
        refuse(f"roll {count} {'die' if count == 1 else 'dice'} ({what}), not {len(values)}")
    if not dice.faces_fit(values):
        bad = next(v for v in values if not 1 <= v <= dice.D6)
        refuse(f"a die shows 1 to {dice.D6}, not {bad}")


# -- turns -------------------------------------------------------------------------------------


def begin_turn(state: State, turn: int) -> State:
    """On Your Turn: first draw two cards (fewer only if fewer are left anywhere)."""
    state = replace(state, turn=turn, phase="draw", drawn=0, expand_owed=0)
    return replace(state, phase="act") if draw_need(state) == 0 else state


def end_turn(state: State) -> State:
    """Ending Your Turn: 'Play moves to the player on your left.'"""
    if state.winner != NOBODY:
        return replace(state, phase="over")
    return begin_turn(state, state.turn + 1)


def draw_need(state: State) -> int:
    """Cards still to draw this turn: two in all, as far as any are left."""
    return max(0, min(data.TURN_DRAW.value - state.drawn, cards_left(state)))


def cards_left(state: State) -> int:
    """Cards that can still be drawn anywhere: continent deck, lineup, tactics deck and discard."""
    return sum(state.deck) + sum(state.lineup) + state.tactics_deck + sum(state.discard)


def take_continents(state: State, seat: int, texts: Sequence[str], pile: str,
                    **changes: object) -> State:
    """Continent cards from the deck or the surrendered lineup join ``seat``, face up (with
    ``changes`` to other fields, in the same replace)."""
    if not texts:
        return replace(state, **changes) if changes else state
    if len(texts) == 1:
        wanted = {continent_arg(texts[0]): 1}
    else:
        wanted = {}
        for text in texts:
            c = continent_arg(text)
            wanted[c] = wanted.get(c, 0) + 1
    have = state.deck if pile == "deck" else state.lineup
    rest = [*have]
    short = False
    for c, count in wanted.items():
        rest[c] -= count
        short = short or count > have[c]
    if short:  # the first continent short of cards is named
        c = min(c for c, count in wanted.items() if count > have[c])
        where = "continent deck" if pile == "deck" else "surrendered lineup"
        left = [CONTINENTS[i] for i, n in enumerate(have) if n]
        refuse(f"the {where} has {cards_count(have[c], title(CONTINENTS[c]))}, not "
               f"{wanted[c]}", left)
    changes["deck" if pile == "deck" else "lineup"] = tuple(rest)
    return gain_all(state, seat, wanted, **changes)


def on_draw(state: State, actor: int, event: Drew) -> State:
    """1. Draw Any Two Cards: 2 continent, 2 tactics, or 1 of each; continent cards from the
    deck or the surrendered lineup. Also the draw of a resolved Expand."""
    seat = require_turn(state, actor, "draw")
    if state.expand_owed:
        return expand_draw(state, seat, event)
    if state.phase != "draw":
        refuse(f"{state.name(seat)} has drawn this turn's cards: {phase_words(state)}")
    cards = tactics_arg(event.tactics, 0) if event.tactics else []
    count = len(event.continents) + len(event.lineup) + len(cards)
    left = cards_left(state)
    need = max(0, min(data.TURN_DRAW.value - state.drawn, left))
    if not 1 <= count <= need:
        refuse(
            f"{state.name(seat)} draws {need} more card{'s' * (need > 1)} this turn, not {count}"
        )
    # each card drawn leaves the cards left by one (a reshuffle moves cards, it adds none)
    drawn = state.drawn + count
    changes: dict[str, Any] = {"drawn": drawn}
    if min(data.TURN_DRAW.value - drawn, left - count) <= 0:
        changes["phase"] = "act"
    if not event.lineup and not cards:
        return take_continents(state, seat, event.continents, "deck", **changes)
    state = take_continents(state, seat, event.continents, "deck")
    state = take_continents(state, seat, event.lineup, "lineup")
    return draw_tactics(state, seat, cards, **changes)


def expand_draw(state: State, seat: int, event: Drew) -> State:
    """Expand: 'Draw either 2 continent cards or 1 tactics card' (continent cards from the deck:
    only the turn's draw may take from the surrendered lineup)."""
    cards = tactics_arg(event.tactics, 0)
    continents = min(2, sum(state.deck))
    rule = f"for Expand {state.name(seat)} draws {expand_choice(state)}"
    if event.lineup:
        refuse(f"{rule}, from the deck, not from the surrendered lineup")
    if event.continents and not cards and len(event.continents) == continents:
        state = joined_battle(take_continents(state, seat, event.continents, "deck"),
                              event.continents)
    elif cards and not event.continents and len(cards) == 1 and expand_tactics(state):
        state = draw_tactics(state, seat, cards, keep=in_use(EXPAND, state.expand_owed))
    else:
        refuse(rule)
    state = replace(state, expand_owed=state.expand_owed - 1)
    return end_turn(state) if state.phase == "end" and not state.expand_owed else state


def expand_choice(state: State) -> str:
    """What Expand's owed draw may be, in table words: ``2 continent cards or 1 tactics card``."""
    continents = min(2, sum(state.deck))
    cards = f"{continents} continent card{'s' * (continents > 1)}" if continents else ""
    if not expand_tactics(state):
        return f"{cards} (no tactics card is left to draw)"
    return f"{cards} or 1 tactics card" if cards else "1 tactics card (no continent card is left)"


def expand_tactics(state: State) -> int:
    """Tactics cards Expand's owed draw may take: the Expands owed are in use, not reshuffled."""
    return tactics_left(state, in_use(EXPAND, state.expand_owed))


def joined_battle(state: State, texts: Sequence[str]) -> State:
    """Reading ``expand-cards=active``: attacking-continent cards drawn with Expand in a battle
    add to its attacking cards (by default they are not active in it, like claimed cards)."""
    battle = state.battle
    if battle is None or not state.expand_cards_active:
        return state
    joining = sum(1 for text in texts if continent_of(text) == battle.source)
    return replace(state, battle=replace(battle, attack_cards=battle.attack_cards + joining))


def on_pass(state: State, actor: int, event: Passed) -> State:
    """2. Choose to Attack or Pass: 'If you pass, draw one additional tactics card and end your
    turn.'"""
    seat = require_act(state, actor, "pass")
    drawn = tactics_arg((event.drew,) if event.drew else (), 1 if tactics_left(state) else 0)
    return end_turn(draw_tactics(state, seat, drawn))


def require_act(state: State, actor: int, what: str) -> int:
    seat = require_turn(state, actor, what)
    if state.phase != "act":
        refuse(f"{state.name(seat)} cannot {what} now: {phase_words(state)}")
    return seat


# -- battle ------------------------------------------------------------------------------------


def on_attack(state: State, actor: int, event: Attacked) -> State:
    """Attack Phase 1: attack from a continent you hold, against one other player's cards of the
    same continent or a connected one."""
    seat = require_act(state, actor, "attack")
    mine = state.seats[seat].continents
    source = continent_arg(event.from_)
    if not mine[source]:
        held = [CONTINENTS[c] for c, n in enumerate(mine) if n]
        refuse(f"{state.name(seat)} has no {title(CONTINENTS[source])} cards to attack from", held)
    defender = player_arg(state, event.defender, "defender")
    if defender == seat:
        others = [s for s in range(len(state.seats)) if s != seat]
        refuse("choose one other player as your opponent", names(state, others))
    target = continent_arg(event.target)
    reachable = state.links[source]
    if target not in reachable or not state.seats[defender].continents[target]:
        theirs = [CONTINENTS[c] for c in reachable if state.seats[defender].continents[c]]
        if target not in reachable:
            refuse(f"{title(CONTINENTS[source])} is not connected to "
                   f"{title(CONTINENTS[target])}", theirs)
        refuse(f"{state.name(defender)} has no {title(CONTINENTS[target])} cards to attack",
               theirs)
    battle = Battle(
        attacker=seat,
        defender=defender,
        source=source,
        target=target,
        attack_cards=mine[source],
        defend_cards=state.seats[defender].continents[target],
    )
    return replace(state, phase="battle", battle=battle)


def require_battle(state: State, what: str) -> Battle:
    if state.battle is None:
        refuse(f"there is no battle to {what}: {phase_words(state)}")
    return state.battle


def on_deploy(state: State, actor: int, event: Deployed) -> State:
    """Attack Phase 2, step by step: the attacker deploys or declines (``troops=0``), then the
    defender, then other players for either side until the attacker rolls or resolves."""
    seat = require_player(state, actor)
    battle = require_battle(state, "deploy troops in")
    if battle.step != "deploy":
        refuse(f"troops are deployed only in Attack Phase 2, which is over: {phase_words(state)}")
    rank = deploy_rank(battle, seat)
    battle = answering(state, battle, rank)
    if rank != battle.deploy_step:
        done = f"{state.name(seat)} has deployed or declined: " if rank < battle.deploy_step else ""
        refuse(done + deploy_turn(state, battle), names(state, deployers(state, battle)))
    side = deploy_side(state, battle, seat, event.side)
    count = troops_arg(state, battle, seat, event.troops)
    if not could_hold(state, seat, TROOP, count):
        refuse(f"{state.name(seat)} cannot have {cards_count(count, 'Troop')} in hand")
    troops = battle.troops + (Troop(seat, side),) * count
    state = take_cards(state, seat, TROOP, count)
    after = next_step(state, rank, count)
    return replace(state, battle=replace(battle, troops=troops, deploy_step=after))


def troops_arg(state: State, battle: Battle, seat: int, troops: int | None) -> int:
    """The troops a deploy entry plays, as the table says (never assumed): 0 or more from the
    attacker and the defender, 1 or more from a helper."""
    name = state.name(seat)
    if troops is None:
        refuse(f"say how many troops {name} deploys: deploy troops=N"
               + (" (troops=0: none)" if deploy_rank(battle, seat) < HELPERS_STEP else ""),
               ["troops"])
    if deploy_rank(battle, seat) < HELPERS_STEP:
        if troops < 0:
            refuse(f"{name} deploys 0 troops or more, not {troops} (troops=0: none)",
                   ["troops=0", "troops=N"])
        return troops
    if troops < 1:
        refuse(f"{name} deploys 1 troop or more, not {troops}; other players who do not deploy "
               f"need not say so: {state.name(battle.attacker)}'s roll or resolve ends "
               "deployment", ["troops=N"])
    return troops


def cards_count(count: int, kind: str) -> str:
    """``1 Troop card``, ``2 Troop cards``."""
    return f"{count} {kind} card" + ("s" if count != 1 else "")


def next_step(state: State, rank: int, troops: int) -> int:
    """The step after ``rank``'s entry of ``troops``: helpers deploy as often as they like, and
    with two players there are no other players to deploy. Before rules version 2 a player's
    step stayed open for more troops until a later entry closed it (:func:`answering`)."""
    if rank == HELPERS_STEP or (troops and state.protocol < DECLINES_RECORDED):
        return rank
    following = rank + 1
    return DEPLOYED if following == HELPERS_STEP and len(state.seats) == 2 else following


def answering(state: State, battle: Battle, step: int) -> Battle:
    """The battle as an entry of Attack Phase 2's ``step`` finds it (``DEPLOYED``: the roll,
    Artillery or Sabotage, which end deployment).

    Rules version 2 records every step's answer: an entry before the earlier steps are answered
    is refused, and the battle is unchanged here. Version 1 recorded no declines (a table typed
    ``attack`` then ``roll``): there, the entry declines every earlier step not yet answered,
    as the table meant it and as tabletape then folded it.
    """
    if state.protocol < DECLINES_RECORDED and battle.deploy_step < step:
        return replace(battle, deploy_step=step)
    return battle


def deploy_rank(battle: Battle, seat: int) -> int:
    """Attack Phase 2 order: the attacker's step, the defender's, then the other players'."""
    return {battle.attacker: ATTACKER_STEP, battle.defender: DEFENDER_STEP}.get(seat,
                                                                                HELPERS_STEP)


def deployers(state: State, battle: Battle) -> tuple[int, ...]:
    """The players who may deploy now, in play order: those whose step of Attack Phase 2 it is
    (or a later step, in a version 1 game: see :func:`answering`)."""
    if battle.deploy_step == DEPLOYED:
        return ()
    return tuple(
        seat for seat in state.order
        if answering(state, battle, rank := deploy_rank(battle, seat)).deploy_step == rank
    )


def deploy_turn(state: State, battle: Battle) -> str:
    """Whose step of Attack Phase 2 it is, in table words."""
    words = step_words(state, battle)
    implied = answering(state, battle, DEPLOYED).deploy_step != battle.deploy_step
    if not implied or battle.deploy_step == HELPERS_STEP:
        return words
    return (f"{words}; in this rules version 1 game a later player's troops, "
            f"{state.name(battle.attacker)}'s roll, Artillery or Sabotage also end the step")


def step_words(state: State, battle: Battle) -> str:
    """:func:`deploy_turn` as version 2 words it."""
    attacker, defender = state.name(battle.attacker), state.name(battle.defender)
    return {
        ATTACKER_STEP: f"{attacker} deploys first: deploy troops=N by={quoted(attacker)}, or "
                       "troops=0 for none",
        DEFENDER_STEP: f"{defender}, the defender, deploys or declines first (deploy troops=N "
                       f"by={quoted(defender)}, or troops=0 for none)",
        HELPERS_STEP: f"other players may still deploy for either side, until {attacker} rolls "
                      "or types resolve",
    }.get(battle.deploy_step, "troops are deployed")


def deploy_side(state: State, battle: Battle, seat: int, text: str) -> str:
    """The side a deployer fights for: their own, or the one a helper names (one per battle)."""
    chosen = side_arg(state, battle, text) if text else None
    own = {battle.attacker: ATTACKER, battle.defender: DEFENDER}.get(seat)
    if own is not None:
        if chosen not in (None, own):
            refuse(f"{state.name(seat)} deploys for their own side, the {own}", [own])
        return own
    if chosen is None:
        refuse(f"{state.name(seat)} helps a side: name it with side=attacker or side=defender",
               BATTLE_SIDES)
    helping = helped_side(battle, seat)
    if helping not in (None, chosen):
        refuse(f"{state.name(seat)} helps the {helping} in this battle", [helping])
    return chosen


def helped_side(battle: Battle, seat: int) -> str | None:
    """The side a player's active troops fight for, if they have any."""
    return next((troop.side for troop in battle.troops if troop.owner == seat), None)


def side_arg(state: State, battle: Battle, text: str) -> str:
    """``attacker``, ``defender``, or the name of either (as :func:`.seats.find_seat` reads it)."""
    key = text.strip().casefold()
    if key in BATTLE_SIDES:
        return key
    fighter = find_seat(text, names(state, (battle.attacker, battle.defender)))
    if fighter is None:
        refuse(f"'{text}' is not a side of this battle", BATTLE_SIDES)
    return BATTLE_SIDES[fighter]


def dice_allowed(state: State, battle: Battle) -> tuple[int, int]:
    """Roll Dice: continent cards in the battle plus active troops, at most 3 and 2."""
    troops = battle.troops
    helping = 0
    for troop in troops:
        if troop.side == ATTACKER:
            helping += 1
    attack = battle.attack_cards + helping
    defend = battle.defend_cards + len(troops) - helping  # a troop fights for one of two sides
    return (
        max(0, min(attack, ATTACK_DICE)),  # dice.dice_count, inlined
        max(0, min(defend, DEFEND_DICE)),
    )


def dice_words(state: State, battle: Battle, side: str) -> str:
    cards, continent = (
        (battle.attack_cards, battle.source)
        if side == ATTACKER
        else (battle.defend_cards, battle.target)
    )
    troops = battle.side_troops(side)
    most = data.ATTACK_DICE.value if side == ATTACKER else data.DEFEND_DICE.value
    return (f"{plural(cards, title(CONTINENTS[continent]) + ' card')} + "
            f"{plural(troops, 'troop')}, at most {most}")


def on_roll(state: State, actor: int, event: Rolled) -> State:
    """Attack Phase 3, Roll Dice: the attacker rolls again while both sides have cards left."""
    battle = require_battle(state, "roll in")
    require_answers(state, battle)
    attacker = battle.attacker
    if actor != attacker:
        refuse(f"the attacker, {state.name(attacker)}, rolls", [state.name(attacker)])
    state = resolve_roll(state)
    if state.battle is None:
        refuse(f"the battle is over: {phase_words(state)}")
    battle = state.battle
    attack, defend = dice_allowed(state, battle)
    if not dice_fit(event.attacker, attack):
        who = state.name(battle.attacker)
        expect_dice(event.attacker, attack,
                    f"{who}'s attack: {dice_words(state, battle, ATTACKER)}")
    if not dice_fit(event.defender, defend):
        who = state.name(battle.defender)
        expect_dice(event.defender, defend,
                    f"{who}'s defence: {dice_words(state, battle, DEFENDER)}")
    rolled = Dice(attacker=tuple(event.attacker), defender=tuple(event.defender))
    battle = replace(battle, deploy_step=DEPLOYED, rolls=battle.rolls + 1, roll=rolled)
    return replace(state, battle=battle)


def require_answers(state: State, battle: Battle) -> None:
    """Attack Phase 2 before Phase 3: while the attacker's or the defender's answer is pending
    (in a version 1 game a roll answers it: :func:`answering`), only a deploy entry is allowed."""
    if answering(state, battle, HELPERS_STEP).deploy_step < HELPERS_STEP:
        refuse(deploy_turn(state, battle), ["deploy"])


def on_resolve(state: State, actor: int, event: Resolved) -> State:
    """Close the open windows: played cards take effect in order, then the roll is resolved."""
    battle = state.battle
    helpers = battle is not None and battle.deploy_step == HELPERS_STEP
    if state.pending is None and not helpers and (battle is None or battle.roll is None):
        if battle is not None:
            require_answers(state, battle)
        refuse("nothing to resolve: no tactics card, no helpers' deployment and no roll is "
               "waiting")
    require_turn(state, actor, "resolve")
    state = settle(state)
    if helpers and state.battle is not None:
        state = replace(state, battle=replace(state.battle, deploy_step=DEPLOYED))
    if event.lost and (state.battle is None or state.battle.roll is None):
        refuse("lost= names whose troops a roll costs: no roll is waiting")
    lost = tuple(player_arg(state, name) for name in event.lost)
    return resolve_roll(state, lost)


def on_retreat(state: State, actor: int, event: Retreated) -> State:
    """After the Roll Has Been Resolved: the attacker 'can choose to continue the battle'; this
    is the choice to stop (only after a roll: Phase 3 follows Phase 2)."""
    battle = require_battle(state, "retreat from")
    require_answers(state, battle)
    if actor != battle.attacker:
        refuse(f"only the attacker, {state.name(battle.attacker)}, retreats")
    if battle.rolls == 0:
        refuse(f"{state.name(actor)} rolls at least once before retreating", ["roll"])
    state = resolve_roll(state)
    return state if state.battle is None else end_battle(state)


def resolve_roll(state: State, lost: tuple[int, ...] = ()) -> State:
    """Resolve Wins: each lost pair costs the loser an active troop, else a continent card.

    One lost pair (in the order of the pairs, highest first): an active troop is discarded (see
    :func:`troop_to_lose`), else the defender gives the attacker a defending card (not active in
    this battle; the attacker may take its coin, see :func:`~.state.gain_all`) or the attacker
    surrenders an attacking card to the lineup. ``lost`` names, pair by pair among the pairs that
    cost a troop, whose troop goes. Worked out on counts, then one replace.
    """
    battle = state.battle
    if battle is None or battle.roll is None:
        return state
    roll = battle.roll
    winners = pair_winners(roll)
    attacker, defender, source, target = (
        battle.attacker, battle.defender, battle.source, battle.target
    )
    troops, attack_cards, defend_cards = battle.troops, battle.attack_cards, battle.defend_cards
    seats, coins, winner = state.seats, state.coins, state.winner
    mine = theirs = None  # the attacker's and the defender's continent counts, once changed
    fallen = surrendered = 0
    for pair in winners:
        if state.stop_after_win and (winner != NOBODY or not defend_cards or not attack_cards):
            break  # reading after-win=stop: the battle (or the game) is decided
        side = DEFENDER if pair == ATTACKER else ATTACKER
        index = troop_index(troops, side, attacker if side == ATTACKER else defender)
        if index is not None:
            if fallen < len(lost):
                index = chosen_troop(state, troops, side, lost[fallen])
            troops = troops[:index] + troops[index + 1 :]
            fallen += 1
        elif side == DEFENDER and defend_cards:
            defend_cards -= 1
            if mine is None:
                mine = list(seats[attacker].continents)
            if theirs is None:
                theirs = list(seats[defender].continents)
            theirs[target] -= 1
            mine[target] += 1
            if mine[target] >= state.domination[target] and coins[target] != attacker:
                coins = put(coins, target, attacker)
                if winner == NOBODY and coins.count(attacker) >= 2:
                    winner = attacker
        elif side == ATTACKER and attack_cards:
            attack_cards -= 1
            if mine is None:
                mine = list(seats[attacker].continents)
            mine[source] -= 1
            surrendered += 1
    if len(lost) > fallen:
        refuse(f"{fallen} lost pair{' costs' if fallen == 1 else 's cost'} a troop in this roll, "
               f"not {len(lost)}")
    changes: dict[str, Any] = {}
    if mine is not None:
        seats = put(seats, attacker, replace(seats[attacker], continents=tuple(mine)))
        if theirs is not None:
            seats = put(seats, defender, replace(seats[defender], continents=tuple(theirs)))
        changes["seats"] = seats
    if fallen:
        changes["discard"] = bump(state.discard, TROOP, fallen)
    if surrendered:
        changes["lineup"] = bump(state.lineup, source, surrendered)
    if coins is not state.coins:
        changes["coins"] = coins
    if winner != state.winner:
        changes["winner"] = winner
    last = replace(roll, winners=winners)
    count = state.resolved.number if state.resolved is not None else 0
    changes["resolved"] = Resolution(count + 1, last)
    after = replace(battle, roll=None, last=last, troops=troops,
                    attack_cards=attack_cards, defend_cards=defend_cards)
    if winner != NOBODY or not defend_cards or not attack_cards:
        changes["ended"] = after
        return closed_battle(state, troops, changes)
    changes["battle"] = after
    return replace(state, **changes)


def pair_winners(roll: Dice) -> tuple[str, ...]:
    """:func:`tabletape.rules.dice.compare` of a roll (pairs highest first, ties to the defender),
    done
    directly for the one or two pairs a Risk Strike roll has."""
    attack, defend = roll.attacker, roll.defender
    pairs = min(len(attack), len(defend))
    if pairs > 2:
        return dice.compare(attack, defend, attacker_bonus=roll.attacker_bonus,
                            defender_bonus=roll.defender_bonus)
    if pairs == 0:
        return ()
    best_attack, best_defend = sorted(attack, reverse=True), sorted(defend, reverse=True)
    bonus = roll.attacker_bonus - roll.defender_bonus  # the same on every die of a side
    first = ATTACKER if best_attack[0] + bonus > best_defend[0] else DEFENDER
    if pairs == 1:
        return (first,)
    return (first, ATTACKER if best_attack[1] + bonus > best_defend[1] else DEFENDER)


def chosen_troop(state: State, troops: tuple[Troop, ...], side: str, owner: int) -> int:
    """The index of the active troop of ``owner`` on ``side`` that the table says goes (their
    latest deployed; troop cards are alike)."""
    for index in range(len(troops) - 1, -1, -1):
        if troops[index] == Troop(owner, side):
            return index
    owners = names(state, dict.fromkeys(t.owner for t in troops if t.side == side))
    refuse(f"{state.name(owner)} has no active troop on the {side}'s side", owners)


def troop_to_lose(battle: Battle, side: str) -> int | None:
    """Which active troop a side discards: its own player's first, then helpers' (the latest
    deployed first)."""
    player = battle.attacker if side == ATTACKER else battle.defender
    return troop_index(battle.troops, side, player)


def troop_index(troops: tuple[Troop, ...], side: str, player: int) -> int | None:
    """:func:`troop_to_lose` among ``troops``, fighting for ``player``'s ``side``."""
    helper = None
    for index in range(len(troops) - 1, -1, -1):
        troop = troops[index]
        if troop.side == side:
            if troop.owner == player:
                return index
            if helper is None:
                helper = index
    return helper


def end_battle(state: State, *, returned: bool = False) -> State:
    """The battle ends and so does the attacker's turn; active troops are discarded, or go back
    to their owners' hands after Sabotage."""
    battle = state.battle
    assert battle is not None
    return closed_battle(state, battle.troops, {"ended": battle}, returned=returned)


def closed_battle(state: State, troops: tuple[Troop, ...], changes: dict[str, Any], *,
                  returned: bool = False) -> State:
    """:func:`end_battle` of ``state`` with ``changes`` made to it (the battle's ``troops`` as
    they are now), then :func:`end_turn`, in one replace."""
    changes["battle"] = None
    if troops:
        if returned:
            seats = list(changes.get("seats", state.seats))
            for troop in troops:
                hand = seats[troop.owner]
                seats[troop.owner] = replace(hand, known=bump(hand.known, TROOP))
            changes["seats"] = tuple(seats)
        else:
            changes["discard"] = bump(changes.get("discard", state.discard), TROOP, len(troops))
    if changes.get("winner", state.winner) != NOBODY:
        changes["phase"] = "over"
        return replace(state, **changes)
    if state.expand_owed:  # Expand's draw outlives the battle: the turn ends once it is taken
        changes["phase"] = "end"
        return replace(state, **changes)
    # begin_turn: the next turn draws two cards, fewer only if fewer are left anywhere
    left = (sum(changes.get("deck", state.deck)) + sum(changes.get("lineup", state.lineup))
            + changes.get("tactics_deck", state.tactics_deck)
            + sum(changes.get("discard", state.discard)))
    changes.update(turn=state.turn + 1, phase="draw" if left else "act", drawn=0, expand_owed=0)
    return replace(state, **changes)


# -- tactics cards -----------------------------------------------------------------------------


def on_play(state: State, actor: int, event: Played) -> State:
    """How to Use Tactics Cards: each card in its timing; played cards go to the discard pile."""
    seat = require_player(state, actor)
    card = card_arg(event.card)
    if card == TROOP:
        refuse("Troop cards are played with deploy (deploy troops=1)", ["deploy"])
    reason = timing_refusal(state, seat, card)
    if reason:
        refuse(reason, playable(state, seat))
    if not could_hold(state, seat, card):
        refuse(holding_refusal(state, seat, card), playable(state, seat))
    pending = TARGETS.get(card, no_target)(state, seat, card, event)
    if card in (ARTILLERY, SABOTAGE) and state.battle is not None:  # they end deployment
        state = replace(state, battle=replace(state.battle, deploy_step=DEPLOYED))
    state = take_cards(state, seat, card)  # then discard: one replace with the rest
    seats, pile = state.seats, bump(state.discard, card)
    if card == CANCEL:
        assert state.pending is not None
        answered = replace(state.pending, cancels=state.pending.cancels + 1)
        return replace(state, seats=seats, discard=pile, pending=answered)
    return replace(state, seats=seats, discard=pile, pending=pending)


def holding_refusal(state: State, seat: int, card: int) -> str:
    name, card_name = state.name(seat), title(TACTICS[card])
    if not state.seats[seat].unknown:
        return f"{name} has no {card_name} card in hand"
    if not unseen(state, card):
        return f"{name} cannot hold a {card_name} card: all {state.tactics_total[card]} are seen"
    return (f"{name} cannot hold a {card_name} card: none could be left in the decks "
            f"{name}'s face-down cards were drawn from")


def timing_refusal(state: State, seat: int, card: int) -> str | None:
    """Why ``seat`` may not play ``card`` now (its timing window), or None."""
    battle = state.battle
    if state.turn == 0:
        return "tactics cards are played once the game has begun"
    if card == CANCEL:
        return None if state.pending else cancel_refusal(battle)
    on_turn = seat == state.current
    if card in (SPY, EXPAND, RALLY) and not on_turn:
        name, card_name = state.name(seat), title(TACTICS[card])
        return f"{name} plays {card_name} on their own turn: it is {state.name(state.current)}'s"
    if card in (SPY, EXPAND):
        return None
    if battle is None:
        return f"{title(TACTICS[card])} is played in a battle"
    if card in (RALLY, BOMBARD) and battle.roll is None:
        return (f"{title(TACTICS[card])} is played after the dice are rolled, before the roll "
                "is resolved")
    if card in (ARTILLERY, SABOTAGE) and not troops_deployed(state, battle):
        return (f"{title(TACTICS[card])} is played after troops are deployed: "
                f"{deploy_turn(state, battle)}")
    if card == SABOTAGE and battle.rolls:
        return "Sabotage is played right after troops are deployed, before the first roll"
    return None


def cancel_refusal(battle: Battle | None) -> str:
    """Why Canceled Orders has nothing to answer: no card waits (a Troop card never does)."""
    if battle is not None and battle.troops:
        return ("Canceled Orders answers a tactics card just played, and you cannot cancel a "
                "troop card")
    return "Canceled Orders answers a tactics card just played"


def troops_deployed(state: State, battle: Battle) -> bool:
    """Whether troops count as deployed for Artillery and Sabotage: the attacker and the defender
    have answered ('After the attacker and defender have deployed troop cards, other players may
    deploy'); played in the helpers' step, either card closes it (in a version 1 game, it also
    declines the steps not yet answered: :func:`answering`)."""
    return answering(state, battle, DEPLOYED).deploy_step >= HELPERS_STEP


def playable(state: State, seat: int) -> tuple[str, ...]:
    """The tactics cards ``seat`` may play now."""
    return tuple(
        TACTICS[card]
        for card in range(len(TACTICS))
        if card != TROOP
        and timing_refusal(state, seat, card) is None
        and could_hold(state, seat, card)
        and target_choices(state, seat, card) != ()
    )


def target_choices(state: State, seat: int, card: int) -> tuple[str, ...] | None:
    """Players a card may target (None: it targets nobody)."""
    if card == SPY:
        return names(state, (s for s in range(len(state.seats)) if s != seat))
    if card == ARTILLERY and state.battle is not None:
        return names(state, sorted({troop.owner for troop in state.battle.troops}))
    return None


def no_target(state: State, seat: int, card: int, event: Played) -> Pending:
    return Pending(player=seat, card=card)


def spy_target(state: State, seat: int, card: int, event: Played) -> Pending:
    """Spy: 'Look at any one player's cards.'"""
    target = player_arg(state, event.target) if event.target else NOBODY
    if target in (NOBODY, seat):
        refuse(
            "Spy looks at another player's cards: name them with target=NAME",
            target_choices(state, seat, card) or (),
        )
    return Pending(player=seat, card=card, target=target)


def artillery_target(state: State, seat: int, card: int, event: Played) -> Pending:
    """Artillery: 'Force any one player to discard up to 2 active troop cards' (the player who
    played them, helpers included)."""
    choices = target_choices(state, seat, card) or ()
    target = player_arg(state, event.target) if event.target else None
    if target is None or state.name(target) not in choices:
        refuse("Artillery targets a player with active troops (target=NAME)", choices)
    most = data.ARTILLERY_TROOPS.value
    if not 0 <= event.troops <= most:
        refuse(f"Artillery forces a player to discard up to {most} active troop cards, not "
               f"{event.troops}", [str(n) for n in range(1, most + 1)])
    assert state.battle is not None
    active = sum(1 for troop in state.battle.troops if troop.owner == target)
    if event.troops > active:
        refuse(f"{state.name(target)} has {active} active troop{'s' * (active != 1)}, not "
               f"{event.troops}",
               [str(n) for n in range(1, min(active, most) + 1)])
    return Pending(player=seat, card=card, target=target, troops=event.troops)


def bombard_target(state: State, seat: int, card: int, event: Played) -> Pending:
    """Bombard: 'change any one die to a 6', named by side and the face it shows now (after any
    Rally already resolved)."""
    battle = state.battle
    assert battle is not None and battle.roll is not None
    side = side_arg(state, battle, event.side) if event.side else ""
    if not side:
        refuse("Bombard names a die: side=attacker or side=defender, and die=FACE", BATTLE_SIDES)
    faces = named_faces(state, battle.roll, side)
    if event.die not in faces:
        refuse(f"no {side} die shows {event.die}", [str(face) for face in sorted(set(faces))])
    return Pending(player=seat, card=card, side=side, die=event.die)


def shown_faces(roll: Dice, side: str) -> tuple[int, ...]:
    """What a side's dice show now: the faces plus Rally's bonus."""
    if side == ATTACKER:
        return tuple(face + roll.attacker_bonus for face in roll.attacker)
    return tuple(face + roll.defender_bonus for face in roll.defender)


def named_faces(state: State, roll: Dice, side: str) -> tuple[int, ...]:
    """The faces Bombard's ``die=`` names a side's dice by: what they show now (Rally included).
    Rules version 1 named them as they landed, before Rally's bonus (only those were accepted)."""
    if state.protocol < DICE_NAMED_AS_SHOWN:
        return roll.attacker if side == ATTACKER else roll.defender
    return shown_faces(roll, side)


TARGETS: dict[int, Callable[[State, int, int, Played], Pending]] = {
    SPY: spy_target,
    ARTILLERY: artillery_target,
    BOMBARD: bombard_target,
}


def settle(state: State) -> State:
    """Close the Canceled Orders window: the card played takes effect unless an odd number of
    Canceled Orders answered it (each cancels the card played just before it)."""
    pending = state.pending
    if pending is None:
        return state
    state = replace(state, pending=None)
    return state if pending.canceled else EFFECTS[pending.card](state, pending)


def spy_effect(state: State, pending: Pending) -> State:
    """Spy: '... Then, draw 1 tactics card from the deck.' (face down; the Spy is in use, so a
    reshuffle leaves it out)."""
    return draw_unknown(state, pending.player, keep=in_use(SPY))


def expand_effect(state: State, pending: Pending) -> State:
    """Expand: the player owes a draw of 2 continent cards or 1 tactics card (if any is left)."""
    owing = replace(state, expand_owed=state.expand_owed + 1)
    return owing if sum(state.deck) or expand_tactics(owing) else state


def rally_effect(state: State, pending: Pending) -> State:
    """Rally: 'Add 2 to each die you rolled.'"""
    battle = state.battle
    if battle is None or battle.roll is None:
        return state
    roll = replace(battle.roll, attacker_bonus=battle.roll.attacker_bonus + data.RALLY_BONUS.value)
    return replace(state, battle=replace(battle, roll=roll))


def bombard_effect(state: State, pending: Pending) -> State:
    """Bombard: the die named by what it shows (:func:`named_faces`) becomes a 6 as it shows (so
    a Rally already resolved is not added again: its face is 6 minus the bonus); the lineup is
    re-ordered when the roll is resolved."""
    battle = state.battle
    if battle is None or battle.roll is None:
        return state
    roll, face = battle.roll, data.BOMBARD_FACE.value
    named = named_faces(state, roll, pending.side)
    if pending.die not in named:
        return state
    die = named.index(pending.die)
    if pending.side == ATTACKER:
        roll = replace(roll, attacker=put(roll.attacker, die, face - roll.attacker_bonus))
    else:
        roll = replace(roll, defender=put(roll.defender, die, face - roll.defender_bonus))
    return replace(state, battle=replace(battle, roll=roll))


def artillery_effect(state: State, pending: Pending) -> State:
    """Artillery: the target discards the troops named (1 or 2), or up to 2 of their active
    troops (the latest first)."""
    battle = state.battle
    if battle is None:
        return state
    theirs = [i for i, troop in enumerate(battle.troops) if troop.owner == pending.target]
    gone = set(theirs[-(pending.troops or data.ARTILLERY_TROOPS.value) :])
    troops = tuple(troop for i, troop in enumerate(battle.troops) if i not in gone)
    return discard(replace(state, battle=replace(battle, troops=troops)), TROOP, len(gone))


def sabotage_effect(state: State, pending: Pending) -> State:
    """Sabotage: the battle ends, active troops go back to their owners' hands, and the
    attacker's turn ends."""
    return end_battle(state, returned=True) if state.battle is not None else state


EFFECTS: dict[int, Callable[[State, Pending], State]] = {
    SPY: spy_effect,
    EXPAND: expand_effect,
    RALLY: rally_effect,
    BOMBARD: bombard_effect,
    ARTILLERY: artillery_effect,
    SABOTAGE: sabotage_effect,
    CANCEL: lambda state, pending: state,
}


# -- where the game is, in table words ---------------------------------------------------------


def phase_words(state: State) -> str:
    """What happens now: ``Olga draws (1 of 2)``, ``battle: Patrick may deploy``."""
    if state.phase == "over":
        return f"the game is over: {state.name(state.winner)} won"
    if state.turn == 0:
        return setup_words(state)
    who = state.name(state.current)
    if state.pending is not None:
        played = f"{state.name(state.pending.player)} played {title(TACTICS[state.pending.card])}"
        return f"{played}: Canceled Orders may answer it, or {who} resolves"
    if state.expand_owed:
        then = ", then the turn ends" if state.phase == "end" else ""
        return f"{who} draws for Expand{then}"
    if state.phase == "draw":
        return f"{who} draws ({draw_need(state)} more)"
    if state.phase == "act":
        return f"{who} attacks or passes"
    battle = state.battle
    assert battle is not None
    return {
        "deploy": f"battle: {deploy_turn(state, battle)}",
        "ready": f"battle: {who} rolls",
        "rolled": "battle: dice rolled (Rally, Bombard, Artillery, then resolve)",
        "between": f"battle: {who} rolls again or retreats",
    }[battle.step]


HANDLERS: Steps[State] = Steps("Risk Strike", {
    Dealt: on_deal,
    RolledOff: on_roll_off,
    Drew: on_draw,
    Attacked: on_attack,
    Deployed: on_deploy,
    Rolled: on_roll,
    Played: on_play,
    Resolved: on_resolve,
    Retreated: on_retreat,
    Passed: on_pass,
})
