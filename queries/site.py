"""The ledger's site: ``tabletape export --html DIR`` writes a small static site, offline.

``DIR/index.html`` lists every game in scope with its result and the league tables
(:mod:`tabletape.queries.site_index`); ``DIR/games/<id>.html`` is each game's page
(:func:`tabletape.replay.page.game_page`). Only verified logs: the index is read from the
catalog (synced first), each page from its log verified again; a log that fails either is named
in :attr:`Site.left_out` and on the index, never used.

The site is built whole in a hidden folder beside ``DIR`` and renamed into place, so a failure
half-way (a full disk, a page that cannot be written) leaves the earlier site, or nothing, as it
was. ``DIR`` is tabletape's: it holds :data:`MARKER`, and an export replaces only a folder that
is empty or holds nothing but what an export writes (:func:`check_target`), so no file of
anyone's is ever lost to it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from tabletape.ledger import Ledger, LedgerError, Record
from tabletape.ledger.errors import TabletapeError
from tabletape.ledger.store import fsync_dir, os_failure
from tabletape.queries import series_charts
from tabletape.queries.reports import all_reports, run_reports
from tabletape.queries.site_index import PAGES, IndexGame, index_page, listed_games, page_path
from tabletape.queries.transfer import inside_ledger
from tabletape.replay.page import game_page

if TYPE_CHECKING:
    import duckdb

MARKER = ".tabletape-site"
"""The file that says a folder is a site tabletape wrote (and may replace)."""

MARKER_TEXT = ("This folder was written by `tabletape export --html`; the next export replaces "
               "all of it.\n")

INDEX = "index.html"

Progress = Callable[[int, int], None]
"""``progress(done, total)``: told after each page is written."""


class SiteRefused(TabletapeError):
    """A target folder the site may not be written to (exit 2: choose another)."""

    exit_code = 2


class SiteNotWritten(TabletapeError):
    """The operating system refused part of the site; nothing was changed (exit 1)."""

    exit_code = 1


class Site(msgspec.Struct, kw_only=True):
    """What an export wrote: the ``export --html --json`` shape."""

    directory: str
    games: int
    """Games listed on the index, each with its page."""
    pages: list[str]
    """Every page written, relative to ``directory``: ``index.html`` first."""
    left_out: dict[str, str]
    """Games left out (their logs do not verify or do not fold) -> why."""


def write_site(store: Ledger, con: duckdb.DuckDBPyConnection, directory: Path, *,
               left_out: dict[str, str], scope: str = "", set_aside: str = "",
               progress: Progress | None = None) -> Site:
    """Write the site of the games ``con`` shows (a catalog connection, narrowed to the scope
    people asked for) to ``directory``, replacing an earlier export there.

    ``left_out`` names the games the catalog leaves out; a game whose log no longer verifies
    when its page is written joins them. ``set_aside`` says the demo and simulated games the
    site leaves out (``1 demo game``), or is empty.
    """
    directory = spelled_out(directory)
    check_target(directory, store.root)
    games = listed_games(con)
    all_reports()  # the games' own reports too, as `stats` runs them
    reports = run_reports(con)
    left_out = dict(left_out)
    with staged(directory) as stage:
        (stage / PAGES).mkdir()
        written = write_pages(store, stage, games, left_out, progress)
        listed = [game for game in games if game.game in written]
        write_file(stage / INDEX, index_page(listed, reports, con, left_out=left_out, scope=scope,
                                             set_aside=set_aside))
        write_file(stage / MARKER, MARKER_TEXT)
    return Site(directory=str(directory), games=len(listed),
                pages=[INDEX, *(page_path(game.game) for game in listed)],
                left_out=dict(sorted(left_out.items())))


def write_pages(store: Ledger, stage: Path, games: Sequence[IndexGame], left_out: dict[str, str],
                progress: Progress | None) -> set[str]:
    """Each game's page under ``stage``, from its log verified again; the games written."""
    written = set()
    for done, game in enumerate(games, 1):
        records = verified_records(store, game.game, left_out)
        if records is not None:
            charts = series_charts.log_charts(game.game, records)
            write_file(stage / page_path(game.game), game_page(game.game, records, charts=charts))
            written.add(game.game)
        if progress is not None:
            progress(done, len(games))
    return written


def write_file(path: Path, text: str) -> None:
    """``text`` in a new file at ``path``, on the disk before the site is renamed into place."""
    with path.open("x", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())


def verified_records(store: Ledger, game: str, left_out: dict[str, str]) -> list[Record] | None:
    """``game``'s records, its chain verified now; None (and why, in ``left_out``) if not."""
    try:
        return store.verified(game).records
    except LedgerError as error:
        left_out[game] = str(error)
        return None


# -- the target folder ---------------------------------------------------------------------------


def check_target(directory: Path, ledger_root: Path) -> None:
    """Refuse a target that is not a new folder, an empty one or an earlier export: a file, a
    link, a folder holding anything else, the ledger or a folder around it; or whose parent
    folder does not exist."""
    directory = spelled_out(directory)
    if inside_ledger(directory, ledger_root):
        raise SiteRefused(f"{directory} is the ledger {ledger_root}, is inside it or holds it: "
                          "write the site to a folder outside it")
    if directory.is_symlink():
        raise SiteRefused(f"{directory} is a link: name the folder itself, or another one")
    if not directory.exists():
        if not directory.parent.is_dir():
            raise SiteRefused(f"cannot write the site to {directory}: the folder "
                              f"{directory.parent} does not exist (create it first)")
        return
    if not directory.is_dir():
        raise SiteRefused(f"{directory} is a file: the site is a folder; name a new folder")
    here = Path.cwd().resolve()
    if directory.resolve() in (here, *here.parents):
        raise SiteRefused(f"{directory} is the current folder or holds it: the site replaces "
                          "its whole folder, so name a new folder")
    stray = stray_entry(directory)
    if stray:
        raise SiteRefused(f"{directory} holds {stray}: the site replaces the whole folder, so "
                          "name a new or empty folder (or move what is there out of it)")


def spelled_out(directory: Path) -> Path:
    """``directory`` as an absolute path with ``.`` and ``..`` worked out by name: the folder
    checked is the folder replaced, whatever exists along the way.

    >>> str(spelled_out(Path("/a/b/../c/.")))
    '/a/c'
    """
    return Path(os.path.abspath(directory))


def stray_entry(directory: Path) -> str:
    """The first entry of ``directory`` an export would not have written (and why), ``""``
    when there is none: an empty folder, or an earlier export (its marker, index and pages)."""
    entries = sorted(os.listdir(directory))
    if not entries:
        return ""
    if MARKER not in entries:
        return f"'{entries[0]}' and no {MARKER} marker (an export did not write it)"
    for name in entries:
        path = directory / name
        if name == MARKER or (name == INDEX and path.is_file() and not path.is_symlink()):
            continue
        if name != PAGES or not path.is_dir() or path.is_symlink():
            return f"'{name}', which an export did not write"
        for page in sorted(os.listdir(path)):
            inner = path / page
            if not page.endswith(".html") or not inner.is_file() or inner.is_symlink():
                return f"'{name}/{page}', which an export did not write"
    return ""


@contextmanager
def staged(directory: Path) -> Iterator[Path]:
    """A hidden folder beside ``directory`` to build the site in; renamed to ``directory`` when
    the block ends well (an earlier export there is replaced), removed when it does not.

    An error of the operating system is :class:`SiteNotWritten`, naming ``directory``.
    """
    target = spelled_out(directory)
    try:
        stage = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tabletape",
                                      dir=target.parent))
    except OSError as error:
        raise not_written(directory, error) from None
    try:
        yield stage
        for folder in (stage / PAGES, stage):
            if folder.is_dir():  # a Parquet export (queries.parquet) stages here too, no pages
                fsync_dir(folder)
        stage.chmod(0o777 & ~current_umask())  # mkdtemp's folder is private: as mkdir makes it
        replace_folder(stage, target)
        fsync_dir(target.parent)
    except OSError as error:
        shutil.rmtree(stage, ignore_errors=True)
        raise not_written(directory, error) from None
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise


def current_umask() -> int:
    """The process's file mode creation mask (read by setting it, then setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def replace_folder(stage: Path, directory: Path) -> None:
    """Put ``stage`` where ``directory`` is: an earlier site there is moved aside first, and
    back should the move fail, then removed."""
    if not directory.exists():
        os.rename(stage, directory)
        return
    aside = stage.with_name(stage.name + "-old")
    os.rename(directory, aside)
    try:
        os.rename(stage, directory)
    except OSError:
        os.rename(aside, directory)
        raise
    shutil.rmtree(aside, ignore_errors=True)


def not_written(directory: Path, error: OSError) -> SiteNotWritten:
    """The OS error said about ``directory`` (never the hidden folder the site is built in)."""
    return SiteNotWritten(os_failure(OSError(error.errno, error.strerror, str(directory))))

