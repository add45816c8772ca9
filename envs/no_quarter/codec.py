"""The flat action space of the No Quarter envs: every engine action as one index ("nq-act-v2").

:class:`ActionCodec` maps each :mod:`~.actions` action to one index of a
fixed ``Discrete(n)``; ``n`` depends only on the env configuration (mechs per side, weapons per
mech, buildings, the move grid of ``BattleOptions``), never on the battle. Compound orders are
the engine's consecutive decisions, so the mask is exact: ``mask[i] == 1`` iff ``decode(i)``
is one of ``game.legal_actions(battle)``. The layout is documented in ``docs/encodings.md``.

Everything is relative to the *viewer*, the side that decides now (``battle.decision.side``):

* mech slots: own mechs ``0..M-1`` and enemy mechs ``0..M-1``, each in id order, counting
  removed mechs too, so slots never shift during a battle;
* weapon slots: the rank of a ranged weapon among the ranged weapons of its mech's design;
* building slots: the rank of a feature among the battlefield's buildings (rubble of a
  destroyed building keeps its slot);
* directions: the engine's move directions (``0`` = east, counter-clockwise); with
  ``mirror=True`` (default) red's directions and headings are turned by 180 degrees, so that
  both sides see their own table edge at the bottom (the observation does the same).

Moves: ``move_directions x move_fractions`` forward slots, the same for jumps, and one reverse
slot per direction. The engine lists straight moves per direction and fraction and shortens a
move that terrain makes too expensive; a shortened move takes the slot of the fraction it was
generated from (the smallest fraction whose nominal length reaches it). If two legal actions
still map to one index (a rounding corner case), the one listed first keeps the index and the
other is left out of the mask; :meth:`ActionCodec.collisions` counts such losses.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    Action,
    ActivateGroup,
    AssignFire,
    AttackBuilding,
    Charge,
    ChooseLocation,
    ChooseMech,
    ChooseObjective,
    Decision,
    DeclareMelee,
    EndFire,
    ExitTable,
    Face,
    FightMech,
    FireAtBuilding,
    FireFirst,
    FreeMove,
    FreeWill,
    KeepGroups,
    LeadDone,
    LeadTeam,
    LuckyChoice,
    Move,
    SkipGroup,
    SplitOff,
    Stay,
)
from wargym.rules.no_quarter.battle.game import rules_of
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions, Mech
from wargym.rules.no_quarter.forces.records import MechDesign
from wargym.rules.no_quarter.forces.vocab import Location, MeleeAttack, Side, Terrain
from wargym.rules.no_quarter.sight_movement.perception import TWISTS

ACTION_VERSION = "nq-act-v2"
"""Version of the action layout; bumped on any change of indices."""
WAIT = 0
"""Index 0: *wait*, legal only in the Parallel env for a side with nothing to decide."""
HEADINGS = 8
"""Stay headings: multiples of 45 degrees."""
FREE_DIRECTIONS = 8
"""Free In Sight moves: 8 directions x 2 distances (1" and the rules' ``free_move_inches``)."""
FREE_REACHES = 2
"""Free-move distances per direction: :func:`free_reach` (the engine offers the same two)."""
FREE_WILL = (2, 1, 0)
"""Free Will choices in slot order (§9.2)."""
LIMBS = (
    (MeleeAttack.PUNCH, Location.ARM_L),
    (MeleeAttack.PUNCH, Location.ARM_R),
    (MeleeAttack.KICK, Location.LEG_L),
    (MeleeAttack.KICK, Location.LEG_R),
)
"""Melee declarations in slot order (§18.3)."""
EDGES = ("south", "east", "north", "west")
"""Table edges for ``ExitTable`` in slot order, in the viewer frame (mirrored for red)."""
OBJECTIVES = ("destroy", "break_through")
"""``ChooseObjective`` values in slot order (§22.2.1)."""
LUCKY_CHOICES = (False, True)
"""``LuckyChoice`` in slot order: keep the roll, re-roll it (D26)."""
LOCATION_SLOTS = tuple(Location)
"""``ChooseLocation`` in slot order: the seven locations in ``Location`` order (§9.6.4)."""
REVERSE_FRACTION = 0.25
"""A reverse covers at most a quarter of Speed (§15.2.2)."""
_TOL = 2e-3


@dataclass(frozen=True)
class Slots:
    """The viewer-relative numbering of one battle's mechs and buildings."""

    viewer: Side
    own: tuple[int, ...]
    enemy: tuple[int, ...]
    buildings: tuple[int, ...]
    turn: float
    """Degrees added to absolute directions for this viewer (180 for mirrored red)."""


def battle_slots(battle: Battle, viewer: Side, mirror: bool = True) -> Slots:
    """Own and enemy mech ids in id order and building feature indices, seen by ``viewer``."""
    own = tuple(sorted(i for i, m in battle.mechs.items() if m.side is viewer))
    enemy = tuple(sorted(i for i, m in battle.mechs.items() if m.side is not viewer))
    buildings = tuple(
        i
        for i, f in enumerate(battle.battlefield.features)
        if f.kind is Terrain.BUILDING or battle.building_armor.get(i, 1) <= 0
    )
    turn = 180.0 if (mirror and viewer is Side.RED) else 0.0
    return Slots(viewer, own, enemy, buildings, turn)


def ranged_weapons_of(design: MechDesign) -> tuple[int, ...]:
    """Item indices of the design's ranged weapons, in slot order (cached per design)."""
    found = _RANGED.get(design.id)
    if found is None or found[0] is not design:
        found = (design, tuple(i for i, it in enumerate(design.items) if it.is_ranged_weapon))
        _RANGED[design.id] = found
    return found[1]


def ranged_weapons(mech: Mech) -> tuple[int, ...]:
    """Item indices of the mech's ranged weapons, in slot order."""
    return ranged_weapons_of(mech.design)


_RANGED: dict[str, tuple[MechDesign, tuple[int, ...]]] = {}

SlotsFn = Callable[[Battle, Side, bool], Slots]
"""Hook numbering a battle's mechs for a viewer: ``(battle, viewer, mirror) -> Slots``
(default :func:`battle_slots`; the mission envs number enemies in order of first sighting)."""


class ActionCodec:
    """Fixed flat ``Discrete(n)`` over every No Quarter action (module docstring)."""

    def __init__(
        self,
        max_mechs: int = 6,
        max_weapons: int = 8,
        max_buildings: int = 12,
        battle_options: BattleOptions | None = None,
        mirror: bool = True,
        slots: SlotsFn | None = None,
    ) -> None:
        opts = battle_options or BattleOptions()
        self.slot_fn: SlotsFn = slots or battle_slots
        self.max_mechs, self.max_weapons, self.max_buildings = max_mechs, max_weapons, max_buildings
        self.directions = opts.move_directions
        self.fractions = tuple(float(f) for f in opts.move_fractions)
        if mirror and self.directions % 2:
            raise ValueError("mirror=True needs an even number of move_directions")
        self.mirror = mirror
        d, f, m = self.directions, len(self.fractions), max_mechs
        sizes = {
            "wait": 1,
            "activate": m,
            "skip": m,
            "choose": m,
            "fire_first": 1,
            "stay": 1 + HEADINGS,
            "move": d * f,
            "jump": d * f,
            "reverse": d,
            "charge": m,
            "assign_fire": max_weapons * m,
            "fire_building": max_weapons * max_buildings,
            "end_fire": 1,
            "free_move": 1 + FREE_DIRECTIONS * FREE_REACHES,
            "free_will": len(FREE_WILL),
            "declare_melee": len(LIMBS),
            "fight": m,
            "attack_building": max_buildings * len(LIMBS),
            "exit": len(EDGES),
            "objective": len(OBJECTIVES),
            "face": (1 + HEADINGS) * len(TWISTS),
            "lead": m,
            "lead_done": 1,
            "split": m,
            "keep_groups": 1,
            "lucky": len(LUCKY_CHOICES),
            "marksman": len(LOCATION_SLOTS),
        }
        self.offsets: dict[str, int] = {}
        start = 0
        for name, size in sizes.items():
            self.offsets[name] = start
            start += size
        self.sizes = sizes
        self.n = start
        self._cache: tuple[Any, dict[int, Action], int] | None = None

    # -- public API ----------------------------------------------------------------------
    def slots(self, battle: Battle, viewer: Side | None = None) -> Slots:
        """Slots of ``battle`` for ``viewer`` (default: the deciding side)."""
        side = viewer or _decision(battle).side
        return self.slot_fn(battle, side, self.mirror)

    def encode(self, action: Action, battle: Battle) -> int:
        """The index of ``action`` at the current decision of ``battle``.

        Raises:
            ValueError: the action concerns another mech than the decision's, or a slot
                beyond the codec's maxima.
        """
        decision = _decision(battle)
        return self._encode(action, battle, decision, self.slots(battle, decision.side))

    def decode(self, index: int, battle: Battle) -> Action:
        """The action of ``index`` now: the legal one if the mask allows it, else nominal.

        Raises:
            ValueError: ``index`` names nothing in this battle (an empty slot, the wait
                index, or no pending decision).
        """
        table = self.table(battle)
        if index in table:
            return table[index]
        return self._nominal(int(index), battle)

    def mask(self, battle: Battle) -> np.ndarray:
        """int8 mask of the deciding side's legal indices (all zero when none decides)."""
        out = np.zeros(self.n, dtype=np.int8)
        if battle.decision is not None and not battle.over:
            out[list(self.table(battle))] = 1
        return out

    def table(self, battle: Battle) -> dict[int, Action]:
        """``{index: legal action}`` at the current decision (first listed wins a clash)."""
        options = game.legal_actions(battle)
        key = battle.options_cache
        if self._cache is not None and self._cache[0] is key and key is not None:
            return self._cache[1]
        found: dict[int, Action] = {}
        clashes = 0
        if options:
            decision = _decision(battle)
            slots = self.slots(battle, decision.side)
            for action in options:
                try:
                    index = self._encode(action, battle, decision, slots)
                except ValueError:
                    clashes += 1  # beyond the codec's maxima: not offered
                    continue
                if index in found:
                    clashes += 1
                    continue
                found[index] = action
        self._cache = (key, found, clashes)
        return found

    def collisions(self, battle: Battle) -> int:
        """Legal actions of the current decision left out of the mask (clash or no slot)."""
        self.table(battle)
        assert self._cache is not None
        return self._cache[2]

    def block_of(self, index: int) -> tuple[str, int]:
        """``(block name, offset inside the block)`` of ``index``."""
        for name, start in reversed(self.offsets.items()):
            if index >= start:
                if index - start >= self.sizes[name]:
                    break
                return name, index - start
        raise ValueError(f"index {index} is outside 0..{self.n - 1}")

    def describe(self, index: int, battle: Battle) -> str:
        """The action of ``index`` in rulebook words, or what its slot means."""
        try:
            return str(self.decode(index, battle))
        except ValueError as error:
            return str(error)

    # -- encoding ------------------------------------------------------------------------
    def _dir_slot(self, angle: float, slots: Slots, count: int) -> int:
        step = 360.0 / count
        return int(round(((angle + slots.turn) % 360.0) / step)) % count

    def _encode(self, action: Action, battle: Battle, decision: Decision, slots: Slots) -> int:
        o, m = self.offsets, self.max_mechs
        if isinstance(action, ActivateGroup):
            return o["activate"] + _slot(slots.own, action.leader, m)
        if isinstance(action, SkipGroup):
            return o["skip"] + _slot(slots.own, action.leader, m)
        if isinstance(action, ChooseMech):
            return o["choose"] + _slot(slots.own, action.mech, m)
        if isinstance(action, ChooseObjective):
            return o["objective"] + OBJECTIVES.index(action.objective)
        if isinstance(action, SplitOff):
            return o["split"] + _slot(slots.own, action.mech, m)
        if isinstance(action, KeepGroups):
            return o["keep_groups"]
        mech = battle.mechs[action.mech]
        if decision.mech is not None and action.mech != decision.mech:
            raise ValueError(f"{action}: not the mech of the decision ({decision.mech})")
        match action:
            case FireFirst():
                return o["fire_first"]
            case Stay(heading=None):
                return o["stay"]
            case Stay(heading=float() | int() as heading):
                return o["stay"] + 1 + self._dir_slot(float(heading), slots, HEADINGS)
            case Move():
                return self._encode_move(action, battle, mech, slots)
            case Charge(target=target):
                return o["charge"] + _slot(slots.enemy, target, m)
            case AssignFire(weapon=weapon, target=target):
                w = _slot(ranged_weapons(mech), weapon, self.max_weapons)
                return o["assign_fire"] + w * m + _slot(slots.enemy, target, m)
            case FireAtBuilding(weapon=weapon, feature=feature):
                w = _slot(ranged_weapons(mech), weapon, self.max_weapons)
                b = _slot(slots.buildings, feature, self.max_buildings)
                return o["fire_building"] + w * self.max_buildings + b
            case EndFire():
                return o["end_fire"]
            case FreeMove(to=None):
                return o["free_move"]
            case FreeMove(to=to):
                assert to is not None
                dx, dy = to[0] - mech.pos[0], to[1] - mech.pos[1]
                k = self._dir_slot(math.degrees(math.atan2(dy, dx)), slots, FREE_DIRECTIONS)
                reach = free_reach(battle)
                r = min(range(FREE_REACHES), key=lambda j: abs(reach[j] - math.hypot(dx, dy)))
                return o["free_move"] + 1 + k * FREE_REACHES + r
            case FreeWill(passed=passed):
                return o["free_will"] + FREE_WILL.index(passed)
            case DeclareMelee(attack=attack, limb=limb):
                return o["declare_melee"] + LIMBS.index((attack, limb))
            case FightMech(target=target):
                return o["fight"] + _slot(slots.enemy, target, m)
            case AttackBuilding(feature=feature, attack=attack, limb=limb):
                b = _slot(slots.buildings, feature, self.max_buildings)
                return o["attack_building"] + b * len(LIMBS) + LIMBS.index((attack, limb))
            case ExitTable(edge=edge):
                return o["exit"] + _edge_slot(edge, slots)
            case Face(heading=heading, twist=twist):
                h = 0 if heading is None else 1 + self._dir_slot(float(heading), slots, HEADINGS)
                if twist not in TWISTS:
                    raise ValueError(f"{action}: the twist is not one of {TWISTS}")
                return o["face"] + h * len(TWISTS) + TWISTS.index(twist)
            case LeadTeam(group=group):
                return o["lead"] + _slot(slots.own, group, m)
            case LeadDone():
                return o["lead_done"]
            case LuckyChoice(reroll=reroll):
                return o["lucky"] + LUCKY_CHOICES.index(reroll)
            case ChooseLocation(location=location):
                return o["marksman"] + LOCATION_SLOTS.index(location)
        raise ValueError(f"unknown action {action!r}")

    def _encode_move(self, action: Move, battle: Battle, mech: Mech, slots: Slots) -> int:
        dx, dy = action.to[0] - mech.pos[0], action.to[1] - mech.pos[1]
        k = self._dir_slot(math.degrees(math.atan2(dy, dx)), slots, self.directions)
        if action.reverse:
            return self.offsets["reverse"] + k
        allowance = _allowance(battle, mech)
        dist = math.hypot(dx, dy)
        j = next(
            (i for i, f in enumerate(self.fractions) if f * allowance >= dist - _TOL),
            len(self.fractions) - 1,
        )
        block = "jump" if action.jump else "move"
        return self.offsets[block] + k * len(self.fractions) + j

    # -- nominal decoding ----------------------------------------------------------------
    def _nominal(self, index: int, battle: Battle) -> Action:
        name, k = self.block_of(index)
        if name == "wait":
            raise ValueError("index 0 is the wait action (Parallel env only)")
        decision = _decision(battle)
        slots = self.slots(battle, decision.side)
        m = self.max_mechs
        if name in ("activate", "skip", "choose"):
            mech_id = _id(slots.own, k, "own mech")
            if name == "activate":
                return ActivateGroup(mech_id)
            return SkipGroup(mech_id) if name == "skip" else ChooseMech(mech_id)
        if name == "objective":
            return ChooseObjective(OBJECTIVES[k])
        if name == "split":
            return SplitOff(_id(slots.own, k, "own mech"))
        if name == "keep_groups":
            return KeepGroups()
        if decision.mech is None:
            raise ValueError(
                f"{name} needs a mech, but the {decision.kind.value} decision has none"
            )
        mech = battle.mechs[decision.mech]
        if name == "fire_first":
            return FireFirst(mech.id)
        if name == "stay":
            return Stay(mech.id, None if k == 0 else self._angle(k - 1, slots, HEADINGS))
        if name in ("move", "jump", "reverse"):
            return self._nominal_move(name, k, battle, mech, slots)
        if name == "charge":
            return Charge(mech.id, _id(slots.enemy, k, "enemy mech"))
        if name == "assign_fire":
            weapon = _id(ranged_weapons(mech), k // m, "weapon")
            return AssignFire(mech.id, weapon, _id(slots.enemy, k % m, "enemy mech"))
        if name == "fire_building":
            weapon = _id(ranged_weapons(mech), k // self.max_buildings, "weapon")
            feature = _id(slots.buildings, k % self.max_buildings, "building")
            return FireAtBuilding(mech.id, weapon, feature)
        if name == "end_fire":
            return EndFire(mech.id)
        if name == "free_move":
            if k == 0:
                return FreeMove(mech.id, None)
            angle = self._angle((k - 1) // FREE_REACHES, slots, FREE_DIRECTIONS)
            reach = free_reach(battle)[(k - 1) % FREE_REACHES]
            return FreeMove(mech.id, _point(mech, angle, reach))
        if name == "free_will":
            return FreeWill(mech.id, FREE_WILL[k])
        if name == "declare_melee":
            return DeclareMelee(mech.id, *LIMBS[k])
        if name == "fight":
            return FightMech(mech.id, _id(slots.enemy, k, "enemy mech"))
        if name == "exit":
            return ExitTable(mech.id, EDGES[(k + (2 if slots.turn else 0)) % len(EDGES)])
        if name == "face":
            h, t = divmod(k, len(TWISTS))
            heading = None if h == 0 else self._angle(h - 1, slots, HEADINGS)
            return Face(mech.id, heading, TWISTS[t])
        if name == "lead":
            return LeadTeam(mech.id, _id(slots.own, k, "own mech"))
        if name == "lead_done":
            return LeadDone(mech.id)
        if name == "lucky":
            return LuckyChoice(mech.id, LUCKY_CHOICES[k])
        if name == "marksman":
            return ChooseLocation(mech.id, LOCATION_SLOTS[k])
        feature = _id(slots.buildings, k // len(LIMBS), "building")
        return AttackBuilding(mech.id, feature, *LIMBS[k % len(LIMBS)])

    def _angle(self, k: int, slots: Slots, count: int) -> float:
        return (k * 360.0 / count - slots.turn) % 360.0

    def _nominal_move(self, name: str, k: int, battle: Battle, mech: Mech, slots: Slots) -> Move:
        allowance = _allowance(battle, mech)
        if name == "reverse":
            angle = self._angle(k, slots, self.directions)
            reach = min(allowance, mech.speed * REVERSE_FRACTION)
            return Move(mech.id, _point(mech, angle, reach), reverse=True)
        f = len(self.fractions)
        angle = self._angle(k // f, slots, self.directions)
        return Move(
            mech.id, _point(mech, angle, allowance * self.fractions[k % f]), jump=name == "jump"
        )


def _decision(battle: Battle) -> Decision:
    if battle.decision is None or battle.over:
        raise ValueError("no decision is pending")
    return battle.decision


def _slot(ids: tuple[int, ...], ident: int, limit: int) -> int:
    try:
        slot = ids.index(ident)
    except ValueError:
        raise ValueError(f"{ident} has no slot among {ids}") from None
    if slot >= limit:
        raise ValueError(f"slot {slot} of {ident} is beyond the codec's maximum {limit}")
    return slot


def _id(ids: tuple[int, ...], slot: int, what: str) -> int:
    if slot >= len(ids):
        raise ValueError(f"there is no {what} in slot {slot}")
    return ids[slot]


def _edge_slot(edge: str, slots: Slots) -> int:
    """Slot of a table edge in the viewer frame (red's north is its south when mirrored)."""
    return (EDGES.index(edge) + (2 if slots.turn else 0)) % len(EDGES)


def _allowance(battle: Battle, mech: Mech) -> float:
    frame = battle.frames[-1] if battle.frames else {}
    spent = float(frame.get("spent", 0.0)) if frame.get("kind") == "mech" else 0.0
    return max(0.0, float(mech.speed) - spent)


def _point(mech: Mech, angle: float, reach: float) -> tuple[float, float]:
    rad = math.radians(angle)
    x = mech.pos[0] + reach * math.cos(rad)
    y = mech.pos[1] + reach * math.sin(rad)
    return (round(x, 3), round(y, 3))


def free_reach(battle: Battle) -> tuple[float, float]:
    """The two free-move distances: 1" and ``free_move_inches`` of the battle's rules (§16.1.3).

    The engine offers the same points (``flow_move._free_targets``), so editing the YAML value
    moves both; with a value of 1" or less both slots name the one distance.
    """
    free = float(rules_of(battle).in_sight.free_move_inches)
    return (min(1.0, free), free)
