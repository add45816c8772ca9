"""wargym.describe: actions and events of every game in plain words (no indices, no long floats)."""

from __future__ import annotations

import re

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401
from wargym.describe import (
    describe_action,
    describe_event,
    describe_index,
    fmt_number,
    game_key,
    round_numbers,
)

LONG_FLOAT = re.compile(r"\d\.\d{4,}")

GAMES = [
    ("wargym/NoQuarter-Skirmish-v1", "no_quarter"),
    ("wargym/PentagonWar-Duel-v0", "pentagon_war"),
    ("wargym/StarshipCombat-Duel-v0", "starship_combat"),
]


def test_numbers_are_rounded() -> None:
    assert fmt_number(21.789342342342342) == "21.8"
    assert fmt_number(3.0) == "3" and fmt_number(7) == "7" and fmt_number(-0.01) == "0"
    assert fmt_number(2.456, 2) == "2.46"
    assert round_numbers({"a": [1.23456789, 2.0, "x"], "b": {"c": 0.5}}) == {
        "a": [1.23, 2, "x"],
        "b": {"c": 0.5},
    }


def test_game_keys() -> None:
    assert game_key("wargym/PentagonWar-Duel-v0") == "pentagon_war"
    assert game_key("wargym/NoQuarter-Patrol-v1") == "no_quarter"
    assert game_key("sc") == "starship_combat" and game_key("chess") == ""


@pytest.mark.parametrize(("env_id", "game"), GAMES)
def test_every_action_and_event_of_a_game_reads_as_words(env_id: str, game: str) -> None:
    env = gymnasium.make(env_id, **({"info_events": True} if game == "no_quarter" else {}))
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    texts, events = [], []
    for _ in range(150):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        texts.append(describe_index(env, action))
        obs, _, terminated, truncated, info = env.step(action)
        events += info.get("events", [])
        if terminated or truncated:
            break
    assert events
    for text in texts:
        assert not re.fullmatch(r"action \d+.*", text), text
        assert not LONG_FLOAT.search(text), text
    described = [describe_event(game, e) for e in events]
    for event, text in zip(events, described, strict=True):
        assert not LONG_FLOAT.search(text), text
        assert not re.search(r"\w=\S", text) and "{" not in text, (event, text)
        assert " at mech -" not in text, text  # a building target is named as a building
    # the templates, not the generic fallback, wrote every event of these games
    from wargym.describe_events import TEMPLATES

    assert {e["type"] for e in events} <= set(TEMPLATES[game])


def test_space_game_actions_name_ships_and_weapons() -> None:
    env = gymnasium.make("wargym/StarshipCombat-Duel-v0")
    obs, _ = env.reset(seed=0)
    assert describe_index(env, 0) == "ship 0: heading A"
    from wargym.rules.pentagon_war.actions import Action, ActionKind

    assert describe_action("pentagon_war", Action(ActionKind.ROTATE, 1)) == "turn right"
    assert describe_action("pentagon_war", {"kind": "fire", "value": 2}) == "fire weapon at ship 2"
    assert describe_action("pentagon_war", 10) == "action 10"  # no codec: says so plainly


def test_odd_events_fall_back_to_their_fields_and_never_raise() -> None:
    text = describe_event("no_quarter", {"type": "ShotFired", "shooter": [1], "hit": "x"})
    assert text.startswith("shot fired")
    moved = {"type": "MechMoved", "mech": 1, "inches": 1.23456789, "path": [[1.11111, 2.22222]],
             "heading": 90.0, "kind": "move"}  # fmt: skip
    assert describe_event("no_quarter", moved) == (
        'mech 1 moves 1.2" to (1.1, 2.2), facing north (90 deg)'
    )
    deep: list[object] = []
    for _ in range(200):
        deep = [deep]
    assert describe_event("pentagon_war", {"type": "Nope", "x": deep})
    assert describe_event("starship_combat", 17) == "17"
    assert describe_action("no_quarter", {"type": "Move", "mech": "x"}).startswith("move")
    assert describe_action("no_quarter", {"type": "Move", "mech": 1, "to": [2.123456, 3.0]}) == (
        "mech 1 moves to (2.1, 3.0)"
    )


def test_no_quarter_events_name_locations_tests_and_statuses_in_words() -> None:
    """The replay's log reads as the terminal and the browser read: 'left leg', not 'leg l'."""
    shot = describe_event("no_quarter", {"type": "HitLocated", "target": 3, "location": "leg_l"})
    assert "left leg" in shot and "leg l" not in shot
    damage = describe_event(
        "no_quarter",
        {
            "type": "DamageRolled",
            "target": 3,
            "location": "arm_r",
            "armor_before": 3,
            "armor_after": 2,
            "critical": False,
        },
    )
    assert "right arm" in damage
    crit = describe_event(
        "no_quarter",
        {"type": "CriticalHit", "mech": 3, "location": "leg_r", "kind": "leg_blown_off"},
    )
    assert "right leg" in crit
    test = describe_event(
        "no_quarter",
        {
            "type": "ReactionTaken",
            "mech": 19,
            "test": "takes_damage",
            "passed": 0,
            "result": "leave_battlefield",
        },
    )
    assert "takes a takes" not in test and "damage test" in test
    assert "passes 0d6" not in test and "passes no d6" in test
    status = describe_event(
        "no_quarter",
        {"type": "StatusChanged", "mech": 19, "status": "duck_back", "reason": "ranged damage"},
    )
    assert "is now ducking back" in status
    moved = describe_event(
        "no_quarter",
        {
            "type": "MechMoved",
            "mech": 19,
            "kind": "leave",
            "inches": 6.2,
            "path": [[1.4, 29.2]],
            "heading": 110,
        },
    )
    assert "(leave)" not in moved and "leave the battlefield" in moved
    sight = describe_event(
        "no_quarter",
        {
            "type": "InSightTaken",
            "moving_leader": 19,
            "nonmoving_leader": 1,
            "moving_successes": 1,
            "nonmoving_successes": 5,
            "moving_wins": False,
        },
    )
    assert "1 successes" not in sight and "1 success," in sight and "5 successes" in sight


def test_counts_agree_with_their_nouns() -> None:
    """'1 hit', '1 battery', '1 penetrates'; not '1 hits', '1 batteries', '1 penetrate'."""
    one = describe_event(
        "starship_combat",
        {
            "type": "ToHitRolled",
            "ship": 0,
            "target": 1,
            "weapon": "fusion_gun",
            "batteries": 1,
            "hits": 1,
        },
    )
    assert "1 fusion gun battery at" in one and "1 hit" in one and "1 hits" not in one
    two = describe_event(
        "starship_combat",
        {
            "type": "ToHitRolled",
            "ship": 0,
            "target": 1,
            "weapon": "missile",
            "batteries": 8,
            "hits": 0,
        },
    )
    assert "8 missile batteries" in two and "0 hits" in two
    pen = describe_event(
        "starship_combat",
        {
            "type": "PenetrationRolled",
            "ship": 0,
            "target": 1,
            "weapon": "meson_gun",
            "defence": "meson_screen",
            "penetrating": 1,
        },
    )
    assert "1 penetrates" in pen
    box = describe_event(
        "starship_combat",
        {
            "type": "ComponentDamaged",
            "ship": 1,
            "component": "weapon:missile",
            "before": 7,
            "after": 6,
        },
    )
    assert "weapon:missile" not in box and "missile" in box
    revived = describe_event(
        "starship_combat", {"type": "FrozenWatchRevived", "ship": 0, "segments": 1}
    )
    assert "1 crew segment" in revived and "segments" not in revived
    from types import SimpleNamespace

    from wargym.rules.starship_combat.actions import Fire

    decision = SimpleNamespace(ship=0, weapon="fusion_gun")
    order = describe_action("starship_combat", Fire(target=1, batteries=1), decision=decision)
    assert order == "ship 0: fire 1 fusion gun battery at ship 1"


def test_lists_of_two_mechs_are_not_read_as_a_point() -> None:
    """'mechs 3, 4', not 'mechs (3, 4)' (two ids are no (x, y) point)."""
    joined = describe_event(
        "no_quarter", {"type": "TeamJoined", "side": "blue", "leader": 0, "joined": [3, 4]}
    )
    assert "mechs 3, 4 " in joined and "(3, 4)" not in joined, joined
    group = describe_event(
        "no_quarter",
        {"type": "GroupActivated", "side": "red", "leader": 7, "members": [7, 8],
         "activation_rep": 4, "die": 2},
    )  # fmt: skip
    assert "(mechs 7, 8)" in group, group
    formed = describe_event(
        "no_quarter",
        {"type": "GroupsFormed", "side": "red", "groups": [[7], [8]], "leaders": [7, 8]},
    )
    assert "mechs 7, 8" in formed and "(7, 8)" not in formed, formed


def test_no_quarter_action_and_status_reason_keys_read_as_words() -> None:
    """'hits the right arm' (the engine's text says 'arm_r'); a status reason 'fired on result'."""
    from wargym.rules.no_quarter.battle.actions import ChooseLocation
    from wargym.rules.no_quarter.forces.vocab import Location

    text = describe_action("no_quarter", ChooseLocation(10, Location("arm_r")))
    assert text.endswith("hits the right arm"), text
    status = describe_event(
        "no_quarter",
        {"type": "StatusChanged", "mech": 18, "status": "duck_back", "reason": "fired_on result"},
    )
    assert status == "mech 18 is now ducking back (fired on result)", status


def test_move_kinds_and_ship_boxes_read_as_words() -> None:
    """The engine's move kinds ('voluntary', 'duck_back') and box keys ('screen:meson_screen')."""
    base = {"type": "MechMoved", "mech": 2, "inches": 6.0, "path": [[3, 4]], "heading": 90}
    assert describe_event("no_quarter", {**base, "kind": "voluntary"}).startswith(
        'mech 2 moves 6" to (3, 4)'
    )
    assert describe_event("no_quarter", {**base, "kind": "duck_back"}).startswith(
        "mech 2 ducks back 6"
    )
    chosen = describe_event(
        "starship_combat", {"type": "BoxChosen", "ship": 0, "chosen": "screen:meson_screen"}
    )
    assert chosen == "ship 0 damage falls on the meson screen", chosen
    box = describe_event(
        "starship_combat",
        {"type": "ComponentDamaged", "ship": 1, "component": "weapon:missile", "before": 7,
         "after": 6},
    )  # fmt: skip
    assert box == "ship 1 missile weapon: 7 -> 6", box


def test_headings_in_compass_words_as_the_terminal_and_the_browser_say_them() -> None:
    """'faces north (90 deg)', 'torso twisted left' (0 = east, counter-clockwise)."""
    faced = describe_event("no_quarter", {"type": "MechFaced", "mech": 1, "heading": 90,
                                          "twist": 30})  # fmt: skip
    assert faced == "mech 1 faces north (90 deg), torso twisted left", faced
    step = {"type": "MechMoved", "mech": 2, "kind": "voluntary", "inches": 3, "path": [[1, 1]]}
    moved = describe_event("no_quarter", {**step, "heading": 154})
    assert moved.endswith("facing north-west (154 deg)"), moved
    right = describe_event("no_quarter", {"type": "MechFaced", "mech": 1, "heading": 270,
                                          "twist": -30})  # fmt: skip
    assert right == "mech 1 faces south (270 deg), torso twisted right", right
