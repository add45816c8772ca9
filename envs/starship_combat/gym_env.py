"""Gymnasium env: you command side 0 against the scripted captain (``captain.py`` tactics).

``wargym/StarshipCombat-Duel-v0``. Each step answers one order decision of side 0 (heading,
thrust, flicker, fire allocations, boarding); once side 0's orders are complete the captain
plots side 1 and the round resolves (TR-R3). ``scenario`` selects a fleet set-up by keyword
(``duel``, ``fleet``, ``duel_kestrel``, ``strike``).

* Observation: ``Dict{"observation": Box(float32), "action_mask": Box(0, 1, (n,), int8)}``.
* Action: ``Discrete(n)`` through :class:`~wargym.envs.starship_combat.encoding.ActionCodec`.
  The mask is also in ``info["action_mask"]`` and from :meth:`action_masks` (bool).
* Reward: +1 win, -1 loss, 0 draw or truncation (D-13). An illegal action is a no-op with
  reward ``illegal_penalty`` (default -0.1) and ``info["illegal_action"] = True`` (policy
  ``"penalty"``, the default, or its alias ``"noop"``); with ``illegal_action="raise"`` it
  raises, with ``"terminate"`` the episode ends with the penalty (see
  :class:`wargym.envs.base.IllegalActionHandling`).
* ``info["events"]``: the rules' events as dicts, dice included (enemy movement hidden by fog).
* Render modes ``ansi`` and ``rgb_array``.
* Bad input: ``options`` must be an :class:`Options` or a dict of its fields, and
  ``render_mode`` a supported mode (:class:`~wargym.envs.base.EnvArgumentError`, naming the
  argument or field); an action that is no integer index raises
  :class:`~wargym.envs.base.InvalidActionError` whatever the policy.

## Version History

* v0: initial version.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from wargym.envs.base import (
    MaskedEnvMixin,
    action_index,
    check_render_mode,
    mask_allows,
    masked_observation_space,
    render_frame,
    step_info,
)
from wargym.envs.pentagon_war.checks import check_options
from wargym.envs.pentagon_war.encoding import event_dict
from wargym.envs.starship_combat.encoding import (
    MaskCache,
    default_codec,
    encode_observation,
    obs_size,
    render_ansi,
    render_rgb,
)
from wargym.rules.dice import RandomDice
from wargym.rules.errors import short_repr
from wargym.rules.events import Event
from wargym.rules.starship_combat import captain, game
from wargym.rules.starship_combat.state import BattleState, Options

AGENT_SIDE = 0
OBS_BOUND = 2.0
"""Every observation value lies in [-2, 2]."""
MAX_ROUNDS = 100
"""Largest ``options.max_rounds`` (the truncation round; the table's value is 30)."""


def make_options(options: Options | dict[str, Any] | None) -> Options:
    """Options from an :class:`Options`, a dict of its fields, or None (the rulings).

    Raises:
        EnvArgumentError: ``options`` of another type, an unknown field (named) or a field of
            a wrong type or range (``max_rounds``: an integer in 0..:data:`MAX_ROUNDS`, 0
            taking the table's 30 rounds).
    """
    return check_options("options", options, Options, Options(), high={"max_rounds": MAX_ROUNDS})


def visible_events(state: BattleState, events: list[Event], viewer: int) -> list[dict[str, Any]]:
    """Events as dicts, without enemy movement, orders and detection under fog of war."""
    if not events:
        return []
    out = []
    seen = set(state.detected.get(viewer, []))
    for event in events:
        data = event_dict(event)
        if state.options.sensors:
            ship = data.get("ship", data.get("observer"))
            if (
                data["type"] in ("ShipMoved", "OrdersRevealed", "DetectionRolled")
                and ship is not None
                and state.ship(ship).side != viewer
                and (data["type"] == "DetectionRolled" or ship not in seen)
            ):
                continue
        out.append(data)
    return out


class StarshipCombatDuelEnv(MaskedEnvMixin, gymnasium.Env[dict[str, np.ndarray], int]):
    """Side 0 against the scripted captain (module docstring)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        render_mode: str | None = None,
        scenario: str = "duel",
        options: Options | dict[str, Any] | None = None,
        illegal_action: str = "penalty",
        illegal_penalty: float = -0.1,
    ) -> None:
        self._set_illegal_policy(illegal_action, illegal_penalty)
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.scenario = scenario
        self.rule_options = make_options(options)
        self.codec = default_codec()
        self.action_space = spaces.Discrete(self.codec.n)  # type: ignore[assignment]
        self.observation_space = masked_observation_space(  # type: ignore[assignment]
            obs_size(self.codec), OBS_BOUND, self.codec.n
        )
        self._state = game.new_battle(scenario, self.rule_options)
        self._dice = RandomDice(np.random.default_rng(0))
        self._masks = MaskCache(self.codec)

    @property
    def state(self) -> BattleState:
        """The engine state (read it; do not write)."""
        return self._state

    def _is_ready(self) -> bool:
        return self._was_reset  # the battle exists from construction on

    def _mask_now(self) -> np.ndarray:
        """Side 0's mask (shared: copy before handing it out)."""
        return self._masks.get(self._state, AGENT_SIDE)

    def _obs(self) -> dict[str, np.ndarray]:
        return {
            "observation": encode_observation(self._state, AGENT_SIDE, self.codec),
            "action_mask": self._mask_now().copy(),
        }

    def _captain(self) -> list[Event]:
        events: list[Event] = []
        while not self._state.over and game.decision(self._state, AGENT_SIDE) is None:
            side = 1 - AGENT_SIDE
            events.extend(game.play(self._state, side, captain.choose(self._state, side),
                                    self._dice))  # fmt: skip
        return events

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a new battle; setup and dice streams are spawned from ``np_random``."""
        super().reset(seed=seed)
        _setup_rng, dice_rng = self.np_random.spawn(2)
        self._dice = RandomDice(dice_rng)
        self._state = game.new_battle(self.scenario, self.rule_options)
        self._was_reset = True
        events = self._captain()
        obs = self._obs()
        info = step_info(
            obs["action_mask"].copy(), visible_events(self._state, events, AGENT_SIDE), False
        )
        return obs, info

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Answer the current decision of side 0 with ``action``.

        Raises:
            InvalidActionError: ``action`` is no integer index (whatever the policy).
            NotResetError: before the first ``reset``.
        """
        self._require_reset("step()")
        illegal = not mask_allows(self._mask_now(), action)
        events: list[Event] = []
        reward = 0.0
        terminated = truncated = False
        if illegal:
            reward, terminated = self._resolve_illegal(
                f"action {short_repr(action)} is not legal now"
            )
        else:
            decoded = self.codec.decode(action_index(action), self._state, AGENT_SIDE)
            assert decoded is not None
            events = game.play(self._state, AGENT_SIDE, decoded, self._dice)
            events.extend(self._captain())
            result = game.outcome(self._state)
            if result is not None:
                if result.termination is game.Termination.TRUNCATED:
                    truncated = True
                else:
                    terminated = True
                    if result.winner is not None:
                        reward = 1.0 if result.winner == AGENT_SIDE else -1.0
        obs = self._obs()
        info = step_info(
            obs["action_mask"].copy(), visible_events(self._state, events, AGENT_SIDE), illegal
        )
        return obs, reward, terminated, truncated, info

    def _mask(self) -> np.ndarray:
        return self._mask_now().copy()

    def render(self) -> str | np.ndarray | None:
        """ANSI text or an RGB array of the hex map."""
        return render_frame(self.render_mode, self._state, render_ansi, render_rgb)

    # -- snapshots -----------------------------------------------------------------------
    def save_state(self) -> dict[str, Any]:
        """A JSON-compatible snapshot (docs/encodings.md, "Env snapshots").

        Holds the format tag and version, the env class and configuration, the battle
        (``BattleState.to_dict``), the dice generator's state and ``np_random`` (the
        scripted captain holds none).
        """
        from wargym.envs.space_snapshots import GYM, sc_save

        return sc_save(self, GYM)

    def load_state(self, data: dict[str, Any]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Restore a :meth:`save_state` snapshot exactly; returns the observation and info.

        Raises:
            StateError: wrong format or version, another env class or configuration, a
                changed snapshot (digest) or malformed state (named); the env is unchanged.
        """
        from wargym.envs.space_snapshots import GYM, sc_load

        result: tuple[dict[str, np.ndarray], dict[str, Any]] = sc_load(self, GYM, data)
        self._was_reset = True
        return result
