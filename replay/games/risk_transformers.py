"""Risk: Transformers in replay: its view, its narrator, and the dice and piece checks of its audit.

``narrate`` tells what was recorded in table words, then what the fold derived from it, found by
comparing the state before and after: the robots Phase 1 gave (and what a short scrapheap could
not give, A10), the dice settled with the cards' and a robot-form leader's +1, casualties (a
vehicle exchanged for 3 robots, one of them scrapped), captures, gifts, armies destroyed, the
phase, turn and day that follow. The view shows Cybertron sector by sector (bonus and holder),
each zone's owner and pieces, spinning zones' positions and war factories, the day, hands (known
cards face up, the face-down ones counted), scrapheaps, the attack in progress (its last roll as
the dice landed and as they counted), and what may be recorded now. The default board is a
reconstruction (mark I): the view, ``new``'s notes and the narration's first line say so (the
last in :mod:`tabletape.replay.narrate`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace
from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tabletape.ledger.events import event_type
from tabletape.ledger.text import plural
from tabletape.replay.render import game_panel, won_words
from tabletape.replay.visitor import Visit
from tabletape.rules import dice as dice_rules
from tabletape.rules.kernel import Result, Rules
from tabletape.rules.risk_transformers import RULES, data
from tabletape.rules.risk_transformers.battle import WAITS, bonuses, choice_needed, unplaced
from tabletape.rules.risk_transformers.events import (
    AllSpark,
    Attacked,
    BackedUp,
    Changed,
    Continued,
    Defended,
    Drew,
    Ended,
    Exchanged,
    Gifted,
    Jumped,
    Lost,
    Morphed,
    MovedIn,
    Pieces,
    Placed,
    Played,
    PlusOne,
    Revived,
    Rolled,
    Stopped,
)
from tabletape.rules.risk_transformers.options import readings
from tabletape.rules.risk_transformers.reinforce import PHASE_WORDS, phase_words
from tabletape.rules.risk_transformers.state import (
    TURN_PHASES,
    Fight,
    Force,
    Receipt,
    State,
    Zone,
    controls_sector,
    exchanges,
    invariant_errors,
    on_board,
    robot_units,
    scrap_units,
    sector_places,
    teammates,
    zones_held,
)
from tabletape.rules.seats import NOBODY

BOARD_HINT = "a table supplies its own with --option board=FILE"
"""How a table replaces the shipped board, said wherever the reconstruction is shown."""

# -- names in table words ------------------------------------------------------------------------


def agrees(count: int, verb: str) -> str:
    """The verb agreeing with ``count`` things: ``moves`` for one, ``move`` for more.

    >>> agrees(1, "move"), agrees(3, "move"), agrees(1, "choose")
    ('moves', 'move', 'chooses')
    """
    return f"{verb}s" if count == 1 else verb


def a_number(number: int) -> str:
    """``a 7``, ``an 8``, ``an 11``: the article as the number is said.

    >>> a_number(7), a_number(8), a_number(11), a_number(18)
    ('a 7', 'an 8', 'an 11', 'an 18')
    """
    article = "an" if str(number).startswith("8") or number in (11, 18) else "a"
    return f"{article} {number}"


def zone_title(state: State, text: str) -> str:
    """The name people read for a zone typed as ``text`` (the text when no zone has it)."""
    found = state.board.board.find(text)
    return state.board.board.space(found).title if found else text


def card_title(state: State, text: str) -> str:
    """A card's printed name (the id when the board has no such card)."""
    try:
        return state.board.card(text).name
    except KeyError:
        return text


def leader_title(state: State, seat: int) -> str:
    return data.LEADER_TITLES[state.seats[seat].leader]


def sector_title(state: State, sector: str) -> str:
    return next((s.name for s in state.board.section.sectors if s.id == sector), sector)


def pieces_words(state: State, seat: int, pieces: Pieces | Force | Zone) -> str:
    """``3 robots and Optimus Prime``, ``a vehicle``, ``Megatron``: pieces of ``seat``."""
    words = [plural(pieces.robots, "robot")] if pieces.robots else []
    if pieces.vehicles:
        words.append("a vehicle" if pieces.vehicles == 1 else plural(pieces.vehicles, "vehicle"))
    if pieces.leader:
        words.append(leader_title(state, seat))
    return " and ".join(words) or "nothing"


def pieces_count(pieces: Pieces | Force | Zone) -> int:
    """How many pieces: a leader counts one, like a robot or a vehicle."""
    return pieces.robots + pieces.vehicles + int(pieces.leader)


def seat_called(state: State, name: str) -> int:
    """The seat of a player named ``name`` (any case), else ``NOBODY``."""
    wanted = name.strip().casefold()
    return next((s for s, me in enumerate(state.seats) if me.name.casefold() == wanted), NOBODY)


def source_words(state: State, receipt: Receipt) -> str:
    """Where Phase 1's robots came from: ``15 zones``, ``Yellow``, ``Mass-Production``."""
    if receipt.source in state.board.sectors:
        return f"the {sector_title(state, receipt.source)} sector"
    if receipt.source in state.board.card_ids:
        return card_title(state, receipt.source)
    if receipt.source in state.board.factories.values():
        return f"the {zone_title(state, receipt.source)}"
    if receipt.source in state.places:
        return zone_title(state, receipt.source)
    counted = re.fullmatch(r"(\d+) zones", receipt.source)
    return plural(int(counted[1]), "zone") if counted else receipt.source


def receipts_words(state: State, receipts: Sequence[Receipt]) -> str:
    """``7 robots: 5 for 15 zones, 2 for the Yellow sector``; a receipt the scrapheap ran short
    of says what it gave of what was owed (A10: a player places what exists): ``no robots: 0
    of 7 for 21 zones (7 short)``."""
    total = sum(r.robots for r in receipts)
    parts = ", ".join(f"{r.robots}{f' of {r.robots + r.short}' if r.short else ''} for "
                      f"{source_words(state, r)}{f' ({r.short} short)' if r.short else ''}"
                      for r in receipts)
    return f"{plural(total, 'robot') if total else 'no robots'}: {parts}"


# -- narration -----------------------------------------------------------------------------------


def narrate(visit: Visit) -> list[str]:
    """What happened at ``visit``: the recorded fact first, then its consequences."""
    before, after = visit.before, visit.after
    told = [recorded(before, visit.record.actor, visit.event, after)]
    told += derived(before, after, visit.event)
    return [sentence for sentence in told if sentence]


def recorded(before: State, actor: str, event: Any, after: State) -> str:
    """The fact a person recorded, in table words."""
    match event:
        case Placed() | Played() | Revived() | Morphed() | Changed() | Exchanged():
            return outside_battle(before, actor, event, after)
        case Attacked() | Defended() | Continued() | Stopped() | Rolled() | PlusOne() | Lost() \
                | MovedIn():
            return in_battle(before, actor, event, after)
        case BackedUp() | Gifted() | Jumped() | Drew() | Ended() | AllSpark():
            return turn_end(before, actor, event, after)
    return f"{actor}: {event_type(event)}"


def outside_battle(before: State, actor: str, event: Any, after: State) -> str:
    """Setup, Phase 1 and Phase 2."""
    match event:
        case Placed() if before.phase in ("setup", "leftover"):
            return f"{actor} places a robot on {zone_title(before, event.zone)}."
        case Placed():
            return f"{actor} places {plural(event.count, 'robot')} on " \
                   f"{zone_title(before, event.zone)}."
        case Played():
            return played(before, actor, event)
        case Revived():
            seat = seat_called(before, actor)
            return (f"{actor} pays {data.LEADER_RETURN.value} operational robots to bring "
                    f"{leader_title(before, seat)} back on {zone_title(before, event.zone)}, "
                    f"in {event.form} form.")
        case Morphed():
            seat = seat_called(after, actor)
            return f"{actor} morphs {leader_title(after, seat)} into " \
                   f"{after.seats[seat].form} form."
        case Changed():
            return changed(before, actor, event)
        case Exchanged():
            return exchanged(before, actor, event)
    return f"{actor}: {event_type(event)}"


def exchanged(before: State, actor: str, event: Exchanged) -> str:
    """Things to Know: "You can exchange 3 robots for 1 vehicle, or vice versa, at any time"."""
    worth = data.VEHICLE_WORTH.value
    vehicles = "a vehicle" if event.count == 1 else plural(event.count, "vehicle")
    robots = plural(worth * event.count, "robot")
    given, taken = ((robots, vehicles) if event.to.strip().casefold().startswith("vehicle")
                    else (vehicles, robots))
    return (f"{actor} exchanges {given} for {taken} on {zone_title(before, event.zone)} "
            "(with the scrapheap).")


def played(before: State, actor: str, event: Played) -> str:
    """A card played, with what the table noted it did (after a dash: a placeholder card's name
    already ends in brackets)."""
    text = f"{actor} plays {card_title(before, event.card)}"
    if event.zone:
        text += f" on {zone_title(before, event.zone)}"
    return text + (f" – {event.note}." if event.note else ".")


def changed(before: State, actor: str, event: Changed) -> str:
    """A spinning zone turned, or a sliding zone opened or closed, with a card's change icon."""
    zone = zone_title(before, event.zone)
    card = card_title(before, event.card)
    if event.to == "open":
        what = (f"{zone} slides open and reveals its secret war factory; {actor} puts a robot "
                "from the scrapheap in it")
    elif event.to == "closed" and before.board.board.find(event.zone) in before.board.sliding:
        what = f"{zone} slides closed over its war factory: anything on it is crushed"
    else:
        what = f"{zone} spins to {event.to}"
    return f"{actor} plays {card} for its change icon: {what}."


def in_battle(before: State, actor: str, event: Any, after: State) -> str:
    """Phase 3: declaring, rolling, casualties and moving in."""
    fight = before.attack
    match event:
        case Attacked():
            return (f"{actor} attacks {zone_title(before, event.target)} from "
                    f"{zone_title(before, event.from_)} with "
                    f"{pieces_words(before, seat_called(before, actor), event)}.")
        case Defended() if fight is not None:
            return (f"{actor} defends {before.board.board.space(before.places[fight.target]).title}"
                    f" with {pieces_words(before, fight.defender, event)}.")
        case Continued() if fight is not None:
            return (f"{actor} continues the attack with "
                    f"{pieces_words(before, fight.attacker, event)}.")
        case Stopped():
            return f"{actor} ends the attack."
        case Rolled() if fight is not None:
            return rolled(before, event, after)
        case PlusOne():
            seat = seat_called(before, actor)
            return (f"{actor} puts {leader_title(before, seat)}'s +1 on the {event.face}: it "
                    f"counts {event.face + data.ROBOT_FORM_PLUS.value}.")
        case Lost():
            seat = seat_called(before, actor)
            escape = (f"; {leader_title(before, seat)} escapes to "
                      f"{zone_title(before, event.escape)} instead of the scrapheap"
                      ) if event.escape else ""
            return (f"{actor} chooses the casualties: "
                    f"{pieces_words(before, seat, lost_pieces(event.pieces))}{escape}.")
        case MovedIn() if fight is not None:
            return moved_in(before, actor, event, fight)
    return f"{actor}: {event_type(event)}"


def lost_pieces(words: Sequence[str]) -> Pieces:
    """``lose pieces=robot,leader`` as pieces (plurals and any case, as the rules read them).

    >>> lost_pieces(("Robots", "robot", "leader"))
    Pieces(robots=2, vehicles=0, leader=True)
    """
    kinds = [word.strip().casefold().removesuffix("s") for word in words]
    return Pieces(robots=kinds.count("robot"), vehicles=kinds.count("vehicle"),
                  leader="leader" in kinds)


def moved_in(before: State, actor: str, event: MovedIn, fight: Fight) -> str:
    """After a capture: more pieces into the zone won, or the rest left where they were."""
    target = zone_title(before, before.places[fight.target])
    if not pieces_count(event):
        return (f"{actor} moves no more pieces into {target}: the rest stay in "
                f"{zone_title(before, before.places[fight.source])}.")
    return f"{actor} moves {pieces_words(before, fight.attacker, event)} more into {target}."


def dice_words(rolled: Sequence[dice_rules.Die]) -> str:
    """A roll in table words: d6 as faces, other dice named.

    >>> dice_words((dice_rules.Die(6, 4), dice_rules.Die(8, 3))), dice_words(())
    ('4 and 3 on the d8', 'nothing')
    """
    words = [str(d.face) if d.sides == dice_rules.D6 else f"{d.face} on the d{d.sides}"
             for d in rolled]
    if len(words) < 2:
        return words[0] if words else "nothing"
    return ", ".join(words[:-1]) + " and " + words[-1]


def rolled(before: State, event: Rolled, after: State) -> str:
    """Both sides' dice as they landed, the +1 where it went, and the pairs' winners."""
    fight = before.attack
    assert fight is not None
    placed = after.attack.pluses if after.attack is not None else (None, None)
    fight = replace(fight, attacker_dice=event.attacker, defender_dice=event.defender,
                    pluses=placed)
    text = (f"{before.name(fight.attacker)} rolls {dice_words(event.attacker)}; "
            f"{before.name(fight.defender)} rolls {dice_words(event.defender)}.")
    return text + " " + settled_words(before, fight)


def settled_words(state: State, fight: Fight) -> str:
    """The roll after bonuses: the +1s placed and who wins each pair (ties to the defender)."""
    bonus = bonuses(state, fight)
    raw = (dice_rules.faces(fight.attacker_dice), dice_rules.faces(fight.defender_dice))
    result = dice_rules.settle(*raw, attacker_bonus=bonus[0], defender_bonus=bonus[1])
    words = []
    for seat, was, now, at in zip((fight.attacker, fight.defender), raw,
                                  (result.attacker, result.defender), fight.pluses, strict=True):
        raised = [(a, b) for a, b in zip(was, now, strict=True) if a != b]
        how = ", best placed," if at is None and len(was) > 1 else ""
        if len(raised) == 1:
            words.append(f"{leader_title(state, seat)}'s +1{how} makes the {raised[0][0]} "
                         f"{a_number(raised[0][1])}")
        elif raised:
            words.append(f"{state.name(seat)}'s dice count {', '.join(map(str, now))}")
    winner = {dice_rules.ATTACKER: state.name(fight.attacker),
              dice_rules.DEFENDER: state.name(fight.defender)}
    pairs = [f"{a} against {d}: {winner[side]}"
             for a, d, side in zip(sorted(result.attacker, reverse=True),
                                   sorted(result.defender, reverse=True), result.winners,
                                   strict=False)]
    return "; ".join([*words, *pairs]) + "."


def turn_end(before: State, actor: str, event: Any, after: State) -> str:
    """Phases 4 and 5, ends of phases, the AllSpark."""
    match event:
        case BackedUp():
            seat = seat_called(before, actor)
            card = f" with {card_title(before, event.card)}" if event.card else ""
            return (f"{actor} calls for back-up{card}: {pieces_words(before, seat, event)} from "
                    f"{zone_title(before, event.from_)} to {zone_title(before, event.to)}.")
        case Gifted():
            return (f"{actor} gives {zone_title(before, event.zone)} to "
                    f"{teammate_words(before, actor)} instead of calling for back-up.")
        case Jumped():
            seat = seat_called(before, actor)
            return f"{leader_title(before, seat)} jumps to {zone_title(before, event.to)}."
        case Drew():
            card = card_title(before, event.card) if event.card else "a card face down"
            return f"{actor} draws {card} for capturing a zone."
        case Ended():
            return ended(before, actor, event, after)
        case AllSpark():
            return (f"{actor} turns the top card of the draw pile face up for the AllSpark: "
                    f"{card_title(before, event.card)}.")
    return f"{actor}: {event_type(event)}"


def teammate_words(state: State, actor: str) -> str:
    """``teammate Cat``: the player a 4-player gift goes to (A17)."""
    mates = teammates(state, seat_called(state, actor))
    return f"teammate {state.name(mates[0])}" if mates else "the teammate"


def ended(before: State, actor: str, event: Ended, after: State) -> str:
    """The end of a phase, or of the turn (which first goes through Phase 5 when a capture
    owes a card)."""
    if event.turn and after.turn == before.turn and after.phase in TURN_PHASES:
        return f"{actor} skips to the end of the turn."
    if event.turn:
        return f"{actor} ends the turn."
    return f"{actor} ends {PHASE_WORDS.get(before.phase, before.phase)}."


# -- what the fold derived -----------------------------------------------------------------------


def derived(before: State, after: State, event: Any) -> list[str]:
    """The consequences of one event, found by comparing the states."""
    told = [] if isinstance(event, Revived | Exchanged) else scrapheap_news(before, after)
    told += battle_news(before, after, event)
    told += gift_news(before, after, event)
    told += allspark_news(before, after, event)
    told += [f"{after.name(s)} has no robots left on the board: the army is destroyed."
             for s, me in enumerate(after.seats)
             if me.eliminated and not before.seats[s].eliminated]
    progress, received = progress_news(before, after), received_news(before, after)
    # a new turn is announced before what its player receives; within a turn (steps C and D)
    # the robots come before the phase they end
    return told + (progress + received if after.turn != before.turn else received + progress)


def received_news(before: State, after: State) -> list[str]:
    """Robots Phase 1 gave since ``before`` (at the turn's start, and at steps C and D)."""
    if after.phase not in TURN_PHASES:
        return []
    new = after.received if after.turn != before.turn else after.received[len(before.received):]
    if not new:
        return []
    name = after.name(after.current)
    short = [f"{name}'s scrapheap holds no more robots (A10: place what exists)."] \
        if any(r.short for r in new) else []
    return [f"{name} receives {receipts_words(after, new)}.", *short]


def battle_news(before: State, after: State, event: Any) -> list[str]:
    """A capture, an attack that fails, a side to choose, the attack waiting to go on."""
    fight = before.attack
    now = after.attack
    told = []
    if fight is not None and fight.target < len(after.zones):
        target = after.zones[fight.target]
        if target.owner == fight.attacker and before.zones[fight.target].owner != fight.attacker:
            told.append(f"{after.name(fight.attacker)} captures "
                        f"{zone_title(after, after.places[fight.target])}: "
                        f"{pieces_words(after, fight.attacker, target)} "
                        f"{agrees(pieces_count(target), 'move')} in.")
        elif now is None and not isinstance(event, Stopped | Ended | MovedIn):
            told.append(f"The attack is over: {after.name(fight.attacker)} has fewer than "
                        f"{data.ATTACK_FROM.value} pieces in "
                        f"{zone_title(after, after.places[fight.source])}.")
    if now is not None and now.stage == "next" and (fight is None or fight.stage != "next"):
        told.append(f"{after.name(now.attacker)} may continue the attack (continue) or stop.")
    if now is not None and now.stage == "lose" and any(now.losses):
        told.append(waiting_words(after, now))
    return told


def waiting_words(state: State, fight: Fight) -> str:
    """What a settled roll waits for: a +1 to place, or a side to choose its casualties."""
    losses = " and ".join(f"{state.name(seat)} loses {count}"
                          for seat, count in zip((fight.attacker, fight.defender), fight.losses,
                                                 strict=True) if count)
    if unplaced(state, fight):
        return (f"{losses} unless the +1 goes elsewhere: its player may say where "
                "(plus-one face=N).")
    choosing = [state.name(seat) for index, seat in ((1, fight.defender), (0, fight.attacker))
                if fight.losses[index] and choice_needed(state, fight, index)]
    who = " and ".join(choosing) or "the loser"
    return f"{losses}: {who} {agrees(max(len(choosing), 1), 'choose')} which (lose pieces=...)."


def scrapheap_news(before: State, after: State) -> list[str]:
    """Pieces that went to a scrapheap: casualties (a vehicle lost in battle is "exchange[d] for
    3 robots" and one of them scrapped, Battle Example 7), a crushed war factory, a gift."""
    told = []
    in_battle, worth = before.attack is not None, data.VEHICLE_WORTH.value
    for seat, (was, now) in enumerate(zip(before.seats, after.seats, strict=True)):
        vehicles = now.scrap_vehicles - was.scrap_vehicles
        robots = now.scrap_robots - was.scrap_robots
        lost = max(vehicles, vehicles_lost(before, after, seat)) if in_battle else 0
        if lost > 0:  # the scrapheap pays the robots back in robot units (take_scrap_robots)
            pays = scrap_units(before, seat) + worth * lost * exchanges(before)
            told.append(exchange_words(now.name, lost, pays))
            robots += min((worth - 1) * lost, pays) - lost + worth * (vehicles - lost)
        elif vehicles > 0:
            told.append(f"{now.name} puts {plural(vehicles, 'vehicle')} on the scrapheap.")
        else:  # vehicles exchanged on the scrapheap to pay its robots: none put there
            robots += worth * vehicles
        if robots > 0:
            told.append(f"{now.name} puts {plural(robots, 'robot')} on the scrapheap.")
        if now.scrapped and not was.scrapped:
            told.append(f"{leader_title(after, seat)} goes to the scrapheap.")
    return told


def vehicles_lost(before: State, after: State, seat: int) -> int:
    """``seat``'s vehicles that left the board (a casualty's vehicle may be exchanged on the
    scrapheap at once to pay its robots back, :func:`.state.take_scrap_robots`)."""
    return on_board(before, seat)[1] - on_board(after, seat)[1]


def exchange_words(name: str, vehicles: int, scrapheap: int) -> str:
    """A vehicle lost in battle, as the rulebook tells it (A10: a short scrapheap gives what it
    has).

    >>> exchange_words("Black", 1, 20)
    'Black exchanges a vehicle for 3 robots and puts one of them on the scrapheap.'
    >>> exchange_words("Black", 1, 1)
    'Black exchanges a vehicle for robots and puts it on the scrapheap: 1 robot comes back.'
    >>> exchange_words("Black", 2, 3)
    'Black exchanges 2 vehicles for robots and puts them on the scrapheap: 3 robots come back.'
    """
    worth = data.VEHICLE_WORTH.value
    back = min((worth - 1) * vehicles, scrapheap)
    what = "a vehicle" if vehicles == 1 else plural(vehicles, "vehicle")
    if back == (worth - 1) * vehicles:
        ones = "one" if vehicles == 1 else str(vehicles)
        return (f"{name} exchanges {what} for {worth * vehicles} robots and puts {ones} of them "
                "on the scrapheap.")
    them = "it" if vehicles == 1 else "them"
    return (f"{name} exchanges {what} for robots and puts {them} on the scrapheap: "
            f"{plural(back, 'robot')} {'comes' if back == 1 else 'come'} back.")


def gift_news(before: State, after: State, event: Any) -> list[str]:
    """4 players: the teammate's robot on the zone given."""
    if isinstance(event, Gifted):
        for place, (was, now) in enumerate(zip(before.zones, after.zones, strict=True)):
            if was.owner != now.owner and now.owner != NOBODY:
                name = after.name(now.owner)
                return [f"{name} puts a robot from the scrapheap on "
                        f"{zone_title(after, after.places[place])}: the zone is {name}'s now."]
    return []


def allspark_news(before: State, after: State, event: Any) -> list[str]:
    """"The player who controls this zone immediately puts 3 robots from his scrapheap"."""
    if not isinstance(event, AllSpark):
        return []
    found = before.board.board.find(event.card)
    zone_id = before.board.card(event.card).zone if event.card in before.board.card_ids \
        else found
    if zone_id is None or zone_id not in after.places:
        return []
    now, was = after.at(zone_id), before.at(zone_id)
    added = now.robots - was.robots if now.owner == was.owner else 0
    owner = after.name(now.owner) if now.owner != NOBODY else "nobody"
    if added <= 0:
        return [f"The AllSpark falls on {zone_title(after, zone_id)}: {owner} has no robot on "
                "the scrapheap to add."]
    return [f"The AllSpark brings new life to {zone_title(after, zone_id)}: {owner} adds "
            f"{plural(added, 'robot')}."]


def progress_news(before: State, after: State) -> list[str]:
    """Setup filled, a new day, a new turn, the next phase, the end of the game."""
    result = RULES.result(after)
    if result is not None and RULES.result(before) is None:
        return [f"The game ends: {result_words(result)}."]
    told = []
    if before.phase == "setup" and after.phase == "leftover":
        told.append("Every zone holds a robot: the robots left are placed one at a time on "
                    "each player's own zones.")
    if after.phase == "allspark" and before.phase != "allspark":
        told.append(f"Day {after.day} is over: {after.name(after.current)} turns the AllSpark "
                    "card (allspark).")
    if after.day != before.day and after.day:
        told.append(f"Day {after.day} of {data.DAYS.value} begins.")
    if after.turn != before.turn and after.phase in TURN_PHASES:
        told.append(f"Turn {after.turn}: {after.name(after.current)} to play.")
    elif after.phase != before.phase and after.phase in TURN_PHASES:
        told.append(f"Now {phase_words(after)}.")
    return told


def result_words(result: Result) -> str:
    """Who won and why, the winners named once.

    >>> result_words(Result(winners=("Olga",), reason="Olga won with 22 zones"))
    'Olga won with 22 zones'
    >>> result_words(Result(winners=("Olga",), reason="the most zones"))
    'Olga won (the most zones)'
    >>> result_words(Result(winners=("Ann", "Cat"), team="autobots",
    ...                     reason="the autobots (Ann and Cat) won with the most zones"))
    'the autobots (Ann and Cat) won with the most zones'
    """
    won = won_words(result)
    if result.reason.startswith(won) or (
            " won" in result.reason and all(name in result.reason for name in result.winners)):
        return result.reason
    return f"{won} ({result.reason})" if result.reason else won


# -- audit hooks ---------------------------------------------------------------------------------


def dice(visit: Visit) -> list[tuple[str, int, int]]:
    """The dice of one event as ``(player, sides, face)``: each die of a battle roll as it
    landed, a leader's d8 as a d8 (the robot-form +1 is not part of the face, so the fairness
    test sees the die, not the bonus)."""
    event, before = visit.event, visit.before
    if not isinstance(event, Rolled) or before.attack is None:
        return []
    fight = before.attack
    return [(before.name(seat), die.sides, die.face)
            for seat, rolled in ((fight.attacker, event.attacker),
                                 (fight.defender, event.defender))
            for die in rolled]


def conservation(state: State) -> list[str]:
    """Every robot, vehicle, leader and upgrade card is somewhere (:func:`invariant_errors`)."""
    return invariant_errors(state)


# -- the view ------------------------------------------------------------------------------------


def view(rules: Rules[Any], state: State) -> RenderableType:
    """Cybertron sector by sector, the players, the cards, the attack, what may be done now."""
    parts: list[RenderableType] = [board_note(state, short=True), sectors_table(state),
                                   players_table(state), cards_text(state)]
    if state.attack is not None:
        parts.append(attack_panel(state, state.attack))
    parts.append(may_text(rules, state))
    return game_panel(rules, state, parts)


def board_note(state: State, short: bool = False) -> Text:
    """The board in force and its provenance; a reconstruction says how to supply a board."""
    board = state.board.board
    mark = f" [{board.mark}]" if board.mark not in ("", "R", "V") else ""
    note = board.note.split(":")[0] if short else board.note
    hint = f" ({BOARD_HINT})" if board.mark == "I" and "board=FILE" not in note else ""
    return Text(f"board: {board.name}{mark}" + (f": {note}" if note else "") + hint,
                style="dim")


def sectors_table(state: State) -> Table:
    table = Table(title=f"Cybertron, day {state.day or '-'} of {data.DAYS.value}",
                  title_justify="left", expand=True)
    table.add_column("sector")
    table.add_column("zones: holder and pieces", ratio=1)
    for sector in state.board.sectors:
        table.add_row(sector_label(state, sector), zones_text(state, sector))
    return table


def sector_label(state: State, sector: str) -> Text:
    """``Green +7`` and who holds the whole sector."""
    holders = [me.name for seat, me in enumerate(state.seats)
               if controls_sector(state, seat, sector)]
    label = Text(f"{sector_title(state, sector)} +{state.board.bonus(sector)}", style="bold")
    label.append(f"\n{holders[0]} holds it" if holders else "", style="green")
    return label


def zones_text(state: State, sector: str) -> Text:
    text = Text()
    shown = sector_places(state, sector)
    closed = [f for z, f in state.board.factories.items()
              if f not in state.open_factories and state.board.sector_of(f) == sector]
    for index, place in enumerate(shown):
        if index:
            text.append("; ")
        text.append(zone_title(state, place), style="bold")
        text.append(f" {zone_words(state, place)}")
        extra = special_words(state, place)
        if extra:
            text.append(f" [{extra}]", style="cyan")
    for factory in closed:
        text.append(f"; {zone_title(state, factory)} [closed]", style="dim")
    return text


def zone_words(state: State, place: str) -> str:
    """``Olga 3 + Optimus Prime (robot form)``; ``-`` for an empty zone."""
    zone = state.at(place)
    if zone.owner == NOBODY:
        return "-"
    parts = [str(zone.robots)] if zone.robots else []
    if zone.vehicles:
        parts.append(plural(zone.vehicles, "vehicle"))
    if zone.leader:
        parts.append(f"{leader_title(state, zone.owner)} "
                     f"({state.seats[zone.owner].form} form)")
    return f"{state.name(zone.owner)} {' + '.join(parts)}"


def special_words(state: State, place: str) -> str:
    """A spinning zone's position, a sliding zone's factory, the Launch Pad, an open factory."""
    board = state.board
    if place in board.spinning:
        return f"spinning: {state.standing[place]}"
    if place in board.factories:
        opened = board.factories[place] in state.open_factories
        return f"sliding: factory {'open' if opened else 'closed'}"
    if place in board.factories.values():
        return "war factory, open"
    launch = place == board.launch_pad and zone_title(state, place) != "Launch Pad"
    return "the Launch Pad" if launch else ""


def players_table(state: State) -> Table:
    table = Table(title="Players", title_justify="left", expand=True, box=box.SIMPLE_HEAD)
    for column in ("player", "leader", "zones", "units", "to place", "scrapheap", "hand"):
        table.add_column(column)
    for seat, me in enumerate(state.seats):
        name = Text(me.name, style="bold" if seat == state.current and state.day else "")
        name.append(f" {me.faction}" + (f", team {me.team + 1}"
                                         if len(state.seats) == 4 else ""), style="dim")
        if me.eliminated:
            name.append(" (destroyed)", style="red")
        where = "scrapheap" if me.scrapped else f"{me.form} form"
        table.add_row(name, f"{data.LEADER_TITLES[me.leader]} ({where})",
                      str(zones_held(state, seat)), str(robot_units(state, seat)),
                      str(me.operational), scrapheap_words(me.scrap_robots, me.scrap_vehicles,
                                                           me.scrapped), hand_words(state, seat))
    return table


def scrapheap_words(robots: int, vehicles: int, leader: bool) -> str:
    """``12 robots, 10 vehicles, the leader``, one a line."""
    words = [plural(robots, "robot"), plural(vehicles, "vehicle")]
    return "\n".join(words + (["the leader"] if leader else []))


def hand_words(state: State, seat: int) -> str:
    """Known cards by name, face up; cards drawn face down counted."""
    hand = state.seats[seat].hand
    known = [card_title(state, card) for card in hand if card]
    hidden = len(hand) - len(known)
    words = known + ([f"{hidden} face down"] if hidden else [])
    return ", ".join(words) or "-"


def cards_text(state: State) -> Text:
    """The draw pile, the discards (the last one on top: the AllSpark card after a day)."""
    top = f" (top: {card_title(state, state.discard[-1])})" if state.discard else ""
    return Text(f"upgrade cards: {state.pile} in the draw pile, {len(state.discard)} discarded"
                f"{top}; {phase_words(state)}")


def attack_panel(state: State, fight: Fight) -> Panel:
    lines = [f"{state.name(fight.attacker)} attacks "
             f"{zone_title(state, state.places[fight.target])} from "
             f"{zone_title(state, state.places[fight.source])} with "
             f"{pieces_words(state, fight.attacker, fight.attacking)}"]
    if fight.defending is not None:
        lines.append(f"{state.name(fight.defender)} defends with "
                     f"{pieces_words(state, fight.defender, fight.defending)}")
    if fight.attacker_dice:
        lines.append(last_roll_words(fight))
    title = f"attack: {plural(fight.rounds, 'roll')} so far; waits to {WAITS[fight.stage]}"
    return Panel("\n".join(lines), title=title, title_align="left")


def last_roll_words(fight: Fight) -> str:
    """The last roll as the dice landed and, where a card or a leader's +1 raised any, as they
    counted (:attr:`.Fight.counted`, kept from when it was settled: the pieces that gave a bonus
    may be gone since): ``last roll: 5, 4 and 3 (count 6, 5 and 4) against 4 and 3 on the
    d8``."""
    sides = [counted_words(dice, counted or dice_rules.faces(dice)) for dice, counted in
             zip((fight.attacker_dice, fight.defender_dice), fight.counted, strict=True)]
    return f"last roll: {sides[0]} against {sides[1]}"


def counted_words(landed: Sequence[dice_rules.Die], counted: Sequence[int]) -> str:
    """Dice as they landed, then as they count when a bonus changed any.

    >>> counted_words((dice_rules.Die(6, 5), dice_rules.Die(8, 3)), (6, 4))
    '5 and 3 on the d8 (count 6 and 4 on the d8)'
    """
    words = dice_words(landed)
    if tuple(counted) == dice_rules.faces(landed):
        return words
    raised = [replace(die, face=face) for die, face in zip(landed, counted, strict=True)]
    return f"{words} (count {dice_words(raised)})"


def may_text(rules: Rules[Any], state: State) -> Text:
    """Who may record what now (``tabletape actions`` gives the fields)."""
    offers = rules.legal_actions(state)
    if not offers:
        return Text("nothing may be recorded now", style="dim")
    words = "; ".join(f"{', '.join(spec.actors)}: {spec.type}" for spec in offers)
    return Text(f"may be recorded now: {words}", style="dim")


def setup_notes(rules: Rules[Any], state: State) -> RenderableType:
    """What ``new`` says of a game just started: the board in force (a reconstruction unless the
    table gave its own) and the readings where the rulebook is silent, marked."""
    return Group(board_note(state), readings_text(state))


def readings_text(state: State) -> Text:
    """The readings a table may change, each ``[I default; option X=V]`` or ``[set by the
    table: X=V]``; the fixed ones named."""
    text = Text("where the rulebook is silent (our reading, a default; change it with --option "
                "at new):", style="dim")
    rows = readings(state.settings)
    for row in rows:
        if not row["option"]:
            continue
        typed = f"{row['option']}={value_words(row['value'])}"
        words = row["words"] if len(row["words"]) <= 100 else row["words"].split(";")[0]
        line = (f"{words} [I default; option {typed}]" if row["default"]
                else f"{typed} [set by the table; our default: {words}]")
        text.append(f"\n  {row['reading']} {line}", style="dim" if row["default"] else "bold")
    fixed = ", ".join(row["reading"] for row in rows if not row["option"])
    text.append(f"\n  fixed readings (no option): {fixed}", style="dim")
    return text


def value_words(value: Any) -> str:
    """An option's value as typed (``true`` for a bool)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


__all__ = ["conservation", "dice", "narrate", "setup_notes", "view"]
