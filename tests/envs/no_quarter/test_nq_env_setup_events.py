"""The skirmish env's first info and replay hold its set-up's dice (docs/events.md, set-up)."""

from __future__ import annotations

import gymnasium

import wargym  # noqa: F401 - registers the envs


def test_9_skirmish_env_reset_gives_its_own_pilots_dice_and_hides_the_enemys() -> None:
    env = gymnasium.make("wargym/NoQuarter-Skirmish-v1", info_events=True)
    _, info = env.reset(seed=3)
    battle = env.unwrapped.battle
    created = [e for e in info["events"] if e["type"] == "PilotCreated"]
    blue = sorted(m.id for m in battle.mechs.values() if m.side.value == "blue")
    assert sorted(e["mech"] for e in created) == blue  # every own pilot, no enemy pilot
    for e in created:  # the recorded Rep die reads the pilot's Rep (a Grunt: table 9.4.2)
        assert e["rep"] == battle.mechs[e["mech"]].pilot.rep
        assert e["rep_face"] is None or 1 <= e["rep_face"] <= 6
    kinds = [e["type"] for e in info["events"]]
    assert kinds.index("PilotCreated") < kinds.index("ActivationRolled")
    log = env.unwrapped._log
    assert log[0]["agent"] == "setup"
    assert {type(e).__name__ for e in log[0]["events"]} == {"PilotCreated"}
    env.close()
