"""Smoke test of benchmarks/throughput.py: it runs and its JSON has the documented keys.

No timing is asserted (figures live in benchmarks/RESULTS.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import wargym.envs

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from throughput import NATIVE_IDS  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "throughput.py"
NATIVE_PRESET = SCRIPT.parents[1] / "configs" / "training" / "nq_skirmish_native.yaml"


def test_benchmarks_throughput_smoke_writes_json_and_markdown(tmp_path: Path) -> None:
    out, md = tmp_path / "out.json", tmp_path / "out.md"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--seconds", "0.02", "--rounds", "1",
         "--json", str(out), "--md", str(md)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    assert set(report) == {"meta", "references", "results", "missing_references"}
    assert {"date", "python", "cpu_count", "seconds_per_round", "rounds", "versions"} <= set(
        report["meta"]
    )
    rows = {row["env"]: row for row in report["results"]}
    expected = {*wargym.envs.GYM_ENVS, *wargym.envs.PETTINGZOO_ENVS, "CartPole-v1"}
    expected |= {f"{env_id} [native]" for env_id in NATIVE_IDS}  # the native backend's rows
    expected |= {f"{env_id} [python]" for env_id in NATIVE_IDS}  # and the reference's
    if not report["missing_references"]:
        expected.add("connect_four_v3")
    assert expected == set(rows)
    for row in rows.values():
        assert {
            "api", "steps_per_second", "steps", "episodes", "ratio_connect_four",
            "ratio_cartpole", "target_ratio_connect_four", "target_met",
        } <= set(row)  # fmt: skip
        assert row["steps"] > 0 and row["steps_per_second"] > 0
    assert rows["CartPole-v1"]["ratio_cartpole"] == 1.0
    table = md.read_text()
    assert "| env | API | steps/s |" in table and table in done.stdout


def _run_benchmark(name: str, args: list[str], tmp_path: Path) -> tuple[dict, str, str]:
    """Run ``benchmarks/<name>`` with ``args`` plus --json/--md; (report, table, stdout)."""
    out, md = tmp_path / "out.json", tmp_path / "out.md"
    done = subprocess.run(
        [sys.executable, str(SCRIPT.parent / name), *args, "--json", str(out), "--md", str(md)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text()), md.read_text(), done.stdout


def test_benchmarks_state_bench_smoke_writes_json_and_markdown(tmp_path: Path) -> None:
    report, table, stdout = _run_benchmark(
        "state_bench.py", ["--seconds", "0.01", "--rounds", "1", "--points", "2,5"], tmp_path
    )
    assert set(report) == {"meta", "references", "results", "missing_references"}
    assert {"date", "python", "cpu_count", "rounds", "points", "versions"} <= set(report["meta"])
    rows = {row["name"]: row for row in report["results"]}
    for system in ("no_quarter", "pentagon_war", "starship_combat"):
        for op in ("clone", "deepcopy", "to_json", "from_json"):
            row = rows[f"{system}/{op}"]
            assert row["ops_per_second"] > 0 and row["calls"] > 0 and row["states"] == 2
            assert row["ratio_numpy_copy"] > 0
        assert rows[f"{system}/clone"]["speedup_vs_deepcopy"] > 0
        assert rows[f"{system}/from_json"]["json_bytes"] > 100
    assert rows["numpy 6x7 int8 copy"]["ratio_numpy_copy"] == 1.0
    assert rows["no_quarter/clone"]["target_ops_per_second"] == 100_000
    assert "| state | operation | ops/s |" in table and table in stdout


def test_benchmarks_ppo_sps_smoke_writes_json_and_markdown(tmp_path: Path) -> None:
    args = ["--envs", "starship_combat", "--vec", "dummy", "--steps", "32", "--n-steps", "16"]
    report, table, stdout = _run_benchmark("ppo_sps.py", [*args, "--batch-size", "16"], tmp_path)
    assert set(report) == {"meta", "references", "results"}
    assert report["meta"]["hyper"]["net_arch"] == [256, 256]  # the preset's policy network
    rows = {row["env"]: row for row in report["results"]}
    assert set(rows) == {"starship_combat", "CartPole-v1"}
    for row in rows.values():
        assert row["steps"] >= 32 and row["steps"] % 16 == 0 and row["steps_per_second"] > 0
        assert row["vec_env"] == "dummy" and row["torch_threads"] == 1
        assert 0 < row["update_share"] < 1
    assert rows["CartPole-v1"]["ratio_cartpole"] == 1.0
    assert "| env | vec env | threads | steps/s |" in table and table in stdout


def test_benchmarks_ppo_sps_times_the_native_preset_and_ppo_batch(tmp_path: Path) -> None:
    """The native preset through MaskablePPO (BatchVecEnv) and training/ppo_batch.py: env and
    learner seconds apart, no CartPole row for ppo_batch."""
    args = ["--envs", "skirmish", "--vec", "batch,ppo_batch", "--n-envs", "4", "--steps", "64",
            "--env-threads", "2",
            "--config", str(NATIVE_PRESET), "--n-steps", "16"]  # fmt: skip
    report, table, _ = _run_benchmark("ppo_sps.py", [*args, "--batch-size", "32"], tmp_path)
    assert report["meta"]["hyper"]["backend"] == "native"
    rows = {(row["env"], row["vec_env"]): row for row in report["results"]}
    assert set(rows) == {("skirmish", "batch"), ("CartPole-v1", "batch"),
                         ("skirmish", "ppo_batch")}  # fmt: skip
    for (env, _vec), row in rows.items():
        assert row["steps"] >= 64 and row["steps"] % 64 == 0 and row["n_envs"] == 4
        assert row["learner_seconds"] > 0 and row["env_seconds"] > 0
        assert row["seconds"] == pytest.approx(row["env_seconds"] + row["learner_seconds"])
        if env == "skirmish":
            assert row["ratio_target"] == pytest.approx(row["steps_per_second"] / 1000)
    assert rows[("skirmish", "ppo_batch")]["ratio_cartpole"] is None
    assert rows[("skirmish", "ppo_batch")]["env_threads"] == 2
    assert rows[("skirmish", "batch")]["env_threads"] == 1
    assert "| skirmish | ppo_batch×4 (2 env threads) | 1 |" in table


def test_benchmarks_memory_smoke_writes_json_and_markdown(tmp_path: Path) -> None:
    ship = "wargym/StarshipCombat-Duel-v0"
    args = ["--steps", "5", "--only", "StarshipCombat", "--vec-ids", ship, "--vec-envs", "1"]
    report, table, stdout = _run_benchmark("memory.py", [*args, "--vec-steps", "2"], tmp_path)
    assert set(report) == {"meta", "references", "single_env", "subproc_vec_env"}
    singles = {row["env"]: row for row in report["single_env"]}
    assert set(singles) == {ship, "CartPole-v1"}
    for row in singles.values():
        assert row["steps"] == 5 and row["peak_rss_mb"] >= row["imports_rss_mb"] > 10
    (vec,) = report["subproc_vec_env"]
    assert vec["env"] == ship and len(vec["worker_peak_rss_mb"]) == vec["n_envs"] == 1
    assert vec["total_peak_rss_mb"] == vec["parent_peak_rss_mb"] + sum(vec["worker_peak_rss_mb"])
    assert vec["total_pss_mb"] is None or vec["total_pss_mb"] > 0
    assert "| env | steps | RSS after imports, MB |" in table and table in stdout


def test_benchmarks_nq_env_cpu_smoke_plays_the_fixed_workload(tmp_path: Path) -> None:
    runs = [
        _run_benchmark("nq_env_cpu.py", ["--seeds", "2", "--steps", "5", *extra], tmp_path)
        for extra in ([], ["--block"])
    ]
    for (report, table, stdout), fog in zip(runs, ("bump", "block"), strict=True):
        assert set(report) == {"meta", "steps", "cpu_seconds", "steps_per_cpu_second"}
        assert report["steps"] == 10 and report["meta"]["unseen_bases"] == fog
        assert report["steps_per_cpu_second"] > 0
        assert f"| {fog} | 10 |" in table and table in stdout
