"""Syncing the catalog with the logs: what changed since the last sync, and what to do about it.

A game whose log file did not change (size, modification time, its last line still the head
loaded, and the projections that read it) is left alone; a game whose log grew or whose
projections changed is folded again and its rows replaced (:mod:`tabletape.queries.loading`); a
game whose log is gone leaves the catalog's tables, and is named in ``gone`` while no log holds
its id or identity. Only verified logs are loaded; a log that fails verification or does not
fold, no longer holds the head the catalog loaded or the latest head ever seen of it or of its
identity (``heads_seen``: rewritten or cut short, perhaps renamed), or holds another log's
identity, is kept out of the tables and named in ``problems`` until it verifies again (a
rewritten one until ``sync --rebuild``). The catalog is opened for writing only when there is
something to sync.
"""

from __future__ import annotations

import time
from collections import Counter
from datetime import datetime
from pathlib import Path

import duckdb
import msgspec

from tabletape.ledger import Ledger, LedgerError, LogFile
from tabletape.queries.database import (
    HEADS_SEEN,
    CatalogError,
    CatalogNotWritable,
    catalog_path,
    delete_games,
    opened,
    transaction,
    write_failure,
)
from tabletape.queries.loading import (
    ChunkResult,
    Loaded,
    Progress,
    fold_pool,
    kind_fingerprint,
    load_logs,
    worker_count,
)
from tabletape.queries.schema import is_current, known_schemas, outdated, prepare_tables


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
    """Logs left out because they no longer hold the head the catalog loaded of them (named in
    ``problems``; counted by every sync)."""
    vanished: int = 0
    """Logs left out because they no longer hold the latest head the catalog ever saw of them or
    of their game identity under any id (``heads_seen``: also across a catalog rebuilt for a
    new version); named in ``problems``, counted by every sync."""
    duplicate: int = 0
    """Logs left out because another log holds the same game identity (named in ``problems``)."""
    recovered: int = 0
    """Logs left out before that verify and fold now (repaired or restored), loaded again."""
    reprojected: int = 0
    removed: int = 0
    unchanged: int = 0
    """Loaded games whose logs did not change (a left-out log is never counted here)."""
    events: int = 0
    """Events loaded by this sync."""
    rebuilt: bool = False
    outdated: str = ""
    """Said when the catalog was made by another catalog version and so rebuilt (by the sync
    that rebuilt it only: people are told once)."""
    seconds: float = 0.0
    stale: str = ""
    """Said when the catalog needed a sync that could not be written (a read-only ledger, a
    full disk) and was read as it is: why, and how many games changed since its last sync."""
    problems: dict[str, str] = {}
    """Every game left out of the catalog -> why (its log fails verification at a named event,
    was rewritten, is of an unknown kind, or does not fold); named by every sync."""
    gone: dict[str, str] = {}
    """Every game the catalog loaded before whose log is gone (deleted or moved out, its game
    identity held by no log) -> what was last loaded of it; named by every sync until the log is
    back, or ``sync --rebuild`` takes the logs as they are now."""


def loaded_state(con: duckdb.DuckDBPyConnection) -> dict[str, Loaded]:
    rows = con.execute("SELECT game, kind, size, mtime_ns, head_seq, head_hash, fingerprint, "
                       "problem, left_out, uid FROM _sync").fetchall()
    return {row[0]: Loaded(*row[1:]) for row in rows}


def classify(ledger: Ledger, log: LogFile, before: Loaded | None,
             prints: dict[str, str]) -> str:
    """``new``, ``grew``, ``changed``, ``reprojected``, ``touched`` or ``unchanged``.

    ``touched``: same size and head, another modification time, and the whole log still
    verifies (a log changed in place is ``changed``, and checked whole when loaded). A loaded
    log of the same size and time whose last line is not the head loaded (rewritten keeping
    both, ``touch -r``) is ``changed`` too: reading the file's tail is cheap.
    """
    if before is None:
        return "new"
    if before.size == log.size and before.mtime_ns == log.mtime_ns:
        if before.problem is None and not ends_at_head(ledger, log, before):
            return "changed"
        if before.fingerprint == kind_fingerprint(before.kind, prints):
            return "unchanged"
        return "reprojected"
    if before.problem is None and log.size == before.size and holds_head(ledger, log, before):
        return "touched"
    return "grew" if log.size > before.size else "changed"


def holds_head(ledger: Ledger, log: LogFile, before: Loaded) -> bool:
    """True when the log verifies whole and still ends with the head the catalog loaded."""
    try:
        head = ledger.verified(log.game).head
    except LedgerError:
        return False
    return (head.seq, head.hash) == (before.head_seq, before.head_hash)


def ends_at_head(ledger: Ledger, log: LogFile, before: Loaded) -> bool:
    """True when the log's last line is the head the catalog loaded (only its tail is read)."""
    try:
        head = ledger.head(log.game)
    except (LedgerError, OSError):
        return False
    return (head.seq, head.hash) == (before.head_seq, before.head_hash)


class Plan(msgspec.Struct):
    """What a sync has to do: logs to (re)load, logs only touched, games whose logs are gone."""

    todo: list[tuple[LogFile, Loaded | None]]
    touched: list[LogFile]
    removed: list[str]
    unchanged: list[str] = []
    """Loaded games counted as unchanged (a sync that then leaves one out uncounts it)."""

    def empty(self) -> bool:
        return not (self.todo or self.touched or self.removed)


def sync(ledger: Ledger, *, rebuild: bool = False, progress: Progress | None = None,
         workers: int | None = None, stale_ok: bool = False) -> SyncReport:
    """Bring ``catalog.duckdb`` up to date with the logs of ``ledger``; return what it did.

    A current catalog is only read (so a sync shares it with read-only readers, and works on a
    read-only ledger). Big loads fold in ``workers`` processes (default: one per CPU, up to
    four, when there is more than PARALLEL_BYTES of logs to load and the platform can fork).
    A ledger folder that does not exist is :class:`~tabletape.ledger.MissingLedger` (never
    made here). When the catalog cannot be written (:class:`CatalogNotWritable`: a read-only
    ledger, a full disk), ``stale_ok`` reads it as it is, saying so in ``report.stale``.
    """
    began = time.perf_counter()
    ledger.require()
    path = catalog_path(ledger)
    schemas = known_schemas()
    report = SyncReport(catalog=str(path))
    behind: Plan | None = None
    if not rebuild and path.exists():
        with opened(path, read_only=True) as con:
            if is_current(con, schemas):
                behind = plan(con, ledger, report)
                if behind.empty():
                    finish(con, report, began, put_away(ledger))
                    return report
    try:
        return write_sync(ledger, rebuild, progress, workers, began, behind)
    except CatalogNotWritable as error:
        if not stale_ok or behind is None:
            raise
        return stale_report(path, behind, error, began, put_away(ledger))


def write_sync(ledger: Ledger, rebuild: bool, progress: Progress | None, workers: int | None,
               began: float, behind: Plan | None = None) -> SyncReport:
    """The sync proper: the catalog opened for writing, brought up to date in transactions.

    The fold workers are forked first (never while this process holds an open DuckDB), as many
    as the logs to load call for: those of ``behind``, the plan of a current catalog, or else
    (a new, outdated or rebuilt catalog) every log.
    """
    path = catalog_path(ledger)
    report = SyncReport(catalog=str(path))
    new = not path.exists()
    todo = ([log for log, _ in behind.todo] if behind is not None
            else list(ledger.log_files().values()))
    try:
        with fold_pool(worker_count(sum(log.size for log in todo), workers)) as pool, \
                opened(path, read_only=False) as con:
            report.outdated = outdated(con)
            report.rebuilt = prepare_tables(con, known_schemas(), rebuild)
            forget_deleted(con, ledger)
            work = plan(con, ledger, report)
            settle(con, work)
            folded: dict[str, str] = {}
            for result in load_logs(con, ledger, work.todo, progress, pool):
                add_up(report, result)
                folded.update(result.folded)
            remember_heads(con)
            uncount_left_out(con, report, folded, work.unchanged)
            finish(con, report, began, put_away(ledger))
    except (duckdb.Error, CatalogError) as error:  # a full disk mid-way: all rolled back
        if new:  # nothing half-made: a catalog this sync began and could not finish goes
            remove_catalog(path)
        if isinstance(error, duckdb.Error):
            raise write_failure(path, error) from None
        raise
    return report


def remove_catalog(path: Path) -> None:
    """Delete the catalog file at ``path`` and its write-ahead log, if they are there."""
    for leftover in (path, path.with_name(path.name + ".wal")):
        leftover.unlink(missing_ok=True)


def stale_report(path: Path, behind: Plan, error: CatalogNotWritable, began: float,
                 put_away: set[str]) -> SyncReport:
    """What the catalog holds as it is, when ``behind`` could not be synced (``error``)."""
    report = SyncReport(catalog=str(path))
    with opened(path, read_only=True) as con:
        finish(con, report, began, put_away)
    changed = len(behind.todo) + len(behind.removed)
    games = "1 game" if changed == 1 else f"{changed} games"
    report.stale = (f"the catalog {path} could not be synced ({error.what}): results are as "
                    f"of its last sync; {games} changed since")
    return report


def finish(con: duckdb.DuckDBPyConnection, report: SyncReport, began: float,
           put_away: set[str] | frozenset[str] = frozenset()) -> None:
    """Fill in what the catalog holds now: its games, every game it leaves out (counted by why),
    and every game whose log is gone (but the games ``put_away``: archived or deleted on
    purpose)."""
    report.games = count_games(con)
    report.problems = stored_problems(con)
    counts = dict(con.execute("SELECT left_out, count(*) FROM _sync WHERE problem IS NOT NULL "
                              "AND left_out IS NOT NULL GROUP BY left_out").fetchall())
    report.rewritten = counts.get("rewritten", 0)
    report.vanished = counts.get("vanished", 0)
    report.duplicate = counts.get("duplicate", 0)
    report.gone = {game: why for game, why in gone_logs(con).items() if game not in put_away}
    report.seconds = round(time.perf_counter() - began, 3)


def put_away(ledger: Ledger) -> set[str]:
    """The games the ledger archived or deleted (``tabletape archive``, ``delete``): out of
    the catalog on purpose, never said to be gone."""
    from tabletape.ledger.heads import deletions

    return set(ledger.archived()) | set(deletions(ledger.root))


def forget_deleted(con: duckdb.DuckDBPyConnection, ledger: Ledger) -> None:
    """Forget the games ``tabletape delete`` deleted: their rows (while the catalog holds the
    deleted game's identity) and the heads seen of them up to their deletion, so a new game
    given a deleted one's id is a new game, not a rewrite of it."""
    from tabletape.ledger.heads import deletions

    with transaction(con):
        for deletion in deletions(ledger.root).values():
            if still_there(ledger, deletion.game, deletion.uid):
                continue  # a delete killed before the log went: the game is still here
            loaded = con.execute("SELECT uid FROM _sync WHERE game = ?",
                                 [deletion.game]).fetchall()
            if loaded and loaded[0][0] == deletion.uid:
                delete_games(con, [deletion.game])
            at = datetime.fromisoformat(deletion.at.replace("Z", "+00:00")).replace(tzinfo=None)
            con.execute(f"DELETE FROM {HEADS_SEEN} WHERE (game = ? OR uid = ?) AND seen_at <= ?",
                        [deletion.game, deletion.uid or None, at])


def still_there(ledger: Ledger, game: str, uid: str) -> bool:
    """Whether the log of ``game`` with the identity ``uid`` is in the ledger."""
    try:
        return bool(uid) and ledger.started(game).uid == uid
    except (LedgerError, OSError):
        return False


def stored_problems(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """Every game the catalog leaves out, and why (from ``_sync``)."""
    return dict(con.execute("SELECT game, problem FROM _sync WHERE problem IS NOT NULL "
                            "ORDER BY game").fetchall())


def count_games(con: duckdb.DuckDBPyConnection) -> int:
    return int(con.execute("SELECT count(*) FROM all_games").fetchone()[0])  # type: ignore[index]


def plan(con: duckdb.DuckDBPyConnection, ledger: Ledger, report: SyncReport) -> Plan:
    """What to do: logs to (re)load, touched ones, removed ones (nothing is written here)."""
    before = loaded_state(con)
    files = ledger.log_files()
    prints: dict[str, str] = {}
    work = Plan([], [], sorted(set(before) - set(files)))
    holders = Counter(loaded.uid for game, loaded in before.items()
                      if game in files and loaded.uid is not None)
    for game, log in sorted(files.items()):
        was = before.get(game)
        status = classify(ledger, log, was, prints)
        if was is not None and was.left_out == "duplicate" and holders[was.uid or ""] < 2:
            status = "changed"  # the other log of its identity is gone: load it again
        if status in ("unchanged", "touched"):
            if was is not None and was.problem is None:
                report.unchanged += 1
                work.unchanged.append(game)
            if status == "touched":
                work.touched.append(log)
        else:
            work.todo.append((log, before.get(game)))
    report.removed = len(work.removed)
    return work


def settle(con: duckdb.DuckDBPyConnection, work: Plan) -> None:
    """Drop the games whose logs are gone; note the new times of touched logs."""
    with transaction(con):
        delete_games(con, work.removed)
        for log in work.touched:
            con.execute("UPDATE _sync SET mtime_ns = ? WHERE game = ?", [log.mtime_ns, log.game])


LATEST = f"""
    SELECT {{key}}, max(seq) AS seq, arg_max(hash, seq) AS hash,
           arg_max(seen_at, seq) AS seen, arg_max(game, seq) AS seen_as
    FROM {HEADS_SEEN} {{where}} GROUP BY {{key}}"""
"""The latest head seen of each game id (``key`` = ``game``) or identity (``uid``)."""

VANISHED = f"""
    WITH latest AS (
        SELECT 'game' AS by, game AS key, seq, hash, seen, seen_as
            FROM ({LATEST.format(key="game", where="")})
        UNION ALL
        SELECT 'uid', uid, seq, hash, seen, seen_as
            FROM ({LATEST.format(key="uid", where="WHERE uid IS NOT NULL")}))
    SELECT s.game, l.by, l.seq, l.hash, l.seen, l.seen_as, e.hash, s.head_seq
    FROM _sync s JOIN latest l
        ON (l.by = 'game' AND l.key = s.game) OR (l.by = 'uid' AND l.key = s.uid)
    LEFT JOIN all_events e ON e.game = s.game AND e.seq = l.seq
    WHERE s.problem IS NULL AND e.hash IS DISTINCT FROM l.hash
    ORDER BY s.game, l.by
"""
"""Loaded games whose log no longer holds the latest head seen under its id, or of its
identity under any id (a log renamed or copied): their events are loaded, so the hash at that
seq is there to compare."""

DUPLICATES = f"""
    WITH holders AS (
        SELECT uid, game, count(*) OVER (PARTITION BY uid) AS n FROM _sync
        WHERE problem IS NULL AND uid IS NOT NULL),
    latest AS ({LATEST.format(key="uid", where="WHERE uid IS NOT NULL")}),
    kept AS (
        SELECT h.uid, coalesce(max(h.game) FILTER (WHERE h.game = l.seen_as), min(h.game))
            AS game
        FROM holders h LEFT JOIN latest l USING (uid) WHERE h.n > 1 GROUP BY h.uid)
    SELECT h.game, h.uid, k.game FROM holders h JOIN kept k USING (uid)
    WHERE h.game <> k.game ORDER BY h.game
"""
"""Loaded logs holding the identity of another loaded log, but for the one kept: the one that
last loaded that identity, else the first by id."""

GONE = f"""
    WITH latest AS (
        SELECT any_value(uid) AS uid, arg_max(game, seq) AS game, max(seq) AS seq,
               arg_max(hash, seq) AS hash, arg_max(seen_at, seq) AS seen
        FROM {HEADS_SEEN} GROUP BY coalesce(uid, 'game:' || game))
    SELECT l.game, l.seq, l.hash, l.seen FROM latest l
    WHERE NOT EXISTS (SELECT 1 FROM _sync s WHERE s.game = l.game OR s.uid = l.uid)
    ORDER BY l.game
"""
"""Games loaded before that no log in the ledger holds now, under their id or identity."""


def remember_heads(con: duckdb.DuckDBPyConnection) -> None:
    """Leave out (and name) every loaded log that no longer holds the latest head seen of it,
    then every one that holds another loaded log's identity (a log left out as vanished holds
    none: a cut copy put back under the old id never drops the intact log); then remember the
    head of every loaded log."""
    with transaction(con):
        named: set[str] = set()
        for game, _, seq, head_hash, seen, seen_as, now_hash, head_seq in con.execute(
                VANISHED).fetchall():
            if game not in named:  # named once, by its own id first
                named.add(game)
                leave_out(con, game, "vanished",
                          vanished_why(game, seen_as, seq, head_hash, seen, now_hash, head_seq))
        for game, uid, kept in con.execute(DUPLICATES).fetchall():
            leave_out(con, game, "duplicate",
                      f"game {game} holds the identity {uid} of game {kept} too (a copy, or a "
                      f"log moved without removing the old one): one log per game; remove one "
                      f"of them")
        con.execute(f"""
            UPDATE {HEADS_SEEN} h SET uid = s.uid FROM _sync s
            WHERE h.uid IS NULL AND h.game = s.game AND s.problem IS NULL""")
        con.execute(f"""
            INSERT INTO {HEADS_SEEN} (game, seq, hash, seen_at, uid)
            SELECT s.game, s.head_seq, s.head_hash, now() AT TIME ZONE 'UTC', s.uid FROM _sync s
            WHERE s.problem IS NULL AND s.head_seq > 0 AND NOT EXISTS (
                SELECT 1 FROM {HEADS_SEEN} h
                WHERE h.game = s.game AND h.seq = s.head_seq AND h.hash = s.head_hash)""")


def uncount_left_out(con: duckdb.DuckDBPyConnection, report: SyncReport,
                     folded: dict[str, str], unchanged: list[str]) -> None:
    """A log :func:`remember_heads` left out is not counted as loaded (nor ``new``, ``grew``...)
    nor as ``unchanged``."""
    left = {game for (game,) in con.execute(
        "SELECT game FROM _sync WHERE problem IS NOT NULL AND left_out IN "
        "('vanished', 'duplicate')").fetchall()}
    for game, change in folded.items():
        if game in left:
            report.loaded -= 1
            setattr(report, change, getattr(report, change) - 1)
    report.unchanged -= len(left.intersection(unchanged))


def leave_out(con: duckdb.DuckDBPyConnection, game: str, why: str, problem: str) -> None:
    """Drop the rows of a loaded ``game`` and name it in ``_sync`` (``why``: its ``left_out``)."""
    delete_games(con, [game], keep=["_sync"])
    con.execute("UPDATE _sync SET problem = ?, left_out = ? WHERE game = ?", [problem, why, game])


REBUILD_HINT = ("`tabletape sync --rebuild` takes the logs as they are now, if that is what they "
                "should be")


def vanished_why(game: str, seen_as: str, seq: int, head_hash: str, seen: object,
                 now_hash: str | None, head_seq: int) -> str:
    """Why ``game`` is left out: it no longer holds the head seen at ``seq`` (as ``seen_as``:
    the game itself, or another id of the same identity)."""
    from tabletape.ledger.fingerprints import fingerprint

    what = (f"the log now ends at seq {head_seq}: cut short" if now_hash is None
            else f"the log holds another event at seq {seq}: rewritten")
    whose = ("its head" if seen_as == game
             else f"the head of game {seen_as} (the same game identity)")
    return (f"game {game} no longer holds {whose} seen by the catalog on "
            f"{str(seen)[:19]} UTC (seq {seq}, {fingerprint(seq, head_hash)}): {what}; "
            f"{REBUILD_HINT}")


def gone_logs(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """Every game the catalog loaded before whose log is gone (under its id and identity)."""
    from tabletape.ledger.fingerprints import fingerprint

    return {game: (f"the log of game {game} is gone (deleted, or moved out of the ledger): the "
                   f"catalog loaded it up to seq {seq} ({fingerprint(seq, head_hash)}) on "
                   f"{str(seen)[:19]} UTC; put it back, or else {REBUILD_HINT}")
            for game, seq, head_hash, seen in con.execute(GONE).fetchall()}


def add_up(report: SyncReport, result: ChunkResult) -> None:
    report.events += result.events
    report.loaded += len(result.paths)
    for change, n in result.changes.items():
        setattr(report, change, getattr(report, change) + n)
