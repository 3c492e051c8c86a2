"""The replay page (``replay GAME --html FILE``): one offline file holding the whole game.

What a page must hold is taken from the same pieces the terminal uses (``narrate_game``,
``status_json``, the rules' result), never written out here, so the tests follow the games.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tabletape import build_app
from tabletape.ledger import Ledger, Record
from tabletape.replay.demo import run_demo
from tabletape.replay.engine import Replay
from tabletape.replay.narrate import join_sentences, narrate_game
from tabletape.replay.page import (
    PRINTED,
    LineTable,
    StyleSheet,
    game_page,
    html_lines,
    marked_values,
    shell,
)
from tabletape.replay.parts import game_part
from tabletape.replay.render import game_view, status_json
from tabletape.rules.kernel import won_words
from tests.replay.conftest import STORY, record_script, run

DEMO_GAMES = ("risk-strike", "marvel-united", "risk-deep-space", "risk-transformers")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
SVG_LEAVES = {"path", "circle", "line", "rect", "ellipse", "polyline", "polygon", "stop", "use"}


class Structure(HTMLParser):
    """Checks that every element opened is closed in order, and keeps the scripts' text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.problems: list[str] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.external: list[str] = []
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href", "action", "xlink:href") and value and (
                    "//" in value or value.startswith(("http", "data:text/html"))):
                self.external.append(f"{tag} {name}={value}")
            if name == "id" and value:
                self.ids.append(value)
        if tag == "link":
            self.external.append("a <link> element")
        if tag == "script":
            self.scripts.append((dict(attrs), ""))
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID | SVG_LEAVES:
            self.problems.append(f"<{tag}/> self-closed")

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
            return
        self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] == "script":
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)


def parsed(page: str) -> Structure:
    structure = Structure()
    structure.feed(page)
    structure.close()
    return structure


def page_data(page: str) -> dict[str, Any]:
    """The steps the page embeds, read back as its script reads them."""
    (data,) = [text for attrs, text in parsed(page).scripts
               if attrs.get("id") == "tabletape-data"]
    return json.loads(data)


@pytest.fixture(scope="module")
def demos(tmp_path_factory: pytest.TempPathFactory) -> tuple[Ledger, dict[str, str]]:
    """Each shipped demo game recorded once into one ledger."""
    store = Ledger(tmp_path_factory.mktemp("demos") / "ledger")
    games = {kind: run_demo(store, Console(file=io.StringIO()), kind) for kind in DEMO_GAMES}
    return store, games


@pytest.fixture(scope="module")
def pages(demos: tuple[Ledger, dict[str, str]]) -> dict[str, tuple[list[Record], str]]:
    store, games = demos
    return {kind: (store.records(game), game_page(game, store.records(game)))
            for kind, game in games.items()}


@pytest.mark.slow
@pytest.mark.parametrize("kind", DEMO_GAMES)
def test_a_page_is_one_valid_offline_document(pages: dict[str, tuple[list[Record], str]],
                                              kind: str) -> None:
    _, page = pages[kind]
    structure = parsed(page)
    assert page.startswith("<!DOCTYPE html>")
    assert structure.problems == [] and structure.open == []
    assert structure.external == []
    outside_svg_names = re.sub(r'xmlns=\\?"http://www\.w3\.org/2000/svg\\?"', "", page)
    assert not re.search(r"@import|url\(|https?:|<link", outside_svg_names)
    assert len(structure.ids) == len(set(structure.ids))  # ids are unique


@pytest.mark.parametrize("kind", DEMO_GAMES)
def test_a_page_holds_every_narration_line_players_and_result(
        pages: dict[str, tuple[list[Record], str]], demos: tuple[Ledger, dict[str, str]],
        kind: str) -> None:
    records, page = pages[kind]
    game = demos[1][kind]
    replay = Replay(game, records)
    text = html.unescape(page)
    for line in narrate_game(game, records):
        assert join_sentences(line.sentences) in text
    for player in replay.started.players:
        assert player in text
    result = replay.rules.result(replay.state_at(replay.last))
    expected = f"Finished: {won_words(result)}" if result else "In progress"
    assert expected in text
    steps = page_data(page)["steps"]
    assert [step["seq"] for step in steps] == [record.seq for record in records]


@pytest.mark.parametrize("kind", DEMO_GAMES)
def test_each_step_embeds_the_view_of_the_table_after_it(
        pages: dict[str, tuple[list[Record], str]], demos: tuple[Ledger, dict[str, str]],
        kind: str) -> None:
    """The views are computed at export time: a step's lines are the game's view there."""
    records, page = pages[kind]
    replay = Replay(demos[1][kind], records)
    data = page_data(page)
    for position in (0, len(records) // 2, replay.last):
        step = data["steps"][position]
        lines = [data["lines"][n] for n in data["blocks"][step["view"]]]
        fresh = html_lines(game_view(replay.rules, replay.state_at(position)), StyleSheet())
        assert [strip_tags(line) for line in lines] == [strip_tags(line) for line in fresh]
        assert step["where"].startswith(f"{replay.rules.title} · {replay.game} · seq "
                                        f"{records[position].seq} of {len(records)}")


def strip_tags(line: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", line))


@pytest.mark.parametrize("kind", DEMO_GAMES)
def test_the_data_section_lists_every_marked_value_in_force(
        pages: dict[str, tuple[list[Record], str]], demos: tuple[Ledger, dict[str, str]],
        kind: str) -> None:
    """Values the rulebook does not print carry their mark (rules/facts.py MARKS) on the page."""
    records, page = pages[kind]
    replay = Replay(demos[1][kind], records)
    marked = marked_values(status_json(replay.folded_at(replay.last)))
    data_section = html.unescape(page.split('<section class="data"')[1].split("</section>")[0])
    for value in marked:
        assert value.mark not in PRINTED
        assert f"{value.what}</th><td>{value.value}</td>" in data_section
    assert "What the marks mean" in data_section


def test_a_reconstructed_board_is_marked_on_the_page(
        pages: dict[str, tuple[list[Record], str]], demos: tuple[Ledger, dict[str, str]]) -> None:
    """Deep Space's board is our reconstruction (mark I): the page's Data section says so."""
    records, page = pages["risk-deep-space"]
    board = status_json(Replay(demos[1]["risk-deep-space"], records).folded_at(0))["board"]
    assert board["mark"] == "I"
    data_section = html.unescape(page.split('<section class="data"')[1])
    assert f"<th scope=\"row\">board</th><td>{board['name']}</td><td><abbr" in data_section
    assert "reconstruction" in data_section


def test_marked_values_read_every_form_of_mark() -> None:
    shape = {"health": 12, "health_mark": "C", "dashboard": {"bam": "x", "mark": "I"},
             "data_marks": {"hero_decks": "C", "printed": "R"},
             "readings": [{"reading": "A1", "value": 3, "mark": "table"}],
             "continents": {"asia": {"links": ["europe", "africa"], "links_mark": "I"}}}
    assert [(m.what, m.value, m.mark) for m in marked_values(shape)] == [
        ("health", "12", "C"), ("dashboard", "", "I"), ("data_marks · hero_decks", "", "C"),
        ("readings · A1", "3", "table"), ("continents · asia · links", "europe, africa", "I")]


# -- notes, undos, --at ----------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Ledger:
    return Ledger(tmp_path / "ledger")


@pytest.fixture
def story(store: Ledger) -> str:
    return record_script(store, "ty-story", STORY)


@pytest.fixture
def story_page(store: Ledger, story: str) -> tuple[str, list[Record]]:
    """The tiny story (an undo by patrick, a note) with a note about seq 3 added by olga."""
    code, output = run(store, "note", story, "olga's cheer was loud", "--at", "seq=3",
                       "--by", "olga")
    assert code == 0, output
    return story, store.records(story)


def test_undone_events_are_struck_through_with_who_undid_them(
        story_page: tuple[str, list[Record]]) -> None:
    game, records = story_page
    replay = Replay(game, records)
    undone = replay.info.retracted
    assert undone  # STORY holds "undo patrick"
    page = game_page(game, records)
    data = page_data(page)
    for seq, undo in undone.items():
        step = data["steps"][seq - 1]
        assert step["undone"] == f"Undone by {undo.actor} at seq {undo.seq}"
        assert f"<s>{html.escape(step['text'])}</s>" in page
    assert {step["kind"] for step in data["steps"]} >= {"start", "event", "note", "undo"}


def test_notes_are_shown_as_notes_at_the_event_they_are_about(
        story_page: tuple[str, list[Record]]) -> None:
    game, records = story_page
    data = page_data(game_page(game, records))
    notes = [r for r in records if r.type == "note"]
    assert len(notes) == 2 and STORY.count("note the die rolled off the table") == 1
    about = [step for step in data["steps"] if step["notes"]]
    assert [(step["seq"], step["notes"]) for step in about] == [
        (3, ["Note (olga): olga's cheer was loud"])]
    note_steps = [step for step in data["steps"] if step["kind"] == "note"]
    assert [step["seq"] for step in note_steps] == [note.seq for note in notes]


def test_at_chooses_the_starting_step(story_page: tuple[str, list[Record]]) -> None:
    game, records = story_page
    narration = {line.seq: join_sentences(line.sentences) for line in narrate_game(game, records)}
    for at, seq in (("seq=4", 4), ("start", 1), (None, len(records))):
        page = game_page(game, records, at=at)
        assert page_data(page)["start"] == seq - 1
        told = html.unescape(page.split('id="told"')[1].split("</div>")[0])
        assert f"seq {seq}</span> {narration[seq]}" in told
        (current,) = re.findall(r'<li data-seq="(\d+)" data-kind="\w+" aria-current="step"',
                                page)
        assert current == str(seq)


def test_a_hostile_note_is_escaped_everywhere(store: Ledger, story: str) -> None:
    """A note is free text: markup in it is shown as text, and it cannot end the data script."""
    hostile = "</script><script>alert('x')</script> & \"quoted\" <b>bold</b> ' end"
    code, output = run(store, "note", story, hostile, "--at", "seq=2")
    assert code == 0, output
    records = store.records(story)
    page = game_page(story, records, at="seq=2")
    structure = parsed(page)
    assert structure.problems == []
    assert [attrs.get("id") for attrs, _ in structure.scripts] == ["tabletape-data", None]
    assert "<script>alert" not in page and "<b>bold</b>" not in page
    notes = [note for step in page_data(page)["steps"] for note in step["notes"]]
    assert notes == [f"Note (table): {hostile}"]
    assert html.escape(f"Note (table): {hostile}") in page  # shown at seq 2, as text


def test_player_names_with_quotes_are_escaped(tmp_path: Path) -> None:
    store = Ledger(tmp_path / "ledger")
    code, output = run(store, "new", "risk-strike", "-p", "O'Brien", "-p", "Ann-Marie",
                       "--id", "rs-quote")
    assert code == 0, output
    page = game_page("rs-quote", store.records("rs-quote"))
    assert "O&#x27;Brien" in page and parsed(page).problems == []


# -- the command ---------------------------------------------------------------------------------


def test_replay_html_writes_the_page(store: Ledger, story: str, tmp_path: Path) -> None:
    target = tmp_path / "out" / "story.html"
    target.parent.mkdir()
    code, output = run(store, "replay", story, "--html", str(target), "--at", "seq=5")
    assert code == 0 and f"Wrote {target}" in output.replace("\n", "")
    assert page_data(target.read_text())["start"] == 4
    assert os.listdir(target.parent) == ["story.html"]


def test_replay_html_to_a_missing_folder_is_one_message(store: Ledger, story: str,
                                                       tmp_path: Path) -> None:
    target = tmp_path / "nowhere" / "story.html"
    code, output = run(store, "replay", story, "--html", str(target))
    assert code == 1 and "Traceback" not in output
    assert output.count("error:") == 1 and str(target) in output.replace("\n", "")
    assert ".writing" not in output  # the file asked for is named, not the scratch file
    assert not target.parent.exists()


def test_a_failed_write_leaves_the_old_file_and_no_scratch(
        store: Ledger, story: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "story.html"
    target.write_text("the old page")

    def full(descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("tabletape.ledger.store.os.fsync", full)
    code, output = run(store, "replay", story, "--html", str(target))
    assert code == 1 and "Traceback" not in output and output.count("error:") == 1
    assert target.read_text() == "the old page"
    assert sorted(os.listdir(tmp_path)) == ["ledger", "story.html"]


def test_replay_html_of_a_damaged_log_is_refused(store: Ledger, story: str,
                                                 tmp_path: Path) -> None:
    path = store.path(story)
    path.write_bytes(path.read_bytes().replace(b'"n":3', b'"n":9', 1))
    target = tmp_path / "story.html"
    code, output = run(store, "replay", story, "--html", str(target))
    _, status = run(store, "status", story)
    assert code == 1 and "Traceback" not in output and output.count("error:") == 1
    assert output.splitlines()[0] == status.splitlines()[0]  # the same refusal as status
    assert not target.exists()


def test_replay_html_dash_writes_the_page_to_stdout(store: Ledger, story: str) -> None:
    result = CliRunner().invoke(build_app(), ["replay", story, "--html", "-", "--ledger",
                                              str(store.root)])
    assert result.exit_code == 0
    assert page_data(result.stdout)["steps"][-1]["seq"] == len(store.records(story))


# -- the pieces ------------------------------------------------------------------------------------


def test_the_installed_package_finds_its_stylesheet_and_script() -> None:
    folder = resources.files("tabletape.replay")
    assert "button" in (folder / "page.css").read_text(encoding="utf-8")
    assert "tabletape-data" in (folder / "page.js").read_text(encoding="utf-8")
    page = shell("x", "")
    assert (folder / "page.css").read_text(encoding="utf-8") in page


@pytest.mark.slow
def test_the_built_wheel_ships_the_stylesheet_and_script(tmp_path: Path) -> None:
    """Built the way pip installs it (not the editable checkout), the package holds both."""
    import subprocess
    import sys
    import zipfile

    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(tmp_path), str(root)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("tabletape-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {"tabletape/replay/page.css", "tabletape/replay/page.js"} <= set(names)


def test_shell_escapes_the_title_and_adds_the_script() -> None:
    page = shell("<Olga> & co", "<p>body</p>", script="let x = 1;")
    assert "<title>&lt;Olga&gt; &amp; co</title>" in page
    structure = parsed(page)
    assert structure.problems == [] and [text.strip() for _, text in structure.scripts] == [
        "let x = 1;"]


def test_lines_are_stored_once_and_read_back_in_order() -> None:
    table = LineTable()
    blocks = [["a", "b", "c"], ["a", "b", "d"], ["a", "b", "c"], []]
    numbers = [table.block(lines) for lines in blocks]
    assert numbers[0] == numbers[2] and len(table.lines) == 4
    assert [table.text(n) for n in numbers] == ["\n".join(lines) for lines in blocks]



@pytest.mark.parametrize("kind", DEMO_GAMES)
def test_map_games_embed_the_board_picture_of_each_step(
        pages: dict[str, tuple[list[Record], str]], demos: tuple[Ledger, dict[str, str]],
        kind: str) -> None:
    """The game's ``picture`` part, stored cut into pieces, is read back whole at each step; a
    game without one has no picture (and the page hides the figure)."""
    records, page = pages[kind]
    replay = Replay(demos[1][kind], records)
    draw = game_part(replay.rules.name, "picture")
    data = page_data(page)
    for position in (0, len(records) // 2, replay.last):
        step = data["steps"][position]
        if draw is None:
            assert step["picture"] == -1
            continue
        pieces = [data["lines"][n] for n in data["blocks"][step["picture"]]]
        assert "".join(pieces) == draw(replay.rules, replay.state_at(position))
    if draw is None:
        assert '<figure class="board" id="board" hidden>' in page


def test_a_hostile_board_file_is_escaped_in_the_page(tmp_path: Path) -> None:
    """A table's own board file is free text too (its name and note are shown in the Data
    section, the view and the picture): markup in it stays text."""
    hostile = "</script><script>alert(1)</script> & <b>"
    board = json.loads((resources.files("tabletape.rules.risk_deep_space")
                        / "default-board.json").read_text(encoding="utf-8"))
    board["name"], board["note"] = hostile, f"note {hostile}"
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board), encoding="utf-8")
    store = Ledger(tmp_path / "ledger")
    code, output = run(store, "new", "risk-deep-space", "-p", "Olga", "-p", "Patrick",
                       "--option", f"board={path}", "--id", "ds-hostile")
    assert code == 0, output
    page = game_page("ds-hostile", store.records("ds-hostile"))
    structure = parsed(page)
    assert structure.problems == [] and structure.external == []
    assert [attrs.get("id") for attrs, _ in structure.scripts] == ["tabletape-data", None]
    assert "<script>alert" not in page and "<b>" not in page
    assert hostile in html.unescape(page)  # shown, as text
    lines = page_data(page)["lines"]  # the views and pictures the script inserts: escaped too
    assert any("alert(1)" in strip_tags(line) for line in lines)
    assert not any("<script" in line or "<b>" in line for line in lines)


def test_a_bad_at_is_one_message_and_writes_nothing(store: Ledger, story: str,
                                                    tmp_path: Path) -> None:
    target = tmp_path / "story.html"
    code, output = run(store, "replay", story, "--html", str(target), "--at", "seq=99")
    assert code == 2 and output.count("error:") == 1 and "has events 1 to" in output
    assert not target.exists()


def test_a_fork_says_where_it_comes_from(store: Ledger, story: str) -> None:
    code, output = run(store, "fork", story, "--at", "seq=4", "--id", "ty-what-if")
    assert code == 0, output
    page = html.unescape(game_page("ty-what-if", store.records("ty-what-if")))
    assert f"A what-if game forked from {story} after seq 4." in page


def test_the_command_adds_the_games_charts(demos: tuple[Ledger, dict[str, str]],
                                           tmp_path: Path) -> None:
    """Standings over time, dice against fair and battles against odds, from the catalog's
    series of the game (queries.series_charts), each an inline SVG in the Charts section."""
    from tabletape.queries.series import game_series
    from tabletape.queries.series_charts import game_charts

    store, games = demos
    game = games["risk-strike"]
    charts = game_charts(game_series(game, store.records(game)))
    assert charts  # a finished demo game has standings, dice and battles
    target = tmp_path / "page.html"
    code, output = run(store, "replay", game, "--html", str(target))
    assert code == 0, output
    page = target.read_text(encoding="utf-8")
    section = page.split('<section class="charts"')[1].split("</section>")[0]
    assert section.count('<figure class="chart">') == len(charts)
    assert all(chart in section for chart in charts)
    assert parsed(page).problems == []


def test_a_written_page_takes_the_umask_or_keeps_its_mode(store: Ledger, story: str,
                                                          tmp_path: Path) -> None:
    fresh, kept = tmp_path / "fresh.html", tmp_path / "kept.html"
    kept.write_text("old")
    kept.chmod(0o600)
    umask = os.umask(0o027)
    try:
        for target in (fresh, kept):
            code, output = run(store, "replay", story, "--html", str(target))
            assert code == 0, output
    finally:
        os.umask(umask)
    assert (fresh.stat().st_mode & 0o777, kept.stat().st_mode & 0o777) == (0o640, 0o600)
