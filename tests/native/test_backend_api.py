"""The reference game API on a native battle (``NativeSkirmish``, native/no_quarter/battle.py).

``wargym.rules.no_quarter.battle.game``'s ``legal_actions``, ``check_legal``, ``play``,
``advance``, ``decider``, ``outcome`` on a ``NativeSkirmish`` give what they give on the
reference battle, decision by decision, on the same dice; ``new_skirmish(_logged)`` with
``backend="native"`` sets up the same battle and events; the reference view, clones and the
JSON round trip; bad ``backend`` values and the set-up's refusals; the rules still import
nothing of the native core.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from wargym.native import _core
from wargym.native.errors import NativeArgumentError, NativeStateError
from wargym.native.no_quarter.battle import NativeSkirmish, reference_of, tables_of
from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import IllegalActionError
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import Move, Stay
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.forces.setup import new_skirmish, new_skirmish_logged
from wargym.rules.no_quarter.forces.vocab import Faction

SETUPS = [
    {},
    {"mechs_per_side": 1},
    {"mechs_per_side": 5, "stars": 2},
    {"blue": Faction.FREE_COMPANY, "red": Faction.STAR_ARMY, "mechs_per_side": 2},
    {"options": BattleOptions(max_turns=4, lucky="auto", unseen_bases="bump")},
    {"options": BattleOptions(move_directions=8, move_fractions=(0.5, 1.0), leave_wrecks=True)},
]


def _pair(seed: int, **setup: object) -> tuple[Battle, NativeSkirmish, list, list]:
    reference, ref_events = new_skirmish_logged(
        np.random.default_rng(seed), RandomDice.from_seed(seed + 1), **setup
    )
    native, native_events = new_skirmish_logged(
        np.random.default_rng(seed), RandomDice.from_seed(seed + 1), backend="native", **setup
    )
    assert isinstance(native, NativeSkirmish)
    return reference, native, ref_events, native_events


@pytest.mark.parametrize("index", range(len(SETUPS)))
def test_the_native_set_up_is_the_reference_one(index: int) -> None:
    for seed in range(4):
        reference, native, ref_events, native_events = _pair(seed, **SETUPS[index])
        assert native.to_dict() == reference.to_dict()
        assert [e.to_dict() for e in native_events] == [e.to_dict() for e in ref_events]
        assert type(native_events[0]) is type(ref_events[0])
        again = new_skirmish(np.random.default_rng(seed), RandomDice.from_seed(seed + 1))
        assert (
            again.to_dict()
            == new_skirmish(
                np.random.default_rng(seed), RandomDice.from_seed(seed + 1), backend="native"
            ).to_dict()
        )


def test_the_set_up_leaves_both_generators_where_the_reference_leaves_them() -> None:
    states = []
    for backend in ("python", "native"):
        rng, dice_rng = np.random.default_rng(3), np.random.default_rng(4)
        new_skirmish(rng, RandomDice(dice_rng), backend=backend)
        states.append((rng.bit_generator.state, dice_rng.bit_generator.state))
    assert states[0] == states[1]


@pytest.mark.parametrize("index", range(len(SETUPS)))
def test_the_game_api_on_a_native_battle_is_the_reference_one(index: int) -> None:
    for seed in (index, 40 + index):
        reference, native, _, _ = _pair(seed, **SETUPS[index])
        dice_ref, dice_native = RandomDice.from_seed(seed), RandomDice.from_seed(seed)
        rng = np.random.default_rng(seed)
        for _ in range(400):
            assert game.decider(native) == game.decider(reference)
            assert game.outcome(native) == game.outcome(reference)
            assert game.is_over(native) == game.is_over(reference)
            if reference.over:
                break
            options = game.legal_actions(native)
            assert options == game.legal_actions(reference)
            assert game.rules_of(native) is game.rules_of(reference)
            action = options[int(rng.integers(len(options)))]
            game.check_legal(native, action)
            events = game.play(native, action, dice_native)
            assert [e.to_dict() for e in events] == [
                e.to_dict() for e in game.play(reference, action, dice_ref)
            ]
            assert native.turn == reference.turn and native.over == reference.over
            assert native.winner == reference.winner
            assert native.end_reason == reference.end_reason
        assert native.to_dict() == reference.to_dict()
        assert dice_native.rng.bit_generator.state == dice_ref.rng.bit_generator.state
        assert game.legal_actions(native) == game.legal_actions(reference)


def test_an_illegal_action_gives_the_reference_message_and_changes_nothing() -> None:
    reference, native, _, _ = _pair(5)
    for _ in range(12):  # on to a mech's move
        options = game.legal_actions(reference)
        if any(isinstance(o, Move) for o in options):
            break
        choice = options[0]
        game.play(reference, choice, ScriptedDice([3] * 60))
        game.play(native, choice, ScriptedDice([3] * 60))
    before = native.to_dict()
    dice = RandomDice.from_seed(1)
    state = dice.rng.bit_generator.state
    for action in (Stay(99, 0.0), Move(99, (1.0, 1.0))):
        with pytest.raises(IllegalActionError) as ref_error:
            game.check_legal(reference, action)
        with pytest.raises(IllegalActionError) as native_error:
            game.check_legal(native, action)
        assert str(native_error.value) == str(ref_error.value)
        with pytest.raises(IllegalActionError):
            game.play(native, action, dice)
        assert native.to_dict() == before
        assert dice.rng.bit_generator.state == state


def test_the_reference_view_clone_and_json() -> None:
    reference, native, _, _ = _pair(8, mechs_per_side=3)
    rng, dice = np.random.default_rng(8), _core.RandomDice(8)
    for _ in range(60):
        view = native.to_reference()
        assert view is native.to_reference()  # cached until the next change
        document = native.to_dict()
        assert view == Battle.from_dict(document)
        assert view.to_dict() == document
        assert reference_of(document, type(native._records)()) == view
        assert native.mechs == view.mechs and native.battlefield == view.battlefield
        assert native.mech_sides() == {
            m.id: (m.side, m.removed is None) for m in view.mechs.values()
        }
        assert NativeSkirmish.from_dict(json.loads(json.dumps(document))).to_dict() == document
        twin = native.clone()
        if native.over:
            break
        options = game.legal_actions(native)
        action = options[int(rng.integers(len(options)))]
        game.play(twin, action, dice)
        assert native.to_dict() == document  # the clone is independent
        native = twin
        assert native.to_reference() is not view


def test_a_native_battle_loads_from_either_engine_and_refuses_bad_documents() -> None:
    reference = new_skirmish(np.random.default_rng(2), RandomDice.from_seed(2))
    native = NativeSkirmish.from_dict(reference.to_dict())
    assert native.to_dict() == reference.to_dict()
    assert Battle.from_dict(native.to_dict()) == reference
    bad = reference.to_dict()
    bad["mechs"]["0"]["armor"] = [99] * len(bad["mechs"]["0"]["armor"])
    with pytest.raises(NativeStateError, match="armor"):
        NativeSkirmish.from_dict(bad)


def test_a_falling_building_rebuilds_the_tables() -> None:
    reference = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0))
    native = NativeSkirmish.from_reference(reference)
    buildings = [
        i for i, f in enumerate(reference.battlefield.features) if f.kind.value == "building"
    ]
    assert buildings, "the set-up must have a building for this test"
    tables = native.tables
    event = _core.no_quarter.events.Event.from_dict(
        {"type": "BuildingDestroyed", "feature": buildings[0]}
    )
    native.apply_native(event)
    assert native.tables is not tables
    assert native.to_reference().battlefield.features[buildings[0]].kind.value == "rough"
    expected = tables_of(native.to_dict())
    assert type(expected) is type(native.tables)


@pytest.mark.parametrize("bad", ["nope", "Native", 3, None])
def test_a_bad_backend_raises_value_error(bad: object) -> None:
    with pytest.raises(ValueError, match="backend"):
        new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0), backend=bad)  # type: ignore[arg-type]


def test_the_native_set_up_refuses_what_it_cannot_mirror() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(NativeArgumentError, match="dice"):
        new_skirmish(rng, RandomDice(rng), backend="native")  # one generator for both
    reference = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0))
    with pytest.raises(NativeArgumentError, match="battlefield"):
        new_skirmish(
            np.random.default_rng(0),
            RandomDice.from_seed(0),
            battlefield=reference.battlefield,
            backend="native",
        )
    native = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0), backend="native")
    with pytest.raises(ValueError, match="options"):
        native.options = BattleOptions(max_turns=3)
    native.options = native.options  # the same options again: accepted


def test_a_python_set_up_loads_nothing_of_the_native_core() -> None:
    code = (
        "import sys, numpy as np\n"
        "from wargym.rules.dice import RandomDice\n"
        "from wargym.rules.no_quarter.forces.setup import new_skirmish\n"
        "from wargym.rules.no_quarter.battle import game\n"
        "b = new_skirmish(np.random.default_rng(0), RandomDice.from_seed(0))\n"
        "game.play(b, game.legal_actions(b)[0], RandomDice.from_seed(1))\n"
        "print(sorted(m for m in sys.modules if m.startswith('wargym.native')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_changed_reference_view_is_written_back_before_the_next_use() -> None:
    for seed in range(3):
        reference = new_skirmish(np.random.default_rng(seed), RandomDice.from_seed(seed))
        native = NativeSkirmish.from_reference(reference)
        world, twin = native.clone(), reference.clone()
        for battle in (world, twin):  # what determinise does to its world
            enemy = battle.mechs_of(battle.decision.side.other)[0]
            enemy.pos = (18.0 + seed, 18.0)
            enemy.rep = 2
            battle.geometry_cache = None
            battle.options_cache = None
        assert world.to_dict() == twin.to_dict()
        assert native.to_dict() == reference.to_dict()  # the clone's view only
        assert game.legal_actions(world) == game.legal_actions(twin)
        dice_a, dice_b = RandomDice.from_seed(9), RandomDice.from_seed(9)
        for _ in range(30):
            if twin.over:
                break
            action = game.legal_actions(twin)[0]
            assert [e.to_dict() for e in game.play(world, action, dice_a)] == [
                e.to_dict() for e in game.play(twin, action, dice_b)
            ]
        assert world.to_dict() == twin.to_dict()


class _NativeSkirmishBackend:
    """perft's Backend on NativeSkirmish, through the reference game API (its dispatch)."""

    name = "native-skirmish"

    def legal_actions(self, battle: NativeSkirmish) -> list:
        return game.legal_actions(battle)

    def play(self, battle: NativeSkirmish, action: object, dice: object) -> list:
        return game.play(battle, action, dice)  # type: ignore[arg-type]

    def clone(self, battle: NativeSkirmish) -> NativeSkirmish:
        return battle.clone()

    def load(self, data: dict) -> NativeSkirmish:
        return NativeSkirmish.from_dict(data)

    def dump(self, battle: NativeSkirmish) -> dict:
        return battle.to_dict()


def test_perft_counts_through_the_game_api_on_native_battles() -> None:
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules" / "no_quarter"))
    import perft

    golden = json.loads(
        (Path(__file__).resolve().parents[1] / "golden" / "nq_perft.json").read_text()
    )
    skirmishes = [r for r in perft.POSITIONS if r.name not in ("patrol_lead_teams",
                                                              "defend_mech_action")]  # fmt: skip
    assert len(skirmishes) == 8
    for recipe in skirmishes:
        assert perft.record(recipe, _NativeSkirmishBackend()) == golden[recipe.name], recipe.name
