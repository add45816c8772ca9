// Mirror of the pure parts of rules/no_quarter/battle/group_orders.py; see group_orders.hpp.
#include "group_orders.hpp"

#include <algorithm>
#include <string>

#include "../../errors.hpp"

namespace wargym::no_quarter {

bool acting(const Mech& mech) {
    return !mech.removed && mech.status != Status::leave_battlefield;
}

PhaseStage first_stage(const Battle& battle, Side side) {
    if (battle.np.kind() == Json::Kind::object) {  // the NP side's groups follow §22 (its Teams)
        for (const auto& [key, value] : battle.np.as_object()) {
            if (key == "side" && value.kind() == Json::Kind::string &&
                value.as_string() == kSide[side]) {
                return PhaseStage::choose;
            }
        }
    }
    if (battle.options->command_groups == CommandGroups::choose) return PhaseStage::lead;
    return battle.options->group_splits == GroupSplits::choose ? PhaseStage::split
                                                               : PhaseStage::choose;
}

std::vector<std::int64_t> higher_leaders(const Battle& battle, Side side) {
    std::vector<const Mech*> found;
    for (const Mech* m : mechs_of(battle, side)) {
        if (m->rank && rank_order(*m->rank) > rank_order(Rank::team_leader)) found.push_back(m);
    }
    std::stable_sort(found.begin(), found.end(), [](const Mech* a, const Mech* b) {
        const int ra = rank_order(*a->rank), rb = rank_order(*b->rank);
        return ra != rb ? ra < rb : a->id < b->id;
    });
    std::vector<std::int64_t> ids;
    for (const Mech* m : found) ids.push_back(m->id);
    return ids;
}

// group_orders._live: the members able to act, in group order.
static std::vector<std::int64_t> live(const Battle& battle, const std::vector<std::int64_t>& group) {
    std::vector<std::int64_t> found;
    for (std::int64_t id : group) {
        if (acting(mech_at(battle, id, "groups"))) found.push_back(id);
    }
    return found;
}

std::vector<std::int64_t> lead_candidates(const Scene& scene, const LeaderTables& tables,
                                          const Groups& groups, std::int64_t leader) {
    const Battle& battle = scene.battle;
    const Mech& chief = mech_at(battle, leader, "leader");
    std::vector<std::int64_t> found;
    if (!acting(chief)) return found;
    for (const auto& group : groups) {
        const std::vector<std::int64_t> members = live(battle, group);
        if (members.empty() || std::find(group.begin(), group.end(), leader) != group.end()) {
            continue;
        }
        for (std::int64_t i : members) {
            const Mech& m = mech_at(battle, i, "groups");
            if (commands(tables, chief, m) &&
                linked(scene, chief, m, tables.command_radius_inches,
                       tables.command_radius_requires_los)) {
                found.push_back(group_leader(battle, members));
                break;
            }
        }
    }
    return found;
}

LeadNext lead_next(const Scene& scene, const LeaderTables& tables, const Groups& groups,
                   std::span<const std::int64_t> leaders) {
    LeadNext next;
    std::size_t first = 0;
    for (; first < leaders.size(); ++first) {
        if (!lead_candidates(scene, tables, groups, leaders[first]).empty()) {
            next.leaders.assign(leaders.begin() + static_cast<std::ptrdiff_t>(first), leaders.end());
            next.asking = leaders[first];
            return next;
        }
    }
    next.stage = scene.battle.options->group_splits == GroupSplits::choose ? PhaseStage::split
                                                                           : PhaseStage::choose;
    return next;
}

std::vector<GroupOption> lead_options(const Scene& scene, const LeaderTables& tables,
                                      const Groups& groups, std::int64_t asking) {
    std::vector<GroupOption> options;
    for (std::int64_t g : lead_candidates(scene, tables, groups, asking)) {
        options.push_back({GroupOption::Kind::lead_team, asking, g});
    }
    options.push_back({GroupOption::Kind::lead_done, asking, 0});
    return options;
}

std::size_t group_led_by(const Battle& battle, const Groups& groups, std::int64_t leader) {
    for (std::size_t i = 0; i < groups.size(); ++i) {
        const std::vector<std::int64_t> members = live(battle, groups[i]);
        if (!members.empty() && group_leader(battle, members) == leader) return i;
    }
    throw ArgumentError("group", "no group of the phase is led by mech " + std::to_string(leader));
}

static std::size_t group_holding(const Groups& groups, std::int64_t mech, const char* name) {
    for (std::size_t i = 0; i < groups.size(); ++i) {
        if (std::find(groups[i].begin(), groups[i].end(), mech) != groups[i].end()) return i;
    }
    throw ArgumentError(name, "no group of the phase holds mech " + std::to_string(mech));
}

// group_leader(battle, _live(battle, part) or part)
static std::int64_t part_leader(const Battle& battle, const std::vector<std::int64_t>& part) {
    const std::vector<std::int64_t> members = live(battle, part);
    return group_leader(battle, members.empty() ? part : members);
}

LeadMerge lead_merge(const Battle& battle, const Groups& groups, std::int64_t mech,
                     std::int64_t group) {
    const std::size_t joined = group_led_by(battle, groups, group);
    const std::size_t own = group_holding(groups, mech, "mech");
    LeadMerge out;
    out.merged = groups[own];
    out.merged.insert(out.merged.end(), groups[joined].begin(), groups[joined].end());
    std::sort(out.merged.begin(), out.merged.end());
    for (std::size_t i = 0; i < groups.size(); ++i) {
        if (i != own && i != joined) out.groups.push_back(groups[i]);
    }
    out.groups.push_back(out.merged);
    out.leader = part_leader(battle, out.merged);
    out.joined = groups[joined];
    std::sort(out.joined.begin(), out.joined.end());
    return out;
}

std::vector<GroupOption> split_options(const Battle& battle, const Groups& groups) {
    std::vector<GroupOption> options;
    for (const auto& group : groups) {
        const std::vector<std::int64_t> members = live(battle, group);
        if (members.size() > 1) {
            for (std::int64_t i : members) options.push_back({GroupOption::Kind::split_off, i, 0});
        }
    }
    if (!options.empty()) options.push_back({GroupOption::Kind::keep_groups, 0, 0});
    return options;
}

Groups components(const Scene& scene, const LeaderTables& tables,
                  std::span<const std::int64_t> members) {
    std::vector<std::int64_t> ids(members.begin(), members.end());  // sorted(set(members))
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::vector<const Mech*> mechs;
    for (std::int64_t id : ids) mechs.push_back(&mech_at(scene.battle, id, "members"));
    std::vector<bool> unseen(ids.size(), true);
    Groups found;
    for (std::size_t start = 0; start < ids.size(); ++start) {
        if (!unseen[start]) continue;
        unseen[start] = false;
        std::vector<std::int64_t> part;
        std::vector<std::size_t> stack{start};
        while (!stack.empty()) {
            const Mech& current = *mechs[stack.back()];
            stack.pop_back();
            part.push_back(current.id);
            for (std::size_t j = 0; j < ids.size(); ++j) {
                if (!unseen[j]) continue;
                const Mech& other = *mechs[j];
                double inches = tables.cohesion_link_inches;
                bool los = tables.cohesion_link_requires_los;
                if (other.team != current.team) {
                    if (!(commands(tables, current, other) || commands(tables, other, current))) {
                        continue;
                    }
                    inches = tables.command_radius_inches;
                    los = tables.command_radius_requires_los;
                }
                if (linked(scene, current, other, inches, los)) {
                    unseen[j] = false;
                    stack.push_back(j);
                }
            }
        }
        std::sort(part.begin(), part.end());
        found.push_back(std::move(part));
    }
    return found;
}

SplitResult split_off(const Scene& scene, const LeaderTables& tables, const Groups& groups,
                      std::int64_t mech) {
    const std::size_t old = group_holding(groups, mech, "mech");
    std::vector<std::int64_t> rest;
    for (std::int64_t i : groups[old]) {
        if (i != mech) rest.push_back(i);
    }
    SplitResult out;
    out.parts = components(scene, tables, rest);
    out.parts.push_back({mech});
    for (std::size_t i = 0; i < groups.size(); ++i) {
        if (i != old) out.groups.push_back(groups[i]);
    }
    out.groups.insert(out.groups.end(), out.parts.begin(), out.parts.end());
    for (const auto& part : out.parts) out.leaders.push_back(part_leader(scene.battle, part));
    return out;
}

}  // namespace wargym::no_quarter
