"""The SQL door's first check: which statements a person may run on the catalog.

Only reading statements pass (SELECT and its kin, EXPLAIN of one, a few PRAGMAs that only
read); anything else is refused with :class:`~tabletape.queries.output.QueryRefused`, before any
connection holding data sees it. The door's connection settings and DuckDB's own refusals are
:mod:`tabletape.queries.database`'s.

>>> check_read_only("SELECT 1")
>>> check_read_only("DROP TABLE games")
Traceback (most recent call last):
...
tabletape.queries.output.QueryRefused: the catalog is read-only: DROP statements are refused...
"""

from __future__ import annotations

import re

from tabletape.queries.output import QueryRefused

PRAGMA_READS = frozenset({
    "show_tables", "show_tables_expanded", "table_info", "show", "database_size",
    "storage_info", "version", "platform", "database_list", "functions", "collations",
    "user_agent", "metadata_info",
})
"""PRAGMAs that only read (everything else, e.g. ``PRAGMA threads=…``, is refused)."""


def check_read_only(query: str) -> None:
    """Refuse anything but reading statements, before any connection with data sees them."""
    import duckdb

    from tabletape.queries.database import DOOR_CONFIG, REFUSED_BECAUSE

    with duckdb.connect(config=DOOR_CONFIG) as parser:  # parses only: nothing runs here
        statements = parser.extract_statements(query)
    if not statements:
        raise QueryRefused("no SQL statement given")
    if len(statements) > 1:
        raise QueryRefused("give one statement at a time")
    statement = statements[0]
    try:
        kind = statement.type.name
    except ValueError:  # a kind this DuckDB's Python enum does not know (UPDATE EXTENSIONS)
        kind = ""
    text = without_comments(statement.query).strip().rstrip(";").strip()
    if kind == "EXPLAIN" and (inner := EXPLAINED.fullmatch(text)):
        return check_read_only(inner.group(1))
    if kind == "PRAGMA":
        words = text.split(None, 1)
        name = re.split(r"[\s(=]", words[1], maxsplit=1)[0].lower() if len(words) > 1 else ""
        if name in PRAGMA_READS and "=" not in text:
            return None
    elif kind == "SELECT":
        return None
    shown = typed_kind(text, kind)
    why = f", as {REFUSED_BECAUSE[shown]}" if shown in REFUSED_BECAUSE else ""
    raise QueryRefused(
        f"the catalog is read-only: {shown} statements are refused{why}; "
        "use SELECT, WITH, FROM, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN or PRAGMA show_tables / "
        "table_info (to write a file use --format csv|json|parquet --output FILE)"
    )


EXPLAINED = re.compile(r"EXPLAIN\s+(?:ANALY[SZ]E\s+)?(?:\([^()]*\)\s*)?(.+)",
                       re.IGNORECASE | re.DOTALL)
"""``EXPLAIN [ANALYZE] [(options)] statement``: the statement explained is checked."""


COMMENT_OR_STRING = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|/\*.*?\*/""", re.DOTALL)


def without_comments(text: str) -> str:
    """``text`` with its SQL comments blanked out (quoted text kept as it is).

    >>> without_comments("/* x */ SET a = '--' -- hi")
    "  SET a = '--'  "
    """
    return COMMENT_OR_STRING.sub(
        lambda m: m.group(0) if m.group(0)[0] in "'\"" else " ", text)


PHRASES = ("FORCE INSTALL", "UPDATE EXTENSIONS", "IMPORT DATABASE", "EXPORT DATABASE",
           "COPY FROM DATABASE", "SET VARIABLE")
"""Statements named by more than their first word."""


def typed_kind(text: str, kind: str) -> str:
    """The statement's kind as the person typed it: its first word (a few :data:`PHRASES`
    more), or DuckDB's ``kind`` when it starts with ``WITH`` or a parenthesis.

    >>> typed_kind("reset threads", "SET"), typed_kind("force  install x", "LOAD")
    ('RESET', 'FORCE INSTALL')
    >>> typed_kind("WITH a AS (SELECT 1) INSERT INTO t FROM a", "INSERT")
    'INSERT'
    """
    words = text.upper().split()
    if not words or words[0] == "WITH" or words[0].startswith("("):
        return kind.replace("_", " ") or "this"
    spelled = " ".join(words[:3])
    return next((phrase for phrase in PHRASES if f"{spelled} ".startswith(f"{phrase} ")),
                re.split(r"[^A-Z_]", words[0], maxsplit=1)[0] or words[0])
