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
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from palaestra.core.errors import BoardFileError

START_LETTERS = "ABCDE"
SUMMIT_NAME = "summit"
BOARD_FILE = Path(__file__).with_name("board.json")

# Hex directions in cyclic order around a field (doubled coordinates): E, NE, NW, W, SW, SE.
RING = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


class Board:
    """An immutable board: fields, terrains, adjacency. Build with :func:`load_board`."""

    def __init__(
        self,
        name: str,
        terrains: list[str],
        cells: list[tuple[int, int, int]],
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
        self.terrain = [t for _, _, t in cells] + [-1] * 6
        self.ordinary = range(self.n)
        self.start_ids = [self.n + i for i in range(5)]
        self.summit = self.n + 5
        self.size = self.n + 6  # all nodes
        self.names = [f"{chr(ord('a') + c)}{r}" for c, r, _ in cells] + list(START_LETTERS) + [SUMMIT_NAME]
        self.index = {name.lower(): i for i, name in enumerate(self.names)}
        self.index["s"] = self.summit
        by_coord = {(c, r): i for i, (c, r, _) in enumerate(cells)}
        self.by_coord = by_coord
        adj: list[set[int]] = [set() for _ in range(self.size)]
        # ring[f]: the 6 positions around an ordinary field in cyclic order (node id or -1)
        self.ring: list[tuple[int, ...]] = []
        for i, (c, r, _) in enumerate(cells):
            ring = []
            for dc, dr in RING:
                j = by_coord.get((c + dc, r + dr), -1)
                ring.append(j)
                if j >= 0:
                    adj[i].add(j)
            self.ring.append(tuple(ring))
        for k, letter in enumerate(START_LETTERS):
            s = self.n + k
            for f in starts[letter]:
                adj[s].add(f)
                adj[f].add(s)
            if k > 0:
                adj[s].add(s - 1)
                adj[s - 1].add(s)
        for f in summit:
            adj[self.summit].add(f)
            adj[f].add(self.summit)
        self.adj: list[tuple[int, ...]] = [tuple(sorted(a)) for a in adj]
        #: ordinary fields touching a start field or the summit (the local path test does not apply)
        self.special_neighbour = [any(j >= self.n for j in self.adj[f]) for f in range(self.n)]
        self.fields_of_terrain: list[list[int]] = [
            [f for f in range(self.n) if self.terrain[f] == t] for t in range(len(terrains))
        ]
        self.min_row = min(self.rows)
        self.max_row = max(self.rows)
        self.max_col = max(self.cols)
        self.min_col = min(self.cols)
        # directed edges: step action ids
        self.edges: list[tuple[int, int]] = [(u, v) for u in range(self.size) for v in self.adj[u]]
        self.edge_id = {e: i for i, e in enumerate(self.edges)}
        #: for every node, its neighbours with the id of the step there: ((v, step id), ...)
        self.out: list[tuple[tuple[int, int], ...]] = [
            tuple((v, self.edge_id[(u, v)]) for v in self.adj[u]) for u in range(self.size)
        ]

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
            seen: set[int] = set()
            groups = []
            for f in fields:
                if f in seen:
                    continue
                group = []
                stack = [f]
                seen.add(f)
                while stack:
                    u = stack.pop()
                    group.append(u)
                    for v in self.adj[u]:
                        if v < self.n and v not in seen and self.terrain[v] == t:
                            seen.add(v)
                            stack.append(v)
                groups.append(sorted(group))
            out[t] = groups
        return out

    def reachable(self, source: int) -> set[int]:
        seen = {source}
        stack = [source]
        while stack:
            u = stack.pop()
            for v in self.adj[u]:
                if v not in seen:
                    seen.add(v)
                    stack.append(v)
        return seen

    def cut_fields(self) -> list[int]:
        """Ordinary fields whose removal (one rubble tile on an empty board) splits the board."""
        out = []
        for f in range(self.n):
            rest = [u for u in range(self.size) if u != f]
            seen = {rest[0]}
            stack = [rest[0]]
            while stack:
                u = stack.pop()
                for v in self.adj[u]:
                    if v != f and v not in seen:
                        seen.add(v)
                        stack.append(v)
            if len(seen) != len(rest):
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


def _name(c: int, r: int) -> str:
    return f"{chr(ord('a') + c)}{r}"


def board_from_dict(doc: Any, source: str = "<board>") -> Board:
    """Validate a parsed board document and build the :class:`Board`."""
    if not isinstance(doc, Mapping):
        raise _fail(source, "is not a JSON object")
    if doc.get("format") != 1:
        raise _fail(source, f"unknown format {doc.get('format')!r} (this version reads 1)")
    name = doc.get("name", "unnamed board")
    if not isinstance(name, str):
        raise _fail(source, "'name' is a text")
    terrains = doc.get("terrains")
    if (
        not isinstance(terrains, list)
        or not all(isinstance(t, str) and t for t in terrains)
        or len(set(terrains)) != len(terrains)
    ):
        raise _fail(source, "'terrains' is a list of distinct terrain names")
    if len(terrains) != 5:
        raise _fail(source, f"'terrains' names {len(terrains)} terrains; Athos has 5 (ATH-B3)")
    raw_fields = doc.get("fields")
    if not isinstance(raw_fields, list) or not raw_fields:
        raise _fail(source, "'fields' is a non-empty list")
    cells: list[tuple[int, int, int]] = []
    seen: dict[tuple[int, int], int] = {}
    parity = None
    for k, item in enumerate(raw_fields):
        where = f"field {k + 1} of 'fields'"
        if not isinstance(item, Mapping):
            raise _fail(source, f"{where} is not an object with col, row and terrain")
        c, r, t = item.get("col"), item.get("row"), item.get("terrain")
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c <= 25:
            raise _fail(source, f"{where}: 'col' is a whole number from 0 to 25, not {c!r}")
        if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= 99:
            raise _fail(source, f"{where}: 'row' is a whole number from 1 to 99, not {r!r}")
        if t not in terrains:
            raise _fail(source, f"field {_name(c, r)} has unknown terrain {t!r}")
        if (c, r) in seen:
            raise _fail(source, f"field {_name(c, r)} is listed twice")
        if parity is None:
            parity = (c + r) % 2
        elif (c + r) % 2 != parity:
            raise _fail(
                source,
                f"field {_name(c, r)} is off the hex grid (col + row must have the same parity "
                "for every field in doubled coordinates)",
            )
        seen[(c, r)] = k
        cells.append((c, r, terrains.index(t)))
    cells.sort(key=lambda x: (x[1], x[0]))
    ids = {_name(c, r): i for i, (c, r, _) in enumerate(cells)}
    bottom = min(r for _, r, _ in cells)
    top = max(r for _, r, _ in cells)
    starts_doc = doc.get("starts")
    if not isinstance(starts_doc, Mapping) or sorted(starts_doc) != list(START_LETTERS):
        raise _fail(source, "'starts' maps exactly the start fields A, B, C, D, E to field lists")
    starts: dict[str, list[int]] = {}
    for letter in START_LETTERS:
        names = starts_doc[letter]
        if not isinstance(names, list) or not names or not all(isinstance(x, str) for x in names):
            raise _fail(source, f"start field {letter} needs a non-empty list of field names")
        fields = []
        for x in names:
            if x.lower() not in ids:
                raise _fail(source, f"start field {letter} touches {x!r}, which is not a field")
            f = ids[x.lower()]
            if cells[f][1] != bottom:
                raise _fail(source, f"start field {letter} touches {x}, which is not in the bottom row")
            fields.append(f)
        if len(set(fields)) != len(fields):
            raise _fail(source, f"start field {letter} lists a field twice")
        starts[letter] = fields
    summit_doc = doc.get("summit")
    if not isinstance(summit_doc, list) or not all(isinstance(x, str) for x in summit_doc):
        raise _fail(source, "'summit' is a list of the 7 field names the summit touches")
    summit = []
    for x in summit_doc:
        if x.lower() not in ids:
            raise _fail(source, f"the summit touches {x!r}, which is not a field")
        f = ids[x.lower()]
        if cells[f][1] < top - 1:
            raise _fail(source, f"the summit touches {x}, which is not at the top of the board")
        summit.append(f)
    if len(set(summit)) != 7:
        raise _fail(source, f"the summit touches {len(set(summit))} distinct fields; ATH-B1 wants 7")
    board = Board(name, list(terrains), cells, starts, summit, source)
    missing = set(range(board.size)) - board.reachable(board.start_ids[0])
    if missing:
        raise _fail(source, f"{board.names[min(missing)]} cannot be reached from the start fields")
    return board


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
