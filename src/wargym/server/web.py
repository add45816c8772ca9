"""The browser client: a page where a person plays No Quarter against the server's opponent.

:func:`add_web_routes` adds ``GET /`` and ``GET /play`` (the page) and ``GET /static/<name>``
(its script and style sheet) to the protocol app. The page is plain HTML, CSS and one ES module
shipped in ``wargym/server/static`` (no build step, no external address); it speaks
``wargym-protocol/1`` over ``POST /v1`` exactly as any other front end does and holds the
game's state itself (docs/browser.md).

Only the files named in :data:`ASSETS` are served, each with its fixed content type: a request
path never becomes a file path, so nothing outside the folder can be read. Every answer carries
a Content-Security-Policy that allows scripts, styles and requests from this server only
(no inline script, no other origin), plus ``nosniff`` and ``no-referrer``.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from fastapi import FastAPI
from fastapi.responses import RedirectResponse, Response

ASSETS: dict[str, str] = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "describe.js": "text/javascript; charset=utf-8",
    "board.js": "text/javascript; charset=utf-8",
    "saved.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "icon.svg": "image/svg+xml",
}
"""The files the page is made of and their content types; no other name is served."""
PAGE_PATH = "/play"
"""Where the page is served (``/`` redirects there)."""
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The page's Content-Security-Policy: this origin only, no inline code, no framing."""
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
"""Headers of every page and asset answer."""


@cache
def asset(name: str) -> bytes:
    """The bytes of the shipped asset ``name`` (a key of :data:`ASSETS`; KeyError otherwise)."""
    if name not in ASSETS:
        raise KeyError(name)
    return resources.files("wargym.server").joinpath("static", name).read_bytes()


def page_url(host: str, port: int) -> str:
    """The address a person opens to play (``host`` as bound; IPv6 in brackets)."""
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    return f"http://{shown}:{port}{PAGE_PATH}"


def add_web_routes(app: FastAPI) -> None:
    """Serve the browser client on ``app``: ``/`` -> ``/play``, the page, its assets."""

    def answer(name: str) -> Response:
        return Response(asset(name), media_type=ASSETS[name], headers=HEADERS)

    @app.get("/", include_in_schema=False)
    async def root() -> RedirectResponse:
        return RedirectResponse(PAGE_PATH, status_code=307, headers=HEADERS)

    @app.get(PAGE_PATH, include_in_schema=False)
    async def page() -> Response:
        return answer("index.html")

    @app.get("/static/{name}", include_in_schema=False)
    async def static(name: str) -> Any:
        if name not in ASSETS or name == "index.html":
            return Response(b"not found", status_code=404, media_type="text/plain",
                            headers=HEADERS)  # fmt: skip
        return answer(name)
