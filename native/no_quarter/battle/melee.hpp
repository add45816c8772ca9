// Mirror of rules/no_quarter/battle/melee.py: the charge test, melee rounds, location and damage
// (§18). Pure functions over the handed-in CombatTables; the caller rolls and passes the faces.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ranged_combat.hpp"  // DamageOutcome, resolve_damage_row, Faces2

namespace wargym::no_quarter {

// charge_target_dice: 2, +1 cover, -1 flank, -2 rear, at least 0 (§18.2.1).
std::int64_t charge_target_dice(const CombatTables& t, bool target_in_cover, Aspect aspect);
// charge_outcome: compare passes on the Charge into Melee test (§18.2.1).
ChargeOutcome charge_outcome(const CombatTables& t, std::int64_t charger_passed,
                             std::int64_t target_passed);

struct MeleeCircumstances {
    bool melee_weapon = false;
    bool attacking_prone = false;
    bool jump_attack = false;
    bool leaving = false;
};

// melee_dice: Rep d6 with table 18.3's modifiers, at least 0 (§18.3).
std::int64_t melee_dice(const CombatTables& t, std::int64_t rep, Race race,
                        const AttributeSet& attributes, const MeleeCircumstances& c);
// melee_margin: > 0 attacker wins, < 0 defender, 0 refight (§18.3).
std::int64_t melee_margin(std::int64_t attacker_successes, std::int64_t defender_successes);
// melee_hit_location: 1d6 in the attack's column; a Jump Attack reads jump_attack_column
// (§18.3.1, §10.6.1); face 1..6.
Location melee_hit_location(const CombatTables& t, int face, MeleeAttack attack, bool jump_attack);
// limb_damage: the limb's armour + min(weapon WV, armour) (ruling D34, §10.4.4).
std::int64_t limb_damage(std::int64_t limb_armor, std::int64_t melee_weapon_wv);
// melee_damage: 2d6 against the margin on table 18.3.2 (§18.3.2).
DamageOutcome melee_damage(const CombatTables& t, Faces2 faces, std::int64_t margin,
                           std::int64_t limb_damage, std::int64_t armor_before);

struct MeleeAttacker {
    std::int64_t mech_class = 0;
    std::int64_t rep = 0;
};
// melee_attack_order: indices of the attackers, lowest class number first, then higher Rep; ties
// keep the given order (§18.3.4).
std::vector<std::size_t> melee_attack_order(std::span<const MeleeAttacker> attackers);

}  // namespace wargym::no_quarter
