"""Per-game plug-ins of replay: how each game looks and how its events are told.

A game's manifest (:class:`tabletape.rules.manifest.GameManifest`) may name any of these, which
the shipped games keep in ``replay/games/<game>.py``::

    def view(rules: Rules, state: S) -> rich.console.RenderableType: ...
    def narrate(visit: tabletape.replay.visitor.Visit) -> list[str]: ...
    def setup_notes(rules: Rules, state: S) -> rich.console.RenderableType: ...

``view`` draws a state (status, replay); ``narrate`` tells one stored event in table words,
including what the fold derived from it (compare ``visit.before`` and ``visit.after``);
``setup_notes`` is what ``new`` prints after starting a game, from its start state (what is a
reconstruction or a default). Games without them get a table of their figures and a
generic narrator. The audit hooks ``dice`` and ``conservation`` live here too (see
:mod:`tabletape.replay.audit`).
"""
