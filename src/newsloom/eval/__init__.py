"""Scorers and dataset readers for public benchmarks (PolNeAR quotes, ECB+ stories), and the
scorer of the example corpus's own gold (gold.py)."""
