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
