"""Nothing outside ``palaestra/games`` names a game (issue 19, finding 6).

A game's facts are in its own folder and reach the rest through its ``GameInfo`` and the core
protocol, so that a fourth game costs its own package (issue 32: games are plug-ins, declared as
entry points in ``pyproject.toml``; the registry names none). This test scans every source file of
the package outside ``palaestra/games`` (Python, JavaScript, CSS, HTML, JSON catalogues,
templates) for each game's name, its title and the prefix of its ruling IDs (``XYZ-``, the prefix
its own folder cites most), and fails with the file, line and text of each hit. No line is
allowed, the registry's included.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from palaestra.core.registry import game_infos

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "palaestra"
GAMES = PACKAGE / "games"
SUFFIXES = {".py", ".js", ".css", ".html", ".json", ".mako", ".txt", ".toml", ".ini", ".svg"}
RULING = re.compile(r"\b([A-Z]{3})-[A-Z]+\d+")


def ruling_prefix(folder: Path) -> str | None:
    """The prefix of the ruling IDs a game's folder cites most (``ATH`` for ``ATH-T7``)."""
    counts: Counter[str] = Counter()
    for path in folder.rglob("*.py"):
        counts.update(RULING.findall(path.read_text(encoding="utf-8")))
    return counts.most_common(1)[0][0] if counts else None


def game_terms() -> list[re.Pattern[str]]:
    """What names a game: the name and title of every registered game of the package, every
    folder under games/ (registered or not), and each game's ruling-ID prefix. (The tests' toy
    game ``nim`` lives in tests/ and is the documentation's example: it is not a package game.)"""
    folders = [p for p in GAMES.iterdir() if p.is_dir() and (p / "__init__.py").is_file()]
    ours = [info for info in game_infos() if (GAMES / info.name) in folders]
    words = {p.name for p in folders} | {info.title for info in ours}
    # a whole word, case-insensitive: "athos-terrains" and "Athos stone" hit, "pathos" does not
    terms = [re.compile(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", re.I) for w in sorted(words)]
    prefixes = {prefix for prefix in map(ruling_prefix, folders) if prefix}
    terms += [re.compile(rf"\b{prefix}-") for prefix in sorted(prefixes)]
    return terms


def outer_files(root: Path) -> Iterable[Path]:
    """The package's source files outside its ``games/`` folder."""
    for path in sorted(root.rglob("*")):
        inside = path.relative_to(root)
        if (
            path.is_file()
            and path.suffix in SUFFIXES
            and inside.parts[0] != "games"
            and "__pycache__" not in inside.parts
        ):
            yield path


def violations(root: Path, terms: list[re.Pattern[str]]) -> list[str]:
    """``file:line: text`` for each line outside ``root/games`` that names a game."""
    found = []
    for path in outer_files(root):
        relative = path.relative_to(root)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(term.search(line) for term in terms):
                found.append(f"{root.name}/{relative}:{number}: {line.strip()}")
    return found


def test_no_game_is_named_outside_its_folder() -> None:
    terms = game_terms()
    assert len(terms) >= 3 * 2 + 3  # three games: names, titles, ruling prefixes
    problems = violations(PACKAGE, terms)
    assert not problems, "game facts outside palaestra/games:\n" + "\n".join(problems)


def test_the_scan_covers_every_kind_of_source() -> None:
    kinds = {path.suffix for path in outer_files(PACKAGE)}
    assert {".py", ".js", ".css", ".html", ".json"} <= kinds
    scanned = {path.relative_to(PACKAGE).parts[0] for path in outer_files(PACKAGE)}
    assert {"core", "ai", "server", "adapters", "i18n", "cli.py", "terminal.py"} <= scanned


def test_the_ruling_prefixes_are_found_in_the_games_folders() -> None:
    prefixes = {ruling_prefix(GAMES / info.name) for info in game_infos()}
    assert {"ATH", "ARC", "AGA"} <= prefixes


def test_a_planted_game_fact_is_caught_with_its_file_and_line(tmp_path: Path) -> None:
    """A copy of the package with a game named in the server's style sheet, the AI, a catalogue
    and a ruling ID in the CLI, and a game's line in the registry (where the games were listed
    before they were plug-ins): each is reported."""
    copy = tmp_path / "palaestra"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "games"))
    terms = game_terms()
    assert violations(copy, terms) == []
    planted = {
        "server/static/style.css": ".athos-terrains { border-collapse: collapse; }",
        "ai/levels.py": 'TUNING = {"archimedes": "mcts:iterations=300"}',
        "server/static/i18n/de.json": '"Agamemnon board": "Agamemnon-Spielplan",',
        "cli.py": "# see ATH-B2",
    }
    lines = {}
    for name, text in planted.items():
        path = copy / name
        before = path.read_text(encoding="utf-8")
        after = before + ("" if before.endswith("\n") else "\n") + text + "\n"
        path.write_text(after, encoding="utf-8")
        lines[name] = len(after.splitlines())
    found = violations(copy, terms)
    assert sorted(found) == sorted(
        f"palaestra/{name}:{lines[name]}: {text}" for name, text in planted.items()
    )
    # a game is a plug-in: even the registry may not list it
    with (copy / "core" / "registry.py").open("a", encoding="utf-8") as f:
        f.write('    "athos": "palaestra.games.athos.info:INFO",\n')
    assert any(hit.startswith("palaestra/core/registry.py:") for hit in violations(copy, terms))
