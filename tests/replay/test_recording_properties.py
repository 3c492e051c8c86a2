"""Properties of the recording path: whatever a person types, a refused action changes nothing.

Typed actions are drawn from the game's own legal-action specs (right and wrong values alike) and
from plain junk; each is recorded through :func:`tabletape.replay.recording.record_action`,
exactly as the CLI and the prompt do.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletape import ledger as ledger_pkg
from tabletape.ledger import GameStarted, Ledger
from tabletape.replay.recording import open_game, record_action
from tabletape.rules.actions import ActionSyntaxError
from tabletape.rules.kernel import ActionSpec, IllegalAction
from tabletape.rules.registry import find_game

WORDS = st.sampled_from(["asia", "europe", "troop", "rally", "olga", "patrick", "1", "2", "6",
                         "6,3,2", "5,5", "", "attacker", "defender", "x", "-1", "[/x]"])


def new_game(folder: str, kind: str = "risk-strike") -> tuple[Ledger, str]:
    rules = find_game(kind)
    players = ("Olga", "Patrick", "Carol")
    store = Ledger(folder)
    game = store.create(GameStarted(kind=rules.name, rules_version=rules.rules_version,
                                    tabletape_version=ledger_pkg.__version__, players=players,
                                    options=rules.options({}, players), seed=3))
    return store, game


def bot_moves(store: Ledger, game: str, count: int, seed: int) -> None:
    """Advance the game by ``count`` bot actions, recorded as typed text."""
    from tabletape.replay.fold import action_text

    rng = random.Random(seed)
    for _ in range(count):
        folded = open_game(store, game)
        choice = folded.rules.bot_action(folded.state, rng)
        if choice is None:
            return
        actor, event = choice
        record_action(store, game, f"{action_text(event)} by={actor}")


@st.composite
def typed_actions(draw: st.DrawFn, specs: list[ActionSpec]) -> str:
    spec = draw(st.sampled_from(specs)) if specs and draw(st.booleans()) else None
    action = spec.type if spec else draw(st.sampled_from(["attack", "roll", "play", "draw",
                                                          "deploy", "nonsense", "pass"]))
    fields = [f.name for f in spec.fields] if spec else ["from", "target", "card", "dice"]
    pairs = [f"{name}={draw(st.sampled_from(list(spec_choices(spec, name))) | WORDS)}"
             for name in draw(st.lists(st.sampled_from([*fields, "by", "zz"]), max_size=4,
                                       unique=True))]
    return " ".join([action, *pairs])


def spec_choices(spec: ActionSpec | None, name: str) -> tuple[str, ...]:
    if spec is None:
        return ("x",)
    for field in spec.fields:
        if field.name == name and field.choices:
            return field.choices
    return ("x",)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(progress=st.integers(0, 40), seed=st.integers(0, 10_000), data=st.data())
def test_a_refused_action_leaves_the_log_byte_for_byte(progress: int, seed: int,
                                                       data: st.DataObject) -> None:
    """Any typed action is either stored (and the log still verifies) or refused with no write."""
    with tempfile.TemporaryDirectory() as folder:
        store, game = new_game(folder)
        bot_moves(store, game, progress, seed)
        folded = open_game(store, game)
        specs = list(folded.rules.legal_actions(folded.state))
        text = data.draw(typed_actions(specs))
        before = Path(store.path(game)).read_bytes()
        try:
            record_action(store, game, text)
        except (IllegalAction, ActionSyntaxError):
            assert Path(store.path(game)).read_bytes() == before
        else:
            after = Path(store.path(game)).read_bytes()
            assert after.startswith(before) and after.count(b"\n") == before.count(b"\n") + 1
        assert store.verify(game).ok
