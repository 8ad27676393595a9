"""How a quote's speaker is shown: a name, a name in doubt, or the words of one not resolved.

The story and article pages, the report and the terminal all show speakers through
``shown_speaker``, so a speaker left unresolved ("she" with no antecedent) never appears as a
name, and a doubtful one never looks as sure as the rest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from ..models import Quote

# Below this calibrated confidence a named speaker is shown as doubtful ("probably Jane
# Roe"): one attribution in five or more is then wrong, too many to state as a fact on a page
# that readers quote from; at or above it the name stands alone, as every name did before
# speakers were scored.
DOUBTFUL_BELOW = 0.8

SpeakerState = Literal["named", "doubtful", "unresolved", "unattributed"]


class Attributed(Protocol):
    """A quote mention as the analysis or the export holds it."""

    @property
    def speaker(self) -> str | None: ...

    @property
    def speaker_text(self) -> str | None: ...

    @property
    def speaker_confidence(self) -> float | None: ...


@dataclass(frozen=True)
class ShownSpeaker:
    """A speaker as a page shows it: its state, the name or words, the confidence."""

    state: SpeakerState
    name: str | None = None
    words: tuple[str, ...] = ()  # the words naming an unresolved speaker
    confidence: float | None = None

    @property
    def percent(self) -> int | None:
        """The confidence in whole percent, rounded down (never surer than the model)."""
        return None if self.confidence is None else math.floor(self.confidence * 100)

    @property
    def quoted_words(self) -> str:
        return ", ".join(f"“{w}”" for w in self.words)

    @property
    def note(self) -> str:
        """What a doubtful name's tooltip and screen-reader text say."""
        return f"{self.percent}% likely to be the speaker" if self.state == "doubtful" else ""

    @property
    def label(self) -> str:
        """The speaker in plain text (terminal, tooltips, mark titles)."""
        if self.state == "named":
            return self.name or ""
        if self.state == "doubtful":
            return f"probably {self.name} ({self.percent}%)"
        if self.state == "unresolved":
            return f"unclear speaker ({self.quoted_words})"
        return "unattributed"


def shown_speaker(
    name: str | None, words: Sequence[str] = (), confidence: float | None = None
) -> ShownSpeaker:
    """A resolved ``name`` (doubtful below DOUBTFUL_BELOW), else the ``words`` naming the
    unresolved speaker, else unattributed."""
    if name:
        doubtful = confidence is not None and confidence < DOUBTFUL_BELOW
        return ShownSpeaker("doubtful" if doubtful else "named", name, (), confidence)
    words = tuple(dict.fromkeys(w.strip() for w in words if w and w.strip()))
    if words:
        return ShownSpeaker("unresolved", None, words, confidence)
    return ShownSpeaker("unattributed")


def mention_speaker(mention: Attributed) -> ShownSpeaker:
    """The speaker one article gives a quote."""
    words = [mention.speaker_text] if mention.speaker_text else []
    return shown_speaker(mention.speaker, words, mention.speaker_confidence)


def quote_speaker(quote: Quote) -> ShownSpeaker:
    """The speaker a story gives a quote; when none was resolved, the words outlets used."""
    words = [m.speaker_text for m in quote.mentions if not m.speaker and m.speaker_text]
    return shown_speaker(quote.speaker, words, quote.speaker_confidence)
