// Bindings of the typed frames and the flow skeleton (frames.hpp, flow.hpp) in
// _core.no_quarter.flow: the frame schemas and vocabularies, the reference's frame
// constructors, push/pop/ask/nearest_frame/queue_tests/caused_by on a native Battle, luck's
// watching(), and advance() (game._run without the procedures that are not ported: it raises
// NotImplementedError naming the first one it needs, leaving the battle unchanged).
// native/bindings.cpp calls bind_flow(); argument errors are the state bindings' (a bad value
// raises NativeArgumentError/NativeTypeError naming the argument; a bad frame NativeStateError).
#include <nanobind/nanobind.h>

#include <exception>
#include <string>

#include "flow.hpp"
#include "flow_bindings.hpp"
#include "frames_io.hpp"
#include "state_io.hpp"

namespace nb = nanobind;
using namespace nanobind::literals;

namespace {

namespace nq = wargym::no_quarter;
using state_io::integer;
using wargym::wrong_type;

constexpr std::int64_t kFrameJsonDepth = 64;  // as StateLimits' default max_json_depth

nq::Battle& battle_arg(nb::handle h) {
    nq::Battle* b = nullptr;
    if (!nb::try_cast(h, b, false) || b == nullptr) wrong_type("battle", "a native Battle", h);
    return *b;
}

template <class V>
std::string names_list(const V& vocab) {
    std::string out;
    for (std::string_view v : vocab.values) out += (out.empty() ? "" : ", ") + std::string(v);
    return out;
}

template <class V>
auto vocab_arg(nb::handle h, const char* name, const V& vocab) {
    if (PyUnicode_Check(h.ptr())) {
        Py_ssize_t n = 0;
        const char* s = PyUnicode_AsUTF8AndSize(h.ptr(), &n);
        if (s) {
            if (auto e = vocab.find(std::string_view(s, static_cast<std::size_t>(n)))) return *e;
        }
        PyErr_Clear();
        throw wargym::ArgumentError(name, wargym::short_repr(h) + " is not a " + vocab.name + " (" + names_list(vocab) + ")");
    }
    wrong_type(name, "a text", h);
}

std::int64_t id_arg(nb::handle h, const char* name) {
    return integer(h, name, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
}

nq::Ids ids_arg(nb::handle h, const char* name) {
    if (!PyList_Check(h.ptr())) wrong_type(name, "a list of integers", h);
    nq::Ids out;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(h.ptr()); ++i) {
        out.push_back(id_arg(PyList_GET_ITEM(h.ptr(), i), (std::string(name) + "[" + std::to_string(i) + "]").c_str()));
    }
    return out;
}

nq::FrameRef ref_arg(nb::handle h) {
    if (!PyTuple_Check(h.ptr()) || PyTuple_GET_SIZE(h.ptr()) != 2) wrong_type("frame", "an (index, serial) tuple", h);
    const auto most = static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max());
    return nq::FrameRef{static_cast<std::uint32_t>(integer(PyTuple_GET_ITEM(h.ptr(), 0), "frame[0]", 0, most)),
                        static_cast<std::uint32_t>(integer(PyTuple_GET_ITEM(h.ptr(), 1), "frame[1]", 0, most))};
}

nb::object ref_tuple(nq::FrameRef r) { return nb::make_tuple(r.index, r.serial); }
nb::object frame_dict(const nq::Frame& f) { return nb::steal(frames_io::write_frame(f)); }

template <class V>
nb::tuple names_of(const V& vocab) {
    nb::list out;
    for (std::string_view v : vocab.values) out.append(nb::str(v.data(), v.size()));
    return nb::tuple(out);
}

nb::tuple key_names(nq::KeySet set) {
    nb::list out;
    for (std::size_t i = 0; i < nq::kFrameKeys; ++i) {
        if (set & (nq::KeySet{1} << i)) out.append(nb::str(nq::kFrameKeyNames[i]));
    }
    return nb::tuple(out);
}

nb::dict schema() {
    nb::dict d;
    for (std::size_t i = 0; i < nq::kFrameKinds; ++i) {
        const auto& s = nq::kFrameSchemas[i];
        d[nb::str(std::string(nq::kFrameKind.values[i]).c_str())] = nb::make_tuple(key_names(s.required), key_names(s.optional));
    }
    d["entry"] = nb::make_tuple(key_names(nq::kEntrySchema.required), key_names(nq::kEntrySchema.optional));
    d["waiting"] = nb::make_tuple(key_names(nq::kWaitingSchema.required), key_names(nq::kWaitingSchema.optional));
    return d;
}

nb::dict values() {
    nb::dict d;
    auto add = [&](const char* key, const auto& vocab) { d[key] = names_of(vocab); };
    add("kind", nq::kFrameKind); add("turn.stage", nq::kTurnStage); add("phase.stage", nq::kPhaseStage);
    add("mech.stage", nq::kMechStage); add("insight.stage", nq::kInsightStage); add("fire.mode", nq::kFireMode);
    add("charge.stage", nq::kChargeStage); add("melee.stage", nq::kMeleeStage); add("pause.unit", nq::kPauseUnit);
    add("pause.stage", nq::kPauseStage); add("pause.what", nq::kLuckyWhat); add("ReactionTest", nq::kReactionTest);
    add("MeleeAttack", nq::kMeleeAttack); add("ChargeOutcome", nq::kChargeOutcome);
    return d;
}

// A context over ``b`` with no procedures and dice that have no faces (nothing here rolls).
struct Bare {
    wargym::ScriptedDice dice{std::vector<int>{}};
    nq::Ctx ctx;
    explicit Bare(nq::Battle& b) : ctx(b, dice) {}
};

}  // namespace

namespace wargym::no_quarter {

void bind_flow(nb::module_& parent) {
    nb::module_ m = parent.def_submodule("flow", "The typed frames and the flow skeleton (frames.hpp, flow.hpp).");
    nb::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const NotPorted& e) {
            PyErr_SetString(PyExc_NotImplementedError, e.what());
        }
    });
    m.attr("MAX_STEPS_PER_CALL") = kMaxStepsPerCall;
    m.def("schema", &schema, "Per frame kind (and 'entry', 'waiting'): (required keys, optional keys).");
    m.def("values", &values, "The stage, mode and enum vocabularies of the frames.");
    m.def("turn_frame", []() { return frame_dict(turn_frame()); });
    m.def("phase_frame", [](nb::handle side) { return frame_dict(phase_frame(vocab_arg(side, "side", kSide))); },
          "side"_a.none());
    m.def("group_frame", [](nb::handle side, nb::handle members) {
        return frame_dict(group_frame(vocab_arg(side, "side", kSide), ids_arg(members, "members")));
    }, "side"_a.none(), "members"_a.none());
    m.def("mech_frame", [](nb::handle mech) { return frame_dict(mech_frame(id_arg(mech, "mech"))); }, "mech"_a.none());
    m.def("insight_frame", [](nb::handle mover, nb::handle side, nb::handle groups) {
        return frame_dict(insight_frame(id_arg(mover, "mover_id"), vocab_arg(side, "side", kSide),
                                        ids_arg(groups, "enemy_groups")));
    }, "mover_id"_a.none(), "side"_a.none(), "enemy_groups"_a.none());
    m.def("fire_frame", [](nb::handle shooter, nb::handle mode, nb::handle targets, nb::handle cause, nb::handle rush) {
        std::optional<Ids> t;
        if (!targets.is_none()) t = ids_arg(targets, "targets");
        std::optional<std::int64_t> c;
        if (!cause.is_none()) c = id_arg(cause, "cause");
        return frame_dict(fire_frame(id_arg(shooter, "shooter"), vocab_arg(mode, "mode", kFireMode), t, c,
                                     state_io::flag(rush, "rush")));
    }, "shooter"_a.none(), "mode"_a.none(), "targets"_a.none() = nb::none(), "cause"_a.none() = nb::none(),
       "rush"_a.none() = false);
    m.def("charge_frame", [](nb::handle charger, nb::handle target, nb::handle allowance, nb::handle start) {
        std::optional<double> a;
        if (!allowance.is_none()) a = state_io::real(allowance, "allowance");
        std::optional<std::array<double, 2>> s;
        if (!start.is_none()) {
            if (!PyTuple_Check(start.ptr()) || PyTuple_GET_SIZE(start.ptr()) != 2) wrong_type("start", "an (x, y) tuple", start);
            s = std::array<double, 2>{state_io::real(PyTuple_GET_ITEM(start.ptr(), 0), "start[0]"),
                                      state_io::real(PyTuple_GET_ITEM(start.ptr(), 1), "start[1]")};
        }
        return frame_dict(charge_frame(id_arg(charger, "charger"), id_arg(target, "target"), a, s));
    }, "charger"_a.none(), "target"_a.none(), "allowance"_a.none() = nb::none(), "start"_a.none() = nb::none());
    m.def("melee_frame", [](nb::handle attacker, nb::handle defender, nb::handle jump) {
        return frame_dict(melee_frame(id_arg(attacker, "attacker"), id_arg(defender, "defender"),
                                      state_io::flag(jump, "jump_attack")));
    }, "attacker"_a.none(), "defender"_a.none(), "jump_attack"_a.none() = false);
    m.def("push", [](nb::handle battle, nb::handle frame) {
        Battle& b = battle_arg(battle);
        Frame f = frames_io::read_frame(frame.ptr(), "frame", kFrameJsonDepth);
        return ref_tuple(b.frames.push(std::move(f)));
    }, "battle"_a.none(), "frame"_a.none(), "Ctx.push: the frame on top; returns its (index, serial).");
    m.def("top", [](nb::handle battle) -> nb::object {
        const Battle& b = battle_arg(battle);
        return b.frames.empty() ? nb::none() : ref_tuple(b.frames.top_ref());
    }, "battle"_a.none(), "The top frame's (index, serial), or None.");
    m.def("pop", [](nb::handle battle, nb::handle frame) {
        Battle& b = battle_arg(battle);
        const FrameRef r = ref_arg(frame);
        Bare bare(b);
        return frame_dict(bare.ctx.pop(r));
    }, "battle"_a.none(), "frame"_a.none(), "Ctx.pop (RuntimeError if ``frame`` is not on top; it is popped anyway).");
    m.def("nearest_frame", [](nb::handle battle, nb::handle kind) -> nb::object {
        const Battle& b = battle_arg(battle);
        const auto found = nearest_frame(b, vocab_arg(kind, "kind", kFrameKind));
        return found ? nb::object(nb::int_(*found)) : nb::none();
    }, "battle"_a.none(), "kind"_a.none(), "flow.nearest_frame: the topmost frame of ``kind``'s index, or None.");
    m.def("ask", [](nb::handle battle, nb::handle side, nb::handle kind, nb::handle mech) {
        Battle& b = battle_arg(battle);
        std::optional<std::int64_t> id;
        if (!mech.is_none()) id = id_arg(mech, "mech");
        Bare bare(b);
        bare.ctx.ask(vocab_arg(side, "side", kSide), vocab_arg(kind, "kind", kDecisionKind), id);
    }, "battle"_a.none(), "side"_a.none(), "kind"_a.none(), "mech"_a.none() = nb::none(), "Ctx.ask.");
    m.def("queue_tests", [](nb::handle battle, nb::handle entries) {
        Battle& b = battle_arg(battle);
        std::vector<ReactEntry> e = frames_io::read_entries(entries.ptr(), "entries");
        Bare bare(b);
        queue_tests(bare.ctx, std::move(e));
    }, "battle"_a.none(), "entries"_a.none(), "consequences.queue_tests (ctx.collecting None).");
    m.def("caused_by", [](nb::handle entries, nb::handle enemies) {
        std::vector<ReactEntry> e = frames_io::read_entries(entries.ptr(), "entries");
        caused_by(e, ids_arg(enemies, "enemies"));
        return nb::steal(frames_io::write_entries(e));
    }, "entries"_a.none(), "enemies"_a.none(), "consequences.caused_by, on a copy of ``entries``.");
    m.def("watching", [](nb::handle battle) { return watching(battle_arg(battle)); }, "battle"_a.none(),
          "luck.watching.");
    m.def("frame_shared", [](nb::handle battle, nb::handle index) {
        const Battle& b = battle_arg(battle);
        const auto i = integer(index, "index", 0, static_cast<std::int64_t>(b.frames.size()) - 1);
        return b.frames.shares(static_cast<std::size_t>(i));
    }, "battle"_a.none(), "index"_a.none(), "Whether a clone shares this frame (copy on write).");
    m.def("advance", [](nb::handle battle) {
        Battle& b = battle_arg(battle);
        Battle work = b.clone();
        Bare bare(work);
        run(bare.ctx);
        b = std::move(work);  // only a run that reached a decision changes the battle
        return bare.ctx.emitted;
    }, "battle"_a.none(),
       "game._run with no procedure ported: returns at once where the reference would (a decision, the end); "
       "NotImplementedError names the first procedure it needs, and the battle is left unchanged.");
}

}  // namespace wargym::no_quarter
