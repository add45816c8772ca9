// The battlefield's derived tables, built in C++ from the Feature list a native battle holds:
// rules/no_quarter/battlefield/terrain.py's Battlefield.index (per-kind rectangles, deep_core,
// half_speed) and what the glue built from it in Python (native/no_quarter/__init__.py
// sight_terrain, perception.py cover_terrain, movement.py move_terrain, fire.py's protection
// rectangles; sight.py _rects). The numbers come from the reference's loaders once
// (terrain_config(), cover_config(): TerrainNumbers, handed in by native/no_quarter/tables.py);
// no number of the books is written here.
//
// When they are rebuilt. The reference's index is a cached property of its (immutable)
// Battlefield, and BuildingDestroyed replaces the battlefield (state.rubble) while Battle.apply
// resets battle.geometry_cache: the next query sees the rubble. The core does the same at the
// same point: Ctx::emit of a BuildingDestroyed rebuilds the tables of its call (flow.hpp
// Ctx::terrain_changed), and every call into the engine starts from tables checked against
// the battle's battlefield (Ctx::use_rules).
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "../forces/vocab.hpp"
#include "terrain.hpp"

namespace wargym::no_quarter {

struct RulesTables;

inline constexpr std::size_t kTerrainKinds = 8;  // forces/vocab.hpp Terrain

// The numbers the battlefield's tables are built with, per Terrain kind (vocab order).
struct TerrainNumbers {
    bool present = false;                              // handed in (with_terrain_numbers)
    double deep_water_shore_band = 0.0;                // terrain_config().deep_water_shore_band
    std::array<double, kTerrainKinds> cost_per_inch{};  // terrain_config().cost_per_inch(kind)
    std::array<bool, kTerrainKinds> concealing{};       // cover_config().concealing()
    std::array<bool, kTerrainKinds> cover_moving{};     // "cover" in cover_config().inside_moving[kind]
    std::array<bool, kTerrainKinds> cover_stationary{};  // "cover" in cover_config().inside_stationary[kind]
};

// Whether two battlefields are the same table with the same terrain (Battlefield.__eq__).
bool same_battlefield(const Battlefield& a, const Battlefield& b);

// Fill the battlefield-derived members of ``tables`` (sight, cover, move, protection) from
// ``bf`` with tables.terrain_numbers; their rule numbers (SightConfig, MoveTables, the cover
// flags, the protected locations) are kept. Records bf as tables.terrain_of.
void build_battlefield_tables(RulesTables& tables, std::shared_ptr<const Battlefield> bf);

}  // namespace wargym::no_quarter
