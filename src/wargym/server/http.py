"""HTTP transport: a FastAPI app over the protocol :class:`~.protocol.Handler`.

Routes: ``POST /v1`` (any protocol request; the response's status follows its error code,
:data:`~.validation.HTTP_STATUS`), ``GET /v1/info`` and ``GET /healthz``; FastAPI serves the
OpenAPI description at ``/openapi.json``, whose components are the pydantic models of
:mod:`.models` (every request, response, action, event and the state), and Swagger UI at
``/docs`` from the assets of the ``swagger-ui-bundle`` package (``/docs/assets/...``: nothing
is fetched from the internet; ReDoc, which only loads from a CDN, is off). Bodies are read
as a stream and refused past ``max_bytes`` (413) before being parsed; each request runs in a
worker thread and is answered with a ``timeout`` error (503) after ``timeout_s`` (the engine
bounds its own loops, so the abandoned thread ends soon after). Replies are ASCII JSON, so
nothing a request carried can make one unwritable; a ``content-length`` that is not a plain
byte count is ``bad_request``; any unexpected exception still answers a protocol error.
Requires the ``[serve]`` extra (fastapi, uvicorn, pydantic, swagger-ui-bundle).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .protocol import PROTOCOL, Handler
from .validation import HTTP_STATUS, ProtocolError
from .web import add_web_routes, page_url

DEFAULT_HOST = "127.0.0.1"
"""Loopback only unless told otherwise."""
DEFAULT_PORT = 8765
"""Default TCP port."""
DEFAULT_TIMEOUT = 10.0
"""Seconds a request may take before a ``timeout`` error answers it."""
DOCS_ASSETS = "/docs/assets"
"""Where Swagger UI's own files are served (from the ``swagger-ui-bundle`` package)."""
COMPONENTS = "#/components/schemas/{model}"


class ProtocolJSON(JSONResponse):
    """JSON written as ASCII (escapes keep any echoed text writable) with finite numbers only."""

    def render(self, content: Any) -> bytes:
        """The body: compact ASCII JSON."""
        return json.dumps(content, ensure_ascii=True, allow_nan=False,
                          separators=(",", ":")).encode("ascii")  # fmt: skip


def create_app(handler: Handler, timeout_s: float = DEFAULT_TIMEOUT) -> FastAPI:
    """The FastAPI application serving ``handler``."""
    from wargym import __version__

    app = FastAPI(
        title="wargym opponent server",
        version=__version__,
        description=f"{PROTOCOL}: legal decisions, rules and learned opponents (docs/protocol.md)",
        docs_url=None,  # served below from local assets
        redoc_url=None,  # ReDoc loads its script from a CDN
    )
    request_schema = {"$ref": COMPONENTS.format(model="Request")}
    response_schema = {"$ref": COMPONENTS.format(model="Response")}
    _local_docs(app)

    def reply(data: dict[str, Any]) -> JSONResponse:
        error = data.get("error")
        status = 200 if error is None else HTTP_STATUS.get(error["code"], 400)
        try:
            return ProtocolJSON(data, status_code=status)
        except (TypeError, ValueError) as exc:  # a reply that is not JSON: a server bug
            failure = ProtocolError("internal", f"internal error: unwritable reply ({exc})")
            return ProtocolJSON(handler.error(failure), status_code=500)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "too_large" if exc.status_code == 413 else "bad_request"
        error = ProtocolError(code, f"HTTP {exc.status_code}: {exc.detail}")
        return ProtocolJSON(handler.error(error), status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception) -> JSONResponse:
        error = ProtocolError("internal", f"internal error: {type(exc).__name__}")
        return ProtocolJSON(handler.error(error), status_code=500)

    async def run(raw: bytes) -> JSONResponse:
        try:
            data = await asyncio.wait_for(asyncio.to_thread(handler.handle_bytes, raw), timeout_s)
        except TimeoutError:
            data = handler.error(ProtocolError("timeout", f"no answer within {timeout_s:g} s"))
        return reply(data)

    @app.post(
        "/v1",
        summary="Any protocol request",
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": request_schema}},
            }
        },
        responses={
            200: {"content": {"application/json": {"schema": response_schema}}},
            400: {"description": "malformed request (error object)"},
            413: {"description": "request too large"},
            422: {"description": "invalid state or action, illegal action"},
            503: {"description": "time limit reached"},
        },
    )
    async def request_v1(request: Request) -> JSONResponse:
        declared = request.headers.get("content-length")
        if declared is not None:
            if not (declared.isascii() and declared.isdigit()):  # "²".isdigit() is true
                return reply(
                    handler.error(
                        ProtocolError(
                            "bad_request", "content-length: not a byte count", "content-length"
                        )
                    )
                )
            if len(declared) > 18 or int(declared) > handler.max_bytes:
                return reply(handler.error(_too_large(handler.max_bytes)))
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > handler.max_bytes:
                return reply(handler.error(_too_large(handler.max_bytes)))
            chunks.append(chunk)
        return await run(b"".join(chunks))

    @app.get("/v1/info", summary="Protocol, systems, scenarios, loaded policy, limits")
    async def info() -> JSONResponse:
        return await run(json.dumps({"protocol": PROTOCOL, "type": "info"}).encode())

    @app.get("/healthz", summary="Liveness probe")
    async def healthz() -> dict[str, str]:
        return {"status": "ok", "protocol": PROTOCOL}

    add_web_routes(app)  # the browser client (web.py): /, /play and /static/*

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(title=app.title, version=app.version,
                                   description=app.description, routes=app.routes)  # fmt: skip
            document.setdefault("components", {}).setdefault("schemas", {}).update(
                openapi_components()
            )
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def openapi_components() -> dict[str, Any]:
    """The models of :mod:`.models` as OpenAPI components (``Request``, ``Response``...)."""
    from .models import generated

    components: dict[str, Any] = {}
    for name in ("request", "response"):
        schema = generated(name, ref_template=COMPONENTS)
        components.update(schema.pop("$defs", {}))
        components[name.capitalize()] = schema
    return components


def _local_docs(app: FastAPI) -> None:
    """Swagger UI at ``/docs`` with its script, style and icon served by this app."""
    import swagger_ui_bundle
    from starlette.staticfiles import StaticFiles

    app.mount(DOCS_ASSETS, StaticFiles(directory=swagger_ui_bundle.swagger_ui_path), "docs")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title=f"{app.title} - Swagger UI",
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS}/favicon-32x32.png",
        )


def _too_large(limit: int) -> ProtocolError:
    return ProtocolError("too_large", f"request larger than {limit} bytes")


def serve(handler: Handler, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          timeout_s: float = DEFAULT_TIMEOUT) -> None:  # fmt: skip
    """Run the app with uvicorn (blocks)."""
    import uvicorn

    print(f"wargym serve: play in a browser at {page_url(host, port)}", flush=True)
    uvicorn.run(create_app(handler, timeout_s), host=host, port=port, log_level="warning")
