"""*5150: No Quarter* battle state: mechs, pilots, turn bookkeeping (sections 9-16).

The state is plain data. :meth:`Battle.apply` is the only writer of the game state proper
(positions, armour, statuses, Reps, removals); control bookkeeping (the frame stack of the
orchestrator and the pending decision) is plain JSON data kept beside it. A battle serialises
to versioned JSON (:meth:`Battle.to_dict` / :meth:`Battle.from_dict`) and clones cheaply.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from wargym.rules.errors import StateError
from wargym.rules.events import Event
from wargym.rules.no_quarter.battle import events as ev
from wargym.rules.no_quarter.battle.actions import Decision
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.data import RulesOptions
from wargym.rules.no_quarter.forces.records import MechDesign, Pilot
from wargym.rules.no_quarter.forces.vocab import Location, Rank, Removal, Side, Status, Terrain
from wargym.rules.serial import from_jsonable, to_jsonable

STATE_VERSION = 1
"""Version of the serialised battle format; bumped on any incompatible change."""

LOCATIONS = tuple(Location)
Point = tuple[float, float]


@dataclass(frozen=True)
class BattleOptions:
    """Rules options of one battle; every default is the digest's ruling."""

    max_turns: int = 20
    """Turn limit: the battle ends as a draw after this many turns (ruling D37)."""
    base_radius: float = 0.5
    """Radius of a mech base in inches (ruling D1)."""
    star_free_will: bool = True
    """Stars choose pass 2/1/0 on Fired On, Takes Damage and Mech Down (§9.2, ruling D29)."""
    spread_fire_rule: Literal["per_shooter", "off"] = "per_shooter"
    """Every mech targeted once before any twice, per shooter and firing (§17.3, ruling D14)."""
    in_sight_free_move: bool = True
    """The triggering force may move up to 2" free before the In Sight roll (§16.1.3, D8)."""
    reaction_fire_once_per_enemy: bool = True
    """A mech fires in reaction at one enemy at most once per group activation (ruling D15)."""
    leave_wrecks: bool = False
    """Removed mechs stay as LOS-blocking wrecks (ruling D22 option)."""
    command_groups: Literal["choose", "teams", "command_radius"] = "choose"
    """§12.2, D30: ``choose`` (each higher leader takes in, or leaves, each group of his
    formation within his command radius, a ``lead_teams`` decision at the start of his side's
    activation phase, E19); ``teams``: groups never leave their Team; ``command_radius``:
    every such group joins him without asking."""
    group_splits: Literal["choose", "off"] = "choose"
    """§13.1: ``choose`` (the active side may split mechs off its groups, one at a time, at the
    start of its activation phase: a ``split_group`` decision, E19); ``off``: groups as formed."""
    lucky: Literal["choose", "auto", "off"] = "choose"
    """Lucky (ruling D26): ``choose`` (the ruling) offers the pilot's side the mission's one
    re-roll after any roll of its mech that it could want re-rolled (a ``lucky_reroll``
    decision, choice E21 in docs/no_quarter.md); ``auto`` re-rolls the first failed Pilot
    Test or pass-0 reaction test; ``off`` never re-rolls."""
    marksman: Literal["choose", "auto"] = "choose"
    """Marksman's two hit locations (§9.6.4): ``choose`` (the rule: shooter's choice, a
    ``marksman_location`` decision) or ``auto`` (the fixed ``marksman_preference`` order)."""
    move_directions: int = 16
    """Directions of the enumerated straight-line moves offered as legal options (ruling D5)."""
    move_fractions: tuple[float, ...] = (0.25, 0.5, 0.75, 1.0)
    """Fractions of the allowance of the enumerated moves (ruling D5)."""
    unseen_bases: Literal["block", "bump"] = "block"
    """Bases out of a side's sight: ``block`` (the tabletop, where every model is in view: all
    bases limit the moves offered) or ``bump`` (fog of war, choice E5: a side's moves, jumps,
    charges and exits are offered around the bases it can see; a move that meets an unseen
    base stops just short of it, ``MoveBlocked``). The envs play ``bump``."""
    in_sight_spent_fire: Literal["carry_on", "priority"] = "carry_on"
    """An active-side In Sight winner that already used its Active Fire this activation (D6):
    ``carry_on`` (choice E7: it forfeits its In Sight action) or ``priority`` (it counts as
    unable to fire and takes the rest of the §16.1.4 list: charge within 6", else duck back)."""
    several_chargers: Literal["split", "one_by_one"] = "split"
    """Several In Sight winners charging one target (§18.2.1 step 5): ``split`` (the ruling:
    the charges are staged and tested as the winners act; then the target, which rolled once,
    fires at its chargers with its weapons split among them, a decision of its side, and the
    melees follow) or ``one_by_one`` (each charge is fought when its winner acts; the target,
    then engaged, does not fire at later chargers, D33)."""
    choose_facing: bool = True
    """After a move or a stay the mech's side chooses its final heading and torso twist (a
    ``face`` decision, §6.2, §6.2.1, D2, D5); off: a forward move faces its direction of
    travel, only Stay turns (no twist), the engine twists only when firing."""
    rules: RulesOptions = field(default_factory=RulesOptions)
    """Which readings of the tables to use (faction lists, misprints; see ``RulesOptions``)."""


@dataclass
class Mech:
    """One mech on the table: its design, its pilot and everything that changes in battle."""

    id: int
    side: Side
    name: str
    design: MechDesign
    pilot: Pilot
    rep: int
    armor: list[int]
    speed: int
    pos: Point
    heading: float
    team: int
    rank: Rank | None = None
    twist: int = 0
    status: Status = Status.CARRY_ON
    prone: bool = False
    moved: float = 0.0
    lost_limbs: list[Location] = field(default_factory=list)
    inoperable: list[int] = field(default_factory=list)
    removed: Removal | None = None
    fired_this_activation: bool = False
    flamer_fired_turn: bool = False
    lucky_used: bool = False
    resilient_used: bool = False
    hard_as_nails_used: bool = False
    reaction_fired_at: list[int] = field(default_factory=list)
    hidden_from: tuple[int, ...] = ()
    """Enemies it ducked back into cover from: while it is ducked back, it and they neither see
    nor are seen by each other (§15.2.4.1, written by ``DuckedBack``)."""

    @property
    def on_table(self) -> bool:
        """Still in play (§16.3.3, ruling D22)."""
        return self.removed is None

    @property
    def lost(self) -> bool:
        """Lost for §16.2 ("friends destroyed or leaving") and counted once in ``Battle.losses``.

        Destroyed, inoperable, Cheated Death or given Leave the Battlefield; a mech that drove
        off the table unordered is not.
        """
        if self.status is Status.LEAVE_BATTLEFIELD:
            return True
        return self.removed is not None and self.removed is not Removal.LEFT_TABLE

    @property
    def mech_class(self) -> int:
        """Class 1 (largest) to 5 (smallest) (§10.1)."""
        return self.design.mech_class

    @property
    def facing(self) -> float:
        """Heading of the firing arc: legs plus torso twist (§6.2.1)."""
        return (self.heading + self.twist) % 360.0

    def armor_at(self, location: Location) -> int:
        """Current armour of ``location``."""
        return self.armor[LOCATIONS.index(location)]

    def item_operable(self, index: int) -> bool:
        """The item is mounted, not knocked out and its limb not blown off."""
        return index not in self.inoperable

    @property
    def operable_ranged_weapons(self) -> list[int]:
        """Indices of ranged weapons that still work (§17.4)."""
        return [
            i
            for i, item in enumerate(self.design.items)
            if item.is_ranged_weapon and i not in self.inoperable
        ]

    @property
    def weapons_out_of_action(self) -> int:
        """Weapons knocked out, each -1 Rep on reaction tests (§16.2)."""
        return sum(1 for i in self.inoperable if self.design.items[i].is_weapon)

    @property
    def damaged(self) -> bool:
        """Lost any armour or has an inoperable item (ruling D31)."""
        return self.inoperable != [] or any(
            now < self.design.armor[i] for i, now in enumerate(self.armor)
        )

    @property
    def ews_bonus(self) -> int:
        """In Sight bonus successes of a functioning EWS (§10.6.2)."""
        for i, item in enumerate(self.design.items):
            if item.item.is_ews and i not in self.inoperable:
                return 2 if item.item.value == "ews_2" else 1
        return 0

    @property
    def has_functioning_ews(self) -> bool:
        """A functioning EWS ignores night/woods/weather LOS limits (§10.6.2)."""
        return self.ews_bonus > 0

    @property
    def has_jump_jets(self) -> bool:
        """Operable jump jets (§10.6.1)."""
        return any(
            item.item.value == "jump_jets" and i not in self.inoperable
            for i, item in enumerate(self.design.items)
        )


@dataclass
class Battle:
    """A No Quarter battle between two sides on one battlefield."""

    battlefield: Battlefield
    options: BattleOptions
    mechs: dict[int, Mech]
    turn: int = 0
    dice: dict[Side, int] = field(default_factory=dict)
    first_side: Side | None = None
    active_side: Side | None = None
    group_of: dict[int, int] = field(default_factory=dict)
    seen_pairs: list[tuple[int, int]] = field(default_factory=list)
    losses: dict[Side, int] = field(default_factory=lambda: {Side.BLUE: 0, Side.RED: 0})
    flames: list[tuple[Point, Point]] = field(default_factory=list)
    wrecks: list[Point] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    decision: Decision | None = None
    over: bool = False
    winner: Side | None = None
    end_reason: str = ""
    home_edges: dict[Side, str] = field(default_factory=dict)
    building_armor: dict[int, int] = field(default_factory=dict)
    """Current armour of damaged buildings, by feature index (§19.4.2)."""
    np: dict[str, Any] | None = None
    """The rules-driven side's bookkeeping: PEFs, NP groups (§20, §22); None head-to-head."""
    mission: dict[str, Any] | None = None
    """Mission bookkeeping: kind, objectives, progress, weather, outcome (§22, §23.7)."""
    version: int = STATE_VERSION
    options_cache: Any = field(default=None, repr=False, compare=False, metadata={"cache": True})
    """Legal options of the pending decision (not serialised; reset by every change)."""
    geometry_cache: Any = field(default=None, repr=False, compare=False, metadata={"cache": True})
    """Bases and sight lines of the current positions (not serialised; reset by every change)."""

    # -- queries ------------------------------------------------------------------------
    def mechs_of(self, side: Side) -> list[Mech]:
        """Mechs of ``side`` still in play, in id order."""
        return [m for m in self.mechs.values() if m.side is side and m.removed is None]

    def building_armor_of(self, feature: int) -> int:
        """Current armour of building ``feature`` (0: destroyed or not rated) (§19.4.2)."""
        features = self.battlefield.features
        if not 0 <= feature < len(features) or features[feature].kind is not Terrain.BUILDING:
            return 0
        return self.building_armor.get(feature, features[feature].building_armor)

    def mech(self, mech_id: int) -> Mech:
        """The mech with ``mech_id``."""
        try:
            return self.mechs[mech_id]
        except KeyError:
            raise StateError(f"no mech with id {mech_id}") from None

    # -- the one writer -----------------------------------------------------------------
    def apply(self, event: Event) -> None:
        """Write ``event`` into the battle; nothing else changes the game state proper."""
        self.options_cache = None
        self.geometry_cache = None
        if isinstance(event, ev.MechMoved):
            mech = self.mechs[event.mech]
            mech.pos = event.path[-1]
            mech.heading = event.heading
            mech.moved += event.inches
            if event.kind == "duck_back":
                mech.twist = 0
        elif isinstance(event, ev.MechFaced):
            mech = self.mechs[event.mech]
            mech.heading, mech.twist = event.heading, event.twist
        elif isinstance(event, ev.DamageRolled):
            self.mechs[event.target].armor[LOCATIONS.index(event.location)] = event.armor_after
        elif isinstance(event, ev.CriticalHit):
            mech = self.mechs[event.mech]
            mech.speed = event.speed_after
            for item in event.items_lost:
                if item not in mech.inoperable:
                    mech.inoperable.append(item)
            if event.kind in ("arm_blown_off", "leg_blown_off") and event.location not in (
                mech.lost_limbs
            ):
                mech.lost_limbs.append(event.location)
        elif isinstance(event, ev.ItemDisabled):
            mech = self.mechs[event.mech]
            for item in event.items:
                if item not in mech.inoperable:
                    mech.inoperable.append(item)
        elif isinstance(event, ev.PilotTested):
            mech = self.mechs[event.mech]
            mech.rep = event.rep_after
            mech.prone = mech.prone or event.knocked_down
            mech.resilient_used = mech.resilient_used or event.resilient_used
        elif isinstance(event, ev.StoodUp):
            self.mechs[event.mech].prone = False
        elif isinstance(event, ev.MechRemoved):
            mech = self.mechs[event.mech]
            was_lost = mech.lost
            mech.removed = event.reason
            self.losses[mech.side] += 1 if mech.lost and not was_lost else 0  # once (§16.2)
            if self.options.leave_wrecks and event.reason is not Removal.LEFT_TABLE:
                self.wrecks.append(mech.pos)
        elif isinstance(event, ev.CheatedDeath):
            mech = self.mechs[event.mech]
            mech.rep = event.rep_after
            mech.hard_as_nails_used = mech.hard_as_nails_used or event.via == "hard_as_nails"
        elif isinstance(event, ev.StatusChanged):
            mech = self.mechs[event.mech]
            was_lost = mech.lost
            if mech.status is not Status.LEAVE_BATTLEFIELD:  # Leave is permanent (§16.3.3)
                mech.status = event.status
            if mech.lost and not was_lost:
                self.losses[mech.side] += 1  # counts as lost from the moment (§16.3.3)
            mech.hidden_from = ()  # a new status ends the last Duck Back's cover (§15.2.4.1)
        elif isinstance(event, ev.RepChanged):
            self.mechs[event.mech].rep = event.rep
        elif isinstance(event, ev.FlameLaid):
            self.flames.append((event.start, event.end))
            self.mechs[event.shooter].flamer_fired_turn = True
        elif isinstance(event, ev.BuildingDamaged):
            self.building_armor[event.feature] = event.armor_after
        elif isinstance(event, ev.BuildingDestroyed):
            self.battlefield = rubble(self.battlefield, event.feature)
        elif isinstance(event, ev.LuckyReroll):
            self.mechs[event.mech].lucky_used = True
        elif isinstance(event, ev.TurnStarted):
            self.turn = event.turn
            for mech in self.mechs.values():
                mech.moved = 0.0
                mech.flamer_fired_turn = False
        elif isinstance(event, ev.ActivationRolled):
            self.dice = {Side.BLUE: event.blue, Side.RED: event.red}
            self.first_side = event.first
        elif isinstance(event, ev.GroupsFormed):
            for members, leader in zip(event.groups, event.leaders, strict=True):
                for member in members:
                    self.group_of[member] = leader
        elif isinstance(event, ev.LeaderAppointed):
            self.mechs[event.mech].rank = Rank(event.rank)
        elif isinstance(event, ev.MechLeftTable):
            if self.mission is not None:
                self.mission["exit_edges"][str(event.mech)] = event.edge
        elif isinstance(event, ev.BattleEnded):
            self.over, self.winner, self.end_reason = True, event.winner, event.reason
        else:
            hook = getattr(event, "apply_to", None)
            if hook is not None:
                hook(self)
        np = self.np
        if np is not None and isinstance(event, ev.MechMoved):  # a move may reveal a PEF (§20.3)
            np["check_due"] = np["check_due"] or self.mechs[event.mech].side.value != np["side"]

    # -- copies and serialisation -------------------------------------------------------
    def clone(self) -> Battle:
        """An independent copy for search and what-if analysis (records are shared).

        Frozen records (battlefield, options, designs, pilots, decision) are shared; every
        mutable part (mechs and their lists, the bookkeeping dicts and lists, the frame stack
        and the NP and mission data) is copied; the caches start empty. Field values are
        copied through ``__dict__`` rather than ``copy.copy``, which is several times slower.
        """
        fields = self.__dict__.copy()
        mechs = {}
        for key, mech in self.mechs.items():
            copied = _new(type(mech))
            values = mech.__dict__.copy()
            values["armor"] = mech.armor[:]
            values["lost_limbs"] = mech.lost_limbs[:]
            values["inoperable"] = mech.inoperable[:]
            values["reaction_fired_at"] = mech.reaction_fired_at[:]
            copied.__dict__ = values
            mechs[key] = copied
        fields["mechs"] = mechs
        fields["dice"] = self.dice.copy()
        fields["group_of"] = self.group_of.copy()
        fields["seen_pairs"] = self.seen_pairs[:]
        fields["losses"] = self.losses.copy()
        fields["flames"] = self.flames[:]
        fields["wrecks"] = self.wrecks[:]
        fields["frames"] = _copy_json(self.frames)
        fields["home_edges"] = self.home_edges.copy()
        fields["building_armor"] = self.building_armor.copy()
        fields["np"] = None if self.np is None else _copy_json(self.np)
        fields["mission"] = None if self.mission is None else _copy_json(self.mission)
        fields["options_cache"] = None
        fields["geometry_cache"] = None
        twin: Battle = _new(type(self))
        twin.__dict__ = fields
        return twin

    def to_dict(self) -> dict[str, Any]:
        """The battle as versioned JSON-compatible data."""
        data: dict[str, Any] = to_jsonable(self)
        data.pop("options_cache", None)
        data.pop("geometry_cache", None)
        return data

    @classmethod
    def from_dict(cls, data: Any, *, check: bool = True) -> Battle:
        """Rebuild a battle from :meth:`to_dict` output; malformed data raises StateError.

        ``check``: the rebuilt battle must also be a valid state
        (:func:`~.validity.check_battle`: armour within 0..the design's,
        items of the design, positions on the table, ids that resolve, a consistent pending
        decision); a caller that checks with its own flags passes ``check=False``.
        """
        if not isinstance(data, dict):
            raise StateError(f"a battle must be a JSON object, got {type(data).__name__}")
        version = data.get("version")
        if version != STATE_VERSION:
            raise StateError(
                f"battle format version {version!r}; this engine reads {STATE_VERSION}"
            )
        battle: Battle = from_jsonable(cls, data, where="battle")
        battle.mechs = dict(sorted(battle.mechs.items()))  # JSON may have reordered the keys
        # plain-JSON parts are copied: the battle must never share lists with the caller's data
        battle.frames = _copy_json(battle.frames)
        battle.np = _copy_json(battle.np)
        battle.mission = _copy_json(battle.mission)
        for key, mech in battle.mechs.items():
            if key != mech.id:
                raise StateError(f"battle.mechs.{key}: id field says {mech.id}")
            if len(mech.armor) != len(LOCATIONS):
                raise StateError(f"battle.mechs.{key}.armor: expected {len(LOCATIONS)} values")
        if check:
            from wargym.rules.no_quarter.battle.validity import check_battle

            check_battle(battle)
        return battle


def rubble(battlefield: Battlefield, feature: int) -> Battlefield:
    """The battlefield with building ``feature`` turned into rough ground (§19.4.2 ruling)."""
    features = list(battlefield.features)
    old = features[feature]
    features[feature] = Feature(Terrain.ROUGH, old.x0, old.y0, old.x1, old.y1)
    return dataclasses.replace(battlefield, features=tuple(features))


_new = object.__new__
_ATOMS = frozenset({str, int, float, bool, type(None)})
"""Exact types of JSON values that are shared, not copied."""


def _copy_json(value: Any) -> Any:
    """A copy of plain JSON data: every dict and list is new, everything else is shared."""
    if type(value) is list:
        return [v if type(v) in _ATOMS else _copy_json(v) for v in value]
    if type(value) is dict:
        out = value.copy()  # atoms stay; containers are replaced by copies below
        for k, v in value.items():
            if type(v) not in _ATOMS:
                out[k] = _copy_json(v)
        return out
    if isinstance(value, list):  # subclasses: copied as plain lists and dicts
        return [_copy_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    return value
