"""Force creation (§9.3, §9.6, §10.8.1, ruling D35): the builder's attribute picks, the Free
Company's race and mixing rolls, and every set-up die in a set-up event.

A Star's second attribute (§9.6.1), the "keep the better" of a Basic pilot (§9.6.3) and a
rolled Choice (§9.6.4) are the choices of whoever builds the force (``ForceSpec.chooser``);
the default chooser is D35's fixed preference list, which also plays for non-player forces.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.rules.dice import RandomDice, ScriptedDice, TallyDice
from wargym.rules.errors import IllegalActionError, TableError
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS
from wargym.rules.no_quarter.battle.state import BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield
from wargym.rules.no_quarter.forces import setup_events as sev
from wargym.rules.no_quarter.forces.data import (
    CONFIG_DIR,
    TABLE_FILES,
    RulesOptions,
    load_rules,
    parse_rules,
)
from wargym.rules.no_quarter.forces.pilots import AttributePick, PickKind
from wargym.rules.no_quarter.forces.setup import (
    ForceSpec,
    new_battle,
    new_battle_logged,
    new_skirmish_logged,
)
from wargym.rules.no_quarter.forces.vocab import Attribute, Faction, Race, Side
from wargym.rules.tables import load_config, parse_yaml, read_config_text

A = Attribute


def _red() -> ForceSpec:
    return ForceSpec(Side.RED, Faction.HISHEN, ("hishen_c3",), use_attributes=False)


def _build(blue: ForceSpec, faces: list[int], options: BattleOptions | None = None):  # type: ignore[no-untyped-def]
    dice = ScriptedDice(faces)
    battle, events = new_battle_logged(
        [blue, _red()], Battlefield(), np.random.default_rng(0), dice, options
    )
    assert dice.remaining == 0  # every face scripted was used by the set-up
    return battle, events


class Recorder:
    """A builder's chooser: answers from ``answers`` by kind and keeps every question."""

    def __init__(self, answers: dict[PickKind, object]) -> None:
        self.answers = answers
        self.asked: list[AttributePick] = []

    def __call__(self, pick: AttributePick) -> Attribute:
        self.asked.append(pick)
        return self.answers[pick.kind]  # type: ignore[return-value]


def test_9_6_star_second_attribute_choice_is_the_builders_pick() -> None:
    # Star Army Star (Basic): rolls 1,1 Agile and 3,6 Quick Reflexes, keeps Agile (the
    # builder's pick, not D35's Quick Reflexes), then chooses Lucky as the second attribute.
    chooser = Recorder({PickKind.KEEP_BETTER: A.AGILE, PickKind.STAR_SECOND: A.LUCKY})
    blue = ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",), stars=1, chooser=chooser)
    battle, events = _build(blue, [1, 1, 3, 6, 2])  # ... then the Hishen grunt's Rep die 2
    assert battle.mechs[0].pilot.attributes == (A.AGILE, A.LUCKY)
    keep, second = chooser.asked
    assert (keep.kind, keep.options, keep.pilot, keep.star) == (
        PickKind.KEEP_BETTER, (A.QUICK_REFLEXES, A.AGILE), "blue-1", True,
    )  # fmt: skip
    assert second.kind is PickKind.STAR_SECOND and second.held == (A.AGILE,)
    # any attribute but the one held, Choice, and Hard as Nails (a Star re-rolls it, §9.6.4)
    assert set(second.options) == set(A) - {A.AGILE, A.CHOICE, A.HARD_AS_NAILS}
    assert A.DUMBASS in second.options  # the builder's call, even a bad one
    created = [e for e in events if isinstance(e, sev.PilotCreated)]
    assert [e.mech for e in created] == [0, 1]
    star = created[0]
    assert star.attribute_faces == ((1, 1), (3, 6)) and star.rep_face is None
    assert star.picks == (("keep_better", "agile"), ("star_second", "lucky"))
    assert created[1].rep_face == 2 and created[1].attribute_faces == ()


def test_9_6_choice_result_is_the_builders_pick() -> None:
    # A Zhuh-Zhuh Grunt rolls 6,6: Choice; the builder picks Brawler (D35 would take Nerves
    # of Steel). A Grunt may choose Hard as Nails; Choice itself is no option.
    chooser = Recorder({PickKind.CHOICE: A.BRAWLER})
    blue = ForceSpec(Side.BLUE, Faction.ZHUH_ZHUH, ("zhuh_zhuh_c3",), chooser=chooser)
    battle, events = _build(blue, [3, 6, 6, 2])  # Rep 3 -> 4; 6,6 Choice; red Rep 2
    assert battle.mechs[0].pilot.attributes == (A.BRAWLER,)
    (pick,) = chooser.asked
    assert A.HARD_AS_NAILS in pick.options and A.CHOICE not in pick.options
    created = next(e for e in events if isinstance(e, sev.PilotCreated) and e.mech == 0)
    assert created.rolled == (A.CHOICE,) and created.picks == (("choice", "brawler"),)


def test_9_6_d35_is_the_default_chooser() -> None:
    # No chooser: D35's list keeps Quick Reflexes over Agile and adds Nerves of Steel.
    blue = ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",), stars=1)
    battle, events = _build(blue, [1, 1, 3, 6, 2])
    assert battle.mechs[0].pilot.attributes == (A.QUICK_REFLEXES, A.NERVES_OF_STEEL)
    created = next(e for e in events if isinstance(e, sev.PilotCreated) and e.mech == 0)
    assert created.picks == (("keep_better", "quick_reflexes"), ("star_second", "nerves_of_steel"))


@pytest.mark.parametrize("bad", ["telepathy", A.AGILE, A.CHOICE, A.HARD_AS_NAILS, "x" * 500])
def test_9_6_star_second_attribute_choice_rejects_a_pick_not_offered(bad: object) -> None:
    chooser = Recorder({PickKind.KEEP_BETTER: A.AGILE, PickKind.STAR_SECOND: bad})
    blue = ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",), stars=1, chooser=chooser)
    with pytest.raises(IllegalActionError) as info:
        _build(blue, [1, 1, 3, 6, 2])
    message = str(info.value)
    assert "star_second" in message and "blue-1" in message
    shown = bad.value if isinstance(bad, Attribute) else bad
    assert str(shown)[:20] in message and len(message) < 400


def test_9_6_a_pick_may_be_the_attribute_value_string() -> None:
    chooser = Recorder({PickKind.KEEP_BETTER: "agile", PickKind.STAR_SECOND: "marksman"})
    blue = ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",), stars=1, chooser=chooser)
    battle, _ = _build(blue, [1, 1, 3, 6, 2])
    assert battle.mechs[0].pilot.attributes == (A.AGILE, A.MARKSMAN)


def test_9_6_no_question_when_both_rolls_agree() -> None:
    chooser = Recorder({})
    blue = ForceSpec(Side.BLUE, Faction.STAR_ARMY, ("star_army_c3",), chooser=chooser)
    battle, _ = _build(blue, [1, 3, 3, 3, 3, 2])  # Rep 1 -> 4; Near Sighted twice; red Rep
    assert battle.mechs[0].pilot.attributes == (A.NEAR_SIGHTED,) and chooser.asked == []


def _fc(count: int = 3) -> ForceSpec:
    return ForceSpec(
        Side.BLUE, Faction.FREE_COMPANY, ("free_company_c3",) * count, use_attributes=False
    )


def test_9_3_free_company_race_roll_one_race_for_the_company() -> None:
    # Company race 4 -> Zhuh-Zhuh; mixing roll 5 -> not mixed: every pilot is Zhuh-Zhuh and
    # rolls only his Rep (1, 5, 6 on the Free Company row: 3, 5, 5); red Rep die 2.
    battle, events = _build(_fc(), [4, 5, 1, 5, 6, 2])
    pilots = [battle.mechs[i].pilot for i in range(3)]
    assert [p.race for p in pilots] == [Race.ZHUH_ZHUH] * 3
    assert [p.rep for p in pilots] == [3, 5, 5]
    (company,) = [e for e in events if isinstance(e, sev.FreeCompanyRaces)]
    assert (company.race_face, company.mixing_face, company.count_face) == (4, 5, None)
    assert company.races == (Race.ZHUH_ZHUH,) and company.members == (0, 1, 2)
    assert all(e.race_faces == () for e in events if isinstance(e, sev.PilotCreated))


def test_9_3_free_company_mixing_roll_three_races_rolls_each_pilot() -> None:
    # Company race 1 Basic; mixing 2 -> mixed; count 6 -> three races; each pilot rolls his
    # race: 6 Xeog (Rep 1 on the Xeog row: 4), 4 Zhuh-Zhuh (Rep 1: 3), 2 Basic (Rep 6: 5).
    battle, events = _build(_fc(), [1, 2, 6, 6, 1, 4, 1, 2, 6, 2])
    assert [battle.mechs[i].pilot.race for i in range(3)] == [Race.XEOG, Race.ZHUH_ZHUH, Race.BASIC]
    assert [battle.mechs[i].rep for i in range(3)] == [4, 3, 5]
    (company,) = [e for e in events if isinstance(e, sev.FreeCompanyRaces)]
    assert company.count_face == 6 and set(company.races) == {Race.BASIC, Race.ZHUH_ZHUH, Race.XEOG}
    faces = [
        e.race_faces for e in events if isinstance(e, sev.PilotCreated) and e.mech in (0, 1, 2)
    ]
    assert faces == [(6,), (4,), (2,)]


def test_9_3_free_company_two_races_roll_the_second_and_reroll_other_races() -> None:
    # Xeog company (6), mixed (1), two races (3); the second race roll 6 repeats Xeog and is
    # re-rolled: 5 Zhuh-Zhuh. Pilots: 2 (Basic, not of the company) re-rolled to 6 Xeog, Rep 1
    # -> 4; 4 Zhuh-Zhuh, Rep 6 -> 5.
    battle, events = _build(_fc(2), [6, 1, 3, 6, 5, 2, 6, 1, 4, 6, 2])
    assert [battle.mechs[i].pilot.race for i in range(2)] == [Race.XEOG, Race.ZHUH_ZHUH]
    assert [battle.mechs[i].rep for i in range(2)] == [4, 5]
    (company,) = [e for e in events if isinstance(e, sev.FreeCompanyRaces)]
    assert company.races == (Race.XEOG, Race.ZHUH_ZHUH) and company.extra_faces == (6, 5)
    faces = [e.race_faces for e in events if isinstance(e, sev.PilotCreated) and e.mech in (0, 1)]
    assert faces == [(2, 6), (4,)]


def test_9_3_free_company_per_pilot_race_option_keeps_the_old_roll() -> None:
    options = BattleOptions(rules=RulesOptions(free_company_races="per_pilot"))
    battle, events = _build(_fc(2), [6, 1, 4, 1, 2], options)
    assert [battle.mechs[i].pilot.race for i in range(2)] == [Race.XEOG, Race.ZHUH_ZHUH]
    assert not any(isinstance(e, sev.FreeCompanyRaces) for e in events)


def test_9_3_mixing_table_lives_in_yaml() -> None:
    rules = load_rules()
    assert rules.free_company_mixing.mixed_faces == (1, 2)
    assert rules.free_company_mixing.race_count == (2, 2, 2, 2, 3, 3)


def test_9_setup_events_hold_every_die_of_the_set_up_and_round_trip() -> None:
    tally = TallyDice(RandomDice.from_seed(11), [])
    battle, events = new_skirmish_logged(
        np.random.default_rng(2), tally, blue=Faction.FREE_COMPANY, stars=1
    )
    kinds = (sev.PilotCreated, sev.FreeCompanyRaces)
    count = next(i for i, e in enumerate(events) if not isinstance(e, kinds))
    setup, play = events[:count], events[count:]
    assert isinstance(play[0], (ev.TurnStarted, ev.ActivationRolled))
    assert not any(isinstance(e, kinds) for e in play)
    recorded: list[int] = []
    for e in setup:
        if isinstance(e, sev.FreeCompanyRaces):
            recorded += [e.race_face, e.mixing_face, *([e.count_face] if e.count_face else [])]
            recorded += e.extra_faces
        else:
            assert isinstance(e, sev.PilotCreated)
            recorded += [*e.race_faces, *([e.rep_face] if e.rep_face else [])]
            recorded += [face for pair in e.attribute_faces for face in pair]
    assert tally.faces[: len(recorded)] == recorded  # every set-up die, in the order rolled
    created = [e for e in setup if isinstance(e, sev.PilotCreated)]
    assert [e.mech for e in created] == sorted(battle.mechs)
    assert [e.attributes for e in created] == [
        battle.mechs[e.mech].pilot.attributes for e in created
    ]
    for e in setup:
        assert NO_QUARTER_EVENTS.from_dict(e.to_dict()) == e


def test_9_new_battle_is_new_battle_logged_without_the_events() -> None:
    blue = ForceSpec(Side.BLUE, Faction.FREE_COMPANY, ("free_company_c3",) * 2, stars=1)
    a = new_battle([blue, _red()], Battlefield(), np.random.default_rng(0), RandomDice.from_seed(5))
    b, _ = new_battle_logged(
        [blue, _red()], Battlefield(), np.random.default_rng(0), RandomDice.from_seed(5)
    )
    assert a.to_dict() == b.to_dict()
    assert dataclasses.asdict(a.mechs[0].pilot) == dataclasses.asdict(b.mechs[0].pilot)


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        ("race_count: [2, 2, 2, 2, 3, 3]", "race_count: [2, 2, 2, 2, 3, 4]", "race_count"),
        ("race_count: [2, 2, 2, 2, 3, 3]", "race_count: [2, 2, 3]", "race_count"),
        ("mixed_faces: [1, 2]", "mixed_faces: [1, 7]", "mixed_faces"),
        ("  mixed_faces: [1, 2]\n", "  mixed_faces: [1, 2]\n  mixed_facez: [3]\n", "mixed_facez"),
    ],
)
def test_9_3_a_broken_mixing_table_is_a_table_error(old: str, new: str, named: str) -> None:
    path = f"{CONFIG_DIR}/racial_attributes.yaml"
    text = read_config_text(path)
    assert old in text
    nodes = {name: load_config(f"{CONFIG_DIR}/{name}.yaml") for name in TABLE_FILES}
    nodes["racial_attributes"] = parse_yaml(text.replace(old, new), path)
    with pytest.raises(TableError) as error:
        parse_rules(nodes)
    assert "racial_attributes.yaml" in str(error.value) and named in str(error.value)
