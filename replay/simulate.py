"""Bots playing whole games into a ledger: data for benchmarks, statistics and exploring.

The same ``seed`` gives byte-identical logs: game ids, dice, and recorded-at times (which start at
a fixed moment and advance a few seconds per event) all derive from it. Every game is marked
``simulated`` in its game-started event, and its times count from the Unix epoch (1970-01-01), so
no simulated game ever carries a date that looks like a real evening at the table.

>>> import tempfile
>>> from tabletape.ledger import Ledger
>>> import tests.support.tinygame
>>> ids = simulate(Ledger(tempfile.mkdtemp()), "tiny", games=2, seed=7)
>>> ids
['ty-s7-1', 'ty-s7-2']
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta

import msgspec

from tabletape import ledger as ledger_pkg
from tabletape.ledger import Draft, GameStarted, Ledger, LedgerError
from tabletape.ledger.codec import utc_stamp
from tabletape.ledger.events import SecretRevealed
from tabletape.ledger.identity import seeded_uuid7
from tabletape.replay.dice_secret import committed
from tabletape.replay.recording import create_game
from tabletape.rules.bot_games import bot_game
from tabletape.rules.kernel import Rules
from tabletape.rules.registry import find_game

PLAYER_NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")
"""Seat names of simulated players."""

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
"""Recorded-at of the first simulated game's start, plainly not a real date; later games start
later (the seed shifts the start by whole days, within 1970-1979)."""


def simulated_started(rules: Rules, players: int, seed: int,
                      options: Mapping[str, str] | None = None) -> GameStarted:
    """The game-started event of one simulated game (``options`` as typed with ``--option``);
    :func:`record_bot_game` commits it to its secret (:func:`simulated_secret`)."""
    names = PLAYER_NAMES[:players]
    return GameStarted(kind=rules.name, rules_version=rules.rules_version,
                       tabletape_version=ledger_pkg.__version__, players=names,
                       options=rules.options(options or {}, names), seed=seed,
                       simulated=True)


def simulated_secret(seed: int) -> bytes:
    """The dice secret of a simulated game: derived from its seed, so the same seed gives the
    same log (bots have nothing to hide; the log reveals it when the game ends)."""
    return hashlib.sha256(f"tabletape/simulated-secret:{seed}".encode()).digest()


def game_seed(seed: int, index: int) -> int:
    """The seed of the ``index``-th game of a simulation seeded with ``seed``."""
    return random.Random(f"simulate:{seed}:{index}").randrange(2**62)


def stamps(rng: random.Random, start: datetime, count: int) -> list[str]:
    """``count`` recorded-at times from ``start``, 2 to 40 seconds apart."""
    moments, moment = [], start
    for _ in range(count):
        moment += timedelta(seconds=rng.uniform(2, 40))
        moments.append(utc_stamp(moment))
    return moments


def simulate(ledger: Ledger, kind: str, *, games: int, seed: int = 0, players: int | None = None,
             options: Mapping[str, str] | None = None,
             progress: Callable[[int], None] | None = None) -> list[str]:
    """Let ``kind``'s bot play ``games`` whole games into ``ledger``; return their game ids.

    Each game is one create of its whole log (one write, one fsync): the bulk path; a game
    whose write fails is not left behind. Raises
    :class:`ledger.LedgerError` when an id of this seed is already in the ledger.
    """
    rules = find_game(kind)
    count = players or rules.min_players
    if not rules.min_players <= count <= rules.max_players:
        from tabletape.rules.kernel import BadOptions

        raise BadOptions(f"{rules.title} is for {rules.min_players} to {rules.max_players} "
                         f"players, not {count}")
    simulated_started(rules, count, seed, options)  # bad options: refused before anything runs
    ids = []
    start = EPOCH + timedelta(days=seed % 3650)
    for index in range(1, games + 1):
        game = f"{rules.short}-s{seed}-{index}"
        if ledger.path(game).exists():
            raise LedgerError(f"game {game} exists: this seed was simulated into this ledger "
                              "already; choose another --seed or --ledger")
        start = record_bot_game(ledger, rules, game, simulated_started(
            rules, count, game_seed(seed, index), options), start)
        ids.append(game)
        if progress:
            progress(index)
    return ids


def record_bot_game(ledger: Ledger, rules: Rules, game: str, started: GameStarted,
                    start: datetime) -> datetime:
    """Play one game and store it; return when it ended (the next game starts after it)."""
    seed = started.seed
    rng = random.Random(seed)
    secret = simulated_secret(seed)
    started = committed(started, secret)
    drafts: list[Draft] = bot_game(rules, started, rng, secret=secret)
    times = stamps(random.Random(seed + 1), start, len(drafts) + 1)
    started = msgspec.structs.replace(started, uid=seeded_uuid7(seed, times[0], rules.name))
    unrevealed = not drafts or drafts[-1][1] != SecretRevealed(secret=secret.hex())
    create_game(ledger, started, secret if unrevealed else None, game_id=game, at=times[0],
                then=drafts, then_at=times[1:])
    return datetime.strptime(times[-1], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC) \
        + timedelta(minutes=5)
