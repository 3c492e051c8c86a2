"""Moving game logs between ledgers: export a verified log, import one after checking it.

Import verifies a log file the way ``Ledger.verify`` verifies a stored one (every line decodes,
seqs are contiguous, each line's hash covers its bytes and chains to the line before) and
refuses a game already in the ledger, under its id or any other.

A game is the same game when its identity (the ``uid`` of its first event,
:mod:`tabletape.ledger.identity`) and its chain (its first line) match a stored game's: it is
refused as a duplicate. A log whose handle (file name) is taken by a game of another identity is
another game with the same handle: it is imported under a new handle, drawn as ``new`` draws one,
and the outcome says so (``renamed_from``). A handle chosen with ``--as`` is never changed: a
taken one is refused.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import secrets
import shutil
import stat
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import msgspec

from tabletape.ledger.codec import GENESIS_HASH, Record, decode_line
from tabletape.ledger.events import GameStarted
from tabletape.ledger.identity import game_uid
from tabletape.ledger.store import Ledger, LedgerError, chain_intact, fsync_dir, line_problem


class TransferError(LedgerError):
    """A log that cannot be imported or exported; the message is meant for people."""


_record_decoder = msgspec.json.Decoder(Record)


class Imported(msgspec.Struct, frozen=True):
    """One imported log (``import --json``)."""

    game: str
    """The handle it was imported under."""
    kind: str
    events: int
    source: str
    uid: str = ""
    """The game's global identity."""
    renamed_from: str | None = None
    """The handle it came with (its file name) when another game here already had it."""


class _Identity(msgspec.Struct):
    uid: str = ""


def line_uid(first: bytes) -> str:
    """The identity of the game whose log starts with the line ``first`` ("" if unreadable)."""
    try:
        record = decode_line(first)
        stored = msgspec.json.decode(record.payload, type=_Identity).uid
    except (msgspec.DecodeError, ValueError):
        return ""
    return game_uid(stored, record.hash)


def verify_log_bytes(data: bytes, name: str) -> int:
    """Check a whole log file; return its event count or raise :class:`TransferError`."""
    return len(verified_records(data, name))


def verified_records(data: bytes, name: str) -> list[Record]:
    """The records of a whole log file whose chain verifies; else :class:`TransferError`."""
    if not data:
        raise TransferError(f"{name} is empty")
    if not data.endswith(b"\n"):
        raise TransferError(f"{name} ends with a torn line (no newline after the last event)")
    lines = data[:-1].split(b"\n")
    records = intact_records(data, lines)
    if records is None:  # something is wrong: find the first bad line and say what it is
        prev = GENESIS_HASH
        for seq, line in enumerate(lines, 1):
            problem = line_problem(line, seq, prev)
            if problem:
                raise TransferError(f"{name} is not an intact log: event {seq}: {problem}")
            prev = line[-66:-2].decode()
        records = [decode_line(line) for line in lines]
    if records[-1].more:
        raise TransferError(f"{name} ends with an append cut short by a crash (run repair on the "
                            "ledger it came from)")
    if records[0].type != "game-started":
        raise TransferError(f"{name} does not start with a game-started event")
    return records


def intact_records(data: bytes, lines: list[bytes]) -> list[Record] | None:
    """The records when every line passes ``line_problem``'s checks, else None.

    The file decodes in one call and ``chain_intact`` compares its hashes, links and seqs a
    whole file at a time; the caller words the refusal with ``line_problem`` when any fails.
    """
    try:
        records = _record_decoder.decode_lines(data)
    except msgspec.DecodeError:
        return None
    return records if chain_intact(lines, records) else None


def started_problem(records: list[Record]) -> str:
    """Why the first record is not a game-started event tabletape can read, or ``""``."""
    try:
        msgspec.json.decode(records[0].payload, type=GameStarted)
    except msgspec.ValidationError as error:
        return f"its game-started event is not valid ({error})"
    return ""


def first_line(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.readline().rstrip(b"\n")


def find_same_game(ledger: Ledger, first: bytes,
                   seen: dict[str, bytes] | None = None) -> str | None:
    """The id of a game in ``ledger`` whose log starts with the line ``first``, if any.

    ``seen`` (game id -> first line) remembers first lines across calls: a log's first line
    never changes, so importing many files reads each stored game's first line once, not once
    per file. Entries of ``games/`` that are not readable logs (a folder, a dangling link) are
    not games and are passed over.
    """
    lines = first_lines(ledger, {} if seen is None else seen)
    return oldest(ledger, [game for game, line in lines.items() if line == first])


def find_same_uid(ledger: Ledger, uid: str, seen: dict[str, bytes] | None = None,
                  uids: dict[str, str] | None = None) -> str | None:
    """The id of a game in ``ledger`` whose identity is ``uid``, if any (``seen``: as for
    :func:`find_same_game`; ``uids`` remembers each game's identity across calls the same way).
    """
    lines = first_lines(ledger, {} if seen is None else seen)
    known = {} if uids is None else uids
    for game, line in lines.items():
        if game not in known:
            known[game] = line_uid(line)
    return oldest(ledger, [game for game in lines if known[game] == uid])


def first_lines(ledger: Ledger, seen: dict[str, bytes]) -> dict[str, bytes]:
    """The first line of every readable log of ``ledger`` (game id -> line), read into ``seen``
    once."""
    try:
        names = os.listdir(ledger.games_dir)
    except FileNotFoundError:
        return {}
    lines = {}
    for name in names:
        if not name.endswith(".jsonl") or name.startswith("."):
            continue
        game = name[: -len(".jsonl")]
        line = seen.get(game)
        if line is None:
            try:
                line = seen[game] = first_line(ledger.games_dir / name)
            except OSError:
                continue
        lines[game] = line
    return lines


def oldest(ledger: Ledger, games: list[str]) -> str | None:
    """The oldest of ``games``, as ``ledger.game_ids()`` orders them, or None."""
    if len(games) > 1:
        return next(game for game in ledger.game_ids() if game in games)
    return games[0] if games else None


GameCheck = Callable[[str, list[Record]], str]
"""Why the verified records of game ``id`` are not a game this install can replay, or ``""``.

The ledger knows no game's rules: the import command passes one (see
``tabletape.queries.transfer.game_log_problem``)."""


STDIN = "-"
"""The file name that means standard input (``tabletape import - --as ID``)."""

PARALLEL_BYTES = 4_000_000
"""More bytes than this to import, in several files: they are checked in worker processes."""
FSYNC_THREADS = 16
"""Scratch copies fsynced at once: the file system commits concurrent fsyncs together, where
one after another each waits for a commit of its own (eight times slower for 200 small logs)."""


def shown(source: Path) -> str:
    """A log file's name as messages show it (``-`` is standard input).

    >>> shown(Path("-")), shown(Path("rs-k7pq.jsonl"))
    ('standard input', 'rs-k7pq.jsonl')
    """
    return "standard input" if str(source) == STDIN else str(source)


def read_log_file(source: Path) -> bytes:
    """The bytes of a log file to import (``-``: standard input); :class:`TransferError` if it is
    not a readable file."""
    try:
        if str(source) == STDIN:
            return sys.stdin.buffer.read()
        if not stat.S_ISREG(source.stat().st_mode):
            raise TransferError(f"{source} is not a regular file (a folder, a device or a pipe); "
                                "name a .jsonl log file")
        return source.read_bytes()
    except OSError as error:
        raise TransferError(f"cannot read {shown(source)}: {error.strerror}") from None


class Checked(msgspec.Struct):
    """What checking one log file found (here or in a worker process): all a batch needs of it
    but its records."""

    source: str
    kind: str
    events: int
    uid: str
    """The game's global identity."""
    first: bytes
    """Its first line (where the game's chain begins)."""
    scratch: str = ""
    """Its copy written under a scratch name in the games folder ("" if none), fsynced by the
    batch before it is linked."""
    data: bytes = b""
    """Its bytes, when no scratch copy was written (the games folder cannot be made)."""

    def content(self) -> bytes:
        """The checked bytes (from the scratch copy when one was written)."""
        return Path(self.scratch).read_bytes() if self.scratch else self.data


def check_log_file(source: Path, game: str, check: GameCheck | None,
                   folder: Path | None) -> Checked:
    """Read ``source`` and check it whole as the log of ``game`` (its chain, its first event,
    ``check``: its events are its game's); then write a scratch copy of the bytes checked in
    ``folder``, if given (not fsynced yet). A refusal is :class:`TransferError` (nothing
    written)."""
    data = read_log_file(source)
    records = verified_records(data, shown(source))
    problem = started_problem(records) or (check(game, records) if check else "")
    if problem:
        raise TransferError(f"{shown(source)} is not a game this ledger can replay: {problem}")
    started = msgspec.json.decode(records[0].payload, type=GameStarted)
    checked = Checked(str(source), started.kind, len(records),
                      game_uid(started.uid, records[0].hash), data[: data.index(b"\n")])
    if folder is None:
        checked.data = data
    else:
        checked.scratch = str(write_scratch(folder, game, data))
    return checked


def import_workers(files: int, size: int) -> int:
    """Processes to check ``files`` files of ``size`` bytes in: several for a big import where
    the platform can fork (one per CPU, up to four), else one; ``TABLETAPE_IMPORT_WORKERS``
    sets the number for any import of several files."""
    configured = os.environ.get("TABLETAPE_IMPORT_WORKERS", "")
    if files < 2 or (size < PARALLEL_BYTES and not configured.isdigit()):
        return 1
    return fork_workers(int(configured) if configured.isdigit() else files)


def fork_workers(wanted: int) -> int:
    """Up to ``wanted`` worker processes: one per CPU, at most four; 1 where fork is unknown.

    >>> fork_workers(1)
    1
    """
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(wanted, 4, os.cpu_count() or 1))


class Candidate(NamedTuple):
    """A file checked and ready to be linked into the ledger."""

    imported: Imported
    checked: Checked


Outcome = Checked | TransferError | OSError
"""How checking a file in a worker ended: checked, refused, or a failure to write its copy."""

_worker_check: GameCheck | None = None
"""The batch's game check, in a worker process (inherited when the pool forks)."""


def _set_worker_check(check: GameCheck | None) -> None:
    global _worker_check
    _worker_check = check


def worker_outcome(source: str, game: str, folder: str) -> Outcome:
    """:func:`check_log_file` in a worker process, its refusal or write failure returned."""
    try:
        return check_log_file(Path(source), game, _worker_check, Path(folder))
    except (TransferError, OSError) as error:
        return error


class ImportBatch:
    """The imports of one command (``tabletape import FILE...``): all of them or none.

    :meth:`add` checks a file completely (its chain, its first event, its id, and ``check``:
    that its events are its game's) and refuses it with :class:`TransferError`; :meth:`add_all`
    adds many, checked in parallel worker processes first when there is much to check. Nothing
    is linked into the ledger until :meth:`commit`, which links every checked file or, when any
    was refused or a link fails, none. Each file is written under a scratch name as it is
    checked and fsynced in the background (many at once), every copy's fsync is waited for before
    any is linked, and the games folder is fsynced once at the end: after a crash every imported
    file is whole or absent. Used as a context manager, a batch never
    committed leaves nothing behind (a games folder it made is removed again).
    """

    def __init__(self, ledger: Ledger, check: GameCheck | None = None) -> None:
        self.ledger = ledger
        self.check = check
        self.seen: dict[str, bytes] = {}
        self.uids: dict[str, str] = {}
        self.ready: dict[str, Candidate] = {}
        self.refused: dict[str, str] = {}
        self.prechecked: dict[str, Outcome] = {}
        """Files checked ahead by :meth:`precheck`, by source, until :meth:`add` takes them."""
        self.made: list[Path] = []
        """Folders this batch made for its scratch copies, deepest first."""
        self.folder: Path | None = None
        self.folder_tried = False
        self.syncing: dict[str, Future[None]] = {}
        """Scratch copy -> its fsync, under way in :attr:`syncer`."""
        self.syncer: ThreadPoolExecutor | None = None

    def add(self, source: Path, game_id: str | None = None) -> Imported:
        """Check ``source`` for import as ``game_id`` (default: its file name); link nothing."""
        try:
            candidate = self.checked(source, game_id)
        except TransferError as error:
            self.refused[str(source)] = str(error)
            raise
        self.ready[candidate.imported.game] = candidate
        return candidate.imported

    def add_all(self, sources: Sequence[Path], game_id: str | None = None
                ) -> tuple[list[Imported], dict[str, str]]:
        """:meth:`add` every file of ``sources`` (checked in parallel first when there is much
        to check); return the files checked, and those refused (source -> why)."""
        self.precheck(sources, game_id)
        added: list[Imported] = []
        refused: dict[str, str] = {}
        for source in sources:
            try:
                added.append(self.add(source, game_id))
            except TransferError as error:
                refused[str(source)] = str(error)
        return added, refused

    def precheck(self, sources: Sequence[Path], game_id: str | None = None) -> None:
        """Check the files of ``sources`` in worker processes, ahead of :meth:`add`, when there
        are several and much to check (else :meth:`add` checks each itself)."""
        jobs: dict[str, str] = {}
        size = 0
        for source in sources:
            game = game_id or source.name.removesuffix(".jsonl")
            try:
                self.ledger.path(game)
                size += source.stat().st_size
            except (LedgerError, OSError):  # add() says why, in its own words
                continue
            if str(source) != STDIN and str(source) not in self.prechecked:
                jobs[str(source)] = game
        workers = import_workers(len(jobs), size)
        if self.syncer is not None:  # never fork a process that runs threads of its own
            workers = 1
        folder = self.scratch_folder() if workers > 1 else None
        if folder is None:
            return
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_set_worker_check,
                                 initargs=(self.check,)) as pool:
            futures = {name: pool.submit(worker_outcome, name, game, str(folder))
                       for name, game in jobs.items()}
            failed: BaseException | None = None
            for name, future in futures.items():
                try:
                    outcome = self.prechecked[name] = future.result()
                except BaseException as error:  # a bug in a worker: keep the others to discard
                    failed = failed or error
                    continue
                if isinstance(outcome, Checked):
                    self.start_fsync(outcome)
        if failed is not None:
            raise failed

    def scratch_folder(self) -> Path | None:
        """The games folder, where checked copies are written: made if missing (and removed
        again if nothing is imported); None when it cannot be made (then copies are written at
        commit, which says why it fails)."""
        if not self.folder_tried:
            self.folder_tried = True
            try:
                self.made = make_folders(self.ledger.games_dir)
                self.folder = self.ledger.games_dir
            except OSError:
                self.folder = None
        return self.folder

    def checked(self, source: Path, game_id: str | None) -> Candidate:
        game = game_id or source.name.removesuffix(".jsonl")
        handle = game
        outcome = self.prechecked.pop(str(source), None)
        try:
            try:
                self.ledger.path(game)
            except LedgerError as error:
                raise TransferError(f"{shown(source)}: {error}") from None
            if outcome is None:
                outcome = check_log_file(source, game, self.check, self.scratch_folder())
                self.start_fsync(outcome)
            if isinstance(outcome, Exception):
                raise outcome
            self.refuse_clash(source, outcome)
            if self.handle_taken(source, game, chosen=game_id is not None):
                game = self.fresh_handle(game)
        except BaseException:
            self.discard_outcome(outcome)
            raise
        imported = Imported(game, outcome.kind, outcome.events, str(source), outcome.uid,
                            handle if game != handle else None)
        return Candidate(imported, outcome)

    def start_fsync(self, checked: Checked) -> None:
        """Begin fsyncing the scratch copy of ``checked`` (if it has one) in the background."""
        if checked.scratch:
            if self.syncer is None:
                self.syncer = ThreadPoolExecutor(FSYNC_THREADS,
                                                 thread_name_prefix="tabletape-import")
            self.syncing[checked.scratch] = self.syncer.submit(fsync_file, Path(checked.scratch))

    def synced(self, checked: Checked) -> None:
        """Wait until the scratch copy of ``checked`` is on disk (raises why it is not)."""
        pending = self.syncing.pop(checked.scratch, None)
        if pending is not None:
            pending.result()

    def discard_outcome(self, outcome: Outcome | None) -> None:
        """Remove the scratch copy of a checked file that will not be linked, if one was
        written (once its fsync, if under way, is over)."""
        if isinstance(outcome, Checked) and outcome.scratch:
            with contextlib.suppress(OSError):
                self.synced(outcome)
            with contextlib.suppress(OSError):
                Path(outcome.scratch).unlink()
            outcome.scratch = ""

    def refuse_clash(self, source: Path, checked: Checked) -> None:
        """Refuse the same game again: one already in the ledger or in this batch (same
        identity and same first line), or one claiming a stored game's identity with another
        chain."""
        first, uid = checked.first, checked.uid
        twin = next((c for c in self.ready.values()
                     if c.checked.first == first or c.imported.uid == uid), None)
        if twin is not None:
            raise TransferError(f"{shown(source)} is the same game as "
                                f"{twin.imported.source} (identity {uid}), given twice; import "
                                "it once")
        same = find_same_game(self.ledger, first, self.seen)
        if same is not None:
            stored, data = self.ledger.path(same).read_bytes(), checked.content()
            how = "the same log" if stored == data else (
                "a longer version of it: tabletape does not extend a stored log by import"
                if data.startswith(stored) else "a different version of it")
            raise TransferError(f"{shown(source)} is already in ledger {self.ledger.root} as game "
                                f"{same} ({how}); nothing imported")
        claimed = find_same_uid(self.ledger, uid, self.seen, self.uids)
        if claimed is not None:
            raise TransferError(f"{shown(source)} has the identity {uid} of game {claimed} in "
                                f"ledger {self.ledger.root}, but another first event: an altered "
                                "copy of it; nothing imported")

    def handle_taken(self, source: Path, game: str, *, chosen: bool) -> bool:
        """True when ``game`` is the handle of another game here or in this batch; a handle
        chosen with ``--as`` is refused instead."""
        taken = game in self.ready or self.ledger.path(game).exists()
        if taken and chosen:
            raise TransferError(f"game id '{game}' is already used in ledger "
                                f"{self.ledger.root} by another game; import {shown(source)} "
                                "under another id with --as NEW-ID")
        return taken

    def fresh_handle(self, game: str) -> str:
        """A handle free here and in this batch, with ``game``'s prefix (``rs`` of ``rs-k7pq``)."""
        prefix = game.split("-")[0] or "game"
        while (fresh := self.ledger.new_game_id(prefix)) in self.ready:
            pass  # pragma: no cover - drawn twice in one batch
        return fresh

    def commit(self) -> list[Imported]:
        """Link every checked file into the ledger, or none (then raise :class:`TransferError`).

        Refused when any file was refused; a link that fails (an id taken meanwhile, a full
        disk) unlinks the ones made before it.
        """
        if self.refused:
            total = len(self.refused) + len(self.ready)
            self.discard()
            raise TransferError(f"nothing was imported: {len(self.refused)} of "
                                f"{total} files were refused")
        linked: list[Path] = []
        try:
            if self.ready:
                self.ledger.games_dir.mkdir(parents=True, exist_ok=True)
            for game, candidate in self.ready.items():  # every copy on disk before any link
                checked = candidate.checked
                if not checked.scratch:
                    checked.scratch = str(write_scratch(self.ledger.games_dir, game,
                                                        checked.data))
                    self.start_fsync(checked)
            for candidate in self.ready.values():
                self.synced(candidate.checked)
            for game, candidate in self.ready.items():
                target = self.ledger.path(game)
                link_into_place(Path(candidate.checked.scratch), target)
                candidate.checked.scratch = ""
                linked.append(target)
        except BaseException:
            for target in linked:
                target.unlink(missing_ok=True)
            self.discard()
            raise
        finally:
            if linked:
                fsync_dir(self.ledger.games_dir)
        self.made = []  # the folders hold the imported games now
        done = [candidate.imported for candidate in self.ready.values()]
        self.ready.clear()
        return done

    def discard(self) -> None:
        """Remove the scratch copies of every file not linked, and the folders made for them."""
        for candidate in self.ready.values():
            self.discard_outcome(candidate.checked)
        for outcome in self.prechecked.values():
            self.discard_outcome(outcome)
        self.ready.clear()
        self.prechecked.clear()
        for folder in self.made:  # deepest first; one that holds anything else stays
            try:
                folder.rmdir()
            except OSError:
                break
        self.made = []

    def __enter__(self) -> ImportBatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()
        if self.syncer is not None:
            self.syncer.shutdown()
            self.syncer = None


def import_log(ledger: Ledger, source: Path, game_id: str | None = None,
               check: GameCheck | None = None) -> Imported:
    """Import the one log ``source`` into ``ledger`` as ``game_id`` (default: its file name)."""
    with ImportBatch(ledger, check) as batch:
        imported = batch.add(source, game_id)
        batch.commit()
    return imported


def make_folders(folder: Path) -> list[Path]:
    """Make ``folder`` and any missing parents; return those made, deepest first."""
    missing = []
    current = folder
    while not current.exists() and current != current.parent:
        missing.append(current)
        current = current.parent
    folder.mkdir(parents=True, exist_ok=True)
    return missing


def write_scratch(folder: Path, game: str, data: bytes) -> Path:
    """Write ``data`` to a new scratch file for ``game`` in ``folder`` (not fsynced); return it.

    Its name is hidden and this process's own (``.GAME.jsonl.PID-TOKEN.importing``), so it is
    never taken for a log, and nothing is left of it when the write fails.
    """
    scratch = folder / f".{game}.jsonl.{os.getpid()}-{secrets.token_hex(4)}.importing"
    try:
        with open(scratch, "xb") as handle:
            handle.write(data)
    except BaseException:
        scratch.unlink(missing_ok=True)
        raise
    return scratch


def fsync_file(path: Path) -> None:
    """Flush the file at ``path`` to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def link_into_place(scratch: Path, target: Path) -> None:
    """Link the fsynced ``scratch`` as ``target`` (never over an existing file), remove it."""
    try:
        os.link(scratch, target)
    except FileExistsError:
        raise TransferError(f"game id '{target.stem}' was taken while importing; nothing "
                            "was imported") from None
    finally:
        scratch.unlink()


def export_log(ledger: Ledger, game: str, target: Path) -> int:
    """Copy the log of ``game`` byte for byte to ``target``; return its event count."""
    source = ledger.existing_path(game)
    verification = ledger.verify(game)
    if not verification.ok:
        raise TransferError(f"game {game} fails verification at event "
                            f"{verification.first_bad_seq}: {verification.problem}; "
                            "repair it before exporting")
    if target.exists() and target.is_dir():
        target = target / source.name
    shutil.copyfile(source, target)
    return verification.events
