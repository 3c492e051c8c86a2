"""``export GAME --bgstats-link``: the ``https://app.bgstatsapp.com/createPlay.html`` form most
apps send (it opens BG Stats, and opens from a chat), each warning said once; the app's own
``bgstats://`` form with ``--app-link`` and in ``--json``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import process

ROOT = Path(__file__).resolve().parents[2]
HTTPS = "https://app.bgstatsapp.com/createPlay.html?data=%7B"
APP = "bgstats://app.bgstatsapp.com/createPlay.html?data=%7B"


def tabletape(ledger: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return process(*args, ledger=ledger, columns=80, timeout=120)


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("link") / "ledger"
    done = tabletape(where, "simulate", "risk-strike", "--games", "1", "--seed", "1")
    assert done.returncode == 0, done.stderr
    return where


def test_the_link_is_the_https_form_and_each_warning_is_said_once(ledger: Path) -> None:
    done = tabletape(ledger, "export", "rs-s1-1", "--bgstats-link", "--include-simulated")
    assert done.returncode == 0, done.stderr
    (link,) = done.stdout.splitlines()
    assert link.startswith(HTTPS)
    said = " ".join(done.stderr.split())
    assert said.count("has no BoardGameGeek id") == 1
    assert said.count("BG Stats link for game rs-s1-1") == 1
    assert "--app-link" in said


@pytest.mark.slow  # a real process per export
def test_the_app_scheme_stays_available(ledger: Path) -> None:
    done = tabletape(ledger, "export", "rs-s1-1", "--bgstats-link", "--app-link",
                     "--include-simulated")
    assert done.returncode == 0, done.stderr
    (link,) = done.stdout.splitlines()
    assert link.startswith(APP)
    answer = json.loads(tabletape(ledger, "export", "rs-s1-1", "--bgstats-link",
                                  "--include-simulated", "--json").stdout)
    assert answer["link"].startswith(HTTPS) and answer["app_link"].startswith(APP)
    assert answer["link"].partition("?")[2] == answer["app_link"].partition("?")[2] == \
        link.partition("?")[2]
    refused = tabletape(ledger, "export", "--parquet", "x", "--app-link")
    assert refused.returncode == 2 and "--app-link goes with --bgstats-link" in refused.stderr
