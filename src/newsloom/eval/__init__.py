"""Scorers and dataset readers for public benchmarks (PolNeAR quotes, ECB+ stories)."""
