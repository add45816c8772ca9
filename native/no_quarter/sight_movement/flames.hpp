// Mirror of rules/no_quarter/sight_movement/flames.py: the flame areas a move enters and those
// that hold a point (§10.4.2, ruling D27). The template sizes come from terrain_tables'
// terrain_config() (flame_strip_width, flame_circle_diameter), handed in (FlameSizes).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "geometry.hpp"

namespace wargym::no_quarter {

struct FlameSizes {
    double strip_width = 0.0;      // terrain_config().flame_strip_width
    double circle_diameter = 0.0;  // terrain_config().flame_circle_diameter
};

// flames.flame_area_hits: indices of the flame areas (shooter position, aimed point) the
// centre path enters (mover_radius > 0: the whole base); touching counts.
std::vector<std::int64_t> flame_area_hits(const FlameSizes& sizes, std::span<const Point> path,
                                          std::span<const std::array<Point, 2>> flames,
                                          double base_radius, double mover_radius = 0.0);
// flames.flames_at: indices of the flame areas holding point, borders included.
std::vector<std::int64_t> flames_at(const FlameSizes& sizes, Point point,
                                    std::span<const std::array<Point, 2>> flames,
                                    double base_radius);

}  // namespace wargym::no_quarter
