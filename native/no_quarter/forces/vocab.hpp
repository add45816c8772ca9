// The No Quarter vocabulary (rules/no_quarter/forces/vocab.py) and the option choices of
// rules/no_quarter/battle/state.py and forces/data.py: each enum's values in the reference's
// order. tests/native/test_state_agreement.py checks every list against the Python enums and
// Literal types (no_quarter.vocabulary()), so the two cannot drift apart.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace wargym::no_quarter {

template <class E, std::size_t N>
struct Vocab {
    const char* name;                    // the Python type's name
    std::array<std::string_view, N> values;
    static constexpr std::size_t size = N;
    std::string_view operator[](E e) const { return values[static_cast<std::size_t>(e)]; }
    std::optional<E> find(std::string_view text) const {
        for (std::size_t i = 0; i < N; ++i) {
            if (values[i] == text) return static_cast<E>(i);
        }
        return std::nullopt;
    }
};

enum class Side : std::uint8_t { blue, red };
enum class Rank : std::uint8_t { team_leader, squad_leader, platoon_leader, company_commander };
enum class Status : std::uint8_t { carry_on, duck_back, leave_battlefield };
enum class Removal : std::uint8_t { destroyed, inoperable, left_table, cheated_death };
enum class Location : std::uint8_t { head, arm_l, arm_r, chest, gut, leg_l, leg_r };
enum class Terrain : std::uint8_t { clear, building, woods, hill, river, deep_water, road, rough };
enum class Faction : std::uint8_t { free_company, hishen, iss, pdf, star_army, zhuh_zhuh };
enum class Race : std::uint8_t { basic, hishen, xeog, zhuh_zhuh };
enum class Attribute : std::uint8_t {
    agile, brawler, coward, crack_shot, dumbass, hard_as_nails, initiative, marksman,
    near_sighted, nerves_of_steel, lucky, quick_reflexes, resilient, slow, slow_to_react,
    weakling, wussy, choice
};
enum class ItemType : std::uint8_t {
    beam_heavy, beam_medium, beam_light, flamer, gun_auto, gun_medium, gun_heavy, melee_weapon,
    ppg, rocket_launcher_2, rocket_launcher_3, jump_jets, ews_1, ews_2
};

inline constexpr std::size_t kLocations = 7;  // len(Location): one armour value each

inline constexpr Vocab<Side, 2> kSide{"Side", {"blue", "red"}};
inline constexpr Vocab<Rank, 4> kRank{
    "Rank", {"team_leader", "squad_leader", "platoon_leader", "company_commander"}};
inline constexpr Vocab<Status, 3> kStatus{"Status", {"carry_on", "duck_back", "leave_battlefield"}};
inline constexpr Vocab<Removal, 4> kRemoval{
    "Removal", {"destroyed", "inoperable", "left_table", "cheated_death"}};
inline constexpr Vocab<Location, kLocations> kLocation{
    "Location", {"head", "arm_l", "arm_r", "chest", "gut", "leg_l", "leg_r"}};
inline constexpr Vocab<Terrain, 8> kTerrain{
    "Terrain", {"clear", "building", "woods", "hill", "river", "deep_water", "road", "rough"}};
inline constexpr Vocab<Faction, 6> kFaction{
    "Faction", {"free_company", "hishen", "iss", "pdf", "star_army", "zhuh_zhuh"}};
inline constexpr Vocab<Race, 4> kRace{"Race", {"basic", "hishen", "xeog", "zhuh_zhuh"}};
inline constexpr Vocab<Attribute, 18> kAttribute{
    "Attribute",
    {"agile", "brawler", "coward", "crack_shot", "dumbass", "hard_as_nails", "initiative",
     "marksman", "near_sighted", "nerves_of_steel", "lucky", "quick_reflexes", "resilient",
     "slow", "slow_to_react", "weakling", "wussy", "choice"}};
inline constexpr std::size_t kAttributes = kAttribute.size;  // len(Attribute): one definition for every table
inline constexpr Vocab<ItemType, 14> kItemType{
    "ItemType",
    {"beam_heavy", "beam_medium", "beam_light", "flamer", "gun_auto", "gun_medium", "gun_heavy",
     "melee_weapon", "ppg", "rocket_launcher_2", "rocket_launcher_3", "jump_jets", "ews_1",
     "ews_2"}};

// vocab.py ReactionResult, ReactionTest, MeleeAttack (§15-§18), the values in the reference's order.
enum class ReactionResult : std::uint8_t { carry_on, duck_back, leave_battlefield, fire, rush_shot };
enum class ReactionTest : std::uint8_t { fired_on, takes_damage, mech_down };
enum class MeleeAttack : std::uint8_t { punch, kick };
inline constexpr Vocab<ReactionResult, 5> kReactionResult{
    "ReactionResult", {"carry_on", "duck_back", "leave_battlefield", "fire", "rush_shot"}};
inline constexpr Vocab<ReactionTest, 3> kReactionTest{
    "ReactionTest", {"fired_on", "takes_damage", "mech_down"}};
inline constexpr Vocab<MeleeAttack, 2> kMeleeAttack{"MeleeAttack", {"punch", "kick"}};

}  // namespace wargym::no_quarter
