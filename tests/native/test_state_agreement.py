"""The native battle state reads and writes the reference's versioned JSON (issue 16, req. 3).

For every state reached in random skirmish games of every set-up (1-5 mechs a side, Stars,
each ``BattleOptions`` choice, every faction), sampled after every decision:

* the native ``to_dict(from_dict(d))`` equals the reference's ``d`` key for key and value
  for value, with the same types (an int stays an int, a float a float);
* a native ``clone()`` writes the same document and shares nothing mutable with its original;
* the document the native core writes loads back into the reference (``Battle.from_dict``)
  unchanged.

``WARGYM_STATE_GAMES`` sets the number of games (default 24; the benchmark's bigger runs
use the same generator). Mission states (PEFs, NP and mission bookkeeping) are covered too.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import numpy as np
import pytest

from wargym.native import no_quarter as nnq
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import actions, game, state, validity
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battlefield.terrain_tables import terrain_config
from wargym.rules.no_quarter.forces import vocab
from wargym.rules.no_quarter.forces.data import RulesOptions
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.mission.mission_play import new_mission

sys.path.insert(0, str(Path(__file__).parent))
from _state_compare import same  # noqa: E402

GAMES = int(os.environ.get("WARGYM_STATE_GAMES", "24"))
MAX_DECISIONS = 250
"""Decisions played per game at most (most skirmishes end sooner)."""


def option_variants() -> list[BattleOptions]:
    """The defaults, then every other choice of every option, one change at a time."""
    out = [BattleOptions()]
    hints = typing.get_type_hints(BattleOptions)
    rules_hints = typing.get_type_hints(RulesOptions)
    for f in dataclasses.fields(BattleOptions):
        tp, default = hints[f.name], getattr(BattleOptions(), f.name)
        if tp is bool:
            out.append(dataclasses.replace(BattleOptions(), **{f.name: not default}))
        elif typing.get_origin(tp) is typing.Literal:
            for choice in get_args(tp):
                if choice != default:
                    out.append(dataclasses.replace(BattleOptions(), **{f.name: choice}))
    for f in dataclasses.fields(RulesOptions):
        tp, default = rules_hints[f.name], getattr(RulesOptions(), f.name)
        choices = (not default,) if tp is bool else tuple(c for c in get_args(tp) if c != default)
        for choice in choices:
            rules = dataclasses.replace(RulesOptions(), **{f.name: choice})
            out.append(dataclasses.replace(BattleOptions(), rules=rules))
    out.append(dataclasses.replace(BattleOptions(), max_turns=3, move_directions=8,
                                   move_fractions=(0.5, 1.0), base_radius=0.75))  # fmt: skip
    return out


VARIANTS = option_variants()
FACTIONS = list(vocab.Faction)


def skirmish_states(games: int, seed: int = 0) -> Iterator[tuple[str, dict[str, Any]]]:
    """(label, ``to_dict()``) of every state of ``games`` random skirmishes, after each decision."""
    for g in range(games):
        options = VARIANTS[g % len(VARIANTS)]
        per_side = 1 + g % 5
        stars = g % (per_side + 1)
        blue, red = FACTIONS[g % len(FACTIONS)], FACTIONS[(g * 5 + 1) % len(FACTIONS)]
        rng = np.random.default_rng(seed + g)
        dice = RandomDice.from_seed(seed + g)
        battle = new_skirmish(rng, dice, blue=blue, red=red, mechs_per_side=per_side,
                              stars=stars, options=options)  # fmt: skip
        for step in range(MAX_DECISIONS):
            yield f"game {g} ({per_side} a side, {stars} stars) decision {step}", battle.to_dict()
            if battle.over:
                break
            options_now = game.legal_actions(battle)
            game.play(battle, options_now[int(rng.integers(len(options_now)))], dice)
        else:
            yield f"game {g} last", battle.to_dict()


def mission_states(seed: int = 0) -> Iterator[tuple[str, dict[str, Any]]]:
    """States of the shipped mission scenarios (PEFs, NP groups, mission bookkeeping)."""
    for name in ("patrol_star_army_vs_hishen", "attack_iss_vs_hishen", "defend_pdf_vs_hishen"):
        rng = np.random.default_rng(seed)
        dice = RandomDice.from_seed(seed)
        battle = new_mission(name, rng, dice)
        for step in range(40):
            yield f"{name} decision {step}", battle.to_dict()
            if battle.over:
                break
            legal = game.legal_actions(battle)
            game.play(battle, legal[int(rng.integers(len(legal)))], dice)


def check_round_trip(label: str, data: dict[str, Any]) -> None:
    before = copy.deepcopy(data)
    native = nnq.battle_from_dict(data)
    written = native.to_dict()
    diff = same(data, written)
    assert diff is None, f"{label}: native to_dict(from_dict(d)) differs at {diff}"
    assert data == before, f"{label}: from_dict changed its input"
    twin = native.clone()
    assert same(data, twin.to_dict()) is None, f"{label}: the clone writes another document"
    back = Battle.from_dict(written).to_dict()
    diff = same(data, back)
    assert diff is None, f"{label}: the reference reads the native document back as {diff}"


def test_every_option_choice_is_played() -> None:
    """The variants cover every bool and Literal choice of BattleOptions and RulesOptions."""
    seen: dict[str, set[Any]] = {}
    for options in VARIANTS:
        for name, value in dataclasses.asdict(options).items():
            if isinstance(value, dict):
                for sub, v in value.items():
                    seen.setdefault(f"rules.{sub}", set()).add(v)
            elif not isinstance(value, list | tuple):
                seen.setdefault(name, set()).add(value)
    hints = typing.get_type_hints(BattleOptions)
    for f in dataclasses.fields(BattleOptions):
        tp = hints[f.name]
        if tp is bool:
            assert seen[f.name] == {True, False}, f.name
        elif typing.get_origin(tp) is typing.Literal:
            assert seen[f.name] == set(get_args(tp)), f.name
    assert len(VARIANTS) <= GAMES or "WARGYM_STATE_GAMES" in os.environ


def test_native_state_round_trips_every_skirmish_state() -> None:
    count = 0
    sizes: set[int] = set()
    for label, data in skirmish_states(max(GAMES, len(VARIANTS))):
        check_round_trip(label, data)
        sizes.add(len(data["mechs"]))
        count += 1
    assert sizes == {2, 4, 6, 8, 10}
    assert count > 200


def test_native_state_round_trips_mission_states() -> None:
    kinds = set()
    for label, data in mission_states():
        check_round_trip(label, data)
        kinds.add((data["np"] is not None, data["mission"] is not None))
    assert (True, True) in kinds


def test_a_clone_is_independent() -> None:
    data = next(skirmish_states(1))[1]
    native = nnq.battle_from_dict(data)
    twin = native.clone()
    written = twin.to_dict()
    written["mechs"]["0"]["armor"][0] = 99
    written["frames"].append({"kind": "x"})
    assert native.to_dict() == data
    assert twin.to_dict() == data
    assert twin is not native and native.mech_ids == twin.mech_ids


def test_the_vocabulary_is_the_reference_one() -> None:
    """Every C++ enum lists the Python enum's (or Literal's) values in the same order."""
    native = nnq.core.vocabulary()
    for name in ("Side", "Rank", "Status", "Removal", "Location", "Terrain", "Faction", "Race",
                 "Attribute", "ItemType"):  # fmt: skip
        assert native[name] == tuple(m.value for m in getattr(vocab, name)), name
    assert native["DecisionKind"] == tuple(m.value for m in actions.DecisionKind)
    for cls in (BattleOptions, RulesOptions):
        for name, tp in typing.get_type_hints(cls).items():
            if typing.get_origin(tp) is typing.Literal:
                assert native[name] == get_args(tp), name
    assert nnq.core.STATE_VERSION == state.STATE_VERSION
    assert len(native["Location"]) == len(state.LOCATIONS)


def test_the_limits_are_the_validity_ones() -> None:
    limits = nnq.core.StateLimits(validity, terrain_config())
    assert limits.max_json_depth == 64
    data = next(skirmish_states(1))[1]
    data["turn"] = validity.MAX_TURNS + 5
    data["options"]["max_turns"] = validity.MAX_TURNS + 1
    with pytest.raises(validity.InvalidBattleError, match="max_turns"):
        nnq.battle_from_dict(data)
    with pytest.raises(validity.InvalidBattleError, match="max_turns"):
        Battle.from_dict(data)


def test_the_glue_protocol_names_every_member_of_the_native_battle() -> None:
    members = {n for n in dir(nnq.core.Battle) if not n.startswith("_")}
    typed = {n for n in vars(nnq.NativeBattle) if not n.startswith("_")}
    assert members == typed


def test_fields_left_out_take_the_reference_defaults() -> None:
    """from_jsonable fills a left-out field with its default: the native reader does too."""
    data = next(skirmish_states(1))[1]
    data["decision"], data["frames"], data["turn"], data["dice"] = None, [], 0, {}
    data["first_side"] = data["active_side"] = None
    for key in ("dice", "first_side", "active_side", "group_of", "seen_pairs", "losses",
                "flames", "wrecks", "frames", "decision", "over", "winner", "end_reason",
                "home_edges", "building_armor", "np", "mission", "turn"):  # fmt: skip
        del data[key]
    data["options"] = {"max_turns": 7}
    data["battlefield"]["features"][0] = {
        k: v for k, v in data["battlefield"]["features"][0].items()
        if k in ("kind", "x0", "y0", "x1", "y1")
    }  # fmt: skip
    for mech in data["mechs"].values():
        for key in ("rank", "twist", "status", "prone", "moved", "lost_limbs", "inoperable",
                    "removed", "fired_this_activation", "flamer_fired_turn", "lucky_used",
                    "resilient_used", "hard_as_nails_used", "reaction_fired_at",
                    "hidden_from"):  # fmt: skip
            del mech[key]
    reference = Battle.from_dict(data).to_dict()
    native = nnq.battle_from_dict(data).to_dict()
    assert same(reference, native) is None, same(reference, native)
    assert native["losses"] == {"blue": 0, "red": 0} and native["options"]["max_turns"] == 7


def test_an_int_where_a_float_is_wanted_is_written_back_as_a_float() -> None:
    data = next(skirmish_states(1))[1]
    data["mechs"]["0"]["heading"] = 90
    data["battlefield"]["width"] = 36
    native = nnq.battle_from_dict(data).to_dict()
    assert type(native["mechs"]["0"]["heading"]) is float
    assert same(Battle.from_dict(data).to_dict(), native) is None


def test_the_fields_random_games_rarely_reach_round_trip_too() -> None:
    """Flames, wrecks, the once-per-mission flags, well-lit areas and weather, set by hand."""
    data = next(skirmish_states(1))[1]
    data["flames"] = [[[1.0, 2.5], [3.0, 4.0]]]
    data["wrecks"] = [[5.0, 6.25]]
    data["battlefield"]["inclement_weather"] = True
    data["battlefield"]["night"] = True
    data["battlefield"]["features"][0]["well_lit"] = True
    mech = data["mechs"]["0"]
    mech.update(resilient_used=True, hard_as_nails_used=True, flamer_fired_turn=True,
                lucky_used=True, prone=True, moved=2.5)  # fmt: skip
    Battle.from_dict(data)  # a valid state for the reference
    check_round_trip("hand-set fields", data)


def test_a_hill_without_a_crest_gets_the_reference_default() -> None:
    """Feature.__post_init__ puts a left-out hill crest on the long centre line."""
    data = next(skirmish_states(1))[1]
    hills = [f for f in data["battlefield"]["features"] if f["kind"] == "hill"]
    assert hills
    for hill in hills:
        hill["crest"] = None
    reference = Battle.from_dict(data).to_dict()
    native = nnq.battle_from_dict(data).to_dict()
    assert same(reference, native) is None, same(reference, native)
    kinds = native["battlefield"]["features"]
    assert all(f["crest"] is not None for f in kinds if f["kind"] == "hill")
