"""Word helpers: folding, tokens, content words, crude stems and plural folding.

Matching across outlets (quote wordings, names, timeline sentences) works on folded words:
case, accents and curly/straight apostrophes ignored. The stop-word list is general English
function words and reporting verbs, no names.
"""

from __future__ import annotations

import re
import unicodedata

_STOP_TEXT = """
a about above after again against all also am an and any are aren't as at be because been
before being below between both but by can can't cannot could couldn't did didn't do does
doesn't doing don't down during each either every few for from further had hadn't has hasn't
have haven't having he he'd he'll he's her here here's hers herself him himself his how
how's i i'd i'll i'm i've if in into is isn't it it's its itself just let's me more most
much must mustn't my myself neither no nor not now of off on once one only or other ought
our ours ourselves out over own per quite rather really said same say says she she'd she'll
she's should shouldn't so some such than that that's the their theirs them themselves then
there there's these they they'd they'll they're they've this those though through to too
told under until up upon us very was wasn't we we'd we'll we're we've were weren't what
what's when when's where where's whether which while who who's whom whose why why's will
with within without won't would wouldn't yet you you'd you'll you're you've your yours
yourself yourselves going get got gets go goes went gone ve ll re s t d m
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())

# Apostrophe look-alikes written for "'". The modifier letter apostrophe (U+02BC) is also a
# letter in some names' spelling, so name folding may keep it (see ``fold``).
_NAME_APOSTROPHES = {"’": "'", "‘": "'", "`": "'", "´": "'"}
_APOSTROPHES = str.maketrans(_NAME_APOSTROPHES | {"ʼ": "'"})
_APOSTROPHES_KEEP_MODIFIER = str.maketrans(_NAME_APOSTROPHES)
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_SUFFIXES = ("ings", "ing", "edly", "ed", "ies", "es", "s", "ly")


def fold(text: str, *, keep_modifier_apostrophe: bool = False) -> str:
    """Case-, accent- and apostrophe-insensitive form.

    ``keep_modifier_apostrophe`` leaves U+02BC (ʼ) as it is instead of reading it as "'":
    how names have always been compared (``names.word_key``).
    """
    if text.isascii():  # most news text: nothing to decompose, and 10x cheaper
        return text.replace("`", "'").lower()
    table = _APOSTROPHES_KEEP_MODIFIER if keep_modifier_apostrophe else _APOSTROPHES
    decomposed = unicodedata.normalize("NFKD", text.translate(table))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def fold_plural(word: str) -> str:
    """Plural folding, the cheap part of stemming: 'quakes' -> 'quake', 'cities' -> 'city'."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    """Folded words in order (punctuation dropped, inner apostrophes kept)."""
    return _WORD.findall(fold(text))


def stem(word: str) -> str:
    """A crude suffix strip so 'cuts'/'cutting'/'cut' compare equal often enough."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def is_content(word: str) -> bool:
    """Not a stop word, a number or a single letter."""
    return word not in STOP_WORDS and not word.isdigit() and len(word) > 1


def content_stems(tokens: list[str] | tuple[str, ...]) -> set[str]:
    """Stems of the content words among ``tokens``."""
    return {stem(w) for w in tokens if is_content(w)}
