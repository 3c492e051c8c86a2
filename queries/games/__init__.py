"""Per-game projections of the shipped games: ``queries/games/<game>.py``, one per game.

Each module has ``projections() -> list[tabletape.queries.projections.Projection]`` returning
fresh instances, named by its game's manifest (``projections=``); see
:mod:`tabletape.queries.projections`.
"""
