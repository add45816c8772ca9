"""PettingZoo envs for *The Pentagon War*: sides as agents ``side_0`` and ``side_1``.

Orders are plotted simultaneously and in secret (PW-R2):

* :class:`PentagonWarParallel` (``parallel_env``): every step, each side that has a decision
  gives one action; the decision sequence is the engine's (power items on impulse 1, then per
  ship link, rotation, thrust, fire per weapon, launch per launcher). A side whose plot is
  complete has an all-zero mask and its action is ignored. The impulse resolves when both
  plots are complete.
* :class:`PentagonWarAEC` (``env``): side 0 plots, then side 1; ``agent_selection`` follows the
  engine's decider. The opponent's plot is hidden until resolution: observations read only
  public state and the viewer's own plot (see :mod:`.encoding`).

Spaces, rewards, illegal-action policy and info keys are those of
:class:`~.gym_env.PentagonWarDuelEnv`; ``info[agent]["events"]`` holds the events that side may
see. ``state()`` returns both sides' observations concatenated (for centralised critics).

## Version History

* v0: initial version.
* v0, issue 19: the ``carrier`` scenario has six ships (a second Zelta Dee for side 1), so
  its spaces grow (N 5 -> 6); other scenarios unchanged (docs/encodings-space.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from wargym.envs.base import (
    SIDE_AGENTS,
    SidesAsAgents,
    action_index,
    check_choice,
    check_number,
    check_render_mode,
    mask_allows,
    masked_observation_space,
    render_frame,
    seeded_streams,
    step_info,
    zero_mask,
)
from wargym.rules.dice import RandomDice
from wargym.rules.errors import short_repr
from wargym.rules.events import Event
from wargym.rules.pentagon_war.actions import Decision
from wargym.rules.pentagon_war.game import decision_for, new_battle, play
from wargym.rules.pentagon_war.records import Options
from wargym.rules.pentagon_war.state import BattleState, Termination

from .checks import PZ_RENDER_MODES, check_parallel_actions
from .encoding import OBS_BOUND, ActionCodec, encode_observation, obs_size, visible_events
from .gym_env import IllegalPolicy, damage_score, rules_options, terminal_reward
from .render import render_ansi, render_rgb

AGENTS = SIDE_AGENTS


class _Core(SidesAsAgents):
    """Shared set-up, spaces and encoding of both PettingZoo envs."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "pentagon_war_v0",
        "is_parallelizable": True,
        "render_fps": 4,
    }
    terminate_reward = -1.0

    def _setup(
        self,
        render_mode: str | None,
        scenario: str,
        max_turns: int,
        illegal_action: IllegalPolicy,
        illegal_penalty: float,
        reward_shaping: float,
        options: Options | dict[str, Any] | None,
    ) -> None:
        # "human" draws nothing (render() returns None); PettingZoo's render_test builds with it
        check_render_mode(render_mode, PZ_RENDER_MODES)
        self.render_mode = render_mode
        self.rules_options, self.max_ships = rules_options(scenario, max_turns, options)
        self.scenario = scenario
        self._set_illegal_policy(illegal_action, illegal_penalty)
        self.reward_shaping = check_number("reward_shaping", reward_shaping)
        self.codec = ActionCodec(self.max_ships)
        self._set_spaces(
            AGENTS,
            masked_observation_space(obs_size(self.max_ships), OBS_BOUND, self.codec.n),
            spaces.Discrete(self.codec.n),
        )
        self._battle: BattleState | None = None
        self._dice = RandomDice(np.random.default_rng(0))
        self._forget()

    def _forget(self) -> None:
        """Drop the cached decisions and masks (after every change of the battle)."""
        self._decisions: list[Decision | None | bool] = [False, False]
        self._masks: list[np.ndarray | None] = [None, None]

    def _decision(self, side: int) -> Decision | None:
        """``decision_for(battle, side)``, computed once per change of the battle."""
        cached = self._decisions[side]
        if cached is False:
            cached = self._decisions[side] = decision_for(self.battle, side)
        return cached  # type: ignore[return-value]

    def _mask_of(self, side: int) -> np.ndarray:
        """The side's int8 mask, cached like :meth:`_decision` (hand out copies only)."""
        mask = self._masks[side]
        if mask is None:
            mask = self._masks[side] = self.codec.mask(self._decision(side))
        return mask

    def _play(self, side: int, action: Any) -> list[Event]:
        """Plot the (legal) ``action`` of ``side``; the caches are dropped."""
        decision = self._decision(side)
        self._forget()
        return play(
            self.battle,
            self.codec.decode(action_index(action)),
            self._dice,
            side=side,
            decision=decision,
        )

    @property
    def battle(self) -> BattleState:
        """The engine state (reset first); read it, do not write: decisions are cached."""
        if self._battle is None:
            raise RuntimeError("call reset() first")
        return self._battle

    def _new(self, seed: int | None) -> list[Event]:
        setup_rng, dice_rng = seeded_streams(seed, 2)
        self._dice = RandomDice(dice_rng)
        self._battle, events = new_battle(self.scenario, setup_rng, self.rules_options)
        self._forget()
        return events

    def _observe(self, side: int) -> dict[str, np.ndarray]:
        decision = self._decision(side)
        return {
            "observation": encode_observation(
                self.battle, side, decision, self.max_ships, self.rules_options.max_turns
            ),
            "action_mask": self._mask_of(side).copy(),
        }

    def _info(self, side: int, events: list[Event], illegal: bool = False) -> dict[str, Any]:
        decision = self._decision(side)
        return step_info(
            self._mask_of(side).copy(),
            visible_events(self.battle, side, events),
            illegal_action=illegal,
            decision=None if decision is None else decision.kind.value,
        )

    def _legal(self, side: int, action: Any) -> bool:
        """Whether ``action`` is legal for ``side`` now (``None``, out of range: not legal).

        Raises:
            InvalidActionError: ``action`` is no integer index (``bool``, ``float``, ...).
        """
        return mask_allows(self._mask_of(side), action) and self._decision(side) is not None

    def render(self) -> str | np.ndarray | None:
        """ANSI text map or RGB image of the battle."""
        return render_frame(self.render_mode, self._battle, render_ansi, render_rgb)

    def state(self) -> np.ndarray:
        """Both sides' observation vectors, concatenated."""
        self._require_reset("state()")
        return np.concatenate([self._observe(s)["observation"] for s in (0, 1)])


class PentagonWarAEC(_Core, AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """Turn-based view: the sides plot one after the other (module docstring)."""

    def __init__(
        self,
        render_mode: str | None = None,
        scenario: str = "duel",
        max_turns: int = 20,
        illegal_action: IllegalPolicy = "noop",
        illegal_penalty: float = -0.01,
        reward_shaping: float = 0.0,
        options: Options | dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self._setup(
            render_mode,
            scenario,
            max_turns,
            illegal_action,
            illegal_penalty,
            reward_shaping,
            options,
        )
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new battle."""
        events = self._new(seed)
        self._reset_bookkeeping(AGENTS)
        self.infos = {a: self._info(i, events) for i, a in enumerate(AGENTS)}
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` may see; its mask is zero unless it is selected."""
        self._require_reset("observe()")
        obs = self._observe(AGENTS.index(check_choice("agent", agent, AGENTS)))
        if agent != self.agent_selection:
            obs["action_mask"] = zero_mask(self.codec.n)
        return obs

    def step(self, action: int | None) -> None:
        """Plot one decision of the selected side.

        Raises:
            InvalidActionError: ``action`` is no integer index (whatever the policy; nothing
                changes).
            NotResetError: before the first ``reset``.
        """
        self._require_reset("step()")
        if action is not None:
            action_index(action)
        agent = self._begin_step(action)
        if agent is None:
            return
        side = AGENTS.index(agent)
        if not self._legal(side, action):
            reward, ended = self._resolve_illegal(
                f"{agent}: action {short_repr(action)} is not legal now"
            )
            if ended:
                self.rewards = {a: (reward if a == agent else -reward) for a in self.agents}
                self._end_all(truncated=False)
            else:
                self.rewards[agent] = reward
            self.infos[agent] = self._info(side, [], illegal=True)
            self._accumulate_rewards()
            return
        events = self._play(side, action)
        for i, name in enumerate(AGENTS):
            self.rewards[name] = self.reward_shaping * damage_score(self.battle, events, i)
            self.infos[name] = self._info(i, events)
        outcome = self.battle.outcome
        if outcome is not None:
            for i, name in enumerate(AGENTS):
                self.rewards[name] += terminal_reward(self.battle, i)
            self._end_all(truncated=outcome.termination is Termination.TRUNCATED)
        self._accumulate_rewards()
        self._select()

    def _select(self) -> None:
        deciding = [side for side in (0, 1) if self._decision(side) is not None]
        if deciding:
            self.agent_selection = AGENTS[deciding[0]]
        elif self.agents:
            live = [a for a in self.agents if not (self.terminations[a] or self.truncations[a])]
            self.agent_selection = (live or self.agents)[0]

    # -- snapshots -----------------------------------------------------------------------
    def save_state(self) -> dict[str, Any]:
        """A JSON-compatible snapshot (docs/encodings.md, "Env snapshots").

        Holds the format tag and version, the env class and configuration, the battle
        (``BattleState.to_dict``), the dice generator's state and the AEC bookkeeping
        (agents, rewards, terminations, truncations, infos, ``agent_selection``).

        Raises:
            RuntimeError: before the first ``reset``.
        """
        from wargym.envs.space_snapshots import AEC, pw_save

        return pw_save(self, AEC)

    def load_state(self, data: dict[str, Any]) -> None:
        """Restore a :meth:`save_state` snapshot exactly (observe the agents afterwards).

        Raises:
            StateError: wrong format or version, another env class or configuration, a
                changed snapshot (digest) or malformed state (named); the env is unchanged.
        """
        from wargym.envs.space_snapshots import AEC, pw_load

        pw_load(self, AEC, data)
        self._was_reset = True


class PentagonWarParallel(_Core, ParallelEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """Simultaneous view: both sides plot in the same step (module docstring)."""

    def __init__(
        self,
        render_mode: str | None = None,
        scenario: str = "duel",
        max_turns: int = 20,
        illegal_action: IllegalPolicy = "noop",
        illegal_penalty: float = -0.01,
        reward_shaping: float = 0.0,
        options: Options | dict[str, Any] | None = None,
    ) -> None:
        self._setup(
            render_mode,
            scenario,
            max_turns,
            illegal_action,
            illegal_penalty,
            reward_shaping,
            options,
        )
        self.agents: list[str] = []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Start a new battle."""
        events = self._new(seed)
        self.agents = list(AGENTS)
        self._was_reset = True
        return (
            {a: self._observe(i) for i, a in enumerate(AGENTS)},
            {a: self._info(i, events) for i, a in enumerate(AGENTS)},
        )

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Apply the action of every side that has a decision, in side order.

        Every action is checked before any is applied (PW-R2: plotting by one side never
        changes the other's options): with ``illegal_action="raise"`` an illegal action of
        either side leaves the battle untouched, and under ``"terminate"`` nothing is played.

        Raises:
            InvalidActionError: ``actions`` is no dict, names an unknown agent, or holds a
                value that is no integer index for a deciding side (whatever the policy;
                nothing changes). A side without a decision has its action ignored.
            NotResetError: before the first ``reset``.
        """
        self._require_reset("step()")
        deciding = [
            side
            for side, agent in enumerate(AGENTS)
            if agent in self.agents and self._decision(side) is not None
        ]
        checked = check_parallel_actions(actions, AGENTS, [AGENTS[side] for side in deciding])
        rewards = dict.fromkeys(self.agents, 0.0)
        illegal = dict.fromkeys(self.agents, False)
        events: list[Event] = []
        terminate = False
        legal: list[int] = []
        for side in deciding:  # decided up front: a side's new decision waits for a new step
            agent = AGENTS[side]
            action = checked[agent]
            if self._legal(side, action):
                legal.append(side)
                continue
            reward, terminate = self._resolve_illegal(
                f"{agent}: action {short_repr(action)} is not legal now"
            )
            illegal[agent] = True
            if terminate:
                rewards = {a: (reward if a == agent else -reward) for a in self.agents}
                break
            rewards[agent] += reward
        for side in [] if terminate else legal:
            events += self._play(side, checked[AGENTS[side]])
            if self.battle.outcome is not None:
                break
        for i, agent in enumerate(AGENTS):
            if agent in rewards:
                rewards[agent] += self.reward_shaping * damage_score(self.battle, events, i)
        outcome = self.battle.outcome
        done = terminate or (
            outcome is not None and outcome.termination is not Termination.TRUNCATED
        )
        cut = outcome is not None and outcome.termination is Termination.TRUNCATED
        if outcome is not None:
            for i, agent in enumerate(AGENTS):
                if agent in rewards:
                    rewards[agent] += terminal_reward(self.battle, i)
        observations = {a: self._observe(AGENTS.index(a)) for a in self.agents}
        infos = {a: self._info(AGENTS.index(a), events, illegal[a]) for a in self.agents}
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, cut)
        if done or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    # -- snapshots -----------------------------------------------------------------------
    def save_state(self) -> dict[str, Any]:
        """A JSON-compatible snapshot (docs/encodings.md, "Env snapshots").

        Holds the format tag and version, the env class and configuration, the battle
        (``BattleState.to_dict``), the dice generator's state and the live agents.

        Raises:
            RuntimeError: before the first ``reset``.
        """
        from wargym.envs.space_snapshots import PARALLEL, pw_save

        return pw_save(self, PARALLEL)

    def load_state(
        self, data: dict[str, Any]
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Restore a :meth:`save_state` snapshot exactly; returns observations and infos.

        Raises:
            StateError: wrong format or version, another env class or configuration, a
                changed snapshot (digest) or malformed state (named); the env is unchanged.
        """
        from wargym.envs.space_snapshots import PARALLEL, pw_load

        result: tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]
        result = pw_load(self, PARALLEL, data)
        self._was_reset = True
        return result


def env(**kwargs: Any) -> PentagonWarAEC:
    """The AEC env (PettingZoo convention)."""
    return PentagonWarAEC(**kwargs)


def parallel_env(**kwargs: Any) -> PentagonWarParallel:
    """The Parallel env (PettingZoo convention)."""
    return PentagonWarParallel(**kwargs)
