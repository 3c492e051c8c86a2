"""The catalog as Parquet a data team can use: ``export --parquet DIR`` and ``sql --parquet DIR``.

``DIR/<table>/kind=<kind>/month=<YYYY-MM>/data_0.parquet`` (Hive partitions by game kind and the
UTC month the game started), every file carrying key-value metadata (:func:`file_metadata`),
and ``DIR/_tabletape.json`` (:data:`MANIFEST`) saying what was exported: versions, time, each
table's rows, columns and JSON columns. The export is built whole in a hidden folder beside
``DIR`` and renamed into place (:func:`tabletape.queries.site.staged`), so a reader never sees
half an export and a failed one leaves the earlier export as it was.

Types read back exactly by DuckDB, pyarrow, polars and Spark (:func:`portable`).
"""

from __future__ import annotations

import datetime
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabletape.ledger.errors import TabletapeError
from tabletape.queries.projections import quote
from tabletape.queries.transfer import TransferError, inside_ledger

if TYPE_CHECKING:
    import duckdb

MANIFEST = "_tabletape.json"
"""The file that says a folder is a Parquet export tabletape wrote (and may replace). Its name
starts with ``_``, which Hive-style readers (Spark, Trino) skip."""

PARTITIONS = ("kind", "month")
"""Hive partition columns, outermost first: the game's kind, the UTC month it started."""

METADATA_PREFIX = "tabletape."


class ParquetRefused(TabletapeError):
    """A folder that is not a Parquet export to read, or one an export may not replace."""

    exit_code = 2


class ParquetNotWritten(TabletapeError):
    """The export could not be written; the earlier export (if any) is as it was (exit 1)."""

    exit_code = 1


def portable(columns: list[tuple[str, str]]) -> str:
    """Select expressions for ``(name, DuckDB type)`` columns, in types Parquet keeps exactly.

    * ``HUGEINT`` (the catalog's ``seed``) as ``BIGINT``: Parquet has no 128-bit integer, and
      DuckDB writes HUGEINT as DOUBLE, which rounds a seed like 4037046547977563902. Every seed
      tabletape draws or accepts is in 0..2**63-1 (``new --seed`` refuses others), so BIGINT
      holds each exactly; a seed outside it (a hand-made log) fails the export, never rounds.
    * ``TIMESTAMP`` (UTC by the ledger's convention) as a UTC instant (``TIMESTAMPTZ``), so
      readers in any time zone see the same moment; ``timezone('UTC', …)`` does not depend on
      the session's ``TimeZone``.
    * ``JSON`` as plain text (``VARCHAR``): DuckDB's JSON annotation reads back as binary in
      polars and as an extension type in pyarrow; text reads the same everywhere (which
      columns hold JSON is in each file's metadata and the manifest).

    >>> print(portable([("seed", "HUGEINT"), ("started", "TIMESTAMP"), ("options", "JSON")]))
    CAST(seed AS BIGINT) AS seed, timezone('UTC', started) AS started, CAST(options AS VARCHAR) ...
    """
    casts = {"HUGEINT": "CAST({} AS BIGINT)", "TIMESTAMP": "timezone('UTC', {})",
             "JSON": "CAST({} AS VARCHAR)"}
    expressions = []
    for name, type_ in columns:
        column = quote(name)
        cast = casts.get(type_)
        expressions.append(column if cast is None else f"{cast.format(column)} AS {column}")
    return ", ".join(expressions)


def public_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The catalog's tables people query: the view over each stored ``all_`` table (what
    ``sql`` shows, simulated games left out unless ``include_simulated`` is set)."""
    return [row[0] for row in con.execute(
        "SELECT v.table_name FROM information_schema.tables v JOIN information_schema.tables t "
        "ON t.table_schema = 'main' AND t.table_type = 'BASE TABLE' "
        "AND t.table_name = 'all_' || v.table_name "
        "WHERE v.table_schema = 'main' AND v.table_type = 'VIEW' ORDER BY v.table_name"
    ).fetchall()]


def table_columns(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple[str, str]]:
    """``(name, DuckDB type)`` of each of ``table``'s columns, in order."""
    return [(name, type_) for name, type_ in con.execute(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = "
        "'main' AND table_name = ? ORDER BY ordinal_position", [table]).fetchall()]


def partitioned_select(table: str, columns: list[tuple[str, str]]) -> str:
    """``table``'s rows in portable types, then its game's ``kind`` and ``month`` of play.

    >>> print(partitioned_select("dice", [("game", "VARCHAR"), ("kind", "VARCHAR")]))
    SELECT game, kind, month FROM (SELECT t.* EXCLUDE (kind), g.kind, strftime(g.started, ...
    """
    data = [(name, type_) for name, type_ in columns if name not in PARTITIONS]
    rows = "t.* EXCLUDE (kind)" if any(name == "kind" for name, _ in columns) else "t.*"
    source = (f"SELECT {rows}, g.kind, strftime(g.started, '%Y-%m') AS month FROM {quote(table)} "
              "t JOIN (SELECT game, kind, started FROM games) g USING (game)")
    return f"SELECT {portable(data)}, {', '.join(PARTITIONS)} FROM ({source})"


def file_metadata(versions: dict[str, str], table: str, json_columns: list[str]) -> str:
    """The ``KV_METADATA`` struct of a table's files: ``versions`` (tabletape, catalog, export
    time), the table, its JSON columns (comma-separated), every key prefixed ``tabletape.``.

    >>> file_metadata({"version": "1"}, "games", ["options"])
    "{'tabletape.version': '1', 'tabletape.table': 'games', 'tabletape.json_columns': 'options'}"
    """
    entries = {**versions, "table": table, "json_columns": ",".join(json_columns)}
    return "{" + ", ".join(f"{literal(METADATA_PREFIX + key)}: {literal(value)}"
                           for key, value in entries.items()) + "}"


def literal(text: str) -> str:
    """``text`` as a SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def check_target(directory: Path, ledger_root: Path | None) -> Path:
    """The folder an export replaces, spelled out; refused when it is the ledger (or in it, or
    around it), a file, a link, the current folder, or a folder holding anything but an earlier
    export (its :data:`MANIFEST`): no file of anyone's is lost to an export."""
    from tabletape.queries.site import spelled_out

    target = spelled_out(directory)
    if ledger_root is not None and inside_ledger(target, ledger_root):
        raise TransferError(ledger_clash(directory, target, ledger_root))
    if target.is_symlink():
        raise ParquetRefused(f"{directory} is a link: name the folder itself, or another one")
    ledger_near(directory, target, "export to a folder outside it")
    if not target.exists():
        if not target.parent.is_dir():
            raise ParquetRefused(f"cannot export to {directory}: the folder {target.parent} does "
                                 "not exist (create it first)")
        return target
    if not target.is_dir():
        raise ParquetRefused(f"{directory} is a file: the export is a folder; name a new folder")
    here = Path.cwd().resolve()
    if target.resolve() in (here, *here.parents):
        raise ParquetRefused(f"{directory} is the current folder or holds it: the export "
                             "replaces its whole folder, so name a new folder")
    if os.listdir(target) and not (target / MANIFEST).is_file():
        raise ParquetRefused(f"{directory} holds files and no {MANIFEST} (an export did not "
                             "write it): name a new or empty folder")
    return target


def ledger_clash(directory: Path, target: Path, ledger_root: Path,
                 advice: str = "export to a folder outside it") -> str:
    """Why ``directory`` (spelled out ``target``), which is, lies in or holds the ledger
    ``ledger_root``, cannot be an export's folder.

    >>> ledger_clash(Path("/"), Path("/"), Path("/l"))
    '/ holds the ledger /l: export to a folder outside it'
    """
    real, ledger = target.resolve(), ledger_root.resolve()
    where = "holds" if real != ledger and real in ledger.parents else "is inside"
    return f"{directory} {where} the ledger {ledger_root}: {advice}"


def export_parquet(con: duckdb.DuckDBPyConnection, directory: Path,
                   ledger_root: Path | None = None) -> dict[str, int]:
    """Every catalog table as Parquet under ``directory/<table>/kind=…/month=…/``, replacing an
    earlier export whole; rows per table. Never the ledger ``ledger_root`` or around it.

    Incremental: a partition whose games are what the earlier export in ``directory`` had
    (:func:`fingerprints`) is not written again; its files are linked (or copied) from there.
    """
    target = check_target(directory, ledger_root)
    versions = export_versions()
    now = fingerprints(con, versions)
    kept = unchanged(target, now)
    with staged_export(target) as stage:
        rows = {}
        for table in public_tables(con):
            rows[table] = write_table(con, stage, table, versions, kept=kept)["rows"]
            keep_partitions(target / table, stage / table, kept)
        finish_export(stage, export_manifest(con, versions, now, rows, catalog_problems(con)))
    return rows


@contextmanager
def staged_export(target: Path) -> Iterator[Path]:
    """A hidden folder beside ``target`` to build an export in, renamed into place when the
    block ends well (:func:`tabletape.queries.site.staged`); a write that fails is
    :class:`ParquetNotWritten`, the earlier export left as it was."""
    from tabletape.queries.site import SiteNotWritten, staged

    try:
        with staged(target) as stage:
            yield stage
    except SiteNotWritten as error:
        raise ParquetNotWritten(str(error)) from None


def export_manifest(con: duckdb.DuckDBPyConnection, versions: dict[str, str],
                    prints: dict[str, str], rows: dict[str, int],
                    problems: dict[str, str]) -> dict[str, Any]:
    """The :data:`MANIFEST` of an export: ``versions``, the partition columns, each partition's
    fingerprint, each table's entry (:func:`table_entry`, ``rows`` of it), and every game left
    out because its log does not verify or fold (``problems``: game -> why)."""
    return {**versions, "partitions": list(PARTITIONS), "fingerprints": prints,
            "tables": {table: table_entry(con, table, count) for table, count in rows.items()},
            "problems": dict(sorted(problems.items()))}


def catalog_problems(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """Every game the catalog on ``con`` leaves out, and why (as ``sync`` names them)."""
    from tabletape.queries.sync import stored_problems

    return stored_problems(con)


def finish_export(stage: Path, manifest: dict[str, Any]) -> None:
    """Write the manifest into ``stage`` and every file of it to the disk, ready to rename."""
    write_manifest(stage / MANIFEST, manifest)
    sync_files(stage)


PARTITION_KEY = "'kind=' || kind || '/month=' || month"
"""A row's partition folder, as SQL over ``kind`` and ``month`` (``kind=duel/month=2026-01``)."""


def fingerprints(con: duckdb.DuckDBPyConnection, versions: dict[str, str]) -> dict[str, str]:
    """Each partition's source: a hash of its games' ids, head hashes and rules versions, with
    tabletape's and the catalog's versions (a new version writes every partition again)."""
    return fingerprint_partitions(partition_games(con), versions)


def partition_games(con: duckdb.DuckDBPyConnection) -> list[tuple[str, ...]]:
    """``(partition, game, head hash, rules version)`` of every game the ``games`` view shows."""
    return [tuple(map(str, row)) for row in con.execute(
        f"SELECT {PARTITION_KEY}, game, head_hash, rules_version FROM (SELECT *, "
        "strftime(started, '%Y-%m') AS month FROM games) ORDER BY ALL").fetchall()]


def fingerprint_partitions(games: Iterable[Sequence[str]], versions: dict[str, str]
                           ) -> dict[str, str]:
    """:func:`fingerprints` of :func:`partition_games` rows, gathered from one catalog or many.

    >>> prints = fingerprint_partitions([("kind=a/month=2026-01", "a-1", "h", "1")],
    ...                                 {"version": "1", "catalog_version": "6"})
    >>> list(prints), len(prints["kind=a/month=2026-01"])
    (['kind=a/month=2026-01'], 64)
    """
    import hashlib

    sources: dict[str, list[str]] = {}
    for key, *game in sorted(map(tuple, games)):
        sources.setdefault(key, [versions["version"], versions["catalog_version"]]).append(
            " ".join(game))
    return {key: hashlib.sha256("\n".join(lines).encode()).hexdigest()
            for key, lines in sources.items()}


def unchanged(target: Path, now: dict[str, str]) -> set[str]:
    """The partitions the export in ``target`` already holds as ``now`` has them (none when
    there is no usable earlier export)."""
    try:
        earlier = read_manifest(target) if (target / MANIFEST).is_file() else {}
    except ParquetRefused:
        return set()
    before = earlier.get("fingerprints")
    if not isinstance(before, dict):
        return set()
    return {key for key, print_ in now.items() if before.get(key) == print_}


def keep_partitions(earlier: Path, table: Path, kept: set[str]) -> None:
    """Link (or copy) the earlier export's files of each ``kept`` partition into ``table``."""
    import shutil

    for key in sorted(kept):
        source = earlier / key
        if not source.is_dir() or source.is_symlink():
            continue
        (table / key).mkdir(parents=True, exist_ok=True)
        for file in sorted(source.glob("*.parquet")):
            try:
                os.link(file, table / key / file.name)
            except OSError:
                shutil.copy2(file, table / key / file.name)


def export_versions() -> dict[str, str]:
    """What every file's metadata and the manifest say: tabletape's version, the catalog's,
    the export's time (UTC, ISO ending in ``Z``)."""
    from tabletape.ledger import __version__
    from tabletape.queries.schema import CATALOG_VERSION

    now = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    return {"version": __version__, "catalog_version": CATALOG_VERSION,
            "exported_at": now.isoformat(timespec="seconds") + "Z"}


def write_table(con: duckdb.DuckDBPyConnection, stage: Path, table: str,
                versions: dict[str, str], *,
                kept: AbstractSet[str] = frozenset(), files: str = "") -> dict[str, Any]:
    """``table``'s partitions under ``stage/<table>``, but the ``kept`` ones; its manifest entry
    (rows, columns as the catalog types them, JSON columns). A write DuckDB cannot do is
    :class:`OSError`.

    ``files``: the files' name pattern (DuckDB's ``FILENAME_PATTERN``, ``{i}`` numbering them)
    when several writers fill one folder (the Spark job's tasks); by default ``data_0.parquet``
    in a folder of its own.
    """
    import duckdb

    select = partitioned_select(table, table_columns(con, table))
    (rows,) = con.execute(f"SELECT count(*) FROM ({select})").fetchone()  # type: ignore[misc]
    if kept:
        select = (f"SELECT * FROM ({select}) WHERE {PARTITION_KEY} NOT IN "
                  f"({', '.join(map(literal, sorted(kept)))})")
    folder = str(stage / table).replace("'", "''")
    entry = table_entry(con, table, rows)
    shared = f", FILENAME_PATTERN {literal(files)}, OVERWRITE_OR_IGNORE" if files else ""
    try:
        con.execute(f"COPY ({select}) TO '{folder}' (FORMAT PARQUET, PARTITION_BY "
                    f"({', '.join(PARTITIONS)}), KV_METADATA "
                    f"{file_metadata(versions, table, entry['json_columns'])}{shared})")
    except duckdb.IOException as error:
        raise OSError(f"cannot write {table}: {error}") from None
    return entry


def table_entry(con: duckdb.DuckDBPyConnection, table: str, rows: int) -> dict[str, Any]:
    """``table``'s entry in the manifest: its ``rows``, its columns as the catalog types them,
    its JSON columns."""
    columns = table_columns(con, table)
    return {"rows": rows, "columns": dict(columns),
            "json_columns": [name for name, type_ in columns if type_ == "JSON"]}


def write_manifest(path: Path, manifest: dict[str, Any]) -> None:
    with path.open("x", encoding="utf-8") as file:
        json.dump(manifest, file, indent=2)
        file.write("\n")


def sync_files(stage: Path) -> None:
    """Every file and folder under ``stage`` on the disk before it is renamed into place."""
    from tabletape.ledger.store import fsync_dir

    for folder, _, files in os.walk(stage, topdown=False):
        for name in files:
            fd = os.open(Path(folder) / name, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        fsync_dir(Path(folder))


# -- reading an export ---------------------------------------------------------------------------


def read_manifest(directory: Path) -> dict[str, Any]:
    """The manifest of the export in ``directory``; a folder that is not one is refused."""
    path = directory / MANIFEST
    manifest: Any = None
    if not directory.is_dir():
        what = "no such folder" if not directory.exists() else "not a folder"
        raise ParquetRefused(f"{directory}: {what}: name the folder `tabletape export --parquet` "
                             "wrote")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        problem = manifest_problem(manifest)
    except FileNotFoundError:
        raise ParquetRefused(f"{directory} is not a tabletape Parquet export (no {MANIFEST}): "
                             "name a folder `tabletape export --parquet` wrote") from None
    except (OSError, ValueError) as error:
        problem = type(error).__name__
    if problem:
        raise ParquetRefused(f"{path} cannot be read as an export's manifest ({problem}): "
                             "export again")
    return dict(manifest)


NAME = re.compile(r"[a-z_][a-z0-9_]*")
TYPE = re.compile(r"[A-Z][A-Z0-9_]*(\[\])*")


def manifest_problem(manifest: Any) -> str:
    """What makes ``manifest`` unusable, or ``""``: its table and column names and types become
    SQL and paths, so each must look as a catalog's do (a hostile file runs nothing).

    >>> manifest_problem({"tables": {"t": {"rows": 1, "columns": {"a": "INTEGER[]"}}}})
    ''
    >>> manifest_problem({"tables": {"t": {"rows": 1, "columns": {"a": "INT); DROP"}}}})
    "column t.a has the type 'INT); DROP'"
    """
    tables = manifest.get("tables") if isinstance(manifest, dict) else None
    if not isinstance(tables, dict):
        return "no tables"
    for table, entry in tables.items():
        if not NAME.fullmatch(table):
            return f"a table named {table!r}"
        if not isinstance(entry, dict) or not isinstance(entry.get("rows"), int) or \
                not isinstance(entry.get("columns"), dict):
            return f"table {table} has no rows count or columns"
        for name, type_ in entry["columns"].items():
            if not NAME.fullmatch(name):
                return f"a column of {table} named {name!r}"
            if not isinstance(type_, str) or not TYPE.fullmatch(type_):
                return f"column {table}.{name} has the type {type_!r}"
    return ""


READS_NO_LEDGER = ("refused: a query on an export reads no ledger; name a folder `tabletape export "
                   "--parquet` wrote, outside any ledger")


def export_reach(directory: Path) -> tuple[list[Path], Path]:
    """What a query on the export in ``directory`` may read: its tables' folders (those its
    manifest names) and its manifest; nothing else in ``directory``. Refused when the export is
    damaged (:func:`damage`), or is, holds or lies in a ledger."""
    real = directory.resolve()
    if real.is_dir():
        ledger_near(directory, real, READS_NO_LEDGER)
    manifest = read_manifest(directory)
    problem = damage(real, manifest)
    if problem:
        raise damaged(directory, problem)
    return [real / table for table in manifest["tables"]], real / MANIFEST


def damaged(directory: Path, problem: str) -> ParquetRefused:
    """The refusal of the damaged export in ``directory`` (``problem`` says what)."""
    return ParquetRefused(f"the export {directory} is damaged ({problem}): export it again "
                          "(`tabletape export --parquet DIR`)")


def unreadable_file(error: Exception, directory: Path) -> str:
    """What DuckDB's ``error`` says of a file of the export in ``directory`` it could not read
    (one line), or ``""`` when it names none.

    >>> unreadable_file(Exception("Invalid Input Error: File 'x/g/d.parquet' too small to be a "
    ...                           "Parquet file\\nLINE 1: ..."), Path("x"))
    "File 'x/g/d.parquet' too small to be a Parquet file"
    """
    first = str(error).strip().split("\n", 1)[0]
    named = any(f"{folder}{os.sep}" in first for folder in (directory, directory.resolve()))
    return first.split(" Error: ", 1)[-1] if named else ""


def ledger_near(directory: Path, target: Path, advice: str) -> None:
    """Refuse ``directory`` (spelled out ``target``) when it is a ledger, lies in one or holds
    one as a folder of its own (:func:`tabletape.queries.database.is_ledger`)."""
    from tabletape.queries.database import ledger_around, ledger_beneath

    ledger = ledger_around(target) if target.exists() else ledger_around(target.parent)
    ledger = ledger or ledger_beneath(target)
    if ledger is not None:
        raise ParquetRefused(ledger_clash(directory, target, ledger, advice))


def damage(directory: Path, manifest: dict[str, Any]) -> str:
    """What in ``directory`` an export does not hold, or ``""``: each table's folder holds
    ``kind=…/month=…/*.parquet`` files only (no link), one at least when the table has rows."""
    for table, entry in manifest["tables"].items():
        folder = directory / table
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            return f"{table} is not a folder"
        files = partition_files(folder) if folder.is_dir() else []
        if isinstance(files, str):
            return files
        if entry["rows"] and not files:
            return f"the files of the table {table} are missing"
    return ""


def partition_files(folder: Path) -> list[Path] | str:
    """The Parquet files in ``folder``'s Hive partitions (``kind=…/month=…/``), or what does not
    belong there (a dot file, say ``.DS_Store``, is let be)."""
    files: list[Path] = []
    levels = (*(f"{name}=" for name in PARTITIONS), "")
    stack = [(folder, 0)]
    while stack:
        here, level = stack.pop()
        for entry in sorted(here.iterdir()):
            if entry.name.startswith(".") and entry.is_file() and not entry.is_symlink():
                continue
            leaf = level == len(PARTITIONS)
            shown = entry.relative_to(folder.parent)
            if entry.is_symlink():
                return f"{shown} is a link"
            if leaf and entry.is_file() and entry.suffix == ".parquet":
                files.append(entry)
            elif not leaf and entry.is_dir() and entry.name.startswith(levels[level]):
                stack.append((entry, level + 1))
            else:
                return f"{shown} does not belong in it"
    return files


def open_export(con: duckdb.DuckDBPyConnection, directory: Path) -> None:
    """Views on ``con`` named like the catalog's tables over the export in ``directory``: the
    catalog's columns and types (JSON columns as JSON again), then ``kind`` and ``month``."""
    manifest = read_manifest(directory)
    for table, entry in manifest["tables"].items():
        con.execute(f"CREATE VIEW {quote(table)} AS {export_view(directory, table, entry)}")


def export_view(directory: Path, table: str, entry: dict[str, Any]) -> str:
    """The SELECT over ``table``'s files (none when it had no rows: an empty table)."""
    columns = [(name, type_) for name, type_ in entry["columns"].items()
               if name not in PARTITIONS]
    if not entry["rows"]:
        empty = ", ".join(f"CAST(NULL AS {type_}) AS {quote(name)}" for name, type_ in columns)
        return f"SELECT {empty}, NULL::VARCHAR AS kind, NULL::VARCHAR AS month WHERE false"
    typed = ", ".join(f"{catalog_type(quote(name), type_)} AS {quote(name)}"
                      for name, type_ in columns)
    files = str(directory / table / "**" / "*.parquet").replace("'", "''")
    return (f"SELECT {typed}, kind, month FROM read_parquet('{files}', hive_partitioning = "
            "true, hive_types = {'kind': 'VARCHAR', 'month': 'VARCHAR'})")


def catalog_type(column: str, type_: str) -> str:
    """``column`` read from Parquet back in the catalog's ``type_`` (a UTC instant as the
    catalog's UTC ``TIMESTAMP``, whatever the session's time zone).

    >>> catalog_type("started", "TIMESTAMP"), catalog_type("seed", "HUGEINT")
    ("timezone('UTC', started)", 'CAST(seed AS HUGEINT)')
    """
    if type_ == "TIMESTAMP":
        return f"timezone('UTC', {column})"
    return f"CAST({column} AS {type_})"
