"""Risk: Transformers in the catalog: the rows of rolls with leaders' d8s and bonuses (the
rulebook's Battle Example, Fusion Cannons), their exact odds in the ``battles`` report, the cards,
special zones and teams; states built as the rules tests build them, folded through the
projections as the catalog folds a log."""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import duckdb
import msgspec
import pytest
from msgspec.structs import replace
from typer.testing import CliRunner

import tabletape
from tabletape.ledger import Ledger, Record
from tabletape.ledger.events import Event, GameStarted, event_type
from tabletape.queries.catalog import connect
from tabletape.queries.games.risk_transformers import projections
from tabletape.queries.odds import dice_odds
from tabletape.queries.projections import BATTLES, Projection, StandingsProjection
from tabletape.queries.reports import REPORTS, run_reports
from tabletape.queries.rows import GameRows
from tabletape.queries.schema import GAMES
from tabletape.replay.fold import GameInfo, Visit, fold_records
from tabletape.replay.recording import open_game, record_action
from tabletape.rules import dice
from tabletape.rules.actions import event_from, parse_action
from tabletape.rules.dice import NO_BONUS, Bonus
from tabletape.rules.risk_transformers.battle import neighbours
from tabletape.rules.risk_transformers.state import State
from tabletape.rules.seats import seat_named
from tests.games.risk_transformers.helpers import GAME, NAMES, started
from tests.games.risk_transformers.test_battle import (
    EXAMPLE,
    OLGA,
    OLGA_ATTACKS,
    PATRICK,
    in_phase3,
    zone,
)
from tests.queries.conftest import bot_games, start_game


def visits(state: State, *lines: str) -> list[Visit]:
    """The fold's visits of typed lines from ``state`` (``by=`` names the actor, else the player
    whose turn it is), seq from 2 as after a game-started event."""
    found = []
    for seq, line in enumerate(lines, start=2):
        parsed = parse_action(line)
        event: Event = event_from(parsed, GAME.event_types())
        names = tuple(me.name for me in state.seats)
        actor = names[seat_named(parsed.by, names)] if parsed.by else state.name(state.current)
        after = GAME.step(state, actor, event)
        record = Record(seq=seq, at="", actor=actor, type=event_type(event),
                        payload=msgspec.Raw(b"{}"), prev="", hash="")
        found.append(Visit(record=record, event=event, before=state, after=after,
                           turn=GAME.turn(state), effective=True))
        state = after
    return found


def info_of(state: State) -> GameInfo:
    names = tuple(me.name for me in state.seats)
    start = GameStarted(kind=GAME.name, rules_version=GAME.rules_version,
                        tabletape_version="test", players=names, options={})
    return GameInfo(game="rt-test", rules=GAME, started=start, start_state=state, retracted={})


def fold(state: State, *lines: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every projection's rows of ``lines`` played from ``state``, by table."""
    folded = visits(state, *lines)
    info = info_of(state)
    tables: dict[str, list[tuple[Any, ...]]] = {}
    for projection in projections():
        run(projection, info, folded, folded[-1].after)
        tables.setdefault(projection.schema.table, []).extend(projection.rows)
    return tables


def run(visitor: Projection | GameRows, info: GameInfo, folded: Sequence[Visit],
        final: State) -> None:
    visitor.begin_game(info)
    for visit in folded:
        visitor.visit_event(visit)
    visitor.end_game(info, final)


def named(schema_names: Sequence[str], rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    return [dict(zip(schema_names, row, strict=True)) for row in rows]


BATTLE_EXAMPLE = ("attack from=hexima-state target=launch-pad robots=3",
                  "defend by=olga robots=1 leader=true", "roll attacker=6,4,1 defender=4,d8:3",
                  "plus-one by=olga face=3", "lose by=patrick pieces=vehicle", "continue robots=3",
                  "defend by=olga leader=true", "roll attacker=6,2,1 defender=d8:4",
                  "move-in robots=1")


def test_the_battle_example_as_battle_rows() -> None:
    """Battle Example: "Red uses OPTIMUS PRIME'S +1 defense bonus to increase his roll from 3 to
    4" (on his d8: the tie is Red's, each side loses one), then "Even with OPTIMUS PRIME'S +1
    bonus, Black has the higher roll" (6 against the d8's 4 + 1): each die's sides, what the
    +1 did and the kind of bonus (one die, the defender's)."""
    tables = fold(in_phase3(EXAMPLE, current=PATRICK), *BATTLE_EXAMPLE)
    first, second = named(BATTLES.names, tables["battles"])
    assert first == {
        "seq": 4, "turn": 1, "attacker": "Patrick", "defender": "Olga", "source": "hexima-state",
        "target": "launch-pad", "attacker_dice": 3, "defender_dice": 2, "attacker_sides": 6,
        "defender_sides": None, "attacker_faces": [6, 4, 1], "defender_faces": [4, 3],
        "attacker_die_sides": [6, 6, 6], "defender_die_sides": [6, 8],
        "attacker_modifiers": [0, 0, 0], "defender_modifiers": [0, 1], "attacker_bonus_each": 0,
        "attacker_bonus_one": 0, "defender_bonus_each": 0, "defender_bonus_one": 1,
        "modified": True, "attacker_losses": 1, "defender_losses": 1}
    assert {k: second[k] for k in ("seq", "defender_sides", "defender_faces",
                                   "defender_modifiers", "defender_bonus_one",
                                   "attacker_losses", "defender_losses")} == {
        "seq": 9, "defender_sides": 8, "defender_faces": [4], "defender_modifiers": [1],
        "defender_bonus_one": 1, "attacker_losses": 0, "defender_losses": 1}


def test_the_battle_example_as_dice_rows() -> None:
    """Each die once, at its roll: Red's d8 recorded with 8 sides, its face and its value."""
    tables = fold(in_phase3(EXAMPLE, current=PATRICK), *BATTLE_EXAMPLE)
    olga = [row[3:] for row in tables["dice"] if row[2] == "Olga"]
    assert olga == [("defender", 1, 6, 4, 4, 0), ("defender", 2, 8, 3, 4, 1),
                    ("defender", 1, 8, 4, 5, 1)]
    assert len(tables["dice"]) == 3 + 2 + 3 + 1


def test_an_unstated_plus_one_goes_where_the_rules_put_it() -> None:
    """Robot Form, "+1 to any die": left unstated, it is where the rules settle it (the 3, as in
    the example); stated on the 4 instead, the row shows it there and the pairs it gave."""
    state = in_phase3(EXAMPLE, current=PATRICK)
    lines = BATTLE_EXAMPLE[:3]
    unstated = named(BATTLES.names, fold(state, *lines)["battles"])[0]
    assert unstated["defender_modifiers"] == [0, 1] and unstated["attacker_losses"] == 1
    on_four = named(BATTLES.names, fold(state, *lines, "plus-one by=olga face=4")["battles"])[0]
    assert on_four["defender_modifiers"] == [1, 0]
    assert (on_four["attacker_losses"], on_four["defender_losses"]) == (0, 2)


def fusion_cannons() -> dict[str, list[tuple[Any, ...]]]:
    """FUSION CANNONS: "Play before you attack. Add 1 to each die for this attack." 5,5 against
    5,5 wins both pairs."""
    state = in_phase3(OLGA_ATTACKS)
    olga = replace(state.seats[OLGA], hand=("fusion-cannons",))
    state = replace(state, seats=(olga, state.seats[PATRICK]), pile=state.pile - 1)
    return fold(state, "play card=fusion-cannons",
                "attack from=hexima-state target=launch-pad robots=3",
                "defend by=patrick robots=2", "roll attacker=5,5,1 defender=5,5")


def test_fusion_cannons_are_a_bonus_on_each_die() -> None:
    (battle,) = named(BATTLES.names, fusion_cannons()["battles"])
    assert battle["attacker_modifiers"] == [1, 1, 1] and battle["defender_modifiers"] == [0, 0]
    assert (battle["attacker_bonus_each"], battle["attacker_bonus_one"]) == (1, 0)
    assert (battle["attacker_losses"], battle["defender_losses"]) == (0, 2)


def test_a_card_played_is_a_row() -> None:
    (card,) = fusion_cannons()["cards_played"]
    assert card[2:] == (1, "attack", "Olga", "fusion-cannons", "Fusion Cannons", "attack-dice+1",
                        "upgrade", None, None)


def report_of(rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    con = duckdb.connect()
    con.execute(BATTLES.ddl())
    con.execute(f"CREATE VIEW battles AS SELECT * FROM {BATTLES.stored}")
    con.executemany(f"INSERT INTO {BATTLES.stored} VALUES "
                    f"({', '.join('?' * (len(BATTLES.names) + 2))})",
                    [("rt-test", n, *row) for n, row in enumerate(rows, start=1)])
    return REPORTS["battles"].run(con).records()


def test_a_d8_with_the_defenders_plus_one_has_its_exact_odds() -> None:
    """One robot attacks OPTIMUS PRIME alone in robot form (a d8, +1 on it when defending): the
    attacker's d6 wins only when it beats the d8's face by 2: 4 + 3 + 2 + 1 = 10 of 48 rolls
    (d8 showing 1 to 4), so the attacker loses in 38 of 48."""
    state = in_phase3({"hexima-state": zone(PATRICK, robots=2),
                       "launch-pad": zone(OLGA, leader=True)}, current=PATRICK)
    tables = fold(state, "attack from=hexima-state target=launch-pad robots=1",
                  "defend by=olga leader=true", "roll attacker=3 defender=d8:1")
    rows = report_of(tables["battles"])
    assert [(r["matchup"], r["bonus"], r["attacker_losses"], r["observed"], r["exact_fraction"])
            for r in rows] == [("1v1 d6/d8", "defender +1 one die", 0, 1, "10/48"),
                               ("1v1 d6/d8", "defender +1 one die", 1, 0, "38/48")]
    assert dice_odds((6,), (8,), NO_BONUS, Bonus(one=1)) == {0: Fraction(10, 48),
                                                             1: Fraction(38, 48)}


def test_the_report_counts_each_kind_of_bonus_apart() -> None:
    """The Battle Example's rolls (the defender's +1 on one die) and a Fusion Cannons roll (+1 on
    each attacking die) land in matchups of their own, each with the odds of its bonus."""
    rows = report_of(fold(in_phase3(EXAMPLE, current=PATRICK), *BATTLE_EXAMPLE)["battles"]
                     + fusion_cannons()["battles"])
    seen = {(r["matchup"], r["bonus"]): r["battles"] for r in rows}
    assert seen == {("3v2 d6", "attacker +1 each die"): 1,
                    ("3d6 v d8+d6", "defender +1 one die"): 1,
                    ("3v1 d6/d8", "defender +1 one die"): 1}
    exact = {r["attacker_losses"]: r["exact"] for r in rows if r["matchup"] == "3v2 d6"}
    odds = dice_odds((6, 6, 6), (6, 6), Bonus(each=1))
    assert exact == {k: round(float(q), 4) for k, q in odds.items()}


def test_a_closed_factory_crushes_what_is_in_it() -> None:
    """Sliding Zones: "Open the zone to reveal a secret war factory. Place a robot from your
    scrapheap in the war factory" and "Close the zone. Any robots on it are crushed"."""
    state = in_phase3(OLGA_ATTACKS)
    sliding = state.board.sliding[0]
    mine = {place: zone(OLGA, robots=1) for place in state.board.sector_zones(
        state.board.sector_of(sliding))}
    state = in_phase3(OLGA_ATTACKS | mine)
    cards = [c for c in state.board.card_ids if state.board.card(c).change][:2]
    olga = replace(state.seats[OLGA], hand=tuple(cards))
    state = replace(state, seats=(olga, state.seats[PATRICK]), pile=state.pile - 2,
                    phase="morph")
    tables = fold(state, f"change card={cards[0]} zone={sliding} to=open",
                  f"change card={cards[1]} zone={sliding} to=closed")
    assert [row[2:] for row in tables["zone_changes"]] == [
        ("Olga", cards[0], sliding, "sliding", "closed", "open", 0, None),
        ("Olga", cards[1], sliding, "sliding", "open", "closed", 1, "Olga")]
    assert [row[8] for row in tables["cards_played"]] == ["change", "change"]


def players_rows(players: int) -> list[tuple[Any, ...]]:
    state = started(players)
    core = GameRows()
    (visit,) = visits(state, f"place zone={state.board.zones[0]}")
    run(core, info_of(state), [visit], visit.after)
    return core.players


def test_four_players_are_two_teams_and_fewer_play_alone() -> None:
    """Setup 2: "4 PLAYERS (ALLIED FORCES): play in 2 teams – AUTOBOTS vs. DECEPTICONS"; with 2
    or 3 players each plays alone (the two Decepticons of 3 players are no team): no team."""
    four = [(row[1], row[3], row[6]) for row in players_rows(4)]
    assert four == [("Olga", "autobot", "autobots"), ("Patrick", "decepticon", "decepticons"),
                    ("Paula", "autobot", "autobots"), ("Quentin", "decepticon", "decepticons")]
    three = [(row[3], row[6]) for row in players_rows(3)]
    assert three == [("autobot", None), ("decepticon", None), ("decepticon", None)]


def test_standings_after_a_capture() -> None:
    """The numbers ``standings`` keeps at the end of each turn: zones, sectors, pieces on the
    board, the piles and the cards in hand. Olga (4 robots and her leader on Hexima State, every
    other zone Patrick's: 2 robots on the Launch Pad, 3 on Kalis, 1 on each of the other 39)
    plays Fusion Cannons and takes the Launch Pad: "Move all the attacking robots into the
    captured zone"; Patrick's 2 robots go to his scrapheap (1 there before: 45 - 44)."""
    state = in_phase3(OLGA_ATTACKS, rest=PATRICK)
    olga = replace(state.seats[OLGA], hand=("fusion-cannons",))
    state = replace(state, seats=(olga, state.seats[PATRICK]), pile=state.pile - 1)
    folded = visits(state, "play card=fusion-cannons",
                    "attack from=hexima-state target=launch-pad robots=3",
                    "defend by=patrick robots=2", "roll attacker=5,5,1 defender=5,5")
    standings = StandingsProjection()
    run(standings, info_of(state), folded, folded[-1].after)
    wanted = ("zones", "sectors", "robots", "vehicles", "leader_on_board", "robot_units",
              "operational", "scrapheap", "cards")
    found = {(player, figure): value for turn, _, player, figure, value in standings.rows
             if turn == 1 and figure in wanted}
    assert {f: found[("Olga", f)] for f in wanted} == {
        "zones": 2, "sectors": 0, "robots": 4, "vehicles": 0, "leader_on_board": 1,
        "robot_units": 5, "operational": 0, "scrapheap": 41, "cards": 0}
    assert {f: found[("Patrick", f)] for f in ("zones", "robots", "scrapheap")} == {
        "zones": 40, "robots": 42, "scrapheap": 3}


# -- through the ledger, the catalog and the CLI -----------------------------------------------


def recorded_attack(ledger: Ledger) -> str:
    """A 2-player game recorded as typed: setup on the first zone allowed, Olga's Phase 1 and
    2, then OPTIMUS PRIME and a robot attack a neighbouring zone of Patrick's, the dice left to
    tabletape (seeded): "8-sided for your leader"."""
    game = start_game(ledger, "transformers", ("Olga", "Patrick"), seed=3, game_id="rt-e2e")
    folded = open_game(ledger, game)
    while folded.state.phase in ("setup", "leftover"):
        zone_choices = GAME.legal_actions(folded.state)[0].fields[0].choices
        folded, _ = record_action(ledger, game, f"place zone={zone_choices[0]}")
    state = folded.state
    home = next(p for p, z in enumerate(state.zones) if z.owner == OLGA and z.leader)
    record_action(ledger, game, f"place zone={state.places[home]} "
                                f"count={state.seats[OLGA].operational}")
    record_action(ledger, game, "end")
    folded, _ = record_action(ledger, game, "end")
    target = next(p for p in neighbours(folded.state, home)
                  if folded.state.zones[p].owner == PATRICK)
    for line in (f"attack from={state.places[home]} target={folded.state.places[target]} "
                 "robots=1 leader=true", "defend by=patrick robots=1", "roll by=olga"):
        record_action(ledger, game, line)
    return game


def test_a_recorded_battle_in_sql_and_stats(ledger: Ledger) -> None:
    """``tabletape sql`` shows the roll with the leader's d8 beside the robot's d6 and
    ``tabletape stats battles`` its matchup; the players' factions, no team with 2 players."""
    game = recorded_attack(ledger)
    app, runner = tabletape.build_app(), CliRunner()
    asked = runner.invoke(app, ["sql", "SELECT attacker_die_sides, defender_die_sides, "
                                "attacker_faces, defender_faces, attacker_losses, "
                                "defender_losses FROM battles", "--format", "json",
                                "--ledger", str(ledger.root)])
    assert asked.exit_code == 0, asked.output
    (battle,) = json.loads(asked.stdout)
    assert (battle["attacker_die_sides"], battle["defender_die_sides"]) == ([8, 6], [6])
    lost = dice.losses(dice.compare(battle["attacker_faces"], battle["defender_faces"]))
    assert (battle["attacker_losses"], battle["defender_losses"]) == lost
    stats = runner.invoke(app, ["stats", "battles", "--format", "json", "--ledger",
                                str(ledger.root)])
    assert stats.exit_code == 0, stats.output
    table = json.loads(stats.stdout)
    assert {row["matchup"] for row in table["rows"]} == {"d8+d6 v d6"}
    with connect(ledger) as con:
        players = con.execute("SELECT name, faction, team FROM players WHERE game = ?",
                              [game]).fetchall()
        turns = con.execute("SELECT DISTINCT turn FROM standings ORDER BY turn").fetchall()
    assert players == [("Olga", "autobot", None), ("Patrick", "decepticon", None)]
    assert turns == [(0,), (1,)]


def test_a_card_naming_a_zone_keeps_the_zone_as_the_board_calls_it() -> None:
    """A card played for the table (its effect ``table``) names its zone as typed; the row has
    the board's id (``The Praetorus Wharf`` typed by name), or the words as typed when the board
    has no such zone."""
    state = started(2)
    cards = [c for c in state.board.card_ids if state.board.card(c).effect == "table"][:2]
    olga = replace(state.seats[OLGA], hand=tuple(cards))
    state = replace(state, seats=(olga, *state.seats[1:]), pile=state.pile - 2, phase="morph",
                    day=1, turn=1)
    tables = fold(state, f"play card={cards[0]} zone='The Praetorus Wharf' note=moved",
                  f"play card={cards[1]} zone=nowhere")
    assert [(row[9], row[10]) for row in tables["cards_played"]] == [
        ("the-praetorus-wharf", "moved"), ("nowhere", None)]


def test_a_four_player_win_is_a_team_in_games_and_players() -> None:
    """Out of Robots!: "If you destroy all enemy armies, you win the game!" With 4 players both
    Decepticon armies (Quentin's already out): the Autobots win, ``games.team`` is ``autobots``,
    both Autobots are winners, each player's own team is in ``players.team``."""
    paula, quentin = 2, 3
    state = in_phase3(OLGA_ATTACKS | {"kalis": zone(paula, robots=3)}, players=4, rest=OLGA)
    gone = replace(state.seats[quentin], eliminated=True)
    state = replace(state, seats=(*state.seats[:quentin], gone))
    folded = visits(state, "attack from=hexima-state target=launch-pad robots=3",
                    "defend by=patrick robots=2", "roll attacker=6,6,1 defender=1,1")
    core = GameRows()
    run(core, info_of(state), folded, folded[-1].after)
    game = dict(zip(GAMES.names, core.game, strict=True))
    assert (game["finished"], game["winners"], game["team"]) == (
        True, ["Olga", "Paula"], "autobots")
    assert [(row[1], row[6], row[7]) for row in core.players] == [
        ("Olga", "autobots", True), ("Patrick", "decepticons", False),
        ("Paula", "autobots", True), ("Quentin", "decepticons", False)]


@pytest.mark.parametrize(("reading", "robots"), [("exchange", 3), ("idle", 2)])
def test_an_allspark_card_is_a_row(reading: str, robots: int) -> None:
    """Rounds 1: "Take the top card from the draw pile. Place it faceup on the discard pile ...
    The player who controls this zone immediately puts 3 robots from his scrapheap on it":
    Fusion Cannons shows Perihex, Olga's; her scrapheap holds 2 robots (45 - 43 on the board: 4
    on Hexima State, 1 on each of 39 zones) and her 10 vehicles, so 3 come, a vehicle exchanged
    ("You can exchange 3 robots for 1 vehicle, or vice versa, at any time"), or with
    ``scrap-vehicles=idle`` 2 (A10: "place what exists")."""
    state = in_phase3(OLGA_ATTACKS, rest=OLGA, **{"scrap-vehicles": reading})
    state = replace(state, phase="allspark", current=PATRICK)
    assert state.seats[OLGA].scrap_robots == 2
    tables = fold(state, "allspark card=fusion-cannons")
    zone_of = state.board.card("fusion-cannons").zone
    assert state.at(zone_of).owner == OLGA
    assert [row[2:] for row in tables["allspark"]] == [
        (1, "fusion-cannons", zone_of, "Olga", robots)]


def test_bot_games_in_the_catalog(ledger: Ledger) -> None:
    """Whole bot games of 2, 3 and 4 players: each finished with the rules' winners and team,
    each player's team as the figures give it, and every battle in the ``battles`` report (its
    only modifiers are bonuses whose odds it knows)."""
    games = [*bot_games(ledger, "transformers", 2, seed=21, players=NAMES[:2]),
             *bot_games(ledger, "transformers", 1, seed=22, players=NAMES[:3], prefix="rt3"),
             *bot_games(ledger, "transformers", 2, seed=23, players=NAMES, prefix="rt4")]
    with connect(ledger) as con:
        found = {game: (finished, winners, team) for game, finished, winners, team in
                 con.execute("SELECT game, finished, winners, team FROM games").fetchall()}
        teams = dict(con.execute("SELECT game, list(team ORDER BY seat) FROM players "
                                 "GROUP BY game").fetchall())
        (battles,) = con.execute("SELECT count(*) FROM battles").fetchone()  # type: ignore[misc]
        (table,) = run_reports(con, ["battles"])
    for game in games:
        folded = fold_records(game, ledger.records(game))
        result = folded.rules.result(folded.state)
        assert result is not None
        assert found[game] == (True, list(result.winners), result.team)
        assert teams[game] == [f["team"] for f in GAME.figures(folded.state)]
    assert teams["rt4-23-0"] == ["autobots", "decepticons", "autobots", "decepticons"]
    assert sum(r["observed"] for r in table.records()) == battles > 0
