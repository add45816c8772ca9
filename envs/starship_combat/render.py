"""The ``rgb_array`` frame of the Starship Combat envs (plain numpy, :mod:`wargym.envs.raster`).

The map's flat-topped hexes, north (direction A) up; hexes beyond the rules' ``map_radius``
are black. Each ship is its hex in its side's colour (blue side 0, red side 1, grey once
destroyed, disengaged or out) with its id in the 3x5 font and a white arrow toward its heading.
"""

from __future__ import annotations

import numpy as np

from wargym.envs.raster import render_hex_frame
from wargym.rules.starship_combat.data import load_rules
from wargym.rules.starship_combat.state import BattleState


def render_rgb(state: BattleState, size: int = 256) -> np.ndarray:
    """A ``(size, size, 3)`` uint8 image of the battle (full view, for people)."""
    units = [
        (s.pos[0], s.pos[1], s.heading, s.side, str(s.id),
         not (s.destroyed or s.disengaged or s.out))
        for s in state.ships
    ]  # fmt: skip
    return render_hex_frame(units, size, load_rules().map_radius, f"ROUND {state.round}")
