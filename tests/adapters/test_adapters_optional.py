"""The core does not need the research frameworks: only the adapter modules import them."""

from __future__ import annotations

import subprocess
import sys


def test_core_and_adapters_package_import_without_the_frameworks() -> None:
    code = (
        "import sys, palaestra, palaestra.adapters, palaestra.ai, palaestra.cli\n"
        "for name in ('agamemnon', 'archimedes', 'athos'):\n"
        "    try:\n"
        "        palaestra.load_game(name)\n"
        "    except Exception:\n"
        "        pass\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium'))\n"
        "print(loaded)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
