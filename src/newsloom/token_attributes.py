"""The model's attribute ruler and lemmatizer as one component that gives the same POS, tag,
morphology, dependency label and lemma on every token at a fraction of the cost.

en_core_web_sm ends its tagging with two rule components: an attribute ruler (a Matcher over
~180 token patterns: the tag map from the fine-grained TAG to POS and MORPH, plus a few
context rules on the word, its dependency label or its neighbour) and a rule lemmatizer that
looks every token up by (word, POS, morphology). Both run Python per token and together cost
about a sixth of the parse. newsloom reads every attribute they set, so they cannot be dropped.

``TokenAttributes`` computes the same values with numpy over the Doc's columns:

- The ruler's one-token patterns test only TAG, DEP, IS_SPACE and LOWER, and LOWER only
  against the words and regular expressions the patterns name. So two tokens agreeing on
  TAG, DEP, IS_SPACE and on their "pattern word" (the lower-case form when a pattern names it
  or a pattern's regex matches it, else nothing) get the same attributes. Each such class is
  worked out once, by the ruler itself on a one-token copy of its first token, and remembered.
- Patterns over two tokens (``gon na``, ``expl`` + ``is`` ...) go through a Matcher of those
  few patterns; a token they match, and a token whose rules change its dependency label, is
  set by the ruler's own per-token code, its rules applied in the ruler's order.
- The lemmatizer's result depends only on (ORTH, POS, MORPH) (spaCy caches it on exactly that
  key): each distinct triple is lemmatized once, by the model's own lemmatizer.

Exactness is checked token by token against the stock pipeline on PolNeAR dev and ECB+ dev
(``bench/check_token_attributes.py``; tests/test_token_attributes.py on a sample). A model
whose ruler uses any other pattern key or operator is refused (``UnsupportedRuler``), and
``load_nlp`` keeps that model's stock components.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

# The name the component has in the pipeline (and its spaCy factory).
COMPONENT = "newsloom_token_attributes"
# The stock components it stands for, in pipeline order.
REPLACED = ("attribute_ruler", "lemmatizer")
# Token-pattern keys and value operators the class shortcut understands (all en_core_web_sm
# 3.x uses); anything else makes the model keep its stock components.
PATTERN_KEYS = frozenset({"TAG", "DEP", "IS_SPACE", "LOWER"})
OPERATORS = frozenset({"IN", "NOT_IN", "REGEX"})
# Entries each memo may hold before it is emptied: a tuple key and value are ~200 bytes, so
# ~20 MB at most per memo.
# Measured on ECB+ dev (772 articles, 240,000 words): 1,227 token classes, 15,004 distinct
# lower-case words and 19,990 (word, POS, morph) triples, so a long run refills a memo only
# after several thousand articles.
MEMO_LIMIT = 100_000


class UnsupportedRuler(ValueError):
    """The model's attribute ruler uses a pattern this component cannot reproduce exactly."""


def install(nlp: Language) -> bool:
    """Put ``TokenAttributes`` in place of the model's attribute ruler and lemmatizer.

    Returns False, leaving the pipeline as it is, when the model lacks either component, they
    are not next to each other, its lemmatizer is not the rule lemmatizer that keeps the
    ruler's lemmas, or its ruler is ``UnsupportedRuler``.
    """
    from spacy.language import Language

    names = nlp.pipe_names
    if not set(REPLACED) <= set(names):
        return False
    at = names.index(REPLACED[0])
    if tuple(names[at : at + len(REPLACED)]) != REPLACED:
        return False
    lemmatizer = nlp.get_pipe("lemmatizer")
    if getattr(lemmatizer, "mode", None) != "rule" or getattr(lemmatizer, "overwrite", True):
        return False
    if not Language.has_factory(COMPONENT):
        Language.factory(COMPONENT, func=_factory)
    try:
        nlp.add_pipe(COMPONENT, before="attribute_ruler")
    except UnsupportedRuler:
        return False
    for name in REPLACED:
        nlp.remove_pipe(name)
    return True


def _factory(nlp: Language, name: str) -> TokenAttributes:
    return TokenAttributes(nlp.get_pipe("attribute_ruler"), nlp.get_pipe("lemmatizer"))


class TokenAttributes:
    """The attribute ruler then the rule lemmatizer, per token class rather than per token."""

    def __init__(self, ruler: Any, lemmatizer: Any) -> None:
        from spacy.matcher import Matcher

        self.ruler = ruler
        self.lemmatizer = lemmatizer
        self.vocab = ruler.vocab
        self.words: set[str] = set()  # the LOWER values the one-token patterns name
        self.regexes: list[re.Pattern[str]] = []
        self.pairs = Matcher(self.vocab, validate=False)  # the patterns over several tokens
        for rule, entry in enumerate(ruler.patterns):
            for pattern in entry["patterns"]:
                self._read_pattern(rule, pattern)
        self.dep_rules = frozenset(
            rule for rule, attrs in enumerate(ruler.attrs) if _has_dep(attrs)
        )
        self.word_memo: dict[int, int] = {}  # LOWER hash -> pattern word hash (0: none)
        self.class_memo: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.lemma_memo: dict[tuple[int, int, int], int] = {}

    def _read_pattern(self, rule: int, pattern: list[dict[str, Any]]) -> None:
        for spec in pattern:
            unknown = set(spec) - PATTERN_KEYS
            if unknown:
                raise UnsupportedRuler(f"pattern key(s) {sorted(unknown)} in rule {rule}")
            for key, value in spec.items():
                if isinstance(value, dict):
                    if set(value) - OPERATORS:
                        raise UnsupportedRuler(f"operator(s) {sorted(value)} in rule {rule}")
                    if key == "LOWER":
                        self.words.update(value.get("IN", ()), value.get("NOT_IN", ()))
                        if "REGEX" in value:
                            self.regexes.append(re.compile(value["REGEX"]))
                elif key == "LOWER":
                    self.words.add(value)
        if len(pattern) > 1:
            self.pairs.add(str(rule), [pattern])

    def __call__(self, doc: Doc) -> Doc:
        if len(doc):
            self._rule_attributes(doc)
            self._lemmas(doc)
        return doc

    def _rule_attributes(self, doc: Any) -> None:  # Any: spaCy's stubs want Ints2d arrays
        import numpy
        from spacy.attrs import DEP, IS_SPACE, LEMMA, LOWER, MORPH, POS, TAG

        keys = doc.to_array([TAG, DEP, IS_SPACE, LOWER])
        lowers, where = numpy.unique(keys[:, 3], return_inverse=True)
        keys[:, 3] = numpy.fromiter(
            (self._pattern_word(doc, int(h)) for h in lowers), dtype=numpy.uint64
        )[where.reshape(-1)]
        classes, first, members = numpy.unique(keys, axis=0, return_index=True, return_inverse=True)
        values = numpy.empty((len(classes), 4), dtype=numpy.uint64)
        slow: set[int] = set()
        rules_of: list[tuple[int, ...]] = []
        for n, (row, i) in enumerate(zip(classes.tolist(), first.tolist(), strict=True)):
            rules, found = self._class(doc, tuple(row), i)
            values[n] = found
            rules_of.append(rules)
            if self.dep_rules.intersection(rules):
                slow.add(n)
        members = members.reshape(-1)
        doc.from_array([TAG, POS, MORPH, LEMMA], values[members])
        extra: dict[int, list[int]] = {}
        for match_id, start, end in self.pairs(doc, allow_missing=True):
            rule = int(self.vocab.strings[match_id])
            token = (start if self.ruler.indices[rule] >= 0 else end) + self.ruler.indices[rule]
            extra.setdefault(token, []).append(rule)
        slow_tokens = {i for i, c in enumerate(members.tolist()) if c in slow} if slow else set()
        for i in sorted(slow_tokens | set(extra)):
            self._apply(doc[i], sorted(rules_of[members[i]] + tuple(extra.get(i, ()))))

    def _pattern_word(self, doc: Doc, lower: int) -> int:
        word = self.word_memo.get(lower)
        if word is None:
            text = self.vocab.strings[lower]
            named = text in self.words or any(r.search(text) for r in self.regexes)
            word = lower if named else 0
            _remember(self.word_memo, lower, word)
        return word

    def _class(
        self, doc: Doc, key: tuple[int, ...], i: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The rules one-token patterns fire for token ``i``'s class, and the TAG, POS, MORPH
        and LEMMA they leave (the ruler itself run on a one-token copy of it)."""
        known = self.class_memo.get(key)
        if known is None:
            import numpy
            from spacy.attrs import DEP, LEMMA, MORPH, POS, TAG
            from spacy.tokens import Doc

            # A copy of the token with its tag and label (Span.as_doc would relabel a token
            # whose head lies outside the span).
            token = doc[i]
            single: Any = Doc(self.vocab, words=[token.text], spaces=[False])
            single.from_array([TAG, DEP], numpy.array([[token.tag, token.dep]], numpy.uint64))
            matches = self.ruler.match(single)
            self.ruler.set_annotations(single, matches)
            rules = tuple(rule for rule, _m, _s, _e in matches)
            found = tuple(single.to_array([TAG, POS, MORPH, LEMMA])[0].tolist())
            known = (rules, found)
            _remember(self.class_memo, key, known)
        return known

    def _apply(self, token: Any, rules: Iterable[int]) -> None:
        """The ruler's own per-token code, for tokens the class shortcut does not cover."""
        from spacy.tokens._retokenize import set_token_attrs

        for rule in rules:
            set_token_attrs(token, self.ruler.attrs[rule])

    def _lemmas(self, doc: Any) -> None:
        import numpy
        from spacy.attrs import LEMMA, MORPH, ORTH, POS

        cols = doc.to_array([ORTH, POS, MORPH, LEMMA])
        todo = numpy.flatnonzero(cols[:, 3] == 0)
        if not len(todo):
            return
        triples, first, where = numpy.unique(
            cols[todo, :3], axis=0, return_index=True, return_inverse=True
        )
        lemmas = numpy.fromiter(
            (
                self._lemma(doc, tuple(row), int(todo[i]))
                for row, i in zip(triples.tolist(), first.tolist(), strict=True)
            ),
            dtype=numpy.uint64,
            count=len(triples),
        )
        cols[todo, 3] = lemmas[where.reshape(-1)]
        doc.from_array([LEMMA], cols[:, 3:4])

    def _lemma(self, doc: Doc, key: tuple[int, ...], i: int) -> int:
        lemma = self.lemma_memo.get(key)  # type: ignore[arg-type]
        if lemma is None:
            lemma = self.vocab.strings.add(self.lemmatizer.lemmatize(doc[i])[0])
            _remember(self.lemma_memo, key, lemma)
        return lemma


def _has_dep(attrs: dict[Any, Any]) -> bool:
    from spacy.attrs import DEP

    return DEP in attrs or "DEP" in attrs


def _remember(memo: dict[Any, Any], key: Any, value: Any) -> None:
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
