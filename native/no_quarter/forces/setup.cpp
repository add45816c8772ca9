// Mirror of rules/no_quarter/forces/setup.py's skirmish set-up (see setup.hpp).
#include "setup.hpp"

#include <algorithm>

#include "../../errors.hpp"

namespace wargym::no_quarter {

std::vector<Rank> initial_ranks(std::int64_t teams, const FormationRowTable& row) {
    if (teams <= 1) return std::vector<Rank>(static_cast<std::size_t>(std::max<std::int64_t>(teams, 0)), Rank::team_leader);
    std::vector<Rank> ranks;
    if (teams <= row.squad_teams) {
        ranks.push_back(Rank::squad_leader);
        ranks.insert(ranks.end(), static_cast<std::size_t>(teams - 1), Rank::team_leader);
        return ranks;
    }
    Rank top = Rank::platoon_leader;
    if (teams > row.squad_teams * row.platoon_squads) top = Rank::company_commander;
    ranks.push_back(top);
    for (std::int64_t team = 1; team < teams; ++team) {
        const bool leads_squad = team % row.squad_teams == 0;
        ranks.push_back(leads_squad ? Rank::squad_leader : Rank::team_leader);
    }
    return ranks;
}

Battle new_battle_logged(const std::vector<ForceSpec>& forces,
                         std::shared_ptr<const Battlefield> battlefield, NumpyGenerator& rng,
                         Dice& dice, std::shared_ptr<const BattleOptions> options,
                         const SetupTables& tables, std::vector<SetupEvent>& events) {
    std::vector<const ForceSpec*> order;
    for (const ForceSpec& f : forces) order.push_back(&f);
    std::stable_sort(order.begin(), order.end(),
                     [](const ForceSpec* a, const ForceSpec* b) { return a->side < b->side; });
    if (order.size() != 2 || order[0]->side != Side::blue || order[1]->side != Side::red) {
        throw StateError("forces", "a battle needs one blue and one red force");
    }
    Battle battle;
    battle.battlefield = battlefield;
    battle.options = options;
    for (const ForceSpec* force : order) {
        const std::size_t s = static_cast<std::size_t>(force->side);
        if (force->mechs.empty()) {
            throw StateError("forces", "the " + std::string(kSide[force->side]) + " force has no mechs");
        }
        const auto count = static_cast<std::int64_t>(force->mechs.size());
        const std::vector<Point> points = deployment_points(
            *battlefield, tables.terrain, tables.home_edges[s], count, rng, options->base_radius);
        const std::int64_t team_size = tables.team_size;
        const std::int64_t teams = (count + team_size - 1) / team_size;
        const std::vector<Rank> leaders =
            initial_ranks(teams, tables.formation[static_cast<std::size_t>(force->faction)]);
        const auto first_id = static_cast<std::int64_t>(battle.mechs.size());
        std::vector<std::int64_t> members;
        for (std::int64_t i = 0; i < count; ++i) members.push_back(first_id + i);
        const std::optional<FreeCompanyRacesEvent> company =
            roll_company_races(tables.pilots, force->faction, dice, force->side, members);
        if (company) events.emplace_back(*company);
        for (std::int64_t index = 0; index < count; ++index) {
            const auto mech_id = static_cast<std::int64_t>(battle.mechs.size());
            const MechDesign& design = *force->mechs[static_cast<std::size_t>(index)];
            const std::string label = std::to_string(index + 1);
            auto [pilot, created] = new_pilot_logged(
                tables.pilots, force->faction, dice, index < force->stars, force->use_attributes,
                std::string(kSide[force->side]) + "-" + label, company ? &*company : nullptr,
                mech_id);
            events.emplace_back(std::move(created));
            Mech m;
            m.id = mech_id;
            m.side = force->side;
            m.rep = pilot.rep;
            m.record = std::make_shared<const MechRecord>(
                MechRecord{design.id + " #" + label, design, std::move(pilot)});
            m.armor = design.armor;
            m.speed = design.speed;
            m.pos = points[static_cast<std::size_t>(index)];
            m.heading = tables.facing[s];
            m.team = index / team_size + (force->side == Side::red ? tables.red_teams : 0);
            if (index % team_size == 0) m.rank = leaders[static_cast<std::size_t>(index / team_size)];
            battle.mechs.push_back(std::move(m));
        }
    }
    battle.losses.insert(Side::blue, 0);
    battle.losses.insert(Side::red, 0);
    battle.home_edges.insert(Side::blue, tables.home_edges[0]);
    battle.home_edges.insert(Side::red, tables.home_edges[1]);
    battle.frames = FrameStack{};  // no frames before advance()
    return battle;
}

Battle new_skirmish_setup(NumpyGenerator& rng, Dice& dice, const SetupTables& tables,
                          Faction blue, Faction red, std::int64_t mechs_per_side,
                          std::int64_t stars, std::shared_ptr<const BattleOptions> options,
                          std::vector<SetupEvent>& events) {
    auto field = std::make_shared<const Battlefield>(generate_battlefield(rng, tables.terrain));
    std::vector<ForceSpec> forces;
    for (auto [side, faction] : {std::pair{Side::blue, blue}, std::pair{Side::red, red}}) {
        const auto& pool = tables.pools[static_cast<std::size_t>(faction)];
        ForceSpec force{side, faction, {}, stars, true};
        for (std::int64_t i : rng.integers(0, static_cast<std::int64_t>(pool.size()), mechs_per_side)) {
            force.mechs.push_back(pool[static_cast<std::size_t>(i)]);
        }
        forces.push_back(std::move(force));
    }
    return new_battle_logged(forces, field, rng, dice, options, tables, events);
}

}  // namespace wargym::no_quarter
