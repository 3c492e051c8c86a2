"""The fast path of ``tabletape record``: no typer, no duckdb, one small rich console.

Recording happens many times a game, at the table, so its start-up matters: this module parses
``record GAME ACTION [KEY=VALUE ...] [--ledger PATH] [--expect-seq N] [--json]`` by hand and
shares every other step (parse, complete, check, append, fold, print) with the full command in
:mod:`tabletape.replay.cli`. Anything it does not understand (``--help``, an unknown option) goes
to the
full command.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence

OPTIONS_WITH_VALUE = ("--ledger", "--expect-seq")
FLAGS = ("--json",)


def printable(text: str) -> str:
    r"""``text`` with terminal control characters (but newlines) escaped, safe to print.

    >>> print(printable("no game '\x1b[2Jx'"))
    no game '\x1b[2Jx'

    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == "\n" else repr(c)[1:-1] for c in text)


def split_record_args(args: Sequence[str]) -> tuple[dict[str, str | bool], list[str]] | None:
    """Options and positional words of ``record``'s arguments, or None to defer to typer."""
    options: dict[str, str | bool] = {}
    words: list[str] = []
    items = iter(args)
    for item in items:
        name, sep, value = item.partition("=")
        if item in FLAGS:
            options[item] = True
        elif name in OPTIONS_WITH_VALUE:
            options[name] = value if sep else next(items, "")
        elif item.startswith("-"):
            return None
        else:
            words.append(item)
    return (options, words) if len(words) >= 2 else None


def record_main(args: Sequence[str]) -> int | None:
    """Run ``tabletape record``; return its exit status, or None to let typer handle it."""
    split = split_record_args(args)
    if split is None:
        return None
    options, (game, *action) = split
    expect = str(options.get("--expect-seq", ""))
    if "--expect-seq" in options and not expect.isdigit():
        return None  # typer says what is wrong with the value
    from rich.console import Console
    from rich.markup import escape

    from tabletape.ledger import Ledger, LedgerError
    from tabletape.replay.fold import RefusedEvent, decode_event, record_action
    from tabletape.rules.actions import ActionSyntaxError
    from tabletape.rules.kernel import IllegalAction, RulesError

    err = Console(stderr=True, highlight=False)
    ledger_path = options.get("--ledger") or os.environ.get("TABLETAPE_LEDGER") or None
    try:
        folded, stored = record_action(Ledger(str(ledger_path) if ledger_path else None),
                                       game, action, expect_seq=int(expect) if expect else None)
    except IllegalAction as error:
        err.print(f"[bold red]error:[/] illegal: {escape(printable(error.message()))}")
        return 1
    except (ActionSyntaxError, RulesError) as error:
        err.print(f"[bold red]error:[/] {escape(printable(str(error)))}")
        return 2
    except (LedgerError, RefusedEvent) as error:
        from tabletape.ledger import UnknownGameId

        err.print(f"[bold red]error:[/] {escape(printable(str(error)))}")
        return 2 if isinstance(error, UnknownGameId) else 1
    except OSError as error:
        from tabletape.ledger import os_failure

        err.print(f"[bold red]error:[/] {escape(printable(os_failure(error)))}")
        return 1
    if options.get("--json"):
        from tabletape.replay.render import status_json

        payload = json.loads(bytes(stored.payload))
        sys.stdout.write(json.dumps({"seq": stored.seq, "actor": stored.actor,
                                     "type": stored.type, "payload": payload,
                                     "status": status_json(folded)}, indent=2) + "\n")
        return 0
    from tabletape.replay.render import headline, recorded_line

    out = Console(highlight=False)
    out.print(recorded_line(stored.seq, stored.actor, decode_event(folded.rules, stored)))
    out.print(headline(folded))
    return 0
