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
        {"id": "red-station", "name": "Red Home Station", "tags": ["home:red"]},
        {"id": "nw-corner", "name": "North-West Corner", "tags": ["corner"]},
        {"id": "centre", "name": "The Centre", "tags": ["centre"]}
      ],
      "links": [["red-station", "nw-corner"], ["nw-corner", "centre"]],
      "opposites": [["nw-corner", "se-corner"]]     (optional: pairs of spaces facing each other)
    }

Ids are kebab-case words (letters, digits, ``-``); a link is a pair of ids and works both ways;
tags are free words a game gives meaning to (``home:red``, ``corner``, ``centre``, ``sector:red``).
A game states which tags it needs with :func:`require_tags`.

>>> board = board_from_data({"name": "tiny", "spaces": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
...                          "links": [["a", "b"], ["b", "c"]]})
>>> board.neighbours("b")
('a', 'c')
>>> sorted(board.reachable("a", pass_over={"b"}))
['c']
>>> board.path("a", "c")
('a', 'b', 'c')
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from collections import deque
from collections.abc import Collection, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import msgspec

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

    @property
    def title(self) -> str:
        return self.name or self.id


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
        for a, b in self.links:
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
        """Spaces linked to ``space_id``, in board order."""
        return self._neighbours[space_id]

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
        """The board as the JSON object of the file format (what a game's options store)."""
        data: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(self))
        return data


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
    try:
        board = msgspec.convert(dict(data), Board, strict=False)
    except msgspec.ValidationError as error:
        raise BadOptions(f"board: {error}") from None
    check_size(board)
    validate(board)
    return board


def load_board(path: str | Path) -> Board:
    """A validated board read from a JSON file of at most :data:`MAX_BOARD_BYTES`."""
    text = read_board_text(Path(path).expanduser(), str(path))
    try:
        data = msgspec.json.decode(text)
    except msgspec.DecodeError as error:
        raise BadOptions(f"board file '{path}' is not JSON: {error}") from None
    except (ValueError, RecursionError) as error:  # a number or a nesting too large to read
        raise BadOptions(f"board file '{path}' is not a board: {error}") from None
    return board_from_data(data)


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
    for what, count, limit in (("spaces", len(board.spaces), MAX_SPACES),
                               ("links", len(board.links), MAX_LINKS),
                               ("opposites", len(board.opposites), MAX_LINKS)):
        if count > limit:
            raise BadOptions(f"board {shown_text(board.name)} has {count} {what}; a board has "
                             f"at most {limit}")
    if len(board.note) > MAX_BOARD_NOTE:
        raise BadOptions(f"board note is longer than {MAX_BOARD_NOTE} characters")
    texts = [("name", board.name), ("note", board.note), ("mark", board.mark)]
    for space in board.spaces:
        texts += [("space id", space.id), ("space name", space.name)]
        texts += [("tag", tag) for tag in space.tags]
    for what, text in texts:
        if len(text) > MAX_TEXT and what != "note":
            raise BadOptions(f"board {what} {shown_text(text[:40])}… is longer than "
                             f"{MAX_TEXT} characters")
        if any(unicodedata.category(c) == "Cc" for c in text):
            raise BadOptions(f"board {what} {shown_text(text)} holds a control character; "
                             "remove it from the file")


def shown_text(text: str) -> str:
    r"""``text`` quoted with its control characters escaped, safe to print.

    >>> print(shown_text("red\x1b[31m"))
    'red\x1b[31m'
    """
    return repr(text)


def validate(board: Board) -> None:
    """Raise :class:`BadOptions` unless ids are well-formed and unique, links name known
    spaces, opposites are pairs of known spaces and every space can reach every other."""
    if not board.spaces:
        raise BadOptions(f"board '{board.name}' has no spaces")
    seen: set[str] = set()
    for space in board.spaces:
        if not ID.match(space.id):
            raise BadOptions(f"board space id '{space.id}' must be kebab-case (e.g. red-station)")
        if space.id in seen:
            raise BadOptions(f"board space '{space.id}' is listed twice")
        seen.add(space.id)
    for what, pairs in (("link", board.links), ("opposite", board.opposites)):
        for a, b in pairs:
            for end in (a, b):
                if end not in seen:
                    raise BadOptions(unknown_space(f"{what} {a}–{b}", end, board))
            if a == b:
                raise BadOptions(f"board {what} {a}–{b} joins a space to itself")
    reached = board.distances(board.spaces[0].id)
    cut_off = [space.id for space in board.spaces if space.id not in reached]
    if cut_off:
        raise BadOptions(
            f"board '{board.name}' is not connected: {', '.join(cut_off)} cannot be reached "
            f"from {board.spaces[0].id}"
        )


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
