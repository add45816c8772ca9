// Bindings of forces/leaders.hpp and forces/pilots.hpp in _core.no_quarter.perception
// (called by bind_perception). Ranks, factions and attributes go by their vocabulary names.
#include <nanobind/nanobind.h>

#include "../../errors.hpp"
#include "../../pyvalues.hpp"
#include "../sight_movement/perception_bindings.hpp"
#include "leaders.hpp"
#include "pilots.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace wargym::no_quarter {

namespace {

using namespace perception_args;
using wargym::short_repr;
using wargym::wrong_type;

Rank rank(nb::handle h) {
    if (!PyUnicode_Check(h.ptr())) wrong_type("rank", "a rank name", h);
    const auto found = kRank.find(text(h, "rank"));
    if (!found) throw ArgumentError("rank", "unknown rank " + short_repr(h));
    return *found;
}

nb::str rank_name(Rank r) {
    const std::string_view v = kRank[r];
    return nb::str(v.data(), v.size());
}

}  // namespace

void bind_leaders(nb::module_& p) {
    using H = nb::handle;
    // -- leaders.py, pilots.py -------------------------------------------------------------------
    p.def("formation_row", [](H r, H f) {
        if (!PyUnicode_Check(f.ptr())) wrong_type("faction", "a faction name", f);
        const auto faction = kFaction.find(text(f, "faction"));
        if (!faction) throw ArgumentError("faction", "unknown faction " + short_repr(f));
        const FormationRow& row = formation_row(rules(r).leaders, *faction);
        return nb::make_tuple(row.squad_teams, row.platoon_squads, row.company_platoons);
    }, "rules"_a.none(), "faction"_a.none());
    p.def("squad_of", [](H b, H r, H m) { return squad_of(rules(r).leaders, mech(battle(b), m, "mech")); },
          "battle"_a.none(), "rules"_a.none(), "mech"_a.none());
    p.def("platoon_of", [](H b, H r, H m) { return platoon_of(rules(r).leaders, mech(battle(b), m, "mech")); },
          "battle"_a.none(), "rules"_a.none(), "mech"_a.none());
    p.def("commands", [](H b, H r, H l, H m) {
        const Battle& bt = battle(b);
        return commands(rules(r).leaders, mech(bt, l, "leader"), mech(bt, m, "mech"));
    }, "battle"_a.none(), "rules"_a.none(), "leader"_a.none(), "mech"_a.none());
    p.def("initial_ranks", [](H teams, H row) {
        const auto parts = fixed_list(row, "row", 3);
        const FormationRow r{at_least_one(parts[0], "row[0]"), at_least_one(parts[1], "row[1]"),
                             at_least_one(parts[2], "row[2]")};
        nb::list out;
        for (Rank k : initial_ranks(integer(teams, "teams"), r)) out.append(rank_name(k));
        return out;
    }, "teams"_a.none(), "row"_a.none());
    p.def("successor", [](H b, H r, H l, H k, H f) -> nb::object {
        const Battle& bt = battle(b);
        const Mech& lost = mech(bt, l, "lost");
        const Rank wanted = rank(k);
        std::vector<const Mech*> friends;
        std::size_t i = 0;
        for (std::int64_t id : ids(f, "friends")) {
            friends.push_back(&mech_at(bt, id, ("friends[" + std::to_string(i++) + "]").c_str()));
        }
        const Mech* heir = successor(rules(r).leaders, lost, wanted, friends);
        if (heir == nullptr) return nb::none();
        return nb::int_(heir->id);
    }, "battle"_a.none(), "rules"_a.none(), "lost"_a.none(), "rank"_a.none(), "friends"_a.none());
    p.def("activation_rep", [](H r, H rep, H attributes, H size) {
        if (!PyList_Check(attributes.ptr()) && !PyTuple_Check(attributes.ptr())) {
            wrong_type("attributes", "a list of attribute names", attributes);
        }
        std::vector<Attribute> attrs;
        for (nb::handle a : attributes) {
            if (!PyUnicode_Check(a.ptr())) wrong_type("attributes", "a list of attribute names", attributes);
            const auto found = kAttribute.find(text(a, "attributes"));
            if (!found) throw ArgumentError("attributes", "unknown attribute " + short_repr(a));
            attrs.push_back(*found);
        }
        return activation_rep(rules(r).activation, integer(rep, "rep"), attrs, integer(size, "group_size"));
    }, "rules"_a.none(), "rep"_a.none(), "attributes"_a.none(), "group_size"_a.none());
    p.def("may_activate", [](H rep, H die) {
        return may_activate(integer(rep, "leader_activation_rep"), integer(die, "side_die"));
    }, "leader_activation_rep"_a.none(), "side_die"_a.none());

}

}  // namespace wargym::no_quarter
