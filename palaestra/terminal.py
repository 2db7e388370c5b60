"""Screens for ``palaestra play``: every screen fits the terminal (an 80×24 one included).

A screen is the board, made compact enough to fit, the messages of the last step (the other
players' moves, an error, the output of ``help`` or ``moves``) and the prompt. On a terminal each
screen starts on a cleared screen, so nothing the player needs scrolls away; output to a pipe is
the same text without the clearing. What does not fit stays one command away: ``board`` pages the
full board with its legend, ``info`` the details under it.
"""

from __future__ import annotations

import re
import shutil
import sys
import textwrap
from collections.abc import Callable
from typing import TextIO

from palaestra.core.errors import PalaestraError
from palaestra.core.info import TerminalView
from palaestra.core.registry import game_info
from palaestra.i18n import tr

CLEAR = "\x1b[H\x1b[2J"


def terminal_size() -> tuple[int, int]:
    """(columns, lines) of the terminal, 80×24 when unknown."""
    size = shutil.get_terminal_size((80, 24))
    return max(size.columns, 40), max(size.lines, 10)


def wrap(lines: list[str], width: int) -> list[str]:
    """Lines no wider than ``width`` (long ones wrapped with an indent), so that counting them counts rows."""
    out: list[str] = []
    for line in lines:
        line = line.rstrip()
        if len(line) <= width:
            out.append(line)
            continue
        indent = len(line) - len(line.lstrip())
        out.extend(
            textwrap.wrap(
                line,
                width=width,
                initial_indent="",
                subsequent_indent=" " * min(indent + 2, width // 2),
                break_on_hyphens=False,
            )
            or [""]
        )
    return out


# --- compact boards ----------------------------------------------------------------------------
def _compact_generic(text: str, width: int, to_info: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """The board (up to the first blank line) and its status lines; the status lines that start
    with one of ``to_info`` (the game's ``TerminalView.details``) go to ``info``."""
    lines = text.splitlines()
    try:
        cut = next(i for i, line in enumerate(lines) if not line.strip() and i > 0)
    except StopIteration:
        return lines, []
    board, details = lines[:cut], [line for line in lines[cut + 1 :] if line.strip()]
    keep: list[str] = []
    later: list[str] = []
    players: list[str] = []
    for line in details:
        if re.match(r"^\s*\d+\s*[=:]\s", line):  # one line per player: joined into one
            players.append(line.strip())
        elif to_info and line.startswith(to_info):
            later.append(line)
        else:
            keep.append(line)
    if players:  # after the status lines (whose turn, which phase): those matter most
        keep.append(" · ".join(players))
    return board + keep, later


def compact_board(game_name: str, text: str, width: int) -> tuple[list[str], list[str]]:
    """(what the screen shows, what ``info`` adds) for a game's text board: the game's own
    compaction where it declares one (``GameInfo.terminal``), else the generic one."""
    try:
        view = game_info(game_name).terminal
        own = game_info(game_name).terminal_compact()
    except PalaestraError:  # a game class played without registering it
        view, own = TerminalView(), None
    shown, more = own(text, width) if own is not None else _compact_generic(text, width, view.details)
    return wrap(shown, width), wrap(more, width)


class Screen:
    """Composes the screens of ``palaestra play``; ``prompt`` asks on the screen's last line."""

    def __init__(
        self,
        game_name: str,
        out: TextIO | None = None,
        size: tuple[int, int] | None = None,
        lang: str = "en",
    ):
        self.game_name = game_name
        self.lang = lang
        self.out = out or sys.stdout
        self.size = size
        self.messages: list[str] = []
        self.tty = bool(getattr(self.out, "isatty", lambda: False)())

    @property
    def width(self) -> int:
        return (self.size or terminal_size())[0]

    @property
    def height(self) -> int:
        return (self.size or terminal_size())[1]

    def say(self, text: str) -> None:
        """A message for the next screen."""
        self.messages.extend(text.splitlines() or [""])

    def _emit(self, lines: list[str]) -> None:
        if self.tty:
            self.out.write(CLEAR)
        self.out.write("".join(line + "\n" for line in lines))
        self.out.flush()

    def page(self, lines: list[str], ask: Callable[[str], str]) -> None:
        """Long text one screen at a time (``board``, ``info``)."""
        if not self.tty:
            self._emit(lines)
            return
        budget = self.height - 1
        wrapped = wrap(lines, self.width)
        for start in range(0, len(wrapped), budget):
            self._emit(wrapped[start : start + budget])
            more = start + budget < len(wrapped)
            if more and ask(tr("-- more (Enter; q stops) -- ", self.lang)).strip().lower() == "q":
                break

    def show(self, board_text: str) -> list[str]:
        """One screen: the compact board, then the messages; returns what ``info`` would add."""
        budget = self.height - 1  # the prompt's line
        if not self.tty:  # a pipe has no screens: the whole board, then the messages
            self._emit([*board_text.splitlines(), *self.messages])
            self.messages = []
            return []
        messages = wrap(self.messages, self.width)
        self.messages = []
        board, more = compact_board(self.game_name, board_text, self.width)
        if len(board) + len(messages) + len(more) <= budget:  # room for the legends too
            board, more = board + more, []
        if len(messages) > budget // 2:  # long output: a screen of its own, the board comes next
            if len(messages) > budget:
                hidden = len(messages) - (budget - 1)
                messages = [*messages[: budget - 1], tr("… {n} more line(s)", self.lang, n=hidden)]
            self._emit(messages)
            return more
        room = budget - len(messages)
        if len(board) > room:
            hidden = len(board) - (room - 1)
            board = [*board[: room - 1], tr("… {n} more line(s): `board` shows them", self.lang, n=hidden)]
        self._emit([*board, *messages])
        return more
