"""What every ``--json`` output looks like, as msgspec Structs: the source of ``tabletape schema``.

The commands build most of their JSON as dicts; these Structs only describe it (nothing here
prints), and ``tests/test_i16_schema*.py`` validates the real output of every command against
the schema made from them, so the two cannot drift apart. Where a command already prints a
Struct (``audit``'s :class:`~tabletape.replay.audit.AuditReport`, ``sync``'s
:class:`~tabletape.queries.sync.SyncReport`...) that Struct is its shape.

A shape is closed (a key not listed is an error) unless it derives from :class:`Open`: the
``status`` shape and its players, to which each game adds keys of its own. Every key of a shape
is always printed, unless the Struct says ``omit_defaults`` (the error line's ``hint``...).

>>> sorted(OUTPUTS)[:4]
['actions', 'archive', 'audit', 'delete']
>>> OUTPUTS["status"].commands
('status GAME --json',)
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NamedTuple

import msgspec
from msgspec import Meta

from tabletape.ledger.events import Drawn
from tabletape.ledger.heads import Checked
from tabletape.ledger.keys import KeyInfo, LedgerKey
from tabletape.ledger.transfer import Imported
from tabletape.queries.series import GameSeries
from tabletape.queries.sync import SyncReport
from tabletape.replay.audit import AuditReport
from tabletape.replay.diff import Change
from tabletape.replay.narrate import NarratedEvent
from tabletape.rules.kernel import ActionSpec

__all__ = ["OUTPUTS", "Closed", "Open", "Output", "commands_described"]

UTC_TIME = Annotated[str, Meta(
    pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z$",
    extra_json_schema={"format": "date-time"},
    description="UTC, RFC 3339 with microseconds and Z: 2026-11-29T14:57:13.123456Z.")]
"""A time as tabletape writes it (:func:`tabletape.ledger.codec.utc_stamp`)."""
HASH = Annotated[str, Meta(pattern=r"^[0-9a-f]{64}$", description="SHA-256, 64 hex digits.")]
SEQ = Annotated[int, Meta(ge=1, description="An event's position in its log, from 1.")]
COUNT = Annotated[int, Meta(ge=0)]
PAYLOAD = dict[str, Any]
"""An event's fields as stored (``tabletape schema KIND`` describes each game's)."""


class Closed(msgspec.Struct, kw_only=True):
    """A shape whose keys are all listed: a key it does not name is an error."""


class Open(msgspec.Struct, kw_only=True):
    """A shape that games extend with keys of their own (allowed, not listed)."""


# -- the game now ----------------------------------------------------------------------------------


class PlayerFigures(Open):
    """One player's figures in ``status --json``; each game adds its own (``coins``, ``hand``)."""

    name: str
    """The player's name, as typed at ``new``."""


class Status(Open):
    """``status --json``: where the game stands; each game adds its own keys after these."""

    game: str
    """The game id."""
    kind: str
    """The game kind, e.g. ``risk-strike``."""
    uid: str
    """The game's global identity, a UUIDv7 (``game`` is its handle); a log from before
    identities has ``uuid5(namespace, hash of its first line)``."""
    turn: COUNT
    """1 for the first player turn; 0 during setup."""
    round: COUNT
    """1 for the first round; 0 during setup."""
    phase: str
    """Where the turn is, in table words."""
    active: list[str]
    """Who is expected to act now."""
    finished: bool
    winners: list[str]
    """Who won (empty while the game goes on, or when nobody won)."""
    players: list[PlayerFigures]
    """Per-player figures, in seat order."""
    team: str | None
    """The winning team or side, where the game has teams; else null."""
    reason: str
    """How the game ended, or "" while it goes on."""
    seq: SEQ
    """The latest event."""
    head: str
    """The log's head as a fingerprint to note (``412:7KQ2-M4XD-9PRA``): ``tabletape verify
    GAME --head`` proves the log still extends it."""


# -- recording -------------------------------------------------------------------------------------


class NewGame(Closed):
    """``new --json`` and ``demo --json``: the game made."""

    game: str
    """The new game's id."""


class Simulated(Closed):
    """``simulate --json``: the bot games recorded."""

    games: list[str]
    """Their ids, in the order they were played."""


class StoredEvent(Closed):
    """One event a recorded line stored."""

    seq: SEQ
    actor: str
    type: str
    payload: PAYLOAD
    drawn: Drawn | None
    """tabletape's mark on an event whose chance it drew (``{"roll", "filled"}``: its effective
    roll index and the fields it filled in), else null (the table entered them)."""


class Recorded(StoredEvent):
    """``record --json``: the last event the line stored (the top-level keys), every event it
    stored (``records``), and the game after it."""

    records: list[StoredEvent]
    """Every event the line stored, in order (one per step of a line that gives several)."""
    status: Status


class UndoResult(Closed):
    """``undo --json``: the seq taken back, who took it back, the game after it."""

    undone: SEQ
    by: str
    status: Status


class Revealed(Closed):
    """``reveal --json``: the game whose dice secret is now in its log, and at which event."""

    game: str
    revealed_at: SEQ


class RedoResult(StoredEvent):
    """``redo --json``: the new event, the seq of the action it records again, the game after."""

    redone: SEQ
    status: Status


class RecordedLine(Recorded):
    """One line of ``record GAME - --json`` (JSON Lines) for an action line."""

    line: Annotated[int, Meta(ge=1)]
    """The line's number in the input."""


class UndoLine(UndoResult):
    """One line of ``record GAME - --json`` for an ``undo`` line."""

    line: Annotated[int, Meta(ge=1)]


class RedoLine(RedoResult):
    """One line of ``record GAME - --json`` for a ``redo`` line."""

    line: Annotated[int, Meta(ge=1)]


class NoteResult(Closed):
    """``note --json``: the note stored."""

    seq: SEQ
    actor: str
    text: str
    about: int | None
    """The seq the note is about, or null."""


# -- the log and the ledger ------------------------------------------------------------------------


class LogRow(Closed):
    """One event of ``log --json``."""

    seq: SEQ
    at: UTC_TIME
    actor: str
    type: str
    payload: PAYLOAD
    retracted: bool | None
    """Whether an undo took it back; null from the first bad line of a damaged log on."""
    redo_of: int | None
    """The seq a redo recorded again, else null."""
    drawn: Drawn | None
    """tabletape's mark on an event whose dice it drew (``{"roll", "filled"}``: its effective
    roll index and the fields it filled in), else null (the table entered them)."""
    prev: HASH
    hash: HASH
    verified: bool
    """False from the first bad line of a damaged log on."""


class GameRow(Closed, omit_defaults=True):
    """One game of ``list --json``."""

    game: str
    kind: str
    """The game kind, or ``?`` when the first line cannot be read."""
    uid: str
    """The game's global identity (as ``status --json`` gives it), "" when the first line cannot
    be read."""
    players: list[str]
    events: COUNT
    started: str
    """When the first event was recorded ("" when it cannot be read)."""
    updated: str | None
    """When the latest event was recorded."""
    parent: str | None
    """The game it was forked from, if any."""
    fork_seq: int | None
    damaged: str
    """"" for a log that verifies, else what ``verify`` says (``event N: why``)."""
    first_bad_seq: int | None
    archived: str | None = None
    """When the game was archived (UTC): only in ``list --archived``, only for archived games."""


class GameKind(Closed):
    """One game kind of ``games --json``."""

    kind: str
    title: str
    aliases: list[str]
    players: tuple[int, int]
    """The fewest and most players."""
    rules_version: str
    tabletape_version: str
    id_prefix: str
    parts: list[str]
    """What the game's manifest names besides its rules (``view``, ``narrate``, ``demo``...)."""


class Repaired(Closed):
    """``repair --json`` (``--line-endings`` too)."""

    game: str
    repaired: bool
    backup: str | None
    """The copy kept, or null when nothing changed."""
    events: int | None


# -- replay ----------------------------------------------------------------------------------------


class GameFile(Closed):
    """A file made of a game: the page (``replay GAME --html FILE --json``), the board's
    picture (``status GAME --picture FILE --json``)."""

    game: str
    file: str


class Forked(Closed):
    """``fork --json``: the new game, where it comes from, the game now."""

    game: str
    parent: str
    fork_seq: SEQ
    carried_undos: COUNT
    status: Status


class DiffPoint(Closed):
    """One end of a ``diff``: the point as typed and the seq it is at."""

    point: str
    seq: SEQ


class Diff(Closed):
    """``diff --json``: what changed between two points (keys are dotted paths into the
    ``status`` shape, players by name)."""

    game: str
    start: DiffPoint = msgspec.field(name="from")
    end: DiffPoint = msgspec.field(name="to")
    changes: list[Change]


# -- queries ---------------------------------------------------------------------------------------


class StatsReport(Closed):
    """One report of ``stats --json``."""

    report: str
    title: str
    columns: list[str]
    rows: list[dict[str, Any]]
    """One object per row, keyed by column (every column, ``kind`` included)."""
    notes: list[str]


class ExportedLog(Closed):
    """``export GAME --jsonl FILE --json``."""

    game: str
    events: COUNT
    file: str


class ExportedTables(Closed):
    """``export --parquet DIR --json``: rows written per table."""

    directory: str
    tables: dict[str, int]


class ExportedSite(Closed):
    """``export --html DIR --json``: the site written and the games left out of it."""

    directory: str
    games: COUNT
    """Games listed on the index, each with its page."""
    pages: list[str]
    """Every page written, relative to ``directory``: ``index.html`` first."""
    left_out: dict[str, str]
    """Game id -> why it was left out (its log does not verify or does not fold)."""


class ExportedPlays(Closed):
    """``export [GAME] --bgstats FILE --json`` and ``--bgg-xml FILE --json``: the plays
    written for the app, and the games left out with why."""

    format: Literal["bgstats", "bgg-xml"]
    file: str
    plays: list[str]
    """The game ids exported."""
    left_out: dict[str, str]
    """Game id -> why it was left out (``simulated``, ``not finished``...)."""


class PlayLink(Closed):
    """``export GAME --bgstats-link --json``: BG Stats' create-play link and what it carries."""

    game: str
    link: str
    """``https://app.bgstatsapp.com/createPlay.html?data=…`` (with ``--app-link`` the
    ``bgstats://`` form)."""
    app_link: str
    """The same link in the app's own scheme: ``bgstats://app.bgstatsapp.com/createPlay.html?…``"""
    data: dict[str, Any]
    """The play as the link carries it (BG Stats' own format)."""


class Imports(Closed):
    """``import --json``: what was imported, refused (file -> why), or fine but held back."""

    imported: list[Imported]
    refused: dict[str, str]
    not_imported: list[Imported]
    registered_keys: dict[str, list[str]]
    """Name -> the key fingerprints the ledger registered from the imported games' signatures
    (names it knew no key for)."""


# -- errors, warnings and the schemas themselves ---------------------------------------------------


class ErrorLine(Closed, omit_defaults=True):
    """An error under ``--json`` (any command): one object on standard error, with the exit
    status beside it."""

    error: str
    """The line people read without ``--json``."""
    exit_code: Annotated[int, Meta(ge=1)]
    """2 input not understood, 1 refused, damaged or failed."""
    kind: str
    """The error's class: ``UnknownGameId``, ``IllegalAction``, ``PermissionError``..."""
    hint: str = ""
    """What to do, when there is something to say."""
    line: int = 0
    """A batch (``record GAME -``): the refused line's number."""
    recorded: int = 0
    """A batch: the lines recorded before the refused one."""


class WarningLine(Open, omit_defaults=True):
    """A warning under ``--json`` (any command): one object on standard error; the command
    goes on. Besides ``warning``, what the warning is about, in keys of its own (open)."""

    warning: str
    left_out: dict[str, str] = {}
    """The games the catalog leaves out -> why."""
    kind: str = ""
    """The game kind it is about (an apps export: a kind without a BoardGameGeek id)."""


class SchemaFiles(Closed):
    """``schema --output DIR --json``: the files written."""

    directory: str
    files: list[str]
    """Paths relative to the directory, ``index.json`` included."""


# -- heads and signatures ------------------------------------------------------------------------


class GameHead(Closed):
    """``head GAME --json``: the log's head."""

    game: str
    seq: SEQ
    hash: HASH
    at: UTC_TIME
    fingerprint: str
    """``412:7KQ2-M4XD-9PRA``: what ``verify GAME --head`` takes."""


class HeadOfGame(Closed):
    seq: SEQ
    hash: HASH
    fingerprint: str


class WholeHead(Closed):
    """``head --all --json``: the ledger's head over every game that verifies."""

    fingerprint: str
    """``L37:7KQ2-M4XD-9PRA``: what ``verify --all --head`` takes."""
    root: HASH
    """The Merkle root over every game's (id, head hash), sorted by id."""
    games: COUNT
    at: UTC_TIME
    remembered: bool
    """Whether the ledger's history of heads holds it (false on a read-only ledger)."""
    heads: dict[str, HeadOfGame]
    left_out: dict[str, str]
    """Games that fail verification (left out of the root) -> why."""


class ArchiveResult(Closed):
    """``archive --json``: the game archived, or restored (``--restore``)."""

    game: str
    archived: bool
    """True after ``archive``, false after ``archive --restore``."""
    at: UTC_TIME
    """When it was archived."""
    seq: int
    """Its events when it was archived (archiving adds none)."""
    head: str
    """Its head then, as a fingerprint ("" for a log damaged from its first line)."""


class DeleteResult(Closed):
    """``delete --json``: the game deleted and the ledger's head without it."""

    game: str
    uid: str
    events: int
    """Events of its log that verified when it was deleted."""
    at: UTC_TIME
    head: str
    """Its head when deleted, as a fingerprint: what the ledger's head history keeps."""
    ledger_head: str
    """The ledger's head without it (``L36:…``), remembered with the deletion."""


class SignResult(Closed):
    """``sign --json``: the signature event stored."""

    game: str
    seq: SEQ
    """The signature event's seq."""
    signer: str
    signed_seq: SEQ
    fingerprint: str
    """The head vouched for."""
    key: str
    """The key's fingerprint (``ed25519:K7PQ-2M4X``)."""
    registered: bool
    """True when the ledger learnt this key as the signer's now."""
    head: str
    """The log's head now (the signature event) as a fingerprint: the one to note."""


# -- the table of outputs --------------------------------------------------------------------------


class Output(NamedTuple):
    """One ``--json`` output: its shape and the command lines that print it (the command first).

    ``shape`` is a type msgspec describes, or a tuple of them: the output is one of those (msgspec
    makes no union of untagged Structs)."""

    shape: Any
    commands: tuple[str, ...]
    title: str


OUTPUTS: dict[str, Output] = {
    "games": Output(list[GameKind], ("games --json",), "The game kinds tabletape knows"),
    "new": Output(NewGame, ("new KIND --json",), "The game started"),
    "demo": Output(NewGame, ("demo --json",), "The example game recorded"),
    "simulate": Output(Simulated, ("simulate KIND --json",), "The bot games recorded"),
    "record": Output(Recorded, ("record GAME ACTION --json",), "What one action line stored"),
    "record-lines": Output((RecordedLine, UndoLine, RedoLine), ("record GAME - --json",),
                           "One JSON line per line of a batch"),
    "undo": Output(UndoResult, ("undo GAME --json",), "The action taken back"),
    "redo": Output(RedoResult, ("redo GAME --json",), "The action recorded again"),
    "reveal": Output(Revealed, ("reveal GAME --json",), "The dice secret revealed"),
    "status": Output(Status, ("status GAME --json",), "The game now"),
    "status-picture": Output(GameFile, ("status GAME --picture FILE --json",),
                             "The board picture written"),
    "log": Output(list[LogRow], ("log GAME --json",), "Every event of a game"),
    "actions": Output(list[ActionSpec], ("actions GAME --json",),
                      "What may be recorded now, by whom, with which fields"),
    "list": Output(list[GameRow], ("list --json",), "The games in the ledger"),
    "verify": Output(list[Checked], ("verify GAME --json", "verify --all --json",
                                     "verify GAME --head FP --json"),
                     "Each log's hash chain, signatures and fork point checked"),
    "head": Output(GameHead, ("head GAME --json",), "A log's head, as a fingerprint to note"),
    "head-all": Output(WholeHead, ("head --all --json",), "The ledger's head (a Merkle root)"),
    "sign": Output(SignResult, ("sign GAME --key NAME --json",), "The signature event stored"),
    "key": Output((KeyInfo, list[KeyInfo]), ("key new NAME --json", "key list --json"),
                  "A key pair made, or the key pairs there are"),
    "key-ledger": Output(list[LedgerKey], ("key list --ledger L --json",),
                         "The names and keys a ledger registered or holds signatures of"),
    "repair": Output(Repaired, ("repair GAME --json",), "What repair cut or restored"),
    "archive": Output(ArchiveResult, ("archive GAME --json", "archive GAME --restore --json"),
                      "The game archived or restored"),
    "delete": Output(DeleteResult, ("delete GAME --yes --json",),
                     "The game deleted, and the ledger's head without it"),
    "replay": Output(Status, ("replay GAME --at POINT --json",), "The game at a point"),
    "replay-html": Output(GameFile, ("replay GAME --html FILE --json",), "The page written"),
    "replay-narrate": Output(list[NarratedEvent], ("replay GAME --narrate --json",),
                             "The game in table words, one item per event"),
    "fork": Output(Forked, ("fork GAME --at POINT --json",), "The what-if game started"),
    "diff": Output(Diff, ("diff GAME --json",), "What changed between two points"),
    "note": Output(NoteResult, ("note GAME TEXT --json",), "The note stored"),
    "audit": Output((AuditReport, list[AuditReport]), ("audit GAME --json", "audit --all --json"),
                    "A game proved intact and legal (a list with --all)"),
    "sql": Output(list[dict[str, Any]], ("sql QUERY --json", "sql QUERY --format json"),
                  "The rows, one object each"),
    "sql-jsonl": Output(dict[str, Any], ("sql QUERY --format jsonl",), "One row a line"),
    "sync": Output(SyncReport, ("sync --json",), "What a catalog sync did"),
    "plot": Output(GameSeries, ("plot GAME --json",),
                   "A game's standings over time, its dice and its battles"),
    "stats": Output((StatsReport, list[StatsReport]), ("stats REPORT --json", "stats --json"),
                    "A report (a list of them without REPORT)"),
    "export": Output((ExportedLog, ExportedTables, ExportedSite, ExportedPlays, PlayLink),
                     ("export GAME --jsonl FILE --json", "export --parquet DIR --json",
                      "export --html DIR --json",
                      "export [GAME] --bgstats FILE --json", "export [GAME] --bgg-xml FILE --json",
                      "export GAME --bgstats-link --json"),
                     "What was exported"),
    "import": Output(Imports, ("import FILE --json",), "What was imported"),
    "schema": Output(Any, ("schema NAME", "schema"),
                     "A JSON Schema, or a bundle of them under $defs"),
    "schema-output": Output(SchemaFiles, ("schema --output DIR --json",),
                            "The schema files written"),
    "error": Output(ErrorLine, (), "An error, on standard error"),
    "warning": Output(WarningLine, (), "A warning, on standard error"),
}
"""Every ``--json`` output by its schema name (``tabletape schema NAME``)."""


def commands_described() -> set[str]:
    """The commands whose ``--json`` output has a schema here.

    >>> {"status", "sql", "schema"} <= commands_described()
    True
    """
    return {line.split()[0] for output in OUTPUTS.values() for line in output.commands}
