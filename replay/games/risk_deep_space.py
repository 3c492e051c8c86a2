"""Risk: Deep Space in replay: its view, its narrator, and the dice and piece checks its audit uses.

``narrate`` tells what was recorded in table words, then what the fold derived from it, found by
comparing the state before and after: the battle's exchanges and losses, Space Dogs absorbing a
defeat, who holds the planet, Recruits and Gems that changed hands, Force Fields going back by
the board (``force-fields=shield``), the winner, whose turn it is.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tabletape.ledger.events import event_type
from tabletape.ledger.text import plural
from tabletape.replay.render import game_panel
from tabletape.replay.visitor import Visit
from tabletape.rules.board import NOBODY
from tabletape.rules.dice import D6
from tabletape.rules.kernel import IllegalAction, Rules
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
    State,
    card_called,
    invariant_errors,
    on_board,
    rollers,
    seat_called,
)

# -- narration -----------------------------------------------------------------------------------


def narrate(visit: Visit) -> list[str]:
    """What happened at ``visit``: the recorded fact first, then its consequences."""
    before, after = visit.before, visit.after
    told = [recorded(before, visit.record.actor, visit.event, after)]
    told += derived(before, after, visit.event)
    return [sentence for sentence in told if sentence]


def card_name(text: str) -> str:
    try:
        return data.title(card_called(text))
    except Exception:  # a refused event may name no card
        return text


def seat_name(state: State, text: str) -> str:
    """The player a typed name or colour means, as the rules read it (else the text)."""
    try:
        return state.name(seat_called(state, text))
    except IllegalAction:  # a refused event may name nobody
        return text


def planet_name(state: State, text: str) -> str:
    space = state.board.find(text)
    return state.board.space(space).title if space else text


def recorded(before: State, actor: str, event: Any, after: State | None = None) -> str:
    """The fact a person recorded, in table words (battle dice show the Space Dog bonus the
    rules recorded in ``after``; without it they are told bare)."""
    match event:
        case Dealt():
            cards = " and ".join(card_name(c) for c in event.cards)
            player = seat_name(before, event.player)
            return f"The table deals {player} {cards}, face up."
        case Covered():
            planets = " and ".join(planet_name(before, p) for p in event.planets)
            return f"The table covers {planets}: Deep Space."
        case RolledOff():
            pairs = ", ".join(f"{before.name(s)} {d}"
                              for s, d in zip(rollers(before), event.dice, strict=False))
            return f"Roll for first player: {pairs}."
        case Drew():
            return f"{actor} draws {' and '.join(card_name(c) for c in event.cards)}."
        case TradedCards():
            return f"{actor} discards both Action cards for a new Recruit."
        case Mined():
            resource = {"gem": "a Gem", "ore": "an Ore"}.get(event.resource.strip().casefold(),
                                                              event.resource or "nothing said")
            return f"{actor} mines {resource} on {planet_name(before, event.planet)}."
        case Recruited():
            return f"{actor} pays {event.count} Gem{'s' if event.count != 1 else ''} for " \
                   f"{event.count} Recruit{'s' if event.count != 1 else ''}."
        case Moved():
            dog = " with the Space Dog" if event.dog else ""
            return (f"{actor} moves {event.count} from {planet_name(before, event.from_)} to "
                    f"{planet_name(before, event.to)}{dog}.")
        case Battled():
            return battled(before, after, event)
        case Built():
            return f"{actor} builds a Base on {planet_name(before, event.planet)}."
        case Played():
            return played(before, actor, event)
        case Shielded():
            return (f"{actor} pays a Gem and puts a Force Field on "
                    f"{planet_name(before, event.planet)}: no opponent moves onto it until "
                    f"{actor}'s next turn.")
        case Passed():
            return f"{actor} plays no card against the invasion: the dice may roll."
        case SentDog():
            return (f"{actor} sends the Space Dog whose Crew was wiped out to the Crew on "
                    f"{planet_name(before, event.to)}.")
        case Ended():
            return f"{actor} ends the turn."
    return f"{actor}: {event_type(event)}"


def battled(before: State, after: State | None, event: Battled) -> str:
    fight = before.battle
    if fight is None or after is None:
        return f"Dice: attacker {event.attacker}, defender {event.defender}."
    bonus = after.bonus
    shown = [f"{face}" + (" +1" if extra else "")
             for face, extra in zip((event.attacker, event.defender), bonus, strict=True)]
    return (f"{before.name(fight.attacker)} rolls {shown[0]}, "
            f"{before.name(fight.defender)} rolls {shown[1]}.")


def played(before: State, actor: str, event: Played) -> str:
    text = f"{actor} plays {card_name(event.card)}"
    if event.planet:
        text += f" on {planet_name(before, event.planet)}"
    if event.take:
        text += f" and takes {card_name(event.take)}"
    return text + "."


# -- what the fold derived -----------------------------------------------------------------------


def roll_off_news(before: State, after: State, event: Any) -> list[str]:
    """A tie for highest rolls again; a roll decided before the setup is done says who goes
    first (otherwise the first turn says it)."""
    if not isinstance(event, RolledOff):
        return []
    if len(after.contenders) > 1:
        return ["A tie for highest: " + ", ".join(after.name(s) for s in after.contenders)
                + " roll again."]
    if after.order and after.phase != "turn":
        return [f"{after.name(after.order[0])} goes first."]
    return []


def derived(before: State, after: State, event: Any) -> list[str]:
    told: list[str] = []
    told += roll_off_news(before, after, event)
    told += gems_paid(before, after, event)  # paid on the way, before any battle at the end
    told += battle_news(before, after)
    told += shields_lifted(before, after)
    told += dogs_rehomed(before, after)
    if after.winner != NOBODY and before.winner == NOBODY:
        told.append(f"{after.name(after.winner)} has built "
                    f"{data.WIN_BASES.value[len(after.seats)]} Bases and wins!")
    elif after.turn != before.turn and after.phase == "turn":
        told.append(f"Turn {after.turn}: {after.name(after.current)} to play.")
    return told


def battle_news(before: State, after: State) -> list[str]:
    told = []
    if after.battle is not None and before.battle is None:
        started = after.battle
        told.append(f"Battle on {after.title(started.target)}: {after.name(started.attacker)}'s "
                    f"{started.crew} against {after.name(started.defender)}'s "
                    f"{after.recruits[started.target]}.")
    if len(after.dogs) < len(before.dogs):
        told.append("A Space Dog absorbs the defeat and goes back by the board.")
    fight = before.battle
    if fight is not None and after.battle is None:
        holder = after.holders[fight.target]
        if holder == fight.attacker:
            told.append(f"{after.name(fight.attacker)} wins and holds "
                        f"{after.title(fight.target)}.")
        elif holder == fight.defender:
            told.append(f"{after.name(fight.defender)} holds {after.title(fight.target)}.")
        elif holder == NOBODY:
            told.append(f"Nobody is left on {after.title(fight.target)}.")
    for seat in range(len(after.seats)):
        lost = on_board(before, seat) - on_board(after, seat)
        if lost > 0:
            told.append(f"{after.name(seat)} loses {lost} Recruit{'s' if lost != 1 else ''}.")
    return told


def dogs_rehomed(before: State, after: State) -> list[str]:
    """Space Dogs whose Crew an Action card wiped out: where they went."""
    told = []
    for dog in after.dogs:
        owner = after.name(dog.owner)
        if dog.stray and dog not in before.dogs:
            told.append(f"{owner}'s Space Dog, its Crew wiped out, joins the Crew on "
                        f"{after.title(dog.space)} ({owner} may send it to another: "
                        "send-dog to=PLANET).")
        elif dog.waiting and dog not in before.dogs:
            told.append(f"{owner}'s Space Dog, its Crew wiped out, waits at the Home Station.")
    return told


def shields_lifted(before: State, after: State) -> list[str]:
    """Force Fields that went back by the board (at their owner's next turn)."""
    return [f"{after.name(owner)}'s Force Field on {after.title(p)} goes back by the board."
            for p, owner in before.shields if (p, owner) not in after.shields]


def gems_paid(before: State, after: State, event: Any) -> list[str]:
    if not isinstance(event, Moved):
        return []
    seat = after.current
    paid = before.seats[seat].gems - after.seats[seat].gems
    return ["Passing through the centre costs a Gem."] if paid > 0 else []


# -- audit hooks ---------------------------------------------------------------------------------


def dice(visit: Visit) -> list[tuple[str, int, int]]:
    """The dice of one event as ``(player, sides, face)``: battle exchanges and roll-offs."""
    event, before = visit.event, visit.before
    if isinstance(event, Battled) and before.battle is not None:
        fight = before.battle
        return [(before.name(fight.attacker), D6, event.attacker),
                (before.name(fight.defender), D6, event.defender)]
    if isinstance(event, RolledOff):
        return [(before.name(s), D6, d)
                for s, d in zip(rollers(before), event.dice, strict=False)]
    return []


def conservation(state: State) -> list[str]:
    """Every Recruit, Base, Gem, Ore, Space Dog, Force Field and Action card is somewhere."""
    return invariant_errors(state)


# -- the view ------------------------------------------------------------------------------------


def view(rules: Rules[Any], state: Any) -> RenderableType:
    """The board (who holds each planet, with Recruits, Bases, Space Dogs, Force Fields),
    players, supply."""
    figures = rules.figures(state)
    extra = rules.extra(state)
    parts: list[RenderableType] = [board_table(extra), players_table(figures, extra),
                                   supply_text(extra)]
    if extra["battle"]:
        parts.append(battle_panel(extra["battle"]))
    parts.extend(setup_parts(extra))
    return game_panel(rules, state, parts)


def board_table(extra: dict[str, Any]) -> Table:
    table = Table(title="Board", title_justify="left", expand=True)
    for column in ("planet", "held by", "recruits", "bases", "space dog"):
        table.add_column(column)
    for planet in extra["planets"]:
        name = planet["name"]
        kind = kind_words(planet)
        label = Text(name)
        if kind:
            label.append(f" ({kind})", style="dim")
        if planet.get("force_field"):
            label.append(f" [Force Field: {planet['force_field']}]", style="bold")
        if planet["covered"]:
            table.add_row(label, Text("Deep Space", style="dim"), "", "", "")
            continue
        table.add_row(label, planet["holder"] or "-",
                      str(planet["recruits"]) if planet["recruits"] else "-",
                      ", ".join(planet["bases"]) or "-",
                      ", ".join(planet["space_dogs"]) or "-")
    return table


def kind_words(planet: dict[str, Any]) -> str:
    words = []
    for tag in planet["tags"]:
        if tag.startswith("home:"):
            words.append(f"{tag[5:]} home")
        elif tag in ("corner", "centre"):
            words.append(tag)
    return ", ".join(words)


def players_table(figures: list[dict[str, Any]], extra: dict[str, Any]) -> Table:
    table = Table(title="Players", title_justify="left", expand=True)
    for column in ("player", "bases", "recruits (supply)", "gems", "ore", "dogs", "cards"):
        table.add_column(column)
    for player in figures:
        name = Text(f"{player['name']} ({player['colour']})",
                    style="bold" if player["turn"] else "")
        if player["first"]:
            name.append(" first", style="dim")
        table.add_row(name, f"{player['bases']}/{extra['win_bases']}",
                      f"{player['recruits']} ({player['recruits_in_supply']})",
                      str(player["gems"]), str(player["ore"]), str(player["space_dogs"]),
                      ", ".join(data.title(c) for c in player["cards"]) or "-")
    return table


def supply_text(extra: dict[str, Any]) -> Text:
    supply = extra["supply"]
    discard = sum(extra["discard"].values())
    return Text(f"by the board: {plural(supply['gems'], 'Gem')}, {supply['ore']} Ore, "
                f"{plural(supply['space_dogs'], 'Space Dog')}"
                + (f", {supply['force_fields']} Force Fields"
                   if extra.get("force_fields") == "shield" else "")
                + f"; Action deck {extra['deck_size']}, "
                f"discards {discard}; {plural(extra['movements_left'], 'movement')} left"
                + (" (Energy Boost)" if extra["energy_boost"] else ""))


def battle_panel(battle: dict[str, Any]) -> Panel:
    lines = [f"{battle['attacker']} ({battle['attacking']}, dogs {battle['attacker_dogs']}) "
             f"attacks {battle['defender']} ({battle['defending']}, dogs "
             f"{battle['defender_dogs']}) on {battle['planet']} from {battle['from']}"]
    if battle["last"]:
        lines.append(f"last exchange: {battle['last'][0]} against {battle['last'][1]}")
    return Panel("\n".join(lines), title=f"battle ({plural(battle['exchanges'], 'exchange')})",
                 title_align="left")


def setup_notes(rules: Rules[Any], state: Any) -> RenderableType:
    """What ``new`` says of a game just started: the board in force (a reconstruction unless the
    table gave its own) and the defaults the rulebook does not print, marked."""
    return Group(*setup_parts(rules.extra(state)))


def setup_parts(extra: dict[str, Any]) -> list[Text]:
    return [board_note(extra), readings_text(extra)]


def readings_text(extra: dict[str, Any]) -> Text:
    """The values the rulebook does not print, each marked: ``[I default; option X]`` for our
    reading, ``[set by the table]`` for the table's choice."""
    text = Text("not printed in the rulebook (I: our reading, a default; change it with "
                "--option at new):", style="dim")
    for row in extra["readings"]:
        if not row["default"]:
            mark = "set by the table"
        else:
            mark = f"I default; option {row['option']}" if row["option"] else "I default"
        text.append(f"\n  {row['rule']}: {row['value']} [{mark}]",
                    style="dim" if row["default"] else "bold")
    return text


def board_note(extra: dict[str, Any]) -> Text:
    board = extra["board"]
    mark = f" [{board['mark']}]" if board["mark"] not in ("", "R", "V") else ""
    note = f": {board['note']}" if board["note"] else ""
    return Text(f"board: {board['name']}{mark}{note}", style="dim")


__all__ = ["conservation", "dice", "narrate", "setup_notes", "view"]
