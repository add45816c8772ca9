"""Cestus V missions in play: the hooks that make a mission more than a generic §22 one (§27).

:mod:`wargym.rules.no_quarter.mission.mission_play` calls these when ``battle.mission["cestus"]``
holds a mission number: deployment and home edges, the opening PEFs of Missions 6-8, the
mission's own PEF Resolution and Enemy/Star Army Force tables, The Troll (Mission 2), the
exits that count, the bridge and village counters, and the Cestus V objective evaluation.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from wargym.rules.dice import Dice, ScriptedDice
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.cestus.cestus_v import (
    CestusMission,
    CestusOptions,
    CestusProgress,
    bridgehead_counts,
    campaign_definition,
    cestus_evaluate,
    counts_as_objective_exit,
    is_forbidden_exit,
    on_bridge,
    player_exit_edges,
    village_checked,
)
from wargym.rules.no_quarter.cestus.cestus_v_records import (
    MapFeature,
    PefPlacementKind,
    TrollPlacement,
)
from wargym.rules.no_quarter.cestus.cestus_v_rolls import (
    cestus_force,
    force_table,
    pef_contact_deltas,
    pef_entry_points,
    roll_troll,
    troll_force,
    troll_position,
)
from wargym.rules.no_quarter.forces.data import NoQuarterRules
from wargym.rules.no_quarter.forces.vocab import Faction, Side
from wargym.rules.no_quarter.mission.missions import MissionProgress, Outcome
from wargym.rules.no_quarter.non_player import np_events as npev
from wargym.rules.no_quarter.non_player.pef_tables import NpEnemyForce
from wargym.rules.no_quarter.sight_movement.sight import sight


def cestus_of(battle: Battle) -> CestusMission | None:
    """The Cestus V mission being played, if any."""
    mission = battle.mission
    if mission is None or not mission.get("cestus"):
        return None
    return campaign_definition().mission(int(mission["cestus"]))


def contact_deltas(battle: Battle) -> dict[int, int] | None:
    """The mission's own PEF Resolution table (§27.8), or None for the generic one."""
    mission = cestus_of(battle)
    return None if mission is None else dict(pef_contact_deltas(mission))


def np_force(
    battle: Battle,
    count: int,
    faction: Faction,
    dice: Dice,
    role: str = "np",
    *,
    rules: NoQuarterRules | None = None,
) -> NpEnemyForce | None:
    """What arrives, from the mission's Enemy / Star Army Force table (§27.6).

    ``rules``: the battle's rule tables, so that only designs offered under its options arrive.
    """
    mission = cestus_of(battle)
    if mission is None:
        return None
    table = force_table(mission, "np" if role == "np" else "player")
    return cestus_force(count, faction, dice, table, rules=rules)


def exit_edges(battle: Battle) -> tuple[str, ...] | None:
    """Edges a player mech may leave by now (§27.8), or None for the generic rule."""
    mission = cestus_of(battle)
    return None if mission is None else player_exit_edges(mission, battle.turn)


def note_exit(battle: Battle, pos: tuple[float, float], edge: str, player: bool) -> None:
    """Count objective exits of the player and forbidden exits of the NP side (§27.8)."""
    mission = cestus_of(battle)
    if mission is None or battle.mission is None:
        return
    if player and counts_as_objective_exit(mission, pos, edge, battle.turn):
        battle.mission["objective_exits"] = int(battle.mission.get("objective_exits", 0)) + 1
    if not player and is_forbidden_exit(mission, pos, edge):
        key = "enemy_forbidden_exits"
        battle.mission[key] = int(battle.mission.get(key, 0)) + 1


def note_moves(battle: Battle) -> None:
    """Mission 8: player mechs that stood on the bridge count for the far bank (§27.8)."""
    mission = cestus_of(battle)
    if mission is None or battle.mission is None or not mission.objective.bridge:
        return
    crossed = set(battle.mission.get("crossed", []))
    for mech in battle.mechs_of(Side.BLUE):
        if on_bridge(mission, mech.pos):
            crossed.add(mech.id)
    battle.mission["crossed"] = sorted(crossed)


def _troll_targets(battle: Battle) -> list[tuple[float, float]] | None:
    """Points of the bridge whose sight rolls for The Troll now, or None: no test is due."""
    mission = cestus_of(battle)
    if mission is None or mission.special.troll is None or battle.mission is None:
        return None
    state = battle.mission.get("troll", {"done": False})
    if state["done"] or state.get("tested") == _player_activation(battle):
        return None  # after a 5-6: test again at a later player activation only (2.0.6 ruling)
    bx0, by0, bx1, by1 = mission.feature(mission.special.troll.bridge).rect
    return [((bx0 + bx1) / 2, (by0 + by1) / 2), (bx0, by0), (bx1, by1), (bx0, by1), (bx1, by0)]


def _sees_bridge(
    battle: Battle, mech_id: int, at: tuple[float, float], targets: list[tuple[float, float]]
) -> bool:
    mech = battle.mechs[mech_id]
    return any(
        sight(
            battle.battlefield, at, point, observer_id=mech_id,
            observer_has_ews=mech.has_functioning_ews,
        ).visible
        for point in targets
    )  # fmt: skip


def troll_due_at(battle: Battle, mech_id: int, point: tuple[float, float]) -> bool:
    """Whether player mech ``mech_id`` standing at ``point`` rolls for The Troll (2.0.6).

    A move is checked with this every inch (``np_flow.pef_spotted_at``): it stops where a
    player mech first has LOS to the bridge, and the test is rolled there.
    """
    targets = _troll_targets(battle)
    if targets is None or battle.mechs[mech_id].side is not Side.BLUE:
        return False
    return _sees_bridge(battle, mech_id, point, targets)


def troll_check(ctx: Ctx) -> None:
    """Mission 2: the first player LOS to the bridge rolls for The Troll (§27.8, 2.0.6).

    Called after every player move, at the inch of a move where LOS first exists
    (:func:`troll_due_at`) and at the start of each player group activation (``flow_turn``).
    After a 5-6 the test is repeated once in each later player group activation that has LOS
    (``troll.tested`` keeps the activation tested last), until a Troll appears.
    """
    battle = ctx.battle
    mission = cestus_of(battle)
    targets = _troll_targets(battle)
    if mission is None or mission.special.troll is None or battle.mission is None:
        return
    if targets is None or not any(
        _sees_bridge(battle, mech.id, mech.pos, targets) for mech in battle.mechs_of(Side.BLUE)
    ):
        return
    state = battle.mission.setdefault("troll", {"done": False})
    state["tested"] = _player_activation(battle)
    result = roll_troll(mission, ctx.dice)
    ctx.emit(npev.NpTableRolled("troll", None, (result.face,), None, result.placement.value))
    if result.placement is TrollPlacement.NONE:
        return  # test again at the next player activation (2.0.6)
    state["done"] = True
    np = battle.np
    assert np is not None
    from wargym.rules.no_quarter.non_player.np_flow import arrive_force

    pos, heading = troll_position(mission, result.placement)
    force = troll_force(mission, Faction(np["faction"]), ctx.dice)
    arrive_force(ctx, Side(np["side"]), force, pos, heading, "troll")
    np["contact_so_far"] = True


def _player_activation(battle: Battle) -> list[Any]:
    """[turn, members] of the player group activation under way ([turn, []] outside one)."""
    for frame in reversed(battle.frames):
        if frame.get("kind") == "group" and frame.get("side") == Side.BLUE.value:
            return [battle.turn, sorted(frame["members"])]
    return [battle.turn, []]


def opening_pefs(ctx: Ctx, mission: CestusMission) -> None:
    """Missions 6-8 place their own opening PEFs, after the player's set-up (§27.8 N.0.4).

    Missions 6/7 roll a section per PEF (``pef_entry_points``); Mission 8 puts one in each of
    sections 1, 4 and 5 with no die and hides it there as 20.0 step 2 does for a rolled one.
    """
    battle = ctx.battle
    np = battle.np
    assert np is not None
    if PefPlacementKind(mission.pef_placement.kind) is not PefPlacementKind.FIXED_SECTIONS:
        for i, (face, section, point) in enumerate(pef_entry_points(mission, ctx.dice)):
            ctx.emit(npev.PefPlaced(i, point, face or None, section, False, None))
        return
    from wargym.rules.no_quarter.non_player.pef import place_pefs, spotters_of
    from wargym.rules.no_quarter.sight_movement.perception import bodies

    side = Side(np["side"]).other
    spotters = spotters_of(battle, side)
    edge = battle.home_edges.get(side, "south")
    for i, section in enumerate(mission.pef_placement.sections):
        (placed,) = place_pefs(  # the section is given, not rolled: the script stands in
            battle.battlefield,
            spotters,
            ScriptedDice([section]),
            count=1,
            bodies=bodies(battle),
            player_edge=edge,
        )
        ctx.emit(npev.PefPlaced(i, placed.pos, None, section, placed.hidden, None))


def evaluate(
    battle: Battle, progress: MissionProgress, turn_limit: int | None, end_of_turn: bool
) -> Outcome | None:
    """The Cestus V objective evaluation, or None when not a Cestus mission (§27.8)."""
    mission = cestus_of(battle)
    if mission is None or battle.mission is None or battle.np is None:
        return None
    data = battle.mission
    players = [(m.id, m.pos) for m in battle.mechs_of(Side.BLUE)]
    enemies = [m.pos for m in battle.mechs_of(Side.RED)]
    pefs = [(p["pos"][0], p["pos"][1]) for p in battle.np["pefs"]]
    counts = bridgehead_counts(mission, players, enemies, pefs, data.get("crossed", []))
    cestus = CestusProgress.from_mission_progress(
        progress,
        mission.number,
        end_of_turn=end_of_turn,
        objective_exits=int(data.get("objective_exits", 0)),
        enemy_forbidden_exits=int(data.get("enemy_forbidden_exits", 0)),
        enemy_near_objective=counts.enemy_near_objective,
        pefs_near_objective=counts.pefs_near_objective,
        player_at_objective=counts.player_at_objective,
        village_checked=village_checked(mission, battle.np["used_buildings"], battle.battlefield),
    )
    return cestus_evaluate(mission, cestus, CestusOptions(turn_limit=turn_limit))


def _names_in(record: object) -> set[str]:
    """Every string (or string in a tuple) among a record's fields, one level of records deep."""
    out: set[str] = set()
    if record is None or not dataclasses.is_dataclass(record):
        return out
    for f in dataclasses.fields(record):
        value = getattr(record, f.name)
        if isinstance(value, str):
            out.add(value)
        elif isinstance(value, tuple):
            out.update(v for v in value if isinstance(v, str))
        elif dataclasses.is_dataclass(value):
            out |= _names_in(value)
    return out


def named_features(mission: CestusMission) -> tuple[MapFeature, ...]:
    """The map features a generated battlefield keeps (27.4 ruling).

    Those of the campaign's ``generated_terrain.keep_types`` and every feature the mission's
    objective or special rules name (the Troll's hill and bridge, Mission 9's crest hill).
    """
    keep = set(campaign_definition().generated_keep_types)
    named = _names_in(mission.objective) | _names_in(mission.special)
    return tuple(m for m in mission.map if m.type in keep or m.name in named)


def with_named_features(mission: CestusMission, generated: Battlefield) -> Battlefield:
    """A generated battlefield with the mission's named features forced in (27.4 ruling).

    The named features stand where the mission map puts them (in their stated sections),
    first and in map order; a generated feature that overlaps one of them is dropped.
    """
    forced = [f for m in named_features(mission) for f in m.features]

    def clear(g: Feature) -> bool:
        return all(g.x1 <= f.x0 or f.x1 <= g.x0 or g.y1 <= f.y0 or f.y1 <= g.y0 for f in forced)

    kept = [g for g in generated.features if clear(g)]
    return dataclasses.replace(generated, features=(*forced, *kept))


def start_state(mission: CestusMission) -> dict[str, Any]:
    """The Cestus V counters kept in ``battle.mission``."""
    return {
        "cestus": mission.number,
        "objective_exits": 0,
        "enemy_forbidden_exits": 0,
        "crossed": [],
        "troll": {"done": False},
    }
