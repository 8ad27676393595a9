from __future__ import annotations

from newsloom.stories.timeline import build_timeline, trim

from .builders import analysis


def test_same_event_merged_across_articles():
    a = analysis(
        "a1",
        "Residents were evacuated from the riverside on March 3 as the flood rose.",
        dates=[("March 3", "2024-03-03")],
    )
    b = analysis(
        "a2",
        "On Sunday the flood forced the evacuation of riverside residents.",
        dates=[("Sunday", "2024-03-03")],
    )
    (event,) = build_timeline([a, b])
    assert event.date == "2024-03-03"
    assert event.article_ids == ["a1", "a2"]


def test_different_things_on_one_day_stay_apart_and_sorted():
    a = analysis(
        "a1",
        "The mayor resigned on May 2. Residents were evacuated from the riverside on March 3.",
        dates=[("May 2", "2024-05-02"), ("March 3", "2024-03-03")],
    )
    b = analysis(
        "a2",
        "A charity concert raised money for hospitals on March 3.",
        dates=[("March 3", "2024-03-03")],
    )
    events = build_timeline([a, b])
    assert [e.date for e in events] == ["2024-03-03", "2024-03-03", "2024-05-02"]
    assert sorted(tuple(e.article_ids) for e in events[:2]) == [("a1",), ("a2",)]


def test_different_dates_not_merged():
    a = analysis("a1", "The flood hit the riverside in 2023.", dates=[("2023", "2023")])
    b = analysis(
        "a2", "The flood hit the riverside on 4 June 2023.", dates=[("4 June 2023", "2023-06-04")]
    )
    events = build_timeline([b, a])
    assert [e.date for e in events] == ["2023", "2023-06-04"]


def test_trim():
    assert trim("short one") == "short one"
    long = "word " * 100
    assert len(trim(long)) <= 241 and trim(long).endswith("…")


def test_no_dates():
    assert build_timeline([analysis("a1", "Nothing dated here.")]) == []


def test_same_day_coarse_date_needs_more_shared_words():
    a = analysis(
        "a1",
        "The actor checked into a residential centre on Tuesday.",
        dates=[("Tuesday", "2019-10-01")],
    )
    b = analysis(
        "a2",
        "He entered a treatment centre outside the city on Tuesday.",
        dates=[("Tuesday", "2019-10-01")],
    )
    assert len(build_timeline([a, b])) == 1
    c = analysis(
        "a3",
        "The actor checked into a residential centre in October.",
        dates=[("October", "2019-10")],
    )
    d = analysis(
        "a4",
        "He entered a treatment centre outside the city in October.",
        dates=[("October", "2019-10")],
    )
    assert len(build_timeline([c, d])) == 2


def test_same_sentence_never_tells_two_events():
    sentence = (
        "Achterberg first spoke about his drinking in 2017, saying he had been sober since 2014."
    )
    # (Each text opens with a short sentence: the builder finds sentences after ". ".)
    a = analysis("a1", "Intro. " + sentence, dates=[("2017", "2017"), ("2014", "2014")])
    b = analysis(
        "a2",
        "Intro. Late Checkout's fifth season ended in February with its highest ratings since its "
        "debut in 2018.",
        dates=[("February", "2023-02"), ("2018", "2018")],
    )
    texts = [e.text for e in build_timeline([a])] + [e.text for e in build_timeline([b])]
    assert len(texts) == len(set(texts)) == 4
    assert sentence in texts
    assert "Achterberg first spoke about his drinking in 2017" in texts
    assert "Late Checkout's fifth season ended in February" in texts


def test_whole_sentence_tells_the_event_before_a_cut_out_phrase():
    a = analysis(
        "a1",
        "Intro. The clip of the outburst was filmed at the studio last month.",
        dates=[("last month", "2023-05")],
    )
    b = analysis(
        "a2",
        "Intro. The video, which was filmed at the studio last month, went viral.",
        dates=[("last month", "2023-05")],
    )
    # The dates stage cuts the phrase of a date out of a sentence that dates other events too.
    b.dates[0] = b.dates[0].model_copy(update={"sentence_end": b.article.text.index(", went")})
    (event,) = build_timeline([b, a])
    assert event.text == "The clip of the outburst was filmed at the studio last month."
