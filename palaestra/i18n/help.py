"""``palaestra --help`` in the user's language.

The help texts stay English in ``cli.py`` (the gettext convention: the English text is the key);
a click formatter translates what it writes through the terminal's catalogues (``cli.LANG.json``):
the section titles, the usage prefix, each command's help and each option's help, and click's own
``[required]`` / ``[default: …]`` notes. The language is ``--lang`` when the command line has it,
else the system's (``system_language``). ``tests/core/test_cli_i18n.py`` walks every command and
option and fails when a catalogue lacks one of their texts.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any

import typer.core

from palaestra.i18n import LANGUAGES, catalogue, system_language


def help_language(argv: Sequence[str] | None = None) -> str:
    """``--lang X`` (or ``--lang=X``) of the command line if it names a language, else the system's."""
    args = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(args):
        value = arg[7:] if arg.startswith("--lang=") else None
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        if value in LANGUAGES:
            return value
    return system_language()


# click's and Typer's own words in the help
STANDARD_TEXTS = [
    "Usage:",
    "Options",
    "Arguments",
    "Commands",
    "Show this message and exit.",
    "required",
    "default",
]
_NOTE = re.compile(r"\s*\[(required|default)(:[^\]]*)?\]\s*$")


def translate(text: str, lang: str) -> str:
    """``text`` through the catalogue of ``lang``; a command's short help (its first sentence, maybe
    cut with "...") becomes the first sentence of its translated help."""
    table = catalogue(lang)
    if text in table:
        return table[text]
    stem = text[:-3] if text.endswith("...") else text
    for key, value in table.items():
        if stem and key.startswith(stem) and key != stem:
            first = re.split(r"(?<=[.!?])\s", value.strip(), maxsplit=1)[0]
            return first
    return text


# Typer carries its own copy of click: build on the classes it uses, not on the click package
_Context: Any = typer.core.TyperCommand.context_class
_Formatter: Any = _Context.formatter_class


class TranslatingFormatter(_Formatter):  # type: ignore[misc]
    """A help formatter that writes its texts in ``lang``."""

    def __init__(self, *args: object, lang: str = "en", **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.lang = lang

    def _tr(self, text: str) -> str:
        return text if self.lang == "en" else translate(text, self.lang)

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, f"{self._tr('Usage:')} " if prefix is None else prefix)

    def section(self, name: str) -> Any:
        return super().section(self._tr(name))

    def write_text(self, text: str) -> None:
        super().write_text(self._tr(text))

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        super().write_dl([(term, self._definition(text)) for term, text in rows], col_max, col_spacing)

    def _definition(self, text: str) -> str:
        note = _NOTE.search(text)
        if not note:
            return self._tr(text)
        word, rest = note.group(1), note.group(2) or ""
        return f"{self._tr(text[: note.start()])}  [{self._tr(word)}{rest}]".strip()


_LANG = "palaestra.help_language"


class _TranslatingContext(_Context):  # type: ignore[misc]
    def make_formatter(self) -> Any:
        lang = self.meta.get(_LANG) or help_language()
        return TranslatingFormatter(width=self.terminal_width, max_width=self.max_content_width, lang=lang)


class Command(typer.core.TyperCommand):
    """A command whose help speaks the user's language (its arguments are seen before --help acts)."""

    context_class = _TranslatingContext

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta[_LANG] = help_language(args)
        return list(super().parse_args(ctx, args))


class Group(typer.core.TyperGroup):
    """The command group, likewise."""

    context_class = _TranslatingContext

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta[_LANG] = help_language(args)
        return list(super().parse_args(ctx, args))


def help_texts(command: Any) -> list[str]:
    """Every text the help of ``command`` and its sub-commands shows (for the catalogue test)."""
    import inspect

    texts: list[str] = []
    if command.help:
        texts.append(inspect.cleandoc(command.help).partition("\f")[0])
    if getattr(command, "epilog", None):
        texts.append(inspect.cleandoc(command.epilog))
    for param in command.params:
        if getattr(param, "help", None):
            texts.append(param.help)
    for sub in getattr(command, "commands", {}).values():
        texts.extend(help_texts(sub))
    return texts
