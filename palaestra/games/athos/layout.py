"""The ``layout`` option of Athos: the board as data (ATH-B2), never as a path.

``layout`` is a document option (``Option(kind=dict)``, palaestra/core/game.py): the name of a
board Palaestra ships (``"standard"``), or a board document — the JSON object of a board file
(docs/athos.md, format 1) — which :func:`~palaestra.games.athos.board.board_from_dict` validates
like a file (a clear ``BoardFileError``, an ``OptionError``, for anything it cannot play on). The
web app passes it through untouched and nothing is opened but the shipped file; a game record
holds the document itself, so it replays on any machine. The command line keeps ``board=FILE``
(``--board``) for the owner's own files; the two cannot be combined.
"""

from __future__ import annotations

import functools
import json

from palaestra.core.errors import OptionError
from palaestra.core.game import Option
from palaestra.games.athos.board import BOARD_FILE, Board, board_from_dict, load_board

#: the boards Palaestra ships, by name
SHIPPED = {"standard": BOARD_FILE}

LAYOUT_OPTION = Option(
    "layout",
    dict,
    None,
    "the board as data: 'standard' (Palaestra's own) or a board document (docs/athos.md)",
    choices=tuple(SHIPPED),
)


def layout_board(layout: object, path: object) -> Board:
    """The board a ``layout`` option (parsed: a shipped name or a JSON object) names or holds;
    ``path`` is the ``board`` file option."""
    if path is not None:
        raise OptionError("give the board as a file (board) or as data (layout), not both")
    if isinstance(layout, str) and layout in SHIPPED:
        return _shipped(layout)
    if not isinstance(layout, dict):
        raise OptionError(f"layout is {' or '.join(SHIPPED)} or a board document, not {layout!r:.80}")
    return _document(json.dumps(layout, sort_keys=True, separators=(",", ":")))


@functools.lru_cache(maxsize=len(SHIPPED))
def _shipped(name: str) -> Board:
    return load_board(SHIPPED[name])


@functools.lru_cache(maxsize=16)
def _document(text: str) -> Board:
    """A board document's board, built once per document (games of one document share it)."""
    return board_from_dict(json.loads(text), "(the layout document)")
