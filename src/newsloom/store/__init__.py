"""Persistent storage of articles, analyses and stories, chosen by URL."""

from .sql import SqlStore, normalise_url, open_store

__all__ = ["SqlStore", "normalise_url", "open_store"]
