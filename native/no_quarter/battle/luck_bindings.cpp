// Bindings of luck.hpp's pause reading in _core.no_quarter.luck: pause_options, lucky_advice,
// marksman_advice and choice_in_roll on a native Battle whose top frame is a pause (the
// guard itself, run_unit/resume, runs inside act()/run() and needs no binding of its own).
// Bad input: a battle that is not a native Battle, or one without a pause on top, raises
// NativeTypeError / NativeArgumentError naming "battle"; bad tables, kill_fraction or options
// name their argument.
#include <nanobind/nanobind.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <cmath>
#include <optional>
#include <string>

#include "../../errors.hpp"
#include "../../pyvalues.hpp"
#include "../forces/data.hpp"
#include "actions_bindings.hpp"
#include "luck.hpp"

namespace nb = nanobind;
using namespace nanobind::literals;

namespace wargym::no_quarter {

namespace {

const Battle& paused_battle(nb::handle h) {
    Battle* b = nullptr;
    if (!nb::try_cast(h, b, false) || b == nullptr) wargym::wrong_type("battle", "a native Battle", h);
    if (b->frames.empty() || b->frames.top().kind() != FrameKind::pause) {
        throw ArgumentError("battle", "battle: the top frame is not a pause");
    }
    return *b;
}

const CombatTables& combat_arg(nb::handle h) {
    CombatTables* t = nullptr;
    if (!nb::try_cast(h, t, false) || t == nullptr) wargym::wrong_type("tables", "a CombatTables", h);
    return *t;
}

double fraction_arg(nb::handle h) {
    if (!PyFloat_Check(h.ptr())) wargym::wrong_type("kill_fraction", "a float", h);
    const double f = PyFloat_AS_DOUBLE(h.ptr());
    if (!std::isfinite(f)) throw ArgumentError("kill_fraction", "kill_fraction: must be finite");
    return f;
}

nb::str location_str(Location l) {
    const std::string_view v = kLocation[l];
    return nb::str(v.data(), v.size());
}

// A stand-in unit for testing the guard (tests/native/test_flow_luck_agreement.py has its twin):
// on an objective frame, mech 0 rolls a d6 it may re-roll with Lucky, picks between arm_l and
// chest as a Marksman (arm_l shielded) against mech 1, rolls 2d6, writes what stood into its
// armour (head: the d6, arm_l: the location's index, arm_r: the 2d6's sum) and pops the frame.
void probe_step(Ctx& ctx, FrameRef frame) {
    const Mech& shooter = *ctx.battle.mech(0);
    const Mech& target = *ctx.battle.mech(1);
    std::vector<int> a = ctx.dice.roll(1);
    a = offer_lucky(ctx, shooter, "to_hit", a, true, target.id);
    const std::array<Location, 1> shielded{Location::arm_l};
    const Location loc = marksman_pick(ctx, *ctx.battle.mech(0), *ctx.battle.mech(1), Location::arm_l,
                                       Location::chest, shielded);
    const std::vector<int> b = ctx.dice.roll(2);
    for (Mech& m : ctx.battle.mechs) {
        if (m.id != 0) continue;
        m.armor[0] = a.at(0);
        m.armor[1] = static_cast<std::int64_t>(loc);
        m.armor[2] = b.at(0) + b.at(1);
    }
    ctx.pop(frame);
}

}  // namespace

void bind_luck(nb::module_& g) {
    nb::module_ m = g.def_submodule("luck", "luck.py's pause reading (battle/luck.hpp)");
    m.def("pause_options", [](nb::handle battle) {
        const Battle& b = paused_battle(battle);
        nb::list out;
        for (const Action& a : pause_options(b, RulesTables{}, b.frames.top_ref())) out.append(action_to_dict_py(a));
        return out;
    }, "battle"_a.none(), "luck.pause_options(battle.frames[-1]): the options as action dicts.");
    m.def("lucky_advice", [](nb::handle battle, nb::handle kill_fraction) {
        const Battle& b = paused_battle(battle);
        if (b.frames.top().as<PauseFrame>().stage != PauseStage::lucky) {
            throw ArgumentError("battle", "battle: the pause is not a Lucky one");
        }
        return lucky_advice(b, fraction_arg(kill_fraction));
    }, "battle"_a.none(), "kill_fraction"_a.none(), "luck.lucky_advice(battle) with luck.KILL_FRACTION handed in.");
    m.def("marksman_advice", [](nb::handle battle, nb::handle tables) {
        const Battle& b = paused_battle(battle);
        if (b.frames.top().as<PauseFrame>().stage != PauseStage::marksman) {
            throw ArgumentError("battle", "battle: the pause is not a Marksman one");
        }
        return location_str(marksman_advice(b, combat_arg(tables)));
    }, "battle"_a.none(), "tables"_a.none(), "luck.marksman_advice(battle, rules) over the combat tables.");
    m.def("choice_in_roll", [](nb::handle battle, nb::handle tables, nb::handle kill_fraction, nb::handle options) {
        const Battle& b = paused_battle(battle);
        RulesTables rules;
        rules.combat = combat_arg(tables);
        rules.lucky_kill_fraction = fraction_arg(kill_fraction);
        const std::vector<Action> opts = actions_from_py(options, "options");
        return action_to_dict_py(choice_in_roll(b, rules, opts));
    }, "battle"_a.none(), "tables"_a.none(), "kill_fraction"_a.none(), "options"_a.none(),
       "luck.choice_in_roll(battle, options) as an action dict.");
    m.def("probe_act", [](nb::handle battle, nb::handle tables, std::vector<int> faces, nb::handle action) {
        Battle* b = nullptr;
        if (!nb::try_cast(battle, b, false) || b == nullptr) wargym::wrong_type("battle", "a native Battle", battle);
        if (b->frames.empty() || !b->mech(0) || !b->mech(1)) throw ArgumentError("battle", "battle: no frame or no mechs 0 and 1");
        RulesTables rules;
        rules.combat = combat_arg(tables);
        Procedures procedures;
        procedures.handlers[static_cast<std::size_t>(FrameKind::objective)].step = probe_step;
        register_luck(procedures);
        ScriptedDice dice(std::move(faces));
        Ctx ctx(*b, dice);
        ctx.rules = &rules;
        ctx.procedures = &procedures;
        std::optional<Action> a;
        if (!action.is_none()) a = action_from_py(action, "action");
        b->decision.reset();
        act(ctx, b->frames.top_ref(), a ? &*a : nullptr);
        return dice.used();
    }, "battle"_a.none(), "tables"_a.none(), "faces"_a, "action"_a.none(),
       "game._act of a test unit (probe_step) under luck's guard: the faces used. For tests.");
}

}  // namespace wargym::no_quarter
