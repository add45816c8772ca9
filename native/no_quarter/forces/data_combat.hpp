// The combat tables of No Quarter (§16-§18) as the resolvers read them: the part of
// rules/no_quarter/forces/data.py's NoQuarterRules that battle/ranged_combat.py, reaction.py and
// melee.py use, parsed by forces/data_combat.py. No number of the books is written here: the glue
// (native/no_quarter/combat.py) reads load_rules(options) and hands every table to
// CombatTables's reader (data_combat_reader.cpp), so an edited YAML changes both engines alike.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "records.hpp"
#include "vocab.hpp"
#include "../sight_movement/geometry.hpp"  // Aspect (front, flank, rear)

namespace wargym::no_quarter {

// The combat enums of forces/vocab.py and forces/records.py, in the reference's order
// (combat_vocabulary() hands them to tests/native/test_combat_agreement.py, which compares them).
// (ReactionResult, ReactionTest and MeleeAttack are in vocab.hpp, ChargeOutcome in records.hpp.)
enum class CriticalKind : std::uint8_t {
    head_blown_off, pilot_test_head, arm_blown_off, arm_weapon_lost, chest_roll, random_item_lost,
    gut_inoperable, leg_blown_off, leg_speed_halved
};
// The circumstances of table 17.4's conditional rows (data_combat.RANGED_CONDITIONS), as bits.
enum class RangedCondition : std::uint8_t {
    shooter_fast_moving, rush_shot, target_in_cover, target_prone, target_fast_moving
};

// kAttributes (len(Attribute)) is vocab.hpp's.
inline constexpr std::size_t kRaces = 4;         // len(Race)
inline constexpr std::size_t kFactions = 6;      // len(Faction)
inline constexpr std::size_t kItemTypes = 14;    // len(ItemType)
inline constexpr std::size_t kReactionTests = 3; // len(ReactionTest)
inline constexpr std::size_t kAspects = 3;       // len(Aspect)
// Room for the rows of dice passed 0..PASS_CAP (rules/dice.py, §5.1): the reader refuses a
// handed-in pass cap whose rows do not fit; the functions read CombatTables::pass_cap.
inline constexpr std::size_t kPassRows = 3;

// Each enum's values (the members' .value) in the reference's order.
static_assert(kReactionTest.size == kReactionTests);
inline constexpr Vocab<Aspect, kAspects> kAspect{"Aspect", {"front", "flank", "rear"}};
inline constexpr Vocab<CriticalKind, 9> kCriticalKind{
    "CriticalKind",
    {"head_blown_off", "pilot_test_head", "arm_blown_off", "arm_weapon_lost", "chest_roll",
     "random_item_lost", "gut_inoperable", "leg_blown_off", "leg_speed_halved"}};
inline constexpr Vocab<RangedCondition, 5> kRangedCondition{
    "RANGED_CONDITIONS",
    {"shooter_fast_moving", "rush_shot", "target_in_cover", "target_prone", "target_fast_moving"}};

// ReactionResult.status (vocab.py): Fire and Rush Shot are carry-on results.
inline Status status_of(ReactionResult r) {
    if (r == ReactionResult::duck_back) return Status::duck_back;
    if (r == ReactionResult::leave_battlefield) return Status::leave_battlefield;
    return Status::carry_on;
}

// Faction.table_row (vocab.py): the ISS reads the Star Army row (§9.3).
inline Faction table_row(Faction f) { return f == Faction::iss ? Faction::star_army : f; }

using AttributeInts = std::array<std::int32_t, kAttributes>;  // a Mapping[Attribute, int], 0 if absent

// records.RangedRow: one row of table 17.4; conditions are RangedCondition bit masks.
struct RangedRow {
    std::optional<std::int32_t> low;
    std::optional<std::int32_t> high;
    std::optional<bool> hit;  // result "hit" (true) / "miss" (false); none: a conditional row
    std::uint8_t shooter_missed_if = 0;
    std::uint8_t target_missed_if = 0;
    std::optional<std::int32_t> target_index_at_least;
};

// records.DamageRow: one row of table 17.4.2 or 18.3.2. fixed_loss none: the loss is the named
// amount of the table ("impact" for ranged damage, "attacking_limb" for melee damage).
struct DamageRow {
    std::int32_t passed = 0;
    std::optional<std::int32_t> fixed_loss;
    bool critical_on_doubles = false;
    bool critical_on_armor_le_0 = false;
    bool duck_back = false;
    bool refight = false;
};

// records.ReactionCell: one cell of table 16.2.
struct ReactionCell {
    ReactionResult otherwise = ReactionResult::carry_on;
    std::optional<ReactionResult> outgunned;
    std::optional<ReactionResult> in_range;
    std::optional<ReactionResult> if_damaged;
    std::int32_t rep_change = 0;
};

struct CombatTables {
    std::int32_t pass_cap = 0;  // rules.dice.PASS_CAP: a test passes at most this many d6 (§5.1)
    // -- §17.4 ranged combat (ranged_combat.yaml, hit_location.yaml, ranged_damage.yaml)
    std::vector<RangedRow> ranged_rows;         // tiling every total, low to high
    AttributeInts ranged_rep_modifiers{};
    std::uint8_t crack_shot_ignores = 0;        // RangedCondition bits
    std::array<Location, 13> hit_location{};    // by 2d6 sum; indices 2..12 used
    std::array<std::uint8_t, kLocations> marksman_rank{};  // index in marksman_preference
    std::array<DamageRow, kPassRows> ranged_damage{};  // by dice passed 0..pass_cap
    // -- §17.4.3 criticals and the Pilot Test (critical_hits.yaml, pilot_test.yaml)
    std::array<CriticalKind, kLocations> critical_armor_le_0{};
    std::array<CriticalKind, kLocations> critical_armor_ge_1{};
    std::array<Removal, 7> chest_roll{};        // by face 1..6
    AttributeInts pilot_test_rep_modifiers{};
    // -- §17.5 outgunned (outgunned.yaml)
    std::array<std::array<bool, 6>, 6> outgunned_by{};  // [tester class][cause class], 1..5
    std::array<bool, kAttributes> never_outgunned{};
    // -- §16.1.3 In Sight (in_sight.yaml)
    std::int32_t in_sight_dice_per_rep = 0;
    bool in_sight_tie_to_moving = false;        // tie_winner == "moving"
    std::int32_t in_sight_enemy_concealed_dice = 0;
    std::array<std::int32_t, kRaces> in_sight_race_dice{};
    AttributeInts in_sight_attribute_dice{};
    std::array<std::int32_t, kItemTypes> in_sight_bonus_successes{};
    // -- §16.2 reaction tests (reaction_tests.yaml; attribute effects of random_attributes.yaml)
    std::int32_t reaction_dice = 0;
    std::int32_t per_weapon_out_of_action_rep = 0;
    std::int32_t twice_as_many_friendly_losses_rep = 0;
    std::array<std::int32_t, kReactionTests> in_cover_dice{};      // 0 where the table has none
    std::array<std::int32_t, kReactionTests> star_army_row_dice{};
    std::array<std::optional<std::int32_t>, kAttributes> fired_on_total_dice{};
    std::array<std::uint8_t, 3> severity_rank{};  // by Status: its index in severity_best_to_worst
    // cells[test][faction row][passed 0..pass_cap]; the ISS has no row of its own (it reads Star Army).
    std::array<std::array<std::array<ReactionCell, kPassRows>, kFactions>, kReactionTests> cells{};
    std::array<std::optional<ReactionResult>, kAttributes> duck_back_becomes{};
    std::array<std::optional<ReactionResult>, kAttributes> fired_on_duck_back_becomes{};
    // -- §18 charge and melee (charge_into_melee.yaml, melee_combat.yaml, melee_hit_location.yaml,
    //    melee_damage.yaml)
    std::int32_t charge_dice_each = 0;
    std::int32_t charge_in_cover = 0;
    std::array<std::int32_t, kAspects> charge_aspect{};
    ChargeOutcome charger_passed_more{};
    ChargeOutcome target_passed_more{};
    ChargeOutcome same_number{};
    std::int32_t melee_dice_per_rep = 0;
    std::int32_t one_hand_melee_weapon = 0;
    std::int32_t attacking_prone_opponent = 0;
    std::int32_t jump_attack = 0;
    std::int32_t leaving_battlefield = 0;
    std::array<std::int32_t, kRaces> melee_race{};
    AttributeInts melee_attribute{};
    MeleeAttack jump_attack_column{};
    std::array<std::array<Location, 2>, 7> melee_hit_location{};  // [face 1..6][MeleeAttack]
    std::array<DamageRow, kPassRows> melee_damage{};
};

// An attribute set as the reference's set(attributes): each attribute at most once.
using AttributeSet = std::array<bool, kAttributes>;

}  // namespace wargym::no_quarter
