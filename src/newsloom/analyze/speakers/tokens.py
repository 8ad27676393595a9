"""One parse's token attributes as plain lists: what the candidate features read.

spaCy builds a new ``Token`` on every ``doc[i]`` and ``token.head`` and looks every string
attribute up in the vocabulary on each read; the ranker reads the same few attributes of the
same tokens for every candidate of every quotation (about 120 candidates per article). Read
once per article with ``Doc.to_array``, they are list lookups. Answers of the shared helpers
(``could_speak``, the role-noun lists, ``Span.root``) are worked out on first use and kept
with the article, never across articles.
"""

from __future__ import annotations

import numpy as np
from spacy.attrs import DEP, ENT_TYPE, HEAD, IDX, IS_PUNCT, IS_SPACE, LEMMA, LOWER, POS, TAG
from spacy.parts_of_speech import NAMES as POS_NAMES
from spacy.strings import StringStore
from spacy.tokens import Doc

from ...text.names import is_person_noun, is_role_noun
from ..attribution import (
    PHRASAL_SPEECH_VERBS,
    SPEAKER_NOUNS,
    SPEECH_NOUNS,
    SPEECH_VERBS,
    is_particle_of,
    word_could_speak,
)

PERSONAL = frozenset({"he", "she", "him", "her"})
GROUP = frozenset({"they", "them", "we", "us"})
FIRST = frozenset({"i", "me"})
NEUTER = frozenset({"it"})
PRONOUNS = PERSONAL | GROUP | FIRST | NEUTER
# The candidate kinds a pronoun gives whatever it resolves to.
PRONOUN_KINDS = {
    **dict.fromkeys(PERSONAL, "he_she"),
    **dict.fromkeys(GROUP, "they_we"),
    **dict.fromkeys(FIRST, "i"),
    **dict.fromkeys(NEUTER, "it"),
}
PARTICLES = frozenset(particle for _, particle in PHRASAL_SPEECH_VERBS)
_COLUMNS = (HEAD, DEP, LOWER, LEMMA, POS, TAG, ENT_TYPE, IDX, IS_PUNCT, IS_SPACE)
# The strings of the hashes read so far: a hash is a function of its string alone, so the
# answers hold for every vocabulary, and a dictionary read beats ``StringStore`` by a few
# times. Emptied when it grows past ``_MAX_STRINGS`` (an archive's long tail of words).
_STRINGS: dict[int, str] = {}
_MAX_STRINGS = 500_000


class TokenTable:
    """Per-token attributes of ``doc`` by token index (``dep[i]`` is ``doc[i].dep_``)."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        n = len(doc)
        arr = doc.to_array(list(_COLUMNS)) if n else np.zeros((0, len(_COLUMNS)), np.uint64)
        # HEAD is stored as an offset from the token (unsigned, so a head before wraps).
        self.head: list[int] = (arr[:, 0].astype(np.int64) + np.arange(n)).tolist()
        strings = doc.vocab.strings

        # The string columns looked up together: one string per distinct hash of all five.
        columns = arr[:, [1, 2, 3, 5, 6]]
        hashes, at = np.unique(columns, return_inverse=True)
        found = np.array(_strings_of(hashes.tolist(), strings), dtype=object)
        named = found[at.reshape(columns.shape)].T.tolist() if n else [[] for _ in range(5)]
        self.dep: list[str] = named[0]
        self.lower: list[str] = named[1]
        self.lemma: list[str] = named[2]
        self.pos: list[str] = [POS_NAMES[p] for p in arr[:, 4].tolist()]
        self.tag: list[str] = named[3]
        self.ent_type: list[str] = named[4]
        self.idx: list[int] = arr[:, 7].tolist()
        self.punct: list[bool] = arr[:, 8].astype(bool).tolist()
        self.space: list[bool] = arr[:, 9].astype(bool).tolist()
        # ``attribution.is_speech_verb`` of every token; a phrasal one by its particle.
        self.speech_verb: list[bool] = [
            (pos == "VERB" or pos == "AUX") and lemma.lower() in SPEECH_VERBS
            for lemma, pos in zip(self.lemma, self.pos, strict=True)
        ]
        lower, head = self.lower, self.head
        for i in [i for i, word in enumerate(lower) if word in PARTICLES]:
            verb = i - 1
            if (
                i
                and head[i] == verb
                and self.pos[verb] in ("VERB", "AUX")
                and (self.lemma[verb].lower(), lower[i]) in PHRASAL_SPEECH_VERBS
            ):
                self.speech_verb[verb] = is_particle_of(doc[i], doc[verb])
        self._could_speak: dict[int, bool] = {}
        self._word_kind: dict[int, str] = {}
        self._roots: dict[tuple[int, int], int] = {}

    def could_speak(self, i: int) -> bool:
        """``attribution.could_speak(doc[i])``, once per token."""
        found = self._could_speak.get(i)
        if found is None:
            found = self._could_speak[i] = word_could_speak(
                self.lower[i], self.pos[i], self.ent_type[i], self.lemma[i]
            )
        return found

    def root(self, first: int, last: int) -> int:
        """``doc[first:last].root.i``, once per span."""
        if last - first == 1:
            return first  # a one-word span is its own root
        key = (first, last)
        found = self._roots.get(key)
        if found is None:
            # The one word whose head lies outside the span is its root; a span with several
            # (a misparse) is left to spaCy, which picks the one nearest the sentence's root.
            head = self.head
            tops = [i for i in range(first, last) if head[i] == i or not first <= head[i] < last]
            found = tops[0] if len(tops) == 1 else self.doc[first:last].root.i
            self._roots[key] = found
        return found

    def word_kind(self, i: int) -> str:
        """What the word itself is, as a candidate kind: a pronoun's kind, else the kind of
        an unnamed phrase headed by it (speech noun, speaker noun, role noun, proper noun or
        other)."""
        found = self._word_kind.get(i)
        if found is None:
            found = self._word_kind[i] = self._kind_of_word(i)
        return found

    def _kind_of_word(self, i: int) -> str:
        pronoun = PRONOUN_KINDS.get(self.lower[i])
        if pronoun is not None:
            return pronoun
        lemma = self.lemma[i].lower()
        if lemma in SPEECH_NOUNS:
            return "speech_noun"
        if lemma in SPEAKER_NOUNS:
            return "speaker_noun"
        if is_role_noun(lemma) or is_person_noun(lemma, by_ending=False):
            return "role_noun"
        if self.pos[i] == "PROPN":
            return "propn"
        return "other"


def _strings_of(hashes: list[int], store: StringStore) -> list[str]:
    """The strings of ``hashes``, read from ``_STRINGS`` or, the first time, from ``store``."""
    if len(_STRINGS) > _MAX_STRINGS:
        _STRINGS.clear()
    known = _STRINGS.get
    out = []
    for h in hashes:
        found = known(h)
        if found is None:
            found = _STRINGS[h] = store[h]
        out.append(found)
    return out
