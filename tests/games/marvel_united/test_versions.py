"""Rules versions: games recorded under version 1 keep its recording protocol.

Version 1 (every game recorded before issue 11) played the shipped Masterplan faces (its
game-started has no ``masterplan-deck`` option, and a ``villain-turn`` could name only the
card), closed the overflow of every location with one ``done``, typed S.H.I.E.L.D. HQ's cost
as ``damage`` (before or after its Crisis token) and read a typed name in seat order. Version 2
records each of these as the table now types it. The logs below are written the way version 1
wrote them: the same lines fold in the version 1 code (commit a3f8a86) to the same state.
"""

from __future__ import annotations

import json
import random

import pytest
from msgspec.structs import replace
from typer.testing import CliRunner

from tabletape import ledger as ledger_pkg
from tabletape.ledger import GameStarted, Ledger
from tabletape.replay.audit import audit_game
from tabletape.replay.fold import RefusedEvent
from tabletape.replay.recording import open_game, record_action
from tabletape.rules.marvel_united import RULES
from tabletape.rules.marvel_united.state import State, kinds, seat_of
from tests.replay.conftest import stamp

from .helpers import PLAYERS, SETUP, parse, play, refused
from .test_records import at_shield_hq, third_mission_pending
from .test_windows import location_effect_at

DEALS = ("deal player=olga cards=m,mh,aa by=table", "deal player=patrick cards=m,ma,hh by=table")
FACELESS = (SETUP, *DEALS, "villain-turn card=plan-6 by=table", "draw cards=hh by=olga",
            "play card=m by=olga")
"""Version 1: the villain turn names its card; the shipped face (move 0, Thugs 1,0,1,
Civilians 0,1,0) is what the table played."""
VILLAIN_SEQ = 5
"""The seq of the villain turn (game-started is 1)."""
OVERFLOWING = "villain-turn card=plan-6 move=0 bam=false thugs=2,2,2 civilians=0,0,0 " \
              "special=false by=table"
"""Stark Labs and Central Park each have one empty slot: one Thug overflows at each."""
OVERFLOW = (SETUP, *DEALS, OVERFLOWING, "plot amount=2 by=table", "done by=table",
            "draw cards=hh by=olga", "play card=m by=olga")
"""Version 1: Red Skull's overflow (Fear +1 per token not placed) for both locations, one
``done``."""


def started(version: str, players: tuple[str, ...] = PLAYERS, **options: str) -> GameStarted:
    """A game-started event as ``version`` wrote it: version 1 stored no ``masterplan-deck``."""
    stored_options = RULES.options(options, players)
    if version == "1":
        stored_options = {k: v for k, v in stored_options.items() if k != "masterplan-deck"}
    return GameStarted(kind=RULES.name, rules_version=version,
                       tabletape_version=ledger_pkg.__version__, players=players,
                       options=stored_options, seed=1)


def stored(tmp_path, version: str, lines: tuple[str, ...]) -> tuple[Ledger, str]:
    """A ledger holding a game of ``version`` whose log is ``lines`` (each names its actor)."""
    store = Ledger(tmp_path / "ledger")
    game = store.create(started(version), game_id=f"mu-v{version}", at=stamp(0))
    state = RULES.start(started(version))
    drafts = [parse(state, line) for line in lines]
    store.append(game, drafts, expected_seq=1, at=[stamp(i + 1) for i in range(len(drafts))])
    return store, game


def refused_at(tmp_path, version: str, lines: tuple[str, ...]) -> RefusedEvent:
    store, game = stored(tmp_path, version, lines)
    with pytest.raises(RefusedEvent) as refusal:
        open_game(store, game)
    return refusal.value


def v1(state: State) -> State:
    return replace(state, protocol=1)


def test_a_new_game_stores_that_the_table_records_the_masterplan_faces(tmp_path) -> None:
    """Version 2 stores every option, so a new game says ``masterplan-deck=table`` outright (a
    version 1 log, without the key, means ``shipped``)."""
    from tabletape import build_app

    store = Ledger(tmp_path / "ledger")
    result = CliRunner().invoke(build_app(), ["new", "marvel-united", "-p", "Olga,Patrick",
                                              "--ledger", str(store.root), "--json"])
    assert result.exit_code == 0, result.output
    first = store.started(json.loads(result.stdout)["game"])
    assert first.rules_version == "3" and first.options["masterplan-deck"] == "table"


def test_a_v1_villain_turn_naming_only_its_card_plays_the_shipped_face(tmp_path) -> None:
    """Villain Turn: 'Each Masterplan card played will have different elements that must be
    executed in order'. A version 1 log has no ``masterplan-deck`` option: it played the shipped
    faces, so ``villain-turn card=plan-6`` folds as it did (Thugs 1,0,1 and a Civilian around
    Stark Labs). Version 2's default table deck asks for what the card shows."""
    store, game = stored(tmp_path, "1", FACELESS)
    state = open_game(store, game).state
    assert state.masterplan_deck == "shipped"
    assert [p.thugs for p in state.places] == [2, 3, 1, 2, 1, 1]
    assert state.turn is not None and state.turn.seat == 0
    refusal = refused_at(tmp_path / "v2", "2", FACELESS)
    assert refusal.seq == VILLAIN_SEQ and "move" in refusal.reason


def test_a_v1_overflow_is_closed_with_one_done(tmp_path) -> None:
    """Place Thugs/Civilians: 'If there are not enough empty slots available at a Location,
    check the Villain Dashboard to see what happens'. Version 1 recorded both locations'
    overflow (Fear +1 per token) together and closed it with one ``done``; version 2 opens one
    window per location, so the same log is refused at its Fear +2."""
    store, game = stored(tmp_path, "1", OVERFLOW)
    state = open_game(store, game).state
    assert state.fear == 2 and not state.pending and state.phase == "act"
    assert [p.thugs for p in state.places] == [3, 3, 1, 2, 1, 2]
    refusal = refused_at(tmp_path / "v2", "2", OVERFLOW)
    assert refusal.seq == VILLAIN_SEQ + 1 and "still allowed: Fear +1" in refusal.reason


def test_a_v1_overflow_still_owes_the_dashboards_effect(tmp_path) -> None:
    """The rules fixes hold for version 1: Red Skull's overflow is Fear +1 per token not
    placed, so closing it without the Fear, or with Fear +3, is refused, and ``audit`` names
    the event."""
    unpaid = (SETUP, *DEALS, OVERFLOWING, "done by=table")
    reason = refused_at(tmp_path, "1", unpaid).reason
    assert "the overflow at stark-labs, central-park (2 not placed" in reason
    assert "still expected Fear +2" in reason
    too_much = (SETUP, *DEALS, OVERFLOWING, "plot amount=3 by=table")
    assert "not Fear +3" in refused_at(tmp_path / "more", "1", too_much).reason
    store, game = stored(tmp_path / "audit", "1", unpaid)
    report = audit_game(store, game)
    assert [finding.seq for finding in report.refused] == [VILLAIN_SEQ + 1]


def test_a_v1_game_is_continued_with_its_protocol(tmp_path) -> None:
    """Recording on in a version 1 game: a villain turn may still name only its card, one
    ``done`` closes the overflow of both locations (each owes its Fear); the audit is clean."""
    store, game = stored(tmp_path, "1", (SETUP, *DEALS))
    record_action(store, game, OVERFLOWING.removesuffix(" by=table"))
    record_action(store, game, "plot amount=1")
    folded, _ = record_action(store, game, "plot amount=1")
    assert len(folded.state.pending) == 2  # both overflow windows, their Fear recorded
    folded, _ = record_action(store, game, "done")
    assert not folded.state.pending and folded.state.fear == 2
    record_action(store, game, "draw cards=hh by=olga")
    record_action(store, game, "play card=m")
    assert audit_game(store, game).problems == []

    faceless, game = stored(tmp_path / "faceless", "1", (SETUP, *DEALS))
    folded, record = record_action(faceless, game, "villain-turn card=plan-6")
    assert record.actor == "table" and folded.state.phase == "draw"
    assert audit_game(faceless, game).problems == []


def test_v1_shield_hq_cost_was_typed_as_damage_in_either_order() -> None:
    """S.H.I.E.L.D. HQ (C): 'discard a card to the bottom of your deck to remove a Crisis
    token'. Version 1 typed the cost as ``damage``, before or after the Crisis token; the cost
    and the token still go together. Version 2 asks for ``discard`` first."""
    state = play(v1(at_shield_hq(invulnerable=False)), ["location-effect"])
    after = play(state, ["tokens location=central-park crisis=-1 by=olga",
                         "damage hero=olga cards=aa by=olga", "done by=olga"])
    assert after.places[1].crisis == 0
    assert after.heroes[0].bottom[-1:] == (kinds("captain-america").index("aa"),)
    assert not after.pending
    assert "still expected Olga discards 1 card" in refused(
        play(state, ["tokens location=central-park crisis=-1 by=olga"]), "done by=olga")
    paid = play(state, ["damage hero=olga cards=aa by=olga"])
    assert "not Olga discards 1 card" in refused(paid, "damage hero=olga cards=ma by=olga")
    v2 = play(at_shield_hq(invulnerable=False), ["location-effect"])
    assert "discard a card first" in refused(v2, "damage hero=olga cards=aa by=olga")
    assert "discard a card first" in refused(
        v2, "tokens location=central-park crisis=-1 by=olga")


def test_v1_reads_a_name_in_seat_order() -> None:
    """Version 1 read a typed name as the first seat whose player or hero it names: with Olga
    playing Hulk and a player called Hulk, ``hulk`` meant Olga then; version 2 reads a player's
    own name first."""
    players = ("Olga", "Hulk")
    state = RULES.start(started("2", players, heroes="hulk,iron-man"))
    assert seat_of(state, "hulk") == 1
    assert seat_of(v1(state), "hulk") == 0
    assert RULES.start(started("1", players, heroes="hulk,iron-man")).protocol == 1


def test_v1_third_mission_draws_typed_by_the_table_go_in_order() -> None:
    """Completing Missions: 'all players ... draw 1 card'. Version 1 let the table type each
    draw (or leave it to tabletape), which went to the first hero still owed one (Olga, then
    Patrick); version 2 asks each hero to draw their own (``by=NAME``)."""
    state = v1(third_mission_pending())
    olga, patrick = (hero.hand_size for hero in state.heroes)
    state = play(state, ["draw cards=hh by=table"])
    assert state.heroes[0].hand_size == olga + 1 and state.heroes[1].hand_size == patrick
    state = play(state, ["draw cards=w by=table"])
    assert state.heroes[1].hand_size == patrick + 1 and not state.pending
    assert "their own" in refused(third_mission_pending(), "draw cards=hh by=table")
    pending = v1(third_mission_pending())
    table_draw = RULES.complete(pending, "table", RULES.event_types()["draw"](),
                                random.Random(1))
    RULES.check(pending, "table", table_draw)
    assert RULES.apply(pending, "table", table_draw).heroes[0].hand_size == olga + 1


def test_v1_times_square_rescue_typed_without_mission_goes_to_the_mission() -> None:
    """Rescue Civilians: 'Whenever a Civilian is rescued ..., take its token and place it on an
    empty slot of the Rescue Civilians Mission card'. Version 1 typed Times Square's rescue as
    ``tokens civilians=-1`` (its Civilian went to the pool then); the rule fix credits the
    Mission. Version 2 asks for ``mission=true``."""
    line = "tokens location=times-square civilians=-1 by=olga"
    state = v1(location_effect_at("times-square"))
    rescued = state.missions[0]
    assert play(state, [line]).missions[0] == rescued + 1
    assert "mission=true" in refused(location_effect_at("times-square"), line)
