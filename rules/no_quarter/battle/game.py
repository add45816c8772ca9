"""*5150: No Quarter* game API: decision points, legal options, play (sections 14-18).

>>> import numpy as np
>>> from wargym.rules.dice import RandomDice
>>> from wargym.rules.no_quarter.forces.setup import new_skirmish
>>> battle = new_skirmish(np.random.default_rng(1), RandomDice.from_seed(2))
>>> decision = decider(battle)
>>> decision.side.value, decision.kind.value  # the group orders open the phase (§13.1)
('blue', 'split_group')
"""

from __future__ import annotations

import math
from typing import Protocol

from wargym.rules.dice import Dice
from wargym.rules.errors import IllegalActionError
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import Action, Decision, Move
from wargym.rules.no_quarter.battle.flow import Ctx, Frame, FunctionHandler, Handler
from wargym.rules.no_quarter.battle.flow_charges import CHARGES
from wargym.rules.no_quarter.battle.flow_fire import FIRE
from wargym.rules.no_quarter.battle.flow_mech import MECH, move_problem
from wargym.rules.no_quarter.battle.flow_melee import CHARGE, MELEE
from wargym.rules.no_quarter.battle.flow_move import INSIGHT
from wargym.rules.no_quarter.battle.flow_react import REACT
from wargym.rules.no_quarter.battle.flow_turn import GROUP, PHASE, TURN
from wargym.rules.no_quarter.battle.luck import pause_options, pause_step, resume, run_unit
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.mission.mission_play import OBJECTIVE, mission_over, withdraw_np
from wargym.rules.no_quarter.non_player.np_flow import PEFS, check_pefs, np_choose


class ForeignBattle(Protocol):
    """A battle another engine holds (the native core's ``NativeSkirmish``) behind this API.

    :func:`legal_actions`, :func:`check_legal`, :func:`play` and :func:`advance` hand such a
    battle to its own methods, so the rules never import that engine (docs/native.md, "One
    API, two backends"); it must give what the reference gives, decision by decision.
    :func:`decider`, :func:`outcome`, :func:`is_over` and :func:`rules_of` read its
    ``decision``, ``over``, ``winner``, ``end_reason`` and ``options`` as a ``Battle``'s.
    """

    def game_legal_actions(self) -> list[Action]:
        """:func:`legal_actions`."""
        ...

    def game_check_legal(self, action: Action) -> None:
        """:func:`check_legal`."""
        ...

    def game_play(self, action: Action, dice: Dice) -> list[Event]:
        """:func:`play`: the reference's events."""
        ...

    def game_advance(self, dice: Dice) -> list[Event]:
        """:func:`advance`: the reference's events."""
        ...


HANDLERS: dict[str, Handler] = {
    "turn": TURN,
    "phase": PHASE,
    "group": GROUP,
    "mech": MECH,
    "insight": INSIGHT,
    "fire": FIRE,
    "react": REACT,
    "charge": CHARGE,
    "melee": MELEE,
    "charges": CHARGES,
    "objective": OBJECTIVE,
    "pefs": PEFS,
    "pause": FunctionHandler(pause_step, lambda b, r, f: pause_options(f)),
}
"""The procedure behind each kind of frame."""

MAX_STEPS_PER_CALL = 100_000
"""Safety valve against a rules loop; a battle never needs this many steps between decisions."""


def rules_of(battle: Battle) -> NoQuarterRules:
    """The rule tables this battle was set up with."""
    return load_rules(battle.options.rules)


def decider(battle: Battle) -> Decision | None:
    """Who must decide what now, or None when the battle is over."""
    return None if battle.over else battle.decision


def legal_actions(battle: Battle | ForeignBattle) -> list[Action]:
    """The exact legal options at the current decision point (empty when over)."""
    if not isinstance(battle, Battle):
        return battle.game_legal_actions()
    if battle.over or battle.decision is None:
        return []
    cached = battle.options_cache
    if cached is not None and cached[0] == battle.decision:
        return list(cached[1])
    frame = battle.frames[-1]
    options = _distinct(HANDLERS[frame["kind"]].options(battle, rules_of(battle), frame))
    battle.options_cache = (battle.decision, tuple(options))
    return options


NEAR = 0.02
"""Move destinations closer than this (inches) are one option (terrain can shorten two)."""


_ROW = 1 << 32
"""Cell keys: ``cx * _ROW + cy`` (a unique int for any table coordinate)."""


def _distinct(options: list[Action]) -> list[Action]:
    """Drop repeated options and moves to (almost) the same point, keeping the first."""
    kept: list[Action] = []
    # kept move points bucketed on a NEAR grid, one grid per kind of move: a point nearer than
    # NEAR on both axes lies in the same or an adjacent cell, so only nine cells are searched
    # (the same result as a scan over every kept point)
    # (an exact repeat of a move is nearer than NEAR to its first: the grid drops it too)
    grids: dict[tuple[int, bool, bool], dict[int, list[tuple[float, float]]]] = {}
    others: set[Action] = set()
    floor = math.floor
    for option in options:
        if not isinstance(option, Move):
            if option in others:
                continue
            others.add(option)
        else:
            x, y = option.to
            cell = floor(x / NEAR) * _ROW + floor(y / NEAR)
            kind = (option.mech, option.reverse, option.jump)
            grid = grids.get(kind)
            if grid is None:
                grid = grids[kind] = {}
            elif _near_kept(grid, cell, x, y):
                continue
            points = grid.get(cell)
            if points is None:
                grid[cell] = [option.to]
            else:
                points.append(option.to)
        kept.append(option)
    return kept


_NEIGHBOURS = tuple(i * _ROW + j for i in (-1, 0, 1) for j in (-1, 0, 1))


def _near_kept(grid: dict[int, list[tuple[float, float]]], cell: int, x: float, y: float) -> bool:
    """Whether a kept point of the same kind of move lies nearer than NEAR on both axes."""
    for offset in _NEIGHBOURS:
        points = grid.get(cell + offset)
        if points is not None:
            for px, py in points:
                if abs(x - px) < NEAR and abs(y - py) < NEAR:
                    return True
    return False


def check_legal(battle: Battle | ForeignBattle, action: Action) -> None:
    """Raise :class:`IllegalActionError` unless ``action`` is legal now; never writes."""
    if not isinstance(battle, Battle):
        battle.game_check_legal(action)
        return
    if battle.over:
        raise IllegalActionError(f"{action}: the battle is over")
    decision = battle.decision
    if decision is None:
        raise IllegalActionError(f"{action}: no decision is pending")
    options = legal_actions(battle)
    if action in options:
        return
    frame = battle.frames[-1]
    mech_moves = frame["kind"] == "mech" and any(isinstance(o, Move) for o in options)
    if isinstance(action, Move) and mech_moves and action.mech == frame["mech"]:
        problem = move_problem(battle, battle.mechs[action.mech], frame, action)  # any point
        if problem is None:
            return
        raise IllegalActionError(f"{action}: {problem}")
    raise IllegalActionError(
        f"{action} is not legal at this {decision.kind.value} decision of {decision.side.value}"
        f"; {len(options)} legal options, e.g. {', '.join(str(o) for o in options[:3])}"
    )


def play(battle: Battle | ForeignBattle, action: Action, dice: Dice) -> list[Event]:
    """Carry out ``action`` and every rule that follows, up to the next decision (§14).

    An illegal action raises :class:`IllegalActionError` and leaves the battle untouched.
    """
    if not isinstance(battle, Battle):
        return battle.game_play(action, dice)
    check_legal(battle, action)
    ctx = Ctx(battle, dice, rules_of(battle))
    frame = battle.frames[-1]
    battle.decision = None
    battle.options_cache = None
    _act(ctx, frame, action)
    _run(ctx)
    return ctx.log


def advance(battle: Battle | ForeignBattle, dice: Dice) -> list[Event]:
    """Run the rules from a fresh or resumed battle up to the first decision."""
    if not isinstance(battle, Battle):
        return battle.game_advance(dice)
    battle.options_cache = None
    ctx = Ctx(battle, dice, rules_of(battle))
    _run(ctx)
    return ctx.log


def seat_np_outside(battle: Battle) -> None:
    """Leave the non-player side's decisions to the caller from now on (§22.4 seat).

    Its decision points are then returned like the player's, and whoever sits in the seat (an
    agent, say) answers them; the rules still place, move and resolve PEFs, bring
    reinforcements and withdraw groups (§20, §22). The flag is saved with the battle.

    Raises:
        ValueError: the battle has no non-player side (not a mission).
    """
    if battle.np is None:
        raise ValueError("only a mission battle has a non-player side to seat elsewhere")
    battle.np["external"] = True


def _run(ctx: Ctx) -> None:
    battle = ctx.battle
    judged = -1
    for _ in range(MAX_STEPS_PER_CALL):
        if battle.over:
            return
        if battle.decision is not None:
            np_state = battle.np
            if (
                np_state is None
                or battle.decision.side.value != np_state["side"]
                or np_state.get("external", False)  # a seat outside the rules decides
            ):
                return
            _np_decides(ctx)  # the rules play the non-player side (§22.4)
            continue
        if battle.np is not None:
            if battle.np["check_due"]:
                check_pefs(ctx)  # PEFs resolve the moment they are seen (§20.3)
                continue
            withdraw_np(ctx)
        if battle.mission is not None:
            if judged != len(ctx.log) and mission_over(ctx):
                return
            judged = len(ctx.log)
        elif _eliminated(ctx):
            return
        if not battle.frames:
            ctx.push({"kind": "turn"})
        _act(ctx, battle.frames[-1], None)
    raise RuntimeError("the rules did not reach a decision point; this is an engine bug")


def _np_decides(ctx: Ctx) -> None:
    battle = ctx.battle
    action = np_choose(ctx, legal_actions(battle))
    frame = battle.frames[-1]
    battle.decision = None
    battle.options_cache = None
    _act(ctx, frame, action)


def _act(ctx: Ctx, frame: Frame, action: Action | None) -> None:
    """One engine unit: ``action`` at ``frame``'s decision, or (None) a step of ``frame``.

    Units run under ``luck.run_unit``, which pauses them at a Lucky or Marksman choice made
    inside a roll; an answer to such a pause re-runs its unit (``luck.resume``).
    """
    if action is not None and frame["kind"] == "pause":
        resume(ctx, frame, action, lambda again: _unit(ctx, again))
        return
    run_unit(ctx, lambda: _unit(ctx, action), action)


def _unit(ctx: Ctx, action: Action | None) -> None:
    frame = ctx.battle.frames[-1]
    handler = HANDLERS[frame["kind"]]
    if action is None:
        handler.step(ctx, frame)
    else:
        handler.act(ctx, frame, action)


def _eliminated(ctx: Ctx) -> bool:
    battle = ctx.battle
    blue, red = bool(battle.mechs_of(Side.BLUE)), bool(battle.mechs_of(Side.RED))
    if blue and red:
        return False
    winner = Side.BLUE if blue else (Side.RED if red else None)
    ctx.emit(ev.BattleEnded(winner, "side eliminated", battle.turn))
    return True


def is_over(battle: Battle) -> bool:
    """The battle has ended (ruling D37)."""
    return battle.over


def outcome(battle: Battle) -> tuple[Side | None, str] | None:
    """(winner or None for a draw, reason) once over, else None."""
    if not battle.over:
        return None
    return battle.winner, battle.end_reason
