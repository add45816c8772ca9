"""Ship displays and tables load strictly; custom designs are validated (PW-R13, PW-R20)."""

from __future__ import annotations

import pytest

from wargym.rules.errors import TableError
from wargym.rules.pentagon_war import power
from wargym.rules.pentagon_war.data import FILES, design_from_yaml, load_rules, load_rules_from
from wargym.rules.pentagon_war.records import Category, ScreenType
from wargym.rules.tables import load_config, parse_yaml

RULES = load_rules()


def test_pw_r20_zelta_dee_and_fighter_box_counts() -> None:
    zd, fighter = RULES.designs["zelta_dee"], RULES.designs["alpha_centaurian_fighter"]
    for design, total in ((zd, 38), (fighter, 37)):
        assert (design.size_class, design.mass_class, sum(design.armor)) == (2, 2, 60)
        assert sum(s.boxes for s in design.systems) + design.final_damage == total
        assert design.radar_track == (6, 6, 5, 3, 1, 0)
    assert zd.screens is ScreenType.DIRECTIONAL and fighter.screens is ScreenType.NORMAL
    assert [w.arc.token for w in zd.weapons if w.arc] == [
        "F2",
        "F2",
        "L3",
        "R3",
        "F2",
        "LF+L",
        "RF+R",
    ]
    assert [w.name for w in fighter.weapons][-1] == "f3_proton"
    assert zd.linkage_partner == "zelta" and zd.linkage_blocked_arcs == ("R",)
    assert fighter.linkage_partner == "alpha_centaurian_carrier"
    assert RULES.designs["alpha_centaurian_carrier"].host_berths == 2


def test_pw_r20_fighter_fires_everything_for_exactly_six_charges() -> None:
    fighter = RULES.designs["alpha_centaurian_fighter"]
    cost = sum(
        RULES.systems.costs[line]
        for w in fighter.weapons
        if (line := RULES.weapon_types[w.weapon or ""].capacitor_line)
    )
    assert cost == 6
    zd = RULES.designs["zelta_dee"]
    lines = [RULES.weapon_types[w.weapon or ""].capacitor_line for w in zd.weapons]
    assert sum(RULES.systems.costs[line] for line in lines if line) == 8


def test_pw_balanced_designs_exist_and_are_fleet_ready() -> None:
    for key in ("lancer", "picket"):
        design = RULES.designs[key]
        assert design.size_class == 2 and sum(design.armor) == 60 and design.weapons
    assert set(RULES.scenarios) >= {"duel", "fleet", "squadron", "carrier", "melee"}


GOOD = """
name: Test Boat
crew: unmanned
size_class: 1
mass_class: 1
screens: none
armor: [5, 5, 5, 5, 5, 5]
final_damage: 2
radar_track: [5, 3, 1]
systems:
  - {name: engines, category: engine, boxes: 2}
  - {name: main_ctrl, category: main_control, boxes: 1}
  - {name: nose_laser, category: laser, boxes: 1, weapon: laser, arc: F}
"""


def test_pw_custom_design_validates() -> None:
    design = design_from_yaml(GOOD, "test_boat")
    assert design.weapons[0].arc is not None and design.weapons[0].arc.parts == ((0, 30),)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("armor: [5, 5, 5, 5, 5, 5]", "armor: [5, 5, 5]"), "6 armor rows"),
        (("weapon: laser, arc: F", "weapon: phaser, arc: F"), "phaser"),
        (("arc: F}", "arc: Q2}"), "unknown base"),
        (("arc: F}", "arc: F9}"), "width 9"),
        (
            ("category: laser, boxes: 1, weapon: laser", "category: gun, boxes: 1, weapon: laser"),
            "category laser",
        ),
        (("screens: none", "screens: normal"), "category screen"),
        (("crew: unmanned", "crew: unmanned\ncolour: red"), "unknown keys"),
        (("radar_track: [5, 3, 1]", "radar_track: [1, 3, 5]"), "must not increase"),
        (("boxes: 2}", "boxes: 0}"), "below the minimum"),
    ],
)
def test_pw_custom_design_errors_name_the_key(change: tuple[str, str], message: str) -> None:
    text = GOOD.replace(*change)
    assert text != GOOD
    with pytest.raises(TableError, match=message) as info:
        design_from_yaml(text, "test_boat")
    assert "custom design test_boat" in str(info.value)


def test_pw_tables_reject_a_gap_in_the_range_modifier() -> None:
    nodes = {name: load_config(f"rules/pentagon_war/{name}.yaml") for name in FILES}
    text = nodes["weapons"].value
    broken = dict(text)
    broken["universal_range_modifier"] = [
        r for r in text["universal_range_modifier"] if r["penalty"] != 3
    ]
    nodes["weapons"] = parse_yaml(__import__("yaml").safe_dump(broken), "weapons.yaml")
    with pytest.raises(TableError, match="universal_range_modifier"):
        load_rules_from(nodes)


def test_pw_every_system_maps_to_a_chart_category() -> None:
    chart_results = set(RULES.chart.values())
    for design in RULES.designs.values():
        for spec in design.systems:
            assert spec.category in chart_results
        assert power.capacity is not None
    assert Category.ANY_WEAPON in chart_results
