"""The rulebook's examples of Archimedes for its rules page (``/rules/archimedes``), declared in
``info.py`` (``WebAssets.examples``): figures 1 and 4 (the set-ups for two and
three players) and 2 (the three rows that give a cube its distance, ARC-M1).

Each is a short script of moves in notation played on a fresh engine
(:class:`~palaestra.core.rules_page.Script`), so a figure can never show a position the rules
forbid, with a caption in English, German and French whose numbers and field names come from the
position reached; ``after`` is the index of the section of ``rules_page.py`` it follows.
"""

from __future__ import annotations

from palaestra.core.rules_page import Example, Script


def examples() -> list[Example]:
    two = Script("archimedes", players=2)
    three = Script("archimedes", players=3)
    # a few opening moves, then the rows of one cube (figure 2: the distance is the number of
    # cubes in the three rows through its cell, itself included)
    rows = Script("archimedes", players=2)
    for move in ("a2-c4", "h2-f2", "c4-d5"):
        rows.play(move)
    cube = "f2"
    details = rows.state.score_details()
    distance = next(c["distance"] for cubes in details["cubes"] for c in cubes if c["cell"] == cube)
    shown = rows.shown(lambda m: m.startswith(f"{cube}-"))
    n = len(shown)
    return [
        two.example(
            "archimedes-start-2",
            0,
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
        three.example(
            "archimedes-start-3",
            0,
            {
                "en": "Three players: every other side of the hexagon is a start, each player aims for the "
                "side opposite their own.",
                "de": "Drei Spieler: Jede zweite Seite des Sechsecks ist ein Start; jeder Spieler will zur "
                "Seite gegenüber seiner eigenen.",
                "fr": "Trois joueurs : un côté sur deux de l'hexagone est un départ ; chaque joueur vise le "
                "côté opposé au sien.",
            },
        ),
        rows.example(
            "archimedes-distance",
            1,
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
