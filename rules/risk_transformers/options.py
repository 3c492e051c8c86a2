"""Setup options: the board, the leaders by seat, and the readings that change what is legal.

``--option board=FILE`` (a Cybertron board file, see :mod:`.board`; the whole board is stored in
the game-started event, so a log replays without the file), ``--option
leaders=optimus-prime,megatron`` (one per seat, in seat order), and one option per reading of
the spec (``shared/research/transformers-spec.md`` section 5) a table may take otherwise; the
default of each is the reading in :data:`.data.READINGS` (mark I):

- ``leftover=place|keep`` (A1): robots left after every zone is filled are placed one at a time
  on your own zones (``place``), or kept for the first Phase 1 step E (``keep``).
- ``spinning-start=closed|board`` (A2): spinning zones start closed, or where the board file
  puts them.
- ``casualties=source|rolled`` (A5): the attacker's casualty is any piece of the source zone, or
  only a piece that rolled.
- ``rotation=any|step`` (A8): one change card turns a spinning zone to any position, or to the
  next position only.
- ``bumblebee-escape=any|defending`` (A12): Bumblebee's vehicle power on any casualty, or only
  when he defends.
- ``barricade=among|source`` (A13): Barricade's vehicle power when he is among the attackers, or
  whenever his player attacks from his zone.
- ``megatron-alone=far|always`` (A13): Megatron attacks alone only against a zone that is not a
  neighbour, or on every attack he joins.
- ``gift-jump=true|false`` (A17): Optimus may still jump when his player gifts a zone.
- ``scrap-vehicles=exchange|idle`` (A10, :data:`.data.SCRAP_VEHICLES`): robots taken from a
  scrapheap are paid in robot units, a vehicle there exchanged for 3 robots when its robots run
  short ("Vehicle (worth 3 robots)"; "You can exchange 3 robots for 1 vehicle, or vice versa, at
  any time"), so only a scrapheap with no robot and no vehicle gives less than owed; or the
  vehicles stay idle and a scrapheap out of robots gives what robots it holds (A10 literally).

Fixed readings (no option: the table records the rest of the game as they say): A3 (the leader
counts as 1 of the 3 robots; Megatron's far attack leaves one robot behind; a closed factory is
no zone), A4 (repeat steps 2–6), A6 (a leader alone holds a zone and counts for M2 and
elimination), A7 (one back-up move; the leader may go with it), A9 (factory links are the board
file's), A11 (an empty draw pile is the discards
reshuffled), A14 (the +1 goes on your own die and may pass the top face), A15 (4 players: sector
bonuses need your own zones; eliminated players are skipped; no hand limit), A16 (a gifted
zone's leader goes to the scrapheap), A18 (an open factory is part of its sliding zone and its
sector), A19 (the last seat ends the day; the AllSpark also comes after day 6).

Fixed readings of this recorder beyond the spec's list: a Phase 2 back-up card ("Calling for
back-up (Phase 2)") makes its own move, so Phase 4's move is still to come, and "you cannot move
OPTIMUS PRIME in vehicle form" keeps him out of that move (no jump either); a defender's card
counts for the attack in progress; 3 robots and a vehicle are exchanged on the board by the
zone's owner at any time but not on an attack's zones while its dice are pending.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Literal, get_args, get_origin

import msgspec

from tabletape.rules.board import board_option
from tabletape.rules.kernel import BadOptions, unknown_name_message
from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.board import (
    Cybertron,
    cybertron_from_data,
    default_board_data,
    load_cybertron,
)

READING = data.READINGS


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Risk: Transformers' options; every field has a default (a reading of :data:`READING`)."""

    board: dict[str, Any] | None = None
    """The board's whole content (``board=FILE`` is read into it); None: the default board."""
    leaders: tuple[str, ...] = ()
    """Each seat's leader in seat order; empty: :data:`.data.DEFAULT_LEADERS`."""
    leftover: Literal["place", "keep"] = READING["A1"].value
    spinning_start: Literal["closed", "board"] = msgspec.field(
        default=READING["A2"].value, name="spinning-start")
    casualties: Literal["source", "rolled"] = READING["A5"].value
    rotation: Literal["any", "step"] = READING["A8"].value
    bumblebee_escape: Literal["any", "defending"] = msgspec.field(
        default=READING["A12"].value, name="bumblebee-escape")
    barricade: Literal["among", "source"] = READING["A13"].value["barricade"]
    megatron_alone: Literal["far", "always"] = msgspec.field(
        default=READING["A13"].value["megatron-alone"], name="megatron-alone")
    gift_jump: bool = msgspec.field(default=READING["A17"].value, name="gift-jump")
    scrap_vehicles: Literal["exchange", "idle"] = msgspec.field(
        default=data.SCRAP_VEHICLES.value, name="scrap-vehicles")


OPTION_READINGS = {"leftover": "A1", "spinning-start": "A2", "casualties": "A5",
                   "rotation": "A8", "bumblebee-escape": "A12", "barricade": "A13",
                   "megatron-alone": "A13", "gift-jump": "A17", "scrap-vehicles": "A10"}
"""The reading each option changes."""


class Settings(msgspec.Struct, frozen=True, dict=True):
    """Options as the rules use them."""

    board: Cybertron
    leaders: tuple[str, ...]
    """Each seat's leader."""
    factions: tuple[str, ...]
    teams: tuple[int, ...]
    """Each seat's team: with 4 players the faction's first seat (0 or 1), else the seat."""
    options: Options


def resolve_board(value: Any) -> dict[str, Any]:
    """The board's content from what a person gave: a file path, the content itself, or nothing
    (the default board)."""
    return board_option(value, default=default_board_data, read=load_cybertron)


def check_choices(raw: Mapping[str, Any]) -> None:
    """Refuse a value no option of a fixed list allows, with "did you mean" (the kernel says
    the rest: unknown option, wrong type).

    >>> check_choices({"leftover": "kep"})
    Traceback (most recent call last):
    ...
    tabletape.rules.kernel.BadOptions: unknown leftover 'kep' (did you mean 'keep'?);
    allowed: place, keep
    """
    for field in msgspec.structs.fields(Options):
        value = raw.get(field.encode_name)
        if get_origin(field.type) is Literal and isinstance(value, str):
            allowed = get_args(field.type)
            if value not in allowed:
                raise BadOptions(unknown_name_message(field.encode_name, value, allowed))
        if field.type is bool and isinstance(value, str):
            try:
                msgspec.convert(value, bool, strict=False)
            except msgspec.ValidationError:
                raise BadOptions(f"{field.encode_name} is true or false, not "
                                 f"'{value}'") from None


def leaders_for(players: int, chosen: Sequence[str] = ()) -> tuple[str, ...]:
    """The leaders by seat: those chosen (any case), else the defaults for the player count.

    >>> leaders_for(3)
    ('optimus-prime', 'megatron', 'barricade')
    >>> leaders_for(2, ["Megatron", "bumblebee"])
    ('megatron', 'bumblebee')
    """
    if chosen:
        return tuple(name.strip().casefold() for name in chosen)
    return data.DEFAULT_LEADERS.value.get(players, ())


def check_leaders(leaders: Sequence[str], players: int) -> None:
    """Refuse leaders that are unknown, repeated, one too many or few, or against Setup 2's
    layout for the player count (one clear message)."""
    for leader in leaders:
        if leader not in data.LEADERS:
            raise BadOptions(unknown_name_message("leader", leader, data.LEADERS))
    if len(leaders) != players:
        raise BadOptions(f"leaders must name one leader per player ({players}), not "
                         f"{len(leaders)}: {','.join(leaders)}")
    if len(set(leaders)) != len(leaders):
        raise BadOptions(f"each player takes a different leader: {','.join(leaders)}")
    factions = [data.FACTION[leader] for leader in leaders]
    if not layout_fits(factions):
        raise BadOptions(f"leaders={','.join(leaders)} does not fit {players} players: "
                         f"{LAYOUT_WORDS[players]} (Setup 2)")


LAYOUT_WORDS = {
    2: "one player must choose an AUTOBOT leader and the other a DECEPTICON",
    3: "one player must choose an AUTOBOT leader; the others each take a DECEPTICON",
    4: "AUTOBOTS vs. DECEPTICONS with teammates opposite, so seats 1 and 3 take one faction "
       "and seats 2 and 4 the other (e.g. optimus-prime,megatron,bumblebee,barricade)",
}


def layout_fits(factions: Sequence[str]) -> bool:
    """Whether factions by seat fit Setup 2 (4 players: teammates opposite, turns alternate).

    >>> layout_fits(["autobot", "decepticon", "decepticon"])
    True
    >>> layout_fits(["autobot", "autobot", "decepticon", "decepticon"])
    False
    """
    if len(factions) == 4:
        return factions[0] == factions[2] != factions[1] == factions[3]
    wanted = data.LAYOUTS.value.get(len(factions))
    return wanted is not None and sorted(factions) == sorted(wanted)


def teams_for(factions: Sequence[str]) -> tuple[int, ...]:
    """Each seat's team: 4 players, the first seat of the faction; else each seat alone.

    >>> teams_for(["autobot", "decepticon", "autobot", "decepticon"])
    (0, 1, 0, 1)
    >>> teams_for(["decepticon", "autobot", "decepticon"])
    (0, 1, 2)
    """
    if len(factions) == 4:
        return tuple(factions.index(faction) for faction in factions)
    return tuple(range(len(factions)))


def validate(options: Any, players: Sequence[str]) -> None:
    """Raise :class:`BadOptions` unless the board and the leaders fit the game."""
    board = cybertron_from_data(options.board or default_board_data())
    check_leaders(leaders_for(len(players), options.leaders), len(players))
    if options.spinning_start == "closed":
        for zone in board.spinning:
            closed_position(board, zone)


def closed_position(board: Cybertron, zone: str) -> str:
    """The position of a spinning zone that opens no link ("lining up the walls"): where A2
    starts it; :class:`BadOptions` when the board gives it none.

    >>> closed_position(cybertron_from_data(default_board_data()), "praxus")
    'closed'
    """
    turning = next(t for t in board.board.turning if t.space == zone)
    for position, links in turning.positions.items():
        if not links:
            return position
    raise BadOptions(f"board '{board.board.name}': spinning zone {zone} has no closed "
                     f"position (one that opens no link) for spinning-start=closed (A2); "
                     "give it one, or choose spinning-start=board")


def settings(options: Mapping[str, Any], players: int) -> Settings:
    """Settings from the options of a game-started event (cached: every fold starts from them)."""
    return _settings(msgspec.json.encode(options, order="sorted"), players)


@lru_cache(maxsize=64)
def _settings(key: bytes, players: int) -> Settings:
    options = msgspec.convert(msgspec.json.decode(key), Options, strict=False)
    leaders = leaders_for(players, options.leaders)
    factions = tuple(data.FACTION[leader] for leader in leaders)
    return Settings(board=cybertron_from_data(options.board or default_board_data()),
                    leaders=leaders, factions=factions, teams=teams_for(factions),
                    options=options)


def readings(found: Settings) -> list[dict[str, Any]]:
    """Each reading A1–A19 as in force at this table: its code, the spec's words, the value,
    the option that changes it (empty: fixed) and whether it is our default (one row per
    option; A13 has two)."""
    given = msgspec.structs.asdict(found.options)
    defaults = msgspec.structs.asdict(Options())
    rows = []
    for code, fact in READING.items():
        options = [name for name, of in OPTION_READINGS.items() if of == code] or [""]
        for option in options:
            field = option.replace("-", "_")
            value = given[field] if option else fact.value
            default = not option or value == defaults[field]
            rows.append({"reading": code, "words": fact.source, "value": value,
                         "option": option, "default": default,
                         "mark": fact.mark if default else "table"})
    return rows
