// Bindings of the native observation encoder (envs/encoding.hpp) in _core.no_quarter.encoding:
// ObservationEncoder(config), its encode() into a caller-owned float32 buffer, static_planes()
// and battle_slots(). The config dict is built by native/no_quarter/encoding.py from the
// reference encoder object; every argument is converted here by name (NativeTypeError /
// NativeArgumentError through bindings.cpp's translator).
#include <Python.h>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "../../errors.hpp"
#include "../../pyvalues.hpp"
#include "../battle/state_io.hpp"
#include "encoding.hpp"

namespace nb = nanobind;
using namespace nb::literals;
namespace nq = wargym::no_quarter;

namespace {

using state_io::flag;
using state_io::integer;
using state_io::real;
using wargym::ArgumentError;
using wargym::short_repr;
using wargym::wrong_type;

constexpr std::int64_t kBig = std::int64_t{1} << 40;

nb::handle item(nb::handle config, const char* key) {
    if (!PyDict_Check(config.ptr())) wrong_type("config", "a dict", config);
    PyObject* v = PyDict_GetItemString(config.ptr(), key);
    if (v == nullptr) throw ArgumentError(std::string("config.") + key, "missing");
    return v;
}

std::int64_t count(nb::handle config, const char* key, std::int64_t lo = 1) {
    return integer(item(config, key), std::string("config.") + key, lo, kBig);
}

double positive(nb::handle config, const char* key) {
    const double v = real(item(config, key), std::string("config.") + key);
    if (!(v > 0.0)) throw ArgumentError(std::string("config.") + key, "expected a positive number, got " + short_repr(item(config, key)));
    return v;
}

// a list of exactly N values, each converted by `get(handle, name)`
template <std::size_t N, class T, class F>
std::array<T, N> table(nb::handle config, const char* key, F&& get) {
    nb::handle v = item(config, key);
    const std::string name = std::string("config.") + key;
    if (!PyList_Check(v.ptr()) && !PyTuple_Check(v.ptr())) wrong_type(name, "a list", v);
    nb::sequence seq = nb::borrow<nb::sequence>(v);
    if (nb::len(seq) != N) {
        throw ArgumentError(name, "expected " + std::to_string(N) + " values, got " + short_repr(v));
    }
    std::array<T, N> out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = get(seq[i], name + "[" + std::to_string(i) + "]");
    return out;
}

nq::Terrain terrain_of(nb::handle h, const std::string& name) {
    return static_cast<nq::Terrain>(integer(h, name, 0, static_cast<std::int64_t>(nq::kTerrainKinds) - 1));
}

std::vector<std::string> strings(nb::handle h, const std::string& name) {
    if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) wrong_type(name, "a list of strings", h);
    std::vector<std::string> out;
    nb::sequence seq = nb::borrow<nb::sequence>(h);
    for (std::size_t i = 0; i < nb::len(seq); ++i) {
        nb::handle v = seq[i];
        const char* text = PyUnicode_Check(v.ptr()) ? PyUnicode_AsUTF8(v.ptr()) : nullptr;
        if (text == nullptr) {
            PyErr_Clear();
            wrong_type(name + "[" + std::to_string(i) + "]", "a string", v);
        }
        out.emplace_back(text);
    }
    return out;
}

std::vector<std::int64_t> numbers(nb::handle h, const std::string& name, std::int64_t lo, std::int64_t hi) {
    if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) wrong_type(name, "a list of integers", h);
    std::vector<std::int64_t> out;
    nb::sequence seq = nb::borrow<nb::sequence>(h);
    for (std::size_t i = 0; i < nb::len(seq); ++i) out.push_back(integer(seq[i], name + "[" + std::to_string(i) + "]", lo, hi));
    return out;
}

nq::EncoderConfig make_config(nb::handle c) {
    nq::EncoderConfig k;
    k.max_mechs = count(c, "max_mechs");
    k.max_weapons = count(c, "max_weapons", 0);
    k.max_turns = count(c, "max_turns", -kBig);
    k.width = positive(c, "width");
    k.height = positive(c, "height");
    k.cell = positive(c, "cell");
    k.rows = count(c, "rows");
    k.cols = count(c, "cols");
    k.mirror = flag(item(c, "mirror"), "config.mirror");
    k.planes = count(c, "planes");
    nb::handle kinds = item(c, "terrain_planes");
    if (!PyList_Check(kinds.ptr()) && !PyTuple_Check(kinds.ptr())) wrong_type("config.terrain_planes", "a list", kinds);
    nb::sequence seq = nb::borrow<nb::sequence>(kinds);
    for (std::size_t i = 0; i < nb::len(seq); ++i) {
        k.terrain_planes.push_back(terrain_of(seq[i], "config.terrain_planes[" + std::to_string(i) + "]"));
    }
    k.unit_fields = count(c, "unit_fields");
    k.weapon_fields = count(c, "weapon_fields");
    k.unit_size = count(c, "unit_size");
    k.global_size = count(c, "global_size");
    k.kinds = count(c, "kinds");
    k.size = count(c, "size");
    for (auto [key, field] : {std::pair{"speed_scale", &k.speed_scale}, {"range_scale", &k.range_scale},
                              {"impact_scale", &k.impact_scale}, {"rep_scale", &k.rep_scale},
                              {"moved_scale", &k.moved_scale}, {"twist_scale", &k.twist_scale},
                              {"class_scale", &k.class_scale}, {"rank_scale", &k.rank_scale},
                              {"ews_scale", &k.ews_scale}, {"dice_scale", &k.dice_scale},
                              {"contact_slack", &k.contact_slack}, {"grid_slack", &k.grid_slack},
                              {"mirror_turn", &k.mirror_turn}}) {
        *field = positive(c, key);
    }
    k.cover = table<nq::kTerrainKinds, bool>(c, "cover", flag);
    k.move_multiplier = table<nq::kTerrainKinds, double>(c, "move_multiplier", real);
    k.concealing = table<nq::kTerrainKinds, bool>(c, "concealing", flag);
    k.ranged = table<nq::kItemTypes, bool>(c, "ranged", flag);
    k.jump_jets = table<nq::kItemTypes, bool>(c, "jump_jets", flag);
    const auto level = [](nb::handle h, const std::string& name) { return integer(h, name, 0, kBig); };
    k.ews = table<nq::kItemTypes, std::int64_t>(c, "ews", level);
    k.rank_order = table<nq::kRanks, std::int64_t>(c, "rank_order", level);
    k.reach_cache_size = count(c, "reach_cache_size");
    // what visible_enemies and the action features read: the line-of-sight table, the EWS items
    nq::FeatureTables& f = k.features;
    f.concealing = k.concealing;
    f.cover_stationary = k.cover;
    f.ranged = k.ranged;
    for (std::size_t i = 0; i < nq::kItemTypes; ++i) f.ews[i] = k.ews[i] > 0;
    f.shore_band = real(item(c, "shore_band"), "config.shore_band");
    nb::handle sc = item(c, "sight");
    const auto band = [&](const char* key) {
        const std::string name = std::string("config.sight.") + key;
        if (!PyDict_Check(sc.ptr())) wrong_type("config.sight", "a dict", sc);
        PyObject* v = PyDict_GetItemString(sc.ptr(), key);
        if (v == nullptr) throw ArgumentError(name, "missing");
        return nb::handle(v);
    };
    const auto pos = [&](const char* key) {
        const double v = real(band(key), std::string("config.sight.") + key);
        if (!(v > 0.0)) throw ArgumentError(std::string("config.sight.") + key, "expected a positive number");
        return v;
    };
    f.sight.night = pos("night");
    f.sight.inside_woods_day = pos("inside_woods_day");
    f.sight.inside_woods_night = pos("inside_woods_night");
    f.sight.weather_day = pos("weather_day");
    f.sight.weather_night = pos("weather_night");
    f.sight.well_lit_lifts_weather = flag(band("well_lit_lifts_weather"), "config.sight.well_lit_lifts_weather");
    f.sight.woods_edge_band = pos("woods_edge_band");
    f.sight.hill_crest_band = pos("hill_crest_band");
    k.action_features = flag(item(c, "action_features"), "config.action_features");
    std::int64_t af_size = 0;
    if (k.action_features) {
        k.n_actions = count(c, "n_actions");
        if (count(c, "af_rows") != static_cast<std::int64_t>(nq::kFeatureRows)) {
            throw ArgumentError("config.af_rows", "expected " + std::to_string(nq::kFeatureRows) +
                                                      " (the advisor rows are not mirrored)");
        }
        af_size = static_cast<std::int64_t>(nq::kFeatureRows) * k.n_actions;
        f.table_size = positive(c, "table_size");
        f.behind_building_cover = flag(item(c, "behind_building_cover"), "config.behind_building_cover");
        f.behind_mech_cover = flag(item(c, "behind_mech_cover"), "config.behind_mech_cover");
        f.cover_moving = table<nq::kTerrainKinds, bool>(c, "cover_moving", flag);
    }
    k.mission = flag(item(c, "mission"), "config.mission");
    k.base_global_size = k.global_size;
    if (k.mission) {
        k.base_global_size = count(c, "base_global_size");
        k.pef_markers = flag(item(c, "pef_markers"), "config.pef_markers");
        nb::handle m = item(c, "mission_tables");
        const std::string at = "config.mission_tables";
        nq::MissionTables& t = k.mission_tables;
        t.kinds = strings(item(m, "kinds"), at + ".kinds");
        t.objectives = strings(item(m, "objectives"), at + ".objectives");
        t.edges = strings(item(m, "edges"), at + ".edges");
        for (const std::int64_t s : numbers(item(m, "sections"), at + ".sections", 1, 64)) t.sections.push_back(s);
        nb::handle exits = item(m, "player_exits");
        if (!PyList_Check(exits.ptr()) || static_cast<std::size_t>(PyList_GET_SIZE(exits.ptr())) != t.kinds.size()) {
            throw ArgumentError(at + ".player_exits", "expected one list of edge indices per kind");
        }
        for (std::size_t i = 0; i < t.kinds.size(); ++i) {
            t.player_exits.push_back(numbers(PyList_GET_ITEM(exits.ptr(), i), at + ".player_exits",
                                             0, static_cast<std::int64_t>(t.edges.size()) - 1));
        }
        t.far = strings(nb::make_tuple(item(m, "far")), at + ".far")[0];
        t.home = strings(nb::make_tuple(item(m, "home")), at + ".home")[0];
        t.mirror_edges = integer(item(m, "mirror_edges"), at + ".mirror_edges", 0, 64);
        t.turn_scale = positive(m, "turn_scale");
        t.pef_scale = positive(m, "pef_scale");
        t.morale_scale = positive(m, "morale_scale");
        t.fields = count(m, "fields");
        const auto sum = static_cast<std::int64_t>(t.kinds.size() + 3 + t.objectives.size() +
                                                   t.sections.size() + t.edges.size() + 3);
        std::vector<std::int64_t> seen_sections = t.sections;
        std::sort(seen_sections.begin(), seen_sections.end());
        if (t.fields != sum || k.global_size != k.base_global_size + t.fields || t.edges.empty() ||
            std::adjacent_find(seen_sections.begin(), seen_sections.end()) != seen_sections.end() ||
            (!seen_sections.empty() && seen_sections.back() > static_cast<std::int64_t>(t.sections.size()))) {
            throw ArgumentError(at, "the sizes do not add up to the nq-obs-v4 globals");
        }
    }
    // the layout's sizes must add up (they index the buffer)
    const std::int64_t terrain = static_cast<std::int64_t>(k.terrain_planes.size()) + 3;
    const std::int64_t flat =
        k.planes * k.rows * k.cols + 2 * k.max_mechs * k.unit_size + k.global_size + af_size;
    if (k.planes != terrain + 6 || k.unit_size != k.unit_fields + k.weapon_fields * k.max_weapons ||
        k.weapon_fields < 4 || k.base_global_size != 6 + k.kinds + k.max_mechs + 5 ||
        k.kinds != static_cast<std::int64_t>(nq::kDecisionKind.size) || k.size != flat ||
        k.rows * k.cols > (std::int64_t{1} << 24)) {
        throw ArgumentError("config", "the sizes do not add up to the nq-obs layout: " + short_repr(c));
    }
    return k;
}

nq::Side side_of(nb::handle h, const std::string& name) {
    if (!PyUnicode_Check(h.ptr())) wrong_type(name, "'blue' or 'red'", h);
    const char* text = PyUnicode_AsUTF8(h.ptr());
    if (text == nullptr) {
        PyErr_Clear();
        wrong_type(name, "'blue' or 'red'", h);
    }
    const auto side = nq::kSide.find(text);
    if (!side) throw ArgumentError(name, "expected 'blue' or 'red', got " + short_repr(h));
    return *side;
}

std::vector<std::int64_t> ids(nb::handle h, const std::string& name) {
    PyObject* it = PyObject_GetIter(h.ptr());
    if (it == nullptr) {
        PyErr_Clear();
        wrong_type(name, "an iterable of mech ids", h);
    }
    nb::object iter = nb::steal(it);
    std::vector<std::int64_t> out;
    while (PyObject* v = PyIter_Next(iter.ptr())) {
        nb::object value = nb::steal(v);
        out.push_back(integer(value, name + "[" + std::to_string(out.size()) + "]",
                              std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()));
    }
    if (PyErr_Occurred()) {
        PyErr_Clear();
        wrong_type(name, "an iterable of mech ids", h);
    }
    return out;
}

std::vector<nq::Point> points(nb::handle h, const std::string& name) {
    PyObject* it = PyObject_GetIter(h.ptr());
    if (it == nullptr) {
        PyErr_Clear();
        wrong_type(name, "an iterable of points (x, y)", h);
    }
    nb::object iter = nb::steal(it);
    std::vector<nq::Point> out;
    while (PyObject* v = PyIter_Next(iter.ptr())) {
        nb::object p = nb::steal(v);
        const std::string at = name + "[" + std::to_string(out.size()) + "]";
        if (!(PyTuple_Check(p.ptr()) || PyList_Check(p.ptr())) || PySequence_Size(p.ptr()) != 2) {
            wrong_type(at, "a point (x, y) of two numbers", p);
        }
        nb::sequence s = nb::borrow<nb::sequence>(p);
        out.push_back({real(s[0], at + "[0]"), real(s[1], at + "[1]")});
    }
    if (PyErr_Occurred()) {
        PyErr_Clear();
        wrong_type(name, "an iterable of points (x, y)", h);
    }
    return out;
}

const nq::Battle& battle_of(nb::handle h) {
    const nq::Battle* b = nullptr;
    if (!nb::try_cast(h, b, false) || b == nullptr) wrong_type("battle", "a native Battle", h);
    return *b;
}

// `out` as a writable, C-contiguous float32 buffer of `size` values (1-D); the view is
// released when the returned object goes.
struct Buffer {
    Py_buffer view{};
    bool held = false;
    Buffer() = default;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() {
        if (held) PyBuffer_Release(&view);
    }
};

void open_buffer(Buffer& buf, nb::handle h, std::int64_t size) {
    static PyObject* ndarray = [] {
        nb::object np = nb::module_::import_("numpy");
        return nb::object(np.attr("ndarray")).release().ptr();
    }();
    const int is_array = PyObject_IsInstance(h.ptr(), ndarray);
    if (is_array < 0) PyErr_Clear();
    if (is_array != 1) wrong_type("out", "a numpy float32 array", h);
    if (PyObject_GetBuffer(h.ptr(), &buf.view, PyBUF_RECORDS_RO) != 0) {
        PyErr_Clear();
        wrong_type("out", "a numpy float32 array", h);
    }
    buf.held = true;
    const Py_buffer& v = buf.view;
    const std::string format = v.format ? v.format : "B";
    if (v.itemsize != 4 || !(format == "f" || format == "=f" || format == "@f" ||
                             (format == "<f" && PY_LITTLE_ENDIAN) || (format == ">f" && PY_BIG_ENDIAN))) {
        wrong_type("out", "a numpy float32 array (dtype float32, native byte order)", h);
    }
    if (v.readonly) throw ArgumentError("out", "the array is read-only");
    if (v.ndim != 1 || v.shape[0] != size) {
        std::string shape;
        for (int i = 0; i < v.ndim; ++i) shape += (i ? ", " : "") + std::to_string(v.shape[i]);
        if (v.ndim == 1) shape += ",";
        throw ArgumentError("out", "expected shape (" + std::to_string(size) + ",), got (" + shape + ")");
    }
    if (v.strides != nullptr && v.strides[0] != 4 && size > 1) {
        throw ArgumentError("out", "the array is not C-contiguous");
    }
}

nq::EncoderSlots slots_of(const nq::ObservationEncoder& enc, const nq::Battle& battle, nq::Side viewer, nb::handle slots) {
    if (slots.is_none()) return nq::battle_slots(battle, viewer, enc.config().mirror, enc.config().mirror_turn);
    if (!PyTuple_Check(slots.ptr()) || PyTuple_GET_SIZE(slots.ptr()) != 3) {
        wrong_type("slots", "None or a tuple (own ids, enemy ids, turn)", slots);
    }
    nq::EncoderSlots s;
    s.own = ids(PyTuple_GET_ITEM(slots.ptr(), 0), "slots.own");
    s.enemy = ids(PyTuple_GET_ITEM(slots.ptr(), 1), "slots.enemy");
    s.turn = real(PyTuple_GET_ITEM(slots.ptr(), 2), "slots.turn");
    return s;
}

// the action table as the glue hands it: (index, kind, mech, to or None, target or None) rows
std::vector<nq::FeatureAction> feature_actions(nb::handle h) {
    std::vector<nq::FeatureAction> out;
    if (h.is_none()) return out;
    PyObject* it = PyObject_GetIter(h.ptr());
    if (it == nullptr) {
        PyErr_Clear();
        wrong_type("actions", "None or an iterable of (index, kind, mech, to, target)", h);
    }
    nb::object iter = nb::steal(it);
    static constexpr std::array<const char*, 5> kinds{"move", "free_move", "stay", "fire_first", "other"};
    constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t hi = std::numeric_limits<std::int64_t>::max();
    while (PyObject* v = PyIter_Next(iter.ptr())) {
        nb::object row = nb::steal(v);
        const std::string at = "actions[" + std::to_string(out.size()) + "]";
        if (!PyTuple_Check(row.ptr()) || PyTuple_GET_SIZE(row.ptr()) != 5) {
            wrong_type(at, "a tuple (index, kind, mech, to, target)", row);
        }
        nq::FeatureAction a;
        a.index = integer(PyTuple_GET_ITEM(row.ptr(), 0), at + ".index", lo, hi);
        nb::handle kind = PyTuple_GET_ITEM(row.ptr(), 1);
        const char* text = PyUnicode_Check(kind.ptr()) ? PyUnicode_AsUTF8(kind.ptr()) : nullptr;
        if (text == nullptr) {
            PyErr_Clear();
            wrong_type(at + ".kind", "a string", kind);
        }
        const auto found = std::find_if(kinds.begin(), kinds.end(), [&](const char* k) { return std::string(k) == text; });
        if (found == kinds.end()) throw ArgumentError(at + ".kind", "unknown kind " + short_repr(kind));
        a.kind = static_cast<nq::FeatureActionKind>(found - kinds.begin());
        nb::handle mech = PyTuple_GET_ITEM(row.ptr(), 2);
        if (!mech.is_none()) a.mech = integer(mech, at + ".mech", lo, hi);
        else if (a.kind != nq::FeatureActionKind::other) wrong_type(at + ".mech", "a mech id", mech);
        nb::handle to = PyTuple_GET_ITEM(row.ptr(), 3);
        if (!to.is_none()) {
            if (!PyTuple_Check(to.ptr()) || PyTuple_GET_SIZE(to.ptr()) != 2) wrong_type(at + ".to", "None or a point (x, y)", to);
            a.to = nq::Point{real(PyTuple_GET_ITEM(to.ptr(), 0), at + ".to[0]"),
                             real(PyTuple_GET_ITEM(to.ptr(), 1), at + ".to[1]")};
        } else if (a.kind == nq::FeatureActionKind::move) {
            wrong_type(at + ".to", "a point (x, y)", to);
        }
        nb::handle target = PyTuple_GET_ITEM(row.ptr(), 4);
        if (!target.is_none()) a.target = integer(target, at + ".target", lo, hi);
        out.push_back(a);
    }
    if (PyErr_Occurred()) {
        PyErr_Clear();
        wrong_type("actions", "None or an iterable of (index, kind, mech, to, target)", h);
    }
    return out;
}

nb::tuple id_tuple(const std::vector<std::int64_t>& v) {
    nb::list out;
    for (std::int64_t i : v) out.append(i);
    return nb::tuple(out);
}

}  // namespace

namespace wargym::no_quarter {

void bind_encoding(nb::module_& g) {
    nb::module_ e = g.def_submodule("encoding", "Mirror of envs/no_quarter/encoding.py (nq-obs-v3).");
    nb::class_<ObservationEncoder>(e, "ObservationEncoder",
                                   "encoding.ObservationEncoder's flat layout, configured by the glue.")
        .def("__init__", [](ObservationEncoder* self, nb::handle config) {
                 new (self) ObservationEncoder(make_config(config));
             },
             "config"_a.none())
        .def_prop_ro("size", [](const ObservationEncoder& enc) { return enc.config().size; })
        .def("encode",
             [](ObservationEncoder& enc, nb::handle battle, nb::handle viewer, nb::handle visible,
                nb::handle out, nb::handle slots, nb::handle markers, nb::handle actions) {
                 const Battle& b = battle_of(battle);
                 const Side side = side_of(viewer, "viewer");
                 const std::vector<std::int64_t> seen =
                     visible.is_none() ? enc.visible_enemies(b, side) : ids(visible, "visible");
                 const EncoderSlots s = slots_of(enc, b, side, slots);
                 // None: the encoder's own hook (no markers, or the mission's PEF markers)
                 const std::vector<Point> marks = !markers.is_none() ? points(markers, "markers")
                                                  : enc.config().pef_markers ? pef_markers(b)
                                                                             : std::vector<Point>{};
                 const std::vector<FeatureAction> table = feature_actions(actions);
                 Buffer buf;
                 open_buffer(buf, out, enc.config().size);
                 // encode() checks everything before it writes, so a refusal leaves `out` unchanged
                 enc.encode(b, side, seen, s, marks, table,
                            {static_cast<float*>(buf.view.buf), static_cast<std::size_t>(enc.config().size)});
             },
             "battle"_a.none(), "viewer"_a.none(), "visible"_a.none(), "out"_a.none(),
             "slots"_a.none() = nb::none(), "markers"_a.none() = nb::none(), "actions"_a.none() = nb::none(),
             "Writes encode()'s flat values into ``out`` (float32, C-contiguous, shape (size,)).")
        .def("static_planes",
             [](ObservationEncoder& enc, nb::handle battle) {
                 const Battle& b = battle_of(battle);
                 const std::vector<float>& planes = enc.static_planes(b.battlefield);
                 const auto [rows, cols] = enc.grid_of(*b.battlefield);
                 const std::size_t n = planes.size() / static_cast<std::size_t>(rows * cols);
                 auto* copy = new std::vector<float>(planes);
                 nb::capsule owner(copy, [](void* p) noexcept { delete static_cast<std::vector<float>*>(p); });
                 return nb::ndarray<nb::numpy, float, nb::ndim<3>>(
                     copy->data(), {n, static_cast<std::size_t>(rows), static_cast<std::size_t>(cols)}, owner);
             },
             "battle"_a.none(), "static_planes(battle.battlefield, cell), as a new array.")
        .def("visible_enemies",
             [](ObservationEncoder& enc, nb::handle battle, nb::handle viewer) {
                 const Battle& b = battle_of(battle);
                 const std::vector<std::int64_t> found = enc.visible_enemies(b, side_of(viewer, "viewer"));
                 nb::list out;
                 for (std::int64_t i : found) out.append(i);
                 return nb::frozenset(out);
             },
             "battle"_a.none(), "viewer"_a.none(), "encoding.visible_enemies: enemies in sight of the viewer's side.")
        .def("battle_slots",
             [](const ObservationEncoder& enc, nb::handle battle, nb::handle viewer) {
                 const Battle& b = battle_of(battle);
                 const EncoderSlots s = battle_slots(b, side_of(viewer, "viewer"), enc.config().mirror, enc.config().mirror_turn);
                 return nb::make_tuple(id_tuple(s.own), id_tuple(s.enemy), s.turn);
             },
             "battle"_a.none(), "viewer"_a.none(), "codec.battle_slots: (own ids, enemy ids, turn).");
}

}  // namespace wargym::no_quarter
