"""The native game API (native/no_quarter/game.py over _core.no_quarter.game) against the reference.

check_legal's IllegalActionError messages, illegal actions and not-ported procedures leave the
battle unchanged, play/advance agree with the reference while only ported handlers run, events
only when asked, and bad input raises the typed errors naming the argument.
"""

from __future__ import annotations

import numpy as np
import pytest

from wargym.native import _core
from wargym.native.errors import NativeArgumentError, NativeNotPortedError, NativeTypeError
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter.game import (
    advance,
    check_legal,
    core,
    game_tables,
    legal_actions,
    native_game,
    play,
)
from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import IllegalActionError, RulesError
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    ActivateGroup,
    ChooseMech,
    KeepGroups,
    Move,
    Stay,
)
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.setup import new_skirmish


def _fresh(seed: int = 1, per_side: int = 3) -> Battle:
    return new_skirmish(
        np.random.default_rng(seed), RandomDice.from_seed(seed), mechs_per_side=per_side
    )


def _between_turns(seed: int = 1, per_side: int = 3) -> Battle:
    """A skirmish with no frame and no decision: advance starts a turn."""
    doc = _fresh(seed, per_side).to_dict()
    return Battle.from_dict({**doc, "frames": [], "decision": None}, check=False)


def _message(battle: Battle, action: object) -> str:
    with pytest.raises(IllegalActionError) as caught:
        game.check_legal(battle, action)  # type: ignore[arg-type]
    return str(caught.value)


def test_advance_agrees_with_the_reference_and_events_only_when_asked() -> None:
    for seed in range(4):
        battle = _between_turns(seed)
        native, tables = native_game(battle, check=False)
        quiet = native.clone()
        ref_events = game.advance(battle, ScriptedDice([3, 5, 2, 2, 6, 1]))
        mine = advance(native, tables, _core.ScriptedDice([3, 5, 2, 2, 6, 1]), events=True)
        assert mine == ref_events and mine
        assert native.to_dict() == battle.to_dict()
        assert advance(quiet, tables, RandomDice.from_seed(0)) is None  # any rules.dice Dice
        assert legal_actions(native, tables) == game.legal_actions(battle)


def test_check_legal_messages_are_the_references() -> None:
    battle = _between_turns(2)
    native, tables = native_game(battle, check=False)
    for action in (ChooseMech(99), Stay(1, 90.0), ActivateGroup(0)):  # no decision yet
        with pytest.raises(IllegalActionError) as caught:
            check_legal(native, tables, action)
        assert str(caught.value) == _message(battle, action)
    game.advance(battle, ScriptedDice([4, 1]))
    advance(native, tables, _core.ScriptedDice([4, 1]))
    for action in (ChooseMech(99), Stay(1, 90.0), ActivateGroup(0), KeepGroups()):
        legal = game.legal_actions(battle)
        if action in legal:
            check_legal(native, tables, action)  # no error
            continue
        with pytest.raises(IllegalActionError) as caught:
            check_legal(native, tables, action)
        assert str(caught.value) == _message(battle, action)
    over = battle_from_dict({**battle.to_dict(), "over": True, "decision": None}, check=False)
    with pytest.raises(IllegalActionError, match="the battle is over"):
        check_legal(over, tables, KeepGroups())


def test_play_agrees_with_the_reference_decision_by_decision() -> None:
    """Every skirmish handler is ported: whole games agree (options, events, state)."""
    decisions = 0
    for seed in range(6):
        battle = _fresh(seed, per_side=2 + seed % 3)
        native, tables = native_game(battle)
        faces = [int(f) for f in np.random.default_rng(seed).integers(1, 7, 4000)]
        ref_dice, my_dice = ScriptedDice(list(faces)), _core.ScriptedDice(list(faces))
        rng = np.random.default_rng(seed)
        built_for = battle.battlefield
        for _ in range(60):
            if battle.over:
                break
            if battle.battlefield is not built_for:  # a building fell: the terrain tables change
                tables, built_for = game_tables(battle), battle.battlefield
            legal = game.legal_actions(battle)
            assert legal_actions(native, tables) == legal
            action = legal[int(rng.integers(len(legal)))]
            mine = play(native, tables, action, my_dice, events=True)
            ref = game.play(battle, action, ref_dice)
            assert mine == ref
            assert native.to_dict() == battle.to_dict()
            decisions += 1
    assert decisions > 100


def test_an_illegal_action_leaves_the_battle_unchanged() -> None:
    battle = _fresh(3)
    native, tables = native_game(battle)
    before = native.to_dict()
    with pytest.raises(IllegalActionError, match="is not legal at this"):
        play(native, tables, ChooseMech(12345), _core.ScriptedDice([1] * 10))
    assert native.to_dict() == before


def test_bad_input_raises_typed_errors() -> None:
    battle = _fresh(4)
    native, tables = native_game(battle)
    dice = _core.ScriptedDice([5, 2])
    cases = [
        (lambda: core.legal_actions(battle, tables), "battle"),
        (lambda: core.legal_actions(native, "tables"), "tables"),
        (lambda: core.check_legal(native, tables, "KeepGroups"), "action"),
        (lambda: core.play(native, tables, KeepGroups(), 7), "dice"),
        (lambda: core.advance(native, tables, None), "dice"),
        (lambda: core.advance(native, tables, dice, "yes"), "events"),
        (lambda: core.act(native, tables, 3, dice), "action"),
        (lambda: core.eliminated(None, tables, dice), "battle"),
    ]
    for call, argument in cases:
        with pytest.raises(NativeTypeError) as caught:
            call()
        assert caught.value.argument == argument
    assert native.to_dict() == battle.to_dict()
    between, _ = native_game(_between_turns(4), check=False)
    before = between.to_dict()
    for faces in ([9, 9], [1]):  # faces that are no d6, too few faces
        with pytest.raises(RulesError) as error:
            core.advance(between, tables, ScriptedDiceLike(faces))
        assert "dice" in str(error.value)
        assert between.to_dict() == before


class ScriptedDiceLike:
    """Any object with roll(n): here one that gives faces outside 1..6."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces

    def roll(self, n: int) -> tuple[int, ...]:
        return tuple(self.faces[:n])


def test_game_tables_follow_the_battle() -> None:
    battle = _fresh(5)
    assert isinstance(game_tables(battle), _core.no_quarter.fire.FireTables)


def test_a_mission_turn_is_not_ported_yet() -> None:
    """What a mission adds to the turn (mission_play, np_flow) raises the typed error."""
    from wargym.rules.no_quarter.mission.mission_play import new_mission

    mission = new_mission(
        "patrol_star_army_vs_hishen", np.random.default_rng(0), RandomDice.from_seed(0)
    )
    doc = mission.to_dict()
    between = Battle.from_dict({**doc, "frames": [{"kind": "turn"}], "decision": None}, check=False)
    native, tables = native_game(between, check=False)
    before = native.to_dict()
    with pytest.raises(NativeNotPortedError, match="mission_play"):
        core.act(native, tables, None, _core.ScriptedDice([3, 4]))
    with pytest.raises(NativeNotPortedError):
        advance(native, tables, _core.ScriptedDice([3, 4]))
    assert native.to_dict() == before


def test_distinct_is_the_references() -> None:
    """game._distinct: repeats dropped, moves nearer than NEAR on both axes to a kept one of
    the same (mech, reverse, jump) dropped, the first kept, other options by equality."""
    rng = np.random.default_rng(8)
    near, dropped = game.NEAR, 0
    for _ in range(300):
        options: list[object] = []
        for _ in range(int(rng.integers(1, 40))):
            kind = int(rng.integers(5))
            if kind < 3:
                base = (float(rng.integers(3)), float(rng.integers(3)))
                jitter = rng.choice([0.0, near / 2, near * 0.999, near, near * 1.5], 2)
                to = (base[0] + float(jitter[0]), base[1] - float(jitter[1]))
                options.append(Move(int(rng.integers(1, 3)), to, bool(rng.integers(2)),
                                    bool(rng.integers(2))))  # fmt: skip
            elif kind == 3:
                options.append(Stay(int(rng.integers(1, 3)), [None, 90.0][int(rng.integers(2))]))
            else:
                options.append(KeepGroups())
        kept = game._distinct(options)  # type: ignore[arg-type]
        assert core.distinct(options, near) == kept
        dropped += len(kept) < len(set(options))  # a near move dropped, not only repeats
    assert dropped > 50, dropped
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(NativeArgumentError):
            core.distinct([KeepGroups()], bad)
    with pytest.raises(NativeTypeError):
        core.distinct([KeepGroups()], "x")


def test_a_pending_decision_without_frames_raises_a_state_error() -> None:
    """A check=False document with a decision and an empty frame stack never crashes the core.

    (The reference fails with an IndexError there; the core names the field.)
    """
    import numpy as np

    from wargym.native import _core
    from wargym.native.errors import NativeStateError
    from wargym.native.no_quarter import battle_from_dict
    from wargym.native.no_quarter import game as native
    from wargym.rules.dice import RandomDice
    from wargym.rules.no_quarter.battle import game as reference
    from wargym.rules.no_quarter.forces.setup import new_skirmish

    battle = new_skirmish(np.random.default_rng(1), RandomDice.from_seed(2))
    option = reference.legal_actions(battle)[0]
    document = battle.to_dict()
    document["frames"] = []
    hostile = battle_from_dict(document, check=False)
    tables = native.game_tables(battle)
    before = hostile.to_dict()
    assert native.legal_actions(hostile, tables) == []
    with pytest.raises(NativeStateError, match="battle.frames"):
        native.check_legal(hostile, tables, option)
    with pytest.raises(NativeStateError, match="battle.frames"):
        native.play(hostile, tables, option, _core.RandomDice(1))
    assert hostile.to_dict() == before
