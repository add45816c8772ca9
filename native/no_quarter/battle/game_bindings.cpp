// Bindings of the native game API (game.hpp, flow_turn.hpp) in _core.no_quarter.game:
// the rule tables (fire.FireTables, forces/data.hpp RulesTables), legal_actions, check_legal, play,
// advance, and act / eliminated (one engine unit, for the unit-by-unit tests). Actions are the
// reference's objects (actions_bindings.hpp); events come back as native events.Event objects
// (their to_dict() is the reference's) only when asked. Every call that changes the battle works
// on a clone and keeps it only on success: an error leaves the battle as it was. A procedure not
// ported raises wargym.native.errors.NativeNotPortedError, an illegal action
// wargym.rules.errors.IllegalActionError with the reference's message; bad arguments the
// NativeTypeError / NativeArgumentError of the other bindings. native/bindings.cpp calls bind_game().
#include "../../dice_bindings.hpp"
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cmath>
#include <exception>
#include <string>
#include <vector>

#include "../../dice.hpp"
#include "../../errors.hpp"
#include "../../pyvalues.hpp"
#include "../forces/data.hpp"
#include "../sight_movement/movement_bindings.hpp"
#include "../sight_movement/perception_bindings.hpp"
#include "actions_bindings.hpp"
#include "game.hpp"
#include "state_io.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace wargym::no_quarter {

namespace {

PyObject* g_not_ported = nullptr;  // wargym.native.errors.NativeNotPortedError
PyObject* g_illegal = nullptr;     // wargym.rules.errors.IllegalActionError

Battle& battle_arg(nb::handle h) {
    Battle* b = nullptr;
    if (!nb::try_cast(h, b, false) || b == nullptr) wrong_type("battle", "a native Battle", h);
    return *b;
}

const RulesTables& tables_arg(nb::handle h) {
    RulesTables* t = nullptr;
    if (!nb::try_cast(h, t, false) || t == nullptr) wrong_type("tables", "a native rules table (game_tables(battle))", h);
    return *t;
}

// A Python dice object (rules.dice.Dice: roll(n) -> faces) as the core's Dice.
class PyDice final : public Dice {
public:
    explicit PyDice(nb::handle obj) : obj_(obj) {}
    std::vector<int> roll(std::int64_t n) override {
        nb::object faces = obj_.attr("roll")(n);
        std::vector<int> out;
        for (nb::handle f : faces) {
            out.push_back(static_cast<int>(state_io::integer(f, "dice.roll()", 1, 6)));
        }
        if (static_cast<std::int64_t>(out.size()) != std::max<std::int64_t>(n, 0)) {
            throw ArgumentError("dice", "roll(" + std::to_string(n) + ") gave " + std::to_string(out.size()) + " faces");
        }
        return out;
    }

private:
    nb::handle obj_;
};

// The dice argument: the core's RandomDice / ScriptedDice, or any object with roll(n).
struct DiceArg {
    Dice* dice = nullptr;
    std::unique_ptr<PyDice> wrapped;
    explicit DiceArg(nb::handle h) : dice(native_dice_or_null(h)) {
        if (dice != nullptr) return;
        if (h.is_none() || !PyObject_HasAttrString(h.ptr(), "roll")) {
            wrong_type("dice", "dice (native RandomDice/ScriptedDice/NumpyDice or an object with roll(n))", h);
        }
        wrapped = std::make_unique<PyDice>(h);
        dice = wrapped.get();
    }
};

// One call into the engine on a clone of the battle, kept only if the call succeeds.
template <class F>
nb::object on_clone(nb::handle battle, nb::handle tables, nb::handle dice, nb::handle events, F&& body) {
    Battle& b = battle_arg(battle);
    const RulesTables& t = tables_arg(tables);
    const bool want = state_io::flag(events, "events");
    DiceArg d(dice);
    Battle work = b.clone();
    EventList sink;
    Ctx ctx(work, *d.dice);
    ctx.use_rules(t);
    ctx.procedures = &game_procedures();
    if (want) ctx.sink = &sink;
    nb::object result = body(ctx);
    b = std::move(work);
    if (!want) return result;
    nb::list out;
    for (events::Event& e : sink.events) out.append(nb::cast(std::move(e)));
    return result.is_none() ? nb::object(out) : nb::object(nb::make_tuple(result, out));
}

// NotPorted and IllegalAction as the typed Python errors.
template <class F>
auto translated(F&& f) {
    try {
        return f();
    } catch (const NotPorted& e) {
        PyErr_SetString(g_not_ported, e.what());
        throw nb::python_error();
    } catch (const IllegalAction& e) {
        PyErr_SetString(g_illegal, e.what());
        throw nb::python_error();
    }
}

}  // namespace

void bind_game(nb::module_& parent) {
    nb::module_ m = parent.def_submodule("game", "The native game API (game.hpp): legal actions, play, advance.");
    g_not_ported = nb::object(nb::module_::import_("wargym.native.errors").attr("NativeNotPortedError")).release().ptr();
    g_illegal = nb::object(nb::module_::import_("wargym.rules.errors").attr("IllegalActionError")).release().ptr();
    // The tables are _core.no_quarter.fire.FireTables (forces/data.hpp RulesTables, one binding).
    m.def("legal_actions", [](nb::handle battle, nb::handle tables) {
        return translated([&] {
            Battle& b = battle_arg(battle);
            ScriptedDice none{std::vector<int>{}};
            Ctx ctx(b, none);
            ctx.use_rules(tables_arg(tables));
            ctx.procedures = &game_procedures();
            return actions_to_py(legal_actions(ctx));
        });
    }, "battle"_a.none(), "tables"_a.none(), "game.legal_actions: the reference's Action objects.");
    m.def("distinct", [](nb::handle options, nb::handle near) {
        const std::vector<Action> all = actions_from_py(options, "options");
        const double n = state_io::real(near, "near");
        if (!(n > 0.0) || !std::isfinite(n)) throw ArgumentError("near", "near: expected a positive finite number");
        return actions_to_py(distinct(all, n));
    }, "options"_a.none(), "near"_a.none(), "game._distinct with NEAR = ``near``: the options kept, in order.");
    m.def("check_legal", [](nb::handle battle, nb::handle tables, nb::handle action) -> nb::object {
        return translated([&]() -> nb::object {
            Battle& b = battle_arg(battle);
            const RulesTables& t = tables_arg(tables);
            const Action a = action_from_py(action, "action");
            ScriptedDice none{std::vector<int>{}};
            Ctx ctx(b, none);
            ctx.use_rules(t);
            ctx.procedures = &game_procedures();
            const auto problem = illegal_because(ctx, a);
            return problem ? nb::object(nb::str(problem->c_str())) : nb::none();
        });
    }, "battle"_a.none(), "tables"_a.none(), "action"_a.none(),
       "game.check_legal's IllegalActionError message, or None when the action is legal.");
    m.def("play", [](nb::handle battle, nb::handle tables, nb::handle action, nb::handle dice, nb::handle events) {
        return translated([&] {
            const Action a = action_from_py(action, "action");
            return on_clone(battle, tables, dice, events, [&](Ctx& ctx) {
                play(ctx, a);
                return nb::none();
            });
        });
    }, "battle"_a.none(), "tables"_a.none(), "action"_a.none(), "dice"_a.none(), "events"_a.none() = false,
       "game.play; the events (native) when asked, else None.");
    m.def("advance", [](nb::handle battle, nb::handle tables, nb::handle dice, nb::handle events) {
        return translated([&] {
            return on_clone(battle, tables, dice, events, [&](Ctx& ctx) {
                advance(ctx);
                return nb::none();
            });
        });
    }, "battle"_a.none(), "tables"_a.none(), "dice"_a.none(), "events"_a.none() = false,
       "game.advance; the events (native) when asked, else None.");
    m.def("act", [](nb::handle battle, nb::handle tables, nb::handle action, nb::handle dice, nb::handle events) {
        return translated([&] {
            std::optional<Action> a;
            if (!action.is_none()) a = action_from_py(action, "action");
            return on_clone(battle, tables, dice, events, [&](Ctx& ctx) {
                if (ctx.battle.frames.empty()) throw ArgumentError("battle", "no frame to act on");
                if (a) ctx.battle.decision.reset();
                act(ctx, ctx.battle.frames.top_ref(), a ? &*a : nullptr);
                return nb::none();
            });
        });
    }, "battle"_a.none(), "tables"_a.none(), "action"_a.none(), "dice"_a.none(), "events"_a.none() = false,
       "game._act on the top frame: one engine unit (action None: a step), no legality check.");
    m.def("eliminated", [](nb::handle battle, nb::handle tables, nb::handle dice, nb::handle events) {
        return translated([&] {
            return on_clone(battle, tables, dice, events, [&](Ctx& ctx) { return nb::object(nb::bool_(eliminated(ctx))); });
        });
    }, "battle"_a.none(), "tables"_a.none(), "dice"_a.none(), "events"_a.none() = false,
       "game._eliminated: whether a side has no mech in play (then BattleEnded); with events: (bool, events).");
}

}  // namespace wargym::no_quarter
