// Mirror of rules/no_quarter/forces/setup.py's skirmish set-up (§9-§12): new_skirmish_logged up
// to its call of advance(), i.e. generate_battlefield, the random picks of pre-generated mechs,
// then new_battle_logged: deployment on the home edges (D1, D5, D10), Teams and initial ranks
// (leaders.py: initial_ranks, formation_row), a Free Company's races and each pilot (§9).
// The battle comes back as it stands before advance(); the set-up events in the reference's
// order (per force, blue then red: FreeCompanyRaces, then one PilotCreated per mech).
//
// Every table (mech designs, pools, formation rows, team size, pilot tables, terrain table) and
// setup.py's constants (HOME_EDGES, FACING, leaders.RED_TEAMS) are handed in by the glue
// (native/no_quarter/setup.py) as SetupTables.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "../../dice.hpp"
#include "../../numpy_random.hpp"
#include "../battle/state.hpp"
#include "../battlefield/battlefield_gen.hpp"
#include "pilots.hpp"

namespace wargym::no_quarter {

// records.FormationRow: the faction's row of table 11.0 (leaders.formation_row's pick).
struct FormationRowTable {
    std::int64_t squad_teams = 1;
    std::int64_t platoon_squads = 1;
};

struct SetupTables {
    PilotTables pilots;
    TerrainGenTables terrain;
    // rules.mechs_of(faction) in order: the skirmish's pool of pre-generated mechs
    std::array<std::vector<std::shared_ptr<const MechDesign>>, kFaction.size> pools{};
    std::array<FormationRowTable, kFaction.size> formation{};
    std::int64_t team_size = 1;
    std::int64_t red_teams = 0;                        // leaders.RED_TEAMS
    std::array<std::string, kSide.size> home_edges{};  // setup.HOME_EDGES
    std::array<double, kSide.size> facing{};           // setup.FACING
};

using SetupEvent = std::variant<FreeCompanyRacesEvent, PilotCreatedEvent>;

struct ForceSpec {
    Side side{};
    Faction faction{};
    std::vector<std::shared_ptr<const MechDesign>> mechs;
    std::int64_t stars = 0;
    bool use_attributes = true;
};

// leaders.initial_ranks(teams, row)
std::vector<Rank> initial_ranks(std::int64_t teams, const FormationRowTable& row);

// new_battle_logged(forces, battlefield, rng, dice, options) with deployment_points and D35's
// chooser. Throws StateError for a force without mechs or two forces of one side.
Battle new_battle_logged(const std::vector<ForceSpec>& forces,
                         std::shared_ptr<const Battlefield> battlefield, NumpyGenerator& rng,
                         Dice& dice, std::shared_ptr<const BattleOptions> options,
                         const SetupTables& tables, std::vector<SetupEvent>& events);

// new_skirmish_logged up to advance(): the battlefield from rng, mechs_per_side picks per side
// (blue, then red), then new_battle_logged.
Battle new_skirmish_setup(NumpyGenerator& rng, Dice& dice, const SetupTables& tables,
                          Faction blue, Faction red, std::int64_t mechs_per_side,
                          std::int64_t stars, std::shared_ptr<const BattleOptions> options,
                          std::vector<SetupEvent>& events);

}  // namespace wargym::no_quarter
