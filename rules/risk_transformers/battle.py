"""Phase 3, Attack!: one attack from a source zone to a target zone, as steps.

An attack (:class:`~.state.Fight`) goes through stages: ``defend`` (the defender declares),
``roll``, ``lose`` (the roll settled, casualties pending), then ``next`` (continue or stop),
or ``won`` (captured: more pieces may ``move-in``) or it ends (failed, M11).

Who is expected at each stage (:func:`waiting_on`, the prompt's and the headline's "to act"):
the defender while he declares, the side whose +1 or casualty is a choice, the attacker
otherwise; the roll both sides make "At the same time" is offered to the attacker, so that it is
typed without ``by=`` (the defender may record it with ``by=``).

Readings taken here (the rulebook is silent or torn):

- A vehicle is one piece and rolls one d6 ("one d6 per robot or vehicle", M6); "A vehicle
  counts as 3 robots" is its worth on the scrapheap: a vehicle lost as a casualty is exchanged
  for 3 robots and one of them scrapped (Battle Example 7), so it leaves 2 robots behind.
- The robot-form +1 need not be stated: :func:`~tabletape.rules.dice.settle` places it where it
  helps most; ``plus-one face=N`` (before any ``lose``) records where it went instead. It is
  awaited only while its place could change the casualties.
- Casualties are derived while the loser has one kind of piece to give (robots only, vehicles
  only, or the leader alone); ``lose`` records the choice otherwise, and where Bumblebee in
  vehicle form escapes when his player controls more than one neighbouring zone. They are
  taken at the roll, or, while a +1 is awaited or a side must choose, at the ``plus-one``,
  the ``lose`` or the next action (a refusal then names who must choose first).
- "2 or more robots" (M2) counts pieces: robots, vehicles and the leader (A6); a lone vehicle
  does not attack (the table exchanges it for 3 robots first: ``exchange to=robots``).
- Megatron in vehicle form attacking alone (A3) stays in his zone until he captures, and is
  the casualty when he loses.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import msgspec
from msgspec.structs import replace

from tabletape.ledger.events import Event, event_type
from tabletape.rules import dice
from tabletape.rules.actions import field_specs, quoted
from tabletape.rules.dice import ATTACKER, DEFENDER, Bonus, Die, Side
from tabletape.rules.kernel import ActionSpec
from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.events import (
    Attacked,
    Continued,
    Defended,
    Ended,
    Lost,
    MovedIn,
    Pieces,
    PlusOne,
    Rolled,
    Stopped,
)
from tabletape.rules.risk_transformers.state import (
    PIECES,
    Fight,
    Force,
    State,
    Zone,
    armies_left,
    controlled,
    kept,
    live_places,
    require_word,
    take_scrap_robots,
    teammates,
    with_seat,
    with_zone,
    with_zones,
    zone_called,
)
from tabletape.rules.seats import NOBODY
from tabletape.rules.steps import put, refuse, require_turn

DICE_EFFECTS: dict[str, Side] = {"attack-dice+": ATTACKER, "defence-dice+": DEFENDER}
"""Card effects (the board's ``effect``, ``attack-dice+N``) that add N to each of a side's
dice (Fusion Cannons: "Add 1 to each die for this attack")."""


@lru_cache(maxsize=256)
def card_bonus(effect: str) -> tuple[Side, Bonus] | None:
    """The side and bonus a card's ``effect`` gives its dice; None for any other effect.

    >>> card_bonus("defence-dice+2")
    ('defender', Bonus(each=2, one=0, at=None))
    >>> card_bonus("robots+3") is None
    True
    """
    for prefix, side in DICE_EFFECTS.items():
        if effect.startswith(prefix):
            return side, Bonus(each=int(effect.removeprefix(prefix)))
    return None

ROBOT_FORM = "Leaders in Battle, Robot Form: This bonus can be added to any die"

# -- declaring -------------------------------------------------------------------------------------


def attack(state: State, seat: int, event: Attacked) -> State:
    """How to Attack 1 and 2: "Say which zone you are attacking and where you are attacking
    from", then "how many robots you are attacking with (1, 2 or 3)"."""
    state = settled(state)
    if state.phase != "attack":
        refuse("attacks are made in Phase 3 (attack)", rule="Phase 3")
    require_turn(state, seat, state.current, "attack")
    fight = state.attack
    if fight is not None and fight.stage != "won":
        ways = ["continue", "stop"] if fight.stage == "next" else []
        refuse(f"the attack on {state.places[fight.target]} is not over: it waits to "
               f"{WAITS[fight.stage]}", ways, rule="Results")
    source, target = zone_called(state, event.from_), zone_called(state, event.target)
    force = as_force(event)
    check_source(state, seat, source)
    check_attackers(state, source, force)
    check_target(state, seat, source, target, force)
    defender = state.zones[target].owner
    cards = tuple(c for c in state.played if state.board.card(c).lasts == "attack")
    fight = Fight(attacker=seat, defender=defender, source=source, target=target,
                  attacking=force, cards=cards)
    return replace(state, attack=fight, played=tuple(c for c in state.played if c not in cards))


def as_force(pieces: Pieces) -> Force:
    return Force(robots=pieces.robots, vehicles=pieces.vehicles, leader=pieces.leader)


def check_source(state: State, seat: int, source: int) -> None:
    """M2: "You must have 2 or more robots in the zone you are attacking from" (A6: the
    leader counts, a vehicle is one piece)."""
    zone = state.zones[source]
    if zone.owner != seat:
        refuse(f"you do not control {state.places[source]}", rule="Phase 3")
    if zone.pieces < data.ATTACK_FROM.value:
        refuse(f"{state.places[source]} has {zone.pieces} piece: you must have 2 or more "
               "robots in the zone you are attacking from", rule="When Can I Attack?")


def check_attackers(state: State, source: int, force: Force) -> None:
    """M3 and M5: 1 to 3 pieces of the source, one left behind; the leader if he is there."""
    zone = state.zones[source]
    most = min(data.ATTACK_MAX.value, zone.pieces - 1)
    if not 1 <= force.dice <= most:
        refuse(f"attack with {one_to(most)} from {state.places[source]}, not "
               f"{force.dice} (one piece must stay behind)", rule="How to Attack 2")
    check_pieces(state, source, force)


def check_pieces(state: State, place: int, force: Force) -> None:
    """Refuse pieces ``place`` does not hold."""
    zone = state.zones[place]
    if force.robots > zone.robots or force.vehicles > zone.vehicles or force.leader > zone.leader:
        refuse(f"{state.places[place]} holds {zone.robots} robots, {zone.vehicles} vehicles "
               f"and {'the' if zone.leader else 'no'} leader", rule="How to Attack 3")
    if min(force.robots, force.vehicles) < 0:
        refuse("a count of pieces cannot be negative", rule="How to Attack 2")


def check_target(state: State, seat: int, source: int, target: int, force: Force) -> None:
    """M1: an enemy zone next to the source (never a teammate's); Megatron in vehicle form
    "can attack any zone" and "must attack alone" (A13 ``megatron-alone``)."""
    owner = state.zones[target].owner
    if owner in (seat, NOBODY):
        refuse(f"{state.places[target]} is your own zone: attack an enemy zone",
               rule="Neighboring Zones: You can only attack an enemy zone")
    if owner in teammates(state, seat):
        refuse(f"{state.places[target]} is your teammate's: in the 4-player game you cannot "
               "attack your teammate", rule="When Can I Attack?")
    near = target in neighbours(state, source)
    megatron = flying_megatron(state, seat, force)
    alone = force == LEADER_ALONE
    if megatron and (not near or state.settings.options.megatron_alone == "always"):
        if not alone:
            refuse("Megatron in vehicle form must attack alone: leader=true and nothing else",
                   rule="Leaders in Battle, Vehicle Form")
        return
    if not near:
        refuse(f"{state.places[target]} is not next to {state.places[source]}",
               [state.places[p] for p in neighbours(state, source)
                if state.zones[p].owner not in (seat, NOBODY, *teammates(state, seat))],
               rule="Neighboring Zones")


def neighbours(state: State, place: int) -> list[int]:
    """The places next to ``place`` as the board stands (spinning zones, open factories)."""
    return list(state.board.neighbour_table(state.positions, state.open_factories)[place])


def flying_megatron(state: State, seat: int, force: Force) -> bool:
    """Megatron in vehicle form is among ``seat``'s attackers."""
    me = state.seats[seat]
    return force.leader and me.leader == data.MEGATRON and me.form == data.VEHICLE


def defend(state: State, seat: int, event: Defended) -> State:
    """How to Attack 3: "The defender must say how many robots he is defending with (1 or 2)",
    his leader among them if he is there; Barricade attacking in vehicle form: "the defender can
    only use one robot" (A13 ``barricade``)."""
    fight = stage(state, "defend", "defend")
    if seat != fight.defender:
        refuse(f"{state.name(fight.defender)} defends {state.places[fight.target]}, not "
               f"{state.name(seat)}", [state.name(fight.defender)], rule="How to Attack 3: "
               "The defender must say how many robots he is defending with")
    force = as_force(event)
    most = min(data.DEFEND_MAX.value, state.zones[fight.target].pieces)
    why = f"{state.places[fight.target]} holds {state.zones[fight.target].pieces}"
    if police_car(state, fight):
        most, why = 1, "BARRICADE attacks in vehicle form"
    if not 1 <= force.dice <= most:
        refuse(f"defend with {one_to(most)} ({why}), not {force.dice}", rule="How to Attack 3")
    check_pieces(state, fight.target, force)
    return with_fight(state, replace(fight, defending=force, stage="roll"))


def police_car(state: State, fight: Fight) -> bool:
    """Barricade's vehicle power is on: among the attackers, or (``barricade=source``) in the
    source zone."""
    me = state.seats[fight.attacker]
    if me.leader != data.BARRICADE or me.form != data.VEHICLE:
        return False
    if state.settings.options.barricade == "source":
        return state.zones[fight.source].leader
    return fight.attacking.leader


def again(state: State, seat: int, event: Continued) -> State:
    """Results, Outcome 2: "CONTINUE the attack. Repeat steps 2–7" (A4: 2–6): the attacker
    declares again, then the defender."""
    state = settled(state)
    fight = stage(state, "next", "continue the attack")
    require_turn(state, seat, fight.attacker, "continue the attack")
    force = as_force(event)
    check_attackers(state, fight.source, force)
    check_target(state, seat, fight.source, fight.target, force)
    return with_fight(state, replace(fight, attacking=force, defending=None, stage="defend"))


def stop(state: State, seat: int, event: Stopped) -> State:
    """Results, Outcome 2: "END the attack"."""
    state = settled(state)
    fight = state.attack
    if fight is None or fight.stage not in ("next", "won"):
        refuse("no attack waits to be ended", rule="Results")
    require_turn(state, seat, fight.attacker, "end the attack")
    return replace(state, attack=None)


# -- the roll --------------------------------------------------------------------------------------


def sides_of(force: Force) -> tuple[int, ...]:
    """The dice a force rolls: "6-sided for robots/vehicles or 8-sided for your leader".

    >>> sides_of(Force(robots=1, leader=True))
    (8, 6)
    """
    return (data.LEADER_DIE.value,) * force.leader + (data.ROBOT_DIE.value,) * (
        force.robots + force.vehicles)


def dice_sides(fight: Fight) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each side's dice sizes for the roll about to be made."""
    return sides_of(fight.attacking), sides_of(fight.defending or Force())


def roll(state: State, seat: int, event: Rolled) -> State:
    """How to Attack 4 and 5: "you both roll one die for each of the robots you are using";
    the pairs compared high to low, "If the rolls are equal, the defender wins"."""
    fight = stage(state, "roll", "roll")
    if seat not in (fight.attacker, fight.defender):
        refuse(f"only {state.name(fight.attacker)} and {state.name(fight.defender)} roll",
               rule="How to Attack 4: you both roll")
    if bool(event.attacker) != bool(event.defender):
        refuse("both sides roll at the same time: type both (roll attacker=... defender=...), "
               "or neither and tabletape rolls", rule="How to Attack 4: At the same time: you "
               "both roll one die for each of the robots you are using")
    sides = dice_sides(fight)
    for seat, rolled, wanted in zip((fight.attacker, fight.defender),
                                    (event.attacker, event.defender), sides, strict=True):
        if not dice_fit(rolled, wanted):
            problem = dice.dice_problem(rolled, wanted, state.name(seat))
            if problem:
                refuse(problem, rule="How to Attack 4")
    fight = replace(fight, attacker_dice=event.attacker, defender_dice=event.defender,
                    pluses=(None, None), rounds=fight.rounds + 1, stage="lose", chosen=False)
    return eager(with_fight(state, counted_out(state, fight)))


@lru_cache(maxsize=1024)
def dice_fit(rolled: tuple[Die, ...], sides: tuple[int, ...]) -> bool:
    """Whether ``rolled`` are dice of ``sides`` (any order), each showing one of its faces:
    :func:`.dice.dice_problem` finds nothing (remembered: few dice of few faces)."""
    return dice.dice_problem(rolled, sides, "") is None


NO_BONUSES = (dice.NO_BONUS, dice.NO_BONUS)


def bonuses(state: State, fight: Fight) -> tuple[Bonus, Bonus]:
    """Each side's bonus: cards "for this attack" (played before it: the attack takes them
    from :attr:`.State.played`) and "this turn", and a robot-form leader's +1 (A14)."""
    if not (fight.cards or state.played or fight.attacking.leader
            or (fight.defending is not None and fight.defending.leader)):
        return NO_BONUSES  # no card and no leader in the battle: no bonus (the common roll)
    result = {ATTACKER: Bonus(), DEFENDER: Bonus()}
    for card in (*fight.cards, *state.played):
        found = card_bonus(state.board.card(card).effect)
        if found:
            result[found[0]] = result[found[0]] + found[1]
    for index, side in enumerate((ATTACKER, DEFENDER)):
        if has_plus(state, fight, side):
            result[side] = result[side] + Bonus(one=data.ROBOT_FORM_PLUS.value,
                                                at=fight.pluses[index])
    return result[ATTACKER], result[DEFENDER]


def has_plus(state: State, fight: Fight, side: Side) -> bool:
    """Robot Form: the side's leader "add[s] +1 to any die" when he fights on his side ("The
    bonus only applies if the leader is involved in the battle")."""
    seat, force = ((fight.attacker, fight.attacking) if side == ATTACKER
                   else (fight.defender, fight.defending or Force()))
    me = state.seats[seat]
    words = "attacking" if side == ATTACKER else "defending"
    return (force.leader and me.form == data.ROBOT
            and data.ROBOT_FORM_BONUS.value[me.leader] == words)


def outcome(state: State, fight: Fight) -> tuple[int, int]:
    """(attacker's, defender's) casualties of the roll as recorded."""
    return counted_out(state, fight).losses


def counted_out(state: State, fight: Fight) -> Fight:
    """``fight`` with its roll settled: the casualties, and the dice as they count."""
    attacker_bonus, defender_bonus = bonuses(state, fight)
    losses, counted = settled_roll(fight.attacker_dice, fight.defender_dice, attacker_bonus,
                                   defender_bonus)
    return replace(fight, losses=losses, counted=counted)


@lru_cache(maxsize=4096)
def settled_roll(attacker: tuple[Die, ...], defender: tuple[Die, ...], attacker_bonus: Bonus,
                 defender_bonus: Bonus) -> tuple[tuple[int, int], tuple[dice.Values, dice.Values]]:
    """The casualties of a roll and each side's dice as they count (:func:`.dice.settle` of
    their faces), remembered: a battle's rolls are a few dice of few faces, and every roll,
    +1 placed and status asks again."""
    found = dice.settle(dice.faces(attacker), dice.faces(defender),
                        attacker_bonus=attacker_bonus, defender_bonus=defender_bonus)
    return dice.losses(found.winners), (found.attacker, found.defender)


def plus_one(state: State, seat: int, event: PlusOne) -> State:
    """Robot Form: "+1 to any die, not necessarily the leader's" (A14: one of his own side's
    dice), placed on a die showing ``face`` before any casualty is chosen."""
    fight = stage(state, "lose", "place a +1")
    if fight.chosen:
        refuse("casualties of this roll were already taken: the +1 is placed before them",
               rule=ROBOT_FORM)
    side = ATTACKER if seat == fight.attacker else DEFENDER
    index = 0 if side == ATTACKER else 1
    if seat not in (fight.attacker, fight.defender) or not has_plus(state, fight, side):
        refuse(f"{state.name(seat)} has no robot-form +1 in this battle",
               rule=ROBOT_FORM)
    if fight.pluses[index] is not None:
        refuse("the +1 is already placed", rule=ROBOT_FORM)
    rolled = fight.attacker_dice if side == ATTACKER else fight.defender_dice
    faces = dice.faces(rolled)
    if event.face not in faces:
        refuse(f"no die of {state.name(seat)}'s shows {event.face}",
               [str(f) for f in sorted(set(faces))], rule=ROBOT_FORM)
    fight = put_plus(fight, index, faces.index(event.face))
    return eager(with_fight(state, counted_out(state, fight)))


# -- casualties ------------------------------------------------------------------------------------


def lose(state: State, seat: int, event: Lost) -> State:
    """How to Attack 6: "The loser takes a robot from his zone and puts it on his scrapheap"
    (M8: his choice which; "Only put your leader on the scrapheap if he is the last robot
    left")."""
    fight = stage(state, "lose", "choose casualties")
    if seat not in (fight.attacker, fight.defender):
        refuse(f"{state.name(seat)} is not in this battle", rule="How to Attack 6")
    index = 0 if seat == fight.attacker else 1
    due = fight.losses[index]
    for kind in event.pieces:
        require_word("piece", kind, PIECES)
    if not 1 <= len(event.pieces) <= due:
        refuse(f"{state.name(seat)} loses {due} pieces now, not {len(event.pieces)}",
               rule="How to Attack 6")
    state = with_fight(state, replace(fight, chosen=True))
    for kind in event.pieces:
        state = take(state, index, kind, event.escape)
    return taken(state)


def eligible(state: State, fight: Fight, index: int) -> tuple[str, ...]:
    """The kinds of piece side ``index`` may lose next: robots or vehicles, the leader only when
    he is the last (A5 ``casualties=rolled``: the attacker only from pieces that rolled)."""
    place = (fight.source, fight.target)[index]
    zone = state.zones[place]
    if index == 0 and fight.attacking == LEADER_ALONE and flying_megatron(
            state, fight.attacker, fight.attacking):
        return LEADER_ONLY  # A3: Megatron attacking alone is the casualty when he loses
    rolled = index == 0 and state.settings.options.casualties == "rolled"
    pool = fight.attacking if rolled else zone
    robots, vehicles = pool.robots > 0, pool.vehicles > 0
    if robots or vehicles:
        return KINDS[robots, vehicles]
    return LEADER_ONLY if pool.leader else ()


LEADER_ALONE = Force(leader=True)
"""A leader attacking alone (Megatron in vehicle form, A3)."""
LEADER_ONLY = ("leader",)
KINDS = {(True, False): ("robot",), (False, True): ("vehicle",), (True, True): ("robot", "vehicle")}
"""The casualties a pool offers, by whether it holds robots and vehicles."""


def take(state: State, index: int, kind: str, escape: str = "",
         allowed: tuple[str, ...] | None = None) -> State:
    """One casualty of kind ``kind`` off side ``index``'s zone (``allowed``: what
    :func:`eligible` says now, when the caller asked it already)."""
    fight = state.attack
    assert fight is not None
    if allowed is None:
        allowed = eligible(state, fight, index)
    if kind not in allowed:
        refuse(f"the casualty cannot be a {kind} now", list(allowed), rule="How to Attack 6")
    seat, place = (fight.attacker, fight.source) if index == 0 else (fight.defender, fight.target)
    state = remove(state, seat, place, kind, escape)
    losses = list(fight.losses)
    losses[index] -= 1
    attacking = shrink(fight.attacking, kind) if index == 0 else fight.attacking
    after = state.attack  # as the removal left it
    assert after is not None
    return with_fight(state, replace(after, losses=(losses[0], losses[1]), attacking=attacking,
                                     chosen=True))  # no +1 once a casualty is off the board


def remove(state: State, seat: int, place: int, kind: str, escape: str) -> State:
    """The piece to the scrapheap: a vehicle is exchanged for 3 robots and one of them scrapped
    (Battle Example 7; the 2 that stay are paid in robot units, :func:`.state.take_scrap_robots`:
    with too few robots on the scrapheap a vehicle there, maybe this one, is exchanged for 3);
    Bumblebee in vehicle form escapes to a zone next door (A12)."""
    zone, me = state.zones[place], state.seats[seat]
    if kind == "robot":
        return replace(state, zones=put(state.zones, place, kept(replace(
            zone, robots=zone.robots - 1))), seats=put(state.seats, seat, replace(
            me, scrap_robots=me.scrap_robots + 1)))
    if kind == "vehicle":
        state = with_seat(state, seat, scrap_vehicles=me.scrap_vehicles + 1)
        state, back = take_scrap_robots(state, seat, data.VEHICLE_WORTH.value - 1)
        return with_zone(state, place, replace(zone, vehicles=zone.vehicles - 1,
                                               robots=zone.robots + back.robots))
    state = with_zone(state, place, replace(zone, leader=False))
    to = escape_to(state, seat, place, escape)
    if to is None:
        return with_seat(state, seat, scrapped=True)
    return with_zone(state, to, replace(state.zones[to], leader=True))


def escape_to(state: State, seat: int, place: int, escape: str) -> int | None:
    """Where Bumblebee in vehicle form goes: "move him to a neighboring zone instead of your
    scrapheap. If you do not control a neighboring zone, put him on your scrapheap"."""
    ways = ways_out(state, seat, place)
    if ways is None:
        if escape:
            refuse("only Bumblebee in vehicle form escapes", rule="Vehicle Form")
        return None
    if escape:
        chosen = zone_called(state, escape)
        if chosen not in ways:
            refuse("Bumblebee escapes to a neighbouring zone you control",
                   [state.places[p] for p in ways], rule="Vehicle Form")
        return chosen
    if len(ways) > 1:
        refuse("Bumblebee escapes: say where (escape=ZONE)", [state.places[p] for p in ways],
               rule="Vehicle Form")
    return ways[0] if ways else None


def ways_out(state: State, seat: int, place: int) -> list[int] | None:
    """The zones ``seat``'s leader lost on ``place`` may escape to; None: he has no such power
    (not Bumblebee in vehicle form, or attacking with ``bumblebee-escape=defending``)."""
    fight = state.attack
    assert fight is not None
    me = state.seats[seat]
    if me.leader != data.BUMBLEBEE or me.form != data.VEHICLE or (
            seat == fight.attacker and state.settings.options.bumblebee_escape == "defending"):
        return None
    return [p for p in neighbours(state, place) if state.zones[p].owner == seat]


def shrink(force: Force, kind: str) -> Force:
    """The attacking force less one piece of ``kind`` (a vehicle breaks into 2 robots)."""
    if kind == "robot" and force.robots:
        return replace(force, robots=force.robots - 1)
    if kind == "vehicle" and force.vehicles:
        return replace(force, vehicles=force.vehicles - 1, robots=force.robots + 2)
    if kind == "leader":
        return replace(force, leader=False)
    return force


def choice_needed(state: State, fight: Fight, index: int) -> bool:
    """Side ``index`` must say what it loses: two kinds to choose from, or where Bumblebee
    escapes to."""
    return must_choose(state, fight, index, eligible(state, fight, index))


def must_choose(state: State, fight: Fight, index: int, kinds: tuple[str, ...]) -> bool:
    """:func:`choice_needed`, the kinds side ``index`` may lose (:func:`eligible`) known."""
    if kinds != LEADER_ONLY:
        return len(kinds) > 1
    seat, place = (fight.attacker, fight.source) if index == 0 else (fight.defender, fight.target)
    return len(ways_out(state, seat, place) or ()) > 1


def settled(state: State) -> State:
    """The pending casualties taken where the rules derive them, then the outcome (Results);
    refused when a side must choose first. Any state not waiting for casualties is returned."""
    state = taken(state)
    fight = state.attack
    if fight is not None and fight.stage == "lose":
        index = next(i for i in (1, 0) if fight.losses[i])
        seat = (fight.attacker, fight.defender)[index]
        refuse(f"{state.name(seat)} chooses the casualty first: lose by={quoted(state.name(seat))} "
               "pieces=...", list(eligible(state, fight, index)), rule="How to Attack 6")
    return state


def taken(state: State) -> State:
    """The casualties the rules derive taken, defender first, and the outcome once none are
    left; stops at a side's choice. A state not waiting for casualties is returned as it is."""
    if state.attack is None or state.attack.stage != "lose":
        return state
    for index in (1, 0):
        while (fight := state.attack) is not None and fight.losses[index]:
            kinds = eligible(state, fight, index)
            if must_choose(state, fight, index, kinds):
                return state
            state = take(state, index, kinds[0], allowed=kinds)
    return results(state)


def unplaced(state: State, fight: Fight) -> bool:
    """A robot-form +1 of this roll is still to be placed where it could change the
    casualties (``plus-one`` may follow); where it goes does not matter otherwise."""
    if fight.chosen:
        return False
    for index, side in enumerate((ATTACKER, DEFENDER)):
        if has_plus(state, fight, side) and fight.pluses[index] is None:
            rolled = (fight.attacker_dice, fight.defender_dice)[index]
            tries = [put_plus(fight, index, at) for at in range(len(rolled))]
            if len({outcome(state, t) for t in tries}) > 1:
                return True
    return False


def put_plus(fight: Fight, index: int, at: int) -> Fight:
    """``fight`` with side ``index``'s +1 on its die at ``at``."""
    pluses = list(fight.pluses)
    pluses[index] = at
    return replace(fight, pluses=(pluses[0], pluses[1]))


def eager(state: State) -> State:
    """The casualties taken right away unless a ``plus-one`` may still come."""
    fight = state.attack
    assert fight is not None
    return state if unplaced(state, fight) else taken(state)


def results(state: State) -> State:
    """Results: captured (Outcome 1), failed (Outcome 3) or continue-or-stop (Outcome 2)."""
    fight = state.attack
    assert fight is not None
    if not state.zones[fight.target].pieces:
        return capture(state, fight)
    if state.zones[fight.source].pieces < data.ATTACK_FROM.value:
        return replace(state, attack=None)
    return with_fight(state, replace(fight, stage="next", defending=None))


def capture(state: State, fight: Fight) -> State:
    """Outcome 1: "Move all the attacking robots into the captured zone"; "This ENDS the
    attack" (``move-in`` may follow); the defender may be out of the game (M12)."""
    state = shift(state, fight.source, fight.target, fitting(state, fight))
    state = replace(state, captured=True, attack=replace(fight, stage="won"))
    return eliminate(state, fight.defender)


def fitting(state: State, fight: Fight) -> Force:
    """The attackers left standing, within what the source holds with one piece behind."""
    zone = state.zones[fight.source]
    force = Force(robots=min(fight.attacking.robots, zone.robots),
                  vehicles=min(fight.attacking.vehicles, zone.vehicles),
                  leader=fight.attacking.leader and zone.leader)
    while force.dice and force.dice >= zone.pieces:
        force = one_less(force)
    return force


def one_less(force: Force) -> Force:
    """``force`` less a robot, else a vehicle, else the leader.

    >>> one_less(Force(vehicles=1, leader=True))
    Force(robots=0, vehicles=0, leader=True)
    """
    if force.robots:
        return replace(force, robots=force.robots - 1)
    if force.vehicles:
        return replace(force, vehicles=force.vehicles - 1)
    return replace(force, leader=False)


def shift(state: State, source: int, target: int, force: Force) -> State:
    """``force`` from ``source`` onto ``target``."""
    here, there = state.zones[source], state.zones[target]
    seat = here.owner
    return with_zones(state, source, Zone(
        owner=seat, robots=here.robots - force.robots, vehicles=here.vehicles - force.vehicles,
        leader=here.leader and not force.leader), target, Zone(
        owner=seat, robots=there.robots + force.robots, vehicles=there.vehicles + force.vehicles,
        leader=there.leader or force.leader))


def eliminate(state: State, seat: int) -> State:
    """Out of Robots!: "If you have no robots on the gameboard, your army is destroyed"; its
    cards go back to the draw pile. "If you destroy all enemy armies, you win the game!"."""
    if any(zone.owner == seat and zone.pieces for zone in state.zones):
        return state  # pieces on the board (what on_board counts)
    me = state.seats[seat]
    state = with_seat(state, seat, eliminated=True, hand=())
    state = replace(state, pile=state.pile + len(me.hand))
    if len(armies_left(state)) == 1:  # whoever's turn it is: one side is left
        return replace(state, phase="over", attack=None)
    return state


def move_in(state: State, seat: int, event: MovedIn) -> State:
    """Outcome 1: "You can also move other robots from the attacking zone into the captured
    zone, as long as you leave at least one behind" (not after Megatron's attack on a zone
    that is not a neighbour: "He must attack alone", and only he moves in, A3)."""
    state = settled(state)
    fight = stage(state, "won", "move more pieces in")
    require_turn(state, seat, fight.attacker, "move pieces in")
    if fight.target not in neighbours(state, fight.source):
        refuse(f"Megatron attacked {state.places[fight.target]} alone from afar: only he "
               "moves in", rule="Leaders in Battle, Vehicle Form: He must attack alone (A3)")
    force = as_force(event)
    check_pieces(state, fight.source, force)
    if force.dice >= state.zones[fight.source].pieces:
        refuse("leave at least one piece behind", rule="Results, Outcome 1")
    return replace(shift(state, fight.source, fight.target, force), attack=None)


def finished(state: State) -> State:
    """The state with the attack in progress over, for the end of Phase 3 (the phase machine's
    ``end``): casualties the rules derive are taken; refused while the defender or the dice
    are awaited or a casualty must be chosen. An attack waiting to continue, or a capture
    waiting for ``move-in``, simply ends."""
    state = settled(state)
    fight = state.attack
    if fight is not None and fight.stage in ("defend", "roll"):
        refuse(f"the attack on {state.places[fight.target]} waits to {WAITS[fight.stage]}: "
               "roll it out (a declared attack is taken back with `tabletape undo`)",
               [ACTION[fight.stage]], rule="How to Attack")
    return replace(state, attack=None)


# -- small helpers ---------------------------------------------------------------------------------


def stage(state: State, wanted: str, what: str) -> Fight:
    """The attack in progress, refused unless it is at ``wanted``."""
    fight = state.attack
    if fight is None or fight.stage != wanted:
        now = ("no attack is in progress" if fight is None
               else f"the attack waits to {WAITS[fight.stage]}")
        refuse(f"cannot {what} now: {now}", rule="How to Attack")
    return fight


WAITS = {"defend": "defend", "roll": "roll", "lose": "take casualties",
         "next": "continue or stop", "won": "move in or end"}
ACTION = {"defend": "defend", "roll": "roll", "lose": "lose"}
"""The action an attack waiting at a stage before its outcome needs next."""


# -- what may be recorded -------------------------------------------------------------------------


def battle_actions(state: State) -> tuple[ActionSpec, ...]:
    """The battle actions that may be recorded now in Phase 3, and who records them (the
    attacker declares, continues, stops and moves in; the defender defends; either rolls, places
    a leader's +1 or chooses casualties while the roll waits for them)."""
    if state.phase != "attack":
        return ()
    fight = state.attack
    current = (state.name(state.current),)
    if fight is None:
        return attack_offer(state, current)
    end = offer(Ended, current, "end the attack and Phase 3")
    waiting = tuple(state.name(seat) for seat in waiting_on(state))
    pluses = tuple(state.name(seat) for seat, side in ((fight.attacker, ATTACKER),
                                                       (fight.defender, DEFENDER))
                   if has_plus(state, fight, side))
    return {
        "defend": (offer(Defended, waiting, "1 or 2 pieces"),),
        "roll": (offer(Rolled, waiting, "the dice as they landed (empty: tabletape rolls); "
                       f"{state.name(fight.defender)} may type them too (by=)"),),
        "lose": (offer(Lost, tuple(state.name(seat) for seat in choosers(state, fight)),
                       "the casualties of this roll"),
                 *((offer(PlusOne, pluses, "a robot-form leader's +1"),)
                   if not fight.chosen and pluses else ())),
        "next": (offer(Continued, current, "attack again"), offer(Stopped, current,
                                                                  "end the attack"), end),
        "won": ((offer(MovedIn, current, "more pieces into the captured zone"), end)
                if fight.target in neighbours(state, fight.source)
                else (offer(Stopped, current, "the attack is over"), end)),
    }[fight.stage]


def waiting_on(state: State) -> tuple[int, ...]:
    """The seats the attack in progress waits for: the defender declaring ("The defender must
    say how many robots he is defending with"), the attacker for the roll both make "At the
    same time" (recorded once, by either), the side(s) whose casualty or +1 is a choice, else
    the attacker; () outside an attack.

    A table types an action without ``by=`` and it is credited to the one seat named here.
    """
    fight = state.attack
    if fight is None:
        return ()
    if fight.stage == "defend":
        return (fight.defender,)
    if fight.stage != "lose":
        return (fight.attacker,)
    if unplaced(state, fight):
        return tuple(seat for seat, side in ((fight.attacker, ATTACKER),
                                             (fight.defender, DEFENDER))
                     if has_plus(state, fight, side))
    return choosers(state, fight)


def choosers(state: State, fight: Fight) -> tuple[int, ...]:
    """The seats whose casualty of this roll is a choice (M8: "the loser chooses"); both
    sides when neither's is."""
    seats = (fight.attacker, fight.defender)
    return tuple(seat for index, seat in enumerate(seats)
                 if fight.losses[index] and choice_needed(state, fight, index)) or seats


def attack_offer(state: State, actors: tuple[str, ...]) -> tuple[ActionSpec, ...]:
    """``attack`` while the current player has an attack to make, its ``from`` listing the
    sources that have a target and ``target`` those sources' targets (:func:`attack_targets`);
    nothing when no source has one (every zone down to 1 piece, or next only to friends).

    >>> from tabletape.rules.risk_transformers.game import RiskTransformers
    >>> from tabletape.rules.risk_transformers.moves import start_state
    >>> from tabletape.rules.risk_transformers.options import settings
    >>> game = RiskTransformers()
    >>> begun = start_state(settings(game.options({}, ("Ann", "Bob")), 2), ("Ann", "Bob"))
    >>> attack_offer(replace(begun, phase="attack"), ("Ann",))  # no piece on the board yet
    ()
    """
    seat = state.current
    reach = {source: found for source in controlled(state, seat)
             if (found := attack_targets(state, seat, source))}
    if not reach:
        return ()
    targets = sorted({target for found in reach.values() for target in found})
    choices = {"from": tuple(state.places[p] for p in reach),
               "target": tuple(state.places[p] for p in targets)}
    fields = tuple(msgspec.structs.replace(spec, choices=choices.get(spec.name, ()))
                   for spec in field_specs(Attacked))
    return (ActionSpec(type="attack", actors=actors, fields=fields,
                       doc="from a zone to a neighbouring enemy zone"),)


def attack_targets(state: State, seat: int, source: int) -> list[int]:
    """The places ``seat`` may attack from ``source`` now: none unless it is ``seat``'s with 2
    or more pieces (M2, "You must have 2 or more robots in the zone you are attacking from");
    the enemy zones next to it as the board stands (M1, "You can only attack an enemy zone
    that neighbors one of your zones", never a teammate's), or any enemy zone when Megatron in
    vehicle form stands there ("MEGATRON can attack any zone", A3: from his own zone)."""
    zone = state.zones[source]
    if zone.owner != seat or zone.pieces < data.ATTACK_FROM.value:
        return []
    me = state.seats[seat]
    flies = zone.leader and me.leader == data.MEGATRON and me.form == data.VEHICLE
    near = live_places(state) if flies else neighbours(state, source)
    friends = (NOBODY, seat, *teammates(state, seat))
    return sorted(p for p in near if state.zones[p].owner not in friends)


def one_to(most: int) -> str:
    """How many pieces may be used, in words.

    >>> one_to(0), one_to(1), one_to(3)
    ('no piece', '1 piece', '1 to 3 pieces')
    """
    return {0: "no piece", 1: "1 piece"}.get(most, f"1 to {most} pieces")


def offer(cls: type[Event], actors: tuple[str, ...], doc: str) -> ActionSpec:
    return ActionSpec(type=event_type(cls), actors=actors, fields=field_specs(cls), doc=doc)


def with_fight(state: State, fight: Fight | None) -> State:
    return replace(state, attack=fight)


def battle_dice(state: State) -> Sequence[tuple[int, ...]]:
    """The dice sizes each side rolls now (for ``complete``), or () outside a roll."""
    fight = state.attack
    if fight is None or fight.stage != "roll":
        return ()
    return dice_sides(fight)

