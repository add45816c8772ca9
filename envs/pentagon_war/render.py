"""Text and image renderings of the Pentagon War hex map (ansi and rgb_array, plain numpy).

Text: ships of side 0 are upper-case letters (A = ship 0, ...), side 1 lower-case letters;
flat-topped hexes laid out in "odd-q" columns (odd columns sit half a hex lower). Image: the
hexes themselves (:func:`wargym.envs.raster.render_hex_frame`), ships as filled hexes in
their side's colour (blue side 0, red side 1, grey once out) with their id and facing arrow.
"""

from __future__ import annotations

import numpy as np

from wargym.envs.raster import render_hex_frame
from wargym.rules.hexgrid import DIRECTION_NAMES
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
    """An ``(size, size, 3)`` uint8 image of the hex map (flat-topped hexes, north up).

    Each ship is its hex in its side's colour (grey once destroyed or disengaged) with its id in
    the 3x5 font and a white arrow toward its facing; black hexes lie beyond ``map_radius``.
    """
    units = [(s.q, s.r, s.facing, s.side, str(s.id), s.alive) for s in state.ships]
    caption = f"TURN {state.turn}.{state.impulse}"
    return render_hex_frame(units, size, state.options.map_radius, caption)
