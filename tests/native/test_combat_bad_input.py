"""Bad arguments to the native combat resolvers raise typed errors naming them (docs/bad_input.md).

Every argument of every binding in ``_core.no_quarter.combat`` is given values of the wrong type
(NativeTypeError) and bad values (NativeArgumentError); the error names the argument, and the
same call with good arguments still answers as before. ``CombatTables`` refuses incomplete or
inconsistent tables, naming the path in the spec.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from wargym.native import _core
from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.native.no_quarter import combat_tables as glue
from wargym.rules.dice import PASS_CAP, ScriptedDice
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.records import DamageRow
from wargym.rules.no_quarter.forces.vocab import (
    Aspect,
    Attribute,
    Faction,
    ItemType,
    Location,
    MeleeAttack,
    Race,
    ReactionResult,
    ReactionTest,
)

c = _core.no_quarter.combat
T = glue.combat_tables(load_rules())
TE, AE = NativeTypeError, NativeArgumentError
INT = [("x", TE), (True, TE), (1.5, TE), (None, TE), (2**40, AE)]
FLAG = [(1, TE), (None, TE), ("yes", TE)]
FACE = [(0, AE), (7, AE), ("1", TE), (True, TE)]
FACES = [
    ((1,), TE, ""),
    ("ab", TE, ""),
    ((0, 3), AE, "[0]"),
    ((1, "a"), TE, "[1]"),
    ((2, 9), AE, "[1]"),
]
ATTRS = [("agile", TE, ""), ({1: 2}, TE, ""), (None, TE, ""), ([Attribute.AGILE, "x"], TE, "[1]")]


def enum(good: Any) -> list[tuple[Any, type]]:
    """A value's text, a member of another enum, None."""
    other = Race.BASIC if not isinstance(good, Race) else Location.HEAD
    return [(getattr(good, "value", "x"), TE), (other, TE), (None, TE), (0, TE)]


KINDS: dict[str, Any] = {"int": INT, "flag": FLAG, "face": FACE}
ROW = load_rules().ranged_damage[2]
SIGNATURES: dict[str, list[tuple[str, str, Any]]] = {
    "ranged_rep": [("tables", "tables", T), ("rep", "int", 4), ("attributes", "attrs", ())],
    "to_hit": [
        ("tables", "tables", T),
        ("total", "int", 9),
        ("shooter_fast_moving", "flag", False),
        ("rush_shot", "flag", False),
        ("target_in_cover", "flag", True),
        ("target_prone", "flag", False),
        ("target_fast_moving", "flag", False),
        ("target_index", "int", 1),
        ("crack_shot", "flag", False),
    ],
    "hit_location": [("tables", "tables", T), ("faces", "faces", (3, 4))],
    "better_location": [
        ("tables", "tables", T),
        ("a", "enum", Location.GUT),
        ("b", "enum", Location.HEAD),
    ],
    "marksman_location": [
        ("tables", "tables", T),
        ("first", "faces", (1, 1)),
        ("second", "faces", (6, 6)),
    ],
    "resolve_damage_row": [
        ("row", "row", ROW),
        ("faces", "faces", (2, 2)),
        ("amounts", "amounts", {"impact": 3}),
        ("armor_before", "int", 4),
    ],
    "ranged_damage": [
        ("tables", "tables", T),
        ("faces", "faces", (2, 2)),
        ("impact", "int", 3),
        ("armor_before", "int", 4),
    ],
    "critical_kind": [
        ("tables", "tables", T),
        ("location", "enum", Location.CHEST),
        ("armor_now", "int", 0),
    ],
    "chest_explosion": [("tables", "tables", T), ("face", "face", 5)],
    "halved_speed": [("speed", "int", 7)],
    "pilot_test_rep": [
        ("tables", "tables", T),
        ("rep", "int", 4),
        ("attributes", "attrs", (Attribute.AGILE,)),
    ],
    "pilot_test_passed": [
        ("tables", "tables", T),
        ("face", "face", 4),
        ("rep", "int", 4),
        ("attributes", "attrs", []),
    ],
    "is_outgunned": [
        ("tables", "tables", T),
        ("tester_class", "class", 5),
        ("cause_class", "int", 1),
        ("nerves_of_steel", "flag", False),
    ],
    "attributes_outgunned_immune": [
        ("tables", "tables", T),
        ("attributes", "attrs", {Attribute.NERVES_OF_STEEL}),
    ],
    "in_sight_dice": [
        ("tables", "tables", T),
        ("rep", "int", 4),
        ("race", "enum", Race.XEOG),
        ("attributes", "attrs", ()),
        ("enemy_concealed", "flag", True),
    ],
    "in_sight_bonus_successes": [("tables", "tables", T), ("ews", "ews", ItemType.EWS_2)],
    "moving_side_wins": [
        ("tables", "tables", T),
        ("moving_successes", "int", 2),
        ("nonmoving_successes", "int", 2),
    ],
    "reaction_dice": [
        ("tables", "tables", T),
        ("test", "enum", ReactionTest.FIRED_ON),
        ("faction", "enum", Faction.ISS),
        ("in_cover", "flag", True),
        ("attributes", "attrs", ()),
    ],
    "reaction_rep": [
        ("tables", "tables", T),
        ("rep", "int", 4),
        ("weapons_out_of_action", "int", 1),
        ("twice_as_many_friendly_losses", "flag", True),
    ],
    "twice_as_many_friendly_losses": [("friendly_losses", "int", 2), ("enemy_losses", "int", 1)],
    "read_pooled_dice": [("pool", "pool", [1, 2, 3]), ("n", "int", 2)],
    "reaction_result": [
        ("tables", "tables", T),
        ("test", "enum", ReactionTest.FIRED_ON),
        ("faction", "enum", Faction.PDF),
        ("passed", "passed", 0),
        ("outgunned", "flag", True),
        ("in_range", "flag", False),
        ("damaged", "flag", False),
        ("attributes", "attrs", (Attribute.COWARD,)),
    ],
    "duck_back_becomes": [
        ("tables", "tables", T),
        ("attributes", "attrs", (Attribute.NERVES_OF_STEEL,)),
    ],
    "worst_result": [("tables", "tables", T), ("results", "results", [ReactionResult.DUCK_BACK])],
    "charge_target_dice": [
        ("tables", "tables", T),
        ("target_in_cover", "flag", True),
        ("aspect", "enum", Aspect.REAR),
    ],
    "charge_outcome": [
        ("tables", "tables", T),
        ("charger_passed", "int", 1),
        ("target_passed", "int", 1),
    ],
    "melee_dice": [
        ("tables", "tables", T),
        ("rep", "int", 4),
        ("race", "enum", Race.ZHUH_ZHUH),
        ("attributes", "attrs", ()),
        ("melee_weapon", "flag", True),
        ("attacking_prone", "flag", False),
        ("jump_attack", "flag", False),
        ("leaving", "flag", False),
    ],
    "melee_margin": [("attacker_successes", "int", 3), ("defender_successes", "int", 1)],
    "melee_hit_location": [
        ("tables", "tables", T),
        ("face", "face", 2),
        ("attack", "enum", MeleeAttack.KICK),
        ("jump_attack", "flag", False),
    ],
    "limb_damage": [("limb_armor", "int", 3), ("melee_weapon_wv", "int", 2)],
    "melee_damage": [
        ("tables", "tables", T),
        ("faces", "faces", (1, 1)),
        ("margin", "int", 2),
        ("limb_damage", "int", 4),
        ("armor_before", "int", 3),
    ],
    "melee_attack_order": [("attackers", "attackers", [("a", 2, 4), ("b", 1, 3)])],
}


def bad_values(kind: str, good: Any) -> list[tuple[Any, type, str]]:
    """(value, error, suffix of the argument's name) for one argument kind."""
    if kind in KINDS:
        return [(v, e, "") for v, e in KINDS[kind]]
    table: dict[str, list[tuple[Any, type, str]]] = {
        "tables": [(None, TE, ""), (object(), TE, ""), ({}, TE, "")],
        "faces": FACES,
        "attrs": ATTRS,
        "enum": [(v, e, "") for v, e in enum(good)],
        "ews": [("ews_1", TE, ""), (Race.BASIC, TE, "")],
        "class": [(0, AE, ""), (6, AE, ""), ("3", TE, "")],
        "passed": [(3, AE, ""), (-1, AE, ""), (1.0, TE, "")],
        "pool": [("123", TE, ""), ([1, 7], AE, "[1]"), ([1, "2"], TE, "[1]")],
        "results": [([], AE, ""), ("x", TE, ""), ([ReactionResult.FIRE, 1], TE, "[1]")],
        "attackers": [
            ("x", TE, ""),
            ([("a", 1)], TE, "[0]"),
            ([("a", "x", 1)], TE, "[0][1]"),
            ([("a", 1, 2**40)], AE, "[0][2]"),
        ],
        "row": [(object(), TE, ""), (None, TE, "")],
        "amounts": [({}, AE, ""), ([], TE, ""), ({"impact": "3"}, TE, "['impact']")],
    }
    return table[kind]


CASES = [
    (fn, i, value, error, name + suffix)
    for fn, sig in SIGNATURES.items()
    for i, (name, kind, good) in enumerate(sig)
    for value, error, suffix in bad_values(kind, good)
]


def test_every_binding_and_argument_is_listed() -> None:
    public = {n for n in dir(c) if not n.startswith("_")}
    assert public - set(SIGNATURES) == {"CombatTables", "combat_vocabulary", "roll_index"}


@pytest.mark.parametrize(("fn", "index", "value", "error", "name"), CASES,
                         ids=[f"{k[0]}-{k[4]}-{j}" for j, k in enumerate(CASES)])  # fmt: skip
def test_a_bad_argument_is_refused_by_name(
    fn: str, index: int, value: Any, error: type, name: str
) -> None:
    sig = SIGNATURES[fn]
    good = [g for _, _, g in sig]
    before = getattr(c, fn)(*good)
    args = list(good)
    args[index] = value
    with pytest.raises(error) as caught:
        getattr(c, fn)(*args)
    assert type(caught.value) is error
    assert caught.value.argument == name, caught.value
    assert str(caught.value).startswith(f"{name}: ")
    assert len(str(caught.value)) < 300
    assert getattr(c, fn)(*good) == before  # nothing changed


def test_the_reference_errors_keep_their_meaning() -> None:
    """Where the reference raises ValueError, the core raises NativeArgumentError (a ValueError)."""
    with pytest.raises(ValueError, match="the pool holds 2 dice; a mech cannot read 3"):
        c.read_pooled_dice([1, 2], 3)
    with pytest.raises(ValueError, match="a reaction test passes 0, 1 or 2 dice, not 3"):
        c.reaction_result(T, ReactionTest.MECH_DOWN, Faction.PDF, 3)
    with pytest.raises(ValueError, match="worst_result needs at least one result"):
        c.worst_result(T, ())
    named = DamageRow(2, "margin", True, True)
    with pytest.raises(AE, match="no amount named 'margin'"):
        c.resolve_damage_row(named, (1, 1), {"impact": 1}, 3)


def test_roll_index_refuses_bad_dice_and_counts_and_consumes_nothing() -> None:
    dice = _core.ScriptedDice([3, 4, 5])
    for value, error, name in [
        (ScriptedDice([1]), TE, "dice"), (None, TE, "dice"), ([1, 2], TE, "dice"),
    ]:  # fmt: skip
        with pytest.raises(error) as caught:
            c.roll_index(value, 2)
        assert caught.value.argument == name
    for count, error in [
        (0, AE),
        (-3, AE),
        (37, AE),
        (2**70, AE),
        ("2", TE),
        (2.0, TE),
        (True, TE),
    ]:
        with pytest.raises(error) as caught:
            c.roll_index(dice, count)
        assert caught.value.argument == "count"
        assert dice.remaining == 3 and dice.used == []
    assert c.roll_index(dice, 4) == (2, (3,))
    assert c.roll_index(_core.RandomDice(5), 1) == (0, ())


# -- CombatTables(spec) ------------------------------------------------------------------------
SPEC = glue.combat_spec(load_rules())


def spec_with(change: Any) -> dict[str, Any]:
    spec = copy.deepcopy(SPEC)
    change(spec)
    return spec


def _gap(s: dict[str, Any]) -> None:
    s["ranged_rows"][1] = (9, 9, *s["ranged_rows"][1][2:])


SPEC_CASES: list[tuple[str, Any, type, str]] = [
    ("not a dict", lambda s: None, TE, "tables"),
    ("pass cap", lambda s: s.update(pass_cap=3), AE, "tables.pass_cap"),
    ("pass cap rows", lambda s: s.update(pass_cap=1), AE, "tables.ranged_damage"),
    ("missing key", lambda s: s.pop("cells"), AE, "tables.cells"),
    ("unknown key", lambda s: s.update(extra=1), AE, "tables"),
    ("int as text", lambda s: s.update(reaction_dice="2"), TE, "tables.reaction_dice"),
    ("bool as int", lambda s: s.update(charge_dice_each=True), TE, "tables.charge_dice_each"),
    ("huge int", lambda s: s.update(jump_attack=2**40), AE, "tables.jump_attack"),
    ("rows gap", _gap, AE, "tables.ranged_rows"),
    ("rows not open", lambda s: s["ranged_rows"].pop(), AE, "tables.ranged_rows"),
    (
        "row result",
        lambda s: s["ranged_rows"].__setitem__(0, (None, 7, "maybe", [], [], None)),
        AE,
        "tables.ranged_rows[0][2]",
    ),
    (
        "row condition",
        lambda s: s["ranged_rows"].__setitem__(1, (8, 8, None, ["rain"], [], 2)),
        AE,
        "tables.ranged_rows[1][3][0]",
    ),
    ("row shape", lambda s: s["ranged_rows"].__setitem__(1, (8, 8)), AE, "tables.ranged_rows[1]"),
    ("hit location short", lambda s: s["hit_location"].pop(12), AE, "tables.hit_location"),
    (
        "hit location value",
        lambda s: s["hit_location"].__setitem__(7, "tail"),
        AE,
        "tables.hit_location.7",
    ),
    (
        "marksman duplicate",
        lambda s: s["marksman_preference"].__setitem__(1, "head"),
        AE,
        "tables.marksman_preference",
    ),
    (
        "attribute key",
        lambda s: s["ranged_rep_modifiers"].update(sharp=1),
        AE,
        "tables.ranged_rep_modifiers key",
    ),
    (
        "damage loss name",
        lambda s: s["ranged_damage"].__setitem__(2, (2, "margin", True, True, False, False)),
        AE,
        "tables.ranged_damage.2[1]",
    ),
    ("damage rows", lambda s: s["melee_damage"].pop(0), AE, "tables.melee_damage"),
    (
        "damage flag",
        lambda s: s["melee_damage"].__setitem__(0, (0, 0, 0, False, False, True)),
        TE,
        "tables.melee_damage.0[2]",
    ),
    (
        "critical short",
        lambda s: s["critical_armor_ge_1"].pop("gut"),
        AE,
        "tables.critical_armor_ge_1",
    ),
    ("chest face", lambda s: s["chest_roll"].update({7: "destroyed"}), AE, "tables.chest_roll"),
    (
        "outgunned cause",
        lambda s: s["outgunned_by"].__setitem__(5, [6]),
        AE,
        "tables.outgunned_by.5[0]",
    ),
    (
        "tie winner",
        lambda s: s.update(in_sight_tie_winner="nobody"),
        AE,
        "tables.in_sight_tie_winner",
    ),
    (
        "severity",
        lambda s: s.update(severity=["carry_on", "fire", "duck_back"]),
        AE,
        "tables.severity",
    ),
    (
        "iss cell",
        lambda s: s["cells"].update({("fired_on", "iss", 0): ("carry_on", None, None, None, 0)}),
        AE,
        "tables.cells",
    ),
    ("cell short", lambda s: s["cells"].pop(("mech_down", "pdf", 2)), AE, "tables.cells"),
    (
        "charge results",
        lambda s: s["charge_results"].pop("same_number"),
        AE,
        "tables.charge_results",
    ),
    ("charge aspect", lambda s: s["charge_aspect"].pop("rear"), AE, "tables.charge_aspect"),
    (
        "melee column",
        lambda s: s.update(jump_attack_column="headbutt"),
        AE,
        "tables.jump_attack_column",
    ),
    (
        "melee location",
        lambda s: s["melee_hit_location"][3].pop("kick"),
        AE,
        "tables.melee_hit_location.3",
    ),
]


@pytest.mark.parametrize(
    ("label", "change", "error", "path"), SPEC_CASES, ids=[k[0] for k in SPEC_CASES]
)
def test_a_bad_table_is_refused_by_path(label: str, change: Any, error: type, path: str) -> None:
    spec = None if label == "not a dict" else spec_with(change)
    with pytest.raises(error) as caught:
        c.CombatTables(spec)
    assert type(caught.value) is error
    assert caught.value.argument == path, (label, caught.value)


def test_the_glue_spec_builds_tables_for_every_rule_set() -> None:
    assert c.CombatTables(SPEC) is not None
    assert glue.combat_tables() is glue.combat_tables(load_rules())


def test_the_pass_cap_is_handed_in() -> None:
    """PASS_CAP (rules/dice.py, §5.1) reaches the core with the tables: a cap of 1 reads row 1."""
    assert SPEC["pass_cap"] == PASS_CAP

    def capped(s: dict[str, Any]) -> None:
        s["pass_cap"] = 1
        for table in ("ranged_damage", "melee_damage"):
            del s[table][2]
        s["cells"] = {key: cell for key, cell in s["cells"].items() if key[2] <= 1}

    one = c.CombatTables(spec_with(capped))
    assert c.ranged_damage(T, (1, 1), 6, 5)[0] == 2
    assert c.ranged_damage(one, (1, 1), 6, 5)[0] == 1
    with pytest.raises(AE) as caught:
        c.reaction_result(one, ReactionTest.MECH_DOWN, Faction.PDF, 2)
    assert caught.value.argument == "passed"
