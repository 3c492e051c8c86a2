"""A mistyped value is input not understood (exit 2) with "did you mean" and the names allowed,
in every game and every field; a known value the rules refuse now stays illegal (exit 1). The
log is left byte for byte as it was either way (issue 15)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletape.rules.kernel import IllegalAction
from tabletape.rules.seats import AmbiguousName, UnknownName, seat_named, unknown
from tests.cli.test_recording import Cli, fails, flat, run_main

STRIKE_SETUP = (
    "deal player=olga continents=asia,asia,europe",
    "deal player=patrick continents=europe,europe,africa",
    "roll-off dice=6,2",
    "deal player=patrick continents=africa",
    "draw continents=asia tactics=1",
)


def started(cli: Cli, kind: str, *players: str) -> str:
    args = [part for name in players for part in ("--player", name)]
    created = cli.json("new", kind, *args)
    assert isinstance(created, dict)
    return str(created["game"])


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "ledger")


def test_the_shared_piece_keeps_the_class_and_suggests() -> None:
    error = unknown("'europa' is not a continent", "europa", ("asia", "europe"))
    assert isinstance(error, UnknownName) and error.exit_code == 2
    assert "(did you mean 'europe'?)" in error.message()
    assert error.suggesting(["europa"]) is error
    with pytest.raises(UnknownName) as missed:
        seat_named("patrik", ("olga", "patrick"))
    assert missed.value.exit_code == 2 and "did you mean 'patrick'?" in missed.value.message()
    with pytest.raises(AmbiguousName) as ambiguous:
        seat_named("pa", ("Patrick", "Paula"))
    assert ambiguous.value.exit_code == 2 and ambiguous.value.allowed == ("Patrick", "Paula")
    assert IllegalAction("refused").exit_code == 1


@pytest.mark.parametrize(("typed", "meant"), [
    ("deal player=patrik continents=asia,asia,europe", "did you mean 'patrick'?"),
    ("deal player=olga continents=europa,asia,europe", "did you mean 'europe'?"),
    ("deal player=olga continents=asia,asia,europe tactics=ralley", "did you mean 'rally'?"),
])
def test_risk_strike_setup_typos_are_not_understood(cli: Cli, typed: str, meant: str) -> None:
    game = started(cli, "risk-strike", "olga", "patrick")
    output = fails(cli, 2, "record", game, *typed.split(), game=game)
    assert meant in output and "Allowed:" in output and "illegal" not in output


@pytest.mark.parametrize(("typed", "meant"), [
    ("attack from=asia target=europa defender=patrick", "did you mean 'europe'?"),
    ("attack from=asia target=europe defender=patrik", "did you mean 'patrick'?"),
    ("play card=ralley", "did you mean 'rally'?"),
    ("play card=spy target=patrik", "did you mean 'patrick'?"),
    ("pass by=patrik", "did you mean 'patrick'?"),
])
def test_risk_strike_turn_typos_are_not_understood(cli: Cli, typed: str, meant: str) -> None:
    game = started(cli, "risk-strike", "olga", "patrick")
    for line in STRIKE_SETUP:
        cli.ok("record", game, *line.split())
    output = fails(cli, 2, "record", game, *typed.split(), game=game)
    assert meant in output and "illegal" not in output


def test_risk_strike_a_known_card_refused_now_is_illegal(cli: Cli) -> None:
    game = started(cli, "risk-strike", "olga", "patrick")
    for line in STRIKE_SETUP:
        cli.ok("record", game, *line.split())
    output = fails(cli, 1, "record", game, "play", "card=rally", game=game)
    assert "illegal: Rally is played in a battle" in output


def test_an_ambiguous_prefix_lists_the_candidates(cli: Cli) -> None:
    game = started(cli, "risk-strike", "Patrick", "Paula")
    output = fails(cli, 2, "record", game, "deal", "player=pa", "continents=asia,asia,europe",
                   game=game)
    assert "'pa' begins more than one player's name" in output
    assert "Allowed: Patrick, Paula." in output
    cli.ok("record", game, "deal", "player=pat", "continents=asia,asia,europe")


@pytest.mark.parametrize(("typed", "code", "meant"), [
    ("deal player=patrik cards=tractor-beam,air-leak", 2, "did you mean 'patrick'?"),
    ("deal player=olga cards=tractr-beam,air-leak", 2, "did you mean 'tractor-beam'?"),
    ("cover planets=nw-cornr,se-corner", 2, "did you mean 'nw-corner'?"),
    ("cover planets=nw-corner,ne-corner", 1, "cover a pair of opposing corner planets"),
])
def test_risk_deep_space(cli: Cli, typed: str, code: int, meant: str) -> None:
    game = started(cli, "risk-deep-space", "olga", "patrick")
    output = fails(cli, code, "record", game, *typed.split(), game=game)
    assert meant in output and ("illegal" in output) == (code == 1)


@pytest.mark.parametrize(("typed", "code", "meant"), [
    ("setup locations=avengers-mansoin", 2, "did you mean 'avengers-mansion'?"),
    # the locations named: without them the six in play are drawn per game (the seed)
    ("setup locations=shield-hq,shield-helicarrier,times-square,avengers-mansion,central-park,"
     "police-hq start=avengers-mansoin", 2, "did you mean 'avengers-mansion'?"),
    ("deal player=patrik cards=aa,m,hh", 2, "no hero called 'patrik' plays (did you mean"),
    ("deal player=olga cards=aa,m,hx", 2, "'hx' is not a Iron Man card (did you mean 'h'?)"),
    ("deal player=olga cards=aa,m,hh,h", 1, "olga draws 3 cards, not 4"),
])
def test_marvel_united(cli: Cli, typed: str, code: int, meant: str) -> None:
    game = started(cli, "marvel-united", "olga", "patrick")
    if typed.startswith("deal"):
        cli.ok("record", game, "setup", "locations=shield-hq,shield-helicarrier,times-square,"
               "avengers-mansion,central-park,police-hq", "start=central-park")
    output = fails(cli, code, "record", game, *typed.split(), game=game)
    assert meant in output and ("illegal" in output) == (code == 1)


@pytest.mark.parametrize(("typed", "code", "meant"), [
    ("place zone=blue-l", 2, "no zone called 'blue-l'"),
    ("place zone=blue-1 by=patrik", 2, "did you mean 'patrick'?"),
    ("place zone=blue-1 by=patrick", 1, "only olga may place a robot"),
])
def test_risk_transformers(cli: Cli, typed: str, code: int, meant: str) -> None:
    game = started(cli, "risk-transformers", "olga", "patrick")
    output = fails(cli, code, "record", game, *typed.split(), game=game)
    assert meant in output and ("illegal" in output) == (code == 1)


def test_the_fast_record_path_answers_alike(cli: Cli) -> None:
    game = started(cli, "risk-strike", "olga", "patrick")
    before = cli.log_bytes(game)
    typo = run_main("record", game, "deal", "player=patrik", "continents=asia,asia,europe",
                    ledger=cli.root)
    assert typo.returncode == 2 and "did you mean 'patrick'?" in flat(typo.stderr)
    assert cli.log_bytes(game) == before
