"""Training of the shipped models (needs the `train` extra: LightGBM)."""
