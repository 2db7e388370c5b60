"""The rulebooks' examples on the rules pages: positions played on the engines, drawn by the games'
own SVG boards, captioned in three languages (issue 21, "the rules at hand")."""

from __future__ import annotations

import json
import re
import urllib.request
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

from palaestra.core.registry import game_info, load_game
from palaestra.server.app import create_app
from palaestra.server.rules_examples import examples
from tests.server.server_process import ServerProcess
from tests.server.test_browser import browser, server, shot, start_game  # noqa: F401 (the fixtures)

GAMES = ["athos", "archimedes", "agamemnon"]
BOARD_NAMES = {
    "athos": {"en": "Athos board", "de": "Athos-Spielplan", "fr": "Plateau d'Athos"},
    "archimedes": {"en": "Archimedes board", "de": "Archimedes-Spielplan", "fr": "Plateau d'Archimède"},
    "agamemnon": {"en": "Agamemnon board", "de": "Agamemnon-Spielplan", "fr": "Plateau d'Agamemnon"},
}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = tmp_path_factory.mktemp("rules") / "r.sqlite3"
    with TestClient(create_app(database_url=f"sqlite:///{db}")) as client:
        yield client  # type: ignore[misc]


def replay(example_view: dict[str, Any]) -> Any:
    """The example's position played again from its moves on a fresh engine."""
    game = load_game(example_view["game"], **example_view["options"])
    state = game.new_initial_state(seed=0)
    for move in example_view["moves"]:
        state.apply_action(state.string_to_action(move["move"]))  # checked: an illegal move raises
    return state


@pytest.mark.parametrize("game", GAMES)
def test_every_example_is_a_legal_position_with_a_caption_in_each_language(game: str) -> None:
    shown = examples(game)
    assert len(shown) >= 2
    sections = len(game_info(game).rules_pages()["en"]["sections"])  # type: ignore[index]
    for example in shown:
        assert set(example.caption) == {"en", "de", "fr"} and all(example.caption.values())
        assert 0 <= example.after < sections
        state = replay(example.view)  # every move legal on a fresh engine
        assert state.to_json() == example.view["state"]
        assert not re.search(r"\b[A-Z]{3}-[A-Z]+\d", " ".join(example.caption.values()))  # no ruling IDs


def test_archimedes_distance_example_says_what_the_engine_says() -> None:
    """ARC-M1 (the rulebook's figure 2): the caption's distance is the cube's, and the rings are its
    legal moves (all of them, and only its own)."""
    example = next(e for e in examples("archimedes") if e.id == "archimedes-distance")
    cube = re.search(r"cube on (\w+)", example.caption["en"]).group(1)  # type: ignore[union-attr]
    n = int(re.search(r"moves exactly (\d+) cells", example.caption["en"]).group(1))  # type: ignore[union-attr]
    cubes = [c for side in example.view["score_details"]["cubes"] for c in side]
    assert next(c["distance"] for c in cubes if c["cell"] == cube) == n
    state = replay(example.view)
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    own = sorted(m for m in moves if m.startswith(f"{cube}-"))
    assert sorted(m["move"] for m in example.show) == own and own
    assert f"The {len(own)} rings" in example.caption["en"]
    assert f"Die {len(own)} Ringe" in example.caption["de"]


def test_agamemnon_string_example_controllers() -> None:
    """AGA-SC3: the leader's spear wins the strength string, the tile the force string; no leadership
    string touches its space, so the letter counts for nothing."""
    example = next(e for e in examples("agamemnon") if e.id == "agamemnon-strings")
    strings = example.view["score_details"]["strings"]
    at_1 = {s["kind"]: s["controller"] for s in strings if any(1 in c for c in s["connections"])}
    assert at_1 == {"strength": 0, "force": 0}
    warp = next(e for e in examples("agamemnon") if e.id == "agamemnon-warp")
    kinds = {tuple(c): s["kind"] for s in warp.view["score_details"]["strings"] for c in s["connections"]}
    assert kinds[(4, 8)] == "strength" and kinds[(8, 9)] == "leadership"  # swapped (AGA-T4)
    before = {tuple(c): s["kind"] for s in example.view["score_details"]["strings"] for c in s["connections"]}
    assert before[(4, 8)] == "leadership" and before[(8, 9)] == "strength"


def test_athos_examples_follow_the_rulebook() -> None:
    """ATH-T2, ATH-T8: red's monks walk 2, 3 and 1 fields (6 points); with 3 players 5 tiles, at most 2
    of a terrain. ATH-T7: blue's stone lies on the tile it moved."""
    first = next(e for e in examples("athos") if e.id == "athos-first-turn")
    moves = [m["move"] for m in first.view["moves"]]
    steps = [m for m in moves if "-" in m and not m.startswith("end-")]
    assert len(steps) == 6 and [m.partition("-")[0] for m in steps].count("A") == 3
    placed = [m[6:] for m in moves if m.startswith("place ")]
    terrain = {f[0]: f[3] for f in first.view["web"]["fields"]}
    assert len(placed) == 5 and max(Counter(terrain[f] for f in placed).values()) <= 2
    stone = next(e for e in examples("athos") if e.id == "athos-stone")
    tail = [m["move"] for m in stone.view["moves"]][len(moves) :]
    relocate = next(m for m in tail if m.startswith("relocate "))
    source, target = relocate[9:].split(">")
    assert source in placed and f"stone {target}" in tail
    assert f"from {source} to {target}" in stone.caption["en"]
    position = stone.view["state"]
    assert target in json.dumps(position)


@pytest.mark.parametrize("game", GAMES)
def test_the_page_carries_the_examples_after_their_sections(web: TestClient, game: str) -> None:
    for lang in ("en", "de", "fr"):
        page = web.get(f"/rules/{game}?lang={lang}").text
        block = re.search(r'<script type="application/json" id="rules-examples">(.*?)</script>', page, re.S)
        assert block, "no data block"
        data = json.loads(block.group(1))
        assert data["renderer"] == f"/games/{game}/web/board.js"
        assert [e["id"] for e in data["examples"]] == [e.id for e in examples(game)]
        assert [e["caption"] for e in data["examples"]] == [e.caption[lang] for e in examples(game)]
        # every script is the module or the data block: nothing inline to execute (CSP)
        scripts = re.findall(r"<script([^>]*)>", page)
        module = ' type="module" src="/static/rules.js"'
        theme = ' type="module" src="/static/theme.js"'  # the colour theme (issue 30)
        data_block = ' type="application/json" id="rules-examples"'
        assert sorted(scripts) == [data_block, module, theme]
        sections = page.split("<section>")[1:]
        for example in examples(game):
            assert f'id="{example.id}"' in sections[example.after], example.id


@pytest.mark.parametrize("viewport", [{"width": 1200, "height": 850}, {"width": 390, "height": 844}])
@pytest.mark.parametrize("game", GAMES)
def test_the_examples_are_drawn_by_the_games_boards(
    server: ServerProcess, browser: Any, game: str, viewport: dict[str, int]
) -> None:
    """Under the real Content-Security-Policy: each figure gets the game's SVG board, labelled in the
    page's language, with the example's marks; nothing sticks out on a phone."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    for lang in ("en", "de", "fr"):
        page.goto(f"{server.url}/rules/{game}?lang={lang}")
        page.wait_for_selector('body[data-examples="drawn"]')
        figures = page.locator("figure.example")
        assert figures.count() == len(examples(game))
        for i in range(figures.count()):
            figure = figures.nth(i)
            assert figure.locator('[data-drawn="true"] > svg').count() == 1
            assert figure.locator("svg").first.get_attribute("aria-label") == BOARD_NAMES[game][lang]
            assert figure.locator("figcaption").inner_text() == examples(game)[i].caption[lang]
        if game == "archimedes":
            rings = page.locator("#archimedes-distance .target-mark").count()
            assert rings == len(next(e for e in examples(game) if e.id == "archimedes-distance").show)
            assert page.locator("#archimedes-start-3 svg rect").count() == 12  # 3 players x 4 cubes
        if game == "athos":
            assert page.locator("#athos-first-turn [data-last-step]").count() == 6
            assert page.locator("#athos-first-turn [data-last-field]").count() >= 5
        if game == "agamemnon":
            assert page.locator('#agamemnon-warp [data-last="swap"]').count() == 2
            assert page.locator('#agamemnon-strings [data-last="placed"]').count() == 1
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{lang}: the page is {width} px wide"
        shot(page, f"rules-examples-{game}-{lang}-{viewport['width']}")
    assert not problems, problems
    context.close()


EXPLANATIONS = {
    "athos-stone-help": {"en": "An Athos stone: first move", "de": "Athos-Stein", "fr": "pierre d'Athos"},
    "aga-warp-help": {"en": "A Warp may swap two threads", "de": "Kette", "fr": "Chaîne"},
    "aga-oracle-help": {"en": "Oracle: name the stack", "de": "Orakel", "fr": "Oracle"},
}


def my_token(page: Any, game_id: str) -> str:
    return str(page.evaluate(f"JSON.parse(localStorage.getItem('palaestra.games'))['{game_id}'].tokens['0']"))


def post(server: ServerProcess, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        server.url + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_unfamiliar_controls_are_explained_beside_them(
    server: ServerProcess, browser: Any, lang: str
) -> None:
    """The Athos stone, a Warp's swap and the Oracle's stacks each get a sentence beside the control,
    in the page's language, exactly when the control is offered (ATH-T7, AGA-T4, AGA-V2)."""
    context = browser.new_context(bypass_csp=True, viewport={"width": 1200, "height": 850}, locale=lang)
    page = context.new_page()
    # Athos: the stone is offered once the movement is over (on a bare field: no tile is down yet)
    game_id = start_game(page, server, "athos", ["me", "ai:random"], {"bare_stone": True})
    page.wait_for_selector("#athos-bar button")
    assert page.locator("#athos-stone-help").count() == 0
    act = {"token": my_token(page, game_id), "ply": 0}
    post(server, f"/api/games/{game_id}/actions", {**act, "move": "end-move"})
    help_text = page.locator("#athos-stone-help")
    help_text.wait_for()
    assert EXPLANATIONS["athos-stone-help"][lang] in help_text.inner_text()
    # Agamemnon, tiles chosen openly: a Warp placed waits for its swap
    game_id = start_game(page, server, "agamemnon", ["me", "ai:random"], {"defying": True})
    page.wait_for_selector("#aga-extra")
    assert page.locator("#aga-warp-help").count() == 0
    act = {"token": my_token(page, game_id), "ply": 0}
    post(server, f"/api/games/{game_id}/actions", {**act, "move": "WARP@8"})
    help_text = page.locator("#aga-warp-help")
    help_text.wait_for()
    assert EXPLANATIONS["aga-warp-help"][lang] in help_text.inner_text()
    # Agamemnon with the Oracle: the stacks are named before the draws
    start_game(page, server, "agamemnon", ["me", "ai:random"], {"oracle": True})
    help_text = page.locator("#aga-oracle-help")
    help_text.wait_for()
    assert EXPLANATIONS["aga-oracle-help"][lang] in help_text.inner_text()
    shot(page, f"oracle-help-{lang}")
    context.close()
