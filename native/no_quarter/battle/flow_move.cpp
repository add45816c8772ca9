// Mirror of rules/no_quarter/battle/flow_move.py and facing.turn_to (flow_move.hpp).
#include "flow_move.hpp"

#include "flow_melee.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>

#include "../../errors.hpp"
#include "../sight_movement/bumping.hpp"
#include "../sight_movement/pyfloat.hpp"
#include "consequences.hpp"
#include "reaction.hpp"

namespace wargym::no_quarter {

namespace move_detail {

const RulesTables& rules_of(const Ctx& ctx) {
    if (!ctx.rules) throw NotPorted("the native handlers need Ctx.rules (forces/data.hpp RulesTables)");
    return *ctx.rules;
}

Mech& mech_ref(Battle& battle, std::int64_t id) { return const_cast<Mech&>(mech_at(battle, id, "battle.mechs")); }

namespace {
std::vector<Sighter> sighters(const Battle& battle) {
    std::vector<Sighter> out;
    for (const Mech& m : battle.mechs) {
        if (m.removed) continue;
        out.push_back({m.id, static_cast<int>(m.side), m.pos, has_functioning_ews(m), m.status == Status::duck_back,
                       m.hidden_from});
    }
    return out;
}
}  // namespace

std::vector<BaseAt> planning_bases_of(const Battle& battle, const RulesTables& rules, const Mech& mech) {
    const BattleOptions& o = *battle.options;
    const std::vector<Sighter> in_play = sighters(battle);
    const std::vector<BaseAt> bases = all_bases(in_play, battle.wrecks, o.base_radius);
    return planning_bodies(rules.move, in_play, bases, mech.id, static_cast<int>(mech.side), o.base_radius,
                           o.unseen_bases == UnseenBases::bump);
}

std::vector<Body> planning_bodies_of(const Battle& battle, const RulesTables& rules, const Mech& mech) {
    std::vector<Body> out;
    for (const BaseAt& b : planning_bases_of(battle, rules, mech)) out.push_back({b.id, b.x, b.y, b.radius});
    return out;
}

// bumping.bump(battle, mech, to, jump=jump)
std::optional<Bump> bump_of(const Battle& battle, const RulesTables& rules, const Mech& mech, Point to, bool jump) {
    const BattleOptions& o = *battle.options;
    const std::vector<Sighter> in_play = sighters(battle);
    const std::vector<BaseAt> bases = all_bases(in_play, battle.wrecks, o.base_radius);
    return bump(rules.move, in_play, bases, mech.id, static_cast<int>(mech.side), mech.pos, to, jump, o.base_radius,
                o.unseen_bases == UnseenBases::bump);
}

}  // namespace move_detail

using namespace move_detail;

namespace {

using events::Ints;

std::vector<std::int64_t> minus(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
    std::vector<std::int64_t> out;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}


// flow_move._cost: deep water beyond the shore band takes the whole move (§19.7.1).
double move_cost(const RulesTables& r, const Mech& mech, std::span<const Point> path, bool jump) {
    const double cost = path_cost(r.move, path, jump ? std::optional<std::int64_t>(0) : std::nullopt);
    return std::isinf(cost) ? static_cast<double>(mech.speed) : cost;
}

// np_flow.pef_spotted_at: only the no-PEF case is mirrored.
bool pef_spotted_at(const Battle& battle, const Mech& mech) {
    if (battle.np.is_null()) return false;
    if (battle.np.kind() == Json::Kind::object) {
        for (const auto& [k, v] : battle.np.as_object()) {
            if (k == "side" && v.kind() == Json::Kind::string && v.as_string() == kSide[mech.side]) return false;
        }
    }
    throw NotPorted("not ported to the native core yet: np_flow.pef_spotted_at");
}

}  // namespace

// flow_move.walk
std::pair<double, bool> walk(Ctx& ctx, std::int64_t id, Point to, double heading, std::string_view kind, bool jump,
                             bool in_sight, bool goes_on) {
    Battle& battle = ctx.battle;
    const RulesTables& r = rules_of(ctx);
    const Mech& mech = mech_at(battle, id, "battle.mechs");
    const Point start = mech.pos;
    const bool planned_kind = kind == "voluntary" || kind == "reverse" || kind == "jump";  // PLANNED_MOVES
    const std::optional<Bump> blocked = planned_kind ? bump_of(battle, r, mech, to, jump) : std::nullopt;
    const Point planned = to;
    const std::int64_t blocker = blocked ? blocked->base : 0;
    if (blocked) to = blocked->to;  // an unseen base is in the way: the move ends short of it (E5)
    const double length = distance(start, to);
    const double face = py_mod360(heading + static_cast<double>(mech.twist));
    std::vector<std::int64_t> seen;
    if (in_sight) {
        const Scene scene = make_scene(battle, r.sight);
        seen = visible_enemies(scene, mech, start, face);
    }
    // a jump cannot pause in mid-air over a base or a building: check at its landing only
    const std::int64_t steps =
        in_sight && !jump ? std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(length / r.in_sight_step))) : 1;
    for (std::int64_t i = 1; i <= steps; ++i) {
        const double t = static_cast<double>(i) / static_cast<double>(steps);
        const Point point{start.x + (to.x - start.x) * t, start.y + (to.y - start.y) * t};
        if (!in_sight) break;
        std::vector<std::int64_t> now;
        {
            const Scene scene = make_scene(battle, r.sight);
            now = visible_enemies(scene, mech, point, face);
        }
        const std::vector<std::int64_t> trigger = new_sightings(battle, mech, minus(now, seen));
        seen = now;
        if (!trigger.empty() || pef_spotted_at(battle, mech)) {  // a PEF resolves there (§20.3)
            const Point path[2] = {start, point};
            const double cost = move_cost(r, mech, path, jump);
            const Side side = mech.side;
            ctx.emit(events::MechMoved{id, {start, point}, heading, cost, distance(start, point), std::string(kind), false});
            cross_flames(ctx, mech_ref(battle, id), path, goes_on);
            if (blocked && t >= 1.0) ctx.emit(events::MoveBlocked{id, blocker, planned, to});
            if (!trigger.empty()) ctx.push(insight_frame(id, side, trigger));
            return {cost, t < 1.0};
        }
    }
    const Point path[2] = {start, to};
    const double cost = move_cost(r, mech, path, jump);
    if (!blocked || length > 0.0) {
        ctx.emit(events::MechMoved{id, {start, to}, heading, cost, length, std::string(kind), false});
        cross_flames(ctx, mech_ref(battle, id), path, goes_on);
    }
    if (blocked) ctx.emit(events::MoveBlocked{id, blocker, planned, to});
    return {cost, false};
}

// facing.turn_to
void turn_to(Ctx& ctx, std::int64_t id, const Face& action) {
    Battle& battle = ctx.battle;
    const RulesTables& r = rules_of(ctx);
    const Mech& mech = mech_at(battle, id, "battle.mechs");
    const double heading = action.heading ? py_mod360(*action.heading) : mech.heading;
    if (heading == mech.heading && action.twist == mech.twist) return;
    std::vector<std::int64_t> before;
    {
        const Scene scene = make_scene(battle, r.sight);
        before = visible_enemies(scene, mech, mech.pos, facing(mech));
    }
    ctx.emit(events::MechFaced{id, heading, action.twist});
    std::vector<std::int64_t> after;
    {
        const Scene scene = make_scene(battle, r.sight);
        after = visible_enemies(scene, mech, mech.pos, facing(mech));
    }
    const std::vector<std::int64_t> trigger = new_sightings(battle, mech, minus(after, before));
    if (!trigger.empty()) ctx.push(insight_frame(id, mech.side, trigger));
}

}  // namespace wargym::no_quarter
