"""The rules of the three games, written for players, in English, German and French.

Each page is a title, an introduction and sections of short paragraphs (plain text: the page
module escapes it). The engines' rulings (../shared/rules/RULINGS.md) are the authority; these
pages say the same in players' words and cite no ruling IDs.
"""

from __future__ import annotations

Page = dict[str, object]

RULES: dict[str, dict[str, Page]] = {
    "athos": {
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
    },
    "archimedes": {
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
    },
    "agamemnon": {
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
    },
}
