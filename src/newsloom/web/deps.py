"""What the routers share: the store, the page renderer and the write policy of one app.

``create_app`` puts one ``WebState`` on ``app.state.web``; endpoints reach it through the
dependencies below, so each router module stays a flat list of endpoints.
"""

import secrets
import threading
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..config import Settings
from ..render.html import Pages
from ..store import Store

MAX_ID_CHARS = 32  # ids are hex digests cut to at most this many characters
HEX = frozenset("0123456789abcdef")


def is_id(value: str) -> bool:
    """Whether ``value`` can be a story or article id or id prefix (else: 404, no lookup)."""
    return 0 < len(value) <= MAX_ID_CHARS and all(c in HEX for c in value)


@dataclass
class WebState:
    store: Store
    settings: Settings
    pages: Pages
    token: str | None = None
    writes_need_token: bool = False
    # One ingest at a time: the story index is read-modify-write.
    write_lock: threading.Lock = field(default_factory=threading.Lock)


def web_state(request: Request) -> WebState:
    state: WebState = request.app.state.web
    return state


def web_store(request: Request) -> Store:
    return web_state(request).store


def web_pages(request: Request) -> Pages:
    return web_state(request).pages


State = Annotated[WebState, Depends(web_state)]
StoreDep = Annotated[Store, Depends(web_store)]
PagesDep = Annotated[Pages, Depends(web_pages)]

bearer = HTTPBearer(auto_error=False, description="Needed for writes when the server has a token.")


def writer(
    state: State, creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
) -> None:
    """Let a write through, or say why not (401 no token sent, 403 wrong or writes disabled)."""
    if state.token is None:
        if state.writes_need_token:
            raise HTTPException(
                403,
                "writes are disabled: this server listens beyond loopback "
                "without a token; restart it with --token",
            )
        return
    if creds is None:
        raise HTTPException(
            401,
            "this endpoint needs `Authorization: Bearer TOKEN`",
            headers={"WWW-Authenticate": "Bearer"},
        )
    if not secrets.compare_digest(creds.credentials.encode(), state.token.encode()):
        raise HTTPException(403, "wrong token")
