"""The shim that runs the rules tests on the native core (``native_engine.py``, issue 16 item 5).

The shim must play exactly as the reference does (the same options, events, dice and state,
written back into the same objects), must be able to make a rules test fail (a planted
difference: the shim loses an event class), and ``tests/rules/conftest.py``'s selection must
name real tests and leave out no module that plays a skirmish through the game API.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import native_engine  # noqa: E402

from wargym.rules.dice import RandomDice  # noqa: E402
from wargym.rules.errors import IllegalActionError  # noqa: E402
from wargym.rules.no_quarter.battle import game  # noqa: E402
from wargym.rules.no_quarter.battle.actions import Stay  # noqa: E402
from wargym.rules.no_quarter.battle.state import BattleOptions  # noqa: E402
from wargym.rules.no_quarter.forces.setup import new_skirmish  # noqa: E402
from wargym.rules.no_quarter.forces.vocab import Faction  # noqa: E402

HERE = Path(__file__).resolve().parent
CONFTEST = HERE.parent / "conftest.py"


def _conftest() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rules_conftest_tables", CONFTEST)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _text(battle: object) -> str:
    return json.dumps(battle.to_dict(), sort_keys=True)  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", [3, 7, 12])
def test_the_shim_plays_as_the_reference_does_and_keeps_the_objects(seed: int) -> None:
    """Options, events, faces and the whole state, bit for bit; the same Mech objects."""
    options = BattleOptions(unseen_bases="bump") if seed == 7 else BattleOptions()
    rng = np.random.default_rng(seed)
    ref = new_skirmish(rng, RandomDice.from_seed(seed), mechs_per_side=2 + seed % 3,
                       stars=seed % 2, blue=Faction.HISHEN, options=options)  # fmt: skip
    twin = ref.clone()
    shim = native_engine.NativeShim()
    objects, table = dict(twin.mechs), twin.mechs
    dice_ref, dice_twin = RandomDice.from_seed(100 + seed), RandomDice.from_seed(100 + seed)
    chooser = np.random.default_rng(seed)
    for _ in range(60):
        if ref.over:
            break
        options_ref, options_twin = game.legal_actions(ref), shim.legal_actions(twin)
        assert options_ref == options_twin
        assert twin.options_cache == (twin.decision, tuple(options_twin))
        action = options_ref[int(chooser.integers(len(options_ref)))]
        events_ref = [e.to_dict() for e in game.play(ref, action, dice_ref)]
        events_twin = [e.to_dict() for e in shim.play(twin, action, dice_twin)]
        assert json.dumps(events_ref) == json.dumps(events_twin)
        assert _text(ref) == _text(twin)
        assert json.dumps(shim.documents.battle(twin)) == json.dumps(twin.to_dict())
        assert twin.mechs is table and all(twin.mechs[k] is m for k, m in objects.items())
        assert twin.options_cache is None and twin.geometry_cache is None
    assert dice_ref.rng.bit_generator.state == dice_twin.rng.bit_generator.state  # same faces
    assert shim.calls["play"] > 5


def test_an_illegal_action_raises_the_reference_error_and_changes_nothing() -> None:
    battle = new_skirmish(np.random.default_rng(1), RandomDice.from_seed(2))
    before = _text(battle)
    shim = native_engine.NativeShim()
    with pytest.raises(IllegalActionError) as native:
        shim.play(battle, Stay(99), RandomDice.from_seed(3))
    with pytest.raises(IllegalActionError) as reference:
        game.play(battle.clone(), Stay(99), RandomDice.from_seed(3))
    assert str(native.value) == str(reference.value)
    assert _text(battle) == before
    with pytest.raises(IllegalActionError):
        shim.check_legal(battle, Stay(99))


def test_install_replaces_every_holder_and_is_undone(monkeypatch: pytest.MonkeyPatch) -> None:
    import test_nq_golden  # holds legal_actions and play by name

    shim = native_engine.NativeShim()
    count = native_engine.install(monkeypatch, shim)
    assert count >= 6
    assert game.play == shim.play and game.advance == shim.advance
    assert test_nq_golden.play == shim.play and test_nq_golden.legal_actions == shim.legal_actions
    monkeypatch.undo()
    assert game.play is native_engine.REFERENCE["play"]
    assert test_nq_golden.play is native_engine.REFERENCE["play"]


def _tv28_test() -> object:
    path = HERE / "test_nq_16_1_tv28_in_sight_free_moves.py"
    spec = importlib.util.spec_from_file_location("tv28_for_the_shim", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.test_16_1_3_tv28_b_steps_to_the_corner_and_both_take_part


def test_a_planted_difference_makes_a_rules_test_fail_on_the_native_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same rules test passes through a faithful shim and fails through a faulty one."""
    test = _tv28_test()
    faithful = native_engine.NativeShim()
    native_engine.install(monkeypatch, faithful)
    test()  # type: ignore[operator]
    assert faithful.calls["play"] > 0
    monkeypatch.undo()
    for faulty in (
        native_engine.NativeShim(drop_event="InSightTaken"),  # an event class lost
        native_engine.NativeShim(freeze_field="pos"),  # the mechs' moves forgotten
    ):
        native_engine.install(monkeypatch, faulty)
        with pytest.raises(AssertionError):
            test()  # type: ignore[operator]
        assert faulty.calls["play"] > 0
        monkeypatch.undo()


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }


API_USE = re.compile(
    r"\bgame\.(legal_actions|check_legal|play|advance)\b"
    r"|from wargym\.rules\.no_quarter\.battle\.game import [^\n]*\b(legal_actions|play|advance)\b"
)


def test_the_selection_names_real_tests_and_every_module_that_uses_the_api() -> None:
    tables = _conftest()
    for module, excluded in {**tables.BOTH, **tables.NATIVE_DIFFERENCES}.items():
        names = _test_names(HERE / module)
        assert names, module
        assert set(excluded) <= names, (module, set(excluded) - names)
        assert all(excluded.values()), module  # every one with its reason
    for module, tests in {**tables.NATIVE_SUBSETS, **tables.NATIVE_PARAMS_LEFT_OUT}.items():
        assert set(tests) <= _test_names(HERE / module), module
    for module, tests in tables.ONLY.items():
        assert tests and set(tests) <= _test_names(HERE / module), module
    for module in {**tables.NATIVE_DIFFERENCES, **tables.NATIVE_SUBSETS, **tables.NATIVE_SLOW}:
        assert module in tables.BOTH or module in tables.ONLY, module
    groups = (set(tables.BOTH), set(tables.ONLY), set(tables.NOT_BOTH))
    assert sum(len(g) for g in groups) == len(set().union(*groups))  # each module in one
    accounted = set().union(*groups)
    users = {
        p.name
        for p in HERE.glob("test_*.py")
        if API_USE.search(p.read_text(encoding="utf-8")) and p.name != Path(__file__).name
    }
    assert users <= accounted, sorted(users - accounted)
    assert all(reason for reason in tables.NOT_BOTH.values())
