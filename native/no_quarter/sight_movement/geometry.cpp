// Mirror of rules/no_quarter/sight_movement/geometry.py (see geometry.hpp).
#include "geometry.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "../../errors.hpp"

namespace wargym::no_quarter {

namespace {

constexpr double kPi = 3.14159265358979323846;  // Py_MATH_PI
constexpr double kRadToDeg = 180.0 / kPi;
constexpr double kDegToRad = kPi / 180.0;

// Error-free product (Dekker, with Veltkamp's split; the same pair std::fma would give, without
// a libm call on CPUs built without FMA) and sum: the exact rounding error rides in ``err``.
inline void split(double x, double& hi, double& lo) {
    const double t = 134217729.0 * x;  // 2**27 + 1
    hi = t - (t - x);
    lo = x - hi;
}
inline void exact_product(double x, double y, double& prod, double& err) {
    double xh, xl, yh, yl;
    prod = x * y;
    split(x, xh, xl);
    split(y, yh, yl);
    err = ((xh * yh - prod) + xh * yl + xl * yh) + xl * yl;
}
inline void exact_fast_sum(double a, double b, double& sum, double& err) {
    sum = a + b;
    err = (a - sum) + b;
}

double cross(Point o, Point a, Point b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

bool on_segment(Point a, Point b, Point p) {
    return std::min(a.x, b.x) - kEps <= p.x && p.x <= std::max(a.x, b.x) + kEps &&
           std::min(a.y, b.y) - kEps <= p.y && p.y <= std::max(a.y, b.y) + kEps;
}

double bearing(Point target_pos, double target_heading, Point attacker) {
    if (distance(target_pos, attacker) <= kEps) return 0.0;
    return angle_between(target_heading, heading_to(target_pos, attacker));
}

}  // namespace

double pyhypot(double x, double y) {
    // CPython's vector_norm for two coordinates: scale by a power of two so the larger one lies
    // in [0.5, 1), square exactly, add with compensation around a leading 1.0, take the root
    // and apply one differential (Newton) correction.
    x = std::fabs(x);
    y = std::fabs(y);
    if (std::isinf(x) || std::isinf(y)) return INFINITY;
    if (std::isnan(x) || std::isnan(y)) return NAN;
    const double top = x > y ? x : y;
    if (top == 0.0) return top;
    int exponent;
    std::frexp(top, &exponent);
    const double coords[2] = {x, y};
    if (exponent < -1023) {  // subnormal: divide by the larger coordinate instead
        double acc = 1.0, lost = 0.0;
        for (double c : coords) {
            c /= top;
            c = c * c;
            const double before = acc;
            acc += c;
            lost += (before - acc) + c;
        }
        return top * std::sqrt(acc - 1.0 + lost);
    }
    const double scale = std::ldexp(1.0, -exponent);
    double acc = 1.0, lost_products = 0.0, lost_sums = 0.0, prod, prod_err, sum, sum_err;
    for (double c : coords) {
        c *= scale;
        exact_product(c, c, prod, prod_err);
        exact_fast_sum(acc, prod, sum, sum_err);
        acc = sum;
        lost_products += prod_err;
        lost_sums += sum_err;
    }
    double root = std::sqrt(acc - 1.0 + (lost_products + lost_sums));
    exact_product(-root, root, prod, prod_err);
    exact_fast_sum(acc, prod, sum, sum_err);
    acc = sum;
    lost_products += prod_err;
    lost_sums += sum_err;
    const double residual = acc - 1.0 + (lost_products + lost_sums);
    root += residual / (2.0 * root);
    return root / scale;
}

double degrees(double rad) { return rad * kRadToDeg; }
double radians(double deg) { return deg * kDegToRad; }

double distance(Point a, Point b) { return pyhypot(b.x - a.x, b.y - a.y); }

double normalize(double deg) {
    double value = std::fmod(deg, 360.0);
    if (value < 0.0) value += 360.0;
    if (value >= 360.0) value = 0.0;  // -1e-17 + 360.0 rounds to 360.0
    return value;
}

double heading_to(Point a, Point b) {
    const double dx = b.x - a.x;
    const double dy = b.y - a.y;
    if (dx == 0.0 && dy == 0.0) return 0.0;
    return normalize(degrees(std::atan2(dy, dx)));
}

double angle_between(double h1, double h2) {
    const double diff = std::fabs(std::fmod(h1 - h2, 360.0));
    return diff > 180.0 ? 360.0 - diff : diff;
}

Point unit(double deg) {
    const double rad = radians(deg);
    return {std::cos(rad), std::sin(rad)};
}

bool in_arc(Point origin, double facing, Point point, double half_angle) {
    const double dx = point.x - origin.x;
    const double dy = point.y - origin.y;
    const double length = pyhypot(dx, dy);
    if (length <= kEps) return true;
    if (half_angle >= 180.0) return true;
    const double rad = radians(facing);
    const double cos_angle = (dx * std::cos(rad) + dy * std::sin(rad)) / length;
    const double cos_half = std::cos(radians(half_angle));  // _COS_90 is this for 90.0
    return cos_angle >= cos_half - kArcEps;
}

Aspect aspect(Point target_pos, double target_heading, Point attacker_start, Point attacker_end) {
    const double end = bearing(target_pos, target_heading, attacker_end);
    if (end > kRearBearing + kEps) {
        const double start = bearing(target_pos, target_heading, attacker_start);
        if (start > kRearBearing + kEps) return Aspect::rear;
    }
    if (end > kFlankBearing + kEps) return Aspect::flank;
    return Aspect::front;
}

Point step_toward(Point a, Point b, double dist) {
    const double length = distance(a, b);
    if (length <= kEps) return a;
    const double f = dist / length;
    return {a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f};
}

double path_length(std::span<const Point> path) {
    double total = 0.0;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) total += distance(path[i], path[i + 1]);
    return total;
}

Point point_along(std::span<const Point> path, double dist) {
    if (path.empty()) throw ArgumentError("path", "point_along needs at least one point");
    if (dist <= 0.0) return path[0];
    double remaining = dist;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        const double seg = distance(path[i], path[i + 1]);
        if (remaining <= seg) return step_toward(path[i], path[i + 1], remaining);
        remaining -= seg;
    }
    return path.back();
}

double point_segment_distance(Point p, Point a, Point b) {
    const double dx = b.x - a.x;
    const double dy = b.y - a.y;
    const double len2 = dx * dx + dy * dy;
    if (len2 <= 0.0) return pyhypot(p.x - a.x, p.y - a.y);
    double t = ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2;
    if (t < 0.0) {
        t = 0.0;
    } else if (t > 1.0) {
        t = 1.0;
    }
    return pyhypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

bool segment_hits_circle(Point a, Point b, Point centre, double radius) {
    return point_segment_distance(centre, a, b) < radius - kEps;
}

bool segments_intersect(Point a, Point b, Point c, Point d) {
    const double d1 = cross(c, d, a);
    const double d2 = cross(c, d, b);
    const double d3 = cross(a, b, c);
    const double d4 = cross(a, b, d);
    if (((d1 > kEps && d2 < -kEps) || (d1 < -kEps && d2 > kEps)) &&
        ((d3 > kEps && d4 < -kEps) || (d3 < -kEps && d4 > kEps))) {
        return true;
    }
    return (std::fabs(d1) <= kEps && on_segment(c, d, a)) ||
           (std::fabs(d2) <= kEps && on_segment(c, d, b)) ||
           (std::fabs(d3) <= kEps && on_segment(a, b, c)) ||
           (std::fabs(d4) <= kEps && on_segment(a, b, d));
}

std::optional<std::pair<double, double>> clip_segment_to_rect(Point a, Point b, double x0,
                                                              double y0, double x1, double y1) {
    double t0 = 0.0;
    double t1 = 1.0;
    const double dx = b.x - a.x;
    const double dy = b.y - a.y;
    const double ps[4] = {-dx, dx, -dy, dy};
    const double qs[4] = {a.x - x0, x1 - a.x, a.y - y0, y1 - a.y};
    for (int i = 0; i < 4; ++i) {
        const double p = ps[i];
        const double q = qs[i];
        if (p == 0.0) {
            if (q < 0.0) return std::nullopt;
        } else {
            const double r = q / p;
            if (p < 0.0) {
                if (r > t1) return std::nullopt;
                if (r > t0) t0 = r;
            } else {
                if (r < t0) return std::nullopt;
                if (r < t1) t1 = r;
            }
        }
    }
    return std::make_pair(t0, t1);
}

double point_rect_distance(Point p, double x0, double y0, double x1, double y1) {
    const double dx = p.x < x0 ? x0 - p.x : (p.x > x1 ? p.x - x1 : 0.0);
    const double dy = p.y < y0 ? y0 - p.y : (p.y > y1 ? p.y - y1 : 0.0);
    return pyhypot(dx, dy);
}

double segment_rect_distance(Point a, Point b, double x0, double y0, double x1, double y1) {
    if (clip_segment_to_rect(a, b, x0, y0, x1, y1)) return 0.0;
    double best = std::min(point_rect_distance(a, x0, y0, x1, y1),
                           point_rect_distance(b, x0, y0, x1, y1));
    const Point corners[4] = {{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}};
    for (Point corner : corners) best = std::min(best, point_segment_distance(corner, a, b));
    return best;
}

}  // namespace wargym::no_quarter
