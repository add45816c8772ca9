"""The native movement geometry agrees with the reference on random inputs (issue 16).

``movement_geometry.py`` (costs, deep water, paths, sweeps, candidates, Duck Back, leaving),
``roads.profile``, ``jump_landing.py`` and ``geometry.lattice_offsets``: random battlefields
(generated ones and hand-made ones with buildings, woods, hills, deep water, rough, plus roads,
rivers and a woods lying exactly on a river), random bases, points on and near the features'
edges, every open edge; floats compared bit for bit. A changed terrain table changes both engines
alike.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _random_inputs import battlefield, bodies, near_feature_point, point  # noqa: E402
from test_movement_agreement import bits  # noqa: E402

from wargym.native.no_quarter import movement as nm  # noqa: E402
from wargym.rules.no_quarter.battlefield import roads, terrain, terrain_tables  # noqa: E402
from wargym.rules.no_quarter.battlefield.terrain import EDGES, Battlefield, Feature  # noqa: E402
from wargym.rules.no_quarter.forces.vocab import Terrain  # noqa: E402
from wargym.rules.no_quarter.sight_movement import facing, jump_landing  # noqa: E402
from wargym.rules.no_quarter.sight_movement import movement_geometry as mg  # noqa: E402
from wargym.rules.no_quarter.sight_movement.geometry import lattice_offsets, unit  # noqa: E402
from wargym.rules.no_quarter.sight_movement.perception import TWISTS  # noqa: E402

core = nm.core
BATTLEFIELDS = 40


def movement_battlefield(rng: np.random.Generator) -> Battlefield:
    """:func:`battlefield` with, sometimes, a road, a river and a woods lying on the river."""
    bf = battlefield(rng)
    extra: list[Feature] = []
    if rng.random() < 0.6:
        x = float(rng.uniform(2.0, 30.0))
        extra.append(Feature(Terrain.ROAD, x, 0.0, x + 2.0, bf.height))
    if rng.random() < 0.6:
        y = float(rng.uniform(2.0, 30.0))
        extra.append(Feature(Terrain.RIVER, 0.0, y, bf.width, y + float(rng.uniform(1.0, 4.0))))
        if rng.random() < 0.5:
            r = extra[-1]
            extra.append(Feature(Terrain.WOODS, r.x0, r.y0, r.x1, r.y1))
    if rng.random() < 0.3:
        x, y = float(rng.uniform(0.0, 20.0)), float(rng.uniform(0.0, 20.0))
        extra.append(Feature(Terrain.DEEP_WATER, x, y, x + 12.0, y + 10.0))
    return Battlefield(bf.width, bf.height, (*bf.features, *extra), bf.night, bf.inclement_weather)


def somewhere(rng: np.random.Generator, bf: Battlefield) -> tuple[float, float]:
    return near_feature_point(rng, bf) if rng.random() < 0.5 else point(rng)


def near_by(rng: np.random.Generator, p: tuple[float, float], reach: float) -> tuple[float, float]:
    angle = float(rng.uniform(0.0, 360.0))
    if rng.random() < 0.3:
        angle = float(rng.integers(16)) * 22.5
    s = float(rng.uniform(0.0, reach))
    u = unit(angle)
    return (p[0] + u[0] * s, p[1] + u[1] * s)


def agree(seed: int, battlefields: int, queries: int) -> Counter[str]:
    """Compare both engines; returns how often each kind of answer came up."""
    rng = np.random.default_rng(seed)
    seen: Counter[str] = Counter()
    for n in range(battlefields):
        bf = movement_battlefield(rng)
        t = nm.move_terrain(bf)
        bases = bodies(rng, int(rng.integers(0, 8)))
        rows = nm.bases(bases)
        for q in range(queries):
            where = f"battlefield {n} query {q}"
            a = somewhere(rng, bf)
            b = near_by(rng, a, 12.0) if rng.random() < 0.7 else somewhere(rng, bf)
            road = [None, True, False][int(rng.integers(3))]
            assert bits(core.profile(t, a, b, road)) == bits(roads.profile(bf, a, b, road)), where
            jumping = bool(rng.random() < 0.2)
            assert bits(core.move_cost(t, a, b, jumping, road)) == bits(
                mg.move_cost(bf, a, b, jumping=jumping, on_road=road)
            ), where
            path = [a, b, *(near_by(rng, b, 6.0) for _ in range(int(rng.integers(0, 3))))]
            path = path[: int(rng.integers(1, len(path) + 1))]
            jump = (
                int(rng.integers(len(path) - 1)) if len(path) > 1 and rng.random() < 0.4 else None
            )
            want_cost = mg.path_cost(bf, path, jump_segment=jump)
            got_cost = core.path_cost(t, path, jump)
            assert bits(got_cost) == bits(want_cost) and type(got_cost) is type(want_cost), where
            seen["infinite cost"] += want_cost == math.inf
            seen["half speed"] += any(1.0 < r < math.inf for _, _, r in roads.profile(bf, a, b))
            assert core.enters_deep_water(t, path, jump) == mg.enters_deep_water(
                bf, path, jump_segment=jump
            ), where
            allowance = float(rng.uniform(0.0, 14.0))
            assert bits(core.deep_water_allowance(t, allowance)) == bits(
                mg.deep_water_allowance(allowance)
            )
            u = unit(float(rng.uniform(0.0, 360.0)))
            budget = float(rng.uniform(0.0, 14.0))
            assert bits(core.affordable(t, a, u, allowance, budget)) == bits(
                mg._affordable(bf, a, u, allowance, budget)
            ), where
            radius = float(rng.choice([0.5, 0.75]))
            mover = int(rng.integers(-1, len(bases) + 1))
            bad_jump = jump if rng.random() < 0.9 else int(rng.integers(-1, 4))
            off = bool(rng.random() < 0.2)
            problem = mg.path_problem(
                bf,
                path,
                mover_id=mover,
                bodies=bases,
                radius=radius,
                jump_segment=bad_jump,
                allow_off_table=off,
            )
            assert core.path_problem(t, path, mover, rows, radius, bad_jump, off) == problem, where
            seen[" ".join(str(problem).split(" ")[:2])] += 1
            others = [x for x in bases if x.id != mover]
            assert core.straight_ok(t, a, b, nm.bases(others), radius) == mg._straight_ok(
                bf, a, b, others, radius
            ), where
            edge = [None, *EDGES][int(rng.integers(5))]
            assert bits(
                core.furthest_clear(t, a, u, allowance, nm.bases(others), radius, edge)
            ) == bits(mg._furthest_clear(bf, a, u, allowance, others, radius, edge)), where
            assert core.beyond_edge(t, b, edge) == jump_landing.beyond_edge(bf, b, edge)
            assert core.landing_ok(t, b, allowance, nm.bases(others), radius, edge) == (
                jump_landing.landing_ok(bf, b, allowance, others, radius, edge)
            ), where
            assert bits(
                core.furthest_landing(t, a, u, allowance, nm.bases(others), radius, edge)
            ) == bits(jump_landing.furthest_landing(bf, a, u, allowance, others, radius, edge)), (
                where
            )
            if q % 4 == 0:
                directions = int(rng.choice([4, 8, 16]))
                fractions = [(0.25, 0.5, 0.75, 1.0), (1.0,), (0.5, 1.0)][int(rng.integers(3))]
                assert bits(
                    core.move_candidates(
                        t, a, allowance, mover, rows, radius, directions, fractions
                    )
                ) == bits(
                    mg.move_candidates(
                        bf,
                        a,
                        allowance=allowance,
                        mover_id=mover,
                        bodies=bases,
                        radius=radius,
                        directions=directions,
                        fractions=fractions,
                    )
                ), where
                enemy = None if rng.random() < 0.2 else somewhere(rng, bf)
                home = None if rng.random() < 0.7 else EDGES[int(rng.integers(4))]
                found = core.nearest_edge_away(t, a, enemy, home)
                assert found == mg.nearest_edge_away(bf, a, enemy, home), where
                jets = bool(rng.random() < 0.5)
                dist = float(rng.uniform(0.0, 12.0))
                left = mg.leave_move_to(
                    bf, a, found, dist, mover_id=mover, bodies=bases, radius=radius, jump_jets=jets
                )
                assert bits(core.leave_move_to(t, a, found, dist, mover, rows, radius, jets)) == (
                    bits(left)
                ), where
                assert bits(
                    nm.move_toward_edge(
                        t, a, found, dist, mover_id=mover, bodies=bases, radius=radius
                    )
                ) == bits(
                    mg.move_toward_edge(
                        bf, a, found, dist, mover_id=mover, bodies=bases, radius=radius
                    )
                ), where
                seen["left the table"] += left[1]
                seen["jumped leaving"] += left[2]
            if q % 8 == 0:
                seen["duck back " + duck_back(rng, bf, t, a, bases, radius, where)] += 1
    return seen


def duck_back(
    rng: np.random.Generator,
    bf: Battlefield,
    t: Any,
    pos: Any,
    bases: Any,
    radius: float,
    where: str,
) -> str:
    cause = near_by(rng, pos, 20.0)
    speed = float(rng.integers(0, 9))
    options = {
        "max_dist": min(6.0, speed),
        "speed": speed,
        "mover_id": -1,
        "cause_id": -2,
        "radius": radius,
        "cause_has_ews": bool(rng.random() < 0.3),
        "moved_this_turn": bool(rng.random() < 0.5),
        "step": float(rng.choice([0.5, 1.0])),
        "jump_jets": bool(rng.random() < 0.5),
    }
    assert bits(nm.duck_back_destination(t, pos, cause, bodies=bases, **options)) == bits(
        mg.duck_back_destination(bf, pos, cause, bodies=bases, **options)
    ), where
    want = mg.duck_back_move(bf, pos, cause, bodies=bases, **options)
    got = core.duck_back_move(
        t,
        pos,
        cause,
        options["max_dist"],
        speed,
        -1,
        -2,
        nm.bases(bases),
        radius,
        options["cause_has_ews"],
        options["moved_this_turn"],
        options["step"],
        options["jump_jets"],
    )
    assert bits(got) == bits(want), f"{where}: duck back {options}"
    return "jumped" if want[1] else "stayed" if want[0] == pos else "walked"


def test_the_movement_geometry_agrees_on_random_inputs() -> None:
    seen = agree(1700, BATTLEFIELDS, 40)
    for kind in (
        "infinite cost",
        "half speed",
        "None",
        "leaves the",
        "overlaps building",
        "overlaps mech",
        "passes through",
        "no segment",
        "left the table",
        "jumped leaving",
        "duck back jumped",
        "duck back stayed",
        "duck back walked",
    ):
        assert seen[kind] > 0, f"no {kind!r} among {seen}"


def test_lattice_offsets_and_rounding_agree() -> None:
    rng = np.random.default_rng(1701)
    for max_dist, step in ((6.0, 0.5), (0.0, 0.5), (3.3, 0.25), (5.0, 1.0), (2.0, 0.3)):
        got = core.lattice_offsets(max_dist, step)
        assert bits(got) == bits(list(lattice_offsets(max_dist, step))), (max_dist, step)
    halves = [k / 2000.0 for k in range(-4001, 4001, 7)] + [2.675, 0.0005, -0.0005, -0.0, 1e-300]
    nines = [k + 5e-10 for k in range(-6, 7)] + [math.hypot(i * 0.25, 3.5) for i in range(40)]
    values = halves + nines + [float(v) for v in rng.uniform(-40.0, 40.0, 2000)]
    for v in values:
        for digits in (3, 9):
            assert bits(core.py_round(v, digits)) == bits(round(v, digits)), (v, digits)


def test_the_leave_deflections_are_the_reference_ones() -> None:
    consts = mg.leave_move_to.__code__.co_consts
    assert tuple(core.LEAVE_DEFLECTIONS) in consts


def test_the_native_movement_reads_the_tables_it_is_handed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Change the terrain and cover tables (as a new YAML would): both engines follow."""
    cfg = terrain_tables.terrain_config()
    changed = dataclasses.replace(
        cfg,
        move_multiplier={**cfg.move_multiplier, Terrain.WOODS: 0.25, Terrain.ROUGH: 0.4},
        deep_water_shore_band=1.5,
        deep_water_inches_per_turn=3.5,
        road_per_inch=not cfg.road_per_inch,
    )
    cover = terrain_tables.cover_config()
    cover_changed = dataclasses.replace(
        cover,
        behind_building_cover=not cover.behind_building_cover,
        behind_mech_cover=not cover.behind_mech_cover,
    )
    for module in (terrain_tables, terrain, roads, mg, jump_landing):
        if hasattr(module, "terrain_config"):
            monkeypatch.setattr(module, "terrain_config", lambda: changed)
    from wargym.rules.no_quarter.sight_movement import sight

    monkeypatch.setattr(sight, "cover_config", lambda: cover_changed)
    monkeypatch.setattr(terrain_tables, "cover_config", lambda: cover_changed)
    original = nm.move_terrain
    monkeypatch.setattr(
        nm, "move_terrain", lambda bf: original(bf, nm.move_tables(changed, cover_changed))
    )
    agree(1702, 12, 24)
    # the rates come with the index (4" an inch in the changed woods); the deep water limit
    # with the tables: the default ones would disagree with the changed reference
    woods = Battlefield(36.0, 36.0, (Feature(Terrain.WOODS, 10.0, 10.0, 20.0, 20.0),))
    line = ((5.0, 15.0), (25.0, 15.0))
    assert core.move_cost(nm.move_terrain(woods), *line) == mg.move_cost(woods, *line) == 50.0
    with_defaults = original(woods, nm.move_tables())
    assert core.deep_water_allowance(with_defaults, 10.0) != mg.deep_water_allowance(10.0)
    assert core.deep_water_allowance(nm.move_terrain(woods), 10.0) == mg.deep_water_allowance(10.0)


def test_the_face_options_and_the_built_in_choice_agree() -> None:
    rng = np.random.default_rng(1703)
    for _ in range(300):
        heading = (
            float(rng.choice([0.0, 45.0, 90.0, 180.0, 359.5, 44.5]))
            if rng.random() < 0.5
            else float(rng.uniform(0.0, 360.0))
        )
        turn = bool(rng.random() < 0.7)
        mech = SimpleNamespace(id=3, heading=heading, pos=point(rng))
        options = facing.face_options(mech, turn)  # type: ignore[arg-type]
        rows = [(f.heading, f.twist) for f in options]
        assert bits(core.face_options(heading, turn, facing.HEADINGS, TWISTS)) == bits(rows)
        target = point(rng) if rng.random() < 0.8 else mech.pos
        chosen = facing.face_toward(options, mech, target)  # type: ignore[arg-type]
        index = core.face_toward(rows, mech.pos, heading, target)
        assert options[index] == chosen, (heading, turn, target)
    assert core.face_toward([], (1.0, 1.0), 0.0, (2.0, 2.0)) is None


def test_degenerate_inputs_agree() -> None:
    """Zero-length moves, points on the table's edges and the features' sides, tiny and zero
    allowances, one direction, fractions of 0 and above 1, negative distances."""
    rng = np.random.default_rng(1704)
    for n in range(5):
        bf = movement_battlefield(rng)
        t = nm.move_terrain(bf)
        bases = bodies(rng, 4)
        rows = nm.bases(bases)
        edges = [(0.0, 0.0), (36.0, 36.0), (0.5, 0.5), (35.5, 18.0), (0.5 - 1e-10, 3.0)]
        sides = [(f.x0, f.y0) for f in bf.features] + [
            (f.x1, (f.y0 + f.y1) / 2) for f in bf.features
        ]
        for p in edges + sides:
            where = f"battlefield {n} at {p}"
            assert bits(core.profile(t, p, p)) == bits(roads.profile(bf, p, p)), where
            assert bits(core.move_cost(t, p, p)) == bits(mg.move_cost(bf, p, p)), where
            assert bits(core.path_cost(t, [p, p, p], 1)) == bits(
                mg.path_cost(bf, [p, p, p], jump_segment=1)
            ), where
            assert core.path_problem(t, [p, p], -1, rows) == mg.path_problem(
                bf, [p, p], mover_id=-1, bodies=bases
            ), where
            for allowance in (0.0, 1e-9, 2e-9, 0.3, 7.0, -1.0):
                for directions, fractions in ((1, (1.0,)), (3, (0.0, 0.5, 1.5)), (0, (1.0,))):
                    assert bits(
                        core.move_candidates(t, p, allowance, -1, rows, 0.5, directions, fractions)
                    ) == bits(
                        mg.move_candidates(
                            bf,
                            p,
                            allowance=allowance,
                            mover_id=-1,
                            bodies=bases,
                            directions=directions,
                            fractions=fractions,
                        )
                    ), (where, allowance, directions, fractions)
                u = unit(float(rng.uniform(0.0, 360.0)))
                assert bits(core.affordable(t, p, u, allowance, allowance)) == bits(
                    mg._affordable(bf, p, u, allowance, allowance)
                ), where
                assert bits(core.furthest_clear(t, p, u, allowance, rows, 0.5, None)) == bits(
                    mg._furthest_clear(bf, p, u, allowance, bases, 0.5)
                ), where
                for edge in EDGES:
                    assert bits(core.leave_move_to(t, p, edge, allowance, -1, rows, 0.5, True)) == (
                        bits(
                            mg.leave_move_to(
                                bf, p, edge, allowance, mover_id=-1, bodies=bases, jump_jets=True
                            )
                        )
                    ), (where, edge, allowance)
