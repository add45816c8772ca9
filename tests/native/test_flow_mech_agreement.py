"""The native MECH and INSIGHT handlers against the reference, unit by unit (flow_mech, flow_move).

Every recorded mech and insight unit of real skirmishes (every option variant of
``_units.option_variants``) and of the shipped missions runs natively from its ``before``
document with the reference's d6 faces; events, the document after and the faces consumed
must agree (``_units.check_unit``). The legal options of every mech and insight decision are
compared in order too. Units that reach a procedure not ported yet (``NotPorted``: a mission's
exits, PEFs, waiting charges, a building attack) are counted and must stay a minority.

A longer sweep: WARGYM_FLOW_MECH_GAMES=63 WARGYM_FLOW_MECH_UNITS=40 WARGYM_FLOW_MECH_DECISIONS=60
(about a minute; passes).
"""

from __future__ import annotations

import contextlib
import copy
import math
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter.flow_mech import core, rules_tables, success_face
from wargym.rules.dice import RandomDice, successes
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import Move, action_from_dict, action_to_dict
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.state import Battle

sys.path.insert(0, str(Path(__file__).parent))
from _units import (  # noqa: E402
    Unit,
    _CountingDice,
    check_unit,
    mission_games,
    option_variants,
    record_units,
    skirmish_games,
)

KINDS = {"mech", "insight"}
VARIANTS = len(option_variants())
GAMES = int(os.environ.get("WARGYM_FLOW_MECH_GAMES", str(VARIANTS)))
"""Skirmishes played: one per option variant (``skirmish_games`` cycles them), more for a sweep."""
PER_GAME = int(os.environ.get("WARGYM_FLOW_MECH_UNITS", "14"))
"""Units of each kind recorded per game."""
DECISIONS = int(os.environ.get("WARGYM_FLOW_MECH_DECISIONS", "30"))
"""Decisions played per game for the options comparison."""

_tables: dict[str, Any] = {}


def _tables_for(before: dict[str, Any]) -> Any:
    """RulesTables per battlefield and rule set (the reference's battle of ``before``)."""
    key = repr((before["battlefield"], before["options"]))
    found = _tables.get(key)
    if found is None:
        battle = Battle.from_dict(before, check=False)
        found = rules_tables(battle.battlefield, game.rules_of(battle))
        _tables[key] = found
    return found


def _run_native(unit: Unit) -> tuple[dict[str, Any], list[dict[str, Any]], int, Any]:
    native = battle_from_dict(unit.before, check=False)
    events, used = core.run_unit(native, _tables_for(unit.before), list(unit.faces), unit.action)
    return native.to_dict(), [e.to_dict() for e in events], used, None


@contextlib.contextmanager
def _few_moves() -> Iterator[None]:
    """Random play that offers at most two moves a decision: stays, turns, Active Fire first,
    charges and fights get chosen far more often than among dozens of moves."""
    real = game.legal_actions

    def thinned(battle: Battle) -> list[Any]:
        legal = real(battle)
        moves = [a for a in legal if isinstance(a, Move)]
        return (
            [a for a in legal if not isinstance(a, Move)] + moves[:2] if len(moves) > 2 else legal
        )

    game.legal_actions = thinned  # type: ignore[assignment]
    try:
        yield
    finally:
        game.legal_actions = real  # type: ignore[assignment]


@pytest.fixture(scope="module")
def units() -> dict[str, list[Unit]]:
    found: dict[str, list[Unit]] = {kind: [] for kind in KINDS}
    games = [*skirmish_games(GAMES, seed=11), *mission_games(seed=2, decisions=40)]
    for g in games:  # a few units of every game: every option variant is covered
        for kind, extra in record_units([g], kinds=KINDS, per_kind=PER_GAME).items():
            found[kind].extend(extra)
    with _few_moves():
        for g in skirmish_games(GAMES, seed=31):
            for kind, extra in record_units([g], kinds=KINDS, per_kind=PER_GAME).items():
                found[kind].extend(extra)
    return found


def test_every_option_kind_is_covered(units: dict[str, list[Unit]]) -> None:
    acted = {(u.kind, u.action["type"]) for kind in KINDS for u in units[kind] if u.action}
    want = {("mech", t) for t in ("Move", "Stay", "Face", "FireFirst", "Charge")}
    assert want | {("insight", "FreeMove"), ("insight", "ChooseMech")} <= acted, acted


def _agree(units: list[Unit]) -> tuple[int, int, list[str]]:
    ok, skipped, wrong = 0, 0, []
    for unit in units:
        try:
            problem = check_unit(unit, _run_native)
        except Exception as e:  # a procedure not ported yet is counted, anything else fails
            if "not ported" not in str(e):
                raise
            skipped += 1
            continue
        if problem is None:
            ok += 1
        else:
            wrong.append(problem)
    return ok, skipped, wrong


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_units_agree(units: dict[str, list[Unit]], kind: str) -> None:
    ok, skipped, wrong = _agree(units[kind])
    assert not wrong, f"{len(wrong)} of {len(units[kind])} {kind} units differ; first: {wrong[0]}"
    assert ok > 0 and skipped < ok, (ok, skipped)


def _decisions() -> list[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
    """(label, document, reference options) at mech and insight decisions of real games."""
    out = []
    for seed, thin in ((5, False), (41, True)):
        for g in skirmish_games(GAMES, seed=seed):
            with _few_moves() if thin else contextlib.nullcontext():
                out.extend(_decisions_of(g))
    return out


def _decisions_of(g: Any) -> list[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
    out = []
    battle = g.battle
    for step in range(DECISIONS):
        if battle.over:
            break
        legal = game.legal_actions(battle)
        frame = battle.frames[-1]
        if frame["kind"] in KINDS:
            raw = game.HANDLERS[frame["kind"]].options(battle, game.rules_of(battle), frame)
            out.append(
                (f"{g.label} decision {step}", battle.to_dict(), [action_to_dict(a) for a in raw])
            )
        game.play(battle, legal[int(g.rng.integers(len(legal)))], g.dice)
    return out


def test_options_agree() -> None:
    checked = skipped = 0
    kinds: set[str] = set()
    for label, doc, ref in _decisions():
        native = battle_from_dict(doc, check=False)
        try:
            mine = core.options(native, _tables_for(doc))
        except Exception as e:
            if "not ported" not in str(e):
                raise
            skipped += 1
            continue
        assert mine == ref, f"{label}: {doc['decision']}: {mine[:4]} ... vs {ref[:4]} ..."
        kinds.add(doc["decision"]["kind"])
        checked += 1
    assert checked > 50 and skipped < checked, (checked, skipped)
    assert {"mech_action", "face", "continue_move", "free_move"} <= kinds, kinds


def test_tables_from_the_reference() -> None:
    assert successes((success_face(),)) == 1 and successes((success_face() + 1,)) == 0


def test_a_table_edit_changes_the_native_answer(units: dict[str, list[Unit]]) -> None:
    """A wrong In Sight step (the check every 1") must make some insight-starting unit differ."""
    movers = [u for u in units["mech"] if u.action and u.action.get("type") == "Move"]
    differ = 0
    for unit in movers[:200]:
        battle = Battle.from_dict(unit.before, check=False)
        wrong = rules_tables(battle.battlefield, game.rules_of(battle), in_sight_step=0.25)
        native = battle_from_dict(unit.before, check=False)
        try:
            events, _ = core.run_unit(native, wrong, list(unit.faces) + [1] * 40, unit.action)
        except Exception:
            differ += 1
            continue
        if [e.to_dict() for e in events] != list(unit.events) or native.to_dict() != unit.after:
            differ += 1
    assert differ > 0


def test_bad_input(units: dict[str, list[Unit]]) -> None:
    from wargym.native.errors import NativeArgumentError, NativeTypeError

    unit = units["mech"][0]
    native = battle_from_dict(unit.before, check=False)
    tables = _tables_for(unit.before)
    with pytest.raises(NativeTypeError, match="battle"):
        core.run_unit(None, tables, [], None)
    with pytest.raises(NativeTypeError, match="tables"):
        core.run_unit(native, "tables", [], None)
    with pytest.raises(NativeTypeError, match="faces"):
        core.run_unit(native, tables, "123", None)
    with pytest.raises(NativeArgumentError, match="faces"):
        core.run_unit(native, tables, [7], None)
    with pytest.raises(NativeTypeError, match="faces"):
        core.run_unit(native, tables, [1.5], None)
    with pytest.raises(NativeArgumentError, match="action"):
        core.run_unit(native, tables, [], {"type": "NoSuchAction"})
    with pytest.raises(NativeTypeError, match="battle"):
        core.options(1, tables)
    with pytest.raises(NativeTypeError, match="tables"):
        core.options(native, None)
    turn = battle_from_dict({**unit.before, "frames": [{"kind": "turn"}]}, check=False)
    with pytest.raises(NativeArgumentError, match="battle"):
        core.options(turn, tables)
    good = Battle.from_dict(unit.before, check=False)
    with pytest.raises(NativeTypeError, match="combat"):
        rules_tables(good.battlefield, game.rules_of(good), combat=None)
    with pytest.raises(NativeArgumentError, match="in_sight_step"):
        rules_tables(good.battlefield, game.rules_of(good), in_sight_step=0.0)
    with pytest.raises(NativeTypeError, match="max_attackers_per_target"):
        rules_tables(good.battlefield, game.rules_of(good), max_attackers_per_target=2.5)


def _reference_unit(label: str, doc: dict[str, Any], action: dict[str, Any] | None) -> Unit:
    """Run one unit in the reference from ``doc`` (random dice, every face kept)."""
    battle = Battle.from_dict(doc, check=False)
    dice = _CountingDice(RandomDice.from_seed(len(label)))
    ctx = Ctx(battle, dice, game.rules_of(battle))  # type: ignore[arg-type]
    game._act(ctx, battle.frames[-1], None if action is None else action_from_dict(action))
    events = tuple(e.to_dict() for e in ctx.log)
    return Unit(
        label, doc["frames"][-1]["kind"], action, doc, tuple(dice.used), events, battle.to_dict()
    )


def test_an_engaged_mech_chooses_whom_to_fight(units: dict[str, list[Unit]]) -> None:
    """Set positions: two enemies in base contact at the activation's start (ruling D33)."""
    checked = 0
    for unit in units["mech"]:
        frame = unit.before["frames"][-1]
        mechs = [m for m in unit.before["mechs"].values() if m["removed"] is None]
        if frame["stage"] != "begin" or checked >= 6:
            continue
        me = next(m for m in mechs if m["id"] == frame["mech"])
        foes = [m for m in mechs if m["side"] != me["side"]][:2]
        if len(foes) < 2 or me["prone"] or me["status"] != "carry_on":
            continue
        doc = copy.deepcopy(unit.before)
        gap = 2 * doc["options"]["base_radius"]
        moved = [m for m in doc["mechs"].values() if m["id"] in {f["id"] for f in foes}]
        for m, dx in zip(moved, (gap, -gap), strict=True):
            m["pos"] = [me["pos"][0] + dx, me["pos"][1]]
        step = _reference_unit(f"{unit.label} engaged", doc, None)
        assert step.after["decision"]["kind"] == "melee_target", step.after["decision"]
        assert check_unit(step, _run_native) is None
        native = battle_from_dict(step.after, check=False)
        ref = Battle.from_dict(step.after, check=False)
        options = game.HANDLERS["mech"].options(ref, game.rules_of(ref), ref.frames[-1])
        assert core.options(native, _tables_for(step.after)) == [action_to_dict(a) for a in options]
        fight = {**step.after, "decision": None}
        act = _reference_unit(f"{unit.label} fights", fight, action_to_dict(options[-1]))
        assert check_unit(act, _run_native) is None
        checked += 1
    assert checked > 0


def test_an_in_sight_winner_chooses_whom_to_charge(units: dict[str, list[Unit]]) -> None:
    """Set positions: a winner that spent its fire (``in_sight_spent_fire="priority"``) with two
    enemies 3" ahead charges one of them, its owner's choice (§16.1.4, D6)."""
    checked = 0
    for unit in units["insight"]:
        frame = unit.before["frames"][-1]
        if frame["stage"] != "free" or checked >= 4:
            continue
        doc = copy.deepcopy(unit.before)
        me = doc["mechs"][str(frame["mover"])]
        foes = [
            m for m in doc["mechs"].values() if m["side"] != me["side"] and m["removed"] is None
        ]
        if len(foes) < 2 or me["prone"] or me["status"] != "carry_on" or me["speed"] <= 0:
            continue
        for m, turn in zip(foes[:2], (-10.0, 10.0), strict=True):
            angle = math.radians(me["heading"] + me["twist"] + turn)
            m["pos"] = [me["pos"][0] + 3.0 * math.cos(angle), me["pos"][1] + 3.0 * math.sin(angle)]
        me["fired_this_activation"] = True
        doc["active_side"] = me["side"]
        doc["options"]["in_sight_spent_fire"] = "priority"
        frame = doc["frames"][-1]
        frame.update(
            stage="act", winners=[me["id"]], opponents={str(me["id"]): [f["id"] for f in foes[:2]]}
        )
        try:
            step = _reference_unit(f"{unit.label} charges", doc, None)
        except Exception:
            continue  # the reference refuses the set position (off the table, in a building)
        decision = step.after["decision"]
        if decision is None or decision["kind"] != "charge_target":
            continue
        assert check_unit(step, _run_native) is None
        native = battle_from_dict(step.after, check=False)
        ref = Battle.from_dict(step.after, check=False)
        options = game.HANDLERS["insight"].options(ref, game.rules_of(ref), ref.frames[-1])
        assert core.options(native, _tables_for(step.after)) == [action_to_dict(a) for a in options]
        act = _reference_unit(
            f"{unit.label} charged", {**step.after, "decision": None}, action_to_dict(options[-1])
        )
        assert check_unit(act, _run_native) is None
        checked += 1
    assert checked > 0
