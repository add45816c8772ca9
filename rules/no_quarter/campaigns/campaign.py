"""Campaign state and campaign definitions of *No Quarter* as plain data (§23.1-§23.4, §27).

A :class:`CampaignDefinition` lists the missions (by name and scenario) with their per-mission
rules (turn limit, force limit, "no repairs after this mission" as in Cestus V Mission 8) and
how the next mission is found (the Next Mission table, §23.6, or the printed order, §27.5).
A :class:`Campaign` is the state between missions: month and mission counter, both sides'
Campaign Morale and planet status, the player's Company (pilots and Mechs), the history of
missions and the campaign events. :meth:`Campaign.to_dict` / :meth:`Campaign.from_dict` are
versioned and strict: any malformed value raises :class:`~wargym.rules.errors.StateError`
naming the field.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from wargym.rules.errors import RulesError, StateError, TableError, short_repr
from wargym.rules.no_quarter.campaigns.campaign_rules import CampaignRulesOptions, campaign_tables
from wargym.rules.no_quarter.forces.data import load_rules
from wargym.rules.no_quarter.forces.records import Pilot
from wargym.rules.no_quarter.forces.vocab import Attribute, Faction, Location, Race
from wargym.rules.no_quarter.mission.missions import MissionType, PlanetStatus
from wargym.rules.no_quarter.mission.scenario import Scenario, load_scenario
from wargym.rules.serial import from_jsonable, to_jsonable
from wargym.rules.tables import Node, parse_yaml

CAMPAIGN_VERSION = 1
"""Version of the serialised campaign format; bumped on any incompatible change."""
PACKAGE, FOLDER = "wargym.configs", "campaigns"
Status = Literal["rolled", "player_controls", "enemy_controls", "both_contest"]


@dataclass(frozen=True, slots=True)
class MissionSlot:
    """One mission of a campaign definition and its own rules (§22, §27.7)."""

    name: str
    scenario: str
    """A shipped scenario name (``configs/scenarios/no_quarter``) or a path."""
    turn_limit: int | None = None
    """Overrides the scenario's turn limit (None keeps it)."""
    force_limit: int | None = None
    """Most Company Mechs sent; None: the mission type's limit (§22, ``player_force_limit``)."""
    repairs_after: bool = True
    """False: no replacement pilots, repairs or replacement Mechs after it (Cestus V 8, §27.7)."""

    def load(self) -> Scenario:
        """The slot's scenario (TableError names a missing or invalid one)."""
        return _scenario(self.scenario)


@cache
def _scenario(name: str) -> Scenario:
    if name.startswith("cestus_v:"):  # a Cestus V mission by number (§27.8)
        from wargym.rules.no_quarter.cestus.cestus_v import campaign_definition

        # cestus_v:<n>[:<terrain>]: terrain map (default) or generated (§27.4 ruling)
        number_text, _, terrain = name.split(":", 1)[1].partition(":")
        try:
            number = int(number_text)
            return (
                campaign_definition()
                .mission(number)
                .scenario("gaea_prime", terrain=terrain or "map")
            )
        except (ValueError, StateError) as error:
            why = f" ({error})" if isinstance(error, StateError) else ""
            raise TableError(
                f"{short_repr(name)}: expected cestus_v:<mission number>[:map|:generated]{why}"
            ) from error
    return load_scenario(name)


@dataclass(frozen=True, slots=True)
class CampaignDefinition:
    """A campaign as data: sides, starting Company, missions and options (§23, §24, §27)."""

    name: str
    sides: tuple[Faction, Faction]
    """(the book's player side, the other side)."""
    company: dict[Faction, tuple[str, ...]]
    """The starting Company's Mech design ids for each playable faction (§23.2, §27.3)."""
    missions: tuple[MissionSlot, ...]
    description: str = ""
    playable: tuple[Faction, ...] = ()
    """Factions the player may take (empty: the first side only); the other side is the NP's."""
    stars: int = 1
    company_rolled: bool = False
    """Cestus V §27.3 ruling: roll each Team's Class (its campaign's Company table) instead of
    fielding ``company`` as listed; ``company`` then only needs to name the playable factions."""
    use_attributes: bool = True
    sequence: Literal["next_mission_table", "fixed"] = "next_mission_table"
    max_missions: int | None = None
    """A limit on missions played (decision 47); the higher CM then wins."""
    status: Status = "rolled"
    starting_morale: dict[Faction, int] = field(default_factory=dict)
    """Overrides of table 23.3 (Cestus V: Hishen 4, Star Army 4, ISS 5)."""
    final_compare: bool = False
    """A fixed campaign ends after its last mission; the higher CM wins (§27.5 ruling)."""
    rules: CampaignRulesOptions = field(default_factory=CampaignRulesOptions)

    @property
    def player_factions(self) -> tuple[Faction, ...]:
        """Factions the player may take."""
        return self.playable or (self.sides[0],)

    def opponent(self, faction: Faction) -> Faction:
        """The NP side's faction when the player takes ``faction`` (label swap, §27.1)."""
        return self.sides[1] if faction is self.sides[0] else self.sides[0]

    def slot(self, name: str) -> MissionSlot:
        """The mission slot called ``name``."""
        for slot in self.missions:
            if slot.name == name:
                return slot
        raise RulesError(f"campaign {self.name!r} has no mission {name!r}")

    def slot_for(self, kind: MissionType) -> MissionSlot:
        """The first slot whose scenario is a ``kind`` mission (Next Mission table, §23.6)."""
        for slot in self.missions:
            if slot.load().mission is kind:
                return slot
        raise RulesError(f"campaign {self.name!r} has no {kind.value} mission")

    def first_slot(self) -> MissionSlot:
        """The first mission: a Patrol under the table (§22.1), else the first listed."""
        if self.sequence == "fixed":
            return self.missions[0]
        return self.slot_for(campaign_tables().first_mission)

    def check(self) -> None:
        """Cross-check ids, factions, scenarios and limits; raises RulesError naming the field."""
        rules = load_rules()
        if not self.missions:
            raise RulesError(f"{self.name}: missions: at least one mission is needed")
        names = [s.name for s in self.missions]
        if len(set(names)) != len(names):
            raise RulesError(f"{self.name}: missions: duplicate names in {names}")
        if self.sides[0] is self.sides[1]:
            raise RulesError(f"{self.name}: sides: two different factions are needed")
        for faction in self.player_factions:
            if faction not in self.sides:
                raise RulesError(f"{self.name}: playable: {faction.value} is not a side")
            ids = self.company.get(faction)
            if not ids:
                raise RulesError(f"{self.name}: company.{faction.value}: no Mechs listed")
            for i, mech_id in enumerate(ids):
                design = rules.mech(mech_id)  # TableError names an unknown id
                if design.faction is not faction.table_row:
                    raise RulesError(
                        f"{self.name}: company.{faction.value}[{i}]: {mech_id!r} is a "
                        f"{design.faction.value} Mech"
                    )
            if not 0 <= self.stars <= len(ids):
                raise RulesError(f"{self.name}: stars: {self.stars} for {len(ids)} Mechs")
        for i, slot in enumerate(self.missions):
            sc = slot.load()
            if sc.mission is None:
                raise RulesError(f"{self.name}: missions[{i}]: {slot.scenario} is a skirmish")
            for key in ("turn_limit", "force_limit"):
                value = getattr(slot, key)
                if value is not None and value < 1:
                    raise RulesError(f"{self.name}: missions[{i}].{key}: must be >= 1")
        if self.sequence == "next_mission_table":
            for kind in MissionType:
                self.slot_for(kind)
        if self.max_missions is not None and self.max_missions < 1:
            raise RulesError(f"{self.name}: max_missions: must be >= 1")


def definition_from_dict(data: Any, source: str = "<dict>") -> CampaignDefinition:
    """Build and check a definition from plain data (a YAML document or a save)."""
    if isinstance(data, dict) and "rules" in data and not isinstance(data["rules"], dict):
        raise StateError(f"{source}: rules: expected an object")
    try:
        definition = from_jsonable(CampaignDefinition, data, source)
        assert isinstance(definition, CampaignDefinition)
        definition.check()
    except (RulesError, TypeError, ValueError, KeyError) as error:
        raise StateError(f"{source}: {error}") from error
    return definition


def load_definition(path_or_name: str | Path) -> CampaignDefinition:
    """Load a campaign definition from a file, or a shipped one by name (``"generic"``)."""
    path = Path(path_or_name)
    if isinstance(path_or_name, Path) or path.suffix in (".yaml", ".yml") or path.exists():
        source = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise TableError(f"{source}: cannot read the campaign: {error}") from error
    else:
        source = f"{FOLDER}/{path_or_name}.yaml"
        resource = resources.files(PACKAGE).joinpath(source)
        if not resource.is_file():
            raise TableError(f"{source}: no such campaign")
        text = resource.read_text(encoding="utf-8")
    node: Node = parse_yaml(text, source)
    try:
        return definition_from_dict(node.value, source)
    except StateError as error:
        raise TableError(str(error)) from error


# -- the Company ---------------------------------------------------------------------------------
class PilotState(enum.Enum):
    """Where a Company pilot stands (§23.9.1)."""

    ACTIVE = "active"
    """With the Company (in a Mech or spare)."""
    DEAD = "dead"
    """Killed in action."""
    LOST = "lost"
    """Shipped out after leaving the battlefield or bailing out (recovery pass 0)."""


class MechState(enum.Enum):
    """Where a Company Mech stands (§23.9.5, §23.9.6)."""

    READY = "ready"
    """Available (possibly still damaged when no repairs were allowed)."""
    REPAIRING = "repairing"
    """Repaired but unavailable for ``unavailable`` more missions (repair pass 0)."""
    DISABLED = "disabled"
    """Inoperable and not yet repaired (no repairs allowed after the mission)."""
    LOST = "lost"
    """Exploded or abandoned on the field; waiting for a replacement (§23.9.6)."""
    REPLACED = "replaced"
    """Lost and already replaced by a new Mech of the same design."""


@dataclass
class CompanyPilot:
    """A pilot of the Company: Rep, attributes, Star, state and Mech (§9, §23.9)."""

    id: int
    name: str
    race: Race
    rep: int
    star: bool
    attributes: tuple[Attribute, ...]
    state: PilotState = PilotState.ACTIVE
    mech: int | None = None
    missions: int = 0
    kills: int = 0

    def as_pilot(self, faction: Faction) -> Pilot:
        """The battle engine's pilot record."""
        return Pilot(self.name, faction, self.race, self.rep, self.star, self.attributes)


@dataclass
class CompanyMech:
    """A Mech of the Company with its current armour and damage (§10, §23.9.5)."""

    id: int
    design: str
    armor: tuple[int, ...]
    speed: int
    inoperable: tuple[int, ...] = ()
    lost_limbs: tuple[Location, ...] = ()
    state: MechState = MechState.READY
    unavailable: int = 0
    pilot: int | None = None
    lost_in: int | None = None
    """The mission in which it was lost."""

    def damaged(self) -> bool:
        """Lost armour, items, limbs or speed, or inoperable (ruling D31, §23.9.5)."""
        design = load_rules().mech(self.design)
        return (
            self.state is MechState.DISABLED
            or bool(self.inoperable or self.lost_limbs)
            or self.speed < design.speed
            or any(a < b for a, b in zip(self.armor, design.armor, strict=True))
        )

    def repair(self) -> None:
        """Fully repaired: the design's armour, items and speed (§23.9.5)."""
        design = load_rules().mech(self.design)
        self.armor, self.speed = design.armor, design.speed
        self.inoperable, self.lost_limbs = (), ()


@dataclass
class MissionRecord:
    """One mission played: what went, the result, morale and losses (§23.5, §23.9)."""

    number: int
    month: int
    name: str
    scenario: str
    kind: str
    status: str
    reason: str
    turns: int
    mechs: tuple[int, ...]
    pilots: tuple[int, ...]
    player_cm: tuple[int, int]
    """(before, after) the morale change."""
    enemy_cm: tuple[int, int]
    mechs_lost: tuple[int, ...] = ()
    pilots_dead: tuple[int, ...] = ()
    pilots_lost: tuple[int, ...] = ()


@dataclass
class Campaign:
    """The whole campaign state between (or during) missions (§23, §24)."""

    definition: CampaignDefinition
    player: Faction
    enemy: Faction
    player_cm: int
    enemy_cm: int
    player_status: PlanetStatus
    enemy_status: PlanetStatus
    pilots: list[CompanyPilot]
    mechs: list[CompanyMech]
    next_mission: str
    """The slot of the next mission."""
    played: int = 0
    history: list[MissionRecord] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    """Every campaign event so far, in ``Event.to_dict`` form."""
    last_success: bool | None = None
    result: str | None = None
    """``win``, ``loss`` or ``draw`` once over (§23.3.1)."""
    end_reason: str = ""
    carry_over: int = 0
    """Local hero (+1) or disgrace (-1): the player's starting CM next campaign (§23.3.1)."""
    version: int = CAMPAIGN_VERSION

    @property
    def over(self) -> bool:
        """The campaign has ended."""
        return self.result is not None

    @property
    def month(self) -> int:
        """The current month; each month has two missions (§23.1)."""
        return self.played // campaign_tables().missions_per_month + 1

    @property
    def mission_number(self) -> int:
        """The number of the next mission (1-based)."""
        return self.played + 1

    def pilot(self, pilot_id: int) -> CompanyPilot:
        """The pilot with ``pilot_id``."""
        for p in self.pilots:
            if p.id == pilot_id:
                return p
        raise StateError(f"no pilot with id {pilot_id}")

    def mech(self, mech_id: int) -> CompanyMech:
        """The Mech with ``mech_id``."""
        for m in self.mechs:
            if m.id == mech_id:
                return m
        raise StateError(f"no Company Mech with id {mech_id}")

    def available_mechs(self) -> list[CompanyMech]:
        """Mechs that may go on the next mission: ready, with an active pilot (§23.2)."""
        return [m for m in self.mechs if m.state is MechState.READY and m.pilot is not None]

    def spare_pilots(self) -> list[CompanyPilot]:
        """Active pilots without a Mech (§23.9.4)."""
        return [p for p in self.pilots if p.state is PilotState.ACTIVE and p.mech is None]

    def destroyed(self) -> bool:
        """No Mech left that is not lost, or no active pilot (§27.5)."""
        alive = [m for m in self.mechs if m.state not in (MechState.LOST, MechState.REPLACED)]
        return not alive or not any(p.state is PilotState.ACTIVE for p in self.pilots)

    def to_dict(self) -> dict[str, Any]:
        """The campaign as versioned JSON-compatible data."""
        data: dict[str, Any] = to_jsonable(self)
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Campaign:
        """Rebuild from :meth:`to_dict` output; malformed data raises StateError naming it."""
        if not isinstance(data, dict):
            raise StateError(f"campaign: expected an object, got {type(data).__name__}")
        if data.get("version") != CAMPAIGN_VERSION:
            raise StateError(
                f"campaign.version: {data.get('version')!r}; this engine reads {CAMPAIGN_VERSION}"
            )
        definition = definition_from_dict(data.get("definition"), "campaign.definition")
        rest = {k: v for k, v in data.items() if k != "definition"}
        rest["definition"] = to_jsonable(definition)
        try:
            campaign = from_jsonable(cls, rest, "campaign")
        except (TypeError, ValueError, KeyError) as error:
            raise StateError(f"campaign: {error}") from error
        assert isinstance(campaign, Campaign)
        campaign.definition = definition
        validate(campaign)
        return campaign


def validate(c: Campaign) -> None:
    """Check ranges and cross-references of a campaign; StateError names the field."""
    d = c.definition
    if c.player not in d.player_factions or c.enemy is not d.opponent(c.player):
        raise StateError(f"campaign.player: {c.player.value} vs {c.enemy.value} not in {d.name}")
    for key in ("player_cm", "enemy_cm", "played"):
        if getattr(c, key) < 0:
            raise StateError(f"campaign.{key}: {getattr(c, key)} is negative")
    names = {s.name for s in d.missions}
    if c.next_mission not in names:
        raise StateError(f"campaign.next_mission: {c.next_mission!r} not in {sorted(names)}")
    if c.result not in (None, "win", "loss", "draw"):
        raise StateError(f"campaign.result: {c.result!r}")
    rules = load_rules()
    pilots = {p.id: p for p in c.pilots}
    mechs = {m.id: m for m in c.mechs}
    if len(pilots) != len(c.pilots) or len(mechs) != len(c.mechs):
        raise StateError("campaign: duplicate pilot or Mech ids")
    for i, p in enumerate(c.pilots):
        where = f"campaign.pilots[{i}]"
        if p.rep < 1:
            raise StateError(f"{where}.rep: {p.rep} below 1")
        if p.mech is not None:
            if p.mech not in mechs or mechs[p.mech].pilot != p.id:
                raise StateError(f"{where}.mech: {p.mech} does not name this pilot back")
            if p.state is not PilotState.ACTIVE:
                raise StateError(f"{where}.mech: a {p.state.value} pilot has a Mech")
    for i, m in enumerate(c.mechs):
        where = f"campaign.mechs[{i}]"
        try:
            design = rules.mech(m.design)
        except TableError as error:
            raise StateError(f"{where}.design: {error}") from error
        if len(m.armor) != len(design.armor) or any(
            not 0 <= a <= b for a, b in zip(m.armor, design.armor, strict=False)
        ):
            raise StateError(f"{where}.armor: {m.armor} does not fit {design.armor}")
        if any(not 0 <= i < len(design.items) for i in m.inoperable):
            raise StateError(f"{where}.inoperable: {m.inoperable} out of range")
        if not 0 <= m.speed <= design.speed or m.unavailable < 0:
            raise StateError(f"{where}: speed {m.speed} or unavailable {m.unavailable} invalid")
        if m.pilot is not None and (m.pilot not in pilots or pilots[m.pilot].mech != m.id):
            raise StateError(f"{where}.pilot: {m.pilot} does not name this Mech back")
