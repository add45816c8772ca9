"""Evaluation harness: Wilson intervals, Elo, the JSON report schema, presets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wargym.agents.config import ConfigError, args_from_mapping, load_preset
from wargym.agents.evaluation import (
    SCHEMA,
    MatchResult,
    elo_ratings,
    play_match,
    report,
    wilson,
    write_report,
)


def test_evaluation_wilson_interval_known_values() -> None:
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-3) and high == pytest.approx(0.9433, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(120, 200)
    assert low == pytest.approx(0.5308, abs=1e-3) and high == pytest.approx(0.6654, abs=1e-3)


def _result(a: str, b: str, w: int, d: int, l_: int) -> MatchResult:
    n = w + d + l_
    lo, hi = wilson(w, n)
    return MatchResult(a, b, "no_quarter", n, w, d, l_, w / n, lo, hi, (w + d / 2) / n,
                       0.0, 0.0, 0.0, 0.0)  # fmt: skip


def test_evaluation_elo_reference_is_zero_and_order_follows_results() -> None:
    results = [
        _result("strong", "random", 18, 2, 0),
        _result("mid", "random", 12, 4, 4),
        _result("strong", "mid", 14, 2, 4),
    ]
    elo = elo_ratings(results)
    assert elo["random"] == 0.0
    assert elo["strong"] > elo["mid"] > 0.0
    even = elo_ratings([_result("a", "random", 5, 0, 5)])
    assert even["a"] == pytest.approx(0.0, abs=1.0)


def test_evaluation_report_json_schema(tmp_path: Path) -> None:
    match = play_match("rules", "random", "pentagon_war", n_games=2, seed=1)
    data = report([match], {"rules": 50.0, "random": 0.0}, {"game": "pentagon_war"})
    path = tmp_path / "eval.json"
    write_report(path, data)
    loaded = json.loads(path.read_text())
    assert loaded["schema"] == SCHEMA
    assert set(loaded) == {"schema", "meta", "matches", "elo"}
    m = loaded["matches"][0]
    for key, kind in {
        "agent_a": str, "agent_b": str, "game": str, "games": int, "wins": int, "draws": int,
        "losses": int, "win_rate": float, "win_low": float, "win_high": float, "score": float,
        "mean_reward_a": float, "mean_reward_b": float, "seeds": list, "outcomes": list,
    }.items():  # fmt: skip
        assert isinstance(m[key], kind), key
    assert m["wins"] + m["draws"] + m["losses"] == m["games"] == len(m["outcomes"])
    assert 0.0 <= m["win_low"] <= m["win_rate"] <= m["win_high"] <= 1.0


def test_evaluation_match_is_reproducible_from_its_seed() -> None:
    a = play_match("random", "rules", "starship_combat", n_games=2, seed=9)
    b = play_match("random", "rules", "starship_combat", n_games=2, seed=9)
    assert a.outcomes == b.outcomes and a.mean_reward_a == b.mean_reward_a


def test_training_presets_validate_and_reject_unknown_keys(tmp_path: Path) -> None:
    from dataclasses import dataclass, field

    @dataclass
    class Args:
        seed: int = 1
        lr: float = 0.1
        net_arch: list[int] = field(default_factory=lambda: [8])

    args = args_from_mapping(Args, {"seed": 3, "lr": 1, "net_arch": [4, 4]})
    assert (args.seed, args.lr, args.net_arch) == (3, 1.0, [4, 4])
    bad = tmp_path / "bad.yaml"
    bad.write_text("seed: 2\nlearning_rat: 0.1\n")
    with pytest.raises(ConfigError, match=r"bad\.yaml.*learning_rat"):
        load_preset(Args, bad)
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("seed: two\n")
    with pytest.raises(ConfigError, match="seed must be an integer"):
        load_preset(Args, wrong)
