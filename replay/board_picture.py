"""A map game's board as an inline SVG picture: spaces, links, owners and counts.

:func:`board_svg` draws a :class:`~tabletape.rules.board.Board` with a :class:`SpaceMark` per
space (who holds it, how many pieces, what else stands there). Spaces sit where the board file's
``"at"`` puts them; a board without it is laid out by :func:`auto_layout` (a deterministic
force layout). Links in force are solid (borders) or long-dashed (hyperlinks); links of turning
and opening spaces that are not open now are faint dots. An owner is shown by colour and by
text (the owner's initials in the space, the full name in the legend), never by colour alone.

>>> from tabletape.rules.board import board_from_data
>>> board = board_from_data({"name": "tiny", "spaces": [{"id": "a"}, {"id": "b"}],
...                          "links": [["a", "b"]]})
>>> svg = board_svg(board, {"a": SpaceMark(owner="Ann", count=3)}, title="Tiny")
>>> svg.count('class="space"'), svg.count('class="link border"')
(2, 1)
"""

from __future__ import annotations

import math
import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from tabletape.ledger.errors import USAGE_EXIT, TabletapeError
from tabletape.replay.parts import game_part
from tabletape.replay.svg import Markup, document, element, group, save, shorten
from tabletape.rules.board import Board, Pair, all_links
from tabletape.rules.kernel import Rules
from tabletape.rules.registry import manifests

Point = tuple[float, float]

RADIUS = 20.0
"""A space's radius in picture units; names are 11 units high below it."""
SPACING = 90.0
"""The least distance between two spaces' centres in the picture (room for a name)."""
MARGIN = 52.0
BELOW = 84.0
"""Room under the lowest spaces for their names and labels."""
MAX_WIDTH = 1400.0
"""The widest a board picture is drawn (closer spaces then overlap rather than grow it)."""

PLAYER_COLOURS = {
    "red": "#D55E00", "blue": "#0072B2", "green": "#009E73", "yellow": "#F0E442",
    "orange": "#E69F00", "purple": "#CC79A7", "pink": "#CC79A7", "sky": "#56B4E9",
    "black": "#333333", "white": "#FFFFFF", "grey": "#999999", "gray": "#999999",
}
"""Colour keys that name a colour (Deep Space's seat colours), as colour-blind-safe fills."""
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442",
           "#999999")
"""Fills for other colour keys (a leader, a seat), in order of first appearance."""
READABLE_TEXT = 9.0
"""Pixels a space's name (11 units) should keep at least: see ``data-readable-width``."""
EMPTY_FILL = "#F2F2F2"
HALO = "#FFFFFF"
"""The outline that keeps a name readable over the links (a page may restyle ``.space-name``)."""


@dataclass(frozen=True)
class SpaceMark:
    """What to show on one space."""

    owner: str | None = None
    """The player holding it (their name), None when nobody does."""
    colour: str = ""
    """The owner's colour key: a colour's name (``red``) or any word naming the owner's side;
    the owner's name when empty."""
    count: int | None = None
    """Pieces on it (None: no number shown)."""
    labels: tuple[str, ...] = ()
    """Other things to read under its name: ``base: Ann``, ``leader``, ``closed``."""
    shape: str = "circle"
    """``circle``, ``square`` (a station, a factory) or ``diamond`` (a special space)."""


# -- layout ---------------------------------------------------------------------------------------


def layout(board: Board) -> dict[str, Point]:
    """Each space's point: the board file's ``"at"`` when it places every space, else
    :func:`auto_layout`."""
    if board.laid_out:
        return {space.id: (float(space.at[0]), float(space.at[1]))
                for space in board.spaces if space.at is not None}
    return auto_layout(board)


def borrowed_layout(board: Board, shipped: Board) -> Board:
    """``board`` with the ``"at"`` of ``shipped`` when it has none of its own and is the same
    board (same spaces, same links): a game recorded before the shipped board carried its
    layout is drawn as a new one is.

    >>> from tabletape.rules.board import board_from_data
    >>> old = board_from_data({"name": "o", "spaces": [{"id": "a"}, {"id": "b"}],
    ...                        "links": [["a", "b"]]})
    >>> new = board_from_data({"name": "n", "spaces": [{"id": "a", "at": [0, 0]},
    ...                        {"id": "b", "at": [1, 0]}], "links": [["a", "b"]]})
    >>> borrowed_layout(old, new).spaces[1].at
    (1, 0)
    """
    if board.laid_out or not shipped.laid_out or board.ids != shipped.ids or \
            set(map(frozenset, all_links(board))) != set(map(frozenset, all_links(shipped))):
        return board
    spaces = tuple(replace(space, at=other.at)
                   for space, other in zip(board.spaces, shipped.spaces, strict=True))
    return replace(board, spaces=spaces)


def auto_layout(board: Board, rounds: int = 120) -> dict[str, Point]:
    """A deterministic layout of a board without ``"at"``: spaces start on a circle in board
    order and are moved by a force layout (Fruchterman-Reingold: linked spaces pull, all spaces
    push) for ``rounds`` rounds with a cooling step; no randomness, so the same board always
    gives the same picture. Boards of more than 200 spaces are set on a grid instead.

    >>> from tabletape.rules.board import board_from_data
    >>> ring = board_from_data({"name": "r", "spaces": [{"id": c} for c in "abcd"],
    ...                         "links": [["a", "b"], ["b", "c"], ["c", "d"], ["d", "a"]]})
    >>> points = auto_layout(ring)
    >>> len(set(points.values())), points == auto_layout(ring)
    (4, True)
    """
    ids = list(board.ids)
    count = len(ids)
    if count > 200:
        side = math.ceil(math.sqrt(count))
        return {space: (float(i % side), float(i // side)) for i, space in enumerate(ids)}
    points = [(math.cos(2 * math.pi * i / count), math.sin(2 * math.pi * i / count))
              for i in range(count)]
    index = {space: i for i, space in enumerate(ids)}
    edges = {tuple(sorted((index[a], index[b]))) for a, b in all_links(board)}
    ideal = 2.0 / math.sqrt(count) if count > 1 else 1.0
    step = 0.2
    for _ in range(rounds):
        moves = [[0.0, 0.0] for _ in ids]
        for i in range(count):
            for j in range(i + 1, count):
                dx, dy = points[i][0] - points[j][0], points[i][1] - points[j][1]
                distance = math.hypot(dx, dy) or 1e-6
                push = ideal * ideal / distance
                moves[i][0] += dx / distance * push
                moves[i][1] += dy / distance * push
                moves[j][0] -= dx / distance * push
                moves[j][1] -= dy / distance * push
        for i, j in edges:
            dx, dy = points[i][0] - points[j][0], points[i][1] - points[j][1]
            distance = math.hypot(dx, dy) or 1e-6
            pull = distance * distance / ideal
            moves[i][0] -= dx / distance * pull
            moves[i][1] -= dy / distance * pull
            moves[j][0] += dx / distance * pull
            moves[j][1] += dy / distance * pull
        for i, (mx, my) in enumerate(moves):
            length = math.hypot(mx, my) or 1e-6
            shift = min(length, step)
            points[i] = (points[i][0] + mx / length * shift, points[i][1] + my / length * shift)
        step = max(step * 0.97, 0.005)
    return {space: (round(x, 6), round(y, 6)) for space, (x, y) in zip(ids, points, strict=True)}


def fit(points: Mapping[str, Point]) -> tuple[dict[str, Point], float, float]:
    """Points scaled into picture units (nearest two :data:`SPACING` apart, the picture at most
    :data:`MAX_WIDTH` wide), with the picture's width and the height of the drawing."""
    values = list(points.values())
    xs, ys = [x for x, _ in values], [y for _, y in values]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    nearest = min((math.dist(p, q) for i, p in enumerate(values) for q in values[i + 1:]),
                  default=span)
    scale = SPACING / max(nearest, 1e-9)
    scale = min(scale, (MAX_WIDTH - 2 * MARGIN) / span)
    scale = max(scale, (360.0 - 2 * MARGIN) / span)
    placed = {space: (MARGIN + (x - min(xs)) * scale, MARGIN + (y - min(ys)) * scale)
              for space, (x, y) in points.items()}
    width = 2 * MARGIN + (max(xs) - min(xs)) * scale
    height = MARGIN + BELOW + (max(ys) - min(ys)) * scale
    return placed, width, height


# -- colours and owners ---------------------------------------------------------------------------


def owner_colours(marks: Mapping[str, SpaceMark],
                  players: Sequence[tuple[str, str]] = ()) -> dict[str, str]:
    """A fill per owner, ``players`` (name, colour key) first in their order, then the other
    owners of ``marks``: the colour its key names, else the next palette colour."""
    found: dict[str, str] = {}
    keys: dict[str, str] = {}
    owners = [*players, *((mark.owner, mark.colour) for mark in marks.values()
                          if mark.owner is not None)]
    for owner, colour in owners:
        if owner in found:
            continue
        key = (colour or owner).casefold()
        if key not in keys:
            keys[key] = PLAYER_COLOURS.get(key, PALETTE[len(keys) % len(PALETTE)])
        found[owner] = keys[key]
    return found


def initials(names: Sequence[str]) -> dict[str, str]:
    """Each name's shortest prefix (1 to 3 characters) that no other name starts with.

    >>> initials(["Ann", "Alice", "Bob"])
    {'Ann': 'An', 'Alice': 'Al', 'Bob': 'B'}
    """
    found = {}
    for name in names:
        others = [other.casefold() for other in names if other != name]
        size = 1
        while size < 3 and any(other.startswith(name[:size].casefold()) for other in others):
            size += 1
        found[name] = name[:size]
    return found


def ink_on(fill: str) -> str:
    """Black or white, whichever reads on ``fill`` (``#RRGGBB``).

    >>> ink_on("#0072B2"), ink_on("#F0E442")
    ('#FFFFFF', '#000000')
    """
    red, green, blue = (int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "#000000" if 0.299 * red + 0.587 * green + 0.114 * blue > 0.55 else "#FFFFFF"


# -- drawing --------------------------------------------------------------------------------------


LINK_STYLES: dict[str, dict[str, object]] = {
    "border": {"stroke-width": 2.5},
    "hyperlink": {"stroke-width": 2, "stroke-dasharray": "8 5"},
    "off": {"stroke-width": 1.5, "stroke-dasharray": "1 5", "stroke-opacity": 0.7},
}
"""How each kind of link is drawn: told apart by dashes, not colour."""


def _link(a: str, b: str, kind: str, at: Mapping[str, Point], width: float) -> Markup:
    """One link as a line; a hyperlink longer than half the picture (a wrap-around sea line)
    is drawn as two stubs leaving by the nearer sides."""
    (x1, y1), (x2, y2) = at[a], at[b]
    style = LINK_STYLES[kind]
    if kind == "hyperlink" and abs(x2 - x1) > width / 2:
        left, right = ((x1, y1), (x2, y2)) if x1 < x2 else ((x2, y2), (x1, y1))
        d = (f"M{left[0]:.1f} {left[1]:.1f}H{MARGIN / 4:.1f}"
             f"M{right[0]:.1f} {right[1]:.1f}H{width - MARGIN / 4:.1f}")
    else:
        d = f"M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}"
    return element("path", {"class": f"link {kind}", "data-link": f"{a}~{b}", "d": d,
                            "stroke": "currentColor", "fill": "none",
                            "stroke-linecap": "round", **style})


def links_by_kind(board: Board, standing: Board) -> list[tuple[Pair, str]]:
    """Every link the board can have once, with its kind now: ``border`` or ``hyperlink``
    when in force, ``off`` when its turning or opening space has it closed."""
    in_force = {frozenset(pair) for pair in (*standing.links, *standing.hyperlinks)}
    hyper = {frozenset(pair) for pair in board.hyperlinks}
    found: dict[frozenset[str], tuple[Pair, str]] = {}
    for pair in all_links(board):
        key = frozenset(pair)
        if key in found and found[key][1] != "off":
            continue
        kind = ("hyperlink" if key in hyper else "border") if key in in_force else "off"
        found[key] = (pair, kind)
    return list(found.values())


def _shape(kind: str, x: float, y: float, fill: str, dashed: bool) -> Markup:
    outline = {"fill": fill, "stroke": "currentColor", "stroke-width": 2,
               "stroke-dasharray": "4 3" if dashed else None, "class": "space-shape"}
    if kind == "square":
        side = RADIUS * 1.8
        return element("rect", {"x": x - side / 2, "y": y - side / 2, "width": side,
                                "height": side, "rx": 4, **outline})
    if kind == "diamond":
        r = RADIUS * 1.25
        return element("path", {"d": f"M{x:.1f} {y - r:.1f}L{x + r:.1f} {y:.1f}L{x:.1f} "
                                      f"{y + r:.1f}L{x - r:.1f} {y:.1f}Z", **outline})
    return element("circle", {"cx": x, "cy": y, "r": RADIUS, **outline})


def name_lines(name: str, width: int = 13) -> list[str]:
    """A space's name in at most two lines of about ``width`` characters (cut with "…").

    >>> name_lines("The Neutral Territories")
    ['The Neutral', 'Territories']
    >>> name_lines("Plasma Energy Chamber")
    ['Plasma Energy', 'Chamber']
    """
    lines: list[str] = []
    for word in name.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    return [shorten(line, width + 2) for line in lines] or [""]


def _space(space_id: str, name: str, mark: SpaceMark, at: Point, fill: str, short: str, *,
           closed: bool) -> Markup:
    x, y = at
    ink = ink_on(fill)
    inside: list[Markup] = []
    lines = [short] if short else []
    if mark.count is not None:
        lines.append(str(mark.count))
    top = y + 4.5 - (len(lines) - 1) * 7
    for i, text in enumerate(lines):
        bold = "bold" if i == len(lines) - 1 and mark.count is not None else None
        inside.append(element("text", {"class": "owner" if text == short and short else "count",
                                       "x": x, "y": top + i * 14, "text-anchor": "middle",
                                       "font-size": 13, "font-weight": bold, "fill": ink},
                              text))
    halo = {"stroke": HALO, "stroke-width": 3, "paint-order": "stroke", "stroke-linejoin": "round"}
    below = [element("text", {"class": "space-name", "x": x, "y": y + RADIUS + 14 + i * 12,
                              "text-anchor": "middle", "font-size": 11, **halo}, line)
             for i, line in enumerate(name_lines(name))]
    extra = list(mark.labels) + (["closed"] if closed else [])
    if extra:
        below.append(element("text", {"class": "space-labels", "x": x,
                                      "y": y + RADIUS + 14 + len(below) * 12,
                                      "text-anchor": "middle", "font-size": 10,
                                      "font-style": "italic", **halo},
                                     shorten(", ".join(extra), 28)))
    described = [name]
    if mark.owner is not None:
        described.append(f"held by {mark.owner}")
    if mark.count is not None:
        described.append(f"{mark.count} piece{'s' if mark.count != 1 else ''}")
    described += extra
    return group(element("title", None, ": ".join([described[0], ", ".join(described[1:])])
                         if len(described) > 1 else name),
                 _shape(mark.shape, x, y, fill, closed), *inside, *below,
                 **{"class": "space", "data-space": space_id, "data-owner": mark.owner})


def _legend(owners: Sequence[str], colours: Mapping[str, str], shorts: Mapping[str, str],
            top: float, width: float) -> tuple[list[Markup], float]:
    """Players (a swatch with their initials, then their name) and the kinds of link."""
    parts: list[Markup] = []
    column = 180.0
    per_row = max(int((width - 16) // column), 1)
    for i, owner in enumerate(owners):
        x = 12 + (i % per_row) * column
        y = top + (i // per_row) * 26
        fill = colours[owner]
        parts.append(group(
            element("circle", {"cx": x + 10, "cy": y, "r": 10, "fill": fill,
                               "stroke": "currentColor"}),
            element("text", {"x": x + 10, "y": y + 4, "text-anchor": "middle", "font-size": 10,
                             "fill": ink_on(fill)}, shorts[owner]),
            element("text", {"x": x + 26, "y": y + 4.5}, shorten(owner, 20)),
            **{"class": "legend-player", "data-owner": owner}))
    y = top + math.ceil(len(owners) / per_row) * 26 + (4 if owners else -10)
    samples = (("border", "link"), ("hyperlink", "hyperlink"), ("off", "not open now"))
    for i, (kind, words) in enumerate(samples):
        x = 12 + i * 120
        parts.append(group(
            element("line", {"x1": x, "x2": x + 30, "y1": y, "y2": y, "stroke": "currentColor",
                             "stroke-linecap": "round", **LINK_STYLES[kind]}),
            element("text", {"x": x + 36, "y": y + 4.5, "font-size": 12}, words),
            **{"class": "legend-link"}))
    return parts, y - top + 16


def board_svg(
    board: Board,
    spaces: Mapping[str, SpaceMark],
    *,
    title: str,
    positions: Mapping[str, str] = {},
    open_spaces: Collection[str] = (),
    players: Sequence[tuple[str, str]] = (),
) -> str:
    """The board as it stands (turning spaces in ``positions``, ``open_spaces`` open): one
    shape per space with its name, owner and count from ``spaces`` (a space left out is shown
    empty), every link (open ones solid or dashed, closed ones dotted), and a legend of
    ``players`` (name, colour key; in seat order, holding a space or not) and other owners.

    The root ``<svg>`` carries ``data-readable-width``: the width in CSS pixels below which
    its names get smaller than about 9 px (a page may let a large board scroll sideways
    rather than shrink it past that)."""
    standing = board.standing(positions=positions, open_spaces=open_spaces)
    at, width, height = fit(layout(board))
    top = 34.0
    at = {space: (x, y + top) for space, (x, y) in at.items()}
    colours = owner_colours(spaces, players)
    owners = list(colours)
    shorts = initials(owners)
    links = [_link(a, b, kind, at, width) for (a, b), kind in links_by_kind(board, standing)]
    drawn = []
    for space in board.spaces:
        mark = spaces.get(space.id, SpaceMark())
        owner = mark.owner or ""
        drawn.append(_space(space.id, space.title, mark, at[space.id],
                            colours.get(owner, EMPTY_FILL), shorts.get(owner, ""),
                            closed=not board.on_board(space.id, open_spaces)))
    width = max(width, 380.0)
    legend, legend_height = _legend(owners, colours, shorts, top + height + 6, width)
    heading = element("text", {"class": "picture-title", "x": 12, "y": 24, "font-size": 16,
                               "font-weight": "bold"}, shorten(title, int(width / 10.5)))
    held = {owner: sum(1 for mark in spaces.values() if mark.owner == owner) for owner in owners}
    desc = (f"{board.name}: {len(board.spaces)} spaces. "
            + ("; ".join(f"{owner} holds {count}" for owner, count in held.items())
               or "Nobody holds a space") + ".")
    readable = round(width * READABLE_TEXT / 11)
    return document(title, desc, width, top + height + 6 + legend_height, heading,
                    group(*links, **{"class": "links"}), group(*drawn, **{"class": "spaces"}),
                    *legend, root={"class": "board-picture", "data-readable-width": readable})


class NoPicture(TabletapeError):
    """The game's kind draws no board picture (not a map game)."""

    exit_code = USAGE_EXIT


def picture_of(rules: Rules[Any], state: Any) -> str | None:
    """The board picture of ``state`` from the game's ``picture`` part; None when the game has
    none or the state has nothing to draw."""
    draw = game_part(rules.name, "picture")
    return None if draw is None else draw(rules, state)


def write_picture(rules: Rules[Any], state: Any, target: Path) -> None:
    """``status --picture FILE``: the board picture written to ``target`` (``-``: standard
    output); :class:`NoPicture` for a game without one."""
    svg = picture_of(rules, state)
    if svg is None:
        drawn = sorted(name for name, manifest in manifests().items()
                       if manifest.picture is not None)
        raise NoPicture(f"{rules.title} has no board picture (map games have one: "
                        f"{', '.join(drawn)})")
    if str(target) == "-":
        sys.stdout.write(svg + "\n")
        return
    save(target, svg + "\n")
