"""The nine sections of the table (§0.2 of the campaign digest, book 19.2, ruling 1).

The table is cut into a 3 x 3 grid of equal cells. Section 1-3 form the far (north) row from
west to east, 4-6 the middle row, 7-9 the near row along the player's (south) edge::

    north
    1 2 3
    4 5 6
    7 8 9
    south (player's edge)

A point on an internal boundary belongs to the cell with the larger x (or larger y), except on
the far/right table edges: ``col = min(2, floor(3x/W))``, ``row = min(2, floor(3y/D))``,
``section = 3 * (2 - row) + col + 1``. "Exit through section N" means crossing a table-edge
segment that borders N; both segments of a corner section count (ruling 1).

>>> section_of((18.0, 30.0))
2
>>> section_of((12.0, 12.0)), section_of((36.0, 36.0)), section_of((0.0, 0.0))
(5, 3, 7)
>>> section_rect(8).rect
(12.0, 0.0, 24.0, 12.0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from wargym.rules.errors import StateError
from wargym.rules.no_quarter.battlefield.terrain import Battlefield, Body
from wargym.rules.no_quarter.sight_movement.geometry import Point

SECTIONS = (1, 2, 3, 4, 5, 6, 7, 8, 9)
"""Section numbers (§0.2)."""
FAR_ROW = (1, 2, 3)
"""Sections along the far (north) edge: the Patrol's recon sections (§22.1.1)."""
NEAR_ROW = (7, 8, 9)
"""Sections along the player's (south) edge: where the player enters or sets up (§22.0)."""
ROWS = ("far", "middle", "near")
COLUMNS = ("left", "centre", "right")

Rect = tuple[float, float, float, float]
_EPS = 1e-9


@dataclass(frozen=True, slots=True)
class EdgeSegment:
    """A stretch of one table edge: ``edge`` from ``start`` to ``end`` along it (§0.2).

    Along north/south edges the coordinate is x, along east/west edges it is y.
    """

    edge: str
    start: float
    end: float

    def holds(self, edge: str, along: float) -> bool:
        """Whether a crossing of ``edge`` at coordinate ``along`` lies on this segment."""
        return edge == self.edge and self.start - _EPS <= along <= self.end + _EPS


@dataclass(frozen=True, slots=True)
class Section:
    """One of the nine sections: number, rectangle, row, column and bordering edges (§0.2)."""

    number: int
    x0: float
    y0: float
    x1: float
    y1: float
    row: str
    """``far``, ``middle`` or ``near`` (the player's row)."""
    column: str
    """``left`` (west), ``centre`` or ``right`` (east)."""
    edges: tuple[EdgeSegment, ...]
    """Table-edge segments bordering the section (none for section 5)."""

    @property
    def rect(self) -> Rect:
        """``(x0, y0, x1, y1)``."""
        return (self.x0, self.y0, self.x1, self.y1)

    @property
    def centre(self) -> Point:
        """The centre of the section."""
        return ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)

    @property
    def width(self) -> float:
        """East-west size."""
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        """North-south size."""
        return self.y1 - self.y0

    def contains(self, p: Point, width: float = 36.0, height: float = 36.0) -> bool:
        """Whether ``p`` belongs to this section under the boundary rule of §0.2."""
        return section_of(p, width, height) == self.number


def _check_table(width: float, height: float) -> None:
    if not width > 0 or not height > 0:
        raise StateError(f"table: width and height must be positive, got {width} x {height}")


def _check_number(number: int) -> None:
    if isinstance(number, bool) or number not in SECTIONS:
        raise StateError(f"section: {number!r} is not a section number 1-9")


def section_of(p: Point, width: float = 36.0, height: float = 36.0) -> int:
    """The section holding point ``p`` (§0.2 formula); StateError off the table."""
    _check_table(width, height)
    x, y = p
    if not (-_EPS <= x <= width + _EPS and -_EPS <= y <= height + _EPS):
        raise StateError(f"point {p} lies off the {width} x {height} table")
    col = min(2, max(0, math.floor(3.0 * x / width + _EPS)))
    row = min(2, max(0, math.floor(3.0 * y / height + _EPS)))
    return 3 * (2 - row) + col + 1


def section_rect(number: int, width: float = 36.0, height: float = 36.0) -> Section:
    """Section ``number`` of a ``width`` x ``height`` table (§0.2 table)."""
    _check_table(width, height)
    _check_number(number)
    index = number - 1
    row_from_north, col = divmod(index, 3)
    row_from_south = 2 - row_from_north
    x0, x1 = col * width / 3.0, (col + 1) * width / 3.0
    y0, y1 = row_from_south * height / 3.0, (row_from_south + 1) * height / 3.0
    edges: list[EdgeSegment] = []
    if row_from_north == 0:
        edges.append(EdgeSegment("north", x0, x1))
    if row_from_north == 2:
        edges.append(EdgeSegment("south", x0, x1))
    if col == 0:
        edges.append(EdgeSegment("west", y0, y1))
    if col == 2:
        edges.append(EdgeSegment("east", y0, y1))
    return Section(number, x0, y0, x1, y1, ROWS[row_from_north], COLUMNS[col], tuple(edges))


def all_sections(width: float = 36.0, height: float = 36.0) -> tuple[Section, ...]:
    """The nine sections in order 1-9 (§0.2)."""
    return tuple(section_rect(n, width, height) for n in SECTIONS)


def section_centre(number: int, width: float = 36.0, height: float = 36.0) -> Point:
    """The centre point of section ``number`` (§0.2)."""
    return section_rect(number, width, height).centre


def edge_segments(
    sections: Iterable[int], width: float = 36.0, height: float = 36.0
) -> tuple[EdgeSegment, ...]:
    """Table-edge segments bordering any of ``sections``; corners give two (§0.2, ruling 1)."""
    return tuple(seg for n in sections for seg in section_rect(n, width, height).edges)


def exit_point(
    p: Point,
    edge: str,
    sections: Iterable[int],
    width: float = 36.0,
    height: float = 36.0,
    margin: float = 0.5,
) -> Point:
    """The point ``margin`` inside ``edge`` nearest to ``p`` that exits through ``sections``.

    Its crossing lies on a segment of ``edge`` bordering one of ``sections`` (a break-through
    aimed at a section, §27.8 Mission 8). With no such segment: the nearest point of the edge.
    """
    if edge not in ("north", "south", "east", "west"):
        raise StateError(f"edge: {edge!r} is not north, south, east or west")
    along = p[0] if edge in ("north", "south") else p[1]
    segs = [s for s in edge_segments(sections, width, height) if s.edge == edge]
    if segs:
        lo = min(segs, key=lambda s: abs(min(max(along, s.start), s.end) - along))
        along = min(max(along, lo.start + margin), lo.end - margin)
    return {
        "north": (along, height - margin),
        "south": (along, margin),
        "east": (width - margin, along),
        "west": (margin, along),
    }[edge]


def exit_section(p: Point, edge: str, width: float = 36.0, height: float = 36.0) -> int:
    """The section a mech at ``p`` leaves through when it crosses ``edge`` (§0.2)."""
    x = min(max(p[0], 0.0), width)
    y = min(max(p[1], 0.0), height)
    at = {"north": (x, height), "south": (x, 0.0), "east": (width, y), "west": (0.0, y)}
    if edge not in at:
        raise StateError(f"edge: {edge!r} is not north, south, east or west")
    return section_of(at[edge], width, height)


def exits_through(
    p: Point,
    edge: str,
    sections: Iterable[int],
    width: float = 36.0,
    height: float = 36.0,
) -> bool:
    """Whether crossing ``edge`` at ``p`` is an exit "through" one of ``sections`` (§0.2).

    True when the crossing point lies on an edge segment bordering one of the sections (both
    segments of a corner section count, ruling 1).
    """
    along = p[0] if edge in ("north", "south") else p[1]
    if edge not in ("north", "south", "east", "west"):
        raise StateError(f"edge: {edge!r} is not north, south, east or west")
    return any(seg.holds(edge, along) for seg in edge_segments(sections, width, height))


def distance_to_edge(p: Point, edge: str, width: float = 36.0, height: float = 36.0) -> float:
    """Distance from ``p`` to a table edge (§0.2 coordinates: north is ``y = height``)."""
    distances = {"north": height - p[1], "south": p[1], "east": width - p[0], "west": p[0]}
    if edge not in distances:
        raise StateError(f"edge: {edge!r} is not north, south, east or west")
    return distances[edge]


def entry_zone(
    sections: Sequence[int] = NEAR_ROW,
    edge: str = "south",
    depth: float = 1.0,
    width: float = 36.0,
    height: float = 36.0,
) -> tuple[Rect, ...]:
    """Rectangles for mech centres entering along ``edge`` of ``sections`` (ruling 28, §22.0).

    Each rectangle is the part of a named section within ``depth`` of ``edge``; sections that do
    not border the edge contribute nothing.
    """
    rects: list[Rect] = []
    for n in sections:
        s = section_rect(n, width, height)
        if not any(seg.edge == edge for seg in s.edges):
            continue
        if edge == "south":
            rects.append((s.x0, 0.0, s.x1, min(depth, s.y1)))
        elif edge == "north":
            rects.append((s.x0, max(height - depth, s.y0), s.x1, height))
        elif edge == "west":
            rects.append((0.0, s.y0, min(depth, s.x1), s.y1))
        elif edge == "east":
            rects.append((max(width - depth, s.x0), s.y0, width, s.y1))
        else:
            raise StateError(f"edge: {edge!r} is not north, south, east or west")
    return tuple(rects)


def setup_zone(
    sections: Sequence[int] = NEAR_ROW, width: float = 36.0, height: float = 36.0
) -> tuple[Rect, ...]:
    """Rectangles of ``sections`` for a force that sets up anywhere inside them (§22.3.4)."""
    return tuple(section_rect(n, width, height).rect for n in sections)


def render_ascii_sections(
    bf: Battlefield, bodies: Sequence[Body] = (), cell: float = 1.0, grid: bool = True
) -> str:
    """``bf.ascii()`` with the section numbers (and, with ``grid``, boundaries) overlaid (§0.2).

    The number of each section replaces the map cell at the section centre. With ``grid``,
    clear cells (``.``) on internal section boundaries become ``|``, ``-`` or ``+``. Bodies
    drawn by :meth:`Battlefield.ascii` keep their glyphs, except where a section number lands.
    """
    lines = [list(line) for line in bf.ascii(bodies, cell).split("\n")]
    rows, cols = len(lines), len(lines[0])
    if grid:
        xs = {min(cols - 1, int(round(k * bf.width / 3.0 / cell))) for k in (1, 2)}
        ys = {min(rows - 1, int(round(k * bf.height / 3.0 / cell))) for k in (1, 2)}
        rs = {rows - 1 - y for y in ys if 0 <= rows - 1 - y < rows}
        for r in range(rows):
            for c in range(cols):
                on_col, on_row = c in xs, r in rs
                if lines[r][c] == "." and (on_col or on_row):
                    lines[r][c] = "+" if on_col and on_row else ("|" if on_col else "-")
    for s in all_sections(bf.width, bf.height):
        cx, cy = s.centre
        c = min(cols - 1, int(cx // cell))
        r = min(rows - 1, rows - 1 - int(cy // cell))
        lines[r][c] = str(s.number)
    return "\n".join("".join(line) for line in lines)
