"""Words for people: a count and its noun, and text from a log made safe to print.

The lowest layer holds these because every layer above words its messages with them (the
ledger's own heads and keys too).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence


def plural(count: int, word: str) -> str:
    """``1 event``, ``2 events``: a count and its noun, as people write them.

    >>> plural(1, "event"), plural(30, "event")
    ('1 event', '30 events')
    """
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def did_you_mean(name: str, choices: Sequence[str]) -> str:
    """`` (did you mean 'x'?)`` for the choice closest to a mistyped ``name``, else nothing.

    >>> did_you_mean("rs-k7qp", ["rs-k7pq", "md-2abc"]), did_you_mean("zz", ["rs-k7pq"])
    (" (did you mean 'rs-k7pq'?)", '')
    """
    import difflib  # only when a name is mistyped: no cost at start-up

    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.5)
    return f" (did you mean '{close[0]}'?)" if close else ""


def printable(text: str) -> str:
    r"""``text`` with terminal control characters (but newlines) escaped, safe to print.

    >>> print(printable("no game '\x1b[2Jx'"))
    no game '\x1b[2Jx'

    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == "\n" else repr(c)[1:-1] for c in text)


def shown(text: str) -> str:
    r"""A name from the ledger (a game id: any file name) as rich markup: control characters
    escaped, markup inert.

    >>> print(shown("esc\x1b[31mred [bold]"))
    esc\x1b[31mred \[bold]
    """
    from rich.markup import escape

    return escape(printable(text))


class _Warnings:
    """Where :func:`warn` sends a warning: set by the command line (:mod:`tabletape.cli`)."""

    handler: Callable[[str], None] | None = None


def warn_with(handler: Callable[[str], None] | None) -> None:
    """Send every :func:`warn` to ``handler`` (None: back to plain standard error)."""
    _Warnings.handler = handler


def warn(message: str) -> None:
    """A warning for the person running the command, from code below the command line: the
    command line's own (rich, or JSON under ``--json``) once it installed it, else
    ``warning: message`` on standard error.

    >>> import sys
    >>> warn_with(lambda message: print(f"! {message}", file=sys.stdout))
    >>> warn("the key file is open to others")
    ! the key file is open to others
    >>> warn_with(None)
    """
    if _Warnings.handler is not None:
        _Warnings.handler(message)
    else:
        sys.stderr.write(f"warning: {printable(message)}\n")
