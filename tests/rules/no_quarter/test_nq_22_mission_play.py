"""Missions in play: set-up, PEFs resolved only when seen, contacts, NP side, end (§19-§22).

Golden playthroughs: ``tests/golden/nq_missions.json`` holds, per mission, the hash of the
whole event log of a seeded playthrough plus its milestones. Regenerate on purpose only:
``WARGYM_REGEN_GOLDEN=1 pytest tests/rules/no_quarter/test_nq_22_mission_play.py``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest

from wargym.rules.dice import FallbackDice, RandomDice
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.flow import Ctx
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.mission.mission_play import new_mission
from wargym.rules.no_quarter.mission.scenario import load_scenario, scenario_names
from wargym.rules.no_quarter.non_player import np_events as npev

GOLDEN = Path(__file__).parents[2] / "golden" / "nq_missions.json"
MISSIONS = [n for n in scenario_names() if not n.startswith("skirmish")]


class RecordingDice:
    """RandomDice that remembers every face, to replay a prefix exactly."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomDice.from_seed(seed)
        self.faces: list[int] = []

    def roll(self, n: int) -> tuple[int, ...]:
        faces = self.inner.roll(n)
        self.faces.extend(faces)
        return faces


def _short(name: str, turns: int) -> object:
    sc = load_scenario(name)
    return dataclasses.replace(sc, turn_limit=turns)


def test_22_0_every_mission_sets_up_with_pefs_and_the_rules_on_the_enemy_side() -> None:
    for name in MISSIONS:
        battle = new_mission(name, np.random.default_rng(1), RandomDice.from_seed(2))
        assert battle.np is not None and battle.mission is not None
        assert battle.np["side"] == "red"
        assert len(battle.np["pefs"]) >= 3 or battle.np["contact_so_far"]  # three PEFs (§20.0)
        for marker in battle.np["pefs"]:
            assert set(marker) == {"id", "pos", "building"}  # a position, never contents
        decision = game.decider(battle)
        assert decision is not None and decision.side is Side.BLUE  # only the player decides
        restored = Battle.from_dict(json.loads(json.dumps(battle.to_dict())))
        assert restored.to_dict() == battle.to_dict()


def test_20_3_pef_contents_are_not_rolled_before_resolution() -> None:
    """Two missions that differ only in dice not yet rolled look the same to the player."""
    for name in MISSIONS:
        recorder = RecordingDice(7)
        first = new_mission(name, np.random.default_rng(3), recorder)
        prefix = list(recorder.faces)
        second = new_mission(
            name, np.random.default_rng(3), FallbackDice(prefix, np.random.default_rng(999))
        )
        assert first.to_dict() == second.to_dict()
        assert game.legal_actions(first) == game.legal_actions(second)


def _pef_in_sight() -> tuple[Battle, dict[str, object]]:
    """A Patrol with an unresolved PEF moved 8" ahead of the first player mech, check due."""
    battle = next(
        b
        for seed in range(50)
        for b in [
            new_mission(
                "patrol_star_army_vs_hishen",
                np.random.default_rng(seed),
                RandomDice.from_seed(seed),
            )
        ]
        if b.np is not None and b.np["pefs"] and not b.np["contact_so_far"]
    )
    assert battle.np is not None
    player = battle.mechs_of(Side.BLUE)[0]
    marker = battle.np["pefs"][0]
    marker["pos"] = [player.pos[0], min(player.pos[1] + 8.0, 35.0)]
    battle.geometry_cache = None
    battle.options_cache = None
    battle.np["check_due"] = True
    return battle, marker


def test_20_3_a_seen_pef_resolves_into_a_contact_group_and_an_in_sight() -> None:
    battle, marker = _pef_in_sight()
    assert battle.np is not None
    before = len(battle.mechs)
    # resolution: 2d6 (1, 1) pass 2 -> contact; contact size 1d6 = 3 -> as many as triggering
    dice = FallbackDice([1, 1, 3], np.random.default_rng(11))
    ctx = Ctx(battle, dice, game.rules_of(battle))
    battle.decision = None
    game._run(ctx)
    resolved = next(e for e in ctx.log if isinstance(e, npev.PefResolved))
    assert (resolved.faces, resolved.passes, resolved.result) == ((1, 1), 2, "contact")
    assert resolved.contact_face == 3  # contact size 3: as many as the triggering force
    assert resolved.enemies == len(resolved.triggering)  # a Team of the player: multiplier 1
    arrived = next(e for e in ctx.log if isinstance(e, npev.MechsArrived))
    assert arrived.side is Side.RED and len(arrived.mechs) == resolved.enemies
    assert len(battle.mechs) == before + resolved.enemies
    assert all(m["id"] != marker["id"] for m in battle.np["pefs"])
    assert any(isinstance(e, ev.InSightTaken) for e in ctx.log) or (
        battle.decision is not None and battle.decision.kind.value == "free_move"
    )


def _policy_play(name: str, seed: int, turns: int = 8) -> tuple[Battle, list[dict[str, object]]]:
    rng = np.random.default_rng(seed)
    dice = RandomDice.from_seed(seed + 1)
    battle = new_mission(_short(name, turns), rng, dice)  # type: ignore[arg-type]
    log: list[dict[str, object]] = []
    steps = 0
    while not battle.over:
        options = game.legal_actions(battle)
        assert options, battle.decision
        assert battle.decision is not None and battle.decision.side is Side.BLUE  # rules play red
        live = [m for m in battle.mechs.values() if m.removed is None]
        for i, a in enumerate(live):  # no two mechs in one place
            for b in live[i + 1 :]:
                gap = ((a.pos[0] - b.pos[0]) ** 2 + (a.pos[1] - b.pos[1]) ** 2) ** 0.5
                assert gap >= 2 * battle.options.base_radius * 0.999 - 1e-6, (a.id, b.id)
        log.extend(
            e.to_dict() for e in game.play(battle, options[int(rng.integers(len(options)))], dice)
        )
        steps += 1
        assert steps < 4000
    return battle, log


def _digest(log: list[dict[str, object]]) -> str:
    return hashlib.sha256(json.dumps(log, sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize(
    "name", ["patrol_star_army_vs_hishen", "attack_iss_vs_hishen", "defend_pdf_vs_hishen"]
)
def test_22_golden_playthrough_is_reproduced_step_by_step(name: str) -> None:
    battle, log = _policy_play(name, 21)
    types = [str(e["type"]) for e in log]
    record = {
        "hash": _digest(log),
        "events": len(log),
        "first": types[:40],
        "milestones": [
            t
            for t in types
            if t
            in (
                "PefResolved",
                "MechsArrived",
                "MissionEnded",
                "ReinforcementChecked",
                "WeatherChanged",
            )
        ],
        "end": battle.end_reason,
    }
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("WARGYM_REGEN_GOLDEN") == "1" or name not in golden:
        golden[name] = record
        GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True))
    expected = golden[name]
    assert record["first"] == expected["first"]
    assert record["milestones"] == expected["milestones"]
    assert record["end"] == expected["end"]
    assert record["events"] == expected["events"]
    assert record["hash"] == expected["hash"]
    assert "MissionEnded" in record["milestones"]


PLAYOUTS, CHUNKS = 1000, 20


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_22_random_missions_end_by_an_end_condition_or_the_turn_limit(chunk: int) -> None:
    per = PLAYOUTS // CHUNKS
    for seed in range(chunk * per, (chunk + 1) * per):
        name = MISSIONS[seed % len(MISSIONS)]
        battle, log = _policy_play(name, seed, turns=3)
        assert battle.over and battle.mission is not None
        assert battle.mission["outcome"] is not None
        assert battle.end_reason.startswith("mission ")
        assert not log or any(e["type"] == "MissionEnded" for e in log)  # may end at set-up
        for mech in battle.mechs.values():  # armour only ever goes down
            assert all(a <= d for a, d in zip(mech.armor, mech.design.armor, strict=True))


def test_23_8_4_player_reinforcements_come_from_the_off_table_company_first() -> None:
    reserve = [
        {"company": 100 + c, "design": f"star_army_c{c}", "pilot": 200 + c, "rep": 5}
        for c in (1, 2, 3, 4, 5)
        for _ in range(3)
    ]

    def prepare(battle: Battle) -> None:
        assert battle.mission is not None
        battle.mission["reserve"] = [dict(r) for r in reserve]

    battle = new_mission(
        "patrol_star_army_vs_hishen",
        np.random.default_rng(2),
        RandomDice.from_seed(2),
        prepare=prepare,
    )
    assert battle.mission is not None and battle.mission["reserve"]
    from wargym.rules.no_quarter.non_player.np_flow import check_reinforcements

    before = {m.id for m in battle.mechs.values()}
    # activation 4 + 3 = 7: blue may be reinforced; 2d6 (1, 1) vs CM 3 passes 2; table roll 3+4
    ctx = Ctx(battle, FallbackDice([1, 1, 3, 4], np.random.default_rng(8)), game.rules_of(battle))
    check_reinforcements(ctx, 4, 3)
    checked = next(e for e in ctx.log if isinstance(e, npev.ReinforcementChecked))
    assert checked.side is Side.BLUE and checked.passes == 2
    assert (checked.table_faces, checked.unit, checked.mechs) == ((3, 4), "one_squad", 6)
    arrived = [e for e in ctx.log if isinstance(e, npev.MechsArrived)]
    assert arrived and arrived[0].side is Side.BLUE
    used = battle.mission["reserve_used"]
    new_ids = {m.id for m in battle.mechs.values()} - before
    assert used and set(map(int, used)) <= new_ids
    for bid, entry in used.items():
        assert battle.mechs[int(bid)].design.id == entry["design"]
        assert battle.mechs[int(bid)].rep == entry["rep"]
    assert len(battle.mission["reserve"]) == len(reserve) - len(used)


def test_20_4_mechs_arrived_records_each_mechs_class_roll_and_pilot_dice() -> None:
    battle, marker = _pef_in_sight()
    assert battle.np is not None
    # contact (1, 1), size 3; then per block of 3 the Class die and each Hishen's Rep die
    reps = [2, 5, 6, 1, 3, 4]
    dice = FallbackDice([1, 1, 3, 4, *reps[:3], 6, *reps[3:]], np.random.default_rng(11))
    ctx = Ctx(battle, dice, game.rules_of(battle))
    battle.decision = None
    game._run(ctx)
    arrived = next(e for e in ctx.log if isinstance(e, npev.MechsArrived))
    blocks = len(arrived.class_dice)
    assert arrived.class_dice == ((4,), (6,))[:blocks]
    assert [a.block for a in arrived.mechs].count(0) == min(3, len(arrived.mechs))
    assert sorted(f for a in arrived.mechs for f in a.pilot_faces) == sorted(
        reps[: len(arrived.mechs)]
    )
    rules = game.rules_of(battle)
    for a in arrived.mechs:  # the recorded Rep die reads the pilot's Rep (table 9.4.2)
        assert rules.pilot_rep["hishen"][a.pilot_faces[-1] - 1] == a.pilot.rep
    assert ev.NO_QUARTER_EVENTS.from_dict(arrived.to_dict()) == arrived
