"""Pure helpers for people's and organisations' names: normalising, titles, typos, acronyms.

Nothing here touches spaCy; the entity stage feeds token texts in. The word lists are
general English usage (honorifics, titles, common occupations, name particles), not names
taken from any corpus.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from rapidfuzz.distance import OSA

# Honorifics are dropped from names and carry no role ("Mr. Roe" -> "Roe").
HONORIFICS = frozenset(
    "mr mrs ms miss mx dr sir dame lord lady madam mme mlle herr monsieur messrs".split()
)

# Abbreviated titles written before a name; expanded when kept as a role ("Sen." -> "senator").
TITLE_ABBREVIATIONS = {
    "sen": "senator",
    "rep": "representative",
    "gov": "governor",
    "lt": "lieutenant",
    "gen": "general",
    "col": "colonel",
    "capt": "captain",
    "cpt": "captain",
    "sgt": "sergeant",
    "cpl": "corporal",
    "maj": "major",
    "adm": "admiral",
    "cmdr": "commander",
    "det": "detective",
    "insp": "inspector",
    "supt": "superintendent",
    "pres": "president",
    "prof": "professor",
    "rev": "reverend",
    "fr": "father",
    "sr": "sister",
    "atty": "attorney",
    "amb": "ambassador",
    "sec": "secretary",
    "pvt": "private",
    "cllr": "councillor",
}

# Titles used directly before a surname ("President Roe", "Judge Doe"): stripped from the
# name and kept as a role even when only one name word follows.
TITLES = frozenset(
    """president vice-president senator congressman congresswoman congressperson governor
    mayor judge justice secretary chancellor minister premier king queen prince princess
    emperor empress duke duchess pope cardinal archbishop bishop rabbi imam pastor reverend
    father sister brother general admiral captain colonel major lieutenant sergeant corporal
    detective inspector superintendent constable sheriff officer professor coach ambassador
    commissioner chairman chairwoman speaker councillor councilman councilwoman alderman
    representative delegate senator-elect president-elect governor-elect""".split()
)

# Occupations and relations that stand before a full name ("Actress Jane Roe"). Stripped only
# when at least two name words remain, because many are also first names or surnames
# ("Hunter", "Baker", "Rose").
ROLE_NOUNS = TITLES | frozenset(
    """actor actress singer songwriter rapper musician guitarist drummer composer conductor
    star superstar model supermodel producer director filmmaker screenwriter writer author
    novelist poet playwright journalist reporter correspondent editor columnist commentator
    anchor anchorman anchorwoman host presenter broadcaster comedian comic dancer artist
    painter sculptor photographer designer chef athlete player footballer striker goalkeeper
    quarterback pitcher boxer wrestler fighter swimmer runner cyclist golfer champion
    manager owner founder co-founder cofounder ceo cfo coo cto chief executive chair
    spokesman spokeswoman spokesperson aide adviser advisor strategist consultant lobbyist
    pollster analyst economist scientist researcher physician surgeon doctor nurse
    psychologist lawyer attorney barrister solicitor prosecutor defendant plaintiff witness
    victim suspect survivor activist campaigner organiser organizer candidate nominee leader
    candidate-elect lawmaker legislator politician diplomat envoy agent spy soldier veteran
    pilot firefighter paramedic student teacher principal dean lecturer scholar historian
    entrepreneur billionaire millionaire businessman businesswoman investor banker
    financier magnate mogul tycoon heir heiress socialite influencer blogger vlogger
    youtuber podcaster celebrity personality mother father wife husband son daughter
    brother sister grandmother grandfather uncle aunt cousin nephew niece partner fiancé
    fiancée girlfriend boyfriend widow widower resident neighbour neighbor friend fan""".split()
)

# Lower-case words that belong inside a person's name ("Ludwig van Beethoven").
NAME_PARTICLES = frozenset(
    "de da di del della der den van von le la du bin ibn al el dos das y ter ten af zu".split()
)

# Generational suffixes: part of the name, never its surname.
NAME_SUFFIXES = frozenset("jr jr. sr sr. ii iii iv v".split())

# Words skipped when forming an acronym from a long form ("Bureau of Investigation" -> BI).
ACRONYM_STOPWORDS = frozenset("of the and for on in at to a an & de du des la le".split())

MONTHS = frozenset(
    """january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec""".split()
)
WEEKDAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thurs fri sat sun".split()
)

# Typos are merged only between words this long: shorter names differ by one letter too often
# (Ann/Anne, Jon/Joan). Calibrated on invented pairs: Jonh/John, Smtih/Smith merge; Ann/Anna don't.
MIN_TYPO_LEN = 4
# One edit (insert, delete, substitute or swap two neighbours) separates a typo from the name.
MAX_TYPO_EDITS = 1

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'"})
_POSSESSIVE = re.compile(r"(?:'s|')$")


def fold(text: str) -> str:
    """Case-, accent- and apostrophe-insensitive form used to compare names."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_APOSTROPHES))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.casefold()


def word_key(word: str) -> str:
    """A name word as compared: folded, possessive and dots removed."""
    return _POSSESSIVE.sub("", fold(word)).replace(".", "")


def is_honorific(word: str) -> bool:
    return word_key(word) in HONORIFICS


def title_role(word: str) -> str | None:
    """The role a title word stands for ("Sen." -> "senator"), or None."""
    key = word_key(word)
    if word.endswith(".") and key in TITLE_ABBREVIATIONS:
        return TITLE_ABBREVIATIONS[key]
    if key in TITLE_ABBREVIATIONS and key not in {"sr", "fr", "sec", "det", "maj"}:
        # Unambiguous abbreviations also appear without the dot ("Sen Roe").
        return TITLE_ABBREVIATIONS[key]
    return None


def is_role_noun(word: str) -> bool:
    return fold(word) in ROLE_NOUNS


def is_title(word: str) -> bool:
    return fold(word) in TITLES or title_role(word) is not None


def is_calendar_word(word: str) -> bool:
    return word_key(word) in MONTHS or word_key(word) in WEEKDAYS


def surname(parts: Sequence[str]) -> str:
    """The last word of a name that is not a generational suffix."""
    for part in reversed(parts):
        if part not in NAME_SUFFIXES:
            return part
    return parts[-1]


def is_typo(a: str, b: str) -> bool:
    """True when two (folded) name words differ by one slip of the keyboard."""
    if a == b or min(len(a), len(b)) < MIN_TYPO_LEN or a[0] != b[0]:
        return False
    return OSA.distance(a, b, score_cutoff=MAX_TYPO_EDITS) <= MAX_TYPO_EDITS


def is_subsequence(short: Sequence[str], long: Sequence[str]) -> bool:
    it = iter(long)
    return all(any(part == other for other in it) for part in short)


def looks_like_acronym(text: str) -> bool:
    """'WHO', 'U.S.', 'NYPD': 2-6 capitals, optionally dotted."""
    letters = text.replace(".", "")
    return 2 <= len(letters) <= 6 and letters.isalpha() and letters.isupper()


def initials(words: Sequence[str]) -> str:
    """Initials of the content words of a long form ('World Health Organization' -> 'WHO')."""
    out = []
    for word in words:
        for piece in re.split(r"[-\s]+", word):
            if piece and fold(piece) not in ACRONYM_STOPWORDS and piece[0].isalpha():
                out.append(piece[0].upper())
    return "".join(out)


def acronym_of(acronym: str, words: Sequence[str]) -> bool:
    """True when ``acronym`` abbreviates the multi-word name ``words``."""
    letters = acronym.replace(".", "").upper()
    return len(words) >= 2 and looks_like_acronym(acronym) and initials(words) == letters
