// Mirror of rules/no_quarter/sight_movement/movement_geometry.py and of the movement cost of
// rules/no_quarter/battlefield/roads.py: costs, legal paths, Duck Back, leaving (§15.2, D5-D10,
// campaign rulings 19.7, 19.8, 19.12).
//
// MoveTerrain holds what the movement functions read from a Battlefield (its index) and from the
// terrain and cover tables (terrain_tables.terrain_config(), cover_config()) plus the engine's
// move constants (MoveTables): the Python glue wargym.native.no_quarter.movement builds it, so no
// rate, band or distance of the books is written down here. Every function does the same float
// operations in the same order as its Python twin (tests/native/test_movement_agreement.py).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "geometry.hpp"
#include "sight.hpp"

namespace wargym::no_quarter {

// The four table edges in terrain.EDGES order.
enum class Edge : std::uint8_t { north, south, east, west };
inline constexpr const char* kEdgeNames[4] = {"north", "south", "east", "west"};

// Numbers the movement reads from the reference's tables and modules, handed in by the glue.
struct MoveTables {
    double deep_water_inches_per_turn = 0.0;  // terrain_config() (§19.7.1: 2")
    bool road_per_inch = false;               // terrain_config().road_per_inch (ruling 19.8)
    bool behind_building_cover = false;       // cover_config() (§17.2)
    bool behind_mech_cover = false;
    double reverse_fraction = 0.0;            // flow_mech.REVERSE_FRACTION (§15.2.2, D23)
    double near = 0.0;                        // game.NEAR (one option per near point)
    double landing_step = 0.0;                // jump_landing.LANDING_STEP
    double bump_gap = 0.0;                    // bumping.BUMP_GAP (choice E5)
    double jump_backoff = 0.0;                // bumping.JUMP_BACKOFF
};

// One entry of Battlefield.index.half_speed; wet: its rectangle is a river's or deep water's.
struct HalfSpeed {
    Rect rect;
    double rate;
    bool wet;
};

struct MoveTerrain {
    double width = 36.0;
    double height = 36.0;
    std::vector<Rect> buildings;         // index.building_rects
    std::vector<HalfSpeed> half_speed;   // index.half_speed
    std::vector<Rect> deep_core;         // index.deep_core (open rectangles)
    std::vector<Rect> roads;             // index.roads' rectangles
    std::vector<Rect> concealing;        // sight._rects(bf, "concealing")
    std::vector<Rect> cover_moving;      // sight._rects(bf, "cover_moving")
    std::vector<Rect> cover_stationary;  // sight._rects(bf, "cover_stationary")
    SightTerrain sight;                  // for Duck Back's and the fog's lines of sight
    MoveTables tables;
};

// roads.Span: cost per inch over a parameter interval of a segment.
struct Span {
    double t0, t1, rate;
};

// Python's float builtins, for the same doubles: round(x, n), x % m, min(a, b), max(a, b).
double pyround(double x, int ndigits);
double pymod(double x, double m);
inline double pymin(double a, double b) { return b < a ? b : a; }
inline double pymax(double a, double b) { return b > a ? b : a; }
// sum() of floats as this CPython sums them (plain before 3.12, compensated from 3.12).
double pysum(std::span<const double> values);
void set_compensated_sum(bool on);  // set once by the bindings from the running Python

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
