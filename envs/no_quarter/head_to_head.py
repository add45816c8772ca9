"""What the PettingZoo envs of No Quarter share: :class:`HeadToHeadCore` (AEC and Parallel).

The two sides are the agents ``blue`` and ``red``. :class:`HeadToHeadCore` adds to
:class:`~.core.SkirmishCore` the PettingZoo set-up, seeding, per-agent observations, masks,
infos and rewards, ``state()`` and the snapshot core; :mod:`.aec` and :mod:`.parallel` stand
on it and neither imports the other's module at import time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from wargym.envs.base import SidesAsAgents, check_render_mode, step_info
from wargym.envs.snapshot import check_keys as state_keys
from wargym.envs.snapshot import make_snapshot, open_snapshot
from wargym.rules.dice import RandomDice
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.vocab import Side

from .arguments import check_skirmish_config
from .core import (
    CORE_KEYS,
    MAX_REDRAWS,
    SHAPING_TERMS,
    SkirmishCore,
    apply_core,
    core_config,
    core_state,
    parse_core,
)
from .render import outcome_info

AGENTS = ("blue", "red")
"""PettingZoo agent names: the two sides."""
SIDES = {"blue": Side.BLUE, "red": Side.RED}


class HeadToHeadCore(SkirmishCore, SidesAsAgents):
    """What the AEC and Parallel envs share: set-up, spaces, infos, rewards, ``state()``."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "no_quarter_v1",
        "is_parallelizable": True,
        "render_fps": 4,
    }
    terminate_reward = -1.0

    def _setup_pz(
        self,
        render_mode: str | None,
        illegal_action: str,
        illegal_penalty: float,
        config: dict[str, Any],
    ) -> None:
        # "human" draws nothing (render() returns None); PettingZoo's render_test builds with it
        check_render_mode(render_mode, [*self.metadata["render_modes"], "human"])
        check_skirmish_config(config, SHAPING_TERMS)
        self._configure(render_mode=render_mode, **config)
        self._set_illegal_policy(illegal_action, illegal_penalty)
        self._set_spaces(AGENTS, self.obs_space, spaces.Discrete(self.codec.n))
        self.agents = []

    def _start_battle(self, seed: int | None) -> dict[str, dict[str, Any]]:
        """New battle from ``seed``; returns each agent's info."""
        self._seed = seed
        rng, _ = seeding.np_random(seed)  # seeded_streams(seed, 2) on the first draw
        for _ in range(MAX_REDRAWS):  # a battle over before any decision is drawn again
            setup_rng, dice_rng = rng.spawn(2)
            self._battle = None
            events = self._new_battle(setup_rng, RandomDice(dice_rng))
            if not self.battle.over:
                break
        assert self._start is not None
        return self._infos(self._start.clone(), events, set(), fresh=True)

    def _infos(
        self, before: Battle, events: list[Event], illegal: set[str], fresh: bool = False
    ) -> dict[str, dict[str, Any]]:
        visible = self._filter(before, events, (Side.BLUE, Side.RED), fresh)
        battle = self.battle
        decision = None if battle.over or battle.decision is None else battle.decision
        return {
            agent: self._with_events(
                step_info(
                    self._agent_mask(agent),
                    visible[SIDES[agent]],
                    agent in illegal,
                    turn=battle.turn,
                    decision=(
                        decision.kind.value
                        if decision is not None and decision.side is SIDES[agent]
                        else None
                    ),
                    outcome=outcome_info(battle),
                )
            )
            for agent in AGENTS
        }

    def _agent_mask(self, agent: str) -> np.ndarray:
        return self._mask_for(SIDES[agent])

    def _agent_obs(self, agent: str) -> dict[str, Any]:
        return {
            "observation": self._encode(self.battle, SIDES[agent], self._seen.get(SIDES[agent])),
            "action_mask": self._agent_mask(agent),
        }

    def _rewards(self) -> dict[str, float]:
        """Each agent's reward for the last step (shaping reads the events it may know)."""
        return {
            agent: self._shaped(self._visible[SIDES[agent]], SIDES[agent])
            + self._terminal(SIDES[agent])
            for agent in AGENTS
        }

    def _selected(self) -> str | None:
        battle = self.battle
        if battle.over or battle.decision is None:
            return None
        return battle.decision.side.value

    # -- snapshots -------------------------------------------------------------------------
    def save_state(self) -> dict[str, Any]:
        """A JSON-compatible snapshot of the episode (docs/encodings.md, "Env snapshots").

        Holds the format tag and version, the env class and configuration, the battle
        (``Battle.to_dict``), the replay's set-up battle and decision log, the dice
        generator's state, the seed, both sides' enemies-in-sight sets and the PettingZoo
        bookkeeping (agents; AEC: rewards, terminations, truncations, infos, selection).

        Raises:
            RuntimeError: before the first ``reset``.
        """
        config = {**core_config(self), "agents": list(AGENTS)}
        return make_snapshot(self, config, {**core_state(self), **self._pz_state()})

    def _pz_state(self) -> dict[str, Any]:
        return {}

    def _open_pz(
        self, data: Mapping[str, Any], keys: tuple[str, ...]
    ) -> tuple[dict[str, Any], Callable[[], None]]:
        """Check a snapshot's core; returns its state and what puts the core into the env."""
        config = {**core_config(self), "agents": list(AGENTS)}
        state = open_snapshot(self, data, config)
        state_keys("snapshot.state", state, (*CORE_KEYS, *keys))
        parts = parse_core(state, self.advisor)

        def commit() -> None:
            apply_core(self, parts)
            self._was_reset = True

        return state, commit

    def state(self) -> np.ndarray:
        """Both sides' observations without fog of war, concatenated (centralised critics)."""
        self._require_reset("state()")
        battle: Any = self.battle
        parts = []
        for side in (Side.BLUE, Side.RED):
            if self._native:
                sides = battle.mech_sides().items()
                everyone = frozenset(i for i, (s, here) in sides if s is side.other and here)
            else:
                everyone = frozenset(m.id for m in battle.mechs_of(side.other))
            obs = self._encode(battle, side, everyone)
            if isinstance(obs, dict):
                obs = np.concatenate([np.asarray(v, np.float32).ravel() for v in obs.values()])
            parts.append(obs)
        return np.concatenate(parts)
