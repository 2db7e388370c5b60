"""Every module of the package can be read in one sitting (issue 19, "Done means").

No function or method of ``palaestra/`` above cyclomatic complexity 20 (radon's grades D, E and F
start at 21) and no Python module over 600 lines (issue 32; 700 before). A game's rules, where each
ruling is stated once (issue 32, "Done means"), are held to more: no block rated C or worse (above
complexity 10) and a maintainability index of at least 20 in every rules module and position
module. The limits are measured with radon, the tool the issues' reviews used, so the figures here
are the ones ``radon cc -s -n C`` and ``radon mi -s`` print.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from radon.complexity import cc_visit
from radon.metrics import mi_visit
from radon.visitors import Class, Function

PACKAGE = Path(__file__).resolve().parents[2] / "palaestra"
MAX_COMPLEXITY = 20
MAX_LINES = 600
#: the rules of a game: no block rated C (radon's grade C starts at 11) and this index at least
RULES_MAX_COMPLEXITY = 10
RULES_MIN_MAINTAINABILITY = 20


def functions(blocks: Iterable[Function | Class]) -> Iterator[Function]:
    """Every function, method and nested function of radon's blocks (classes are not scored)."""
    for block in blocks:
        if isinstance(block, Class):
            yield from functions(block.methods)
            yield from functions(block.inner_classes)
        else:
            yield block
            yield from functions(block.closures)


def too_complex(source: str, limit: int = MAX_COMPLEXITY) -> list[str]:
    # radon lists a method both in its class and on its own: one entry per place in the source
    found = {(f.lineno, f.col_offset): f for f in functions(cc_visit(source))}
    return [
        f"{f.fullname} (line {f.lineno}): complexity {f.complexity}"
        for _, f in sorted(found.items())
        if f.complexity > limit
    ]


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_the_measure_sees_nested_functions_and_methods() -> None:
    pad = " " * 12
    branches = "".join(f"{pad}if x == {i}:\n{pad}    return {i}\n" for i in range(MAX_COMPLEXITY))
    source = (
        "class A:\n    def m(self, x):\n        def inner(x):\n"
        f"{branches}{pad}return -1\n        return inner(x)\n"
    )
    # the nested function has 21 decision paths: too complex; the method around it is not
    assert [line.split(" ")[0] for line in too_complex(source)] == ["inner"]
    simple = "def f(x):\n    return 1 if x else 2\n"
    assert too_complex(simple) == []


def test_no_function_above_complexity_20() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}: {problem}"
        for path in modules()
        for problem in too_complex(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "split these functions:\n" + "\n".join(found)


def rules_modules() -> list[Path]:
    """Each game's ``rules.py`` (or the modules of a ``rules/`` package), the chapters it is made
    of, and ``position.py``."""
    games = PACKAGE / "games"
    found = [*games.glob("*/rules.py"), *games.glob("*/rules/*.py"), *games.glob("*/position.py")]
    found += [games / path for path in RULING_CHAPTERS]
    return sorted(found)


#: the chapters that rules.py composes where a game's rulings fill more than one module
RULING_CHAPTERS = (
    "athos/movement.py",
    "athos/tiles.py",
    "athos/scoring.py",
    "athos/reachable.py",
    "agamemnon/turns.py",
    "agamemnon/warps.py",
    "agamemnon/ending.py",
)


def test_rules_modules_have_no_block_rated_c_or_worse() -> None:
    assert len(rules_modules()) >= 6, "the games' rules and position modules were not found"
    found = [
        f"{path.relative_to(PACKAGE.parent)}: {problem}"
        for path in rules_modules()
        for problem in too_complex(path.read_text(encoding="utf-8"), RULES_MAX_COMPLEXITY)
    ]
    assert found == [], "split these rules into predicates:\n" + "\n".join(found)


def test_rules_modules_are_maintainable() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}: MI {index:.1f}"
        for path in rules_modules()
        if (index := mi_visit(path.read_text(encoding="utf-8"), True)) < RULES_MIN_MAINTAINABILITY
    ]
    assert found == [], "these rules modules read badly (radon mi -s):\n" + "\n".join(found)


def test_no_module_over_600_lines() -> None:
    assert modules(), "the package's modules were not found"
    found = [
        f"{path.relative_to(PACKAGE.parent)}: {count} lines"
        for path in modules()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]
    assert found == [], "split these modules:\n" + "\n".join(found)
