"""Task arithmetic of the variant: batched to-hit, penetration, armour, damage points (§2.1-§2.9).

Pure functions of numbers; the fire resolver in :mod:`.fire` rolls the dice and records events.

>>> batteries_succeeding(10, 4), batteries_succeeding(3, 4), batteries_succeeding(2, 4)
(4, 2, 1)
>>> ratio_dm(4, 3), ratio_dm(12, 2), ratio_dm(1, 9)
(0, 3, -3)
"""

from __future__ import annotations

from collections.abc import Mapping

from wargym.rules.starship_combat.damage_record import ceil_div
from wargym.rules.starship_combat.records import Warhead, band_lookup
from wargym.rules.starship_combat.ruleset import RuleSet


def batch_tenths(
    modified: int, target: int, natural: int, rules: RuleSet, literal: bool = False
) -> int:
    """Tenths of the batteries that succeed: margin x 10 %, natural 12 = 10 % (§2.1, TR-R7).

    ``literal`` reads the source formula literally: a bare success (margin 0) gives 0 %.
    """
    margin = modified - target
    if margin >= 1:
        return min(margin * rules.tenths_per_margin, rules.max_tenths)
    if margin == 0 and not literal:
        return rules.bare_success_tenths
    if natural == 12:
        return rules.natural_12_tenths
    return 0


def batteries_succeeding(n: int, tenths: int) -> int:
    """``ceil(n x tenths / 10)``: the percentage applied to the batteries, rounded up (§2.1)."""
    return ceil_div(n * tenths, 10)


def ratio_key(offence: int, defence: int) -> str:
    """The row of a ratio table: ``"k:1"`` or ``"1:k"``, k floored and clamped to 4 (TR-R8)."""
    if offence >= defence:
        return f"{min(offence // defence, 4)}:1"
    return f"1:{min(defence // offence, 4)}" if offence > 0 else "1:4"


def ratio_dm(offence: int, defence: int, table: Mapping[str, int] | None = None) -> int:
    """Offence:defence battery-ratio DM, clamped at 4:1 and 1:4 (§2.2, TR-R8).

    ``table`` is the YAML ratio table (``penetration_ratio_dm``); without it the digest's
    values (+3 at 4:1 ... -3 at 1:4).
    """
    key = ratio_key(offence, defence)
    if table is not None:
        return table[key]
    k = int(key.split(":")[0 if offence >= defence else 1])
    return (k - 1) if offence >= defence else -(k - 1)


def range_dm(hexes: int, rules: RuleSet) -> int | None:
    """Range DM of the to-hit task, or None beyond the maximum range (TR-R6)."""
    if hexes > rules.max_range:
        return None
    return band_lookup(rules.range_dm, hexes)


def damage_points(factor: int, warhead: Warhead, exceptional: bool, rules: RuleSet) -> int:
    """DP = UCP factor x multiplier (x4 nuclear, x5 antimatter), +1 if exceptional (§2.3, §2.9)."""
    bonus = rules.exceptional_extra_dp if exceptional else 0
    return factor * rules.damage_multiplier[warhead] + bonus


def globe_absorbed(dp: int, flicker_pct: int) -> int:
    """DP a black globe absorbs: its flicker percentage of the hit, floored (§2.8, TR-R10)."""
    return dp * flicker_pct // 100


def globe_armor_bonus(flicker_pct: int, rules: RuleSet) -> int:
    """Armour levels added by a black globe: 6 per 10 % flicker (§2.8)."""
    return rules.globe_armor_per_10pct * (flicker_pct // 10)


def radiation_points(dp: int, rules: RuleSet) -> int:
    """Radiation points: 25 % of the hit's DP, floored (§2.5, TR-R10)."""
    return dp * rules.radiation_share_pct // 100


def weapon_dm(ucp: int, rules: RuleSet) -> int:
    """Armour-penetration weapon DM: floor(UCP / 3) (§2.6)."""
    return ucp // rules.weapon_dm_divisor


def armor_dm(armor: int, rules: RuleSet) -> int:
    """Armour DM: floor((armor - 40) / 5), or -floor((40 - armor) / 5) below 40 (§2.6)."""
    pivot, step = rules.armor_pivot, rules.armor_dm_step
    return (armor - pivot) // step if armor >= pivot else -((pivot - armor) // step)


def armor_need(ucp: int, armor: int, rules: RuleSet) -> int:
    """Minimum natural 2D that penetrates: Routine - weapon DM + armour DM (§2.6, TR-R1)."""
    return rules.target(rules.armor_pen_difficulty) - weapon_dm(ucp, rules) + armor_dm(armor, rules)


def armor_penetrates(total: int, need: int) -> bool:
    """A natural 12 always penetrates; otherwise the 2D total must reach ``need`` (§2.6)."""
    return total == 12 or total >= need


def spinal_rolls(ucp: int, armor: int, meson: bool, rules: RuleSet) -> int:
    """Damage-table rolls of a spinal mount (§2.7): +1 per UCP above 9, -1 per 3 armour above 40."""
    extra = max(0, ucp - rules.spinal_extra_above)
    lost = 0 if meson else max(0, armor - rules.spinal_armor_pivot) // rules.spinal_armor_per_roll
    return max(1, 1 + extra - lost)


def ucp_band_dm(ucp: int, rules: RuleSet) -> int:
    """Damage-table DM by weapon UCP: 1-4 -1, 5-9 0, A+ +1 (§2.7)."""
    if ucp <= 4:
        return rules.dm_ucp_1_4
    return rules.dm_ucp_5_9 if ucp <= 9 else rules.dm_ucp_10_plus


def damage_table_dm(ucp: int, nuclear_or_spinal: bool, black_globe: bool, rules: RuleSet) -> int:
    """All DMs of the damage-table roll (§2.7)."""
    dm = ucp_band_dm(ucp, rules)
    if nuclear_or_spinal:
        dm += rules.dm_nuclear_or_spinal
    if black_globe:
        dm += rules.dm_black_globe
    return dm


def clamp_roll(modified: int, rules: RuleSet) -> int:
    """Clamp a modified damage roll to the table's 1..13 (TR-R10)."""
    low, high = rules.roll_clamp
    return max(low, min(high, modified))


def box_hits(ucp: int, rules: RuleSet) -> int:
    """Boxes a hit removes by UCP band: 1-4 one, 5-9 two, A+ three (§2.4)."""
    return band_lookup(rules.box_bands, max(1, ucp))


def hull_share(dp: int, rules: RuleSet) -> int:
    """Hull points of an interior hit: one third of its DP, fractions dropped (§2.4)."""
    return dp // rules.hull_share_divisor


def ucp_from_ehex(code: str, rules: RuleSet) -> int:
    """Value of one eHex digit (§1)."""
    return int(code) if code.isdigit() else rules.ehex[code]
