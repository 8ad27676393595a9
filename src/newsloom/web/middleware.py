"""ASGI middleware of the web app: the Host check, the body limit, security headers, and a
complete Allow header."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from starlette.routing import Match

CSP = (
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)

# Characters of a refused Host header repeated in the 400 (a header can be kilobytes long).
MAX_HOST_SHOWN = 100

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# The names a server bound to loopback answers to. A page on another site can point its own
# name at 127.0.0.1 (DNS rebinding) but cannot make the browser send one of these as Host.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
ANY_HOST = "*"


def host_name(value: str) -> str:
    """The name of a Host header or an address, without its port; IPv6 in brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[: value.find("]") + 1] if "]" in value else value
    if value.count(":") > 1:  # a bare IPv6 address (e.g. the --host value "::1")
        return f"[{value}]"
    return value.split(":", 1)[0]


def allowed_host_names(bound: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """Loopback names, the address the server is bound to, and the names configured."""
    return frozenset(host_name(h) for h in (*LOOPBACK_NAMES, bound, *extra))


class HostCheck:
    """Requests whose Host header is not an allowed name get a 400 (DNS rebinding defence)."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or ANY_HOST in self.allowed:
            await self.app(scope, receive, send)
            return
        header = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
        if host_name(header) in self.allowed:
            await self.app(scope, receive, send)
            return
        shown = header[:MAX_HOST_SHOWN]
        await send_json(
            send,
            400,
            {
                "detail": f"this server does not answer to the Host {shown!r}; if that is its "
                f"name, restart it with --allowed-host {host_name(shown) or 'NAME'} "
                f"(it answers to {', '.join(sorted(self.allowed))})"
            },
        )


class BodyLimit:
    """Requests with a body over ``max_bytes`` get a 413 before the app reads any of it."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._too_large(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._too_large(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        pending = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay() -> Message:
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        detail = (
            f"request body too large: the limit is {self.max_bytes} bytes; "
            "send fewer or shorter articles per request"
        )
        await send_json(send, 413, {"detail": detail})


async def send_json(send: Send, status: int, content: dict[str, Any]) -> None:
    """A JSON error response sent before the app ran (the connection is closed after it)."""
    body = json.dumps(content).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """No sniffing, no framing, no referrer; a strict CSP on every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + [
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"content-security-policy", CSP.encode()),
                ]
            await send(message)

        await self.app(scope, receive, wrapped)


class AllowHeader:
    """A 405 lists every method the path has, not only those of the first route matching it."""

    def __init__(self, app: ASGIApp, routes: Callable[[], list[Any]]) -> None:
        self.app = app
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 405:
                methods: set[str] = set()
                for route in self.routes():
                    if getattr(route, "methods", None) and route.matches(scope)[0] != Match.NONE:
                        methods |= set(route.methods)
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"allow"]
                message["headers"] = headers + [(b"allow", ", ".join(sorted(methods)).encode())]
            await send(message)

        await self.app(scope, receive, wrapped)
