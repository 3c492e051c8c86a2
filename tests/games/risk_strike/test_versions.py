"""Rules versions: games recorded under version 1 keep its recording protocol for Attack Phase 2.

Version 1 (every game recorded before the deployment steps) had no declines: a table typed
``attack`` then ``roll``, a later player's troops closed the earlier players' chance, and the
first roll, Artillery or Sabotage closed deployment. Version 2 records each step's answer. The
logs below are written the way version 1 wrote them; the facts asserted (who holds which cards
after the battle) are the rulebook's, and match what version 1's code folded them to.
"""

from __future__ import annotations

import random

import pytest

from tabletape import ledger as ledger_pkg
from tabletape.ledger import GameStarted, Ledger
from tabletape.replay.audit import audit_game
from tabletape.replay.fold import RefusedEvent
from tabletape.replay.recording import open_game, record_action
from tabletape.rules.bot_games import bot_game
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_strike import RULES
from tabletape.rules.risk_strike.state import CONTINENTS, TACTICS, State, invariant_errors
from tests.games.risk_strike.helpers import parse
from tests.replay.conftest import stamp

PLAYERS = ("Olga", "Patrick", "Quinn")
SETUP = (
    "deal player=Olga continents=europe,asia,asia tactics=troop,troop,sabotage by=table",
    "deal player=Patrick continents=europe,europe,africa tactics=troop,troop,canceled-orders "
    "by=table",
    "deal player=Quinn continents=asia,africa,australia tactics=troop,artillery,bombard by=table",
    "roll-off dice=6,2,1 by=table",
    "draw continents=africa,africa by=Olga",
    "attack from=europe target=europe defender=Patrick by=Olga",
)
"""Olga attacks Patrick's two Europe cards with her one; Quinn may help."""
BATTLE_SEQ = len(SETUP) + 2
"""The seq of the first entry after ``attack`` (game-started is seq 1)."""


def started(version: str) -> GameStarted:
    return GameStarted(kind=RULES.name, rules_version=version,
                       tabletape_version=ledger_pkg.__version__, players=PLAYERS,
                       options=RULES.options({}, PLAYERS), seed=1)


def stored(tmp_path, version: str, *lines: str) -> tuple[Ledger, str]:
    """A ledger holding a game of ``version`` whose log is ``SETUP`` then ``lines`` (every
    entry names its actor, as stored)."""
    store = Ledger(tmp_path / "ledger")
    game = store.create(started(version), game_id=f"rs-v{version}", at=stamp(0))
    state = RULES.start(started(version))
    drafts = [parse(state, line) for line in (*SETUP, *lines)]
    store.append(game, drafts, expected_seq=1, at=[stamp(i + 1) for i in range(len(drafts))])
    return store, game


def holdings(state: State, name: str) -> tuple[dict[str, int], dict[str, int]]:
    """A player's continent cards and named tactics cards, by name."""
    seat = next(s for s in state.seats if s.name == name)
    return ({c: n for c, n in zip(CONTINENTS, seat.continents, strict=True) if n},
            {k: n for k, n in zip(TACTICS, seat.known, strict=True) if n})


def folded(tmp_path, *lines: str) -> State:
    store, game = stored(tmp_path, "1", *lines)
    return open_game(store, game).state


def refused_at(tmp_path, *lines: str) -> int:
    """The seq at which the same log, recorded as version 2, is refused."""
    store, game = stored(tmp_path, "2", *lines)
    with pytest.raises(RefusedEvent) as refused:
        open_game(store, game)
    return refused.value.seq


def test_v1_roll_without_deploys_declines_both_steps(tmp_path) -> None:
    """Attack Phase 2: '1. You may now deploy troops ... 2. The defender deploys any number of
    troop cards'. Version 1's ``attack`` then ``roll`` meant nobody deployed: one attack die
    against two, the attacker's 6 wins, and Patrick gives Olga one of his Europe cards."""
    lines = ("roll attacker=6 defender=3,2 by=Olga", "resolve by=Olga")
    state = folded(tmp_path, *lines)
    assert holdings(state, "Olga")[0]["europe"] == 2
    assert holdings(state, "Patrick") == ({"europe": 1, "africa": 1},
                                          {"troop": 2, "canceled-orders": 1})
    assert refused_at(tmp_path / "v2", *lines) == BATTLE_SEQ


def test_v1_defender_deploying_first_closes_the_attackers_step(tmp_path) -> None:
    """Version 1: the defender's troops declined the attacker's step (Olga can no longer deploy),
    and a lost pair costs the defender his active troop before a continent card ('For each time
    you have the lower die in a contested pair, discard 1 active troop card')."""
    lines = ("deploy troops=1 by=Patrick", "roll attacker=6 defender=5,5 by=Olga",
             "resolve by=Olga")
    state = folded(tmp_path, *lines)
    assert holdings(state, "Olga") == ({"europe": 1, "africa": 2, "asia": 2},
                                       {"troop": 2, "sabotage": 1})
    assert holdings(state, "Patrick") == ({"europe": 2, "africa": 1},
                                          {"troop": 1, "canceled-orders": 1})
    assert state.discard[TACTICS.index("troop")] == 1
    store, game = stored(tmp_path / "late", "1", lines[0])
    with pytest.raises(IllegalAction, match="Olga has deployed or declined"):
        record_action(store, game, "deploy troops=1 by=Olga")
    assert refused_at(tmp_path / "v2", *lines) == BATTLE_SEQ


def test_v1_artillery_during_deployment_ends_it(tmp_path) -> None:
    """Artillery: 'Force any one player to discard up to 2 active troop cards'. Version 1 let it
    be played during deployment, which ended deployment; the attacker's step stayed open for
    more troops until then (Olga deployed twice). Both of Olga's troops go, so she rolls one die."""
    lines = ("deploy troops=1 by=Olga", "deploy troops=1 by=Olga",
             "play card=artillery target=Olga by=Quinn",
             "roll attacker=6 defender=5,5 by=Olga", "resolve by=Olga")
    state = folded(tmp_path, *lines)
    assert holdings(state, "Olga") == ({"europe": 2, "africa": 2, "asia": 2}, {"sabotage": 1})
    assert holdings(state, "Patrick")[0] == {"europe": 1, "africa": 1}
    assert holdings(state, "Quinn")[1] == {"troop": 1, "bombard": 1}
    assert state.discard[TACTICS.index("troop")] == 2
    assert refused_at(tmp_path / "v2", *lines) == BATTLE_SEQ + 1  # Olga's second entry


def test_v1_canceled_artillery_still_ended_deployment(tmp_path) -> None:
    """Version 1 ended deployment when Artillery was played, canceled or not: Patrick, who had
    not deployed, no longer may; Olga's one troop stays and adds her second die."""
    lines = ("deploy troops=1 by=Olga", "play card=artillery target=Olga by=Quinn",
             "play card=canceled-orders by=Patrick")
    store, game = stored(tmp_path, "1", *lines)
    with pytest.raises(IllegalAction, match="troops are deployed only in Attack Phase 2"):
        record_action(store, game, "deploy troops=1 by=Patrick")
    _, record = record_action(store, game, "roll attacker=6,1 defender=5,5")
    assert record.actor == "Olga"
    folded_game, _ = record_action(store, game, "resolve")
    state = folded_game.state
    assert holdings(state, "Olga") == ({"europe": 2, "africa": 2, "asia": 2},
                                       {"troop": 1, "sabotage": 1})
    assert holdings(state, "Patrick") == ({"europe": 1, "africa": 1}, {"troop": 2})
    assert refused_at(tmp_path / "v2", *lines) == BATTLE_SEQ + 1


def test_v1_helper_deploying_early_declines_attacker_and_defender(tmp_path) -> None:
    """Attack Phase 2, 3: 'other players may deploy troop cards ... to help the attacker or the
    defender'. In version 1 Quinn's early troop declined both steps; the tie goes to the
    defender, Quinn's troop fights for Patrick, and Olga surrenders her only Europe card (the
    battle ends, all active troops are discarded)."""
    lines = ("deploy troops=1 side=defender by=Quinn",
             "roll attacker=6 defender=6,5 by=Olga", "resolve by=Olga")
    state = folded(tmp_path, *lines)
    assert state.battle is None and state.lineup[CONTINENTS.index("europe")] == 1
    assert holdings(state, "Olga")[0] == {"africa": 2, "asia": 2}
    assert holdings(state, "Patrick") == ({"europe": 2, "africa": 1},
                                          {"troop": 2, "canceled-orders": 1})
    assert holdings(state, "Quinn")[1] == {"artillery": 1, "bombard": 1}
    store, game = stored(tmp_path / "late", "1", lines[0])
    with pytest.raises(IllegalAction, match="Patrick has deployed or declined"):
        record_action(store, game, "deploy troops=1 by=Patrick")
    assert refused_at(tmp_path / "v2", *lines) == BATTLE_SEQ


def test_a_v1_game_is_continued_with_its_protocol(tmp_path) -> None:
    """Recording on in a version 1 game: ``roll`` right after ``attack`` is the attacker's (the
    only one who may roll), as are helpers' troops before the defender's; the audit is clean."""
    store, game = stored(tmp_path, "1")
    legal = {spec.type: spec.actors for spec in RULES.legal_actions(open_game(store, game).state)}
    assert legal["roll"] == ("Olga",)
    assert set(legal["deploy"]) == set(PLAYERS)
    record_action(store, game, "deploy troops=1 by=Olga")
    legal = {spec.type: spec for spec in RULES.legal_actions(open_game(store, game).state)}
    assert "artillery" in legal["play"].fields[0].choices and "Quinn" in legal["play"].actors
    record_action(store, game, "deploy troops=1 by=Olga")
    _, record = record_action(store, game, "roll attacker=6,5,4 defender=3,2")
    assert record.actor == "Olga"
    state, _ = record_action(store, game, "resolve")
    assert holdings(state.state, "Olga")[0]["europe"] == 3  # both of Patrick's Europe cards
    report = audit_game(store, game)
    assert report.problems == [] and report.refused == []


def test_the_same_entries_are_refused_in_a_v2_game(tmp_path) -> None:
    """Version 2 records the steps: the roll waits for the attacker's and defender's answers."""
    store, game = stored(tmp_path, "2")
    with pytest.raises(IllegalAction, match="Olga deploys first"):
        record_action(store, game, "roll attacker=6 defender=3,2 by=Olga")
    with pytest.raises(IllegalAction, match="after troops are deployed"):
        record_action(store, game, "play card=artillery target=Olga by=Quinn")


RALLY_SETUP = (
    "deal player=Olga continents=europe,europe,asia tactics=rally,bombard,troop by=table",
    "deal player=Patrick continents=europe,africa,africa tactics=troop,troop,spy by=table",
    "roll-off dice=6,1 by=table",
    "deal player=Patrick continents=australia by=table",
    "draw continents=asia,asia by=Olga",
    "attack from=europe target=europe defender=Patrick by=Olga",
    "deploy troops=1 by=Patrick",
    "roll attacker=3,1 defender=4,4 by=Olga",
    "play card=rally by=Olga",
    "play card=bombard side=attacker die=3 by=Olga",
    "resolve by=Olga",
)
"""Olga's 3 and 1 show 5 and 3 after her Rally; version 1 named the Bombarded die by the face it
landed on (3: the die showing 5)."""


def two_player_log(tmp_path, version: str, lines: tuple[str, ...]) -> tuple[Ledger, str]:
    """A ledger holding a game of Olga and Patrick under ``version`` whose log is ``lines``."""
    store = Ledger(tmp_path / "ledger")
    players = ("Olga", "Patrick")
    first = GameStarted(kind=RULES.name, rules_version=version, tabletape_version="old",
                        players=players, options=RULES.options({}, players), seed=1)
    game = store.create(first, game_id=f"rs-two-v{version}", at=stamp(0))
    drafts = [parse(RULES.start(first), line) for line in lines]
    store.append(game, drafts, expected_seq=1, at=[stamp(i + 1) for i in range(len(drafts))])
    return store, game


def test_v1_bombard_names_the_die_as_it_landed(tmp_path) -> None:
    """Bombard: 'change any one die to a 6'; Rally: 'Add 2 to each die you rolled'. In a version 1
    log ``die=3`` after a Rally is the die that landed 3 (showing 5): it becomes a 6 (not 8), so
    6 beats 4 (Patrick's troop goes) and 3 loses to 4 (Olga surrenders a Europe card). Read as
    version 2 (the die showing 3), Olga would instead have won both pairs."""
    store, game = two_player_log(tmp_path, "1", RALLY_SETUP)
    state = open_game(store, game).state
    assert holdings(state, "Olga")[0] == {"europe": 1, "asia": 3}
    assert holdings(state, "Patrick") == ({"europe": 1, "africa": 2, "australia": 1},
                                          {"troop": 1, "spy": 1})
    assert state.lineup[CONTINENTS.index("europe")] == 1
    assert state.battle is not None and state.battle.last is not None
    last = state.battle.last
    assert sorted(face + last.attacker_bonus for face in last.attacker) == [3, 6]


EXPAND_BATTLE = (
    "deal player=Olga continents=europe,europe,asia tactics=expand,troop,troop by=table",
    "deal player=Patrick continents=europe,africa,africa tactics=troop,troop,spy by=table",
    "roll-off dice=6,1 by=table",
    "deal player=Patrick continents=australia by=table",
    "draw continents=asia,asia by=Olga",
    "attack from=europe target=europe defender=Patrick by=Olga",
    "roll attacker=6,6 defender=1 by=Olga",
    "play card=expand by=Olga",
    "resolve by=Olga",
)
"""Olga's resolve closes her Expand and a roll that takes Patrick's last Europe card."""


def test_v1_expand_draw_not_taken_when_the_table_moved_on(tmp_path) -> None:
    """Expand: 'Draw either 2 continent cards or 1 tactics card'. Version 1 ended the turn when
    the battle ended, so its log goes on with Patrick's turn: the draw was not taken, and the
    game folds on (read as version 2, Patrick's draw is refused: Olga owes her draw)."""
    lines = (*EXPAND_BATTLE, "draw continents=africa,africa by=Patrick")
    store, game = two_player_log(tmp_path, "1", lines)
    state = open_game(store, game).state
    assert state.name(state.current) == "Patrick" and state.expand_owed == 0
    assert holdings(state, "Olga") == ({"europe": 3, "asia": 3}, {"troop": 2})
    assert holdings(state, "Patrick")[0] == {"africa": 4, "australia": 1}
    declined = ("deploy troops=0 by=Olga", "deploy troops=0 by=Patrick")
    v2_lines = (*EXPAND_BATTLE[:6], *declined, *lines[6:])  # the same game, recorded in version 2
    v2_store, v2_game = two_player_log(tmp_path / "v2", "2", v2_lines)
    with pytest.raises(RefusedEvent, match="only Olga may draw") as refused:
        open_game(v2_store, v2_game)
    assert refused.value.seq == len(v2_lines) + 1


def test_v1_expand_draw_is_still_owed_when_recorded_on(tmp_path) -> None:
    """The fix applies to version 1 games recorded on: after the battle Olga may take the draw
    she owes (2 continent cards), then Patrick's turn begins."""
    store, game = two_player_log(tmp_path, "1", EXPAND_BATTLE)
    _, record = record_action(store, game, "draw continents=africa,africa")
    assert record.actor == "Olga"
    state = open_game(store, game).state
    assert holdings(state, "Olga")[0] == {"europe": 3, "africa": 2, "asia": 3}
    assert state.name(state.current) == "Patrick"


def test_v1_sabotage_during_deployment_ends_the_battle(tmp_path) -> None:
    """Sabotage: 'end the battle. Any active troop cards return to the players' hands, and the
    attacker's turn ends.' Version 1 let it be played once the defender had deployed (Quinn's
    chance ended with it): Patrick's troop goes back to his hand and Patrick's turn follows."""
    lines = ("deploy troops=1 by=Patrick", "play card=sabotage by=Olga",
             "draw continents=australia,australia by=Patrick")
    state = folded(tmp_path, *lines)
    assert state.battle is None and state.name(state.current) == "Patrick"
    assert holdings(state, "Patrick") == ({"europe": 2, "africa": 1, "australia": 2},
                                          {"troop": 2, "canceled-orders": 1})
    assert holdings(state, "Olga") == ({"europe": 1, "africa": 2, "asia": 2}, {"troop": 2})
    assert refused_at(tmp_path / "v2", *lines) == BATTLE_SEQ


@pytest.mark.parametrize("seed", range(40))
def test_bot_plays_version_1_games_to_a_legal_end(seed: int) -> None:
    """A version 1 game recorded on by the bot (``roll`` and helpers' troops before the
    defender's step included) ends with a winner, every card and coin accounted for."""
    names = ("Olga", "Patrick", "Quinn", "Rosa", "Sam")[: 2 + seed % 4]
    begun = GameStarted(kind=RULES.name, rules_version="1", tabletape_version="test",
                        players=names, options=RULES.options({}, names), seed=seed)
    state = RULES.start(begun)
    for actor, event in bot_game(RULES, begun, random.Random(seed)):
        state = RULES.apply(state, actor, event)
        assert invariant_errors(state) == [], (seed, event)
    assert state.protocol == 1 and RULES.result(state) is not None
