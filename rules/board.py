"""A game board as data: spaces, undirected links, tags, and what a map game asks of it.

Map games (Risk: Deep Space's planets, Risk: Transformers' zones) share this piece; nothing here
knows a game. A board is loaded from a JSON file a table supplies, validated with messages meant
for people, and stored whole in the game's options so a log replays without the file.

The file format (JSON, one object)::

    {
      "name": "Our board",
      "note": "Copied from our box, 2024",          (optional: provenance, shown in views)
      "mark": "V",                                  (optional: R, V, C, S, D, I or NF)
      "spaces": [
        {"id": "red-station", "name": "Red Home Station", "tags": ["home:red"], "at": [50, 0]},
        {"id": "nw-corner", "name": "North-West Corner", "tags": ["corner"], "at": [0, 0]},
        {"id": "centre", "name": "The Centre", "tags": ["centre"], "at": [50, 50]}
      ],                                            ("at": optional, where the space is drawn)
      "links": [["red-station", "nw-corner"], ["nw-corner", "centre"]],
      "opposites": [["nw-corner", "se-corner"]],    (optional: pairs of spaces facing each other)
      "hyperlinks": [["red-station", "centre"]],    (optional: links of another kind, e.g. across
                                                     space; they make neighbours as links do)
      "turning": [{"space": "centre", "start": "closed", "mark": "I",
                   "positions": {"closed": [], "open": [["centre", "nw-corner"]]}}],
                                                    (optional: a space whose links depend on its
                                                     position; each position names the links it
                                                     opens, and only those are open)
      "opening": [{"space": "vault", "links": [["vault", "centre"]], "mark": "I"}],
                                                    (optional: a space on the board only while
                                                     open, with the links it has then;
                                                     ``closed_links`` exist only while it is closed)
      "marks": {"red-station": "R", "nw-corner~centre": "I"}
                                                    (optional: provenance of single values, keyed
                                                     by what the game names; unlisted values have
                                                     the board's mark)
    }

Ids are kebab-case words (letters, digits, ``-``); a link is a pair of ids and works both ways;
tags are free words a game gives meaning to (``home:red``, ``corner``, ``centre``, ``sector:red``).
A game states which tags it needs with :func:`require_tags`.

Layout: ``"at": [x, y]`` places a space in the board's picture (x to the right, y downwards, in
any unit: only the proportions count, 0..100 reads well). Give it to every space or to none; a
board without it is laid out automatically (:mod:`tabletape.replay.board_picture`). Two spaces
may not share a point.

>>> board = board_from_data({"name": "tiny", "spaces": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
...                          "links": [["a", "b"], ["b", "c"]]})
>>> board.neighbours("b")
('a', 'c')
>>> sorted(board.reachable("a", pass_over={"b"}))
['c']
>>> board.path("a", "c")
('a', 'b', 'c')

Links that change: :meth:`Board.standing` is the board as it stands for a setting (each turning
space's position, the opening spaces that are open), a plain board whose links are those in force.

>>> gate = board_from_data({"name": "gate", "links": [["a", "b"]],
...     "spaces": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "v"}],
...     "turning": [{"space": "c", "positions": {"shut": [], "on": [["c", "a"]]}}],
...     "opening": [{"space": "v", "links": [["v", "a"]]}]})
>>> gate.neighbours_at("a", positions={"c": "shut"}, open_spaces=())
('b',)
>>> gate.neighbours_at("a", positions={"c": "on"}, open_spaces={"v"})
('b', 'c', 'v')
>>> gate.on_board("v"), gate.on_board("v", open_spaces={"v"})
(False, True)
"""

from __future__ import annotations

import math
import os
import re
import stat
import unicodedata
from collections import deque
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import msgspec

from tabletape.rules.facts import MARKS
from tabletape.rules.kernel import BadOptions, unknown_name_message
from tabletape.rules.seats import NOBODY

ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
"""What a space id looks like: ``red-station``, ``planet-7``."""


class Space(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One space of a board: a planet, a zone, a station."""

    id: str
    """What people type: kebab-case, unique on the board."""
    name: str = ""
    """What people read; the id when empty."""
    tags: tuple[str, ...] = ()
    """Words the game gives meaning to: ``home:red``, ``corner``, ``centre``."""
    at: tuple[int | float, int | float] | None = None
    """Where the space is drawn in the board's picture, ``(x, y)`` with y downwards; None: the
    picture lays the board out itself. Left out of :meth:`Board.to_data` when None."""

    @property
    def title(self) -> str:
        return self.name or self.id


Pair = tuple[str, str]
"""A link: two space ids; it works both ways."""


class TurningSpace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A space whose links depend on its position (a spinning zone): each position names the
    links it opens; in a position, only that position's links of the space are open."""

    space: str
    positions: dict[str, tuple[Pair, ...]]
    """Position name -> the links open in it (``{"closed": [], "west": [["a", "b"]]}``)."""
    start: str = ""
    """The position at the start of a game; the first position when empty."""
    mark: str = ""
    """Provenance of the positions and their links; the board's mark when empty."""

    @property
    def start_position(self) -> str:
        return self.start or next(iter(self.positions), "")


class OpeningSpace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A space on the board only while open (a war factory under a sliding zone): closed, it
    has no link and holds nothing; open, it has ``links``."""

    space: str
    links: tuple[Pair, ...]
    """The links the space has while it is open."""
    closed_links: tuple[Pair, ...] = ()
    """Links between other spaces that exist only while this space is closed."""
    mark: str = ""
    """Provenance of the links; the board's mark when empty."""


class Board(msgspec.Struct, frozen=True, forbid_unknown_fields=True, dict=True):
    """Spaces and undirected links; build one with :func:`board_from_data` (which validates)."""

    name: str
    spaces: tuple[Space, ...]
    links: tuple[tuple[str, str], ...] = ()
    opposites: tuple[tuple[str, str], ...] = ()
    """Pairs of spaces facing each other across the board (e.g. opposing corners)."""
    note: str = ""
    """Where the board comes from, shown wherever the board is shown."""
    mark: str = ""
    """Provenance mark of the whole board (``I`` for a reconstruction)."""
    hyperlinks: tuple[Pair, ...] = ()
    """Links of a second kind (sea lines, hyperlinks); neighbours as links are."""
    turning: tuple[TurningSpace, ...] = ()
    """Spaces whose links depend on their position."""
    opening: tuple[OpeningSpace, ...] = ()
    """Spaces on the board only while open."""
    marks: dict[str, str] = {}
    """Provenance of single values by key (a space id, ``a~b`` for a link); see :meth:`mark_of`."""

    # -- lookups -------------------------------------------------------------------------------

    @cached_property
    def ids(self) -> tuple[str, ...]:
        return tuple(space.id for space in self.spaces)

    @cached_property
    def _index(self) -> dict[str, int]:
        return {space_id: i for i, space_id in enumerate(self.ids)}

    @cached_property
    def _neighbours(self) -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {space_id: [] for space_id in self.ids}
        for a, b in (*self.links, *self.hyperlinks):
            if b not in found[a]:
                found[a].append(b)
            if a not in found[b]:
                found[b].append(a)
        order = self._index
        return {k: tuple(sorted(v, key=order.__getitem__)) for k, v in found.items()}

    def index(self, space_id: str) -> int:
        """Position of a space in :attr:`spaces` (states keep per-space tuples in this order)."""
        return self._index[space_id]

    def space(self, space_id: str) -> Space:
        return self.spaces[self._index[space_id]]

    def find(self, text: str) -> str | None:
        """The id a person meant: an id or a name, any case, spaces as ``-``; None if unknown."""
        wanted = text.strip().casefold().replace(" ", "-").replace("_", "-")
        if wanted in self._index:
            return wanted
        for space in self.spaces:
            if space.title.casefold().replace(" ", "-") == wanted:
                return space.id
        return None

    def neighbours(self, space_id: str) -> tuple[str, ...]:
        """Spaces linked to ``space_id`` by a fixed link or hyperlink, in board order (the links
        of turning and opening spaces are in :meth:`neighbours_at`)."""
        return self._neighbours[space_id]

    def link_kind(self, a: str, b: str) -> str:
        """``"hyperlink"`` or ``"border"`` for two spaces linked in some setting, else ``""``.

        >>> board_from_data({"name": "t", "spaces": [{"id": "a"}, {"id": "b"}],
        ...                  "hyperlinks": [["a", "b"]]}).link_kind("b", "a")
        'hyperlink'
        """
        return self._kinds.get(frozenset((a, b)), "")

    @cached_property
    def _kinds(self) -> dict[frozenset[str], str]:
        kinds = {frozenset(pair): "border" for pair in all_links(self)}
        return kinds | {frozenset(pair): "hyperlink" for pair in self.hyperlinks}

    def mark_of(self, key: str) -> str:
        """The provenance of one value: its entry in :attr:`marks`, else the board's mark."""
        return self.marks.get(key, self.mark)

    # -- links that change ---------------------------------------------------------------------

    @cached_property
    def _standing(self) -> dict[tuple[tuple[tuple[str, str], ...], frozenset[str]], Board]:
        return {}

    def start_positions(self) -> dict[str, str]:
        """Each turning space's position at the start of a game."""
        return {turning.space: turning.start_position for turning in self.turning}

    def standing(self, *, positions: Mapping[str, str] = {},
                 open_spaces: Collection[str] = ()) -> Board:
        """The board as it stands: a plain board (same spaces, same order) whose links are the
        ones in force when each turning space is in its position in ``positions`` (its start
        position when absent) and the opening spaces in ``open_spaces`` are open (others
        closed). Cached per setting; ValueError names an unknown space or position."""
        if not self.turning and not self.opening:
            return self
        key = (tuple(sorted({**self.start_positions(), **positions}.items())),
               frozenset(open_spaces))
        if key not in self._standing:
            self._standing[key] = self._settle(dict(key[0]), key[1])
        return self._standing[key]

    def _settle(self, positions: Mapping[str, str], opened: frozenset[str]) -> Board:
        turning = {t.space: t for t in self.turning}
        opening = {o.space: o for o in self.opening}
        for what, asked, known in (("turning space", positions, turning),
                                   ("opening space", opened, opening)):
            if unknown := sorted(set(asked) - set(known)):
                raise ValueError(unknown_name_message(what, unknown[0], tuple(known)))
        links = list(self.links)
        for space, position in positions.items():
            if position not in turning[space].positions:
                raise ValueError(unknown_name_message(
                    f"position of {space}", position, tuple(turning[space].positions)))
            links += turning[space].positions[position]
        for space, each in opening.items():
            links += each.links if space in opened else each.closed_links
        return Board(name=self.name, spaces=self.spaces, links=tuple(links),
                     hyperlinks=self.hyperlinks, opposites=self.opposites, note=self.note,
                     mark=self.mark, marks=self.marks)

    def neighbours_at(self, space_id: str, *, positions: Mapping[str, str] = {},
                      open_spaces: Collection[str] = ()) -> tuple[str, ...]:
        """Neighbours of ``space_id`` on the board as it stands (:meth:`standing`)."""
        return self.standing(positions=positions, open_spaces=open_spaces).neighbours(space_id)

    def on_board(self, space_id: str, open_spaces: Collection[str] = ()) -> bool:
        """Whether a space is on the board: any space but a closed opening space."""
        return space_id in open_spaces or all(o.space != space_id for o in self.opening)

    def linked(self, a: str, b: str) -> bool:
        return b in self._neighbours[a]

    @cached_property
    def _tags(self) -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {}
        for space in self.spaces:
            for tag in space.tags:
                found.setdefault(tag, []).append(space.id)
        return {tag: tuple(ids) for tag, ids in found.items()}

    def tagged(self, tag: str) -> tuple[str, ...]:
        """Ids of the spaces carrying ``tag``, in board order."""
        return self._tags.get(tag, ())

    def tag_values(self, prefix: str) -> dict[str, str]:
        """``{value: id}`` for tags ``prefix:value``: ``tag_values("home")`` -> ``{"red": ...}``."""
        start = prefix + ":"
        return {tag[len(start):]: ids[0] for tag, ids in self._tags.items()
                if tag.startswith(start)}

    # -- movement ------------------------------------------------------------------------------

    def reachable(
        self,
        start: str,
        *,
        pass_over: Collection[str] = (),
        toll: Collection[str] = (),
        closed: Collection[str] = (),
    ) -> dict[str, int]:
        """Spaces reachable from ``start`` in one movement, with the fewest tolls paid on the way.

        A movement goes to a linked space, or on over spaces it may cross without stopping:
        ``pass_over`` spaces are crossed free, ``toll`` spaces for one toll each. Neither can be
        a destination, nor can ``closed`` spaces (which are not crossed either).
        """
        crossing = set(pass_over) | set(toll)
        blocked = set(closed)
        best: dict[str, int] = {start: 0}
        queue: deque[tuple[int, str]] = deque([(0, start)])
        destinations: dict[str, int] = {}
        while queue:
            paid, here = queue.popleft()
            if paid > best.get(here, paid):
                continue
            for there in self._neighbours[here]:
                if there == start or there in blocked:
                    continue
                cost = paid + (there in toll)
                if there in crossing:
                    if cost < best.get(there, cost + 1):
                        best[there] = cost
                        (queue.appendleft if cost == paid else queue.append)((cost, there))
                elif cost < destinations.get(there, cost + 1):
                    destinations[there] = cost
        return destinations

    def path(self, start: str, goal: str, *, avoid: Collection[str] = ()) -> tuple[str, ...]:
        """A shortest chain of linked spaces from ``start`` to ``goal`` (ends included), not
        crossing ``avoid``; empty when there is none."""
        previous: dict[str, str | None] = {start: None}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if here == goal:
                chain = [goal]
                while (step := previous[chain[-1]]) is not None:
                    chain.append(step)
                return tuple(reversed(chain))
            for there in self._neighbours[here]:
                if there not in previous and (there == goal or there not in avoid):
                    previous[there] = here
                    queue.append(there)
        return ()

    def distances(self, start: str, *, avoid: Collection[str] = ()) -> dict[str, int]:
        """Links to cross from ``start`` to every space it can reach, not crossing ``avoid``."""
        found = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self._neighbours[here]:
                if there not in found and there not in avoid:
                    found[there] = found[here] + 1
                    queue.append(there)
        return found

    def to_data(self) -> dict[str, Any]:
        """The board as the JSON object of the file format (what a game's options store);
        optional parts it does not use are left out, so older boards keep their exact form."""
        data: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(self))
        for key in OMITTED_WHEN_EMPTY:
            if not data[key]:
                del data[key]
        for space in data["spaces"]:
            if space["at"] is None:
                del space["at"]
        return data

    @property
    def laid_out(self) -> bool:
        """Whether the board file places its spaces (``"at"`` on every space)."""
        return all(space.at is not None for space in self.spaces)


OMITTED_WHEN_EMPTY = ("hyperlinks", "turning", "opening", "marks")
"""Board fields added after boards were stored in logs: left out of :meth:`Board.to_data`
when empty, so a stored board reads and writes back byte for byte the same."""


def all_links(board: Board) -> tuple[Pair, ...]:
    """Every link the board can have in some setting: fixed, hyperlinks, every position's and
    every opening space's links (open and closed)."""
    found = [*board.links, *board.hyperlinks]
    for turning in board.turning:
        for links in turning.positions.values():
            found += links
    for opening in board.opening:
        found += [*opening.links, *opening.closed_links]
    return tuple(found)


# -- occupancy (``NOBODY``, from :mod:`~tabletape.rules.seats`, holds an empty space) -------------


def holder(pieces: Sequence[int]) -> int:
    """Who holds a space given each player's pieces on it: the only player with pieces there,
    ``NOBODY`` when it is empty; a space shared by several players raises ValueError.

    >>> holder((0, 3, 0)), holder((0, 0, 0))
    (1, -1)
    """
    present = [seat for seat, count in enumerate(pieces) if count]
    if len(present) > 1:
        raise ValueError(f"several players hold one space: {present}")
    return present[0] if present else NOBODY


# -- loading and validation ----------------------------------------------------------------------


MAX_BOARD_BYTES = 256 * 1024
"""The largest board file read (the default board is under 4 KiB)."""
MAX_SPACES = 1000
"""The most spaces a board may have (a Risk map has about 40)."""
MAX_LINKS = 10 * MAX_SPACES
"""The most links (and, apart, opposites) a board may have."""
MAX_TEXT = 200
"""The longest name, id or tag on a board, in characters."""
MAX_BOARD_NOTE = 4000
"""The longest note (provenance) of a board, in characters."""


def board_from_data(data: Mapping[str, Any]) -> Board:
    """A validated board from the file format's object; :class:`BadOptions` says what is wrong."""
    if not isinstance(data, Mapping):
        raise BadOptions("a board is a JSON object with name, spaces and links")
    check_layout_data(data.get("spaces"))
    try:
        board = msgspec.convert(dict(data), Board, strict=False)
    except msgspec.ValidationError as error:
        raise BadOptions(f"board: {error}") from None
    check_size(board)
    validate(board)
    return board


def check_layout_data(spaces: Any) -> None:
    """Raise :class:`BadOptions` unless every space's ``"at"`` is two finite numbers, given to
    every space or to none, and no two spaces share a point (the file's data, before it is read
    as a board; other shapes are left to the board's own checks).

    >>> check_layout_data([{"id": "a", "at": [0, 0]}, {"id": "b"}])
    Traceback (most recent call last):
    ...
    tabletape.rules.kernel.BadOptions: board space 'b' has no "at" but 'a' has: give "at": [x, y]
    to every space or to none
    >>> check_layout_data([{"id": "a", "at": [0, "1"]}])
    Traceback (most recent call last):
    ...
    tabletape.rules.kernel.BadOptions: board space 'a': "at" must be two numbers [x, y], not
    [0, '1']
    """
    if not isinstance(spaces, Sequence) or isinstance(spaces, str | bytes):
        return
    placed = [s for s in spaces if isinstance(s, Mapping) and s.get("at") is not None]
    if not placed:
        return
    seen: dict[tuple[float, float], str] = {}
    for space in spaces:
        if not isinstance(space, Mapping):
            return
        name = shown_text(str(space.get("id", "?"))[:40])
        at = space.get("at")
        if at is None:
            first = shown_text(str(placed[0].get("id", "?"))[:40])
            raise BadOptions(f'board space {name} has no "at" but {first} has: give "at": '
                             "[x, y] to every space or to none")
        point = layout_point(name, at)
        if point in seen:
            raise BadOptions(f"board spaces {shown_text(seen[point])} and {name} are drawn at "
                             f"the same point {list(at)!r}: move one")
        seen[point] = name.strip("'")


def layout_point(name: str, at: Any) -> tuple[float, float]:
    """The point ``at`` gives, or :class:`BadOptions` saying what ``"at"`` must be."""
    numbers = isinstance(at, Sequence) and not isinstance(at, str | bytes) and len(at) == 2 \
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in at)
    if not numbers:
        shown = repr(list(at)) if isinstance(at, Sequence) and not isinstance(at, str) \
            else shown_text(str(at)[:40])
        raise BadOptions(f'board space {name}: "at" must be two numbers [x, y], not {shown}')
    point = (float(at[0]), float(at[1]))
    if not all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in point):
        raise BadOptions(f'board space {name}: "at" must be two finite numbers of at most '
                         f"{MAX_COORDINATE:g} each, not {list(at)!r}")
    return point


MAX_COORDINATE = 1e6
"""The largest layout coordinate (in any unit) a board file may give."""


def board_option(value: Any, *, default: Callable[[], dict[str, Any]],
                 read: Callable[[str], Any]) -> dict[str, Any]:
    """The board's content from what a person gave as ``--option board=``: a file path (read and
    validated by ``read``, which returns an object with ``to_data()``), the content itself (a
    stored game's options), or nothing (``default()``, the game's shipped board)."""
    if value is None or value == "":
        return default()
    if isinstance(value, str):
        data: dict[str, Any] = read(value).to_data()
        return data
    if isinstance(value, Mapping):
        return dict(value)
    raise BadOptions("board must be a board file's path")


def load_board(path: str | Path) -> Board:
    """A validated board read from a JSON file of at most :data:`MAX_BOARD_BYTES`."""
    return board_from_data(read_board_data(path))


def read_board_data(path: str | Path) -> Any:
    """The decoded JSON of a board file of at most :data:`MAX_BOARD_BYTES` (a regular UTF-8
    file), not yet validated; :class:`BadOptions` says why it cannot be read."""
    text = read_board_text(Path(path).expanduser(), str(path))
    try:
        return msgspec.json.decode(text)
    except msgspec.DecodeError as error:
        raise BadOptions(f"board file '{path}' is not JSON: {error}") from None
    except (ValueError, RecursionError) as error:  # a number or a nesting too large to read
        raise BadOptions(f"board file '{path}' is not a board: {error}") from None


def read_board_text(file: Path, shown: str) -> str:
    """The UTF-8 text of a regular file of at most :data:`MAX_BOARD_BYTES`, or BadOptions.

    The file is opened without waiting (a FIFO never blocks) and checked to be a regular file
    before a byte is read (``/dev/zero`` is not read at all).
    """
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise BadOptions(f"cannot read board file '{shown}': {error.strerror or error}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise BadOptions(f"board file '{shown}' is not a regular file (a folder, a device or "
                             "a pipe): name a .json file")
        data = os.read(fd, MAX_BOARD_BYTES + 1)
    except OSError as error:
        raise BadOptions(f"cannot read board file '{shown}': {error.strerror or error}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_BOARD_BYTES:
        raise BadOptions(f"board file '{shown}' is larger than {MAX_BOARD_BYTES // 1024} KiB: "
                         "a board file is far smaller")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadOptions(f"board file '{shown}' is not UTF-8 text (byte {error.start}); save it "
                         "as UTF-8") from None


def check_size(board: Board) -> None:
    """Raise :class:`BadOptions` if the board is larger than the limits, or if any of its text
    holds a control character (it would be sent to the terminal as it is)."""
    changing = len(all_links(board)) - len(board.links) - len(board.hyperlinks)
    for what, count, limit in (("spaces", len(board.spaces), MAX_SPACES),
                               ("links", len(board.links), MAX_LINKS),
                               ("opposites", len(board.opposites), MAX_LINKS),
                               ("hyperlinks", len(board.hyperlinks), MAX_LINKS),
                               ("changing links", changing, MAX_LINKS),
                               ("marks", len(board.marks), MAX_LINKS)):
        if count > limit:
            raise BadOptions(f"board {shown_text(board.name)} has {count} {what}; a board has "
                             f"at most {limit}")
    if len(board.note) > MAX_BOARD_NOTE:
        raise BadOptions(f"board note is longer than {MAX_BOARD_NOTE} characters")
    texts = [("name", board.name), ("note", board.note), ("mark", board.mark)]
    for space in board.spaces:
        texts += [("space id", space.id), ("space name", space.name)]
        texts += [("tag", tag) for tag in space.tags]
    for turning in board.turning:
        texts += [("position", position) for position in turning.positions]
    texts += [("mark key", key) for key in board.marks]
    for what, text in texts:
        check_text(f"board {what}", text, MAX_BOARD_NOTE if what == "note" else MAX_TEXT)


def check_text(what: str, text: str, limit: int = MAX_TEXT) -> None:
    """Raise :class:`BadOptions` if ``text`` is longer than ``limit`` or holds a control
    character (it would be sent to the terminal as it is)."""
    if len(text) > limit:
        raise BadOptions(f"{what} {shown_text(text[:40])}… is longer than {limit} characters")
    if any(unicodedata.category(c) == "Cc" for c in text):
        raise BadOptions(f"{what} {shown_text(text)} holds a control character; "
                         "remove it from the file")


def shown_text(text: str) -> str:
    r"""``text`` quoted with its control characters escaped, safe to print.

    >>> print(shown_text("red\x1b[31m"))
    'red\x1b[31m'
    """
    return repr(text)


def validate(board: Board) -> None:
    """Raise :class:`BadOptions` unless ids are well-formed and unique, links (of every kind)
    name known spaces, opposites are pairs of known spaces, turning and opening spaces are
    well-formed, marks are known and every space can reach every other in some setting."""
    if not board.spaces:
        raise BadOptions(f"board '{board.name}' has no spaces")
    seen: set[str] = set()
    for space in board.spaces:
        if not ID.match(space.id):
            raise BadOptions(f"board space id '{space.id}' must be kebab-case (e.g. red-station)")
        if space.id in seen:
            raise BadOptions(f"board space '{space.id}' is listed twice")
        seen.add(space.id)
    for what, pairs in (("link", board.links), ("opposite", board.opposites),
                        ("hyperlink", board.hyperlinks)):
        check_pairs(board, what, pairs)
    validate_changing(board)
    for key, mark in board.marks.items():
        if mark not in MARKS:
            raise BadOptions(f"board mark of '{key}': " + unknown_name_message("mark", mark, MARKS))
    everything = Board(name=board.name, spaces=board.spaces, links=all_links(board))
    reached = everything.distances(board.spaces[0].id)
    cut_off = [space.id for space in board.spaces if space.id not in reached]
    if cut_off:
        raise BadOptions(
            f"board '{board.name}' is not connected: {', '.join(cut_off)} cannot be reached "
            f"from {board.spaces[0].id}"
        )


def check_pairs(board: Board, what: str, pairs: Sequence[Pair], touching: str = "") -> None:
    """Raise :class:`BadOptions` unless each pair joins two known, different spaces (one of
    them ``touching`` when given)."""
    for a, b in pairs:
        for end in (a, b):
            if end not in board._index:
                raise BadOptions(unknown_space(f"{what} {a}–{b}", end, board))
        if a == b:
            raise BadOptions(f"board {what} {a}–{b} joins a space to itself")
        if touching and touching not in (a, b):
            raise BadOptions(f"board {what} {a}–{b} does not touch {touching}")


def validate_changing(board: Board) -> None:
    """Raise :class:`BadOptions` unless turning and opening spaces are known spaces, each at
    most once, turning spaces have positions (the start one among them) whose links touch
    them, and opening spaces' links touch them."""
    seen: set[str] = set()
    for kind, space in [("turning", t.space) for t in board.turning] + \
            [("opening", o.space) for o in board.opening]:
        if space not in board._index:
            raise BadOptions(unknown_space(f"{kind} space", space, board))
        if space in seen:
            raise BadOptions(f"board space '{space}' changes twice (turning or opening)")
        seen.add(space)
    for turning in board.turning:
        if not turning.positions:
            raise BadOptions(f"board turning space '{turning.space}' has no positions")
        if turning.start_position not in turning.positions:
            raise BadOptions(f"board turning space '{turning.space}' starts in an " +
                             unknown_name_message("position", turning.start,
                                                  tuple(turning.positions)))
        for position, links in turning.positions.items():
            check_pairs(board, f"position {turning.space}:{position}", links, turning.space)
    for opening in board.opening:
        check_pairs(board, f"opening space {opening.space}", opening.links, opening.space)
        check_pairs(board, f"closed link of {opening.space}", opening.closed_links)


def unknown_space(where: str, space_id: str, board: Board) -> str:
    return f"board {where}: " + unknown_name_message("space", space_id, board.ids)


def require_tags(board: Board, counts: Mapping[str, int]) -> None:
    """Raise :class:`BadOptions` unless each tag is on exactly that many spaces.

    >>> board = board_from_data({"name": "t", "spaces": [{"id": "a", "tags": ["home:red"]}]})
    >>> require_tags(board, {"home:blue": 1})
    Traceback (most recent call last):
    ...
    tabletape.rules.kernel.BadOptions: board 't' needs 1 space tagged home:blue, and has 0
    """
    for tag, wanted in counts.items():
        found = board.tagged(tag)
        if len(found) != wanted:
            spaces = "space" if wanted == 1 else "spaces"
            listing = f" ({', '.join(found)})" if found else ""
            raise BadOptions(
                f"board '{board.name}' needs {wanted} {spaces} tagged {tag}, "
                f"and has {len(found)}{listing}"
            )



def require_separate(board: Board, roles: Mapping[str, str]) -> None:
    """Raise :class:`BadOptions` when one space plays two ``roles``, or one role twice.

    ``roles`` maps a tag, or a tag prefix ending in ``:`` (``home:`` for ``home:red``), to the
    words people read for it.

    >>> board = board_from_data({"name": "t", "spaces": [{"id": "a", "tags": ["corner", "x"]}]})
    >>> require_separate(board, {"corner": "a corner", "x": "a station"})
    Traceback (most recent call last):
    ...
    tabletape.rules.kernel.BadOptions: board 't': space 'a' is both a corner and a station (corner,
    x)
    """
    for space in board.spaces:
        played = {tag: words for tag in space.tags for role, words in roles.items()
                  if tag == role or (role.endswith(":") and tag.startswith(role))}
        if len(played) < 2:
            continue
        words = list(dict.fromkeys(played.values()))
        what = f"both {' and '.join(words)}" if len(words) > 1 else f"{words[0]} twice"
        raise BadOptions(f"board '{board.name}': space '{space.id}' is {what} "
                         f"({', '.join(played)})")
