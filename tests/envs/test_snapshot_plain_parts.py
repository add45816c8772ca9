"""No Quarter snapshots with a bad frame, ``np`` or ``mission`` field are refused naming it.

Every case helper C1's snapshot fuzzer found (a field that loaded and failed at the next step,
or was refused without naming the field: a key deleted, a list or a string in place of a
number, a dangling id, a value out of range) is put into a real env snapshot, whose digest is
recomputed; ``load_state`` must raise ``StateError`` whose message names the exact field of
the battle (``battle.frames.2.groups.0.0``), and the env must be exactly as before: same
snapshot, same next step. The checks are ``validity.check_battle``'s (``validity_parts``),
the ones ``Battle.from_dict`` and the opponent server use too.
"""

from __future__ import annotations

import copy
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_env_save_load import Driver  # noqa: E402
from test_snapshot_mutations import _next, _setup  # noqa: E402

from wargym.envs.fuzzing_snapshots import masks_after_load  # noqa: E402
from wargym.envs.snapshot import digest  # noqa: E402
from wargym.rules.errors import StateError  # noqa: E402

PATROL = "gym:wargym/NoQuarter-Patrol-v1"
SKIRMISH = "gym:wargym/NoQuarter-Skirmish-v1"
"""Their second snapshots hold a mission and np block (Patrol) and a fire frame (Skirmish)."""

Change = Callable[[dict[str, Any]], str]
"""Changes a battle (JSON) in place; returns the field the refusal must name."""


def _set(path: str, value: Any) -> Change:
    def change(battle: dict[str, Any]) -> str:
        *head, last = path.split(".")
        node: Any = battle
        for key in head:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
        return f"battle.{path}"

    return change


def _delete(path: str, named: str | None = None) -> Change:
    def change(battle: dict[str, Any]) -> str:
        *head, last = path.split(".")
        node: Any = battle
        for key in head:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[int(last) if isinstance(node, list) else last]
        return f"battle.{named or path}"

    return change


def _top_frame(kind: str, key: str, value: Any) -> Change:
    """The first frame of ``kind`` gets ``key`` = ``value``."""

    def change(battle: dict[str, Any]) -> str:
        i = next(i for i, f in enumerate(battle["frames"]) if f["kind"] == kind)
        battle["frames"][i][key] = value
        return f"battle.frames.{i}.{key}"

    return change


def _insight_opponents(battle: dict[str, Any]) -> str:
    """An In Sight frame whose opponents list a list in place of a mech id."""
    ids = sorted(int(k) for k in battle["mechs"])
    frame = {
        "kind": "insight", "side": "blue", "mover": ids[0], "group": ids[0],
        "enemy_groups": [ids[-1]], "stage": "act", "free": None, "winners": [ids[-1]],
        "opponents": {str(ids[-1]): [[1, 2]]}, "deferred": [],
    }  # fmt: skip
    battle["frames"].insert(1, frame)
    return f"battle.frames.1.opponents.{ids[-1]}.0"


CASES: dict[str, tuple[str, Change]] = {
    "mission.recon deleted": (PATROL, _delete("mission.recon")),
    "mission.attack_objective deleted": (PATROL, _delete("mission.attack_objective")),
    "mission ratio_denominator -1": (
        PATROL,
        _set("mission.options.ratio_denominator", -1),
    ),
    "mission ratio_denominator 0": (PATROL, _set("mission.options.ratio_denominator", 0)),
    "mission turn_limit 0": (PATROL, _set("mission.options.turn_limit", 0)),
    "mission.player_started garbage": (PATROL, _set("mission.player_started", "garbage")),
    "mission.exit_edges -1": (PATROL, _set("mission.exit_edges", -1)),
    "np.pefs.0 a list": (PATROL, _set("np.pefs.0", [1, 2])),
    "np.pefs.0.pos -1": (PATROL, _set("np.pefs.0.pos", -1)),
    "np replaced": (PATROL, lambda b: _set("np", {"x": 1})(b) + ".side"),
    "frames groups 0.5": (PATROL, _set("frames.2.groups.0.0", 0.5)),
    "frames side true": (PATROL, _set("frames.1.side", True)),
    "frames kind deleted": (PATROL, _delete("frames.0.kind", "frames.0")),
    "dice.red deleted": (PATROL, _delete("dice.red", "dice")),
    "frames opponents a list": (SKIRMISH, _insight_opponents),
    "frames assigned 999": (SKIRMISH, _top_frame("fire", "assigned", [999])),
    "frames assigned weapon 999": (SKIRMISH, _top_frame("fire", "assigned", [[999, 0]])),
    "frames twist deleted": (
        SKIRMISH,
        lambda b: _delete(f"frames.{_fire(b)}.twist")(b),
    ),
}


def _fire(battle: dict[str, Any]) -> int:
    return next(i for i, f in enumerate(battle["frames"]) if f["kind"] == "fire")


def _applies(change: Change, snapshot: dict[str, Any]) -> bool:
    try:
        change(copy.deepcopy(snapshot["state"]["battle"]))
    except (StopIteration, KeyError, IndexError):
        return False
    return True


def _snapshot_for(case: str, change: Change) -> tuple[Any, dict[str, Any]]:
    """The env of ``case`` at its second snapshot, or a few random legal steps later where
    the frame the change needs is on the stack (new decisions move the trajectory on)."""
    env, snapshots = _setup(case)
    kind = case.split(":", 1)[0]
    driver = Driver(kind, env)
    driver.obs = env.load_state(snapshots[1])[0] if kind == "gym" else None
    rng = np.random.default_rng(7)
    for _ in range(300):
        snapshot = env.save_state()
        if _applies(change, snapshot):
            return env, snapshot
        driver.play(1, rng)
    raise AssertionError(f"no snapshot of {case} holds what the change needs")


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_plain_part_is_refused_naming_the_field_env_unchanged(name: str) -> None:
    case, change = CASES[name]
    kind = case.split(":", 1)[0]
    env, good = _snapshot_for(case, change)
    masks = masks_after_load(kind, env, env.load_state(good))
    payload = copy.deepcopy({k: v for k, v in good.items() if k != "digest"})
    field = change(payload["state"]["battle"])
    bad = {**payload, "digest": digest(payload)}
    with pytest.raises(StateError) as caught:
        env.load_state(bad)
    message = str(caught.value)
    assert field in message, message
    assert "does not hold together" not in message, message
    assert len(message) < 600, message
    assert env.save_state() == good
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        after = _next(kind, env, masks)
        env.load_state(good)
        assert _next(kind, env, masks) == after
    env.load_state(good)
