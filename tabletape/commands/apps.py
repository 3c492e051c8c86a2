"""``tabletape export --bgstats / --bgstats-link / --bgg-xml``: the ledger's plays for BG Stats and
BoardGameGeek.

Thin, as the other commands: the plays and their formats are :mod:`tabletape.queries.apps`;
here the games are chosen and checked, overrides applied, files written whole (a scratch file
in the same folder, then ``os.replace``) and the outcome said, for people or as JSON.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

import msgspec
from rich.markup import escape

from tabletape.cli import err, is_stdio, out, print_json, warn
from tabletape.ledger import GameStarted, Ledger, Record
from tabletape.ledger.errors import USAGE_EXIT, TabletapeError
from tabletape.ledger.store import write_atomic
from tabletape.queries.apps import (
    APP_LINK,
    LINK,
    Choice,
    NotAPlay,
    Play,
    bgg_xml,
    bgstats_file,
    bgstats_link,
    bgstats_play,
    check_play,
    read_play,
    with_new_players,
)


class AppsRefused(TabletapeError):
    """Options of an apps export that do not fit (exit 2)."""

    exit_code = USAGE_EXIT


class Target(StrEnum):
    """What an apps export writes."""

    bgstats = "bgstats"
    link = "bgstats-link"
    bgg = "bgg-xml"


def export_plays(store: Ledger, game: str | None, target: Target, output: Path | None,
                 choice: Choice, as_json: bool) -> None:
    """Export ``game`` (None: every finished game people played) to ``target``."""
    location = checked_location(choice.location)
    if target is Target.link and game is None:
        raise AppsRefused("--bgstats-link makes the link of one play: name the GAME")
    if output is not None and is_stdio(output) and as_json:
        raise AppsRefused(f"--{target} - writes the export itself to standard output: leave "
                          "out --json")
    if output is not None and not is_stdio(output):
        check_target(output, store.root)
    plays, left_out, problems = chosen_plays(store, game, choice)
    say_problems(problems, choice.strict)
    plays = [msgspec.structs.replace(play, location=location) for play in plays]
    plays = with_bgg_ids(plays, choice.bgg_ids)
    say_missing_bgg_ids(plays)
    if target is Target.link:
        say_link(plays[0], as_json, choice.app_link)
        return
    assert output is not None
    text = (json.dumps(bgstats_file(plays), ensure_ascii=False, indent=2) + "\n"
            if target is Target.bgstats else bgg_xml(plays))
    write_output(output, text, store.root)
    say_written(target, output, plays, left_out, as_json)


# -- choosing the plays ------------------------------------------------------------------------


def chosen_plays(store: Ledger, game: str | None,
                 choice: Choice) -> tuple[list[Play], dict[str, str], dict[str, str]]:
    """The plays to export, the games left out (why, in a few words) and the logs that cannot
    be read (damaged, or not folding), each by game id. One named game must be a play; of the
    whole ledger, what is not a play is left out and said. Players are marked new against
    every log of the ledger that verifies."""
    logs, problems = verified_logs(store)
    if game is not None:
        play = replayed(game, logs[game] if game in logs else store.records(game))
        check_play(play, unfinished=choice.unfinished, simulated=choice.simulated,
                   forks=choice.forks)
        return with_new_players([play], earlier(logs)), {}, {}
    plays, left_out = [], {}
    for each, records in logs.items():
        try:
            play = replayed(each, records)
            check_play(play, unfinished=choice.unfinished, simulated=choice.simulated,
                       forks=choice.forks)
        except NotAPlay as error:
            left_out[each] = error.why
            continue
        except TabletapeError as error:
            problems[each] = str(error)
            continue
        plays.append(play)
    if not plays:
        raise NotAPlay(nothing_to_export(left_out, problems))
    plays.sort(key=lambda play: (play.started, play.game))
    return with_new_players(plays, earlier(logs)), left_out, problems


class Unreplayable(TabletapeError):
    """A log that verifies but that the rules cannot replay (made elsewhere, or by hand)."""


def replayed(game: str, records: list[Record]) -> Play:
    """:func:`read_play`, a log the rules cannot fold refused by name (never a traceback)."""
    try:
        return read_play(game, records)
    except NotAPlay:
        raise
    except TabletapeError as error:  # its kind is not installed, its options are refused...
        raise Unreplayable(f"game {game}: {error}") from None
    except Exception as error:  # untrusted events the rules cannot apply
        raise Unreplayable(f"game {game}: its events do not replay ({type(error).__name__}: "
                           f"{error})") from None


def verified_logs(store: Ledger) -> tuple[dict[str, list[Record]], dict[str, str]]:
    """The records of every log of the ledger that verifies, and why each other one does not."""
    logs, problems = {}, {}
    for each in store.chosen(None):
        try:
            logs[each] = store.records(each)
        except TabletapeError as error:  # a damaged log: named, never used
            problems[each] = str(error)
    return logs, problems


def earlier(logs: dict[str, list[Record]]) -> list[tuple[datetime, str, tuple[str, ...]]]:
    """``(started, kind, players)`` of every game of ``logs`` played through (no fork; a
    game-started the program cannot read counts for nothing)."""
    games = []
    for records in logs.values():
        first = next((record.at for record in records if record.at), "")
        try:
            started = msgspec.json.decode(records[0].payload, type=GameStarted)
            when = datetime.fromisoformat(first)
        except (msgspec.DecodeError, ValueError):
            continue
        if not started.parent:
            games.append((when, started.kind, started.players))
    return games


def nothing_to_export(left_out: dict[str, str], problems: dict[str, str]) -> str:
    """Why an export of the whole ledger found no play.

    >>> nothing_to_export({"a": "not finished", "b": "simulated", "c": "simulated"}, {})
    'no game to export: 1 not finished, 2 simulated (--include-unfinished, --include-simulated)'
    >>> nothing_to_export({}, {"d": "line 2 of d is damaged"})
    'no game to export: 1 unreadable'
    """
    if not left_out and not problems:
        return "no game to export: the ledger has no games yet"
    counts = Counter(left_out.values())
    counts.update({"unreadable": len(problems)} if problems else {})
    said = ", ".join(f"{n} {why}" for why, n in counts.items())
    return f"no game to export: {said}{options_for(left_out)}"


def options_for(left_out: dict[str, str]) -> str:
    """The options that would export what was left out, in brackets (``""`` for none).

    >>> options_for({"a": "simulated"}), options_for({})
    (' (--include-simulated)', '')
    """
    options = list(dict.fromkeys(option for why, option in INCLUDE.items()
                                 if why in left_out.values()))
    return f" ({', '.join(options)})" if options else ""


INCLUDE = {"not finished": "--include-unfinished", "simulated": "--include-simulated",
           "demo": "--include-simulated", "what-if fork": "--include-forks"}
"""The option that exports each kind of game left out."""


def checked_location(location: str) -> str:
    """``--location`` as given, refused when blank or holding control characters."""
    if location and (not location.strip() or not location.isprintable()):
        raise AppsRefused(f"--location {location!r} is not a place name: give printable words, "
                          "e.g. --location \"Olga's kitchen\"")
    return location.strip()


def with_bgg_ids(plays: Sequence[Play], overrides: Sequence[str]) -> list[Play]:
    """``plays`` with ``--bgg-id`` applied: ``N`` (the plays are all of one kind) or
    ``KIND=N``."""
    from tabletape.rules.registry import find_manifest

    kinds = sorted({play.kind for play in plays})
    ids: dict[str, int] = {}
    for override in overrides:
        name, _, number = override.rpartition("=")
        if not name and len(kinds) > 1:
            raise AppsRefused(f"--bgg-id {override}: these plays are of {len(kinds)} kinds "
                              f"({', '.join(kinds)}); say which: --bgg-id KIND=N")
        kind = find_manifest(name).name if name else kinds[0]
        ids[kind] = bgg_number(override, number)
    return [msgspec.structs.replace(play, bgg_id=ids[play.kind]) if play.kind in ids else play
            for play in plays]


def bgg_number(override: str, number: str) -> int:
    """The id of a ``--bgg-id`` value: a whole number from 1."""
    if not number.isdecimal() or int(number) < 1:
        raise AppsRefused(f"--bgg-id {override}: a BoardGameGeek id is a whole number from 1 "
                          "(the N of boardgamegeek.com/boardgame/N)")
    return int(number)


# -- saying and writing ------------------------------------------------------------------------


def say_problems(problems: dict[str, str], strict: bool) -> None:
    """Name the logs left out because they cannot be read; with ``strict`` that is an error."""
    for game, problem in sorted(problems.items()):
        warn(f"game {game} left out: {problem}", game=game)
    if problems and strict:
        raise TabletapeError(f"--strict: nothing was exported, since {len(problems)} log"
                             f"{'s' if len(problems) > 1 else ''} cannot be read; `tabletape "
                             "verify --all` says what is wrong with each")


def say_missing_bgg_ids(plays: Sequence[Play]) -> None:
    """One warning line per kind exported without a BoardGameGeek id."""
    for title in sorted({play.title for play in plays if not play.bgg_id}):
        kind = next(play.kind for play in plays if play.title == title)
        warn(f"{title} has no BoardGameGeek id we know: BG Stats will match it by name, and the "
             f"BoardGameGeek XML says objectid 0; --bgg-id {kind}=N sets one", kind=kind)


def say_link(play: Play, as_json: bool, app_link: bool = False) -> None:
    """The create-play link (the ``https://`` form; ``bgstats://`` with ``app_link``): alone on
    its line (to copy), or ``{"game", "link", "app_link", "data"}``."""
    link = bgstats_link(play, APP_LINK if app_link else LINK)
    if as_json:
        print_json({"game": play.game, "link": link, "app_link": bgstats_link(play, APP_LINK),
                    "data": bgstats_play(play)})
        return
    other = ("" if app_link else " (--app-link gives the bgstats:// form, which only the app "
             "opens)")
    err.print(f"BG Stats link for game {escape(play.game)} ({escape(play.title)}): open it on "
              f"the phone or tablet that has BG Stats, or send it there in a chat{other}.",
              highlight=False)
    out.print(link, soft_wrap=True, highlight=False, markup=False)


def write_output(output: Path, text: str, ledger_root: Path) -> None:
    """``text`` on standard output (``-``), or at ``output`` whole: written to a scratch file
    in the same folder, then moved over it (never inside the ledger)."""
    if is_stdio(output):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    check_target(output, ledger_root)
    write_atomic(output, text)


def check_target(output: Path, ledger_root: Path) -> None:
    """Refuse an output file inside the ledger, or one that is a folder (before any work)."""
    from tabletape.queries.output import check_output

    check_output(output, ledger_root, force=True)
    if output.is_dir():
        raise AppsRefused(f"{output} is a folder: name a file to write")


def say_written(target: Target, output: Path, plays: Sequence[Play], left_out: dict[str, str],
                as_json: bool) -> None:
    """What was exported and what was left out: for people (on standard error when the export
    itself went to standard output), or as JSON."""
    if as_json:
        print_json(written_json(target, output, plays, left_out))
        return
    console = err if is_stdio(output) else out
    where = "standard output" if is_stdio(output) else str(output)
    app = "BG Stats" if target is Target.bgstats else "BoardGameGeek (plays XML)"
    kinds = Counter(play.title for play in plays)
    counted = ", ".join(f"{title} {n}" for title, n in sorted(kinds.items()))
    console.print(f"Exported {len(plays)} play{'s' if len(plays) != 1 else ''} ({escape(counted)})"
                  f" to {escape(where)} for {app}.", highlight=False)
    if left_out:
        why = Counter(left_out.values())
        console.print("Left out: " + ", ".join(f"{n} {w}" for w, n in sorted(why.items()))
                      + f"{options_for(left_out)}.", highlight=False)


def written_json(target: Target, output: Path, plays: Sequence[Play],
                 left_out: dict[str, str]) -> dict[str, Any]:
    """The ``--json`` answer of a file export."""
    return {"format": str(target), "file": str(output), "plays": [play.game for play in plays],
            "left_out": left_out}
