// Mirror of flow_mech.py's move options and move_problem, and game._distinct for moves; see
// flow_mech_moves.hpp.
#include "flow_mech_moves.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <unordered_set>

#include "../sight_movement/movement_geometry.hpp"

namespace wargym::no_quarter {

namespace {

std::vector<Body> as_bodies(std::span<const BaseAt> bases) {
    std::vector<Body> out;
    out.reserve(bases.size());
    for (const BaseAt& b : bases) out.push_back({b.id, b.x, b.y, b.radius});
    return out;
}

std::string fixed2(double v) {  // f"{v:.2f}"
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

// flow_mech._jumps: jump options not already reachable on foot (D5, D28)
void add_jumps(const MoveTerrain& t, const Mover& mech, double allowance,
               std::span<const Body> others, const MoveSettings& settings,
               std::vector<MoveOption>& moves) {
    const double radius = settings.base_radius;
    if (!is_on_table(t, mech.pos, radius)) return;
    // {m.to for m in moves}: tuples of floats, so -0.0 and 0.0 are one key
    auto key = [](Point p) { return std::pair<double, double>{p.x + 0.0, p.y + 0.0}; };
    struct Hash {
        std::size_t operator()(const std::pair<double, double>& k) const {
            return std::hash<double>{}(k.first) * 31 + std::hash<double>{}(k.second);
        }
    };
    std::unordered_set<std::pair<double, double>, Hash> reachable_points;
    for (const MoveOption& m : moves) reachable_points.insert(key(m.to));
    const double two_pi = 2 * std::numbers::pi;  // 2 * math.pi
    for (std::int64_t k = 0; k < settings.directions; ++k) {
        const double angle = two_pi * static_cast<double>(k) / static_cast<double>(settings.directions);
        for (const double fraction : settings.fractions) {
            const double reach = allowance * fraction;
            const Point p = round_point(
                {mech.pos.x + reach * std::cos(angle), mech.pos.y + reach * std::sin(angle)});
            if (reachable_points.count(key(p)) || !is_on_table(t, p, radius)) continue;
            if (distance(mech.pos, p) > allowance + 1e-6) continue;
            bool free = true;
            for (const Rect& r : t.buildings) {
                if (point_rect_distance(p, r.x0, r.y0, r.x1, r.y1) < radius - kEps) free = false;
            }
            for (const Body& b : others) {
                if (distance(p, {b.x, b.y}) < radius + b.radius - kEps) free = false;
            }
            if (free) moves.push_back({mech.id, p, false, true});
        }
    }
}

}  // namespace

// flow_mech._allowance
double allowance(const Mover& mech, const MoveFrame& frame) {
    return pymax(0.0, static_cast<double>(mech.speed) - frame.spent);
}

// flow_mech._round
Point round_point(Point p) { return {pyround(p.x, 3), pyround(p.y, 3)}; }

// flow_mech._moves
std::vector<MoveOption> mech_moves(const MoveTerrain& t, const Mover& mech, const MoveFrame& frame,
                                   std::span<const BaseAt> planning, const MoveSettings& settings) {
    std::vector<MoveOption> options;
    const double left = allowance(mech, frame);
    if (left <= 0 || mech.speed <= 0) return options;
    const std::vector<Body> others = as_bodies(planning);
    const double radius = settings.base_radius;
    for (const Point& p : move_candidates(t, mech.pos, left, mech.id, others, radius,
                                          settings.directions, settings.fractions)) {
        options.push_back({mech.id, round_point(p), false, false});
    }
    if (!frame.moved) {
        const double back = pymod(mech.heading + 180.0, 360.0);
        const double rev = pymin(left, static_cast<double>(mech.speed) * t.tables.reverse_fraction);
        if (rev > 0) {
            const double whole[1] = {1.0};
            for (const Point& p : move_candidates(t, mech.pos, rev, mech.id, others, radius,
                                                  settings.directions, whole)) {
                if (angle_between(heading_to(mech.pos, p), back) <= 90.0) {
                    options.push_back({mech.id, round_point(p), true, false});
                }
            }
        }
    }
    if (mech.has_jump_jets) add_jumps(t, mech, left, others, settings, options);
    return options;
}

// game._distinct and game._near_kept, for the Move options. The reference buckets the kept
// points on a NEAR grid and searches the nine cells around a point; a scan of the kept points
// of the same kind with the same two tests (nearer than NEAR on both axes, cell key among the
// nine neighbours' keys, cx * _ROW + cy as Python's ints) gives the same answer.
std::vector<MoveOption> distinct_moves(std::span<const MoveOption> moves, double near) {
    constexpr std::int64_t row = std::int64_t{1} << 32;  // game._ROW
    struct Kept {
        std::int64_t cell;
        Point to;
        std::size_t kind;
    };
    struct Kind {
        std::int64_t mech;
        bool reverse, jump;
    };
    std::vector<Kind> kinds;
    std::vector<Kept> grid;
    std::vector<MoveOption> kept;
    auto neighbours = [](std::int64_t d) {  // d == i * _ROW + j for i, j in (-1, 0, 1)
        for (std::int64_t i = -1; i <= 1; ++i) {
            const std::int64_t j = d - i * row;
            if (-1 <= j && j <= 1) return true;
        }
        return false;
    };
    for (const MoveOption& m : moves) {
        const double x = m.to.x, y = m.to.y;
        const std::int64_t cell = static_cast<std::int64_t>(std::floor(x / near)) * row +
                                  static_cast<std::int64_t>(std::floor(y / near));
        std::size_t kind = kinds.size();
        for (std::size_t k = 0; k < kinds.size(); ++k) {
            if (kinds[k].mech == m.mech && kinds[k].reverse == m.reverse && kinds[k].jump == m.jump) kind = k;
        }
        if (kind == kinds.size()) {
            kinds.push_back({m.mech, m.reverse, m.jump});
        } else {
            bool near_kept = false;
            for (const Kept& p : grid) {
                if (p.kind == kind && std::fabs(x - p.to.x) < near && std::fabs(y - p.to.y) < near &&
                    neighbours(p.cell - cell)) {
                    near_kept = true;
                    break;
                }
            }
            if (near_kept) continue;
        }
        grid.push_back({cell, m.to, kind});
        kept.push_back(m);
    }
    return kept;
}

std::vector<MoveOption> move_options(const MoveTerrain& t, const Mover& mech, const MoveFrame& frame,
                                     std::span<const BaseAt> others, const MoveSettings& settings) {
    return distinct_moves(mech_moves(t, mech, frame, others, settings), t.tables.near);
}

// flow_mech.move_problem (§15.2, ruling D5)
std::optional<std::string> move_problem(const MoveTerrain& t, const Mover& mech,
                                        const MoveFrame& frame, std::span<const BaseAt> planning,
                                        double radius, const MoveOption& action) {
    double left = allowance(mech, frame);
    if (mech.speed <= 0) return "the mech cannot move (Speed 0)";
    if (action.reverse) {
        if (frame.moved) return "a reverse must start standing still (§15.2.2)";
        left = pymin(left, static_cast<double>(mech.speed) * t.tables.reverse_fraction);
        const double back = pymod(mech.heading + 180.0, 360.0);
        if (angle_between(heading_to(mech.pos, action.to), back) > 90.0) {
            return "a reverse moves backwards, keeping the facing (§15.2.2)";
        }
    }
    if (action.jump && !mech.has_jump_jets) return "no operable jump jets (§10.6.1)";
    const std::vector<Body> others = as_bodies(planning);
    const Point path[2] = {mech.pos, action.to};
    const std::optional<std::int64_t> jump =
        action.jump ? std::optional<std::int64_t>(0) : std::nullopt;
    if (auto problem = path_problem(t, path, mech.id, others, radius, jump, false)) return problem;
    const double cost = path_cost(t, path, jump);
    if (std::isinf(cost) && enters_deep_water(t, path, jump)) {
        if (distance(mech.pos, action.to) <= deep_water_allowance(t, left) + 1e-6) {
            return std::nullopt;  // deep water: 2" per turn (Appendix A, §19.7.1)
        }
        // the reference's message names the 2" whatever the table says
        return "deep water beyond the shore band allows only 2\" of movement";
    }
    if (cost > left + 1e-6) {
        return "costs " + fixed2(cost) + "\" but only " + fixed2(left) + "\" of movement is left";
    }
    return std::nullopt;
}

}  // namespace wargym::no_quarter
