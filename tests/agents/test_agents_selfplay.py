"""Self-play pool: the opponent changes only at reset; entry point and flag parsing."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401
from wargym.agents.config import ConfigError, parse_args
from wargym.agents.envspecs import MirrorSkirmish, mirror_skirmish, resolve, resolve_callables
from wargym.agents.selfplay import OpponentPool, PoolOpponentEnv
from wargym.agents.training_entry import main as entry_main


def test_selfplay_opponent_is_drawn_at_reset_and_kept_for_the_episode(tmp_path: Path) -> None:
    env = gymnasium.make("wargym/NoQuarter-Skirmish-v1", battle_factory=mirror_skirmish)
    wrapped = PoolOpponentEnv(env, OpponentPool(tmp_path, ("rules", "heuristic"), 1.0))
    names = set()
    for seed in range(4):
        obs, info = wrapped.reset(seed=seed)
        first = info["opponent"]
        names.add(first)
        seat = env.unwrapped.opponent_spec
        for _ in range(60):
            index = int(np.flatnonzero(wrapped.action_masks())[0])
            obs, _, terminated, truncated, info = wrapped.step(index)
            assert info["opponent"] == first and env.unwrapped.opponent_spec is seat
            if terminated or truncated:
                break
    assert names <= {"rules", "heuristic"}
    with pytest.raises(ValueError, match="unknown scripted"):
        OpponentPool(tmp_path, ("nobody",))
    with pytest.raises(RuntimeError, match="pool is empty"):
        OpponentPool(tmp_path, ()).draw(np.random.default_rng(0))


def test_selfplay_mirror_factory_gives_both_sides_the_same_designs() -> None:
    from wargym.rules.dice import RandomDice
    from wargym.rules.no_quarter.forces.vocab import Side

    battle = MirrorSkirmish(mechs_per_side=3)(np.random.default_rng(4), RandomDice.from_seed(4))
    blue = sorted(m.design.id for m in battle.mechs.values() if m.side is Side.BLUE)
    red = sorted(m.design.id for m in battle.mechs.values() if m.side is Side.RED)
    assert blue == red and len(blue) == 3
    assert resolve("wargym.agents.envspecs:mirror_skirmish") is mirror_skirmish
    assert (
        resolve_callables({"battle_factory": "wargym.agents.envspecs:mirror_skirmish"})[
            "battle_factory"
        ]
        is mirror_skirmish
    )
    assert resolve("mirror_skirmish") is mirror_skirmish
    with pytest.raises(ValueError, match="not registered"):  # EntryPointError
        resolve("no-colon")


def test_training_flags_override_presets_and_unknown_flags_fail(tmp_path: Path) -> None:
    @dataclass
    class Args:
        seed: int = 1
        run_dir: str = "runs/x"
        net_arch: list[int] = field(default_factory=lambda: [8])
        smoke: bool = False

    preset = tmp_path / "p.yaml"
    preset.write_text("# Source: test\nseed: 5\nrun_dir: runs/y\n")
    args = parse_args(Args, ["--config", str(preset), "--net-arch", "[4, 4]", "--smoke"])
    assert (args.seed, args.run_dir, args.net_arch, args.smoke) == (5, "runs/y", [4, 4], True)
    assert parse_args(Args, ["--run-dir", "123"]).run_dir == "123"
    with pytest.raises(ConfigError, match="--seed.*'abc'"):
        parse_args(Args, ["--seed", "abc"])
    with pytest.raises(ConfigError, match="--sede"):
        parse_args(Args, ["--sede", "3"])
    assert parse_args(Args, ["--smoke", "false"]).smoke is False  # the pre-tyro value form
    assert parse_args(Args, ["--no-smoke", "--net-arch", "2", "3"]).net_arch == [2, 3]


def test_training_entry_rejects_unknown_scripts(capsys: pytest.CaptureFixture[str]) -> None:
    assert entry_main(["no_such_script"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wargym train: error: unknown script 'no_such_script'; one of ")
    assert len(err.strip().splitlines()) == 1 and "ppo_masked" in err
