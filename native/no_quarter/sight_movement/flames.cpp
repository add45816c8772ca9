// Mirror of rules/no_quarter/sight_movement/flames.py (flames.hpp).
#include "flames.hpp"

#include <cmath>
#include <utility>

namespace wargym::no_quarter {

// flames.flame_area_hits
std::vector<std::int64_t> flame_area_hits(const FlameSizes& sizes, std::span<const Point> path,
                                          std::span<const std::array<Point, 2>> flames,
                                          double base_radius, double mover_radius) {
    const double half_w = sizes.strip_width / 2.0 + mover_radius;
    const double circle = sizes.circle_diameter / 2.0 + mover_radius;
    std::vector<std::pair<Point, Point>> segs;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        const Point a = path[i], b = path[i + 1];
        if (a.x != b.x || a.y != b.y) segs.emplace_back(a, b);
    }
    std::vector<std::int64_t> hits;
    for (std::size_t k = 0; k < flames.size(); ++k) {
        const Point shooter = flames[k][0], aim = flames[k][1];
        const double total = distance(shooter, aim);
        bool hit = false;
        for (const auto& [a, b] : segs) {
            if (point_segment_distance(aim, a, b) <= circle + kEps) {
                hit = true;
                break;
            }
        }
        if (!hit && total > base_radius) {
            const double ux = (aim.x - shooter.x) / total, uy = (aim.y - shooter.y) / total;
            const double sx = shooter.x + ux * base_radius, sy = shooter.y + uy * base_radius;
            const double length = total - base_radius;
            for (const auto& [a, b] : segs) {
                const Point la{(a.x - sx) * ux + (a.y - sy) * uy, -(a.x - sx) * uy + (a.y - sy) * ux};
                const Point lb{(b.x - sx) * ux + (b.y - sy) * uy, -(b.x - sx) * uy + (b.y - sy) * ux};
                if (clip_segment_to_rect(la, lb, 0.0, -half_w, length, half_w)) {
                    hit = true;
                    break;
                }
            }
        }
        if (hit) hits.push_back(static_cast<std::int64_t>(k));
    }
    return hits;
}

// flames.flames_at
std::vector<std::int64_t> flames_at(const FlameSizes& sizes, Point point,
                                    std::span<const std::array<Point, 2>> flames,
                                    double base_radius) {
    const double half_w = sizes.strip_width / 2.0, circle = sizes.circle_diameter / 2.0;
    std::vector<std::int64_t> found;
    for (std::size_t k = 0; k < flames.size(); ++k) {
        const Point shooter = flames[k][0], aim = flames[k][1];
        const double total = distance(shooter, aim);
        bool inside = distance(point, aim) <= circle + kEps;
        if (!inside && total > base_radius) {
            const double ux = (aim.x - shooter.x) / total, uy = (aim.y - shooter.y) / total;
            const double sx = shooter.x + ux * base_radius, sy = shooter.y + uy * base_radius;
            const double along = (point.x - sx) * ux + (point.y - sy) * uy;
            const double across = -(point.x - sx) * uy + (point.y - sy) * ux;
            inside = -kEps <= along && along <= total - base_radius + kEps &&
                     std::fabs(across) <= half_w + kEps;
        }
        if (inside) found.push_back(static_cast<std::int64_t>(k));
    }
    return found;
}

}  // namespace wargym::no_quarter
