"""The registry that finds games by name: manifests discovered through the ``tabletape.games``
entry points or registered in code (:func:`register`), and each game's Rules object, imported
and instantiated once (:func:`rules_of`)::

    rules = find_game("strike")        # aliases and unique prefixes work
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

from tabletape.rules.kernel import Rules, UnknownGame, unknown_name_message
from tabletape.rules.manifest import GameManifest, discovered, load, warn_not_loaded

REGISTERED: dict[str, GameManifest] = {}
"""Games registered in code (tests, notebooks) by name; they win over installed ones."""

R = TypeVar("R", bound="Rules[Any] | GameManifest")

_RULES: dict[str, tuple[Any, Rules[Any]]] = {}
"""The Rules object of each game loaded so far, by name, with the manifest's ``rules`` it was
loaded from (one per game per process, unless the manifest's ``rules`` changes)."""


def register(game: R, **parts: Any) -> R:
    """Register a game in code: a :class:`GameManifest`, or a :class:`Rules` object whose names
    make its manifest; ``parts`` (``view=``, ``projections=``, ...) are given as objects or places.
    Installed games need none of this: their manifest is found through their entry point."""
    if isinstance(game, Rules):
        manifest = rules_manifest(game, **parts)
    else:
        manifest = dataclasses.replace(game, **parts)
    REGISTERED[manifest.name] = manifest
    return game


def rules_manifest(rules: Rules[Any], **parts: Any) -> GameManifest:
    """The manifest of a game made in code from its Rules object (names from its attributes)."""
    return GameManifest(name=rules.name, title=rules.title, aliases=rules.aliases,
                        short=rules.short, rules=rules, **parts)


def manifests() -> dict[str, GameManifest]:
    """Every game's manifest by name: installed (entry points) and registered in code."""
    return {**discovered(), **REGISTERED}


def manifest_of(kind: str) -> GameManifest | None:
    """The manifest of the game called exactly ``kind``, or None."""
    return REGISTERED.get(kind) or discovered().get(kind)


def registered() -> tuple[Rules[Any], ...]:
    """Every game's rules, by name; a game whose rules cannot be imported is skipped with a
    :class:`~tabletape.rules.manifest.GameNotLoaded` warning (the others still work)."""
    found = []
    for name, manifest in sorted(manifests().items()):
        try:
            found.append(rules_of(manifest))
        except Exception as error:
            warn_not_loaded(f"'{name}' ({manifest.rules})", error)
    return tuple(found)


def find_game(name: str) -> Rules[Any]:
    """The game kind called ``name``: its registry name, an alias, or a unique prefix of either.

    Only the game found is imported, so recording one game never pays for the others. Raises
    :class:`UnknownGame` with the known kinds (and a "did you mean").
    """
    manifest = find_manifest(name)
    try:
        return rules_of(manifest)
    except (ImportError, AttributeError, TypeError) as error:
        raise UnknownGame(f"game kind '{manifest.name}' is known but its rules cannot be "
                          f"loaded ({type(error).__name__}: {error})") from None


def find_manifest(name: str) -> GameManifest:
    """The manifest :func:`find_game` finds for ``name`` (nothing of the game is imported)."""
    wanted = name.strip().casefold().replace("_", "-").replace(" ", "-")
    every = manifests()
    names = {alias: manifest.name for manifest in every.values() for alias in manifest.names}
    exact = names.get(wanted)
    prefixed = {kind for key, kind in names.items() if key.startswith(wanted)} if wanted else set()
    kind = exact or (prefixed.pop() if len(prefixed) == 1 else None)
    if kind is None:
        raise UnknownGame(unknown_name_message("game kind", name, sorted(every)))
    return every[kind]


def rules_of(manifest: GameManifest) -> Rules[Any]:
    """The Rules object of ``manifest`` (imported and, for a class, instantiated once)."""
    cached = _RULES.get(manifest.name)
    if cached is not None and cached[0] == manifest.rules:
        return cached[1]
    rules = load(manifest.rules)
    rules = rules() if isinstance(rules, type) else rules
    if not isinstance(rules, Rules) or rules.name != manifest.name:
        raise TypeError(f"{manifest.rules!r} is not the Rules of '{manifest.name}'")
    _RULES[manifest.name] = (manifest.rules, rules)
    return rules


def lazy_rules(manifest: GameManifest, package: str) -> Callable[[str], Any]:
    """The ``__getattr__`` of a game package whose ``__init__`` holds only its manifest:
    ``RULES`` (the game's Rules object, as the registry loads it) and the Rules class (the last
    name of the manifest's ``rules``, e.g. ``RiskStrike``) are imported on first use.

    >>> attribute = lazy_rules(GameManifest(name="x", title="X", rules="os.path:join"), "x")
    >>> attribute("join") is __import__("os").path.join
    True
    """
    class_name = str(manifest.rules).rpartition(":")[2].rpartition(".")[2]

    def attribute(name: str) -> Any:
        if name == "RULES":
            return rules_of(manifest)
        if name == class_name:
            return load(manifest.rules)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return attribute
