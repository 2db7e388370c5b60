"""Generate Palaestra's own Athos board (ATH-B1/B2): ``python benchmarks/tools/athos_board.py [--check]``.

The result is the data file ``palaestra/games/athos/board.json``; the game never runs this script.
The geometry is a mountain of centred hex rows in doubled coordinates (a field at ``(col, row)``
touches ``(col +- 2, row)`` and ``(col +- 1, row +- 1)``), mirror-symmetric around the middle column
so that the 2-player seats B and D are equal. A few symmetric cliffs (cut-out hexes) make corridors
and bottlenecks. Terrains grow from seeds placed on the left half (one per terrain per third of the
board, plus a few extra), with random weights so that patches are irregular, and are mirrored to
the right half. Seeds are tried until every ATH-B2 constraint and the design goals hold.
"""

from __future__ import annotations

import argparse
import heapq
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from palaestra.games.athos.board import board_from_dict, design_problems  # noqa: E402

TERRAINS = ["meadow", "forest", "olive", "heath", "vine"]
# Row widths from the bottom (row 1) to the top; neighbouring rows differ in parity.
WIDTHS = [10, 9, 10, 9, 10, 11, 10, 9, 10, 9, 10, 9, 8, 9, 8, 7]
CENTRE = 12  # the mirror column
BOARD = ROOT / "palaestra" / "games" / "athos" / "board.json"


def geometry() -> list[tuple[int, int]]:
    cells = []
    for i, width in enumerate(WIDTHS):
        row = i + 1
        first = CENTRE - (width - 1)
        for k in range(width):
            cells.append((first + 2 * k, row))
    # Cliffs (not fields), given on the left half and mirrored: they make corridors.
    cliffs_left = [
        # a lower-left crag: three lanes
        (7, 5),
        (9, 5),
        (8, 6),
        # the central ridge (mirrored: 5 hexes)
        (11, 9),
        (10, 10),
        (12, 10),
        # an upper-left crag: a flank corridor
        (7, 11),
        (8, 12),
        # a notch below the summit
        (9, 13),
    ]
    cliffs = set()
    for c, r in cliffs_left:
        cliffs.add((c, r))
        cliffs.add((2 * CENTRE - c, r))
    return [c for c in cells if c not in cliffs]


def neighbours(cell: tuple[int, int], cells: set[tuple[int, int]]) -> list[tuple[int, int]]:
    c, r = cell
    out = []
    for dc, dr in ((2, 0), (-2, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)):
        n = (c + dc, r + dr)
        if n in cells:
            out.append(n)
    return out


def assign(cells: list[tuple[int, int]], rng: random.Random) -> dict[tuple[int, int], str]:
    cellset = set(cells)
    rows = max(r for _, r in cells)
    left = [c for c in cells if c[0] <= CENTRE]
    third = [[c for c in left if (c[1] - 1) * 3 // rows == t] for t in range(3)]
    seeds: list[tuple[tuple[int, int], str]] = []
    used: set[tuple[int, int]] = set()
    for t in range(3):
        order = TERRAINS[:]
        rng.shuffle(order)
        for name in order:
            while True:
                cell = rng.choice(third[t])
                if cell not in used:
                    break
            used.add(cell)
            seeds.append((cell, name))
    weight = {c: rng.uniform(0.6, 2.2) for c in cells}
    owner: dict[tuple[int, int], str] = {}
    heap: list[tuple[float, int, tuple[int, int], str]] = []
    for i, (cell, name) in enumerate(seeds):
        heapq.heappush(heap, (0.0, i, cell, name))
    counter = len(seeds)
    while heap:
        d, _, cell, name = heapq.heappop(heap)
        if cell in owner:
            continue
        owner[cell] = name
        for n in neighbours(cell, cellset):
            if n not in owner and n[0] <= CENTRE:
                counter += 1
                heapq.heappush(heap, (d + weight[n], counter, n, name))
    full = {}
    for (c, r), name in owner.items():
        full[(c, r)] = name
        full[(2 * CENTRE - c, r)] = name
    return full


def name_of(cell: tuple[int, int]) -> str:
    return f"{chr(ord('a') + cell[0])}{cell[1]}"


def build(seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    cells = geometry()
    terrain = assign(cells, rng)
    bottom = sorted((c for c in cells if c[1] == 1), key=lambda c: c[0])
    top = sorted((c for c in cells if c[1] == max(r for _, r in cells)), key=lambda c: c[0])
    starts = {}
    for i, letter in enumerate("ABCDE"):
        starts[letter] = [name_of(c) for c in bottom[2 * i : 2 * i + 2]]
    return {
        "format": 1,
        "name": "Palaestra mountain",
        "terrains": TERRAINS,
        "fields": [
            {"col": c, "row": r, "terrain": terrain[(c, r)]}
            for c, r in sorted(cells, key=lambda x: (x[1], x[0]))
        ],
        "starts": starts,
        "summit": [name_of(c) for c in top],
    }


def good(doc: dict[str, object]) -> bool:
    board = board_from_dict(doc, "generated")
    if design_problems(board):
        return False
    # Design goals beyond ATH-B2: patches of 3..10 fields, counts 23..27 per terrain, no cut vertex.
    for patches in board.patches().values():
        if any(not 3 <= len(p) <= 10 for p in patches) or len(patches) < 3:
            return False
    counts = [len(board.fields_of_terrain[t]) for t in range(len(board.terrains))]
    if min(counts) < 23 or max(counts) > 29:
        return False
    return not board.cut_fields()


def render(doc: dict[str, object]) -> str:
    text = json.dumps(doc, indent=None, separators=(",", ":"))
    # one field per line for readable diffs
    text = text.replace('{"col"', '\n  {"col"').replace('],"starts"', '\n ],"starts"')
    return text + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=BOARD, help="where to write (default: the shipped board)")
    parser.add_argument(
        "--check", action="store_true", help="only check that the shipped board is what the generator makes"
    )
    args = parser.parse_args()
    for seed in range(1, 200000):
        doc = build(seed)
        if good(doc):
            text = render(doc)
            if args.check:
                same = BOARD.read_text(encoding="utf-8") == text
                print(f"seed {seed}: {BOARD} {'matches' if same else 'DIFFERS from'} the generator")
                raise SystemExit(0 if same else 1)
            args.out.write_text(text, encoding="utf-8")
            print(f"seed {seed}: wrote {args.out}")
            return
    raise SystemExit("no seed gave a good board")


if __name__ == "__main__":
    main()
