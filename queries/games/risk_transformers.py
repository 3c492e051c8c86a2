"""Risk: Transformers in the catalog: every die (``dice``) and battle roll (``battles``) with the
leaders' d8s and the bonuses, the upgrade cards played (``cards_played``), the AllSpark cards
turned (``allspark``) and the special zones changed (``zone_changes``).

A roll is recorded by ``roll`` with the dice as they landed (:class:`~tabletape.rules.dice.Die`:
a leader's d8 beside d6s). Its bonuses are the rules' (:func:`.battle.bonuses`): a card's "+1 to
each die" (Fusion Cannons) and a robot-form leader's "+1 to any die", which a ``plus-one`` may
place right after the roll; so a roll's rows are made once the next event (or the end of the
log) shows it settled. ``battles`` records the kind of each side's bonus
(``attacker_bonus_each``, ``attacker_bonus_one``...), what the ``battles`` report takes the exact
odds of; a lost pair is one casualty. The per-turn ``standings`` (zones, sectors, robots and
vehicles on the board, operational pile, scrapheap, cards in hand) come from the game's figures,
``players.team`` and ``games.team`` from its teams: ``autobots``/``decepticons`` with 4 players,
none with 2 or 3 (each plays alone).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from msgspec.structs import replace

from tabletape.queries.projections import (
    BATTLES,
    DICE,
    Column,
    Projection,
    Schema,
    settled_battle_dice,
    side_dice_rows,
)
from tabletape.replay.visitor import GameInfo, Visit
from tabletape.rules import dice
from tabletape.rules.risk_transformers.battle import bonuses, put_plus
from tabletape.rules.risk_transformers.events import AllSpark, Changed, Played, PlusOne, Rolled
from tabletape.rules.risk_transformers.special import CLOSED, OPEN
from tabletape.rules.risk_transformers.state import Fight, State, zone_called
from tabletape.rules.seats import NOBODY

CARDS_PLAYED = Schema("cards_played", (
    Column("seq", "BIGINT", "The event that played the card."),
    Column("turn", "INTEGER"),
    Column("day", "INTEGER"),
    Column("phase", "VARCHAR", "``place`` (Phase 1), ``morph`` (Phase 2) or ``attack``."),
    Column("player", "VARCHAR"),
    Column("card", "VARCHAR", "The card's id on the board file, e.g. ``fusion-cannons``."),
    Column("name", "VARCHAR", "The card's name."),
    Column("effect", "VARCHAR", "What the rules do with it (``table``: the table records it)."),
    Column("use", "VARCHAR", "``upgrade`` (played for its upgrade) or ``change`` (its change "
                             "icon turned a special zone)."),
    Column("zone", "VARCHAR", "The zone it named, if any."),
    Column("note", "VARCHAR", "What the table did, for a card the rules cannot check."),
), "Every Risk: Transformers upgrade card played.")

ALLSPARK = Schema("allspark", (
    Column("seq", "BIGINT", "The event that turned the card."),
    Column("turn", "INTEGER"),
    Column("day", "INTEGER", "The day that ended with it."),
    Column("card", "VARCHAR"),
    Column("zone", "VARCHAR", "The zone on the card."),
    Column("player", "VARCHAR", "Who controlled the zone (NULL: nobody, a closed factory)."),
    Column("robots", "INTEGER", "Robots the AllSpark brought there from the scrapheap (up to 3: "
                                "fewer only when the scrapheap ran out, A10)."),
), "Every AllSpark card turned at the end of a day.")

ZONE_CHANGES = Schema("zone_changes", (
    Column("seq", "BIGINT", "The ``change`` event."),
    Column("turn", "INTEGER"),
    Column("player", "VARCHAR"),
    Column("card", "VARCHAR", "The card whose change icon was used."),
    Column("zone", "VARCHAR", "The spinning or sliding zone."),
    Column("zone_kind", "VARCHAR", "``spinning`` or ``sliding``."),
    Column("from_position", "VARCHAR", "A spinning zone's position, or ``open``/``closed``."),
    Column("to_position", "VARCHAR"),
    Column("crushed", "INTEGER", "Pieces a closing war factory crushed (to their owner's "
                                 "scrapheap)."),
    Column("crushed_player", "VARCHAR", "Whose pieces they were (NULL: none)."),
), "Every special zone a Risk: Transformers player changed in Phase 2.")


# -- battle rolls ----------------------------------------------------------------------------------


class OpenRoll:
    """A roll recorded and maybe not settled yet: the state it was rolled in and the attack
    with its dice (and each robot-form +1 where a ``plus-one`` placed it)."""

    def __init__(self, visit: Visit, state: State, fight: Fight) -> None:
        self.seq = visit.record.seq
        self.turn = visit.turn.turn
        self.state = state
        self.fight = fight

    def settled(self) -> tuple[dice.Settled, dice.Bonus, dice.Bonus]:
        """The roll with both sides' bonuses, as the rules settle it."""
        attacker_bonus, defender_bonus = bonuses(self.state, self.fight)
        found = settled_faces(dice.faces(self.fight.attacker_dice),
                              dice.faces(self.fight.defender_dice), attacker_bonus,
                              defender_bonus)
        return found, attacker_bonus, defender_bonus


@lru_cache(maxsize=4096)
def settled_faces(attacker: dice.Values, defender: dice.Values, attacker_bonus: dice.Bonus,
                  defender_bonus: dice.Bonus) -> dice.Settled:
    """:func:`~tabletape.rules.dice.settle`, remembered: both battle projections settle each
    roll, and a game repeats the same few faces and bonuses (placing a +1 tries every die)."""
    return dice.settle(attacker, defender, attacker_bonus=attacker_bonus,
                       defender_bonus=defender_bonus)


class RollWatcher(Projection):
    """Shared bookkeeping: the roll in progress, closed when an event other than a
    ``plus-one`` follows it (or the log ends)."""

    def begin_game(self, info: GameInfo) -> None:
        self.open: OpenRoll | None = None

    def visit_event(self, visit: Visit) -> None:
        if not visit.effective:
            return
        event = visit.event
        if isinstance(event, PlusOne) and self.open is not None:
            self.open.fight = placed(self.open, visit.record.actor, event.face)
            return
        self.close()
        before: State = visit.before
        if isinstance(event, Rolled) and before.attack is not None:
            fight = replace(before.attack, attacker_dice=event.attacker,
                            defender_dice=event.defender, pluses=(None, None))
            self.open = OpenRoll(visit, before, fight)

    def end_game(self, info: GameInfo, final_state: Any) -> None:
        self.close()

    def close(self) -> None:
        if self.open is not None:
            self.settled(self.open)
            self.open = None

    def settled(self, roll: OpenRoll) -> None:
        """Make the rows of ``roll``, settled."""


def placed(roll: OpenRoll, actor: str, face: int) -> Fight:
    """The attack of ``roll`` with ``actor``'s +1 on the first die of his side showing ``face``
    (as the rules place it, :func:`.battle.plus_one`)."""
    fight, state = roll.fight, roll.state
    index = 0 if actor == state.name(fight.attacker) else 1
    rolled = (fight.attacker_dice, fight.defender_dice)[index]
    return put_plus(fight, index, dice.faces(rolled).index(face))


class TransformersDice(RollWatcher):
    """``dice``: each die of each roll, its sides (d8 or d6) and its value after the bonuses."""

    schema = DICE

    def settled(self, roll: OpenRoll) -> None:
        found, _, _ = roll.settled()
        state, fight = roll.state, roll.fight
        for role, seat, rolled, values in (
            (dice.ATTACKER, fight.attacker, fight.attacker_dice, found.attacker),
            (dice.DEFENDER, fight.defender, fight.defender_dice, found.defender),
        ):
            self.rows.extend(side_dice_rows(roll.seq, roll.turn, state.name(seat), role, rolled,
                                            values))


class TransformersBattles(RollWatcher):
    """``battles``: one row per roll, each die's sides, each side's bonus and the pairs lost."""

    schema = BATTLES

    def settled(self, roll: OpenRoll) -> None:
        found, attacker_bonus, defender_bonus = roll.settled()
        state, fight = roll.state, roll.fight
        modified = (found.attacker != dice.faces(fight.attacker_dice)
                    or found.defender != dice.faces(fight.defender_dice))
        self.row(roll.seq, roll.turn, state.name(fight.attacker), state.name(fight.defender),
                 state.places[fight.source], state.places[fight.target],
                 *settled_battle_dice(fight.attacker_dice, fight.defender_dice, found,
                                      attacker_bonus=attacker_bonus,
                                      defender_bonus=defender_bonus),
                 modified, *dice.losses(found.winners))


# -- cards, the AllSpark, special zones --------------------------------------------------------


class CardsPlayed(Projection):
    """``cards_played``: ``play`` (for the upgrade) and ``change`` (for the change icon)."""

    schema = CARDS_PLAYED

    def visit_event(self, visit: Visit) -> None:
        event = visit.event
        if not visit.effective or not isinstance(event, Played | Changed):
            return
        before: State = visit.before
        card = before.board.card(event.card)
        use, zone, note = (("upgrade", event.zone, event.note) if isinstance(event, Played)
                           else ("change", event.zone, ""))
        self.row(visit.record.seq, visit.turn.turn, before.day, before.phase, visit.record.actor,
                 card.id, card.name, card.effect, use, zone_id(before, zone), note or None)


def zone_id(state: State, text: str) -> str | None:
    """The board id of a zone typed as ``text``; as typed when the board has no such zone (the
    rules do not check the zone a card names); None when empty."""
    return (state.board.board.find(text) or text) if text else None


class AllSparkDraws(Projection):
    """``allspark``: each card turned, its zone, who held it and the robots it brought."""

    schema = ALLSPARK

    def visit_event(self, visit: Visit) -> None:
        event = visit.event
        if not visit.effective or not isinstance(event, AllSpark):
            return
        before: State = visit.before
        after: State = visit.after
        zone = before.board.card(event.card).zone
        place = before.place(zone)
        owner = before.zones[place].owner
        robots = after.zones[place].robots - before.zones[place].robots
        self.row(visit.record.seq, visit.turn.turn, before.day, event.card, zone,
                 before.name(owner) if owner != NOBODY else None, robots)


class ZoneChanges(Projection):
    """``zone_changes``: each spinning zone turned and each war factory opened or closed."""

    schema = ZONE_CHANGES

    def visit_event(self, visit: Visit) -> None:
        event = visit.event
        if not visit.effective or not isinstance(event, Changed):
            return
        before: State = visit.before
        after: State = visit.after
        zone = before.places[zone_called(before, event.zone)]
        spinning = zone in before.board.spinning
        crushed, crushed_player = 0, None
        if not spinning:
            factory = before.at(before.board.factories[zone])
            if factory.pieces and before.board.factories[zone] not in after.open_factories:
                crushed, crushed_player = factory.pieces, before.name(factory.owner)
        self.row(visit.record.seq, visit.turn.turn, visit.record.actor, event.card, zone,
                 "spinning" if spinning else "sliding", position(before, zone),
                 position(after, zone), crushed, crushed_player)


def position(state: State, zone: str) -> str:
    """A spinning zone's position, or whether a sliding zone's factory is ``open``/``closed``."""
    if zone in state.board.spinning:
        return state.standing[zone]
    return OPEN if state.board.factories[zone] in state.open_factories else CLOSED


def projections() -> list[Projection]:
    """Risk: Transformers' projections, fresh for one game."""
    return [TransformersDice(), TransformersBattles(), CardsPlayed(), AllSparkDraws(),
            ZoneChanges()]
