// Mirror of pef.covered (rules/no_quarter/non_player/pef.py) over sight.is_concealed and
// sight.in_cover (rules/no_quarter/sight_movement/sight.py).
#include "pef.hpp"

#include <vector>

#include "../sight_movement/perception.hpp"

namespace wargym::no_quarter {

namespace {

bool pef_inside(const std::vector<Rect>& rects, Point pos) {  // sight._inside
    for (const Rect& r : rects) {
        if (r.x0 <= pos.x && pos.x <= r.x1 && r.y0 <= pos.y && pos.y <= r.y1) return true;
    }
    return false;
}

}  // namespace

bool covered(const SightTerrain& sight_terrain, const CoverTerrain& cover, Point p,
             std::optional<Point> viewer, std::span<const Body> bodies, double base_radius) {
    if (pef_inside(cover.concealing, p)) return true;  // sight.is_concealed
    if (!viewer) return false;
    const SightResult line = sight(sight_terrain, *viewer, p, -1, -1, bodies, false, base_radius);
    if (line.building_blocked_lines > 0) return true;
    // sight.in_cover(bf, line, p, target_moved=False)
    if (line.visible && ((cover.behind_building_cover && line.building_blocked_lines > 0) ||
                         (cover.behind_mech_cover && line.mech_blocked_lines > 0))) {
        return true;
    }
    return pef_inside(cover.cover_stationary, p);
}

}  // namespace wargym::no_quarter
