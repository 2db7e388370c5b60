"""core/cloning.py: the copying function written from a state's fields (used by the games'
``State.clone``)."""

from __future__ import annotations

import pytest

from palaestra.core.cloning import COPY, SLICE, clone_by_fields


class Thing:
    def __init__(self) -> None:
        self.items = [1, 2]
        self.table = {"a": 1}
        self.shared = (3, 4)
        self.maybe: list[int] | None = None

    def clone(self) -> Thing:
        """A copy."""
        return clone_by_fields(self, COPIES)


COPIES = {"items": SLICE, "table": COPY, "maybe": "None if {v} is None else {v}[:]"}


def test_a_clone_owns_the_fields_named_and_shares_the_others() -> None:
    a = Thing()
    b = a.clone()
    assert type(b) is Thing and vars(b) == vars(a)
    assert list(vars(b)) == list(vars(a))  # the same fields in the same order
    b.items.append(5)
    b.table["b"] = 2
    assert a.items == [1, 2] and a.table == {"a": 1}
    assert b.shared is a.shared
    # the written function replaced the method, with its docstring, and copies the same way
    assert Thing.clone.__doc__ == "A copy." and Thing.clone.__name__ == "clone"
    a.maybe = [7]
    c = a.clone()
    assert c.maybe == [7] and c.maybe is not a.maybe


def test_a_copy_of_a_field_the_state_lacks_is_refused() -> None:
    class Other:
        def __init__(self) -> None:
            self.x = 1

    with pytest.raises(ValueError, match="no fields"):
        clone_by_fields(Other(), {"y": SLICE})
