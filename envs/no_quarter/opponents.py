"""Red's players for the No Quarter solo envs (the rules' NP AI by default, §22.4).

The rules' NP AI, a scripted fallback, random play or any agent object
(:func:`make_opponent`), and the seat that keeps their state (:class:`OpponentSeat`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from wargym.envs.base import EnvArgumentError, action_index, mask_allows
from wargym.rules.dice import RandomDice
from wargym.rules.errors import IllegalActionError, short_repr
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import (
    Action,
    ActivateGroup,
    AssignFire,
    FireFirst,
    Move,
)
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.sight_movement.geometry import distance

if TYPE_CHECKING:
    pass


class Table(Protocol):
    """What an agent seat needs of its env: the action codec and the observation encoder."""

    codec: Any
    encoder: Any


class Agent(Protocol):
    """Any player object: picks an index from its observation and int8 mask."""

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        """The index to play."""
        ...


Opponent = Callable[[Battle], tuple[Action, int | None]]
"""Answers red's pending decision: ``battle -> (action, index or None)``."""


def scripted_opponent(battle: Battle, options: Sequence[Action]) -> Action:
    """Fallback opponent: activate, fire at the nearest, else close on the nearest seen enemy.

    Group activation: the first ``ActivateGroup``; mech action: fire first if possible, else
    the move that ends nearest to the nearest enemy it can see (else stay); weapon
    assignment: the nearest target, then end fire; any other decision: the first option.
    """
    from .encoding import visible_enemies

    decision = battle.decision
    if decision is None or not options:
        raise ValueError("no decision is pending")
    for kind in (ActivateGroup, FireFirst):
        found = [o for o in options if isinstance(o, kind)]
        if found:
            return found[0]
    if decision.mech is None:
        return options[0]
    mech = battle.mechs[decision.mech]
    seen = [battle.mechs[i] for i in visible_enemies(battle, mech.side)]
    shots = [o for o in options if isinstance(o, AssignFire)]
    if shots:
        return min(shots, key=lambda o: (distance(mech.pos, battle.mechs[o.target].pos), o.weapon))
    moves = [o for o in options if isinstance(o, Move) and not o.reverse]
    if seen and moves:
        goal = min(seen, key=lambda e: distance(mech.pos, e.pos)).pos
        return min(moves, key=lambda o: distance(o.to, goal))
    return options[0]


def rules_opponent(
    battle: Battle, options: Sequence[Action], rng: np.random.Generator, context: Any = None
) -> Action:
    """The rules' NP answer (``enemy.np_decide``, §22.4), else :func:`scripted_opponent`.

    ``context`` is the NP memory (``enemy.NpContext``) kept across one battle; the NP tables
    roll dice drawn from ``rng``. Falls back when ``np_decide`` is missing or raises
    ``NotImplementedError``.
    """
    try:
        from wargym.rules.no_quarter.non_player.enemy import NpContext, np_decide
    except ImportError:
        return scripted_opponent(battle, options)
    try:
        return np_decide(battle, options, context or NpContext(), RandomDice(rng))
    except NotImplementedError:
        return scripted_opponent(battle, options)


class OpponentSeat:
    """Red's player for one battle and the state it keeps: its generator and NP memory.

    Calling it answers red's pending decision (:data:`Opponent`). ``rng`` is the opponent's
    stream of the reset and ``context`` the rules' NP memory (``enemy.NpContext``; ``None``
    for the other players); both go into env snapshots (``save_state``).
    """

    def __init__(
        self,
        spec: str | Agent,
        play: Opponent,
        rng: np.random.Generator,
        context: Any = None,
    ) -> None:
        self.spec, self._play, self.rng, self.context = spec, play, rng, context

    def __call__(self, battle: Battle) -> tuple[Action, int | None]:
        """Red's action (and its index, for an agent) at ``battle``'s pending decision."""
        return self._play(battle)


def make_opponent(
    spec: str | Agent, env: Table, rng: np.random.Generator, context: Any = None
) -> OpponentSeat:
    """Red's player for one battle: ``"rules"``, ``"scripted"``, ``"random"`` or an agent.

    ``context`` is the NP memory to start from (``"rules"``; default a fresh one).
    """
    if spec == "rules":
        if context is None:
            try:
                from wargym.rules.no_quarter.non_player.enemy import NpContext

                context = NpContext()
            except ImportError:
                context = None
        memory = context

        def np_side(b: Battle) -> tuple[Action, int | None]:
            return rules_opponent(b, game.legal_actions(b), rng, memory), None

        return OpponentSeat(spec, np_side, rng, memory)
    if spec == "scripted":

        def scripted(b: Battle) -> tuple[Action, int | None]:
            return scripted_opponent(b, game.legal_actions(b)), None

        return OpponentSeat(spec, scripted, rng)
    if spec == "random":

        def pick(b: Battle) -> tuple[Action, int | None]:
            options = game.legal_actions(b)
            return options[int(rng.integers(len(options)))], None

        return OpponentSeat(spec, pick, rng)
    if isinstance(spec, str) or not hasattr(spec, "act"):
        raise EnvArgumentError(
            f"opponent must be rules, scripted, random or an agent: {short_repr(spec)}"
        )
    agent = spec

    def ask(b: Battle) -> tuple[Action, int | None]:
        mask = env.codec.mask(b)
        index = action_index(agent.act(env.encoder.encode(b, Side.RED), mask))
        if not mask_allows(mask, index):
            raise IllegalActionError(f"opponent agent chose illegal index {index}")
        return env.codec.decode(index, b), index

    return OpponentSeat(spec, ask, rng)
