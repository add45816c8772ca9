"""PettingZoo AEC env: the two sides plot their orders in turn (TR-R3, hidden until resolution).

``env(**kw)`` builds :class:`StarshipCombatAEC`. Agents ``side_0`` and ``side_1``; the agent
to act is the lowest side still plotting. A side's orders stay in the engine's order book and
never reach the other side's observation before the round resolves. Observation, action codec,
rewards (+1/-1/0 at the end), illegal-action policy, events and renderings as in
:mod:`wargym.envs.starship_combat.gym_env`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from wargym.envs.starship_combat.encoding import (
    default_codec,
    encode_observation,
    obs_size,
    render_ansi,
    render_rgb,
)
from wargym.envs.starship_combat.gym_env import make_options, visible_events
from wargym.rules.dice import RandomDice
from wargym.rules.errors import IllegalActionError
from wargym.rules.starship_combat import game
from wargym.rules.starship_combat.state import Options

AGENTS = ["side_0", "side_1"]


def spaces_for(n_obs: int, n_act: int) -> tuple[spaces.Dict, spaces.Discrete]:
    """The observation and action spaces shared by both agents."""
    obs = spaces.Dict(
        {
            "observation": spaces.Box(-2.0, 2.0, (n_obs,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
        }
    )
    return obs, spaces.Discrete(n_act)


class StarshipCombatAEC(AECEnv[str, dict[str, np.ndarray], int | None]):  # type: ignore[misc]
    """Both sides as agents, plotting in turn (module docstring)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "starship_combat_aec_v0",
                "is_parallelizable": True}  # fmt: skip

    def __init__(
        self,
        render_mode: str | None = None,
        scenario: str = "duel",
        options: Options | dict[str, Any] | None = None,
        illegal_action: str = "penalty",
        illegal_penalty: float = -0.1,
    ) -> None:
        super().__init__()
        self.render_mode = render_mode
        self.scenario = scenario
        self.rule_options = make_options(options)
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        self.codec = default_codec()
        self.possible_agents = list(AGENTS)
        obs_space, act_space = spaces_for(obs_size(self.codec), self.codec.n)
        self._obs_spaces = {a: obs_space for a in AGENTS}
        self._act_spaces = {a: act_space for a in AGENTS}
        self._state = game.new_battle(scenario, self.rule_options)
        self._dice = RandomDice(np.random.default_rng(0))

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The (cached) observation space."""
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The (cached) action space."""
        return self._act_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` may know now; its mask is zero unless it is deciding."""
        side = AGENTS.index(agent)
        return {"observation": encode_observation(self._state, side, self.codec),
                "action_mask": self.codec.mask(self._state, side)}  # fmt: skip

    def state(self) -> np.ndarray:
        """Full-information vector (side 0's view without fog), for centralised critics."""
        return encode_observation(self._state, 0, self.codec)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new battle; dice from a generator seeded by ``seed``."""
        rng, _ = seeding.np_random(seed)
        _setup, dice_rng = rng.spawn(2)
        self._dice = RandomDice(dice_rng)
        self._state = game.new_battle(self.scenario, self.rule_options)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: self._info(a, [], False) for a in AGENTS}
        self._select()

    def _info(self, agent: str, events: list[Any], illegal: bool) -> dict[str, Any]:
        side = AGENTS.index(agent)
        return {"action_mask": self.codec.mask(self._state, side), "illegal_action": illegal,
                "events": visible_events(self._state, events, side)}  # fmt: skip

    def _select(self) -> None:
        side = game.decider(self._state)
        self.agent_selection = AGENTS[side if side is not None else 0]

    def step(self, action: int | None) -> None:
        """Answer the selected agent's current decision."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        side = AGENTS.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in AGENTS}
        mask = self.codec.mask(self._state, side)
        illegal = action is None or not (0 <= int(action) < self.codec.n) or mask[int(action)] == 0
        events: list[Any] = []
        if illegal:
            if self.illegal_action == "raise":
                raise IllegalActionError(f"action {action} is not legal for {agent}")
            self.rewards[agent] = self.illegal_penalty
            if self.illegal_action == "terminate":
                self.terminations = {a: True for a in AGENTS}
        else:
            assert action is not None
            decoded = self.codec.decode(int(action), self._state, side)
            assert decoded is not None
            events = game.play(self._state, side, decoded, self._dice)
            result = game.outcome(self._state)
            if result is not None:
                done = {a: True for a in AGENTS}
                if result.termination is game.Termination.TRUNCATED:
                    self.truncations = done
                else:
                    self.terminations = done
                    if result.winner is not None:
                        self.rewards[AGENTS[result.winner]] += 1.0
                        self.rewards[AGENTS[1 - result.winner]] -= 1.0
        self.infos = {a: self._info(a, events, illegal and a == agent) for a in AGENTS}
        self._accumulate_rewards()
        if not any(self.terminations.values()) and not any(self.truncations.values()):
            self._select()

    def render(self) -> str | np.ndarray | None:
        """ANSI text or an RGB array of the hex map."""
        if self.render_mode == "ansi":
            return render_ansi(self._state)
        if self.render_mode == "rgb_array":
            return render_rgb(self._state)
        return None

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: Any) -> StarshipCombatAEC:
    """Build the AEC env (PettingZoo factory convention)."""
    return StarshipCombatAEC(**kwargs)
