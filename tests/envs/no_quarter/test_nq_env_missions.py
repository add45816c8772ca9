"""The No Quarter mission envs (Patrol, Attack, Defend): encoding, fog of war, SB3, determinism."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from typing import Any

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.envs.no_quarter.codec import WAIT
from wargym.envs.no_quarter.encoding import ObservationEncoder, filter_events, mechs_named
from wargym.envs.no_quarter.mission import (
    DEFAULT_SCENARIOS,
    NoQuarterAttackEnv,
    NoQuarterDefendEnv,
    NoQuarterMissionEnv,
    NoQuarterPatrolEnv,
    build_scenario,
)
from wargym.envs.no_quarter.mission_encoding import (
    MISSION_FIELDS,
    MISSION_KINDS,
    SightingOrder,
)
from wargym.rules.dice import Dice, FallbackDice, RandomDice
from wargym.rules.errors import StateError, TableError
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.mission.missions import AttackObjective
from wargym.rules.no_quarter.non_player import np_events as npev

MISSION_IDS = [
    "wargym/NoQuarter-Patrol-v1",
    "wargym/NoQuarter-Attack-v1",
    "wargym/NoQuarter-Defend-v1",
]
NQ_IDS = ["wargym/NoQuarter-Skirmish-v1", *MISSION_IDS]
FAST: dict[str, Any] = {"max_turns": 3, "max_mechs": 12, "info_events": True}


def fast(env_id: str) -> dict[str, Any]:
    return (
        {"max_turns": 3, "mechs_per_side": 2, "info_events": True}
        if "Skirmish" in env_id
        else dict(FAST)
    )


def _same(a: Any, b: Any) -> None:
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            _same(a[key], b[key])
    elif isinstance(a, np.ndarray):
        assert np.array_equal(a, b)
    elif isinstance(a, list | tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
    else:
        assert a == b


# -- configuration ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cls", "kind"),
    [
        (NoQuarterPatrolEnv, "patrol"),
        (NoQuarterAttackEnv, "attack"),
        (NoQuarterDefendEnv, "defend"),
    ],
)
def test_nq_mission_each_id_plays_its_default_scenario(cls: Any, kind: str) -> None:
    env = cls(**FAST)
    assert env.scenario.name == DEFAULT_SCENARIOS[kind] and env.scenario.kind == kind
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    v1 = ObservationEncoder(12, 8, max_turns=3)
    assert obs["observation"].shape == (v1.size + len(MISSION_FIELDS),)
    assert env.encoder.version == "nq-obs-v4" and info["mission"]["kind"] == kind
    assert env.battle.decision is not None and env.battle.decision.side is Side.BLUE


def test_nq_mission_keyword_overrides_are_checked_like_scenario_files() -> None:
    sc = build_scenario(
        "patrol_star_army_vs_hishen",
        options={"terrain": {"overall": "wooded"}, "rules": {"strict_mounting": True}},
        player={"campaign_morale": 5, "mechs": ["star_army_c3", "star_army_c4"]},
        max_turns=7,
    )
    assert sc.player.campaign_morale == 5 and sc.player.mechs == ("star_army_c3", "star_army_c4")
    assert sc.turn_limit == 7 and sc.options.rules.strict_mounting
    assert sc.options.terrain.overall.value == "wooded"
    with pytest.raises(TableError, match="no_such_option"):
        build_scenario("patrol_star_army_vs_hishen", options={"battle": {"no_such_option": 1}})
    with pytest.raises(TableError, match="no such scenario"):
        NoQuarterPatrolEnv(scenario="no_such_scenario")
    with pytest.raises(ValueError, match="not a patrol"):
        NoQuarterPatrolEnv(scenario="defend_pdf_vs_hishen")
    env = gymnasium.make("wargym/NoQuarter-Attack-v1", scenario="attack_iss_vs_hishen", **FAST)
    env.reset(seed=1)
    assert env.unwrapped.battle.mission["attack_objective"] == "break_through"  # type: ignore[attr-defined]


def test_nq_mission_generic_env_takes_any_scenario_a_skirmish_too() -> None:
    with pytest.raises(ValueError, match="needs a scenario"):
        NoQuarterMissionEnv()
    env = NoQuarterMissionEnv(scenario="skirmish", max_turns=2, max_mechs=3)
    obs, info = env.reset(seed=0)
    assert "mission" not in info and env.battle.np is None
    rng = np.random.default_rng(0)
    for _ in range(500):
        obs, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated:
            break
    assert terminated and info["outcome"]["reason"]
    tail = obs["observation"][-len(MISSION_FIELDS) :]
    assert not tail.any()  # no mission features outside a mission


def test_nq_mission_globals_and_pef_plane_show_what_the_player_knows() -> None:
    env = NoQuarterAttackEnv(flatten=False, **FAST)
    obs, _ = env.reset(seed=3)
    parts = obs["observation"]
    battle = env.battle
    tail = parts["globals"][env.encoder.base_global_size :]
    fields = dict(zip(MISSION_FIELDS, tail.tolist(), strict=True))
    assert [fields[f"mission_{k}"] for k in MISSION_KINDS] == [0.0, 1.0, 0.0]
    assert fields["objective_destroy"] == 1.0 and fields["objective_break_through"] == 0.0
    assert fields["exit_north"] == 1.0 and fields["exit_south"] == 0.0
    assert fields["pefs_on_table"] == pytest.approx(len(battle.np["pefs"]) / 8.0)
    assert fields["own_campaign_morale"] == pytest.approx(4 / 6)
    cells = {(int(m["pos"][1]), int(m["pos"][0])) for m in battle.np["pefs"]}
    cells = {(min(r, 35), min(c, 35)) for r, c in cells}
    marked = {tuple(int(v) for v in rc) for rc in np.argwhere(parts["planes"][15] > 0)}
    assert cells and marked == cells


def test_nq_mission_rewards_success_failure_and_shaping() -> None:
    env = NoQuarterPatrolEnv(reward_shaping={"recon": 0.5, "exit": 0.25}, **FAST)
    env.reset(seed=0)
    battle = env.battle
    own = battle.mechs_of(Side.BLUE)[0].id
    battle.mission["recon"] = [1, 2, 7]
    exit_move = {"type": "MechMoved", "mech": own, "kind": "exit"}
    assert env._shaped([exit_move], Side.BLUE) == pytest.approx(2 * 0.5 + 0.25)
    assert env._shaped([], Side.BLUE) == 0.0  # recon counted once
    with pytest.raises(ValueError, match="unknown reward_shaping"):
        NoQuarterPatrolEnv(reward_shaping={"gold": 1.0})
    rng = np.random.default_rng(0)
    plain = NoQuarterDefendEnv(**FAST)
    obs, _ = plain.reset(seed=2)
    for _ in range(3000):
        obs, reward, terminated, truncated, info = plain.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if terminated:
            break
    assert terminated and info["mission"]["outcome"] in ("success", "failure")
    assert reward == (1.0 if info["mission"]["outcome"] == "success" else -1.0)
    assert info["outcome"]["reason"].startswith("mission " + info["mission"]["outcome"])


def test_nq_mission_illegal_action_changes_nothing_and_replay_names_v2(tmp_path: Any) -> None:
    env = NoQuarterPatrolEnv(**FAST)
    obs, _ = env.reset(seed=4)
    state = env.battle.to_dict()
    obs2, reward, terminated, _, info = env.step(WAIT)
    assert info["illegal_action"] and reward == pytest.approx(-0.01) and not terminated
    assert env.battle.to_dict() == state and np.array_equal(obs["observation"], obs2["observation"])
    env.save_replay(tmp_path / "r.json")
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["observation_version"] == "nq-obs-v4" and data["action_version"] == "nq-act-v2"


def test_nq_mission_render_modes() -> None:
    text = NoQuarterDefendEnv(render_mode="ansi", **FAST)
    text.reset(seed=1)
    frame = text.render()
    assert isinstance(frame, str) and frame.startswith("turn ")
    image = NoQuarterDefendEnv(render_mode="rgb_array", **FAST)
    image.reset(seed=1)
    pixels = image.render()
    assert isinstance(pixels, np.ndarray) and pixels.shape == (288, 288, 3)


def test_nq_mission_options_beyond_the_slots_are_played_for_the_agent() -> None:
    env = NoQuarterPatrolEnv(max_turns=2, max_mechs=1)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        mask = env.action_masks()
        assert mask.any()  # never stuck: unexpressible decisions are auto-played
        obs, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated:
            break
    assert terminated and env.auto_played > 0


# -- fog of war ---------------------------------------------------------------------------------


def test_nq_mission_sighting_order_numbers_enemies_as_first_seen() -> None:
    env = NoQuarterPatrolEnv(**FAST)
    env.reset(seed=0)
    battle = env.battle.clone()
    battle.mechs = {i: m for i, m in battle.mechs.items() if m.side is Side.BLUE}
    blue = list(battle.mechs)
    red_ids = [100, 101, 102]
    for new_id in red_ids:  # three enemies, by id
        twin = dataclasses.replace(battle.mechs[blue[0]], id=new_id, side=Side.RED)
        battle.mechs[new_id] = twin
    order = SightingOrder()
    assert order(battle, Side.BLUE).enemy == (100, 101, 102)
    order.note({Side.BLUE: frozenset({102})})
    order.note({Side.BLUE: frozenset({101, 102})})
    assert order(battle, Side.BLUE).enemy == (102, 101, 100)
    order.reset()
    assert order(battle, Side.BLUE).enemy == (100, 101, 102)


def test_nq_mission_filter_hides_np_secrets_and_unseen_groups() -> None:
    env = NoQuarterDefendEnv(**FAST)
    env.reset(seed=5)
    battle = env.battle
    pef = battle.np["pefs"][0]["id"]
    secret = npev.NpTableRolled("22.3.1", None, (4,), None, "break_through")
    orders = npev.NpGroupSet(-1, {"posture": "attack", "objective": "destroy"}, "secret objective")
    unseen = npev.NpTableRolled("22.1.6", 999, (3, 5), 1, "advance")
    np_reinforced = npev.ReinforcementChecked(Side.RED, (2, 3), 2, (4,), 5, "squad", 2)
    own_reinforced = npev.ReinforcementChecked(Side.BLUE, (6, 6), 0, (), None, "none", 0)
    placed = npev.PefPlaced(77, (10.0, 30.0), None, None, True, None)
    resolved = npev.PefResolved(pef, (0,), (2, 5), (2, 5), 1, "false_alarm", False, None, 0, False)
    weather = npev.WeatherChanged((3, 3), {"label": "clear"}, False, False)
    events = [secret, orders, unseen, np_reinforced, own_reinforced, placed, resolved, weather]
    kept, _ = filter_events(battle.clone(), events, [Side.BLUE, Side.RED])
    assert kept[Side.BLUE] == [e.to_dict() for e in (own_reinforced, placed, resolved, weather)]
    assert kept[Side.RED] == [e.to_dict() for e in events]  # the NP side knows its own
    arrival = npev.MechsArrived(Side.RED, 300, "contact", ())
    assert mechs_named(arrival) == set()


def _recording(log: list[int]) -> Any:
    class Recorder:
        def __init__(self, rng: np.random.Generator) -> None:
            self.dice = RandomDice(rng)

        def roll(self, n: int) -> tuple[int, ...]:
            faces = self.dice.roll(n)
            log.extend(faces)
            return faces

    return Recorder


def test_nq_mission_unrolled_pef_dice_never_leak() -> None:
    """Two missions identical up to now, with different dice for every later roll."""
    env_id_kwargs: dict[str, Any] = {**FAST, "max_turns": 8}
    log: list[int] = []
    first = NoQuarterPatrolEnv(dice_factory=_recording(log), **env_id_kwargs)
    rng = np.random.default_rng(7)
    obs, info = first.reset(seed=9)
    actions = []
    for _ in range(6):
        actions.append(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        obs, *_ = first.step(actions[-1])
    prefix = list(log)
    assert first.battle.np["pefs"], "some PEFs are still unresolved"

    def other(dice_rng: np.random.Generator) -> Dice:
        return FallbackDice(list(prefix), np.random.default_rng(12345))

    envs = [NoQuarterPatrolEnv(dice_factory=other, **env_id_kwargs) for _ in range(1)]
    envs.insert(0, NoQuarterPatrolEnv(dice_factory=_recording([]), **env_id_kwargs))
    resets = [env.reset(seed=9) for env in envs]
    _same(resets[0], resets[1])
    for action in actions:
        steps = [env.step(action) for env in envs]
        _same(steps[0], steps[1])
        assert np.array_equal(envs[0].action_masks(), envs[1].action_masks())
    # the hidden futures do differ: the next rolls come from different streams
    assert [envs[0]._dice.roll(6) for _ in range(3)] != [envs[1]._dice.roll(6) for _ in range(3)]


def test_nq_mission_secret_np_objective_never_leaks() -> None:
    """Defend missions that differ only in the NP objective look alike until contact."""
    base = build_scenario("defend_star_army_vs_hishen", max_turns=8)
    envs = [
        NoQuarterDefendEnv(scenario=dataclasses.replace(base, np_objective=o), max_mechs=12)
        for o in AttackObjective
    ]
    seed = next(  # a set-up without contact yet
        s
        for s in range(50)
        if not any(env.reset(seed=s) and env.battle.mechs_of(Side.RED) for env in envs)
    )
    results = [env.reset(seed=seed) for env in envs]
    assert {env.battle.mission["np_objective"] for env in envs} == {"destroy", "break_through"}
    _same(results[0], results[1])
    rng = np.random.default_rng(4)
    compared = 0
    for _ in range(60):
        if any(env.battle.mechs_of(Side.RED) for env in envs) or envs[0].battle.over:
            break  # after contact the NP groups act on their objective, as they should
        action = int(rng.choice(np.flatnonzero(envs[0].action_masks())))
        steps = [env.step(action) for env in envs]
        _same(steps[0], steps[1])
        compared += 1
    assert compared >= 3


# -- determinism across processes ----------------------------------------------------------------

_TRACE = """
import hashlib, json, sys
import numpy as np, gymnasium, wargym.envs
out = {}
for env_id, kwargs in json.loads(sys.argv[1]).items():
    env = gymnasium.make(env_id, **kwargs)
    digest = hashlib.sha256()
    obs, info = env.reset(seed=17)
    rng = np.random.default_rng(17)
    for _ in range(80):
        obs, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        digest.update(obs["observation"].tobytes())
        digest.update(json.dumps([reward, terminated, info["events"]], sort_keys=True).encode())
        if terminated or truncated:
            obs, info = env.reset()
    out[env_id] = digest.hexdigest()
print(json.dumps(out))
"""


def test_nq_mission_same_seed_and_actions_reproduce_across_processes() -> None:
    arg = json.dumps({env_id: fast(env_id) for env_id in NQ_IDS})
    runs = []
    for hash_seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", _TRACE, arg],
            capture_output=True,
            text=True,
            timeout=300,
            env={"PYTHONHASHSEED": hash_seed, "PATH": "/usr/bin:/bin"},
        )
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    assert runs[0] == runs[1] and set(runs[0]) == set(NQ_IDS)


# -- Stable-Baselines3 and sb3-contrib ------------------------------------------------------------


@pytest.mark.parametrize("env_id", NQ_IDS)
def test_nq_mission_sb3_make_vec_env_with_masks(env_id: str) -> None:
    env_util = pytest.importorskip("stable_baselines3.common.env_util")
    venv = env_util.make_vec_env(lambda: gymnasium.make(env_id, **fast(env_id)), n_envs=2, seed=3)
    obs = venv.reset()
    rng = np.random.default_rng(3)
    for _ in range(40):
        masks = np.stack(venv.env_method("action_masks"))
        assert masks.dtype == np.bool_ and np.array_equal(masks, obs["action_mask"].astype(bool))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, _, _, infos = venv.step(actions)
        assert not any(info.get("illegal_action") for info in infos)
    venv.close()


@pytest.mark.slow  # 35-90 s each on a loaded 2-core machine
@pytest.mark.parametrize("env_id", NQ_IDS)
def test_nq_mission_maskable_ppo_smoke(env_id: str) -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    torch = pytest.importorskip("torch")
    env_util = pytest.importorskip("stable_baselines3.common.env_util")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        venv = env_util.make_vec_env(lambda: gymnasium.make(env_id, **fast(env_id)), seed=0)
        model = sb3_contrib.MaskablePPO(
            "MultiInputPolicy",
            venv,
            n_steps=256,
            batch_size=64,
            n_epochs=1,
            policy_kwargs={"net_arch": [32]},
            seed=0,
            device="cpu",
        )
        model.learn(total_timesteps=2048)
        assert model.num_timesteps >= 2048
        obs = venv.reset()
        masks = np.stack(venv.env_method("action_masks"))
        action, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[0, int(action[0])]
    finally:
        torch.set_num_threads(threads)


class _RedAgent:
    """Answers the NP side's decisions with its first legal index; records what it was shown."""

    def __init__(self) -> None:
        self.calls = 0

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        assert action_mask.any()
        self.calls += 1
        return int(np.flatnonzero(action_mask)[0])


@pytest.mark.parametrize("cls", [NoQuarterPatrolEnv, NoQuarterDefendEnv])
def test_nq_mission_np_seat_can_be_an_agent(cls: Any) -> None:
    """§22.4 seat: an agent answers the NP decisions; the rules still run the PEFs."""
    agent = _RedAgent()
    env = cls(opponent=agent, **FAST)
    obs, _ = env.reset(seed=4)
    assert env.battle.np is not None and env.battle.np["external"] is True
    # seeds 0 and 1 (since the face decision, E20): the random player meets no NP mech in time
    rng = np.random.default_rng(2)
    for _ in range(300):
        obs, _, done, cut, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if done or cut:
            break
    events = [e for step in env._log for e in step["events"]]
    assert not [e for e in events if isinstance(e, npev.NpGroupSet) and e.reason == "activation"]
    agents = {step["agent"] for step in env._log}
    assert agent.calls > 0 and "red" in agents
    red_steps = [step for step in env._log if step["agent"] == "red"]
    assert all(step["index"] is not None for step in red_steps)
    assert env._start is not None and env._start.np["external"] is True  # replays see it


def test_nq_mission_rules_seat_is_unchanged_and_snapshots_keep_the_seat() -> None:
    rules = NoQuarterPatrolEnv(**FAST)
    rules.reset(seed=4)
    assert "external" not in (rules.battle.np or {})
    assert not any(step["agent"] == "red" for step in rules._log)  # decided inside the engine
    seated = NoQuarterPatrolEnv(opponent="random", **FAST)
    seated.reset(seed=4)
    for _ in range(20):
        seated.step(int(np.flatnonzero(seated.action_masks())[0]))
    snapshot = json.loads(json.dumps(seated.save_state()))
    again = NoQuarterPatrolEnv(opponent="random", **FAST)
    again.load_state(snapshot)
    assert again.battle.np["external"] is True
    assert again.save_state() == seated.save_state()
    with pytest.raises(StateError, match="opponent"):
        NoQuarterPatrolEnv(**FAST).load_state(snapshot)  # a rules seat refuses it


def test_nq_mission_pef_contact_with_no_room_shifts_its_mechs() -> None:
    """Fuzz regression (seed 2021, 1M run): a PEF resolved as a contact where no spot near the
    marker was free made an empty ``MechsArrived`` and crashed; then nothing arrived; now every
    mech stands on the nearest legal spot, none dropped (§20.3 ruling, E6 revised)."""
    env = gymnasium.make(
        "wargym/NoQuarter-Defend-v1",
        scenario="defend_pdf_vs_hishen",
        max_turns=1,
        options={
            "rules": {"zhuh_zhuh_restriction": "printed"},
            "battle": {"unseen_bases": "block"},
        },
    )
    env.reset(seed=303365263)
    # re-found by random play after issue 15 (mandatory In Sight fire, owner-ordered winners of
    # equal Rep): the fuzz's trail held an In Sight winner's fire, which the rules no longer allow
    trail = [72, 322, 304, 70, 302, 65, 397, 73, 283, 329, 69, 286, 325, 75, 66, 329, 304, 68]
    trail += [67, 329, 289, 4, 163, 34, 33, 6, 107, 647, 289, 164, 12, 250, 641, 98, 40, 7, 104, 43]
    for action in trail:  # masked-out indices among them change nothing (illegal_action="noop")
        env.step(action)
    crowded = [
        step
        for step in env.unwrapped._log
        if any(isinstance(e, npev.PefResolved) and e.result == "contact" for e in step["events"])
    ]
    assert crowded, "the trail no longer reaches the crowded contact"
    resolved = [e for e in crowded[-1]["events"] if isinstance(e, npev.PefResolved)]
    assert resolved[-1].enemies > 0  # a contact with mechs to place, and no room near it
    arrived = [e for e in crowded[-1]["events"] if isinstance(e, npev.MechsArrived)]
    assert arrived and len(arrived[-1].mechs) == resolved[-1].enemies  # nobody dropped
