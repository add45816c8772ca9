"""The NP side of missions in play: break-through exits, PEF spotting, reinforcements (§20-§23.8).

Every situation here comes from a generated mission played through ``game.play``; the player
side plays a passive policy (stay where it stands) so the NP side's own rules drive the play.
"""

from __future__ import annotations

import copy
import dataclasses
import math

import numpy as np
import pytest
import yaml

from wargym.rules.dice import FallbackDice, RandomDice
from wargym.rules.errors import TableError
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import Action, ActivateGroup, Move, Stay
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.flow_move import STEP
from wargym.rules.no_quarter.battle.game import seat_np_outside
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.cestus.cestus_v import campaign_definition
from wargym.rules.no_quarter.cestus.cestus_v_rolls import mission_scenario
from wargym.rules.no_quarter.forces.vocab import Faction, Rank, Side
from wargym.rules.no_quarter.mission.mission_play import new_mission, progress_of
from wargym.rules.no_quarter.mission.missions import AttackObjective
from wargym.rules.no_quarter.mission.reinforcements import parse_reinforcements
from wargym.rules.no_quarter.mission.scenario import load_scenario
from wargym.rules.no_quarter.non_player import np_events as npev
from wargym.rules.no_quarter.non_player.np_flow import (
    check_reinforcements,
    np_choose,
    pef_spotted_at,
    resolve_contact,
)
from wargym.rules.no_quarter.non_player.pef import PefMarker
from wargym.rules.no_quarter.non_player.pef_tables import parse_pef_config
from wargym.rules.no_quarter.sight_movement.geometry import distance
from wargym.rules.tables import load_config, parse_yaml


def _passive(options: list[Action]) -> Action:
    """Stay put (or the last listed choice: declining or the least action)."""
    stay = next((o for o in options if isinstance(o, Stay) and o.heading is None), None)
    if stay is not None:
        return stay
    return options[-1] if isinstance(options[-1], ActivateGroup) else options[0]


def _aside(options: list[Action]) -> Action:
    """Move out of the attacker's way, toward the south-east corner; else stay put."""
    moves = [o for o in options if isinstance(o, Move) and not o.jump]
    if moves:
        return max(moves, key=lambda o: (o.to[0] - o.to[1], o.to))
    return _passive(options)


def _break_through_defend(seed: int) -> tuple[Battle, RandomDice]:
    sc = load_scenario("defend_star_army_vs_hishen")
    sc = dataclasses.replace(sc, np_objective=AttackObjective.BREAK_THROUGH, turn_limit=40)
    dice = RandomDice.from_seed(seed)
    return new_mission(sc, np.random.default_rng(seed), dice), dice


def test_22_3_1_np_break_through_leaves_across_the_player_edge() -> None:
    """A Defend NP group breaking through leaves across the south edge of its own will.

    The player steps aside (toward the south-east corner) so the attackers can get through.

    Before the fix ``exit_options`` refused NP mechs, so no NP mech ever left by ``ExitTable``.
    """
    found = None
    for seed in range(12):
        battle, dice = _break_through_defend(seed)
        steps = 0
        while not battle.over and steps < 4000:
            options = game.legal_actions(battle)
            log = game.play(battle, _aside(options), dice)
            steps += 1
            for e in log:
                if (
                    isinstance(e, ev.MechMoved)
                    and e.kind == "exit"
                    and battle.mechs[e.mech].side is Side.RED
                ):
                    found = (battle, e.mech, log)
            if found:
                break
        if found:
            break
    assert found is not None, "no NP mech broke through in 12 generated Defend missions"
    battle, mech_id, log = found
    left = next(e for e in log if isinstance(e, ev.MechLeftTable) and e.mech == mech_id)
    assert left.edge == "south"
    assert battle.mechs[mech_id].removed is not None
    assert battle.mission is not None and battle.mission["exit_edges"][str(mech_id)] == "south"
    progress = progress_of(battle)
    assert progress.enemy.exited_south >= 1  # a voluntary exit that counts for 22.3.1
    assert progress.enemy.casualties < progress.enemy.fielded or progress.enemy.fielded == 1


# -- reinforcements (§23.8.2, §23.8.5) -------------------------------------------------------
def _reinforce(battle: Battle, faces: list[int], seed: int) -> list[object]:
    """Activation 6 + 1 = 7: blue may be reinforced; ``faces`` are the 23.8.1 dice."""
    ctx = Ctx(battle, FallbackDice(list(faces), np.random.default_rng(seed)), game.rules_of(battle))
    check_reinforcements(ctx, 6, 1)
    return list(ctx.log)


def _no_overlap(battle: Battle) -> None:
    live = [m for m in battle.mechs.values() if m.removed is None]
    for i, a in enumerate(live):
        for b in live[i + 1 :]:
            assert distance(a.pos, b.pos) >= 2 * battle.options.base_radius - 1e-6, (a.id, b.id)


def test_23_8_2_player_rest_of_platoon_is_sized_from_his_platoon() -> None:
    """The player's 'rest of platoon' is his platoon less the mechs he fielded, not the NP's."""
    battle = new_mission(
        "patrol_star_army_vs_hishen", np.random.default_rng(2), RandomDice.from_seed(2)
    )
    fielded = len(battle.mechs_of(Side.BLUE))
    platoon = game.rules_of(battle).formation_size(Faction.STAR_ARMY, "platoon")
    assert 0 < fielded < platoon
    # 2d6 (1, 1) vs CM passes 2: +0; Star Army table 1 + 3 = 4: rest of platoon
    log = _reinforce(battle, [1, 1, 1, 3], 5)
    checked = next(e for e in log if isinstance(e, npev.ReinforcementChecked))
    assert checked.unit == "rest_of_platoon"
    assert checked.mechs == platoon - fielded  # before: NP revealed 0 -> stepped down to a squad
    arrived = next(e for e in log if isinstance(e, npev.MechsArrived))
    assert len(arrived.mechs) == platoon - fielded
    ranks = [m.rank for m in arrived.mechs]
    assert ranks[0] is Rank.PLATOON_LEADER  # he comes with his Platoon Leader (§23.8.2)
    leader = battle.mechs[arrived.mechs[0].id]
    assert leader.rank is Rank.PLATOON_LEADER


def test_23_8_5_arrivals_on_taken_spots_shift_and_are_never_dropped() -> None:
    """Four platoons arriving on three edges: later ones find their spots taken and shift."""
    battle = new_mission(
        "patrol_star_army_vs_hishen", np.random.default_rng(2), RandomDice.from_seed(2)
    )
    platoon = game.rules_of(battle).formation_size(Faction.STAR_ARMY, "platoon")
    squad = game.rules_of(battle).formation_size(Faction.STAR_ARMY, "squad")
    team = game.rules_of(battle).formation_size(Faction.STAR_ARMY, "team")
    total = 0
    for k in range(4):
        # 2d6 (1, 1) passes 2; Star Army table 1 + 1 = 2: one platoon
        log = _reinforce(battle, [1, 1, 1, 1], 20 + k)
        checked = next(e for e in log if isinstance(e, npev.ReinforcementChecked))
        assert (checked.unit, checked.mechs) == ("one_platoon", platoon)
        arrived = next(e for e in log if isinstance(e, npev.MechsArrived))
        assert len(arrived.mechs) == platoon  # nobody dropped
        total += len(arrived.mechs)
        ranks = [m.rank for m in arrived.mechs]
        assert ranks[0] is Rank.PLATOON_LEADER
        assert ranks.count(Rank.SQUAD_LEADER) == platoon // squad - 1
        assert ranks.count(Rank.TEAM_LEADER) == platoon // team - platoon // squad
        _no_overlap(battle)
    assert total == 4 * platoon


def test_20_3_a_big_contact_is_placed_whole_no_nearer_than_its_marker() -> None:
    """A contact bigger than 25 mechs stands whole, no nearer the trigger than the marker
    where it can (§20.3 ruling)."""
    mission = campaign_definition().missions[6]  # Cestus V Mission 7: the whole Company
    battle = new_mission(
        mission_scenario(mission), np.random.default_rng(4), RandomDice.from_seed(4)
    )
    assert battle.np is not None and battle.np["pefs"]
    player = battle.mechs_of(Side.BLUE)
    assert len(player) > 25
    raw = battle.np["pefs"][0]
    marker = PefMarker(raw["id"], (raw["pos"][0], raw["pos"][1]), raw["building"])
    # resolution 2d6 (1, 1): contact; Mission 7 contact size face 6: triggering force + 3
    ctx = Ctx(battle, FallbackDice([1, 1, 6], np.random.default_rng(3)), game.rules_of(battle))
    resolve_contact(ctx, marker, [m.id for m in player], np_moving=False)
    resolved = next(e for e in ctx.log if isinstance(e, npev.PefResolved))
    assert resolved.result == "contact" and resolved.enemies == len(player) + 3
    arrived = next(e for e in ctx.log if isinstance(e, npev.MechsArrived))
    assert len(arrived.mechs) == resolved.enemies  # before: at most 25 spots
    floor = min(distance(marker.pos, m.pos) for m in player)
    leader = arrived.mechs[0]
    assert distance(leader.pos, marker.pos) <= 2.0  # on the marker or just off a taken one
    # no nearer the triggering force than the marker while such a legal spot is left: the
    # mechs that do stand nearer (a strip along the edge fills up) come after all others
    far = [min(distance(n.pos, m.pos) for m in player) >= floor - 1e-6 for n in arrived.mechs[1:]]
    assert far[0] and far == sorted(far, reverse=True)
    _no_overlap(battle)


# -- PEFs spotted during a move (§20.1, §20.3) -----------------------------------------------
def _samples(a: tuple[float, float], z: tuple[float, float]) -> list[tuple[float, float]]:
    n = max(1, math.ceil(distance(a, z) / STEP))
    return [(a[0] + (z[0] - a[0]) * i / n, a[1] + (z[1] - a[1]) * i / n) for i in range(1, n + 1)]


def test_20_3_a_pef_is_spotted_where_a_move_first_sees_it_not_where_it_ends() -> None:
    """A player move that passes a point in view of a PEF (or of a PEF-making building) and
    ends out of view stops at that point, and the PEF is dealt with there (§20.1, §20.3)."""
    found = None
    for name in ("patrol_star_army_vs_hishen", "attack_iss_vs_hishen"):
        for seed in range(6):
            dice = RandomDice.from_seed(seed)
            battle = new_mission(name, np.random.default_rng(seed), dice)
            for _ in range(40):  # past the group orders (E19) to the first mech action
                options = game.legal_actions(battle)
                if any(isinstance(o, Move) for o in options):
                    break
                game.play(battle, options[0], dice)
            for move in game.legal_actions(battle):
                if not isinstance(move, Move) or move.jump or move.reverse:
                    continue
                start = battle.mechs[move.mech].pos
                flags = [pef_spotted_at(battle, move.mech, p) for p in _samples(start, move.to)]
                if any(flags[:-1]) and not flags[-1]:
                    found = (battle, dice, move, _samples(start, move.to)[flags.index(True)])
                    break
            if found:
                break
        if found:
            break
    assert found is not None, "no generated mission offered a move past a PEF"
    battle, dice, move, first = found
    log = game.play(battle, move, dice)
    moved = next(e for e in log if isinstance(e, ev.MechMoved) and e.mech == move.mech)
    assert moved.path[-1] == pytest.approx(first)  # before: it walked on to move.to
    assert any(
        isinstance(e, npev.PefResolved)
        or (isinstance(e, npev.PefPlaced) and e.building is not None)
        for e in log
    )


# -- bad tables (docs/bad_input.md section 3) -------------------------------------------------
def test_20_3_arrival_table_rejects_a_search_step_of_zero() -> None:
    good = load_config("rules/no_quarter/pef.yaml").value
    broken = copy.deepcopy(good)
    broken["arrival"]["search_step_in"] = 0
    with pytest.raises(TableError, match=r"pef.yaml.*arrival.search_step_in.*positive"):
        parse_pef_config(parse_yaml(yaml.safe_dump(broken), "pef.yaml"))
    missing = copy.deepcopy(good)
    del missing["arrival"]
    with pytest.raises(TableError, match="arrival"):
        parse_pef_config(parse_yaml(yaml.safe_dump(missing), "pef.yaml"))
    assert load_config("rules/no_quarter/pef.yaml").value == good  # the file is unchanged


def test_23_8_2_unit_leaders_table_rejects_unknown_units_and_ranks() -> None:
    good = load_config("rules/no_quarter/reinforcements.yaml").value
    rank = copy.deepcopy(good)
    rank["unit_leaders"]["one_team"] = ["general_" + "x" * 200]
    with pytest.raises(TableError, match=r"reinforcements.yaml.*unit_leaders.one_team") as info:
        parse_reinforcements(parse_yaml(yaml.safe_dump(rank), "reinforcements.yaml"))
    assert len(str(info.value)) < 400
    unit = copy.deepcopy(good)
    unit["unit_leaders"]["one_army"] = ["team_leader"]
    with pytest.raises(TableError, match="one_army"):
        parse_reinforcements(parse_yaml(yaml.safe_dump(unit), "reinforcements.yaml"))


# -- NP activation order (§22.4) --------------------------------------------------------------
def test_22_4_np_groups_activate_farthest_first_whatever_their_leaders_rep() -> None:
    """Every NP group whose leader passes the die is offered, and the farthest acts first,
    even when a nearer group's leader has the higher Rep (before: only the top Rep tier)."""
    checked = 0
    for seed in range(30):
        dice = RandomDice.from_seed(seed)
        battle = new_mission(
            "attack_iss_vs_hishen", np.random.default_rng(seed), dice, prepare=seat_np_outside
        )
        steps = 0
        while not battle.over and steps < 3000 and not checked:
            decision = game.decider(battle)
            assert decision is not None
            options = game.legal_actions(battle)
            steps += 1
            if decision.side is Side.BLUE:
                game.play(battle, _passive(options), dice)
                continue
            if decision.kind.value == "activate_group":
                frame = battle.frames[-1]
                die = battle.dice[Side.RED]
                live = [
                    [i for i in g if battle.mechs[i].on_table]
                    for k, g in enumerate(frame["groups"])
                    if k not in frame["done"]
                ]
                leaders = [max(g, key=lambda i: battle.mechs[i].rep) for g in live if g]
                reps = {battle.mechs[i].rep for i in leaders if battle.mechs[i].rep >= die}
                offered = {o.leader for o in options if isinstance(o, ActivateGroup)}
                if len(reps) > 1:
                    assert len(offered) > 1  # every eligible group, not just the top Rep tier
                    checked += 1
            ctx = Ctx(battle, dice, game.rules_of(battle))
            action = np_choose(ctx, options)
            game.play(battle, action, dice)
        if checked:
            break
    assert checked, "no generated Attack mission had two NP groups of different Rep eligible"
