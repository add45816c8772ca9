"""PettingZoo AEC env: No Quarter head-to-head, the two sides as agents ``blue`` and ``red``.

``agent_selection`` is the side at the engine's current decision point, so a reaction
decision (a Star's Free Will, a defender's melee declaration, a free In Sight move of the
other side) hands the turn to the reacting side in the middle of the other's activation.
Each agent observes from its own side only ("nq-obs-v3"); the mask of the agent that is not
selected is all zero. Rewards are terminal (+1/-1/0), plus optional shaping terms. Spaces,
illegal-action policies, ``info`` keys (``info_events=True`` adds each side's visible
``"events"``), rendering and replays are those of
:class:`~wargym.envs.no_quarter.solo.NoQuarterSkirmishEnv`; under ``illegal_action=
"terminate"`` the offender gets -1 and the other side 0, as in PettingZoo's classic envs.
``state()`` gives both sides' observations without fog of war, for centralised critics.
The keywords are the skirmish env's but ``opponent`` (``backend="native"``: the battle plays
in the native core, the same episode for the same seed; docs/native.md).

``env(**kwargs)`` builds :class:`NoQuarterAEC`, ``parallel_env(**kwargs)`` builds
:class:`~wargym.envs.no_quarter.parallel.NoQuarterParallel`. Both stand on
:class:`~.head_to_head.HeadToHeadCore` (re-exported here with :data:`AGENTS` and :data:`SIDES`).

## Version History

* v0: initial version (nq-obs-v1, nq-act-v1).
* v1: the rules' new decisions (issue 15: facing and twist, group orders,
  Lucky, Marksman) grow the layouts (nq-obs-v3, nq-act-v2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo import AECEnv

from wargym.envs.base import action_index, check_choice, mask_allows
from wargym.envs.snapshot import AEC_KEYS, aec_to_dict, all_or_nothing, parse_aec
from wargym.rules.errors import short_repr

from .head_to_head import AGENTS, SIDES, HeadToHeadCore
from .parallel import NoQuarterParallel


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
                f"{agent}: action {short_repr(action)} ({self._describe(index)}) "
                "is not legal "
                f"at the {kind} decision"
            )
            self.infos = self._infos(battle, [], {agent})
            self.rewards[agent] = reward
            if ended:
                self._end_all(truncated=False)
            self._accumulate_rewards()
            return
        before, events = self._decide(action_index(action), agent)
        self.infos = self._infos(before, events, set())
        self.rewards = self._rewards()
        if battle.over:
            self._end_all(truncated=False)
        self._accumulate_rewards()
        self.agent_selection = self._selected() or agent


def env(**kwargs: Any) -> NoQuarterAEC:
    """The AEC env (PettingZoo convention)."""
    return NoQuarterAEC(**kwargs)


def parallel_env(**kwargs: Any) -> NoQuarterParallel:
    """The Parallel env (PettingZoo convention)."""
    return NoQuarterParallel(**kwargs)


__all__ = [
    "AGENTS",
    "SIDES",
    "HeadToHeadCore",
    "NoQuarterAEC",
    "NoQuarterParallel",
    "env",
    "parallel_env",
]
