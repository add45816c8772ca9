// Mirror of rules/no_quarter/battle/reaction.py (reaction.hpp).
#include "reaction.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "../../errors.hpp"

namespace wargym::no_quarter {

bool is_outgunned(const CombatTables& t, std::int64_t tester_class, std::int64_t cause_class,
                  bool nerves_of_steel) {
    if (nerves_of_steel) return false;
    if (tester_class < 1 || tester_class > 5) {  // the reference's KeyError
        throw ArgumentError("tester_class", "expected a class 1..5, got " + std::to_string(tester_class));
    }
    if (cause_class < 1 || cause_class > 5) return false;  // `in outgunned_by[tester]` (1..5)
    return t.outgunned_by[static_cast<std::size_t>(tester_class)][static_cast<std::size_t>(cause_class)];
}

bool attributes_outgunned_immune(const CombatTables& t, const AttributeSet& attributes) {
    for (std::size_t a = 0; a < kAttributes; ++a) {
        if (attributes[a] && t.never_outgunned[a]) return true;
    }
    return false;
}

std::int64_t in_sight_dice(const CombatTables& t, std::int64_t rep, Race race,
                           const AttributeSet& attributes, bool enemy_concealed) {
    std::int64_t dice = rep * t.in_sight_dice_per_rep + t.in_sight_race_dice[static_cast<std::size_t>(race)];
    for (std::size_t a = 0; a < kAttributes; ++a) {
        if (attributes[a]) dice += t.in_sight_attribute_dice[a];
    }
    if (enemy_concealed) dice += t.in_sight_enemy_concealed_dice;
    return std::max<std::int64_t>(0, dice);
}

std::int64_t in_sight_bonus_successes(const CombatTables& t, std::optional<ItemType> ews) {
    return ews ? t.in_sight_bonus_successes[static_cast<std::size_t>(*ews)] : 0;
}

bool moving_side_wins(const CombatTables& t, std::int64_t moving, std::int64_t nonmoving) {
    if (moving == nonmoving) return t.in_sight_tie_to_moving;
    return moving > nonmoving;
}

std::int64_t reaction_dice(const CombatTables& t, ReactionTest test, Faction faction, bool in_cover,
                           const AttributeSet& attributes) {
    if (test == ReactionTest::fired_on) {  // Wussy: a fixed total, the smallest if several
        std::optional<std::int64_t> total;
        for (std::size_t a = 0; a < kAttributes; ++a) {
            const auto& fixed = t.fired_on_total_dice[a];
            if (attributes[a] && fixed && (!total || *fixed < *total)) total = *fixed;
        }
        if (total) return *total;
    }
    const auto i = static_cast<std::size_t>(test);
    std::int64_t dice = t.reaction_dice;
    if (in_cover) dice += t.in_cover_dice[i];
    if (table_row(faction) == Faction::star_army) dice += t.star_army_row_dice[i];
    return std::max<std::int64_t>(0, dice);
}

std::int64_t reaction_rep(const CombatTables& t, std::int64_t rep, std::int64_t weapons_out_of_action,
                          bool twice_as_many_friendly_losses) {
    std::int64_t modified = rep + weapons_out_of_action * t.per_weapon_out_of_action_rep;
    if (twice_as_many_friendly_losses) modified += t.twice_as_many_friendly_losses_rep;
    return modified;
}

bool twice_as_many_friendly_losses(std::int64_t friendly_losses, std::int64_t enemy_losses) {
    return friendly_losses >= 1 && friendly_losses >= 2 * enemy_losses;
}

std::vector<int> read_pooled_dice(std::span<const int> pool, std::int64_t n) {
    if (n > static_cast<std::int64_t>(pool.size())) {
        throw ArgumentError("n", "the pool holds " + std::to_string(pool.size()) +
                                     " dice; a mech cannot read " + std::to_string(n));
    }
    const auto take = static_cast<std::size_t>(std::max<std::int64_t>(0, n));
    return {pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(take)};
}

namespace {

// The attributes sorted by their value, as duck_back_becomes's sorted(key=lambda a: a.value).
std::array<std::size_t, kAttributes> attributes_by_value() {
    std::array<std::size_t, kAttributes> order{};
    for (std::size_t i = 0; i < kAttributes; ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [](std::size_t a, std::size_t b) { return kAttribute.values[a] < kAttribute.values[b]; });
    return order;
}

}  // namespace

std::optional<ReactionResult> duck_back_becomes(const CombatTables& t, const AttributeSet& attributes) {
    static const std::array<std::size_t, kAttributes> order = attributes_by_value();
    for (std::size_t a : order) {
        if (attributes[a] && t.duck_back_becomes[a]) return t.duck_back_becomes[a];
    }
    return std::nullopt;
}

ReactionOutcome reaction_result(const CombatTables& t, ReactionTest test, Faction faction,
                                std::int64_t passed, const ReactionCircumstances& c,
                                const AttributeSet& attributes) {
    if (passed < 0 || passed > t.pass_cap) {  // reaction.py: "0 <= passed <= 2" (PASS_CAP)
        throw ArgumentError("passed", "a reaction test passes 0, 1 or 2 dice, not " + std::to_string(passed));
    }
    const ReactionCell& cell = t.cells[static_cast<std::size_t>(test)]
                                      [static_cast<std::size_t>(table_row(faction))]
                                      [static_cast<std::size_t>(passed)];
    ReactionResult result = cell.otherwise;
    if (c.outgunned && cell.outgunned) {
        result = *cell.outgunned;
    } else if (c.in_range && cell.in_range) {
        result = *cell.in_range;
    } else if (c.damaged && cell.if_damaged) {
        result = *cell.if_damaged;
    }
    if (result == ReactionResult::duck_back) {
        const auto nerves = duck_back_becomes(t, attributes);
        std::optional<ReactionResult> coward;
        // The reference takes the first over set(attributes), an order of hashes: the same
        // answer whenever the attributes that have this effect agree on it (one, Coward, does).
        for (std::size_t a = 0; a < kAttributes && !coward; ++a) {
            if (attributes[a]) coward = t.fired_on_duck_back_becomes[a];
        }
        if (nerves) {
            result = *nerves;
        } else if (coward && test == ReactionTest::fired_on) {
            result = *coward;
        }
    }
    return {result, cell.rep_change};
}

ReactionResult worst_result(const CombatTables& t, std::span<const ReactionResult> results) {
    if (results.empty()) throw ArgumentError("results", "worst_result needs at least one result");
    const auto rank = [&](ReactionResult r) {
        return t.severity_rank[static_cast<std::size_t>(status_of(r))];
    };
    ReactionResult worst = results[0];  // max() keeps the first of equal keys
    for (ReactionResult r : results) {
        if (rank(r) > rank(worst)) worst = r;
    }
    if (status_of(worst) != Status::carry_on) return worst;
    for (ReactionResult shot : {ReactionResult::fire, ReactionResult::rush_shot}) {
        if (std::find(results.begin(), results.end(), shot) != results.end()) return shot;
    }
    return ReactionResult::carry_on;
}

}  // namespace wargym::no_quarter
