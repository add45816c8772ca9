"""Campaign saves: round trips, atomic writes under SIGKILL, 100 kinds of damaged files."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.rules.dice import RandomDice
from wargym.rules.errors import StateError
from wargym.rules.no_quarter.campaigns.campaign import load_definition
from wargym.rules.no_quarter.campaigns.campaign_play import CampaignGame
from wargym.rules.no_quarter.campaigns.saves import (
    envelope,
    load_game,
    read_json,
    save_game,
    stale_temp_files,
    write_json_atomic,
)


def _definition() -> Any:
    d = load_definition("generic")
    slots = tuple(dataclasses.replace(s, turn_limit=3) for s in d.missions)
    return dataclasses.replace(d, missions=slots, max_missions=4)


def _game_after(steps: int, seed: int) -> tuple[CampaignGame, RandomDice]:
    rng = np.random.default_rng(seed)
    dice = RandomDice.from_seed(seed)
    game = CampaignGame.start(_definition(), dice, rng)
    pick = np.random.default_rng(seed + 1)
    for _ in range(steps):
        if game.decider() is None:
            break
        options = game.legal_actions()
        game.play(options[int(pick.integers(len(options)))], dice)
    return game, dice


@pytest.fixture(scope="module")
def mid_game() -> CampaignGame:
    game, _ = _game_after(120, 7)
    assert game.campaign.played >= 1
    return game


@pytest.mark.parametrize(("steps", "seed"), [(0, 1), (3, 2), (25, 3), (60, 4), (150, 5)])
def test_save_load_is_identity_mid_campaign(tmp_path: Path, steps: int, seed: int) -> None:
    game, _ = _game_after(steps, seed)
    path = tmp_path / "save.json"
    save_game(path, game)
    loaded = load_game(path)
    assert loaded.to_dict() == game.to_dict()
    assert loaded.stage == game.stage and loaded.decider() == game.decider()
    assert loaded.legal_actions() == game.legal_actions()
    if game.decider() is not None:  # both continue identically
        a, b = RandomDice.from_seed(99), RandomDice.from_seed(99)
        for _ in range(20):
            if game.decider() is None:
                break
            action = game.legal_actions()[0]
            assert [e.to_dict() for e in game.play(action, a)] == [
                e.to_dict() for e in loaded.play(action, b)
            ]
        assert loaded.to_dict() == game.to_dict()


def test_a_mission_in_progress_is_saved_with_its_battle(tmp_path: Path) -> None:
    game, _ = _game_after(400, 8)
    for seed in range(9, 30):
        if game.stage == "battle":
            break
        game, _ = _game_after(int(np.random.default_rng(seed).integers(5, 60)), seed)
    assert game.stage == "battle"
    save_game(tmp_path / "s.json", game)
    data = json.loads((tmp_path / "s.json").read_text())
    assert data["game"]["battle"]["version"] == 1 and data["game"]["tracker"]["roster"]
    assert load_game(tmp_path / "s.json").battle is not None


WRITER = """
import sys, time
from wargym.rules.no_quarter.campaigns.saves import write_json_atomic
path, n = sys.argv[1], int(sys.argv[2])
blob = "x" * 400_000
while True:
    n += 1
    write_json_atomic(path, {"version": n, "blob": blob, "check": n * 7})
    print(n, flush=True)
"""


def test_a_writer_killed_mid_write_never_loses_the_save(tmp_path: Path) -> None:
    path = tmp_path / "campaign.json"
    write_json_atomic(path, {"version": 0, "blob": "", "check": 0})
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(8):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(seen)], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None and proc.stdout.readline().strip()  # it is writing now
        time.sleep(float(rng.uniform(0.0, 0.15)))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        data = read_json(path)  # never a partial file
        assert data["check"] == data["version"] * 7
        assert data["version"] >= seen
        seen = data["version"]
        assert all(p.name != path.name for p in stale_temp_files(path))
    assert seen > 0
    write_json_atomic(path, {"version": -1, "blob": "", "check": -7})
    assert stale_temp_files(path) == []  # the next save cleans up after a killed writer
    assert read_json(path)["version"] == -1


def _defn(data: dict[str, Any]) -> dict[str, Any]:
    definition: dict[str, Any] = data["game"]["campaign"]["definition"]
    return definition


def _damaged(good: dict[str, Any], raw: bytes) -> list[tuple[str, bytes]]:
    cases: list[tuple[str, bytes]] = []
    for offset in np.linspace(0, len(raw) - 1, 40).astype(int):
        cases.append((f"truncated at {offset}", raw[: int(offset)]))
    for pos in np.linspace(1, len(raw) - 2, 20).astype(int):
        flipped = bytearray(raw)
        flipped[int(pos)] ^= 0x80
        cases.append((f"bit flip at {pos}", bytes(flipped)))

    def edit(name: str, change: Any) -> None:
        data = copy.deepcopy(good)
        change(data)
        cases.append((name, json.dumps(data).encode()))

    g = "game"
    edit("wrong save version", lambda d: d.update(version=2))
    edit("bool version", lambda d: d.update(version=True))
    edit("wrong format", lambda d: d.update(format="other"))
    edit("unknown top key", lambda d: d.update(extra=1))
    edit("missing game", lambda d: d.pop("game"))
    edit("campaign version", lambda d: d[g]["campaign"].update(version=9))
    edit("unknown campaign key", lambda d: d[g]["campaign"].update(colour="red"))
    edit("missing player_cm", lambda d: d[g]["campaign"].pop("player_cm"))
    edit("player_cm as text", lambda d: d[g]["campaign"].update(player_cm="4"))
    edit("negative cm", lambda d: d[g]["campaign"].update(enemy_cm=-1))
    edit("bad faction", lambda d: d[g]["campaign"].update(player="martians"))
    edit("bad status", lambda d: d[g]["campaign"].update(player_status="owns"))
    edit("bad next mission", lambda d: d[g]["campaign"].update(next_mission="nowhere"))
    edit("bad result", lambda d: d[g]["campaign"].update(result="maybe"))
    edit("pilot rep 0", lambda d: d[g]["campaign"]["pilots"][0].update(rep=0))
    edit("pilot rep float", lambda d: d[g]["campaign"]["pilots"][0].update(rep=4.5))
    edit("pilot unknown key", lambda d: d[g]["campaign"]["pilots"][0].update(hat=1))
    edit("pilot bad race", lambda d: d[g]["campaign"]["pilots"][0].update(race="elf"))
    edit("pilot mech dangling", lambda d: d[g]["campaign"]["pilots"][0].update(mech=999))
    edit("mech unknown design", lambda d: d[g]["campaign"]["mechs"][0].update(design="x"))
    edit("mech armour too high", lambda d: d[g]["campaign"]["mechs"][0].update(armor=[99] * 7))
    edit("mech armour short", lambda d: d[g]["campaign"]["mechs"][0].update(armor=[1]))
    edit("mech bad item", lambda d: d[g]["campaign"]["mechs"][0].update(inoperable=[99]))
    edit("mech bad state", lambda d: d[g]["campaign"]["mechs"][0].update(state="sunk"))
    edit("mech pilot dangling", lambda d: d[g]["campaign"]["mechs"][0].update(pilot=999))
    edit("duplicate mech", lambda d: d[g]["campaign"]["mechs"].append(d[g]["campaign"]["mechs"][0]))
    edit("definition unknown key", lambda d: d[g]["campaign"]["definition"].update(x=1))
    edit("definition bad scenario", lambda d: _defn(d)["missions"][0].update(scenario="nope"))
    edit("definition bad company", lambda d: _defn(d)["company"].update(star_army=["hishen_c3"]))
    edit("definition bad option", lambda d: _defn(d)["rules"].update(morale_pass_cap="yes"))
    edit("history wrong type", lambda d: d[g]["campaign"].update(history={}))
    edit("bad stage", lambda d: d[g].update(stage="lunch"))
    edit("stage battle without battle", lambda d: d[g].update(stage="battle", battle=None))
    edit("selected unavailable", lambda d: d[g].update(selected=[999]))
    edit("bad rng", lambda d: d[g].update(rng={"bit_generator": "MT19937"}))
    edit("rng state garbage", lambda d: d[g]["rng"].update(state="zzz"))
    edit("game unknown key", lambda d: d[g].update(turbo=True))
    edit("game is a list", lambda d: d.update(game=[]))
    cases += [
        ("empty file", b""),
        ("whitespace", b"   \n"),
        ("json null", b"null"),
        ("json list", b"[1, 2]"),
        ("NaN constant", raw.replace(b'"player_cm":', b'"player_cm":NaN,"x":', 1)),
        ("not utf-8", b"\xff\xfe" + raw),
        ("trailing garbage", raw + b"}}"),
        ("deep nesting", b"[" * 100_000 + b"]" * 100_000),
    ]
    return cases


def test_100_kinds_of_damaged_files_are_rejected_untouched(
    tmp_path: Path, mid_game: CampaignGame
) -> None:
    good = envelope(mid_game)
    raw = json.dumps(good, separators=(",", ":")).encode()
    neighbour = tmp_path / "keep.json"
    save_game(neighbour, mid_game)
    keep = neighbour.read_bytes()
    cases = _damaged(good, raw)
    assert len(cases) >= 100
    for i, (name, data) in enumerate(cases):
        path = tmp_path / f"bad{i}.json"
        path.write_bytes(data)
        digest = hashlib.sha256(data).hexdigest()
        with pytest.raises(StateError) as caught:
            load_game(path)
        message = str(caught.value)
        assert str(path) in message and len(message) > len(str(path)) + 5, name
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, name
    assert neighbour.read_bytes() == keep
    assert load_game(neighbour).to_dict() == mid_game.to_dict()


def test_huge_missing_and_folder_saves_are_refused(tmp_path: Path, mid_game: CampaignGame) -> None:
    path = tmp_path / "s.json"
    save_game(path, mid_game)
    with pytest.raises(StateError, match="exceeds the save limit"):
        load_game(path, max_bytes=100)
    with pytest.raises(StateError, match="cannot read"):
        load_game(tmp_path / "missing.json")
    with pytest.raises(StateError):
        load_game(tmp_path)
    assert load_game(path).to_dict() == mid_game.to_dict()


def test_unwritable_data_never_replaces_the_old_save(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    write_json_atomic(path, {"a": 1})
    with pytest.raises(StateError):
        write_json_atomic(path, {"a": float("nan")})
    with pytest.raises(StateError):
        write_json_atomic(path, {"a": object()})
    assert read_json(path) == {"a": 1} and stale_temp_files(path) == []
