// The No Quarter battle state (rules/no_quarter/battle/state.py: BattleOptions, Mech, Battle)
// as plain structs. Battle::clone() is a struct copy: the immutable parts (battlefield,
// options, each mech's name, design and pilot, the plain-JSON frames/np/mission) are shared
// through reference counts, everything the rules change is copied.
//
// Reading and writing the reference's versioned JSON (Battle.to_dict / from_dict) is done by
// the bindings (battle/state_bindings.hpp), which hand check_battle() a finished struct.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../../serial.hpp"
#include "../battlefield/terrain.hpp"
#include "../forces/records.hpp"
#include "../forces/vocab.hpp"
#include "actions.hpp"
#include "frames.hpp"

namespace wargym::no_quarter {

inline constexpr std::int64_t kStateVersion = 1;  // state.STATE_VERSION (checked by a test)

// Option choices of the Literal-typed fields (the Python Literal's values, in order).
enum class SpreadFire : std::uint8_t { per_shooter, off };
enum class CommandGroups : std::uint8_t { choose, teams, command_radius };
enum class GroupSplits : std::uint8_t { choose, off };
enum class Lucky : std::uint8_t { choose, automatic, off };
enum class Marksman : std::uint8_t { choose, automatic };
enum class UnseenBases : std::uint8_t { block, bump };
enum class InSightSpentFire : std::uint8_t { carry_on, priority };
enum class SeveralChargers : std::uint8_t { split, one_by_one };
enum class ZhuhZhuhRestriction : std::uint8_t { recommended, printed };
enum class TableOrPrinted : std::uint8_t { table, printed };
enum class FreeCompanyRaces : std::uint8_t { company, per_pilot };

inline constexpr Vocab<SpreadFire, 2> kSpreadFire{"spread_fire_rule", {"per_shooter", "off"}};
inline constexpr Vocab<CommandGroups, 3> kCommandGroups{
    "command_groups", {"choose", "teams", "command_radius"}};
inline constexpr Vocab<GroupSplits, 2> kGroupSplits{"group_splits", {"choose", "off"}};
inline constexpr Vocab<Lucky, 3> kLucky{"lucky", {"choose", "auto", "off"}};
inline constexpr Vocab<Marksman, 2> kMarksman{"marksman", {"choose", "auto"}};
inline constexpr Vocab<UnseenBases, 2> kUnseenBases{"unseen_bases", {"block", "bump"}};
inline constexpr Vocab<InSightSpentFire, 2> kInSightSpentFire{
    "in_sight_spent_fire", {"carry_on", "priority"}};
inline constexpr Vocab<SeveralChargers, 2> kSeveralChargers{
    "several_chargers", {"split", "one_by_one"}};
inline constexpr Vocab<ZhuhZhuhRestriction, 2> kZhuhZhuhRestriction{
    "zhuh_zhuh_restriction", {"recommended", "printed"}};
inline constexpr Vocab<TableOrPrinted, 2> kGunMediumStats{"gun_medium_stats", {"table", "printed"}};
inline constexpr Vocab<TableOrPrinted, 2> kPdfC4Target{"pdf_c4_target", {"table", "printed"}};
inline constexpr Vocab<FreeCompanyRaces, 2> kFreeCompanyRaces{
    "free_company_races", {"company", "per_pilot"}};

// forces/data.py RulesOptions. Defaults are the reference's (the digest's rulings).
struct RulesOptions {
    ZhuhZhuhRestriction zhuh_zhuh_restriction = ZhuhZhuhRestriction::recommended;
    TableOrPrinted gun_medium_stats = TableOrPrinted::table;
    bool strict_mounting = false;
    TableOrPrinted pdf_c4_target = TableOrPrinted::table;
    FreeCompanyRaces free_company_races = FreeCompanyRaces::company;
};

// state.py BattleOptions; the defaults are the reference's, which the bindings' reader uses
// for fields a document leaves out (as from_jsonable does).
struct BattleOptions {
    std::int64_t max_turns = 20;
    double base_radius = 0.5;
    bool star_free_will = true;
    SpreadFire spread_fire_rule = SpreadFire::per_shooter;
    bool in_sight_free_move = true;
    bool reaction_fire_once_per_enemy = true;
    bool leave_wrecks = false;
    CommandGroups command_groups = CommandGroups::choose;
    GroupSplits group_splits = GroupSplits::choose;
    Lucky lucky = Lucky::choose;
    Marksman marksman = Marksman::choose;
    std::int64_t move_directions = 16;
    std::vector<double> move_fractions{0.25, 0.5, 0.75, 1.0};
    UnseenBases unseen_bases = UnseenBases::block;
    InSightSpentFire in_sight_spent_fire = InSightSpentFire::carry_on;
    SeveralChargers several_chargers = SeveralChargers::split;
    bool choose_facing = true;
    RulesOptions rules;
};

// What never changes for a mech in battle: shared by every clone.
struct MechRecord {
    std::string name;
    MechDesign design;
    Pilot pilot;
};

// state.py Mech: one mech on the table.
struct Mech {
    std::int64_t id = 0;
    Side side{};
    std::shared_ptr<const MechRecord> record;  // name, design, pilot
    std::int64_t rep = 0;
    std::array<std::int64_t, kLocations> armor{};
    std::int64_t speed = 0;
    Point pos{0.0, 0.0};
    double heading = 0.0;
    std::int64_t team = 0;
    std::optional<Rank> rank;
    std::int64_t twist = 0;
    Status status = Status::carry_on;
    bool prone = false;
    double moved = 0.0;
    std::vector<Location> lost_limbs;
    std::vector<std::int64_t> inoperable;
    std::optional<Removal> removed;
    bool fired_this_activation = false;
    bool flamer_fired_turn = false;
    bool lucky_used = false;
    bool resilient_used = false;
    bool hard_as_nails_used = false;
    std::vector<std::int64_t> reaction_fired_at;
    std::vector<std::int64_t> hidden_from;

    const MechDesign& design() const { return record->design; }
};

// A dict keyed by Side, in insertion order (dice, losses, home_edges).
template <class T>
struct SideMap {
    std::uint8_t size = 0;
    std::array<Side, 2> keys{};
    std::array<T, 2> values{};

    const T* find(Side side) const {
        for (std::uint8_t i = 0; i < size; ++i) {
            if (keys[i] == side) return &values[i];
        }
        return nullptr;
    }
    // false if the side is there already
    bool insert(Side side, T value) {
        if (find(side) != nullptr) return false;
        keys[size] = side;
        values[size] = std::move(value);
        ++size;
        return true;
    }
};

// state.py Battle. Mechs are kept in id order (from_dict sorts them, as the reference does).
struct Battle {
    std::shared_ptr<const Battlefield> battlefield;
    std::shared_ptr<const BattleOptions> options;
    std::vector<Mech> mechs;
    std::int64_t turn = 0;
    SideMap<std::int64_t> dice;
    std::optional<Side> first_side;
    std::optional<Side> active_side;
    std::vector<std::pair<std::int64_t, std::int64_t>> group_of;  // member -> leader, in order
    std::vector<std::array<std::int64_t, 2>> seen_pairs;
    SideMap<std::int64_t> losses;
    std::vector<std::array<Point, 2>> flames;
    std::vector<Point> wrecks;
    FrameStack frames;  // typed frames, shared copy on write (frames.hpp)
    std::optional<Decision> decision;
    bool over = false;
    std::optional<Side> winner;
    std::string end_reason;
    SideMap<std::string> home_edges;
    std::vector<std::pair<std::int64_t, std::int64_t>> building_armor;  // feature -> armour
    Json np;       // null or an object
    Json mission;  // null or an object
    std::int64_t version = kStateVersion;

    Battle clone() const { return *this; }
    const Mech* mech(std::int64_t id) const;
};

// The bounds of validity.py (MAX_MECHS, ...) and the building table of terrain_config(),
// handed in by the Python glue: the C++ holds no second copy of them. max_json_depth bounds the nesting of frames/np/mission (a native
// limit: deeper data is refused before it can exhaust the stack).
struct StateLimits {
    std::int64_t max_mechs = 0;
    double max_table = 0.0;
    std::int64_t max_features = 0;
    std::int64_t max_turns = 0;
    std::int64_t max_directions = 0;
    std::int64_t max_fractions = 0;
    std::int64_t max_points = 0;
    std::int64_t max_frames = 0;
    std::int64_t max_rep = 0;
    std::vector<std::int64_t> twists;
    std::vector<std::string> edges;
    std::vector<Location> limbs;
    std::int64_t max_json_depth = 0;
    // terrain_tables.terrain_config(), which Feature.__post_init__ reads (§19.4.1, §19.4.2)
    double building_max_w = 0.0;
    double building_max_h = 0.0;
    std::vector<std::int64_t> building_ratings;
    std::int64_t max_count = 0;  // validity_parts.MAX_COUNT (the frames' counters and lists)
};

// validity.check_battle's checks of values and references (ranges, ids that resolve, sizes),
// and validity_parts' checks of the frames (frames.hpp: check_frames), except the design
// legality check and validity_parts' checks of np/mission (not mirrored yet, docs/native.md).
// Throws wargym::StateError naming the field.
void check_battle(const Battle& battle, const StateLimits& limits);

}  // namespace wargym::no_quarter
