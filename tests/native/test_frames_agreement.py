"""The native typed frames agree with the reference's plain-JSON frame stack (issue 16).

* The schema (each kind's required and optional keys) and every stage, mode and enum
  vocabulary of the native frames are validity_parts' own (read from its checks).
* Every frame stack of sampled states (random skirmishes over every option choice, the shipped
  missions, Cestus V missions), plus synthetic frames holding every key any kind may hold,
  round-trips through the typed frames equal to the reference: key for key, type for type, in
  the same key order (a frame whose keys come in another order keeps that order).
* Hostile frame documents (each key deleted, of a wrong type or value, unknown keys, deep
  nesting, huge lists) raise NativeStateError and never crash; where the reference's
  ``check_battle`` refuses the document, the native path is the reference's path.
* The flow skeleton's pieces agree with the reference: the frame constructors, nearest_frame,
  queue_tests, caused_by, Ctx.pop's corruption check, Ctx.ask, luck.watching, and game._run
  where it needs no procedure; a clone's frames are independent (copy on write).
"""

from __future__ import annotations

import copy
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.native import _core
from wargym.native import no_quarter as nnq
from wargym.native.errors import NativeStateError
from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battle import (
    consequences,
    flow,
    flow_fire,
    flow_mech,
    flow_melee,
    game,
    luck,
    validity_parts,
)
from wargym.rules.no_quarter.battle.actions import DecisionKind
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.cestus.cestus_v_data import campaign_definition
from wargym.rules.no_quarter.forces import vocab
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.records import ChargeOutcome
from wargym.rules.no_quarter.mission.mission_play import new_mission

sys.path.insert(0, str(Path(__file__).parent))
from _state_compare import same  # noqa: E402
from test_state_agreement import mission_states, skirmish_states  # noqa: E402

F: Any = _core.no_quarter.flow
GAMES = 6
"""Random skirmishes sampled (cycling through every option choice; the state test plays more)."""
HOSTILE_STATES = int(os.environ.get("WARGYM_FRAMES_HOSTILE_STATES", "1"))
"""Sampled states whose synthetic frames are damaged key by key (about 2,000 documents each)."""


def cell(fn: Any, name: str) -> Any:
    return fn.__closure__[fn.__code__.co_freevars.index(name)].cell_contents


def cestus_states() -> Iterator[tuple[str, dict[str, Any]]]:
    campaign = campaign_definition()
    for n in (1, 6):
        rng, dice = np.random.default_rng(n), RandomDice.from_seed(n)
        battle = new_mission(campaign.mission(n).scenario("hishen"), rng, dice)
        for step in range(15):
            yield f"Cestus V mission {n} decision {step}", battle.to_dict()
            if battle.over:
                break
            legal = game.legal_actions(battle)
            game.play(battle, legal[int(rng.integers(len(legal)))], dice)


STATES = [*skirmish_states(GAMES, seed=100), *mission_states(seed=3), *cestus_states()]
DECIDING = [(label, d) for label, d in STATES if d["decision"] is not None and d["frames"]]


def kinds_of(d: dict[str, Any]) -> dict[str, Any]:
    battle = Battle.from_dict(d)
    return validity_parts._frame_kinds(validity_parts._Parts(battle, frozenset(battle.mechs)))


def full_frames(d: dict[str, Any]) -> list[dict[str, Any]]:
    """One frame of every kind but pause with every key it may hold, valid for ``d``."""
    a, b = (int(k) for k in list(d["mechs"])[:2])
    entry = {"mech": a, "test": "mech_down", "causes": [b], "enemies": [b]}
    waiting = {"charger": b, "target": a, "outcome": "rush_shot", "jump": False}
    assigned: list[list[Any]] = [[0, b]]
    if d["battlefield"]["features"]:
        assigned.append([0, 0, "building"])
    return [
        {"kind": "turn", "stage": "done"},
        {"kind": "phase", "side": "blue", "stage": "choose", "groups": [[a], [b]], "done": [0],
         "pefs": True, "leaders": [a], "asking": a},
        {"kind": "group", "side": "red", "members": [a, b], "acted": [a]},
        {"kind": "mech", "mech": a, "stage": "continue", "spent": 1.5, "moved": True,
         "fired": False, "start": [1.0, 2.0], "turn": True},
        {"kind": "mech", "fired": False, "moved": False, "spent": 2, "stage": "begin", "mech": b,
         "start": [1, 2.5]},  # keys out of the engine's order, ints where it writes floats
        {"kind": "insight", "side": "blue", "mover": a, "group": a, "enemy_groups": [b],
         "stage": "act", "free": [a], "winners": [b], "opponents": {str(b): [a], str(a): []},
         "deferred": [entry, {"test": "fired_on", "causes": [], "mech": b}], "next": b,
         "charging": b, "charge_options": [a], "charge_rolls": {str(a): [1, 6]},
         "charges": [waiting]},
        {"kind": "fire", "shooter": a, "mode": "charge", "targets": [b], "cause": b, "rush": True,
         "assigned": assigned, "twist": -90, "rush_at": [b]},
        {"kind": "react", "entries": [entry], "free_will": {str(a): 2}, "asking": a},
        {"kind": "charge", "charger": a, "target": b, "stage": "closing", "allowance": 3.5,
         "start": [2.0, 3.0], "jump": True, "spent": 1.0},
        {"kind": "melee", "attacker": a, "defender": b, "jump": False,
         "decl": {str(a): ["punch", "arm_l"], str(b): ["kick", "leg_r"]}, "stage": "declare",
         "ties": 3},
        {"kind": "charges", "entries": [waiting], "fired": [b], "picked": a},
        {"kind": "objective"},
        {"kind": "pefs", "order": [0, 2]},
        {"kind": "pefs", "order": None},
    ]  # fmt: skip


def with_full_frames(d: dict[str, Any]) -> dict[str, Any]:
    """``d`` with :func:`full_frames` under its stack (only the top frame asks the decision)."""
    out = copy.deepcopy(d)
    out["frames"] = full_frames(d) + out["frames"]
    return out


def with_pause(d: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """``d`` paused at a Lucky choice of its first mech's pilot (luck.run_unit's frame)."""
    out = copy.deepcopy(d)
    mech = next(m for m in out["mechs"].values() if m["removed"] is None)
    if "lucky" not in mech["pilot"]["attributes"]:
        mech["pilot"]["attributes"].append("lucky")
    mech["lucky_used"] = False
    pause = {"kind": "pause", "unit": "act",
             "action": {"type": "Stay", "mech": mech["id"], "heading": None},
             "rolls": [[3], [2, 5]],
             "answers": [True, "arm_l"], "stage": "lucky", "mech": mech["id"], "what": "to_hit",
             "faces": [3], "target": None, "choices": [], **extra}  # fmt: skip
    out["frames"] = [f for f in out["frames"] if f["kind"] != "pause"] + [pause]
    out["decision"] = {"side": mech["side"], "kind": "lucky_reroll", "mech": mech["id"]}
    return out


def reference_refusal(d: dict[str, Any]) -> str | None:
    try:
        Battle.from_dict(d)
    except StateError as error:
        return str(getattr(error, "path", None) or str(error).split(":")[0])
    return None


def native_round_trip(label: str, d: dict[str, Any]) -> None:
    native = nnq.battle_from_dict(d)
    diff = same(d["frames"], native.to_dict()["frames"], "frames")
    assert diff is None, f"{label}: {diff}"
    assert same(d["frames"], native.clone().to_dict()["frames"], "frames") is None, label


# -- schema and vocabularies -----------------------------------------------------------------
def test_the_schema_is_validity_parts_one() -> None:
    kinds = kinds_of(STATES[0][1])
    schema = F.schema()
    assert set(kinds) == set(game.HANDLERS) and list(game.HANDLERS) == list(F.values()["kind"])
    for kind, (required, optional) in kinds.items():
        assert set(schema[kind][0]) == {"kind", *required}, kind
        assert set(schema[kind][1]) == set(optional), kind
    for name, check in (
        ("entry", kinds["react"][0]["entries"]),
        ("waiting", kinds["charges"][0]["entries"]),
    ):
        record = cell(check, "check")
        assert set(schema[name][0]) == set(cell(record, "required")), name
        assert set(schema[name][1]) == set(cell(record, "optional")), name


def test_the_vocabularies_are_the_reference_ones() -> None:
    kinds, values = kinds_of(STATES[0][1]), F.values()
    for kind, key in (("turn", "stage"), ("phase", "stage"), ("mech", "stage"),
                      ("insight", "stage"), ("fire", "mode"), ("charge", "stage"),
                      ("melee", "stage"), ("pause", "unit"), ("pause", "stage")):  # fmt: skip
        required, optional = kinds[kind]
        assert values[f"{kind}.{key}"] == cell({**required, **optional}[key], "values"), kind
    assert set(values["pause.what"]) == set(luck.LUCKY_WHAT)
    for enum in (vocab.ReactionTest, vocab.MeleeAttack, ChargeOutcome):
        assert values[enum.__name__] == tuple(m.value for m in enum)
    assert F.MAX_STEPS_PER_CALL == game.MAX_STEPS_PER_CALL


# -- round trips ---------------------------------------------------------------------------------
def test_every_sampled_frame_stack_round_trips() -> None:
    seen: set[str] = set()
    for label, d in STATES:
        native_round_trip(label, d)
        seen.update(f["kind"] for f in d["frames"])
    assert {"turn", "phase", "group", "mech", "fire", "react", "insight", "pefs"} <= seen, seen


def test_frames_with_every_key_round_trip_in_their_own_key_order() -> None:
    for label, d in DECIDING[::7]:
        full = with_full_frames(d)
        assert reference_refusal(full) is None, label
        native_round_trip(label, full)
        paused = with_pause(d, passed=1, shielded_hit=True, lost=False, shielded=["head"])
        assert reference_refusal(paused) is None, label
        native_round_trip(label, paused)
    written = nnq.battle_from_dict(with_full_frames(DECIDING[0][1])).to_dict()["frames"]
    assert list(written[4]) == ["kind", "fired", "moved", "spent", "stage", "mech", "start"]
    assert type(written[4]["spent"]) is int and type(written[4]["start"][1]) is float


# -- hostile documents ---------------------------------------------------------------------------
BAD_VALUES: list[Any] = [
    None,
    True,
    "x",
    1.5,
    -1,
    77,
    10**30,
    [],
    [None],
    {},
    {"1": 1},
    [[["deep"]]],
]
ALLOWED_ONLY_NATIVE = ("never writes here", "written as the engine writes them")
"""Refusals the reference's check_battle lets through (docs/native.md: beyond the reference)."""


def mutations(d: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each key of each synthetic frame deleted or replaced, plus whole-frame damage."""
    full = with_full_frames(d)

    def fresh() -> dict[str, Any]:  # only the frames change: the rest is shared
        return {**full, "frames": copy.deepcopy(full["frames"])}

    for i, frame in enumerate(full["frames"][:14]):
        for key in frame:
            out = fresh()
            del out["frames"][i][key]
            yield f"frames.{i} without {key}", out
            for value in BAD_VALUES:
                out = fresh()
                out["frames"][i][key] = value
                yield f"frames.{i}.{key} = {value!r}", out
            if isinstance(frame[key], dict) and frame[key]:
                for bad_key in ("012", "x", "-0", "999"):
                    out = fresh()
                    inner = out["frames"][i][key]
                    inner[bad_key] = inner.pop(next(iter(inner)))
                    yield f"frames.{i}.{key} key {bad_key}", out
        out = fresh()
        out["frames"][i]["extra"] = 1
        yield f"frames.{i} with an unknown key", out
    for label, frame in (("a list", [1]), ("no kind", {"stage": "done"}), ("kind 3", {"kind": 3}),
                         ("kind dance", {"kind": "dance"}),
                         ("int key", {"kind": "turn", 1: 2})):  # fmt: skip
        out = copy.deepcopy(d)
        out["frames"].insert(0, frame)
        yield f"a frame that is {label}", out


def check_hostile(label: str, doc: dict[str, Any]) -> None:
    expected = reference_refusal(doc)
    try:
        native = nnq.battle_from_dict(doc)
    except NativeStateError as error:
        assert isinstance(error, StateError) and error.path.startswith("battle"), label
        if expected is None:
            assert any(s in str(error) for s in ALLOWED_ONLY_NATIVE), (label, str(error))
        else:
            assert error.path == expected, (label, error.path, expected, str(error))
        return
    assert expected is None, (label, "native accepts what the reference refuses at", expected)
    assert same(doc["frames"], native.to_dict()["frames"]) is None, label


def test_hostile_frames_are_refused_at_the_reference_path() -> None:
    count = 0
    for _label, d in DECIDING[:: max(1, len(DECIDING) // HOSTILE_STATES)]:
        for label, doc in mutations(d):
            check_hostile(label, doc)
            count += 1
    assert count > 1000


def test_hostile_pause_frames_are_refused_at_the_reference_path() -> None:
    d = DECIDING[0][1]
    cases = [("faces", [1] * 64), ("faces", [1] * 65), ("faces", [7]), ("rolls", [[1]] * 4097),
             ("rolls", [[1] * 65]), ("answers", [True] * 65), ("answers", ["nose"]),
             ("choices", ["head"] * 3),
             ("shielded", ["head"] * 3), ("passed", 3), ("what", "luck"), ("stage", "marksman"),
             ("unit", "walk"), ("action", "Stay"), ("action", {"mech": 0}), ("target", 999),
             ("mech", 999)]  # fmt: skip
    for key, value in cases:
        check_hostile(f"pause {key}", with_pause(d, **{key: value}))
    deep: Any = [0]
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(NativeStateError):
        nnq.battle_from_dict(with_pause(d, action={"type": "Stay", "x": deep}))
    not_top = with_pause(d)
    not_top["frames"].insert(0, not_top["frames"].pop())
    check_hostile("a pause under another frame", not_top)


def test_huge_lists_are_read_or_refused_without_harm() -> None:
    d = with_full_frames(DECIDING[0][1])
    d["frames"][1]["done"] = [0] * (validity_parts.MAX_COUNT + 1)
    check_hostile("a phase's done past MAX_COUNT", d)
    d["frames"] = [{"kind": "objective"}] * 100_000
    check_hostile("100,000 frames", d)


def test_keys_the_reference_reads_with_int_are_refused_as_state_errors() -> None:
    # validity_parts.key_of lets "--1" through to int(), which raises a bare ValueError there
    d = with_full_frames(DECIDING[0][1])
    d["frames"][7]["free_will"] = {"--1": 1}
    with pytest.raises(NativeStateError) as info:
        nnq.battle_from_dict(d)
    assert info.value.path == "battle.frames.7.free_will.--1"


def test_the_pending_decision_must_be_the_top_frame_s() -> None:
    for label, d in DECIDING[::25]:
        for kind in DecisionKind:
            doc = copy.deepcopy(d)
            doc["decision"]["kind"] = kind.value
            check_hostile(f"{label} asking {kind.value}", doc)
        doc = copy.deepcopy(d)
        others = [int(k) for k in doc["mechs"] if int(k) != doc["decision"]["mech"]]
        doc["decision"]["mech"] = others[0] if doc["decision"]["mech"] is not None else None
        check_hostile(f"{label} about another mech", doc)


# -- the flow skeleton ---------------------------------------------------------------------------
def test_the_frame_constructors_are_the_reference_ones() -> None:
    cases: list[tuple[Callable[..., Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = [
        (F.mech_frame, flow_mech.mech_frame, (3,), {}),
        (
            F.insight_frame,
            lambda m, s, g: flow.insight_frame(m, vocab.Side(s), g),
            (2, "red", [4, 1]),
            {},
        ),
        (
            F.fire_frame,
            flow_fire.fire_frame,
            (1, "in_sight"),
            {"targets": [2], "cause": None, "rush": True},
        ),
        (F.fire_frame, flow_fire.fire_frame, (1, "reaction"), {"cause": 5}),
        (F.charge_frame, flow_melee.charge_frame, (1, 2), {}),
        (F.charge_frame, flow_melee.charge_frame, (1, 2), {"allowance": 3.25, "start": (0.5, 7.0)}),
        (F.melee_frame, flow_melee.melee_frame, (1, 2), {"jump_attack": True}),
    ]
    for native, reference, args, kwargs in cases:
        assert same(reference(*args, **kwargs), native(*args, **kwargs)) is None, reference
    assert same(F.turn_frame(), {"kind": "turn"}) is None
    assert same(F.phase_frame("red"), {"kind": "phase", "side": "red", "stage": "start"}) is None
    group = {"kind": "group", "side": "blue", "members": [1, 2], "acted": []}
    assert same(F.group_frame("blue", [1, 2]), group) is None


def test_nearest_frame_ask_and_watching_agree() -> None:
    for label, d in [*STATES[::5], *((lbl, with_full_frames(x)) for lbl, x in DECIDING[::30])]:
        battle, native = Battle.from_dict(d), nnq.battle_from_dict(d)
        for kind in game.HANDLERS:
            found = flow.nearest_frame(battle, kind)
            expected = (
                None
                if found is None
                else next(i for i, f in enumerate(battle.frames) if f is found)
            )
            assert F.nearest_frame(native, kind) == expected, (label, kind)
        assert F.watching(native) == luck.watching(battle), label
        if battle.mechs:
            mech = next(iter(battle.mechs))
            flow.Ctx(battle, ScriptedDice([]), load_rules()).ask(
                vocab.Side.RED, DecisionKind.FACE, mech
            )
            F.ask(native, "red", "face", mech)
            assert same(battle.to_dict(), native.to_dict()) is None, label


def test_queue_tests_and_caused_by_agree() -> None:
    for label, d in [*STATES[::4], *((lbl, with_full_frames(x)) for lbl, x in DECIDING[::30])]:
        ids = [int(k) for k in d["mechs"]]
        entries = [{"mech": ids[0], "test": "mech_down", "causes": ids[-1:]},
                   {"mech": ids[-1], "test": "fired_on", "causes": []}]  # fmt: skip
        battle, native = Battle.from_dict(d), nnq.battle_from_dict(d)
        consequences.queue_tests(
            flow.Ctx(battle, ScriptedDice([]), load_rules()), copy.deepcopy(entries)
        )
        F.queue_tests(native, entries)
        assert same(battle.to_dict()["frames"], native.to_dict()["frames"]) is None, label
        marked = consequences.caused_by(copy.deepcopy(entries), [ids[0]])
        assert same(marked, F.caused_by(entries, [ids[0]])) is None
        pre = [{"mech": 1, "enemies": [], "test": "mech_down", "causes": []}]
        assert same(consequences.caused_by(copy.deepcopy(pre), [3]), F.caused_by(pre, [3])) is None


def test_pop_checks_the_frame_like_the_reference() -> None:
    d = DECIDING[0][1]
    native, battle = nnq.battle_from_dict(d), Battle.from_dict(d)
    ctx = flow.Ctx(battle, ScriptedDice([]), load_rules())
    lower, upper = flow_mech.mech_frame(1), flow_fire.fire_frame(1, "active")
    ctx.push(lower)
    ctx.push(upper)
    low, _up = F.push(native, lower), F.push(native, upper)
    with pytest.raises(RuntimeError) as ref_error:
        ctx.pop(lower)
    with pytest.raises(RuntimeError) as native_error:
        F.pop(native, low)
    assert str(native_error.value) == str(ref_error.value)
    assert same(battle.to_dict(), native.to_dict()) is None  # the top went either way
    assert same(F.pop(native, F.top(native)), ctx.battle.frames[-1]) is None
    with pytest.raises(
        RuntimeError, match="frame stack corrupted: popped .*, not a finished frame"
    ):
        F.pop(native, low)
    empty = nnq.battle_from_dict({**d, "frames": [], "decision": None}, check=False)
    with pytest.raises(IndexError):
        F.pop(empty, (0, 1))


def test_advance_returns_where_the_reference_does_and_names_what_is_missing() -> None:
    for label, d in STATES[::6]:
        native, battle = nnq.battle_from_dict(d), Battle.from_dict(d)
        needs_rules = d["decision"] is None and not d["over"]
        if needs_rules:
            with pytest.raises(NotImplementedError, match="not ported to the native core yet"):
                F.advance(native)
            assert same(d, native.to_dict()) is None, label  # unchanged
            continue
        assert game.advance(battle, ScriptedDice([])) == [] and F.advance(native) == 0
        assert same(battle.to_dict(), native.to_dict()) is None, label
    fresh = {
        **STATES[0][1],
        "turn": 0,
        "frames": [],
        "decision": None,
        "dice": {},
        "first_side": None,
    }
    native = nnq.battle_from_dict(fresh, check=False)
    with pytest.raises(NotImplementedError, match=r"flow_turn.TURN|luck.run_unit"):
        F.advance(native)
    assert same(fresh, native.to_dict()) is None  # the turn frame it pushed is gone again


def test_a_clone_s_frames_are_independent() -> None:
    d = with_full_frames(DECIDING[3][1])
    native = nnq.battle_from_dict(d)
    twin = native.clone()
    assert all(F.frame_shared(native, i) for i in range(len(d["frames"])))
    react = F.nearest_frame(twin, "react")
    F.push(twin, {"kind": "react", "entries": []})  # queue_tests extends the top react frame
    F.queue_tests(twin, [{"mech": int(list(d["mechs"])[0]), "test": "fired_on", "causes": []}])
    F.ask(twin, "blue", "free_move", None)
    assert same(d, native.to_dict()) is None
    assert len(twin.to_dict()["frames"]) == len(d["frames"]) + 1
    assert F.frame_shared(native, react) and not F.frame_shared(twin, len(d["frames"]))


# -- bad arguments -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "error", "name"),
    [
        (lambda b: F.push(b, {"kind": "turn", "stage": "begin"}), NativeStateError, "frame.stage"),
        (lambda b: F.push(None, {"kind": "turn"}), TypeError, "battle"),
        (lambda b: F.pop(b, (0,)), TypeError, "frame"),
        (lambda b: F.pop(b, (-1, 0)), ValueError, "frame[0]"),
        (lambda b: F.nearest_frame(b, "dance"), ValueError, "kind"),
        (lambda b: F.nearest_frame(b, 3), TypeError, "kind"),
        (lambda b: F.ask(b, "green", "face"), ValueError, "side"),
        (lambda b: F.ask(b, "red", "face", "1"), TypeError, "mech"),
        (
            lambda b: F.queue_tests(b, [{"mech": 1, "test": "dance", "causes": []}]),
            NativeStateError,
            "entries.0.test",
        ),
        (lambda b: F.queue_tests(b, {}), NativeStateError, "entries"),
        (lambda b: F.caused_by([], [1.5]), TypeError, "enemies[0]"),
        (lambda b: F.frame_shared(b, 10**6), ValueError, "index"),
        (lambda b: F.insight_frame(1, "blue", None), TypeError, "enemy_groups"),
        (lambda b: F.fire_frame(1, "aimed"), ValueError, "mode"),
        (lambda b: F.charge_frame(1, 2, float("nan")), ValueError, "allowance"),
        (lambda b: F.melee_frame(1, 2, 1), TypeError, "jump_attack"),
        (lambda b: F.advance(3), TypeError, "battle"),
    ],
)
def test_bad_arguments_raise_errors_naming_them(call: Any, error: type, name: str) -> None:
    battle = nnq.battle_from_dict(DECIDING[0][1])
    before = battle.to_dict()
    with pytest.raises(error) as info:
        call(battle)
    assert (
        getattr(info.value, "argument", None) == name or getattr(info.value, "path", None) == name
    )
    assert same(before, battle.to_dict()) is None
