# ruff: noqa: E501
"""Replay viewer: pages from env replays, event lists and hex games; no addresses; JS runs."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from wargym.replay import ReplayError, frames_of, main, record_hex_replay, write_html

FAKE_DOM = Path(__file__).with_name("replay_fake_dom.js")
"""A recording fake DOM: runs the page's script over every frame (see the file)."""


@pytest.fixture(scope="module")
def nq_replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short seeded skirmish (random legal blue vs the rules' red) saved by the env."""
    import gymnasium

    import wargym.envs  # noqa: F401

    env = gymnasium.make("wargym/NoQuarter-Skirmish-v1", max_turns=3)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(400):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
    path = tmp_path_factory.mktemp("replay") / "battle.json"
    env.unwrapped.save_replay(path)
    return path


def _no_addresses(page: str) -> None:
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"(src|href)\s*=", page)


def test_nq_replay_page_embeds_frames_and_holds_no_address(nq_replay: Path, tmp_path: Path) -> None:
    data = json.loads(nq_replay.read_text())
    view = frames_of(data)
    assert len(view["frames"]) == len(data["steps"]) + 1 and not view["warnings"]
    shots = [s for f in view["frames"] for s in f.get("shots", [])]
    fired = [e for s in data["steps"] for e in s["events"] if e["type"] == "ShotFired"]
    assert len(shots) == len(fired)
    last = view["frames"][-1]["mechs"]
    from wargym.rules.no_quarter.battle import game
    from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS
    from wargym.rules.no_quarter.battle.state import Battle

    battle = Battle.from_dict(data["start"])
    for step in data["steps"]:
        for event in step["events"]:
            battle.apply(NO_QUARTER_EVENTS.from_dict(event))
    assert [m["armor"] for m in last] == [sum(m.armor) for m in battle.mechs.values()]
    assert game.outcome(battle) is not None or not battle.over
    out = write_html(nq_replay, tmp_path / "page.html")
    page = out.read_text()
    _no_addresses(page)
    assert '"format":"wargym-replay-view/1"' in page and "ShotFired" in page
    assert main([str(nq_replay), "--html", str(tmp_path / "cli.html")]) == 0
    assert (tmp_path / "cli.html").read_text() == page


def test_event_list_and_initial_state_are_accepted(nq_replay: Path) -> None:
    data = json.loads(nq_replay.read_text())
    events = [e for s in data["steps"] for e in s["events"]]
    view = frames_of({"initial_state": data["start"], "events": events})
    assert len(view["frames"]) == len(events) + 1
    with pytest.raises(ReplayError):
        frames_of({"events": []})
    with pytest.raises(ReplayError):
        frames_of([1, 2])
    with pytest.raises(ReplayError, match="start state"):
        frames_of({"start": {"version": 99}, "events": []})


def test_mission_replay_shows_pef_markers(tmp_path: Path) -> None:
    import gymnasium

    import wargym.envs  # noqa: F401

    env = gymnasium.make("wargym/NoQuarter-Patrol-v1")
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(60):
        obs, _, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if terminated or truncated:
            break
    env.unwrapped.save_replay(tmp_path / "patrol.json")
    view = frames_of(json.loads((tmp_path / "patrol.json").read_text()))
    assert any(f["pefs"] for f in view["frames"])
    _no_addresses(write_html(tmp_path / "patrol.json", tmp_path / "patrol.html").read_text())


@pytest.mark.parametrize("env_id", ["wargym/PentagonWar-Duel-v0", "wargym/StarshipCombat-Duel-v0"])
def test_hex_replays_of_the_space_games(env_id: str, tmp_path: Path) -> None:
    replay = record_hex_replay(env_id, seed=0, max_steps=40)
    assert replay["frames"][0]["units"] and len(replay["frames"]) > 1
    (tmp_path / "hex.json").write_text(json.dumps(replay))
    page = write_html(tmp_path / "hex.json", tmp_path / "hex.html").read_text()
    _no_addresses(page)
    assert '"kind":"hex"' in page


def test_page_script_renders_every_frame_in_node(nq_replay: Path, tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    page = write_html(nq_replay, tmp_path / "page.html")
    done = subprocess.run([node, str(FAKE_DOM), str(page)], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["frames"] == len(json.loads(nq_replay.read_text())["steps"]) + 1
    assert result["body"] == str(result["frames"] - 1)
    assert result["svg"].count('class="mech') == 6 and "<rect" in result["svg"]
    assert min(result["sizes"]) > 500
    assert result["html_sinks"] == []


@pytest.mark.browser  # tests/conftest.py: skipped without chromium, failed under .ci/run
def test_page_in_headless_chromium(nq_replay: Path, tmp_path: Path) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    assert browser is not None  # the browser marker's gate ran first
    page = write_html(nq_replay, tmp_path / "page.html")
    url = page.resolve().as_uri() + "#step=3"
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
             "--virtual-time-budget=3000"]  # fmt: skip
    dom = subprocess.run([*flags, "--dump-dom", url], capture_output=True, text=True, timeout=120)
    assert 'data-step="3"' in dom.stdout and "<svg" in dom.stdout
    assert "Uncaught" not in dom.stderr
    shot = tmp_path / "replay.png"
    subprocess.run([*flags, f"--screenshot={shot}", "--window-size=1200,800", url],
                   capture_output=True, timeout=120)  # fmt: skip
    assert shot.is_file() and shot.stat().st_size > 5000


# -- readable by a person (issue 20, item 4) ------------------------------------------------

LONG_FLOAT = re.compile(r"\d\.\d{5,}")


def _run_page(page: Path) -> dict[str, object]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    done = subprocess.run([node, str(FAKE_DOM), str(page)], capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_nq_page_rounds_numbers_names_actions_and_has_outcome_title_and_legend(
    nq_replay: Path, tmp_path: Path
) -> None:
    data = json.loads(nq_replay.read_text())
    page = write_html(nq_replay, tmp_path / "page.html").read_text()
    assert not LONG_FLOAT.search(page), LONG_FLOAT.search(page)
    assert LONG_FLOAT.search(nq_replay.read_text())  # the replay itself holds long floats
    title = page.split("<title>", 1)[1].split("</title>", 1)[0]
    outcome = data["outcome"]
    assert outcome and (f"{outcome['winner']} wins" if outcome["winner"] else "a draw") in title
    assert outcome["reason"] in title
    view = frames_of(data)
    labels = [f["label"] for f in view["frames"][1:]]
    decided = [(step["action"], label) for step, label in zip(data["steps"], labels, strict=True)
               if step["action"]]  # fmt: skip
    assert decided
    for action, label in decided:  # "mech 1 jumps to (21.8, 7.6)", not "Move (mech 1, to [...])"
        assert action["type"] not in label and "False" not in label, (action, label)
    for frame in view["frames"]:
        assert len(frame["log"]) == len(frame["events"])
        for text in frame["log"]:
            assert not re.search(r"\w=\S", text), text
    result = _run_page(tmp_path / "page.html")
    texts = result["texts"]
    assert isinstance(texts, list)
    kinds = {t["kind"] for t in view["map"]["terrain"]}
    assert kinds and all(k.replace("_", " ") in texts for k in kinds), (kinds, texts[:40])
    assert "black line: facing" in texts and "PEF (unknown enemy)" in texts
    assert any(t.startswith("mech ") and " fires the " in t for t in texts)  # words in the log


@pytest.mark.parametrize("env_id", ["wargym/PentagonWar-Duel-v0", "wargym/StarshipCombat-Duel-v0"])
def test_space_replays_name_actions_in_words_and_end_with_an_outcome(env_id: str) -> None:
    replay = record_hex_replay(env_id, seed=0, max_steps=400)
    labels = [f["label"] for f in replay["frames"][1:]]
    assert labels and not any(re.search(r"action \d+", label) for label in labels), labels[:5]
    assert all(re.match(r"\d+\. side 0: ship \d+: [a-z]", label) for label in labels), labels[:5]
    view = frames_of(replay)
    if replay["outcome"] is not None:
        assert "wins" in view["title"] or "draw" in view["title"]
    else:
        assert view["title"].endswith("unfinished")
    logs = [t for f in view["frames"] for t in f["log"]]
    assert logs and not any(LONG_FLOAT.search(t) or re.search(r"\w=\S", t) for t in logs)


@pytest.mark.parametrize("env_id", ["wargym/PentagonWar-Duel-v0", "wargym/StarshipCombat-Duel-v0"])
def test_recorded_space_replays_play_the_default_duel_to_its_end(
    env_id: str, tmp_path: Path
) -> None:
    """Captain against captain until the rules end the game; the outcome is in the title."""
    from wargym.replay import outcome_words

    replay = record_hex_replay(env_id, seed=0)
    outcome = replay["outcome"]
    assert outcome is not None, f"{env_id} ended unfinished after {len(replay['frames'])} frames"
    assert re.fullmatch(r"defeat(: destroyed|: left the map|: out of control)?|mutual|truncated",
                        outcome["reason"]), outcome  # fmt: skip
    assert "side 0: captain" in replay["title"]
    view = frames_of(replay)
    assert view["title"].endswith(" — " + outcome_words(outcome)), view["title"]
    assert "unfinished" not in view["title"] and re.search(r"wins|a draw", view["title"])
    if env_id.startswith("wargym/PentagonWar") and outcome["reason"].startswith("defeat"):
        assert ": " in outcome["reason"], outcome  # how the loser was defeated
    (tmp_path / "game.json").write_text(json.dumps(replay))
    page = write_html(tmp_path / "game.json", tmp_path / "game.html").read_text()
    assert outcome_words(outcome) in page


def test_recorded_space_replays_keep_the_random_mode_and_refuse_unknown_players() -> None:
    replay = record_hex_replay("wargym/PentagonWar-Duel-v0", seed=1, max_steps=30, player="random")
    assert "side 0: random" in replay["title"] and len(replay["frames"]) == 31
    assert replay["outcome"] is None and frames_of(replay)["title"].endswith("unfinished")
    with pytest.raises(ValueError, match="player: must be one of") as error:
        record_hex_replay("wargym/PentagonWar-Duel-v0", player="x" * 500)
    assert len(str(error.value)) < 200


def test_hex_page_lays_out_flat_topped_axial_hexes_as_the_games_do(tmp_path: Path) -> None:
    """A north (0, -1) straight above; C (1, 0) one and a half hex sizes east, half a hex
    height south (rules/hexgrid.py ``pixel``): not a skewed grid."""
    units = [{"id": f"u{q}{r}", "side": 0, "q": q, "r": r, "facing": 0}
             for q, r in [(0, 0), (0, -1), (1, 0), (1, -1), (-1, 1)]]  # fmt: skip
    replay = {"format": "hex-replay-v1", "system": "pentagon_war", "title": "layout",
              "frames": [{"label": "only", "units": units}], "outcome": {"winner": 1, "reason": "defeat"}}  # fmt: skip
    (tmp_path / "hex.json").write_text(json.dumps(replay))
    page = write_html(tmp_path / "hex.json", tmp_path / "hex.html")
    assert "layout \u2014 side 1 wins (defeat)" in page.read_text().split("</title>")[0]
    svg = str(_run_page(page)["svg"])
    at = {m[3]: (float(m[1]), float(m[2]))
          for m in re.finditer(r'<text x="([-\d.]+)" y="([-\d.]+)"[^>]*>(u[-\d]+)</text>', svg)}  # fmt: skip
    assert len(at) == len(units)
    (x0, y0), (xa, ya), (xc, yc) = at["u00"], at["u0-1"], at["u10"]
    size = (xc - x0) / 1.5
    assert size > 0 and xa == pytest.approx(x0)
    assert y0 - ya == pytest.approx(size * 3**0.5)
    assert yc - y0 == pytest.approx(size * 3**0.5 / 2)
    assert at["u1-1"] == pytest.approx((xc, yc - size * 3**0.5))
    assert at["u-11"] == pytest.approx((x0 - 1.5 * size, y0 + size * 3**0.5 / 2))
    legend = _run_page(page)["texts"]
    assert isinstance(legend, list) and "arrow: facing (A north, B-F clockwise)" in legend


def test_nq_replay_title_is_text_and_must_be_a_string(
    nq_replay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(nq_replay.read_text())
    data["title"] = "</title><script>alert(1)</script>" + "x" * 5000
    (tmp_path / "t.json").write_text(json.dumps(data))
    page = write_html(tmp_path / "t.json", tmp_path / "t.html").read_text()
    head = page.split("</title>", 1)[0]
    assert "&lt;/title&gt;&lt;script&gt;" in head and len(head) < 1000  # escaped, cut short
    assert page.count("<script") == 2  # the data block and the page's own script
    data["title"] = ["not", "text"]
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(SystemExit) as stop:
        main([str(tmp_path / "bad.json"), "--html", str(tmp_path / "bad.html")])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and "title: must be a string" in err
    assert not (tmp_path / "bad.html").exists()


def test_nq_log_and_labels_name_the_weapons_as_the_terminal_and_the_browser_do(
    nq_replay: Path,
) -> None:
    """'mech 6 fires the light laser at mech 19', not 'fires weapon 0' (a weapon's index)."""
    from wargym.rules.no_quarter.battle.state import Battle

    data = json.loads(nq_replay.read_text())
    battle = Battle.from_dict(data["start"])
    view = frames_of(data)
    shots = [
        (event, text)
        for frame in view["frames"]
        for event, text in zip(frame["events"], frame["log"], strict=True)
        if event["type"] == "ShotFired"
    ]
    assert shots
    for event, text in shots:
        assert not re.search(r"\bweapon \d", text), text
        item = battle.mechs[event["shooter"]].design.items[event["weapon"]]
        assert f"the {(item.label or item.item.value).replace('_', ' ')} at" in text, text
    fired = [f["label"] for f in view["frames"] if "fire" in f["label"]]
    assert fired and not any(re.search(r"\bweapon \d", label) for label in fired), fired


def test_a_shot_with_an_unknown_weapon_or_shooter_keeps_its_index(nq_replay: Path) -> None:
    """Untrusted replay events: a weapon index past the design or a shooter that is no mech."""
    data = json.loads(nq_replay.read_text())
    shots = [e for s in data["steps"] for e in s["events"] if e["type"] == "ShotFired"]
    assert len(shots) >= 2
    shots[0]["weapon"] = 99
    shots[1]["shooter"] = 10**6
    view = frames_of(data)
    logs = [text for frame in view["frames"] for text in frame["log"]]
    assert any("weapon 99" in text for text in logs)
    assert any(f"mech {10**6} fires weapon " in text for text in logs)
