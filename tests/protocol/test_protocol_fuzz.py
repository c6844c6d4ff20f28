"""Fuzzing the decoders: whatever the bytes, the result is a message or a documented ProtocolError.

The hypothesis tests run in the suite. The same target runs under atheris (coverage-guided)
when this file is executed directly:

    PYTHONPATH=. python tests/protocol/test_protocol_fuzz.py -runs=200000 [CORPUS_DIR]
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boneyard.protocol import DecodeErrorCode, ProtocolError, decode_command, decode_server_message
from boneyard.protocol.spec.examples import ALL_EXAMPLES

CODES = set(get_args(DecodeErrorCode))
FRAMES = [msgpack.packb(e.data) for e in ALL_EXAMPLES]
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def fuzz_one(frame: bytes) -> None:
    """The fuzz target: both decoders either succeed or raise ProtocolError with a documented code."""
    for decode in (decode_command, decode_server_message):
        try:
            decode(frame)
        except ProtocolError as error:
            if error.code not in CODES or not error.message:
                raise AssertionError(f"undocumented error {error.code!r}") from error


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes(frame: bytes) -> None:
    fuzz_one(frame)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    frame = bytearray(draw(st.sampled_from(FRAMES)))
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, len(frame)))
        kind = draw(st.sampled_from(["flip", "insert", "delete", "truncate", "splice"]))
        if kind == "flip" and where < len(frame):
            frame[where] = draw(st.integers(0, 255))
        elif kind == "insert":
            frame[where:where] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            del frame[where : where + draw(st.integers(1, 8))]
        elif kind == "truncate":
            del frame[where:]
        elif kind == "splice":
            other = draw(st.sampled_from(FRAMES))
            start = draw(st.integers(0, len(other)))
            frame[where:where] = other[start : start + draw(st.integers(1, 40))]
    return bytes(frame)


@FUZZ
@given(mutated())
def test_mutated_frames(frame: bytes) -> None:
    fuzz_one(frame)


VALUES: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=10)
    | st.binary(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(FUZZ, max_examples=150)
@given(st.dictionaries(st.sampled_from(["type", "id", "seq", "table_id", "action", "tile", "event"]), VALUES))
def test_structured_maps(data: dict[str, Any]) -> None:
    fuzz_one(msgpack.packb(data, use_bin_type=True))


@FUZZ
@given(st.sampled_from(ALL_EXAMPLES), st.data())
def test_wrong_values_in_valid_messages(example: Any, data: st.DataObject) -> None:
    message = dict(example.data)
    key = data.draw(st.sampled_from(sorted(message)))
    message[key] = data.draw(VALUES)
    fuzz_one(msgpack.packb(message, use_bin_type=True))


@pytest.mark.parametrize("depth", [7, 8, 9, 100, 1023, 1024, 1025, 3000])
@pytest.mark.parametrize("opener", [b"\x91", b"\x81\xa1k"])
def test_deep_nesting(depth: int, opener: bytes) -> None:
    fuzz_one(b"\x82\xa4type\xa3act\xa6action" + opener * depth + b"\x00")


@pytest.mark.parametrize(
    "header",
    [
        b"\xdb\xff\xff\xff\xff",  # str32
        b"\xc6\xff\xff\xff\xff",  # bin32
        b"\xdd\xff\xff\xff\xff",  # array32
        b"\xdf\xff\xff\xff\xff",  # map32
        b"\xc9\xff\xff\xff\xff\x01",  # ext32
        b"\xd4\x01",  # fixext1
        b"\xd6\xff",  # timestamp32
        b"\xcf\xff\xff\xff\xff\xff\xff\xff\xff",  # uint64
        b"\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00",  # NaN
    ],
)
def test_huge_lengths_and_odd_values(header: bytes) -> None:
    fuzz_one(b"\x82\xa4type\xa4ping\xa2id" + header + b"\x00" * 8)
    fuzz_one(header + b"\x00" * 8)


def test_atheris_briefly(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    for i, frame in enumerate(FRAMES):  # start from valid frames
        (tmp_path / f"example-{i}").write_bytes(frame)
    result = subprocess.run(
        [sys.executable, __file__, "-runs=5000", "-seed=1", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert result.returncode == 0, result.stderr[-2000:]


def _atheris_main() -> None:
    import inspect

    import atheris

    from boneyard.protocol import codec

    # Coverage feedback from the decoder's own code (instrumenting every loaded module takes minutes).
    for function in vars(codec).values():
        if inspect.isfunction(function) and function.__module__ == codec.__name__:
            atheris.instrument_func(function)
    atheris.Setup(sys.argv, fuzz_one)
    atheris.Fuzz()


if __name__ == "__main__":
    _atheris_main()
