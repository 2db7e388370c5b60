"""Archimedes's course "Learn to play" (``/learn/archimedes``; :mod:`palaestra.core.lessons`): how far
a cube moves (ARC-M1, ARC-M2), no touching (ARC-M3) and reaching home (ARC-M4, ARC-E1), each on a
position of the engine (docs/archimedes.md, *Position format*), in English, German and French.

The rulebook has no capture: cubes never take each other. The nearest idea, taught in its place,
is blocking: a cube keeps every other cube out of the cells around it (ARC-M3). The learner plays
player 1 (S, orange), whose goal is side N (h2 h4 h6 h8)."""

from __future__ import annotations

from typing import Any, cast

from palaestra.core.game import State
from palaestra.core.lessons import Course, FinalText, Lesson, LessonText
from palaestra.games.archimedes.game import ArchimedesGame


def _position(mine: list[str], theirs: list[str]) -> dict[str, Any]:
    return {"game": "archimedes", "players": 2, "cubes": [mine, theirs], "to_move": 0}


def _texts(en: tuple[str, ...], de: tuple[str, ...], fr: tuple[str, ...]) -> dict[str, LessonText]:
    def one(words: tuple[str, ...]) -> LessonText:
        title, intro, task, hint, done = words
        return {"title": title, "intro": intro, "task": task, "hint": hint, "done": done}

    return {"en": one(en), "de": one(de), "fr": one(fr)}


def _cubes(state: State, player: int) -> list[str]:
    cubes: list[list[str]] = state.to_position()["cubes"]
    return cubes[player]


def _on_c12(start: State, now: State) -> bool:
    return "c12" in _cubes(now, start.current_player)


def _h8_blocked(start: State, now: State) -> bool:
    """Blue's cube on h8 had a move before and has none now (its turn: ``legal_actions`` are its)."""
    if now.is_terminal() or now.current_player == start.current_player:
        return False
    h8 = cast(ArchimedesGame, now.game).board.cell("h8")
    return not any(move.start == h8 for move in now.legal_moves())


def _won(start: State, now: State) -> bool:
    return now.is_terminal() and now.returns()[start.current_player] > 0


DISTANCE = Lesson(
    id="distance",
    position=_position(["a2", "a4", "a6", "a8"], ["h2", "h4", "h6", "h8"]),
    solution=("a8-c12",),
    goal=_on_c12,
    wrong={
        "a8-b9": {
            "en": "b9 is three cells away. The cube on a8 counts 4 cubes in its rows, so it must "
            "move exactly 4 cells, no fewer and no more.",
            "de": "b9 ist drei Felder entfernt. Der Würfel auf a8 zählt 4 Würfel in seinen Reihen, "
            "also zieht er genau 4 Felder, nicht weniger und nicht mehr.",
            "fr": "b9 est à trois cases. Le cube de a8 compte 4 cubes dans ses rangées : il doit "
            "avancer d'exactement 4 cases, ni moins ni plus.",
        }
    },
    text=_texts(
        (
            "How far a cube moves",
            "Every cell lies in three rows. A cube moves exactly as many cells as there are cubes in "
            "its three rows, itself included; it may turn as it likes but never enters a cell twice. "
            "The number on each cube is that distance.",
            "Your four cubes stand in one row, so each moves 4 cells. Move the cube on a8 to c12: "
            "click the cube, then a highlighted cell.",
            "Select the cube on a8: the highlighted cells are exactly 4 steps away. c12 is one of them.",
            "Right: 4 cubes in its rows, 4 cells far.",
        ),
        (
            "Wie weit ein Würfel zieht",
            "Jedes Feld liegt in drei Reihen. Ein Würfel zieht genau so viele Felder weit, wie "
            "Würfel in seinen drei Reihen stehen, er selbst mitgezählt; er darf beliebig abbiegen, "
            "betritt aber kein Feld zweimal. Die Zahl auf jedem Würfel ist diese Weite.",
            "Deine vier Würfel stehen in einer Reihe, also zieht jeder 4 Felder. Ziehe den Würfel "
            "von a8 nach c12: klicke den Würfel, dann ein hervorgehobenes Feld.",
            "Wähle den Würfel auf a8: die hervorgehobenen Felder sind genau 4 Schritte entfernt. c12 ist "
            "eines davon.",
            "Richtig: 4 Würfel in seinen Reihen, 4 Felder weit.",
        ),
        (
            "Jusqu'où va un cube",
            "Chaque case se trouve sur trois rangées. Un cube avance d'autant de cases qu'il y a de "
            "cubes sur ses trois rangées, lui compris ; il peut tourner à volonté mais n'entre "
            "jamais deux fois dans la même case. Le nombre sur chaque cube est cette distance.",
            "Vos quatre cubes sont sur une rangée : chacun avance de 4 cases. Amenez le cube de a8 "
            "en c12 : cliquez sur le cube, puis sur une case en surbrillance.",
            "Choisissez le cube de a8 : les cases en surbrillance sont à exactement 4 pas. c12 en fait "
            "partie.",
            "Exact : 4 cubes sur ses rangées, 4 cases plus loin.",
        ),
    ),
)

BLOCKING = Lesson(
    id="blocking",
    position=_position(["a2", "a4", "d9", "f11"], ["e3", "g2", "h6", "h8"]),
    solution=("f11-g10",),
    goal=_h8_blocked,
    wrong={
        "f11-h9": {
            "en": "Not allowed: h9 touches the blue cube on h8. A cube never enters a cell next to "
            "another cube. Use that to block: stop where the blue cube's ways lead past you.",
            "de": "Nicht erlaubt: h9 grenzt an den blauen Würfel auf h8. Ein Würfel betritt nie ein "
            "Feld neben einem anderen Würfel. Nutze das zum Blockieren: halte dort, wo die Wege "
            "des blauen Würfels an dir vorbeiführen.",
            "fr": "Interdit : h9 touche le cube bleu de h8. Un cube n'entre jamais dans une case "
            "voisine d'un autre cube. Servez-vous-en pour bloquer : arrêtez-vous là où passent "
            "les chemins du cube bleu.",
        }
    },
    text=_texts(
        (
            "No touching: blocking",
            "Cubes never capture each other (the rulebook has no capture). Instead, no cube may "
            "enter a cell that is taken or that touches another cube, on its way or at its end. "
            "So every cube blocks the cells around it.",
            "Stop the blue cube on h8: move one of your cubes so that h8 has no move left.",
            "Your cube on f11 moves 3 cells. On g10 it touches h9, the only free way out of h8 (h7 "
            "touches blue's own cube on h6).",
            "The blue cube on h8 is stuck for now: every cell next to it touches a cube.",
        ),
        (
            "Nicht berühren: blockieren",
            "Würfel schlagen einander nie (die Regel kennt kein Schlagen). Stattdessen darf kein "
            "Würfel ein Feld betreten, das besetzt ist oder an einen anderen Würfel grenzt, weder "
            "unterwegs noch am Ende. So sperrt jeder Würfel die Felder um sich herum.",
            "Halte den blauen Würfel auf h8 auf: ziehe einen deiner Würfel so, dass h8 keinen Zug mehr hat.",
            "Dein Würfel auf f11 zieht 3 Felder. Auf g10 grenzt er an h9, den einzigen freien Ausweg "
            "von h8 (h7 grenzt an Blaus eigenen Würfel auf h6).",
            "Der blaue Würfel auf h8 sitzt vorerst fest: jedes Nachbarfeld grenzt an einen Würfel.",
        ),
        (
            "Sans se toucher : bloquer",
            "Les cubes ne se prennent jamais (la règle ne connaît pas la prise). En revanche, aucun "
            "cube n'entre dans une case occupée ou voisine d'un autre cube, en chemin ou à "
            "l'arrivée. Chaque cube bloque donc les cases qui l'entourent.",
            "Arrêtez le cube bleu de h8 : déplacez un de vos cubes de sorte que h8 n'ait plus de coup.",
            "Votre cube de f11 avance de 3 cases. Sur g10, il touche h9, la seule sortie libre de h8 "
            "(h7 touche le cube bleu de h6).",
            "Le cube bleu de h8 est bloqué pour l'instant : chaque case voisine touche un cube.",
        ),
    ),
)

HOME = Lesson(
    id="home",
    position=_position(["h2", "h4", "h6", "g10"], ["a2", "a4", "c6", "d9"]),
    solution=("g10-h8",),
    goal=_won,
    wrong={
        "g10-g7": {
            "en": "That cube walks away from home. A cube may stop on one of its goal cells before "
            "using all its steps: h8 is only two steps from g10.",
            "de": "Dieser Würfel entfernt sich vom Ziel. Ein Würfel darf auf einem Zielfeld anhalten, "
            "bevor er alle Schritte gemacht hat: h8 ist nur zwei Schritte von g10 entfernt.",
            "fr": "Ce cube s'éloigne de l'arrivée. Un cube peut s'arrêter sur une case d'arrivée "
            "avant d'avoir fait tous ses pas : h8 n'est qu'à deux pas de g10.",
        }
    },
    text=_texts(
        (
            "Reaching home",
            "A cube on one of its goal cells (the far side, tinted in your colour) has arrived and "
            "never moves again. When its way reaches a goal cell early, it may stop there. The first "
            "player with all four cubes home wins at once.",
            "Three of your cubes are home. Bring the fourth, on g10, to h8 and win.",
            "The cube on g10 has distance 4, but h8 is two steps away (over h9): it may stop there.",
            "All four cubes are home: you win!",
        ),
        (
            "Ankommen",
            "Ein Würfel auf einem seiner Zielfelder (die Gegenseite, in deiner Farbe getönt) ist "
            "angekommen und zieht nie mehr. Erreicht sein Weg ein Zielfeld früher, darf er dort "
            "anhalten. Wer zuerst alle vier Würfel im Ziel hat, gewinnt sofort.",
            "Drei deiner Würfel sind im Ziel. Bring den vierten, auf g10, nach h8 und gewinne.",
            "Der Würfel auf g10 hat die Weite 4, aber h8 ist zwei Schritte entfernt (über h9): dort "
            "darf er anhalten.",
            "Alle vier Würfel sind im Ziel: du gewinnst!",
        ),
        (
            "Arriver",
            "Un cube sur une de ses cases d'arrivée (le côté opposé, teinté de votre couleur) est "
            "arrivé et ne bouge plus. Si son chemin atteint une case d'arrivée plus tôt, il peut "
            "s'y arrêter. Le premier à amener ses quatre cubes gagne aussitôt.",
            "Trois de vos cubes sont arrivés. Amenez le quatrième, en g10, sur h8 et gagnez.",
            "Le cube de g10 a une distance de 4, mais h8 est à deux pas (par h9) : il peut s'y arrêter.",
            "Vos quatre cubes sont arrivés : vous gagnez !",
        ),
    ),
)

FINAL: dict[str, FinalText] = {
    "en": {"title": "Your first game", "text": "Play a whole game of Archimedes against the beginner AI."},
    "de": {
        "title": "Deine erste Partie",
        "text": "Spiele eine ganze Partie Archimedes gegen die Anfänger-KI.",
    },
    "fr": {
        "title": "Votre première partie",
        "text": "Jouez une partie entière d'Archimedes contre l'IA débutante.",
    },
}

COURSE = Course(
    lessons=(DISTANCE, BLOCKING, HOME), final=FINAL, level="beginner", final_options={"players": 2}
)
