// Mirror of rules/no_quarter/sight_movement/bumping.py (fog of war, choice E5); see bumping.hpp.
#include "bumping.hpp"

#include <algorithm>
#include <cmath>

#include "movement_geometry.hpp"

namespace wargym::no_quarter {

namespace {

std::vector<Body> as_bodies(std::span<const BaseAt> bases) {
    std::vector<Body> out;
    out.reserve(bases.size());
    for (const BaseAt& b : bases) out.push_back({b.id, b.x, b.y, b.radius});
    return out;
}

bool has(std::span<const std::int64_t> ids, std::int64_t id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// perception.hidden_pair: one ducked back into cover from the other (§15.2.4.1)
bool hidden_pair(const Sighter& a, const Sighter& b) {
    return (a.duck_back && has(a.hidden_from, b.id)) || (b.duck_back && has(b.hidden_from, a.id));
}

const Sighter* find(std::span<const Sighter> in_play, std::int64_t id) {
    for (const Sighter& m : in_play) {
        if (m.id == id) return &m;
    }
    return nullptr;
}

// bumping._first_contact
std::optional<Bump> first_contact(const MoveTerrain& t, Point start, Point to,
                                  std::span<const BaseAt> unseen, double radius) {
    const double sx = start.x, sy = start.y;
    const double dx = to.x - sx, dy = to.y - sy;
    const double a = dx * dx + dy * dy;
    if (a <= kEps) return std::nullopt;
    std::optional<std::pair<double, std::int64_t>> best;
    for (const BaseAt& body : unseen) {
        const double reach = radius + body.radius - kEps;
        const double fx = sx - body.x, fy = sy - body.y;
        const double c = fx * fx + fy * fy - reach * reach;
        const double b = 2.0 * (fx * dx + fy * dy);
        const double disc = b * b - 4.0 * a * c;
        if (c < 0.0 || disc <= 0.0) continue;  // touching at the start, or the line misses it
        const double tt = (-b - std::sqrt(disc)) / (2.0 * a);
        if (0.0 <= tt && tt <= 1.0 && (!best || tt < best->first)) best = {{tt, body.id}};
    }
    if (!best) return std::nullopt;
    const double tt = pymax(0.0, best->first - t.tables.bump_gap / std::sqrt(a));
    return Bump{{pyround(sx + dx * tt, 3), pyround(sy + dy * tt, 3)}, best->second};
}

// bumping._jump_landing
std::optional<Bump> jump_landing(const MoveTerrain& t, Point start, Point to, std::int64_t mover,
                                 std::span<const BaseAt> unseen, std::span<const BaseAt> bases,
                                 double radius) {
    std::optional<std::int64_t> hit;
    for (const BaseAt& b : unseen) {
        if (distance(to, {b.x, b.y}) < radius + b.radius - kEps) {
            hit = b.id;
            break;
        }
    }
    if (!hit) return std::nullopt;
    const double length = distance(start, to);
    const double backoff = t.tables.jump_backoff;
    const auto steps = static_cast<std::int64_t>(length / backoff);
    for (std::int64_t k = 1; k <= steps; ++k) {
        const double f = 1.0 - static_cast<double>(k) * backoff / length;
        const Point p{pyround(start.x + (to.x - start.x) * f, 3),
                      pyround(start.y + (to.y - start.y) * f, 3)};
        bool free = true;
        for (const Rect& r : t.buildings) {
            if (point_rect_distance(p, r.x0, r.y0, r.x1, r.y1) < radius - kEps) free = false;
        }
        for (const BaseAt& b : bases) {
            if (b.id != mover && distance(p, {b.x, b.y}) < radius + b.radius - kEps) free = false;
        }
        if (free) return Bump{p, *hit};
    }
    return Bump{start, *hit};
}

}  // namespace

double move_jump_backoff(const MoveTerrain& t) { return t.tables.jump_backoff; }

// perception._bodies
std::vector<BaseAt> all_bases(std::span<const Sighter> in_play, std::span<const Point> wrecks,
                              double radius) {
    std::vector<BaseAt> out;
    out.reserve(in_play.size() + wrecks.size());
    for (const Sighter& m : in_play) out.push_back({m.id, m.pos.x, m.pos.y, radius});
    for (std::size_t i = 0; i < wrecks.size(); ++i) {
        out.push_back({-1000 - static_cast<std::int64_t>(i), wrecks[i].x, wrecks[i].y, radius});
    }
    return out;
}

// bumping.enemies_in_sight (perception.line_between, arcs ignored)
std::vector<std::int64_t> enemies_in_sight(const MoveTerrain& t, std::span<const Sighter> in_play,
                                           std::span<const BaseAt> bases, int side, double radius) {
    const std::vector<Body> bodies = as_bodies(bases);
    std::vector<std::int64_t> seen;
    for (const Sighter& enemy : in_play) {
        if (enemy.side == side) continue;
        for (const Sighter& own : in_play) {
            if (own.side != side || hidden_pair(own, enemy)) continue;
            if (sight(t.sight, own.pos, enemy.pos, own.id, enemy.id, bodies, own.ews, radius).visible) {
                seen.push_back(enemy.id);
                break;
            }
        }
    }
    return seen;
}

// bumping.known_bodies
std::vector<BaseAt> known_bodies(const MoveTerrain& t, std::span<const Sighter> in_play,
                                 std::span<const BaseAt> bases, int side, double radius, bool bump) {
    if (!bump) return {bases.begin(), bases.end()};
    const std::vector<std::int64_t> seen = enemies_in_sight(t, in_play, bases, side, radius);
    std::vector<BaseAt> out;
    for (const BaseAt& b : bases) {
        if (b.id < 0 || has(seen, b.id)) {
            out.push_back(b);
        } else if (const Sighter* m = find(in_play, b.id); m != nullptr && m->side == side) {
            out.push_back(b);
        }
    }
    return out;
}

// bumping.planning_bodies
std::vector<BaseAt> planning_bodies(const MoveTerrain& t, std::span<const Sighter> in_play,
                                    std::span<const BaseAt> bases, std::int64_t mover, int side,
                                    double radius, bool bump) {
    std::vector<BaseAt> out;
    for (const BaseAt& b : known_bodies(t, in_play, bases, side, radius, bump)) {
        if (b.id != mover) out.push_back(b);
    }
    return out;
}

// bumping.bump
std::optional<Bump> bump(const MoveTerrain& t, std::span<const Sighter> in_play,
                         std::span<const BaseAt> bases, std::int64_t mover, int side, Point start,
                         Point to, bool jump, double radius, bool fog) {
    if (!fog) return std::nullopt;
    const std::vector<BaseAt> known = known_bodies(t, in_play, bases, side, radius, true);
    std::vector<BaseAt> unseen;
    for (const BaseAt& b : bases) {
        bool known_one = false;
        for (const BaseAt& k : known) known_one = known_one || k.id == b.id;
        if (!known_one && b.id != mover) unseen.push_back(b);
    }
    if (unseen.empty()) return std::nullopt;
    if (jump) return jump_landing(t, start, to, mover, unseen, bases, radius);
    return first_contact(t, start, to, unseen, radius);
}

}  // namespace wargym::no_quarter
