// Mirror of rules/no_quarter/battlefield/roads.py: the cost per inch along a segment, roads
// and bridges (§19.8, §19.7 rulings, ruling D5), and the Battlefield point tests the movement
// uses (is_on_table, in_deep_water, on_road), over a MoveTerrain.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "../sight_movement/move_terrain.hpp"

namespace wargym::no_quarter {

// Battlefield.is_on_table, in_deep_water, on_road.
bool is_on_table(const MoveTerrain& t, Point p, double margin = 0.0);
bool in_deep_water(const MoveTerrain& t, Point p);
bool on_road(const MoveTerrain& t, Point p);

// roads.py: segment_on_road, path_on_road, profile (on_road nullopt: judge the segment alone).
bool segment_on_road(const MoveTerrain& t, Point a, Point b);
bool path_on_road(const MoveTerrain& t, std::span<const Point> path,
                  std::optional<std::int64_t> jump_segment);
std::vector<Span> profile(const MoveTerrain& t, Point a, Point b,
                          std::optional<bool> on_road = std::nullopt);

}  // namespace wargym::no_quarter
