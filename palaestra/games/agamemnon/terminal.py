"""Agamemnon's board for small terminals (``palaestra play``; declared in ``info.py``)."""

from __future__ import annotations

import re

_ROW = re.compile(r"^\s*(\d+)\s+(\S+)\s+(.*)$")


def compact(text: str, width: int) -> tuple[list[str], list[str]]:
    """The space table folded into columns; the strings go to ``info``."""
    head: list[str] = []
    rows: list[tuple[str, str, str]] = []
    rest: list[str] = []
    section = "head"
    for line in text.splitlines():
        if section == "head" and line.lstrip().startswith("space tile"):
            section = "table"
            continue
        if section == "table":
            m = _ROW.match(line)
            if m:
                rows.append((m.group(1), m.group(2), m.group(3)))
                continue
            if rows:
                section = "rest"
        if section == "head":
            if line.strip():
                head.append(line)
        elif section == "rest" and line.strip():
            rest.append(line)
    if not rows:
        return text.splitlines(), []
    # cells as narrow as their contents, so that 80 columns take three of them and every row is on
    # the screen with the key (issue 30, finding 15: two to six rows hid behind `board`)
    tile_width = max(len(tile) for _, tile, _ in rows)
    cells = [f"{n:>2} {tile:<{tile_width}} {' '.join(conns.split())}" for n, tile, conns in rows]
    cell_width = max(len(c) for c in cells) + 1
    columns = max(1, min(4, (width + 1) // cell_width))
    height = -(-len(cells) // columns)
    table = []
    for r in range(height):
        parts = [cells[c * height + r] for c in range(columns) if c * height + r < len(cells)]
        table.append("".join(p.ljust(cell_width) for p in parts).rstrip())
    legend = "space tile connections (S strength, F force, L leadership)"
    return [*head, legend, *table], rest
