// Mirror of rules/no_quarter/sight_movement/geometry.py: points, headings, arcs and aspect (§6, rulings D1-D4).
//
// Every function performs the same floating-point operations in the same order as its Python
// twin, so both engines give the same doubles (tests/native/test_geometry_agreement.py checks
// this bit for bit). Lengths use pyhypot(), which reproduces CPython's math.hypot rounding;
// std::hypot differs from it in the last bit about once in 200 calls.
#pragma once

#include <optional>
#include <span>
#include <utility>

namespace wargym::no_quarter {

struct Point {
    double x;
    double y;
};

// Tolerances of the Python module (geometry.EPS, in_arc's 1e-12); the bindings expose them and
// a test checks they equal the Python ones. They are float tolerances, not rules numbers.
inline constexpr double kEps = 1e-9;
inline constexpr double kArcEps = 1e-12;
// Aspect bearings of ruling D4 (geometry._FLANK_BEARING, geometry._REAR_BEARING).
inline constexpr double kFlankBearing = 45.0;
inline constexpr double kRearBearing = 90.0;

enum class Aspect { front = 0, flank = 1, rear = 2 };

// math.hypot(x, y) exactly as CPython 3.11+ computes it.
double pyhypot(double x, double y);
// math.degrees / math.radians.
double degrees(double rad);
double radians(double deg);

double distance(Point a, Point b);
double normalize(double deg);
double heading_to(Point a, Point b);
double angle_between(double h1, double h2);
Point unit(double deg);
bool in_arc(Point origin, double facing, Point point, double half_angle = 90.0);
Aspect aspect(Point target_pos, double target_heading, Point attacker_start, Point attacker_end);
Point step_toward(Point a, Point b, double dist);
double path_length(std::span<const Point> path);
Point point_along(std::span<const Point> path, double dist);  // path must not be empty
double point_segment_distance(Point p, Point a, Point b);
bool segment_hits_circle(Point a, Point b, Point centre, double radius);
bool segments_intersect(Point a, Point b, Point c, Point d);
std::optional<std::pair<double, double>> clip_segment_to_rect(Point a, Point b, double x0,
                                                              double y0, double x1, double y1);
double point_rect_distance(Point p, double x0, double y0, double x1, double y1);
double segment_rect_distance(Point a, Point b, double x0, double y0, double x1, double y1);

}  // namespace wargym::no_quarter
