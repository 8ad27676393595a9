"""Domain errors. The library raises these; cli.py and web/ translate them at the edge."""

from __future__ import annotations

from .models import SkipCode


class NewsloomError(Exception):
    """Base class: the message says what went wrong and what to do about it."""


class InputError(NewsloomError):
    """An input could not be read. ``origin`` names the file (or `-`); ``code`` says why."""

    def __init__(self, origin: str, reason: str, code: SkipCode = SkipCode.UNREADABLE) -> None:
        super().__init__(f"{origin}: {reason}")
        self.origin = origin
        self.reason = reason
        self.code = code


class StageError(NewsloomError):
    """A pipeline stage is misconfigured or failed on an article."""


class StoreError(NewsloomError):
    """The store cannot be opened, read or written (the database failed, not the request)."""


class AmbiguousIdError(NewsloomError):
    """A short id matches more than one record: the request, not the store, is at fault."""


class ListQueryError(NewsloomError):
    """A list request names a sort, facet or cursor the list does not have (the request's
    fault: the message lists what the list offers)."""
