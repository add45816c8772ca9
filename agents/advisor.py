"""The tactician as an observation feature: per-action advice rows for a learned policy.

A No Quarter env built with ``action_features=True`` and ``advisor=TacticalAdvisor`` appends two
rows to its per-action feature block ("nq-af-v1" becomes "nq-af-v1+advice-v1",
docs/encodings.md):

* ``t_value``: the :class:`~wargym.agents.heuristic.NoQuarterHeuristic` tactician's evaluation
  of each legal action, scaled to [0, 1] within the decision (1 = its best). Moves and stays
  are scored by the exchange they offer at their end point, weapon assignments by expected
  damage, group and mech choices by the gap to the nearest enemy in sight, a free 2" move by
  the exchange at its end point; firing first is always its best; other decisions are 0.
* ``t_pick``: 1 for the action the tactician would play now.

A learned policy reads them next to everything else and is free to overrule them: the policy
learns *when* to trust the tactician (residual learning on a hand-written expert). The
advisor only sees what the tactician may know (the deciding side's own mechs, enemies in sight,
its memory of past sightings, public removals, the battlefield; see the tactician's
docstring), so the rows leak nothing hidden. It keeps one tactician memory per side; the env
resets it with the battle and puts it into ``save_state`` (:meth:`TacticalAdvisor.to_dict`).
Decisions the tactician leaves to the book's procedure are answered with a fresh,
fixed-seed procedure, so the advice is a function of the state and the side's memory only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from wargym.agents.heuristic import MOVE_MARGIN, NoQuarterHeuristic, Sighting
from wargym.agents.scripted import NoQuarterScripted
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battle import actions as a
from wargym.rules.no_quarter.battle.actions import DecisionKind as K
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.sight_movement.geometry import distance
from wargym.rules.no_quarter.sight_movement.sight import is_concealed

ADVICE_VERSION = "advice-v1"
"""Version of the advice rows."""
ADVICE_ROWS = ("t_value", "t_pick")
"""Rows the advisor appends to the per-action feature block, in order."""


class TacticalAdvisor:
    """Per-action advice of the tactician for whichever side decides (module docstring)."""

    version = ADVICE_VERSION
    rows = ADVICE_ROWS

    def __init__(self) -> None:
        self._sides: dict[Side, NoQuarterHeuristic] = {}

    def reset(self) -> None:
        """Forget every side's sightings (a new battle)."""
        self._sides = {}

    def _tactician(self, side: Side) -> NoQuarterHeuristic:
        if side not in self._sides:
            self._sides[side] = NoQuarterHeuristic(np.random.default_rng(0))
        return self._sides[side]

    def advise(
        self, battle: Battle, table: Mapping[int, Any], viewer: Side
    ) -> tuple[dict[int, float], int | None]:
        """``({index: t_value}, index of t_pick)`` for ``viewer``'s decision over ``table``."""
        if not table or battle.decision is None:
            return {}, None
        tactician = self._tactician(viewer)
        tactician.fallback = NoQuarterScripted(np.random.default_rng(0))
        indices, legal = list(table), list(table.values())
        tactician.memo = {}  # the pick and the values share sightings and exchange scores
        try:
            choice = tactician.act_engine(battle, legal, viewer)  # refreshes its memory first
            raw = self._values(tactician, battle, legal, viewer)
        finally:
            tactician.memo = None
        pick = next((i for i, o in zip(indices, legal, strict=True) if o == choice), None)
        scores = [v for v in raw if v is not None and v != float("inf")]
        low, high = (min(scores), max(scores)) if scores else (0.0, 0.0)
        values = {}
        for index, v in zip(indices, raw, strict=True):
            if v is None:
                values[index] = 0.0
            elif v == float("inf") or high <= low:
                values[index] = 1.0
            else:
                values[index] = (v - low) / (high - low)
        return values, pick

    @staticmethod
    def _values(
        h: NoQuarterHeuristic, battle: Battle, legal: list[Any], side: Side
    ) -> list[float | None]:
        """The tactician's raw score of each option (``inf``: always best; ``None``: unscored)."""
        decision = battle.decision
        assert decision is not None
        kind = decision.kind
        mech = None if decision.mech is None else battle.mechs[decision.mech]
        seen = h._known(battle, side)
        out: list[float | None] = [None] * len(legal)
        if kind in (K.ACTIVATE_GROUP, K.CHOOSE_MECH):
            for k, o in enumerate(legal):
                if isinstance(o, a.ActivateGroup):
                    out[k] = -h._gap(battle, battle.mechs[o.leader], seen)
                elif isinstance(o, a.ChooseMech):
                    out[k] = -h._gap(battle, battle.mechs[o.mech], seen)
            return out
        if mech is None:
            return out
        if kind is K.ASSIGN_FIRE:
            for k, o in enumerate(legal):
                if isinstance(o, a.AssignFire):
                    out[k] = h.shot_value(battle, mech, o)
            return out
        threats = h._threats(battle, seen)

        def exchange(point: tuple[float, float], moved: float, will_fire: bool) -> float:
            return h._score(battle, mech, point, threats, moved=moved, will_fire=will_fire)

        if kind is K.FREE_MOVE:
            for k, o in enumerate(legal):
                if isinstance(o, a.FreeMove):
                    point = mech.pos if o.to is None else o.to
                    out[k] = exchange(point, mech.moved + 1.0, False)
            return out
        if kind not in (K.MECH_ACTION, K.CONTINUE_MOVE):
            return out
        will_fire = not mech.fired_this_activation
        goal = None if threats else h._goal(battle, mech)
        for k, o in enumerate(legal):
            if isinstance(o, a.FireFirst):
                out[k] = float("inf")
            elif isinstance(o, a.Stay):
                if goal is None:
                    out[k] = exchange(mech.pos, mech.moved, will_fire) + MOVE_MARGIN
                else:
                    out[k] = 0.5
            elif isinstance(o, a.Move) and not o.reverse:
                if goal is None:
                    moved = mech.moved + distance(mech.pos, o.to)
                    out[k] = exchange(o.to, moved, will_fire)
                else:
                    gain = distance(mech.pos, goal) - distance(o.to, goal)
                    out[k] = gain + float(is_concealed(battle.battlefield, o.to)) - 0.01 * o.jump
        return out

    # -- snapshots ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Each side's memory (last sightings, swept mechs) as JSON data."""
        return {
            side.value: {
                "last_seen": {
                    str(i): [list(m.pos), m.turn, m.armor, [list(w) for w in m.weapons], m.ews]
                    for i, m in sorted(h.last_seen.items())
                },
                "swept": sorted(h.swept),
            }
            for side, h in self._sides.items()
        }

    def load_dict(self, where: str, data: Any) -> None:
        """Restore :meth:`to_dict` data; a StateError naming the key leaves memory unchanged."""
        if not isinstance(data, dict):
            raise StateError(f"{where}: expected an object")
        sides: dict[Side, NoQuarterHeuristic] = {}
        for key, memo in data.items():
            here = f"{where}.{key}"
            try:
                side = Side(key)
                if not isinstance(memo, dict) or set(memo) != {"last_seen", "swept"}:
                    raise ValueError("expected keys last_seen, swept")
                h = NoQuarterHeuristic(np.random.default_rng(0))
                for mech_id, row in memo["last_seen"].items():
                    pos, turn, armor, weapons, ews = row
                    h.last_seen[int(mech_id)] = Sighting(
                        (float(pos[0]), float(pos[1])),
                        int(turn),
                        float(armor),
                        tuple((float(r), float(v)) for r, v in weapons),
                        bool(ews),
                    )
                h.swept = {int(i) for i in memo["swept"]}
            except (TypeError, ValueError, KeyError, IndexError) as error:
                raise StateError(f"{here}: bad advisor memory ({error})") from error
            sides[side] = h
        self._sides = sides


__all__ = ["ADVICE_ROWS", "ADVICE_VERSION", "TacticalAdvisor"]
