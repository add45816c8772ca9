"""The agent protocols and the adapter from engine actions to env indices (style guide §5.9).

Two kinds of player share one seat in every env:

* :class:`Agent` thinks in env indices: ``act(observation, action_mask) -> int``. It sees only
  what the env shows its side (random and learned agents).
* :class:`EngineAgent` thinks in engine ``Action`` objects and needs the engine state:
  ``act_engine(state, legal_actions, side) -> Action`` (scripted, heuristic, search agents).
  :class:`EngineAdapter` turns it into an :class:`Agent` for one env: it reads the env's engine
  state at call time, asks the engine agent, and encodes the answer with the env's codec. The
  observation and mask it is handed are ignored (the engine state is the richer input).

Every agent takes its random generator in the constructor and ``reset(seed)`` re-seeds it and
forgets per-battle memory; an evaluation calls ``reset`` before each game. Engine agents must
not read what their side cannot see: they get the full engine state only because the rules
need it to enumerate options; each documents which facts it uses.

The dependency direction is rules -> envs -> agents -> training: envs never import agents; an
env that needs an opponent receives the object (``NoQuarterSkirmishEnv(opponent=adapter)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

GAMES = ("no_quarter", "pentagon_war", "starship_combat")
"""The engines agents can be bound to."""


@runtime_checkable
class Agent(Protocol):
    """A player picking env indices from its observation and int8 (or bool) mask."""

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        """The index to play; must be allowed by ``action_mask``."""
        ...

    def reset(self, seed: int | None = None) -> None:
        """Start a new game (re-seed the generator when ``seed`` is given)."""
        ...


@runtime_checkable
class EngineAgent(Protocol):
    """A player thinking in engine actions (see the module docstring).

    ``state`` is the engine state (No Quarter ``Battle``, Pentagon War / Starship Combat
    ``BattleState``), ``legal_actions`` the engine's legal options of ``side``'s pending
    decision, ``side`` the deciding side (``vocab.Side`` for No Quarter, 0/1 for the space
    games). The answer must be an element of ``legal_actions``.
    """

    def act_engine(self, state: Any, legal_actions: Sequence[Any], side: Any) -> Any:
        """The engine action to play."""
        ...

    def reset(self, seed: int | None = None) -> None:
        """Start a new game (re-seed the generator when ``seed`` is given)."""
        ...


class SeededAgent:
    """Base class: holds ``rng`` and re-seeds it in :meth:`reset`."""

    needs_observation = True
    """Whether :meth:`act` reads its observation and mask (False: the harness passes None)."""

    def __init__(self, rng: np.random.Generator | int | None = None) -> None:
        self.rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)

    def reset(self, seed: int | None = None) -> None:
        """Re-seed the generator when ``seed`` is given."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)


def game_of(env: Any) -> str:
    """Which engine an env (or wrapped env) runs: one of :data:`GAMES`."""
    module = type(getattr(env, "unwrapped", env)).__module__
    for game in GAMES:
        if f".{game}." in f".{module}.":
            return game
    raise ValueError(f"not a wargym env: {type(env).__name__} from {module}")


def engine_state(env: Any) -> Any:
    """The engine state behind a wargym env (Gymnasium or PettingZoo, wrapped or not)."""
    base = getattr(env, "unwrapped", env)
    for name in ("battle", "_battle", "_state"):
        state = getattr(base, name, None)
        if state is not None and not callable(state):
            return state
    state = getattr(type(base), "state", None)
    if isinstance(state, property):
        return base.state
    raise ValueError(f"{type(base).__name__} exposes no engine state")


def engine_view(env: Any, side: Any = None) -> tuple[Any, list[Any], Any]:
    """``(state, legal_actions, side)`` of the pending decision of ``side``.

    No Quarter: the deciding side is ``battle.decision.side`` (``side`` is ignored). Space
    games: ``side`` (0/1) defaults to the side that decides now.
    """
    game = game_of(env)
    state = engine_state(env)
    if game == "no_quarter":
        from wargym.rules.no_quarter.battle import game as nq

        decision = state.decision
        if decision is None or state.over:
            raise ValueError("no No Quarter decision is pending")
        return state, nq.legal_actions(state), decision.side
    if game == "pentagon_war":
        from wargym.rules.pentagon_war.game import decider, decision_for

        if side is None:
            pending = decider(state)
            side = None if pending is None else pending.side
        decision = None if side is None else decision_for(state, side)
        if decision is None:
            raise ValueError("no Pentagon War decision is pending")
        return state, list(decision.options), side
    from wargym.rules.starship_combat import game as sc

    if side is None:
        side = sc.decider(state)
    if side is None:
        raise ValueError("no Starship Combat decision is pending")
    return state, sc.legal_actions(state, side), side


def encode_action(env: Any, state: Any, action: Any, side: Any) -> int:
    """The env index of engine ``action`` (each game's codec)."""
    base = getattr(env, "unwrapped", env)
    game = game_of(env)
    if game == "no_quarter":
        return int(base.codec.encode(action, state))
    if game == "pentagon_war":
        return int(base.codec.encode(action))
    return int(base.codec.encode(action, state, side))


class EngineAdapter:
    """An :class:`EngineAgent` seated in one env, as an :class:`Agent`.

    Args:
        agent: the engine agent.
        env: the env whose engine state it reads (bind later with :meth:`bind`).
        side: space games only, the side it plays (None: whoever decides now).
    """

    needs_observation = False

    def __init__(self, agent: EngineAgent, env: Any = None, side: Any = None) -> None:
        self.agent = agent
        self.env = env
        self.side = side

    def bind(self, env: Any, side: Any = None) -> EngineAdapter:
        """Seat the agent in ``env`` (returns self)."""
        self.env, self.side = env, side
        return self

    def act(self, observation: Any, action_mask: np.ndarray | None = None) -> int:
        """Read the env's engine state, ask the engine agent, encode its answer."""
        if self.env is None:
            raise RuntimeError("EngineAdapter is not bound to an env; call bind(env)")
        state, legal, side = engine_view(self.env, self.side)
        action = self.agent.act_engine(state, legal, side)
        return encode_action(self.env, state, action, side)

    def reset(self, seed: int | None = None) -> None:
        """Reset the engine agent."""
        self.agent.reset(seed)


def as_agent(agent: Agent | EngineAgent, env: Any, side: Any = None) -> Agent:
    """``agent`` as an index-level :class:`Agent` in ``env`` (engine agents get adapted)."""
    if hasattr(agent, "act_engine") and not hasattr(agent, "act"):
        return EngineAdapter(agent, env, side)
    if isinstance(agent, EngineAdapter):
        return agent.bind(env, side)
    return agent  # type: ignore[return-value]


def set_opponent(env: Any, agent: Agent | EngineAgent) -> Agent:
    """Make ``agent`` red's player of a No Quarter solo env (from its next ``reset``).

    The solo env builds red's player from ``opponent_spec`` at every reset; an engine agent is
    adapted to read that env's battle.
    """
    base = getattr(env, "unwrapped", env)
    seat = as_agent(agent, base)
    base.opponent_spec = seat
    return seat
