"""Pure helpers for people's and organisations' names: normalising, titles, typos, acronyms.

Nothing here touches spaCy; the entity stage feeds token texts in. The word lists are
general English usage (honorifics, titles, common occupations, name particles), not names
taken from any corpus.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection, Sequence

from rapidfuzz.distance import OSA

from .dates import MONTH_WORDS, WEEKDAY_ABBREVIATIONS, WEEKDAYS
from .words import fold

# Honorifics are dropped from names and carry no role ("Mr. Roe" -> "Roe").
HONORIFICS = frozenset(
    {
        "mr",
        "mrs",
        "ms",
        "miss",
        "mx",
        "dr",
        "sir",
        "dame",
        "lord",
        "lady",
        "madam",
        "mme",
        "mlle",
        "herr",
        "monsieur",
        "messrs",
    }
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
    {
        "president",
        "vice-president",
        "senator",
        "congressman",
        "congresswoman",
        "congressperson",
        "governor",
        "mayor",
        "judge",
        "justice",
        "secretary",
        "chancellor",
        "minister",
        "premier",
        "king",
        "queen",
        "prince",
        "princess",
        "emperor",
        "empress",
        "duke",
        "duchess",
        "pope",
        "cardinal",
        "archbishop",
        "bishop",
        "rabbi",
        "imam",
        "pastor",
        "reverend",
        "father",
        "sister",
        "brother",
        "general",
        "admiral",
        "captain",
        "colonel",
        "major",
        "lieutenant",
        "sergeant",
        "corporal",
        "detective",
        "inspector",
        "superintendent",
        "constable",
        "sheriff",
        "coroner",
        "officer",
        "professor",
        "coach",
        "ambassador",
        "commissioner",
        "chairman",
        "chairwoman",
        "speaker",
        "councillor",
        "councilman",
        "councilwoman",
        "alderman",
        "representative",
        "delegate",
        "senator-elect",
        "president-elect",
        "governor-elect",
    }
)

# Occupations and relations that stand before a full name ("Actress Jane Roe"). Stripped only
# when at least two name words remain, because many are also first names or surnames
# ("Hunter", "Baker", "Rose").
ROLE_NOUNS = TITLES | frozenset(
    {
        "boss",
        "mp",  # member of parliament, and of the European and Scottish ones
        "mep",
        "msp",
        "actor",
        "actress",
        "singer",
        "songwriter",
        "rapper",
        "musician",
        "guitarist",
        "drummer",
        "composer",
        "conductor",
        "star",
        "superstar",
        "model",
        "supermodel",
        "producer",
        "director",
        "filmmaker",
        "screenwriter",
        "writer",
        "author",
        "novelist",
        "poet",
        "playwright",
        "journalist",
        "reporter",
        "correspondent",
        "editor",
        "columnist",
        "commentator",
        "anchor",
        "anchorman",
        "anchorwoman",
        "host",
        "presenter",
        "broadcaster",
        "comedian",
        "comic",
        "dancer",
        "artist",
        "painter",
        "sculptor",
        "photographer",
        "designer",
        "chef",
        "athlete",
        "player",
        "footballer",
        "striker",
        "forward",
        "goalkeeper",
        "keeper",
        "wicketkeeper",
        "skipper",
        "playmaker",
        "centre-back",
        "center-back",
        "full-back",
        "fullback",
        "linebacker",
        "shortstop",
        "catcher",
        "batter",
        "sprinter",
        "rookie",
        "debutant",
        "driver",
        "rider",
        "sailor",
        "miner",
        "trucker",
        "guide",
        "passenger",
        "bystander",
        "motorist",
        "pedestrian",
        "tourist",
        "visitor",
        "customer",
        "supporter",
        "protester",
        "protestor",
        "demonstrator",
        "prisoner",
        "inmate",
        "juror",
        "caregiver",
        "quarterback",
        "pitcher",
        "boxer",
        "wrestler",
        "fighter",
        "swimmer",
        "runner",
        "cyclist",
        "golfer",
        "champion",
        "manager",
        "owner",
        "founder",
        "co-founder",
        "cofounder",
        "ceo",
        "cfo",
        "coo",
        "cto",
        "chief",
        "executive",
        "chair",
        "spokesman",
        "spokeswoman",
        "spokesperson",
        "aide",
        "adviser",
        "advisor",
        "strategist",
        "consultant",
        "lobbyist",
        "pollster",
        "analyst",
        "economist",
        "scientist",
        "researcher",
        "physician",
        "surgeon",
        "doctor",
        "nurse",
        "psychologist",
        "lawyer",
        "attorney",
        "barrister",
        "solicitor",
        "prosecutor",
        "defendant",
        "plaintiff",
        "witness",
        "victim",
        "suspect",
        "survivor",
        "activist",
        "campaigner",
        "organiser",
        "organizer",
        "candidate",
        "nominee",
        "leader",
        "candidate-elect",
        "lawmaker",
        "legislator",
        "politician",
        "diplomat",
        "envoy",
        "agent",
        "spy",
        "soldier",
        "veteran",
        "pilot",
        "firefighter",
        "paramedic",
        "student",
        "teacher",
        "principal",
        "dean",
        "lecturer",
        "scholar",
        "historian",
        "entrepreneur",
        "billionaire",
        "millionaire",
        "businessman",
        "businesswoman",
        "investor",
        "banker",
        "financier",
        "magnate",
        "mogul",
        "tycoon",
        "heir",
        "heiress",
        "socialite",
        "influencer",
        "blogger",
        "vlogger",
        "youtuber",
        "podcaster",
        "celebrity",
        "personality",
        "mother",
        "father",
        "wife",
        "husband",
        "son",
        "daughter",
        "brother",
        "sister",
        "grandmother",
        "grandfather",
        "uncle",
        "aunt",
        "cousin",
        "nephew",
        "niece",
        "partner",
        "fiancé",
        "fiancée",
        "girlfriend",
        "boyfriend",
        "widow",
        "widower",
        "resident",
        "neighbour",
        "neighbor",
        "friend",
        "fan",
        # everyday occupations and standings local news puts before a name ("Pensioner
        # Doris Whitlow"); words as often surnames or firms (baker, builder) are left out
        "farmer",
        "pensioner",
        "retiree",
        "shopkeeper",
        "plumber",
        "electrician",
        "mechanic",
        "fisherman",
        "cabbie",
        "commuter",
        "homeowner",
        "landlord",
        "landlady",
        "publican",
        "shopper",
        "voter",
        "vicar",
        "priest",
        "headteacher",
        "headmaster",
        "headmistress",
        "midwife",
        "carer",
        "caretaker",
        "waiter",
        "waitress",
        "pharmacist",
        "dentist",
        "veterinarian",
        "engineer",
        "architect",
        "accountant",
        "programmer",
        "cashier",
        "receptionist",
        "postman",
        "winemaker",
        "labourer",
        "laborer",
        "worker",
        "landowner",
        "hairdresser",
        "pupil",
        "schoolgirl",
        "schoolboy",
        "referee",
        "umpire",
        "midfielder",
        "defender",
        "winger",
        "batsman",
        "jockey",
        # music, science, medicine, trades and family words seen before names in other
        # outlets ("Soprano Elena Vasquez", "Islander Morag Bell"); surnames left out again
        "soprano",
        "mezzo-soprano",
        "tenor",
        "baritone",
        "pianist",
        "violinist",
        "cellist",
        "organist",
        "saxophonist",
        "bassist",
        "vocalist",
        "frontman",
        "frontwoman",
        "curator",
        "archaeologist",
        "astronaut",
        "biologist",
        "chemist",
        "physicist",
        "geologist",
        "botanist",
        "zoologist",
        "ecologist",
        "meteorologist",
        "forecaster",
        "epidemiologist",
        "virologist",
        "paediatrician",
        "pediatrician",
        "cardiologist",
        "oncologist",
        "neurologist",
        "psychiatrist",
        "therapist",
        "counsellor",
        "counselor",
        "magistrate",
        "consul",
        "stewardess",
        "chairperson",
        "treasurer",
        "trustee",
        "shareholder",
        "villager",
        "islander",
        "stallholder",
        "trader",
        "grocer",
        "florist",
        "bartender",
        "barista",
        "janitor",
        "postwoman",
        "optician",
        "apprentice",
        "fundraiser",
        "philanthropist",
        "pundit",
        "grandson",
        "granddaughter",
        "stepfather",
        "stepmother",
        "mum",
        "dad",
    }
)

# Nouns for people that are not used as titles before a name: accepted as the head of a role
# ("Bush's one-time rival", "a local man", "a hospital patient").
PERSON_NOUNS = ROLE_NOUNS | frozenset(
    {
        "fiance",
        "fiancee",
        "youngster",
        "rival",
        "ally",
        "hopeful",
        "frontrunner",
        "front-runner",
        "contender",
        "incumbent",
        "deputy",
        "successor",
        "predecessor",
        "opponent",
        "proponent",
        "constituent",
        "client",
        "patient",
        "parent",
        "relative",
        "spouse",
        "child",
        "teen",
        "teenager",
        "boy",
        "girl",
        "man",
        "woman",
        "guy",
        "lady",
        "icon",
        "legend",
        "protege",
        "protégé",
        "colleague",
        "employee",
        "official",
        "officer",
        "staffer",
        "volunteer",
        "assistant",
        "consultant",
        "immigrant",
        "migrant",
        "servant",
        "participant",
        "applicant",
        "tenant",
        "informant",
        "claimant",
        "merchant",
        "operative",
        "advocate",
        "graduate",
        "delegate",
        "magnate",
        "member",
        "winner",
        "laureate",
        "finalist",
        "medallist",
        "medalist",
        "newcomer",
        "hero",
    }
)
# Endings of agent nouns ("pioneer", "newcomer", "mentor", "cameraman", "librarian"): a
# singular noun so ending heads a role in an apposition. Endings such as -ant, -ent, -ate,
# -ive were left out: "restaurant", "statement", "debate", "initiative" outnumber the people.
PERSON_SUFFIXES = (
    "er",
    "or",
    "ist",
    "ian",
    "man",
    "woman",
    "person",
    "ee",
    "eer",
    "ier",
    "surgeon",
)
MIN_SUFFIX_NOUN_LEN = 5  # "her", "door", "list" are not agent nouns
MIN_NATIONALITY_NOUN_LEN = 7  # "Dutchman"; not "Roman", "Truman" (no article before those)

# Lower-case words that belong inside a person's name ("Ludwig van Beethoven").
NAME_PARTICLES = frozenset(
    {
        "de",
        "da",
        "di",
        "del",
        "della",
        "der",
        "den",
        "van",
        "von",
        "le",
        "la",
        "du",
        "bin",
        "ibn",
        "al",
        "el",
        "dos",
        "das",
        "y",
        "ter",
        "ten",
        "af",
        "zu",
    }
)

# Generational suffixes: part of the name, never its surname.
# Generational suffixes, and the letters after a name that are no part of it ("James
# Whitcombe KC", "Jane Roe MP", "Tom Hale OBE"): "Mr Whitcombe" is the same person.
NAME_SUFFIXES = frozenset(
    {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "v"}
    | {"kc", "qc", "mp", "msp", "mla", "obe", "mbe", "cbe", "kbe", "dbe"}
)

# Words skipped when forming an acronym from a long form ("Bureau of Investigation" -> BI).
ACRONYM_STOPWORDS = frozenset(
    {
        "of",
        "the",
        "and",
        "for",
        "on",
        "in",
        "at",
        "to",
        "a",
        "an",
        "&",
        "de",
        "du",
        "des",
        "la",
        "le",
    }
)

# Calendar words are no names ("May", "Sept.", "Tues").
CALENDAR_WORDS = frozenset(MONTH_WORDS) | frozenset(WEEKDAYS) | frozenset(WEEKDAY_ABBREVIATIONS)

# Typos: a swap of two neighbouring letters ("Jonh"/"John", "Smtih"/"Smith") is merged in words
# of at least MIN_SWAP_TYPO_LEN letters; any other single edit (a letter dropped, added or
# replaced) only in words of at least MIN_EDIT_TYPO_LEN letters, because short names one
# letter apart are usually different names (Mark/Mary, Dana/Dina, Jean/Joan, Carla/Carly).
# Calibrated on invented pairs: Jonh/John, Smtih/Smith, Jonathon/Jonathan, Michale/Michael
# merge; Mark/Mary, Ann/Anne, Carla/Carly, Jane/John don't.
MIN_SWAP_TYPO_LEN = 4
MIN_EDIT_TYPO_LEN = 6
# One edit (insert, delete, substitute or swap two neighbours) separates a typo from the name.
MAX_TYPO_EDITS = 1

_POSSESSIVE = re.compile(r"(?:'s|')$")


# Last words of place names ("Mill Lane", "Harbor City", "Eastfield Valley"); general
# English. Words that are also common surnames (Hill, Park, Wood, Bay, Brook) are left out.
PLACE_SUFFIXES = frozenset(
    {
        "street",
        "st",
        "road",
        "rd",
        "avenue",
        "ave",
        "lane",
        "boulevard",
        "blvd",
        "drive",
        "terrace",
        "crescent",
        "square",
        "highway",
        "parkway",
        "valley",
        "ferry",
        "port",
        "harbor",
        "harbour",
        "river",
        "creek",
        "bridge",
        "island",
        "islands",
        "county",
        "township",
        "village",
        "city",
        "heights",
        "springs",
        "falls",
        "canyon",
        "peninsula",
    }
)
# First words of place names ("Port Alder", "Fort Worth", "Mount Hood", "Lake Tahoe").
PLACE_PREFIXES = frozenset({"port", "fort", "mount", "mt", "lake", "cape"})
# Prepositions that put a bare name on the map ("in Millbrook", "near Leeds").
PLACE_PREPOSITIONS = frozenset({"in", "at", "near", "from", "outside", "across", "around"})
# Endings of abstract nouns ("Kindness", "Education", "Equality"): a sentence-initial word so
# ending is no name. At least MIN_ABSTRACT_LEN letters ("Ness", "Amity" stay names).
ABSTRACT_SUFFIXES = ("ness", "tion", "sion", "ment", "ity", "ism", "ship", "hood")
MIN_ABSTRACT_LEN = 7


def fold_name(text: str) -> str:
    """``words.fold`` as names and roles are compared: U+02BC (ʼ) is kept, a letter in some
    names' spelling."""
    return fold(text, keep_modifier_apostrophe=True)


def word_key(word: str) -> str:
    """A name word as compared: folded, possessive and dots removed."""
    return _POSSESSIVE.sub("", fold_name(word)).replace(".", "")


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
    return fold_name(word) in ROLE_NOUNS


def is_person_noun(word: str, by_ending: bool = True) -> bool:
    """A common noun that denotes a person ("lawyer", "rival", and with ``by_ending``
    "newcomer": capitalised words ending so are mostly surnames, "Schumer", "Taylor")."""
    key = fold_name(word)
    if key in PERSON_NOUNS:
        return True
    return (
        by_ending
        and len(key) >= MIN_SUFFIX_NOUN_LEN
        and key.isalpha()
        and key.endswith(PERSON_SUFFIXES)
    )


def is_nationality_noun(word: str) -> bool:
    """'Frenchman', 'Englishwoman', 'Dutchman': one person by nation or region, written with a
    capital (the model tags it as a name). The word alone cannot tell it from a surname
    ("Goldman"); callers also ask for an article before it ("the Frenchman")."""
    return (
        len(word) >= MIN_NATIONALITY_NOUN_LEN
        and word.isalpha()
        and word[:1].isupper()
        and word[1:].islower()
        and word.endswith(("man", "woman"))
    )


def is_title(word: str) -> bool:
    return fold_name(word) in TITLES or title_role(word) is not None


def is_calendar_word(word: str) -> bool:
    return word_key(word) in CALENDAR_WORDS


def surname(parts: Sequence[str]) -> str:
    """The last word of a name that is not a generational suffix."""
    for part in reversed(parts):
        if part not in NAME_SUFFIXES:
            return part
    return parts[-1]


def is_typo(a: str, b: str) -> bool:
    """True when two (folded) name words differ by one slip of the keyboard."""
    if a == b or a[:1] != b[:1] or min(len(a), len(b)) < MIN_SWAP_TYPO_LEN:
        return False
    if OSA.distance(a, b, score_cutoff=MAX_TYPO_EDITS) > MAX_TYPO_EDITS:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 2 and diff[1] == diff[0] + 1:  # two neighbours swapped
            return True
    return min(len(a), len(b)) >= MIN_EDIT_TYPO_LEN


def same_word(a: str, b: str) -> bool:
    return a == b or is_typo(a, b)


def looks_like_acronym(text: str) -> bool:
    """'WHO', 'U.S.', 'NYPD': 2-6 capitals, optionally dotted."""
    letters = text.replace(".", "")
    return 2 <= len(letters) <= 6 and letters.isalpha() and letters.isupper()


def initials(words: Sequence[str]) -> str:
    """Initials of the content words of a long form ('World Health Organization' -> 'WHO')."""
    out = []
    for word in words:
        for piece in re.split(r"[-\s]+", word):
            if piece and fold_name(piece) not in ACRONYM_STOPWORDS and piece[0].isalpha():
                out.append(piece[0].upper())
    return "".join(out)


def acronym_of(acronym: str, words: Sequence[str]) -> bool:
    """True when ``acronym`` abbreviates the multi-word name ``words``."""
    letters = acronym.replace(".", "").upper()
    return len(words) >= 2 and looks_like_acronym(acronym) and initials(words) == letters


def core_parts(parts: Sequence[str]) -> tuple[str, ...]:
    """Name words that tell people apart: no particles or generational suffixes."""
    return tuple(p for p in parts if p not in NAME_PARTICLES and p not in NAME_SUFFIXES)


def is_full_name(parts: Sequence[str]) -> bool:
    """A first name and a surname at least ("Jane Roe", not "Roe" or "van Beethoven")."""
    return len(core_parts(parts)) >= 2 and parts[0] not in NAME_PARTICLES


def same_person(a: Sequence[str], b: Sequence[str]) -> bool:
    """Two full names (core parts) of one person: same first name and surname (a typo
    allowed), the shorter's words all in the longer ("John Smith" / "John F. Smith")."""
    short, long = sorted((a, b), key=len)
    if not (same_word(short[0], long[0]) and same_word(short[-1], long[-1])):
        return False
    it = iter(long)
    return all(any(same_word(part, other) for other in it) for part in short)


def compound_surname(short: Sequence[str], long: Sequence[str]) -> bool:
    """Whether ``short`` (two words or more) is the last words of the longer full name
    ``long`` with its first name left off: a surname of several words said alone."""
    n = len(short)
    return 2 <= n < len(long) and all(
        same_word(a, b) for a, b in zip(short, long[-n:], strict=True)
    )


def resolve_people(
    forms: Sequence[Sequence[str]],
    weak: Sequence[bool] = (),
    titles: Sequence[str | None] = (),
) -> list[int | None]:
    """Which person each name form (word keys, in text order) refers to, as a cluster index.

    Full names cluster when ``same_person``, or when one is the other's surname of several
    words said alone (``compound_surname``). A single word ("Roe", "Jane") joins the person
    whose surname, else first name, it is (exactly, else by a typo); when several people
    share it, the one whose full name was mentioned most recently before it, else the first
    mentioned after it. An unmatched single word is a person of its own unless it is ``weak``
    ("the Roe family"), which never makes a person and gets None.

    ``titles``: the gender each form shows ("m" for Mr or "her husband, Tom Roe", "f" for
    Mrs), or None. A person whose gender is known (from a full name's title or apposition, or
    a titled surname only they could be) never takes a form titled the other way ("Her
    husband, Tom Roe … Mr Roe … Mrs Roe": Mrs Roe is Jo). A pick between several people
    teaches no gender.
    """
    weak = list(weak) or [False] * len(forms)
    titles = list(titles) or [None] * len(forms)
    gender: dict[int, str] = {}  # of each person, as their titles give it
    cores = [core_parts(f) for f in forms]
    full: list[list[tuple[str, ...]]] = []  # the full names of each person
    seen_at: list[list[int]] = []  # where each person's full names are, in text order
    out: list[int | None] = [None] * len(forms)
    for i, (form, core) in enumerate(zip(forms, cores, strict=True)):
        if not is_full_name(form):
            continue
        matches = [c for c, names in enumerate(full) if any(same_person(core, n) for n in names)]
        if not matches:
            # "da Silva Moreira" after "Luiz da Silva Moreira", "Ní Bhriain" after "Siobhan
            # Ní Bhriain": a surname of two words is repeated without the first name.
            matches = [
                c for c, names in enumerate(full) if any(compound_surname(core, n) for n in names)
            ]
        if matches:
            cluster = max(matches, key=lambda c: seen_at[c][-1])
        else:
            cluster = len(full)
            full.append([])
            seen_at.append([])
        if core not in full[cluster]:  # each distinct name once: a long text repeats them
            full[cluster].append(core)
        seen_at[cluster].append(i)
        out[i] = cluster
        title = titles[i]
        if title is not None:
            gender.setdefault(cluster, title)
    singles: dict[str, int] = {}  # the person each single word alone last made
    fresh = len(full)  # the next such person's index
    for i, (form, core) in enumerate(zip(forms, cores, strict=True)):
        if out[i] is not None or not (core or form):
            continue
        word, title = (core or tuple(form))[-1], titles[i]
        other = [c for c, g in gender.items() if title is not None and g != title]
        same = [c for c, g in gender.items() if title is not None and g == title]
        picked, sure = _pick_person(i, word, full, seen_at, other, same)
        if picked is None and not weak[i]:
            picked, sure = singles.get(word), True
            if picked is None or (title is not None and gender.get(picked, title) != title):
                # (a word alone titled both ways is two people: "Mr Roe" and "Mrs Roe")
                picked = singles[word] = fresh
                fresh += 1
        if picked is not None and title is not None and sure:
            # (only a sure pick tells a person's gender: a guess between two Roes may be
            # wrong, and would send the other title to the wrong one too)
            gender.setdefault(picked, title)
        out[i] = picked
    return out


def _pick_person(
    at: int,
    word: str,
    full: list[list[tuple[str, ...]]],
    seen_at: list[list[int]],
    excluded: Collection[int] = (),
    preferred: Collection[int] = (),
) -> tuple[int | None, bool]:
    """The person a single ``word`` at form ``at`` names, never one ``excluded``; among
    several, one ``preferred`` (a title's gender they are known by), then the one mentioned
    last before it, else first after it. And whether the pick was sure: the only candidate,
    or the only one preferred."""
    tests = (
        lambda n: n[-1] == word,  # surname
        lambda n: n[0] == word,  # first name
        lambda n: is_typo(n[-1], word),
        lambda n: is_typo(n[0], word),
    )
    for test in tests:
        candidates = [
            c for c, names in enumerate(full) if c not in excluded and any(test(n) for n in names)
        ]
        if not candidates:
            continue
        candidates = [c for c in candidates if c in preferred] or candidates
        sure = len(candidates) == 1
        # seen_at lists are in text order: the last mention before ``at`` by bisection.
        before = [
            (seen_at[c][bisect.bisect_left(seen_at[c], at) - 1], c)
            for c in candidates
            if seen_at[c][0] < at
        ]
        if before:
            return max(before)[1], sure
        return min((seen_at[c][0], c) for c in candidates)[1], sure
    return None, False
