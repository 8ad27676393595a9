"""RangeSet answers exactly what a pass over the ranges answers, by bisection."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from newsloom.text.ranges import RangeSet, inside

SPAN = st.tuples(st.integers(0, 200), st.integers(0, 40)).map(lambda t: (t[0], t[0] + t[1]))


@given(st.lists(SPAN, max_size=30), SPAN)
def test_rangeset_agrees_with_a_pass_over_the_ranges(spans, probe):
    ranges = RangeSet(spans)
    start, end = probe
    assert ranges.overlaps(start, end) == inside(start, end, spans)
    assert ranges.covered(start, end) == sum(max(0, min(end, e) - max(start, s)) for s, e in spans)


def test_empty_rangeset() -> None:
    assert not RangeSet([]).overlaps(0, 10) and RangeSet([]).covered(0, 10) == 0
