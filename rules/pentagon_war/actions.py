"""Decisions and their exact legal options (PW-R2 orders as consecutive decisions).

A side's orders for an impulse are plotted one decision at a time: power items on impulse 1,
then per ship (in id order) link, rotation, thrust, one fire decision per weapon and one
launch decision per launcher. Legality reads the side's own plot (planned facing, charges
already committed) and public state only, never the other side's plot (PW-R8, R11).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from wargym.rules.hexgrid import DIRECTION_NAMES, distance
from wargym.rules.pentagon_war import power
from wargym.rules.pentagon_war.movement import thrust_vector, thrust_within_cap
from wargym.rules.pentagon_war.records import Category, RuleSet, ScreenType, SystemSpec
from wargym.rules.pentagon_war.state import BattleState, DecisionKind, Phase, ShipState, Slot
from wargym.rules.pentagon_war.weapons import (
    in_arc,
    in_interval,
    relative_bearing,
    relative_bearing_qr,
)


class ActionKind(enum.Enum):
    """Kinds of option a decision offers."""

    CHOOSE = "choose"
    """A number: power levels, screen row, thrust points (or direction+1), link change."""
    ROTATE = "rotate"
    """Rotate -1 (counter-clockwise), 0 or +1 (clockwise) hexside (PW-R4)."""
    HOLD = "hold"
    """Do not fire or launch this weapon this impulse."""
    FIRE = "fire"
    """Fire the weapon at ship ``value`` (PW-R8)."""
    LAUNCH = "launch"
    """Launch a missile at ship ``value`` (PW-R15)."""
    RAIL_LAUNCH = "rail_launch"
    """Rail-launch a missile at ship ``value`` for one charge (PW-R15)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One option of a decision: a kind and a number."""

    kind: ActionKind
    value: int = 0

    def __str__(self) -> str:
        if self.kind is ActionKind.ROTATE:
            return {-1: "turn left", 0: "keep facing", 1: "turn right"}[self.value]
        if self.kind is ActionKind.HOLD:
            return "hold"
        if self.kind is ActionKind.CHOOSE:
            return f"choose {self.value}"
        return f"{self.kind.value} at ship {self.value}"


HOLD = Action(ActionKind.HOLD)
_FIRE_VALUE = ActionKind.FIRE.value
_RAIL_VALUE = ActionKind.RAIL_LAUNCH.value


@dataclass(frozen=True, slots=True)
class Decision:
    """Who decides what, and the exact list of legal options."""

    side: int
    ship: int
    kind: DecisionKind
    index: int
    options: tuple[Action, ...]
    subject: str = ""
    """Weapon system name for FIRE, launcher number for LAUNCH, else empty."""


def planned(state: BattleState, ship: int, kind: DecisionKind, index: int = 0) -> int | None:
    """The value already plotted for ``(ship, kind, index)`` by the ship's side, if any."""
    side = state.ships[ship].side
    for order in state.plots[side].orders:
        if order.slot.ship == ship and order.slot.kind is kind and order.slot.index == index:
            return order.value
    return None


def planned_facing(state: BattleState, ship: ShipState) -> int:
    """Facing after this impulse's plotted rotation (a linked craft follows its host)."""
    if ship.linked_to is not None and state.options.linkage:
        return planned_facing(state, state.ships[ship.linked_to])
    rotation = planned(state, ship.id, DecisionKind.ROTATE) or 0
    return (ship.facing + rotation) % 6


def planned_charges(state: BattleState, ship: ShipState, rules: RuleSet) -> int:
    """Charges left after the costs already plotted in this phase (PW-R11)."""
    return ship.charges - state.plots[ship.side].committed.get(ship.id, 0)


def order_cost(
    rules: RuleSet,
    weapons: tuple[SystemSpec, ...],
    kind: DecisionKind,
    index: int,
    action_kind: str,
    value: int,
) -> int:
    """Charges an order costs (PW-R11)."""
    costs = rules.systems.costs
    if kind is DecisionKind.ECM:
        return costs["ecm"] * value
    if kind is DecisionKind.ECCM:
        return costs["eccm"] * value
    if kind is DecisionKind.INVISIBILITY:
        return costs["radar_invisibility"] * value
    if kind is DecisionKind.REINFORCE:
        return costs["reinforce_screens"] * value
    if kind is DecisionKind.MAG_BEAM:
        return costs["fire_mag_beam_at_lmgb"] * min(value, 1) + costs["double_magnetic_beam"] * max(
            0, value - 1
        )
    if kind is DecisionKind.FIRE and action_kind == _FIRE_VALUE:
        line = rules.weapon_types[weapons[index].weapon or ""].capacitor_line
        return costs[line] if line else 0
    if kind is DecisionKind.LAUNCH and action_kind == _RAIL_VALUE:
        return costs["rail_launch_missile"]
    return 0


def fire_blocker(
    state: BattleState,
    rules: RuleSet,
    ship: ShipState,
    weapon: SystemSpec,
    target: ShipState,
    charges_left: int | None = None,
) -> str | None:
    """Why ``weapon`` may not fire at ``target`` now, or None when legal (PW-R8)."""
    design = state.design_of(ship)
    if target.side == ship.side or not target.alive:
        return "not an enemy ship in play"
    if ship.intact[weapon.name] <= 0:
        return "weapon destroyed"
    if weapon.name in ship.fired:
        return "weapon already fired this turn"
    if not power.in_control(ship, design):
        return "firer out of control"
    rng = distance(ship.hex, target.hex)
    if rng > rules.max_fire_range or rng > power.ship_radar_range(ship, design, rules):
        return f"range {rng} beyond radar or the range table"
    if target.invisible and rng > rules.systems.invisibility_max_range:
        return "target radar-invisible beyond 4 hexes"
    theta = relative_bearing(ship.hex, planned_facing(state, ship), target.hex)
    same = rng == 0
    assert weapon.arc is not None
    if not in_arc(weapon.arc, theta, same):
        return "target outside the weapon's arc"
    if not same and ship.linked_to is not None and ship.berth is not None and state.options.linkage:
        blocked = design.linkage_blocked_arcs
        name = blocked[min(ship.berth, len(blocked)) - 1] if blocked else None
        if name is not None:
            centre, half = rules.arc_bases[name], rules.arc_half_width
            if in_interval(theta, centre, half):
                return "arc blocked by the linkage"
    line = rules.weapon_types[weapon.weapon or ""].capacitor_line
    left = planned_charges(state, ship, rules) if charges_left is None else charges_left
    if line and rules.systems.costs[line] > left:
        return "not enough capacitor charge"
    return None


def launch_blocker(
    state: BattleState, rules: RuleSet, ship: ShipState, target: ShipState
) -> str | None:
    """Why a missile may not be launched at ``target``, or None when legal (PW-R15)."""
    design = state.design_of(ship)
    if target.side == ship.side or not target.alive:
        return "not an enemy ship in play"
    rng = distance(ship.hex, target.hex)
    reach = min(rules.systems.missile_max_range, power.ship_radar_range(ship, design, rules))
    if rng > reach:
        return f"range {rng} beyond missile reach {reach}"
    if target.invisible and rng > rules.systems.invisibility_max_range:
        return "target radar-invisible beyond 4 hexes"
    return None


def hex_gap(a: ShipState, b: ShipState) -> int:
    """Hex distance between two ships (PW-R1), without building Hex objects."""
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _fire_targets(
    state: BattleState, rules: RuleSet, ship: ShipState, index: int, left: int
) -> list[int]:
    """Fast path of :func:`fire_blocker` over every enemy (same checks, shared work)."""
    design = state.design_of(ship)
    weapon = design.weapons[index]
    line = rules.weapon_types[weapon.weapon or ""].capacitor_line
    if (
        ship.intact[weapon.name] <= 0
        or weapon.name in ship.fired
        or (line is not None and rules.systems.costs[line] > left)
        or not power.in_control(ship, design)
    ):
        return []
    reach = min(rules.max_fire_range, power.ship_radar_range(ship, design, rules))
    invisible_reach = rules.systems.invisibility_max_range
    arc = weapon.arc
    assert arc is not None
    facing: int | None = None
    blocked: tuple[int, int] | None = None
    if ship.linked_to is not None and ship.berth is not None and state.options.linkage:
        arcs = design.linkage_blocked_arcs
        name = arcs[min(ship.berth, len(arcs)) - 1] if arcs else None
        if name is not None:
            blocked = (rules.arc_bases[name], rules.arc_half_width)
    out = []
    for target in state.ships:
        if target.side == ship.side or target.destroyed or target.disengaged:
            continue
        rng = hex_gap(ship, target)
        if rng > reach or (target.invisible and rng > invisible_reach):
            continue
        if rng:
            if facing is None:
                facing = planned_facing(state, ship)
            theta = relative_bearing_qr(target.q - ship.q, target.r - ship.r, facing)
            if not in_arc(arc, theta):
                continue
            if blocked is not None and in_interval(theta, *blocked):
                continue
        out.append(target.id)
    return out


_CHOICES = tuple(Action(ActionKind.CHOOSE, v) for v in range(7))
_ROTATIONS = tuple(Action(ActionKind.ROTATE, v) for v in (-1, 0, 1))
_KEEP_FACING = (_ROTATIONS[1],)
_SHIP_ACTIONS: dict[str, dict[int, Action]] = {}


def _choose(values: range | list[int]) -> tuple[Action, ...]:
    return tuple(_CHOICES[v] if 0 <= v < 7 else Action(ActionKind.CHOOSE, v) for v in values)


def _at(kind: ActionKind, ship: int) -> Action:
    """The shared ``Action(kind, ship)`` (actions are immutable; building them is not free)."""
    table = _SHIP_ACTIONS.get(kind._name_)  # str key: Enum.__hash__ runs in Python
    if table is None:
        table = _SHIP_ACTIONS[kind._name_] = {}
    action = table.get(ship)
    if action is None:
        action = table[ship] = Action(kind, ship)
    return action


def host_of(state: BattleState, ship: ShipState) -> ShipState | None:
    """The host a small craft may link to now: same hex, facing and velocity (PW-R19)."""
    design = state.design_of(ship)
    for other in state.side_ships(ship.side):
        odesign = state.design_of(other)
        if (
            other.alive
            and other.design == design.linkage_partner
            and other.hex == ship.hex
            and other.facing == ship.facing
            and (other.va, other.vc) == (ship.va, ship.vc)
        ):
            taken = {s.berth for s in state.ships if s.linked_to == other.id}
            if len(taken) < odesign.host_berths:
                return other
    return None


def thrust_available(state: BattleState, ship: ShipState) -> int:
    """Thrust points left this turn; a host thrusts with the combined rating (PW-R5, R19)."""
    design = state.design_of(ship)
    if state.options.fuel and power.intact_in(ship, design, Category.FUEL_TANK) == 0:
        return 0
    rating = power.thrust_points(ship, design)
    if state.options.linkage:
        for craft in state.ships:
            if craft.linked_to == ship.id and craft.alive:
                rating += power.thrust_points(craft, state.design_of(craft))
    return max(0, rating - ship.thrust_used)


_HOLD_ONLY = (HOLD,)


def options_for(state: BattleState, rules: RuleSet, slot: Slot) -> tuple[Action, ...]:
    """The exact legal options of one plot slot."""
    ship = state.ships[slot.ship]
    kind = slot.kind
    if kind is DecisionKind.FIRE:
        left = ship.charges - state.plots[ship.side].committed.get(ship.id, 0)
        targets = _fire_targets(state, rules, ship, slot.index, left)
        if not targets:
            return _HOLD_ONLY
        return (HOLD, *(_at(ActionKind.FIRE, t) for t in targets))
    if kind is DecisionKind.ROTATE:
        if planned(state, ship.id, DecisionKind.LINK) == 1:
            return _KEEP_FACING
        return _ROTATIONS
    if kind is DecisionKind.THRUST:
        if planned(state, ship.id, DecisionKind.LINK) == 1 or thrust_available(state, ship) <= 0:
            return _CHOICES[:1]
        velocity = (ship.va, ship.vc)
        if state.options.omnidirectional_thrust:
            dirs = [
                d for d in range(6) if thrust_within_cap(rules, velocity, ship.accelerations, d)
            ]
            return _choose([0, *(d + 1 for d in dirs)])
        facing = planned_facing(state, ship)
        most = min(rules.max_thrust_per_impulse, thrust_available(state, ship))
        points, pushed = 0, list(ship.accelerations)
        while points < most and thrust_within_cap(rules, velocity, pushed, facing):
            points += 1
            pushed.append(thrust_vector(rules, facing))
        return _CHOICES[: points + 1]
    design = state.design_of(ship)
    costs = rules.systems.costs
    if kind is DecisionKind.LAUNCH:  # the checks of launch_blocker
        left = ship.charges - state.plots[ship.side].committed.get(ship.id, 0)
        reach = min(rules.systems.missile_max_range, power.ship_radar_range(ship, design, rules))
        invisible_reach = rules.systems.invisibility_max_range
        targets = []
        for t in state.ships:
            if t.side == ship.side or t.destroyed or t.disengaged:
                continue
            rng = hex_gap(ship, t)
            if rng > reach or (t.invisible and rng > invisible_reach):
                continue
            targets.append(t.id)
        rail = left >= costs["rail_launch_missile"]
        return (
            HOLD,
            *(_at(ActionKind.LAUNCH, t) for t in targets),
            *(_at(ActionKind.RAIL_LAUNCH, t) for t in targets if rail),
        )
    if kind is DecisionKind.SCREEN_ROW:
        return _choose(range(1, 7))
    if kind is DecisionKind.LINK:
        can = ship.linked_to is not None or host_of(state, ship) is not None
        return _choose([0, 1] if can else [0])
    left = planned_charges(state, ship, rules)
    if kind in (DecisionKind.ECM, DecisionKind.ECCM, DecisionKind.INVISIBILITY):
        line = {"ecm": "ecm", "eccm": "eccm", "invisibility": "radar_invisibility"}[kind.value]
        return _choose([0, 1] if left >= costs[line] else [0])
    if kind is DecisionKind.REINFORCE:
        top = min(rules.systems.max_reinforce_screens, left // max(1, costs["reinforce_screens"]))
        return _choose(range(top + 1))
    # MAG_BEAM
    beams = power.intact_in(ship, design, Category.MAGNETIC_BEAM)
    values = [0]
    if beams >= 1 and left >= costs["fire_mag_beam_at_lmgb"]:
        values.append(1)
    single_double = costs["fire_mag_beam_at_lmgb"] + costs["double_magnetic_beam"]
    if beams >= rules.systems.mag_double_boxes and left >= single_double:
        values.append(2)
    return _choose(values)


def build_queue(state: BattleState, rules: RuleSet, side: int) -> list[Slot]:
    """Decision slots of ``side`` for the current phase, ships in id order (PW-R2)."""
    queue: list[Slot] = []
    for ship in state.side_ships(side):
        design = state.design_of(ship)
        if not ship.alive or not power.in_control(ship, design):
            continue
        if state.phase is Phase.POWER:
            queue += [Slot(ship.id, k) for k in (DecisionKind.ECM, DecisionKind.ECCM)]
            queue.append(Slot(ship.id, DecisionKind.INVISIBILITY))
            if design.screens is not ScreenType.NONE and power.intact_in(
                ship, design, Category.SCREEN
            ):
                queue.append(Slot(ship.id, DecisionKind.REINFORCE))
                if design.screens is ScreenType.DIRECTIONAL:
                    queue.append(Slot(ship.id, DecisionKind.SCREEN_ROW))
            queue.append(Slot(ship.id, DecisionKind.MAG_BEAM))
            continue
        linked = state.options.linkage and ship.linked_to is not None
        if state.options.linkage and design.linkage_partner is not None:
            queue.append(Slot(ship.id, DecisionKind.LINK))
        if not linked:
            queue += [Slot(ship.id, DecisionKind.ROTATE), Slot(ship.id, DecisionKind.THRUST)]
        for i, weapon in enumerate(design.weapons):
            if ship.intact[weapon.name] > 0 and weapon.name not in ship.fired:
                queue.append(Slot(ship.id, DecisionKind.FIRE, i))
        per_turn = rules.systems.launches_per_launcher_per_turn
        launchers = power.intact_in(ship, design, Category.MISSILE) * per_turn - ship.launched
        if ship.missiles_left is not None:
            launchers = min(launchers, ship.missiles_left)
        queue += [Slot(ship.id, DecisionKind.LAUNCH, i) for i in range(max(0, launchers))]
    return queue


def describe(state: BattleState, slot: Slot) -> str:
    """Subject of a slot in rulebook words (weapon name, launcher number)."""
    if slot.kind is DecisionKind.FIRE:
        return state.design_of(slot.ship).weapons[slot.index].name
    if slot.kind is DecisionKind.LAUNCH:
        return f"launcher {slot.index + 1}"
    return ""


def direction_name(index: int) -> str:
    """Letter A..F of a direction index (PW-R1)."""
    return DIRECTION_NAMES[index % 6]
