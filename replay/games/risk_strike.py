"""Risk Strike in replay: its view, its narrator, and the dice and card checks its audit uses.

``narrate`` tells what was recorded in table words, then what the fold derived, found by comparing
the state before and after: cards that changed hands, surrendered to the lineup or taken from it,
troops lost, coins taken, the battle's end, the winner, whose turn it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tabletape.ledger.events import event_type
from tabletape.ledger.text import plural
from tabletape.replay.render import game_panel
from tabletape.replay.visitor import Visit
from tabletape.rules.dice import D6
from tabletape.rules.kernel import Rules
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
    CANCEL,
    CONTINENTS,
    NOBODY,
    SABOTAGE,
    TACTICS,
    Battle,
    State,
    card_of,
    invariant_errors,
    title,
)


def narrate(visit: Visit) -> list[str]:
    """What happened at ``visit``: the recorded fact first, then its consequences."""
    before, after = visit.before, visit.after
    actor = visit.record.actor
    told = [recorded(before, after, actor, visit.event)]
    told += derived(before, after, visit.event)
    return [sentence for sentence in told if sentence]


# -- what was recorded ---------------------------------------------------------------------------


def recorded(before: State, after: State, actor: str, event: Any) -> str:
    """The fact a person recorded, in table words."""
    match event:
        case Dealt():
            return dealt(event, extra=before.turn > 0 or before.phase == "fourth-card")
        case RolledOff():
            pairs = ", ".join(f"{who} {face}" for who, face in roll_off(before, event))
            return f"Roll-off for first player: {pairs}."
        case Drew():
            return f"{actor} draws {drawn(event)}."
        case Attacked():
            return attacked(after, actor, event)
        case Deployed():
            return deployed(before, actor, event)
        case Rolled():
            return rolled(before, actor, event)
        case Played():
            return played(after, actor, event)
        case Resolved() if event.lost:
            return f"{actor} resolves what is waiting; the troops lost are {troops_of(event.lost)}."
        case Resolved() if helpers_closed(before, after):
            return f"{actor} says no more troops are deployed."
        case Resolved():
            return f"{actor} resolves what is waiting."
        case Retreated():
            return f"{actor} retreats."
        case Passed():
            card = f" ({label(event.drew)})" if event.drew else ""
            return f"{actor} does not attack and draws a tactics card{card}."
    return f"{actor}: {event_type(event)}"


def helpers_closed(before: State, after: State) -> bool:
    """Whether a ``resolve`` ended the helpers' step of Attack Phase 2 (and nothing else)."""
    battle, now = before.battle, after.battle
    return (before.pending is None and battle is not None and now is not None
            and battle.step == "deploy" and now.step != "deploy")


def label(token: str) -> str:
    """``north-america`` -> ``North America``; ``canceled-orders`` -> ``Canceled Orders``."""
    return title(token)


def listing(items: Sequence[str]) -> str:
    """``Asia``, ``Asia and Europe``, ``Asia, Asia and Europe``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def tactics_words(tactics: Sequence[str]) -> str:
    """``troop,2`` -> ``a Troop and 2 tactics cards face down``; ``1`` -> ``a tactics card face
    down``."""
    named = [label(t) for t in tactics if not t.isdigit()]
    hidden = sum(int(t) for t in tactics if t.isdigit())
    face_down = "a tactics card face down" if hidden == 1 else f"{hidden} tactics cards face down"
    return listing([f"{article(name)} {name}" for name in named] + ([face_down] if hidden else []))


def article(word: str) -> str:
    """``an`` before a vowel sound (``an Artillery``, ``an Asia card``), else ``a`` (``a Europe
    card``)."""
    return "an" if word[:1] in "AEIOU" and not word.startswith("Eu") else "a"


def dealt(event: Dealt, *, extra: bool = False) -> str:
    """A deal; ``extra``: after the roll-off, where a tactics card named is Game Setup 6's
    additional card."""
    cards = listing([label(c) for c in event.continents])
    tactics = tactics_words(event.tactics) if event.tactics else ""
    if extra and tactics:
        tactics += " (the additional tactics card)"
    if not cards:
        return f"The table deals {event.player} {tactics}."
    return f"The table deals {event.player} {cards}" + (f", and {tactics}" if tactics else "") + "."


def drawn(event: Drew) -> str:
    parts = []
    if event.continents:
        parts.append(f"{listing([label(c) for c in event.continents])} from the deck")
    if event.lineup:
        parts.append(f"{listing([label(c) for c in event.lineup])} from the lineup")
    if event.tactics:
        parts.append(tactics_words(event.tactics))
    return listing(parts) or "nothing"


def attacked(after: State, actor: str, event: Attacked) -> str:
    """The declaration (Attack Phase 1); the dice are counted only after Phase 2's troops."""
    defender = after.name(after.battle.defender) if after.battle is not None else event.defender
    return f"{actor} attacks {defender}'s {label(event.target)} from {label(event.from_)}."


def deployed(before: State, actor: str, event: Deployed) -> str:
    if not event.troops:
        return f"{actor} deploys no troops."
    troops = plural(event.troops, "troop")
    battle = before.battle
    if battle is None or not event.side:
        return f"{actor} deploys {troops}."
    sides = {"attacker": before.name(battle.attacker), "defender": before.name(battle.defender)}
    helped = sides.get(event.side, event.side)
    if helped == actor:
        return f"{actor} deploys {troops}."
    return f"{actor} deploys {troops} to help {helped}."


def rolled(before: State, actor: str, event: Rolled) -> str:
    battle = before.battle
    defender = before.name(battle.defender) if battle is not None else "the defender"
    attack = ", ".join(map(str, event.attacker))
    defend = ", ".join(map(str, event.defender))
    return f"{actor} rolls {attack} against {defender}'s {defend}."


def troops_of(owners: tuple[str, ...]) -> str:
    """``Carol's and Patrick's``: whose troop each lost pair costs, in order."""
    return listing([f"{owner}'s" for owner in owners])


def played(after: State, actor: str, event: Played) -> str:
    card = label(event.card)
    if card_of(event.card) == CANCEL and after.pending is not None:
        return f"{actor} plays {card}. {answered(after)}"
    if event.side and event.die:
        return f"{actor} plays Bombard on the {event.side}'s {event.die}."
    if event.target and event.troops:
        return f"{actor} plays {card} on {event.target} ({plural(event.troops, 'troop')})."
    if event.target:
        return f"{actor} plays {card} on {event.target}."
    return f"{actor} plays {card}."


def answered(after: State) -> str:
    """What a chain of Canceled Orders leaves: the card waiting is canceled, or stands."""
    pending = after.pending
    assert pending is not None
    whose = f"{after.name(pending.player)}'s {label(TACTICS[pending.card])}"
    return f"{whose} is canceled." if pending.canceled else f"{whose} stands."


# -- what the fold derived -----------------------------------------------------------------------


def derived(before: State, after: State, event: Any) -> list[str]:
    """Consequences: pairs won, cards moved, troops lost, coins, the battle's end, turn, winner."""
    told: list[str] = []
    told += pairs_resolved(before, after, "previous roll" if isinstance(event, Rolled) else "roll")
    told += troops_lost(before, after)
    told += sabotaged(before, after)
    if after.reshuffles > before.reshuffles:
        told.append("The tactics deck ran out: the discard pile is shuffled into a new deck.")
    if not isinstance(event, Dealt | Drew):
        told += cards_moved(before, after)
    told += coins_taken(before, after)
    if isinstance(event, RolledOff) and after.order and not before.order:
        told.append(f"{after.name(after.order[0])} plays first.")
        told += extra_cards_drawn(before, after)
    elif isinstance(event, RolledOff) and not after.order:
        tied = listing([after.name(seat) for seat in after.contenders])
        told.append(f"{tied} tie for the highest and roll again.")
    if before.battle is not None and after.battle is None:
        told.append("The battle is over.")
    if after.winner != NOBODY and before.winner == NOBODY:
        coins = listing([label(CONTINENTS[c]) for c, h in enumerate(after.coins)
                         if h == after.winner])
        told.append(f"{after.name(after.winner)} wins with the {coins} coins.")
    elif after.turn != before.turn and after.turn > 0 and after.winner == NOBODY:
        told.append(f"Turn {after.turn}: {after.name(after.current)} to play.")
    return told


def extra_cards_drawn(before: State, after: State) -> list[str]:
    """Game Setup 6, "all players except the player going first draw an additional tactics
    card": who drew one face down when the roll-off decided (a table may name it later with
    ``deal player=NAME tactics=CARD``)."""
    drew = [after.name(seat) for seat, (was, now) in enumerate(zip(before.seats, after.seats,
                                                                    strict=True))
            if now.unknown > was.unknown]
    if not drew:
        return []
    return [f"{listing(drew)} {'draws' if len(drew) == 1 else 'draw'} an additional tactics "
            "card face down."]


def pairs_resolved(before: State, after: State, which: str) -> list[str]:
    """``The roll is resolved: Olga wins 2 pairs, Patrick 0.`` when a roll was resolved and the
    battle goes on (a new roll first resolves the one before it)."""
    was = before.battle.last if before.battle is not None else None
    battle = after_battle(before, after)
    now = battle.last if battle is not None else None
    if battle is None or now is None or now == was or not now.winners:
        return []
    attacker, defender = after.name(battle.attacker), after.name(battle.defender)
    won = now.winners.count("attacker")
    return [f"The {which} is resolved: {attacker} wins {plural(won, 'pair')}, "
            f"{defender} {len(now.winners) - won}."]


def troops_lost(before: State, after: State) -> list[str]:
    """Troops discarded from a battle that goes on (a lost pair, Artillery)."""
    battle = after_battle(before, after)
    if before.battle is None or battle is None or sabotage_settled(before):
        return []
    remaining = list(battle.troops)
    lost: dict[str, int] = {}
    for troop in before.battle.troops:
        if troop in remaining:
            remaining.remove(troop)
        else:
            lost[before.name(troop.owner)] = lost.get(before.name(troop.owner), 0) + 1
    return [f"{who} loses {plural(count, 'troop')}." for who, count in lost.items()]


def after_battle(before: State, after: State) -> Battle | None:
    """The battle after an event: still going, or as it ended with this event (its last roll
    resolved and the troops that roll left, before they were discarded)."""
    if after.battle is not None:
        return after.battle
    return after.ended if before.battle is not None else None


def sabotage_settled(before: State) -> bool:
    """Whether the event took a Sabotage that stands out of its window: the battle ends."""
    pending = before.pending
    return pending is not None and pending.card == SABOTAGE and not pending.canceled


def sabotaged(before: State, after: State) -> list[str]:
    """Sabotage: 'Any active troop cards return to the players' hands, and the attacker's turn
    ends.'"""
    if before.battle is None or after.battle is not None or not sabotage_settled(before):
        return []
    counts: dict[str, int] = {}
    for troop in before.battle.troops:
        counts[before.name(troop.owner)] = counts.get(before.name(troop.owner), 0) + 1
    if not counts:
        return ["Sabotage ends the battle: no troops were active."]
    (first, n), *rest = counts.items()
    back = [f"{first} takes back {plural(n, 'troop')}"]
    back += [f"{who} {plural(count, 'troop')}" for who, count in rest]
    return ["Sabotage ends the battle: " + ", ".join(back) + "."]


def cards_moved(before: State, after: State) -> list[str]:
    """Continent cards that changed hands, went to the lineup, or came from a pile."""
    told = []
    for c, continent in enumerate(CONTINENTS):
        gains = {s: after.seats[s].continents[c] - before.seats[s].continents[c]
                 for s in range(len(after.seats))}
        givers = {s: -d for s, d in gains.items() if d < 0}
        takers = {s: d for s, d in gains.items() if d > 0}
        name = label(continent)
        for giver, count in givers.items():
            for taker in list(takers):
                moved = min(count, takers[taker])
                if moved:
                    told.append(f"{after.name(giver)} gives {after.name(taker)} "
                                f"{cards_of(moved, name)}.")
                    count -= moved
                    takers[taker] -= moved
            if count and after.lineup[c] > before.lineup[c]:
                told.append(f"{after.name(giver)} surrenders {cards_of(count, name)} to the "
                            "lineup.")
        for taker, count in takers.items():
            if count:
                told.append(f"{after.name(taker)} gains {cards_of(count, name)}.")
    return told


def cards_of(count: int, continent: str) -> str:
    """``an Asia card``, ``a Europe card``, ``2 Asia cards``."""
    if count != 1:
        return f"{count} {continent} cards"
    return f"{article(continent)} {continent} card"


def coins_taken(before: State, after: State) -> list[str]:
    """``Olga takes the Europe coin from Patrick.``"""
    told = []
    for c, (was, now) in enumerate(zip(before.coins, after.coins, strict=True)):
        if was != now and now != NOBODY:
            source = f" from {after.name(was)}" if was != NOBODY else ""
            told.append(f"{after.name(now)} takes the {label(CONTINENTS[c])} coin{source}.")
    return told


# -- audit hooks ---------------------------------------------------------------------------------


def dice(visit: Visit) -> list[tuple[str, int, int]]:
    """The dice of one event as ``(player, sides, face)``: battle rolls and roll-offs."""
    event, before = visit.event, visit.before
    if isinstance(event, Rolled) and before.battle is not None:
        attacker = before.name(before.battle.attacker)
        defender = before.name(before.battle.defender)
        return ([(attacker, D6, face) for face in event.attacker]
                + [(defender, D6, face) for face in event.defender])
    if isinstance(event, RolledOff):
        return [(who, D6, face) for who, face in roll_off(before, event)]
    return []


def roll_off(before: State, event: RolledOff) -> list[tuple[str, int]]:
    """``(player, face)`` of a roll-off: one die per player still in it, in seat order."""
    rollers = [before.name(seat) for seat in before.contenders]
    return list(zip(rollers, event.dice, strict=False))


def conservation(state: State) -> list[str]:
    """Every continent card, tactics card and coin is somewhere (the rules' invariant check)."""
    return invariant_errors(state)


__all__ = ["TACTICS", "conservation", "dice", "narrate"]


# -- the view ----------------------------------------------------------------------------------


def view(rules: Rules[Any], state: Any) -> RenderableType:
    """Players, piles and the battle in progress, from the rules' figures and extra keys."""
    figures = rules.figures(state)
    extra = rules.extra(state)
    parts: list[RenderableType] = [
        players_table(figures, extra),
        piles_table(extra),
        data_note(extra),
    ]
    if extra["battle"]:
        parts.append(battle_panel(extra["battle"], extra["pending"]))
    elif extra["pending"]:
        parts.append(Text(pending_words(extra["pending"])))
    return game_panel(rules, state, parts)




def counts_text(counts: dict[str, int]) -> str:
    """``Asia 3, Europe 1`` (zero counts left out), or a dash."""
    shown = [f"{label(name)} {n}" for name, n in counts.items() if n]
    return ", ".join(shown) or "-"


def players_table(figures: list[dict[str, Any]], extra: dict[str, Any]) -> Table:
    table = Table(title="Players", title_justify="left", expand=True)
    for column in ("player", "continent cards", "coins", "hand"):
        table.add_column(column)
    numbers = {name: info["domination"] for name, info in extra["continents"].items()}
    for player in figures:
        name = Text(player["name"], style="bold" if player["turn"] else "")
        if player["first"]:
            name.append(" (first)", style="dim")
        cards = ", ".join(
            f"{label(c)} {n}/{numbers[c]}" for c, n in player["continents"].items() if n
        )
        table.add_row(
            name, cards or "-", ", ".join(map(label, player["coins"])) or "-", hand_text(player)
        )
    return table


def hand_text(player: dict[str, Any]) -> str:
    known = counts_text(player["known"])
    unknown = f"{player['unknown']} face down" if player["unknown"] else ""
    detail = "; ".join(part for part in (known if known != "-" else "", unknown) if part)
    return f"{player['hand']}" + (f" ({detail})" if detail else "")


def piles_table(extra: dict[str, Any]) -> Table:
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_row("continent deck", f"{extra['continent_deck_size']}")
    table.add_row("surrendered lineup", counts_text(extra["lineup"]))
    table.add_row("tactics deck", f"{extra['tactics_deck']}")
    table.add_row("discard pile", f"{extra['discard_size']}: {counts_text(extra['discard'])}")
    holders = {c: who for c, who in extra["coins"].items() if who}
    table.add_row("coins", ", ".join(f"{label(c)}: {who}" for c, who in holders.items()) or "-")
    return table


def data_note(extra: dict[str, Any]) -> Text:
    """Domination numbers and continent sizes in force, each marked unless the box prints it."""
    parts = [
        f"{label(name)} {info['domination']}{mark_tag(info['domination_mark'])} of "
        f"{info['cards']}{mark_tag(info['cards_mark'])}"
        for name, info in extra["continents"].items()
    ]
    return Text(
        "domination: " + ", ".join(parts)
        + "  ([I] a default the rulebook does not give; [table] set by this game's options)",
        style="dim",
    )


def mark_tag(mark: str) -> str:
    """`` [I]`` for a default, `` [table]`` for an override, nothing for a printed value."""
    return "" if mark in ("R", "V") else f" [{mark}]"


def battle_panel(battle: dict[str, Any], pending: dict[str, Any] | None) -> Panel:
    attacker, defender = battle["attacker"], battle["defender"]
    names = {"attacker": attacker, "defender": defender}
    where = f"{label(battle['target'])} from {label(battle['from'])}"
    active = f"{attacker} {battle['attacking_cards']}, {defender} {battle['defending_cards']}"
    troops = ", ".join(f"{t['owner']} ({t['side']})" for t in battle["troops"]) or "-"
    lines = [
        f"{attacker} attacks {defender}'s {where}",
        f"active cards: {active}",
        f"troops: {troops}",
    ]
    if battle["roll"]:
        lines.append("dice rolled: " + dice_text(battle["roll"], names))
    if battle["last"]:
        lines.append("last roll: " + dice_text(battle["last"], names))
    if pending:
        lines.append(pending_words(pending))
    return Panel("\n".join(lines), title=f"battle ({battle['step']})", title_align="left")


def dice_text(roll: dict[str, Any], names: dict[str, str]) -> str:
    """``Olga 6,5,2 vs Patrick 4,3: pairs won: Olga 2``: each side's dice (Rally included)
    under its player's name, and who won the pairs, by name (``names``: side -> player)."""
    def side(faces: list[int], bonus: int) -> str:  # the dice as they show, Rally included
        shown = ",".join(map(str, sorted((face + bonus for face in faces), reverse=True)))
        return shown + (f" (Rally +{bonus} each)" if bonus else "")

    text = (f"{names['attacker']} {side(roll['attacker'], roll['attacker_bonus'])} vs "
            f"{names['defender']} {side(roll['defender'], roll['defender_bonus'])}")
    if roll["winners"]:
        won = ", ".join(f"{names[who]} {roll['winners'].count(who)}"
                        for who in ("attacker", "defender") if who in roll["winners"])
        text += f": pairs won: {won}"
    return text


def pending_words(pending: dict[str, Any]) -> str:
    state = "canceled" if pending["canceled"] else "waiting"
    target = f" on {pending['target']}" if pending["target"] else ""
    return f"{pending['player']} played {label(pending['card'])}{target}: {state}"
