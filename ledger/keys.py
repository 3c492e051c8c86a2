"""Players' signing keys: ed25519 key pairs kept outside every ledger, and the public keys a
ledger knows by name.

A key pair is made by ``tabletape key new NAME`` in the key folder: ``$TABLETAPE_KEY_DIR``, else
the user's configuration folder (``~/.config/tabletape/keys`` on Linux), or ``--key-dir``. The
private key is ``NAME.key`` (PKCS#8 PEM, readable by its owner only), its public half ``NAME.pub``
(64 hex digits). A key folder inside a ledger is refused: a ledger is shared and copied, a private
key must not travel with it.

Each ``sign`` also keeps a receipt beside the keys (``receipts.jsonl``: the ledger, the game's
id and uid, the head signed): ``verify`` on the signer's machine then names a log cut back before
the signature event itself, rewritten under another uid, or deleted, which the ledger alone
cannot show.

Every file of keys is read the same careful way (:func:`read_small`): only a regular file, at
most a small size, never waiting on a pipe; a bad one is named in a warning and passed over.
Files are written without following links and without replacing anything.

A ledger knows public keys by name in ``<ledger>/keys/NAME.pub`` (one key a line): the first
``sign`` with a name registers its key there; ``verify`` names a signature whose key the ledger
does not know for that name. Every signature event carries its public key, so losing a key loses
nothing recorded: its signatures still verify; a new key for the same name is registered with
``sign --new-key``.

The cryptography is the ``cryptography`` package's (ed25519, PEM): no hand-written crypto.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import BinaryIO

import msgspec

from tabletape.ledger import Ledger
from tabletape.ledger.codec import Record, decoded_from
from tabletape.ledger.errors import USAGE_EXIT
from tabletape.ledger.heads import registry
from tabletape.ledger.receipts import Receipt
from tabletape.ledger.signatures import key_fingerprint, keys_of_name, log_signers, signed_bytes
from tabletape.ledger.store import LedgerError
from tabletape.ledger.text import plural, warn

KEY_NAME = re.compile(r"^[^\W_][\w.-]{0,31}$")
"""A key's name: letters (any alphabet: a player may be Zoë or 李雷), digits, ``_ . -``, at
most 32, starting with a letter or digit."""
MAX_KEY_FILE = 4096
"""A larger file is no key of ours."""
MAX_RECEIPTS_FILE = 16 * 1024 * 1024
"""A larger receipts file is no receipts file of ours (some 50,000 receipts)."""
NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
"""Make a file that is not there yet, never through a link."""


class KeyProblem(LedgerError):
    """A key that cannot be made, found or read (exit 2: the command line names it)."""

    exit_code = USAGE_EXIT


class KeyWriteFailed(LedgerError):
    """A key folder, key file or receipts file that cannot be written (exit 1: a failed write,
    nothing changed)."""


class KeyConflict(LedgerError):
    """A key refused under a known name: not bad input, a refusal (exit 1)."""


class KeyInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A key pair of the key folder (``key list --json``)."""

    name: str
    public_key: str
    """64 hex digits."""
    fingerprint: str
    """``ed25519:K7PQ-2M4X``: what people compare."""
    path: str
    """The private key file."""


class LedgerKey(msgspec.Struct, frozen=True, kw_only=True):
    """A name and a key it signed with in a ledger (``key list --ledger L --json``)."""

    name: str
    fingerprint: str
    public_key: str
    registered: bool
    """The ledger knows the key as this name's (``<ledger>/keys/NAME.pub``)."""
    signed: list[str]
    """The signature events made with it under this name, ``GAME:SEQ``."""
    keys_of_name: int
    """How many keys the name has (registered or signed with): more than one is a warning."""


def default_key_dir() -> Path:
    """``$TABLETAPE_KEY_DIR``, else the user's configuration folder's ``tabletape/keys``; a
    :class:`KeyProblem` when the home folder is not set (never a folder at the root)."""
    configured = os.environ.get("TABLETAPE_KEY_DIR")
    if configured:
        return Path(configured).expanduser()
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home())) / "tabletape" / "keys"
    config = os.environ.get("XDG_CONFIG_HOME", "")
    if sys.platform != "darwin" and os.path.isabs(config):
        return Path(config) / "tabletape" / "keys"
    home = os.environ.get("HOME", "")
    if not os.path.isabs(home):
        raise KeyProblem("the home folder is not set (HOME is empty), so there is no default "
                         "key folder: give one with --key-dir or TABLETAPE_KEY_DIR")
    if sys.platform == "darwin":
        return Path(home) / "Library" / "Application Support" / "tabletape" / "keys"
    return Path(home) / ".config" / "tabletape" / "keys"


def check_name(name: str) -> str:
    """``name`` if it is a key name, else :class:`KeyProblem` saying how one is written.

    >>> check_name("olga"), check_name("Zoe\u0308") == "Zoë"
    ('olga', True)
    """
    name = unicodedata.normalize("NFC", name)
    if not KEY_NAME.match(name):
        raise KeyProblem(f"'{name[:40]}' is not a key name: use letters, digits, _ . -, at most "
                        "32 characters (a player's name, e.g. olga)")
    return name


def refuse_inside_ledger(key_dir: Path, ledger: Ledger | None) -> None:
    """A key folder inside the ledger is refused: private keys never travel with a ledger."""
    if ledger is None:
        return
    folder, root = key_dir.expanduser().resolve(), ledger.root.expanduser().resolve()
    if folder == root or root in folder.parents:
        raise KeyProblem(f"the key folder {key_dir} is inside the ledger {ledger.root}: keep keys "
                        "outside every ledger (the default is your configuration folder; or "
                        "give --key-dir elsewhere)")


# -- reading and writing key files with care ------------------------------------------------------


def read_small(path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them: a device, a pipe, a
    folder or a larger file is an :class:`OSError` saying so (never a hang, never a flood)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        chunks, size = [], 0
        while chunk := os.read(fd, limit + 1 - size):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise OSError(f"{path} is larger than {limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def why_unread(error: OSError) -> str:
    """An operating-system error as a few words."""
    return error.strerror if error.strerror else str(error)


def make_folder(key_dir: Path) -> None:
    """Make the key folder (readable by its owner only); :class:`KeyProblem` when something is
    in the way."""
    try:
        key_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        # a file in the way is a folder mistyped (bad input); a folder not writable, a failed write
        kind = KeyProblem if isinstance(error, (NotADirectoryError, FileExistsError)) else \
            KeyWriteFailed
        raise kind(f"the key folder {key_dir} cannot be made ({why_unread(error)}): give "
                   "another with --key-dir or TABLETAPE_KEY_DIR") from None


def warn_weak_folder(key_dir: Path) -> None:
    """Warn when others than the owner may enter or read the key folder."""
    try:
        mode = key_dir.stat().st_mode
    except OSError:
        return
    if mode & 0o077:
        warn(f"the key folder {key_dir} is open to others (mode {stat.S_IMODE(mode):o}): make "
             f"it yours only (chmod 700 {key_dir})")


def warn_weak_key(path: Path, mode: int) -> None:
    """Warn when a private key file may be read by others than its owner."""
    if mode & 0o077:
        warn(f"the key file {path} is readable by others (mode {stat.S_IMODE(mode):o}): make it "
             f"yours only (chmod 600 {path})")


def new_key(key_dir: Path, name: str) -> KeyInfo:
    """Make the key pair ``name`` in ``key_dir`` (the private key readable by its owner only):
    both files or neither, never replacing a file, never through a link."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    name = check_name(name)
    if other := same_name_otherwise(key_dir, name):
        raise KeyProblem(f"there is a key named {other} already: to a ledger {name} and {other} "
                         f"are one name (sign with `--key {other}`), so choose another name for "
                         "another person")
    make_folder(key_dir)
    warn_weak_folder(key_dir)
    private, public_path = key_dir / f"{name}.key", key_dir / f"{name}.pub"
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    public = raw_public(key)
    write_pair(private, pem, public_path, (public + "\n").encode())
    return KeyInfo(name=name, public_key=public, fingerprint=key_fingerprint(public),
                   path=str(private))


def write_pair(private: Path, pem: bytes, public_path: Path, public: bytes) -> None:
    """Write both files of a key pair, or neither (what was made is removed on a failure)."""
    made: list[Path] = []
    try:
        for path, data, mode in ((private, pem, 0o600), (public_path, public, 0o644)):
            fd = open_new(path, mode)
            made.append(path)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
    except BaseException:
        for path in made:
            path.unlink(missing_ok=True)
        raise


def open_new(path: Path, mode: int) -> int:
    """A new file ``path`` opened for writing; :class:`KeyProblem` when anything is there."""
    name = path.stem
    try:
        return os.open(path, NEW_FILE, mode)
    except FileExistsError:
        raise KeyProblem(
            f"there is a key named {name} already ({path} is there): choose another name (two "
            f"people of the same name, e.g. {name}2); a lost key is replaced by a new key "
            f"under another name, or under this one with `tabletape sign GAME --key {name} "
            "--new-key` after moving the old files away") from None
    except OSError as error:
        raise KeyWriteFailed(f"{path} cannot be written ({why_unread(error)}): check the key "
                         "folder (a link there is never followed)") from None


def raw_public(key: object) -> str:
    """The 64 hex digits of an ed25519 private key's public half."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    assert isinstance(key, Ed25519PrivateKey)
    return key.public_key().public_bytes(serialization.Encoding.Raw,
                                         serialization.PublicFormat.Raw).hex()


def list_keys(key_dir: Path) -> list[KeyInfo]:
    """The key pairs of ``key_dir`` that can be read, by name (the others named in warnings)."""
    if not key_dir.is_dir():
        return []
    warn_weak_folder(key_dir)
    keys = []
    for private in sorted(key_dir.glob("*.key")):
        try:
            public = raw_public(load_private(private, weak_folder=False))
        except KeyProblem as problem:
            warn(f"{problem} (left out)")
            continue
        keys.append(KeyInfo(name=private.stem, public_key=public,
                            fingerprint=key_fingerprint(public), path=str(private)))
    return keys


def same_name_otherwise(key_dir: Path, name: str) -> str:
    """A key in ``key_dir`` whose name is ``name`` in another case (``Patrick`` for
    ``patrick``), else ``""``: to the ledger they are one name."""
    try:
        stems = sorted(p.stem for p in key_dir.glob("*.key"))
    except OSError:
        return ""
    return next((stem for stem in stems if stem != name and stem.casefold() == name.casefold()),
                "")


def load_private(path: Path, *, weak_folder: bool = True) -> object:
    """The ed25519 private key in ``path``; :class:`KeyProblem` saying why not. A key file or
    key folder open to others is warned of."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        data = read_small(path, MAX_KEY_FILE)
        mode = path.stat().st_mode
    except FileNotFoundError:
        other = same_name_otherwise(path.parent, path.stem)
        if other:
            raise KeyProblem(f"there is no key {path.stem} in {path.parent} (did you mean "
                             f"{other}? names are one name whatever their case: `--key "
                             f"{other}`)") from None
        raise KeyProblem(f"there is no key {path.stem} in {path.parent}: make one with "
                        f"`tabletape key new {path.stem}` (or give --key-dir)") from None
    except OSError as error:
        raise KeyProblem(f"the key file {path} cannot be read ({why_unread(error)}): a key "
                         "is a small regular file, as `tabletape key new` writes") from None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise KeyProblem(f"the key file {path} holds no key tabletape can read (an ed25519 "
                        "private key in PEM, as `tabletape key new` writes)") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyProblem(f"the key file {path} holds a key that is not ed25519")
    if weak_folder:
        warn_weak_folder(path.parent)
    warn_weak_key(path, mode)
    return key


def sign_head(key: object, signer: str, uid: str, seq: int, head_hash: str) -> str:
    """The signature (128 hex digits) of ``key`` by ``signer`` over the head at ``seq`` with
    ``head_hash`` of the game ``uid``."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    assert isinstance(key, Ed25519PrivateKey)
    return key.sign(signed_bytes(signer, uid, seq, head_hash)).hex()


# -- the public keys a ledger knows ---------------------------------------------------------------


def known_keys_dir(ledger: Ledger) -> Path:
    return ledger.root / "keys"


def known_keys(ledger: Ledger) -> dict[str, set[str]]:
    """Name -> the public keys the ledger knows for it (a file that cannot be read as one is
    named in a warning and passed over)."""
    folder = known_keys_dir(ledger)
    if not folder.is_dir():
        return {}
    texts = []
    for path in sorted(folder.glob("*.pub")):
        try:
            texts.append((path.stem, read_small(path, MAX_KEY_FILE).decode()))
        except (OSError, UnicodeDecodeError) as error:
            why = why_unread(error) if isinstance(error, OSError) else "not text"
            warn(f"the ledger's key file {path} cannot be read ({why}): passed over")
    return registry(texts)


def check_register(ledger: Ledger, name: str, public: str, *, new_key: bool,
                   records: Sequence[Record] = ()) -> bool:
    """Whether ``public`` is new to the ledger as ``name``'s (to be registered after the
    signature is stored); :class:`KeyProblem` when it may not be.

    A name is known when the ledger registered keys for it, or when it signed the log being
    signed (``records``: an imported game carries its signers), whatever its case ("Olga" is
    olga). A known name takes a new key only with ``new_key`` (a lost key replaced), so a key
    made under someone else's name is refused, not silently trusted."""
    registered = keys_of_name(known_keys(ledger), name)
    in_log = keys_of_name(log_signers(records), name)
    known = {key for keys in (*registered.values(), *in_log.values()) for key in keys}
    if public in known:
        return not any(public in keys for keys in registered.values())
    if known and not new_key:
        spelled = sorted({*registered, *in_log} - {name})
        said = f" (as {', '.join(spelled)})" if spelled else ""
        where = "the ledger" if registered else "this game's signatures"
        raise KeyConflict(f"{where} know{'s' if registered else ''} another key for {name}"
                          f"{said}: sign with that key, or, if {name} lost it, add this one with "
                          f"`tabletape sign GAME --key {name} --new-key` (verify then warns "
                          "that the name has two keys); another person of the same name chooses "
                          "another name")
    return True


def register_signers(ledger: Ledger, games: Iterable[str]) -> dict[str, list[str]]:
    """``import``: register the keys of the signatures that hold in ``games`` under the names
    the ledger knows no key for yet (whatever their case); name -> the key fingerprints
    registered. A key file that cannot be written is warned of (the signatures still carry
    their keys)."""
    from tabletape.ledger.heads import trusted_records

    known = known_keys(ledger)
    found: dict[str, set[str]] = {}
    for game in games:
        try:
            signers = log_signers(trusted_records(ledger, game))
        except (LedgerError, OSError):
            continue
        for name, keys in signers.items():
            if not keys_of_name(known, name):
                found.setdefault(name, set()).update(keys)
    done: dict[str, list[str]] = {}
    for name, keys in sorted(found.items()):
        try:
            for public in sorted(keys):
                register(ledger, name, public)
        except OSError as error:
            warn(f"the ledger's key file for {name} could not be written ({why_unread(error)})"
                 ": its signatures still verify, but its key is not registered")
            continue
        done[name] = sorted(key_fingerprint(k) for k in keys)
    return done


def warn_failing_signatures(ledger: Ledger, games: Iterable[str]) -> int:
    """``import``: warn of each signature in ``games`` that does not hold in this ledger (a key
    the ledger knows another for, a forged one), so the organiser hears it at the import, not at
    the next ``verify``; how many."""
    from tabletape.ledger.heads import trusted_records
    from tabletape.ledger.receipts import vouch_line
    from tabletape.ledger.signatures import check_signatures

    known, failing = known_keys(ledger), 0
    for game in games:
        try:
            vouches = check_signatures(trusted_records(ledger, game), known)
        except (LedgerError, OSError):
            continue
        for vouch in vouches:
            if not vouch.ok:
                failing += 1
                warn(f"imported game {game}: {vouch_line(vouch)} (`tabletape verify {game}`)")
    return failing


def register(ledger: Ledger, name: str, public: str) -> None:
    """Make ``public`` known as ``name``'s in the ledger (appended to ``keys/NAME.pub``, never
    through a link); :class:`OSError` when it cannot be written."""
    folder = known_keys_dir(ledger)
    folder.mkdir(exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(folder / f"{name}.pub", flags, 0o644)
    with os.fdopen(fd, "ab") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(f"{folder / name}.pub is not a regular file")
        handle.write((public + "\n").encode())


def ledger_keys(ledger: Ledger) -> list[LedgerKey]:
    """Every name and key of the ledger: those registered and those its signature events were
    made with (logs that verify, as far as they do), by name."""
    from tabletape.ledger.heads import trusted_records
    from tabletape.ledger.signatures import signed_events

    signed: dict[tuple[str, str], list[str]] = {}
    for game in ledger.game_ids(archived=True):
        try:
            records = trusted_records(ledger, game)
        except (LedgerError, OSError):
            continue
        for record, event in signed_events(records):
            signed.setdefault((event.signer, event.public_key), []).append(
                f"{game}:{record.seq}")
    registered = known_keys(ledger)
    for name, keys in registered.items():
        for public in keys:
            signed.setdefault((name, public), [])
    per_name: dict[str, int] = {}
    for name, _ in signed:
        per_name[name] = per_name.get(name, 0) + 1
    return [LedgerKey(name=name, fingerprint=key_fingerprint(public), public_key=public,
                      registered=public in registered.get(name, set()), signed=events,
                      keys_of_name=per_name[name])
            for (name, public), events in sorted(signed.items())]


# -- receipts: what a signer keeps of each signature ---------------------------------------------


def receipts_path(key_dir: Path) -> Path:
    return key_dir / "receipts.jsonl"


def open_receipts(key_dir: Path) -> BinaryIO:
    """The key folder's receipts file opened to add to (readable by its owner only), before
    anything is signed: a receipts file that cannot be written refuses the signature, so a
    signature is never stored without its receipt (write with :func:`keep_receipt`)."""
    path = receipts_path(key_dir)
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as error:
        raise KeyWriteFailed(f"the receipts file {path} cannot be written ({why_unread(error)}): "
                         "nothing was signed; fix it, or give another --key-dir") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise KeyWriteFailed(f"the receipts file {path} is not a regular file: nothing was signed; "
                         "move it away")
    return os.fdopen(fd, "ab")


def keep_receipt(receipts: BinaryIO, receipt: Receipt) -> None:
    """Add ``receipt`` to the receipts file opened by :func:`open_receipts`."""
    receipts.write(msgspec.json.encode(receipt) + b"\n")
    receipts.flush()


_receipt_decoder = msgspec.json.Decoder(Receipt)


def read_receipts(key_dir: Path | None) -> list[Receipt]:
    """The receipts kept in ``key_dir`` (the default key folder when None): none when it has
    none or there is no key folder; a file that cannot be read is named in a warning; a line
    that does not decode is skipped."""
    if key_dir is None:
        try:
            key_dir = default_key_dir()
        except KeyProblem:
            return []
    path = receipts_path(key_dir)
    try:
        data = read_small(path, MAX_RECEIPTS_FILE)
    except FileNotFoundError:
        return []
    except OSError as error:
        warn(f"your receipts file {path} cannot be read ({why_unread(error)}): the receipts of "
             "what you signed are not checked")
        return []
    kept, skipped = decoded_from(data, _receipt_decoder)
    if skipped:
        warn(f"{plural(skipped, 'line')} of your receipts file {path} are not receipts (written "
             "over, or edited): passed over, so what they recorded is not checked")
    return kept

