"""A ledger: a folder holding one append-only, hash-chained JSON Lines file per game.

>>> import tempfile
>>> from tabletape.ledger.events import GameStarted, Noted
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
import hashlib
import os
import re
import secrets
import shutil
import stat
import sys
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import msgspec

from tabletape.ledger.codec import (
    GENESIS_HASH,
    HASH_FIELD,
    SEALED_TAIL,
    Record,
    body_hash_matches,
    decode_line,
    encode_payload,
    sealed_record,
    utc_stamp,
)
from tabletape.ledger.errors import USAGE_EXIT, TabletapeError
from tabletape.ledger.events import TABLE, Event, GameStarted, event_type
from tabletape.ledger.text import did_you_mean

Draft = tuple[str, Event]
"""What a caller appends: ``(actor, event)``; the ledger adds seq, time and hashes."""

ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
"""Letters of game ids: no 0/o, 1/l/i, so an id read aloud at the table is typed right."""

MAX_ID_BYTES = 160
"""The longest game id (UTF-8 bytes): its file, scratch and backup names all fit the 255 bytes
file systems allow a name."""

MAX_CHOSEN_ID = 40
"""The longest game id a person chooses (``--id``): ids are typed at the table."""

_records_decoder = msgspec.json.Decoder(Record)

SECRET_NAME = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
"""A game identity a secret file may be named after (a UUID, lowercase)."""


class LedgerError(TabletapeError):
    """Base of the ledger's errors (exit 1: a damaged or changed log, a refused append)."""


class UnknownGameId(LedgerError):
    """No log for that game id in this ledger."""

    exit_code = USAGE_EXIT


class MissingLedger(LedgerError):
    """The ledger folder does not exist (or is a file): read commands never make one."""

    exit_code = USAGE_EXIT


class BadGameId(LedgerError):
    """A chosen game id (``--id``) outside the alphabet of the ids tabletape draws."""

    exit_code = USAGE_EXIT


def check_game_id(game: str) -> None:
    """Refuse a chosen id unless it is written like the ids tabletape draws: lowercase letters
    a-z and digits, in words joined by single hyphens, at most :data:`MAX_CHOSEN_ID` long.

    >>> check_game_id("rs-k7pq")
    >>> check_game_id("My Game!")
    Traceback (most recent call last):
    ...
    tabletape.ledger.store.BadGameId: game id 'My Game!' is not written like rs-k7pq: use ...
    """
    words = game.split("-")
    if len(game) > MAX_CHOSEN_ID or not all(w and w.isascii() and w.isalnum() and w == w.lower()
                                            for w in words):
        raise BadGameId(f"game id '{game[:MAX_CHOSEN_ID + 10]}' is not written like rs-k7pq: "
                        "use lowercase letters a-z and digits, in words joined by single "
                        f"hyphens, at most {MAX_CHOSEN_ID} characters")


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
ELSEWHERE_ADVICE: dict[int, str] = {
    errno.EROFS: "write it somewhere writable",
    errno.EACCES: "check the owner and permissions of that file or folder, or write elsewhere",
    errno.ENOTDIR: "check the path",
    errno.EEXIST: "check the path",
}
"""The advice for a file outside any ledger (an export, a query's output), where "--ledger" would
mislead."""
ELSEWHERE_ADVICE[errno.EPERM] = ELSEWHERE_ADVICE[errno.EACCES]


def in_a_ledger(path: Path) -> bool:
    """True when ``path`` looks like part of a ledger: its games folder, a log, its catalog, its
    private area.

    >>> in_a_ledger(Path("/l/games/x.jsonl")), in_a_ledger(Path("/tmp/out.csv"))
    (True, False)
    >>> in_a_ledger(Path("/l/private")), in_a_ledger(Path("/l/private/dice/u.secret"))
    (True, True)
    """
    return ("games" in path.parts[-2:] or "private" in path.parts[-3:]
            or path.name.startswith("catalog.duckdb"))


def os_failure(error: OSError) -> str:
    """One line for people: what the operating system refused, where, and what to do.

    >>> print(os_failure(OSError(errno.EROFS, "Read-only file system", "/l/games/x.jsonl")))
    /l/games/x.jsonl: the file system is read-only; nothing was changed: use a writable --ledger
    """
    what, advice = OS_FAILURES.get(error.errno or 0, (error.strerror or str(error), ""))
    if error.filename and not in_a_ledger(Path(shown_path(error.filename))):
        advice = ELSEWHERE_ADVICE.get(error.errno or 0, advice)
    elif error.filename and error.errno in (errno.ENOTDIR, errno.EEXIST):
        advice = private_advice(Path(os.fsdecode(error.filename))) or advice
    where = f"{shown_path(error.filename)}: " if error.filename else ""
    return f"{where}{what}; nothing was changed" + (f": {advice}" if advice else "")


def private_advice(path: Path) -> str:
    """What to do when a file stands where the ledger's private folder belongs ("" when the
    path is not in the private area).

    >>> print(private_advice(Path("/l/private/dice")))
    /l/private must be a folder (the ledger keeps its dice secrets in it): move that file away
    >>> private_advice(Path("/l/games"))
    ''
    """
    parts = path.parts
    if "private" not in parts[-3:]:
        return ""
    folder = Path(*parts[:len(parts) - parts[::-1].index("private")])
    return (f"{folder} must be a folder (the ledger keeps its dice secrets in it): move that "
            "file away")


SCRATCH_SUFFIXES = (".creating", ".importing")
"""Endings of the hidden scratch files a new log is written to before it is linked into place."""


def shown_path(filename: str | bytes | os.PathLike[str]) -> str:
    """The path an OS error names, as people should read it: a scratch file is its folder.

    >>> shown_path("/l/games/.rs-k7pq.jsonl.123-ab.creating"), shown_path("/l/games/x.jsonl")
    ('/l/games', '/l/games/x.jsonl')
    """
    path = Path(os.fsdecode(filename))
    if path.name.startswith(".") and path.name.endswith(SCRATCH_SUFFIXES):
        return str(path.parent)
    return str(path)


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


class Damaged(Corrupt):
    """A stored line fails verification (changed after it was recorded, or the chain is broken).

    The message is what ``verify`` says of the first bad line; nothing is read past it.
    """

    def __init__(self, verification: Verification) -> None:
        game, seq = verification.game, verification.first_bad_seq or 1
        LedgerError.__init__(
            self,
            f"game {game} fails verification at event {seq}: {verification.problem}; run "
            f"`tabletape verify {game}` (`tabletape repair {game}` says what can be done)",
        )
        self.seq = seq
        self.problem = verification.problem
        self.verification = verification


class Rewritten(LedgerError):
    """A log no longer begins with the events read from it before: rewritten or cut short."""

    def __init__(self, game: str, seq: int) -> None:
        super().__init__(
            f"game {game} no longer begins with the {seq} events read from it before (event "
            f"{seq} is missing or has another hash): the log was rewritten or cut short; run "
            f"`tabletape verify {game}`"
        )
        self.seq = seq


class Head(msgspec.Struct, frozen=True):
    """The latest event of a log."""

    seq: int
    hash: str
    at: str


class LogFile(msgspec.Struct, frozen=True):
    """A log file of the ledger as listed: its game, path, size and modification time."""

    game: str
    path: Path
    size: int
    mtime_ns: int


class Snapshot(msgspec.Struct, frozen=True):
    """A consistent read of one log: its records, whose chain verified, and the head it ends at.

    ``records`` is the whole log (a fold needs every event); :meth:`after` gives those past a
    head read before (what an incremental reader adds).
    """

    game: str
    records: list[Record]
    head: Head

    def after(self, head: Head | None) -> list[Record]:
        """The records past ``head`` (all of them without one)."""
        return self.records[head.seq:] if head is not None else self.records


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


ARCHIVED_FILE = "archived.json"
"""The ledger's list of archived games (``tabletape archive``), beside ``games/``."""


class ArchivedGame(msgspec.Struct, frozen=True, kw_only=True):
    """An archived game as the ledger lists it: when, and its head then."""

    at: str
    """When it was archived (UTC)."""
    seq: int
    head: str
    """The hash of its last event then (its log is never changed by archiving)."""


class BadArchiveList(LedgerError):
    """The ledger's ``archived.json`` cannot be read (edited by hand)."""


_archived_decoder = msgspec.json.Decoder(dict[str, ArchivedGame])


def archived_path(root: Path) -> Path:
    return root / ARCHIVED_FILE


def read_archived(root: Path) -> dict[str, ArchivedGame]:
    """The archived games of the ledger at ``root`` by id (none when it has no list)."""
    path = archived_path(root)
    try:
        data = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return {}
    try:
        return _archived_decoder.decode(data)
    except msgspec.DecodeError as error:
        raise BadArchiveList(f"{path} cannot be read ({error}): restore it from a backup, or "
                             "remove it to restore every archived game") from None


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

    def require(self) -> None:
        """Raise :class:`MissingLedger` unless the ledger folder exists (commands that only
        read call it, so a mistyped ``--ledger`` is said, never silently an empty ledger)."""
        problem = self.missing()
        if problem:
            raise MissingLedger(problem)

    def missing(self) -> str:
        """Why there is no ledger at :attr:`root` (it does not exist, it is a file), or ``""``."""
        if self.root.is_dir():
            return ""
        if self.root.exists():
            return (f"--ledger {self.root} is a file, not a ledger folder: name a folder "
                    "(a new one is made by `tabletape new`)")
        return (f"there is no ledger at {self.root} (the folder does not exist): check --ledger "
                "or TABLETAPE_LEDGER, or start a game there with `tabletape new`")

    def unknown_game_message(self, game: str) -> str:
        missing = self.missing()
        if missing:
            return f"no game '{game}': {missing}"

        ids = self.game_ids()
        known = ", ".join(ids[-8:]) if ids else "none yet; start one with `tabletape new`"
        return f"no game '{game}' in ledger {self.root}{did_you_mean(game, ids)}; games: {known}"

    def game_ids(self, *, archived: bool = False) -> list[str]:
        """Every game id in the ledger, oldest file first: archived games
        (:meth:`archived`) only with ``archived`` (ledger heads and ``verify --all`` cover
        them; the catalog, ``list`` and the exports do not)."""
        if not self.games_dir.is_dir():
            return []
        files = sorted(self.games_dir.glob("*.jsonl"), key=lambda p: (modified(p), p.name))
        ids = [p.stem for p in files if not p.name.startswith(".")]
        put_away = set() if archived else set(self.archived())
        return [game for game in ids if game not in put_away]

    def archived(self) -> dict[str, ArchivedGame]:
        """The games archived (``tabletape archive``) by id: their logs stay in ``games/``,
        untouched, and are left out of the catalog, stats and exports until restored."""
        return read_archived(self.root)

    def chosen(self, game: str | None, *, archived: bool = False) -> list[str]:
        """``[game]`` if it has a log here, or with ``None`` every game of the (existing)
        ledger (archived ones too with ``archived``): what ``verify`` and ``audit`` check,
        ``GAME`` or ``--all``."""
        if game is not None:
            return [self.existing_path(game).stem]
        self.require()
        return self.game_ids(archived=archived)

    def new_game_id(self, prefix: str) -> str:
        """A short id not yet used here, e.g. ``rs-k7pq``."""
        for length in (4, 4, 4, 5, 6, 8):
            candidate = f"{prefix}-" + "".join(secrets.choice(ID_ALPHABET) for _ in range(length))
            if not self.path(candidate).exists():
                return candidate
        raise LedgerError("could not find a free game id")  # pragma: no cover

    # -- the private area: what no log may hold yet --------------------------------------------

    def give_identity(self) -> None:
        """Give the ledger its identity (``private/ledger-id``) if it has none: receipts then
        follow the ledger when it is moved (:func:`tabletape.ledger.identity.ledger_id`)."""
        from tabletape.ledger.identity import ledger_id

        ledger_id(self.root, make=True)

    @property
    def private_dir(self) -> Path:
        """``<ledger>/private``: readable by its owner only, never exported, never synced."""
        return self.root / "private"

    def secret_path(self, uid: str) -> Path:
        """Where the dice secret of the game with global id ``uid`` is kept."""
        if not SECRET_NAME.fullmatch(uid):
            raise LedgerError(f"'{uid}' is not a game identity (a UUID)")
        return self.private_dir / "dice" / f"{uid}.secret"

    def keep_secret(self, uid: str, secret: bytes) -> Path:
        """Keep a new game's dice secret: mode 0600 in folders of mode 0700, written whole
        under a scratch name, fsynced, then linked into place (never over another secret)."""
        path = self.secret_path(uid)
        for folder in (self.private_dir, path.parent):
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(folder, 0o700)
        if not link_new_file(path, secret.hex().encode() + b"\n", mode=0o600):
            raise LedgerError(f"a dice secret is already kept for game {uid}")
        fsync_dir(path.parent)
        return path

    def secret(self, uid: str) -> bytes | None:
        """The kept dice secret of game ``uid``; None when there is none (lost, or never kept
        here: a game imported from another ledger) or it cannot be read."""
        if not SECRET_NAME.fullmatch(uid):
            return None
        try:
            text = self.secret_path(uid).read_bytes().strip()
            return bytes.fromhex(text.decode("ascii"))
        except (OSError, ValueError):
            return None

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
        failure (a full disk) or a crash leaves no game at all, never a half-made one. A chosen
        ``game_id`` must be written like a drawn one (:func:`check_game_id`); without it a fresh
        id is drawn (``prefix``-xxxx; another is drawn if a process takes it
        first). ``started`` is stored as given: the commands that start games give it a ``uid``
        (:mod:`tabletape.ledger.identity`). Raises :class:`LedgerError` when ``game_id`` is
        taken.
        """
        posix_locks()  # refused here too: no game is started that could never be appended to
        if game_id is not None:
            check_game_id(game_id)
        first_at = at or utc_stamp()
        line, first = sealed_record(1, first_at, TABLE, event_type(started),
                                    encode_payload(started), GENESIS_HASH)
        data = line + b"\n"
        if then:
            data += build_lines(then, Head(1, first.hash, first_at), then_at)[0]
        self.games_dir.mkdir(parents=True, exist_ok=True)
        self.give_identity()
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
        expected_hash: str | None = None,
        at: str | Sequence[str] | None = None,
    ) -> list[Record]:
        """Append events after ``expected_seq`` in one write and one fsync; return their records.

        Raises :class:`VersionConflict` (nothing written) when the log's head is not
        ``expected_seq``, and :class:`TornTail` when the log needs repair first. Nothing is
        appended after a bad line: the chain is checked from the last verified point, the head
        this ledger wrote, or ``expected_hash`` (the head the caller read through
        :meth:`records`), else the whole log (:class:`Damaged`, :class:`Rewritten`).
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
                if head is not log.head and head.hash != expected_hash:
                    check_log(log.fd, game, size, expected_hash)
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

    def records(self, game: str, *, after: Head | None = None) -> list[Record]:
        """Every record of ``game``, its hash chain verified; decoded in one call.

        The whole file (as it stood under the shared lock) is decoded by msgspec in one go and
        its hashes, links and seqs compared a whole file at a time. With ``after`` (a head
        verified before), only the lines after it are checked, and the log must still hold that
        head (else :class:`Rewritten`). On damage the error names the first bad line as
        ``verify`` does: :class:`Damaged`, or :class:`TornTail` / :class:`UnfinishedAppend`
        when only a crash's leftovers at the end are wrong.
        """
        data = self.snapshot(game)
        records = intact_records(data, after)
        if records is not None:
            return records
        raise damage_of(game, data, after)

    def verified(self, game: str, *, holding: Head | None = None,
                 checked_after: bool = False) -> Snapshot:
        """A consistent snapshot of ``game``'s log: its verified records and the head it ends at.

        The log is read as it stood while no append was writing (the shared lock, as
        :meth:`records`). With ``holding`` (a head read and verified before) the log must still
        hold that head, else :class:`Rewritten`; with ``checked_after`` too, only the lines after
        it are checked (the reader trusts what it verified before: an incremental sync). Damage
        raises what :meth:`records` raises.
        """
        records = self.records(game, after=holding if checked_after else None)
        if holding is not None and not (len(records) >= holding.seq
                                        and records[holding.seq - 1].hash == holding.hash):
            raise Rewritten(game, holding.seq)
        last = records[-1]
        return Snapshot(game, records, Head(last.seq, last.hash, last.at))

    def log_files(self) -> dict[str, LogFile]:
        """Every log of the ledger by game id, with its size and modification time (one scan);
        archived games left out (the catalog drops them)."""
        files: dict[str, LogFile] = {}
        if self.games_dir.is_dir():
            put_away = self.archived()
            for entry in os.scandir(self.games_dir):
                if entry.name.removesuffix(".jsonl") in put_away:
                    continue
                if entry.name.endswith(".jsonl") and entry.is_file():
                    info = entry.stat()
                    game = entry.name.removesuffix(".jsonl")
                    files[game] = LogFile(game, Path(entry.path), info.st_size,
                                          info.st_mtime_ns)
        return files

    def salvage(self, game: str) -> tuple[list[Record], Verification]:
        """What can still be read of a log, damaged or not, and what ``verify`` says of it.

        The records are every line that decodes with the right seq, in order, up to the first
        that does not; only the first ``trusted(records, verification)`` of them verified.
        """
        data = self.snapshot(game)
        records = intact_records(data)
        if records is not None:
            return records, Verification(game=game, ok=True, events=len(records),
                                         head=records[-1].hash)
        records = []
        for line in data.split(b"\n")[:data.count(b"\n")]:
            try:
                record = decode_line(line)
            except msgspec.DecodeError:
                break
            if record.seq != len(records) + 1:
                break
            records.append(record)
        return records, checked(game, data)[0]

    def snapshot(self, game: str) -> bytes:
        """The bytes of ``game``'s log as they stood while no append was writing."""
        path = self.existing_path(game)
        with open(path, "rb") as handle:
            with shared_lock(handle.fileno()):
                size = os.fstat(handle.fileno()).st_size
            return handle.read(size)

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
        try:
            data = self.snapshot(game)
        except NotALog as stray:
            return Verification(game=game, ok=False, events=0, first_bad_seq=1,
                                problem=str(stray), head=GENESIS_HASH)
        except OSError as error:
            return Verification(game=game, ok=False, events=0, first_bad_seq=1,
                                problem=f"cannot read it: {os_failure(error)}", head=GENESIS_HASH)
        return checked(game, data)[0]

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
    for offset, (draft, stamp) in enumerate(zip(drafts, stamps, strict=True)):
        actor, event = draft
        seq = head.seq + 1 + offset
        line, record = sealed_record(seq, stamp or utc_stamp(), actor, event_type(event),
                                     encode_payload(event), prev, more=last - offset,
                                     drawn=getattr(draft, "drawn", None))
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


def chain_intact(lines: Sequence[bytes], records: Sequence[Record], *, seq: int = 1,
                 prev: str = GENESIS_HASH) -> bool:
    """True when ``lines`` (decoded as ``records``) pass ``line_problem``'s checks from ``seq``
    on, after the hash ``prev``.

    The same checks, made fast: each line is hashed once, and the hashes, links and seqs are
    compared a whole file at a time (every hash, stated or computed, is 64 characters, and so is
    every ``prev`` checked to be, so joined hashes are equal exactly when they are equal one by
    one); callers word a refusal with ``line_problem`` when any check fails.
    """
    count = len(lines)
    if len(records) != count:
        return False
    if not count:
        return True
    if min(map(len, lines)) <= SEALED_TAIL:
        return False
    sha256, start = hashlib.sha256, -SEALED_TAIL
    if b"".join([line[start:start + len(HASH_FIELD)] for line in lines]) != HASH_FIELD * count:
        return False
    hashes = b"".join([sha256(line[:start] + b"}").digest() for line in lines]).hex()
    prevs = [record.prev for record in records]
    return (hashes.encode() == b"".join([line[-66:-2] for line in lines])
            and [record.seq for record in records] == list(range(seq, seq + count))
            and set(map(len, prevs)) == {len(GENESIS_HASH)}
            and "".join(prevs) == prev + hashes[:-len(GENESIS_HASH)])


def intact_records(data: bytes, after: Head | None = None) -> list[Record] | None:
    """The records of a whole intact log (its chain checked after ``after``), else None."""
    if not data.endswith(b"\n"):
        return None
    try:
        records = _records_decoder.decode_lines(data)
    except msgspec.DecodeError:
        return None
    if not records or records[-1].more:
        return None
    start = after.seq - 1 if after is not None and after.seq > 0 else 0
    if after is not None and start and (
            len(records) <= start or records[start].hash != after.hash
            or [r.seq for r in records[:start]] != list(range(1, start + 1))):
        return None
    lines = data[:-1].split(b"\n")
    prev = records[start].prev if start else GENESIS_HASH
    return records if chain_intact(lines[start:], records[start:], seq=start + 1,
                                   prev=prev) else None


def trusted(records: Sequence[Record], verification: Verification) -> list[Record]:
    """The records that verified, ending with a whole append (what may be folded or forked)."""
    good = list(records[:verification.events])
    while good and good[-1].more:
        good.pop()
    return good


def checked(game: str, data: bytes) -> tuple[Verification, LedgerError | None]:
    """What ``verify`` says of a log holding ``data``, and the error that names its damage."""
    intact = intact_records(data)
    if intact is not None:
        return Verification(game=game, ok=True, events=len(intact), head=intact[-1].hash), None
    end = data.rfind(b"\n") + 1
    lines = data[:end - 1].split(b"\n") if end else []
    torn = len(data) - end
    prev, seq = GENESIS_HASH, 0
    if not data:
        problem = "the file is empty (no game-started event)"
        verification = Verification(game=game, ok=False, events=0, first_bad_seq=1,
                                    problem=problem, head=prev)
        return verification, Corrupt(game, 1, problem)
    for line in lines:
        seq += 1
        problem = line_problem(line, seq, prev)
        if problem and line.endswith(b"\r") and not line_problem(line[:-1], seq, prev):
            problem = line_endings_problem(game)
        if problem:
            verification = Verification(game=game, ok=False, events=seq - 1, first_bad_seq=seq,
                                        problem=problem, head=prev)
            return verification, Damaged(verification)
        prev = line[-66:-2].decode()
    if torn:
        return (Verification(game=game, ok=False, events=seq, first_bad_seq=seq + 1,
                             problem=f"torn last line ({torn} bytes): run repair", head=prev),
                TornTail(game, seq, torn))
    complete = data[:complete_length(data)].count(b"\n")
    if complete < seq:
        complete_head = lines[complete - 1][-66:-2].decode() if complete else GENESIS_HASH
        return (Verification(game=game, ok=False, events=complete, first_bad_seq=complete + 1,
                             problem=f"an append of several events was cut short by a crash "
                             f"after {seq - complete} of them (never acknowledged): run repair",
                             head=complete_head),
                UnfinishedAppend(game, complete, seq - complete))
    return Verification(game=game, ok=True, events=seq, head=prev), None


def damage_of(game: str, data: bytes, after: Head | None = None) -> LedgerError:
    """Why ``data`` is not an intact log (holding ``after``): the first bad line, or a rewrite."""
    error = checked(game, data)[1]
    if error is not None:
        return error
    if after is not None:
        return Rewritten(game, after.seq)
    return Corrupt(game, 0, "the log could not be read whole; run verify")  # pragma: no cover


def check_log(fd: int, game: str, size: int, expected_hash: str | None) -> None:
    """Raise unless the open log ``fd`` is intact, ending at ``expected_hash`` if given."""
    data = os.pread(fd, size, 0)
    records = intact_records(data)
    if records is None:
        raise damage_of(game, data)
    if expected_hash is not None and records[-1].hash != expected_hash:
        raise Rewritten(game, records[-1].seq)


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

    >>> from tabletape.ledger.codec import GENESIS_HASH, sealed_record
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


class NoFileLocks(LedgerError):
    """This platform has no POSIX file locks (``fcntl``), which every read and append of a log
    takes: tabletape refuses to run there rather than lock nothing (POSIX only: README, Tests)."""


def posix_locks() -> ModuleType:
    """The ``fcntl`` module, or :class:`NoFileLocks` where the platform has none (Windows).

    >>> posix_locks().__name__
    'fcntl'
    """
    try:
        import fcntl
    except ImportError:
        raise NoFileLocks(
            f"this platform ({sys.platform}) has no POSIX file locks (fcntl), which tabletape "
            "takes on every log it reads or appends to: tabletape runs on Linux, macOS and other "
            "POSIX systems (on Windows, run it under WSL)") from None
    return fcntl


@contextmanager
def flocked(fd: int, *, shared: bool) -> Iterator[None]:
    """``flock`` the open file ``fd`` for the block; :class:`NoFileLocks` where there is no
    flock (never a lock that silently does nothing)."""
    fcntl = posix_locks()
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


def link_new_file(path: Path, data: bytes, *, mode: int = 0o644) -> bool:
    """Write ``data`` as the new file ``path``, whole or not at all; False if ``path`` exists.

    The bytes go to a scratch file of this process first, are fsynced, then hard-linked as
    ``path`` (which fails, changing nothing, when ``path`` exists); the scratch name is removed
    whatever happens.
    """
    scratch = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.creating")
    fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
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


def write_atomic(target: Path, text: str | bytes, *, durable: bool = True) -> None:
    """Write ``text`` (UTF-8 when a str) to ``target`` whole or not at all: a scratch file in the
    same folder, then renamed over it (every file tabletape writes for people: a replay page, a
    board picture, an apps export; and the fold cache, not ``durable``: no fsync, a cache lost in
    a crash is rebuilt). An OSError (no folder, no permission, disk full) names ``target`` and
    leaves nothing behind."""
    import tempfile  # here, not at the top: every command imports the store, `record` included

    try:
        descriptor, scratch = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                               suffix=".writing")
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(target)) from None
    try:
        with open(descriptor, "wb") as handle:  # a str's newlines as text mode writes them
            handle.write(text.replace("\n", os.linesep).encode() if isinstance(text, str)
                         else text)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.chmod(scratch, file_mode(target))
        os.replace(scratch, target)
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(target)) from None
    finally:
        Path(scratch).unlink(missing_ok=True)


def file_mode(target: Path) -> int:
    """The mode a written file gets: the one it had, else what the umask leaves of rw-rw-rw-
    (a scratch file is private until then)."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def fsync_dir(path: Path) -> None:
    """Make a new or renamed file's directory entry durable."""
    if sys.platform == "win32":  # pragma: no cover
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
