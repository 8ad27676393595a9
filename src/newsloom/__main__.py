"""``python -m newsloom ...``: the same command line as ``newsloom ...``."""

from .cli import main

main()
