"""Every kind of game the server serves, and a driver that plays one to its end over a transport.

A *family* is a ``new_game`` request: the default skirmish (no scenario), one of the shipped
scenarios or a Cestus V mission (``info.scenarios``, ``protocol.served_scenarios``).
:func:`play` sends every state the server returned straight back (``legal``, then
``opponent_move``) with the shipped policy on blue and the rules' AI on red,
checking each request and each response against the protocol's pydantic models.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wargym.rules.no_quarter.mission.scenario import scenario_names
from wargym.server.protocol import CESTUS_PREFIX, served_scenarios

P = "wargym-protocol/1"
DEFAULT = "default skirmish"
CESTUS = f"{CESTUS_PREFIX}mission_02_the_troll"
"""The Cestus V mission the full-game tests play (a short one: ~300 requests)."""
FAMILIES = (DEFAULT, *scenario_names(), CESTUS)
"""The default game, every shipped scenario and one Cestus V mission (played to their ends)."""
SERVED = (DEFAULT, *served_scenarios())
"""Every game ``new_game`` starts (the property test samples these)."""
SEEDS = {
    DEFAULT: 4,
    "attack_hishen_vs_star_army": 1,
    "attack_iss_vs_hishen": 8,  # 685 moves (seed 0: ~1,100)
    "defend_pdf_vs_hishen": 7,
    "defend_star_army_vs_hishen": 1,
    "patrol_star_army_vs_hishen": 5,
    "skirmish": 2,
    CESTUS: 0,
}
"""A seed per family whose game is short (the CI plays each to its end)."""
MAX_REQUESTS = 3000
"""Far more decisions than any served game takes; a guard, not a target."""

Send = Callable[[dict[str, Any]], dict[str, Any]]


def new_game(family: str, seed: int) -> dict[str, Any]:
    """The ``new_game`` request of ``family``."""
    request: dict[str, Any] = {"protocol": P, "type": "new_game", "system": "no_quarter",
                               "seed": seed}  # fmt: skip
    if family != DEFAULT:
        request["scenario"] = family
    return request


def checked_send(send: Send) -> Send:
    """``send`` with the request and the response validated by the protocol's models."""
    import json

    from wargym.server.models import adapters

    models = adapters()

    def inner(request: dict[str, Any]) -> dict[str, Any]:
        models["request"].validate_json(json.dumps(request))
        reply = send(request)
        models["response"].validate_json(json.dumps(reply))
        return reply

    return inner


def play(send: Send, family: str, seed: int, *, legal_every: int = 1) -> dict[str, Any]:
    """Play ``family`` to its end (asserts no error).

    Returns ``{"reply", "requests", "chosen_by": {text: count}, "overkill": hits}``.
    """
    reply = send(new_game(family, seed))
    chosen: dict[str, int] = {}
    overkill = 0
    for step in range(MAX_REQUESTS):
        assert "error" not in reply, (family, step, reply.get("error"))
        if reply["over"]:
            break
        if step % legal_every == 0:
            legal = send({"protocol": P, "type": "legal", "state": reply["state"]})
            assert "error" not in legal, (family, step, legal.get("error"))
            assert legal["legal_actions"] == reply["legal_actions"]
        policy = "onnx" if reply["decision"]["side"] == "blue" else "rules"
        reply = send({"protocol": P, "type": "opponent_move", "state": reply["state"],
                      "policy": policy, "seed": step})  # fmt: skip
        if "chosen_by" in reply:
            chosen[reply["chosen_by"]] = chosen.get(reply["chosen_by"], 0) + 1
        overkill += sum(  # damage beyond the armour left (clamped at 0, §17.4.2)
            e["type"] == "DamageRolled" and e["damage"] > e["armor_before"]
            for e in reply.get("events", ())
        )
    assert reply["over"] and reply["outcome"] is not None, (family, "the game did not end")
    return {"reply": reply, "requests": step, "chosen_by": chosen, "overkill": overkill}
