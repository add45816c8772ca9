"""Orchestrator of a Pentagon War battle: sequence of play and decision points (PW-R2, R21).

``new_battle`` sets up a scenario and runs the rules to the first decision. ``play`` takes one
decision of one side; when both sides have plotted the phase it resolves it and runs the rules
on until a side must decide again or the battle is over. Plots are simultaneous and secret:
legality of a side's options reads only public state and that side's own plot.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wargym.rules.dice import Dice
from wargym.rules.errors import IllegalActionError, RulesError
from wargym.rules.events import Event
from wargym.rules.hexgrid import Hex, disc
from wargym.rules.pentagon_war import power
from wargym.rules.pentagon_war.actions import (
    Action,
    ActionKind,
    Decision,
    build_queue,
    describe,
    host_of,
    options_for,
    order_cost,
)
from wargym.rules.pentagon_war.combat import (
    acid_gum_packets,
    fire,
    fire_step,
    launch,
    missiles_arrive,
    pay,
)
from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.events import (
    BattleEnded,
    LinkChanged,
    PowerAllocated,
    ShipRotated,
    ThrustRecorded,
)
from wargym.rules.pentagon_war.movement import (
    thrust_vector,
)
from wargym.rules.pentagon_war.records import Options, RuleSet, Scenario
from wargym.rules.pentagon_war.sequence import end_turn, move, start_turn
from wargym.rules.pentagon_war.state import (
    BattleState,
    DecisionKind,
    Order,
    Outcome,
    Phase,
    ShipState,
    Termination,
)


def new_battle(
    scenario: str | Scenario,
    rng: np.random.Generator | None = None,
    options: Options | None = None,
    rules: RuleSet | None = None,
    dice: Dice | None = None,
) -> tuple[BattleState, list[Event]]:
    """Set up ``scenario`` and run to the first decision (PW-R21); ``rng`` only for set-up.

    Scenario options apply unless ``options`` is given. ``dice`` is needed only if the rules
    must resolve fire before anyone has a decision (never in the packaged scenarios).
    """
    rules = rules or load_rules()
    scen = rules.scenarios[scenario] if isinstance(scenario, str) else scenario
    opts = options or Options()
    if scen.options and options is None:
        opts = dataclasses.replace(opts, **dict(scen.options))  # type: ignore[arg-type]
    if opts.omnidirectional_thrust and rules.max_thrust_per_impulse != 1:
        raise RulesError(
            "omnidirectional_thrust plays one thrust point per impulse; movement.yaml "
            f"max_thrust_points_per_impulse is {rules.max_thrust_per_impulse}"
        )
    ships: list[ShipState] = []
    spots: list[Hex] = []
    if scen.random_placement_radius is not None:
        gen = rng if rng is not None else np.random.default_rng(0)
        hexes = list(disc(Hex(0, 0), scen.random_placement_radius))
        picks = gen.choice(len(hexes), size=sum(len(s) for s in scen.sides), replace=False)
        spots = [hexes[int(i)] for i in picks]
        facings = [int(f) for f in gen.integers(0, 6, size=len(spots))]
    for side, placements in enumerate(scen.sides):
        first = len(ships)
        for place in placements:
            design = rules.designs[place.design]
            at, facing = Hex(*place.at), place.facing
            if spots:
                at, facing = spots[len(ships)], facings[len(ships)]
            ships.append(
                ShipState(
                    id=len(ships),
                    side=side,
                    design=design.key,
                    q=at.q,
                    r=at.r,
                    facing=facing,
                    va=place.velocity[0],
                    vc=place.velocity[1],
                    intact={s.name: s.boxes for s in design.systems},
                    armor=list(design.armor),
                    radar_destroyed=0,
                    final_damage=design.final_damage,
                    alert_status=place.alert_status,
                    missiles_left=opts.missile_magazine,
                    linked_to=(
                        first + place.linked_to
                        if place.linked_to is not None and opts.linkage
                        else None
                    ),
                    berth=place.berth if opts.linkage else None,
                )
            )
    used = {s.design for s in ships}
    state = BattleState(scen.key, opts, {k: rules.designs[k] for k in sorted(used)}, ships)
    events = start_turn(state, rules) + move(state, rules)
    events += _begin_phase(state, rules, Phase.POWER)
    while state.outcome is None and not any(p.queue for p in state.plots):
        events += _resolve_phase(state, rules, dice or _NO_DICE)
    return state, events


class _NoDice:
    """Dice for set-up, where the rules never roll."""

    def roll(self, n: int) -> tuple[int, ...]:
        raise RulesError(f"set-up needed {n} dice; pass dice= to new_battle")


_NO_DICE = _NoDice()


# -- decision points -------------------------------------------------------------------------


def decision_for(state: BattleState, side: int, rules: RuleSet | None = None) -> Decision | None:
    """The decision ``side`` faces now, or None when it has nothing to plot.

    The options of the queue head where the engine stopped are cached on the plot (see
    :data:`_HEAD`); code that edits a state by hand mid-plot should take a ``clone()`` first.
    """
    if state.phase is Phase.OVER or not state.plots[side].queue:
        return None
    rules = rules or load_rules()
    plot = state.plots[side]
    slot = plot.queue[0]
    head = plot.__dict__.get(_HEAD) or (None, ())
    options = head[1] if head[0] is slot else options_for(state, rules, slot)
    return Decision(side, slot.ship, slot.kind, slot.index, options, describe(state, slot))


_HEAD = "_head_options"
"""Plot attribute (not a field: never serialised) caching ``(slot, options)`` of the queue head
that :func:`_advance` stopped at; valid while that slot object is still the head, since
plotting by the other side never changes a side's options (PW-R2: plots are secret)."""


def decider(state: BattleState) -> Decision | None:
    """The next decision in turn order (lowest side still plotting), None when over."""
    for side in (0, 1):
        decision = decision_for(state, side)
        if decision is not None:
            return decision
    return None


def legal_actions(state: BattleState, side: int | None = None) -> list[Action]:
    """Legal options of ``side``'s current decision (default: the decider's)."""
    decision = decider(state) if side is None else decision_for(state, side)
    return list(decision.options) if decision else []


def has_decision(state: BattleState, side: int) -> bool:
    """Whether ``side`` has a decision to plot now (cheap: options are not computed)."""
    return state.phase is not Phase.OVER and bool(state.plots[side].queue)


def is_over(state: BattleState) -> bool:
    """Whether the battle has ended (PW-R21)."""
    return state.outcome is not None


def outcome(state: BattleState) -> Outcome | None:
    """The result once over (PW-R21)."""
    return state.outcome


def play(
    state: BattleState,
    action: Action,
    dice: Dice,
    side: int | None = None,
    rules: RuleSet | None = None,
    decision: Decision | None = None,
) -> list[Event]:
    """Plot ``action`` for ``side`` and run the rules on to the next decision (PW-R2).

    ``decision`` may pass the current decision of ``side`` as :func:`decision_for` gave it,
    with the state unchanged since, to save recomputing its options.
    Raises IllegalActionError (state untouched) when ``action`` is not a legal option.
    """
    rules = rules or load_rules()
    if decision is None or side is None or decision.side != side:
        decision = decider(state) if side is None else decision_for(state, side, rules)
    if decision is None:
        who = "nobody" if side is None else f"side {side}"
        raise IllegalActionError(f"{action}: {who} has no decision to make now")
    if action not in decision.options:
        raise IllegalActionError(
            f"{action} is not legal for ship {decision.ship} {decision.kind.value} "
            f"{decision.subject}; legal: {[str(a) for a in decision.options]}"
        )
    _record(state, decision.side, action, rules)
    _advance(state, rules, decision.side)
    events: list[Event] = []
    while state.outcome is None and not any(p.queue for p in state.plots):
        events += _resolve_phase(state, rules, dice)
    return events


# -- plotting --------------------------------------------------------------------------------


def _record(state: BattleState, side: int, action: Action, rules: RuleSet) -> None:
    plot = state.plots[side]
    slot = plot.queue.pop(0)
    kind_value = _KIND_VALUES[action.kind._name_]
    plot.orders.append(Order(slot, kind_value, action.value))
    if slot.kind in _FREE_KINDS:  # order_cost is 0 for these
        return
    weapons = state.design_of(slot.ship).weapons if slot.kind is DecisionKind.FIRE else ()
    charge = order_cost(rules, weapons, slot.kind, slot.index, kind_value, action.value)
    if charge:
        plot.committed[slot.ship] = plot.committed.get(slot.ship, 0) + charge


_KIND_VALUES = {kind._name_: kind.value for kind in ActionKind}
"""``ActionKind.X.value`` by member name (``.value`` is a Python-level descriptor)."""
_HOLD_VALUE = ActionKind.HOLD.value
_FREE_KINDS = (DecisionKind.SCREEN_ROW, DecisionKind.LINK, DecisionKind.ROTATE, DecisionKind.THRUST)


def _advance(state: BattleState, rules: RuleSet, side: int) -> None:
    """Take every forced decision (a single legal option) automatically."""
    plot = state.plots[side]
    while plot.queue:
        slot = plot.queue[0]
        options = options_for(state, rules, slot)
        if len(options) != 1:
            plot.__dict__[_HEAD] = (slot, options)
            return
        _record(state, side, options[0], rules)


def _begin_phase(state: BattleState, rules: RuleSet, phase: Phase) -> list[Event]:
    state.phase = phase
    for side in (0, 1):
        state.plots[side].orders = []
        state.plots[side].committed = {}
        state.plots[side].queue = build_queue(state, rules, side)
        _advance(state, rules, side)
    return []


# -- resolution ------------------------------------------------------------------------------


def _resolve_phase(state: BattleState, rules: RuleSet, dice: Dice) -> list[Event]:
    orders = sorted(
        (o for p in state.plots for o in p.orders), key=lambda o: (o.slot.ship, _rank(o))
    )
    if state.phase is Phase.POWER:
        events = _apply_power(state, rules, orders)
        return events + _begin_phase(state, rules, Phase.ORDERS)
    events = _apply_orders(state, rules, orders, dice)
    return events + _end_impulse(state, rules, dice)


_KIND_RANK = {kind._name_: i for i, kind in enumerate(DecisionKind)}
"""Sequence rank by member name (``Enum.__hash__`` is a Python-level call; ``str``'s is not)."""


def _rank(order: Order) -> tuple[int, int]:
    return _KIND_RANK[order.slot.kind._name_], order.slot.index


def _apply_power(state: BattleState, rules: RuleSet, orders: list[Order]) -> list[Event]:
    events: list[Event] = []
    by_ship: dict[int, dict[DecisionKind, int]] = {}
    for order in orders:
        by_ship.setdefault(order.slot.ship, {})[order.slot.kind] = order.value
    for ship_id, chosen in by_ship.items():
        ship = state.ships[ship_id]
        before = ship.charges
        ship.ecm = chosen.get(DecisionKind.ECM, 0) == 1
        ship.eccm = chosen.get(DecisionKind.ECCM, 0) == 1
        ship.invisible = chosen.get(DecisionKind.INVISIBILITY, 0) == 1
        ship.reinforce = chosen.get(DecisionKind.REINFORCE, 0)
        ship.screen_row = chosen.get(DecisionKind.SCREEN_ROW, ship.screen_row)
        ship.mag_beam = chosen.get(DecisionKind.MAG_BEAM, 0)
        for line, used in (
            ("ecm", ship.ecm),
            ("eccm", ship.eccm),
            ("radar_invisibility", ship.invisible),
        ):
            if used:
                power.spend(ship, rules, line)
        if ship.reinforce:
            power.spend(ship, rules, "reinforce_screens", ship.reinforce)
        if ship.mag_beam:
            power.spend(ship, rules, "fire_mag_beam_at_lmgb")
        if ship.mag_beam > 1:
            power.spend(ship, rules, "double_magnetic_beam")
        events.append(
            PowerAllocated(
                ship_id,
                ship.ecm,
                ship.eccm,
                ship.invisible,
                ship.reinforce,
                ship.screen_row,
                ship.mag_beam,
                before - ship.charges,
            )
        )
    return events


def _apply_orders(
    state: BattleState, rules: RuleSet, orders: list[Order], dice: Dice
) -> list[Event]:
    events: list[Event] = []
    for order in orders:  # links, rotations and thrust first (PW-R2 step 3)
        ship = state.ships[order.slot.ship]
        kind = order.slot.kind
        if kind is DecisionKind.LINK and order.value == 1:
            events += _change_link(state, ship)
        elif kind is DecisionKind.ROTATE and order.value != 0:
            crew = [ship, *(c for c in state.ships if c.linked_to == ship.id)]
            for unit in crew:
                before = unit.facing
                unit.facing = (unit.facing + order.value) % 6
                events.append(ShipRotated(unit.id, before, unit.facing))
        elif kind is DecisionKind.THRUST and order.value != 0:
            omni = state.options.omnidirectional_thrust
            direction = order.value - 1 if omni else ship.facing
            da, dc = thrust_vector(rules, direction)
            for _ in range(1 if omni else order.value):  # points along the facing (PW-R5)
                ship.accelerations.append((da, dc))
                ship.thrust_used += 1
                events.append(ThrustRecorded(ship.id, state.impulse, direction, da, dc))
    shooting = [
        o
        for o in orders
        if o.slot.kind in (DecisionKind.FIRE, DecisionKind.LAUNCH) and o.action_kind != _HOLD_VALUE
    ]
    step = fire_step(state, rules)  # the fire step is decided from the state at its start
    paid = [pay(state, rules, order) for order in shooting]
    for order, charges in zip(shooting, paid, strict=True):
        if order.slot.kind is DecisionKind.LAUNCH:
            events += launch(state, rules, order, charges)
    for order, charges in zip(shooting, paid, strict=True):
        if order.slot.kind is DecisionKind.FIRE:
            events += fire(state, rules, order, dice, charges, step)
    events += missiles_arrive(state, rules, dice, step)
    events += acid_gum_packets(state, rules, dice, step)
    return events


def _change_link(state: BattleState, ship: ShipState) -> list[Event]:
    if ship.linked_to is not None:
        host, ship.linked_to, ship.berth = ship.linked_to, None, None
        return [LinkChanged(ship.id, host, False, None)]
    found = host_of(state, ship)
    if found is None:  # the host was lost this impulse
        return []
    taken = {s.berth for s in state.ships if s.linked_to == found.id}
    ship.berth = min(b for b in range(1, 7) if b not in taken)
    ship.linked_to = found.id
    return [LinkChanged(ship.id, found.id, True, ship.berth)]


def _defeated(state: BattleState, side: int) -> bool:
    return not any(
        s.alive and power.in_control(s, state.design_of(s)) for s in state.side_ships(side)
    )


def _end_impulse(state: BattleState, rules: RuleSet, dice: Dice) -> list[Event]:
    events: list[Event] = []
    for craft in state.ships:  # a destroyed host frees its craft (PW-R19)
        if craft.linked_to is not None and not state.ships[craft.linked_to].alive:
            events.append(LinkChanged(craft.id, craft.linked_to, False, None))
            craft.linked_to, craft.berth = None, None
    lost = [_defeated(state, side) for side in (0, 1)]
    if any(lost):
        term = Termination.MUTUAL if all(lost) else Termination.DEFEAT
        winner = None if all(lost) else (1 if lost[0] else 0)
        return events + _finish(state, Outcome(term, winner))
    if state.impulse == rules.impulses_per_turn:
        events += end_turn(state, rules)
        if state.turn >= state.options.max_turns:
            return events + _finish(state, Outcome(Termination.TRUNCATED, None))
        state.turn += 1
        state.impulse = 1
        events += start_turn(state, rules) + move(state, rules)
        return events + _begin_phase(state, rules, Phase.POWER)
    state.impulse += 1
    events += move(state, rules)
    return events + _begin_phase(state, rules, Phase.ORDERS)


def _finish(state: BattleState, result: Outcome) -> list[Event]:
    state.outcome = result
    state.phase = Phase.OVER
    for plot in state.plots:
        plot.queue, plot.orders, plot.committed = [], [], {}
    return [BattleEnded(result.termination.value, result.winner, state.turn, state.impulse)]


__all__ = [
    "decider",
    "decision_for",
    "has_decision",
    "is_over",
    "legal_actions",
    "new_battle",
    "outcome",
    "play",
]
