"""Issue 16 (C): ``tabletape export --html DIR``, a static site of the whole ledger.

One ledger holds the demo game of every kind (three of them in progress), real finished games of
Risk Strike and Marvel United (bot-played but recorded as people's), simulated games of every
kind, a damaged log and a log under a file name full of HTML's special characters. The index is
compared with the catalog (``sql --json``), its links with the files written, and the site's
folder with what an export may replace.
"""

from __future__ import annotations

import errno
import io
import json
import os
import re
import shutil
import urllib.parse
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import tabletape
from tabletape.ledger import Ledger
from tabletape.queries import site
from tabletape.replay.demo import run_demo
from tabletape.replay.simulate import simulate
from tabletape.rules.registry import manifests
from tests.cli.test_os_conditions import in_namespace, one_message, snapshot
from tests.cli.test_os_conditions import tabletape as run_cli
from tests.cli.test_recording import flat
from tests.queries.conftest import bot_games

APP = tabletape.build_app()

HOSTILE_ID = "odd&<b>'q\"x"
"""A log copied in by hand under a file name HTML would read as markup."""


# -- the ledger ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Ledger:
    store = Ledger(tmp_path_factory.mktemp("site") / "ledger")
    quiet = Console(file=io.StringIO())
    for kind in manifests():
        if manifests()[kind].demo:
            run_demo(store, quiet, kind, marked=False)  # played: `demo`'s own are left out
    bot_games(store, "risk-strike", 2, seed=4)
    bot_games(store, "marvel-united", 2, seed=4)
    for kind in ("risk-strike", "marvel-united", "risk-deep-space", "risk-transformers"):
        simulate(store, kind, games=1, seed=2)
    games = store.games_dir
    real = sorted(games.glob("rs-4-*.jsonl"))
    damage(real[0], games / "rs-damaged.jsonl")
    shutil.copy(real[1], games / f"{HOSTILE_ID}.jsonl")
    return store


def damage(log: Path, copy: Path) -> None:
    """A copy of ``log`` whose third line was changed after it was recorded."""
    lines = log.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"actor":"', b'"actor":"X', 1)
    copy.write_bytes(b"\n".join(lines))


def export(ledger: Ledger, *args: str) -> tuple[int, str, str]:
    """``tabletape export ARGS --ledger …`` in this process: exit code, stdout, stderr."""
    result = CliRunner().invoke(APP, ["export", *args, "--ledger", str(ledger.root)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def exported(ledger: Ledger, directory: Path, *args: str) -> dict[str, Any]:
    code, stdout, stderr = export(ledger, "--html", str(directory), "--json", *args)
    assert code == 0, stderr
    answer: dict[str, Any] = json.loads(stdout)
    return answer


def sql(ledger: Ledger, query: str, *args: str) -> list[dict[str, Any]]:
    result = CliRunner().invoke(APP, ["sql", query, "--json", "--ledger", str(ledger.root),
                                      *args])
    assert result.exit_code == 0, result.stderr
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows


@pytest.fixture(scope="module")
def built(ledger: Ledger, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The site of the real games, and what ``--json`` said of it."""
    directory = tmp_path_factory.mktemp("out") / "site"
    return directory, exported(ledger, directory)


# -- reading the site back -----------------------------------------------------------------------


class Page(HTMLParser):
    """What a page holds: its links, its game rows, its text."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.links: list[str] = []
        self.sources: list[str] = []
        self.rows: list[dict[str, str]] = []
        self.text: list[str] = []
        self.cell: str | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("href") is not None:
            self.links.append(str(found["href"]))
        if found.get("src") is not None:
            self.sources.append(str(found["src"]))
        if tag == "tr":
            self.rows.append({})
        if tag == "td" and found.get("data-label"):
            self.cell = str(found["data-label"])
            self.rows[-1][self.cell] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self.cell = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self.cell is not None:
            self.rows[-1][self.cell] += data

    def games(self) -> dict[str, dict[str, str]]:
        """The index's game rows by game id (the id is the link's code text)."""
        listed = {}
        for row in self.rows:
            if "Game" in row:
                game = row["Game"].strip().rpartition(" ")[2]
                listed[game] = row
        return listed


def index(directory: Path) -> Page:
    return Page((directory / "index.html").read_text(encoding="utf-8"))


def pages(directory: Path) -> Iterator[Path]:
    yield directory / "index.html"
    yield from sorted((directory / "games").iterdir())


# -- what the index says -------------------------------------------------------------------------


@pytest.mark.slow  # a whole site built from a synced ledger
def test_the_index_lists_every_verified_real_game_with_its_result_from_the_catalog(
        ledger: Ledger, built: tuple[Path, dict[str, Any]]) -> None:
    directory, answer = built
    catalog = {row["game"]: row for row in sql(
        ledger, "SELECT game, finished, winners, team, reason, turns, events FROM games")}
    listed = index(directory).games()
    assert set(listed) == set(catalog)
    assert answer["games"] == len(catalog)
    assert {"in progress"} < {row["Result"] for row in listed.values()}
    for game, row in catalog.items():
        result = listed[game]["Result"]
        if not row["finished"]:
            assert result == "in progress", game
            continue
        assert "in progress" not in result
        for winner in row["winners"]:
            assert winner in result, (game, result)
        if row["team"] and not row["winners"]:  # Marvel United lost: "the villain won"
            assert f"the {row['team']} won" in result
        assert row["reason"] in result
        assert f"{row['events']} events" in listed[game]["Length"]


def test_games_are_listed_newest_first(ledger: Ledger,
                                       built: tuple[Path, dict[str, Any]]) -> None:
    order = sql(ledger, "SELECT game FROM games ORDER BY started DESC, game")
    assert list(index(built[0]).games()) == [row["game"] for row in order]


def test_the_json_answer_fits_the_published_export_schema(
        built: tuple[Path, dict[str, Any]]) -> None:
    from tests.cli.test_schemas import problems

    assert problems("outputs/export", built[1]) == []
    assert problems("outputs/export", {**built[1], "pages": "index.html"}) != []


def test_every_link_resolves_to_a_page_written(built: tuple[Path, dict[str, Any]]) -> None:
    directory, answer = built
    page = index(directory)
    files = [link for link in page.links if not link.startswith("#")]
    assert files, "the index links its games"
    for link in files:
        assert (directory / urllib.parse.unquote(link)).is_file(), link
    assert sorted(answer["pages"]) == sorted(
        str(path.relative_to(directory)) for path in pages(directory))
    assert answer["pages"][0] == "index.html"
    assert len(answer["pages"]) == answer["games"] + 1
    finished = index(directory).games()["rs-4-0"]
    assert finished["Result"] != "in progress"
    assert "<svg" in (directory / "games" / "rs-4-0.html").read_text(encoding="utf-8")  # charts
    anchors = {link[1:] for link in page.links if link.startswith("#")}
    text = (directory / "index.html").read_text(encoding="utf-8")
    for anchor in anchors:
        assert f'id="{anchor}"' in text, anchor


@pytest.mark.slow
def test_a_damaged_log_is_named_on_the_index_and_by_the_command(
        ledger: Ledger, built: tuple[Path, dict[str, Any]]) -> None:
    directory, answer = built
    assert set(answer["left_out"]) == {"rs-damaged"}
    assert "event 3" in answer["left_out"]["rs-damaged"]
    text = "".join(index(directory).text)
    assert f"left out: rs-damaged: {answer['left_out']['rs-damaged']}" in flat(text)
    assert "rs-damaged" not in index(directory).games()
    assert not (directory / "games" / "rs-damaged.html").exists()
    code, stdout, stderr = export(ledger, "--html", str(directory.parent / "again"))
    assert code == 0
    assert "rs-damaged" in flat(stderr) and "1 game left out" in flat(stdout)


@pytest.mark.slow
def test_simulated_games_only_with_include_simulated(
        ledger: Ledger, built: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    simulated = {row["game"] for row in sql(
        ledger, "SELECT game FROM all_games WHERE simulated")}
    assert simulated and not simulated & set(index(built[0]).games())
    text = flat("".join(index(built[0]).text))
    assert f"{len(simulated)} simulated games left out" in text
    every = exported(ledger, tmp_path / "every", "--include-simulated")
    listed = index(tmp_path / "every").games()
    assert simulated <= set(listed)
    assert every["games"] == len(listed)
    for game in simulated:
        assert listed[game]["Date (UTC)"] == "simulated"  # never a 1970 date


@pytest.mark.slow
def test_kind_player_and_since_narrow_the_site_as_they_narrow_stats(
        ledger: Ledger, tmp_path: Path) -> None:
    answer = exported(ledger, tmp_path / "strike", "--kind", "strike", "--player", "olga")
    expected = sql(ledger, "SELECT game FROM games g WHERE kind = 'risk-strike' AND EXISTS "
                           "(SELECT 1 FROM players p WHERE p.game = g.game "
                           "AND lower(p.name) = 'olga')")
    assert set(index(tmp_path / "strike").games()) == {row["game"] for row in expected}
    assert answer["games"] == len(expected) > 0
    code, _, stderr = export(ledger, "--html", str(tmp_path / "x"), "--since", "soon")
    assert code == 2 and "YYYY-MM-DD" in flat(stderr)
    assert not (tmp_path / "x").exists()


def test_league_tables_are_the_stats_reports(ledger: Ledger,
                                             built: tuple[Path, dict[str, Any]]) -> None:
    """Every report ``stats --json`` gives is on the index: its title, and each player's win rate
    as the players report counts it."""
    result = CliRunner().invoke(APP, ["stats", "--json", "--ledger", str(ledger.root)])
    reports = json.loads(result.stdout)
    text = (built[0] / "index.html").read_text(encoding="utf-8")
    for report in reports:
        assert f'id="report-{report["report"]}"' in text
    players = next(r for r in reports if r["report"] == "players")
    for row in players["rows"]:
        assert re.search(rf"<td>{re.escape(row['player'])}</td><td[^>]*>{row['games']}</td>"
                         rf"<td[^>]*>{row['wins']}</td><td[^>]*>{row['win_rate']}</td>", text)
    assert text.count("<svg") >= 3  # win rates, lengths, dice at least


def test_pages_are_offline(built: tuple[Path, dict[str, Any]]) -> None:
    """Nothing is fetched at view time: no link or source to the network, no CSS import."""
    for path in pages(built[0]):
        text = path.read_text(encoding="utf-8")
        page = Page(text)
        for reference in page.links + page.sources:
            assert not re.match(r"(?i)\s*(https?:|//|ftp:)", reference), (path, reference)
        assert not re.search(r"(?i)url\(\s*['\"]?\s*(https?:|//)|@import", text), path
        assert not re.search(r"(?i)<(script|img|link|iframe)[^>]*\bsrc=['\"]?(https?:|//)", text)


def test_hostile_names_are_escaped(built: tuple[Path, dict[str, Any]]) -> None:
    directory = built[0]
    text = (directory / "index.html").read_text(encoding="utf-8")
    assert "<b>'q" not in text and "&amp;&lt;b&gt;&#x27;q&quot;x" in text
    listed = index(directory).games()
    assert HOSTILE_ID in listed
    page = directory / "games" / f"{HOSTILE_ID}.html"
    assert page.is_file()
    link = next(link for link in index(directory).links if "odd" in link)
    assert directory / urllib.parse.unquote(link) == page
    assert not set(link) & set("<>\"'& ")  # quoted in the link itself


# -- the folder ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_an_export_replaces_an_earlier_one_whole(ledger: Ledger, tmp_path: Path) -> None:
    directory = tmp_path / "site"
    exported(ledger, directory, "--include-simulated")
    first = {path.name for path in (directory / "games").iterdir()}
    exported(ledger, directory, "--kind", "marvel-united")
    second = {path.name for path in (directory / "games").iterdir()}
    assert second < first and all(name.startswith("mu-") for name in second)
    assert (directory / site.MARKER).is_file()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["site"]  # nothing left beside


@pytest.mark.slow
def test_a_failure_midway_leaves_the_earlier_site_as_it_was(
        ledger: Ledger, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    directory = tmp_path / "site"
    exported(ledger, directory)
    before = snapshot(directory)
    written: list[str] = []

    def disk_fills(game: str, records: Any, **options: Any) -> str:
        written.append(game)
        if len(written) == 3:
            raise OSError(errno.ENOSPC, "No space left on device", "somewhere/x.html")
        return "<!doctype html><title>x</title>"

    monkeypatch.setattr(site, "game_page", disk_fills)
    code, stdout, stderr = export(ledger, "--html", str(directory), "--include-simulated")
    assert code == 1 and stdout == ""
    assert flat(stderr).count("error:") == 1 and "disk is full" in stderr
    assert str(directory) in flat(stderr) and "Traceback" not in stderr
    assert snapshot(directory) == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["site"]


def test_a_new_site_that_fails_leaves_nothing(ledger: Ledger, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(game: str, records: Any, **options: Any) -> str:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(site, "game_page", broken)
    code, _, stderr = export(ledger, "--html", str(tmp_path / "site"))
    assert code == 1 and "input/output error" in flat(stderr)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_folder_tabletape_did_not_write_is_refused(ledger: Ledger, tmp_path: Path) -> None:
    """The site replaces its whole folder, so a folder holding anything else is never taken."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    code, stdout, stderr = export(ledger, "--html", str(mine))
    assert code == 2 and stdout == ""
    assert "notes.txt" in flat(stderr) and "new or empty folder" in flat(stderr)
    assert (mine / "notes.txt").read_text() == "keep me" and len(list(mine.iterdir())) == 1
    exported(ledger, tmp_path / "site")
    (tmp_path / "site" / "games" / "extra.css").write_text("x")  # added to an earlier export
    code, _, stderr = export(ledger, "--html", str(tmp_path / "site"))
    assert code == 2 and "games/extra.css" in flat(stderr)
    assert (tmp_path / "site" / "games" / "extra.css").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert exported(ledger, empty)["games"] > 0


@pytest.mark.parametrize("target", ["file", "ledger", "inside", "link", "stdout", "no-parent"])
def test_targets_that_are_not_a_folder_for_the_site_are_refused(
        ledger: Ledger, tmp_path: Path, target: str) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    (tmp_path / "link").symlink_to(tmp_path, target_is_directory=True)
    directory = {"file": a_file, "ledger": ledger.root, "inside": ledger.root / "site",
                 "link": tmp_path / "link", "stdout": Path("-"),
                 "no-parent": tmp_path / "nowhere" / "site"}[target]
    before = snapshot(ledger.root)
    code, stdout, stderr = export(ledger, "--html", str(directory))
    assert code == 2 and stdout == "" and flat(stderr).count("error:") == 1, stderr
    assert a_file.read_text() == "x"
    assert snapshot(ledger.root).keys() == before.keys()


def test_a_path_through_a_missing_folder_is_the_folder_it_names(
        ledger: Ledger, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``keep/missing/..`` is ``keep``: checked (and refused) as ``keep``, never taken for a new
    folder because ``keep/missing`` does not exist; the current folder is never replaced."""
    keep = tmp_path / "keep"
    (keep / "x").mkdir(parents=True)
    (keep / "x" / "notes.txt").write_text("keep me")
    code, _, stderr = export(ledger, "--html", f"{keep}/missing/..")
    assert code == 2 and "'x'" in stderr
    monkeypatch.chdir(keep / "x")
    for here in (".", "..", "../x/."):
        code, _, stderr = export(ledger, "--html", here)
        assert code == 2 and "current folder" in flat(stderr), here
    assert (keep / "x" / "notes.txt").read_text() == "keep me"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["keep"]


def test_options_that_do_not_go_with_html_are_refused(ledger: Ledger, tmp_path: Path) -> None:
    for args in (["--html", str(tmp_path / "s"), "--parquet", str(tmp_path / "p")],
                 ["rs-x", "--jsonl", str(tmp_path / "x.jsonl"), "--html", str(tmp_path / "s")],
                 ["--parquet", str(tmp_path / "p"), "--kind", "strike"], []):
        code, _, stderr = export(ledger, *args)
        assert code == 2, args
        assert "--html DIR" in flat(stderr)
    code, _, stderr = export(ledger, "--html", str(tmp_path / "s"), "--bgg-xml", "-")
    assert code == 2 and "one export at a time" in stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_read_only_target_is_refused_cleanly(ledger: Ledger, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    exported(ledger, out / "site")
    before = snapshot(out)
    read_only = f"mount --bind {out} {out}; mount -o remount,bind,ro {out}"
    for target in (out / "site", out / "new"):
        completed = in_namespace(read_only, "export", "--html", str(target),
                                 ledger=ledger.root)
        one_message(completed, 1, "read-only", str(target))
    assert snapshot(out) == before
    assert sorted(path.name for path in out.iterdir()) == ["site"]


@pytest.mark.slow
def test_a_full_disk_leaves_the_earlier_site_as_it_was(ledger: Ledger, tmp_path: Path) -> None:
    """On a small file system filled up, as the command runs for people: one message, exit 1,
    the earlier export there unchanged and nothing else left beside it."""
    earlier, mount, saved = tmp_path / "earlier", tmp_path / "small", tmp_path / "after"
    for folder in (earlier, mount, saved):
        folder.mkdir()
    exported(ledger, earlier / "site", "--kind", "marvel-united")
    size = sum(len(data) for data in snapshot(earlier).values()) // 1024 + 256  # KiB
    fill = (f"mount -t tmpfs -o size={size}k tmpfs {mount}; cp -a {earlier}/. {mount}/; "
            f"head -c 1000000 /dev/zero > {mount}/filler 2>/dev/null || true")
    keep = f"rm {mount}/filler; cp -a {mount}/. {saved}/"
    full = in_namespace(fill, "export", "--html", str(mount / "site"), "--include-simulated",
                        ledger=ledger.root, after=keep)
    one_message(full, 1, "disk is full", str(mount / "site"))
    assert snapshot(saved) == snapshot(earlier)
    assert sorted(path.name for path in saved.iterdir()) == ["site"]


@pytest.mark.slow
def test_the_installed_command_writes_the_site(ledger: Ledger, tmp_path: Path) -> None:
    """As people run it (a subprocess): one line saying what was written."""
    completed = run_cli("export", "--html", str(tmp_path / "site"), ledger=ledger.root)
    assert completed.returncode == 0, completed.stderr
    assert flat(completed.stdout).startswith(f"Wrote {tmp_path / 'site'}: index.html and")
    assert os.access(tmp_path / "site" / "index.html", os.R_OK)
    (tmp_path / "made").mkdir()  # the site's folder is made as mkdir makes one (umask)
    assert (tmp_path / "site").stat().st_mode == (tmp_path / "made").stat().st_mode


@pytest.mark.slow
def test_a_log_damaged_after_the_sync_is_left_out_of_the_pages_and_named(
        ledger: Ledger, tmp_path: Path) -> None:
    """Each page is written from its log verified again, not trusted from the catalog; the
    progress callback hears of every game in turn."""
    from tabletape.queries.catalog import connect

    copy = Ledger(tmp_path / "ledger")
    shutil.copytree(ledger.root, copy.root)
    told: list[tuple[int, int]] = []
    with pytest.warns(UserWarning, match="rs-damaged"), connect(copy.root) as con:
        listed = len(con.execute("SELECT game FROM games").fetchall())
        game = "rs-4-0"
        damage(copy.path(game), copy.path(game))
        written = site.write_site(copy, con, tmp_path / "site", left_out={},
                                  progress=lambda done, total: told.append((done, total)))
    assert told == [(done, listed) for done in range(1, listed + 1)]
    assert written.games == listed - 1 and list(written.left_out) == [game]
    assert "event 3" in written.left_out[game]
    assert f"left out: {game}: " in "".join(index(tmp_path / "site").text)
    assert game not in index(tmp_path / "site").games()
