"""The rules of Athos for players, in English, German and French: the rules page
(``/rules/athos``), declared in ``info.py`` (``WebAssets.rules``).

Plain text (the page escapes it). The rulings (../shared/rules/RULINGS.md) are the authority; this
page says the same in players' words and cites no ruling IDs. The figures are in
``rules_examples.py``; each names the index of the section it follows.
"""

from __future__ import annotations

from palaestra.core.rules_page import RulesPages

RULES: RulesPages = {
    "en": {
        "title": "Athos — the rules",
        "intro": "2 to 4 players lead three monks each from the foot of the holy mountain up to the "
        "monastery on the summit, while everybody lays rubble in everybody's way.",
        "sections": [
            (
                "The board",
                [
                    "The mountain is a map of hexagonal fields of five terrains: meadow, forest, olive grove, "
                    "heath and vineyard. Along the bottom lie the start fields A to E; the summit touches the "
                    "fields of the top rows. Start fields and the summit hold any number of monks.",
                    "Each player has 3 monks on their start field (2 players: B and D; 3 players: A, C, E; "
                    "4 players: A, B, D, E) and 2 Athos stones. The supply holds 16 tiles of each terrain, "
                    "rubble on one side, open ground on the other.",
                ],
            ),
            (
                "A turn: moving",
                [
                    "You have 6 movement points. Each step of one of your monks to a neighbouring field costs "
                    "1 point, even onto or across a field with other monks; you may move your monks in any "
                    "order. Rubble cannot be entered; an open tile is ordinary ground.",
                    "Flipping a tile (rubble to open or back) costs 4 points; a tile under a monk or an Athos "
                    "stone cannot be flipped. When your movement ends, no ordinary field may hold two monks.",
                    "A monk that steps onto the summit has arrived. The first five arrivals of the game add "
                    "3, 3, 2, 2 and 1 points at once to the current movement. Unused points lapse when you "
                    "end the movement.",
                ],
            ),
            (
                "A turn: the Athos stone",
                [
                    "After moving, once per turn and at most twice per game, you may use an Athos stone: "
                    "first move any tile without monk or stone to a free field (it keeps its side and "
                    "terrain), then put the stone on a tile. A tile with a stone can never be flipped or "
                    "moved again: it protects a path.",
                ],
            ),
            (
                "A turn: placing tiles",
                [
                    "Then you place tiles, rubble side up, each on a free field of its own terrain: with 2 "
                    "players up to 8 tiles and 2 per terrain, with 3 players 5 and 2, with 4 players 4 and 1. "
                    "No tile may cut any monk off from the summit: every monk must keep a path without "
                    "rubble. Your turn ends when you say so (End turn), with or without tiles.",
                ],
            ),
            (
                "The end",
                [
                    "When a player's last monk arrives, the round is played to its end. Whoever has all "
                    "three monks on the summit wins; if several do, the one with the most movement points "
                    "left when their last monk arrived wins.",
                ],
            ),
            (
                "Variants",
                [
                    "Teams (4 players): A and B play against D and E, seated A, D, B, E; a team wins when all "
                    "six of its monks have arrived. Handicap: a stronger player places some tiles before the "
                    "game, either side up. Stone on a bare field: an Athos stone may also stand on a free "
                    "field without a tile.",
                ],
            ),
            (
                "In Palaestra",
                [
                    "Click one of your monks, then a highlighted field; the monk stays selected for its next "
                    'step. "Flip a tile" switches to flipping, "End movement" ends the movement, "Use an '
                    'Athos stone" starts the stone, then click the highlighted fields to place tiles and '
                    'confirm "End turn". The other players\' last turns are drawn on the board in their '
                    "colours.",
                ],
            ),
        ],
    },
    "de": {
        "title": "Athos — die Regeln",
        "intro": "2 bis 4 Spieler führen je drei Mönche vom Fuß des heiligen Berges hinauf zum Kloster "
        "auf dem Gipfel, während alle einander Geröll in den Weg legen.",
        "sections": [
            (
                "Der Spielplan",
                [
                    "Der Berg ist eine Karte aus Sechseckfeldern in fünf Geländearten: Wiese, Wald, "
                    "Olivenhain, Heide und Weinberg. Unten liegen die Startfelder A bis E; der Gipfel grenzt "
                    "an die Felder der obersten Reihen. Startfelder und Gipfel fassen beliebig viele Mönche.",
                    "Jeder Spieler hat 3 Mönche auf seinem Startfeld (2 Spieler: B und D; 3 Spieler: A, C, E; "
                    "4 Spieler: A, B, D, E) und 2 Athos-Steine. Im Vorrat liegen je Gelände 16 Plättchen, "
                    "auf einer Seite Geröll, auf der anderen offenes Gelände.",
                ],
            ),
            (
                "Ein Zug: ziehen",
                [
                    "Du hast 6 Bewegungspunkte. Jeder Schritt eines deiner Mönche auf ein Nachbarfeld kostet "
                    "1 Punkt, auch auf oder über ein Feld mit anderen Mönchen; die Reihenfolge ist frei. "
                    "Geröll darf nicht betreten werden; ein offenes Plättchen ist normales Gelände.",
                    "Ein Plättchen umdrehen (Geröll zu offen oder zurück) kostet 4 Punkte; unter einem Mönch "
                    "oder einem Athos-Stein geht das nicht. Am Ende deiner Bewegung darf kein normales Feld "
                    "zwei Mönche tragen.",
                    "Ein Mönch, der den Gipfel betritt, ist angekommen. Die ersten fünf Ankünfte der Partie "
                    "bringen sofort 3, 3, 2, 2 und 1 Punkte für die laufende Bewegung. Übrige Punkte "
                    "verfallen, wenn du die Bewegung beendest.",
                ],
            ),
            (
                "Ein Zug: der Athos-Stein",
                [
                    "Nach dem Ziehen darfst du einmal pro Zug und höchstens zweimal pro Partie einen "
                    "Athos-Stein einsetzen: erst ein Plättchen ohne Mönch und Stein auf ein freies Feld "
                    "versetzen (Seite und Gelände bleiben), dann den Stein auf ein Plättchen setzen. Ein "
                    "Plättchen mit Stein wird nie mehr umgedreht oder versetzt: es sichert einen Weg.",
                ],
            ),
            (
                "Ein Zug: Plättchen legen",
                [
                    "Dann legst du Plättchen mit der Geröllseite nach oben, jedes auf ein freies Feld seines "
                    "Geländes: bei 2 Spielern bis zu 8 Plättchen und 2 je Gelände, bei 3 Spielern 5 und 2, "
                    "bei 4 Spielern 4 und 1. Kein Plättchen darf einen Mönch vom Gipfel abschneiden: jeder "
                    "Mönch braucht einen Weg ohne Geröll. Dein Zug endet, wenn du es sagst (Zug beenden), "
                    "mit oder ohne Plättchen.",
                ],
            ),
            (
                "Das Ende",
                [
                    "Kommt der letzte Mönch eines Spielers an, wird die Runde zu Ende gespielt. Wer alle drei "
                    "Mönche auf dem Gipfel hat, gewinnt; schaffen das mehrere, gewinnt, wem bei der Ankunft "
                    "seines letzten Mönchs die meisten Bewegungspunkte blieben.",
                ],
            ),
            (
                "Varianten",
                [
                    "Teams (4 Spieler): A und B spielen gegen D und E, Sitzfolge A, D, B, E; ein Team gewinnt, "
                    "wenn alle sechs Mönche angekommen sind. Vorgabe: ein stärkerer Spieler legt vor der "
                    "Partie einige Plättchen, beliebige Seite nach oben. Stein auf leerem Feld: ein "
                    "Athos-Stein darf auch auf einem freien Feld ohne Plättchen stehen.",
                ],
            ),
            (
                "In Palaestra",
                [
                    "Klicke einen deiner Mönche, dann ein markiertes Feld; der Mönch bleibt für den nächsten "
                    'Schritt gewählt. "Ein Plättchen umdrehen" wechselt zum Umdrehen, "Bewegung beenden" '
                    'beendet die Bewegung, "Einen Athos-Stein einsetzen" beginnt den Stein; dann legst du '
                    'Plättchen mit Klicks auf markierte Felder und bestätigst "Zug beenden". Die letzten '
                    "Züge der anderen stehen in ihren Farben auf dem Plan.",
                ],
            ),
        ],
    },
    "fr": {
        "title": "Athos — les règles",
        "intro": "2 à 4 joueurs mènent chacun trois moines du pied de la montagne sainte jusqu'au "
        "monastère du sommet, tandis que chacun pose des éboulis sur le chemin des autres.",
        "sections": [
            (
                "Le plateau",
                [
                    "La montagne est une carte de champs hexagonaux de cinq terrains : prairie, forêt, "
                    "oliveraie, lande et vigne. En bas se trouvent les cases de départ A à E ; le sommet "
                    "touche les champs des rangées du haut. Les cases de départ et le sommet accueillent "
                    "autant de moines qu'on veut.",
                    "Chaque joueur a 3 moines sur sa case de départ (2 joueurs : B et D ; 3 joueurs : A, C, E ; "
                    "4 joueurs : A, B, D, E) et 2 pierres d'Athos. La réserve contient 16 tuiles par "
                    "terrain, éboulis d'un côté, terrain ouvert de l'autre.",
                ],
            ),
            (
                "Un tour : se déplacer",
                [
                    "Tu as 6 points de déplacement. Chaque pas d'un de tes moines vers un champ voisin coûte "
                    "1 point, même sur ou à travers un champ occupé ; l'ordre est libre. On n'entre pas "
                    "dans les éboulis ; une tuile ouverte est un terrain ordinaire.",
                    "Retourner une tuile (éboulis vers ouvert ou l'inverse) coûte 4 points ; impossible sous "
                    "un moine ou une pierre d'Athos. À la fin de ton déplacement, aucun champ ordinaire ne "
                    "doit porter deux moines.",
                    "Un moine qui entre au sommet est arrivé. Les cinq premières arrivées de la partie "
                    "ajoutent aussitôt 3, 3, 2, 2 et 1 points au déplacement en cours. Les points non "
                    "utilisés sont perdus quand tu finis le déplacement.",
                ],
            ),
            (
                "Un tour : la pierre d'Athos",
                [
                    "Après le déplacement, une fois par tour et au plus deux fois par partie, tu peux utiliser "
                    "une pierre d'Athos : d'abord déplacer une tuile sans moine ni pierre vers un champ libre "
                    "(elle garde sa face et son terrain), puis poser la pierre sur une tuile. Une tuile "
                    "portant une pierre ne sera plus jamais retournée ni déplacée : elle protège un chemin.",
                ],
            ),
            (
                "Un tour : poser des tuiles",
                [
                    "Ensuite tu poses des tuiles face éboulis visible, chacune sur un champ libre de son "
                    "terrain : à 2 joueurs jusqu'à 8 tuiles et 2 par terrain, à 3 joueurs 5 et 2, à 4 "
                    "joueurs 4 et 1. Aucune tuile ne doit couper un moine du sommet : chaque moine garde un "
                    "chemin sans éboulis. Ton tour finit quand tu le décides (Finir le tour), avec ou sans "
                    "tuiles.",
                ],
            ),
            (
                "La fin",
                [
                    "Quand le dernier moine d'un joueur arrive, le tour de table est joué jusqu'au bout. Qui "
                    "a ses trois moines au sommet gagne ; si plusieurs y parviennent, gagne celui à qui il "
                    "restait le plus de points de déplacement à l'arrivée de son dernier moine.",
                ],
            ),
            (
                "Variantes",
                [
                    "Équipes (4 joueurs) : A et B contre D et E, places A, D, B, E ; une équipe gagne quand "
                    "ses six moines sont arrivés. Handicap : un joueur plus fort pose quelques tuiles avant "
                    "la partie, face au choix. Pierre sur un champ nu : une pierre d'Athos peut aussi aller "
                    "sur un champ libre sans tuile.",
                ],
            ),
            (
                "Dans Palaestra",
                [
                    "Clique un de tes moines, puis un champ en surbrillance ; le moine reste choisi pour le "
                    "pas suivant. « Retourner une tuile » passe au retournement, « Finir les déplacements » "
                    "termine le déplacement, « Utiliser une pierre d'Athos » commence la pierre ; clique "
                    "ensuite les champs en surbrillance pour poser les tuiles et confirme « Finir le tour ». "
                    "Les derniers tours des autres joueurs sont dessinés dans leurs couleurs.",
                ],
            ),
        ],
    },
}
