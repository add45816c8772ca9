"""Cestus V records: enums and frozen dataclasses of the missions and the campaign (§27).

Loaded from YAML by :mod:`~wargym.rules.no_quarter.cestus.cestus_v_data`; split from it to keep both
modules small. The proposed maps (27.4) are kept as :class:`MapFeature` rectangles.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.forces.vocab import Faction
from wargym.rules.no_quarter.mission.missions import AttackObjective, MissionType

if TYPE_CHECKING:
    from wargym.rules.no_quarter.mission.scenario import Scenario

TABLE_INCHES = 36.0
"""Every Cestus V map is drawn for a 3 ft x 3 ft table (27.4)."""


class ObjectiveKind(enum.Enum):
    """The kinds of Cestus V objective (§27.8; N.0.1 of each mission)."""

    RECON_REPORT = "recon_report"
    """Mission 1: reconnoitre the far sections, then report back across the south edge."""
    BRIDGEHEAD = "bridgehead"
    """Mission 2: clear the bridge and hold the far bank."""
    EXIT_FRACTION = "exit_fraction"
    """Missions 3, 5, 9: a fraction of the force exits through the named section(s)."""
    CLEAR_VILLAGE = "clear_village"
    """Mission 4: every PEF and Hishen mech gone, every village building checked."""
    WITHDRAWAL = "withdrawal"
    """Mission 6: hold, then escape north (not before turn 5), trading casualties evenly."""
    STONEWALL = "stonewall"
    """Mission 7: no Hishen mech exits through sections 1-3."""
    PICK_AND_ROLL = "pick_and_roll"
    """Mission 8: no Hishen exit through section 7; cross the bridge into section 3."""
    DESTROY_ALL = "destroy_all"
    """Mission 10: every PEF resolved and every Hishen mech driven off or destroyed."""


class MissionEnd(enum.Enum):
    """When a Cestus V mission ends (§27.7, the mission_end rulings of §27.8)."""

    NO_PLAYER_MECH = "no_player_mech"
    SUCCESS_OR_NO_PLAYER_MECH = "success_or_no_player_mech"
    THRESHOLD_OR_NO_PLAYER_MECH = "threshold_or_no_player_mech"
    EXIT_OR_CLEAR_OR_NO_PLAYER_MECH = "exit_or_clear_or_no_player_mech"
    CLEAR_OR_NO_PLAYER_MECH = "clear_or_no_player_mech"


class NpObjectiveRule(enum.Enum):
    """The NP side's objective in a Cestus V mission (decision 37)."""

    NONE = "none"
    """The NP defends (or patrols): no objective."""
    ROLL_CONTESTS = "roll_contests"
    """Mission 6: roll 22.3.1 on the 'contests' row (27.5)."""
    BREAK_THROUGH = "break_through"
    """Mission 7: fixed, break through across the north edge (sections 1-3)."""
    EXIT_SECTION_7 = "exit_section_7"
    """Mission 8: fixed, exit the table through section 7."""


class PefPlacementKind(enum.Enum):
    """How a mission's opening PEFs are placed (§20.0; 27.8 N.0.4)."""

    STANDARD = "standard"
    """Three PEFs by 1d6 section, hidden if possible, plus building PEFs (20.0, 20.1)."""
    ENTER_RANDOM = "enter_random"
    """Missions 6, 7: each PEF enters at the middle of the south edge of a rolled section."""
    FIXED_SECTIONS = "fixed_sections"
    """Mission 8: one PEF in each named section, hidden if possible."""


class TrollPlacement(enum.Enum):
    """Results of The Troll table (§27.8, Mission 2, 2.0.6)."""

    ON_BRIDGE = "on_bridge"
    ON_HILL = "on_hill"
    NONE = "none"
    """Nothing visible: test again at the next player activation."""


@dataclass(frozen=True, slots=True)
class Objective:
    """One mission's objective and its parameters (§27.8, N.0.1); unused fields keep defaults."""

    kind: ObjectiveKind
    recon_sections: tuple[int, ...] = ()
    within_in: float = 0.0
    """Recon: a player mech within this distance of the north edge inside a far section."""
    report_edge: str = "south"
    exit_sections: tuple[int, ...] = ()
    """Exit objectives: exits across an edge segment bordering these sections count (0.2)."""
    fraction: Fraction = Fraction(1, 2)
    """Exit objectives: share of the force that must exit (denominator: ruling 29)."""
    edge: str = "north"
    """Withdrawal: the escape edge."""
    not_before_turn: int = 1
    """Withdrawal: first turn a voluntary exit is allowed (turns count from 1)."""
    enemy_casualties_at_least_own: bool = False
    village: tuple[str, ...] = ()
    """Map names of the village buildings that must be checked (decision 34)."""
    forbid_enemy_exit_sections: tuple[int, ...] = ()
    bridge: str = ""
    river: str = ""
    clear_radius_in: float = 0.0
    hold_radius_in: float = 0.0
    min_mechs: int = 0
    """Bridge objectives: functioning mechs needed across (all survivors if fewer, >= 1)."""
    into_section: int = 0


@dataclass(frozen=True, slots=True)
class TrollRule:
    """The Troll of Mission 2: table and placement rulings (§27.8, Mission 2, 2.0.6)."""

    mech_class: int
    bridge: str
    hill: str
    beside_crest_in: float
    per_mission: int
    rows: Mapping[int, TrollPlacement]


@dataclass(frozen=True, slots=True)
class SpecialRules:
    """A mission's special rules as named flags with parameters (§27.7, §27.8 N.0.5-N.0.9)."""

    troll: TrollRule | None = None
    building_armor: int | None = None
    """Every building is one area with this armour."""
    river_width_in: float | None = None
    village_section: int | None = None
    no_withdrawal_before_turn: int | None = None
    no_repairs_or_replacements_after: bool = False
    """8.0.9: no replacement pilots, repairs or replacement mechs after this mission."""
    crest_hill: str | None = None
    carry_over_damage: bool = False
    """The Company fights with the damage and losses of the previous mission."""


@dataclass(frozen=True, slots=True)
class ForceRow:
    """One 2d6 row: ``(lo, hi, class)`` bands of a further 1d6; one band (1, 6) when plain."""

    bands: tuple[tuple[int, int, int], ...]

    @property
    def split(self) -> bool:
        """Whether this row needs the extra 1d6 (§5.3 possibilities)."""
        return len(self.bands) > 1


@dataclass(frozen=True, slots=True)
class ForceTable:
    """An Enemy Force or Star Army Force table of one mission: 2d6 summed -> Class (§27.6)."""

    kind: str
    """``enemy_force`` or ``star_army_force``."""
    source_list: str
    rows: Mapping[int, ForceRow]


@dataclass(frozen=True, slots=True)
class PefTable:
    """PEF Resolution - Mission N: 1d6 face -> change to the triggering force (§27.2, §27.6)."""

    source_list: str
    minimum_enemies: int
    deltas: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class MapFeature:
    """A named feature of a proposed map and the rectangles it becomes (§27.4)."""

    name: str
    type: str
    """``woods``, ``rough``, ``hill``, ``river``, ``road``, ``bridge`` or ``building``."""
    features: tuple[Feature, ...]
    sections: tuple[int, ...]

    @property
    def rect(self) -> tuple[float, float, float, float]:
        """Bounding box of the feature's rectangles."""
        fs = self.features
        return (
            min(f.x0 for f in fs),
            min(f.y0 for f in fs),
            max(f.x1 for f in fs),
            max(f.y1 for f in fs),
        )


@dataclass(frozen=True, slots=True)
class Placement:
    """Deployment (player) or PEF placement (NP) of a mission (§27.8, N.0.4)."""

    kind: str
    """Player: ``enter_edge`` or ``set_up``; PEFs: a :class:`PefPlacementKind` value."""
    sections: tuple[int, ...] = ()
    edge: str = "south"
    count: int = 3
    faces: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    """ENTER_RANDOM: section -> 1d6 range."""


@dataclass(frozen=True, slots=True)
class CestusMission:
    """One Cestus V mission as data (§27.8): objective, forces, deployment, tables and map."""

    number: int
    name: str
    stem: str
    """The file stem under ``configs/campaigns/cestus_v``."""
    kind: MissionType
    np_posture: str
    generic_objective: AttackObjective | None
    """The nearest §22 Attack objective (the generic engine needs one); None if not Attack."""
    np_objective: NpObjectiveRule
    objective: Objective
    mission_end: MissionEnd
    formations: tuple[str, ...]
    default_formation: str
    deployment: Placement
    home_edge: str
    """The player's home edge (north in Missions 6 and 7); the NP's is the opposite one."""
    pef_placement: Placement
    night_on: tuple[int, ...]
    inclement_on: tuple[int, ...]
    np_tables: tuple[str, ...]
    special: SpecialRules
    pef_resolution: PefTable
    enemy_force: ForceTable
    star_army_force: ForceTable
    map: tuple[MapFeature, ...]
    source: str

    @property
    def np_home_edge(self) -> str:
        """The NP side's own edge: opposite the player's (decision 27)."""
        return "south" if self.home_edge == "north" else "north"

    def feature(self, name: str) -> MapFeature:
        """The named map feature (StateError if the map has none)."""
        for f in self.map:
            if f.name == name:
                return f
        raise StateError(f"mission {self.number}: no map feature {name!r}")

    def features(self) -> tuple[Feature, ...]:
        """Every rectangle of the fixed battlefield, in map order (§27.4)."""
        return tuple(f for m in self.map for f in m.features)

    def feature_indices(self, name: str) -> tuple[int, ...]:
        """Indices in :meth:`features` (= battlefield feature indices) of a named feature."""
        out, index = [], 0
        for m in self.map:
            for _ in m.features:
                if m.name == name:
                    out.append(index)
                index += 1
        if not out:
            raise StateError(f"mission {self.number}: no map feature {name!r}")
        return tuple(out)

    def battlefield(self) -> Battlefield:
        """The fixed 36" x 36" battlefield of the mission (§27.4)."""
        return Battlefield(TABLE_INCHES, TABLE_INCHES, self.features())

    def scenario(
        self,
        side: str = "gaea_prime",
        *,
        faction: Faction | None = None,
        mechs: Sequence[str] | None = None,
        reps: Sequence[int] | None = None,
        stars: int = 1,
        player_morale: int | None = None,
        enemy_morale: int | None = None,
        turn_limit: int | None = None,
        options: Mapping[str, Any] | None = None,
        terrain: str = "map",
    ) -> Scenario:
        """A playable scenario as either side (``cestus_v_rolls.mission_scenario``) (§27.1).

        ``terrain``: ``map`` (the mission's proposed layout, §27.4) or ``generated`` (27.4
        ruling).
        """
        from wargym.rules.no_quarter.cestus.cestus_v_rolls import mission_scenario

        return mission_scenario(
            self,
            side,
            faction=faction,
            mechs=mechs,
            reps=reps,
            stars=stars,
            player_morale=player_morale,
            enemy_morale=enemy_morale,
            turn_limit=turn_limit,
            options=options,
            terrain=terrain,
        )


@dataclass(frozen=True, slots=True)
class CestusCampaign:
    """Cestus V: ordered missions and the campaign-level rules (§27.1-27.7)."""

    name: str
    missions: tuple[CestusMission, ...]
    sides: Mapping[str, tuple[Faction, ...]]
    """``gaea_prime`` and ``hishen`` -> the factions that may play that side (27.1)."""
    starting_morale: Mapping[Faction, int]
    status: Mapping[str, str]
    use_next_mission_table: bool
    end_conditions: tuple[str, ...]
    aftermath_default: tuple[str, ...]
    aftermath_after: Mapping[int, tuple[str, ...]]
    """Mission number -> the only aftermath steps allowed after it (27.7, 8.0.9)."""
    unavailable_countdown_continues: bool
    company_teams: int
    company_class_table: tuple[int, str]
    """(mission, ``enemy_force`` | ``star_army_force``): the table rolled per Team (27.3)."""
    star_rep: int
    source: str
    generated_overall: str = "clear"
    """27.4 ruling, option ``terrain="generated"``: the 19.2 column the terrain is rolled on."""
    generated_keep_types: tuple[str, ...] = ("river", "bridge", "road", "building")
    """27.4 ruling: map features of these types are forced into a generated battlefield."""

    def mission(self, number: int) -> CestusMission:
        """Mission ``number`` (1-based, §27.2)."""
        if not 1 <= number <= len(self.missions):
            raise StateError(f"Cestus V has missions 1-{len(self.missions)}, not {number}")
        return self.missions[number - 1]

    @property
    def last_mission(self) -> int:
        """The last mission's number: the campaign ends after it (27.5 ruling)."""
        return len(self.missions)
