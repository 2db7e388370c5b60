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

#: the kinds of string tile (AGA-B1), and ``EMPTY``: a loom connection without one (AGA-B2)
KIND_NAMES = ("strength", "force", "leadership", "empty")
STRENGTH, FORCE, LEADERSHIP, EMPTY = range(len(KIND_NAMES))
STRING_KINDS = (STRENGTH, FORCE, LEADERSHIP)
#: one letter per kind, for the text view
KIND_LETTERS = "SFL-"
#: the loom's symbol classes (AGA-B2)
CLASS_NAMES = ("I", "II", "III", "IV")
SIDES = ("front", "loom")
#: the most spaces and connections a side may have (the action ids and the observation hold these)
MAX_SPACES = 33
MAX_CONNECTIONS = 66
#: spaces in play a side needs: 30 tiles and 2 spaces left empty (AGA-T1)
SPACES_IN_PLAY = 32


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


class _Section:
    """One section of the board file while it is read: its spaces and its connections."""

    def __init__(self, side: str) -> None:
        self.side = side
        self.num_spaces = -1  # until the 'spaces N' line
        self.connections: list[tuple[int, int]] = []
        self.labels: list[int] = []
        #: the line of each connection (for "already given on line ...")
        self.lines: dict[tuple[int, int], int] = {}
        self.label_names = KIND_NAMES[:3] if side == "front" else CLASS_NAMES
        self.label_word = "kind" if side == "front" else "class"


class _Reader:
    """Reads the board file line by line; each check raises :class:`BoardFileError` naming the
    file, the line and the problem."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.sections: dict[str, _Section] = {}
        self.current: _Section | None = None

    def read(self, text: str) -> dict[str, Board]:
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if line:
                self.read_line(line, number, f"{self.source} line {number}")
        boards = {side: self.board(side) for side in SIDES}
        self.check_limits(boards)
        self.check_classes(boards)
        return boards

    def read_line(self, line: str, number: int, where: str) -> None:
        if line.startswith("["):
            self.start_section(line, where)
            return
        section = self.current
        if section is None:
            raise BoardFileError(f"{where}: {line!r} comes before any section ([front] or [loom])")
        words = line.split()
        if words[0] == "spaces":
            self.read_spaces(section, words, where)
        else:
            self.read_connection(section, line, number, where)

    def start_section(self, line: str, where: str) -> None:
        side = line[1:-1].strip()
        if not line.endswith("]") or side not in SIDES:
            raise BoardFileError(f"{where}: unknown section {line!r} (sections: [front], [loom])")
        if side in self.sections:
            raise BoardFileError(f"{where}: section [{side}] appears twice")
        self.current = self.sections[side] = _Section(side)

    @staticmethod
    def read_spaces(section: _Section, words: list[str], where: str) -> None:
        if section.num_spaces >= 0:
            raise BoardFileError(f"{where}: [{section.side}] gives 'spaces' twice")
        if section.connections:
            raise BoardFileError(f"{where}: 'spaces' must come before the connections of [{section.side}]")
        if len(words) != 2 or not words[1].isdigit() or int(words[1]) < 2:
            raise BoardFileError(f"{where}: expected 'spaces N' with N a whole number >= 2")
        section.num_spaces = int(words[1])

    @staticmethod
    def read_connection(section: _Section, line: str, number: int, where: str) -> None:
        n = section.num_spaces
        if n < 0:
            raise BoardFileError(f"{where}: [{section.side}] must start with 'spaces N'")
        words = line.split()
        if len(words) != 3:
            raise BoardFileError(f"{where}: expected 'SPACE SPACE KIND', got {line!r}")
        a_text, b_text, label = words
        if not (a_text.isdigit() and b_text.isdigit()):
            raise BoardFileError(f"{where}: spaces are whole numbers, got {a_text!r} and {b_text!r}")
        a, b = int(a_text), int(b_text)
        for s in (a, b):
            if s >= n:
                raise BoardFileError(f"{where}: space {s} is out of range (spaces 0-{n - 1})")
        if a == b:
            raise BoardFileError(f"{where}: a connection joins two different spaces, not {a} and {b}")
        names = section.label_names
        if label not in names:
            raise BoardFileError(
                f"{where}: unknown {section.label_word} {label!r} (one of {', '.join(names)})"
            )
        key = (min(a, b), max(a, b))
        if key in section.lines:
            raise BoardFileError(
                f"{where}: connection {key[0]}-{key[1]} already given on line {section.lines[key]}"
            )
        section.lines[key] = number
        section.connections.append(key)
        section.labels.append(names.index(label))

    def board(self, side: str) -> Board:
        """The board of a section read completely: every space has a connection."""
        section = self.sections.get(side)
        if section is None:
            raise BoardFileError(f"{self.source}: section [{side}] is missing")
        n = section.num_spaces
        if n < 0:
            raise BoardFileError(f"{self.source}: [{side}] has no 'spaces N' line")
        touched = {s for ab in section.connections for s in ab}
        lonely = [s for s in range(n) if s not in touched]
        if lonely:
            raise BoardFileError(f"{self.source}: [{side}] space {lonely[0]} has no connection")
        return Board(side, n, tuple(section.connections), tuple(section.labels))

    def check_limits(self, boards: dict[str, Board]) -> None:
        """The engine's limits: the action ids and the observation hold at most 33 spaces and 66
        connections; 30 tiles and 2 empty spaces need 32 spaces in play (AGA-T1)."""
        for side, board in boards.items():
            if board.num_spaces > MAX_SPACES:
                raise BoardFileError(
                    f"{self.source}: [{side}] has {board.num_spaces} spaces (at most {MAX_SPACES})"
                )
            if board.num_connections > MAX_CONNECTIONS:
                raise BoardFileError(
                    f"{self.source}: [{side}] has {board.num_connections} connections "
                    f"(at most {MAX_CONNECTIONS})"
                )
            if board.num_spaces - (1 if side == "loom" else 0) < SPACES_IN_PLAY:
                raise BoardFileError(
                    f"{self.source}: [{side}] needs {SPACES_IN_PLAY} spaces in play for 30 tiles and 2 "
                    "empty spaces"
                )

    def check_classes(self, boards: dict[str, Board]) -> None:
        """Every loom class leaves exactly one out-of-play space (AGA-B2); the front has every kind."""
        loom = boards["loom"]
        for cls in range(len(CLASS_NAMES)):
            if cls not in loom.labels:
                raise BoardFileError(f"{self.source}: [loom] has no connection of class {CLASS_NAMES[cls]}")
            try:
                loom.out_of_play(cls)
            except BoardFileError as err:
                raise BoardFileError(f"{self.source}: {err}") from None
        for kind in STRING_KINDS:
            if kind not in boards["front"].labels:
                raise BoardFileError(f"{self.source}: [front] has no {KIND_NAMES[kind]} connection")


def parse_boards(text: str, source: str = "boards.txt") -> dict[str, Board]:
    """Read the board file format; returns ``{"front": Board, "loom": Board}``."""
    return _Reader(source).read(text)


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
