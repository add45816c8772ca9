"""python -m wargym.server: run the opponent server (HTTP, or JSON lines with --stdio).

By default the server plays the shipped policy (agents/models/nq_skirmish_ppo.onnx) for
opponent_move; --model none serves the rules' AI only; --model FILE.onnx loads another
exported policy (its .onnx.json sidecar must validate).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from wargym.cli_args import UsageError, checked, int_in, parse_cli

from .http import DEFAULT_HOST, DEFAULT_PORT, DEFAULT_TIMEOUT
from .protocol import Handler
from .validation import MAX_BYTES

PROG = "wargym serve"
SHIPPED = "shipped"
"""``--model`` value naming the shipped policy."""
NO_MODEL = "none"
"""``--model`` value for the rules' AI only."""


@dataclass(frozen=True)
class ServeConfig:
    """The opponent server's command line."""

    stdio: bool = False
    """JSON lines on stdin/stdout instead of HTTP."""
    host: str = DEFAULT_HOST
    """HTTP bind address (loopback by default; another address prints a warning)."""
    port: Annotated[int, checked(int_in(0, 65535), "PORT")] = DEFAULT_PORT
    """HTTP port (0..65535)."""
    model: str = SHIPPED
    """ONNX policy for opponent_move: 'shipped' (agents/models/nq_skirmish_ppo.onnx), 'none'
    (the rules' AI only) or a .onnx file with its .onnx.json sidecar."""
    tier: str | None = None
    """Default difficulty tier of the policy (easy, medium, hard, expert; none: greedy)."""
    max_bytes: Annotated[int, checked(int_in(1), "BYTES")] = MAX_BYTES
    """Request size limit in bytes (>= 1)."""
    timeout: float = DEFAULT_TIMEOUT
    """Seconds a request may take before a timeout error answers it (> 0)."""

    def __post_init__(self) -> None:
        if not self.timeout > 0 or self.timeout == float("inf"):
            raise ValueError(f"--timeout must be finite seconds > 0, got {self.timeout}")
        if self.tier is not None and self.model == NO_MODEL:
            raise ValueError("--tier needs a policy; --model none serves the rules' AI only")


def load_policy(config: ServeConfig) -> object | None:
    """The :class:`~.policy.OnnxOpponent` of ``--model`` (None for ``none``).

    Raises:
        UsageError: the file is missing, not ONNX, or its sidecar or tier is refused.
    """
    if config.model == NO_MODEL:
        return None
    from .policy import OnnxOpponent

    if config.model == SHIPPED:
        from wargym.agents.learned import shipped_model

        try:
            path: Path = shipped_model(".onnx")
        except FileNotFoundError as error:
            raise UsageError(f"--model shipped: {error}") from None
    else:
        path = Path(config.model)
    try:
        return OnnxOpponent(path, config.tier)
    except (ValueError, OSError) as error:  # SidecarError is a ValueError
        raise UsageError(f"--model {config.model[:200]}: {error}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and serve until stopped (or end of input with ``--stdio``)."""
    try:
        config = parse_cli(ServeConfig, argv, prog=PROG, description=__doc__ or "")
        policy = load_policy(config)
    except UsageError as error:  # exit 2, one line (as every wargym command: cli_args)
        print(f"{PROG}: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    handler = Handler(policy, max_bytes=config.max_bytes)
    if config.stdio:
        from .stdio import serve_stdio

        serve_stdio(handler, sys.stdin.buffer, sys.stdout.buffer, config.timeout)
        return 0
    from .http import serve

    if config.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: serving on {config.host}, reachable beyond this machine", file=sys.stderr)
    serve(handler, config.host, config.port, config.timeout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
