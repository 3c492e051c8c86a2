"""Which games a query sees: real ones only unless asked, and ``stats``' ``--kind``,
``--player`` and ``--since``.

The catalog's views leave simulated and demo games out unless the connection sets the variable
``include_simulated``; a :class:`Scope` narrows one connection further with temporary views named
like the catalog's (``games``, ``results``, ``dice``, ``battles``), which shadow them for that
connection only: every report then counts only what is in scope, without knowing about it.

>>> since_date("2026-03-01")
datetime.datetime(2026, 3, 1, 0, 0)
>>> since_date("2026-03-01T18:30:00Z")
datetime.datetime(2026, 3, 1, 18, 30)
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

import msgspec

from tabletape.ledger.errors import TabletapeError
from tabletape.ledger.text import plural
from tabletape.queries.database import sql_string
from tabletape.queries.schema import INCLUDE_SIMULATED

if TYPE_CHECKING:
    import duckdb


class OutOfScope(TabletapeError):
    """A ``--kind``, ``--player`` or ``--since`` that cannot be understood (exit 2)."""

    exit_code = 2


class Scope(msgspec.Struct, frozen=True, kw_only=True):
    """The games a query counts: a kind, games a player played, games started since a moment."""

    kind: str | None = None
    """The game kind's registry name."""
    player: str | None = None
    """A player's name, matched whatever its case."""
    since: datetime.datetime | None = None
    """Games started at or after this moment (UTC)."""
    include_simulated: bool = False

    def describe(self) -> str:
        """The scope in table words, ``""`` for every real game.

        >>> Scope(kind="risk-strike", player="ann", since=since_date("2026-03-01")).describe()
        'risk-strike games of ann since 2026-03-01'
        """
        parts = [f"{self.kind or ''} games".strip()]
        if self.player:
            parts.append(f"of {self.player}")
        if self.since:
            moment = self.since
            parts.append(f"since {moment:%Y-%m-%d}" if moment.time() == datetime.time() else
                         f"since {moment:%Y-%m-%d %H:%M} UTC")
        text = " ".join(parts)
        return "" if text == "games" else text


INCLUDE_OPTION = "--include-simulated"
"""The one option of ``stats``, ``sql`` and ``export`` that counts simulated and demo games too."""


def set_aside(con: duckdb.DuckDBPyConnection, scope: Scope | None = None) -> dict[str, int]:
    """How many demo and simulated games the catalog holds that the views leave out (none
    when ``scope`` includes them): ``{"demo": 1, "simulated": 0}``."""
    if scope is not None and scope.include_simulated:
        return {"demo": 0, "simulated": 0}
    ((demo, simulated),) = con.execute(
        "SELECT count(*) FILTER (WHERE demo), count(*) FILTER (WHERE simulated AND NOT demo) "
        "FROM all_games").fetchall()
    return {"demo": int(demo), "simulated": int(simulated)}


def left_out_words(counts: dict[str, int]) -> str:
    """``1 demo game and 2 simulated games`` (``""`` when none is left out).

    >>> left_out_words({"demo": 1, "simulated": 2})
    '1 demo game and 2 simulated games'
    >>> left_out_words({"demo": 0, "simulated": 1}), left_out_words({"demo": 0, "simulated": 0})
    ('1 simulated game', '')
    """
    parts = [plural(count, f"{what} game") for what, count in counts.items() if count]
    return " and ".join(parts)


def left_out_note(counts: dict[str, int], *, verb: str = "counts") -> str:
    """The line that says what was left out and the option that brings it in, or ``""``.

    >>> left_out_note({"demo": 1, "simulated": 0})
    '1 demo game left out: --include-simulated counts it too.'
    """
    words = left_out_words(counts)
    if not words:
        return ""
    them = "it" if sum(counts.values()) == 1 else "them"
    return f"{words} left out: {INCLUDE_OPTION} {verb} {them} too."


def since_date(text: str) -> datetime.datetime:
    """``--since``: a date (``YYYY-MM-DD``) or an ISO date and time, as a naive UTC moment."""
    try:
        moment = datetime.datetime.fromisoformat(text.strip())
    except ValueError:
        raise OutOfScope(f"--since takes a date as YYYY-MM-DD (e.g. 2026-03-01) or an ISO date "
                         f"and time (2026-03-01T18:30Z), not '{text}'") from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.UTC).replace(tzinfo=None)
    return moment


def game_kind(text: str) -> str:
    """``--kind``: a game kind's registry name, from its name, alias or a unique prefix."""
    from tabletape.rules.registry import find_game

    return find_game(text).name


def narrow(con: duckdb.DuckDBPyConnection, scope: Scope) -> None:
    """Make ``con``'s views show only the games in ``scope`` (temporary views: this connection
    only). A ``player`` no game in scope has is :class:`OutOfScope`, with the names there are."""
    if scope.include_simulated:
        run(con, f"SET VARIABLE {INCLUDE_SIMULATED} = true")
    catalog = stored(con)
    conditions = []
    if scope.kind:
        conditions.append(f"kind = {sql_string(scope.kind)}")
    if scope.since:
        conditions.append(f"started >= TIMESTAMP {sql_string(scope.since.isoformat(' '))}")
    if conditions:
        keep_games(con, catalog, conditions)
    if scope.player:
        check_player(con, scope.player)
        name = f"lower({sql_string(scope.player)})"
        keep_games(con, catalog, [*conditions, f"game IN (SELECT game FROM {catalog}.all_players "
                                               f"WHERE lower(name) = {name})"])
        keep_rows(con, catalog, "results", f"lower(player) = {name}")
        keep_rows(con, catalog, "dice", f"lower(player) = {name}")
        keep_rows(con, catalog, "battles",
                  f"lower(attacker) = {name} OR lower(defender) = {name}")


def stored(con: duckdb.DuckDBPyConnection) -> str:
    """The catalog's own views, by a name the temporary ones do not shadow: ``"db".main``."""
    ((database,),) = run(con, "SELECT current_database()")
    return f'"{database.replace(chr(34), chr(34) * 2)}".main'


def keep_games(con: duckdb.DuckDBPyConnection, catalog: str, conditions: list[str]) -> None:
    """The connection's ``games`` (and so every view over it): those meeting ``conditions``."""
    run(con, f"CREATE OR REPLACE TEMP VIEW games AS SELECT * FROM {catalog}.games WHERE "
                + " AND ".join(f"({condition})" for condition in conditions))


def keep_rows(con: duckdb.DuckDBPyConnection, catalog: str, view: str, condition: str) -> None:
    """The connection's ``view``: the catalog's rows meeting ``condition``."""
    run(con, f"CREATE OR REPLACE TEMP VIEW {view} AS SELECT * FROM {catalog}.{view} "
                f"WHERE {condition}")


def check_player(con: duckdb.DuckDBPyConnection, player: str) -> None:
    """Refuse a ``player`` nobody in the games in scope is called, whatever the case."""
    known = [row[0] for row in run(con, "SELECT DISTINCT name FROM players ORDER BY name")]
    if not any(name.lower() == player.lower() for name in known):
        raise OutOfScope(no_such_player(player, known))


def run(con: duckdb.DuckDBPyConnection, statement: str) -> list[tuple[Any, ...]]:
    """Run ``statement`` to its end (the connection is then free for the next one)."""
    return con.execute(statement).fetchall()


def no_such_player(player: str, known: list[str]) -> str:
    """Nobody called ``player`` in the games in scope: say who there is.

    >>> no_such_player("bob", ["ann", "Bea"])
    "no player 'bob' in the games counted; players: ann, Bea"
    """
    from tabletape.rules.kernel import closest

    close = closest(player, known)
    hint = f" (did you mean '{close}'?)" if close else ""
    listing = ", ".join(known) if known else "none (no games counted yet)"
    return f"no player '{player}' in the games counted{hint}; players: {listing}"
