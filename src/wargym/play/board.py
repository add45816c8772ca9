"""The board of ``wargym play``, drawn with colour by rich.

No Quarter: the battlefield north up, two characters a cell (about 40 cells across): the
terrain coloured by kind, each mech as its number and an arrow of its facing on its side's
colour, PEF markers as ``??``. Only the enemies the human's side sees now are drawn (and
listed). Space duels: the hex map around the ships (flat-topped axial hexes, three characters
a hex), each ship as its number and its heading letter A-F.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

from rich.table import Table as RichTable
from rich.text import Text

from .words import compass

SIDE_STYLE = {"blue": "bold white on blue", "red": "bold white on red"}
TERRAIN_STYLE = {
    ".": ("grey35", "· "),
    "T": ("green", "♣ "),
    "^": ("yellow", "^^"),
    "~": ("bright_blue", "~~"),
    "=": ("blue", "≈≈"),
    "#": ("bold white on grey23", "██"),
    ":": ("dark_orange3", "::"),
    "%": ("orange4", "%%"),
}
TERRAIN_NAMES = {
    "T": "woods", "^": "hill", "~": "river", "=": "deep water", "#": "building", ":": "road",
    "%": "rough",
}  # fmt: skip
ARROWS = "→↗↑↖←↙↓↘"
"""Facing arrows, from east counter-clockwise (No Quarter headings)."""
MAX_CELLS = 40
"""Most cells across or down the No Quarter board."""


def glyph(number: int) -> str:
    """One character for a number: 0-9, then a-z, else ``@``."""
    if 0 <= number < 10:
        return str(number)
    if number < 36:
        return chr(ord("a") + number - 10)
    return "@"


def hidden_enemies(battle: Any, side: str) -> frozenset[int]:
    """Enemy mechs of ``side`` in play that no mech of ``side`` sees now."""
    from wargym.envs.no_quarter.encoding import visible_enemies
    from wargym.rules.no_quarter.forces.vocab import Side

    viewer = Side(side)
    seen = visible_enemies(battle, viewer)
    return frozenset(m.id for m in battle.mechs_of(viewer.other) if m.id not in seen)


def nq_board(battle: Any, human: str, hidden: Collection[int]) -> Text:
    """The No Quarter battlefield with the mechs the human may see."""
    bf = battle.battlefield
    cell = max(1.0, math.ceil(max(bf.width, bf.height) / MAX_CELLS))
    rows = bf.ascii(cell=cell).splitlines()
    marks: dict[tuple[int, int], tuple[str, str]] = {}
    from wargym.envs.no_quarter.mission_encoding import pef_markers
    from wargym.rules.no_quarter.forces.vocab import Side

    for pos in pef_markers(battle, Side(human)):
        marks[_cell(pos, cell, len(rows))] = ("??", "bold magenta")
    for mech in battle.mechs.values():
        if mech.removed is not None or mech.id in hidden:
            continue
        arrow = ARROWS[round((mech.facing % 360.0) / 45.0) % 8]
        side = str(mech.side.value)
        marks[_cell(mech.pos, cell, len(rows))] = (glyph(mech.id) + arrow, SIDE_STYLE[side])
    text = Text()
    for r, line in enumerate(rows):
        run, run_style = "", ""
        for c, ch in enumerate(line):
            if (r, c) in marks:
                shown, style = marks[(r, c)]
            else:
                style, shown = TERRAIN_STYLE.get(ch, TERRAIN_STYLE["."])
            if style != run_style and run:
                text.append(run, style=run_style)
                run = ""
            run, run_style = run + shown, style
        text.append(run, style=run_style)
        text.append("\n")
    text.append(f"north up; one cell = {cell:g} in; ", style="dim")
    for ch, name in TERRAIN_NAMES.items():
        style, shown = TERRAIN_STYLE[ch]
        text.append(shown.strip() or shown, style=style)
        text.append(f" {name}  ", style="dim")
    if marks and any(v[0] == "??" for v in marks.values()):
        text.append("?? PEF", style="bold magenta")
    return text


def _cell(pos: Any, cell: float, rows: int) -> tuple[int, int]:
    c = int(float(pos[0]) // cell)
    r = rows - 1 - int(float(pos[1]) // cell)
    return r, c


def nq_forces(battle: Any, human: str, hidden: Collection[int]) -> RichTable:
    """The mechs in play: the human's, then the enemies in sight."""
    table = RichTable(box=None, pad_edge=False, show_header=True, header_style="bold")
    for column in ("mech", "design", "Rep", "armour", "at", "facing", "status"):
        table.add_column(column)
    mechs = sorted(battle.mechs.values(), key=lambda m: (str(m.side.value) != human, m.id))
    for m in mechs:
        side = str(m.side.value)
        if m.id in hidden:
            continue
        label = Text(f"{glyph(m.id)} {side} #{m.id}", style=SIDE_STYLE[side])
        status = "out: " + str(m.removed.value) if m.removed is not None else str(m.status.value)
        if m.prone and m.removed is None:
            status += ", prone"
        table.add_row(
            label,
            str(m.design.name),
            str(m.rep) + (" Star" if getattr(m.pilot, "star", False) else ""),
            f"{sum(m.armor)}/{sum(m.design.armor)}",
            f"({m.pos[0]:.1f}, {m.pos[1]:.1f})",
            compass(m.facing),
            status.replace("_", " "),
        )
    if hidden:
        table.caption = f"{len(hidden)} enemy mech(s) out of sight"
    return table


# -- space -----------------------------------------------------------------------------------


def _ships(table: Any) -> list[tuple[int, str, tuple[int, int], str, bool]]:
    """``(id, side, (q, r), heading letter, out)`` of every ship."""
    found = []
    for ship in table.state.ships:
        if hasattr(ship, "pos"):  # Starship Combat
            pos, heading = (int(ship.pos[0]), int(ship.pos[1])), "ABCDEF"[ship.heading % 6]
            out = bool(getattr(ship, "out", False) or ship.destroyed)
        else:  # The Pentagon War
            pos, heading = (int(ship.q), int(ship.r)), "ABCDEF"[ship.facing % 6]
            out = bool(ship.destroyed or ship.disengaged)
        found.append((ship.id, table.sides[ship.side], pos, heading, out))
    return found


def space_board(table: Any) -> Text:
    """The hexes around the ships: rows of flat-topped axial hexes, ``nA`` for ship n."""
    ships = [s for s in _ships(table) if not s[4]]
    text = Text()
    if not ships:
        return text.append("(no ship in play)")
    qs = [s[2][0] for s in ships]
    ys = [2 * s[2][1] + s[2][0] for s in ships]  # doubled rows: hex (q, r) sits on 2r + q
    q0, q1 = min(qs) - 2, max(qs) + 2
    y0, y1 = min(ys) - 3, max(ys) + 3
    if q1 - q0 > 40:  # a wide fleet: keep the board a screen wide
        q0, q1 = q0, q0 + 40
    at = {s[2]: s for s in ships}
    for y in range(y0, y1 + 1):
        for q in range(q0, q1 + 1):
            if (y - q) % 2:
                text.append("   ")
                continue
            r = (y - q) // 2
            ship = at.get((q, r))
            if ship is None:
                text.append(" · ", style="grey35")
            else:
                text.append(f"{glyph(ship[0])}{ship[3]} ", style=SIDE_STYLE[ship[1]])
        text.append("\n")
    text.append("n A: ship n heading A (A north, then clockwise B-F)", style="dim")
    return text


def space_forces(table: Any) -> RichTable:
    """Every ship: side, design, position, heading and damage."""
    out = RichTable(box=None, pad_edge=False, show_header=True, header_style="bold")
    for column in ("ship", "design", "hex", "heading", "state"):
        out.add_column(column)
    for ship_id, side, pos, heading, gone in _ships(table):
        ship = table.state.ships[ship_id]
        bits = []
        for name in ("armor", "hull_dmg", "final_damage"):
            if hasattr(ship, name):
                value = getattr(ship, name)
                value = sum(value) if isinstance(value, list) else value
                bits.append(f"{name.replace('_', ' ')} {value}")
        out.add_row(
            Text(f"{glyph(ship_id)} {side}", style=SIDE_STYLE[side]),
            str(ship.design).replace("_", " "),
            f"({pos[0]}, {pos[1]})",
            heading,
            "out" if gone else ", ".join(bits),
        )
    return out


def board(table: Any) -> tuple[Text, RichTable]:
    """The board and the forces of ``table`` as the human sees them."""
    battle = getattr(table, "battle", None)
    if battle is not None:
        hidden = hidden_enemies(battle, table.human)
        return nq_board(battle, table.human, hidden), nq_forces(battle, table.human, hidden)
    return space_board(table), space_forces(table)


__all__ = ["board", "glyph", "hidden_enemies", "nq_board", "space_board"]
