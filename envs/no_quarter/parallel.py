"""PettingZoo Parallel env: No Quarter head-to-head, both sides answer every step.

Each step both agents (``blue``, ``red``) give an action. The side at the current decision
point plays one decision; the other side has nothing to decide and its only legal action is
*wait*, index 0 (:data:`~wargym.envs.no_quarter.codec.WAIT`): its mask is ``[1, 0, 0, ...]``.
Any other action from it, or an illegal action from the deciding side, follows the
illegal-action policy (default: nothing happens, ``illegal_penalty`` for the offender,
``info[agent]["illegal_action"] = True``). Observations, rewards, infos, rendering,
replays, snapshots (``save_state`` / ``load_state``) and keywords (``backend`` included) are
those of :class:`~wargym.envs.no_quarter.aec.NoQuarterAEC`; both stand on
:class:`~.head_to_head.HeadToHeadCore`.

## Version History

* v0: initial version (nq-obs-v1, nq-act-v1; wait = index 0).
* v1: the rules' new decisions (issue 15: facing and twist, group orders,
  Lucky, Marksman) grow the layouts (nq-obs-v3, nq-act-v2; wait = index 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from pettingzoo import ParallelEnv

from wargym.envs.base import InvalidActionError, action_index, mask_allows
from wargym.envs.snapshot import agents_from, all_or_nothing
from wargym.rules.errors import short_repr

from .codec import WAIT
from .head_to_head import AGENTS, SIDES, HeadToHeadCore


class NoQuarterParallel(HeadToHeadCore, ParallelEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """Simultaneous head-to-head: the deciding side acts, the other waits (module docstring)."""

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        illegal_action: str = "noop",
        illegal_penalty: float = -0.01,
        **config: Any,
    ) -> None:
        self._setup_pz(render_mode, illegal_action, illegal_penalty, config)

    def _agent_mask(self, agent: str) -> np.ndarray:
        mask = self._mask_for(SIDES[agent])
        if not self.battle.over and not mask.any():
            mask[WAIT] = 1
        return mask

    def load_state(
        self, data: Mapping[str, Any]
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        """Restore a :meth:`save_state` snapshot exactly; returns observations and infos.

        As after ``reset``, the infos carry no events. The env must have been built with the
        same arguments (a fresh env needs no ``reset`` first).

        Raises:
            StateError: wrong format or version, another env class or configuration, a
                changed snapshot (digest) or malformed state; the message names the field.
                The env is unchanged.
        """
        state, commit = self._open_pz(data, ("agents",))
        agents = agents_from("state.agents", state["agents"], AGENTS)
        with all_or_nothing(self, self.encoder):
            commit()
            self.agents = agents
            infos = self._infos(self.battle.clone(), [], set())
            return {a: self._agent_obs(a) for a in AGENTS}, infos

    def _pz_state(self) -> dict[str, Any]:
        return {"agents": list(self.agents)}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        """Start a new battle; ``seed`` fixes set-up and dice."""
        infos = self._start_battle(seed)
        self.agents = list(AGENTS)
        self._was_reset = True
        return {a: self._agent_obs(a) for a in AGENTS}, infos

    def step(self, actions: dict[str, int]) -> tuple[
        dict[str, dict[str, Any]], dict[str, float], dict[str, bool], dict[str, bool],
        dict[str, dict[str, Any]],
    ]:  # fmt: skip
        """The deciding side plays its action; the other side must wait."""
        self._require_reset("step()")
        battle = self.battle
        if not isinstance(actions, Mapping):
            raise InvalidActionError(
                f"actions must be a dict of agent -> action, got {type(actions).__name__}"
            )
        unknown = sorted(short_repr(a, 40) for a in actions if a not in AGENTS)
        if unknown:
            raise InvalidActionError(
                f"actions for unknown agents {short_repr(unknown)}; agents: {AGENTS}"
            )
        rewards = dict.fromkeys(AGENTS, 0.0)
        illegal: set[str] = set()
        ended = False
        for agent in AGENTS:
            action = actions.get(agent)
            if not mask_allows(self._agent_mask(agent), action):
                illegal.add(agent)
                index = -1 if action is None else action_index(action)
                penalty, stop = self._resolve_illegal(
                    f"{agent}: action {short_repr(action)} is not legal now "
                    f"({self._describe(index)})"
                )
                rewards[agent] += penalty
                ended = ended or stop
        deciding = self._selected()
        if ended or deciding is None or deciding in illegal:
            infos = self._infos(battle, [], illegal)
        else:
            before, events = self._decide(int(actions[deciding]), deciding)
            infos = self._infos(before, events, illegal)
            for agent, reward in self._rewards().items():
                rewards[agent] += reward
        done = ended or battle.over
        observations = {a: self._agent_obs(a) for a in AGENTS}
        terminations = dict.fromkeys(AGENTS, done)
        truncations = dict.fromkeys(AGENTS, False)
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos
