// Mirror of rules/no_quarter/sight_movement/sight.py's sight() and its _Line (see sight.hpp).
#include "sight.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wargym::no_quarter {

namespace {

constexpr int kBuilding = 1;
constexpr int kMech = 2;
constexpr int kOther = 4;

inline bool in_closed(const Rect& r, double x, double y) {
    return r.x0 <= x && x <= r.x1 && r.y0 <= y && y <= r.y1;
}

// point_segment_distance on plain floats (sight._gap).
inline double gap(double px, double py, double ax, double ay, double bx, double by) {
    return point_segment_distance({px, py}, {ax, ay}, {bx, by});
}

// One Liang-Barsky edge; false when the segment misses the rectangle.
inline bool clip_edge(double p, double q, double& t0, double& t1) {
    if (p == 0.0) return !(q < 0.0);
    const double r = q / p;
    if (p < 0.0) {
        if (r > t1) return false;
        if (r > t0) t0 = r;
    } else {
        if (r < t0) return false;
        if (r < t1) t1 = r;
    }
    return true;
}

// What a sight line owes to the terrain (sight._Line).
struct Line {
    double d = 0.0;
    double bearing = 0.0;
    bool submerged = false;
    bool same_wood = false;
    bool lit = false;
    int f[3] = {0, 0, 0};
    Point left{}, right{};
    double bx0 = 0.0, bx1 = 0.0, by0 = 0.0, by1 = 0.0;
};

bool in_deep_water(const SightTerrain& t, Point p) {
    for (const Rect& c : t.deep_core) {
        if (c.x0 < p.x && p.x < c.x1 && c.y0 < p.y && p.y < c.y1) return true;
    }
    return false;
}

void terrain_lines(const SightTerrain& t, Point observer, Point target, double base_radius,
                   Line& line) {
    const double ox = observer.x, oy = observer.y, tx = target.x, ty = target.y;
    const double dx = tx - ox;
    const double dy = ty - oy;
    const double d = line.d;
    // Left of the target as it faces the observer: the facing (-dx, -dy) turned +90 degrees.
    const double lx = dy / d * base_radius;
    const double ly = -dx / d * base_radius;
    line.left = {tx + lx, ty + ly};
    line.right = {tx - lx, ty - ly};
    const double bx0 = line.bx0 = std::min(ox, tx - std::fabs(lx));
    const double bx1 = line.bx1 = std::max(ox, tx + std::fabs(lx));
    const double by0 = line.by0 = std::min(oy, ty - std::fabs(ly));
    const double by1 = line.by1 = std::max(oy, ty + std::fabs(ly));
    const Point ends[3] = {target, line.left, line.right};
    int* flags = line.f;

    for (const Rect& r : t.buildings) {
        if (r.x1 < bx0 || r.x0 > bx1 || r.y1 < by0 || r.y0 > by1) continue;
        for (int i = 0; i < 3; ++i) {
            if (!(flags[i] & kBuilding) &&
                crosses_rect(ox, oy, ends[i].x, ends[i].y, r.x0, r.y0, r.x1, r.y1)) {
                flags[i] |= kBuilding;
            }
        }
    }

    if (!t.hills.empty()) {
        const double band = t.config.hill_crest_band;
        for (const Hill& h : t.hills) {
            if (!h.has_crest || h.box.x1 < bx0 || h.box.x0 > bx1 || h.box.y1 < by0 ||
                h.box.y0 > by1) {
                continue;
            }
            if (point_segment_distance(observer, h.crest_a, h.crest_b) <= band + kEps ||
                point_segment_distance(target, h.crest_a, h.crest_b) <= band + kEps) {
                continue;
            }
            for (int i = 0; i < 3; ++i) {
                if (segments_intersect(observer, ends[i], h.crest_a, h.crest_b)) {
                    flags[i] |= kOther;
                }
            }
        }
    }

    if (!t.woods.empty()) {
        const double band = t.config.woods_edge_band;
        for (const Rect& w : t.woods) {
            if (w.x1 < bx0 || w.x0 > bx1 || w.y1 < by0 || w.y0 > by1) continue;
            const bool obs_in = in_closed(w, ox, oy);
            const bool tgt_in = in_closed(w, tx, ty);
            if (obs_in && tgt_in) continue;  // same wood: only the distance limit applies
            Rect c = w;
            if (obs_in || tgt_in) {
                c = {w.x0 + band, w.y0 + band, w.x1 - band, w.y1 - band};
                if (c.x0 >= c.x1 || c.y0 >= c.y1) continue;  // all of it is edge band
            }
            for (int i = 0; i < 3; ++i) {
                if (crosses_rect(ox, oy, ends[i].x, ends[i].y, c.x0, c.y0, c.x1, c.y1)) {
                    flags[i] |= kOther;
                }
            }
        }
    }
}

SightResult result(const Line& line, int f0, int f1, int f2) {
    const int clear = (f0 == 0) + (f1 == 0) + (f2 == 0);
    BlockedSide side = BlockedSide::none;
    if (clear && clear < 3) {
        if (f1 && !f2) {
            side = BlockedSide::left;
        } else if (f2 && !f1) {
            side = BlockedSide::right;
        }
    }
    return {clear > 0,
            clear,
            (f0 & kBuilding) + (f1 & kBuilding) + (f2 & kBuilding),
            ((f0 & kMech) + (f1 & kMech) + (f2 & kMech)) / kMech,
            side,
            line.d,
            line.bearing};
}

SightResult hidden(const Line& line) {
    return {false, 0, 0, 0, BlockedSide::none, line.d, line.bearing};
}

}  // namespace

bool crosses_rect(double ax, double ay, double bx, double by, double x0, double y0, double x1,
                  double y1) {
    double t0 = 0.0;
    double t1 = 1.0;
    const double dx = bx - ax;
    const double dy = by - ay;
    if (!clip_edge(-dx, ax - x0, t0, t1)) return false;
    if (!clip_edge(dx, x1 - ax, t0, t1)) return false;
    if (!clip_edge(-dy, ay - y0, t0, t1)) return false;
    if (!clip_edge(dy, y1 - ay, t0, t1)) return false;
    return (t1 - t0) * pyhypot(dx, dy) > kCrossingLength;
}

SightResult sight(const SightTerrain& t, Point observer, Point target, std::int64_t observer_id,
                  std::int64_t target_id, std::span<const Body> bodies, bool observer_has_ews,
                  double base_radius) {
    Line line;
    const double ox = observer.x, oy = observer.y, tx = target.x, ty = target.y;
    line.d = pyhypot(tx - ox, ty - oy);
    line.bearing = heading_to(target, observer);
    line.submerged = !t.deep_core.empty() && (in_deep_water(t, observer) || in_deep_water(t, target));
    for (const Rect& w : t.woods) {
        if (in_closed(w, ox, oy) && in_closed(w, tx, ty)) {
            line.same_wood = true;
            break;
        }
    }
    for (const Rect& r : t.well_lit) {
        if (in_closed(r, tx, ty)) {
            line.lit = true;
            break;
        }
    }
    if (!line.submerged && line.d > kEps) terrain_lines(t, observer, target, base_radius, line);

    if (line.submerged) return hidden(line);
    const double d = line.d;
    const SightConfig& cfg = t.config;
    if (!observer_has_ews && (t.night || t.inclement_weather || line.same_wood)) {
        double limit = std::numeric_limits<double>::infinity();
        const bool lit = t.night && line.lit;
        if (t.night && !lit) limit = cfg.night;
        if (t.inclement_weather && !(lit && cfg.well_lit_lifts_weather)) {
            limit = std::min(limit, t.night ? cfg.weather_night : cfg.weather_day);
        }
        if (line.same_wood) {
            limit = std::min(limit, t.night ? cfg.inside_woods_night : cfg.inside_woods_day);
        }
        if (d > limit + kEps) return hidden(line);
    }
    if (d <= kEps) return result(line, 0, 0, 0);

    int f0 = line.f[0], f1 = line.f[1], f2 = line.f[2];
    if (!bodies.empty()) {
        const double bx0 = line.bx0, by0 = line.by0, bx1 = line.bx1, by1 = line.by1;
        for (const Body& body : bodies) {
            if (body.id == observer_id || body.id == target_id) continue;
            const double cx = body.x, cy = body.y, r = body.radius;
            if (cx + r < bx0 || cx - r > bx1 || cy + r < by0 || cy - r > by1) continue;
            // the side lines never stray more than base_radius from the centre line
            const double g = gap(cx, cy, ox, oy, tx, ty);
            if (g >= r + base_radius) continue;
            if (g < r - kEps) f0 |= kMech;
            if (gap(cx, cy, ox, oy, line.left.x, line.left.y) < r - kEps) f1 |= kMech;
            if (gap(cx, cy, ox, oy, line.right.x, line.right.y) < r - kEps) f2 |= kMech;
        }
    }
    return result(line, f0, f1, f2);
}

}  // namespace wargym::no_quarter
