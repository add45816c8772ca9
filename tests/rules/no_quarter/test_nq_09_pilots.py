"""Pilot generation and activation Rep (§9, §14.0) with scripted dice."""

from __future__ import annotations

import pytest

from wargym.rules.dice import ScriptedDice
from wargym.rules.no_quarter.forces.data import activation_rep, load_rules
from wargym.rules.no_quarter.forces.pilots import (
    may_activate,
    new_pilot,
    roll_attributes,
    roll_personal_weapon,
    roll_race,
    roll_rep,
)
from wargym.rules.no_quarter.forces.vocab import Attribute, Faction, Race

RULES = load_rules()


def test_9_4_2_tv27_iss_grunt_rolling_1_is_rep_4() -> None:
    assert roll_rep(RULES, Faction.ISS, Race.BASIC, ScriptedDice([1])) == 4


@pytest.mark.parametrize(
    ("faction", "race", "face", "rep"),
    [
        (Faction.FREE_COMPANY, Race.BASIC, 1, 3),
        (Faction.FREE_COMPANY, Race.XEOG, 1, 4),  # Xeog row
        (Faction.HISHEN, Race.HISHEN, 6, 4),
        (Faction.PDF, Race.BASIC, 6, 5),
        (Faction.STAR_ARMY, Race.BASIC, 3, 4),
        (Faction.ZHUH_ZHUH, Race.ZHUH_ZHUH, 5, 4),
    ],
)
def test_9_4_2_pilot_rep_rows(faction: Faction, race: Race, face: int, rep: int) -> None:
    assert roll_rep(RULES, faction, race, ScriptedDice([face])) == rep


def test_9_6_3_faction_races_roll_no_die() -> None:
    dice = ScriptedDice([])
    assert roll_race(RULES, Faction.HISHEN, dice) is Race.HISHEN
    assert roll_race(RULES, Faction.PDF, dice) is Race.BASIC
    assert roll_race(RULES, Faction.ZHUH_ZHUH, dice) is Race.ZHUH_ZHUH


@pytest.mark.parametrize(
    ("face", "race"),
    [(1, Race.BASIC), (3, Race.BASIC), (4, Race.ZHUH_ZHUH), (5, Race.ZHUH_ZHUH), (6, Race.XEOG)],
)
def test_10_8_1_free_company_rolls_race(face: int, race: Race) -> None:
    assert roll_race(RULES, Faction.FREE_COMPANY, ScriptedDice([face])) is race


def test_9_6_4_grunt_rolls_one_attribute_on_the_subtable() -> None:
    # first die 3 -> table B, second die 3 -> Near Sighted
    assert roll_attributes(RULES, Race.HISHEN, ScriptedDice([3, 3]), star=False) == (
        Attribute.NEAR_SIGHTED,
    )


def test_9_6_3_basic_rolls_twice_and_keeps_the_better_by_preference() -> None:
    # 1,5 -> Dumbass (worst); 5,2 -> Slow; Slow ranks above Dumbass (ruling D35)
    dice = ScriptedDice([1, 5, 5, 2])
    assert roll_attributes(RULES, Race.BASIC, dice, star=False) == (Attribute.SLOW,)
    assert dice.remaining == 0


def test_9_6_4_choice_becomes_the_best_attribute() -> None:
    assert roll_attributes(RULES, Race.ZHUH_ZHUH, ScriptedDice([6, 6]), star=False) == (
        Attribute.NERVES_OF_STEEL,
    )


def test_9_6_4_star_rerolls_hard_as_nails_and_chooses_the_second() -> None:
    # Xeog star: 2,6 Hard as Nails -> re-roll; 3,2 Marksman; chosen: Nerves of Steel
    dice = ScriptedDice([2, 6, 3, 2])
    assert roll_attributes(RULES, Race.XEOG, dice, star=True) == (
        Attribute.MARKSMAN,
        Attribute.NERVES_OF_STEEL,
    )


def test_9_6_1_star_second_attribute_is_not_the_first() -> None:
    dice = ScriptedDice([4, 4])  # Nerves of Steel rolled -> Marksman chosen
    assert roll_attributes(RULES, Race.HISHEN, dice, star=True) == (
        Attribute.NERVES_OF_STEEL,
        Attribute.MARKSMAN,
    )


def test_9_grunt_generation_rolls_race_rep_then_attribute() -> None:
    pilot = new_pilot(RULES, Faction.FREE_COMPANY, ScriptedDice([6, 1, 5, 6]), name="Kos")
    # race 6 -> Xeog; Rep 1 on the Xeog row -> 4; attribute 5,6 -> Choice -> Nerves of Steel
    assert (pilot.race, pilot.rep, pilot.star) == (Race.XEOG, 4, False)
    assert pilot.attributes == (Attribute.NERVES_OF_STEEL,)
    assert pilot.name == "Kos"
    assert pilot.has(Attribute.NERVES_OF_STEEL)


def test_9_4_stars_start_at_rep_5_without_rolling() -> None:
    pilot = new_pilot(RULES, Faction.HISHEN, ScriptedDice([]), star=True, use_attributes=False)
    assert (pilot.rep, pilot.star, pilot.attributes) == (5, True, ())


def test_9_6_vanilla_game_rolls_no_attribute() -> None:
    dice = ScriptedDice([2])
    assert new_pilot(RULES, Faction.PDF, dice, use_attributes=False).rep == 4
    assert dice.remaining == 0


def test_9_6_3_a_given_race_must_fit_the_faction() -> None:
    with pytest.raises(ValueError, match="hishen pilots are hishen"):
        new_pilot(RULES, Faction.HISHEN, ScriptedDice([1]), race=Race.BASIC)
    pilot = new_pilot(
        RULES, Faction.FREE_COMPANY, ScriptedDice([4]), race=Race.XEOG, use_attributes=False
    )
    assert (pilot.race, pilot.rep) == (Race.XEOG, 5)


def test_9_5_personal_weapons() -> None:
    assert roll_personal_weapon(RULES, Faction.ISS, ScriptedDice([2])) == "laser_pistol"
    assert roll_personal_weapon(RULES, Faction.STAR_ARMY, ScriptedDice([3])) == "rapid_fire_laser"
    assert roll_personal_weapon(RULES, Faction.HISHEN, ScriptedDice([5])) == "submachine_gun"
    assert roll_personal_weapon(RULES, Faction.PDF, ScriptedDice([4])) == "machine_pistol"


def test_14_0_activation_rep_dumbass_and_initiative() -> None:
    assert activation_rep(4, (), 3) == 4
    assert activation_rep(4, (Attribute.DUMBASS,), 3) == 3
    assert activation_rep(4, (Attribute.INITIATIVE,), 1) == 5
    assert activation_rep(4, (Attribute.INITIATIVE,), 2) == 4


def test_14_0_tv12a_groups_activate_when_rep_at_least_the_die() -> None:
    assert may_activate(5, 5) and not may_activate(4, 5)
