"""The rules of Agamemnon for players, in English, German and French: the rules page
(``/rules/agamemnon``), declared in ``info.py`` (``WebAssets.rules``).

Plain text (the page escapes it). The rulings (../shared/rules/RULINGS.md) are the authority; this
page says the same in players' words and cites no ruling IDs. The figures are in
``rules_examples.py``; each names the index of the section it follows.
"""

from __future__ import annotations

from palaestra.core.rules_page import RulesPages

RULES: RulesPages = {
    "en": {
        "title": "Agamemnon — the rules",
        "intro": "Two gods fight over the threads of fate of the Trojan war: orange (the Trojans) and "
        "black (the Greeks) place tiles on a board of spaces joined by threads and take the threads "
        "they control.",
        "sections": [
            (
                "The board and the tiles",
                [
                    "Each thread (connection) between two spaces is of one of three kinds: strength, force "
                    "or leadership. Connections of one kind that meet at a space with a tile form a string.",
                    "Each player has 15 tiles: leaders A to E (A ranks highest), warriors with 1, 2 or 3 "
                    "spears, and the weavers: two Warps and two Wefts.",
                ],
            ),
            (
                "A turn",
                [
                    "The first player places one tile, then each turn places two, drawn at random from your "
                    "own tiles (with the Defying the gods variant you choose them openly). Tiles go on free "
                    "spaces. In your first two turns you may set a drawn weaver aside and draw again.",
                ],
            ),
            (
                "Weavers",
                [
                    "A Warp, once placed, may swap two threads of different kinds at its space. A Weft cuts "
                    "every string through its space; it counts as one tile for the force of each of them.",
                ],
            ),
            (
                "Who controls a string",
                [
                    "The tiles of a string are those at the ends of its connections. Strength: more spears "
                    "wins. Force: more tiles wins. Leadership: compare the leaders from the highest down; the "
                    "first difference decides. Equal: nobody. The controller scores one point per connection "
                    "of the string.",
                ],
            ),
            (
                "The end",
                [
                    "When all 30 tiles are down, more points wins; equal points is a draw.",
                ],
            ),
            (
                "Variants",
                [
                    "Loom: the other side of the board, with connection classes chosen at the start. Oracle: "
                    "before each draw you name the stack you draw from (leaders, weavers or warriors). "
                    "Defying the gods: no drawing, all your tiles lie open.",
                ],
            ),
            (
                "In Palaestra",
                [
                    "Pick one of your drawn tiles under the board, then a highlighted space. After a Warp, "
                    'click two highlighted connections to swap them, or "No swap". The tiles placed in the '
                    "last turn are outlined.",
                ],
            ),
        ],
    },
    "de": {
        "title": "Agamemnon — die Regeln",
        "intro": "Zwei Götter ringen um die Schicksalsfäden des Trojanischen Krieges: Orange (die "
        "Trojaner) und Schwarz (die Griechen) legen Plättchen auf einen Plan aus Feldern und Fäden und "
        "nehmen die Fäden, die sie beherrschen.",
        "sections": [
            (
                "Plan und Plättchen",
                [
                    "Jeder Faden (Verbindung) zwischen zwei Feldern ist von einer der drei Sorten Stärke, "
                    "Kraft oder Führung. Verbindungen einer Sorte, die sich an einem Feld mit Plättchen "
                    "treffen, bilden einen Strang.",
                    "Jeder Spieler hat 15 Plättchen: die Anführer A bis E (A ist der höchste), Krieger mit 1, "
                    "2 oder 3 Speeren und die Weber: zwei Ketten und zwei Schüsse.",
                ],
            ),
            (
                "Ein Zug",
                [
                    "Der Startspieler legt ein Plättchen, danach legt jeder Zug zwei, zufällig aus den eigenen "
                    "gezogen (in der Variante Den Göttern trotzen offen gewählt). Plättchen kommen auf freie "
                    "Felder. In deinen ersten beiden Zügen darfst du einen gezogenen Weber beiseitelegen und "
                    "neu ziehen.",
                ],
            ),
            (
                "Weber",
                [
                    "Eine Kette darf nach dem Legen zwei Fäden verschiedener Sorte an ihrem Feld tauschen. "
                    "Ein Schuss schneidet jeden Strang durch sein Feld; er zählt für die Kraft jedes dieser "
                    "Stränge als ein Plättchen.",
                ],
            ),
            (
                "Wer einen Strang beherrscht",
                [
                    "Zu einem Strang gehören die Plättchen an den Enden seiner Verbindungen. Stärke: mehr "
                    "Speere gewinnen. Kraft: mehr Plättchen gewinnen. Führung: die Anführer werden vom "
                    "höchsten abwärts verglichen, der erste Unterschied entscheidet. Gleichstand: niemand. "
                    "Wer den Strang beherrscht, erhält einen Punkt je Verbindung.",
                ],
            ),
            (
                "Das Ende",
                [
                    "Liegen alle 30 Plättchen, gewinnt, wer mehr Punkte hat; Gleichstand ist ein Remis.",
                ],
            ),
            (
                "Varianten",
                [
                    "Webstuhl: die andere Seite des Plans, mit zu Beginn gewählten Verbindungsklassen. "
                    "Orakel: vor jedem Ziehen nennst du den Stapel (Anführer, Weber oder Krieger). Den Göttern "
                    "trotzen: kein Ziehen, alle deine Plättchen liegen offen.",
                ],
            ),
            (
                "In Palaestra",
                [
                    "Wähle unter dem Plan eines deiner gezogenen Plättchen, dann ein markiertes Feld. Nach "
                    'einer Kette klickst du zwei markierte Verbindungen zum Tauschen oder "Nicht tauschen". '
                    "Die im letzten Zug gelegten Plättchen sind umrandet.",
                ],
            ),
        ],
    },
    "fr": {
        "title": "Agamemnon — les règles",
        "intro": "Deux dieux se disputent les fils du destin de la guerre de Troie : orange (les Troyens) "
        "et noir (les Grecs) posent des tuiles sur un plateau de cases reliées par des fils et "
        "prennent les fils qu'ils contrôlent.",
        "sections": [
            (
                "Le plateau et les tuiles",
                [
                    "Chaque fil (liaison) entre deux cases est d'une des trois sortes : force, puissance ou "
                    "commandement. Les liaisons d'une même sorte qui se rejoignent sur une case portant une "
                    "tuile forment un cordon.",
                    "Chaque joueur a 15 tuiles : les chefs A à E (A est le plus haut), des guerriers à 1, 2 "
                    "ou 3 lances, et les tisserands : deux Chaînes et deux Trames.",
                ],
            ),
            (
                "Un tour",
                [
                    "Le premier joueur pose une tuile, puis chaque tour en pose deux, tirées au hasard parmi "
                    "les siennes (avec la variante Défier les dieux, choisies à découvert). Les tuiles vont "
                    "sur des cases libres. Lors de tes deux premiers tours, tu peux mettre de côté un "
                    "tisserand tiré et tirer à nouveau.",
                ],
            ),
            (
                "Les tisserands",
                [
                    "Une Chaîne, une fois posée, peut échanger deux fils de sortes différentes sur sa case. "
                    "Une Trame coupe chaque cordon qui passe par sa case ; elle compte pour une tuile dans la "
                    "puissance de chacun.",
                ],
            ),
            (
                "Qui contrôle un cordon",
                [
                    "Les tuiles d'un cordon sont celles aux extrémités de ses liaisons. Force : le plus de "
                    "lances gagne. Puissance : le plus de tuiles gagne. Commandement : on compare les chefs "
                    "du plus haut au plus bas, la première différence décide. Égalité : personne. Qui "
                    "contrôle un cordon marque un point par liaison.",
                ],
            ),
            (
                "La fin",
                [
                    "Quand les 30 tuiles sont posées, le plus de points gagne ; à égalité, c'est un nul.",
                ],
            ),
            (
                "Variantes",
                [
                    "Métier à tisser : l'autre face du plateau, avec des classes de liaisons choisies au "
                    "début. Oracle : avant chaque tirage, tu nommes la pile (chefs, tisserands ou guerriers). "
                    "Défier les dieux : pas de tirage, toutes tes tuiles sont visibles.",
                ],
            ),
            (
                "Dans Palaestra",
                [
                    "Choisis sous le plateau une de tes tuiles tirées, puis une case en surbrillance. Après "
                    "une Chaîne, clique deux liaisons en surbrillance pour les échanger, ou « Pas "
                    "d'échange ». Les tuiles posées au dernier tour sont entourées.",
                ],
            ),
        ],
    },
}
