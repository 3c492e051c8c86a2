"""Moving game logs between ledgers: export a verified log, import one after checking it.

Import verifies a log file the way ``Ledger.verify`` verifies a stored one (every line decodes,
seqs are contiguous, each line's hash covers its bytes and chains to the line before) and
refuses a game already in the ledger, under its id or any other.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import msgspec

from ledger.codec import GENESIS_HASH, HASH_FIELD, SEALED_TAIL, Record, decode_line
from ledger.events import GameStarted
from ledger.store import Ledger, LedgerError, fsync_dir, line_problem, opens_more


class TransferError(LedgerError):
    """A log that cannot be imported or exported; the message is meant for people."""


_record_decoder = msgspec.json.Decoder(Record)


class Imported(msgspec.Struct, frozen=True):
    """One imported log (``import --json``)."""

    game: str
    kind: str
    events: int
    source: str


def verify_log_bytes(data: bytes, name: str) -> int:
    """Check a whole log file; return its event count or raise :class:`TransferError`."""
    if not data:
        raise TransferError(f"{name} is empty")
    if not data.endswith(b"\n"):
        raise TransferError(f"{name} ends with a torn line (no newline after the last event)")
    lines = data[:-1].split(b"\n")
    seq = intact_lines(data, lines)
    if seq is None:  # something is wrong: find the first bad line and say what it is
        prev, seq = GENESIS_HASH, 0
        for line in lines:
            seq += 1
            problem = line_problem(line, seq, prev)
            if problem:
                raise TransferError(f"{name} is not an intact log: event {seq}: {problem}")
            prev = line[-66:-2].decode()
    if opens_more(lines[-1]):
        raise TransferError(f"{name} ends with an append cut short by a crash (run repair on the "
                            "ledger it came from)")
    first = decode_line(data[: data.index(b"\n")])
    if first.type != "game-started":
        raise TransferError(f"{name} does not start with a game-started event")
    return seq


def intact_lines(data: bytes, lines: list[bytes]) -> int | None:
    """The event count when every line passes ``line_problem``'s checks, else None.

    The same checks, made fast: the file decodes in one call, each line is hashed once, and the
    hashes, links and seqs are compared a whole file at a time (every hash, stated or computed,
    is 64 characters, and so is every ``prev`` checked to be, so joined hashes are equal exactly
    when they are equal one by one); the caller words the refusal with ``line_problem`` when
    any check fails.
    """
    try:
        records = _record_decoder.decode_lines(data)
    except msgspec.DecodeError:
        return None
    count = len(lines)
    if len(records) != count or min(map(len, lines)) <= SEALED_TAIL:
        return None
    sha256, start = hashlib.sha256, -SEALED_TAIL
    if b"".join([line[start:start + len(HASH_FIELD)] for line in lines]) != HASH_FIELD * count:
        return None
    hashes = b"".join([sha256(line[:start] + b"}").digest() for line in lines]).hex()
    prevs = [record.prev for record in records]
    if (hashes.encode() != b"".join([line[-66:-2] for line in lines])
            or [record.seq for record in records] != list(range(1, count + 1))
            or set(map(len, prevs)) != {len(GENESIS_HASH)}
            or "".join(prevs) != GENESIS_HASH + hashes[:-len(GENESIS_HASH)]):
        return None
    return count


def started_of(data: bytes) -> GameStarted:
    return msgspec.json.decode(decode_line(data[: data.index(b"\n")]).payload, type=GameStarted)


def first_line(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.readline().rstrip(b"\n")


def find_same_game(ledger: Ledger, first: bytes,
                   seen: dict[str, bytes] | None = None) -> str | None:
    """The id of a game in ``ledger`` whose log starts with the line ``first``, if any.

    ``seen`` (game id -> first line) remembers first lines across calls: a log's first line
    never changes, so importing many files reads each stored game's first line once, not once
    per file.
    """
    if seen is None:
        for game in ledger.game_ids():
            if first_line(ledger.path(game)) == first:
                return game
        return None
    try:
        names = os.listdir(ledger.games_dir)
    except FileNotFoundError:
        return None
    matches = []
    for name in names:
        if not name.endswith(".jsonl"):
            continue
        game = name[: -len(".jsonl")]
        line = seen.get(game)
        if line is None:
            line = seen[game] = first_line(ledger.path(game))
        if line == first:
            matches.append(game)
    if len(matches) > 1:  # the oldest, as ledger.game_ids() orders them
        return next(game for game in ledger.game_ids() if game in matches)
    return matches[0] if matches else None


def import_log(ledger: Ledger, source: Path, game_id: str | None = None,
               *, seen: dict[str, bytes] | None = None, sync_dir: bool = True) -> Imported:
    """Copy the verified log ``source`` into ``ledger`` as ``game_id`` (default: its file name).

    Importing several files into one ledger, pass the same empty dict as ``seen`` to each call
    (see :func:`find_same_game`), or use an :class:`ImportBatch`. The file is written whole or
    not at all (fsynced under a scratch name, then linked into place); with ``sync_dir`` (the
    default) the games folder is fsynced too, so the import is durable when this returns.
    ``sync_dir=False`` leaves that to the caller (:class:`ImportBatch` does it once).
    """
    try:
        data = source.read_bytes()
    except OSError as error:
        raise TransferError(f"cannot read {source}: {error.strerror}") from None
    game = game_id or source.name.removesuffix(".jsonl")
    early = start_scratch(ledger, game, data)
    try:
        events = verify_log_bytes(data, str(source))
        target = ledger.path(game)
        first = data[: data.index(b"\n")]
        same = find_same_game(ledger, first, seen)
        if same is not None:
            stored = ledger.path(same).read_bytes()
            how = "the same log" if stored == data else (
                "an earlier part of it" if data.startswith(stored)
                else "a different version of it")
            raise TransferError(f"{source} is already in ledger {ledger.root} as game {same} "
                                f"({how}); nothing imported")
        if target.exists():
            raise TransferError(f"game id '{game}' is already used in ledger {ledger.root} by "
                                "another game; import it under another id with --as NEW-ID")
        if early is not None:
            early.result()  # the scratch copy is written and fsynced (or raises why not)
    except BaseException:
        if early is not None:
            discard_scratch(early, scratch_path(ledger.path(game)))
        raise
    if early is None:
        write_new(ledger, target, data, sync_dir=sync_dir)
    else:
        link_into_place(ledger, scratch_path(target), target, sync_dir=sync_dir)
    if seen is not None:
        seen[game] = first
    return Imported(game, started_of(data).kind, events, str(source))


class ImportBatch:
    """The imports of one command (``tabletape import FILE...``), durable when it closes.

    Each file is fsynced before it is linked into place, so after a crash every imported file is
    whole or absent; the games folder (the links) is fsynced once, when the batch closes, rather
    than once per file. Close it (``with ImportBatch(ledger) as batch:``) before reporting
    anything as imported.
    """

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.seen: dict[str, bytes] = {}
        self.linked = 0

    def import_log(self, source: Path, game_id: str | None = None) -> Imported:
        imported = import_log(self.ledger, source, game_id, seen=self.seen, sync_dir=False)
        self.linked += 1
        return imported

    def close(self) -> None:
        """Make every link made so far durable."""
        if self.linked:
            fsync_dir(self.ledger.games_dir)
            self.linked = 0

    def __enter__(self) -> ImportBatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def scratch_path(target: Path) -> Path:
    """Where ``target`` is written before it is linked into place."""
    return target.with_name(f".{target.name}.importing")


def write_synced(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` and fsync it."""
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


_writer: ThreadPoolExecutor | None = None
"""One thread that writes and fsyncs scratch copies while the main thread verifies."""


def start_scratch(ledger: Ledger, game: str, data: bytes) -> Future[None] | None:
    """Begin writing and fsyncing the scratch copy of ``game`` in the background, or None.

    The fsync waits on the disk while the log is verified, instead of after it. Only when the
    games folder already exists (a refused import creates nothing) and the id is usable; the
    caller waits for the result before linking, and discards the copy if the import is refused.
    """
    global _writer
    if not data or not ledger.games_dir.is_dir():
        return None
    try:
        scratch = scratch_path(ledger.path(game))
    except LedgerError:
        return None
    if _writer is None:
        _writer = ThreadPoolExecutor(1, thread_name_prefix="tabletape-import")
    return _writer.submit(write_synced, scratch, data)


def discard_scratch(pending: Future[None], scratch: Path) -> None:
    """Wait for a scratch copy of a refused import to be written, then remove it."""
    with contextlib.suppress(OSError):
        pending.result()
    with contextlib.suppress(OSError):
        scratch.unlink()


def write_new(ledger: Ledger, target: Path, data: bytes, *, sync_dir: bool = True) -> None:
    """Write ``target`` whole or not at all, never over an existing file."""
    ledger.games_dir.mkdir(parents=True, exist_ok=True)
    scratch = scratch_path(target)
    write_synced(scratch, data)
    link_into_place(ledger, scratch, target, sync_dir=sync_dir)


def link_into_place(ledger: Ledger, scratch: Path, target: Path, *, sync_dir: bool) -> None:
    """Link the fsynced ``scratch`` as ``target`` (never over an existing file), remove it.

    ``sync_dir`` then fsyncs the games folder, making the link (and the removal) durable.
    """
    try:
        os.link(scratch, target)
    except FileExistsError:
        raise TransferError(f"game id '{target.stem}' was taken while importing") from None
    finally:
        scratch.unlink()
    if sync_dir:
        fsync_dir(ledger.games_dir)


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
