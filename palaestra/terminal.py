"""``palaestra play``: the game in the terminal (:class:`TerminalGame`, the core driver with a
prompt per person) and its screens: every screen fits the terminal (an 80×24 one included).

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
from pathlib import Path
from typing import Any, TextIO

import typer

from palaestra.core.chance import ChanceSource
from palaestra.core.driver import ChanceDrawn, Driver, Event, GameOver, Seat
from palaestra.core.errors import IllegalActionError, NotationError, PalaestraError
from palaestra.core.game import State
from palaestra.core.info import TerminalView
from palaestra.core.record import Record
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


# --- the game: palaestra play ------------------------------------------------------------------
#: one phrase a line, each short enough for 80 columns (issue 30, finding 15: it wrapped mid-phrase)
PLAY_HELP = """Type a move in the game's notation; `moves` lists the legal ones.
  moves    the legal moves          board   the full board and its key
  info     the details under it     labels  space names on/off
  score    the scores               quit    save and leave (Ctrl-C, Ctrl-D)"""


class TerminalGame:
    """``palaestra play``: the core driver (palaestra/core/driver.py) with a prompt for each
    person's seat and agents for the others; the record is saved after every action, before it
    is shown."""

    def __init__(self, rec: Record, path: Path, lang: str, vs: str | None, seat: int) -> None:
        from palaestra.ai import make_agent

        state = rec.replay()
        rec.check_result(state)
        rec.finish_if_over(state, adjudicate=True)  # a record of the game settled before this
        rec.continue_drawing()  # a record of an older chance rule draws by the current one now
        self.rec, self.path, self.lang, self.vs, self.seat = rec, path, lang, vs, seat
        self.game = game = state.game
        if vs is not None and not 0 <= seat < game.num_players:
            raise PalaestraError(f"seat is 0 to {game.num_players - 1}, not {seat}")
        chance = ChanceSource.from_seed(rec.seed)
        self.agents = {  # seeded by the one rule (palaestra/core/chance.py), as in the arena
            p: make_agent(vs, seed=chance.agent_seed(p))
            for p in range(game.num_players)
            if vs is not None and p != seat
        }
        seats: dict[int, Seat] = {p: self.ask for p in range(game.num_players)}
        seats.update({p: agent.select_action for p, agent in self.agents.items()})
        self.driver = Driver(state, chance, seats, record=rec)
        self.driver.listeners.append(self.tell)
        self.labels = (
            True  # the coordinates are on the board from the start (finding 15); `labels` hides them
        )
        self.details: list[str] = []
        self.screen = Screen(game.name, lang=lang)

    def run(self, resumed: str) -> None:
        from palaestra.i18n import tr

        self.rec.save(self.path)
        if resumed:
            self.screen.say(resumed)
        self.screen.say(tr("recording to {path}; `help` lists the commands", self.lang, path=self.path))
        try:
            self.driver.run()
        except KeyboardInterrupt:
            typer.echo("")
        self.rec.save(self.path)
        self.farewell()

    def tell(self, event: Event) -> None:
        """Store every action, then show the draws and the agents' moves."""
        from palaestra.i18n import player_name

        if isinstance(event, GameOver):
            return
        self.rec.save(self.path)  # stored before it is shown
        if isinstance(event, ChanceDrawn):
            tell_move(self.screen, "", event.text)
        elif event.player in self.agents:
            who = f"{player_name(self.game.player_name(event.player), self.lang)} ({self.vs})"
            tell_move(self.screen, who, event.text)

    def ask(self, state: State) -> int | None:
        """A person's seat: the prompt, until a legal move (``None``: quit)."""
        from palaestra.i18n import player_name

        prompt = f"{player_name(self.game.player_name(state.current_player), self.lang)}> "
        while True:
            self.details = self.screen.show(state.render(labels=self.labels))
            try:
                text = input(prompt).strip()
            except EOFError:
                text = "quit"
            if text in ("quit", "exit"):
                return None
            if not text or self.command(text, state):
                continue
            try:
                action = state.string_to_action(text)
                if not state.is_legal(action):
                    raise IllegalActionError(state.explain_illegal(action))
            except PalaestraError as err:
                self.screen.say(typer.style(f"  {refusal(err, self.lang)}", fg=typer.colors.YELLOW))
                continue
            return action

    def command(self, text: str, state: State) -> bool:
        """Run a prompt command (``help``, ``moves``, ...); False if ``text`` is none."""
        from palaestra.i18n import tr

        lang, screen = self.lang, self.screen
        commands: dict[str, Callable[[], None]] = {
            "help": lambda: screen.say(tr(PLAY_HELP, lang)),
            "moves": lambda: screen.say(
                tr("legal moves:", lang)
                + " "
                + "  ".join(state.action_to_string(a) for a in state.legal_actions())
            ),
            "board": lambda: screen.page(state.render(labels=self.labels).splitlines(), input),
            "info": lambda: screen.say(
                "\n".join(self.details) if self.details else tr("everything is on the screen", lang)
            ),
            "labels": self.toggle_labels,
            "score": lambda: screen.say(score_line(state, lang)),
        }
        command = commands.get(text)
        if command is not None:
            command()
        return command is not None

    def toggle_labels(self) -> None:
        self.labels = not self.labels

    def farewell(self) -> None:
        """The result and the final board, or how to continue the game."""
        from palaestra.i18n import tr

        rec, game, lang, path = self.rec, self.game, self.lang, self.path
        if rec.outcome is None:
            # the command on a line of its own, the record by its name when it is in the data
            # directory (finding 15: the hint split the command over two lines)
            again = f"palaestra play {game.name} --resume {resume_name(path)}"
            if self.vs is not None:  # the same command works without them; they are shown to be clear
                again += f" --vs {self.vs}" + (f" --seat {self.seat}" if self.seat else "")
            typer.echo(tr("game saved to {path}", lang, path=path))
            typer.echo(tr("continue with:", lang))
            typer.echo(f"  {again}")
            return
        state = self.driver.state
        result = outcome_line(rec, lang)
        self.screen.say(tr("game over: {result}", lang, result=result) + f"  ({score_line(state, lang)})")
        self.screen.say(tr("record saved to {path}", lang, path=path))
        self.screen.show(state.render(labels=False))


def outcome_line(rec: Record, lang: str) -> str:
    """How a record's game ended, in ``lang``: who won, and why where the rules did not end it
    (the reason from the outcome's ``Termination``). In English a game the rules, the move limit
    or adjudication ended keeps the engine's own sentence (it says why), without ruling IDs."""
    from palaestra.core.outcome import Termination
    from palaestra.i18n import plain, result_sentence, termination_reason

    outcome = rec.outcome
    assert outcome is not None
    game = rec.make_game()
    names = [game.player_name(p) for p in range(game.num_players)]
    by_rules = (Termination.RULES, Termination.MOVE_LIMIT, Termination.ADJUDICATION)
    if lang == "en" and outcome.termination in by_rules and outcome.text:
        return plain(outcome.text)
    winners = result_sentence(list(outcome.returns), names, lang, teams=bool(game.options.get("teams")))
    if outcome.termination is Termination.ABORT:
        winners = ""
    seat = names[outcome.seat] if outcome.seat is not None and outcome.seat < len(names) else None
    reason = termination_reason(outcome.termination.value, seat, lang)
    if reason is None:
        return winners
    return f"{winners} ({reason})" if winners else reason


# --- where records go ---------------------------------------------------------------------------
def records_dir() -> Path:
    """The folder of ``palaestra play``'s records: ``games/`` in the user's data directory
    (platformdirs; ``$XDG_DATA_HOME/palaestra/games`` on Linux), created when needed."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("palaestra", appauthor=False)) / "games"


def resume_name(path: Path) -> str:
    """How ``--resume`` names a record: its file name when it is in :func:`records_dir`."""
    try:
        return path.name if path.resolve().parent == records_dir().resolve() else str(path)
    except OSError:
        return str(path)


def find_record(name: Path) -> Path:
    """A record ``--resume`` names: the path itself, else that name in :func:`records_dir`."""
    if name.exists() or name.is_absolute() or len(name.parts) > 1:
        return name
    stored = records_dir() / name
    return stored if stored.exists() else name


def tell_move(screen: Any, who: str, text: str) -> None:
    """A move of an agent or of chance for the next screen; one player's moves share a line."""
    prefix = f"  {who}: " if who else "  "
    if screen.messages and screen.messages[-1].startswith(prefix) and who:
        screen.messages[-1] += f", {text}"
    else:
        screen.say(prefix + text)


def score_line(state: State, lang: str = "en") -> str:
    from palaestra.i18n import player_name

    g = state.game
    return ", ".join(f"{player_name(g.player_name(p), lang)} {s:g}" for p, s in enumerate(state.scores()))


RULING_ID = re.compile(r"\b[A-Z]{3}-[A-Z]+\d+[a-z]?\b")


def refusal(err: PalaestraError, lang: str) -> str:
    """A refused move in plain words (finding 9); the engine's reason without its ruling IDs (in
    English: the engines explain in English)."""
    from palaestra.i18n import plain, tr

    if isinstance(err, NotationError):
        sentence = tr("This move cannot be read.", lang)
    else:
        sentence = tr("This move is not allowed here.", lang)
    reason = plain(str(err))
    rulings = RULING_ID.findall(str(err))
    cite = f" [{', '.join(rulings)}]" if rulings else ""  # at hand for whoever looks them up
    return (f"{sentence} ({reason})" if reason else sentence) + cite
