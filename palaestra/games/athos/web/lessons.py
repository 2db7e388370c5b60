"""Athos's course "Learn to play" (``/learn/athos``; :mod:`palaestra.core.lessons`): one lesson per
idea of the rulebook, each a small position of the engine (docs/athos.md, *Position format*) with
its task in English, German and French. The learner plays red (seat B) except in the last lesson,
where blue (D), the last seat of the round, brings in its last monk and the game ends at once."""

from __future__ import annotations

from typing import Any

from palaestra.core.game import State
from palaestra.core.lessons import Course, FinalText, Lesson, LessonText

OPTIONS: dict[str, object] = {"players": 2}


def _position(**fields: Any) -> dict[str, Any]:
    return {"game": "athos", "options": dict(OPTIONS), "round": 8, **fields}


def _texts(en: tuple[str, ...], de: tuple[str, ...], fr: tuple[str, ...]) -> dict[str, LessonText]:
    def one(words: tuple[str, ...]) -> LessonText:
        title, intro, task, hint, done = words
        return {"title": title, "intro": intro, "task": task, "hint": hint, "done": done}

    return {"en": one(en), "de": one(de), "fr": one(fr)}


def _in_play(state: State, player: int) -> list[str]:
    monks: list[list[str]] = state.to_position()["monks"]
    return monks[player]


def _reached_summit(start: State, now: State) -> bool:
    """One more of the mover's monks is on the summit."""
    me = start.current_player
    return len(_in_play(now, me)) < len(_in_play(start, me))


def _on_k16(start: State, now: State) -> bool:
    return "k16" in _in_play(now, start.current_player)


def _blue_way_longer(start: State, now: State) -> bool:
    """Blue's monks need more steps to the summit than before (ATH-E3's distance sum)."""
    return int(now.score_details()["distances"][1]) > int(start.score_details()["distances"][1])


def _stone_in_blues_way(start: State, now: State) -> bool:
    mine = [s for s in now.to_position()["stones"] if s["player"] == start.current_player]
    return bool(mine) and _blue_way_longer(start, now)


def _turn_ended_with_a_tile(start: State, now: State) -> bool:
    return now.current_player != start.current_player and len(now.to_position()["tiles"]) > len(
        start.to_position()["tiles"]
    )


def _won(start: State, now: State) -> bool:
    return now.is_terminal() and now.returns()[start.current_player] > 0


PIT = ["o8", "q8", "r9"]  # rubble around blue's monk on p9: its one way out is q10

WALKING = Lesson(
    id="walking",
    position=_position(monks=[["j15", "B", "B"], ["D", "D", "D"]]),
    solution=("j15-k16", "k16-summit"),
    goal=_reached_summit,
    wrong={
        "j15-k14": {
            "en": "That step goes down the mountain: the summit is above j15.",
            "de": "Dieser Schritt führt bergab: der Gipfel liegt über j15.",
            "fr": "Ce pas descend la montagne : le sommet est au-dessus de j15.",
        }
    },
    text=_texts(
        (
            "Walking",
            "Each turn you have 6 movement points. One step of one of your monks to a neighbouring "
            "field costs one point. The monks walk from their start field at the foot of the mountain "
            "up to the monastery on the summit.",
            "Move your monk from j15 to the summit in two steps: click the monk, then a highlighted field.",
            "Two steps are enough: first to a field of the top row (i16 or k16), then onto the summit.",
            "Your monk has arrived! The first monks to arrive also win bonus points for this turn.",
        ),
        (
            "Gehen",
            "Jeder Zug bringt 6 Bewegungspunkte. Ein Schritt eines eigenen Mönchs auf ein Nachbarfeld "
            "kostet einen Punkt. Die Mönche gehen von ihrem Startfeld am Fuß des Berges hinauf zum "
            "Kloster auf dem Gipfel.",
            "Bring deinen Mönch von j15 in zwei Schritten auf den Gipfel: klicke den Mönch, dann ein "
            "hervorgehobenes Feld.",
            "Zwei Schritte genügen: zuerst auf ein Feld der obersten Reihe (i16 oder k16), dann auf den "
            "Gipfel.",
            "Dein Mönch ist angekommen! Die ersten Mönche bringen in diesem Zug zusätzlich Bonuspunkte.",
        ),
        (
            "Marcher",
            "À chaque tour vous avez 6 points de mouvement. Un pas d'un de vos moines vers un champ "
            "voisin coûte un point. Les moines montent de leur case de départ au pied de la montagne "
            "jusqu'au monastère du sommet.",
            "Amenez votre moine de j15 au sommet en deux pas : cliquez sur le moine, puis sur un champ "
            "en surbrillance.",
            "Deux pas suffisent : d'abord sur un champ de la rangée du haut (i16 ou k16), puis au sommet.",
            "Votre moine est arrivé ! Les premiers moines arrivés donnent aussi des points de bonus pour "
            "ce tour.",
        ),
    ),
)

FLIPPING = Lesson(
    id="flipping",
    position=_position(
        monks=[["j15", "B", "B"], ["D", "D", "D"]], tiles=[{"field": "k16"}, {"field": "i16"}]
    ),
    solution=("flip k16", "j15-k16"),
    goal=_on_k16,
    budget=3,
    wrong={
        "j15-k16": {
            "en": "A monk never steps onto rubble. Flip the tile first: press “Flip a tile”, then click k16.",
            "de": "Ein Mönch betritt nie Geröll. Drehe das Plättchen zuerst um: „Ein Plättchen umdrehen“, "
            "dann k16 anklicken.",
            "fr": "Un moine ne marche jamais sur des éboulis. Retournez d'abord la tuile : « Retourner "
            "une tuile », puis cliquez sur k16.",
        }
    },
    text=_texts(
        (
            "Flipping a tile",
            "Rubble tiles (dark) block the way. For 4 movement points you may flip a tile: its open "
            "side becomes an ordinary field again, and the other way round.",
            "Rubble lies on i16 and k16. Flip the tile on k16, then step onto it with your monk.",
            "First “Flip a tile” and click k16 (4 points), then move the monk from j15 to k16 (1 point).",
            "Well done: the rubble is open ground now, and your monk stands on it.",
        ),
        (
            "Ein Plättchen umdrehen",
            "Geröllplättchen (dunkel) versperren den Weg. Für 4 Bewegungspunkte darfst du ein "
            "Plättchen umdrehen: seine offene Seite ist wieder ein gewöhnliches Feld, und umgekehrt.",
            "Geröll liegt auf i16 und k16. Drehe das Plättchen auf k16 um und stelle dann deinen Mönch "
            "darauf.",
            "Zuerst „Ein Plättchen umdrehen“ und k16 anklicken (4 Punkte), dann den Mönch von j15 nach k16 "
            "ziehen (1 Punkt).",
            "Gut gemacht: das Geröll ist jetzt offenes Gelände, und dein Mönch steht darauf.",
        ),
        (
            "Retourner une tuile",
            "Les tuiles d'éboulis (sombres) barrent le chemin. Pour 4 points de mouvement, vous pouvez "
            "retourner une tuile : sa face ouverte redevient un champ ordinaire, et inversement.",
            "Des éboulis couvrent i16 et k16. Retournez la tuile de k16, puis placez-y votre moine.",
            "D'abord « Retourner une tuile » et cliquez sur k16 (4 points), puis déplacez le moine de j15 "
            "à k16 (1 point).",
            "Bravo : l'éboulis est devenu terrain ouvert, et votre moine s'y trouve.",
        ),
    ),
)

PATH_RULE = Lesson(
    id="rubble",
    position=_position(
        monks=[["B", "B", "B"], ["p9", "D", "D"]],
        tiles=[{"field": f} for f in PIT],
        phase="stone",
        to_move=0,
        points=0,
    ),
    solution=("place p11",),
    goal=_blue_way_longer,
    wrong={
        "place q10": {
            "en": "Not allowed: rubble on q10 would shut blue's monk in. Every monk must always keep "
            "a way to the summit without rubble (the path rule). Block its way further up instead.",
            "de": "Nicht erlaubt: Geröll auf q10 würde Blaus Mönch einschließen. Jeder Mönch muss "
            "immer einen Weg ohne Geröll zum Gipfel behalten (die Wegregel). Versperre seinen Weg "
            "weiter oben.",
            "fr": "Interdit : des éboulis sur q10 enfermeraient le moine bleu. Chaque moine doit "
            "toujours garder un chemin sans éboulis vers le sommet (la règle du chemin). Barrez "
            "plutôt son chemin plus haut.",
        }
    },
    text=_texts(
        (
            "Rubble and the path rule",
            "After moving, you lay rubble tiles on free fields to slow the others down. One rule "
            "above all: every monk must always keep a way to the summit without rubble.",
            "Blue's monk on p9 is hemmed in by rubble; its only way out is q10. Lay one tile so that "
            "its way to the summit gets longer.",
            "Put the tile on the short way up, one field beyond the way out: p11, o12 or n13.",
            "Blue's monk now needs a longer way round, and it still has one, as the rule wants.",
        ),
        (
            "Geröll und die Wegregel",
            "Nach dem Gehen legst du Geröllplättchen auf freie Felder, um die anderen aufzuhalten. "
            "Eine Regel geht vor: jeder Mönch muss immer einen Weg ohne Geröll zum Gipfel behalten.",
            "Blaus Mönch auf p9 ist von Geröll umgeben; sein einziger Ausweg ist q10. Lege ein "
            "Plättchen so, dass sein Weg zum Gipfel länger wird.",
            "Lege das Plättchen auf den kurzen Weg nach oben, ein Feld hinter dem Ausweg: p11, o12 oder n13.",
            "Blaus Mönch muss jetzt einen Umweg gehen, und er hat noch einen, wie die Regel es will.",
        ),
        (
            "Les éboulis et la règle du chemin",
            "Après le mouvement, vous posez des tuiles d'éboulis sur des champs libres pour freiner "
            "les autres. Une règle passe avant tout : chaque moine doit toujours garder un chemin "
            "sans éboulis vers le sommet.",
            "Le moine bleu sur p9 est entouré d'éboulis ; sa seule sortie est q10. Posez une tuile "
            "de sorte que son chemin vers le sommet s'allonge.",
            "Posez la tuile sur le chemin court, un champ après la sortie : p11, o12 ou n13.",
            "Le moine bleu doit faire un détour, et il en a encore un, comme le veut la règle.",
        ),
    ),
)

STONE = Lesson(
    id="stone",
    position=_position(
        monks=[["B", "B", "B"], ["p9", "D", "D"]],
        tiles=[{"field": f} for f in [*PIT, "c6"]],
        phase="stone",
        to_move=0,
        points=0,
    ),
    solution=("relocate c6>p11", "stone p11"),
    goal=_stone_in_blues_way,
    wrong={
        "relocate c6>q10": {
            "en": "Not allowed: a tile on q10 would shut blue's monk in (the path rule). Move the "
            "tile to p11 instead.",
            "de": "Nicht erlaubt: ein Plättchen auf q10 würde Blaus Mönch einschließen (die Wegregel). "
            "Versetze das Plättchen stattdessen nach p11.",
            "fr": "Interdit : une tuile sur q10 enfermerait le moine bleu (la règle du chemin). "
            "Déplacez plutôt la tuile sur p11.",
        }
    },
    text=_texts(
        (
            "The Athos stone",
            "Twice per game, after moving, you may use an Athos stone: first move any tile without "
            "a monk to a free field, then put the stone on a tile. A tile with a stone is never "
            "flipped or moved again.",
            "Press “Use an Athos stone”, move the rubble tile from c6 to p11, in blue's way, then put "
            "the stone on it.",
            "Click the tile on c6, then the field p11; then click p11 again for the stone.",
            "Blue can no longer flip that rubble: its way up stays long.",
        ),
        (
            "Der Athos-Stein",
            "Zweimal im Spiel darfst du nach dem Gehen einen Athos-Stein einsetzen: zuerst ein "
            "Plättchen ohne Mönch auf ein freies Feld versetzen, dann den Stein auf ein Plättchen "
            "legen. Ein Plättchen mit Stein wird nie mehr umgedreht oder versetzt.",
            "Wähle „Einen Athos-Stein einsetzen“, versetze das Geröll von c6 nach p11, in Blaus Weg, und "
            "lege den Stein darauf.",
            "Klicke das Plättchen auf c6, dann das Feld p11; dann noch einmal p11 für den Stein.",
            "Blau kann dieses Geröll nicht mehr umdrehen: sein Weg nach oben bleibt lang.",
        ),
        (
            "La pierre d'Athos",
            "Deux fois par partie, après le mouvement, vous pouvez utiliser une pierre d'Athos : "
            "déplacez d'abord une tuile sans moine sur un champ libre, puis posez la pierre sur une "
            "tuile. Une tuile sous une pierre n'est plus jamais retournée ni déplacée.",
            "Choisissez « Utiliser une pierre d'Athos », déplacez l'éboulis de c6 vers p11, sur le "
            "chemin du bleu, puis posez-y la pierre.",
            "Cliquez sur la tuile de c6, puis sur le champ p11 ; puis encore sur p11 pour la pierre.",
            "Le bleu ne peut plus retourner cet éboulis : son chemin reste long.",
        ),
    ),
)

PLACEMENT = Lesson(
    id="placement",
    position=_position(
        monks=[["j15", "B", "B"], ["D", "D", "D"]],
        tiles=[{"field": "k6"}, {"field": "m6"}],
        phase="place",
        placed={"meadow": 2},
        to_move=0,
    ),
    solution=("place i8", "end-turn"),
    goal=_turn_ended_with_a_tile,
    budget=8,
    wrong={
        "place o6": {
            "en": "o6 is a meadow field, and you have laid two meadow tiles this turn already: with "
            "two players that is the most of one terrain. Choose a field of another colour.",
            "de": "o6 ist ein Wiesenfeld, und du hast in diesem Zug schon zwei Wiesenplättchen gelegt: "
            "zu zweit ist das das Höchste je Gelände. Wähle ein Feld einer anderen Farbe.",
            "fr": "o6 est un champ de prairie, et vous avez déjà posé deux tuiles de prairie ce tour : "
            "à deux joueurs c'est le maximum par terrain. Choisissez un champ d'une autre couleur.",
        }
    },
    text=_texts(
        (
            "Placing tiles",
            "A tile always has the terrain of the field it lies on. With two players you lay at "
            "most 8 tiles per turn, and at most 2 of each terrain. The table under the board counts them.",
            "You have laid two meadow tiles (k6, m6). Lay one tile of another terrain, then end your turn.",
            "Pick a highlighted field that is not meadow (light green), then “End turn” and confirm.",
            "Your turn is over. The supply of each terrain is 16 tiles for the whole game.",
        ),
        (
            "Plättchen legen",
            "Ein Plättchen hat immer das Gelände des Feldes, auf dem es liegt. Zu zweit legst du je "
            "Zug höchstens 8 Plättchen, davon höchstens 2 je Gelände. Die Tabelle unter dem Brett zählt mit.",
            "Du hast zwei Wiesenplättchen gelegt (k6, m6). Lege ein Plättchen eines anderen Geländes "
            "und beende deinen Zug.",
            "Wähle ein hervorgehobenes Feld, das keine Wiese (hellgrün) ist, dann „Zug beenden“ und "
            "bestätigen.",
            "Dein Zug ist vorbei. Von jedem Gelände gibt es für das ganze Spiel 16 Plättchen.",
        ),
        (
            "Poser des tuiles",
            "Une tuile a toujours le terrain du champ où elle est posée. À deux joueurs vous posez "
            "au plus 8 tuiles par tour, dont au plus 2 par terrain. Le tableau sous le plateau les compte.",
            "Vous avez posé deux tuiles de prairie (k6, m6). Posez une tuile d'un autre terrain, puis "
            "terminez votre tour.",
            "Choisissez un champ en surbrillance qui n'est pas une prairie (vert clair), puis « Finir "
            "le tour » et confirmez.",
            "Votre tour est terminé. Chaque terrain compte 16 tuiles pour toute la partie.",
        ),
    ),
)

THE_END = Lesson(
    id="end",
    position=_position(monks=[["B", "B", "B"], ["o16"]], arrivals=[1, 1], to_move=1),
    solution=("o16-summit", "end-move", "end-turn"),
    goal=_won,
    budget=8,
    text=_texts(
        (
            "The end",
            "When a player's last monk arrives, the round is played to its end; then the game is "
            "over. Whoever brought all three monks in wins (several: the most points left decides).",
            "You play blue this time, the last in the round. Bring your last monk from o16 to the "
            "summit, end the movement and end the turn to win.",
            "One step to the summit, then “End movement”, then “End turn” and confirm.",
            "All three of your monks are on the summit: you win! You know the rules now.",
        ),
        (
            "Das Ende",
            "Kommt der letzte Mönch eines Spielers an, wird die Runde zu Ende gespielt; dann ist das "
            "Spiel aus. Wer alle drei Mönche oben hat, gewinnt (bei mehreren entscheiden die "
            "übrigen Punkte).",
            "Diesmal spielst du Blau, als Letzter der Runde. Bring deinen letzten Mönch von o16 auf "
            "den Gipfel, beende das Gehen und den Zug, um zu gewinnen.",
            "Ein Schritt auf den Gipfel, dann „Bewegung beenden“, dann „Zug beenden“ und bestätigen.",
            "Alle drei Mönche sind auf dem Gipfel: du gewinnst! Jetzt kennst du die Regeln.",
        ),
        (
            "La fin",
            "Quand le dernier moine d'un joueur arrive, on termine le tour de table ; puis la partie "
            "est finie. Qui a amené ses trois moines gagne (s'ils sont plusieurs, les points restants "
            "décident).",
            "Vous jouez bleu cette fois, le dernier du tour. Amenez votre dernier moine de o16 au "
            "sommet, terminez le mouvement puis le tour pour gagner.",
            "Un pas vers le sommet, puis « Finir les déplacements », puis « Finir le tour » et confirmez.",
            "Vos trois moines sont au sommet : vous gagnez ! Vous connaissez maintenant les règles.",
        ),
    ),
)

FINAL: dict[str, FinalText] = {
    "en": {"title": "Your first game", "text": "Play a whole game of Athos against the beginner AI."},
    "de": {"title": "Deine erste Partie", "text": "Spiele eine ganze Partie Athos gegen die Anfänger-KI."},
    "fr": {
        "title": "Votre première partie",
        "text": "Jouez une partie entière d'Athos contre l'IA débutante.",
    },
}

COURSE = Course(
    lessons=(WALKING, FLIPPING, PATH_RULE, STONE, PLACEMENT, THE_END),
    final=FINAL,
    level="beginner",
    final_options=OPTIONS,
)
