"""The ``wargym-protocol/1`` handler: one JSON request in, one JSON response out, never a crash.

Every transport (HTTP, JSON lines) calls :meth:`Handler.handle_bytes` or :meth:`Handler.handle`.
Requests are objects with ``protocol`` (:data:`PROTOCOL`), ``type`` (``info``, ``new_game``,
``legal``, ``act``, ``opponent_move``) and an optional ``id`` echoed back; the server keeps no
game: the client sends the engine's serialised state (``Battle.to_dict``) every time and gets
the new one back. docs/protocol.md describes every message; the JSON Schemas are in
``wargym/server/schemas``.

Safety: states go through :func:`~.validation.load_battle`, actions through
``action_from_dict`` and the engine's own legality check; nothing is unpickled and the only
model format loaded is ONNX (:mod:`.policy`). Any failure becomes
``{"error": {"code", "message", "field"}}``. Every client mistake is a 4xx error naming the
field (:func:`~.validation.check_values` for values no field accepts, the rules'
``check_battle`` for every part of a state, :mod:`.state_checks` for a state the engine cannot
resume); only unexpected
exceptions, server bugs, become ``internal``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import numpy as np

from wargym.rules.errors import short_repr

from .state_checks import resumed
from .validation import (
    MAX_BYTES,
    MAX_SEED,
    ProtocolError,
    check_type,
    check_values,
    checked,
    int_in,
    load_battle,
    optional,
    parse_json,
    require,
)

PROTOCOL = "wargym-protocol/1"
"""Protocol name and version every request and response carries."""
SYSTEMS = ("no_quarter",)
CESTUS_PREFIX = "cestus_v_"
"""Scenario-name prefix of the Cestus V campaign's missions (:func:`served_scenarios`)."""
"""Systems served in protocol 1 (the space games have no opponent service yet)."""
MESSAGES = ("info", "new_game", "legal", "act", "opponent_move")
"""Request types."""
LOG = logging.getLogger(__name__)
_ENVELOPE = {"protocol", "type", "id"}
_FIELDS = {
    "info": set(),
    "new_game": {"system", "scenario", "skirmish", "seed"},
    "legal": {"state"},
    "act": {"state", "action", "seed"},
    "opponent_move": {"state", "policy", "tier", "seed"},
}
_SKIRMISH = {"blue", "red", "mechs_per_side", "stars", "max_turns"}


class Handler:
    """Answers protocol requests; optionally plays an ONNX policy (``opponent_move``).

    Args:
        policy: an :class:`~.policy.OnnxOpponent` (None: only the rules agent plays).
        max_bytes: request size limit of :meth:`handle_bytes`.
    """

    def __init__(self, policy: Any = None, max_bytes: int = MAX_BYTES) -> None:
        self.policy = policy
        self.max_bytes = max_bytes

    # -- entry points --------------------------------------------------------------------
    def handle_bytes(self, raw: bytes | str) -> dict[str, Any]:
        """Parse (size, JSON and depth limits) and answer; never raises."""
        try:
            request = parse_json(raw, self.max_bytes)
        except ProtocolError as exc:
            return self.error(exc, None)
        except Exception as exc:  # noqa: BLE001 - the server must keep serving
            LOG.exception("unexpected failure while parsing a request")
            return self.error(ProtocolError("internal", f"internal error: {exc!r}"), None)
        return self._answer(request, checked_values=True)

    def handle(self, request: Any) -> dict[str, Any]:
        """Answer already parsed request data (checked like parsed bytes); never raises."""
        return self._answer(request, checked_values=False)

    def _answer(self, request: Any, checked_values: bool) -> dict[str, Any]:
        given = request.get("id") if isinstance(request, dict) else None
        rid = given if _echoable(given) else None
        try:
            if rid is not given:
                raise ProtocolError(
                    "bad_request", "id: expected null, an integer or a string of at most 200 "
                    "characters of UTF-8 text", "id")  # fmt: skip
            if not checked_values:
                check_values(request)
            kind, body = self._envelope(request)
            result = getattr(self, f"_{kind}")(body)
        except ProtocolError as exc:
            return self.error(exc, rid)
        except RecursionError:
            return self.error(ProtocolError("too_deep", "request nests too deeply"), rid)
        except Exception as exc:  # noqa: BLE001 - the server must keep serving
            LOG.exception("unexpected failure answering a request")
            return self.error(ProtocolError("internal", f"internal error: {exc!r}"), rid)
        return {"protocol": PROTOCOL, "id": rid, "type": f"{kind}_result", **result}

    @staticmethod
    def error(exc: ProtocolError, rid: Any = None) -> dict[str, Any]:
        """The error response of ``exc``."""
        return {"protocol": PROTOCOL, "id": rid, "error": exc.to_dict()}

    # -- envelope ------------------------------------------------------------------------
    def _envelope(self, request: Any) -> tuple[str, dict[str, Any]]:
        if not isinstance(request, dict):
            raise ProtocolError("bad_request", "a request must be a JSON object", "<root>")
        protocol = require(request, "protocol", str, f"the string {PROTOCOL!r}")
        if protocol != PROTOCOL:
            raise ProtocolError(
                "unsupported_protocol",
                f"protocol {protocol[:80]!r}; this server speaks {PROTOCOL!r}",
                "protocol",
            )
        kind = require(request, "type", str, f"one of {list(MESSAGES)}")
        if kind not in MESSAGES:
            raise ProtocolError(
                "unknown_type", f"unknown type {kind[:80]!r}; one of {list(MESSAGES)}", "type"
            )
        unknown = sorted(set(request) - _ENVELOPE - _FIELDS[kind])
        if unknown:
            raise ProtocolError("bad_request", f"unknown field {unknown[0][:80]!r}", unknown[0])
        return kind, request

    # -- messages ------------------------------------------------------------------------
    def _info(self, body: dict[str, Any]) -> dict[str, Any]:
        from wargym import __version__

        from .validation import MAX_DEPTH

        policy = None if self.policy is None else self.policy.describe()
        return {
            "wargym_version": __version__,
            "systems": list(SYSTEMS),
            "messages": list(MESSAGES),
            "scenarios": {"no_quarter": list(served_scenarios())},
            "policy": policy,
            "tiers": _tier_names(),
            "limits": {"max_bytes": self.max_bytes, "max_depth": MAX_DEPTH},
        }

    def _new_game(self, body: dict[str, Any]) -> dict[str, Any]:
        from wargym.rules.dice import RandomDice

        system = require(body, "system", str, f"one of {list(SYSTEMS)}")
        if system not in SYSTEMS:
            raise ProtocolError(
                "unsupported_system", f"system {system[:80]!r}; served: {list(SYSTEMS)}", "system"
            )
        seed = int_in(body, "seed", 0, MAX_SEED, None)
        rng = np.random.default_rng(seed)
        setup_rng, dice_rng = rng.spawn(2)
        dice = RandomDice(dice_rng)
        scenario = optional(body, "scenario", str, "a scenario name", None)
        skirmish = optional(body, "skirmish", dict, "an object of skirmish settings", None)
        if scenario is not None and skirmish is not None:
            raise ProtocolError("bad_request", "give scenario or skirmish, not both", "skirmish")
        events: list[Any] = []
        if scenario is not None:
            battle, events = self._scenario(scenario, setup_rng, dice)
        else:
            battle, events = _skirmish(skirmish or {}, setup_rng, dice)
        return self._position(battle, events)

    def _scenario(self, name: str, rng: np.random.Generator, dice: Any) -> tuple[Any, list[Any]]:
        from wargym.rules.no_quarter.mission.mission_play import new_mission_logged

        names = served_scenarios()
        if name not in names:  # only names listed by info: never a path, never a stem guessed
            raise ProtocolError(
                "unknown_scenario",
                f"unknown scenario {short_repr(name, limit=80)}; one of {list(names)}",
                "scenario",
            )
        scenario: Any = name
        if name.startswith(CESTUS_PREFIX):
            scenario = checked(
                "scenario", "unknown_scenario", lambda: _cestus_scenario(name[len(CESTUS_PREFIX) :])
            )
        battle, events = checked(  # the set-up's rolls and the play to the first decision
            "scenario", "unknown_scenario", lambda: new_mission_logged(scenario, rng, dice)
        )
        return battle, list(events)

    def _legal(self, body: dict[str, Any]) -> dict[str, Any]:
        battle = _load(body)
        return self._position(battle, [], include_state=False)

    def _act(self, body: dict[str, Any]) -> dict[str, Any]:
        from wargym.rules.dice import RandomDice
        from wargym.rules.no_quarter.battle import game
        from wargym.rules.no_quarter.battle.actions import action_from_dict

        battle = _load(body)
        raw = require(body, "action", dict, "an action object")
        action = checked("action", "invalid_action", lambda: action_from_dict(raw))
        seed = int_in(body, "seed", 0, MAX_SEED, None)
        if battle.over:
            raise ProtocolError("game_over", "the battle is over; no action is legal", "state")
        checked("action", "illegal_action", lambda: game.check_legal(battle, action))
        dice = RandomDice(np.random.default_rng(seed))
        events = resumed(lambda: game.play(battle, action, dice))
        return self._position(battle, events)

    def _opponent_move(self, body: dict[str, Any]) -> dict[str, Any]:
        from wargym.rules.dice import RandomDice
        from wargym.rules.no_quarter.battle import game

        battle = _load(body)
        default = "rules" if self.policy is None else "onnx"
        which = optional(body, "policy", str, "'onnx' or 'rules'", default)
        if which not in ("onnx", "rules"):
            raise ProtocolError(
                "bad_request", f"policy: {which[:40]!r} is not onnx or rules", "policy"
            )
        tier_name = optional(body, "tier", str, "a tier name", None)
        if tier_name is not None and tier_name not in _tier_names():
            raise ProtocolError("bad_request", f"tier: one of {_tier_names()}", "tier")
        seed = int_in(body, "seed", 0, MAX_SEED, None)
        if battle.over:
            raise ProtocolError("game_over", "the battle is over; nobody decides", "state")
        if which == "onnx" and self.policy is None:
            raise ProtocolError("no_policy", "this server was started without --model", "policy")
        rng = np.random.default_rng(seed)
        pick_rng, dice_rng = rng.spawn(2)
        side = battle.decision.side
        legal = game.legal_actions(battle)  # computed by _load already: no engine call here
        used = which
        if which == "onnx":
            action, used = self.policy.choose(battle, legal, tier_name, pick_rng)
        else:
            action = resumed(lambda: _rules_choice(battle, legal, pick_rng))
        events = resumed(lambda: game.play(battle, action, RandomDice(dice_rng)))
        from wargym.rules.no_quarter.battle.actions import action_to_dict

        return {
            "action": action_to_dict(action),
            "side": side.value,
            "chosen_by": used,
            **self._position(battle, events),
        }

    # -- shared --------------------------------------------------------------------------
    @staticmethod
    def _position(battle: Any, events: Sequence[Any], include_state: bool = True) -> dict[str, Any]:
        from wargym.rules.no_quarter.battle import game
        from wargym.rules.no_quarter.battle.actions import action_to_dict

        decision = game.decider(battle)
        result = game.outcome(battle)
        resumed(lambda: game.legal_actions(battle))  # cached for the list below
        out: dict[str, Any] = {
            "decision": None
            if decision is None
            else {
                "side": decision.side.value,
                "kind": decision.kind.value,
                "mech": decision.mech,
            },
            "legal_actions": [action_to_dict(a) for a in game.legal_actions(battle)],
            "over": battle.over,
            "outcome": None
            if result is None
            else {"winner": None if result[0] is None else result[0].value, "reason": result[1]},
        }
        if include_state:
            out["state"] = battle.to_dict()
            out["events"] = [e.to_dict() for e in events]
        return out


def _echoable(rid: Any) -> bool:
    """Whether a request's ``id`` may be echoed: null, a 64-bit integer or short UTF-8 text."""
    if rid is None:
        return True
    if isinstance(rid, bool) or not isinstance(rid, str | int):
        return False
    if isinstance(rid, int):
        return -(2**63) <= rid < 2**63
    if len(rid) > 200:
        return False
    try:
        rid.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _load(body: dict[str, Any]) -> Any:
    """The request's ``state``: a battle whose every part validates and whose rules resume."""
    from wargym.rules.no_quarter.battle import game

    battle = load_battle(require(body, "state", dict, "a battle object"))  # check_battle
    resumed(lambda: game.legal_actions(battle))  # the pending decision's options, cached
    return battle


def _skirmish(
    settings: dict[str, Any], rng: np.random.Generator, dice: Any
) -> tuple[Any, list[Any]]:
    from wargym.rules.no_quarter.battle.state import BattleOptions
    from wargym.rules.no_quarter.forces.setup import new_skirmish_logged
    from wargym.rules.no_quarter.forces.vocab import Faction

    unknown = sorted(set(settings) - _SKIRMISH)
    if unknown:
        field = f"skirmish.{unknown[0][:40]}"
        raise ProtocolError("bad_request", f"unknown field {field!r}", field)
    factions = {f.value for f in Faction}
    chosen = {}
    for side, default in (("blue", "star_army"), ("red", "hishen")):
        value = optional(settings, side, str, "a faction", default)
        if value not in factions:
            raise ProtocolError("bad_request", f"skirmish.{side}: one of {sorted(factions)}",
                                f"skirmish.{side}")  # fmt: skip
        chosen[side] = Faction(value)
    mechs = int_in(settings, "mechs_per_side", 1, 6, 3)
    stars = int_in(settings, "stars", 0, 1, 0)
    turns = int_in(settings, "max_turns", 1, 50, 20)
    assert mechs is not None and stars is not None and turns is not None
    battle, events = checked("skirmish", "bad_request", lambda: new_skirmish_logged(
        rng, dice, blue=chosen["blue"], red=chosen["red"], mechs_per_side=mechs, stars=stars,
        options=BattleOptions(max_turns=turns)))  # fmt: skip
    return battle, list(events)


def served_scenarios() -> tuple[str, ...]:
    """Every scenario ``new_game`` starts: the shipped files, then each Cestus V mission.

    A Cestus V mission is named :data:`CESTUS_PREFIX` + its stem (``cestus_v_mission_01_trip_wire``)
    and is played as the campaign plays it by default: the player (blue) is Gaea Prime's Star
    Army with the mission's default mechs and rolled Reps, on the mission's map (27.4), against
    the Hishen (red) as the rules' NP forces.
    """
    from wargym.rules.no_quarter.cestus.cestus_v_data import campaign_definition
    from wargym.rules.no_quarter.mission.scenario import scenario_names

    missions = campaign_definition().missions
    return (*scenario_names(), *(f"{CESTUS_PREFIX}{m.stem}" for m in missions))


def _cestus_scenario(stem: str) -> Any:
    """The scenario of the Cestus V mission ``stem`` (a stem listed by the campaign)."""
    from wargym.rules.no_quarter.cestus.cestus_v_data import load_mission
    from wargym.rules.no_quarter.cestus.cestus_v_rolls import mission_scenario
    from wargym.rules.no_quarter.forces.vocab import Faction

    return mission_scenario(load_mission(stem), faction=Faction.STAR_ARMY)


def _rules_choice(battle: Any, legal: list[Any], rng: np.random.Generator) -> Any:
    """The rules' NP procedure (§22.4) for the side deciding now."""
    from wargym.envs.no_quarter.opponents import rules_opponent

    return rules_opponent(battle, legal, rng)


def _tier_names() -> list[str]:
    from wargym.agents.tiers import TIERS

    return list(TIERS)


__all__ = [
    "CESTUS_PREFIX",
    "PROTOCOL",
    "Handler",
    "ProtocolError",
    "check_type",
    "served_scenarios",
]
