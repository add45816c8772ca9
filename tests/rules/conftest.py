"""The rules tests on both engines (issue 16, item 5).

The No Quarter tests that go through the public game API (``legal_actions``, ``check_legal``,
``play``, ``advance`` of :mod:`wargym.rules.no_quarter.battle.game`) run twice: ``[reference]``
as written, and ``[native]`` with the native core answering those four functions
(``no_quarter/native_engine.py``'s :class:`NativeShim`: the battle goes to the core, is played
there on the test's own dice object, and is written back into the same ``Battle``; the
reference's events come back).

The selection: :data:`BOTH` (modules whose tests all run on both engines but those named, each
with its reason: it reaches a mission, Cestus V or a building struck in melee, which the core
has not yet, or it never calls the API), :data:`ONLY` (modules of which only the named tests
use the API on a skirmish), :data:`NOT_BOTH` (modules that use the API on the reference only,
with the reason). Nothing is skipped at run time: a test left out is not parametrised, and a
native run that never calls the API fails, so the lists stay exact
(``test_nq_native_engine.py`` checks that they name real tests and every module that uses the
API). :data:`NATIVE_SUBSETS` runs only some parametrisations natively (CI time);
:data:`NATIVE_DIFFERENCES` pins a difference found as a strict xfail.

``--rules-engine=reference`` (or ``native``; also ``$WARGYM_RULES_ENGINE``, for runs started
above tests/rules, where this option is not registered) runs one half of the selected tests;
``survey`` runs every No Quarter rules test once with the shim and appends, per test, the API
calls made and the outcome to ``build/rules-engine-survey.jsonl`` (how the lists were drawn
up: run it after adding tests).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "no_quarter"))
import native_engine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SURVEY = ROOT / "build" / "rules-engine-survey.jsonl"
ENGINES = ("reference", "native")
MODES = ("both", "reference", "native", "survey")
MODE_VARIABLE = "WARGYM_RULES_ENGINE"
FAULT_VARIABLE = "WARGYM_NATIVE_SHIM_FAULT"
"""A planted fault in every native run, to see the native half fail: ``drop:<event class>``
(the shim loses those events) or ``freeze:<field>`` (it forgets that Mech or Battle field's
changes), e.g. ``WARGYM_NATIVE_SHIM_FAULT=freeze:pos pytest tests/rules/no_quarter``."""

MISSION = "reaches a mission's turn (NativeNotPortedError: mission_play; missions are issue 17)"
CESTUS = "plays Cestus V battles (NativeNotPortedError: mission_play, troll_check; issue 17)"
NO_API = "never calls the game API (its rule is checked without a battle being played)"

BOTH: dict[str, dict[str, str]] = {
    "test_nq_12_2_tv10_command_radius.py": {},
    "test_nq_13_1_group_orders.py": {},
    "test_nq_14_clone_independence.py": {
        "test_14_clone_of_mission_with_pefs_is_fully_independent": MISSION,
        "test_14_clone_plays_on_identically": MISSION,
    },
    "test_nq_14_game_properties.py": {},
    "test_nq_16_1_tv28_in_sight_free_moves.py": {},
    "test_nq_16_2_losses_and_attributes.py": {
        "test_16_2_losses_count_each_mech_once_whatever_the_event_order": NO_API,
        "test_12_0_squad_leader_passes_to_the_highest_rep_team_leader_of_the_squad": NO_API,
        "test_12_0_a_platoon_has_squad_leaders_and_the_first_succeeds_its_leader": NO_API,
        "test_12_0_succession_order_is_read_from_the_yaml": NO_API,
        "test_12_0_unknown_successor_in_the_yaml_is_refused": NO_API,
    },
    "test_nq_16_engine_flows.py": {
        "test_5_6_fired_on_pass_one_gives_zhuh_zhuh_rush_shot_in_the_engine": NO_API,
        "test_16_2_pdf_takes_damage_pass_one_ducks_back_with_rep_minus_one": NO_API,
        "test_17_4_2_pass_zero_damage_ducks_back_without_a_test": NO_API,
        "test_13_2_group_splits_when_the_linking_mech_is_destroyed": NO_API,
        "test_12_0_successor_takes_over_when_the_leader_is_lost": NO_API,
    },
    "test_nq_16_in_sight_reactions.py": {
        "test_16_1_4_unknown_in_sight_spent_fire_choice_is_refused_by_the_envs": NO_API,
    },
    "test_nq_17_4_2_armor_floor.py": {
        "test_17_4_2_damage_table_clamps_the_armour_after_at_0": NO_API,
        "test_18_3_2_melee_overkill_clamps_at_0_and_still_criticals": NO_API,
    },
    "test_nq_18_2_1_several_chargers.py": {},
    "test_nq_18_charge_fidelity.py": {
        "test_17_4_fast_moving_threshold_is_read_from_the_rules": NO_API,
        "test_16_1_3_free_move_distance_is_read_from_the_rules": NO_API,
    },
    "test_nq_17_event_record.py": {
        "test_15_2_4_firing_started_and_ended_bracket_the_shots": NO_API,
        "test_15_2_4_no_bracket_when_nothing_fires": NO_API,
        "test_16_2_reaction_test_in_cover_rolls_the_cover_die_and_says_so": NO_API,
        "test_16_2_reaction_test_records_cover_and_dice_open_table": NO_API,
        "test_17_4_3_arm_weapon_critical_chooses_among_that_arms_weapons": NO_API,
        "test_17_4_3_random_item_critical_records_its_die_and_the_items_it_chose_from": NO_API,
    },
    "test_nq_19_buildings_flames_command.py": {
        "test_10_4_2_d27_a_move_paused_inside_a_flame_rolls_for_it_once": NO_API,
        "test_10_4_2_moving_through_a_flame_rolls_damage_against_impact_3": NO_API,
        "test_12_2_team_in_command_radius_activates_with_its_platoon_leader": NO_API,
        "test_18_2_1_target_charged_twice_rolls_once": NO_API,
        "test_19_4_2_active_fire_can_target_a_building_and_destroy_it": NO_API,
    },
    "test_nq_6_2_facing_decisions.py": {},
    "test_nq_9_2_3_tv06_10_4_4_tv08b_in_play.py": {},
    "test_nq_9_6_marksman_lucky.py": {},
}
"""Module -> {test: why it stays on the reference}: the module's other tests run on both."""

ONLY: dict[str, tuple[str, ...]] = {
    "test_nq_22_missions.py": ("test_22_0_tally_side_from_battle_mechs",),
    "test_nq_22_np_ai.py": (
        "test_22_4_np_decide_always_legal_and_battles_end",
        "test_22_4_np_decide_ignores_blue_mechs_it_cannot_see",
    ),
    "test_nq_22_setup_events.py": (
        "test_14_0_new_skirmish_logged_returns_the_turn_1_activation_roll",
    ),
    "test_nq_state_validity.py": (
        "test_a_battle_not_yet_started_is_valid_for_the_engine_not_the_server",
    ),
    "test_nq_9_force_creation.py": (
        "test_9_setup_events_hold_every_die_of_the_set_up_and_round_trip",
    ),
}
"""Module -> the tests that run on both engines (the module's others never call the game API
or reach a mission): for modules where those are the few."""

NOT_BOTH: dict[str, str] = {
    "test_nq_22_3_6_pursuit_event.py": MISSION,
    "test_nq_22_mission_play.py": MISSION,
    "test_nq_27_4_generated_terrain.py": MISSION,
    "test_nq_27_cestus_campaign.py": CESTUS,
    "test_nq_27_cestus_fidelity.py": CESTUS,
    "test_nq_27_cestus_v.py": CESTUS,
    "test_nq_27_m2_troll_per_inch.py": CESTUS,
    "test_nq_campaign_cli.py": f"its campaign battles are missions: {MISSION}",
    "test_nq_22_np_exits_pefs.py": MISSION,
    "test_nq_23_saves.py": f"its game API tests save campaigns mid-mission: {MISSION}",
    "test_nq_23_campaign.py": f"its game API tests play campaign missions: {MISSION}",
    "test_nq_plain_parts_validity.py": (
        "plays its mission states at collection time (no test calls the API)"
    ),
    "test_nq_golden.py": (
        "checks the native core itself (test_nq_golden_skirmish_log_unchanged_on_the_native_"
        "core, through perft's NativeBackend); its missions are issue 17"
    ),
    "test_nq_perft.py": "checks the native core itself, through perft's NativeBackend",
    "test_nq_scenario_traces.py": "checks the native core itself, through perft's NativeBackend",
    "test_nq_native_engine.py": "tests the shim itself (reference against native, a planted fault)",
}
"""Modules that use the game API and run on the reference only, with the reason."""

SLOW_VARIABLE = "WARGYM_NATIVE_SLOW"
"""Set to 1: the native runs of NATIVE_SLOW and every parametrisation of NATIVE_SUBSETS too."""

NATIVE_SLOW: dict[str, dict[str, str]] = {
    "test_nq_22_np_ai.py": {
        "test_22_4_np_decide_always_legal_and_battles_end": "200 games, about 19,000 plays",
        "test_22_4_np_decide_ignores_blue_mechs_it_cannot_see": "random games to their end",
    },
    "test_nq_16_2_losses_and_attributes.py": {
        "test_16_2_losses_equal_the_mechs_lost_in_random_games": "8 games of 6 a side",
    },
}
"""Module -> {test: why}: selected tests whose native run is left to ``WARGYM_NATIVE_SLOW=1``
(CI time; each is a long random-play property the lockstep harness covers in CI too)."""

NATIVE_SUBSETS: dict[str, dict[str, tuple[str, tuple[object, ...], str]]] = {
    "test_nq_14_game_properties.py": {
        "test_14_playouts_end_without_exception_and_keep_invariants": (
            "chunk",
            (0,),
            "the first 50 of the 1,000 playouts (the others are more seeds of the same property)",
        ),
    },
}
"""Module -> {test: (parameter, values, why)}: in CI only these parametrisations run natively
(``WARGYM_NATIVE_SLOW=1``: all of them but NATIVE_PARAMS_LEFT_OUT's)."""

NATIVE_PARAMS_LEFT_OUT: dict[str, dict[str, tuple[str, tuple[object, ...], str]]] = {}
"""Module -> {test: (parameter, values, why)}: parametrisations that never run natively (none
since buildings.strike_building is native; chunks 9 and 19 of the playouts strike buildings)."""

NATIVE_DIFFERENCES: dict[str, dict[str, str]] = {}
"""Native differences the rules tests found: the native run is a strict xfail, until fixed."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--rules-engine",
        choices=MODES,
        default=None,
        help="the engines of the No Quarter rules tests that use the game API "
        f"(tests/rules/conftest.py; default ${MODE_VARIABLE} or both)",
    )


def _mode(config: pytest.Config) -> str:
    # getoption's default: this conftest's options exist only when it is an initial conftest
    # (pytest started on tests/rules or below); from the top the variable still chooses
    chosen = config.getoption("--rules-engine", default=None)
    mode = str(chosen or os.environ.get(MODE_VARIABLE, "") or "both")
    if mode not in MODES:
        raise pytest.UsageError(f"{MODE_VARIABLE}={mode!r}: expected one of {MODES}")
    return mode


def _module(definition: Any) -> str:
    return Path(str(definition.fspath)).name


def _native_reason(module: str, name: str) -> str | None:
    """Why test ``name`` of ``module`` stays on the reference (None: it runs on both)."""
    if module in BOTH:
        return BOTH[module].get(name)
    if module in ONLY:
        return None if name in ONLY[module] else "not in ONLY"
    return NOT_BOTH.get(module, "module not selected")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "rules_engine" not in metafunc.fixturenames:
        return
    mode = _mode(metafunc.config)
    if mode == "survey":
        return
    module, name = _module(metafunc.definition), metafunc.definition.originalname
    if _native_reason(module, name) is not None:
        return
    if name in NATIVE_SLOW.get(module, {}) and not _slow():
        return
    engines = ENGINES if mode == "both" else (mode,)
    metafunc.parametrize("rules_engine", engines, indirect=True, ids=list(engines))


def _slow() -> bool:
    return os.environ.get(SLOW_VARIABLE, "").lower() in ("1", "true", "yes")


def _is_native(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    return callspec is not None and callspec.params.get("rules_engine") == "native"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """NATIVE_SUBSETS (in CI) and NATIVE_PARAMS_LEFT_OUT: those parametrisations' native runs
    are deselected (not skipped); NATIVE_DIFFERENCES: the native run is a strict xfail."""
    dropped: list[pytest.Item] = []
    for item in items:
        if not _is_native(item):
            continue
        module, name = Path(str(item.fspath)).name, getattr(item, "originalname", item.name)
        params = item.callspec.params  # type: ignore[attr-defined]
        subset = NATIVE_SUBSETS.get(module, {}).get(name)
        if subset is not None and not _slow() and params.get(subset[0]) not in subset[1]:
            dropped.append(item)
            continue
        left_out = NATIVE_PARAMS_LEFT_OUT.get(module, {}).get(name)
        if left_out is not None and params.get(left_out[0]) in left_out[1]:
            dropped.append(item)
            continue
        difference = NATIVE_DIFFERENCES.get(module, {}).get(name)
        if difference is not None:
            item.add_marker(pytest.mark.xfail(strict=True, reason=difference))
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        gone = set(dropped)
        items[:] = [item for item in items if item not in gone]


@pytest.fixture(autouse=True)
def rules_engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The engine answering the game API in this test: ``reference`` or ``native``."""
    mode = _mode(request.config)
    survey = mode == "survey" and "no_quarter" in Path(str(request.node.fspath)).parts
    engine = "native" if survey else getattr(request, "param", "reference")
    if engine == "reference":
        yield engine
        return
    kind, _, name = os.environ.get(FAULT_VARIABLE, "").partition(":")
    if kind not in ("", "drop", "freeze") or (kind and not name):
        raise pytest.UsageError(f"{FAULT_VARIABLE}: expected drop:<event> or freeze:<field>")
    shim = native_engine.NativeShim(
        drop_event=name if kind == "drop" else None, freeze_field=name if kind == "freeze" else None
    )
    native_engine.install(monkeypatch, shim)
    request.node.stash[_SHIM] = shim
    yield engine
    if not survey and not shim.calls:
        pytest.fail(
            "this test ran on the native engine but never called the game API: leave it out "
            "(BOTH or ONLY in tests/rules/conftest.py)",
            pytrace=False,
        )


_SHIM = pytest.StashKey[native_engine.NativeShim]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    if _mode(item.config) != "survey" or call.when != "call":
        return
    shim = item.stash.get(_SHIM, None)
    if shim is None:
        return
    report = outcome.get_result()
    excinfo = call.excinfo
    error = None if excinfo is None else f"{excinfo.typename}: {str(excinfo.value)[:200]}"
    line = {
        "module": Path(str(item.fspath)).name,
        "test": getattr(item, "originalname", item.name),
        "id": item.nodeid,
        "calls": dict(shim.calls),
        "outcome": report.outcome,
        "error": error,
    }
    SURVEY.parent.mkdir(exist_ok=True)
    with SURVEY.open("a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
