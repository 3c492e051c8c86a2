"""Per-game plug-ins of replay: how each game looks and how its events are told.

A game kind ``risk-strike`` may ship ``replay/games/risk_strike.py`` defining any of::

    def view(rules: Rules, state: S) -> rich.console.RenderableType: ...
    def narrate(visit: tabletape.replay.visitor.Visit) -> list[str]: ...
    def setup_notes(rules: Rules, state: S) -> rich.console.RenderableType: ...

``view`` draws a state (status, replay); ``narrate`` tells one stored event in table words,
including what the fold derived from it (compare ``visit.before`` and ``visit.after``);
``setup_notes`` is what ``new`` prints after starting a game, from its start state (what is a
reconstruction or a default). Games without a plug-in get a table of their figures and a
generic narrator.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


def module_name(kind: str) -> str:
    """The Python module name of a game kind: ``risk-strike`` -> ``risk_strike``."""
    return kind.replace("-", "_")


def import_optional(name: str) -> ModuleType | None:
    """The module ``name``, or None when it does not exist (errors inside it still raise)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and name.startswith(error.name):
            return None
        raise


def plugin_function(kind: str, function: str) -> Any | None:
    """The plug-in's ``function`` for ``kind`` (``view``, ``narrate``, ``setup_notes``), or
    None."""
    module = import_optional(f"{__name__}.{module_name(kind)}")
    return getattr(module, function, None) if module is not None else None
