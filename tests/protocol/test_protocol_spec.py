"""The generated spec files are current, and the AsyncAPI document is valid AsyncAPI 3.0."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest
import yaml

from boneyard.protocol.spec import gen

SPECS_PACKAGE = Path(__file__).resolve().parent / "node_modules" / "@asyncapi" / "specs"


def test_generated_files_are_current(capsys: pytest.CaptureFixture[str]) -> None:
    # The same check as `python -m boneyard.protocol.spec --check`.
    assert gen.main(["--check"]) == 0, capsys.readouterr().out


def asyncapi_schema() -> dict[str, object]:
    """The official AsyncAPI 3.0.0 JSON Schema, from the npm package @asyncapi/specs.

    Installed by ``npm ci --prefix tests/protocol`` (pinned in tests/protocol/package.json);
    ``ASYNCAPI_SPECS_DIR`` may point at another copy of the package.
    """
    root = Path(os.environ.get("ASYNCAPI_SPECS_DIR", SPECS_PACKAGE))
    path = root / "schemas" / "3.0.0.json"
    assert path.exists(), f"{path} missing: run `npm ci --prefix tests/protocol`"
    schema: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return schema


def test_asyncapi_document_is_valid() -> None:
    document = yaml.safe_load(gen.ASYNCAPI.read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(asyncapi_schema())
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors[:5]]


def test_asyncapi_validation_catches_mistakes() -> None:
    document = yaml.safe_load(gen.ASYNCAPI.read_text(encoding="utf-8"))
    document["operations"]["receiveCommand"]["action"] = "listen"
    assert not jsonschema.Draft7Validator(asyncapi_schema()).is_valid(document)


def test_asyncapi_lists_every_message_with_msgpack() -> None:
    document = yaml.safe_load(gen.ASYNCAPI.read_text(encoding="utf-8"))
    assert document["asyncapi"] == "3.0.0"
    messages = document["components"]["messages"]
    assert all(m["contentType"] == "application/vnd.msgpack" for m in messages.values())
    assert set(messages) == set(document["channels"]["boneyard"]["messages"])
