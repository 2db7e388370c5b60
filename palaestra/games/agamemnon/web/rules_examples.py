"""The rulebook's examples of Agamemnon for its rules page (``/rules/agamemnon``), declared in
``info.py`` (``WebAssets.examples``): the string example (a spear counts for strength,
the tile for force, the letter only on a leadership string: AGA-SC3) and a Warp's swap (AGA-T4).

Each is a short script of moves in notation played on a fresh engine
(:class:`~palaestra.core.rules_page.Script`), so a figure can never show a position the rules
forbid, with a caption in English, German and French whose numbers and field names come from the
position reached; ``after`` is the index of the section of ``rules_page.py`` it follows.
"""

from __future__ import annotations

from palaestra.core.rules_page import Example, Script


def examples() -> list[Example]:
    strings = Script("agamemnon")
    strings.play("draw A")
    strings.play("A@1")  # space 1: a strength and a force connection, no leadership
    warp = Script("agamemnon")
    for move in ("draw A", "A@1", "draw WARP", "draw W3", "WARP@8", "swap 4-8 8-9"):
        warp.play(move)
    return [
        strings.example(
            "agamemnon-strings",
            3,
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
        warp.example(
            "agamemnon-warp",
            2,
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
