"""Issue 18, second round: what `verify`, `head`, `status` and `audit` say of heads and
signatures (README "Fair play: heads no one can rewrite unnoticed").

"a typo is said to be one (exit 2), never taken for a rewritten log"; a log damaged before the
noted head is said to be damaged; a forged signature fails `audit` as it fails `verify`; the
head is always shown whole ("a fingerprint to note or photograph")."""

from __future__ import annotations

import json

import msgspec
import pytest

from tabletape.ledger import Ledger
from tabletape.ledger.codec import decode_line
from tabletape.ledger.fingerprints import ALPHABET, fingerprint, luhn_check, parse_fingerprint
from tests.fairplay.test_heads import forge, key_dir, lines_of, rewrite, store, tiny_game
from tests.support.cli import run, said

__all__ = ["key_dir", "store"]  # fixtures used here


def head_of(store: Ledger, game: str) -> str:
    code, output = run("head", game, "--ledger", str(store.root), "--json")
    assert code == 0, output
    return str(json.loads(output)["fingerprint"])


def verify(store: Ledger, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    return run("verify", *args, "--ledger", str(store.root), env=env)


def verify_json(store: Ledger, *args: str) -> tuple[int, list[dict]]:
    code, output = verify(store, *args, "--json")
    return code, json.loads(output)


def mistyped_seqs(noted: str) -> list[int]:
    """Other seqs (up to 999) with which ``noted``'s code still passes its check character."""
    seq, code = noted.split(":")
    chars = code.replace("-", "")
    return [other for other in range(1, 1000)
            if other != int(seq) and luhn_check(f"{other}{chars[:-1]}") == chars[-1]]


# -- 1. a mistyped seq is a typo -------------------------------------------------------------------


@pytest.mark.parametrize("where", ["past the end", "inside the log"])
def test_a_mistyped_seq_that_passes_the_check_is_said_to_be_a_typo(store: Ledger,
                                                                   where: str) -> None:
    """README: "a typo is said to be one (exit 2), never taken for a rewritten log"."""
    game = tiny_game(store, 31)
    noted = head_of(store, game)
    seqs = [s for s in mistyped_seqs(noted) if (s > 31) == (where == "past the end")]
    typed = f"{seqs[0]}:{noted.split(':')[1]}"
    code, output = verify(store, game, "--head", typed)
    assert code == 2 and f"did you mean {noted}?" in said(output), output
    assert "seq looks mistyped" in said(output) and "truncated" not in output


def test_a_seq_that_fails_the_check_says_which_parts_may_be_mistyped(store: Ledger) -> None:
    game = tiny_game(store, 31)
    noted = head_of(store, game)
    chars = noted.split(":")[1]
    wrong = next(s for s in range(32, 1000) if s not in mistyped_seqs(noted))
    code, output = verify(store, game, "--head", f"{wrong}:{chars}")
    assert code == 2 and "does not match its seq and code: one of them is mistyped" in \
        said(output), output


# -- 2. head's own words pasted ------------------------------------------------------------------


def test_heads_own_line_pasted_is_read(store: Ledger) -> None:
    game = tiny_game(store, 15)
    noted = head_of(store, game)
    code, output = verify(store, game, "--head", f"seq 15 · {noted}")
    assert code == 0, output
    code, output = verify(store, game, "--head", f"seq 14 · {noted}")
    assert code == 2 and "one of them is mistyped" in said(output), output


# -- 3. a log damaged before the noted head ------------------------------------------------------


def damage(store: Ledger, game: str, seq: int) -> None:
    """Change one byte of the event at ``seq`` (its hash no longer matches)."""
    lines = lines_of(store, game)
    lines[seq - 1] = lines[seq - 1].replace(b'"n":1', b'"n":2')
    store.path(game).write_bytes(b"".join(line + b"\n" for line in lines))


def test_a_log_damaged_before_the_noted_head_is_said_to_be_damaged(store: Ledger) -> None:
    game = tiny_game(store, 8)
    noted = head_of(store, game)
    damage(store, game, 5)
    code, results = verify_json(store, game, "--head", noted)
    check = results[0]["noted_head"]
    assert code == 1 and check["verdict"] == "damaged", check
    assert "fails verification at seq 5, before the noted head" in check["explanation"]
    code, output = verify(store, game, "--head", noted)
    assert code == 1 and "damaged" in output and "truncated" not in output, output


# -- 4. audit checks signatures and shows the fork point -------------------------------------------


def audit(store: Ledger, game: str, *extra: str) -> tuple[int, str]:
    return run("audit", game, "--ledger", str(store.root), *extra,
               env={"COLUMNS": "200", "NO_COLOR": "1"})


def test_audit_fails_a_forged_signature(store: Ledger) -> None:
    game = tiny_game(store, 5)
    run("key", "new", "olga")
    code, output = run("sign", game, "--key", "olga", "--ledger", str(store.root))
    assert code == 0, output
    code, output = audit(store, game)
    assert code == 0 and "✓ signature at seq 6: olga vouched for seq 5" in output, output
    signature = msgspec.json.decode(decode_line(lines_of(store, game)[-1]).payload)["signature"]
    forge(store, game, {"signature": ("0" if signature[0] != "0" else "1") + signature[1:]})
    code, output = audit(store, game)
    assert code == 1 and "✗ signature at seq 7" in output and "forged" in output, output
    code, output = audit(store, game, "--json")
    report = json.loads(output)
    assert code == 1 and [v["ok"] for v in report["signatures"]] == [True, False], report


def test_audit_says_what_is_wrong_with_a_fork_point(store: Ledger) -> None:
    game = tiny_game(store, 10)
    code, output = run("fork", game, "--at", "seq=6", "--ledger", str(store.root), "--json")
    fork = json.loads(output)["game"]
    rewrite(store, game, keep=10, rename=("patrick", "mallory"))
    code, output = audit(store, fork)
    assert code == 1 and "✗ fork point:" in output and "rewritten since" in said(output), output


# -- 5. the head shown whole ---------------------------------------------------------------------


@pytest.mark.parametrize("columns", ["50", "80", "120"])
def test_status_always_shows_the_whole_head(store: Ledger, columns: str) -> None:
    from tabletape.ledger import GameStarted

    names = tuple(f"{name}-with-a-rather-long-name" for name in ("olga", "patrick", "quentin",
                                                                 "rosalind", "sebastian"))
    started = GameStarted(kind="tiny", rules_version="1", tabletape_version="0", players=names,
                          options={"target": 1000}, uid="018bcfe5-6800-7000-8000-000000000002")
    game = store.create(started, game_id="ty-long")
    code, output = run("status", game, "--ledger", str(store.root),
                       env={"COLUMNS": columns, "NO_COLOR": "1"})
    assert code == 0 and head_of(store, game) in output, output


def test_verify_shows_the_whole_head_at_80_columns(store: Ledger) -> None:
    game = tiny_game(store, 13, game_id="ty-a-game-with-a-long-name")
    noted = head_of(store, game)
    damage(store, game, 13)
    code, output = verify(store, game, "--head", noted, env={"COLUMNS": "80", "NO_COLOR": "1"})
    assert code == 1 and fingerprint_of_seq(store, game, 12) in output, output
    assert "damaged" in said(output)


def fingerprint_of_seq(store: Ledger, game: str, seq: int) -> str:
    return fingerprint(seq, decode_line(lines_of(store, game)[seq - 1]).hash)


# -- 6. a game and --all ---------------------------------------------------------------------------


def test_verify_refuses_a_game_and_all_alike(store: Ledger) -> None:
    game = tiny_game(store, 3)
    code, output = verify(store, game, "--all")
    assert code == 2 and "not both" in said(output), output


# -- 7. what --json says -------------------------------------------------------------------------


def test_an_unknown_ledger_head_is_said_in_the_json(store: Ledger) -> None:
    from typer.testing import CliRunner

    from tests.support.cli import APP

    tiny_game(store, 3)
    unknown = "L9:0000-0000-000" + luhn_check("9" + "0" * 11)
    result = CliRunner().invoke(APP, ["verify", "--all", "--head", unknown, "--ledger",
                                      str(store.root), "--json"])
    code, results = result.exit_code, json.loads(result.stdout)
    assert code == 1 and results and all(not r["ok"] for r in results), results
    assert all(r["noted_head"]["verdict"] == "unknown" for r in results), results


def test_a_gone_log_is_gone_not_truncated(store: Ledger) -> None:
    games = [tiny_game(store, 4, game_id=f"ty-g{n}") for n in range(2)]
    code, output = run("head", "--all", "--ledger", str(store.root), "--json")
    noted = json.loads(output)["fingerprint"]
    store.path(games[1]).unlink()
    code, results = verify_json(store, "--all", "--head", noted)
    assert code == 1 and results[-1]["noted_head"]["verdict"] == "gone", results


def test_head_all_twice_unchanged_gives_the_same_at(store: Ledger) -> None:
    tiny_game(store, 3)
    first = json.loads(run("head", "--all", "--ledger", str(store.root), "--json")[1])
    again = json.loads(run("head", "--all", "--ledger", str(store.root), "--json")[1])
    assert first == again


# -- 8. game ids from planted files ------------------------------------------------------------


def test_planted_ids_are_escaped_and_quoted(store: Ledger) -> None:
    game = tiny_game(store, 3)
    planted = "esc\x1b[31mred"
    (store.games_dir / f"{planted}.jsonl").write_bytes(store.path(game).read_bytes())
    (store.games_dir / "x$(id).jsonl").write_bytes(store.path(game).read_bytes())
    (store.games_dir / ".hidden.jsonl").write_bytes(store.path(game).read_bytes())
    for args in (("list",), ("head", planted), ("verify", planted), ("verify", "--all")):
        code, output = run(*args, "--ledger", str(store.root))
        assert "\x1b" not in output and "\\x1b" in output, (args, output)
    code, output = run("head", "x$(id)", "--ledger", str(store.root))
    assert code == 0 and "tabletape verify 'x$(id)' --head" in output, output
    code, output = run("head", "--all", "--ledger", str(store.root))
    assert code == 0 and ".hidden.jsonl" in said(output) and "left out" in output, output


# -- 9. after sign, the head to note -------------------------------------------------------------


def test_sign_says_which_head_to_note_now(store: Ledger) -> None:
    game = tiny_game(store, 5)
    run("key", "new", "olga")
    code, output = run("sign", game, "--key", "olga", "--ledger", str(store.root))
    assert code == 0 and f"note {head_of(store, game)}" in said(output), output
    assert head_of(store, game).startswith("6:")


def test_check_characters_cover_the_seq() -> None:
    """A sanity check of the helper the typo tests lean on."""
    noted = fingerprint(31, "ab" * 32)
    for seq in mistyped_seqs(noted):
        assert parse_fingerprint(f"{seq}:{noted.split(':')[1]}").seq == seq
    assert set(noted.split(":")[1].replace("-", "")) <= set(ALPHABET)
