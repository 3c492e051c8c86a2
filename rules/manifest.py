"""A game's one declaration: its names and where each of its parts lives.

Every game declares a :class:`GameManifest` once, in a module that is cheap to import (the
shipped games: their package ``__init__``), and names it in the ``tabletape.games`` entry point
group of its distribution::

    [project.entry-points."tabletape.games"]
    risk-strike = "tabletape.rules.risk_strike:MANIFEST"

A part is named by where it lives, ``"module:attribute"`` (or ``"module"`` for a module), and
imported only when first asked for, so finding one game imports that game only. Tests and
notebooks may give the object itself instead of its place (see
:func:`tabletape.rules.registry.register`).

>>> manifest = GameManifest(name="pebbles", title="Pebbles", aliases=("pb",), short="pb",
...                         rules="pebbles.game:Pebbles", view="pebbles.view:view")
>>> manifest.names
('pebbles', 'pb')
>>> manifest.provides()
('view',)
>>> load("os.path:join")("a", "b")
'a/b'
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from tabletape.rules.facts import Fact

ENTRY_POINT_GROUP = "tabletape.games"
"""The entry point group where games are found (installed distributions, ours included)."""

PARTS = ("view", "narrate", "setup_notes", "conservation", "dice", "projections", "demo",
         "picture")
"""The optional parts a manifest may name, besides its rules."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class GameManifest:
    """Who a game is and where its parts live. Every part but ``rules`` is optional."""

    name: str
    """Registry name, kebab-case: ``risk-strike``."""
    title: str
    """Name on the box: ``Risk Strike``."""
    aliases: tuple[str, ...] = ()
    """Other names ``find_game`` accepts: ``strike``, ``rs``."""
    short: str = "g"
    """Prefix of game ids of this kind: ``rs`` gives ids like ``rs-k7pq``."""
    rules: Any
    """The :class:`~tabletape.rules.kernel.Rules` instance or subclass (instantiated once)."""
    view: Any = None
    """``view(rules, state) -> RenderableType``: a state for ``status`` and ``replay``."""
    narrate: Any = None
    """``narrate(visit) -> list[str]``: one stored event in table words."""
    setup_notes: Any = None
    """``setup_notes(rules, state) -> RenderableType``: what ``new`` says after starting."""
    conservation: Any = None
    """``conservation(state) -> list[str]``: cards and tokens that do not add up (``audit``)."""
    dice: Any = None
    """``dice(visit) -> list[(player, sides, face)]``: the dice an event rolled (``audit``)."""
    projections: Any = None
    """``projections() -> list[Projection]``: fresh per-game catalog projections."""
    demo: Any = None
    """A module (or object) with ``DEMO_PLAYERS`` and ``demo_actions()`` for ``tabletape demo``."""
    picture: Any = None
    """``picture(rules, state) -> str | None``: the board as an inline SVG picture (map games;
    :mod:`tabletape.replay.board_picture`), None when the state has nothing to draw."""
    bgg_id: Fact | None = None
    """The game's BoardGameGeek id (``boardgamegeek.com/boardgame/<id>``) with its provenance
    mark and source; ``Fact(None, "NF", "where we looked")`` when it has none we know, None when
    nobody looked. ``export --bgg-id`` overrides it."""

    @property
    def names(self) -> tuple[str, ...]:
        """The name, then the aliases."""
        return (self.name, *self.aliases)

    def provides(self) -> tuple[str, ...]:
        """The optional parts this game ships, in :data:`PARTS` order."""
        return tuple(part for part in PARTS if getattr(self, part) is not None)

    def part(self, part: str) -> Any:
        """The part called ``part``, imported now if it is named by place; None if not shipped."""
        return load(getattr(self, part))


def load(where: Any) -> Any:
    """The object ``where`` names (``"module:attribute.path"`` or ``"module"``); any other value
    is the object itself. Raises ImportError or AttributeError when it is not there."""
    if not isinstance(where, str):
        return where
    module_name, _, attributes = where.partition(":")
    found: Any = importlib.import_module(module_name)
    for attribute in filter(None, attributes.split(".")):
        found = getattr(found, attribute)
    return found


class GameNotLoaded(UserWarning):
    """A game's declaration, rules or part could not be imported; the rest still works."""


def warn_not_loaded(what: str, error: BaseException) -> None:
    """Warn, in one line, that the game plug-in ``what`` is skipped and why."""
    warnings.warn(f"game plug-in {what} skipped: {type(error).__name__}: {error}",
                  GameNotLoaded, stacklevel=2)


@functools.cache
def discovered() -> dict[str, GameManifest]:
    """Every game declared in the ``tabletape.games`` entry point group, by name (scanned once
    per process: ``discovered.cache_clear()`` scans again; a broken declaration is skipped with a
    :class:`GameNotLoaded` warning)."""
    return {manifest.name: manifest for manifest in scan()}


def scan() -> Iterator[GameManifest]:
    """Load each entry point of :data:`ENTRY_POINT_GROUP`; yield those that are manifests."""
    for name, value in entry_points(ENTRY_POINT_GROUP):
        what = f"'{name}' ({value})"
        try:
            manifest = load(value)
        except Exception as error:  # a broken third-party game must not break the others
            warn_not_loaded(what, error)
            continue
        if not isinstance(manifest, GameManifest):
            warn_not_loaded(what, TypeError(f"{type(manifest).__name__} is not a GameManifest"))
            continue
        yield manifest


def entry_points(group: str) -> Iterator[tuple[str, str]]:
    """``(name, "module:attribute")`` of each entry point in ``group`` of the distributions
    installed on ``sys.path``, the first of each distribution's name only, as
    ``importlib.metadata.entry_points(group=group)`` finds them (a test holds the two together),
    without importing ``importlib.metadata`` and its e-mail parser: every ``tabletape`` command
    starts here, ``record`` included."""
    seen: set[str] = set()
    for folder in sys.path:
        try:
            entries = sorted(os.listdir(folder or "."))
        except OSError:  # a zip file, a folder that is gone
            continue
        for entry in entries:
            stem, dot, suffix = entry.rpartition(".")
            if suffix not in ("dist-info", "egg-info") or not dot:
                continue
            distribution = re.sub(r"[-_.]+", "-", stem.partition("-")[0]).lower()
            if distribution in seen:
                continue
            seen.add(distribution)
            yield from entry_point_section(os.path.join(folder or ".", entry), group)


def entry_point_section(metadata: str, group: str) -> Iterator[tuple[str, str]]:
    r"""The ``name = value`` lines of section ``[group]`` of ``entry_points.txt`` in the
    ``metadata`` folder (none when it has no such file).

    >>> import tempfile, pathlib
    >>> folder = tempfile.mkdtemp()
    >>> _ = (pathlib.Path(folder) / "entry_points.txt").write_text(
    ...     "[console_scripts]\nx = a:b\n\n[tabletape.games]\n# ours\npebbles = pebbles:MANIFEST\n")
    >>> list(entry_point_section(folder, "tabletape.games"))
    [('pebbles', 'pebbles:MANIFEST')]
    """
    try:
        with open(os.path.join(metadata, "entry_points.txt"), encoding="utf-8") as file:
            lines = file.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return
    section = ""
    for line in (line.strip() for line in lines):
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group and "=" in line and not line.startswith(("#", ";")):
            name, _, value = line.partition("=")
            yield name.strip(), value.partition("[")[0].strip()


def one_line_warnings(show: Callable[..., None]) -> Callable[..., None]:
    """Wrap ``warnings.showwarning`` so a :class:`GameNotLoaded` prints as one line on stderr."""

    def showwarning(message: Warning | str, category: type[Warning], *args: Any,
                    **kwargs: Any) -> None:
        if issubclass(category, GameNotLoaded):
            sys.stderr.write(f"tabletape: warning: {message}\n")
            return
        show(message, category, *args, **kwargs)

    return showwarning
