// Mirror of rules/no_quarter/sight_movement/movement_geometry.py and roads.py's movement cost
// (§15.2, rulings D5-D10, D28, campaign rulings 19.7, 19.8): see movement_geometry.hpp.
#include "movement_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>

#include "jump_landing.hpp"

namespace wargym::no_quarter {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
std::string fixed2(double v) {  // f"{v:.2f}"
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string general(double v) {  // f"{v:g}"
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

bool inside(std::span<const Rect> rects, Point p) {  // sight._inside
    for (const Rect& r : rects) {
        if (r.x0 <= p.x && p.x <= r.x1 && r.y0 <= p.y && p.y <= r.y1) return true;
    }
    return false;
}

Point along(Point a, Point u, double s) { return {a.x + u.x * s, a.y + u.y * s}; }

}  // namespace

// movement_geometry.move_cost
double move_cost(const MoveTerrain& t, Point a, Point b, bool jumping, std::optional<bool> on_road) {
    const double length = distance(a, b);
    if (jumping || length <= 0.0) return length;
    thread_local std::vector<double> parts;
    parts.clear();
    for (const Span& s : profile(t, a, b, on_road)) parts.push_back((s.t1 - s.t0) * length * s.rate);
    return pysum(parts);
}

// movement_geometry.path_cost
double path_cost(const MoveTerrain& t, std::span<const Point> path,
                 std::optional<std::int64_t> jump_segment) {
    const bool road = t.tables.road_per_inch || path_on_road(t, path, jump_segment);
    std::vector<double> parts;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        const bool jumping = jump_segment && static_cast<std::int64_t>(i) == *jump_segment;
        parts.push_back(move_cost(t, path[i], path[i + 1], jumping, road));
    }
    return pysum(parts);
}

// movement_geometry.enters_deep_water
bool enters_deep_water(const MoveTerrain& t, std::span<const Point> path,
                       std::optional<std::int64_t> jump_segment) {
    if (t.deep_core.empty()) return false;
    if (!path.empty() && in_deep_water(t, path.back())) return true;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        if (jump_segment && static_cast<std::int64_t>(i) == *jump_segment) continue;
        for (const Span& s : profile(t, path[i], path[i + 1])) {
            if (s.rate == kInf) return true;
        }
    }
    return false;
}

// movement_geometry.deep_water_allowance (§19.7.1)
double deep_water_allowance(const MoveTerrain& t, double allowance) {
    return pymin(allowance, t.tables.deep_water_inches_per_turn);
}

// movement_geometry._affordable
double affordable(const MoveTerrain& t, Point a, Point u, double max_s, double budget) {
    if (max_s <= 0.0 || budget <= 0.0) return 0.0;
    const Point b = along(a, u, max_s);
    double spent = 0.0;
    double reach = 0.0;
    for (const Span& s : profile(t, a, b)) {
        const double seg = (s.t1 - s.t0) * max_s;
        const double cost = seg * s.rate;
        if (spent + cost <= budget + kEps) {
            spent += cost;
            reach = s.t1 * max_s;
            continue;
        }
        if (s.rate != kInf) reach = s.t0 * max_s + (budget - spent) / s.rate;
        break;
    }
    if (reach < max_s && !t.deep_core.empty()) {
        const double deep = pymin(max_s, deep_water_allowance(t, budget));
        const Point line[2] = {a, along(a, u, deep)};
        if (deep > reach && enters_deep_water(t, line)) reach = deep;
    }
    return pymin(reach, max_s);
}

// movement_geometry.path_problem
std::optional<std::string> path_problem(const MoveTerrain& t, std::span<const Point> path,
                                        std::int64_t mover_id, std::span<const Body> bodies,
                                        double radius, std::optional<std::int64_t> jump_segment,
                                        bool allow_off_table) {
    if (path.empty()) return "empty path";
    const auto n_seg = static_cast<std::int64_t>(path.size()) - 1;
    if (jump_segment && !(0 <= *jump_segment && *jump_segment < n_seg)) {
        return "no segment " + std::to_string(*jump_segment) + " to jump";
    }
    if (!allow_off_table) {
        for (const Point& p : path) {
            if (!is_on_table(t, p, radius)) {
                return "leaves the table at (" + fixed2(p.x) + ", " + fixed2(p.y) + ")";
            }
        }
    }
    std::vector<Body> others;
    for (const Body& b : bodies) {
        if (b.id != mover_id) others.push_back(b);
    }
    const std::optional<Point> spots[2] = {
        path.back(), jump_segment ? std::optional<Point>(path[*jump_segment + 1]) : std::nullopt};
    const char* wheres[2] = {"at the end", "on landing"};
    for (int k = 0; k < 2; ++k) {
        if (!spots[k]) continue;
        const Point spot = *spots[k];
        for (const Rect& f : t.buildings) {
            if (point_rect_distance(spot, f.x0, f.y0, f.x1, f.y1) < radius - kEps) {
                return "overlaps building at (" + general(f.x0) + ", " + general(f.y0) + ") " +
                       wheres[k];
            }
        }
        for (const Body& b : others) {
            if (distance(spot, {b.x, b.y}) < radius + b.radius - kEps) {
                return "overlaps mech " + std::to_string(b.id) + " " + wheres[k];
            }
        }
    }
    for (std::int64_t i = 0; i < n_seg; ++i) {
        if (jump_segment && i == *jump_segment) continue;
        const Point a = path[i], c = path[i + 1];
        const double lox = pymin(a.x, c.x) - radius, hix = pymax(a.x, c.x) + radius;
        const double loy = pymin(a.y, c.y) - radius, hiy = pymax(a.y, c.y) + radius;
        for (const Rect& f : t.buildings) {
            if (f.x1 < lox || f.x0 > hix || f.y1 < loy || f.y0 > hiy) continue;
            if (segment_rect_distance(a, c, f.x0, f.y0, f.x1, f.y1) < radius - kEps) {
                return "passes through building at (" + general(f.x0) + ", " + general(f.y0) + ")";
            }
        }
        for (const Body& b : others) {
            const double reach = radius + b.radius;
            if (b.x + reach < lox || b.x - reach > hix || b.y + reach < loy || b.y - reach > hiy) {
                continue;
            }
            if (point_segment_distance({b.x, b.y}, a, c) < reach - kEps) {
                return "passes through mech " + std::to_string(b.id);
            }
        }
    }
    return std::nullopt;
}

// movement_geometry._straight_ok
bool straight_ok(const MoveTerrain& t, Point a, Point c, std::span<const Body> others,
                 double radius) {
    return straight_ok_near(a, c, t.buildings, others, radius);
}

// movement_geometry._straight_ok_near
bool straight_ok_near(Point a, Point c, std::span<const Rect> rects, std::span<const Body> others,
                      double radius) {
    for (const Rect& r : rects) {
        if (segment_rect_distance(a, c, r.x0, r.y0, r.x1, r.y1) < radius - kEps) return false;
    }
    for (const Body& b : others) {
        if (!(point_segment_distance({b.x, b.y}, a, c) >= radius + b.radius - kEps)) return false;
    }
    return true;
}

// movement_geometry._furthest_clear (bisection)
double furthest_clear(const MoveTerrain& t, Point a, Point u, double max_s,
                      std::span<const Body> others, double radius, std::optional<Edge> open_edge) {
    if (max_s <= kEps) return 0.0;
    const double lo_x = open_edge != Edge::west ? pymin(a.x, radius) : -kInf;
    const double hi_x = open_edge != Edge::east ? pymax(a.x, t.width - radius) : kInf;
    const double lo_y = open_edge != Edge::south ? pymin(a.y, radius) : -kInf;
    const double hi_y = open_edge != Edge::north ? pymax(a.y, t.height - radius) : kInf;
    double limit = max_s;
    const double comps[2][3] = {{u.x, lo_x, hi_x}, {u.y, lo_y, hi_y}};
    const double starts[2] = {a.x, a.y};
    for (int k = 0; k < 2; ++k) {
        const double uc = comps[k][0], lo = comps[k][1], hi = comps[k][2];
        if (uc > kEps) {
            limit = pymin(limit, (hi - starts[k]) / uc);
        } else if (uc < -kEps) {
            limit = pymin(limit, (lo - starts[k]) / uc);
        }
    }
    limit = pymax(0.0, limit);
    auto ok = [&](double s) { return straight_ok(t, a, along(a, u, s), others, radius); };
    if (ok(limit)) return limit;
    double lo = 0.0, hi = limit;
    if (!ok(0.0)) return 0.0;
    for (int i = 0; i < 30; ++i) {
        const double mid = (lo + hi) / 2.0;
        if (ok(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return pymax(0.0, lo - 1e-6);
}

// movement_geometry.move_candidates
std::vector<Point> move_candidates(const MoveTerrain& t, Point pos, double allowance,
                                   std::int64_t mover_id, std::span<const Body> bodies,
                                   double radius, std::int64_t directions,
                                   std::span<const double> fractions) {
    std::vector<Point> out;
    if (allowance <= kEps || directions <= 0) return out;
    std::vector<Point> terrain_ok = terrain_candidates(t, pos, allowance, radius, directions, fractions);
    if (terrain_ok.empty()) return out;
    struct Near {
        double x, y, reach;
    };
    std::vector<Near> near;
    for (const Body& b : bodies) {
        if (b.id != mover_id &&
            distance(pos, {b.x, b.y}) <= allowance + radius + b.radius + 1e-6) {
            near.push_back({b.x, b.y, radius + b.radius});
        }
    }
    if (near.empty()) return terrain_ok;
    for (const Point& dest : terrain_ok) {
        const double lox = pymin(pos.x, dest.x) - radius, hix = pymax(pos.x, dest.x) + radius;
        const double loy = pymin(pos.y, dest.y) - radius, hiy = pymax(pos.y, dest.y) + radius;
        bool blocked = false;
        for (const Near& b : near) {
            if (pyhypot(dest.x - b.x, dest.y - b.y) < b.reach - kEps) {
                blocked = true;  // overlaps the base at the end
                break;
            }
            if (b.x + b.reach < lox || b.x - b.reach > hix || b.y + b.reach < loy ||
                b.y - b.reach > hiy) {
                continue;
            }
            if (point_segment_distance({b.x, b.y}, pos, dest) < b.reach - kEps) {
                blocked = true;  // sweeps through the base
                break;
            }
        }
        if (!blocked) out.push_back(dest);
    }
    return out;
}

// movement_geometry._terrain_candidates_of
std::vector<Point> terrain_candidates(const MoveTerrain& t, Point pos, double allowance,
                                      double radius, std::int64_t directions,
                                      std::span<const double> fractions) {
    std::vector<Point> out;
    if (!is_on_table(t, pos, radius)) return out;
    std::vector<std::pair<double, double>> seen;  // at most directions * fractions keys
    const double lo = radius - 1e-9;
    const double hi_x = t.width - radius + 1e-9;
    const double hi_y = t.height - radius + 1e-9;
    std::vector<Rect> buildings;  // further than this from the start: no candidate's sweep touches it
    for (const Rect& r : t.buildings) {
        if (point_rect_distance(pos, r.x0, r.y0, r.x1, r.y1) <= allowance + radius + 1e-6) {
            buildings.push_back(r);
        }
    }
    for (std::int64_t k = 0; k < directions; ++k) {
        const Point u = unit(360.0 * static_cast<double>(k) / static_cast<double>(directions));
        const double reach = affordable(t, pos, u, allowance, allowance);
        for (const double frac : fractions) {
            const double s = pymin(allowance * frac, reach);
            if (s <= kEps) continue;
            const Point dest = along(pos, u, s);
            // (round(x * 1e6), round(y * 1e6)): nearbyint rounds half to even as round() does
            const std::pair<double, double> key{std::nearbyint(dest.x * 1e6) + 0.0,
                                                std::nearbyint(dest.y * 1e6) + 0.0};
            if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
            seen.push_back(key);
            if (!(lo <= dest.x && dest.x <= hi_x && lo <= dest.y && dest.y <= hi_y)) continue;
            const double lox = pymin(pos.x, dest.x) - radius, hix = pymax(pos.x, dest.x) + radius;
            const double loy = pymin(pos.y, dest.y) - radius, hiy = pymax(pos.y, dest.y) + radius;
            bool blocked = false;
            for (const Rect& r : buildings) {
                if (point_rect_distance(dest, r.x0, r.y0, r.x1, r.y1) < radius - kEps) {
                    blocked = true;  // overlaps the building at the end
                    break;
                }
                if (r.x1 < lox || r.x0 > hix || r.y1 < loy || r.y0 > hiy) continue;
                if (segment_rect_distance(pos, dest, r.x0, r.y0, r.x1, r.y1) < radius - kEps) {
                    blocked = true;  // passes through it
                    break;
                }
            }
            if (!blocked) out.push_back(dest);
        }
    }
    return out;
}

// geometry.lattice_offsets
std::vector<Offset> lattice_offsets(double max_dist, double step) {
    const auto n = static_cast<std::int64_t>(max_dist / step) + 1;
    std::vector<std::tuple<double, double, double, double>> pts;
    for (std::int64_t i = -n; i <= n; ++i) {
        for (std::int64_t j = -n; j <= n; ++j) {
            const double dx = static_cast<double>(i) * step, dy = static_cast<double>(j) * step;
            const double length = pyhypot(dx, dy);
            if (length <= max_dist + kEps) {
                pts.emplace_back(pyround(length, 9), std::atan2(dy, dx), dx, dy);
            }
        }
    }
    std::sort(pts.begin(), pts.end());
    std::vector<Offset> out;
    out.reserve(pts.size());
    for (const auto& [length, angle, dx, dy] : pts) out.push_back({dx, dy, length});
    return out;
}

// movement_geometry.duck_back_move (§15.2.4.1, D9, D28)
DuckBack duck_back_move(const MoveTerrain& t, Point pos, Point cause, std::span<const Body> bodies,
                        const DuckBackArgs& args) {
    const double radius = args.radius, max_dist = args.max_dist;
    std::vector<Body> others;
    for (const Body& b : bodies) {
        if (b.id != args.mover_id) others.push_back(b);
    }
    const double span = max_dist + radius + 1e-6;
    std::vector<Rect> near_rects;
    for (const Rect& r : t.buildings) {
        if (point_rect_distance(pos, r.x0, r.y0, r.x1, r.y1) <= span) near_rects.push_back(r);
    }
    std::vector<Body> near;
    for (const Body& b : others) {
        if (distance(pos, {b.x, b.y}) <= span + b.radius) near.push_back(b);
    }
    std::optional<Point> best;
    double best_len = kInf, best_away = -kInf;
    bool best_jump = false;
    for (const Offset& o : lattice_offsets(max_dist, args.step)) {
        if (o.length > best_len + kEps) break;
        const Point c{pos.x + o.dx, pos.y + o.dy};
        if (!is_on_table(t, c, radius)) continue;
        bool overlaps = false;
        for (const Rect& r : near_rects) {
            if (point_rect_distance(c, r.x0, r.y0, r.x1, r.y1) < radius - kEps) overlaps = true;
        }
        for (const Body& b : near) {
            if (distance(c, {b.x, b.y}) < radius + b.radius - kEps) overlaps = true;
        }
        if (overlaps) continue;
        const bool moved = args.moved_this_turn || o.length > 0.0;
        if (!inside(t.concealing, c) && !inside(moved ? t.cover_moving : t.cover_stationary, c)) {
            const SightResult s = sight(t.sight, cause, c, args.cause_id, args.mover_id, bodies,
                                        args.cause_has_ews, radius);
            // sight.in_cover (s.visible holds here)
            const bool cover = (t.tables.behind_building_cover && s.building_blocked_lines > 0) ||
                               (t.tables.behind_mech_cover && s.mech_blocked_lines > 0) ||
                               inside(moved ? t.cover_moving : t.cover_stationary, c);
            if (s.visible && !cover) continue;
        }
        const bool walks =
            o.length <= 0.0 || walkable(t, pos, c, o.length, near_rects, near, radius, max_dist);
        if (!walks && !(args.jump_jets && landing_ok(t, c, o.length, near, radius))) continue;
        const double away = distance(c, cause);
        if (!best || away > best_away + kEps) {
            best = c;
            best_len = o.length;
            best_away = away;
            best_jump = !walks;
        }
    }
    if (best) return {*best, best_jump};
    const Point u = unit(heading_to(cause, pos));
    const double reach = affordable(t, pos, u, args.speed, args.speed);
    const double run = furthest_clear(t, pos, u, reach, others, radius);
    const double leap =
        args.jump_jets ? furthest_landing(t, pos, u, args.speed, others, radius) : 0.0;
    if (leap > run + kEps) return {along(pos, u, leap), true};
    return {along(pos, u, run), false};
}

// movement_geometry._walkable
bool walkable(const MoveTerrain& t, Point pos, Point c, double length,
              std::span<const Rect> near_rects, std::span<const Body> near, double radius,
              double max_dist) {
    if (!straight_ok_near(pos, c, near_rects, near, radius)) return false;
    const double cost = move_cost(t, pos, c);
    return cost <= max_dist + kEps ||
           (cost == kInf && length <= deep_water_allowance(t, max_dist) + kEps);
}

namespace {
constexpr Point kNormals[4] = {{0.0, 1.0}, {0.0, -1.0}, {1.0, 0.0}, {-1.0, 0.0}};
}

// movement_geometry.nearest_edge_away (§15.2.4.2, D10)
std::optional<Edge> nearest_edge_away(const MoveTerrain& t, Point pos, std::optional<Point> enemy,
                                      std::optional<Edge> home_edge) {
    if (home_edge) return home_edge;
    const double gaps[4] = {t.height - pos.y, pos.y, t.width - pos.x, pos.x};
    std::optional<Edge> best;
    double best_gap = kInf;
    for (int e = 0; e < 4; ++e) {
        const Point n = kNormals[e];
        if (enemy && n.x * (pos.x - enemy->x) + n.y * (pos.y - enemy->y) < -kEps) continue;
        if (gaps[e] < best_gap - kEps) {
            best = static_cast<Edge>(e);
            best_gap = gaps[e];
        }
    }
    return best;
}

// movement_geometry.leave_move_to (§15.2.4.2, D10, D28)
Leave leave_move_to(const MoveTerrain& t, Point pos, Edge edge, double dist, std::int64_t mover_id,
                    std::span<const Body> bodies, double radius, bool jump_jets) {
    if (beyond_edge(t, pos, edge)) return {pos, true, false};
    std::vector<Body> others;
    for (const Body& b : bodies) {
        if (b.id != mover_id) others.push_back(b);
    }
    const double base = heading_to({0.0, 0.0}, kNormals[static_cast<int>(edge)]);
    Point best = pos;
    bool best_jump = false;
    double best_gain = kEps;
    for (const double off : kLeaveDeflections) {
        const Point u = unit(base + off);
        const double reach = affordable(t, pos, u, dist, dist);
        double s = furthest_clear(t, pos, u, reach, others, radius, edge);
        const double leap = jump_jets ? furthest_landing(t, pos, u, dist, others, radius, edge) : 0.0;
        const bool jumped = leap > s + kEps;
        s = jumped ? leap : s;
        const Point end = along(pos, u, s);
        if (beyond_edge(t, end, edge)) return {end, true, jumped};
        const double gain = s * std::cos(radians(off));
        if (gain > best_gain + kEps) {
            best = end;
            best_gain = gain;
            best_jump = jumped;
        }
    }
    return {best, false, best_jump};
}

}  // namespace wargym::no_quarter
