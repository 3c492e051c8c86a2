"""Issue 16 (C): the site's index in a real browser (headless Chromium through Playwright).

At a 360 px phone and a 1280 px desktop: no horizontal overflow, no console message or page
error, the games table read as one card per game on the phone, and every game's link opens its
page. Screenshots are kept in the test's tmp folder. Skipped, saying why, without Chromium or
Playwright.
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import tabletape
from tabletape.ledger import Ledger
from tabletape.replay.demo import run_demo
from tabletape.replay.simulate import simulate
from tabletape.rules.registry import manifests
from tests.support.browser import launched_browser

pytestmark = pytest.mark.browser  # headless Chromium: not in the default run

SIZES = ((360, 800), (1280, 800))
LONG_ID = "rs" + "x" * 120


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_browser()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the demo game of every kind, a simulated game and a copy of one under a
    long id, beside a damaged log."""
    store = Ledger(tmp_path_factory.mktemp("browser") / "ledger")
    for kind, manifest in manifests().items():
        if manifest.demo:
            run_demo(store, Console(file=io.StringIO()), kind)
    simulate(store, "risk-strike", games=1, seed=3)
    log = next(store.games_dir.glob("rs-*.jsonl"))
    lines = log.read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b'"actor":"', b'"actor":"X', 1)
    (store.games_dir / "rs-damaged.jsonl").write_bytes(b"\n".join(lines))
    shutil.copy(log, store.games_dir / f"{LONG_ID}.jsonl")  # an id longer than a phone is wide
    directory = tmp_path_factory.mktemp("out") / "site"
    result = CliRunner().invoke(tabletape.build_app(), [
        "export", "--html", str(directory), "--include-simulated", "--ledger", str(store.root)])
    assert result.exit_code == 0, result.stderr
    return directory


def opened(browser: Any, url: str, size: tuple[int, int]) -> tuple[Any, list[str]]:
    """A page at ``url`` in a window of ``size``, and the console messages and errors it gives."""
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    said: list[str] = []
    page.on("console", lambda message: said.append(f"console {message.type}: {message.text}"))
    page.on("pageerror", lambda error: said.append(f"page error: {error}"))
    page.goto(url)
    return page, said


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_index_fits_the_screen_and_says_nothing_wrong(
        browser: Any, site: Path, size: tuple[int, int], tmp_path: Path) -> None:
    page, said = opened(browser, (site / "index.html").as_uri(), size)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.evaluate("window.innerWidth"), f"{width} px wide at {size[0]} px"
    assert page.locator(".left-out").inner_text().count("rs-damaged") >= 1
    header_shown = page.evaluate(
        "getComputedStyle(document.querySelector('table.games thead')).display")
    assert (header_shown == "none") == (size[0] < 640)  # cards on a phone, a table on a desk
    page.screenshot(path=str(tmp_path / f"index-{size[0]}.png"), full_page=True)
    assert said == []
    page.close()


def test_every_game_link_opens_its_page(browser: Any, site: Path) -> None:
    page, said = opened(browser, (site / "index.html").as_uri(), SIZES[0])
    links = page.locator("table.games a")
    count = links.count()
    assert count == len(list((site / "games").iterdir())) > 0
    for index in range(count):
        game = links.nth(index).locator("code").inner_text()
        links.nth(index).click()
        page.wait_for_load_state()
        assert page.url.endswith(f"/games/{game}.html")
        assert game in page.content()
        page.go_back()
    assert said == []
    page.close()
