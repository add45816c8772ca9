"""Per-action features "nq-af-v1": what each legal action leads to, for the deciding side.

An optional block of the No Quarter observation (``action_features=True``): for every index of
the flat action space, a few numbers about the action it stands for *now*, so that a policy
network can compare actions it cannot tell apart from the coarse planes alone (two move
indices that end 3" apart, one in woods). Rows (:data:`ACTION_FEATURES`):

* ``concealed``: the action's end point is concealing terrain (§19.1.1; moves, free moves,
  staying and firing in place);
* ``gap``: distance from that point to the nearest enemy in sight, / 36" (1 when none is seen);
* ``reach``: the share of enemies in sight within the acting mech's longest operable ranged
  weapon from that point (no line of sight test);
* ``weakness``: for actions that name an enemy mech (fire, charge, melee), 1 minus its armour
  fraction;
* ``exposed``: the share of enemies in sight with a line of sight to that point (§17.1; only
  own mechs and enemies in sight block lines, so unseen bases stay unseen);
* ``covered``: the share of enemies in sight for which the point, so seen, would be in cover
  (§17.2; woods count only for a mech that has not moved).

Zero for indices that are not legal now. Only the deciding side's legal options, its own mech,
the terrain and the enemies it sees are used, so the block reveals nothing hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from wargym.rules.no_quarter.battle.actions import FireFirst, FreeMove, Move, Stay
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.terrain import is_concealed
from wargym.rules.no_quarter.sight_movement.geometry import distance
from wargym.rules.no_quarter.sight_movement.perception import bodies
from wargym.rules.no_quarter.sight_movement.sight import in_cover, sight

AF_VERSION = "nq-af-v1"
"""Version of the per-action feature block."""
ACTION_FEATURES = ("concealed", "gap", "reach", "weakness", "exposed", "covered")
"""Feature rows of the block, in order."""
TABLE_SIZE = 36.0
"""Inches that scale ``gap``."""


def action_features(
    battle: Battle, table: Mapping[int, Any], n: int, seen: frozenset[int]
) -> np.ndarray:
    """``(len(ACTION_FEATURES), n)`` float32 features of the legal actions in ``table``."""
    out = np.zeros((len(ACTION_FEATURES), n), dtype=np.float32)
    if not table:
        return out
    mechs = battle.mechs
    foes = [mechs[i] for i in sorted(seen) if i in mechs and mechs[i].removed is None]
    enemies = [m.pos for m in foes]
    bf = battle.battlefield
    viewer = None if battle.decision is None else battle.decision.side
    known = [  # own mechs, enemies in sight and wrecks block lines; unseen bases do not
        b for b in bodies(battle) if b.id in seen or b.id not in mechs or mechs[b.id].side is viewer
    ]
    radius = battle.options.base_radius
    reach_of: dict[int, float] = {}
    for index, action in table.items():
        point = None
        if isinstance(action, Move):
            point = action.to
        elif isinstance(action, FreeMove):
            point = action.to if action.to is not None else mechs[action.mech].pos
        elif isinstance(action, Stay | FireFirst):
            point = mechs[action.mech].pos
        if point is not None:
            out[0, index] = float(is_concealed(bf, point))
            if enemies:
                gaps = [distance(point, e) for e in enemies]
                out[1, index] = min(1.0, min(gaps) / TABLE_SIZE)
                mech_id = action.mech
                if mech_id not in reach_of:
                    mech = mechs[mech_id]
                    reach_of[mech_id] = max(
                        (
                            float(mech.design.items[w].range or 0)
                            for w in mech.operable_ranged_weapons
                        ),
                        default=0.0,
                    )
                reach = reach_of[mech_id]
                out[2, index] = sum(1 for g in gaps if g <= reach) / len(gaps)
                moved = isinstance(action, Move | FreeMove) or mechs[mech_id].moved > 0
                exposed = covered = 0
                for foe in foes:
                    line = sight(bf, foe.pos, point, observer_id=foe.id, target_id=mech_id,
                                 bodies=known, observer_has_ews=foe.has_functioning_ews,
                                 base_radius=radius)  # fmt: skip
                    if line.visible:
                        exposed += 1
                        covered += in_cover(bf, line, point, target_moved=moved)
                out[4, index] = exposed / len(foes)
                out[5, index] = covered / len(foes)
            else:
                out[1, index] = 1.0
        target = getattr(action, "target", None)
        if isinstance(target, int) and target in mechs:
            enemy = mechs[target]
            total = max(1, sum(enemy.design.armor))
            out[3, index] = 1.0 - sum(enemy.armor) / total
    return out
