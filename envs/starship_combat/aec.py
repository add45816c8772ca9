"""PettingZoo AEC env: the two sides plot their orders in turn (TR-R3, hidden until resolution).

``env(**kw)`` builds :class:`StarshipCombatAEC`. Agents ``side_0`` and ``side_1``; the agent
to act is the lowest side still plotting. A side's orders stay in the engine's order book and
never reach the other side's observation before the round resolves. Observation, action codec,
rewards (+1/-1/0 at the end), illegal-action policy, events and renderings as in
:mod:`wargym.envs.starship_combat.gym_env`.

This module also re-exports :func:`~wargym.envs.starship_combat.parallel.parallel_env`, so that
one module offers both PettingZoo factories (``wargym.envs.PETTINGZOO_ENVS``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from wargym.envs.base import (
    SIDE_AGENTS,
    SidesAsAgents,
    action_index,
    check_choice,
    check_render_mode,
    mask_allows,
    masked_observation_space,
    render_frame,
    seeded_streams,
    step_info,
)
from wargym.envs.pentagon_war.checks import PZ_RENDER_MODES
from wargym.envs.starship_combat.encoding import (
    MaskCache,
    default_codec,
    encode_observation,
    obs_size,
    render_ansi,
    render_rgb,
)
from wargym.envs.starship_combat.gym_env import OBS_BOUND, make_options, visible_events
from wargym.envs.starship_combat.parallel import StarshipCombatParallel, parallel_env
from wargym.rules.dice import RandomDice
from wargym.rules.errors import short_repr
from wargym.rules.starship_combat import game
from wargym.rules.starship_combat.state import Options

__all__ = ["AGENTS", "StarshipCombatAEC", "StarshipCombatParallel", "env", "parallel_env"]

AGENTS = list(SIDE_AGENTS)


class StarshipCombatAEC(SidesAsAgents, AECEnv[str, dict[str, np.ndarray], int | None]):  # type: ignore[misc]
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
        self._state = game.new_battle(scenario, self.rule_options)
        self._dice = RandomDice(np.random.default_rng(0))
        self._masks = MaskCache(self.codec)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` may know now; its mask is zero unless it is deciding."""
        self._require_reset("observe()")
        side = AGENTS.index(check_choice("agent", agent, AGENTS))
        return {"observation": encode_observation(self._state, side, self.codec),
                "action_mask": self._masks.get(self._state, side).copy()}  # fmt: skip

    def state(self) -> np.ndarray:
        """Full-information vector (side 0's view without fog), for centralised critics."""
        self._require_reset("state()")
        return encode_observation(self._state, 0, self.codec)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new battle; dice from a generator seeded by ``seed``."""
        _setup, dice_rng = seeded_streams(seed, 2)
        self._dice = RandomDice(dice_rng)
        self._state = game.new_battle(self.scenario, self.rule_options)
        self._reset_bookkeeping(AGENTS)
        self.infos = {a: self._info(a, [], False) for a in AGENTS}
        self._select()

    def _info(self, agent: str, events: list[Any], illegal: bool) -> dict[str, Any]:
        side = AGENTS.index(agent)
        mask = self._masks.get(self._state, side).copy()
        return step_info(mask, visible_events(self._state, events, side), illegal)

    def _select(self) -> None:
        side = game.decider(self._state)
        self.agent_selection = AGENTS[side if side is not None else 0]

    def step(self, action: int | None) -> None:
        """Answer the selected agent's current decision.

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
        illegal = not mask_allows(self._masks.get(self._state, side), action)
        events: list[Any] = []
        if illegal:
            reward, ended = self._resolve_illegal(
                f"action {short_repr(action)} is not legal for {agent}"
            )
            self.rewards[agent] = reward
            if ended:
                self._end_all(truncated=False)
        else:
            assert action is not None
            decoded = self.codec.decode(action_index(action), self._state, side)
            assert decoded is not None
            events = game.play(self._state, side, decoded, self._dice)
            result = game.outcome(self._state)
            if result is not None:
                cut = result.termination is game.Termination.TRUNCATED
                self._end_all(truncated=cut)
                if not cut and result.winner is not None:
                    self.rewards[AGENTS[result.winner]] += 1.0
                    self.rewards[AGENTS[1 - result.winner]] -= 1.0
        self.infos = {a: self._info(a, events, illegal and a == agent) for a in AGENTS}
        self._accumulate_rewards()
        if not any(self.terminations.values()) and not any(self.truncations.values()):
            self._select()

    def render(self) -> str | np.ndarray | None:
        """ANSI text or an RGB array of the hex map."""
        return render_frame(self.render_mode, self._state, render_ansi, render_rgb)

    # -- snapshots -----------------------------------------------------------------------
    def save_state(self) -> dict[str, Any]:
        """A JSON-compatible snapshot (docs/encodings.md, "Env snapshots").

        Holds the format tag and version, the env class and configuration, the battle
        (``BattleState.to_dict``), the dice generator's state and the AEC bookkeeping
        (agents, rewards, flags, infos, selection).

        Raises:
            RuntimeError: before the first ``reset``.
        """
        from wargym.envs.space_snapshots import AEC, sc_save

        return sc_save(self, AEC)

    def load_state(self, data: dict[str, Any]) -> None:
        """Restore a :meth:`save_state` snapshot exactly (observe the agents afterwards).

        Raises:
            StateError: wrong format or version, another env class or configuration, a
                changed snapshot (digest) or malformed state (named); the env is unchanged.
        """
        from wargym.envs.space_snapshots import AEC, sc_load

        sc_load(self, AEC, data)
        self._was_reset = True


def env(**kwargs: Any) -> StarshipCombatAEC:
    """Build the AEC env (PettingZoo factory convention)."""
    return StarshipCombatAEC(**kwargs)
