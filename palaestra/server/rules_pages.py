"""Rules pages for players: ``/rules/GAME`` in English, German or French.

The language comes from ``?lang=de|fr|en`` or else the ``Accept-Language`` header
(``palaestra.i18n.negotiate``). The page is plain HTML with the app's style sheet and no script
(the Content-Security-Policy forbids inline script). The texts are in ``rules_text.py``.
"""

from __future__ import annotations

from html import escape
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Query
from fastapi.responses import HTMLResponse

from palaestra.i18n import LANGUAGES, negotiate
from palaestra.server.api.errors import errors
from palaestra.server.rules_text import RULES

router = APIRouter()

_BACK = {"en": "Back to Palaestra", "de": "Zurück zu Palaestra", "fr": "Retour à Palaestra"}
_OTHER = {"en": "Other languages", "de": "Andere Sprachen", "fr": "Autres langues"}


def render(game: str, lang: str) -> str:
    """The rules page of ``game`` in ``lang`` as HTML."""
    page = RULES[game][lang]
    sections = "".join(
        f"<section><h2>{escape(heading)}</h2>{''.join(f'<p>{escape(p)}</p>' for p in paragraphs)}</section>"
        for heading, paragraphs in page["sections"]  # type: ignore[attr-defined]
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
        "</article></main></body></html>"
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
