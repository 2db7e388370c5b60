"""Ladder: a fourth game that ships as its own package, outside Palaestra (issue 32, "games as
plug-ins"). Its ``pyproject.toml`` declares it as an entry point of the group ``palaestra.games``;
installed beside Palaestra, it is listed, played, served, matched and wrapped like the three games
of ``palaestra/games`` (tests/fourth/test_plugin.py installs it into a throwaway environment)."""
