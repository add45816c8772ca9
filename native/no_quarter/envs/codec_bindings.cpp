// Bindings of the native action codec (envs/codec.hpp): _core.no_quarter.ActionCodec, built by
// the glue (native/no_quarter/codec.py) from the reference codec's numbers. Battles are native
// (_core.no_quarter.Battle); actions cross as the reference's objects (actions_bindings.hpp).
#include <Python.h>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "../../errors.hpp"
#include "../../pyvalues.hpp"
#include "../battle/actions_bindings.hpp"
#include "codec.hpp"
#include "codec_bindings.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace wargym::no_quarter {

namespace {

// The codec and the glue's free_reach(rules) callable, asked once per RulesOptions met.
struct PyCodec {
    ActionCodec codec;
    nb::object reach_fn;
};

std::int64_t count(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (PyBool_Check(o) || !PyIndex_Check(o)) wrong_type(name, "an integer", h);
    PyObject* index = PyNumber_Index(o);
    if (!index) {
        PyErr_Clear();
        wrong_type(name, "an integer", h);
    }
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (overflow) throw ArgumentError(name, "expected an integer in the int64 range, got " + short_repr(h));
    return v;
}

double number(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (PyBool_Check(o) || !(PyFloat_Check(o) || PyLong_Check(o))) wrong_type(name, "a number", h);
    const double v = PyFloat_AsDouble(o);
    if ((v == -1.0 && PyErr_Occurred()) || !std::isfinite(v)) {
        PyErr_Clear();
        throw ArgumentError(name, "expected a finite number, got " + short_repr(h));
    }
    return v;
}

std::string text(nb::handle h, const std::string& name) {
    if (!PyUnicode_Check(h.ptr())) wrong_type(name, "a str", h);
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(h.ptr(), &size);
    if (!data) {
        PyErr_Clear();
        throw ArgumentError(name, "text that is not valid UTF-8");
    }
    return std::string(data, static_cast<std::size_t>(size));
}

nb::sequence items(nb::handle h, const std::string& name) {
    if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) wrong_type(name, "a list or tuple", h);
    return nb::borrow<nb::sequence>(h);
}

// an enum member or its value, by the vocabulary's text
template <class E, std::size_t N>
E member(nb::handle h, const Vocab<E, N>& vocab, const std::string& name) {
    nb::handle v = h;
    nb::object value;
    if (!PyUnicode_Check(h.ptr()) && PyObject_HasAttrString(h.ptr(), "value")) {
        value = h.attr("value");
        v = value;
    }
    if (PyUnicode_Check(v.ptr())) {
        if (auto e = vocab.find(text(v, name))) return *e;
    }
    throw ArgumentError(name, short_repr(h) + " is not a valid " + vocab.name);
}

nb::handle field(nb::handle spec, const char* key) {
    PyObject* v = PyDict_GetItemString(spec.ptr(), key);
    if (!v) throw ArgumentError(std::string("codec.") + key, "missing from the codec's tables");
    return v;
}

std::vector<std::int64_t> int_list(nb::handle h, const std::string& name) {
    std::vector<std::int64_t> out;
    nb::sequence seq = items(h, name);
    for (std::size_t i = 0; i < nb::len(seq); ++i) out.push_back(count(seq[i], name + "[" + std::to_string(i) + "]"));
    return out;
}

// ActionCodec's numbers, as the glue hands them in (native/no_quarter/codec.py: codec_tables).
CodecTables read_tables(nb::handle spec) {
    if (!PyDict_Check(spec.ptr())) wrong_type("tables", "a dict of the codec's numbers", spec);
    CodecTables t;
    auto c = [&](const char* key) { return count(field(spec, key), std::string("codec.") + key); };
    t.max_mechs = c("max_mechs");
    t.max_weapons = c("max_weapons");
    t.max_buildings = c("max_buildings");
    t.directions = c("directions");
    t.headings = c("headings");
    t.free_directions = c("free_directions");
    t.free_reaches = c("free_reaches");
    {
        nb::sequence fr = items(field(spec, "fractions"), "codec.fractions");
        for (std::size_t i = 0; i < nb::len(fr); ++i) t.fractions.push_back(number(fr[i], "codec.fractions[" + std::to_string(i) + "]"));
    }
    nb::handle mirror = field(spec, "mirror");
    if (!PyBool_Check(mirror.ptr())) wrong_type("codec.mirror", "True or False", mirror);
    t.mirror = mirror.ptr() == Py_True;
    nb::handle sizes = field(spec, "sizes");
    if (!PyDict_Check(sizes.ptr())) wrong_type("codec.sizes", "a dict of block sizes", sizes);
    if (static_cast<std::size_t>(PyDict_Size(sizes.ptr())) != kBlocks) {
        throw ArgumentError("codec.sizes", "expected the " + std::to_string(kBlocks) + " blocks of nq-act-v2");
    }
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    std::size_t b = 0;
    while (PyDict_Next(sizes.ptr(), &pos, &key, &value)) {
        const std::string name = text(key, "codec.sizes");
        if (name != kBlockNames[b]) {
            throw ArgumentError("codec.sizes", "block " + std::to_string(b) + " is '" + name + "', expected '" +
                                                   std::string(kBlockNames[b]) + "'");
        }
        t.sizes[b++] = count(value, "codec.sizes." + name);
    }
    t.free_will = int_list(field(spec, "free_will"), "codec.free_will");
    {
        nb::sequence limbs = items(field(spec, "limbs"), "codec.limbs");
        for (std::size_t i = 0; i < nb::len(limbs); ++i) {
            const std::string at = "codec.limbs[" + std::to_string(i) + "]";
            nb::sequence pair = items(limbs[i], at);
            if (nb::len(pair) != 2) throw ArgumentError(at, "expected (attack, limb)");
            t.limbs.emplace_back(member(pair[0], kMeleeAttack, at + "[0]"), member(pair[1], kLocation, at + "[1]"));
        }
    }
    for (const char* key : {"edges", "objectives"}) {
        nb::sequence seq = items(field(spec, key), std::string("codec.") + key);
        auto& into = std::string(key) == "edges" ? t.edges : t.objectives;
        for (std::size_t i = 0; i < nb::len(seq); ++i) into.push_back(text(seq[i], std::string("codec.") + key));
    }
    {
        nb::sequence seq = items(field(spec, "lucky_choices"), "codec.lucky_choices");
        for (std::size_t i = 0; i < nb::len(seq); ++i) {
            nb::handle v = seq[i];
            if (!PyBool_Check(v.ptr())) wrong_type("codec.lucky_choices", "True or False", v);
            t.lucky_choices.push_back(v.ptr() == Py_True);
        }
    }
    {
        nb::sequence seq = items(field(spec, "location_slots"), "codec.location_slots");
        for (std::size_t i = 0; i < nb::len(seq); ++i) t.location_slots.push_back(member(seq[i], kLocation, "codec.location_slots"));
    }
    t.twists = int_list(field(spec, "twists"), "codec.twists");
    t.reverse_fraction = number(field(spec, "reverse_fraction"), "codec.reverse_fraction");
    t.tol = number(field(spec, "tol"), "codec.tol");
    return t;
}

const Battle& battle_arg(nb::handle h) {
    const Battle* b = nullptr;
    if (!nb::try_cast(h, b, false) || b == nullptr) wrong_type("battle", "a native Battle (battle_from_dict)", h);
    return *b;
}

// free_reach() for the battle's rules, asked of the glue the first time they are met.
void ensure_reach(PyCodec& self, const Battle& battle) {
    if (self.codec.free_reach(battle)) return;
    const RulesOptions& r = battle.options->rules;
    auto s = [](std::string_view v) { return nb::str(v.data(), v.size()); };
    nb::object reach = self.reach_fn(s(kZhuhZhuhRestriction[r.zhuh_zhuh_restriction]),
                                     s(kGunMediumStats[r.gun_medium_stats]), nb::bool_(r.strict_mounting),
                                     s(kPdfC4Target[r.pdf_c4_target]), s(kFreeCompanyRaces[r.free_company_races]));
    nb::sequence seq = items(reach, "free_reach");
    RulesReach entry{r, {}};
    for (std::size_t i = 0; i < nb::len(seq); ++i) entry.reach.push_back(number(seq[i], "free_reach"));
    if (static_cast<std::int64_t>(entry.reach.size()) != self.codec.tables().free_reaches) {
        throw ArgumentError("free_reach", "expected FREE_REACHES distances");
    }
    self.codec.tables().reach.push_back(std::move(entry));
}

// a reference Slots (viewer, own, enemy, buildings, turn), or none
std::optional<Slots> slots_arg(nb::handle h) {
    if (h.is_none()) return std::nullopt;
    for (const char* a : {"viewer", "own", "enemy", "buildings", "turn"}) {
        if (!PyObject_HasAttrString(h.ptr(), a)) wrong_type("slots", "a codec.Slots or None", h);
    }
    Slots s;
    s.viewer = member(h.attr("viewer"), kSide, "slots.viewer");
    s.own = int_list(h.attr("own"), "slots.own");
    s.enemy = int_list(h.attr("enemy"), "slots.enemy");
    s.buildings = int_list(h.attr("buildings"), "slots.buildings");
    s.turn = number(h.attr("turn"), "slots.turn");
    return s;
}

nb::tuple ids(const std::vector<std::int64_t>& v) {
    nb::list out;
    for (std::int64_t i : v) out.append(i);
    return nb::tuple(out);
}

std::int64_t index_arg(nb::handle h) { return count(h, "index"); }

}  // namespace

const ActionCodec& codec_for_battle(nb::handle codec, const Battle& battle, const char* name) {
    PyCodec* c = nullptr;
    if (!nb::try_cast(codec, c, false) || c == nullptr) wrong_type(name, "a native ActionCodec (NativeCodec.core)", codec);
    ensure_reach(*c, battle);
    return c->codec;
}

void bind_codec(nb::module_& g) {
    init_actions();
    g.attr("CODEC_BLOCKS") = [] {
        nb::list names;
        for (std::string_view n : kBlockNames) names.append(nb::str(n.data(), n.size()));
        return nb::tuple(names);
    }();
    nb::class_<PyCodec>(g, "ActionCodec", "envs.no_quarter.codec.ActionCodec on native battles (nq-act-v2).")
        .def("__init__",
             [](PyCodec* self, nb::handle tables, nb::handle free_reach) {
                 if (!PyCallable_Check(free_reach.ptr())) wrong_type("free_reach", "a callable", free_reach);
                 new (self) PyCodec{ActionCodec(read_tables(tables)), nb::borrow(free_reach)};
             },
             "tables"_a.none(), "free_reach"_a.none())
        .def_prop_ro("n", [](const PyCodec& c) { return c.codec.n(); })
        .def_prop_ro("offsets", [](const PyCodec& c) {
            nb::dict out;
            for (std::size_t b = 0; b < kBlocks; ++b) out[nb::str(kBlockNames[b].data(), kBlockNames[b].size())] = c.codec.tables().offsets[b];
            return out;
        })
        .def("slots",
             [](const PyCodec& c, nb::handle battle, nb::handle viewer) {
                 const Battle& b = battle_arg(battle);
                 std::optional<Side> side;
                 if (!viewer.is_none()) side = member(viewer, kSide, "viewer");
                 const Slots s = c.codec.slots(b, side);
                 return nb::make_tuple(nb::str(kSide[s.viewer].data(), kSide[s.viewer].size()), ids(s.own),
                                       ids(s.enemy), ids(s.buildings), s.turn);
             },
             "battle"_a.none(), "viewer"_a.none() = nb::none(),
             "(viewer, own, enemy, buildings, turn) of codec.Slots for the viewer (default: the deciding side).")
        .def("encode",
             [](PyCodec& c, nb::handle action, nb::handle battle, nb::handle slots) {
                 const Action a = action_from_py(action);
                 const Battle& b = battle_arg(battle);
                 const auto s = slots_arg(slots);
                 ensure_reach(c, b);
                 return c.codec.encode(a, b, s ? &*s : nullptr);
             },
             "action"_a.none(), "battle"_a.none(), "slots"_a.none() = nb::none())
        .def("decode",
             [](PyCodec& c, nb::handle index, nb::handle battle, nb::handle legal, nb::handle slots) -> nb::object {
                 const std::int64_t i = index_arg(index);
                 const Battle& b = battle_arg(battle);
                 const std::vector<Action> options = actions_from_py(legal, "legal");
                 const auto s = slots_arg(slots);
                 ensure_reach(c, b);
                 for (const auto& [k, position] : c.codec.table(b, options, s ? &*s : nullptr).entries) {
                     if (k == i) return nb::borrow(PySequence_Fast_GET_ITEM(legal.ptr(), static_cast<Py_ssize_t>(position)));
                 }
                 return action_to_py(c.codec.nominal(i, b, s ? &*s : nullptr));
             },
             "index"_a.none(), "battle"_a.none(), "legal"_a.none(), "slots"_a.none() = nb::none(),
             "The legal action of index (the very object of `legal`), else the nominal one.")
        .def("decode_many",
             [](PyCodec& c, nb::handle indices, nb::handle battle, nb::handle legal, nb::handle slots) {
                 const std::vector<std::int64_t> wanted = int_list(indices, "indices");
                 const Battle& b = battle_arg(battle);
                 const std::vector<Action> options = actions_from_py(legal, "legal");
                 const auto s = slots_arg(slots);
                 ensure_reach(c, b);
                 const auto table = c.codec.table(b, options, s ? &*s : nullptr);
                 std::vector<std::int64_t> where(static_cast<std::size_t>(c.codec.n()), -1);
                 for (const auto& [k, position] : table.entries) where[static_cast<std::size_t>(k)] = static_cast<std::int64_t>(position);
                 nb::list out;
                 for (std::int64_t i : wanted) {
                     const bool in_table = i >= 0 && i < c.codec.n() && where[static_cast<std::size_t>(i)] >= 0;
                     if (in_table) {
                         out.append(nb::borrow(PySequence_Fast_GET_ITEM(legal.ptr(), static_cast<Py_ssize_t>(where[static_cast<std::size_t>(i)]))));
                         continue;
                     }
                     try {
                         out.append(action_to_py(c.codec.nominal(i, b, s ? &*s : nullptr)));
                     } catch (const CodecError& e) {  // the refusal, in place of an action
                         out.append(nb::make_tuple("ValueError", nb::str(e.what())));
                     }
                 }
                 return out;
             },
             "indices"_a.none(), "battle"_a.none(), "legal"_a.none(), "slots"_a.none() = nb::none(),
             "decode() of each index (one table); a refused index gives ('ValueError', message).")
        .def("table",
             [](PyCodec& c, nb::handle battle, nb::handle legal, nb::handle slots) {
                 const Battle& b = battle_arg(battle);
                 const std::vector<Action> options = actions_from_py(legal, "legal");
                 const auto s = slots_arg(slots);
                 ensure_reach(c, b);
                 const auto table = c.codec.table(b, options, s ? &*s : nullptr);
                 nb::dict out;
                 for (const auto& [k, position] : table.entries) {
                     out[nb::int_(k)] = nb::borrow(PySequence_Fast_GET_ITEM(legal.ptr(), static_cast<Py_ssize_t>(position)));
                 }
                 return nb::make_tuple(out, table.clashes);
             },
             "battle"_a.none(), "legal"_a.none(), "slots"_a.none() = nb::none(),
             "({index: legal action}, clashes): ActionCodec.table and .collisions.")
        .def("mask",
             [](PyCodec& c, nb::handle battle, nb::handle legal, nb::handle slots) {
                 const Battle& b = battle_arg(battle);
                 const std::vector<Action> options = actions_from_py(legal, "legal");
                 const auto s = slots_arg(slots);
                 ensure_reach(c, b);
                 const auto n = static_cast<std::size_t>(c.codec.n());
                 auto* out = new std::int8_t[n];
                 nb::capsule owner(out, [](void* p) noexcept { delete[] static_cast<std::int8_t*>(p); });
                 c.codec.mask(b, options, std::span<std::int8_t>(out, n), s ? &*s : nullptr);
                 return nb::ndarray<nb::numpy, std::int8_t, nb::ndim<1>>(out, {n}, owner);
             },
             "battle"_a.none(), "legal"_a.none(), "slots"_a.none() = nb::none(),
             "ActionCodec.mask: an int8 array of n, 1 at the legal indices.")
        .def("nominal",
             [](PyCodec& c, nb::handle index, nb::handle battle, nb::handle slots) {
                 const std::int64_t i = index_arg(index);
                 const Battle& b = battle_arg(battle);
                 const auto s = slots_arg(slots);
                 ensure_reach(c, b);
                 return action_to_py(c.codec.nominal(i, b, s ? &*s : nullptr));
             },
             "index"_a.none(), "battle"_a.none(), "slots"_a.none() = nb::none(), "ActionCodec._nominal.")
        .def("block_of",
             [](const PyCodec& c, nb::handle index) {
                 const auto [block, k] = c.codec.block_of(index_arg(index));
                 const std::string_view name = kBlockNames[static_cast<std::size_t>(block)];
                 return nb::make_tuple(nb::str(name.data(), name.size()), k);
             },
             "index"_a.none())
        .def("free_reach",
             [](PyCodec& c, nb::handle battle) {
                 const Battle& b = battle_arg(battle);
                 ensure_reach(c, b);
                 nb::list out;
                 for (double r : *c.codec.free_reach(b)) out.append(r);
                 return nb::tuple(out);
             },
             "battle"_a.none(), "codec.free_reach(battle).");
    g.def("ranged_weapons",
          [](nb::handle battle, nb::handle mech) {
              const Battle& b = battle_arg(battle);
              const std::int64_t id = count(mech, "mech");
              const Mech* m = b.mech(id);
              if (!m) throw ArgumentError("mech", "mech " + std::to_string(id) + " is not in the battle");
              return ids(ranged_weapons(m->design()));
          },
          "battle"_a.none(), "mech"_a.none(), "codec.ranged_weapons(battle.mechs[mech]).");
}

}  // namespace wargym::no_quarter
