// Mirror of the line-of-sight part of rules/no_quarter/sight_movement/sight.py
// (§16.1.1, §17.1, ruling D11).
//
// SightTerrain holds what sight() reads from a Battlefield (its index) and from the
// line-of-sight table (configs/rules/no_quarter/line_of_sight.yaml): both are handed in from
// Python by wargym.native.no_quarter, so no limit or band is written down here.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "geometry.hpp"

namespace wargym::no_quarter {

struct Rect {
    double x0, y0, x1, y1;
};

struct Hill {
    Rect box;       // the hill's rectangle (the bounding-box reject)
    bool has_crest;
    Point crest_a;  // crest segment (campaign ruling 19.6)
    Point crest_b;
};

// terrain_tables.SightConfig, field for field.
struct SightConfig {
    double night;
    double inside_woods_day;
    double inside_woods_night;
    double weather_day;
    double weather_night;
    bool well_lit_lifts_weather;
    double woods_edge_band;
    double hill_crest_band;
};

struct SightTerrain {
    std::vector<Rect> buildings;  // Battlefield.index.building_rects
    std::vector<Hill> hills;      // Battlefield.index.hills
    std::vector<Rect> woods;      // Battlefield.index.wood_rects
    std::vector<Rect> deep_core;  // Battlefield.index.deep_core (open rectangles)
    std::vector<Rect> well_lit;   // rectangles of the well-lit features (closed)
    bool night = false;
    bool inclement_weather = false;
    SightConfig config{};
};

struct Body {
    std::int64_t id;
    double x, y, radius;
};

// The side of a partly blocked line (sight.Sight.blocked_side); not forces/vocab.hpp's Side.
enum class BlockedSide : std::int8_t { none = -1, left = 0, right = 1 };

// sight.Sight, field for field.
struct SightResult {
    bool visible;
    int clear_lines;
    int building_blocked_lines;
    int mech_blocked_lines;
    BlockedSide blocked_side;
    double distance;
    double bearing_to_observer;
};

// sight.sight(): three-line LOS from observer to target; bodies with observer_id or target_id
// are ignored; base_radius is the target's base radius (ruling D1).
SightResult sight(const SightTerrain& terrain, Point observer, Point target,
                  std::int64_t observer_id, std::int64_t target_id,
                  std::span<const Body> bodies, bool observer_has_ews, double base_radius);

// sight._crosses_rect: segment ab runs through the rectangle for more than a touching point.
bool crosses_rect(double ax, double ay, double bx, double by, double x0, double y0, double x1,
                  double y1);

// The minimum clipped length that counts as crossing (sight._crosses_rect's 1e-7).
inline constexpr double kCrossingLength = 1e-7;

}  // namespace wargym::no_quarter
