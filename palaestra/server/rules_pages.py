"""Rules pages for players: ``/rules/GAME`` in English, German or French.

The language comes from ``?lang=de|fr|en`` or else the ``Accept-Language`` header
(``palaestra.i18n.negotiate``). The page is HTML with the app's style sheet. Each game declares
its page (``WebAssets.rules``: the text per language, :mod:`palaestra.core.rules_page`) and its
rulebook's examples (``WebAssets.examples``), which are figures after the sections they illustrate
(``rules_examples.py``): their positions travel as a JSON data block (never executed: the
Content-Security-Policy forbids inline script) that ``/static/rules.js`` draws with the game's own
SVG renderer. Without script the captions still read.
"""

from __future__ import annotations

import json
from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query
from fastapi.responses import HTMLResponse

from palaestra.core.errors import OptionError
from palaestra.core.info import GameInfo
from palaestra.core.registry import game_info, game_infos
from palaestra.core.rules_page import RulesPages
from palaestra.i18n import LANGUAGES, negotiate
from palaestra.server.api.errors import errors
from palaestra.server.api.web import web_assets
from palaestra.server.rules_examples import Figure, examples

router = APIRouter()

_BACK = {"en": "Back to Palaestra", "de": "Zurück zu Palaestra", "fr": "Retour à Palaestra"}
_OTHER = {"en": "Other languages", "de": "Andere Sprachen", "fr": "Autres langues"}
_LANGUAGE = {"en": "Language", "de": "Sprache", "fr": "Langue"}
_GAME = {"en": "Back to the game", "de": "Zurück zur Partie", "fr": "Retour à la partie"}
_LEARN = {"en": "Learn to play", "de": "Spielen lernen", "fr": "Apprendre à jouer"}
#: a game's id, as the link back to it may name it (``?game=ID``)
GAME_ID = r"^[A-Za-z0-9_-]{1,32}$"


def _figure(example: Figure, lang: str) -> str:
    return (
        f'<figure class="example" id="{example.id}">'
        f'<div class="board example-board" data-example="{example.id}"></div>'
        f"<figcaption>{escape(example.caption[lang])}</figcaption></figure>"
    )


def _data_block(assets: dict[str, Any], shown: list[Figure], lang: str) -> str:
    if not shown:
        return ""
    doc = {
        "renderer": assets["renderer"],
        "catalogue": assets["catalogues"].get(lang),
        "examples": [e.to_json(lang) for e in shown],
    }
    # "<" escaped, so no text inside can close the data block
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return (
        f'<script type="application/json" id="rules-examples">{text}</script>'
        '<script type="module" src="/static/rules.js"></script>'
    )


def _rules_of(game: str) -> tuple[GameInfo, RulesPages] | None:
    """The info and declared rules page of a registered game (None: unknown, or it has none)."""
    try:
        info = game_info(game)
        pages = info.rules_pages()
    except (OptionError, ImportError, AttributeError, ValueError):
        return None
    return None if pages is None else (info, pages)


def render(game: str, lang: str, back: str | None = None) -> str:
    """The rules page of ``game`` in ``lang`` as HTML; ``back``: the id of the game it was opened
    from (issue 30, finding 17: a link back to it, kept by the language switch)."""
    found = _rules_of(game)
    if found is None:
        raise KeyError(game)
    info, pages = found
    name = info.name
    page = pages.get(lang) or pages["en"]
    shown = examples(name)
    assets = web_assets(name)
    sections = "".join(
        f"<section><h2>{escape(heading)}</h2>{''.join(f'<p>{escape(p)}</p>' for p in paragraphs)}"
        + "".join(_figure(e, lang) for e in shown if e.after == index)
        + "</section>"
        for index, (heading, paragraphs) in enumerate(page["sections"])
    )
    keep = f"&amp;game={escape(back)}" if back else ""
    others = " · ".join(
        f'<a href="/rules/{name}?lang={code}{keep}" hreflang="{code}" lang="{code}">{escape(language)}</a>'
        for code, language in LANGUAGES.items()
        if code != lang
    )
    # the header: the language switch (every language, the page's own marked) and the way back
    switch = "".join(
        f'<a href="/rules/{name}?lang={code}{keep}" hreflang="{code}" lang="{code}" data-lang="{code}"'
        + (' aria-current="page"' if code == lang else "")
        + f">{escape(language)}</a>"
        for code, language in LANGUAGES.items()
    )
    game_link = (
        f'<a href="/#/game/{escape(back)}" id="back-to-game" class="back">{escape(_GAME[lang])}</a>'
        if back
        else ""
    )
    # issue 30: the course "Learn to play", where the game has one
    learn = (
        f'<a href="/learn/{name}" id="learn-link" class="back">{escape(_LEARN[lang])}</a>'
        if info.web.lessons is not None
        else ""
    )
    title = escape(page["title"])
    stylesheet = assets["stylesheet"]
    own_style = f'<link rel="stylesheet" href="{stylesheet}">' if stylesheet and shown else ""
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}</title><link rel="stylesheet" href="/static/style.css">{own_style}'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        # the colour theme chosen in the app (or the system's): static/theme.js
        '<script type="module" src="/static/theme.js"></script></head><body>'
        f'<header class="top"><a href="/" class="brand">Palaestra</a>{game_link}{learn}'
        f'<nav class="langs" id="rules-languages" aria-label="{escape(_LANGUAGE[lang])}">{switch}</nav>'
        "</header>"
        f'<main class="rules" id="rules" data-game="{name}"><article class="card">'
        f'<h1>{title}</h1><p class="intro">{escape(page["intro"])}</p>{sections}'
        f'<p class="small">{escape(_OTHER[lang])}: {others} · <a href="/">{escape(_BACK[lang])}</a></p>'
        f"</article></main>{_data_block(assets, shown, lang)}</body></html>"
    )


@router.get(
    "/rules/{game}",
    response_class=HTMLResponse,
    summary="The rules of a game, for players",
    responses=errors("not_found", "invalid_request", common=False),
)
async def rules_page(
    game: str,
    lang: Annotated[str | None, Query(max_length=8)] = None,
    game_id: Annotated[
        str | None, Query(alias="game", pattern=GAME_ID, description="the game to link back to")
    ] = None,
    accept_language: Annotated[str | None, Header(max_length=500)] = None,
) -> HTMLResponse:
    if _rules_of(game) is None:
        pages = ", ".join(i.name for i in game_infos() if i.web.rules is not None)
        raise HTTPException(404, f"no rules page for {game!r} (pages: {pages})")
    chosen = negotiate(accept_language, lang)
    return HTMLResponse(
        render(game, chosen, game_id), headers={"Content-Language": chosen, "Vary": "Accept-Language"}
    )
