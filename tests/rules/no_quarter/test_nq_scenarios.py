"""Scenario files: strict loading, round trips and the shipped scenarios (§21.4, §22, §24)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
import pytest
import yaml

from wargym.rules.dice import RandomDice, ScriptedDice
from wargym.rules.errors import TableError
from wargym.rules.no_quarter.battlefield.terrain_generator import OverallType
from wargym.rules.no_quarter.forces.setup import new_battle
from wargym.rules.no_quarter.forces.vocab import Faction, Side
from wargym.rules.no_quarter.mission.missions import AttackObjective, MissionType, PlanetStatus
from wargym.rules.no_quarter.mission.scenario import (
    Scenario,
    dump_scenario,
    load_scenario,
    scenario_from_dict,
    scenario_names,
)
from wargym.rules.tables import parse_yaml

GOOD = """\
# Source: a test scenario (§22.1)
name: test_patrol
mission: patrol
player:
  faction: star_army
  mechs: [star_army_c3, star_army_c4, scout]
  reps: [5, 4, 4]
enemy:
  faction: hishen
custom_mechs:
  - id: scout
    name: "Scout"
    faction: star_army
    armor: {head: 2, arm_l: 2, arm_r: 2, chest: 3, gut: 3, leg_l: 3, leg_r: 3}
    items:
      - {type: beam_medium, location: arm_r}
      - {type: melee_weapon, location: arm_l, wv: 1}
options:
  battle: {base_radius: 0.6}
  rules: {strict_mounting: true}
  mission: {ratio_rounding: down}
  terrain: {overall: wooded, road: true}
  weather: {worse_reduces_limits: true}
"""


def _doc(text: str = GOOD) -> dict[str, object]:
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


def _load(tmp_path: Path, data: dict[str, object], name: str = "bad.yaml") -> Scenario:
    path = tmp_path / name
    path.write_text("# Source: test\n" + yaml.safe_dump(data), encoding="utf-8")
    return load_scenario(path)


def test_scenarios_every_shipped_scenario_loads() -> None:
    names = scenario_names()
    assert len(names) >= 6
    kinds = set()
    pairings = set()
    for name in names:
        sc = load_scenario(name)
        assert sc.name == name and sc.source == f"scenarios/no_quarter/{name}.yaml"
        kinds.add(sc.kind)
        pairings.add((sc.player.faction, sc.enemy.faction))
        sc.rules()  # custom mechs build
    assert kinds == {"patrol", "attack", "defend", "skirmish"}
    for gaea in (Faction.STAR_ARMY, Faction.ISS, Faction.PDF):  # Cestus V pairings (§27.1)
        assert (gaea, Faction.HISHEN) in pairings


def test_scenarios_shipped_files_cite_a_source() -> None:
    folder = resources.files("wargym.configs").joinpath("scenarios/no_quarter")
    for name in scenario_names():
        first = folder.joinpath(f"{name}.yaml").read_text(encoding="utf-8").split("\n", 1)[0]
        assert first.startswith("# Source:")


def test_scenarios_round_trip_through_yaml(tmp_path: Path) -> None:
    sc = scenario_from_dict(_doc(), "test.yaml")
    assert sc.options.battle.base_radius == 0.6 and sc.options.rules.strict_mounting
    assert sc.options.terrain.overall is OverallType.WOODED and sc.options.terrain.road
    assert sc.player.reps == (5, 4, 4) and sc.enemy.campaign_morale == 3
    again = scenario_from_dict(yaml.safe_load(dump_scenario(sc)), "test.yaml")
    assert again == sc
    for name in scenario_names():
        shipped = load_scenario(name)
        path = tmp_path / f"{name}.yaml"
        path.write_text(dump_scenario(shipped), encoding="utf-8")
        back = load_scenario(path)
        assert back.to_dict() == shipped.to_dict()


def test_scenarios_helpers() -> None:
    sc = scenario_from_dict(_doc(), "test.yaml")
    assert sc.mission is MissionType.PATROL and sc.uses_pefs
    rules = sc.rules()
    assert rules.mech("scout").mech_class == 4 and "scout" not in sc.rules().rejected_mechs
    assert [f.side for f in sc.force_specs()] == [Side.BLUE]
    assert sc.battle_options().rules.strict_mounting and sc.battle_options().max_turns == 20
    bf = sc.battlefield(RandomDice.from_seed(3))
    assert any(f.kind.value == "road" for f in bf.features)
    c = sc.roll_conditions(ScriptedDice([1, 2]))  # patrol: no night die; inclement, improving
    assert not c.night and c.weather.label == "improving"


def test_scenarios_skirmish_builds_a_battle() -> None:
    sc = load_scenario("skirmish")
    assert sc.mission is None and not sc.uses_pefs and sc.features is not None
    cond = sc.roll_conditions(ScriptedDice([]))  # fixed: day, clear, no dice
    bf = sc.battlefield(ScriptedDice([]), cond)
    assert not bf.night and not bf.inclement_weather
    battle = new_battle(
        sc.force_specs(), bf, np.random.default_rng(0), RandomDice.from_seed(0), sc.battle_options()
    )
    assert len(battle.mechs) == 6 and battle.options.max_turns == sc.turn_limit == 20


def test_scenarios_mission_specific_fields() -> None:
    iss = load_scenario("attack_iss_vs_hishen")
    assert iss.attack_objective is AttackObjective.BREAK_THROUGH
    assert iss.np_status is PlanetStatus.CONTESTS and iss.player.campaign_morale == 5
    assert len(iss.player.mechs) == 12 and iss.rules().mech("iss_raider").faction is Faction.ISS
    pdf = load_scenario("defend_pdf_vs_hishen")
    assert pdf.np_objective is None and pdf.mission_options().turn_limit == 12
    night = load_scenario("defend_star_army_vs_hishen")
    assert night.roll_conditions(ScriptedDice([3])).night  # fixed night; weather die 3: clear


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(weather="rain"), "unknown keys ['weather']"),
        (lambda d: d["player"].update(mechs=["star_army_c9"], reps="rolled"), "player.mechs[0]"),
        (lambda d: d["player"].update(mechs=["hishen_c3"], reps="rolled"), "not star_army"),
        (lambda d: d["enemy"].update(faction="klingon"), "enemy.faction"),
        (lambda d: d["options"]["battle"].update(max_turn=3), "options.battle: unknown option"),
        (lambda d: d["options"]["rules"].update(gun_stats="x"), "options.rules: unknown option"),
        (lambda d: d["options"]["battle"].update(max_turns=3), "top-level turn_limit"),
        (lambda d: d["options"]["battle"].update(base_radius="big"), "options.battle.base_radius"),
        (lambda d: d["options"]["terrain"].update(overall="swamp"), "options.terrain.overall"),
        (lambda d: d["custom_mechs"][0]["armor"].update(chest=30), "custom_mechs[0]"),
        (lambda d: d["custom_mechs"][0].update(id="star_army_c3"), "custom_mechs[0].id"),
        (lambda d: d["player"].update(reps=[4]), "player.reps"),
        (lambda d: d["player"].update(stars=9), "player.stars"),
        (lambda d: d["enemy"].update(mechs=["hishen_c3"]), "enemy.mechs"),
        (lambda d: d["player"].update(mechs=["star_army_c4"] * 7, reps="rolled"), "exceed a squad"),
        (lambda d: d.update(attack_objective="destroy"), "attack_objective"),
        (lambda d: d.update(mission="raid"), "mission"),
        (lambda d: d.update(conditions={"weather": "sunny"}), "conditions.weather"),
        (
            lambda d: d.update(terrain={"features": [{"kind": "lava", "x0": 0, "y0": 0}]}),
            "terrain.features[0]",
        ),
    ],
)
def test_scenarios_bad_files_name_file_and_field(
    tmp_path: Path, change: object, field: str
) -> None:
    data = _doc()
    change(data)  # type: ignore[operator]
    with pytest.raises(TableError) as error:
        _load(tmp_path, data)
    message = str(error.value)
    assert str(tmp_path / "bad.yaml") in message
    assert field in message


def test_scenarios_custom_mech_violating_design_rules_lists_the_problem(tmp_path: Path) -> None:
    data = _doc()
    data["custom_mechs"][0]["items"].append({"type": "gun_heavy", "location": "chest"})  # type: ignore[index]
    with pytest.raises(TableError, match=r"custom_mechs\[0\].*gun"):
        _load(tmp_path, data)


def test_scenarios_skirmish_needs_enemy_mechs_and_unknown_names() -> None:
    data = _doc(GOOD.replace("mission: patrol", "mission: skirmish"))
    with pytest.raises(TableError, match="enemy"):
        scenario_from_dict(data, "s.yaml")
    with pytest.raises(TableError, match="no such scenario"):
        load_scenario("no_such_scenario")
    with pytest.raises(TableError, match="missing keys"):
        scenario_from_dict({"name": "x"}, "s.yaml")


def test_scenarios_parse_node_keeps_the_source() -> None:
    sc = load_scenario("patrol_star_army_vs_hishen")
    node = parse_yaml(dump_scenario(sc), "copy.yaml")
    assert scenario_from_dict(node.value, "copy.yaml").source == "copy.yaml"
