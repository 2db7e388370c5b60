"""``python -m palaestra``: the ``palaestra`` command (docs/cli.md)."""

from palaestra.cli import main

main()
