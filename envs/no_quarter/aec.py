"""PettingZoo AEC env: No Quarter head-to-head, the two sides as agents ``blue`` and ``red``.

``agent_selection`` is the side at the engine's current decision point, so a reaction
decision (a Star's Free Will, a defender's melee declaration, a free In Sight move of the
other side) hands the turn to the reacting side in the middle of the other's activation.
Each agent observes from its own side only ("nq-obs-v1"); the mask of the agent that is not
selected is all zero. Rewards are terminal (+1/-1/0), plus optional shaping terms. Spaces,
illegal-action policies, ``info`` keys, rendering and replays are those of
:class:`~wargym.envs.no_quarter.solo.NoQuarterSkirmishEnv`; under ``illegal_action=
"terminate"`` the offender gets -1 and the other side 0, as in PettingZoo's classic envs.
``state()`` gives both sides' observations without fog of war, for centralised critics.

``env(**kwargs)`` builds :class:`NoQuarterAEC`, ``parallel_env(**kwargs)`` builds
:class:`~wargym.envs.no_quarter.parallel.NoQuarterParallel`.

## Version History

* v0: initial version (nq-obs-v1, nq-act-v1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from wargym.envs.base import (
    SidesAsAgents,
    action_index,
    check_choice,
    check_render_mode,
    mask_allows,
    step_info,
)
from wargym.envs.snapshot import (
    AEC_KEYS,
    aec_to_dict,
    all_or_nothing,
    make_snapshot,
    open_snapshot,
    parse_aec,
)
from wargym.envs.snapshot import check_keys as state_keys
from wargym.rules.dice import RandomDice
from wargym.rules.errors import short_repr
from wargym.rules.events import Event
from wargym.rules.no_quarter.state import Battle
from wargym.rules.no_quarter.vocab import Side

from .arguments import check_skirmish_config
from .snapshots import CORE_KEYS, apply_core, core_config, core_state, parse_core
from .solo import MAX_REDRAWS, SHAPING_TERMS, SkirmishCore, _outcome

if TYPE_CHECKING:
    from .parallel import NoQuarterParallel

AGENTS = ("blue", "red")
"""PettingZoo agent names: the two sides."""
SIDES = {"blue": Side.BLUE, "red": Side.RED}


class HeadToHeadCore(SkirmishCore, SidesAsAgents):
    """What the AEC and Parallel envs share: set-up, spaces, infos, rewards, ``state()``."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "no_quarter_v0",
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
            agent: step_info(
                self._agent_mask(agent),
                visible[SIDES[agent]],
                agent in illegal,
                turn=battle.turn,
                decision=(
                    decision.kind.value
                    if decision is not None and decision.side is SIDES[agent]
                    else None
                ),
                outcome=_outcome(battle),
            )
            for agent in AGENTS
        }

    def _agent_mask(self, agent: str) -> np.ndarray:
        return self._mask_for(SIDES[agent])

    def _agent_obs(self, agent: str) -> dict[str, Any]:
        return {
            "observation": self.encoder.encode(
                self.battle, SIDES[agent], self._seen.get(SIDES[agent])
            ),
            "action_mask": self._agent_mask(agent),
        }

    def _rewards(self, infos: dict[str, dict[str, Any]]) -> dict[str, float]:
        return {
            agent: self._shaped(infos[agent]["events"], SIDES[agent]) + self._terminal(SIDES[agent])
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
        battle = self.battle
        parts = []
        for side in (Side.BLUE, Side.RED):
            everyone = frozenset(m.id for m in battle.mechs_of(side.other))
            obs = self.encoder.encode(battle, side, everyone)
            if isinstance(obs, dict):
                obs = np.concatenate([np.asarray(v, np.float32).ravel() for v in obs.values()])
            parts.append(obs)
        return np.concatenate(parts)


class NoQuarterAEC(HeadToHeadCore, AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """Turn-based head-to-head: the deciding side acts (module docstring)."""

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        illegal_action: str = "noop",
        illegal_penalty: float = -0.01,
        **config: Any,
    ) -> None:
        super().__init__()
        self._setup_pz(render_mode, illegal_action, illegal_penalty, config)
        self.agent_selection = AGENTS[0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new battle; ``seed`` fixes set-up and dice."""
        infos = self._start_battle(seed)
        self._reset_bookkeeping(AGENTS)
        self.infos = infos
        self.agent_selection = self._selected() or AGENTS[0]

    def _pz_state(self) -> dict[str, Any]:
        return aec_to_dict(self)

    def load_state(self, data: Mapping[str, Any]) -> None:
        """Restore a :meth:`save_state` snapshot exactly (``agent_selection``, infos, ...).

        Observations come from :meth:`observe` afterwards, as after ``reset``. The env must
        have been built with the same arguments (a fresh env needs no ``reset`` first).

        Raises:
            StateError: wrong format or version, another env class or configuration, a
                changed snapshot (digest) or malformed state; the message names the field.
                The env is unchanged.
        """
        state, commit = self._open_pz(data, AEC_KEYS)
        bookkeeping = parse_aec(state, AGENTS, self.codec.n)
        with all_or_nothing(self, self.encoder):
            commit()
            bookkeeping(self)
            for agent in AGENTS:
                self.observe(agent)  # what the agents see next must work

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent``'s side may know; its mask is zero unless it decides now."""
        self._require_reset("observe()")
        return self._agent_obs(check_choice("agent", agent, SIDES))

    def step(self, action: int | None) -> None:
        """Play the selected side's decision (``None`` only for a finished agent)."""
        self._require_reset("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._begin_step(agent)
        battle = self.battle
        if not mask_allows(self._agent_mask(agent), action):
            decision = battle.decision
            kind = "none" if decision is None else decision.kind.value
            index = -1 if action is None else action_index(action)
            reward, ended = self._resolve_illegal(
                f"{agent}: action {short_repr(action)} ({self.codec.describe(index, battle)}) "
                "is not legal "
                f"at the {kind} decision"
            )
            self.infos = self._infos(battle, [], {agent})
            self.rewards[agent] = reward
            if ended:
                self._end_all(truncated=False)
            self._accumulate_rewards()
            return
        before = battle.clone()
        index = action_index(action)
        events = self._play(self.codec.decode(index, battle), agent, index)
        self.infos = self._infos(before, events, set())
        self.rewards = self._rewards(self.infos)
        if battle.over:
            self._end_all(truncated=False)
        self._accumulate_rewards()
        self.agent_selection = self._selected() or agent


def env(**kwargs: Any) -> NoQuarterAEC:
    """The AEC env (PettingZoo convention)."""
    return NoQuarterAEC(**kwargs)


def parallel_env(**kwargs: Any) -> NoQuarterParallel:
    """The Parallel env (PettingZoo convention)."""
    from .parallel import NoQuarterParallel

    return NoQuarterParallel(**kwargs)
