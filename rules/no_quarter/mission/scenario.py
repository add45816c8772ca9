"""Scenario files: a mission (or a head-to-head skirmish), both forces and every option (§22, §24).

A scenario is YAML under ``configs/scenarios/no_quarter/`` (schema in that package's
docstring and in :func:`parse_scenario`). :func:`load_scenario` reads it strictly: unknown
keys, wrong types, unknown mech ids, a mech of another faction, an illegal custom mech
(checked with :func:`~wargym.rules.no_quarter.forces.design.build_design`), a bad option name or a
force above the mission's limit raise a :class:`~wargym.rules.errors.TableError` naming the
file and the field. :meth:`Scenario.to_dict` gives data that parses back to an equal scenario.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from wargym.rules.dice import Dice
from wargym.rules.errors import RulesError, StateError, TableError
from wargym.rules.no_quarter.battle.state import BattleOptions
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Feature
from wargym.rules.no_quarter.battlefield.terrain_generator import GeneratorOptions, generate_terrain
from wargym.rules.no_quarter.battlefield.weather import (
    WEATHER_LABELS,
    MissionConditions,
    WeatherOptions,
    fixed_weather,
    roll_day_night,
    roll_weather,
)
from wargym.rules.no_quarter.forces.data import NoQuarterRules, RulesOptions, load_rules
from wargym.rules.no_quarter.forces.design import DesignError, build_design
from wargym.rules.no_quarter.forces.records import MechDesign
from wargym.rules.no_quarter.forces.setup import ForceSpec
from wargym.rules.no_quarter.forces.vocab import Faction, ItemType, Location, Side
from wargym.rules.no_quarter.mission.missions import (
    AttackObjective,
    MissionOptions,
    MissionType,
    PlanetStatus,
    mission_spec,
    player_force_limit,
)
from wargym.rules.serial import from_jsonable, to_jsonable
from wargym.rules.tables import Node, parse_yaml

PACKAGE = "wargym.configs"
FOLDER = "scenarios/no_quarter"
KINDS = ("patrol", "attack", "defend", "skirmish")
"""Scenario kinds: the three missions of §22 and a head-to-head skirmish without PEFs (§21.4)."""
NO_CAMPAIGN_MORALE = 3
"""Campaign Morale of both sides outside a campaign (§22.0 step 2)."""
_OPTION_TYPES: dict[str, type] = {
    "battle": BattleOptions,
    "rules": RulesOptions,
    "mission": MissionOptions,
    "terrain": GeneratorOptions,
    "weather": WeatherOptions,
}
_TOP_LIMITS = {"battle": "max_turns", "mission": "turn_limit"}


@dataclass(frozen=True, slots=True)
class CustomItem:
    """One item of a custom mech: type, location and (melee weapon only) WV (§10.10)."""

    type: ItemType
    location: Location
    wv: int | None = None


@dataclass(frozen=True, slots=True)
class CustomMech:
    """A scenario's own mech design, checked with the design rules when loaded (§10.10)."""

    id: str
    name: str
    faction: Faction
    armor: tuple[int, ...]
    """Armour in ``list(Location)`` order."""
    items: tuple[CustomItem, ...]

    def design(self, rules: NoQuarterRules) -> MechDesign:
        """Build and validate the design (raises DesignError listing every problem) (§10)."""
        specs = [
            (i.type, i.location) if i.wv is None else (i.type, i.location, i.wv) for i in self.items
        ]
        armor = dict(zip(Location, self.armor, strict=True))
        return build_design(
            rules, id=self.id, name=self.name, faction=self.faction, armor=armor, items=specs
        )


@dataclass(frozen=True, slots=True)
class SideSetup:
    """One side of a scenario: faction, mechs, Stars, Reps and Campaign Morale (§9, §23.3)."""

    faction: Faction
    mechs: tuple[str, ...] = ()
    """Pre-generated ids or ids of the scenario's custom mechs; empty: all from PEFs."""
    stars: int = 0
    reps: tuple[int, ...] | None = None
    """Fixed Reps, one per mech; None rolls them (§9.4)."""
    use_attributes: bool = True
    campaign_morale: int = NO_CAMPAIGN_MORALE


@dataclass(frozen=True, slots=True)
class Conditions:
    """Day/night and weather: fixed, or rolled with the mission's chances (§22.0, §23.7)."""

    night: str = "rolled"
    """``rolled``, ``day`` or ``night``."""
    weather: str = "rolled"
    """``rolled`` or one of ``clear``, ``inclement``, ``improving``, ``worsening``."""
    night_on: tuple[int, ...] | None = None
    """Faces that make it night; None uses the mission's (skirmish: never)."""
    inclement_on: tuple[int, ...] | None = None
    """Faces of the inclement chance; None uses the mission's (skirmish: 1, §23.7)."""


@dataclass(frozen=True, slots=True)
class ScenarioOptions:
    """Every option of a scenario, by the field names of the five option records."""

    battle: BattleOptions = field(default_factory=BattleOptions)
    rules: RulesOptions = field(default_factory=RulesOptions)
    mission: MissionOptions = field(default_factory=MissionOptions)
    terrain: GeneratorOptions = field(default_factory=GeneratorOptions)
    weather: WeatherOptions = field(default_factory=WeatherOptions)


@dataclass(frozen=True, slots=True)
class Scenario:
    """A loaded scenario: mission kind, both sides, table, terrain and options (§22, §24)."""

    name: str
    kind: str
    """``patrol``, ``attack``, ``defend`` or ``skirmish``."""
    player: SideSetup
    enemy: SideSetup
    description: str = ""
    custom_mechs: tuple[CustomMech, ...] = ()
    np_status: PlanetStatus = PlanetStatus.NO_CAMPAIGN
    """The NP side's status for table 22.3.1 (§23.4)."""
    attack_objective: AttackObjective | None = None
    """Attack: the player's objective if fixed; None: chosen at play (22.2.1)."""
    np_objective: AttackObjective | None = None
    """Defend: the NP objective if fixed; None: rolled (22.3.1)."""
    turn_limit: int | None = None
    conditions: Conditions = field(default_factory=Conditions)
    width: float = 36.0
    height: float = 36.0
    features: tuple[Feature, ...] | None = None
    """Fixed terrain; None generates it (§19.2)."""
    options: ScenarioOptions = field(default_factory=ScenarioOptions)
    source: str = ""
    force_limit: int | None = None
    """The player's force limit when a campaign mission sets its own (Cestus V: the Company)."""
    """Where it was loaded from (not part of :meth:`to_dict`)."""

    @property
    def mission(self) -> MissionType | None:
        """The §22 mission, or None for a skirmish."""
        return None if self.kind == "skirmish" else MissionType(self.kind)

    @property
    def uses_pefs(self) -> bool:
        """Missions bring the enemy as PEFs (§20); a skirmish has none."""
        return self.kind != "skirmish"

    def to_dict(self) -> dict[str, Any]:
        """Plain data that :func:`scenario_from_dict` turns back into an equal scenario."""
        data: dict[str, Any] = {
            f.name: to_jsonable(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if f.name not in ("kind", "source", "width", "height", "features", "options")
        }
        data["mission"] = self.kind
        data["custom_mechs"] = [
            {
                "id": m.id,
                "name": m.name,
                "faction": m.faction.value,
                "armor": {loc.value: a for loc, a in zip(Location, m.armor, strict=True)},
                "items": [
                    {"type": i.type.value, "location": i.location.value}
                    | ({} if i.wv is None else {"wv": i.wv})
                    for i in m.items
                ],
            }
            for m in self.custom_mechs
        ]
        data["table"] = {"width": self.width, "height": self.height}
        if self.features is not None:
            data["terrain"] = {"features": [f.to_dict() for f in self.features]}
        data["options"] = {
            k: {n: v for n, v in to_jsonable(o).items() if k != "battle" or n != "rules"}
            for k, o in ((k, getattr(self.options, k)) for k in _OPTION_TYPES)
        }
        for group, key in _TOP_LIMITS.items():
            data["options"][group].pop(key)
        return data

    def rules(self) -> NoQuarterRules:
        """The rules under the scenario's options, its custom mechs added (§10)."""
        rules = load_rules(self.options.rules)
        custom = {m.id: m.design(rules) for m in self.custom_mechs}
        return replace(rules, mechs={**rules.mechs, **custom}) if custom else rules

    def battle_options(self) -> BattleOptions:
        """BattleOptions with the scenario's rules options and turn limit."""
        limit = self.turn_limit or self.options.battle.max_turns
        return replace(self.options.battle, rules=self.options.rules, max_turns=limit)

    def mission_options(self) -> MissionOptions:
        """MissionOptions with the scenario's turn limit (§22)."""
        return replace(self.options.mission, turn_limit=self.turn_limit)

    def force_specs(self) -> tuple[ForceSpec, ...]:
        """ForceSpecs for ``setup.new_battle``: player blue, enemy red (sides with mechs)."""
        out = []
        for side, s in ((Side.BLUE, self.player), (Side.RED, self.enemy)):
            if s.mechs:
                out.append(ForceSpec(side, s.faction, s.mechs, s.stars, s.use_attributes))
        return tuple(out)

    def roll_conditions(self, dice: Dice) -> MissionConditions:
        """Day/night then weather, fixed or rolled with the mission's chances (§22.0, §23.7)."""
        c = self.conditions
        spec = mission_spec(self.kind) if self.mission is not None else None
        night_on = c.night_on if c.night_on is not None else (spec.night_on if spec else ())
        inclement_on = (
            c.inclement_on if c.inclement_on is not None else (spec.inclement_on if spec else None)
        )
        night, night_roll = (c.night == "night", None)
        if c.night == "rolled":
            night, night_roll = roll_day_night(dice, night_on)
        if c.weather == "rolled":
            weather, chance = roll_weather(dice, inclement_on)
            return MissionConditions(night, weather, night_roll, chance)
        return MissionConditions(night, fixed_weather(c.weather), night_roll, None)

    def battlefield(self, dice: Dice, conditions: MissionConditions | None = None) -> Battlefield:
        """The fixed or generated battlefield (§19.2), with the conditions' flags if given."""
        if self.features is not None:
            bf = Battlefield(self.width, self.height, self.features)
        else:
            gen = generate_terrain(
                dice, width=self.width, height=self.height, options=self.options.terrain
            )
            bf = gen.battlefield
        return conditions.apply(bf) if conditions is not None else bf


# -- loading ----------------------------------------------------------------------------------


def _enum(node: Node, enum_type: Any) -> Any:
    values = [m.value for m in enum_type]
    return enum_type(node.as_str(values))


def _options(node: Node | None) -> ScenarioOptions:
    if node is None:
        return ScenarioOptions()
    node.keys_exactly(set(), set(_OPTION_TYPES))
    built: dict[str, Any] = {}
    for key, tp in _OPTION_TYPES.items():
        child = node.get(key)
        data = {} if child is None or child.value is None else child.mapping()
        names = {f.name for f in dataclasses.fields(tp)} - {"rules"}
        for name in data:
            if str(name) not in names or _TOP_LIMITS.get(key) == name:
                hint = " (use the top-level turn_limit)" if _TOP_LIMITS.get(key) == name else ""
                where = child if child is not None else node
                raise where.fail(f"unknown option {name!r}{hint}; known: {sorted(names)}")
        try:
            built[key] = from_jsonable(tp, data, f"options.{key}")
        except (StateError, RulesError, ValueError) as error:
            raise TableError(f"{node.source}: {error}") from error
    return ScenarioOptions(**built)


def _side(node: Node) -> SideSetup:
    node.keys_exactly({"faction"}, {"mechs", "stars", "reps", "use_attributes", "campaign_morale"})
    mechs = node["mechs"].as_strs() if "mechs" in node else ()
    reps: tuple[int, ...] | None = None
    if "reps" in node and node["reps"].value not in ("rolled", None):
        reps = node["reps"].as_ints(1, 7)
        if len(reps) != len(mechs):
            raise node["reps"].fail(f"{len(reps)} Reps for {len(mechs)} mechs")
    stars = node["stars"].as_int(0, len(mechs)) if "stars" in node else 0
    return SideSetup(
        faction=_enum(node["faction"], Faction),
        mechs=mechs,
        stars=stars,
        reps=reps,
        use_attributes=node["use_attributes"].as_bool() if "use_attributes" in node else True,
        campaign_morale=node["campaign_morale"].as_int(1) if "campaign_morale" in node else 3,
    )


def _custom(node: Node, rules: NoQuarterRules) -> CustomMech:
    node.keys_exactly({"id", "name", "faction", "armor", "items"})
    node["armor"].keys_exactly({loc.value for loc in Location})
    items = []
    for row in node["items"].rows():
        row.keys_exactly({"type", "location"}, {"wv"})
        wv = row["wv"].as_int(1, 5) if "wv" in row else None
        items.append(CustomItem(_enum(row["type"], ItemType), _enum(row["location"], Location), wv))
    mech = CustomMech(
        node["id"].as_str(),
        node["name"].as_str(),
        _enum(node["faction"], Faction),
        tuple(node["armor"][loc.value].as_int(0) for loc in Location),
        tuple(items),
    )
    if mech.id in rules.mechs or mech.id in rules.rejected_mechs:
        raise node["id"].fail(f"{mech.id!r} is a pre-generated mech id")
    try:
        mech.design(rules)
    except DesignError as error:
        raise node.fail(str(error)) from error
    return mech


def _faces(node: Node | None) -> tuple[int, ...] | None:
    return None if node is None or node.value is None else node.as_ints(1, 6)


def _conditions(node: Node | None) -> Conditions:
    if node is None:
        return Conditions()
    node.keys_exactly(set(), {"night", "weather", "night_on", "inclement_on"})
    return Conditions(
        night=node["night"].as_str(["rolled", "day", "night"]) if "night" in node else "rolled",
        weather=node["weather"].as_str(["rolled", *WEATHER_LABELS])
        if "weather" in node
        else "rolled",
        night_on=_faces(node.get("night_on")),
        inclement_on=_faces(node.get("inclement_on")),
    )


def _check_forces(root: Node, sc: Scenario, rules: NoQuarterRules) -> None:
    for key, side in (("player", sc.player), ("enemy", sc.enemy)):
        rows = list(root[key]["mechs"].rows()) if "mechs" in root[key] else []
        for i, mech_id in enumerate(side.mechs):
            where = rows[i]
            try:
                design = rules.mech(mech_id)
            except TableError as error:
                raise where.fail(str(error)) from error
            if design.faction.table_row is not side.faction.table_row:
                raise where.fail(
                    f"{mech_id!r} is a {design.faction.value} mech, "
                    f"not {side.faction.value} (§10.8)"
                )
    if not sc.player.mechs:
        raise root["player"].fail("the player needs at least one mech")
    if sc.mission is None:
        if not sc.enemy.mechs:
            raise root["enemy"].fail("a skirmish needs enemy mechs (no PEFs)")
        return
    if sc.enemy.mechs:
        raise root["enemy"]["mechs"].fail("in a mission the enemy comes from PEFs (§22.2.2)")
    limit = sc.force_limit or player_force_limit(sc.mission, sc.player.faction)
    if len(sc.player.mechs) > limit:
        spec = mission_spec(sc.mission)
        raise root["player"]["mechs"].fail(
            f"{len(sc.player.mechs)} mechs exceed a {spec.player_force_max} ({limit}) (§22)"
        )


def parse_scenario(root: Node) -> Scenario:
    """Build a :class:`Scenario` from a YAML document node; errors name file and field."""
    required = {"name", "mission", "player", "enemy"}
    optional = {"description", "custom_mechs", "np_status", "attack_objective", "np_objective"}
    optional |= {"turn_limit", "conditions", "table", "terrain", "options", "force_limit"}
    root.keys_exactly(required, optional)
    kind = root["mission"].as_str(KINDS)
    options = _options(root.get("options"))
    rules = load_rules(options.rules)
    customs = (
        tuple(_custom(row, rules) for row in root["custom_mechs"].rows())
        if ("custom_mechs" in root)
        else ()
    )
    ids = [m.id for m in customs]
    if len(set(ids)) != len(ids):
        raise root["custom_mechs"].fail(f"duplicate custom mech ids in {ids}")

    def maybe(key: str, enum_type: Any, allowed_kind: str) -> Any:
        node = root.get(key)
        if node is None or node.value in (None, "rolled", "chosen"):
            return None
        if kind != allowed_kind:
            raise node.fail(f"only a {allowed_kind} scenario has {key}")
        return _enum(node, enum_type)

    table = root.get("table")
    width = height = 36.0
    if table is not None:
        table.keys_exactly({"width", "height"})
        width, height = table["width"].as_number(), table["height"].as_number()
    features = None
    terrain = root.get("terrain")
    if terrain is not None and terrain.value != "generated":
        terrain.keys_exactly({"features"})
        try:
            features = tuple(
                Feature.from_dict(row.value, f"terrain.features[{i}]")
                for i, row in enumerate(terrain["features"].rows())
            )
            Battlefield(width, height, features)
        except StateError as error:
            raise TableError(f"{root.source}: {error}") from error
    limit_node = root.get("turn_limit")
    force_node = root.get("force_limit")
    scenario = Scenario(
        name=root["name"].as_str(),
        kind=kind,
        player=_side(root["player"]),
        enemy=_side(root["enemy"]),
        description=root["description"].as_str() if "description" in root else "",
        custom_mechs=customs,
        np_status=_enum(root["np_status"], PlanetStatus)
        if "np_status" in root
        else (PlanetStatus.NO_CAMPAIGN),
        attack_objective=maybe("attack_objective", AttackObjective, "attack"),
        np_objective=maybe("np_objective", AttackObjective, "defend"),
        turn_limit=None if limit_node is None or limit_node.value is None else limit_node.as_int(1),
        conditions=_conditions(root.get("conditions")),
        width=width,
        height=height,
        features=features,
        options=options,
        source=root.source,
        force_limit=None
        if force_node is None or force_node.value is None
        else force_node.as_int(1),
    )
    _check_forces(root, scenario, scenario.rules())
    return scenario


def scenario_from_dict(data: Any, source: str = "<dict>") -> Scenario:
    """Parse plain data (e.g. :meth:`Scenario.to_dict` output) as a scenario file."""
    return parse_scenario(Node(data, source))


def scenario_names() -> tuple[str, ...]:
    """Names of the scenarios shipped under ``configs/scenarios/no_quarter``."""
    folder = resources.files(PACKAGE).joinpath(FOLDER)
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml")))


def load_scenario(path_or_name: str | Path) -> Scenario:
    """Load a scenario from a file path, or a shipped one by name (e.g. ``"skirmish"``)."""
    path = Path(path_or_name)
    if isinstance(path_or_name, Path) or path.suffix in (".yaml", ".yml") or path.exists():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise TableError(f"{path}: cannot read the scenario: {error}") from error
        return parse_scenario(parse_yaml(text, str(path)))
    resource = resources.files(PACKAGE).joinpath(f"{FOLDER}/{path_or_name}.yaml")
    if not resource.is_file():
        raise TableError(
            f"{FOLDER}/{path_or_name}.yaml: no such scenario; known: {scenario_names()}"
        )
    source = f"{FOLDER}/{path_or_name}.yaml"
    return parse_scenario(parse_yaml(resource.read_text(encoding="utf-8"), source))


def dump_scenario(scenario: Scenario) -> str:
    """YAML text of :meth:`Scenario.to_dict` (without the citation comment)."""
    return yaml.safe_dump(scenario.to_dict(), sort_keys=False)
