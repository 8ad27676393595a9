"""Speaker choice as candidate ranking: candidates and their features (candidates.py), the
trained trees that score them (ranker.py, model file speakers.json)."""
