// Mirror of rules/no_quarter/battle/reaction.py: In Sight, reaction tests and outgunned (§16,
// §17.5). Pure functions over the handed-in CombatTables; they roll nothing (the caller rolls the
// group's dice once and passes the faces or the pass count, §16.2.1).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "../forces/data_combat.hpp"

namespace wargym::no_quarter {

// is_outgunned: a cause at least two classes greater outguns the tester (§17.5); tester 1..5.
bool is_outgunned(const CombatTables& t, std::int64_t tester_class, std::int64_t cause_class,
                  bool nerves_of_steel);
// attributes_outgunned_immune: Nerves of Steel never outgunned (§17.5).
bool attributes_outgunned_immune(const CombatTables& t, const AttributeSet& attributes);
// in_sight_dice: Rep d6 with table 16.1.3 modifiers, at least 0 (§16.1.3).
std::int64_t in_sight_dice(const CombatTables& t, std::int64_t rep, Race race,
                           const AttributeSet& attributes, bool enemy_concealed);
// in_sight_bonus_successes: the leader's own functioning EWS (§16.1.3, §10.6.2).
std::int64_t in_sight_bonus_successes(const CombatTables& t, std::optional<ItemType> ews);
// moving_side_wins: strictly more successes; a tie goes to tie_winner (§16.1.3).
bool moving_side_wins(const CombatTables& t, std::int64_t moving, std::int64_t nonmoving);
// reaction_dice: 2 plus table 16.2's dice modifiers; Wussy's fixed Fired On total (§16.2).
std::int64_t reaction_dice(const CombatTables& t, ReactionTest test, Faction faction, bool in_cover,
                           const AttributeSet& attributes);
// reaction_rep: -1 per weapon out of action, -1 for heavy losses (§16.2).
std::int64_t reaction_rep(const CombatTables& t, std::int64_t rep, std::int64_t weapons_out_of_action,
                          bool twice_as_many_friendly_losses);
// twice_as_many_friendly_losses: friendly >= 1 and >= 2 x enemy (§16.2, ruling D22).
bool twice_as_many_friendly_losses(std::int64_t friendly_losses, std::int64_t enemy_losses);
// read_pooled_dice: the first n dice of the group's pool (ruling D16); throws ArgumentError("n")
// with the reference's message when the pool holds fewer than n.
std::vector<int> read_pooled_dice(std::span<const int> pool, std::int64_t n);

// ReactionOutcome: a mech's reading of a reaction test (§16.2).
struct ReactionOutcome {
    ReactionResult result = ReactionResult::carry_on;
    std::int64_t rep_change = 0;
};

struct ReactionCircumstances {
    bool outgunned = false;
    bool in_range = false;
    bool damaged = false;
};

// reaction_result: table 16.2's cell, then Coward and Nerves of Steel (§16.2, §9.6); passed
// 0..2, else ArgumentError("passed") with the reference's message.
ReactionOutcome reaction_result(const CombatTables& t, ReactionTest test, Faction faction,
                                std::int64_t passed, const ReactionCircumstances& c,
                                const AttributeSet& attributes);
// duck_back_becomes: what an attribute turns every Duck Back into (§9.6.4 ruling).
std::optional<ReactionResult> duck_back_becomes(const CombatTables& t, const AttributeSet& attributes);
// worst_result: the worst of several results of one roll, Fire then Rush Shot at carry-on
// level (§16.2.2); results must not be empty (ArgumentError("results")).
ReactionResult worst_result(const CombatTables& t, std::span<const ReactionResult> results);

}  // namespace wargym::no_quarter
