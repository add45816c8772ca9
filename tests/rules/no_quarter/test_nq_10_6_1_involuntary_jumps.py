"""Jumps in Duck Back and Leave the Battlefield moves (§10.6.1, rulings D9, D10, D28), and
flames crossed by free and involuntary moves (§10.4.2, ruling D27).

A mech with operable jump jets may jump "at any point of any move (active or reaction)": its
Duck Back reaches cover behind a building it could not walk round, its Leave move jumps the
building that stops it. The jumped segment ignores obstacles and terrain, costs its length,
lands on a legal spot and keeps the heading, except that a Duck Back ends facing away from
its cause (D9).
"""

from __future__ import annotations

import numpy as np
import pytest

from wargym.rules.dice import FallbackDice, RandomDice
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.consequences import duck_back, leave_battlefield
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Side, Status, Terrain
from wargym.rules.no_quarter.sight_movement.geometry import heading_to
from wargym.rules.no_quarter.sight_movement.sight import sight


def _row(x0: float, x1: float, y0: float, y1: float) -> tuple[Feature, ...]:
    """Buildings side by side (each at most 6" wide, §19.4.1) from ``x0`` to ``x1``."""
    n = int(np.ceil((x1 - x0) / 6.0))
    w = (x1 - x0) / n
    return tuple(
        Feature(Terrain.BUILDING, x0 + i * w, y0, x0 + (i + 1) * w, y1, building_armor=3)
        for i in range(n)
    )


WALL = _row(8.0, 28.0, 15.0, 16.0)
"""A long wall right behind the mech at (18, 14): walking round it is more than 6"."""
BLOCK = _row(0.0, 36.0, 14.0, 16.0)
"""Buildings across the whole table between the mech at (18, 18) and its home (south) edge."""


def _battle(design: str, field: Battlefield) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.FREE_COMPANY, (design,), use_attributes=False),
        ForceSpec(Side.RED, Faction.HISHEN, ("hishen_c3",), use_attributes=False),
    ]
    battle = new_battle(forces, field, np.random.default_rng(0), RandomDice.from_seed(0))
    battle.mechs[0].pos, battle.mechs[0].heading = (18.0, 14.0), 270.0
    battle.mechs[1].pos, battle.mechs[1].heading = (18.0, 8.0), 90.0
    return battle


def _ctx(battle: Battle, faces: list[int] | None = None) -> Ctx:
    return Ctx(battle, FallbackDice(faces or [], np.random.default_rng(3)), load_rules())


def _moves(ctx: Ctx) -> list[ev.MechMoved]:
    return [e for e in ctx.log if isinstance(e, ev.MechMoved)]


def test_10_6_1_duck_back_jumps_over_a_building_into_cover() -> None:
    battle = _battle("free_company_c3", Battlefield(features=WALL))
    mech, cause = battle.mechs[0], battle.mechs[1]
    assert mech.has_jump_jets
    ctx = _ctx(battle)
    duck_back(ctx, mech, cause, "fired_on result")
    (moved,) = _moves(ctx)
    assert moved.kind == "duck_back" and moved.jumped
    end = moved.path[-1]
    assert end[1] >= 16.5 - 1e-9  # landed beyond the wall, clear of it
    assert moved.inches <= 6.0 + 1e-9  # min(6", Speed): the jump costs its length (D28)
    assert moved.cost == pytest.approx(moved.inches)
    assert mech.pos == end and mech.status is Status.DUCK_BACK
    assert moved.heading == pytest.approx(heading_to(cause.pos, end))  # away from the cause (D9)
    hidden = next(e for e in ctx.log if isinstance(e, ev.DuckedBack))
    assert hidden.in_cover


def test_10_6_1_duck_back_without_jump_jets_stops_at_the_wall() -> None:
    battle = _battle("free_company_c1", Battlefield(features=WALL))  # no jump jets
    mech, cause = battle.mechs[0], battle.mechs[1]
    assert not mech.has_jump_jets
    ctx = _ctx(battle)
    duck_back(ctx, mech, cause, "fired_on result")
    (moved,) = _moves(ctx)
    assert not moved.jumped
    assert moved.path[-1][1] <= 14.5 + 1e-6  # straight away, stopped by the wall (D9)


def test_10_6_1_duck_back_walks_when_a_walk_reaches_the_cover() -> None:
    # woods 1" away give cover to a mech that moves in: a walk gets there, no jump is made
    woods = Feature(Terrain.WOODS, 19.0, 12.0, 25.0, 18.0)
    battle = _battle("free_company_c3", Battlefield(features=(woods,)))
    ctx = _ctx(battle)
    duck_back(ctx, battle.mechs[0], battle.mechs[1], "fired_on result")
    (moved,) = _moves(ctx)
    assert not moved.jumped
    assert woods.contains(moved.path[-1]) and moved.inches <= 1.5


def test_10_6_1_leave_the_battlefield_jumps_the_building_in_its_way() -> None:
    # a wide building between the mech and its edge: walking, it cannot get past this move
    battle = _battle("free_company_c3", Battlefield(features=BLOCK))
    mech = battle.mechs[0]
    mech.pos, mech.heading = (18.0, 18.0), 90.0  # facing the enemy to the north
    battle.mechs[1].pos = (18.0, 28.0)
    ctx = _ctx(battle)
    leave_battlefield(ctx, mech, "fired_on result")
    moved = _moves(ctx)[0]
    assert moved.kind == "leave" and moved.jumped
    assert moved.path[-1][1] <= 13.5 + 1e-9  # landed beyond the building (D10: home edge)
    assert moved.inches <= mech.speed + 1e-9
    assert moved.heading == 90.0  # a jump lands facing as before (§10.6.1, D28)


def test_10_6_1_leave_without_jump_jets_is_stopped_by_the_building() -> None:
    battle = _battle("free_company_c1", Battlefield(features=BLOCK))
    mech = battle.mechs[0]
    mech.pos = (18.0, 18.0)
    battle.mechs[1].pos = (18.0, 28.0)
    ctx = _ctx(battle)
    leave_battlefield(ctx, mech, "fired_on result")
    assert all(not m.jumped and m.path[-1][1] > 16.0 for m in _moves(ctx))


def test_10_4_2_d27_a_leave_move_off_the_table_crosses_flames_first() -> None:
    battle = _battle("free_company_c1", Battlefield())
    mech = battle.mechs[0]
    mech.pos = (18.0, 3.0)  # 3" from its home (south) edge, the enemy to the north
    battle.mechs[1].pos = (18.0, 20.0)
    battle.flames = [((10.0, 1.5), (26.0, 1.5))]  # a strip along the south edge
    ctx = _ctx(battle, [3, 4, 6, 6])  # location 7 = chest; 6+6 vs Impact 3: pass 0
    leave_battlefield(ctx, mech, "fired_on result")
    kinds = [type(e).__name__ for e in ctx.log]
    assert "FlameCrossed" in kinds and "MechLeftTable" in kinds
    assert kinds.index("FlameCrossed") < kinds.index("MechLeftTable")
    assert mech.removed is not None


def test_10_4_2_d27_a_duck_back_crosses_flames() -> None:
    battle = _battle("free_company_c1", Battlefield())
    battle.flames = [((10.0, 15.5), (26.0, 15.5))]  # across its run away from the cause
    ctx = _ctx(battle, [3, 4, 6, 6])
    duck_back(ctx, battle.mechs[0], battle.mechs[1], "fired_on result")
    assert any(isinstance(e, ev.FlameCrossed) for e in ctx.log)


def test_10_6_1_the_wall_blocks_sight_from_the_cause() -> None:
    """The set-up above: behind the wall the mech is out of the cause's sight."""
    bf = Battlefield(features=WALL)
    assert not sight(bf, (18.0, 8.0), (18.0, 17.0), observer_id=1, target_id=0).visible


def test_10_4_2_d27_a_free_in_sight_move_crosses_flames() -> None:
    """The triggering force's free 2" move (§16.1.3) is a move: it rolls for flames (D27)."""
    from wargym.rules.no_quarter.battle.actions import FreeMove
    from wargym.rules.no_quarter.battle.flow import insight_frame
    from wargym.rules.no_quarter.battle.flow_move import insight_act

    battle = _battle("free_company_c1", Battlefield())
    mech = battle.mechs[0]
    battle.flames = [((10.0, 15.0), (26.0, 15.0))]  # a strip 1" north of the mech
    frame = insight_frame(mech.id, Side.BLUE, [1])
    frame["free"] = [mech.id]
    battle.frames = [frame]
    ctx = _ctx(battle, [3, 4, 6, 6])  # chest; 6+6 vs Impact 3: pass 0
    insight_act(ctx, frame, FreeMove(mech.id, (18.0, 16.0)))
    assert [type(e).__name__ for e in ctx.log][:2] == ["MechMoved", "FlameCrossed"]
    assert any(isinstance(e, ev.DamageRolled) and e.versus == 3 for e in ctx.log)
