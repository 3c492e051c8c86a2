"""The ledger: immutable, hash-chained event logs, one JSON Lines file per game.

It knows no game's rules: it stores envelopes around payloads, chains them, locks, appends,
verifies and repairs.
"""

from tabletape.ledger.codec import GENESIS_HASH, Record, decode_line, utc_stamp
from tabletape.ledger.events import (
    TABLE,
    Event,
    GameStarted,
    Noted,
    Retracted,
    Signed,
    event_type,
)
from tabletape.ledger.store import (
    Corrupt,
    Damaged,
    Draft,
    Head,
    Ledger,
    LedgerError,
    LogFile,
    MissingLedger,
    NotALog,
    Rewritten,
    Snapshot,
    TornTail,
    UnfinishedAppend,
    UnknownGameId,
    Verification,
    VersionConflict,
    default_root,
    os_failure,
)

__version__ = "0.1.0"
"""tabletape's version, recorded in every game-started event."""

__all__ = [
    "GENESIS_HASH",
    "TABLE",
    "Corrupt",
    "Damaged",
    "Draft",
    "Event",
    "GameStarted",
    "Head",
    "Ledger",
    "LedgerError",
    "LogFile",
    "MissingLedger",
    "NotALog",
    "Noted",
    "Record",
    "Retracted",
    "Rewritten",
    "Signed",
    "Snapshot",
    "TornTail",
    "UnfinishedAppend",
    "UnknownGameId",
    "Verification",
    "VersionConflict",
    "__version__",
    "decode_line",
    "default_root",
    "event_type",
    "os_failure",
    "utc_stamp",
]
