"""Marvel United in replay: its view, its narrator, and the bookkeeping check its audit uses.

``narrate`` tells what was recorded in table words, then what the fold derived (the villain's
move, tokens placed and overflowing, Threats cleared, Missions completed, KOs, whose turn it is,
the end), found by comparing the state before and after.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tabletape.ledger.events import event_type
from tabletape.replay.visitor import Visit
from tabletape.rules.kernel import IllegalAction, Rules
from tabletape.rules.marvel_united import data
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
from tabletape.rules.marvel_united.state import State, invariant_errors, seat_of, window_words


def label(name: str) -> str:
    """``times-square`` -> ``Times Square``: location, threat and card names for people."""
    if name in data.LOCATIONS:
        return data.LOCATIONS[name].title
    return name.replace("-", " ").title()


def listing(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# -- narration -----------------------------------------------------------------------------------


def narrate(visit: Visit) -> list[str]:
    """What happened at ``visit``: the recorded fact first, then its consequences."""
    told = [recorded(visit.before, visit.record.actor, visit.event)]
    told += derived(visit.before, visit.after, visit.event)
    return [sentence for sentence in told if sentence]


def recorded(before: State, actor: str, event: Any) -> str:
    villain = data.VILLAINS[before.villain].title
    match event:
        case SetUp():
            return (f"The table sets up {listing([label(n) for n in event.locations])} "
                    f"clockwise; {villain} starts at {label(event.start)}.")
        case Dealt():
            player = hero_called(before, event.player)
            return f"{player} draws an opening hand: {', '.join(event.cards)}."
        case VillainTurn():
            return (f"{villain} plays {label(event.card)}: move {movement(event.move)}"
                    f"{', BaM!' if event.bam else ''}, Thugs {event.thugs}, Civilians "
                    f"{event.civilians}{', a special effect' if event.special else ''}.")
        case Drew():
            who = hero_called(before, event.hero) if event.hero else actor
            return f"{who} draws {', '.join(event.cards) or 'nothing'}."
        case Played():
            return f"{actor} plays {event.card} to the Storyline."
        case Moved():
            return f"{actor} moves to {label(event.to)}."
        case Attacked():
            stays = " (it survives, as the Threat there says)" if event.survives else ""
            return f"{actor} attacks the {event.target}{stays}."
        case Rescued():
            return f"{actor} rescues a Civilian."
        case Heroic():
            return f"{actor} places a Heroic token on the {event.target}."
        case Spent():
            return f"{actor} spends {event.symbol} on the Threat."
        case Special():
            return f"{actor} uses the card's special effect."
        case LocationEffect():
            return f"{actor} uses the Location's End of Turn effect."
        case Ended():
            return f"{actor} ends the turn."
        case Damaged():
            return (f"{hero_called(before, event.hero)} takes {len(event.cards)} damage "
                    f"({', '.join(event.cards)}).")
        case Discarded():
            who = hero_called(before, event.hero) if event.hero else actor
            return (f"{who} discards {', '.join(event.cards)} to the bottom of "
                    "the deck (a cost, not damage).")
        case Tokens():
            return f"Tokens at {label(event.location)}: {token_changes(event)}."
        case Hit():
            where = f" at {label(event.location)}" if event.location else ""
            return f"The {event.target}{where} loses {event.amount} health."
        case Plot():
            return f"Fear {'+' if event.amount > 0 else ''}{event.amount}."
        case Gained():
            return (f"{hero_called(before, event.hero)} gains Action tokens: "
                    f"{', '.join(event.tokens)}.")
        case Invulnerable():
            return f"{hero_called(before, event.hero)} is Invulnerable until their next turn."
        case Relocated():
            return f"{hero_called(before, event.hero)} goes to {label(event.to)}."
        case Swapped():
            return f"{actor} swaps {event.card} from hand for {event.storyline} in the Storyline."
        case Done():
            head = before.pending[0] if before.pending else None
            return f"Done: {window_words(head, before)}." if head else "Done."
    return f"{actor}: {event_type(event)}"


def movement(move: int | None) -> str:
    """``2``, or ``1 counterclockwise`` for a negative move."""
    if move is not None and move < 0:
        return f"{-move} counterclockwise"
    return str(move)


def hero_called(before: State, typed: str) -> str:
    """The player a typed name means, as the rules read it (a player's name, else the hero a
    seat plays): ``hero=captain-america`` -> ``Olga``."""
    try:
        seat = seat_of(before, typed)
    except IllegalAction:  # a prefix of several names names nobody
        return typed
    return before.name(seat) if seat is not None else typed


def token_changes(event: Tokens) -> str:
    parts = [f"{n:+d} {what}" for n, what in ((event.thugs, "Thugs"),
                                              (event.civilians, "Civilians"),
                                              (event.crisis, "Crisis")) if n]
    return ", ".join(parts) + (" (to the Missions)" if event.mission else "")


def derived(before: State, after: State, event: Any) -> list[str]:
    """Consequences: the villain's move, placements, clears, Missions, KOs, turns, the end."""
    told: list[str] = []
    if before.places and after.villain_at != before.villain_at:
        told.append(f"{data.VILLAINS[after.villain].title} moves to "
                    f"{label(after.places[after.villain_at].name)}.")
    told += placed(before, after, event)
    for was, now in zip(before.threats, after.threats, strict=False):
        if now.cleared and not was.cleared:
            told.append(f"{label(now.name)} is cleared.")
    for mission in after.completed[len(before.completed):]:
        told.append(f"The {data.MISSION_TITLES[mission]} Mission is complete.")
    for hero_was, hero in zip(before.heroes, after.heroes, strict=True):
        if hero.ko and not hero_was.ko:
            told.append(f"{hero.player} is KO'd.")
    opened = [s for s in after.pending if s not in before.pending and s.kind != "place"]
    told += [f"Now resolving {window_words(s, after)}." for s in opened[:1]]
    if after.outcome and not before.outcome:
        told.append(f"The game ends: {after.reason}" + (f" ({after.detail})."
                                                         if after.detail else "."))
    elif after.turn is not None and (before.turn is None or before.turn.seat != after.turn.seat):
        told.append(f"{after.name(after.turn.seat)}'s turn.")
        if after.phase == "play" and not isinstance(event, Drew):  # the draw passed by itself
            told.append(f"{after.name(after.turn.seat)} has no card to draw.")
    return told


def placed(before: State, after: State, event: Any) -> list[str]:
    """Thugs and Civilians the rules placed (a villain turn, or the window before them closed)."""
    waiting = isinstance(event, VillainTurn) or any(s.kind == "place" for s in before.pending)
    if not isinstance(event, VillainTurn | Done) or not waiting:
        return []
    if any(s.kind == "place" for s in after.pending) or not before.places:
        return []
    return [f"Placed at {label(a.name)}: {tokens(a.thugs - b.thugs, 'Thug')} and "
            f"{tokens(a.civilians - b.civilians, 'Civilian')}."
            for b, a in zip(before.places, after.places, strict=True)
            if (b.thugs, b.civilians) != (a.thugs, a.civilians)]


def tokens(count: int, word: str) -> str:
    """``1 Thug``, ``2 Thugs``, ``no Civilians``."""
    return f"no {word}s" if count == 0 else f"{count} {word}" + ("s" if count != 1 else "")


# -- audit hooks -----------------------------------------------------------------------------------


def dice(visit: Visit) -> list[tuple[str, int, int]]:
    """Marvel United rolls no dice."""
    return []


def conservation(state: State) -> list[str]:
    """Every card and token accounted for, health in range (the rules' invariant check)."""
    return invariant_errors(state)


# -- the view ------------------------------------------------------------------------------------


def view(rules: Rules[Any], state: Any) -> RenderableType:
    """The ring of locations, the Storyline, the Missions, health and each hero's hand."""
    extra = rules.extra(state)
    figures = rules.figures(state)
    result = rules.result(state)
    turn = rules.turn(state)
    heading = result.reason if result else f"turn {turn.turn}, round {turn.round}: {turn.detail}"
    parts: list[RenderableType] = [villain_line(extra), dashboard_line(extra)]
    if extra["ring"]:
        parts.append(ring_table(extra))
    parts += [heroes_table(figures), missions_line(extra), storyline_line(extra),
              marks_line(extra)]
    return Panel(Group(*parts), title=f"Marvel United: {heading}", title_align="left")


def villain_line(extra: dict[str, Any]) -> Text:
    mark = "" if extra["health_mark"] in ("R", "V") else f" [{extra['health_mark']}]"
    text = Text(f"{extra['villain_title']}: health {extra['health']}/{extra['start_health']}"
                f"{mark}", style="bold")
    if extra["fear"] is not None:
        text.append(f"  Fear {extra['fear']}/{extra['plot_limit']}")
    if extra["under_pressure"]:
        text.append("  Under Pressure", style="red")
    if extra["damageable"]:
        text.append("  damageable", style="green")
    text.append(f"  Masterplan deck {extra['masterplan_deck']}")
    if extra["resolving"]:
        text.append(f"  resolving: {extra['resolving'][0]}", style="yellow")
    return text


def dashboard_line(extra: dict[str, Any]) -> Text:
    """The dashboard's effects, as the rules check them (paraphrased, marked)."""
    board = extra["dashboard"]
    return Text(f"Dashboard [{board['mark']}]: BaM! {board['bam']}; overflow: "
                f"{board['overflow']}. Threat texts are on the cards (not in our data).")


def threat_words(threat: dict[str, Any]) -> str:
    """``Crossbones (6 health, BaM!)``: the Threat, how it is cleared, its symbols."""
    state = f"{threat['health']} health" if threat["henchman"] else slots_words(threat)
    symbols = [word for word, on in (("BaM!", threat["bam"]), ("on move", threat["on_move"]))
               if on]
    return f"{label(threat['name'])} ({', '.join([state, *symbols])})"


def ring_table(extra: dict[str, Any]) -> Table:
    table = Table(title="The ring, clockwise", title_justify="left", expand=True)
    for column in ("location", "thugs/civilians", "threat", "here"):
        table.add_column(column)
    for place in extra["ring"]:
        threat = place["threat"]
        if threat is None:
            covered = f"- (End of Turn open: {place['effect']})"
        else:
            covered = threat_words(threat)
        tokens = f"{place['thugs']}T {place['civilians']}C of {place['slots']}"
        if place["crisis"]:
            tokens += f", {place['crisis']} Crisis"
        here = ([extra["villain_title"]] if place["villain"] else []) + place["heroes"]
        table.add_row(label(place["name"]), tokens, covered, ", ".join(here))
    return table


def slots_words(threat: dict[str, Any]) -> str:
    """``1/3 Heroic``, or ``1 placed, open: M A`` when the slots ask for other actions."""
    open_slots = threat["slots"]
    if set(open_slots) <= {"H"}:
        return f"{threat['heroic']}/{threat['heroic'] + len(open_slots)} Heroic"
    return f"{threat['heroic']} placed, open: {' '.join(open_slots)}"


def heroes_table(figures: list[dict[str, Any]]) -> Table:
    table = Table(title="Heroes", title_justify="left", expand=True)
    for column in ("player", "hero", "hand", "deck", "tokens", "state"):
        table.add_column(column)
    for hero in figures:
        tokens = ", ".join(f"{k} {v}" for k, v in hero["tokens"].items() if v) or "-"
        status = ", ".join(word for word, on in (("KO'd", hero["ko"]),
                                                 ("Invulnerable", hero["invulnerable"]),
                                                 ("to play", hero["turn"])) if on)
        table.add_row(hero["name"], data.HERO_TITLES[hero["hero"]], str(hero["hand"]),
                      str(hero["deck"]), tokens, status or "-")
    return table


def missions_line(extra: dict[str, Any]) -> Text:
    parts = [f"{data.MISSION_TITLES[m]} {v['filled']}/{v['slots']}"
             + (" done" if v["complete"] else "") for m, v in extra["missions"].items()]
    return Text("Missions: " + "; ".join(parts))


def marks_line(extra: dict[str, Any]) -> Text:
    """Which data is the table's and which is shipped placeholder data, marked."""
    marks = extra["data_marks"]
    faces = ("as the table recorded them" if marks["masterplan"] == "table"
             else f"the shipped placeholders [{marks['masterplan']}]")
    symbols = ("as named at setup" if marks["threat_flags"] == "table"
               else f"shipped defaults [{marks['threat_flags']}]")
    return Text(f"marks: Masterplan faces {faces}, Threat symbols {symbols}, hero decks "
                f"[{marks['hero_decks']}], locations [{marks['locations']}] "
                "(shared/research/game-data.md)", style="dim")


def storyline_line(extra: dict[str, Any]) -> Text:
    shown = [entry.replace("villain:", "MP ") for entry in extra["storyline"][-12:]]
    more = len(extra["storyline"]) - len(shown)
    return Text("Storyline: " + ("… " if more else "") + (" | ".join(shown) or "-"))
