"""CPU time of the whole `newsloom analyze` path with the stock model against the model with
``TokenAttributes``, alternating in one process so that other jobs on the machine weigh on
both alike.

    .venv/bin/python bench/ab_token_attributes.py [--articles 200] [--rounds 2]

Analyses every third ECB+ dev article (../shared/data/ecbplus/dev/texts, at most
``--articles``) into a new SQLite store, ``--rounds`` times each way, and prints the CPU
seconds of each run and the totals. Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEXTS = HERE.parent.parent / "shared" / "data" / "ecbplus" / "dev" / "texts"


def main() -> None:
    import spacy

    import newsloom.nlp as nlp_module
    from newsloom import api
    from newsloom.config import Settings

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="newsloom-bench-") as tmpdir:
        tmp = Path(tmpdir)
        corpus = tmp / "corpus"
        corpus.mkdir()
        for f in sorted(TEXTS.glob("*.txt"))[::3][: args.articles]:
            shutil.copy(f, corpus / f.name)
        stock = spacy.load(nlp_module.pick_model())
        stock.max_length = nlp_module.SPACY_MAX_LENGTH
        nlp_module.add_paragraph_starts(stock)  # the same parse: only the ruler differs
        models = {"stock model": stock, "TokenAttributes": nlp_module.load_nlp()}
        spent: dict[str, float] = {name: 0.0 for name in models}
        for run in range(args.rounds):
            for name, model in models.items():
                # analyze_articles asks load_nlp for the model: hand it this one.
                nlp_module._load = lambda _name, model=model: model  # type: ignore[misc]
                out = tmp / f"{run}-{len(spent)}-{name[:5]}"
                out.mkdir()
                start = time.process_time()
                api.analyze([str(corpus)], out / "o.json", Settings(db_url=f"sqlite:///{out}/s.db"))
                secs = time.process_time() - start
                spent[name] += secs
                print(f"round {run + 1}, {name:16s} {secs:6.2f} s CPU", flush=True)
        for name, secs in spent.items():
            print(f"total, {name:16s} {secs:6.2f} s CPU")
        print(f"saved: {1 - spent['TokenAttributes'] / spent['stock model']:.1%} of the run")


if __name__ == "__main__":
    main()
