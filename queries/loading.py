"""Loading logs into the catalog: each verified and folded, in chunks, in worker processes
when there is much to do; the rows of a chunk replace its games' rows in one transaction.

Each log is read through the ledger's snapshot (:meth:`tabletape.ledger.Ledger.verified`): a log
that grew since a sound load is checked from the head the catalog loaded, any other whole. A log
that fails verification, does not fold, or no longer holds the loaded head is left out, with why.
Rows go in bulk: the fold writes one columnar JSON file per table and chunk (``events`` rows
too, from the records it verified and folded: the logs are parsed once). Fold workers turn their
files into Parquet with a DuckDB of their own, so the process loading the catalog only appends
Parquet (its share of the work stays small and two workers scale); a sync in one process reads
the JSON files directly. Workers are forked before the catalog opens (:func:`fold_pool`): a process
is never forked while it holds an open DuckDB.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import msgspec

from tabletape.ledger import Head, Ledger, LedgerError, LogFile, Rewritten, Snapshot
from tabletape.ledger.codec import Record
from tabletape.ledger.events import Drawn
from tabletape.queries.database import (
    STAMP,
    CatalogError,
    columnar_sql,
    delete_games,
    insert_file,
    sql_string,
    to_parquet,
    transaction,
)
from tabletape.queries.projections import Schema, fingerprint, projections_for, quote
from tabletape.queries.rows import Columns, Folded, project
from tabletape.queries.schema import EVENTS, POSITIONS, SYNC, Column
from tabletape.rules.kernel import Rules, RulesError
from tabletape.rules.registry import find_game

CHUNK_BYTES = 32_000_000
"""Logs are folded and loaded in chunks of about this many bytes (one transaction each)."""
PARALLEL_BYTES = 8_000_000
"""More log bytes than this to load: fold in several processes."""
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
    left_out: str | None = None
    """Why a log with a ``problem`` is left out, when counted: ``rewritten``, ``vanished``,
    ``duplicate``."""
    uid: str | None = None
    """The identity its ``game-started`` stores, once its log verified (None for a log from
    before identities: its derived one is only as distinct as its first line, so such a log is
    remembered by its id alone)."""

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


EVENT_ROWS = Schema("_event_rows", (
    *POSITIONS.columns[:4], Column("actor", "VARCHAR"), Column("type", "VARCHAR"),
    Column("recorded_at", "VARCHAR"), *POSITIONS.columns[4:], Column("payload", "VARCHAR"),
    Column("drawn", "VARCHAR"), Column("prev", "VARCHAR"), Column("hash", "VARCHAR"),
), "The ``events`` rows of a chunk as the fold writes them (time and payload as text).")
"""The fold's positions of each event joined with its verified record (never stored)."""


def events_sql(source: str) -> str:
    """A SELECT of ``events`` rows, in the stored table's order, from ``EVENT_ROWS`` rows."""
    names = [c.name for c in EVENTS.all_columns()]
    typed = {"recorded_at": f"strptime(recorded_at, '{STAMP}')", "payload": "payload::JSON",
             "drawn": "drawn::JSON"}
    return ("SELECT " + ", ".join(f"{typed.get(n, quote(n))} AS {quote(n)}" for n in names)
            + f" FROM ({source})")


class ChunkTask(msgspec.Struct):
    """Logs folded together by one worker; their rows go to files in ``scratch`` (as Parquet
    when ``parquet``)."""

    root: str
    logs: list[tuple[LogFile, Loaded | None]]
    scratch: str
    index: int
    parquet: bool = False


class ChunkResult(msgspec.Struct):
    """What folding a chunk produced: one columnar JSON file per table, and what happened."""

    files: dict[str, tuple[Schema, str]]
    """Table -> its schema and rows file (``events``: ready to append, any column order
    fixed by :func:`events_sql`)."""
    paths: list[str]
    """Log files that folded."""
    games: list[str]
    """Games of the chunk the catalog held rows of (those rows are replaced); a new game has
    none (``plan`` gave it no ``_sync`` row, and every load writes one with the rows)."""
    problems: dict[str, str]
    changes: dict[str, int]
    events: int
    size: int
    folded: dict[str, str] = {}
    """Game -> the change it was loaded as (``new``, ``grew``...), for each log that folded: a
    sync that then leaves one out (a duplicate, a vanished head) no longer counts it."""


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


class FoldPool(NamedTuple):
    """Fold worker processes, already forked."""

    executor: ProcessPoolExecutor
    workers: int


@contextmanager
def fold_pool(workers: int) -> Iterator[FoldPool | None]:
    """``workers`` fold processes, forked now (call it before opening the catalog: a process
    holding an open DuckDB must not fork); None for one worker or where fork is unavailable."""
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        yield None
        return
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context) as executor:
        for started in [executor.submit(int) for _ in range(workers)]:  # fork them all now
            started.result()
        yield FoldPool(executor, workers)


def folded_chunks(tasks: list[ChunkTask], pool: FoldPool | None) -> Iterator[ChunkResult]:
    """Fold the tasks, in ``pool``'s processes if given (results in task order)."""
    if pool is None or len(tasks) <= 1:
        yield from map(fold_chunk, tasks)
        return
    for task in tasks:
        task.parquet = True
    yield from pool.executor.map(fold_chunk, tasks)


def load_logs(con: duckdb.DuckDBPyConnection, ledger: Ledger,
              todo: Sequence[tuple[LogFile, Loaded | None]], progress: Progress | None,
              pool: FoldPool | None) -> Iterator[ChunkResult]:
    """Fold the logs in ``todo`` (in ``pool`` if given) and replace their rows, one transaction
    per chunk; yield what each chunk did once it is loaded."""
    if not todo:
        return
    total = sum(log.size for log, _ in todo)
    count = 1 if pool is None else pool.workers
    size = CHUNK_BYTES if count == 1 else max(1, min(CHUNK_BYTES, total // (count * 3)))
    done = 0
    with tempfile.TemporaryDirectory(prefix="tabletape-sync-") as scratch:
        tasks = chunks(todo, ledger.root, scratch, size)
        # One checkpoint when the connection closes, not one per chunk: each commit stays
        # durable in the write-ahead log meanwhile, and an automatic checkpoint after every
        # chunk rewrote the tables' open row groups again and again.
        con.execute(f"SET checkpoint_threshold = '{LOAD_CHECKPOINT}'")
        for result in folded_chunks(tasks, pool):
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
            folded, row, records = fold_log_records(ledger, log, before, prints)
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
            result.folded[log.game] = change
            for schema, rows in folded.rows.values():
                if schema.table == POSITIONS.table:
                    schema, rows = EVENT_ROWS, event_columns(rows, records)
                add_columns(columns, schema, log.game, rows)
        add_columns(columns, SYNC, "", [row[1:] for row in sync_rows], [r[0] for r in sync_rows])
        result.files = write_tables(columns, Path(task.scratch), task.index, task.parquet)
    return result


def event_columns(positions: Sequence[tuple[Any, ...]] | Columns, records: Sequence[Record]
                  ) -> Columns:
    """The ``EVENT_ROWS`` columns of one game: the fold's ``positions`` with their records."""
    seqs, turns, rounds, phases, retracted, effective = (
        positions if isinstance(positions, Columns) else zip(*positions, strict=True))
    first = records[0].seq
    chosen = [records[seq - first] for seq in seqs]
    return Columns((
        list(seqs), list(turns), list(rounds), list(phases),
        [r.actor for r in chosen], [r.type for r in chosen], [r.at for r in chosen],
        list(retracted), list(effective), [bytes(r.payload).decode() for r in chosen],
        [drawn_text(r.drawn) for r in chosen], [r.prev for r in chosen], [r.hash for r in chosen],
    ))


def drawn_text(drawn: Drawn | None) -> str | None:
    """A record's ``drawn`` mark as the catalog's JSON text (None: the table entered it all).

    >>> drawn_text(Drawn(roll=3, filled=("attacker",))), drawn_text(None)
    ('{"roll":3,"filled":["attacker"]}', None)
    """
    return None if drawn is None else msgspec.json.encode(drawn).decode()


def write_tables(columns: dict[str, tuple[Schema, list[list[Any]]]], scratch: Path, index: int,
                 parquet: bool) -> dict[str, tuple[Schema, str]]:
    """Write each table's columns as one columnar JSON file, turned into Parquet (``events``
    rows typed as stored) when ``parquet``; table -> (schema, file)."""
    files: dict[str, tuple[Schema, str]] = {}
    for table, (schema, data) in columns.items():
        target = scratch / f"{index}-{table}.json"
        names = [c.name for c in schema.all_columns()]
        target.write_bytes(msgspec.json.encode(dict(zip(names, data, strict=True))))
        files[table] = (schema, str(target))
    if parquet:
        with duckdb.connect(config={"threads": 1}) as con:  # its own, in memory; the others
            # cores fold (or load)
            for table, (schema, path) in files.items():
                source = Path(path)
                to_parquet(con, kept_wide(schema, rows_sql(schema, source), "VARCHAR"),
                           source.with_suffix(".parquet"))
                source.unlink()
                files[table] = (schema, str(source.with_suffix(".parquet")))
    return files


def rows_sql(schema: Schema, path: Path) -> str:
    """A SELECT of a rows file's rows (``events`` rows typed and ordered as stored)."""
    if path.suffix == ".parquet":
        return kept_wide(schema, f"SELECT * FROM read_parquet({sql_string(str(path))})")
    source = columnar_sql(schema, path)
    return events_sql(source) if schema.table == EVENT_ROWS.table else source


WIDE_INTEGERS = ("HUGEINT", "UHUGEINT")
"""128-bit integer types: Parquet has none, and DuckDB writes them as DOUBLE, which rounds (a
seed like 3564903716152661335 came back as ...504). The workers' Parquet keeps them as text."""


def kept_wide(schema: Schema, rows: str, as_type: str | None = None) -> str:
    """``rows`` with ``schema``'s 128-bit integer columns cast to ``as_type`` (default: their
    own type), the rest as they are; ``rows`` itself when there are none.

    >>> from tabletape.queries.schema import GAMES
    >>> kept_wide(GAMES, "SELECT * FROM t", "VARCHAR")
    'SELECT * REPLACE (CAST(seed AS VARCHAR) AS seed) FROM (SELECT * FROM t)'
    """
    wide = [c for c in schema.all_columns() if c.type in WIDE_INTEGERS]
    if not wide:
        return rows
    casts = ", ".join(f"CAST({quote(c.name)} AS {as_type or c.type}) AS {quote(c.name)}"
                      for c in wide)
    return f"SELECT * REPLACE ({casts}) FROM ({rows})"


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
    folded, row, _ = fold_log_records(ledger, log, before, prints)
    return folded, row


def fold_log_records(ledger: Ledger, log: LogFile, before: Loaded | None, prints: dict[str, str]
                     ) -> tuple[Folded | LeftOut, tuple[Any, ...], Sequence[Record]]:
    """:func:`fold_log`, and the verified records it folded (none when left out)."""
    records: Sequence[Record] = ()
    kind, trusted = "?", before.head() if before is not None else None
    uid = before.uid if before is not None else None
    head_seq, head_hash = (trusted.seq, trusted.hash) if trusted else (0, "")
    outcome: Folded | LeftOut
    try:
        snapshot = verified_snapshot(ledger, log, before)
        started = msgspec.json.decode(snapshot.records[0].payload)
        kind = str(started.get("kind", "?"))
        uid = str(started.get("uid") or "") or None
        rules: Rules[Any] = find_game(kind)
        outcome = project(log.game, snapshot.records, projections_for(rules))
        records = snapshot.records
        outcome.change = change_of(log, before)
        head_seq, head_hash = snapshot.head.seq, snapshot.head.hash
    except Rewritten as error:
        outcome = LeftOut(f"{error}; `tabletape sync --rebuild` loads the logs as they are now, "
                          "if that is what they should be", "rewritten")
    except (LedgerError, RulesError, msgspec.DecodeError) as error:
        outcome = LeftOut(str(error))
    except Exception as error:  # a rules or projection bug must not stop the whole sync
        outcome = LeftOut(f"the fold failed: {type(error).__name__}: {error}")
    problem, left_out = ((outcome.why, outcome.change or None) if isinstance(outcome, LeftOut)
                         else (None, None))
    fingerprint_ = kind_fingerprint(kind, prints) if kind != "?" else "?"
    return outcome, (log.game, kind, log.size, log.mtime_ns, head_seq, head_hash, fingerprint_,
                     problem, left_out, uid), records


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
        for schema, path in result.files.values():
            events = schema.table == EVENT_ROWS.table
            if not events:
                con.execute(schema.ddl())
            target = EVENTS if events else schema
            insert_file(con, target, rows_sql(schema, Path(path)))
