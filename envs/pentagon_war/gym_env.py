"""Gymnasium env ``wargym/PentagonWar-Duel-v0``: one side against the scripted captain.

The agent commands side 0 and takes every decision of its plot, one per step (power items on
impulse 1, then per ship link, rotation, thrust, one fire decision per weapon, one launch
decision per launcher). Side 1 is commanded by the scripted captain
(:mod:`wargym.rules.pentagon_war.captain`) or, with ``opponent="random"``, by uniformly random
legal options. Plots are secret: the opponent plots after the agent, from public state only.

* Actions: ``Discrete(11 + 3 * max_ships)``, see :class:`~.encoding.ActionCodec`.
* Observations: ``Dict({"observation": Box(float32), "action_mask": Box(0, 1, (n,), int8)})``;
  the mask is also in ``info["action_mask"]`` and from :meth:`PentagonWarDuelEnv.action_masks`.
* Rewards: +1 win, -1 loss, 0 draw or truncation (digest D-11); with ``reward_shaping`` > 0,
  plus that much per enemy armor box or internal point destroyed and minus per own one.
* Illegal actions (:class:`wargym.envs.base.IllegalActionHandling`): ``illegal_action="noop"``
  (default; ``"penalty"`` is the same) leaves the battle untouched, gives ``illegal_penalty``
  (default -0.01) and sets ``info["illegal_action"]``; ``"raise"`` raises IllegalActionError;
  ``"terminate"`` ends the episode with reward -1. Other values raise ValueError.
* Episode end: terminated when a side is defeated (PW-R21), truncated after ``max_turns``.
* ``info["events"]``: the events the agent may see, as dicts, with their dice faces.
* Scenarios by keyword: ``scenario="duel" | "fleet" | "squadron" | "carrier" | "melee"``.
* Keyword arguments are checked (:class:`~wargym.envs.base.EnvArgumentError` naming the
  argument and the allowed range): ``scenario``, ``opponent``, ``render_mode`` among their
  choices, ``max_turns`` an integer in 1..100 (:data:`MAX_TURNS`), ``reward_shaping`` a finite
  number, ``options`` an :class:`Options` or a dict of some of its fields (over the scenario's
  options; an unknown field is named; :data:`OPTION_BOUNDS`: ``max_turns`` 1..100,
  ``map_radius`` 1..200 or None, ``missile_magazine`` 0..100 or None). An action
  that is no integer index raises :class:`~wargym.envs.base.InvalidActionError` whatever the
  policy; ``None`` and out-of-range integers are illegal actions.

## Version History

* v0: initial version.
* v0, issue 19: the ``carrier`` scenario has six ships (a second Zelta Dee for side 1), so
  its spaces grow (N 5 -> 6); other scenarios unchanged (docs/encodings-space.md).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from wargym.envs.base import (
    IllegalPolicy,
    MaskedEnvMixin,
    action_index,
    check_choice,
    check_int,
    check_number,
    check_render_mode,
    mask_allows,
    masked_observation_space,
    render_frame,
    step_info,
)
from wargym.rules.dice import RandomDice
from wargym.rules.errors import short_repr
from wargym.rules.events import Event
from wargym.rules.pentagon_war.actions import Decision
from wargym.rules.pentagon_war.captain import captain_action
from wargym.rules.pentagon_war.data import load_rules
from wargym.rules.pentagon_war.events import DamageAllocated, DamageApplied
from wargym.rules.pentagon_war.game import decision_for, has_decision, new_battle, play
from wargym.rules.pentagon_war.records import Options
from wargym.rules.pentagon_war.state import BattleState, Termination

from .checks import check_options
from .encoding import OBS_BOUND, ActionCodec, encode_observation, obs_size, visible_events
from .render import render_ansi, render_rgb

__all__ = [
    "IllegalPolicy",
    "PentagonWarDuelEnv",
    "damage_score",
    "rules_options",
    "terminal_reward",
]

OPPONENTS = ("captain", "random")
"""Opponents of the Gymnasium env: the scripted captain or uniformly random legal options."""


MAX_TURNS = 100
"""Largest ``max_turns`` (the rules' default is 20)."""
OPTION_BOUNDS = {"max_turns": (1, MAX_TURNS), "map_radius": (1, 200), "missile_magazine": (0, 100)}
"""Allowed ranges of the integer ``Options`` fields (``None`` stays allowed where typed so)."""


def rules_options(scenario: str, max_turns: Any, options: Any) -> tuple[Options, int]:
    """The checked rule options of a Pentagon War env and its ship count.

    ``options`` is ``None`` (the scenario's options), an :class:`Options` or a dict of some of
    its fields (over the scenario's options); ``max_turns`` (1..100) replaces ``max_turns``.

    Raises:
        EnvArgumentError: an unknown ``scenario``, a ``max_turns`` that is no integer in
            1..100, or bad ``options`` (an unknown field or a value outside
            :data:`OPTION_BOUNDS` is named, with the range).
    """
    rules = load_rules()
    check_choice("scenario", scenario, sorted(rules.scenarios))
    turns = check_int("max_turns", max_turns, 1, MAX_TURNS)
    base = Options(**dict(rules.scenarios[scenario].options))  # type: ignore[arg-type]
    low = {key: bounds[0] for key, bounds in OPTION_BOUNDS.items()}
    high = {key: bounds[1] for key, bounds in OPTION_BOUNDS.items()}
    chosen = check_options("options", options, Options, base, low, high)
    ships = sum(len(side) for side in rules.scenarios[scenario].sides)
    return dataclasses.replace(chosen, max_turns=turns), ships


def damage_score(state: BattleState, events: list[Event], side: int) -> float:
    """Boxes the enemy lost minus boxes ``side`` lost in ``events`` (for reward shaping)."""
    score = 0.0
    for event in events:
        if isinstance(event, DamageApplied):
            lost = float(event.absorbed)
        elif isinstance(event, DamageAllocated):
            lost = 1.0
        else:
            continue
        score += lost if state.ships[event.target].side != side else -lost
    return score


def terminal_reward(state: BattleState, side: int) -> float:
    """+1 win, -1 loss, 0 otherwise (D-11)."""
    if state.outcome is None or state.outcome.winner is None:
        return 0.0
    return 1.0 if state.outcome.winner == side else -1.0


class PentagonWarDuelEnv(MaskedEnvMixin, gymnasium.Env[dict[str, Any], np.int64]):
    """Agent (side 0) against a scripted captain (side 1); see the module docstring."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}
    terminate_reward = -1.0

    def __init__(
        self,
        render_mode: str | None = None,
        scenario: str = "duel",
        max_turns: int = 20,
        opponent: Literal["captain", "random"] = "captain",
        illegal_action: IllegalPolicy = "noop",
        illegal_penalty: float = -0.01,
        reward_shaping: float = 0.0,
        options: Options | dict[str, Any] | None = None,
    ) -> None:
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.rules_options, self.max_ships = rules_options(scenario, max_turns, options)
        self.scenario = scenario
        self.opponent = check_choice("opponent", opponent, OPPONENTS)
        self._set_illegal_policy(illegal_action, illegal_penalty)
        self.reward_shaping = check_number("reward_shaping", reward_shaping)
        self.codec = ActionCodec(self.max_ships)
        self.action_space = spaces.Discrete(self.codec.n)
        self.observation_space = masked_observation_space(
            obs_size(self.max_ships), OBS_BOUND, self.codec.n
        )
        self._state: BattleState | None = None
        self._dice = RandomDice(np.random.default_rng(0))
        self._opp_rng = np.random.default_rng(0)
        self._decision: Decision | None = None
        self._mask_now = self.codec.mask(None)

    # -- gymnasium API -------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a new battle; set-up, dice and opponent draw from independent streams."""
        super().reset(seed=seed)
        setup_rng, dice_rng, opp_rng = self.np_random.spawn(3)
        self._dice = RandomDice(dice_rng)
        self._opp_rng = opp_rng
        self._state, events = new_battle(self.scenario, setup_rng, self.rules_options)
        events += self._opponent_plays()
        self._refresh()
        return self._obs(), self._info(events)

    def step(self, action: np.int64) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Take one decision of side 0, then let the opponent plot until side 0 decides."""
        self._require_reset("step()")
        state = self.state
        decision = self._decision
        if not mask_allows(self._mask_now, action) or decision is None:
            reward, ended = self._resolve_illegal(f"action {short_repr(action)} is not legal now")
            return self._obs(), reward, ended, False, self._info([], illegal=True)
        index = action_index(action)
        events = play(state, self.codec.decode(index), self._dice, side=0, decision=decision)
        events += self._opponent_plays()
        self._refresh()
        reward = self.reward_shaping * damage_score(state, events, 0)
        terminated = truncated = False
        if state.outcome is not None:
            reward += terminal_reward(state, 0)
            truncated = state.outcome.termination is Termination.TRUNCATED
            terminated = not truncated
        return self._obs(), reward, terminated, truncated, self._info(events, illegal=False)

    def render(self) -> str | np.ndarray | None:
        """ANSI text map or an RGB image of the battle, per ``render_mode``."""
        return render_frame(self.render_mode, self._state, render_ansi, render_rgb)

    def _mask(self) -> np.ndarray:
        self.state  # noqa: B018  (raises before the first reset)
        return self._mask_now.copy()

    # -- helpers -------------------------------------------------------------------------
    @property
    def state(self) -> BattleState:
        """The engine state (reset first); read it, do not write: side 0's decision is cached."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def _refresh(self) -> None:
        """Side 0's decision and mask, computed once per change of the battle."""
        self._decision = decision_for(self.state, 0)
        self._mask_now = self.codec.mask(self._decision)

    def _opponent_plays(self) -> list[Event]:
        state = self.state
        events: list[Event] = []
        while state.outcome is None and not has_decision(state, 0):
            decision = decision_for(state, 1)
            if decision is None:
                raise RuntimeError("no side can decide in an unfinished battle")
            if self.opponent == "captain":
                choice = captain_action(state, decision)
            else:
                choice = decision.options[int(self._opp_rng.integers(len(decision.options)))]
            events += play(state, choice, self._dice, side=1, decision=decision)
        return events

    def _obs(self) -> dict[str, np.ndarray]:
        return {
            "observation": encode_observation(
                self.state, 0, self._decision, self.max_ships, self.rules_options.max_turns
            ),
            "action_mask": self._mask_now.copy(),
        }

    def _info(self, events: list[Event], illegal: bool | None = None) -> dict[str, Any]:
        state = self.state
        decision = self._decision
        return step_info(
            self._mask_now.copy(),
            visible_events(state, 0, events),
            illegal,
            turn=state.turn,
            impulse=state.impulse,
            decision=None if decision is None else decision.kind.value,
        )

    # -- snapshots -----------------------------------------------------------------------
    def save_state(self) -> dict[str, Any]:
        """A JSON-compatible snapshot of the episode (docs/encodings.md, "Env snapshots").

        Holds the format tag and version, the env class and configuration, the battle
        (``BattleState.to_dict``) and the states of the dice, opponent and ``np_random``
        generators (the scripted captain holds none).

        Raises:
            RuntimeError: before the first ``reset``.
        """
        from wargym.envs.space_snapshots import GYM, pw_save

        return pw_save(self, GYM)

    def load_state(self, data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Restore a :meth:`save_state` snapshot exactly; returns the observation and info.

        The env must have been built with the same arguments (no ``reset`` needed first).

        Raises:
            StateError: wrong format or version, another env class or configuration, a
                changed snapshot (digest) or malformed state (named); the env is unchanged.
        """
        from wargym.envs.space_snapshots import GYM, pw_load

        result: tuple[dict[str, Any], dict[str, Any]] = pw_load(self, GYM, data)
        return result
