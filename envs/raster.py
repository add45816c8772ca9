"""Small numpy drawing kit for the ``rgb_array`` frames of every env (no other dependency).

A 3x5 bitmap font (digits, capital letters, a few signs), lines, discs, facing arrows and a
flat-topped axial hex rasteriser (the hex grid of both space games, ``wargym.rules.hexgrid``).
Images are ``(height, width, 3)`` uint8 arrays, drawn in place; everything is clipped to the
image.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Colour = tuple[int, int, int]

_GLYPHS = {
    "0": ("111", "101", "101", "101", "111"), "1": ("010", "110", "010", "010", "111"),
    "2": ("111", "001", "111", "100", "111"), "3": ("111", "001", "011", "001", "111"),
    "4": ("101", "101", "111", "001", "001"), "5": ("111", "100", "111", "001", "111"),
    "6": ("111", "100", "111", "101", "111"), "7": ("111", "001", "010", "010", "010"),
    "8": ("111", "101", "111", "101", "111"), "9": ("111", "101", "111", "001", "111"),
    "A": ("010", "101", "111", "101", "101"), "B": ("110", "101", "110", "101", "110"),
    "C": ("011", "100", "100", "100", "011"), "D": ("110", "101", "101", "101", "110"),
    "E": ("111", "100", "110", "100", "111"), "F": ("111", "100", "110", "100", "100"),
    "G": ("011", "100", "101", "101", "011"), "H": ("101", "101", "111", "101", "101"),
    "I": ("111", "010", "010", "010", "111"), "J": ("001", "001", "001", "101", "010"),
    "K": ("101", "101", "110", "101", "101"), "L": ("100", "100", "100", "100", "111"),
    "M": ("101", "111", "111", "101", "101"), "N": ("110", "101", "101", "101", "101"),
    "O": ("010", "101", "101", "101", "010"), "P": ("110", "101", "110", "100", "100"),
    "Q": ("010", "101", "101", "110", "011"), "R": ("110", "101", "110", "101", "101"),
    "S": ("011", "100", "010", "001", "110"), "T": ("111", "010", "010", "010", "010"),
    "U": ("101", "101", "101", "101", "111"), "V": ("101", "101", "101", "101", "010"),
    "W": ("101", "101", "111", "111", "101"), "X": ("101", "101", "010", "101", "101"),
    "Y": ("101", "101", "010", "010", "010"), "Z": ("111", "001", "010", "100", "111"),
    "?": ("111", "001", "011", "000", "010"), "-": ("000", "000", "111", "000", "000"),
    " ": ("000", "000", "000", "000", "000"), ".": ("000", "000", "000", "000", "010"),
    ":": ("000", "010", "000", "010", "000"), ",": ("000", "000", "000", "010", "100"),
    "(": ("010", "100", "100", "100", "010"), ")": ("010", "001", "001", "001", "010"),
    "_": ("000", "000", "000", "000", "111"), "/": ("001", "001", "010", "100", "100"),
    "'": ("010", "010", "000", "000", "000"), "%": ("101", "001", "010", "100", "101"),
    "+": ("000", "010", "111", "010", "000"), "=": ("000", "111", "000", "111", "000"),
    "#": ("101", "111", "101", "111", "101"), "!": ("010", "010", "010", "000", "010"),
    "<": ("001", "010", "100", "010", "001"), ">": ("100", "010", "001", "010", "100"),
    "*": ("000", "101", "010", "101", "000"), ";": ("000", "010", "000", "010", "100"),
    '"': ("101", "101", "000", "000", "000"),
}  # fmt: skip
FONT = {ch: np.array([[c == "1" for c in row] for row in rows]) for ch, rows in _GLYPHS.items()}
"""The 3x5 glyphs as boolean arrays (lower-case text is drawn in capitals)."""


def text_size(text: str, scale: int = 1) -> tuple[int, int]:
    """``(width, height)`` in pixels of ``text`` drawn at ``scale``."""
    return max(0, 4 * len(text) - 1) * scale, 5 * scale


def draw_text(
    image: np.ndarray,
    text: str,
    x: float,
    y: float,
    colour: Colour,
    scale: int = 1,
    centre: bool = True,
    outline: Colour | None = None,
) -> None:
    """Draw ``text`` with its centre (or top-left corner) at ``(x, y)``; unknown signs are "?".

    ``outline`` draws a one-pixel halo first, so the text reads on any background.
    """
    width, height = text_size(text, scale)
    left = round(x - width / 2) if centre else round(x)
    top = round(y - height / 2) if centre else round(y)
    passes = [(outline, d) for d in ((-1, 0), (1, 0), (0, -1), (0, 1))] if outline else []
    for paint, (dx, dy) in [*passes, (colour, (0, 0))]:
        assert paint is not None
        for i, ch in enumerate(text.upper()):
            glyph = FONT.get(ch, FONT["?"])
            mask = np.kron(glyph, np.ones((scale, scale), dtype=bool))
            _blit(image, mask, left + 4 * scale * i + dx, top + dy, paint)


def _blit(image: np.ndarray, mask: np.ndarray, left: int, top: int, colour: Colour) -> None:
    h, w = image.shape[:2]
    y0, x0 = max(0, top), max(0, left)
    y1, x1 = min(h, top + mask.shape[0]), min(w, left + mask.shape[1])
    if y0 >= y1 or x0 >= x1:
        return
    part = mask[y0 - top : y1 - top, x0 - left : x1 - left]
    image[y0:y1, x0:x1][part] = colour


def draw_line(
    image: np.ndarray,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    colour: Colour,
    width: int = 1,
) -> None:
    """A straight line ``width`` pixels thick."""
    steps = max(2, int(math.hypot(x1 - x0, y1 - y0) * 2) + 1)
    xs = np.linspace(x0, x1, steps)
    ys = np.linspace(y0, y1, steps)
    h, w = image.shape[:2]
    half = (width - 1) / 2.0
    for dx in np.arange(-half, half + 0.5):
        for dy in np.arange(-half, half + 0.5):
            ix = np.round(xs + dx).astype(int)
            iy = np.round(ys + dy).astype(int)
            keep = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
            image[iy[keep], ix[keep]] = colour


def fill_disc(image: np.ndarray, x: float, y: float, radius: float, colour: Colour) -> None:
    """A filled disc."""
    h, w = image.shape[:2]
    y0, y1 = max(0, int(y - radius) - 1), min(h, int(y + radius) + 2)
    x0, x1 = max(0, int(x - radius) - 1), min(w, int(x + radius) + 2)
    if y0 >= y1 or x0 >= x1:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1]
    inside = (xx + 0.5 - x) ** 2 + (yy + 0.5 - y) ** 2 <= radius**2
    image[y0:y1, x0:x1][inside] = colour


def fill_polygon(image: np.ndarray, points: Sequence[tuple[float, float]], colour: Colour) -> None:
    """A filled convex polygon (pixel centres inside every edge, either winding)."""
    h, w = image.shape[:2]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1 = max(0, int(min(xs))), min(w, int(max(xs)) + 2)
    y0, y1 = max(0, int(min(ys))), min(h, int(max(ys)) + 2)
    if y0 >= y1 or x0 >= x1:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1] + 0.5
    sides = []
    for (ax, ay), (bx, by) in zip(points, [*points[1:], points[0]], strict=True):
        sides.append((bx - ax) * (yy - ay) - (by - ay) * (xx - ax))
    stack = np.stack(sides)
    inside = (stack >= -1e-9).all(axis=0) | (stack <= 1e-9).all(axis=0)
    image[y0:y1, x0:x1][inside] = colour


def draw_arrow(
    image: np.ndarray,
    x: float,
    y: float,
    angle: float,
    start: float,
    end: float,
    colour: Colour,
    width: int = 2,
) -> None:
    """An arrow with a head at its tip: the facing of a unit.

    It runs along screen ``angle`` (radians; 0 = right, pi/2 = down) from ``start`` to ``end``
    pixels off ``(x, y)``.
    """
    c, s = math.cos(angle), math.sin(angle)
    head = max(3.0, (end - start) * 0.6)
    stem = end - head / 2
    draw_line(image, x + c * start, y + s * start, x + c * stem, y + s * stem, colour, width)
    tip = (x + c * end, y + s * end)
    base = (x + c * (end - head), y + s * (end - head))
    wing = head * 0.6
    fill_polygon(image, [tip, (base[0] - s * wing, base[1] + c * wing),
                         (base[0] + s * wing, base[1] - c * wing)], colour)  # fmt: skip


# -- flat-topped axial hexes (rules/hexgrid.py: x = 1.5 q, y_south = sqrt3 (r + q / 2)) --------
SQRT3 = math.sqrt(3.0)


def hex_centre(q: float, r: float, size: float, origin: tuple[float, float]) -> tuple[float, float]:
    """Screen centre of hex ``(q, r)``: north (direction A) is up."""
    return origin[0] + 1.5 * size * q, origin[1] + SQRT3 * size * (r + q / 2.0)


def hex_of_pixels(
    width: int, height: int, size: float, origin: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray]:
    """The axial ``(q, r)`` of the hex under every pixel centre (two int arrays)."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float64) + 0.5
    x, y = (xx - origin[0]) / size, (yy - origin[1]) / size
    fq = 2.0 / 3.0 * x
    fr = -x / 3.0 + y / SQRT3
    fs = -fq - fr
    q, r, s = np.round(fq), np.round(fr), np.round(fs)
    dq, dr, ds = np.abs(q - fq), np.abs(r - fr), np.abs(s - fs)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    q = np.where(fix_q, -r - s, q)
    r = np.where(fix_r, -q - s, r)
    return q.astype(np.int64), r.astype(np.int64)


def hex_edges(q: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Pixels where the hex changes to the right or below (the grid lines)."""
    edge = np.zeros(q.shape, dtype=bool)
    change = (q[:, 1:] != q[:, :-1]) | (r[:, 1:] != r[:, :-1])
    edge[:, 1:] |= change
    change = (q[1:, :] != q[:-1, :]) | (r[1:, :] != r[:-1, :])
    edge[1:, :] |= change
    return edge


def facing_angle(direction: int) -> float:
    """Screen angle (radians) of hex direction ``direction`` (0 = A = north, clockwise)."""
    return math.radians(60.0 * direction - 90.0)


SIDE_COLOURS: dict[int, Colour] = {0: (60, 120, 255), 1: (230, 60, 60), -1: (120, 120, 120)}
"""Unit fill per side (``-1``: destroyed or out of the battle)."""
SPACE: Colour = (14, 18, 34)
"""Hexes of the map."""
OFF_MAP: Colour = (2, 2, 2)
"""Hexes beyond the map's edge."""
GRID: Colour = (46, 54, 82)
"""Hex outlines."""


def render_hex_frame(
    units: Sequence[tuple[int, int, int, int, str, bool]],
    size: int = 256,
    map_radius: int | None = None,
    caption: str = "",
) -> np.ndarray:
    """A ``(size, size, 3)`` frame of a hex battle, north up.

    ``units`` are ``(q, r, facing, side, label, in_play)``: each is drawn as its hex filled in
    its side's colour (grey once out), a white arrow from the centre toward its facing (0 = A
    = north, clockwise) and its label in the 3x5 font. The view is centred on the units in
    play; hexes beyond ``map_radius`` (hex distance from the origin) are black. ``caption``
    (e.g. the turn) is written in the top-left corner.
    """
    shown = [u for u in units if u[5]] or list(units)
    points = [hex_centre(u[0], u[1], 1.0, (0.0, 0.0)) for u in shown] or [(0.0, 0.0)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) + 3.0
    hs = min(20.0, max(7.0, 0.85 * size / span))
    cx, cy = (min(xs) + max(xs)) / 2.0, (min(ys) + max(ys)) / 2.0
    origin = (size / 2.0 - cx * hs, size / 2.0 - cy * hs)
    q, r = hex_of_pixels(size, size, hs, origin)
    image = np.empty((size, size, 3), dtype=np.uint8)
    image[:] = SPACE
    if map_radius is not None:
        off = np.maximum(np.maximum(np.abs(q), np.abs(r)), np.abs(q + r)) > map_radius
        image[off] = OFF_MAP
        image[hex_edges(q, r) & ~off] = GRID
    else:
        image[hex_edges(q, r)] = GRID
    scale = 2 if hs >= 12 else 1
    for uq, ur, _facing, side, _label, alive in units:
        image[(q == uq) & (r == ur)] = SIDE_COLOURS[side if alive else -1]
    for uq, ur, facing, _side, label, _alive in units:
        x, y = hex_centre(uq, ur, hs, origin)
        draw_arrow(image, x, y, facing_angle(facing), 0.5 * hs, 1.7 * hs, (255, 255, 255), 2)
        draw_text(image, label, x, y, (255, 255, 255), scale, outline=(0, 0, 0))
    if caption:
        draw_text(image, caption, 3, 3, (200, 200, 200), 1, centre=False)
    return image
