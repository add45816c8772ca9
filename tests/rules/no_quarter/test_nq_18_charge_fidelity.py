"""Charges, melee and movement as the digest rules them (issue 15, §6.2, §10.6.1, §18, D5, D19, D25).

Hand-built battles on an open table, driven through ``game.play`` with scripted dice.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.rules.dice import FallbackDice, RandomDice
from wargym.rules.events import Event
from wargym.rules.no_quarter import events as ev
from wargym.rules.no_quarter import game
from wargym.rules.no_quarter.actions import Charge, DecisionKind, FreeMove, Move
from wargym.rules.no_quarter.data import NoQuarterRules, load_rules
from wargym.rules.no_quarter.flow import Ctx
from wargym.rules.no_quarter.flow_fire import fire_frame, resolve_firing
from wargym.rules.no_quarter.flow_move import insight_options
from wargym.rules.no_quarter.geometry import distance
from wargym.rules.no_quarter.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.state import Battle
from wargym.rules.no_quarter.terrain import Battlefield, Feature
from wargym.rules.no_quarter.vocab import Faction, Side, Status, Terrain


def _battle(n_blue: int = 1, n_red: int = 1, features: tuple[Feature, ...] = ()) -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",) * n_blue, use_attributes=False),
        ForceSpec(Side.RED, Faction.ZHUH_ZHUH, ("zhuh_zhuh_c3",) * n_red, use_attributes=False),
    ]
    battle = new_battle(
        forces, Battlefield(features=features), np.random.default_rng(0), RandomDice.from_seed(0)
    )
    for mech in battle.mechs.values():
        mech.rep = 5
        mech.pilot = dataclasses.replace(mech.pilot, rep=5)
    return battle


def _place(battle: Battle, mech: int, pos: tuple[float, float], heading: float) -> None:
    battle.mechs[mech].pos, battle.mechs[mech].heading = pos, heading


def _to_mech_action(battle: Battle, dice: FallbackDice) -> None:
    game.advance(battle, dice)
    while battle.decision is not None and battle.decision.kind is not DecisionKind.MECH_ACTION:
        game.play(battle, game.legal_actions(battle)[0], dice)


def _dice(*faces: int) -> FallbackDice:
    return FallbackDice([5, 4, *faces], np.random.default_rng(3))


def _patched(monkeypatch: pytest.MonkeyPatch, **changes: object) -> NoQuarterRules:
    """Rules as if the YAML said otherwise (``table=field=value`` pairs)."""
    base = load_rules()
    tables: dict[str, object] = {}
    for key, value in changes.items():
        table, field = key.split("__")
        tables[table] = dataclasses.replace(tables.get(table, getattr(base, table)), **{field: value})
    rules = dataclasses.replace(base, **tables)
    monkeypatch.setattr(game, "load_rules", lambda options=None: rules)
    return rules


def _moves(events: list[Event], kind: str) -> list[ev.MechMoved]:
    return [e for e in events if isinstance(e, ev.MechMoved) and e.kind == kind]


ROUGH = Feature(Terrain.ROUGH, 10.0, 6.0, 26.0, 14.0)


def test_18_2_charge_reach_counts_terrain_cost() -> None:
    """13" apart: 10" to the 3" point, 8" of it through rough ground (cost 18 > Speed 10)."""
    open_field = _battle()
    rough = _battle(features=(ROUGH,))
    for battle in (open_field, rough):
        _place(battle, 0, (18.0, 5.0), 90.0)
        _place(battle, 1, (18.0, 18.0), 270.0)
        _to_mech_action(battle, _dice())
        assert battle.decision is not None and battle.decision.mech == 0
    assert Charge(0, 1) in game.legal_actions(open_field)
    assert Charge(0, 1) not in game.legal_actions(rough)


def test_18_2_1_charge_stage_distance_is_read_from_the_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """14.5" apart, Speed 10: out of reach with a 3" stage, in reach with a 5" one."""
    battle = _battle()
    _place(battle, 0, (18.0, 5.0), 90.0)
    _place(battle, 1, (18.0, 19.5), 270.0)
    dice = _dice()
    _to_mech_action(battle, dice)
    assert Charge(0, 1) not in game.legal_actions(battle)
    _patched(monkeypatch, charge__stage_distance_inches=5)
    battle.options_cache = None
    assert Charge(0, 1) in game.legal_actions(battle)
    events = game.play(battle, Charge(0, 1), dice)
    stage = _moves(events, "charge")[0]
    assert distance(stage.path[-1], (18.0, 19.5)) == pytest.approx(5.0)


def test_17_4_fast_moving_threshold_is_read_from_the_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A shooter that moved 6" is Fast Moving only if the table says 5" (ruling D7)."""
    flags = []
    for threshold in (10, 5):
        rules = dataclasses.replace(
            load_rules(),
            ranged_combat=dataclasses.replace(
                load_rules().ranged_combat, fast_moving_inches=threshold
            ),
        )
        battle = _battle()
        _place(battle, 0, (18.0, 10.0), 90.0)
        _place(battle, 1, (18.0, 20.0), 270.0)
        battle.mechs[0].moved = 6.0
        items = battle.mechs[0].design.items
        ppg = items.index(next(i for i in items if i.item.value == "ppg"))
        frame = fire_frame(0, "active")
        frame["assigned"] = [[ppg, 1]]
        battle.frames = [frame]
        ctx = Ctx(battle, FallbackDice([1, 1, 5], np.random.default_rng(2)), rules)
        resolve_firing(ctx, frame)
        shot = next(e for e in ctx.log if isinstance(e, ev.ShotFired))
        flags.append(shot.shooter_fast)
    assert flags == [False, True]


def test_16_1_3_free_move_distance_is_read_from_the_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The free move's farthest points lie free_move_inches away (2" in the table)."""
    battle = _battle()
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (18.0, 30.0), 270.0)
    frame = {"kind": "insight", "stage": "free", "free": [0]}
    reaches = []
    for inches in (2, 4):
        rules = dataclasses.replace(
            load_rules(),
            in_sight=dataclasses.replace(load_rules().in_sight, free_move_inches=inches),
        )
        options = insight_options(battle, rules, frame)
        points = [a.to for a in options if isinstance(a, FreeMove) and a.to is not None]
        reaches.append(round(max(distance((18.0, 10.0), p) for p in points), 3))
    assert reaches == [2.0, 4.0]


def _charge_into_fire(battle: Battle, dice: FallbackDice) -> list[Event]:
    """Blue #0 charges red #1; red's weapon assignments are played in order."""
    _to_mech_action(battle, dice)
    log = list(game.play(battle, Charge(0, 1), dice))
    while battle.decision is not None and battle.decision.kind is DecisionKind.ASSIGN_FIRE:
        log.extend(game.play(battle, game.legal_actions(battle)[0], dice))
    return log


def test_18_2_charger_that_ducked_back_from_the_target_fire_does_not_close() -> None:
    """Charger passes 0, target 2: it fires; a hit passing 0d6 ducks the charger back (§17.4.2)."""
    battle = _battle()
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (18.0, 15.0), 270.0)
    log = _charge_into_fire(battle, _dice(6, 6, 1, 1, *([6, 3, 4, 6, 6] * 6)))
    assert any(isinstance(e, ev.DuckedBack) and e.mech == 0 for e in log)
    assert len(_moves(log, "charge")) == 1  # the stage move only: no move into contact
    assert distance(battle.mechs[0].pos, battle.mechs[1].pos) > 3.0
    assert not any(isinstance(e, ev.MeleeRound) for e in log)
    assert battle.decision is None or battle.decision.kind is not DecisionKind.MELEE_DECLARE


def test_15_2_3_d25_prone_leaving_mech_stands_then_leaves() -> None:
    """A prone mech with Leave the Battlefield stands at its side's next phase, then leaves."""
    battle = _battle(n_blue=2)
    _place(battle, 0, (18.0, 10.0), 90.0)
    _place(battle, 1, (30.0, 10.0), 90.0)
    _place(battle, 2, (18.0, 30.0), 270.0)
    battle.mechs[0].prone = True
    battle.mechs[0].status = Status.LEAVE_BATTLEFIELD
    log = game.advance(battle, _dice())
    stood = [i for i, e in enumerate(log) if isinstance(e, ev.StoodUp) and e.mech == 0]
    left = [i for i, e in enumerate(log) if isinstance(e, ev.MechMoved) and e.mech == 0]
    assert stood and left and stood[0] < left[0]
    assert _moves(log, "leave") and not battle.mechs[0].prone
    assert battle.mechs[0].pos[1] < 10.0  # toward blue's home edge
