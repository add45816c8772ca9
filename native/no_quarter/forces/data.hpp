// The rule numbers and the battlefield's derived tables the native battle flow's handlers read:
// flow.hpp's RulesTables (the part of rules/no_quarter/forces/data.py's NoQuarterRules, and of
// the battlefield index / terrain tables, that Ctx.rules stands for). Every member is handed in
// by Python glue (no number of the books here). Helpers of wave 2 append the members their
// handlers need (one line each, with the Python name it mirrors).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "../battlefield/terrain_tables.hpp"
#include "../sight_movement/flames.hpp"
#include "../sight_movement/movement_geometry.hpp"
#include "../sight_movement/perception.hpp"
#include "../sight_movement/sight.hpp"
#include "../sight_movement/sight_protected.hpp"
#include "data_combat.hpp"
#include "leaders.hpp"
#include "pilots.hpp"

namespace wargym::no_quarter {

struct RulesTables {
    CombatTables combat;            // ranged_combat / reaction / melee tables (data_combat.hpp)
    LeaderTables leaders;           // leaders.yaml (successor, groups)
    ActivationTables activation;    // activation.yaml (§14.0)
    PerceptionTables perception;    // fast_moving_inches, TWISTS
    SightTerrain sight;             // the battlefield's line-of-sight table (sight.hpp)
    CoverTerrain cover;             // table 17.2 over the battlefield (perception.hpp)
    MoveTerrain move;               // the battlefield as movement reads it (movement_geometry.hpp)
    ProtectionTables protection;    // table 17.2.1 over the battlefield (sight_protected.hpp)
    std::int64_t flamer_impact = 0;           // rules.item_profile(FLAMER).impact or 0 (D27)
    double mech_down_radius_inches = 0.0;     // reaction_tests.yaml mech_down_radius_inches
    bool mech_down_requires_los = true;       // reaction_tests.yaml mech_down_requires_los
    double duck_back_max = 0.0;               // consequences.DUCK_BACK_MAX (§15.2.4.1)
    double aim_offset = 0.0;                  // buildings.AIM_OFFSET (aim_point, §19.4.2)
    FlameSizes flames;                        // terrain_config() flame_strip_width, flame_circle_diameter
    double lucky_kill_fraction = 0.0;         // luck.KILL_FRACTION (the automatic Lucky rule)
    // flow_mech / flow_move, flow_melee / flow_react:
    std::vector<double> headings;             // facing.HEADINGS (§6.2.1)
    double in_sight_free_move_inches = 0.0;   // rules.in_sight.free_move_inches (§16.1.3)
    double in_sight_step = 0.0;               // flow_move.STEP (ruling D8)
    double in_sight_charge_range = 0.0;       // perception.IN_SIGHT_CHARGE_RANGE (§16.1.4)
    double charge_stage_distance = 0.0;       // rules.charge.stage_distance_inches (§18.2)
    std::int64_t max_attackers_per_target = 0;  // rules.multiple_melee.max_attackers_per_target
    double building_contact_slack = 0.0;      // buildings.CONTACT_SLACK (§19.4.2)
    std::int32_t success_face = 0;            // dice.successes: a d6 this or lower scores (§5.2)
    // The numbers sight, cover, move and protection are built from a battlefield with
    // (battlefield/terrain_tables.hpp), and the battlefield they were last built for (null: by
    // the Python glue, unknown). Ctx::use_rules rebuilds them when a battle's battlefield differs.
    TerrainNumbers terrain_numbers;
    std::shared_ptr<const Battlefield> terrain_of;
};

}  // namespace wargym::no_quarter
