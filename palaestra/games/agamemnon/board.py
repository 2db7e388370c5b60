"""The two sides of the Agamemnon board, loaded from the package's data file ``boards.txt``.

The file format (documented in docs/agamemnon.md)::

    # a comment
    [front]
    spaces 32
    0 1 strength
    ...
    [loom]
    spaces 33
    0 1 I
    ...

A section names a board side; ``spaces N`` (first line of a section) numbers its spaces 0..N-1;
each further line is a connection ``a b LABEL``. On the front the label is the printed string kind
(``strength``, ``force``, ``leadership``); on the loom it is the symbol class (``I`` .. ``IV``).
The loader checks the file thoroughly and raises :class:`BoardFileError` naming the line and the
problem: a game never starts on a broken board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from palaestra.core.errors import BoardFileError

KIND_NAMES = ("strength", "force", "leadership", "empty")
CLASS_NAMES = ("I", "II", "III", "IV")
SIDES = ("front", "loom")


@dataclass(frozen=True)
class Board:
    """One side of the board, with the adjacency the engine needs precomputed.

    ``labels[c]`` is the kind (0 strength, 1 force, 2 leadership) of connection ``c`` on the
    front, its symbol class (0..3 for I..IV) on the loom. Connections are stored with ``a < b``.
    """

    side: str
    num_spaces: int
    connections: tuple[tuple[int, int], ...]
    labels: tuple[int, ...]
    #: connection ids touching each space
    incident: tuple[tuple[int, ...], ...] = field(init=False)
    #: every pair of connections sharing a space: (c1, c2, space) with c1 < c2 (Warp swaps)
    pairs: tuple[tuple[int, int, int], ...] = field(init=False)
    #: ids of the pairs (index into ``pairs``) at each space
    pairs_at: tuple[tuple[int, ...], ...] = field(init=False)
    #: connection id of (a, b) with a < b
    conn_id: dict[tuple[int, int], int] = field(init=False, compare=False, hash=False)
    #: pair id of (c1, c2) with c1 < c2
    pair_id: dict[tuple[int, int], int] = field(init=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        incident: list[list[int]] = [[] for _ in range(self.num_spaces)]
        for c, (a, b) in enumerate(self.connections):
            incident[a].append(c)
            incident[b].append(c)
        pairs: list[tuple[int, int, int]] = []
        pairs_at: list[list[int]] = [[] for _ in range(self.num_spaces)]
        for s in range(self.num_spaces):
            cs = sorted(incident[s])
            for i, c1 in enumerate(cs):
                for c2 in cs[i + 1 :]:
                    pairs_at[s].append(len(pairs))
                    pairs.append((c1, c2, s))
        object.__setattr__(self, "incident", tuple(tuple(x) for x in incident))
        object.__setattr__(self, "pairs", tuple(pairs))
        object.__setattr__(self, "pairs_at", tuple(tuple(x) for x in pairs_at))
        object.__setattr__(self, "conn_id", {ab: c for c, ab in enumerate(self.connections)})
        object.__setattr__(self, "pair_id", {(c1, c2): p for p, (c1, c2, _) in enumerate(pairs)})

    @property
    def num_connections(self) -> int:
        return len(self.connections)

    def out_of_play(self, empty_class: int) -> int:
        """Loom: the one space whose connections all belong to ``empty_class`` (AGA-B2)."""
        found = [
            s for s in range(self.num_spaces) if all(self.labels[c] == empty_class for c in self.incident[s])
        ]
        if len(found) != 1:
            raise BoardFileError(
                f"loom: with class {CLASS_NAMES[empty_class]} empty, {len(found)} spaces have only "
                "empty connections (exactly one must)"
            )
        return found[0]


def parse_boards(text: str, source: str = "boards.txt") -> dict[str, Board]:
    """Read the board file format; returns ``{"front": Board, "loom": Board}``."""
    sections: dict[str, tuple[int, list[tuple[int, int]], list[int], dict[tuple[int, int], int]]] = {}
    current: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        where = f"{source} line {number}"
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            if not line.endswith("]") or line[1:-1].strip() not in SIDES:
                raise BoardFileError(f"{where}: unknown section {line!r} (sections: [front], [loom])")
            current = line[1:-1].strip()
            if current in sections:
                raise BoardFileError(f"{where}: section [{current}] appears twice")
            sections[current] = (-1, [], [], {})
            continue
        if current is None:
            raise BoardFileError(f"{where}: {line!r} comes before any section ([front] or [loom])")
        n, conns, labels, seen = sections[current]
        words = line.split()
        if words[0] == "spaces":
            if n >= 0:
                raise BoardFileError(f"{where}: [{current}] gives 'spaces' twice")
            if conns:
                raise BoardFileError(f"{where}: 'spaces' must come before the connections of [{current}]")
            if len(words) != 2 or not words[1].isdigit() or int(words[1]) < 2:
                raise BoardFileError(f"{where}: expected 'spaces N' with N a whole number >= 2")
            sections[current] = (int(words[1]), conns, labels, seen)
            continue
        if n < 0:
            raise BoardFileError(f"{where}: [{current}] must start with 'spaces N'")
        if len(words) != 3:
            raise BoardFileError(f"{where}: expected 'SPACE SPACE KIND', got {line!r}")
        a_text, b_text, label_text = words
        if not (a_text.isdigit() and b_text.isdigit()):
            raise BoardFileError(f"{where}: spaces are whole numbers, got {a_text!r} and {b_text!r}")
        a, b = int(a_text), int(b_text)
        for s in (a, b):
            if s >= n:
                raise BoardFileError(f"{where}: space {s} is out of range (spaces 0-{n - 1})")
        if a == b:
            raise BoardFileError(f"{where}: a connection joins two different spaces, not {a} and {b}")
        names = KIND_NAMES[:3] if current == "front" else CLASS_NAMES
        if label_text not in names:
            raise BoardFileError(
                f"{where}: unknown {'kind' if current == 'front' else 'class'} {label_text!r} "
                f"(one of {', '.join(names)})"
            )
        key = (min(a, b), max(a, b))
        if key in seen:
            raise BoardFileError(f"{where}: connection {key[0]}-{key[1]} already given on line {seen[key]}")
        seen[key] = number
        conns.append(key)
        labels.append(names.index(label_text))
    boards: dict[str, Board] = {}
    for side in SIDES:
        if side not in sections:
            raise BoardFileError(f"{source}: section [{side}] is missing")
        n, conns, labels, _ = sections[side]
        if n < 0:
            raise BoardFileError(f"{source}: [{side}] has no 'spaces N' line")
        degree = [0] * n
        for a, b in conns:
            degree[a] += 1
            degree[b] += 1
        lonely = [s for s in range(n) if degree[s] == 0]
        if lonely:
            raise BoardFileError(f"{source}: [{side}] space {lonely[0]} has no connection")
        boards[side] = Board(side, n, tuple(conns), tuple(labels))
    for side, board in boards.items():
        if board.num_spaces > 33:
            raise BoardFileError(f"{source}: [{side}] has {board.num_spaces} spaces (at most 33)")
        if board.num_connections > 66:
            raise BoardFileError(f"{source}: [{side}] has {board.num_connections} connections (at most 66)")
        if board.num_spaces - (1 if side == "loom" else 0) < 32:
            raise BoardFileError(
                f"{source}: [{side}] needs 32 spaces in play for 30 tiles and 2 empty spaces"
            )
    loom = boards["loom"]
    for cls in range(4):
        if cls not in loom.labels:
            raise BoardFileError(f"{source}: [loom] has no connection of class {CLASS_NAMES[cls]}")
        try:
            loom.out_of_play(cls)
        except BoardFileError as err:
            raise BoardFileError(f"{source}: {err}") from None
    for kind in range(3):
        if kind not in boards["front"].labels:
            raise BoardFileError(f"{source}: [front] has no {KIND_NAMES[kind]} connection")
    return boards


def load_boards(path: str | Path | None = None) -> dict[str, Board]:
    """Load a board file (the package's own ``boards.txt`` when ``path`` is None)."""
    if path is None:
        return _package_boards()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise BoardFileError(f"cannot read board file {path}: {err.strerror}") from None
    return parse_boards(text, str(path))


@lru_cache(maxsize=1)
def _package_boards() -> dict[str, Board]:
    text = resources.files("palaestra.games.agamemnon").joinpath("boards.txt").read_text(encoding="utf-8")
    return parse_boards(text, "boards.txt")
