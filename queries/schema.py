"""The catalog's tables: the core ones it fills itself, the projections' ones, and its views.

A catalog records its version and each table's column fingerprint in ``_meta``; when they differ
from this program's, :func:`prepare_tables` drops what changed (everything, for another version)
so the next load rebuilds it from the logs.

Every table people query is a view over the stored table of the same name with ``all_`` in
front (``battles`` over ``all_battles``): the views show games people played only (no
simulated or demo game), unless the connection sets ``SET VARIABLE include_simulated = true``
(``--include-simulated``); the ``all_`` tables hold every game.

>>> GAMES.table, GAMES.stored, PLAYERS.names[:2]
('games', 'all_games', ('seat', 'name'))
"""

from __future__ import annotations

from collections.abc import Iterable

import duckdb

from tabletape.queries.database import HEADS_SEEN, CatalogError, meta
from tabletape.queries.projections import (
    SHARED_SCHEMAS,
    Column,
    Schema,
    plugin,
    projections_for,
    quote,
)
from tabletape.rules.registry import registered

CATALOG_VERSION = "10"
"""Bump when the core tables change: catalogs of another version are rebuilt from scratch.

2: only verified logs are loaded (catalogs of version 1 may hold rows of changed logs).
3: teams and mixed dice: ``players.team``; ``dice.modifier``; in ``battles`` the sides and
modifier of each die (``attacker_die_sides``...), ``attacker_sides`` NULL when mixed.
4: the kind of bonus of each battle roll: ``battles.attacker_bonus_each`` (on every die),
``attacker_bonus_one`` (placed on one die after the roll) and the defender's, so the ``battles``
report gives bonused rolls their exact odds.
5: simulated games: ``games.simulated``; rows stored in ``all_<table>``, people query views that
leave simulated games out unless asked; ``battles.battle`` (id in the game); ``dice`` and
``battles`` show the game's ``kind``.
6: game identities: ``games.uid`` (the handle stays ``game``).
7: ``heads_seen``, every head a sync loaded (kept through a rebuild for a new version; a log
that no longer holds the latest head seen of it is left out and named).
8: ``events.drawn``, tabletape's mark on an event whose dice it drew (``{"roll", "filled"}``),
so SQL tells derived dice from entered ones and a game rebuilt from the catalog audits alike.
9: heads remembered by game identity too: ``heads_seen.uid`` and ``_sync.uid``, so a log renamed
or copied still has to hold its identity's latest head, and a log loaded before and now gone is
named (``gone``); ``_sync.left_out`` says why a log is left out (``rewritten``, ``vanished``,
``duplicate``), so every sync counts them.
10: demo games: ``games.demo`` (``tabletape demo``), left out of the views as simulated games are.
"""

HEADS_SEEN_DDL = (f"CREATE TABLE IF NOT EXISTS {HEADS_SEEN} (game VARCHAR, seq BIGINT, "
                  "hash VARCHAR, seen_at TIMESTAMP, uid VARCHAR)")
"""``heads_seen``: one row per head of a game a sync loaded, when (UTC), and the game's identity
(NULL in rows kept from a catalog before version 9 until the game loads again)."""
HEADS_SEEN_UID = f"ALTER TABLE {HEADS_SEEN} ADD COLUMN IF NOT EXISTS uid VARCHAR"
"""A ``heads_seen`` kept from before version 9 gains its ``uid`` column."""

INCLUDE_SIMULATED = "include_simulated"
"""The DuckDB variable that lets the views show simulated and demo games too:
``SET VARIABLE include_simulated = true``."""
SET_ASIDE = "(simulated OR demo)"
"""The condition of a ``games`` row the views leave out unless asked: a game bots played or the
demo recorded, not one people played."""

GAMES = Schema("games", (
    Column("kind", "VARCHAR", "Game kind, e.g. ``risk-strike``."),
    Column("uid", "VARCHAR", "The game's global identity (a UUIDv7; ``game`` is its handle). A "
                             "log from before identities: uuid5(namespace, its first hash)."),
    Column("rules_version", "VARCHAR"),
    Column("tabletape_version", "VARCHAR"),
    Column("players", "VARCHAR[]", "Player names in seat order."),
    Column("options", "JSON", "Options in force."),
    Column("seed", "HUGEINT", "Seed of tabletape's dice."),
    Column("simulated", "BOOLEAN", "Played by bots (``tabletape simulate``): its times count "
                                   "from 1970-01-01, never a real date."),
    Column("demo", "BOOLEAN", "Recorded by ``tabletape demo``: left out unless asked for, as "
                              "simulated games are."),
    Column("started", "TIMESTAMP", "When the game-started event was recorded (UTC)."),
    Column("updated", "TIMESTAMP", "When the latest event was recorded (UTC)."),
    Column("ended", "TIMESTAMP", "When the last effective event was recorded, if finished."),
    Column("finished", "BOOLEAN"),
    Column("winners", "VARCHAR[]"),
    Column("team", "VARCHAR", "Winning team or side, when the game has teams (the rules' "
                              "result: ``heroes``/``villain`` in Marvel United)."),
    Column("reason", "VARCHAR", "Why the game ended, in table words."),
    Column("villain", "VARCHAR", "The villain, in games that have one."),
    Column("parent", "VARCHAR", "For a forked game: the game it was forked from."),
    Column("fork_seq", "BIGINT", "For a forked game: the parent's last seq repeated here."),
    Column("head_seq", "BIGINT", "Seq of the latest event (= number of events)."),
    Column("head_hash", "VARCHAR", "Hash of the latest event."),
    Column("events", "BIGINT", "Stored events, game-started, undo and notes included."),
    Column("actions", "BIGINT", "Effective events (what the fold applied)."),
    Column("retracted", "BIGINT", "Events retracted by undo."),
    Column("turns", "INTEGER", "Player turns played (turn >= 1)."),
    Column("rounds", "INTEGER", "Highest round reached."),
    Column("minutes", "DOUBLE", "From game-started to the latest effective event."),
), "One row per game.")

PLAYERS = Schema("players", (
    Column("seat", "INTEGER", "Seat from 1, in the game-started order."),
    Column("name", "VARCHAR"),
    Column("play_order", "INTEGER", "Order of the player's first turn (1: went first)."),
    Column("faction", "VARCHAR", "Faction, where the game has one."),
    Column("leader", "VARCHAR", "Leader, where the game has one."),
    Column("hero", "VARCHAR", "Hero, where the game has one."),
    Column("team", "VARCHAR", "The player's team or side, where the game has teams (the "
                              "``team`` of the player's figures)."),
    Column("won", "BOOLEAN", "Among the winners (false while the game goes on)."),
), "One row per player per game.")

POSITIONS = Schema("_positions", (
    Column("seq", "BIGINT"),
    Column("turn", "INTEGER"),
    Column("round", "INTEGER"),
    Column("phase", "VARCHAR"),
    Column("retracted", "BOOLEAN"),
    Column("effective", "BOOLEAN"),
), "Where each event of the fold happened (joined into ``events``; not kept).")

EVENTS = Schema("events", (
    Column("seq", "BIGINT"),
    Column("turn", "INTEGER", "Turn when the event was recorded (turn info before it)."),
    Column("round", "INTEGER"),
    Column("phase", "VARCHAR"),
    Column("actor", "VARCHAR"),
    Column("type", "VARCHAR", "The event's tag, e.g. ``roll``."),
    Column("recorded_at", "TIMESTAMP", "The event's ``at`` (UTC)."),
    Column("retracted", "BOOLEAN", "Retracted by a later undo."),
    Column("effective", "BOOLEAN", "Applied by the fold (false for game-started, undo, note, "
                                    "retracted)."),
    Column("payload", "JSON", "The event's fields as stored."),
    Column("drawn", "JSON", "tabletape's mark on an event whose dice it drew: ``{\"roll\": its "
                            "index among the game's effective rolls, \"filled\": the fields it "
                            "filled in}``; NULL when the table entered everything."),
    Column("prev", "VARCHAR"),
    Column("hash", "VARCHAR"),
), "Every stored event of every game.")

SYNC = Schema("_sync", (
    Column("kind", "VARCHAR"),
    Column("size", "BIGINT"),
    Column("mtime_ns", "BIGINT"),
    Column("head_seq", "BIGINT"),
    Column("head_hash", "VARCHAR"),
    Column("fingerprint", "VARCHAR"),
    Column("problem", "VARCHAR"),
    Column("left_out", "VARCHAR", "Why a log with a ``problem`` is left out, when the sync counts "
                                  "it: ``rewritten``, ``vanished`` or ``duplicate``."),
    Column("uid", "VARCHAR", "The identity the game's first event stores, once its log verified "
                             "(NULL for a log from before identities)."),
), "What the catalog last loaded of each log.")

CORE_SCHEMAS = (GAMES, PLAYERS, EVENTS)
"""Tables every catalog has, filled by the catalog itself."""

LOG_COLUMNS = ("{'seq': 'BIGINT', 'at': 'VARCHAR', 'actor': 'VARCHAR', 'type': 'VARCHAR', "
               "'payload': 'JSON', 'prev': 'VARCHAR', 'hash': 'VARCHAR'}")


def known_schemas() -> dict[str, Schema]:
    """Every projection table: the shared ones and those of registered games' plug-ins."""
    schemas = {schema.table: schema for schema in SHARED_SCHEMAS}
    for rules in registered():
        if plugin(rules.name) is None:
            continue
        for projection in projections_for(rules):
            add_schema(schemas, projection.schema)
    return schemas


def add_schema(schemas: dict[str, Schema], schema: Schema) -> None:
    """Add ``schema``; two projections of one table must agree on its columns."""
    known = schemas.setdefault(schema.table, schema)
    if known.columns != schema.columns:
        raise CatalogError(f"two projections declare table '{schema.table}' with different "
                           "columns; a table has one schema for every game")


def prepare_tables(con: duckdb.DuckDBPyConnection, schemas: dict[str, Schema],
                   rebuild: bool) -> bool:
    """Create missing tables; drop everything when the catalog's version differs or asked to.

    A projection table whose columns changed is recreated and every game reloaded. Returns True
    when the catalog was (re)built from scratch.
    """
    con.execute("CREATE TABLE IF NOT EXISTS _meta (key VARCHAR PRIMARY KEY, value VARCHAR)")
    stored = meta(con)
    fresh = rebuild or stored.get("catalog_version") != CATALOG_VERSION
    if fresh:
        drop_all(con, forget_heads=rebuild)
    con.execute(HEADS_SEEN_DDL)
    con.execute(HEADS_SEEN_UID)
    changed = [s for s in schemas.values()
               if stored.get(f"table:{s.table}", s.fingerprint()) != s.fingerprint()]
    for schema in changed:
        con.execute(f"DROP TABLE IF EXISTS {quote(schema.stored)}")
    for schema in (*CORE_SCHEMAS, SYNC, *schemas.values()):
        con.execute(schema.ddl())
    if changed:
        con.execute("UPDATE _sync SET fingerprint = ''")
    entries = {"catalog_version": CATALOG_VERSION}
    entries.update({f"table:{s.table}": s.fingerprint() for s in schemas.values()})
    con.execute("INSERT OR REPLACE INTO _meta SELECT unnest($k), unnest($v)",
                {"k": list(entries), "v": list(entries.values())})
    create_views(con, (*CORE_SCHEMAS, *schemas.values()))
    return fresh


def drop_all(con: duckdb.DuckDBPyConnection, *, forget_heads: bool = True) -> None:
    """Drop every table and view but ``_meta`` (and ``heads_seen`` unless ``forget_heads``: an
    explicit ``sync --rebuild`` takes the logs as they are now)."""
    kept = ("_meta",) if forget_heads else ("_meta", HEADS_SEEN)
    for (name, kind) in con.execute(
        "SELECT table_name, table_type FROM information_schema.tables "
        "WHERE table_schema = 'main' AND table_name NOT IN (SELECT unnest($kept))",
        {"kept": list(kept)},
    ).fetchall():
        keyword = "VIEW" if kind == "VIEW" else "TABLE"
        con.execute(f"DROP {keyword} IF EXISTS {quote(name)}")
    con.execute("DELETE FROM _meta")


VIEWS = {
    "results": """
        SELECT g.kind, p.game, p.seat, p.name AS player, p.play_order, p.faction, p.leader,
               p.hero, p.team AS player_team, g.villain, p.won, g.team, g.turns, g.rounds,
               g.minutes
        FROM players p JOIN games g USING (game) WHERE g.finished""",
}
"""Views kept in the catalog besides the tables' own: ``results`` (one row per player of every
finished game; ``team`` is the winning team, ``player_team`` the player's own)."""

WITH_KIND = frozenset({"dice", "battles"})
"""Tables whose view shows the game's ``kind`` after ``game``."""


def table_view(schema: Schema) -> str:
    """The query of the view people see as ``schema.table``: games people played only
    (no simulated or demo game) unless the ``include_simulated`` variable is set (the other
    tables follow the ``games`` view).

    >>> print(table_view(PLAYERS))
    SELECT * FROM all_players WHERE game IN (SELECT game FROM games)
    """
    stored = quote(schema.stored)
    if schema is GAMES:
        return (f"SELECT * FROM {stored} WHERE NOT {SET_ASIDE} "
                f"OR coalesce(getvariable('{INCLUDE_SIMULATED}'), false)")
    if schema.table in WITH_KIND:
        return (f"SELECT t.game, g.kind, t.* EXCLUDE (game) FROM {stored} t "
                "JOIN games g ON g.game = t.game")
    return f"SELECT * FROM {stored} WHERE game IN (SELECT game FROM games)"


def create_views(con: duckdb.DuckDBPyConnection, schemas: Iterable[Schema]) -> None:
    """A view per table (``games`` over ``all_games``...), then :data:`VIEWS`."""
    for schema in schemas:
        con.execute(f"CREATE OR REPLACE VIEW {quote(schema.table)} AS {table_view(schema)}")
    for name, query in VIEWS.items():
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {query}")


def is_current(con: duckdb.DuckDBPyConnection, schemas: dict[str, Schema]) -> bool:
    """True when the catalog has this version's tables and every projection's columns."""
    stored = stored_meta(con)
    return stored.get("catalog_version") == CATALOG_VERSION and all(
        stored.get(f"table:{s.table}") == s.fingerprint() for s in schemas.values())


def stored_meta(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """The catalog's ``_meta`` entries; none for a new, empty catalog file."""
    if not con.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = "
                       "'main' AND table_name = '_meta'").fetchone()[0]:  # type: ignore[index]
        return {}
    return meta(con)


def outdated(con: duckdb.DuckDBPyConnection) -> str:
    """What to tell people when the catalog was made by another catalog version, else ``""``.

    Said by the sync that rebuilds it, so people hear it once.
    """
    version = stored_meta(con).get("catalog_version")
    if version is None or version == CATALOG_VERSION:
        return ""
    return (f"the catalog was made by another version of tabletape (catalog version {version}, "
            f"this one writes {CATALOG_VERSION}): it is rebuilt from the logs")
