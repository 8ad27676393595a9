"""``TokenAttributes`` gives the stock model's tag, POS, morphology, label and lemma on every
token: on hand-made sentences that fire each kind of ruler rule (tag map, word + tag, word +
label, two-token patterns, whitespace), on the example corpus, and on a sample of ECB+ dev.
The whole of PolNeAR dev and ECB+ dev is checked by bench/check_token_attributes.py."""

from __future__ import annotations

import pytest

from newsloom.token_attributes import COMPONENT, REPLACED, TokenAttributes, UnsupportedRuler
from tests.conftest import EXAMPLES

ATTRS = ["TAG", "POS", "MORPH", "LEMMA", "DEP", "HEAD", "ENT_IOB", "ENT_TYPE"]
# ECB+ dev articles compared in the suite (the bench script checks all 772).
ECB_SAMPLE = 40

SENTENCES = [
    # tag map only
    "The minister said the bridge would reopen on Monday.",
    # word + tag rules: was/were/did/had, contractions ca/wo/sha, gets/got
    "She was there, they were not; he did go and had seen it. I can't, won't, shan't.",
    "He gets what he got.",
    # word + label rules: I / you / it as subject and object
    "I told you it was late, and you gave it to me before I saw it.",
    # two-token patterns and the token they set: gonna, gotta, let's, y'all, c'mon, ain't
    "We're gonna win, we gotta try, let's go, y'all know it, c'mon, it ain't over.",
    # expletive + be, det/quantmod vs pronoun DT, aux vs verb have/do, mark IN
    "There is a reason that this matters, and all of those who have done it do so.",
    # whitespace tokens, in and between sentences
    "Line one.\n\n  Line two\t\tends   here.\n",
    # old spellings the ruler names
    "Nothin' doin', ol' man, somethin' 'bout 'em, 'nuff said; they'll see.",
    "",
]


def _compare(stock, fast, texts: list[str]) -> list[str]:
    diffs = []
    for n, (a, b) in enumerate(zip(stock.pipe(texts), fast.pipe(texts), strict=True)):
        want, got = a.to_array(ATTRS), b.to_array(ATTRS)
        assert want.shape == got.shape
        for i, j in zip(*(want != got).nonzero(), strict=True):
            diffs.append(f"text {n} token {a[i].text!r} {ATTRS[j]}")
    return diffs


@pytest.fixture(scope="module")
def stock():
    import spacy

    from newsloom.nlp import add_paragraph_starts, pick_model, split_glued_quote_marks

    # The stock attribute ruler and lemmatizer over the same parse (sentence starts and
    # tokens included).
    model = spacy.load(pick_model())
    split_glued_quote_marks(model)
    add_paragraph_starts(model)
    return model


def test_the_pipeline_has_the_component_instead_of_ruler_and_lemmatizer(nlp, stock):
    assert COMPONENT in nlp.pipe_names
    assert not set(REPLACED) & set(nlp.pipe_names)
    assert set(REPLACED) <= set(stock.pipe_names)


@pytest.mark.parametrize("text", SENTENCES)
def test_each_kind_of_rule_gives_the_stock_attributes(nlp, stock, text):
    assert _compare(stock, nlp, [text]) == []


def test_the_example_corpus_gives_the_stock_attributes(nlp, stock):
    texts = [p.read_text(encoding="utf-8") for p in sorted((EXAMPLES / "corpus").rglob("*.txt"))]
    assert texts
    assert _compare(stock, nlp, texts) == []


def test_ecbplus_dev_sample_gives_the_stock_attributes(nlp, stock, shared_data):
    files = sorted((shared_data / "ecbplus" / "dev" / "texts").glob("*.txt"))[::19][:ECB_SAMPLE]
    texts = [f.read_text(encoding="utf-8") for f in files]
    assert len(texts) == ECB_SAMPLE
    assert _compare(stock, nlp, texts) == []


def test_a_difference_would_be_seen(nlp, stock):
    """The comparison fails when one token differs (the check itself can fail)."""
    import copy

    doc = stock("He was there.")
    changed = copy.deepcopy(doc)
    changed[1].lemma_ = "was"
    assert (doc.to_array(ATTRS) != changed.to_array(ATTRS)).any()


@pytest.mark.parametrize(
    "pattern",
    [
        [{"NORM": "was"}],  # a key the class shortcut does not read
        [{"LOWER": {"FUZZY": "was"}}],  # an operator it does not know
        [{"TAG": "VBD", "OP": "?"}],
    ],
)
def test_a_ruler_with_other_patterns_is_refused(stock, pattern):
    import spacy

    from newsloom.nlp import pick_model

    model = spacy.load(pick_model(), exclude=["ner", "parser"])
    ruler = model.get_pipe("attribute_ruler")
    ruler.add([pattern], {"LEMMA": "be"})
    with pytest.raises(UnsupportedRuler):
        TokenAttributes(ruler, model.get_pipe("lemmatizer"))


def test_the_stock_ruler_is_accepted(stock):
    TokenAttributes(stock.get_pipe("attribute_ruler"), stock.get_pipe("lemmatizer"))


# (change to the stock pipeline, installed): only the stock order and settings are replaced.
INSTALL = [
    (None, True),
    ("overwrite", False),  # a lemmatizer that overwrites the ruler's lemmas
    ("no-lemmatizer", False),
    ("apart", False),  # a component between the ruler and the lemmatizer
]


@pytest.mark.parametrize(("change", "installed"), INSTALL)
def test_install_replaces_only_the_stock_arrangement(change, installed):
    import spacy

    from newsloom.nlp import pick_model
    from newsloom.token_attributes import install

    model = spacy.load(pick_model(), exclude=["ner"])
    if change == "overwrite":
        model.get_pipe("lemmatizer").overwrite = True
    elif change == "no-lemmatizer":
        model.remove_pipe("lemmatizer")
    elif change == "apart":
        model.add_pipe("sentencizer", after="attribute_ruler")
    before = list(model.pipe_names)
    assert install(model) is installed
    assert (COMPONENT in model.pipe_names) is installed
    if not installed:
        assert model.pipe_names == before


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("it was bad,”Clinton said", ["bad", ",", "”", "Clinton"]),
        ('He said,"We will win."', ["said", ",", '"', "We"]),
        # not glued to a letter: left as the tokenizer had it
        ("It cost £2.5m. Prices rose.", ["2.5", "m", "."]),
        ("Rock'n'roll isn't dead.", ["Rock'n'roll", "is", "n't"]),
    ],
)
def test_glued_quotation_marks_are_cut_off(nlp, text, words):
    tokens = [t.text for t in nlp.make_doc(text)]
    start = tokens.index(words[0])
    assert tokens[start : start + len(words)] == words
