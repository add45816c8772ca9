"""Cestus V as data: the ten missions and the campaign, loaded strictly from YAML (§27).

``configs/campaigns/cestus_v/`` holds ``campaign.yaml`` and one file per mission (schema in
that package's docstring). :func:`load_mission` and :func:`campaign_definition` read them into
frozen records; every error is a :class:`~wargym.rules.errors.TableError` naming the file, the
key path and the row. The proposed maps (27.4, maps missing from the source) become
:class:`~.terrain.Feature` rectangles: a hill is its ellipse's bounding
box with the printed crest, a road polyline one 2"-wide rectangle per (axis-aligned) segment,
a bridge a road rectangle ("counts as road"). Scenario building, objectives and dice live in
:mod:`wargym.rules.no_quarter.cestus.cestus_v` (split to keep modules small).
"""

from __future__ import annotations

import enum
from fractions import Fraction
from functools import cache
from typing import TypeVar

from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battlefield.sections import section_rect
from wargym.rules.no_quarter.battlefield.terrain import Feature
from wargym.rules.no_quarter.battlefield.terrain_generator import OverallType
from wargym.rules.no_quarter.cestus.cestus_v_records import (
    TABLE_INCHES,
    CestusCampaign,
    CestusMission,
    ForceRow,
    ForceTable,
    MapFeature,
    MissionEnd,
    NpObjectiveRule,
    Objective,
    ObjectiveKind,
    PefPlacementKind,
    PefTable,
    Placement,
    SpecialRules,
    TrollPlacement,
    TrollRule,
)
from wargym.rules.no_quarter.forces.vocab import Faction, Terrain
from wargym.rules.no_quarter.mission.missions import AttackObjective, MissionType
from wargym.rules.no_quarter.sight_movement.geometry import Point
from wargym.rules.tables import Node, load_config

FOLDER = "campaigns/cestus_v"
EDGES = ("north", "south", "east", "west")
FORMATIONS = ("team", "squad", "platoon", "company")


# -- loading ----------------------------------------------------------------------------------
E = TypeVar("E", bound=enum.Enum)


def _enum(node: Node, kind: type[E]) -> E:
    return kind(node.as_str([m.value for m in kind]))


def _point(node: Node) -> Point:
    x, y = (row.as_number() for row in _pair(node))
    return (x, y)


def _pair(node: Node) -> list[Node]:
    rows = list(node.rows())
    if len(rows) != 2:
        raise node.fail(f"expected two values, got {len(rows)}")
    return rows


def _sections(node: Node) -> tuple[int, ...]:
    out = node.as_ints(1, 9)
    if len(set(out)) != len(out):
        raise node.fail(f"repeated section in {list(out)}")
    return out


def _objective(node: Node) -> Objective:
    kind = _enum(node["kind"], ObjectiveKind)
    keys = {
        ObjectiveKind.RECON_REPORT: {"recon_sections", "within_in", "report_edge"},
        ObjectiveKind.BRIDGEHEAD: {"bridge", "river", "clear_radius_in", "hold_radius_in"},
        ObjectiveKind.EXIT_FRACTION: {"sections", "fraction"},
        ObjectiveKind.CLEAR_VILLAGE: {"village"},
        ObjectiveKind.WITHDRAWAL: {"edge", "not_before_turn", "fraction"},
        ObjectiveKind.STONEWALL: {"forbid_enemy_exit_sections"},
        ObjectiveKind.PICK_AND_ROLL: {"forbid_enemy_exit_sections", "bridge", "river"},
        ObjectiveKind.DESTROY_ALL: set(),
    }[kind]
    if kind is ObjectiveKind.BRIDGEHEAD:
        keys |= {"min_mechs"}
    if kind is ObjectiveKind.PICK_AND_ROLL:
        keys |= {"into_section", "min_mechs"}
    if kind is ObjectiveKind.WITHDRAWAL:
        keys |= {"enemy_casualties_at_least_own"}
    node.keys_exactly({"kind"} | keys)
    fraction = Fraction(1, 2)
    if "fraction" in node:
        num, den = (r.as_int(1, 10) for r in _pair(node["fraction"]))
        if num > den:
            raise node["fraction"].fail(f"{num}/{den} is more than the whole force")
        fraction = Fraction(num, den)

    def get(key: str) -> Node | None:
        return node.get(key)

    def text(key: str, default: str = "") -> str:
        n = get(key)
        return default if n is None else n.as_str()

    def number(key: str) -> float:
        n = get(key)
        return 0.0 if n is None else n.as_number()

    def ints(key: str) -> tuple[int, ...]:
        n = get(key)
        return () if n is None else _sections(n)

    edge_node = get("edge")
    report = get("report_edge")
    turn = get("not_before_turn")
    mechs = get("min_mechs")
    into = get("into_section")
    village = get("village")
    cas = get("enemy_casualties_at_least_own")
    return Objective(
        kind=kind,
        recon_sections=ints("recon_sections"),
        within_in=number("within_in"),
        report_edge=report.as_str(EDGES) if report is not None else "south",
        exit_sections=ints("sections"),
        fraction=fraction,
        edge=edge_node.as_str(EDGES) if edge_node is not None else "north",
        not_before_turn=turn.as_int(1, 50) if turn is not None else 1,
        enemy_casualties_at_least_own=cas.as_bool() if cas is not None else False,
        village=village.as_strs() if village is not None else (),
        forbid_enemy_exit_sections=ints("forbid_enemy_exit_sections"),
        bridge=text("bridge"),
        river=text("river"),
        clear_radius_in=number("clear_radius_in"),
        hold_radius_in=number("hold_radius_in"),
        min_mechs=mechs.as_int(1, 36) if mechs is not None else 0,
        into_section=into.as_int(1, 9) if into is not None else 0,
    )


def _special(node: Node) -> SpecialRules:
    node.keys_exactly(
        set(),
        {"troll", "building_armor", "river_width_in", "village_section"}
        | {"no_withdrawal_before_turn", "no_repairs_or_replacements_after", "crest_hill"}
        | {"carry_over_damage"},
    )
    troll = None
    if "troll" in node:
        t = node["troll"]
        t.keys_exactly({"mech_class", "bridge", "hill", "beside_crest_in", "per_mission", "rows"})
        rows = {}
        for face, row in t["rows"].items():
            if not isinstance(face, int) or not 1 <= face <= 6:
                raise row.fail(f"row key {face!r} must be a d6 face 1-6")
            rows[face] = _enum(row, TrollPlacement)
        if sorted(rows) != [1, 2, 3, 4, 5, 6]:
            raise t["rows"].fail("rows must cover the faces 1-6")
        troll = TrollRule(
            t["mech_class"].as_int(1, 5),
            t["bridge"].as_str(),
            t["hill"].as_str(),
            t["beside_crest_in"].as_number(),
            t["per_mission"].as_int(1, 6),
            rows,
        )

    def opt_int(key: str, lo: int, hi: int) -> int | None:
        n = node.get(key)
        return None if n is None else n.as_int(lo, hi)

    river = node.get("river_width_in")
    crest = node.get("crest_hill")
    return SpecialRules(
        troll=troll,
        building_armor=opt_int("building_armor", 2, 5),
        river_width_in=None if river is None else river.as_number(),
        village_section=opt_int("village_section", 1, 9),
        no_withdrawal_before_turn=opt_int("no_withdrawal_before_turn", 1, 50),
        no_repairs_or_replacements_after=node["no_repairs_or_replacements_after"].as_bool()
        if "no_repairs_or_replacements_after" in node
        else False,
        crest_hill=None if crest is None else crest.as_str(),
        carry_over_damage=node["carry_over_damage"].as_bool()
        if "carry_over_damage" in node
        else False,
    )


def _pef_table(node: Node) -> PefTable:
    node.keys_exactly({"source_list", "minimum_enemies", "rows"})
    deltas: dict[int, int] = {}
    for face, row in node["rows"].items():
        if not isinstance(face, int) or not 1 <= face <= 6:
            raise row.fail(f"row key {face!r} must be a d6 face 1-6")
        deltas[face] = row.as_int(-6, 6)
    if sorted(deltas) != [1, 2, 3, 4, 5, 6]:
        raise node["rows"].fail("rows must cover the faces 1-6")
    return PefTable(node["source_list"].as_str(), node["minimum_enemies"].as_int(0, 6), deltas)


def _force_table(node: Node, kind: str) -> ForceTable:
    node.keys_exactly({"source_list", "rows"})
    rows: dict[int, ForceRow] = {}
    for total, row in node["rows"].items():
        if not isinstance(total, int) or not 2 <= total <= 12:
            raise row.fail(f"row key {total!r} must be a 2d6 total 2-12")
        row.keys_exactly(set(), {"class", "split"})
        if ("class" in row) == ("split" in row):
            raise row.fail("a row has either class or split")
        if "class" in row:
            rows[total] = ForceRow(((1, 6, row["class"].as_int(1, 5)),))
            continue
        bands = []
        for band in row["split"].rows():
            band.keys_exactly({"d6", "class"})
            lo, hi = (r.as_int(1, 6) for r in _pair(band["d6"]))
            bands.append((lo, hi, band["class"].as_int(1, 5)))
        faces = sorted(f for lo, hi, _ in bands for f in range(lo, hi + 1))
        if faces != [1, 2, 3, 4, 5, 6]:
            raise row["split"].fail("the d6 ranges must cover 1-6 exactly once")
        rows[total] = ForceRow(tuple(bands))
    if sorted(rows) != list(range(2, 13)):
        raise node["rows"].fail("rows must cover the 2d6 totals 2-12")
    return ForceTable(kind, node["source_list"].as_str(), rows)


_MAP_KEYS: dict[str, tuple[set[str], set[str]]] = {
    "woods": ({"rect"}, set()),
    "rough": ({"rect"}, set()),
    "hill": ({"ellipse", "crest"}, set()),
    "river": ({"rect", "width"}, set()),
    "bridge": ({"rect"}, set()),
    "road": ({"polyline", "width"}, set()),
    "building": ({"rect", "armor", "areas"}, set()),
}
_KIND = {
    "woods": Terrain.WOODS,
    "rough": Terrain.ROUGH,
    "hill": Terrain.HILL,
    "river": Terrain.RIVER,
    "bridge": Terrain.ROAD,
    "road": Terrain.ROAD,
    "building": Terrain.BUILDING,
}


def _rect(node: Node) -> tuple[float, float, float, float]:
    values = [r.as_number() for r in node.rows()]
    if len(values) != 4:
        raise node.fail(f"expected [x0, y0, x1, y1], got {len(values)} values")
    return (values[0], values[1], values[2], values[3])


def _map_feature(node: Node) -> MapFeature:
    kind = node["type"].as_str(sorted(_MAP_KEYS))
    required, optional = _MAP_KEYS[kind]
    node.keys_exactly({"name", "type", "sections"} | required, optional)
    rects: list[tuple[float, float, float, float]] = []
    crest: tuple[Point, Point] | None = None
    armor = 0
    if kind == "hill":
        e = node["ellipse"]
        e.keys_exactly({"centre", "semi_axes"})
        (cx, cy), (a, b) = _point(e["centre"]), _point(e["semi_axes"])
        rects.append((cx - a, cy - b, cx + a, cy + b))
        c = _pair(node["crest"])
        crest = (_point(c[0]), _point(c[1]))
    elif kind == "road":
        half = node["width"].as_number() / 2.0
        points = [_point(r) for r in node["polyline"].rows()]
        if len(points) < 2:
            raise node["polyline"].fail("a road needs at least two points")
        for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
            if x0 != x1 and y0 != y1:
                raise node["polyline"].fail(f"segment {(x0, y0)}-{(x1, y1)} is not axis-aligned")
            lo_x, hi_x, lo_y, hi_y = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
            if x0 == x1:
                rects.append((lo_x - half, lo_y, hi_x + half, hi_y))
            else:
                rects.append((lo_x, lo_y - half, hi_x, hi_y + half))
    else:
        rects.append(_rect(node["rect"]))
    if kind == "river":
        x0, y0, x1, y1 = rects[0]
        width = node["width"].as_number()
        if abs(min(x1 - x0, y1 - y0) - width) > 1e-9:
            raise node["width"].fail(f"{width} is not the river's width in its rect")
    if kind == "building":
        armor = node["armor"].as_int(2, 5)
        node["areas"].as_int(1, 1)
    try:
        features = tuple(
            Feature(_KIND[kind], *r, building_armor=armor, crest=crest if kind == "hill" else None)
            for r in rects
        )
    except StateError as error:
        raise node.fail(str(error)) from error
    sections = _sections(node["sections"])
    box = (
        min(f.x0 for f in features),
        min(f.y0 for f in features),
        max(f.x1 for f in features),
        max(f.y1 for f in features),
    )
    for n in sections:
        sx0, sy0, sx1, sy1 = section_rect(n, TABLE_INCHES, TABLE_INCHES).rect
        if box[2] <= sx0 or box[0] >= sx1 or box[3] <= sy0 or box[1] >= sy1:
            raise node["sections"].fail(f"the feature does not reach section {n}")
    return MapFeature(node["name"].as_str(), kind, features, sections)


def _placement(node: Node, player: bool) -> Placement:
    if player:
        node.keys_exactly({"kind", "sections", "edge"})
        kind = node["kind"].as_str(["enter_edge", "set_up"])
        return Placement(kind, _sections(node["sections"]), node["edge"].as_str(EDGES))
    pef_kind = _enum(node["kind"], PefPlacementKind)
    if pef_kind is PefPlacementKind.STANDARD:
        node.keys_exactly({"kind"})
        return Placement(pef_kind.value)
    if pef_kind is PefPlacementKind.FIXED_SECTIONS:
        node.keys_exactly({"kind", "sections"})
        sections = _sections(node["sections"])
        return Placement(pef_kind.value, sections, count=len(sections))
    node.keys_exactly({"kind", "count", "faces"})
    faces: dict[int, tuple[int, int]] = {}
    for section, row in node["faces"].items():
        if not isinstance(section, int) or not 1 <= section <= 9:
            raise row.fail(f"row key {section!r} must be a section 1-9")
        lo, hi = (r.as_int(1, 6) for r in _pair(row))
        faces[section] = (lo, hi)
    covered = sorted(f for lo, hi in faces.values() for f in range(lo, hi + 1))
    if covered != [1, 2, 3, 4, 5, 6]:
        raise node["faces"].fail("the d6 ranges must cover 1-6 exactly once")
    count = node["count"].as_int(1, 12)
    return Placement(pef_kind.value, tuple(faces), count=count, faces=faces)


def _check_refs(root: Node, m: CestusMission) -> None:
    """Cross-references: names the objective and special rules use exist with the right type."""
    kinds = {f.name: f.type for f in m.map}
    if len(kinds) != len(m.map):
        raise root["map"].fail("map feature names must be unique")
    wanted: list[tuple[Node, str, str]] = []
    o, sp = m.objective, m.special
    if o.bridge:
        wanted.append((root["objective"]["bridge"], o.bridge, "bridge"))
    if o.river:
        wanted.append((root["objective"]["river"], o.river, "river"))
    for i, name in enumerate(o.village):
        wanted.append((root["objective"]["village"], name, f"building (village[{i}])"))
    if sp.troll is not None:
        wanted.append((root["special"]["troll"]["bridge"], sp.troll.bridge, "bridge"))
        wanted.append((root["special"]["troll"]["hill"], sp.troll.hill, "hill"))
    if sp.crest_hill is not None:
        wanted.append((root["special"]["crest_hill"], sp.crest_hill, "hill"))
    for node, name, kind in wanted:
        if kinds.get(name) != kind.split(" ")[0]:
            raise node.fail(f"{name!r} is not a {kind} of the map")
    if sp.village_section is not None:
        for name in o.village:
            if sp.village_section not in m.feature(name).sections:
                raise root["objective"]["village"].fail(f"{name!r} lies outside the village")
    if sp.building_armor is not None:
        for f in m.features():
            if f.kind is Terrain.BUILDING and f.building_armor != sp.building_armor:
                raise root["map"].fail(f"a building's armour is not {sp.building_armor}")
    if sp.river_width_in is not None:
        rivers = [f for f in m.map if f.type == "river"]
        if not rivers or any(
            abs(min(r.rect[2] - r.rect[0], r.rect[3] - r.rect[1]) - sp.river_width_in) > 1e-9
            for r in rivers
        ):
            raise root["special"]["river_width_in"].fail("no river of that width on the map")
    if m.kind is MissionType.ATTACK and m.generic_objective is None:
        raise root["generic_objective"].fail("an Attack needs its nearest §22 objective")
    if m.kind is not MissionType.ATTACK and m.generic_objective is not None:
        raise root["generic_objective"].fail("only an Attack has a generic objective")


def parse_mission(root: Node, stem: str) -> CestusMission:
    """Build a :class:`CestusMission` from a mission file's node (§27.8)."""
    required = {"mission", "name", "kind", "np_posture", "generic_objective", "np_objective"}
    required |= {"objective", "mission_end", "force", "deployment", "home_edge"}
    required |= {"pef_placement", "night_on", "inclement_on", "np_tables", "special"}
    required |= {"pef_resolution", "enemy_force", "star_army_force", "map"}
    root.keys_exactly(required)
    force = root["force"]
    force.keys_exactly({"formations", "default"})
    formations = force["formations"].as_strs(FORMATIONS)
    generic = root["generic_objective"].as_str(["none", *(a.value for a in AttackObjective)])
    mission = CestusMission(
        number=root["mission"].as_int(1, 10),
        name=root["name"].as_str(),
        stem=stem,
        kind=_enum(root["kind"], MissionType),
        np_posture=root["np_posture"].as_str(["patrol", "defend", "attack"]),
        generic_objective=None if generic == "none" else AttackObjective(generic),
        np_objective=_enum(root["np_objective"], NpObjectiveRule),
        objective=_objective(root["objective"]),
        mission_end=_enum(root["mission_end"], MissionEnd),
        formations=formations,
        default_formation=force["default"].as_str(formations),
        deployment=_placement(root["deployment"], player=True),
        home_edge=root["home_edge"].as_str(["north", "south"]),
        pef_placement=_placement(root["pef_placement"], player=False),
        night_on=root["night_on"].as_ints(1, 6),
        inclement_on=root["inclement_on"].as_ints(1, 6),
        np_tables=root["np_tables"].as_strs(),
        special=_special(root["special"]),
        pef_resolution=_pef_table(root["pef_resolution"]),
        enemy_force=_force_table(root["enemy_force"], "enemy_force"),
        star_army_force=_force_table(root["star_army_force"], "star_army_force"),
        map=tuple(_map_feature(row) for row in root["map"].rows()),
        source=root.source,
    )
    try:
        mission.battlefield()
    except StateError as error:
        raise root["map"].fail(str(error)) from error
    _check_refs(root, mission)
    return mission


@cache
def load_mission(stem: str) -> CestusMission:
    """Load ``configs/campaigns/cestus_v/<stem>.yaml`` (cached) (§27.8)."""
    return parse_mission(load_config(f"{FOLDER}/{stem}.yaml"), stem)


# -- the campaign (§27.1-27.7) ----------------------------------------------------------------
AFTERMATH_STEPS = (
    "recovery",
    "rep_increase",
    "rep_decrease",
    "replacement_pilots",
    "repairs",
    "replacement_mechs",
)
"""The steps of After the Battle, 23.9.1-23.9.6."""
END_CONDITIONS = (
    "enemy_cm_zero_win",
    "own_cm_zero_loss",
    "company_destroyed_loss",
    "after_last_mission_compare_cm",
)


def parse_campaign(root: Node) -> CestusCampaign:
    """Build the campaign record from ``campaign.yaml`` and the mission files (§27)."""
    root.keys_exactly(
        {"name", "missions", "sides", "starting_campaign_morale", "status"}
        | {"use_next_mission_table", "end_conditions", "aftermath"}
        | {"unavailable_countdown_continues", "starting_company", "generated_terrain"}
    )
    missions = []
    for i, row in enumerate(root["missions"].rows(), start=1):
        mission = load_mission(row.as_str())
        if mission.number != i:
            raise row.fail(f"{mission.stem} is mission {mission.number}, listed as {i}")
        missions.append(mission)
    root["sides"].keys_exactly({"gaea_prime", "hishen"})
    factions = [f.value for f in Faction]
    sides = {k: tuple(Faction(v) for v in n.as_strs(factions)) for k, n in root["sides"].items()}
    morale = {Faction(str(k)): n.as_int(1, 10) for k, n in root["starting_campaign_morale"].items()}
    root["starting_campaign_morale"].keys_exactly(set(), set(factions))
    for side, allowed in sides.items():
        for faction in allowed:
            if faction not in morale:
                raise root["starting_campaign_morale"].fail(f"no morale for {side} {faction.value}")
    root["status"].keys_exactly({"gaea_prime", "hishen"})
    status = {str(k): n.as_str(["controls", "contests"]) for k, n in root["status"].items()}
    after = root["aftermath"]
    after.keys_exactly({"default", "after_mission"})
    limited: dict[int, tuple[str, ...]] = {}
    for number, row in after["after_mission"].items():
        if not isinstance(number, int) or not 1 <= number <= len(missions):
            raise row.fail(f"row key {number!r} is not a mission number")
        limited[number] = row.as_strs(AFTERMATH_STEPS)
    company = root["starting_company"]
    company.keys_exactly({"teams", "class_table", "star_rep"})
    table = company["class_table"]
    table.keys_exactly({"mission", "table"})
    generated = root["generated_terrain"]
    generated.keys_exactly({"overall", "keep_types"})
    return CestusCampaign(
        name=root["name"].as_str(),
        missions=tuple(missions),
        sides=sides,
        starting_morale=morale,
        status=status,
        use_next_mission_table=root["use_next_mission_table"].as_bool(),
        end_conditions=root["end_conditions"].as_strs(END_CONDITIONS),
        aftermath_default=after["default"].as_strs(AFTERMATH_STEPS),
        aftermath_after=limited,
        unavailable_countdown_continues=root["unavailable_countdown_continues"].as_bool(),
        company_teams=company["teams"].as_int(1, 12),
        company_class_table=(
            table["mission"].as_int(1, len(missions)),
            table["table"].as_str(["enemy_force", "star_army_force"]),
        ),
        star_rep=company["star_rep"].as_int(1, 7),
        source=root.source,
        generated_overall=generated["overall"].as_str([t.value for t in OverallType]),
        generated_keep_types=generated["keep_types"].as_strs(sorted(_MAP_KEYS)),
    )


@cache
def campaign_definition() -> CestusCampaign:
    """The Cestus V campaign: ordered missions and campaign-level rules (cached) (§27)."""
    return parse_campaign(load_config(f"{FOLDER}/campaign.yaml"))


__all__ = [
    "TABLE_INCHES",
    "CestusCampaign",
    "CestusMission",
    "ForceRow",
    "ForceTable",
    "MapFeature",
    "MissionEnd",
    "NpObjectiveRule",
    "Objective",
    "ObjectiveKind",
    "PefPlacementKind",
    "PefTable",
    "Placement",
    "SpecialRules",
    "TrollPlacement",
    "TrollRule",
    "campaign_definition",
    "load_mission",
    "parse_campaign",
    "parse_mission",
]
