"""The campaign terrain generator: overall type, one roll per section, buildings (§19.2-19.10).

Procedure (19.2): fix the overall terrain type (chosen, or 1d6 on 19.2), then roll 1d6 per
section in order 1-9 on the Terrain Generator (19.3.1) in that type's column; a "(B)" result
rolls 1/2d6 buildings for the section at once. Every die goes through the injected
:class:`~wargym.rules.dice.Dice`, in this order: overall type (only if not chosen); for each
section its terrain die, then its 1/2d6 building die if "(B)"; then the optional extras in
the order road, river, lake (one die each, only when switched on).

How each rolled piece becomes :class:`~.terrain.Feature` rectangles
(the book says only "covers at least 75 %"; digest 19.3.1 rulings and decision 7):

* **One feature per section**, an axis-aligned rectangle centred in the section, each side
  scaled by sqrt(coverage) (default 75 %: 10.4" x 10.4" in a 12" section; the inset is
  rounded down to 0.01" so the area never falls below the coverage). ``clear`` places nothing.
  The engine's features are rectangles, so the digest's elliptical hill is a rectangle here.
* **hill**: a HILL feature whose crest is its east-west centre line (ruling 19.6; option
  ``hill_crest="north_south"``). **woods**: a WOODS feature (option ``woods_as_rough`` places
  ROUGH instead, 19.9). **wooded hill**: a HILL and a WOODS feature on the same rectangle.
* **Buildings** (19.4): 1/2d6 of them, each one area of ``building_size`` (default 4" x 4")
  and the armour of ``building_construction`` (default concrete = 3, table 19.4.2). They stand
  in the section's "lanes" (the section minus any road or river strip crossing it), dealt
  round-robin to the largest lanes; inside a lane they sit centred in the cells of the grid
  that allows the largest building, keeping ``building_gap`` (2") between buildings and from
  the section's edges when all of them fit there at full size (ruling 19.3.1 "where
  possible"), otherwise half of it to lane edges; a building squeezed by a lane shrinks, never
  below the minimum size (then it is dropped). Buildings stand on the section's hill or woods
  when it has one (the 75 % feature leaves no clear remainder big enough).
* **Extras** (19.7, 19.7.1, 19.8: "by agreement", off by default): a 2" **road** from the
  south to the north edge along the centre of a column (1d6: 1-2 west, 3-4 centre, 5-6 east);
  an east-west **river** ``river_width`` wide centred on a row boundary (1d6: 1-3 between the
  near and middle rows, 4-6 between middle and far), which fits between the section features;
  a **lake** (deep water) replacing the feature and buildings of a middle-row section (1d6:
  1-2 section 4, 3-4 section 5, 5-6 section 6; moved one section east, cyclically, if the road
  runs through it). A road crossing the river is its bridge (ruling 19.7).

Deployment strips stay usable: features keep a gap from every table edge and buildings keep
at least half the building gap from section edges.
"""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Literal

from wargym.rules.dice import Dice, half_d6
from wargym.rules.errors import RulesError
from wargym.rules.no_quarter.battlefield.sections import SECTIONS, Section, section_rect
from wargym.rules.no_quarter.battlefield.terrain import (
    Battlefield,
    Feature,
    building_armor_for,
    terrain_config,
)
from wargym.rules.no_quarter.forces.vocab import Terrain
from wargym.rules.tables import Node, load_config

CONFIG = "rules/no_quarter/terrain_generator.yaml"
MIN_TABLE_INCHES = 36.0
"""Play on at least 3 ft x 3 ft (§19.1)."""
Rect = tuple[float, float, float, float]


class OverallType(enum.Enum):
    """The battlefield's overall terrain type: the generator's column (§19.2, §19.3)."""

    CLEAR = "clear"
    """Mostly flat ground without cover or concealment."""
    HILLY = "hilly"
    """Many hills."""
    WOODED = "wooded"
    """Dense woods or jungle."""


class SectionTerrain(enum.Enum):
    """What covers at least 75 % of a section (§19.3.1)."""

    CLEAR = "clear"
    """No feature."""
    HILL = "hill"
    """A hill with a crest (§19.6)."""
    WOODS = "woods"
    """Woods (§19.10)."""
    WOODED_HILL = "wooded_hill"
    """A hill whose whole footprint is also woods (§19.3.1 note)."""


@dataclass(frozen=True, slots=True)
class GeneratorRow:
    """One cell of the Terrain Generator: the terrain and whether "(B)" (§19.3.1)."""

    terrain: SectionTerrain
    buildings: bool


@dataclass(frozen=True, slots=True)
class GeneratorTables:
    """Tables 19.2 and 19.3.1, the placement rulings and the extras' dice (§19.2-19.8)."""

    overall: Mapping[int, OverallType]
    rows: Mapping[int, Mapping[OverallType, GeneratorRow]]
    coverage: float
    building_size: float
    building_min_size: float
    building_gap: float
    building_construction: str
    road_column: Mapping[int, int]
    """1d6 -> column index 0 (west) .. 2 (east)."""
    river_boundary: Mapping[int, int]
    """1d6 -> row boundary 1 (y = D/3) or 2 (y = 2D/3)."""
    river_width: float
    lake_section: Mapping[int, int]


def _faces(node: Node) -> list[tuple[int, Node]]:
    pairs = [(int(k) if isinstance(k, int) else -1, child) for k, child in node.items()]
    if sorted(k for k, _ in pairs) != [1, 2, 3, 4, 5, 6]:
        raise node.fail("rows must be exactly the faces 1-6")
    return pairs


@cache
def generator_tables() -> GeneratorTables:
    """Load ``terrain_generator.yaml`` (§19.2, §19.3.1), cached; errors name file and row."""
    root = load_config(CONFIG)
    root.keys_exactly({"overall_type", "terrain_generator", "placement", "extras"})
    ov = root["overall_type"]
    ov.keys_exactly({"dice", "rows"})
    ov["dice"].as_str(["1d6"])
    kinds = [t.value for t in OverallType]
    overall = {f: OverallType(n.as_str(kinds)) for f, n in _faces(ov["rows"])}
    gen = root["terrain_generator"]
    gen.keys_exactly({"dice", "columns", "rows"})
    gen["dice"].as_str(["1d6"])
    if sorted(gen["columns"].as_strs(kinds)) != sorted(kinds):
        raise gen["columns"].fail(f"columns must be {kinds}")
    rows: dict[int, dict[OverallType, GeneratorRow]] = {}
    for face, row in _faces(gen["rows"]):
        row.keys_exactly(set(kinds))
        rows[face] = {}
        for kind in OverallType:
            cell = row[kind.value]
            cell.keys_exactly({"terrain"}, {"buildings"})
            terrain = SectionTerrain(cell["terrain"].as_str([t.value for t in SectionTerrain]))
            b = cell.get("buildings")
            rows[face][kind] = GeneratorRow(terrain, b is not None and b.as_str(["half_d6"]) != "")
    pl = root["placement"]
    keys = {"section_coverage", "building_size_inches", "building_min_size_inches"}
    pl.keys_exactly(keys | {"building_gap_inches", "building_construction"})
    construction = pl["building_construction"].as_str(sorted(terrain_config().building_armor))
    ex = root["extras"]
    ex.keys_exactly(
        {"road_column_by_d6", "river_boundary_by_d6", "river_width_inches", "lake_section_by_d6"}
    )
    cols = ["left", "centre", "right"]
    bounds = ["near_middle", "middle_far"]
    tables = GeneratorTables(
        overall=overall,
        rows=rows,
        coverage=pl["section_coverage"].as_number(),
        building_size=pl["building_size_inches"].as_number(),
        building_min_size=pl["building_min_size_inches"].as_number(),
        building_gap=pl["building_gap_inches"].as_number(),
        building_construction=construction,
        road_column={f: cols.index(n.as_str(cols)) for f, n in _faces(ex["road_column_by_d6"])},
        river_boundary={
            f: bounds.index(n.as_str(bounds)) + 1 for f, n in _faces(ex["river_boundary_by_d6"])
        },
        river_width=ex["river_width_inches"].as_number(),
        lake_section={f: n.as_int(4, 6) for f, n in _faces(ex["lake_section_by_d6"])},
    )
    if not 0.0 < tables.coverage <= 1.0:
        raise pl["section_coverage"].fail("must be in (0, 1]")
    if not 0.0 < tables.building_min_size <= tables.building_size <= 6.0:
        raise pl["building_size_inches"].fail("need 0 < minimum <= size <= 6 (19.4.1)")
    return tables


@dataclass(frozen=True, slots=True)
class GeneratorOptions:
    """Choices and rulings of the generator; None means the YAML ruling (§19.2-19.10)."""

    overall: OverallType | None = None
    """Chosen overall type (19.2 "either choose it"); None rolls 1d6."""
    coverage: float | None = None
    """Fraction of a section the rolled feature covers (ruling: 0.75)."""
    woods_as_rough: bool = False
    """Place rough (marsh) wherever woods are generated (19.9 "may be used in place of woods")."""
    hill_crest: Literal["east_west", "north_south"] = "east_west"
    """Crest direction of generated hills (ruling 19.6: east-west)."""
    building_size: float | None = None
    """Side of a generated building, at most 6" (ruling: 4")."""
    building_construction: str | None = None
    """Construction type of generated buildings, a key of table 19.4.2 (ruling: concrete)."""
    road: bool = False
    """Add a north-south road (19.8; not part of the generator)."""
    river: bool = False
    """Add an east-west river (19.7; not part of the generator)."""
    lake: bool = False
    """Add a lake of deep water in a middle-row section (19.7.1; not part of the generator)."""

    def __post_init__(self) -> None:
        if self.coverage is not None and not 0.0 < self.coverage <= 1.0:
            raise RulesError(f"coverage: {self.coverage} is not in (0, 1]")
        if self.building_size is not None and not 0.0 < self.building_size <= 6.0:
            raise RulesError(f"building_size: {self.building_size} is not in (0, 6] (19.4.1)")
        armor = terrain_config().building_armor
        if self.building_construction is not None and self.building_construction not in armor:
            raise RulesError(
                f"building_construction: {self.building_construction!r} is not one of "
                f"{sorted(armor)} (19.4.2)"
            )


@dataclass(frozen=True, slots=True)
class SectionResult:
    """What the generator rolled and placed for one section (§19.3.1)."""

    section: int
    roll: int
    terrain: SectionTerrain
    building_roll: int | None
    """The 1/2d6 die of a "(B)" result, else None."""
    buildings: int
    """Buildings placed (0 when not "(B)", or when a lake took the section)."""
    lake: bool = False


@dataclass(frozen=True, slots=True)
class GeneratedTerrain:
    """The generated battlefield and every roll that made it (§19.2-19.10)."""

    overall: OverallType
    overall_roll: int | None
    """None when the overall type was chosen."""
    sections: tuple[SectionResult, ...]
    road_column: int | None
    river_y: float | None
    lake_section: int | None
    battlefield: Battlefield


def overall_type_for_roll(face: int) -> OverallType:
    """Table 19.2: the overall terrain type for a 1d6 face (§19.2)."""
    return generator_tables().overall[_face(face)]


def section_row(overall: OverallType, face: int) -> GeneratorRow:
    """Table 19.3.1: terrain and "(B)" for a 1d6 face in the ``overall`` column (§19.3.1)."""
    return generator_tables().rows[_face(face)][overall]


def _face(face: int) -> int:
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
        raise RulesError(f"a d6 face must be 1..6, got {face!r}")
    return face


def _inset_rect(s: Section, coverage: float) -> Rect:
    k = math.sqrt(coverage)
    dx = math.floor((s.width - s.width * k) / 2.0 * 100.0) / 100.0
    dy = math.floor((s.height - s.height * k) / 2.0 * 100.0) / 100.0
    return (s.x0 + dx, s.y0 + dy, s.x1 - dx, s.y1 - dy)


def _section_features(kind: SectionTerrain, r: Rect, options: GeneratorOptions) -> list[Feature]:
    woods = Terrain.ROUGH if options.woods_as_rough else Terrain.WOODS
    x0, y0, x1, y1 = r
    if options.hill_crest == "east_west":
        ym = (y0 + y1) / 2.0
        crest = ((x0, ym), (x1, ym))
    else:
        xm = (x0 + x1) / 2.0
        crest = ((xm, y0), (xm, y1))
    out: list[Feature] = []
    if kind in (SectionTerrain.HILL, SectionTerrain.WOODED_HILL):
        out.append(Feature(Terrain.HILL, *r, crest=crest))
    if kind in (SectionTerrain.WOODS, SectionTerrain.WOODED_HILL):
        out.append(Feature(woods, *r))
    return out


def _split(lo: float, hi: float, cut: tuple[float, float] | None) -> list[tuple[float, float]]:
    if cut is None or cut[1] <= lo or cut[0] >= hi:
        return [(lo, hi)]
    return [(a, b) for a, b in ((lo, cut[0]), (cut[1], hi)) if b - a > 1e-9]


def _lane_slots(lane: Rect, k: int, size: float, gap: float) -> list[Rect]:
    w, h = lane[2] - lane[0], lane[3] - lane[1]
    best: tuple[float, int, int, int] | None = None
    for cols, rows in itertools.product(range(1, k + 1), repeat=2):
        if cols * rows < k:
            continue
        side = min(size, w / cols - gap, h / rows - gap)
        key = (side, -(cols * rows), cols, rows)
        if best is None or key > best:
            best = key
    assert best is not None
    side, _, cols, rows = best
    slots: list[Rect] = []
    cw, ch = w / cols, h / rows
    for r in range(rows):
        in_row = min(cols, k - len(slots))
        shift = (cols - in_row) * cw / 2.0
        for c in range(in_row):
            cx = lane[0] + shift + (c + 0.5) * cw
            cy = lane[3] - (r + 0.5) * ch
            slots.append((cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2))
    return slots


def _buildings(
    s: Section,
    n: int,
    road: tuple[float, float] | None,
    river: tuple[float, float] | None,
    size: float,
    armor: int,
) -> list[Feature]:
    tables = generator_tables()
    gap = tables.building_gap
    half = gap / 2
    inset = replace(s, x0=s.x0 + half, y0=s.y0 + half, x1=s.x1 - half, y1=s.y1 - half)
    roomy = _place_buildings(inset, n, road, river, size, armor, size)  # 2" from the edges
    if len(roomy) == n:
        return roomy
    return _place_buildings(s, n, road, river, size, armor, min(tables.building_min_size, size))


def _place_buildings(
    s: Section,
    n: int,
    road: tuple[float, float] | None,
    river: tuple[float, float] | None,
    size: float,
    armor: int,
    minimum: float,
) -> list[Feature]:
    gap = generator_tables().building_gap
    lanes = [
        (x0, y0, x1, y1)
        for x0, x1 in _split(s.x0, s.x1, road)
        for y0, y1 in _split(s.y0, s.y1, river)
        if min(x1 - x0, y1 - y0) - gap >= minimum - 1e-9
    ]
    lanes.sort(key=lambda r: -(r[2] - r[0]) * (r[3] - r[1]))
    if not lanes:
        return []
    counts = [0] * len(lanes)
    for i in range(n):
        counts[i % len(lanes)] += 1
    out: list[Feature] = []
    for lane, k in zip(lanes, counts, strict=True):
        if k == 0:
            continue
        for x0, y0, x1, y1 in _lane_slots(lane, k, size, gap):
            if x1 - x0 >= minimum - 1e-9:
                r = (round(x0, 4), round(y0, 4), round(x1, 4), round(y1, 4))
                out.append(Feature(Terrain.BUILDING, *r, building_armor=armor))
    return out


def generate_terrain(
    dice: Dice,
    *,
    width: float = 36.0,
    height: float = 36.0,
    options: GeneratorOptions | None = None,
    night: bool = False,
    inclement_weather: bool = False,
) -> GeneratedTerrain:
    """Generate a battlefield with tables 19.2 and 19.3.1 and the placement rulings (§19.2).

    Deterministic for given dice (see the module docstring for the roll order and placement).
    ``night`` and ``inclement_weather`` are copied onto the battlefield (§23.7, 19.11).
    """
    options = options or GeneratorOptions()
    tables = generator_tables()
    if width < MIN_TABLE_INCHES or height < MIN_TABLE_INCHES:
        raise RulesError(f"table {width} x {height}: at least 36 x 36 inches (19.1)")
    overall_roll = None if options.overall is not None else dice.roll(1)[0]
    overall = options.overall or overall_type_for_roll(_face(overall_roll or 0))
    rolled: list[tuple[int, GeneratorRow, int | None]] = []
    for _section in SECTIONS:
        face = dice.roll(1)[0]
        row = section_row(overall, face)
        b = dice.roll(1)[0] if row.buildings else None
        rolled.append((face, row, b))
    road_col = tables.road_column[dice.roll(1)[0]] if options.road else None
    river_y = None
    if options.river:
        river_y = tables.river_boundary[dice.roll(1)[0]] * height / 3.0
    lake = None
    if options.lake:
        lake = tables.lake_section[dice.roll(1)[0]]
        if road_col is not None and (lake - 1) % 3 == road_col:
            lake = 4 + (lake - 4 + 1) % 3
    rw = terrain_config().road_width
    road = None
    if road_col is not None:
        cx = (road_col + 0.5) * width / 3.0
        road = (cx - rw / 2.0, cx + rw / 2.0)
    river = None
    if river_y is not None:
        river = (river_y - tables.river_width / 2.0, river_y + tables.river_width / 2.0)
    coverage = options.coverage if options.coverage is not None else tables.coverage
    size = options.building_size if options.building_size is not None else tables.building_size
    armor = building_armor_for(options.building_construction or tables.building_construction)
    features: list[Feature] = []
    results: list[SectionResult] = []
    for n, (face, row, b) in zip(SECTIONS, rolled, strict=True):
        s = section_rect(n, width, height)
        inner = _inset_rect(s, coverage)
        if n == lake:
            features.append(Feature(Terrain.DEEP_WATER, *inner))
            results.append(SectionResult(n, face, row.terrain, b, 0, lake=True))
            continue
        features.extend(_section_features(row.terrain, inner, options))
        placed = _buildings(s, half_d6(b), road, river, size, armor) if b is not None else []
        features.extend(placed)
        results.append(SectionResult(n, face, row.terrain, b, len(placed)))
    if road is not None:
        features.append(Feature(Terrain.ROAD, road[0], 0.0, road[1], height))
    if river is not None:
        features.append(Feature(Terrain.RIVER, 0.0, river[0], width, river[1]))
    bf = Battlefield(width, height, tuple(features), night, inclement_weather)
    return GeneratedTerrain(overall, overall_roll, tuple(results), road_col, river_y, lake, bf)
