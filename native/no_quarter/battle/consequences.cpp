// Mirror of rules/no_quarter/battle/consequences.py (consequences.hpp).
#include "consequences.hpp"

#include <algorithm>
#include <string>

#include "../../errors.hpp"
#include "luck.hpp"
#include "ranged_combat.hpp"
#include "reaction.hpp"

namespace wargym::no_quarter {

using events::Ints;

namespace {

const RulesTables& rules_of(const Ctx& ctx) {
    if (!ctx.rules) throw NotPorted("the native handlers need Ctx.rules (forces/data.hpp RulesTables)");
    return *ctx.rules;
}

bool has_attribute(const Mech& mech, Attribute a) {
    const auto& attributes = mech.record->pilot.attributes;
    return std::find(attributes.begin(), attributes.end(), a) != attributes.end();
}

AttributeSet attribute_set(const Mech& mech) {
    AttributeSet out{};
    for (Attribute a : mech.record->pilot.attributes) out[static_cast<std::size_t>(a)] = true;
    return out;
}

std::int64_t armor_at(const Mech& mech, Location location) {
    return mech.armor[static_cast<std::size_t>(location)];
}

bool lost_limb(const Mech& mech, Location location) {
    return std::find(mech.lost_limbs.begin(), mech.lost_limbs.end(), location) != mech.lost_limbs.end();
}

bool inoperable(const Mech& mech, std::int64_t item) {
    return std::find(mech.inoperable.begin(), mech.inoperable.end(), item) != mech.inoperable.end();
}

// ItemType.is_weapon: anything but the miscellaneous items (jump jets, EWS; §10.4, §10.6).
bool is_weapon(ItemType item) {
    return item != ItemType::jump_jets && item != ItemType::ews_1 && item != ItemType::ews_2;
}

// state.Mech.has_jump_jets: operable jump jets (§10.6.1).
bool has_jump_jets(const Mech& mech) {
    const auto& items = mech.design().items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].item == ItemType::jump_jets && !inoperable(mech, static_cast<std::int64_t>(i))) return true;
    }
    return false;
}

Mech& mech_ref(Ctx& ctx, std::int64_t id) {
    for (Mech& m : ctx.battle.mechs) {
        if (m.id == id) return m;
    }
    throw StateError("battle.mechs", "no mech " + std::to_string(id));
}

std::vector<Body> others_than(const Battle& battle, std::int64_t id) {
    std::vector<Body> out;
    for (const Body& b : bodies(battle)) {
        if (b.id != id) out.push_back(b);
    }
    return out;
}

Edge edge_named(const std::string& text, const char* what) {
    for (std::size_t i = 0; i < 4; ++i) {
        if (text == kEdgeNames[i]) return static_cast<Edge>(i);
    }
    throw StateError(what, "'" + text + "' is not one of ['north', 'south', 'east', 'west']");
}

// consequences._ducked_back: in cover from the cause (D9: out of LOS, in cover or concealed).
void ducked_back(Ctx& ctx, const Mech& mech, const Mech& cause) {
    if (mech.removed || cause.removed) return;
    const RulesTables& r = rules_of(ctx);
    const Scene scene = make_scene(ctx.battle, r.sight);
    const bool covered = !line_between(scene, cause, mech).visible ||
                         in_cover_from(scene, r.cover, cause, mech) || concealed(r.cover, mech);
    ctx.emit(events::DuckedBack{mech.id, cause.id, covered});
}

}  // namespace

// consequences.cross_flames
void cross_flames(Ctx& ctx, Mech& mech, std::span<const Point> path, bool goes_on) {
    if (ctx.battle.flames.empty() || mech.removed) return;
    const RulesTables& r = rules_of(ctx);
    const std::int64_t impact = r.flamer_impact;
    const double radius = ctx.battle.options->base_radius;
    std::vector<std::int64_t> crossed = flame_area_hits(r.flames, path, ctx.battle.flames, radius);
    if (goes_on) {
        const std::vector<std::int64_t> started_in = flames_at(r.flames, path[0], ctx.battle.flames, radius);
        std::erase_if(crossed, [&](std::int64_t k) {
            return std::find(started_in.begin(), started_in.end(), k) != started_in.end();
        });
    }
    const std::int64_t id = mech.id;
    for (std::int64_t flame : crossed) {
        Mech& m = mech_ref(ctx, id);
        if (m.removed) return;
        ctx.emit(events::FlameCrossed{id, flame});
        const std::vector<int> faces = ctx.dice.roll(2);
        const Location location = hit_location(r.combat, {faces[0], faces[1]});
        ctx.emit(events::HitLocated{id, {faces[0], faces[1]}, location, false, {}});
        if (lost_limb(mech_ref(ctx, id), location)) continue;
        const std::vector<int> dmg = ctx.dice.roll(2);
        const std::int64_t before = armor_at(mech_ref(ctx, id), location);
        const DamageOutcome outcome = ranged_damage(r.combat, {dmg[0], dmg[1]}, impact, before);
        ctx.emit(events::DamageRolled{id, location, {dmg[0], dmg[1]}, impact, outcome.passed, before,
                                      outcome.armor_after, outcome.critical, false, outcome.armor_loss});
        if (outcome.critical) critical_hit(ctx, mech_ref(ctx, id), location);
        if (outcome.armor_loss > 0 && !mech_ref(ctx, id).removed) {
            queue_tests(ctx, {react_entry(id, ReactionTest::takes_damage, {})});
        }
    }
}

// consequences.involuntary_in_sight
void involuntary_in_sight(Ctx& ctx, Mech& mech, std::span<const std::int64_t> seen_before) {
    if (mech.removed) return;
    std::vector<std::int64_t> now;
    {
        const Scene scene = make_scene(ctx.battle, rules_of(ctx).sight);
        now = visible_enemies(scene, mech, mech.pos, facing(mech));
    }
    std::vector<std::int64_t> fresh;
    std::set_difference(now.begin(), now.end(), seen_before.begin(), seen_before.end(), std::back_inserter(fresh));
    const std::int64_t id = mech.id;
    const Side side = mech.side;
    std::vector<std::int64_t> groups = new_sightings(ctx.battle, mech, fresh);
    if (!groups.empty()) ctx.push(insight_frame(id, side, std::move(groups)));
}

// consequences.ignores_duck_back
bool ignores_duck_back(const Ctx& ctx, const Mech& mech) {
    return duck_back_becomes(rules_of(ctx).combat, attribute_set(mech)) == ReactionResult::carry_on;
}

// consequences.duck_back
void duck_back(Ctx& ctx, Mech& mech, const Mech* cause, std::string_view reason) {
    if (mech.removed || mech.prone || mech.status == Status::leave_battlefield) return;  // D25, §16.3.3
    if (ignores_duck_back(ctx, mech)) return;  // it carries on (§9.6.4)
    const std::int64_t id = mech.id;
    ctx.emit(events::StatusChanged{id, Status::duck_back, std::string(reason)});
    if (!cause) return;
    const std::int64_t cause_id = cause->id;
    Mech& m = mech_ref(ctx, id);
    if (m.speed <= 0) {
        ducked_back(ctx, m, mech_ref(ctx, cause_id));  // it stays where it is: cover there counts
        return;
    }
    const RulesTables& r = rules_of(ctx);
    const std::vector<Body> others = others_than(ctx.battle, id);
    DuckBackArgs args;
    args.max_dist = std::min(r.duck_back_max, static_cast<double>(m.speed));
    args.speed = static_cast<double>(m.speed);
    args.mover_id = id;
    args.cause_id = cause_id;
    args.radius = ctx.battle.options->base_radius;
    args.jump_jets = has_jump_jets(m);  // it may jump over what is in the way (§10.6.1, D28)
    const Point cause_pos = mech_ref(ctx, cause_id).pos;
    const DuckBack moved = duck_back_move(r.move, m.pos, cause_pos, others, args);
    const double away = heading_to(cause_pos, m.pos);  // even after a jump: away from the cause (D9)
    const double inches = distance(m.pos, moved.to);
    std::vector<std::int64_t> seen;
    {
        const Scene scene = make_scene(ctx.battle, r.sight);
        seen = visible_enemies(scene, m, m.pos, facing(m));
    }
    const Point start = m.pos;
    ctx.emit(events::MechMoved{id, {start, moved.to}, away, inches, inches, "duck_back", moved.jump});
    const Point path[2] = {start, moved.to};
    cross_flames(ctx, mech_ref(ctx, id), path);
    ducked_back(ctx, mech_ref(ctx, id), mech_ref(ctx, cause_id));
    involuntary_in_sight(ctx, mech_ref(ctx, id), seen);
}

// consequences.leave_move
void leave_move(Ctx& ctx, Mech& mech) {
    if (mech.removed || mech.prone || mech.speed <= 0) return;
    const RulesTables& r = rules_of(ctx);
    const std::int64_t id = mech.id;
    std::optional<Point> nearest;
    double best = 0.0;
    for (const Mech* e : mechs_of(ctx.battle, other(mech.side))) {  // min(): the first nearest
        const double d = distance(e->pos, mech.pos);
        if (!nearest || d < best) {
            nearest = e->pos;
            best = d;
        }
    }
    std::optional<Edge> home;
    if (const std::string* h = ctx.battle.home_edges.find(mech.side)) home = edge_named(*h, "home_edge");
    const std::optional<Edge> edge = nearest_edge_away(r.move, mech.pos, nearest, home);
    if (!edge) throw StateError("edge", "None is not one of ['north', 'south', 'east', 'west']");
    const std::vector<Body> others = others_than(ctx.battle, id);
    const Leave moved = leave_move_to(r.move, mech.pos, *edge, static_cast<double>(mech.speed), id, others,
                                      ctx.battle.options->base_radius, has_jump_jets(mech));
    const double inches = distance(mech.pos, moved.to);
    const Point start = mech.pos;
    std::vector<std::int64_t> seen;
    {
        const Scene scene = make_scene(ctx.battle, r.sight);
        seen = visible_enemies(scene, mech, mech.pos, facing(mech));
    }
    // a jump lands facing as before (§10.6.1, D28); a walk faces its way
    const double heading = (inches != 0.0 && !moved.jumped) ? heading_to(mech.pos, moved.to) : mech.heading;
    ctx.emit(events::MechMoved{id, {start, moved.to}, heading, inches, inches, "leave", moved.jumped});
    const Point path[2] = {start, moved.to};
    cross_flames(ctx, mech_ref(ctx, id), path);  // flames on the way off the table burn too (D27)
    if (moved.exited) {
        if (!mech_ref(ctx, id).removed) {
            ctx.emit(events::MechLeftTable{id, kEdgeNames[static_cast<std::size_t>(*edge)]});
            remove(ctx, mech_ref(ctx, id), Removal::left_table);
        }
        return;
    }
    involuntary_in_sight(ctx, mech_ref(ctx, id), seen);
}

// consequences.leave_battlefield
void leave_battlefield(Ctx& ctx, Mech& mech, std::string_view reason, std::span<const std::int64_t> enemies) {
    if (mech.removed || mech.status == Status::leave_battlefield) return;
    const std::int64_t id = mech.id;
    ctx.emit(events::StatusChanged{id, Status::leave_battlefield, std::string(reason)});
    std::vector<ReactEntry> entries = mech_down_entries(ctx, mech_ref(ctx, id));
    queue_tests(ctx, caused_by(entries, Ids(enemies.begin(), enemies.end())));
    Mech& m = mech_ref(ctx, id);
    if (!m.prone) leave_move(ctx, m);  // a prone mech leaves after it stands (ruling D25)
}

// consequences.mech_down_entries
std::vector<ReactEntry> mech_down_entries(const Ctx& ctx, const Mech& downed) {
    const RulesTables& r = rules_of(ctx);
    std::vector<ReactEntry> entries;
    std::optional<Scene> scene;
    for (const Mech* friend_ : mechs_of(ctx.battle, downed.side)) {
        if (friend_->id == downed.id || friend_->design().mech_class < downed.design().mech_class) continue;
        if (distance(friend_->pos, downed.pos) > r.mech_down_radius_inches) continue;
        if (r.mech_down_requires_los) {
            if (!scene) scene.emplace(make_scene(ctx.battle, r.sight));
            if (!line_between(*scene, *friend_, downed).visible) continue;
        }
        entries.push_back(react_entry(friend_->id, ReactionTest::mech_down, {downed.id}));
    }
    return entries;
}

// consequences.remove
void remove(Ctx& ctx, Mech& mech, Removal reason) {
    if (mech.removed) return;
    const bool was_leaving = mech.status == Status::leave_battlefield;
    std::vector<ReactEntry> entries;
    if (!was_leaving) entries = mech_down_entries(ctx, mech);
    const std::int64_t id = mech.id;
    ctx.emit(events::MechRemoved{id, reason, mech.side, mech.design().mech_class});
    queue_tests(ctx, std::move(entries));
    const Mech& lost = mech_ref(ctx, id);
    if (lost.rank) succession(ctx, lost);
}

// consequences._succession
void succession(Ctx& ctx, const Mech& lost) {
    const Mech copy = lost;  // events may move the mechs vector's elements
    std::vector<Rank> ranks{Rank::team_leader};
    if (copy.rank && *copy.rank != Rank::team_leader) ranks.push_back(*copy.rank);
    const std::vector<const Mech*> friends = mechs_of(ctx.battle, copy.side);
    for (Rank rank : ranks) {
        const Mech* heir = successor(rules_of(ctx).leaders, copy, rank, friends);
        if (heir) ctx.emit(events::LeaderAppointed{heir->id, std::string(kRank[rank]), copy.id});
    }
}

// consequences.pilot_killed
void pilot_killed(Ctx& ctx, Mech& mech, std::string_view) {
    const char* via = nullptr;
    if (mech.record->pilot.star) {
        via = "star";
    } else if (has_attribute(mech, Attribute::hard_as_nails) && !mech.hard_as_nails_used) {
        via = "hard_as_nails";
    }
    const std::int64_t id = mech.id;
    if (via) {
        ctx.emit(events::CheatedDeath{id, mech.rep - 1, via});
        remove(ctx, mech_ref(ctx, id), Removal::cheated_death);
    } else {
        remove(ctx, mech, Removal::destroyed);
    }
}

// consequences.may_use_lucky / _may_use_lucky
bool may_use_lucky(const Ctx& ctx, const Mech& mech) {
    return ctx.battle.options->lucky == Lucky::automatic && has_attribute(mech, Attribute::lucky) &&
           !mech.lucky_used;
}

// consequences.pilot_test
void pilot_test(Ctx& ctx, Mech& mech) {
    const CombatTables& t = rules_of(ctx).combat;
    const std::int64_t id = mech.id;
    const std::int64_t rep = pilot_test_rep(t, mech.rep, attribute_set(mech));
    std::vector<int> faces = ctx.dice.roll(1);
    std::vector<int> rerolled;
    const auto passed_of = [&](const std::vector<int>& f) { return passed_dice(f.data(), f.size(), rep, t.pass_cap); };
    if (passed_of(faces) == 0 && may_use_lucky(ctx, mech)) {
        rerolled = faces;
        faces = ctx.dice.roll(1);
        ctx.emit(events::LuckyReroll{id, "pilot_test", Ints(rerolled.begin(), rerolled.end()),
                                     Ints(faces.begin(), faces.end())});
    } else if (passed_of(faces) == 0) {  // lucky="choose": the pilot's side may re-roll (D26)
        const bool unused = !mech.lucky_used;
        std::vector<int> fresh = offer_lucky(ctx, mech, "pilot_test", faces, true);
        if (unused && mech_ref(ctx, id).lucky_used) {
            rerolled = faces;
            faces = std::move(fresh);
        }
    }
    const Mech& m = mech_ref(ctx, id);
    const bool passed = passed_of(faces) > 0;
    const bool resilient = !passed && has_attribute(m, Attribute::resilient) && !m.resilient_used;
    const std::int64_t rep_after = (passed || resilient) ? m.rep : m.rep - 1;
    ctx.emit(events::PilotTested{id, faces[0], rep, passed, !passed, rep_after, resilient,
                                 Ints(rerolled.begin(), rerolled.end())});
}

// consequences.critical_hit
void critical_hit(Ctx& ctx, Mech& mech, Location location) {
    const CombatTables& t = rules_of(ctx).combat;
    const std::int64_t id = mech.id;
    const std::int64_t armor = armor_at(mech, location);
    const CriticalKind kind = critical_kind(t, location, armor);
    Ints faces, lost, pool;
    std::optional<Removal> removal;
    std::int64_t speed = mech.speed;
    const auto& items = mech.design().items;
    if (kind == CriticalKind::arm_blown_off) {
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (items[i].location == location) lost.push_back(static_cast<std::int64_t>(i));
        }
    } else if (kind == CriticalKind::arm_weapon_lost || kind == CriticalKind::random_item_lost) {
        const bool any = kind == CriticalKind::random_item_lost;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const auto index = static_cast<std::int64_t>(i);
            if (!inoperable(mech, index) && (any || items[i].location == location) &&
                (any || is_weapon(items[i].item))) {
                pool.push_back(index);
            }
        }
        if (!pool.empty()) {
            RolledIndex picked = roll_index(ctx.dice, static_cast<std::int64_t>(pool.size()));
            faces.assign(picked.faces.begin(), picked.faces.end());
            lost = {pool[static_cast<std::size_t>(picked.index)]};
        }
    } else if (kind == CriticalKind::chest_roll) {
        const std::vector<int> face = ctx.dice.roll(1);
        faces = {face[0]};
        removal = chest_explosion(t, face[0]);
    } else if (kind == CriticalKind::gut_inoperable || kind == CriticalKind::leg_blown_off) {
        removal = Removal::inoperable;
    } else if (kind == CriticalKind::head_blown_off) {
        removal = Removal::destroyed;
    } else if (kind == CriticalKind::leg_speed_halved) {
        speed = halved_speed(mech.speed);
    }
    const std::optional<std::int64_t> item_lost = lost.empty() ? std::nullopt : std::optional(lost[0]);
    ctx.emit(events::CriticalHit{id, location, std::string(kCriticalKind[kind]), faces, item_lost, lost, speed,
                                 removal, armor, pool});
    Mech& m = mech_ref(ctx, id);
    if (removal == Removal::destroyed) {
        pilot_killed(ctx, m, kCriticalKind[kind]);
    } else if (removal) {
        remove(ctx, m, *removal);
    } else if (kind == CriticalKind::pilot_test_head ||
               (kind == CriticalKind::leg_speed_halved && m.speed > 0)) {
        pilot_test(ctx, m);
    }
}

}  // namespace wargym::no_quarter
