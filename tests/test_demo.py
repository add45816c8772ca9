"""``wargym demo``: the shipped policy wins a Cestus V mission; replay page; how to play."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from wargym.cli import main
from wargym.replay import frames_of


def test_default_demo_shows_the_shipped_policy_winning_the_page_and_how_to_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No options but the outputs: the default mission and seed are ones the policy wins."""
    replay, page = tmp_path / "demo.json", tmp_path / "demo.html"
    assert main(["demo", "--replay", str(replay), "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "Cestus V, mission 2: The Troll (attack), seed 0" in out
    assert "Outcome: mission success" in out
    decisions = out.split("Decisions: ", 1)[1].split(" by the learned policy", 1)[0]
    assert int(decisions) > 0  # the policy, not the fallback, took decisions
    data = json.loads(replay.read_text())
    assert data["outcome"]["winner"] == "blue"
    assert {step["agent"] for step in data["steps"]} >= {"policy"}
    turning = out.split("Turning points:\n", 1)[1].split("Event log summary:", 1)[0]
    assert " is out: " in turning and "=" not in turning  # told in words
    forces = out.split("Turning points:", 1)[0]  # designs and losses in words, not engine keys
    assert "Star Army class" in forces and not re.search(r"_c\d|left_table|cheated_death", forces)
    assert f"Replay page written to {page}" in out and page.resolve().as_uri() in out
    text = page.read_text()
    title = text.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "The Troll" in title and "blue wins (mission success" in title
    view = frames_of(data)
    assert len(view["frames"]) == len(data["steps"]) + 1 and not view["warnings"]
    commands = re.findall(r"^  (wargym play [^#\n]*?)\s*(?:#|$)", out, flags=re.M)
    assert commands == ["wargym play cestus-v --mission 2 --seed 0",
                        "wargym play skirmish --opponent shipped"]  # fmt: skip
    _parses_as_wargym_play(commands)


def _parses_as_wargym_play(commands: list[str]) -> None:
    """Each printed command is one ``wargym play`` accepts (its own argument parser)."""
    import tyro

    from wargym.play import PlayArgs

    for command in commands:
        argv = shlex.split(command)[2:]
        parsed = tyro.cli(PlayArgs, args=argv)
        assert parsed.game in ("cestus-v", "skirmish"), command
    mission = tyro.cli(PlayArgs, args=shlex.split(commands[0])[2:])
    assert (mission.mission, mission.seed) == (2, 0)
    assert tyro.cli(PlayArgs, args=shlex.split(commands[1])[2:]).opponent == "shipped"


def test_demo_plays_another_mission_and_seed_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay, page = tmp_path / "demo.json", tmp_path / "demo.html"
    code = main(["demo", "--mission", "mission_01_trip_wire", "--seed", "3", "--max-turns", "2",
                 "--replay", str(replay), "--html", str(page)])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "Cestus V, mission 1: Trip Wire" in out
    assert "Evaluation of the policy in the mirror skirmish" in out
    assert "wargym play cestus-v --mission 1 --seed 3" in out
    data = json.loads(replay.read_text())
    assert data["format"] == "nq-replay-v1" and data["outcome"]["reason"]
    assert "policy" in {step["agent"] for step in data["steps"]}
    assert page.read_text().startswith("<!DOCTYPE html>")


def test_demo_rejects_an_unknown_mission(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--mission", "mission_99", "--html", ""]) == 2
    assert "unknown Cestus V mission 'mission_99'" in capsys.readouterr().err
