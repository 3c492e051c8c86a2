"""The fair-play commands: ``head`` (a log's or the ledger's head, as a fingerprint to note),
``sign`` (a player vouches for a game's head) and ``key`` (``key new NAME``, ``key list``).

``verify`` (in :mod:`tabletape.commands.recording`) checks what these leave: ``--head`` a noted
head, and every signature. The heads and signatures are :mod:`tabletape.ledger.heads`, the keys
:mod:`tabletape.ledger.keys`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import msgspec
import typer
from rich.markup import escape

from tabletape.cli import (
    USAGE_EXIT,
    JsonOption,
    LedgerOption,
    command_line,
    fail,
    open_ledger,
    out,
    people_errors,
    print_json,
    shown,
    warn,
)
from tabletape.exits import printable
from tabletape.ledger import TABLE, Signed
from tabletape.ledger.fingerprints import fingerprint
from tabletape.ledger.heads import current_heads, ledger_head, remember
from tabletape.ledger.identity import ledger_id, ledger_identity
from tabletape.ledger.receipts import Receipt
from tabletape.ledger.signatures import key_fingerprint, log_uid
from tabletape.ledger.store import Ledger
from tabletape.ledger.text import plural

app = typer.Typer()

KeyDirOption = Annotated[Path | None, typer.Option(
    "--key-dir", envvar="TABLETAPE_KEY_DIR", show_envvar=True,
    help="Folder of your signing keys (default: your configuration folder, never a ledger).")]


@app.command()
def head(
    game: Annotated[str | None, typer.Argument(help="Game id (or use --all).",
                                               show_default=False)] = None,
    all_games: Annotated[bool, typer.Option("--all", help="The whole ledger's head: a Merkle "
                                            "root over every game's head.")] = False,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Print a log's head as a fingerprint to note or photograph (412:7KQ2-M4XD-9PRA); `verify
    GAME --head` later proves the log still extends it (nothing cut off, nothing rewritten)."""
    if bool(game) == all_games:
        fail("name a game or pass --all (not both)", USAGE_EXIT)
    store = open_ledger(ledger)
    with people_errors():
        if game:
            game_head(store, game, as_json)
        else:
            whole_head(store, as_json)


def game_head(store: Ledger, game: str, as_json: bool) -> None:
    """``head GAME``: the verified log's head (a damaged log is refused, saying where)."""
    last = store.records(game)[-1]
    head_text = fingerprint(last.seq, last.hash)
    if as_json:
        print_json({"game": game, "seq": last.seq, "hash": last.hash, "at": last.at,
                    "fingerprint": head_text})
        return
    out.print(f"Head of [bold]{shown(game)}[/]: seq {last.seq} · [bold cyan]{head_text}[/] "
              f"(recorded {last.at[:19].replace('T', ' ')} UTC)", soft_wrap=True)
    later = command_line("tabletape", "verify", game, "--head", head_text)
    out.print(f"Note it; later [bold]{later}[/] proves the log still extends it.")


def whole_head(store: Ledger, as_json: bool) -> None:
    """``head --all``: the ledger's head over every verified game, remembered in its history."""
    store.require()
    heads, damaged = current_heads(store)
    ledger_id(store.root, make=True)  # receipts then follow the ledger when it is moved
    noted, kept = remember(store.root, ledger_head(heads, damaged))
    if as_json:
        print_json({"fingerprint": noted.fingerprint, "root": noted.root, "games": len(heads),
                    "at": noted.at, "remembered": kept,
                    "heads": {g: {"seq": s, "hash": h, "fingerprint": fingerprint(s, h)}
                              for g, (s, h) in noted.games.items()},
                    "left_out": damaged})
    else:
        left = f", {len(damaged)} left out" if damaged else ""
        out.print(f"Head of the ledger {shown(str(store.root))} ({plural(len(heads), 'game')}"
                  f"{left}): [bold cyan]{noted.fingerprint}[/]", soft_wrap=True)
        out.print(f"Note it; later [bold]tabletape verify --all --head {noted.fingerprint}[/] "
                  "names every game cut short or rewritten since.")
    if not kept:
        warn("the ledger's history of heads could not be written (a read-only ledger?): "
             "`verify --all --head` will only tell whether the ledger is unchanged, not which "
             "game changed")
    for game, why in damaged.items():
        warn(f"game {printable(game)} is left out of the ledger head (which notes it as left "
             f"out: `verify --all --head` will say nothing vouches for it): it {why}", game=game)
    for stray in strays(store):
        warn(f"{printable(stray)} in {printable(str(store.games_dir))} is left out of the "
             "ledger head: a hidden file is no game of the ledger", file=stray)
    if damaged:
        raise typer.Exit(1)


def strays(store: Ledger) -> list[str]:
    """Files of the games folder named like logs that are no game (hidden: ``.x.jsonl``)."""
    if not store.games_dir.is_dir():
        return []
    return sorted(p.name for p in store.games_dir.glob(".*.jsonl"))


@app.command()
def sign(
    game: Annotated[str, typer.Argument(help="Game id, e.g. rs-k7pq.", show_default=False)],
    key: Annotated[str, typer.Option("--key", help="Name of your key (`tabletape key list`).")],
    new_key: Annotated[bool, typer.Option(
        "--new-key", help="This name's key is new (the old one lost): register it beside the "
        "ones the ledger knows for the name.")] = False,
    key_dir: KeyDirOption = None,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Vouch for a game's head with your key: appends a signature event (the game is not
    changed); `verify` checks it and names who vouched for which point."""
    from tabletape.ledger.keys import (
        check_name,
        check_register,
        default_key_dir,
        keep_receipt,
        load_private,
        open_receipts,
        raw_public,
        refuse_inside_ledger,
        sign_head,
    )

    store = open_ledger(ledger)
    with people_errors():
        folder = key_dir or default_key_dir()
        refuse_inside_ledger(folder, store)
        key = check_name(key)
        private = load_private(folder / f"{key}.key")
        records = store.records(game)
        last, uid, public = records[-1], log_uid(records), raw_public(private)
        registering = check_register(store, key, public, new_key=new_key, records=records)
        signed = Signed(signer=key, public_key=public, seq=last.seq, hash=last.hash,
                        signature=sign_head(private, key, uid, last.seq, last.hash))
        with open_receipts(folder) as receipts:  # before the append: both stored, or neither
            (stored,) = store.append(game, [(TABLE, signed)], expected_seq=last.seq,
                                     expected_hash=last.hash)
            keep_receipt(receipts, Receipt(uid=uid, game=game, signer=key, public_key=public,
                                           seq=last.seq, hash=last.hash, at=stored.at,
                                           ledger=ledger_identity(store.root),
                                           ledger_id=ledger_id(store.root, make=True)))
    registered = registering and registered_now(store, key, public)
    vouched, head_now = fingerprint(last.seq, last.hash), fingerprint(stored.seq, stored.hash)
    if as_json:
        print_json({"game": game, "seq": stored.seq, "signer": key, "signed_seq": last.seq,
                    "fingerprint": vouched, "key": key_fingerprint(public),
                    "registered": registered, "head": head_now})
        return
    out.print(f"{escape(key)} vouched for seq {last.seq} of {shown(game)} ([bold cyan]{vouched}"
              f"[/]), signed with key {key_fingerprint(public)} (event {stored.seq}).",
              soft_wrap=True)
    if registered:
        out.print(f"The ledger now knows this key as {escape(key)}'s.")
    out.print(f"The signature event is the log's head now: note [bold cyan]{head_now}[/] "
              f"(later [bold]{command_line('tabletape', 'verify', game, '--head', head_now)}"
              "[/] proves the signature is still there).", soft_wrap=True)


def registered_now(store: Ledger, name: str, public: str) -> bool:
    """Register ``public`` as ``name``'s once the signature is stored; a registry that cannot
    be written is warned of (the signature stands: it carries its key)."""
    from tabletape.ledger.keys import register, why_unread

    try:
        register(store, name, public)
    except OSError as error:
        warn(f"the signature is stored, but the ledger's key file for {name} could not be "
             f"written ({why_unread(error)}): the next signature registers the key")
        return False
    return True


KEY_ACTIONS = ("new", "list")


@app.command()
def key(
    ctx: typer.Context,
    action: Annotated[str, typer.Argument(help="`new NAME`: make a key pair; `list`: your keys.",
                                          show_default=False)],
    name: Annotated[str | None, typer.Argument(help="The new key's name: yours (a player's "
                                               "name).", show_default=False)] = None,
    key_dir: KeyDirOption = None,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Signing keys: `key new NAME` makes an ed25519 key pair outside every ledger (the private
    key readable by you only); `key list` shows yours; `key list --ledger L` the names and keys
    that ledger knows and has signatures of (a name with more than one key is warned of)."""
    from tabletape.ledger.keys import default_key_dir

    if action not in KEY_ACTIONS or (action == "list") != (name is None):
        fail(f"say `key new NAME`, `key list` or `key list --ledger L` (not `key {action}"
             f"{' ' + name if name else ''}`)", USAGE_EXIT)
    if action == "list" and ledger is not None and said_on_command_line(ctx, "ledger"):
        ledger_key_list(open_ledger(ledger), as_json)
        return
    with people_errors():
        folder = key_dir or default_key_dir()
    if name is None:
        key_list(folder, as_json)
    else:
        key_new(folder, name, ledger, as_json)


def said_on_command_line(ctx: typer.Context, parameter: str) -> bool:
    """Whether ``parameter`` was given on the command line (not by its environment variable:
    TABLETAPE_LEDGER chooses a ledger, it does not ask `key list` for the ledger's keys)."""
    source = ctx.get_parameter_source(parameter)
    return getattr(source, "name", "") == "COMMANDLINE"


def key_new(folder: Path, name: str, ledger: Path | None, as_json: bool) -> None:
    """``key new NAME``: make the key pair in ``folder`` (never inside the ledger)."""
    from tabletape.ledger.keys import new_key, refuse_inside_ledger

    with people_errors():
        refuse_inside_ledger(folder, open_ledger(ledger))
        made = new_key(folder, name)
    if as_json:
        print_json(msgspec.to_builtins(made))
        return
    out.print(f"Made key [bold]{escape(name)}[/] ({made.fingerprint}) in {escape(made.path)}.")
    out.print(f"Sign a game's head with [bold]tabletape sign GAME --key {escape(name)}[/]. "
              "Keep the file private; losing it loses nothing recorded.")


def key_list(folder: Path, as_json: bool) -> None:
    """``key list``: the key pairs of ``folder``: name, fingerprint, file."""
    from rich import box
    from rich.table import Table

    from tabletape.ledger.keys import list_keys

    with people_errors():
        keys = list_keys(folder)
    if as_json:
        print_json(msgspec.to_builtins(keys))
        return
    if not keys:
        out.print(f"No keys in {escape(str(folder))} yet: make one with "
                  "[bold]tabletape key new NAME[/].")
        return
    table = Table(box=box.SIMPLE_HEAD, title=f"Keys in {folder}", title_justify="left")
    for column in ("name", "fingerprint", "file"):
        table.add_column(column)
    for info in keys:
        table.add_row(escape(info.name), info.fingerprint, escape(info.path))
    out.print(table)


def ledger_key_list(store: Ledger, as_json: bool) -> None:
    """``key list --ledger L``: each name and key the ledger registered or holds signatures of,
    with the events signed; a name with more than one key is warned of."""
    from rich import box
    from rich.table import Table

    from tabletape.ledger.keys import ledger_keys

    with people_errors():
        store.require()
        keys = ledger_keys(store)
    if as_json:
        print_json(msgspec.to_builtins(keys))
    elif not keys:
        out.print(f"The ledger {escape(str(store.root))} knows no keys: nobody signed yet.")
    else:
        table = Table(box=box.SIMPLE_HEAD, title=f"Keys of the ledger {store.root}",
                      title_justify="left")
        for column in ("name", "key", "registered", "signed (game:event)"):
            table.add_column(column)
        for row in keys:
            table.add_row(escape(row.name), row.fingerprint, "yes" if row.registered else "no",
                          escape(", ".join(row.signed)) or "-")
        out.print(table)
    for name in sorted({row.name for row in keys if row.keys_of_name > 1}):
        which = "; ".join(f"{row.fingerprint} ({', '.join(row.signed) or 'no signature yet'})"
                          for row in keys if row.name == name)
        warn(f"{name} has more than one key: {which}; a key is added under a known name by "
             "`sign --new-key`, which anyone can run: check with them that each is theirs")
