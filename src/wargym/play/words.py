"""Actions and events in plain words, for a person at the terminal (``wargym play``).

:func:`action_words` says what one legal option of a No Quarter battle does ("move 6.0 in
north-east to (12.0, 30.5), into woods"); space orders have their engines' own short texts.
:func:`event_words` turns one engine event into a sentence. Mechs are named by side,
number ("red #7"); ``hidden`` mechs (enemies out of the human's sight) are
"an enemy mech out of sight", so the words give away nothing the board does not show.

Events and space orders without a sentence here are said by the shared describer
:mod:`wargym.describe`; the No Quarter options and events here add what a player at the table
needs and a replay does not: distances, compass directions, terrain, weapon names, and
enemies out of sight left unnamed.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")
"""Compass words of a heading (0 = east, counter-clockwise, as in the No Quarter geometry)."""
LOCATIONS = {
    "head": "head", "arm_l": "left arm", "arm_r": "right arm", "chest": "chest",
    "gut": "gut", "leg_l": "left leg", "leg_r": "right leg",
}  # fmt: skip


def compass(heading: float) -> str:
    """The nearest of the eight compass words to ``heading`` (degrees)."""
    return COMPASS[round((heading % 360.0) / 45.0) % 8]


def _value(x: Any) -> Any:
    return getattr(x, "value", x)


def mech_name(battle: Any, mech_id: int | None, hidden: Collection[int] = ()) -> str:
    """``blue #3`` (the board and the forces table give the design); hidden: not named."""
    if mech_id is None:
        return "nobody"
    if mech_id in hidden:
        return "an enemy mech out of sight"
    mech = battle.mechs.get(mech_id)
    if mech is None:
        return f"mech #{mech_id}"
    return f"{_value(mech.side)} #{mech.id}"


def _point(p: Any) -> str:
    return f"({float(p[0]):.1f}, {float(p[1]):.1f})"


def _weapon(battle: Any, mech_id: int, index: int) -> str:
    items = battle.mechs[mech_id].design.items
    if 0 <= index < len(items):
        item = items[index]
        return str(item.label or _value(item.item)).replace("_", " ")
    return f"weapon {index}"


def _terrain(battle: Any, point: Any) -> str:
    try:
        kinds = battle.battlefield.terrain_at((float(point[0]), float(point[1])))
    except (AttributeError, TypeError, ValueError):
        return ""
    names = sorted(str(_value(k)).replace("_", " ") for k in kinds)
    names = [n for n in names if n != "clear"]
    return f", into {' and '.join(names)}" if names else ""


def action_words(table: Any, action: Any, hidden: Collection[int] = ()) -> str:
    """What choosing ``action`` does, in words (the game state as it is before it)."""
    battle = getattr(table, "battle", None)
    if battle is None:
        return _space_action(table, action)
    return nq_action(battle, action, hidden)


def nq_action(battle: Any, action: Any, hidden: Collection[int] = ()) -> str:
    """A No Quarter option in words."""
    kind = type(action).__name__
    mech_id = getattr(action, "mech", None)
    who = mech_name(battle, mech_id, hidden) if mech_id is not None else ""
    mech = battle.mechs.get(mech_id) if mech_id is not None else None

    def name(i: int) -> str:
        return mech_name(battle, i, hidden)

    def far(target: int) -> str:
        if mech is None or target in hidden or target not in battle.mechs:
            return ""
        from wargym.rules.no_quarter.sight_movement.geometry import distance

        return f" ({distance(mech.pos, battle.mechs[target].pos):.1f} in away)"

    if kind == "ActivateGroup" or kind == "SkipGroup":
        members = [i for i, lead in battle.group_of.items() if lead == action.leader]
        others = [f"#{i}" for i in sorted(members) if i != action.leader]
        group = f"the group led by {name(action.leader)}"
        if others:
            group += f" (with {', '.join(others)})"
        return f"activate {group}" if kind == "ActivateGroup" else f"do not activate {group}"
    if kind == "ChooseMech":
        return f"{who} acts next"
    if kind == "Move":
        from wargym.rules.no_quarter.sight_movement.geometry import distance, heading_to

        assert mech is not None
        gap = distance(mech.pos, action.to)
        how = "reverse" if action.reverse else "jump" if action.jump else "move"
        where = compass(heading_to(mech.pos, action.to)) if gap > 1e-9 else "nowhere"
        return f"{who}: {how} {gap:.1f} in {where} to {_point(action.to)}" + _terrain(
            battle, action.to
        )
    if kind == "Stay":
        if action.heading is None:
            return f"{who}: stay where it is"
        return f"{who}: stay, turning to face {compass(action.heading)}"
    if kind == "FireFirst":
        return f"{who}: fire first, before moving"
    if kind == "Charge":
        return f"{who}: charge {name(action.target)}{far(action.target)}"
    if kind == "AssignFire":
        weapon = _weapon(battle, action.mech, action.weapon)
        return f"{who}: fire the {weapon} at {name(action.target)}{far(action.target)}"
    if kind == "EndFire":
        return f"{who}: done assigning weapons (the shots are rolled)"
    if kind == "FreeMove":
        if action.to is None:
            return f"{who}: no free move, stay put"
        return f"{who}: free move to {_point(action.to)}" + _terrain(battle, action.to)
    if kind == "FreeWill":
        return f"{who}: count as having passed {action.passed} d6 (Free Will)"
    if kind == "DeclareMelee":
        limb = LOCATIONS.get(str(_value(action.limb)), str(_value(action.limb)))
        return f"{who}: {_value(action.attack)} with the {limb}"
    if kind == "FightMech":
        return f"{who}: fight {name(action.target)}"
    if kind == "FireAtBuilding":
        weapon = _weapon(battle, action.mech, action.weapon)
        return f"{who}: fire the {weapon} at building {action.feature}"
    if kind == "AttackBuilding":
        limb = LOCATIONS.get(str(_value(action.limb)), str(_value(action.limb)))
        return f"{who}: {_value(action.attack)} building {action.feature} with the {limb}"
    if kind == "ExitTable":
        return f"{who}: leave the table across the {action.edge} edge"
    if kind == "ChooseObjective":
        return f"take the objective: {str(action.objective).replace('_', ' ')}"
    if kind == "Face":
        text = (
            f"{who}: keep facing"
            if action.heading is None
            else (f"{who}: face {compass(action.heading)}")
        )
        if action.twist:
            text += f", torso twisted {'left' if action.twist > 0 else 'right'}"
        return text
    if kind == "LuckyChoice":
        return f"{who}: {'spend Lucky to re-roll' if action.reroll else 'keep the roll'}"
    if kind == "ChooseLocation":
        place = LOCATIONS.get(str(_value(action.location)), str(_value(action.location)))
        return f"{who}: take the hit on the {place} (Marksman)"
    if kind == "LeadTeam":
        return f"{who}: take the group led by {name(action.group)} into his own"
    if kind == "LeadDone":
        return f"{who}: take no further group"
    if kind == "SplitOff":
        return f"{who}: leave its group and activate alone"
    if kind == "KeepGroups":
        return "keep the groups as they are"
    return _generic(kind, action)


def _space_key(table: Any) -> str:
    return "starship_combat" if type(table).__name__.startswith("Starship") else "pentagon_war"


def _space_action(table: Any, action: Any) -> str:
    """A space order in words (:func:`wargym.describe.describe_action`), ships named."""
    from wargym.describe import describe_action

    decision = None
    for side in table.sides:
        found = table.decision(side) if table.pending() is not None else None
        if found is not None and action in found.options:
            decision = found
            break
    text = describe_action(_space_key(table), action, state=table.state, decision=decision)
    text = re.sub(r"^ship \d+: ", "", text)  # the decision line names the ship
    return _ships_named(table, text)


def _ships_named(table: Any, text: str) -> str:
    return re.sub(r"\bship (\d+)\b", lambda m: _ship_or(table, m), text)


def ship_name(table: Any, ship_id: int) -> str:
    """``red ship 1 (scout)``."""
    ship = table.state.ships[ship_id]
    return f"{table.sides[ship.side]} ship {ship_id} ({str(ship.design).replace('_', ' ')})"


def decision_words(table: Any, side: str) -> str:
    """What the pending decision of ``side`` is about."""
    battle = getattr(table, "battle", None)
    if battle is not None:
        decision = battle.decision
        kind = str(_value(decision.kind)).replace("_", " ")
        about = "" if decision.mech is None else f" for {mech_name(battle, decision.mech)}"
        return f"{side} to decide: {kind}{about}"
    decision = table.decision(side)
    kind = str(_value(decision.kind)).replace("_", " ")
    extra = getattr(decision, "weapon", None) or getattr(decision, "subject", "")
    extra = f" ({str(extra).replace('_', ' ')})" if extra else ""
    return f"{side} to plot: {kind}{extra} for {ship_name(table, decision.ship)}"


def _generic(kind: str, thing: Any) -> str:
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", kind).lower()
    fields = getattr(thing, "__dataclass_fields__", {})
    parts = []
    for field in fields:
        value = getattr(thing, field, None)
        if value in (None, (), [], "") or isinstance(value, dict):
            continue
        text = str(_value(value))
        if len(text) > 40:
            continue
        parts.append(f"{field.replace('_', ' ')} {text}")
    return f"{words}: {', '.join(parts)}" if parts else words


def event_words(table: Any, event: Any, hidden: Collection[int] = ()) -> str | None:
    """One event in words; None for an event a person need not read (bookkeeping)."""
    battle = getattr(table, "battle", None)
    if battle is None:
        from wargym.describe import describe_event

        return _ships_named(table, describe_event(_space_key(table), event))
    return nq_event(battle, event, hidden)


def _ship_or(table: Any, match: re.Match[str]) -> str:
    i = int(match.group(1))
    ships = table.state.ships
    return ship_name(table, i) if 0 <= i < len(ships) else match.group(0)


QUIET = frozenset({"GroupsFormed", "FiringStarted", "PilotCreated", "OptionsChosen"})
"""Events too technical to read each time."""


def nq_event(battle: Any, e: Any, hidden: Collection[int] = ()) -> str | None:
    """A No Quarter event in words."""
    kind = type(e).__name__

    def name(i: int) -> str:
        return mech_name(battle, i, hidden)

    if kind in QUIET:
        return None
    if kind == "TurnStarted":
        return f"Turn {e.turn} begins."
    if kind == "ActivationRolled":
        return f"Activation dice: blue {e.blue}, red {e.red}; {_value(e.first)} goes first."
    if kind == "GroupActivated":
        return f"{_value(e.side)} activates the group of {name(e.leader)} (die {e.die})."
    if kind == "GroupSkipped":
        why = "chose not to act" if e.eligible else "could not act (activation roll)"
        return f"The group of {name(e.leader)} {why}."
    if kind == "MechMoved":
        if e.mech in hidden:
            return "An enemy mech out of sight moved."
        end = e.path[-1] if e.path else None
        where = f" to {_point(end)}" if end is not None else ""
        return f"{name(e.mech)} moved {e.inches:.1f} in{where} ({e.kind})."
    if kind == "MechFaced":
        if e.mech in hidden:
            return None
        return f"{name(e.mech)} faces {compass(e.heading)}."
    if kind == "ShotFired":
        weapon = _weapon(battle, e.shooter, e.weapon)
        result = "hit" if e.hit else "missed"
        return (
            f"{name(e.shooter)} fired the {weapon} at {name(e.target)}: rolled {e.face} + Rep "
            f"{e.rep} = {e.total}, {result}."
        )
    if kind == "HitLocated":
        place = LOCATIONS.get(str(_value(e.location)), str(_value(e.location)))
        return f"The hit on {name(e.target)} struck the {place}."
    if kind == "DamageRolled":
        place = LOCATIONS.get(str(_value(e.location)), str(_value(e.location)))
        crit = ", a critical hit" if e.critical else ""
        return (
            f"Damage to {name(e.target)}'s {place}: armour {e.armor_before} -> "
            f"{e.armor_after}{crit}."
        )
    if kind == "CriticalHit":
        return f"Critical hit on {name(e.mech)}: {str(e.kind).replace('_', ' ')}."
    if kind == "MechRemoved":
        return f"{name(e.mech)} is out of the battle ({str(_value(e.reason)).replace('_', ' ')})."
    if kind == "ReactionTaken":
        from wargym.describe_events import STATUSES, TESTS

        test = TESTS.get(str(_value(e.test)), str(_value(e.test)).replace("_", " "))
        result = STATUSES.get(str(_value(e.result)), str(_value(e.result)).replace("_", " "))
        return f"{name(e.mech)} took a {test} test: {result}."
    if kind == "StatusChanged":
        from wargym.describe_events import STATUSES

        status = STATUSES.get(str(_value(e.status)), str(_value(e.status)).replace("_", " "))
        return f"{name(e.mech)} is now {status}."
    if kind == "RepChanged":
        return f"{name(e.mech)}'s pilot is now Rep {e.rep} ({e.reason})."
    if kind == "ChargeDeclared":
        return f"{name(e.mech)} charges {name(e.target)}."
    if kind == "InSightTaken":
        winner = e.moving_leader if e.moving_wins else e.nonmoving_leader
        return (
            f"In Sight test: {name(e.moving_leader)}'s group {e.moving_successes} against "
            f"{name(e.nonmoving_leader)}'s {e.nonmoving_successes}; {name(winner)}'s side acts."
        )
    if kind == "MechLeftTable":
        return f"{name(e.mech)} left the table across the {e.edge} edge."
    if kind == "BattleEnded":
        who = "a draw" if e.winner is None else f"{_value(e.winner)} wins"
        return f"The battle is over on turn {e.turn}: {who} ({e.reason})."
    for field in ("mech", "target", "shooter"):
        value = getattr(e, field, None)
        if isinstance(value, int) and value in hidden:
            return None
    from wargym.describe import describe_event

    text = describe_event("no_quarter", e)
    text = text[:1].upper() + text[1:] + "."
    return _mechs_named(text, name)


def _mechs_named(text: str, name: Any) -> str:
    """The describer's ``mech 3`` / ``mechs 3, 4`` as the board names them (``blue #3``)."""

    def some(match: re.Match[str]) -> str:
        return ", ".join(name(int(i)) for i in match.group(1).split(", "))

    text = re.sub(r"\b[Mm]echs (\d+(?:, \d+)*)\b", some, text)
    return re.sub(r"\b[Mm]ech (\d+)\b", lambda m: name(int(m.group(1))), text)


__all__ = ["action_words", "compass", "decision_words", "event_words", "mech_name"]
