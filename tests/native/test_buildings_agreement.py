"""Buildings in the native game (issue 16, req. 5): strike_building, terrain that follows rubble.

Three checks against the reference, each over seeded random skirmishes of every option variant,
each a whole ``game.play`` (the action and every rule after it, up to the next decision) from
the same document with the reference's d6 faces: events, faces consumed, the document after and
the legal options after must be equal (floats bit for bit, as ``==`` of the documents).

1. ``AttackBuilding`` (buildings.strike_building, §19.4.2 ruling): the mech deciding is put in
   base contact with a rated building (some at 1 armour, so that punches and kicks bring it
   down) and every building attack it has is played.
2. A building falls in the middle of a play: at fire decisions with a building in reach, the
   building is left at 1 armour, fired at, and then the other weapons are assigned at mechs
   and the firing ends; the shots after the collapse see the rubble (its cover and sight gone).
3. Tables built for another battlefield: the reference battle loses a building (BuildingDestroyed),
   and the native battle of that document is handed the ``game_tables`` of the battle before; its
   options and its plays must be those of the rubble.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.native import _core
from wargym.native.errors import NativeArgumentError, NativeTypeError
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter.game import game_tables, legal_actions, play
from wargym.native.no_quarter.tables import terrain_numbers
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    Action,
    AssignFire,
    AttackBuilding,
    EndFire,
    FireAtBuilding,
    action_to_dict,
)
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield import buildings
from wargym.rules.no_quarter.forces import vocab
from wargym.rules.no_quarter.forces.setup import new_skirmish

sys.path.insert(0, str(Path(__file__).parent))
from _units import option_variants  # noqa: E402

Doc = dict[str, Any]


class _Counting:
    def __init__(self, inner: Any) -> None:
        self.inner, self.used = inner, []

    def roll(self, n: int) -> tuple[int, ...]:
        faces = self.inner.roll(n)
        self.used.extend(faces)
        return tuple(faces)


def _games(games: int, seed: int, decisions: int = 120) -> Iterator[tuple[str, Battle, Any]]:
    """(label, battle, dice) at every decision of seeded random skirmishes (the battle moves on)."""
    variants, factions = option_variants(), list(vocab.Faction)
    for g in range(games):
        per_side = 1 + g % 4
        rng = np.random.default_rng(seed + g)
        dice = RandomDice.from_seed(seed + g)
        battle = new_skirmish(
            rng, dice, blue=factions[g % len(factions)], red=factions[(g * 5 + 1) % len(factions)],
            mechs_per_side=per_side, stars=g % (per_side + 1),
            options=variants[g % len(variants)],
        )  # fmt: skip
        for d in range(decisions):
            if battle.over:
                break
            yield f"seed {seed + g} decision {d}", battle, dice
            legal = game.legal_actions(battle)
            game.play(battle, legal[int(rng.integers(len(legal)))], dice)


Pick = Callable[[int, Battle], "Action | None"]
"""The next action to play (the reference battle, before it), or None to stop."""


def _listed(actions: list[Action]) -> Pick:
    return lambda i, _battle: actions[i] if i < len(actions) else None


def _agree(label: str, doc: Doc, pick: Pick, seed: int, tables: Any = None) -> int:
    """Play the picked actions in turn from ``doc`` in both engines; everything must be equal.

    Returns the number of actions played.
    """
    reference = Battle.from_dict(doc, check=False)
    native = battle_from_dict(doc, check=False)
    tables = game_tables(reference) if tables is None else tables
    dice = RandomDice.from_seed(seed)
    i = 0
    while not reference.over:
        options = [action_to_dict(a) for a in game.legal_actions(reference)]
        assert [action_to_dict(a) for a in legal_actions(native, tables)] == options, (label, i)
        action = pick(i, reference)
        if action is None:
            break
        where = f"{label}, action {i} {action_to_dict(action)}"
        counting = _Counting(dice)
        events = [e.to_dict() for e in game.play(reference, action, counting)]
        scripted = _core.ScriptedDice(list(counting.used))
        found = play(native, tables, action, scripted, events=True)
        assert found is not None
        assert [e.to_dict() for e in found] == events, where
        assert len(scripted.used) == len(counting.used), where
        assert native.to_dict() == reference.to_dict(), where
        i += 1
    return i


def _in_contact(doc: Doc, mech: int, feature: int) -> Doc | None:
    """``doc`` with ``mech`` just outside the west (else east) wall of ``feature``."""
    bf = doc["battlefield"]
    f = bf["features"][feature]
    radius = float(doc["options"].get("base_radius", 0.5))
    gap = radius + buildings.CONTACT_SLACK / 2
    y = (f["y0"] + f["y1"]) / 2
    for x in (f["x0"] - gap, f["x1"] + gap):
        if radius <= x <= bf["width"] - radius:
            out = {**doc, "mechs": {**doc["mechs"]}}
            out["mechs"][str(mech)] = {**doc["mechs"][str(mech)], "pos": [x, y]}
            return out
    return None


def test_strike_building_agrees() -> None:
    played, destroyed = 0, 0
    for n, (label, battle, _dice) in enumerate(_games(18, seed=7100)):
        frame = battle.frames[-1] if battle.frames else None
        if not frame or frame["kind"] != "mech" or frame.get("stage") != "action" or n % 3:
            continue
        mech = int(frame["mech"])
        for feature in buildings.rated_buildings(battle)[:2]:
            doc = _in_contact(battle.to_dict(), mech, feature)
            if doc is None:
                continue
            if (n + feature) % 2:  # one punch or kick can bring it down
                doc["building_armor"] = {**doc["building_armor"], str(feature): 1}
            legal = game.legal_actions(Battle.from_dict(doc, check=False))
            strikes = [a for a in legal if isinstance(a, AttackBuilding) and a.feature == feature]
            for k, strike in enumerate(strikes):
                _agree(f"{label} {strike}", doc, _listed([strike]), seed=n * 10 + k)
                played += 1
                after = Battle.from_dict(doc, check=False)
                game.play(after, strike, RandomDice.from_seed(n * 10 + k))
                destroyed += after.battlefield.features[feature].kind is vocab.Terrain.ROUGH
    assert played >= 40 and destroyed >= 5, (played, destroyed)


def test_a_building_falling_mid_play_is_rubble_for_the_rest_of_the_play() -> None:
    played = 0
    for n, (label, battle, _dice) in enumerate(_games(40, seed=7300)):
        legal = game.legal_actions(battle)
        at_buildings = [a for a in legal if isinstance(a, FireAtBuilding)]
        if not at_buildings:
            continue
        first = at_buildings[n % len(at_buildings)]
        doc = battle.to_dict()
        doc["building_armor"] = {**doc["building_armor"], str(first.feature): 1}

        def then_at_mechs(i: int, now: Battle, first: Action = first) -> Action | None:
            """The building first, then a weapon at a mech while there is one, then EndFire."""
            if i == 0:
                return first
            if now.decision is None or not now.frames or now.frames[-1]["kind"] != "fire":
                return None
            options = game.legal_actions(now)
            assigns = [a for a in options if isinstance(a, AssignFire)]
            ends = [a for a in options if isinstance(a, EndFire)]
            return assigns[0] if assigns else (ends[0] if ends else None)

        _agree(label, doc, then_at_mechs, seed=n)
        played += 1
    assert played >= 15, played


def test_tables_built_for_another_battlefield_follow_the_battle() -> None:
    checked = 0
    for n, (label, battle, _dice) in enumerate(_games(12, seed=7500, decisions=60)):
        rated = buildings.rated_buildings(battle)
        if n % 4 or not rated or battle.decision is None:
            continue
        stale = game_tables(battle)  # built for the battlefield with the building standing
        fallen = Battle.from_dict(battle.to_dict(), check=False)
        for feature in rated:
            fallen.apply(ev.BuildingDestroyed(feature))
        doc = fallen.to_dict()
        rng = np.random.default_rng(n)

        def random_on(i: int, now: Battle, rng: np.random.Generator = rng) -> Action | None:
            """A few random decisions on from the rubble."""
            options = game.legal_actions(now)
            return options[int(rng.integers(len(options)))] if i < 4 and options else None

        _agree(label, doc, random_on, seed=n * 7 + 1, tables=stale)
        checked += 1
    assert checked >= 8, checked


def test_the_tables_carry_the_terrain_numbers_and_refuse_bad_ones() -> None:
    battle = new_skirmish(np.random.default_rng(1), RandomDice.from_seed(1))
    tables = game_tables(battle)
    numbers = terrain_numbers()
    assert len(numbers[1]) == len(vocab.Terrain) and numbers[0] > 0
    with_ = _core.no_quarter.fire.with_terrain
    with pytest.raises(NativeTypeError, match="terrain"):
        with_(tables, numbers[:4])
    with pytest.raises(NativeTypeError, match=r"terrain.cost_per_inch"):
        with_(tables, (numbers[0], numbers[1][:3], *numbers[2:]))
    with pytest.raises(NativeArgumentError, match=r"terrain.cost_per_inch\[1\]"):
        with_(tables, (numbers[0], [1.0, 0.0, *numbers[1][2:]], *numbers[2:]))
    with pytest.raises(NativeArgumentError, match="terrain.deep_water_shore_band"):
        with_(tables, (-1.0, *numbers[1:]))
    with pytest.raises(NativeTypeError, match="battle"):
        with_(tables, numbers, "not a battle")
