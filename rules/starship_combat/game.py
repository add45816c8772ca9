"""The orchestrator: order decisions, then the automatic round (TR-R3, TR-R25).

``new_battle`` sets up a scenario; ``decision(state, side)`` exposes the next decision of a side
(sides plot simultaneously; ``decider`` gives the lowest pending side for turn-based use);
``play(state, side, action, dice)`` records an order and, once every side has finished
plotting, resolves the round: movement, detection, fire, damage, end-of-round steps.

>>> from wargym.rules.dice import RandomDice
>>> state = new_battle("duel")
>>> decision(state, 0).kind.value, len(state.ships)
('heading', 2)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from wargym.rules.dice import Dice
from wargym.rules.errors import IllegalActionError, RulesError
from wargym.rules.events import Event
from wargym.rules.starship_combat import fire as fr
from wargym.rules.starship_combat.actions import (
    Accelerate,
    Action,
    Board,
    CommitTroops,
    Decision,
    DecisionKind,
    Fire,
    HoldFire,
    SetFlicker,
    SetHeading,
)
from wargym.rules.starship_combat.boarding import committed_troops, eligible
from wargym.rules.starship_combat.damage import apply_effect
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.movement import legal_accelerations, legal_headings
from wargym.rules.starship_combat.round import resolve_movement, resolve_rest
from wargym.rules.starship_combat.ruleset import RuleSet
from wargym.rules.starship_combat.state import (
    BattleState,
    FireOrder,
    Options,
    ShipOrders,
    ShipState,
    battery_count,
    bearing_count,
    current_g,
    design_of,
    limited_heading,
    mount,
    power_steps,
    record_of,
)

__all__ = [
    "Outcome", "Termination", "new_battle", "decision", "decider", "pending_sides",
    "legal_actions", "play", "advance", "is_over", "outcome", "apply_effect",
]  # fmt: skip


class Termination(enum.Enum):
    """How a battle ended (TR-R25)."""

    DEFEAT = "defeat"
    """One side has every ship out."""
    MUTUAL = "mutual"
    """Both sides are out in the same round: a draw."""
    TRUNCATED = "truncated"
    """The round limit was reached: a draw."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """Result of a finished battle; ``winner`` None is a draw (TR-R25)."""

    termination: Termination
    winner: int | None


def new_battle(scenario: str = "duel", options: Options | None = None) -> BattleState:
    """Set up ``scenario`` with fresh damage records (§2.13, TR-R26)."""
    rules = load_rules()
    if scenario not in rules.scenarios:
        raise RulesError(f"unknown scenario {scenario!r}; known {sorted(rules.scenarios)}")
    options = options or Options()
    sc = rules.scenarios[scenario]
    ships: list[ShipState] = []
    for side, deployments in enumerate(sc.sides):
        for dep in deployments:
            design = rules.ships[dep.design]
            rec = record_of(dep.design)
            ships.append(
                ShipState(
                    id=len(ships),
                    side=side,
                    design=dep.design,
                    craft=dep.craft,
                    pos=dep.at,
                    vel=(0, 0),
                    heading=dep.heading,
                    gunnery=dep.gunnery,
                    tactics=dep.tactics,
                    troop_quality=dep.troop_quality.value,
                    armor=design.armor,
                    weapons=dict(rec.weapons),
                    screens=dict(rec.screens),
                    computer=rec.computer,
                    sensors=rec.sensors,
                    crew=rec.crew,
                    frozen_watch=rec.frozen_watch,
                    fuel=rec.fuel.total_days,
                    troops=design.troops,
                )  # fmt: skip
            )
    nuclear = sc.nuclear_missiles if options.nuclear_missiles is None else options.nuclear_missiles
    state = BattleState(scenario, options, ships, nuclear_missiles=nuclear)
    state.detected = {side: [s.id for s in ships if s.side != side] for side in (0, 1)}
    _autofill(state, rules)
    return state


def max_rounds(state: BattleState, rules: RuleSet) -> int:
    """Truncation round (TR-R25, option ``max_rounds``)."""
    return state.options.max_rounds or rules.max_rounds


def _orders(state: BattleState, ship: ShipState) -> ShipOrders:
    return state.orders.get(ship.id) or ShipOrders()


def _flicker_options(ship: ShipState, rules: RuleSet, opts: Options) -> tuple[int, ...]:
    boxes = ship.screens.get("black_globe", 0)
    if power_steps(ship, rules, opts) >= rules.power_screens_off:
        boxes = 0
    step = rules.flicker_step_pct
    return tuple(range(0, min(design_of(ship).black_globe_max_pct, boxes * step) + 1, step))


def _fire_options(
    state: BattleState, ship: ShipState, key: str, o: ShipOrders, rules: RuleSet
) -> tuple[Action, ...]:
    opts = state.options
    used = sum(f.batteries for f in o.fire if f.weapon == key)
    left = battery_count(ship, key, opts) - used
    bear = bearing_count(ship, key, opts)
    out: list[Action] = [HoldFire()]
    ordered = {f.target for f in o.fire if f.weapon == key}
    for target in state.ships:
        if target.side == ship.side or target.out or target.id in ordered:
            continue  # one batch per (weapon type, target) a round (§2.1, TR-R7)
        if opts.sensors and target.id not in state.detected.get(ship.side, []):
            continue
        if mount(ship, key).spinal and fr.is_fighter(target):
            continue
        room = min(left, bear)
        if state.phase == "fire_orders":
            if fr.target_problem(state, ship, key, target, rules, opts):
                continue
            arc = fr.arc_of(ship, target)
            in_arc = sum(
                f.batteries
                for f in o.fire
                if f.weapon == key and fr.arc_of(ship, state.ship(f.target)) == arc
            )
            room = min(left, bear - in_arc)  # fmt: skip
        out.extend(Fire(target.id, k) for k in range(1, room + 1))
    return tuple(out)


def _ship_decision(
    state: BattleState, ship: ShipState, rules: RuleSet
) -> tuple[DecisionKind, str | None, tuple[Action, ...]] | None:
    opts = state.options
    o = _orders(state, ship)
    moving = state.phase == "orders"
    firing = state.phase == "fire_orders" or not opts.fire_after_movement
    limited = limited_heading(ship, rules, opts)
    if moving and o.heading is None:
        heads = legal_headings(ship.heading, limited)
        return DecisionKind.HEADING, None, tuple(SetHeading(h) for h in heads)
    if moving and o.accel_mag is None:
        g = 0 if ship.bridge_hit_round == state.round else current_g(ship, rules, opts)
        accs = legal_accelerations(ship.vel, g, o.heading or 0, limited, rules)
        return DecisionKind.ACCEL, None, tuple(Accelerate(d, m) for d, m in accs)
    if moving and o.flicker is None and opts.black_globes and design_of(ship).black_globe_max_pct:
        flick = _flicker_options(ship, rules, opts)
        return DecisionKind.FLICKER, None, tuple(SetFlicker(p) for p in flick)
    if not firing:
        return None
    if fr.can_fire(state, ship, rules, opts):
        for m in design_of(ship).weapons:
            if m.key in o.weapons_done:
                continue
            if not fr.weapon_usable(state, ship, m.key, o.accel_mag or 0, rules, opts):
                continue
            return DecisionKind.FIRE, m.key, _fire_options(state, ship, m.key, o, rules)
    if opts.boarding and not o.board_done and ship.troops > 0 and ship.craft == 0:
        targets = [
            t for t in state.ships
            if t.side != ship.side and t.craft == 0
            and not (t.destroyed or t.captured or t.disengaged)
            and (state.phase != "fire_orders" or eligible(state, ship, t, rules, opts))
        ]  # fmt: skip
        return DecisionKind.BOARD, None, (Board(None), *(Board(t.id) for t in targets))
    if o.board_target is not None and o.board_tenths is None and ship.troops > 0:
        return DecisionKind.BOARD_TROOPS, None, troop_options(ship.troops)
    return None


def troop_options(troops: int) -> tuple[CommitTroops, ...]:
    """Shares of ``troops`` a boarding may commit: 10 % steps, one per distinct count (TR-R22)."""
    seen: set[int] = set()
    out = []
    for tenths in range(1, 11):
        n = committed_troops(troops, tenths)
        if n not in seen:
            seen.add(n)
            out.append(CommitTroops(tenths))
    return tuple(out)


def decision(state: BattleState, side: int) -> Decision | None:
    """The next decision of ``side`` this round, or None when its orders are complete."""
    if state.over:
        return None
    if side in state._memo:
        cached: Decision | None = state._memo[side]
        return cached
    rules = load_rules()
    result = None
    for ship in state.side_ships(side):
        if ship.out:
            continue
        found = _ship_decision(state, ship, rules)
        if found is not None:
            kind, weapon, options = found
            result = Decision(side, ship.id, kind, weapon, options)
            break
    state._memo[side] = result
    return result


def pending_sides(state: BattleState) -> tuple[int, ...]:
    """Sides that still have a decision to make (they plot simultaneously, TR-R3)."""
    return tuple(side for side in (0, 1) if decision(state, side) is not None)


def decider(state: BattleState) -> int | None:
    """The lowest side still plotting, for turn-based (AEC) play; None when over."""
    pending = pending_sides(state)
    return pending[0] if pending else None


def legal_actions(state: BattleState, side: int) -> list[Action]:
    """The exact legal options of ``side`` now (empty when it has nothing to decide)."""
    d = decision(state, side)
    return list(d.options) if d is not None else []


def _record(state: BattleState, d: Decision, action: Action) -> None:
    # Only this side's cached decision goes stale: a side's options read its own orders and
    # public state, never the other side's orders (TR-R3: orders are secret until resolution).
    state._memo.pop(d.side, None)
    o = state.orders.setdefault(d.ship, ShipOrders())
    match action:
        case SetHeading(direction=h):
            o.heading = h
        case Accelerate(direction=di, magnitude=mag):
            o.accel_dir, o.accel_mag = di, mag
        case SetFlicker(pct=p):
            o.flicker = p
        case Fire(target=t, batteries=n):
            assert d.weapon is not None
            o.fire.append(FireOrder(d.weapon, t, n))
        case HoldFire():
            assert d.weapon is not None
            o.weapons_done.append(d.weapon)
        case Board(target=t):
            o.board_done, o.board_target = True, t
        case CommitTroops(tenths=k):
            o.board_tenths = k


def _autofill(state: BattleState, rules: RuleSet) -> None:
    """Take decisions that have a single legal option (they are not decisions)."""
    for side in (0, 1):
        d = decision(state, side)
        while d is not None and len(d.options) == 1:
            _record(state, d, d.options[0])
            d = decision(state, side)


def play(state: BattleState, side: int, action: Action, dice: Dice) -> list[Event]:
    """Record ``action`` for ``side``; resolve the round once both sides are done (TR-R3).

    Raises IllegalActionError, leaving the state untouched, if the action is not legal.
    """
    d = decision(state, side)
    if d is None:
        raise IllegalActionError(f"side {side} has no decision to make now")
    if action not in d.options:
        raise IllegalActionError(
            f"{action} is not legal for ship {d.ship} ({d.kind.value}"
            f"{' ' + d.weapon if d.weapon else ''}) in round {state.round}"
        )
    _record(state, d, action)
    return advance(state, dice)


def advance(state: BattleState, dice: Dice) -> list[Event]:
    """Run the automatic rules until a side must decide or the battle is over."""
    rules = load_rules()
    events: list[Event] = []
    _autofill(state, rules)
    while not state.over and not pending_sides(state):
        state.touch()
        if state.phase == "orders":
            events.extend(resolve_movement(state, dice, rules))
            state.touch()
            if state.options.fire_after_movement:
                state.phase = "fire_orders"
                state.touch()
                _autofill(state, rules)
                continue
        events.extend(resolve_rest(state, dice, rules, max_rounds(state, rules)))
        state.touch()
        _autofill(state, rules)
    return events


def is_over(state: BattleState) -> bool:
    """Whether the battle has ended (TR-R25)."""
    return state.over


def outcome(state: BattleState) -> Outcome | None:
    """The result, or None while the battle goes on (TR-R25)."""
    if not state.over:
        return None
    if state.end_reason == "max_rounds":
        return Outcome(Termination.TRUNCATED, None)
    if state.winner is None:
        return Outcome(Termination.MUTUAL, None)
    return Outcome(Termination.DEFEAT, state.winner)
