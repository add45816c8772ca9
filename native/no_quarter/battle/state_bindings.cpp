// Bindings of the native No Quarter battle state (battle/state.hpp): Battle, StateLimits,
// vocabulary() and STATE_VERSION in _core.no_quarter. The reader (state_reader.cpp) and the
// writer (state_writer.cpp) walk Python objects directly through the C API, without an
// intermediate JSON text (docs/native.md has the measurements). native/bindings.cpp calls
// bind_state(); the errors thrown here (errors.hpp) go through its one translator.
#include "state_bindings.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <nanobind/stl/string.h>

#include "state_io.hpp"

namespace nb = nanobind;
using namespace nanobind::literals;

namespace state_io {

bool flag(nb::handle h, const std::string& name) {
    if (!PyBool_Check(h.ptr())) wrong_type(name, "True or False", h);
    return h.ptr() == Py_True;
}

std::int64_t integer(nb::handle h, const std::string& name, std::int64_t lo, std::int64_t hi) {
    PyObject* o = h.ptr();
    if (!PyLong_Check(o) || PyBool_Check(o)) wrong_type(name, "an integer", h);
    int overflow = 0;
    const long long value = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || value < lo || value > hi) {
        throw wargym::ArgumentError(name, "expected an integer in " + std::to_string(lo) + ".." +
                                              std::to_string(hi) + ", got " + short_repr(h));
    }
    return value;
}

double real(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (PyBool_Check(o) || !(PyFloat_Check(o) || PyLong_Check(o))) wrong_type(name, "a number", h);
    const double value = PyFloat_AsDouble(o);
    if (PyErr_Occurred() || !std::isfinite(value)) {
        PyErr_Clear();
        throw wargym::ArgumentError(name, "expected a finite number, got " + short_repr(h));
    }
    return value;
}

Keys K;
AllNames N;

void init() {
#define WARGYM_INTERN(k) K.k = PyUnicode_InternFromString(#k);
    WARGYM_STATE_KEYS(WARGYM_INTERN)
#undef WARGYM_INTERN
    N.side.init(nq::kSide);
    N.rank.init(nq::kRank);
    N.status.init(nq::kStatus);
    N.removal.init(nq::kRemoval);
    N.location.init(nq::kLocation);
    N.terrain.init(nq::kTerrain);
    N.faction.init(nq::kFaction);
    N.race.init(nq::kRace);
    N.attribute.init(nq::kAttribute);
    N.item.init(nq::kItemType);
    N.decision.init(nq::kDecisionKind);
    N.spread.init(nq::kSpreadFire);
    N.command.init(nq::kCommandGroups);
    N.splits.init(nq::kGroupSplits);
    N.lucky.init(nq::kLucky);
    N.marksman.init(nq::kMarksman);
    N.unseen.init(nq::kUnseenBases);
    N.spent.init(nq::kInSightSpentFire);
    N.chargers.init(nq::kSeveralChargers);
    N.zhuh.init(nq::kZhuhZhuhRestriction);
    N.gun.init(nq::kGunMediumStats);
    N.pdf.init(nq::kPdfC4Target);
    N.races.init(nq::kFreeCompanyRaces);
    remember(N.side); remember(N.rank); remember(N.status); remember(N.removal);
    remember(N.location); remember(N.terrain); remember(N.faction); remember(N.race);
    remember(N.attribute); remember(N.item); remember(N.decision); remember(N.spread);
    remember(N.command); remember(N.splits); remember(N.lucky); remember(N.marksman);
    remember(N.unseen); remember(N.spent); remember(N.chargers); remember(N.zhuh);
    remember(N.gun); remember(N.races);
}

template <class V>
nb::tuple vocab_tuple(const V& vocab) {
    nb::list out;
    for (std::string_view v : vocab.values) out.append(nb::str(v.data(), v.size()));
    return nb::tuple(out);
}

nb::dict vocabulary() {
    nb::dict d;
    auto add = [&](const auto& vocab) { d[vocab.name] = vocab_tuple(vocab); };
    add(nq::kSide); add(nq::kRank); add(nq::kStatus); add(nq::kRemoval); add(nq::kLocation);
    add(nq::kTerrain); add(nq::kFaction); add(nq::kRace); add(nq::kAttribute); add(nq::kItemType);
    add(nq::kDecisionKind); add(nq::kSpreadFire); add(nq::kCommandGroups); add(nq::kGroupSplits);
    add(nq::kLucky); add(nq::kMarksman); add(nq::kUnseenBases); add(nq::kInSightSpentFire);
    add(nq::kSeveralChargers); add(nq::kZhuhZhuhRestriction); add(nq::kGunMediumStats);
    add(nq::kPdfC4Target); add(nq::kFreeCompanyRaces);
    return d;
}

}  // namespace state_io

namespace wargym::no_quarter {

void bind_state(nb::module_& g) {
    using namespace state_io;
    wargym::init_short_repr();
    init();
    g.attr("STATE_VERSION") = nq::kStateVersion;
    g.def("vocabulary", &vocabulary,
          "Every enum and option choice the native state knows, by Python type or field name.");
    nb::class_<nq::StateLimits>(g, "StateLimits", "validity.py's bounds and terrain_config()'s building table, for the native state.")
        .def("__init__",
             [](nq::StateLimits* self, nb::handle validity, nb::handle terrain, nb::handle depth) {
                 new (self) nq::StateLimits(make_limits(validity, terrain, depth));
             },
             "validity"_a.none(), "terrain"_a.none(), "max_json_depth"_a.none() = 64)
        .def_prop_ro("max_json_depth", [](const nq::StateLimits& l) { return l.max_json_depth; });
    nb::class_<Battle>(g, "Battle", "A No Quarter battle state (rules.no_quarter.battle.state.Battle).")
        .def_static(
            "from_dict",
            [](nb::handle data, nb::handle limits, nb::handle check) {
                const nq::StateLimits* l = nullptr;
                if (!nb::try_cast(limits, l, false) || l == nullptr) wrong_type("limits", "a StateLimits", limits);
                const bool c = flag(check, "check");
                return from_dict(data.ptr(), *l, c);
            },
            "data"_a.none(), "limits"_a.none(), "check"_a.none() = true,
            "The battle of a Battle.to_dict() document; NativeStateError names a bad field.")
        .def("to_dict", [](const Battle& b) { return nb::steal(to_dict(b)); },
             "The battle as the reference's versioned JSON data (equal to Battle.to_dict()).")
        .def("clone", &Battle::clone, "An independent copy (a struct copy; records are shared).")
        .def("__copy__", &Battle::clone)
        .def_prop_ro("turn", [](const Battle& b) { return b.turn; })
        .def_prop_ro("over", [](const Battle& b) { return b.over; })
        .def_prop_ro(
            "decision",
            [](const Battle& b) -> nb::object {
                if (!b.decision) return nb::none();
                const nq::Decision& d = *b.decision;
                return nb::make_tuple(std::string(nq::kSide[d.side]), std::string(nq::kDecisionKind[d.kind]),
                                      d.mech ? nb::cast(*d.mech) : nb::none());
            },
            "to_dict()['decision'] as (side, kind, mech or None), or None: without the document.")
        .def_prop_ro(
            "winner",
            [](const Battle& b) -> nb::object {
                return b.winner ? nb::cast(std::string(nq::kSide[*b.winner])) : nb::none();
            },
            "to_dict()['winner'] (a Side value or None).")
        .def_prop_ro("end_reason", [](const Battle& b) { return b.end_reason; },
                     "to_dict()['end_reason'].")
        .def(
            "mech_sides",
            [](const Battle& b) {
                nb::dict out;
                for (const nq::Mech& m : b.mechs) {
                    out[nb::cast(m.id)] = nb::make_tuple(std::string(nq::kSide[m.side]), !m.removed);
                }
                return out;
            },
            "{id: (side, still in play)} of every mech, as to_dict()['mechs'] has them.")
        .def_prop_ro("mech_ids", [](const Battle& b) {
            nb::list out;
            for (const nq::Mech& m : b.mechs) out.append(m.id);
            return out;
        });
}

}  // namespace wargym::no_quarter
