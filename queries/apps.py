"""Plays for the apps players keep their records in: BG Stats and BoardGameGeek.

A game of the ledger becomes a :class:`Play` (:func:`read_play`, from its verified records, in
the one fold the catalog rows come from), and a play is written three ways, each a pure
function of plays:

* :func:`bgstats_file`: the JSON BG Stats imports (``games``, ``players``, ``locations``,
  ``plays``), in the shape of the app's own export and play files;
* :func:`bgstats_link`: the app's create-play link,
  ``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>`` (the form most apps
  send: it opens BG Stats where it is installed, and opens from a chat), or the same in the
  app's own scheme, ``bgstats://app.bgstatsapp.com/createPlay.html?data=…``
  (:func:`bgstats_play` is the JSON);
* :func:`bgg_xml`: BoardGameGeek's plays XML (the shape of the ``xmlapi2/plays`` answer).

Identities are uuid5 in :data:`NAMESPACE`: a play's from its game id, a player's from their
name (in any case), a game's from its kind, a location's from its name. Exporting again gives
the same ids, so BG Stats updates a play instead of adding it twice.

Times: the ledger's are UTC. BG Stats' ``playDate`` is written in UTC, the time the play ended
(``YYYY-MM-DD HH:MM:SS``, as the create-play contract is quoted by the apps that send it);
BoardGameGeek's ``date`` is the day the game started in this machine's time zone (``zone``).

>>> play = Play(game="rs-k7pq", kind="risk-strike", title="Risk Strike", bgg_id=None,
...             started=datetime(2026, 1, 2, 19, 0, tzinfo=UTC),
...             ended=datetime(2026, 1, 2, 19, 25, 30, tzinfo=UTC), minutes=26,
...             seats=(Seat(seat=1, name="Olga", start_player=True, winner=True),
...                    Seat(seat=2, name="Patrick")))
>>> bgstats_play(play)["playDate"], bgstats_play(play)["players"][0]["winner"]
('2026-01-02 19:25:30', True)
>>> bgstats_link(play).startswith("https://app.bgstatsapp.com/createPlay.html?data=%7B")
True
>>> bgstats_link(play, APP_LINK).startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=%7B")
True
"""

from __future__ import annotations

import json
import re
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, tzinfo
from typing import Any
from urllib.parse import quote

import msgspec

from tabletape.ledger import Record
from tabletape.ledger.errors import TabletapeError
from tabletape.queries.rows import GameRows
from tabletape.queries.schema import GAMES, PLAYERS
from tabletape.replay.visitor import GameInfo, Visitor, walk

NAMESPACE = uuid.UUID("3e0c5b8e-2f7a-5d0b-9c1e-7a61a55e0916")
"""tabletape's own uuid namespace for the ids it gives plays, players, games and locations
(fixed forever: changing it would make BG Stats see every exported play as new)."""

SOURCE_NAME = "tabletape"
"""The ``sourceName`` BG Stats remembers its game and player matches under."""

LINK = "https://app.bgstatsapp.com/createPlay.html"
"""BG Stats' create-play link, as most apps send it: a web address the app claims (a universal
link), so it opens BG Stats on a phone that has it, and can be sent in a chat."""
APP_LINK = "bgstats://app.bgstatsapp.com/createPlay.html"
"""The same link in BG Stats' own URL scheme (opens the app directly; ``export --app-link``)."""

DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
"""BG Stats' dates: ``2020-10-23 19:16:58``."""


class NotAPlay(TabletapeError):
    """A game the apps are not given: not finished, simulated, or without recorded times."""

    def __init__(self, message: str, why: str = "") -> None:
        super().__init__(message)
        self.why = why or message
        """Why, in a few words: ``not finished``, ``simulated``."""


class Seat(msgspec.Struct, frozen=True, kw_only=True):
    """One player of a play, as the apps see them."""

    seat: int
    """Seat from 1, in the game-started order."""
    name: str
    start_player: bool = False
    """Took the game's first turn."""
    winner: bool = False
    play_order: int | None = None
    """Order of the player's first turn (1: went first), when they had one."""
    role: str = ""
    """The hero (Marvel United), the faction and leader (Transformers): ``Iron Man``."""
    team: str = ""
    """The player's team or side, in games with teams: ``Heroes``, ``Autobots``."""
    colour: str = ""
    """The player's colour, where the game gives one (Deep Space): ``red``."""
    new: bool = False
    """Their first game of this kind in the ledger (:func:`with_new_players`)."""


class Play(msgspec.Struct, frozen=True, kw_only=True):
    """One game of the ledger, as the apps record a play."""

    game: str
    """The game id: ``rs-k7pq``."""
    kind: str
    title: str
    """The name on the box: ``Risk Strike``."""
    bgg_id: int | None
    """BoardGameGeek's id of the game, None when it has none we know."""
    started: datetime
    """When the game-started event was recorded (UTC)."""
    ended: datetime
    """When the last effective event was recorded (UTC); the latest event for an unfinished
    game."""
    minutes: int
    seats: tuple[Seat, ...]
    finished: bool = True
    simulated: bool = False
    demo: bool = False
    """Recorded by ``tabletape demo``: not a play unless asked for, as a simulated game."""
    cooperative: bool = False
    """Every player on one team: they win or lose together (Marvel United)."""
    rounds: int = 0
    board: str = ""
    """The scenario: the villain (Marvel United)."""
    reason: str = ""
    """Why the game ended, in table words."""
    location: str = ""
    parent: str = ""
    """For a forked (what-if) game: the game it was forked from."""


# -- reading a game --------------------------------------------------------------------------


class FinalFigures(Visitor):
    """Each player's figures at the end of the game, by name (the colour lives there only)."""

    def end_game(self, info: GameInfo, final_state: Any) -> None:
        self.figures = {str(f.get("name")): f for f in info.rules.figures(final_state)}

    def result(self) -> dict[str, dict[str, Any]]:
        return self.figures


def read_play(game: str, records: Sequence[Record]) -> Play:
    """The play ``records`` (a verified log) hold: the ``games`` and ``players`` catalog rows of
    the game and the players' final figures, in one fold."""
    from tabletape.rules.registry import manifest_of

    core = GameRows()
    (figures,) = walk(game, records, core, FinalFigures())[1:]
    row: dict[str, Any] = dict(zip(GAMES.names, core.game, strict=True))
    started, latest = utc(row["started"]), utc(row["ended"] or row["updated"])
    if started is None or latest is None:
        raise NotAPlay(f"game {game} has no recorded times, which a play needs")
    seats = tuple(seat_of(dict(zip(PLAYERS.names, player, strict=True)), figures)
                  for player in core.players)
    manifest = manifest_of(row["kind"])
    bgg = manifest.bgg_id if manifest is not None else None
    return Play(
        game=game, kind=row["kind"], title=core.info.rules.title,
        bgg_id=bgg.value if bgg is not None else None, started=started, ended=latest,
        minutes=round(row["minutes"] or 0), seats=seats, finished=row["finished"],
        simulated=row["simulated"], demo=row["demo"], cooperative=one_team(seats),
        rounds=row["rounds"] or 0, board=titled(row["villain"]), reason=row["reason"] or "",
        parent=row["parent"] or "",
    )


def one_team(seats: Sequence[Seat]) -> bool:
    """Whether every player (two or more) is on the same team: they win or lose together."""
    teams = {seat.team for seat in seats}
    return len(seats) > 1 and len(teams) == 1 and "" not in teams


def seat_of(player: dict[str, Any], figures: dict[str, dict[str, Any]]) -> Seat:
    """A ``players`` catalog row (and the player's final figures) as a :class:`Seat`."""
    return Seat(
        seat=player["seat"], name=player["name"], start_player=player["play_order"] == 1,
        winner=bool(player["won"]), play_order=player["play_order"], role=role_of(player),
        team=titled(player["team"]),
        colour=str(figures.get(player["name"], {}).get("colour") or ""),
    )


def role_of(player: dict[str, Any]) -> str:
    """The role a player played: their hero, or their faction and leader.

    >>> role_of({"hero": "iron-man", "faction": None, "leader": None})
    'Iron Man'
    >>> role_of({"hero": None, "faction": "autobot", "leader": "optimus-prime"})
    'Autobot: Optimus Prime'
    """
    faction, leader = titled(player["faction"]), titled(player["leader"])
    return titled(player["hero"]) or ": ".join(part for part in (faction, leader) if part)


def titled(word: str | None) -> str:
    """A kebab-case name as people write it (``""`` for none).

    >>> titled("captain-america"), titled("heroes"), titled(None)
    ('Captain America', 'Heroes', '')
    """
    return " ".join(part[:1].upper() + part[1:] for part in word.split("-")) if word else ""


def utc(stamp: str | None) -> datetime | None:
    """A catalog TIMESTAMP string (UTC by the ledger's convention) as an aware datetime.

    >>> utc("2026-01-02 19:00:00.5").isoformat()
    '2026-01-02T19:00:00.500000+00:00'
    """
    return datetime.fromisoformat(stamp).replace(tzinfo=UTC) if stamp else None


def check_play(play: Play, *, unfinished: bool = False, simulated: bool = False,
               forks: bool = False) -> None:
    """Refuse what is not a play to send: a game still going (unless ``unfinished``: it goes as
    incomplete), a simulated or demo one (unless ``simulated``), a what-if fork (unless
    ``forks``)."""
    if play.parent and not forks:
        raise NotAPlay(f"game {play.game} is a what-if fork of {play.parent}, not a game played "
                       "through: pass --include-forks to export it anyway", "what-if fork")
    if play.simulated and not simulated:
        raise NotAPlay(f"game {play.game} was played by bots (`tabletape simulate`), not at a "
                       "table: pass --include-simulated to export it anyway", "simulated")
    if play.demo and not simulated:
        raise NotAPlay(f"game {play.game} is a demo game (`tabletape demo`), not one played at a "
                       "table: pass --include-simulated to export it anyway", "demo")
    if not play.finished and not unfinished:
        raise NotAPlay(f"game {play.game} is not finished: a play is a finished game; pass "
                       "--include-unfinished to export it as an incomplete play",
                       "not finished")


def with_new_players(plays: Sequence[Play],
                     earlier: Iterable[tuple[datetime, str, Sequence[str]]]) -> list[Play]:
    """``plays`` with each player marked ``new`` whose first game of its kind it is: no game of
    ``earlier`` (``(started, kind, players)`` of the ledger's games people played) of that kind
    with that player (names in any case) started before it.

    >>> at = datetime(2026, 1, 1, tzinfo=UTC)
    >>> play = Play(game="g", kind="k", title="K", bgg_id=None, started=at, ended=at, minutes=0,
    ...             seats=(Seat(seat=1, name="Olga"), Seat(seat=2, name="Zoë")))
    >>> before = [(at.replace(year=2025), "k", ["olga"]), (at.replace(year=2025), "x", ["Zoë"])]
    >>> [seat.new for seat in with_new_players([play], before)[0].seats]
    [False, True]
    """
    seen: dict[tuple[str, str], datetime] = {}
    for started, kind, players in earlier:
        for name in players:
            key = (kind, name.casefold())
            seen[key] = min(started, seen.get(key, started))
    return [msgspec.structs.replace(play, seats=tuple(
        msgspec.structs.replace(seat, new=seen.get((play.kind, seat.name.casefold()),
                                                   play.started) >= play.started)
        for seat in play.seats)) for play in plays]


# -- ids --------------------------------------------------------------------------------------


def app_uuid(what: str, key: str) -> str:
    """The stable id of ``what`` (``play``, ``player``, ``game``, ``location``) called ``key``,
    upper-case as BG Stats writes its own.

    >>> app_uuid("play", "rs-k7pq") == app_uuid("play", "rs-k7pq") != app_uuid("play", "rs-k7pr")
    True
    """
    return str(uuid.uuid5(NAMESPACE, f"{what}/{key}")).upper()


def player_uuid(name: str) -> str:
    """A player's stable id: their name in any case is one player, as at the table.

    >>> player_uuid("Olga") == player_uuid("olga") != player_uuid("Patrick")
    True
    """
    return app_uuid("player", name.casefold())


def uses_teams(play: Play) -> bool:
    """Whether the players of ``play`` play in teams (every one of them on one)."""
    return all(seat.team for seat in play.seats)


def comments(play: Play) -> str:
    """The play's comment: how it ended, and where it was recorded."""
    parts = [f"{play.reason}." if play.reason else "", "" if play.finished else "Not finished.",
             f"Recorded with tabletape: game {play.game}."]
    return " ".join(part for part in parts if part)


def bgstats_date(moment: datetime) -> str:
    """``moment`` in UTC as BG Stats writes dates.

    >>> bgstats_date(datetime.fromisoformat("2026-01-02T20:00:00+01:00"))
    '2026-01-02 19:00:00'
    """
    return moment.astimezone(UTC).strftime(DATE_FORMAT)


# -- BG Stats: the create-play link ----------------------------------------------------------


def bgstats_play(play: Play) -> dict[str, Any]:
    """The JSON of BG Stats' create-play link for ``play``. ``winner`` and ``startPlayer`` are
    always there (the Android app is said to refuse a player without them)."""
    teams = uses_teams(play)
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": app_uuid("play", play.game),
        "playDate": bgstats_date(play.ended),
        "durationMin": play.minutes,
        "game": link_game(play),
        "players": [link_player(seat, teams) for seat in play.seats],
        "board": play.board,
        "comments": comments(play),
        "rounds": play.rounds,
        "usesTeams": teams,
        "ignored": not play.finished,
    }
    if play.location:
        data["location"] = play.location
    return data


def link_game(play: Play) -> dict[str, Any]:
    game: dict[str, Any] = {"name": play.title, "sourceGameId": play.kind, "highestWins": True,
                            "noPoints": True, "cooperative": play.cooperative}
    if play.bgg_id:
        game["bggId"] = play.bgg_id
    return game


def link_player(seat: Seat, teams: bool) -> dict[str, Any]:
    player: dict[str, Any] = {"name": seat.name, "sourcePlayerId": player_uuid(seat.name),
                              "startPlayer": seat.start_player, "winner": seat.winner,
                              "role": seat.role or seat.colour.capitalize()}
    if teams:
        player["team"] = seat.team
    return player


def bgstats_link(play: Play, base: str = LINK) -> str:
    """BG Stats' create-play link for ``play`` (at ``base``: :data:`LINK` or
    :data:`APP_LINK`): its JSON, percent-encoded whole."""
    data = json.dumps(bgstats_play(play), ensure_ascii=False, separators=(",", ":"))
    return f"{base}?data={quote(data, safe='')}"


# -- BG Stats: the import file ---------------------------------------------------------------


def bgstats_file(plays: Sequence[Play]) -> dict[str, Any]:
    """The file BG Stats imports for ``plays``: ``games``, ``players``, ``locations`` and
    ``plays``, each entity with its ``uuid`` and an ``id`` the plays refer to (``gameRefId``,
    ``locationRefId``, ``playerScores[].playerRefId``)."""
    kinds = numbered(play.kind for play in plays)
    names = numbered(seat.name.casefold() for play in plays for seat in play.seats)
    shown = {seat.name.casefold(): seat.name for play in reversed(plays) for seat in play.seats}
    places = numbered(play.location for play in plays if play.location)
    return {
        "about": "Plays exported by tabletape for Board Game Stats (BG Stats): open or import "
                 "this file in the app.",
        "games": [file_game(kind, number, [p for p in plays if p.kind == kind])
                  for kind, number in kinds.items()],
        "players": [file_player(shown[key], number, sitting(plays, key))
                    for key, number in names.items()],
        "locations": [file_location(place, number, [p for p in plays if p.location == place])
                      for place, number in places.items()],
        "plays": [file_play(play, kinds, names, places) for play in plays],
    }


def sitting(plays: Sequence[Play], key: str) -> list[Play]:
    """The plays a player (their name casefolded) sits at."""
    return [play for play in plays if any(seat.name.casefold() == key for seat in play.seats)]


def numbered(keys: Iterable[str]) -> dict[str, int]:
    """Each distinct key, in order of first appearance, with its ``id`` from 1.

    >>> numbered(["b", "a", "b"])
    {'b': 1, 'a': 2}
    """
    ids: dict[str, int] = {}
    for key in keys:
        ids.setdefault(key, len(ids) + 1)
    return ids


def modified(plays: Sequence[Play]) -> str:
    """An entity's ``modificationDate``: when the latest play it is in ended (exporting the same
    plays again gives the same file)."""
    return bgstats_date(max(play.ended for play in plays))


def file_game(kind: str, number: int, plays: Sequence[Play]) -> dict[str, Any]:
    first = plays[0]
    return {
        "uuid": app_uuid("game", kind), "id": number, "name": first.title,
        "modificationDate": modified(plays),
        "cooperative": any(play.cooperative for play in plays), "highestWins": True,
        "noPoints": True, "usesTeams": any(uses_teams(play) for play in plays),
        "bggName": first.title if first.bgg_id else "", "bggYear": 0,
        "bggId": first.bgg_id or 0, "metaData": "",
    }


def file_player(name: str, number: int, plays: Sequence[Play]) -> dict[str, Any]:
    return {"uuid": player_uuid(name), "id": number, "name": name, "isAnonymous": False,
            "modificationDate": modified(plays), "bggUsername": "", "metaData": ""}


def file_location(name: str, number: int, plays: Sequence[Play]) -> dict[str, Any]:
    return {"uuid": app_uuid("location", name), "id": number, "name": name,
            "modificationDate": modified(plays), "metaData": ""}


def file_play(play: Play, kinds: dict[str, int], names: dict[str, int],
              places: dict[str, int]) -> dict[str, Any]:
    date, teams = bgstats_date(play.ended), uses_teams(play)
    entry: dict[str, Any] = {
        "uuid": app_uuid("play", play.game), "modificationDate": date, "entryDate": date,
        "playDate": date, "usesTeams": teams, "durationMin": play.minutes,
        "ignored": not play.finished, "manualWinner": False, "rounds": play.rounds,
        "bggId": 0, "importPlayId": 0, "gameRefId": kinds[play.kind], "board": play.board,
        "comments": comments(play), "rating": 0, "nemestatsId": 0, "scoringSetting": 0,
        "metaData": "",
        "playerScores": [file_score(seat, names[seat.name.casefold()], teams)
                         for seat in play.seats],
        "expansionPlays": [],
    }
    if play.location:
        entry["locationRefId"] = places[play.location]
    return entry


def file_score(seat: Seat, number: int, teams: bool) -> dict[str, Any]:
    return {
        "score": "", "winner": seat.winner, "newPlayer": seat.new, "startPlayer": seat.start_player,
        "playerRefId": number, "role": seat.role or seat.colour.capitalize(),
        "anonymousName": "", "rank": 0, "teamRole": "", "seatOrder": seat.seat,
        "team": seat.team if teams else "",
        "startPosition": str(seat.play_order) if seat.play_order else "", "metaData": "",
    }


# -- BoardGameGeek: plays XML ----------------------------------------------------------------


NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot hold, even escaped (control characters, lone surrogates)."""


def xml_text(text: str) -> str:
    r"""``text`` with what XML cannot hold replaced by U+FFFD (ElementTree escapes the rest).

    >>> xml_text("a\x07b & <c>")
    'a\ufffdb & <c>'
    """
    return NOT_XML.sub("\ufffd", text)


def bgg_xml(plays: Sequence[Play], zone: tzinfo | None = None) -> str:
    """BoardGameGeek's plays XML for ``plays`` (pretty, UTF-8, escaped): ``<plays>`` of
    ``<play>`` with its ``<item>`` (the game, ``objectid`` its BGG id, 0 and a comment when it has
    none), ``<comments>`` and ``<players>``. Dates are days in ``zone`` (default: this machine's
    time zone)."""
    root = ET.Element("plays", total=str(len(plays)), page="1")
    root.extend(bgg_play(play, zone) for play in plays)
    ET.indent(root)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + ET.tostring(root, encoding="unicode") + "\n")


def bgg_play(play: Play, zone: tzinfo | None) -> ET.Element:
    unfinished = "0" if play.finished else "1"
    element = ET.Element("play", date=play.started.astimezone(zone).date().isoformat(),
                         quantity="1", length=str(play.minutes), incomplete=unfinished,
                         nowinstats=unfinished, location=xml_text(play.location))
    if not play.bgg_id:
        element.append(ET.Comment(xml_text(
            f" {play.title} has no BoardGameGeek id we know: objectid 0 (export's bgg-id "
            "option sets one) ").replace("--", "- -")))
    item = ET.SubElement(element, "item", name=xml_text(play.title), objecttype="thing",
                         objectid=str(play.bgg_id or 0))
    ET.SubElement(ET.SubElement(item, "subtypes"), "subtype", value="boardgame")
    ET.SubElement(element, "comments").text = xml_text(comments(play))
    players = ET.SubElement(element, "players")
    for seat in play.seats:
        ET.SubElement(players, "player", username="", userid="0", name=xml_text(seat.name),
                      startposition=str(seat.play_order or ""),
                      color=xml_text(seat.colour or seat.role), score="",
                      new="1" if seat.new else "0",
                      rating="0", win="1" if seat.winner else "0")
    return element


__all__ = ["LINK", "NAMESPACE", "SOURCE_NAME", "NotAPlay", "Play", "Seat", "app_uuid",
           "bgg_xml", "bgstats_file", "bgstats_link", "bgstats_play", "check_play", "read_play",
           "with_new_players"]


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    """What to export and how: the command's options, checked."""

    location: str = ""
    bgg_ids: tuple[str, ...] = ()
    unfinished: bool = False
    simulated: bool = False
    forks: bool = False
    strict: bool = False
    app_link: bool = False
    """``--app-link``: the create-play link in the app's ``bgstats://`` scheme."""
