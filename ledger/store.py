"""A ledger: a folder holding one append-only, hash-chained JSON Lines file per game.

>>> import tempfile
>>> from ledger.events import GameStarted, Noted
>>> ledger = Ledger(tempfile.mkdtemp())
>>> game = ledger.create(GameStarted(kind="demo", rules_version="1", tabletape_version="0",
...                                  players=("olga", "patrick")), game_id="dm-test")
>>> [r.seq for r in ledger.append(game, [("olga", Noted(text="hello"))], expected_seq=1)]
[2]
>>> ledger.verify(game).ok
True
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
import stat
import sys
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import NamedTuple

import msgspec

from ledger.codec import (
    GENESIS_HASH,
    SEALED_TAIL,
    Record,
    body_hash_matches,
    decode_line,
    encode_payload,
    sealed_record,
    utc_stamp,
)
from ledger.events import TABLE, Event, GameStarted, event_type

if sys.platform != "win32":
    import fcntl

Draft = tuple[str, Event]
"""What a caller appends: ``(actor, event)``; the ledger adds seq, time and hashes."""

ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
"""Letters of game ids: no 0/o, 1/l/i, so an id read aloud at the table is typed right."""

MAX_ID_BYTES = 160
"""The longest game id (UTF-8 bytes): its file, scratch and backup names all fit the 255 bytes
file systems allow a name."""

_records_decoder = msgspec.json.Decoder(Record)


class LedgerError(Exception):
    """Base of the ledger's errors; messages are meant for people."""


class UnknownGameId(LedgerError):
    """No log for that game id in this ledger."""


class NotALog(LedgerError):
    """An entry of ``games/`` named like a log that is no log file (a folder, a dangling link)."""


OS_FAILURES: dict[int, tuple[str, str]] = {
    errno.EROFS: ("the file system is read-only", "use a writable --ledger"),
    errno.EACCES: ("permission denied", "check the owner and permissions of the ledger folder, "
                   "or use another --ledger"),
    errno.ENOSPC: ("the disk is full", "free some space and run the command again"),
    errno.EDQUOT: ("the disk quota is used up", "free some space and run the command again"),
    errno.EFBIG: ("the file size limit was reached", "raise the limit (ulimit -f) and run "
                  "the command again"),
    errno.ENOTDIR: ("a part of that path is not a folder", "--ledger must name a folder"),
    errno.EEXIST: ("a file is in the way", "--ledger must name a folder"),
    errno.EISDIR: ("it is a folder where a file belongs", "move the folder away"),
    errno.ENAMETOOLONG: ("the name is too long for the file system",
                         "choose a shorter game id or ledger path"),
    errno.ELOOP: ("too many symbolic links", "fix the links in the ledger's path"),
    errno.EMFILE: ("too many open files", "close other programs or raise ulimit -n"),
    errno.EIO: ("an input/output error (a failing disk?)", "check the disk"),
    errno.ENOENT: ("no such file or folder", "check the path"),
}
OS_FAILURES[errno.EPERM] = OS_FAILURES[errno.EACCES]


def os_failure(error: OSError) -> str:
    """One line for people: what the operating system refused, where, and what to do.

    >>> print(os_failure(OSError(errno.EROFS, "Read-only file system", "/l/games/x.jsonl")))
    /l/games/x.jsonl: the file system is read-only; nothing was changed: use a writable --ledger
    """
    what, advice = OS_FAILURES.get(error.errno or 0, (error.strerror or str(error), ""))
    where = f"{error.filename}: " if error.filename else ""
    return f"{where}{what}; nothing was changed" + (f": {advice}" if advice else "")


class VersionConflict(LedgerError):
    """The log's head moved since the caller read it: nothing was written."""

    def __init__(self, game: str, expected: int, actual: int) -> None:
        super().__init__(
            f"game {game} changed while you were recording: expected event {expected} to be the "
            f"latest, but it is {actual}; nothing was written, look at the game and record again"
        )
        self.expected = expected
        self.actual = actual


class TornTail(LedgerError):
    """The last line of a log was cut short by a crash mid-write (it was never acknowledged)."""

    def __init__(self, game: str, after_seq: int, size: int) -> None:
        super().__init__(
            f"the last line of game {game} is torn ({size} bytes after event {after_seq}, a crash "
            f"while writing; that action was never acknowledged). Run `tabletape repair {game}` "
            "to cut it off (a backup of the file is kept)"
        )
        self.after_seq = after_seq
        self.size = size


class UnfinishedAppend(TornTail):
    """A crash cut an append of several events short: its first lines are there, not its last.

    None of that append was acknowledged, so ``repair`` cuts all of its lines, never half.
    """

    def __init__(self, game: str, after_seq: int, written: int) -> None:
        LedgerError.__init__(
            self,
            f"the last append to game {game} was cut short by a crash after {written} of its "
            f"events (events {after_seq + 1} to {after_seq + written}; none of them was "
            f"acknowledged). Run `tabletape repair {game}` to cut them off (a backup of the "
            "file is kept)",
        )
        self.after_seq = after_seq
        self.size = written
        self.written = written


class Corrupt(LedgerError):
    """A stored line does not decode, breaks the seq order or the hash chain."""

    def __init__(self, game: str, seq: int, problem: str) -> None:
        super().__init__(f"game {game} is corrupt at event {seq}: {problem}")
        self.seq = seq
        self.problem = problem


class Head(msgspec.Struct, frozen=True):
    """The latest event of a log."""

    seq: int
    hash: str
    at: str


class OpenLog(NamedTuple):
    """A log kept open between appends: its descriptor, and its size and head after our write."""

    fd: int
    path: str
    size: int
    head: Head | None


KEPT_LOGS = 16
"""How many logs a ledger keeps open for appending."""


class Verification(msgspec.Struct, frozen=True, kw_only=True):
    """What ``verify`` found: ``ok`` or the first bad seq and why."""

    game: str
    ok: bool
    events: int
    """Events that verified (before the first bad one)."""
    first_bad_seq: int | None = None
    problem: str = ""
    head: str = ""


def default_root() -> Path:
    """The user's ledger: ``$TABLETAPE_LEDGER``, else the platform's user data folder."""
    configured = os.environ.get("TABLETAPE_LEDGER")
    if configured:
        return Path(configured).expanduser()
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "tabletape"
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home())) / "tabletape"
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "tabletape"


class Ledger:
    """The games of one ledger folder. Every method is safe across processes."""

    def __init__(self, root: str | os.PathLike[str] | None = None) -> None:
        self.root = Path(root) if root is not None else default_root()
        self.games_dir = self.root / "games"
        self._open_logs: dict[str, OpenLog] = {}
        self._pid = os.getpid()

    def __repr__(self) -> str:
        return f"Ledger({str(self.root)!r})"

    # -- naming --------------------------------------------------------------------------------

    def path(self, game: str) -> Path:
        """The log file of ``game`` (which may not exist yet)."""
        if not game or "/" in game or "\\" in game or game.startswith(".") or "\0" in game:
            raise UnknownGameId(f"'{game}' is not a game id")
        if len(game.encode()) > MAX_ID_BYTES:
            raise UnknownGameId(f"a game id is at most {MAX_ID_BYTES} bytes long; "
                                f"'{game[:20]}…' has {len(game.encode())}: choose a shorter one")
        return self.games_dir / f"{game}.jsonl"

    def existing_path(self, game: str) -> Path:
        """The log file of ``game``; :class:`UnknownGameId` or :class:`NotALog` when there is none.
        """
        path = self.path(game)
        try:
            mode = path.stat().st_mode
        except (FileNotFoundError, NotADirectoryError):
            if path.is_symlink():
                raise NotALog(f"{path} is a dangling link (to {os.readlink(path)}, which does "
                              "not exist): restore its file or remove the link") from None
            raise UnknownGameId(self.unknown_game_message(game)) from None
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
            raise NotALog(f"{path} is {kind}, not a game log: move it out of {self.games_dir}")
        return path

    def unknown_game_message(self, game: str) -> str:
        import difflib

        ids = self.game_ids()
        close = difflib.get_close_matches(game, ids, n=1, cutoff=0.5)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        known = ", ".join(ids[-8:]) if ids else "none yet; start one with `tabletape new`"
        return f"no game '{game}' in ledger {self.root}{hint}; games: {known}"

    def game_ids(self) -> list[str]:
        """Every game id in the ledger, oldest file first."""
        if not self.games_dir.is_dir():
            return []
        files = sorted(self.games_dir.glob("*.jsonl"), key=lambda p: (modified(p), p.name))
        return [p.stem for p in files if not p.name.startswith(".")]

    def new_game_id(self, prefix: str) -> str:
        """A short id not yet used here, e.g. ``rs-k7pq``."""
        for length in (4, 4, 4, 5, 6, 8):
            candidate = f"{prefix}-" + "".join(secrets.choice(ID_ALPHABET) for _ in range(length))
            if not self.path(candidate).exists():
                return candidate
        raise LedgerError("could not find a free game id")  # pragma: no cover

    # -- writing -------------------------------------------------------------------------------

    def create(
        self,
        started: GameStarted,
        *,
        game_id: str | None = None,
        prefix: str | None = None,
        at: str | None = None,
        then: Sequence[Draft] = (),
        then_at: str | Sequence[str] | None = None,
    ) -> str:
        """Start a log whose first event is ``started`` (and whose next are ``then``); its id.

        The log is written whole under a scratch name, fsynced, then linked into place: a
        failure (a full disk) or a crash leaves no game at all, never a half-made one. Without
        ``game_id`` a fresh id is drawn (``prefix``-xxxx; another is drawn if a process takes it
        first). Raises :class:`LedgerError` when ``game_id`` is taken.
        """
        first_at = at or utc_stamp()
        line, first = sealed_record(1, first_at, TABLE, event_type(started),
                                    encode_payload(started), GENESIS_HASH)
        data = line + b"\n"
        if then:
            data += build_lines(then, Head(1, first.hash, first_at), then_at)[0]
        self.games_dir.mkdir(parents=True, exist_ok=True)
        for _attempt in range(8):
            game = game_id or self.new_game_id(prefix or started.kind.split("-")[0][:2])
            if link_new_file(self.path(game), data):
                break
            if game_id is not None:
                raise LedgerError(f"game id '{game}' is already used in ledger {self.root}")
            # a generated id taken by another process since new_game_id looked: draw again
        else:  # pragma: no cover - eight collisions in a row
            raise LedgerError("could not find a free game id")
        fsync_dir(self.games_dir)
        return game

    def append(
        self,
        game: str,
        drafts: Sequence[Draft],
        *,
        expected_seq: int,
        at: str | Sequence[str] | None = None,
    ) -> list[Record]:
        """Append events after ``expected_seq`` in one write and one fsync; return their records.

        Raises :class:`VersionConflict` (nothing written) when the log's head is not
        ``expected_seq``, and :class:`TornTail` when the log needs repair first.
        """
        log = self._take_open_log(game)
        kept = False
        try:
            with exclusive(log.fd):
                size = os.fstat(log.fd).st_size
                if log.head and log.size == size:
                    head = log.head
                else:
                    refuse_changed_line_endings(log.fd, game, size)
                    head = read_head(log.fd, game)
                if head.seq != expected_seq:
                    raise VersionConflict(game, expected_seq, head.seq)
                data, records = build_lines(drafts, head, at)
                try:
                    write_all(log.fd, data)
                    os.fsync(log.fd)
                except OSError as error:
                    os.ftruncate(log.fd, size)
                    raise named(error, log.path) from None
            last = records[-1]
            head = Head(last.seq, last.hash, last.at)
            self._keep_open_log(game, OpenLog(log.fd, log.path, size + len(data), head))
            kept = True
        finally:
            if not kept:
                os.close(log.fd)
        return records

    def _take_open_log(self, game: str) -> OpenLog:
        """The game's log opened for appending: kept from the last append here, or opened now.

        A kept descriptor saves the open, the head read and the close of every append; its head
        is trusted only while the file's size is the one this ledger left it at.
        """
        if self._pid != os.getpid():  # a forked child must not share its parent's descriptors
            self._open_logs, self._pid = {}, os.getpid()
        log = self._open_logs.pop(game, None)
        if log is not None:
            try:
                if os.fstat(log.fd).st_ino == os.stat(log.path).st_ino:
                    return log
            except FileNotFoundError:
                pass
            os.close(log.fd)  # the file was replaced or removed: open it anew
        path = str(self.existing_path(game))
        fd = os.open(path, os.O_RDWR | os.O_APPEND)
        return OpenLog(fd, path, -1, None)

    def _keep_open_log(self, game: str, log: OpenLog) -> None:
        self._open_logs[game] = log
        while len(self._open_logs) > KEPT_LOGS:
            oldest = next(iter(self._open_logs))
            os.close(self._open_logs.pop(oldest).fd)

    def close(self) -> None:
        """Close the descriptors kept for appending (also done when the ledger is collected)."""
        if self._pid == os.getpid():
            for log in self._open_logs.values():
                os.close(log.fd)
        self._open_logs = {}

    def __del__(self) -> None:
        try:  # noqa: SIM105 - contextlib may be gone at interpreter shutdown
            self.close()
        except Exception:  # pragma: no cover
            pass

    # -- reading -------------------------------------------------------------------------------

    def lines(self, game: str) -> Iterator[bytes]:
        """The stored lines of ``game`` (newlines removed); a torn last line raises TornTail."""
        path = self.existing_path(game)
        last_seq = 0
        with open(path, "rb") as handle:
            # Read what the file held at one moment no append was under way: appends hold the
            # exclusive lock while they write, so a size seen under the shared lock ends on a
            # line boundary (or on a real torn tail). Without it a reader racing a large append
            # reports a torn line that is only half written, and never ends on a busy log.
            with shared_lock(handle.fileno()):
                remaining = os.fstat(handle.fileno()).st_size
            if remaining == 0:
                raise Corrupt(game, 1, "the file is empty (no game-started event)")
            while remaining > 0:
                line = handle.readline(remaining)
                if not line:  # the file shrank under us (a concurrent repair): stop there
                    break
                remaining -= len(line)
                if not line.endswith(b"\n"):
                    raise TornTail(game, last_seq, len(line))
                last_seq += 1
                yield line[:-1]

    def read(self, game: str) -> Iterator[Record]:
        """Stream the records of ``game``; raises :class:`Corrupt` or :class:`TornTail` on damage.

        Reading checks that each line decodes and that seqs are contiguous; ``verify`` checks
        the hashes too.
        """
        expected = 1
        pending: list[Record] = []
        for line in self.lines(game):
            try:
                record = decode_line(line)
            except msgspec.DecodeError as error:
                raise Corrupt(game, expected, f"line does not decode ({error})") from None
            if record.seq != expected:
                raise Corrupt(game, expected, f"found seq {record.seq} where {expected} belongs")
            expected += 1
            pending.append(record)
            if not record.more:  # an append ends here: its records may be handed out
                yield from pending
                pending.clear()
        if pending:
            raise UnfinishedAppend(game, pending[0].seq - 1, len(pending))

    def records(self, game: str) -> list[Record]:
        """Every record of ``game`` at once: what :meth:`read` yields, decoded in one call.

        The whole file (as it stood under the shared lock) is decoded by msgspec in one go and
        its seqs compared in one step; on any damage the streaming :meth:`read` runs instead, to
        name the first bad line exactly as it always does.
        """
        path = self.existing_path(game)
        with open(path, "rb") as handle:
            with shared_lock(handle.fileno()):
                size = os.fstat(handle.fileno()).st_size
            data = handle.read(size)
        if data.endswith(b"\n"):
            try:
                records = _records_decoder.decode_lines(data)
            except msgspec.DecodeError:
                records = []
            if records and records[-1].seq == len(records) and not records[-1].more and all(
                record.seq == seq for seq, record in enumerate(records, 1)
            ):
                return records
        return list(self.read(game))

    def started(self, game: str) -> GameStarted:
        """The game-started event of ``game``."""
        path = self.existing_path(game)
        with open(path, "rb") as handle:
            first = handle.readline()
        try:
            record = decode_line(first)
            return msgspec.json.decode(record.payload, type=GameStarted)
        except msgspec.DecodeError as error:
            raise Corrupt(game, 1, f"the game-started line does not decode ({error})") from None

    def head(self, game: str) -> Head:
        """The latest event of ``game``."""
        path = self.existing_path(game)
        fd = os.open(path, os.O_RDONLY)
        try:
            with shared_lock(fd):  # not while an append is half-way through its write
                return read_head(fd, game)
        finally:
            os.close(fd)

    # -- checking and mending ------------------------------------------------------------------

    def verify(self, game: str) -> Verification:
        """Check every line: it decodes, its seq follows, its ``prev`` and ``hash`` chain."""
        prev = GENESIS_HASH
        seq = complete = 0
        complete_head = prev
        try:
            for line in self.lines(game):
                seq += 1
                problem = line_problem(line, seq, prev)
                if problem and line.endswith(b"\r") and not line_problem(line[:-1], seq, prev):
                    problem = line_endings_problem(game)
                if problem:
                    return Verification(game=game, ok=False, events=seq - 1,
                                        first_bad_seq=seq, problem=problem, head=prev)
                prev = line[-66:-2].decode()
                if not opens_more(line):
                    complete, complete_head = seq, prev
        except TornTail as torn:
            return Verification(game=game, ok=False, events=seq, first_bad_seq=seq + 1,
                                problem=f"torn last line ({torn.size} bytes): run repair",
                                head=prev)
        except Corrupt as corrupt:  # an empty file
            return Verification(game=game, ok=False, events=seq, first_bad_seq=corrupt.seq,
                                problem=corrupt.problem, head=prev)
        except NotALog as stray:
            return Verification(game=game, ok=False, events=0, first_bad_seq=1,
                                problem=str(stray), head=prev)
        except OSError as error:
            return Verification(game=game, ok=False, events=seq, first_bad_seq=seq + 1,
                                problem=f"cannot read it: {os_failure(error)}", head=prev)
        if complete < seq:
            return Verification(game=game, ok=False, events=complete, first_bad_seq=complete + 1,
                                problem=f"an append of several events was cut short by a crash "
                                f"after {seq - complete} of them (never acknowledged): run repair",
                                head=complete_head)
        return Verification(game=game, ok=True, events=seq, head=prev)

    def repair_line_endings(self, game: str) -> Path | None:
        """Turn CRLF line endings back into LF when the whole chain then verifies.

        Keeps the original as a backup and returns it; None (nothing changed) when the file has
        no CRLF. Raises :class:`Corrupt` (nothing changed) when the chain still fails after the
        conversion: then more than the line endings was changed.
        """
        path = self.existing_path(game)
        with locked(path):
            data = path.read_bytes()
            if b"\r\n" not in data:
                return None
            restored = data.replace(b"\r\n", b"\n")
            prev = GENESIS_HASH
            for seq, line in enumerate(restored.split(b"\n")[:-1], 1):
                problem = line_problem(line, seq, prev)
                if problem:
                    raise Corrupt(game, seq, f"{problem}, even with its line endings restored: "
                                  "more than the line endings was changed; nothing was changed")
                prev = line[-66:-2].decode()
            backup = self.backup(path, "crlf")
            scratch = path.with_name(f".{path.name}.{os.getpid()}.restoring")
            try:
                with open(scratch, "wb") as handle:
                    handle.write(restored)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(scratch, path)
            finally:
                scratch.unlink(missing_ok=True)
        fsync_dir(self.games_dir)
        return backup

    def backup(self, path: Path, why: str) -> Path:
        """A copy of the log ``path`` beside it, named for ``why`` and when; returns its path."""
        backup = path.with_name(f"{path.name}.{why}-{utc_stamp().replace(':', '')}.bak")
        shutil.copy2(path, backup)
        return backup

    def repair(self, game: str) -> Path | None:
        """Cut off what a crash left half-written, keeping the original file as a backup.

        That is a torn last line and, with it, every line of an append of several events that
        did not reach its last line: an append is kept whole or not at all. Returns the backup,
        or None (and changes nothing) when the log ends with a complete append.
        """
        path = self.existing_path(game)
        data = path.read_bytes()
        if complete_length(data) == len(data):  # nothing to cut: nothing opened for writing
            return None
        with locked(path) as fd:
            data = path.read_bytes()
            keep = complete_length(data)
            if keep == len(data):
                return None
            backup = self.backup(path, "torn")
            os.ftruncate(fd, keep)
            os.fsync(fd)
        fsync_dir(self.games_dir)
        return backup


# -- helpers -------------------------------------------------------------------------------------


def build_lines(
    drafts: Sequence[Draft], head: Head, at: str | Sequence[str] | None
) -> tuple[bytes, list[Record]]:
    """The bytes of the lines that follow ``head``, and their records."""
    stamps = [at] * len(drafts) if at is None or isinstance(at, str) else list(at)
    lines: list[bytes] = []
    records: list[Record] = []
    prev = head.hash
    last = len(drafts) - 1
    for offset, ((actor, event), stamp) in enumerate(zip(drafts, stamps, strict=True)):
        seq = head.seq + 1 + offset
        line, record = sealed_record(seq, stamp or utc_stamp(), actor, event_type(event),
                                     encode_payload(event), prev, more=last - offset)
        records.append(record)
        prev = record.hash
        lines.append(line + b"\n")
    return b"".join(lines), records


def line_problem(line: bytes, seq: int, prev: str) -> str:
    """Why a stored line is bad as the ``seq``-th line after hash ``prev``, or ``""``."""
    if not body_hash_matches(line):
        return "its hash does not match its bytes (the line was changed)"
    try:
        record = decode_line(line)
    except msgspec.DecodeError as error:
        return f"the line does not decode ({error})"
    if record.seq != seq:
        return f"seq {record.seq} where {seq} belongs"
    if record.prev != prev:
        return "its prev hash is not the hash of the line before (the chain is broken)"
    return ""


def line_endings_problem(game: str) -> str:
    """What ``verify`` says of a line whose LF was turned into CRLF, its bytes otherwise intact."""
    return ("its line endings were changed to CRLF (as an editor or a copy through Windows does; "
            f"the event itself is intact): run `tabletape repair --line-endings {game}`")


def refuse_changed_line_endings(fd: int, game: str, size: int) -> None:
    """Raise :class:`Corrupt` if the open log holds a CR anywhere: never append to such a file.

    tabletape never writes a CR (JSON escapes one inside a string), so one found is a line
    ending changed to CRLF, on any line, not only the last.
    """
    chunk, offset, newlines = 1 << 20, 0, 0
    while offset < size:
        block = os.pread(fd, min(chunk, size - offset), offset)
        if not block:
            return
        at = block.find(b"\r")
        if at >= 0:
            seq = newlines + block.count(b"\n", 0, at) + 1
            raise Corrupt(game, seq, line_endings_problem(game) + "; nothing was written")
        newlines += block.count(b"\n")
        offset += len(block)


def read_head(fd: int, game: str) -> Head:
    """The last complete line of the open log ``fd``, decoded; raises TornTail or Corrupt."""
    size = os.fstat(fd).st_size
    if size == 0:
        raise Corrupt(game, 1, "the file is empty")
    chunk, start = 4096, size
    while True:
        start = max(0, size - chunk)
        tail = os.pread(fd, size - start, start)
        if tail.count(b"\n") >= 2 or start == 0:
            break
        chunk *= 4
    lines = tail.split(b"\n")
    if lines[-1]:  # no newline at the end: a torn write
        seq = head_of(lines[-2], game).seq if len(lines) >= 2 else 0
        raise TornTail(game, seq, len(lines[-1]))
    record = last_record(lines[-2], game)
    if record.more:  # the append that wrote it never reached its last line
        raise UnfinishedAppend(game, record.seq - 1, 1)
    return Head(record.seq, record.hash, record.at)


def last_record(line: bytes, game: str) -> Record:
    """The record of a log's last complete line; raises :class:`Corrupt` if it does not decode."""
    try:
        return decode_line(line)
    except msgspec.DecodeError as error:
        raise Corrupt(game, 0, f"the last line does not decode ({error})") from None


def head_of(line: bytes, game: str) -> Head:
    """The head described by a complete stored line."""
    record = last_record(line, game)
    return Head(record.seq, record.hash, record.at)


def opens_more(line: bytes) -> bool:
    """True when a stored line is not the last of its append (it says ``more``).

    >>> from ledger.codec import GENESIS_HASH, sealed_record
    >>> at = "2026-01-01T00:00:00.000000Z"
    >>> opens_more(sealed_record(1, at, "table", "note", b'{"more":1}', GENESIS_HASH)[0])
    False
    >>> opens_more(sealed_record(1, at, "table", "note", b'{}', GENESIS_HASH, more=1)[0])
    True
    """
    return line[:-SEALED_TAIL].rpartition(b",")[2].startswith(b'"more":')


def complete_length(data: bytes) -> int:
    """How many leading bytes of a log end with a complete append (its last line included)."""
    end = data.rfind(b"\n") + 1  # a torn last line never counts
    while end > 0:
        start = data.rfind(b"\n", 0, end - 1) + 1
        if not opens_more(data[start:end - 1]):
            return end
        end = start
    return end


def shared_lock(fd: int) -> AbstractContextManager[None]:
    """Hold a shared lock on the open log ``fd``: no append is writing meanwhile.

    Never take it on a file this process holds :func:`locked` on (flock would wait forever).
    """
    return flocked(fd, shared=True)


def exclusive(fd: int) -> AbstractContextManager[None]:
    """Hold the exclusive inter-process lock of the open log ``fd`` (no other append, no reader)."""
    return flocked(fd, shared=False)


@contextmanager
def flocked(fd: int, *, shared: bool) -> Iterator[None]:
    """``flock`` the open file ``fd`` for the block (no-op where there is no flock)."""
    if sys.platform == "win32":  # pragma: no cover
        yield
        return
    fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)


@contextmanager
def locked(path: Path) -> Iterator[int]:
    """The log open for appending, under an exclusive inter-process lock."""
    fd = os.open(path, os.O_RDWR | os.O_APPEND)
    try:
        with exclusive(fd):
            yield fd
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """One ``write`` of ``data``; a short write is an error, not a silent tear.

    The OS says why only when a write fails outright, so after a short one the rest is tried
    once: its OSError (disk full, file size limit) is raised as the reason; if it went through,
    a "short write" error is. Either way the caller cuts the file back to where it was.
    """
    written = os.write(fd, data)
    if written != len(data):
        os.write(fd, data[written:])
        raise OSError(errno.ENOSPC, f"short write: {written} of {len(data)} bytes")


def link_new_file(path: Path, data: bytes) -> bool:
    """Write ``data`` as the new file ``path``, whole or not at all; False if ``path`` exists.

    The bytes go to a scratch file of this process first, are fsynced, then hard-linked as
    ``path`` (which fails, changing nothing, when ``path`` exists); the scratch name is removed
    whatever happens.
    """
    scratch = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.creating")
    fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        except OSError as error:
            raise named(error, path) from None
        finally:
            os.close(fd)
        os.link(scratch, path)
    except FileExistsError:
        return False
    finally:
        scratch.unlink(missing_ok=True)
    return True


def named(error: OSError, path: str | Path) -> OSError:
    """``error`` naming the file it happened to (a write on a descriptor names none)."""
    if error.filename is None:
        return OSError(error.errno, error.strerror, str(path))
    return error


def modified(path: Path) -> int:
    """When ``path`` (a link itself, not what it names) last changed; 0 if it is gone."""
    try:
        return path.lstat().st_mtime_ns
    except FileNotFoundError:
        return 0


def fsync_dir(path: Path) -> None:
    """Make a new or renamed file's directory entry durable."""
    if sys.platform == "win32":  # pragma: no cover
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
