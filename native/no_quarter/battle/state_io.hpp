// Internal to the battle state's bindings (state_bindings.cpp, state_reader.cpp,
// state_writer.cpp): interned keys, shared enum strings, field paths, the argument helpers.
#pragma once

#include <Python.h>
#include <nanobind/nanobind.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../../errors.hpp"
#include "../../pyvalues.hpp"
#include "state.hpp"

namespace state_io {

namespace nb = nanobind;
namespace nq = wargym::no_quarter;
using nq::Battle;
using wargym::Json;

// -- argument helpers (state_bindings.cpp) -----------------------------------------------------
using wargym::short_repr;  // pyvalues.hpp
using wargym::wrong_type;
bool flag(nb::handle h, const std::string& name);
std::int64_t integer(nb::handle h, const std::string& name, std::int64_t lo, std::int64_t hi);
double real(nb::handle h, const std::string& name);

// -- interned keys and enum values ------------------------------------------------------------
#define WARGYM_STATE_KEYS(X)                                                                     \
    X(battlefield) X(options) X(mechs) X(turn) X(dice) X(first_side) X(active_side) X(group_of)  \
    X(seen_pairs) X(losses) X(flames) X(wrecks) X(frames) X(decision) X(over) X(winner)          \
    X(end_reason) X(home_edges) X(building_armor) X(np) X(mission) X(version) X(options_cache)   \
    X(geometry_cache) X(width) X(height) X(features) X(night) X(inclement_weather) X(kind) X(x0) \
    X(y0) X(x1) X(y1) X(crest) X(well_lit) X(max_turns) X(base_radius) X(star_free_will)         \
    X(spread_fire_rule) X(in_sight_free_move) X(reaction_fire_once_per_enemy) X(leave_wrecks)    \
    X(command_groups) X(group_splits) X(lucky) X(marksman) X(move_directions) X(move_fractions)  \
    X(unseen_bases) X(in_sight_spent_fire) X(several_chargers) X(choose_facing) X(rules)         \
    X(zhuh_zhuh_restriction) X(gun_medium_stats) X(strict_mounting) X(pdf_c4_target)             \
    X(free_company_races) X(id) X(side) X(name) X(design) X(pilot) X(rep) X(armor) X(speed)      \
    X(pos) X(heading) X(team) X(rank) X(twist) X(status) X(prone) X(moved) X(lost_limbs)         \
    X(inoperable) X(removed) X(fired_this_activation) X(flamer_fired_turn) X(lucky_used)         \
    X(resilient_used) X(hard_as_nails_used) X(reaction_fired_at) X(hidden_from) X(faction)       \
    X(mech_class) X(items) X(notes) X(capacity) X(ews_bonus) X(item) X(location) X(wv) X(range)  \
    X(target) X(impact) X(label) X(race) X(star) X(attributes) X(mech) X(blue) X(red)

struct Keys {
#define WARGYM_DECLARE(k) PyObject* k = nullptr;
    WARGYM_STATE_KEYS(WARGYM_DECLARE)
#undef WARGYM_DECLARE
};
extern Keys K;

// Python str objects of every value of a Vocab, made once (to_dict shares them).
template <class V>
struct Names {
    std::vector<PyObject*> items;
    void init(const V& vocab) {
        for (std::string_view v : vocab.values) {
            items.push_back(PyUnicode_InternFromString(std::string(v).c_str()));
        }
    }
    template <class E>
    PyObject* operator[](E e) const {
        PyObject* o = items[static_cast<std::size_t>(e)];
        Py_INCREF(o);
        return o;
    }
};

template <class V>
inline Names<V> names_of(const V& vocab) {
    Names<V> n;
    n.init(vocab);
    return n;
}

struct AllNames {
    Names<decltype(nq::kSide)> side;
    Names<decltype(nq::kRank)> rank;
    Names<decltype(nq::kStatus)> status;
    Names<decltype(nq::kRemoval)> removal;
    Names<decltype(nq::kLocation)> location;
    Names<decltype(nq::kTerrain)> terrain;
    Names<decltype(nq::kFaction)> faction;
    Names<decltype(nq::kRace)> race;
    Names<decltype(nq::kAttribute)> attribute;
    Names<decltype(nq::kItemType)> item;
    Names<decltype(nq::kDecisionKind)> decision;
    Names<decltype(nq::kSpreadFire)> spread;
    Names<decltype(nq::kCommandGroups)> command;
    Names<decltype(nq::kGroupSplits)> splits;
    Names<decltype(nq::kLucky)> lucky;
    Names<decltype(nq::kMarksman)> marksman;
    Names<decltype(nq::kUnseenBases)> unseen;
    Names<decltype(nq::kInSightSpentFire)> spent;
    Names<decltype(nq::kSeveralChargers)> chargers;
    Names<decltype(nq::kZhuhZhuhRestriction)> zhuh;
    Names<decltype(nq::kGunMediumStats)> gun;
    Names<decltype(nq::kPdfC4Target)> pdf;
    Names<decltype(nq::kFreeCompanyRaces)> races;
};
extern AllNames N;

// The same str objects by Vocab type, for the reader's fast path: a document written by the
// native to_dict holds these very objects, so an identity test finds most values.
template <class V>
inline std::vector<PyObject*> g_vocab_objects;

template <class V>
inline void remember(const Names<V>& names) {
    g_vocab_objects<std::remove_cv_t<V>> = names.items;
}
// Interns the keys and enum strings once, at import (state_bindings.cpp).
void init();

// -- paths: built only when a refusal needs one -----------------------------------------------
struct Path {
    const Path* parent;
    const char* field;      // ".field" (or the root's name)
    Py_ssize_t index = -1;  // "[index]"
    PyObject* key = nullptr;  // ".key" (a dict key)

    Path operator/(const char* f) const { return Path{this, f}; }
    Path operator[](Py_ssize_t i) const { return Path{this, nullptr, i}; }
    Path at_key(PyObject* k) const { return Path{this, nullptr, -1, k}; }

    std::string str() const {
        std::string head = parent ? parent->str() : std::string();
        if (field) return parent ? head + "." + field : std::string(field);
        if (index >= 0) return head + "[" + std::to_string(index) + "]";
        PyObject* text = PyObject_Str(key);
        std::string k = "?";
        if (text) {
            const char* data = PyUnicode_AsUTF8(text);
            if (data) k = std::string(data).substr(0, 80);
            Py_DECREF(text);
        }
        PyErr_Clear();
        return head + "." + k;
    }
};

[[noreturn]] inline void bad(const Path& at, const std::string& message) {
    throw wargym::StateError(at.str(), message);
}

inline std::string quote(PyObject* o) { return short_repr(nb::handle(o)); }
// The reader (state_reader.cpp) and the writer (state_writer.cpp).
Battle from_dict(PyObject* o, const nq::StateLimits& limits, bool check);
PyObject* to_dict(const Battle& b);
// validity.py's bounds and terrain_config()'s building table, read from what the glue hands
// in (state_reader.cpp).
nq::StateLimits make_limits(nb::handle src, nb::handle terrain, nb::handle depth);
// A new reference, or the pending Python error thrown as nb::python_error.
PyObject* ok(PyObject* o);

// The reader's design and options readers, shared with the set-up's bindings
// (forces/setup_bindings.cpp: the glue hands designs and options over as to_jsonable data).
nq::MechDesign get_design(PyObject* o, const Path& at);
std::shared_ptr<const nq::BattleOptions> get_options(PyObject* o, const Path& at);

}  // namespace state_io
