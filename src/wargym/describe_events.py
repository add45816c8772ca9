"""The event templates of :mod:`wargym.describe` (one line of words per event type and game).

A template reads the event's fields through ``f`` (``f.n`` numbers, rounded; ``f.v`` any value
in words; ``f[...]`` raw); one that fails on an odd event falls back to the generic text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wargym.describe import fmt_number, fmt_value, words

F = Any
"""The ``_Fields`` view of one event."""


def _yes(value: Any, yes: str, no: str) -> str:
    return yes if value else no


def _faces(f: F, key: str = "faces") -> str:
    faces = f.get(key)
    if not isinstance(faces, list) or not faces:
        return ""
    return " (rolled " + ", ".join(fmt_value(x) for x in faces[:12]) + ")"


def _end(f: F, key: str = "path") -> str:
    path = f[key]
    return fmt_value(path[-1]) if isinstance(path, list) and path else fmt_value(path)


def _plural(count: Any, word: str) -> str:
    if count == 1:
        return word
    if word.endswith("s"):
        return word + "es"
    return word[:-1] + "ies" if word.endswith("y") else word + "s"


def _count(count: Any, word: str) -> str:
    """``1 battery``, ``8 batteries``, ``0 hits``: a count and its noun in agreement."""
    return f"{fmt_value(count)} {_plural(count, word)}"


LOCATIONS = {
    "head": "head", "arm_l": "left arm", "arm_r": "right arm", "chest": "chest",
    "gut": "gut", "leg_l": "left leg", "leg_r": "right leg",
}  # fmt: skip
"""Hit locations in words (as the terminal client and the browser page say them)."""
STATUSES = {
    "carry_on": "carrying on", "duck_back": "ducking back",
    "leave_battlefield": "leaving the battlefield",
}  # fmt: skip
TESTS = {"fired_on": "fired on", "takes_damage": "damage", "mech_down": "mech down"}


def _box(value: Any) -> str:
    """A Starship Combat box key in words.

    ``screen:meson_screen`` -> ``meson screen``, ``weapon:missile`` -> ``missile weapon``.
    """
    text = fmt_value(value) if not isinstance(value, str) else value
    kind, _, name = text.partition(":")
    if not name:
        return words(text)
    return words(name) if kind in name else f"{words(name)} {words(kind)}"


COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")
"""The eight compass words of a No Quarter heading (0 = east, counter-clockwise), as
``wargym play`` says them."""


def _heading(f: F) -> str:
    """``north (90 deg)``: the compass word and the heading rounded to a degree."""
    value = f.get("heading")
    if not isinstance(value, int | float) or isinstance(value, bool) or value != value:
        return f"{f.n('heading', 0)} deg"
    if abs(value) > 1e9:
        return f"{f.n('heading', 0)} deg"
    return f"{COMPASS[round((value % 360.0) / 45.0) % 8]} ({f.n('heading', 0)} deg)"


def _twist(twist: Any) -> str:
    if not isinstance(twist, int | float) or isinstance(twist, bool) or not twist:
        return ""
    return f", torso twisted {'left' if twist > 0 else 'right'}"


def _ids(f: F, key: str) -> str:
    """A list of ids as ``3, 4`` (``fmt_value`` would read two of them as a point)."""
    value = f.get(key)
    if isinstance(value, list | tuple) and all(isinstance(v, int) for v in value):
        return ", ".join(str(v) for v in value[:24]) + (", ..." if len(value) > 24 else "")
    return str(f.v(key))


def _loc(f: F, key: str = "location") -> str:
    value = f.get(key)
    return LOCATIONS.get(value, str(f.v(key))) if isinstance(value, str) else str(f.v(key))


def _side(value: Any) -> str:
    return f"side {value}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _winner(f: F) -> str:
    winner = f.get("winner")
    return "a draw" if winner is None else f"{_side(winner)} wins"


# -- No Quarter ------------------------------------------------------------------------------
MOVES = {
    "move": "moves", "voluntary": "moves", "reverse": "reverses", "jump": "jumps",
    "free": "takes a free move", "charge": "charges", "duck_back": "ducks back", "leave": "moves",
}  # fmt: skip
"""The verb of each move kind of ``MechMoved``."""


def _nq_moved(f: F) -> str:
    kind = str(f.get("kind"))
    how = MOVES.get(kind, f"moves ({f.v('kind')})")
    jumped = " with jump jets" if f.get("jumped") else ""
    why = ", to leave the battlefield" if kind == "leave" else ""
    return (
        f'mech {f.v("mech")} {how}{jumped} {f.n("inches")}" to {_end(f)}, facing {_heading(f)}{why}'
    )


def _nq_target(target: Any) -> str:
    """A shot's target: a mech id, or ``-1 - feature`` for a building (§19.4.2)."""
    if isinstance(target, int) and not isinstance(target, bool) and target < 0:
        return f"building {-1 - target}"
    return f"mech {fmt_value(target)}"


def _nq_shot(f: F) -> str:
    how = _yes(f["hit"], "HIT", "miss")
    rush = ", rush shot" if f.get("rush_shot") else ""
    return (
        f"mech {f.v('shooter')} fires weapon {f.v('weapon')} at {_nq_target(f['target'])}: "
        f"rolled {f.v('face')} + Rep {f.v('rep')} = {f.v('total')}{rush}: {how}"
    )


def _nq_damage(f: F) -> str:
    crit = ", critical" if f.get("critical") else ""
    return (
        f"mech {f.v('target')} {_loc(f)}: armour {f.v('armor_before')} -> "
        f"{f.v('armor_after')}{crit}{_faces(f)}"
    )


def _nq_melee(f: F) -> str:
    winner = f.get("winner")
    result = "no winner" if winner is None else f"mech {fmt_value(winner)} wins by {f.v('margin')}"
    return (
        f"melee: mech {f.v('attacker')} ({_count(f.get('attacker_successes'), 'success')}) "
        f"against mech {f.v('defender')} ({_count(f.get('defender_successes'), 'success')}): "
        f"{result}"
    )


def _nq_in_sight(f: F) -> str:
    first = "the moving side" if f["moving_wins"] else "the non-moving side"
    return (
        f"In Sight: the group of mech {f.v('moving_leader')} scores "
        f"{_count(f.get('moving_successes'), 'success')}, the group of mech "
        f"{f.v('nonmoving_leader')} {_count(f.get('nonmoving_successes'), 'success')}: "
        f"{first} acts first"
    )


def _nq_arrived(f: F) -> str:
    mechs = f["mechs"]
    ids = [fmt_value(m.get("id")) for m in mechs if isinstance(m, dict)]
    if len(ids) == 1:
        return f"{f.v('side')} mech {ids[0]} arrives ({f.v('reason')})"
    return f"{f.v('side')} mechs {', '.join(ids)} arrive ({f.v('reason')})"


NO_QUARTER: dict[str, Callable[[F], str]] = {
    "TurnStarted": lambda f: f"turn {f.v('turn')} begins",
    "ActivationRolled": lambda f: (
        f"activation dice: blue {f.v('blue')}, red {f.v('red')}; {f.v('first')} goes first"
    ),
    "GroupsFormed": lambda f: f"{f.v('side')} forms groups led by mechs {_ids(f, 'leaders')}",
    "LeaderAppointed": lambda f: f"mech {f.v('mech')} becomes {f.v('rank')}",
    "GroupActivated": lambda f: (
        f"{f.v('side')} activates the group of mech {f.v('leader')} "
        f"(mechs {_ids(f, 'members')}) on a {f.v('die')}"
    ),
    "GroupSkipped": lambda f: f"{f.v('side')} does not activate the group of mech {f.v('leader')}",
    "MechMoved": _nq_moved,
    "MoveBlocked": lambda f: (
        f"mech {f.v('mech')} is blocked by mech {f.v('blocker')} and stops at {f.v('at')}"
    ),
    "MechFaced": lambda f: f"mech {f.v('mech')} faces {_heading(f)}" + _twist(f.get("twist")),
    "MechLeftTable": lambda f: f"mech {f.v('mech')} leaves the table across the {f.v('edge')} edge",
    "StoodUp": lambda f: f"mech {f.v('mech')} stands up",
    "InSightTaken": _nq_in_sight,
    "InSightAction": lambda f: f"mech {f.v('mech')} reacts to In Sight: {f.v('action')}",
    "ShotFired": _nq_shot,
    "HitLocated": lambda f: (
        f"the hit on mech {f.v('target')} strikes the {_loc(f)}"
        + (" (protected)" if f.get("protected") else "")
    ),
    "DamageRolled": _nq_damage,
    "CriticalHit": lambda f: f"critical hit on mech {f.v('mech')} ({_loc(f)}): {f.v('kind')}",
    "PilotTested": lambda f: (
        f"the pilot of mech {f.v('mech')} "
        + _yes(f["passed"], "passes", "fails")
        + f" his test (rolled {f.v('face')}, Rep {f.v('rep')})"
        + (", knocked down" if f.get("knocked_down") else "")
    ),
    "MechRemoved": lambda f: f"mech {f.v('mech')} ({f.v('side')}) is out: {f.v('reason')}",
    "CheatedDeath": lambda f: f"the pilot of mech {f.v('mech')} cheats death ({f.v('via')})",
    "ReactionTaken": lambda f: (
        f"mech {f.v('mech')} takes a {TESTS.get(str(f.get('test')), f.v('test'))} test, passes "
        f"{'no d6' if f.get('passed') == 0 else f.v('passed') + 'd6'}: "
        f"{STATUSES.get(str(f.get('result')), f.v('result'))}"
    ),
    "StatusChanged": lambda f: (
        f"mech {f.v('mech')} is now {STATUSES.get(str(f.get('status')), f.v('status'))} "
        f"({words(f.v('reason'))})"
    ),
    "RepChanged": lambda f: f"mech {f.v('mech')} Rep is now {f.v('rep')} ({f.v('reason')})",
    "ChargeDeclared": lambda f: f"mech {f.v('charger')} charges mech {f.v('target')}",
    "ChargeTested": lambda f: (
        f"charge of mech {f.v('charger')} on mech {f.v('target')}: {f.v('outcome')}"
    ),
    "MeleeDeclared": lambda f: (
        f"mech {f.v('mech')} will {f.v('attack')} with the {_loc(f, 'limb')}"
    ),
    "MeleeRound": _nq_melee,
    "ItemDisabled": lambda f: f"mech {f.v('mech')} loses items {f.v('items')} ({f.v('reason')})",
    "FlameLaid": lambda f: f"mech {f.v('shooter')} lays flame from {f.v('start')} to {f.v('end')}",
    "BuildingDamaged": lambda f: (
        f"building {f.v('feature')} hit by mech {f.v('attacker')}: armour "
        f"{f.v('armor_before')} -> {f.v('armor_after')}"
    ),
    "BuildingDestroyed": lambda f: f"building {f.v('feature')} is destroyed",
    "FiringStarted": lambda f: f"mech {f.v('shooter')} opens fire ({f.v('mode')})",
    "FiringEnded": lambda f: f"mech {f.v('shooter')} ends its fire ({f.v('shots')} shots)",
    "FlameCrossed": lambda f: f"mech {f.v('mech')} crosses flame {f.v('flame')}",
    "LuckyReroll": lambda f: f"the pilot of mech {f.v('mech')} re-rolls {f.v('what')}",
    "DuckedBack": lambda f: (
        f"mech {f.v('mech')} ducks back" + _yes(f.get("in_cover"), " into cover", "")
    ),
    "TeamJoined": lambda f: f"mech {f.v('leader')} takes mechs {_ids(f, 'joined')} under command",
    "MechSplitOff": lambda f: f"mech {f.v('mech')} splits off its group",
    "BattleEnded": lambda f: f"the battle ends: {_winner(f)} ({f.v('reason')})",
    "PefPlaced": lambda f: f"PEF {f.v('pef')} placed at {f.v('pos')}",
    "PefMoved": lambda f: f"PEF {f.v('pef')} moves to {_end(f)}",
    "PefResolved": lambda f: (
        f"PEF {f.v('pef')} resolves: {f.v('result')}"
        + ("" if not f.get("enemies") else f" ({f.v('enemies')} {_plural(f['enemies'], 'enemy')})")
    ),
    "MechsArrived": _nq_arrived,
    "PilotCreated": lambda f: (
        f"pilot {f.v('name')} ({'Star, ' if f.get('star') else ''}Rep {f.v('rep')}"
        + (f", {f.v('attributes')}" if f.get("attributes") else "")
        + ")"
        + ("" if f.get("mech") is None else f" takes mech {f.v('mech')}")
    ),
    "FreeCompanyRaces": lambda f: f"the Free Company's races: {f.v('races')}",
    "NpGroupSet": lambda f: f"enemy group {f.v('team')} changes its orders ({f.v('reason')})",
    "NpTableRolled": lambda f: f"the enemy rolls on the {f.v('table')} table: {f.v('result')}",
    "ReinforcementChecked": lambda f: (
        f"reinforcement check for {f.v('side')}: {f.v('mechs')} mechs ({f.v('unit')})"
    ),
    "WeatherChanged": lambda f: "the weather changes" + _yes(f.get("night"), " (night)", ""),
    "MechWithdrew": lambda f: f"mech {f.v('mech')} withdraws across the {f.v('edge')} edge",
    "MissionEnded": lambda f: (
        f"the mission ends on turn {f.v('turn')}: {f.v('status')} ({f.v('reason')})"
    ),
}


# -- Pentagon War ----------------------------------------------------------------------------
def _dir(value: Any) -> str:
    from wargym.rules.hexgrid import DIRECTION_NAMES

    return DIRECTION_NAMES[value] if isinstance(value, int) and 0 <= value < 6 else str(value)


def _pw_shot(f: F) -> str:
    result = (
        f"HIT for {f.v('damage')}" + (", destroyed" if f.get("kill") else "")
        if f["hit"]
        else "miss"
    )
    return (
        f"ship {f.v('firer')} fires {f.v('weapon')} at ship {f.v('target')} "
        f"(range {f.v('range')}){_faces(f)}: {result}"
    )


def _pw_power(f: F) -> str:
    parts = [name for name in ("ecm", "eccm") if f.get(name)]
    if f.get("invisible"):
        parts.append("radar invisibility")
    if f.get("reinforce"):
        parts.append(f"screens reinforced by {f.v('reinforce')}")
    parts.append(f"screen row {f.v('screen_row')}")
    return f"ship {f.v('ship')} power: {', '.join(p.upper() if len(p) < 5 else p for p in parts)}"


PENTAGON_WAR: dict[str, Callable[[F], str]] = {
    "TurnStarted": lambda f: f"turn {f.v('turn')} begins",
    "CapacitorsCharged": lambda f: (
        f"ship {f.v('ship')} capacitors charged: {f.v('charges')} of {f.v('capacity')}"
    ),
    "PowerAllocated": _pw_power,
    "ShipMoved": lambda f: f"ship {f.v('ship')} moves to {_end(f)}",
    "ShipDisengaged": lambda f: f"ship {f.v('ship')} disengages at {f.v('at')}",
    "LinkChanged": lambda f: (
        f"ship {f.v('ship')} "
        + _yes(f["linked"], "docks with", "undocks from")
        + f" ship {f.v('host')}"
    ),
    "ShipRotated": lambda f: (
        f"ship {f.v('ship')} turns from {_dir(f['facing_before'])} to {_dir(f['facing_after'])}"
    ),
    "ThrustRecorded": lambda f: f"ship {f.v('ship')} thrusts toward {_dir(f['direction'])}",
    "ShotFired": _pw_shot,
    "MagneticDeflection": lambda f: (
        f"magnetic beam of ship {f.v('target')} "
        + _yes(f["deflected"], "deflects the shot", "fails to deflect")
    ),
    "MissileLaunched": lambda f: (
        f"ship {f.v('firer')} launches missile {f.v('missile')} at ship {f.v('target')} "
        f"(range {f.v('range')}, arrives impulse {f.v('arrive')})"
    ),
    "MissileArrived": lambda f: (
        f"missile {f.v('missile')} reaches ship {f.v('target')}: "
        + _yes(f["intercepted"], "shot down", "strikes")
    ),
    "MissileLost": lambda f: f"missile {f.v('missile')} is lost",
    "DamageApplied": lambda f: (
        f"ship {f.v('target')} takes {f.v('damage')} damage ({f.v('source')}) on row {f.v('row')}:"
        f" screen stops {f.v('screen')}, armour absorbs {f.v('absorbed')}, "
        f"{f.v('internal')} internal"
    ),
    "DamageAllocated": lambda f: (
        f"ship {f.v('target')} internal hit: {f.v('result')}"
        + ("" if f.get("system") is None else f" ({f.v('system')})")
    ),
    "PowerLost": lambda f: f"ship {f.v('ship')} loses {f.v('charges')} charges",
    "ShipDestroyed": lambda f: f"ship {f.v('ship')} is destroyed ({f.v('cause')})",
    "VelocityUpdated": lambda f: f"ship {f.v('ship')} velocity {f.v('before')} -> {f.v('after')}",
    "SystemRepaired": lambda f: f"ship {f.v('ship')} repairs {f.v('system')}",
    "BattleEnded": lambda f: (
        f"the battle ends on turn {f.v('turn')}: {_winner(f)} ({f.v('termination')})"
    ),
}


def pw_action(action: Any, decision: Any) -> str:
    """A Pentagon War option in words, named from its decision when one is given."""
    kind = getattr(getattr(action, "kind", None), "value", None)
    value = getattr(action, "value", 0)
    if kind is None:
        return str(action)
    what = getattr(getattr(decision, "kind", None), "value", None)
    subject = words(getattr(decision, "subject", "") or "")
    ship = getattr(decision, "ship", None)
    prefix = "" if ship is None else f"ship {ship}: "
    if kind == "choose" and what is not None:
        text = _pw_choose(what, value, decision)
    elif kind == "hold":
        text = f"hold {subject}" if subject else "hold fire"
    elif kind == "fire":
        text = f"fire {subject or 'weapon'} at ship {value}"
    elif kind in ("launch", "rail_launch"):
        how = "rail-launch" if kind == "rail_launch" else "launch"
        text = f"{how} a missile" + (f" from launcher {subject}" if subject else "")
        text += f" at ship {value}"
    else:
        text = str(action)
    return prefix + text


def _pw_choose(what: str, value: int, decision: Any) -> str:
    if what in ("ecm", "eccm", "invisibility"):
        name = {"ecm": "ECM", "eccm": "ECCM", "invisibility": "radar invisibility"}[what]
        return f"no {name}" if value == 0 else f"buy {name}" + ("" if value == 1 else f" x{value}")
    if what == "reinforce":
        return "no screen reinforcement" if value == 0 else f"reinforce screens by {value}"
    if what == "screen_row":
        return f"directional screen on row {value}"
    if what == "mag_beam":
        return {0: "magnetic beam off", 1: "single magnetic beam", 2: "double magnetic beam"}.get(
            value, f"magnetic beam {value}"
        )
    if what == "link":
        return "keep the link as it is" if value == 0 else "change the link"
    if what == "thrust":
        options = getattr(decision, "options", ())
        directional = any(getattr(o, "value", 0) > 1 for o in options)
        if value == 0:
            return "no thrust"
        return f"thrust toward {_dir(value - 1)}" if directional else "thrust 1 point"
    return f"{words(what)} {fmt_number(value)}"


# -- Starship Combat -------------------------------------------------------------------------
def _sc_hit(f: F) -> str:
    extra = ", exceptional" if f.get("exceptional") else ""
    return (
        f"ship {f.v('ship')} fires {f.v('batteries')} {f.v('weapon')} "
        f"{_plural(f.get('batteries'), 'battery')} at ship "
        f"{f.v('target')}{_faces(f)}: {_count(f.get('hits'), 'hit')}{extra}"
    )


def _sc_orders(f: F) -> str:
    mag = f.get("accel_mag")
    thrust = "no thrust" if not mag else f"{fmt_value(mag)}G toward {_dir(f['accel_dir'])}"
    fire = f.get("fire") or []
    board = f.get("board_target")
    return (
        f"ship {f.v('ship')} orders: heading {_dir(f['heading'])}, {thrust}"
        + (f", {len(fire)} fire orders" if fire else "")
        + ("" if board is None else f", boards ship {fmt_value(board)}")
    )


STARSHIP_COMBAT: dict[str, Callable[[F], str]] = {
    "OrdersRevealed": _sc_orders,
    "ShipMoved": lambda f: (
        f"ship {f.v('ship')} moves {f.v('start')} -> {f.v('end')}, heading {_dir(f['heading'])}"
        + (", disengages" if f.get("disengaged") else "")
    ),
    "DetectionRolled": lambda f: (
        f"ship {f.v('observer')} "
        + _yes(f["detected"], "detects", "fails to detect")
        + f" ship {f.v('target')}"
    ),
    "FireCancelled": lambda f: (
        f"ship {f.v('ship')} cannot fire {f.v('weapon')} at ship {f.v('target')}: {f.v('reason')}"
    ),
    "ToHitRolled": _sc_hit,
    "PenetrationRolled": lambda f: (
        f"{f.v('weapon')} of ship {f.v('ship')} against {f.v('defence')} of ship "
        f"{f.v('target')}: {f.v('penetrating')} "
        + ("penetrates" if f.get("penetrating") == 1 else "penetrate")
    ),
    "ArmorRolled": lambda f: (
        f"{f.v('weapon')} of ship {f.v('ship')} "
        + _yes(f["penetrated"], "penetrates", "does not penetrate")
        + f" the armour of ship {f.v('target')}"
    ),
    "DamageRolled": lambda f: (
        f"damage to ship {f.v('target')} ({f.v('table')} table){_faces(f)}: {f.v('result')}"
    ),
    "HullShareRolled": lambda f: (
        f"ship {f.v('target')} hull takes {f.v('hull_points')} of {f.v('dp')} damage points"
    ),
    "ComponentDamaged": lambda f: (
        f"ship {f.v('ship')} {_box(f.get('component'))}: {f.v('before')} -> {f.v('after')}"
    ),
    "CriticalRolled": lambda f: f"critical hit on ship {f.v('ship')}: {f.v('result')}",
    "BoxChosen": lambda f: f"ship {f.v('ship')} damage falls on the {_box(f.get('chosen'))}",
    "FuelLeakStarted": lambda f: f"ship {f.v('ship')} starts leaking fuel",
    "FuelLeaked": lambda f: f"ship {f.v('ship')} leaks fuel: {f.v('remaining')} left",
    "FrozenWatchRevived": lambda f: (
        f"ship {f.v('ship')} revives {_count(f.get('segments'), 'crew segment')}"
    ),
    "BoardingResolved": lambda f: (
        f"boarding of ship {f.v('target')}: {f.v('level')}"
        + (", captured" if f.get("captured") else "")
    ),
    "ExplosionHit": lambda f: f"the explosion of ship {f.v('source')} hits ship {f.v('target')}",
    "ShipOut": lambda f: f"ship {f.v('ship')} is out of the battle ({f.v('reason')})",
    "RoundEnded": lambda f: f"round {f.v('round')} ends",
    "BattleEnded": lambda f: f"the battle ends: {_winner(f)} ({f.v('reason')})",
}

TEMPLATES: dict[str, dict[str, Callable[[F], str]]] = {
    "no_quarter": NO_QUARTER,
    "pentagon_war": PENTAGON_WAR,
    "starship_combat": STARSHIP_COMBAT,
}
"""Event templates per game key and event type."""
