// Mirror of rules/no_quarter/battle/melee.py (melee.hpp).
#include "melee.hpp"

#include <algorithm>
#include <numeric>

namespace wargym::no_quarter {

std::int64_t charge_target_dice(const CombatTables& t, bool target_in_cover, Aspect aspect) {
    std::int64_t dice = std::int64_t{t.charge_dice_each} + t.charge_aspect[static_cast<std::size_t>(aspect)];
    if (target_in_cover) dice += t.charge_in_cover;
    return std::max<std::int64_t>(0, dice);
}

ChargeOutcome charge_outcome(const CombatTables& t, std::int64_t charger_passed,
                             std::int64_t target_passed) {
    if (charger_passed > target_passed) return t.charger_passed_more;
    if (target_passed > charger_passed) return t.target_passed_more;
    return t.same_number;
}

std::int64_t melee_dice(const CombatTables& t, std::int64_t rep, Race race,
                        const AttributeSet& attributes, const MeleeCircumstances& c) {
    std::int64_t dice = rep * t.melee_dice_per_rep + t.melee_race[static_cast<std::size_t>(race)];
    for (std::size_t a = 0; a < kAttributes; ++a) {
        if (attributes[a]) dice += t.melee_attribute[a];
    }
    if (c.melee_weapon) dice += t.one_hand_melee_weapon;
    if (c.attacking_prone) dice += t.attacking_prone_opponent;
    if (c.jump_attack) dice += t.jump_attack;
    if (c.leaving) dice += t.leaving_battlefield;
    return std::max<std::int64_t>(0, dice);
}

std::int64_t melee_margin(std::int64_t attacker_successes, std::int64_t defender_successes) {
    return attacker_successes - defender_successes;
}

Location melee_hit_location(const CombatTables& t, int face, MeleeAttack attack, bool jump_attack) {
    const MeleeAttack column = jump_attack ? t.jump_attack_column : attack;
    return t.melee_hit_location[static_cast<std::size_t>(face)][static_cast<std::size_t>(column)];
}

std::int64_t limb_damage(std::int64_t limb_armor, std::int64_t melee_weapon_wv) {
    const std::int64_t armor = std::max<std::int64_t>(0, limb_armor);
    return armor + std::min(melee_weapon_wv, armor);
}

DamageOutcome melee_damage(const CombatTables& t, Faces2 faces, std::int64_t margin,
                           std::int64_t limb_damage, std::int64_t armor_before) {
    const std::int64_t passed = passed_dice(faces.data(), faces.size(), margin, t.pass_cap);
    return resolve_damage_row(t.melee_damage[static_cast<std::size_t>(passed)], faces, limb_damage,
                              armor_before);
}

std::vector<std::size_t> melee_attack_order(std::span<const MeleeAttacker> attackers) {
    std::vector<std::size_t> order(attackers.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const MeleeAttacker& x = attackers[a];
        const MeleeAttacker& y = attackers[b];
        if (x.mech_class != y.mech_class) return x.mech_class < y.mech_class;
        return -x.rep < -y.rep;  // key (class, -rep)
    });
    return order;
}

}  // namespace wargym::no_quarter
