"""newsloom: turn a pile of news articles into stories."""

__version__ = "0.1.0"
