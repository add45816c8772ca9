// Mirror of rules/no_quarter/sight_movement/sight.py's blocked_arm and protected_locations: the
// locations a hit cannot damage from this observer (§17.2.1, ruling D13). Kept apart from
// sight.hpp (owned by the sight port); table 17.2.1's sets come from terrain_tables.cover_config()
// and sight_config().hill_crest_band through the glue (ProtectionTables).
#pragma once

#include <vector>

#include "../forces/vocab.hpp"
#include "geometry.hpp"
#include "movement_geometry.hpp"
#include "sight.hpp"

namespace wargym::no_quarter {

struct ProtectionTables {
    std::vector<Location> partial_building;       // cover_config().partial_building
    bool blocked_side_arm = false;                // cover_config().blocked_side_arm
    std::vector<Location> hill_crest_band;        // cover_config().hill_crest_band
    std::vector<Location> river;                  // cover_config().river
    std::vector<Location> deep_water_shore_band;  // cover_config().deep_water_shore_band
    double hill_crest_band_inches = 0.0;          // sight_config().hill_crest_band
    std::vector<Hill> hills;                      // Battlefield.index.hills
    std::vector<Rect> rivers;                     // Battlefield.index.rivers (closed)
    std::vector<Rect> deep;                       // Battlefield.index.deep (closed)
};

// sight.blocked_arm: the arm on the blocked side of a partly obscured target (D13).
Location blocked_arm(double target_heading, double bearing_to_observer, BlockedSide side);
// sight.protected_locations (a set: each location once, in no particular order). move: for
// bf.on_road and bf.in_deep_water.
std::vector<Location> protected_locations(const ProtectionTables& t, const MoveTerrain& move,
                                          const SightResult& s, Point target, double target_heading);

}  // namespace wargym::no_quarter
