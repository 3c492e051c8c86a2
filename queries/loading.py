"""Loading logs into the catalog: each verified and folded, in chunks, in worker processes
when there is much to do; the rows of a chunk replace its games' rows in one transaction.

Each log is read through the ledger's snapshot (:meth:`tabletape.ledger.Ledger.verified`): a log
that grew since a sound load is checked from the head the catalog loaded, any other whole. A log
that fails verification, does not fold, or no longer holds the loaded head is left out, with why.
Rows go in bulk: the ``events`` table straight from the log files with DuckDB's ``read_json``,
fold-derived rows through one columnar JSON file per table and chunk, read the same way.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import msgspec

from tabletape.ledger import Head, Ledger, LedgerError, LogFile, Rewritten, Snapshot
from tabletape.queries.database import (
    STAMP,
    CatalogError,
    columnar_sql,
    delete_games,
    insert_file,
    sql_string,
    transaction,
)
from tabletape.queries.projections import Schema, fingerprint, projections_for
from tabletape.queries.rows import Columns, Folded, project
from tabletape.queries.schema import LOG_COLUMNS, POSITIONS, SYNC
from tabletape.rules.kernel import Rules, RulesError, find_game

CHUNK_BYTES = 32_000_000
"""Logs are folded and loaded in chunks of about this many bytes (one transaction each)."""
PARALLEL_BYTES = 8_000_000
"""More log bytes than this to load: fold in several processes."""
FOLD_NICE = 5
"""How much lower the fold workers' CPU priority is than the process loading their rows: the
loader (DuckDB, then its checkpoint) is the one path every chunk goes through, and folds run
ahead of it, so on a machine with as many CPUs as workers it must not wait for a CPU."""
LOAD_CHECKPOINT = "4GB"
"""DuckDB's ``checkpoint_threshold`` while a sync loads (the write-ahead log may grow this big)."""


class Loaded(msgspec.Struct):
    """What the catalog last loaded of one log (a ``_sync`` row)."""

    kind: str
    size: int
    mtime_ns: int
    head_seq: int
    """The head the catalog verified and loaded (kept while the log is left out as a problem)."""
    head_hash: str
    fingerprint: str
    problem: str | None

    def head(self) -> Head | None:
        """The verified head, if the catalog ever loaded one."""
        return Head(self.head_seq, self.head_hash, "") if self.head_seq > 0 else None


Progress = Callable[[int, int], None]
"""Called as ``progress(done_bytes, total_bytes)`` while logs are loaded."""


def kind_fingerprint(kind: str, cache: dict[str, str]) -> str:
    """The projection fingerprint of ``kind`` ("?" when no such game is registered)."""
    if kind not in cache:
        try:
            cache[kind] = fingerprint(find_game(kind))
        except RulesError:
            cache[kind] = "?"
    return cache[kind]


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a fold builds many rows (they hold no cycles)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class ChunkTask(msgspec.Struct):
    """Logs folded together by one worker; their rows go to files in ``scratch``."""

    root: str
    logs: list[tuple[LogFile, Loaded | None]]
    scratch: str
    index: int


class ChunkResult(msgspec.Struct):
    """What folding a chunk produced: one columnar JSON file per table, and what happened."""

    files: dict[str, tuple[Schema, str]]
    paths: list[str]
    """Log files that folded (their events are read from them)."""
    games: list[str]
    """Games of the chunk the catalog held rows of (those rows are replaced); a new game has
    none (``plan`` gave it no ``_sync`` row, and every load writes one with the rows)."""
    problems: dict[str, str]
    changes: dict[str, int]
    events: int
    size: int


def chunks(logs: Sequence[tuple[LogFile, Loaded | None]], root: Path, scratch: str,
           size: int) -> list[ChunkTask]:
    """Split ``logs`` into tasks of about ``size`` bytes of log."""
    tasks: list[ChunkTask] = []
    current: list[tuple[LogFile, Loaded | None]] = []
    weight = 0
    for item in logs:
        current.append(item)
        weight += item[0].size
        if weight >= size:
            tasks.append(ChunkTask(str(root), current, scratch, len(tasks)))
            current, weight = [], 0
    if current:
        tasks.append(ChunkTask(str(root), current, scratch, len(tasks)))
    return tasks


def worker_count(total_bytes: int, workers: int | None) -> int:
    if workers is not None:
        return max(1, workers)
    configured = os.environ.get("TABLETAPE_SYNC_WORKERS")
    if configured:
        return max(1, int(configured))
    if total_bytes < PARALLEL_BYTES or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(4, os.cpu_count() or 1))


def folded_chunks(tasks: list[ChunkTask], workers: int) -> Iterator[ChunkResult]:
    """Fold the tasks, in worker processes when ``workers`` > 1 (results in task order)."""
    if workers <= 1 or len(tasks) <= 1:
        yield from map(fold_chunk, tasks)
        return
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(min(workers, len(tasks)), mp_context=context,
                             initializer=lower_priority, initargs=(FOLD_NICE,)) as pool:
        yield from pool.map(fold_chunk, tasks)


def lower_priority(steps: int) -> None:
    """Lower this process's CPU priority by ``steps`` (where the platform can)."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(steps)


def load_logs(con: duckdb.DuckDBPyConnection, ledger: Ledger,
              todo: Sequence[tuple[LogFile, Loaded | None]], progress: Progress | None,
              workers: int | None) -> Iterator[ChunkResult]:
    """Fold the logs in ``todo`` and replace their rows, one transaction per chunk; yield what
    each chunk did once it is loaded."""
    if not todo:
        return
    total = sum(log.size for log, _ in todo)
    count = worker_count(total, workers)
    size = CHUNK_BYTES if count == 1 else max(1, min(CHUNK_BYTES, total // (count * 3)))
    done = 0
    with tempfile.TemporaryDirectory(prefix="tabletape-sync-") as scratch:
        tasks = chunks(todo, ledger.root, scratch, size)
        # One checkpoint when the connection closes, not one per chunk: each commit stays
        # durable in the write-ahead log meanwhile, and an automatic checkpoint after every
        # chunk rewrote the tables' open row groups again and again.
        con.execute(f"SET checkpoint_threshold = '{LOAD_CHECKPOINT}'")
        for result in folded_chunks(tasks, count):
            load_chunk(con, result)
            yield result
            done += result.size
            if progress:
                progress(done, total)


def fold_chunk(task: ChunkTask) -> ChunkResult:
    """Read and fold every log of ``task``; write each table's rows as one columnar file."""
    ledger = Ledger(task.root)
    prints: dict[str, str] = {}
    columns: dict[str, tuple[Schema, list[list[Any]]]] = {}
    result = ChunkResult({}, [], [], {}, {}, 0, 0)
    sync_rows: list[tuple[Any, ...]] = []
    with gc_paused():
        for log, before in task.logs:
            if before is not None:
                result.games.append(log.game)
            result.size += log.size
            folded, row = fold_log(ledger, log, before, prints)
            sync_rows.append(row)
            if isinstance(folded, LeftOut):
                result.problems[log.game] = folded.why
                if folded.change:
                    result.changes[folded.change] = result.changes.get(folded.change, 0) + 1
                continue
            result.paths.append(str(log.path))
            result.events += folded.events
            change = folded.change
            result.changes[change] = result.changes.get(change, 0) + 1
            for schema, rows in folded.rows.values():
                add_columns(columns, schema, log.game, rows)
        add_columns(columns, SYNC, "", [row[1:] for row in sync_rows], [r[0] for r in sync_rows])
        for table, (schema, data) in columns.items():
            target = Path(task.scratch) / f"{task.index}-{table}.json"
            names = [c.name for c in schema.all_columns()]
            target.write_bytes(msgspec.json.encode(dict(zip(names, data, strict=True))))
            result.files[table] = (schema, str(target))
    return result


def add_columns(columns: dict[str, tuple[Schema, list[list[Any]]]], schema: Schema, game: str,
                rows: Sequence[tuple[Any, ...]] | Columns, games: list[str] | None = None) -> None:
    """Append ``rows`` (or :class:`Columns`) of one game to the columns of ``schema``'s table."""
    if not rows:
        return
    width = len(schema.columns)
    if isinstance(rows, Columns):
        given, count = rows, len(rows[0])
    else:
        given, count = None, len(rows)
        if len(rows[0]) != width:
            raise CatalogError(f"a projection of table '{schema.table}' made a row of "
                               f"{len(rows[0])} values; its schema has {width} columns")
    stored = len(schema.all_columns())
    data = columns.setdefault(schema.table, (schema, [[] for _ in range(stored)]))[1]
    data[0].extend(games if games is not None else [game] * count)
    if schema.numbered:
        data[1].extend(range(1, count + 1))
    for index, column in enumerate(given if given is not None else zip(*rows, strict=True),
                                   start=stored - width):
        data[index].extend(column)


class LeftOut(msgspec.Struct):
    """Why a log is kept out of the catalog, and the change it counts as (if any)."""

    why: str
    change: str = ""


def fold_log(ledger: Ledger, log: LogFile, before: Loaded | None,
             prints: dict[str, str]) -> tuple[Folded | LeftOut, tuple[Any, ...]]:
    """One log verified and folded (or why it is left out), and its ``_sync`` row.

    The row of a log left out keeps the head the catalog verified before, so that a rewrite
    stays a problem whatever the log becomes later.
    """
    kind, trusted = "?", before.head() if before is not None else None
    head_seq, head_hash = (trusted.seq, trusted.hash) if trusted else (0, "")
    outcome: Folded | LeftOut
    try:
        snapshot = verified_snapshot(ledger, log, before)
        started = msgspec.json.decode(snapshot.records[0].payload)
        kind = str(started.get("kind", "?"))
        rules: Rules[Any] = find_game(kind)
        outcome = project(log.game, snapshot.records, projections_for(rules))
        outcome.change = change_of(log, before)
        head_seq, head_hash = snapshot.head.seq, snapshot.head.hash
    except Rewritten as error:
        outcome = LeftOut(f"{error}; `tabletape sync --rebuild` loads the logs as they are now, "
                          "if that is what they should be", "rewritten")
    except (LedgerError, RulesError, msgspec.DecodeError) as error:
        outcome = LeftOut(str(error))
    except Exception as error:  # a rules or projection bug must not stop the whole sync
        outcome = LeftOut(f"the fold failed: {type(error).__name__}: {error}")
    problem = outcome.why if isinstance(outcome, LeftOut) else None
    fingerprint_ = kind_fingerprint(kind, prints) if kind != "?" else "?"
    return outcome, (log.game, kind, log.size, log.mtime_ns, head_seq, head_hash, fingerprint_,
                     problem)


def verified_snapshot(ledger: Ledger, log: LogFile, before: Loaded | None) -> Snapshot:
    """The ledger's snapshot of a log that verifies and holds the head the catalog loaded.

    A log that grew since a sound load is checked from that head on (its new lines); any other
    log is checked whole. Raises :class:`tabletape.ledger.Rewritten` when the loaded head is gone.
    """
    trusted = before.head() if before is not None else None
    grew = trusted is not None and before.problem is None and log.size > before.size  # type: ignore[union-attr]
    return ledger.verified(log.game, holding=trusted, checked_after=grew)


def change_of(log: LogFile, before: Loaded | None) -> str:
    """``new``, ``recovered``, ``grew`` or ``reprojected``: why a verified log is loaded."""
    if before is None:
        return "new"
    if before.problem is not None:
        return "recovered"
    if before.size == log.size and before.mtime_ns == log.mtime_ns:
        return "reprojected"
    return "grew"


def load_chunk(con: duckdb.DuckDBPyConnection, result: ChunkResult) -> None:
    """Replace the rows of the chunk's games, in one transaction."""
    with transaction(con):
        delete_games(con, result.games)
        for table, (schema, path) in result.files.items():
            if table != POSITIONS.table:
                con.execute(schema.ddl())
                insert_file(con, schema, Path(path))
        if POSITIONS.table in result.files:
            insert_events(con, result.paths, Path(result.files[POSITIONS.table][1]))


def insert_events(con: duckdb.DuckDBPyConnection, paths: Sequence[str], positions: Path) -> None:
    """Load ``events`` from the log files themselves, joined with the fold's positions."""
    if not paths:
        return
    files = "[" + ", ".join(sql_string(p) for p in paths) + "]"
    con.execute(f"""
        INSERT INTO all_events
        WITH p AS ({columnar_sql(POSITIONS, positions)})
        SELECT p.game, p.seq, p.turn, p.round, p.phase, l.actor, l.type,
               strptime(l.at, '{STAMP}'), p.retracted, p.effective, l.payload, l.prev, l.hash
        FROM read_json({files}, format = 'newline_delimited', filename = true,
                       ignore_errors = true, columns = {LOG_COLUMNS}) AS l
        JOIN p ON p.game = parse_filename(l.filename, true) AND p.seq = l.seq
    """)
