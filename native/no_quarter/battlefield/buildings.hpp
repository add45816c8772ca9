// Mirror of rules/no_quarter/battlefield/buildings.py: buildings as targets (§19.4.2 ruling):
// rated_buildings, aim_point, can_fire_at, fire_at_building, strike_building and the
// state.Battle.building_armor_of they read. (in_contact is flow_mech.hpp's.)
#pragma once

#include <cstdint>
#include <vector>

#include "../battle/flow.hpp"
#include "../forces/data.hpp"

namespace wargym::no_quarter {

// state.Battle.building_armor_of: current armour of building feature (0: destroyed, not rated
// or not a building).
std::int64_t building_armor_of(const Battle& battle, std::int64_t feature);
// buildings.rated_buildings: indices of the buildings that still have armour.
std::vector<std::int64_t> rated_buildings(const Battle& battle);
// buildings.aim_point: the point just outside the wall of feature nearest to shooter.
Point aim_point(const Battle& battle, const RulesTables& rules, std::int64_t feature, Point shooter);
// buildings.can_fire_at: weapon in range of the wall, in arc under twist and in LOS (§17.4).
bool can_fire_at(const Battle& battle, const RulesTables& rules, const Mech& shooter, std::int64_t weapon,
                 std::int64_t feature, std::int64_t twist);
// buildings.fire_at_building: one weapon's roll against a building and, on a hit, each shot's
// damage; shots counts the ShotFired events (resolve_firing's FiringEnded.shots).
void fire_at_building(Ctx& ctx, const Mech& shooter, std::int64_t weapon, std::int64_t feature,
                      std::int64_t index, std::int64_t& shots);
// buildings.strike_building: punch or kick building feature with limb; the building scores no
// successes (§19.4.2 ruling, §18.3): BuildingDamaged, then BuildingDestroyed at 0.
void strike_building(Ctx& ctx, const Mech& mech, std::int64_t feature, MeleeAttack attack, Location limb);

}  // namespace wargym::no_quarter
