"""A hand-written No Quarter tactician, stronger than the book's NP procedure.

:class:`NoQuarterHeuristic` is an :class:`~wargym.agents.base.EngineAgent`. It only uses what
its side may know: its own mechs, the enemies some own mech has a line of sight to now (design,
armour, position, whether it moved this turn), its memory of each enemy's last sighting
(:class:`Sighting`: position, armour, working weapons and EWS then), which enemies have been
removed (public: the reaction tests count them, §16.2) and the public battlefield. Its own
line-of-sight checks only let the bases it knows of (own mechs, enemies in sight, wrecks) block
a line. It never reads an enemy's pilot (Rep, attributes): every enemy shooter is assumed to
have Rep :data:`ENEMY_REP`. No dice are rolled ahead: every estimate is an expectation read
from the tables. Its rules of thumb:

* **Cover wins firefights.** Table 17.4 makes a target in cover (woods while stationary, or
  partly behind a building or a mech) twice as hard to hit, and the Fired On test gives it a
  die more. Every end point of a move is scored by the *exchange* it offers: the expected
  damage the mech can deal from there to the best known enemy (its weapons in range, the
  target's cover as seen from there) minus :data:`THREAT_WEIGHT` times the expected damage the
  known enemies that see the point can deal to it (the point's cover against each of them;
  woods only protect a mech that did not move this turn while enemies still act).
* **Fire first, focus fire.** A mech that can fire does so before moving. Its first weapon
  (the strongest) goes to the enemy it is most likely to hurt (not in cover, already damaged):
  later targets of one firing are hit less often (§17.3), and the engine's spreading rule
  decides where the other weapons may go. Every weapon that can fire does (holding poor shots
  measured worse: a Fired On test can also send the target ducking back).
* **Do not fast move when about to shoot** (§17.4): a mech that has not fired yet and would fire
  after its move prefers moves under 10".
* **Hunt.** With no enemy in sight, advance on the nearest last-seen position; a remembered
  point is forgotten once an own mech sees it empty (or after :data:`FORGET_AFTER` turns).
  With nothing remembered, sweep to the table centre, then to the enemy's home edge. Moves end
  in concealing terrain where that costs little (the enemy's In Sight test loses a die).
* **Press late when not behind.** From turn :data:`LATE_TURN`, a side with at least as many mechs
  on the table as the enemy weighs threats :data:`LATE_THREAT` times and the pull towards the
  enemy :data:`LATE_APPROACH` times (the turn limit makes a draw; pressing while behind measured
  as many extra losses as wins).
* **Initiative.** Activate first the group nearest to an enemy in sight (else to the hunt
  goal); inside a group, the mech nearest to an enemy in sight acts first.
* **Groups.** It never splits a group (§13.1); a higher leader takes in each group offered
  whose leader's Rep is not above his own, so it activates no worse (§12.2).
* **In Sight.** The free 2" move steps to the best-scored point (usually cover); an In Sight
  winner that must charge picks the weakest enemy.
* **Charges** (off by default: :data:`CHARGE_FROM_TURN` is past the turn limit, charging measured
  no gain). From that turn a mech charges a reachable enemy whose armour fraction is below its
  own (never one that is leaving: contact would hold it on the table).

Its strength against the rules' AI (``wargym evaluate --agents heuristic rules``) is measured
in the docstring of :class:`NoQuarterHeuristic`.
* **Luck and aim.** Lucky re-rolls and Marksman's location follow the documented automatic
  rules of ``wargym.rules.no_quarter.battle.luck`` (``choice_in_roll``: re-roll a test passed 0d6, a
  miss against a nearly wrecked target, a protected location or a lost melee round; aim at
  the unprotected location with the least armour left), as the NP AI does.
* Anything else (melee limbs, Free Will, objectives) follows the NP procedure
  (:class:`~wargym.agents.scripted.NoQuarterScripted`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from wargym.agents.base import SeededAgent
from wargym.agents.scripted import NoQuarterScripted

THREAT_WEIGHT = 1.0
"""Weight of the expected damage taken against the expected damage dealt at a point."""
ENEMY_REP = 5
"""Rep assumed for every enemy shooter (pilots are not visible)."""
MEMORY_WEIGHT = 0.5
"""Weight of an enemy known only from memory (not in sight now)."""
FORGET_AFTER = 20
"""Turns after which a last-seen position is forgotten."""
APPROACH = 0.05
"""Score per inch gained towards the nearest known enemy (breaks ties in favour of contact)."""
LATE_TURN = 10
"""From this turn on a side at least as numerous as the enemy presses: threat counts
:data:`LATE_THREAT` times as much and the pull towards the enemy :data:`LATE_APPROACH` times as
much (the turn limit makes a draw)."""
LATE_THREAT = 0.5
"""Threat weight factor from :data:`LATE_TURN`."""
LATE_APPROACH = 3.0
"""Approach weight factor from :data:`LATE_TURN`."""
CONCEAL_BONUS = 0.3
"""Score of ending a move in concealing terrain (woods, rough)."""
CHARGE_FROM_TURN = 99
"""From this turn on, charge weaker reachable enemies (99: never, the default)."""
MOVE_MARGIN = 0.05
"""A move must beat staying by this much score to be taken."""


def _armor_fraction(mech: Any) -> float:
    return float(sum(mech.armor) / max(1, sum(mech.design.armor)))


def _expected_loss(impact: int) -> float:
    """Expected armour loss plus a bonus for forcing a Takes Damage test (§17.4.2)."""
    p = min(max(impact, 0), 6) / 6.0
    two, one = p * p, 2.0 * p * (1.0 - p)
    return two * impact + one + 0.5 * (two + one)


def hit_chance(rep: int, *, cover: bool = False, fast: bool = False, index: int = 1) -> float:
    """Chance that 1d6 + ``rep`` hits on table 17.4 (§17.4)."""
    hits = 0
    for face in range(1, 7):
        total = face + rep
        if total >= 10:
            hits += 1
        elif total == 9:
            hits += not (cover or fast or index >= 3)
        elif total == 8:
            hits += not (cover or fast or index >= 2)
    return hits / 6.0


def _weapons(mech: Any) -> list[tuple[float, float]]:
    """(range, value) of the mech's operable ranged weapons, value = shots x expected loss."""
    found = []
    for w in mech.operable_ranged_weapons:
        item = mech.design.items[w]
        found.append((float(item.range or 0), item.target * _expected_loss(item.impact)))
    return found


def _power(weapons: Sequence[tuple[float, float]], gap: float) -> float:
    return sum(value for reach, value in weapons if gap <= reach)


@dataclass(frozen=True, slots=True)
class Sighting:
    """What the side saw of an enemy the last time it was in sight."""

    pos: tuple[float, float]
    turn: int
    armor: float
    """Armour fraction then."""
    weapons: tuple[tuple[float, float], ...]
    """(range, value) of its operable ranged weapons then."""
    ews: bool


def _sighting(enemy: Any, turn: int) -> Sighting:
    return Sighting(
        enemy.pos, turn, _armor_fraction(enemy), tuple(_weapons(enemy)), enemy.has_functioning_ews
    )


def _public_bodies(battle: Any, side: Any, seen: Sequence[Any]) -> list[Any]:
    """Bases the side knows of: its own mechs, the enemies in sight, wrecks."""
    from wargym.rules.no_quarter.sight_movement.perception import bodies

    known = {m.id for m in battle.mechs_of(side)} | {e.id for e in seen}
    return [b for b in bodies(battle) if b.id in known or b.id < 0]


class NoQuarterHeuristic(SeededAgent):
    """The tactician of the module docstring (either side).

    Measured against the rules' AI (``rules``) in the mirror skirmish, seeds 10000-10199:
    as blue 149 wins, 40 draws, 11 losses (74.5 %, 95 % CI 68-80 %); sides alternating
    134 / 45 / 21 (67 %).
    The earlier tactician (hold back, hunt the last-seen point) scored 30 % as blue.
    """

    needs_observation = False

    def __init__(self, rng: Any = None) -> None:
        super().__init__(rng)
        self.fallback = NoQuarterScripted(self.rng)
        self.last_seen: dict[int, Sighting] = {}
        self.swept: set[int] = set()
        self.bodies: list[Any] = []
        self.memo: dict[Any, Any] | None = None
        """Results kept while one decision is evaluated several times (the advisor sets it
        to ``{}`` for one state and back to ``None``): sightings and exchange scores."""

    def reset(self, seed: int | None = None) -> None:
        """Forget last-seen positions and the fallback's memory; re-seed."""
        super().reset(seed)
        self.fallback = NoQuarterScripted(self.rng)
        self.last_seen = {}
        self.swept = set()

    # -- knowledge ----------------------------------------------------------------------
    def _known(self, battle: Any, side: Any) -> list[Any]:
        """Enemies in sight now; refresh and prune the memory of earlier sightings."""
        from wargym.rules.no_quarter.non_player.enemy import known_enemies
        from wargym.rules.no_quarter.sight_movement.sight import sight

        if self.memo is not None and "known" in self.memo:
            return list(self.memo["known"])
        seen = known_enemies(battle, side)
        self.bodies = _public_bodies(battle, side, seen)
        for enemy in seen:
            self.last_seen[enemy.id] = _sighting(enemy, battle.turn)
        ids = {e.id for e in seen}
        own = battle.mechs_of(side)
        bf = battle.battlefield
        for mech_id, memo in list(self.last_seen.items()):
            if mech_id in ids:
                continue
            # removals are public (the reaction tests count them, §16.2)
            stale = battle.turn - memo.turn > FORGET_AFTER or battle.mechs[mech_id].removed
            if not stale:
                stale = any(
                    sight(bf, m.pos, memo.pos, observer_id=m.id, bodies=self.bodies).visible
                    for m in own
                )
            if stale:
                del self.last_seen[mech_id]
        if self.memo is not None:
            self.memo["known"] = list(seen)
        return seen

    def _threats(self, battle: Any, seen: Sequence[Any]) -> list[tuple[int, Sighting, float]]:
        """(enemy id, what is known of it, weight) for every enemy seen now or remembered."""
        ids = {e.id for e in seen}
        return [
            (mech_id, memo, 1.0 if mech_id in ids else MEMORY_WEIGHT)
            for mech_id, memo in self.last_seen.items()
        ]

    def _goal(self, battle: Any, mech: Any) -> tuple[float, float]:
        from wargym.rules.no_quarter.non_player.enemy import edge_point
        from wargym.rules.no_quarter.sight_movement.geometry import distance

        if self.last_seen:
            spots = [memo.pos for memo in self.last_seen.values()]
            return min(spots, key=lambda p: distance(mech.pos, p))
        bf = battle.battlefield
        centre = (bf.width / 2.0, bf.height / 2.0)
        if mech.id not in self.swept and distance(mech.pos, centre) < 4.0:
            self.swept.add(mech.id)
        if mech.id not in self.swept:
            return centre
        edge = battle.home_edges.get(mech.side.other, "north")
        return edge_point(bf, centre, edge)

    # -- evaluation ---------------------------------------------------------------------
    def _score(
        self,
        battle: Any,
        mech: Any,
        point: tuple[float, float],
        threats: Sequence[tuple[int, Sighting, float]],
        *,
        moved: float,
        will_fire: bool,
    ) -> float:
        """Exchange value of ``mech`` standing at ``point`` (module docstring)."""
        key = ("score", mech.id, point, moved, will_fire)
        if self.memo is not None and key in self.memo:
            return float(self.memo[key])
        from wargym.rules.no_quarter.sight_movement.geometry import distance
        from wargym.rules.no_quarter.sight_movement.sight import in_cover, is_concealed, sight

        bf = battle.battlefield
        others = [b for b in self.bodies if b.id != mech.id]
        enemies_act = battle.first_side == mech.side
        mine = _weapons(mech)
        fast = will_fire and moved >= _fast_moving(battle)
        offence = 0.0
        threat = 0.0
        for enemy, memo, weight in threats:
            pos = memo.pos
            gap = distance(point, pos)
            blockers = [b for b in others if b.id != enemy]
            back = sight(
                bf,
                pos,
                point,
                observer_id=enemy,
                target_id=mech.id,
                bodies=blockers,
                observer_has_ews=memo.ews,
            )
            if back.visible:
                power = _power(memo.weapons, gap)
                if power:
                    cover = in_cover(bf, back, point, target_moved=enemies_act and moved > 0)
                    threat += weight * power * hit_chance(ENEMY_REP, cover=cover)
            power = _power(mine, gap)
            if power:
                line = sight(
                    bf,
                    point,
                    pos,
                    observer_id=mech.id,
                    target_id=enemy,
                    bodies=blockers,
                    observer_has_ews=mech.has_functioning_ews,
                )
                if line.visible:
                    cover = in_cover(bf, line, pos, target_moved=False)
                    chance = hit_chance(mech.rep, cover=cover, fast=fast)
                    value = weight * power * chance * (2.0 - memo.armor)
                    offence = max(offence, value)
        late = battle.turn >= LATE_TURN and len(battle.mechs_of(mech.side)) >= len(
            battle.mechs_of(mech.side.other)
        )
        score = offence - THREAT_WEIGHT * (LATE_THREAT if late else 1.0) * threat
        if threats:
            pull = APPROACH * (LATE_APPROACH if late else 1.0)
            score -= pull * min(distance(point, memo.pos) for _, memo, _ in threats)
        if is_concealed(bf, point):
            score += CONCEAL_BONUS
        if self.memo is not None:
            self.memo[key] = score
        return score

    # -- decisions ----------------------------------------------------------------------
    def act_engine(self, state: Any, legal_actions: Sequence[Any], side: Any) -> Any:
        """The tactician's choice for the pending decision (module docstring)."""
        from wargym.rules.no_quarter.battle import actions as a
        from wargym.rules.no_quarter.battle.actions import DecisionKind as K

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
            return self._assign(battle, legal_actions, mech)
        elif kind is K.FREE_MOVE and mech is not None:
            steps = [o for o in legal_actions if isinstance(o, a.FreeMove)]
            if steps:
                threats = self._threats(battle, seen)

                def value(o: Any) -> float:
                    point = mech.pos if o.to is None else o.to
                    return self._score(
                        battle, mech, point, threats, moved=mech.moved + 1.0, will_fire=False
                    ) + (0.01 if o.to is None else 0.0)

                return max(steps, key=value)
        elif kind is K.FACE and mech is not None:
            return self._face(battle, legal_actions, mech, seen)
        elif kind is K.LEAD_TEAMS:  # take a group in only if it activates no worse (§12.2)
            return _lead(battle, legal_actions)
        elif kind is K.SPLIT_GROUP:  # never split (§13.1)
            keep = [o for o in legal_actions if isinstance(o, a.KeepGroups)]
            if keep:
                return keep[0]
        elif kind in (K.LUCKY_REROLL, K.MARKSMAN_LOCATION):  # D26, §9.6.4
            from wargym.rules.no_quarter.battle.luck import choice_in_roll

            return choice_in_roll(battle, legal_actions)
        elif kind is K.CHARGE_TARGET:
            charges = [o for o in legal_actions if isinstance(o, a.Charge)]
            if charges:
                return min(charges, key=lambda o: _armor_fraction(battle.mechs[o.target]))
        return self.fallback.act_engine(battle, legal_actions, side)

    def _gap(self, battle: Any, mech: Any, seen: Sequence[Any]) -> float:
        from wargym.rules.no_quarter.sight_movement.geometry import distance

        if seen:
            return min(distance(mech.pos, e.pos) for e in seen)
        return distance(mech.pos, self._goal(battle, mech)) + 100.0

    def _assign(self, battle: Any, legal: Sequence[Any], mech: Any) -> Any:
        from wargym.rules.no_quarter.battle import actions as a

        shots = [o for o in legal if isinstance(o, a.AssignFire)]
        if not shots:
            ends = [o for o in legal if isinstance(o, a.EndFire)]
            return ends[0] if ends else legal[0]
        return max(shots, key=lambda o: (self.shot_value(battle, mech, o), -o.weapon))

    def shot_value(self, battle: Any, mech: Any, shot: Any) -> float:
        """Expected worth of assigning ``shot`` (an ``AssignFire``): chance x damage x need."""
        from wargym.rules.no_quarter.sight_movement.sight import in_cover, sight

        bf = battle.battlefield
        target = battle.mechs[shot.target]
        line = sight(
            bf,
            mech.pos,
            target.pos,
            observer_id=mech.id,
            target_id=target.id,
            bodies=self.bodies,
            observer_has_ews=mech.has_functioning_ews,
        )
        cover = in_cover(bf, line, target.pos, target_moved=target.moved > 0)
        item = mech.design.items[shot.weapon]
        worth = float(item.target) * _expected_loss(item.impact)
        chance = hit_chance(mech.rep, cover=cover, fast=mech.moved >= _fast_moving(battle))
        return chance * worth * (2.0 - _armor_fraction(target))

    def _mech_action(self, battle: Any, legal: Sequence[Any], mech: Any, seen: list[Any]) -> Any:
        from wargym.rules.no_quarter.battle import actions as a
        from wargym.rules.no_quarter.sight_movement.geometry import (
            angle_between,
            distance,
            heading_to,
        )
        from wargym.rules.no_quarter.sight_movement.sight import is_concealed

        fire = a.FireFirst(mech.id)
        if fire in legal:
            return fire
        stay = a.Stay(mech.id)
        default = stay if stay in legal else legal[0]
        charge = self._charge(battle, legal, mech)
        if charge is not None:
            return charge
        moves = [o for o in legal if isinstance(o, a.Move) and not o.reverse]
        turns = [o for o in legal if isinstance(o, a.Stay) and o.heading is not None]
        threats = self._threats(battle, seen)
        bf = battle.battlefield
        if not threats:
            goal = self._goal(battle, mech)
            here = distance(mech.pos, goal)

            def hunt(o: Any) -> float:
                gain = here - distance(o.to, goal)
                return float(gain + (1.0 if is_concealed(bf, o.to) else 0.0) - 0.01 * o.jump)

            if moves:
                best = max(moves, key=hunt)
                if hunt(best) > 0.5:
                    return best
            return default
        will_fire = not mech.fired_this_activation

        def score(point: tuple[float, float]) -> float:
            moved = mech.moved + distance(mech.pos, point)
            return self._score(battle, mech, point, threats, moved=moved, will_fire=will_fire)

        here = score(mech.pos)
        if moves:
            best = max(moves, key=lambda o: (score(o.to), -o.jump))
            if score(best.to) > here + MOVE_MARGIN:
                return best
        if seen:
            focus = min(seen, key=lambda e: distance(mech.pos, e.pos))
            facing = heading_to(mech.pos, focus.pos)
            if turns and angle_between(mech.heading, facing) > 45.0:
                return min(turns, key=lambda o: angle_between(o.heading or 0.0, facing))
        return default

    def _face(self, battle: Any, legal: Sequence[Any], mech: Any, seen: Sequence[Any]) -> Any:
        """Firing arc toward the nearest enemy seen, else remembered, else the goal (D2)."""
        from wargym.rules.no_quarter.sight_movement.facing import face_toward
        from wargym.rules.no_quarter.sight_movement.geometry import distance

        spots = [e.pos for e in seen] or [memo.pos for memo in self.last_seen.values()]
        if spots:
            point = min(spots, key=lambda p: distance(mech.pos, p))
        else:
            point = self._goal(battle, mech)
        return face_toward(legal, mech, point)

    def _charge(self, battle: Any, legal: Sequence[Any], mech: Any) -> Any:
        from wargym.rules.no_quarter.battle import actions as a
        from wargym.rules.no_quarter.forces.vocab import Status

        charges = [o for o in legal if isinstance(o, a.Charge)]
        good = []
        for o in charges:
            target = battle.mechs[o.target]
            if target.status is Status.LEAVE_BATTLEFIELD:
                continue  # it leaves anyway; contact would only hold it on the table
            if battle.turn >= CHARGE_FROM_TURN and _armor_fraction(target) < _armor_fraction(mech):
                good.append(o)
        if not good:
            return None
        return min(good, key=lambda o: _armor_fraction(battle.mechs[o.target]))


def _lead(battle: Any, legal: Sequence[Any]) -> Any:
    """The offered group whose leader has the lowest Rep, if not above the chief's; else done."""
    from wargym.rules.no_quarter.battle import actions as a

    done = next(o for o in legal if isinstance(o, a.LeadDone))
    chief = battle.mechs[done.mech]
    takes = [o for o in legal if isinstance(o, a.LeadTeam)]
    best = min(takes, key=lambda o: (battle.mechs[o.group].rep, o.group), default=None)
    if best is None or battle.mechs[best.group].rep > chief.rep:
        return done
    return best


def _fast_moving(battle: Any) -> float:
    """Inches moved from which a shooter counts as fast moving, from the battle's rules (§17.4)."""
    from wargym.rules.no_quarter.battle.game import rules_of

    return float(rules_of(battle).ranged_combat.fast_moving_inches)
