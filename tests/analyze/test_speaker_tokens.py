"""The candidate features' token table reads what spaCy's Token objects give."""

from __future__ import annotations

import pytest

from newsloom.analyze.antecedents import TokenOffsets, article_genders, sentence_starts
from newsloom.analyze.attribution import could_speak, is_speech_verb
from newsloom.analyze.quotes import _People, _phrase_head, _Resolver
from newsloom.analyze.speakers.tokens import TokenTable

TEXTS = [
    pytest.param('Roe, who joined in 2019, said "it is fine."\n\nShe told him so.', id="quote"),
    pytest.param("The ministry's statement was read aloud by officials.", id="issuer"),
    pytest.param(
        'Her neighbour chimed in: "No." He pointed out the cost, then shot back at them. '
        "She pointed at the map and cut in line.",
        id="phrasal",
    ),
    pytest.param("  \n\n  ", id="space-only"),
    pytest.param("", id="empty"),
]


@pytest.mark.parametrize("text", TEXTS)
def test_token_table_matches_the_tokens(nlp, text):
    doc = nlp(text)
    t = TokenTable(doc)
    assert t.head == [tok.head.i for tok in doc]
    assert t.dep == [tok.dep_ for tok in doc]
    assert t.lower == [tok.lower_ for tok in doc]
    assert t.lemma == [tok.lemma_ for tok in doc]
    assert t.pos == [tok.pos_ for tok in doc]
    assert t.tag == [tok.tag_ for tok in doc]
    assert t.ent_type == [tok.ent_type_ for tok in doc]
    assert t.idx == [tok.idx for tok in doc]
    assert t.punct == [tok.is_punct for tok in doc]
    assert t.space == [tok.is_space for tok in doc]
    assert t.speech_verb == [is_speech_verb(tok) for tok in doc]
    for tok in doc:
        assert t.could_speak(tok.i) == could_speak(tok)
        assert t.root(tok.i, tok.i + 1) == tok.i
    if len(doc) > 2:
        assert t.root(0, len(doc)) == doc[0 : len(doc)].root.i
    for first in range(len(doc)):  # every span of up to four words, as a name's would be
        for last in range(first + 2, min(first + 5, len(doc)) + 1):
            assert t.root(first, last) == doc[first:last].root.i, (first, last)


@pytest.mark.parametrize(
    ("text", "word", "kind"),
    [
        ("She said so.", "She", "he_she"),
        ("They said so.", "They", "they_we"),
        ("The minister said so.", "minister", "role_noun"),
        ("Officials said so.", "Officials", "speaker_noun"),
        ("The statement said so.", "statement", "speech_noun"),
        ("The weather said nothing.", "weather", "other"),  # negative: no speaker word
    ],
)
def test_word_kinds(nlp, text, word, kind):
    doc = nlp(text)
    i = next(tok.i for tok in doc if tok.text == word)
    assert TokenTable(doc).word_kind(i) == kind


@pytest.mark.parametrize("text", TEXTS)
def test_token_offsets_match_char_span(nlp, text):
    """Every character range, widened to whole tokens, as ``Doc.char_span`` widens it."""
    doc = nlp(text)
    offsets = TokenOffsets(doc)
    for start in range(len(text) + 1):
        for end in range(start, len(text) + 1):
            span = doc.char_span(start, end, alignment_mode="expand")
            want = None if span is None or not len(span) else (span.start, span.end)
            assert offsets.range(start, end) == want, (start, end)


@pytest.mark.parametrize(
    ("text", "verb", "speaks"),
    [
        ("He pointed out that costs rose.", "pointed", True),
        ('She chimed in: "No."', "chimed", True),
        ('"It is late," Roe shot back.', "shot", True),
        ("The panel ruled that it was wrong.", "ruled", True),
        ("She pointed at the map.", "pointed", False),  # no particle
        ("He cut in line at the bank.", "cut", False),  # "in" with an object
        ("Police shot the dog.", "shot", False),
        ("Talks have been going on for a year.", "going", False),  # not finite
        ("He went on to win the race.", "went", False),
    ],
)
def test_phrasal_speech_verbs(nlp, text, verb, speaks):
    doc = nlp(text)
    (token,) = [tok for tok in doc if tok.text == verb]
    assert is_speech_verb(token) is speaks
    assert TokenTable(doc).speech_verb[token.i] is speaks


PEOPLE_TEXT = (
    "Mrs Ada Roe, a mother of two, said her shop had closed. Mr Ben Doe said his rent rose.\n\n"
    "Her husband, Carl Roe, said the shop's co-owner and the landlord had argued. "
    '"The landlord never called," the co-owner said.'
)


def test_readings_from_the_table_match_the_tokens(nlp):
    """What the quotes stage reads from the token table when the ranker runs (genders, noun
    uses, phrase heads) is what it reads from the Token objects without it."""
    doc = nlp(PEOPLE_TEXT)
    table = TokenTable(doc)
    quoted = [(PEOPLE_TEXT.index('"'), PEOPLE_TEXT.rindex('"') + 1)]
    plain = _People(doc, [], quoted)
    read = _People(doc, [], quoted, TokenOffsets(doc), table.root, sentence_starts(doc))
    assert read.gender == plain.gender
    assert plain.gender  # (the text shows genders: a test of an empty reading proves nothing)
    assert article_genders(doc, plain.mentions, quoted, sentence_starts(doc), table.root) == (
        article_genders(doc, plain.mentions, quoted)
    )
    with_table = _Resolver(doc, read, table=table)
    without = _Resolver(doc, plain)
    for lemma in {tok.lemma_.lower() for tok in doc}:
        assert with_table._noun_places_of(lemma) == without._noun_places_of(lemma), lemma
    assert without._noun_places_of("co-owner") or without._noun_places_of("owner")
    for first in range(len(doc)):
        for last in range(first + 2, min(first + 5, len(doc)) + 1):
            span = doc[first:last]
            assert with_table._phrase_head(span).i == _phrase_head(span).i, (first, last)
