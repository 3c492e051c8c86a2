"""Setup options: the board, colours, and the defaults the rulebook leaves open.

``--option board=FILE`` (a board file, see :mod:`tabletape.rules.board`), ``--option
colours=red,blue``,
``--option lost-base=destroyed``, ``--option home-bases=true``, ``--option open-stations=true``,
``--option deck.air-leak=8 --option deck.bribe-a-rival=3`` (the deck keeps 36 cards),
``--option cost.mail-from-mom=gem``, ``--option force-fields=shield`` (see
:data:`data.FORCE_FIELD_RULES`), ``--option defender-answers=roll`` (see
:data:`data.DEFENDER_ANSWERS`). The options in force, the whole board included, are stored
in the game-started event, so a log replays without the board file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Literal

import msgspec

from tabletape.rules.board import (
    ID,
    Board,
    board_from_data,
    board_option,
    load_board,
    require_separate,
    require_tags,
)
from tabletape.rules.kernel import BadOptions
from tabletape.rules.risk_deep_space import data


def _fields() -> list[tuple[str, Any, Any]]:
    deck = [
        (f"deck_{card.replace('-', '_')}", int,
         msgspec.field(default=data.DECK_MIX[card].value, name=f"deck.{card}"))
        for card in data.CARDS
    ]
    costs = [  # only the cards whose cost the rulebook does not print can be given one
        (f"cost_{card.replace('-', '_')}", Literal["free", "gem"],
         msgspec.field(default=data.CARD_COSTS[card].value, name=f"cost.{card}"))
        for card in data.CARDS if data.CARD_COSTS[card].mark != "R"
    ]
    return [
        ("board", dict[str, Any] | None, None),
        ("colours", tuple[str, ...], ()),
        ("lost_base", Literal["stays", "destroyed"],
         msgspec.field(default=data.LOST_BASE.value, name="lost-base")),
        ("force_fields", Literal["unused", "shield"],
         msgspec.field(default=data.FORCE_FIELD_RULE.value, name="force-fields")),
        ("home_bases", bool, msgspec.field(default=data.HOME_BASES.value, name="home-bases")),
        ("open_stations", bool,
         msgspec.field(default=data.OPEN_STATIONS.value, name="open-stations")),
        # new games store data.DEFENDER_ANSWERS (see RiskDeepSpace.options); a log recorded
        # before this option existed has no value and folds as it was recorded
        ("defender_answers", Literal["wait", "roll"],
         msgspec.field(default=data.RECORDED_ANSWERS, name="defender-answers")),
        *deck,
        *costs,
    ]


Options = msgspec.defstruct("Options", _fields(), frozen=True, kw_only=True,
                            forbid_unknown_fields=True, module=__name__)
"""Risk: Deep Space's options; every field has a default (marked in :mod:`.data`)."""


class Settings(msgspec.Struct, frozen=True, dict=True):
    """Options as the rules use them."""

    board: Board
    colours: tuple[str, ...]
    lost_base: str
    force_fields: str
    """``unused`` (the default) or ``shield`` (:data:`data.FORCE_FIELD_RULES`)."""
    home_bases: bool
    open_stations: bool
    defender_answers: str
    """``wait``: the dice wait for the invaded player's answer (``pass``); ``roll``: they do
    not (the attacker's roll closes the invaded player's cards)."""
    mix: tuple[int, ...]
    """Cards of each kind in the deck, in :data:`data.CARDS` order."""
    costs: tuple[str, ...]


def default_board_data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(data.BOARD_FILE.read_text(encoding="utf-8"))
    return loaded


def resolve_board(value: Any) -> dict[str, Any]:
    """The board's content from what a person gave: a file path, the content itself, or nothing
    (the default board)."""
    return board_option(value, default=default_board_data, read=load_board)


def colours_for(board: Board, players: int, chosen: Sequence[str] = ()) -> tuple[str, ...]:
    """Colours by seat: those chosen, else the defaults when the board has them, else the
    board's Home Station colours in board order."""
    if chosen:
        return tuple(c.strip().casefold() for c in chosen)
    homes = board.tag_values("home")
    default = data.DEFAULT_COLOURS.value.get(players, ())
    if default and all(c in homes for c in default):
        return tuple(default)
    return tuple(homes)[:players]


ROLES = {"home:": "a Home Station", "corner": "a corner", "centre": "the centre"}
"""The parts a Deep Space board gives its spaces: one part to a space."""


def check_board(board: Board) -> None:
    """What Deep Space needs of a board: one Home Station per colour, four corners in two
    opposing pairs, one centre reaching four planets; no space plays two of these parts (a
    covered corner holding a Home Station's Recruits would break the game later)."""
    require_separate(board, ROLES)
    require_tags(board, {f"home:{colour}": 1 for colour in board.tag_values("home")})
    require_tags(board, {"corner": 4, "centre": 1})
    centre = board.tagged("centre")[0]
    reached = board.neighbours(centre)
    if len(reached) != 4:
        raise BadOptions(
            f"board '{board.name}': the centre must link to four planets, not {len(reached)} "
            f"({', '.join(reached)})"
        )
    stations = sorted(set(reached) & set(board.tag_values("home").values()))
    if stations:
        raise BadOptions(f"board '{board.name}': the centre links to a Home Station "
                         f"({', '.join(stations)}); it reaches four planets")
    corners = set(board.tagged("corner"))
    pairs = [frozenset(p) for p in board.opposites if set(p) <= corners]
    if len(set(pairs)) != 2 or set().union(*pairs) != corners:
        raise BadOptions(
            f"board '{board.name}' must list its four corners as two opposing pairs in "
            "'opposites' (a 2-player game covers one pair)"
        )


def validate(options: Any, players: Sequence[str]) -> None:
    """Raise :class:`BadOptions` unless the board, colours and deck fit the game."""
    board = board_from_data(options.board or default_board_data())
    homes = board.tag_values("home")
    for colour, space in homes.items():
        if not ID.match(colour):
            raise BadOptions(f"board '{board.name}': Home Station '{space}' has colour "
                             f"'{colour}': a colour must be a lowercase word (home:red)")
    if len(homes) != len(data.COLOURS):
        raise BadOptions(f"board '{board.name}' needs four Home Stations (tags home:<colour>), "
                         f"and has {len(homes)}: {', '.join(homes) or 'none'}")
    colours = colours_for(board, len(players), options.colours)
    if len(colours) != len(players):
        raise BadOptions(f"colours must name one colour per player ({len(players)}), "
                         f"not {len(colours)}; allowed: {', '.join(homes)}")
    for colour in colours:
        if colour not in homes:
            raise BadOptions(f"colour '{colour}' has no Home Station on the board; "
                             f"allowed: {', '.join(homes)}")
    if len(set(colours)) != len(colours):
        raise BadOptions("colours must be different")
    check_board(board)
    values = msgspec.structs.asdict(options)
    mix = [values[f"deck_{card.replace('-', '_')}"] for card in data.CARDS]
    if min(mix) < 0 or sum(mix) != data.DECK_SIZE.value:
        raise BadOptions(f"deck.<card> counts must be 0 or more and add up to the 36 Action "
                         f"cards, not {sum(mix)}")


def settings(options: Mapping[str, Any], players: int) -> Settings:
    """Settings from the options of a game-started event (cached: every fold starts from them)."""
    key = msgspec.json.encode(options, order="sorted")
    return _settings(key, players)


@lru_cache(maxsize=64)
def _settings(key: bytes, players: int) -> Settings:
    options = msgspec.convert(msgspec.json.decode(key), Options, strict=False)
    values = msgspec.structs.asdict(options)
    board = board_from_data(options.board or default_board_data())  # type: ignore[attr-defined]
    return Settings(
        board=board,
        colours=colours_for(board, players, options.colours),  # type: ignore[attr-defined]
        lost_base=options.lost_base,  # type: ignore[attr-defined]
        force_fields=options.force_fields,  # type: ignore[attr-defined]
        home_bases=options.home_bases,  # type: ignore[attr-defined]
        open_stations=options.open_stations,  # type: ignore[attr-defined]
        defender_answers=options.defender_answers,  # type: ignore[attr-defined]
        mix=tuple(values[f"deck_{card.replace('-', '_')}"] for card in data.CARDS),
        costs=tuple(values.get(f"cost_{card.replace('-', '_')}", data.CARD_COSTS[card].value)
                    for card in data.CARDS),
    )


def readings(found: Settings) -> list[dict[str, Any]]:
    """What the rulebook leaves unprinted, as in force at this table: each value in table
    words, its mark, the option that changes it, and whether it is our default (else the table
    chose it)."""
    mix = ", ".join(f"{data.title(card)} {n}" for card, n in zip(data.CARDS, found.mix,
                                                                  strict=True))
    unprinted = [card for card in data.CARDS if data.CARD_COSTS[card].mark != "R"]
    free = [data.title(card) for card in unprinted
            if found.costs[data.CARDS.index(card)] == data.FREE]
    paid = [data.title(card) for card in unprinted if data.title(card) not in free]
    costs = "; ".join(part for part in (
        f"free to play: {', '.join(free)}" if free else "",
        f"a Gem to play: {', '.join(paid)}" if paid else "") if part)
    default_mix = tuple(data.DECK_MIX[card].value for card in data.CARDS)
    default_costs = tuple(data.CARD_COSTS[card].value for card in data.CARDS)
    field = data.FORCE_FIELD_RULES[found.force_fields]
    return [
        reading("deck mix", mix, "deck.<card>=N", found.mix == default_mix),
        reading("costs not printed", costs, "cost.<card>=gem", found.costs == default_costs),
        reading("a Base on a lost planet",
                "stays and counts" if found.lost_base == "stays" else "goes back to its owner",
                "lost-base", found.lost_base == data.LOST_BASE.value),
        reading("Bases on Home Stations", "allowed" if found.home_bases else "none",
                "home-bases", found.home_bases == data.HOME_BASES.value),
        reading("Home Stations not in use", "open" if found.open_stations else "closed",
                "open-stations", found.open_stations == data.OPEN_STATIONS.value),
        reading("Recruits bought", "on the Home Station", "", True),
        reading("Force Field tokens",
                "unused, by the board" if found.force_fields == "unused"
                else f"shield: {field.source}",
                "force-fields", found.force_fields == data.FORCE_FIELD_RULE.value),
    ]


def reading(rule: str, value: str, option: str, default: bool) -> dict[str, Any]:
    """One row of :func:`readings` (every default there is our inference, mark I)."""
    return {"rule": rule, "value": value, "option": option, "default": default,
            "mark": "I" if default else "table"}

