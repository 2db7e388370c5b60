"""A real 2-player game (the arena's ``strong`` against ``casual``, seed 3002, game 2) whose
result is settled after its 47th action, ``g10-h8``: player 1's last goal cell h4 holds player 2's
cube, hemmed in between player 1's arrived h2 and h6 (ARC-M3, ARC-M5); player 2's last goal cell
a6 lies between its own arrived a4 and a8, closed for good, and player 1's last cube cannot reach
it. Nobody can bring another cube home: a 3-3 draw, which the game played on to the move limit
of 1,000 plies to reach."""

SETTLED_AFTER = 47

MOVES = [
    "a8-b8",
    "h2-g4",
    "a2-b3",
    "h8-g8",
    "b3-d5",
    "g4-f5",
    "d5-e4",
    "f5-d7",
    "a4-b4",
    "d7-c4",
    "e4-g1",
    "g8-e8",
    "b4-c7",
    "c4-a1",
    "c7-b5",
    "a1-c4",
    "b5-d7",
    "c4-a1",
    "a6-c6",
    "a1-a4",
    "b8-c8",
    "h6-g8",
    "g1-h2",
    "e8-g4",
    "d7-f5",
    "g8-f10",
    "c8-e9",
    "f10-d11",
    "e9-g7",
    "d11-b9",
    "c6-c7",
    "g4-f1",
    "f5-e4",
    "f1-d1",
    "e4-f4",
    "d1-c1",
    "c7-e7",
    "c1-b2",
    "e7-g5",
    "b2-a2",
    "g7-h6",
    "b9-a8",
    "g5-g8",
    "pass",
    "g8-g10",
    "pass",
    "g10-h8",
]

assert len(MOVES) == SETTLED_AFTER
