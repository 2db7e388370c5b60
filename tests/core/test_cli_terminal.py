"""`palaestra play` in a real pseudo-terminal of 80×24 (issue 21, findings 2, 3 and 14).

Every screen (the output between two screen clears, prompt and typed text included) fits in 24
rows of 80 columns; messages (errors, `help`, `moves`, the other players' moves) are on the screen
that follows them; the resume hint and --resume keep the opponents; --help is clean.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from palaestra.terminal import CLEAR

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROMPT = re.compile(r"([^\n>]+)> $")


class Terminal:
    """A child process on a pseudo-terminal of ``cols``×``rows``."""

    def __init__(self, args: list[str], cwd: Path, cols: int = 80, rows: int = 24) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env["TERM"] = "xterm"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "palaestra.cli", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.output = ""

    def read_until(self, pattern: re.Pattern[str], timeout: float = 60) -> str:
        """Read until ``pattern`` matches the end of the output; return the new text."""
        start = len(self.output)
        end = time.monotonic() + timeout
        while not pattern.search(self.output[start:]):
            left = end - time.monotonic()
            assert left > 0, f"no {pattern.pattern!r} in {self.output[start:][-2000:]!r}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:  # the child is gone
                    break
                if not data:
                    break
                self.output += data.decode("utf-8", "replace")
        return self.output[start:]

    def send(self, line: str) -> str:
        os.write(self.master, (line + "\n").encode())
        return self.read_until(PROMPT)

    def finish(self, line: str) -> str:
        os.write(self.master, (line + "\n").encode())
        start = len(self.output)
        self.proc.wait(timeout=60)
        try:
            while select.select([self.master], [], [], 0.2)[0]:
                data = os.read(self.master, 65536)
                if not data:
                    break
                self.output += data.decode("utf-8", "replace")
        except OSError:
            pass
        os.close(self.master)
        return self.output[start:]


def screens(output: str) -> list[list[str]]:
    """The screens of an output: the text between clears, as rows without colour codes."""
    return [ANSI.sub("", chunk).replace("\r", "").split("\n") for chunk in output.split(CLEAR)[1:]]


def assert_fits(output: str, cols: int = 80, rows: int = 24) -> None:
    for screen in screens(output):
        lines = screen[:-1] if screen and screen[-1] == "" else screen
        used = sum(max(1, -(-len(line) // cols)) for line in lines)
        assert used <= rows, f"{used} rows:\n" + "\n".join(lines)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["agamemnon", "athos", "archimedes"])
def test_every_screen_of_play_fits_an_80x24_terminal(tmp_path: Path, game: str) -> None:
    record = tmp_path / "game.json"
    players = ["--players", "4"] if game == "athos" else []
    term = Terminal(
        ["play", game, "--vs", "random", "--seed", "3", "--record", str(record), *players], tmp_path
    )
    first = term.read_until(PROMPT)
    assert CLEAR in first
    assert any("`help` lists the commands" in line for line in screens(first)[-1])
    # an error stays on the screen that follows it, with the board
    shown = term.send("bogus-move")
    assert "bogus" in "\n".join(screens(shown)[-1])
    # help: the commands are on screen, not scrolled away by the board
    shown = term.send("help")
    assert any("the legal moves" in line for line in screens(shown)[-1])
    # moves: the legal moves are on screen; play the first one listed
    shown = term.send("moves")
    text = " ".join(screens(shown)[-1])
    assert "legal moves:" in text
    move = text.split("legal moves:", 1)[1].split()[0]
    shown = term.send(move)
    # the opponents' answers (or the next step of our turn) are shown
    asked = re.compile(r"(> |-- )$")
    os.write(term.master, b"board\n")  # the full board, a page at a time
    while term.read_until(asked).endswith("-- "):
        os.write(term.master, b"\n")
    term.send("info")
    assert_fits(term.output)
    last = term.finish("quit")
    # finding 3: the hint to continue names the opponents
    assert f"palaestra play {game} --resume {record} --vs random" in last.replace("\r", "").replace("\n", "")
    rec = json.loads(record.read_text())
    assert rec["players"].count("you") == 1 and rec["players"].count("random") == len(rec["players"]) - 1


@pytest.mark.slow
def test_resume_remembers_the_opponents(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    term = Terminal(["play", "agamemnon", "--vs", "random", "--seed", "5", "--record", str(record)], tmp_path)
    term.read_until(PROMPT)
    term.finish("quit")
    before = json.loads(record.read_text())["moves"]
    # resumed with the plain command: random still plays black, not hot seat
    term = Terminal(["play", "agamemnon", "--resume", str(record)], tmp_path)
    shown = term.read_until(PROMPT)
    prompt = PROMPT.search(shown)
    assert prompt and prompt.group(1) == "orange"  # you, never black
    text = " ".join(screens(term.send("moves"))[-1])
    move = text.split("legal moves:", 1)[1].split()[0]
    shown = term.send(move)
    while PROMPT.search(shown).group(1) != "orange":  # type: ignore[union-attr]
        text = " ".join(screens(term.send("moves"))[-1])
        shown = term.send(text.split("legal moves:", 1)[1].split()[0])
    assert_fits(term.output)
    term.finish("quit")
    after = json.loads(record.read_text())["moves"]
    assert len(after) > len(before)
    assert any(m["player"] == 1 for m in after[len(before) :])  # black (random) moved after resuming


@pytest.mark.slow
def test_help_is_clean() -> None:
    for command in (["--help"], ["play", "--help"], ["match", "--help"], ["perft", "--help"]):
        out = subprocess.run(
            [sys.executable, "-m", "palaestra.cli", *command],
            capture_output=True,
            text=True,
            env={**os.environ, "COLUMNS": "80"},
            check=True,
        ).stdout
        assert "<bool>" not in out and "<list" not in out and "<int" not in out, out
        assert "docs/" not in out, out  # pip does not install the docs
        assert max(len(line) for line in out.splitlines()) <= 80


# --- issue 30, finding 15 ------------------------------------------------------------------------------


@pytest.mark.slow
def test_agamemnon_shows_every_space_of_its_table(tmp_path: Path) -> None:
    """Two to six rows of the table hid behind "`board` shows them" (your own new tile among them)."""
    term = Terminal(
        ["play", "agamemnon", "--vs", "random", "--seed", "3", "--record", str(tmp_path / "g.json")], tmp_path
    )
    for shown in (term.read_until(PROMPT), term.send("help")):
        screen = "\n".join(screens(shown)[-1])
        assert "`board` shows them" not in screen, screen
        spaces = {int(n) for n in re.findall(r"(?:^|\s)(\d{1,2}) (?:\.|[ob]:\S+) ", screen, re.M)}
        assert spaces == set(range(32)), sorted(set(range(32)) - spaces)
    assert_fits(term.output)
    term.finish("quit")


@pytest.mark.slow
@pytest.mark.parametrize(("game", "coordinate"), [("athos", r"c d e f g h i j k"), ("archimedes", "e8")])
def test_coordinates_are_shown_from_the_start(tmp_path: Path, game: str, coordinate: str) -> None:
    players = ["--players", "4"] if game == "athos" else []
    term = Terminal(
        ["play", game, "--vs", "random", "--seed", "3", "--record", str(tmp_path / "g.json"), *players],
        tmp_path,
    )
    shown = term.read_until(PROMPT)
    assert re.search(rf"\b{coordinate}\b", "\n".join(screens(shown)[-1]))  # column letters, cell names
    assert_fits(term.output)
    term.finish("quit")


def test_archimedes_echoes_the_ai_move(tmp_path: Path) -> None:
    term = Terminal(
        ["play", "archimedes", "--vs", "random", "--seed", "3", "--record", str(tmp_path / "g.json")],
        tmp_path,
    )
    term.read_until(PROMPT)
    shown = term.send("a2-b4")
    assert re.search(r"\(random\): [a-h]\d+-[a-h]\d+", "\n".join(screens(shown)[-1]))
    term.finish("quit")


@pytest.mark.slow
def test_help_lines_fit_80_columns_and_the_resume_command_is_whole(tmp_path: Path) -> None:
    """`help` wrapped mid-phrase; the quit hint split the --resume command; the record went to the
    current directory: now to the data directory, named there by its file name."""
    data = tmp_path / "data"
    env_home = {"XDG_DATA_HOME": str(data)}
    old = os.environ.copy()
    os.environ.update(env_home)
    try:
        term = Terminal(["play", "agamemnon", "--vs", "random", "--seed", "3"], tmp_path)
    finally:
        os.environ.clear()
        os.environ.update(old)
    first = term.read_until(PROMPT)
    shown = term.send("help")
    help_lines = [
        line for line in screens(shown)[-1] if "moves" in line or "quit" in line or "labels" in line
    ]
    assert help_lines and all(len(line) <= 80 for line in help_lines)
    last = term.finish("quit").replace("\r", "")
    records = list((data / "palaestra" / "games").glob("agamemnon-*.json"))
    assert len(records) == 1 and not list(tmp_path.glob("*.json"))  # not in the current directory
    said = ANSI.sub("", first).replace("\r", "").replace("\n  ", "").replace("\n", "")
    assert str(records[0]) in said  # it says where the record goes
    command = f"  palaestra play agamemnon --resume {records[0].name} --vs random"
    assert command in last.split("\n"), last
    assert len(command) <= 80
    # the name alone resumes it
    os.environ.update(env_home)
    try:
        term = Terminal(["play", "agamemnon", "--resume", records[0].name], tmp_path)
    finally:
        os.environ.clear()
        os.environ.update(old)
    shown = term.read_until(PROMPT)
    assert "resumed" in ANSI.sub("", shown)
    term.finish("quit")
