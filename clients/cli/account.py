"""``boneyard account``: create an account, link this device to one, or make a code to link another.

The key pair stays in the configuration directory (``core/identity.py``); the server learns only the
public key. Once an account is made or linked here, ``boneyard connect`` and ``boneyard play --server``
sign in with it (``--guest`` to play without).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from boneyard.clients.cli.core.commands import CommandError
from boneyard.clients.cli.core.identity import (
    ACCOUNT_NAME,
    KeyPair,
    Signer,
    key_path,
    save_account,
    saved_signer,
)
from boneyard.clients.cli.core.session import Client
from boneyard.protocol import LinkDevice


def _account(value: str) -> str:
    if not ACCOUNT_NAME.fullmatch(value):
        raise argparse.ArgumentTypeError("2-24 letters, digits, - _ . starting with a letter or digit")
    return value


def add_parser(sub: argparse._SubParsersAction[Any]) -> None:
    """``boneyard account create|link|link-code``."""
    account = sub.add_parser("account", help="your account: sign in with a key kept on this machine")
    actions = account.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = actions.add_parser("create", help="register NAME on the server with a new key")
    create.add_argument("name", type=_account, help="2-24 letters, digits, - _ . (one script; not bot-...)")
    link = actions.add_parser("link", help="add this machine's key to NAME with a one-time code")
    link.add_argument("name", type=_account)
    link.add_argument(
        "code",
        help="from `boneyard account link-code` on a signed-in device, or the operator"
        " (one that starts with - goes last, after --)",
    )
    code = actions.add_parser("link-code", help="a one-time code to add another device to your account")
    for parser in (create, link, code):
        parser.add_argument("--server", required=True, metavar="URL", help="e.g. ws://localhost:8765/")


def keys_for(name: str, home: Path | None = None) -> KeyPair:
    """This machine's key for ``name``: the one kept, or a new one (0600)."""
    path = key_path(name, home)
    return KeyPair.load(path) if path.exists() else KeyPair.create(path)


async def run(args: argparse.Namespace, home: Path | None = None) -> int:
    """One account action; 0 when done, 1 with one line on standard error when not."""
    if args.action == "link-code":
        signer = saved_signer(home)
        if signer is None:
            print(
                "boneyard: no account on this machine: `boneyard account create NAME` first", file=sys.stderr
            )
            return 1
    else:
        keys = keys_for(args.name, home)
        signer = Signer(
            args.name, keys, create=args.action == "create", link_code=getattr(args, "code", None)
        )
    client = Client(args.server, signer.account, signer=signer, reconnect=False)
    try:
        welcome = await client.connect()
        if welcome.account is None:
            print(f"boneyard: {args.server} has no accounts (feature accounts)", file=sys.stderr)
            return 1
        if args.action == "link-code":
            reply = await client.request(LinkDevice(type="link_device"))
            minutes = reply.expires_ms // 60_000
            print(reply.code)
            print(f"on the other device, within {minutes} minutes and once:", file=sys.stderr)
            print(
                f"  boneyard account link {welcome.account} {reply.code} --server {args.server}",
                file=sys.stderr,
            )
            return 0
    except (OSError, CommandError) as error:
        print(f"boneyard: {error}", file=sys.stderr)
        return 1
    finally:
        await client.close()
    save_account(welcome.account, home)
    done = "created" if args.action == "create" else "linked to this machine"
    print(f"account {welcome.account} {done}; `boneyard connect` and `play --server` sign in with it")
    return 0
