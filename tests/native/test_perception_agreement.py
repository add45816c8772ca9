"""The native perception agrees with rules/no_quarter/sight_movement/perception.py.

Over states sampled from random skirmishes of every set-up and ``BattleOptions`` choice and
from the shipped missions, for every mech, every ordered pair of mechs and both sides, each
mirrored function gives the reference's answer exactly (lists in order, floats bit for bit):
bases, hidden pairs, sight lines, arcs with every torso twist, cover, concealment, fast
movement, ability to fire, base contact, every weapon against every enemy, Fired On "in range",
cohesion links, groups and their leaders, what a mech sees from where it stands and from
another spot, and the In Sight pairs it marks (ruling D8).
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _perception_states import (  # noqa: E402
    Sample,
    mission_samples,
    shared_skirmish_samples,
    skirmish_samples,
)
from _state_compare import same  # noqa: E402

from wargym.native.no_quarter.perception import (  # noqa: E402
    PerceptionInputs,
    core,
    cover_terrain,
    group_rules,
)
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions  # noqa: E402
from wargym.rules.no_quarter.forces.data import load_rules  # noqa: E402
from wargym.rules.no_quarter.forces.vocab import Side  # noqa: E402
from wargym.rules.no_quarter.sight_movement import perception as ref  # noqa: E402


def plain(value: Any) -> Any:
    """Tuples as lists (the comparison of ``same`` is by type)."""
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def check(label: str, what: str, expected: Any, got: Any) -> None:
    diff = same(plain(expected), plain(got), what)
    assert diff is None, f"{label}: {diff}"


def check_sample(s: Sample, rng: np.random.Generator) -> dict[str, int]:
    """Every mirrored function on one state; returns counts of outcomes (to show both ran)."""
    b, n = s.battle, s.native
    rules = load_rules(b.options.rules)
    seen = {"visible": 0, "hidden": 0, "engage": 0, "groups": 0, "cover": 0, "in_range": 0}
    check(s.label, "bodies", [(x.id, x.pos, x.radius) for x in ref.bodies(b)],
          core.bodies(n.battle))  # fmt: skip
    mechs = list(b.mechs.values())
    for m in mechs:
        i = m.id
        check(s.label, f"able_to_fire({i})", ref.able_to_fire(m), core.able_to_fire(n.battle, i))
        check(s.label, f"is_fast_moving({i})", ref.is_fast_moving(rules, m),
              core.is_fast_moving(n.battle, n.rules, i))  # fmt: skip
        check(s.label, f"concealed({i})", ref.concealed(b, m), core.concealed(n.battle, n.cover, i))
        check(s.label, f"engaged_with({i})", ref.engaged_with(b, m),
              core.engaged_with(n.battle, i))  # fmt: skip
        check(s.label, f"operable_ranged_weapons({i})", m.operable_ranged_weapons,
              core.operable_ranged_weapons(n.battle, i))  # fmt: skip
        check(s.label, f"has_functioning_ews({i})", m.has_functioning_ews,
              core.has_functioning_ews(n.battle, i))  # fmt: skip
        moved = (m.pos[0] + float(rng.uniform(-6, 6)), m.pos[1] + float(rng.uniform(-6, 6)))
        facing = float(rng.uniform(0, 360))
        for pos, face in ((m.pos, m.facing), (m.pos, facing), (moved, facing)):
            check(s.label, f"visible_enemies({i}, {pos}, {face})",
                  ref.visible_enemies(b, m, pos, face),
                  core.visible_enemies(n.battle, n.terrain, i, pos, face))  # fmt: skip
        for o in mechs:
            if o.id == i:
                continue
            j, where = o.id, f"({i}, {o.id})"
            hidden = ref.hidden_pair(m, o)
            seen["hidden"] += hidden
            check(s.label, f"hidden_pair{where}", hidden, core.hidden_pair(n.battle, i, j))
            line = ref.line_between(b, m, o)
            seen["visible"] += line.visible
            check(s.label, f"line_between{where}", dataclasses.astuple(line),
                  core.line_between(n.battle, n.terrain, i, j))  # fmt: skip
            for twist in (None, *ref.TWISTS):
                check(s.label, f"sees{where} twist {twist}", ref.sees(b, m, o, twist=twist),
                      core.sees(n.battle, n.terrain, i, j, twist))  # fmt: skip
            cover = ref.in_cover_from(b, m, o)
            seen["cover"] += cover
            check(s.label, f"in_cover_from{where}", cover,
                  core.in_cover_from(n.battle, n.terrain, n.cover, i, j))  # fmt: skip
            table = rules.leaders
            for inches, los in ((float(table.cohesion_link_inches), True), (5.5, False)):
                check(s.label, f"linked{where} {inches} {los}",
                      ref.linked(b, m, o, inches, requires_los=los),
                      core.linked(n.battle, n.terrain, i, j, inches, los))  # fmt: skip
            if o.side is m.side:
                continue
            for w in range(len(m.design.items)):
                for twist in (None, ref.TWISTS[int(rng.integers(len(ref.TWISTS)))]):
                    can = ref.weapon_can_engage(b, m, w, o, twist)
                    seen["engage"] += can
                    check(s.label, f"weapon_can_engage{where} {w} twist {twist}", can,
                          core.weapon_can_engage(n.battle, n.terrain, i, w, j, twist))  # fmt: skip
            check(s.label, f"twists_to_engage{where}", ref.twists_to_engage(b, m, o),
                  core.twists_to_engage(n.battle, n.terrain, n.rules, i, j))  # fmt: skip
            in_range = ref.cause_in_range(b, m, o)
            seen["in_range"] += in_range
            check(s.label, f"cause_in_range{where}", in_range,
                  core.cause_in_range(n.battle, n.terrain, n.rules, i, j))  # fmt: skip
            for pos, face in ((m.pos, m.facing), (moved, facing)):
                check(s.label, f"visible_from{where} {pos} {face}",
                      ref.visible_from(b, m, pos, face, o),
                      core.visible_from(n.battle, n.terrain, i, pos, face, j))  # fmt: skip
    for side in Side:
        groups = ref.form_groups(b, side, rules)
        seen["groups"] += sum(len(g) > 1 for g in groups)
        check(s.label, f"form_groups({side.value})", groups,
              core.form_groups(n.battle, n.terrain, n.rules, side.value))  # fmt: skip
        check(
            s.label,
            "form_groups(Side)",
            groups,
            core.form_groups(n.battle, n.terrain, n.rules, side),
        )
        for g in groups:
            check(
                s.label,
                f"group_leader({g})",
                ref.group_leader(b, g),
                core.group_leader(n.battle, g),
            )
    ids = [m.id for m in mechs]
    for _ in range(3):
        members = [int(x) for x in rng.choice(ids, size=int(rng.integers(1, len(ids) + 1)))]
        check(s.label, f"group_leader({members})", ref.group_leader(b, members),
              core.group_leader(n.battle, members))  # fmt: skip
    check_sightings(s)
    return seen


def check_sightings(s: Sample) -> None:
    """new_sightings marks the same pairs in both engines, call after call (ruling D8)."""
    b = Battle.from_dict(s.battle.to_dict())  # new_sightings writes: work on copies
    native = s.native.battle.clone()
    for m in b.mechs_of(Side.BLUE) + b.mechs_of(Side.RED):
        fresh = ref.visible_enemies(b, m, m.pos, m.facing)
        check(s.label, f"new_sightings({m.id}, {sorted(fresh)})", ref.new_sightings(b, m, fresh),
              core.new_sightings(native, m.id, fresh))  # fmt: skip
    check(s.label, "seen_pairs", b.to_dict()["seen_pairs"], native.to_dict()["seen_pairs"])
    assert s.native.battle.to_dict()["seen_pairs"] == s.battle.to_dict()["seen_pairs"]


def test_native_perception_matches_the_reference_on_skirmish_states() -> None:
    rng = np.random.default_rng(16)
    totals: dict[str, int] = {}
    count = 0
    for s in shared_skirmish_samples():
        for key, value in check_sample(s, rng).items():
            totals[key] = totals.get(key, 0) + value
        count += 1
    assert count > 80
    assert all(totals[k] > 0 for k in totals), totals  # every outcome was reached both ways


def test_native_perception_matches_the_reference_on_mission_states() -> None:
    rng = np.random.default_rng(17)
    assert sum(1 for s in mission_samples() if check_sample(s, rng) is not None) >= 9


def test_the_native_perception_reads_the_numbers_it_is_handed() -> None:
    """Change the link lengths, LOS requirements and fast-moving distance: both engines follow."""
    rules = load_rules()
    leaders = dataclasses.replace(
        rules.leaders, cohesion_link_inches=3, cohesion_link_requires_los=False,
        command_radius_inches=20, command_radius_requires_los=False,
    )  # fmt: skip
    ranged = dataclasses.replace(rules.ranged_combat, fast_moving_inches=2)
    changed = dataclasses.replace(rules, leaders=leaders, ranged_combat=ranged)
    tables = group_rules(changed)
    differs = 0
    variant = [BattleOptions(command_groups=c) for c in ("teams", "command_radius")]
    for s in skirmish_samples(10, variants=variant, decisions=60, stride=10):
        b, n = s.battle, s.native
        for side in Side:
            groups = ref.form_groups(b, side, changed)
            differs += groups != ref.form_groups(b, side, rules)
            check(
                s.label, "form_groups", groups, core.form_groups(n.battle, n.terrain, tables, side)
            )
        for m in b.mechs.values():
            fast = ref.is_fast_moving(changed, m)
            differs += fast != ref.is_fast_moving(rules, m)
            check(s.label, "is_fast_moving", fast, core.is_fast_moving(n.battle, tables, m.id))
    assert differs > 0


def test_a_native_battle_of_another_state_is_not_confused_with_this_one() -> None:
    """The native functions read the native battle they are given, not a cached one."""
    first, *rest = list(skirmish_samples(3, decisions=30, stride=10))[:4]
    for s in rest:
        mixed = PerceptionInputs(first.native.battle, s.native.terrain, s.native.cover,
                                 s.native.rules)  # fmt: skip
        assert core.bodies(mixed.battle) == core.bodies(first.native.battle)


def test_the_native_cover_reads_the_table_it_is_handed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Change table 17.2 (what gives cover, conceals, and the "behind" rows): both follow."""
    from wargym.rules.no_quarter.battlefield.terrain_tables import cover_config
    from wargym.rules.no_quarter.forces.vocab import Terrain
    from wargym.rules.no_quarter.sight_movement import sight

    default = cover_config()
    both = frozenset({"cover", "concealment"})
    changed = dataclasses.replace(
        default,
        inside_stationary={**default.inside_stationary, Terrain.HILL: both, Terrain.ROUGH: both},
        inside_moving={**default.inside_moving, Terrain.HILL: both, Terrain.WOODS: both},
        behind_building_cover=not default.behind_building_cover,
        behind_mech_cover=not default.behind_mech_cover,
    )
    monkeypatch.setattr(sight, "cover_config", lambda: changed)
    sight._concealing.cache_clear()
    monkeypatch.setattr(sight, "_concealing", lambda: changed.concealing())
    differs = 0
    for s in skirmish_samples(8, decisions=40, stride=8, seed=5):
        b = s.battle  # read back from its document: a fresh battlefield memo
        cover = cover_terrain(b.battlefield, changed)
        old = cover_terrain(b.battlefield)
        for m in b.mechs.values():
            got = core.concealed(s.native.battle, cover, m.id)
            differs += got != core.concealed(s.native.battle, old, m.id)
            check(s.label, f"concealed({m.id})", ref.concealed(b, m), got)
            for o in b.mechs.values():
                if o.id != m.id:
                    got = core.in_cover_from(s.native.battle, s.native.terrain, cover, m.id, o.id)
                    was = core.in_cover_from(s.native.battle, s.native.terrain, old, m.id, o.id)
                    differs += got != was
                    check(
                        s.label, f"in_cover_from({m.id}, {o.id})", ref.in_cover_from(b, m, o), got
                    )
    assert differs > 0
