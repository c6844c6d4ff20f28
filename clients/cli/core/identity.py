"""Who the player is, kept on disk: an account's Ed25519 key pair (feature ``accounts``), and a guest's
resume token per server.

As ssh does, the client keeps the private key in its configuration directory, readable by its owner
only (0600, in a 0700 directory); the server keeps the public key. ``boneyard account create NAME``
makes a key and registers it; later ``boneyard play`` and ``connect`` sign in with it (the file
``account`` names the account to use).

>>> import tempfile
>>> home = Path(tempfile.mkdtemp())
>>> keys = KeyPair.create(home / "keys" / "ana.key")
>>> oct((home / "keys" / "ana.key").stat().st_mode & 0o777), KeyPair.load(home / "keys" / "ana.key") == keys
('0o600', True)
>>> seats = SavedSeats("ws://h:1/", home)
>>> seats.keep("tok1"); SavedSeats("ws://h:1/", home).token(), SavedSeats("ws://other/", home).token()
('tok1', None)
>>> seats.keep(None); seats.token()
>>> request = Signer("ana", keys).sign_in("n" * 43)
>>> request.account, request.public_key == keys.public_key, len(request.signature)
('ana', True, 86)
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from boneyard.protocol.accounts import SignIn, b64, sign_in_message


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/boneyard``, ``~/.config/boneyard`` without it."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "boneyard"


ACCOUNT_NAME = re.compile(r"[^\W_][\w.-]{1,23}")
"""What an account name may look like (the server's rules say more): safe as a file name."""


def key_path(account: str, home: Path | None = None) -> Path:
    """Where the key of ``account`` is kept; ``ValueError`` for a name no account can have."""
    if not ACCOUNT_NAME.fullmatch(account):
        raise ValueError(f"{account!r} is not an account name")
    return (home or config_dir()) / "keys" / f"{account.casefold()}.key"


def private_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``, readable and writable by its owner only (its directory too)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as file:
        file.write(data)
    os.chmod(path, 0o600)


class KeyPair:
    """An Ed25519 key pair in a PEM file (PKCS #8, unencrypted, 0600)."""

    __slots__ = ("_private", "public_key")

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        raw = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.public_key = b64(raw)
        """The public key as it travels (base64url of its 32 bytes)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KeyPair) and other.public_key == self.public_key

    def __hash__(self) -> int:
        return hash(self.public_key)

    @classmethod
    def create(cls, path: Path) -> KeyPair:
        """A new key pair, written to ``path``."""
        private = Ed25519PrivateKey.generate()
        pem = private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        private_file(path, pem)
        return cls(private)

    @classmethod
    def load(cls, path: Path) -> KeyPair:
        """The key pair in ``path``; ``ValueError`` if it is not an Ed25519 private key."""
        private = serialization.load_pem_private_key(path.read_bytes(), password=None)
        if not isinstance(private, Ed25519PrivateKey):
            raise ValueError(f"{path} does not hold an Ed25519 private key")
        return cls(private)

    def sign(self, message: bytes) -> str:
        return b64(self._private.sign(message))


@dataclass(slots=True)
class Signer:
    """Signs a connection's nonce in to ``account`` (the client's ``signer``)."""

    account: str
    keys: KeyPair
    create: bool = False
    """Register the account with this key (``boneyard account create``)."""
    link_code: str | None = None
    """Add this key to the account with a one-time code (``boneyard account link``)."""

    def sign_in(self, nonce: str) -> SignIn:
        return SignIn(
            account=self.account,
            public_key=self.keys.public_key,
            signature=self.keys.sign(sign_in_message(nonce, self.account)),
            create=self.create,
            link_code=self.link_code,
        )


def saved_signer(home: Path | None = None) -> Signer | None:
    """The account this client signs in to (the file ``account`` in the configuration directory) with
    its key; ``None`` for a guest (no such file, or no key for it)."""
    home = home or config_dir()
    try:
        account = (home / "account").read_text().strip()
        return Signer(account, KeyPair.load(key_path(account, home)))
    except (OSError, ValueError):
        return None


def save_account(account: str, home: Path | None = None) -> None:
    """Sign in to ``account`` from now on."""
    private_file((home or config_dir()) / "account", f"{account}\n".encode())


class SavedSeats:
    """The resume token of the seats held on one server, kept in the file ``seats.json`` (0600, a map of
    server URL to token) while the client runs, so that the next ``boneyard play`` or ``connect`` to that
    server after a crash asks for them back. A clean exit forgets it (the client's ``on_token(None)``)."""

    __slots__ = ("_path", "url")

    def __init__(self, url: str, home: Path | None = None) -> None:
        self.url = url
        self._path = (home or config_dir()) / "seats.json"

    def _all(self) -> dict[str, str]:
        try:
            kept = json.loads(self._path.read_text())
        except (OSError, ValueError):
            return {}
        return {k: v for k, v in kept.items() if isinstance(v, str)} if isinstance(kept, dict) else {}

    def token(self) -> str | None:
        """The token kept for this server, if any."""
        return self._all().get(self.url)

    def keep(self, token: str | None) -> None:
        """Keep ``token`` for this server (``None``: forget it)."""
        kept = self._all()
        if token is None and self.url not in kept:
            return
        if token is None:
            del kept[self.url]
        else:
            kept[self.url] = token
        with contextlib.suppress(OSError):  # a read-only home: the seats are not kept, as before
            private_file(self._path, json.dumps(kept).encode())
