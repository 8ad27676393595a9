"""Name keys: the stable URL form of a speaker's, a person's or an outlet's name.

A key is the name folded (case, accents, apostrophes: ``names.fold_name``) with every run of
other characters made one hyphen: "José Álvarez" and "jose alvarez" are ``jose-alvarez``. An
outlet's key starts from its outlet key (``outlets.outlet_key``), so "The Daily Courier" and
"Daily Courier" share ``daily-courier``. Keys are at most MAX_KEY_CHARS long.
"""

from __future__ import annotations

import re

from .names import fold_name
from .outlets import outlet_key

# Longer names are cut here: a key is a URL path part and a column value (String(120)).
MAX_KEY_CHARS = 120
_OTHER = re.compile(r"[\W_]+")
# What a key is made of, for routes that refuse anything else without a look-up.
KEY_PATTERN = re.compile(r"[^\W_]+(?:-[^\W_]+)*")


def name_key(name: str) -> str:
    """The key of a speaker's or a person's name ('' for a name without letters or digits)."""
    return _OTHER.sub("-", fold_name(name)).strip("-")[:MAX_KEY_CHARS].strip("-")


def outlet_name_key(outlet: str) -> str:
    """The key of an outlet by its shown name (``Article.outlet``)."""
    return name_key(outlet_key(outlet, ""))


def is_key(value: str) -> bool:
    """Whether ``value`` can be a key (else a route answers 404 without reading the store)."""
    return 0 < len(value) <= MAX_KEY_CHARS and KEY_PATTERN.fullmatch(value) is not None
