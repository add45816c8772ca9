"""A hand-written No Quarter tactician, stronger than the book's NP procedure.

:class:`NoQuarterHeuristic` is an :class:`~wargym.agents.base.EngineAgent`. It only uses what
its side may know: its own mechs, the enemies some own mech has a line of sight to now, and
its memory of where enemies were last seen (kept from earlier decisions). Its rules of thumb:

* **Initiative.** Activate first the group nearest to a known enemy; inside a group, the mechs
  that can shoot now act first.
* **Fire whenever possible** (fire before moving: a mech that moves first may lose its line).
* **Focus fire.** Every weapon goes to the *focus target*: the known enemy with the lowest
  armour fraction (ties: the nearest), so damage concentrates and kills come early.
* **Range and arc.** A mech closes to about 60 % of its longest weapon's range of the focus
  target, moving straight at it (so it ends facing it: the target stays in the front arc);
  when already in band it stays and turns to face the target instead of moving.
* **Cover.** Among equally good end points, those in concealing terrain (woods, buildings)
  score higher; free In Sight moves step into concealment when one is on offer.
* **Hunt.** With no enemy in sight, advance on the last position an enemy was seen at, else
  on the enemy's home edge, as a pack (a mech more than :data:`COHESION` inches ahead of its
  rearmost team-mate waits for it) (skirmishes have no objectives; in missions the engine's own
  objective options are left to the fallback).
* Anything else (melee limbs, Free Will, objectives) follows the NP procedure
  (:class:`~wargym.agents.scripted.NoQuarterScripted`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wargym.agents.base import SeededAgent
from wargym.agents.scripted import NoQuarterScripted

CLOSE_FRACTION = 0.9
"""Preferred distance to the focus target, as a fraction of the longest weapon's range."""
MIN_RANGE = 4.0
"""Never aim to stand closer than this (inches) unless charging."""
COVER_BONUS = 2.0
"""Score of ending a move in concealing terrain, in inches of range error."""
HUNT_FROM_TURN = 1
"""With no enemy in sight, hold position before this turn, hunt from it."""
COHESION = 6.0
"""While hunting, a mech this many inches ahead of its rearmost team-mate waits (0: off)."""
SLOW_IN_CONTACT = True
"""With enemies in sight, never move so far that the mech counts as fast moving (§17.4)."""
FAST_MOVING = 10.0
"""Inches moved in a turn from which a shooter counts as fast moving (§17.4, ruling D7)."""
MOVE_MARGIN = 0.5
"""A move must beat staying by this much (inches) to be taken."""


def _armor_fraction(mech: Any) -> float:
    return float(sum(mech.armor) / max(1, sum(mech.design.armor)))


def _longest_range(mech: Any) -> float:
    ranges = [float(mech.design.items[w].range or 0) for w in mech.operable_ranged_weapons]
    return max(ranges, default=0.0)


class NoQuarterHeuristic(SeededAgent):
    """The tactician of the module docstring (either side)."""

    needs_observation = False

    def __init__(self, rng: Any = None) -> None:
        super().__init__(rng)
        self.fallback = NoQuarterScripted(self.rng)
        self.last_seen: dict[int, tuple[float, float]] = {}

    def reset(self, seed: int | None = None) -> None:
        """Forget last-seen positions and the fallback's memory; re-seed."""
        super().reset(seed)
        self.fallback = NoQuarterScripted(self.rng)
        self.last_seen = {}

    # -- helpers ------------------------------------------------------------------------
    def _known(self, battle: Any, side: Any) -> list[Any]:
        from wargym.rules.no_quarter.enemy import known_enemies

        seen = known_enemies(battle, side)
        for enemy in seen:
            self.last_seen[enemy.id] = enemy.pos
        for mech_id in list(self.last_seen):
            if battle.mechs[mech_id].removed is not None:
                del self.last_seen[mech_id]
        return seen

    @staticmethod
    def _focus(mech: Any, seen: Sequence[Any]) -> Any:
        from wargym.rules.no_quarter.geometry import distance

        return min(
            seen, key=lambda e: (round(_armor_fraction(e), 2), distance(mech.pos, e.pos), e.id)
        )

    def _goal(self, battle: Any, mech: Any) -> tuple[float, float]:
        from wargym.rules.no_quarter.enemy import edge_point
        from wargym.rules.no_quarter.geometry import distance

        if self.last_seen:
            return min(self.last_seen.values(), key=lambda p: distance(mech.pos, p))
        edge = battle.home_edges.get(mech.side.other, "north")
        return edge_point(battle.battlefield, mech.pos, edge)

    # -- decisions ----------------------------------------------------------------------
    def act_engine(self, state: Any, legal_actions: Sequence[Any], side: Any) -> Any:
        """The tactician's choice for the pending decision (module docstring)."""
        from wargym.rules.no_quarter import actions as a
        from wargym.rules.no_quarter.actions import DecisionKind as K

        battle = state
        decision = battle.decision
        seen = self._known(battle, side)
        kind = decision.kind
        mech = None if decision.mech is None else battle.mechs[decision.mech]
        if kind is K.ACTIVATE_GROUP:
            groups = [o for o in legal_actions if isinstance(o, a.ActivateGroup)]
            if groups:
                return min(groups, key=lambda o: self._gap(battle, battle.mechs[o.leader], seen))
        elif kind is K.CHOOSE_MECH:
            ready = [o for o in legal_actions if isinstance(o, a.ChooseMech)]
            if ready:
                return min(ready, key=lambda o: self._gap(battle, battle.mechs[o.mech], seen))
        elif kind in (K.MECH_ACTION, K.CONTINUE_MOVE) and mech is not None:
            return self._mech_action(battle, legal_actions, mech, seen)
        elif kind is K.ASSIGN_FIRE and mech is not None:
            shots = [o for o in legal_actions if isinstance(o, a.AssignFire)]
            if shots:
                targets = [battle.mechs[o.target] for o in shots]
                focus = self._focus(mech, targets)
                return min((o for o in shots if o.target == focus.id), key=lambda o: o.weapon)
            ends = [o for o in legal_actions if isinstance(o, a.EndFire)]
            if ends:
                return ends[0]
        elif kind is K.FREE_MOVE and mech is not None:
            from wargym.rules.no_quarter.sight import is_concealed

            steps = [o for o in legal_actions if isinstance(o, a.FreeMove) and o.to is not None]
            cover = [
                o for o in steps if o.to is not None and is_concealed(battle.battlefield, o.to)
            ]
            if cover and not is_concealed(battle.battlefield, mech.pos):
                return cover[0]
            hold = a.FreeMove(mech.id, None)
            if hold in legal_actions:
                return hold
        elif kind is K.CHARGE_TARGET:
            charges = [o for o in legal_actions if isinstance(o, a.Charge)]
            if charges:
                return min(charges, key=lambda o: _armor_fraction(battle.mechs[o.target]))
        return self.fallback.act_engine(battle, legal_actions, side)

    def _gap(self, battle: Any, mech: Any, seen: Sequence[Any]) -> float:
        from wargym.rules.no_quarter.geometry import distance

        if seen:
            return min(distance(mech.pos, e.pos) for e in seen)
        return distance(mech.pos, self._goal(battle, mech)) + 100.0

    def _mech_action(self, battle: Any, legal: Sequence[Any], mech: Any, seen: list[Any]) -> Any:
        from wargym.rules.no_quarter import actions as a
        from wargym.rules.no_quarter.geometry import angle_between, distance, heading_to
        from wargym.rules.no_quarter.sight import is_concealed

        fire = a.FireFirst(mech.id)
        if fire in legal:
            return fire
        moves = [o for o in legal if isinstance(o, a.Move) and not o.reverse]
        stay = a.Stay(mech.id)
        turns = [o for o in legal if isinstance(o, a.Stay) and o.heading is not None]
        bf = battle.battlefield
        if not seen:
            if battle.turn < HUNT_FROM_TURN:
                return stay if stay in legal else legal[0]
            goal = self._goal(battle, mech)
            if COHESION > 0:
                team = [m for m in battle.mechs_of(mech.side) if m.id != mech.id]
                rear = max((distance(m.pos, goal) for m in team), default=0.0)
                if team and distance(mech.pos, goal) < rear - COHESION:
                    return stay if stay in legal else legal[0]
            if moves:
                best = min(moves, key=lambda o: (distance(o.to, goal), o.jump))
                if distance(best.to, goal) < distance(mech.pos, goal) - MOVE_MARGIN:
                    return best
            return stay if stay in legal else legal[0]
        focus = self._focus(mech, seen)
        if SLOW_IN_CONTACT:
            moves = [o for o in moves if mech.moved + distance(mech.pos, o.to) < FAST_MOVING - 0.1]
        want = max(MIN_RANGE, CLOSE_FRACTION * _longest_range(mech))

        def score(point: tuple[float, float]) -> float:
            value = -abs(distance(point, focus.pos) - want)
            return value + (COVER_BONUS if is_concealed(bf, point) else 0.0)

        here = score(mech.pos)
        if moves:
            best = max(moves, key=lambda o: (score(o.to), -o.jump))
            if score(best.to) > here + MOVE_MARGIN:
                return best
        facing = heading_to(mech.pos, focus.pos)
        if turns and angle_between(mech.heading, facing) > 45.0:
            return min(turns, key=lambda o: angle_between(o.heading or 0.0, facing))
        return stay if stay in legal else legal[0]
