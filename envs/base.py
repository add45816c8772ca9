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
  value; raised whatever the illegal-action policy), :class:`NotResetError` (an env used
  before its first ``reset``) and the checks :func:`check_int`, :func:`check_number`,
  :func:`check_choice`, :func:`check_keys`, :func:`check_render_mode`,
  :func:`check_observation_size`. Messages quote at most 80 characters of a user value
  (:func:`~wargym.rules.errors.short_repr`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal, TypeVar, get_args

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from wargym.rules.errors import IllegalActionError, RulesError, short_repr

IllegalPolicy = Literal["noop", "penalty", "raise", "terminate"]
"""Illegal-action policies; ``"noop"`` and ``"penalty"`` are two names of the same policy."""

SIDE_AGENTS = ("side_0", "side_1")
"""PettingZoo agent names of the two sides of a space battle."""

StateT = TypeVar("StateT")

MAX_OBSERVATION_SIZE = 4_000_000
"""Most float32 values an env's observation may hold (about 16 MB); larger ones are refused."""


class EnvArgumentError(ValueError):
    """A keyword argument of an env has a wrong type or value; the message names it.

    A ``ValueError`` (what Gymnasium and PettingZoo code expects from a bad argument); an
    unknown keyword stays Python's own ``TypeError`` ("unexpected keyword argument 'x'").
    """


class InvalidActionError(IllegalActionError, TypeError):
    """An action that is not an index of the ``Discrete`` action space at all.

    Only integer kinds are indices (Python ``int``, numpy dtypes of kind ``i``/``u``, arrays of
    one such value): ``bool``/``np.bool_``, ``float``, ``complex``, ``str``, ``timedelta64``,
    ``datetime64``, object arrays and arrays of more than one value are refused whatever the
    illegal-action policy (an integer out of range or masked out is an *illegal* action and
    follows the policy). The state is left untouched.
    """


class NotResetError(RulesError, RuntimeError):
    """An env was used (``step``, ``observe``, ``last``, masks, ...) before its first ``reset``.

    A ``RuntimeError`` (what code that called ``render`` early caught before) and a
    :class:`~wargym.rules.errors.RulesError`; the message names the call.
    """


def require_reset(ready: bool, call: str) -> None:
    """Raise :class:`NotResetError` naming ``call`` unless ``ready`` (the env was reset)."""
    if not ready:
        raise NotResetError(f"{call} called before reset(); call reset() first")


def _range(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"in [{low}, {high}]"
    return f">= {low}" if low is not None else f"<= {high}"


def _is_int(value: Any) -> bool:
    """A Python ``int`` or a numpy scalar of integer kind (``bool``, ``timedelta64`` are not)."""
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, np.generic):
        return value.dtype.kind in "iu"
    return isinstance(value, int)


def check_int(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an ``int`` (``bool`` refused) within ``[low, high]``.

    Raises:
        EnvArgumentError: naming ``name``, the value (at most 80 characters) and the range.
    """
    if not _is_int(value):
        raise EnvArgumentError(f"{name} must be an integer, got {short_repr(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise EnvArgumentError(f"{name} must be {_range(low, high)}, got {short_repr(value)}")
    return int(value)


def check_number(
    name: str, value: Any, low: float | None = None, high: float | None = None
) -> float:
    """``value`` as a finite ``float`` (``bool`` refused) within ``[low, high]``.

    Raises:
        EnvArgumentError: naming ``name``, the value (at most 80 characters) and the range.
    """
    numeric = isinstance(value, (float, np.floating)) or _is_int(value)
    if not numeric:
        raise EnvArgumentError(f"{name} must be a number, got {short_repr(value)}")
    number = float(value)
    if not math.isfinite(number):
        raise EnvArgumentError(f"{name} must be finite, got {short_repr(value)}")
    if (low is not None and number < low) or (high is not None and number > high):
        raise EnvArgumentError(f"{name} must be {_range(low, high)}, got {short_repr(value)}")
    return number


def check_choice(name: str, value: Any, choices: Iterable[Any]) -> Any:
    """``value`` if it is one of ``choices``.

    Raises:
        EnvArgumentError: naming ``name``, the value and the choices.
    """
    options = list(choices)
    if not isinstance(value, str) or value not in options:
        raise EnvArgumentError(f"{name} must be one of {options}, got {short_repr(value)}")
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
    unknown = sorted(
        short_repr(k, 40) if not isinstance(k, str) else k for k in value if k not in known
    )
    if unknown:
        raise EnvArgumentError(f"unknown {name} keys {short_repr(unknown)}; known: {known}")
    return dict(value)


def check_render_mode(render_mode: Any, modes: Sequence[str]) -> None:
    """Refuse a ``render_mode`` that is neither ``None`` nor one of ``modes``.

    Raises:
        EnvArgumentError: naming ``render_mode``, the value and the supported modes.
    """
    if render_mode is not None and render_mode not in modes:
        raise EnvArgumentError(
            f"unsupported render_mode {short_repr(render_mode)}; one of {list(modes)}"
        )


def check_observation_size(size: int, names: str) -> None:
    """Refuse an observation of more than :data:`MAX_OBSERVATION_SIZE` values.

    Raises:
        EnvArgumentError: naming the arguments (``names``) that set the size.
    """
    if size > MAX_OBSERVATION_SIZE:
        raise EnvArgumentError(
            f"the observation would hold {size:,} values (at most {MAX_OBSERVATION_SIZE:,}); "
            f"lower {names}"
        )


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
    _was_reset: bool = False
    """PettingZoo envs: set by ``reset`` and ``load_state`` (:meth:`_require_reset`)."""

    def _is_ready(self) -> bool:
        """Whether the env was reset (or loaded): it holds an engine state."""
        return any(getattr(self, name, None) is not None for name in ("_battle", "_state", "_game"))

    def _require_reset(self, call: str) -> None:
        """Raise :class:`NotResetError` naming ``call`` before the first ``reset``."""
        require_reset(self._is_ready(), call)

    def _set_illegal_policy(self, mode: str, penalty: float) -> None:
        """Check and store the policy.

        Raises:
            EnvArgumentError: ``mode`` is not one of :data:`IllegalPolicy`, or ``penalty``
                is not a finite number.
        """
        if not isinstance(mode, str) or mode not in get_args(IllegalPolicy):
            raise EnvArgumentError(
                f"illegal_action must be one of {', '.join(get_args(IllegalPolicy))}: "
                f"{short_repr(mode)}"
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

    Only integer kinds count (numpy dtype kinds ``i`` and ``u``): ``timedelta64`` (a numpy
    integer subclass), ``datetime64``, ``np.bool_``, ``complex`` and object arrays are refused.

    Raises:
        InvalidActionError: ``action`` is a ``bool``, ``float``, ``str``, ``None``, a
            non-integer array or an array of more than one value (the message names its type
            and quotes at most 80 characters of it).
    """
    if isinstance(action, np.ndarray):
        if action.size == 1 and action.dtype.kind in "iu":
            return int(action.reshape(()))
    elif _is_int(action):
        return int(action)
    if isinstance(action, np.ndarray):
        kind = f"{type(action).__name__} of dtype {action.dtype} and shape {action.shape}"
    else:
        kind = type(action).__name__
    raise InvalidActionError(f"action must be an integer index, got {kind}: {short_repr(action)}")


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
        NotResetError: a frame is asked for before the first ``reset`` (``state`` is ``None``).
    """
    if render_mode not in ("ansi", "rgb_array"):
        return None
    if state is None:
        raise NotResetError("render() called before reset(); call reset() first")
    return ansi(state) if render_mode == "ansi" else rgb(state)


class MaskedEnvMixin(IllegalActionHandling):
    """Gymnasium side: ``action_masks()`` from the env's int8 ``_mask()``."""

    def _mask(self) -> np.ndarray:
        """The int8 mask of the agent's legal actions now."""
        raise NotImplementedError

    def action_masks(self) -> np.ndarray:
        """Boolean mask of legal actions (for sb3-contrib MaskablePPO).

        Raises:
            NotResetError: before the first ``reset``.
        """
        self._require_reset("action_masks()")
        return as_bool_mask(self._mask())


class SidesAsAgents(IllegalActionHandling):
    """PettingZoo side: cached spaces per agent, AEC bookkeeping and ``close``.

    ``seed_test`` re-seeds ``observation_space(agent)`` and ``action_space(agent)``, so each
    must be the same object on every call. ``step``, ``observe``, ``last`` and ``state``
    before the first ``reset`` (or ``load_state``) raise :class:`NotResetError`.
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

    def _is_ready(self) -> bool:
        # AEC bookkeeping exists once reset or a snapshot's bookkeeping is in
        return self._was_reset or getattr(self, "terminations", None) is not None

    def last(self, observe: bool = True) -> Any:
        """PettingZoo's ``last``, refused before the first ``reset``.

        Raises:
            NotResetError: before the first ``reset``.
        """
        self._require_reset("last()")
        return super().last(observe)  # type: ignore[misc]

    def _reset_bookkeeping(self, agents: Iterable[str]) -> None:
        """AEC: every agent live, no rewards yet (the env counts as reset from now on)."""
        self._was_reset = True
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
