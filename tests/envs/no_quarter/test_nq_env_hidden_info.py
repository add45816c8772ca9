"""Fog of war: what a side cannot see never reaches its observation, mask or info."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from wargym.envs.no_quarter.encoding import (
    ObservationEncoder,
    filter_events,
    mechs_named,
    visible_enemies,
)
from wargym.envs.no_quarter.solo import NoQuarterSkirmishEnv
from wargym.rules.dice import Dice, RandomDice
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Side, Terrain

BLUE = ("star_army_c3", "star_army_c4")
RED = ("hishen_c3", "hishen_c4")


def _wall(x1: float = 36.0) -> Battlefield:
    """Buildings across the middle of the table from x = 0 to ``x1`` (no gaps)."""
    edges = np.arange(0.0, x1, 6.0)
    return Battlefield(
        features=tuple(
            Feature(Terrain.BUILDING, float(x), 17.0, float(min(x1, x + 6.0)), 19.0) for x in edges
        )
    )


def _factory(red_damage: int) -> Any:
    def build(rng: np.random.Generator, dice: Dice) -> Battle:
        forces = [
            ForceSpec(Side.BLUE, Faction.STAR_ARMY, BLUE),
            ForceSpec(Side.RED, Faction.HISHEN, RED),
        ]
        battle = new_battle(forces, _wall(), rng, dice, BattleOptions(max_turns=3))
        red = max(battle.mechs)
        battle.mechs[red].armor[3] -= red_damage  # hidden behind the wall from blue
        return battle

    return build


def _assert_same(a: Any, b: Any) -> None:
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            _assert_same(a[key], b[key])
    elif isinstance(a, np.ndarray):
        assert np.array_equal(a, b)
    elif isinstance(a, list | tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _assert_same(x, y)
    else:
        assert a == b


def test_nq_hidden_enemy_difference_never_reaches_the_agent() -> None:
    envs = [
        NoQuarterSkirmishEnv(
            battle_factory=_factory(d), mechs_per_side=2, max_turns=3, info_events=True
        )
        for d in (0, 3)
    ]
    first = [env.reset(seed=8) for env in envs]
    _assert_same(first[0], first[1])
    assert envs[0].battle.mechs[3].armor != envs[1].battle.mechs[3].armor
    rng = np.random.default_rng(0)
    for _ in range(200):
        action = int(rng.choice(np.flatnonzero(envs[0].action_masks())))
        results = [env.step(action) for env in envs]
        assert not visible_enemies(envs[0].battle, Side.BLUE)
        _assert_same(results[0], results[1])
        for *_, info in results:
            for event in info["events"]:
                assert not any(envs[0].battle.mechs[i].side is Side.RED for i in _named(event))
        if results[0][2]:
            break


def _named(event: dict[str, Any]) -> set[int]:
    from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS

    return mechs_named(NO_QUARTER_EVENTS.from_dict(event))


def _half_wall_battle() -> Battle:
    forces = [
        ForceSpec(Side.BLUE, Faction.STAR_ARMY, BLUE),
        ForceSpec(Side.RED, Faction.HISHEN, RED),
    ]
    battle = new_battle(forces, _wall(18.0), np.random.default_rng(1), RandomDice.from_seed(1))
    positions = {0: (5.0, 2.0), 1: (9.0, 2.0), 2: (30.0, 30.0), 3: (5.0, 30.0)}
    for mech_id, pos in positions.items():
        battle.mechs[mech_id].pos = pos
    return battle


def test_nq_hidden_observation_shows_only_enemies_in_sight() -> None:
    battle = _half_wall_battle()
    assert visible_enemies(battle, Side.BLUE) == {2}
    encoder = ObservationEncoder(max_mechs=2, flatten=False)
    obs = encoder.encode(battle, Side.BLUE)
    assert isinstance(obs, dict)
    assert obs["unit_mask"].tolist() == [1, 1, 1, 0]
    assert obs["planes"][-4].sum() == 1.0  # one enemy marked
    twin = battle.clone()
    twin.mechs[3].pos = (2.0, 33.0)
    twin.mechs[3].armor[0] -= 1
    twin_obs = encoder.encode(twin, Side.BLUE)
    assert isinstance(twin_obs, dict)
    _assert_same(obs, twin_obs)


def test_nq_hidden_events_about_unseen_enemies_are_filtered() -> None:
    battle = _half_wall_battle()
    hidden_move = ev.MechMoved(3, ((5.0, 30.0), (6.0, 30.0)), 270.0, 1.0, 1.0, "voluntary")
    seen_move = ev.MechMoved(2, ((30.0, 30.0), (30.0, 29.0)), 270.0, 1.0, 1.0, "voluntary")
    into_sight = ev.MechMoved(3, ((6.0, 30.0), (30.0, 24.0)), 0.0, 4.0, 4.0, "voluntary")
    out_of_sight = ev.MechMoved(2, ((30.0, 29.0), (8.0, 30.0)), 180.0, 4.0, 4.0, "voluntary")
    turn = ev.TurnStarted(2)
    events = [hidden_move, seen_move, turn, into_sight, out_of_sight]
    kept, now = filter_events(battle.clone(), events, [Side.BLUE, Side.RED])
    assert kept[Side.BLUE] == [e.to_dict() for e in (seen_move, turn, into_sight)]
    assert kept[Side.RED] == [e.to_dict() for e in events]  # red's own mechs
    assert now[Side.BLUE] == {3}


# -- choice E5: the mask never depends on an unseen base ------------------------------------
E5_HIDDEN, E5_ELSEWHERE = (10.0, 10.0), (20.0, 9.8)


def _e5_factory(red_at: tuple[float, float]) -> Any:
    """Blue faces north above a strip of woods; red hides below it, on or off blue's path."""

    def build(rng: np.random.Generator, dice: Dice) -> Battle:
        field = Battlefield(features=(Feature(Terrain.WOODS, 0.0, 10.6, 36.0, 11.4),))
        forces = [
            ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",)),
            ForceSpec(Side.RED, Faction.HISHEN, ("hishen_c3",)),
        ]
        battle = new_battle(forces, field, rng, dice, BattleOptions(max_turns=2))
        battle.mechs[0].pos, battle.mechs[0].heading = (10.0, 13.0), 90.0
        battle.mechs[1].pos, battle.mechs[1].heading = red_at, 90.0
        return battle

    return build


def _red_played(env: NoQuarterSkirmishEnv) -> bool:
    return any(step["agent"] == "red" for step in env._log)


@pytest.mark.parametrize("unseen_bases", ["bump", "block"])
def test_nq_hidden_e5_masks_ignore_unseen_bases(unseen_bases: str) -> None:
    """With the envs' default (bump) the masks match; the tabletop's block leaks (the control)."""
    envs = [
        NoQuarterSkirmishEnv(
            battle_factory=_e5_factory(pos),
            mechs_per_side=1,
            max_turns=2,
            battle_options={"unseen_bases": unseen_bases},
        )
        for pos in (E5_HIDDEN, E5_ELSEWHERE)
    ]
    results = [env.reset(seed=0) for env in envs]
    assert all(env.battle.options.unseen_bases == unseen_bases for env in envs)
    kinds, same = [], True
    for _ in range(2):  # seed 0: blue activates, then its mech acts; red has not played yet
        assert not any(_red_played(env) for env in envs)
        assert not visible_enemies(envs[0].battle, Side.BLUE)
        kinds.append(envs[0].battle.decision.kind.value)
        try:
            _assert_same(results[0], results[1])
        except AssertionError:
            same = False
            break
        action = int(np.flatnonzero(envs[0].action_masks())[0])
        results = [env.step(action)[::4] for env in envs]  # (obs, info)
    assert kinds[-1] == "mech_action"
    assert same is (unseen_bases == "bump")


def test_nq_hidden_e5_every_env_plays_bump_by_default() -> None:
    import gymnasium

    import wargym.envs  # noqa: F401

    for env_id, kwargs in (
        ("wargym/NoQuarter-Skirmish-v1", {"mechs_per_side": 1}),
        ("wargym/NoQuarter-Patrol-v1", {}),
        ("wargym/NoQuarter-Patrol-v1", {"options": {"battle": {"unseen_bases": "block"}}}),
    ):
        env = gymnasium.make(env_id, **kwargs).unwrapped
        env.reset(seed=0)
        wanted = kwargs.get("options", {}).get("battle", {}).get("unseen_bases", "bump")
        assert env.battle.options.unseen_bases == wanted, env_id
