"""The native TURN, PHASE and GROUP handlers agree with the reference, unit by unit.

Every recorded ``turn``, ``phase``, ``group`` and ``eliminated`` unit (tests/native/_units.py)
of skirmishes over every BattleOptions choice runs natively from its ``before`` document with
its d6 faces: the events, the document after and the faces consumed must be the reference's.
The legal options at every activate_group / choose_mech / lead_teams / split_group decision of
those games must be the reference's, in order, a Leaving mech's move at a phase start included.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.native import _core
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter.game import core, game_tables, legal_actions
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import DecisionKind, action_from_dict, action_to_dict
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces import vocab
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Side

sys.path.insert(0, str(Path(__file__).parent))
from _units import Game, Unit, check_unit, option_variants, record_units  # noqa: E402

KINDS = {"turn", "phase", "group", "eliminated"}
DECISIONS_PER_GAME = int(os.environ.get("WARGYM_FLOW_TURN_DECISIONS", "14"))
"""Decisions played per skirmish (a longer sweep for the lead: WARGYM_FLOW_TURN_DECISIONS=200)."""
DECISIONS = {
    DecisionKind.ACTIVATE_GROUP, DecisionKind.CHOOSE_MECH, DecisionKind.LEAD_TEAMS,
    DecisionKind.SPLIT_GROUP,
}  # fmt: skip


def _games(seed: int, decisions: int) -> list[Game]:
    """One skirmish per option variant: 2-5 mechs a side, stars, every faction."""
    variants, factions = option_variants(), list(vocab.Faction)
    out = []
    for g, options in enumerate(variants):
        per_side = 2 + g % 4
        rng = np.random.default_rng(seed + g)
        dice = RandomDice.from_seed(seed + g)
        battle = new_skirmish(
            rng, dice, blue=factions[g % len(factions)], red=factions[(g * 5 + 1) % len(factions)],
            mechs_per_side=per_side, stars=g % (per_side + 1), options=options,
        )  # fmt: skip
        out.append(Game(f"skirmish {g} (seed {seed + g})", battle, dice, rng, decisions))
    return out


_TABLES: dict[str, Any] = {}


def _tables(unit: Unit) -> Any:
    """The unit's GameTables: its rules and battlefield now (a building destroyed changes it)."""
    key = json.dumps([unit.before["options"]["rules"], unit.before["battlefield"]], sort_keys=True)
    if key not in _TABLES:
        _TABLES[key] = game_tables(Battle.from_dict(unit.before, check=False))
    return _TABLES[key]


def _leaving_mover(unit: Unit) -> bool:
    """A phase start whose side has a Leaving mech able to move (consequences.leave_move)."""
    if unit.kind != "phase" or unit.before["frames"][-1]["stage"] != "start":
        return False
    frame = unit.before["frames"][-1]
    return any(
        m["side"] == frame["side"] and m["removed"] is None and m["speed"] > 0
        and m["status"] == vocab.Status.LEAVE_BATTLEFIELD.value
        for m in unit.before["mechs"].values()
    )  # fmt: skip


def run_native(unit: Unit) -> tuple[dict[str, Any], list[dict[str, Any]], int, Any]:
    battle = battle_from_dict(unit.before, check=False)
    dice = _core.ScriptedDice(list(unit.faces))
    result = None
    if unit.kind == "eliminated":
        result, events = core.eliminated(battle, _tables(unit), dice, True)
    else:
        action = None if unit.action is None else action_from_dict(unit.action)
        events = core.act(battle, _tables(unit), action, dice, True)
    return battle.to_dict(), [e.to_dict() for e in events], len(dice.used), result


@pytest.fixture(scope="module")
def units() -> dict[str, list[Unit]]:
    games = _games(seed=40, decisions=DECISIONS_PER_GAME)
    return record_units(games, kinds=KINDS, per_kind=100_000)


def test_every_turn_phase_group_unit_agrees(units: dict[str, list[Unit]]) -> None:
    checked: dict[str, int] = {}
    stages, actions, leaving = set(), set(), 0
    for kind in sorted(KINDS):
        for unit in units[kind]:
            leaving += _leaving_mover(unit)  # a Leaving mech moves (consequences.leave_move)
            assert check_unit(unit, run_native) is None
            checked[kind] = checked.get(kind, 0) + 1
            frame = unit.before["frames"][-1] if unit.before["frames"] else {}
            if kind == "phase":
                stages.add(frame["stage"])
            if unit.action is not None:
                actions.add(unit.action["type"])
    assert set(checked) == KINDS, checked
    assert stages == {"start", "lead", "split", "choose"}, stages
    assert {"ActivateGroup", "SkipGroup", "ChooseMech", "LeadTeam", "LeadDone", "SplitOff",
            "KeepGroups"} <= actions, actions  # fmt: skip


def test_every_option_variant_is_played(units: dict[str, list[Unit]]) -> None:
    seen = {
        (u.before["options"]["command_groups"], u.before["options"]["group_splits"])
        for u in units["phase"]
    }
    assert {("choose", "choose"), ("teams", "choose"), ("command_radius", "choose"),
            ("choose", "off")} <= seen, seen  # fmt: skip


def test_legal_options_agree_at_every_turn_decision() -> None:
    counts: dict[DecisionKind, int] = {}
    for g in _games(seed=70, decisions=max(25, DECISIONS_PER_GAME)):
        battle, tables = g.battle, None
        for _ in range(g.max_decisions):
            if battle.over:
                break
            legal = game.legal_actions(battle)
            decision = battle.decision
            assert decision is not None
            if battle.frames[-1]["kind"] in ("phase", "group"):
                tables = tables or game_tables(battle)
                native = legal_actions(battle_from_dict(battle.to_dict()), tables)
                assert [action_to_dict(a) for a in native] == [action_to_dict(a) for a in legal]
                assert decision.kind in DECISIONS
                counts[decision.kind] = counts.get(decision.kind, 0) + 1
            game.play(battle, legal[int(g.rng.integers(len(legal)))], g.dice)
    assert set(counts) == DECISIONS, counts


def test_a_wrong_native_unit_is_caught(units: dict[str, list[Unit]]) -> None:
    unit = next(u for u in units["turn"] if u.faces)

    def wrong_face(u: Unit) -> tuple[dict[str, Any], list[dict[str, Any]], int, Any]:
        faces = [7 - f for f in u.faces]  # other dice: other activation
        return run_native(dataclasses.replace(u, faces=tuple(faces)))

    assert check_unit(unit, wrong_face) is not None


def test_an_edited_activation_table_changes_both_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    """activation.yaml's modifiers reach both engines (the reference's _activation_rep reads
    ``load_rules()``, the default rule set, whatever the battle's rules: patched here)."""
    from wargym.rules.no_quarter.battle import flow_turn
    from wargym.rules.no_quarter.forces import data

    rules = data.load_rules()
    changed = 0
    for g in _games(seed=90, decisions=30)[:6]:
        battle = g.battle
        for _ in range(g.max_decisions):
            if battle.over:
                break
            legal = game.legal_actions(battle)
            assert battle.decision is not None
            if battle.decision.kind is DecisionKind.ACTIVATE_GROUP:
                for bonus in (-3, 3):
                    edited = dataclasses.replace(
                        rules, activation=dataclasses.replace(
                            rules.activation,
                            attribute_rep={a: bonus for a in vocab.Attribute}),
                    )  # fmt: skip
                    with monkeypatch.context() as patch:
                        patch.setattr(data, "load_rules", lambda *a, edited=edited, **k: edited)
                        ref = flow_turn.phase_options(battle, edited, battle.frames[-1])
                    tables = game_tables(battle, edited)
                    assert legal_actions(battle_from_dict(battle.to_dict()), tables) == ref
                    changed += ref != legal
            game.play(battle, legal[int(g.rng.integers(len(legal)))], g.dice)
    assert changed


def _replay_in_reference(unit: Unit) -> tuple[dict[str, Any], list[dict[str, Any]], int, Any]:
    from wargym.rules.dice import ScriptedDice
    from wargym.rules.no_quarter.battle.flow import Ctx

    battle = Battle.from_dict(unit.before, check=False)
    dice = ScriptedDice(list(unit.faces))
    ctx = Ctx(battle, dice, game.rules_of(battle))
    game._act(ctx, battle.frames[-1], None)
    return battle.to_dict(), [e.to_dict() for e in ctx.log], len(dice.used), None


def test_a_leaving_mech_at_a_phase_start(units: dict[str, list[Unit]]) -> None:
    """A Leaving mech stands up first (D25), then moves to its edge (consequences.leave_move)."""
    unit = next(u for u in units["phase"] if u.before["frames"][-1]["stage"] == "start")
    side = unit.before["frames"][-1]["side"]
    mech = next(k for k, m in unit.before["mechs"].items() if m["side"] == side)
    before = {**unit.before, "mechs": dict(unit.before["mechs"])}
    before["mechs"][mech] = {**before["mechs"][mech], "status": "leave_battlefield", "prone": True}
    moving = dataclasses.replace(unit, before=before)
    assert _leaving_mover(moving)
    after, events, used, _ = _replay_in_reference(moving)
    assert any(e["type"] == "MechMoved" for e in events)
    faces = tuple(unit.faces[:used])
    leaving = Unit(unit.label, "phase", None, before, faces, tuple(events), after)
    assert check_unit(leaving, run_native) is None
    still = {**before, "mechs": dict(before["mechs"])}
    still["mechs"][mech] = {**still["mechs"][mech], "speed": 0}  # cannot move: it only stands
    after, events, used, _ = _replay_in_reference(dataclasses.replace(unit, before=still))
    standing = Unit(unit.label, "phase", None, still, unit.faces, tuple(events), after)
    assert any(e["type"] == "StoodUp" for e in events)
    assert check_unit(standing, run_native) is None


def _engaged_positions(
    doc: dict[str, Any], ready: list[int], enemy: int, spread: int
) -> dict[str, Any]:
    """The document with ``ready`` mechs around ``enemy`` in base contact (they share a foe)."""
    mechs = {k: dict(m) for k, m in doc["mechs"].items()}
    radius = doc["options"]["base_radius"]
    ex, ey = 18.0, 18.0
    mechs[str(enemy)]["pos"] = [ex, ey]
    offsets = [(2 * radius, 0.0), (-2 * radius, 0.0), (0.0, 2 * radius), (0.0, -2 * radius)]
    for i, mech in enumerate(ready[: 1 + spread]):
        dx, dy = offsets[i % 4]
        mechs[str(mech)]["pos"] = [ex + dx, ey + dy]
    return {**doc, "mechs": mechs}


def test_group_options_agree_when_mechs_share_an_enemy() -> None:
    """§18.3.4: of mechs engaged with one enemy the bigger attacks first; Stars choose."""
    checked = restricted = 0
    for g in _games(seed=120, decisions=20)[:16]:
        battle = g.battle
        for _ in range(g.max_decisions):
            if battle.over:
                break
            legal = game.legal_actions(battle)
            frame = battle.frames[-1]
            if frame["kind"] == "group" and len(legal) >= 2:
                ready = [a.mech for a in legal]  # type: ignore[attr-defined]
                enemy = next(m.id for m in battle.mechs_of(Side(frame["side"]).other))
                for spread in (1, 2, 3):
                    doc = _engaged_positions(battle.to_dict(), ready, enemy, spread)
                    ref_battle = Battle.from_dict(doc, check=False)
                    ref = game.legal_actions(ref_battle)
                    mine = legal_actions(
                        battle_from_dict(doc, check=False), game_tables(ref_battle)
                    )
                    assert mine == ref
                    checked += 1
                    restricted += len(ref) < len(ready)
            game.play(battle, legal[int(g.rng.integers(len(legal)))], g.dice)
    assert checked and restricted, (checked, restricted)
