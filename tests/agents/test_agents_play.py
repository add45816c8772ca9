"""Every agent plays full games on every env without an illegal action (AEC envs raise)."""

from __future__ import annotations

import numpy as np
import pytest

from wargym.agents.base import EngineAdapter, engine_view, set_opponent
from wargym.agents.evaluation import play_match
from wargym.agents.heuristic import NoQuarterHeuristic
from wargym.agents.mcts import NoQuarterMCTS
from wargym.agents.random_agent import RandomAgent
from wargym.agents.scripted import NoQuarterScripted

SPACE = ("pentagon_war", "starship_combat")


@pytest.mark.parametrize("game", SPACE)
@pytest.mark.parametrize("pair", [("random", "rules"), ("rules", "rules")])
def test_agents_space_games_full_games_legal(game: str, pair: tuple[str, str]) -> None:
    result = play_match(pair[0], pair[1], game, n_games=2, seed=3)
    assert result.games == 2 and result.wins + result.draws + result.losses == 2
    assert result.mean_steps > 10


@pytest.mark.parametrize("pair", [("random", "rules"), ("heuristic", "rules")])
def test_agents_no_quarter_full_games_legal(pair: tuple[str, str]) -> None:
    result = play_match(pair[0], pair[1], "no_quarter", n_games=2, seed=5)
    assert result.games == 2
    assert set(result.a_sides) == {"blue", "red"}  # sides alternate


def test_agents_mcts_plays_a_legal_no_quarter_game() -> None:
    agent = NoQuarterMCTS(np.random.default_rng(0), budget=2, depth=3, width=3)
    result = play_match(agent, "rules", "no_quarter", n_games=1, seed=11)
    assert result.games == 1 and result.mean_steps > 10


def test_agents_engine_agents_as_solo_env_opponent() -> None:
    """The solo env takes an adapted engine agent as red (opponent hook, no env change)."""
    import gymnasium

    import wargym.envs  # noqa: F401

    env = gymnasium.make(
        "wargym/NoQuarter-Skirmish-v1", battle_factory=__import__(
            "wargym.agents.envspecs", fromlist=["mirror_skirmish"]).mirror_skirmish
    )  # fmt: skip
    seat = set_opponent(env, NoQuarterHeuristic(1))
    assert isinstance(seat, EngineAdapter)
    blue = EngineAdapter(NoQuarterScripted(2), env)
    obs, _ = env.reset(seed=4)
    for _ in range(400):
        index = blue.act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][index] == 1
        obs, _, terminated, truncated, info = env.step(index)
        assert not info["illegal_action"]
        if terminated or truncated:
            break
    assert terminated or truncated


def test_agents_random_agent_only_picks_legal_indices() -> None:
    agent = RandomAgent(0)
    mask = np.zeros(50, dtype=np.int8)
    mask[[3, 17, 42]] = 1
    picks = {agent.act(None, mask) for _ in range(200)}
    assert picks == {3, 17, 42}
    with pytest.raises(ValueError, match="allows no action"):
        agent.act(None, np.zeros(5, dtype=np.int8))


def test_agents_engine_view_reads_the_pending_decision() -> None:
    from wargym.envs.no_quarter.aec import env as nq_env

    env = nq_env()
    env.reset(seed=1)
    battle, legal, side = engine_view(env)
    assert battle is env.battle and legal and side is battle.decision.side


def test_agents_import_without_torch_and_rules_envs_never_import_agents() -> None:
    import subprocess
    import sys

    code = (
        "import sys, wargym.envs, wargym.agents.evaluation, wargym.agents.mcts, "
        "wargym.agents.learned, wargym.agents.selfplay\n"
        "assert 'torch' not in sys.modules, 'torch imported eagerly'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    offenders = [
        str(p.relative_to(root))
        for top in ("rules", "envs")
        for p in (root / top).rglob("*.py")
        if "wargym.agents" in p.read_text(encoding="utf-8")
    ]
    assert not offenders, offenders
