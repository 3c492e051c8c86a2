"""Moving logs between ledgers (the catalog as Parquet is :mod:`tabletape.queries.parquet`'s);
the work is :mod:`tabletape.ledger.transfer`'s.

The log import and export that the ``import`` and ``export --jsonl`` commands run write to and
read from the ledger, so they live in the ledger package (queries never write to a ledger); they
are re-exported here for the commands.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from tabletape.ledger.codec import Record
from tabletape.ledger.transfer import (
    ImportBatch,
    Imported,
    TransferError,
    export_log,
    find_same_game,
    find_same_uid,
    import_log,
    verify_log_bytes,
)

__all__ = [
    "ImportBatch",
    "Imported",
    "TransferError",
    "export_log",
    "find_same_game",
    "find_same_uid",
    "game_log_problem",
    "import_log",
    "inside_ledger",
    "verify_log_bytes",
]


def game_log_problem(game: str, records: list[Record]) -> str:
    """Why a verified log is not a game this install replays (kind, events, rules), or ``""``.

    The log is folded with every event checked, as ``status`` folds it; a log from elsewhere is
    untrusted input, so whatever its first event makes the rules raise is a refusal too.
    """
    from tabletape.ledger.events import GameStarted
    from tabletape.replay.fold import RefusedEvent, fold_records
    from tabletape.rules.kernel import RulesError
    from tabletape.rules.registry import find_game

    try:
        started = msgspec.json.decode(records[0].payload, type=GameStarted)
        find_game(started.kind).options(started.options, started.players)
        fold_records(game, records, check=True)
    except RefusedEvent as error:
        return f"event {error.seq} is refused by the rules: {error.reason}"
    except RulesError as error:
        return str(error)
    except Exception as error:  # untrusted options or events the rules cannot start from
        return f"its events do not replay ({type(error).__name__}: {error})"
    return ""


def inside_ledger(path: Path, root: Path) -> bool:
    """True when writing or replacing ``path`` could touch the ledger ``root``: ``path`` is the
    ledger, lies inside it, or holds it (links followed).

    >>> inside_ledger(Path("/l/games/x.jsonl"), Path("/l")), inside_ledger(Path("/x"), Path("/l"))
    (True, False)
    """
    target, ledger = path.resolve(), root.resolve()
    return target == ledger or ledger in target.parents or target in ledger.parents
