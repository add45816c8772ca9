"""Bad input to the native NP procedure raises typed errors naming the argument; nothing changes.

``_core.no_quarter.enemy``: ``np_decide``, ``roll_group``, ``known_enemies``,
``NpContext.from_dict`` and ``NpTables.from_spec`` (docs/bad_input.md, "The native NP procedure").
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from wargym.native import _core
from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter import enemy as native_enemy
from wargym.native.no_quarter.game import native_game
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import AssignFire
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.non_player.enemy import NpContext, NpGroupState, NpPosture

core: Any = native_enemy.core


def _red_battle() -> tuple[Any, Any, Any, list[Any]]:
    """A skirmish at red's first decision: the reference battle, its native twin and tables."""
    battle = new_skirmish(np.random.default_rng(4), RandomDice.from_seed(4), mechs_per_side=3)
    dice, rng = RandomDice.from_seed(5), np.random.default_rng(6)
    while battle.decision is not None and battle.decision.side is not Side.RED:
        options = game.legal_actions(battle)
        game.play(battle, options[int(rng.integers(len(options)))], dice)
    native, tables = native_game(battle)
    return battle, native, tables, game.legal_actions(battle)


def _context_dict() -> dict[str, Any]:
    context = NpContext(groups={100: NpGroupState(posture=NpPosture.DEFEND, activation=(1, 4))})
    return context.to_dict()


def _broken(path: list[Any], value: Any, delete: bool = False) -> dict[str, Any]:
    data = _context_dict()
    data["rolls"] = [
        {
            "team": 100, "leader": 4, "posture": "attack", "beaten_away": False,
            "pursuit": {"faces": [1, 2], "passes": 1, "target": None},
            "move": {"table": "22.3.7", "faces": [3, 4], "passes": 1, "order": "half"},
        }
    ]  # fmt: skip
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


CONTEXT_CASES = [
    ([], None, NativeTypeError, "context"),
    (["groups"], [], NativeTypeError, "context.groups"),
    (["groups", "x"], {}, NativeArgumentError, "context.groups"),
    (["groups", "100", "posture"], "sleep", NativeArgumentError, "context.groups.100.posture"),
    (["groups", "100", "posture"], 3, NativeTypeError, "context.groups.100.posture"),
    (["groups", "100", "own_edge"], "up", NativeArgumentError, "context.groups.100.own_edge"),
    (
        ["groups", "100", "exit_sections"],
        [10],
        NativeArgumentError,
        "context.groups.100.exit_sections[0]",
    ),
    (
        ["groups", "100", "exit_sections"],
        [True],
        NativeTypeError,
        "context.groups.100.exit_sections[0]",
    ),
    (["groups", "100", "target"], 1.5, NativeTypeError, "context.groups.100.target"),
    (["groups", "100", "target"], 2**70, NativeArgumentError, "context.groups.100.target"),
    (["groups", "100", "activation"], [1], NativeArgumentError, "context.groups.100.activation"),
    (["groups", "100", "nope"], 1, NativeArgumentError, "context.groups.100"),
    (["default", "order"], "fast", NativeArgumentError, "context.default.order"),
    (["default", "after_beaten"], None, NativeTypeError, "context.default.after_beaten"),
    (["rolls"], {}, NativeTypeError, "context.rolls"),
    (["rolls", 0, "team"], True, NativeTypeError, "context.rolls[0].team"),
    (["rolls", 0, "move", "table"], "22.9", NativeArgumentError, "context.rolls[0].move.table"),
    (["rolls", 0, "pursuit", "faces"], (1, 2), NativeTypeError, "context.rolls[0].pursuit.faces"),
    (["options", "awareness"], "smell", NativeArgumentError, "context.options.awareness"),
    (
        ["options", "beaten_away_uses_range"],
        1,
        NativeTypeError,
        "context.options.beaten_away_uses_range",
    ),
    (["surprise"], 1, NativeArgumentError, "context"),
]


@pytest.mark.parametrize(("path", "value", "error", "name"), CONTEXT_CASES)
def test_a_malformed_context_dict_is_refused_by_name(
    path: list[Any], value: Any, error: type[Exception], name: str
) -> None:
    data = _broken(path, value) if path else value
    before = copy.deepcopy(data)
    with pytest.raises(error) as caught:
        core.NpContext.from_dict(data)
    assert caught.value.argument == name, caught.value  # type: ignore[attr-defined]
    assert str(caught.value).startswith(name)
    assert data == before


def test_a_missing_required_roll_field_is_refused() -> None:
    with pytest.raises(NativeArgumentError, match="missing field 'leader'") as caught:
        core.NpContext.from_dict(_broken(["rolls", 0, "leader"], None, delete=True))
    assert caught.value.argument == "context.rolls[0]"


def test_missing_context_fields_take_the_defaults_as_the_reference() -> None:
    for data in ({}, {"groups": {"7": {}}}, {"options": {}}):
        assert core.NpContext.from_dict(data).to_dict() == NpContext.from_dict(data).to_dict()


def test_the_context_round_trips_the_reference_json() -> None:
    data = _broken(["groups", "100", "target"], 3)
    assert core.NpContext.from_dict(data).to_dict() == NpContext.from_dict(data).to_dict()


def test_bad_arguments_of_np_decide_leave_context_and_dice_unchanged() -> None:
    battle, native, tables, options = _red_battle()
    np_tables = native_enemy.np_tables()
    context = core.NpContext.from_dict(_context_dict())
    dice = _core.NumpyDice(np.random.default_rng(3).bit_generator.state)
    before, state = context.to_dict(), dice.state
    cases: list[tuple[tuple[Any, ...], type[Exception], str]] = [
        ((battle, tables, np_tables, options, context, dice), NativeTypeError, "battle"),
        ((native, None, np_tables, options, context, dice), NativeTypeError, "tables"),
        ((native, tables, {}, options, context, dice), NativeTypeError, "np_tables"),
        ((native, tables, np_tables, "x", context, dice), NativeTypeError, "options"),
        ((native, tables, np_tables, [1], context, dice), NativeTypeError, "options[0]"),
        ((native, tables, np_tables, [], context, dice), NativeArgumentError, "battle"),
        ((native, tables, np_tables, options, {}, dice), NativeTypeError, "context"),
        (
            (native, tables, np_tables, options, context, RandomDice.from_seed(1)),
            NativeTypeError,
            "dice",
        ),
    ]
    for args, error, name in cases:
        with pytest.raises(error) as caught:
            core.np_decide(*args)
        assert caught.value.argument == name, (name, caught.value)  # type: ignore[attr-defined]
        assert context.to_dict() == before and dice.state == state, name


def test_an_option_naming_no_mech_is_refused_and_changes_nothing() -> None:
    battle, _, tables, _ = _red_battle()
    shooter = min(m.id for m in battle.mechs.values() if m.side is Side.RED)
    document = battle.to_dict()
    document["decision"] = {"side": "red", "kind": "assign_fire", "mech": shooter}
    assign = battle_from_dict(document, check=False)
    context = core.NpContext.from_dict(_context_dict())
    dice = _core.NumpyDice(np.random.default_rng(3).bit_generator.state)
    before, state = context.to_dict(), dice.state
    bad = [AssignFire(mech=shooter, weapon=0, target=99)]
    with pytest.raises(NativeArgumentError) as caught:
        core.np_decide(assign, tables, native_enemy.np_tables(), bad, context, dice)
    assert caught.value.argument == "options"
    assert context.to_dict() == before and dice.state == state


def test_bad_arguments_of_roll_group_and_known_enemies() -> None:
    _, native, tables, _ = _red_battle()
    np_tables = native_enemy.np_tables()
    context = core.NpContext()
    dice = _core.NumpyDice(np.random.default_rng(3).bit_generator.state)
    state = dice.state
    for leader, error in (
        (99, NativeArgumentError),
        ("4", NativeTypeError),
        (True, NativeTypeError),
    ):
        with pytest.raises(error) as caught:
            core.roll_group(native, tables, np_tables, leader, context, dice)
        assert caught.value.argument == "leader"
    assert dice.state == state and context.to_dict() == core.NpContext().to_dict()
    for side, arcs, name in (("green", False, "side"), (3, False, "side"), ("red", 1, "arcs")):
        with pytest.raises((NativeTypeError, NativeArgumentError)) as caught:
            core.known_enemies(native, tables, side, arcs)
        assert caught.value.argument == name  # type: ignore[union-attr]


SPEC_CASES = [
    ("patrol", [["defend", "none"]], NativeArgumentError, "spec.patrol"),
    ("defend", ["full", "half", "run"], NativeArgumentError, "spec.defend[2]"),
    ("pursuing", "objective", NativeTypeError, "spec.pursuing"),
    ("distraction_range", "12", NativeTypeError, "spec.distraction_range"),
    ("flank_bearing", float("nan"), NativeArgumentError, "spec.flank_bearing"),
    ("pass_cap", 3, NativeArgumentError, "spec.pass_cap"),
    ("default_home_edge", "up", NativeArgumentError, "spec.default_home_edge"),
    ("withdrawal_snap", 1e9, NativeArgumentError, "spec.withdrawal_snap"),
]


@pytest.mark.parametrize(("key", "value", "error", "name"), SPEC_CASES)
def test_a_bad_tables_spec_is_refused_by_name(
    key: str, value: Any, error: type[Exception], name: str
) -> None:
    spec = native_enemy.tables_spec()
    spec[key] = value
    with pytest.raises(error) as caught:
        core.NpTables.from_spec(spec)
    assert caught.value.argument == name  # type: ignore[attr-defined]


def test_a_tables_spec_missing_a_key_or_not_a_dict() -> None:
    spec = native_enemy.tables_spec()
    del spec["reach_slack"]
    with pytest.raises(NativeArgumentError, match="reach_slack"):
        core.NpTables.from_spec(spec)
    with pytest.raises(NativeTypeError) as caught:
        core.NpTables.from_spec([])
    assert caught.value.argument == "spec"


def test_the_glue_leaves_context_and_rng_alone_on_error() -> None:
    battle, native, tables, options = _red_battle()
    context = NpContext()
    rng = np.random.default_rng(11)
    state = rng.bit_generator.state
    with pytest.raises(NativeTypeError):
        native_enemy.np_decide(battle, tables, options, context, rng)
    assert context == NpContext() and rng.bit_generator.state == state
