"""Gymnasium env: the agent commands blue against the rules' non-player AI (No Quarter).

The env stands on :class:`~.core.SkirmishCore` (set-up, codec, encoder, visibility, rewards,
rendering, replays), which the PettingZoo and mission envs share. Names that lived here
before the core was split out are re-exported (:class:`SkirmishCore`, :data:`SHAPING_TERMS`,
:func:`make_advisor`, :func:`write_json_atomic`, :func:`render_ansi`, ...), and so are red's
players of :mod:`.opponents` (:func:`make_opponent`, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from wargym.envs.base import (
    MaskedEnvMixin,
    action_index,
    check_render_mode,
    mask_allows,
    step_info,
)
from wargym.rules.dice import RandomDice
from wargym.rules.errors import short_repr
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.vocab import Side

from .arguments import check_skirmish_config
from .backends import opponent_native
from .core import (
    FOG_UNSEEN_BASES,
    MAX_REDRAWS,
    REPLAY_VERSION,
    SHAPING_TERMS,
    BattleFactory,
    SkirmishCore,
    make_advisor,
    write_json_atomic,
)
from .opponents import Agent, OpponentSeat, make_opponent
from .render import outcome_info, render_ansi, render_rgb
from .setup_log import visible_setup_events, with_setup_events
from .snapshots import battle_env_load, battle_env_save

_outcome = outcome_info  # the name the envs used before the core was split out


class NoQuarterSkirmishEnv(SkirmishCore, MaskedEnvMixin, gymnasium.Env[dict[str, Any], np.int64]):
    """No Quarter skirmish: the agent commands blue against the rules' NP AI.

    ## Description

    Two forces of pre-generated mechs (Teams of three) deploy on opposite edges of a
    generated 36" x 36" battlefield and fight with the *5150: No Quarter* rules
    (``wargym.rules.no_quarter``). The agent answers every decision of the blue side; red is
    played by the rules' non-player procedure (§22.4, :func:`.opponents.rules_opponent`) or
    by any object with ``act(observation, action_mask) -> int``.

    ## Action Space

    ``Discrete(n)``, layout "nq-act-v2" (:class:`.codec.ActionCodec`, docs/encodings.md):
    index 0 is *wait* (never legal here); the other blocks are group activation, mech
    choice, fire first, stay with a heading, moves by direction x fraction (forward, jump,
    reverse), charge, weapon-to-target assignments, melee and building attacks. The exact
    mask is ``obs["action_mask"]``, ``info["action_mask"]`` and :meth:`action_masks`.

    ## Observation Space

    ``Dict({"observation": Box(-1, 1, (size,), float32), "action_mask": Box(0, 1, (n,),
    int8)})``, layout "nq-obs-v3" (:class:`.encoding.ObservationEncoder`): planes of the
    table, a per-unit table (own mechs, enemies in sight only) and global features, seen
    from blue. ``flatten=False`` gives ``observation`` as a ``Dict`` of the parts.

    ## Rewards

    +1 win, -1 loss, 0 draw, at the end. Optional ``reward_shaping`` terms (default 0), see
    :data:`SHAPING_TERMS`, computed from the events the agent may know. An illegal action
    under ``"noop"`` returns ``illegal_penalty`` (default -0.01).

    ## Starting State

    Random designs of each faction, pilots rolled with the dice, a generated battlefield;
    the first turn's activation dice are rolled and red may already have acted.

    ## Episode End

    Terminated when a side is eliminated or after ``max_turns`` turns (a draw, ruling D37),
    or by an illegal action under ``illegal_action="terminate"`` (reward -1). Registration
    adds a ``TimeLimit`` as a safety net against agents stalling with illegal actions.

    ## Arguments

    ``factions`` (blue, red), ``mechs_per_side``, ``stars``, ``max_turns``,
    ``battle_options`` and ``rules_options`` (dicts of every ``BattleOptions`` /
    ``RulesOptions`` field), ``opponent`` ("rules", "random" or an agent object),
    ``reward_shaping``, ``illegal_action`` ("noop", "raise", "terminate"),
    ``illegal_penalty``, ``max_mechs``, ``max_weapons``, ``max_buildings``, ``cell``,
    ``flatten``, ``mirror``, ``action_features`` (append the per-action feature block
    "nq-af-v1", docs/encodings.md), ``advisor`` (with ``action_features``: an advisor class
    or factory, e.g. ``TacticalAdvisor`` of agents/advisor.py, whose advice rows extend the
    block), ``battle_factory`` and ``markers`` (mission hooks),
    ``render_mode`` ("ansi", "rgb_array"), ``info_events`` (default ``False``: ``info`` has
    no ``"events"`` and no event dict is built; ``True`` adds the events blue may know,
    docs/events.md), ``backend`` (``"native"``: the C++ core, same observations, masks,
    rewards and infos for the same seed, same snapshots and replays, generated skirmishes
    only; ``"python"``: the reference engine; ``"auto"``, the default: native unless a
    ``battle_factory``, ``slots`` or ``markers`` hook is given; docs/native.md). Every
    keyword is checked before anything is built: :class:`~wargym.envs.base.EnvArgumentError`
    names it and its range (:mod:`.arguments`).

    ## Snapshots

    :meth:`save_state` returns a JSON-compatible dict (the battle, the replay so far, the
    dice, opponent and ``np_random`` generators, the NP memory and the enemies-in-sight sets);
    :meth:`load_state` restores it exactly into an env built with the same arguments, so the
    same actions then give the same observations, rewards and infos (docs/encodings.md).

    ## Version History

    * v0: initial version (nq-obs-v1, nq-act-v1).
    * v1: the rules' new decisions (issue 15: facing and twist, group orders,
      Lucky, Marksman) grow the layouts (nq-obs-v3, nq-act-v2).
    """

    terminate_reward = -1.0
    mission_snapshot = False
    """Whether the snapshot holds the mission parts (:mod:`.snapshots`; the mission envs)."""

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        opponent: str | Agent = "rules",
        illegal_action: str = "noop",
        illegal_penalty: float = -0.01,
        **config: Any,
    ) -> None:
        check_render_mode(render_mode, self.metadata["render_modes"])
        terms = tuple(config.get("shaping_terms", SHAPING_TERMS))
        check_skirmish_config(config, terms, skirmish=self.strict_slots)
        self._configure(render_mode=render_mode, **config)
        self._set_illegal_policy(illegal_action, illegal_penalty)
        self.opponent_spec = opponent
        self._opponent: OpponentSeat = make_opponent(opponent, self, np.random.default_rng(0))
        self.action_space = spaces.Discrete(self.codec.n)
        self.observation_space = self.obs_space

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a new battle; set-up, dice and opponent draw from independent streams.

        A battle that ends before blue's first decision (red used up the turn limit) is
        drawn again from the next streams of the same seed.
        """
        super().reset(seed=seed)
        self._seed = seed
        for _ in range(MAX_REDRAWS):
            setup_rng, dice_rng, opp_rng = self.np_random.spawn(3)
            self._opponent = make_opponent(self.opponent_spec, self, opp_rng)
            dice = RandomDice(dice_rng)
            self._battle = None
            events = self._new_battle(setup_rng, dice)
            assert self._start is not None
            before = self._start.clone()
            events += self._opponent_plays()
            if not self.battle.over:
                break
        obs, info = self._finish(before, events, None, fresh=True)
        if self._native and self._setup_events and self.info_events:
            start = self._reference(self._start)
            setup = visible_setup_events(start, self._setup_events, Side.BLUE)
            info["events"] = setup + info["events"]
            return obs, info
        return with_setup_events(self, obs, info)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play one blue decision, then red's until blue decides again or the battle ends."""
        self._require_reset("step()")
        battle = self.battle
        mask = self._mask_for(Side.BLUE)
        if battle.over:
            obs, info = self._finish(battle, [], False)
            return obs, 0.0, True, False, info
        if not mask_allows(mask, action):
            decision = battle.decision
            kind = "none" if decision is None else decision.kind.value
            index = None if action is None else action_index(action)
            what = "no action" if index is None else self._describe(index)
            reward, ended = self._resolve_illegal(
                f"action {short_repr(action)} ({what}) is not legal at the {kind} decision of blue"
            )
            self._log.append({"agent": "blue", "index": index, "action": None, "events": []})
            obs, info = self._finish(battle, [], True)
            return obs, reward, ended, False, info
        before, events = self._decide(action_index(action), "blue")
        events += self._opponent_plays()
        obs, info = self._finish(before, events, False)
        reward = self._shaped(self._visible[Side.BLUE], Side.BLUE) + self._terminal(Side.BLUE)
        return obs, reward, battle.over, False, info

    def _mask(self) -> np.ndarray:
        return self._mask_for(Side.BLUE)

    def _opponent_plays(self) -> list[Event]:
        battle = self.battle
        events: list[Event] = []
        while not battle.over and battle.decision is not None and battle.decision.side is Side.RED:
            if self._native:
                choice, index = opponent_native(self, battle)
            else:
                choice, index = self._opponent(battle)
            events += self._play(choice, "red", index)
        return events

    def _finish(
        self, before: Battle, events: list[Event], illegal: bool | None, fresh: bool = False
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        battle = self.battle
        visible = self._filter(before, events, [Side.BLUE], fresh)[Side.BLUE]
        obs = self._observe(Side.BLUE)
        decision = battle.decision
        info = step_info(
            obs["action_mask"],
            visible,
            illegal,
            turn=battle.turn,
            decision=None if decision is None or battle.over else decision.kind.value,
        )
        outcome = outcome_info(battle)
        if outcome is not None:  # absent while running: vector envs merge infos per key
            info["outcome"] = outcome
        return obs, self._with_events(info)

    # -- snapshots -------------------------------------------------------------------------
    def save_state(self) -> dict[str, Any]:
        """A JSON-compatible snapshot of the episode (docs/encodings.md, "Env snapshots").

        Holds the format tag and version, the env class and configuration, the battle
        (``Battle.to_dict``), the replay's set-up battle and decision log, the states of the
        dice, opponent and ``np_random`` generators, red's NP memory (``NpContext``), the
        seed and the enemies-in-sight sets (missions: also the sighting order, the recon
        sections rewarded, ``auto_played``). An agent opponent's own state is not included.

        Raises:
            RuntimeError: before the first ``reset``.
            StateError: the dice are not ``RandomDice`` (a ``dice_factory`` test hook).
        """
        return battle_env_save(self)

    def load_state(self, data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Restore a :meth:`save_state` snapshot exactly; returns the observation and info.

        The info is that of ``reset`` (no events). The env must have been built with the same
        arguments as the one that saved (a fresh env needs no ``reset`` first).

        Raises:
            StateError: wrong format or version, another env class or configuration, a
                changed snapshot (digest) or malformed state; the message names the field.
                The env is unchanged.
        """
        battle_env_load(self, data)
        return self._finish(self.battle.clone(), [], None)


__all__ = [
    "FOG_UNSEEN_BASES",
    "MAX_REDRAWS",
    "REPLAY_VERSION",
    "SHAPING_TERMS",
    "Agent",
    "BattleFactory",
    "NoQuarterSkirmishEnv",
    "OpponentSeat",
    "SkirmishCore",
    "make_advisor",
    "make_opponent",
    "render_ansi",
    "render_rgb",
    "write_json_atomic",
]
