// Mirror of rules/no_quarter/sight_movement/movement_geometry.py and of the movement cost of
// rules/no_quarter/battlefield/roads.py: costs, legal paths, Duck Back, leaving (§15.2, D5-D10,
// campaign rulings 19.7, 19.8, 19.12).
//
// The functions take a MoveTerrain (move_terrain.hpp): what they read from a Battlefield and
// the terrain, cover and move tables, handed in by the Python glue. The cost along a segment is
// battlefield/roads.hpp's profile(). Every function does the same float operations in the same
// order as its Python twin (tests/native/test_movement_geometry_agreement.py).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../battlefield/roads.hpp"
#include "geometry.hpp"
#include "move_terrain.hpp"
#include "pyfloat.hpp"
#include "sight.hpp"

namespace wargym::no_quarter {

// movement_geometry.py
double move_cost(const MoveTerrain& t, Point a, Point b, bool jumping = false,
                 std::optional<bool> on_road = std::nullopt);
double path_cost(const MoveTerrain& t, std::span<const Point> path,
                 std::optional<std::int64_t> jump_segment = std::nullopt);
bool enters_deep_water(const MoveTerrain& t, std::span<const Point> path,
                       std::optional<std::int64_t> jump_segment = std::nullopt);
double deep_water_allowance(const MoveTerrain& t, double allowance);
double affordable(const MoveTerrain& t, Point a, Point u, double max_s, double budget);
std::optional<std::string> path_problem(const MoveTerrain& t, std::span<const Point> path,
                                        std::int64_t mover_id, std::span<const Body> bodies,
                                        double radius, std::optional<std::int64_t> jump_segment,
                                        bool allow_off_table);
bool straight_ok(const MoveTerrain& t, Point a, Point c, std::span<const Body> others,
                 double radius);
bool straight_ok_near(Point a, Point c, std::span<const Rect> rects,
                      std::span<const Body> others, double radius);
double furthest_clear(const MoveTerrain& t, Point a, Point u, double max_s,
                      std::span<const Body> others, double radius,
                      std::optional<Edge> open_edge = std::nullopt);
std::vector<Point> move_candidates(const MoveTerrain& t, Point pos, double allowance,
                                   std::int64_t mover_id, std::span<const Body> bodies,
                                   double radius, std::int64_t directions,
                                   std::span<const double> fractions);
// _terrain_candidates_of (the reference memoises it; the result is the same either way).
std::vector<Point> terrain_candidates(const MoveTerrain& t, Point pos, double allowance,
                                      double radius, std::int64_t directions,
                                      std::span<const double> fractions);

// geometry.lattice_offsets: (dx, dy, length) nearest first, length rounded to 9 digits.
struct Offset {
    double dx, dy, length;
};
std::vector<Offset> lattice_offsets(double max_dist, double step);

struct DuckBack {
    Point to;
    bool jump;
};
struct DuckBackArgs {
    double max_dist = 0.0;
    double speed = 0.0;
    std::int64_t mover_id = 0;
    std::int64_t cause_id = 0;
    double radius = 0.5;
    bool cause_has_ews = false;
    bool moved_this_turn = false;
    double step = 0.5;
    bool jump_jets = false;
};
DuckBack duck_back_move(const MoveTerrain& t, Point pos, Point cause,
                        std::span<const Body> bodies, const DuckBackArgs& args);
bool walkable(const MoveTerrain& t, Point pos, Point c, double length,
              std::span<const Rect> near_rects, std::span<const Body> near, double radius,
              double max_dist);

// nearest_edge_away: home_edge wins; enemy nullopt: none (nullopt: no edge qualifies, "").
std::optional<Edge> nearest_edge_away(const MoveTerrain& t, Point pos, std::optional<Point> enemy,
                       std::optional<Edge> home_edge);
struct Leave {
    Point to;
    bool exited;
    bool jumped;
};
Leave leave_move_to(const MoveTerrain& t, Point pos, Edge edge, double dist,
                    std::int64_t mover_id, std::span<const Body> bodies, double radius,
                    bool jump_jets);

// The headings a leaving mech tries, in order (movement_geometry.leave_move_to's offsets, D10).
inline constexpr double kLeaveDeflections[9] = {0.0,  20.0,  -20.0, 40.0, -40.0,
                                                60.0, -60.0, 80.0,  -80.0};

}  // namespace wargym::no_quarter
