"""``wargym demo``: the shipped policy plays a Cestus V mission; replay and summaries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wargym.cli import main
from wargym.replay import frames_of


def test_demo_plays_the_learned_policy_on_a_cestus_v_mission(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay, page = tmp_path / "demo.json", tmp_path / "demo.html"
    code = main(
        ["demo", "--seed", "3", "--max-turns", "4", "--replay", str(replay), "--html", str(page)]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "Cestus V, mission 1: Trip Wire" in out
    assert "Evaluation of the policy in the mirror skirmish" in out
    decisions = out.split("Decisions: ", 1)[1].split(" by the learned policy", 1)[0]
    assert int(decisions) > 0  # the policy, not the fallback, took decisions
    data = json.loads(replay.read_text())
    assert data["format"] == "nq-replay-v1" and data["outcome"]["reason"]
    agents = {step["agent"] for step in data["steps"]}
    assert "policy" in agents
    view = frames_of(data)
    assert len(view["frames"]) == len(data["steps"]) + 1 and not view["warnings"]
    assert page.read_text().startswith("<!DOCTYPE html>")


def test_demo_rejects_an_unknown_mission(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--mission", "mission_99", "--html", ""]) == 2
    assert "unknown Cestus V mission 'mission_99'" in capsys.readouterr().err
