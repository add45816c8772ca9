// The Python bindings of the native core: every nanobind declaration lives in this file.
//
// Arguments arrive as Python handles and are converted here, by name, so a bad value raises
// wargym.native.errors.NativeTypeError / NativeArgumentError naming the argument (never a
// bare nanobind TypeError, never an abort). The core's C++ exceptions (errors.hpp) become the
// Python errors of the same meaning through one translator.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dice.hpp"
#include "errors.hpp"
#include "pyvalues.hpp"
#include "no_quarter/sight_movement/geometry.hpp"
#include "no_quarter/battle/events_bindings.hpp"
#include "no_quarter/battle/state_bindings.hpp"
#include "no_quarter/envs/encoding_bindings.hpp"
#include "no_quarter/battle/flow_bindings.hpp"
#include "no_quarter/sight_movement/sight.hpp"
#include "no_quarter/battle/combat_bindings.hpp"
#include "no_quarter/sight_movement/perception_bindings.hpp"
#include "no_quarter/sight_movement/movement_bindings.hpp"
#include "numpy_random_bindings.hpp"
#include "no_quarter/forces/setup_bindings.hpp"
#include "no_quarter/battle/flow_fire_bindings.hpp"
#include "no_quarter/battle/flow_melee_bindings.hpp"

namespace nb = nanobind;
// no_quarter/battle/actions_bindings.hpp (not included: its vocab Side clashes with sight.hpp's)
namespace wargym::no_quarter { void bind_actions(nanobind::module_& g); }
namespace wargym::no_quarter { void bind_codec(nanobind::module_& g); }  // no_quarter/envs/codec_bindings.cpp
namespace wargym::no_quarter { void bind_game(nanobind::module_& g); }  // battle/game_bindings.cpp
namespace wargym::no_quarter { void bind_luck(nanobind::module_& g); }  // no_quarter/battle/luck_bindings.cpp
namespace wargym::no_quarter { void bind_flow_mech(nanobind::module_& g); }  // no_quarter/battle/flow_mech_bindings.cpp
namespace wargym::no_quarter { void bind_enemy(nanobind::module_& g); }  // no_quarter/non_player/enemy_bindings.cpp
using namespace nb::literals;

#ifdef WARGYM_FUZZ
namespace wargym::fuzz {
void bind_fuzz(nb::module_& m);  // native/fuzz/coverage_bindings.cpp, a -DWARGYM_FUZZ=ON build only
}
#endif
namespace nq = wargym::no_quarter;

namespace {

// Python classes the translator raises; set once at import (strong references kept forever).
PyObject* g_type_error = nullptr;       // wargym.native.errors.NativeTypeError
PyObject* g_argument_error = nullptr;   // wargym.native.errors.NativeArgumentError
PyObject* g_exhausted_error = nullptr;  // wargym.rules.errors.DiceScriptExhaustedError
PyObject* g_aspect = nullptr;           // wargym.rules.no_quarter.forces.vocab.Aspect
PyObject* g_state_error = nullptr;      // wargym.native.errors.NativeStateError

using wargym::short_repr;  // pyvalues.hpp
using wargym::wrong_type;

// -- argument conversion ----------------------------------------------------------------------
bool is_bool(nb::handle h) {
    PyObject* type = reinterpret_cast<PyObject*>(Py_TYPE(h.ptr()));
    if (PyBool_Check(h.ptr())) return true;
    // numpy.bool_ has no __index__ in numpy 2 but may have a __float__; refuse it by name.
    PyObject* name = PyObject_GetAttrString(type, "__name__");
    if (!name) {
        PyErr_Clear();
        return false;
    }
    const char* text = PyUnicode_AsUTF8(name);
    const bool found = text && (std::string(text) == "bool" || std::string(text) == "bool_");
    if (!text) PyErr_Clear();
    Py_DECREF(name);
    return found;
}

double real(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    double value;
    if (PyFloat_CheckExact(o)) {
        value = PyFloat_AS_DOUBLE(o);
    } else if (PyLong_CheckExact(o)) {
        value = PyLong_AsDouble(o);
        if (value == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            throw wargym::ArgumentError(name, "expected a finite number, got " + short_repr(h));
        }
    } else if (!is_bool(h) && (PyFloat_Check(o) || PyLong_Check(o) || PyIndex_Check(o))) {
        value = PyFloat_AsDouble(o);
        if (value == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            throw wargym::ArgumentError(name, "expected a finite number, got " + short_repr(h));
        }
    } else {
        wrong_type(name, "a number", h);
    }
    if (!std::isfinite(value)) {
        throw wargym::ArgumentError(name, "expected a finite number, got " + short_repr(h));
    }
    return value;
}

std::int64_t integer(nb::handle h, const std::string& name, std::int64_t lo, std::int64_t hi) {
    PyObject* o = h.ptr();
    if (PyLong_CheckExact(o)) {  // the common case, without the bool and __index__ checks
        int overflow = 0;
        const long long value = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (!overflow && value >= lo && value <= hi) return value;
    }
    if (is_bool(h) || !(PyLong_Check(o) || PyIndex_Check(o))) wrong_type(name, "an integer", h);
    PyObject* index = PyNumber_Index(o);
    if (!index) {
        PyErr_Clear();
        wrong_type(name, "an integer", h);
    }
    int overflow = 0;
    const long long value = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (overflow || value < lo || value > hi) {
        throw wargym::ArgumentError(name, "expected an integer in " + std::to_string(lo) + ".." +
                                              std::to_string(hi) + ", got " + short_repr(h));
    }
    return value;
}

bool flag(nb::handle h, const std::string& name) {
    if (!PyBool_Check(h.ptr())) wrong_type(name, "True or False", h);
    return h.ptr() == Py_True;
}

nq::Point point(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 2) {
        return {real(PyTuple_GET_ITEM(o, 0), name + "[0]"), real(PyTuple_GET_ITEM(o, 1), name + "[1]")};
    }
    if (PyList_Check(o) && PyList_GET_SIZE(o) == 2) {
        return {real(PyList_GET_ITEM(o, 0), name + "[0]"), real(PyList_GET_ITEM(o, 1), name + "[1]")};
    }
    wrong_type(name, "a point (x, y) of two numbers", h);
}

std::vector<nq::Point> points(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (!PyTuple_Check(o) && !PyList_Check(o)) wrong_type(name, "a list of points (x, y)", h);
    nb::sequence seq = nb::borrow<nb::sequence>(h);
    std::vector<nq::Point> out;
    const std::size_t n = nb::len(seq);
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) out.push_back(point(seq[i], name + "[" + std::to_string(i) + "]"));
    return out;
}

using Matrix = nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Vector = nb::ndarray<const std::int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

Matrix matrix(nb::handle h, const std::string& name, std::size_t columns) {
    const std::string shape = "a float64 array of shape (n, " + std::to_string(columns) + ")";
    Matrix m;
    if (!nb::try_cast(h, m, true)) wrong_type(name, shape.c_str(), h);
    if (m.shape(1) != columns) {
        throw wargym::ArgumentError(name, "expected " + shape + ", got shape (" +
                                              std::to_string(m.shape(0)) + ", " +
                                              std::to_string(m.shape(1)) + ")");
    }
    const double* data = m.data();
    for (std::size_t i = 0; i < m.shape(0) * columns; ++i) {
        if (!std::isfinite(data[i])) {
            throw wargym::ArgumentError(name, "row " + std::to_string(i / columns) +
                                                  " holds a value that is not finite");
        }
    }
    return m;
}

std::vector<nq::Rect> rects(nb::handle h, const std::string& name) {
    Matrix m = matrix(h, name, 4);
    std::vector<nq::Rect> out;
    for (std::size_t i = 0; i < m.shape(0); ++i) {
        const nq::Rect r{m(i, 0), m(i, 1), m(i, 2), m(i, 3)};
        if (!(r.x0 <= r.x1 && r.y0 <= r.y1)) {
            throw wargym::ArgumentError(name, "row " + std::to_string(i) +
                                                  " is not a rectangle x0 <= x1, y0 <= y1");
        }
        out.push_back(r);
    }
    return out;
}

double positive(nb::handle config, const char* field) {
    if (!PyObject_HasAttrString(config.ptr(), field)) {
        wrong_type("config", "a terrain_tables.SightConfig", config);
    }
    const double value = real(config.attr(field), std::string("config.") + field);
    if (!(value > 0.0)) {
        throw wargym::ArgumentError(std::string("config.") + field, "expected a positive number");
    }
    return value;
}

// -- objects ----------------------------------------------------------------------------------
struct Bodies {
    std::vector<nq::Body> items;
};

Bodies make_bodies(nb::handle ids, nb::handle xyr) {
    // Integer dtypes only: a float array would be truncated silently by the conversion.
    nb::ndarray<nb::ndim<1>, nb::device::cpu> any_ids;
    Vector id_array;
    if (!nb::try_cast(ids, any_ids, false) ||
        (any_ids.dtype().code != static_cast<std::uint8_t>(nb::dlpack::dtype_code::Int) &&
         any_ids.dtype().code != static_cast<std::uint8_t>(nb::dlpack::dtype_code::UInt)) ||
        !nb::try_cast(ids, id_array, true)) {
        wrong_type("ids", "an integer array of shape (n,)", ids);
    }
    Matrix m = matrix(xyr, "xyr", 3);
    if (m.shape(0) != id_array.shape(0)) {
        throw wargym::ArgumentError("xyr", "expected one row per id (" +
                                               std::to_string(id_array.shape(0)) + "), got " +
                                               std::to_string(m.shape(0)));
    }
    Bodies out;
    out.items.reserve(m.shape(0));
    for (std::size_t i = 0; i < m.shape(0); ++i) {
        if (!(m(i, 2) > 0.0)) {
            throw wargym::ArgumentError("xyr", "row " + std::to_string(i) +
                                                   ": a base radius must be positive");
        }
        out.items.push_back({id_array(i), m(i, 0), m(i, 1), m(i, 2)});
    }
    return out;
}

nq::SightTerrain make_terrain(nb::handle buildings, nb::handle hills, nb::handle crests,
                              nb::handle woods, nb::handle deep_core, nb::handle well_lit,
                              nb::handle night, nb::handle inclement_weather, nb::handle config) {
    nq::SightTerrain t;
    t.buildings = rects(buildings, "buildings");
    const std::vector<nq::Rect> hill_boxes = rects(hills, "hills");
    Matrix crest = matrix(crests, "crests", 5);
    if (crest.shape(0) != hill_boxes.size()) {
        throw wargym::ArgumentError("crests", "expected one row per hill (" +
                                                  std::to_string(hill_boxes.size()) + "), got " +
                                                  std::to_string(crest.shape(0)));
    }
    for (std::size_t i = 0; i < hill_boxes.size(); ++i) {
        t.hills.push_back({hill_boxes[i], crest(i, 0) != 0.0, {crest(i, 1), crest(i, 2)},
                           {crest(i, 3), crest(i, 4)}});
    }
    t.woods = rects(woods, "woods");
    t.deep_core = rects(deep_core, "deep_core");
    t.well_lit = rects(well_lit, "well_lit");
    t.night = flag(night, "night");
    t.inclement_weather = flag(inclement_weather, "inclement_weather");
    t.config.night = positive(config, "night");
    t.config.inside_woods_day = positive(config, "inside_woods_day");
    t.config.inside_woods_night = positive(config, "inside_woods_night");
    t.config.weather_day = positive(config, "weather_day");
    t.config.weather_night = positive(config, "weather_night");
    t.config.well_lit_lifts_weather =
        flag(config.attr("well_lit_lifts_weather"), "config.well_lit_lifts_weather");
    t.config.woods_edge_band = positive(config, "woods_edge_band");
    t.config.hill_crest_band = positive(config, "hill_crest_band");
    return t;
}

nb::object sight_tuple(const nq::SightResult& s) {
    nb::object side = nb::none();
    if (s.blocked_side == nq::BlockedSide::left) side = nb::str("left");
    if (s.blocked_side == nq::BlockedSide::right) side = nb::str("right");
    return nb::make_tuple(s.visible, s.clear_lines, s.building_blocked_lines, s.mech_blocked_lines,
                          side, s.distance, s.bearing_to_observer);
}

nb::tuple point_tuple(nq::Point p) { return nb::make_tuple(p.x, p.y); }

nb::tuple faces_tuple(const std::vector<int>& faces) {
    nb::object out = nb::steal(PyTuple_New(static_cast<Py_ssize_t>(faces.size())));
    for (std::size_t i = 0; i < faces.size(); ++i) {
        PyTuple_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), PyLong_FromLong(faces[i]));
    }
    return nb::borrow<nb::tuple>(out);
}

nb::list int_list(const std::vector<int>& values) {
    nb::list out;
    for (int v : values) out.append(v);
    return out;
}

void raise_argument(PyObject* cls, const wargym::ArgumentError& e) {
    PyObject* exc = PyObject_CallFunction(cls, "ss", e.argument().c_str(), e.what());
    if (exc) {
        PyErr_SetObject(cls, exc);
        Py_DECREF(exc);
    }
}

PyObject* import_attr(const char* module, const char* name) {
    nb::object value = nb::module_::import_(module).attr(name);
    return value.release().ptr();
}

}  // namespace

NB_MODULE(_core, m) {
    m.doc() = "The native engine core of wargym (see docs/native.md).";
    g_type_error = import_attr("wargym.native.errors", "NativeTypeError");
    g_argument_error = import_attr("wargym.native.errors", "NativeArgumentError");
    g_exhausted_error = import_attr("wargym.rules.errors", "DiceScriptExhaustedError");
    wargym::init_short_repr();
    g_aspect = import_attr("wargym.rules.no_quarter.forces.vocab", "Aspect");
    g_state_error = import_attr("wargym.native.errors", "NativeStateError");

    nb::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const wargym::ArgumentTypeError& e) {
            raise_argument(g_type_error, e);
        } catch (const wargym::ArgumentError& e) {
            raise_argument(g_argument_error, e);
        } catch (const wargym::StateError& e) {
            PyObject* exc = PyObject_CallFunction(g_state_error, "ss", e.path().c_str(), e.what());
            if (exc) {
                PyErr_SetObject(g_state_error, exc);
                Py_DECREF(exc);
            }
        } catch (const wargym::DiceScriptExhausted& e) {
            PyErr_SetString(g_exhausted_error, e.what());
        }
    });

    // -- dice (rules/dice.py) ------------------------------------------------------------------
    m.attr("MAX_DICE_PER_ROLL") = wargym::kMaxDicePerRoll;
    nb::class_<wargym::RandomDice>(m, "RandomDice",
                                   "The core's seeded d6 generator (xoshiro256**; not numpy's stream).")
        .def("__init__",
             [](wargym::RandomDice* self, nb::handle seed) {
                 const auto value = integer(seed, "seed", 0, std::numeric_limits<std::int64_t>::max());
                 new (self) wargym::RandomDice(static_cast<std::uint64_t>(value));
             },
             "seed"_a.none())
        .def("roll",
             [](wargym::RandomDice& self, nb::handle n) {
                 return faces_tuple(self.roll(integer(n, "n", std::numeric_limits<std::int64_t>::min(),
                                                      std::numeric_limits<std::int64_t>::max())));
             },
             "n"_a.none(), "Roll ``n`` d6 (``n <= 0`` gives ``()``).")
        .def_prop_ro("seed", [](const wargym::RandomDice& self) { return self.seed(); });

    nb::class_<wargym::ScriptedDice>(m, "ScriptedDice",
                                     "Dice that replay recorded faces in order (rules.dice.ScriptedDice).")
        .def("__init__",
             [](wargym::ScriptedDice* self, nb::handle faces) {
                 PyObject* o = faces.ptr();
                 if (!PyList_Check(o) && !PyTuple_Check(o)) wrong_type("faces", "a list of d6 faces", faces);
                 nb::sequence seq = nb::borrow<nb::sequence>(faces);
                 std::vector<int> values;
                 const std::size_t n = nb::len(seq);
                 values.reserve(n);
                 for (std::size_t i = 0; i < n; ++i) {
                     nb::handle item = seq[i];
                     if (is_bool(item) || !(PyLong_Check(item.ptr()) || PyIndex_Check(item.ptr()))) {
                         wrong_type("faces[" + std::to_string(i) + "]", "an integer face 1..6", item);
                     }
                     int overflow = 0;
                     PyObject* index = PyNumber_Index(item.ptr());
                     if (!index) {
                         PyErr_Clear();
                         wrong_type("faces[" + std::to_string(i) + "]", "an integer face 1..6", item);
                     }
                     const long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
                     Py_DECREF(index);
                     if (overflow || v < 1 || v > 6) {
                         throw wargym::ArgumentError("faces", "a d6 face must be 1..6, got " + short_repr(item));
                     }
                     values.push_back(static_cast<int>(v));
                 }
                 new (self) wargym::ScriptedDice(std::move(values));
             },
             "faces"_a.none())
        .def("roll",
             [](wargym::ScriptedDice& self, nb::handle n) {
                 return faces_tuple(self.roll(integer(n, "n", std::numeric_limits<std::int64_t>::min(),
                                                      std::numeric_limits<std::int64_t>::max())));
             },
             "n"_a.none(), "The next ``n`` scripted faces; DiceScriptExhaustedError when too few remain.")
        .def_prop_ro("remaining", [](const wargym::ScriptedDice& self) { return self.remaining(); })
        .def_prop_ro("faces", [](const wargym::ScriptedDice& self) { return int_list(self.faces()); })
        .def_prop_ro("used", [](const wargym::ScriptedDice& self) { return int_list(self.used()); });

    // -- No Quarter geometry (rules/no_quarter/geometry.py) -------------------------------------
    nb::module_ g = m.def_submodule("no_quarter", "Mirrors of wargym.rules.no_quarter modules.");
    g.attr("EPS") = nq::kEps;
    g.attr("ARC_EPS") = nq::kArcEps;
    g.attr("FLANK_BEARING") = nq::kFlankBearing;
    g.attr("REAR_BEARING") = nq::kRearBearing;
    g.attr("CROSSING_LENGTH") = nq::kCrossingLength;
    g.def("hypot", [](nb::handle x, nb::handle y) { return nq::pyhypot(real(x, "x"), real(y, "y")); },
          "x"_a.none(), "y"_a.none());
    g.def("distance", [](nb::handle a, nb::handle b) { return nq::distance(point(a, "a"), point(b, "b")); },
          "a"_a.none(), "b"_a.none());
    g.def("normalize", [](nb::handle deg) { return nq::normalize(real(deg, "deg")); }, "deg"_a.none());
    g.def("heading_to",
          [](nb::handle a, nb::handle b) { return nq::heading_to(point(a, "a"), point(b, "b")); },
          "a"_a.none(), "b"_a.none());
    g.def("angle_between",
          [](nb::handle h1, nb::handle h2) { return nq::angle_between(real(h1, "h1"), real(h2, "h2")); },
          "h1"_a.none(), "h2"_a.none());
    g.def("unit", [](nb::handle deg) { return point_tuple(nq::unit(real(deg, "deg"))); }, "deg"_a.none());
    g.def("in_arc",
          [](nb::handle origin, nb::handle facing, nb::handle p, nb::handle half_angle) {
              return nq::in_arc(point(origin, "origin"), real(facing, "facing"), point(p, "point"),
                                real(half_angle, "half_angle"));
          },
          "origin"_a.none(), "facing"_a.none(), "point"_a.none(), "half_angle"_a.none() = 90.0);
    g.def("aspect",
          [](nb::handle pos, nb::handle heading, nb::handle start, nb::handle end) {
              const nq::Aspect a = nq::aspect(point(pos, "target_pos"), real(heading, "target_heading"),
                                              point(start, "attacker_start"), point(end, "attacker_end"));
              static const char* names[] = {"FRONT", "FLANK", "REAR"};
              return nb::handle(g_aspect).attr(names[static_cast<int>(a)]);
          },
          "target_pos"_a.none(), "target_heading"_a.none(), "attacker_start"_a.none(), "attacker_end"_a.none());
    g.def("step_toward",
          [](nb::handle a, nb::handle b, nb::handle dist) {
              return point_tuple(nq::step_toward(point(a, "a"), point(b, "b"), real(dist, "dist")));
          },
          "a"_a.none(), "b"_a.none(), "dist"_a.none());
    g.def("path_length", [](nb::handle path) { return nq::path_length(points(path, "path")); }, "path"_a.none());
    g.def("point_along",
          [](nb::handle path, nb::handle dist) {
              const auto pts = points(path, "path");
              return point_tuple(nq::point_along(pts, real(dist, "dist")));
          },
          "path"_a.none(), "dist"_a.none());
    g.def("point_segment_distance",
          [](nb::handle p, nb::handle a, nb::handle b) {
              return nq::point_segment_distance(point(p, "p"), point(a, "a"), point(b, "b"));
          },
          "p"_a.none(), "a"_a.none(), "b"_a.none());
    g.def("segment_hits_circle",
          [](nb::handle a, nb::handle b, nb::handle centre, nb::handle radius) {
              return nq::segment_hits_circle(point(a, "a"), point(b, "b"), point(centre, "centre"),
                                             real(radius, "radius"));
          },
          "a"_a.none(), "b"_a.none(), "centre"_a.none(), "radius"_a.none());
    g.def("segments_intersect",
          [](nb::handle a, nb::handle b, nb::handle c, nb::handle d) {
              return nq::segments_intersect(point(a, "a"), point(b, "b"), point(c, "c"), point(d, "d"));
          },
          "a"_a.none(), "b"_a.none(), "c"_a.none(), "d"_a.none());
    g.def("clip_segment_to_rect",
          [](nb::handle a, nb::handle b, nb::handle x0, nb::handle y0, nb::handle x1, nb::handle y1) -> nb::object {
              const auto clip = nq::clip_segment_to_rect(point(a, "a"), point(b, "b"), real(x0, "x0"),
                                                         real(y0, "y0"), real(x1, "x1"), real(y1, "y1"));
              if (!clip) return nb::none();
              return nb::make_tuple(clip->first, clip->second);
          },
          "a"_a.none(), "b"_a.none(), "x0"_a.none(), "y0"_a.none(), "x1"_a.none(), "y1"_a.none());
    g.def("point_rect_distance",
          [](nb::handle p, nb::handle x0, nb::handle y0, nb::handle x1, nb::handle y1) {
              return nq::point_rect_distance(point(p, "p"), real(x0, "x0"), real(y0, "y0"),
                                             real(x1, "x1"), real(y1, "y1"));
          },
          "p"_a.none(), "x0"_a.none(), "y0"_a.none(), "x1"_a.none(), "y1"_a.none());
    g.def("segment_rect_distance",
          [](nb::handle a, nb::handle b, nb::handle x0, nb::handle y0, nb::handle x1, nb::handle y1) {
              return nq::segment_rect_distance(point(a, "a"), point(b, "b"), real(x0, "x0"),
                                               real(y0, "y0"), real(x1, "x1"), real(y1, "y1"));
          },
          "a"_a.none(), "b"_a.none(), "x0"_a.none(), "y0"_a.none(), "x1"_a.none(), "y1"_a.none());

    // -- No Quarter line of sight (rules/no_quarter/sight.py) -----------------------------------
    nb::class_<Bodies>(g, "Bodies", "Mech bases that block sight: ids and (x, y, radius) rows.")
        .def("__init__",
             [](Bodies* self, nb::handle ids, nb::handle xyr) { new (self) Bodies(make_bodies(ids, xyr)); },
             "ids"_a.none(), "xyr"_a.none())
        .def("__len__", [](const Bodies& self) { return self.items.size(); });
    nb::class_<nq::SightTerrain>(g, "SightTerrain",
                                 "What sight() reads from a Battlefield and the line-of-sight table.")
        .def("__init__",
             [](nq::SightTerrain* self, nb::handle buildings, nb::handle hills, nb::handle crests,
                nb::handle woods, nb::handle deep_core, nb::handle well_lit, nb::handle night,
                nb::handle weather, nb::handle config) {
                 new (self) nq::SightTerrain(make_terrain(buildings, hills, crests, woods, deep_core,
                                                          well_lit, night, weather, config));
             },
             "buildings"_a.none(), "hills"_a.none(), "crests"_a.none(), "woods"_a.none(), "deep_core"_a.none(), "well_lit"_a.none(),
             "night"_a.none(), "inclement_weather"_a.none(), "config"_a.none())
        .def_prop_ro("night", [](const nq::SightTerrain& t) { return t.night; })
        .def_prop_ro("inclement_weather", [](const nq::SightTerrain& t) { return t.inclement_weather; });
    g.def("sight_many",
          [](nb::handle terrain, nb::handle lines, nb::handle ids, nb::handle base_radius,
             nb::handle bodies, nb::handle has_ews) {
              nq::SightTerrain* t = nullptr;
              if (!nb::try_cast(terrain, t, false) || t == nullptr) wrong_type("terrain", "a SightTerrain", terrain);
              const Bodies* b = nullptr;
              if (!bodies.is_none() && (!nb::try_cast(bodies, b, false) || b == nullptr)) {
                  wrong_type("bodies", "a Bodies or None", bodies);
              }
              Matrix xy = matrix(lines, "lines", 4);
              nb::ndarray<nb::ndim<2>, nb::device::cpu> any_ids;
              nb::ndarray<const std::int64_t, nb::ndim<2>, nb::c_contig, nb::device::cpu> id_rows;
              if (!nb::try_cast(ids, any_ids, false) ||
                  (any_ids.dtype().code != static_cast<std::uint8_t>(nb::dlpack::dtype_code::Int) &&
                   any_ids.dtype().code != static_cast<std::uint8_t>(nb::dlpack::dtype_code::UInt)) ||
                  !nb::try_cast(ids, id_rows, true)) {
                  wrong_type("ids", "an integer array of shape (n, 2)", ids);
              }
              if (id_rows.shape(1) != 2 || id_rows.shape(0) != xy.shape(0)) {
                  throw wargym::ArgumentError("ids", "expected shape (" + std::to_string(xy.shape(0)) +
                                                         ", 2), one (observer, target) per line");
              }
              const double radius = real(base_radius, "base_radius");
              if (!(radius > 0.0)) throw wargym::ArgumentError("base_radius", "expected a positive number");
              const bool ews = flag(has_ews, "observer_has_ews");
              const std::size_t n = xy.shape(0);
              auto* out = new double[n * 7];
              nb::capsule owner(out, [](void* p) noexcept { delete[] static_cast<double*>(p); });
              const auto span = b ? std::span<const nq::Body>(b->items) : std::span<const nq::Body>();
              {
                  nb::gil_scoped_release release;
                  for (std::size_t i = 0; i < n; ++i) {
                      const auto s = nq::sight(*t, {xy(i, 0), xy(i, 1)}, {xy(i, 2), xy(i, 3)},
                                               id_rows(i, 0), id_rows(i, 1), span, ews, radius);
                      double* row = out + 7 * i;
                      row[0] = s.visible;
                      row[1] = s.clear_lines;
                      row[2] = s.building_blocked_lines;
                      row[3] = s.mech_blocked_lines;
                      row[4] = static_cast<double>(static_cast<int>(s.blocked_side));
                      row[5] = s.distance;
                      row[6] = s.bearing_to_observer;
                  }
              }
              return nb::ndarray<nb::numpy, double, nb::ndim<2>>(out, {n, 7}, owner);
          },
          "terrain"_a.none(), "lines"_a.none(), "ids"_a.none(), "base_radius"_a.none(),
          "bodies"_a.none() = nb::none(), "observer_has_ews"_a.none() = false,
          "sight() for n lines (rows x0, y0, x1, y1; ids rows observer, target) with the GIL "
          "released: an (n, 7) float64 array of the Sight fields, blocked_side -1/0/1.");
    g.def("sight",
          [](nb::handle terrain, nb::handle observer, nb::handle target, nb::handle base_radius,
             nb::handle observer_id, nb::handle target_id, nb::handle bodies, nb::handle has_ews) {
              nq::SightTerrain* t = nullptr;
              if (!nb::try_cast(terrain, t, false) || t == nullptr) wrong_type("terrain", "a SightTerrain", terrain);
              const Bodies* b = nullptr;
              if (!bodies.is_none() && (!nb::try_cast(bodies, b, false) || b == nullptr)) {
                  wrong_type("bodies", "a Bodies or None", bodies);
              }
              constexpr auto lo = std::numeric_limits<std::int64_t>::min();
              constexpr auto hi = std::numeric_limits<std::int64_t>::max();
              const double radius = real(base_radius, "base_radius");
              if (!(radius > 0.0)) throw wargym::ArgumentError("base_radius", "expected a positive number");
              const auto result = nq::sight(
                  *t, point(observer, "observer"), point(target, "target"),
                  integer(observer_id, "observer_id", lo, hi), integer(target_id, "target_id", lo, hi),
                  b ? std::span<const nq::Body>(b->items) : std::span<const nq::Body>(),
                  flag(has_ews, "observer_has_ews"), radius);
              return sight_tuple(result);
          },
          "terrain"_a.none(), "observer"_a.none(), "target"_a.none(), "base_radius"_a.none(), "observer_id"_a.none() = -1,
          "target_id"_a.none() = -1, "bodies"_a.none() = nb::none(), "observer_has_ews"_a.none() = false,
          "The fields of rules.no_quarter.sight.Sight as a tuple (blocked_side None/'left'/'right').");

    // -- No Quarter battle state (rules/no_quarter/battle/state.py) ------------------------------
    nq::bind_state(g);
    nq::bind_actions(g);
#ifdef WARGYM_FUZZ
    wargym::fuzz::bind_fuzz(m);
#endif
    nq::events::bind_events(g);  // battle/events_bindings.cpp
    nq::bind_combat(g);
    nq::bind_perception(g);
    nq::bind_encoding(g);  // envs/no_quarter/encoding.py (native/no_quarter/envs/encoding.hpp)
    nq::bind_movement(g);
    nq::bind_flow(g);  // typed frames and the flow skeleton (battle/flow_bindings.cpp)
    wargym::bind_numpy_random(m);  // numpy_random_bindings.cpp
    nq::bind_setup(g);             // no_quarter/forces/setup_bindings.cpp
    nq::bind_codec(g);
    nq::bind_game(g);  // the game API: turn/phase/group handlers (battle/game_bindings.cpp)
    nq::bind_fire(g);  // the FIRE handler and consequences (battle/flow_fire_bindings.cpp)
    nq::bind_luck(g);  // luck.py pause reading (battle/luck_bindings.cpp)
    nq::bind_melee_flow(g);  // REACT, CHARGE, MELEE, CHARGES (battle/flow_melee_bindings.cpp)
    nq::bind_flow_mech(g);  // battle/flow_mech_bindings.cpp (MECH, INSIGHT handlers)
    nq::bind_enemy(g);      // the rules' NP procedure (non_player/enemy_bindings.cpp)
}
