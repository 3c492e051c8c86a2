"""The parts of a game that replay, audit and narration use, loaded from the game's manifest.

A manifest names its parts as ``"module:attribute"`` strings (:class:`GameManifest`), imported
only when asked for. The code that imports them sits in the layer that uses them: this module
for replay's parts, :func:`tabletape.queries.projections.plugin` for the catalog's projections,
and the rules registry only for a game's rules. A name imported this way is not visible to the
layer check (``.ci/layers``), so ``tests/replay/test_layers.py`` checks that every shipped
manifest's parts live in their layer (:data:`PART_LAYERS`).
"""

from __future__ import annotations

from typing import Any

from tabletape.rules.manifest import GameManifest, warn_not_loaded
from tabletape.rules.registry import manifest_of

PART_LAYERS = {
    "rules": "tabletape.rules", "demo": "tabletape.rules",
    "view": "tabletape.replay", "narrate": "tabletape.replay", "setup_notes": "tabletape.replay",
    "conservation": "tabletape.replay", "dice": "tabletape.replay", "picture": "tabletape.replay",
    "projections": "tabletape.queries",
}
"""The lowest layer that loads each part of a manifest, so the highest one its module may be in."""
REPLAY_PARTS = frozenset(part for part, layer in PART_LAYERS.items() if layer != "tabletape.queries"
                         and part != "rules")
"""The parts :func:`game_part` loads."""


def game_part(kind: str, part: str) -> Any:
    """Part ``part`` (``view``, ``narrate``, ``dice``, ``picture``...) of game ``kind``, as its
    manifest names it; None when the game ships none (or is not known), or when it cannot be
    imported (then with a :class:`~tabletape.rules.manifest.GameNotLoaded` warning: the game
    goes on without it).

    >>> game_part("risk-strike", "projections")
    Traceback (most recent call last):
    ...
    ValueError: replay loads no 'projections' part (tabletape.queries does)
    """
    if part not in REPLAY_PARTS:
        raise ValueError(f"replay loads no {part!r} part ({PART_LAYERS.get(part, 'nothing')} does)")
    manifest = manifest_of(kind)
    return None if manifest is None else loaded_part(manifest, part)


def loaded_part(manifest: GameManifest, part: str) -> Any:
    """``manifest``'s part ``part`` imported, or None with a one-line warning when it cannot be."""
    try:
        return manifest.part(part)
    except Exception as error:  # a broken plug-in module: the generic view, narrator... instead
        warn_not_loaded(f"'{manifest.name}' part {part} ({getattr(manifest, part)})", error)
        return None
