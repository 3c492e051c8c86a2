"""The catalog's DuckDB file: opening it, transactions, and bulk inserts and deletes; and the
door a person's SQL comes through (:func:`query_door`), fenced to the catalog.

Rows always go in bulk: from columnar JSON files (one object of equal-length lists) read with
DuckDB's ``read_json``, never row by row.

>>> sql_string("it's")
"'it''s'"
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import duckdb

from tabletape.ledger import Ledger
from tabletape.ledger.errors import TabletapeError
from tabletape.queries.projections import Schema, quote

CATALOG_FILE = "catalog.duckdb"

STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"
"""The ledger's ``at`` format, for DuckDB's ``strptime``/``strftime``."""


class CatalogError(TabletapeError):
    """The catalog cannot be opened or built; the message is meant for people."""


class CatalogNotWritable(CatalogError):
    """The catalog cannot be written (a read-only ledger, no permission, a full disk)."""

    def __init__(self, message: str, what: str) -> None:
        super().__init__(message)
        self.what = what
        """What the operating system refused, in a few words ("the disk is full")."""


OS_TROUBLES = {
    "read-only file system": ("the file system is read-only", "use a writable --ledger"),
    "permission denied": ("permission denied", "check the owner and permissions of the ledger "
                          "folder, or use another --ledger"),
    "no space left": ("the disk is full", "free some space and run the command again"),
    "disk quota": ("the disk quota is used up", "free some space and run the command again"),
}
"""What DuckDB says when the operating system refuses a write -> what that means, what to do."""


def os_trouble(message: str) -> tuple[str, str] | None:
    """What the operating system refused, if DuckDB's ``message`` says so.

    >>> os_trouble('IO Error: Cannot open file "/l/catalog.duckdb": Read-only file system')
    ('the file system is read-only', 'use a writable --ledger')
    >>> os_trouble("Catalog Error: Table with name x does not exist!") is None
    True
    """
    lowered = message.lower()
    return next((trouble for words, trouble in OS_TROUBLES.items() if words in lowered), None)


def write_failure(path: Path, error: duckdb.Error) -> CatalogError:
    """The error to raise when writing the catalog at ``path`` failed with ``error``.

    The operating system's refusals are a :class:`CatalogNotWritable`; the logs are untouched
    either way (the catalog is only built from them).
    """
    message = str(error).strip().splitlines()[0]
    trouble = os_trouble(message)
    if trouble is None:
        return CatalogError(f"cannot write the catalog {path}: {message}")
    what, advice = trouble
    return CatalogNotWritable(f"cannot write the catalog {path}: {what}; the logs are "
                              f"untouched: {advice}", what)


Config = dict[str, str | bool | int | float | list[str]]
"""DuckDB settings given as a connection is made (``duckdb.connect(config=...)``)."""


def catalog_path(ledger: Ledger) -> Path:
    return ledger.root / CATALOG_FILE


@contextmanager
def opened(path: Path, *, read_only: bool) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection to the catalog at ``path``, closed afterwards."""
    con = open_catalog(path, read_only=read_only)
    try:
        yield con
    finally:
        con.close()


def open_catalog(path: Path, *, read_only: bool,
                 config: Config | None = None) -> duckdb.DuckDBPyConnection:
    """Connect to the catalog (with DuckDB ``config`` settings); a locked or damaged file is a
    :class:`CatalogError`."""
    try:
        return duckdb.connect(str(path), read_only=read_only, config=config or {})
    except duckdb.Error as error:
        message = str(error).splitlines()[0]
        if "lock" in message.lower():
            raise CatalogError(f"the catalog {path} is in use by another program ({message}); "
                               "close it and try again") from None
        if not read_only and os_trouble(message):
            raise write_failure(path, error) from None
        if path.is_dir():
            raise CatalogError(f"{path} is a folder, not the catalog: move it out of the "
                               "ledger and the catalog will be rebuilt from the logs") from None
        if "different configuration" in message:
            raise CatalogError(f"the catalog {path} is open in this program with other settings "
                               "(a tabletape.queries.connect() connection, say): close that "
                               "connection and try again") from None
        raise CatalogError(f"cannot open the catalog {path}: {message}; delete it and it "
                           "will be rebuilt from the logs") from None


# -- the SQL door --------------------------------------------------------------------------------

DOOR_CONFIG: Config = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}
"""Set as the door's connection is made: no extension is downloaded or loaded behind a query
(DuckDB's own ``core_functions``, ``icu``, ``json`` and ``parquet`` are built in)."""


@contextmanager
def query_door(catalog: Path | None, *, folders: Sequence[Path] = (),
               files: Sequence[Path] = ()) -> Iterator[duckdb.DuckDBPyConnection]:
    """The connection a person's SQL runs on, closed afterwards: the ``catalog`` read-only (an
    empty in-memory database when None), fenced by :func:`close_door` so that the only files it
    reaches are the catalog, the ``folders`` (an export to read) and the ``files`` (one tabletape
    itself writes a result to)."""
    con = (open_catalog(catalog, read_only=True, config=DOOR_CONFIG) if catalog is not None
           else duckdb.connect(config=DOOR_CONFIG))
    try:
        with tempfile.TemporaryDirectory(prefix="tabletape-sql-") as spill:
            # DuckDB lets a query read its own temporary folder: by default the catalog's
            # `catalog.duckdb.tmp/` inside the ledger, where anyone who can write to the ledger
            # could plant a link to a secret. A fresh folder of this process's own instead.
            con.execute("SET temp_directory = $spill", {"spill": spill})
            close_door(con, folders=folders, files=files)
            yield con
    finally:
        con.close()


def close_door(con: duckdb.DuckDBPyConnection, *, folders: Sequence[Path] = (),
               files: Sequence[Path] = ()) -> None:
    """Turn off ``con``'s external access (files, URLs, ``ATTACH``, extensions) but for
    ``folders`` and ``files``, then lock its configuration: no ``SET``, ``RESET`` or ``PRAGMA``
    can open it again. DuckDB follows links before it compares paths, so a link in a folder
    reaches no file outside it."""
    con.execute("SET allowed_directories = $folders",
                {"folders": [folder_prefix(folder) for folder in folders]})
    con.execute("SET allowed_paths = $files", {"files": [str(file.absolute()) for file in files]})
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


def folder_prefix(folder: Path) -> str:
    """``folder`` as an allowed-directory prefix: absolute, ending in ``/`` (DuckDB compares
    prefixes, and ``/x/export`` would let ``/x/export-old`` in too).

    >>> folder_prefix(Path("/x/export"))
    '/x/export/'
    """
    return str(folder.absolute()).rstrip("/") + "/"


# -- ledgers the door keeps out ------------------------------------------------------------------


LEDGER_MARKS = ("private/dice", "private/ledger-heads.jsonl", CATALOG_FILE, "games/*.jsonl")
"""What only a ledger holds: its dice secrets, the heads it showed, its catalog, its logs."""


def is_ledger(folder: Path) -> bool:
    """Whether ``folder`` holds one of a ledger's :data:`LEDGER_MARKS`."""
    try:
        return any(next(folder.glob(mark), None) is not None for mark in LEDGER_MARKS)
    except OSError:
        return False


def ledger_around(path: Path) -> Path | None:
    """The ledger ``path`` is, or lies inside (links followed), else None."""
    real = path.resolve()
    return next((folder for folder in (real, *real.parents) if is_ledger(folder)), None)


def ledger_beneath(folder: Path) -> Path | None:
    """A ledger in ``folder`` itself (one of its folders), else None."""
    try:
        children = sorted(folder.iterdir())
    except OSError:
        return None
    return next((child for child in children if child.is_dir() and is_ledger(child)), None)


REFUSED_FILE = re.compile(r'Cannot access (file|directory) "(.*)" - file system operations are '
                          r"disabled by configuration")
LOCKED_SETTING = re.compile(r'Cannot change(?:/set)? configuration option "(.*?)" - the '
                            r"configuration has been locked")
MISSING_EXTENSION = re.compile(r'with name "?(.*?)"? is not in the catalog, but it exists in the '
                               r"(\w+) extension")
NO_EXTENSIONS = "Loading external extensions is disabled"
NO_TABLE = re.compile(r"Table with name (.*?) does not exist!")
DUCKDB_HOME = "/.duckdb/"
"""Where DuckDB keeps its own files (extensions, stored secrets) in the user's home."""

DOOR = "tabletape sql reads the catalog only (or, with --parquet DIR, that export)"
LOCKED = "tabletape sql runs with locked settings"
BUILT_IN = "tabletape sql runs DuckDB's built-in functions only"
"""Why the door refuses: a file or folder, a setting, an extension."""

NO_EXTENSION = "tabletape sql installs and loads no DuckDB extension"
NO_OTHER_FILE = "tabletape sql reads and writes no other file"
REFUSED_BECAUSE = {
    "SET": LOCKED, "RESET": LOCKED, "SET VARIABLE": LOCKED, "PRAGMA": LOCKED,
    "LOAD": NO_EXTENSION, "INSTALL": NO_EXTENSION, "FORCE INSTALL": NO_EXTENSION,
    "UPDATE EXTENSIONS": NO_EXTENSION,
    "ATTACH": DOOR, "DETACH": DOOR, "USE": DOOR,
    "COPY": NO_OTHER_FILE, "COPY FROM DATABASE": NO_OTHER_FILE, "EXPORT DATABASE": NO_OTHER_FILE,
    "IMPORT DATABASE": NO_OTHER_FILE,
    "PIVOT": "a PIVOT that lists no values first makes a type (a write): name them, e.g. PIVOT "
             "(FROM games SELECT kind) ON kind IN ('risk-strike', 'marvel-united') USING "
             "count(*)",
}
"""Why a statement that reaches past the catalog is refused (by the read-only check, before the
door's own refusal), besides its writing: by its first word(s), as the person typed them."""


def door_refusal(error: Exception) -> str | None:
    """What the door refused, and why, when DuckDB's ``error`` is its refusal (else None).

    >>> door_refusal(Exception('Permission Error: Cannot access file "/etc/passwd" - file '
    ...                        'system operations are disabled by configuration'))
    'refused: the file /etc/passwd is out of reach: tabletape sql reads the catalog only (or, ...'
    >>> door_refusal(Exception('Invalid Input Error: Cannot change configuration option '
    ...                        '"threads" - the configuration has been locked'))
    'refused: the setting threads cannot be changed: tabletape sql runs with locked settings'
    >>> door_refusal(Exception("Binder Error: column x not found")) is None
    True
    """
    message = str(error)
    if found := REFUSED_FILE.search(message):
        what, path = found.groups()
        if DUCKDB_HOME in path:
            return f"refused: DuckDB's own files (extensions, secrets) are out of reach: {DOOR}"
        return f"refused: the {what.replace('directory', 'folder')} {path} is out of reach: {DOOR}"
    if (found := NO_TABLE.search(message)) and looks_like_a_file(found.group(1)):
        return (f"refused: the file {found.group(1)} is out of reach: {DOOR} (SHOW TABLES lists "
                "its tables)")
    if found := LOCKED_SETTING.search(message):
        return f"refused: the setting {found.group(1)} cannot be changed: {LOCKED}"
    if found := MISSING_EXTENSION.search(message):
        name, extension = found.groups()
        return (f"refused: {name} is in DuckDB's {extension} extension, which is not loaded: "
                f"{BUILT_IN}")
    if NO_EXTENSIONS in message:
        return f"refused: no DuckDB extension is loaded: {BUILT_IN}"
    return None


def looks_like_a_file(name: str) -> bool:
    """Whether a table name DuckDB did not find is a file's path or a URL (DuckDB reads one as
    a table only when files are in reach).

    >>> looks_like_a_file("/etc/passwd"), looks_like_a_file("x.csv"), looks_like_a_file("gamez")
    (True, True, False)
    """
    return "/" in name or "\\" in name or FILE_SUFFIX.search(name) is not None


FILE_SUFFIX = re.compile(r"\.(csv|tsv|txt|parquet|json|jsonl|ndjson|gz|zst|duckdb|db|xlsx?)$",
                         re.IGNORECASE)


def meta(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """The catalog's ``_meta`` entries (its version, each table's fingerprint)."""
    return dict(con.execute("SELECT key, value FROM _meta").fetchall())


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """One transaction for the block: committed at its end, rolled back on any error."""
    con.execute("BEGIN TRANSACTION")
    try:
        yield
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


HEADS_SEEN = "heads_seen"
"""The catalog's memory of every head it loaded: never replaced with a game's rows, kept when
a game's log goes and when a new catalog version rebuilds the rest (:mod:`tabletape.queries.sync`
checks every log still holds the latest head seen of it)."""


def delete_games(con: duckdb.DuckDBPyConnection, games: Sequence[str], *,
                 keep: Sequence[str] = ()) -> None:
    """Remove every row of ``games`` from every table with a ``game`` column but ``keep`` (and
    but :data:`HEADS_SEEN`, the catalog's memory)."""
    if not games:
        return
    tables = [row[0] for row in con.execute(
        "SELECT table_name FROM information_schema.columns WHERE table_schema = 'main' "
        "AND column_name = 'game' AND table_name IN "
        "(SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE')"
    ).fetchall()]
    for table in tables:
        if table in keep or table == HEADS_SEEN:
            continue
        con.execute(f"DELETE FROM {quote(table)} WHERE game IN (SELECT unnest($games))",
                    {"games": list(games)})


def columnar_sql(schema: Schema, path: Path) -> str:
    """A SELECT of the rows in a columnar JSON file (one object of equal-length lists)."""
    spec = "{" + ", ".join(f"'{c.name}': '{c.type}[]'" for c in schema.all_columns()) + "}"
    values = ", ".join(f"unnest({quote(c.name)}) AS {quote(c.name)}"
                       for c in schema.all_columns())
    return (f"SELECT {values} FROM read_json({sql_string(str(path))}, "
            f"maximum_object_size = 2147483647, columns = {spec})")


def insert_file(con: duckdb.DuckDBPyConnection, schema: Schema, rows: str) -> None:
    """Append the rows of the SELECT ``rows`` (every column of ``schema``, in its order, e.g.
    :func:`columnar_sql`) to ``schema``'s table: in bulk."""
    names = ", ".join(quote(c.name) for c in schema.all_columns())
    con.execute(f"INSERT INTO {quote(schema.stored)} ({names}) {rows}")


def to_parquet(con: duckdb.DuckDBPyConnection, rows: str, target: Path) -> None:
    """Write the rows of the SELECT ``rows`` to the Parquet file ``target`` (uncompressed: it is
    read once, at once)."""
    con.execute(f"COPY ({rows}) TO {sql_string(str(target))} "
                "(FORMAT parquet, COMPRESSION uncompressed)")


def sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
