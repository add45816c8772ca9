"""Bookkeeping shared by the wargym environments (style guide §5.7-5.8).

Only what every env does the same way lives here; each game's package keeps its own legality
test, rewards and encodings.

* :class:`IllegalActionHandling`: what an illegal action does (``"noop"``/``"penalty"``:
  nothing happens and the actor gets a penalty; ``"raise"``: :class:`IllegalActionError`;
  ``"terminate"``: the episode ends).
* :func:`mask_allows`, :func:`zero_mask`, :func:`as_bool_mask`: the int8 action masks of the
  observation (the space's dtype, as PettingZoo's ``Discrete.sample(mask)`` wants) and the bool
  masks of ``action_masks()`` (sb3-contrib's ``MaskablePPO``).
* :func:`masked_observation_space`: ``Dict({"observation": Box(float32), "action_mask":
  Box(int8)})``.
* :func:`seeded_streams`: independent generators spawned from one seed.
* :func:`step_info`: the ``info`` dict every env returns (mask, events, illegal flag, extras).
* :func:`render_frame`: ``ansi`` / ``rgb_array`` dispatch.
* :class:`MaskedEnvMixin` (Gymnasium envs: ``action_masks()``) and :class:`SidesAsAgents`
  (PettingZoo envs: cached per-agent spaces, AEC bookkeeping, ``close``); both carry the
  illegal-action policy.
* Bad input (docs/bad_input.md): :class:`EnvArgumentError` (a keyword argument of an env with
  a wrong type or value; the message names the argument), :class:`InvalidActionError` (an
  action that is no index at all: ``bool``, ``float``, ``str``, an array of more than one
  value; raised whatever the illegal-action policy) and the checks :func:`check_int`,
  :func:`check_number`, :func:`check_choice`, :func:`check_keys`, :func:`check_render_mode`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal, TypeVar, get_args

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from wargym.rules.errors import IllegalActionError

IllegalPolicy = Literal["noop", "penalty", "raise", "terminate"]
"""Illegal-action policies; ``"noop"`` and ``"penalty"`` are two names of the same policy."""

SIDE_AGENTS = ("side_0", "side_1")
"""PettingZoo agent names of the two sides of a space battle."""

StateT = TypeVar("StateT")


class EnvArgumentError(ValueError):
    """A keyword argument of an env has a wrong type or value; the message names it.

    A ``ValueError`` (what Gymnasium and PettingZoo code expects from a bad argument); an
    unknown keyword stays Python's own ``TypeError`` ("unexpected keyword argument 'x'").
    """


class InvalidActionError(IllegalActionError, TypeError):
    """An action that is not an index of the ``Discrete`` action space at all.

    ``bool``, ``float``, ``str``, non-integer arrays and arrays of more than one value are
    refused whatever the illegal-action policy (an integer out of range or masked out is an
    *illegal* action and follows the policy). The state is left untouched.
    """


def check_int(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an ``int`` (``bool`` refused) within ``[low, high]``.

    Raises:
        EnvArgumentError: naming ``name``, the value and the bound.
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise EnvArgumentError(f"{name} must be an integer, got {value!r}")
    if low is not None and value < low:
        raise EnvArgumentError(f"{name} must be >= {low}, got {value!r}")
    if high is not None and value > high:
        raise EnvArgumentError(f"{name} must be <= {high}, got {value!r}")
    return int(value)


def check_number(name: str, value: Any) -> float:
    """``value`` as a finite ``float`` (``bool`` refused).

    Raises:
        EnvArgumentError: naming ``name`` and the value.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise EnvArgumentError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(float(value)):
        raise EnvArgumentError(f"{name} must be finite, got {value!r}")
    return float(value)


def check_choice(name: str, value: Any, choices: Iterable[Any]) -> Any:
    """``value`` if it is one of ``choices``.

    Raises:
        EnvArgumentError: naming ``name``, the value and the choices.
    """
    options = list(choices)
    if not isinstance(value, str) or value not in options:
        raise EnvArgumentError(f"{name} must be one of {options}, got {value!r}")
    return value


def check_keys(name: str, value: Any, allowed: Iterable[str]) -> dict[str, Any]:
    """``value`` as a dict whose keys are among ``allowed`` (``None``: empty).

    Raises:
        EnvArgumentError: naming ``name`` and the unknown keys (or the wrong type).
    """
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise EnvArgumentError(f"{name} must be a mapping, got {type(value).__name__}")
    known = sorted(allowed)
    unknown = sorted(str(k) for k in value if k not in known)
    if unknown:
        raise EnvArgumentError(f"unknown {name} keys {unknown}; known: {known}")
    return dict(value)


def check_render_mode(render_mode: Any, modes: Sequence[str]) -> None:
    """Refuse a ``render_mode`` that is neither ``None`` nor one of ``modes``.

    Raises:
        EnvArgumentError: naming ``render_mode``, the value and the supported modes.
    """
    if render_mode is not None and render_mode not in modes:
        raise EnvArgumentError(f"unsupported render_mode {render_mode!r}; one of {list(modes)}")


class IllegalActionHandling:
    """The illegal-action policy of an env (style guide §5.7).

    ``illegal_action`` is one of :data:`IllegalPolicy`; ``illegal_penalty`` is the actor's
    reward under ``"noop"``/``"penalty"``; under ``"terminate"`` the actor gets
    :attr:`terminate_reward` (``None``: the penalty) and the episode ends.
    """

    terminate_reward: ClassVar[float | None] = None
    """The actor's reward when ``"terminate"`` ends the episode (``None``: the penalty)."""

    illegal_action: str
    illegal_penalty: float

    def _set_illegal_policy(self, mode: str, penalty: float) -> None:
        """Check and store the policy.

        Raises:
            EnvArgumentError: ``mode`` is not one of :data:`IllegalPolicy`, or ``penalty``
                is not a finite number.
        """
        if not isinstance(mode, str) or mode not in get_args(IllegalPolicy):
            raise EnvArgumentError(
                f"illegal_action must be one of {', '.join(get_args(IllegalPolicy))}: {mode!r}"
            )
        self.illegal_action = mode
        self.illegal_penalty = check_number("illegal_penalty", penalty)

    def _resolve_illegal(self, message: str) -> tuple[float, bool]:
        """Raise ``IllegalActionError(message)`` or return the actor's (reward, episode ends)."""
        if self.illegal_action == "raise":
            raise IllegalActionError(message)
        if self.illegal_action == "terminate":
            reward = self.terminate_reward
            return (self.illegal_penalty if reward is None else reward), True
        return self.illegal_penalty, False


def action_index(action: Any) -> int:
    """``action`` as an ``int``: a Python or numpy integer, or an integer array of one value.

    Raises:
        InvalidActionError: ``action`` is a ``bool``, ``float``, ``str``, ``None``, a
            non-integer array or an array of more than one value (the message names it).
    """
    if isinstance(action, np.ndarray) and action.size == 1:
        if np.issubdtype(action.dtype, np.integer):
            return int(action.reshape(()))
    elif isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    shape = f" of shape {action.shape}" if isinstance(action, np.ndarray) else ""
    raise InvalidActionError(
        f"action must be an integer index, got {type(action).__name__}{shape}: {action!r}"
    )


def mask_allows(mask: np.ndarray, action: Any) -> bool:
    """Whether ``action`` (an int-like or ``None``) is a legal index of ``mask``.

    ``None`` (no action given) and integers out of range are illegal (``False``).

    Raises:
        InvalidActionError: ``action`` is no integer index at all (:func:`action_index`).
    """
    if action is None:
        return False
    index = action_index(action)
    return 0 <= index < mask.shape[0] and bool(mask[index])


def zero_mask(n: int) -> np.ndarray:
    """An all-zero int8 mask (an agent that is not deciding)."""
    return np.zeros(n, dtype=np.int8)


def as_bool_mask(mask: np.ndarray) -> np.ndarray:
    """The bool form of an int8 mask, for ``action_masks()``."""
    return mask.astype(bool)


def masked_observation_space(size: int, bound: float, n_actions: int) -> spaces.Dict:
    """``Dict({"observation": Box(-bound, bound, (size,), float32), "action_mask": int8 mask})``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-bound, bound, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
        }
    )


def seeded_streams(seed: int | None, n: int) -> list[np.random.Generator]:
    """``n`` independent generators spawned from ``seed`` (entropy when ``None``)."""
    rng, _ = seeding.np_random(seed)
    return rng.spawn(n)


def step_info(
    mask: np.ndarray,
    events: list[dict[str, Any]],
    illegal: bool | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The ``info`` dict: ``action_mask``, ``events``, extras, then ``illegal_action`` if given."""
    info: dict[str, Any] = {"action_mask": mask, "events": events, **extra}
    if illegal is not None:
        info["illegal_action"] = illegal
    return info


def render_frame(
    render_mode: str | None,
    state: StateT | None,
    ansi: Callable[[StateT], str],
    rgb: Callable[[StateT], np.ndarray],
) -> str | np.ndarray | None:
    """``ansi(state)`` or ``rgb(state)`` per ``render_mode``; ``None`` for any other mode.

    Raises:
        RuntimeError: a frame is asked for before the first ``reset`` (``state`` is ``None``).
    """
    if render_mode not in ("ansi", "rgb_array"):
        return None
    if state is None:
        raise RuntimeError("call reset() first")
    return ansi(state) if render_mode == "ansi" else rgb(state)


class MaskedEnvMixin(IllegalActionHandling):
    """Gymnasium side: ``action_masks()`` from the env's int8 ``_mask()``."""

    def _mask(self) -> np.ndarray:
        """The int8 mask of the agent's legal actions now."""
        raise NotImplementedError

    def action_masks(self) -> np.ndarray:
        """Boolean mask of legal actions (for sb3-contrib MaskablePPO)."""
        return as_bool_mask(self._mask())


class SidesAsAgents(IllegalActionHandling):
    """PettingZoo side: cached spaces per agent, AEC bookkeeping and ``close``.

    ``seed_test`` re-seeds ``observation_space(agent)`` and ``action_space(agent)``, so each
    must be the same object on every call.
    """

    possible_agents: list[str]
    agents: list[str]
    rewards: dict[str, float]
    _cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    agent_selection: str
    _was_dead_step: Callable[[Any], None]

    def _set_spaces(
        self, agents: Sequence[str], observation: spaces.Space[Any], action: spaces.Space[Any]
    ) -> None:
        """Give every agent in ``agents`` the same two space objects."""
        self.possible_agents = list(agents)
        self._observation_spaces = dict.fromkeys(agents, observation)
        self._action_spaces = dict.fromkeys(agents, action)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (one cached object)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (one cached object)."""
        return self._action_spaces[agent]

    def _reset_bookkeeping(self, agents: Iterable[str]) -> None:
        """AEC: every agent live, no rewards yet."""
        self.agents = list(agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)

    def _begin_step(self, action: Any) -> str | None:
        """AEC: the selected agent, its cumulative reward and this step's rewards cleared.

        A terminated or truncated agent's step goes to PettingZoo's ``_was_dead_step`` and
        ``None`` is returned: the caller has nothing more to do.
        """
        agent: str = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        return agent

    def _end_all(self, truncated: bool) -> None:
        """AEC: every agent terminated, or truncated when ``truncated``."""
        done = dict.fromkeys(self.agents, True)
        if truncated:
            self.truncations = done
        else:
            self.terminations = done

    def close(self) -> None:
        """Nothing to release."""
