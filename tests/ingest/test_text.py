"""Plain-text articles: every header convention of INPUT-FORMATS.md, by exact offsets."""

from __future__ import annotations

import pytest

from newsloom.config import Settings
from newsloom.ingest import read_inputs
from newsloom.ingest.headers import parse_header, title_problem
from newsloom.ingest.text import name_metadata
from newsloom.models import Article

BODY = "The council approved the plan on Sunday, officials said. The vote was 7-2.\n"

# (text, expected header fields); keys absent from the dict must be None / 0.
HEADER_ROWS = [
    # date marker: a space, `date`, ISO date, text on the same line
    (
        " date 2021-03-14 PARIS • The mayor said on Sunday.\n",
        {"published": "2021-03-14", "dateline": "PARIS", "body_start": 17},
    ),
    (
        "date 2021-03-14 PARIS • The mayor said on Sunday.\n",
        {"published": "2021-03-14", "dateline": "PARIS", "body_start": 16},
    ),
    (
        " date 2021-03-14\n\nThe mayor said on Sunday.\n",
        {"published": "2021-03-14", "body_start": 18},
    ),
    # `date` inside a sentence, or capitalised as a word of the body, is not a marker
    ("The date 2021-03-14 was set for the vote.\n\n" + BODY, {}),
    ("Update date 2021-03-14 pending.\n", {}),
    # a marker with an impossible date is not taken
    (" date 2021-02-30 The mayor said on Sunday.\n", {}),
    # datelines
    ("WASHINGTON (AP) — The Senate voted on Tuesday.\n", {"dateline": "WASHINGTON"}),
    ("HARBOR CITY — Heavy rain closed the road.\n", {"dateline": "HARBOR CITY"}),
    ("LOS ANGELES, Calif. - The actress spoke on Monday.\n", {"dateline": "LOS ANGELES, Calif."}),
    ("ST. LOUIS -- Fans gathered early.\n", {"dateline": "ST. LOUIS"}),
    ("WINSTON-SALEM • Officials met.\n", {"dateline": "WINSTON-SALEM"}),
    ("well - this is not a dateline at all.\n", {}),
    ("Paris — The mayor said on Sunday.\n", {}),
    ("BREAKING — The mayor resigned.\n", {}),
    ("I — I never said that, she wrote.\n", {}),
    ("PARIS was quiet on Sunday.\n", {}),
    # title line followed by a blank line
    (
        "Flooding closes Harbor Road\n\nHARBOR CITY — Heavy rain closed Harbor Road.\n",
        {"title": "Flooding closes Harbor Road", "dateline": "HARBOR CITY", "body_start": 29},
    ),
    (
        "Singer Spotted Leaving Court With New Partner.\n\n" + BODY,
        {"title": "Singer Spotted Leaving Court With New Partner.", "body_start": 48},
    ),
    (
        "'I never lied': Roe insists she will fight on\n\n" + BODY,
        {"title": "'I never lied': Roe insists she will fight on", "body_start": 47},
    ),
    (
        "Is this the end for the old bridge?\n\n" + BODY,
        {"title": "Is this the end for the old bridge?", "body_start": 37},
    ),
    (
        "  Council Approves New Bridge  \r\n\r\nRIVERTON • The town council met.\r\n",
        {"title": "Council Approves New Bridge", "dateline": "RIVERTON", "body_start": 35},
    ),
    (
        "\ufeffCouncil Approves New Bridge\n\n" + BODY,
        {"title": "Council Approves New Bridge", "body_start": 30},
    ),
    # not titles: a caption, a credit, the body's first sentence, a lead-in, a signature
    ("Jane Roe and John Doe (Photo: Archive Picture)\n\n" + BODY, {}),
    ("Jane Roe at the premiere Kim Lee / Agency\n\n" + BODY, {}),
    ("The town council approved a new bridge on Sunday.\n\n" + BODY, {}),
    ("Watch the clip below:\n\n" + BODY, {}),
    ("— SAM WRITES (@samwrites) March 2, 2021\n\n" + BODY, {}),
    ("the council met on sunday\n\n" + BODY, {}),
    ("HARBOR CITY — Heavy rain closed Harbor Road\n\n" + BODY, {"dateline": "HARBOR CITY"}),
    ("Council Approves New Bridge\n" + BODY, {}),  # no blank line after it
    ("Council Approves New Bridge\n\n  \n", {}),  # nothing after it: it is the whole text
    # url line
    (
        "url: https://www.daily-courier.example/2021/03/14/bridge\nCouncil Approves New Bridge\n\n"
        "RIVERTON (AP) — The town council met.\n",
        {
            "url": "https://www.daily-courier.example/2021/03/14/bridge",
            "title": "Council Approves New Bridge",
            "dateline": "RIVERTON",
            "body_start": 86,
        },
    ),
    (
        "URL: http://news.example/a\n\n date 2021-03-14 PARIS • The mayor spoke.\n",
        {
            "url": "http://news.example/a",
            "published": "2021-03-14",
            "dateline": "PARIS",
            "body_start": 45,
        },
    ),
    ("The url: https://x.example/ is in a sentence.\n", {}),
    # marker, then a title on the same line, then the dateline
    (
        " date 2021-03-14 Flooding closes Harbor Road\n\nHARBOR CITY — Heavy rain fell.\n",
        {
            "published": "2021-03-14",
            "title": "Flooding closes Harbor Road",
            "dateline": "HARBOR CITY",
            "body_start": 46,
        },
    ),
    # nothing at all
    ("", {}),
    ("\n\n\n", {}),
]


@pytest.mark.parametrize(("text", "expected"), HEADER_ROWS)
def test_header_conventions(text, expected):
    header = parse_header(text)
    got = {
        "published": header.published,
        "url": header.url,
        "title": header.title_span.text if header.title_span else None,
        "dateline": header.dateline.text if header.dateline else None,
        "body_start": header.body_start,
    }
    want = {"published": None, "url": None, "title": None, "dateline": None, "body_start": 0}
    want.update(expected)
    assert got == want
    for span in (header.title_span, header.dateline):
        if span is not None:
            assert text[span.start : span.end] == span.text


@pytest.mark.parametrize(
    ("line", "is_title"),
    [
        ("Flooding closes Harbor Road", True),
        ("Roe, 33, Wins Award For Best Drama", True),
        ("Jane Roe (Photo: Archive Picture)", False),
        ("Jane Roe poses for a picture: credit Kim Lee", False),
        ("Photo by Kim Lee", False),
        ("Here are some of the reactions:", False),
        ("Continue reading at the source.", False),
        ("x" * 201, False),
        (" ".join(["Word"] * 26), False),
        ("#JusticeForX", False),
        ("Nobody believed her for years #JusticeForX pic.twitter.com/AbC12dEf", False),
        ("THE END#JusticeForX", False),
        ("Read more at www.courier.example", False),
        ("Roe thanks @sam_writes for support", False),
        ("C# Developers Rejoice As New Version Ships", True),
        ("By Jane Roe", False),
        ("By JANE ROE and JOHN DOE", False),
        ("By Jane Roe, Staff Writer", False),
        ("By the numbers: the bridge in five charts", True),
        ("Published: 14 March 2021", False),
        ("Last updated: 10:32 GMT", False),
        ("March 14, 2021", False),
        ("Sunday, March 14, 2021 at 10:32 a.m. EST", False),
        ("2021-03-14 10:32", False),
        ("Millbrook bridge: what we know two days after the collapse", True),
        ("March 14 Vote Splits Council", True),
        ("...", False),
    ],
)
def test_title_cues(line, is_title):
    assert (title_problem(line) is None) is is_title


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("daily-courier_2021-03-14_bridge-vote.txt", ("daily-courier", "2021-03-14")),
        ("corpus/sub/courier_2020-01-02_a_b_c.txt", ("courier", "2020-01-02")),
        ("courier_2021-03-14_slug", ("courier", "2021-03-14")),
        ("017_9f2c41d0a8e3b7c5.txt", (None, None)),
        ("courier_2021-13-01_bad-month.txt", (None, None)),
        ("courier-2021-03-14-slug.txt", (None, None)),
        ("notes.txt", (None, None)),
    ],
)
def test_file_name_convention(name, expected):
    assert name_metadata(name) == expected


def read_one(paths, settings=None, **kw) -> Article:
    (item,) = list(read_inputs(paths, settings or Settings(), **kw))
    assert isinstance(item, Article), item
    return item


def test_file_is_read_exactly_with_relative_path_and_header(tmp_path, monkeypatch):
    raw = (
        "\ufeffurl: https://www.daily-courier.example/news/bridge\r\n"
        " date 2021-03-14 RIVERTON • The council met.\r\n\r\nIt voted 7-2.\r\n"
    )
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "017_9f2c41d0.txt").write_bytes(raw.encode("utf-8"))
    monkeypatch.chdir(tmp_path)
    article = read_one(["corpus/017_9f2c41d0.txt"])
    assert article.path == article.origin == "corpus/017_9f2c41d0.txt"
    with open(article.path, encoding="utf-8", newline="") as fh:
        assert article.text == fh.read() == raw  # BOM and CRLF kept
    assert article.format == "text"
    assert article.published == "2021-03-14"
    assert article.url == "https://www.daily-courier.example/news/bridge"
    assert article.source == "daily-courier"
    assert article.dateline is not None
    assert article.text[article.dateline.start : article.dateline.end] == "RIVERTON"
    assert article.text[article.body_start :].startswith("RIVERTON")
    from newsloom.models import article_id

    assert article.id == article_id(raw)


def test_file_name_gives_source_and_date_and_marker_wins(tmp_path):
    path = tmp_path / "courier_2021-03-15_bridge.txt"
    path.write_text(" date 2021-03-14 RIVERTON • The council met.\n", encoding="utf-8")
    article = read_one([str(path)])
    assert (article.source, article.published) == ("courier", "2021-03-14")
    assert any("file name says 2021-03-15" in w for w in article.warnings)
    path.write_text("RIVERTON • The council met.\n", encoding="utf-8")
    article = read_one([str(path)])
    assert (article.published, article.warnings) == ("2021-03-15", [])


def test_publisher_in_file_name_beats_url_domain(tmp_path):
    path = tmp_path / "courier_2021-03-15_bridge.txt"
    path.write_text("url: https://www.other.example/x\nThe council met.\n", encoding="utf-8")
    assert read_one([str(path)]).source == "courier"


def test_unknown_extension_that_is_text_is_read(tmp_path):
    path = tmp_path / "017_9f2c41d0a8e3b7c5"
    path.write_text(
        "Council Approves New Bridge\n\nRIVERTON • The council met.\n", encoding="utf-8"
    )
    article = read_one([str(path)])
    assert article.title == "Council Approves New Bridge"
    assert article.path == str(path)


def test_stdin_is_one_plain_text_article():
    import io

    text = " date 2021-03-14 PARIS • The mayor said so.\n"
    article = read_one(["-"], stdin=io.StringIO(text))
    assert (article.path, article.origin, article.text) == (None, "-", text)
    assert article.published == "2021-03-14"
    assert article.dateline is not None and article.dateline.text == "PARIS"


def test_stdin_bytes_are_decoded_by_the_file_policy():
    import io

    raw = "Le café est fermé.\r\n".encode()
    stream = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    article = read_one(["-"], stdin=stream)
    assert article.text == "Le café est fermé.\r\n"  # no newline translation
