"""Headless Chromium for the browser tests, driven by Playwright (one piece for every page test).

Chromium is Debian's package (``.ci/run`` installs it when missing; ``$TABLETAPE_CHROMIUM``
names another); Playwright only drives it (``playwright install`` is never needed). Without
either, the tests that use :func:`launched_browser` are skipped with the reason printed. Those
tests are marked ``browser``: not in the default run, run by ``.ci/run`` after it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
"""As root in a sandbox with no network: no sandbox, no GPU, no background connections."""


def chromium() -> str | None:
    """The Chromium to drive, if one is installed."""
    for candidate in (os.environ.get("TABLETAPE_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def skip(reason: str) -> None:
    """Skip the test, printing why (so a CI log says it)."""
    print(f"browser tests skipped: {reason}")
    pytest.skip(reason)


def launched_browser() -> Iterator[Any]:
    """A launched headless Chromium (for a module-scoped fixture), closed afterwards."""
    executable = chromium()
    if executable is None:
        skip("no Chromium found: apt-get install chromium, or set TABLETAPE_CHROMIUM "
             "(.ci/run installs Debian's package)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip("playwright is not installed: pip install -e '.[browser]'")
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
