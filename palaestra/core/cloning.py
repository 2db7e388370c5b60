"""Copying a game's state fast: a copying function written from the state's own fields.

Searches copy states all the time, so a game's ``State.clone`` is among its hottest code. The
copy is written out, one assignment per field in the order ``__init__`` sets them (as
``dataclasses`` writes its methods), at the first clone, and installed as the class's ``clone``:

* a loop of ``setattr`` is some three times slower;
* an object whose ``__dict__`` is filled with ``update`` or ``copy.copy`` loses CPython's
  shared-key layout, which makes every later attribute read of the copy slower;
* reading ``__dict__`` on every clone would cost more than the copy.

A game names how each field that play changes in place is copied (``copies``: a Python
expression with ``{v}`` for the field's value, e.g. :data:`SLICE`); every other field is shared,
so derived data a move replaces (never changes in place) needs no copy. A test of each game
checks that a clone plays on independently of its original.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

S = TypeVar("S")

#: a new list (or any sequence with slices) with the same items
SLICE = "{v}[:]"
#: a container's own ``copy()`` (dicts, sets, arrays)
COPY = "{v}.copy()"


def clone_by_fields(state: S, copies: Mapping[str, str]) -> S:
    """A copy of ``state``: the first call writes the copying function of ``type(state)`` from
    the state's fields and ``copies``, installs it as the class's ``clone`` (keeping its
    docstring), and uses it; later clones call it directly."""
    cls = type(state)
    copy = _write(cls, list(vars(state)), copies)
    copy.__doc__ = getattr(cls, "clone", copy).__doc__
    cls.clone = copy  # type: ignore[attr-defined]
    return copy(state)


def _write(cls: type[S], fields: list[str], copies: Mapping[str, str]) -> Callable[[S], S]:
    unknown = set(copies) - set(fields)
    if unknown:
        raise ValueError(f"{cls.__name__} has no fields {sorted(unknown)} to copy")
    lines = ["def clone(state):", "    other = new(cls)"]
    for name in fields:
        if not name.isidentifier():
            raise ValueError(f"{name!r} is not a field name")
        value = f"state.{name}"
        lines.append(f"    other.{name} = {copies[name].format(v=value) if name in copies else value}")
    lines.append("    return other")
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), namespace)  # field names checked above, expressions the game's own
    clone: Callable[[S], S] = namespace["clone"]
    return clone
