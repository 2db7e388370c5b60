"""An independent, deliberately naive Archimedes move generator for cross-checking the engine.

It reads the cells straight from the package's board data text (its own tiny parser), keeps cubes
as cell names, and enumerates every path cell by cell (ARC-M1..M4, M5, M7), with none of the
engine's bit masks or pruning.
"""

from __future__ import annotations

from importlib import resources

SIDES_2 = (("a2", "a4", "a6", "a8"), ("h2", "h4", "h6", "h8"))


def _read_board() -> tuple[dict[str, tuple[int, int, int]], dict[str, list[str]], dict[str, list[str]]]:
    text = resources.files("palaestra.games.archimedes").joinpath("board.txt").read_text()
    coords: dict[str, tuple[int, int, int]] = {}
    nbrs: dict[str, list[str]] = {}
    sides: dict[str, list[str]] = {}
    for line in text.splitlines():
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "cell":
            coords[f[1]] = (int(f[2]), int(f[3]), int(f[4]))
            nbrs[f[1]] = f[5:]
        else:
            sides[f[1]] = f[2:]
    return coords, nbrs, sides


COORDS, NBRS, SIDES = _read_board()
OPP = {"S": "N", "N": "S", "SE": "NW", "NW": "SE", "SW": "NE", "NE": "SW"}
START = {2: ("S", "N"), 3: ("S", "NE", "NW")}


class Ref:
    def __init__(self, cubes: list[list[str]], to_move: int = 0, revisit: bool = False) -> None:
        self.cubes = [list(c) for c in cubes]
        self.n = len(cubes)
        self.to_move = to_move
        self.revisit = revisit
        self.passes = 0
        self.over = False

    def goals(self, p: int) -> list[str]:
        return SIDES[OPP[START[self.n][p]]]

    def starts(self, p: int) -> list[str]:
        return SIDES[START[self.n][p]]

    def all_cubes(self) -> list[str]:
        return [c for cs in self.cubes for c in cs]

    def distance(self, cell: str) -> int:
        x = COORDS[cell]
        return sum(1 for c in self.all_cubes() if any(COORDS[c][k] == x[k] for k in range(3)))

    def ends(self, start: str) -> set[str]:
        p = self.to_move
        others = [c for c in self.all_cubes() if c != start]

        def free(cell: str) -> bool:
            return cell not in others and not any(m in others for m in NBRS[cell])

        d = self.distance(start)
        out: set[str] = set()

        seen: set[tuple[str, int]] = set()

        def walk(path: list[str]) -> None:
            here = path[-1]
            steps = len(path) - 1
            if self.revisit:  # a walk's future depends only on where it is and how far it went
                if (here, steps) in seen:
                    return
                seen.add((here, steps))
            if (steps == d or (steps > 0 and here in self.goals(p))) and here != start:
                out.add(here)
            if steps == d:
                return
            for m in NBRS[here]:
                if free(m) and (self.revisit or m not in path):
                    walk([*path, m])

        walk([start])
        return out

    def moves(self) -> list[str]:
        if self.over:
            return []
        p = self.to_move
        mine = self.cubes[p]
        out = []
        for c in mine:
            if c in self.goals(p):
                continue
            if self.n == 3 and c in self.starts(p):
                off = sum(1 for x in mine if x not in self.starts(p))
                home = sum(1 for x in mine if x in self.goals(p))
                if not off < 2 + home:
                    continue
            out += [f"{c}-{e}" for e in self.ends(c)]
        return sorted(out) or ["pass"]

    def play(self, move: str) -> None:
        p = self.to_move
        if move == "pass":
            self.passes += 1
            if self.passes == self.n:
                self.over = True
        else:
            a, b = move.split("-")
            self.cubes[p][self.cubes[p].index(a)] = b
            self.passes = 0
            if all(c in self.goals(p) for c in self.cubes[p]):
                self.over = True
        self.to_move = (p + 1) % self.n

    def copy(self) -> Ref:
        r = Ref(self.cubes, self.to_move, self.revisit)
        r.passes, r.over = self.passes, self.over
        return r


def ref_perft(r: Ref, depth: int) -> int:
    if depth == 0 or r.over:
        return 1
    total = 0
    for m in r.moves():
        child = r.copy()
        child.play(m)
        total += ref_perft(child, depth - 1)
    return total


def start_cubes(n: int) -> list[list[str]]:
    return [list(SIDES[s]) for s in START[n]]
