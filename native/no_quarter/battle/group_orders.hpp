// Mirror of the pure parts of rules/no_quarter/battle/group_orders.py: the voluntary group
// orders at the start of a side's activation phase (§12.2, §13.1, ruling D30).
//
// The reference's *_step and *_act functions ask, emit events and change the phase frame;
// here are the computations they make (the stage, the leaders to ask, the options, the new
// groups and the leaders an event names), so the native flow can do the rest. The phase
// frame's "groups" list is taken as a plain Groups argument. Options are GroupOption values
// (the reference's LeadTeam, LeadDone, SplitOff, KeepGroups).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "../forces/leaders.hpp"
#include "../sight_movement/perception.hpp"
#include "frames.hpp"
#include "state.hpp"

namespace wargym::no_quarter {

// The stages of the phase frame that group_orders decides between (lead, split, choose) are
// frames.hpp's PhaseStage.

struct GroupOption {
    enum class Kind : std::uint8_t { lead_team, lead_done, split_off, keep_groups };
    Kind kind;
    std::int64_t mech = 0;   // LeadTeam.mech, LeadDone.mech, SplitOff.mech
    std::int64_t group = 0;  // LeadTeam.group (the leader of the group taken in)
};

// group_orders._acting: in play and not leaving the battlefield.
bool acting(const Mech& mech);
// group_orders.first_stage: lead, split or choose after the groups are formed.
PhaseStage first_stage(const Battle& battle, Side side);
// group_orders.higher_leaders: Squad/Platoon Leaders and the Company Commander, lowest rank
// first, ties the lowest id (§12.0).
std::vector<std::int64_t> higher_leaders(const Battle& battle, Side side);
// group_orders.lead_candidates: leaders of the groups leader may take in now (§12.2).
std::vector<std::int64_t> lead_candidates(const Scene& scene, const LeaderTables& tables,
                                          const Groups& groups, std::int64_t leader);
// group_orders.lead_step's computation: the leaders left to ask (the first is asked) and,
// when none is left, the next stage (split or choose).
struct LeadNext {
    std::vector<std::int64_t> leaders;  // frame["leaders"] after the step
    std::optional<std::int64_t> asking;  // frame["asking"], or none: the stage moves on
    PhaseStage stage = PhaseStage::lead;
};
LeadNext lead_next(const Scene& scene, const LeaderTables& tables, const Groups& groups,
                   std::span<const std::int64_t> leaders);
// group_orders.lead_options: LeadTeam for each candidate, then LeadDone (§12.2).
std::vector<GroupOption> lead_options(const Scene& scene, const LeaderTables& tables,
                                      const Groups& groups, std::int64_t asking);
// group_orders._group_led_by: the index of the group whose live leader is leader.
std::size_t group_led_by(const Battle& battle, const Groups& groups, std::int64_t leader);
// group_orders.lead_act for a LeadTeam: the groups after the merge and the TeamJoined fields.
struct LeadMerge {
    Groups groups;
    std::int64_t leader = 0;
    std::vector<std::int64_t> joined;  // sorted
    std::vector<std::int64_t> merged;
};
LeadMerge lead_merge(const Battle& battle, const Groups& groups, std::int64_t mech,
                     std::int64_t group);
// group_orders.split_options: SplitOff for each live mech of a group of two or more live
// mechs, then KeepGroups; none when no group can split (§13.1).
std::vector<GroupOption> split_options(const Battle& battle, const Groups& groups);
// group_orders.components: connected components of members under the group links (§13.2).
Groups components(const Scene& scene, const LeaderTables& tables,
                  std::span<const std::int64_t> members);
// group_orders.split_act for a SplitOff: the groups after it and the MechSplitOff fields.
struct SplitResult {
    Groups groups;
    Groups parts;
    std::vector<std::int64_t> leaders;
};
SplitResult split_off(const Scene& scene, const LeaderTables& tables, const Groups& groups,
                      std::int64_t mech);

}  // namespace wargym::no_quarter
