"""Risk: Deep Space's board picture: planets with their Recruits, Bases, Space Dogs and covers.

>>> from tabletape.ledger.events import GameStarted
>>> from tabletape.rules.risk_deep_space import RULES as rules
>>> players = ("Ann", "Bob")
>>> state = rules.start(GameStarted(kind=rules.name, rules_version=rules.rules_version,
...     tabletape_version="doc", players=players, options=rules.options({}, players)))
>>> svg = picture(rules, state)
>>> svg.count('class="space"') == len(state.board.spaces)
True
"""

from __future__ import annotations

from functools import cache

from tabletape.replay.board_picture import SpaceMark, board_svg, borrowed_layout
from tabletape.rules.board import NOBODY, Board, load_board
from tabletape.rules.kernel import Rules
from tabletape.rules.risk_deep_space import data
from tabletape.rules.risk_deep_space.state import State


def picture(rules: Rules[State], state: State) -> str | None:
    """The board as it stands in ``state``: each planet's holder (by colour and initials) and
    Recruits, with Bases, Space Dogs, Force Fields and planet covers as labels; Home Stations
    drawn as squares with their player, the centre as a diamond."""
    board = borrowed_layout(state.board, shipped_board())
    marks = {space.id: space_mark(state, index) for index, space in enumerate(board.spaces)}
    return board_svg(board, marks, title=f"{rules.title}: {board.name}",
                     players=[(seat.name, seat.colour) for seat in state.seats])


@cache
def shipped_board() -> Board:
    """The default board as shipped now (its layout serves games that stored it without)."""
    return load_board(data.BOARD_FILE)


def space_mark(state: State, index: int) -> SpaceMark:
    """What stands on the space at ``index``."""
    space = state.board.spaces[index]
    holder = state.holders[index]
    labels = [f"base: {state.name(seat)}" for seat in state.bases[index]]
    dogs = [dog for dog in state.dogs if dog.space == index]
    if dogs:
        labels.append(f"{len(dogs)} space dog{'s' if len(dogs) > 1 else ''}")
    if any(planet == index for planet, _ in state.shields):
        labels.append("force field")
    if index in state.covered:
        labels.append("covered")
    homes = {seat.home: seat for seat in state.seats}
    shape = "circle"
    if index in homes:
        shape = "square"
        labels.insert(0, f"home of {homes[index].name}")
    elif "centre" in space.tags:
        shape = "diamond"
    owner = None if holder == NOBODY else state.seats[holder].name
    colour = "" if holder == NOBODY else state.seats[holder].colour
    count = state.recruits[index] if holder != NOBODY or state.recruits[index] else None
    return SpaceMark(owner=owner, colour=colour, count=count,
                     labels=tuple(labels), shape=shape)
