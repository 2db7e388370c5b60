"""Ladder: a fourth game that lives outside ``palaestra/games`` (issue 19, finding 5 and "a fourth
game costs its folder and one registry line"). Its whole cost is this folder; the test next to it
registers it with ``palaestra.core.registry.register_game`` and plays it everywhere."""
