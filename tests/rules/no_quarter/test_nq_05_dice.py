"""No Quarter §5 dice examples read through the No Quarter resolvers (tv01, tv03-tv05)."""

from __future__ import annotations

from wargym.rules.dice import ScriptedDice, half_d6, passed_dice, possibility, successes
from wargym.rules.no_quarter.battle.reaction import in_sight_dice, reaction_dice
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.vocab import Faction, Race, ReactionTest


def test_5_2_tv01_rep_5_leader_rolls_1_3_3_4_4_for_three_successes() -> None:
    n = in_sight_dice(5, race=Race.BASIC, attributes=(), enemy_concealed=False)
    faces = ScriptedDice([1, 3, 3, 4, 4]).roll(n)
    assert n == 5
    assert successes(faces) == 3


def test_5_1_rep_4_rolling_1_and_5_passes_1d6() -> None:
    assert passed_dice(ScriptedDice([1, 5]).roll(2), target=4) == 1


def test_5_3_tv03_possibility_roll_1_is_class_1() -> None:
    options = {"class_1": [1, 2], "class_3": [3, 4, 5], "class_5": [6]}
    assert possibility(1, options) == "class_1"
    assert possibility(6, options) == "class_5"


def test_5_5_tv04_half_d6_of_5_is_3() -> None:
    assert half_d6(5) == 3


def test_5_6_tv05a_hishen_rep_4_rolls_4d6_in_sight() -> None:
    assert in_sight_dice(4, race=Race.HISHEN, attributes=(), enemy_concealed=False) == 4


def test_5_6_tv05b_hishen_rep_4_rolls_2d6_on_mech_down() -> None:
    dice = reaction_dice(
        load_rules(), ReactionTest.MECH_DOWN, Faction.HISHEN, in_cover=False, attributes=()
    )
    assert dice == 2
