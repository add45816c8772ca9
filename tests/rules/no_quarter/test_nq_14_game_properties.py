"""Whole-battle properties: 1,000 seeded playouts, determinism, JSON round trips (§14-§18)."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from wargym.rules.dice import RandomDice
from wargym.rules.errors import IllegalActionError, StateError
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import Move, action_from_dict, action_to_dict
from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Faction
from wargym.rules.no_quarter.sight_movement.geometry import distance

FACTIONS = list(Faction)
PLAYOUTS = 1000
CHUNKS = 20


def _skirmish(seed: int) -> tuple[Battle, RandomDice, np.random.Generator]:
    rng = np.random.default_rng(seed)
    blue, red = (FACTIONS[int(i)] for i in rng.integers(0, len(FACTIONS), size=2))
    dice = RandomDice(np.random.default_rng(seed + 10_000))
    battle = new_skirmish(
        rng,
        dice,
        blue=blue,
        red=red,
        mechs_per_side=int(rng.integers(1, 5)),
        stars=int(rng.integers(0, 2)),
        options=BattleOptions(max_turns=12),
    )
    return battle, dice, rng


def _check_invariants(battle: Battle, before: dict[int, list[int]]) -> None:
    live = [m for m in battle.mechs.values() if m.removed is None]
    contact = 2 * battle.options.base_radius - 1e-6
    for i, a in enumerate(live):
        for b in live[i + 1 :]:
            # no two mechs in one place (bases may touch only in melee contact)
            assert distance(a.pos, b.pos) >= contact * 0.999, (a.id, b.id, a.pos, b.pos)
    for mech in battle.mechs.values():
        assert all(now <= then for now, then in zip(mech.armor, before[mech.id], strict=True))
        assert mech.rep >= 0
    decision = battle.decision
    if not battle.over:
        assert decision is not None
        assert game.legal_actions(battle), f"no legal options at {decision}"
        if decision.mech is not None:
            assert battle.mechs[decision.mech].removed is None, "a removed mech is asked to act"


def _playout(seed: int) -> Battle:
    battle, dice, rng = _skirmish(seed)
    steps = 0
    gone: set[int] = set()
    while not battle.over:
        before = {m.id: list(m.armor) for m in battle.mechs.values()}
        options = game.legal_actions(battle)
        action = options[int(rng.integers(len(options)))]
        events = game.play(battle, action, dice)
        for event in events:  # removed mechs never act again
            actor = getattr(event, "shooter", None)
            if actor is None and type(event).__name__ in ("MechMoved", "MechFaced", "StoodUp"):
                actor = event.mech
            assert actor not in gone, f"removed mech {actor} acted: {event}"
            if type(event).__name__ == "MechRemoved":
                gone.add(event.mech)
        _check_invariants(battle, before)
        steps += 1
        assert steps < 5000
    return battle


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_14_playouts_end_without_exception_and_keep_invariants(chunk: int) -> None:
    per = PLAYOUTS // CHUNKS
    outcomes = set()
    for seed in range(chunk * per, (chunk + 1) * per):
        battle = _playout(seed)
        assert battle.over
        assert battle.end_reason in ("side eliminated", "turn limit")
        outcomes.add(battle.end_reason)
    assert outcomes


def _record(seed: int, n: int) -> tuple[list[dict], list[dict], Battle]:
    battle, dice, rng = _skirmish(seed)
    actions, log = [], []
    for _ in range(n):
        if battle.over:
            break
        options = game.legal_actions(battle)
        action = options[int(rng.integers(len(options)))]
        actions.append(action_to_dict(action))
        log.extend(e.to_dict() for e in game.play(battle, action, dice))
    return actions, log, battle


def test_14_same_seed_same_decisions_same_event_log() -> None:
    first = _record(3, 200)
    second = _record(3, 200)
    assert first[0] == second[0]
    assert first[1] == second[1]
    assert first[2].to_dict() == second[2].to_dict()


def test_14_replaying_recorded_decisions_reproduces_the_log() -> None:
    actions, log, _ = _record(5, 150)
    battle, dice, _rng = _skirmish(5)
    replayed = []
    for data in actions:
        replayed.extend(e.to_dict() for e in game.play(battle, action_from_dict(data), dice))
    assert replayed == log
    events = [NO_QUARTER_EVENTS.from_dict(e) for e in log]
    assert [e.to_dict() for e in events] == log


@pytest.mark.parametrize("seed", [1, 2, 8, 13])
def test_14_json_round_trip_mid_game_is_identity_and_resumes_identically(seed: int) -> None:
    battle, dice, rng = _skirmish(seed)
    for step in range(400):
        if battle.over:
            break
        if step % 25 == 0:
            text = json.dumps(battle.to_dict())
            restored = Battle.from_dict(json.loads(text))
            assert restored.to_dict() == battle.to_dict()
            assert game.legal_actions(restored) == game.legal_actions(battle)
            twin_dice = copy.deepcopy(dice)
            twin_rng = copy.deepcopy(rng)
            options = game.legal_actions(restored)
            pick = options[int(twin_rng.integers(len(options)))]
            a = [e.to_dict() for e in game.play(restored, pick, twin_dice)]
            clone = battle.clone()
            clone_dice = copy.deepcopy(dice)
            b = [e.to_dict() for e in game.play(clone, pick, clone_dice)]
            assert a == b
        options = game.legal_actions(battle)
        game.play(battle, options[int(rng.integers(len(options)))], dice)


def test_14_clone_is_independent() -> None:
    battle, dice, rng = _skirmish(4)
    twin = battle.clone()
    options = game.legal_actions(twin)
    game.play(twin, options[-1], dice)
    assert battle.to_dict() != twin.to_dict()
    assert battle.frames is not twin.frames


def test_14_illegal_action_raises_and_leaves_state_untouched() -> None:
    battle, dice, _ = _skirmish(6)
    before = json.dumps(battle.to_dict(), sort_keys=True)
    with pytest.raises(IllegalActionError, match="not legal"):
        game.play(battle, Move(999, (1.0, 1.0)), dice)
    assert json.dumps(battle.to_dict(), sort_keys=True) == before


def test_14_move_to_unlisted_point_is_checked_geometrically() -> None:
    battle, dice, rng = _skirmish(9)
    while not battle.over:
        options = game.legal_actions(battle)
        moves = [o for o in options if isinstance(o, Move) and not o.reverse and not o.jump]
        if moves:
            mech = battle.mechs[moves[0].mech]
            before = json.dumps(battle.to_dict(), sort_keys=True)
            too_far = (mech.pos[0], mech.pos[1] + 100.0)
            with pytest.raises(IllegalActionError):
                game.play(battle, Move(mech.id, too_far), dice)
            assert json.dumps(battle.to_dict(), sort_keys=True) == before
            near = (
                mech.pos[0] + 0.3 * (moves[0].to[0] - mech.pos[0]),
                mech.pos[1] + 0.3 * (moves[0].to[1] - mech.pos[1]),
            )
            game.play(battle, Move(mech.id, near), dice)
            return
        game.play(battle, options[int(rng.integers(len(options)))], dice)
    pytest.fail("no move decision reached")


def test_14_loading_bad_saves_fails_clearly() -> None:
    battle, _, _ = _skirmish(2)
    data = battle.to_dict()
    with pytest.raises(StateError, match="version"):
        Battle.from_dict({**data, "version": 99})
    broken = json.loads(json.dumps(data))
    broken["mechs"]["0"]["armor"] = "lots"
    with pytest.raises(StateError, match="armor"):
        Battle.from_dict(broken)
    with pytest.raises(StateError):
        Battle.from_dict([1, 2])
    with pytest.raises(StateError, match="unknown"):
        action_from_dict({"type": "Teleport"})


def test_14_from_dict_never_shares_data_with_its_input() -> None:
    battle, dice, rng = _skirmish(12)
    data = json.loads(json.dumps(battle.to_dict()))
    snapshot = json.dumps(data, sort_keys=True)
    restored = Battle.from_dict(data)
    for _ in range(30):
        if restored.over:
            break
        options = game.legal_actions(restored)
        game.play(restored, options[int(rng.integers(len(options)))], dice)
    assert json.dumps(data, sort_keys=True) == snapshot
