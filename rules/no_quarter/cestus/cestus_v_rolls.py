"""Cestus V dice, scenarios and campaign rules (§27.1-27.8).

Pure roll functions over the mission tables (PEF Resolution, Enemy Force, Star Army Force, The
Troll) with an injected :class:`~wargym.rules.dice.Dice`; :func:`mission_scenario` builds a
playable :class:`~wargym.rules.no_quarter.mission.scenario.Scenario` for either side (validated by
``scenario_from_dict``); the campaign-level rules of 27.5 and 27.7 (starting morale, the
aftermath after Mission 8, the end of the campaign). Re-exported by
:mod:`~wargym.rules.no_quarter.cestus.cestus_v`.

>>> from wargym.rules.dice import ScriptedDice
>>> from wargym.rules.no_quarter.cestus.cestus_v_data import campaign_definition
>>> m1 = campaign_definition().mission(1)
>>> roll_force_class(m1.enemy_force, ScriptedDice([6, 4, 5])).mech_class
2
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from wargym.rules.dice import Dice, TallyDice
from wargym.rules.errors import RulesError, StateError, short_repr
from wargym.rules.no_quarter.battlefield.sections import section_rect
from wargym.rules.no_quarter.cestus.cestus_v_data import (
    CestusMission,
    ForceTable,
    NpObjectiveRule,
    PefPlacementKind,
    TrollPlacement,
    campaign_definition,
)
from wargym.rules.no_quarter.forces.data import Formation, NoQuarterRules, load_rules
from wargym.rules.no_quarter.forces.pilots import roll_race, roll_rep
from wargym.rules.no_quarter.forces.vocab import Faction
from wargym.rules.no_quarter.mission.missions import AttackObjective, MissionType
from wargym.rules.no_quarter.mission.scenario import Scenario, scenario_from_dict
from wargym.rules.no_quarter.non_player.enemy import NpGroupState, NpObjective, NpPosture
from wargym.rules.no_quarter.non_player.pef_tables import ClassRoll, EnemyMech, NpEnemyForce
from wargym.rules.no_quarter.sight_movement.geometry import Point, heading_to

SIDES = ("gaea_prime", "hishen")
TERRAIN_CHOICES = ("map", "generated")
"""Option ``terrain`` of a mission's set-up (§27.4): the mission map, or generated (ruling)."""
DEFAULT_CLASSES = (3, 4, 3, 2, 5, 4)
"""Class cycle of the default force when no Company is given (a play aid, not a rule)."""
BLOCK = 3
"""One Class roll per block of up to 3 mechs (decision 17)."""


# -- PEF Resolution - Mission N (§27.2) -------------------------------------------------------
def pef_contact_deltas(mission: CestusMission) -> Mapping[int, int]:
    """The mission's contact table for ``pef.resolve_pef(contact_deltas=...)`` (§27.2)."""
    return mission.pef_resolution.deltas


def contact_enemies(mission: CestusMission, face: int, triggering: int) -> int:
    """Enemy mechs of a Contact!: triggering force + the face's delta, at least 1 (§27.2)."""
    if not 1 <= face <= 6:
        raise RulesError(f"a d6 face must be 1..6, got {face!r}")
    table = mission.pef_resolution
    return max(table.minimum_enemies, triggering + table.deltas[face])


# -- Enemy Force / Star Army Force - Mission N (§27.2, §27.6) ---------------------------------
@dataclass(frozen=True, slots=True)
class ForceClassRoll:
    """One 2d6 roll on a force table: dice, total, the split d6 if any, the Class (§27.6)."""

    faces: tuple[int, int]
    total: int
    split_face: int | None
    mech_class: int


def force_class_for(table: ForceTable, total: int, split_face: int | None = None) -> int:
    """Read a 2d6 total (and the split 1d6 where the row has one) on a force table (§27.6)."""
    if total not in table.rows:
        raise RulesError(f"{table.kind}: a 2d6 total must be 2..12, got {total!r}")
    row = table.rows[total]
    if not row.split:
        return row.bands[0][2]
    if split_face is None:
        raise RulesError(f"{table.kind}: row {total} needs the split 1d6")
    for lo, hi, mech_class in row.bands:
        if lo <= split_face <= hi:
            return mech_class
    raise RulesError(f"a d6 face must be 1..6, got {split_face!r}")


def roll_force_class(table: ForceTable, dice: Dice) -> ForceClassRoll:
    """Roll 2d6 (summed) and, on a split row, 1d6 more (§27.6, §5.3)."""
    a, b = dice.roll(2)
    total = a + b
    split = dice.roll(1)[0] if table.rows[total].split else None
    return ForceClassRoll((a, b), total, split, force_class_for(table, total, split))


def force_table(mission: CestusMission, role: Literal["np", "player"]) -> ForceTable:
    """NP contacts/reinforcements: Enemy Force; player's reinforcements: Star Army Force.

    Ruling 27.1: the tables keep their roles whichever side the player takes (label swap).
    """
    return mission.enemy_force if role == "np" else mission.star_army_force


def cestus_force(
    count: int,
    faction: Faction,
    dice: Dice,
    table: ForceTable,
    *,
    rules: NoQuarterRules | None = None,
) -> NpEnemyForce:
    """``count`` mechs of ``faction``: a Class roll per block of up to 3, then race and Rep.

    Replaces ``pef.np_enemy_mechs`` in Cestus V (27.6: no CM or mission modifiers). Dice
    order per block: 2d6 (and the split d6), then per mech its race die (Free Company only)
    and its Rep die (9.4.2). ``ClassRoll.face``/``score`` hold the 2d6 total.
    """
    rules = rules or load_rules()
    designs = rules.mechs_of(faction)
    rolls: list[ClassRoll] = []
    mechs: list[EnemyMech] = []
    left = count
    while left > 0:
        size = min(BLOCK, left)
        left -= size
        roll = roll_force_class(table, dice)
        faces = roll.faces + (() if roll.split_face is None else (roll.split_face,))
        block = len(rolls)
        rolls.append(ClassRoll(roll.total, 0, roll.total, roll.mech_class, size, faces))
        design = min(designs, key=lambda d: (abs(d.mech_class - roll.mech_class), d.mech_class))
        tally = TallyDice(dice, [])
        for _ in range(size):
            race = roll_race(rules, faction, tally)
            rep = roll_rep(rules, faction, race, tally)
            mechs.append(EnemyMech(design.id, design.mech_class, race, rep, block, tally.take()))
    return NpEnemyForce(tuple(rolls), tuple(mechs))


# -- The Troll (§27.8, Mission 2, 2.0.6) -------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TrollResult:
    """A Troll test: the face and where (if anywhere) the Troll shows up."""

    face: int
    placement: TrollPlacement


def roll_troll(mission: CestusMission, dice: Dice) -> TrollResult:
    """Roll 1d6 on The Troll table when a player mech first has LOS to the bridge (2.0.6)."""
    troll = mission.special.troll
    if troll is None:
        raise RulesError(f"mission {mission.number} has no Troll")
    (face,) = dice.roll(1)
    return TrollResult(face, troll.rows[face])


def troll_position(mission: CestusMission, placement: TrollPlacement) -> tuple[Point, float]:
    """Where the Troll stands and its heading (2.0.6 ruling).

    On the bridge: its centre, facing south. On the hill: the crest point nearest the bridge,
    ``beside_crest_in`` toward the bridge side, facing the bridge centre.
    """
    troll = mission.special.troll
    if troll is None or placement is TrollPlacement.NONE:
        raise RulesError("no Troll to place")
    bx0, by0, bx1, by1 = mission.feature(troll.bridge).rect
    centre = ((bx0 + bx1) / 2.0, (by0 + by1) / 2.0)
    if placement is TrollPlacement.ON_BRIDGE:
        return centre, 270.0
    hill = mission.feature(troll.hill).features[0]
    assert hill.crest is not None
    (ax, ay), (cx, cy) = hill.crest
    dx, dy = cx - ax, cy - ay
    length2 = dx * dx + dy * dy
    t = ((centre[0] - ax) * dx + (centre[1] - ay) * dy) / length2 if length2 else 0.0
    t = min(1.0, max(0.0, t))
    px, py = ax + t * dx, ay + t * dy
    side = -1.0 if centre[1] < py else 1.0
    pos = (px, py + side * troll.beside_crest_in) if dx else (px + side * troll.beside_crest_in, py)
    return pos, heading_to(pos, centre)


def troll_force(
    mission: CestusMission, faction: Faction, dice: Dice, *, rules: NoQuarterRules | None = None
) -> NpEnemyForce:
    """The Troll: one mech of its Class for the NP ``faction``, Rep rolled (2.0.6 ruling)."""
    troll = mission.special.troll
    if troll is None:
        raise RulesError(f"mission {mission.number} has no Troll")
    rules = rules or load_rules()
    design = min(rules.mechs_of(faction), key=lambda d: abs(d.mech_class - troll.mech_class))
    tally = TallyDice(dice, [])
    race = roll_race(rules, faction, tally)
    rep = roll_rep(rules, faction, race, tally)
    mech = EnemyMech(design.id, design.mech_class, race, rep, 0, tally.take())
    return NpEnemyForce((ClassRoll(0, 0, 0, troll.mech_class, 1),), (mech,))


# -- PEF placement and the NP's posture (27.8 N.0.4, decisions 27, 37) -------------------------
def pef_entry_points(mission: CestusMission, dice: Dice) -> tuple[tuple[int, int, Point], ...]:
    """Opening PEFs as (face, section, point); Missions 6/7 roll a section per PEF (27.8).

    ENTER_RANDOM: 1d6 per PEF picks 7, 8 or 9; the PEF stands at the middle of that section's
    south-edge segment (ruling). FIXED_SECTIONS (Mission 8): no dice, one per section at its
    centre (face 0; the engine then hides it inside the section, 20.0 step 2). STANDARD: ().
    """
    placement = mission.pef_placement
    kind = PefPlacementKind(placement.kind)
    if kind is PefPlacementKind.STANDARD:
        return ()
    if kind is PefPlacementKind.FIXED_SECTIONS:
        return tuple((0, n, section_rect(n).centre) for n in placement.sections)
    out = []
    for _ in range(placement.count):
        (face,) = dice.roll(1)
        section = next(s for s, (lo, hi) in placement.faces.items() if lo <= face <= hi)
        s = section_rect(section)
        out.append((face, section, ((s.x0 + s.x1) / 2.0, 0.0)))
    return tuple(out)


def np_group_default(mission: CestusMission, rolled: AttackObjective | None = None) -> NpGroupState:
    """The NP groups' default state: posture, objective and edges (decisions 27, 37).

    ``rolled``: Mission 6's objective rolled on 22.3.1 'contests' (required there).
    """
    posture = NpPosture(mission.np_posture)
    objective = NpObjective.DESTROY
    rule = mission.np_objective
    if rule is NpObjectiveRule.ROLL_CONTESTS:
        if rolled is None:
            raise RulesError(f"mission {mission.number}: roll the NP objective on 22.3.1 first")
        objective = NpObjective(rolled.value)
    elif rule in (NpObjectiveRule.BREAK_THROUGH, NpObjectiveRule.EXIT_SECTION_7):
        objective = NpObjective.BREAK_THROUGH
    sections: tuple[int, ...] = ()
    if rule is NpObjectiveRule.EXIT_SECTION_7:  # Mission 8: out through section 7 (8.0.1)
        sections = tuple(mission.objective.forbid_enemy_exit_sections)
    return NpGroupState(
        posture=posture,
        objective=objective,
        own_edge=mission.np_home_edge,
        exit_edge=mission.home_edge,
        exit_sections=sections,
    )


# -- scenarios (§27.1, §27.3) ------------------------------------------------------------------
def side_factions(side: str, faction: Faction | None = None) -> tuple[Faction, Faction]:
    """(player, enemy) factions: Gaea Prime (Star Army or ISS) vs the Hishen (§27.1 ruling)."""
    if side not in SIDES:
        raise RulesError(f"side must be one of {SIDES}, got {side!r}")
    gaea = campaign_definition().sides["gaea_prime"]
    chosen = faction or gaea[0]
    if chosen not in gaea:
        raise RulesError(
            f"{chosen.value} cannot play Gaea Prime; allowed: {[f.value for f in gaea]}"
        )
    hishen = campaign_definition().sides["hishen"][0]
    return (chosen, hishen) if side == "gaea_prime" else (hishen, chosen)


def starting_morale(faction: Faction) -> int:
    """Starting Campaign Morale: Hishen 4, Star Army 4, ISS 5 (§27.5)."""
    table = campaign_definition().starting_morale
    if faction not in table:
        raise RulesError(f"{faction.value} has no Cestus V starting morale")
    return table[faction]


def force_size(mission: CestusMission, faction: Faction) -> int:
    """Mechs in the mission's default formation for ``faction`` (§27.8 N.0.2, §11.0)."""
    return load_rules().formation_size(faction, cast(Formation, mission.default_formation))


def default_mechs(mission: CestusMission, faction: Faction) -> tuple[str, ...]:
    """A default force of the mission's own size, Classes cycled.

    N.0.2: Missions 3-10 take the whole Company (§27.3), not the generic §22 limit.
    """
    size = force_size(mission, faction)
    designs = load_rules().mechs_of(faction)
    ids = []
    for i in range(size):
        want = DEFAULT_CLASSES[i % len(DEFAULT_CLASSES)]
        ids.append(min(designs, key=lambda d: (abs(d.mech_class - want), d.mech_class)).id)
    return tuple(ids)


def mission_scenario(
    mission: CestusMission,
    side: str = "gaea_prime",
    *,
    faction: Faction | None = None,
    mechs: Sequence[str] | None = None,
    reps: Sequence[int] | None = None,
    stars: int = 1,
    player_morale: int | None = None,
    enemy_morale: int | None = None,
    turn_limit: int | None = None,
    options: Mapping[str, Any] | None = None,
    terrain: str = "map",
) -> Scenario:
    """The mission as a scenario played as ``side`` (§27.1 ruling: labels swap, roles stay).

    ``terrain``: ``map`` plays the mission's proposed layout (§27.4, the default);
    ``generated`` rolls the terrain at set-up on the campaign's 19.2 column and forces the
    features the mission names into it (27.4 ruling, ``cestus_play.with_named_features``).

    ``faction``: the Gaea Prime faction (Star Army or ISS); ``mechs``/``reps``: the force the
    player picked from the Company (default :func:`default_mechs`, Reps rolled); morale
    defaults to the starting Campaign Morale (27.5). Both sides contest the planet (27.5).
    """
    player, enemy = side_factions(side, faction)
    chosen = tuple(mechs) if mechs is not None else default_mechs(mission, player)
    data: dict[str, Any] = {
        "name": f"cestus_v_{mission.stem}_{side}",
        "description": f"Cestus V, mission {mission.number}: {mission.name} ({side})",
        "mission": mission.kind.value,
        "player": {
            "faction": player.value,
            "mechs": list(chosen),
            "stars": min(stars, len(chosen)),
            "reps": "rolled" if reps is None else list(reps),
            "campaign_morale": player_morale or starting_morale(player),
        },
        "enemy": {
            "faction": enemy.value,
            "campaign_morale": enemy_morale or starting_morale(enemy),
        },
        "np_status": "contests",
        "turn_limit": turn_limit,
        "force_limit": force_size(mission, player),
        "conditions": {
            "night": "rolled",
            "weather": "rolled",
            "night_on": list(mission.night_on),
            "inclement_on": list(mission.inclement_on),
        },
        "table": {"width": 36.0, "height": 36.0},
        "terrain": {"features": [f.to_dict() for f in mission.features()]},
        "options": dict(options or {}),
    }
    if terrain not in TERRAIN_CHOICES:
        raise StateError(f"terrain: {short_repr(terrain)} is not one of {list(TERRAIN_CHOICES)}")
    if terrain == "generated":
        data["terrain"] = "generated"
        overall = {"overall": campaign_definition().generated_overall}
        data["options"]["terrain"] = {**overall, **dict(data["options"].get("terrain", {}))}
    if mission.kind is MissionType.ATTACK:
        assert mission.generic_objective is not None
        data["attack_objective"] = mission.generic_objective.value
    if mission.kind is MissionType.DEFEND:
        fixed = mission.np_objective in (
            NpObjectiveRule.BREAK_THROUGH,
            NpObjectiveRule.EXIT_SECTION_7,
        )
        data["np_objective"] = "break_through" if fixed else "rolled"
    return scenario_from_dict(data, f"{mission.source} ({side})")


# -- the campaign (§27.3, §27.5, §27.7) --------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AftermathSteps:
    """Which After the Battle steps (23.9.1-23.9.6) follow a mission (27.7, 8.0.9)."""

    recovery: bool
    rep_increase: bool
    rep_decrease: bool
    replacement_pilots: bool
    repairs: bool
    replacement_mechs: bool


def aftermath_steps(mission_number: int) -> AftermathSteps:
    """Steps allowed after ``mission_number``: all, except after Mission 8 (8.0.9)."""
    campaign = campaign_definition()
    campaign.mission(mission_number)
    steps = campaign.aftermath_after.get(mission_number, campaign.aftermath_default)
    return AftermathSteps(**{name: name in steps for name in AftermathSteps.__dataclass_fields__})


@dataclass(frozen=True, slots=True)
class CampaignEnd:
    """How the campaign ended for the player (§27.5)."""

    result: Literal["win", "loss", "draw"]
    reason: str


def campaign_end(
    *, player_cm: int, enemy_cm: int, missions_played: int, company_mechs: int
) -> CampaignEnd | None:
    """The end of Cestus V after a mission, or None to play on (§27.5 and its ruling)."""
    if enemy_cm <= 0:
        return CampaignEnd("win", "the enemy's Campaign Morale reached 0")
    if player_cm <= 0:
        return CampaignEnd("loss", "the player's Campaign Morale reached 0")
    if company_mechs <= 0:
        return CampaignEnd("loss", "the player's Company was destroyed")
    if missions_played >= campaign_definition().last_mission:
        if player_cm == enemy_cm:
            return CampaignEnd("draw", "all missions played, equal Campaign Morale")
        won = player_cm > enemy_cm
        return CampaignEnd("win" if won else "loss", "all missions played, higher CM wins")
    return None


def roll_starting_company(dice: Dice, teams: int | None = None) -> tuple[int, ...]:
    """Class of each starting Team, rolled on Star Army Force - Mission 1 (27.3 ruling)."""
    return tuple(r.mech_class for r in starting_company_rolls(dice, teams))


def starting_company_rolls(dice: Dice, teams: int | None = None) -> tuple[ForceClassRoll, ...]:
    """One roll per starting Team on the campaign's Company table (27.3 ruling)."""
    table = company_table()
    return tuple(
        roll_force_class(table, dice) for _ in range(teams or campaign_definition().company_teams)
    )


def company_table() -> ForceTable:
    """The table rolled per Team for the starting Company (27.3 ruling: Star Army Force - M1)."""
    number, kind = campaign_definition().company_class_table
    return force_table(
        campaign_definition().mission(number), "player" if kind == "star_army_force" else "np"
    )


def company_design(faction: Faction, mech_class: int) -> str:
    """The faction list's (10.8) design of ``mech_class``, else the nearest Class (27.2)."""
    designs = load_rules().mechs_of(faction)
    return min(designs, key=lambda d: (abs(d.mech_class - mech_class), d.mech_class)).id


__all__ = [
    "AftermathSteps",
    "CampaignEnd",
    "ForceClassRoll",
    "TrollResult",
    "aftermath_steps",
    "campaign_end",
    "cestus_force",
    "contact_enemies",
    "default_mechs",
    "force_class_for",
    "force_size",
    "force_table",
    "mission_scenario",
    "np_group_default",
    "pef_contact_deltas",
    "pef_entry_points",
    "roll_force_class",
    "roll_starting_company",
    "starting_company_rolls",
    "company_table",
    "company_design",
    "roll_troll",
    "side_factions",
    "starting_morale",
    "troll_force",
    "troll_position",
]
