"""The native events write the reference's documents and apply as ``Battle.apply`` does (issue 16).

Reference games (skirmishes of every ``option_variants()`` choice, three that seek charges and
melee as perft.py's melee position does, and the shipped missions)
are played with ``Battle.apply`` wrapped: every event the flow emits is captured. Then

* the native ``Event.from_dict(e.to_dict()).to_dict()`` equals the reference's ``e.to_dict()``
  for every captured event, types compared (an int stays an int, a float a float), and the
  reference's registry reads the native document back to ``e``;
* for sampled events (the first ``PER_GAME`` of each class in each game, a few
of the classes ``Battle.apply`` writes nothing for; every event with
  ``WARGYM_EVENT_ALL=1``), the native battle built from the state just before the event, with
  the native ``apply``, writes the state the reference wrote just after it.

Classes the games rarely or never emit (set-up, flames, weather, mission end) are
covered by random events of every class (built from the dataclass field types) and by
hand-made events applied to real states; a test checks that every class of
``NO_QUARTER_EVENTS`` is covered.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import json
import os
import sys
import types
import typing
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.native import no_quarter as nnq
from wargym.native.errors import NativeStateError
from wargym.rules.dice import RandomDice
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.forces import vocab
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import MeleeAttack, Removal, Side
from wargym.rules.no_quarter.mission.mission_play import new_mission

sys.path.insert(0, str(Path(__file__).parent))
from _state_compare import same  # noqa: E402
from test_state_agreement import FACTIONS, VARIANTS  # noqa: E402

EVENTS: Any = nnq.core.events
"""The compiled events (``wargym.native._core.no_quarter.events``)."""
ALL = os.environ.get("WARGYM_EVENT_ALL") == "1"
PER_GAME = 1
"""Events of each class whose apply is checked in each game (all of them with ALL)."""
NO_WRITE = frozenset({
    "GroupActivated", "GroupSkipped", "InSightTaken", "InSightAction", "ShotFired", "HitLocated",
    "ReactionTaken", "FiringStarted", "FiringEnded", "ChargeDeclared", "ChargeTested",
    "MeleeDeclared", "MeleeRound", "MoveBlocked", "FlameCrossed", "NpTableRolled",
    "ReinforcementChecked", "MechWithdrew", "FreeCompanyRaces", "PilotCreated",
})  # fmt: skip
"""Classes ``Battle.apply`` writes nothing for: checked ``NO_WRITE_CHECKS`` times in all."""
NO_WRITE_CHECKS = 4
MAX_DECISIONS = 150
MELEE = ("melee 0", "melee 1", "melee 2")
"""Skirmishes whose chooser prefers ``PREFER`` actions (perft.py's melee position does too)."""
PREFER = ("Charge", "DeclareMelee", "FightMech")
MISSIONS = ("patrol_star_army_vs_hishen", "attack_iss_vs_hishen", "defend_pdf_vs_hishen")
REGISTRY = ev.NO_QUARTER_EVENTS
CLASSES: dict[str, type[Event]] = {name: REGISTRY._classes[name] for name in REGISTRY.names}


def strict_equal(a: Any, b: Any) -> bool:
    """Equal with types (1 != 1.0 != True), through the C encoder; ``same`` says where not."""
    return json.dumps(a) == json.dumps(b)


@dataclasses.dataclass
class Capture:
    """What the games emitted: every event document, and the sampled (pre, event, post)."""

    seen: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    docs: list[tuple[str, Event]] = dataclasses.field(default_factory=list)
    applied: list[tuple[str, dict[str, Any], Event, dict[str, Any]]] = dataclasses.field(
        default_factory=list
    )


def _capture(
    battles: Iterator[tuple[str, Battle, RandomDice, np.random.Generator, int]],
) -> Capture:
    out = Capture()
    original = Battle.apply
    label = ""
    checked: collections.Counter[str] = collections.Counter()
    in_all: collections.Counter[str] = collections.Counter()

    def wrapped(self: Battle, event: Event) -> None:
        name = type(event).__name__
        out.seen[name] += 1
        out.docs.append((label, event))
        budget = in_all[name] < NO_WRITE_CHECKS if name in NO_WRITE else checked[name] < PER_GAME
        if ALL or budget:
            checked[name] += 1
            in_all[name] += 1
            pre = self.to_dict()
            original(self, event)
            out.applied.append((label, pre, event, self.to_dict()))
        else:
            original(self, event)

    Battle.apply = wrapped  # type: ignore[method-assign]
    try:
        for name, battle, dice, rng, decisions in battles:
            checked.clear()
            for step in range(decisions):
                if battle.over:
                    break
                label = f"{name} decision {step}"
                legal = game.legal_actions(battle)
                chosen = [a for a in legal if type(a).__name__ in PREFER] if name in MELEE else []
                pool = chosen or legal
                game.play(battle, pool[int(rng.integers(len(pool)))], dice)
    finally:
        Battle.apply = original  # type: ignore[method-assign]
    return out


def _games(seed: int = 0) -> Iterator[tuple[str, Battle, RandomDice, np.random.Generator, int]]:
    """One skirmish per option variant (1-5 mechs a side, Stars, every faction), then missions."""
    for g, options in enumerate(VARIANTS):
        per_side = 1 + g % 5
        stars = g % (per_side + 1)
        blue, red = FACTIONS[g % len(FACTIONS)], FACTIONS[(g * 5 + 1) % len(FACTIONS)]
        rng = np.random.default_rng(seed + g)
        dice = RandomDice.from_seed(seed + g)
        # the set-up's own events go through Battle.apply too: capture from the first decision
        battle = new_skirmish(rng, dice, blue=blue, red=red, mechs_per_side=per_side,
                              stars=stars, options=options)  # fmt: skip
        yield f"game {g} ({per_side} a side, {stars} stars)", battle, dice, rng, MAX_DECISIONS
    for g, name in enumerate(MELEE):  # charges and melee, which random play seldom reaches
        # perft.py's "melee_declare" recipe (seed 2) and two more seeds of its kind
        options = BattleOptions(several_chargers="one_by_one" if g == 2 else "split")
        dice = RandomDice.from_seed(10_002 + seed + g)
        battle = new_skirmish(np.random.default_rng(2 + seed + g), dice, mechs_per_side=2,
                              options=options)  # fmt: skip
        yield name, battle, dice, np.random.default_rng(20_002 + seed + g), 600
    for name in MISSIONS:
        rng = np.random.default_rng(seed)
        dice = RandomDice.from_seed(seed)
        yield name, new_mission(name, rng, dice), dice, rng, 60


_CAPTURE: list[Capture] = []


def captured() -> Capture:
    """The games' capture, played once per test session."""
    if not _CAPTURE:
        _CAPTURE.append(_capture(_games()))
    return _CAPTURE[0]


def check_document(label: str, event: Event) -> None:
    data = event.to_dict()
    native = EVENTS.Event.from_dict(data)
    written = native.to_dict()
    if not strict_equal(data, written):
        raise AssertionError(f"{label}: native to_dict differs at {same(data, written, 'event')}")
    assert native.type == type(event).__name__
    assert strict_equal(native._via_json(), written), f"{label}: the C++ Json writer differs"
    assert REGISTRY.from_dict(written) == event, f"{label}: the reference reads back another event"


def check_apply(
    label: str, pre: dict[str, Any], event: Event, post: dict[str, Any], native: Any = None
) -> None:
    """The native battle of ``pre`` (or a clone of ``native``), after ``event``, writes ``post``."""
    battle = nnq.battle_from_dict(pre, check=False) if native is None else native.clone()
    EVENTS.apply(battle, EVENTS.Event.from_dict(event.to_dict()))
    written = battle.to_dict()
    if not strict_equal(post, written):
        where = same(post, written)
        raise AssertionError(f"{label}: {type(event).__name__} applied natively differs at {where}")


# -- the classes ---------------------------------------------------------------------------------
def test_the_native_core_knows_every_event_class_in_registry_order() -> None:
    in_order = [cls.__name__ for cls in REGISTRY._classes.values()]
    assert list(EVENTS.type_names()) == in_order


def test_the_event_vocabulary_is_the_reference_one() -> None:
    expected = {
        cls.__name__: tuple(m.value for m in cls)
        for cls in (vocab.ReactionResult, vocab.ReactionTest, vocab.MeleeAttack, vocab.Aspect)
    }
    assert EVENTS.vocabulary() == expected


# -- real games ----------------------------------------------------------------------------------
def test_every_event_of_real_games_writes_the_reference_document() -> None:
    capture = captured()
    assert len(capture.docs) > 3000
    for label, event in capture.docs:
        check_document(label, event)


def test_applying_events_of_real_games_gives_the_reference_state() -> None:
    capture = captured()
    kinds = {type(e).__name__ for _, _, e, _ in capture.applied}
    assert kinds == set(capture.seen)
    for label, pre, event, post in capture.applied:
        check_apply(label, pre, event, post)


# -- random events of every class ------------------------------------------------------------------
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, globalns=vars(sys.modules[cls.__module__]))


class RandomEvents:
    """Events of any class with random field values, drawn from the dataclass field types.

    Ints come from a pool holding the battle's mech ids and feature indices (so most
    references resolve), floats include -0.0 and values of every size, text includes the
    values the branches test for (``duck_back``, ``arm_blown_off``, ``hard_as_nails``, ...).
    """

    TEXT = ("", "x", "duck_back", "arm_blown_off", "leg_blown_off", "hard_as_nails", "contact",
            "team_leader", "squad_leader", "north", "héllo ✓")  # fmt: skip

    def __init__(self, seed: int, state: dict[str, Any]) -> None:
        self.rng = np.random.default_rng(seed)
        self.ids = [int(k) for k in state["mechs"]]
        self.designs = [(m["design"], m["pilot"]) for m in state["mechs"].values()]
        self.ints = sorted(
            {*self.ids, 0, 1, 2, 3, 6, -1, len(state["battlefield"]["features"]) - 1}
        )

    def value(self, tp: Any, name: str) -> Any:
        rng = self.rng
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin in (typing.Union, types.UnionType):
            options = [a for a in args if a is not type(None)]
            if type(None) in args and rng.random() < 0.4:
                return None
            return self.value(options[0], name)
        if tp is int:
            return int(rng.choice(self.ints)) if rng.random() < 0.8 else int(rng.integers(-9, 99))
        if tp is float:
            return float(rng.choice([0.0, -0.0, 1.0, 0.1 + 0.2, 1e-300, 1e300, rng.normal() * 40]))
        if tp is bool:
            return bool(rng.random() < 0.5)
        if tp is str:
            return str(rng.choice(self.TEXT))
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return list(tp)[int(rng.integers(len(tp)))]
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(self.value(args[0], name) for _ in range(int(rng.integers(0, 4))))
            return tuple(self.value(a, name) for a in args)
        if origin is dict:
            return {"posture": "patrol", "n": int(rng.integers(9)), "at": [1.5, None, True],
                    "sub": {"deep": [[]], "x": -0.0}}  # fmt: skip
        if dataclasses.is_dataclass(tp):
            return self.record(tp)
        raise AssertionError(f"no random value for {tp!r} ({name})")

    def record(self, cls: Any) -> Any:
        from wargym.rules.no_quarter.forces.records import MechDesign, Pilot
        from wargym.rules.serial import from_jsonable

        design, pilot = self.designs[int(self.rng.integers(len(self.designs)))]
        if cls is MechDesign:
            return from_jsonable(MechDesign, design)
        if cls is Pilot:
            return from_jsonable(Pilot, pilot)
        hints = _hints(cls)
        values = {f.name: self.value(hints[f.name], f.name) for f in dataclasses.fields(cls)}
        if (
            "leaders" in values and "groups" in values and self.rng.random() < 0.8
        ):  # zip(strict=True)
            values["leaders"] = tuple(self.value(int, "leader") for _ in values["groups"])
        if cls.__name__ == "MechsArrived":
            # new ids after the others, in order (a dict puts new keys last, the native Battle
            # keeps its mechs in id order: the flow's next ids are both), or ids in play
            fresh = max(self.ids) + 1
            arriving = []
            for new in values["mechs"]:
                in_play = self.rng.random() < 0.25
                arriving.append(dataclasses.replace(new, id=self.ids[-1] if in_play else fresh))
                fresh += 0 if in_play else 1 + int(self.rng.integers(2))
            values["mechs"] = tuple(arriving)
        return cls(**values)

    def event(self, cls: type[Event]) -> Event:
        event = self.record(cls)
        assert isinstance(event, Event)
        return event


def _state(kind: str) -> dict[str, Any]:
    """A real mid-game state: a skirmish (no NP, no mission) or a mission's."""
    for label, pre, _, _ in captured().applied:
        is_mission = label.startswith(MISSIONS)
        if is_mission == (kind == "mission") and pre["turn"] >= 2 and len(pre["mechs"]) >= 4:
            return pre
    raise AssertionError(f"no {kind} state")


_BASES: dict[int, tuple[Battle, Any]] = {}


def check_apply_or_refuse(label: str, pre: dict[str, Any], event: Event) -> bool:
    """Apply in both engines: the same state, or both refuse; True if it applied."""
    if id(pre) not in _BASES:
        _BASES[id(pre)] = (
            Battle.from_dict(pre, check=False),
            nnq.battle_from_dict(pre, check=False),
        )
    base, native = _BASES[id(pre)]
    reference = base.clone()
    try:
        reference.apply(event)
    except (KeyError, IndexError, ValueError, TypeError) as error:
        battle = native.clone()
        with pytest.raises(NativeStateError):
            EVENTS.apply(battle, EVENTS.Event.from_dict(event.to_dict()))
        assert error is not None
        return False
    check_apply(label, pre, event, reference.to_dict(), native)
    return True


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_random_events_of_every_class_agree(name: str) -> None:
    """Every class: 16 random events write the reference's document and apply alike."""
    cls = CLASSES[name]
    applied = 0
    for kind in ("skirmish", "mission"):
        pre = _state(kind)
        random_events = RandomEvents(zlib.crc32(name.encode()), pre)
        for i in range(8):
            event = random_events.event(cls)
            check_document(f"{name} {kind} {i}", event)
            applied += check_apply_or_refuse(f"{name} {kind} {i}", pre, event)
    assert applied > 0, f"no random {name} applied in either engine"


# -- hand-made sequences: the branches' cases one by one ------------------------------------------
def check_sequence(label: str, pre: dict[str, Any], events: list[Event]) -> None:
    """Both engines apply ``events`` in turn from ``pre`` and write the same state after each."""
    reference = Battle.from_dict(pre, check=False)
    native = nnq.battle_from_dict(pre, check=False)
    for i, event in enumerate(events):
        reference.apply(event)
        EVENTS.apply(native, EVENTS.Event.from_dict(event.to_dict()))
        expected, written = reference.to_dict(), native.to_dict()
        assert strict_equal(expected, written), f"{label} {i} {event}: {same(expected, written)}"


def _ids(pre: dict[str, Any]) -> list[int]:
    return sorted(int(k) for k in pre["mechs"])


def test_status_loss_and_removal_cases_agree() -> None:
    """Leave is permanent and counts once; Duck Back's cover ends; wrecks only with the option."""
    pre = _state("skirmish")
    a, b, c = _ids(pre)[:3]
    side = vocab.Side(pre["mechs"][str(a)]["side"])
    for wrecks in (False, True):
        pre = json.loads(json.dumps(pre))
        pre["options"]["leave_wrecks"] = wrecks
        check_sequence(f"wrecks={wrecks}", pre, [
            ev.StatusChanged(a, vocab.Status.LEAVE_BATTLEFIELD, "reaction"),
            ev.StatusChanged(a, vocab.Status.CARRY_ON, "rally"),
            ev.MechRemoved(a, vocab.Removal.DESTROYED, side, 2),
            ev.DuckedBack(b, a, True),
            ev.DuckedBack(b, c, False),
            ev.DuckedBack(b, a, True),
            ev.StatusChanged(b, vocab.Status.DUCK_BACK, "reaction"),
            ev.MechRemoved(b, vocab.Removal.LEFT_TABLE, side, 2),
            ev.MechRemoved(b, vocab.Removal.INOPERABLE, side, 2),
            ev.MechRemoved(c, vocab.Removal.CHEATED_DEATH, side, 2),
            ev.CheatedDeath(c, 2, "hard_as_nails"),
            ev.CheatedDeath(c, 1, "star"),
        ])  # fmt: skip


def test_damage_movement_and_bookkeeping_cases_agree() -> None:
    pre = _state("skirmish")
    a, b = _ids(pre)[:2]
    features = pre["battlefield"]["features"]
    building = next(i for i, f in enumerate(features) if f["kind"] == "building")
    loc = vocab.Location
    check_sequence("damage", pre, [
        ev.MechFaced(a, 90.0, 60),
        ev.MechMoved(a, ((1.0, 2.0), (3.5, 0.1 + 0.2)), 45.0, 2.0, 1.25, "duck_back"),
        ev.MechFaced(a, 270.0, -60),
        ev.MechMoved(a, ((4.0, 4.0),), 10.0, 0.0, 0.0, "jump", True),
        ev.DamageRolled(b, loc.GUT, (6, 6), 3, 2, 4, 0, True, False, 7),
        ev.CriticalHit(b, loc.ARM_L, "arm_blown_off", (3,), 1, (1, 0, 1), 4, None),
        ev.CriticalHit(b, loc.ARM_L, "arm_blown_off", (), None, (1,), 3, None, 0, (0, 1)),
        ev.CriticalHit(b, loc.LEG_R, "leg_blown_off", (2, 5), None, (), 2, Removal.INOPERABLE),
        ev.CriticalHit(b, loc.CHEST, "ammo", (1,), 2, (2,), 2, None),
        ev.ItemDisabled(b, (2, 3, 3), "limb"),
        ev.PilotTested(b, 1, 4, False, True, 3, True),
        ev.PilotTested(b, 6, 3, True, False, 3, False, (2,)),
        ev.StoodUp(b),
        ev.RepChanged(b, 2, "fired on"),
        ev.LuckyReroll(b, "pilot_test", (1,), (6,)),
        ev.FlameLaid(a, (1.0, 1.0), (5.0, -0.0)),
        ev.BuildingDamaged(building, a, (4, 5), 3, 1, 3, 1, False),
        ev.BuildingDamaged(7, a, (), 0, 0, 2, 2, True, (1,), (), loc.ARM_R, MeleeAttack.KICK, 2),
        ev.BuildingDamaged(building, a, (6, 6), 3, 2, 1, 0, False, damage=4),
        ev.BuildingDestroyed(building),
        ev.BuildingDestroyed(-1),
        ev.TurnStarted(7),
        ev.ActivationRolled(3, 5, ((2, 2), (4, 4)), vocab.Side.RED),
        ev.LeaderAppointed(a, "platoon_leader", b),
        ev.GroupsFormed(vocab.Side.BLUE, ((a, b), (99,)), (b, 99)),
        ev.TeamJoined(vocab.Side.BLUE, a, (b,), (a, b, 42)),
        ev.MechSplitOff(vocab.Side.BLUE, b, ((b,), (a,)), (b, a)),
        ev.MechLeftTable(a, "north"),
        ev.BattleEnded(None, "turn limit", 7),
        ev.BattleEnded(vocab.Side.BLUE, "destroyed", 8),
    ])  # fmt: skip


def test_np_and_mission_cases_agree() -> None:
    """PEFs, arrivals, NP groups, weather, exits and the outcome on a mission's bookkeeping."""
    pre = _state("mission")
    ids = _ids(pre)
    np_side = pre["np"]["side"]
    player = next(i for i in ids if pre["mechs"][str(i)]["side"] != np_side)
    npc = next(i for i in ids if pre["mechs"][str(i)]["side"] == np_side)
    design = RandomEvents(0, pre).record  # records of the state's mechs
    from wargym.rules.no_quarter.forces.records import MechDesign, Pilot
    from wargym.rules.no_quarter.non_player import np_events as npe

    def arriving(mech_id: int) -> npe.ArrivingMech:
        return npe.ArrivingMech(mech_id, design(MechDesign), design(Pilot), (3.0, 4.0), 180.0,
                                vocab.Rank.TEAM_LEADER)  # fmt: skip

    pre = json.loads(json.dumps(pre))
    pre["np"]["check_due"] = False
    fresh = max(ids) + 1
    for first in (npc, player):
        check_sequence(f"np moved {first}", pre, [
            ev.MechMoved(first, ((1.0, 2.0),), 0.0, 1.0, 1.0, "voluntary"),
            ev.MechMoved(npc, ((1.0, 3.0),), 0.0, 1.0, 1.0, "voluntary"),
            npe.PefPlaced(40, (2.0, 3.0), 4, 2, False, 1),
            npe.PefPlaced(2, (2.5, 3.0), None, None, True, 1),
            npe.PefPlaced(41, (9.0, 9.0), None, None, True, None),
            npe.PefMoved(40, (2, 5), 1, ((2.0, 3.0), (4.0, 5.0)), player),
            npe.PefMoved(77, (2, 5), 1, (), None),
            npe.PefResolved(40, (player,), (1, 2, 6), (1, 2), 2, "nothing", False, None, 0, True),
            npe.PefResolved(41, (player,), (1,), (1,), 1, "contact", True, 5, 2, False),
            npe.MechsArrived(Side(np_side), 300, "contact", (arriving(fresh), arriving(fresh + 1))),
            npe.MechsArrived(vocab.Side(pre["mechs"][str(player)]["side"]), 7, "reinforcement",
                             (arriving(fresh + 3),), (4,), ((2, 2),)),
            npe.MechsArrived(vocab.Side(np_side), 5, "contact", (arriving(npc),)),
            npe.NpGroupSet(300, {"posture": "defend", "order": ["a", 1]}, "contact"),
            npe.NpGroupSet(300, {}, "again"),
            npe.WeatherChanged((3, 3), {"inclement": True, "row": 2}, True, True),
            ev.MechLeftTable(player, "south"),
            ev.MechLeftTable(player, "east"),
            npe.MissionEnded("success", "objective", 6),
        ])  # fmt: skip


def test_references_that_do_not_resolve_are_refused_by_both() -> None:
    """Where the reference fails (KeyError, TypeError, IndexError, ValueError), NativeStateError."""
    skirmish, mission = _state("skirmish"), _state("mission")
    a = _ids(skirmish)[0]
    from wargym.rules.no_quarter.non_player import np_events as npe

    cases = [
        (skirmish, ev.MechFaced(999, 0.0, 0)),
        (skirmish, ev.MechMoved(a, (), 0.0, 0.0, 0.0, "voluntary")),
        (skirmish, ev.LeaderAppointed(a, "general", a)),
        (skirmish, ev.GroupsFormed(vocab.Side.RED, ((a,),), ())),
        (skirmish, ev.MechSplitOff(vocab.Side.RED, a, (), (a,))),
        (skirmish, ev.BuildingDestroyed(len(skirmish["battlefield"]["features"]))),
        (skirmish, npe.PefPlaced(1, (1.0, 1.0), None, None, False, None)),
        (skirmish, npe.NpGroupSet(1, {}, "x")),
        (mission, npe.MechsArrived(vocab.Side.RED, 1, "x", ())),
        (mission, npe.PefMoved(0, (), 0, (), None)),
    ]
    for pre, event in cases:
        assert not check_apply_or_refuse(str(event), pre, event)


def test_the_glue_protocol_names_every_member_of_the_native_event() -> None:
    from wargym.native.no_quarter import events as glue

    members = {n for n in dir(EVENTS.Event) if not n.startswith("_")}
    typed = {n for n in vars(glue.NativeEvent) if not n.startswith("_")}
    assert members == typed
    assert tuple(REGISTRY._classes) == glue.EVENT_TYPES


def test_every_event_class_is_covered() -> None:
    """Each class is emitted by the games or only built here (random and hand-made events)."""
    seen = set(captured().seen)
    assert {"MechMoved", "ShotFired", "DamageRolled", "ReactionTaken", "MechRemoved",
            "PefPlaced", "MechsArrived", "BuildingDestroyed", "ChargeDeclared", "ChargeTested",
            "MeleeDeclared", "MeleeRound"} <= seen  # fmt: skip
    built = {"ItemDisabled", "FlameLaid", "FlameCrossed", "MoveBlocked", "PefMoved",
             "WeatherChanged", "MechWithdrew", "MissionEnded", "FreeCompanyRaces",
             "PilotCreated"}  # fmt: skip
    assert set(CLASSES) - seen <= built
    assert built <= set(CLASSES)
