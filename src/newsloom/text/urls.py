"""What an article's URL says about it: the outlet (from its domain) and, often, the date.

The source taken from a URL is the name part of the registrable domain, lower-cased:
``https://www.daily-courier.example/news/x`` → ``daily-courier``, ``news.bbc.co.uk`` →
``bbc``, ``edition.cnn.com`` → ``cnn``. That is the form collections use in
``publisher_YYYY-MM-DD_slug.txt`` names, so a file named ``daily-courier_…`` and a ``url:``
line on ``daily-courier.example`` land in one outlet; a display name ("The Daily Courier")
would need a list of outlets. Known limit: outlets hosted as sub-domains of a platform
(``someone.substack.com``) all get the platform's name.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from .dates import iso_date

# Generic second-level labels under two-letter country domains (bbc.co.uk, smh.com.au,
# asahi.co.jp, gov.br): the outlet's name is the label before them. General DNS practice,
# not outlet names.
SECOND_LEVEL = frozenset(
    {
        "co",
        "com",
        "org",
        "net",
        "gov",
        "ac",
        "edu",
        "ne",
        "or",
        "go",
        "gob",
        "nic",
        "ltd",
        "plc",
        "sch",
        "mil",
        "info",
        "news",
        "nom",
        "gen",
        "web",
    }
)
IP_HOST = re.compile(r"[\d.]+|.*:.*")
# /2021/03/14/ or /2021-03-14/ or /20210314/ in the path; /2021/03/ gives a month.
URL_DATE = re.compile(
    r"/((?:19|20)\d{2})(?:[/-](\d{1,2})(?:[/-](\d{1,2}))?)?(?=[/_-])"
    r"|/((?:19|20)\d{2})(\d{2})(\d{2})(?=[/_-])"
)


def source_from_url(url: str | None) -> str | None:
    """The outlet's name from ``url``'s domain (see the module docstring), or None."""
    if not url:
        return None
    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        return None
    if not host or "." not in host.strip("."):
        return None
    host = host.strip(".")
    if IP_HOST.fullmatch(host):
        return host
    labels = host.split(".")
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in SECOND_LEVEL:
        return labels[-3] or None
    return labels[-2] or None


def date_from_url(url: str | None) -> str | None:
    """The publication date a URL path encodes (``/2021/03/14/``), as ISO; None otherwise.

    A bare year (``/2021/``) is not taken: too often it is a section or an id, not a date.
    """
    if not url:
        return None
    try:
        path = urlsplit(url.strip()).path
    except ValueError:
        return None
    for m in URL_DATE.finditer(path + "/"):
        year, month, day = (
            m.group(1) or m.group(4),
            m.group(2) or m.group(5),
            m.group(3) or m.group(6),
        )
        if month is None:
            continue
        value = iso_date(int(year), int(month), int(day) if day else None)
        if value:
            return value
    return None
