// Mirror of rules/no_quarter/sight_movement/jump_landing.py (§10.6.1, rulings D9, D10, D28).
#include "jump_landing.hpp"

namespace wargym::no_quarter {

// jump_landing.beyond_edge
bool beyond_edge(const MoveTerrain& t, Point p, std::optional<Edge> edge) {
    if (!edge) return false;
    switch (*edge) {
        case Edge::north: return p.y > t.height;
        case Edge::south: return p.y < 0.0;
        case Edge::east: return p.x > t.width;
        case Edge::west: return p.x < 0.0;
    }
    return false;
}

// jump_landing.landing_ok
bool landing_ok(const MoveTerrain& t, Point p, double length, std::span<const Body> others,
                double radius, std::optional<Edge> open_edge) {
    if (beyond_edge(t, p, open_edge)) return true;
    if (!is_on_table(t, p, radius)) return false;
    for (const Rect& r : t.buildings) {
        if (point_rect_distance(p, r.x0, r.y0, r.x1, r.y1) < radius - kEps) return false;
    }
    for (const Body& b : others) {
        if (distance(p, {b.x, b.y}) < radius + b.radius - kEps) return false;
    }
    const double deep = t.tables.deep_water_inches_per_turn;
    return !(!t.deep_core.empty() && in_deep_water(t, p) && length > deep + kEps);
}

// jump_landing.furthest_landing
double furthest_landing(const MoveTerrain& t, Point start, Point u, double max_s,
                        std::span<const Body> others, double radius,
                        std::optional<Edge> open_edge) {
    double s = max_s;
    while (s > kEps) {
        const Point p{start.x + u.x * s, start.y + u.y * s};
        if (landing_ok(t, p, s, others, radius, open_edge)) return s;
        s -= t.tables.landing_step;
    }
    return 0.0;
}

}  // namespace wargym::no_quarter
