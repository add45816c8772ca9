"""``python -m wargym.server``: run the opponent server (HTTP, or JSON lines with --stdio)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .http import DEFAULT_HOST, DEFAULT_PORT, DEFAULT_TIMEOUT
from .protocol import Handler
from .validation import MAX_BYTES


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and serve until stopped (or end of input with ``--stdio``)."""
    parser = argparse.ArgumentParser(prog="wargym serve", description=__doc__)
    parser.add_argument("--stdio", action="store_true", help="JSON lines on stdin/stdout")
    parser.add_argument("--host", default=DEFAULT_HOST, help="bind address (default loopback)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--model", default=None, help="ONNX policy (with its .onnx.json)")
    parser.add_argument("--tier", default=None, help="default difficulty tier of the policy")
    parser.add_argument("--max-bytes", type=int, default=MAX_BYTES, help="request size limit")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds/request")
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be in 0..65535, got {args.port}")
    if args.max_bytes < 1:
        parser.error(f"--max-bytes must be >= 1, got {args.max_bytes}")
    if not args.timeout > 0:
        parser.error(f"--timeout must be > 0 seconds, got {args.timeout}")
    if args.tier is not None and args.model is None:
        parser.error("--tier needs --model")
    policy = None
    if args.model is not None:
        from .policy import OnnxOpponent

        try:
            policy = OnnxOpponent(args.model, args.tier)
        except (ValueError, OSError) as error:  # SidecarError is a ValueError
            parser.error(f"--model {args.model}: {error}")
    handler = Handler(policy, max_bytes=args.max_bytes)
    if args.stdio:
        from .stdio import serve_stdio

        serve_stdio(handler, sys.stdin.buffer, sys.stdout.buffer, args.timeout)
        return 0
    from .http import serve

    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: serving on {args.host}, reachable beyond this machine", file=sys.stderr)
    serve(handler, args.host, args.port, args.timeout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
