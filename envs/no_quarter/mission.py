"""Gymnasium envs: the agent plays a No Quarter mission against the rules' non-player side.

:class:`NoQuarterMissionEnv` reuses :class:`~.solo.NoQuarterSkirmishEnv` (codec, spaces,
illegal actions, rendering, replays) and builds each battle with
:func:`wargym.rules.no_quarter.mission.mission_play.new_mission`: the player's force is blue, the
enemy comes as PEFs and is played by the rules inside the engine (§20, §22.4).
:class:`NoQuarterPatrolEnv`, :class:`NoQuarterAttackEnv` and :class:`NoQuarterDefendEnv`
are the registered ids ``wargym/NoQuarter-{Patrol,Attack,Defend}-v0``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from wargym.envs.base import check_observation_size, check_render_mode
from wargym.rules.dice import Dice, RandomDice
from wargym.rules.errors import TableError, short_repr
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.forces.data import RulesOptions
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.mission.mission_play import setup_mission
from wargym.rules.no_quarter.mission.missions import mission_tables
from wargym.rules.no_quarter.mission.scenario import Scenario, load_scenario, scenario_from_dict

from .arguments import check_battle_bounds, check_skirmish_config
from .core import MAX_REDRAWS, SHAPING_TERMS
from .mission_encoding import MissionObservationEncoder, SightingOrder, pef_markers
from .opponents import Agent, make_opponent
from .setup_log import with_setup_events
from .solo import NoQuarterSkirmishEnv

MISSION_SHAPING_TERMS = (*SHAPING_TERMS, "recon", "exit")
"""Reward terms of the mission envs (all 0 by default): those of the skirmish, plus
``recon`` per Patrol recon section newly reconnoitred (§22.1.1) and ``exit`` per own mech
that leaves the table by a mission exit edge (report back, break through; §22.0)."""
DEFAULT_SCENARIOS = {
    "patrol": "patrol_star_army_vs_hishen",
    "attack": "attack_hishen_vs_star_army",
    "defend": "defend_star_army_vs_hishen",
}
"""The scenario each mission id plays when ``scenario`` is not given."""
DEFAULT_MAX_MECHS = 32
"""Mech slots per side: a force of 12 plus reinforcements (§23.8) fits."""
DiceFactory = Callable[[np.random.Generator], Dice]
"""Builds the battle's dice from the reset's dice stream (tests and analysis)."""


def build_scenario(
    scenario: str | os.PathLike[str] | Scenario | Mapping[str, Any],
    *,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    player: Mapping[str, Any] | None = None,
    enemy: Mapping[str, Any] | None = None,
    max_turns: int | None = None,
) -> Scenario:
    """A scenario with keyword overrides, checked as strictly as a scenario file (§22).

    Args:
        scenario: a shipped name, a YAML path, a loaded :class:`Scenario` or scenario data.
        options: per option group (``battle``, ``rules``, ``mission``, ``terrain``,
            ``weather``), fields to override.
        player: fields of the player's side to override (``faction``, ``mechs``, ``stars``,
            ``reps``, ``use_attributes``, ``campaign_morale``).
        enemy: the same for the enemy side (in a mission: ``faction``, ``campaign_morale``).
        max_turns: the turn limit (the scenario's ``turn_limit``).

    Raises:
        TableError: an unknown scenario, option or field, or a value the rules reject (the
            message quotes at most ~80 characters of a value: a huge one is cut).
    """
    try:
        return _build_scenario(scenario, options, player, enemy, max_turns)
    except TableError as error:
        if len(str(error)) <= MAX_MESSAGE:
            raise
        raise TableError(str(error)[: MAX_MESSAGE - 3] + "...") from None


MAX_MESSAGE = 400
"""Longest message of a scenario error the envs pass on (longer ones quote a huge value)."""


def _build_scenario(
    scenario: Any, options: Any, player: Any, enemy: Any, max_turns: int | None
) -> Scenario:
    if isinstance(scenario, str) and len(scenario) > 1024:
        raise TableError(f"scenario: no shipped scenario or file named {short_repr(scenario)}")
    if isinstance(scenario, Scenario):
        sc = scenario
    elif isinstance(scenario, Mapping):
        sc = scenario_from_dict(dict(scenario))
    elif isinstance(scenario, (str, os.PathLike)):
        sc = load_scenario(Path(scenario) if isinstance(scenario, os.PathLike) else scenario)
    else:
        raise TableError(
            f"scenario: expected a name, a path, a Scenario or scenario data, got {scenario!r}"
        )
    if not (options or player or enemy or max_turns is not None):
        return sc
    data = sc.to_dict()
    where = f"{sc.source or sc.name} (with keyword overrides)"
    for name, value in (("options", options), ("player", player), ("enemy", enemy)):
        if value is not None and not isinstance(value, Mapping):
            raise TableError(f"{where}: {name}: expected a mapping, got {type(value).__name__}")
    for group, fields in (options or {}).items():
        if not isinstance(fields, Mapping):
            raise TableError(
                f"{where}: options.{group}: expected a mapping, got {type(fields).__name__}"
            )
        data["options"].setdefault(group, {}).update(fields)
    data["player"].update(player or {})
    data["enemy"].update(enemy or {})
    if max_turns is not None:
        data["turn_limit"] = max_turns  # checked (type, range) as the file's turn_limit
    return scenario_from_dict(data, where)


class NoQuarterMissionEnv(NoQuarterSkirmishEnv):
    """No Quarter mission: the agent commands the player's force against the rules' NP side.

    ## Description

    A scenario of *5150: No Quarter* (``configs/scenarios/no_quarter``) is set up with
    ``mission_play.new_mission``: the table (fixed or generated, §19), day or night and the
    weather (§22.0, §23.7), the player's force (blue) and the enemy as PEF markers (§20).
    The agent answers every decision of the player's side; the rules play the enemy inside
    the engine: PEFs move and resolve into contacts, NP groups follow their posture (§22.4),
    reinforcements arrive on activation totals of 7 (§23.8) and the weather changes on
    doubles. Patrol: reconnoitre sections 1-3 and report back by the south edge (§22.1);
    Attack: destroy the enemy or break through the north edge (§22.2); Defend: hold against
    an attack with a secret objective (§22.3).

    ## Action Space

    ``Discrete(n)``, layout "nq-act-v2" (docs/encodings.md), with ``max_mechs`` slots per
    side (default 32), including ``exit`` (leave by a mission edge) and ``objective`` (the
    Attack objective when the scenario leaves it open). Masks: ``obs["action_mask"]``,
    ``info["action_mask"]``, :meth:`action_masks`.

    ## Observation Space

    ``Dict({"observation": Box(-1, 1, (size,), float32), "action_mask": Box(0, 1, (n,),
    int8)})``, layout "nq-obs-v4" (:class:`.mission_encoding.MissionObservationEncoder`):
    "nq-obs-v3" with the PEF markers plane and mission globals (kind, turn limit, own
    Campaign Morale, own Attack objective, sections reconnoitred, exits, PEFs on the table).
    Never shown: the NP secret objective, unresolved PEF contents, NP postures and orders,
    enemies out of sight.

    ## Rewards

    At the end: +1 mission success, -1 failure (``BattleEnded`` of the mission, §22), 0
    otherwise. Optional ``reward_shaping`` terms (:data:`MISSION_SHAPING_TERMS`, default 0).
    An illegal action under ``"noop"`` returns ``illegal_penalty`` (default -0.01).

    ## Starting State

    The scenario's force with rolled Reps, deployed in the mission's zone; PEFs placed;
    the first activation dice rolled; the NP side may already have moved.

    ## Episode End

    Terminated when the mission is won or lost (objective met or failed, no player mech
    left, the turn limit reached), or by an illegal action under ``"terminate"`` (-1).
    Registration adds a ``TimeLimit`` (10,000 steps) against stalling agents.

    ## Arguments

    ``scenario`` (a name of ``scenario_names()``, a YAML path, a ``Scenario`` or scenario
    data; default per id, :data:`DEFAULT_SCENARIOS`), ``options`` (per option group:
    ``battle``, ``rules``, ``mission``, ``terrain``, ``weather`` field overrides),
    ``player`` / ``enemy`` (side overrides: faction, mechs, stars, reps, campaign_morale),
    ``max_turns`` (the turn limit), ``reward_shaping``, ``illegal_action`` ("noop",
    "raise", "terminate"), ``illegal_penalty``, ``max_mechs``, ``max_weapons``,
    ``max_buildings``, ``cell``, ``flatten``, ``action_features`` and ``advisor`` (the
    per-action feature block and the tactician's advice rows, as in the skirmish env),
    ``dice_factory`` (test hook), ``info_events`` (as in the skirmish env: off by default,
    ``True`` puts the visible events, set-up first, in ``info["events"]``),
    ``render_mode`` ("ansi", "rgb_array"), ``opponent`` (who sits in the NP seat: "rules",
    the default, is the book's NP procedure inside the engine, §22.4; "scripted", "random" or
    an agent object answer the NP side's decisions instead, while the rules still place and
    resolve PEFs, bring reinforcements and withdraw groups; an NP decision that no index can
    express is played as its first legal option, counted in ``auto_played``). The bounds of
    :mod:`.arguments` apply (``max_mechs`` 1..64, the turn limit 1..100, ``cell`` 0.25..12,
    ``options.battle`` ``base_radius``/``move_directions``/``move_fractions``), as does the
    observation cap :data:`~wargym.envs.base.MAX_OBSERVATION_SIZE`.

    ## Snapshots

    :meth:`save_state` / :meth:`load_state` as in the skirmish env; the snapshot also holds
    the scenario (config), the sighting order of enemy slots, the recon sections already
    rewarded and the count of auto-played decisions (docs/encodings.md).

    ## Version History

    * v0: initial version (nq-obs-v2, nq-act-v1).
    * v1: the rules' new decisions (issue 15: facing and twist, group orders,
      Lucky, Marksman) grow the layouts (nq-obs-v4, nq-act-v2).
    """

    strict_slots = False
    mission_snapshot = True
    mission_kind: ClassVar[str | None] = None
    """The mission kind the env requires (``None``: any scenario, a skirmish included)."""

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        scenario: str | os.PathLike[str] | Scenario | Mapping[str, Any] | None = None,
        options: Mapping[str, Mapping[str, Any]] | None = None,
        player: Mapping[str, Any] | None = None,
        enemy: Mapping[str, Any] | None = None,
        max_turns: int | None = None,
        opponent: str | Agent = "rules",
        reward_shaping: dict[str, float] | None = None,
        illegal_action: str = "noop",
        illegal_penalty: float = -0.01,
        max_mechs: int = DEFAULT_MAX_MECHS,
        max_weapons: int = 8,
        max_buildings: int = 12,
        cell: float = 1.0,
        flatten: bool = True,
        action_features: bool = False,
        advisor: Any = None,
        dice_factory: DiceFactory | None = None,
        info_events: bool = False,
    ) -> None:
        check_render_mode(render_mode, self.metadata["render_modes"])
        check_skirmish_config(
            {
                "max_mechs": max_mechs,
                "max_weapons": max_weapons,
                "max_buildings": max_buildings,
                "cell": cell,
                "reward_shaping": reward_shaping,
                "action_features": action_features,
                "info_events": info_events,
            },
            MISSION_SHAPING_TERMS,
            skirmish=False,
        )
        if scenario is None:
            if self.mission_kind is None:
                raise ValueError("NoQuarterMissionEnv needs a scenario")
            scenario = DEFAULT_SCENARIOS[self.mission_kind]
        sc = build_scenario(
            scenario, options=options, player=player, enemy=enemy, max_turns=max_turns
        )
        if self.mission_kind is not None and sc.kind != self.mission_kind:
            raise ValueError(f"scenario {sc.name!r} is a {sc.kind}, not a {self.mission_kind}")
        self.scenario = sc
        self.dice_factory = dice_factory
        self._order = SightingOrder()
        battle = sc.battle_options()
        check_battle_bounds(
            "options.battle", battle, "max_turns" if max_turns is not None else "turn_limit"
        )
        super().__init__(
            render_mode,
            opponent=opponent,
            illegal_action=illegal_action,
            illegal_penalty=illegal_penalty,
            max_turns=battle.max_turns,
            battle_options={
                f.name: getattr(battle, f.name)
                for f in dataclasses.fields(BattleOptions)
                if f.name not in ("rules", "max_turns", "unseen_bases")
            }
            # the env's fog of war unless ``options.battle.unseen_bases`` says otherwise
            | {"unseen_bases": (options or {}).get("battle", {}).get("unseen_bases", "bump")},
            rules_options={
                f.name: getattr(battle.rules, f.name) for f in dataclasses.fields(RulesOptions)
            },
            reward_shaping=reward_shaping,
            max_mechs=max_mechs,
            max_weapons=max_weapons,
            max_buildings=max_buildings,
            cell=cell,
            flatten=flatten,
            battle_factory=self._build,
            markers=pef_markers,
            slots=self._order,
            shaping_terms=MISSION_SHAPING_TERMS,
            action_features=action_features,
            advisor=advisor,
            info_events=info_events,
        )
        self.encoder = MissionObservationEncoder(
            max_mechs,
            max_weapons,
            width=sc.width,
            height=sc.height,
            cell=cell,
            max_turns=battle.max_turns,
            flatten=flatten,
            slots=self._order,
            action_table=self._action_table if action_features else None,
            n_actions=self.codec.n,
            advisor=self.advisor,
        )
        check_observation_size(
            self.encoder.size, f"cell or the table size ({sc.width} x {sc.height})"
        )
        self.obs_space = spaces.Dict(
            {
                "observation": self.encoder.space,
                "action_mask": spaces.Box(0, 1, (self.codec.n,), np.int8),
            }
        )
        self.observation_space = self.obs_space
        self._recon_done = 0
        self.auto_played = 0
        """Decisions played for the agent because no legal option fitted the codec's slots."""

    def _build(self, rng: np.random.Generator, dice: Dice) -> Battle:
        battle, setup = setup_mission(self.scenario, rng, dice)
        start = battle.clone()  # the set-up, before any rule is played (setup_log.py)
        self._built = (start, setup, game.advance(battle, dice))
        if self.opponent_spec != "rules" and battle.np is not None:
            for state in (start, battle):  # the opponent answers the NP side's decisions
                game.seat_np_outside(state)
        return battle

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Set up a new mission; set-up, dice and (skirmish) opponent use separate streams.

        A mission over before the player's first decision is drawn again from the next
        streams of the same seed.
        """
        gymnasium.Env.reset(self, seed=seed)
        self._seed = seed
        for _ in range(MAX_REDRAWS):  # a mission decided before the player's first move
            setup_rng, dice_rng, opp_rng = self.np_random.spawn(3)
            self._opponent = make_opponent(self.opponent_spec, self, opp_rng)
            dice = self.dice_factory(dice_rng) if self.dice_factory else RandomDice(dice_rng)
            self._battle = None
            self._order.reset()
            self._recon_done = 0
            self.auto_played = 0
            events = self._new_battle(setup_rng, dice)
            assert self._start is not None
            before = self._start.clone()
            events += self._opponent_plays()
            if not self.battle.over:
                break
        return with_setup_events(self, *self._finish(before, events, None, fresh=True))

    def _opponent_plays(self) -> list[Event]:
        """Red's decisions, and those no slot can express (the first legal option, "auto").

        Red decides here in a skirmish scenario, or when the NP side is seated outside the rules.
        """
        battle = self.battle
        events: list[Event] = []
        while not battle.over and battle.decision is not None:
            if battle.decision.side is Side.RED:
                if self.opponent_spec not in ("rules", "scripted", "random") and not (
                    self.codec.mask(battle).any()
                ):  # an agent seat with no index for this decision
                    self.auto_played += 1
                    events += self._play(game.legal_actions(battle)[0], "auto", None)
                    continue
                choice, index = self._opponent(battle)
                events += self._play(choice, "red", index)
            elif not self.codec.mask(battle).any():
                # every legal option names a slot beyond max_mechs/max_weapons/max_buildings
                self.auto_played += 1
                events += self._play(game.legal_actions(battle)[0], "auto", None)
            else:
                break
        return events

    def _filter(
        self, before: Battle, events: list[Event], viewers: Any, fresh: bool = False
    ) -> dict[Side, list[dict[str, Any]]]:
        visible = super()._filter(before, events, viewers, fresh)
        self._order.note(self._seen)
        return visible

    def _shaped(self, events: list[dict[str, Any]], viewer: Side) -> float:
        total = super()._shaped(events, viewer)
        mission = self.battle.mission
        if mission is None:
            return total
        recon = len(set(mission["recon"]) & set(mission_tables().recon_sections))
        total += self.shaping["recon"] * (recon - self._recon_done)
        self._recon_done = recon
        if self.shaping["exit"]:
            own = {m.id for m in self.battle.mechs.values() if m.side is viewer}
            exits = sum(
                1
                for e in events
                if e["type"] == "MechMoved" and e["kind"] == "exit" and e["mech"] in own
            )
            total += self.shaping["exit"] * exits
        return total

    def _finish(
        self, before: Battle, events: list[Event], illegal: bool | None, fresh: bool = False
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        obs, info = super()._finish(before, events, illegal, fresh)
        mission = self.mission_info()
        if mission is not None:
            info["mission"] = mission
        return obs, info

    def mission_info(self) -> dict[str, Any] | None:
        """What the player knows of the mission (never the NP objective) (§22)."""
        mission = self.battle.mission
        if mission is None:
            return None
        np_state = self.battle.np or {"pefs": []}
        return {
            "scenario": mission["scenario"],
            "kind": mission["kind"],
            "attack_objective": mission["attack_objective"],
            "recon": list(mission["recon"]),
            "pefs": [list(m["pos"]) for m in np_state["pefs"]],
            "outcome": None if mission["outcome"] is None else mission["outcome"]["status"],
        }


class NoQuarterPatrolEnv(NoQuarterMissionEnv):
    """``wargym/NoQuarter-Patrol-v1``: a Patrol (§22.1); see :class:`NoQuarterMissionEnv`.

    ## Version History

    * v0: initial version (nq-obs-v2, nq-act-v1).
    * v1: the rules' new decisions (issue 15: facing and twist, group orders,
      Lucky, Marksman) grow the layouts (nq-obs-v4, nq-act-v2).
    """

    mission_kind = "patrol"


class NoQuarterAttackEnv(NoQuarterMissionEnv):
    """``wargym/NoQuarter-Attack-v1``: an Attack (§22.2); see :class:`NoQuarterMissionEnv`.

    ## Version History

    * v0: initial version (nq-obs-v2, nq-act-v1).
    * v1: the rules' new decisions (issue 15: facing and twist, group orders,
      Lucky, Marksman) grow the layouts (nq-obs-v4, nq-act-v2).
    """

    mission_kind = "attack"


class NoQuarterDefendEnv(NoQuarterMissionEnv):
    """``wargym/NoQuarter-Defend-v1``: a Defend (§22.3); see :class:`NoQuarterMissionEnv`.

    ## Version History

    * v0: initial version (nq-obs-v2, nq-act-v1).
    * v1: the rules' new decisions (issue 15: facing and twist, group orders,
      Lucky, Marksman) grow the layouts (nq-obs-v4, nq-act-v2).
    """

    mission_kind = "defend"
