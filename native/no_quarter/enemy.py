"""Python glue for the native NP procedure (``_core.no_quarter.enemy``, enemy_decide.hpp).

:func:`np_decide` answers a native battle's NP decision as the reference's
:func:`~wargym.rules.no_quarter.non_player.enemy_decide.np_decide` does on the same dice (§22.4):
it takes and returns the reference's :class:`~wargym.rules.no_quarter.non_player.enemy.NpContext`
and a numpy ``Generator``, whose state it leaves where the reference's ``RandomDice(rng)`` would.
The tables come from the reference: :func:`np_tables` hands the core np_tactics.yaml
(``enemy.tactics()``) and the literals of the reference's functions; the core reads no YAML.

>>> import numpy as np
>>> from wargym.rules.dice import RandomDice
>>> from wargym.rules.no_quarter.battle import game as reference
>>> from wargym.rules.no_quarter.forces.setup import new_skirmish
>>> from wargym.rules.no_quarter.non_player.enemy import NpContext, np_decide as decide
>>> from wargym.native.no_quarter.game import native_game
>>> battle = new_skirmish(np.random.default_rng(1), RandomDice.from_seed(2))
>>> native, tables = native_game(battle)
>>> options = reference.legal_actions(battle)
>>> a, b = np.random.default_rng(7), np.random.default_rng(7)
>>> ours, _ = np_decide(native, tables, options, NpContext(), a)
>>> ours == decide(battle, options, NpContext(), RandomDice(b))
True
>>> a.bit_generator.state == b.bit_generator.state
True
"""

from __future__ import annotations

import inspect
import operator
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from wargym.native import _core
from wargym.rules import dice as rules_dice
from wargym.rules.no_quarter.battle.actions import Action
from wargym.rules.no_quarter.battlefield import sections
from wargym.rules.no_quarter.non_player import enemy
from wargym.rules.no_quarter.non_player.enemy import (
    MoveOrder,
    MoveRoll,
    NpActivation,
    NpContext,
    NpGroupState,
    NpObjective,
    NpPosture,
    PursuitRoll,
    Tactics,
)
from wargym.rules.no_quarter.sight_movement import sight

core: Any = _core.no_quarter.enemy
"""The compiled NP procedure (``wargym.native._core.no_quarter.enemy``)."""

# The literals in the bodies of the reference's functions (they have no name there):
# enemy.fighting_withdrawal_move's grid (range(-int(snap * 2), ...), i * 0.5), its on-table
# margin (bf.is_on_table(q, 0.5)), enemy_decide._mech_action's reach slack (reach + 1e-6),
# enemy.defend_goal's round(..., 6) and enemy_decide._group_distance's default edge.
SNAP_STEPS_PER_INCH = 2
SNAP_STEP = 0.5
SNAP_TABLE_MARGIN = 0.5
REACH_SLACK = 1e-6
GOAL_ROUND_DIGITS = 6
DEFAULT_HOME_EDGE = "south"


def _default(function: Any, name: str) -> Any:
    return inspect.signature(function).parameters[name].default


def tables_spec(cfg: Tactics | None = None) -> dict[str, Any]:
    """The NpTables spec: np_tactics.yaml (``cfg``, default ``enemy.tactics()``), the literals."""
    cfg = enemy.tactics() if cfg is None else cfg
    return {
        "patrol": [[cfg.patrol[k][0].value, cfg.patrol[k][1]] for k in range(3)],
        "defend": [cfg.defend[k].value for k in range(3)],
        "attack": [cfg.attack[k].value for k in range(3)],
        "pursuing": [cfg.pursuing[k] for k in range(3)],
        "objective": {
            status: {o.value: list(span) for o, span in row.items()}
            for status, row in cfg.objective.items()
        },
        "distraction_range": float(cfg.distraction_range),
        "flank_bearing": float(cfg.flank_bearing),
        "beaten_range": float(cfg.beaten_range),
        "withdrawal_snap": float(cfg.withdrawal_snap),
        "pass_cap": rules_dice.PASS_CAP,
        "edge_margin": float(_default(enemy.edge_point, "margin")),
        "reached_tolerance": float(_default(enemy.reached_edge, "tolerance")),
        "exit_margin": float(_default(sections.exit_point, "margin")),
        "sight_base_radius": float(_default(sight.sight, "base_radius")),
        "snap_steps_per_inch": SNAP_STEPS_PER_INCH,
        "snap_step": SNAP_STEP,
        "snap_table_margin": SNAP_TABLE_MARGIN,
        "reach_slack": REACH_SLACK,
        "goal_round_digits": GOAL_ROUND_DIGITS,
        "default_home_edge": DEFAULT_HOME_EDGE,
    }


def np_tables(cfg: Tactics | None = None) -> Any:
    """The native NpTables of ``cfg`` (default: the reference's ``enemy.tactics()``)."""
    if cfg is None:
        return _default_tables()
    return core.NpTables.from_spec(tables_spec(cfg))


@cache
def _default_tables() -> Any:
    return core.NpTables.from_spec(tables_spec())


def native_context(context: NpContext | None = None) -> Any:
    """The native NpContext of a reference one (a fresh one for None)."""
    if context is None:
        return core.NpContext()
    return core.NpContext.from_dict(context.to_dict())


def np_decide(
    battle: Any,
    tables: Any,
    options: Sequence[Action],
    context: NpContext,
    rng: np.random.Generator,
    np_tables: Any = None,
) -> tuple[Action, NpContext]:
    """The reference's ``np_decide`` on a native battle (§22.4), and the updated context.

    ``tables``: the battle's ``game_tables``; ``options``: the legal actions. ``context`` is
    updated in place, as the reference does (a group's state set in ``groups``, the activation
    appended to ``rolls``), and returned; ``rng`` rolls the NP tables and is left in the state
    ``RandomDice(rng)`` would leave it. On an error neither changes.

    The native twin of ``context`` is kept on it between calls and used again while the
    context holds what the last call left (else it is converted afresh), so a call costs what
    it adds, not the whole log.
    """
    held = _twin(context)
    work = held.clone()
    dice = _core.NumpyDice(dict(rng.bit_generator.state))
    chosen: Action = core.np_decide(
        battle,
        tables,
        _default_tables() if np_tables is None else np_tables,
        list(options),
        work,
        dice,
    )
    rng.bit_generator.state = dice.state
    after = work.to_dict()
    for key, state in after["groups"].items():
        context.groups[int(key)] = _group_state(state)
    context.rolls.extend(_activation(a) for a in after["rolls"][len(context.rolls) :])
    setattr(context, _TWIN, _Twin(work, context))
    return chosen, context


_TWIN = "_wargym_native_twin"


class _Twin:
    """A native NpContext and what the reference context held when the two were equal."""

    def __init__(self, native: Any, context: NpContext) -> None:
        self.native = native
        self.groups = dict(context.groups)
        self.rolls = tuple(context.rolls)
        self.default, self.options = context.default, context.options

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        """Copies and pickles of the context drop the twin (the next call converts afresh)."""
        return (_forget, ())

    def matches(self, context: NpContext) -> bool:
        return (
            len(context.rolls) == len(self.rolls)
            and all(map(operator.is_, context.rolls, self.rolls))
            and context.groups == self.groups
            and list(context.groups) == list(self.groups)
            and context.default == self.default
            and context.options == self.options
        )


def _forget() -> None:
    return None


def _twin(context: NpContext) -> Any:
    twin = getattr(context, _TWIN, None)
    if isinstance(twin, _Twin) and twin.matches(context):
        return twin.native
    return native_context(context)


def _group_state(d: dict[str, Any]) -> NpGroupState:
    """An NpGroupState from the core's (checked) JSON, without from_jsonable's walk."""
    activation = d["activation"]
    return NpGroupState(
        NpPosture(d["posture"]),
        NpObjective(d["objective"]),
        d["own_edge"],
        d["exit_edge"],
        tuple(d["exit_sections"]),
        d["after_beaten"],
        d["target"],
        MoveOrder(d["order"]),
        None if activation is None else (activation[0], activation[1]),
    )


def _activation(d: dict[str, Any]) -> NpActivation:
    pursuit, move = d["pursuit"], d["move"]
    return NpActivation(
        d["team"],
        d["leader"],
        NpPosture(d["posture"]),
        d["beaten_away"],
        None
        if pursuit is None
        else PursuitRoll(tuple(pursuit["faces"]), pursuit["passes"], pursuit["target"]),
        None
        if move is None
        else MoveRoll(
            move["table"], tuple(move["faces"]), move["passes"], MoveOrder(move["order"])
        ),
    )


__all__ = ["core", "native_context", "np_decide", "np_tables", "tables_spec"]
