// Mirror of rules/no_quarter/sight_movement/perception.py; see perception.hpp.
#include "perception.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "../../errors.hpp"

namespace wargym::no_quarter {

const Mech& mech_at(const Battle& battle, std::int64_t id, const char* name) {
    const Mech* m = battle.mech(id);
    if (m == nullptr) throw ArgumentError(name, "no mech with id " + std::to_string(id));
    return *m;
}

std::vector<Body> bodies(const Battle& battle) {
    const double radius = battle.options->base_radius;
    std::vector<Body> found;
    found.reserve(battle.mechs.size() + battle.wrecks.size());
    for (const Mech& m : battle.mechs) {
        if (!m.removed) found.push_back({m.id, m.pos.x, m.pos.y, radius});
    }
    for (std::size_t i = 0; i < battle.wrecks.size(); ++i) {
        const Point p = battle.wrecks[i];
        found.push_back({-1000 - static_cast<std::int64_t>(i), p.x, p.y, radius});
    }
    return found;
}

Scene make_scene(const Battle& battle, const SightTerrain& terrain) {
    return Scene{battle, terrain, bodies(battle)};
}

std::vector<const Mech*> mechs_of(const Battle& battle, Side side) {
    std::vector<const Mech*> found;
    for (const Mech& m : battle.mechs) {
        if (m.side == side && !m.removed) found.push_back(&m);
    }
    return found;
}

double py_mod360(double value) {
    double mod = std::fmod(value, 360.0);
    if (mod != 0.0) {
        if (mod < 0.0) mod += 360.0;  // the sign of the divisor, as float.__mod__
    } else {
        mod = 0.0;  // copysign(0.0, 360.0)
    }
    return mod;
}

double facing(const Mech& mech) {
    return py_mod360(mech.heading + static_cast<double>(mech.twist));
}

static bool is_inoperable(const Mech& mech, std::int64_t index) {
    return std::find(mech.inoperable.begin(), mech.inoperable.end(), index) != mech.inoperable.end();
}

static bool is_ranged_weapon(ItemType item) {  // ItemType.is_ranged_weapon
    return item != ItemType::jump_jets && item != ItemType::ews_1 && item != ItemType::ews_2 &&
           item != ItemType::melee_weapon;
}

std::vector<std::int64_t> operable_ranged_weapons(const Mech& mech) {
    std::vector<std::int64_t> found;
    const auto& items = mech.design().items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto index = static_cast<std::int64_t>(i);
        if (is_ranged_weapon(items[i].item) && !is_inoperable(mech, index)) found.push_back(index);
    }
    return found;
}

std::int64_t ews_bonus(const Mech& mech) {
    const auto& items = mech.design().items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const ItemType item = items[i].item;
        if ((item == ItemType::ews_1 || item == ItemType::ews_2) &&
            !is_inoperable(mech, static_cast<std::int64_t>(i))) {
            return item == ItemType::ews_2 ? 2 : 1;
        }
    }
    return 0;
}

static bool holds(const std::vector<std::int64_t>& ids, std::int64_t id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

bool hidden_pair(const Mech& a, const Mech& b) {
    return (a.status == Status::duck_back && holds(a.hidden_from, b.id)) ||
           (b.status == Status::duck_back && holds(b.hidden_from, a.id));
}

// perception._line: the three-line LOS between two bases of the battle.
static SightResult line(const Scene& scene, const Mech& observer, Point from, const Mech& target,
                        Point to) {
    return sight(scene.terrain, from, to, observer.id, target.id, scene.bodies,
                 has_functioning_ews(observer), scene.battle.options->base_radius);
}

SightResult line_between(const Scene& scene, const Mech& observer, const Mech& target) {
    if (hidden_pair(observer, target)) {
        return {false, 0, 0, 0, BlockedSide::none, distance(observer.pos, target.pos),
                heading_to(target.pos, observer.pos)};
    }
    return line(scene, observer, observer.pos, target, target.pos);
}

bool sees(const Scene& scene, const Mech& observer, const Mech& target,
          std::optional<std::int64_t> twist) {
    const double arc =
        twist ? py_mod360(observer.heading + static_cast<double>(*twist)) : facing(observer);
    if (!in_arc(observer.pos, arc, target.pos)) return false;
    return line_between(scene, observer, target).visible;
}

static bool inside(const std::vector<Rect>& rects, Point pos) {  // sight._inside
    for (const Rect& r : rects) {
        if (r.x0 <= pos.x && pos.x <= r.x1 && r.y0 <= pos.y && pos.y <= r.y1) return true;
    }
    return false;
}

bool in_cover_from(const Scene& scene, const CoverTerrain& cover, const Mech& shooter,
                   const Mech& target) {
    const SightResult s = line_between(scene, shooter, target);
    // sight.in_cover (§17.2, D12): partly blocked, else inside terrain giving cover
    if (s.visible && ((cover.behind_building_cover && s.building_blocked_lines > 0) ||
                      (cover.behind_mech_cover && s.mech_blocked_lines > 0))) {
        return true;
    }
    return inside(target.moved > 0 ? cover.cover_moving : cover.cover_stationary, target.pos);
}

bool concealed(const CoverTerrain& cover, const Mech& mech) {
    return inside(cover.concealing, mech.pos);
}

bool is_fast_moving(const PerceptionTables& tables, const Mech& mech) {
    return mech.moved >= tables.fast_moving_inches;
}

bool able_to_fire(const Mech& mech) {
    return !mech.removed && mech.status == Status::carry_on && !mech.prone &&
           !operable_ranged_weapons(mech).empty();
}

std::vector<std::int64_t> engaged_with(const Battle& battle, const Mech& mech) {
    const double contact = 2 * battle.options->base_radius + kContactSlack;
    std::vector<std::int64_t> found;
    for (const Mech* other : mechs_of(battle, no_quarter::other(mech.side))) {
        if (distance(other->pos, mech.pos) <= contact) found.push_back(other->id);
    }
    return found;
}

bool weapon_can_engage(const Scene& scene, const Mech& shooter, std::size_t weapon,
                       const Mech& target, std::optional<std::int64_t> twist) {
    const auto& items = shooter.design().items;
    if (weapon >= items.size()) {
        throw ArgumentError("weapon", "no item " + std::to_string(weapon) + " on mech " +
                                          std::to_string(shooter.id));
    }
    const MountedItem& item = items[weapon];
    if (!item.range || is_inoperable(shooter, static_cast<std::int64_t>(weapon))) return false;
    if (distance(shooter.pos, target.pos) > static_cast<double>(*item.range)) return false;
    if (item.item == ItemType::flamer && shooter.flamer_fired_turn) return false;
    return sees(scene, shooter, target, twist);
}

std::vector<std::int64_t> twists_to_engage(const Scene& scene, const PerceptionTables& tables,
                                           const Mech& shooter, const Mech& target) {
    std::vector<std::int64_t> found;
    const std::vector<std::int64_t> weapons = operable_ranged_weapons(shooter);
    for (std::int64_t twist : tables.twists) {
        for (std::int64_t w : weapons) {
            if (weapon_can_engage(scene, shooter, static_cast<std::size_t>(w), target, twist)) {
                found.push_back(twist);
                break;
            }
        }
    }
    return found;
}

bool cause_in_range(const Scene& scene, const PerceptionTables& tables, const Mech& tester,
                    const Mech& cause) {
    if (!able_to_fire(tester) || !engaged_with(scene.battle, tester).empty()) return false;
    return !twists_to_engage(scene, tables, tester, cause).empty();
}

bool linked(const Scene& scene, const Mech& a, const Mech& b, double inches, bool requires_los) {
    if (distance(a.pos, b.pos) > inches) return false;
    if (!requires_los) return true;
    return line_between(scene, a, b).visible || line_between(scene, b, a).visible;
}

Groups form_groups(const Scene& scene, const LeaderTables& tables, Side side) {
    const std::vector<const Mech*> mechs = mechs_of(scene.battle, side);  // id order
    const bool merge = scene.battle.options->command_groups == CommandGroups::command_radius;
    std::vector<bool> unseen(mechs.size(), true);
    Groups groups;
    for (std::size_t start = 0; start < mechs.size(); ++start) {
        if (!unseen[start]) continue;
        std::vector<std::int64_t> component;
        std::vector<std::size_t> stack{start};
        unseen[start] = false;
        while (!stack.empty()) {
            const Mech& current = *mechs[stack.back()];
            stack.pop_back();
            component.push_back(current.id);
            for (std::size_t j = 0; j < mechs.size(); ++j) {  // sorted(unseen): id order
                if (!unseen[j]) continue;
                const Mech& other = *mechs[j];
                double inches = tables.cohesion_link_inches;
                bool los = tables.cohesion_link_requires_los;
                if (other.team != current.team) {
                    const bool under =
                        commands(tables, current, other) || commands(tables, other, current);
                    if (!(merge && under)) continue;
                    inches = tables.command_radius_inches;
                    los = tables.command_radius_requires_los;
                }
                if (linked(scene, current, other, inches, los)) {
                    unseen[j] = false;
                    stack.push_back(j);
                }
            }
        }
        std::sort(component.begin(), component.end());
        groups.push_back(std::move(component));
    }
    return groups;
}

std::int64_t group_leader(const Battle& battle, std::span<const std::int64_t> members) {
    if (members.empty()) throw ArgumentError("members", "max() arg is an empty sequence");
    const Mech* best = nullptr;
    int best_rank = 0;
    for (std::int64_t id : members) {
        const Mech& m = mech_at(battle, id, "members");
        const int rank = m.rank ? rank_order(*m.rank) : -1;
        if (best == nullptr || rank > best_rank || (rank == best_rank && m.rep > best->rep) ||
            (rank == best_rank && m.rep == best->rep && -m.id > -best->id)) {
            best = &m;
            best_rank = rank;
        }
    }
    return best->id;
}

bool visible_from(const Scene& scene, const Mech& mech, Point pos, double facing_deg,
                  const Mech& enemy) {
    if (hidden_pair(mech, enemy)) return false;
    if (pos.x == mech.pos.x && pos.y == mech.pos.y) {  // the lines of the current positions
        if (in_arc(pos, facing_deg, enemy.pos) && line_between(scene, mech, enemy).visible) {
            return true;
        }
        return in_arc(enemy.pos, facing(enemy), pos) && line_between(scene, enemy, mech).visible;
    }
    // mech's own base is the observer or the target of both lines, so sight() skips it
    if (in_arc(pos, facing_deg, enemy.pos) && line(scene, mech, pos, enemy, enemy.pos).visible) {
        return true;
    }
    return in_arc(enemy.pos, facing(enemy), pos) && line(scene, enemy, enemy.pos, mech, pos).visible;
}

std::vector<std::int64_t> visible_enemies(const Scene& scene, const Mech& mech, Point pos,
                                          double facing_deg) {
    std::vector<std::int64_t> found;
    for (const Mech* enemy : mechs_of(scene.battle, other(mech.side))) {
        if (visible_from(scene, mech, pos, facing_deg, *enemy)) found.push_back(enemy->id);
    }
    return found;  // id order: the reference's set, sorted
}

// battle.group_of.get(id, id)
static std::int64_t group_of(const Battle& battle, std::int64_t id) {
    for (const auto& [member, leader] : battle.group_of) {
        if (member == id) return leader;
    }
    return id;
}

std::vector<std::int64_t> new_sightings(Battle& battle, const Mech& mech,
                                        std::span<const std::int64_t> fresh) {
    const std::int64_t own = group_of(battle, mech.id);
    std::vector<std::int64_t> enemies(fresh.begin(), fresh.end());
    std::sort(enemies.begin(), enemies.end());
    enemies.erase(std::unique(enemies.begin(), enemies.end()), enemies.end());  // a set
    std::vector<std::int64_t> groups;
    for (std::int64_t enemy_id : enemies) {
        const std::int64_t theirs = group_of(battle, enemy_id);
        const std::array<std::int64_t, 2> pair =
            mech.side == Side::blue ? std::array<std::int64_t, 2>{own, theirs}
                                    : std::array<std::int64_t, 2>{theirs, own};
        if (std::find(battle.seen_pairs.begin(), battle.seen_pairs.end(), pair) ==
            battle.seen_pairs.end()) {
            battle.seen_pairs.push_back(pair);
            groups.push_back(theirs);
        }
    }
    return groups;
}

}  // namespace wargym::no_quarter
