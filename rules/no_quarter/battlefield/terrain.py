"""The No Quarter battlefield: terrain features, table, bodies and terrain tables (§6, §19, App. A).

A :class:`Battlefield` is an immutable, hashable record of the table (ruling D1: a continuous
plane, default 36" x 36") and its terrain :class:`Feature` rectangles. Precomputed per-kind
indexes are cached on the instance, so the engine may keep one battlefield for a whole mission.

Line of sight, cover and protection live in :mod:`~.sight`; movement,
Duck Back, Leave the Battlefield and flame areas in
:mod:`wargym.rules.no_quarter.sight_movement.movement_geometry`; the test battlefield generator in
:mod:`wargym.rules.no_quarter.battlefield.battlefield_gen`; the YAML tables in
:mod:`~.terrain_tables`. Their public names are re-exported here (lazily
where needed to avoid an import cycle), so ``from wargym.rules.no_quarter.battlefield.terrain import
sight`` works.

Conventions for features (rectangles, axis-aligned):

* ``building_armor``: a building's armour 2-5 (19.4.2, see :func:`building_armor_for`), or 0 for
  a building the mission does not rate (never destroyed). Other kinds must keep 0.
* ``crest``: hills only; default the long centre line of the rectangle (campaign ruling 19.6).
* ``well_lit``: the feature is a well-lit area for the night limit (17.1).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battlefield.terrain_tables import (
    CoverConfig,
    SightConfig,
    TerrainConfig,
    building_armor_for,
    cover_config,
    sight_config,
    terrain_config,
)
from wargym.rules.no_quarter.forces.vocab import Terrain
from wargym.rules.no_quarter.sight_movement.geometry import Point, point_rect_distance

if TYPE_CHECKING:
    from wargym.rules.no_quarter.battlefield.battlefield_gen import (
        deployment_points,
        generate_battlefield,
    )
    from wargym.rules.no_quarter.sight_movement.movement_geometry import (
        deep_water_allowance,
        duck_back_destination,
        enters_deep_water,
        flame_area_hits,
        move_candidates,
        move_cost,
        move_toward_edge,
        nearest_edge_away,
        path_cost,
        path_problem,
    )
    from wargym.rules.no_quarter.sight_movement.sight import (
        Sight,
        in_cover,
        is_concealed,
        protected_locations,
        sight,
    )

__all__ = [
    "EDGES",
    "Battlefield",
    "Body",
    "CoverConfig",
    "Feature",
    "Sight",
    "SightConfig",
    "TerrainConfig",
    "building_armor_for",
    "cover_config",
    "deep_water_allowance",
    "deployment_points",
    "duck_back_destination",
    "enters_deep_water",
    "flame_area_hits",
    "generate_battlefield",
    "in_cover",
    "is_concealed",
    "move_candidates",
    "move_cost",
    "move_toward_edge",
    "nearest_edge_away",
    "path_cost",
    "path_problem",
    "protected_locations",
    "sight",
    "sight_config",
    "terrain_config",
]

EDGES = ("north", "south", "east", "west")
"""Table edges: north is ``y = height``, south ``y = 0``, east ``x = width``, west ``x = 0``."""

Rect = tuple[float, float, float, float]

# ------------------------------------------------------------------------------------------
# Records
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Feature:
    """One terrain piece: an axis-aligned rectangle of one terrain kind (§19, Appendix A)."""

    kind: Terrain
    x0: float
    y0: float
    x1: float
    y1: float
    building_armor: int = 0
    """Buildings: armour 2-5 (19.4.2), or 0 if not rated; other kinds: 0."""
    crest: tuple[Point, Point] | None = None
    """Hills: the crest segment (default: the long centre line). Other kinds: None."""
    well_lit: bool = False
    """A well-lit area: a target inside it is seen normally at night (17.1)."""

    def __post_init__(self) -> None:
        if not isinstance(self.kind, Terrain) or self.kind is Terrain.CLEAR:
            raise StateError(f"feature.kind: {self.kind!r} is not a placeable terrain")
        for name in ("x0", "y0", "x1", "y1"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise StateError(f"feature.{name}: expected a number, got {value!r}")
            if not math.isfinite(value):
                raise StateError(f"feature.{name}: {value!r} is not finite")
            object.__setattr__(self, name, float(value))
        if not self.x0 < self.x1:
            raise StateError(f"feature.x1: {self.x1} must exceed x0 {self.x0}")
        if not self.y0 < self.y1:
            raise StateError(f"feature.y1: {self.y1} must exceed y0 {self.y0}")
        armor = self.building_armor
        if isinstance(armor, bool) or not isinstance(armor, int):
            raise StateError(f"feature.building_armor: expected an integer, got {armor!r}")
        if self.kind is Terrain.BUILDING:
            max_w, max_h = terrain_config().building_max_size
            if self.x1 - self.x0 > max_w + 1e-9 or self.y1 - self.y0 > max_h + 1e-9:
                raise StateError(f"feature: building larger than {max_w} x {max_h} (19.4.1)")
            ratings = set(terrain_config().building_armor.values())
            if armor != 0 and armor not in ratings:
                raise StateError(
                    f"feature.building_armor: {armor} is not 0 or one of {sorted(ratings)}"
                )
        elif armor != 0:
            raise StateError("feature.building_armor: only buildings have armour")
        if self.kind is Terrain.HILL:
            crest = self.crest if self.crest is not None else self._default_crest()
            crest = (_point(crest[0], "feature.crest[0]"), _point(crest[1], "feature.crest[1]"))
            for p in crest:
                if point_rect_distance(p, self.x0, self.y0, self.x1, self.y1) > 1e-9:
                    raise StateError(f"feature.crest: {p} lies outside the hill")
            object.__setattr__(self, "crest", crest)
        elif self.crest is not None:
            raise StateError("feature.crest: only hills have a crest")
        if not isinstance(self.well_lit, bool):
            raise StateError(f"feature.well_lit: expected true or false, got {self.well_lit!r}")

    def _default_crest(self) -> tuple[Point, Point]:
        if self.x1 - self.x0 >= self.y1 - self.y0:
            ym = (self.y0 + self.y1) / 2.0
            return ((self.x0, ym), (self.x1, ym))
        xm = (self.x0 + self.x1) / 2.0
        return ((xm, self.y0), (xm, self.y1))

    @property
    def rect(self) -> Rect:
        """``(x0, y0, x1, y1)``."""
        return (self.x0, self.y0, self.x1, self.y1)

    def contains(self, p: Point) -> bool:
        """Whether ``p`` lies in the closed rectangle."""
        return self.x0 <= p[0] <= self.x1 and self.y0 <= p[1] <= self.y1

    def depth(self, p: Point) -> float:
        """Distance from ``p`` (inside) to the nearest side of the rectangle; negative outside."""
        if not self.contains(p):
            return -point_rect_distance(p, *self.rect)
        return min(p[0] - self.x0, self.x1 - p[0], p[1] - self.y0, self.y1 - p[1])

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "kind": self.kind.value,
            "x0": self.x0,
            "y0": self.y0,
            "x1": self.x1,
            "y1": self.y1,
            "building_armor": self.building_armor,
            "crest": None if self.crest is None else [list(self.crest[0]), list(self.crest[1])],
            "well_lit": self.well_lit,
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "feature") -> Feature:
        """Rebuild from :meth:`to_dict` data; errors name the field."""
        if not isinstance(data, Mapping):
            raise StateError(f"{where}: expected a mapping, got {type(data).__name__}")
        required = {"kind", "x0", "y0", "x1", "y1"}
        allowed = required | {"building_armor", "crest", "well_lit"}
        missing = sorted(required - set(data))
        unknown = sorted(set(data) - allowed)
        if missing or unknown:
            raise StateError(f"{where}: missing keys {missing}, unknown keys {unknown}")
        try:
            kind = Terrain(data["kind"])
        except ValueError as error:
            raise StateError(f"{where}.kind: {data['kind']!r} is not a terrain") from error
        crest_data = data.get("crest")
        crest: tuple[Point, Point] | None = None
        if crest_data is not None:
            if not isinstance(crest_data, list | tuple) or len(crest_data) != 2:
                raise StateError(f"{where}.crest: expected two points")
            crest = (
                _point(crest_data[0], f"{where}.crest[0]"),
                _point(crest_data[1], f"{where}.crest[1]"),
            )
        try:
            return cls(
                kind,
                data["x0"],
                data["y0"],
                data["x1"],
                data["y1"],
                data.get("building_armor", 0),
                crest,
                data.get("well_lit", False),
            )
        except StateError as error:
            raise StateError(str(error).replace("feature", where, 1)) from error


def _point(value: Any, where: str) -> Point:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, int | float) for v in value)
    ):
        raise StateError(f"{where}: expected a point [x, y], got {value!r}")
    return (float(value[0]), float(value[1]))


@dataclass(frozen=True, slots=True)
class Body:
    """A mech base that blocks movement and sight: a circle (ruling D1, D11)."""

    id: int
    pos: Point
    radius: float = 0.5


class _Memo(dict[Any, Any]):
    """A bounded memo of terrain-only results for one battlefield (sight lines, costs).

    Keys are plain values (points, radii) and values depend only on the frozen terrain, so a
    hit returns exactly what a fresh computation would. Copies and pickles start empty.
    """

    LIMIT = 10_000
    """Entries kept before the memo is cleared (bounds memory: about 10 MB of sight lines)."""

    def put(self, key: Any, value: Any) -> None:
        """Store ``value``; clear everything first when the memo is full."""
        if len(self) >= self.LIMIT:
            self.clear()
        self[key] = value

    def __reduce__(self) -> tuple[type[_Memo], tuple[()]]:
        return (_Memo, ())

    def __copy__(self) -> _Memo:
        return _Memo()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Memo:
        return _Memo()


@dataclass(frozen=True, slots=True)
class _Index:
    """Per-kind rectangles of a battlefield, precomputed for the hot paths."""

    buildings: tuple[Feature, ...]
    woods: tuple[Feature, ...]
    hills: tuple[Feature, ...]
    rivers: tuple[Feature, ...]
    deep: tuple[Feature, ...]
    deep_core: tuple[Rect, ...]
    roads: tuple[Feature, ...]
    rough: tuple[Feature, ...]
    well_lit: tuple[Feature, ...]
    half_speed: tuple[tuple[Rect, float], ...]
    building_rects: tuple[Rect, ...] = ()
    """``buildings`` as plain ``(x0, y0, x1, y1)`` tuples."""
    wood_rects: tuple[Rect, ...] = ()
    """``woods`` as plain ``(x0, y0, x1, y1)`` tuples."""
    memo: _Memo = field(default_factory=_Memo, compare=False, hash=False, repr=False)
    """Results of pure terrain computations keyed by their float inputs (see :class:`_Memo`)."""


@dataclass(frozen=True)
class Battlefield:
    """The table and its terrain (ruling D1, §19); immutable and hashable."""

    width: float = 36.0
    height: float = 36.0
    features: tuple[Feature, ...] = ()
    night: bool = False
    inclement_weather: bool = False

    def __post_init__(self) -> None:
        for name in ("width", "height"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise StateError(f"battlefield.{name}: expected a positive number, got {value!r}")
            object.__setattr__(self, name, float(value))
        object.__setattr__(self, "features", tuple(self.features))
        for i, feature in enumerate(self.features):
            if not isinstance(feature, Feature):
                raise StateError(f"battlefield.features[{i}]: expected a Feature")
            if (
                feature.x0 < -1e-9
                or feature.y0 < -1e-9
                or feature.x1 > self.width + 1e-9
                or (feature.y1 > self.height + 1e-9)
            ):
                raise StateError(f"battlefield.features[{i}]: lies partly off the table")
        for name in ("night", "inclement_weather"):
            if not isinstance(getattr(self, name), bool):
                raise StateError(f"battlefield.{name}: expected true or false")

    @cached_property
    def index(self) -> _Index:
        """Per-kind feature lists, computed once per battlefield."""
        by_kind: dict[Terrain, list[Feature]] = {t: [] for t in Terrain}
        for f in self.features:
            by_kind[f.kind].append(f)
        cfg = terrain_config()
        band = cfg.deep_water_shore_band
        deep_core = tuple(
            (f.x0 + band, f.y0 + band, f.x1 - band, f.y1 - band)
            for f in by_kind[Terrain.DEEP_WATER]
            if f.x1 - f.x0 > 2 * band and f.y1 - f.y0 > 2 * band
        )
        half = tuple(
            (f.rect, cfg.cost_per_inch(f.kind))
            for f in self.features
            if f.kind is not Terrain.BUILDING and cfg.cost_per_inch(f.kind) > 1.0
        )
        return _Index(
            buildings=tuple(by_kind[Terrain.BUILDING]),
            woods=tuple(by_kind[Terrain.WOODS]),
            hills=tuple(by_kind[Terrain.HILL]),
            rivers=tuple(by_kind[Terrain.RIVER]),
            deep=tuple(by_kind[Terrain.DEEP_WATER]),
            deep_core=deep_core,
            roads=tuple(by_kind[Terrain.ROAD]),
            rough=tuple(by_kind[Terrain.ROUGH]),
            well_lit=tuple(f for f in self.features if f.well_lit),
            half_speed=half,
            building_rects=tuple(f.rect for f in by_kind[Terrain.BUILDING]),
            wood_rects=tuple(f.rect for f in by_kind[Terrain.WOODS]),
        )

    def features_at(self, p: Point) -> tuple[Feature, ...]:
        """Features whose closed rectangle holds ``p`` (§19)."""
        return tuple(f for f in self.features if f.contains(p))

    def terrain_at(self, p: Point) -> frozenset[Terrain]:
        """Terrain kinds at ``p``; ``{CLEAR}`` when no feature holds it (§19)."""
        kinds = frozenset(f.kind for f in self.features if f.contains(p))
        return kinds or frozenset({Terrain.CLEAR})

    def is_on_table(self, p: Point, margin: float = 0.0) -> bool:
        """Whether ``p`` is at least ``margin`` inside every table edge (ruling D1)."""
        return (
            margin - 1e-9 <= p[0] <= self.width - margin + 1e-9
            and margin - 1e-9 <= p[1] <= self.height - margin + 1e-9
        )

    def in_deep_water(self, p: Point) -> bool:
        """Whether ``p`` is in deep water beyond the shore band: submerged (§19.7.1)."""
        return any(c[0] < p[0] < c[2] and c[1] < p[1] < c[3] for c in self.index.deep_core)

    def on_road(self, p: Point) -> bool:
        """Whether ``p`` lies on a road (§19.8)."""
        return any(f.contains(p) for f in self.index.roads)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "width": self.width,
            "height": self.height,
            "features": [f.to_dict() for f in self.features],
            "night": self.night,
            "inclement_weather": self.inclement_weather,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Battlefield:
        """Rebuild from :meth:`to_dict` data; StateError names the bad field."""
        if not isinstance(data, Mapping):
            raise StateError(f"battlefield: expected a mapping, got {type(data).__name__}")
        allowed = {"width", "height", "features", "night", "inclement_weather"}
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise StateError(f"battlefield: unknown keys {unknown}")
        raw = data.get("features", [])
        if not isinstance(raw, list | tuple):
            raise StateError("battlefield.features: expected a list")
        features = tuple(
            Feature.from_dict(item, f"battlefield.features[{i}]") for i, item in enumerate(raw)
        )
        return cls(
            width=data.get("width", 36.0),
            height=data.get("height", 36.0),
            features=features,
            night=data.get("night", False),
            inclement_weather=data.get("inclement_weather", False),
        )

    def ascii(self, bodies: Sequence[Body] = (), cell: float = 1.0) -> str:
        """A text map, north up (§19): ``#`` building, ``T`` woods, ``^`` hill, ``~`` river.

        Also ``=`` deep water, ``:`` road, ``%`` rough, ``.`` clear; bodies are drawn on top as
        their id (0-9), then ``a``-``z`` for ids 10-35, else ``@``.
        """
        cols = max(1, math.ceil(self.width / cell - 1e-9))
        rows = max(1, math.ceil(self.height / cell - 1e-9))
        order = (
            (Terrain.BUILDING, "#"),
            (Terrain.DEEP_WATER, "="),
            (Terrain.RIVER, "~"),
            (Terrain.ROAD, ":"),
            (Terrain.WOODS, "T"),
            (Terrain.ROUGH, "%"),
            (Terrain.HILL, "^"),
        )
        grid = []
        for r in range(rows):
            y = self.height - (r + 0.5) * cell
            line = []
            for c in range(cols):
                kinds = self.terrain_at(((c + 0.5) * cell, y))
                line.append(next((g for k, g in order if k in kinds), "."))
            grid.append(line)
        for body in bodies:
            c = int(body.pos[0] // cell)
            r = rows - 1 - int(body.pos[1] // cell)
            if 0 <= r < rows and 0 <= c < cols:
                grid[r][c] = _body_glyph(body.id)
        return "\n".join("".join(line) for line in grid)


def _body_glyph(ident: int) -> str:
    if 0 <= ident < 10:
        return str(ident)
    if 10 <= ident < 36:
        return chr(ord("a") + ident - 10)
    return "@"


_SIGHT_NAMES = frozenset({"Sight", "sight", "in_cover", "is_concealed", "protected_locations"})
_GEN_NAMES = frozenset({"generate_battlefield", "deployment_points"})
_MOVE_NAMES = frozenset(
    {
        "move_cost",
        "path_problem",
        "path_cost",
        "move_candidates",
        "duck_back_destination",
        "nearest_edge_away",
        "move_toward_edge",
        "flame_area_hits",
        "enters_deep_water",
        "deep_water_allowance",
    }
)


def __getattr__(name: str) -> Any:
    """Lazy re-exports of the sight and movement helpers (avoids an import cycle)."""
    if name in _SIGHT_NAMES:
        return getattr(
            importlib.import_module("wargym.rules.no_quarter.sight_movement.sight"), name
        )
    if name in _GEN_NAMES:
        return getattr(
            importlib.import_module("wargym.rules.no_quarter.battlefield.battlefield_gen"), name
        )
    if name in _MOVE_NAMES:
        return getattr(
            importlib.import_module("wargym.rules.no_quarter.sight_movement.movement_geometry"),
            name,
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
