"""The Athos board: loading and validating a board data file (ATH-B1, ATH-B2).

A board file is JSON (documented in docs/athos.md)::

    {"format": 1, "name": "...", "terrains": ["meadow", "forest", "olive", "heath", "vine"],
     "fields": [{"col": 3, "row": 1, "terrain": "forest"}, ...],
     "starts": {"A": ["d1", "f1"], "B": [...], "C": [...], "D": [...], "E": [...]},
     "summit": ["g16", "i16", ...]}

Ordinary fields are hexes in *doubled* coordinates: a field at ``(col, row)`` touches the fields at
``(col +- 2, row)`` and ``(col +- 1, row +- 1)`` that exist; all fields share the parity of
``col + row``. Row 1 is the broad bottom edge. A field is named by its column letter (``a`` = 0)
and its row number: ``d1``, ``g7``, ``h16``. The five start fields ``A``-``E`` and the summit are
single special fields; the file lists the ordinary fields each of them touches. Start fields also
touch their neighbouring start fields (A-B, B-C, C-D, D-E).

Node ids used by the engine: ordinary fields ``0 .. N-1`` in (row, col) order, then the start
fields A-E (``N .. N+4``), then the summit (``N+5``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from palaestra.core.errors import BoardFileError
from palaestra.core.game import is_int

START_LETTERS = "ABCDE"
#: terrains of a board (ATH-B3)
TERRAINS = 5
#: fields the summit touches (ATH-B1)
SUMMIT_FIELDS = 7
#: the largest column and row of a field in a board file
MAX_COL, MAX_ROW = 25, 99
SUMMIT_NAME = "summit"
BOARD_FILE = Path(__file__).with_name("board.json")

# Hex directions in cyclic order around a field (doubled coordinates): E, NE, NW, W, SW, SE.
RING = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


def walk(
    adj: Sequence[Sequence[int]], sources: Iterable[int], blocked: Sequence[bool], limit: int = -1
) -> Iterator[tuple[int, int]]:
    """The one graph walk of Athos: breadth first from ``sources`` over the nodes that are not
    ``blocked`` (a node may be entered only if ``blocked[node]`` is false; the sources themselves
    are not checked), yielding ``(node, steps)`` in order of steps from the nearest source (the
    sources first, at 0), at most ``limit`` steps (-1: no limit). A caller may stop early."""
    frontier = list(dict.fromkeys(sources))
    seen = set(frontier)
    for node in frontier:
        yield node, 0
    steps = 0
    while frontier and steps != limit:
        steps += 1
        reached = []
        for u in frontier:
            for w in adj[u]:
                if w not in seen and not blocked[w]:
                    seen.add(w)
                    reached.append(w)
                    yield w, steps
        frontier = reached


class Cell(NamedTuple):
    """An ordinary field as a board file gives it: its doubled coordinates and terrain index."""

    col: int
    row: int
    terrain: int


def field_name(col: int, row: int) -> str:
    """The name of the field at ``(col, row)``: its column letter (``a`` = 0) and its row."""
    return f"{chr(ord('a') + col)}{row}"


class Board:
    """An immutable board: fields, terrains, adjacency. Build with :func:`load_board`."""

    def __init__(
        self,
        name: str,
        terrains: list[str],
        cells: Sequence[tuple[int, int, int]],
        starts: dict[str, list[int]],
        summit: list[int],
        source: str,
    ) -> None:
        self.title = name
        self.source = source
        self.terrains = terrains
        self.n = len(cells)  # ordinary fields
        self.cols = [c for c, _, _ in cells]
        self.rows = [r for _, r, _ in cells]
        self.terrain = [t for _, _, t in cells] + [-1] * (len(START_LETTERS) + 1)
        self.ordinary = range(self.n)
        self.start_ids = [self.n + i for i in range(len(START_LETTERS))]
        self.summit = self.n + len(START_LETTERS)
        self.size = self.summit + 1  # all nodes
        self.names = [field_name(c, r) for c, r, _ in cells] + list(START_LETTERS) + [SUMMIT_NAME]
        self.index = {name.lower(): i for i, name in enumerate(self.names)}
        self.index["s"] = self.summit
        self.by_coord = {(c, r): i for i, (c, r, _) in enumerate(cells)}
        #: ring[f]: the 6 positions around an ordinary field in cyclic order (node id or -1)
        self.ring: list[tuple[int, ...]] = [
            tuple(self.by_coord.get((c + dc, r + dr), -1) for dc, dr in RING) for c, r, _ in cells
        ]
        self.adj: list[tuple[int, ...]] = self._adjacency(starts, summit)
        #: ordinary fields touching a start field or the summit (the local path test does not apply)
        self.special_neighbour = [any(j >= self.n for j in self.adj[f]) for f in range(self.n)]
        self.fields_of_terrain: list[list[int]] = [
            [f for f in range(self.n) if self.terrain[f] == t] for t in range(len(terrains))
        ]
        self.min_row = min(self.rows)
        self.max_row = max(self.rows)
        self.max_col = max(self.cols)
        self.min_col = min(self.cols)
        #: directed edges (neighbour pairs): their positions are the step action ids
        self.edges: list[tuple[int, int]] = [(u, v) for u in range(self.size) for v in self.adj[u]]
        self.edge_id = {e: i for i, e in enumerate(self.edges)}
        #: for every node, its neighbours with the id of the step there: ((v, step id), ...)
        self.out: list[tuple[tuple[int, int], ...]] = self._steps()

    def _steps(self) -> list[tuple[tuple[int, int], ...]]:
        return [tuple((v, self.edge_id[(u, v)]) for v in self.adj[u]) for u in range(self.size)]

    def _adjacency(self, starts: dict[str, list[int]], summit: list[int]) -> list[tuple[int, ...]]:
        """ATH-B1: the hex neighbours of each field, the bottom fields and neighbouring start fields
        of each start field, the summit's fields; sorted neighbour ids of every node."""
        adj: list[set[int]] = [set() for _ in range(self.size)]

        def join(u: int, v: int) -> None:
            adj[u].add(v)
            adj[v].add(u)

        for f, ring in enumerate(self.ring):
            for j in ring:
                if j >= 0:
                    join(f, j)
        for k, letter in enumerate(START_LETTERS):
            for f in starts[letter]:
                join(self.start_ids[k], f)
            if k > 0:
                join(self.start_ids[k], self.start_ids[k - 1])
        for f in summit:
            join(self.summit, f)
        return [tuple(sorted(a)) for a in adj]

    # --- lookup ------------------------------------------------------------------------------
    def field(self, name: str) -> int:
        """The node id of a field name (``g7``, ``A``, ``summit``); -1 if there is none."""
        return self.index.get(name.strip().lower(), -1)

    def third(self, f: int) -> int:
        """0, 1, 2: the lower, middle or upper third of the board (by row)."""
        height = self.max_row - self.min_row + 1
        return (self.rows[f] - self.min_row) * 3 // height

    # --- analysis (tests, generator, docs) -----------------------------------------------------
    def patches(self) -> dict[int, list[list[int]]]:
        """The connected patches of each terrain (by terrain index)."""
        out: dict[int, list[list[int]]] = {}
        for t, fields in enumerate(self.fields_of_terrain):
            other = [self.terrain[v] != t for v in range(self.size)]
            seen: set[int] = set()
            groups = []
            for f in fields:
                if f not in seen:
                    group = sorted(v for v, _ in walk(self.adj, [f], other))
                    seen.update(group)
                    groups.append(group)
            out[t] = groups
        return out

    def reachable(self, source: int) -> set[int]:
        return {v for v, _ in walk(self.adj, [source], [False] * self.size)}

    def cut_fields(self) -> list[int]:
        """Ordinary fields whose removal (one rubble tile on an empty board) splits the board."""
        out = []
        for f in range(self.n):
            removed = [v == f for v in range(self.size)]
            source = 1 if f == 0 else 0
            if sum(1 for _ in walk(self.adj, [source], removed)) != self.size - 1:
                out.append(f)
        return out


def design_problems(board: Board) -> list[str]:
    """The ATH-B2 (and ATH-B1 summit) constraints this board breaks; [] for a board that meets them."""
    problems = []
    if board.n < 110:
        problems.append(f"only {board.n} ordinary fields (ATH-B2 wants at least 110)")
    if len(board.terrains) != 5:
        problems.append(f"{len(board.terrains)} terrains (ATH-B2 wants 5)")
    patches = board.patches()
    for t, name in enumerate(board.terrains):
        count = len(board.fields_of_terrain[t])
        if not 20 <= count <= 30:
            problems.append(f"terrain {name} has {count} fields (ATH-B2 wants 20 to 30)")
        if len(patches[t]) < 2:
            problems.append(f"terrain {name} is one patch (ATH-B2 wants at least two)")
        thirds = {board.third(f) for f in board.fields_of_terrain[t]}
        for k, where in enumerate(("lower", "middle", "upper")):
            if k not in thirds:
                problems.append(f"terrain {name} is missing from the {where} third")
    if len(board.adj[board.summit]) != 7:
        problems.append(f"the summit touches {len(board.adj[board.summit])} fields (ATH-B1 wants 7)")
    for s in board.start_ids:
        missing = set(range(board.size)) - board.reachable(s)
        if missing:
            problems.append(f"{board.names[min(missing)]} cannot be reached from {board.names[s]}")
    return problems


def _fail(source: str, message: str) -> BoardFileError:
    return BoardFileError(f"board file {source}: {message}")


def board_from_dict(doc: Any, source: str = "<board>") -> Board:
    """Validate a parsed board document and build the :class:`Board`."""
    return _BoardReader(source).read(doc)


class _BoardReader:
    """Reads a board document section by section; each check raises :class:`BoardFileError`
    naming the file and the problem."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.terrains: list[str] = []
        #: (col, row, terrain index) of every field, sorted by (row, col) once read
        self.cells: list[Cell] = []
        self.ids: dict[str, int] = {}

    def fail(self, message: str) -> BoardFileError:
        return _fail(self.source, message)

    def read(self, doc: Any) -> Board:
        if not isinstance(doc, Mapping):
            raise self.fail("is not a JSON object")
        if doc.get("format") != 1:
            raise self.fail(f"unknown format {doc.get('format')!r} (this version reads 1)")
        name = doc.get("name", "unnamed board")
        if not isinstance(name, str):
            raise self.fail("'name' is a text")
        self.terrains = self._terrains(doc.get("terrains"))
        self._fields(doc.get("fields"))
        starts = self._starts(doc.get("starts"))
        summit = self._summit(doc.get("summit"))
        board = Board(name, list(self.terrains), self.cells, starts, summit, self.source)
        missing = set(range(board.size)) - board.reachable(board.start_ids[0])
        if missing:
            raise self.fail(f"{board.names[min(missing)]} cannot be reached from the start fields")
        return board

    def _terrains(self, terrains: object) -> list[str]:
        if (
            not isinstance(terrains, list)
            or not all(isinstance(t, str) and t for t in terrains)
            or len(set(terrains)) != len(terrains)
        ):
            raise self.fail("'terrains' is a list of distinct terrain names")
        if len(terrains) != TERRAINS:
            raise self.fail(f"'terrains' names {len(terrains)} terrains; Athos has {TERRAINS} (ATH-B3)")
        return terrains

    def _fields(self, raw_fields: object) -> None:
        if not isinstance(raw_fields, list) or not raw_fields:
            raise self.fail("'fields' is a non-empty list")
        parity = None
        seen: set[tuple[int, int]] = set()
        for k, item in enumerate(raw_fields):
            c, r, t = self._field(k, item)
            if (c, r) in seen:
                raise self.fail(f"field {field_name(c, r)} is listed twice")
            if parity is None:
                parity = (c + r) % 2
            elif (c + r) % 2 != parity:
                raise self.fail(
                    f"field {field_name(c, r)} is off the hex grid (col + row must have the same "
                    "parity for every field in doubled coordinates)"
                )
            seen.add((c, r))
            self.cells.append(Cell(c, r, t))
        self.cells.sort(key=lambda cell: (cell.row, cell.col))
        self.ids = {field_name(c, r): i for i, (c, r, _) in enumerate(self.cells)}

    def _field(self, k: int, item: object) -> tuple[int, int, int]:
        where = f"field {k + 1} of 'fields'"
        if not isinstance(item, Mapping):
            raise self.fail(f"{where} is not an object with col, row and terrain")
        c, r, t = item.get("col"), item.get("row"), item.get("terrain")
        if not is_int(c) or not 0 <= c <= MAX_COL:
            raise self.fail(f"{where}: 'col' is a whole number from 0 to {MAX_COL}, not {c!r}")
        if not is_int(r) or not 1 <= r <= MAX_ROW:
            raise self.fail(f"{where}: 'row' is a whole number from 1 to {MAX_ROW}, not {r!r}")
        if t not in self.terrains:
            raise self.fail(f"field {field_name(c, r)} has unknown terrain {t!r}")
        return c, r, self.terrains.index(t)

    def _named(self, x: str, what: str) -> int:
        """The field a start field or the summit lists (``what`` begins the message)."""
        if x.lower() not in self.ids:
            raise self.fail(f"{what} {x!r}, which is not a field")
        return self.ids[x.lower()]

    def _starts(self, starts_doc: object) -> dict[str, list[int]]:
        if not isinstance(starts_doc, Mapping) or sorted(starts_doc) != list(START_LETTERS):
            raise self.fail("'starts' maps exactly the start fields A, B, C, D, E to field lists")
        bottom = min(cell.row for cell in self.cells)
        starts: dict[str, list[int]] = {}
        for letter in START_LETTERS:
            names = starts_doc[letter]
            if not isinstance(names, list) or not names or not all(isinstance(x, str) for x in names):
                raise self.fail(f"start field {letter} needs a non-empty list of field names")
            fields = []
            for x in names:
                f = self._named(x, f"start field {letter} touches")
                if self.cells[f].row != bottom:
                    raise self.fail(f"start field {letter} touches {x}, which is not in the bottom row")
                fields.append(f)
            if len(set(fields)) != len(fields):
                raise self.fail(f"start field {letter} lists a field twice")
            starts[letter] = fields
        return starts

    def _summit(self, summit_doc: object) -> list[int]:
        if not isinstance(summit_doc, list) or not all(isinstance(x, str) for x in summit_doc):
            raise self.fail(f"'summit' is a list of the {SUMMIT_FIELDS} field names the summit touches")
        top = max(cell.row for cell in self.cells)
        summit = []
        for x in summit_doc:
            f = self._named(x, "the summit touches")
            if self.cells[f].row < top - 1:
                raise self.fail(f"the summit touches {x}, which is not at the top of the board")
            summit.append(f)
        if len(set(summit)) != SUMMIT_FIELDS:
            raise self.fail(
                f"the summit touches {len(set(summit))} distinct fields; ATH-B1 wants {SUMMIT_FIELDS}"
            )
        return summit


def load_board(path: str | Path | None = None) -> Board:
    """Load and validate a board file (``None``: the shipped board)."""
    p = BOARD_FILE if path is None else Path(path)
    source = "palaestra board" if path is None else str(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise _fail(source, f"cannot be read ({err.strerror})") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        raise _fail(source, f"is not valid JSON (line {err.lineno}: {err.msg})") from None
    return board_from_dict(doc, source)
