// The battle state's reader: a Battle.to_dict() document (rules/no_quarter/battle/state.py)
// walked through the Python C API into the structs of battle/state.hpp.
//
// The reader follows rules/serial.py's from_jsonable: the same fields, the same defaults for
// fields left out, unknown fields refused, ints kept apart from bools, an int accepted where a
// float is wanted (and written back as a float). Beyond the reference: numbers must fit a
// 64-bit integer or be finite floats, and plain-JSON parts (frames, np, mission) may nest at
// most StateLimits::max_json_depth deep. Every refusal is a wargym::StateError whose path
// names the field (battle.mechs.0.pos[1]); the bindings raise it as NativeStateError.
#include <algorithm>
#include <limits>
#include <cmath>
#include <string>
#include <tuple>

#include "../sight_movement/geometry.hpp"
#include "frames_io.hpp"
#include "state_io.hpp"

namespace state_io {

// -- scalars ----------------------------------------------------------------------------------
std::int64_t get_int(PyObject* o, const Path& at) {
    if (PyLong_Check(o) && !PyBool_Check(o)) {
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            bad(at, "expected an integer within 64 bits, got " + quote(o));
        }
        return v;
    }
    bad(at, "expected int, got " + quote(o));
}

double get_float(PyObject* o, const Path& at) {
    double v;
    if (PyFloat_Check(o)) {
        v = PyFloat_AS_DOUBLE(o);
    } else if (PyLong_Check(o) && !PyBool_Check(o)) {
        v = PyLong_AsDouble(o);
        if (v == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            bad(at, "expected a finite number, got " + quote(o));
        }
    } else {
        bad(at, "expected a number, got " + quote(o));
    }
    if (!std::isfinite(v)) bad(at, "expected a finite number, got " + quote(o));
    return v;
}

bool get_bool(PyObject* o, const Path& at) {
    if (!PyBool_Check(o)) bad(at, "expected bool, got " + quote(o));
    return o == Py_True;
}

std::string get_str(PyObject* o, const Path& at) {
    if (!PyUnicode_Check(o)) bad(at, "expected str, got " + quote(o));
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(o, &size);
    if (!data) {
        PyErr_Clear();
        bad(at, "text that is not valid UTF-8: " + quote(o));
    }
    return std::string(data, static_cast<std::size_t>(size));
}

template <class V>
auto get_enum(PyObject* o, const Path& at, const V& vocab) {
    using E = decltype(*vocab.find(""));
    const auto& known = g_vocab_objects<V>;
    for (std::size_t i = 0; i < known.size(); ++i) {
        if (known[i] == o) return static_cast<std::remove_cvref_t<E>>(i);
    }
    if (PyUnicode_Check(o)) {
        Py_ssize_t size = 0;
        const char* data = PyUnicode_AsUTF8AndSize(o, &size);
        if (data) {
            if (auto e = vocab.find(std::string_view(data, static_cast<std::size_t>(size)))) return *e;
        }
        PyErr_Clear();
    }
    std::string choices;
    for (std::string_view v : vocab.values) choices += (choices.empty() ? "" : ", ") + std::string(v);
    bad(at, quote(o) + " is not a valid " + vocab.name + " (one of " + choices + ")");
}

nq::Point get_point(PyObject* o, const Path& at) {
    if (!PyList_Check(o)) bad(at, "expected a list, got " + quote(o));
    if (PyList_GET_SIZE(o) != 2) bad(at, "expected 2 items, got " + std::to_string(PyList_GET_SIZE(o)));
    return {get_float(PyList_GET_ITEM(o, 0), at[0]), get_float(PyList_GET_ITEM(o, 1), at[1])};
}

PyObject* get_list(PyObject* o, const Path& at) {
    if (!PyList_Check(o)) bad(at, "expected a list, got " + quote(o));
    return o;
}

template <class F>
auto list_of(PyObject* o, const Path& at, F&& item) {
    get_list(o, at);
    const Py_ssize_t n = PyList_GET_SIZE(o);
    std::vector<decltype(item(o, at))> out;
    out.reserve(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) out.push_back(item(PyList_GET_ITEM(o, i), at[i]));
    return out;
}

std::int64_t int_key(PyObject* k, const Path& at) {
    if (PyLong_Check(k) && !PyBool_Check(k)) return get_int(k, at.at_key(k));
    if (PyUnicode_Check(k)) {
        Py_ssize_t size = 0;
        const char* s = PyUnicode_AsUTF8AndSize(k, &size);
        if (s && size > 0 && size <= 19) {
            Py_ssize_t i = s[0] == '-' ? 1 : 0;
            bool digits = i < size;
            std::int64_t v = 0;
            for (Py_ssize_t j = i; j < size; ++j) {
                if (s[j] < '0' || s[j] > '9') digits = false;
                else v = v * 10 + (s[j] - '0');
            }
            if (digits) return i ? -v : v;
        }
        PyErr_Clear();
    }
    bad(at, "key " + quote(k) + " is not an integer");
}

// An object of named fields: required ones must be there, unknown ones are refused.
class Fields {
public:
    Fields(PyObject* o, const Path& at, const char* type) : o_(o), at_(at), type_(type) {
        if (!PyDict_Check(o)) bad(at, std::string("expected an object for ") + type + ", got " + quote(o));
        // Exact str keys only, so that the lookups below never run Python code (a key's own
        // __eq__ could change the document while the reader holds borrowed references).
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Next(o, &pos, &k, &v)) {
            if (!PyUnicode_CheckExact(k)) bad(at, "field name " + quote(k) + " is not text");
        }
    }
    PyObject* optional(PyObject* key) {
        PyObject* v = PyDict_GetItemWithError(o_, key);
        if (!v && PyErr_Occurred()) {
            PyErr_Clear();
            bad(at_, "unreadable object");
        }
        if (v) ++found_;
        return v;
    }
    PyObject* required(PyObject* key) {
        PyObject* v = optional(key);
        if (!v) bad(at_, "missing field '" + std::string(PyUnicode_AsUTF8(key)) + "' of " + type_);
        return v;
    }
    void finish(std::initializer_list<PyObject*> known) const {
        if (found_ == PyDict_GET_SIZE(o_)) return;
        std::vector<std::string> unknown;
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Next(o_, &pos, &k, &v)) {
            bool is_known = false;
            for (PyObject* name : known) is_known = is_known || (PyUnicode_CheckExact(k) && PyUnicode_Compare(k, name) == 0);
            if (!is_known) unknown.push_back(quote(k));
            if (unknown.size() >= 5) break;
        }
        std::string list;
        for (const auto& u : unknown) list += (list.empty() ? "" : ", ") + u;
        bad(at_, "unknown fields [" + list + "] for " + type_);
    }

private:
    PyObject* o_;
    const Path& at_;
    const char* type_;
    Py_ssize_t found_ = 0;
};

// -- plain JSON -------------------------------------------------------------------------------
Json get_json(PyObject* o, const Path& at, std::int64_t depth_left) {
    if (o == Py_None) return Json();
    if (PyBool_Check(o)) return Json::boolean(o == Py_True);
    if (PyLong_Check(o)) return Json::integer(get_int(o, at));
    if (PyFloat_Check(o)) return Json::real(get_float(o, at));
    if (PyUnicode_Check(o)) return Json::string(get_str(o, at));
    if (depth_left <= 0) bad(at, "nested deeper than the state allows");
    if (PyList_Check(o) || PyTuple_Check(o)) {
        const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        Json::Array items;
        items.reserve(static_cast<std::size_t>(n));
        for (Py_ssize_t i = 0; i < n; ++i) {
            items.push_back(get_json(PySequence_Fast_GET_ITEM(o, i), at[i], depth_left - 1));
        }
        return Json::array(std::move(items));
    }
    if (PyDict_Check(o)) {
        Json::Object fields;
        fields.reserve(static_cast<std::size_t>(PyDict_GET_SIZE(o)));
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Next(o, &pos, &k, &v)) {
            if (!PyUnicode_Check(k)) bad(at, "key " + quote(k) + " is not text");
            fields.emplace_back(get_str(k, at), get_json(v, at.at_key(k), depth_left - 1));
        }
        return Json::object(std::move(fields));
    }
    bad(at, "expected JSON data (null, bool, number, text, list, object), got " + quote(o));
}

Json get_json_object(PyObject* o, const Path& at, std::int64_t depth) {
    if (!PyDict_Check(o)) bad(at, "expected an object, got " + quote(o));
    return get_json(o, at, depth);
}

// -- records ----------------------------------------------------------------------------------
// terrain.py Feature.__post_init__ and Battlefield.__post_init__'s checks of one feature.
nq::Feature get_feature(PyObject* o, const Path& at, const nq::Battlefield& bf,
                        const nq::StateLimits& limits) {
    Fields f(o, at, "Feature");
    nq::Feature out;
    out.kind = get_enum(f.required(K.kind), at / "kind", nq::kTerrain);
    if (out.kind == nq::Terrain::clear) bad(at / "kind", "'clear' is not a placeable terrain");
    out.x0 = get_float(f.required(K.x0), at / "x0");
    out.y0 = get_float(f.required(K.y0), at / "y0");
    out.x1 = get_float(f.required(K.x1), at / "x1");
    out.y1 = get_float(f.required(K.y1), at / "y1");
    if (PyObject* v = f.optional(K.building_armor)) out.building_armor = get_int(v, at / "building_armor");
    if (PyObject* v = f.optional(K.crest); v && v != Py_None) {
        const Path c = at / "crest";
        get_list(v, c);
        if (PyList_GET_SIZE(v) != 2) bad(c, "expected 2 items, got " + std::to_string(PyList_GET_SIZE(v)));
        out.crest = std::make_pair(get_point(PyList_GET_ITEM(v, 0), c[0]), get_point(PyList_GET_ITEM(v, 1), c[1]));
    }
    if (PyObject* v = f.optional(K.well_lit)) out.well_lit = get_bool(v, at / "well_lit");
    f.finish({K.kind, K.x0, K.y0, K.x1, K.y1, K.building_armor, K.crest, K.well_lit});
    if (!(out.x0 < out.x1)) bad(at / "x1", "must exceed x0");
    if (!(out.y0 < out.y1)) bad(at / "y1", "must exceed y0");
    constexpr double slack = 1e-9;  // the reference's tolerance in these checks
    if (out.kind == nq::Terrain::building) {
        if (out.x1 - out.x0 > limits.building_max_w + slack || out.y1 - out.y0 > limits.building_max_h + slack) {
            bad(at, "building larger than the table's largest (19.4.1)");
        }
        const auto& r = limits.building_ratings;
        if (out.building_armor != 0 && std::find(r.begin(), r.end(), out.building_armor) == r.end()) {
            bad(at / "building_armor", std::to_string(out.building_armor) + " is not 0 or a rating");
        }
    } else if (out.building_armor != 0) {
        bad(at / "building_armor", "only buildings have armour");
    }
    if (out.kind == nq::Terrain::hill) {
        if (!out.crest) {  // Feature._default_crest: the long centre line
            if (out.x1 - out.x0 >= out.y1 - out.y0) {
                const double ym = (out.y0 + out.y1) / 2.0;
                out.crest = std::make_pair(nq::Point{out.x0, ym}, nq::Point{out.x1, ym});
            } else {
                const double xm = (out.x0 + out.x1) / 2.0;
                out.crest = std::make_pair(nq::Point{xm, out.y0}, nq::Point{xm, out.y1});
            }
        }
        for (const nq::Point p : {out.crest->first, out.crest->second}) {
            if (nq::point_rect_distance(p, out.x0, out.y0, out.x1, out.y1) > slack) {
                bad(at / "crest", "a point lies outside the hill");
            }
        }
    } else if (out.crest) {
        bad(at / "crest", "only hills have a crest");
    }
    // Battlefield.__post_init__: a feature lies on the table
    if (out.x0 < -slack || out.y0 < -slack || out.x1 > bf.width + slack || out.y1 > bf.height + slack) {
        bad(at, "lies partly off the table");
    }
    return out;
}

std::shared_ptr<const nq::Battlefield> get_battlefield(PyObject* o, const Path& at,
                                                       const nq::StateLimits& limits) {
    Fields f(o, at, "Battlefield");
    auto out = std::make_shared<nq::Battlefield>();
    for (auto [key, name, slot] : {std::tuple{K.width, "width", &out->width},
                                   std::tuple{K.height, "height", &out->height}}) {
        if (PyObject* v = f.optional(key)) {
            *slot = get_float(v, at / name);
            if (!(*slot > 0)) bad(at / name, "expected a positive number, got " + quote(v));
        }
    }
    if (PyObject* v = f.optional(K.night)) out->night = get_bool(v, at / "night");
    if (PyObject* v = f.optional(K.inclement_weather)) out->inclement_weather = get_bool(v, at / "inclement_weather");
    if (PyObject* v = f.optional(K.features)) {
        out->features = list_of(v, at / "features", [&](PyObject* item, const Path& p) {
            return get_feature(item, p, *out, limits);
        });
    }
    f.finish({K.width, K.height, K.features, K.night, K.inclement_weather});
    return out;
}

std::shared_ptr<const nq::BattleOptions> get_options(PyObject* o, const Path& at) {
    Fields f(o, at, "BattleOptions");
    auto out = std::make_shared<nq::BattleOptions>();
    nq::BattleOptions& x = *out;
    if (PyObject* v = f.optional(K.max_turns)) x.max_turns = get_int(v, at / "max_turns");
    if (PyObject* v = f.optional(K.base_radius)) x.base_radius = get_float(v, at / "base_radius");
    if (PyObject* v = f.optional(K.star_free_will)) x.star_free_will = get_bool(v, at / "star_free_will");
    if (PyObject* v = f.optional(K.spread_fire_rule)) x.spread_fire_rule = get_enum(v, at / "spread_fire_rule", nq::kSpreadFire);
    if (PyObject* v = f.optional(K.in_sight_free_move)) x.in_sight_free_move = get_bool(v, at / "in_sight_free_move");
    if (PyObject* v = f.optional(K.reaction_fire_once_per_enemy)) x.reaction_fire_once_per_enemy = get_bool(v, at / "reaction_fire_once_per_enemy");
    if (PyObject* v = f.optional(K.leave_wrecks)) x.leave_wrecks = get_bool(v, at / "leave_wrecks");
    if (PyObject* v = f.optional(K.command_groups)) x.command_groups = get_enum(v, at / "command_groups", nq::kCommandGroups);
    if (PyObject* v = f.optional(K.group_splits)) x.group_splits = get_enum(v, at / "group_splits", nq::kGroupSplits);
    if (PyObject* v = f.optional(K.lucky)) x.lucky = get_enum(v, at / "lucky", nq::kLucky);
    if (PyObject* v = f.optional(K.marksman)) x.marksman = get_enum(v, at / "marksman", nq::kMarksman);
    if (PyObject* v = f.optional(K.move_directions)) x.move_directions = get_int(v, at / "move_directions");
    if (PyObject* v = f.optional(K.move_fractions)) x.move_fractions = list_of(v, at / "move_fractions", get_float);
    if (PyObject* v = f.optional(K.unseen_bases)) x.unseen_bases = get_enum(v, at / "unseen_bases", nq::kUnseenBases);
    if (PyObject* v = f.optional(K.in_sight_spent_fire)) x.in_sight_spent_fire = get_enum(v, at / "in_sight_spent_fire", nq::kInSightSpentFire);
    if (PyObject* v = f.optional(K.several_chargers)) x.several_chargers = get_enum(v, at / "several_chargers", nq::kSeveralChargers);
    if (PyObject* v = f.optional(K.choose_facing)) x.choose_facing = get_bool(v, at / "choose_facing");
    if (PyObject* v = f.optional(K.rules)) {
        const Path r = at / "rules";
        Fields g(v, r, "RulesOptions");
        nq::RulesOptions& y = x.rules;
        if (PyObject* w = g.optional(K.zhuh_zhuh_restriction)) y.zhuh_zhuh_restriction = get_enum(w, r / "zhuh_zhuh_restriction", nq::kZhuhZhuhRestriction);
        if (PyObject* w = g.optional(K.gun_medium_stats)) y.gun_medium_stats = get_enum(w, r / "gun_medium_stats", nq::kGunMediumStats);
        if (PyObject* w = g.optional(K.strict_mounting)) y.strict_mounting = get_bool(w, r / "strict_mounting");
        if (PyObject* w = g.optional(K.pdf_c4_target)) y.pdf_c4_target = get_enum(w, r / "pdf_c4_target", nq::kPdfC4Target);
        if (PyObject* w = g.optional(K.free_company_races)) y.free_company_races = get_enum(w, r / "free_company_races", nq::kFreeCompanyRaces);
        g.finish({K.zhuh_zhuh_restriction, K.gun_medium_stats, K.strict_mounting, K.pdf_c4_target, K.free_company_races});
    }
    f.finish({K.max_turns, K.base_radius, K.star_free_will, K.spread_fire_rule, K.in_sight_free_move,
              K.reaction_fire_once_per_enemy, K.leave_wrecks, K.command_groups, K.group_splits, K.lucky,
              K.marksman, K.move_directions, K.move_fractions, K.unseen_bases, K.in_sight_spent_fire,
              K.several_chargers, K.choose_facing, K.rules});
    return out;
}

std::array<std::int64_t, nq::kLocations> get_armor(PyObject* o, const Path& at) {
    get_list(o, at);
    if (PyList_GET_SIZE(o) != static_cast<Py_ssize_t>(nq::kLocations)) {
        bad(at, "expected " + std::to_string(nq::kLocations) + " values");
    }
    std::array<std::int64_t, nq::kLocations> out{};
    for (std::size_t i = 0; i < nq::kLocations; ++i) {
        out[i] = get_int(PyList_GET_ITEM(o, static_cast<Py_ssize_t>(i)), at[static_cast<Py_ssize_t>(i)]);
    }
    return out;
}

nq::MountedItem get_item(PyObject* o, const Path& at) {
    Fields f(o, at, "MountedItem");
    nq::MountedItem out;
    out.item = get_enum(f.required(K.item), at / "item", nq::kItemType);
    out.location = get_enum(f.required(K.location), at / "location", nq::kLocation);
    out.wv = get_int(f.required(K.wv), at / "wv");
    if (PyObject* v = f.required(K.range); v != Py_None) out.range = get_int(v, at / "range");
    out.target = get_int(f.required(K.target), at / "target");
    out.impact = get_int(f.required(K.impact), at / "impact");
    out.label = get_str(f.required(K.label), at / "label");
    f.finish({K.item, K.location, K.wv, K.range, K.target, K.impact, K.label});
    return out;
}

nq::MechDesign get_design(PyObject* o, const Path& at) {
    Fields f(o, at, "MechDesign");
    nq::MechDesign out;
    out.id = get_str(f.required(K.id), at / "id");
    out.name = get_str(f.required(K.name), at / "name");
    out.faction = get_enum(f.required(K.faction), at / "faction", nq::kFaction);
    out.mech_class = get_int(f.required(K.mech_class), at / "mech_class");
    out.speed = get_int(f.required(K.speed), at / "speed");
    out.armor = get_armor(f.required(K.armor), at / "armor");
    out.items = list_of(f.required(K.items), at / "items", get_item);
    out.notes = list_of(f.required(K.notes), at / "notes", get_str);
    out.capacity = get_int(f.required(K.capacity), at / "capacity");
    out.ews_bonus = get_int(f.required(K.ews_bonus), at / "ews_bonus");
    f.finish({K.id, K.name, K.faction, K.mech_class, K.speed, K.armor, K.items, K.notes, K.capacity, K.ews_bonus});
    return out;
}

nq::Pilot get_pilot(PyObject* o, const Path& at) {
    Fields f(o, at, "Pilot");
    nq::Pilot out;
    out.name = get_str(f.required(K.name), at / "name");
    out.faction = get_enum(f.required(K.faction), at / "faction", nq::kFaction);
    out.race = get_enum(f.required(K.race), at / "race", nq::kRace);
    out.rep = get_int(f.required(K.rep), at / "rep");
    out.star = get_bool(f.required(K.star), at / "star");
    out.attributes = list_of(f.required(K.attributes), at / "attributes",
                             [](PyObject* v, const Path& p) { return get_enum(v, p, nq::kAttribute); });
    f.finish({K.name, K.faction, K.race, K.rep, K.star, K.attributes});
    return out;
}

template <class V>
auto optional_enum(PyObject* v, const Path& at, const V& vocab) -> std::optional<decltype(get_enum(v, at, vocab))> {
    if (v == nullptr || v == Py_None) return std::nullopt;
    return get_enum(v, at, vocab);
}

nq::Mech get_mech(PyObject* o, const Path& at) {
    Fields f(o, at, "Mech");
    nq::Mech m;
    auto record = std::make_shared<nq::MechRecord>();
    m.id = get_int(f.required(K.id), at / "id");
    m.side = get_enum(f.required(K.side), at / "side", nq::kSide);
    record->name = get_str(f.required(K.name), at / "name");
    record->design = get_design(f.required(K.design), at / "design");
    record->pilot = get_pilot(f.required(K.pilot), at / "pilot");
    m.record = std::move(record);
    m.rep = get_int(f.required(K.rep), at / "rep");
    m.armor = get_armor(f.required(K.armor), at / "armor");
    m.speed = get_int(f.required(K.speed), at / "speed");
    m.pos = get_point(f.required(K.pos), at / "pos");
    m.heading = get_float(f.required(K.heading), at / "heading");
    m.team = get_int(f.required(K.team), at / "team");
    m.rank = optional_enum(f.optional(K.rank), at / "rank", nq::kRank);
    if (PyObject* v = f.optional(K.twist)) m.twist = get_int(v, at / "twist");
    if (PyObject* v = f.optional(K.status)) m.status = get_enum(v, at / "status", nq::kStatus);
    if (PyObject* v = f.optional(K.prone)) m.prone = get_bool(v, at / "prone");
    if (PyObject* v = f.optional(K.moved)) m.moved = get_float(v, at / "moved");
    if (PyObject* v = f.optional(K.lost_limbs)) {
        m.lost_limbs = list_of(v, at / "lost_limbs", [](PyObject* x, const Path& p) { return get_enum(x, p, nq::kLocation); });
    }
    if (PyObject* v = f.optional(K.inoperable)) m.inoperable = list_of(v, at / "inoperable", get_int);
    m.removed = optional_enum(f.optional(K.removed), at / "removed", nq::kRemoval);
    if (PyObject* v = f.optional(K.fired_this_activation)) m.fired_this_activation = get_bool(v, at / "fired_this_activation");
    if (PyObject* v = f.optional(K.flamer_fired_turn)) m.flamer_fired_turn = get_bool(v, at / "flamer_fired_turn");
    if (PyObject* v = f.optional(K.lucky_used)) m.lucky_used = get_bool(v, at / "lucky_used");
    if (PyObject* v = f.optional(K.resilient_used)) m.resilient_used = get_bool(v, at / "resilient_used");
    if (PyObject* v = f.optional(K.hard_as_nails_used)) m.hard_as_nails_used = get_bool(v, at / "hard_as_nails_used");
    if (PyObject* v = f.optional(K.reaction_fired_at)) m.reaction_fired_at = list_of(v, at / "reaction_fired_at", get_int);
    if (PyObject* v = f.optional(K.hidden_from)) m.hidden_from = list_of(v, at / "hidden_from", get_int);
    f.finish({K.id, K.side, K.name, K.design, K.pilot, K.rep, K.armor, K.speed, K.pos, K.heading, K.team,
              K.rank, K.twist, K.status, K.prone, K.moved, K.lost_limbs, K.inoperable, K.removed,
              K.fired_this_activation, K.flamer_fired_turn, K.lucky_used, K.resilient_used,
              K.hard_as_nails_used, K.reaction_fired_at, K.hidden_from});
    return m;
}

template <class T, class F>
nq::SideMap<T> side_map(PyObject* o, const Path& at, F&& value) {
    if (!PyDict_Check(o)) bad(at, "expected an object, got " + quote(o));
    nq::SideMap<T> out;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &k, &v)) {
        const nq::Side side = get_enum(k, at.at_key(k), nq::kSide);
        out.insert(side, value(v, at.at_key(k)));
    }
    return out;
}

std::vector<std::pair<std::int64_t, std::int64_t>> int_map(PyObject* o, const Path& at) {
    if (!PyDict_Check(o)) bad(at, "expected an object, got " + quote(o));
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    out.reserve(static_cast<std::size_t>(PyDict_GET_SIZE(o)));
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &k, &v)) {
        const std::int64_t key = int_key(k, at);
        for (const auto& kv : out) {
            if (kv.first == key) bad(at.at_key(k), "key given twice");
        }
        out.emplace_back(key, get_int(v, at.at_key(k)));
    }
    return out;
}

std::optional<nq::Side> optional_side(PyObject* v, const Path& at) {
    return optional_enum(v, at, nq::kSide);
}

Battle from_dict(PyObject* o, const nq::StateLimits& limits, bool check) {
    const Path root{nullptr, "battle"};
    if (!PyDict_Check(o)) {
        throw wargym::StateError("battle", std::string("a battle must be a JSON object, got ") +
                                               Py_TYPE(o)->tp_name);
    }
    Fields f(o, root, "Battle");
    PyObject* version = f.optional(K.version);
    if (!version || !PyLong_Check(version) || PyBool_Check(version) ||
        get_int(version, root / "version") != nq::kStateVersion) {
        const std::string got = version ? quote(version) : "None";
        throw wargym::StateError("battle.version", "battle format version " + got +
                                                       "; this engine reads " + std::to_string(nq::kStateVersion));
    }
    Battle b;
    const std::int64_t depth = limits.max_json_depth;
    b.battlefield = get_battlefield(f.required(K.battlefield), root / "battlefield", limits);
    b.options = get_options(f.required(K.options), root / "options");
    {
        PyObject* mechs = f.required(K.mechs);
        const Path at = root / "mechs";
        if (!PyDict_Check(mechs)) bad(at, "expected an object, got " + quote(mechs));
        b.mechs.reserve(static_cast<std::size_t>(PyDict_GET_SIZE(mechs)));
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Next(mechs, &pos, &k, &v)) {
            const std::int64_t key = int_key(k, at);
            nq::Mech m = get_mech(v, at.at_key(k));
            if (m.id != key) bad(at.at_key(k), "id field says " + std::to_string(m.id));
            b.mechs.push_back(std::move(m));
        }
        std::sort(b.mechs.begin(), b.mechs.end(), [](const nq::Mech& x, const nq::Mech& y) { return x.id < y.id; });
        for (std::size_t i = 1; i < b.mechs.size(); ++i) {
            if (b.mechs[i].id == b.mechs[i - 1].id) bad(at, "mech " + std::to_string(b.mechs[i].id) + " given twice");
        }
    }
    if (PyObject* v = f.optional(K.turn)) b.turn = get_int(v, root / "turn");
    if (PyObject* v = f.optional(K.dice)) b.dice = side_map<std::int64_t>(v, root / "dice", get_int);
    b.first_side = optional_side(f.optional(K.first_side), root / "first_side");
    b.active_side = optional_side(f.optional(K.active_side), root / "active_side");
    if (PyObject* v = f.optional(K.group_of)) b.group_of = int_map(v, root / "group_of");
    if (PyObject* v = f.optional(K.seen_pairs)) {
        b.seen_pairs = list_of(v, root / "seen_pairs", [](PyObject* x, const Path& p) {
            get_list(x, p);
            if (PyList_GET_SIZE(x) != 2) bad(p, "expected 2 items, got " + std::to_string(PyList_GET_SIZE(x)));
            return std::array<std::int64_t, 2>{get_int(PyList_GET_ITEM(x, 0), p[0]), get_int(PyList_GET_ITEM(x, 1), p[1])};
        });
    }
    if (PyObject* v = f.optional(K.losses)) {
        b.losses = side_map<std::int64_t>(v, root / "losses", get_int);
    } else {
        b.losses.insert(nq::Side::blue, 0);
        b.losses.insert(nq::Side::red, 0);
    }
    if (PyObject* v = f.optional(K.flames)) {
        b.flames = list_of(v, root / "flames", [](PyObject* x, const Path& p) {
            get_list(x, p);
            if (PyList_GET_SIZE(x) != 2) bad(p, "expected 2 items, got " + std::to_string(PyList_GET_SIZE(x)));
            return std::array<nq::Point, 2>{get_point(PyList_GET_ITEM(x, 0), p[0]), get_point(PyList_GET_ITEM(x, 1), p[1])};
        });
    }
    if (PyObject* v = f.optional(K.wrecks)) b.wrecks = list_of(v, root / "wrecks", get_point);
    if (PyObject* v = f.optional(K.frames)) b.frames = frames_io::read_frames(v, "battle.frames", depth);
    if (PyObject* v = f.optional(K.decision); v && v != Py_None) {
        const Path at = root / "decision";
        Fields d(v, at, "Decision");
        nq::Decision decision;
        decision.side = get_enum(d.required(K.side), at / "side", nq::kSide);
        decision.kind = get_enum(d.required(K.kind), at / "kind", nq::kDecisionKind);
        if (PyObject* w = d.optional(K.mech); w && w != Py_None) decision.mech = get_int(w, at / "mech");
        d.finish({K.side, K.kind, K.mech});
        b.decision = decision;
    }
    if (PyObject* v = f.optional(K.over)) b.over = get_bool(v, root / "over");
    b.winner = optional_side(f.optional(K.winner), root / "winner");
    if (PyObject* v = f.optional(K.end_reason)) b.end_reason = get_str(v, root / "end_reason");
    if (PyObject* v = f.optional(K.home_edges)) b.home_edges = side_map<std::string>(v, root / "home_edges", get_str);
    if (PyObject* v = f.optional(K.building_armor)) b.building_armor = int_map(v, root / "building_armor");
    if (PyObject* v = f.optional(K.np); v && v != Py_None) b.np = get_json_object(v, root / "np", depth);
    if (PyObject* v = f.optional(K.mission); v && v != Py_None) b.mission = get_json_object(v, root / "mission", depth);
    f.optional(K.options_cache);  // dataclass fields the reference accepts and never writes
    f.optional(K.geometry_cache);
    f.finish({K.battlefield, K.options, K.mechs, K.turn, K.dice, K.first_side, K.active_side, K.group_of,
              K.seen_pairs, K.losses, K.flames, K.wrecks, K.frames, K.decision, K.over, K.winner,
              K.end_reason, K.home_edges, K.building_armor, K.np, K.mission, K.version,
              K.options_cache, K.geometry_cache});
    if (check) nq::check_battle(b, limits);
    return b;
}

// -- the limits handed in by the glue (validity.py's constants) ------------------------------
std::int64_t limit_int(nb::handle src, const char* name) {
    if (!PyObject_HasAttrString(src.ptr(), name)) wrong_type("validity", "the validity module", src);
    return integer(src.attr(name), std::string("validity.") + name, 0, std::numeric_limits<std::int64_t>::max());
}

nq::StateLimits make_limits(nb::handle src, nb::handle terrain, nb::handle depth) {
    nq::StateLimits l;
    l.max_mechs = limit_int(src, "MAX_MECHS");
    l.max_table = real(src.attr("MAX_TABLE"), "validity.MAX_TABLE");
    l.max_features = limit_int(src, "MAX_FEATURES");
    l.max_turns = limit_int(src, "MAX_TURNS");
    l.max_directions = limit_int(src, "MAX_DIRECTIONS");
    l.max_fractions = limit_int(src, "MAX_FRACTIONS");
    l.max_points = limit_int(src, "MAX_POINTS");
    l.max_frames = limit_int(src, "MAX_FRAMES");
    l.max_rep = limit_int(src, "MAX_REP");
    const Path root{nullptr, "validity"};
    nb::object twists = nb::steal(ok(PySequence_List(src.attr("TWISTS").ptr())));
    nb::object edges = nb::steal(ok(PySequence_List(src.attr("EDGES").ptr())));
    l.twists = list_of(twists.ptr(), root / "TWISTS", get_int);
    l.edges = list_of(edges.ptr(), root / "EDGES", get_str);
    for (nb::handle limb : src.attr("LIMBS")) {
        l.limbs.push_back(get_enum(limb.attr("value").ptr(), root / "LIMBS", nq::kLocation));
    }
    l.max_json_depth = integer(depth, "max_json_depth", 1, 1000);
    if (!PyObject_HasAttrString(terrain.ptr(), "building_max_size") ||
        !PyObject_HasAttrString(terrain.ptr(), "building_armor")) {
        wrong_type("terrain", "a terrain_tables.TerrainConfig", terrain);
    }
    nb::object size = nb::steal(ok(PySequence_List(terrain.attr("building_max_size").ptr())));
    const Path t{nullptr, "terrain"};
    if (PyList_GET_SIZE(size.ptr()) != 2) bad(t / "building_max_size", "expected (width, height)");
    l.building_max_w = get_float(PyList_GET_ITEM(size.ptr(), 0), t / "building_max_size");
    l.building_max_h = get_float(PyList_GET_ITEM(size.ptr(), 1), t / "building_max_size");
    nb::object ratings = nb::steal(ok(PySequence_List(terrain.attr("building_armor").attr("values")().ptr())));
    l.building_ratings = list_of(ratings.ptr(), t / "building_armor", get_int);
    nb::object parts = nb::module_::import_("wargym.rules.no_quarter.battle.validity_parts");
    l.max_count = integer(parts.attr("MAX_COUNT"), "validity_parts.MAX_COUNT", 0, std::numeric_limits<std::int64_t>::max());
    return l;
}

}  // namespace state_io
