"""Feature ``accounts`` in the protocol package: what a client signs, and the documented example."""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from boneyard.protocol.accounts import b64, sign_in_message, unb64
from boneyard.protocol.spec.examples.session import NONCE, PUBLIC_KEY, SIGNATURE


def test_the_documented_signature_verifies() -> None:
    key = Ed25519PublicKey.from_public_bytes(unb64(PUBLIC_KEY))
    key.verify(unb64(SIGNATURE), sign_in_message(NONCE, "Ana"))  # raises InvalidSignature if not


def test_the_documented_key_is_the_one_named() -> None:
    private = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    assert b64(private.sign(sign_in_message(NONCE, "Ana"))) == SIGNATURE  # Ed25519 is deterministic


def test_base64url_round_trip() -> None:
    for raw in (b"", b"\x00", bytes(range(32)), bytes(range(64))):
        assert unb64(b64(raw)) == raw and "=" not in b64(raw)
