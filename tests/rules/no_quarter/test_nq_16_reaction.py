"""Reaction system (§16) and Outgunned (§17.5): tv02, tv07, tv13, tv23, tv24 and attributes."""

from __future__ import annotations

import pytest

from wargym.rules.dice import ScriptedDice, passed_dice, successes
from wargym.rules.no_quarter.battle.reaction import (
    ReactionOutcome,
    in_sight_bonus_successes,
    in_sight_dice,
    is_outgunned,
    moving_side_wins,
    reaction_dice,
    reaction_rep,
    reaction_result,
    read_pooled_dice,
    twice_as_many_friendly_losses,
    worst_result,
)
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.vocab import (
    Attribute,
    Faction,
    ItemType,
    Race,
    ReactionResult,
    ReactionTest,
)

RULES = load_rules()
R = ReactionResult
FIRED_ON, TAKES_DAMAGE, MECH_DOWN = ReactionTest


def roll_test(
    test: ReactionTest, faction: Faction, rep: int, faces: list[int], **kw: bool
) -> tuple[int, ReactionOutcome]:  # noqa: E501
    dice = reaction_dice(RULES, test, faction, in_cover=False, attributes=())
    passed = passed_dice(ScriptedDice(faces).roll(dice), rep)
    return passed, reaction_result(RULES, test, faction, passed, **kw)


def test_16_2_tv02_zhuh_zhuh_rep_4_rolls_1_5_in_range_rush_shot() -> None:
    passed, outcome = roll_test(FIRED_ON, Faction.ZHUH_ZHUH, 4, [1, 5], in_range=True)
    assert (passed, outcome) == (1, ReactionOutcome(R.RUSH_SHOT, 0))


@pytest.mark.parametrize("faction", list(Faction))
def test_16_2_tv07_star_free_will_pass_2_in_range_fires_for_every_faction(faction: Faction) -> None:
    outcome = reaction_result(RULES, FIRED_ON, faction, 2, in_range=True)
    assert outcome.result is R.FIRE


def test_16_2_tv23a_pdf_rep_4_rolls_5_6_leaves_the_battlefield() -> None:
    passed, outcome = roll_test(FIRED_ON, Faction.PDF, 4, [5, 6], in_range=True)
    assert (passed, outcome.result) == (0, R.LEAVE_BATTLEFIELD)


def test_16_2_tv23b_outgunned_hishen_passing_2_carries_on() -> None:
    outcome = reaction_result(RULES, FIRED_ON, Faction.HISHEN, 2, in_range=True, outgunned=True)
    assert outcome.result is R.CARRY_ON


def test_16_2_tv23c_pdf_takes_damage_pass_1_ducks_back_and_loses_rep() -> None:
    passed, outcome = roll_test(TAKES_DAMAGE, Faction.PDF, 4, [2, 6])
    assert (passed, outcome) == (1, ReactionOutcome(R.DUCK_BACK, -1))


@pytest.mark.parametrize(
    ("faction", "passed", "kw", "result"),
    [
        (Faction.FREE_COMPANY, 2, {"outgunned": True, "in_range": True}, R.DUCK_BACK),
        (Faction.FREE_COMPANY, 2, {}, R.CARRY_ON),
        (Faction.FREE_COMPANY, 1, {"in_range": True}, R.RUSH_SHOT),
        (Faction.FREE_COMPANY, 1, {}, R.DUCK_BACK),
        (Faction.PDF, 1, {"outgunned": True}, R.LEAVE_BATTLEFIELD),
        (Faction.PDF, 1, {"in_range": True}, R.DUCK_BACK),
        (Faction.STAR_ARMY, 1, {"in_range": True}, R.FIRE),
        (Faction.ISS, 0, {}, R.DUCK_BACK),
        (Faction.HISHEN, 0, {"in_range": True}, R.DUCK_BACK),
        (Faction.ZHUH_ZHUH, 1, {}, R.DUCK_BACK),
    ],
)
def test_16_2_fired_on_cells(faction: Faction, passed: int, kw: dict, result: R) -> None:
    assert reaction_result(RULES, FIRED_ON, faction, passed, **kw).result is result


@pytest.mark.parametrize(
    ("test", "faction", "passed", "damaged", "expected"),
    [
        (TAKES_DAMAGE, Faction.FREE_COMPANY, 1, False, ReactionOutcome(R.CARRY_ON, -1)),
        (TAKES_DAMAGE, Faction.HISHEN, 1, False, ReactionOutcome(R.CARRY_ON, 0)),
        (TAKES_DAMAGE, Faction.ISS, 0, False, ReactionOutcome(R.LEAVE_BATTLEFIELD, 0)),
        (MECH_DOWN, Faction.FREE_COMPANY, 1, False, ReactionOutcome(R.DUCK_BACK, 0)),
        (MECH_DOWN, Faction.HISHEN, 0, True, ReactionOutcome(R.LEAVE_BATTLEFIELD, 0)),
        (MECH_DOWN, Faction.HISHEN, 0, False, ReactionOutcome(R.DUCK_BACK, 0)),
        (MECH_DOWN, Faction.PDF, 0, False, ReactionOutcome(R.LEAVE_BATTLEFIELD, 0)),
        (MECH_DOWN, Faction.ZHUH_ZHUH, 2, True, ReactionOutcome(R.CARRY_ON, 0)),
    ],
)
def test_16_2_takes_damage_and_mech_down_cells(
    test: ReactionTest, faction: Faction, passed: int, damaged: bool, expected: ReactionOutcome
) -> None:
    assert reaction_result(RULES, test, faction, passed, damaged=damaged) == expected


def test_9_6_4_coward_leaves_on_fired_on_duck_back_only() -> None:
    coward = (Attribute.COWARD,)
    fired = reaction_result(RULES, FIRED_ON, Faction.HISHEN, 0, attributes=coward)
    down = reaction_result(RULES, MECH_DOWN, Faction.FREE_COMPANY, 1, attributes=coward)
    assert (fired.result, down.result) == (R.LEAVE_BATTLEFIELD, R.DUCK_BACK)


def test_9_6_4_nerves_of_steel_carries_on_and_wins_over_coward() -> None:
    nerves = (Attribute.NERVES_OF_STEEL,)
    assert reaction_result(RULES, MECH_DOWN, Faction.PDF, 1, attributes=nerves).result is R.CARRY_ON
    both = (Attribute.COWARD, Attribute.NERVES_OF_STEEL)
    assert reaction_result(RULES, FIRED_ON, Faction.HISHEN, 0, attributes=both).result is R.CARRY_ON
    # Nerves of Steel does not soften Leave the Battlefield
    leave = reaction_result(RULES, FIRED_ON, Faction.PDF, 0, attributes=nerves)
    assert leave.result is R.LEAVE_BATTLEFIELD


def test_16_2_dice_modifiers() -> None:
    def dice(test: ReactionTest, faction: Faction, cover: bool, *attrs: Attribute) -> int:
        return reaction_dice(RULES, test, faction, in_cover=cover, attributes=attrs)

    assert dice(FIRED_ON, Faction.HISHEN, False) == 2
    assert dice(FIRED_ON, Faction.HISHEN, True) == 3
    assert dice(FIRED_ON, Faction.STAR_ARMY, True) == 4
    assert dice(FIRED_ON, Faction.ISS, False) == 3
    assert dice(FIRED_ON, Faction.STAR_ARMY, True, Attribute.WUSSY) == 1
    assert dice(MECH_DOWN, Faction.STAR_ARMY, True) == 3
    assert dice(MECH_DOWN, Faction.STAR_ARMY, False, Attribute.WUSSY) == 2
    assert dice(TAKES_DAMAGE, Faction.PDF, True) == 2


def test_16_2_rep_modifiers_and_twice_the_losses() -> None:
    assert reaction_rep(RULES, 5, weapons_out_of_action=2, twice_as_many_friendly_losses=True) == 2
    assert reaction_rep(RULES, 4, weapons_out_of_action=0, twice_as_many_friendly_losses=False) == 4
    assert twice_as_many_friendly_losses(2, 1)
    assert twice_as_many_friendly_losses(1, 0)
    assert not twice_as_many_friendly_losses(0, 0)
    assert not twice_as_many_friendly_losses(3, 2)


def test_16_2_d16_pooled_dice_each_mech_reads_its_first_n() -> None:
    pool = (1, 5, 3, 6)
    assert read_pooled_dice(pool, 2) == (1, 5)
    assert read_pooled_dice(pool, 1) == (1,)
    assert read_pooled_dice(pool, 0) == ()
    with pytest.raises(ValueError, match="holds 4 dice"):
        read_pooled_dice(pool, 5)


def test_16_2_2_worst_result() -> None:
    assert worst_result([R.FIRE, R.DUCK_BACK]) is R.DUCK_BACK
    assert worst_result([R.LEAVE_BATTLEFIELD, R.DUCK_BACK, R.FIRE]) is R.LEAVE_BATTLEFIELD
    assert worst_result([R.CARRY_ON, R.RUSH_SHOT]) is R.RUSH_SHOT
    assert worst_result([R.RUSH_SHOT, R.FIRE, R.CARRY_ON]) is R.FIRE
    assert worst_result([R.CARRY_ON]) is R.CARRY_ON


@pytest.mark.parametrize(
    ("tester", "cause", "nerves", "expected"),
    [
        (2, 1, False, False),
        (3, 1, False, True),
        (5, 3, False, True),
        (5, 3, True, False),
        (4, 3, False, False),
        (1, 1, False, False),
    ],
    ids=["tv13a", "tv13b", "tv13c", "tv13d", "one_class", "class_1"],
)
def test_17_5_tv13_outgunned(tester: int, cause: int, nerves: bool, expected: bool) -> None:
    assert is_outgunned(tester, cause, nerves_of_steel=nerves) is expected


def leader_successes(faces: list[int], rep: int, bonus: int = 0) -> int:
    n = in_sight_dice(rep, race=Race.BASIC, attributes=(), enemy_concealed=False)
    return successes(ScriptedDice(faces).roll(n)) + bonus


def test_16_1_3_tv24a_moving_side_with_more_successes_wins() -> None:
    assert moving_side_wins(leader_successes([1, 2, 4, 5], 4), leader_successes([1, 5, 6], 3))


def test_16_1_3_tv24b_tie_goes_to_the_non_moving_side() -> None:
    assert not moving_side_wins(leader_successes([1, 2, 4, 5], 4), leader_successes([3, 3, 6], 3))


def test_16_1_3_tv24c_ews_2_bonus_wins_for_the_moving_side() -> None:
    bonus = in_sight_bonus_successes(RULES, ItemType.EWS_2)
    moving = leader_successes([1, 4, 5, 6], 4, bonus)
    nonmoving = leader_successes([2, 3, 6], 3)
    assert (moving, nonmoving, moving_side_wins(moving, nonmoving)) == (3, 2, True)


def test_16_1_3_in_sight_modifiers() -> None:
    assert in_sight_bonus_successes(RULES, ItemType.EWS_1) == 1
    assert in_sight_bonus_successes(RULES, None) == 0
    assert in_sight_dice(4, race=Race.XEOG, attributes=(), enemy_concealed=True) == 4
    assert (
        in_sight_dice(
            4, race=Race.BASIC, attributes=(Attribute.QUICK_REFLEXES,), enemy_concealed=False
        )
        == 5
    )
    assert (
        in_sight_dice(
            1, race=Race.BASIC, attributes=(Attribute.SLOW_TO_REACT,), enemy_concealed=True
        )
        == 0
    )
