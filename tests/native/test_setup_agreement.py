"""The native skirmish set-up builds the reference's battle, events and rng state (issue 16).

``native.no_quarter.setup.new_skirmish_setup`` mirrors ``forces.setup.new_skirmish_logged``
up to its ``advance``: the generated battlefield, the mech picks, deployment, Teams and ranks,
Free Company races and pilots. On the same numpy ``Generator`` state and the same dice faces,
for every faction pair, 1-5 mechs a side, 0-6 Stars and every ``BattleOptions`` choice, the
native battle's ``to_dict()`` equals the reference's (types included), the set-up events equal
the reference's ``to_dict()``, the same faces are consumed and the rng is left in the same
state. ``WARGYM_SETUP_ROUNDS`` repeats the sweep with new seeds (default 1).
"""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.native import _core
from wargym.native.errors import NativeArgumentError, NativeStateError, NativeTypeError
from wargym.native.no_quarter import setup as native_setup
from wargym.rules.dice import Dice, ScriptedDice
from wargym.rules.errors import DiceScriptExhaustedError, StateError
from wargym.rules.no_quarter.battle.game import advance
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battlefield import battlefield_gen, terrain
from wargym.rules.no_quarter.battlefield.terrain_tables import terrain_config
from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules
from wargym.rules.no_quarter.forces.records import FreeCompanyMixing
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle_logged, new_skirmish_logged
from wargym.rules.no_quarter.forces.vocab import Faction, Side

sys.path.insert(0, str(Path(__file__).parent))
from _state_compare import same  # noqa: E402
from test_state_agreement import option_variants  # noqa: E402

ROUNDS = int(os.environ.get("WARGYM_SETUP_ROUNDS", "1"))
FACTIONS = list(Faction)
VARIANTS = option_variants()


def reference_setup(
    rng: np.random.Generator,
    dice: Dice,
    blue: Faction,
    red: Faction,
    per_side: int,
    stars: int,
    options: BattleOptions,
    rules: NoQuarterRules | None = None,
) -> tuple[Battle, list[Any]]:
    """new_skirmish_logged's set-up, line for line, stopped before ``advance``."""
    rules = load_rules(options.rules) if rules is None else rules
    field = terrain.generate_battlefield(rng)
    forces = []
    for side, faction in ((Side.BLUE, blue), (Side.RED, red)):
        pool = [design.id for design in rules.mechs_of(faction)]
        picks = tuple(str(pool[int(i)]) for i in rng.integers(0, len(pool), size=per_side))
        forces.append(ForceSpec(side, faction, picks, stars=stars))
    return new_battle_logged(forces, field, rng, dice, options, rules=rules)


def faces(seed: int, n: int = 400) -> list[int]:
    return [int(f) for f in np.random.default_rng(seed + 50_000).integers(1, 7, size=n)]


def agree(
    seed: int,
    blue: Faction,
    red: Faction,
    per_side: int,
    stars: int,
    options: BattleOptions,
    rules: NoQuarterRules | None = None,
    tables: Any = None,
) -> dict[str, Any]:
    script = faces(seed)
    rng = np.random.default_rng(seed)
    dice = ScriptedDice(list(script))
    battle, events = reference_setup(rng, dice, blue, red, per_side, stars, options, rules)
    want = battle.to_dict()
    native_rng = np.random.default_rng(seed)
    native_dice = _core.ScriptedDice(script)
    got, got_events = native_setup.new_skirmish_setup(
        native_rng, native_dice, blue=blue, red=red, mechs_per_side=per_side, stars=stars,
        options=options, tables=tables,
    )  # fmt: skip
    label = f"seed {seed} {blue.value} v {red.value} x{per_side} stars {stars} {options}"
    diff = same(got.to_dict(), want)
    assert diff is None, f"{label}: {diff}"
    diff = same(got_events, [e.to_dict() for e in events], "events")
    assert diff is None, f"{label}: {diff}"
    assert native_dice.used == dice.used, label
    assert native_rng.bit_generator.state == rng.bit_generator.state, label
    return want


def test_every_faction_pair_size_stars_and_option_agree() -> None:
    case = 0
    for round_ in range(ROUNDS):
        for blue in FACTIONS:
            for red in FACTIONS:
                for per_side in range(1, 6):
                    options = VARIANTS[case % len(VARIANTS)]
                    agree(1000 * round_ + case, blue, red, per_side, case % 7, options)
                    case += 1


def test_every_option_variant_agrees_with_a_free_company() -> None:
    for i, options in enumerate(VARIANTS):
        for per_side in (1, 5):
            agree(
                7000 + 10 * i + per_side,
                Faction.FREE_COMPANY,
                Faction.STAR_ARMY,
                per_side,
                1,
                options,
            )


def test_the_battle_before_advance_is_new_skirmish_logged_s() -> None:
    """Advanced by the reference, the native set-up gives new_skirmish_logged's battle, events."""
    for seed in range(4):
        script = faces(seed)
        native_dice = _core.ScriptedDice(script)
        native, native_events = native_setup.new_skirmish_setup(
            np.random.default_rng(seed), native_dice, blue=Faction.FREE_COMPANY,
            red=Faction.ZHUH_ZHUH, mechs_per_side=4, stars=1,
        )  # fmt: skip
        later, logged = new_skirmish_logged(
            np.random.default_rng(seed), ScriptedDice(list(script)), blue=Faction.FREE_COMPANY,
            red=Faction.ZHUH_ZHUH, mechs_per_side=4, stars=1,
        )  # fmt: skip
        assert [e.to_dict() for e in logged[: len(native_events)]] == native_events
        replay = Battle.from_dict(native.to_dict())
        played = advance(replay, ScriptedDice(script[len(native_dice.used) :]))
        assert [e.to_dict() for e in played] == [e.to_dict() for e in logged[len(native_events) :]]
        assert replay.to_dict() == later.to_dict()


def test_the_generated_battlefield_agrees() -> None:
    tables = native_setup.setup_tables()
    for seed in range(200):
        rng = np.random.default_rng(seed)
        want = battlefield_gen.generate_battlefield(rng).to_dict()
        got, state = native_setup.core.generate_battlefield(
            tables, np.random.default_rng(seed).bit_generator.state
        )
        assert same(got, want, "battlefield") is None, seed
        assert state == rng.bit_generator.state


def changed_rules() -> NoQuarterRules:
    rules = load_rules()
    rep = {row: tuple(reversed(values)) for row, values in rules.pilot_rep.items()}
    return dataclasses.replace(
        rules,
        pilot_rep=rep,
        star_rep=6,
        team_size=2,
        attribute_preference=tuple(reversed(rules.attribute_preference)),
        free_company_mixing=FreeCompanyMixing(
            mixed_faces=(1, 2, 3, 4), race_count=(2, 3, 3, 2, 3, 2)
        ),
        free_company_race_roll=tuple(reversed(rules.free_company_race_roll)),
    )


def test_the_native_set_up_reads_the_tables_it_is_handed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Change the tables (as new YAML would): both engines follow, none is built into the core."""
    rules = changed_rules()
    cfg = dataclasses.replace(
        terrain_config(), road_width=3.0, building_max_size=(5.0, 4.0), deep_water_shore_band=2.0,
        building_armor={k: v + 1 for k, v in terrain_config().building_armor.items()},
    )  # fmt: skip
    monkeypatch.setattr(battlefield_gen, "terrain_config", lambda: cfg)
    monkeypatch.setattr(terrain, "terrain_config", lambda: cfg)
    tables = native_setup.setup_tables(rules, cfg)
    changed = 0
    for case in range(30):
        blue, red = FACTIONS[case % 6], FACTIONS[(case * 5 + 1) % 6]
        want = agree(900 + case, blue, red, 1 + case % 5, case % 3, BattleOptions(), rules, tables)
        monkeypatch.undo()
        default = reference_setup(
            np.random.default_rng(900 + case), ScriptedDice(faces(900 + case)), blue, red,
            1 + case % 5, case % 3, BattleOptions(),
        )[0].to_dict()  # fmt: skip
        changed += default != want
        monkeypatch.setattr(battlefield_gen, "terrain_config", lambda: cfg)
        monkeypatch.setattr(terrain, "terrain_config", lambda: cfg)
    assert changed == 30


def test_crowded_deployment_agrees_grid_and_refusal_included() -> None:
    """Wide bases: the random tries fail, the grid of np.arange places them, or none fit."""
    outcomes = set()
    for radius, per_side in ((2.0, 9), (2.75, 5)):
        options = dataclasses.replace(BattleOptions(), base_radius=radius)
        for seed in range(8):
            try:
                want = agree(seed, Faction.PDF, Faction.HISHEN, per_side, 0, options)
                outcomes.add("placed")
                xs = {float(a) for a in np.arange(radius, 36.0 - radius + 1e-9, 2 * radius)}
                ys = {float(b) for b in np.arange(radius, 6.0 + 1e-9, 2 * radius)}
                ys |= {36.0 - b for b in ys}
                if any(m["pos"][0] in xs and m["pos"][1] in ys for m in want["mechs"].values()):
                    outcomes.add("on the grid")
            except StateError as error:
                rng = np.random.default_rng(seed)
                with pytest.raises(NativeStateError) as caught:
                    native_setup.new_skirmish_setup(
                        rng, _core.ScriptedDice(faces(seed)), blue=Faction.PDF,
                        red=Faction.HISHEN, mechs_per_side=per_side, options=options,
                    )  # fmt: skip
                assert caught.value.reason == str(error)
                assert rng.bit_generator.state == np.random.default_rng(seed).bit_generator.state
                outcomes.add("refused")
    assert outcomes == {"placed", "on the grid", "refused"}


def test_bases_that_do_not_fit_are_refused_by_both() -> None:
    options = dataclasses.replace(BattleOptions(), base_radius=4.0)
    with pytest.raises(StateError, match="bases fit"):
        reference_setup(
            np.random.default_rng(1),
            ScriptedDice(faces(1)),
            Faction.PDF,
            Faction.PDF,
            5,
            0,
            options,
        )
    rng = np.random.default_rng(1)
    before = rng.bit_generator.state
    with pytest.raises(NativeStateError, match="bases fit"):
        native_setup.new_skirmish_setup(
            rng,
            _core.ScriptedDice(faces(1)),
            blue=Faction.PDF,
            red=Faction.PDF,
            mechs_per_side=5,
            options=options,
        )
    assert rng.bit_generator.state == before


def test_bad_arguments_are_refused_naming_them() -> None:
    dice = _core.ScriptedDice(faces(0))
    rng = np.random.default_rng(0)
    before = rng.bit_generator.state
    cases: list[tuple[dict[str, Any], type, str]] = [
        ({"rng": 0}, NativeTypeError, "rng"),
        ({"rng": np.random.Generator(np.random.MT19937(0))}, NativeArgumentError, "rng"),
        ({"dice": ScriptedDice([1, 2])}, NativeTypeError, "dice"),
        ({"blue": "xeog"}, NativeArgumentError, "blue"),
        ({"red": 3}, NativeTypeError, "red"),
        ({"red": None}, NativeTypeError, "red"),
        ({"mechs_per_side": 0}, NativeArgumentError, "mechs_per_side"),
        ({"mechs_per_side": -1}, NativeArgumentError, "mechs_per_side"),
        (
            {"mechs_per_side": native_setup.MAX_MECHS_PER_SIDE + 1},
            NativeArgumentError,
            "mechs_per_side",
        ),
        ({"mechs_per_side": True}, NativeTypeError, "mechs_per_side"),
        ({"mechs_per_side": 2.0}, NativeTypeError, "mechs_per_side"),
        ({"stars": "1"}, NativeTypeError, "stars"),
        ({"options": {"max_turns": 3}}, NativeTypeError, "options"),
        ({"tables": "tables"}, NativeTypeError, "tables"),
    ]
    for change, error, argument in cases:
        kwargs: dict[str, Any] = {"rng": rng, "dice": dice, **change}
        with pytest.raises(error) as caught:
            native_setup.new_skirmish_setup(kwargs.pop("rng"), kwargs.pop("dice"), **kwargs)
        assert caught.value.argument == argument, change  # type: ignore[attr-defined]
    assert rng.bit_generator.state == before
    assert dice.used == []


def test_running_out_of_dice_raises_the_reference_error_and_keeps_the_rng() -> None:
    rng = np.random.default_rng(5)
    before = rng.bit_generator.state
    with pytest.raises(DiceScriptExhaustedError):
        native_setup.new_skirmish_setup(rng, _core.ScriptedDice([2] * 7), mechs_per_side=5)
    assert rng.bit_generator.state == before
    with pytest.raises(DiceScriptExhaustedError):
        reference_setup(
            np.random.default_rng(5),
            ScriptedDice([2] * 7),
            Faction.STAR_ARMY,
            Faction.HISHEN,
            5,
            0,
            BattleOptions(),
        )


def test_the_core_refuses_a_bad_state_or_bad_tables() -> None:
    tables = native_setup.setup_tables()
    state = np.random.default_rng(0).bit_generator.state
    options = dataclasses.asdict(BattleOptions())
    options["move_fractions"] = list(options["move_fractions"])

    def call(**change: Any) -> Any:
        args = {"tables": tables, "state": state, "dice": _core.ScriptedDice(faces(0)),
                "blue": "pdf", "red": "hishen", "mechs_per_side": 2, "stars": 0,
                "options": options, "max_mechs_per_side": 8, **change}  # fmt: skip
        return native_setup.core.new_skirmish_setup(**args)

    call()
    for bad, error, argument in [
        ({**state, "bit_generator": "Philox"}, NativeArgumentError, "state.bit_generator"),
        ({**state, "state": {"state": -5, "inc": 1}}, NativeArgumentError, "state.state.state"),
        ([1, 2], NativeTypeError, "state"),
    ]:
        with pytest.raises(error) as caught:
            call(state=bad)
        assert caught.value.argument == argument  # type: ignore[attr-defined]
    with pytest.raises(NativeStateError, match="lucky"):
        call(options={**options, "lucky": "sometimes"})
    data = native_setup.setup_tables_data(load_rules())
    for key, value, error in [
        ("team_size", 0, NativeArgumentError),
        ("star_rep", "5", NativeTypeError),
        ("preference", ["nobody"], NativeArgumentError),
        ("building_armors", [], NativeArgumentError),
        ("formation", {}, NativeArgumentError),
    ]:
        with pytest.raises(error) as caught:
            _core.no_quarter.SetupTables({**data, key: value})
        assert caught.value.argument.startswith("tables"), key  # type: ignore[attr-defined]
    with pytest.raises(NativeArgumentError):
        _core.no_quarter.SetupTables({k: v for k, v in data.items() if k != "pools"})
    with pytest.raises(NativeStateError):
        _core.no_quarter.SetupTables({**data, "pools": {**data["pools"], "pdf": [{"id": "x"}]}})
    with pytest.raises(NativeTypeError):
        _core.no_quarter.SetupTables([])


def test_the_core_rounds_as_python_rounds() -> None:
    """battlefield_gen rounds every draw (round(x, 1), round(x, 2)): the core's pyround."""
    rng = np.random.default_rng(11)
    values = [0.25, 0.35, 2.675, 0.05, 0.15, -0.05, -0.25, 1.005, 0.0, -0.0, 35.95]
    values += [1e-9, 4.5e15, 1e300, 2.0**52 / 10 + 0.05]
    values += [float(v) for v in rng.uniform(-40.0, 40.0, 4000)]
    values += [
        round(float(v), 3) + d for v in rng.uniform(0, 40, 500) for d in (0.0, 0.0005, -0.0005)
    ]
    values += [float(k) / 100 + 0.005 for k in range(-200, 4000)]
    for n in (0, 1, 2, 3, 17):
        for v in values:
            got, want = native_setup.core.py_round(v, n), round(v, n)
            assert got.hex() == want.hex(), (v, n)
    with pytest.raises(NativeTypeError):
        native_setup.core.py_round(1, 1)
    with pytest.raises(NativeArgumentError):
        native_setup.core.py_round(1.0, -1)
