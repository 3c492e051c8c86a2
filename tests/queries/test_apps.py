"""Issue 16 (E): plays for BG Stats (import file, create-play link) and BoardGameGeek (plays XML).

The shapes are held against the published ones: BG Stats' create-play documentation
(bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites: ``sourceName``,
``sourcePlayId``, ``playDate`` ``YYYY-MM-DD HH:MM:SS``, ``game``, ``players`` with
``startPlayer``, ``winner``, ``role``...), an export the app wrote (``BGStatsExport.json``:
``games``, ``players``, ``locations``, ``plays`` with ``gameRefId``, ``locationRefId`` and
``playerScores[].playerRefId``), and BoardGameGeek's ``xmlapi2/plays`` answer. Who won, who
started and what each played are held against the game itself (``status --json``, the replay's
turn info), never against numbers written here.
"""

from __future__ import annotations

import io
import json
import re
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import msgspec
import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from tabletape import build_app
from tabletape.ledger import GameStarted, Ledger
from tabletape.queries.apps import (
    LINK,
    Play,
    Seat,
    bgg_xml,
    bgstats_file,
    bgstats_link,
    bgstats_play,
    read_play,
    with_new_players,
)
from tabletape.replay.demo import run_demo
from tabletape.replay.engine import Replay
from tabletape.rules.registry import manifest_of

APP = build_app()
DATE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")
KINDS = ("risk-strike", "marvel-united", "risk-deep-space", "risk-transformers")


def run(ledger: Path, *args: str) -> Result:
    """``tabletape ARGS --ledger LEDGER`` in this process; never a traceback."""
    result = CliRunner().invoke(APP, [*args, "--ledger", str(ledger)],
                                env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Bot games of every kind (Marvel United won and lost, Transformers in teams of two), the
    Risk Strike demo (a finished game people recorded) and the Marvel United demo (still
    going)."""
    root = tmp_path_factory.mktemp("apps") / "ledger"
    for kind, players in (("risk-strike", "3"), ("marvel-united", "2"),
                          ("risk-deep-space", "2"), ("risk-transformers", "4")):
        assert run(root, "simulate", kind, "-n", "3", "--seed", "1", "--players",
                   players).exit_code == 0
    for kind in ("risk-strike", "marvel-united"):
        played_demo(root, kind)
    return root


def played_demo(root: Path, kind: str = "risk-strike") -> str:
    """The demo game of ``kind`` recorded as a game people played (``tabletape demo`` marks its
    game a demo game, which the exports leave out unless asked for)."""
    return run_demo(Ledger(root), Console(file=io.StringIO()), kind, marked=False)


def games_of(ledger: Path, kind: str) -> list[str]:
    return [game for game in Ledger(ledger).game_ids() if Ledger(ledger).started(game).kind == kind]


def status(ledger: Path, game: str) -> dict[str, Any]:
    result = run(ledger, "status", game, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def first_player(ledger: Path, game: str) -> str:
    """Who is to act when turn 1 begins, by the replay's own turn info."""
    replay = Replay(game, Ledger(ledger).records(game))
    info = next(replay.turn_info(p) for p in range(len(replay)) if replay.turn_info(p).turn >= 1)
    return info.active[0]


def exported(ledger: Path, *args: str) -> dict[str, Any]:
    out = ledger.parent / "plays.bgsplay"
    result = run(ledger, "export", "--bgstats", str(out), *args)
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def link_data(link: str) -> dict[str, Any]:
    """The JSON of a create-play link, decoded as the app decodes it."""
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == LINK
    (data,) = parse_qs(parts.query, strict_parsing=True)["data"]
    return json.loads(data)  # type: ignore[no-any-return]


# -- the BG Stats file: the app's shape, refs that resolve, stable ids ---------------------------


def test_bgstats_file_has_the_shape_of_the_apps_export(ledger: Path) -> None:
    """Top-level ``games``, ``players``, ``locations``, ``plays``; each entity an ``uuid``, an
    integer ``id`` and a name; each play the keys and types of the app's own export."""
    data = exported(ledger, "--include-simulated", "--location", "Olga's kitchen")
    assert {"games", "players", "locations", "plays"} <= set(data)
    for entity in (*data["games"], *data["players"], *data["locations"]):
        uuid.UUID(entity["uuid"])
        assert isinstance(entity["id"], int) and isinstance(entity["name"], str)
        assert DATE.match(entity["modificationDate"])
    for game in data["games"]:
        assert {type(game[k]) for k in ("cooperative", "highestWins", "noPoints", "usesTeams")} \
            == {bool}
        assert isinstance(game["bggId"], int)
    for play in data["plays"]:
        uuid.UUID(play["uuid"])
        assert DATE.match(play["playDate"]) and isinstance(play["durationMin"], int)
        assert isinstance(play["ignored"], bool) and isinstance(play["usesTeams"], bool)
        for score in play["playerScores"]:
            assert {type(score[k]) for k in ("winner", "newPlayer", "startPlayer")} == {bool}
            assert isinstance(score["seatOrder"], int) and isinstance(score["role"], str)
    assert len(data["plays"]) == sum(len(games_of(ledger, kind)) for kind in KINDS) - 1


def test_every_reference_of_the_file_resolves(ledger: Path) -> None:
    """Each play's ``gameRefId``, ``locationRefId`` and ``playerRefId`` name an entity of the
    file, and the named players are the game's, in seat order."""
    data = exported(ledger, "--include-simulated", "--location", "Club")
    games = {game["id"]: game for game in data["games"]}
    players = {player["id"]: player["name"] for player in data["players"]}
    places = {place["id"]: place["name"] for place in data["locations"]}
    assert len(games) == len(data["games"]) and len(players) == len(data["players"])
    for play in data["plays"]:
        assert play["gameRefId"] in games and places[play["locationRefId"]] == "Club"
        named = [players[score["playerRefId"]] for score in play["playerScores"]]
        game = re.search(r"game (\S+)\.$", play["comments"])
        assert game is not None
        assert named == list(Ledger(ledger).started(game[1]).players)
        assert games[play["gameRefId"]]["name"] == manifest_of(
            Ledger(ledger).started(game[1]).kind).title  # type: ignore[union-attr]


def test_ids_are_stable_across_exports_and_distinct_across_games(ledger: Path) -> None:
    """Exporting twice gives the same file (so BG Stats updates, never duplicates); plays have
    one uuid each; a player keeps one uuid in every game."""
    first, second = (exported(ledger, "--include-simulated") for _ in range(2))
    assert first == second
    play_ids = [play["uuid"] for play in first["plays"]]
    assert len(set(play_ids)) == len(play_ids)
    names = [player["name"] for player in first["players"]]
    assert len(set(names)) == len(names)


def test_without_a_location_no_play_names_one(ledger: Path) -> None:
    data = exported(ledger, "--include-simulated")
    assert data["locations"] == [] and all("locationRefId" not in p for p in data["plays"])


# -- who won, who started, what they played, per kind ---------------------------------------------


def plays_by_game(ledger: Path) -> dict[str, dict[str, Any]]:
    data = exported(ledger, "--include-simulated")
    names = {player["id"]: player["name"] for player in data["players"]}
    games = {game["id"]: game for game in data["games"]}
    found = {}
    for play in data["plays"]:
        game = re.search(r"game (\S+)\.$", play["comments"])[1]  # type: ignore[index]
        play["game"] = games[play["gameRefId"]]
        for score in play["playerScores"]:
            score["name"] = names[score["playerRefId"]]
        found[game] = play
    return found


@pytest.mark.parametrize("kind", KINDS)
def test_winners_and_start_player_are_the_games(ledger: Path, kind: str) -> None:
    """The winners are those ``status`` names; the start player is whoever acts when turn 1
    begins; nobody else is marked either way."""
    plays = plays_by_game(ledger)
    for game in games_of(ledger, kind):
        if game not in plays:
            continue  # the demo still going
        scores = plays[game]["playerScores"]
        assert {s["name"] for s in scores if s["winner"]} == set(status(ledger, game)["winners"])
        assert [s["name"] for s in scores if s["startPlayer"]] == [first_player(ledger, game)]


@pytest.mark.slow
def test_marvel_united_is_cooperative_all_win_or_all_lose_with_their_heroes(ledger: Path) -> None:
    """Marvel United (Rulebook, Winning: 'the heroes win' together, or the villain wins): the
    game is marked cooperative, every hero wins or none does, each role is the hero played."""
    plays = plays_by_game(ledger)
    outcomes = set()
    for game in games_of(ledger, "marvel-united"):
        if game not in plays:
            continue
        play, figures = plays[game], status(ledger, game)["players"]
        assert play["game"]["cooperative"] is True
        won = {score["winner"] for score in play["playerScores"]}
        assert len(won) == 1
        outcomes |= won
        heroes = {f["name"]: f["hero"].replace("-", " ").title() for f in figures}
        assert {s["name"]: s["role"] for s in play["playerScores"]} == heroes
    assert outcomes == {True, False}  # the seeds hold a win and a loss


def test_transformers_teams_and_factions(ledger: Path) -> None:
    """Risk: Transformers with 4 (Setup 2: 'play in 2 teams – AUTOBOTS vs. DECEPTICONS'): the
    play uses teams, each player's team and faction are their own, the winning team wins."""
    plays = plays_by_game(ledger)
    for game in games_of(ledger, "risk-transformers"):
        play, figures = plays[game], status(ledger, game)["players"]
        assert play["usesTeams"] is True and play["game"]["cooperative"] is False
        for score, figure in zip(play["playerScores"], figures, strict=True):
            assert score["team"].casefold() == figure["team"]
            assert score["role"].split(":")[0].casefold() == figure["faction"]


def test_deep_space_colours_go_to_bgg_xml(ledger: Path) -> None:
    """Each Deep Space player's colour is the ``color`` of their BoardGameGeek player."""
    result = run(ledger, "export", "--bgg-xml", "-", "--include-simulated")
    root = ET.fromstring(result.stdout)
    by_comment = {re.search(r"game (\S+)\.$", p.findtext("comments", ""))[1]: p  # type: ignore[index]
                  for p in root.iter("play")}
    for game in games_of(ledger, "risk-deep-space"):
        colours = {f["name"]: f["colour"] for f in status(ledger, game)["players"]}
        players = by_comment[game].iter("player")
        assert {p.get("name"): p.get("color") for p in players} == colours


# -- the create-play link --------------------------------------------------------------------------


def test_link_data_decodes_to_what_was_meant(ledger: Path) -> None:
    """The ``data`` parameter decodes to the play's JSON exactly; it has the documented required
    fields, and ``winner`` and ``startPlayer`` for every player."""
    game = games_of(ledger, "risk-strike")[-1]  # the demo, people's game
    result = run(ledger, "export", game, "--bgstats-link", "--json")
    answer = json.loads(result.stdout)
    data = link_data(answer["link"])
    assert data == answer["data"]
    assert data["sourceName"] == "tabletape" and DATE.match(data["playDate"])
    assert data["game"]["name"] == "Risk Strike" and data["sourcePlayId"]
    assert [p["name"] for p in data["players"]] == list(Ledger(ledger).started(game).players)
    assert all({"sourcePlayerId", "startPlayer", "winner"} <= set(p) for p in data["players"])
    people = run(ledger, "export", game, "--bgstats-link")
    assert people.exit_code == 0 and people.stdout.strip() == answer["link"]


def test_link_is_the_same_play_as_the_file(ledger: Path) -> None:
    """The link's ``sourcePlayId`` is the play's uuid in the file; the play date is its end."""
    game = games_of(ledger, "risk-strike")[-1]
    data = json.loads(run(ledger, "export", game, "--bgstats-link", "--json").stdout)["data"]
    (play,) = [p for p in exported(ledger)["plays"] if p["comments"].endswith(f"game {game}.")]
    assert data["sourcePlayId"] == play["uuid"] and data["playDate"] == play["playDate"]
    last = Ledger(ledger).records(game)[-1].at
    assert datetime.strptime(play["playDate"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC) <= \
        datetime.fromisoformat(last.replace("Z", "+00:00"))


# -- hostile text: escaped in XML and in the URL -------------------------------------------------


HOSTILE = "<b>&\"'%26#=+? \x07 Zoë"


def hostile_play() -> Play:
    """A play whose every text a log or a person could fill holds what XML and URLs escape."""
    moment = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
    return Play(game="rs-x", kind="risk-strike", title="Risk Strike", bgg_id=None,
                started=moment, ended=moment, minutes=30, location=HOSTILE,
                reason=f"{HOSTILE} won -- twice", seats=(
                    Seat(seat=1, name=HOSTILE, winner=True, start_player=True, play_order=1),
                    Seat(seat=2, name="O'Brien", role="<Iron & Man>")))


def test_hostile_text_is_escaped_in_bgg_xml() -> None:
    """The XML parses and gives the text back (characters XML cannot hold become U+FFFD)."""
    root = ET.fromstring(bgg_xml([hostile_play()]))
    play = root.find("play")
    assert play is not None
    kept = HOSTILE.replace("\x07", "\ufffd")
    assert play.get("location") == kept
    assert [p.get("name") for p in play.iter("player")] == [kept, "O'Brien"]
    assert [p.get("color") for p in play.iter("player")] == ["", "<Iron & Man>"]
    assert kept in play.findtext("comments", "")


def test_hostile_text_round_trips_through_the_link() -> None:
    """The link is one URL (nothing unescaped that would cut it) and decodes to the same text."""
    link = bgstats_link(hostile_play())
    query = link.partition("?")[2]
    assert query.startswith("data=") and not set(query[5:]) & set(" \"<>&=#+?'")
    assert json.loads(unquote(query[5:])) == bgstats_play(hostile_play())
    assert link_data(link)["players"][0]["name"] == HOSTILE


def test_hostile_location_through_the_command(ledger: Path) -> None:
    """A location with markup and URL characters is written as given, in both formats; one
    with control characters is refused (exit 2), nothing written."""
    place = "<Club> & \"Bar\" 50%=#1"
    data = exported(ledger, "--location", place)
    assert [p["name"] for p in data["locations"]] == [place]
    root = ET.fromstring(run(ledger, "export", "--bgg-xml", "-", "--location", place).stdout)
    assert {p.get("location") for p in root.iter("play")} == {place}
    target = ledger.parent / "never.json"
    refused = run(ledger, "export", "--bgstats", str(target), "--location", "a\x1b[2Jb")
    assert refused.exit_code == 2 and "--location" in refused.stderr and not target.exists()


# -- BoardGameGeek XML ---------------------------------------------------------------------------


def test_bgg_xml_has_the_plays_shape(ledger: Path) -> None:
    """``<plays>`` of ``<play date quantity length incomplete nowinstats location>`` with an
    ``<item objecttype="thing" objectid>`` of subtype boardgame, ``<comments>`` and
    ``<players>`` of ``<player>`` with the API's attributes; ``objectid`` is the manifest's
    BoardGameGeek id."""
    root = ET.fromstring(run(ledger, "export", "--bgg-xml", "-", "--include-simulated").stdout)
    assert root.tag == "plays" and int(root.get("total", "-1")) == len(root.findall("play"))
    for play in root.findall("play"):
        assert {"date", "quantity", "length", "incomplete", "nowinstats", "location"} <= \
            set(play.attrib)
        assert re.match(r"^\d{4}-\d\d-\d\d$", play.get("date", ""))
        item = play.find("item")
        assert item is not None and item.get("objecttype") == "thing"
        assert item.find("subtypes/subtype").get("value") == "boardgame"  # type: ignore[union-attr]
        kind = next(k for k in KINDS if manifest_of(k).title == item.get("name"))  # type: ignore[union-attr]
        expected = manifest_of(kind).bgg_id.value  # type: ignore[union-attr]
        assert item.get("objectid") == str(expected or 0)
        for player in play.iter("player"):
            assert set(player.attrib) == {"username", "userid", "name", "startposition", "color",
                                          "score", "new", "rating", "win"}
            assert player.get("win") in ("0", "1")


def test_a_kind_without_a_bgg_id_says_so(ledger: Path) -> None:
    """Risk Strike has no BoardGameGeek id we know (its manifest says NF): the export works, the
    command warns naming it (as JSON under --json), BG Stats gets no ``bggId``, the XML says
    objectid 0 with a comment."""
    assert manifest_of("risk-strike").bgg_id.mark == "NF"  # type: ignore[union-attr]
    game = games_of(ledger, "risk-strike")[-1]
    people = run(ledger, "export", game, "--bgstats-link")
    assert people.exit_code == 0 and "Risk Strike has no BoardGameGeek id" in people.stderr
    machine = run(ledger, "export", game, "--bgstats-link", "--json")
    warning = json.loads(machine.stderr.splitlines()[0])
    assert warning["kind"] == "risk-strike" and "BoardGameGeek" in warning["warning"]
    assert "bggId" not in json.loads(machine.stdout)["data"]["game"]
    xml = run(ledger, "export", game, "--bgg-xml", "-").stdout
    assert 'objectid="0"' in xml and "<!-- Risk Strike has no BoardGameGeek id" in xml


def test_bgg_id_option_overrides(ledger: Path) -> None:
    game = games_of(ledger, "risk-strike")[-1]
    data = json.loads(run(ledger, "export", game, "--bgstats-link", "--json", "--bgg-id",
                          "424242").stdout)["data"]
    assert data["game"]["bggId"] == 424242
    several = run(ledger, "export", "--bgg-xml", "-", "--include-simulated", "--bgg-id", "7")
    assert several.exit_code == 2 and "KIND=N" in several.stderr
    one = run(ledger, "export", "--bgg-xml", "-", "--include-simulated", "--bgg-id", "rs=7")
    titles = {p.find("item").get("name"): p.find("item").get("objectid")  # type: ignore[union-attr]
              for p in ET.fromstring(one.stdout).iter("play")}
    assert titles["Risk Strike"] == "7" and titles["Marvel United"] == "298047"
    assert run(ledger, "export", game, "--bgstats-link", "--bgg-id", "x1").exit_code == 2


# -- what is not a play, and bad input -----------------------------------------------------------


def test_a_game_still_going_is_refused_unless_asked(ledger: Path) -> None:
    """A play is a finished game: one going is refused (exit 1, one line); with
    --include-unfinished it goes as incomplete (BGG ``incomplete="1"``, BG Stats ``ignored``)
    and nobody wins."""
    game = games_of(ledger, "marvel-united")[-1]  # the demo, still going
    refused = run(ledger, "export", game, "--bgstats-link")
    assert refused.exit_code == 1 and "not finished" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) <= 2 and "Traceback" not in refused.output
    xml = ET.fromstring(run(ledger, "export", game, "--bgg-xml", "-",
                            "--include-unfinished").stdout)
    assert xml.find("play").get("incomplete") == "1"  # type: ignore[union-attr]
    assert {p.get("win") for p in xml.iter("player")} == {"0"}
    data = json.loads(run(ledger, "export", game, "--bgstats-link", "--json",
                          "--include-unfinished").stdout)["data"]
    assert data["ignored"] is True


def test_simulated_games_are_left_out_unless_asked(ledger: Path) -> None:
    bot = games_of(ledger, "risk-strike")[0]
    refused = run(ledger, "export", bot, "--bgstats-link")
    assert refused.exit_code == 1 and "--include-simulated" in refused.stderr
    data = exported(ledger)
    assert len(data["plays"]) == 1  # the Risk Strike demo: the one finished game people played
    summary = run(ledger, "export", "--bgstats", str(ledger.parent / "x.json"))
    assert "Left out:" in summary.stdout and "simulated" in summary.stdout


@pytest.fixture
def damaged(tmp_path: Path) -> Iterator[Path]:
    """A ledger with the Risk Strike demo and a second demo whose log was edited."""
    root = tmp_path / "ledger"
    for _ in range(2):
        played_demo(root)
    bad = sorted((root / "games").glob("*.jsonl"))[1]
    text = bad.read_text(encoding="utf-8")
    bad.write_text(text.replace('"Patrick"', '"Mallory"', 1), encoding="utf-8")
    yield root


def test_a_damaged_log_is_named_never_used(damaged: Path) -> None:
    """Named alone: refused, exit 1, its id said. In a whole-ledger export: left out and named;
    with --strict nothing is written."""
    bad = sorted((damaged / "games").glob("*.jsonl"))[1].stem
    alone = run(damaged, "export", bad, "--bgstats-link")
    assert alone.exit_code == 1 and bad in alone.stderr and "Traceback" not in alone.output
    out = damaged.parent / "plays.json"
    whole = run(damaged, "export", "--bgstats", str(out))
    assert whole.exit_code == 0 and f"game {bad} left out" in whole.stderr
    assert len(json.loads(out.read_text())["plays"]) == 1
    out.unlink()
    strict = run(damaged, "export", "--bgstats", str(out), "--strict")
    assert strict.exit_code == 1 and not out.exists()


def test_bad_combinations_and_places(ledger: Path, tmp_path: Path) -> None:
    """One export at a time (exit 2); a link needs its GAME (exit 2); never into the ledger;
    standard output with --json refused; a place that cannot be written: one line, no file."""
    game = games_of(ledger, "risk-strike")[-1]
    both = run(ledger, "export", game, "--bgstats", "-", "--bgg-xml", "-")
    assert both.exit_code == 2 and "one export at a time" in both.stderr
    assert run(ledger, "export", game, "--bgstats-link", "--jsonl", "x").exit_code == 2
    assert run(ledger, "export", "--bgstats-link").exit_code == 2
    inside = run(ledger, "export", "--bgstats", str(ledger / "plays.json"))
    assert inside.exit_code == 2 and not (ledger / "plays.json").exists()
    assert run(ledger, "export", "--bgstats", "-", "--json").exit_code == 2
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be", encoding="utf-8")
    result = run(ledger, "export", "--bgg-xml", str(blocker / "plays.xml"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) <= 2 and "not-a-folder" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["not-a-folder"]


def test_a_file_is_replaced_whole(ledger: Path, tmp_path: Path) -> None:
    """An existing file is replaced by the export; no scratch file is left beside it."""
    target = tmp_path / "plays.xml"
    target.write_text("old", encoding="utf-8")
    assert run(ledger, "export", "--bgg-xml", str(target)).exit_code == 0
    ET.fromstring(target.read_text(encoding="utf-8"))
    assert [p.name for p in tmp_path.iterdir()] == ["plays.xml"]


def test_read_play_is_what_the_file_is_made_of(ledger: Path) -> None:
    """The pure functions and the command agree: the file of one read play is the command's
    (the demo is Olga's and Patrick's first Risk Strike: no earlier game to weigh)."""
    game = games_of(ledger, "risk-strike")[-1]
    play = with_new_players([read_play(game, Ledger(ledger).records(game))], [])
    assert bgstats_file(play)["plays"] == exported(ledger)["plays"]


def test_new_players_are_new_in_their_first_game_of_a_kind_only(ledger: Path) -> None:
    """A player is ``newPlayer`` (BoardGameGeek ``new``) in the first game of a kind they sit at
    in the ledger, and in no later one."""
    data = exported(ledger, "--include-simulated", "--include-unfinished")
    names = {player["id"]: player["name"] for player in data["players"]}
    firsts: dict[tuple[int, str], str] = {}
    for play in sorted(data["plays"], key=lambda p: (p["playDate"], p["uuid"])):
        game = re.search(r"game (\S+)\.$", play["comments"])[1]  # type: ignore[index]
        started = Ledger(ledger).records(game)[0].at
        for score in play["playerScores"]:
            key = (play["gameRefId"], names[score["playerRefId"]].casefold())
            first = firsts.setdefault(key, started)
            assert score["newPlayer"] is (first == started), (game, key)
    assert any(score["newPlayer"] for play in data["plays"] for score in play["playerScores"])
    assert not all(score["newPlayer"] for play in data["plays"]
                   for score in play["playerScores"])


def test_a_what_if_fork_is_not_a_play_unless_asked(tmp_path: Path) -> None:
    """A fork (`tabletape fork`) repeats another game: left out of a whole-ledger export and
    refused by name, unless --include-forks."""
    root = tmp_path / "ledger"
    played_demo(root)
    (game,) = Ledger(root).game_ids()
    assert run(root, "fork", game, "--at", "end", "--id", "rs-fork").exit_code == 0
    data = exported(root)
    assert [p["uuid"] for p in data["plays"]] == [p["uuid"] for p in exported(root, game)["plays"]]
    summary = run(root, "export", "--bgg-xml", str(tmp_path / "x.xml"))
    assert "what-if fork" in summary.stdout and "--include-forks" in summary.stdout
    refused = run(root, "export", "rs-fork", "--bgstats-link")
    assert refused.exit_code == 1 and "--include-forks" in refused.stderr
    assert run(root, "export", "rs-fork", "--bgstats-link", "--include-forks").exit_code == 0


def test_a_name_in_any_case_is_one_player() -> None:
    """'Olga' in one game and 'olga' in another are one BG Stats player (one uuid, one entity
    both plays refer to), shown as first written."""
    first, second = hostile_play(), hostile_play()
    first = msgspec.structs.replace(first, game="a", seats=(Seat(seat=1, name="Olga"),))
    second = msgspec.structs.replace(second, game="b", seats=(Seat(seat=1, name="olga"),))
    data = bgstats_file([first, second])
    assert [player["name"] for player in data["players"]] == ["Olga"]
    assert {p["playerScores"][0]["playerRefId"] for p in data["plays"]} == {1}
    links = [link_data(bgstats_link(play))["players"][0]["sourcePlayerId"]
             for play in (first, second)]
    assert links == [data["players"][0]["uuid"]] * 2


def test_bgg_dates_are_days_where_the_table_sat() -> None:
    """BoardGameGeek's ``date`` is the day the game started in the given zone: 03:00 UTC is the
    evening before at UTC-5; BG Stats' ``playDate`` stays the UTC end."""
    play = msgspec.structs.replace(hostile_play(), started=datetime(2026, 1, 2, 3, 0, tzinfo=UTC))
    west = timezone(timedelta(hours=-5))
    assert ET.fromstring(bgg_xml([play], west)).find("play").get("date") == "2026-01-01"  # type: ignore[union-attr]
    assert ET.fromstring(bgg_xml([play], UTC)).find("play").get("date") == "2026-01-02"  # type: ignore[union-attr]
    assert bgstats_play(play)["playDate"] == "2026-03-01 20:00:00"


def test_a_log_this_install_cannot_replay_is_named(tmp_path: Path) -> None:
    """A log that verifies but whose game this install does not know (or cannot fold) is named:
    refused alone (exit 1, one line, no traceback), left out of a whole-ledger export with a
    warning."""
    root = tmp_path / "ledger"
    played_demo(root)
    odd = Ledger(root).create(GameStarted(kind="chess", rules_version="1", tabletape_version="0",
                                          players=("Olga", "Patrick")), game_id="ch-abcd")
    alone = run(root, "export", odd, "--bgstats-link")
    assert alone.exit_code == 1 and f"game {odd}" in alone.stderr and "chess" in alone.stderr
    assert "Traceback" not in alone.output and len(alone.stderr.strip().splitlines()) <= 3
    whole = run(root, "export", "--bgstats", str(tmp_path / "plays.json"))
    assert whole.exit_code == 0 and f"game {odd} left out" in whole.stderr
    assert len(json.loads((tmp_path / "plays.json").read_text())["plays"]) == 1
