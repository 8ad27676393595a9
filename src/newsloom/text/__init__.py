"""Leaf helpers every layer shares: folding and word lists, names, partial dates and calendar
words, union-find, outlet names, character ranges, units, URLs and datelines.

Nothing here imports the rest of newsloom (stdlib and third-party only), so ingest, analyze,
stories and render can all use it without reaching into each other.
"""
