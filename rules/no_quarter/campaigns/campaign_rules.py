"""The campaign procedures of *No Quarter* as pure functions over Dice (§23.3-§23.9, §24).

Each procedure rolls through an injected :class:`~wargym.rules.dice.Dice` and returns a frozen
campaign event (:mod:`.campaign_events`) that records its inputs, the
dice faces and the result; the campaign loop (:mod:`.campaign_play`) writes the results into
the campaign state. Tables are data (``configs/campaigns/rules_23.yaml``). Rulings (digest
decisions 38-47) are the defaults; the alternatives are fields of :class:`CampaignRulesOptions`.

>>> from wargym.rules.dice import ScriptedDice
>>> change = change_morale(3, 4, False, ScriptedDice([2, 5, 1, 3, 4]))
>>> change.player_passes, change.enemy_passes, change.player_after, change.enemy_after
(1, 3, 2, 5)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from wargym.rules.dice import PASS_CAP, Dice, half_d6
from wargym.rules.no_quarter.battle.flow import roll_index
from wargym.rules.no_quarter.campaigns import campaign_events as cev
from wargym.rules.no_quarter.forces.vocab import Faction
from wargym.rules.no_quarter.mission.missions import MissionType
from wargym.rules.tables import load_config

CONFIG = "campaigns/rules_23.yaml"
PersonalResult = Literal["success", "failure", "neither"]


@dataclass(frozen=True, slots=True)
class CampaignTables:
    """``rules_23.yaml``: every number of the campaign tables (§23.3-§23.9)."""

    starting_morale: Mapping[Faction, int]
    carry_over: Mapping[str, int]
    always_control: frozenset[Faction]
    missions_per_month: int
    morale_dice: int
    morale_success_bonus: int
    morale_six_fails: bool
    two_more: tuple[int, int]
    one_more: tuple[int, int]
    first_mission: MissionType
    next_mission: Mapping[MissionType, Mapping[bool, MissionType]]
    recovery_dice: int
    recovery_controls_bonus: int
    recovery_success_bonus: int
    rep_minimum: int
    rep_increase_always_on: int
    rep_decrease_on: int
    replacement_pilot_dice: int
    repair_dice: int
    repair_controls_bonus: int
    replacement_mech_dice: int
    replacement_mech_six_fails: bool


@cache
def campaign_tables() -> CampaignTables:
    """Load ``configs/campaigns/rules_23.yaml`` strictly (errors name file, key and row)."""
    root = load_config(CONFIG)
    keys = {"starting_campaign_morale", "carry_over", "always_control", "missions_per_month"}
    keys |= {"morale_change", "next_mission", "recovery", "rep_change", "replacement_pilot"}
    root.keys_exactly(keys | {"repair", "replacement_mechs"})
    cm = root["starting_campaign_morale"]
    cm.keys_exactly({f.value for f in Faction})
    carry = root["carry_over"]
    carry.keys_exactly({"win", "loss", "draw"})
    morale = root["morale_change"]
    morale.keys_exactly(
        {"dice", "success_bonus_dice", "six_always_fails", "two_or_more_more"} | {"one_more"}
    )
    for row in ("two_or_more_more", "one_more"):
        morale[row].keys_exactly({"winner", "loser"})
    nxt = root["next_mission"]
    kinds = [m.value for m in MissionType]
    nxt.keys_exactly({"first", *kinds})
    table: dict[MissionType, dict[bool, MissionType]] = {}
    for kind in MissionType:
        nxt[kind.value].keys_exactly({"success", "failure"})
        table[kind] = {
            True: MissionType(nxt[kind.value]["success"].as_str(kinds)),
            False: MissionType(nxt[kind.value]["failure"].as_str(kinds)),
        }
    rec, rep, pil = root["recovery"], root["rep_change"], root["replacement_pilot"]
    rec.keys_exactly({"dice", "controls_bonus_dice", "success_bonus_dice"})
    rep.keys_exactly({"minimum", "increase_always_on", "decrease_on"})
    pil.keys_exactly({"dice"})
    fix, new = root["repair"], root["replacement_mechs"]
    fix.keys_exactly({"dice", "controls_bonus_dice"})
    new.keys_exactly({"dice", "six_always_fails"})

    def pair(row: str) -> tuple[int, int]:
        return morale[row]["winner"].as_int(-3, 3), morale[row]["loser"].as_int(-3, 3)

    return CampaignTables(
        starting_morale={f: cm[f.value].as_int(1, 12) for f in Faction},
        carry_over={k: carry[k].as_int(-3, 3) for k in ("win", "loss", "draw")},
        always_control=frozenset(
            Faction(v) for v in root["always_control"].as_strs([f.value for f in Faction])
        ),
        missions_per_month=root["missions_per_month"].as_int(1, 12),
        morale_dice=morale["dice"].as_int(1, 6),
        morale_success_bonus=morale["success_bonus_dice"].as_int(0, 6),
        morale_six_fails=morale["six_always_fails"].as_bool(),
        two_more=pair("two_or_more_more"),
        one_more=pair("one_more"),
        first_mission=MissionType(nxt["first"].as_str(kinds)),
        next_mission=table,
        recovery_dice=rec["dice"].as_int(1, 6),
        recovery_controls_bonus=rec["controls_bonus_dice"].as_int(0, 6),
        recovery_success_bonus=rec["success_bonus_dice"].as_int(0, 6),
        rep_minimum=rep["minimum"].as_int(1, 7),
        rep_increase_always_on=rep["increase_always_on"].as_int(1, 6),
        rep_decrease_on=rep["decrease_on"].as_int(1, 6),
        replacement_pilot_dice=pil["dice"].as_int(1, 6),
        repair_dice=fix["dice"].as_int(1, 6),
        repair_controls_bonus=fix["controls_bonus_dice"].as_int(0, 6),
        replacement_mech_dice=new["dice"].as_int(1, 6),
        replacement_mech_six_fails=new["six_always_fails"].as_bool(),
    )


@dataclass(frozen=True, slots=True)
class CampaignRulesOptions:
    """Readings of §23 where the digest offers alternatives; defaults are its rulings."""

    six_always_fails: Literal["printed", "all_morale_rolls"] = "printed"
    """0.1 [open]: "a 6 always fails" only where printed (23.5, 23.9.6), or also on the other
    rolls against Campaign Morale (replacement pilots 23.9.4, repairs 23.9.5)."""
    morale_pass_cap: bool = False
    """23.5 [open]: compare raw pass counts (the book's example); True caps them at 2 (5.1)."""
    rep_increase_threshold: Literal["size", "literal"] = "size"
    """23.9.2 [open]: Σ(6 - enemy Class) >= 6 - own Class ("size", decision 43) or the literal
    Σ enemy Class >= own Class."""
    bailed_out_as_left: bool = True
    """23.9.1 [open]: a pilot who bailed out is rolled for like one who left the battlefield
    (pass 0: lost). False: he only restores injury Rep and always returns."""
    replace_lost: Literal["all_unreplaced", "this_mission"] = "all_unreplaced"
    """23.9.6 (our ruling): replacements are sought for every lost, not yet replaced Mech of the
    Company, or only for those lost in the mission just played."""
    count_down_without_repairs: bool = True
    """27.7 [open]: Mechs unavailable for 1/2d6 missions keep counting down after a mission
    without repairs (Cestus V after Mission 8)."""


def passes_against(faces: Iterable[int], target: int, *, six_fails: bool, cap: int | None) -> int:
    """Dice scoring ``target`` or less, a 6 failing if ``six_fails``, capped if ``cap`` (§5.1)."""
    count = sum(1 for f in faces if f <= target and not (six_fails and f == 6))
    return count if cap is None else min(cap, count)


def starting_morale(faction: Faction, carry_over: int = 0) -> int:
    """A side's starting Campaign Morale (table 23.3) plus the last campaign's carry-over."""
    return max(1, campaign_tables().starting_morale[faction] + carry_over)


def roll_control(
    player: Faction, enemy: Faction, player_cm: int, enemy_cm: int, dice: Dice
) -> cev.ControlRolled:
    """Who controls and who contests: 1d6 + starting CM each, higher contests (§23.4).

    Ties are re-rolled; the PDF always control (the dice are still rolled, vector D39).
    """
    rerolls: list[tuple[int, int]] = []
    while True:
        a, b = dice.roll(2)
        if a + player_cm != b + enemy_cm:
            break
        rerolls.append((a, b))
    fixed = campaign_tables().always_control
    if player in fixed and enemy not in fixed:
        controls = "player"
    elif enemy in fixed and player not in fixed:
        controls = "enemy"
    else:
        controls = "player" if a + player_cm < b + enemy_cm else "enemy"
    return cev.ControlRolled(
        player, enemy, a, b, a + player_cm, b + enemy_cm, tuple(rerolls), controls
    )


def change_morale(
    player_cm: int,
    enemy_cm: int,
    player_success: bool,
    dice: Dice,
    options: CampaignRulesOptions | None = None,
) -> cev.MoraleChanged:
    """Both sides roll 2d6 (+1d6 after a success) against their CM and compare (§23.5).

    The NP side succeeds exactly when the player fails (decision 38). Player dice first.
    """
    o, t = options or CampaignRulesOptions(), campaign_tables()
    cap = PASS_CAP if o.morale_pass_cap else None
    faces_p = dice.roll(t.morale_dice + (t.morale_success_bonus if player_success else 0))
    faces_e = dice.roll(t.morale_dice + (0 if player_success else t.morale_success_bonus))
    p = passes_against(faces_p, player_cm, six_fails=t.morale_six_fails, cap=cap)
    e = passes_against(faces_e, enemy_cm, six_fails=t.morale_six_fails, cap=cap)
    dp = de = 0
    if p != e:
        winner, loser = t.two_more if abs(p - e) >= 2 else t.one_more
        dp, de = (winner, loser) if p > e else (loser, winner)
    return cev.MoraleChanged(
        faces_p, faces_e, player_cm, enemy_cm, p, e, max(0, player_cm + dp), max(0, enemy_cm + de)
    )


def campaign_end(player_cm: int, enemy_cm: int, company_destroyed: bool) -> str | None:
    """``"win"``, ``"loss"``, ``"draw"`` once the campaign is decided, else None (§23.3.1).

    Both at 0 is a draw (ruling); a destroyed Company loses (§27.5).
    """
    if player_cm <= 0 and enemy_cm <= 0:
        return "draw"
    if player_cm <= 0 or company_destroyed:
        return "loss"
    return "win" if enemy_cm <= 0 else None


def compare_final(player_cm: int, enemy_cm: int) -> str:
    """After the last mission of a fixed campaign the higher CM wins (§27.5 ruling)."""
    return "win" if player_cm > enemy_cm else ("loss" if player_cm < enemy_cm else "draw")


def carry_over(result: str) -> int:
    """The player's starting-CM modifier for his next campaign: +1 win, -1 loss (§23.3.1)."""
    return campaign_tables().carry_over[result]


def next_mission(last: MissionType, success: bool) -> MissionType:
    """The Next Mission table (§23.6)."""
    return campaign_tables().next_mission[last][success]


def recover_pilot(
    pilot: int, rep: int, *, controls: bool, success: bool, left: bool, dice: Dice
) -> cev.PilotRecovered:
    """After the Battle recovery: 2d6 (+1d6 controls, +1d6 success) vs current Rep (§23.9.1).

    Pass 2: Rep lost to injury restored, a pilot who left returns; pass 1: restored, returns
    but counts as having failed the mission; pass 0: nothing restored, one who left is lost.
    """
    t = campaign_tables()
    n = t.recovery_dice + (t.recovery_controls_bonus if controls else 0)
    faces = dice.roll(n + (t.recovery_success_bonus if success else 0))
    passes = passes_against(faces, rep, six_fails=False, cap=PASS_CAP)
    outcome = ("returns", "returns_failed", "lost")[2 - passes] if left else "stays"
    return cev.PilotRecovered(pilot, rep, faces, passes, passes >= 1, outcome)


def personal_result(
    kill_classes: Sequence[int],
    own_class: int,
    lost_mech: bool,
    left_battlefield: bool,
    threshold: Literal["size", "literal"] = "size",
) -> PersonalResult:
    """A pilot's personal mission: success, failure or neither (§23.9.2-23.9.3, decision 43)."""
    if lost_mech or left_battlefield:
        return "failure"
    if threshold == "size":
        enough = sum(6 - c for c in kill_classes) >= 6 - own_class
    else:
        enough = sum(kill_classes) >= own_class
    return "success" if kill_classes and enough else "neither"


def change_rep(pilot: int, rep: int, personal: PersonalResult, dice: Dice) -> cev.RepChecked:
    """Success: 1d6 above Rep (or a 6) gives +1; failure: a 1 costs 1, minimum 2 (§23.9.2-3)."""
    t = campaign_tables()
    if personal == "neither":
        return cev.RepChecked(pilot, personal, None, rep, rep)
    (face,) = dice.roll(1)
    after = rep
    if personal == "success" and (face > rep or face == t.rep_increase_always_on):
        after = rep + 1
    elif personal == "failure" and face == t.rep_decrease_on:
        after = max(t.rep_minimum, rep - 1)
    return cev.RepChecked(pilot, personal, face, rep, after)


def roll_replacement_pilot(
    mech: int, cm: int, dice: Dice, options: CampaignRulesOptions | None = None
) -> tuple[bool, tuple[int, ...]]:
    """1d6 against the side's current CM: pass gains a new pilot (§23.9.4). (passed, faces)."""
    o = options or CampaignRulesOptions()
    faces = dice.roll(campaign_tables().replacement_pilot_dice)
    six = o.six_always_fails == "all_morale_rolls"
    return passes_against(faces, cm, six_fails=six, cap=PASS_CAP) >= 1, faces


def mech_recoverable(exploded: bool, pilot_left: bool, objective_achieved: bool) -> bool:
    """Recovered unless its Chest exploded or its pilot left a failed mission (§23.9.5, D45)."""
    return not exploded and not (pilot_left and not objective_achieved)


def repair_mech(
    mech: int,
    cm: int,
    mech_class: int,
    *,
    controls: bool,
    dice: Dice,
    options: CampaignRulesOptions | None = None,
) -> cev.MechRepaired:
    """2d6 (+1d6 controls) vs current CM; pass 1 rolls 1d6 vs the Mech's Class (§23.9.5).

    Pass 2 (or pass 1 and the Class roll passed): repaired, available; pass 0 (or the Class
    roll failed): repaired but unavailable for the next 1/2d6 missions.
    """
    o, t = options or CampaignRulesOptions(), campaign_tables()
    six = o.six_always_fails == "all_morale_rolls"
    faces = dice.roll(t.repair_dice + (t.repair_controls_bonus if controls else 0))
    passes = passes_against(faces, cm, six_fails=six, cap=PASS_CAP)
    sub: int | None = None
    as_two = passes == 2
    if passes == 1:
        (sub,) = dice.roll(1)
        as_two = sub <= mech_class
    half: int | None = None
    if not as_two:
        (half,) = dice.roll(1)
    missions = 0 if half is None else half_d6(half)
    return cev.MechRepaired(mech, cm, faces, passes, sub, half, missions)


def replace_mechs(cm: int, lost: Sequence[int], dice: Dice) -> cev.MechsReplaced:
    """2d6 vs current CM, a 6 always fails: 2 all lost replaced, 1 one at random (§23.9.6)."""
    t = campaign_tables()
    faces = dice.roll(t.replacement_mech_dice)
    passes = passes_against(faces, cm, six_fails=t.replacement_mech_six_fails, cap=PASS_CAP)
    pick: tuple[int, ...] = ()
    chosen: tuple[int, ...] = ()
    if passes == 2:
        chosen = tuple(lost)
    elif passes == 1 and lost:
        index, pick = roll_index(dice, len(lost))
        chosen = (lost[index],)
    return cev.MechsReplaced(cm, faces, passes, pick, chosen, ())


__all__ = [
    "CampaignRulesOptions",
    "CampaignTables",
    "campaign_end",
    "campaign_tables",
    "carry_over",
    "change_morale",
    "change_rep",
    "compare_final",
    "mech_recoverable",
    "next_mission",
    "passes_against",
    "personal_result",
    "recover_pilot",
    "repair_mech",
    "replace_mechs",
    "roll_control",
    "roll_replacement_pilot",
    "starting_morale",
]
