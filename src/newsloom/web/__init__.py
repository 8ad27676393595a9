"""The web app: story pages and a JSON API over a store (``newsloom serve``)."""

from .app import DEFAULT_MAX_BODY_BYTES, create_app

__all__ = ["DEFAULT_MAX_BODY_BYTES", "create_app"]
