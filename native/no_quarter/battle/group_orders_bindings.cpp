// Bindings of battle/group_orders.hpp in _core.no_quarter.perception (called by
// bind_perception). Options come back as plain tuples: ("lead_team", mech, group),
// ("lead_done", mech), ("split_off", mech), ("keep_groups",); the phase frame's groups and
// leaders lists are plain arguments.
#include <nanobind/nanobind.h>

#include "../sight_movement/perception_bindings.hpp"
#include "group_orders.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace wargym::no_quarter {

namespace {

nb::tuple option_tuple(const GroupOption& o) {
    switch (o.kind) {
        case GroupOption::Kind::lead_team: return nb::make_tuple("lead_team", o.mech, o.group);
        case GroupOption::Kind::lead_done: return nb::make_tuple("lead_done", o.mech);
        case GroupOption::Kind::split_off: return nb::make_tuple("split_off", o.mech);
        case GroupOption::Kind::keep_groups: break;
    }
    return nb::make_tuple("keep_groups");
}

nb::list option_list(const std::vector<GroupOption>& options) {
    nb::list out;
    for (const GroupOption& o : options) out.append(option_tuple(o));
    return out;
}

nb::str stage_name(PhaseStage stage) {
    const std::string_view v = kPhaseStage[stage];
    return nb::str(v.data(), v.size());
}

}  // namespace

void bind_group_orders(nb::module_& p) {
    using namespace perception_args;
    using H = nb::handle;
    p.def("first_stage", [](H b, H s) { return stage_name(first_stage(battle(b), side(s, "side"))); },
          "battle"_a.none(), "side"_a.none());
    p.def("higher_leaders", [](H b, H s) { return int_list(higher_leaders(battle(b), side(s, "side"))); },
          "battle"_a.none(), "side"_a.none());
    p.def("lead_candidates", [](H b, H t, H r, H g, H l) {
        const Battle& bt = battle(b);
        const Groups gs = groups(g, "groups");
        const std::int64_t leader = integer(l, "leader");
        return int_list(lead_candidates(make_scene(bt, terrain(t)), rules(r).leaders, gs, leader));
    }, "battle"_a.none(), "terrain"_a.none(), "rules"_a.none(), "groups"_a.none(), "leader"_a.none());
    p.def("lead_next", [](H b, H t, H r, H g, H l) {
        const Battle& bt = battle(b);
        const Groups gs = groups(g, "groups");
        const auto leaders = ids(l, "leaders");
        const LeadNext next = lead_next(make_scene(bt, terrain(t)), rules(r).leaders, gs, leaders);
        nb::object asking = next.asking ? nb::object(nb::int_(*next.asking)) : nb::none();
        return nb::make_tuple(int_list(next.leaders), asking, stage_name(next.stage));
    }, "battle"_a.none(), "terrain"_a.none(), "rules"_a.none(), "groups"_a.none(), "leaders"_a.none(),
       "lead_step's computation: (leaders left, the one asked or None, the next stage if None).");
    p.def("lead_options", [](H b, H t, H r, H g, H a) {
        const Battle& bt = battle(b);
        const Groups gs = groups(g, "groups");
        const std::int64_t asking = integer(a, "asking");
        return option_list(lead_options(make_scene(bt, terrain(t)), rules(r).leaders, gs, asking));
    }, "battle"_a.none(), "terrain"_a.none(), "rules"_a.none(), "groups"_a.none(), "asking"_a.none());
    p.def("group_led_by", [](H b, H g, H l) {
        const Groups gs = groups(g, "groups");
        return group_led_by(battle(b), gs, integer(l, "leader"));
    }, "battle"_a.none(), "groups"_a.none(), "leader"_a.none(), "The index of the group led by leader.");
    p.def("lead_merge", [](H b, H g, H m, H j) {
        const Groups gs = groups(g, "groups");
        const LeadMerge out = lead_merge(battle(b), gs, integer(m, "mech"), integer(j, "group"));
        return nb::make_tuple(groups_list(out.groups), out.leader, int_list(out.joined), int_list(out.merged));
    }, "battle"_a.none(), "groups"_a.none(), "mech"_a.none(), "group"_a.none(),
       "lead_act for LeadTeam(mech, group): (groups, leader, joined, merged).");
    p.def("split_options", [](H b, H g) {
        const Groups gs = groups(g, "groups");
        return option_list(split_options(battle(b), gs));
    }, "battle"_a.none(), "groups"_a.none());
    p.def("components", [](H b, H t, H r, H m) {
        const Battle& bt = battle(b);
        const auto members = ids(m, "members");
        return groups_list(components(make_scene(bt, terrain(t)), rules(r).leaders, members));
    }, "battle"_a.none(), "terrain"_a.none(), "rules"_a.none(), "members"_a.none());
    p.def("split_off", [](H b, H t, H r, H g, H m) {
        const Battle& bt = battle(b);
        const Groups gs = groups(g, "groups");
        const std::int64_t mech = integer(m, "mech");
        const SplitResult out = split_off(make_scene(bt, terrain(t)), rules(r).leaders, gs, mech);
        return nb::make_tuple(groups_list(out.groups), groups_list(out.parts), int_list(out.leaders));
    }, "battle"_a.none(), "terrain"_a.none(), "rules"_a.none(), "groups"_a.none(), "mech"_a.none(),
       "split_act for SplitOff(mech): (groups, parts, leaders).");
}

}  // namespace wargym::no_quarter
