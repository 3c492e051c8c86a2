"""The catalog: ``catalog.duckdb`` in the ledger folder, built only from the logs.

Delete it and the next sync rebuilds it. :func:`sync` brings it up to date incrementally: a game
whose log file did not change (size, modification time, and the projections that read it) is left
alone; a game whose log grew or whose projections changed is folded again and its rows replaced.
Only verified logs are loaded: a log that grew is checked from the head the catalog loaded (its
new lines), any other changed log whole. A log that fails verification or does not fold, or no
longer holds the head the catalog loaded (rewritten or cut short), is kept out of the tables and
named in ``problems`` until it verifies again (a rewritten one until ``sync --rebuild``). The
catalog is opened for writing only when there is something to sync. Rows go in bulk: the
``events`` table straight from the log files with DuckDB's
``read_json``, fold-derived rows through a temporary JSON file read the same way.

>>> import tempfile
>>> from tabletape.ledger import Ledger
>>> report = sync(Ledger(tempfile.mkdtemp()))
>>> (report.loaded, report.events)
(0, 0)
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import msgspec

from tabletape.ledger import Head, Ledger, LedgerError, Record, Rewritten
from tabletape.ledger.errors import TabletapeError
from tabletape.queries.projections import (
    SHARED_SCHEMAS,
    Column,
    Projection,
    Schema,
    fingerprint,
    plugin,
    projections_for,
    quote,
    seconds_between,
)
from tabletape.replay.visitor import GameInfo, Visit, Visitor, walk
from tabletape.rules.kernel import Rules, RulesError, find_game, registered

CATALOG_FILE = "catalog.duckdb"
CATALOG_VERSION = "2"
"""Bump when the core tables change: catalogs of another version are rebuilt from scratch.

2: only verified logs are loaded (catalogs of version 1 may hold rows of changed logs).
"""

CHUNK_BYTES = 32_000_000
"""Logs are folded and loaded in chunks of about this many bytes (one transaction each)."""
PARALLEL_BYTES = 8_000_000
"""More log bytes than this to load: fold in several processes."""
LOAD_CHECKPOINT = "4GB"
"""DuckDB's ``checkpoint_threshold`` while a sync loads (the write-ahead log may grow this big)."""

STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"
"""The ledger's ``at`` format, for DuckDB's ``strptime``/``strftime``."""


class CatalogError(TabletapeError):
    """The catalog cannot be opened or built; the message is meant for people."""


# -- core tables ---------------------------------------------------------------------------------

GAMES = Schema("games", (
    Column("kind", "VARCHAR", "Game kind, e.g. ``risk-strike``."),
    Column("rules_version", "VARCHAR"),
    Column("tabletape_version", "VARCHAR"),
    Column("players", "VARCHAR[]", "Player names in seat order."),
    Column("options", "JSON", "Options in force."),
    Column("seed", "HUGEINT", "Seed of tabletape's dice."),
    Column("started", "TIMESTAMP", "When the game-started event was recorded (UTC)."),
    Column("updated", "TIMESTAMP", "When the latest event was recorded (UTC)."),
    Column("ended", "TIMESTAMP", "When the last effective event was recorded, if finished."),
    Column("finished", "BOOLEAN"),
    Column("winners", "VARCHAR[]"),
    Column("team", "VARCHAR", "Winning team or side, when the game has teams."),
    Column("reason", "VARCHAR", "Why the game ended, in table words."),
    Column("villain", "VARCHAR", "The villain, in games that have one."),
    Column("parent", "VARCHAR", "For a forked game: the game it was forked from."),
    Column("fork_seq", "BIGINT", "For a forked game: the parent's last seq repeated here."),
    Column("head_seq", "BIGINT", "Seq of the latest event (= number of events)."),
    Column("head_hash", "VARCHAR", "Hash of the latest event."),
    Column("events", "BIGINT", "Stored events, game-started, undo and notes included."),
    Column("actions", "BIGINT", "Effective events (what the fold applied)."),
    Column("retracted", "BIGINT", "Events retracted by undo."),
    Column("turns", "INTEGER", "Player turns played (turn >= 1)."),
    Column("rounds", "INTEGER", "Highest round reached."),
    Column("minutes", "DOUBLE", "From game-started to the latest effective event."),
), "One row per game.")

PLAYERS = Schema("players", (
    Column("seat", "INTEGER", "Seat from 1, in the game-started order."),
    Column("name", "VARCHAR"),
    Column("play_order", "INTEGER", "Order of the player's first turn (1: went first)."),
    Column("faction", "VARCHAR", "Faction, where the game has one."),
    Column("leader", "VARCHAR", "Leader, where the game has one."),
    Column("hero", "VARCHAR", "Hero, where the game has one."),
    Column("won", "BOOLEAN", "Among the winners (false while the game goes on)."),
), "One row per player per game.")

POSITIONS = Schema("_positions", (
    Column("seq", "BIGINT"),
    Column("turn", "INTEGER"),
    Column("round", "INTEGER"),
    Column("phase", "VARCHAR"),
    Column("retracted", "BOOLEAN"),
    Column("effective", "BOOLEAN"),
), "Where each event of the fold happened (joined into ``events``; not kept).")

EVENTS = Schema("events", (
    Column("seq", "BIGINT"),
    Column("turn", "INTEGER", "Turn when the event was recorded (turn info before it)."),
    Column("round", "INTEGER"),
    Column("phase", "VARCHAR"),
    Column("actor", "VARCHAR"),
    Column("type", "VARCHAR", "The event's tag, e.g. ``roll``."),
    Column("recorded_at", "TIMESTAMP", "The event's ``at`` (UTC)."),
    Column("retracted", "BOOLEAN", "Retracted by a later undo."),
    Column("effective", "BOOLEAN", "Applied by the fold (false for game-started, undo, note, "
                                    "retracted)."),
    Column("payload", "JSON", "The event's fields as stored."),
    Column("prev", "VARCHAR"),
    Column("hash", "VARCHAR"),
), "Every stored event of every game.")

SYNC = Schema("_sync", (
    Column("kind", "VARCHAR"),
    Column("size", "BIGINT"),
    Column("mtime_ns", "BIGINT"),
    Column("head_seq", "BIGINT"),
    Column("head_hash", "VARCHAR"),
    Column("fingerprint", "VARCHAR"),
    Column("problem", "VARCHAR"),
), "What the catalog last loaded of each log.")

CORE_SCHEMAS = (GAMES, PLAYERS, EVENTS)
"""Tables every catalog has, filled by the catalog itself."""

LOG_COLUMNS = ("{'seq': 'BIGINT', 'at': 'VARCHAR', 'actor': 'VARCHAR', 'type': 'VARCHAR', "
               "'payload': 'JSON', 'prev': 'VARCHAR', 'hash': 'VARCHAR'}")


class SyncReport(msgspec.Struct, kw_only=True):
    """What a sync did (``tabletape sync --json``)."""

    catalog: str
    games: int = 0
    """Games in the catalog afterwards."""
    loaded: int = 0
    """Games (re)loaded."""
    new: int = 0
    grew: int = 0
    rewritten: int = 0
    """Logs that no longer hold the head the catalog loaded (left out; named in ``problems``)."""
    recovered: int = 0
    """Logs left out before that verify and fold now (repaired or restored), loaded again."""
    reprojected: int = 0
    removed: int = 0
    unchanged: int = 0
    events: int = 0
    """Events loaded by this sync."""
    rebuilt: bool = False
    seconds: float = 0.0
    problems: dict[str, str] = {}
    """Every game left out of the catalog -> why (its log fails verification at a named event,
    was rewritten, is of an unknown kind, or does not fold); named by every sync."""


# -- folding one game ----------------------------------------------------------------------------


class GameRows(Visitor):
    """The ``games`` row, ``players`` rows and event positions of one game.

    It keeps the visits and makes its rows at the end of the game, in a few passes over them:
    during the walk, ``visit_event`` is the list's own ``append`` (no Python call per event).
    """

    def begin_game(self, info: GameInfo) -> None:
        self.info = info
        self.visits: list[Visit] = []
        self.visit_event = self.visits.append  # type: ignore[method-assign]

    def end_game(self, info: GameInfo, final_state: Any) -> None:
        visits = self.visits
        assert visits
        records = [visit.record for visit in visits]
        turns = [visit.turn for visit in visits]
        seqs = [record.seq for record in records]
        retracted = info.retracted
        effective = [visit.effective for visit in visits]
        self.positions = Columns((
            seqs, [turn.turn for turn in turns], [turn.round for turn in turns],
            [turn.phase for turn in turns],
            [seq in retracted for seq in seqs] if retracted else [False] * len(seqs), effective,
        ))
        acted = [visit for visit in visits if visit.effective]
        first_at = next((record.at for record in records if record.at), "")
        last_at = records[-1].at
        last_effective_at = acted[-1].record.at if acted else ""
        played = [visit for visit in acted if visit.turn.turn >= 1]
        numbers = {visit.turn.turn for visit in played}
        rounds = max((visit.turn.round for visit in played), default=0)
        seats = set(info.started.players)
        play_order: dict[str, int] = {}
        for visit in played:
            active = visit.turn.active
            player = active[0] if len(active) == 1 else visit.record.actor
            if player not in play_order and player in seats:
                play_order[player] = len(play_order) + 1
                if len(play_order) == len(seats):
                    break
        self.visits = []

        rules, started = info.rules, info.started
        result = rules.result(final_state)
        winners = tuple(result.winners) if result else ()
        figures = {str(f.get("name")): f for f in rules.figures(final_state)}
        villain = rules.extra(final_state).get("villain") or started.options.get("villain")
        self.players = [
            (seat, name, play_order.get(name), text(figures.get(name, {}).get("faction")),
             text(figures.get(name, {}).get("leader")), text(figures.get(name, {}).get("hero")),
             name in winners)
            for seat, name in enumerate(started.players, start=1)
        ]
        head = records[-1]
        last = last_effective_at or first_at
        minutes = (seconds_between(first_at, last) or 0) / 60
        self.game = (
            started.kind, started.rules_version, started.tabletape_version, list(started.players),
            started.options, started.seed, stamp(first_at), stamp(last_at),
            stamp(last_effective_at) if result else None, result is not None, list(winners),
            result.team if result else None, result.reason if result else None, text(villain),
            started.parent, started.fork_seq, head.seq, head.hash,
            head.seq, len(acted), len(info.retracted), len(numbers), rounds,
            minutes,
        )


class Columns(tuple):  # type: ignore[type-arg]
    """Rows given column by column (equal-length lists, in the schema's order)."""

    __slots__ = ()


def text(value: Any) -> str | None:
    return None if value is None else str(value)


def stamp(at: str) -> str | None:
    """A ledger ``at`` as DuckDB reads a TIMESTAMP: ``2026-01-01 00:00:00.000000``."""
    return at.replace("T", " ").rstrip("Z") if at else None


class Folded(msgspec.Struct):
    """The rows of one game, ready to load."""

    game: str
    rows: dict[str, tuple[Schema, list[tuple[Any, ...]] | Columns]]
    """Table name -> its schema and rows, or :class:`Columns` (without the game column)."""
    events: int
    change: str = "new"


def project(game: str, records: Sequence[Record], projections: Sequence[Projection]) -> Folded:
    """Fold ``records`` once through the core visitor and ``projections``; collect their rows."""
    core = GameRows()
    walk(game, records, core, *projections)
    rows: dict[str, tuple[Schema, list[tuple[Any, ...]] | Columns]] = {
        GAMES.table: (GAMES, [core.game]), PLAYERS.table: (PLAYERS, core.players),
        POSITIONS.table: (POSITIONS, core.positions),
    }
    for projection in projections:
        schema = projection.schema
        rows.setdefault(schema.table, (schema, []))[1].extend(projection.rows)  # type: ignore[union-attr]
    return Folded(game, rows, len(records))


# -- the database --------------------------------------------------------------------------------


def catalog_path(ledger: Ledger) -> Path:
    return ledger.root / CATALOG_FILE


@contextmanager
def opened(path: Path, *, read_only: bool) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection to the catalog at ``path``, closed afterwards."""
    con = open_catalog(path, read_only=read_only)
    try:
        yield con
    finally:
        con.close()


def open_catalog(path: Path, *, read_only: bool) -> duckdb.DuckDBPyConnection:
    """Connect to the catalog; a locked or damaged file is a :class:`CatalogError`."""
    try:
        return duckdb.connect(str(path), read_only=read_only)
    except duckdb.Error as error:
        message = str(error).splitlines()[0]
        if "lock" in message.lower():
            raise CatalogError(f"the catalog {path} is in use by another program ({message}); "
                               "close it and try again") from None
        if "different configuration" in message:
            raise CatalogError(f"the catalog {path} is open in this program (a "
                               "tabletape.queries.connect() connection, say) and needs syncing: "
                               "close that connection and try again") from None
        raise CatalogError(f"cannot open the catalog {path}: {message}; delete it and it "
                           "will be rebuilt from the logs") from None


def known_schemas() -> dict[str, Schema]:
    """Every projection table: the shared ones and those of registered games' plug-ins."""
    schemas = {schema.table: schema for schema in SHARED_SCHEMAS}
    for rules in registered():
        if plugin(rules.name) is None:
            continue
        for projection in projections_for(rules):
            add_schema(schemas, projection.schema)
    return schemas


def add_schema(schemas: dict[str, Schema], schema: Schema) -> None:
    """Add ``schema``; two projections of one table must agree on its columns."""
    known = schemas.setdefault(schema.table, schema)
    if known.columns != schema.columns:
        raise CatalogError(f"two projections declare table '{schema.table}' with different "
                           "columns; a table has one schema for every game")


def meta(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    return dict(con.execute("SELECT key, value FROM _meta").fetchall())


def prepare_tables(con: duckdb.DuckDBPyConnection, schemas: dict[str, Schema],
                   rebuild: bool) -> bool:
    """Create missing tables; drop everything when the catalog's version differs or asked to.

    A projection table whose columns changed is recreated and every game reloaded. Returns True
    when the catalog was (re)built from scratch.
    """
    con.execute("CREATE TABLE IF NOT EXISTS _meta (key VARCHAR PRIMARY KEY, value VARCHAR)")
    stored = meta(con)
    fresh = rebuild or stored.get("catalog_version") != CATALOG_VERSION
    if fresh:
        drop_all(con)
    changed = [s for s in schemas.values()
               if stored.get(f"table:{s.table}", s.fingerprint()) != s.fingerprint()]
    for schema in changed:
        con.execute(f"DROP TABLE IF EXISTS {quote(schema.table)}")
    for schema in (*CORE_SCHEMAS, SYNC, *schemas.values()):
        con.execute(schema.ddl())
    if changed:
        con.execute("UPDATE _sync SET fingerprint = ''")
    entries = {"catalog_version": CATALOG_VERSION}
    entries.update({f"table:{s.table}": s.fingerprint() for s in schemas.values()})
    con.execute("INSERT OR REPLACE INTO _meta SELECT unnest($k), unnest($v)",
                {"k": list(entries), "v": list(entries.values())})
    create_views(con)
    return fresh


def drop_all(con: duckdb.DuckDBPyConnection) -> None:
    for (name, kind) in con.execute(
        "SELECT table_name, table_type FROM information_schema.tables "
        "WHERE table_schema = 'main' AND table_name <> '_meta'"
    ).fetchall():
        keyword = "VIEW" if kind == "VIEW" else "TABLE"
        con.execute(f"DROP {keyword} IF EXISTS {quote(name)}")
    con.execute("DELETE FROM _meta")


VIEWS = {
    "results": """
        SELECT g.kind, p.game, p.seat, p.name AS player, p.play_order, p.faction, p.leader,
               p.hero, g.villain, p.won, g.team, g.turns, g.rounds, g.minutes
        FROM players p JOIN games g USING (game) WHERE g.finished""",
}
"""Views kept in the catalog: ``results`` (one row per player of every finished game)."""


def create_views(con: duckdb.DuckDBPyConnection) -> None:
    for name, query in VIEWS.items():
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {query}")


# -- syncing -------------------------------------------------------------------------------------


class LogFile(msgspec.Struct):
    game: str
    path: Path
    size: int
    mtime_ns: int


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


def log_files(ledger: Ledger) -> dict[str, LogFile]:
    """Every log of the ledger, with its size and modification time."""
    files: dict[str, LogFile] = {}
    if ledger.games_dir.is_dir():
        for entry in os.scandir(ledger.games_dir):
            if entry.name.endswith(".jsonl") and entry.is_file():
                stat = entry.stat()
                game = entry.name.removesuffix(".jsonl")
                files[game] = LogFile(game, Path(entry.path), stat.st_size, stat.st_mtime_ns)
    return files


def loaded_state(con: duckdb.DuckDBPyConnection) -> dict[str, Loaded]:
    rows = con.execute("SELECT game, kind, size, mtime_ns, head_seq, head_hash, fingerprint, "
                       "problem FROM _sync").fetchall()
    return {row[0]: Loaded(*row[1:]) for row in rows}


def kind_fingerprint(kind: str, cache: dict[str, str]) -> str:
    """The projection fingerprint of ``kind`` ("?" when no such game is registered)."""
    if kind not in cache:
        try:
            cache[kind] = fingerprint(find_game(kind))
        except RulesError:
            cache[kind] = "?"
    return cache[kind]


def classify(ledger: Ledger, log: LogFile, before: Loaded | None,
             prints: dict[str, str]) -> str:
    """``new``, ``grew``, ``changed``, ``reprojected``, ``touched`` or ``unchanged``.

    ``touched``: same size and head, another modification time, and the whole log still
    verifies (a log changed in place is ``changed``, and checked whole when loaded).
    """
    if before is None:
        return "new"
    if before.size == log.size and before.mtime_ns == log.mtime_ns:
        if before.fingerprint == kind_fingerprint(before.kind, prints):
            return "unchanged"
        return "reprojected"
    if before.problem is None and log.size == before.size and holds_head(ledger, log, before):
        return "touched"
    return "grew" if log.size > before.size else "changed"


def holds_head(ledger: Ledger, log: LogFile, before: Loaded) -> bool:
    """True when the log verifies whole and still ends with the head the catalog loaded."""
    try:
        records = ledger.records(log.game)
    except LedgerError:
        return False
    return (records[-1].seq, records[-1].hash) == (before.head_seq, before.head_hash)


class Plan(msgspec.Struct):
    """What a sync has to do: logs to (re)load, logs only touched, games whose logs are gone."""

    todo: list[tuple[LogFile, Loaded | None]]
    touched: list[LogFile]
    removed: list[str]

    def empty(self) -> bool:
        return not (self.todo or self.touched or self.removed)


def sync(ledger: Ledger, *, rebuild: bool = False, progress: Progress | None = None,
         workers: int | None = None) -> SyncReport:
    """Bring ``catalog.duckdb`` up to date with the logs of ``ledger``; return what it did.

    A current catalog is only read (so a sync shares it with read-only readers, and works on a
    read-only ledger). Big loads fold in ``workers`` processes (default: one per CPU, up to
    four, when there is more than PARALLEL_BYTES of logs to load and the platform can fork).
    """
    began = time.perf_counter()
    path = catalog_path(ledger)
    schemas = known_schemas()
    report = SyncReport(catalog=str(path))
    if not rebuild and path.exists():
        with opened(path, read_only=True) as con:
            if is_current(con, schemas):
                work = plan(con, ledger, report)
                if work.empty():
                    finish(con, report, began)
                    return report
    report = SyncReport(catalog=str(path))
    ledger.root.mkdir(parents=True, exist_ok=True)
    with opened(path, read_only=False) as con:
        report.rebuilt = prepare_tables(con, schemas, rebuild)
        work = plan(con, ledger, report)
        settle(con, work)
        if work.todo:
            load_logs(con, ledger, work.todo, report, progress, workers)
        finish(con, report, began)
    return report


def is_current(con: duckdb.DuckDBPyConnection, schemas: dict[str, Schema]) -> bool:
    """True when the catalog has this version's tables and every projection's columns."""
    if not con.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = "
                       "'main' AND table_name = '_meta'").fetchone()[0]:  # type: ignore[index]
        return False
    stored = meta(con)
    return stored.get("catalog_version") == CATALOG_VERSION and all(
        stored.get(f"table:{s.table}") == s.fingerprint() for s in schemas.values())


def finish(con: duckdb.DuckDBPyConnection, report: SyncReport, began: float) -> None:
    """Fill in what the catalog holds now: its games, and every game it leaves out."""
    report.games = count_games(con)
    report.problems = stored_problems(con)
    report.seconds = round(time.perf_counter() - began, 3)


def stored_problems(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """Every game the catalog leaves out, and why (from ``_sync``)."""
    return dict(con.execute("SELECT game, problem FROM _sync WHERE problem IS NOT NULL "
                            "ORDER BY game").fetchall())


def count_games(con: duckdb.DuckDBPyConnection) -> int:
    return int(con.execute("SELECT count(*) FROM games").fetchone()[0])  # type: ignore[index]


def plan(con: duckdb.DuckDBPyConnection, ledger: Ledger, report: SyncReport) -> Plan:
    """What to do: logs to (re)load, touched ones, removed ones (nothing is written here)."""
    before = loaded_state(con)
    files = log_files(ledger)
    prints: dict[str, str] = {}
    work = Plan([], [], sorted(set(before) - set(files)))
    for game, log in sorted(files.items()):
        status = classify(ledger, log, before.get(game), prints)
        if status in ("unchanged", "touched"):
            report.unchanged += 1
            if status == "touched":
                work.touched.append(log)
        else:
            work.todo.append((log, before.get(game)))
    report.removed = len(work.removed)
    return work


def settle(con: duckdb.DuckDBPyConnection, work: Plan) -> None:
    """Drop the games whose logs are gone; note the new times of touched logs."""
    with transaction(con):
        delete_games(con, work.removed, with_sync=True)
        for log in work.touched:
            con.execute("UPDATE _sync SET mtime_ns = ? WHERE game = ?", [log.mtime_ns, log.game])


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    con.execute("BEGIN TRANSACTION")
    try:
        yield
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


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
    with ProcessPoolExecutor(min(workers, len(tasks)), mp_context=context) as pool:
        yield from pool.map(fold_chunk, tasks)


def load_logs(con: duckdb.DuckDBPyConnection, ledger: Ledger,
              todo: Sequence[tuple[LogFile, Loaded | None]], report: SyncReport,
              progress: Progress | None, workers: int | None) -> None:
    """Fold the logs in ``todo`` and replace their rows, one transaction per chunk."""
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
            add_up(report, result)
            done += result.size
            if progress:
                progress(done, total)


def add_up(report: SyncReport, result: ChunkResult) -> None:
    report.events += result.events
    report.loaded += len(result.paths)
    for change, n in result.changes.items():
        setattr(report, change, getattr(report, change) + n)


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
    data = columns.setdefault(schema.table, (schema, [[] for _ in range(width + 1)]))[1]
    data[0].extend(games if games is not None else [game] * count)
    for index, column in enumerate(given if given is not None else zip(*rows, strict=True),
                                   start=1):
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
        records = verified_records(ledger, log, before)
        started = msgspec.json.decode(records[0].payload)
        kind = str(started.get("kind", "?"))
        rules: Rules[Any] = find_game(kind)
        outcome = project(log.game, records, projections_for(rules))
        outcome.change = change_of(log, before)
        head_seq, head_hash = records[-1].seq, records[-1].hash
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


def verified_records(ledger: Ledger, log: LogFile, before: Loaded | None) -> list[Record]:
    """The records of a log whose chain verifies and that holds the head the catalog loaded.

    A log that grew since a sound load is checked from that head on (its new lines); any other
    log is checked whole. Raises :class:`ledger.Rewritten` when the loaded head is gone.
    """
    trusted = before.head() if before is not None else None
    grew = trusted is not None and before.problem is None and log.size > before.size  # type: ignore[union-attr]
    records = ledger.records(log.game, after=trusted if grew else None)
    if trusted is not None and not (len(records) >= trusted.seq
                                    and records[trusted.seq - 1].hash == trusted.hash):
        raise Rewritten(log.game, trusted.seq)
    return records


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
        delete_games(con, result.games, with_sync=True)
        for table, (schema, path) in result.files.items():
            if table != POSITIONS.table:
                con.execute(schema.ddl())
                insert_file(con, schema, Path(path))
        if POSITIONS.table in result.files:
            insert_events(con, result.paths, Path(result.files[POSITIONS.table][1]))


def delete_games(con: duckdb.DuckDBPyConnection, games: Sequence[str], *, with_sync: bool) -> None:
    """Remove every row of ``games`` from every table."""
    if not games:
        return
    tables = [row[0] for row in con.execute(
        "SELECT table_name FROM information_schema.columns WHERE table_schema = 'main' "
        "AND column_name = 'game' AND table_name IN "
        "(SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE')"
    ).fetchall()]
    for table in tables:
        if table == SYNC.table and not with_sync:
            continue
        con.execute(f"DELETE FROM {quote(table)} WHERE game IN (SELECT unnest($games))",
                    {"games": list(games)})


def columnar_sql(schema: Schema, path: Path) -> str:
    """A SELECT of the rows in a columnar JSON file (one object of equal-length lists)."""
    spec = "{" + ", ".join(f"'{c.name}': '{c.type}[]'" for c in schema.all_columns()) + "}"
    values = ", ".join(f"unnest({quote(c.name)}) AS {quote(c.name)}"
                       for c in schema.all_columns())
    return (f"SELECT {values} FROM read_json({sql_string(str(path))}, "
            f"maximum_object_size = 2147483647, columns = {spec})")


def insert_file(con: duckdb.DuckDBPyConnection, schema: Schema, path: Path) -> None:
    """Load a columnar JSON file into ``schema``'s table: in bulk."""
    names = ", ".join(quote(c.name) for c in schema.all_columns())
    con.execute(f"INSERT INTO {quote(schema.table)} ({names}) {columnar_sql(schema, path)}")


def insert_events(con: duckdb.DuckDBPyConnection, paths: Sequence[str], positions: Path) -> None:
    """Load ``events`` from the log files themselves, joined with the fold's positions."""
    if not paths:
        return
    files = "[" + ", ".join(sql_string(p) for p in paths) + "]"
    con.execute(f"""
        INSERT INTO events
        WITH p AS ({columnar_sql(POSITIONS, positions)})
        SELECT p.game, p.seq, p.turn, p.round, p.phase, l.actor, l.type,
               strptime(l.at, '{STAMP}'), p.retracted, p.effective, l.payload, l.prev, l.hash
        FROM read_json({files}, format = 'newline_delimited', filename = true,
                       ignore_errors = true, columns = {LOG_COLUMNS}) AS l
        JOIN p ON p.game = parse_filename(l.filename, true) AND p.seq = l.seq
    """)


def sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


# -- reading back --------------------------------------------------------------------------------


def connect(ledger: Ledger | str | os.PathLike[str] | None = None, *,
            sync_first: bool = True) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the ledger's catalog, synced first: every table and view.

    Games the catalog leaves out (their logs do not verify or do not fold) are named in a
    :class:`LeftOutWarning`.
    """
    store = ledger if isinstance(ledger, Ledger) else Ledger(ledger)
    if sync_first:
        problems = sync(store).problems
        if problems:
            listed = "; ".join(f"{game}: {why}" for game, why in sorted(problems.items())[:10])
            warnings.warn(f"{len(problems)} game(s) left out of the catalog: {listed}",
                          LeftOutWarning, stacklevel=2)
    return open_catalog(catalog_path(store), read_only=True)


class LeftOutWarning(UserWarning):
    """Some games are left out of the catalog; the message names them and why."""


def records_from_catalog(con: duckdb.DuckDBPyConnection, game: str) -> list[Record]:
    """The records of ``game`` rebuilt from its ``events`` rows (for games only in a catalog).

    The payload is the stored JSON, so ``tabletape.replay.fold.fold_records`` and
    ``tabletape.replay.visitor.walk``
    work on the result; raises :class:`CatalogError` when the catalog has no such game.
    """
    rows = con.execute(
        f"SELECT seq, strftime(recorded_at, '{STAMP}'), actor, type, CAST(payload AS VARCHAR), "
        "prev, hash FROM events WHERE game = ? ORDER BY seq", [game]
    ).fetchall()
    if not rows:
        raise CatalogError(f"the catalog has no events of game '{game}'")
    return [Record(seq=seq, at=at, actor=actor, type=type_, payload=msgspec.Raw(payload.encode()),
                   prev=prev, hash=hash_)
            for seq, at, actor, type_, payload, prev, hash_ in rows]


__all__ = [
    "CATALOG_FILE",
    "CatalogError",
    "LeftOutWarning",
    "SyncReport",
    "catalog_path",
    "connect",
    "open_catalog",
    "records_from_catalog",
    "sync",
]
