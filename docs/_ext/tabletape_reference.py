"""Reference pages generated from tabletape itself at build time (a Sphinx extension).

Every import of tabletape's internals sits in this one module, so that a move of a module inside
tabletape is followed here alone. Three directives:

- ``tabletape-commands``: a section per command (and subcommand) with its ``--help``;
- ``tabletape-catalog``: every catalog table and its columns, from the schema code;
- ``tabletape-schemas``: every published JSON Schema, as ``tabletape schema`` prints it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

HELP_WIDTH = 100
"""Columns of the ``--help`` text shown on the page."""

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


# -- what tabletape says about itself --------------------------------------------------------------


def command_paths() -> list[tuple[str, ...]]:
    """Every command's words after ``tabletape`` (``()``: ``tabletape`` itself), groups before
    their subcommands."""
    import typer.main

    from tabletape import build_app

    return list(walk(typer.main.get_command(build_app()), ()))


def walk(command: Any, path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """``path`` and, for a group, the path of each visible subcommand, depth first."""
    yield path
    if not hasattr(command, "list_commands"):
        return
    context = command.context_class(command, info_name=path[-1] if path else "tabletape")
    for name in command.list_commands(context):
        sub = command.get_command(context, name)
        if sub is not None and not sub.hidden:
            yield from walk(sub, (*path, name))


def help_text(path: Sequence[str]) -> str:
    """What ``tabletape PATH --help`` prints, at :data:`HELP_WIDTH` columns, without colour."""
    from typer.testing import CliRunner

    from tabletape import build_app

    env = {"COLUMNS": str(HELP_WIDTH), "NO_COLOR": "1", "TERM": "dumb"}
    result = CliRunner().invoke(build_app(), [*path, "--help"], prog_name="tabletape", env=env,
                                terminal_width=HELP_WIDTH)
    if result.exit_code != 0:
        raise RuntimeError(f"tabletape {' '.join(path)} --help exited {result.exit_code}")
    lines = [ANSI.sub("", line).rstrip() for line in result.output.splitlines()]
    return "\n".join(lines).strip("\n")


def catalog_tables() -> list[tuple[str, str, list[tuple[str, str, str]]]]:
    """Every catalog table people query: its name, what it holds and its columns (name, DuckDB
    type, meaning); the core tables first, then the projections' ones by name."""
    from tabletape.queries.schema import CORE_SCHEMAS, known_schemas

    schemas = [*CORE_SCHEMAS, *sorted(known_schemas().values(), key=lambda s: s.table)]
    tables = []
    for schema in schemas:
        columns = [("game", "VARCHAR", "The game's id (its handle).")]
        if (numbered := schema.numbered) is not None:
            columns.append((numbered.name, numbered.type, numbered.doc))
        columns += [(c.name, c.type, c.doc) for c in schema.columns]
        tables.append((schema.table, schema.doc, columns))
    return tables


def json_schemas() -> dict[str, str]:
    """Every published JSON Schema by name, as ``tabletape schema NAME`` prints it."""
    from tabletape.queries.json_schemas import build, schema_names

    return {name: json.dumps(build(name), indent=2, ensure_ascii=False)
            for name in schema_names()}


# -- docutils plumbing -----------------------------------------------------------------------------


def section(directive: SphinxDirective, title: str, key: str) -> nodes.section:
    """A section titled ``title`` whose anchor is ``key`` (unique on the page)."""
    node = nodes.section(ids=[nodes.make_id(key)], names=[nodes.fully_normalize_name(key)])
    node += nodes.title(title, "", nodes.literal(title, title))
    directive.state.document.note_implicit_target(node, node)
    return node


def literal(text: str, language: str = "text") -> nodes.literal_block:
    """A code block of ``text``."""
    block = nodes.literal_block(text, text)
    block["language"] = language
    return block


def paragraph(text: str) -> nodes.paragraph:
    """A plain paragraph (docstrings' double backticks shown as code)."""
    node = nodes.paragraph()
    for i, part in enumerate(re.split(r"``([^`]+)``", text)):
        node += nodes.literal(part, part) if i % 2 else nodes.Text(part)
    return node


def table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> nodes.table:
    """A table of ``rows`` under ``head``, the first column as code."""
    group = nodes.tgroup(cols=len(head))
    for width in (20, 15, 65)[:len(head)]:
        group += nodes.colspec(colwidth=width)
    header = nodes.thead()
    header += row(head, code_first=False)
    body = nodes.tbody()
    for cells in rows:
        body += row(cells, code_first=True)
    group += header
    group += body
    node = nodes.table()
    node += group
    return node


def row(cells: Sequence[str], *, code_first: bool) -> nodes.row:
    """One table row."""
    node = nodes.row()
    for i, cell in enumerate(cells):
        entry = nodes.entry()
        entry += (nodes.paragraph("", "", nodes.literal(cell, cell)) if i == 0 and code_first
                  else paragraph(cell))
        node += entry
    return node


# -- the directives --------------------------------------------------------------------------------


class CommandsDirective(SphinxDirective):
    """``tabletape-commands``: one section per command with its ``--help``."""

    def run(self) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        for path in command_paths():
            name = " ".join(("tabletape", *path))
            node = section(self, name, "-".join(("command", *path)))
            node += literal(help_text(path))
            out.append(node)
        return out


class CatalogDirective(SphinxDirective):
    """``tabletape-catalog``: one section per catalog table with a table of its columns."""

    def run(self) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        for name, doc, columns in catalog_tables():
            node = section(self, name, "table-" + name)
            if doc:
                node += paragraph(doc)
            node += table(("column", "type", "meaning"), columns)
            out.append(node)
        return out


class SchemasDirective(SphinxDirective):
    """``tabletape-schemas``: one section per published JSON Schema."""

    def run(self) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        for name, text in json_schemas().items():
            node = section(self, name, "schema-" + name.replace("/", "-"))
            node += literal(text, "json")
            out.append(node)
        return out


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives."""
    app.add_directive("tabletape-commands", CommandsDirective)
    app.add_directive("tabletape-catalog", CatalogDirective)
    app.add_directive("tabletape-schemas", SchemasDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
