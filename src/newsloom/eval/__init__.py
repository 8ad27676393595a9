"""Scorers and readers for the public gold benchmarks (PolNeAR, ECB+, ...)."""
