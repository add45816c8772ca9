"""*5150: No Quarter* vocabulary: the rulebook's nouns as enums (sections 5-18).

Enum values are the stable keys of ``no-quarter-core.md`` §0 and of the YAML tables, so a
value read from a config file converts with ``Faction("hishen")``.
"""

from __future__ import annotations

import enum


class Side(enum.Enum):
    """The two sides of a battle; each rolls its own activation die (§14.0)."""

    BLUE = "blue"
    """The first side (in solo play: the player's side)."""
    RED = "red"
    """The second side (in solo play: the enemy)."""

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.RED if self is Side.BLUE else Side.BLUE


class Faction(enum.Enum):
    """Playable factions (§9.3)."""

    FREE_COMPANY = "free_company"
    """Mercenaries (§10.8.1)."""
    HISHEN = "hishen"
    """The Hishen (§10.8.2)."""
    ISS = "iss"
    """Interstellar Security Service, a Star Army branch; uses Star Army rows (§9.3)."""
    PDF = "pdf"
    """Planetary Defence Force, a Star Army branch (§10.8.3)."""
    STAR_ARMY = "star_army"
    """The Gaea Prime Star Army (§10.8.4)."""
    ZHUH_ZHUH = "zhuh_zhuh"
    """The Zhuh-Zhuh (§10.8.5)."""

    @property
    def table_row(self) -> Faction:
        """The row read on tables without an ISS row: ISS reads the Star Army row (§9.3)."""
        return Faction.STAR_ARMY if self is Faction.ISS else self


class Race(enum.Enum):
    """Pilot races and their racial attribute (§9.6.3)."""

    BASIC = "basic"
    """Humans: roll the random attribute twice and keep the better."""
    HISHEN = "hishen"
    """Slight: -1d6 in melee."""
    XEOG = "xeog"
    """Wary: +1d6 on In Sight; only in Free Companies."""
    ZHUH_ZHUH = "zhuh_zhuh"
    """Rage: +2d6 in melee."""


class Location(enum.Enum):
    """The seven armour locations of a mech (§10.2)."""

    HEAD = "head"
    ARM_L = "arm_l"
    ARM_R = "arm_r"
    CHEST = "chest"
    GUT = "gut"
    LEG_L = "leg_l"
    LEG_R = "leg_r"

    @property
    def is_arm(self) -> bool:
        """Left or right arm."""
        return self in (Location.ARM_L, Location.ARM_R)

    @property
    def is_leg(self) -> bool:
        """Left or right leg."""
        return self in (Location.LEG_L, Location.LEG_R)


class WeaponFamily(enum.Enum):
    """Families of weapons, used by the faction restrictions (§10.4, §10.8)."""

    BEAM = "beam"
    FLAMER = "flamer"
    GUN = "gun"
    MELEE = "melee"
    PPG = "ppg"
    ROCKET = "rocket"


class ItemType(enum.Enum):
    """Every weapon and miscellaneous item a mech can mount (§10.4, §10.6)."""

    BEAM_HEAVY = "beam_heavy"
    BEAM_MEDIUM = "beam_medium"
    BEAM_LIGHT = "beam_light"
    FLAMER = "flamer"
    GUN_AUTO = "gun_auto"
    GUN_MEDIUM = "gun_medium"
    GUN_HEAVY = "gun_heavy"
    MELEE_WEAPON = "melee_weapon"
    PPG = "ppg"
    ROCKET_LAUNCHER_2 = "rocket_launcher_2"
    ROCKET_LAUNCHER_3 = "rocket_launcher_3"
    JUMP_JETS = "jump_jets"
    EWS_1 = "ews_1"
    EWS_2 = "ews_2"

    @property
    def is_misc(self) -> bool:
        """Jump jets and EWS are miscellaneous items, not weapons (§10.6)."""
        return self in (ItemType.JUMP_JETS, ItemType.EWS_1, ItemType.EWS_2)

    @property
    def is_ews(self) -> bool:
        """An Electronic Warfare System (§10.6.2)."""
        return self in (ItemType.EWS_1, ItemType.EWS_2)

    @property
    def is_weapon(self) -> bool:
        """Any weapon, ranged or melee (§10.4)."""
        return not self.is_misc

    @property
    def is_ranged_weapon(self) -> bool:
        """A weapon with a range (everything but the melee weapon)."""
        return self.is_weapon and self is not ItemType.MELEE_WEAPON


class Attribute(enum.Enum):
    """Random attributes of pilots (§9.6.4)."""

    AGILE = "agile"
    BRAWLER = "brawler"
    COWARD = "coward"
    CRACK_SHOT = "crack_shot"
    DUMBASS = "dumbass"
    HARD_AS_NAILS = "hard_as_nails"
    INITIATIVE = "initiative"
    MARKSMAN = "marksman"
    NEAR_SIGHTED = "near_sighted"
    NERVES_OF_STEEL = "nerves_of_steel"
    LUCKY = "lucky"
    QUICK_REFLEXES = "quick_reflexes"
    RESILIENT = "resilient"
    SLOW = "slow"
    SLOW_TO_REACT = "slow_to_react"
    WEAKLING = "weakling"
    WUSSY = "wussy"
    CHOICE = "choice"


class Status(enum.Enum):
    """Statuses a reaction can leave a mech in, best to worst (§16.3)."""

    CARRY_ON = "carry_on"
    """In good order; acts and reacts freely (§16.3.1)."""
    DUCK_BACK = "duck_back"
    """Sought cover; may not fire until its next activation (§16.3.2)."""
    LEAVE_BATTLEFIELD = "leave_battlefield"
    """Heads for the table edge every activation and never fires (§16.3.3)."""

    @property
    def severity(self) -> int:
        """0 for Carry On, 1 for Duck Back, 2 for Leave the Battlefield (§16.2.2)."""
        return _SEVERITY[self]


_SEVERITY = {Status.CARRY_ON: 0, Status.DUCK_BACK: 1, Status.LEAVE_BATTLEFIELD: 2}


class ReactionResult(enum.Enum):
    """A cell of a reaction table (§16.2): a status, or a carry-on that orders a shot."""

    CARRY_ON = "carry_on"
    DUCK_BACK = "duck_back"
    LEAVE_BATTLEFIELD = "leave_battlefield"
    FIRE = "fire"
    """Carry On and fire at the cause (§15.2.4.3)."""
    RUSH_SHOT = "rush_shot"
    """Carry On and fire at the cause with the Rush Shot penalty (§15.2.4.4)."""

    @property
    def status(self) -> Status:
        """The status this result leaves (Fire and Rush Shot are carry-on results)."""
        if self is ReactionResult.DUCK_BACK:
            return Status.DUCK_BACK
        if self is ReactionResult.LEAVE_BATTLEFIELD:
            return Status.LEAVE_BATTLEFIELD
        return Status.CARRY_ON


class ReactionTest(enum.Enum):
    """The three reaction tests (§16.2)."""

    FIRED_ON = "fired_on"
    TAKES_DAMAGE = "takes_damage"
    MECH_DOWN = "mech_down"


class MeleeAttack(enum.Enum):
    """What a mech declares for a melee round (§18.3)."""

    PUNCH = "punch"
    KICK = "kick"


class Aspect(enum.Enum):
    """Where an attack comes from relative to the target's legs (§6.2, ruling D4)."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


class Rank(enum.Enum):
    """Leader ranks, lowest to highest (§12.0)."""

    TEAM_LEADER = "team_leader"
    SQUAD_LEADER = "squad_leader"
    PLATOON_LEADER = "platoon_leader"
    COMPANY_COMMANDER = "company_commander"

    @property
    def order(self) -> int:
        """0 for a Team Leader up to 3 for a Company Commander."""
        return list(Rank).index(self)


class Removal(enum.Enum):
    """Why a mech left play (§17.4.3, §16.3.3, ruling D22)."""

    DESTROYED = "destroyed"
    """Pilot killed with the mech (head blown off, chest exploded)."""
    INOPERABLE = "inoperable"
    """Mech inoperable, pilot bailed out unhurt."""
    LEFT_TABLE = "left_table"
    """Left the battlefield over a table edge."""
    CHEATED_DEATH = "cheated_death"
    """A Star removed alive by Cheating Death; the mech is lost (§9.2)."""


class Terrain(enum.Enum):
    """Terrain types the combat rules need (Appendix A, §19)."""

    CLEAR = "clear"
    BUILDING = "building"
    WOODS = "woods"
    HILL = "hill"
    RIVER = "river"
    DEEP_WATER = "deep_water"
    ROAD = "road"
    ROUGH = "rough"
