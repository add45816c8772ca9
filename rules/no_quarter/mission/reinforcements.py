"""Escalating battles: reinforcement checks, unit sizes, arrival points (§23.8).

At the start of a turn whose two activation dice add up to 7 the side with the higher die may
be reinforced (23.8.3): :func:`reinforcement_check` rolls 23.8.1 and the faction table,
:func:`reinforcement_size` turns the result into a number of mechs (23.8.2 rulings),
:func:`reinforcement_force` rolls their Classes and Reps (23.8.4 = §20.4), and
:func:`reinforcement_entry` / :func:`arrival_positions` say where they come on (23.8.5).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal

from wargym.rules.dice import Dice, passed_dice
from wargym.rules.no_quarter.forces.data import NoQuarterRules, load_rules
from wargym.rules.no_quarter.forces.vocab import Faction, Rank, Side
from wargym.rules.no_quarter.non_player.pef_tables import MissionKind, NpEnemyForce, np_enemy_mechs
from wargym.rules.no_quarter.sight_movement.geometry import Point, heading_to
from wargym.rules.tables import Node, load_config

CONFIG = "rules/no_quarter/reinforcements.yaml"
Unit = Literal["one_team", "rest_of_squad", "one_squad", "rest_of_platoon", "one_platoon", "none"]
UNITS: tuple[Unit, ...] = (
    "one_team",
    "rest_of_squad",
    "one_squad",
    "rest_of_platoon",
    "one_platoon",
    "none",
)
_INWARD = {"south": (0.0, 1.0), "north": (0.0, -1.0), "west": (1.0, 0.0), "east": (-1.0, 0.0)}


@dataclass(frozen=True, slots=True)
class ReinforcementOptions:
    """Readings of §23.8; every default is the digest's ruling."""

    swap_free_company_hishen: bool = False
    """Decision 50: give the Free Company the Hishen list and vice versa (the 65 % reading)."""
    six_always_fails: bool = False
    """Ruling 0.1: "6 always fails" is not applied to the 23.8.1 roll against Campaign Morale."""


@dataclass(frozen=True, slots=True)
class EntryRow:
    """One row of the 23.8.5 entry table."""

    edge: Literal["left", "behind", "right"]
    base: float
    plus_d6: bool
    origin: Literal["home_corner", "centre"]
    side: Literal["left", "right", "none"]


@dataclass(frozen=True, slots=True)
class ReinforcementTables:
    """reinforcements.yaml (§23.8.1-§23.8.5)."""

    trigger_total: int
    check_add: Mapping[int, int | None]
    tables: Mapping[str, Mapping[int, Unit]]
    table_of: Mapping[Faction, str]
    step_down: Mapping[Unit, Unit]
    rest_of_platoon_minimum: int
    entry: Mapping[int, EntryRow]
    spacing: float
    leaders: Mapping[Unit, tuple[Rank, ...]] = dataclasses.field(default_factory=dict)
    """23.8.2: the leaders each unit brings, highest first."""


@dataclass(frozen=True, slots=True)
class ReinforcementCheck:
    """The 23.8.1 check: dice vs CM, the faction-table dice and the unit (§23.8.1, §23.8.3)."""

    triggered: bool
    faces: tuple[int, ...]
    passes: int
    table_faces: tuple[int, ...]
    score: int | None
    unit: Unit


@dataclass(frozen=True, slots=True)
class ReinforcementSize:
    """How many mechs a result brings after the step-down rulings (§23.8.2)."""

    rolled: Unit
    unit: Unit
    mechs: int


@dataclass(frozen=True, slots=True)
class ReinforcementEntry:
    """Where reinforcements arrive (§23.8.5): dice, the compass edge, the point, the heading."""

    face: int
    offset_face: int | None
    edge: str
    point: Point
    heading: float


def parse_reinforcements(node: Node) -> ReinforcementTables:
    """Strictly parse reinforcements.yaml; errors name file, key and row (§23.8)."""
    node.keys_exactly(
        {
            "trigger_total",
            "check",
            "faction_tables",
            "table_of",
            "step_down",
            "rest_of_platoon_minimum",
            "entry",
            "arrival_spacing_in",
            "unit_leaders",
        }
    )
    check: dict[int, int | None] = {}
    for key, row in node["check"].items():
        if key not in (0, 1, 2):
            raise row.fail(f"row key {key!r} must be 0, 1 or 2 (dice passed)")
        if row.value == "none":
            check[key] = None
        else:
            row.keys_exactly({"add"})
            check[key] = row["add"].as_int(0, 6)
    if set(check) != {0, 1, 2}:
        raise node["check"].fail("rows must be exactly 0, 1 and 2")
    tables: dict[str, dict[int, Unit]] = {}
    for name, table in node["faction_tables"].items():
        rows: dict[int, Unit] = {}
        for key, cell in table.items():
            if not isinstance(key, int) or not 2 <= key <= 12:
                raise cell.fail(f"row key {key!r} must be a 2d6 sum 2-12 (12 covers 12+)")
            rows[key] = cell.as_str(UNITS)  # type: ignore[assignment]
        if set(rows) != set(range(2, 13)):
            raise table.fail("rows must cover 2-12 exactly")
        tables[str(name)] = rows
    table_of = {}
    for name, cell in node["table_of"].items():
        try:
            faction = Faction(name)
        except ValueError:
            raise cell.fail(f"{name!r} is not a faction") from None
        table_of[faction] = cell.as_str(sorted(tables))
    if set(table_of) != set(Faction):
        raise node["table_of"].fail("every faction needs a table")
    step = {k: v.as_str(UNITS) for k, v in node["step_down"].items()}
    entry = {}
    for key, row in node["entry"].items():
        if not isinstance(key, int) or not 1 <= key <= 6:
            raise row.fail(f"row key {key!r} must be a d6 face")
        row.keys_exactly({"edge", "base_in", "plus_d6", "from"}, {"side"})
        side = row["side"].as_str(["left", "right", "none"]) if "side" in row else "none"
        entry[key] = EntryRow(
            row["edge"].as_str(["left", "behind", "right"]),  # type: ignore[arg-type]
            row["base_in"].as_number(),
            row["plus_d6"].as_bool(),
            row["from"].as_str(["home_corner", "centre"]),  # type: ignore[arg-type]
            side,  # type: ignore[arg-type]
        )
    if set(entry) != set(range(1, 7)):
        raise node["entry"].fail("rows must cover 1-6 exactly")
    leaders: dict[Unit, tuple[Rank, ...]] = {}
    ranks = [r.value for r in Rank]
    for key, cell in node["unit_leaders"].items():
        if key not in UNITS:
            raise cell.fail(f"{key!r} is not a reinforcement unit")
        leaders[key] = tuple(Rank(v) for v in cell.as_strs(ranks))
    return ReinforcementTables(
        node["trigger_total"].as_int(3, 11),
        check,
        tables,
        table_of,
        step,  # type: ignore[arg-type]
        node["rest_of_platoon_minimum"].as_int(0, 18),
        entry,
        node["arrival_spacing_in"].as_number(),
        leaders,
    )


@cache
def reinforcement_tables() -> ReinforcementTables:
    """reinforcements.yaml, parsed once (§23.8)."""
    return parse_reinforcements(load_config(CONFIG))


def reinforcement_side(blue_die: int, red_die: int) -> Side | None:
    """The side that may be reinforced: the higher die when the two add up to 7 (§23.8.3)."""
    if blue_die + red_die != reinforcement_tables().trigger_total or blue_die == red_die:
        return None
    return Side.BLUE if blue_die > red_die else Side.RED


def reinforcement_check(
    activation_total: int,
    dice: Dice,
    morale: int,
    faction: Faction,
    options: ReinforcementOptions = ReinforcementOptions(),
) -> ReinforcementCheck:
    """Roll 2d6 vs current CM, then 2d6 (+3 after pass 1) on the faction table (§23.8.1).

    Rolls nothing when ``activation_total`` is not 7 (23.8.3). ``morale`` and ``faction`` are
    those of the side with the higher activation die.
    """
    cfg = reinforcement_tables()
    if activation_total != cfg.trigger_total:
        return ReinforcementCheck(False, (), 0, (), None, "none")
    faces = dice.roll(2)
    if options.six_always_fails:
        passes = min(2, sum(1 for f in faces if f <= morale and f != 6))
    else:
        passes = passed_dice(faces, morale)
    add = cfg.check_add[passes]
    if add is None:
        return ReinforcementCheck(True, faces, passes, (), None, "none")
    table_faces = dice.roll(2)
    score = sum(table_faces) + add
    name = cfg.table_of[faction]
    if options.swap_free_company_hishen and name in ("free_company", "hishen"):
        name = "hishen" if name == "free_company" else "free_company"
    return ReinforcementCheck(
        True, faces, passes, table_faces, score, cfg.tables[name][min(score, 12)]
    )


def reinforcement_size(
    unit: Unit,
    faction: Faction,
    *,
    deployed_in_platoon: int,
    partial_squad: bool,
    rules: NoQuarterRules | None = None,
) -> ReinforcementSize:
    """Mechs a result brings (§23.8.2, rulings: step down, NP platoon bookkeeping).

    ``deployed_in_platoon``: mechs of the side's current platoon already on the table (NP:
    every revealed NP mech); ``partial_squad``: a Squad of the side is on the table missing
    its 2nd Team. "Rest of platoon" = platoon size minus deployed (minimum 3) when a partial
    platoon is on the table, else one squad; "rest of squad" = 3 mechs, else one team.
    """
    rules = rules or load_rules()
    cfg = reinforcement_tables()
    platoon = rules.formation_size(faction, "platoon")
    rolled, current = unit, unit
    if current == "rest_of_platoon" and not 0 < deployed_in_platoon < platoon:
        current = cfg.step_down[current]
    if current == "rest_of_squad" and not partial_squad:
        current = cfg.step_down[current]
    sizes = {
        "one_team": rules.formation_size(faction, "team"),
        "rest_of_squad": rules.formation_size(faction, "team"),
        "one_squad": rules.formation_size(faction, "squad"),
        "rest_of_platoon": max(cfg.rest_of_platoon_minimum, platoon - deployed_in_platoon),
        "one_platoon": platoon,
        "none": 0,
    }
    return ReinforcementSize(rolled, current, sizes[current])


def arrival_ranks(
    unit: Unit, count: int, faction: Faction, rules: NoQuarterRules | None = None
) -> tuple[Rank | None, ...]:
    """The rank of each arriving mech, the group leader first (§23.8.2).

    The first mech holds the unit's highest leader (``unit_leaders``); the first mech of
    each further Team holds a Squad Leader where a Squad starts (if the unit brings them),
    else a Team Leader (if the unit brings them).
    """
    rules = rules or load_rules()
    brought = reinforcement_tables().leaders.get(unit, ())
    team = rules.formation_size(faction, "team")
    squad = rules.formation_size(faction, "squad")
    ranks: list[Rank | None] = []
    for i in range(count):
        if i == 0:
            ranks.append(brought[0] if brought else None)
        elif i % team == 0 and Rank.SQUAD_LEADER in brought[1:] and i % squad == 0:
            ranks.append(Rank.SQUAD_LEADER)
        elif i % team == 0 and Rank.TEAM_LEADER in brought[1:]:
            ranks.append(Rank.TEAM_LEADER)
        else:
            ranks.append(None)
    return tuple(ranks)


def reinforcement_force(
    size: ReinforcementSize,
    faction: Faction,
    dice: Dice,
    *,
    campaign_morale: int | None,
    mission: MissionKind,
    rules: NoQuarterRules | None = None,
) -> NpEnemyForce:
    """Classes and Reps of the arrivals from the NP Enemy Mechs table (§23.8.4, §20.4)."""
    return np_enemy_mechs(
        size.mechs, faction, dice, enemy_cm=campaign_morale, mission=mission, rules=rules
    )


def reinforcement_entry(
    dice: Dice, *, home_edge: str, width: float = 36.0, height: float = 36.0
) -> ReinforcementEntry:
    """Roll 1d6 (and 1d6 for the offset) on the entry table, seen from ``home_edge`` (§23.8.5).

    Ruling 23.8.5: "behind" is the receiving side's home edge; left and right as seen
    facing the enemy; side-edge offsets run from the corner with the home edge.
    """
    cfg = reinforcement_tables()
    (face,) = dice.roll(1)
    row = cfg.entry[face]
    offset_face = dice.roll(1)[0] if row.plus_d6 else None
    offset = row.base + (offset_face or 0)
    nx, ny = _INWARD[home_edge]
    lx, ly = -ny, nx  # the receiving side's left, facing into the table
    centre = {
        "south": (width / 2, 0.0),
        "north": (width / 2, height),
        "west": (0.0, height / 2),
        "east": (width, height / 2),
    }[home_edge]
    half = (width if home_edge in ("south", "north") else height) / 2
    if row.edge == "behind":
        sign = {"left": 1.0, "right": -1.0, "none": 0.0}[row.side]
        point = (centre[0] + lx * offset * sign, centre[1] + ly * offset * sign)
        edge = home_edge
    else:
        sign = 1.0 if row.edge == "left" else -1.0
        corner = (centre[0] + lx * half * sign, centre[1] + ly * half * sign)
        point = (corner[0] + nx * offset, corner[1] + ny * offset)
        edge = _compass((lx * sign, ly * sign))
    point = (min(max(point[0], 0.0), width), min(max(point[1], 0.0), height))
    into = (-_INWARD[edge][0], -_INWARD[edge][1])
    heading = heading_to((0.0, 0.0), (-into[0], -into[1]))
    return ReinforcementEntry(face, offset_face, edge, point, heading)


def _compass(direction: Point) -> str:
    return next(e for e, (x, y) in _INWARD.items() if (-x, -y) == direction)


def arrival_positions(
    entry: ReinforcementEntry,
    count: int,
    *,
    width: float = 36.0,
    height: float = 36.0,
    radius: float = 0.5,
) -> tuple[Point, ...]:
    """Ruling 23.8.5: a block centred on the entry point, touching the edge, 2" apart (§23.8.5).

    Centres are ``arrival_spacing_in`` apart along the edge; a second row starts the same
    distance further in when one row does not fit.
    """
    spacing = reinforcement_tables().spacing
    nx, ny = _INWARD[entry.edge]
    length = width if entry.edge in ("south", "north") else height
    along = entry.point[0] if entry.edge in ("south", "north") else entry.point[1]
    per_row = max(1, math.floor((length - 2 * radius) / spacing) + 1)
    out = []
    for row_index in range(math.ceil(count / per_row)):
        n = min(per_row, count - row_index * per_row)
        span = (n - 1) * spacing
        start = min(max(along - span / 2, radius), length - radius - span)
        depth = radius + row_index * spacing
        for k in range(n):
            s = start + k * spacing
            base = (s, 0.0) if entry.edge in ("south", "north") else (0.0, s)
            edge_xy = {
                "south": (base[0], 0.0),
                "north": (base[0], height),
                "west": (0.0, base[1]),
                "east": (width, base[1]),
            }[entry.edge]
            out.append((edge_xy[0] + nx * depth, edge_xy[1] + ny * depth))
    return tuple(out)
