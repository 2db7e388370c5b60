"""The rules of Archimedes for players, in English, German and French: the rules page
(``/rules/archimedes``), declared in ``info.py`` (``WebAssets.rules``).

Plain text (the page escapes it). The rulings (../shared/rules/RULINGS.md) are the authority; this
page says the same in players' words and cites no ruling IDs. The figures are in
``rules_examples.py``; each names the index of the section it follows.
"""

from __future__ import annotations

from palaestra.core.rules_page import RulesPages

RULES: RulesPages = {
    "en": {
        "title": "Archimedes — the rules",
        "intro": "2 or 3 players race four cubes each across a board of triangles to the opposite side. "
        "How far a cube moves depends on how crowded its rows are.",
        "sections": [
            (
                "The board and the start",
                [
                    "The board has 96 triangular cells; every cell lies in three rows, one in each direction. "
                    "With 2 players, player 1 starts on side S (a2, a4, a6, a8) and aims for side N (h2, h4, "
                    "h6, h8); player 2 the other way round. With 3 players the sides are S, NE and NW, each "
                    "aiming for the opposite side. Player 1 begins.",
                ],
            ),
            (
                "How far a cube moves",
                [
                    "Count the cubes, of any colour and the moving cube itself, on the three rows through the "
                    "cube's cell. The cube moves exactly that many steps, each to a neighbouring cell, "
                    "turning as it likes, never entering a cell twice and never ending where it started.",
                    "Every cell it enters must be empty and must not touch (share an edge with) any other "
                    "cube. A cube that reaches one of its goal cells before its last step may stop there.",
                ],
            ),
            (
                "Arriving and passing",
                [
                    "A cube on one of its goal cells has arrived: it never moves again but still counts in "
                    "rows and still blocks. A player who cannot move passes; when everybody has passed in a "
                    "row, the game ends and the players are ranked by cubes home.",
                    "With 3 players, a cube on its start cell may move only while fewer than 2 + (your "
                    "arrived cubes) of your cubes stand off their start cells.",
                ],
            ),
            (
                "Winning",
                [
                    "The player who brings the fourth cube home wins at once. Palaestra also ends a game "
                    "with a move limit, and a game where no cube can reach a goal any more: then the cubes "
                    "home decide.",
                ],
            ),
            (
                "In Palaestra",
                [
                    "Click one of your highlighted cubes (the number on it is its distance), then a "
                    "highlighted cell. The last move is shown with its origin, its destination and a "
                    "dashed path.",
                ],
            ),
        ],
    },
    "de": {
        "title": "Archimedes — die Regeln",
        "intro": "2 oder 3 Spieler ziehen je vier Würfel über einen Plan aus Dreiecken auf die "
        "Gegenseite. Wie weit ein Würfel zieht, hängt davon ab, wie voll seine Reihen sind.",
        "sections": [
            (
                "Spielplan und Aufstellung",
                [
                    "Der Plan hat 96 Dreiecksfelder; jedes Feld liegt in drei Reihen, eine je Richtung. Bei "
                    "2 Spielern beginnt Spieler 1 auf Seite S (a2, a4, a6, a8) mit Ziel Seite N (h2, h4, h6, "
                    "h8), Spieler 2 umgekehrt. Bei 3 Spielern sind die Seiten S, NO und NW, jede mit der "
                    "Gegenseite als Ziel. Spieler 1 beginnt.",
                ],
            ),
            (
                "Wie weit ein Würfel zieht",
                [
                    "Zähle die Würfel jeder Farbe, den ziehenden eingeschlossen, auf den drei Reihen durch "
                    "das Feld des Würfels. Der Würfel zieht genau so viele Schritte, jeweils auf ein "
                    "Nachbarfeld, mit beliebigen Richtungswechseln, kein Feld zweimal und nie zurück auf "
                    "sein Startfeld.",
                    "Jedes betretene Feld muss leer sein und darf keinen anderen Würfel berühren (keine "
                    "gemeinsame Kante). Erreicht ein Würfel vor dem letzten Schritt ein Zielfeld, darf er "
                    "dort stehen bleiben.",
                ],
            ),
            (
                "Ankommen und Passen",
                [
                    "Ein Würfel auf einem seiner Zielfelder ist angekommen: er zieht nie wieder, zählt aber "
                    "in den Reihen mit und blockiert weiter. Wer nicht ziehen kann, passt; passen alle "
                    "nacheinander, endet die Partie und die angekommenen Würfel entscheiden.",
                    "Bei 3 Spielern darf ein Würfel auf seinem Startfeld nur ziehen, solange weniger als "
                    "2 + (deine angekommenen Würfel) deiner Würfel ihre Startfelder verlassen haben.",
                ],
            ),
            (
                "Gewinnen",
                [
                    "Wer den vierten Würfel ins Ziel bringt, gewinnt sofort. Palaestra beendet eine Partie "
                    "auch an einer Zuggrenze und wenn kein Würfel mehr ein Ziel erreichen kann: dann "
                    "entscheiden die angekommenen Würfel.",
                ],
            ),
            (
                "In Palaestra",
                [
                    "Klicke einen deiner markierten Würfel (die Zahl darauf ist seine Entfernung), dann ein "
                    "markiertes Feld. Der letzte Zug wird mit Start, Ziel und gestricheltem Weg gezeigt.",
                ],
            ),
        ],
    },
    "fr": {
        "title": "Archimède — les règles",
        "intro": "2 ou 3 joueurs font traverser chacun quatre cubes sur un plateau de triangles jusqu'au "
        "côté opposé. La distance d'un cube dépend du nombre de cubes sur ses rangées.",
        "sections": [
            (
                "Le plateau et le départ",
                [
                    "Le plateau compte 96 cases triangulaires ; chaque case est sur trois rangées, une par "
                    "direction. À 2 joueurs, le joueur 1 part du côté S (a2, a4, a6, a8) vers le côté N "
                    "(h2, h4, h6, h8), le joueur 2 en sens inverse. À 3 joueurs, les côtés sont S, NE et "
                    "NO, chacun visant le côté opposé. Le joueur 1 commence.",
                ],
            ),
            (
                "La distance d'un cube",
                [
                    "Compte les cubes de toutes couleurs, le cube qui bouge compris, sur les trois rangées "
                    "qui passent par sa case. Le cube fait exactement ce nombre de pas, chacun vers une case "
                    "voisine, en tournant à volonté, sans entrer deux fois dans une case et sans finir sur sa "
                    "case de départ.",
                    "Chaque case traversée doit être vide et ne toucher (par un côté) aucun autre cube. Un "
                    "cube qui atteint une case but avant son dernier pas peut s'y arrêter.",
                ],
            ),
            (
                "Arriver et passer",
                [
                    "Un cube sur une de ses cases buts est arrivé : il ne bouge plus, mais compte toujours "
                    "dans les rangées et bloque toujours. Un joueur qui ne peut pas jouer passe ; quand tous "
                    "ont passé à la suite, la partie finit et les cubes arrivés départagent.",
                    "À 3 joueurs, un cube sur sa case de départ ne peut bouger que si moins de 2 + (tes cubes "
                    "arrivés) de tes cubes ont quitté leurs cases de départ.",
                ],
            ),
            (
                "Gagner",
                [
                    "Qui amène son quatrième cube au but gagne aussitôt. Palaestra finit aussi une partie à "
                    "une limite de coups, et quand plus aucun cube ne peut atteindre un but : les cubes "
                    "arrivés décident alors.",
                ],
            ),
            (
                "Dans Palaestra",
                [
                    "Clique un de tes cubes en surbrillance (le nombre est sa distance), puis une case en "
                    "surbrillance. Le dernier coup est montré avec son départ, son arrivée et un chemin en "
                    "pointillés.",
                ],
            ),
        ],
    },
}
