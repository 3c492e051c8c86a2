"""Queries: a DuckDB catalog of every game in a ledger, SQL on it, and canned statistics.

For notebooks::

    from tabletape import queries
    con = queries.connect(ledger="~/games")     # synced, read-only, every table and view
    con.sql("SELECT * FROM games").df()         # .df() needs pandas, .pl() polars

duckdb is imported on first use only, so the recording commands never load it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["connect", "records_from_catalog", "sync"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from tabletape.queries import catalog

        return getattr(catalog, name)
    raise AttributeError(f"module 'tabletape.queries' has no attribute {name!r}")
