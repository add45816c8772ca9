"""The native movement agrees with the reference's (issue 16): move options, move_problem, geometry.

* At decision points of random skirmishes of every set-up (``test_state_agreement``'s
  ``VARIANTS``: every ``BattleOptions`` choice, fog of war's ``unseen_bases="bump"`` included;
  every faction, so jump jets; generated battlefields with roads, rivers, woods, rough and deep
  water), for every mech in play and several mech frames (standing, after moving, with movement
  spent), the native Move options equal the reference's ``game._distinct(flow_mech._moves(...))``
  (``(mech, to, reverse, jump)``, floats bit for bit, in order); where the decision really is a
  mech's action, they equal the Move options of ``game.legal_actions``.
* ``move_problem`` agrees on random destinations (offered, near, far, reversed, jumped).
* ``bumping.planning_bodies`` and ``bump`` agree (fog states); so do each mech's Duck Back
  and Leave moves, with the arguments the rules pass.
* ``test_movement_geometry_agreement.py`` covers the geometry functions on random inputs.

``WARGYM_MOVE_GAMES`` raises the number of games (default: one per variant, 30 decisions each).
"""

from __future__ import annotations

import math
import os
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from wargym.native import no_quarter as nnq
from wargym.native.no_quarter import movement as nm
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import consequences, flow_mech, game
from wargym.rules.no_quarter.battle.actions import DecisionKind, Move
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.sight_movement import bumping, perception
from wargym.rules.no_quarter.sight_movement import movement_geometry as mg
from wargym.rules.no_quarter.sight_movement.geometry import distance

sys.path.insert(0, str(Path(__file__).parent))
from test_state_agreement import FACTIONS, VARIANTS  # noqa: E402

GAMES = int(os.environ.get("WARGYM_MOVE_GAMES", str(len(VARIANTS))))
DECISIONS = 30
"""Decisions played per game (the states after each are sampled)."""


def bits(value: Any) -> Any:
    """``value`` with every float as its hex text: equal iff bit for bit (the sign of zero too)."""
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, tuple | list):
        return type(value)(bits(v) for v in value)
    return value


def decision_points(
    games: Iterable[int], seed: int = 0
) -> Iterator[tuple[str, Battle, dict[str, Any]]]:
    """(label, battle, ``to_dict()``) after each decision of random skirmishes (game ``g``
    plays ``VARIANTS[g]``, as ``test_state_agreement.skirmish_states`` does)."""
    for g in games:
        options = VARIANTS[g % len(VARIANTS)]
        per_side = 1 + g % 5
        blue, red = FACTIONS[g % len(FACTIONS)], FACTIONS[(g * 5 + 1) % len(FACTIONS)]
        rng = np.random.default_rng(seed + g)
        dice = RandomDice.from_seed(seed + g)
        battle = new_skirmish(
            rng,
            dice,
            blue=blue,
            red=red,
            mechs_per_side=per_side,
            stars=g % (per_side + 1),
            options=options,
        )
        for step in range(DECISIONS):
            if battle.over:
                break
            yield f"game {g} decision {step}", battle, battle.to_dict()
            legal = game.legal_actions(battle)
            game.play(battle, legal[int(rng.integers(len(legal)))], dice)


def reference_moves(battle: Battle, frame: dict[str, Any]) -> list[tuple[Any, ...]]:
    mech = battle.mechs[frame["mech"]]
    found = game._distinct(flow_mech._moves(battle, mech, frame))
    return [(o.mech, o.to, o.reverse, o.jump) for o in found if isinstance(o, Move)]


def frames_of(battle: Battle, rng: np.random.Generator) -> list[dict[str, Any]]:
    """Mech frames for every mech in play: standing, moved, part of the movement spent."""
    out = []
    for mech in battle.mechs.values():
        if mech.removed is not None:
            continue
        spent = float(rng.uniform(0.0, max(mech.speed, 1)))
        for moved, used in ((False, 0.0), (True, spent), (False, spent), (True, mech.speed)):
            out.append(
                {"kind": "mech", "mech": mech.id, "stage": "action", "spent": used, "moved": moved}
            )
    return out


def count_kinds(kinds: Counter[str], battle: Battle, moves: list[tuple[Any, ...]]) -> None:
    for _, to, reverse, jump in moves:
        kinds["reverse" if reverse else "jump" if jump else "walk"] += 1
        if battle.battlefield.in_deep_water(to):
            kinds["into deep water"] += 1
    idx = battle.battlefield.index
    kinds["roads"] += bool(idx.roads and moves)
    kinds["half speed"] += bool(idx.half_speed and moves)
    kinds["fog"] += battle.options.unseen_bases == "bump" and bool(moves)
    kinds["no moves"] += not moves


def test_the_native_move_options_are_the_reference_ones() -> None:
    rng = np.random.default_rng(5)
    kinds: Counter[str] = Counter()
    for k, (label, battle, data) in enumerate(decision_points(range(GAMES))):
        native = nnq.battle_from_dict(data)
        terrain = nm.move_terrain(battle.battlefield)
        decision = battle.decision
        frame = battle.frames[-1] if battle.frames else None
        if (
            decision is not None
            and decision.kind in (DecisionKind.MECH_ACTION, DecisionKind.CONTINUE_MOVE)
            and frame is not None
            and frame["kind"] == "mech"
        ):
            legal = [
                (o.mech, o.to, o.reverse, o.jump)
                for o in game.legal_actions(battle)
                if isinstance(o, Move)
            ]
            got = nm.move_options(native, frame, terrain)
            assert bits(got) == bits(legal), f"{label}: the mech's action"
            kinds["real decisions"] += 1
        if k % 8:
            continue
        for synthetic in frames_of(battle, rng):
            expected = reference_moves(battle, synthetic)
            got = nm.move_options(native, synthetic, terrain)
            assert bits(got) == bits(expected), f"{label}: frame {synthetic}"
            count_kinds(kinds, battle, expected)
    for kind in (
        "real decisions",
        "walk",
        "reverse",
        "jump",
        "into deep water",
        "roads",
        "half speed",
        "fog",
        "no moves",
    ):
        assert kinds[kind] > 0, f"no {kind} among {kinds}"


def random_destinations(
    rng: np.random.Generator, battle: Battle, mech_id: int, offered: list[tuple[Any, ...]]
) -> Iterator[tuple[tuple[float, float], bool, bool]]:
    mech = battle.mechs[mech_id]
    for _, to, reverse, jump in offered[:: max(1, len(offered) // 4)]:
        yield to, reverse, jump
        yield to, not reverse, jump
        yield to, reverse, not jump
    for _ in range(6):
        reach = float(rng.uniform(0.0, 1.5 * max(mech.speed, 1)))
        angle = float(rng.uniform(0.0, 2.0 * math.pi))
        to = (mech.pos[0] + reach * math.cos(angle), mech.pos[1] + reach * math.sin(angle))
        yield to, bool(rng.random() < 0.3), bool(rng.random() < 0.3)
    yield (-1.0, 5.0), False, False  # off the table
    yield mech.pos, False, False


def test_move_problem_agrees_on_legal_and_illegal_moves() -> None:
    rng = np.random.default_rng(6)
    answers: Counter[str] = Counter()
    for k, (label, battle, data) in enumerate(decision_points(range(0, GAMES, 2), seed=100)):
        if k % 5:
            continue
        native = nnq.battle_from_dict(data)
        terrain = nm.move_terrain(battle.battlefield)
        for frame in frames_of(battle, rng)[::2]:
            mech = battle.mechs[frame["mech"]]
            offered = reference_moves(battle, frame)
            for to, reverse, jump in random_destinations(rng, battle, mech.id, offered):
                expected = flow_mech.move_problem(
                    battle, mech, frame, Move(mech.id, to, reverse, jump)
                )
                got = nm.move_problem(native, frame, terrain, to, reverse=reverse, jump=jump)
                assert got == expected, f"{label}: {frame} to {to} reverse {reverse} jump {jump}"
                answers["legal" if expected is None else expected.split(" ")[0]] += 1
    for kind in ("legal", "costs", "passes", "leaves", "overlaps", "a", "no"):
        assert answers[kind] > 0, f"no {kind!r} answer among {answers}"


def test_planning_bodies_and_bumps_agree_under_fog() -> None:
    rng = np.random.default_rng(7)
    fog = [i for i, v in enumerate(VARIANTS) if v.unseen_bases == "bump"]
    assert fog
    bumped = 0
    for label, battle, data in decision_points(fog, seed=200):
        native = nnq.battle_from_dict(data)
        terrain = nm.move_terrain(battle.battlefield)
        for mech in battle.mechs.values():
            if mech.removed is not None:
                continue
            expected = [
                (b.id, b.pos[0], b.pos[1], b.radius) for b in bumping.planning_bodies(battle, mech)
            ]
            got = nm.core.planning_bodies(terrain, native, mech.id)
            assert bits(got) == bits(expected), f"{label}: mech {mech.id}"
            for other in battle.mechs.values():
                if other.id == mech.id or other.removed is not None:
                    continue
                jitter = (float(rng.normal(0, 0.4)), float(rng.normal(0, 0.4)))
                to = (other.pos[0] + jitter[0], other.pos[1] + jitter[1])
                for jump in (False, True):
                    want = bumping.bump(battle, mech, to, jump=jump)
                    found = nm.core.bump(terrain, native, mech.id, to, jump)
                    assert bits(found) == bits(want), f"{label}: {mech.id} to {to} {jump}"
                    bumped += want is not None
    assert bumped > 0


def test_duck_back_and_leaving_agree_where_the_rules_would_ask() -> None:
    """At sampled states, each mech's Duck Back from its nearest enemy and its Leave move, with
    the arguments ``consequences.duck_back`` and ``leave_move`` pass (§15.2.4.1-2, D9, D10)."""
    seen: Counter[str] = Counter()
    for k, (label, battle, _) in enumerate(decision_points(range(0, GAMES, 3), seed=300)):
        if k % 10:
            continue
        terrain = nm.move_terrain(battle.battlefield)
        radius = battle.options.base_radius
        for mech in battle.mechs.values():
            enemies = battle.mechs_of(mech.side.other)
            if mech.removed is not None or mech.speed <= 0 or not enemies:
                continue
            cause = min(enemies, key=lambda e: distance(e.pos, mech.pos))
            others = [b for b in perception.bodies(battle) if b.id != mech.id]
            ducking = {
                "max_dist": min(consequences.DUCK_BACK_MAX, float(mech.speed)),
                "speed": float(mech.speed),
                "mover_id": mech.id,
                "cause_id": cause.id,
                "bodies": others,
                "radius": radius,
                "jump_jets": mech.has_jump_jets,
            }
            want = mg.duck_back_move(battle.battlefield, mech.pos, cause.pos, **ducking)
            got = nm.duck_back_move(terrain, mech.pos, cause.pos, **ducking)
            assert bits(got) == bits(want), f"{label}: mech {mech.id} ducks back"
            seen["duck back jumps" if want[1] else "duck back walks"] += 1
            edge = mg.nearest_edge_away(
                battle.battlefield, mech.pos, cause.pos, battle.home_edges.get(mech.side)
            )
            assert (
                nm.core.nearest_edge_away(
                    terrain, mech.pos, cause.pos, battle.home_edges.get(mech.side)
                )
                == edge
            )
            leaving = {
                "mover_id": mech.id,
                "bodies": others,
                "radius": radius,
                "jump_jets": mech.has_jump_jets,
            }
            want_leave = mg.leave_move_to(
                battle.battlefield, mech.pos, edge, float(mech.speed), **leaving
            )
            got_leave = nm.core.leave_move_to(
                terrain,
                mech.pos,
                edge,
                float(mech.speed),
                mech.id,
                nm.bases(others),
                radius,
                mech.has_jump_jets,
            )
            assert bits(got_leave) == bits(want_leave), f"{label}: mech {mech.id} leaves"
            seen["leaves the table" if want_leave[1] else "heads for the edge"] += 1
    for kind in ("duck back walks", "leaves the table", "heads for the edge"):
        assert seen[kind] > 0, f"no {kind!r} among {seen}"
