"""``record_cli_vs_python``: whole-process ``tabletape record`` / ``python -c "import msgspec"``.

Both run as fresh processes, alternately, so the interpreter start-up they share counts on both
sides; lower is better. The recorded actions are those of a seeded Risk Strike bot game, typed
one per process as a person would (``tabletape record GAME ACTION key=value … by=NAME``).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import Figure, seconds, side_by_side

KIND = "risk-strike"


def typed_actions(count: int, seed: int = 5) -> tuple[tuple[str, ...], list[list[str]]]:
    """The players and the first ``count`` actions of a bot game, as command-line words."""
    import shlex

    from tabletape import ledger
    from tabletape.replay.fold import action_text
    from tabletape.rules.bot_games import bot_game
    from tabletape.rules.registry import find_game

    rules = find_game(KIND)
    players = ("ann", "bob", "cat")
    started = ledger.GameStarted(kind=KIND, rules_version=rules.rules_version,
                                 tabletape_version="bench", players=players,
                                 options=rules.options({}, players), seed=seed)
    played = bot_game(rules, started, random.Random(seed))[:count]
    return players, [[*shlex.split(action_text(event)), f"by={actor}"] for actor, event in played]


def tabletape_command() -> list[str]:
    """The installed console script, else ``python -m tabletape``."""
    script = shutil.which("tabletape", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "tabletape"]


def record_figure(quick: bool) -> Figure:
    """Time ``tabletape record`` of successive legal actions against a bare msgspec import."""
    rounds = 10 if quick else 30
    players, actions = typed_actions(rounds)
    command = tabletape_command()
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "TABLETAPE_LEDGER": folder}
        run([*command, "new", KIND, *(f"--player={p}" for p in players), "--id", "rs-bench",
             "--seed", "5"], env)
        pending = iter(actions)

        def ours() -> float:
            return seconds(lambda: run([*command, "record", "rs-bench", *next(pending)], env))

        def theirs() -> float:
            return seconds(lambda: run([sys.executable, "-c", "import msgspec"], env))

        mine, other = side_by_side(ours, theirs, rounds=len(actions))
    return Figure(key="record_cli_vs_python", ours=mine * 1000, theirs=other * 1000, unit="ms",
                  target=3, higher_is_better=False,
                  note="whole process: read, fold, check, append with fsync, print")


def run(command: list[str], env: dict[str, str]) -> None:
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    print(record_figure(quick=True).as_json())
