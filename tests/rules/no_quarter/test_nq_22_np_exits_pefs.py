"""The NP side of missions in play: break-through exits, PEF spotting, reinforcements (§20-§23.8).

Every situation here comes from a generated mission played through ``game.play``; the player
side plays a passive policy (stay where it stands) so the NP side's own rules drive the play.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter import events as ev
from wargym.rules.no_quarter import game
from wargym.rules.no_quarter.actions import Action, ActivateGroup, Stay
from wargym.rules.no_quarter.mission_play import new_mission, progress_of
from wargym.rules.no_quarter.missions import AttackObjective
from wargym.rules.no_quarter.scenario import load_scenario
from wargym.rules.no_quarter.state import Battle
from wargym.rules.no_quarter.vocab import Side


def _passive(options: list[Action]) -> Action:
    """Stay put (or the last listed choice: declining or the least action)."""
    stay = next((o for o in options if isinstance(o, Stay) and o.heading is None), None)
    if stay is not None:
        return stay
    return options[-1] if isinstance(options[-1], ActivateGroup) else options[0]


def _break_through_defend(seed: int) -> tuple[Battle, RandomDice]:
    sc = load_scenario("defend_star_army_vs_hishen")
    sc = dataclasses.replace(sc, np_objective=AttackObjective.BREAK_THROUGH)
    dice = RandomDice.from_seed(seed)
    return new_mission(sc, np.random.default_rng(seed), dice), dice


def test_22_3_1_np_break_through_leaves_across_the_player_edge() -> None:
    """A Defend NP group breaking through leaves across the south edge of its own will.

    Before the fix ``exit_options`` refused NP mechs, so no NP mech ever left by ``ExitTable``.
    """
    found = None
    for seed in range(12):
        battle, dice = _break_through_defend(seed)
        steps = 0
        while not battle.over and steps < 4000:
            options = game.legal_actions(battle)
            log = game.play(battle, _passive(options), dice)
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
