"""Documents read through Pydantic models: the strict base model of every game's position
document, and the translation of pydantic's :class:`~pydantic.ValidationError` into the game's own
error (:class:`~palaestra.core.errors.PositionError` by default) with a message for a person.

A game's model states the shape of its document (strict types: ``1`` is no ``"1"`` and ``true`` no
``1``; no unknown fields; bounds that do not depend on the game's options); its validators state the
checks that need the game (given in the validation ``context``) and raise the game's error
themselves, citing the ruling. A shape error is worded from the game's ``hints``: a table from the
field's path (``"tiles.player"``: the field ``player`` of an item of ``tiles``) to a message.
The hint is looked up from the most precise path to the least, first for the kind of pydantic
error (``"tiles!missing"``: a field of an item of ``tiles`` is missing), then for any. The
message is formatted with ``value`` (the input found), ``i`` (the 1-based number of the first list
item on the path), ``name`` (the last name on the path), ``path`` (the whole path, dotted) and the
keys of ``context``. ``"!extra"`` words an unknown top-level field and ``""`` a document that is no
JSON object; an error without a hint keeps pydantic's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import ErrorDetails

from palaestra.core.errors import PalaestraError, PositionError


class Document(BaseModel):
    """The base of a document model: strict types and no unknown fields."""

    model_config = ConfigDict(strict=True, extra="forbid")


M = TypeVar("M", bound=BaseModel)


def validate(
    model: type[M],
    doc: object,
    hints: Mapping[str, str],
    context: Mapping[str, Any] | None = None,
    error: type[PalaestraError] = PositionError,
) -> M:
    """``doc`` read as ``model`` (its validators get ``context``); ``error`` with a message from
    ``hints`` for a document of the wrong shape. A validator's own error passes through as it is."""
    if isinstance(doc, Mapping) and not isinstance(doc, dict):
        doc = dict(doc)
    try:
        return model.model_validate(doc, context=context)
    except ValidationError as err:
        raise error(message(err.errors()[0], hints, context or {})) from None


def message(detail: ErrorDetails, hints: Mapping[str, str], context: Mapping[str, Any]) -> str:
    """The message of one pydantic error, worded from ``hints`` (see the module's docstring)."""
    loc = detail["loc"]
    names = [part for part in loc if isinstance(part, str)]
    items = [part for part in loc if isinstance(part, int)]
    value = detail.get("input")
    where = ".".join(str(part) for part in loc) or "the document"
    values = {
        **context,
        "value": value,
        "i": items[0] + 1 if items else 0,
        "name": names[-1] if names else "",
        "path": where,
    }
    hint = _hint(hints, names, detail["type"])
    if hint is not None:
        return hint.format(**values)
    return f"{where}: {detail['msg'].lower()}, not {value!r:.80}"


def _hint(hints: Mapping[str, str], names: list[str], kind: str) -> str | None:
    """The hint of the most precise path of ``names`` that has one, for an error of ``kind``."""
    if kind == "extra_forbidden" and len(names) == 1 and "!extra" in hints:
        return hints["!extra"]
    paths = [".".join(names[:end]) for end in range(len(names), 0, -1)] if names else [""]
    for key in [f"{path}!{kind}" for path in paths] + paths:
        if key in hints:
            return hints[key]
    return None
