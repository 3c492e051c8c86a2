"""The one base of the errors a person can cause, and the exit status each one ends a command with.

It lives at the bottom, in the ledger (which imports nothing of ours), so the ledger, the rules,
replay and the catalog all derive their errors from it. Every error class declares its exit status
once, as ``exit_code``; the command line maps an error to its line and status in one place
(:func:`tabletape.exits.failure`).

>>> class NoSuchTable(TabletapeError):
...     exit_code = USAGE_EXIT
>>> NoSuchTable("no table 'x'").exit_code, TabletapeError("disk on fire").exit_code
(2, 1)
"""

from __future__ import annotations

from typing import ClassVar, Final

USAGE_EXIT: Final = 2
"""Exit status for input that is not understood (unknown game, action, field, bad value)."""
ILLEGAL_EXIT: Final = 1
"""Exit status for an action the rules refuse, a damaged or changed log, and what failed."""


class TabletapeError(Exception):
    """Base of every error a person can cause; the message is meant to be shown as it is."""

    exit_code: ClassVar[int] = ILLEGAL_EXIT
    """The status a command exits with when this error ends it."""

    def for_people(self) -> str:
        """The line a command prints for this error (after ``error:``)."""
        return str(self)
