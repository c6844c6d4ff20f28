"""Accounts (feature ``accounts``): signing in with an Ed25519 key, registering a name, linking a device.

A client that holds an account keeps an Ed25519 key pair (RFC 8032); the server keeps only the public
key. Each ``hello`` carries a fresh ``nonce``; the client signs :func:`sign_in_message` of that nonce
and its account name with its private key and sends the signature in ``identify.sign_in``. The nonce
lives as long as its connection and is spent by its first ``identify``: a signature is good for one
sign-in on one connection, so one seen on the wire (or stolen with its nonce) is worth nothing later.

Keys and signatures travel as unpadded base64url (RFC 4648 section 5) of their raw bytes: a public
key is 32 bytes (43 characters), a signature 64 (86 characters).

>>> sign_in_message("n0nce", "Ana")
b'boneyard-sign-in/1\\nn0nce\\nAna'
"""

from __future__ import annotations

import base64
from typing import Annotated, Literal

from pydantic import Field

from boneyard.protocol.envelope import CommandBase, ReplyBase
from boneyard.protocol.values import Bool, Count, Name, WireModel

FEATURE_ACCOUNTS = "accounts"
"""``hello.features`` names it when ``hello.nonce``, ``identify.sign_in``, ``welcome.account`` and the
command ``link_device`` are in use (section 7, "Accounts")."""

SIGN_IN_CONTEXT = "boneyard-sign-in/1"
"""The first line of every signed message: a signature made for something else never signs a player in."""

Nonce = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{22,64}$")]
"""A sign-in nonce: at least 16 random bytes in base64url (the server sends 32: 43 characters)."""

PublicKey = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{43}$")]
"""An Ed25519 public key: its 32 raw bytes in unpadded base64url."""

Signature = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{86}$")]
"""An Ed25519 signature: its 64 raw bytes in unpadded base64url."""

LinkCode = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{16,64}$")]
"""A one-time code that adds a key to an account (from ``link_device``, or an operator's recovery code)."""


def sign_in_message(nonce: str, account: str) -> bytes:
    """The bytes a client signs to sign in as ``account`` on the connection whose ``hello`` sent
    ``nonce``: ``boneyard-sign-in/1``, the nonce and the account name as sent, joined by line feeds,
    in UTF-8."""
    return f"{SIGN_IN_CONTEXT}\n{nonce}\n{account}".encode()


def b64(raw: bytes) -> str:
    """Unpadded base64url, as keys and signatures travel."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    """The bytes of unpadded base64url ``text`` (``ValueError`` if it is not)."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SignIn(WireModel):
    """``identify.sign_in``: who the player is, and the proof."""

    account: Name
    """The account's name. Names are compared as the server's name rules say (section 7, "Accounts"):
    ``Ana``, ``ana`` and ``аna`` (with a Cyrillic ``а``) are one account."""
    public_key: PublicKey
    """The key that signed: one of the account's keys, or, with ``create`` or ``link_code``, the key
    to add to it."""
    signature: Signature
    """The Ed25519 signature, by ``public_key``, of ``sign_in_message(hello.nonce, account)``."""
    create: Bool = False
    """Create the account, with ``public_key`` as its first key (error ``name_taken`` if the name, or a
    name that looks the same, is held; ``name_refused`` if the name rules refuse it)."""
    link_code: LinkCode | None = None
    """Add ``public_key`` to the account with this one-time code (from ``link_device`` on a device
    already signed in, or an operator's recovery code)."""


class LinkDevice(CommandBase):
    """A signed-in player asks for a one-time code that adds another device's key to their account.
    Reply: ``link_code``; error ``not_signed_in`` for a guest."""

    type: Literal["link_device"]


class LinkCodeMessage(ReplyBase):
    """The answer to ``link_device``."""

    type: Literal["link_code"]
    code: LinkCode
    """Give it to the other device once: its ``identify.sign_in.link_code`` adds its key. This
    server's codes are 32 letters and digits, never ``-`` or ``_``, so one can be typed as a
    command-line argument."""
    expires_ms: Count
    """The code is good for this long from now, and for one use."""
