"""Text and image rendering of a No Quarter battle (full view, for people).

Used by every No Quarter battle env (``render_mode`` "ansi" and "rgb_array") and the campaign env.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from wargym.envs.raster import draw_arrow, draw_line, draw_text, fill_disc, fill_polygon
from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.sight_movement.perception import bodies

from .encoding import TERRAIN_PLANES, static_planes

TERRAIN_COLOURS = {
    "building": (90, 90, 90),
    "woods": (34, 110, 40),
    "hill": (170, 140, 90),
    "river": (70, 130, 200),
    "deep_water": (30, 60, 150),
    "road": (200, 190, 160),
    "rough": (130, 120, 80),
}
"""RGB of each terrain kind (the replay page uses the same colours)."""
SIDE_COLOURS = {Side.BLUE: (20, 60, 230), Side.RED: (220, 30, 30)}
"""RGB of each side's mechs."""


def outcome_info(battle: Battle) -> dict[str, Any] | None:
    """``{"winner", "reason"}`` of a finished battle (``None`` while it runs)."""
    result = game.outcome(battle)
    if result is None:
        return None
    winner, reason = result
    return {"winner": None if winner is None else winner.value, "reason": reason}


def render_ansi(battle: Battle) -> str:
    """The table as text (``Battlefield.ascii`` with mech ids) and one line per mech."""
    decision = battle.decision
    head = f"turn {battle.turn}" + (
        f"; {decision.side.value} decides {decision.kind.value}"
        + ("" if decision.mech is None else f" for mech {decision.mech}")
        if decision is not None and not battle.over
        else ""
    )
    if battle.over:
        head += f"; over: {battle.end_reason} ({outcome_info(battle)})"
    lines = [head, battle.battlefield.ascii(bodies(battle))]
    for mech in battle.mechs.values():
        state = mech.status.value if mech.removed is None else f"removed ({mech.removed.value})"
        lines.append(
            f"{mech.id} {mech.side.value:<4} {mech.design.id:<18} armor {sum(mech.armor):>2}/"
            f"{sum(mech.design.armor):<2} rep {mech.rep} {state}{' prone' if mech.prone else ''}"
        )
    return "\n".join(lines)


def render_rgb(battle: Battle, scale: int = 8) -> np.ndarray:
    """An RGB image of the table, north up, ``scale`` pixels per inch (full view).

    Terrain in its colours (:data:`TERRAIN_COLOURS`), flames as orange lines, PEFs as white
    diamonds with a "?", each mech as a disc in its side's colour (blue / red) with its id in
    the 3x5 font and a black arrow toward its heading; a removed mech is a grey cross with its
    id. The turn is written in the top-left corner.
    """
    planes = static_planes(battle.battlefield, 1.0)
    rows, cols = planes.shape[1:]
    image = np.full((rows, cols, 3), 225, dtype=np.uint8)
    for index, kind in enumerate(TERRAIN_PLANES):
        image[planes[index] > 0] = TERRAIN_COLOURS[kind.value]
    image = np.repeat(np.repeat(image[::-1], scale, axis=0), scale, axis=1)
    height = battle.battlefield.height

    def screen(pos: Any) -> tuple[float, float]:
        return float(pos[0]) * scale, (height - float(pos[1])) * scale

    for start, end in battle.flames:
        draw_line(image, *screen(start), *screen(end), (255, 140, 0), 2)
    for pef in (battle.np or {}).get("pefs", []):
        x, y = screen(pef["pos"])
        r = 0.9 * scale
        fill_polygon(
            image, [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)], (0, 0, 0)
        )
        fill_polygon(image, [(x, y - r), (x + r, y), (x, y + r), (x - r, y)], (255, 255, 255))
        draw_text(image, "?", x, y, (0, 0, 0))
    radius = max(3.0, 0.9 * scale)
    for mech in battle.mechs.values():
        x, y = screen(mech.pos)
        label = str(mech.id)
        if mech.removed is not None:
            d = radius * 0.8
            draw_line(image, x - d, y - d, x + d, y + d, (110, 110, 110), 2)
            draw_line(image, x - d, y + d, x + d, y - d, (110, 110, 110), 2)
            draw_text(image, label, x, y - radius - 4, (60, 60, 60))
            continue
        colour = SIDE_COLOURS[mech.side]
        fill_disc(image, x, y, radius + 1, (0, 0, 0))
        fill_disc(image, x, y, radius, (120, 120, 120) if mech.prone else colour)
        draw_arrow(image, x, y, -math.radians(mech.heading), radius * 0.7, radius * 2.1, (0, 0, 0))
        draw_text(image, label, x, y, (255, 255, 255))
    draw_text(image, f"TURN {battle.turn}", 3, 3, (20, 20, 20), centre=False)
    return image


CAMPAIGN_FRAME = 384
"""Side of the Cestus V campaign env's square ``rgb_array`` frame, in pixels."""


def campaign_rgb(battle: Battle | None, roster: str, size: int = CAMPAIGN_FRAME) -> np.ndarray:
    """The campaign env's frame, always ``(size, size, 3)`` uint8.

    During a mission: the battle (:func:`render_rgb`) under the roster's first line; between
    missions: the roster text.
    """
    canvas = np.full((size, size, 3), 240, dtype=np.uint8)
    lines = roster.replace("_", " ").splitlines() or [""]  # keys in words: "star army"
    if battle is None:
        for row, line in enumerate(lines[: (size - 4) // 7]):
            draw_text(canvas, line[: (size - 4) // 4], 3, 3 + 7 * row, (20, 20, 20), centre=False)
        return canvas
    draw_text(canvas, lines[0][: (size - 4) // 4], 3, 3, (20, 20, 20), centre=False)
    field = battle.battlefield
    scale = int(max(1, min(10, (size - 12) // max(1.0, field.width, field.height))))
    table = render_rgb(battle, scale)[: size - 12, :size]
    canvas[12 : 12 + table.shape[0], : table.shape[1]] = table
    return canvas
