"""The game service of the web app, free of HTTP: see hub.py for how its parts fit together."""

from palaestra.server.service.errors import DomainError
from palaestra.server.service.hub import Hub

__all__ = ["DomainError", "Hub"]
