"""Worked example tv29 (book 12.0): who commands the Hishen as leaders come and go.

A Team alone: its Team Leader commands; with a 2nd Team (a Squad) the Squad Leader; a
Platoon: the Platoon Leader; the Platoon Leader dies: the 1st Squad Leader takes over (then
the 2nd, then the 3rd; ``leaders.yaml``). The Platoon Leader leads his own (1st) Squad
(``leaders.initial_ranks``), so the first Squad Leader after him is that of the 2nd Squad.
"""

from __future__ import annotations

import numpy as np

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.consequences import remove
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.state import Battle, Mech
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.leaders import commands, squad_of
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Rank, Removal, Side

RULES = load_rules()


def _hishen(mechs: int) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",), use_attributes=False),
        ForceSpec(Side.RED, Faction.HISHEN, ("hishen_c3",) * mechs, use_attributes=False),
    ]
    battle = new_battle(forces, Battlefield(), np.random.default_rng(0), RandomDice.from_seed(0))
    for i, mech in enumerate(battle.mechs_of(Side.RED)):
        mech.pos = (2.0 + 2.0 * (i % 16), 30.0 + 2.0 * (i // 16))
    return battle


def _commander(battle: Battle) -> Mech:
    """The red mech of the highest rank in play (ties: lowest id)."""
    ranked = [m for m in battle.mechs_of(Side.RED) if m.rank is not None and m.removed is None]
    return max(ranked, key=lambda m: (m.rank.order, -m.id))  # type: ignore[union-attr]


def test_12_0_tv29_a_team_alone_is_commanded_by_its_team_leader() -> None:
    battle = _hishen(3)
    top = _commander(battle)
    assert top.rank is Rank.TEAM_LEADER
    assert [m.rank for m in battle.mechs_of(Side.RED)].count(Rank.TEAM_LEADER) == 1


def test_12_0_tv29_a_second_team_brings_the_squad_leader_who_commands() -> None:
    battle = _hishen(6)
    top = _commander(battle)
    assert top.rank is Rank.SQUAD_LEADER
    assert all(commands(RULES, top, m) for m in battle.mechs_of(Side.RED) if m.id != top.id)


def test_12_0_tv29_the_platoon_leader_commands_then_the_squad_leaders_in_order() -> None:
    battle = _hishen(18)  # Hishen: 2 Teams a Squad, 3 Squads a Platoon (table 11.0)
    red = battle.mechs_of(Side.RED)
    platoon_leader = _commander(battle)
    assert platoon_leader.rank is Rank.PLATOON_LEADER
    squad_leaders = sorted(
        (m for m in red if m.rank is Rank.SQUAD_LEADER), key=lambda m: squad_of(RULES, m)
    )
    assert [squad_of(RULES, m) for m in squad_leaders] == [1, 2]  # he leads the 1st Squad
    ctx = Ctx(battle, ScriptedDice([]), RULES)
    remove(ctx, platoon_leader, Removal.DESTROYED)
    appointed = [e for e in ctx.log if isinstance(e, ev.LeaderAppointed)]
    took = {e.rank: e.mech for e in appointed}
    assert took[Rank.PLATOON_LEADER.value] == squad_leaders[0].id
    assert battle.mechs[squad_leaders[0].id].rank is Rank.PLATOON_LEADER
    assert _commander(battle).id == squad_leaders[0].id
    # and when he falls too, the next Squad Leader
    ctx = Ctx(battle, ScriptedDice([]), RULES)
    remove(ctx, battle.mechs[squad_leaders[0].id], Removal.DESTROYED)
    took = {e.rank: e.mech for e in ctx.log if isinstance(e, ev.LeaderAppointed)}
    assert took[Rank.PLATOON_LEADER.value] == squad_leaders[1].id
    assert _commander(battle).id == squad_leaders[1].id
