"""JSON-lines transport: one request per line on stdin, one response per line on stdout.

For embedding the opponent in another program without a socket
(``python -m wargym.server --stdio``). Lines longer than the handler's ``max_bytes`` are
skipped to their end and answered with ``too_large``; each request is answered within
``timeout_s`` (a ``timeout`` error otherwise); an empty line is ignored; end of input stops.
"""

from __future__ import annotations

import json
import threading
from typing import IO, Any

from .protocol import Handler
from .validation import ProtocolError

CHUNK = 1 << 16


def _answer(handler: Handler, raw: bytes, timeout_s: float) -> dict[str, Any]:
    box: list[dict[str, Any]] = []
    worker = threading.Thread(target=lambda: box.append(handler.handle_bytes(raw)), daemon=True)
    worker.start()
    worker.join(timeout_s)
    if not box:
        return handler.error(ProtocolError("timeout", f"no answer within {timeout_s:g} s"))
    return box[0]


def serve_stdio(
    handler: Handler, stdin: IO[bytes], stdout: IO[bytes], timeout_s: float = 10.0
) -> int:
    """Answer lines until end of input; returns the number of requests answered."""
    answered = 0
    limit = handler.max_bytes
    while True:
        line = stdin.readline(limit + 1)
        if not line:
            return answered
        if len(line) > limit and not line.endswith(b"\n"):
            while True:  # drop the rest of the oversized line
                rest = stdin.readline(CHUNK)
                if not rest or rest.endswith(b"\n"):
                    break
            reply = handler.error(ProtocolError("too_large", f"line longer than {limit} bytes"))
        elif not line.strip():
            continue
        else:
            reply = _answer(handler, line, timeout_s)
        stdout.write(json.dumps(reply, separators=(",", ":")).encode("utf-8") + b"\n")
        stdout.flush()
        answered += 1
