"""The catalog: every table checked against the fold, incremental sync, rebuild, read back."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest

from tabletape.ledger import GameStarted, Ledger, Noted, Retracted
from tabletape.queries import catalog
from tabletape.queries.catalog import CatalogError, connect, records_from_catalog, sync
from tabletape.queries.projections import numeric_figures
from tabletape.replay.fold import fold_records
from tabletape.replay.visitor import Visit, Visitor, walk
from tests.queries.conftest import EPOCH, bot_games, record, start_game
from tests.queries.duelgame import Attacked
from tests.support.tinygame import Added, Cheered, Rolled

pytestmark = pytest.mark.smoke  # also run on the declared minimum versions (.ci/minimums)


def tiny_game(ledger: Ledger) -> str:
    """A tiny game with rolls, a cheer, a note and an undone action."""
    game = start_game(ledger, "tiny", ("ann", "bob"), seed=7, game_id="ty-known")
    record(ledger, game, [("ann", Added(n=3)), ("bob", Rolled(dice=(5,))),
                          ("ann", Cheered()), ("bob", Noted(text="nice")),
                          ("ann", Added(n=1))])
    record(ledger, game, [("table", Retracted(seq=6)), ("ann", Rolled(dice=(2,)))])
    return game


@pytest.fixture
def known(ledger: Ledger) -> Ledger:
    tiny_game(ledger)
    bot_games(ledger, "duel", 4, seed=3)
    return ledger


def table(con: duckdb.DuckDBPyConnection, name: str, where: str = "") -> list[dict[str, Any]]:
    relation = con.sql(f"SELECT * FROM {name} {where} ORDER BY ALL")
    return [dict(zip(relation.columns, row, strict=True)) for row in relation.fetchall()]


class Everything(Visitor):
    def __init__(self) -> None:
        self.visits: list[Visit] = []

    def visit_event(self, visit: Visit) -> None:
        self.visits.append(visit)


def visits(ledger: Ledger, game: str) -> list[Visit]:
    collector = Everything()
    walk(game, ledger.records(game), collector)
    return collector.visits


def test_games_and_players_rows_match_the_fold(known: Ledger) -> None:
    sync(known)
    with connect(known, sync_first=False) as con:
        for game in known.game_ids():
            folded = fold_records(game, known.records(game))
            result = folded.rules.result(folded.state)
            row = table(con, "games", f"WHERE game = '{game}'")[0]
            assert row["kind"] == folded.started.kind
            assert row["players"] == list(folded.started.players)
            assert row["finished"] == (result is not None)
            assert row["winners"] == (list(result.winners) if result else [])
            assert row["head_seq"] == row["events"] == folded.head_seq
            assert row["head_hash"] == folded.records[-1].hash
            assert row["actions"] == len(folded.steps)
            assert row["retracted"] == len(folded.retracted)
            players = table(con, "players", f"WHERE game = '{game}'")
            assert [p["name"] for p in sorted(players, key=lambda p: p["seat"])] == list(
                folded.started.players)
            assert {p["name"] for p in players if p["won"]} == set(row["winners"])


def test_tiny_game_row_counts_undo_and_time(known: Ledger) -> None:
    sync(known)
    with connect(known, sync_first=False) as con:
        row = table(con, "games", "WHERE game = 'ty-known'")[0]
    assert (row["events"], row["actions"], row["retracted"]) == (8, 4, 1)
    assert row["finished"] and row["winners"] == ["ann"]
    assert row["minutes"] == pytest.approx(7 * 30 / 60)
    assert row["started"].isoformat() == EPOCH.replace(tzinfo=None).isoformat()


def test_events_rows_are_the_log_with_turns(known: Ledger) -> None:
    sync(known)
    with connect(known, sync_first=False) as con:
        for game in known.game_ids():
            rows = table(con, "events", f"WHERE game = '{game}'")
            seen = visits(known, game)
            assert len(rows) == len(seen)
            for row, visit in zip(rows, seen, strict=True):
                record_ = visit.record
                assert (row["seq"], row["actor"], row["type"], row["prev"], row["hash"]) == (
                    record_.seq, record_.actor, record_.type, record_.prev, record_.hash)
                assert msgspec.json.decode(row["payload"]) == msgspec.json.decode(
                    record_.payload)
                assert (row["turn"], row["round"], row["phase"]) == (
                    visit.turn.turn, visit.turn.round, visit.turn.phase)
                assert row["effective"] == visit.effective
                assert row["retracted"] == (record_.seq == 6 and game == "ty-known")


def test_turns_rows(known: Ledger) -> None:
    sync(known)
    with connect(known, sync_first=False) as con:
        for game in known.game_ids():
            expected: dict[int, list[int]] = {}
            for visit in visits(known, game):
                if visit.effective:
                    expected.setdefault(visit.turn.turn, []).append(visit.record.seq)
            rows = table(con, "turns", f"WHERE game = '{game}'")
            assert {r["turn"]: [r["first_seq"], r["last_seq"], r["events"]] for r in rows} == {
                turn: [seqs[0], seqs[-1], len(seqs)] for turn, seqs in expected.items()}
    tiny = {r["turn"]: r for r in rows_of(known, "turns", "ty-known")}
    assert tiny[1]["player"] == "ann" and tiny[1]["seconds"] == 30.0
    assert (tiny[3]["first_seq"], tiny[3]["events"]) == (4, 2)  # the undone add is left out


def rows_of(ledger: Ledger, name: str, game: str) -> list[dict[str, Any]]:
    with connect(ledger, sync_first=False) as con:
        return table(con, name, f"WHERE game = '{game}'")


def test_standings_are_the_figures_at_each_turn_end(known: Ledger) -> None:
    sync(known)
    game = known.game_ids()[-1]
    rules_states: dict[int, Any] = {}
    rules = None
    for visit in visits(known, game):
        if visit.effective:
            rules_states[visit.turn.turn] = visit.after
    folded = fold_records(game, known.records(game))
    rules = folded.rules
    expected = sorted(
        (turn, figures["name"], name, value)
        for turn, state in rules_states.items()
        for figures in rules.figures(state)
        for name, value in numeric_figures(figures))
    rows = rows_of(known, "standings", game)
    assert sorted((r["turn"], r["player"], r["figure"], r["value"]) for r in rows) == expected


def test_dice_and_battles_rows(known: Ledger) -> None:
    sync(known)
    dice_rows = rows_of(known, "dice", "ty-known")
    assert [(r["seq"], r["player"], r["face"], r["role"]) for r in dice_rows] == [
        (3, "bob", 5, "roll"), (8, "ann", 2, "roll")]
    for game in known.game_ids()[1:]:
        attacks = [v for v in visits(known, game) if isinstance(v.event, Attacked)]
        dice_rows = rows_of(known, "dice", game)
        assert Counter((r["seq"], r["role"], r["face"]) for r in dice_rows) == Counter(
            [(v.record.seq, "attacker", f) for v in attacks for f in v.event.attacker]
            + [(v.record.seq, "defender", f) for v in attacks for f in v.event.defender])
        battles = {r["seq"]: r for r in rows_of(known, "battles", game)}
        assert set(battles) == {v.record.seq for v in attacks}
        for visit in attacks:
            row = battles[visit.record.seq]
            seat = (visit.turn.turn - 1) % 2
            assert row["attacker_faces"] == list(visit.event.attacker)
            assert row["modified"] == (visit.event.bonus != 0)
            assert row["attacker_losses"] == visit.before.troops[seat] - visit.after.troops[seat]
            assert row["defender_losses"] == (
                visit.before.troops[1 - seat] - visit.after.troops[1 - seat])


def count_events(ledger: Ledger) -> tuple[int, int]:
    with connect(ledger, sync_first=False) as con:
        return con.execute(
            "SELECT count(*), count(DISTINCT (game, seq)) FROM events").fetchone()  # type: ignore[return-value]


def test_incremental_sync_adds_exactly_the_new_events(ledger: Ledger) -> None:
    game = start_game(ledger, "tiny", ("ann", "bob"), seed=1, game_id="ty-grow",
                      options={"target": "100"})
    bot_games(ledger, "duel", 3)
    first = sync(ledger)
    assert (first.new, first.loaded) == (4, 4)
    before = count_events(ledger)
    again = sync(ledger)
    assert (again.loaded, again.unchanged, again.events) == (0, 4, 0)
    record(ledger, game, [("ann", Added(n=2)), ("bob", Rolled(dice=(4,))), ("ann", Added(n=1))])
    grown = sync(ledger)
    assert (grown.loaded, grown.grew, grown.events, grown.unchanged) == (1, 1, 4, 3)
    after = count_events(ledger)
    assert after == (before[0] + 3, before[0] + 3)
    assert rows_of(ledger, "games", game)[0]["head_seq"] == 4
    assert len(rows_of(ledger, "dice", game)) == 1


def test_a_rewritten_log_is_left_out_until_a_rebuild(ledger: Ledger) -> None:
    """A log that no longer holds the head the catalog loaded is a problem, not a quiet reload."""
    game = start_game(ledger, "tiny", ("ann", "bob"), seed=1, game_id="ty-rw")
    record(ledger, game, [("ann", Added(n=2)), ("bob", Added(n=3))])
    sync(ledger)
    path = ledger.path(game)
    path.unlink()
    start_game(ledger, "tiny", ("ann", "bob"), seed=2, game_id="ty-rw")
    record(ledger, game, [("ann", Added(n=1)), ("bob", Added(n=1)), ("ann", Added(n=1))])
    report = sync(ledger)
    assert (report.rewritten, report.loaded, report.games) == (1, 0, 0)
    assert "no longer begins with the 3 events" in report.problems[game]
    assert rows_of(ledger, "events", game) == []
    rebuilt = sync(ledger, rebuild=True)
    assert (rebuilt.loaded, rebuilt.problems) == (1, {})
    assert [r["seq"] for r in rows_of(ledger, "events", game)] == [1, 2, 3, 4]
    assert rows_of(ledger, "games", game)[0]["head_hash"] == ledger.head(game).hash


def test_removed_logs_leave_the_catalog(ledger: Ledger) -> None:
    games = bot_games(ledger, "duel", 2)
    sync(ledger)
    ledger.path(games[0]).unlink()
    report = sync(ledger)
    assert (report.removed, report.games) == (1, 1)
    with connect(ledger, sync_first=False) as con:
        for name in ("games", "players", "events", "turns", "dice", "battles", "standings"):
            assert con.execute(f"SELECT count(*) FROM {name} WHERE game = ?",
                               [games[0]]).fetchone() == (0,)


def dump(ledger: Ledger) -> dict[str, list[tuple[Any, ...]]]:
    with connect(ledger, sync_first=False) as con:
        names = [r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
            "AND table_name <> '_sync'").fetchall()]
        return {name: con.sql(f"SELECT {columns_of(name)} FROM {name} ORDER BY ALL").fetchall()
                for name in names}


def columns_of(table: str) -> str:
    """What ``dump`` compares: every column, but when a sync saw each head (its clock's)."""
    return "* EXCLUDE (seen_at)" if table == "heads_seen" else "*"


def test_deleting_the_catalog_rebuilds_the_same_content(known: Ledger) -> None:
    sync(known)
    before = dump(known)
    (known.root / catalog.CATALOG_FILE).unlink()
    report = sync(known)
    assert report.rebuilt and report.loaded == len(known.game_ids())
    assert dump(known) == before
    assert sum(len(rows) for rows in before.values()) > 100


def test_damaged_and_unknown_logs_are_reported_not_fatal(ledger: Ledger) -> None:
    bot_games(ledger, "duel", 2)
    torn = start_game(ledger, "tiny", ("ann",), seed=1, game_id="ty-torn")
    with open(ledger.path(torn), "ab") as handle:
        handle.write(b'{"seq":2,"at":"2026')
    ledger.create(GameStarted(kind="nope", rules_version="1", tabletape_version="test",
                              players=("ann",)), game_id="xx-odd")
    report = sync(ledger)
    assert set(report.problems) == {"ty-torn", "xx-odd"}
    assert "torn" in report.problems["ty-torn"]
    assert "nope" in report.problems["xx-odd"]
    assert report.games == 2
    again = sync(ledger)  # still named: every sync says what the catalog leaves out
    assert (again.loaded, again.problems) == (0, report.problems)


def test_records_from_catalog_replay_like_the_log(known: Ledger) -> None:
    sync(known)
    with connect(known, sync_first=False) as con:
        for game in known.game_ids():
            original = known.records(game)
            rebuilt = records_from_catalog(con, game)
            assert [(r.seq, r.at, r.actor, r.type, r.prev, r.hash) for r in rebuilt] == [
                (r.seq, r.at, r.actor, r.type, r.prev, r.hash) for r in original]
            assert fold_records(game, rebuilt).state == fold_records(game, original).state
        with pytest.raises(CatalogError, match="no events"):
            records_from_catalog(con, "nope")


def test_connect_is_read_only_with_views(known: Ledger) -> None:
    con = connect(known)
    try:
        players = len(known.game_ids()) * 2
        assert con.execute("SELECT count(*) FROM results").fetchone() == (players,)
        with pytest.raises(duckdb.Error, match="read-only"):
            con.execute("DELETE FROM all_games")
    finally:
        con.close()


def test_a_second_sync_reloads_nothing(known: Ledger) -> None:
    """A sync with nothing new folds and loads no log (speed is measured in bench/, not here)."""
    sync(known)
    again = sync(known)
    assert again.loaded == 0 and again.unchanged == len(known.game_ids()) and not again.problems


def test_recording_never_imports_duckdb() -> None:
    code = ("import sys, tabletape; tabletape.build_app(); import tabletape.replay.fold; "
            "assert 'duckdb' not in sys.modules, 'duckdb imported'")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow  # worker processes
def test_parallel_sync_loads_the_same_rows(known: Ledger) -> None:
    bot_games(known, "duel", 6, seed=8)
    sync(known, workers=1)
    serial = dump(known)
    report = sync(known, rebuild=True, workers=2)
    assert report.loaded == len(known.game_ids()) and not report.problems
    assert dump(known) == serial
