// Mirror of rules/no_quarter/battle/ranged_combat.py (ranged_combat.hpp).
#include "ranged_combat.hpp"

#include <algorithm>

namespace wargym::no_quarter {

namespace {

std::int64_t modified(std::int64_t rep, const AttributeInts& modifiers, const AttributeSet& attributes) {
    std::int64_t total = rep;  // rep + sum(modifiers.get(a, 0) for a in set(attributes))
    for (std::size_t a = 0; a < kAttributes; ++a) {
        if (attributes[a]) total += modifiers[a];
    }
    return total;
}

bool has(std::uint8_t mask, RangedCondition c) {
    return (mask >> static_cast<unsigned>(c)) & 1U;
}

}  // namespace

std::int64_t passed_dice(const int* faces, std::size_t n, std::int64_t target, std::int64_t cap) {
    std::int64_t count = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (faces[i] <= target) ++count;
    }
    return std::min(cap, count);
}

std::int64_t ranged_rep(const CombatTables& t, std::int64_t rep, const AttributeSet& attributes) {
    return modified(rep, t.ranged_rep_modifiers, attributes);
}

const RangedRow& row_for(const CombatTables& t, std::int64_t total) {
    for (const RangedRow& row : t.ranged_rows) {
        if ((!row.low || total >= *row.low) && (!row.high || total <= *row.high)) return row;
    }
    return t.ranged_rows.back();  // unreachable: the reader checks that the rows tile every total
}

bool to_hit(const CombatTables& t, std::int64_t total, const ToHitConditions& c) {
    const RangedRow& row = row_for(t, total);
    if (row.hit) return *row.hit;
    std::array<bool, 5> present{c.shooter_fast_moving, c.rush_shot, c.target_in_cover,
                                c.target_prone, c.target_fast_moving};
    if (c.crack_shot) {  // Crack Shot ignores the conditions of crack_shot_ignores
        for (std::size_t i = 0; i < present.size(); ++i) {
            if (has(t.crack_shot_ignores, static_cast<RangedCondition>(i))) present[i] = false;
        }
    }
    const std::uint8_t missed_if = row.shooter_missed_if | row.target_missed_if;
    for (std::size_t i = 0; i < present.size(); ++i) {
        if (present[i] && has(missed_if, static_cast<RangedCondition>(i))) return false;
    }
    return !row.target_index_at_least || c.target_index < *row.target_index_at_least;
}

Location hit_location(const CombatTables& t, Faces2 faces) {
    return t.hit_location[static_cast<std::size_t>(faces[0] + faces[1])];
}

Location better_location(const CombatTables& t, Location a, Location b) {
    const auto rank = [&](Location l) { return t.marksman_rank[static_cast<std::size_t>(l)]; };
    return rank(a) <= rank(b) ? a : b;
}

Location marksman_location(const CombatTables& t, Faces2 first, Faces2 second) {
    return better_location(t, hit_location(t, first), hit_location(t, second));
}

DamageOutcome resolve_damage_row(const DamageRow& row, Faces2 faces, std::int64_t amount,
                                 std::int64_t armor_before) {
    const std::int64_t loss = row.fixed_loss ? *row.fixed_loss : amount;
    const std::int64_t reduced = armor_before - loss;
    const std::int64_t after = std::max<std::int64_t>(0, reduced);  // "0 or less" reads the same
    const bool doubles = faces[0] == faces[1];
    const bool critical = loss > 0 && ((row.critical_on_doubles && doubles) ||
                                       (row.critical_on_armor_le_0 && reduced <= 0));
    return {row.passed, loss, after, critical, row.duck_back, row.refight};
}

DamageOutcome ranged_damage(const CombatTables& t, Faces2 faces, std::int64_t impact,
                            std::int64_t armor_before) {
    const std::int64_t passed = passed_dice(faces.data(), faces.size(), impact, t.pass_cap);
    return resolve_damage_row(t.ranged_damage[static_cast<std::size_t>(passed)], faces, impact,
                              armor_before);
}

CriticalKind critical_kind(const CombatTables& t, Location location, std::int64_t armor_now) {
    const auto i = static_cast<std::size_t>(location);
    return armor_now <= 0 ? t.critical_armor_le_0[i] : t.critical_armor_ge_1[i];
}

Removal chest_explosion(const CombatTables& t, int face) {
    return t.chest_roll[static_cast<std::size_t>(face)];
}

std::int64_t halved_speed(std::int64_t speed) {
    const std::int64_t q = speed / 2;
    return (speed % 2 != 0 && speed < 0) ? q - 1 : q;  // Python's // rounds toward -infinity
}

std::int64_t pilot_test_rep(const CombatTables& t, std::int64_t rep, const AttributeSet& attributes) {
    return modified(rep, t.pilot_test_rep_modifiers, attributes);
}

bool pilot_test_passed(const CombatTables& t, int face, std::int64_t rep,
                       const AttributeSet& attributes) {
    const int faces[1] = {face};
    return passed_dice(faces, 1, pilot_test_rep(t, rep, attributes), t.pass_cap) >= 1;
}

}  // namespace wargym::no_quarter
