"""PEF and NP Enemy Mechs tables: strict loaders and the §20.4 force generator (§20, §20.4).

pef.yaml (§20.0-§20.3 numbers) and np_enemy_mechs.yaml (§20.4 Class table and modifiers) are
parsed here into frozen records; :func:`np_enemy_mechs` turns a contact or reinforcement size
into pre-generated designs and rolled Reps. Split from :mod:`~wargym.rules.no_quarter.pef` to
keep both modules small; ``pef`` re-exports the public names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal

from wargym.rules.dice import Dice
from wargym.rules.no_quarter.data import NoQuarterRules, load_rules
from wargym.rules.no_quarter.pilots import roll_race, roll_rep
from wargym.rules.no_quarter.vocab import Faction, Race
from wargym.rules.tables import Node, load_config

CONFIG = "rules/no_quarter/pef.yaml"
CLASS_CONFIG = "rules/no_quarter/np_enemy_mechs.yaml"
MissionKind = Literal["patrol", "attack", "defend"]


@dataclass(frozen=True, slots=True)
class PefConfig:
    """The numbers of pef.yaml (§20.0-§20.3)."""

    pefs: int
    grid: float
    rep: int
    trigger_range: float
    beyond_wall: float
    move_dice: int
    cover_snap: float
    move_in: Mapping[int, float]
    resolution_dice: int
    boosted_dice: int
    resolution: Mapping[int, str]
    minimum_enemies: int
    contact_delta: Mapping[int, int]
    contact_spread: float = 4.0
    """Ruling 20.3: a contact's other mechs stand within this many inches of its leader."""
    search_step: float = 0.5
    """The grid on which a taken arrival spot is shifted to the nearest legal one."""


@dataclass(frozen=True, slots=True)
class ClassRoll:
    """One NP Enemy Mechs roll (§20.4): face, modifier, clamped score, Class, block size."""

    face: int
    modifier: int
    score: int
    mech_class: int
    mechs: int


@dataclass(frozen=True, slots=True)
class EnemyMech:
    """One generated NP mech: pre-generated design, Class, race and Rep (§20.3, §20.4)."""

    design: str
    mech_class: int
    race: Race
    rep: int


@dataclass(frozen=True, slots=True)
class NpEnemyForce:
    """What a contact or reinforcement turns out to be (§20.4)."""

    rolls: tuple[ClassRoll, ...]
    mechs: tuple[EnemyMech, ...]

    @property
    def leader(self) -> int:
        """Index of the group leader: the highest Rep, first on ties (§20.3)."""
        return max(range(len(self.mechs)), key=lambda i: (self.mechs[i].rep, -i))


# -- configuration ---------------------------------------------------------------------------
def parse_pef_config(node: Node) -> PefConfig:
    """Strictly parse pef.yaml; errors name file, key and row (§20)."""
    node.keys_exactly(
        {"placement", "rep", "building", "movement", "resolution", "contact_size", "arrival"}
    )
    arrival = node["arrival"]
    arrival.keys_exactly({"contact_spread_in", "search_step_in"})
    place, build, move = node["placement"], node["building"], node["movement"]
    place.keys_exactly({"pefs", "section_die", "grid_in"})
    place["section_die"].as_str(["1d6"])
    build.keys_exactly({"trigger_range_in", "beyond_wall_in"})
    move.keys_exactly({"dice", "cover_snap_in", "rows"})
    res, size = node["resolution"], node["contact_size"]
    res.keys_exactly({"dice", "boosted_dice", "rows"})
    size.keys_exactly({"minimum_enemies", "rows"})
    move_in: dict[int, float] = {}
    for key, row in move["rows"].items():
        row.keys_exactly({"move_in"})
        move_in[_pass_key(row, key)] = row["move_in"].as_number()
    outcomes = ("contact", "something_out_there", "false_alarm")
    resolution = {_pass_key(r, k): r.as_str(outcomes) for k, r in res["rows"].items()}
    deltas = {_face_key(r, k): r.as_int(-6, 6) for k, r in size["rows"].items()}
    for name, table, want in (
        ("movement.rows", move_in, {0, 1, 2}),
        ("resolution.rows", resolution, {0, 1, 2}),
        ("contact_size.rows", deltas, set(range(1, 7))),
    ):
        if set(table) != want:
            raise node.fail(f"{name}: expected rows {sorted(want)}, got {sorted(table)}")
    return PefConfig(
        pefs=place["pefs"].as_int(1, 12),
        grid=place["grid_in"].as_number(),
        rep=node["rep"].as_int(1, 6),
        trigger_range=build["trigger_range_in"].as_number(),
        beyond_wall=build["beyond_wall_in"].as_number(),
        move_dice=move["dice"].as_int(1, 3),
        cover_snap=move["cover_snap_in"].as_number(),
        move_in=move_in,
        resolution_dice=res["dice"].as_int(2, 2),
        boosted_dice=res["boosted_dice"].as_int(3, 3),
        resolution=resolution,
        minimum_enemies=size["minimum_enemies"].as_int(0, 6),
        contact_delta=deltas,
        contact_spread=arrival["contact_spread_in"].as_number(),
        search_step=_positive(arrival["search_step_in"]),
    )


def _positive(node: Node) -> float:
    value = node.as_number()
    if not value > 0:
        raise node.fail(f"must be a positive number of inches, got {value!r}")
    return value


def _pass_key(node: Node, key: object) -> int:
    if not isinstance(key, int) or key not in (0, 1, 2):
        raise node.fail(f"row key {key!r} must be 0, 1 or 2 (dice passed)")
    return key


def _face_key(node: Node, key: object) -> int:
    if not isinstance(key, int) or not 1 <= key <= 6:
        raise node.fail(f"row key {key!r} must be a d6 face 1-6")
    return key


@cache
def pef_config() -> PefConfig:
    """pef.yaml, parsed once (§20)."""
    return parse_pef_config(load_config(CONFIG))


# -- NP Enemy Mechs (§20.4) ------------------------------------------------------------------
COLUMNS = ("free_company", "hishen", "pdf", "star_army", "zhuh_zhuh")


@dataclass(frozen=True, slots=True)
class ClassTable:
    """np_enemy_mechs.yaml: Class by modified score and faction column, and modifiers (§20.4)."""

    low: int
    high: int
    per_morale: int
    mission: Mapping[str, int]
    no_campaign_morale: int
    block_size: int
    rows: Mapping[int, Mapping[str, int]]


def parse_class_table(node: Node) -> ClassTable:
    """Strictly parse np_enemy_mechs.yaml (§20.4)."""
    node.keys_exactly(
        {"index_range", "modifiers", "no_campaign_enemy_campaign_morale", "block_size", "rows"}
    )
    low, high = node["index_range"].as_ints(1, 20)
    mods = node["modifiers"]
    names = {f"enemy_on_{m}_mission" for m in ("attack", "patrol", "defend")}
    mods.keys_exactly({"per_point_of_enemy_campaign_morale"} | names)
    rows: dict[int, dict[str, int]] = {}
    for key, row in node["rows"].items():
        if not isinstance(key, int) or not low <= key <= high:
            raise row.fail(f"row key {key!r} outside {low}-{high}")
        row.keys_exactly(set(COLUMNS))
        rows[key] = {c: row[c].as_int(1, 5) for c in COLUMNS}
    if set(rows) != set(range(low, high + 1)):
        raise node["rows"].fail(f"rows must cover {low}-{high} exactly")
    return ClassTable(
        low,
        high,
        mods["per_point_of_enemy_campaign_morale"].as_int(0, 3),
        {m: mods[f"enemy_on_{m}_mission"].as_int(-3, 3) for m in ("attack", "patrol", "defend")},
        node["no_campaign_enemy_campaign_morale"].as_int(0, 10),
        node["block_size"].as_int(1, 6),
        rows,
    )


@cache
def class_table() -> ClassTable:
    """np_enemy_mechs.yaml, parsed once (§20.4)."""
    return parse_class_table(load_config(CLASS_CONFIG))


def np_enemy_class(
    faction: Faction, face: int, *, enemy_cm: int | None = None, mission: MissionKind = "defend"
) -> ClassRoll:
    """Read one 1d6 face on the NP Enemy Mechs table (§20.4; clamp ruling); ``mechs`` = 0."""
    table = class_table()
    morale = table.no_campaign_morale if enemy_cm is None else enemy_cm
    modifier = morale * table.per_morale + table.mission[mission]
    score = min(table.high, max(table.low, face + modifier))
    return ClassRoll(face, modifier, score, table.rows[score][faction.table_row.value], 0)


def np_enemy_mechs(
    count: int,
    faction: Faction,
    dice: Dice,
    *,
    enemy_cm: int | None = None,
    mission: MissionKind = "defend",
    rules: NoQuarterRules | None = None,
) -> NpEnemyForce:
    """Generate ``count`` NP mechs: Class per block of up to 3, then race and Rep (§20.3-§20.4).

    ``mission`` is the enemy's own mission type; ``enemy_cm`` None means no campaign (CM 3).
    Dice order per block: the Class die, then per mech its race die (Free Company only) and
    its Rep die (table 9.4.2). The design is the faction's pre-generated mech of that Class.
    """
    rules = rules or load_rules()
    designs = rules.mechs_of(faction)
    rolls, mechs = [], []
    left = count
    while left > 0:
        size = min(class_table().block_size, left)
        left -= size
        (face,) = dice.roll(1)
        roll = np_enemy_class(faction, face, enemy_cm=enemy_cm, mission=mission)
        rolls.append(ClassRoll(roll.face, roll.modifier, roll.score, roll.mech_class, size))
        design = min(designs, key=lambda d: (abs(d.mech_class - roll.mech_class), d.mech_class))
        for _ in range(size):
            race = roll_race(rules, faction, dice)
            rep = roll_rep(rules, faction, race, dice)
            mechs.append(EnemyMech(design.id, design.mech_class, race, rep))
    return NpEnemyForce(tuple(rolls), tuple(mechs))
