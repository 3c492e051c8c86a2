"""``tabletape schema [NAME] [--output DIR]``: publish the JSON Schemas of
:mod:`tabletape.queries.json_schemas`.

Without ``--output`` the schema asked for (or all of them, as one bundle) is printed; with it,
one file per schema is written under DIR, with ``index.json`` listing them.

:mod:`tabletape.queries.json_schemas` is imported only when the command runs: it reads every game
and the catalog's Structs (duckdb), which composing the commands for ``--help`` must not pay for.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from tabletape.cli import USAGE_EXIT, JsonOption, fail, is_stdio, out, people_errors, print_json
from tabletape.ledger.text import plural

app = typer.Typer()

INDEX_FILE = "index.json"
"""The file under ``--output DIR`` that lists the schemas written beside it."""


@app.command()
def schema(
    schema_name: Annotated[str | None, typer.Argument(
        help="One schema: an output (status, log, record...), a game kind (risk-strike: its log "
        "lines, each event's payload) or log-line (any game). Default: all of them.",
        show_default=False, metavar="NAME")] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Write one file per schema into this folder (with index.json) "
        "instead of printing them.", show_default=False)] = None,
    as_json: JsonOption = False,
) -> None:
    """JSON Schema (2020-12) of the log line, each game's events and every --json output."""
    from tabletape.queries.json_schemas import build, bundle, dumps, every_schema, resolve

    with people_errors():
        chosen = resolve(schema_name) if schema_name is not None else None
        if output is None or is_stdio(output):
            out_text(dumps(build(chosen) if chosen else bundle(every_schema())))
            return
        files = schema_files(chosen)
        written = write_files(output, files)
    if as_json:
        print_json({"directory": str(output), "files": written})
        return
    listed = f"; {INDEX_FILE} lists them" if INDEX_FILE in written else ""
    out.print(f"Wrote {plural(len(written), 'file')} to {escape(str(output))}{listed}.",
              highlight=False)


def out_text(text: str) -> None:
    """Print JSON text as it is (no rich markup, no wrapping)."""
    import sys

    sys.stdout.write(text)


def schema_files(chosen: str | None) -> dict[str, str]:
    """Relative path -> text of what ``--output`` writes: the one schema, else all and the index."""
    from tabletape.queries.json_schemas import build, dumps, every_schema, index, schema_file

    if chosen is not None:
        return {schema_file(chosen): dumps(build(chosen))}
    schemas = every_schema()
    files = {schema_file(name): dumps(schema) for name, schema in schemas.items()}
    return {**files, INDEX_FILE: dumps(index(schemas))}


def write_files(target: Path, files: dict[str, str]) -> list[str]:
    """Write ``files`` under ``target``, all or nothing: into a scratch folder first, then renamed
    into place (a new folder whole; into a folder that exists, file by file with ``os.replace``,
    so each file is old or new, never half-written). Returns the paths written, sorted."""
    if target.exists() and not target.is_dir():
        fail(f"--output {target} is not a folder: name a folder (made if it does not exist)",
             USAGE_EXIT)
    try:
        place_files(target, files)
    except OSError as error:  # said of the folder asked for, not of a scratch file in it
        raise OSError(error.errno, error.strerror, str(target)) from None
    return sorted(files)


def place_files(target: Path, files: dict[str, str]) -> None:
    """:func:`write_files` once ``target`` is known to be a folder or nothing."""
    fresh = not target.exists()
    home = target.parent if fresh else target
    home.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".tabletape-schema-", dir=home))
    try:
        for relative, text in files.items():
            path = scratch / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        if fresh:
            scratch.rename(target)
        else:
            for relative in files:
                (target / relative).parent.mkdir(parents=True, exist_ok=True)
                os.replace(scratch / relative, target / relative)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
