// Mirror of rules/no_quarter/battle/flow_move.py's In Sight handler (flow_move.hpp): insight_step,
// insight_options, insight_act and their helpers (_members, _roll, _leader_roll, _live_foes, _acts,
// _equal_rep_winners, _next_winner, _free_targets). walk and turn_to are in flow_move.cpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "../../errors.hpp"
#include "../sight_movement/bumping.hpp"
#include "../sight_movement/pyfloat.hpp"
#include "consequences.hpp"
#include "flow_charges.hpp"
#include "flow_melee.hpp"
#include "flow_move.hpp"
#include "reaction.hpp"

namespace wargym::no_quarter {

using namespace move_detail;

namespace {

using events::Ints;

bool holds(const std::vector<std::int64_t>& v, std::int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::int64_t group_of(const Battle& battle, std::int64_t id) {
    for (const auto& [member, leader] : battle.group_of) {
        if (member == id) return leader;
    }
    return id;
}

// flow_move._members
std::vector<const Mech*> members(const Battle& battle, std::int64_t leader, Side side) {
    std::vector<const Mech*> out;
    for (const Mech* m : mechs_of(battle, side)) {
        if (group_of(battle, m->id) == leader) out.push_back(m);
    }
    return out;
}

std::vector<std::int64_t> ids_of(const std::vector<const Mech*>& mechs) {
    std::vector<std::int64_t> out;
    for (const Mech* m : mechs) out.push_back(m->id);
    return out;
}

template <class V>
void set_id(IdMap<V>& map, std::int64_t id, V value) {  // d[str(id)] = value
    for (auto& [k, v] : map) {
        if (k == id) {
            v = std::move(value);
            return;
        }
    }
    map.emplace_back(id, std::move(value));
}

// flow_move._leader_roll: Rep d6 counting successes, with the In Sight modifiers (§16.1.3).
std::pair<Ints, std::int64_t> leader_roll(Ctx& ctx, const Mech& leader, const std::vector<const Mech*>& enemies) {
    const RulesTables& r = rules_of(ctx);
    bool hidden = !enemies.empty();
    for (const Mech* e : enemies) hidden = hidden && concealed(r.cover, *e);
    AttributeSet attributes{};
    for (Attribute a : leader.record->pilot.attributes) attributes[static_cast<std::size_t>(a)] = true;
    const std::int64_t n = in_sight_dice(r.combat, leader.rep, leader.record->pilot.race, attributes, hidden);
    const std::vector<int> faces = ctx.dice.roll(n);
    std::optional<ItemType> ews;
    const auto& items = leader.design().items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const ItemType it = items[i].item;
        if ((it == ItemType::ews_1 || it == ItemType::ews_2) && !holds(leader.inoperable, static_cast<std::int64_t>(i))) {
            ews = it;
            break;
        }
    }
    std::int64_t succ = 0;
    for (int f : faces) succ += f <= r.success_face ? 1 : 0;
    return {Ints(faces.begin(), faces.end()), succ + in_sight_bonus_successes(r.combat, ews)};
}

// flow_move._roll
void roll(Ctx& ctx, FrameRef ref, Side side, std::int64_t own_group) {
    Battle& battle = ctx.battle;
    const RulesTables& r = rules_of(ctx);
    const std::vector<const Mech*> movers = members(battle, own_group, side);
    std::vector<std::int64_t> groups = battle.frames[ref.index].as<InsightFrame>().enemy_groups;
    for (const Mech* m : movers) {  // the free moves may bring new groups in: they join (§16.1.5)
        std::vector<std::int64_t> seen;
        {
            const Scene scene = make_scene(battle, r.sight);
            seen = visible_enemies(scene, *m, m->pos, facing(*m));
        }
        const std::vector<std::int64_t> fresh = new_sightings(battle, *m, seen);
        groups.insert(groups.end(), fresh.begin(), fresh.end());
    }
    std::vector<std::pair<std::int64_t, std::vector<const Mech*>>> involved;
    for (std::int64_t g : groups) {
        auto members_of = members(battle, g, other(side));
        bool found = false;
        for (auto& [k, v] : involved) {
            if (k == g) {
                v = members_of;
                found = true;
            }
        }
        if (!found) involved.emplace_back(g, std::move(members_of));
    }
    const Scene scene = make_scene(battle, r.sight);
    std::vector<const Mech*> moving_part;
    std::vector<std::int64_t> moving_seen;
    for (const Mech* m : movers) {
        bool any = false;
        for (const auto& [g, es] : involved) {
            for (const Mech* e : es) {
                if (visible_from(scene, *m, m->pos, facing(*m), *e)) {
                    any = true;
                    if (!holds(moving_seen, e->id)) moving_seen.push_back(e->id);
                }
            }
        }
        if (any) moving_part.push_back(m);
    }
    if (moving_part.empty()) return;
    std::sort(moving_seen.begin(), moving_seen.end());
    const std::vector<std::int64_t> part_ids = ids_of(moving_part);
    const std::int64_t m_leader_id = group_leader(battle, part_ids);
    std::vector<const Mech*> seen_mechs;
    for (std::int64_t e : moving_seen) seen_mechs.push_back(&mech_at(battle, e, "battle.mechs"));
    const auto [m_faces, m_succ] = leader_roll(ctx, mech_at(battle, m_leader_id, "battle.mechs"), seen_mechs);
    bool moving_won_all = true;
    Ids winners;
    IdMap<Ids> opponents;
    for (const auto& [g, enemies] : involved) {
        std::vector<std::int64_t> part;
        for (const Mech* e : enemies) {
            if (holds(moving_seen, e->id)) part.push_back(e->id);
        }
        if (part.empty()) continue;
        const std::int64_t e_leader = group_leader(battle, part);
        std::vector<const Mech*> moving_now;
        for (std::int64_t id : part_ids) moving_now.push_back(&mech_at(battle, id, "battle.mechs"));
        const auto [e_faces, e_succ] = leader_roll(ctx, mech_at(battle, e_leader, "battle.mechs"), moving_now);
        const bool won = moving_side_wins(r.combat, m_succ, e_succ);
        ctx.emit(events::InSightTaken{m_leader_id, m_faces, m_succ, e_leader, e_faces, e_succ, won});
        if (!won) {
            moving_won_all = false;
            for (std::int64_t e : part) {
                winners.push_back(e);
                set_id(opponents, e, part_ids);
            }
        }
    }
    if (moving_won_all) {
        for (std::int64_t m : part_ids) {
            winners.push_back(m);
            set_id(opponents, m, moving_seen);
        }
    }
    std::stable_sort(winners.begin(), winners.end(), [&](std::int64_t a, std::int64_t b) {
        const std::int64_t ra = mech_at(battle, a, "battle.mechs").rep, rb = mech_at(battle, b, "battle.mechs").rep;
        return ra != rb ? ra > rb : a < b;
    });
    InsightFrame& f = ctx.edit(ref).as<InsightFrame>();
    f.winners = std::move(winners);
    f.opponents = std::move(opponents);
}

// flow_move._live_foes
std::vector<const Mech*> live_foes(const Battle& battle, const InsightFrame& frame, const Mech& mech) {
    std::vector<const Mech*> out;
    if (const Ids* ids = find_id(frame.opponents, mech.id)) {
        for (std::int64_t i : *ids) {
            const Mech& m = mech_at(battle, i, "battle.mechs");
            if (!m.removed) out.push_back(&m);
        }
    }
    return out;
}

// flow_move._acts
bool acts(const Battle& battle, const InsightFrame& frame, std::int64_t id) {
    const Mech& mech = mech_at(battle, id, "battle.mechs");
    return !mech.removed && mech.status == Status::carry_on && !live_foes(battle, frame, mech).empty();
}

// flow_move._equal_rep_winners without its pruning of frame["winners"] (the caller prunes).
Ids equal_rep_winners(const Battle& battle, const InsightFrame& frame, Ids* pruned) {
    Ids still;
    for (std::int64_t i : frame.winners) {
        if (acts(battle, frame, i)) still.push_back(i);
    }
    if (pruned) *pruned = still;
    if (still.empty()) return {};
    std::int64_t top = std::numeric_limits<std::int64_t>::min();
    for (std::int64_t i : still) top = std::max(top, mech_at(battle, i, "battle.mechs").rep);
    Ids out;
    for (std::int64_t i : still) {
        if (mech_at(battle, i, "battle.mechs").rep == top) out.push_back(i);
    }
    return out;
}

// flow_charges.start_waiting_charges is flow_charges.cpp's (flow_charges.hpp).

// flow_move._next_winner
void next_winner(Ctx& ctx, FrameRef ref) {
    Battle& battle = ctx.battle;
    const RulesTables& r = rules_of(ctx);
    Ids tier;
    {
        Frame& f = ctx.edit(ref);
        InsightFrame& fr = f.as<InsightFrame>();
        Ids pruned;
        tier = equal_rep_winners(battle, fr, &pruned);
        fr.winners = std::move(pruned);
    }
    if (tier.empty()) {
        if (start_waiting_charges(ctx, ref)) return;  // several chargers, one target (§18.2.1)
        ctx.edit(ref).as<InsightFrame>().stage = InsightStage::done;
        return;
    }
    Frame& f = ctx.edit(ref);
    InsightFrame& fr = f.as<InsightFrame>();
    const bool has_next = f.has(FrameKey::next);
    if (tier.size() > 1 && !(has_next && holds(tier, fr.next))) {
        ctx.ask(mech_at(battle, tier[0], "battle.mechs").side, DecisionKind::choose_mech);
        return;
    }
    const std::int64_t chosen = has_next ? fr.next : tier[0];
    f.keys.erase(FrameKey::next);
    fr.winners.erase(std::find(fr.winners.begin(), fr.winners.end(), chosen));
    const Mech& mech = mech_at(battle, chosen, "battle.mechs");
    const std::vector<const Mech*> foes = live_foes(battle, fr, mech);
    if (mid_charge(battle, mech.id)) {  // it charges on after the In Sight (§18.2, D6, D8)
        ctx.emit(events::InSightAction{mech.id, "carry_on"});
        return;
    }
    const bool spent = battle.active_side && mech.side == *battle.active_side && mech.fired_this_activation;
    if (spent && battle.options->in_sight_spent_fire == InSightSpentFire::carry_on) {
        ctx.emit(events::InSightAction{mech.id, "carry_on"});  // it fired already this activation
        return;
    }
    const bool engaged = !engaged_with(battle, mech).empty();
    if (!spent && able_to_fire(mech) && !engaged) {
        const Scene scene = make_scene(battle, r.sight);
        bool can = false;
        for (const Mech* foe : foes) {
            for (std::int64_t w : operable_ranged_weapons(mech)) {
                for (std::int64_t t : r.perception.twists) {
                    if (!can && weapon_can_engage(scene, mech, static_cast<std::size_t>(w), *foe, t)) can = true;
                }
            }
        }
        if (can) {
            ctx.emit(events::InSightAction{mech.id, "fire"});
            ctx.push(fire_frame(mech.id, FireMode::in_sight, ids_of(foes)));
            return;
        }
    }
    Ids near;
    {
        const Scene scene = make_scene(battle, r.sight);
        for (const Mech* foe : foes) {
            if (distance(foe->pos, mech.pos) <= r.in_sight_charge_range && sees(scene, mech, *foe) &&
                room_for_attacker(battle, r, *foe)) {
                near.push_back(foe->id);
            }
        }
    }
    if (!near.empty() && !mech.prone && mech.speed > 0 && !engaged) {
        if (near.size() == 1) {
            ctx.emit(events::InSightAction{mech.id, "charge"});
            ctx.push(charge_frame(mech.id, near[0]));
        } else {
            Frame& g = ctx.edit(ref);
            g.as<InsightFrame>().charging = mech.id;
            g.keys.set(FrameKey::charging);
            g.as<InsightFrame>().charge_options = near;
            g.keys.set(FrameKey::charge_options);
            ctx.ask(mech.side, DecisionKind::charge_target, mech.id);
        }
        return;
    }
    const Mech* nearest = nullptr;
    double best = 0.0;
    for (const Mech* foe : foes) {
        const auto& items = foe->design().items;
        bool threat = false;
        for (std::size_t i = 0; i < items.size() && !threat; ++i) {
            threat = items[i].range && !holds(foe->inoperable, static_cast<std::int64_t>(i)) &&
                     items[i].item != ItemType::melee_weapon &&
                     distance(foe->pos, mech.pos) <= static_cast<double>(*items[i].range);
        }
        if (!threat) continue;
        const double d = distance(foe->pos, mech.pos);
        if (!nearest || d < best) {  // min(): the first nearest
            nearest = foe;
            best = d;
        }
    }
    Mech& m = mech_ref(battle, chosen);
    if (nearest && !ignores_duck_back(ctx, m)) {  // Nerves of Steel carries on (§9.6.4)
        ctx.emit(events::InSightAction{chosen, "duck_back"});
        duck_back(ctx, mech_ref(battle, chosen), nearest, "In Sight winner unable to fire or charge");
        return;
    }
    ctx.emit(events::InSightAction{chosen, "carry_on"});
}

// flow_move._free_targets: the points of the free move (§16.1.3).
std::vector<Point> free_targets(const Battle& battle, const RulesTables& r, const Mech& mech) {
    const double free = r.in_sight_free_move_inches;
    const std::vector<Body> others = planning_bodies_of(battle, r, mech);
    std::vector<double> reaches{std::min(1.0, free), free};  // sorted({min(1.0, free), free})
    std::sort(reaches.begin(), reaches.end());
    reaches.erase(std::unique(reaches.begin(), reaches.end()), reaches.end());
    std::vector<Point> points;
    for (int k = 0; k < 8; ++k) {
        const double angle = (45.0 * k) * (M_PI / 180.0);  // math.radians
        for (double reach : reaches) {
            const Point to{mech.pos.x + reach * std::cos(angle), mech.pos.y + reach * std::sin(angle)};
            const Point path[2] = {mech.pos, to};
            if (!path_problem(r.move, path, mech.id, others, battle.options->base_radius, std::nullopt, false) &&
                path_cost(r.move, path) <= free + 1e-9) {
                points.push_back({pyround(to.x, 3), pyround(to.y, 3)});
            }
        }
    }
    return points;
}

}  // namespace

// flow_move.insight_step
void insight_step(Ctx& ctx, FrameRef ref) {
    Battle& battle = ctx.battle;
    const InsightFrame& fr = battle.frames[ref.index].as<InsightFrame>();
    const Side side = fr.side;
    const Mech& mover = mech_at(battle, fr.mover, "battle.mechs");
    const std::int64_t own_group = group_of(battle, mover.id);
    switch (fr.stage) {
        case InsightStage::free: {
            if (!fr.free) {
                Ids eligible;
                for (const Mech* m : members(battle, own_group, side)) {
                    if (!m->prone && m->speed > 0 && m->status == Status::carry_on && engaged_with(battle, *m).empty()) {
                        eligible.push_back(m->id);
                    }
                }
                ctx.edit(ref).as<InsightFrame>().free = battle.options->in_sight_free_move ? eligible : Ids{};
            }
            const Ids& free = *battle.frames[ref.index].as<InsightFrame>().free;
            if (!free.empty()) {
                ctx.ask(side, DecisionKind::free_move, free[0]);
                return;
            }
            ctx.edit(ref).as<InsightFrame>().stage = InsightStage::roll;
            return;
        }
        case InsightStage::roll:
            roll(ctx, ref, side, own_group);
            ctx.edit(ref).as<InsightFrame>().stage = InsightStage::act;
            return;
        case InsightStage::act:
            next_winner(ctx, ref);
            return;
        case InsightStage::done:
            break;
    }
    Frame done = ctx.pop(ref);
    queue_tests(ctx, std::move(done.as<InsightFrame>().deferred));
}

// flow_move.insight_options
std::vector<Action> insight_options(const Battle& battle, const RulesTables& rules, FrameRef ref) {
    const Frame& f = battle.frames[ref.index];
    const InsightFrame& fr = f.as<InsightFrame>();
    std::vector<Action> options;
    if (fr.stage == InsightStage::free) {
        if (!fr.free || fr.free->empty()) throw std::out_of_range("list index out of range");
        const Mech& mech = mech_at(battle, (*fr.free)[0], "battle.mechs");
        options.emplace_back(FreeMove{mech.id, std::nullopt});
        for (const Point& p : free_targets(battle, rules, mech)) options.emplace_back(FreeMove{mech.id, p});
        return options;
    }
    if (!f.has(FrameKey::charging)) {
        for (std::int64_t i : equal_rep_winners(battle, fr, nullptr)) options.emplace_back(ChooseMech{i});
        return options;
    }
    for (std::int64_t t : fr.charge_options) options.emplace_back(Charge{fr.charging, t});
    return options;
}

// flow_move.insight_act
void insight_act(Ctx& ctx, FrameRef ref, const Action& action) {
    Battle& battle = ctx.battle;
    if (const auto* fm = std::get_if<FreeMove>(&action)) {
        {
            InsightFrame& fr = ctx.edit(ref).as<InsightFrame>();
            if (!fr.free || fr.free->empty()) throw std::out_of_range("pop from empty list");
            fr.free->erase(fr.free->begin());
        }
        if (fm->to) {
            const RulesTables& r = rules_of(ctx);
            const Mech& mech = mech_at(battle, fm->mech, "battle.mechs");
            const std::optional<Bump> blocked = bump_of(battle, r, mech, *fm->to, false);
            const Point to = blocked ? blocked->to : *fm->to;
            const std::int64_t blocker = blocked ? blocked->base : 0;
            const double inches = distance(mech.pos, to);
            const std::int64_t id = mech.id;
            if (inches > 0.0) {
                const Point path[2] = {mech.pos, to};
                ctx.emit(events::MechMoved{id, {path[0], to}, mech.heading, 0.0, inches, "free", false});
                cross_flames(ctx, mech_ref(battle, id), path);  // a free move is a move: flames burn (D27)
            }
            if (blocked) ctx.emit(events::MoveBlocked{id, blocker, *fm->to, to});
        }
        return;
    }
    if (const auto* cm = std::get_if<ChooseMech>(&action)) {
        Frame& f = ctx.edit(ref);
        f.as<InsightFrame>().next = cm->mech;  // the owner orders winners of equal Rep (§16.1.4)
        f.keys.set(FrameKey::next);
        return;
    }
    const auto* charge = std::get_if<Charge>(&action);
    if (!charge) throw std::logic_error("insight_act: not a FreeMove, ChooseMech or Charge");
    Frame& f = ctx.edit(ref);
    if (!f.has(FrameKey::charging)) throw std::out_of_range("'charging'");
    f.keys.erase(FrameKey::charging);
    f.keys.erase(FrameKey::charge_options);
    ctx.emit(events::InSightAction{charge->mech, "charge"});
    ctx.push(charge_frame(charge->mech, charge->target));
}

}  // namespace wargym::no_quarter
