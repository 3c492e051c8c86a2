"""Pebbles, a game shipped outside tabletape: its one declaration (read without its rules)."""

from tabletape.rules.manifest import GameManifest

MANIFEST = GameManifest(
    name="pebbles", title="Pebbles", aliases=("pb",), short="pb",
    rules="pebbles.rules:Pebbles",
    view="pebbles.show:view",
    narrate="pebbles.show:narrate",
    setup_notes="pebbles.show:setup_notes",
    conservation="pebbles.show:conservation",
    dice="pebbles.show:dice",
    projections="pebbles.catalog:projections",
    demo="pebbles.demo",
)
