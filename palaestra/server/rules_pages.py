"""Rules pages for players: ``/rules/GAME`` in English, German or French.

The language comes from ``?lang=de|fr|en`` or else the ``Accept-Language`` header
(``palaestra.i18n.negotiate``). The page is HTML with the app's style sheet; the texts are in
``rules_text.py``. The rulebooks' examples (``rules_examples.py``) are figures after the sections
they illustrate: their positions travel as a JSON data block (never executed: the
Content-Security-Policy forbids inline script) that ``/static/rules.js`` draws with the game's own
SVG renderer. Without script the captions still read.
"""

from __future__ import annotations

import json
from html import escape
from typing import Annotated, cast

from fastapi import APIRouter, Header, HTTPException, Query
from fastapi.responses import HTMLResponse

from palaestra.i18n import LANGUAGES, negotiate
from palaestra.server.api.errors import errors
from palaestra.server.rules_examples import Example, examples
from palaestra.server.rules_text import RULES

router = APIRouter()

_BACK = {"en": "Back to Palaestra", "de": "Zurück zu Palaestra", "fr": "Retour à Palaestra"}
_OTHER = {"en": "Other languages", "de": "Andere Sprachen", "fr": "Autres langues"}


def _figure(example: Example, lang: str) -> str:
    return (
        f'<figure class="example" id="{example.id}">'
        f'<div class="board example-board" data-example="{example.id}"></div>'
        f"<figcaption>{escape(example.caption[lang])}</figcaption></figure>"
    )


def _data_block(game: str, shown: list[Example], lang: str) -> str:
    if not shown:
        return ""
    doc = {"renderer": f"/games/{game}/web/board.js", "examples": [e.to_json(lang) for e in shown]}
    # "<" escaped, so no text inside can close the data block
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return (
        f'<script type="application/json" id="rules-examples">{text}</script>'
        '<script type="module" src="/static/rules.js"></script>'
    )


def render(game: str, lang: str) -> str:
    """The rules page of ``game`` in ``lang`` as HTML."""
    page = RULES[game][lang]
    shown = examples(game)
    parts = cast(list[tuple[str, list[str]]], page["sections"])
    sections = "".join(
        f"<section><h2>{escape(heading)}</h2>{''.join(f'<p>{escape(p)}</p>' for p in paragraphs)}"
        + "".join(_figure(e, lang) for e in shown if e.after == index)
        + "</section>"
        for index, (heading, paragraphs) in enumerate(parts)
    )
    others = " · ".join(
        f'<a href="/rules/{game}?lang={code}" hreflang="{code}" lang="{code}">{escape(name)}</a>'
        for code, name in LANGUAGES.items()
        if code != lang
    )
    title = escape(str(page["title"]))
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}</title><link rel="stylesheet" href="/static/style.css">'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml"></head><body>'
        f'<header class="top"><a href="/" class="brand">Palaestra</a></header>'
        f'<main class="rules" id="rules" data-game="{game}"><article class="card">'
        f'<h1>{title}</h1><p class="intro">{escape(str(page["intro"]))}</p>{sections}'
        f'<p class="small">{escape(_OTHER[lang])}: {others} · <a href="/">{escape(_BACK[lang])}</a></p>'
        f"</article></main>{_data_block(game, shown, lang)}</body></html>"
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
    accept_language: Annotated[str | None, Header(max_length=500)] = None,
) -> HTMLResponse:
    if game not in RULES:
        raise HTTPException(404, f"no rules page for {game!r} (pages: {', '.join(RULES)})")
    chosen = negotiate(accept_language, lang)
    return HTMLResponse(render(game, chosen), headers={"Content-Language": chosen, "Vary": "Accept-Language"})
