"""Bytes to text: size limit, binary sniffing and the encoding decision for every reader.

Policy (what an experienced user expects from a tool whose offsets are checked against files):

- UTF-8 is the reference. A UTF-8 file is decoded strictly with no newline translation and
  nothing stripped (a BOM stays as ``\\ufeff`` at offset 0), so ``Article.path`` is set and
  offsets can be checked against the file itself.
- A file with a UTF-16/UTF-32 byte-order mark is unambiguous: it is decoded, ``path`` is left
  empty (offsets are into the decoded ``Article.text``, not the file's bytes) and a warning
  says how to convert it.
- Other non-UTF-8 bytes are read as cp1252 (the Windows superset of latin-1 that most
  "ANSI" exports use) **only when the result looks like Western text**: few bytes above
  0x7f, no control characters. Such an article also gets ``path=None`` and a warning.
  Anything else (random bytes, Shift-JIS, GBK, …) is skipped with a reason that names the
  bad byte and the ``iconv`` command to convert the file. Guessing further would silently
  produce mojibake, which is worse than a clear skip.
- NUL bytes (anywhere in the file, not only at its start), control characters or the magic
  numbers of common binary formats mean a binary file: skipped with a reason. A NUL never
  reaches an article's text (PostgreSQL cannot store one, and no prose holds one).
- The one text that is full of NULs is UTF-16 without a byte-order mark (ASCII letters put a
  NUL in every other byte). It is recognised and skipped with the ``iconv`` command that
  converts it, rather than called binary: without the mark its byte order is a guess.
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass, field

from ..errors import InputError
from ..models import SkipCode

# cp1252 is accepted only for text that looks Western: accented letters and curly quotes
# are single high bytes between ASCII letters. In French/German/Spanish prose 1-5% of bytes
# are such letters, nearly all isolated; a short accent-heavy line ("Le café fermé à Paris")
# reaches ~12%. Random bytes are 50% high with 25% of them isolated (by construction);
# double-byte encodings (Shift-JIS, GBK) and Cyrillic/Greek code pages put high bytes in
# runs, so their isolated share is near 0.
MAX_HIGH_BYTE_SHARE = 0.30
MIN_ISOLATED_SHARE = 0.5
HIGH_BYTE = re.compile(rb"[\x80-\xff]")
ISOLATED_HIGH_BYTE = re.compile(rb"(?<![\x80-\xff])[\x80-\xff](?![\x80-\xff])")
# Text files have tabs and newlines but essentially no other control characters; a few
# stray ones (a form feed, an ESC from a terminal capture) are tolerated, more is binary.
MAX_CONTROL_SHARE = 0.01
# Unicode category Cc minus tab, newline, vertical tab, form feed and carriage return.
CONTROL = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")

# UTF-16 without a byte-order mark: an ASCII character is a letter byte and a NUL, so NULs
# sit on one parity only. English/Western prose is > 90% ASCII, so its NULs fill ~90% of the
# byte pairs on one side; text in a non-Latin script still has spaces, digits and punctuation
# on most lines (>= 15%). Random or binary data puts its NULs on both parities alike, so the
# other parity must be all but free of them.
UTF16_MIN_NUL_SHARE = 0.15
UTF16_MAX_OTHER_NUL_SHARE = 0.01
# Bytes the cheap sniff looks at (magic numbers, UTF-16); NUL bytes are looked for everywhere.
SNIFF_BYTES = 8192

# Magic numbers of files people drop into article folders by mistake, for a clearer reason.
MAGIC = (
    (b"%PDF", "a PDF"),
    (b"PK\x03\x04", "a zip archive (or .docx/.xlsx)"),
    (b"\x1f\x8b", "a gzip archive; decompress it first"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"\xd0\xcf\x11\xe0", "an old Office document"),
)

BOMS = (  # longest first: the UTF-32 LE mark starts with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


@dataclass
class Decoded:
    text: str
    exact: bool  # True when text is the file decoded as UTF-8, so offsets hold in the file
    warnings: list[str] = field(default_factory=list)


def _megabytes(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB"


def read_bytes(path: str, max_bytes: int) -> bytes:
    """The file's bytes; the size is checked before reading so a huge file is never loaded."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise InputError(path, f"cannot read ({exc.strerror or exc}); check the path") from exc
    if os.path.isdir(path):
        raise InputError(path, "is a folder")
    if info.st_size > max_bytes:
        raise InputError(
            path,
            f"file too large ({_megabytes(info.st_size)}, limit {_megabytes(max_bytes)}); "
            "split it, or raise max_file_bytes (NEWSLOOM_MAX_FILE_BYTES) "
            "if it really is one article",
            SkipCode.TOO_LARGE,
        )
    try:
        with open(path, "rb") as fh:
            # Sized by stat (read(n) allocates n bytes up front), and bounded: a file that grew
            # since stat still cannot flood memory.
            data = fh.read(min(info.st_size, max_bytes) + 1)
            if len(data) > info.st_size and len(data) <= max_bytes:
                data += fh.read(max_bytes + 1 - len(data))
    except OSError as exc:
        raise InputError(path, f"cannot read ({exc.strerror or exc})") from exc
    if len(data) > max_bytes:
        raise InputError(path, f"file too large (over {_megabytes(max_bytes)})", SkipCode.TOO_LARGE)
    return data


def _control_share(text: str) -> float:
    if not text:
        return 0.0
    return sum(1 for _ in CONTROL.finditer(text)) / len(text)


def _looks_western(data: bytes) -> bool:
    high = sum(1 for _ in HIGH_BYTE.finditer(data))
    isolated = sum(1 for _ in ISOLATED_HIGH_BYTE.finditer(data))
    return high <= MAX_HIGH_BYTE_SHARE * len(data) and isolated >= MIN_ISOLATED_SHARE * high


def _utf16_without_bom(head: bytes) -> str | None:
    """``utf-16le``/``utf-16be`` when ``head`` reads as UTF-16 text without a byte-order mark."""
    pairs = len(head) // 2
    if pairs < 2:
        return None
    even, odd = head[0 : 2 * pairs : 2].count(0), head[1 : 2 * pairs : 2].count(0)
    for name, nuls, other in (("utf-16le", odd, even), ("utf-16be", even, odd)):
        if nuls >= UTF16_MIN_NUL_SHARE * pairs and other <= UTF16_MAX_OTHER_NUL_SHARE * pairs:
            text = head[: 2 * pairs].decode(name.replace("utf-16", "utf-16-"), errors="replace")
            return name if _control_share(text) <= MAX_CONTROL_SHARE else None
    return None


def refuse_binary(origin: str, data: bytes) -> None:
    """Raise InputError when ``data`` is not text: a known binary format or NUL bytes (the
    reason says UTF-16 when the NULs are those of UTF-16 without a byte-order mark).

    Magic numbers and UTF-16 are sniffed in the first 8 KB; NUL bytes are looked for in all of
    ``data`` (a memchr scan). A file with a UTF-16/UTF-32 byte-order mark is left to decode().
    """
    head = data[:SNIFF_BYTES]
    for magic, what in MAGIC:
        if head.startswith(magic):
            raise InputError(
                origin,
                f"binary file ({what}); newsloom reads plain text, JSONL and HTML",
                SkipCode.BINARY,
            )
    if head.startswith(tuple(b for b, _ in BOMS)):
        return
    nul = data.find(b"\x00")
    if nul == -1:
        return
    utf16 = _utf16_without_bom(head)
    if utf16:
        raise InputError(
            origin,
            f"UTF-16 without a byte-order mark; convert it with iconv -f {utf16} -t utf-8",
            SkipCode.ENCODING,
        )
    raise InputError(
        origin,
        f"binary file (NUL bytes); the first is at byte {nul}; "
        "newsloom reads plain text, JSONL and HTML",
        SkipCode.BINARY,
    )


def decode(origin: str, data: bytes) -> Decoded:
    """``data`` as text by the policy in the module docstring; raises InputError otherwise."""
    refuse_binary(origin, data)
    for bom, encoding in BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError as exc:
                raise InputError(
                    origin, f"not valid {encoding.upper()} ({exc.reason})", SkipCode.ENCODING
                ) from exc
            warning = (
                f"file is {encoding.upper()} (byte-order mark); offsets refer to the decoded "
                f"text, not the file; convert it with iconv -f {encoding} -t utf-8"
            )
            return _checked(origin, Decoded(text, exact=False, warnings=[warning]))
    try:
        return _checked(origin, Decoded(data.decode("utf-8"), exact=True))
    except UnicodeDecodeError as exc:
        bad = f"invalid byte 0x{data[exc.start]:02x} at offset {exc.start}"
    if _looks_western(data):
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            text = ""
        if text and _control_share(text) <= MAX_CONTROL_SHARE:
            warning = (
                f"not UTF-8 ({bad}); read as cp1252, so offsets refer to the decoded text, not "
                "the file; convert it with iconv -f cp1252 -t utf-8"
            )
            return _checked(origin, Decoded(text, exact=False, warnings=[warning]))
    raise InputError(
        origin,
        f"not UTF-8 ({bad}); convert it, e.g. iconv -f latin1 -t utf-8 "
        "(use the file's real encoding)",
        SkipCode.ENCODING,
    )


def _checked(origin: str, decoded: Decoded) -> Decoded:
    if not decoded.text.strip().strip("\ufeff").strip():
        kind = "empty file" if not decoded.text else "only whitespace"
        raise InputError(origin, f"{kind}; nothing to read", SkipCode.EMPTY)
    nul = decoded.text.find("\x00")
    if nul != -1:  # decoded from UTF-16/UTF-32 with a byte-order mark (refuse_binary saw bytes)
        raise InputError(
            origin,
            f"binary file (NUL characters); the first is at character {nul}; "
            "newsloom reads plain text, JSONL and HTML",
            SkipCode.BINARY,
        )
    if _control_share(decoded.text) > MAX_CONTROL_SHARE:
        raise InputError(
            origin,
            "binary file (control characters); newsloom reads plain text, JSONL and HTML",
            SkipCode.BINARY,
        )
    return decoded
