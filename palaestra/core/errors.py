"""One exception hierarchy for everything a player, a file or a caller can get wrong.

Every message is written for a person ("space 12 is taken"), never a stack trace. Code that
catches :class:`PalaestraError` can show ``str(err)`` to the user as it is.
"""

from __future__ import annotations


class PalaestraError(Exception):
    """Base class of every error Palaestra raises on purpose."""


class IllegalActionError(PalaestraError):
    """An action that is not legal in the current state (the state is left unchanged)."""


class NotationError(PalaestraError):
    """A move written in a notation that cannot be read (the state is left unchanged)."""


class RecordError(PalaestraError):
    """A game record that is malformed or does not replay."""


class PositionError(PalaestraError):
    """A position document that is malformed or describes an impossible position."""


class BoardFileError(PalaestraError):
    """A board data file that is malformed or inconsistent."""


class OptionError(PalaestraError):
    """An unknown game, an unknown option or an option value out of range."""
