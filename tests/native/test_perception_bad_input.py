"""Bad arguments to the native perception, leaders and group-order mirrors raise typed errors.

NativeTypeError for a value of the wrong type, NativeArgumentError for a bad value (an
unknown mech id, a side 'green', a weapon index off the design, a NaN position, an empty
group, tables of the wrong size); the message starts with the argument's name, nothing
aborts, and the native battle is unchanged and usable afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.native.no_quarter.perception import PerceptionInputs, core, group_rules
from wargym.rules.dice import RandomDice
from wargym.rules.errors import RulesError
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.setup import new_skirmish

BATTLE = new_skirmish(np.random.default_rng(3), RandomDice.from_seed(3), mechs_per_side=4)
N = PerceptionInputs.of(BATTLE)
B, T, C, R = N.battle, N.terrain, N.cover, N.rules
HUGE = "x" * 100_000
RECTS = np.zeros((0, 4))


def rules_with(**changes: Any) -> Any:
    """GroupRules with the glue's arguments, some changed."""
    made: dict[str, Any] = {}

    class Capture:
        def __init__(self, **kwargs: Any) -> None:
            made.update(kwargs)

    original = core.GroupRules
    try:
        core.GroupRules = Capture
        group_rules(load_rules())
    finally:
        core.GroupRules = original
    made.update(changes)
    return core.GroupRules(**made)


def cover_with(**changes: Any) -> Any:
    args: dict[str, Any] = dict(concealing=RECTS, cover_moving=RECTS, cover_stationary=RECTS,
                                behind_building_cover=True, behind_mech_cover=True)  # fmt: skip
    args.update(changes)
    return core.CoverTerrain(**args)


TYPE_CASES: list[tuple[str, Callable[[], object], str]] = [
    ("a reference battle", lambda: core.bodies(BATTLE), "battle"),
    ("a dict as battle", lambda: core.able_to_fire(BATTLE.to_dict(), 0), "battle"),
    ("terrain None", lambda: core.sees(B, None, 0, 4), "terrain"),
    ("a battle as terrain", lambda: core.line_between(B, B, 0, 4), "terrain"),
    ("rules None", lambda: core.form_groups(B, T, None, "blue"), "rules"),
    ("a NoQuarterRules as rules", lambda: core.is_fast_moving(B, load_rules(), 0), "rules"),
    ("cover a terrain", lambda: core.concealed(B, T, 0), "cover"),
    ("a mech id of text", lambda: core.hidden_pair(B, "0", 4), "a"),
    ("a mech id that is a bool", lambda: core.engaged_with(B, True), "mech"),
    ("a float mech id", lambda: core.sees(B, T, 0.0, 4), "observer"),
    ("a twist of text", lambda: core.sees(B, T, 0, 4, "90"), "twist"),
    ("a float twist", lambda: core.sees(B, T, 0, 4, 90.0), "twist"),
    ("a weapon of None", lambda: core.weapon_can_engage(B, T, 0, None, 4), "weapon"),
    ("a side of 0", lambda: core.form_groups(B, T, R, 0), "side"),
    ("a position of one number", lambda: core.visible_enemies(B, T, 0, (1.0,), 0.0), "pos"),
    ("a position of text", lambda: core.visible_from(B, T, 0, ("a", 1.0), 0.0, 4), "pos[0]"),
    ("a facing of None", lambda: core.visible_enemies(B, T, 0, (1.0, 1.0), None), "facing"),
    ("inches of text", lambda: core.linked(B, T, 0, 1, "8", True), "inches"),
    ("requires_los of 1", lambda: core.linked(B, T, 0, 1, 8.0, 1), "requires_los"),
    ("members of an int", lambda: core.group_leader(B, 3), "members"),
    ("members with text", lambda: core.group_leader(B, [0, "1"]), "members[1]"),
    ("fresh of None", lambda: core.new_sightings(B, 0, None), "fresh"),
    ("groups of ints", lambda: core.split_options(B, [0, 1]), "groups[0]"),
    ("groups of a dict", lambda: core.split_options(B, {"a": 1}), "groups"),
    ("leaders of None", lambda: core.lead_next(B, T, R, [[0]], None), "leaders"),
    ("rank of 1", lambda: core.successor(B, R, 0, 1, []), "rank"),
    ("faction of None", lambda: core.formation_row(R, None), "faction"),
    ("attributes of text", lambda: core.activation_rep(R, 4, "dumbass", 1), "attributes"),
    ("a rep of 4.0", lambda: core.activation_rep(R, 4.0, [], 1), "rep"),
    ("a die of text", lambda: core.may_activate(4, "3"), "side_die"),
    ("organization of a dict", lambda: rules_with(organization={}), "organization"),
    ("a row of text", lambda: rules_with(organization=["abc"] * 6), "organization[0]"),
    ("a radius of text", lambda: rules_with(command_radius_inches="8"), "command_radius_inches"),
    (
        "a LOS flag of 1",
        lambda: rules_with(cohesion_link_requires_los=1),
        "cohesion_link_requires_los",
    ),
    (
        "a succession kind of 1",
        lambda: rules_with(succession=[[(1, 0, "x")]] * 4),
        "succession[0][0]",
    ),
    ("twists of floats", lambda: rules_with(twists=[0.0]), "twists[0]"),
    ("rectangles as a list", lambda: cover_with(concealing=[[0, 0, 1, 1]]), "concealing"),
    ("rectangles of 3 columns", lambda: cover_with(cover_moving=np.zeros((1, 3))), "cover_moving"),
    ("a cover flag of None", lambda: cover_with(behind_mech_cover=None), "behind_mech_cover"),
]

VALUE_CASES: list[tuple[str, Callable[[], object], str]] = [
    ("an unknown mech", lambda: core.able_to_fire(B, 99), "mech"),
    ("an unknown observer", lambda: core.line_between(B, T, -1, 4), "observer"),
    ("a huge mech id", lambda: core.engaged_with(B, 2**70), "mech"),
    ("a weapon off the design", lambda: core.weapon_can_engage(B, T, 0, 99, 4), "weapon"),
    ("a negative weapon", lambda: core.weapon_can_engage(B, T, 0, -1, 4), "weapon"),
    ("a side 'green'", lambda: core.form_groups(B, T, R, "green"), "side"),
    ("a huge side", lambda: core.higher_leaders(B, HUGE), "side"),
    ("a NaN position", lambda: core.visible_enemies(B, T, 0, (float("nan"), 1.0), 0.0), "pos[0]"),
    (
        "an infinite facing",
        lambda: core.visible_from(B, T, 0, (1.0, 1.0), float("inf"), 4),
        "facing",
    ),
    ("NaN inches", lambda: core.linked(B, T, 0, 1, float("nan"), True), "inches"),
    ("no members", lambda: core.group_leader(B, []), "members"),
    ("an unknown member", lambda: core.group_leader(B, [0, 99]), "members"),
    ("an unknown mech in a group", lambda: core.split_options(B, [[0, 99]]), "groups"),
    ("an unknown leader", lambda: core.lead_candidates(B, T, R, [[0]], 99), "leader"),
    ("no group led by him", lambda: core.group_led_by(B, [[0]], 4), "group"),
    ("a merge of a mech in no group", lambda: core.lead_merge(B, [[4]], 0, 4), "mech"),
    ("a split of a mech in no group", lambda: core.split_off(B, T, R, [[0]], 4), "mech"),
    ("an unknown friend", lambda: core.successor(B, R, 0, "squad_leader", [1, 99]), "friends[1]"),
    ("an unknown rank", lambda: core.successor(B, R, 0, "general", []), "rank"),
    ("an unknown faction", lambda: core.formation_row(R, "klingon"), "faction"),
    ("an unknown attribute", lambda: core.activation_rep(R, 4, ["sleepy"], 1), "attributes"),
    ("a row of zero teams", lambda: core.initial_ranks(3, (0, 2, 2)), "row[0]"),
    ("a row of two numbers", lambda: core.initial_ranks(3, (2, 2)), "row"),
    ("five organization rows", lambda: rules_with(organization=[None] * 5), "organization"),
    ("a zero squad size", lambda: rules_with(organization=[(0, 2, 2)] * 6), "organization[0][0]"),
    ("red teams 0", lambda: rules_with(red_teams=0), "red_teams"),
    ("a NaN radius", lambda: rules_with(cohesion_link_inches=float("nan")), "cohesion_link_inches"),
    (
        "an unknown succession kind",
        lambda: rules_with(succession=[[("x", 0, "x")]] * 4),
        "succession[0][0]",
    ),
    ("17 attribute modifiers", lambda: rules_with(attribute_rep=[0] * 17), "attribute_rep"),
    ("a NaN rectangle", lambda: cover_with(concealing=np.full((1, 4), np.nan)), "concealing"),
    (
        "x1 below x0",
        lambda: cover_with(cover_stationary=np.array([[2.0, 0, 1, 1]])),
        "cover_stationary",
    ),
]


def check(error: NativeArgumentError, argument: str) -> None:
    assert isinstance(error, RulesError)
    assert error.argument.startswith(argument.split("[")[0]), error.argument
    assert str(error).startswith(argument), str(error)
    assert len(str(error)) < 300


@pytest.mark.parametrize(("label", "call", "argument"), TYPE_CASES, ids=[c[0] for c in TYPE_CASES])
def test_a_wrong_type_is_a_native_type_error_naming_the_argument(
    label: str, call: Callable[[], object], argument: str
) -> None:
    with pytest.raises(NativeTypeError) as got:
        call()
    assert isinstance(got.value, TypeError)
    check(got.value, argument)


@pytest.mark.parametrize(
    ("label", "call", "argument"), VALUE_CASES, ids=[c[0] for c in VALUE_CASES]
)
def test_a_bad_value_is_a_native_argument_error_naming_the_argument(
    label: str, call: Callable[[], object], argument: str
) -> None:
    with pytest.raises(NativeArgumentError) as got:
        call()
    assert not isinstance(got.value, NativeTypeError)
    assert isinstance(got.value, ValueError)
    check(got.value, argument)


def test_an_unknown_succession_spec_is_refused_when_it_is_read_as_the_reference_does() -> None:
    tables = rules_with(succession=[[("unknown", 0, "next_in_line")]] * 4)
    with pytest.raises(NativeArgumentError, match="unknown succession spec 'next_in_line'"):
        core.successor(B, tables, 0, "squad_leader", [1, 2])


def test_the_battle_is_unchanged_and_usable_after_refused_calls() -> None:
    before = B.to_dict()
    for _, call, _ in TYPE_CASES + VALUE_CASES:
        with pytest.raises(RulesError):
            call()
    with pytest.raises(NativeArgumentError):
        core.new_sightings(B, 0, [4, 99, "x"])  # refused before any pair is marked
    assert B.to_dict() == before
    assert core.form_groups(B, T, R, "blue") == core.form_groups(B.clone(), T, R, "blue")
