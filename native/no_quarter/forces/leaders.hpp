// Mirror of rules/no_quarter/forces/leaders.py: formations, ranks at set-up and succession
// (§11.0, §12.0).
//
// Teams are numbered from 0 on blue and from LeaderTables::red_teams on red (Mech.team);
// Squads, Platoons and the Company are read from them with the faction's row of table 11.0.
// Every number (the rows, the command radius, the cohesion link, the succession lists) comes
// from organization.yaml and leaders.yaml through wargym.native.no_quarter.perception.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "../battle/state.hpp"
#include "vocab.hpp"

namespace wargym::no_quarter {

// records.FormationRow: a row of the Mech Organization table (§11.0).
struct FormationRow {
    std::int64_t squad_teams = 0;
    std::int64_t platoon_squads = 0;
    std::int64_t company_platoons = 0;
};

// The successor specs of leaders.yaml (records.SUCCESSION_SPEC), parsed by the glue.
enum class SuccessionKind : std::uint8_t {
    highest_rep_pilot_in_team,
    highest_rep_team_leader_in_squad,
    squad_leader_n,    // squad_leader_<n>
    platoon_leader_n,  // platoon_leader_<n>
    unknown,           // refused by the loader; _candidate raises on it (a hand-edited table)
};

struct SuccessionSpec {
    SuccessionKind kind = SuccessionKind::unknown;
    std::int64_t n = 0;  // the <n> of squad_leader_<n> / platoon_leader_<n>
    std::string text;    // the spec as written (for the error message)
};

// rules.organization, rules.leaders and leaders.RED_TEAMS, as the glue hands them over.
struct LeaderTables {
    std::array<std::optional<FormationRow>, 6> organization;  // by Faction (vocab order)
    std::int64_t red_teams = 0;                               // leaders.RED_TEAMS
    double command_radius_inches = 0.0;                       // §12.2
    bool command_radius_requires_los = true;
    double cohesion_link_inches = 0.0;                        // §13.2
    bool cohesion_link_requires_los = true;
    std::array<std::vector<SuccessionSpec>, 4> succession;    // by Rank (vocab order)
};

// Python's // and % on integers (floor division; the divisor's sign).
std::int64_t floor_div(std::int64_t a, std::int64_t b);
std::int64_t floor_mod(std::int64_t a, std::int64_t b);

// leaders.formation_row: the faction's row (ISS reads the Star Army row where it has none).
const FormationRow& formation_row(const LeaderTables& tables, Faction faction);
// leaders.squad_of / platoon_of: indices in the side's order of battle (§11.0).
std::int64_t squad_of(const LeaderTables& tables, const Mech& mech);
std::int64_t platoon_of(const LeaderTables& tables, const Mech& mech);
// leaders.commands: leader is a higher leader of mech's formation (§12.0, §12.2).
bool commands(const LeaderTables& tables, const Mech& leader, const Mech& mech);
// leaders.initial_ranks: ranks of the Team leaders, Team by Team (§11.0, §12.0).
std::vector<Rank> initial_ranks(std::int64_t teams, const FormationRow& row);
// leaders.successor: who takes over rank from lost among friends in play (§12.0), or nullptr.
// Throws ArgumentError("rules") on an unknown spec, as _candidate raises ValueError.
const Mech* successor(const LeaderTables& tables, const Mech& lost, Rank rank,
                      std::span<const Mech* const> friends);

inline int rank_order(Rank rank) { return static_cast<int>(rank); }  // Rank.order

}  // namespace wargym::no_quarter
