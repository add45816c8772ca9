// The rule tables the native battle flow reads (rules/no_quarter/forces/data.py NoQuarterRules,
// the part the ported handlers need), with the battlefield's terrain the flow's perception and
// movement read. Built by the glue (wargym.native.no_quarter.game.game_tables) from load_rules
// and the battlefield; the C++ holds no rule number of its own. Flow.hpp's Ctx::rules points here.
// Helpers porting further handlers append the tables they read.
#pragma once

#include "../sight_movement/movement_geometry.hpp"
#include "../sight_movement/perception.hpp"
#include "leaders.hpp"
#include "pilots.hpp"

namespace wargym::no_quarter {

struct RulesTables {
    LeaderTables leaders;          // organization.yaml, leaders.yaml (§11, §12, §13.2)
    ActivationTables activation;   // activation.yaml (§14.0)
    PerceptionTables perception;   // ranged_combat.yaml fast_moving_inches, perception.TWISTS
    MoveTerrain terrain;           // the battlefield (.sight: perception's SightTerrain; .tables.near: game.NEAR)
};

}  // namespace wargym::no_quarter
