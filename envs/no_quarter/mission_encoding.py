"""Observations of a No Quarter mission from the player's point of view ("nq-obs-v4").

"nq-obs-v4" is "nq-obs-v3" (:mod:`.encoding`) with two changes, documented in
``docs/encodings.md``:

* the ``markers`` plane shows the PEF markers on the table (positions only: their contents
  are rolled when they resolve, §20.3);
* :data:`MISSION_FIELDS` are appended to the globals: the mission kind, its turn limit and
  the turns left, the viewer's own Campaign Morale, the player's own Attack objective, the
  sections reconnoitred, the edges the viewer may leave by, own mechs that left by them and
  the number of PEFs on the table.

It never shows the NP side's secret objective (22.3.1), NP group postures and orders,
unresolved PEF contents or enemies out of sight. Enemy slots (unit rows, action targets)
follow the order in which the viewer first saw each enemy (:class:`SightingOrder`), so the
slot of a seen enemy does not betray enemies that arrived out of sight.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.mission.mission_play import PLAYER_EXITS
from wargym.rules.no_quarter.mission.missions import MissionType

from .codec import EDGES, Slots, battle_slots
from .encoding import ObservationEncoder

MISSION_OBS_VERSION = "nq-obs-v4"
"""Version of the mission observation layout."""
MISSION_KINDS = tuple(kind.value for kind in MissionType)
"""Mission kinds in one-hot order: patrol, attack, defend (§22)."""
OBJECTIVES = ("destroy", "break_through")
"""The player's Attack objectives in one-hot order (§22.2.1)."""
SECTIONS = tuple(range(1, 10))
"""Table sections 1-9 (§19.1): one "reconnoitred" flag each."""
TURN_SCALE, PEF_SCALE, MORALE_SCALE = 30.0, 8.0, 6.0
MISSION_FIELDS = (
    *(f"mission_{kind}" for kind in MISSION_KINDS),
    "turn_limit",
    "turns_left",
    "own_campaign_morale",
    *(f"objective_{name}" for name in OBJECTIVES),
    *(f"recon_section_{s}" for s in SECTIONS),
    *(f"exit_{edge}" for edge in EDGES),
    "exited_far",
    "exited_home",
    "pefs_on_table",
)
"""Names of the mission globals, in order (appended to the "nq-obs-v3" globals)."""


def pef_markers(battle: Battle, viewer: Side) -> Sequence[tuple[float, float]]:
    """Positions of the PEF markers on the table (the ``markers`` plane, §20)."""
    state = battle.np
    if state is None:
        return ()
    return [(float(m["pos"][0]), float(m["pos"][1])) for m in state["pefs"]]


class SightingOrder:
    """Slots hook: enemies numbered in the order the viewer first saw them.

    Call :meth:`note` with each viewer's enemies in sight after every step (ties in id
    order); enemies never seen follow, in id order (they appear in no observation row). A
    slot never changes during a battle. Call :meth:`reset` at each new battle.
    """

    def __init__(self) -> None:
        self.order: dict[Side, list[int]] = {}
        self._known: dict[Side, set[int]] = {}

    def reset(self) -> None:
        """Forget every sighting (a new battle)."""
        self.order.clear()
        self._known.clear()

    def note(self, seen: Mapping[Side, Iterable[int]]) -> None:
        """Append enemies seen for the first time, per viewer."""
        for viewer, ids in seen.items():
            known = self._known.setdefault(viewer, set())
            new = sorted(i for i in ids if i not in known)
            if new:
                known.update(new)
                self.order.setdefault(viewer, []).extend(new)

    def __call__(self, battle: Battle, viewer: Side, mirror: bool = True) -> Slots:
        """The slots of ``battle`` for ``viewer`` with enemies in sighting order."""
        base = battle_slots(battle, viewer, mirror)
        known = self.order.get(viewer)
        if not known:
            return base
        present = set(base.enemy)
        first = [i for i in known if i in present]
        taken = set(first)
        rest = [i for i in base.enemy if i not in taken]
        return dataclasses.replace(base, enemy=tuple(first + rest))


def mission_features(battle: Battle, viewer: Side, max_mechs: int, mirror: bool) -> np.ndarray:
    """The :data:`MISSION_FIELDS` of ``battle`` for ``viewer`` (all 0 outside a mission)."""
    out = np.zeros(len(MISSION_FIELDS), dtype=np.float32)
    mission: dict[str, Any] | None = battle.mission
    np_state = battle.np
    if mission is None or np_state is None:
        return out
    kind = MissionType(mission["kind"])
    player = viewer.value != np_state["side"]
    k = 0
    out[MISSION_KINDS.index(kind.value)] = 1.0
    k += len(MISSION_KINDS)
    limit = mission["options"].get("turn_limit") or battle.options.max_turns
    limit = min(int(limit), battle.options.max_turns)
    out[k] = min(1.0, limit / TURN_SCALE)
    out[k + 1] = min(1.0, max(0.0, (limit - battle.turn + 1) / max(1, limit)))
    morale = np_state["player_morale"] if player else np_state["morale"]
    out[k + 2] = min(1.0, float(morale) / MORALE_SCALE)
    k += 3
    objective = mission.get("attack_objective")
    if player and objective in OBJECTIVES:
        out[k + OBJECTIVES.index(objective)] = 1.0
    k += len(OBJECTIVES)
    recon = set(mission["recon"])
    for s in SECTIONS:
        out[k + s - 1] = float(s in recon)
    k += len(SECTIONS)
    turn = 2 if (mirror and viewer is Side.RED) else 0
    if player:
        for edge in PLAYER_EXITS[kind]:
            out[k + (EDGES.index(edge) + turn) % len(EDGES)] = 1.0
    k += len(EDGES)
    far, home = ("north", "south") if turn == 0 else ("south", "north")
    edges = mission["exit_edges"]
    own = [str(m.id) for m in battle.mechs.values() if m.side is viewer]
    out[k] = min(1.0, sum(edges.get(i) == far for i in own) / max_mechs)
    out[k + 1] = min(1.0, sum(edges.get(i) == home for i in own) / max_mechs)
    out[k + 2] = min(1.0, len(np_state["pefs"]) / PEF_SCALE)
    return out


class MissionObservationEncoder(ObservationEncoder):
    """The "nq-obs-v3" layout plus mission globals and the PEF markers plane ("nq-obs-v4").

    Takes the arguments of :class:`~.encoding.ObservationEncoder`; ``markers`` defaults to
    :func:`pef_markers`.
    """

    version = MISSION_OBS_VERSION

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("markers", pef_markers)
        super().__init__(*args, **kwargs)
        self.base_global_size = self.global_size
        self.global_size += len(MISSION_FIELDS)
        self.size += len(MISSION_FIELDS)

    def _globals(
        self,
        battle: Battle,
        viewer: Side,
        own_ids: Iterable[int],
        seen: frozenset[int],
        deciding: bool,
        acting: int | None,
    ) -> np.ndarray:
        out = super()._globals(battle, viewer, own_ids, seen, deciding, acting)
        out[self.base_global_size :] = mission_features(battle, viewer, self.max_mechs, self.mirror)
        return out
