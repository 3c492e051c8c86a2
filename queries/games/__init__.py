"""Per-game projections: ``queries/games/<module>.py`` (kind with "-" as "_") for each game.

Each module exposes ``projections() -> list[tabletape.queries.projections.Projection]`` returning
fresh
instances; see :mod:`tabletape.queries.projections`.
"""
