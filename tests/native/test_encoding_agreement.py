"""The native observation encoder writes the reference's "nq-obs-v3" arrays bit for bit (issue 16).

For states of random skirmishes of every set-up and ``BattleOptions`` choice
(``test_state_agreement.skirmish_states``) and of the shipped missions, both viewers, the
enemies-in-sight set the env passes (``visible_enemies``) and other sets (subsets, removed
mechs), markers (random points, the missions' PEF markers) and custom slots (the missions'
``SightingOrder``), and every layout (cell sizes 0.25..12, flattened or a dict, mirrored or
not, fewer slots than mechs, other weapon slots and turn limits): the native array equals
the reference's, float32 bit patterns compared (the sign of zero included).
``WARGYM_ENCODING_GAMES`` raises the number of skirmishes (default: one per option choice) and
``WARGYM_ENCODING_DECISIONS`` their length (default 80 decisions).
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_state_agreement import FACTIONS, VARIANTS, mission_states  # noqa: E402

from wargym.envs.no_quarter import encoding as ref  # noqa: E402
from wargym.envs.no_quarter.action_features import ACTION_FEATURES  # noqa: E402
from wargym.envs.no_quarter.codec import ActionCodec  # noqa: E402
from wargym.envs.no_quarter.mission_encoding import (  # noqa: E402
    MissionObservationEncoder,
    SightingOrder,
    pef_markers,
)
from wargym.native import no_quarter as nnq  # noqa: E402
from wargym.native.errors import NativeArgumentError  # noqa: E402
from wargym.native.no_quarter import encoding as glue  # noqa: E402
from wargym.rules.dice import RandomDice  # noqa: E402
from wargym.rules.no_quarter.battle import game  # noqa: E402
from wargym.rules.no_quarter.battle.actions import DecisionKind  # noqa: E402
from wargym.rules.no_quarter.battle.state import Battle  # noqa: E402
from wargym.rules.no_quarter.battlefield import terrain_tables  # noqa: E402
from wargym.rules.no_quarter.forces.setup import new_skirmish  # noqa: E402
from wargym.rules.no_quarter.forces.vocab import Side, Terrain  # noqa: E402

GAMES = int(os.environ.get("WARGYM_ENCODING_GAMES", str(len(VARIANTS))))
DECISIONS = int(os.environ.get("WARGYM_ENCODING_DECISIONS", "80"))
"""Decisions played per game (the state test's games, cut short: playing them is the cost)."""
LAYOUTS: list[dict[str, Any]] = [
    {},
    {"cell": 0.25},
    {"cell": 0.5, "mirror": False},
    {"cell": 2.0, "flatten": False},
    {"cell": 0.7},  # 36 / 0.7 is no whole number of cells
    {"cell": 12.0, "max_turns": 3},
    {"cell": 5.0, "mirror": False, "flatten": False},
    {"max_mechs": 2, "max_weapons": 2},  # fewer slots than mechs and weapons
    {"max_weapons": 0, "max_turns": 0},
    {"cell": 1.5, "max_mechs": 7, "max_weapons": 12},
]
SIDES = (Side.BLUE, Side.RED)


def skirmish_states(
    games: int, seed: int, every: int = 1, also: Callable[[Battle], bool] = lambda b: False
) -> Iterator[tuple[str, Battle, dict[str, Any]]]:
    """The games of ``test_state_agreement.skirmish_states`` (same set-ups, options and
    dice), cut at :data:`DECISIONS` decisions; every ``every``-th state, the last one and
    those ``also`` picks, as ``(label, battle, battle.to_dict())``: the live reference battle
    (used before the next step; ``Battle.from_dict`` would cost more than the encoders).

    Its loop, so that only the sampled states are written out (``to_dict`` is the cost).
    """
    for g in range(games):
        options = VARIANTS[g % len(VARIANTS)]
        per_side = 1 + g % 5
        stars = g % (per_side + 1)
        blue, red = FACTIONS[g % len(FACTIONS)], FACTIONS[(g * 5 + 1) % len(FACTIONS)]
        rng = np.random.default_rng(seed + g)
        dice = RandomDice.from_seed(seed + g)
        battle = new_skirmish(rng, dice, blue=blue, red=red, mechs_per_side=per_side,
                              stars=stars, options=options)  # fmt: skip
        for step in range(DECISIONS + 1):
            if step % every == 0 or battle.over or step == DECISIONS or also(battle):
                label = f"game {g} ({per_side} a side, {stars} stars) decision {step}"
                yield label, battle, battle.to_dict()
            if battle.over:
                break
            options_now = game.legal_actions(battle)
            game.play(battle, options_now[int(rng.integers(len(options_now)))], dice)


def encoders(layout: dict[str, Any], mechs: int) -> tuple[ref.ObservationEncoder, Any]:
    kwargs = dict(layout)
    reference = ref.ObservationEncoder(kwargs.pop("max_mechs", mechs), **kwargs)
    return reference, glue.NativeObservationEncoder(reference)


def assert_same(label: str, want: Any, got: Any) -> None:
    if isinstance(want, dict):
        assert isinstance(got, dict) and list(got) == list(want), f"{label}: keys {list(got)}"
        for key in want:
            assert_same(f"{label} [{key}]", want[key], got[key])
        return
    assert got.dtype == want.dtype and got.shape == want.shape, f"{label}: {got.dtype}{got.shape}"
    bits = np.uint32 if want.dtype == np.float32 else want.dtype
    same = np.array_equal(got.view(bits), want.view(bits))
    if not same:
        at = np.flatnonzero(got.view(bits).ravel() != want.view(bits).ravel())
        raise AssertionError(
            f"{label}: {len(at)} values differ, first at {at[:8]}: native "
            f"{got.ravel()[at[:8]]} reference {want.ravel()[at[:8]]}"
        )
    assert np.array_equal(got, want)


def seen_sets(battle: Battle, viewer: Side, rng: np.random.Generator) -> Iterator[frozenset[int]]:
    """The env's set, then a random subset of the enemies (removed ones too)."""
    yield ref.visible_enemies(battle, viewer)
    enemies = [i for i, m in battle.mechs.items() if m.side is not viewer]
    yield frozenset(i for i in enemies if rng.random() < 0.5)


def random_markers(rng: np.random.Generator) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in rng.uniform(-2.0, 38.0, (int(rng.integers(4)), 2))]


def check_state(
    label: str, data: dict[str, Any], k: int, rng: np.random.Generator, live: Battle | None = None
) -> None:
    battle = Battle.from_dict(data) if live is None else live
    native_battle = nnq.battle_from_dict(data)
    mechs = max(sum(1 for m in battle.mechs.values() if m.side is s) for s in SIDES)
    layout = LAYOUTS[k % len(LAYOUTS)]
    reference, native = encoders(layout, mechs)
    for viewer in SIDES:
        reference.markers = ref.no_markers
        assert native.visible_enemies(native_battle, viewer) == ref.visible_enemies(battle, viewer)
        want = reference.encode(battle, viewer)  # visible=None: both compute the set
        assert_same(f"{label} layout {layout} viewer {viewer.value}", want,
                    native.encode(native_battle, viewer, markers=()))  # fmt: skip
        for n, seen in enumerate(seen_sets(battle, viewer, rng)):
            points = random_markers(rng) if n else []
            reference.markers = lambda b, v, p=points: p
            want = reference.encode(battle, viewer, seen)
            got = native.encode(native_battle, viewer, seen, markers=points)
            assert_same(
                f"{label} layout {layout} viewer {viewer.value} seen {sorted(seen)}", want, got
            )
        assert_same(f"{label} static planes", ref.static_planes(battle.battlefield, reference.cell),
                    native.static_planes(native_battle))  # fmt: skip


def test_every_layout_and_option_choice_is_sampled() -> None:
    assert len(VARIANTS) <= GAMES, "one game per BattleOptions choice at least"
    cells = {layout.get("cell", 1.0) for layout in LAYOUTS}
    assert {0.25, 12.0} <= cells, "the smallest and the largest cell"
    assert {False} <= {layout.get("flatten", True) for layout in LAYOUTS}
    assert {False} <= {layout.get("mirror", True) for layout in LAYOUTS}


def test_native_observation_and_action_features_equal_the_reference_on_skirmishes() -> None:
    rng = np.random.default_rng(16)
    count = features = 0
    used = np.zeros(len(ACTION_FEATURES), dtype=bool)
    for step, (label, battle, data) in enumerate(
        skirmish_states(GAMES, seed=160, every=8, also=fire_at_the_damaged)
    ):
        if fire_at_the_damaged(battle) or step % 3 == 0:
            used |= check_features(label, data, features, battle)
            features += 1
        if not fire_at_the_damaged(battle) or step % 3 == 1:
            check_state(label, data, count, rng, battle)
            count += 1
    assert count >= 100 and features >= 50, (count, features)
    missing = [f for f, u in zip(ACTION_FEATURES, used, strict=True) if not u]
    assert not missing, f"action feature rows never set: {missing}"


def test_native_observation_equals_the_reference_on_mission_states() -> None:
    rng = np.random.default_rng(17)
    order = SightingOrder()
    for k, (label, data) in enumerate(mission_states()):
        if label.endswith("decision 0"):
            order.reset()
        battle = Battle.from_dict(data)
        native_battle = nnq.battle_from_dict(data)
        order.note({v: ref.visible_enemies(battle, v) for v in SIDES})
        if k % 3:
            continue
        layout = dict(LAYOUTS[k % len(LAYOUTS)])
        mechs = layout.pop("max_mechs", 6)
        # the mission encoder ("nq-obs-v4": mission globals, PEF markers read natively), or
        # the skirmish one with the PEF markers handed over
        mission = (k // 3) % 2 == 0
        if mission:
            reference = MissionObservationEncoder(mechs, **layout, slots=order)
        else:
            reference = ref.ObservationEncoder(mechs, **layout, markers=pef_markers, slots=order)
        native = glue.NativeObservationEncoder(reference)
        for viewer in SIDES:
            seen = ref.visible_enemies(battle, viewer)
            want = reference.encode(battle, viewer, seen)
            markers = None if mission else pef_markers(battle, viewer)
            slots = order(battle, viewer, reference.mirror)
            got = native.encode(native_battle, viewer, seen, slots=slots, markers=markers)
            assert_same(f"{label} {type(reference).__name__} {layout} {viewer.value}", want, got)
        if k % 2 == 0:
            check_state(label, data, k // 2, rng)


FEATURE_LAYOUTS: list[dict[str, Any]] = [{}, {"cell": 2.0, "flatten": False}, {"mirror": False}]


def check_features(
    label: str, data: dict[str, Any], k: int, live: Battle | None = None
) -> np.ndarray:
    """The per-action block ("nq-af-v1") over the codec's table of the deciding viewer."""
    battle = Battle.from_dict(data) if live is None else live
    native_battle = nnq.battle_from_dict(data)
    mechs = max(sum(1 for m in battle.mechs.values() if m.side is s) for s in SIDES)
    layout = dict(FEATURE_LAYOUTS[k % len(FEATURE_LAYOUTS)])
    codec = ActionCodec(mechs, 8, 12, battle.options, layout.get("mirror", True))

    def table(b: Battle, viewer: Side) -> dict[int, Any]:
        decision = b.decision
        if decision is None or b.over or decision.side is not viewer:
            return {}
        return codec.table(b)

    reference = ref.ObservationEncoder(mechs, **layout, action_table=table, n_actions=codec.n)
    native = glue.NativeObservationEncoder(reference)
    used = np.zeros(len(ACTION_FEATURES), dtype=bool)
    for viewer in SIDES:
        seen = ref.visible_enemies(battle, viewer)
        want = reference.encode(battle, viewer, seen)
        got = native.encode(native_battle, viewer, seen, actions=table(battle, viewer))
        assert_same(f"{label} action features {layout} viewer {viewer.value}", want, got)
        block = want["action_features"] if isinstance(want, dict) else want[-reference.af_size :]
        used |= (np.reshape(block, (len(ACTION_FEATURES), -1)) != 0).any(axis=1)
    return used


def fire_at_the_damaged(battle: Battle) -> bool:
    """A decision that names enemy mechs (fire, charge, fight) while some mech is damaged."""
    named = (DecisionKind.ASSIGN_FIRE, DecisionKind.CHARGE_TARGET, DecisionKind.MELEE_TARGET)
    return (
        battle.decision is not None
        and battle.decision.kind in named
        and any(sum(m.armor) < sum(m.design.armor) for m in battle.mechs.values())
    )


def test_native_action_features_equal_the_reference_on_mission_states() -> None:
    used = np.zeros(len(ACTION_FEATURES), dtype=bool)
    for k, (label, data) in enumerate(mission_states(seed=2)):
        if k % 5 == 0:
            used |= check_features(label, data, k)
    assert used.any(), used


def test_the_native_encoder_reads_the_scales_and_tables_it_is_handed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Change the module scales and terrain tables: both engines agree (and differ from before)."""
    battles = [d for _label, _battle, d in skirmish_states(2, seed=5, every=9)]
    before = []
    for data in battles:
        reference, native = encoders({}, 3)
        before.append(native.encode(nnq.battle_from_dict(data), Side.BLUE, ()))
    for name in ("SPEED_SCALE", "RANGE_SCALE", "IMPACT_SCALE", "REP_SCALE", "MOVED_SCALE"):
        monkeypatch.setattr(ref, name, getattr(ref, name) * 1.75)
    tconfig = terrain_tables.terrain_config()
    slower = {t: m * 0.5 for t, m in tconfig.move_multiplier.items()}
    patched_t = dataclasses.replace(tconfig, move_multiplier=slower)
    cconfig = terrain_tables.cover_config()
    stationary = dict(cconfig.inside_stationary)
    stationary[Terrain.ROUGH] = stationary.get(Terrain.ROUGH, frozenset()) | {"cover"}
    patched_c = dataclasses.replace(cconfig, inside_stationary=stationary)
    for module in (ref, glue):
        monkeypatch.setattr(module, "terrain_config", lambda: patched_t)
        monkeypatch.setattr(module, "cover_config", lambda: patched_c)
    ref._STATIC_CACHE.clear()
    changed = 0
    for data, old in zip(battles, before, strict=True):
        reference, native = encoders({}, 3)
        want = reference.encode(Battle.from_dict(data), Side.BLUE, frozenset())
        got = native.encode(nnq.battle_from_dict(data), Side.BLUE, ())
        assert_same("patched tables", want, got)
        changed += not np.array_equal(got, old)
    ref._STATIC_CACHE.clear()
    assert changed == len(battles)


@pytest.mark.parametrize("name", sorted(glue.INLINE_SCALES))
def test_each_inline_scale_is_read(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A changed inline scale moves the native array away from the reference (so it is used)."""
    reference, _ = encoders({}, 5)
    changed = 40.0 if name == "contact_slack" else glue.INLINE_SCALES[name] * 7.0 + 1.0
    monkeypatch.setitem(glue.INLINE_SCALES, name, changed)
    native = glue.NativeObservationEncoder(reference)
    monkeypatch.undo()
    for _label, battle, data in skirmish_states(GAMES, seed=11, every=3):
        for viewer in SIDES:
            seen = ref.visible_enemies(battle, viewer)
            try:
                got = native.encode(nnq.battle_from_dict(data), viewer, seen)
            except NativeArgumentError:  # the grid no longer matches the table (grid_slack)
                return
            if not np.array_equal(got, reference.encode(battle, viewer, seen)):
                return
    raise AssertionError(f"changing {name} changed nothing")


def test_the_mission_scales_are_read_from_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """Change TURN_SCALE, PEF_SCALE and MORALE_SCALE: both engines agree, and the array moved."""
    from wargym.envs.no_quarter import mission_encoding

    states = [data for k, (_label, data) in enumerate(mission_states()) if k % 9 == 0]
    before = []
    for data in states:
        native = glue.NativeObservationEncoder(MissionObservationEncoder(6))
        before.append(native.encode(nnq.battle_from_dict(data), Side.BLUE, ()))
    for name in ("TURN_SCALE", "PEF_SCALE", "MORALE_SCALE"):
        monkeypatch.setattr(mission_encoding, name, getattr(mission_encoding, name) * 3.0)
    for data, old in zip(states, before, strict=True):
        reference = MissionObservationEncoder(6)
        native = glue.NativeObservationEncoder(reference)
        want = reference.encode(Battle.from_dict(data), Side.BLUE, frozenset())
        got = native.encode(nnq.battle_from_dict(data), Side.BLUE, ())
        assert_same("patched mission scales", want, got)
        assert not np.array_equal(got, old)
