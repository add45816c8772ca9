// Mirror of rules/no_quarter/non_player/enemy.py (§22.1.6, §22.2.6, §22.3.1, §22.3.6, §22.3.7):
// the table rolls and the movement goals, over the NpTables the glue hands in.
#include "enemy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "../../errors.hpp"
#include "../battlefield/roads.hpp"
#include "../battlefield/terrain.hpp"
#include "../forces/data.hpp"
#include "../sight_movement/pyfloat.hpp"

namespace wargym::no_quarter {

namespace {

// (x, y) < (x', y') as Python compares tuples of floats.
bool np_point_less(Point a, Point b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

std::size_t row_of(std::int64_t passes) {
    if (passes < 0 || passes > 2) throw ArgumentError("tables", "tables: no row for " + std::to_string(passes) + " dice passed");
    return static_cast<std::size_t>(passes);
}

}  // namespace

const NpGroupState& NpContext::state_of(std::int64_t team) const {
    for (const auto& [key, state] : groups) {
        if (key == team) return state;
    }
    return fallback;
}

void NpContext::set_state(std::int64_t team, NpGroupState state) {
    for (auto& [key, held] : groups) {
        if (key == team) {
            held = std::move(state);
            return;
        }
    }
    groups.emplace_back(team, std::move(state));
}

std::int64_t np_passed(const NpTables& tables, std::span<const int> faces, std::int64_t target) {
    std::int64_t count = 0;
    for (const int f : faces) {
        if (f <= target) ++count;
    }
    return std::min(tables.pass_cap, count);
}

// -- table rolls -------------------------------------------------------------------------------
PatrolReaction np_patrol_reaction(const NpTables& tables, Dice& dice, std::int64_t morale) {
    const std::vector<int> rolled = dice.roll(2);
    const std::int64_t passes = np_passed(tables, rolled, morale);
    std::vector<std::int64_t> faces(rolled.begin(), rolled.end());
    const auto& [posture, after] = tables.patrol[row_of(passes)];
    return {std::move(faces), passes, posture, after};
}

MoveRoll np_defend_move(const NpTables& tables, Dice& dice, std::int64_t leader_rep) {
    const std::vector<int> rolled = dice.roll(2);
    const std::int64_t passes = np_passed(tables, rolled, leader_rep);
    std::vector<std::int64_t> faces(rolled.begin(), rolled.end());
    return {NpMoveTable::defend, std::move(faces), passes, tables.defend[row_of(passes)]};
}

MoveRoll np_attack_move(const NpTables& tables, Dice& dice, std::int64_t leader_rep) {
    const std::vector<int> rolled = dice.roll(2);
    const std::int64_t passes = np_passed(tables, rolled, leader_rep);
    std::vector<std::int64_t> faces(rolled.begin(), rolled.end());
    return {NpMoveTable::attack, std::move(faces), passes, tables.attack[row_of(passes)]};
}

ObjectiveRoll secret_objective(const NpTables& tables, Dice& dice, NpControl control) {
    const std::vector<int> faces = dice.roll(1);
    const int face = faces.at(0);
    const auto& spans = tables.objective[static_cast<std::size_t>(control)];
    for (std::size_t o = 0; o < spans.size(); ++o) {
        if (spans[o][0] <= face && face <= spans[o][1]) return {face, control, static_cast<NpObjective>(o)};
    }
    throw ArgumentError("tables", "tables: no objective for face " + std::to_string(face));  // StopIteration
}

bool on_flank_or_rear(const NpTables& tables, std::span<const Spotter> group, Point enemy) {
    if (group.empty()) throw ArgumentError("group", "group: min() of an empty group");
    const Spotter* near = nullptr;
    double best = 0.0;
    for (const Spotter& m : group) {
        const double d = distance(m.pos, enemy);
        if (near == nullptr || d < best || (d == best && m.id < near->id)) {
            near = &m;
            best = d;
        }
    }
    return angle_between(heading_to(near->pos, enemy), near->facing) > tables.flank_bearing;
}

PursuitRoll pursue_objective(const NpTables& tables, Dice& dice, std::int64_t leader_rep,
                             std::span<const Spotter> group, std::span<const Spotter> enemies) {
    const std::vector<int> rolled = dice.roll(2);
    const std::int64_t passes = np_passed(tables, rolled, leader_rep);
    std::vector<std::int64_t> faces(rolled.begin(), rolled.end());
    const NpPursuit rule = tables.pursuing[row_of(passes)];
    auto gap = [&](const Spotter& e) {
        bool any = false;
        double best = std::numeric_limits<double>::infinity();
        for (const Spotter& m : group) {
            const double d = distance(m.pos, e.pos);
            if (!any || d < best) best = d;  // min(): the first of equal ones (the same value)
            any = true;
        }
        return best;
    };
    std::vector<const Spotter*> near;
    for (const Spotter& e : enemies) {
        if (gap(e) <= tables.distraction_range + kEps) near.push_back(&e);
    }
    std::vector<const Spotter*> flank;
    for (const Spotter* e : near) {
        if (on_flank_or_rear(tables, group, e->pos)) flank.push_back(e);
    }
    const std::vector<const Spotter*> none;
    const std::vector<const Spotter*>* pool = &none;
    if (rule == NpPursuit::flank_or_rear_within_range) {
        pool = &flank;
    } else if (rule == NpPursuit::any_within_range) {
        pool = flank.empty() ? &near : &flank;
    }
    const Spotter* target = nullptr;
    double best = 0.0;
    for (const Spotter* e : *pool) {
        const double g = gap(*e);
        if (target == nullptr || g < best || (g == best && e->id < target->id)) {
            target = e;
            best = g;
        }
    }
    PursuitRoll out{std::move(faces), passes, std::nullopt};
    if (target != nullptr) out.target = target->id;
    return out;
}

// -- movement goals ----------------------------------------------------------------------------
Point edge_point(const Battlefield& bf, Point pos, std::string_view edge, double margin) {
    if (edge == "north") return {pos.x, bf.height - margin};
    if (edge == "south") return {pos.x, margin};
    if (edge == "east") return {bf.width - margin, pos.y};
    if (edge == "west") return {margin, pos.y};
    throw ArgumentError("edge", "edge: '" + std::string(edge) + "' is not north, south, east or west");
}

bool reached_edge(const Battlefield& bf, Point pos, std::string_view edge, double tolerance) {
    return distance(pos, edge_point(bf, pos, edge, 0.0)) <= tolerance;
}

Point fighting_withdrawal_move(const NpTables& tables, const RulesTables& rules, const Battlefield& bf,
                               Point pos, double reach, std::string_view own_edge,
                               std::optional<Point> viewer, std::span<const Body> bodies) {
    Point goal = edge_point(bf, pos, own_edge, tables.edge_margin);
    const double gap = distance(pos, goal);
    if (gap > reach && reach > 0) {
        goal = {pos.x + (goal.x - pos.x) * reach / gap, pos.y + (goal.y - pos.y) * reach / gap};
    }
    const double r = tables.sight_base_radius;
    if (covered(rules.sight, rules.cover, goal, viewer, bodies, r)) return goal;
    const double snap = tables.withdrawal_snap;
    // int(snap * 2): truncation toward zero, as Python's int() of a float
    const double scaled = snap * static_cast<double>(tables.snap_steps_per_inch);
    if (!std::isfinite(scaled) || std::fabs(scaled) > 1e6) {
        throw ArgumentError("tables", "tables: withdrawal_snap out of range");
    }
    const auto n = static_cast<std::int64_t>(std::trunc(scaled));
    std::vector<double> steps;
    for (std::int64_t i = -n; i < n + 1; ++i) steps.push_back(static_cast<double>(i) * tables.snap_step);
    bool found = false;
    Point best{0.0, 0.0};
    double best_d = 0.0;
    for (const double dx : steps) {
        for (const double dy : steps) {
            const Point q{goal.x + dx, goal.y + dy};
            if (!(pyhypot(dx, dy) <= snap + kEps)) continue;
            if (!is_on_table(rules.move, q, tables.snap_table_margin)) continue;
            if (!(distance(pos, q) <= reach + kEps)) continue;
            if (!covered(rules.sight, rules.cover, q, viewer, bodies, r)) continue;
            const double d = distance(q, goal);
            if (!found || d < best_d || (d == best_d && np_point_less(q, best))) {
                found = true;
                best = q;
                best_d = d;
            }
        }
    }
    return found ? best : goal;
}

std::optional<Point> defend_goal(const NpTables& tables, const RulesTables& rules, const Battlefield& bf,
                                 std::span<const Point> candidates, Point enemy, std::string_view own_edge,
                                 Point origin, std::span<const Body> bodies, std::int64_t mover, bool ews,
                                 std::int64_t target) {
    const Point base = edge_point(bf, enemy, own_edge, 0.0);
    const double limit = distance(enemy, base);
    std::vector<Point> ok;
    for (const Point p : candidates) {
        if (!(distance(p, edge_point(bf, p, own_edge, 0.0)) <= limit + kEps)) continue;
        if (!sight(rules.sight, p, enemy, mover, target, bodies, ews, tables.sight_base_radius).visible) continue;
        ok.push_back(p);
    }
    std::vector<Point> sheltered;
    for (const Point p : ok) {
        if (covered(rules.sight, rules.cover, p, enemy, bodies, tables.sight_base_radius)) sheltered.push_back(p);
    }
    const std::vector<Point>& pool = sheltered.empty() ? ok : sheltered;
    std::optional<Point> best;
    double best_line = 0.0;
    double best_origin = 0.0;
    for (const Point p : pool) {
        const double line = pyround(point_segment_distance(p, enemy, base), tables.goal_round_digits);
        const double from = distance(p, origin);
        if (!best || line < best_line ||
            (line == best_line && (from < best_origin || (from == best_origin && np_point_less(p, *best))))) {
            best = p;
            best_line = line;
            best_origin = from;
        }
    }
    return best;
}

}  // namespace wargym::no_quarter
