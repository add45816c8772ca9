// Bindings of the MECH and INSIGHT handlers (flow_mech.hpp, flow_move.hpp): submodule
// _core.no_quarter.flow_mech with RulesTables (forces/data.hpp, built by native/no_quarter/flow_mech.py
// from the reference's loaders), run_unit (one engine unit of a mech or insight frame, as game._act
// runs it) and options (the top frame's legal actions, Handler.options).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "../../dice.hpp"
#include "../../errors.hpp"
#include "../../pyvalues.hpp"
#include "../forces/data.hpp"
#include "../sight_movement/perception_bindings.hpp"
#include "actions_bindings.hpp"
#include "flow.hpp"
#include "flow_mech.hpp"
#include "luck.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace wargym::no_quarter {

namespace {

Battle& battle_of(nb::handle h) {
    Battle* b = nullptr;
    if (!nb::try_cast(h, b, false) || b == nullptr) wrong_type("battle", "a native Battle", h);
    return *b;
}

const RulesTables& tables_of(nb::handle h) {
    RulesTables* t = nullptr;
    if (!nb::try_cast(h, t, false) || t == nullptr) wrong_type("tables", "a flow_mech.RulesTables", h);
    return *t;
}

template <class T>
const T& object_of(nb::handle h, const char* name, const char* what) {
    T* t = nullptr;
    if (!nb::try_cast(h, t, false) || t == nullptr) wrong_type(name, what, h);
    return *t;
}

std::int64_t int_of(nb::handle h, const char* name) {
    if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr())) wrong_type(name, "an int", h);
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow) throw ArgumentError(name, "out of range");
    return v;
}

double real_of(nb::handle h, const char* name) {
    if (PyFloat_Check(h.ptr())) return PyFloat_AS_DOUBLE(h.ptr());
    if (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) return static_cast<double>(int_of(h, name));
    wrong_type(name, "a number", h);
}

bool bool_of(nb::handle h, const char* name) {
    if (!PyBool_Check(h.ptr())) wrong_type(name, "a bool", h);
    return h.ptr() == Py_True;
}

std::vector<double> reals_of(nb::handle h, const char* name) {
    if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) wrong_type(name, "a list of numbers", h);
    std::vector<double> out;
    const std::string at(name);
    for (nb::handle item : h) out.push_back(real_of(item, (at + "[]").c_str()));
    return out;
}

std::vector<int> faces_of(nb::handle h) {
    if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) wrong_type("faces", "a list of d6 faces", h);
    std::vector<int> out;
    for (nb::handle item : h) {
        const std::int64_t f = int_of(item, "faces[]");
        if (f < 1 || f > 6) throw ArgumentError("faces", "a d6 face is 1-6, not " + std::to_string(f));
        out.push_back(static_cast<int>(f));
    }
    return out;
}

const Procedures& mech_procedures() {
    static const Procedures p = [] {
        Procedures q;
        register_mech(q);
        register_luck(q);  // the pause a choice inside a roll pushes
        return q;
    }();
    return p;
}

void top_is_mine(const Battle& battle) {
    if (battle.frames.empty()) throw ArgumentError("battle", "the frame stack is empty");
    const FrameKind k = battle.frames.top().kind();
    if (k != FrameKind::mech && k != FrameKind::insight) {
        throw ArgumentError("battle", std::string("the top frame is a ") + std::string(kFrameKind[k]) + " frame, not mech or insight");
    }
}

}  // namespace

void bind_flow_mech(nb::module_& g) {
    using H = nb::handle;
    nb::module_ m = g.def_submodule("flow_mech", "The MECH and INSIGHT handlers (flow_mech.py, flow_move.py).");
    // The tables' Python type is fire.FireTables (one binding of forces/data.hpp RulesTables):
    // RulesTables(...) builds one from its parts, with_mech_numbers sets this file's numbers.
    m.def("RulesTables",
             [](H combat, H groups, H sight, H cover, H move, H flamer_impact, H mech_down_radius,
                H mech_down_los, H duck_back_max, H aim_offset, H strip, H circle, H headings, H free_move, H step,
                H charge_range, H stage_distance, H max_attackers, H contact_slack, H success_face) {
                 RulesTables t;
                 t.combat = object_of<CombatTables>(combat, "combat", "a CombatTables");
                 const GroupRules& gr = object_of<GroupRules>(groups, "groups", "a GroupRules");
                 t.leaders = gr.leaders;
                 t.activation = gr.activation;
                 t.perception = gr.perception;
                 t.sight = object_of<SightTerrain>(sight, "sight", "a SightTerrain");
                 t.cover = object_of<CoverTerrain>(cover, "cover", "a CoverTerrain");
                 t.move = object_of<MoveTerrain>(move, "move", "a MoveTerrain");
                 t.flamer_impact = int_of(flamer_impact, "flamer_impact");
                 t.mech_down_radius_inches = real_of(mech_down_radius, "mech_down_radius_inches");
                 t.mech_down_requires_los = bool_of(mech_down_los, "mech_down_requires_los");
                 t.duck_back_max = real_of(duck_back_max, "duck_back_max");
                 t.aim_offset = real_of(aim_offset, "aim_offset");
                 t.flames = {real_of(strip, "flame_strip_width"), real_of(circle, "flame_circle_diameter")};
                 t.headings = reals_of(headings, "headings");
                 t.in_sight_free_move_inches = real_of(free_move, "in_sight_free_move_inches");
                 t.in_sight_step = real_of(step, "in_sight_step");
                 if (!(t.in_sight_step > 0.0)) throw ArgumentError("in_sight_step", "must be > 0");
                 t.in_sight_charge_range = real_of(charge_range, "in_sight_charge_range");
                 t.charge_stage_distance = real_of(stage_distance, "charge_stage_distance");
                 t.max_attackers_per_target = int_of(max_attackers, "max_attackers_per_target");
                 t.building_contact_slack = real_of(contact_slack, "building_contact_slack");
                 t.success_face = static_cast<std::int32_t>(int_of(success_face, "success_face"));
                 return t;
             },
             "combat"_a.none(), "groups"_a.none(), "sight"_a.none(), "cover"_a.none(), "move"_a.none(),
             "flamer_impact"_a.none(), "mech_down_radius_inches"_a.none(), "mech_down_requires_los"_a.none(),
             "duck_back_max"_a.none(), "aim_offset"_a.none(), "flame_strip_width"_a.none(),
             "flame_circle_diameter"_a.none(), "headings"_a.none(), "in_sight_free_move_inches"_a.none(),
             "in_sight_step"_a.none(), "in_sight_charge_range"_a.none(), "charge_stage_distance"_a.none(),
             "max_attackers_per_target"_a.none(), "building_contact_slack"_a.none(), "success_face"_a.none());
    m.def("with_mech_numbers",
          [](H tables, H headings, H free_move, H step, H charge_range, H contact_slack) {
              RulesTables t = tables_of(tables);
              t.headings = reals_of(headings, "headings");
              t.in_sight_free_move_inches = real_of(free_move, "in_sight_free_move_inches");
              t.in_sight_step = real_of(step, "in_sight_step");
              if (!(t.in_sight_step > 0.0)) throw ArgumentError("in_sight_step", "must be > 0");
              t.in_sight_charge_range = real_of(charge_range, "in_sight_charge_range");
              t.building_contact_slack = real_of(contact_slack, "building_contact_slack");
              return t;
          },
          "tables"_a.none(), "headings"_a.none(), "in_sight_free_move_inches"_a.none(), "in_sight_step"_a.none(),
          "in_sight_charge_range"_a.none(), "building_contact_slack"_a.none(),
          "A copy of tables with the mech and In Sight numbers set (facing.HEADINGS, ...).");
    m.def("run_unit", [](H battle, H tables, H faces, H action) {
        Battle& b = battle_of(battle);
        const RulesTables& t = tables_of(tables);
        ScriptedDice dice(faces_of(faces));
        const bool acting = !action.is_none();
        const Action a = acting ? action_from_dict_py(action, "action") : Action{};
        top_is_mine(b);
        EventList sink;
        Ctx ctx(b, dice);
        ctx.use_rules(t);
        ctx.procedures = &mech_procedures();
        ctx.sink = &sink;
        act(ctx, b.frames.top_ref(), acting ? &a : nullptr);
        nb::list events;
        for (const events::Event& e : sink.events) events.append(nb::cast(e));
        return nb::make_tuple(events, dice.used().size());
    }, "battle"_a.none(), "tables"_a.none(), "faces"_a.none(), "action"_a.none() = nb::none(),
       "One engine unit at the top frame (mech or insight): a step, or action (an action_to_dict dict). "
       "Returns (the native events, the faces consumed).");
    m.def("options", [](H battle, H tables) {
        const Battle& b = battle_of(battle);
        const RulesTables& t = tables_of(tables);
        top_is_mine(b);
        const FrameKind k = b.frames.top().kind();
        const Handler& h = mech_procedures().handlers[static_cast<std::size_t>(k)];
        nb::list out;
        for (const Action& a : h.options(b, t, b.frames.top_ref())) out.append(action_to_dict_py(a));
        return out;
    }, "battle"_a.none(), "tables"_a.none(), "The top frame's legal options (action_to_dict dicts).");
}

}  // namespace wargym::no_quarter
