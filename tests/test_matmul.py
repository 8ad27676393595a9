"""``MatmulOps`` computes thinc's matrix products with numpy: the same products as thinc's own
CPU ops in every transposition, written into ``out`` when one is given; the model newsloom
loads uses it in every dense layer and still parses as the stock model does (the token by token
comparisons are in test_token_attributes.py and bench/check_token_attributes.py)."""

from __future__ import annotations

import numpy
import pytest
from thinc.api import NumpyOps

from newsloom.matmul import MatmulOps, use_matmul_ops

SHAPES = [(7, 5, 3), (64, 96, 288), (1, 1, 1), (0, 4, 6)]  # rows, inner, columns


@pytest.mark.parametrize("rows,inner,columns", SHAPES)
@pytest.mark.parametrize("trans1", [False, True])
@pytest.mark.parametrize("trans2", [False, True])
def test_gemm_is_thincs_product(rows, inner, columns, trans1, trans2):
    rng = numpy.random.default_rng(rows + inner + columns)
    x = rng.standard_normal((inner, rows) if trans1 else (rows, inner)).astype("float32")
    y = rng.standard_normal((columns, inner) if trans2 else (inner, columns)).astype("float32")
    want = NumpyOps().gemm(x, y, trans1=trans1, trans2=trans2)
    got = MatmulOps().gemm(x, y, trans1=trans1, trans2=trans2)
    assert got.dtype == numpy.float32
    assert got.shape == (rows, columns)
    numpy.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_gemm_writes_into_out():
    x = numpy.arange(6, dtype="float32").reshape(2, 3)
    y = numpy.arange(12, dtype="float32").reshape(3, 4)
    out = numpy.full((2, 4), -1.0, dtype="float32")
    result = MatmulOps().gemm(x, y, out=out)
    assert result is out
    numpy.testing.assert_array_equal(out, x @ y)


def test_the_loaded_model_multiplies_with_numpy(nlp):
    layers = [
        layer
        for _name, component in nlp.pipeline
        if getattr(component, "model", None) is not None
        for layer in component.model.walk()
    ]
    assert layers
    assert all(isinstance(layer.ops, MatmulOps) for layer in layers)


def test_only_plain_cpu_ops_are_replaced():
    import spacy

    from newsloom.nlp import pick_model

    fresh = spacy.load(pick_model())
    tagger = fresh.get_pipe("tagger").model

    class OtherOps(NumpyOps):
        name = "other"

    kept = OtherOps()
    tagger.ops = kept  # the top layer only: its sublayers keep thinc's NumpyOps
    changed = use_matmul_ops(fresh)
    assert changed > 0
    assert tagger.ops is kept
    assert use_matmul_ops(fresh) == 0  # nothing left to change
    doc = fresh("The minister said the bridge would reopen.")
    assert [t.dep_ for t in doc][:3] == ["det", "nsubj", "ROOT"]
