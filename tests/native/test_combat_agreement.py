"""The native combat resolvers agree with the reference's (§15-§18, issue 16).

Every function of ``battle/ranged_combat.py``, ``battle/reaction.py`` and ``battle/melee.py``,
and ``flow.roll_index``, is called on both engines over exhaustive or seeded inputs (every
location, aspect, faction, race, item, test and result; Rep values; cover, moving and other
flags; attribute sets), for the rule set of every ``RulesOptions`` choice and for edited copies
of the tables: the answers must be equal, with the same types. ``roll_index`` and a scripted
ranged shot run on a reference ``ScriptedDice`` and a native one fed the same faces: equal
answers, equal faces used and remaining, the same error when the script runs out.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest

from wargym.native import _core
from wargym.native.errors import NativeArgumentError
from wargym.native.no_quarter import combat as native
from wargym.rules.dice import ScriptedDice, passed_dice, successes
from wargym.rules.errors import DiceScriptExhaustedError
from wargym.rules.no_quarter.battle import flow, melee, ranged_combat, reaction
from wargym.rules.no_quarter.forces import data_combat, records
from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules
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

sys.path.insert(0, str(Path(__file__).parent))
from test_state_agreement import option_variants  # noqa: E402

A = Attribute
THIN = int(os.environ.get("WARGYM_COMBAT_THIN", "11"))
"""One case in THIN of each kind for the non-default RulesOptions (1: every case)."""
FACES2 = list(itertools.product(range(1, 7), repeat=2))
REPS = range(-2, 9)


def attribute_sets(seed: int = 0) -> list[Any]:
    """The empty set, every single attribute, the pairs that interact, and random sets."""
    rng = np.random.default_rng(seed)
    attrs = list(Attribute)
    sets: list[Any] = [(), *((a,) for a in attrs)]
    sets += [
        (A.COWARD, A.NERVES_OF_STEEL), [A.NERVES_OF_STEEL, A.COWARD], (A.WUSSY, A.COWARD),
        {A.AGILE, A.SLOW}, frozenset({A.BRAWLER, A.WEAKLING}), (A.NEAR_SIGHTED, A.CRACK_SHOT),
        (A.QUICK_REFLEXES, A.SLOW_TO_REACT), (A.AGILE, A.AGILE), [A.WUSSY, A.WUSSY, A.COWARD],
    ]  # fmt: skip
    for _ in range(24):
        picked = [attrs[i] for i in rng.choice(len(attrs), size=int(rng.integers(2, 6)))]
        sets.append(tuple(picked) if rng.random() < 0.5 else picked)
    return sets


ATTRIBUTE_SETS = attribute_sets()


_FIELDS: dict[type, tuple[str, ...]] = {}


def same(a: Any, b: Any) -> bool:
    """Equal values of the same types, through tuples, lists and dataclasses (True is not 1)."""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind in (int, bool, str, type(None)) or isinstance(a, enum.Enum):
        return bool(a == b)
    if kind in (tuple, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if dataclasses.is_dataclass(a):
        names = _FIELDS.setdefault(kind, tuple(f.name for f in dataclasses.fields(a)))
        return all(same(getattr(a, n), getattr(b, n)) for n in names)
    return bool(a == b)


def rule_sets() -> list[NoQuarterRules]:
    """The rule set of every RulesOptions choice (one change at a time)."""
    seen: dict[Any, NoQuarterRules] = {}
    for variant in option_variants():
        seen.setdefault(variant.rules, load_rules(variant.rules))
    return list(seen.values())


def _label(rules: NoQuarterRules) -> str:
    changed = {
        f.name: getattr(rules.options, f.name)
        for f in dataclasses.fields(rules.options)
        if getattr(rules.options, f.name) != f.default
    }
    return ",".join(f"{k}={v}" for k, v in changed.items()) or "defaults"


def edited_rules() -> NoQuarterRules:
    """A copy of the default rules with numbers and cells changed in every table read here."""
    r = load_rules()
    rc = r.ranged_combat
    rows = list(rc.rows)
    rows[0] = dataclasses.replace(rows[0], high=8)
    rows[1] = dataclasses.replace(
        rows[1], low=9, high=9, shooter_missed_if=frozenset({"target_prone"}),
        target_index_at_least=3,
    )  # fmt: skip
    rows[2] = dataclasses.replace(rows[2], low=10, high=10, target_missed_if=frozenset())
    rows[3] = dataclasses.replace(rows[3], low=11)
    hit = dict(r.hit_location)
    hit[7], hit[2] = Location.GUT, Location.LEG_L
    damage = dict(r.ranged_damage)
    damage[1] = dataclasses.replace(damage[1], armor_loss=2, critical_on_doubles=True)
    mdamage = dict(r.melee_damage)
    mdamage[0] = dataclasses.replace(mdamage[0], armor_loss=1, refight=False, duck_back=True)
    crit = r.critical_hits
    le0 = {**crit.armor_le_0, Location.GUT: records.CriticalKind.CHEST_ROLL}
    chest = {**crit.chest_roll, 4: crit.chest_roll[6]}
    rx = r.reaction
    cells = dict(rx.cells)
    key = ("fired_on", Faction.HISHEN, 1)
    cells[key] = dataclasses.replace(cells[key], otherwise=ReactionResult.DUCK_BACK, rep_change=-1)
    key = ("takes_damage", Faction.STAR_ARMY, 0)
    cells[key] = dataclasses.replace(cells[key], if_damaged=ReactionResult.RUSH_SHOT)
    effects = dict(r.attribute_effects)
    # Coward's effect moves to Wussy: reaction_result takes the first over set(attributes), an
    # order of hashes, so two attributes with different effects would not be reproducible.
    effects[A.COWARD] = dataclasses.replace(effects[A.COWARD], fired_on_duck_back_becomes=None)
    effects[A.WUSSY] = dataclasses.replace(
        effects[A.WUSSY], fired_on_duck_back_becomes=ReactionResult.FIRE
    )
    effects[A.DUMBASS] = dataclasses.replace(
        effects[A.DUMBASS], duck_back_becomes=ReactionResult.LEAVE_BATTLEFIELD
    )
    mc, ch, ins = r.melee_combat, r.charge, r.in_sight
    mhl = {face: MappingProxyType(dict(row)) for face, row in r.melee_hit_location.items()}
    mhl[3] = MappingProxyType({MeleeAttack.PUNCH: Location.HEAD, MeleeAttack.KICK: Location.GUT})
    return dataclasses.replace(
        r,
        ranged_combat=dataclasses.replace(
            rc, rows=tuple(rows), rep_modifiers={A.NEAR_SIGHTED: -2, A.MARKSMAN: 1},
            crack_shot_ignores=frozenset({"target_in_cover"}),
        ),
        hit_location=hit,
        marksman_preference=tuple(reversed(r.marksman_preference)),
        ranged_damage=damage,
        melee_damage=mdamage,
        critical_hits=dataclasses.replace(crit, armor_le_0=le0, chest_roll=chest),
        pilot_test=dataclasses.replace(r.pilot_test, rep_modifiers={A.AGILE: 2, A.LUCKY: -1}),
        outgunned=dataclasses.replace(
            r.outgunned, never_outgunned=frozenset({A.HARD_AS_NAILS}),
            outgunned_by={**r.outgunned.outgunned_by, 2: frozenset({1})},
        ),
        in_sight=dataclasses.replace(
            ins, dice_per_rep=2, tie_winner="moving", enemy_concealed_dice=-2,
            race_dice={Race.HISHEN: 1}, attribute_dice={A.SLOW: -1},
            bonus_successes={ItemType.EWS_1: 3},
        ),
        reaction=dataclasses.replace(
            rx, dice=3, per_weapon_out_of_action_rep=-2, twice_as_many_friendly_losses_rep=-3,
            in_cover_dice={"takes_damage": 2}, star_army_row_dice={"mech_down": -1},
            fired_on_total_dice={A.WUSSY: 2, A.COWARD: 1},
            severity=(ReactionResult.CARRY_ON, ReactionResult.LEAVE_BATTLEFIELD,
                      ReactionResult.DUCK_BACK),
            cells=cells,
        ),
        attribute_effects=effects,
        charge=dataclasses.replace(
            ch, dice_each=3, in_cover=2, aspect={**ch.aspect, Aspect.REAR: -3},
            results={**ch.results, "same_number": records.ChargeOutcome.TARGET_FIRES},
        ),
        melee_combat=dataclasses.replace(
            mc, dice_per_rep=2, one_hand_melee_weapon=2, attacking_prone_opponent=1,
            jump_attack=3, leaving_battlefield=-1, race={Race.XEOG: 1},
            attribute={A.BRAWLER: 2}, jump_attack_column=MeleeAttack.KICK,
        ),
        melee_hit_location=mhl,
    )  # fmt: skip


# -- the sweep: (function name, args, keywords) called on both engines --------------------------
Case = tuple[str, tuple[Any, ...], dict[str, Any]]
REFERENCE = {
    name: value
    for module in (ranged_combat, reaction, melee)
    for name, value in vars(module).items()
    if callable(value) and getattr(value, "__module__", "") == module.__name__
    and not isinstance(value, type)
}  # fmt: skip
"""Every resolver of the three reference modules, by name."""


def outcome(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The value, or ("ValueError", the reference's message) for both engines' ValueErrors."""
    try:
        return call(*args, **kwargs)
    except NativeArgumentError as error:  # "<argument>: <the reference's message>"
        return ("ValueError", str(error).removeprefix(f"{error.argument}: "))
    except ValueError as error:
        return ("ValueError", str(error))


FLAGS3 = list(itertools.product((False, True), repeat=3))
FLAGS4 = list(itertools.product((False, True), repeat=4))
TO_HIT = ("shooter_fast_moving", "rush_shot", "target_in_cover", "target_prone",
          "target_fast_moving", "crack_shot")  # fmt: skip
MELEE = ("melee_weapon", "attacking_prone", "jump_attack", "leaving")
DAMAGE_NAMES = (("ranged_damage", "impact"), ("melee_damage", "attacking_limb"))


def cases(r: NoQuarterRules) -> Iterator[Case]:  # noqa: C901 - one loop per resolver
    for rep, attrs in itertools.product(REPS, ATTRIBUTE_SETS):
        yield "ranged_rep", (rep, attrs), {"rules": r}
        yield "pilot_test_rep", (rep, attrs), {"rules": r}
        for face in range(1, 7):
            yield "pilot_test_passed", (r, face, rep, attrs), {}
        for race, concealed in itertools.product(Race, (False, True)):
            kw = {"race": race, "attributes": attrs, "enemy_concealed": concealed, "rules": r}
            yield "in_sight_dice", (rep,), kw
        for race, flags in itertools.product(Race, FLAGS4):
            if rep % 3 == 0 or not any(flags):
                kw = {"race": race, "attributes": attrs, **dict(zip(MELEE, flags, strict=True))}
                yield "melee_dice", (r, rep), kw
    for total, index in itertools.product(range(-2, 16), range(1, 5)):
        for flags in itertools.product((False, True), repeat=6):
            yield (
                "to_hit",
                (r, total),
                {**dict(zip(TO_HIT, flags, strict=True)), "target_index": index},
            )
    for faces in FACES2:
        yield "hit_location", (r, faces), {}
        for second in FACES2:
            yield "marksman_location", (r, faces, second), {}
        for value, before in itertools.product(range(-1, 8), range(-1, 7)):
            yield "ranged_damage", (r, faces, value, before), {}
            for limb in (0, 1, 3, 6):
                yield "melee_damage", (r, faces, value, limb, before), {}
            for table, name in DAMAGE_NAMES:
                for row in getattr(r, table).values():
                    yield "resolve_damage_row", (row, faces, {name: value}, before), {}
    for a, b in itertools.product(Location, repeat=2):
        yield "better_location", (a, b), {"rules": r}
    for loc, armor in itertools.product(Location, range(-3, 4)):
        yield "critical_kind", (r, loc, armor), {}
    for face in range(1, 7):
        yield "chest_explosion", (r, face), {}
        for attack, jump in itertools.product(MeleeAttack, (False, True)):
            yield "melee_hit_location", (r, face, attack), {"jump_attack": jump}
    for speed in (*range(-9, 10), 2**31 - 1, -(2**31)):
        yield "halved_speed", (speed,), {}
    for tester, cause, nerves in itertools.product(range(1, 6), range(-1, 8), (False, True)):
        yield "is_outgunned", (tester, cause), {"nerves_of_steel": nerves, "rules": r}
    for k, attrs in enumerate(ATTRIBUTE_SETS):
        yield "attributes_outgunned_immune", (r, attrs), {}
        yield "duck_back_becomes", (r, attrs), {}
        for test, faction, cover in itertools.product(ReactionTest, Faction, (False, True)):
            yield "reaction_dice", (r, test, faction), {"in_cover": cover, "attributes": attrs}
            for passed, flags in itertools.product(range(-1, 4) if k < 14 else (0, 1, 2), FLAGS3):
                if k >= 22 and (passed + sum(flags)) % 3:
                    continue
                kw = {"outgunned": flags[0], "in_range": flags[1], "damaged": flags[2]}
                yield "reaction_result", (r, test, faction, passed), {**kw, "attributes": attrs}
    for ews in (None, *ItemType):
        yield "in_sight_bonus_successes", (r, ews), {}
    for a, b in itertools.product(range(-1, 6), repeat=2):
        yield "moving_side_wins", (a, b), {"rules": r}
        yield "twice_as_many_friendly_losses", (a, b), {}
        yield "charge_outcome", (a, b), {"rules": r}
        yield "melee_margin", (a, b), {}
    for rep, out, twice in itertools.product(REPS, range(0, 4), (False, True)):
        kw = {"weapons_out_of_action": out, "twice_as_many_friendly_losses": twice}
        yield "reaction_rep", (r, rep), kw
    for size, want in itertools.product(range(0, 7), range(-1, 8)):
        yield "read_pooled_dice", (tuple(range(1, size + 1)), want), {}
    for length in range(0, 4):
        for results in itertools.product(ReactionResult, repeat=length):
            yield "worst_result", (results,), {"rules": r}
    for cover, aspect in itertools.product((False, True), Aspect):
        yield "charge_target_dice", (r,), {"target_in_cover": cover, "aspect": aspect}
    for armor, wv in itertools.product(range(-2, 7), range(-1, 9)):
        yield "limb_damage", (armor, wv), {}
    rng = np.random.default_rng(1815)
    for _ in range(60):
        size = int(rng.integers(0, 7))
        classes, reps = rng.integers(1, 6, size=size), rng.integers(2, 6, size=size)
        attackers = [
            (f"m{i}", int(c), int(p)) for i, (c, p) in enumerate(zip(classes, reps, strict=True))
        ]
        yield "melee_attack_order", (attackers,), {}


def agree(r: NoQuarterRules, thin: int = 1) -> dict[str, int]:
    """Run the sweep; ``thin`` > 1 keeps one case in ``thin`` of each kind (the first always)."""
    counts: dict[str, int] = {}
    for name, args, kwargs in cases(r):
        seen = counts.get(name, 0)
        counts[name] = seen + 1
        if seen % thin:
            continue
        expected = outcome(REFERENCE[name], *args, **kwargs)
        got = outcome(getattr(native, name), *args, **kwargs)
        assert same(got, expected), (name, args, kwargs, got, expected)
    return counts


@pytest.mark.parametrize("rules", rule_sets(), ids=_label)
def test_every_resolver_agrees_under_every_rules_option(rules: NoQuarterRules) -> None:
    """The default rule set in full; the others (whose combat tables are the same) thinned."""
    counts = agree(rules, 1 if rules is load_rules() else THIN)
    assert set(counts) == set(REFERENCE), set(REFERENCE) ^ set(counts)


def test_both_engines_follow_edited_tables() -> None:
    """A rule set whose numbers and cells were changed: both engines read the handed-in tables."""
    r = edited_rules()
    agree(r, 3 if THIN > 1 else 1)
    default = load_rules()
    assert ranged_combat.to_hit(r, 8) != ranged_combat.to_hit(default, 8)  # the edit matters
    assert native.to_hit(r, 8) != native.to_hit(default, 8)
    assert native.hit_location(r, (3, 4)) is Location.GUT
    assert native.reaction_dice(r, ReactionTest.FIRED_ON, Faction.PDF, in_cover=False,
                                attributes=(A.WUSSY, A.COWARD)) == 1  # fmt: skip


@pytest.mark.parametrize("change", ["to_hit", "hit_location", "cells", "severity"])
def test_a_single_changed_number_reaches_the_core(change: str) -> None:
    """One number changed in a copy: the native answer changes with the reference's."""
    r = load_rules()
    if change == "to_hit":
        rows = list(r.ranged_combat.rows)
        rows[-1] = dataclasses.replace(rows[-1], result="miss")
        copy = dataclasses.replace(
            r, ranged_combat=dataclasses.replace(r.ranged_combat, rows=tuple(rows))
        )
        call: Callable[[Any, NoQuarterRules], Any] = lambda m, x: m.to_hit(x, 12)  # noqa: E731
    elif change == "hit_location":
        copy = dataclasses.replace(r, hit_location={**r.hit_location, 12: Location.HEAD})
        call = lambda m, x: m.hit_location(x, (6, 6))  # noqa: E731
    elif change == "cells":
        key = ("mech_down", Faction.PDF, 2)
        cell = dataclasses.replace(
            r.reaction.cells[key], otherwise=ReactionResult.LEAVE_BATTLEFIELD
        )
        copy = dataclasses.replace(
            r, reaction=dataclasses.replace(r.reaction, cells={**r.reaction.cells, key: cell})
        )
        call = lambda m, x: m.reaction_result(x, ReactionTest.MECH_DOWN, Faction.PDF, 2)  # noqa: E731
    else:
        order = (
            ReactionResult.LEAVE_BATTLEFIELD,
            ReactionResult.DUCK_BACK,
            ReactionResult.CARRY_ON,
        )
        copy = dataclasses.replace(r, reaction=dataclasses.replace(r.reaction, severity=order))
        call = lambda m, x: m.worst_result([ReactionResult.DUCK_BACK, ReactionResult.FIRE], rules=x)  # noqa: E731
    assert call(ranged_combat if change in ("to_hit", "hit_location") else reaction, copy) != call(
        ranged_combat if change in ("to_hit", "hit_location") else reaction, r
    )
    module = ranged_combat if change in ("to_hit", "hit_location") else reaction
    assert same(call(native, copy), call(module, copy))
    assert same(call(native, r), call(module, r))


def test_the_combat_vocabulary_is_the_reference_one() -> None:
    vocab = _core.no_quarter.combat.combat_vocabulary()
    for kind in (
        ReactionResult,
        ReactionTest,
        MeleeAttack,
        Aspect,
        records.CriticalKind,
        records.ChargeOutcome,
    ):
        assert vocab[kind.__name__] == [m.value for m in kind]
    assert tuple(vocab["RANGED_CONDITIONS"]) == data_combat.RANGED_CONDITIONS
    assert native.ROLL_INDEX_MAX_COUNT == 36


# -- dice: the faces consumed ------------------------------------------------------------------
def _both(faces: list[int]) -> tuple[ScriptedDice, Any]:
    return ScriptedDice(list(faces)), _core.ScriptedDice(list(faces))


def _run(call: Callable[..., Any], *args: Any) -> Any:
    try:
        return call(*args)
    except DiceScriptExhaustedError as error:
        return ("exhausted", str(error))


def test_roll_index_consumes_the_reference_faces() -> None:
    rng = np.random.default_rng(24)
    for count in range(1, native.ROLL_INDEX_MAX_COUNT + 1):
        for _ in range(40):
            faces = [int(f) for f in rng.integers(1, 7, size=int(rng.integers(0, 9)))]
            ref, nat = _both(faces)
            expected = _run(flow.roll_index, ref, count)
            got = _run(native.roll_index, nat, count)
            assert same(got, expected), (count, faces, got, expected)
            assert nat.used == ref.used and nat.remaining == ref.remaining
    with pytest.raises(ValueError, match="nothing to choose from"):
        flow.roll_index(ScriptedDice([]), 0)
    with pytest.raises(ValueError, match="nothing to choose from"):
        native.roll_index(_core.ScriptedDice([]), 0)


def _shot(m: Any, r: NoQuarterRules, dice: Any, rep: int, marksman: bool) -> tuple[Any, ...]:
    """A scripted ranged shot as flow_fire and consequences roll it: hit, location, damage, crit."""
    (face,) = dice.roll(1)
    if not m.to_hit(r, face + rep, target_in_cover=rep % 2 == 0):
        return ("miss", face)
    first = dice.roll(2)
    location = m.marksman_location(r, first, dice.roll(2)) if marksman else m.hit_location(r, first)
    damage = m.ranged_damage(r, dice.roll(2), 3, 2)
    if not damage.critical:
        return (location, damage)
    kind = m.critical_kind(r, location, damage.armor_after)
    if kind is records.CriticalKind.CHEST_ROLL:
        return (location, damage, m.chest_explosion(r, dice.roll(1)[0]))
    if kind in (records.CriticalKind.PILOT_TEST_HEAD, records.CriticalKind.LEG_SPEED_HALVED):
        return (location, damage, m.pilot_test_passed(r, dice.roll(1)[0], rep, (A.AGILE,)))
    index = (m.roll_index if m is native else flow.roll_index)(dice, 3)
    return (location, damage, kind, index)


def test_a_scripted_shot_consumes_the_same_faces() -> None:
    rng = np.random.default_rng(1917)
    r = load_rules()
    for i in range(400):
        faces = [int(f) for f in rng.integers(1, 7, size=int(rng.integers(1, 12)))]
        rep, marksman = int(rng.integers(3, 7)), bool(i % 2)
        ref, nat = _both(faces)
        expected = _run(_shot, ranged_combat, r, ref, rep, marksman)
        got = _run(_shot, native, r, nat, rep, marksman)
        assert same(got, expected), (faces, got, expected)
        assert nat.used == ref.used and nat.remaining == ref.remaining


def _melee_round(m: Any, r: NoQuarterRules, dice: Any, rep: int, attrs: Any) -> tuple[Any, ...]:
    """A scripted charge and melee round as flow_melee rolls them: tests, dice, location, damage."""
    charger = passed_dice(dice.roll(2), rep)
    target = passed_dice(
        dice.roll(m.charge_target_dice(r, target_in_cover=True, aspect=Aspect.FLANK)), 4
    )
    charge = m.charge_outcome(charger, target, rules=r)
    kw = {"melee_weapon": True, "attacking_prone": False, "jump_attack": rep == 5, "leaving": False}
    a = successes(dice.roll(m.melee_dice(r, rep, race=Race.ZHUH_ZHUH, attributes=attrs, **kw)))
    d = successes(
        dice.roll(
            m.melee_dice(r, 4, race=Race.HISHEN, attributes=(), **{**kw, "jump_attack": False})
        )
    )
    margin = m.melee_margin(a, d)
    if margin == 0:
        return (charge, margin)
    attack = MeleeAttack.KICK if margin > 0 else MeleeAttack.PUNCH
    location = m.melee_hit_location(r, dice.roll(1)[0], attack, jump_attack=rep == 5)
    damage = m.melee_damage(r, dice.roll(2), abs(margin), m.limb_damage(3, 2), 3)
    return (charge, margin, location, damage)


def _reaction_test(m: Any, r: NoQuarterRules, dice: Any, rep: int, attrs: Any) -> tuple[Any, ...]:
    """A group's Fired On test (D16): one pool of the most dice any mech needs, read by each."""
    group = [
        (Faction.STAR_ARMY, True, attrs),
        (Faction.HISHEN, False, ()),
        (Faction.ISS, False, (A.WUSSY,)),
    ]
    needs = [
        m.reaction_dice(r, ReactionTest.FIRED_ON, f, in_cover=c, attributes=a) for f, c, a in group
    ]
    pool = dice.roll(max(needs))
    out = []
    for (faction, cover, a), need in zip(group, needs, strict=True):
        faces = m.read_pooled_dice(pool, need)
        target = m.reaction_rep(
            r, rep, weapons_out_of_action=1, twice_as_many_friendly_losses=cover
        )
        result = m.reaction_result(
            r,
            ReactionTest.FIRED_ON,
            faction,
            passed_dice(faces, target),
            in_range=True,
            outgunned=m.is_outgunned(4, 1, rules=r),
            attributes=a,
        )
        out.append(result)
    return (*out, m.worst_result([o.result for o in out], rules=r))


@pytest.mark.parametrize("procedure", [_melee_round, _reaction_test])
def test_scripted_melee_and_reaction_tests_consume_the_same_faces(
    procedure: Callable[..., Any],
) -> None:
    rng = np.random.default_rng(1066)
    r = edited_rules()
    for i in range(300):
        faces = [int(f) for f in rng.integers(1, 7, size=int(rng.integers(2, 24)))]
        rep, attrs = int(rng.integers(2, 7)), ATTRIBUTE_SETS[i % len(ATTRIBUTE_SETS)]
        ref, nat = _both(faces)
        module = melee if procedure is _melee_round else reaction
        expected = _run(procedure, module, r, ref, rep, attrs)
        got = _run(procedure, native, r, nat, rep, attrs)
        assert same(got, expected), (faces, got, expected)
        assert nat.used == ref.used and nat.remaining == ref.remaining
