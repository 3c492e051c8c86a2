"""The game registry: one manifest per game, found through entry points; names, aliases,
prefixes, lazy imports, and a broken third-party game that breaks nothing else."""

import io
import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tabletape import build_app
from tabletape.ledger import GameStarted, Ledger
from tabletape.replay.demo import run_demo
from tabletape.rules import registry
from tabletape.rules.kernel import UnknownGame
from tabletape.rules.manifest import PARTS, GameManifest, discovered, entry_points
from tabletape.rules.registry import find_game, find_manifest, manifests, register, registered

SHIPPED = {
    "marvel-united": ("marvel", "mu"),
    "risk-deep-space": ("deep-space", "ds"),
    "risk-strike": ("strike", "rs"),
}
"""The games tabletape ships, with their aliases (each declared by its entry point)."""

KINDS = sorted(SHIPPED)


@pytest.mark.parametrize("kind", KINDS)
def test_each_shipped_game_is_declared_once_by_its_entry_point(kind: str) -> None:
    """The manifest is the one declaration: the rules take their names from it."""
    manifest = discovered()[kind]
    rules = find_game(kind)
    assert manifest.names == (kind, *SHIPPED[kind])
    assert (rules.name, rules.title, rules.aliases, rules.short) == (
        manifest.name, manifest.title, manifest.aliases, manifest.short)
    assert set(manifest.provides()) >= set(PARTS) - {"setup_notes", "picture"}


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120)


@pytest.mark.parametrize("group", ["tabletape.games", "console_scripts", "pytest11"])
def test_the_entry_point_scan_finds_what_importlib_metadata_finds(group: str) -> None:
    """tabletape reads entry_points.txt itself (importlib.metadata costs every command ~20 ms
    of imports); it must find the same entry points."""
    expected = {(entry.name, entry.value) for entry in metadata.entry_points(group=group)}
    assert set(entry_points(group)) == expected and expected


def test_finding_a_game_imports_that_game_only() -> None:
    """Reading every manifest imports no rules; finding one game imports that game alone."""
    code = ("import json, sys; from tabletape.rules.registry import find_game, manifests; "
            "assert len(manifests()) >= 3; "
            "before = sorted(m for m in sys.modules if m.startswith('tabletape.')); "
            "find_game('strike'); "
            "print(json.dumps([before, sorted(m for m in sys.modules if m.count('.') > 2)]))")
    completed = run_python(code)
    assert completed.returncode == 0, completed.stderr
    before, after = json.loads(completed.stdout)
    assert not any(name.endswith((".game", ".state", ".moves")) for name in before)
    assert any(name.startswith("tabletape.rules.risk_strike.") for name in after)
    assert not any("marvel_united." in name or "risk_deep_space." in name for name in after)


def test_names_aliases_and_unique_prefixes_find_a_game() -> None:
    assert find_game("Risk Strike").name == "risk-strike"
    assert find_game("strike").name == "risk-strike"
    assert find_game("risk-st").name == "risk-strike"


def test_an_unknown_kind_names_the_known_ones_with_a_guess() -> None:
    with pytest.raises(UnknownGame, match=r"did you mean 'risk-strike'\?.*allowed: .*risk-strike"):
        find_game("risk-strik3")


def test_registered_lists_every_shipped_game() -> None:
    names = {rules.name for rules in registered()}
    assert set(KINDS) <= names


def test_games_json_tells_each_games_id_prefix_and_parts() -> None:
    result = CliRunner().invoke(build_app(), ["games", "--json"])
    rows = {row["kind"]: row for row in json.loads(result.stdout)}
    assert rows["risk-strike"]["id_prefix"] == "rs" and rows["risk-strike"]["aliases"] == [
        "strike", "rs"]
    assert "setup_notes" in rows["risk-deep-space"]["parts"]
    assert {"view", "projections", "demo"} <= set(rows["marvel-united"]["parts"])


def test_a_manifest_registered_in_code_is_found_and_its_rules_checked(monkeypatch) -> None:
    """register(manifest) for notebooks: found by its alias, its rules imported when asked,
    and rules of another game refused with a clear message."""
    monkeypatch.setattr(registry, "REGISTERED", dict(registry.REGISTERED))
    register(GameManifest(name="tiny-copy", title="Tiny copy", aliases=("tc",),
                          rules="tests.support.tinygame:Tiny"))
    assert "tiny-copy" in manifests() and find_manifest("tc").title == "Tiny copy"
    with pytest.raises(UnknownGame, match=r"'tiny-copy' is known but its rules cannot be "
                                          r"loaded \(TypeError: "
                                          r"'tests.support.tinygame:Tiny' is not"):
        find_game("tc")


# -- a broken third-party game -------------------------------------------------------------------


def installed_plugins(folder: Path, entries: dict[str, str], modules: dict[str, str]) -> str:
    """A folder for PYTHONPATH holding a distribution that declares ``entries`` in the
    ``tabletape.games`` group, and the modules ``modules``; returns the folder."""
    info = folder / "broken_games-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-games\nVersion: 1.0\n")
    lines = "".join(f"{name} = {value}\n" for name, value in entries.items())
    (info / "entry_points.txt").write_text(f"[tabletape.games]\n{lines}")
    for name, text in modules.items():
        (folder / f"{name}.py").write_text(text)
    return str(folder)


BROKEN_RULES = ("from tabletape.rules.manifest import GameManifest\n"
                "MANIFEST = GameManifest(name='half-game', title='Half', "
                "rules='half_game_rules:HalfGame')\n")


@pytest.mark.slow
def test_a_broken_game_plugin_is_skipped_with_one_warning_line(tmp_path: Path) -> None:
    """A game whose entry point cannot load, or names no manifest, or whose rules cannot be
    imported, is named in one warning line; every other game and the CLI still work."""
    path = installed_plugins(tmp_path, {"missing": "no_such_game_module:MANIFEST",
                                        "not-a-manifest": "os:sep",
                                        "half-game": "half_game:MANIFEST"},
                             {"half_game": BROKEN_RULES})
    env = {"PYTHONPATH": path, "TABLETAPE_LEDGER": str(tmp_path / "ledger")}
    listed = subprocess.run([sys.executable, "-m", "tabletape", "games", "--json"], text=True,
                            capture_output=True, env={**os.environ, **env}, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert set(KINDS) <= {row["kind"] for row in json.loads(listed.stdout)}
    warnings = listed.stderr.splitlines()
    assert len(warnings) == 3 and all(line.startswith("tabletape: warning: game plug-in '")
                                      for line in warnings)
    assert {"'missing' (no_such_game_module:MANIFEST)", "'not-a-manifest' (os:sep)",
            "'half-game' (half_game_rules:HalfGame)"} == {
        line.split(" plug-in ")[1].split(" skipped")[0] for line in warnings}
    started = subprocess.run([sys.executable, "-m", "tabletape", "new", "half", "-p", "a,b"],
                             text=True, capture_output=True, env={**os.environ, **env},
                             timeout=120)
    assert started.returncode == 2 and "half-game" in started.stderr
    assert "rules cannot be loaded" in started.stderr and "Traceback" not in started.stderr
    assert not (tmp_path / "ledger" / "games").exists() or not any(
        (tmp_path / "ledger" / "games").iterdir())


# -- rules versions ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_new_games_and_the_demo_record_the_current_rules_version(kind: str, tmp_path) -> None:
    """The first event names the rules version (DESIGN: every log is self-describing)."""
    rules = find_game(kind)
    store = Ledger(tmp_path / "ledger")
    game = run_demo(store, Console(file=io.StringIO()), kind)
    assert store.started(game).rules_version == rules.rules_version
    players = ",".join(("Olga", "Patrick", "Quinn")[:max(2, rules.min_players)])
    result = CliRunner().invoke(build_app(), ["new", kind, "-p", players, "--ledger",
                                              str(store.root), "--json"])
    assert result.exit_code == 0, result.output
    assert store.started(json.loads(result.stdout)["game"]).rules_version == rules.rules_version


@pytest.mark.parametrize("kind", KINDS)
def test_a_log_from_a_newer_rules_version_is_refused_with_a_clear_message(kind: str) -> None:
    """A version this tabletape does not know may mean something else: never folded by guess."""
    rules = find_game(kind)
    players = ("Olga", "Patrick")
    started = GameStarted(kind=kind, rules_version="99", tabletape_version="0",
                          players=players, options=rules.options({}, players), seed=1)
    with pytest.raises(UnknownGame, match=r"rules version '99' is not known.*upgrade"):
        rules.start(started)
