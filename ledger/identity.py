"""A game's global identity: a UUIDv7 in its first event, beside the short handle people type.

A handle like ``rs-k7pq`` is drawn from 31⁴ per prefix, so two clubs' ledgers can both hold an
``rs-k7pq``; the ``uid`` in a game's ``game-started`` event names the game everywhere. It is a
UUIDv7 (RFC 9562 §5.7): 48 bits of Unix time in milliseconds, then random bits, so identities
sort by when games started. A log written before identities existed has none stored (it is never
rewritten); its identity is ``uuid5(LEGACY_NAMESPACE, <hash of its first line>)``, the same on
every machine that holds that log.

>>> uid = uuid7(ms=1_700_000_000_000, rand=bytes(10))
>>> uid
'018bcfe5-6800-7000-8000-000000000000'
>>> is_uuid7(uid), is_uuid7(legacy_uid("0" * 64))
(True, False)
"""

from __future__ import annotations

import os
import random
import re
import secrets
import time
import uuid
from datetime import datetime
from pathlib import Path

LEGACY_NAMESPACE = uuid.UUID("6f1c1c1e-4b7a-5d2e-9a43-7461626c6574")
"""The namespace of identities derived for logs from before identities (fixed for ever)."""

_UUID7 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def uuid7(ms: int | None = None, rand: bytes | None = None) -> str:
    """A UUIDv7 (RFC 9562 §5.7) for Unix time ``ms`` (default: now) and 10 random bytes.

    ``rand`` defaults to :func:`secrets.token_bytes`; of its 80 bits, 74 are kept (the version
    and variant take the rest).

    >>> a, b = uuid7(ms=1), uuid7(ms=2)
    >>> a < b, a[14], a[19] in "89ab"
    (True, '7', True)
    """
    if ms is None:
        ms = time.time_ns() // 1_000_000
    if not 0 <= ms < 1 << 48:
        raise ValueError(f"a UUIDv7 holds a 48-bit millisecond time, not {ms}")
    tail = int.from_bytes(rand if rand is not None else secrets.token_bytes(10), "big")
    if tail >> 80:
        raise ValueError("a UUIDv7 takes 10 random bytes")
    rand_a = tail >> 68 & 0xFFF  # 12 bits after the version
    rand_b = tail & (1 << 62) - 1  # 62 bits after the variant
    value = ms << 80 | 0x7 << 76 | rand_a << 64 | 0b10 << 62 | rand_b
    return str(uuid.UUID(int=value))


def seeded_uuid7(seed: int, at: str, kind: str) -> str:
    """The UUIDv7 of a simulated game of ``kind``: its random bits drawn from the kind and
    ``seed``, its time ``at``.

    The same kind, seed and start give the same identity, so a simulated log is the same bytes
    every run; games of two kinds simulated with one seed are two games.

    >>> at = "1970-01-02T00:00:00.000000Z"
    >>> seeded_uuid7(7, at, "risk-strike") == seeded_uuid7(7, "1970-01-02T00:00:00Z", "risk-strike")
    True
    >>> seeded_uuid7(7, at, "risk-strike") == seeded_uuid7(7, at, "marvel-united")
    False
    """
    return uuid7(stamp_ms(at), random.Random(f"uid:{kind}:{seed}").randbytes(10))


def stamp_ms(at: str) -> int:
    """Unix milliseconds of an RFC 3339 UTC stamp as the ledger writes them.

    >>> stamp_ms("1970-01-01T00:00:01.500000Z")
    1500
    """
    return int(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


def legacy_uid(first_hash: str) -> str:
    """The identity of a log from before identities: ``uuid5(LEGACY_NAMESPACE, first hash)``.

    >>> legacy_uid("0" * 64) == legacy_uid("0" * 64), legacy_uid("0" * 64)[14]
    (True, '5')
    """
    return str(uuid.uuid5(LEGACY_NAMESPACE, first_hash))


def game_uid(stored: str, first_hash: str) -> str:
    """A game's identity: the ``uid`` its first event stores, else the one derived from its
    first line's hash.

    >>> game_uid("", "0" * 64) == legacy_uid("0" * 64), game_uid("x", "0" * 64)
    (True, 'x')
    """
    return stored or legacy_uid(first_hash)


def is_uuid7(text: str) -> bool:
    """True when ``text`` is a UUIDv7 in canonical lowercase form."""
    return bool(_UUID7.match(text))


# -- the ledger's own identity -------------------------------------------------------------------


def ledger_identity(root: Path) -> str:
    """How a receipt names the ledger's folder: resolved."""
    return str(root.expanduser().resolve())


def ledger_id_path(root: Path) -> Path:
    return root / "private" / "ledger-id"


def ledger_id(root: Path, *, make: bool = False) -> str:
    """The ledger's identity, a UUIDv7 kept in ``private/ledger-id`` (moved with the ledger,
    never exported): "" when it has none yet, unless ``make`` (then it is made; "" still when it
    cannot be written: a read-only ledger)."""
    path = ledger_id_path(root)
    try:
        text = path.read_text(encoding="ascii").strip() if path.is_file() else ""
    except (OSError, UnicodeDecodeError):
        text = ""
    if text and is_uuid7(text):
        return text
    if not make or path.exists():
        return ""
    made = uuid7()
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(made + "\n")
    except OSError:
        return ""
    return made
