// Bindings of the skirmish set-up (forces/setup.hpp, forces/pilots.hpp,
// battlefield/battlefield_gen.hpp) in _core.no_quarter: SetupTables (built from the glue's
// plain data, native/no_quarter/setup.py), new_skirmish_setup and generate_battlefield.
// The rng crosses as rng.bit_generator.state dicts (numpy_random_bindings.hpp).
#include "../../dice_bindings.hpp"
#include "setup_bindings.hpp"

#include <Python.h>

#include <string>

#include "../../errors.hpp"
#include "../../numpy_random_bindings.hpp"
#include "../../pyvalues.hpp"
#include "../battle/state_io.hpp"
#include "setup.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace wargym::no_quarter {

namespace {

// -- reading the glue's tables: a refusal names tables.<key> ---------------------------------
nb::handle key(nb::handle d, const char* k, const std::string& at) {
    if (!PyDict_Check(d.ptr())) wrong_type(at, "a dict", d);
    PyObject* v = PyDict_GetItemString(d.ptr(), k);
    if (v == nullptr) throw ArgumentError(at, std::string("the key ") + k + " is missing");
    return v;
}

std::int64_t as_int(nb::handle v, const std::string& at) {
    if (!PyLong_Check(v.ptr()) || PyBool_Check(v.ptr())) wrong_type(at, "an int", v);
    int overflow = 0;
    const long long out = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (overflow != 0) throw ArgumentError(at, short_repr(v) + " does not fit 64 bits");
    return out;
}

double as_float(nb::handle v, const std::string& at) {
    if (!PyFloat_Check(v.ptr())) wrong_type(at, "a float", v);
    return PyFloat_AS_DOUBLE(v.ptr());
}

std::string as_str(nb::handle v, const std::string& at) {
    if (!PyUnicode_Check(v.ptr())) wrong_type(at, "a str", v);
    Py_ssize_t n = 0;
    const char* data = PyUnicode_AsUTF8AndSize(v.ptr(), &n);
    if (data == nullptr) throw nb::python_error();
    return std::string(data, static_cast<std::size_t>(n));
}

template <class V>
auto as_enum(nb::handle v, const std::string& at, const V& vocab) {
    const std::string text = as_str(v, at);
    auto e = vocab.find(text);
    if (!e) throw ArgumentError(at, short_repr(v) + " is not a " + vocab.name);
    return *e;
}

template <class F>
auto as_list(nb::handle v, const std::string& at, F&& item) {
    if (!PyList_Check(v.ptr())) wrong_type(at, "a list", v);
    std::vector<decltype(item(v, at))> out;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(v.ptr()); ++i) {
        out.push_back(item(PyList_GET_ITEM(v.ptr(), i), at + "[" + std::to_string(i) + "]"));
    }
    return out;
}

std::vector<std::int64_t> int_list(nb::handle v, const std::string& at) {
    return as_list(v, at, as_int);
}

PilotTables pilot_tables(nb::handle d) {
    const std::string at = "tables";
    PilotTables t;
    nb::handle races = key(d, "faction_race", at);
    nb::handle reps = key(d, "pilot_rep", at);
    for (std::size_t i = 0; i < kFaction.size; ++i) {
        const std::string f(kFaction.values[i]);
        nb::handle r = key(races, f.c_str(), at + ".faction_race");
        if (!r.is_none()) t.faction_race[i] = as_enum(r, at + ".faction_race." + f, kRace);
        if (PyObject* row = PyDict_GetItemString(reps.ptr(), f.c_str())) {
            t.pilot_rep[i] = int_list(row, at + ".pilot_rep." + f);
        }
    }
    if (PyObject* row = PyDict_GetItemString(reps.ptr(), "xeog")) {
        t.pilot_rep_xeog = int_list(row, at + ".pilot_rep.xeog");
    }
    t.star_rep = as_int(key(d, "star_rep", at), at + ".star_rep");
    auto race = [](nb::handle v, const std::string& p) { return as_enum(v, p, kRace); };
    auto attribute = [](nb::handle v, const std::string& p) { return as_enum(v, p, kAttribute); };
    t.free_company_race_roll = as_list(key(d, "free_company_race_roll", at), at + ".free_company_race_roll", race);
    t.mixed_faces = int_list(key(d, "mixed_faces", at), at + ".mixed_faces");
    t.race_count = int_list(key(d, "race_count", at), at + ".race_count");
    t.attribute_table = as_list(key(d, "attribute_table", at), at + ".attribute_table",
                                [&](nb::handle v, const std::string& p) { return as_list(v, p, attribute); });
    for (Attribute a : as_list(key(d, "star_rerolls", at), at + ".star_rerolls", attribute)) {
        t.star_rerolls[static_cast<std::size_t>(a)] = true;
    }
    for (Attribute a : as_list(key(d, "choose_any", at), at + ".choose_any", attribute)) {
        t.choose_any[static_cast<std::size_t>(a)] = true;
    }
    t.preference = as_list(key(d, "preference", at), at + ".preference", attribute);
    nb::handle rolls = key(d, "random_attribute_rolls", at);
    for (std::size_t i = 0; i < kRace.size; ++i) {
        const std::string r(kRace.values[i]);
        t.random_attribute_rolls[i] = as_int(key(rolls, r.c_str(), at + ".random_attribute_rolls"),
                                             at + ".random_attribute_rolls." + r);
    }
    t.free_company_races = as_enum(key(d, "free_company_races", at), at + ".free_company_races",
                                   kFreeCompanyRaces);
    return t;
}

SetupTables setup_tables(nb::handle d) {
    const std::string at = "tables";
    if (!PyDict_Check(d.ptr())) wrong_type(at, "a dict", d);
    SetupTables t;
    t.pilots = pilot_tables(d);
    t.terrain.building_armors = int_list(key(d, "building_armors", at), at + ".building_armors");
    if (t.terrain.building_armors.empty()) throw ArgumentError(at + ".building_armors", "empty");
    t.terrain.building_max_w = as_float(key(d, "building_max_w", at), at + ".building_max_w");
    t.terrain.building_max_h = as_float(key(d, "building_max_h", at), at + ".building_max_h");
    t.terrain.road_width = as_float(key(d, "road_width", at), at + ".road_width");
    t.terrain.deep_water_shore_band = as_float(key(d, "deep_water_shore_band", at), at + ".deep_water_shore_band");
    nb::handle pools = key(d, "pools", at);
    nb::handle formation = key(d, "formation", at);
    for (std::size_t i = 0; i < kFaction.size; ++i) {
        const std::string f(kFaction.values[i]);
        nb::handle pool = key(pools, f.c_str(), at + ".pools");
        if (!PyList_Check(pool.ptr())) wrong_type(at + ".pools." + f, "a list", pool);
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(pool.ptr()); ++j) {
            const state_io::Path root{nullptr, "tables"};
            const state_io::Path p = root / "pools";
            t.pools[i].push_back(std::make_shared<const MechDesign>(
                state_io::get_design(PyList_GET_ITEM(pool.ptr(), j), p[j])));
        }
        const std::vector<std::int64_t> row = int_list(key(formation, f.c_str(), at + ".formation"), at + ".formation." + f);
        if (row.size() != 2 || row[0] < 1 || row[1] < 1) {
            throw ArgumentError(at + ".formation." + f, "expected [squad_teams, platoon_squads] >= 1");
        }
        t.formation[i] = {row[0], row[1]};
    }
    t.team_size = as_int(key(d, "team_size", at), at + ".team_size");
    if (t.team_size < 1) throw ArgumentError(at + ".team_size", "must be at least 1");
    t.red_teams = as_int(key(d, "red_teams", at), at + ".red_teams");
    nb::handle edges = key(d, "home_edges", at);
    nb::handle facing = key(d, "facing", at);
    for (std::size_t s = 0; s < kSide.size; ++s) {
        const std::string side(kSide.values[s]);
        t.home_edges[s] = as_str(key(edges, side.c_str(), at + ".home_edges"), at + ".home_edges." + side);
        t.facing[s] = as_float(key(facing, side.c_str(), at + ".facing"), at + ".facing." + side);
    }
    return t;
}

// -- arguments --------------------------------------------------------------------------------
Dice& dice_arg(nb::handle h) { return native_dice_arg(h); }

const SetupTables& tables_arg(nb::handle h) {
    const SetupTables* t = nullptr;
    if (!nb::try_cast(h, t, false) || t == nullptr) wrong_type("tables", "a SetupTables", h);
    return *t;
}

Faction faction_arg(nb::handle h, const std::string& name) {
    if (!PyUnicode_Check(h.ptr())) wrong_type(name, "a faction name (str)", h);
    const std::string text = as_str(h, name);
    auto f = kFaction.find(text);
    if (!f) throw ArgumentError(name, short_repr(h) + " is not a Faction");
    return *f;
}

std::int64_t count_arg(nb::handle h, const std::string& name, std::int64_t lo, std::int64_t hi) {
    const std::int64_t v = as_int(h, name);
    if (v < lo || v > hi) {
        throw ArgumentError(name, std::to_string(v) + " is not in " +
                                      std::to_string(lo) + ".." + std::to_string(hi));
    }
    return v;
}

// -- results as the reference's to_dict -------------------------------------------------------
template <class V, class E>
nb::str name_of(const V& vocab, E e) {
    std::string_view s = vocab[e];
    return nb::str(s.data(), s.size());
}

template <class T, class F>
nb::list list_of(const std::vector<T>& values, F&& item) {
    nb::list out;
    for (const T& v : values) out.append(item(v));
    return out;
}

nb::dict event_dict(const FreeCompanyRacesEvent& e) {
    nb::dict d;
    d["type"] = "FreeCompanyRaces";
    d["side"] = e.side ? nb::object(name_of(kSide, *e.side)) : nb::none();
    d["race_face"] = e.race_face;
    d["mixing_face"] = e.mixing_face;
    d["count_face"] = e.count_face ? nb::object(nb::int_(*e.count_face)) : nb::none();
    d["extra_faces"] = list_of(e.extra_faces, [](std::int64_t v) { return nb::int_(v); });
    d["races"] = list_of(e.races, [](Race r) { return name_of(kRace, r); });
    d["members"] = list_of(e.members, [](std::int64_t v) { return nb::int_(v); });
    return d;
}

nb::dict event_dict(const PilotCreatedEvent& e) {
    auto attr = [](Attribute a) { return name_of(kAttribute, a); };
    nb::dict d;
    d["type"] = "PilotCreated";
    d["mech"] = e.mech ? nb::object(nb::int_(*e.mech)) : nb::none();
    d["name"] = nb::str(e.name.data(), e.name.size());
    d["faction"] = name_of(kFaction, e.faction);
    d["star"] = e.star;
    d["race"] = name_of(kRace, e.race);
    d["race_faces"] = list_of(e.race_faces, [](std::int64_t v) { return nb::int_(v); });
    d["rep"] = e.rep;
    d["rep_face"] = e.rep_face ? nb::object(nb::int_(*e.rep_face)) : nb::none();
    d["attribute_faces"] = list_of(e.attribute_faces, [](const auto& p) {
        nb::list pair;
        pair.append(p.first);
        pair.append(p.second);
        return pair;
    });
    d["rolled"] = list_of(e.rolled, attr);
    d["picks"] = list_of(e.picks, [&](const auto& p) {
        nb::list pair;
        pair.append(nb::str(p.first.data(), p.first.size()));
        pair.append(attr(p.second));
        return pair;
    });
    d["attributes"] = list_of(e.attributes, attr);
    return d;
}

nb::dict battlefield_dict(const Battlefield& bf) {
    nb::list features;
    for (const Feature& f : bf.features) {
        nb::dict d;
        d["kind"] = name_of(kTerrain, f.kind);
        d["x0"] = f.x0;
        d["y0"] = f.y0;
        d["x1"] = f.x1;
        d["y1"] = f.y1;
        d["building_armor"] = f.building_armor;
        if (f.crest) {
            nb::list a, b, crest;
            a.append(f.crest->first.x);
            a.append(f.crest->first.y);
            b.append(f.crest->second.x);
            b.append(f.crest->second.y);
            crest.append(a);
            crest.append(b);
            d["crest"] = crest;
        } else {
            d["crest"] = nb::none();
        }
        d["well_lit"] = f.well_lit;
        features.append(d);
    }
    nb::dict out;
    out["width"] = bf.width;
    out["height"] = bf.height;
    out["features"] = features;
    out["night"] = bf.night;
    out["inclement_weather"] = bf.inclement_weather;
    return out;
}

}  // namespace

void bind_setup(nb::module_& g) {
    nb::class_<SetupTables>(g, "SetupTables",
                            "The set-up's tables (mech pools, formation rows, pilot and terrain tables).")
        .def("__init__", [](SetupTables* self, nb::handle data) { new (self) SetupTables(setup_tables(data)); },
             "data"_a.none(), "From native.no_quarter.setup.setup_tables_data(rules).");
    g.def(
        "new_skirmish_setup",
        [](nb::handle tables, nb::handle state, nb::handle dice, nb::handle blue, nb::handle red,
           nb::handle mechs_per_side, nb::handle stars, nb::handle options, nb::handle max_mechs) {
            const SetupTables& t = tables_arg(tables);
            NumpyGenerator rng(pcg64_state_from_dict(state, "state"));
            Dice& d = dice_arg(dice);
            const Faction b = faction_arg(blue, "blue");
            const Faction r = faction_arg(red, "red");
            const std::int64_t hi = as_int(max_mechs, "max_mechs_per_side");
            const std::int64_t n = count_arg(mechs_per_side, "mechs_per_side", 1, hi);
            const std::int64_t s = as_int(stars, "stars");
            const state_io::Path root{nullptr, "options"};
            std::shared_ptr<const BattleOptions> o = state_io::get_options(options.ptr(), root);
            std::vector<SetupEvent> events;
            Battle battle = new_skirmish_setup(rng, d, t, b, r, n, s, std::move(o), events);
            nb::list out;
            for (const SetupEvent& e : events) {
                out.append(std::visit([](const auto& x) { return event_dict(x); }, e));
            }
            return nb::make_tuple(nb::cast(std::move(battle)), out, pcg64_state_to_dict(rng.state()));
        },
        "tables"_a.none(), "state"_a.none(), "dice"_a.none(), "blue"_a.none(), "red"_a.none(),
        "mechs_per_side"_a.none(), "stars"_a.none(), "options"_a.none(), "max_mechs_per_side"_a.none(),
        "setup.new_skirmish_logged up to advance(): (Battle, set-up event dicts, rng state after).");
    g.def(
        "py_round",
        [](nb::handle x, nb::handle ndigits) {
            const std::int64_t n = count_arg(ndigits, "ndigits", 0, 30);
            if (!PyFloat_Check(x.ptr())) wrong_type("x", "a float", x);
            return pyround(PyFloat_AS_DOUBLE(x.ptr()), static_cast<int>(n));
        },
        "x"_a.none(), "ndigits"_a.none(), "Python's round(x, ndigits) as the set-up computes it.");
    g.def(
        "generate_battlefield",
        [](nb::handle tables, nb::handle state) {
            const SetupTables& t = tables_arg(tables);
            NumpyGenerator rng(pcg64_state_from_dict(state, "state"));
            Battlefield bf = generate_battlefield(rng, t.terrain);
            return nb::make_tuple(battlefield_dict(bf), pcg64_state_to_dict(rng.state()));
        },
        "tables"_a.none(), "state"_a.none(),
        "battlefield_gen.generate_battlefield(rng): (Battlefield.to_dict(), rng state after).");
}

}  // namespace wargym::no_quarter
