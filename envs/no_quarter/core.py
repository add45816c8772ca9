"""The skirmish core every No Quarter battle env stands on (Gymnasium, AEC, Parallel, missions).

:class:`SkirmishCore` holds what the envs share: the battle set-up from the env keywords
(forces, pilots and a generated battlefield, or a mission's ``battle_factory``), the action
codec and observation encoder wired to the battle options, the visibility filter (the events
and enemies each side may know), the rewards (terminal and shaping terms), the step of one
decision (:meth:`SkirmishCore._decide`), rendering and replays. Event dicts are built only
when asked (``info_events=True``) or when a reward-shaping term needs them; otherwise the
visibility filter keeps just the enemies-in-sight sets (:func:`.encoding.seen_after`) and the
log keeps the ``Action`` objects until a replay or snapshot is written (docs/events.md).
``backend="native"`` plays the battle in the native core (:mod:`.backends`, docs/native.md);
the default ``"auto"`` does so whenever the core plays the configuration.
The snapshot parts every battle env writes and reads (:func:`core_config`,
:func:`core_state`, :func:`parse_core`, :func:`apply_core`) live here too; :mod:`.snapshots`
builds the env snapshots on them.

This module imports no env module (``solo``, ``mission``, ``aec``, ``parallel``,
``head_to_head``, ``snapshots``, the campaign's); they import it, and
tests/test_import_graph.py keeps it so.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces

from wargym.envs.base import EnvArgumentError, NotResetError, check_observation_size, render_frame
from wargym.envs.snapshot import (
    check_int,
    check_keys,
    dice_from_dict,
    dice_to_dict,
    ids_from,
    parse,
    seen_to_dict,
)
from wargym.rules.dice import Dice, RandomDice
from wargym.rules.errors import StateError, short_repr
from wargym.rules.events import Event, EventRegistry
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.actions import Action, action_to_dict
from wargym.rules.no_quarter.battle.events import NO_QUARTER_EVENTS
from wargym.rules.no_quarter.battle.state import Battle, BattleOptions
from wargym.rules.no_quarter.battle.validity import check_battle
from wargym.rules.no_quarter.battlefield.terrain import generate_battlefield
from wargym.rules.no_quarter.forces.data import RulesOptions, load_rules
from wargym.rules.no_quarter.forces.setup import ForceSpec, new_battle_logged
from wargym.rules.no_quarter.forces.vocab import Faction, Side
from wargym.rules.serial import to_jsonable

from .backends import AUTO, apply_native, configure_backend, filter_native, new_battle_native
from .codec import ACTION_VERSION, ActionCodec, SlotsFn
from .encoding import Markers, ObservationEncoder, filter_events, no_markers, seen_after
from .render import outcome_info, render_ansi, render_rgb
from .setup_log import Built, begin_log

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


def make_advisor(spec: Any, action_features: bool) -> Any:
    """The env's own advisor from ``spec`` (a factory, e.g. a class; never a name or path).

    An advisor has ``rows`` (names of its feature rows), ``version``, ``reset()``,
    ``advise(battle, table, viewer) -> ({index: value}, pick)``, ``to_dict()`` and
    ``load_dict(where, data)`` (``TacticalAdvisor`` of agents/advisor.py). Its rows extend
    the per-action feature block, so ``action_features`` must be on.
    """
    if spec is None:
        return None
    if not action_features:
        raise EnvArgumentError("advisor needs action_features=True (its rows extend that block)")
    if isinstance(spec, str):  # the env imports nothing a name says (docs/bad_input.md 5)
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
    """Configuration, set-up, spaces, visibility, rewards, rendering and replays of the envs.

    A mixin: an env calls :meth:`_configure` with its keywords, then :meth:`_new_battle`
    on reset and :meth:`_decide` for each legal decision it plays.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}
    strict_slots: ClassVar[bool] = True
    """Refuse a set-up with more mechs per side than ``max_mechs`` (missions: auto-play)."""
    backend: str
    """``"python"`` (the reference engine, the default) or ``"native"`` (:mod:`.backends`)."""
    _native: bool
    _ncodec: Any
    _nencoder: Any

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
        info_events: bool = False,
        backend: str = AUTO,
    ) -> None:
        self.render_mode = render_mode
        self.info_events = info_events
        """Whether infos hold ``"events"`` (the visible events as dicts; off by default)."""
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
        self._want_events = info_events or any(self.shaping.values())
        self._visible: dict[Side, list[dict[str, Any]]] = {}
        """The last step's visible events per side (empty unless :attr:`_want_events`)."""
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
        configure_backend(self, backend, slots, markers)
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

    def _reference(self, battle: Any) -> Battle:
        """The reference ``Battle`` of ``battle`` (itself on the python backend)."""
        return battle.to_reference() if self._native else battle  # type: ignore[no-any-return]

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
        battle: Any
        if self.battle_factory is not None:
            battle = self.battle_factory(setup_rng, dice)
        elif self._native:
            battle = new_battle_native(self, setup_rng, dice)
        else:
            rules = load_rules(self.battle_options.rules)
            field = generate_battlefield(setup_rng)
            forces = []
            for side, faction in zip((Side.BLUE, Side.RED), self.factions, strict=True):
                pool = [d.id for d in rules.mechs_of(faction)]
                picks = setup_rng.integers(0, len(pool), size=self.mechs_per_side)
                designs = tuple(str(pool[int(i)]) for i in picks)
                forces.append(ForceSpec(side, faction, designs, stars=self.stars))
            battle, setup = new_battle_logged(forces, field, setup_rng, dice, self.battle_options)
            self._built = (battle.clone(), setup, [])  # the pilots' dice (§9), for info and replay
        wanted = self.battle_options.unseen_bases
        if battle.options.unseen_bases != wanted:  # a factory's battle plays the env's fog
            battle.options = dataclasses.replace(battle.options, unseen_bases=wanted)
            battle.options_cache = battle.geometry_cache = None
        sides = (
            [s for s, _ in battle.mech_sides().values()]
            if self._native
            else [m.side for m in battle.mechs.values()]
        )
        for side in (Side.BLUE, Side.RED) if self.strict_slots else ():
            count = sum(1 for s in sides if s is side)
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
        if self._native and not isinstance(battle, Battle):
            found: dict[int, Action] = self._ncodec.table(
                battle.native, battle.game_legal_actions()
            )
            return found
        return self.codec.table(battle)

    def _encode(
        self, battle: Any, viewer: Side, seen: frozenset[int] | None
    ) -> np.ndarray | dict[str, np.ndarray]:
        """The encoder's observation of ``battle`` for ``viewer`` (either backend)."""
        if self._nencoder is None:
            return self.encoder.encode(self._reference(battle), viewer, seen)
        actions = self._action_table(battle, viewer) if self._nencoder._features else None
        return self._nencoder.encode(battle.native, viewer, seen, actions=actions)  # type: ignore[no-any-return]

    def _observe(self, viewer: Side) -> dict[str, Any]:
        """``viewer``'s observation and mask (zero unless it decides now)."""
        seen = self._seen.get(viewer)
        return {
            "observation": self._encode(self.battle, viewer, seen),
            "action_mask": self._mask_for(viewer),
        }

    def _filter(
        self, before: Battle, events: list[Event], viewers: Sequence[Side], fresh: bool = False
    ) -> dict[Side, list[dict[str, Any]]]:
        """Events each viewer may know; refreshes the enemies-in-sight cache.

        Without ``info_events`` or a shaping term the lists are empty and no event dict is
        built (the enemies-in-sight sets are the same either way).
        """
        seen = None if fresh else self._seen
        if self._native:
            return filter_native(self, before, events, viewers, seen)
        if self._want_events:
            visible, self._seen = filter_events(before, events, viewers, seen)
        else:
            visible = {v: [] for v in viewers}
            self._seen = seen_after(before, events, viewers, seen)
        self._visible = visible
        return visible

    def _with_events(self, info: dict[str, Any]) -> dict[str, Any]:
        """``info`` without its ``"events"`` unless ``info_events`` asked for them."""
        if not self.info_events:
            info.pop("events", None)
        return info

    def _mask_for(self, viewer: Side) -> np.ndarray:
        battle: Any = self.battle
        if battle.decision is None or battle.over or battle.decision.side is not viewer:
            return np.zeros(self.codec.n, dtype=np.int8)
        if self._native:
            mask: np.ndarray = battle.legal_mask(self._ncodec)  # once per state
            return mask
        return self.codec.mask(battle)

    def _describe(self, index: int) -> str:
        """``codec.describe(index, battle)`` (the reference battle on either backend)."""
        return self.codec.describe(index, self._reference(self.battle))

    def _play(self, action: Action, who: str, index: int | None) -> list[Event]:
        battle: Any = self.battle
        events = (
            battle.play_native(action, self._dice)
            if self._native
            else game.play(battle, action, self._dice)
        )
        # the action stays an object until a replay or snapshot is written (log_to_json)
        self._log.append({"agent": who, "index": index, "action": action, "events": events})
        return events

    def _decide(self, index: int, who: str) -> tuple[Battle, list[Event]]:
        """Play the legal action at codec ``index`` for ``who`` (the caller checked the mask).

        Returns the battle as it was before (for the visibility filter) and the events.
        """
        battle: Any = self.battle
        before = battle.clone()
        if self._native:
            action = self._ncodec.decode(index, battle.native, game.legal_actions(battle))
        else:
            action = self.codec.decode(index, battle)
        events = self._play(action, who, index)
        return before, events

    def _shaped(self, events: list[dict[str, Any]], viewer: Side) -> float:
        if not any(self.shaping.values()):
            return 0.0
        battle: Any = self.battle
        sides = (
            {i: side for i, (side, _) in battle.mech_sides().items()}
            if self._native
            else {m.id: m.side for m in battle.mechs.values()}
        )
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
        battle = None if self._battle is None else self._reference(self._battle)
        return render_frame(self.render_mode, battle, render_ansi, self._rgb)

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
            "steps": log_to_json(self._log),
            "outcome": outcome_info(self.battle),
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


# -- the snapshot parts every battle env shares ----------------------------------------------

CORE_KEYS = ("battle", "start", "log", "dice", "seed", "seen", "advisor")
"""Keys of the ``state`` part every No Quarter battle env writes."""


def callable_name(value: Any) -> str | None:
    """A stable name of a hook (``None`` stays ``None``) for the config fingerprint."""
    if value is None:
        return None
    name = getattr(value, "__qualname__", None) or type(value).__qualname__
    return f"{getattr(value, '__module__', '?')}.{name}"


def core_config(env: SkirmishCore) -> dict[str, Any]:
    """What fixes a battle env's dynamics, spaces and rewards (the snapshot ``config``)."""
    return {
        "factions": [f.value for f in env.factions],
        "mechs_per_side": env.mechs_per_side,
        "stars": env.stars,
        "battle_options": to_jsonable(env.battle_options),
        "reward_shaping": dict(env.shaping),
        "max_mechs": env.max_mechs,
        "actions": env.codec.n,
        "observation": [env.encoder.version, repr(env.obs_space)],
        "cell": env.encoder.cell,
        "mirror": env.encoder.mirror,
        "illegal_action": [env.illegal_action, env.illegal_penalty],  # type: ignore[attr-defined]
        "battle_factory": callable_name(env.battle_factory),
    }


def log_to_json(log: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The decision log with its ``Event`` objects (and ``Action`` objects) as dicts."""
    out = []
    for step in log:
        row = dict(step)
        if "events" in row:
            row["events"] = [e.to_dict() for e in row["events"]]
        if not isinstance(row.get("action"), (dict, type(None))):  # an Action object
            row["action"] = action_to_dict(row["action"])
        out.append(row)
    return out


def log_from_json(
    where: str, data: Any, registries: tuple[EventRegistry, ...] = (NO_QUARTER_EVENTS,)
) -> list[dict[str, Any]]:
    """Rebuild a decision log (its events through ``registries``); StateError naming it."""
    if not isinstance(data, list):
        raise StateError(f"{where}: expected a list")
    out = []
    for i, step in enumerate(data):
        here = f"{where}[{i}]"
        optional = {"events"} & (set(step) if isinstance(step, dict) else set())
        check_keys(here, step, {"agent", "index", "action"} | optional)
        if "events" not in step:  # an illegal action of the campaign env logs no events
            out.append(dict(step))
            continue
        if not isinstance(step["events"], list):
            raise StateError(f"{here}.events: expected a list")
        events: list[Event] = []
        for k, item in enumerate(step["events"]):
            name = item.get("type") if isinstance(item, dict) else None
            found = (r for r in registries if isinstance(name, str) and name in r)
            registry = next(found, registries[-1])
            events.append(parse(f"{here}.events[{k}]", functools.partial(registry.from_dict, item)))
        out.append({**step, "events": events})
    return out


def core_state(env: SkirmishCore) -> dict[str, Any]:
    """The battle, replay start and log, dice, seed and seen-sets of ``env`` (reset first)."""
    battle = env.battle
    start = env._start
    assert start is not None
    return {
        "battle": battle.to_dict(),
        "start": start.to_dict(),
        "log": log_to_json(env._log),
        "dice": dice_to_dict(env._dice),
        "seed": env._seed,
        "seen": seen_to_dict(env._seen),
        "advisor": None if env.advisor is None else env.advisor.to_dict(),
    }


@dataclasses.dataclass
class CoreParts:
    """A parsed core state, not yet put into an env."""

    battle: Battle
    start: Battle
    log: list[dict[str, Any]]
    dice: RandomDice
    seed: int | None
    seen: dict[Side, frozenset[int]]
    advisor: Any = None
    """A fresh advisor holding the saved memory (``None``: the env has none)."""


def seen_from(where: str, data: Any, battle: Battle | None) -> dict[Side, frozenset[int]]:
    """Seen-sets per side; every id must be a mech of ``battle`` (when there is one)."""
    if not isinstance(data, dict):
        raise StateError(f"{where}: expected an object")
    out = {}
    for key, ids in data.items():
        side = parse(f"{where}.{key}", functools.partial(Side, key))
        known = None if battle is None else battle.mechs
        out[side] = frozenset(ids_from(f"{where}.{key}", ids, known))
    return out


def parse_core(state: Mapping[str, Any], advisor: Any = None) -> CoreParts:
    """Check and rebuild the :data:`CORE_KEYS` of a snapshot's state.

    ``advisor`` is the env's advisor (or ``None``): a saved memory is loaded into a fresh one
    of its type, and one env must not take the other's kind of snapshot.
    """
    memory, fresh = state["advisor"], None
    if (memory is None) != (advisor is None):
        have = "no advisor" if advisor is None else "an advisor"
        raise StateError(f"state.advisor: this env has {have}; the snapshot does not match")
    if advisor is not None:
        fresh = type(advisor)()
        fresh.load_dict("state.advisor", memory)
    battle = parse("state.battle", lambda: Battle.from_dict(state["battle"]))
    parse("state.battle", lambda: check_battle(battle, started=True))  # a decision is pending
    start = parse("state.start", lambda: Battle.from_dict(state["start"]))
    seed = state["seed"]
    if seed is not None:
        check_int("state.seed", seed)
    return CoreParts(
        battle=battle,
        start=start,
        log=log_from_json("state.log", state["log"]),
        dice=dice_from_dict("state.dice", state["dice"]),
        seed=seed,
        seen=seen_from("state.seen", state["seen"], battle),
        advisor=fresh,
    )


def apply_core(env: SkirmishCore, parts: CoreParts) -> None:
    """Put a parsed core state into ``env`` (native twins of its battles on that backend)."""
    env._battle, env._start, env._log = parts.battle, parts.start, parts.log
    if env._native:
        apply_native(env)
    env._dice, env._seed, env._seen = parts.dice, parts.seed, dict(parts.seen)
    if parts.advisor is not None:
        env.advisor = parts.advisor
        env.encoder.advisor = parts.advisor
