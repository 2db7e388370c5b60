"""JSON out of the server: the game views it answers and pushes, the records and states it stores.

orjson (a well-kept encoder written in Rust) encodes a game's view several times quicker than the
standard library's ``json`` (docs/benchmarks.md, "The web app under load"); what it refuses (an
integer past 64 bits, a key that is not a string, a lone surrogate) goes to the standard library,
so whatever was encodable before still is. orjson writes UTF-8 rather than ``\\u`` escapes and
``null`` for NaN (as the answers' encoder, pydantic, did): the same JSON to any reader.
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def encode_json(value: Any) -> bytes:
    """``value`` as compact JSON (UTF-8)."""
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        # ASCII with \u escapes: a lone surrogate (which UTF-8 cannot hold) encodes too
        return json.dumps(value, separators=(",", ":")).encode()


def dumps(value: Any) -> str:
    """``encode_json`` as text (SQLAlchemy's ``json_serializer`` of the JSON columns)."""
    return encode_json(value).decode()
