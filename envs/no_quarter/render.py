"""Text and image rendering of a No Quarter battle (full view, for people).

Used by every No Quarter battle env (``render_mode`` "ansi" and "rgb_array") and the campaign env.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wargym.rules.no_quarter.battle import game
from wargym.rules.no_quarter.battle.state import Battle
from wargym.rules.no_quarter.forces.vocab import Side
from wargym.rules.no_quarter.sight_movement.perception import bodies

from .encoding import TERRAIN_PLANES, static_planes

_COLOURS = {
    "building": (90, 90, 90),
    "woods": (34, 110, 40),
    "hill": (170, 140, 90),
    "river": (70, 130, 200),
    "deep_water": (30, 60, 150),
    "road": (200, 190, 160),
    "rough": (130, 120, 80),
}


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
    """An RGB image of the table, north up, ``scale`` pixels per inch (full view)."""
    planes = static_planes(battle.battlefield, 1.0)
    rows, cols = planes.shape[1:]
    image = np.full((rows, cols, 3), 225, dtype=np.uint8)
    for index, kind in enumerate(TERRAIN_PLANES):
        image[planes[index] > 0] = _COLOURS[kind.value]
    image = np.repeat(np.repeat(image[::-1], scale, axis=0), scale, axis=1)
    for mech in battle.mechs.values():
        if mech.removed is not None:
            continue
        colour = (20, 60, 230) if mech.side is Side.BLUE else (220, 30, 30)
        x = int(mech.pos[0] * scale)
        y = int((battle.battlefield.height - mech.pos[1]) * scale)
        r = max(2, scale // 2)
        image[max(0, y - r) : y + r, max(0, x - r) : x + r] = colour
    return image
