"""Structured logs, as text or JSON: records carry ids (table, seat, player, record, peer, code).

Callers pass the ids as ``extra``, so the line stays greppable by table or player:

>>> import io, logging
>>> out = io.StringIO()
>>> handler = logging.StreamHandler(out)
>>> handler.setFormatter(JsonFormatter())
>>> log = logging.getLogger("boneyard.doctest")
>>> log.addHandler(handler); log.propagate = False
>>> log.warning("turn timed out", extra=ids(table_id="t1", seat=2))
>>> '"table_id": "t1", "seat": 2' in out.getvalue()
True
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

FIELDS = ("table_id", "seat", "player_id", "record_id", "peer", "code")
"""The structured fields a log record may carry (as ``extra``), in output order."""


def ids(**fields: object) -> dict[str, object]:
    """``extra`` for a log call, dropping fields that are ``None``."""
    return {k: v for k, v in fields.items() if v is not None}


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {k: getattr(record, k) for k in FIELDS if getattr(record, k, None) is not None}


class TextFormatter(logging.Formatter):
    """``2026-01-01T12:00:00Z info boneyard.table game over table_id=t1 seat=0``."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created))
        parts = [stamp, record.levelname.lower(), record.name, record.getMessage()]
        parts += [f"{k}={v}" for k, v in _fields(record).items()]
        line = " ".join(parts)
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``ts``, ``level``, ``logger``, ``msg`` and the structured fields."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            **_fields(record),
        }
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def configure(level: str, fmt: str) -> None:
    """Send ``boneyard`` and ``websockets`` logs to stderr at ``level``, as ``fmt`` (``text`` or ``json``)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    for name in ("boneyard", "websockets"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.propagate = False
        # websockets logs every failed handshake at info: keep it to warnings unless debugging.
        logger.setLevel(level.upper() if name == "boneyard" or level == "debug" else logging.WARNING)
