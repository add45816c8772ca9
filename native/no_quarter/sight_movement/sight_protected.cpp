// Mirror of sight.blocked_arm and sight.protected_locations (sight_protected.hpp).
#include "sight_protected.hpp"

#include <algorithm>
#include <cmath>

namespace wargym::no_quarter {

namespace {

// The reference's literal 1e-9 of blocked_arm (a float tolerance, not a rules number).
constexpr double kSideOnEps = 1e-9;

void add(std::vector<Location>& out, Location l) {
    if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(l);
}
void add_all(std::vector<Location>& out, const std::vector<Location>& more) {
    for (Location l : more) add(out, l);
}
bool contains(const Rect& r, Point p) { return r.x0 <= p.x && p.x <= r.x1 && r.y0 <= p.y && p.y <= r.y1; }

}  // namespace

// sight.blocked_arm
Location blocked_arm(double target_heading, double bearing_to_observer, BlockedSide side) {
    const double blocked = bearing_to_observer + (side == BlockedSide::left ? 90.0 : -90.0);
    const double own_left = target_heading + 90.0;
    const double dot = std::cos(radians(angle_between(blocked, own_left)));
    if (dot > kSideOnEps) return Location::arm_l;
    if (dot < -kSideOnEps) return Location::arm_r;
    const double away = std::cos(radians(angle_between(own_left, bearing_to_observer)));
    return away < 0.0 ? Location::arm_l : Location::arm_r;
}

// sight.protected_locations
std::vector<Location> protected_locations(const ProtectionTables& t, const MoveTerrain& move,
                                          const SightResult& s, Point target, double target_heading) {
    std::vector<Location> out;
    if (s.visible && s.building_blocked_lines > 0) {
        add_all(out, t.partial_building);
        if (t.blocked_side_arm && s.blocked_side != BlockedSide::none) {
            add(out, blocked_arm(target_heading, s.bearing_to_observer, s.blocked_side));
        }
    }
    for (const Hill& h : t.hills) {
        if (h.has_crest && point_segment_distance(target, h.crest_a, h.crest_b) <= t.hill_crest_band_inches + kEps) {
            add_all(out, t.hill_crest_band);
            break;
        }
    }
    if ((!t.rivers.empty() || !t.deep.empty()) && !on_road(move, target)) {
        if (std::any_of(t.rivers.begin(), t.rivers.end(), [&](const Rect& r) { return contains(r, target); })) {
            add_all(out, t.river);
        }
        if (std::any_of(t.deep.begin(), t.deep.end(), [&](const Rect& r) { return contains(r, target); }) &&
            !in_deep_water(move, target)) {
            add_all(out, t.deep_water_shore_band);
        }
    }
    return out;
}

}  // namespace wargym::no_quarter
