"""Audit: the chain, the rules, undos, times, conservation and dice fairness."""

from __future__ import annotations

import math
import random
import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletape.ledger import Ledger
from tabletape.replay.audit import audit_game
from tabletape.replay.fairness import chi_square_sf, chi_square_uniform, regularized_gamma_q
from tests.replay.conftest import bot_log, raw_log, record_script, run, stamp, tiny_started
from tests.support.tinygame import Added, Cheered, Rolled, with_parts

# -- the chi-square survival function -------------------------------------------------------------


@given(st.floats(0.001, 200), st.integers(1, 30))
def test_even_degrees_match_the_closed_form(x: float, half_df: int) -> None:
    closed = math.exp(-x / 2) * sum((x / 2) ** k / math.factorial(k) for k in range(half_df))
    assert chi_square_sf(x, 2 * half_df) == pytest.approx(closed, rel=1e-9, abs=1e-300)


@given(st.floats(0.0001, 100))
def test_one_degree_matches_erfc(x: float) -> None:
    assert chi_square_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-9,
                                                abs=1e-300)


@pytest.mark.parametrize(("x", "df", "p"), [(11.070497693516351, 5, 0.05),
                                             (15.086272469388987, 5, 0.01),
                                             (20.515005652432873, 5, 0.001)])
def test_known_critical_values(x: float, df: int, p: float) -> None:
    assert chi_square_sf(x, df) == pytest.approx(p, rel=1e-9)


def test_q_is_one_at_zero_and_refuses_nonsense() -> None:
    assert regularized_gamma_q(2.5, 0) == 1.0
    with pytest.raises(ValueError):
        regularized_gamma_q(0, 1)


def test_a_perfectly_even_die_has_p_one() -> None:
    assert chi_square_uniform([10] * 6) == (0.0, 5, 1.0)


# -- whole games ----------------------------------------------------------------------------------


def test_a_clean_game_passes(store: Ledger, story: str) -> None:
    report = audit_game(store, story)
    assert report.ok and report.problems == []
    assert [(u.seq, u.undone_at, u.by) for u in report.retractions] == [(6, 7, "patrick")]
    assert report.dice_checked and not report.conservation_checked
    code, _ = run(store, "audit", story)
    assert code == 0


def flip_byte(store: Ledger, game: str, seq: int) -> None:
    path = store.path(game)
    lines = path.read_bytes().split(b"\n")
    line = bytearray(lines[seq - 1])
    index = line.index(b'"at":"') + 8  # a digit of the year: still decodes
    line[index] = ord("9") if line[index] != ord("9") else ord("8")
    lines[seq - 1] = bytes(line)
    path.write_bytes(b"\n".join(lines))


def test_a_flipped_byte_is_named(store: Ledger, story: str) -> None:
    flip_byte(store, story, 5)
    report = audit_game(store, story)
    assert not report.ok and report.chain_first_bad_seq == 5
    assert report.checked_events == 4
    code, output = run(store, "audit", story)
    assert code == 1 and "broken at seq 5" in output


def rule_breaking_log(store: Ledger) -> str:
    raw_log(store.path("ty-bad"), [
        (stamp(0), "table", tiny_started()),
        (stamp(1), "olga", Added(n=2)),
        (stamp(2), "patrick", Added(n=7)),  # only 1 to 3 may be added
        (stamp(3), "patrick", Added(n=1)),  # not patrick's turn
    ])
    return "ty-bad"


def test_an_event_that_breaks_a_rule_is_listed_with_the_reason(store: Ledger) -> None:
    game = rule_breaking_log(store)
    assert store.verify(game).ok
    report = audit_game(store, game)
    assert [(f.seq, f.problem) for f in report.refused] == [
        (3, "you may add 1 to 3, not 7. Allowed: 1, 2, 3."),
        (4, "it is olga's turn, not patrick's."),
    ]
    assert not report.ok


def test_time_going_backwards_is_found(store: Ledger) -> None:
    raw_log(store.path("ty-time"), [
        (stamp(0), "table", tiny_started()),
        (stamp(2), "olga", Added(n=1)),
        (stamp(1), "patrick", Added(n=1)),
        (stamp(3), "olga", Cheered()),
    ])
    report = audit_game(store, "ty-time")
    assert [f.seq for f in report.times] == [3] and not report.ok
    assert report.refused == []


def dice_log(store: Ledger, game: str, faces: list[int]) -> str:
    players = ("olga", "patrick")
    lines = [(stamp(0), "table", tiny_started(target=10_000))]
    lines += [(stamp(i + 1), players[i % 2], Rolled(dice=(face,))) for i, face in enumerate(faces)]
    raw_log(store.path(game), lines)
    return game


def test_loaded_dice_are_found(store: Ledger) -> None:
    report = audit_game(store, dice_log(store, "ty-loaded", [6] * 60))
    verdicts = {(g.player, g.verdict) for g in report.dice}
    assert verdicts == {("olga", "loaded"), ("patrick", "loaded"), ("all", "loaded")}
    assert not report.ok and any("look loaded" in p for p in report.problems)
    code, output = run(store, "audit", "ty-loaded")
    assert code == 1 and "loaded" in output


def test_fair_dice_pass(store: Ledger) -> None:
    rng = random.Random(5)
    report = audit_game(store, dice_log(store, "ty-fair", [rng.randint(1, 6) for _ in range(600)]))
    assert {g.verdict for g in report.dice} == {"fair"} and report.ok


def test_few_dice_are_a_warning_not_a_failure(store: Ledger) -> None:
    report = audit_game(store, dice_log(store, "ty-few", [6, 6, 6, 6]))
    assert {g.verdict for g in report.dice} == {"too few rolls"}
    assert all("too few" in g.warning for g in report.dice) and report.ok


def test_conservation_is_asked_after_every_event(monkeypatch, store: Ledger, story: str) -> None:
    with_parts(monkeypatch, conservation=lambda state: ["the total passed 5"]
               if state.total > 5 else [])
    report = audit_game(store, story)
    assert report.conservation_checked
    assert [(f.seq, f.problem) for f in report.conservation] == [(3, "the total passed 5")]
    assert not report.ok


def test_audit_all_as_json(store: Ledger, story: str) -> None:
    import json

    rule_breaking_log(store)
    bot_log(store, "ty-bot", 3)
    shutil.copy(store.path(story), store.path("ty-copy"))
    code, output = run(store, "audit", "--all", "--json")
    reports = {r["game"]: r for r in json.loads(output)}
    assert code == 1
    assert {g: r["ok"] for g, r in reports.items()} == {
        "ty-story": True, "ty-bad": False, "ty-bot": True, "ty-copy": True}
    assert reports["ty-bad"]["refused"][0]["seq"] == 3


def test_audit_needs_a_game(store: Ledger) -> None:
    code, output = run(store, "audit")
    assert code == 2 and "--all" in output
    code, output = run(store, "audit", "ty-nope")
    assert code == 2 and "no game 'ty-nope'" in output


def test_scripted_story_is_legal(store: Ledger) -> None:
    record_script(store, "ty-x", ["add n=1", "undo", "add n=2"])
    assert audit_game(store, "ty-x").ok
