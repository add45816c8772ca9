// Mirror of envs/no_quarter/action_features.py ("nq-af-v1"): per legal action, what it leads to
// for the deciding side (concealed, gap, reach, weakness, exposed, covered).
//
// The legal actions come in a plain form (FeatureAction: the class, the mech, the end point,
// the target) that the bindings convert from the reference's Action objects. The numbers
// (TABLE_SIZE, table 17.2's cover rows, the line-of-sight table, the deep-water band) are
// handed in by the glue (FeatureTables); the line-of-sight terrain of a battlefield is built
// here from the battle state's Battlefield, as wargym.native.no_quarter.sight_terrain builds
// it from the reference's Battlefield.index.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "../battle/state.hpp"
#include "../sight_movement/sight.hpp"

namespace wargym::no_quarter {

// The action classes action_features tells apart (everything else is `other`).
enum class FeatureActionKind : std::uint8_t { move, free_move, stay, fire_first, other };

// One legal action of the codec's table {index: action}.
struct FeatureAction {
    std::int64_t index = 0;
    FeatureActionKind kind = FeatureActionKind::other;
    std::int64_t mech = 0;               // the acting mech (move, free move, stay, fire first)
    std::optional<Point> to;             // Move.to, FreeMove.to (None: holds position)
    std::optional<std::int64_t> target;  // getattr(action, "target") when it is an int
};

inline constexpr std::size_t kFeatureRows = 6;  // len(ACTION_FEATURES)

struct FeatureTables {
    double table_size = 0.0;                // action_features.TABLE_SIZE
    bool behind_building_cover = false;     // cover_config().behind_building_cover
    bool behind_mech_cover = false;         // cover_config().behind_mech_cover
    std::array<bool, 8> cover_moving{};     // inside_moving[kind] has "cover"
    std::array<bool, 8> cover_stationary{}; // inside_stationary[kind] has "cover"
    std::array<bool, 8> concealing{};       // cover_config().concealing()
    std::array<bool, 14> ranged{};          // ItemType.is_ranged_weapon
    std::array<bool, 14> ews{};             // ItemType.is_ews
    double shore_band = 0.0;                // terrain_config().deep_water_shore_band
    SightConfig sight{};                    // terrain_tables.sight_config()
};

// wargym.native.no_quarter.sight_terrain(bf) from the state's battlefield (Battlefield.index:
// building, hill, wood and well-lit rectangles in feature order, the deep-water cores).
SightTerrain sight_terrain_of(const Battlefield& bf, const FeatureTables& tables);

// action_features.action_features(battle, table, n, seen): writes the (6, n) row-major block
// into `out` (6 * n floats, zeroed first). Indices must be in 0..n-1 and the acting mechs in
// the battle (checked by the caller: check_feature_actions).
void action_features(const Battle& battle, const SightTerrain& terrain, const FeatureTables& tables,
                     std::span<const FeatureAction> table, std::int64_t n,
                     std::span<const std::int64_t> seen, float* out);

// Mech.has_functioning_ews: an EWS item that still works (ews_bonus > 0, §10.6.2)
bool has_functioning_ews(const Mech& mech, const FeatureTables& tables);

// Throws ArgumentError("actions") for an index out of 0..n-1, a repeated index (a dict has
// none), or an acting mech not in the battle (the reference's KeyError).
void check_feature_actions(const Battle& battle, std::span<const FeatureAction> table, std::int64_t n);

}  // namespace wargym::no_quarter
