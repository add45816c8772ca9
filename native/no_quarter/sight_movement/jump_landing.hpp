// Mirror of rules/no_quarter/sight_movement/jump_landing.py: where an involuntary jump lands
// (§10.6.1, rulings D9, D10, D28). LANDING_STEP comes in MoveTerrain::tables.
#pragma once

#include <optional>
#include <span>

#include "movement_geometry.hpp"

namespace wargym::no_quarter {

// beyond_edge: whether the centre p has crossed edge (nullopt: no edge is open).
bool beyond_edge(const MoveTerrain& t, Point p, std::optional<Edge> edge);
// landing_ok: whether a jump of length may land at p (ruling D28); past open_edge it exits.
bool landing_ok(const MoveTerrain& t, Point p, double length, std::span<const Body> others,
                double radius, std::optional<Edge> open_edge = std::nullopt);
// furthest_landing: the longest jump (at most max_s) along unit u that lands legally, or 0.
double furthest_landing(const MoveTerrain& t, Point start, Point u, double max_s,
                        std::span<const Body> others, double radius,
                        std::optional<Edge> open_edge = std::nullopt);

}  // namespace wargym::no_quarter
