"""The ``wargym-protocol/1`` contract: pydantic models of every request and response.

The models document the wire format precisely (the state, every action kind and every event
kind are typed: :mod:`.engine_models` derives them from the engine's own records), give the
HTTP server's OpenAPI description its components (``/openapi.json``) and generate the JSON
Schemas committed under ``wargym/server/schemas`` (``request.json``, ``response.json``). The
server still checks requests with its hardened hand-written validation (:mod:`.validation`);
the tests check that every message it sends or accepts validates against these models and the
committed schemas, and that the schemas equal what the models generate now.

Regenerate the schemas after an engine or protocol change::

    python -m wargym.server.models --write     # rewrite schemas/*.json
    python -m wargym.server.models --check     # exit 1 when they are out of date
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from wargym.agents.tiers import TIERS
from wargym.rules.no_quarter.forces.vocab import Faction, Side

from .engine_models import engine_models
from .protocol import PROTOCOL
from .validation import HTTP_STATUS, MAX_INT, MAX_SEED

SCHEMA_DIR = Path(__file__).with_name("schemas")
"""Where the generated JSON Schemas are committed."""
DRAFT = "https://json-schema.org/draft/2020-12/schema"

_ENGINE = engine_models()
Int64 = Annotated[int, Field(ge=-MAX_INT - 1, le=MAX_INT)]
Id = Int64 | Annotated[str, Field(max_length=200)] | None
Seed = Annotated[int, Field(ge=0, le=MAX_SEED, description="makes dice and choices reproducible")]
if TYPE_CHECKING:  # built at run time from the engine's records
    Battle = Any
    Action = Any
    Event = Any
    Decision = Any
    Tier = str
    ErrorCode = str
else:
    Battle = _ENGINE["Battle"]
    """The serialised battle (``Battle.to_dict()``, state version 1)."""
    _ANY_OF: Any = Union  # a union of run-time classes
    Action = Annotated[_ANY_OF[tuple(_ENGINE["actions"])], Field(discriminator="type")]
    """Any action (``action_to_dict``): ``{"type": <action class>, ...fields}``."""
    Event = Annotated[_ANY_OF[tuple(_ENGINE["events"])], Field(discriminator="type")]
    """Any event (``Event.to_dict``): ``{"type": <event class>, ...fields}`` (docs/events.md)."""
    Decision = _ENGINE["Battle"].model_fields["decision"].annotation
    Tier = Literal[tuple(TIERS)]
    ErrorCode = Literal[tuple(HTTP_STATUS)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    protocol: Literal["wargym-protocol/1"] = Field(description="protocol name and version")
    id: Id = Field(None, description="echoed in the response (null, an integer, or a string)")


# -- requests ---------------------------------------------------------------------------------
class InfoRequest(_Message):
    """What the server serves: systems, scenarios, the loaded policy, tiers, limits."""

    type: Literal["info"]


class SkirmishSettings(BaseModel):
    """A head-to-head skirmish (the default game)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    blue: Faction = Field(Faction.STAR_ARMY, description="blue's faction")
    red: Faction = Field(Faction.HISHEN, description="red's faction")
    mechs_per_side: int = Field(3, ge=1, le=6)
    stars: int = Field(0, ge=0, le=1, description="Star pilots per side")
    max_turns: int = Field(20, ge=1, le=50, description="turn limit (a draw after it)")


class NewGameRequest(_Message):
    """Start a game: a shipped scenario, or a skirmish (the default), to its first decision."""

    type: Literal["new_game"]
    system: Literal["no_quarter"]
    scenario: str | None = Field(None, description="a scenario name from info.scenarios")
    skirmish: SkirmishSettings | None = Field(None, description="not with scenario")
    seed: Seed | None = None


class LegalRequest(_Message):
    """The pending decision and its legal actions of a state."""

    type: Literal["legal"]
    state: Battle


class ActRequest(_Message):
    """Play one legal action of the deciding side."""

    type: Literal["act"]
    state: Battle
    action: Action
    seed: Seed | None = None


class OpponentMoveRequest(_Message):
    """Let the server's opponent (the ONNX policy or the rules' AI) play the deciding side."""

    type: Literal["opponent_move"]
    state: Battle
    policy: Literal["onnx", "rules"] | None = Field(
        None, description="default: onnx when a model is loaded, else rules"
    )
    tier: Tier | None = Field(None, description="difficulty tier of the policy")
    seed: Seed | None = None


Request = Annotated[
    InfoRequest | NewGameRequest | LegalRequest | ActRequest | OpponentMoveRequest,
    Field(discriminator="type"),
]
"""Any request."""


# -- responses --------------------------------------------------------------------------------
class ErrorDetail(BaseModel):
    """What went wrong: a code, a message, the dotted path of the offending field."""

    model_config = ConfigDict(extra="forbid", strict=True)
    code: ErrorCode
    message: str = Field(max_length=300)
    field: str | None = Field(description="e.g. state.mechs.0.armor.0; null: the whole body")


class ErrorResponse(_Message):
    """A refused request (HTTP status by code: docs/protocol.md)."""

    error: ErrorDetail


class PolicyInfo(BaseModel):
    """The loaded ONNX policy."""

    model_config = ConfigDict(extra="forbid", strict=True)
    file: str
    sha256: str
    digest: str
    env_id: str
    observation_version: str
    action_version: str
    default_tier: Tier | None


class Limits(BaseModel):
    """Request limits."""

    model_config = ConfigDict(extra="forbid", strict=True)
    max_bytes: int
    max_depth: int


class InfoResult(_Message):
    """The answer to ``info``."""

    type: Literal["info_result"]
    wargym_version: str
    systems: list[Literal["no_quarter"]]
    messages: list[str]
    scenarios: dict[str, list[str]] = Field(description="scenario names by system")
    policy: PolicyInfo | None
    tiers: list[Tier]
    limits: Limits


class Outcome(BaseModel):
    """How the battle ended."""

    model_config = ConfigDict(extra="forbid", strict=True)
    winner: Side | None = Field(description="null: a draw")
    reason: str


class _Position(_Message):
    decision: Decision = Field(description="who decides what now; null when over")
    legal_actions: list[Action] = Field(description="every legal action of the decision")
    over: bool
    outcome: Outcome | None


class _Played(_Position):
    state: Battle = Field(description="the new state: send it with the next request")
    events: list[Event] = Field(description="what happened, in order (docs/events.md)")


class NewGameResult(_Played):
    """The new game at its first decision, with the set-up's events."""

    type: Literal["new_game_result"]


class LegalResult(_Position):
    """The pending decision of the state sent (no state or events)."""

    type: Literal["legal_result"]


class ActResult(_Played):
    """The state after the action, with its events."""

    type: Literal["act_result"]


class OpponentMoveResult(_Played):
    """The opponent's action, who chose it, and the state after it."""

    type: Literal["opponent_move_result"]
    action: Action
    side: Side
    chosen_by: str = Field(
        description="onnx, onnx (tier t), rules, or rules (fallback: why the policy did not)"
    )


Result = Annotated[
    InfoResult | NewGameResult | LegalResult | ActResult | OpponentMoveResult,
    Field(discriminator="type"),
]
Response = Union[Result, ErrorResponse]  # noqa: UP007
"""Any response: a result, or an error."""


@cache
def adapters() -> dict[str, TypeAdapter[Any]]:
    """``{"request": ..., "response": ...}`` type adapters (validate JSON with them)."""
    return {"request": TypeAdapter(Request), "response": TypeAdapter(Response)}


def generated(name: str, ref_template: str = "#/$defs/{model}") -> dict[str, Any]:
    """The models' JSON Schema of ``request`` or ``response`` (objects keyed by integers closed)."""
    schema = adapters()[name].json_schema(ref_template=ref_template)
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "patternProperties" in node:  # only keys that spell integers
                node.setdefault("additionalProperties", False)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return schema


def json_schema(name: str, ref_template: str = "#/$defs/{model}") -> dict[str, Any]:
    """The JSON Schema of ``request`` or ``response`` generated from the models now."""
    schema = generated(name, ref_template)
    head = {
        "$schema": DRAFT,
        "$id": f"{PROTOCOL}/{name}.json",
        "title": f"{PROTOCOL} {name}",
        "description": f"Generated by python -m wargym.server.models --write (docs/protocol.md). "
        f"Any {name} of the wargym opponent server.",
    }
    return {**head, **schema}


def schema_text(name: str) -> str:
    """The committed form of a schema (sorted keys, two-space indent, final newline)."""
    return json.dumps(json_schema(name), indent=2, sort_keys=True, ensure_ascii=True) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """``--write``: rewrite the committed schemas; ``--check``: 1 when they are out of date."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args not in (["--write"], ["--check"]):
        print("usage: python -m wargym.server.models --write | --check", file=sys.stderr)
        return 2
    stale = []
    for name in ("request", "response"):
        path = SCHEMA_DIR / f"{name}.json"
        text = schema_text(name)
        if not path.is_file() or path.read_text("utf-8") != text:
            stale.append(path.name)
            if args == ["--write"]:
                path.write_text(text, "utf-8")
    verb = "wrote" if args == ["--write"] else "out of date:"
    print(f"{verb} {', '.join(stale)}" if stale else "schemas are up to date")
    return 1 if stale and args == ["--check"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
