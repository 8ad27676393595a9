"""Framing stage: how hedged the article's own reporting is, and whom it credits for the material.

Only the outlet's own words count: body paragraphs minus direct quotes and embedded posts
(a speaker saying "maybe" is not the outlet hedging). Hedges are found on the parse by cue
family, after the categories of the hedging literature (Hyland 1998): distancing adverbs and
adjectives ("allegedly", "reportedly", "alleged"), epistemic modals ("may", "might", "could"),
``appear``/``seem`` with a complement ("appears to"), passive reporting verbs with an
infinitive ("is said to", "is believed to"), attribution ("according to"), distancing verbs
("claimed", "suggests") and stated uncertainty ("it is unclear"). Boosters ("confirmed",
"clearly", "in fact") are counted beside them. The score is hedges per 100 words of own
reporting, with the share of hedged sentences and the cues behind it in ``explanation``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import accumulate
from typing import TYPE_CHECKING

from ..models import Framing, Hedge
from ..text.ranges import RangeSet
from .reporting import token_coverage

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

HEDGE_ADVERBS = frozenset(
    {
        "allegedly", "reportedly", "apparently", "purportedly", "supposedly", "seemingly",
        "possibly", "probably", "perhaps", "presumably", "maybe", "reputedly", "ostensibly",
        "likely", "unlikely", "conceivably",
    }
)  # fmt: skip
HEDGE_ADJECTIVES = frozenset(
    {
        "alleged", "suspected", "purported", "apparent", "possible", "probable", "presumed",
        "unconfirmed", "unverified", "rumoured", "rumored", "putative", "unclear", "uncertain",
        "unknown", "likely", "unlikely",
    }
)  # fmt: skip
EPISTEMIC_MODALS = frozenset({"may", "might", "could"})
APPEAR_VERBS = frozenset({"appear", "seem"})
REPORTING_PASSIVES = frozenset(
    {"say", "believe", "think", "understand", "report", "allege", "rumour", "rumor", "suspect",
     "expect", "claim", "know", "suppose", "estimate"}
)  # fmt: skip
DISTANCING_VERBS = frozenset({"claim", "allege", "suggest", "purport"})
BOOSTER_ADVERBS = frozenset(
    {"clearly", "definitely", "certainly", "undoubtedly", "obviously", "indeed", "undeniably",
     "unquestionably"}
)  # fmt: skip
BOOSTER_VERBS = frozenset({"confirm", "prove", "establish", "verify"})
# The words (lower case) and lemmas a hedge or booster starts on: a token with neither is not
# looked at (``_hedge`` and ``_booster`` read a Token, which costs more than the test).
CUE_WORDS = (
    HEDGE_ADVERBS | HEDGE_ADJECTIVES | EPISTEMIC_MODALS | BOOSTER_ADVERBS | {"according", "in"}
)
CUE_LEMMAS = APPEAR_VERBS | REPORTING_PASSIVES | DISTANCING_VERBS | BOOSTER_VERBS | {"clear"}


def _own_mask(doc: Doc, own: list[tuple[int, int]], excluded: list[tuple[int, int]]) -> list[bool]:
    """Per token: is it the outlet's own reporting?"""
    own_at = token_coverage(doc, own)
    excluded_at = token_coverage(doc, excluded)
    return [bool(o and not e) for o, e in zip(own_at, excluded_at, strict=True)]


def _word_masks(doc: Doc, own: list[bool]) -> tuple[list[int], list[bool]]:
    """Per token of the outlet's own reporting (``own``): 1 for a word (alphabetic or like a
    number), and whether a hedge or booster may start on it (``CUE_WORDS``, ``CUE_LEMMAS``);
    read from ``Doc.to_array``, one string per distinct lemma."""
    import numpy as np
    from spacy.attrs import IS_ALPHA, LEMMA, LIKE_NUM, LOWER

    if not len(doc):
        return [], []
    arr = doc.to_array([LOWER, LEMMA, IS_ALPHA, LIKE_NUM])
    strings = doc.vocab.strings
    mine = np.array(own, dtype=bool)
    counted = (mine & ((arr[:, 2] != 0) | (arr[:, 3] != 0))).astype(np.int64).tolist()
    words = np.array([strings[w] for w in CUE_WORDS], dtype=np.uint64)
    lemmas, at = np.unique(arr[:, 1], return_inverse=True)
    cue_lemma = np.array([strings[h].lower() in CUE_LEMMAS for h in lemmas.tolist()], dtype=bool)
    cues = mine & (np.isin(arr[:, 0], words) | cue_lemma[at.ravel()])
    return counted, cues.tolist()


def measure_framing(
    doc: Doc, own: list[tuple[int, int]], excluded: list[tuple[int, int]], text: str | None = None
) -> Framing:
    """Hedges and boosters in the tokens of ``own`` ranges outside ``excluded``.

    ``text`` is the text ``doc`` parses (given by the stage: ``Doc.text`` is rebuilt from the
    tokens on every access)."""
    hedges: list[Hedge] = []
    boosters: list[Hedge] = []
    words = sentences = hedged = 0
    mask = _own_mask(doc, own, excluded)
    excluded_set = RangeSet(excluded)
    text = doc.text if text is None else text
    counted, cues = _word_masks(doc, mask)
    counted_sum = [0, *accumulate(counted)]
    for sent in doc.sents:
        own_words = counted_sum[sent.end] - counted_sum[sent.start]
        if own_words == 0:
            continue
        words += own_words
        sentences += 1
        tokens = [doc[i] for i in range(sent.start, sent.end) if cues[i]]
        found = [h for t in tokens if (h := _hedge(t, text)) is not None]
        found = [h for h in _dedupe(found) if not excluded_set.overlaps(h.start, h.end)]
        hedges.extend(found)
        hedged += bool(found)
        boosters.extend(b for t in tokens if (b := _booster(t, text)) is not None)
    score = round(100.0 * len(hedges) / words, 3) if words else 0.0
    return Framing(
        hedges=hedges,
        hedge_score=score,
        boosters=boosters,
        own_words=words,
        sentences=sentences,
        hedged_sentences=hedged,
        explanation=explain(len(hedges), words, hedged, sentences, len(boosters), hedges),
    )


def explain(
    n_hedges: int,
    words: int,
    hedged: int,
    sentences: int,
    n_boosters: int,
    hedges: Iterable[Hedge] = (),
) -> str:
    """The score in words, so a reader can check it."""
    if words == 0:
        return "no own reporting found (body text outside quotes and posts is empty)"
    score = 100.0 * n_hedges / words
    text = (
        f"{n_hedges} hedge(s) in {words} words of own reporting = {score:.2f} per 100 words; "
        f"{hedged} of {sentences} sentence(s) hedged; {n_boosters} assertive marker(s)"
    )
    common = Counter(h.text.lower() for h in hedges).most_common(3)
    if common:
        text += "; most used: " + ", ".join(f"'{w}' x{n}" for w, n in common)
    return text


def _span(text: str, start_token: Token, end_token: Token, kind: str) -> Hedge:
    start, end = start_token.idx, end_token.idx + len(end_token)
    return Hedge(start=start, end=end, text=text[start:end], kind=kind)


def _hedge(token: Token, text: str) -> Hedge | None:
    doc, lemma, lower = token.doc, token.lemma_.lower(), token.lower_
    if token.pos_ == "ADV" and lower in HEDGE_ADVERBS:
        return _span(text, token, token, "adverb")
    if token.pos_ == "ADJ" and lower in HEDGE_ADJECTIVES:
        return _span(text, token, token, "adjective")
    if token.tag_ == "MD" and lower in EPISTEMIC_MODALS:
        nxt = doc[token.i + 1] if token.i + 1 < len(doc) else None
        end = nxt if nxt is not None and nxt.lower_ == "have" else token
        return _span(text, token, end, "modal")
    if lower == "according" and token.i + 1 < len(doc) and doc[token.i + 1].lower_ == "to":
        return _span(text, token, doc[token.i + 1], "attribution")
    if token.pos_ in ("VERB", "AUX") and lemma in APPEAR_VERBS:
        comps = [c for c in token.children if c.dep_ in ("xcomp", "ccomp")]
        if comps:
            nxt = doc[token.i + 1] if token.i + 1 < len(doc) else None
            end = nxt if nxt is not None and nxt.lower_ == "to" else token
            return _span(text, token, end, "appear")
    if token.tag_ == "VBN" and lemma in REPORTING_PASSIVES:
        aux = [c for c in token.children if c.dep_ == "auxpass"]
        comps = [c for c in token.children if c.dep_ in ("xcomp", "ccomp")]
        if aux and comps:
            nxt = doc[token.i + 1] if token.i + 1 < len(doc) else None
            end = nxt if nxt is not None and nxt.lower_ == "to" else token
            return _span(text, aux[0] if aux[0].i < token.i else token, end, "passive-report")
    if token.pos_ == "VERB" and lemma in DISTANCING_VERBS and token.tag_ != "VBN":
        return _span(text, token, token, "distancing")
    if lemma == "clear" and token.pos_ == "ADJ":
        # "not clear": the negation hangs on the adjective or on its copula.
        negs = [c for t in (token, token.head) for c in t.children if c.dep_ == "neg"]
        if negs and negs[0].i < token.i:
            return _span(text, negs[0], token, "uncertainty")
    return None


def _booster(token: Token, text: str) -> Hedge | None:
    doc, lower = token.doc, token.lower_
    if token.pos_ == "ADV" and lower in BOOSTER_ADVERBS:
        return _span(text, token, token, "booster")
    if lower == "in" and token.i + 1 < len(doc) and doc[token.i + 1].lower_ == "fact":
        return _span(text, token, doc[token.i + 1], "booster")
    if token.pos_ != "VERB" or token.lemma_.lower() not in BOOSTER_VERBS:
        return None
    if not any(c.dep_ == "neg" for c in token.children):
        return _span(text, token, token, "booster")
    return None


def _dedupe(hedges: list[Hedge]) -> list[Hedge]:
    """One hedge per stretch of text: 'is said to' once, not 'said' again."""
    out: list[Hedge] = []
    for h in sorted(hedges, key=lambda h: (h.start, -h.end)):
        if out and h.start < out[-1].end:
            continue
        out.append(h)
    return out
