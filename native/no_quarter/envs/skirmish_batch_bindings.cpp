// Bindings of the batched native skirmish step (skirmish_batch.hpp) in
// _core.no_quarter.skirmish_batch: the SkirmishBatch core the glue in envs/no_quarter/batch.py
// (NativeSkirmishBatch) drives. step() and resume() release the GIL: nothing in them touches a
// Python object. The tables objects (FireTables) and the caller's arrays are kept alive here;
// the core holds raw pointers to them. native/bindings.cpp calls bind_skirmish_batch().
#include <Python.h>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "../../dice.hpp"
#include "../../errors.hpp"
#include "../../numpy_random_bindings.hpp"
#include "../../pyvalues.hpp"
#include "../battle/flow.hpp"
#include "../battle/game.hpp"
#include "../battle/state_io.hpp"
#include "../battle/flow_fire_bindings.hpp"
#include "codec_bindings.hpp"
#include "skirmish_batch.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace wargym::no_quarter {

namespace {

PyObject* g_batch_not_ported = nullptr;  // wargym.native.errors.NativeNotPortedError
PyObject* g_batch_illegal = nullptr;     // wargym.rules.errors.IllegalActionError

// The core and what keeps its pointers valid: the rule tables of each env (now and for the
// prepared set-up) and the caller's arrays.
struct PyBatch {
    SkirmishBatchCore core;
    std::vector<nb::object> tables, next_tables;
    std::vector<nb::object> arrays;
};

const Battle& batch_battle_arg(nb::handle h, const char* name) {
    const Battle* b = nullptr;
    if (!nb::try_cast(h, b, false) || b == nullptr) wrong_type(name, "a native Battle", h);
    return *b;
}

const RulesTables* batch_tables_arg(nb::handle h) {
    return &rules_tables_arg(h, "tables");
}

const EncoderConfig& batch_encoder_arg(nb::handle h) {
    const ObservationEncoder* e = nullptr;
    if (!nb::try_cast(h, e, false) || e == nullptr) wrong_type("encoder", "a native ObservationEncoder", h);
    return e->config();
}

Pcg64State batch_dice_arg(nb::handle h) {
    NumpyDice* d = nullptr;
    if (!nb::try_cast(h, d, false) || d == nullptr) wrong_type("dice", "a native NumpyDice", h);
    return d->state();
}

BatchOpponent batch_opponent_arg(nb::handle h) {
    const char* text = PyUnicode_Check(h.ptr()) ? PyUnicode_AsUTF8(h.ptr()) : nullptr;
    if (text == nullptr) {
        PyErr_Clear();
        wrong_type("opponent", "one of 'rules', 'scripted', 'random'", h);
    }
    const std::string s(text);
    if (s == "rules") return BatchOpponent::rules;
    if (s == "scripted") return BatchOpponent::scripted;
    if (s == "random") return BatchOpponent::random;
    throw ArgumentError("opponent", "opponent: expected 'rules', 'scripted' or 'random', got " + short_repr(h));
}

std::int64_t batch_index(const PyBatch& b, nb::handle h, const char* name = "i") {
    return state_io::integer(h, name, 0, b.core.size() - 1);
}

// One of the caller's arrays: C-contiguous, writable, of this dtype and shape.
template <class T>
T* batch_array(PyBatch& b, nb::handle h, const char* name, std::int64_t rows, std::int64_t cols) {
    nb::ndarray<T, nb::c_contig, nb::device::cpu> a;
    if (!nb::try_cast(h, a, false)) wrong_type(name, "a writable C-contiguous numpy array of the batch's dtype", h);
    const bool two = cols >= 0;
    const bool ok = a.ndim() == (two ? 2U : 1U) && static_cast<std::int64_t>(a.shape(0)) == rows &&
                    (!two || static_cast<std::int64_t>(a.shape(1)) == cols);
    if (!ok) throw ArgumentError(name, std::string(name) + ": expected shape (" + std::to_string(rows) + (two ? ", " + std::to_string(cols) : std::string(",")) + ")");
    b.arrays.push_back(nb::borrow(h));
    return a.data();
}

BatchEpisodeStart batch_episode(nb::handle battle, nb::handle tables, nb::handle dice, nb::handle opponent) {
    BatchEpisodeStart e;
    e.battle = batch_battle_arg(battle, "battle").clone();
    e.tables = batch_tables_arg(tables);
    e.dice = batch_dice_arg(dice);
    e.opponent = pcg64_state_from_dict(opponent, "opponent");
    if (e.battle.decision || e.battle.over) throw ArgumentError("battle", "battle: expected a set-up before advance (no decision yet)");
    return e;
}

// Refuses a second call while one runs in another thread (the GIL is released in step).
class BatchCall {
public:
    explicit BatchCall(PyBatch& b) : b_(b) {
        bool expected = false;
        if (!b_.core.busy.compare_exchange_strong(expected, true)) {
            throw ArgumentError("batch", "batch: another thread is stepping this batch");
        }
    }
    ~BatchCall() { b_.core.busy = false; }
    BatchCall(const BatchCall&) = delete;
    BatchCall& operator=(const BatchCall&) = delete;

private:
    PyBatch& b_;
};

template <class F>
auto batch_translated(F&& f) {
    try {
        return f();
    } catch (const NotPorted& e) {
        PyErr_SetString(g_batch_not_ported, e.what());
        throw nb::python_error();
    } catch (const IllegalAction& e) {
        PyErr_SetString(g_batch_illegal, e.what());
        throw nb::python_error();
    }
}

// After a call: the tables of the envs that began their prepared set-up are now theirs.
void batch_adopt(PyBatch& b) {
    for (std::int64_t i : b.core.began()) {
        b.tables[static_cast<std::size_t>(i)] = std::move(b.next_tables[static_cast<std::size_t>(i)]);
        b.next_tables[static_cast<std::size_t>(i)] = nb::none();
    }
}

std::vector<std::int64_t> batch_int64s(nb::handle h, const char* name, std::size_t expect) {
    nb::ndarray<const std::int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu> a;
    if (!nb::try_cast(h, a, false)) wrong_type(name, "a C-contiguous int64 numpy array", h);
    if (expect != std::numeric_limits<std::size_t>::max() && a.shape(0) != expect) {
        throw ArgumentError(name, std::string(name) + ": expected " + std::to_string(expect) + " values");
    }
    return {a.data(), a.data() + a.shape(0)};
}

}  // namespace

void bind_skirmish_batch(nb::module_& g) {
    nb::module_ m = g.def_submodule("skirmish_batch", "The batched native skirmish step (envs/skirmish_batch.hpp).");
    g_batch_not_ported = nb::object(nb::module_::import_("wargym.native.errors").attr("NativeNotPortedError")).release().ptr();
    g_batch_illegal = nb::object(nb::module_::import_("wargym.rules.errors").attr("IllegalActionError")).release().ptr();
    m.attr("READY") = kBatchReady;
    m.attr("NEEDS_TABLES") = kBatchNeedsTables;
    m.attr("NEEDS_REDRAW") = kBatchNeedsRedraw;
    nb::class_<PyBatch>(m, "SkirmishBatch", "num_envs native skirmishes stepped by one call (skirmish_batch.hpp).")
        .def("__init__",
             [](PyBatch* self, nb::handle num_envs, nb::handle codec, nb::handle battle, nb::handle encoder,
                nb::handle opponent, nb::handle max_episode_steps) {
                 const std::int64_t n = state_io::integer(num_envs, "num_envs", 1, 1 << 20);
                 const std::int64_t steps = state_io::integer(max_episode_steps, "max_episode_steps", 1, std::numeric_limits<std::int64_t>::max());
                 const Battle& b = batch_battle_arg(battle, "battle");
                 const ActionCodec& c = codec_for_battle(codec, b, "codec");
                 const EncoderConfig& config = batch_encoder_arg(encoder);
                 const BatchOpponent who = batch_opponent_arg(opponent);
                 new (self) PyBatch{SkirmishBatchCore(n, c, config, who, steps), {}, {}, {}};
                 self->tables.assign(static_cast<std::size_t>(n), nb::none());
                 self->next_tables.assign(static_cast<std::size_t>(n), nb::none());
             },
             "num_envs"_a.none(), "codec"_a.none(), "battle"_a.none(), "encoder"_a.none(), "opponent"_a.none(),
             "max_episode_steps"_a.none(),
             "``codec``: NativeCodec.core, asked for the free_reach of ``battle``'s rules (every env plays "
             "those options); ``encoder``: NativeObservationEncoder._core (each env gets a copy).")
        .def_prop_ro("num_envs", [](const PyBatch& b) { return b.core.size(); })
        .def("set_buffers",
             [](PyBatch& b, nb::handle obs, nb::handle masks, nb::handle rewards, nb::handle terminations,
                nb::handle truncations, nb::handle deciding_side, nb::handle episode_steps, nb::handle final_obs,
                nb::handle final_masks, nb::handle status, nb::handle started) {
                 BatchCall call(b);
                 const std::int64_t n = b.core.size();
                 const std::int64_t size = b.core.obs_size();
                 const std::int64_t actions = b.core.codec().n();
                 b.arrays.clear();
                 SkirmishBatchBuffers buf;
                 buf.obs = batch_array<float>(b, obs, "obs", n, size);
                 buf.masks = reinterpret_cast<std::int8_t*>(batch_array<bool>(b, masks, "masks", n, actions));
                 buf.rewards = batch_array<double>(b, rewards, "rewards", n, -1);
                 buf.terminations = reinterpret_cast<std::uint8_t*>(batch_array<bool>(b, terminations, "terminations", n, -1));
                 buf.truncations = reinterpret_cast<std::uint8_t*>(batch_array<bool>(b, truncations, "truncations", n, -1));
                 buf.deciding_side = batch_array<std::int8_t>(b, deciding_side, "deciding_side", n, -1);
                 buf.episode_steps = batch_array<std::int64_t>(b, episode_steps, "episode_steps", n, -1);
                 buf.final_obs = batch_array<float>(b, final_obs, "final_obs", n, size);
                 buf.final_masks = reinterpret_cast<std::int8_t*>(batch_array<bool>(b, final_masks, "final_masks", n, actions));
                 buf.status = batch_array<std::int8_t>(b, status, "status", n, -1);
                 buf.started = reinterpret_cast<std::uint8_t*>(batch_array<bool>(b, started, "started", n, -1));
                 b.core.set_buffers(buf);
             },
             "obs"_a.none(), "masks"_a.none(), "rewards"_a.none(), "terminations"_a.none(), "truncations"_a.none(),
             "deciding_side"_a.none(), "episode_steps"_a.none(), "final_obs"_a.none(), "final_masks"_a.none(),
             "status"_a.none(), "started"_a.none(), "The caller's arrays (batch.py's), kept and written by every call.")
        .def("start",
             [](PyBatch& b, nb::handle i, nb::handle battle, nb::handle tables, nb::handle dice, nb::handle opponent) {
                 return batch_translated([&] {
                     BatchCall call(b);
                     if (!b.core.has_buffers()) throw ArgumentError("batch", "batch: set_buffers first");
                     const std::int64_t k = batch_index(b, i);
                     BatchEpisodeStart e = batch_episode(battle, tables, dice, opponent);
                     b.tables[static_cast<std::size_t>(k)] = nb::borrow(tables);
                     {
                         nb::gil_scoped_release release;
                         b.core.start(k, std::move(e));
                     }
                     return static_cast<int>(b.core.buffers().status[k]);
                 });
             },
             "i"_a.none(), "battle"_a.none(), "tables"_a.none(), "dice"_a.none(), "opponent"_a.none(),
             "Start env i's episode from a set-up (solo.py reset after _new_battle): its status.")
        .def("prepare",
             [](PyBatch& b, nb::handle i, nb::handle battle, nb::handle tables, nb::handle dice, nb::handle opponent) {
                 BatchCall call(b);
                 const std::int64_t k = batch_index(b, i);
                 BatchEpisodeStart e = batch_episode(battle, tables, dice, opponent);
                 b.next_tables[static_cast<std::size_t>(k)] = nb::borrow(tables);
                 b.core.prepare(k, std::move(e));
             },
             "i"_a.none(), "battle"_a.none(), "tables"_a.none(), "dice"_a.none(), "opponent"_a.none(),
             "The set-up env i's next auto-reset starts from.")
        .def("set_np_tables",
             [](PyBatch& b, nb::handle tables) {
                 BatchCall call(b);
                 NpTables* t = nullptr;
                 if (!nb::try_cast(tables, t, false) || t == nullptr) {
                     wrong_type("np_tables", "a native NpTables (wargym.native.no_quarter.enemy.np_tables())", tables);
                 }
                 b.core.set_np_tables(*t);
             },
             "np_tables"_a.none(), "The NP tables the 'rules' opponent reads (set once, before any start).")
        .def("set_tables",
             [](PyBatch& b, nb::handle i, nb::handle tables) {
                 BatchCall call(b);
                 const std::int64_t k = batch_index(b, i);
                 const RulesTables* t = batch_tables_arg(tables);
                 b.tables[static_cast<std::size_t>(k)] = nb::borrow(tables);
                 b.core.set_tables(k, t);
             },
             "i"_a.none(), "tables"_a.none(), "Tables for env i's battlefield now (after NEEDS_TABLES).")
        .def("step",
             [](PyBatch& b, nb::handle actions) {
                 batch_translated([&] {
                     BatchCall call(b);
                     if (!b.core.has_buffers()) throw ArgumentError("batch", "batch: set_buffers first");
                     const std::vector<std::int64_t> chosen = batch_int64s(actions, "actions", static_cast<std::size_t>(b.core.size()));
                     {
                         nb::gil_scoped_release release;
                         b.core.step(chosen);
                     }
                     batch_adopt(b);
                     return 0;
                 });
             },
             "actions"_a.none(),
             "Play actions[i] (int64, checked by the caller) in every env, with the GIL released.")
        .def("resume",
             [](PyBatch& b, nb::handle which) {
                 batch_translated([&] {
                     BatchCall call(b);
                     const std::vector<std::int64_t> envs = batch_int64s(which, "which", std::numeric_limits<std::size_t>::max());
                     {
                         nb::gil_scoped_release release;
                         b.core.resume(envs);
                     }
                     batch_adopt(b);
                     return 0;
                 });
             },
             "which"_a.none(), "Go on with the envs that stopped for their tables (GIL released).")
        .def("battle",
             [](PyBatch& b, nb::handle i) { return b.core.env(batch_index(b, i)).battle.clone(); },
             "i"_a.none(), "A clone of env i's battle.")
        .def("battlefield_changed",
             [](PyBatch& b, nb::handle i) {
                 const SkirmishBatchEnv& e = b.core.env(batch_index(b, i));
                 return e.battle.battlefield.get() != e.tables_for;
             },
             "i"_a.none(), "Whether env i's tables are stale (a building fell since they were built).")
        .def("seen",
             [](PyBatch& b, nb::handle i) {
                 nb::list out;
                 for (std::int64_t id : b.core.env(batch_index(b, i)).seen) out.append(id);
                 return nb::frozenset(out);
             },
             "i"_a.none(), "Blue's enemies in sight in env i (core._seen[BLUE]).")
        .def("states",
             [](PyBatch& b, nb::handle i) {
                 const SkirmishBatchEnv& e = b.core.env(batch_index(b, i));
                 return nb::make_tuple(pcg64_state_to_dict(e.dice.state()), pcg64_state_to_dict(e.opponent.state()));
             },
             "i"_a.none(), "(dice state, opponent state) of env i, as bit_generator.state dicts.")
        .def("final_info",
             [](PyBatch& b, nb::handle i) -> nb::object {
                 const BatchFinalInfo& f = b.core.env(batch_index(b, i)).final_info;
                 if (!f.present) return nb::none();
                 auto text = [](std::string_view v) { return nb::str(v.data(), v.size()); };
                 nb::object decision = f.decision ? nb::object(text(kDecisionKind[*f.decision])) : nb::none();
                 nb::object winner = f.winner ? nb::object(text(kSide[*f.winner])) : nb::none();
                 return nb::make_tuple(f.turn, decision, nb::bool_(f.over), winner, text(f.reason));
             },
             "i"_a.none(), "(turn, decision kind or None, over, winner or None, end reason) of env i's last finished step.");
}

}  // namespace wargym::no_quarter
