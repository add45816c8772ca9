// Bindings of the No Quarter actions (actions.hpp): the reference's action objects and dicts
// <-> the core's Action, and the functions of _core.no_quarter that expose them.
#include "actions_bindings.hpp"

#include <Python.h>
#include <nanobind/stl/string.h>

#include <array>
#include <limits>
#include <unordered_map>

#include "../../errors.hpp"
#include "../../pyvalues.hpp"
#include "actions_read.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace wargym::no_quarter {

namespace {

// Strong references kept for the process (set once by init_actions).
std::array<PyObject*, kActionTypes> g_classes{};       // ACTION_CLASSES, by variant index
std::array<PyObject*, kLocations> g_locations{};       // Location members, in Location order
std::array<PyObject*, kMeleeAttack.size> g_attacks{};  // MeleeAttack members

PyObject* check(PyObject* o) {
    if (!o) throw nb::python_error();
    return o;
}

// Values of an enum member of ours (its .value text), or null.
const std::string_view* member_value(PyObject* o) {
    for (std::size_t i = 0; i < g_locations.size(); ++i) {
        if (o == g_locations[i]) return &kLocation.values[i];
    }
    for (std::size_t i = 0; i < g_attacks.size(); ++i) {
        if (o == g_attacks[i]) return &kMeleeAttack.values[i];
    }
    return nullptr;
}

// Python plain data (dicts from action_to_dict) as an action_read.hpp source. `Objects`: the
// fields of a reference action object, where a tuple is a point and an enum member its value.
template <bool Objects>
struct PySource {
    using V = PyObject*;  // borrowed
    static V absent() { return nullptr; }
    static bool is_absent(V v) { return v == nullptr; }
    static bool is_null(V v) { return v == Py_None; }
    static bool is_bool(V v) { return PyBool_Check(v); }
    static bool is_int(V v) {
        if (PyLong_Check(v)) return true;
        // a reference object may hold a numpy integer (from an index); a dict never does
        return Objects && !PyFloat_Check(v) && !PyBool_Check(v) && PyIndex_Check(v);
    }
    static bool is_float(V v) { return PyFloat_Check(v); }
    static bool is_str(V v) { return PyUnicode_Check(v) || (Objects && member_value(v)); }
    static bool is_list(V v) { return PyList_Check(v) || (Objects && PyTuple_Check(v)); }
    static bool is_object(V v) { return PyDict_Check(v); }
    static bool bool_value(V v) { return v == Py_True; }
    static std::optional<std::int64_t> int_value(V v) {
        PyObject* index = PyNumber_Index(v);
        if (!index) {
            PyErr_Clear();
            return std::nullopt;
        }
        int overflow = 0;
        const long long value = PyLong_AsLongLongAndOverflow(index, &overflow);
        Py_DECREF(index);
        if (overflow || (value == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return std::nullopt;
        }
        return value;
    }
    static std::optional<double> number(V v) {
        const double value = PyLong_Check(v) ? PyLong_AsDouble(v) : PyFloat_AsDouble(v);
        if (value == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            return std::nullopt;
        }
        return value;
    }
    static std::string str_value(V v) {
        if (const std::string_view* member = Objects ? member_value(v) : nullptr) return std::string(*member);
        Py_ssize_t size = 0;
        const char* data = PyUnicode_AsUTF8AndSize(v, &size);
        if (!data) {
            PyErr_Clear();
            throw ArgumentError("action", "text that is not valid UTF-8: " + short_repr(v));
        }
        return std::string(data, static_cast<std::size_t>(size));
    }
    // an enum field: a str in a dict, the enum member itself in an object
    static std::optional<std::string> vocab_text(V v) {
        if constexpr (Objects) {
            const std::string_view* member = member_value(v);
            return member ? std::optional<std::string>(std::string(*member)) : std::nullopt;
        } else {
            return PyUnicode_Check(v) ? std::optional<std::string>(str_value(v)) : std::nullopt;
        }
    }
    static std::size_t list_size(V v) {
        return static_cast<std::size_t>(PyList_Check(v) ? PyList_GET_SIZE(v) : PyTuple_GET_SIZE(v));
    }
    static V list_item(V v, std::size_t i) {
        const auto k = static_cast<Py_ssize_t>(i);
        return PyList_Check(v) ? PyList_GET_ITEM(v, k) : PyTuple_GET_ITEM(v, k);
    }
    static V get(V v, const char* key) {
        // the field names are string literals: intern each once (PyDict_GetItemString would
        // build a new str on every lookup)
        static std::unordered_map<const char*, PyObject*> interned;
        PyObject*& k = interned[key];
        if (!k) k = check(PyUnicode_InternFromString(key));
        PyObject* found = PyDict_GetItemWithError(v, k);  // borrowed
        if (!found && PyErr_Occurred()) throw nb::python_error();  // a key's __eq__ raised
        return found;
    }
    static std::vector<std::string> keys(V v) {
        std::vector<std::string> out;
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(v, &pos, &key, &value)) {
            const char* text = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : nullptr;
            if (!text) PyErr_Clear();
            out.push_back(text ? std::string(text) : short_repr(key));
        }
        return out;
    }
    static std::string repr(V v) { return short_repr(v); }
};

// -- building Python values -------------------------------------------------------------------
nb::object py(std::int64_t v) { return nb::steal(check(PyLong_FromLongLong(v))); }
nb::object py(bool v) { return nb::borrow(v ? Py_True : Py_False); }
nb::object py(double v) { return nb::steal(check(PyFloat_FromDouble(v))); }
nb::object py(const std::string& v) {
    return nb::steal(check(PyUnicode_FromStringAndSize(v.data(), static_cast<Py_ssize_t>(v.size()))));
}
nb::object py(Point p) { return nb::make_tuple(p.x, p.y); }
nb::object py(Location l) { return nb::borrow(g_locations[static_cast<std::size_t>(l)]); }
nb::object py(MeleeAttack a) { return nb::borrow(g_attacks[static_cast<std::size_t>(a)]); }
template <class T>
nb::object py(const std::optional<T>& o) { return o ? py(*o) : nb::none(); }

template <class... F>
struct Overload : F... {
    using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;

template <class... A>
nb::object make(std::size_t index, const A&... fields) {
    std::array<nb::object, sizeof...(A)> args{py(fields)...};
    std::array<PyObject*, sizeof...(A) + 1> raw{};
    for (std::size_t i = 0; i < args.size(); ++i) raw[i + 1] = args[i].ptr();
    return nb::steal(check(PyObject_Vectorcall(g_classes[index], raw.data() + 1,
                                               sizeof...(A) | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr)));
}

// Plain JSON (serial.hpp) as new Python objects: lists, dicts in key order.
nb::object py_json(const Json& j) {
    switch (j.kind()) {
        case Json::Kind::null: return nb::none();
        case Json::Kind::boolean: return py(j.as_bool());
        case Json::Kind::integer: return py(j.as_int());
        case Json::Kind::real: return py(j.as_real());
        case Json::Kind::string: return py(j.as_string());
        case Json::Kind::array: {
            nb::list out;
            for (const Json& item : j.as_array()) out.append(py_json(item));
            return out;
        }
        case Json::Kind::object: {
            nb::dict out;
            for (const auto& [k, v] : j.as_object()) out[py(k)] = py_json(v);
            return out;
        }
    }
    return nb::none();
}

// Python plain data as Json, for _action_from_json (the Json reader's test path). A value that
// is not plain JSON data (a tuple, a set, an object) is refused; nesting is bounded.
Json json_of(PyObject* o, const std::string& where, int depth) {
    if (depth > 16) throw ArgumentError(where, "nested too deep");
    if (o == Py_None) return Json();
    if (PyBool_Check(o)) return Json::boolean(o == Py_True);
    if (PyLong_Check(o)) {
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) throw ArgumentError(where, "expected an integer in the int64 range, got " + short_repr(o));
        return Json::integer(v);
    }
    if (PyFloat_Check(o)) return Json::real(PyFloat_AsDouble(o));
    if (PyUnicode_Check(o)) return Json::string(PySource<false>::str_value(o));
    if (PyList_Check(o)) {
        Json::Array items;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(o); ++i) {
            items.push_back(json_of(PyList_GET_ITEM(o, i), where + "[" + std::to_string(i) + "]", depth + 1));
        }
        return Json::array(std::move(items));
    }
    if (PyDict_Check(o)) {
        Json::Object fields;
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(o, &pos, &key, &value)) {
            if (!PyUnicode_Check(key)) wrong_type(where, "an object with text keys", o);
            const std::string k = PySource<false>::str_value(key);
            fields.emplace_back(k, json_of(value, where + "." + k, depth + 1));
        }
        return Json::object(std::move(fields));
    }
    wrong_type(where, "plain JSON data", o);
}

}  // namespace

void init_actions() {
    if (g_classes[0] != nullptr) return;
    wargym::init_short_repr();
    nb::object module = nb::module_::import_("wargym.rules.no_quarter.battle.actions");
    nb::object classes = module.attr("ACTION_CLASSES");
    for (std::size_t i = 0; i < kActionTypes; ++i) {
        g_classes[i] = nb::object(classes[nb::str(kActionNames[i].data(), kActionNames[i].size())]).release().ptr();
    }
    nb::object vocab = nb::module_::import_("wargym.rules.no_quarter.forces.vocab");
    for (std::size_t i = 0; i < kLocations; ++i) {
        g_locations[i] = vocab.attr("Location")(nb::str(kLocation.values[i].data(), kLocation.values[i].size()))
                             .release().ptr();
    }
    for (std::size_t i = 0; i < kMeleeAttack.size; ++i) {
        g_attacks[i] = vocab.attr("MeleeAttack")(nb::str(kMeleeAttack.values[i].data(), kMeleeAttack.values[i].size()))
                           .release().ptr();
    }
}

Action action_from_py(nb::handle action, const std::string& name) {
    PyObject* type = reinterpret_cast<PyObject*>(Py_TYPE(action.ptr()));
    for (std::size_t i = 0; i < kActionTypes; ++i) {
        if (type != g_classes[i]) continue;
        nb::object fields = nb::steal(PyObject_GetAttrString(action.ptr(), "__dict__"));
        if (!fields.is_valid() || !PyDict_Check(fields.ptr())) {
            PyErr_Clear();
            wrong_type(name, "a No Quarter action", action);
        }
        return action_read::read_fields<PySource<true>>(i, fields.ptr(), name);
    }
    wrong_type(name, "a No Quarter action (rules.no_quarter.battle.actions)", action);
}

std::vector<Action> actions_from_py(nb::handle actions, const std::string& name) {
    PyObject* o = actions.ptr();
    if (!PyList_Check(o) && !PyTuple_Check(o)) wrong_type(name, "a list of No Quarter actions", actions);
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    std::vector<Action> out;
    out.reserve(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
        out.push_back(action_from_py(PySequence_Fast_GET_ITEM(o, i), name + "[" + std::to_string(i) + "]"));
    }
    return out;
}

nb::object action_to_py(const Action& a) {
    const std::size_t i = a.index();
    return std::visit(
        Overload{
            [&](const ActivateGroup& x) { return make(i, x.leader); },
            [&](const SkipGroup& x) { return make(i, x.leader); },
            [&](const Move& x) { return make(i, x.mech, x.to, x.reverse, x.jump); },
            [&](const Stay& x) { return make(i, x.mech, x.heading); },
            [&](const Charge& x) { return make(i, x.mech, x.target); },
            [&](const AssignFire& x) { return make(i, x.mech, x.weapon, x.target); },
            [&](const FreeMove& x) { return make(i, x.mech, x.to); },
            [&](const FreeWill& x) { return make(i, x.mech, x.passed); },
            [&](const DeclareMelee& x) { return make(i, x.mech, x.attack, x.limb); },
            [&](const FightMech& x) { return make(i, x.mech, x.target); },
            [&](const FireAtBuilding& x) { return make(i, x.mech, x.weapon, x.feature); },
            [&](const AttackBuilding& x) { return make(i, x.mech, x.feature, x.attack, x.limb); },
            [&](const ExitTable& x) { return make(i, x.mech, x.edge); },
            [&](const ChooseObjective& x) { return make(i, x.objective); },
            [&](const Face& x) { return make(i, x.mech, x.heading, x.twist); },
            [&](const LuckyChoice& x) { return make(i, x.mech, x.reroll); },
            [&](const ChooseLocation& x) { return make(i, x.mech, x.location); },
            [&](const LeadTeam& x) { return make(i, x.mech, x.group); },
            [&](const KeepGroups&) { return make(i); },
            [&](const auto& x) { return make(i, x.mech); },
        },
        a);
}

nb::list actions_to_py(const std::vector<Action>& actions) {
    nb::list out;
    for (const Action& a : actions) out.append(action_to_py(a));
    return out;
}

nb::object action_to_dict_py(const Action& a) { return py_json(action_to_json(a)); }

Action action_from_dict_py(nb::handle data, const std::string& name) {
    return action_read::read_action<PySource<false>>(data.ptr(), name);
}

void bind_actions(nb::module_& g) {
    init_actions();
    nb::list names;
    for (std::string_view n : kActionNames) names.append(nb::str(n.data(), n.size()));
    g.attr("ACTION_TYPES") = nb::tuple(names);
    nb::list attacks;
    for (std::string_view n : kMeleeAttack.values) attacks.append(nb::str(n.data(), n.size()));
    g.attr("MELEE_ATTACKS") = nb::tuple(attacks);
    g.def("action_to_dict", [](nb::handle action) { return action_to_dict_py(action_from_py(action)); },
          "action"_a.none(), "actions.action_to_dict through the core's Action.");
    g.def("action_from_dict", [](nb::handle data) { return action_to_py(action_from_dict_py(data)); },
          "data"_a.none(), "actions.action_from_dict through the core's Action (typed errors name the field).");
    g.def("_action_from_json",
          [](nb::handle data) { return action_to_py(action_from_json(json_of(data.ptr(), "action", 0))); },
          "data"_a.none(), "action_from_dict through the core's plain-JSON reader (serial.hpp's Json).");
    g.def("action_round_trip",
          [](nb::handle action) {
              const Action a = action_from_py(action);
              const Action b = action_from_json(action_to_json(a));
              if (!(a == b)) throw ArgumentError("action", "the plain-JSON round trip changed the action");
              return action_to_py(b);
          },
          "action"_a.none(), "The reference action read into the core, through its plain JSON, and back.");
    g.def("action_hash", [](nb::handle action) { return action_hash(action_from_py(action)); },
          "action"_a.none(), "The core's hash of the action (consistent with action_equal).");
    g.def("action_equal",
          [](nb::handle a, nb::handle b) { return action_from_py(a, "a") == action_from_py(b, "b"); },
          "a"_a.none(), "b"_a.none(), "The core's equality of two actions (the dataclasses' ==).");
    g.def("action_str", [](nb::handle action) { return describe(action_from_py(action)); },
          "action"_a.none(), "str(action) as the core writes it.");
}

}  // namespace wargym::no_quarter
