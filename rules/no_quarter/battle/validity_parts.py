"""Validity of a battle's plain-JSON parts: the frame stack, ``np`` and ``mission``.

``Battle`` keeps three parts as the engine's own plain JSON: ``frames`` (which procedure runs
and how far it got), ``np`` (the rules-driven side's bookkeeping) and ``mission``.
:func:`~wargym.rules.no_quarter.battle.validity.check_battle` calls :func:`check_parts`, so a state
whose plain parts hold a missing key, a wrong type, a value out of range or a dangling mech
id is refused naming the field (``battle.frames.2.opponents.4.0``, ``battle.np.pefs.0.pos``,
``battle.mission.options.ratio_denominator``) instead of failing later inside the rules:

- frames: objects whose ``kind`` is a procedure of the rules, with that kind's required keys,
  only keys the engine writes, and per key what the engine writes there (mech ids of the
  battle, sides, the kind's stages, reaction tests, weapon indexes of the shooter's design,
  bounded numbers);
- ``np`` and ``mission``: every key the engine reads, with its type and range; the typed
  parts (group states, mission options, weather) rebuilt with the engine's own records.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from wargym.rules.errors import RulesError, short_repr

if TYPE_CHECKING:
    from wargym.rules.no_quarter.battle.state import Battle

MAX_COUNT = 1_000_000
"""Largest counter (morale, next ids, ties, movement spent...) accepted in the plain parts."""
MAX_NAME = 80
"""Longest free-text name (scenario, outcome reason) accepted."""
EDGES = ("north", "south", "east", "west")
SIDES = ("blue", "red")

Check = Callable[[Any, str], None]
"""A check of one value at a dotted path; raises InvalidBattleError."""
Kinds = dict[str, tuple[dict[str, Check], dict[str, Check]]]
"""Each frame kind: (required keys, optional keys) and the check of each."""


def _error(where: str, reason: str) -> Exception:
    from wargym.rules.no_quarter.battle.validity import InvalidBattleError

    return InvalidBattleError(where, reason)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- value checks -----------------------------------------------------------------------------
def count(low: int = 0, high: int = MAX_COUNT) -> Check:
    """An integer in low..high."""

    def check(value: Any, where: str) -> None:
        if not _int(value) or not low <= value <= high:
            raise _error(where, f"{short_repr(value)} is not an integer in {low}..{high}")

    return check


def number(low: float = 0, high: float = MAX_COUNT) -> Check:
    """A finite number in low..high."""

    def check(value: Any, where: str) -> None:
        ok = (_int(value) or isinstance(value, float)) and math.isfinite(value)
        if not ok or not low <= value <= high:
            raise _error(where, f"{short_repr(value)} is not a number in {low:g}..{high:g}")

    return check


def boolean(value: Any, where: str) -> None:
    """True or false."""
    if not isinstance(value, bool):
        raise _error(where, f"{short_repr(value)} is not true or false")


def one_of(*values: Any) -> Check:
    """One of ``values``, of the same type (``True`` is not ``1``)."""

    def check(value: Any, where: str) -> None:
        if not any(type(v) is type(value) and v == value for v in values):
            raise _error(where, f"{short_repr(value)} is not one of {list(values)}")

    return check


def enum_of(tp: Any) -> Check:
    """The value of a member of the enum ``tp``."""
    return one_of(*(member.value for member in tp))


def text(value: Any, where: str, most: int = MAX_NAME) -> None:
    """A text of at most ``most`` characters."""
    if not isinstance(value, str) or len(value) > most:
        raise _error(where, f"expected a text of at most {most} characters")


def _reason(value: Any, where: str) -> None:
    text(value, where, 400)


def or_none(check: Check) -> Check:
    """``None`` or a value ``check`` accepts."""

    def inner(value: Any, where: str) -> None:
        if value is not None:
            check(value, where)

    return inner


def list_of(check: Check, *, most: int = MAX_COUNT) -> Check:
    """A list of at most ``most`` values ``check`` accepts."""

    def inner(value: Any, where: str) -> None:
        if not isinstance(value, list):
            raise _error(where, f"{short_repr(value)} is not a list")
        if len(value) > most:
            raise _error(where, f"more than {most} entries")
        for i, item in enumerate(value):
            check(item, f"{where}.{i}")

    return inner


def key_of(check: Check) -> Callable[[Any, str], Any]:
    """A check of an object key holding an integer (``"12"``)."""

    def inner(key: Any, where: str) -> None:
        ok = isinstance(key, str) and key.isascii() and key.lstrip("-").isdigit()
        if not ok or len(key) > 12:
            raise _error(where, "keys are integers")
        check(int(key), where)

    return inner


def map_of(key: Check, check: Check) -> Check:
    """An object whose keys ``key`` and values ``check`` accept."""

    def inner(value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise _error(where, f"{short_repr(value)} is not an object")
        for k, item in value.items():
            field = f"{where}.{short_repr(k, 20) if not isinstance(k, str) else k[:20]}"
            key(k, field)
            check(item, field)

    return inner


def record(required: dict[str, Check], optional: dict[str, Check] | None = None,
           *, closed: bool = True) -> Check:  # fmt: skip
    """An object with ``required`` keys, maybe ``optional`` ones (``closed``: no others)."""
    optional = optional or {}

    def inner(value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise _error(where, f"{short_repr(value)} is not an object")
        for key, check in required.items():
            if key not in value:
                raise _error(f"{where}.{key}", "missing")
            check(value[key], f"{where}.{key}")
        for key, item in value.items():
            if key in required:
                continue
            extra = optional.get(key)
            if extra is not None:
                extra(item, f"{where}.{key}")
            elif closed:
                name = key[:40] if isinstance(key, str) else short_repr(key, 40)
                raise _error(f"{where}.{name}", "a key the engine never writes here")

    return inner


def typed(tp: Any) -> Check:
    """A value the engine's record ``tp`` reads back (``from_jsonable``)."""

    def inner(value: Any, where: str) -> None:
        from wargym.rules.serial import from_jsonable

        try:
            from_jsonable(tp, value, where)
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            raise _error(where, short_repr(str(exc), 200).strip("'\"")) from None

    return inner


# -- the battle's plain parts -------------------------------------------------------------------
def check_parts(battle: Battle, root: str) -> None:
    """Raise InvalidBattleError naming the first field of the plain parts outside the rules."""
    ids = frozenset(battle.mechs)
    parts = _Parts(battle, ids)
    if battle.mission is not None and battle.np is None:  # a mission's rules read both
        raise _error(f"{root}.np", "a mission battle needs the NP side's block")
    if battle.np is not None:
        _np_check(parts)(battle.np, f"{root}.np")
    if battle.mission is not None:
        _mission_check(parts)(battle.mission, f"{root}.mission")
    kinds = _frame_kinds(parts)
    for i, frame in enumerate(battle.frames):
        _check_frame(parts, kinds, frame, f"{root}.frames.{i}")
    if battle.decision is not None and battle.frames:
        _check_asking(battle, root)


class _Parts:
    """What the checks of one battle refer to: its mech ids, features, table."""

    def __init__(self, battle: Battle, ids: frozenset[int]) -> None:
        self.battle = battle
        self.ids = ids
        self.features = len(battle.battlefield.features)

    def mech(self, value: Any, where: str) -> None:
        if not _int(value) or value not in self.ids:
            raise _error(where, f"{short_repr(value)} is no mech's id")

    def mechs(self, value: Any, where: str) -> None:
        list_of(self.mech)(value, where)

    def feature(self, value: Any, where: str) -> None:
        if not _int(value) or not 0 <= value < self.features:
            raise _error(where, f"{short_repr(value)} is no terrain feature")

    def design(self, value: Any, where: str) -> None:
        """A design of the battle's rule tables (a Company mech off the table, §23.8.4)."""
        from wargym.rules.no_quarter.forces.data import load_rules

        if not isinstance(value, str) or value not in load_rules(self.battle.options.rules).mechs:
            raise _error(where, f"{short_repr(value)} is no design of the rule tables")

    def point(self, value: Any, where: str) -> None:
        field = self.battle.battlefield
        if not isinstance(value, list) or len(value) != 2:
            raise _error(where, "expected [x, y]")
        number(0, field.width)(value[0], f"{where}.0")
        number(0, field.height)(value[1], f"{where}.1")


# -- frames -------------------------------------------------------------------------------------
def _frame_kinds(p: _Parts) -> Kinds:
    """The frame kinds of the engine (``game.HANDLERS``), what each holds, for battle ``p``."""
    from wargym.rules.no_quarter.forces.vocab import ReactionTest

    side, stage = one_of(*SIDES), one_of
    entry = record(
        {"mech": p.mech, "test": enum_of(ReactionTest), "causes": p.mechs},
        {"enemies": p.mechs},
    )
    waiting = record({
        "charger": p.mech, "target": p.mech, "jump": boolean,
        "outcome": one_of("no_fire", "fire", "rush_shot"),
    })  # fmt: skip
    return {
        "turn": ({}, {"stage": stage("done")}),
        "phase": (
            {"side": side, "stage": stage("start", "lead", "split", "choose")},
            {
                "groups": list_of(p.mechs),
                "done": list_of(count()),
                "pefs": boolean,
                "leaders": p.mechs,  # group orders (§12.2, §13.1)
                "asking": p.mech,
            },
        ),
        "group": ({"side": side, "members": p.mechs, "acted": p.mechs}, {}),
        "mech": (
            {
                "mech": p.mech,
                "stage": stage("begin", "fight", "action", "continue", "face", "after", "end"),
                "spent": number(),
                "moved": boolean,
                "fired": boolean,
            },
            {"start": p.point, "turn": boolean},  # began (D4); may turn at "face" (D2)
        ),
        "insight": (
            {
                "side": side,
                "mover": p.mech,
                "group": p.mech,
                "enemy_groups": p.mechs,
                "stage": stage("free", "roll", "act", "done"),
                "free": or_none(p.mechs),
                "winners": p.mechs,
                "opponents": map_of(key_of(p.mech), p.mechs),
                "deferred": list_of(entry),
            },
            {
                "next": p.mech,
                "charging": p.mech,
                "charge_options": p.mechs,
                "charge_rolls": map_of(key_of(p.mech), list_of(one_of(1, 2, 3, 4, 5, 6))),
                "charges": list_of(waiting),
            },  # the target's one roll; charges waiting (§18.2.1)
        ),  # fmt: skip
        "fire": (
            {
                "shooter": p.mech,
                "mode": stage("active", "in_sight", "reaction", "charge"),
                "targets": or_none(p.mechs),
                "cause": or_none(p.mech),
                "rush": boolean,
                "assigned": list_of(_assignment(p)),
                "twist": or_none(one_of(-90, 0, 90)),
            },
            {"rush_at": p.mechs},  # chargers a split fire rush-shoots (§18.2.1 step 5)
        ),  # fmt: skip
        "react": (
            {"entries": list_of(entry)},
            {"free_will": map_of(key_of(p.mech), one_of(0, 1, 2)), "asking": p.mech},
        ),
        "charge": (
            {
                "charger": p.mech,
                "target": p.mech,
                "stage": stage("declare", "staging", "contact", "closing"),
            },  # legs may pause
            {"allowance": number(), "start": p.point, "jump": boolean, "spent": number()},
        ),  # fmt: skip
        "charges": ({"entries": list_of(waiting), "fired": p.mechs}, {"picked": p.mech}),
        "melee": (
            {
                "attacker": p.mech,
                "defender": p.mech,
                "jump": boolean,
                "decl": map_of(key_of(p.mech), _declaration),
                "stage": stage("declare"),
                "ties": count(),
            },
            {},
        ),  # fmt: skip
        "objective": ({}, {}),
        "pefs": ({"order": or_none(list_of(count()))}, {}),  # a PEF gone since is skipped
        "pause": _pause_kind(p),  # a choice inside a roll (luck.py, D26, §9.6.4)
    }


def _pause_kind(p: _Parts) -> tuple[dict[str, Check], dict[str, Check]]:
    from wargym.rules.no_quarter.battle.luck import LUCKY_WHAT
    from wargym.rules.no_quarter.forces.vocab import Location

    die, place = one_of(1, 2, 3, 4, 5, 6), enum_of(Location)

    def action(value: Any, where: str) -> None:
        from wargym.rules.no_quarter.battle.actions import action_from_dict

        try:
            action_from_dict(value)
        except RulesError as error:
            raise _error(where, "not an action") from error

    def answer(value: Any, where: str) -> None:
        if not isinstance(value, bool):
            place(value, where)

    required = {
        "unit": one_of("step", "act"), "action": or_none(action),
        "rolls": list_of(list_of(die, most=64), most=4096), "answers": list_of(answer, most=64),
        "stage": one_of("lucky", "marksman"), "mech": p.mech, "what": one_of(*LUCKY_WHAT),
        "faces": list_of(die, most=64), "target": or_none(p.mech),
        "choices": list_of(place, most=2),
    }  # fmt: skip
    optional = {"passed": count(0, 2), "shielded_hit": boolean, "lost": boolean,
                "shielded": list_of(place, most=2)}  # fmt: skip
    return required, optional


def _assignment(p: _Parts) -> Check:
    """``[weapon, target]`` or ``[weapon, feature, "building"]`` (the weapon's item index)."""

    def inner(value: Any, where: str) -> None:
        if not isinstance(value, list) or len(value) not in (2, 3):
            raise _error(where, "expected [weapon, target] or [weapon, feature, 'building']")
        count()(value[0], f"{where}.0")
        if len(value) == 2:
            p.mech(value[1], f"{where}.1")
        else:
            p.feature(value[1], f"{where}.1")
            one_of("building")(value[2], f"{where}.2")

    return inner


def _declaration(value: Any, where: str) -> None:
    from wargym.rules.no_quarter.forces.vocab import Location, MeleeAttack

    if not isinstance(value, list) or len(value) != 2:
        raise _error(where, "expected [attack, limb]")
    enum_of(MeleeAttack)(value[0], f"{where}.0")
    enum_of(Location)(value[1], f"{where}.1")


def _check_frame(p: _Parts, kinds: Kinds, frame: Any, where: str) -> None:
    if not isinstance(frame, dict) or not isinstance(frame.get("kind"), str):
        raise _error(where, "a frame is an object with a kind")
    kind = frame["kind"]
    if kind not in kinds:
        raise _error(
            f"{where}.kind",
            f"{short_repr(kind)} is not a procedure of the rules ({sorted(kinds)})",
        )
    required, optional = kinds[kind]
    record({"kind": lambda v, w: None, **required}, optional)(frame, where)
    if kind == "phase" and frame["stage"] != "start":  # groups formed (§14.0)
        for key in ("groups", "done"):
            if key not in frame:
                raise _error(f"{where}.{key}", f"a phase past its start needs {key!r}")
        for i, index in enumerate(frame["done"]):
            if index >= len(frame["groups"]):
                raise _error(f"{where}.done.{i}", f"group {index} is not one of the phase's")
    if kind == "pause":
        mech, top = p.battle.mechs[frame["mech"]], frame is p.battle.frames[-1]
        if not top or frame["stage"] not in {a.value for a in mech.pilot.attributes}:
            raise _error(where, f"a {frame['stage']} pause needs the top frame and that pilot")
    if kind == "fire":
        items = len(p.battle.mechs[frame["shooter"]].design.items)
        for i, entry in enumerate(frame["assigned"]):
            if entry[0] >= items:
                raise _error(
                    f"{where}.assigned.{i}.0",
                    f"item {entry[0]} is outside 0..{items - 1} (the shooter's items)",
                )


# -- np and mission -----------------------------------------------------------------------------
def _np_check(p: _Parts) -> Check:
    from wargym.rules.no_quarter.forces.vocab import Faction
    from wargym.rules.no_quarter.non_player.enemy import NpGroupState

    group_state = _typed_record(NpGroupState, {
        "own_edge": one_of(*EDGES), "exit_edge": one_of(*EDGES),
        "target": or_none(p.mech), "activation": or_none(list_of(count(), most=2)),
    })  # fmt: skip

    pef = record({"id": count(), "pos": p.point, "building": or_none(p.feature)})
    return record(
        {
            "side": one_of(*SIDES), "faction": enum_of(Faction),
            "player_faction": enum_of(Faction), "mission": one_of("patrol", "attack", "defend"),
            "morale": count(), "player_morale": count(), "pefs": list_of(pef, most=MAX_COUNT),
            "next_pef": count(), "used_buildings": list_of(p.feature),
            "excluded_sections": list_of(count()), "keep_lowest_two": boolean,
            "contact_so_far": boolean, "groups": map_of(key_of(count(-1)), group_state),
            "default": group_state, "revealed": count(), "check_due": boolean,
            "next_team": count(), "player_mechs_fielded": count(),
        },
        {"external": boolean},
        closed=False,
    )  # fmt: skip


def _mission_check(p: _Parts) -> Check:
    from wargym.rules.no_quarter.battlefield.weather import WeatherState
    from wargym.rules.no_quarter.cestus.cestus_v_data import campaign_definition
    from wargym.rules.no_quarter.mission.missions import (
        AttackObjective,
        MissionOptions,
        MissionType,
    )

    objective = or_none(enum_of(AttackObjective))
    last = len(campaign_definition().missions)
    reserve_entry = record(
        {"company": count(), "design": p.design, "pilot": count(), "rep": count(0, 10)}, {},
        closed=False,
    )  # fmt: skip
    return record(
        {
            "scenario": text, "kind": enum_of(MissionType),
            "exit_edges": map_of(key_of(count()), one_of(*EDGES)), "recon": list_of(count()),
            "options": _typed_record(MissionOptions, {
                "turn_limit": or_none(count(1)), "ratio_denominator": one_of("fielded", "started"),
                "ratio_rounding": one_of("up", "down"), "patrol_ends_on_success": boolean,
                "exit_ends_on_threshold": boolean,
            }),
            "weather": _typed_record(WeatherState, {"row": or_none(count(1, 6))}),
            "night": boolean, "attack_objective": objective, "np_objective": objective,
            "outcome": or_none(record({"status": text, "reason": _reason})),
            "player_started": count(),
        },
        {
            "cestus": count(0, last), "objective_exits": count(),
            "enemy_forbidden_exits": count(), "crossed": list_of(count()),
            "troll": record({"done": boolean}, {"tested": _activation}),
            "reported_back": count(), "reserve": list_of(reserve_entry),
            "reserve_used": map_of(key_of(count()), reserve_entry),
        },
        closed=False,
    )  # fmt: skip


def _typed_record(tp: Any, fields: dict[str, Check]) -> Check:
    """Fields the engine reads checked one by one (precise paths), then the whole as ``tp``."""
    first, whole = record({}, fields, closed=False), typed(tp)

    def inner(value: Any, where: str) -> None:
        first(value, where)
        whole(value, where)

    return inner


def _activation(value: Any, where: str) -> None:
    """``[turn, [member ids]]`` of a player group activation (Cestus V's Troll)."""
    if not isinstance(value, list) or len(value) != 2:
        raise _error(where, "expected [turn, members]")
    count()(value[0], f"{where}.0")
    list_of(count())(value[1], f"{where}.1")


ASKING: dict[str, tuple[tuple[str, tuple[str, ...] | None, str | None], ...]] = {
    "activate_group": (("phase", ("choose",), None),),
    "lead_teams": (("phase", ("lead",), "asking"),),
    "split_group": (("phase", ("split",), None),),
    "choose_mech": (("group", None, None), ("insight", ("act",), None), ("charges", None, None)),
    "mech_action": (("mech", ("action",), "mech"),),
    "continue_move": (("mech", ("continue",), "mech"),),
    "face": (("mech", ("face",), "mech"),),
    "melee_target": (("mech", ("fight",), "mech"),),
    "assign_fire": (("fire", None, "shooter"),),
    "free_move": (("insight", ("free",), None),),
    "charge_target": (("insight", ("act",), "charging"),),
    "free_will": (("react", None, "asking"),),
    "melee_declare": (("melee", None, None),),
    "choose_objective": (("objective", None, None),),
    "lucky_reroll": (("pause", ("lucky",), "mech"),),
    "marksman_location": (("pause", ("marksman",), "mech"),),
}
"""Per decision kind: the frames that ask it (kind, stages or any, key naming the mech)."""


def _check_asking(battle: Battle, root: str) -> None:
    """The pending decision is the one the top frame asks (the rules resume from it)."""
    decision = battle.decision
    assert decision is not None
    top = battle.frames[-1]
    where = f"{root}.frames.{len(battle.frames) - 1}"
    for kind, stages, key in ASKING.get(decision.kind.value, ()):
        if top["kind"] != kind or (stages is not None and top.get("stage") not in stages):
            continue
        if key is not None and top.get(key) != decision.mech:
            raise _error(f"{where}.{key}", f"the pending decision is about mech {decision.mech}")
        if decision.kind.value == "free_move" and not top["free"]:
            raise _error(f"{where}.free", "a free move is pending but no mech may make it")
        return
    stage = f" at stage {short_repr(top.get('stage'))}" if "stage" in top else ""
    raise _error(
        where, f"a {top['kind']} frame{stage} does not ask the pending {decision.kind.value}"
    )
