"""The export's JSON text: ``dumps_indented`` writes exactly what ``json.dumps(...,
ensure_ascii=False, indent=1)`` writes, for every kind of value, and the export uses it."""

from __future__ import annotations

import json
from collections import OrderedDict
from enum import IntEnum

import pytest
from hypothesis import given
from hypothesis import strategies as st

from newsloom.models import Corpus, ExportArticle
from newsloom.render.json import corpus_text
from newsloom.render.json_text import dumps_indented


class Level(IntEnum):
    HIGH = 2


class Name(str):
    pass


def reference(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


# (label, value): every row must give the reference text exactly.
ROWS = [
    ("small float", 1e-07),
    ("small negative float", -2.5e-05),
    ("big float", 1e16),
    ("float with a long fraction", 0.1 + 0.2),
    ("negative zero", -0.0),
    ("integer-valued float", 3.0),
    ("NaN", float("nan")),
    ("infinities", [float("inf"), -float("inf")]),
    ("big int", 2**80),
    ("negative int", -7),
    ("bools and null", [True, False, None]),
    ("empty string", ""),
    ("unicode", "Zoë — “quoted” 🌟 日本"),
    ("escapes", 'a "b" \\ \n\t\r\x00\x1f\x7f'),
    ("lone surrogate", "\ud800"),
    ("line and paragraph separators", "\u2028\u2029"),
    ("empty dict", {}),
    ("empty list", []),
    ("nested empties", {"a": {}, "b": [], "c": [[], {}, [[]]], "d": [{}]}),
    ("deep nesting", {"a": [{"b": [{"c": [1, [2, [3]]]}]}]}),
    ("unicode keys", {"clé": 1, "日本": {"ë": "x"}, "": None}),
    ("key order kept", {"z": 1, "a": 2, "m": 3}),
    ("tuple as list", {"t": (1, "two", (3.5,))}),
    ("top-level scalar string", "just text"),
    ("top-level int", 5),
    ("mixed list", [1, 2.5, "s", None, True, {"k": [0]}]),
]


@pytest.mark.parametrize(("label", "value"), ROWS, ids=[label for label, _ in ROWS])
def test_same_text_as_json_dumps(label: str, value: object) -> None:
    assert dumps_indented(value) == reference(value)


# Values the fast path hands to json.dumps whole: still the same text (or the same error).
FALLBACK_ROWS = [
    ("int keys", {1: "one", 2.5: "two and a half", False: "no", None: "none"}),
    ("IntEnum value", {"level": Level.HIGH}),
    ("str subclass", [Name("Ann")]),
    ("OrderedDict", OrderedDict([("b", 1), ("a", 2)])),
]


@pytest.mark.parametrize(("label", "value"), FALLBACK_ROWS, ids=[r[0] for r in FALLBACK_ROWS])
def test_other_types_fall_back_to_json_dumps(label: str, value: object) -> None:
    assert dumps_indented(value) == reference(value)


@pytest.mark.parametrize("value", [{"when": object()}, [b"bytes"], {"s": {1, 2}}])
def test_unwritable_values_raise_as_json_dumps_does(value: object) -> None:
    with pytest.raises(TypeError):
        reference(value)
    with pytest.raises(TypeError):
        dumps_indented(value)


def test_a_wrong_encoder_would_be_caught() -> None:
    """The reference differs from compact or ASCII-escaped text, so the rows can fail."""
    value = {"a": [1e-07, "ë"]}
    assert dumps_indented(value) != json.dumps(value)
    assert dumps_indented(value) != json.dumps(value, indent=1)
    assert dumps_indented(value) != json.dumps(value, ensure_ascii=False, indent=2)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=30,
)


@given(json_values)
def test_any_json_value(value: object) -> None:
    assert dumps_indented(value) == reference(value)


def test_the_export_text_is_the_reference_text() -> None:
    corpus = Corpus(
        articles=[
            ExportArticle(
                id="a1",
                path="x/ä.txt",
                origin="x/ä.txt",
                source="Zoë Post",
                title="“Quoted” title",
                published=None,
                url=None,
                format="text",
            )
        ],
        stories=[],
    )
    assert corpus_text(corpus) == reference(corpus.model_dump(mode="json")) + "\n"
