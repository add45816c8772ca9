"""``Battle.clone`` makes a fully independent copy (issue 9: clone speed must not share state).

Every mutable part of a clone is changed -- each mech (scalars, armour, lists, pilot, design),
the bookkeeping dicts and lists, the frame stack, the PEF/NP data, the mission data, the
caches -- and the original must stay exactly as it was, and the other way round. A structural
walk also checks that no list, dict or mutable record is reachable from both.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle, rubble
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Location, Removal, Side, Status
from wargym.rules.no_quarter.mission.mission_play import new_mission


def _snapshot(battle: Battle) -> str:
    return json.dumps(battle.to_dict(), sort_keys=True, default=repr)


def _mission_mid_game() -> Battle:
    """A patrol mission with live PEFs, NP groups and a deep frame stack."""
    dice = RandomDice.from_seed(3000)
    battle = new_mission("patrol_star_army_vs_hishen", np.random.default_rng(0), dice)
    rng = np.random.default_rng(4000)
    for _ in range(400):
        assert battle.np is not None
        if battle.np["pefs"] and battle.np["groups"] and len(battle.frames) >= 4:
            break
        options = game.legal_actions(battle)
        game.play(battle, options[int(rng.integers(len(options)))], dice)
    assert battle.np is not None and battle.np["pefs"] and battle.np["groups"]
    assert battle.mission is not None and len(battle.frames) >= 4
    return battle


def _skirmish_mid_game() -> Battle:
    dice = RandomDice.from_seed(7)
    battle = new_skirmish(np.random.default_rng(7), dice)
    rng = np.random.default_rng(8)
    for _ in range(60):
        options = game.legal_actions(battle)
        game.play(battle, options[int(rng.integers(len(options)))], dice)
    return battle


def _mutate_everything(battle: Battle) -> None:
    """Change every mutable part of ``battle`` in place (deep changes where nested)."""
    for mech in battle.mechs.values():
        mech.armor[0] -= 1
        mech.lost_limbs.append(Location.ARM_L)
        mech.inoperable.append(99)
        mech.reaction_fired_at.append(42)
        mech.pos = (mech.pos[0] + 1.0, mech.pos[1])
        mech.heading = (mech.heading + 90.0) % 360.0
        mech.rep += 1
        mech.status = Status.LEAVE_BATTLEFIELD
        mech.removed = Removal.LEFT_TABLE
        mech.prone = not mech.prone
        mech.lucky_used = not mech.lucky_used
        mech.pilot = dataclasses.replace(mech.pilot, rep=mech.pilot.rep + 1)
        mech.design = dataclasses.replace(mech.design, speed=mech.design.speed + 1)
    battle.mechs[max(battle.mechs)].name = "renamed"
    del battle.mechs[min(battle.mechs)]
    battle.dice[Side.BLUE] = 6
    battle.group_of[999] = 999
    battle.seen_pairs.append((98, 99))
    battle.losses[Side.RED] += 5
    battle.flames.append(((0.0, 0.0), (1.0, 1.0)))
    battle.wrecks.append((2.0, 2.0))
    battle.home_edges[Side.BLUE] = "east"
    battle.building_armor[0] = 1
    for frame in battle.frames:
        frame["mutated"] = True
        for value in frame.values():
            if isinstance(value, list):
                value.append("x")
                for inner in value:
                    if isinstance(inner, (list, dict)):
                        inner.clear()
    battle.frames.append({"kind": "extra"})
    if battle.np is not None:
        for pef in battle.np["pefs"]:
            if isinstance(pef, dict):
                pef.clear()
        battle.np["pefs"].append({"id": 99})
        for group in battle.np["groups"].values():
            group["posture"] = "changed"
            group["activation"] = None
        battle.np["morale"] = -1
    if battle.mission is not None:
        battle.mission["exit_edges"]["99"] = "north"
        battle.mission["weather"]["worse"] = True
        battle.mission["options"]["turn_limit"] = 3
        battle.mission["kind"] = "changed"
    battle.options_cache = ["stale options"]
    battle.geometry_cache = {"stale": "geometry"}
    battle.turn += 3
    battle.decision = None
    battle.over, battle.winner, battle.end_reason = True, Side.RED, "mutated"
    features = battle.battlefield.features
    buildings = [i for i, f in enumerate(features) if f.building_armor]
    if buildings:
        battle.battlefield = rubble(battle.battlefield, buildings[0])


def _mutable_parts(obj: Any, seen: dict[int, Any]) -> dict[int, Any]:
    """Lists, dicts, sets and non-frozen dataclasses reachable from ``obj`` (not frozen ones)."""
    if id(obj) in seen:
        return seen
    if isinstance(obj, (list, dict, set)):
        seen[id(obj)] = obj
        items = [*obj.keys(), *obj.values()] if isinstance(obj, dict) else list(obj)
        for item in items:
            _mutable_parts(item, seen)
    elif isinstance(obj, tuple):
        for item in obj:
            _mutable_parts(item, seen)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        if type(obj).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return seen  # immutable records (battlefield, designs, pilots) are shared on purpose
        seen[id(obj)] = obj
        for value in vars(obj).values():
            _mutable_parts(value, seen)
    return seen


def _check_independent(make: Any) -> None:
    original = make()
    game.legal_actions(original)  # fill the caches
    assert original.options_cache is not None
    before = _snapshot(original)
    caches = (original.options_cache, original.geometry_cache)
    twin = original.clone()
    assert twin.options_cache is None and twin.geometry_cache is None
    assert _snapshot(twin) == before
    shared = set(_mutable_parts(original, {})) & set(_mutable_parts(twin, {}))
    assert not shared
    _mutate_everything(twin)
    assert _snapshot(twin) != before
    assert _snapshot(original) == before
    assert (original.options_cache, original.geometry_cache) == caches
    # and the other way round: a fresh clone, then the original changes
    twin = original.clone()
    _mutate_everything(original)
    assert _snapshot(twin) == before


def test_14_clone_of_mission_with_pefs_is_fully_independent() -> None:
    _check_independent(_mission_mid_game)


def test_14_clone_of_skirmish_is_fully_independent() -> None:
    _check_independent(_skirmish_mid_game)


def test_14_clone_plays_on_identically() -> None:
    battle = _mission_mid_game()
    twin = battle.clone()
    dice_a, dice_b = RandomDice.from_seed(5), RandomDice.from_seed(5)
    rng_a, rng_b = np.random.default_rng(6), np.random.default_rng(6)
    for _ in range(40):
        if battle.over:
            break
        options_a, options_b = game.legal_actions(battle), game.legal_actions(twin)
        assert options_a == options_b
        pick = int(rng_a.integers(len(options_a)))
        assert pick == int(rng_b.integers(len(options_b)))
        events_a = [e.to_dict() for e in game.play(battle, options_a[pick], dice_a)]
        events_b = [e.to_dict() for e in game.play(twin, options_b[pick], dice_b)]
        assert events_a == events_b
    assert _snapshot(battle) == _snapshot(twin)
