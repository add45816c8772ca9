// Bindings of the movement geometry (movement_geometry.hpp, jump_landing.hpp) in the
// submodule _core.no_quarter.movement. The Python glue is wargym.native.no_quarter.movement.
// Bases come in as (id, x, y, radius) tuples; rectangles as float64 arrays.
#include "movement_bindings.hpp"

#include <nanobind/ndarray.h>

#include <Python.h>

#include "facing.hpp"
#include "jump_landing.hpp"
#include "movement_args.hpp"
#include "movement_geometry.hpp"

namespace nb = nanobind;
using namespace nb::literals;
namespace nq = wargym::no_quarter;
using namespace wargym::movement_args;
using wargym::ArgumentError;
using wargym::wrong_type;

namespace {

using Matrix = nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu>;

Matrix matrix(nb::handle h, const std::string& name, std::size_t columns) {
    const std::string shape = "a float64 array of shape (n, " + std::to_string(columns) + ")";
    Matrix m;
    if (!nb::try_cast(h, m, true)) wrong_type(name, shape.c_str(), h);
    if (m.shape(1) != columns) {
        throw ArgumentError(name, "expected " + shape + ", got shape (" + std::to_string(m.shape(0)) +
                                      ", " + std::to_string(m.shape(1)) + ")");
    }
    for (std::size_t i = 0; i < m.shape(0) * columns; ++i) {
        if (!std::isfinite(m.data()[i])) {
            throw ArgumentError(name, "row " + std::to_string(i / columns) + " holds a value that is not finite");
        }
    }
    return m;
}

nq::Rect rect_row(const Matrix& m, std::size_t i, const std::string& name) {
    const nq::Rect r{m(i, 0), m(i, 1), m(i, 2), m(i, 3)};
    if (!(r.x0 <= r.x1 && r.y0 <= r.y1)) {
        throw ArgumentError(name, "row " + std::to_string(i) + " is not a rectangle x0 <= x1, y0 <= y1");
    }
    return r;
}

std::vector<nq::Rect> rects(nb::handle h, const std::string& name) {
    Matrix m = matrix(h, name, 4);
    std::vector<nq::Rect> out;
    for (std::size_t i = 0; i < m.shape(0); ++i) out.push_back(rect_row(m, i, name));
    return out;
}

std::vector<nq::Body> bodies(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (!PyTuple_Check(o) && !PyList_Check(o)) wrong_type(name, "a list of bases (id, x, y, radius)", h);
    nb::sequence seq = nb::borrow<nb::sequence>(h);
    std::vector<nq::Body> out;
    const std::size_t n = nb::len(seq);
    for (std::size_t i = 0; i < n; ++i) {
        const std::string at = name + "[" + std::to_string(i) + "]";
        nb::handle row = seq[i];
        if (!PyTuple_Check(row.ptr()) || PyTuple_GET_SIZE(row.ptr()) != 4) {
            wrong_type(at, "a base (id, x, y, radius)", row);
        }
        nq::Body b{integer(PyTuple_GET_ITEM(row.ptr(), 0), at + "[0]"), real(PyTuple_GET_ITEM(row.ptr(), 1), at + "[1]"),
                   real(PyTuple_GET_ITEM(row.ptr(), 2), at + "[2]"), positive(PyTuple_GET_ITEM(row.ptr(), 3), at + "[3]")};
        out.push_back(b);
    }
    return out;
}

std::optional<nq::Edge> edge(nb::handle h, const std::string& name, bool allow_none) {
    if (allow_none && h.is_none()) return std::nullopt;
    if (!PyUnicode_Check(h.ptr())) wrong_type(name, allow_none ? "an edge name or None" : "an edge name", h);
    const char* text = PyUnicode_AsUTF8(h.ptr());
    if (text == nullptr) {
        PyErr_Clear();
        wrong_type(name, "an edge name", h);
    }
    for (int e = 0; e < 4; ++e) {
        if (std::string(text) == nq::kEdgeNames[e]) return static_cast<nq::Edge>(e);
    }
    throw ArgumentError(name, "expected one of north, south, east, west, got " + wargym::short_repr(h));
}

nq::MoveTerrain make_terrain(nb::handle width, nb::handle height, nb::handle buildings,
                             nb::handle half_speed, nb::handle deep_core, nb::handle roads,
                             nb::handle concealing, nb::handle cover_moving,
                             nb::handle cover_stationary, nb::handle sight, nb::handle tables) {
    nq::MoveTerrain t;
    t.width = positive(width, "width");
    t.height = positive(height, "height");
    t.buildings = rects(buildings, "buildings");
    Matrix half = matrix(half_speed, "half_speed", 6);
    for (std::size_t i = 0; i < half.shape(0); ++i) {
        if (!(half(i, 4) > 0.0)) throw ArgumentError("half_speed", "row " + std::to_string(i) + ": a cost per inch must be positive");
        t.half_speed.push_back({rect_row(half, i, "half_speed"), half(i, 4), half(i, 5) != 0.0});
    }
    t.deep_core = rects(deep_core, "deep_core");
    t.roads = rects(roads, "roads");
    t.concealing = rects(concealing, "concealing");
    t.cover_moving = rects(cover_moving, "cover_moving");
    t.cover_stationary = rects(cover_stationary, "cover_stationary");
    nq::SightTerrain* s = nullptr;
    if (!nb::try_cast(sight, s, false) || s == nullptr) wrong_type("sight", "a SightTerrain", sight);
    t.sight = *s;
    if (!PyDict_Check(tables.ptr())) wrong_type("tables", "a dict of the move tables", tables);
    nb::dict d = nb::borrow<nb::dict>(tables);
    auto field = [&](const char* key) -> nb::handle {
        PyObject* v = PyDict_GetItemString(d.ptr(), key);
        if (v == nullptr) throw ArgumentError(std::string("tables.") + key, "missing");
        return v;
    };
    const std::size_t expected = 9;
    if (nb::len(d) != expected) throw ArgumentError("tables", "expected exactly the 9 move tables");
    t.tables.deep_water_inches_per_turn = positive(field("deep_water_inches_per_turn"), "tables.deep_water_inches_per_turn");
    t.tables.road_per_inch = flag(field("road_per_inch"), "tables.road_per_inch");
    t.tables.behind_building_cover = flag(field("behind_building_cover"), "tables.behind_building_cover");
    t.tables.behind_mech_cover = flag(field("behind_mech_cover"), "tables.behind_mech_cover");
    t.tables.reverse_fraction = positive(field("reverse_fraction"), "tables.reverse_fraction");
    t.tables.near = positive(field("near"), "tables.near");
    t.tables.landing_step = positive(field("landing_step"), "tables.landing_step");
    t.tables.bump_gap = positive(field("bump_gap"), "tables.bump_gap");
    t.tables.jump_backoff = positive(field("jump_backoff"), "tables.jump_backoff");
    return t;
}

nb::list point_list(const std::vector<nq::Point>& pts) {
    nb::list out;
    for (const nq::Point& p : pts) out.append(point_tuple(p));
    return out;
}

nb::object text_or_none(const std::optional<std::string>& s) {
    if (!s) return nb::none();
    return nb::str(s->c_str());
}

using T = const nq::MoveTerrain&;
T terrain(nb::handle h) { return nq::move_terrain_arg(h, "terrain"); }

double radius_arg(nb::handle h) { return positive(h, "radius"); }

// A jump is tried every LANDING_STEP inches back from its length: bound the number of tries.
void landing_steps(const nq::MoveTerrain& t, double length, const char* name) {
    if (length / t.tables.landing_step > 1e6) throw ArgumentError(name, "at most 1e6 landing steps");
}

std::vector<nq::FaceChoice> faces(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (!PyTuple_Check(o) && !PyList_Check(o)) wrong_type(name, "a list of faces (heading or None, twist)", h);
    nb::sequence seq = nb::borrow<nb::sequence>(h);
    std::vector<nq::FaceChoice> out;
    const std::size_t n = nb::len(seq);
    for (std::size_t i = 0; i < n; ++i) {
        const std::string at = name + "[" + std::to_string(i) + "]";
        nb::handle row = seq[i];
        if (!PyTuple_Check(row.ptr()) || PyTuple_GET_SIZE(row.ptr()) != 2) wrong_type(at, "a face (heading or None, twist)", row);
        nb::handle heading = PyTuple_GET_ITEM(row.ptr(), 0);
        std::optional<double> h_value;
        if (!heading.is_none()) h_value = real(heading, at + "[0]");
        out.push_back({h_value, integer(PyTuple_GET_ITEM(row.ptr(), 1), at + "[1]", -360, 360)});
    }
    return out;
}

std::vector<std::int64_t> twists_arg(nb::handle h) {
    PyObject* o = h.ptr();
    if (!PyTuple_Check(o) && !PyList_Check(o)) wrong_type("twists", "a list of twists", h);
    nb::sequence seq = nb::borrow<nb::sequence>(h);
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < nb::len(seq); ++i) out.push_back(integer(seq[i], "twists[" + std::to_string(i) + "]", -360, 360));
    return out;
}

}  // namespace

namespace wargym::no_quarter {

const MoveTerrain& move_terrain_arg(nb::handle h, const std::string& name) {
    MoveTerrain* t = nullptr;
    if (!nb::try_cast(h, t, false) || t == nullptr) wrong_type(name, "a MoveTerrain", h);
    return *t;
}

void bind_movement(nb::module_& g) {
    set_compensated_sum(PY_VERSION_HEX >= 0x030C0000);  // sum() of floats from CPython 3.12
    nb::module_ m = g.def_submodule("movement", "Mirrors of movement_geometry.py, roads.py's costs, jump_landing.py, bumping.py and flow_mech.py's move options.");
    nb::class_<MoveTerrain>(m, "MoveTerrain", "What the movement reads from a Battlefield and the terrain, cover and move tables.")
        .def("__init__",
             [](MoveTerrain* self, nb::handle width, nb::handle height, nb::handle buildings, nb::handle half_speed,
                nb::handle deep_core, nb::handle roads, nb::handle concealing, nb::handle cover_moving,
                nb::handle cover_stationary, nb::handle sight, nb::handle tables) {
                 new (self) MoveTerrain(make_terrain(width, height, buildings, half_speed, deep_core, roads, concealing,
                                                     cover_moving, cover_stationary, sight, tables));
             },
             "width"_a.none(), "height"_a.none(), "buildings"_a.none(), "half_speed"_a.none(), "deep_core"_a.none(),
             "roads"_a.none(), "concealing"_a.none(), "cover_moving"_a.none(), "cover_stationary"_a.none(),
             "sight"_a.none(), "tables"_a.none())
        .def_prop_ro("width", [](const MoveTerrain& t) { return t.width; })
        .def_prop_ro("height", [](const MoveTerrain& t) { return t.height; });
    m.attr("LEAVE_DEFLECTIONS") = nb::make_tuple(kLeaveDeflections[0], kLeaveDeflections[1], kLeaveDeflections[2],
                                                 kLeaveDeflections[3], kLeaveDeflections[4], kLeaveDeflections[5],
                                                 kLeaveDeflections[6], kLeaveDeflections[7], kLeaveDeflections[8]);
    m.def("py_round", [](nb::handle x, nb::handle n) { return pyround(real(x, "x"), static_cast<int>(integer(n, "ndigits", 0, 15))); },
          "x"_a.none(), "ndigits"_a.none(), "round(x, ndigits) as CPython rounds a float.");
    m.def("profile",
          [](nb::handle t, nb::handle a, nb::handle b, nb::handle road) {
              std::optional<bool> on = road.is_none() ? std::nullopt : std::optional<bool>(flag(road, "on_road"));
              nb::list out;
              for (const Span& s : profile(terrain(t), point(a, "a"), point(b, "b"), on)) out.append(nb::make_tuple(s.t0, s.t1, s.rate));
              return out;
          },
          "terrain"_a.none(), "a"_a.none(), "b"_a.none(), "on_road"_a.none() = nb::none());
    m.def("move_cost",
          [](nb::handle t, nb::handle a, nb::handle b, nb::handle jumping, nb::handle road) {
              std::optional<bool> on = road.is_none() ? std::nullopt : std::optional<bool>(flag(road, "on_road"));
              return move_cost(terrain(t), point(a, "a"), point(b, "b"), flag(jumping, "jumping"), on);
          },
          "terrain"_a.none(), "a"_a.none(), "b"_a.none(), "jumping"_a.none() = false, "on_road"_a.none() = nb::none());
    m.def("path_cost",
          [](nb::handle t, nb::handle path, nb::handle jump) -> nb::object {
              const auto pts = points(path, "path");
              const auto j = maybe_integer(jump, "jump_segment");
              const double cost = path_cost(terrain(t), pts, j);
              if (pts.size() < 2) return nb::int_(0);  // sum() of nothing
              return nb::float_(cost);
          },
          "terrain"_a.none(), "path"_a.none(), "jump_segment"_a.none() = nb::none());
    m.def("enters_deep_water",
          [](nb::handle t, nb::handle path, nb::handle jump) {
              return enters_deep_water(terrain(t), points(path, "path"), maybe_integer(jump, "jump_segment"));
          },
          "terrain"_a.none(), "path"_a.none(), "jump_segment"_a.none() = nb::none());
    m.def("deep_water_allowance", [](nb::handle t, nb::handle a) { return deep_water_allowance(terrain(t), real(a, "allowance")); },
          "terrain"_a.none(), "allowance"_a.none());
    m.def("affordable",
          [](nb::handle t, nb::handle a, nb::handle u, nb::handle max_s, nb::handle budget) {
              return affordable(terrain(t), point(a, "a"), point(u, "u"), real(max_s, "max_s"), real(budget, "budget"));
          },
          "terrain"_a.none(), "a"_a.none(), "u"_a.none(), "max_s"_a.none(), "budget"_a.none());
    m.def("path_problem",
          [](nb::handle t, nb::handle path, nb::handle mover, nb::handle bs, nb::handle radius, nb::handle jump, nb::handle off) {
              return text_or_none(path_problem(terrain(t), points(path, "path"), integer(mover, "mover_id"), bodies(bs, "bodies"),
                                               radius_arg(radius), maybe_integer(jump, "jump_segment"), flag(off, "allow_off_table")));
          },
          "terrain"_a.none(), "path"_a.none(), "mover_id"_a.none(), "bodies"_a.none(), "radius"_a.none() = 0.5,
          "jump_segment"_a.none() = nb::none(), "allow_off_table"_a.none() = false);
    m.def("straight_ok",
          [](nb::handle t, nb::handle a, nb::handle c, nb::handle others, nb::handle radius) {
              return straight_ok(terrain(t), point(a, "a"), point(c, "c"), bodies(others, "others"), radius_arg(radius));
          },
          "terrain"_a.none(), "a"_a.none(), "c"_a.none(), "others"_a.none(), "radius"_a.none());
    m.def("furthest_clear",
          [](nb::handle t, nb::handle a, nb::handle u, nb::handle max_s, nb::handle others, nb::handle radius, nb::handle open) {
              return furthest_clear(terrain(t), point(a, "a"), point(u, "u"), real(max_s, "max_s"), bodies(others, "others"),
                                    radius_arg(radius), edge(open, "open_edge", true));
          },
          "terrain"_a.none(), "a"_a.none(), "u"_a.none(), "max_s"_a.none(), "others"_a.none(), "radius"_a.none(),
          "open_edge"_a.none() = nb::none());
    m.def("move_candidates",
          [](nb::handle t, nb::handle pos, nb::handle allowance, nb::handle mover, nb::handle bs, nb::handle radius,
             nb::handle directions, nb::handle fractions) {
              return point_list(move_candidates(terrain(t), point(pos, "pos"), real(allowance, "allowance"), integer(mover, "mover_id"),
                                                bodies(bs, "bodies"), radius_arg(radius), integer(directions, "directions", 0, 1 << 16),
                                                reals(fractions, "fractions")));
          },
          "terrain"_a.none(), "pos"_a.none(), "allowance"_a.none(), "mover_id"_a.none(), "bodies"_a.none(),
          "radius"_a.none() = 0.5, "directions"_a.none() = 16, "fractions"_a.none() = nb::make_tuple(0.25, 0.5, 0.75, 1.0));
    m.def("lattice_offsets",
          [](nb::handle max_dist, nb::handle step) {
              const double d = real(max_dist, "max_dist");
              const double s = positive(step, "step");
              if (std::fabs(d) / s > 4096.0) throw ArgumentError("max_dist", "at most 4096 steps");
              nb::list out;
              for (const Offset& o : lattice_offsets(d, s)) out.append(nb::make_tuple(o.dx, o.dy, o.length));
              return out;
          },
          "max_dist"_a.none(), "step"_a.none());
    m.def("duck_back_move",
          [](nb::handle t, nb::handle pos, nb::handle cause, nb::handle max_dist, nb::handle speed, nb::handle mover,
             nb::handle cause_id, nb::handle bs, nb::handle radius, nb::handle ews, nb::handle moved, nb::handle step,
             nb::handle jets) {
              DuckBackArgs args;
              args.max_dist = real(max_dist, "max_dist");
              args.speed = real(speed, "speed");
              args.mover_id = integer(mover, "mover_id");
              args.cause_id = integer(cause_id, "cause_id");
              args.radius = radius_arg(radius);
              args.cause_has_ews = flag(ews, "cause_has_ews");
              args.moved_this_turn = flag(moved, "moved_this_turn");
              args.step = positive(step, "step");
              args.jump_jets = flag(jets, "jump_jets");
              if (std::fabs(args.max_dist) / args.step > 4096.0) throw ArgumentError("max_dist", "at most 4096 steps");
              const MoveTerrain& mt = terrain(t);
              landing_steps(mt, args.speed, "speed");
              const DuckBack d = duck_back_move(mt, point(pos, "pos"), point(cause, "cause"), bodies(bs, "bodies"), args);
              return nb::make_tuple(point_tuple(d.to), d.jump);
          },
          "terrain"_a.none(), "pos"_a.none(), "cause"_a.none(), "max_dist"_a.none(), "speed"_a.none(), "mover_id"_a.none(),
          "cause_id"_a.none(), "bodies"_a.none(), "radius"_a.none() = 0.5, "cause_has_ews"_a.none() = false,
          "moved_this_turn"_a.none() = false, "step"_a.none() = 0.5, "jump_jets"_a.none() = false);
    m.def("nearest_edge_away",
          [](nb::handle t, nb::handle pos, nb::handle enemy, nb::handle home) {
              std::optional<Point> e;
              if (!enemy.is_none()) e = point(enemy, "enemy");
              const auto found = nearest_edge_away(terrain(t), point(pos, "pos"), e, edge(home, "home_edge", true));
              return nb::str(found ? kEdgeNames[static_cast<int>(*found)] : "");
          },
          "terrain"_a.none(), "pos"_a.none(), "enemy"_a.none(), "home_edge"_a.none() = nb::none());
    m.def("leave_move_to",
          [](nb::handle t, nb::handle pos, nb::handle e, nb::handle dist, nb::handle mover, nb::handle bs, nb::handle radius,
             nb::handle jets) {
              const MoveTerrain& mt = terrain(t);
              const double d = real(dist, "dist");
              landing_steps(mt, d, "dist");
              const Leave l = leave_move_to(mt, point(pos, "pos"), *edge(e, "edge", false), d,
                                            integer(mover, "mover_id"), bodies(bs, "bodies"), radius_arg(radius), flag(jets, "jump_jets"));
              return nb::make_tuple(point_tuple(l.to), l.exited, l.jumped);
          },
          "terrain"_a.none(), "pos"_a.none(), "edge"_a.none(), "dist"_a.none(), "mover_id"_a.none(), "bodies"_a.none(),
          "radius"_a.none() = 0.5, "jump_jets"_a.none() = false);
    m.def("beyond_edge",
          [](nb::handle t, nb::handle p, nb::handle e) { return beyond_edge(terrain(t), point(p, "p"), edge(e, "edge", true)); },
          "terrain"_a.none(), "p"_a.none(), "edge"_a.none());
    m.def("landing_ok",
          [](nb::handle t, nb::handle p, nb::handle length, nb::handle others, nb::handle radius, nb::handle open) {
              return landing_ok(terrain(t), point(p, "p"), real(length, "length"), bodies(others, "others"), radius_arg(radius),
                                edge(open, "open_edge", true));
          },
          "terrain"_a.none(), "p"_a.none(), "length"_a.none(), "others"_a.none(), "radius"_a.none(), "open_edge"_a.none() = nb::none());
    m.def("furthest_landing",
          [](nb::handle t, nb::handle start, nb::handle u, nb::handle max_s, nb::handle others, nb::handle radius, nb::handle open) {
              const MoveTerrain& mt = terrain(t);
              const double s = real(max_s, "max_s");
              landing_steps(mt, s, "max_s");
              return furthest_landing(mt, point(start, "start"), point(u, "u"), s, bodies(others, "others"), radius_arg(radius),
                                      edge(open, "open_edge", true));
          },
          "terrain"_a.none(), "start"_a.none(), "u"_a.none(), "max_s"_a.none(), "others"_a.none(), "radius"_a.none(),
          "open_edge"_a.none() = nb::none());
    m.def("face_options",
          [](nb::handle heading, nb::handle turn, nb::handle headings, nb::handle twists) {
              nb::list out;
              for (const FaceChoice& f : face_options(real(heading, "heading"), flag(turn, "turn"), reals(headings, "headings"),
                                                      twists_arg(twists))) {
                  out.append(nb::make_tuple(f.heading ? nb::object(nb::float_(*f.heading)) : nb::none(), f.twist));
              }
              return out;
          },
          "heading"_a.none(), "turn"_a.none(), "headings"_a.none(), "twists"_a.none(),
          "facing.face_options as (heading or None, twist) rows.");
    m.def("face_toward",
          [](nb::handle fs, nb::handle pos, nb::handle heading, nb::handle p) -> nb::object {
              const auto found = face_toward(faces(fs, "faces"), point(pos, "pos"), real(heading, "heading"), point(p, "point"));
              if (!found) return nb::none();
              return nb::int_(*found);
          },
          "faces"_a.none(), "pos"_a.none(), "heading"_a.none(), "point"_a.none(),
          "facing.face_toward: the index of the chosen face, or None when there is none.");
    bind_flow_mech_moves(m);
}

}  // namespace wargym::no_quarter
