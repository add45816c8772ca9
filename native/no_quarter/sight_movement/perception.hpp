// Mirror of rules/no_quarter/sight_movement/perception.py: what mechs see, reach and command
// (§12, §13, §16.1, §17; rulings D3, D8, D11, D12, D17, D22, D30, D33).
//
// Pure functions over a Battle, except new_sightings (which marks pairs seen, as the
// reference does). The reference caches bases and sight lines per position on the battle
// (perception._cache); the core computes them directly, with the same results. A Scene is
// what the reference reads from battle.battlefield.index and the line-of-sight table (the
// SightTerrain, built by the glue) plus the bases of the battle (bodies()).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "../battle/state.hpp"
#include "../forces/leaders.hpp"
#include "geometry.hpp"
#include "sight.hpp"

namespace wargym::no_quarter {

// What in_cover / is_concealed read (sight._rects, terrain_tables.cover_config(): table 17.2):
// handed in by wargym.native.no_quarter.perception.cover_terrain.
struct CoverTerrain {
    std::vector<Rect> concealing;        // _rects(bf, "concealing")
    std::vector<Rect> cover_moving;      // _rects(bf, "cover_moving")
    std::vector<Rect> cover_stationary;  // _rects(bf, "cover_stationary")
    bool behind_building_cover = false;  // cover_config().behind_building_cover
    bool behind_mech_cover = false;      // cover_config().behind_mech_cover
};

// The rule numbers perception reads besides the leader tables.
struct PerceptionTables {
    double fast_moving_inches = 0.0;  // ranged_combat.yaml fast_moving_inches (§17.4, D7)
    std::vector<std::int64_t> twists;  // perception.TWISTS, in preference order (§6.2.1)
};

// The bases of contact (engaged_with) are 2 base radii apart plus this slack (the
// reference's literal 1e-6: a float tolerance, not a rules number).
inline constexpr double kContactSlack = 1e-6;

// The battle with the bases it holds now: make a new Scene after anything moves or leaves
// play (as Battle.apply drops the reference's cache).
struct Scene {
    const Battle& battle;
    const SightTerrain& terrain;
    std::vector<Body> bodies;  // bodies(battle)
};

// perception.bodies: bases of every mech in play, then wrecks as ids -1000 - i (D22).
std::vector<Body> bodies(const Battle& battle);
Scene make_scene(const Battle& battle, const SightTerrain& terrain);

// Battle.mechs_of: mechs of side still in play, in id order.
std::vector<const Mech*> mechs_of(const Battle& battle, Side side);
inline Side other(Side side) { return side == Side::blue ? Side::red : Side::blue; }

// Python's float % 360.0 (the divisor's sign; 0.0 for an exact multiple).
double py_mod360(double value);
// Mech.facing: legs plus torso twist (§6.2.1).
double facing(const Mech& mech);
// Mech.operable_ranged_weapons (§17.4), Mech.ews_bonus / has_functioning_ews (§10.6.2).
std::vector<std::int64_t> operable_ranged_weapons(const Mech& mech);
std::int64_t ews_bonus(const Mech& mech);
inline bool has_functioning_ews(const Mech& mech) { return ews_bonus(mech) > 0; }

// perception.hidden_pair: one ducked back into cover from the other (§15.2.4.1).
bool hidden_pair(const Mech& a, const Mech& b);
// perception.line_between: LOS ignoring arcs (§17.1, D11, §15.2.4.1).
SightResult line_between(const Scene& scene, const Mech& observer, const Mech& target);
// perception.sees: target in the front arc (with twist, else the current one) and in LOS (D3).
bool sees(const Scene& scene, const Mech& observer, const Mech& target,
          std::optional<std::int64_t> twist = std::nullopt);
// perception.in_cover_from (§17.2, D12) and perception.concealed (§17.2).
bool in_cover_from(const Scene& scene, const CoverTerrain& cover, const Mech& shooter,
                   const Mech& target);
bool concealed(const CoverTerrain& cover, const Mech& mech);
// perception.is_fast_moving (§17.4, D7) and perception.able_to_fire (D17).
bool is_fast_moving(const PerceptionTables& tables, const Mech& mech);
bool able_to_fire(const Mech& mech);
// perception.engaged_with: enemies in base contact (D33), in id order.
std::vector<std::int64_t> engaged_with(const Battle& battle, const Mech& mech);
// perception.weapon_can_engage (§17.4); weapon must index the design's items.
bool weapon_can_engage(const Scene& scene, const Mech& shooter, std::size_t weapon,
                       const Mech& target, std::optional<std::int64_t> twist = std::nullopt);
// perception.twists_to_engage (§6.2.1) and perception.cause_in_range (D17).
std::vector<std::int64_t> twists_to_engage(const Scene& scene, const PerceptionTables& tables,
                                           const Mech& shooter, const Mech& target);
bool cause_in_range(const Scene& scene, const PerceptionTables& tables, const Mech& tester,
                    const Mech& cause);
// perception.linked: within inches with an unobstructed line either way (§13.2, D3).
bool linked(const Scene& scene, const Mech& a, const Mech& b, double inches, bool requires_los);

using Groups = std::vector<std::vector<std::int64_t>>;
// perception.form_groups: the side's groups, connected components of the cohesion links
// (§13.2, D30); with command_groups=command_radius also the higher leaders' links (§12.2).
Groups form_groups(const Scene& scene, const LeaderTables& tables, Side side);
// perception.group_leader: highest rank, then Rep, ties the lowest id (D30). Every member
// must be a mech of the battle and members must not be empty (ArgumentError otherwise).
std::int64_t group_leader(const Battle& battle, std::span<const std::int64_t> members);

// perception.visible_from / visible_enemies: mech placed at pos sees or is seen (§16.1.1).
bool visible_from(const Scene& scene, const Mech& mech, Point pos, double facing,
                  const Mech& enemy);
std::vector<std::int64_t> visible_enemies(const Scene& scene, const Mech& mech, Point pos,
                                          double facing);  // the reference's set, sorted
// perception.new_sightings: enemy groups newly in sight, marking the pairs seen (D8).
std::vector<std::int64_t> new_sightings(Battle& battle, const Mech& mech,
                                        std::span<const std::int64_t> fresh);

// The mech with id, or ArgumentError(name) (as battle.mechs[id] raises KeyError).
const Mech& mech_at(const Battle& battle, std::int64_t id, const char* name);

}  // namespace wargym::no_quarter
