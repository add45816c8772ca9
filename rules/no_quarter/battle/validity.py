"""What a valid No Quarter battle state is: one definition for the engine, snapshots and server.

:func:`check_battle` is the single check of a :class:`~wargym.rules.no_quarter.battle.state.Battle`
beyond its JSON structure (which ``from_jsonable`` checks): values inside the rules' ranges,
references that resolve, sizes that stay bounded. ``Battle.from_dict`` calls it, so env
snapshots and saves get it; the opponent server calls it with ``known_designs=True`` and
``started=True``. Every state the engine itself produces passes (tests play 200 random games
and check every state); a tampered or corrupted one raises :class:`InvalidBattleError`, a
:class:`~wargym.rules.errors.StateError` whose ``path`` names the field
(``battle.mechs.3.armor.2``).

Armour is stored clamped at 0 (§17.4.2/§17.4.3 ruling, docs/no_quarter.md): a location holds
0..its design value.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

from wargym.rules.errors import StateError, short_repr
from wargym.rules.no_quarter.forces.vocab import Location, Terrain

if TYPE_CHECKING:
    from wargym.rules.no_quarter.battle.state import Battle, Mech
    from wargym.rules.no_quarter.forces.records import MechDesign

MAX_MECHS = 256
"""Most mechs a battle may hold, removed ones included: a standalone Cestus V mission fields
the whole Company (36 mechs at Mission 4) and both sides' reinforcements keep arriving (a
random game reaches 71 by its tenth decision)."""
MAX_TABLE = 200.0
"""Largest battlefield side (inches)."""
MAX_FEATURES = 400
"""Most terrain features of a battlefield."""
MAX_TURNS = 100
"""Largest ``options.max_turns``."""
MAX_DIRECTIONS = 64
"""Largest ``options.move_directions`` (the legal move list grows with it)."""
MAX_FRACTIONS = 8
"""Most ``options.move_fractions``."""
MAX_POINTS = 4096
"""Most flame strips and wrecks a battle may hold."""
MAX_FRAMES = 64
"""Deepest frame stack of the rules orchestrator."""
MAX_REP = 10
"""Highest Rep a pilot can reach (5 at most at the start, +1 per campaign advance)."""
TWISTS = (-90, 0, 90)
"""Torso offsets (ruling D2)."""
EDGES = ("north", "south", "east", "west")
"""Table edges named by home edges and exits."""
LIMBS = (Location.ARM_L, Location.ARM_R, Location.LEG_L, Location.LEG_R)
"""Locations that can be blown off and kept as lost limbs (§17.4.3)."""


class InvalidBattleError(StateError):
    """A battle state outside the rules; ``path`` names the field, ``reason`` says why."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def _finite(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _point_ok(point: Any) -> bool:
    return (
        isinstance(point, tuple | list)
        and len(point) == 2
        and _finite(point[0])
        and _finite(point[1])
    )


@functools.cache
def _scenario_designs() -> dict[str, MechDesign]:
    """Custom mechs of the shipped scenarios (§10.10), by id."""
    from wargym.rules.no_quarter.mission.scenario import load_scenario, scenario_names

    found: dict[str, MechDesign] = {}
    for name in scenario_names():
        scenario = load_scenario(name)
        if scenario.custom_mechs:
            rules = scenario.rules()
            found.update({m.id: rules.mech(m.id) for m in scenario.custom_mechs})
    return found


def _check_design(rules: Any, design: MechDesign, where: str, known_only: bool) -> None:
    """The rule tables' design of that id, a shipped custom one, or (not strict) a legal build."""
    from wargym.rules.no_quarter.forces.design import DesignError, validate_design

    table = rules.mechs.get(design.id)
    if table is None:
        table = _scenario_designs().get(design.id)
    if table is not None:
        if design != table:
            raise InvalidBattleError(where, f"differs from the rule tables' {design.id}")
        return
    if known_only:
        raise InvalidBattleError(where + ".id", f"unknown design {short_repr(design.id)}")
    try:
        problems = validate_design(rules, design, check_faction=False)
    except (DesignError, IndexError, KeyError, TypeError, ValueError) as exc:
        raise InvalidBattleError(where, f"not a buildable design ({exc})") from None
    if problems:
        raise InvalidBattleError(where, "not a legal design: " + "; ".join(problems)[:200])


def check_battle(
    battle: Battle, *, known_designs: bool = False, started: bool = False, root: str = "battle"
) -> None:
    """Raise :class:`InvalidBattleError` naming the first field of ``battle`` outside the rules.

    ``known_designs``: every design must be one of the rule tables or of a shipped scenario
    (otherwise a design of another id only has to be a legal build, §10). ``started``: a
    battle not over must have a pending decision (otherwise a battle that was never started,
    turn 0 with no frames, is valid too: ``game.advance`` starts it).
    """
    from wargym.rules.no_quarter.forces.data import load_rules

    _check_table(battle, root)
    _check_options(battle, root)
    if not _int(battle.turn) or not 0 <= battle.turn <= battle.options.max_turns + 1:
        raise InvalidBattleError(
            f"{root}.turn",
            f"{short_repr(battle.turn)} is outside 0..{battle.options.max_turns + 1}",
        )
    if len(battle.mechs) > MAX_MECHS:
        raise InvalidBattleError(f"{root}.mechs", f"more than {MAX_MECHS} mechs")
    try:
        rules = load_rules(battle.options.rules)
    except (StateError, ValueError, TypeError, KeyError) as exc:
        raise InvalidBattleError(f"{root}.options.rules", str(exc)) from None
    for key, mech in battle.mechs.items():
        _check_mech(battle, rules, key, mech, f"{root}.mechs.{key}", known_designs)
    _check_references(battle, root)
    _check_turn(battle, root)
    _check_decision(battle, root, started)


def _check_table(battle: Battle, root: str) -> None:
    field = battle.battlefield
    if not (0 < field.width <= MAX_TABLE and 0 < field.height <= MAX_TABLE):
        raise InvalidBattleError(f"{root}.battlefield", f"sides above {MAX_TABLE:g} inches")
    if len(field.features) > MAX_FEATURES:
        raise InvalidBattleError(f"{root}.battlefield.features", f"more than {MAX_FEATURES}")
    features = field.features
    for key, armor in battle.building_armor.items():
        where = f"{root}.building_armor.{key}"
        if not _int(key) or not 0 <= key < len(features):
            raise InvalidBattleError(where, f"no terrain feature {short_repr(key)}")
        rated = features[key].building_armor if features[key].kind is Terrain.BUILDING else 0
        # stored clamped at 0; at 0 the building is rubble (§19.4.2 ruling)
        if not _int(armor) or not 0 <= armor <= rated:
            raise InvalidBattleError(where, f"{short_repr(armor)} is outside 0..{rated}")
    for name in ("flames", "wrecks"):
        items = getattr(battle, name)
        if len(items) > MAX_POINTS:
            raise InvalidBattleError(f"{root}.{name}", f"more than {MAX_POINTS} entries")
    for i, (start, end) in enumerate(battle.flames):
        if not (_point_ok(start) and _point_ok(end)):
            raise InvalidBattleError(f"{root}.flames.{i}", "points must be finite numbers")
    for i, point in enumerate(battle.wrecks):
        if not _point_ok(point):
            raise InvalidBattleError(f"{root}.wrecks.{i}", "a point of finite numbers")


def _check_options(battle: Battle, root: str) -> None:
    options = battle.options
    where = f"{root}.options"
    if not _int(options.max_turns) or not 1 <= options.max_turns <= MAX_TURNS:
        raise InvalidBattleError(
            f"{where}.max_turns", f"{short_repr(options.max_turns)} is outside 1..{MAX_TURNS}"
        )
    if not _int(options.move_directions) or not 1 <= options.move_directions <= MAX_DIRECTIONS:
        raise InvalidBattleError(f"{where}.move_directions", f"outside 1..{MAX_DIRECTIONS}")
    fractions = options.move_fractions
    if not 1 <= len(fractions) <= MAX_FRACTIONS or not all(
        _finite(f) and 0 < f <= 1 for f in fractions
    ):
        raise InvalidBattleError(f"{where}.move_fractions", f"1..{MAX_FRACTIONS} numbers in (0, 1]")
    if not (_finite(options.base_radius) and 0 < options.base_radius <= 5):
        raise InvalidBattleError(f"{where}.base_radius", "expected a number in (0, 5]")


def _check_mech(
    battle: Battle, rules: Any, key: int, mech: Mech, where: str, known_designs: bool
) -> None:
    if mech.id != key:
        raise InvalidBattleError(f"{where}.id", f"the id field says {short_repr(mech.id)}")
    if not _int(mech.id) or mech.id < 0:
        raise InvalidBattleError(f"{where}.id", "negative id")
    design = mech.design
    _check_design(rules, design, f"{where}.design", known_designs)
    if len(mech.armor) != len(design.armor):
        raise InvalidBattleError(f"{where}.armor", f"expected {len(design.armor)} values")
    for i, (now, full) in enumerate(zip(mech.armor, design.armor, strict=True)):
        if not _int(now) or not 0 <= now <= full:
            raise InvalidBattleError(
                f"{where}.armor.{i}", f"{short_repr(now)} is outside 0..{full} (the design's)"
            )
    if not (_point_ok(mech.pos) and _finite(mech.heading)):
        raise InvalidBattleError(f"{where}.pos", "position and heading must be finite numbers")
    field = battle.battlefield
    on_table = 0 <= mech.pos[0] <= field.width and 0 <= mech.pos[1] <= field.height
    if mech.removed is None and not on_table:
        raise InvalidBattleError(
            f"{where}.pos",
            f"{short_repr(mech.pos)} is off the {field.width:g}x{field.height:g} table",
        )
    if not _int(mech.rep) or not 0 <= mech.rep <= MAX_REP:
        raise InvalidBattleError(f"{where}.rep", f"{short_repr(mech.rep)} is outside 0..{MAX_REP}")
    if not _int(mech.speed) or not 0 <= mech.speed <= design.speed:
        raise InvalidBattleError(
            f"{where}.speed", f"{short_repr(mech.speed)} is outside 0..{design.speed}"
        )
    if not (_finite(mech.moved) and mech.moved >= 0):
        raise InvalidBattleError(f"{where}.moved", "expected a finite number >= 0")
    if mech.twist not in TWISTS:
        raise InvalidBattleError(
            f"{where}.twist", f"{short_repr(mech.twist)} is not one of {TWISTS}"
        )
    items = len(design.items)
    for i, index in enumerate(mech.inoperable):
        if not _int(index) or not 0 <= index < items:
            raise InvalidBattleError(
                f"{where}.inoperable.{i}",
                f"item {short_repr(index)} is outside 0..{items - 1} (the design's items)",
            )
    if len(set(mech.inoperable)) != len(mech.inoperable):
        raise InvalidBattleError(f"{where}.inoperable", "an item listed twice")
    for i, limb in enumerate(mech.lost_limbs):
        if limb not in LIMBS:
            raise InvalidBattleError(f"{where}.lost_limbs.{i}", f"{limb.value} is not a limb")
    if len(set(mech.lost_limbs)) != len(mech.lost_limbs):
        raise InvalidBattleError(f"{where}.lost_limbs", "a limb listed twice")
    for name in ("reaction_fired_at", "hidden_from"):
        for i, other in enumerate(getattr(mech, name, ())):
            if other not in battle.mechs:
                raise InvalidBattleError(f"{where}.{name}.{i}", f"unknown mech {short_repr(other)}")


def _check_references(battle: Battle, root: str) -> None:
    ids = battle.mechs
    for i, pair in enumerate(battle.seen_pairs):
        if len(pair) != 2 or any(m not in ids for m in pair):
            raise InvalidBattleError(
                f"{root}.seen_pairs.{i}", f"unknown mech in {short_repr(pair)}"
            )
    for member, leader in battle.group_of.items():
        if member not in ids or leader not in ids:
            raise InvalidBattleError(
                f"{root}.group_of.{member}", f"unknown mech in {short_repr((member, leader))}"
            )
    for side, edge in battle.home_edges.items():
        if edge not in EDGES:
            raise InvalidBattleError(
                f"{root}.home_edges.{side.value}", f"{short_repr(edge)} is not one of {EDGES}"
            )
    for side, lost in battle.losses.items():
        # counted once per mech lost (§16.2): never more than the mechs the side has had
        had = sum(1 for m in battle.mechs.values() if m.side is side)
        if not _int(lost) or not 0 <= lost <= had:
            raise InvalidBattleError(
                f"{root}.losses.{side.value}", f"{short_repr(lost)} is outside 0..{had}"
            )


def _check_turn(battle: Battle, root: str) -> None:
    for side, face in battle.dice.items():
        if not _int(face) or not 1 <= face <= 6:
            raise InvalidBattleError(
                f"{root}.dice.{side.value}", f"{short_repr(face)} is no d6 face"
            )
    if battle.dice and len(battle.dice) != 2:  # an activation roll sets both (§14.0)
        raise InvalidBattleError(f"{root}.dice", "expected both sides' dice or none")
    if battle.first_side is not None and not battle.dice:
        raise InvalidBattleError(f"{root}.first_side", "set before any activation roll")
    if len(battle.frames) > MAX_FRAMES:
        raise InvalidBattleError(f"{root}.frames", f"deeper than {MAX_FRAMES} frames")
    from wargym.rules.no_quarter.battle.validity_parts import check_parts

    check_parts(battle, root)  # frames, np and mission: the engine's plain JSON


def _check_decision(battle: Battle, root: str, started: bool) -> None:
    decision = battle.decision
    where = f"{root}.decision"
    if battle.over:
        if decision is not None:
            raise InvalidBattleError(where, "the battle is over but a decision is pending")
        return
    if decision is None:
        fresh = battle.turn == 0 and not battle.frames
        if started or not fresh:
            raise InvalidBattleError(where, "the battle is not over but no decision is pending")
        return
    if not battle.frames:
        raise InvalidBattleError(
            f"{root}.frames", "a pending decision needs the rules' frame stack"
        )
    if decision.mech is not None:
        mech = battle.mechs.get(decision.mech)
        if mech is None:
            raise InvalidBattleError(f"{where}.mech", f"unknown mech {short_repr(decision.mech)}")
        if mech.removed is not None:
            raise InvalidBattleError(f"{where}.mech", f"mech {mech.id} is off the table")
