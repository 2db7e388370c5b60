"""Agamemnon's course "Learn to play" (``/learn/agamemnon``; :mod:`palaestra.core.lessons`): strings
(AGA-SC1, AGA-SC2), control (AGA-SC3, strength), leaders (AGA-SC3, leadership), Weavers (the Weft,
AGA-T5, and the Warp, AGA-T4) and the Oracle (the variant AGA-V2), each on a position of the front
board (docs/agamemnon.md, *Positions*) with the tiles the learner has drawn (``hand``), in English,
German and French. The learner plays orange (the Trojans) in the third turn of the game: two tiles
to place."""

from __future__ import annotations

from typing import Any

from palaestra.core.game import State
from palaestra.core.lessons import Course, FinalText, Lesson, LessonText


def _position(tiles: list[tuple[int, int, str]], hand: list[str] | None, **options: object) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "game": "agamemnon",
        "tiles": [{"space": space, "player": player, "tile": tile} for space, player, tile in tiles],
        "to_move": 0,
    }
    if hand:
        doc["hand"] = hand
    if options:
        doc["options"] = dict(options)
    return doc


def _texts(en: tuple[str, ...], de: tuple[str, ...], fr: tuple[str, ...]) -> dict[str, LessonText]:
    def one(words: tuple[str, ...]) -> LessonText:
        title, intro, task, hint, done = words
        return {"title": title, "intro": intro, "task": task, "hint": hint, "done": done}

    return {"en": one(en), "de": one(de), "fr": one(fr)}


def _controlled(state: State, player: int, kind: str) -> list[list[list[int]]]:
    """The connections of each string of ``kind`` that ``player`` controls now (AGA-SC3)."""
    return [
        s["connections"]
        for s in state.score_details()["strings"]
        if s["kind"] == kind and s["controller"] == player
    ]


def _long_strength_string(start: State, now: State) -> bool:
    return any(len(c) >= 3 for c in _controlled(now, start.current_player, "strength"))


def _strength_4_9(start: State, now: State) -> bool:
    return any([4, 9] in c for c in _controlled(now, start.current_player, "strength"))


def _leadership(start: State, now: State) -> bool:
    return bool(_controlled(now, start.current_player, "leadership"))


def _force_by_weft(start: State, now: State) -> bool:
    me = start.current_player
    wefts = [t for t in now.to_position()["tiles"] if t["player"] == me and t["tile"] == "WEFT"]
    return bool(wefts) and any([13, 14] in c for c in _controlled(now, me, "force"))


def _strength_through_warp(start: State, now: State) -> bool:
    return any([11, 12] in c and len(c) >= 3 for c in _controlled(now, start.current_player, "strength"))


def _two_leader_draws(start: State, now: State) -> bool:
    named = [now.action_to_string(a) for a in now.history[len(start.history) :]]
    return named == ["stack leaders", "stack leaders"]


#: the tiles of the third turn's positions: orange placed one, black two (AGA-T1)
OPENING = [(7, 0, "W2"), (20, 1, "W1"), (25, 1, "W2")]

STRINGS = Lesson(
    id="strings",
    position=_position(OPENING, ["W3", "W1"]),
    solution=("W1@12",),
    goal=_long_strength_string,
    budget=2,
    text=_texts(
        (
            "Strings",
            "Each connection carries a string tile: strength (red), force (blue-green) or leadership "
            "(yellow). Connections of one kind that meet at a space holding a tile form one string; "
            "an empty space cuts it. The string's controller scores a point per connection.",
            "Your warrior on space 7 holds a strength string of 2 connections (3–7 and 7–12). Place "
            "a tile so that you control a strength string of 3 connections or more.",
            "Space 12 lies between 7–12 and 12–16: a tile there joins them into one string. Pick a "
            "drawn tile, then click space 12.",
            "Your tile on 12 joined the connections into one string of 3: three points for you.",
        ),
        (
            "Stränge",
            "Auf jeder Verbindung liegt ein Strangplättchen: Stärke (rot), Kraft (blaugrün) oder "
            "Führung (gelb). Verbindungen einer Art, die sich auf einem belegten Feld treffen, bilden "
            "einen Strang; ein leeres Feld unterbricht ihn. Wer den Strang beherrscht, bekommt einen "
            "Punkt je Verbindung.",
            "Dein Krieger auf Feld 7 hält einen Stärke-Strang aus 2 Verbindungen (3–7 und 7–12). Lege "
            "ein Plättchen so, dass du einen Stärke-Strang aus 3 oder mehr Verbindungen beherrschst.",
            "Feld 12 liegt zwischen 7–12 und 12–16: ein Plättchen dort verbindet sie zu einem Strang. "
            "Wähle ein gezogenes Plättchen, dann Feld 12.",
            "Dein Plättchen auf 12 verbindet die Verbindungen zu einem Strang aus 3: drei Punkte für dich.",
        ),
        (
            "Les cordons",
            "Chaque liaison porte une tuile de cordon : force (rouge), puissance (bleu-vert) ou "
            "commandement (jaune). Les liaisons d'une même sorte qui se rejoignent sur une case "
            "occupée forment un cordon ; une case vide le coupe. Qui contrôle le cordon marque un "
            "point par liaison.",
            "Votre guerrier sur la case 7 tient un cordon de force de 2 liaisons (3–7 et 7–12). "
            "Posez une tuile pour contrôler un cordon de force de 3 liaisons ou plus.",
            "La case 12 est entre 7–12 et 12–16 : une tuile y relie les deux en un seul cordon. "
            "Choisissez une tuile tirée, puis la case 12.",
            "Votre tuile sur 12 a relié les liaisons en un cordon de 3 : trois points pour vous.",
        ),
    ),
)

CONTROL = Lesson(
    id="control",
    position=_position([(20, 0, "W1"), (4, 1, "W2"), (25, 1, "W1")], ["W3", "W1"]),
    solution=("W3@9",),
    goal=_strength_4_9,
    wrong={
        "W1@9": {
            "en": "Your warrior 1 has one spear, black's warrior on 4 has two: black would keep the "
            "string. On strength the side with more spears wins.",
            "de": "Dein Krieger 1 hat einen Speer, Schwarz' Krieger auf 4 hat zwei: Schwarz behielte "
            "den Strang. Bei Stärke gewinnt die Seite mit mehr Speeren.",
            "fr": "Votre guerrier 1 a une lance, le guerrier noir sur 4 en a deux : le noir "
            "garderait le cordon. En force, le camp qui a le plus de lances l'emporte.",
        }
    },
    text=_texts(
        (
            "Control",
            "Who controls a string depends on its kind. Strength: the side with more spears on the "
            "string's tiles. Force: the side with more tiles. A tie: nobody. The number on a warrior "
            "is its spears.",
            "Black's warrior 2 on space 4 controls the strength string 0–4, 4–9. Take it: place a "
            "tile on space 9 that brings more spears than black's.",
            "Your warrior 3 has three spears, more than black's two. Pick it, then click space 9.",
            "Three spears against two: the strength string is yours.",
        ),
        (
            "Beherrschen",
            "Wer einen Strang beherrscht, hängt von seiner Art ab. Stärke: die Seite mit mehr "
            "Speeren auf den Plättchen des Strangs. Kraft: die Seite mit mehr Plättchen. Gleichstand: "
            "niemand. Die Zahl auf einem Krieger sind seine Speere.",
            "Der schwarze Krieger 2 auf Feld 4 beherrscht den Stärke-Strang 0–4, 4–9. Nimm ihn dir: "
            "lege auf Feld 9 ein Plättchen mit mehr Speeren als Schwarz.",
            "Dein Krieger 3 hat drei Speere, mehr als die zwei von Schwarz. Wähle ihn, dann Feld 9.",
            "Drei Speere gegen zwei: der Stärke-Strang gehört dir.",
        ),
        (
            "Le contrôle",
            "Qui contrôle un cordon dépend de sa sorte. Force : le camp qui a le plus de lances sur les "
            "tuiles du cordon. Puissance : le camp qui a le plus de tuiles. Égalité : personne. Le "
            "nombre d'un guerrier est son nombre de lances.",
            "Le guerrier noir 2 sur la case 4 contrôle le cordon de force 0–4, 4–9. Prenez-le : "
            "posez sur la case 9 une tuile avec plus de lances que le noir.",
            "Votre guerrier 3 a trois lances, plus que les deux du noir. Choisissez-le, puis la case 9.",
            "Trois lances contre deux : le cordon de force est à vous.",
        ),
    ),
)

LEADERS = Lesson(
    id="leaders",
    position=_position([(0, 0, "W1"), (18, 1, "C"), (25, 1, "W1")], ["A", "W2"]),
    solution=("A@14",),
    goal=_leadership,
    wrong={
        "W2@14": {
            "en": "A warrior has no rank: on a leadership string only leaders count, and black's "
            "leader C would keep it. Place your leader A there.",
            "de": "Ein Krieger hat keinen Rang: auf einem Führungs-Strang zählen nur Anführer, und "
            "Schwarz' Anführer C behielte ihn. Lege dort deinen Anführer A hin.",
            "fr": "Un guerrier n'a pas de rang : sur un cordon de commandement seuls les chefs comptent, "
            "et le chef C du noir le garderait. Posez-y votre chef A.",
        }
    },
    text=_texts(
        (
            "Leaders",
            "Leadership strings (yellow) go to the side with the highest leader: A ranks above B, "
            "B above C, and so on. Equal leaders: the next ones decide. Warriors and weavers have no rank.",
            "Black's leader C on space 18 holds the leadership string around it. Take it with your "
            "leader A: place it on space 14, which joins that string.",
            "Pick your leader A, then click space 14 (its yellow connections lead to 18).",
            "A beats C: the leadership string is yours.",
        ),
        (
            "Anführer",
            "Führungs-Stränge (gelb) gehen an die Seite mit dem höchsten Anführer: A steht über B, B "
            "über C und so weiter. Bei gleichen Anführern entscheiden die nächsten. Krieger und "
            "Weber haben keinen Rang.",
            "Der schwarze Anführer C auf Feld 18 hält den Führungs-Strang um sich. Nimm ihn mit deinem "
            "Anführer A: lege ihn auf Feld 14, das zu diesem Strang gehört.",
            "Wähle deinen Anführer A, dann Feld 14 (seine gelben Verbindungen führen zu 18).",
            "A schlägt C: der Führungs-Strang gehört dir.",
        ),
        (
            "Les chefs",
            "Les cordons de commandement (jaunes) vont au camp qui a le chef le plus haut : A passe "
            "avant B, B avant C, et ainsi de suite. À chefs égaux, les suivants décident. Guerriers "
            "et tisserands n'ont pas de rang.",
            "Le chef noir C sur la case 18 tient le cordon de commandement autour de lui. "
            "Prenez-le avec votre chef A : posez-le sur la case 14, qui rejoint ce cordon.",
            "Choisissez votre chef A, puis la case 14 (ses liaisons jaunes mènent à 18).",
            "A bat C : le cordon de commandement est à vous.",
        ),
    ),
)

WEFT = Lesson(
    id="weft",
    position=_position([(8, 0, "W1"), (13, 1, "W3"), (25, 1, "W1")], ["WEFT", "W2"]),
    solution=("WEFT@14",),
    goal=_force_by_weft,
    budget=2,
    text=_texts(
        (
            "Weavers: the Weft",
            "Weavers bend the strings. A Weft cuts every string at its space, and counts as one tile "
            "for force. A Warp lets you swap two string tiles at its space right after placing it.",
            "The force string 8–13 is tied: one tile each. Place your Weft on space 14 so that you "
            "have more tiles on that force string.",
            "Pick the Weft, then click space 14 (its blue-green connection leads to 13).",
            "Your Weft counts as a tile: two against one, the force string is yours.",
        ),
        (
            "Weber: der Schuss",
            "Weber verbiegen die Stränge. Ein Schuss (Weft) unterbricht jeden Strang auf seinem Feld "
            "und zählt bei Kraft als ein Plättchen. Mit einer Kette (Warp) tauschst du gleich nach "
            "dem Legen zwei Strangplättchen auf ihrem Feld.",
            "Der Kraft-Strang 8–13 steht unentschieden: je ein Plättchen. Lege deinen Schuss auf "
            "Feld 14, damit du auf diesem Kraft-Strang mehr Plättchen hast.",
            "Wähle den Schuss, dann Feld 14 (seine blaugrüne Verbindung führt zu 13).",
            "Dein Schuss zählt als Plättchen: zwei gegen eins, der Kraft-Strang gehört dir.",
        ),
        (
            "Les tisserands : la trame",
            "Les tisserands plient les cordons. Une trame (Weft) coupe tous les cordons sur sa case et "
            "compte pour une tuile en puissance. Une chaîne (Warp) permet, juste après l'avoir posée, "
            "d'échanger deux tuiles de cordon sur sa case.",
            "Le cordon de puissance 8–13 est à égalité : une tuile chacun. Posez votre trame sur "
            "la case 14 pour avoir plus de tuiles sur ce cordon.",
            "Choisissez la trame, puis la case 14 (sa liaison bleu-vert mène à 13).",
            "Votre trame compte comme une tuile : deux contre une, le cordon de puissance est à vous.",
        ),
    ),
)

WARP = Lesson(
    id="warp",
    position=_position([(11, 0, "W3"), (20, 1, "W1"), (25, 1, "W2")], ["WARP", "W1"]),
    solution=("WARP@12", "swap 11-12 12-16"),
    goal=_strength_through_warp,
    wrong={
        "noswap": {
            "en": "Without a swap, 11–12 stays a leadership connection, and you have no leader there. "
            "Swap it with one of the red strength connections at 12.",
            "de": "Ohne Tausch bleibt 11–12 eine Führungs-Verbindung, und dort hast du keinen Anführer. "
            "Tausche sie mit einer der roten Stärke-Verbindungen an 12.",
            "fr": "Sans échange, 11–12 reste une liaison de commandement, et vous n'y avez pas de chef. "
            "Échangez-la avec une des liaisons rouges de force sur la case 12.",
        }
    },
    text=_texts(
        (
            "Weavers: the Warp",
            "Right after placing a Warp you may swap the string tiles of two connections of "
            "different kinds at its space: a connection changes its kind, and strings change with it.",
            "Your warrior 3 on space 11 holds the strength connection 9–11. Place your Warp on space "
            "12, then swap the leadership connection 11–12 with a strength connection at 12, so that "
            "your strength string grows to 3 connections.",
            "Pick the Warp and click space 12; then click the yellow connection 11–12 and the red 12–16.",
            "11–12 is a strength connection now: your string runs from 9 over 11 to 12.",
        ),
        (
            "Weber: die Kette",
            "Gleich nach dem Legen einer Kette darfst du auf ihrem Feld die Strangplättchen zweier "
            "Verbindungen verschiedener Art tauschen: eine Verbindung wechselt ihre Art, und die "
            "Stränge wechseln mit.",
            "Dein Krieger 3 auf Feld 11 hält die Stärke-Verbindung 9–11. Lege deine Kette auf Feld 12 "
            "und tausche dann die Führungs-Verbindung 11–12 mit einer Stärke-Verbindung an 12, damit "
            "dein Stärke-Strang auf 3 Verbindungen wächst.",
            "Wähle die Kette und klicke Feld 12; dann die gelbe Verbindung 11–12 und die rote 12–16.",
            "11–12 ist jetzt eine Stärke-Verbindung: dein Strang reicht von 9 über 11 bis 12.",
        ),
        (
            "Les tisserands : la chaîne",
            "Juste après avoir posé une chaîne, vous pouvez échanger sur sa case les tuiles de "
            "cordon de deux liaisons de sortes différentes : une liaison change de sorte, et les cordons "
            "changent avec elle.",
            "Votre guerrier 3 sur la case 11 tient la liaison de force 9–11. Posez votre chaîne "
            "sur la case 12, puis échangez la liaison de commandement 11–12 avec une liaison de "
            "force sur la case 12, pour que votre cordon de force passe à 3 liaisons.",
            "Choisissez la chaîne et cliquez sur la case 12 ; puis sur la liaison jaune 11–12 et "
            "la rouge 12–16.",
            "11–12 est maintenant une liaison de force : votre cordon va de 9 par 11 jusqu'à 12.",
        ),
    ),
)

ORACLE = Lesson(
    id="oracle",
    position=_position(OPENING, None, oracle=True),
    options={"oracle": True},
    solution=("stack leaders", "stack leaders"),
    goal=_two_leader_draws,
    text=_texts(
        (
            "The Oracle",
            "The Oracle is a variant: before drawing, you name the stack each tile comes from, "
            "leaders (A–E), weavers or warriors. The tile itself is still drawn at random.",
            "You need leaders. Name the leaders' stack for both of this turn's draws.",
            "Press “Next draw from the leaders” twice.",
            "Both draws will be leaders. The variant is offered under “More options” of a new game.",
        ),
        (
            "Das Orakel",
            "Das Orakel ist eine Variante: vor dem Ziehen nennst du den Stapel, aus dem jedes "
            "Plättchen kommt: Anführer (A–E), Weber oder Krieger. Das Plättchen selbst wird weiter "
            "zufällig gezogen.",
            "Du brauchst Anführer. Nenne für beide Ziehungen dieses Zuges den Stapel der Anführer.",
            "Wähle zweimal den Knopf für den Stapel der Anführer.",
            "Beide Ziehungen werden Anführer. Die Variante steht bei einer neuen Partie unter „Weitere "
            "Optionen“.",
        ),
        (
            "L'Oracle",
            "L'Oracle est une variante : avant de tirer, vous nommez la pile d'où vient chaque tuile, "
            "chefs (A–E), tisserands ou guerriers. La tuile elle-même est toujours tirée au hasard.",
            "Il vous faut des chefs. Nommez la pile des chefs pour les deux tirages de ce tour.",
            "Choisissez deux fois le bouton de la pile des chefs.",
            "Les deux tirages seront des chefs. La variante se trouve dans « Plus d'options » d'une "
            "nouvelle partie.",
        ),
    ),
)

FINAL: dict[str, FinalText] = {
    "en": {"title": "Your first game", "text": "Play a whole game of Agamemnon against the beginner AI."},
    "de": {
        "title": "Deine erste Partie",
        "text": "Spiele eine ganze Partie Agamemnon gegen die Anfänger-KI.",
    },
    "fr": {
        "title": "Votre première partie",
        "text": "Jouez une partie entière d'Agamemnon contre l'IA débutante.",
    },
}

COURSE = Course(lessons=(STRINGS, CONTROL, LEADERS, WEFT, WARP, ORACLE), final=FINAL, level="beginner")
