"""The reusable board: the file format, validation with clear messages, movement helpers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletape.rules.board import (
    Board,
    board_from_data,
    holder,
    load_board,
    require_separate,
    require_tags,
)
from tabletape.rules.kernel import BadOptions

LINE = {
    "name": "line",
    "spaces": [{"id": "a", "tags": ["home:red"]}, {"id": "b", "tags": ["centre"]},
               {"id": "c", "name": "Planet C"}, {"id": "d", "tags": ["home:blue"]}],
    "links": [["a", "b"], ["b", "c"], ["c", "d"]],
}


def test_a_board_loads_from_a_json_file(tmp_path: Path) -> None:
    file = tmp_path / "board.json"
    file.write_text(json.dumps(LINE))
    board = load_board(file)
    assert isinstance(board, Board)
    assert board.ids == ("a", "b", "c", "d")
    assert board.neighbours("c") == ("b", "d")
    assert board.linked("b", "a") and not board.linked("a", "c")
    assert board.to_data()["links"] == [["a", "b"], ["b", "c"], ["c", "d"]]
    assert board_from_data(board.to_data()) == board


def test_names_tags_and_lookups() -> None:
    board = board_from_data(LINE)
    assert board.find("Planet C") == "c" and board.find(" C ") == "c"
    assert board.find("nowhere") is None
    assert board.tagged("centre") == ("b",)
    assert board.tag_values("home") == {"red": "a", "blue": "d"}


@pytest.mark.parametrize(("change", "message"), [
    ({"links": [["a", "b"], ["b", "x"]]}, r"link b–x: unknown space 'x'"),
    ({"links": [["a", "b"], ["c", "d"]]}, r"not connected: c, d cannot be reached from a"),
    ({"spaces": [{"id": "a"}, {"id": "a"}], "links": []}, r"'a' is listed twice"),
    ({"spaces": [{"id": "Red Station"}], "links": []}, r"must be kebab-case"),
    ({"links": [["a", "a"]]}, r"joins a space to itself"),
    ({"opposites": [["a", "zz"]]}, r"opposite a–zz: unknown space 'zz'"),
    ({"colour": "red"}, r"board: Object contains unknown field `colour`"),
])
def test_bad_boards_are_refused_with_a_clear_message(change: dict, message: str) -> None:
    with pytest.raises(BadOptions, match=message):
        board_from_data({**LINE, **change})


def test_unreadable_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(BadOptions, match="cannot read board file"):
        load_board(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(BadOptions, match="is not JSON"):
        load_board(tmp_path / "bad.json")


def test_required_tags_name_what_is_missing() -> None:
    board = board_from_data(LINE)
    require_tags(board, {"home:red": 1, "centre": 1})
    with pytest.raises(BadOptions, match="needs 1 space tagged home:green, and has 0"):
        require_tags(board, {"home:green": 1})


def test_reachable_crosses_free_and_toll_spaces_without_stopping_on_them() -> None:
    board = board_from_data(LINE)
    assert board.reachable("a") == {"b": 0}
    assert board.reachable("a", toll={"b"}) == {"c": 1}
    assert board.reachable("a", pass_over={"b", "c"}) == {"d": 0}
    assert board.reachable("a", pass_over={"b"}, closed={"c"}) == {}


def test_reachable_takes_the_cheapest_way() -> None:
    ring = board_from_data({"name": "ring", "spaces": [{"id": s} for s in "abcde"],
                            "links": [["a", "b"], ["b", "c"], ["a", "d"], ["d", "e"],
                                      ["e", "c"]]})
    assert ring.reachable("a", pass_over={"d", "e"}, toll={"b"}) == {"c": 0}


def test_paths_distances_and_holders() -> None:
    board = board_from_data(LINE)
    assert board.path("a", "d") == ("a", "b", "c", "d")
    assert board.path("a", "d", avoid={"b"}) == ()
    assert board.distances("a") == {"a": 0, "b": 1, "c": 2, "d": 3}
    assert holder((0, 2, 0)) == 1 and holder((0, 0)) == -1
    with pytest.raises(ValueError, match="several players"):
        holder((1, 1))


# -- hostile files (issue 12): each refused with one message, within the stated limits -----------


def hostile_files(folder: Path) -> dict[str, Path]:
    """Files a board option might name that are no board: each must be refused, not crash."""
    import os

    files = {
        "latin-1": b'{"name": "Caf\xe9", "spaces": [{"id": "a"}]}',
        "5000 digits": b'{"name": "n", "spaces": [{"id": "a"}], "mark": ' + b"9" * 5000 + b"}",
        "nested": b"[" * 100_000 + b"]" * 100_000,
        "100000 spaces": json.dumps({"name": "huge", "spaces": [
            {"id": f"s{i}"} for i in range(100_000)]}).encode(),
        "folder": None,
    }
    paths = {}
    for name, data in files.items():
        path = folder / name.replace(" ", "-")
        if data is None:
            path.mkdir()
        else:
            path.write_bytes(data)
        paths[name] = path
    fifo = folder / "fifo"
    os.mkfifo(fifo)
    paths["fifo"] = fifo
    paths["/dev/zero"] = Path("/dev/zero")
    return paths


@pytest.mark.parametrize("name", ["latin-1", "5000 digits", "nested", "100000 spaces", "folder",
                                  "fifo", "/dev/zero"])
def test_hostile_board_files_are_refused_with_one_message(tmp_path: Path, name: str) -> None:
    path = hostile_files(tmp_path)[name]
    with pytest.raises(BadOptions) as refused:
        load_board(path)
    message = str(refused.value)
    assert str(path) in message and "\n" not in message and len(message) < 400


@pytest.mark.parametrize(("change", "message"), [
    ({"name": "Evil\x1b[2J"}, r"control character"),
    ({"note": "ring\x07"}, r"control character"),
    ({"spaces": [{"id": "a", "name": "A\x1b]0;owned\x07"}], "links": []}, r"control character"),
    ({"spaces": [{"id": "a", "tags": ["home:\x1b[31mred"]}], "links": []}, r"control character"),
    ({"spaces": [{"id": f"s{i}"} for i in range(2000)],
      "links": [[f"s{i}", f"s{i + 1}"] for i in range(1999)]}, r"at most"),
])
def test_board_text_holds_no_control_characters_and_its_size_is_limited(
        change: dict, message: str) -> None:
    with pytest.raises(BadOptions, match=message):
        board_from_data({**LINE, **change})


def test_a_space_playing_two_roles_is_named() -> None:
    """A game names the parts its spaces play; one space may play only one of them."""
    roles = {"home:": "a Home Station", "centre": "the centre"}
    require_separate(board_from_data(LINE), roles)
    both = {**LINE, "spaces": [{"id": "a", "tags": ["home:red", "centre"]}, *LINE["spaces"][1:]]}
    with pytest.raises(BadOptions, match=r"'a' is both a Home Station and the centre"):
        require_separate(board_from_data(both), roles)
    twice = {**LINE, "spaces": [{"id": "a", "tags": ["home:red", "home:blue"]},
                                *LINE["spaces"][1:]]}
    with pytest.raises(BadOptions, match=r"'a' is a Home Station twice \(home:red, home:blue\)"):
        require_separate(board_from_data(twice), roles)


# -- links that change (issue 14): hyperlinks, turning and opening spaces -------------------------

GATES = {
    **LINE,
    "spaces": [*LINE["spaces"], {"id": "t"}, {"id": "v"}],
    "hyperlinks": [["a", "d"]],
    "turning": [{"space": "t", "start": "shut",
                 "positions": {"shut": [], "left": [["t", "a"]],
                               "both": [["t", "a"], ["t", "d"]]}}],
    "opening": [{"space": "v", "links": [["v", "b"]], "closed_links": [["b", "d"]]}],
    "marks": {"a~b": "R"},
}


def test_hyperlinks_are_neighbours_of_their_own_kind() -> None:
    board = board_from_data(GATES)
    assert board.neighbours("a") == ("b", "d") and board.linked("d", "a")
    assert board.link_kind("d", "a") == "hyperlink" and board.link_kind("a", "b") == "border"
    assert board.link_kind("a", "c") == "" and board.path("a", "d") == ("a", "d")


def test_a_turning_space_opens_the_links_of_its_position() -> None:
    board = board_from_data(GATES)
    assert board.start_positions() == {"t": "shut"}
    assert board.neighbours_at("t") == ()
    assert board.neighbours_at("t", positions={"t": "left"}) == ("a",)
    assert board.neighbours_at("d", positions={"t": "both"}) == ("a", "b", "c", "t")
    standing = board.standing(positions={"t": "both"})
    assert standing.ids == board.ids and standing.path("a", "t") == ("a", "t")
    assert board.standing(positions={"t": "both"}) is standing  # one board per setting
    with pytest.raises(ValueError, match=r"unknown position of t 'up'"):
        board.standing(positions={"t": "up"})
    with pytest.raises(ValueError, match=r"unknown turning space 'a'"):
        board.standing(positions={"a": "left"})


def test_an_opening_space_is_on_the_board_only_while_open() -> None:
    board = board_from_data(GATES)
    assert not board.on_board("v") and board.on_board("v", {"v"}) and board.on_board("a")
    assert board.neighbours_at("b") == ("a", "c", "d")  # the link only while v is closed
    assert board.neighbours_at("b", open_spaces={"v"}) == ("a", "c", "v")
    assert board.neighbours_at("v") == ()
    with pytest.raises(ValueError, match=r"unknown opening space 'a'"):
        board.standing(open_spaces={"a"})


def test_marks_of_single_values_default_to_the_board_mark() -> None:
    board = board_from_data({**GATES, "mark": "I"})
    assert board.mark_of("a~b") == "R" and board.mark_of("b~c") == "I"


@pytest.mark.parametrize(("change", "message"), [
    ({"hyperlinks": [["a", "zz"]]}, r"hyperlink a–zz: unknown space 'zz'"),
    ({"turning": [{"space": "x", "positions": {"p": []}}]}, r"turning space: unknown space 'x'"),
    ({"turning": [{"space": "t", "positions": {}}]}, r"turning space 't' has no positions"),
    ({"turning": [{"space": "t", "start": "up", "positions": {"p": [["t", "a"]]}}]},
     r"'t' starts in an unknown position 'up'"),
    ({"turning": [{"space": "t", "positions": {"p": [["a", "b"]]}}]},
     r"position t:p a–b does not touch t"),
    ({"opening": [{"space": "t", "links": [["t", "a"]]}],
      "turning": [{"space": "t", "positions": {"p": [["t", "a"]]}}]}, r"'t' changes twice"),
    ({"opening": [{"space": "v", "links": [["a", "b"]]}]},
     r"opening space v a–b does not touch v"),
    ({"marks": {"a": "Q"}}, r"mark of 'a': unknown mark 'Q'"),
    ({"turning": [{"space": "t", "positions": {"p": []}}]}, r"t cannot be reached from a"),
])
def test_bad_changing_links_are_refused_with_a_clear_message(change: dict, message: str) -> None:
    with pytest.raises(BadOptions, match=message):
        board_from_data({**GATES, **change})


def test_deep_space_boards_read_and_write_back_unchanged() -> None:
    """A board without the new parts has the exact form it had in logs stored before them."""
    from tabletape.rules.risk_deep_space.data import BOARD_FILE

    board = load_board(BOARD_FILE)
    stored = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    assert board.to_data() == stored
    assert list(board.to_data()) == ["name", "spaces", "links", "opposites", "note", "mark"]
    assert board.standing() is board and board.neighbours_at("n1") == board.neighbours("n1")
    assert list(board_from_data(LINE).to_data()) == ["name", "spaces", "links", "opposites",
                                                     "note", "mark"]
