"""Terrain, sight and cover tables of No Quarter, loaded strictly from YAML (App. A, §17.1-17.2.1).

``terrain.yaml`` (movement multipliers, deep-water band, road width, building size and armour,
flame template), ``line_of_sight.yaml`` (17.1 limits and bands) and ``cover.yaml`` (table 17.2,
17.2.1) are read once into frozen records; errors name the file, key and row.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from wargym.rules.errors import StateError
from wargym.rules.no_quarter.forces.vocab import Location, Terrain
from wargym.rules.tables import Node, load_config

ROAD_SPEEDS = ("whole_move", "per_inch")
"""``road.speed`` readings of ruling 19.8 (``roads.py``)."""


@dataclass(frozen=True, slots=True)
class TerrainConfig:
    """Movement and building facts of the terrain reference (Appendix A, §19.4-19.10)."""

    move_multiplier: Mapping[Terrain, float]
    """Fraction of normal speed inside each terrain (0.5 = half speed)."""
    deep_water_shore_band: float
    """Deep water within this distance of the shore counts as river (19.7.1)."""
    deep_water_inches_per_turn: float
    """Most a mech may move in a turn that takes it beyond the shore band (19.7.1)."""
    road_width: float
    """Width of a generated road (campaign ruling 19.8)."""
    road_per_inch: bool
    """``road.speed: per_inch``: every inch on a road costs 1"; False (``whole_move``, ruling
    19.8): only a move wholly on the road has road speed (``roads.py``)."""
    building_max_size: tuple[float, float]
    """Largest building area (19.4.1)."""
    building_armor: Mapping[str, int]
    """Armour by construction type (19.4.2)."""
    flame_strip_width: float
    """Width of the flamer's strip (10.4.2)."""
    flame_circle_diameter: float
    """Diameter of the flamer's circle at the aimed point (10.4.2)."""

    def cost_per_inch(self, kind: Terrain) -> float:
        """Allowance spent per inch moved inside ``kind`` (2.0 for half speed) (ruling D5)."""
        return 1.0 / self.move_multiplier[kind]


@dataclass(frozen=True, slots=True)
class SightConfig:
    """Line-of-sight limits and bands (§17.1, ruling D11)."""

    night: float
    inside_woods_day: float
    inside_woods_night: float
    weather_day: float
    weather_night: float
    well_lit_lifts_weather: bool
    """Whether a well-lit target also ignores the weather limit (the digest: night only)."""
    woods_edge_band: float
    hill_crest_band: float


@dataclass(frozen=True, slots=True)
class CoverConfig:
    """Table 17.2 and the protected locations of §17.2.1 (rulings D12, D13)."""

    inside_stationary: Mapping[Terrain, frozenset[str]]
    inside_moving: Mapping[Terrain, frozenset[str]]
    behind_building_cover: bool
    behind_mech_cover: bool
    partial_building: frozenset[Location]
    blocked_side_arm: bool
    hill_crest_band: frozenset[Location]
    river: frozenset[Location]
    deep_water_shore_band: frozenset[Location]

    def concealing(self) -> frozenset[Terrain]:
        """Terrains that conceal a mech whether it moved or not (ruling D12)."""
        return frozenset(
            t
            for t in self.inside_moving
            if "concealment" in self.inside_moving[t] and "concealment" in self.inside_stationary[t]
        )


def _terrain_key(node: Node, key: Any) -> Terrain:
    try:
        return Terrain(str(key))
    except ValueError as error:
        raise node.fail(f"unknown terrain {key!r}") from error


@cache
def terrain_config() -> TerrainConfig:
    """Load ``rules/no_quarter/terrain.yaml`` (Appendix A), cached."""
    root = load_config("rules/no_quarter/terrain.yaml")
    root.keys_exactly({"terrain", "building_armor", "flame_area"})
    mult: dict[Terrain, float] = {}
    extras: dict[Terrain, Node] = {}
    for key, node in root["terrain"].items():
        kind = _terrain_key(root["terrain"], key)
        if kind is Terrain.BUILDING:
            node.keys_exactly({"enterable_by_mechs", "max_size_inches"})
            if node["enterable_by_mechs"].as_bool():
                raise node["enterable_by_mechs"].fail("the engine assumes buildings are impassable")
            mult[kind] = 0.0
        else:
            optional = {
                Terrain.DEEP_WATER: {"shore_band_inches", "beyond_band_inches_per_turn"},
                Terrain.ROAD: {"overrides_terrain_penalty", "width_inches", "speed"},
            }.get(kind, set())
            node.keys_exactly({"move_multiplier", *optional})
            value = node["move_multiplier"].as_number()
            if not 0.0 < value <= 1.0:
                raise node["move_multiplier"].fail("must be in (0, 1]")
            mult[kind] = value
        extras[kind] = node
    missing = sorted(t.value for t in Terrain if t not in mult)
    if missing:
        raise root["terrain"].fail(f"missing terrains {missing}")
    size = extras[Terrain.BUILDING]["max_size_inches"]
    sizes = tuple(row.as_number() for row in size.rows())
    if len(sizes) != 2 or min(sizes) <= 0:
        raise size.fail("expected two positive numbers")
    if not extras[Terrain.ROAD]["overrides_terrain_penalty"].as_bool():
        raise extras[Terrain.ROAD].fail("roads must override terrain penalties (19.8)")
    armor = {str(k): v.as_int(1, 99) for k, v in root["building_armor"].items()}
    flame = root["flame_area"]
    flame.keys_exactly({"strip_width_inches", "circle_diameter_inches"})
    deep = extras[Terrain.DEEP_WATER]
    return TerrainConfig(
        move_multiplier=mult,
        deep_water_shore_band=_positive(deep["shore_band_inches"]),
        deep_water_inches_per_turn=_positive(deep["beyond_band_inches_per_turn"]),
        road_width=_positive(extras[Terrain.ROAD]["width_inches"]),
        road_per_inch=extras[Terrain.ROAD]["speed"].as_str(["per_inch", "whole_move"])
        == "per_inch",
        building_max_size=(sizes[0], sizes[1]),
        building_armor=armor,
        flame_strip_width=_positive(flame["strip_width_inches"]),
        flame_circle_diameter=_positive(flame["circle_diameter_inches"]),
    )


def _positive(node: Node) -> float:
    value = node.as_number()
    if value <= 0:
        raise node.fail("must be positive")
    return value


@cache
def sight_config() -> SightConfig:
    """Load ``rules/no_quarter/line_of_sight.yaml`` (§17.1), cached."""
    root = load_config("rules/no_quarter/line_of_sight.yaml")
    root.keys_exactly({"line_of_sight"})
    los = root["line_of_sight"]
    los.keys_exactly(
        {
            "arc_deg",
            "sight_lines",
            "limits_without_ews",
            "well_lit_lifts",
            "woods_edge_band_inches",
            "hill_crest_band_inches",
        }
    )
    if los["arc_deg"].as_int() != 180:
        raise los["arc_deg"].fail("the engine implements the 180-degree arc of ruling D3")
    if los["sight_lines"].as_int() != 3:
        raise los["sight_lines"].fail("the engine implements the three lines of ruling D11")
    lim = los["limits_without_ews"]
    names = ("night", "inside_woods_day", "inside_woods_night")
    weather = ("inclement_weather_day", "inclement_weather_night")
    lim.keys_exactly({*names, *weather})
    lifts = los["well_lit_lifts"].as_strs(["night", "inclement_weather"])
    if "night" not in lifts:
        raise los["well_lit_lifts"].fail("a well-lit target is always seen at night (17.1)")
    return SightConfig(
        night=_positive(lim["night"]),
        inside_woods_day=_positive(lim["inside_woods_day"]),
        inside_woods_night=_positive(lim["inside_woods_night"]),
        weather_day=_positive(lim["inclement_weather_day"]),
        weather_night=_positive(lim["inclement_weather_night"]),
        well_lit_lifts_weather="inclement_weather" in lifts,
        woods_edge_band=_positive(los["woods_edge_band_inches"]),
        hill_crest_band=_positive(los["hill_crest_band_inches"]),
    )


@cache
def cover_config() -> CoverConfig:
    """Load ``rules/no_quarter/cover.yaml`` (table 17.2, §17.2.1), cached."""
    root = load_config("rules/no_quarter/cover.yaml")
    root.keys_exactly({"cover_concealment", "protected_locations"})
    table = root["cover_concealment"]
    table.keys_exactly({"inside", "behind"})
    stationary: dict[Terrain, frozenset[str]] = {}
    moving: dict[Terrain, frozenset[str]] = {}
    for key, node in table["inside"].items():
        kind = _terrain_key(table["inside"], key)
        node.keys_exactly({"stationary", "moving"})
        stationary[kind] = frozenset(node["stationary"].as_strs(["cover", "concealment"]))
        moving[kind] = frozenset(node["moving"].as_strs(["cover", "concealment"]))
    behind = table["behind"]
    behind.keys_exactly({"building", "mech"})
    prot = root["protected_locations"]
    prot.keys_exactly({"partial_building", "hill_crest_band", "river", "deep_water_shore_band"})
    partial = prot["partial_building"]
    partial.keys_exactly({"protected", "blocked_side_arm"})
    return CoverConfig(
        inside_stationary=stationary,
        inside_moving=moving,
        behind_building_cover="cover" in behind["building"].as_strs(["cover", "concealment"]),
        behind_mech_cover="cover" in behind["mech"].as_strs(["cover", "concealment"]),
        partial_building=_locations(partial["protected"]),
        blocked_side_arm=partial["blocked_side_arm"].as_bool(),
        hill_crest_band=_locations(prot["hill_crest_band"]),
        river=_locations(prot["river"]),
        deep_water_shore_band=_locations(prot["deep_water_shore_band"]),
    )


def _locations(node: Node) -> frozenset[Location]:
    return frozenset(Location(v) for v in node.as_strs([loc.value for loc in Location]))


def building_armor_for(construction: str) -> int:
    """Armour of a building by construction type, e.g. ``"concrete"`` -> 3 (§19.4.2)."""
    table = terrain_config().building_armor
    if construction not in table:
        raise StateError(f"building construction {construction!r} is not one of {sorted(table)}")
    return table[construction]
