"""The fast path of ``tabletape record``: no typer, no duckdb, one small rich console.

Recording happens many times a game, at the table, so its start-up matters: this module parses
``record GAME ACTION [KEY=VALUE ...] [--ledger PATH] [--expect-seq N] [--json]`` by hand and
shares every other step (parse, complete, check, append, fold, print) with the full command in
:mod:`tabletape.replay.cli`, and ends on an error as every command does
(:func:`tabletape.exits.failure`). Anything it does not understand (``--help``, an unknown
option) goes to the full command.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence

OPTIONS_WITH_VALUE = ("--ledger", "--expect-seq")
FLAGS = ("--json",)


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

    from tabletape.exits import PEOPLE_ERRORS, error_markup, failure
    from tabletape.ledger import Ledger
    from tabletape.replay.fold import record_line

    ledger_path = options.get("--ledger") or os.environ.get("TABLETAPE_LEDGER") or None
    if action == ["-"]:
        from tabletape.replay.batch import record_lines

        ledger = Ledger(str(ledger_path) if ledger_path else None)
        return record_lines(ledger, game, sys.stdin.buffer,
                            as_json=bool(options.get("--json")),
                            expect_seq=int(expect) if expect else None)
    try:
        folded, records = record_line(Ledger(str(ledger_path) if ledger_path else None),
                                      game, action, expect_seq=int(expect) if expect else None)
    except PEOPLE_ERRORS as error:
        message, code = failure(error)
        Console(stderr=True).print(error_markup(message), highlight=False)
        return code
    from tabletape.replay.batch import recorded_echo, recorded_json

    if options.get("--json"):
        sys.stdout.write(json.dumps(recorded_json(folded, records), indent=2) + "\n")
        return 0
    Console(highlight=False).print(recorded_echo(folded, records))
    return 0
