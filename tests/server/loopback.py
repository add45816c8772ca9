"""A real uvicorn server on a loopback port for the server tests (a thread; stopped on exit)."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from wargym.server import Handler

Post = Callable[[bytes], tuple[int, Any]]


@contextlib.contextmanager
def serving(handler: Handler | None = None, timeout_s: float = 30.0) -> Iterator[Post]:
    """Serve ``handler`` on 127.0.0.1 (a free port); yields ``post(raw) -> (status, json)``.

    ``post.raw(data)`` (an attribute) sends bytes as they are and returns the status line
    and body, for requests no HTTP client would write.
    """
    import uvicorn

    from wargym.server.http import create_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app(handler or Handler(), timeout_s=timeout_s)
    server = uvicorn.Server(uvicorn.Config(app, log_level="critical", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)

    def post(raw: bytes) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            conn.request("POST", "/v1", body=raw, headers={"content-type": "application/json"})
            reply = conn.getresponse()
            return reply.status, json.loads(reply.read())
        finally:
            conn.close()

    def raw_bytes(data: bytes) -> tuple[bytes, bytes]:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
            conn.sendall(data)
            chunks = []
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
        return head.split(b"\r\n", 1)[0], body

    post.raw = raw_bytes  # type: ignore[attr-defined]
    try:
        yield post
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
