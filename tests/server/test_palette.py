"""Player colours stay apart for colour-blind players (issue 21).

Every renderer's player colours are simulated for protanopia, deuteranopia and tritanopia
(Machado, Oliveira & Fernandes 2009, severity 1.0, in linear RGB) and compared in CIELAB
(CIE76): every pair must stay at least MIN_DELTA_E apart, with normal vision too.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MIN_DELTA_E = 20.0
PALETTES = {
    "athos": ("palaestra/games/athos/web/board.js", "PLAYER"),
    "archimedes": ("palaestra/games/archimedes/web/board.js", "COLOURS"),
    "agamemnon": ("palaestra/games/agamemnon/web/board.js", "PLAYER"),
}
MACHADO = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def palette(game: str) -> list[str]:
    path, name = PALETTES[game]
    m = re.search(rf"const {name} = \[([^\]]*)\]", (ROOT / path).read_text())
    assert m, f"no {name} in {path}"
    return re.findall(r'"(#[0-9a-fA-F]{6})"', m.group(1))


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen(colour: str, vision: str) -> tuple[float, float, float]:
    rgb = [_linear(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5)]
    m = MACHADO[vision]
    out = [min(1.0, max(0.0, sum(m[row][k] * rgb[k] for k in range(3)))) for row in range(3)]
    return _lab((out[0], out[1], out[2]))


def delta_e(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    return float(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5)


@pytest.mark.parametrize("game", sorted(PALETTES))
@pytest.mark.parametrize("vision", sorted(MACHADO))
def test_player_colours_stay_apart(game: str, vision: str) -> None:
    colours = palette(game)
    assert len(colours) >= 2
    for a, b in itertools.combinations(colours, 2):
        d = delta_e(seen(a, vision), seen(b, vision))
        assert d >= MIN_DELTA_E, f"{game}: {a} and {b} are {d:.1f} apart for {vision}"


def test_the_check_catches_red_and_green() -> None:
    """The classic pair that deuteranopes confuse fails the check."""
    assert delta_e(seen("#d32f2f", "deuteranopia"), seen("#2e7d32", "deuteranopia")) < MIN_DELTA_E
