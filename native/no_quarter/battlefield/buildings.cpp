// Mirror of rules/no_quarter/battlefield/buildings.py (buildings.hpp).
#include "buildings.hpp"

#include <algorithm>
#include <limits>

#include "../battle/melee.hpp"
#include "../battle/ranged_combat.hpp"
#include "../sight_movement/movement_geometry.hpp"

namespace wargym::no_quarter {

namespace {

bool contains(const std::vector<std::int64_t>& v, std::int64_t x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

// strike_building's weapon: the best operable melee weapon on the limb (max(..., default=0)).
std::int64_t striking_weapon_wv(const Mech& mech, Location limb) {
    std::int64_t best = 0;
    bool any = false;
    const auto& items = mech.design().items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].item == ItemType::melee_weapon && items[i].location == limb &&
            !contains(mech.inoperable, static_cast<std::int64_t>(i))) {
            best = any ? std::max(best, items[i].wv) : items[i].wv;
            any = true;
        }
    }
    return any ? best : 0;
}

// buildings._damage: log the damage (armour stored clamped at 0, §17.4.2), then the rubble.
void building_damage(Ctx& ctx, events::BuildingDamaged e) {
    e.armor_before = building_armor_of(ctx.battle, e.feature);
    e.armor_after = std::max<std::int64_t>(0, e.armor_before - e.damage);
    const bool destroyed = e.armor_after <= 0;
    const std::int64_t feature = e.feature;
    ctx.emit(e);
    if (destroyed) ctx.emit(events::BuildingDestroyed{feature});
}

}  // namespace

// buildings.aim_point: the point just outside the wall of feature nearest to the shooter.
Point aim_point(const Battle& battle, const RulesTables& rules, std::int64_t feature, Point shooter) {
    const Feature& f = battle.battlefield->features.at(static_cast<std::size_t>(feature));
    const double px = pymin(pymax(shooter.x, f.x0), f.x1);
    const double py = pymin(pymax(shooter.y, f.y0), f.y1);
    const double gap = distance({px, py}, shooter);
    if (gap == 0) return {px, py};
    return {px + rules.aim_offset * (shooter.x - px) / gap, py + rules.aim_offset * (shooter.y - py) / gap};
}

// state.Battle.building_armor_of
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

// buildings.fire_at_building (_damage inlined: BuildingDamaged, then BuildingDestroyed at 0)
void fire_at_building(Ctx& ctx, const Mech& shooter_ref, std::int64_t weapon, std::int64_t feature,
                      std::int64_t index, std::int64_t& shots) {
    if (!ctx.rules) throw NotPorted("the native handlers need Ctx.rules (forces/data.hpp RulesTables)");
    const RulesTables& rules = *ctx.rules;
    const CombatTables& t = rules.combat;
    const Mech shooter = shooter_ref;  // events change the battle's mechs
    const MountedItem& item = shooter.design().items.at(static_cast<std::size_t>(weapon));
    AttributeSet attributes{};
    bool crack = false;
    for (Attribute a : shooter.record->pilot.attributes) {
        attributes[static_cast<std::size_t>(a)] = true;
        crack = crack || a == Attribute::crack_shot;
    }
    const std::int64_t rep = ranged_rep(t, shooter.rep, attributes);
    const int face = ctx.dice.roll(1).at(0);
    // the reference's literal 10.0 here is table 17.4's fast_moving_inches (D7)
    const bool fast = shooter.moved >= rules.perception.fast_moving_inches;
    ToHitConditions c;
    c.target_index = index;
    c.shooter_fast_moving = fast;
    c.crack_shot = crack;
    const bool hit = to_hit(t, rep + face, c);
    ctx.emit(events::ShotFired{shooter.id, weapon, -1 - feature, face, rep, rep + face, index, false, fast, false,
                               false, false, hit, {}});
    ++shots;
    if (item.item == ItemType::flamer) {
        ctx.emit(events::FlameLaid{shooter.id, shooter.pos, aim_point(ctx.battle, rules, feature, shooter.pos)});
    }
    if (!hit) return;
    for (std::int64_t shot = 0; shot < item.target; ++shot) {
        if (building_armor_of(ctx.battle, feature) <= 0) return;
        const std::vector<int> faces = ctx.dice.roll(2);
        const std::int64_t passed = passed_dice(faces.data(), faces.size(), item.impact, t.pass_cap);
        const std::int64_t loss = passed == t.pass_cap ? item.impact : passed;  // the reference's "== 2"
        const std::int64_t before = building_armor_of(ctx.battle, feature);
        const std::int64_t after = std::max<std::int64_t>(0, before - loss);  // clamped at 0 (§17.4.2)
        events::BuildingDamaged e;
        e.feature = feature;
        e.attacker = shooter.id;
        e.faces = {faces[0], faces[1]};
        e.versus = item.impact;
        e.passed = passed;
        e.armor_before = before;
        e.armor_after = after;
        e.melee = false;
        e.damage_faces = {faces[0], faces[1]};
        e.weapon_value = 0;
        e.damage = loss;
        ctx.emit(e);
        if (after <= 0) ctx.emit(events::BuildingDestroyed{feature});
    }
}

// buildings.strike_building
void strike_building(Ctx& ctx, const Mech& mech_ref, std::int64_t feature, MeleeAttack attack, Location limb) {
    if (!ctx.rules) throw NotPorted("the native handlers need Ctx.rules (forces/data.hpp RulesTables)");
    const RulesTables& rules = *ctx.rules;
    const CombatTables& t = rules.combat;
    const Mech mech = mech_ref;  // events change the battle's mechs
    const std::int64_t weapon = attack == MeleeAttack::punch ? striking_weapon_wv(mech, limb) : 0;
    AttributeSet attributes{};
    for (Attribute a : mech.record->pilot.attributes) attributes[static_cast<std::size_t>(a)] = true;
    MeleeCircumstances c;
    c.melee_weapon = weapon > 0;
    c.attacking_prone = false;
    c.jump_attack = false;
    c.leaving = mech.status == Status::leave_battlefield;
    const std::int64_t n = melee_dice(t, mech.rep, mech.record->pilot.race, attributes, c);
    const std::vector<int> melee_faces = ctx.dice.roll(n);
    const auto wins = static_cast<std::int64_t>(
        std::count_if(melee_faces.begin(), melee_faces.end(), [&](int f) { return f <= rules.success_face; }));
    events::BuildingDamaged e;
    e.feature = feature;
    e.attacker = mech.id;
    e.melee = true;
    e.melee_faces.assign(melee_faces.begin(), melee_faces.end());
    e.limb = limb;
    e.attack = attack;
    e.weapon_value = weapon;
    if (wins <= 0) {
        e.faces = e.melee_faces;
        e.versus = 0;
        e.passed = 0;
        e.damage = 0;
        building_damage(ctx, std::move(e));
        return;
    }
    const std::vector<int> faces = ctx.dice.roll(2);
    const std::int64_t passed = passed_dice(faces.data(), faces.size(), wins, t.pass_cap);
    const std::int64_t damage = limb_damage(std::max<std::int64_t>(0, mech.armor[static_cast<std::size_t>(limb)]), weapon);
    e.faces = e.melee_faces;
    e.faces.insert(e.faces.end(), faces.begin(), faces.end());
    e.versus = wins;
    e.passed = passed;
    e.damage = passed == t.pass_cap ? damage : passed;  // the reference's "== 2"
    e.damage_faces.assign(faces.begin(), faces.end());
    building_damage(ctx, std::move(e));
}

}  // namespace wargym::no_quarter
