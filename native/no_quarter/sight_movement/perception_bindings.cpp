// Bindings of perception.hpp, forces/leaders.hpp and forces/pilots.hpp in
// _core.no_quarter.perception. Each function takes the native Battle (battle_from_dict), the
// SightTerrain of its battlefield (sight_terrain) and the GroupRules / CoverTerrain the glue
// (wargym.native.no_quarter.perception) builds from the rule tables; mechs are given by id.
// Bad input raises NativeTypeError / NativeArgumentError naming the argument.
#include "perception_bindings.hpp"

#include <nanobind/ndarray.h>

#include <cmath>
#include <limits>

#include "../../errors.hpp"
#include "../../pyvalues.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace wargym::no_quarter {
namespace perception_args {

using wargym::short_repr;
using wargym::wrong_type;

Battle& battle(nb::handle h) {
    Battle* b = nullptr;
    if (!nb::try_cast(h, b, false) || b == nullptr) wrong_type("battle", "a native Battle", h);
    return *b;
}

const SightTerrain& terrain(nb::handle h) {
    SightTerrain* t = nullptr;
    if (!nb::try_cast(h, t, false) || t == nullptr) wrong_type("terrain", "a SightTerrain", h);
    return *t;
}

const GroupRules& rules(nb::handle h) {
    GroupRules* r = nullptr;
    if (!nb::try_cast(h, r, false) || r == nullptr) wrong_type("rules", "a GroupRules", h);
    return *r;
}

static const CoverTerrain& cover(nb::handle h) {
    CoverTerrain* c = nullptr;
    if (!nb::try_cast(h, c, false) || c == nullptr) wrong_type("cover", "a CoverTerrain", h);
    return *c;
}

std::int64_t integer(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (!PyLong_Check(o) || PyBool_Check(o)) wrong_type(name, "an integer", h);
    int overflow = 0;
    const long long value = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) throw ArgumentError(name, "expected a 64-bit integer, got " + short_repr(h));
    return value;
}

static double real(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (PyBool_Check(o) || !(PyFloat_Check(o) || PyLong_Check(o))) wrong_type(name, "a number", h);
    const double value = PyFloat_AsDouble(o);
    if (PyErr_Occurred() || !std::isfinite(value)) {
        PyErr_Clear();
        throw ArgumentError(name, "expected a finite number, got " + short_repr(h));
    }
    return value;
}

static bool flag(nb::handle h, const std::string& name) {
    if (!PyBool_Check(h.ptr())) wrong_type(name, "True or False", h);
    return h.ptr() == Py_True;
}

static Point point(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if ((PyTuple_Check(o) || PyList_Check(o)) && PySequence_Size(o) == 2) {
        nb::sequence seq = nb::borrow<nb::sequence>(h);
        return {real(seq[0], name + "[0]"), real(seq[1], name + "[1]")};
    }
    wrong_type(name, "a point (x, y) of two numbers", h);
}

std::string text(nb::handle h, const std::string& name) {
    if (!PyUnicode_Check(h.ptr())) wrong_type(name, "a string", h);
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(h.ptr(), &size);
    if (data == nullptr) {
        PyErr_Clear();
        throw ArgumentError(name, "expected valid text, got " + short_repr(h));
    }
    return std::string(data, static_cast<std::size_t>(size));
}

static std::optional<std::int64_t> twist(nb::handle h) {
    if (h.is_none()) return std::nullopt;
    return integer(h, "twist");
}

const Mech& mech(const Battle& battle, nb::handle h, const std::string& name) {
    const std::int64_t id = integer(h, name);
    const Mech* m = battle.mech(id);
    if (m == nullptr) throw ArgumentError(name, "no mech with id " + std::to_string(id));
    return *m;
}

Side side(nb::handle h, const std::string& name) {
    nb::handle text = h;
    nb::object value;
    if (!PyUnicode_Check(h.ptr()) && nb::hasattr(h, "value") &&
        std::string(Py_TYPE(h.ptr())->tp_name) == "Side") {
        value = h.attr("value");  // a vocab.Side
        text = value;
    }
    if (!PyUnicode_Check(text.ptr())) wrong_type(name, "a side 'blue' or 'red'", h);
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
    if (data == nullptr) {
        PyErr_Clear();
        wrong_type(name, "a side 'blue' or 'red'", h);
    }
    const auto found = kSide.find(std::string_view(data, static_cast<std::size_t>(size)));
    if (!found) throw ArgumentError(name, "expected 'blue' or 'red', got " + short_repr(h));
    return *found;
}

std::vector<std::int64_t> ids(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (!PyList_Check(o) && !PyTuple_Check(o) && !PySet_Check(o) && !PyFrozenSet_Check(o)) {
        wrong_type(name, "a list of mech ids", h);
    }
    std::vector<std::int64_t> out;
    std::size_t i = 0;
    for (nb::handle item : h) out.push_back(integer(item, name + "[" + std::to_string(i++) + "]"));
    return out;
}

Groups groups(nb::handle h, const std::string& name) {
    if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) wrong_type(name, "a list of groups", h);
    Groups out;
    std::size_t i = 0;
    for (nb::handle g : h) {
        const std::string at = name + "[" + std::to_string(i++) + "]";
        if (!PyList_Check(g.ptr()) && !PyTuple_Check(g.ptr())) wrong_type(at, "a list of mech ids", g);
        out.push_back(ids(g, at));
    }
    return out;
}

nb::list int_list(const std::vector<std::int64_t>& values) {
    nb::list out;
    for (std::int64_t v : values) out.append(v);
    return out;
}

nb::list groups_list(const Groups& groups) {
    nb::list out;
    for (const auto& g : groups) out.append(int_list(g));
    return out;
}

static std::vector<Rect> rects(nb::handle h, const std::string& name) {
    nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu> m;
    if (!nb::try_cast(h, m, true) || m.shape(1) != 4) {
        wrong_type(name, "a float64 array of shape (n, 4)", h);
    }
    std::vector<Rect> out;
    for (std::size_t i = 0; i < m.shape(0); ++i) {
        const Rect r{m(i, 0), m(i, 1), m(i, 2), m(i, 3)};
        if (!(std::isfinite(r.x0) && std::isfinite(r.y0) && std::isfinite(r.x1) &&
              std::isfinite(r.y1) && r.x0 <= r.x1 && r.y0 <= r.y1)) {
            throw ArgumentError(name, "row " + std::to_string(i) +
                                          " is not a finite rectangle x0 <= x1, y0 <= y1");
        }
        out.push_back(r);
    }
    return out;
}

// A list of exactly n items (the glue hands tables over in vocabulary order).
std::vector<nb::handle> fixed_list(nb::handle h, const std::string& name, std::size_t n) {
    if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) wrong_type(name, "a list", h);
    std::vector<nb::handle> out;
    for (nb::handle item : h) out.push_back(item);
    if (out.size() != n) {
        throw ArgumentError(name, "expected " + std::to_string(n) + " items, got " +
                                      std::to_string(out.size()));
    }
    return out;
}

std::int64_t at_least_one(nb::handle h, const std::string& name) {
    const std::int64_t v = integer(h, name);
    if (v < 1) throw ArgumentError(name, "expected a positive integer, got " + short_repr(h));
    return v;
}

static GroupRules make_rules(nb::handle organization, nb::handle red_teams, nb::handle command_radius,
                             nb::handle command_los, nb::handle cohesion, nb::handle cohesion_los,
                             nb::handle succession, nb::handle attribute_rep, nb::handle only_when,
                             nb::handle fast_moving, nb::handle twists) {
    GroupRules r;
    const auto rows = fixed_list(organization, "organization", kFaction.size);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].is_none()) continue;
        const std::string at = "organization[" + std::to_string(i) + "]";
        const auto row = fixed_list(rows[i], at, 3);
        r.leaders.organization[i] = FormationRow{at_least_one(row[0], at + "[0]"),
                                                 at_least_one(row[1], at + "[1]"),
                                                 at_least_one(row[2], at + "[2]")};
    }
    r.leaders.red_teams = at_least_one(red_teams, "red_teams");
    r.leaders.command_radius_inches = real(command_radius, "command_radius_inches");
    r.leaders.command_radius_requires_los = flag(command_los, "command_radius_requires_los");
    r.leaders.cohesion_link_inches = real(cohesion, "cohesion_link_inches");
    r.leaders.cohesion_link_requires_los = flag(cohesion_los, "cohesion_link_requires_los");
    static constexpr Vocab<SuccessionKind, 5> kinds{
        "succession", {"highest_rep_pilot_in_team", "highest_rep_team_leader_in_squad",
                       "squad_leader", "platoon_leader", "unknown"}};
    const auto ranks = fixed_list(succession, "succession", kRank.size);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const std::string at = "succession[" + std::to_string(i) + "]";
        if (!PyList_Check(ranks[i].ptr()) && !PyTuple_Check(ranks[i].ptr())) {
            wrong_type(at, "a list of (kind, n, text)", ranks[i]);
        }
        std::size_t j = 0;
        for (nb::handle spec : ranks[i]) {
            const std::string sat = at + "[" + std::to_string(j++) + "]";
            const auto parts = fixed_list(spec, sat, 3);
            if (!PyUnicode_Check(parts[0].ptr()) || !PyUnicode_Check(parts[2].ptr())) {
                wrong_type(sat, "(kind, n, text) with kind and text strings", spec);
            }
            const auto kind = kinds.find(text(parts[0], sat + "[0]"));
            if (!kind) throw ArgumentError(sat, "unknown succession kind " + short_repr(parts[0]));
            r.leaders.succession[i].push_back(
                {*kind, integer(parts[1], sat + "[1]"), text(parts[2], sat + "[2]")});
        }
    }
    const auto reps = fixed_list(attribute_rep, "attribute_rep", kAttribute.size);
    const auto sizes = fixed_list(only_when, "only_when_group_size", kAttribute.size);
    for (std::size_t i = 0; i < kAttribute.size; ++i) {
        r.activation.attribute_rep[i] = integer(reps[i], "attribute_rep[" + std::to_string(i) + "]");
        if (!sizes[i].is_none()) {
            r.activation.only_when_group_size[i] =
                integer(sizes[i], "only_when_group_size[" + std::to_string(i) + "]");
        }
    }
    r.perception.fast_moving_inches = real(fast_moving, "fast_moving_inches");
    r.perception.twists = ids(twists, "twists");
    return r;
}

static nb::object sight_tuple(const SightResult& s) {
    nb::object blocked = nb::none();
    if (s.blocked_side == BlockedSide::left) blocked = nb::str("left");
    if (s.blocked_side == BlockedSide::right) blocked = nb::str("right");
    return nb::make_tuple(s.visible, s.clear_lines, s.building_blocked_lines, s.mech_blocked_lines,
                          blocked, s.distance, s.bearing_to_observer);
}

}  // namespace perception_args

void bind_perception(nb::module_& g) {
    using namespace perception_args;
    using H = nb::handle;
    nb::module_ p = g.def_submodule("perception", "Mirrors of perception.py, leaders.py, pilots.py, group_orders.py.");
    p.attr("CONTACT_SLACK") = kContactSlack;
    nb::class_<GroupRules>(p, "GroupRules", "The rule numbers of perception, leaders and pilots (from load_rules).")
        .def("__init__",
             [](GroupRules* self, H organization, H red_teams, H command_radius, H command_los, H cohesion,
                H cohesion_los, H succession, H attribute_rep, H only_when, H fast_moving, H twists) {
                 new (self) GroupRules(make_rules(organization, red_teams, command_radius, command_los, cohesion,
                                                  cohesion_los, succession, attribute_rep, only_when, fast_moving,
                                                  twists));
             },
             "organization"_a.none(), "red_teams"_a.none(), "command_radius_inches"_a.none(),
             "command_radius_requires_los"_a.none(), "cohesion_link_inches"_a.none(),
             "cohesion_link_requires_los"_a.none(), "succession"_a.none(), "attribute_rep"_a.none(),
             "only_when_group_size"_a.none(), "fast_moving_inches"_a.none(), "twists"_a.none());
    nb::class_<CoverTerrain>(p, "CoverTerrain", "What in_cover / is_concealed read (table 17.2 and the battlefield).")
        .def("__init__",
             [](CoverTerrain* self, H concealing, H moving, H stationary, H building, H mech_cover) {
                 new (self) CoverTerrain{rects(concealing, "concealing"), rects(moving, "cover_moving"),
                                         rects(stationary, "cover_stationary"),
                                         flag(building, "behind_building_cover"),
                                         flag(mech_cover, "behind_mech_cover")};
             },
             "concealing"_a.none(), "cover_moving"_a.none(), "cover_stationary"_a.none(),
             "behind_building_cover"_a.none(), "behind_mech_cover"_a.none());

    p.def("bodies", [](H b) {
        nb::list out;
        for (const Body& body : bodies(battle(b))) {
            out.append(nb::make_tuple(body.id, nb::make_tuple(body.x, body.y), body.radius));
        }
        return out;
    }, "battle"_a.none());
    p.def("hidden_pair", [](H b, H x, H y) {
        const Battle& bt = battle(b);
        return hidden_pair(mech(bt, x, "a"), mech(bt, y, "b"));
    }, "battle"_a.none(), "a"_a.none(), "b"_a.none());
    p.def("line_between", [](H b, H t, H o, H x) {
        const Battle& bt = battle(b);
        const Mech& obs = mech(bt, o, "observer");
        const Mech& tgt = mech(bt, x, "target");
        return sight_tuple(line_between(make_scene(bt, terrain(t)), obs, tgt));
    }, "battle"_a.none(), "terrain"_a.none(), "observer"_a.none(), "target"_a.none());
    p.def("sees", [](H b, H t, H o, H x, H tw) {
        const Battle& bt = battle(b);
        const Mech& obs = mech(bt, o, "observer");
        const Mech& tgt = mech(bt, x, "target");
        return sees(make_scene(bt, terrain(t)), obs, tgt, twist(tw));
    }, "battle"_a.none(), "terrain"_a.none(), "observer"_a.none(), "target"_a.none(), "twist"_a.none() = nb::none());
    p.def("in_cover_from", [](H b, H t, H c, H s, H x) {
        const Battle& bt = battle(b);
        const Mech& shooter = mech(bt, s, "shooter");
        const Mech& target = mech(bt, x, "target");
        return in_cover_from(make_scene(bt, terrain(t)), cover(c), shooter, target);
    }, "battle"_a.none(), "terrain"_a.none(), "cover"_a.none(), "shooter"_a.none(), "target"_a.none());
    p.def("concealed", [](H b, H c, H m) { return concealed(cover(c), mech(battle(b), m, "mech")); },
          "battle"_a.none(), "cover"_a.none(), "mech"_a.none());
    p.def("is_fast_moving", [](H b, H r, H m) {
        return is_fast_moving(rules(r).perception, mech(battle(b), m, "mech"));
    }, "battle"_a.none(), "rules"_a.none(), "mech"_a.none());
    p.def("able_to_fire", [](H b, H m) { return able_to_fire(mech(battle(b), m, "mech")); },
          "battle"_a.none(), "mech"_a.none());
    p.def("operable_ranged_weapons", [](H b, H m) {
        return int_list(operable_ranged_weapons(mech(battle(b), m, "mech")));
    }, "battle"_a.none(), "mech"_a.none());
    p.def("has_functioning_ews", [](H b, H m) { return has_functioning_ews(mech(battle(b), m, "mech")); },
          "battle"_a.none(), "mech"_a.none());
    p.def("engaged_with", [](H b, H m) {
        const Battle& bt = battle(b);
        return int_list(engaged_with(bt, mech(bt, m, "mech")));
    }, "battle"_a.none(), "mech"_a.none());
    p.def("weapon_can_engage", [](H b, H t, H s, H w, H x, H tw) {
        const Battle& bt = battle(b);
        const Mech& shooter = mech(bt, s, "shooter");
        const std::int64_t weapon = integer(w, "weapon");
        const Mech& target = mech(bt, x, "target");
        if (weapon < 0 || static_cast<std::size_t>(weapon) >= shooter.design().items.size()) {
            throw ArgumentError("weapon", "no item " + std::to_string(weapon) + " on mech " +
                                              std::to_string(shooter.id));
        }
        return weapon_can_engage(make_scene(bt, terrain(t)), shooter, static_cast<std::size_t>(weapon),
                                 target, twist(tw));
    }, "battle"_a.none(), "terrain"_a.none(), "shooter"_a.none(), "weapon"_a.none(), "target"_a.none(),
       "twist"_a.none() = nb::none());
    p.def("twists_to_engage", [](H b, H t, H r, H s, H x) {
        const Battle& bt = battle(b);
        const Mech& shooter = mech(bt, s, "shooter");
        const Mech& target = mech(bt, x, "target");
        return int_list(twists_to_engage(make_scene(bt, terrain(t)), rules(r).perception, shooter, target));
    }, "battle"_a.none(), "terrain"_a.none(), "rules"_a.none(), "shooter"_a.none(), "target"_a.none());
    p.def("cause_in_range", [](H b, H t, H r, H s, H x) {
        const Battle& bt = battle(b);
        const Mech& tester = mech(bt, s, "tester");
        const Mech& cause = mech(bt, x, "cause");
        return cause_in_range(make_scene(bt, terrain(t)), rules(r).perception, tester, cause);
    }, "battle"_a.none(), "terrain"_a.none(), "rules"_a.none(), "tester"_a.none(), "cause"_a.none());
    p.def("linked", [](H b, H t, H x, H y, H inches, H los) {
        const Battle& bt = battle(b);
        const Mech& a = mech(bt, x, "a");
        const Mech& c = mech(bt, y, "b");
        return linked(make_scene(bt, terrain(t)), a, c, real(inches, "inches"), flag(los, "requires_los"));
    }, "battle"_a.none(), "terrain"_a.none(), "a"_a.none(), "b"_a.none(), "inches"_a.none(),
       "requires_los"_a.none());
    p.def("form_groups", [](H b, H t, H r, H s) {
        const Battle& bt = battle(b);
        const Side sd = side(s, "side");
        return groups_list(form_groups(make_scene(bt, terrain(t)), rules(r).leaders, sd));
    }, "battle"_a.none(), "terrain"_a.none(), "rules"_a.none(), "side"_a.none());
    p.def("group_leader", [](H b, H m) {
        const auto members = ids(m, "members");
        return group_leader(battle(b), members);
    }, "battle"_a.none(), "members"_a.none());
    p.def("visible_from", [](H b, H t, H m, H pos, H f, H e) {
        const Battle& bt = battle(b);
        const Mech& self = mech(bt, m, "mech");
        const Mech& enemy = mech(bt, e, "enemy");
        return visible_from(make_scene(bt, terrain(t)), self, point(pos, "pos"), real(f, "facing"), enemy);
    }, "battle"_a.none(), "terrain"_a.none(), "mech"_a.none(), "pos"_a.none(), "facing"_a.none(),
       "enemy"_a.none());
    p.def("visible_enemies", [](H b, H t, H m, H pos, H f) {
        const Battle& bt = battle(b);
        const Mech& self = mech(bt, m, "mech");
        const auto found = visible_enemies(make_scene(bt, terrain(t)), self, point(pos, "pos"), real(f, "facing"));
        nb::object out = nb::steal(PySet_New(nullptr));
        for (std::int64_t id : found) PySet_Add(out.ptr(), nb::int_(id).ptr());
        return out;
    }, "battle"_a.none(), "terrain"_a.none(), "mech"_a.none(), "pos"_a.none(), "facing"_a.none());
    p.def("new_sightings", [](H b, H m, H fresh) {
        Battle& bt = battle(b);
        const Mech& self = mech(bt, m, "mech");
        const auto enemies = ids(fresh, "fresh");
        return int_list(new_sightings(bt, self, enemies));
    }, "battle"_a.none(), "mech"_a.none(), "fresh"_a.none(),
       "Enemy groups newly in sight; marks the pairs seen in the native battle (ruling D8).");

    bind_leaders(p);
    bind_group_orders(p);
}

}  // namespace wargym::no_quarter
