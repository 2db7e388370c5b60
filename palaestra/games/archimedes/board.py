"""The Archimedes board: 96 triangular cells of a hexagon, loaded from the package's data file.

The data file (``board.txt`` beside this module, format documented in its header and in
docs/archimedes.md) names every cell, gives its three strip indices (x, y, z: the rows of
ARC-B2) and its edge neighbours (ARC-B1), and lists the rim cells of the six sides. The loader
checks the file thoroughly and raises :class:`BoardFileError` naming the first problem.

Everything the move generator needs is precomputed here as plain ints and tuples: neighbour
lists, neighbour bit masks, the union of the three rows through each cell as a bit mask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from palaestra.core.errors import BoardFileError

#: the six sides of the hexagon, and the side opposite each
SIDES: tuple[str, ...] = ("S", "N", "SE", "NW", "SW", "NE")
OPPOSITE: dict[str, str] = {"S": "N", "N": "S", "SE": "NW", "NW": "SE", "SW": "NE", "NE": "SW"}

_NAME = re.compile(r"^[a-z][0-9]{1,2}$")


@dataclass(frozen=True)
class Board:
    """An immutable, validated board. Cells are numbered 0..n-1 in file order."""

    names: tuple[str, ...]
    coords: tuple[tuple[int, int, int], ...]
    #: neighbour indices of each cell
    neighbours: tuple[tuple[int, ...], ...]
    #: neighbour bit mask of each cell
    neighbour_mask: tuple[int, ...]
    #: bit mask of the cells of the three rows through each cell (the cell included)
    rows_mask: tuple[int, ...]
    #: rim cells of each side, by side name
    sides: dict[str, tuple[int, ...]]
    index: dict[str, int]

    @property
    def size(self) -> int:
        return len(self.names)

    @property
    def all_mask(self) -> int:
        return (1 << len(self.names)) - 1

    def cell(self, name: str) -> int:
        """Index of a cell name; KeyError if unknown."""
        return self.index[name]

    def side_mask(self, side: str) -> int:
        mask = 0
        for c in self.sides[side]:
            mask |= 1 << c
        return mask

    def rows(self) -> list[list[int]]:
        """Every row (strip) of the board: the cells sharing one of the x, y or z indices."""
        out: list[list[int]] = []
        for axis in range(3):
            values = sorted({c[axis] for c in self.coords})
            for v in values:
                out.append([i for i, c in enumerate(self.coords) if c[axis] == v])
        return out

    def distances_to(self, targets: int) -> tuple[int, ...]:
        """Graph distance (steps, ignoring cubes) from every cell to the nearest cell of ``targets``."""
        n = len(self.names)
        dist = [-1] * n
        frontier = [i for i in range(n) if targets >> i & 1]
        for i in frontier:
            dist[i] = 0
        d = 0
        while frontier:
            d += 1
            nxt = []
            for c in frontier:
                for m in self.neighbours[c]:
                    if dist[m] < 0:
                        dist[m] = d
                        nxt.append(m)
            frontier = nxt
        return tuple(dist)


def parse_board(text: str, source: str = "board file") -> Board:
    """Parse and validate board data; :class:`BoardFileError` names the first problem."""
    return _BoardReader(source).read(text)


class _BoardReader:
    """Reads a board file line by line, then checks what the lines say together."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.names: list[str] = []
        self.coords: list[tuple[int, int, int]] = []
        self.listed: list[list[str]] = []  # the neighbours each cell line lists
        self.lines_of: list[int] = []
        self.sides: dict[str, list[str]] = {}
        self.index: dict[str, int] = {}

    def fail(self, lineno: int, message: str) -> BoardFileError:
        where = f"{self.source}, line {lineno}: " if lineno else f"{self.source}: "
        return BoardFileError(where + message)

    def read(self, text: str) -> Board:
        for lineno, line in enumerate(text.splitlines(), start=1):
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            if fields[0] == "cell":
                self._cell(lineno, fields)
            elif fields[0] == "side":
                self._side(lineno, fields)
            else:
                raise self.fail(lineno, f"unknown entry {fields[0]!r} (a line starts with 'cell' or 'side')")
        if not self.names:
            raise self.fail(0, "no cells")
        self.by_coord = {c: k for k, c in enumerate(self.coords)}
        neighbours = [self._neighbours(i) for i in range(len(self.names))]
        for i, nbrs in enumerate(neighbours):
            for j in nbrs:
                if i not in neighbours[j]:
                    message = f"cell {self.names[j]} does not list {self.names[i]} back as a neighbour"
                    raise self.fail(self.lines_of[j], message)
        return Board(
            names=tuple(self.names),
            coords=tuple(self.coords),
            neighbours=tuple(neighbours),
            neighbour_mask=tuple(sum(1 << j for j in nbrs) for nbrs in neighbours),
            rows_mask=self._rows_mask(),
            sides=self._side_cells(neighbours),
            index=dict(self.index),
        )

    def _cell(self, lineno: int, fields: list[str]) -> None:
        if len(fields) < 5:
            raise self.fail(lineno, "a cell line is 'cell NAME X Y Z NEIGHBOUR...'")
        name = fields[1]
        if not _NAME.match(name):
            raise self.fail(lineno, f"{name!r} is not a cell name (a letter and a number, like c4)")
        if name in self.index:
            raise self.fail(lineno, f"cell {name} is given twice")
        try:
            x, y, z = (int(v) for v in fields[2:5])
        except ValueError:
            message = f"cell {name}: the coordinates {' '.join(fields[2:5])} are not whole numbers"
            raise self.fail(lineno, message) from None
        if x + y + z not in (-1, -2):
            raise self.fail(lineno, f"cell {name}: x+y+z is {x + y + z}, it must be -1 (up) or -2 (down)")
        if (x, y, z) in self.coords:
            other = self.names[self.coords.index((x, y, z))]
            raise self.fail(lineno, f"cell {name} has the same coordinates as {other}")
        self.index[name] = len(self.names)
        self.names.append(name)
        self.coords.append((x, y, z))
        self.listed.append(fields[5:])
        self.lines_of.append(lineno)

    def _side(self, lineno: int, fields: list[str]) -> None:
        if len(fields) < 3:
            raise self.fail(lineno, "a side line is 'side NAME CELL...'")
        side = fields[1]
        if side not in SIDES:
            raise self.fail(lineno, f"unknown side {side!r} (sides: {' '.join(SIDES)})")
        if side in self.sides:
            raise self.fail(lineno, f"side {side} is given twice")
        self.sides[side] = fields[2:]

    def _neighbours(self, i: int) -> tuple[int, ...]:
        """The neighbours cell ``i`` lists, checked against the cells that share an edge with it
        by the coordinates (ARC-B1)."""
        lineno, name = self.lines_of[i], self.names[i]
        idx: list[int] = []
        for other in self.listed[i]:
            if other not in self.index:
                raise self.fail(lineno, f"cell {name}: neighbour {other} is not a cell of the board")
            if other == name:
                raise self.fail(lineno, f"cell {name} lists itself as a neighbour")
            j = self.index[other]
            if j in idx:
                raise self.fail(lineno, f"cell {name} lists neighbour {other} twice")
            idx.append(j)
        by_coord = self.by_coord
        x, y, z = self.coords[i]
        step = 1 if x + y + z == -2 else -1
        edges = ((x + step, y, z), (x, y + step, z), (x, y, z + step))
        expected = {by_coord[c] for c in edges if c in by_coord}
        for j in idx:
            if j not in expected:
                message = f"cell {name}: {self.names[j]} does not share an edge with it (coordinates)"
                raise self.fail(lineno, message)
        for j in sorted(expected - set(idx)):
            message = f"cell {name}: its neighbour {self.names[j]} (by the coordinates) is missing"
            raise self.fail(lineno, message)
        return tuple(idx)

    def _side_cells(self, neighbours: list[tuple[int, ...]]) -> dict[str, tuple[int, ...]]:
        """The rim cells of each side: every rim cell on exactly one side, no other cell on one."""
        missing_sides = [s for s in SIDES if s not in self.sides]
        if missing_sides:
            raise self.fail(0, f"side {missing_sides[0]} is missing (sides: {' '.join(SIDES)})")
        side_cells: dict[str, tuple[int, ...]] = {}
        seen: dict[int, str] = {}
        for side in SIDES:
            cells: list[int] = []
            for name in self.sides[side]:
                if name not in self.index:
                    raise self.fail(0, f"side {side}: {name} is not a cell of the board")
                c = self.index[name]
                if c in seen:
                    raise self.fail(0, f"side {side}: {name} is already on side {seen[c]}")
                seen[c] = side
                cells.append(c)
            side_cells[side] = tuple(cells)
        rim = {i for i, nbrs in enumerate(neighbours) if len(nbrs) < 3}
        for c in sorted(rim - set(seen)):
            raise self.fail(0, f"rim cell {self.names[c]} (fewer than three neighbours) is on no side")
        for c in sorted(set(seen) - rim):
            raise self.fail(0, f"side {seen[c]}: {self.names[c]} has three neighbours, it is not a rim cell")
        return side_cells

    def _rows_mask(self) -> tuple[int, ...]:
        """Per cell, the cells of the three rows through it (ARC-B2) as a mask."""
        axis_masks: list[dict[int, int]] = [{}, {}, {}]
        for i, xyz in enumerate(self.coords):
            for axis in range(3):
                axis_masks[axis][xyz[axis]] = axis_masks[axis].get(xyz[axis], 0) | (1 << i)
        return tuple(
            axis_masks[0][xyz[0]] | axis_masks[1][xyz[1]] | axis_masks[2][xyz[2]] for xyz in self.coords
        )


def load_board(path: str | Path | None = None) -> Board:
    """The board of a data file; without ``path`` the board shipped with the package."""
    if path is None:
        return default_board()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise BoardFileError(f"cannot read board file {path}: {err.strerror}") from None
    return parse_board(text, str(path))


@cache
def default_board() -> Board:
    """The printed board (package data ``board.txt``), loaded once."""
    text = resources.files(__package__).joinpath("board.txt").read_text(encoding="utf-8")
    return parse_board(text, "archimedes board.txt")
