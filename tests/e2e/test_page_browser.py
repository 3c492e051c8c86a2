"""The replay page in a real browser: headless Chromium driven by Playwright.

Each shipped demo game, a simulated Deep Space and Transformers game, and a tiny game with an
undo and notes are loaded at a phone's 360×800 and a desktop's 1280×800: no horizontal overflow,
no console message or page error, keys and buttons step through the game and show the narration
``narrate_game`` gives for that event, the turn list and ``#seq-N`` links jump. Screenshots are
saved (to ``$TABLETAPE_SCREENSHOTS`` when set, else a temporary folder) for people to look at.

Without Chromium (or Playwright) every test here is skipped with the reason printed.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tabletape.ledger import Ledger, Record
from tabletape.queries.series_charts import log_charts
from tabletape.replay.demo import run_demo
from tabletape.replay.engine import Replay
from tabletape.replay.narrate import join_sentences, narrate_game, turn_group
from tabletape.replay.page import game_page
from tests.replay.conftest import STORY, record_script, run
from tests.support.browser import launched_browser

pytestmark = pytest.mark.browser  # headless Chromium: not in the default run

SIZES = {"phone": (360, 800), "desktop": (1280, 800)}
DEMO_GAMES = ("risk-strike", "marvel-united", "risk-deep-space", "risk-transformers")
SIMULATED = ("risk-deep-space", "risk-transformers")
SIMULATED_EVENTS = 150
"""A simulated game's first events (a prefix of a log is a log): long enough for many turns."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_browser()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wanted = os.environ.get("TABLETAPE_SCREENSHOTS")
    folder = Path(wanted) if wanted else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"screenshots in {folder}")
    return folder


class Game:
    """A game written as a page: its id, records and file."""

    def __init__(self, game: str, records: list[Record], folder: Path) -> None:
        self.game = game
        self.records = records
        self.file = folder / f"{game}.html"
        page = game_page(game, records, charts=log_charts(game, records))
        self.file.write_text(page, encoding="utf-8")
        self.told = {line.seq: join_sentences(line.sentences)
                     for line in narrate_game(game, records)}
        turns = [turn_group(line) for line in narrate_game(game, records)]
        self.turn_starts = [index + 1 for index, turn in enumerate(turns)
                            if index == 0 or turn != turns[index - 1]]
        """The seq of each turn's first event (the narration's turn and round headings)."""

    @property
    def url(self) -> str:
        return self.file.as_uri()


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Game]:
    folder = tmp_path_factory.mktemp("pages")
    store = Ledger(folder / "ledger")
    made = {}
    for kind in DEMO_GAMES:
        game = run_demo(store, Console(file=io.StringIO()), kind)
        made[f"demo-{kind}"] = Game(game, store.records(game), folder)
    for kind in SIMULATED:
        code, output = run(store, "simulate", kind, "-n", "1", "--seed", "3", "--json")
        assert code == 0, output
        (game,) = __import__("json").loads(output)["games"]
        made[f"simulated-{kind}"] = Game(game, store.records(game)[:SIMULATED_EVENTS], folder)
    story = record_script(store, "ty-story", STORY)
    code, output = run(store, "note", story, "olga's cheer was loud", "--at", "seq=3",
                       "--by", "olga")
    assert code == 0, output
    made["story"] = Game(story, store.records(story), folder)
    return made


class Page:
    """One loaded page, with every console message and page error it produced."""

    def __init__(self, browser: Any, game: Game, size: str, hash_part: str = "") -> None:
        width, height = SIZES[size]
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.messages: list[str] = []
        self.page.on("console", lambda message: self.messages.append(
            f"console {message.type}: {message.text}"))
        self.page.on("pageerror", lambda error: self.messages.append(f"page error: {error}"))
        self.page.goto(game.url + hash_part)
        self.game = game

    def told(self) -> str:
        return str(self.page.inner_text("#told"))

    def seq(self) -> int:
        return int(self.page.evaluate("location.hash").removeprefix("#seq-"))

    def shows(self, seq: int) -> None:
        """The page is at ``seq``: its narration shown, the hash pointing at it."""
        self.page.wait_for_function(f"location.hash === '#seq-{seq}'", timeout=5000)
        told = self.told()
        assert f"seq {seq}" in told and self.game.told[seq] in " ".join(told.split())
        assert self.page.evaluate("location.hash") == f"#seq-{seq}"

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def overflow(self) -> tuple[int, int]:
        return tuple(self.page.evaluate(
            "[document.documentElement.scrollWidth, window.innerWidth]"))

    def close(self) -> None:
        self.page.close()


NAMES = ("demo-risk-strike", "demo-marvel-united", "demo-risk-deep-space",
         "demo-risk-transformers", "simulated-risk-deep-space", "simulated-risk-transformers",
         "story")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", NAMES)
def test_the_page_fits_and_loads_cleanly(browser: Any, games: dict[str, Game], shots: Path,
                                        name: str, size: str) -> None:
    page = Page(browser, games[name], size)
    scroll_width, width = page.overflow()
    charts = page.page.locator("section.charts figure.chart svg")
    for index in range(charts.count()):  # every chart fits the page too
        box = charts.nth(index).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert scroll_width <= width
    page.page.screenshot(path=str(shots / f"{name}-{size}.png"))
    page.page.screenshot(path=str(shots / f"{name}-{size}-full.png"), full_page=True)
    page.press("Home")
    page.shows(1)
    assert page.overflow()[0] <= width
    assert page.messages == []
    page.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", NAMES)
def test_keys_step_through_turns_and_events(browser: Any, games: dict[str, Game], name: str,
                                            size: str) -> None:
    game = games[name]
    page = Page(browser, game, size)
    page.press("Home")
    page.shows(1)
    for seq in game.turn_starts[1:]:  # n: each turn's first event, in order
        page.press("n")
        page.shows(seq)
    page.press("End")
    page.shows(len(game.records))
    page.press("PageUp")
    page.shows(max(start for start in game.turn_starts if start < len(game.records)))
    page.press("End")
    for back in range(1, 4):  # ← one event at a time
        page.press("ArrowLeft")
        page.shows(len(game.records) - back)
    page.press("ArrowRight")
    page.shows(len(game.records) - 2)
    page.press("p")
    assert page.seq() in game.turn_starts
    assert page.messages == []
    page.close()


@pytest.mark.parametrize("size", SIZES)
def test_buttons_turn_list_and_links_jump(browser: Any, games: dict[str, Game], shots: Path,
                                          size: str) -> None:
    game = games["simulated-risk-deep-space"]
    page = Page(browser, game, size, "#seq-5")
    page.shows(5)
    page.page.get_by_role("button", name="Next event").click()
    page.shows(6)
    page.page.get_by_role("button", name="First event").click()
    page.shows(1)
    assert page.page.get_by_role("button", name="Previous event").is_disabled()
    target = game.turn_starts[4]
    page.page.locator(f'.turns a[data-seq="{target}"]').click()
    page.shows(target)
    assert page.page.locator('.turns a[aria-current="true"]').inner_text().startswith("Turn")
    current = page.page.locator('.log li[aria-current="step"]')
    assert current.get_attribute("data-seq") == str(target) and current.is_visible()
    page.page.locator('.log li[data-seq="9"] a.seq').click()
    page.shows(9)
    page.page.screenshot(path=str(shots / f"jumped-{size}.png"))
    assert page.messages == []
    page.close()


@pytest.mark.parametrize("size", SIZES)
def test_notes_and_undone_events_show_as_such(browser: Any, games: dict[str, Game], shots: Path,
                                              size: str) -> None:
    game = games["story"]
    retracted = Replay(game.game, game.records).info.retracted
    (seq, undo), = retracted.items()
    page = Page(browser, game, size, f"#seq-{seq}")
    page.shows(seq)
    struck = page.page.locator("#told .text.undone")
    assert "line-through" in struck.evaluate("e => getComputedStyle(e).textDecorationLine")
    assert f"Undone by {undo.actor} at seq {undo.seq}" in page.told()  # in words, not colour
    page.page.screenshot(path=str(shots / f"undone-{size}.png"))
    page.page.goto(game.url + "#seq-3")
    page.page.reload()
    page.shows(3)
    assert "Note (olga): olga's cheer was loud" in page.told()
    notes = [r.seq for r in game.records if r.type == "note"]
    page.page.goto(game.url + f"#seq-{notes[0]}")
    page.page.reload()
    assert page.page.locator('#told .text[data-kind="note"]').count() == 1
    assert page.page.get_attribute("#told", "aria-live") == "polite"
    assert page.messages == []
    page.close()


def test_the_page_refuses_to_reach_the_network(browser: Any, games: dict[str, Game]) -> None:
    """Its Content-Security-Policy makes the browser block any fetch, should one slip in."""
    page = Page(browser, games["story"], "desktop")
    blocked = page.page.evaluate("""() => new Promise((resolve) => {
        document.addEventListener("securitypolicyviolation", (e) => resolve(e.blockedURI));
        const img = document.createElement("img");
        img.src = "http://127.0.0.1:9/tracker.png";
        document.body.append(img);
        setTimeout(() => resolve(""), 3000);
    })""")
    assert blocked.startswith("http://127.0.0.1:9")
    page.close()
