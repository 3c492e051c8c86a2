"""Where query results go: a refusal of the query commands, and the checks an output file
passes before anything is written to it (outside the ledger, no link, device or pipe, not
replaced without ``--force``)."""

from __future__ import annotations

import os
from pathlib import Path

from tabletape.ledger.errors import USAGE_EXIT, TabletapeError


class QueryRefused(TabletapeError):
    """A statement the read-only SQL runner will not run, or options that do not go together."""

    exit_code = USAGE_EXIT


def check_output(path: Path, ledger_root: Path, *, force: bool = False) -> None:
    """Refuse an output file inside the ledger, or one that exists (unless ``force``)."""
    from tabletape.queries.transfer import inside_ledger

    if inside_ledger(path, ledger_root):
        raise QueryRefused(f"{path} is inside the ledger {ledger_root}: write results outside it")
    if what := special_file(path):
        raise QueryRefused(f"{path} is {what}: tabletape writes its results to a file of their "
                           "own (a new one, or one it replaces with --force); --output - writes "
                           "them to standard output")
    if path.exists() and not force:
        raise QueryRefused(f"{path} exists: pass --force to overwrite it, or choose another file")


def special_file(path: Path) -> str:
    """What ``path`` is when it is there but no plain file results may replace (a link, a
    device, a pipe, a socket), else ``""``; a folder is left to the caller to name.

    >>> special_file(Path("/dev/null")), special_file(Path("/no/such/file"))
    ('a device', '')
    """
    import stat

    try:
        mode = path.lstat().st_mode
    except OSError:
        return ""
    if stat.S_ISLNK(mode):
        return "a link (to " + str(os.readlink(path)) + ")"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return "a pipe or socket"
    return ""
