"""Gymnasium env: the agent commands blue against the rules' non-player AI (No Quarter).

Also holds what the PettingZoo envs share with it: :class:`SkirmishCore` (configuration,
set-up, codec, encoder, rewards, rendering, replays). Red's players live in :mod:`.opponents`
(re-exported here: :func:`make_opponent`, :func:`rules_opponent`, ...).
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from wargym.envs.base import (
    MaskedEnvMixin,
    NotResetError,
    action_index,
    check_observation_size,
    check_render_mode,
    mask_allows,
    render_frame,
    step_info,
)
from wargym.rules.dice import Dice, RandomDice
from wargym.rules.errors import short_repr
from wargym.rules.events import Event
from wargym.rules.no_quarter import game
from wargym.rules.no_quarter.actions import (
    Action,
    action_to_dict,
)
from wargym.rules.no_quarter.data import RulesOptions, load_rules
from wargym.rules.no_quarter.perception import bodies
from wargym.rules.no_quarter.setup import ForceSpec, new_battle
from wargym.rules.no_quarter.state import Battle, BattleOptions
from wargym.rules.no_quarter.terrain import generate_battlefield
from wargym.rules.no_quarter.vocab import Faction, Side

from .arguments import check_skirmish_config
from .codec import ACTION_VERSION, ActionCodec, SlotsFn
from .encoding import Markers, ObservationEncoder, filter_events, no_markers
from .opponents import Agent, OpponentSeat, make_opponent
from .setup_log import Built, begin_log, with_setup_events

REPLAY_VERSION = "nq-replay-v1"
BattleFactory = Callable[[np.random.Generator, Dice], Battle]
"""Builds a battle (not yet advanced) from a set-up generator and dice: the mission hook."""
FOG_UNSEEN_BASES = "bump"
"""The envs' ``BattleOptions.unseen_bases``: options planned around the bases a side sees (E5)."""
MAX_REDRAWS = 100
"""Set-ups tried by ``reset`` for a battle that is not over before the agent's first move."""
SHAPING_TERMS = ("armor_destroyed", "armor_lost", "class_destroyed", "class_lost")
"""Optional reward terms: per enemy/own armour point lost, per enemy/own mech removed
(weighted by size: class 1 counts 1.0, class 5 counts 0.2). All 0 by default."""
_COLOURS = {
    "building": (90, 90, 90),
    "woods": (34, 110, 40),
    "hill": (170, 140, 90),
    "river": (70, 130, 200),
    "deep_water": (30, 60, 150),
    "road": (200, 190, 160),
    "rough": (130, 120, 80),
}


def make_advisor(spec: Any, action_features: bool) -> Any:
    """The env's own advisor from ``spec`` (a factory, e.g. a class; never a name or path).

    An advisor has ``rows`` (names of its feature rows), ``version``, ``reset()``,
    ``advise(battle, table, viewer) -> ({index: value}, pick)``, ``to_dict()`` and
    ``load_dict(where, data)`` (``TacticalAdvisor`` of agents/advisor.py). Its rows extend
    the per-action feature block, so ``action_features`` must be on.
    """
    if spec is None:
        return None
    from wargym.envs.base import EnvArgumentError

    if not action_features:
        raise EnvArgumentError("advisor needs action_features=True (its rows extend that block)")
    if isinstance(spec, str):  # the env imports nothing a name says (docs/bad_input.md 5)
        from wargym.rules.errors import short_repr

        raise EnvArgumentError(
            f"advisor {short_repr(spec)}: the env takes an advisor factory, not a name; "
            "names in presets and sidecars ('tactical_advisor') are resolved by "
            "the agents layer (envspecs.resolve_callables) before the env is made"
        )
    factory = isinstance(spec, type) or (callable(spec) and not hasattr(spec, "advise"))
    advisor = spec() if factory else None
    if advisor is None or not all(
        hasattr(advisor, k) for k in ("advise", "reset", "rows", "to_dict", "load_dict")
    ):
        raise EnvArgumentError(
            f"advisor must be a factory of advisors (advise, reset, rows, to_dict, load_dict), "
            f"got {spec!r}"
        )
    return advisor


class SkirmishCore:
    """Configuration, set-up, spaces, rewards, rendering and replays shared by the envs."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}
    strict_slots: ClassVar[bool] = True
    """Refuse a set-up with more mechs per side than ``max_mechs`` (missions: auto-play)."""

    def _configure(
        self,
        *,
        render_mode: str | None,
        factions: Sequence[str] = ("star_army", "hishen"),
        mechs_per_side: int = 3,
        stars: int = 0,
        max_turns: int = 20,
        battle_options: dict[str, Any] | None = None,
        rules_options: dict[str, Any] | None = None,
        reward_shaping: dict[str, float] | None = None,
        max_mechs: int | None = None,
        max_weapons: int = 8,
        max_buildings: int = 12,
        cell: float = 1.0,
        flatten: bool = True,
        mirror: bool = True,
        battle_factory: BattleFactory | None = None,
        markers: Markers = no_markers,
        slots: SlotsFn | None = None,
        shaping_terms: Sequence[str] = SHAPING_TERMS,
        action_features: bool = False,
        advisor: Any = None,
    ) -> None:
        self.render_mode = render_mode
        self.factions = (Faction(factions[0]), Faction(factions[1]))
        self.mechs_per_side, self.stars = mechs_per_side, stars
        rules = RulesOptions(**(rules_options or {}))
        extra = dict(battle_options or {})
        extra.setdefault("unseen_bases", FOG_UNSEEN_BASES)  # no leak through the options
        if "move_fractions" in extra:
            extra["move_fractions"] = tuple(float(f) for f in extra["move_fractions"])
        max_turns = int(extra.pop("max_turns", max_turns))
        self.battle_options = BattleOptions(max_turns=max_turns, rules=rules, **extra)
        load_rules(rules)  # fail early on a bad reading
        unknown = set(reward_shaping or {}) - set(shaping_terms)
        if unknown:
            raise ValueError(f"unknown reward_shaping terms {sorted(unknown)}; {shaping_terms}")
        self.shaping = {t: float((reward_shaping or {}).get(t, 0.0)) for t in shaping_terms}
        self.max_mechs = max_mechs or mechs_per_side
        self.battle_factory = battle_factory
        self.advisor = make_advisor(advisor, action_features)
        self.codec = ActionCodec(
            self.max_mechs, max_weapons, max_buildings, self.battle_options, mirror, slots
        )
        self.encoder = ObservationEncoder(
            self.max_mechs,
            max_weapons,
            cell=cell,
            max_turns=max_turns,
            mirror=mirror,
            flatten=flatten,
            markers=markers,
            slots=slots,
            action_table=self._action_table if action_features else None,
            n_actions=self.codec.n,
            advisor=self.advisor,
        )
        check_observation_size(
            self.encoder.size, "cell, max_mechs, max_weapons or max_buildings (action_features)"
        )
        self.obs_space = spaces.Dict(
            {
                "observation": self.encoder.space,
                "action_mask": spaces.Box(0, 1, (self.codec.n,), np.int8),
            }
        )
        self._battle: Battle | None = None
        self._dice: Dice = RandomDice(np.random.default_rng(0))
        self._start: Battle | None = None
        self._log: list[dict[str, Any]] = []
        self._built: Built | None = None  # a factory's set-up record (setup_log.py)
        self._setup_events: list[Event] = []
        self._seed: int | None = None
        self._seen: dict[Side, frozenset[int]] = {}

    # -- battle ----------------------------------------------------------------------------
    @property
    def battle(self) -> Battle:
        """The engine state (reset first; before it: NotResetError)."""
        if self._battle is None:
            raise NotResetError("the env has no battle yet: call reset() first")
        return self._battle

    def _new_battle(self, setup_rng: np.random.Generator, dice: Dice) -> list[Event]:
        """Set up and advance to the first decision; returns the set-up events."""
        self._dice = dice
        if self.battle_factory is not None:
            battle = self.battle_factory(setup_rng, dice)
        else:
            rules = load_rules(self.battle_options.rules)
            field = generate_battlefield(setup_rng)
            forces = []
            for side, faction in zip((Side.BLUE, Side.RED), self.factions, strict=True):
                pool = [d.id for d in rules.mechs_of(faction)]
                picks = setup_rng.integers(0, len(pool), size=self.mechs_per_side)
                designs = tuple(str(pool[int(i)]) for i in picks)
                forces.append(ForceSpec(side, faction, designs, stars=self.stars))
            battle = new_battle(forces, field, setup_rng, dice, self.battle_options)
        wanted = self.battle_options.unseen_bases
        if battle.options.unseen_bases != wanted:  # a factory's battle plays the env's fog
            battle.options = dataclasses.replace(battle.options, unseen_bases=wanted)
            battle.options_cache = battle.geometry_cache = None
        for side in (Side.BLUE, Side.RED) if self.strict_slots else ():
            count = sum(1 for m in battle.mechs.values() if m.side is side)
            if count > self.max_mechs:
                raise ValueError(f"{side.value} has {count} mechs; max_mechs is {self.max_mechs}")
        self._battle = battle
        if self.advisor is not None:
            self.advisor.reset()
        return begin_log(self, battle, dice)

    def _action_table(self, battle: Battle, viewer: Side) -> dict[int, Action]:
        """The codec's ``{index: legal action}`` of ``viewer``'s pending decision (else empty)."""
        decision = battle.decision
        if decision is None or battle.over or decision.side is not viewer:
            return {}
        return self.codec.table(battle)

    def _observe(self, viewer: Side) -> dict[str, Any]:
        """``viewer``'s observation and mask (zero unless it decides now)."""
        seen = self._seen.get(viewer)
        return {
            "observation": self.encoder.encode(self.battle, viewer, seen),
            "action_mask": self._mask_for(viewer),
        }

    def _filter(
        self, before: Battle, events: list[Event], viewers: Sequence[Side], fresh: bool = False
    ) -> dict[Side, list[dict[str, Any]]]:
        """Events each viewer may know; refreshes the enemies-in-sight cache."""
        visible, self._seen = filter_events(before, events, viewers, None if fresh else self._seen)
        return visible

    def _mask_for(self, viewer: Side) -> np.ndarray:
        battle = self.battle
        if battle.decision is None or battle.over or battle.decision.side is not viewer:
            return np.zeros(self.codec.n, dtype=np.int8)
        return self.codec.mask(battle)

    def _play(self, action: Action, who: str, index: int | None) -> list[Event]:
        events = game.play(self.battle, action, self._dice)
        self._log.append(
            {"agent": who, "index": index, "action": action_to_dict(action), "events": events}
        )
        return events

    def _shaped(self, events: list[dict[str, Any]], viewer: Side) -> float:
        if not any(self.shaping.values()):
            return 0.0
        sides = {m.id: m.side for m in self.battle.mechs.values()}
        total = 0.0
        for event in events:
            if event["type"] == "DamageRolled":
                lost = float(event["armor_before"] - event["armor_after"])
                mine = sides[event["target"]] is viewer
                total += (
                    lost
                    * self.shaping["armor_lost" if mine else "armor_destroyed"]
                    * (-1.0 if mine else 1.0)
                )
            elif event["type"] == "MechRemoved":
                size = (6 - int(event["mech_class"])) / 5.0
                mine = Side(event["side"]) is viewer
                total += (
                    size
                    * self.shaping["class_lost" if mine else "class_destroyed"]
                    * (-1.0 if mine else 1.0)
                )
        return total

    def _terminal(self, viewer: Side) -> float:
        battle = self.battle
        if not battle.over or battle.winner is None:
            return 0.0
        return 1.0 if battle.winner is viewer else -1.0

    # -- rendering and replays -------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """``ansi``: text map and mech list; ``rgb_array``: an image (full view, for people)."""
        return render_frame(self.render_mode, self._battle, render_ansi, self._rgb)

    def _rgb(self, battle: Battle) -> np.ndarray:
        return render_rgb(battle)

    def save_replay(self, path: str | os.PathLike[str]) -> None:
        """Write the episode so far as JSON (full information), atomically.

        The file holds the set-up battle, every decision taken (index and action) with all
        the events that followed, and the outcome. It is written to a temporary file in the
        same folder, flushed, fsynced and renamed over ``path``.
        """
        if self._start is None:
            raise RuntimeError("call reset() first")
        data = {
            "format": REPLAY_VERSION,
            "observation_version": self.encoder.version,
            "action_version": ACTION_VERSION,
            "seed": self._seed,
            "start": self._start.to_dict(),
            "steps": [
                {**step, "events": [e.to_dict() for e in step["events"]]} for step in self._log
            ],
            "outcome": _outcome(self.battle),
        }
        write_json_atomic(path, data)


def write_json_atomic(path: str | os.PathLike[str], data: Any) -> None:
    """Write ``data`` as JSON: temporary file, flush, fsync, rename."""
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    fd, tmp = tempfile.mkstemp(prefix=".replay-", suffix=".json", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _outcome(battle: Battle) -> dict[str, Any] | None:
    result = game.outcome(battle)
    if result is None:
        return None
    winner, reason = result
    return {"winner": None if winner is None else winner.value, "reason": reason}


def render_ansi(battle: Battle) -> str:
    """The table as text (``Battlefield.ascii`` with mech ids) and one line per mech."""
    decision = battle.decision
    head = f"turn {battle.turn}" + (
        f"; {decision.side.value} decides {decision.kind.value}"
        + ("" if decision.mech is None else f" for mech {decision.mech}")
        if decision is not None and not battle.over
        else ""
    )
    if battle.over:
        head += f"; over: {battle.end_reason} ({_outcome(battle)})"
    lines = [head, battle.battlefield.ascii(bodies(battle))]
    for mech in battle.mechs.values():
        state = mech.status.value if mech.removed is None else f"removed ({mech.removed.value})"
        lines.append(
            f"{mech.id} {mech.side.value:<4} {mech.design.id:<18} armor {sum(mech.armor):>2}/"
            f"{sum(mech.design.armor):<2} rep {mech.rep} {state}{' prone' if mech.prone else ''}"
        )
    return "\n".join(lines)


def render_rgb(battle: Battle, scale: int = 8) -> np.ndarray:
    """An RGB image of the table, north up, ``scale`` pixels per inch (full view)."""
    from .encoding import TERRAIN_PLANES, static_planes

    planes = static_planes(battle.battlefield, 1.0)
    rows, cols = planes.shape[1:]
    image = np.full((rows, cols, 3), 225, dtype=np.uint8)
    for index, kind in enumerate(TERRAIN_PLANES):
        image[planes[index] > 0] = _COLOURS[kind.value]
    image = np.repeat(np.repeat(image[::-1], scale, axis=0), scale, axis=1)
    for mech in battle.mechs.values():
        if mech.removed is not None:
            continue
        colour = (20, 60, 230) if mech.side is Side.BLUE else (220, 30, 30)
        x = int(mech.pos[0] * scale)
        y = int((battle.battlefield.height - mech.pos[1]) * scale)
        r = max(2, scale // 2)
        image[max(0, y - r) : y + r, max(0, x - r) : x + r] = colour
    return image


class NoQuarterSkirmishEnv(SkirmishCore, MaskedEnvMixin, gymnasium.Env[dict[str, Any], np.int64]):
    """No Quarter skirmish: the agent commands blue against the rules' NP AI.

    ## Description

    Two forces of pre-generated mechs (Teams of three) deploy on opposite edges of a
    generated 36" x 36" battlefield and fight with the *5150: No Quarter* rules
    (``wargym.rules.no_quarter``). The agent answers every decision of the blue side; red is
    played by the rules' non-player procedure (§22.4, :func:`.opponents.rules_opponent`) or
    by any object with ``act(observation, action_mask) -> int``.

    ## Action Space

    ``Discrete(n)``, layout "nq-act-v1" (:class:`.codec.ActionCodec`, docs/encodings.md):
    index 0 is *wait* (never legal here); the other blocks are group activation, mech
    choice, fire first, stay with a heading, moves by direction x fraction (forward, jump,
    reverse), charge, weapon-to-target assignments, melee and building attacks. The exact
    mask is ``obs["action_mask"]``, ``info["action_mask"]`` and :meth:`action_masks`.

    ## Observation Space

    ``Dict({"observation": Box(-1, 1, (size,), float32), "action_mask": Box(0, 1, (n,),
    int8)})``, layout "nq-obs-v1" (:class:`.encoding.ObservationEncoder`): planes of the
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
    ``render_mode`` ("ansi", "rgb_array"). Every keyword is checked before anything is built:
    :class:`~wargym.envs.base.EnvArgumentError` names it and its range (:mod:`.arguments`).

    ## Snapshots

    :meth:`save_state` returns a JSON-compatible dict (the battle, the replay so far, the
    dice, opponent and ``np_random`` generators, the NP memory and the enemies-in-sight sets);
    :meth:`load_state` restores it exactly into an env built with the same arguments, so the
    same actions then give the same observations, rewards and infos (docs/encodings.md).

    ## Version History

    * v0: initial version (nq-obs-v1, nq-act-v1).
    """

    terminate_reward = -1.0

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
        return with_setup_events(self, *self._finish(before, events, None, fresh=True))

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
            what = "no action" if index is None else self.codec.describe(index, battle)
            reward, ended = self._resolve_illegal(
                f"action {short_repr(action)} ({what}) is not legal at the {kind} decision of blue"
            )
            self._log.append({"agent": "blue", "index": index, "action": None, "events": []})
            obs, info = self._finish(battle, [], True)
            return obs, reward, ended, False, info
        before = battle.clone()
        index = action_index(action)
        events = self._play(self.codec.decode(index, battle), "blue", index)
        events += self._opponent_plays()
        obs, info = self._finish(before, events, False)
        reward = self._shaped(info["events"], Side.BLUE) + self._terminal(Side.BLUE)
        return obs, reward, battle.over, False, info

    def _mask(self) -> np.ndarray:
        return self._mask_for(Side.BLUE)

    def _opponent_plays(self) -> list[Event]:
        battle = self.battle
        events: list[Event] = []
        while not battle.over and battle.decision is not None and battle.decision.side is Side.RED:
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
        outcome = _outcome(battle)
        if outcome is not None:  # absent while running: vector envs merge infos per key
            info["outcome"] = outcome
        return obs, info

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
        from .snapshots import battle_env_save

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
        from .snapshots import battle_env_load

        battle_env_load(self, data)
        return self._finish(self.battle.clone(), [], None)
