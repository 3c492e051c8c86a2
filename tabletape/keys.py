"""Players' signing keys: ed25519 key pairs kept outside every ledger, and the public keys a
ledger knows by name.

A key pair is made by ``tabletape key new NAME`` in the key folder: ``$TABLETAPE_KEY_DIR``, else
the user's configuration folder (``~/.config/tabletape/keys`` on Linux), or ``--key-dir``. The
private key is ``NAME.key`` (PKCS#8 PEM, readable by its owner only), its public half ``NAME.pub``
(64 hex digits). A key folder inside a ledger is refused: a ledger is shared and copied, a private
key must not travel with it.

Each ``sign`` also keeps a receipt beside the keys (``receipts.jsonl``: the game, the head
signed): ``verify`` on the signer's machine then names a log cut back before the signature event
itself, which the ledger alone cannot show.

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
import sys
from pathlib import Path

import msgspec

from tabletape.ledger import Ledger
from tabletape.ledger.codec import decoded_lines
from tabletape.ledger.errors import USAGE_EXIT
from tabletape.ledger.heads import Receipt, key_fingerprint, registry, signed_bytes
from tabletape.ledger.store import LedgerError

KEY_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
"""A key's name: letters, digits, ``_ . -``, at most 32, starting with a letter or digit."""
MAX_KEY_FILE = 4096
"""A larger file is no key of ours."""


class KeyProblem(LedgerError):
    """A key that cannot be made, found or read (exit 2: the command line names it)."""

    exit_code = USAGE_EXIT


class KeyInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A key pair of the key folder (``key list --json``)."""

    name: str
    public_key: str
    """64 hex digits."""
    fingerprint: str
    """``ed25519:K7PQ-2M4X``: what people compare."""
    path: str
    """The private key file."""


def default_key_dir() -> Path:
    """``$TABLETAPE_KEY_DIR``, else the user's configuration folder's ``tabletape/keys``."""
    configured = os.environ.get("TABLETAPE_KEY_DIR")
    if configured:
        return Path(configured).expanduser()
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "tabletape" / "keys"
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home())) / "tabletape" / "keys"
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "tabletape" / "keys"


def check_name(name: str) -> str:
    """``name`` if it is a key name, else :class:`KeyProblem` saying how one is written.

    >>> check_name("olga")
    'olga'
    """
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


def new_key(key_dir: Path, name: str) -> KeyInfo:
    """Make the key pair ``name`` in ``key_dir`` (the private key readable by its owner only);
    refuses to replace one."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    check_name(name)
    private = key_dir / f"{name}.key"
    if private.exists():
        raise KeyProblem(f"there is a key named {name} already ({private}): choose another name "
                        "(a lost key is replaced by a new name, or by moving the old file away)")
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    public = raw_public(key)
    key_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(private, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(pem)
    (key_dir / f"{name}.pub").write_text(public + "\n")
    return KeyInfo(name=name, public_key=public, fingerprint=key_fingerprint(public),
                   path=str(private))


def raw_public(key: object) -> str:
    """The 64 hex digits of an ed25519 private key's public half."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    assert isinstance(key, Ed25519PrivateKey)
    return key.public_key().public_bytes(serialization.Encoding.Raw,
                                         serialization.PublicFormat.Raw).hex()


def list_keys(key_dir: Path) -> list[KeyInfo]:
    """The key pairs of ``key_dir`` that can be read, by name."""
    if not key_dir.is_dir():
        return []
    keys = []
    for private in sorted(key_dir.glob("*.key")):
        try:
            public = raw_public(load_private(private))
        except KeyProblem:
            continue
        keys.append(KeyInfo(name=private.stem, public_key=public,
                            fingerprint=key_fingerprint(public), path=str(private)))
    return keys


def load_private(path: Path) -> object:
    """The ed25519 private key in ``path``; :class:`KeyProblem` saying why not."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        data = path.read_bytes()[:MAX_KEY_FILE + 1]
    except FileNotFoundError:
        raise KeyProblem(f"there is no key {path.stem} in {path.parent}: make one with "
                        f"`tabletape key new {path.stem}` (or give --key-dir)") from None
    except OSError as error:
        raise KeyProblem(f"the key file {path} cannot be read ({error.strerror}): check its "
                        "owner and permissions") from None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise KeyProblem(f"the key file {path} holds no key tabletape can read (an ed25519 "
                        "private key in PEM, as `tabletape key new` writes)") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyProblem(f"the key file {path} holds a key that is not ed25519")
    return key


def sign_head(key: object, seq: int, head_hash: str) -> str:
    """The signature (128 hex digits) of ``key`` over the head at ``seq`` with ``head_hash``."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    assert isinstance(key, Ed25519PrivateKey)
    return key.sign(signed_bytes(seq, head_hash)).hex()


# -- the public keys a ledger knows ---------------------------------------------------------------


def known_keys_dir(ledger: Ledger) -> Path:
    return ledger.root / "keys"


def known_keys(ledger: Ledger) -> dict[str, set[str]]:
    """Name -> the public keys the ledger knows for it."""
    folder = known_keys_dir(ledger)
    return registry(sorted(folder.glob("*.pub"))) if folder.is_dir() else {}


def register(ledger: Ledger, name: str, public: str, *, new_key: bool) -> bool:
    """Make ``public`` known as ``name``'s in the ledger; True when it was not known before.

    A name with other keys known takes a new one only with ``new_key`` (a lost key replaced),
    so a key made under someone else's name is refused, not silently trusted."""
    known = known_keys(ledger).get(name, set())
    if public in known:
        return False
    if known and not new_key:
        raise KeyProblem(f"the ledger knows another key for {name}: sign with that key, or, if "
                        f"{name} lost it, add this one with `tabletape sign GAME --key {name} "
                        "--new-key`")
    folder = known_keys_dir(ledger)
    folder.mkdir(exist_ok=True)
    with open(folder / f"{name}.pub", "a") as handle:
        handle.write(public + "\n")
    return True


# -- receipts: what a signer keeps of each signature ---------------------------------------------


def receipts_path(key_dir: Path) -> Path:
    return key_dir / "receipts.jsonl"


def keep_receipt(key_dir: Path, receipt: Receipt) -> None:
    """Add ``receipt`` to the key folder's receipts (readable by its owner only)."""
    path = receipts_path(key_dir)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "ab") as handle:
        handle.write(msgspec.json.encode(receipt) + b"\n")


_receipt_decoder = msgspec.json.Decoder(Receipt)


def read_receipts(key_dir: Path) -> list[Receipt]:
    """The receipts kept in ``key_dir`` (none when it has none or cannot be read; a line that
    does not decode is skipped)."""
    return decoded_lines(receipts_path(key_dir), _receipt_decoder)
