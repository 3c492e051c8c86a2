"""The catalog: ``catalog.duckdb`` in the ledger folder, built only from the logs.

Delete it and the next sync rebuilds it. This module is the catalog's public face: :func:`sync`
(:mod:`tabletape.queries.sync`) brings it up to date incrementally from verified logs only,
:func:`connect` gives a read-only connection to it, :func:`records_from_catalog` reads a game
back. The work lives in modules with one job each: :mod:`tabletape.queries.schema` (the tables),
:mod:`tabletape.queries.rows` (rows from the fold), :mod:`tabletape.queries.database` (the DuckDB
file), :mod:`tabletape.queries.sync` (what changed) and :mod:`tabletape.queries.loading` (folding
and loading logs).

>>> import tempfile
>>> from tabletape.ledger import Ledger
>>> report = sync(Ledger(tempfile.mkdtemp()))
>>> (report.loaded, report.events)
(0, 0)
"""

from __future__ import annotations

import os
import warnings

import duckdb
import msgspec

from tabletape.ledger import Ledger, Record
from tabletape.ledger.events import Drawn
from tabletape.queries.database import (
    CATALOG_FILE,
    STAMP,
    CatalogError,
    CatalogNotWritable,
    catalog_path,
    open_catalog,
    opened,
)
from tabletape.queries.schema import CATALOG_VERSION, INCLUDE_SIMULATED, LOG_COLUMNS
from tabletape.queries.sync import SyncReport, stored_problems, sync


def connect(ledger: Ledger | str | os.PathLike[str] | None = None, *,
            sync_first: bool = True,
            include_simulated: bool = False) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the ledger's catalog, synced first: every table and view.

    The views (``games``, ``battles``...) show games people recorded; with
    ``include_simulated`` simulated games too (the ``all_`` tables always hold every game).

    Games the catalog leaves out (their logs do not verify or do not fold) are named in a
    :class:`LeftOutWarning`; games whose logs are gone since a sync loaded them, in a
    :class:`GoneLogWarning`; a catalog of another version, rebuilt, in a
    :class:`CatalogRebuiltWarning`; a catalog that needed a sync it could not write (a
    read-only ledger), read as it is, in a :class:`StaleCatalogWarning`.
    """
    store = ledger if isinstance(ledger, Ledger) else Ledger(ledger)
    if sync_first:
        report = sync(store, stale_ok=True)
        if report.stale:
            warnings.warn(report.stale, StaleCatalogWarning, stacklevel=2)
        if report.outdated:
            warnings.warn(report.outdated, CatalogRebuiltWarning, stacklevel=2)
        problems = report.problems
        if problems:
            listed = "; ".join(f"{game}: {why}" for game, why in sorted(problems.items())[:10])
            warnings.warn(f"{len(problems)} game(s) left out of the catalog: {listed}",
                          LeftOutWarning, stacklevel=2)
        if report.gone:
            listed = "; ".join(why for _, why in sorted(report.gone.items())[:10])
            warnings.warn(f"{len(report.gone)} game(s) the catalog loaded before have no log "
                          f"now: {listed}", GoneLogWarning, stacklevel=2)
    con = open_catalog(catalog_path(store), read_only=True)
    if include_simulated:
        con.execute(f"SET VARIABLE {INCLUDE_SIMULATED} = true").fetchall()
    return con


class LeftOutWarning(UserWarning):
    """Some games are left out of the catalog; the message names them and why."""


class GoneLogWarning(UserWarning):
    """Logs the catalog loaded before are gone (deleted or moved out); the message names them."""


class StaleCatalogWarning(UserWarning):
    """The catalog could not be synced (a read-only ledger) and is read as of its last sync."""


class CatalogRebuiltWarning(UserWarning):
    """The catalog was made by another catalog version and was rebuilt from the logs."""


def drawn_column(con: duckdb.DuckDBPyConnection, table: str) -> str:
    """The ``drawn`` marks as text, or NULLs for tables written before catalog version 8 (an
    old Parquet export read back): their rolls then read as entered."""
    columns = {name for (name,) in con.execute(f"SELECT column_name FROM (DESCRIBE {table})"
                                               ).fetchall()}
    return "CAST(drawn AS VARCHAR)" if "drawn" in columns else "NULL"


def records_from_catalog(con: duckdb.DuckDBPyConnection, game: str) -> list[Record]:
    """The records of ``game`` rebuilt from its ``events`` rows (for games only in a catalog).

    The payload is the stored JSON, so ``tabletape.replay.fold.fold_records`` and
    ``tabletape.replay.visitor.walk``
    work on the result; raises :class:`CatalogError` when the catalog has no such game.
    """
    table = "all_events" if con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'all_events'"
    ).fetchall() != [(0,)] else "events"  # a catalog, or tables read back from its export
    rows = con.execute(
        f"SELECT seq, strftime(recorded_at, '{STAMP}'), actor, type, CAST(payload AS VARCHAR), "
        f"{drawn_column(con, table)}, prev, hash FROM {table} WHERE game = ? ORDER BY seq",
        [game]
    ).fetchall()
    if not rows:
        raise CatalogError(f"the catalog has no events of game '{game}'")
    return [Record(seq=seq, at=at, actor=actor, type=type_, payload=msgspec.Raw(payload.encode()),
                   drawn=msgspec.json.decode(drawn, type=Drawn) if drawn else None,
                   prev=prev, hash=hash_)
            for seq, at, actor, type_, payload, drawn, prev, hash_ in rows]


__all__ = [
    "CATALOG_FILE",
    "CATALOG_VERSION",
    "LOG_COLUMNS",
    "CatalogError",
    "CatalogNotWritable",
    "CatalogRebuiltWarning",
    "GoneLogWarning",
    "LeftOutWarning",
    "StaleCatalogWarning",
    "SyncReport",
    "catalog_path",
    "connect",
    "open_catalog",
    "opened",
    "records_from_catalog",
    "stored_problems",
    "sync",
]
