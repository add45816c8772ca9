// Bindings of the move options of a native Battle (flow_mech_moves.hpp, bumping.hpp) in
// _core.no_quarter.movement: move_options, move_problem, planning_bodies, bump. The mech frame
// is the reference's frame dict ("mech", "spent", "moved"); the mech, the options and the bases
// are read from the native Battle.
#include <Python.h>
#include <nanobind/nanobind.h>

#include <algorithm>

#include "../sight_movement/movement_args.hpp"
#include "../sight_movement/movement_bindings.hpp"
#include "flow_mech_moves.hpp"
#include "state.hpp"

namespace nb = nanobind;
using namespace nb::literals;
namespace nq = wargym::no_quarter;
using namespace wargym::movement_args;
using wargym::ArgumentError;
using wargym::wrong_type;

namespace {

const nq::Battle& battle_arg(nb::handle h) {
    nq::Battle* b = nullptr;
    if (!nb::try_cast(h, b, false) || b == nullptr) wrong_type("battle", "a native Battle", h);
    return *b;
}

nb::handle item(nb::handle frame, const char* key) {
    PyObject* v = PyDict_GetItemString(frame.ptr(), key);
    if (v == nullptr) throw ArgumentError(std::string("frame['") + key + "']", "missing");
    return v;
}

bool has_item(const nq::Mech& m, nq::ItemType kind) {  // an operable item of this kind
    const auto& items = m.design().items;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].item == kind &&
            std::find(m.inoperable.begin(), m.inoperable.end(), static_cast<std::int64_t>(i)) == m.inoperable.end()) {
            return true;
        }
    }
    return false;
}

struct Inputs {
    const nq::Battle* battle;
    const nq::Mech* mech;
    nq::Mover mover;
    nq::MoveFrame frame;
    std::vector<nq::Sighter> in_play;
    std::vector<nq::BaseAt> bases;
};

Inputs read(nb::handle battle, nb::handle mech_id, nb::handle frame) {
    Inputs in;
    in.battle = &battle_arg(battle);
    std::int64_t id = 0;
    if (!frame.is_none()) {
        if (!PyDict_Check(frame.ptr())) wrong_type("frame", "a mech frame (dict)", frame);
        id = integer(item(frame, "mech"), "frame['mech']");
        in.frame.spent = real(item(frame, "spent"), "frame['spent']");
        in.frame.moved = flag(item(frame, "moved"), "frame['moved']");
    } else {
        id = integer(mech_id, "mech");
    }
    in.mech = in.battle->mech(id);
    if (in.mech == nullptr) {
        throw ArgumentError(frame.is_none() ? "mech" : "frame['mech']", "no mech " + std::to_string(id) + " in the battle");
    }
    const nq::Mech& m = *in.mech;
    in.mover = {m.id, m.pos, m.heading, m.speed, has_item(m, nq::ItemType::jump_jets)};
    for (const nq::Mech& other : in.battle->mechs) {
        if (other.removed) continue;
        const bool ews = has_item(other, nq::ItemType::ews_1) || has_item(other, nq::ItemType::ews_2);
        in.in_play.push_back({other.id, static_cast<int>(other.side), other.pos, ews,
                              other.status == nq::Status::duck_back, other.hidden_from});
    }
    in.bases = nq::all_bases(in.in_play, in.battle->wrecks, in.battle->options->base_radius);
    return in;
}

std::vector<nq::BaseAt> planning(const nq::MoveTerrain& t, const Inputs& in) {
    const nq::BattleOptions& o = *in.battle->options;
    return nq::planning_bodies(t, in.in_play, in.bases, in.mech->id, static_cast<int>(in.mech->side), o.base_radius,
                               o.unseen_bases == nq::UnseenBases::bump);
}

nq::MoveSettings settings(const nq::Battle& b) {
    return {b.options->base_radius, b.options->move_directions, b.options->move_fractions};
}

nb::tuple option_tuple(const nq::MoveOption& m) {
    return nb::make_tuple(m.mech, point_tuple(m.to), m.reverse, m.jump);
}

}  // namespace

namespace wargym::no_quarter {

void bind_flow_mech_moves(nb::module_& m) {
    m.def("move_options",
          [](nb::handle terrain, nb::handle battle, nb::handle frame) {
              const MoveTerrain& t = move_terrain_arg(terrain, "terrain");
              if (!PyDict_Check(frame.ptr())) wrong_type("frame", "a mech frame (dict)", frame);
              const Inputs in = read(battle, nb::none(), frame);
              const auto others = planning(t, in);
              nb::list out;
              for (const MoveOption& o : nq::move_options(t, in.mover, in.frame, others, settings(*in.battle))) {
                  out.append(option_tuple(o));
              }
              return out;
          },
          "terrain"_a.none(), "battle"_a.none(), "frame"_a.none(),
          "The Move options of the mech frame's mech, as (mech, (x, y), reverse, jump), in the reference's order.");
    m.def("move_problem",
          [](nb::handle terrain, nb::handle battle, nb::handle frame, nb::handle to, nb::handle reverse, nb::handle jump) -> nb::object {
              const MoveTerrain& t = move_terrain_arg(terrain, "terrain");
              if (!PyDict_Check(frame.ptr())) wrong_type("frame", "a mech frame (dict)", frame);
              const Inputs in = read(battle, nb::none(), frame);
              const MoveOption action{in.mech->id, point(to, "to"), flag(reverse, "reverse"), flag(jump, "jump")};
              const auto problem = nq::move_problem(t, in.mover, in.frame, planning(t, in), in.battle->options->base_radius, action);
              if (!problem) return nb::none();
              return nb::str(problem->c_str());
          },
          "terrain"_a.none(), "battle"_a.none(), "frame"_a.none(), "to"_a.none(), "reverse"_a.none() = false,
          "jump"_a.none() = false, "flow_mech.move_problem: why the move is not legal now, or None.");
    m.def("planning_bodies",
          [](nb::handle terrain, nb::handle battle, nb::handle mech) {
              const MoveTerrain& t = move_terrain_arg(terrain, "terrain");
              const Inputs in = read(battle, mech, nb::none());
              nb::list out;
              for (const BaseAt& b : planning(t, in)) out.append(nb::make_tuple(b.id, b.x, b.y, b.radius));
              return out;
          },
          "terrain"_a.none(), "battle"_a.none(), "mech"_a.none(),
          "bumping.planning_bodies as (id, x, y, radius) rows.");
    m.def("bump",
          [](nb::handle terrain, nb::handle battle, nb::handle mech, nb::handle to, nb::handle jump) -> nb::object {
              const MoveTerrain& t = move_terrain_arg(terrain, "terrain");
              const Inputs in = read(battle, mech, nb::none());
              const BattleOptions& o = *in.battle->options;
              const Point target = point(to, "to");
              if (distance(in.mech->pos, target) / move_jump_backoff(t) > 1e6) {
                  throw ArgumentError("to", "at most 1e6 jump steps away");
              }
              const auto found = nq::bump(t, in.in_play, in.bases, in.mech->id, static_cast<int>(in.mech->side), in.mech->pos,
                                          target, flag(jump, "jump"), o.base_radius, o.unseen_bases == UnseenBases::bump);
              if (!found) return nb::none();
              return nb::make_tuple(point_tuple(found->to), found->base);
          },
          "terrain"_a.none(), "battle"_a.none(), "mech"_a.none(), "to"_a.none(), "jump"_a.none() = false,
          "bumping.bump: ((x, y), base id) where the move stops on an unseen base, or None.");
}

}  // namespace wargym::no_quarter
