"""The native NP procedure (``_core.no_quarter.enemy``) answers as the reference does (§22.4).

Random skirmishes of every option variant (``_units.option_variants``), 1-5 mechs a side and
Stars: red is played by the reference's ``np_decide`` with one ``NpContext`` and one opponent
generator kept across the battle (as ``envs/no_quarter/opponents.rules_opponent`` does), blue
picks uniformly at random. At every red decision the native core answers from the same
document, context and generator state: the action, the context's ``to_dict()`` and the
generator's state after must be the reference's, bit for bit. It runs twice: through the glue
(reference ``NpContext`` in and out) and through a native ``NpContext`` kept across the battle
(what a native env keeps). Some games start from set group states (patrol / defend / withdraw,
break-through objectives, exit sections) and other ``NpOptions`` so that every branch runs;
the branches reached are counted on the reference and each must be reached.
``WARGYM_NP_GAMES`` raises the number of games.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import math
import os
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from wargym.native import _core
from wargym.native.no_quarter import battle_from_dict
from wargym.native.no_quarter import enemy as native_enemy
from wargym.native.no_quarter.game import game_tables
from wargym.rules.dice import RandomDice
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import ExitTable
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.battlefield.battlefield_gen import generate_battlefield
from wargym.rules.no_quarter.forces import vocab
from wargym.rules.no_quarter.forces.setup import new_skirmish
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.non_player import enemy_decide
from wargym.rules.no_quarter.non_player.enemy import (
    NpContext,
    NpGroupState,
    NpObjective,
    NpOptions,
    NpPosture,
)

sys.path.insert(0, str(Path(__file__).parent))
from _units import option_variants  # noqa: E402

GAMES = int(os.environ.get("WARGYM_NP_GAMES", "40"))
MAX_DECISIONS = 220
SHORT_TABLE = 20.0

STATES: list[NpGroupState | None] = [
    None,
    NpGroupState(posture=NpPosture.PATROL, after_beaten="resume_patrol"),
    NpGroupState(posture=NpPosture.DEFEND, after_beaten="withdraw"),
    NpGroupState(posture=NpPosture.DEFEND),
    NpGroupState(posture=NpPosture.WITHDRAW),
    NpGroupState(posture=NpPosture.WITHDRAW, own_edge="east"),
    NpGroupState(objective=NpObjective.BREAK_THROUGH),
    NpGroupState(objective=NpObjective.BREAK_THROUGH, exit_sections=(7,)),
    NpGroupState(objective=NpObjective.BREAK_THROUGH, exit_sections=(9, 3), exit_edge="east"),
    NpGroupState(objective=NpObjective.BREAK_THROUGH, exit_edge="north"),
    NpGroupState(objective=NpObjective.BREAK_THROUGH, exit_sections=(2,), exit_edge="north"),
    NpGroupState(posture=NpPosture.PATROL, after_beaten="withdraw", own_edge="west"),
    NpGroupState(posture=NpPosture.DEFEND, own_edge="south"),
]
OPTIONS = [
    NpOptions(),
    NpOptions(awareness="arc"),
    NpOptions(beaten_away_uses_range=False),
    NpOptions(unseen_defender="hold"),
    NpOptions(awareness="arc", beaten_away_uses_range=False, unseen_defender="hold"),
]


def _context(g: int) -> NpContext:
    state = None if g % 4 == 1 else STATES[g % len(STATES)]  # plain attacks on short tables
    options = OPTIONS[(3 * g) % len(OPTIONS)]
    context = NpContext(options=options)
    if state is not None:
        if g % 3 == 0:
            context.default = state
        else:  # a set state for red's first team (100; its others use the default)
            context.groups[100] = state
            context.default = dataclasses.replace(state, posture=NpPosture.ATTACK)
    return context


@contextlib.contextmanager
def _counting(reached: Counter[str]) -> Iterator[None]:
    """Count the branches the reference's np_decide takes (its behaviour unchanged)."""
    patched: list[tuple[Any, str, Any]] = []

    def wrap(module: Any, name: str, label: Any) -> None:
        original = getattr(module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            reached[label(result, *args, **kwargs)] += 1
            return result

        patched.append((module, name, original))
        setattr(module, name, counted)

    wrap(enemy_decide, "_beaten_away", lambda r, *a, **k: f"beaten_away={r}")
    wrap(enemy_decide, "fighting_withdrawal_move", lambda r, *a, **k: "withdrawal goal")
    wrap(
        enemy_decide,
        "defend_goal",
        lambda r, *a, **k: f"defend_goal={'none' if r is None else 'spot'}",
    )
    wrap(enemy_decide, "exit_point", lambda r, *a, **k: "exit_point")
    wrap(enemy_decide, "exits_through", lambda r, *a, **k: f"exits_through={r}")
    wrap(enemy_decide, "_exit", lambda r, *a, **k: f"exit={'none' if r is None else 'leave'}")
    wrap(
        enemy_decide,
        "pursue_objective",
        lambda r, *a, **k: f"pursuit passes={r.passes} target={r.target is not None}",
    )
    wrap(enemy_decide, "face_toward", lambda r, *a, **k: "face_toward")
    wrap(enemy_decide, "keep_facing", lambda r, *a, **k: "keep_facing")
    wrap(enemy_decide, "choice_in_roll", lambda r, *a, **k: "choice_in_roll")
    wrap(enemy_decide, "roll_group", lambda r, *a, **k: f"rolled {r.posture.value} {r.order.value}")
    wrap(
        enemy_decide,
        "_goal",
        lambda r, battle, mech, state, *a, **k: (
            f"goal {state.posture.value} {state.objective.value} {'none' if r is None else 'point'}"
        ),
    )
    try:
        yield
    finally:
        for module, name, original in reversed(patched):
            setattr(module, name, original)


def _closed_up(document: dict[str, Any], seed: int) -> dict[str, Any]:
    """The document with every blue mech moved 3-12" from a random red one (22.3.6's range)."""
    rng = np.random.default_rng(seed)
    out = copy.deepcopy(document)
    bf, mechs = out["battlefield"], out["mechs"]
    red = [m for m in mechs.values() if m["side"] == "red" and m.get("removed") is None]
    for m in mechs.values():
        if m["side"] != "blue" or not red:
            continue
        near = red[int(rng.integers(len(red)))]["pos"]
        gap, bearing = rng.uniform(3.0, 12.0), rng.uniform(0.0, 2 * math.pi)
        x = min(max(near[0] + gap * math.sin(bearing), 1.0), bf["width"] - 1.0)
        y = min(max(near[1] + gap * math.cos(bearing), 1.0), bf["height"] - 1.0)
        m["pos"] = [x, y]
    return out


def _compare_closed_up(
    document: dict[str, Any], options: list[Any], start: Any, g: int, step: int, reached: Any
) -> int:
    """np_decide on the document with the blue mechs closed up, from a fresh context."""
    moved = _closed_up(document, 10_000 * g + step)
    battle = Battle.from_dict(moved, check=False)
    native = battle_from_dict(moved, check=False)
    context = _context(g)
    kept = native_enemy.native_context(context)
    tables = game_tables(battle)
    ours = np.random.default_rng()
    ours.bit_generator.state = start
    theirs = np.random.default_rng()
    theirs.bit_generator.state = start
    where = f"game {g}, decision {step}, closed up"
    action = enemy_decide.np_decide(battle, options, context, RandomDice(theirs))
    reached["closed up"] += 1
    got = native_enemy.core.np_decide(
        native, tables, native_enemy.np_tables(), options, kept, _core.NumpyDice(start)
    )
    assert type(got) is type(action) and got == action, (where, got, action)
    assert kept.to_dict() == context.to_dict(), where
    glue_context = _context(g)
    again, _ = native_enemy.np_decide(native, tables, options, glue_context, ours)
    assert again == action and glue_context == context, where
    assert ours.bit_generator.state == theirs.bit_generator.state, where
    return 1


def _exits(battle: Any) -> list[Any]:
    """ExitTable options for every edge at a red mech's action (a mission's, §22.3.1).

    A skirmish never offers them; np_decide is handed them so that its break-through exits
    run (the game then plays the first legal option instead).
    """
    decision = battle.decision
    if decision.kind.value not in ("mech_action", "continue_move") or decision.mech is None:
        return []
    return [ExitTable(decision.mech, edge) for edge in ("north", "south", "east", "west")]


def _games(games: int) -> Iterator[tuple[int, Any]]:
    variants, factions = option_variants(), list(vocab.Faction)
    for g in range(games):
        per_side = 1 + g % 5
        rng = np.random.default_rng(500 + g)
        # every other game on a short table: the forces start within reach of 22.3.6's 12"
        field = generate_battlefield(rng, height=SHORT_TABLE) if g % 2 else None
        battle = new_skirmish(
            rng, RandomDice.from_seed(500 + g),
            blue=factions[g % len(factions)], red=factions[(g * 5 + 1) % len(factions)],
            mechs_per_side=per_side, stars=g % (per_side + 1), options=variants[g % len(variants)],
            battlefield=field,
        )  # fmt: skip
        yield g, battle


def play_and_compare(games: int) -> tuple[int, Counter[str]]:
    """Play ``games`` skirmishes; compare every red decision; the decisions and branches."""
    reached: Counter[str] = Counter()
    decisions = 0
    np_tables = native_enemy.np_tables()
    with _counting(reached):
        for g, battle in _games(games):
            dice = RandomDice.from_seed(900 + g)
            blue = np.random.default_rng(700 + g)
            opponent = np.random.default_rng(800 + g)
            context = _context(g)
            kept = native_enemy.native_context(context)  # the native context kept across the battle
            glue_context = NpContext.from_dict(context.to_dict())  # the glue's, kept as an env does
            tables, key = game_tables(battle), battle.to_dict()["battlefield"]
            for step in range(MAX_DECISIONS):
                if battle.over or battle.decision is None:
                    break
                legal = game.legal_actions(battle)
                if battle.decision.side is not Side.RED:
                    game.play(battle, legal[int(blue.integers(len(legal)))], dice)
                    continue
                options = legal + _exits(battle)
                document = battle.to_dict()
                if document["battlefield"] != key:  # the tables hold the terrain (a building fell)
                    tables, key = game_tables(battle), document["battlefield"]
                where = f"game {g}, decision {step} ({battle.decision.kind.value})"
                native = battle_from_dict(document)
                start = opponent.bit_generator.state
                glue_rng = np.random.default_rng()
                glue_rng.bit_generator.state = start
                action = enemy_decide.np_decide(battle, options, context, RandomDice(opponent))
                reached[f"kind {battle.decision.kind.value}"] += 1
                if isinstance(action, ExitTable):
                    reached["exit table"] += 1
                ours, back = native_enemy.np_decide(native, tables, options, glue_context, glue_rng)
                assert type(ours) is type(action) and ours == action, (where, ours, action)
                assert back is glue_context
                assert glue_context == context and glue_context.to_dict() == context.to_dict(), (
                    where
                )
                assert glue_rng.bit_generator.state == opponent.bit_generator.state, where
                dice_kept = _core.NumpyDice(start)
                again = native_enemy.core.np_decide(
                    native, tables, np_tables, options, kept, dice_kept
                )
                assert again == action, (where, again, action)
                assert kept.to_dict() == context.to_dict(), where
                assert dice_kept.state == opponent.bit_generator.state, where
                decisions += 1
                if step % 2 == 0:
                    decisions += _compare_closed_up(document, options, start, g, step, reached)
                game.play(battle, action if action in legal else legal[0], dice)
    return decisions, reached


BRANCHES = [
    "beaten_away=True",
    "beaten_away=False",
    "withdrawal goal",
    "defend_goal=none",
    "defend_goal=spot",
    "exit_point",
    "exits_through=True",
    "exits_through=False",
    "exit=leave",
    "exit=none",
    "face_toward",
    "goal attack destroy point",
    "goal attack break_through point",
    "goal defend destroy point",
    "goal defend destroy none",
    "goal withdraw destroy point",
    "kind activate_group",
    "kind mech_action",
    "kind assign_fire",
    "exit table",
]


@pytest.fixture(scope="module")
def played() -> tuple[int, Counter[str]]:
    return play_and_compare(GAMES)


def test_the_native_np_decide_agrees_with_the_reference(played: tuple[int, Counter[str]]) -> None:
    decisions, _ = played
    assert decisions >= 80 * GAMES, decisions


def test_every_branch_of_np_decide_is_reached(played: tuple[int, Counter[str]]) -> None:
    _, reached = played
    missing = [b for b in BRANCHES if reached[b] == 0]
    assert not missing, (missing, sorted(reached.items()))
    for posture in ("attack", "defend", "withdraw"):
        assert any(k.startswith(f"rolled {posture}") for k in reached), sorted(reached)
    passes = {k for k in reached if k.startswith("pursuit passes=")}
    assert {"pursuit passes=0 target=True", "pursuit passes=1 target=True"} & passes, passes
