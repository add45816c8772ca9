"""Gymnasium env: one episode is a whole No Quarter campaign, Cestus V by default (§23, §24, §27).

:class:`NoQuarterCampaignEnv` (``wargym/NoQuarter-CestusV-v1``) drives a
:class:`~.campaign_play.CampaignGame`: between missions the agent takes
the campaign decisions (pilots, the force), during a mission it answers every decision of the
player's side while the rules play the NP side inside the engine (§22.4). Battles reuse the
mission env's pieces: the action codec "nq-act-v2" (:class:`.codec.ActionCodec`), the
observation "nq-obs-v4" (:class:`.mission_encoding.MissionObservationEncoder`), the sighting
order of enemy slots and the fog-of-war event filter (:func:`.encoding.filter_events`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from wargym.envs.base import (
    EnvArgumentError,
    MaskedEnvMixin,
    action_index,
    check_choice,
    check_observation_size,
    check_render_mode,
    mask_allows,
    step_info,
)
from wargym.rules.dice import Dice, RandomDice
from wargym.rules.errors import IllegalActionError, short_repr
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import game as battle_game
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.campaigns.campaign import CampaignDefinition, load_definition
from wargym.rules.no_quarter.campaigns.campaign_events import (
    CAMPAIGN_EVENT_CLASSES,
    CampaignEnded,
    MissionFinished,
    MissionLaunched,
)
from wargym.rules.no_quarter.campaigns.campaign_play import AnyAction, CampaignGame
from wargym.rules.no_quarter.campaigns.campaign_rules import CampaignRulesOptions
from wargym.rules.no_quarter.forces.vocab import Faction, Side
from wargym.rules.no_quarter.non_player.enemy import NpContext
from wargym.rules.serial import to_jsonable

from .arguments import check_campaign_config
from .campaign_encoding import (
    CAMPAIGN_VERSION,
    CampaignActionCodec,
    CompanySlots,
    campaign_features,
    campaign_size,
    roster_text,
)
from .codec import ActionCodec
from .encoding import filter_events, visible_enemies
from .mission_encoding import MissionObservationEncoder, SightingOrder
from .opponents import Agent, make_opponent
from .render import campaign_rgb
from .setup_log import visible_setup_events
from .solo import FOG_UNSEEN_BASES, render_ansi

CAMPAIGN_SHAPING_TERMS = ("mission_success", "mission_failure")
"""Optional reward terms (0 by default): ``+mission_success`` per mission won and
``-mission_failure`` per mission failed (``MissionFinished``, §23.5)."""
DEFAULT_MAX_MECHS = 40
"""Battle mech slots per side: a Cestus V force goes up to 36 Company Mechs (§27.3)."""
OPPONENTS = ("rules", "scripted", "random")
"""Who may sit in the NP seat besides an agent object ("rules": the engine's NP procedure)."""
DiceFactory = Callable[[np.random.Generator], Dice]
"""Builds the campaign's dice from the reset's dice stream (tests and analysis)."""


def build_definition(
    campaign: str | os.PathLike[str] | CampaignDefinition,
    *,
    max_turns: int | None = None,
    max_missions: int | None = None,
    rules_options: Mapping[str, Any] | None = None,
) -> CampaignDefinition:
    """A campaign definition with keyword overrides (§23, §27).

    Args:
        campaign: a shipped name (``"cestus_v"``, ``"generic"``), a YAML path or a definition.
        max_turns: the turn limit of every mission (replaces the missions' own limits).
        max_missions: end the campaign after this many missions; the higher Campaign
            Morale then wins (decision 47).
        rules_options: fields of ``CampaignRulesOptions`` (§23 readings) to override.
    """
    if isinstance(campaign, CampaignDefinition):
        d = campaign
    else:
        d = load_definition(Path(campaign) if isinstance(campaign, os.PathLike) else campaign)
    if max_turns is not None:
        if max_turns < 1:
            raise ValueError(f"max_turns must be >= 1: {max_turns}")
        slots = tuple(dataclasses.replace(s, turn_limit=int(max_turns)) for s in d.missions)
        d = dataclasses.replace(d, missions=slots)
    if max_missions is not None:
        d = dataclasses.replace(d, max_missions=int(max_missions))
    if rules_options:
        d = dataclasses.replace(d, rules=dataclasses.replace(d.rules, **dict(rules_options)))
    d.check()
    return d


class NoQuarterCampaignEnv(MaskedEnvMixin, gymnasium.Env[dict[str, Any], np.int64]):
    """A whole No Quarter campaign: the agent commands the Company against the rules' NP side.

    ## Description

    One episode is the whole campaign of a definition (default Cestus V, ten missions in the
    printed order, §27). Between missions the agent gives spare pilots to Mechs (§23.9.4) and
    picks the Company Mechs for the next mission within its force limit (§23.2); during a
    mission it answers every decision of the player's side (blue) while the rules play the
    NP side inside the engine (PEFs, NP tactics, reinforcements, weather: §20, §22). After
    each mission the campaign changes Campaign Morale (§23.5), checks the end (§23.3.1),
    plays the aftermath (pilots, Rep, repairs, replacements, §23.9) and goes on.

    ## Action Space

    ``Discrete(B + K)``: indices ``0 .. B-1`` are the battle actions "nq-act-v2" of
    :class:`.codec.ActionCodec` (``max_mechs`` slots per side); ``B .. B+K-1`` the campaign
    block of :class:`.campaign_encoding.CampaignActionCodec`: EndAssignment, LaunchMission,
    SelectMech per roster slot (``max_company``), AssignPilot per spare pilot slot
    (``max_spares``) x roster slot. Only the block of the current phase is ever legal.
    Masks: ``obs["action_mask"]``, ``info["action_mask"]``, :meth:`action_masks`.

    ## Observation Space

    ``Dict({"observation": Box(-1, 1, (size,), float32), "action_mask": Box(0, 1, (n,),
    int8)})``; ``observation`` is the mission observation "nq-obs-v4" (all zero between
    missions) followed by the campaign block "nq-campaign-v1" (phase, mission number, next
    mission, force limit, both Campaign Morales, planet status, results so far, pilot
    counts, a row per roster slot and per spare pilot; docs/encodings.md). Same fog of war
    as the mission env: never the NP secret objective, unresolved PEF contents, NP orders or
    enemies out of sight.

    ## Rewards

    At the end of the campaign: +1 won, -1 lost, 0 drawn (``CampaignEnded``, §23.3.1).
    Optional ``reward_shaping`` terms (:data:`CAMPAIGN_SHAPING_TERMS`, default 0). An
    illegal action under ``"noop"`` returns ``illegal_penalty`` (default -0.01).

    ``info``: ``action_mask``, ``events`` (JSON data), ``illegal_action``, ``phase``,
    ``mission`` (the current or next mission; the number played once over), ``decision``,
    ``player_cm``, ``enemy_cm``, and ``outcome`` once the campaign is over.

    ## Starting State

    The Company with rolled pilots (§24 steps 1-8), at its first campaign decision.

    ## Episode End

    Terminated when the campaign ends (a Campaign Morale at 0, the Company destroyed, the last
    mission played, or ``max_missions`` reached), or by an illegal action under
    ``"terminate"`` (-1). Registration adds a ``TimeLimit`` of 100,000 steps.

    ## Arguments

    ``campaign`` (a shipped name, a YAML path or a ``CampaignDefinition``; default
    ``"cestus_v"``), ``faction`` (the player's side; default the book's), ``carry`` (the
    last campaign's carry-over), ``max_missions``, ``rules_options`` (fields of
    ``CampaignRulesOptions``), ``opponent`` (who sits in the NP seat of every mission:
    ``"rules"``, the default, is the engine's NP procedure, §22.4; ``"scripted"``, ``"random"``
    or an agent object answer the NP side's decisions instead, the agent seeing the battle
    observation of the NP side, while the rules keep running PEFs, reinforcements and
    withdrawals), ``unseen_bases`` (``"bump"``, the envs' fog of war, or ``"block"``; see
    ``BattleOptions``), ``max_turns`` (turn limit of every mission), ``reward_shaping``,
    ``illegal_action`` ("noop", "raise", "terminate"), ``illegal_penalty``, ``max_mechs``,
    ``max_weapons``, ``max_buildings``, ``max_company``, ``max_spares``, ``cell``,
    ``dice_factory`` (test hook), ``render_mode`` ("ansi", "rgb_array"). Ranges (EnvArgumentError
    otherwise): :data:`.arguments.CAMPAIGN_BOUNDS` and ``cell`` 0.25..12.

    ## Snapshots

    :meth:`save_state` returns a JSON-compatible dict: the campaign game
    (``CampaignGame.to_dict``: the campaign, a mission in progress and the set-up generator),
    the dice, NP-side and ``np_random`` generators, the NP memory, the enemies-in-sight sets,
    the sighting order, the roster slots and the decision log; :meth:`load_state` restores it
    exactly into an env built with the same arguments (docs/encodings.md).

    ## Version History

    * v0: initial version (nq-obs-v2 + nq-campaign-v1, nq-act-v1 + campaign block).
    * v1: the rules' new decisions (issue 15: facing and twist, group orders,
      Lucky, Marksman) grow the layouts (nq-obs-v4 + nq-campaign-v1, nq-act-v2 + campaign block).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}
    terminate_reward = -1.0

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        campaign: str | os.PathLike[str] | CampaignDefinition = "cestus_v",
        faction: str | None = None,
        carry: int = 0,
        max_missions: int | None = None,
        rules_options: Mapping[str, Any] | None = None,
        opponent: str | Agent = "rules",
        unseen_bases: str = FOG_UNSEEN_BASES,
        max_turns: int | None = None,
        reward_shaping: Mapping[str, float] | None = None,
        illegal_action: str = "noop",
        illegal_penalty: float = -0.01,
        max_mechs: int = DEFAULT_MAX_MECHS,
        max_weapons: int = 8,
        max_buildings: int = 12,
        max_company: int = 48,
        max_spares: int = 16,
        cell: float = 1.0,
        dice_factory: DiceFactory | None = None,
    ) -> None:
        check_render_mode(render_mode, self.metadata["render_modes"])
        config = dict(locals())  # the keywords, checked against CAMPAIGN_BOUNDS
        check_campaign_config(config, CAMPAIGN_SHAPING_TERMS, CampaignRulesOptions)
        if isinstance(opponent, str) and opponent not in OPPONENTS:
            raise EnvArgumentError(
                f"opponent must be one of {OPPONENTS} or an agent object, "
                f"not {short_repr(opponent)}"
            )
        if not isinstance(opponent, str) and not callable(getattr(opponent, "act", None)):
            raise EnvArgumentError(
                f"opponent must have an act(observation, mask) method: {short_repr(opponent)}"
            )
        self.opponent_spec = opponent
        self.render_mode = render_mode
        self.definition = build_definition(
            campaign, max_turns=max_turns, max_missions=max_missions, rules_options=rules_options
        )
        self.faction = None if faction is None else Faction(faction)
        if self.faction is not None and self.faction not in self.definition.player_factions:
            raise ValueError(f"{self.definition.name}: {faction} is not playable")
        self.carry = carry
        self.unseen_bases = check_choice("unseen_bases", unseen_bases, ("block", "bump"))
        self.shaping = {
            t: float((reward_shaping or {}).get(t, 0.0)) for t in CAMPAIGN_SHAPING_TERMS
        }
        self.dice_factory = dice_factory
        self._set_illegal_policy(illegal_action, illegal_penalty)
        scenarios = [s.load() for s in self.definition.missions]
        options = [sc.battle_options() for sc in scenarios]
        grids = {(o.move_directions, tuple(o.move_fractions)) for o in options}
        if len(grids) != 1:
            raise ValueError(f"the missions' move grids differ {sorted(grids)}: one codec fits all")
        self._order = SightingOrder()
        self.codec = ActionCodec(
            max_mechs, max_weapons, max_buildings, options[0], True, self._order
        )
        self.encoder = MissionObservationEncoder(
            max_mechs,
            max_weapons,
            width=max(sc.width for sc in scenarios),
            height=max(sc.height for sc in scenarios),
            cell=cell,
            max_turns=max(o.max_turns for o in options),
            flatten=True,
            slots=self._order,
        )
        self.slots = CompanySlots(max_company)
        self.max_spares = max_spares
        self.campaign_codec = CampaignActionCodec(self.codec.n, max_company, max_spares)
        self.n = self.codec.n + self.campaign_codec.n
        self.battle_size = self.encoder.size
        check_observation_size(self.battle_size, "cell, max_mechs or max_weapons")
        self.size = self.battle_size + campaign_size(max_company, max_spares)
        self.action_space = spaces.Discrete(self.n)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, (self.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.n,), np.int8),
            }
        )
        self._game: CampaignGame | None = None
        self._dice: Dice = RandomDice(np.random.default_rng(0))
        self._opp_rng = np.random.default_rng(0)
        self._np_context = NpContext()
        self._seen: dict[Side, frozenset[int]] = {}
        self._log: list[dict[str, Any]] = []
        self.auto_played = 0
        """Decisions played for the agent because no legal option fitted the slots."""

    # -- state -------------------------------------------------------------------------------
    @property
    def game(self) -> CampaignGame:
        """The campaign engine state (reset first)."""
        if self._game is None:
            raise RuntimeError("call reset() first")
        return self._game

    @property
    def phase(self) -> str:
        """``battle``, ``assign``, ``select`` or ``over``."""
        return self.game.stage

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a new campaign; set-up, dice and the NP side use separate streams of ``seed``."""
        super().reset(seed=seed)
        setup_rng, dice_rng, self._opp_rng = self.np_random.spawn(3)
        self._dice = self.dice_factory(dice_rng) if self.dice_factory else RandomDice(dice_rng)
        self._game = CampaignGame.start(
            self.definition, self._dice, setup_rng, faction=self.faction, carry=self.carry
        )
        self.slots.reset()
        self._order.reset()
        self._seen, self._log, self.auto_played = {}, [], 0
        out = [dict(e) for e in self.game.campaign.events]
        out += self._advance()
        obs, info = self._finish(out, None)
        return obs, info

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play one decision of the player, then everything up to its next decision."""
        self._require_reset("step()")
        g = self.game
        if g.decider() is None:
            obs, info = self._finish([], False)
            return obs, 0.0, True, False, info
        mask = self._mask()
        if not mask_allows(mask, action):
            index = None if action is None else action_index(action)
            what = "no action" if index is None else self.describe(index)
            reward, ended = self._resolve_illegal(
                f"action {short_repr(action)} ({what}) is not legal at the "
                f"{self._decision_name()} decision of blue"
            )
            self._log.append({"agent": "blue", "index": index, "action": None})
            obs, info = self._finish([], True)
            return obs, reward, ended, False, info
        index = action_index(action)
        chosen: AnyAction
        if g.stage == "battle":
            assert g.battle is not None
            chosen = self.codec.decode(index, g.battle)
        else:
            chosen = self.campaign_codec.decode(index, g, self._slots())
        events = self._play(chosen, "blue", index)
        events += self._advance()
        obs, info = self._finish(events, False)
        reward = self._reward(events)
        return obs, reward, g.decider() is None, False, info

    # -- playing -----------------------------------------------------------------------------
    def _play(self, action: AnyAction, who: str, index: int | None) -> list[dict[str, Any]]:
        """Play through the campaign engine; returns the events the player may know."""
        g = self.game
        battle = g.battle if g.stage == "battle" else None
        before = None if battle is None else battle.clone()
        g.launched = None
        events = g.play(action, self._dice)
        fought = [e for e in events if not isinstance(e, CAMPAIGN_EVENT_CLASSES)]
        out: list[dict[str, Any]] = []
        events_after: list[Event] = []
        if g.launched is not None:  # a mission was set up: its visible set-up events first
            start, setup, ahead = g.launched
            upto = next(i for i, e in enumerate(events) if isinstance(e, MissionLaunched)) + 1
            out += [e.to_dict() for e in events[:upto]]
            events_after = events[upto:]
            out += visible_setup_events(start, setup, Side.BLUE)
            before = start
            self._seen = {Side.BLUE: visible_enemies(start, Side.BLUE)}
            fought = ahead + fought[len(setup) + len(ahead) :]
        if before is not None and fought:
            visible, seen = filter_events(before, fought, [Side.BLUE], self._seen)
            out += visible[Side.BLUE]
            self._seen = seen
            self._order.note(seen)
        rest = events if g.launched is None else events_after
        out += [e.to_dict() for e in rest if isinstance(e, CAMPAIGN_EVENT_CLASSES)]
        if any(isinstance(e, MissionLaunched) for e in events) and g.battle is not None:
            if self.opponent_spec != "rules" and g.battle.np is not None:
                battle_game.seat_np_outside(g.battle)  # the opponent answers the NP side
            if g.battle.options.unseen_bases != self.unseen_bases:  # the env's fog (E5)
                g.battle.options = dataclasses.replace(
                    g.battle.options, unseen_bases=self.unseen_bases
                )
                g.battle.options_cache = g.battle.geometry_cache = None
            self._order.reset()  # a new battle: fresh sightings and NP memory
            self._np_context = NpContext()
            self._seen = {Side.BLUE: visible_enemies(g.battle, Side.BLUE)}
            self._order.note(self._seen)
        self._log.append(
            {
                "agent": who,
                "index": index,
                "action": _action_dict(action),
                "events": events,
            }
        )
        return out

    def _advance(self) -> list[dict[str, Any]]:
        """NP decisions the engine exposes and player decisions no index can express."""
        out: list[dict[str, Any]] = []
        while True:
            g = self.game
            decision = g.decider()
            if decision is None:
                return out
            if g.stage == "battle":
                battle = g.battle
                assert battle is not None
                if decision.side is Side.RED:
                    choice, index, who = self._red(battle)
                    out += self._play(choice, who, index)
                    continue
                if self.codec.mask(battle).any():
                    return out
            elif self._campaign_table():
                return out
            self.auto_played += 1
            out += self._play(g.legal_actions()[0], "auto", None)

    def _red(self, battle: Battle) -> tuple[AnyAction, int | None, str]:
        """The NP seat's answer, its index (an agent's) and who played it (for the log)."""
        if not isinstance(self.opponent_spec, str) and not self.codec.mask(battle).any():
            # no index for this decision of an agent seat: its first legal option
            return battle_game.legal_actions(battle)[0], None, "auto"
        seat = make_opponent(self.opponent_spec, self, self._opp_rng, self._np_context)
        choice, index = seat(battle)
        return choice, index, "red"

    def _slots(self) -> CompanySlots:
        self.slots.update(self.game.campaign)
        return self.slots

    def _campaign_table(self) -> dict[int, Any]:
        g = self.game
        return self.campaign_codec.table(g, self._slots(), g.legal_actions())

    def _mask(self) -> np.ndarray:
        out = np.zeros(self.n, dtype=np.int8)
        g = self.game
        decision = g.decider()
        if decision is None:
            return out
        if g.stage == "battle":
            battle = g.battle
            assert battle is not None
            if decision.side is Side.BLUE:
                out[: self.codec.n] = self.codec.mask(battle)
            return out
        out[list(self._campaign_table())] = 1
        return out

    def legal_actions(self) -> dict[int, AnyAction]:
        """``{index: engine action}`` of every masked-in index now."""
        g = self.game
        if g.decider() is None:
            return {}
        if g.stage == "battle":
            assert g.battle is not None
            return dict(self.codec.table(g.battle))
        return dict(self._campaign_table())

    def decode(self, index: int) -> AnyAction:
        """The (nominal) engine action of ``index`` now; ValueError when it names nothing."""
        g = self.game
        if index < self.codec.n:
            if g.stage != "battle" or g.battle is None:
                raise ValueError(f"index {index} is a battle action; no battle is on")
            return self.codec.decode(index, g.battle)
        if g.stage == "battle":
            raise ValueError(f"index {index} is a campaign action; a battle is on")
        return self.campaign_codec.decode(index, g, self._slots())

    def describe(self, index: int) -> str:
        """A readable name of ``index`` now."""
        if not 0 <= index < self.n:
            return f"outside 0..{self.n - 1}"
        try:
            return str(self.decode(index))
        except (ValueError, IllegalActionError) as error:
            return str(error)

    def _decision_name(self) -> str:
        decision = self.game.decider()
        return "none" if decision is None else decision.kind.value

    # -- outputs -----------------------------------------------------------------------------
    def _reward(self, events: list[dict[str, Any]]) -> float:
        total = 0.0
        for e in events:
            if e["type"] == MissionFinished.__name__:
                success = e["status"] == "success"
                total += (
                    self.shaping["mission_success"] if success else -self.shaping["mission_failure"]
                )
            elif e["type"] == CampaignEnded.__name__:
                total += {"win": 1.0, "loss": -1.0}.get(str(e["result"]), 0.0)
        return total

    def _observation(self) -> np.ndarray:
        g = self.game
        out = np.zeros(self.size, dtype=np.float32)
        if g.stage == "battle" and g.battle is not None:
            seen = self._seen.get(Side.BLUE)
            battle_part = self.encoder.encode(g.battle, Side.BLUE, seen)
            assert isinstance(battle_part, np.ndarray)
            out[: self.battle_size] = battle_part
        legal = [] if g.stage == "battle" else g.legal_actions()
        out[self.battle_size :] = campaign_features(g, self._slots(), self.max_spares, legal)
        return out

    def _finish(
        self, events: list[dict[str, Any]], illegal: bool | None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        g = self.game
        mask = self._mask()
        obs = {"observation": self._observation(), "action_mask": mask}
        c = g.campaign
        info = step_info(
            mask,
            events,
            illegal,
            phase=g.stage,
            mission=c.mission_number if not c.over else c.played,
            decision=None if g.decider() is None else self._decision_name(),
            player_cm=c.player_cm,
            enemy_cm=c.enemy_cm,
        )
        if c.over:
            info["outcome"] = {"result": c.result, "reason": c.end_reason}
        return obs, info

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the battle during a mission, else the roster; ``rgb_array``: as an image."""
        if self.render_mode not in ("ansi", "rgb_array"):
            return None
        g = self.game
        head = roster_text(g, self._slots())
        if self.render_mode == "rgb_array":  # one frame size throughout (render.campaign_rgb)
            return campaign_rgb(g.battle if g.stage == "battle" else None, head)
        if g.stage == "battle" and g.battle is not None:
            return head.split("\n", 2)[0] + "\n" + render_ansi(g.battle)
        return head

    @property
    def log(self) -> list[dict[str, Any]]:
        """Every decision taken this episode (agent, index, action, its ``Event`` objects)."""
        return self._log

    # -- snapshots ---------------------------------------------------------------------------
    def save_state(self) -> dict[str, Any]:
        """A JSON-compatible snapshot of the episode (docs/encodings.md, "Env snapshots").

        Holds the format tag and version, the env class and configuration, the campaign game
        (``CampaignGame.to_dict``, with its set-up generator), the dice, NP-side and
        ``np_random`` generators, the NP memory (``NpContext``), the enemies-in-sight sets,
        the sighting order, the roster slots, the decision log and ``auto_played``.

        Raises:
            RuntimeError: before the first ``reset``.
            StateError: the dice are not ``RandomDice`` (a ``dice_factory`` test hook).
        """
        from .campaign_snapshots import campaign_save

        return campaign_save(self)

    def load_state(self, data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Restore a :meth:`save_state` snapshot exactly; returns the observation and info.

        The info is that of ``reset`` without events. The env must have been built with the
        same arguments (a fresh env needs no ``reset`` first).

        Raises:
            StateError: wrong format or version, another env class or configuration, a
                changed snapshot (digest) or malformed state; the message names the field.
                The env is unchanged.
        """
        from .campaign_snapshots import campaign_load

        campaign_load(self, data)
        return self._finish([], None)


def _action_dict(action: AnyAction) -> dict[str, Any]:
    """``{"type": <class name>, ...fields}`` of a battle or campaign action."""
    data = to_jsonable(action)
    return {"type": type(action).__name__, **data}


__all__ = [
    "CAMPAIGN_SHAPING_TERMS",
    "CAMPAIGN_VERSION",
    "DEFAULT_MAX_MECHS",
    "NoQuarterCampaignEnv",
    "build_definition",
]
