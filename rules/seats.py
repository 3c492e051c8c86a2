"""Seats and player look-up: what a typed player name means, the same in every game.

Seats are indexes into the players of the game-started event, in seat order; :data:`NOBODY` is
no seat (the table acting, an empty space, a Threat on no location). :func:`find_seat` reads a
typed name: the exact spelling, then the name in any case, then another name the game gives a
seat (a colour, a hero), then a unique prefix of a player's name; ``table`` where the table may
act. A player's own name always wins over a colour or a hero.

>>> players = ("Olga", "Patrick", "Paula")
>>> find_seat("olga", players), find_seat("pat", players), find_seat("x", players)
(0, 1, None)
>>> find_seat("red", players, aliases=[("blue", "red", "green")])
1
>>> find_seat("table", players, table=True) == NOBODY
True
>>> find_seat("pa", players)
Traceback (most recent call last):
...
tabletape.rules.seats.AmbiguousName: 'pa' begins more than one player's name: type more of it.
Allowed: Patrick, Paula.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletape.ledger.errors import USAGE_EXIT
from tabletape.ledger.events import TABLE
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.names import normal

NOBODY = -1
"""No seat: the table when it acts, nobody on a space, no location, no card."""


class UnknownName(IllegalAction):
    """A typed value that names no player, place or card of the game: input not understood
    (exit 2), not a rule's refusal. Its message says so, with "did you mean" for a near miss
    and the names allowed; a known value the rules refuse now stays an :class:`IllegalAction`
    (exit 1)."""

    exit_code = USAGE_EXIT

    def for_people(self) -> str:
        return self.message()


class AmbiguousName(UnknownName):
    """A typed prefix that begins more than one player's name; ``allowed`` names them."""


def unknown(reason: str, typed: str, allowed: Sequence[str]) -> UnknownName:
    """The :class:`UnknownName` for ``typed``, which names none of ``allowed``: ``reason``, with
    "did you mean" for a near miss, and the names allowed. One way for every game to answer a
    player, place, card or hero it does not know.

    >>> error = unknown("'europa' is not a continent", "europa", ("asia", "europe"))
    >>> error.message(), error.exit_code
    ("'europa' is not a continent (did you mean 'europe'?). Allowed: asia, europe.", 2)
    """
    error = UnknownName(reason, allowed=allowed).suggesting([typed.strip()])
    assert isinstance(error, UnknownName)  # suggesting keeps the class
    return error


def find_seat(typed: str, players: Sequence[str], *, aliases: Sequence[Sequence[str]] = (),
              table: bool = False) -> int | None:
    """The seat ``typed`` names among ``players`` (in seat order), or None when it names none.

    In order: ``table`` (:data:`NOBODY`) when ``table`` is true; the exact spelling; a player's
    name in any case (the first seat so named; a game's players differ in more than case, see
    :meth:`~tabletape.rules.kernel.Rules.options`); each list of ``aliases`` in turn (a seat's
    colour or hero, one entry per seat, any case); then a unique prefix of a player's name. A
    prefix that begins several names raises :class:`AmbiguousName` naming them; an empty name
    names nobody.
    """
    if typed in players:  # the exact spelling: every recorded actor is spelled this way
        return players.index(typed)
    key = folded_name(typed)
    if table and key == TABLE:
        return NOBODY
    folded = list(map(folded_name, players))
    if key in folded:
        return folded.index(key)
    for names in aliases:
        other = list(map(folded_name, names))
        if key in other:
            return other.index(key)
    return unique_prefix(typed, key, players, folded)


def folded_name(name: str) -> str:
    """``name`` as names are compared: NFC (``Zoë`` typed either way), any case, no spaces
    around it.

    >>> folded_name(" ZOE\u0308 ") == folded_name("zoë")
    True
    """
    return normal(name).casefold()


def unique_prefix(typed: str, key: str, players: Sequence[str],
                  folded: Sequence[str]) -> int | None:
    """The one seat whose name begins with ``key``; None when none does."""
    if not key:
        return None
    found = [seat for seat, name in enumerate(folded) if name.startswith(key)]
    if len(found) > 1:
        candidates = [players[seat] for seat in found]
        raise AmbiguousName(f"'{typed}' begins more than one player's name: type more of it",
                            allowed=candidates)
    return found[0] if found else None


def seat_named(typed: str, players: Sequence[str], *, aliases: Sequence[Sequence[str]] = (),
               table: bool = False, refusal: str = "") -> int:
    """The seat ``typed`` names (as :func:`find_seat` reads it); a miss is refused with
    ``refusal`` (by default ``nobody called 'TYPED' plays this game``), the players (and the
    table) as allowed, and "did you mean" for a near miss.

    >>> seat_named("ogla", ("Olga", "Patrick"), table=True)
    Traceback (most recent call last):
    ...
    tabletape.rules.seats.UnknownName: nobody called 'ogla' plays this game (did you mean
    'Olga'?). Allowed: Olga, Patrick, table.
    """
    seat = find_seat(typed, players, aliases=aliases, table=table)
    if seat is None:
        raise no_such_player(typed, players, table=table, refusal=refusal)
    return seat


def no_such_player(typed: str, players: Sequence[str], *, table: bool = False,
                   refusal: str = "") -> UnknownName:
    """The refusal of a name that names no seat: ``refusal`` (by default ``nobody called 'TYPED'
    plays this game``), the players (and the table) allowed, "did you mean" for a near miss."""
    allowed = (*players, TABLE) if table else tuple(players)
    reason = refusal or f"nobody called '{typed}' plays this game"
    return unknown(reason, typed, allowed)
