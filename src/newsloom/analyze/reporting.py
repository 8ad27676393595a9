"""Own reporting on a spaCy Doc: which tokens fall inside given character spans.

Which spans are the outlet's own reporting is ``newsloom.spans``; this maps them onto tokens
for the stages that work token by token (framing).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from spacy.tokens import Doc


def token_coverage(doc: Doc, spans: Iterable[tuple[int, int]]) -> npt.NDArray[np.bool_]:
    """Per token of ``doc``, whether it overlaps any of ``spans`` (a numpy bool array).

    Token offsets come from ``Doc.to_array`` in one call: iterating a Doc creates a Python
    object per token, which costs more than the whole check.
    """
    import numpy as np
    from spacy.attrs import IDX, LENGTH

    covered = np.zeros(len(doc), dtype=bool)
    if not len(doc):
        return covered
    offsets = doc.to_array([IDX, LENGTH])
    starts = offsets[:, 0]
    ends = starts + offsets[:, 1]
    for start, end in spans:
        first = int(np.searchsorted(ends, start, side="right"))
        last = int(np.searchsorted(starts, end, side="left"))
        covered[first:last] = True
    return covered
