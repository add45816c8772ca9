"""Bounded load test of the opponent server on loopback: requests/s and latency percentiles.

Starts the HTTP server (uvicorn, extra ``[serve]``) on 127.0.0.1 at a free port in a
background thread, prepares positions from seeded games, then sends ``--requests`` requests
(at most ``--seconds`` of sending) from ``--clients`` client threads, each with its own
keep-alive connection (stdlib ``http.client``). The mix cycles through ``legal``, ``act``
(a legal action of the position), ``opponent_move`` (the rules' NP procedure, or the ONNX
policy with ``--model``) and ``info``. Every reply must be HTTP 200 without an error object;
failures are counted. Prints a JSON report (and a Markdown row with ``--md``).

    .venv/bin/python benchmarks/server_load.py --requests 2000 --clients 4
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import socket
import sys
import threading
import time
from typing import Any

import numpy as np

P = "wargym-protocol/1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(model: str | None, port: int) -> Any:
    import uvicorn

    from wargym.server import Handler
    from wargym.server.http import create_app

    policy = None
    if model:
        from wargym.server.policy import OnnxOpponent

        policy = OnnxOpponent(model)
    config = uvicorn.Config(create_app(Handler(policy)), host="127.0.0.1", port=port,
                            log_level="warning")  # fmt: skip
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            return server
        time.sleep(0.05)
    raise RuntimeError("server did not start")


def positions(count: int) -> list[dict[str, Any]]:
    """States along seeded rules-vs-rules games (each with its legal actions)."""
    from wargym.server import Handler

    handler = Handler()
    out: list[dict[str, Any]] = []
    seed = 0
    while len(out) < count:
        reply = handler.handle({"protocol": P, "type": "new_game", "system": "no_quarter",
                                "seed": seed})  # fmt: skip
        for step in range(40):
            if reply["over"] or len(out) >= count:
                break
            out.append({"state": reply["state"], "legal": reply["legal_actions"]})
            reply = handler.handle({"protocol": P, "type": "opponent_move",
                                    "state": reply["state"], "seed": step})  # fmt: skip
        seed += 1
    return out


def bodies(pool: list[dict[str, Any]], n: int, onnx: bool) -> list[tuple[str, bytes]]:
    rng = np.random.default_rng(0)
    out = []
    kinds = ("legal", "act", "opponent_move", "info")
    for i in range(n):
        kind = kinds[i % len(kinds)]
        pos = pool[int(rng.integers(len(pool)))]
        req: dict[str, Any] = {"protocol": P, "type": kind, "id": i}
        if kind != "info":
            req["state"] = pos["state"]
        if kind == "act":
            req["action"] = pos["legal"][int(rng.integers(len(pos["legal"])))]
            req["seed"] = i
        if kind == "opponent_move":
            req["policy"] = "onnx" if onnx else "rules"
            req["seed"] = i
        out.append((kind, json.dumps(req).encode()))
    return out


def client(port: int, work: list[tuple[str, bytes]], deadline: float,
           lat: list[tuple[str, float]], fails: list[str]) -> None:  # fmt: skip
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for kind, body in work:
        if time.perf_counter() > deadline:
            break
        t0 = time.perf_counter()
        conn.request("POST", "/v1", body, {"content-type": "application/json"})
        reply = conn.getresponse()
        data = reply.read()
        lat.append((kind, time.perf_counter() - t0))
        if reply.status != 200 or b'"error"' in data[:200]:
            fails.append(f"{kind}: {reply.status} {data[:200]!r}")
    conn.close()


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values) * 1000.0, q)) if values else float("nan")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60.0, help="cap on sending time")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--model", default=None, help="ONNX policy for opponent_move")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    port = free_port()
    server = start_server(args.model, port)
    pool = positions(args.positions)
    work = bodies(pool, args.requests, bool(args.model))
    lat: list[tuple[str, float]] = []
    fails: list[str] = []
    shares = [work[i :: args.clients] for i in range(args.clients)]
    t0 = time.perf_counter()
    deadline = t0 + args.seconds
    threads = [threading.Thread(target=client, args=(port, s, deadline, lat, fails))
               for s in shares]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    server.should_exit = True
    every = [s for _, s in lat]
    report: dict[str, Any] = {
        "meta": {
            "python": platform.python_version(),
            "cpu_count": os.cpu_count(),
            "clients": args.clients,
            "positions": len(pool),
            "opponent": "onnx" if args.model else "rules",
            "date": time.strftime("%Y-%m-%d"),
        },  # fmt: skip
        "requests": len(lat),
        "failures": len(fails),
        "seconds": round(wall, 3),
        "requests_per_second": round(len(lat) / wall, 1),
        "latency_ms": {
            "p50": round(pct(every, 50), 2),
            "p95": round(pct(every, 95), 2),
            "p99": round(pct(every, 99), 2),
        },  # fmt: skip
        "by_type": {
            k: {
                "n": len(v),
                "p50": round(pct(v, 50), 2),
                "p95": round(pct(v, 95), 2),
                "p99": round(pct(v, 99), 2),
            }
            for k in ("legal", "act", "opponent_move", "info")
            if (v := [s for kind, s in lat if kind == k])
        },  # fmt: skip
        "first_failures": fails[:5],
    }
    print(json.dumps(report, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2)
    return report


if __name__ == "__main__":
    result = main()
    sys.exit(1 if result["failures"] else 0)
