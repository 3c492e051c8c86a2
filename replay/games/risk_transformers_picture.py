"""Risk: Transformers' board picture: Cybertron's zones with their owners, pieces and leaders.

>>> from tabletape.ledger.events import GameStarted
>>> from tabletape.rules.risk_transformers import RULES as rules
>>> players = ("Ann", "Bob")
>>> state = rules.start(GameStarted(kind=rules.name, rules_version=rules.rules_version,
...     tabletape_version="doc", players=players, options=rules.options({}, players)))
>>> svg = picture(rules, state)
>>> svg.count('class="space"') == len(state.board.board.spaces)
True
"""

from __future__ import annotations

from functools import cache

from tabletape.replay.board_picture import SpaceMark, board_svg, borrowed_layout
from tabletape.rules.board import NOBODY, Board
from tabletape.rules.kernel import Rules
from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.board import DEFAULT_BOARD_FILE, load_cybertron
from tabletape.rules.risk_transformers.state import State


def picture(rules: Rules[State], state: State) -> str | None:
    """Cybertron as it stands in ``state``: each zone's owner (colour and initials) and pieces,
    leaders and vehicles as labels, spinning zones (diamonds) in their position with only the
    links their arrows open drawn solid, war factories (squares) open or closed."""
    board = borrowed_layout(state.board.board, shipped_board())
    marks = {space: space_mark(state, space) for space in board.ids}
    return board_svg(board, marks, title=f"{rules.title}: day {state.day or '-'}",
                     positions=state.standing, open_spaces=state.open_factories,
                     players=[(seat.name, "") for seat in state.seats])


@cache
def shipped_board() -> Board:
    """Cybertron as shipped now (its layout serves games that stored it without)."""
    return load_cybertron(DEFAULT_BOARD_FILE).board


def space_mark(state: State, space: str) -> SpaceMark:
    """What stands on the zone or war factory ``space``."""
    zone = state.at(space)
    owner = None if zone.owner == NOBODY else state.seats[zone.owner].name
    labels = []
    if zone.leader and owner is not None:
        labels.append(data.LEADER_TITLES[state.seats[zone.owner].leader])
    if zone.vehicles:
        labels.append(f"{zone.vehicles} vehicle{'s' if zone.vehicles > 1 else ''}")
    shape = "circle"
    if space in state.standing:
        shape = "diamond"
        labels.append(f"spinning: {state.standing[space]}")
    elif space in state.board.factories.values():
        shape = "square"
    count = zone.pieces if owner is not None else None
    return SpaceMark(owner=owner, count=count, labels=tuple(labels), shape=shape)
