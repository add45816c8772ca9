// Mirror of rules/no_quarter/battle/flow_fire.py (flow_fire.hpp).
#include "flow_fire.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "../../errors.hpp"
#include "../sight_movement/sight_protected.hpp"
#include "consequences.hpp"
#include "luck.hpp"
#include "ranged_combat.hpp"

namespace wargym::no_quarter {

namespace {

using events::Ints;

const Mech& mech_of(const Battle& battle, std::int64_t id) { return mech_at(battle, id, "battle.mechs"); }
Mech& mech_of(Battle& battle, std::int64_t id) {
    return const_cast<Mech&>(mech_at(battle, id, "battle.mechs"));
}

const RulesTables& rules_of(const Ctx& ctx) {
    if (!ctx.rules) throw NotPorted("the native handlers need Ctx.rules (forces/data.hpp RulesTables)");
    return *ctx.rules;
}

bool contains(const std::vector<std::int64_t>& v, std::int64_t x) {
    return std::find(v.begin(), v.end(), x) != v.end();
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

// _twists: TWISTS, or the twist the firing already took.
std::vector<std::int64_t> twists_of(const RulesTables& rules, const FireFrame& frame) {
    if (frame.twist) return {*frame.twist};
    return rules.perception.twists;
}

// _candidates: the enemies in play the frame allows.
std::vector<const Mech*> candidates(const Battle& battle, const FireFrame& frame) {
    const Mech& shooter = mech_of(battle, frame.shooter);
    std::vector<const Mech*> out;
    for (const Mech* enemy : mechs_of(battle, other(shooter.side))) {
        if (!frame.targets || contains(*frame.targets, enemy->id)) out.push_back(enemy);
    }
    return out;
}

// _engage_table: the (target, distance) pairs in some allowed arc and in LOS; engageable()
// filters them by one weapon's range.
struct EngageTable {
    const Mech& shooter;
    std::vector<std::pair<std::int64_t, double>> seen;

    std::vector<std::int64_t> engageable(std::int64_t weapon) const {
        const MountedItem& item = shooter.design().items.at(static_cast<std::size_t>(weapon));
        if (!item.range || contains(shooter.inoperable, weapon)) return {};
        if (item.item == ItemType::flamer && shooter.flamer_fired_turn) return {};
        const auto reach = static_cast<double>(*item.range);
        std::vector<std::int64_t> out;
        for (const auto& [target, gap] : seen) {
            if (!(gap > reach)) out.push_back(target);
        }
        return out;
    }
};

EngageTable engage_table(const Battle& battle, const RulesTables& rules, const FireFrame& frame) {
    const Mech& shooter = mech_of(battle, frame.shooter);
    const std::vector<std::int64_t> twists = twists_of(rules, frame);
    const Scene scene = make_scene(battle, rules.sight);
    EngageTable table{shooter, {}};
    for (const Mech* target : candidates(battle, frame)) {
        const bool arc = std::any_of(twists.begin(), twists.end(), [&](std::int64_t t) {
            return in_arc(shooter.pos, py_mod360(shooter.heading + static_cast<double>(t)), target->pos);
        });
        if (arc && line_between(scene, shooter, *target).visible) {
            table.seen.emplace_back(target->id, distance(shooter.pos, target->pos));
        }
    }
    return table;
}

// buildings.aim_point: the point just outside the wall of feature nearest to the shooter.
Point aim_point(const Battle& battle, const RulesTables& rules, std::int64_t feature, Point shooter) {
    const Feature& f = battle.battlefield->features.at(static_cast<std::size_t>(feature));
    const double px = pymin(pymax(shooter.x, f.x0), f.x1);
    const double py = pymin(pymax(shooter.y, f.y0), f.y1);
    const double gap = distance({px, py}, shooter);
    if (gap == 0) return {px, py};
    return {px + rules.aim_offset * (shooter.x - px) / gap, py + rules.aim_offset * (shooter.y - py) / gap};
}

std::int64_t building_armor_of(const Battle& battle, std::int64_t feature) {
    const auto& features = battle.battlefield->features;
    if (feature < 0 || feature >= static_cast<std::int64_t>(features.size()) ||
        features[static_cast<std::size_t>(feature)].kind != Terrain::building) {
        return 0;
    }
    for (const auto& [f, armor] : battle.building_armor) {
        if (f == feature) return armor;
    }
    return features[static_cast<std::size_t>(feature)].building_armor;
}

// _set_twist
void set_twist(Ctx& ctx, FrameRef ref, std::int64_t twist) {
    Frame& frame = ctx.edit(ref);
    frame.keys.set(FrameKey::twist);
    FireFrame& f = frame.as<FireFrame>();
    f.twist = twist;
    const Mech& shooter = mech_of(ctx.battle, f.shooter);
    if (shooter.twist != twist) ctx.emit(events::MechFaced{shooter.id, shooter.heading, twist});
}

// _rush: the whole firing's Rush Shot, or at a charger the target tied with (§18.2.1).
bool rush(const FireFrame& frame, const Mech& target) { return frame.rush || contains(frame.rush_at, target.id); }

// The tests each target takes (a dict of sets in insertion order).
struct TargetTests {
    std::int64_t target = 0;
    bool fired_on = false;
    bool takes_damage = false;
};
TargetTests& tests_of(std::vector<TargetTests>& tests, std::int64_t target) {
    for (TargetTests& t : tests) {
        if (t.target == target) return t;
    }
    tests.push_back({target, false, false});
    return tests.back();
}

bool in_locations(std::span<const Location> set, Location l) {
    return std::find(set.begin(), set.end(), l) != set.end();
}

// _location_roll: one 2d6 Hit Location roll; Lucky may re-roll it (D26).
std::vector<int> location_roll(Ctx& ctx, const Mech& shooter, const Mech& target, std::span<const Location> blocked) {
    const std::vector<int> faces = ctx.dice.roll(2);
    const bool shielded = in_locations(blocked, hit_location(rules_of(ctx).combat, {faces[0], faces[1]}));
    LuckyInfo info;
    info.shielded_hit = shielded;
    return offer_lucky(ctx, shooter, "hit_location", faces, true, target.id, info);
}

// _resolve_weapon: one Ranged Combat roll and, on a hit, each shot's location and damage (§17.4).
void resolve_weapon(Ctx& ctx, const FireFrame& frame, std::int64_t shooter_id, std::int64_t weapon,
                    std::int64_t target_id, std::int64_t index, std::vector<TargetTests>& tests,
                    std::int64_t& shots) {
    const RulesTables& rules = rules_of(ctx);
    const CombatTables& t = rules.combat;
    Battle& battle = ctx.battle;
    const Mech& shooter = mech_of(battle, shooter_id);
    const MountedItem item = shooter.design().items.at(static_cast<std::size_t>(weapon));
    SightResult line{};
    bool cover = false;
    {
        const Scene scene = make_scene(battle, rules.sight);
        const Mech& target = mech_of(battle, target_id);
        line = line_between(scene, shooter, target);
        cover = in_cover_from(scene, rules.cover, shooter, target);
    }
    int face = ctx.dice.roll(1).at(0);
    const std::int64_t rep = ranged_rep(t, shooter.rep, attribute_set(shooter));
    const bool crack = has_attribute(shooter, Attribute::crack_shot);
    const auto hits = [&](int f) {
        const Mech& target = mech_of(battle, target_id);
        ToHitConditions c;
        c.shooter_fast_moving = is_fast_moving(rules.perception, mech_of(battle, shooter_id));
        c.rush_shot = rush(frame, target);
        c.target_in_cover = cover;
        c.target_prone = target.prone;
        c.target_fast_moving = is_fast_moving(rules.perception, target);
        c.target_index = index;
        c.crack_shot = crack;
        return to_hit(t, rep + f, c);
    };
    bool hit = hits(face);
    Ints rerolled;
    if (!hit) {  // Lucky may re-roll a miss (D26)
        const bool unused = !shooter.lucky_used;
        const int old[1] = {face};
        const std::vector<int> fresh = offer_lucky(ctx, shooter, "to_hit", old, true, target_id);
        if (unused && mech_of(battle, shooter_id).lucky_used) {
            rerolled = {face};
            face = fresh.at(0);
            hit = hits(face);
        }
    }
    {
        const Mech& s = mech_of(battle, shooter_id);
        const Mech& target = mech_of(battle, target_id);
        ctx.emit(events::ShotFired{shooter_id, weapon, target_id, face, rep, rep + face, index, rush(frame, target),
                                   is_fast_moving(rules.perception, s), is_fast_moving(rules.perception, target),
                                   cover, target.prone, hit, rerolled});
        ++shots;
    }
    if (item.item == ItemType::flamer) {
        const Mech& s = mech_of(battle, shooter_id);
        ctx.emit(events::FlameLaid{shooter_id, s.pos, mech_of(battle, target_id).pos});
    }
    if (!hit) {
        tests_of(tests, target_id).fired_on = true;
        return;
    }
    std::vector<Location> protected_;
    {
        const Mech& target = mech_of(battle, target_id);
        protected_ = protected_locations(rules.protection, rules.move, line, target.pos, target.heading);
    }
    for (std::int64_t shot = 0; shot < item.target; ++shot) {
        if (mech_of(battle, target_id).removed) return;
        std::vector<Location> blocked = protected_;  // ruling D19
        for (Location l : mech_of(battle, target_id).lost_limbs) {
            if (!in_locations(blocked, l)) blocked.push_back(l);
        }
        std::vector<int> faces = location_roll(ctx, mech_of(battle, shooter_id), mech_of(battle, target_id), blocked);
        Location location = hit_location(t, {faces[0], faces[1]});
        std::vector<Location> alternatives;
        if (has_attribute(mech_of(battle, shooter_id), Attribute::marksman)) {  // roll twice (§9.6.4)
            const std::vector<int> second =
                location_roll(ctx, mech_of(battle, shooter_id), mech_of(battle, target_id), blocked);
            const Location other_location = hit_location(t, {second[0], second[1]});
            alternatives = {location, other_location};
            faces.insert(faces.end(), second.begin(), second.end());
            location = marksman_pick(ctx, mech_of(battle, shooter_id), mech_of(battle, target_id), location,
                                     other_location, blocked);
        }
        const bool shielded = in_locations(blocked, location);
        ctx.emit(events::HitLocated{target_id, Ints(faces.begin(), faces.end()), location, shielded, alternatives});
        if (shielded) {
            tests_of(tests, target_id).fired_on = true;
            continue;
        }
        std::vector<int> dmg = ctx.dice.roll(2);
        const std::int64_t before = mech_of(battle, target_id).armor[static_cast<std::size_t>(location)];
        DamageOutcome outcome = ranged_damage(t, {dmg[0], dmg[1]}, item.impact, before);
        // Lucky may re-roll a damage roll short of pass 2 (D26: the reference's "< 2", the pass cap)
        if (outcome.passed < t.pass_cap) {
            const std::vector<int> rolled =
                offer_lucky(ctx, mech_of(battle, shooter_id), "damage", dmg, true, target_id);
            if (rolled != dmg) {
                dmg = rolled;
                outcome = ranged_damage(t, {rolled[0], rolled[1]}, item.impact, before);
            }
        }
        ctx.emit(events::DamageRolled{target_id, location, {dmg[0], dmg[1]}, item.impact, outcome.passed, before,
                                      outcome.armor_after, outcome.critical, false, outcome.armor_loss});
        if (outcome.armor_loss > 0) tests_of(tests, target_id).takes_damage = true;
        if (outcome.critical) critical_hit(ctx, mech_of(battle, target_id), location);
        if (outcome.duck_back && !mech_of(battle, target_id).removed) {
            duck_back(ctx, mech_of(battle, target_id), &mech_of(battle, shooter_id),
                      "ranged damage pass 0");  // no test (§17.4.2)
        }
    }
}

}  // namespace

// buildings.rated_buildings
std::vector<std::int64_t> rated_buildings(const Battle& battle) {
    std::vector<std::int64_t> out;
    const auto& features = battle.battlefield->features;
    for (std::size_t i = 0; i < features.size(); ++i) {
        const auto f = static_cast<std::int64_t>(i);
        if (features[i].kind == Terrain::building && building_armor_of(battle, f) > 0) out.push_back(f);
    }
    return out;
}

// buildings.can_fire_at
bool can_fire_at(const Battle& battle, const RulesTables& rules, const Mech& shooter, std::int64_t weapon,
                 std::int64_t feature, std::int64_t twist) {
    const MountedItem& item = shooter.design().items.at(static_cast<std::size_t>(weapon));
    if (!item.range || contains(shooter.inoperable, weapon)) return false;
    if (item.item == ItemType::flamer && shooter.flamer_fired_turn) return false;
    const Point target = aim_point(battle, rules, feature, shooter.pos);
    if (distance(shooter.pos, target) > static_cast<double>(*item.range)) return false;
    if (!in_arc(shooter.pos, py_mod360(shooter.heading + static_cast<double>(twist)), target)) return false;
    std::vector<Body> others;
    for (const Body& b : bodies(battle)) {
        if (b.id != shooter.id) others.push_back(b);
    }
    // target_id None: no body is the target
    return sight(rules.sight, shooter.pos, target, shooter.id, std::numeric_limits<std::int64_t>::min(), others,
                 has_functioning_ews(shooter), battle.options->base_radius)
        .visible;
}

// flow_fire.fire_options
std::vector<Action> fire_options(const Battle& battle, const RulesTables& rules, const FireFrame& frame) {
    const Mech& shooter = mech_of(battle, frame.shooter);
    std::vector<std::int64_t> used, chosen;
    for (const Assignment& a : frame.assigned) {
        used.push_back(a.weapon);
        if (!a.building) chosen.push_back(a.target);
    }
    std::vector<Action> options;
    const std::vector<std::int64_t> buildings =
        frame.mode == FireMode::active ? rated_buildings(battle) : std::vector<std::int64_t>{};
    bool any_assign = false;
    if (able_to_fire(shooter) && engaged_with(battle, shooter).empty()) {
        const EngageTable table = engage_table(battle, rules, frame);
        const std::vector<std::int64_t> twists = twists_of(rules, frame);
        const bool spread = battle.options->spread_fire_rule == SpreadFire::per_shooter;
        for (std::int64_t weapon : operable_ranged_weapons(shooter)) {
            if (contains(used, weapon)) continue;
            const std::vector<std::int64_t> reachable = table.engageable(weapon);
            std::vector<std::int64_t> fresh;
            for (std::int64_t t : reachable) {
                if (!contains(chosen, t)) fresh.push_back(t);
            }
            const std::vector<std::int64_t>& allowed = (spread && !fresh.empty()) ? fresh : reachable;
            for (std::int64_t t : allowed) {
                options.emplace_back(AssignFire{shooter.id, weapon, t});
                any_assign = true;
            }
            for (std::int64_t f : buildings) {
                const bool can = std::any_of(twists.begin(), twists.end(), [&](std::int64_t tw) {
                    return can_fire_at(battle, rules, shooter, weapon, f, tw);
                });
                if (can) options.emplace_back(FireAtBuilding{shooter.id, weapon, f});
            }
        }
    }
    // In Sight fire is mandatory (§16.1.4, D32), and so is the split fire of a charge (§18.2.1)
    const bool mandatory = frame.mode == FireMode::in_sight || frame.mode == FireMode::charge;
    if (!mandatory || !any_assign) options.emplace_back(EndFire{shooter.id});
    return options;
}

// flow_fire.fire_step
void fire_step(Ctx& ctx, FrameRef ref) {
    const RulesTables& rules = rules_of(ctx);
    const FireFrame frame = ctx.battle.frames[ref.index].as<FireFrame>();
    const Mech& shooter = mech_of(ctx.battle, frame.shooter);
    const bool automatic =
        frame.mode == FireMode::reaction || (frame.mode == FireMode::charge && frame.cause.has_value());
    if (automatic && frame.assigned.empty()) {  // a split among several chargers asks (§18.2.1)
        const Mech& cause = mech_of(ctx.battle, *frame.cause);
        for (std::int64_t twist : rules.perception.twists) {  // twist the torso if needed (§15.2.4.3)
            std::vector<std::int64_t> weapons;
            {
                const Scene scene = make_scene(ctx.battle, rules.sight);
                for (std::int64_t w : operable_ranged_weapons(shooter)) {
                    if (weapon_can_engage(scene, shooter, static_cast<std::size_t>(w), cause, twist)) weapons.push_back(w);
                }
            }
            if (!weapons.empty() && able_to_fire(shooter)) {
                set_twist(ctx, ref, twist);
                std::vector<Assignment>& assigned = ctx.edit(ref).as<FireFrame>().assigned;
                assigned.clear();
                for (std::int64_t w : weapons) assigned.push_back({w, cause.id, false});
                break;
            }
        }
        resolve_firing(ctx, ref);
        return;
    }
    const std::vector<Action> options = fire_options(ctx.battle, rules, frame);
    if (options.size() == 1 && std::holds_alternative<EndFire>(options[0])) {
        resolve_firing(ctx, ref);
    } else if (options.size() == 1) {
        fire_act(ctx, ref, options[0]);  // mandatory In Sight fire with one way to do it
    } else {
        ctx.ask(shooter.side, DecisionKind::assign_fire, shooter.id);
    }
}

// flow_fire.fire_act
void fire_act(Ctx& ctx, FrameRef ref, const Action& action) {
    if (std::holds_alternative<EndFire>(action)) {
        resolve_firing(ctx, ref);
        return;
    }
    const RulesTables& rules = rules_of(ctx);
    if (const auto* b = std::get_if<FireAtBuilding>(&action)) {
        const Mech& shooter = mech_of(ctx.battle, b->mech);
        if (!ctx.battle.frames[ref.index].as<FireFrame>().twist) {
            const auto& twists = rules.perception.twists;
            const auto it = std::find_if(twists.begin(), twists.end(), [&](std::int64_t t) {
                return can_fire_at(ctx.battle, rules, shooter, b->weapon, b->feature, t);
            });
            if (it == twists.end()) throw std::runtime_error("StopIteration");  // next() of the reference
            set_twist(ctx, ref, *it);
        }
        ctx.edit(ref).as<FireFrame>().assigned.push_back({b->weapon, b->feature, true});
        return;
    }
    const auto* a = std::get_if<AssignFire>(&action);
    if (!a) throw std::logic_error("fire_act: not an AssignFire, FireAtBuilding or EndFire");
    const Mech& shooter = mech_of(ctx.battle, a->mech);
    const Mech& target = mech_of(ctx.battle, a->target);
    if (!ctx.battle.frames[ref.index].as<FireFrame>().twist) {
        const Scene scene = make_scene(ctx.battle, rules.sight);
        const auto& twists = rules.perception.twists;
        const auto it = std::find_if(twists.begin(), twists.end(), [&](std::int64_t t) {
            return weapon_can_engage(scene, shooter, static_cast<std::size_t>(a->weapon), target, t);
        });
        if (it == twists.end()) throw std::runtime_error("StopIteration");  // next() of the reference
        const std::int64_t twist = *it;
        set_twist(ctx, ref, twist);
    }
    ctx.edit(ref).as<FireFrame>().assigned.push_back({a->weapon, a->target, false});
}

// flow_fire.resolve_firing
void resolve_firing(Ctx& ctx, FrameRef ref) {
    Battle& battle = ctx.battle;
    const FireFrame frame = ctx.pop(ref).as<FireFrame>();
    const std::int64_t shooter_id = frame.shooter;
    Ints weapons;
    for (const Assignment& a : frame.assigned) weapons.push_back(a.weapon);
    const bool firing = !weapons.empty() && !mech_of(battle, shooter_id).removed;  // else no bracket
    const std::int64_t twist = frame.twist ? *frame.twist : mech_of(battle, shooter_id).twist;
    const std::string mode(kFireMode[frame.mode]);
    if (firing) ctx.emit(events::FiringStarted{shooter_id, mode, frame.cause, twist, weapons});
    std::int64_t shots = 0;
    ctx.collecting = std::vector<ReactEntry>{};
    if (frame.mode == FireMode::active ||
        (frame.mode == FireMode::in_sight && battle.active_side == mech_of(battle, shooter_id).side)) {
        mech_of(battle, shooter_id).fired_this_activation = true;  // the active side's In Sight fire (D6)
    }
    std::vector<TargetTests> tests;
    std::vector<std::int64_t> order;
    for (const Assignment& entry : frame.assigned) {
        if (entry.building) {  // a building (§19.4.2)
            const std::int64_t key = -1 - entry.target;
            if (!contains(order, key)) order.push_back(key);
            if (building_armor_of(battle, entry.target) > 0 && !mech_of(battle, shooter_id).removed) {
                throw NotPorted("not ported to the native core yet: buildings.fire_at_building");
            }
            continue;
        }
        if (mech_of(battle, entry.target).removed || mech_of(battle, shooter_id).removed) continue;
        if (!contains(order, entry.target)) order.push_back(entry.target);
        const auto index = static_cast<std::int64_t>(std::find(order.begin(), order.end(), entry.target) - order.begin()) + 1;
        resolve_weapon(ctx, frame, shooter_id, entry.weapon, entry.target, index, tests, shots);
    }
    std::vector<ReactEntry> collected = std::move(*ctx.collecting);
    ctx.collecting.reset();
    if (firing) ctx.emit(events::FiringEnded{shooter_id, mode, shots});
    caused_by(collected, Ids{shooter_id});  // Mech Down cover is judged against the shooter
    if (frame.mode == FireMode::charge) {  // no reaction tests, Mech Down included (§16.2, §18.2.1)
        std::erase_if(collected, [](const ReactEntry& e) { return e.test == ReactionTest::mech_down; });
        queue_tests(ctx, std::move(collected));
        return;
    }
    std::vector<ReactEntry> entries;
    for (const TargetTests& t : tests) {
        if (mech_of(battle, t.target).removed) continue;
        if (t.fired_on) entries.push_back(react_entry(t.target, ReactionTest::fired_on, {shooter_id}));
        if (t.takes_damage) entries.push_back(react_entry(t.target, ReactionTest::takes_damage, {shooter_id}));
    }
    entries.insert(entries.end(), std::make_move_iterator(collected.begin()), std::make_move_iterator(collected.end()));
    queue_tests(ctx, std::move(entries));
}

namespace {
std::vector<Action> options_of(const Battle& battle, const RulesTables& rules, FrameRef ref) {
    return fire_options(battle, rules, battle.frames[ref.index].as<FireFrame>());
}
}  // namespace

// FIRE = FunctionHandler(fire_step, fire_options, fire_act)
void register_fire(Procedures& procedures) {
    Handler& h = procedures.handlers[static_cast<std::size_t>(FrameKind::fire)];
    h.step = fire_step;
    h.act = fire_act;
    h.options = options_of;
}

}  // namespace wargym::no_quarter
