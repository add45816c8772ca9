// Mirror of rules/no_quarter/forces/leaders.py (§11.0, §12.0); see leaders.hpp.
#include "leaders.hpp"

#include "../../errors.hpp"

namespace wargym::no_quarter {

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    if (b == 0) throw ArgumentError("rules", "integer division or modulo by zero");
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

std::int64_t floor_mod(std::int64_t a, std::int64_t b) {
    if (b == 0) throw ArgumentError("rules", "integer division or modulo by zero");
    std::int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

// Faction.table_row: ISS reads the Star Army row (§9.3).
static Faction table_row(Faction faction) {
    return faction == Faction::iss ? Faction::star_army : faction;
}

const FormationRow& formation_row(const LeaderTables& tables, Faction faction) {
    const auto& row = tables.organization[static_cast<std::size_t>(faction)];
    if (row) return *row;
    const auto& fallback = tables.organization[static_cast<std::size_t>(table_row(faction))];
    if (!fallback) {
        throw ArgumentError("rules", "the organization table has no row for " +
                                         std::string(kFaction[table_row(faction)]));
    }
    return *fallback;
}

std::int64_t squad_of(const LeaderTables& tables, const Mech& mech) {
    const FormationRow& row = formation_row(tables, mech.record->pilot.faction);
    return floor_div(floor_mod(mech.team, tables.red_teams), row.squad_teams);
}

std::int64_t platoon_of(const LeaderTables& tables, const Mech& mech) {
    const FormationRow& row = formation_row(tables, mech.record->pilot.faction);
    return floor_div(squad_of(tables, mech), row.platoon_squads);
}

bool commands(const LeaderTables& tables, const Mech& leader, const Mech& mech) {
    if (!leader.rank || leader.side != mech.side) return false;
    if (*leader.rank == Rank::squad_leader) return squad_of(tables, leader) == squad_of(tables, mech);
    if (*leader.rank == Rank::platoon_leader) {
        return platoon_of(tables, leader) == platoon_of(tables, mech);
    }
    return *leader.rank == Rank::company_commander;
}

std::vector<Rank> initial_ranks(std::int64_t teams, const FormationRow& row) {
    if (teams <= 1) return std::vector<Rank>(teams > 0 ? static_cast<std::size_t>(teams) : 0,
                                             Rank::team_leader);
    std::vector<Rank> ranks;
    ranks.reserve(static_cast<std::size_t>(teams));
    if (teams <= row.squad_teams) {
        ranks.push_back(Rank::squad_leader);
        ranks.insert(ranks.end(), static_cast<std::size_t>(teams - 1), Rank::team_leader);
        return ranks;
    }
    Rank top = Rank::platoon_leader;
    if (teams > row.squad_teams * row.platoon_squads) top = Rank::company_commander;
    ranks.push_back(top);
    for (std::int64_t team = 1; team < teams; ++team) {
        const bool leads_squad = floor_mod(team, row.squad_teams) == 0;
        ranks.push_back(leads_squad ? Rank::squad_leader : Rank::team_leader);
    }
    return ranks;
}

namespace {

// leaders._best: the highest (rep, -id); the first of equals (max's tie rule).
template <class Keep>
const Mech* best(std::span<const Mech* const> candidates, Keep keep) {
    const Mech* found = nullptr;
    for (const Mech* m : candidates) {
        if (!keep(*m)) continue;
        if (found == nullptr || m->rep > found->rep || (m->rep == found->rep && -m->id > -found->id)) {
            found = m;
        }
    }
    return found;
}

// leaders._candidate: the heir one succession spec names.
const Mech* candidate(const LeaderTables& tables, const SuccessionSpec& spec, const Mech& lost,
                      std::span<const Mech* const> friends) {
    switch (spec.kind) {
        case SuccessionKind::highest_rep_pilot_in_team:
            return best(friends, [&](const Mech& m) { return m.team == lost.team; });
        case SuccessionKind::highest_rep_team_leader_in_squad: {
            const std::int64_t squad = squad_of(tables, lost);
            return best(friends, [&](const Mech& m) {
                return m.rank == Rank::team_leader && squad_of(tables, m) == squad;
            });
        }
        case SuccessionKind::squad_leader_n: {
            const FormationRow& row = formation_row(tables, lost.record->pilot.faction);
            const std::int64_t wanted = platoon_of(tables, lost) * row.platoon_squads + (spec.n - 1);
            return best(friends, [&](const Mech& m) {
                return m.rank == Rank::squad_leader && squad_of(tables, m) == wanted;
            });
        }
        case SuccessionKind::platoon_leader_n: {
            const FormationRow& row = formation_row(tables, lost.record->pilot.faction);
            const std::int64_t first =
                floor_div(platoon_of(tables, lost), row.company_platoons) * row.company_platoons;
            const std::int64_t wanted = first + (spec.n - 1);
            return best(friends, [&](const Mech& m) {
                return m.rank == Rank::platoon_leader && platoon_of(tables, m) == wanted;
            });
        }
        case SuccessionKind::unknown:
            break;
    }
    throw ArgumentError("rules", "unknown succession spec '" + spec.text.substr(0, 80) + "'");
}

}  // namespace

const Mech* successor(const LeaderTables& tables, const Mech& lost, Rank rank,
                      std::span<const Mech* const> friends) {
    std::vector<const Mech*> others;  // nobody is demoted: the heir holds a lower rank or none
    for (const Mech* m : friends) {
        if (m->id != lost.id && (!m->rank || rank_order(*m->rank) < rank_order(rank))) {
            others.push_back(m);
        }
    }
    for (const SuccessionSpec& spec : tables.succession[static_cast<std::size_t>(rank)]) {
        const Mech* heir = candidate(tables, spec, lost, others);
        if (heir != nullptr) return heir;
    }
    return nullptr;
}

}  // namespace wargym::no_quarter
