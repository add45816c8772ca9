"""Text and image renderings of the Pentagon War hex map (ansi and rgb_array, plain numpy).

Ships of side 0 are drawn as upper-case letters (A = ship 0, ...) and blue discs, side 1 as
lower-case letters and red discs; destroyed or disengaged ships are grey. Flat-topped hexes are
laid out in "odd-q" columns: odd columns sit half a hex lower.
"""

from __future__ import annotations

import math

import numpy as np

from wargym.rules.hexgrid import DIRECTION_NAMES, Hex, pixel
from wargym.rules.pentagon_war.state import BattleState, ShipState

MAX_COLS = 41
MAX_ROWS = 21
COLOURS = {0: (60, 120, 255), 1: (230, 60, 60), -1: (120, 120, 120)}


def glyph(ship: ShipState) -> str:
    """One letter per ship: upper case for side 0, lower case for side 1."""
    letter = chr(ord("A") + ship.id % 26)
    return letter if ship.side == 0 else letter.lower()


def render_ansi(state: BattleState) -> str:
    """A text hex map around the ships in play, then one status line per ship."""
    shown = [s for s in state.ships if s.alive] or state.ships
    cols = [s.q for s in shown]
    rows = [s.r + (s.q - (s.q & 1)) // 2 for s in shown]
    c0 = (min(cols) + max(cols)) // 2 - MAX_COLS // 2
    r0 = (min(rows) + max(rows)) // 2 - MAX_ROWS // 2
    cells: dict[tuple[int, int], str] = {}
    for ship in shown:
        key = (ship.q - c0, ship.r + (ship.q - (ship.q & 1)) // 2 - r0)
        cells[key] = "*" if key in cells else glyph(ship)
    lines = []
    for row in range(MAX_ROWS):
        for parity in (0, 1):
            text = []
            for col in range(MAX_COLS):
                if (col + c0) % 2 == parity:
                    text.append(cells.get((col, row), "."))
                else:
                    text.append(" ")
            lines.append("".join(text).rstrip())
    head = f"turn {state.turn} impulse {state.impulse} phase {state.phase.value}"
    if state.outcome is not None:
        head += f" -- over: {state.outcome.termination.value}, winner {state.outcome.winner}"
    status = [head]
    for ship in state.ships:
        flag = "destroyed" if ship.destroyed else "disengaged" if ship.disengaged else "ok"
        status.append(
            f"{glyph(ship)} side {ship.side} {ship.design} at ({ship.q},{ship.r}) facing "
            f"{DIRECTION_NAMES[ship.facing]} v=({ship.va},{ship.vc}) armor {ship.armor} "
            f"FD {ship.final_damage} charges {ship.charges} {flag}"
        )
    return "\n".join([*status, *lines]) + "\n"


def render_rgb(state: BattleState, size: int = 256) -> np.ndarray:
    """An ``(size, size, 3)`` uint8 image: hex centres as dots, ships as discs with a bow line."""
    image = np.full((size, size, 3), 16, dtype=np.uint8)
    shown = [s for s in state.ships if s.alive] or state.ships
    xs = [pixel(s.hex)[0] for s in shown]
    ys = [pixel(s.hex)[1] for s in shown]
    cx, cy = (min(xs) + max(xs)) / 2.0, (min(ys) + max(ys)) / 2.0
    span = max(12.0, max(xs) - min(xs) + 6.0, max(ys) - min(ys) + 6.0)
    scale = size / span

    def to_screen(x: float, y: float) -> tuple[float, float]:
        return (x - cx) * scale + size / 2.0, size / 2.0 - (y - cy) * scale

    radius = int(span / 3.0) + 2
    centre = Hex(round(cx / 1.5), 0)
    centre = Hex(centre.q, round(-cy / math.sqrt(3.0) - centre.q / 2.0))
    for dq in range(-radius, radius + 1):
        for dr in range(-radius, radius + 1):
            px, py = to_screen(*pixel(Hex(centre.q + dq, centre.r + dr)))
            ix, iy = int(px), int(py)
            if 0 <= ix < size and 0 <= iy < size:
                image[iy, ix] = (70, 70, 70)
    yy, xx = np.mgrid[0:size, 0:size]
    for ship in state.ships:
        px, py = to_screen(*pixel(ship.hex))
        colour = COLOURS[ship.side if ship.alive else -1]
        disc = (xx - px) ** 2 + (yy - py) ** 2 <= max(2.0, 0.45 * scale) ** 2
        image[disc] = colour
        bx, by = pixel(ship.hex.neighbour(ship.facing))
        ex, ey = to_screen(*pixel(ship.hex))
        tx, ty = to_screen(bx, by)
        for t in np.linspace(0.0, 0.8, 24):
            ix, iy = int(ex + (tx - ex) * t), int(ey + (ty - ey) * t)
            if 0 <= ix < size and 0 <= iy < size:
                image[iy, ix] = (255, 255, 255)
    return image
