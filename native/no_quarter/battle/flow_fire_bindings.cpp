// Bindings of the FIRE frame's handler (flow_fire.hpp) and of consequences.hpp through it, in
// _core.no_quarter.fire: FireTables (forces/data.hpp RulesTables, built by the glue
// native/no_quarter/fire.py), fire_unit (one engine unit at a fire frame on top: a step, or an
// act with an action) and fire_options. Bad input raises NativeTypeError/NativeArgumentError
// naming the argument; NotPorted (a building fired at, a luck choice under a guard) raises
// NotImplementedError (flow_bindings' translator) and leaves the battle unchanged.
#include "../../dice_bindings.hpp"
#include <nanobind/nanobind.h>

#include <array>
#include <string>
#include <vector>

#include "../../errors.hpp"
#include "../battlefield/terrain_tables.hpp"
#include "../sight_movement/movement_bindings.hpp"
#include "actions_bindings.hpp"
#include "fire_group_rules.hpp"
#include "consequences.hpp"
#include "flow_fire.hpp"
#include "flow_fire_bindings.hpp"
#include "luck.hpp"
#include "state_io.hpp"

namespace nb = nanobind;
using namespace nanobind::literals;

namespace {

namespace nq = wargym::no_quarter;
using state_io::flag;
using state_io::integer;
using state_io::real;
using wargym::wrong_type;

template <class T>
const T& typed(nb::handle h, const char* name, const char* expected) {
    const T* p = nullptr;
    if (!nb::try_cast(h, p, false) || p == nullptr) wrong_type(name, expected, h);
    return *p;
}

std::vector<nq::Location> locations(nb::handle h, const std::string& name) {
    if (!PyList_Check(h.ptr())) wrong_type(name, "a list of Location values", h);
    std::vector<nq::Location> out;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(h.ptr()); ++i) {
        nb::handle item = PyList_GET_ITEM(h.ptr(), i);
        const std::string at = name + "[" + std::to_string(i) + "]";
        if (!PyUnicode_Check(item.ptr())) wrong_type(at, "a Location value", item);
        Py_ssize_t size = 0;
        const char* text = PyUnicode_AsUTF8AndSize(item.ptr(), &size);
        if (!text) {
            PyErr_Clear();
            wrong_type(at, "a Location value", item);
        }
        const auto found = nq::kLocation.find(std::string_view(text, static_cast<std::size_t>(size)));
        if (!found) throw wargym::ArgumentError(at, at + ": " + wargym::short_repr(item) + " is not a Location");
        out.push_back(*found);
    }
    return out;
}

std::vector<nq::Rect> rects(nb::handle h, const std::string& name) {
    if (!PyList_Check(h.ptr())) wrong_type(name, "a list of (x0, y0, x1, y1)", h);
    std::vector<nq::Rect> out;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(h.ptr()); ++i) {
        nb::handle item = PyList_GET_ITEM(h.ptr(), i);
        const std::string at = name + "[" + std::to_string(i) + "]";
        if (!PyTuple_Check(item.ptr()) || PyTuple_GET_SIZE(item.ptr()) != 4) wrong_type(at, "a tuple (x0, y0, x1, y1)", item);
        double v[4];
        for (Py_ssize_t k = 0; k < 4; ++k) v[k] = real(PyTuple_GET_ITEM(item.ptr(), k), at);
        out.push_back({v[0], v[1], v[2], v[3]});
    }
    return out;
}

double nonnegative(nb::handle h, const char* name) {
    const double v = real(h, name);
    if (!(v >= 0.0)) throw wargym::ArgumentError(name, std::string(name) + ": expected a number >= 0");
    return v;
}

nq::Battle& battle_arg(nb::handle h) {
    nq::Battle* b = nullptr;
    if (!nb::try_cast(h, b, false) || b == nullptr) wrong_type("battle", "a native Battle", h);
    return *b;
}

const nq::RulesTables& tables_arg(nb::handle h) {
    return typed<nq::RulesTables>(h, "tables", "a FireTables");
}

// One value per Terrain kind, in vocab order (terrain_tables.hpp TerrainNumbers).
template <class T, class Read>
std::array<T, nq::kTerrainKinds> per_kind(nb::handle h, const std::string& name, Read read) {
    if (!PyList_Check(h.ptr()) || PyList_GET_SIZE(h.ptr()) != static_cast<Py_ssize_t>(nq::kTerrainKinds)) {
        wrong_type(name, "a list of one value per Terrain kind (8, in vocabulary order)", h);
    }
    std::array<T, nq::kTerrainKinds> out{};
    for (std::size_t i = 0; i < nq::kTerrainKinds; ++i) {
        out[i] = read(nb::handle(PyList_GET_ITEM(h.ptr(), static_cast<Py_ssize_t>(i))), name + "[" + std::to_string(i) + "]");
    }
    return out;
}

// The terrain numbers tuple: (deep_water_shore_band, cost_per_inch, concealing, cover_moving,
// cover_stationary), the last four one value per Terrain kind.
nq::TerrainNumbers terrain_numbers_arg(nb::handle h) {
    if (!PyTuple_Check(h.ptr()) || PyTuple_GET_SIZE(h.ptr()) != 5) {
        wrong_type("terrain", "a tuple of 5 (deep_water_shore_band, cost_per_inch, concealing, cover_moving, "
                              "cover_stationary)", h);
    }
    auto item = [&](Py_ssize_t i) { return nb::handle(PyTuple_GET_ITEM(h.ptr(), i)); };
    const auto flag_at = [](nb::handle v, const std::string& at) { return flag(v, at.c_str()); };
    nq::TerrainNumbers n;
    n.present = true;
    n.deep_water_shore_band = nonnegative(item(0), "terrain.deep_water_shore_band");
    n.cost_per_inch = per_kind<double>(item(1), "terrain.cost_per_inch", [](nb::handle v, const std::string& at) {
        const double c = real(v, at.c_str());
        if (!(c > 0.0)) throw wargym::ArgumentError(at, at + ": expected a positive cost per inch");
        return c;
    });
    n.concealing = per_kind<bool>(item(2), "terrain.concealing", flag_at);
    n.cover_moving = per_kind<bool>(item(3), "terrain.cover_moving", flag_at);
    n.cover_stationary = per_kind<bool>(item(4), "terrain.cover_stationary", flag_at);
    return n;
}

// The top frame, which must be a fire frame.
nq::FrameRef fire_top(const nq::Battle& b) {
    if (b.frames.empty() || b.frames.top().kind() != nq::FrameKind::fire) {
        throw wargym::ArgumentError("battle", "battle: the top frame is not a fire frame");
    }
    return b.frames.top_ref();
}

}  // namespace

namespace wargym::no_quarter {

const RulesTables& rules_tables_arg(nb::handle h, const char* name) {
    return typed<RulesTables>(h, name, "a FireTables");
}

void bind_fire(nb::module_& g) {
    nb::module_ m = g.def_submodule("fire", "The FIRE frame's handler and the consequences of hits (flow_fire.hpp, consequences.hpp).");
    nb::class_<RulesTables>(m, "FireTables", "What the fire handler and consequences read (forces/data.hpp RulesTables).")
        .def("__init__",
             [](RulesTables* self, nb::handle combat, nb::handle rules, nb::handle sight, nb::handle cover,
                nb::handle move, nb::handle protection, nb::handle numbers) {
                 RulesTables t;
                 t.combat = typed<CombatTables>(combat, "combat", "a CombatTables");
                 read_group_rules(rules, t.leaders, t.perception, t.activation);
                 t.sight = typed<SightTerrain>(sight, "sight", "a SightTerrain");
                 t.cover = typed<CoverTerrain>(cover, "cover", "a CoverTerrain");
                 t.move = move_terrain_arg(move, "move");
                 if (!PyTuple_Check(protection.ptr()) || PyTuple_GET_SIZE(protection.ptr()) != 8) {
                     wrong_type("protection", "a tuple of 8 (cover_config's protected sets, ...)", protection);
                 }
                 auto p = [&](Py_ssize_t i) { return nb::handle(PyTuple_GET_ITEM(protection.ptr(), i)); };
                 t.protection.partial_building = locations(p(0), "protection.partial_building");
                 t.protection.blocked_side_arm = flag(p(1), "protection.blocked_side_arm");
                 t.protection.hill_crest_band = locations(p(2), "protection.hill_crest_band");
                 t.protection.river = locations(p(3), "protection.river");
                 t.protection.deep_water_shore_band = locations(p(4), "protection.deep_water_shore_band");
                 t.protection.hill_crest_band_inches = nonnegative(p(5), "protection.hill_crest_band_inches");
                 t.protection.rivers = rects(p(6), "protection.rivers");
                 t.protection.deep = rects(p(7), "protection.deep");
                 t.protection.hills = t.sight.hills;
                 if (!PyTuple_Check(numbers.ptr()) || PyTuple_GET_SIZE(numbers.ptr()) != 7) {
                     wrong_type("numbers", "a tuple of 7 numbers", numbers);
                 }
                 auto n = [&](Py_ssize_t i) { return nb::handle(PyTuple_GET_ITEM(numbers.ptr(), i)); };
                 t.flamer_impact = integer(n(0), "numbers.flamer_impact", 0, 1'000'000);
                 t.mech_down_radius_inches = nonnegative(n(1), "numbers.mech_down_radius_inches");
                 t.mech_down_requires_los = flag(n(2), "numbers.mech_down_requires_los");
                 t.duck_back_max = nonnegative(n(3), "numbers.duck_back_max");
                 t.aim_offset = nonnegative(n(4), "numbers.aim_offset");
                 t.flames.strip_width = nonnegative(n(5), "numbers.flame_strip_width");
                 t.flames.circle_diameter = nonnegative(n(6), "numbers.flame_circle_diameter");
                 new (self) RulesTables(std::move(t));
             },
             "combat"_a.none(), "rules"_a.none(), "sight"_a.none(), "cover"_a.none(), "move"_a.none(),
             "protection"_a.none(), "numbers"_a.none());
    m.def("with_terrain",
          [](nb::handle tables, nb::handle terrain, nb::handle battle) {
              RulesTables t = tables_arg(tables);
              t.terrain_numbers = terrain_numbers_arg(terrain);
              t.terrain_of.reset();
              if (!battle.is_none()) build_battlefield_tables(t, battle_arg(battle).battlefield);
              return t;
          },
          "tables"_a.none(), "terrain"_a.none(), "battle"_a.none() = nb::none(),
          "A copy of ``tables`` with the numbers the core builds a battlefield's sight, cover, move and "
          "protection tables with (terrain_tables.hpp), built for the native ``battle``'s battlefield if given; "
          "the core rebuilds them for any other battlefield and when a building falls.");
    m.def("fire_unit",
          [](nb::handle battle, nb::handle tables, nb::handle action, nb::handle dice) {
              Battle& b = battle_arg(battle);
              const RulesTables& t = tables_arg(tables);
              wargym::Dice* d = &wargym::native_dice_arg(dice);
              const FrameRef top = fire_top(b);
              std::optional<Action> act;
              if (!action.is_none()) act = action_from_dict_py(action, "action");
              Battle work = b.clone();
              EventList sink;
              Ctx ctx(work, *d);
              ctx.use_rules(t);
              ctx.sink = &sink;
              // game._act: the unit through FIRE's registered slot under luck.run_unit's guard
              static const Procedures procedures = [] {
                  Procedures p;
                  register_fire(p);
                  register_luck(p);
                  return p;
              }();
              ctx.procedures = &procedures;
              wargym::no_quarter::act(ctx, top, act ? &*act : nullptr);
              b = std::move(work);  // a unit that raised leaves the battle unchanged
              nb::list out;
              for (const auto& e : sink.events) out.append(nb::cast(e));
              return out;
          },
          "battle"_a.none(), "tables"_a.none(), "action"_a.none(), "dice"_a.none(),
          "One engine unit at the fire frame on top: fire_step (action None) or fire_act(action_to_dict); "
          "returns the events.");
    m.def("consequence",
          [](nb::handle battle, nb::handle tables, nb::handle what, nb::handle mech, nb::handle other,
             nb::handle path, nb::handle dice) {
              Battle& b = battle_arg(battle);
              const RulesTables& t = tables_arg(tables);
              wargym::Dice* d = nullptr;
              wargym::ScriptedDice* scripted = nullptr;
              if (!nb::try_cast(dice, scripted, false) || !scripted) wrong_type("dice", "a native ScriptedDice", dice);
              d = scripted;
              if (!PyUnicode_Check(what.ptr())) wrong_type("what", "a text", what);
              const std::string name = nb::borrow<nb::str>(what).c_str();
              const auto id = integer(mech, "mech", 0, std::numeric_limits<std::int64_t>::max());
              if (!b.mech(id)) throw wargym::ArgumentError("mech", "mech: no mech " + std::to_string(id));
              std::optional<std::int64_t> other_id;
              if (!other.is_none()) {
                  other_id = integer(other, "other", 0, std::numeric_limits<std::int64_t>::max());
                  if (!b.mech(*other_id)) throw wargym::ArgumentError("other", "other: no mech " + std::to_string(*other_id));
              }
              std::vector<Point> points;
              if (!path.is_none()) {
                  if (!PyList_Check(path.ptr())) wrong_type("path", "a list of (x, y)", path);
                  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(path.ptr()); ++i) {
                      nb::handle p = PyList_GET_ITEM(path.ptr(), i);
                      if (!PyTuple_Check(p.ptr()) || PyTuple_GET_SIZE(p.ptr()) != 2) wrong_type("path", "a list of (x, y)", path);
                      points.push_back({real(PyTuple_GET_ITEM(p.ptr(), 0), "path"), real(PyTuple_GET_ITEM(p.ptr(), 1), "path")});
                  }
              }
              Battle work = b.clone();
              EventList sink;
              Ctx ctx(work, *d);
              ctx.use_rules(t);
              ctx.sink = &sink;
              Mech& m = const_cast<Mech&>(*work.mech(id));
              const Mech* o = other_id ? work.mech(*other_id) : nullptr;
              const Ids enemies = other_id ? Ids{*other_id} : Ids{};
              if (name == "duck_back") {
                  duck_back(ctx, m, o, "test");
              } else if (name == "leave_battlefield") {
                  leave_battlefield(ctx, m, "test", enemies);
              } else if (name == "remove") {
                  remove(ctx, m, Removal::destroyed);
              } else if (name == "pilot_killed") {
                  pilot_killed(ctx, m, "test");
              } else if (name == "pilot_test") {
                  pilot_test(ctx, m);
              } else if (name.rfind("critical_hit:", 0) == 0) {
                  const auto loc = kLocation.find(std::string_view(name).substr(13));
                  if (!loc) throw wargym::ArgumentError("what", "what: no such location");
                  critical_hit(ctx, m, *loc);
              } else if (name == "cross_flames") {
                  if (points.size() < 2) throw wargym::ArgumentError("path", "path: two points at least");
                  cross_flames(ctx, m, points);
              } else {
                  throw wargym::ArgumentError("what", "what: " + name + " is not a consequence");
              }
              b = std::move(work);
              nb::list out;
              for (const auto& e : sink.events) out.append(nb::cast(e));
              return out;
          },
          "battle"_a.none(), "tables"_a.none(), "what"_a.none(), "mech"_a.none(), "other"_a.none(),
          "path"_a.none(), "dice"_a.none(),
          "A consequences.py function on mech (other: the cause / enemy; what: duck_back, leave_battlefield, "
          "remove, pilot_killed, pilot_test, critical_hit:<location>, cross_flames along path); returns the events.");
    m.def("fire_options",
          [](nb::handle battle, nb::handle tables) {
              const Battle& b = battle_arg(battle);
              const RulesTables& t = tables_arg(tables);
              const FrameRef top = fire_top(b);
              Procedures procedures;
              register_fire(procedures);  // Handler.options of FIRE's slot
              return actions_to_py(procedures.handlers[static_cast<std::size_t>(FrameKind::fire)].options(b, t, top));
          },
          "battle"_a.none(), "tables"_a.none(), "flow_fire.fire_options of the fire frame on top (reference actions).");
}

}  // namespace wargym::no_quarter
