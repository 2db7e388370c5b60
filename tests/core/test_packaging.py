"""`pip install .` (README's first command) ships every file the package reads: each data file
under palaestra/ matches a pattern of pyproject's package-data (a file that matched none, the
common-passwords list of issue 28, was missing from non-editable installs)."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_data_file_of_the_package_is_declared_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["*"]
    left_out = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "palaestra").rglob("*")
        if path.is_file()
        and path.suffix not in (".py", ".pyc")
        and "__pycache__" not in path.parts
        and not any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns)
    ]
    assert left_out == [], f"add patterns for these to [tool.setuptools.package-data]: {left_out}"
