"""The campaign command line: start -> inspect -> continue with the random controller (§24)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from wargym.campaign_cli import main
from wargym.rules.no_quarter.campaigns.saves import load_game


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wargym.campaign_cli", *args],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_cli_start_inspect_continue_random(tmp_path: Path) -> None:
    save = str(tmp_path / "run.json")
    started = _cli("start", "--save", save, "--player", "random", "--seed", "3", "--missions", "1")
    assert started.returncode == 0, started.stderr
    assert "missions played 1" in started.stdout
    assert load_game(save).campaign.played == 1
    shown = _cli("inspect", "--save", save)
    assert shown.returncode == 0 and "campaign generic: star_army vs hishen" in shown.stdout
    assert "mission 1 patrol:" in shown.stdout
    dumped = _cli("inspect", "--save", save, "--json")
    assert json.loads(dumped.stdout)["played"] == 1
    more = _cli("continue", "--save", save, "--player", "random", "--seed", "4", "--missions", "1")
    assert more.returncode == 0, more.stderr
    game = load_game(save)
    assert game.campaign.played == 2 or game.campaign.over
    assert "mission 2" in more.stdout or game.campaign.over


def test_cli_save_copy_and_errors(tmp_path: Path, capsys: object) -> None:
    save, copy = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["start", "--save", str(save), "--seed", "1", "--missions", "1"]) == 0
    assert main(["save", "--save", str(save), "--to", str(copy)]) == 0
    assert load_game(copy).to_dict() == load_game(save).to_dict()
    broken = tmp_path / "broken.json"
    broken.write_text(save.read_text()[:100])
    before = broken.read_bytes()
    assert main(["inspect", "--save", str(broken)]) == 2
    assert broken.read_bytes() == before
    bad = _cli("continue", "--save", str(save), "--enemy", "random")
    assert bad.returncode != 0 and "NP AI" in bad.stderr
