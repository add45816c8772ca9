"""Losses per mech, Nerves of Steel on every Duck Back, YAML values read by the engine.

Issue 15, items 9, 11 and 14 (§9.6.4, §12, §16.2, §16.3.3, ruling D-list of the digest):
hand-built battles on an open table, played through ``game.play`` with every die scripted.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.events import Event
from wargym.rules.no_quarter import events as ev
from wargym.rules.no_quarter import game
from wargym.rules.no_quarter.actions import Action, ActivateGroup, AssignFire, EndFire, FireFirst
from wargym.rules.no_quarter.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.state import LOCATIONS, Battle, BattleOptions
from wargym.rules.no_quarter.terrain import Battlefield, Feature
from wargym.rules.no_quarter.vocab import Attribute, Faction, Location, Removal, Side, Status
from wargym.rules.no_quarter.vocab import Terrain

PDF_WALL = Feature(Terrain.BUILDING, 21.0, 25.0, 25.0, 29.0, building_armor=3)


def _battle(blue: list[str], red: list[str], *, options: BattleOptions | None = None) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, tuple(blue), use_attributes=False),
        ForceSpec(Side.RED, Faction.PDF, tuple(red), use_attributes=False),
    ]
    battle = new_battle(
        forces,
        Battlefield(features=(PDF_WALL,)),
        np.random.default_rng(0),
        RandomDice.from_seed(0),
        options=options or BattleOptions(),
    )
    for mech in battle.mechs.values():
        rep = 5 if mech.side is Side.BLUE else 4
        mech.rep = rep
        mech.pilot = dataclasses.replace(mech.pilot, rep=rep)
    return battle


def _place(battle: Battle, mech: int, pos: tuple[float, float], heading: float) -> None:
    battle.mechs[mech].pos, battle.mechs[mech].heading = pos, heading


def _play(battle: Battle, dice: ScriptedDice, actions: list[Action]) -> list[Event]:
    log = list(game.advance(battle, dice))
    for action in actions:
        log.extend(game.play(battle, action, dice))
    return log


def _kill_the_friend(tester: tuple[float, float]) -> Battle:
    """Blue #0 will shoot red #1 (gut armour 1) dead; red #2 stands near it."""
    battle = _battle(["star_army_c3"], ["pdf_c1", "pdf_c1"])
    _place(battle, 0, (10.0, 22.0), 0.0)
    _place(battle, 1, (18.5, 20.0), 180.0)
    _place(battle, 2, tester, 180.0)
    battle.mechs[1].armor[LOCATIONS.index(Location.GUT)] = 1
    return battle


# activation 5:4; PPG to-hit 6 (11: hit), location 4+4 (gut), damage 1, 2 vs Impact 5 (pass 2):
# the gut reaches 0, the mech is inoperable.
KILL_DICE = [5, 4, 6, 4, 4, 1, 2]
SHOOT = [ActivateGroup(0), FireFirst(0), AssignFire(0, 0, 1), EndFire(0)]


def _lost(battle: Battle, side: Side) -> int:
    """Mechs of ``side`` destroyed, inoperable or given Leave the Battlefield (§16.2)."""
    return sum(
        1
        for m in battle.mechs.values()
        if m.side is side
        and (
            m.status is Status.LEAVE_BATTLEFIELD
            or (m.removed is not None and m.removed is not Removal.LEFT_TABLE)
        )
    )


# -- §16.3.3 / §16.2: a loss counts once per mech ---------------------------------------
def test_16_3_3_a_leaving_mech_stays_leaving_and_counts_once() -> None:
    """Red #2 already Leaves; its friend's loss neither tests it nor ducks it back."""
    battle = _kill_the_friend((21.0, 22.0))
    battle.apply(ev.StatusChanged(2, Status.LEAVE_BATTLEFIELD, "earlier result"))
    assert battle.losses[Side.RED] == 1
    # pass 1 would be Duck Back for a tester; a Leaving mech takes no test (§16.3.3)
    dice = ScriptedDice([*KILL_DICE, 1, 6])
    log = _play(battle, dice, SHOOT)
    assert battle.mechs[1].removed is not None
    assert not [e for e in log if isinstance(e, ev.ReactionTaken) and e.mech == 2]
    assert battle.mechs[2].status is Status.LEAVE_BATTLEFIELD
    assert battle.losses[Side.RED] == _lost(battle, Side.RED) == 2
    battle.apply(ev.MechRemoved(2, Removal.DESTROYED, Side.RED, 1))
    assert battle.losses[Side.RED] == _lost(battle, Side.RED) == 2


def test_16_2_losses_count_each_mech_once_whatever_the_event_order() -> None:
    """Leave, a later status, then destruction: one loss; a removed mech's status: none."""
    battle = _battle(["star_army_c3"], ["pdf_c1", "pdf_c1"])
    battle.apply(ev.StatusChanged(1, Status.LEAVE_BATTLEFIELD, "fired_on result"))
    battle.apply(ev.StatusChanged(1, Status.DUCK_BACK, "ranged damage pass 0"))
    battle.apply(ev.StatusChanged(1, Status.LEAVE_BATTLEFIELD, "fired_on result"))
    battle.apply(ev.MechRemoved(1, Removal.DESTROYED, Side.RED, 1))
    battle.apply(ev.MechRemoved(2, Removal.INOPERABLE, Side.RED, 1))
    battle.apply(ev.StatusChanged(2, Status.LEAVE_BATTLEFIELD, "late result"))
    assert battle.losses[Side.RED] == 2
    assert battle.losses[Side.BLUE] == 0
