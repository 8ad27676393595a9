"""The model's matrix products computed by numpy (OpenBLAS) instead of thinc's BLIS.

thinc multiplies matrices with the BLIS library of the ``blis`` wheel, and that wheel's BLIS
runs its portable "generic" kernels on every CPU (``BLIS_ARCH_DEBUG=1`` prints "selecting
sub-configuration 'generic'", and its ``BLIS_ARCH_TYPE`` override is not compiled in). numpy's
OpenBLAS picks kernels for the CPU it runs on: on the shapes of the model's layers (a batch's
tokens × 96-288 features) it takes 3-4× less CPU time. The layers that call ``ops.gemm`` (the
token embeddings of the tagger, parser and entity recogniser, the tagger's output, the parser's
and recogniser's lower layers) get ``MatmulOps``; the transition loops of the parser and
recogniser call BLIS directly (thinc's ``CBlas``) and are left as they are.

The products are the same sums in another order, so a score can differ in its last bits; no
parse, tag or entity differed on PolNeAR dev and ECB+ dev (``bench/check_token_attributes.py``,
docs/benchmarks.md). OpenBLAS is held to one thread: workers already use every core, and its
threads on these small products cost CPU time without saving any.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy
from thinc.api import NumpyOps

if TYPE_CHECKING:
    from spacy.language import Language

# Threads OpenBLAS may use in a process that parses (one: the engines parallelise by process).
BLAS_THREADS = 1


class MatmulOps(NumpyOps):  # type: ignore[misc]  # thinc's Ops classes are untyped Cython
    """thinc's CPU ops with ``gemm`` (the matrix product every dense layer calls) by numpy."""

    name = "numpy-matmul"

    def gemm(
        self,
        x: numpy.ndarray,
        y: numpy.ndarray,
        out: numpy.ndarray | None = None,
        trans1: bool = False,
        trans2: bool = False,
    ) -> Any:
        a = x.T if trans1 else x
        b = y.T if trans2 else y
        if out is None:
            return numpy.matmul(a, b)
        return numpy.matmul(a, b, out=out)


def use_matmul_ops(nlp: Language) -> int:
    """Give every layer of ``nlp``'s components that runs on thinc's plain CPU ops
    ``MatmulOps``; returns how many layers changed. GPU ops and others are kept."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=BLAS_THREADS, user_api="blas")
    ops = MatmulOps()
    changed = 0
    for _name, component in nlp.pipeline:
        model = getattr(component, "model", None)
        if model is None or not hasattr(model, "walk"):
            continue
        for layer in model.walk():
            if type(layer.ops) is NumpyOps:
                layer.ops = ops
                changed += 1
    return changed
