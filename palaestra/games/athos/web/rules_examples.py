"""The rulebook's examples of Athos for its rules page (``/rules/athos``), declared in
``info.py`` (``WebAssets.examples``): the start with four players, the movement split
(2 + 3 + 1 steps, ATH-T1) and the placement limits with three players (ATH-T8), and the tactical
example (a flip, an Athos stone on a moved tile: ATH-T5, ATH-T7).

Each is a short script of moves in notation played on a fresh engine
(:class:`~palaestra.core.rules_page.Script`), so a figure can never show a position the rules
forbid, with a caption in English, German and French whose numbers and field names come from the
position reached; ``after`` is the index of the section of ``rules_page.py`` it follows.
"""

from __future__ import annotations

import re

from palaestra.core.rules_page import Example, Script
from palaestra.games.athos.web.view import web_data

_ROW = re.compile(r"^[a-z]+(\d+)$")


def _row(name: str) -> int:
    m = _ROW.match(name)
    return int(m.group(1)) if m else 0


def _walk(script: Script, start: str, steps: int, taken: set[str]) -> str:
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


def _athos_turn_one(script: Script) -> tuple[list[str], list[str]]:
    """Red's turn: monks walk 2, 3 and 1 fields (the rulebook's example), then 5 tiles."""
    start = script.game.player_name(0)[-2]  # "red (A)" -> "A"
    ends: set[str] = set()
    for steps in (2, 3, 1):
        ends.add(_walk(script, start, steps, ends))
    script.play("end-move")
    # lay the tiles in front of the next player's monks, as the rulebook's player A does
    data = web_data(script.game)
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


def examples() -> list[Example]:
    four = Script("athos", players=4)
    turn = Script("athos", players=3)
    _athos_turn_one(turn)
    answer = Script("athos", players=3)
    _, placed = _athos_turn_one(answer)
    # blue answers as the rulebook's player B: flips one of red's tiles, walks, uses a stone
    flipped = answer.play_first(lambda m: m.startswith("flip "), key=lambda m: (-_row(m[5:]), m))
    if flipped is None:
        raise ValueError("blue cannot flip a tile")
    blue = answer.game.player_name(1)[-2]
    _walk(answer, blue, 2, set())
    answer.play("end-move")
    # ... moving one of red's tiles in front of red's monks (the rulebook's field 5)
    data = web_data(answer.game)
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
    max_tiles = web_data(turn.game)["max_tiles"]
    return [
        four.example(
            "athos-start-4",
            0,
            {
                "en": "Four players start on A, B, D and E, three monks each, below the mountain; the "
                "summit is above the top rows.",
                "de": "Vier Spieler beginnen auf A, B, D und E, je drei Mönche, unterhalb des Berges; der "
                "Gipfel liegt über den obersten Reihen.",
                "fr": "Quatre joueurs partent de A, B, D et E, trois moines chacun, au pied de la montagne ; "
                "le sommet est au-dessus des rangées du haut.",
            },
        ),
        turn.example(
            "athos-first-turn",
            3,
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
        answer.example(
            "athos-stone",
            3,
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
