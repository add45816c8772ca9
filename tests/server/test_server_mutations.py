"""Mutation fuzz of the opponent server (issue 21): client mistakes are 4xx errors, never 5xx.

Real, valid requests (``info``, ``new_game``, and ``legal`` / ``act`` / ``opponent_move`` over
states from real games: skirmishes and every shipped scenario, whose missions carry the ``np``
and ``mission`` blocks, taken at several kinds of top frame) get one field changed at a time:
deleted, renamed with a lone surrogate, or replaced by 10**400, a 5,000-digit integer, -1, a
huge string, a lone surrogate, an empty list, null, values of other types or deep nesting.
Each goes through the handler twice (as data and as JSON bytes). Invariants: no ``internal``
error and no 5xx; every error is a protocol error with a ``field`` and a short message; the
reply can be written as UTF-8; the request data is unchanged; and the valid request asked
again gets the same answer as before (the server keeps serving). A few mutants also go over
real loopback HTTP (uvicorn) and through ``--stdio``.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from server_cases import P, start  # noqa: E402

from wargym.server import Handler  # noqa: E402
from wargym.server.validation import HTTP_STATUS, MAX_MESSAGE  # noqa: E402

DIGITS = "__5000_DIGITS__"
"""Placeholder swapped for a 5,000-digit integer in the JSON text (``json.dumps`` cannot)."""
MUTATIONS: dict[str, Any] = {
    "10**400": 10**400,
    "5000 digits": DIGITS,
    "-1": -1,
    "2**64": 2**64,
    "huge string": "x" * 100_000,
    "lone surrogate": "\ud800",
    "empty list": [],
    "null": None,
    "string": "s",
    "float": 1.5,
    "true": True,
    "object": {"a": 1},
    "deep nesting": json.loads("[" * 80 + "]" * 80),
}
KINDS = ["delete", "surrogate key", *MUTATIONS]
REGIONS = ("envelope", "state", "state.frames", "state.np", "state.mission", "action")


@cache
def bases() -> tuple[bytes, ...]:
    """Valid requests (as JSON) over states of real games, several frame kinds per game."""
    handler = Handler()
    requests: list[dict[str, Any]] = [
        {"protocol": P, "type": "info", "id": 1},
        {
            "protocol": P,
            "type": "new_game",
            "system": "no_quarter",
            "seed": 7,
            "id": "n",
            "skirmish": {"mechs_per_side": 2, "max_turns": 5},
        },  # fmt: skip
        {
            "protocol": P,
            "type": "new_game",
            "system": "no_quarter",
            "seed": 2,
            "scenario": "patrol_star_army_vs_hishen",
        },  # fmt: skip
    ]
    games = [start()]
    for name in handler.handle({"protocol": P, "type": "info"})["scenarios"]["no_quarter"]:
        games.append(handler.handle({"protocol": P, "type": "new_game", "system": "no_quarter",
                                     "scenario": name, "seed": 1}))  # fmt: skip
    for game in games:
        reply, seen = game, set()
        for step in range(40):
            if reply["over"]:
                break
            top = reply["state"]["frames"][-1]["kind"]
            if top not in seen:
                seen.add(top)
                state = reply["state"]
                requests += [
                    {"protocol": P, "type": "legal", "state": state, "id": f"l{step}"},
                    {
                        "protocol": P,
                        "type": "act",
                        "state": state,
                        "seed": step,
                        "action": reply["legal_actions"][-1],
                    },  # fmt: skip
                    {
                        "protocol": P,
                        "type": "opponent_move",
                        "state": state,
                        "seed": step,
                        "policy": "rules",
                    },  # fmt: skip
                ]
            reply = handler.handle({"protocol": P, "type": "opponent_move",
                                    "state": reply["state"], "seed": step})  # fmt: skip
            assert "error" not in reply, reply
    return tuple(json.dumps(r).encode() for r in requests)


@cache
def answer(index: int) -> str:
    """The valid request's answer (JSON text) from a fresh handler."""
    reply = Handler().handle_bytes(bases()[index])
    assert "error" not in reply, reply
    return json.dumps(reply, sort_keys=True)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value below ``node`` (dict keys and list indices)."""
    found = [prefix] if prefix else []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(
        node, list) else ()  # fmt: skip
    for key, child in items:
        found += paths(child, (*prefix, key))
    return found


def in_region(path: tuple[Any, ...], region: str) -> bool:
    if region == "envelope":
        return len(path) == 1 and path[0] != "action"
    parts = region.split(".")
    return list(path[: len(parts)]) == parts and len(path) >= len(parts)


def mutate(request: dict[str, Any], path: tuple[Any, ...], kind: str) -> dict[str, Any]:
    """A copy of ``request`` with the value at ``path`` changed by ``kind``."""
    changed = copy.deepcopy(request)
    node: Any = changed
    for key in path[:-1]:
        node = node[key]
    last = path[-1]
    if kind == "delete":
        if isinstance(node, dict):
            node.pop(last, None)
        else:
            del node[last]
    elif kind == "surrogate key":
        if isinstance(node, dict):
            node["\ud800" + str(last)] = node.pop(last, None)
        else:
            node[last] = {"\udfff": node[last]}
    else:
        node[last] = copy.deepcopy(MUTATIONS[kind])
    return changed


def as_data(request: Any) -> Any:
    """The request as Python data (the 5,000-digit placeholder becomes the integer)."""
    if request == DIGITS:
        return 10**4999
    if isinstance(request, dict):
        return {k: as_data(v) for k, v in request.items()}
    if isinstance(request, list):
        return [as_data(v) for v in request]
    return request


def as_bytes(request: Any) -> bytes:
    text = json.dumps(request).replace(json.dumps(DIGITS), "1" + "0" * 4999)
    return text.encode("utf-8")


def assert_protocol_reply(reply: dict[str, Any], what: str) -> None:
    """A success, or a 4xx protocol error naming a field; writable as UTF-8."""
    assert reply["protocol"] == P, what
    json.dumps(reply, ensure_ascii=False).encode("utf-8")  # no lone surrogate comes back
    error = reply.get("error")
    if error is None:
        return
    assert error["code"] != "internal", (what, error)
    assert 400 <= HTTP_STATUS[error["code"]] < 500, (what, error)
    assert isinstance(error["field"], str) and error["field"], (what, error)
    assert isinstance(error["message"], str) and 0 < len(error["message"]) <= MAX_MESSAGE


def check_mutant(handler: Handler, index: int, path: tuple[Any, ...], kind: str) -> None:
    request = json.loads(bases()[index])
    mutant = mutate(request, path, kind)
    what = f"base {index} ({request['type']}), {'.'.join(map(str, path))} <- {kind}"
    data = as_data(mutant)
    before = copy.deepcopy(data)
    assert_protocol_reply(handler.handle(data), what + " (data)")
    assert data == before, what + ": the handler wrote into the request"
    assert_protocol_reply(handler.handle_bytes(as_bytes(mutant)), what + " (bytes)")
    again = handler.handle_bytes(bases()[index])
    assert json.dumps(again, sort_keys=True) == answer(index), what + ": answer changed"


@settings(max_examples=60, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(data=st.data())
def test_one_mutated_field_gets_a_4xx_error_naming_a_field_and_changes_nothing(
    data: Any,
) -> None:
    index = data.draw(st.integers(0, len(bases()) - 1), label="base")
    request = json.loads(bases()[index])
    every = paths(request)
    region = data.draw(st.sampled_from(REGIONS), label="region")
    chosen = [p for p in every if in_region(p, region)] or every
    path = data.draw(st.sampled_from(chosen), label="path")
    kind = data.draw(st.sampled_from(KINDS), label="mutation")
    check_mutant(Handler(), index, path, kind)


def test_the_corpus_covers_missions_and_several_frame_kinds() -> None:
    requests = [json.loads(raw) for raw in bases()]
    states = [r["state"] for r in requests if "state" in r]
    assert any(s["np"] for s in states) and any(s["mission"] for s in states)
    tops = {s["frames"][-1]["kind"] for s in states}
    assert {"phase", "mech", "fire"} <= tops, tops
    for index in range(len(bases())):
        answer(index)  # every base request is valid


@pytest.mark.parametrize("kind", KINDS)
def test_every_mutation_of_every_np_and_mission_key(kind: str) -> None:
    """Deterministic sweep of the blocks the issue names (np, mission, the top frame)."""
    handler = Handler()
    index = next(i for i, raw in enumerate(bases()) if b'"type": "legal"' in raw
                 and b'"np": {' in raw and b'"mission": {' in raw)  # fmt: skip
    request = json.loads(bases()[index])
    state = request["state"]
    keys = [("state", "np", k) for k in state["np"]] + [("state", "mission", k) for k in
                                                         state["mission"]]  # fmt: skip
    keys += [("state", "frames", len(state["frames"]) - 1, k) for k in state["frames"][-1]]
    keys += [("id",), ("state",), ("state", "frames"), ("state", "np"), ("state", "mission")]
    for path in keys:
        check_mutant(handler, index, path, kind)


# -- over real transports -------------------------------------------------------------------
def _transport_mutants() -> list[bytes]:
    request = json.loads(bases()[3])  # a legal request over the skirmish start
    frames = ("state", "frames", 0, "kind")
    picks = [(("id",), "lone surrogate"), (("state", "turn"), "surrogate key"),
             (("state", "turn"), "10**400"), (("state", "mechs", "0", "heading"), "10**400"),
             (frames, "null"), (("state", "frames"), "deep nesting"),
             (("id",), "huge string")]  # fmt: skip
    raws = [as_bytes(mutate(request, path, kind)) for path, kind in picks]
    game = {"protocol": P, "type": "new_game", "system": "no_quarter", "seed": DIGITS}
    raws.append(as_bytes(game))
    return raws


def test_mutants_over_loopback_http_get_4xx_json_and_the_server_keeps_serving() -> None:
    pytest.importorskip("uvicorn")
    from loopback import serving

    with serving() as post:
        status, body = post(bases()[3])
        assert status == 200 and json.dumps(body, sort_keys=True) == answer(3)
        for raw in _transport_mutants():
            status, body = post(raw)
            assert 400 <= status < 500, (status, body)
            assert_protocol_reply(body, raw[:120].decode("utf-8", "replace"))
            assert HTTP_STATUS[body["error"]["code"]] == status
        status, body = post(bases()[3])
        assert status == 200 and json.dumps(body, sort_keys=True) == answer(3)


def test_mutants_over_stdio_get_protocol_errors_and_the_server_keeps_serving() -> None:
    mutants = _transport_mutants()
    feed = b"\n".join([bases()[3], *mutants, bases()[3]]) + b"\n"
    command = [sys.executable, "-m", "wargym.server", "--stdio"]
    proc = subprocess.run(command, input=feed, capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(replies) == len(mutants) + 2
    for reply in replies[1:-1]:
        assert "error" in reply
        assert_protocol_reply(reply, "stdio")
    for reply in (replies[0], replies[-1]):
        assert json.dumps(reply, sort_keys=True) == answer(3)


def _request(head: bytes, body: bytes = b"") -> bytes:
    return head + b"\r\nhost: 127.0.0.1\r\nconnection: close\r\n" + body


def test_odd_bytes_in_the_request_line_and_headers_get_4xx_over_loopback_http() -> None:
    pytest.importorskip("uvicorn")
    from loopback import serving

    body = b'{"protocol": "wargym-protocol/1", "type": "info"}'
    sized = b"content-type: application/json\r\ncontent-length: %d\r\n\r\n" % len(body) + body
    refused = [
        _request(b"POST /v1\xff\xfe HTTP/1.1", sized),  # not UTF-8 in the path
        _request(b"POST /v1?\x00x HTTP/1.1", sized),  # NUL in the target
        _request(b"P\xd8ST /v1 HTTP/1.1", sized),  # odd method
        _request(b"POST /v1 HTTP/1.1\r\n\xffname: 1", sized),  # non-token header name
        _request(
            b"POST /v1 HTTP/1.1",  # "\u00b2" is a digit to str.isdigit
            "content-length: \u00b2\r\n\r\n".encode("latin-1") + body,
        ),  # fmt: skip
        _request(b"POST /v1 HTTP/1.1", b"content-length: 9" + b"9" * 5000 + b"\r\n\r\n" + body),
        _request(b"POST /v1 HTTP/1.1", b"content-length: -1\r\n\r\n" + body),
    ]
    allowed = [  # HTTP lets a header value carry bytes beyond ASCII (obs-text)
        _request(b"POST /v1 HTTP/1.1\r\nx-odd: \xff\xfe\x80", sized),
    ]
    with serving() as post:
        for raw in refused + allowed:
            line, reply = post.raw(raw)  # type: ignore[attr-defined]
            parts = line.split(b" ")
            assert len(parts) >= 2 and parts[1].isdigit(), (raw[:60], line)
            status = int(parts[1])
            assert status < 500, (raw[:60], line, reply[:200])
            assert raw in allowed or status >= 400, (raw[:60], line, reply[:200])
            if reply.startswith(b"{"):
                assert (json.loads(reply).get("error") or {}).get("code") != "internal"
        status, answer_ = post(body)
        assert status == 200 and answer_["type"] == "info_result"


def _asgi_post(app: Any, headers: list[tuple[bytes, bytes]], body: bytes) -> tuple[int, bytes]:
    """One POST /v1 straight into the ASGI app (headers no HTTP parser would let through)."""
    import asyncio

    sent: list[dict[str, Any]] = []
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/v1", "raw_path": b"/v1", "query_string": b"",
             "root_path": "", "headers": headers, "client": ("127.0.0.1", 1),
             "server": ("127.0.0.1", 80)}  # fmt: skip
    chunks = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        return chunks.pop(0) if chunks else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


@pytest.mark.parametrize(
    ("declared", "code"),
    [
        ("\u00b2".encode(), "bad_request"),
        (b"1e3", "bad_request"),
        (b"-1", "bad_request"),
        (b"9" * 5000, "too_large"),
        (b"\xff", "bad_request"),
    ],  # fmt: skip
    ids=["superscript two", "exponent", "negative", "5000 digits", "byte ff"],
)
def test_odd_content_length_headers_get_a_4xx_protocol_error(declared: bytes, code: str) -> None:
    pytest.importorskip("fastapi")
    from wargym.server.http import create_app

    app = create_app(Handler())
    body = b'{"protocol": "wargym-protocol/1", "type": "info"}'
    status, reply = _asgi_post(app, [(b"content-length", declared)], body)
    assert status == HTTP_STATUS[code], (status, reply[:200])
    assert json.loads(reply)["error"]["code"] == code
    status, reply = _asgi_post(app, [(b"content-length", b"%d" % len(body))], body)
    assert status == 200 and json.loads(reply)["type"] == "info_result"
