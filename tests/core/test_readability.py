"""Every module of the package can be read in one sitting (issue 19, "Done means").

No function or method of ``palaestra/`` above cyclomatic complexity 20 (radon's grades D, E and F
start at 21) and no Python module over 700 lines. The limits are measured with radon, the tool the
issue's review used, so the figures here are the ones ``radon cc -s -n D palaestra`` prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

PACKAGE = Path(__file__).resolve().parents[2] / "palaestra"
MAX_COMPLEXITY = 20
MAX_LINES = 700


def functions(blocks: Iterable[Function | Class]) -> Iterator[Function]:
    """Every function, method and nested function of radon's blocks (classes are not scored)."""
    for block in blocks:
        if isinstance(block, Class):
            yield from functions(block.methods)
            yield from functions(block.inner_classes)
        else:
            yield block
            yield from functions(block.closures)


def too_complex(source: str) -> list[str]:
    # radon lists a method both in its class and on its own: one entry per place in the source
    found = {(f.lineno, f.col_offset): f for f in functions(cc_visit(source))}
    return [
        f"{f.fullname} (line {f.lineno}): complexity {f.complexity}"
        for _, f in sorted(found.items())
        if f.complexity > MAX_COMPLEXITY
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


def test_no_module_over_700_lines() -> None:
    assert modules(), "the package's modules were not found"
    found = [
        f"{path.relative_to(PACKAGE.parent)}: {count} lines"
        for path in modules()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]
    assert found == [], "split these modules:\n" + "\n".join(found)
