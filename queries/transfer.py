"""Exporting the catalog to other engines (Parquet); moving logs is
:mod:`tabletape.ledger.transfer`'s job.

The log import and export that the ``import`` and ``export --jsonl`` commands run write to and
read from the ledger, so they live in the ledger package (queries never write to a ledger); they
are re-exported here for the commands.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import msgspec

from tabletape.ledger.codec import Record
from tabletape.ledger.transfer import (
    ImportBatch,
    Imported,
    TransferError,
    export_log,
    find_same_game,
    find_same_uid,
    import_log,
    verify_log_bytes,
)
from tabletape.queries.projections import quote

__all__ = [
    "ImportBatch",
    "Imported",
    "TransferError",
    "export_log",
    "export_parquet",
    "find_same_game",
    "find_same_uid",
    "game_log_problem",
    "import_log",
    "inside_ledger",
    "verify_log_bytes",
]


def game_log_problem(game: str, records: list[Record]) -> str:
    """Why a verified log is not a game this install replays (kind, events, rules), or ``""``.

    The log is folded with every event checked, as ``status`` folds it; a log from elsewhere is
    untrusted input, so whatever its first event makes the rules raise is a refusal too.
    """
    from tabletape.ledger.events import GameStarted
    from tabletape.replay.fold import RefusedEvent, fold_records
    from tabletape.rules.kernel import RulesError, find_game

    try:
        started = msgspec.json.decode(records[0].payload, type=GameStarted)
        find_game(started.kind).options(started.options, started.players)
        fold_records(game, records, check=True)
    except RefusedEvent as error:
        return f"event {error.seq} is refused by the rules: {error.reason}"
    except RulesError as error:
        return str(error)
    except Exception as error:  # untrusted options or events the rules cannot start from
        return f"its events do not replay ({type(error).__name__}: {error})"
    return ""


def inside_ledger(path: Path, root: Path) -> bool:
    """True when writing or replacing ``path`` could touch the ledger ``root``: ``path`` is the
    ledger, lies inside it, or holds it (links followed).

    >>> inside_ledger(Path("/l/games/x.jsonl"), Path("/l")), inside_ledger(Path("/x"), Path("/l"))
    (True, False)
    """
    target, ledger = path.resolve(), root.resolve()
    return target == ledger or ledger in target.parents or target in ledger.parents


def export_parquet(con: duckdb.DuckDBPyConnection, directory: Path,
                   ledger_root: Path | None = None) -> dict[str, int]:
    """Every catalog table as Parquet under ``directory/<table>/kind=<kind>/``; rows per table.

    Columns are written in types that read back exactly everywhere (:func:`portable`). Each
    table's folder is replaced; never one that is, lies in, or holds ``ledger_root``.
    """
    if ledger_root is not None and inside_ledger(directory, ledger_root):
        raise TransferError(f"{directory} is inside the ledger {ledger_root}: export to a "
                            "folder outside it")
    directory.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for table in public_tables(con):
        columns = con.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = "
            "'main' AND table_name = ? ORDER BY ordinal_position", [table]).fetchall()
        names = [name for name, _ in columns]
        source = (f"SELECT * FROM {quote(table)}" if "kind" in names else
                  f"SELECT t.*, g.kind FROM {quote(table)} t JOIN games g USING (game)")
        select = f"SELECT {portable(columns)}{'' if 'kind' in names else ', kind'} FROM ({source})"
        counts[table] = con.execute(f"SELECT count(*) FROM ({source})").fetchone()[0]  # type: ignore[index]
        target = directory / table
        if ledger_root is not None and inside_ledger(target, ledger_root):
            raise TransferError(f"{target} would replace the ledger {ledger_root}: export to "
                                "another folder")
        if target.exists():
            shutil.rmtree(target)
        con.execute(f"COPY ({select}) TO '{sql_path(target)}' "
                    "(FORMAT PARQUET, PARTITION_BY (kind))")
    return counts


def portable(columns: list[tuple[str, str]]) -> str:
    """Select expressions for ``(name, DuckDB type)`` columns, in types Parquet keeps exactly.

    * ``HUGEINT`` (the catalog's ``seed``) as ``BIGINT``: Parquet has no 128-bit integer, and
      DuckDB writes HUGEINT as DOUBLE, which rounds a seed like 4037046547977563902. Every seed
      tabletape draws or accepts is in 0..2**63-1 (``new --seed`` refuses others), so BIGINT
      holds each exactly; a seed outside it (a hand-made log) fails the export, never rounds.
    * ``TIMESTAMP`` (UTC by the ledger's convention) as a UTC instant (``TIMESTAMPTZ``), so
      readers in any time zone see the same moment; ``timezone('UTC', …)`` does not depend on
      the session's ``TimeZone``.

    >>> portable([("seed", "HUGEINT"), ("started", "TIMESTAMP"), ("game", "VARCHAR")])
    "CAST(seed AS BIGINT) AS seed, timezone('UTC', started) AS started, game"
    """
    expressions = []
    for name, type_ in columns:
        column = quote(name)
        if type_ == "HUGEINT":
            expressions.append(f"CAST({column} AS BIGINT) AS {column}")
        elif type_ == "TIMESTAMP":
            expressions.append(f"timezone('UTC', {column}) AS {column}")
        else:
            expressions.append(column)
    return ", ".join(expressions)


def public_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The catalog's tables people query: the view over each stored ``all_`` table (what
    ``sql`` shows, simulated games left out unless ``include_simulated`` is set)."""
    return [row[0] for row in con.execute(
        "SELECT v.table_name FROM information_schema.tables v JOIN information_schema.tables t "
        "ON t.table_schema = 'main' AND t.table_type = 'BASE TABLE' "
        "AND t.table_name = 'all_' || v.table_name "
        "WHERE v.table_schema = 'main' AND v.table_type = 'VIEW' ORDER BY v.table_name"
    ).fetchall()]


def sql_path(path: Path) -> str:
    return str(path).replace("'", "''")
