// Mirror of rules/no_quarter/battle/ranged_combat.py: to-hit, hit location, damage, criticals and
// the Pilot Test (§17.4). Pure functions over the handed-in CombatTables (forces/data_combat.hpp);
// like the reference they take the faces the caller rolled.
#pragma once

#include <array>
#include <cstdint>

#include "../forces/data_combat.hpp"

namespace wargym::no_quarter {

using Faces2 = std::array<int, 2>;

// rules/dice.py passed_dice(faces, target, cap): the d6 scoring target or less, at most cap
// (CombatTables::pass_cap, PASS_CAP) (§5.1).
std::int64_t passed_dice(const int* faces, std::size_t n, std::int64_t target, std::int64_t cap);

// ranged_rep: the shooter's Rep on table 17.4, Near Sighted -1 (§17.4, §9.6.4).
std::int64_t ranged_rep(const CombatTables& t, std::int64_t rep, const AttributeSet& attributes);

// The circumstances of to_hit's keywords.
struct ToHitConditions {
    bool shooter_fast_moving = false;
    bool rush_shot = false;
    bool target_in_cover = false;
    bool target_prone = false;
    bool target_fast_moving = false;
    std::int64_t target_index = 1;  // the target's number among the shooter's targets (D14)
    bool crack_shot = false;
};

// RangedCombatRules.row_for: the row holding total (rows tile every integer).
const RangedRow& row_for(const CombatTables& t, std::int64_t total);
// to_hit: table 17.4 for total = 1d6 + Rep; true on a hit (§17.4, 17.3, ruling D14).
bool to_hit(const CombatTables& t, std::int64_t total, const ToHitConditions& c);
// hit_location: 2d6 added on table 17.4.1 (§17.4.1); faces 1..6.
Location hit_location(const CombatTables& t, Faces2 faces);
// better_location: the better of two for a Marksman, by marksman_preference (§9.6.4).
Location better_location(const CombatTables& t, Location a, Location b);
// marksman_location: two 2d6 rolls, the better kept (§9.6.4).
Location marksman_location(const CombatTables& t, Faces2 first, Faces2 second);

// DamageOutcome: one damage roll read on table 17.4.2 or 18.3.2.
struct DamageOutcome {
    std::int64_t passed = 0;
    std::int64_t armor_loss = 0;   // raw loss of the row
    std::int64_t armor_after = 0;  // clamped at 0
    bool critical = false;
    bool duck_back = false;
    bool refight = false;
};

// resolve_damage_row: apply one row (§17.4.2, §18.3.2); amount is the row's named loss
// (impact, or the attacking limb's damage) used when the row has no fixed loss.
DamageOutcome resolve_damage_row(const DamageRow& row, Faces2 faces, std::int64_t amount,
                                 std::int64_t armor_before);
// ranged_damage: 2d6 against Impact on table 17.4.2 (§17.4.2).
DamageOutcome ranged_damage(const CombatTables& t, Faces2 faces, std::int64_t impact,
                            std::int64_t armor_before);
// critical_kind: the Critical Hit cell by location and armour now (<= 0 or >= 1) (§17.4.3).
CriticalKind critical_kind(const CombatTables& t, Location location, std::int64_t armor_now);
// chest_explosion: the chest at 0 or less, 1d6: destroyed or inoperable (§17.4.3); face 1..6.
Removal chest_explosion(const CombatTables& t, int face);
// halved_speed: speed // 2, rounded down as Python's floor division (ruling D23).
std::int64_t halved_speed(std::int64_t speed);
// pilot_test_rep: Agile +1, Slow -1 (§17.4.3.1).
std::int64_t pilot_test_rep(const CombatTables& t, std::int64_t rep, const AttributeSet& attributes);
// pilot_test_passed: 1d6 against the modified Rep; true stays standing (§17.4.3.1).
bool pilot_test_passed(const CombatTables& t, int face, std::int64_t rep,
                       const AttributeSet& attributes);

}  // namespace wargym::no_quarter
