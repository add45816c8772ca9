// Bindings of the REACT (flow_react.hpp), CHARGE and MELEE (flow_melee.hpp) and CHARGES
// (flow_charges.hpp) handlers in _core.no_quarter.melee_flow: with_charge_numbers (a copy of
// a FireTables, forces/data.hpp RulesTables, with the charge's numbers set), unit (one engine
// unit at a react/charge/melee/charges frame on top: a step, or an act with an action) and
// options (the handler's legal actions). Bad input raises NativeTypeError/NativeArgumentError
// naming the argument; NotPorted (flow_move.walk, a luck choice under a guard) raises
// NotImplementedError (flow_bindings' translator) and leaves the battle unchanged.
#include "../../dice_bindings.hpp"
#include "flow_melee_bindings.hpp"

#include <optional>
#include <string>
#include <vector>

#include "../../errors.hpp"
#include "actions_bindings.hpp"
#include "flow_charges.hpp"
#include "flow_melee.hpp"
#include "luck.hpp"
#include "flow_react.hpp"
#include "state_io.hpp"

namespace nb = nanobind;
using namespace nanobind::literals;

namespace {

namespace nq = wargym::no_quarter;
using state_io::integer;
using state_io::real;
using wargym::wrong_type;

nq::Battle& battle_arg(nb::handle h) {
    nq::Battle* b = nullptr;
    if (!nb::try_cast(h, b, false) || b == nullptr) wrong_type("battle", "a native Battle", h);
    return *b;
}

const nq::RulesTables& tables_arg(nb::handle h) {
    const nq::RulesTables* t = nullptr;
    if (!nb::try_cast(h, t, false) || t == nullptr) wrong_type("tables", "a FireTables", h);
    return *t;
}

wargym::Dice& dice_arg(nb::handle h) { return wargym::native_dice_arg(h); }

// The handlers of this file's frame kinds.
const nq::Procedures& procedures() {
    static const nq::Procedures p = [] {
        nq::Procedures out;
        nq::register_react(out);
        nq::register_melee(out);
        nq::register_luck(out);  // the pause a choice inside a roll pushes
        return out;
    }();
    return p;
}

// The top frame, which must be of one of this file's kinds.
nq::FrameRef top_arg(const nq::Battle& b) {
    if (!b.frames.empty()) {
        const nq::FrameKind k = b.frames.top().kind();
        if (k == nq::FrameKind::react || k == nq::FrameKind::charge || k == nq::FrameKind::melee ||
            k == nq::FrameKind::charges) {
            return b.frames.top_ref();
        }
    }
    throw wargym::ArgumentError("battle", "battle: the top frame is not a react, charge, melee or charges frame");
}

const nq::Handler& handler_of(const nq::Battle& b, nq::FrameRef top) {
    return procedures().handlers[static_cast<std::size_t>(b.frames[top.index].kind())];
}

}  // namespace

namespace wargym::no_quarter {

void bind_melee_flow(nb::module_& g) {
    nb::module_ m = g.def_submodule(
        "melee_flow", "The REACT, CHARGE, MELEE and CHARGES handlers (flow_react.hpp, flow_melee.hpp, flow_charges.hpp).");
    m.def("with_charge_numbers",
          [](nb::handle tables, nb::handle stage, nb::handle most, nb::handle face) {
              RulesTables t = tables_arg(tables);
              const double gap = real(stage, "stage_distance_inches");
              if (!(gap >= 0.0)) {
                  throw wargym::ArgumentError("stage_distance_inches", "stage_distance_inches: expected a number >= 0");
              }
              t.charge_stage_distance = gap;
              t.max_attackers_per_target = integer(most, "max_attackers_per_target", 0, 1'000'000);
              t.success_face = static_cast<std::int32_t>(integer(face, "success_face", 0, 6));
              return t;
          },
          "tables"_a.none(), "stage_distance_inches"_a.none(), "max_attackers_per_target"_a.none(),
          "success_face"_a.none(),
          "A copy of tables with rules.charge.stage_distance_inches, "
          "rules.multiple_melee.max_attackers_per_target and dice.successes' highest face set.");
    m.def("unit",
          [](nb::handle battle, nb::handle tables, nb::handle action, nb::handle dice) {
              Battle& b = battle_arg(battle);
              const RulesTables& t = tables_arg(tables);
              Dice& d = dice_arg(dice);
              const FrameRef top = top_arg(b);
              std::optional<Action> act;
              if (!action.is_none()) act = action_from_dict_py(action, "action");
              const Handler& h = handler_of(b, top);
              if (act && !h.act) throw wargym::ArgumentError("action", "action: a charge frame takes no action");
              Battle work = b.clone();
              EventList sink;
              Ctx ctx(work, d);
              ctx.use_rules(t);
              ctx.procedures = &procedures();
              ctx.sink = &sink;
              // game._act: the unit through its registered slot under luck.run_unit's guard
              wargym::no_quarter::act(ctx, top, act ? &*act : nullptr);
              b = std::move(work);  // a unit that raised leaves the battle unchanged
              nb::list out;
              for (const auto& e : sink.events) out.append(nb::cast(e));
              return out;
          },
          "battle"_a.none(), "tables"_a.none(), "action"_a.none(), "dice"_a.none(),
          "One engine unit at the react/charge/melee/charges frame on top: its step (action None) or its "
          "act(action_to_dict); returns the events.");
    m.def("options",
          [](nb::handle battle, nb::handle tables) {
              const Battle& b = battle_arg(battle);
              const RulesTables& t = tables_arg(tables);
              const FrameRef top = top_arg(b);
              const Handler& h = handler_of(b, top);
              if (!h.options) return actions_to_py({});
              return actions_to_py(h.options(b, t, top));
          },
          "battle"_a.none(), "tables"_a.none(),
          "The legal options of the react/melee/charges frame on top (reference actions; a charge frame has none).");
}

}  // namespace wargym::no_quarter
