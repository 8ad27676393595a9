"""Token-by-token check: newsloom's pipeline gives the stock model's attributes on every token.

    .venv/bin/python bench/check_token_attributes.py [FOLDER ...] [--limit N]

Parses every ``*.txt`` under each FOLDER (default: PolNeAR dev and ECB+ dev in
../shared/data) with the stock model (``spacy.load``, all components) and with ``load_nlp``
(``TokenAttributes`` in place of the attribute ruler and lemmatizer), and compares TAG, POS,
MORPH, LEMMA, DEP, HEAD and the entities of every token. Prints the token count, the
differences (at most 20 shown) and the CPU time of each parse. Exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "data"
DEFAULT = (DATA / "polnear" / "dev" / "text", DATA / "ecbplus" / "dev" / "texts")
ATTRS = ("TAG", "POS", "MORPH", "LEMMA", "DEP", "HEAD", "ENT_IOB", "ENT_TYPE")
SHOWN = 20


def main() -> None:
    import spacy

    from newsloom.nlp import add_paragraph_starts, load_nlp, pick_model

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", type=Path, default=list(DEFAULT))
    ap.add_argument("--limit", type=int, default=0, help="at most N texts per folder")
    args = ap.parse_args()
    texts = []
    for folder in args.folders:
        files = sorted(folder.rglob("*.txt"))
        texts += [f.read_text(encoding="utf-8") for f in files[: args.limit or None]]
    stock = spacy.load(pick_model())
    add_paragraph_starts(stock)  # the same parse: only the ruler and lemmatizer differ
    fast = load_nlp()
    print(f"stock: {stock.pipe_names}\nnewsloom: {fast.pipe_names}")
    t0 = time.process_time()
    want = [d.to_array(list(ATTRS)) for d in stock.pipe(texts, batch_size=32)]
    t1 = time.process_time()
    got = [d.to_array(list(ATTRS)) for d in fast.pipe(texts, batch_size=32)]
    t2 = time.process_time()
    tokens = sum(len(a) for a in want)
    diffs = []
    for n, (a, b) in enumerate(zip(want, got, strict=True)):
        if a.shape != b.shape:
            diffs.append(f"text {n}: {len(a)} tokens against {len(b)}")
            continue
        for i, j in zip(*(a != b).nonzero(), strict=True):
            s = stock.vocab.strings
            diffs.append(
                f"text {n} token {i} {ATTRS[j]}: {s[int(a[i, j])]!r} != {s[int(b[i, j])]!r}"
                if ATTRS[j] in ("TAG", "MORPH", "LEMMA", "DEP")
                else f"text {n} token {i} {ATTRS[j]}: {a[i, j]} != {b[i, j]}"
            )
    print(f"{len(texts)} texts, {tokens} tokens, {len(ATTRS)} attributes each")
    print(f"CPU: stock {t1 - t0:.2f} s, newsloom {t2 - t1:.2f} s ({(t1 - t0) / (t2 - t1):.2f}x)")
    print(f"differences: {len(diffs)}")
    for line in diffs[:SHOWN]:
        print("  " + line)
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
