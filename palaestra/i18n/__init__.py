"""Languages of Palaestra's interfaces: English, German and French (the rulebooks' languages).

The browser UI has its own JSON catalogues (``palaestra/server/static/i18n/``); the terminal
(``palaestra play``) uses the JSON catalogues beside this file, keyed like gettext by the English
text (``tr(text, lang)``). A missing entry falls back to English; ``tests/core/test_cli_i18n.py``
fails when one is missing. Move notation is never translated.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path

LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "fr": "Français"}
DEFAULT = "en"
_HERE = Path(__file__).resolve().parent


def negotiate(accept_language: str | None, override: str | None = None) -> str:
    """The language to answer in: ``override`` (e.g. ``?lang=de``) if we have it, else the best
    of an ``Accept-Language`` header by its q-values, else English."""
    if override and override.lower() in LANGUAGES:
        return override.lower()
    best, best_q = DEFAULT, -1.0
    for position, part in enumerate((accept_language or "").split(",")[:32]):
        m = re.match(
            r"\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([01](?:\.\d{0,3})?))?\s*$", part
        )
        if not m:
            continue
        lang = m.group(1).lower()
        q = float(m.group(2)) if m.group(2) is not None else 1.0
        q -= position * 1e-6  # earlier entries win ties
        if lang in LANGUAGES and q > best_q and q > 0:
            best, best_q = lang, q
    return best


def system_language(environ: dict[str, str] | None = None) -> str:
    """The language of the system: LANGUAGE, LC_ALL, LC_MESSAGES, LANG (POSIX order), else English."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        for item in value.split(":"):
            code = item.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
            if code in ("c", "posix"):
                return DEFAULT
    return DEFAULT


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The terminal's catalogue for ``lang`` (empty for English)."""
    path = _HERE / f"cli.{lang}.json"
    if lang == DEFAULT or not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in data.items()}


def tr(text: str, lang: str, **params: object) -> str:
    """``text`` in ``lang`` with its {placeholders} filled."""
    template = catalogue(lang).get(text, text)
    return template.format(**params) if params else template


# the engines' player names ("red (A)", "player 1 (S)", "orange"): the word translated, the letter kept
COLOUR_WORDS = ("red", "blue", "green", "yellow", "orange", "black", "white", "player")


def player_name(name: str, lang: str) -> str:
    """An engine's player name in ``lang``: ``blau (B)`` for ``blue (B)``."""
    m = re.match(r"^(\w+)(.*)$", name, re.S)
    if m and m.group(1) in COLOUR_WORDS:
        return tr(m.group(1), lang) + m.group(2)
    return name


def result_sentence(returns: list[float], names: list[str], lang: str, teams: bool = False) -> str:
    """Who won, in ``lang``, from a result's returns (the engines' own sentence is English)."""
    if not returns:
        return tr("Draw", lang)
    best = max(returns)
    winners = [player_name(names[i], lang) for i, r in enumerate(returns) if r == best]
    if len(winners) == len(returns):
        return tr("Draw", lang)
    joined = tr(" and ", lang).join(winners)
    if len(winners) == 1:
        return tr("{name} wins", lang, name=joined)
    if teams:
        return tr("{names} win together", lang, names=joined)
    return tr("{names} share the win", lang, names=joined)


def termination_reason(termination: str, seat_name: str | None, lang: str) -> str | None:
    """Why a game ended, in ``lang``, from its ``Termination`` (``Outcome.termination``'s value)
    and the name of the seat that ended it; ``None`` where the rules ended it (who won says it)."""
    name = player_name(seat_name, lang) if seat_name is not None else None
    if termination == "move_limit":
        return tr("the move limit was reached", lang)
    if termination == "adjudication":
        return tr("the result could no longer change", lang)
    if termination == "abort":
        return tr("{name} aborted the game", lang, name=name) if name else tr("the game was aborted", lang)
    if termination == "resignation":
        return tr("{name} resigned", lang, name=name) if name else tr("a player resigned", lang)
    if termination == "time":
        return tr("{name} ran out of time", lang, name=name) if name else tr("a player ran out of time", lang)
    if termination == "abandonment":
        return tr("{name} left the game", lang, name=name) if name else tr("a player left the game", lang)
    return None


# the rulings an engine's message cites (its reason is English; finding 9: players read it without)
RULING = re.compile(r"\s*\(?\b[A-Z]{3}-[A-Z]+\d+[a-z]?\b(?:,\s*)?\)?:?")


def plain(text: str) -> str:
    """An engine's message without the ruling IDs it cites."""
    return re.sub(r"\s{2,}", " ", RULING.sub("", text)).strip()
