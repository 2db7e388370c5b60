"""The rulebooks' examples, played on the engines and drawn by the games' own SVG boards.

Each example is a short script of moves in the game's notation, applied to a fresh state by the
engine (so an example can never show a position the rules forbid), plus a caption in English,
German and French whose numbers and field names come from the position reached. The rules page
(``rules_pages.py``) embeds each example's view as JSON; ``static/rules.js`` draws it with the
game's renderer (``/games/NAME/web/board.js``), exactly as a game screen would.

The examples follow the rulebooks: Archimedes' figures 1, 2 and 4 (the set-ups for two and three
players, the three rows that give a cube its distance), Agamemnon's string example (a spear counts
for strength, the tile for force, the letter only on a leadership string) and a Warp, Athos's
movement split (2 + 3 + 1 steps), the placement limits with three players, and the tactical
example (a flip, an Athos stone on a moved tile).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from palaestra.core.game import State
from palaestra.core.registry import load_game
from palaestra.server.webhooks import web_data

Captions = dict[str, str]


@dataclass(frozen=True)
class Example:
    """One figure of a rules page: a position, what to highlight, and its caption."""

    id: str
    after: int  # the index of the rules page's section the figure follows
    view: dict[str, Any]
    caption: Captions
    show: list[dict[str, Any]] = field(default_factory=list)  # legal moves to highlight

    def to_json(self, lang: str) -> dict[str, Any]:
        return {"id": self.id, "view": self.view, "show": self.show, "caption": self.caption[lang]}


class _Script:
    """A state and the moves played on it, in notation."""

    def __init__(self, game_name: str, **options: object) -> None:
        self.game = load_game(game_name, **options)
        self.state: State = self.game.new_initial_state(seed=0)
        self.moves: list[dict[str, Any]] = []

    def legal(self) -> list[str]:
        state = self.state
        if state.is_chance_node():
            return [state.action_to_string(a) for a, _ in state.chance_outcomes()]
        return [state.action_to_string(a) for a in state.legal_actions()]

    def play(self, move: str) -> str:
        player = self.state.current_player
        action = self.state.string_to_action(move)
        self.state.apply_legal(action)
        self.moves.append({"player": player, "move": move})
        return move

    def play_first(self, accept: Callable[[str], bool], key: Callable[[str], Any] = str) -> str | None:
        """Play the first legal move (in ``key`` order) that ``accept`` takes; None if there is none."""
        chosen = sorted((m for m in self.legal() if accept(m)), key=key)
        return self.play(chosen[0]) if chosen else None

    def view(self) -> dict[str, Any]:
        """What a game screen gets from the server (the fields the renderers read)."""
        state, game = self.state, self.game
        player = state.current_player
        return {
            "id": "example",
            "game": game.name,
            "title": game.title,
            "options": {k: v for k, v in game.options.items() if v is not None},
            "num_players": game.num_players,
            "seats": [
                {"seat": i, "player_name": game.player_name(i), "kind": "human", "name": None}
                for i in range(game.num_players)
            ],
            "ply": len(self.moves),
            "version": len(self.moves),
            "status": "finished" if state.is_terminal() else "active",
            "current_player": player,
            "to_move": game.player_name(player) if 0 <= player < game.num_players else None,
            "scores": state.scores(),
            "score_details": _jsonable(state.score_details()),
            "moves": self.moves,
            "legal": [],
            "web": web_data(game),
            "state": state.to_json(),
        }

    def show(self, accept: Callable[[str], bool]) -> list[dict[str, Any]]:
        """The legal moves to highlight, as the renderers get them."""
        return [
            {"action": a, "move": self.state.action_to_string(a)}
            for a in self.state.legal_actions()
            if accept(self.state.action_to_string(a))
        ]


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


# --- Archimedes --------------------------------------------------------------------------------------
def _archimedes() -> list[Example]:
    two = _Script("archimedes", players=2)
    three = _Script("archimedes", players=3)
    # a few opening moves, then the rows of one cube (figure 2: the distance is the number of
    # cubes in the three rows through its cell, itself included)
    rows = _Script("archimedes", players=2)
    for move in ("a4-c4", "h4-f4", "a6-b7"):
        rows.play(move)
    cube = "f4"
    details = rows.state.score_details()
    distance = next(c["distance"] for cubes in details["cubes"] for c in cubes if c["cell"] == cube)
    shown = rows.show(lambda m: m.startswith(f"{cube}-"))
    n = len(shown)
    return [
        Example(
            "archimedes-start-2",
            0,
            two.view(),
            {
                "en": "Two players: each puts 4 cubes on the border cells of their side and aims for the "
                "opposite side, tinted in their colour. The number on a cube is how far it moves now.",
                "de": "Zwei Spieler: Jeder setzt seine 4 Würfel auf die Randfelder seiner Seite und will zur "
                "gegenüberliegenden Seite, die in seiner Farbe getönt ist. Die Zahl auf einem Würfel sagt, "
                "wie weit er jetzt zieht.",
                "fr": "Deux joueurs : chacun pose ses 4 cubes sur les cases du bord de son côté et vise le "
                "côté opposé, teinté de sa couleur. Le nombre sur un cube dit de combien de cases il avance "
                "maintenant.",
            },
        ),
        Example(
            "archimedes-start-3",
            0,
            three.view(),
            {
                "en": "Three players: every other side of the hexagon is a start, each player aims for the "
                "side opposite their own.",
                "de": "Drei Spieler: Jede zweite Seite des Sechsecks ist ein Start; jeder Spieler will zur "
                "Seite gegenüber seiner eigenen.",
                "fr": "Trois joueurs : un côté sur deux de l'hexagone est un départ ; chaque joueur vise le "
                "côté opposé au sien.",
            },
        ),
        Example(
            "archimedes-distance",
            1,
            rows.view(),
            {
                "en": f"The cube on {cube} stands where three rows cross (lit up). They hold {distance} "
                f"cubes, the cube itself counted, so it moves exactly {distance} cells; it may turn on the "
                f"way but never touch another cube. The {n} rings are where it can go.",
                "de": f"Der Würfel auf {cube} steht im Schnittpunkt von drei Reihen (hell). Sie enthalten "
                f"{distance} Würfel, ihn selbst mitgezählt, also zieht er genau {distance} Felder weit; er "
                f"darf unterwegs abbiegen, aber keinen anderen Würfel berühren. Die {n} Ringe zeigen, wohin "
                "er kann.",
                "fr": f"Le cube en {cube} est à la croisée de trois rangées (éclairées). Elles portent "
                f"{distance} cubes, lui compris, donc il avance d'exactement {distance} cases ; il peut "
                f"tourner en route mais ne touche jamais un autre cube. Les {n} anneaux montrent où il "
                "peut aller.",
            },
            shown,
        ),
    ]


# --- Agamemnon ---------------------------------------------------------------------------------------
def _agamemnon() -> list[Example]:
    strings = _Script("agamemnon")
    strings.play("draw A")
    strings.play("A@1")  # space 1: a strength and a force connection, no leadership
    warp = _Script("agamemnon")
    for move in ("draw A", "A@1", "draw WARP", "draw W3", "WARP@8", "swap 4-8 8-9"):
        warp.play(move)
    return [
        Example(
            "agamemnon-strings",
            3,
            strings.view(),
            {
                "en": "Orange placed leader A (one spear) on space 1. Its spear counts for the strength "
                "string to space 0, the tile itself for the force string to space 5: orange controls both. "
                "Its letter has no effect here: no leadership string touches space 1.",
                "de": "Orange hat den Anführer A (ein Speer) auf Feld 1 gelegt. Sein Speer zählt für den "
                "Strang der Stärke zu Feld 0, das Plättchen selbst für den Strang der Kraft zu Feld 5: "
                "Orange beherrscht beide. Sein Buchstabe wirkt hier nicht: kein Strang der Führung berührt "
                "Feld 1.",
                "fr": "Orange a posé le chef A (une lance) sur la case 1. Sa lance compte pour le cordon de "
                "force vers la case 0, la tuile elle-même pour le cordon de puissance vers la case 5 : "
                "orange contrôle les deux. Sa lettre n'a pas d'effet ici : aucun cordon de commandement ne "
                "touche la case 1.",
            },
        ),
        Example(
            "agamemnon-warp",
            2,
            warp.view(),
            {
                "en": "Black placed a Warp on space 8 and swapped two of its connections of different "
                "kinds: 4–8 was leadership and is now strength, 8–9 was strength and is now leadership "
                "(both marked).",
                "de": "Schwarz hat eine Kette auf Feld 8 gelegt und zwei ihrer Verbindungen verschiedener "
                "Sorte getauscht: 4–8 war Führung und ist jetzt Stärke, 8–9 war Stärke und ist jetzt "
                "Führung (beide markiert).",
                "fr": "Noir a posé une Chaîne sur la case 8 et échangé deux de ses liaisons de sortes "
                "différentes : 4–8 était commandement et devient force, 8–9 était force et devient "
                "commandement (les deux sont marquées).",
            },
        ),
    ]


# --- Athos -------------------------------------------------------------------------------------------
_ROW = re.compile(r"^[a-z]+(\d+)$")


def _row(name: str) -> int:
    m = _ROW.match(name)
    return int(m.group(1)) if m else 0


def _walk(script: _Script, start: str, steps: int, taken: set[str]) -> str:
    """Walk one monk from ``start`` uphill for ``steps`` steps, never ending on ``taken``."""
    here = start
    for k in range(steps):
        last = k == steps - 1

        def ok(move: str, here: str = here, last: bool = last) -> bool:
            origin, _, target = move.partition("-")
            return origin == here and _ROW.match(target) is not None and not (last and target in taken)

        played = script.play_first(ok, key=lambda m: (-_row(m.partition("-")[2]), m))
        if played is None:
            raise ValueError(f"no step from {here}")
        here = played.partition("-")[2]
    return here


def _athos_turn_one(script: _Script) -> tuple[list[str], list[str]]:
    """Red's turn: monks walk 2, 3 and 1 fields (the rulebook's example), then 5 tiles."""
    start = script.game.player_name(0)[-2]  # "red (A)" -> "A"
    ends: set[str] = set()
    for steps in (2, 3, 1):
        ends.add(_walk(script, start, steps, ends))
    script.play("end-move")
    # lay the tiles in front of the next player's monks, as the rulebook's player A does
    data = web_data(script.game) or {}
    cols = {f[0]: f[1] for f in data.get("fields", [])}
    target = sum(cols[f] for f in data["starts"][script.game.player_name(1)[-2]]) / 2
    placed = []
    for _ in range(data["max_tiles"]):
        move = script.play_first(
            lambda m: m.startswith("place "),
            key=lambda m: (abs(cols[m[6:]] - target) + _row(m[6:]), m),
        )
        if move is None:
            break
        placed.append(move[6:])
    script.play("end-turn")
    return sorted(ends), placed


def _athos() -> list[Example]:
    four = _Script("athos", players=4)
    turn = _Script("athos", players=3)
    _athos_turn_one(turn)
    answer = _Script("athos", players=3)
    _, placed = _athos_turn_one(answer)
    # blue answers as the rulebook's player B: flips one of red's tiles, walks, uses a stone
    flipped = answer.play_first(lambda m: m.startswith("flip "), key=lambda m: (-_row(m[5:]), m))
    if flipped is None:
        raise ValueError("blue cannot flip a tile")
    blue = answer.game.player_name(1)[-2]
    _walk(answer, blue, 2, set())
    answer.play("end-move")
    # ... moving one of red's tiles in front of red's monks (the rulebook's field 5)
    data = web_data(answer.game) or {}
    cols = {f[0]: f[1] for f in data.get("fields", [])}
    steps = [m["move"].partition("-")[2] for m in answer.moves if m["player"] == 0 and "-" in m["move"]]
    red = [f for f in steps if f in cols]
    red_col = sum(cols[f] for f in red) / len(red)
    red_row = max(_row(f) for f in red) + 2

    def blocking(move: str) -> tuple[float, str]:
        field = move.split(">")[1]
        return (abs(cols.get(field, 0) - red_col) + 2 * abs(_row(field) - red_row), move)

    relocated = answer.play_first(
        lambda m: m.startswith("relocate ") and m[9:].split(">")[0] in placed, key=blocking
    )
    if relocated is None:
        raise ValueError("blue cannot move a tile")
    source, target = relocated[9:].split(">")
    stone = answer.play(f"stone {target}")
    answer.play("end-turn")
    max_tiles = (web_data(turn.game) or {})["max_tiles"]
    return [
        Example(
            "athos-start-4",
            0,
            four.view(),
            {
                "en": "Four players start on A, B, D and E, three monks each, below the mountain; the "
                "summit is above the top rows.",
                "de": "Vier Spieler beginnen auf A, B, D und E, je drei Mönche, unterhalb des Berges; der "
                "Gipfel liegt über den obersten Reihen.",
                "fr": "Quatre joueurs partent de A, B, D et E, trois moines chacun, au pied de la montagne ; "
                "le sommet est au-dessus des rangées du haut.",
            },
        ),
        Example(
            "athos-first-turn",
            3,
            turn.view(),
            {
                "en": "Red's first turn with 3 players: one monk walks 2 fields, another 3 and the third 1: "
                f"the 6 movement points (dashed arrows). Then red lays {max_tiles} tiles rubble side up "
                "(outlined), at most 2 of one terrain, in front of blue's monks.",
                "de": "Rots erster Zug zu dritt: Ein Mönch geht 2 Felder, ein anderer 3, der dritte 1: die 6 "
                f"Bewegungspunkte (gestrichelte Pfeile). Dann legt Rot {max_tiles} Plättchen mit dem Geröll "
                "nach oben (umrandet), höchstens 2 je Geländeart, vor die Mönche von Blau.",
                "fr": "Premier tour de rouge à 3 joueurs : un moine avance de 2 champs, un autre de 3 et le "
                "troisième d'un : les 6 points de déplacement (flèches en tirets). Puis rouge pose "
                f"{max_tiles} tuiles face éboulis visible (entourées), au plus 2 par terrain, devant les "
                "moines de bleu.",
            },
        ),
        Example(
            "athos-stone",
            3,
            answer.view(),
            {
                "en": f"Blue answers: flips red's tile on {flipped[5:]} to open ground (4 of the 6 points), "
                f"walks a monk 2 fields, then uses an Athos stone: moves red's tile from {source} to "
                f"{target} and puts the stone on it ({stone[6:]}): that tile can never be flipped or moved "
                "again.",
                "de": f"Blau antwortet: dreht Rots Plättchen auf {flipped[5:]} auf den freien Weg (4 der 6 "
                f"Punkte), zieht einen Mönch 2 Felder und spielt dann einen Athos-Stein: versetzt Rots "
                f"Plättchen von {source} nach {target} und setzt den Stein darauf ({stone[6:]}): dieses "
                "Plättchen kann nie mehr umgedreht oder versetzt werden.",
                "fr": f"Bleu répond : retourne la tuile de rouge en {flipped[5:]} côté chemin (4 des 6 "
                f"points), avance un moine de 2 champs, puis joue une pierre d'Athos : déplace la tuile de "
                f"rouge de {source} en {target} et y pose la pierre ({stone[6:]}) : cette tuile ne pourra "
                "plus jamais être retournée ni déplacée.",
            },
        ),
    ]


_BUILDERS: dict[str, Callable[[], list[Example]]] = {
    "archimedes": _archimedes,
    "agamemnon": _agamemnon,
    "athos": _athos,
}


@cache
def examples(game: str) -> list[Example]:
    """The examples of ``game``'s rules page in page order (none for a game without any)."""
    builder = _BUILDERS.get(game)
    return sorted(builder(), key=lambda e: e.after) if builder else []


__all__ = ["Example", "examples"]
