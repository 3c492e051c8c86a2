"""Issue 16, part B: inline SVG charts and board pictures.

Every picture is checked as a reader's browser would take it: well-formed XML, a title and a
description, a viewBox and no fixed pixel size, names escaped; and against its data: bars as
long as their values, lines through their points in turn order, one shape per board space, one
line per link in force, each space's count and owner initials at a state of a seeded bot game.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tabletape.replay.board_picture import (
    SpaceMark,
    auto_layout,
    board_svg,
    borrowed_layout,
    initials,
    layout,
)
from tabletape.replay.charts import bars, bars_against, line_chart, nice_ticks, series_style
from tabletape.replay.games import risk_deep_space_picture, risk_transformers_picture
from tabletape.replay.simulate import simulated_started
from tabletape.rules.board import Board, all_links, board_from_data, load_board
from tabletape.rules.kernel import BadOptions
from tabletape.rules.registry import find_game
from tabletape.rules.risk_deep_space import data as deep_space_data
from tabletape.rules.risk_transformers.board import DEFAULT_BOARD_FILE, load_cybertron
from tabletape.rules.seats import NOBODY
from tests.cli.test_recording import Cli, flat
from tests.support.bots import bot_prefix

NS = "{http://www.w3.org/2000/svg}"
HOSTILE = ('<script>alert("x")</script>', "Tom & Jerry", "O'Brien \"the\" <b>")


def parse(svg: str) -> ET.Element:
    """The picture as XML, checked for what every picture must have."""
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    assert re.fullmatch(r"0 0 [\d.]+ [\d.]+", root.get("viewBox", ""))
    assert root.get("width") is None and root.get("height") is None
    assert root.get("role") == "img"
    title, desc = root.find(f"{NS}title"), root.find(f"{NS}desc")
    assert title is not None and title.text and desc is not None and desc.text
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    assert not list(root.iter(f"{NS}script"))
    assert not re.search(r"(href|src)=", svg), "a picture refers to nothing outside itself"
    return root


def texts(element: ET.Element) -> list[str]:
    return [node.text or "" for node in element.iter(f"{NS}text")]


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [node for node in root.iter() if name in (node.get("class") or "").split()]


# -- charts ---------------------------------------------------------------------------------------


def test_bars_against_are_as_long_as_their_values_with_the_expected_marked() -> None:
    """Dice faces against fair: observed counts as bars, the fair count as a tick on each."""
    faces = [("1", 18, 20.0), ("2", 25, 20.0), ("3", 0, 20.0), ("4", 19, 20.0), ("5", 22, 20.0),
             ("6", 16, 20.0)]
    root = parse(bars_against("Dice faces against fair", faces, value_label="rolls"))
    drawn = with_class(root, "bar")
    assert [bar.get("data-label") for bar in drawn] == [label for label, _, _ in faces]
    widths = [float(bar.get("width", "nan")) for bar in drawn]
    assert widths.index(max(widths)) == 1 and widths[2] == 0
    left = float(drawn[0].get("x", "nan"))
    ticks = [float(line.get("x1", "nan")) for line in with_class(root, "expected")]
    per_unit = widths[1] / 25
    for (_, value, expected), width, tick in zip(faces, widths, ticks, strict=True):
        assert width == pytest.approx(value * per_unit, abs=0.02)
        assert tick - left == pytest.approx(expected * per_unit, abs=0.02)
    assert "25 (expected 20)" in texts(root)


def test_battle_outcomes_show_shares_against_exact_odds_as_percentages() -> None:
    outcomes = [("attacker loses 2", 0.31, 0.2926), ("each loses 1", 0.30, 0.3358),
                ("defender loses 2", 0.39, 0.3717)]
    root = parse(bars_against("Battles", outcomes, value_label="share", percent=True))
    shown = texts(root)
    assert "39% (expected 37.2%)" in shown and "attacker loses 2" in shown
    widths = [float(bar.get("width", "nan")) for bar in with_class(root, "bar")]
    assert sorted(widths) == [widths[1], widths[0], widths[2]]


@pytest.mark.parametrize("chart", [
    lambda: bars_against("Battles", [], value_label="share"),
    lambda: bars("Wins", [], value_label="games"),
    lambda: line_chart("Bases", {}, x_label="turn", y_label="bases"),
    lambda: line_chart("Bases", {"Ann": []}, x_label="turn", y_label="bases"),
])
def test_a_chart_without_data_says_so(chart: Any) -> None:
    root = parse(chart())
    assert "No data yet." in texts(root) and not with_class(root, "bar")


def test_plain_bars_hold_long_and_hostile_labels_as_text() -> None:
    rows = [(name, float(i + 1)) for i, name in enumerate(HOSTILE)]
    rows.append(("Carla Maria de los Santos y Rodríguez de la Frontera Alta", 0.5))
    svg = bars("Win rate", rows, value_label="win rate", percent=True)
    root = parse(svg)
    assert "<script" not in svg
    assert [bar.get("data-label") for bar in with_class(root, "bar")] == [n for n, _ in rows]
    assert "Tom & Jerry" in texts(root)
    assert any(text.endswith("…") for text in texts(root)), "a long label is shortened"
    assert any(rows[-1][0] in (node.text or "") for node in root.iter(f"{NS}title"))


def points_of(line: ET.Element) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in
            (pair.split(",") for pair in line.get("points", "").split())]


def test_a_line_goes_through_its_points_in_turn_order() -> None:
    """Standings over time: one line per player, drawn left to right by turn whatever the order
    given, higher values higher up."""
    ann = [(3, 4.0), (1, 2.0), (2, 5.0), (4, 1.0)]
    bob = [(1, 2.0), (2, 2.0), (3, 3.0), (4, 6.0)]
    root = parse(line_chart("Bases", {"Ann": ann, "Bob": bob}, x_label="turn", y_label="bases"))
    lines = {line.get("data-series"): points_of(line) for line in with_class(root, "series")}
    assert set(lines) == {"Ann", "Bob"}
    for name, given in (("Ann", ann), ("Bob", bob)):
        drawn = lines[name]
        data = sorted(given)
        assert [x for x, _ in drawn] == sorted(x for x, _ in drawn)
        assert len(set(x for x, _ in drawn)) == len(data)
        by_value = sorted(range(len(data)), key=lambda i: data[i][1])
        by_height = sorted(range(len(drawn)), key=lambda i: -drawn[i][1])
        assert [data[i][1] for i in by_value] == [data[i][1] for i in by_height]
    # the same turn is at the same x for every player; equal values at the same height
    assert [x for x, _ in lines["Ann"]] == [x for x, _ in lines["Bob"]]
    assert lines["Ann"][0][1] == lines["Bob"][0][1]
    assert {"Ann", "Bob"} <= {node.get("data-series") for node in with_class(root,
                                                                             "legend-entry")}


@pytest.mark.parametrize("series", [
    {"Ann": [(1, 3.0)]},
    {"Ann": [(1, 2.0), (2, 2.0)], "Bob": [(1, 2.0), (2, 2.0)]},
    {"Ann": [(0.5, -1.5), (2.5, 0.25)]},
])
def test_one_point_equal_values_and_fractions_draw_inside_the_picture(series: dict) -> None:
    root = parse(line_chart("Health", series, x_label="turn", y_label="health"))
    _, _, width, height = map(float, root.get("viewBox", "").split())
    for line in with_class(root, "series"):
        for x, y in points_of(line):
            assert 0 < x < width and 0 < y < height and math.isfinite(x + y)


def test_many_players_are_told_apart_without_colour() -> None:
    """Eight series: each pair differs in marker shape or dash, not only in colour."""
    names = [f"Player {i} with a rather long name" for i in range(8)]
    series = {name: [(t, float(i + t)) for t in range(1, 6)] for i, name in enumerate(names)}
    root = parse(line_chart("Zones", series, x_label="turn", y_label="zones"))
    assert len(with_class(root, "series")) == len(with_class(root, "legend-entry")) == 8
    shapes = [series_style(i)[1:] for i in range(8)]
    assert len(set(shapes)) == 8


def test_hostile_series_names_stay_text() -> None:
    series = {name: [(1, 1.0), (2, float(i))] for i, name in enumerate(HOSTILE)}
    svg = line_chart('<b>"Standings"</b> & more', series, x_label="turn & <x>", y_label="'y'")
    root = parse(svg)
    assert "<script" not in svg and "<b>" not in svg
    assert {line.get("data-series") for line in with_class(root, "series")} == set(HOSTILE)
    assert root.find(f"{NS}title").text == '<b>"Standings"</b> & more'  # type: ignore[union-attr]


def test_ticks_are_round_and_cover_the_values() -> None:
    for low, high in ((0, 17), (0, 0.34), (3, 3), (-2, 45), (0, 1234)):
        ticks = nice_ticks(low, high)
        assert ticks[0] <= low and ticks[-1] >= high
        steps = {round(b - a, 9) for a, b in itertools.pairwise(ticks)}
        assert len(steps) == 1
        mantissa = float(f"{steps.pop():e}".split("e")[0])
        assert mantissa in (1.0, 2.0, 5.0)


# -- board pictures -------------------------------------------------------------------------------

GAMES = {"risk-deep-space": (risk_deep_space_picture.picture, 160),
         "risk-transformers": (risk_transformers_picture.picture, 300)}


def played(kind: str, seed: int, players: int) -> tuple[Any, Any]:
    """The rules and the state after a seeded bot plays some actions (mid-game)."""
    rules = find_game(kind)
    return rules, bot_prefix(rules, simulated_started(rules, players, seed), GAMES[kind][1])


def spaces_drawn(root: ET.Element) -> dict[str, ET.Element]:
    return {node.get("data-space", ""): node for node in with_class(root, "space")}


def links_in_force(board: Board) -> set[frozenset[str]]:
    return {frozenset(pair) for pair in (*board.links, *board.hyperlinks)}


def test_deep_space_mid_game_shows_each_planets_holder_and_recruits() -> None:
    rules, state = played("risk-deep-space", 5, 3)
    root = parse(risk_deep_space_picture.picture(rules, state))
    drawn = spaces_drawn(root)
    assert list(drawn) == list(state.board.ids)
    shorts = initials([seat.name for seat in state.seats])
    assert any(holder != NOBODY for holder in state.holders), "the bot took planets"
    for index, space in enumerate(state.board.ids):
        shown = texts(drawn[space])
        holder = state.holders[index]
        if holder != NOBODY:
            name = state.seats[holder].name
            assert shorts[name] in shown and str(state.recruits[index]) in shown
            assert drawn[space].get("data-owner") == name
        else:
            assert drawn[space].get("data-owner") is None
    links = [node for node in with_class(root, "link") if "off" not in node.get("class", "")]
    assert len(links) == len(links_in_force(state.board))
    legend = {node.get("data-owner") for node in with_class(root, "legend-player")}
    assert legend == {seat.name for seat in state.seats}


def test_transformers_mid_game_shows_zones_leaders_and_links_as_the_spinning_zones_stand() -> None:
    rules, state = played("risk-transformers", 4, 3)
    root = parse(risk_transformers_picture.picture(rules, state))
    board = state.board.board
    drawn = spaces_drawn(root)
    assert list(drawn) == list(board.ids)
    shorts = initials([seat.name for seat in state.seats])
    for space in board.ids:
        zone = state.at(space)
        if zone.owner != NOBODY:
            shown = texts(drawn[space])
            assert shorts[state.seats[zone.owner].name] in shown and str(zone.pieces) in shown
    standing = board.standing(positions=state.standing, open_spaces=state.open_factories)
    solid = [node for node in with_class(root, "link") if "off" not in node.get("class", "")]
    off = with_class(root, "off")
    assert len(solid) == len(links_in_force(standing))
    every = {frozenset(pair) for pair in all_links(board)}
    assert len(solid) + len(off) == len(every)
    drawn_off = {frozenset(node.get("data-link", "").split("~")) for node in off}
    assert drawn_off == every - links_in_force(standing)
    leaders = [zone for zone in state.zones if zone.leader]
    assert sum("Optimus Prime" in t or "Megatron" in t or "Bumblebee" in t or "Barricade" in t
               for t in texts(root)) >= len(leaders) > 0


def test_a_spinning_zone_turned_opens_its_links_in_the_picture() -> None:
    """Pion Tower "neighbours Uraya only when the arrows line up": closed, its links are drawn
    dotted; turned west, the Uraya link is drawn in force."""
    board = load_cybertron(DEFAULT_BOARD_FILE).board

    def kind(positions: dict[str, str]) -> str:
        root = parse(board_svg(board, {}, title="Cybertron", positions=positions))
        link = next(node for node in with_class(root, "link")
                    if set(node.get("data-link", "").split("~")) == {"pion-tower", "uraya"})
        return link.get("class", "")

    assert kind({"pion-tower": "closed"}) == "link off"
    assert kind({"pion-tower": "west"}) == "link border"


def test_a_closed_war_factory_is_drawn_dashed_and_says_closed() -> None:
    board = load_cybertron(DEFAULT_BOARD_FILE).board
    closed = spaces_drawn(parse(board_svg(board, {}, title="c")))["decagon-factory"]
    opened = spaces_drawn(parse(board_svg(board, {}, title="c",
                                          open_spaces={"decagon-factory"})))["decagon-factory"]
    assert "closed" in " ".join(texts(closed)) and "closed" not in " ".join(texts(opened))


def test_hostile_player_and_space_names_are_escaped() -> None:
    board = board_from_data({"name": "<script>", "spaces": [
        {"id": "a", "name": '<script>alert("a")</script>'}, {"id": "b", "name": "B & 'C'"}],
        "links": [["a", "b"]]})
    marks = {"a": SpaceMark(owner=HOSTILE[0], count=2), "b": SpaceMark(owner=HOSTILE[1], count=1,
                                                                      labels=(HOSTILE[2],))}
    svg = board_svg(board, marks, title=HOSTILE[0])
    root = parse(svg)
    assert "<script" not in svg
    assert {node.get("data-owner") for node in with_class(root, "legend-player")} == \
        set(HOSTILE[:2])


def test_owners_read_by_text_not_only_colour() -> None:
    """Two players whose names start alike get distinct initials in the spaces and legend."""
    board = board_from_data({"name": "t", "spaces": [{"id": "a"}, {"id": "b"}],
                             "links": [["a", "b"]]})
    marks = {"a": SpaceMark(owner="Ann", count=3), "b": SpaceMark(owner="Alice", count=4)}
    drawn = spaces_drawn(parse(board_svg(board, marks, title="t")))
    assert texts(drawn["a"])[:2] == ["An", "3"] and texts(drawn["b"])[:2] == ["Al", "4"]


# -- layout ---------------------------------------------------------------------------------------


def test_the_shipped_deep_space_board_reads_like_the_box() -> None:
    """Corners in the corners, Home Stations on the sides, the centre in the centre (the file's
    note: four corner planets, a Home Station per side, a centre)."""
    board = load_board(deep_space_data.BOARD_FILE)
    points = layout(board)
    xs, ys = [x for x, _ in points.values()], [y for _, y in points.values()]
    box = (min(xs), min(ys), max(xs), max(ys))
    middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    corners = {points[space] for space in board.tagged("corner")}
    assert corners == {(box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])}
    assert points[board.tagged("centre")[0]] == middle
    for station in board.tag_values("home").values():
        x, y = points[station]
        assert (x in (box[0], box[2]) and y == middle[1]) or \
            (y in (box[1], box[3]) and x == middle[0])


def test_the_shipped_cybertron_board_places_every_space_apart() -> None:
    board = load_cybertron(DEFAULT_BOARD_FILE).board
    assert board.laid_out
    points = list(layout(board).values())
    assert len(set(points)) == len(board.spaces)


def without_layout(board: Board) -> Board:
    data = board.to_data()
    for space in data["spaces"]:
        space.pop("at", None)
    return board_from_data(data)


@pytest.mark.parametrize("board", [
    without_layout(load_board(deep_space_data.BOARD_FILE)),
    without_layout(load_cybertron(DEFAULT_BOARD_FILE).board),
    board_from_data({"name": "one", "spaces": [{"id": "a"}]}),
], ids=["deep-space", "cybertron", "one-space"])
def test_a_board_without_layout_is_laid_out_the_same_way_every_time(board: Board) -> None:
    assert not board.laid_out
    points = auto_layout(board)
    assert points == auto_layout(board) and list(points) == list(board.ids)
    assert len(set(points.values())) == len(board.spaces)
    assert all(math.isfinite(x) and math.isfinite(y) for x, y in points.values())
    values = list(points.values())
    nearest = min((math.dist(p, q) for i, p in enumerate(values) for q in values[i + 1:]),
                  default=1.0)
    assert nearest > 1e-3
    root = parse(board_svg(board, {}, title=board.name))
    assert len(spaces_drawn(root)) == len(board.spaces)


def test_a_stored_board_without_layout_borrows_the_shipped_one() -> None:
    """A game recorded before the shipped board carried "at" is drawn as a new game is."""
    shipped = load_board(deep_space_data.BOARD_FILE)
    old = without_layout(shipped)
    assert all("at" not in space for space in old.to_data()["spaces"]), \
        "a stored board keeps its exact form"
    assert layout(borrowed_layout(old, shipped)) == layout(shipped)
    other = board_from_data({"name": "x", "spaces": [{"id": "a"}]})
    assert borrowed_layout(other, shipped) is other


BAD_AT = [
    ([[0, 0], None], 'has no "at"'),
    ([[0, "1"], [1, 1]], "must be two numbers"),
    ([[0], [1, 1]], "must be two numbers"),
    ([[0, 1, 2], [1, 1]], "must be two numbers"),
    ([[True, 1], [1, 1]], "must be two numbers"),
    (["0,0", [1, 1]], "must be two numbers"),
    ([[0, 1e400], [1, 1]], "out of range"),
    ([[0, 10**9], [1, 1]], "at most"),
    ([[1, 1], [1.0, 1.0]], "same point"),
]


@pytest.mark.parametrize(("points", "message"), BAD_AT, ids=[m for _, m in BAD_AT])
def test_bad_layout_values_are_refused_with_a_people_message(
        tmp_path: Path, points: Sequence[Any], message: str) -> None:
    spaces = [{"id": space} | ({} if at is None else {"at": at})
              for space, at in zip(("a", "b"), points, strict=True)]
    text = json.dumps({"name": "t", "spaces": spaces, "links": [["a", "b"]]})
    file = tmp_path / "board.json"
    file.write_text(text.replace("Infinity", "1e400"), encoding="utf-8")
    with pytest.raises(BadOptions, match=re.escape(message)) as refused:
        load_board(file)
    said = str(refused.value)
    assert "\n" not in said and ("'a'" in said or "'b'" in said or str(file) in said)


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan])
def test_a_layout_value_must_be_finite(value: float) -> None:
    """A board given as data (a stored game's options) is checked as a file is."""
    with pytest.raises(BadOptions, match=r"'a': \"at\" must be two finite numbers"):
        board_from_data({"name": "t", "spaces": [{"id": "a", "at": [0, value]}]})


def test_a_bad_layout_is_refused_by_new_with_exit_2_and_no_traceback(tmp_path: Path) -> None:
    data = json.loads(deep_space_data.BOARD_FILE.read_text(encoding="utf-8"))
    data["spaces"][3]["at"] = ["left", 0]
    file = tmp_path / "ours.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    result = Cli(tmp_path / "ledger")("new", "risk-deep-space", "--player", "Ann,Bob",
                                      "--option", f"board={file}")
    assert result.exit_code == 2, result.output
    assert "'n2': \"at\" must be two numbers" in flat(result.output)
    assert not (tmp_path / "ledger").exists() or not list((tmp_path / "ledger").glob("*.jsonl"))


# -- status --picture -----------------------------------------------------------------------------


def test_status_picture_writes_the_board_of_a_simulated_game(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "ledger")
    game = cli.json("simulate", "risk-transformers", "--games", "1", "--seed", "3")["games"][0]
    target = tmp_path / "board.svg"
    said = cli.ok("status", game, "--picture", str(target))
    assert f"Wrote the board picture to {target}" in flat(said.output)
    root = parse(target.read_text(encoding="utf-8"))
    assert len(spaces_drawn(root)) == len(load_cybertron(DEFAULT_BOARD_FILE).board.spaces)
    assert cli.json("status", game, "--picture", str(target)) == {"game": game,
                                                                   "file": str(target)}
    assert sorted(path.name for path in tmp_path.iterdir()) == ["board.svg", "ledger"]
    parse(cli.ok("status", game, "--picture", "-").stdout)


def test_status_picture_refuses_a_game_without_a_board_and_an_unwritable_file(
        tmp_path: Path) -> None:
    cli = Cli(tmp_path / "ledger")
    strike = cli.json("simulate", "risk-strike", "--games", "1")["games"][0]
    refused = cli("status", strike, "--picture", str(tmp_path / "x.svg"))
    assert refused.exit_code == 2
    assert "Risk Strike has no board picture" in flat(refused.output)
    space = cli.json("simulate", "risk-deep-space", "--games", "1")["games"][0]
    missing = cli("status", space, "--picture", str(tmp_path / "no" / "x.svg"))
    assert missing.exit_code == 1 and "cannot write" in flat(missing.output)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["ledger"]


# -- the charts of a game and of a ledger ---------------------------------------------------------


def test_a_games_charts_draw_its_series(tmp_path: Path) -> None:
    """Standings by turn (a line per player, seat order), dice faces and battle outcomes, each
    bar as long as the number :func:`game_series` gives."""
    from tabletape.ledger import Ledger
    from tabletape.queries.series import changing_figures, game_series
    from tabletape.queries.series_charts import battle_charts, dice_charts, standings_charts

    cli = Cli(tmp_path)
    game = cli.json("simulate", "risk-strike", "--games", "1", "--players", "3")["games"][0]
    series = game_series(game, Ledger(tmp_path).records(game))
    lines = [parse(svg) for svg in standings_charts(series)]
    assert len(lines) == len(changing_figures(series)) > 0
    for root in lines:
        drawn = [line.get("data-series") for line in with_class(root, "series")]
        assert drawn == [player for player in series.players if player in drawn]
    assert series.dice and series.battles, "a bot game of Risk Strike rolls and battles"
    for faces, svg in zip(series.dice, dice_charts(series.dice), strict=True):
        values = [float(bar.get("data-value", "nan")) for bar in with_class(parse(svg), "bar")]
        assert values == [float(count) for count in faces.counts]
    for matchup, svg in zip(series.battles, battle_charts(series.battles), strict=True):
        root = parse(svg)
        assert len(with_class(root, "bar")) == len(matchup.outcomes)
        widths = [float(bar.get("width", "nan")) for bar in with_class(root, "bar")]
        shares = [outcome.share for outcome in matchup.outcomes]
        assert widths.index(max(widths)) == shares.index(max(shares))


def test_a_ledgers_charts_show_lengths_dice_and_battles(tmp_path: Path) -> None:
    from tabletape.ledger import Ledger
    from tabletape.queries.catalog import catalog_path, opened
    from tabletape.queries.scope import Scope
    from tabletape.queries.series import league_series
    from tabletape.queries.series_charts import league_charts
    from tabletape.queries.sync import sync

    cli = Cli(tmp_path)
    cli.json("simulate", "risk-strike", "--games", "3")
    ledger = Ledger(tmp_path)
    sync(ledger)
    with opened(catalog_path(ledger), read_only=True) as con:
        league = league_series(con, Scope(include_simulated=True))
    charts = [parse(svg) for svg in league_charts(league)]
    lengths = charts[0]
    labels = [bar.get("data-label") for bar in with_class(lengths, "bar")]
    assert labels == ["risk-strike (3 games)"]
    turns = league.lengths["risk-strike"]
    assert float(with_class(lengths, "bar")[0].get("data-value", "nan")) == \
        pytest.approx(sum(turns) / len(turns), rel=0.01)
    assert len(charts) == 1 + len(league.dice) + len(league.battles)


def test_the_same_picture_twice_on_a_page_keeps_distinct_ids() -> None:
    from tabletape.replay.svg import unique

    board = load_board(deep_space_data.BOARD_FILE)
    first, second = (unique(board_svg(board, {}, title="Deep Space"), f"step-{n}")
                     for n in (1, 2))
    ids = [node.get("id") for svg in (first, second) for node in parse(svg).iter()
           if node.get("id")]
    assert len(ids) == 4 == len(set(ids))
