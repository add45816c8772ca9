// The part of rules/no_quarter/non_player/pef.py the NP procedure reads: Spotter and covered
// (§17.2, §20.3, ruling 20.2). The PEF markers' own rules (movement, resolution) are not
// mirrored here yet.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "../sight_movement/geometry.hpp"
#include "../sight_movement/sight.hpp"

namespace wargym::no_quarter {

struct CoverTerrain;

// pef.Spotter: a mech as the PEF and NP rules see it (§20.3).
struct Spotter {
    std::int64_t id = 0;
    Point pos{0.0, 0.0};
    std::int64_t group = -1;
    bool ews = false;
    double facing = 0.0;
};

// pef.covered: a marker at ``p`` is in cover or concealed against ``viewer`` (§17.2, ruling
// 20.2). base_radius: sight()'s default (the glue reads it off the reference's signature).
bool covered(const SightTerrain& sight_terrain, const CoverTerrain& cover, Point p,
             std::optional<Point> viewer, std::span<const Body> bodies, double base_radius);

}  // namespace wargym::no_quarter
