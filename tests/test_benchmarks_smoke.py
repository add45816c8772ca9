"""Smoke test of benchmarks/throughput.py: it runs and its JSON has the documented keys.

No timing is asserted (figures live in benchmarks/RESULTS.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import wargym.envs

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "throughput.py"


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
