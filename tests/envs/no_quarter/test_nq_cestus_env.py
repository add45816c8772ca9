"""``wargym/NoQuarter-CestusV-v1``: a whole Cestus V campaign as one episode (§23, §24, §27)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.envs.no_quarter.campaign_encoding import (
    CAMPAIGN_GLOBALS,
    MECH_FIELDS,
    PHASES,
    PILOT_FIELDS,
)
from wargym.envs.no_quarter.campaign_env import NoQuarterCampaignEnv
from wargym.envs.no_quarter.encoding import SECRET_TABLES, visible_enemies
from wargym.rules.dice import RandomDice
from wargym.rules.errors import IllegalActionError, StateError
from wargym.rules.no_quarter.battle import game as battle_game
from wargym.rules.no_quarter.battle.actions import Move
from wargym.rules.no_quarter.campaigns.campaign import load_definition
from wargym.rules.no_quarter.campaigns.campaign_play import (
    AssignPilot,
    CampaignGame,
    EndAssignment,
    LaunchMission,
    SelectMech,
)
from wargym.rules.no_quarter.forces.vocab import Faction, Side

ENV_ID = "wargym/NoQuarter-CestusV-v1"
FAST: dict[str, Any] = {"max_turns": 2}
"""Short missions keep a whole ten-mission campaign to a few seconds."""


def _unwrapped(env: gymnasium.Env) -> NoQuarterCampaignEnv:
    inner = env.unwrapped
    assert isinstance(inner, NoQuarterCampaignEnv)
    return inner


def _random_episode(
    env: gymnasium.Env, seed: int, limit: int = 20_000
) -> tuple[list[tuple[Any, ...]], dict[str, Any]]:
    """Masked-random play to the end of the campaign; returns a trace and the last info."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[tuple[Any, ...]] = []
    for _ in range(limit):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append(
            (action, reward, terminated, obs["observation"].tobytes(), json.dumps(info["events"]))
        )
        if terminated or truncated:
            return trace, info
    raise AssertionError("the campaign did not end")


# -- registration and checkers --------------------------------------------------------------


def test_nq_cestus_env_is_registered_with_a_campaign_time_limit() -> None:
    spec = gymnasium.spec(ENV_ID)
    assert spec.entry_point == "wargym.envs.no_quarter.campaign_env:NoQuarterCampaignEnv"
    assert spec.max_episode_steps == 100_000


def test_nq_cestus_env_gymnasium_check_env() -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(ENV_ID, max_turns=1, max_missions=1, render_mode="ansi")
    check_env(env.unwrapped)


def test_nq_cestus_env_stable_baselines3_check_env() -> None:
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env = gymnasium.make(ENV_ID, max_turns=1, max_missions=1)
    sb3_checker.check_env(env.unwrapped, warn=True, skip_render_check=True)


def test_nq_cestus_env_keyword_checks() -> None:
    with pytest.raises(ValueError, match="opponent must be one of"):
        NoQuarterCampaignEnv(opponent="nobody")
    with pytest.raises(ValueError, match="act"):
        NoQuarterCampaignEnv(opponent=object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown reward_shaping"):
        NoQuarterCampaignEnv(reward_shaping={"kills": 1.0})
    with pytest.raises(ValueError, match="max_turns"):
        NoQuarterCampaignEnv(max_turns=0)
    env = NoQuarterCampaignEnv(faction="hishen", rules_options={"morale_pass_cap": True})
    env.reset(seed=0)
    assert env.game.campaign.player.value == "hishen"
    assert env.definition.rules.morale_pass_cap is True


# -- whole campaigns ------------------------------------------------------------------------


def _whole_campaign(seed: int) -> set[str]:
    """A masked random campaign to its end, checked all the way; the phases it went through."""
    env = gymnasium.make(ENV_ID, **FAST)
    inner = _unwrapped(env)
    obs, info = env.reset(seed=seed)
    assert info["phase"] in ("assign", "select") and info["mission"] == 1
    rng = np.random.default_rng(seed)
    phases: set[str] = set()
    kinds: set[str] = set()
    missions_seen: list[int] = []
    total = 0.0
    space = env.observation_space
    for _ in range(20_000):
        mask = env.get_wrapper_attr("action_masks")()
        assert np.array_equal(mask, obs["action_mask"].astype(bool))
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        assert info["illegal_action"] is False
        json.dumps(info["events"])  # JSON-serialisable
        phases.add(info["phase"])
        kinds.update(e["type"] for e in info["events"])
        missions_seen.append(info["mission"])
        total += reward
        if len(missions_seen) % 50 == 0:
            assert space.contains(obs)
        if terminated or truncated:
            break
    assert terminated and not truncated
    campaign = inner.game.campaign
    assert campaign.over and inner.phase == "over" and not obs["action_mask"].any()
    assert campaign.played >= 2 and max(missions_seen) >= 2  # the mission count advanced
    assert {"battle", "select", "over"} <= phases
    assert {"MissionLaunched", "MissionFinished", "MoraleChanged", "CampaignEnded"} <= kinds
    assert info["outcome"] == {"result": campaign.result, "reason": campaign.end_reason}
    assert total == {"win": 1.0, "loss": -1.0, "draw": 0.0}[campaign.result]
    assert [r.name for r in campaign.history] == [
        s.name for s in campaign.definition.missions[: campaign.played]
    ]  # the printed order (§27.2)
    obs2, reward, terminated, _, _ = env.step(0)  # after the end: nothing happens
    assert terminated and reward == 0.0 and np.array_equal(obs2["observation"], obs["observation"])
    return phases


def test_27_whole_cestus_v_campaign_masked_random_reaches_its_end() -> None:
    # some seed loses a pilot's Mech, so a spare pilot is assigned ("assign"); which one depends
    # on every rule and on the rolled Company (§27.3), so a few seeds are tried
    for seed in (5, 3, 4, 6, 7, 8, 9, 10):
        if "assign" in _whole_campaign(seed):
            return
    raise AssertionError("no campaign of seeds 3-10 reached the assign phase")


def test_27_all_ten_cestus_v_missions_play_through_the_env() -> None:
    # starting Campaign Morale raised (a definition override) so that no side reaches 0 before
    # the last mission: every mission's own hooks run under the env (§27.5, §27.8)
    base = load_definition("cestus_v")
    morale = {Faction.STAR_ARMY: 30, Faction.HISHEN: 30, Faction.ISS: 5}
    definition = dataclasses.replace(base, starting_morale=morale)
    env = NoQuarterCampaignEnv(campaign=definition, max_turns=1)
    trace, info = _random_episode(env, seed=0)
    campaign = env.game.campaign
    assert [r.name for r in campaign.history] == [s.name for s in base.missions]
    assert campaign.end_reason == "last mission played; the higher Campaign Morale wins"
    assert info["outcome"]["result"] == campaign.result and info["mission"] == 10
    assert trace[-1][1] == {"win": 1.0, "loss": -1.0, "draw": 0.0}[campaign.result or ""]


def test_nq_cestus_env_same_seed_and_actions_give_identical_episodes() -> None:
    kwargs = {**FAST, "max_missions": 2}
    first, _ = _random_episode(gymnasium.make(ENV_ID, **kwargs), seed=8)
    second, _ = _random_episode(gymnasium.make(ENV_ID, **kwargs), seed=8)
    assert first == second and len(first) > 20


def test_nq_cestus_env_mission_shaping_rewards_each_mission() -> None:
    shaping = {"mission_success": 0.25, "mission_failure": 0.5}
    env = gymnasium.make(ENV_ID, max_turns=1, max_missions=3, reward_shaping=shaping)
    trace, info = _random_episode(env, seed=2)
    inner = _unwrapped(env)
    campaign = inner.game.campaign
    wins = sum(r.status == "success" for r in campaign.history)
    fails = len(campaign.history) - wins
    terminal = {"win": 1.0, "loss": -1.0, "draw": 0.0}[campaign.result or ""]
    total = sum(step[1] for step in trace)
    assert len(campaign.history) == 3 and info["outcome"]["result"] == campaign.result
    assert total == pytest.approx(terminal + 0.25 * wins - 0.5 * fails)


# -- illegal actions ------------------------------------------------------------------------


def test_nq_cestus_env_illegal_action_noop_changes_nothing() -> None:
    env = NoQuarterCampaignEnv(**FAST)
    obs, _ = env.reset(seed=1)
    state = json.dumps(env.game.to_dict())
    obs2, reward, terminated, truncated, info = env.step(0)  # a battle index between missions
    assert reward == -0.01 and not terminated and not truncated
    assert info["illegal_action"] is True and info["events"] == []
    assert json.dumps(env.game.to_dict()) == state
    assert np.array_equal(obs["observation"], obs2["observation"])


@pytest.mark.parametrize("phase", ["campaign", "battle"])
def test_nq_cestus_env_illegal_action_raise_names_action_and_decision(phase: str) -> None:
    env = NoQuarterCampaignEnv(illegal_action="raise", **FAST)
    obs, _ = env.reset(seed=1)
    if phase == "battle":
        launch = env.campaign_codec.offsets["launch"]
        select = env.campaign_codec.offsets["select"]
        obs, *_ = env.step(select)
        obs, *_ = env.step(launch)
        assert env.phase == "battle"
        bad = env.n - 1  # a campaign index during a battle
        decision = env.game.decider()
        assert decision is not None
        pattern = rf"action {bad} .* not legal at the {decision.kind.value} decision"
    else:
        bad = 0
        pattern = r"action 0 .* not legal at the select_force decision"
    assert not obs["action_mask"][bad]
    with pytest.raises(IllegalActionError, match=pattern):
        env.step(bad)


def test_nq_cestus_env_illegal_action_terminate_ends_the_episode() -> None:
    env = NoQuarterCampaignEnv(illegal_action="terminate", **FAST)
    env.reset(seed=1)
    _, reward, terminated, _, info = env.step(env.n - 1)
    assert terminated and reward == -1.0 and info["illegal_action"] is True


# -- masks and campaign decisions --------------------------------------------------------------


def _campaign_accepts(env: NoQuarterCampaignEnv, index: int, masked_in: bool) -> bool:
    """Whether the campaign engine takes the action of ``index`` now.

    A masked-in action is played on a copy of the game; a masked-out one on the game itself
    (``CampaignGame.play`` rejects an illegal campaign action before changing anything).
    """
    try:
        action = env.decode(index)
    except ValueError:
        return False  # names nothing now (an empty slot, the other phase's block)
    game = CampaignGame.from_dict(env.game.to_dict()) if masked_in else env.game
    try:
        game.play(action, RandomDice.from_seed(0))
    except IllegalActionError:
        return False
    return True


def _battle_accepts(env: NoQuarterCampaignEnv, index: int) -> bool:
    """Whether the battle engine takes the action of ``index`` (on a clone of the battle)."""
    battle = env.game.battle
    assert battle is not None
    try:
        action = env.decode(index)
    except ValueError:
        return False
    try:
        battle_game.play(battle.clone(), action, RandomDice.from_seed(0))
    except IllegalActionError:
        return False
    return True


def test_nq_cestus_env_mask_is_exact_over_an_episode() -> None:
    env = NoQuarterCampaignEnv(max_turns=1, max_missions=3)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    checked = {"battle": 0, "campaign": 0}
    for step in range(2_000):
        mask = obs["action_mask"]
        g = env.game
        legal = g.legal_actions()
        table = env.legal_actions()
        assert set(np.flatnonzero(mask)) == set(table)
        assert all(action in legal for action in table.values())
        masked_in = np.flatnonzero(mask)
        if g.stage == "battle":
            assert g.battle is not None
            assert not mask[env.codec.n :].any()
            assert len(table) + env.codec.collisions(g.battle) == len(legal)
            if step % 4 == 0:
                for i in rng.choice(masked_in, size=min(3, len(masked_in)), replace=False):
                    assert _battle_accepts(env, int(i))
                masked_out = np.flatnonzero(mask == 0)
                for i in rng.choice(masked_out, size=12, replace=False):
                    try:
                        action = env.decode(int(i))
                    except ValueError:
                        continue  # names nothing now
                    assert action not in legal, env.describe(int(i))
                    if not isinstance(action, Move):  # the engine takes any reachable point
                        assert not _battle_accepts(env, int(i)), env.describe(int(i))
                checked["battle"] += 1
        else:
            assert not mask[: env.codec.n].any()
            assert len(table) == len(legal)  # every campaign option has an index here
            for i in rng.choice(masked_in, size=min(3, len(masked_in)), replace=False):
                assert _campaign_accepts(env, int(i), True)
            start = env.codec.n
            indices = range(start, env.n) if step % 5 == 0 else range(start, start + 60)
            for i in indices:
                if not mask[i]:
                    assert not _campaign_accepts(env, i, False), env.describe(i)
            checked["campaign"] += 1
        action = int(rng.choice(masked_in))
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
    assert checked["battle"] >= 3 and checked["campaign"] >= 3


def test_23_2_select_force_is_reached_and_encoded() -> None:
    env = NoQuarterCampaignEnv(render_mode="ansi", **FAST)
    obs, info = env.reset(seed=5)
    assert info["phase"] == "select" and info["decision"] == "select_force"
    codec, c = env.campaign_codec, env.game.campaign
    mask = obs["action_mask"]
    select = codec.offsets["select"]
    # every available Company Mech may go; launching needs a Mech selected first
    assert list(np.flatnonzero(mask)) == [select + k for k in range(36)]
    assert env.decode(select + 4) == SelectMech(c.mechs[4].id)
    features = obs["observation"][env.battle_size :]
    assert not obs["observation"][: env.battle_size].any()  # no battle between missions
    assert features[PHASES.index("select")] == 1.0
    assert features[CAMPAIGN_GLOBALS.index("mission_number")] == pytest.approx(0.1)
    assert features[CAMPAIGN_GLOBALS.index("next_slot_1")] == 1.0
    assert features[CAMPAIGN_GLOBALS.index("next_patrol")] == 1.0  # Trip Wire (§27.8)
    assert features[CAMPAIGN_GLOBALS.index("player_cm")] == pytest.approx(0.4)  # §27.5
    assert features[CAMPAIGN_GLOBALS.index("force_limit")] == pytest.approx(6 / 48)
    rows = len(CAMPAIGN_GLOBALS) + 48 * len(MECH_FIELDS)
    assert features.shape == (rows + 16 * len(PILOT_FIELDS),)
    roster = features[len(CAMPAIGN_GLOBALS) : rows].reshape(48, len(MECH_FIELDS))
    assert roster[:, MECH_FIELDS.index("present")].sum() == 36
    rep = c.pilot(c.mechs[4].pilot or 0).rep
    assert roster[4, MECH_FIELDS.index("pilot_rep")] == pytest.approx(rep / 6.0)
    obs, _, _, _, info = env.step(select + 4)
    assert info["events"] == [{"type": "MechSelected", "mech": c.mechs[4].id}]
    assert obs["action_mask"][codec.offsets["launch"]] and not obs["action_mask"][select + 4]
    roster = obs["observation"][env.battle_size + len(CAMPAIGN_GLOBALS) :]
    assert roster[4 * len(MECH_FIELDS) + MECH_FIELDS.index("selected")] == 1.0
    obs, _, _, _, info = env.step(codec.offsets["launch"])
    assert info["phase"] == "battle" and info["events"][0]["type"] == "MissionLaunched"
    assert obs["observation"][: env.battle_size].any()
    assert obs["observation"][env.battle_size + PHASES.index("battle")] == 1.0
    assert not obs["action_mask"][env.codec.n :].any() and obs["action_mask"].any()
    text = env.render()
    assert isinstance(text, str) and "turn" in text and "mission 1 (trip_wire)" in text


def test_23_9_4_assign_pilots_is_reached_and_encoded() -> None:
    env = NoQuarterCampaignEnv(render_mode="ansi", **FAST)
    env.reset(seed=6)
    g, c = env.game, env.game.campaign
    # a spare pilot: pilot of Mech 0 stands down (as after the aftermath of a lost Mech)
    pilot = c.pilot(c.mechs[0].pilot or 0)
    c.mechs[0].pilot, pilot.mech, g.stage = None, None, "assign"
    mask = env.action_masks()
    table = env.legal_actions()
    assert set(np.flatnonzero(mask)) == set(table)
    assert set(table.values()) == set(g.legal_actions())
    codec = env.campaign_codec
    index = codec.offsets["assign"] + 0 * codec.company + 0
    assert table[index] == AssignPilot(pilot.id, c.mechs[0].id)
    assert table[codec.offsets["end_assignment"]] == EndAssignment()
    assert LaunchMission() not in table.values()
    text = env.render()
    assert isinstance(text, str) and "spare pilots: " + str(pilot.id) in text
    obs, _, _, _, info = env.step(index)
    assert info["events"] == [
        {"type": "PilotAssigned", "pilot": pilot.id, "mech": c.mechs[0].id, "displaced": None}
    ]
    assert c.mechs[0].pilot == pilot.id and info["phase"] == "select"


# -- fog of war -----------------------------------------------------------------------------


def test_22_fog_of_war_holds_in_campaign_battles() -> None:
    env = NoQuarterCampaignEnv(max_turns=3, max_missions=2)
    obs, _ = env.reset(seed=9)
    rng = np.random.default_rng(9)
    battles = 0
    for _ in range(1_000):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, terminated, _, info = env.step(action)
        for event in info["events"]:
            assert event["type"] not in ("NpGroupSet",)
            if event["type"] == "NpTableRolled":
                assert event["table"] not in SECRET_TABLES
        g = env.game
        if g.stage == "battle" and g.battle is not None:
            battles += 1
            # enemy rows of the observation are exactly the enemies in sight now
            assert env._seen[Side.BLUE] == visible_enemies(g.battle, Side.BLUE)
            assert battle_game.decider(g.battle) is not None
        if terminated:
            break
    assert battles > 10


@pytest.mark.slow  # about a minute on a loaded 2-core machine
def test_nq_cestus_env_maskable_ppo_smoke() -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    torch = pytest.importorskip("torch")
    env_util = pytest.importorskip("stable_baselines3.common.env_util")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        venv = env_util.make_vec_env(
            lambda: gymnasium.make(ENV_ID, max_turns=1, max_missions=2), seed=0
        )
        model = sb3_contrib.MaskablePPO(
            "MultiInputPolicy",
            venv,
            n_steps=128,
            batch_size=64,
            n_epochs=1,
            policy_kwargs={"net_arch": [32]},
            seed=0,
            device="cpu",
        )
        model.learn(total_timesteps=384)
        assert model.num_timesteps >= 384
        obs = venv.reset()
        masks = np.stack(venv.env_method("action_masks"))
        action, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[0, int(action[0])]
    finally:
        torch.set_num_threads(threads)


class _SeatAgent:
    """First legal index; counts the NP decisions it was asked."""

    def __init__(self) -> None:
        self.calls = 0

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        assert observation.ndim == 1 and action_mask.any()
        self.calls += 1
        return int(np.flatnonzero(action_mask)[0])


@pytest.mark.parametrize("seat", ["random", "agent"])
def test_nq_cestus_env_np_seat_can_be_another_player(seat: str) -> None:
    """§22.4 seat: every launched mission hands the NP decisions to the env's opponent."""
    agent = _SeatAgent()
    env = NoQuarterCampaignEnv(
        opponent=agent if seat == "agent" else seat, max_turns=2, max_missions=2
    )
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(2)  # seed 1: since issue 15 red has no decision in 2 missions
    battles = 0
    for _ in range(3000):
        obs, _, done, cut, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        battle = env.game.battle if env.game.stage == "battle" else None
        if battle is not None and battle.np is not None:
            assert battle.np["external"] is True
            battles += 1
        if done or cut:
            break
    red = [step for step in env._log if step["agent"] == "red"]
    assert battles and red
    if seat == "agent":
        assert agent.calls == len(red) and all(s["index"] is not None for s in red)
    else:
        assert agent.calls == 0 and all(s["index"] is None for s in red)
    snap = json.loads(json.dumps(env.save_state()))
    assert snap["config"]["opponent"] == ("random" if seat == "random" else "agent:_SeatAgent")
    with pytest.raises(StateError, match="opponent"):
        NoQuarterCampaignEnv(max_turns=2, max_missions=2).load_state(snap)
