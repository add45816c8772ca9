"""PettingZoo Parallel env: both sides give their next order decision simultaneously (TR-R3, D-1).

``parallel_env(**kw)`` builds :class:`StarshipCombatParallel`. Each step every side that still
plots answers its current decision (heading, thrust, flicker, fire, boarding) at the same
time; a side that has finished its orders has an all-zero mask and its action is ignored. When
both sides are done the round resolves. Spaces, codec, rewards, illegal-action policy, events
and renderings as in :mod:`wargym.envs.starship_combat.gym_env`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from wargym.envs.base import (
    SIDE_AGENTS,
    SidesAsAgents,
    check_render_mode,
    mask_allows,
    masked_observation_space,
    render_frame,
    seeded_streams,
    step_info,
)
from wargym.envs.pentagon_war.checks import PZ_RENDER_MODES, check_parallel_actions
from wargym.envs.starship_combat.encoding import (
    MaskCache,
    default_codec,
    encode_observation,
    obs_size,
    render_ansi,
    render_rgb,
)
from wargym.envs.starship_combat.gym_env import OBS_BOUND, make_options, visible_events
from wargym.rules.dice import RandomDice
from wargym.rules.errors import short_repr
from wargym.rules.starship_combat import game
from wargym.rules.starship_combat.actions import Action
from wargym.rules.starship_combat.state import Options

AGENTS = list(SIDE_AGENTS)


class StarshipCombatParallel(SidesAsAgents, ParallelEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """Both sides as simultaneous agents (module docstring)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "starship_combat_parallel_v0"}

    def __init__(
        self,
        render_mode: str | None = None,
        scenario: str = "duel",
        options: Options | dict[str, Any] | None = None,
        illegal_action: str = "penalty",
        illegal_penalty: float = -0.1,
    ) -> None:
        # "human" draws nothing (render() returns None); PettingZoo's render_test builds with it
        check_render_mode(render_mode, PZ_RENDER_MODES)
        self.render_mode = render_mode
        self.scenario = scenario
        self.rule_options = make_options(options)
        self._set_illegal_policy(illegal_action, illegal_penalty)
        self.codec = default_codec()
        self._set_spaces(
            AGENTS,
            masked_observation_space(obs_size(self.codec), OBS_BOUND, self.codec.n),
            spaces.Discrete(self.codec.n),
        )
        self.agents = list(AGENTS)
        self._state = game.new_battle(scenario, self.rule_options)
        self._dice = RandomDice(np.random.default_rng(0))
        self._masks = MaskCache(self.codec)

    def _obs(self) -> dict[str, dict[str, np.ndarray]]:
        return {
            a: {"observation": encode_observation(self._state, i, self.codec),
                "action_mask": self._masks.get(self._state, i).copy()}
            for i, a in enumerate(AGENTS)
        }  # fmt: skip

    def _infos(self, events: list[Any], illegal: set[str]) -> dict[str, dict[str, Any]]:
        return {
            a: step_info(
                self._masks.get(self._state, i).copy(),
                visible_events(self._state, events, i),
                a in illegal,
            )
            for i, a in enumerate(AGENTS)
        }

    def state(self) -> np.ndarray:
        """Full-information vector (side 0's view without fog)."""
        self._require_reset("state()")
        return encode_observation(self._state, 0, self.codec)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Start a new battle; dice from a generator seeded by ``seed``."""
        _setup, dice_rng = seeded_streams(seed, 2)
        self._dice = RandomDice(dice_rng)
        self._state = game.new_battle(self.scenario, self.rule_options)
        self.agents = list(AGENTS)
        self._was_reset = True
        return self._obs(), self._infos([], set())

    def step(self, actions: dict[str, int]) -> tuple[
        dict[str, dict[str, np.ndarray]], dict[str, float], dict[str, bool], dict[str, bool],
        dict[str, dict[str, Any]],
    ]:  # fmt: skip
        """Every plotting side answers its current decision at once.

        Every action is checked before any is applied: with ``illegal_action="raise"`` an
        illegal action of either side leaves the battle untouched, and when ``"terminate"``
        ends the episode nothing is played.

        Raises:
            InvalidActionError: ``actions`` is no dict, names an unknown agent, or holds a
                value that is no integer index for a plotting side (whatever the policy;
                nothing changes). A side without a decision has its action ignored.
            NotResetError: before the first ``reset``.
        """
        self._require_reset("step()")
        plotting = [a for i, a in enumerate(AGENTS) if self._masks.get(self._state, i).any()]
        checked = check_parallel_actions(actions, AGENTS, plotting)
        rewards = {a: 0.0 for a in AGENTS}
        illegal: set[str] = set()
        events: list[Any] = []
        decoded: dict[int, Action | None] = {}
        ended = False
        for i, agent in enumerate(AGENTS):
            mask = self._masks.get(self._state, i)
            if not mask.any():
                continue
            action = checked[agent]
            if action is None or not mask_allows(mask, action):
                rewards[agent], stop = self._resolve_illegal(
                    f"action {short_repr(action)} is not legal for {agent}"
                )
                ended = ended or stop
                illegal.add(agent)
                continue
            decoded[i] = self.codec.decode(action, self._state, i)
        for i, order in [] if ended else decoded.items():
            assert order is not None
            events.extend(game.play(self._state, i, order, self._dice))
        terminated = dict.fromkeys(AGENTS, ended)
        truncated = {a: False for a in AGENTS}
        result = game.outcome(self._state)
        if result is not None:
            if result.termination is game.Termination.TRUNCATED:
                truncated = {a: True for a in AGENTS}
            else:
                terminated = {a: True for a in AGENTS}
                if result.winner is not None:
                    rewards[AGENTS[result.winner]] += 1.0
                    rewards[AGENTS[1 - result.winner]] -= 1.0
        obs, infos = self._obs(), self._infos(events, illegal)
        if any(terminated.values()) or any(truncated.values()):
            self.agents = []
        return obs, rewards, terminated, truncated, infos

    def render(self) -> str | np.ndarray | None:
        """ANSI text or an RGB array of the hex map."""
        return render_frame(self.render_mode, self._state, render_ansi, render_rgb)

    # -- snapshots -----------------------------------------------------------------------
    def save_state(self) -> dict[str, Any]:
        """A JSON-compatible snapshot (docs/encodings.md, "Env snapshots").

        Holds the format tag and version, the env class and configuration, the battle
        (``BattleState.to_dict``), the dice generator's state and the live agents.
        """
        from wargym.envs.space_snapshots import PARALLEL, sc_save

        return sc_save(self, PARALLEL)

    def load_state(
        self, data: dict[str, Any]
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Restore a :meth:`save_state` snapshot exactly; returns observations and infos.

        Raises:
            StateError: wrong format or version, another env class or configuration, a
                changed snapshot (digest) or malformed state (named); the env is unchanged.
        """
        from wargym.envs.space_snapshots import PARALLEL, sc_load

        result: tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]
        result = sc_load(self, PARALLEL, data)
        self._was_reset = True
        return result


def parallel_env(**kwargs: Any) -> StarshipCombatParallel:
    """Build the Parallel env (PettingZoo factory convention)."""
    return StarshipCombatParallel(**kwargs)
