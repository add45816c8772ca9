// Bindings of the native No Quarter events (battle/events.hpp) in _core.no_quarter.events:
// Event (from_dict, to_dict, type), apply(battle, event), type_names(), vocabulary().
// A document crosses as plain JSON data: Python objects are read into a Json (serial.hpp)
// and the event is read from that (events_json.cpp), so the C++ flow and the bindings share one
// reader. native/bindings.cpp calls bind_events(); errors go through its one translator.
#include "events_bindings.hpp"

#include <Python.h>
#include <nanobind/stl/string.h>

#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include "../../errors.hpp"
#include "../../pyvalues.hpp"
#include "events.hpp"
#include "events_fields.hpp"

namespace nb = nanobind;
using namespace nanobind::literals;

namespace wargym::no_quarter::events {

namespace {

constexpr int kMaxDepth = 64;  // as the battle state's MAX_JSON_DEPTH: no deeper event exists

[[noreturn]] void refuse(const std::string& path, const std::string& message) {
    throw wargym::StateError(path, message);
}

// A Python JSON value (dict with str keys, list, str, int within 64 bits, finite float,
// bool, None) as a Json; anything else is refused (tuples included: to_dict writes lists).
Json from_python(PyObject* o, const std::string& path, int depth) {
    if (o == Py_None) return Json();
    if (PyBool_Check(o)) return Json::boolean(o == Py_True);
    if (PyLong_Check(o)) {
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            refuse(path, "expected an integer within 64 bits, got " + short_repr(nb::handle(o)));
        }
        return Json::integer(v);
    }
    if (PyFloat_Check(o)) {
        const double v = PyFloat_AS_DOUBLE(o);
        if (!std::isfinite(v)) refuse(path, "expected a finite number, got " + short_repr(nb::handle(o)));
        return Json::real(v);
    }
    if (PyUnicode_Check(o)) {
        Py_ssize_t size = 0;
        const char* data = PyUnicode_AsUTF8AndSize(o, &size);
        if (!data) {
            PyErr_Clear();
            refuse(path, "text that is not valid UTF-8: " + short_repr(nb::handle(o)));
        }
        return Json::string(std::string(data, static_cast<std::size_t>(size)));
    }
    if (depth <= 0) refuse(path, "nested deeper than an event allows");
    if (PyList_Check(o)) {
        Json::Array items;
        const Py_ssize_t n = PyList_GET_SIZE(o);
        items.reserve(static_cast<std::size_t>(n));
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(o); ++i) {  // re-read: the list may not shrink under us
            items.push_back(from_python(PyList_GET_ITEM(o, i), path + "[" + std::to_string(i) + "]", depth - 1));
        }
        return Json::array(std::move(items));
    }
    if (PyDict_Check(o)) {
        Json::Object fields;
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Next(o, &pos, &k, &v)) {
            if (!PyUnicode_CheckExact(k)) refuse(path, "key " + short_repr(nb::handle(k)) + " is not text");
            std::string key = from_python(k, path, depth).as_string();
            std::string child = path + "." + key.substr(0, 80);
            fields.emplace_back(std::move(key), from_python(v, child, depth - 1));
        }
        return Json::object(std::move(fields));
    }
    refuse(path, "expected JSON data (null, bool, number, text, list, object), got " + short_repr(nb::handle(o)));
}

PyObject* checked(PyObject* o) {
    if (!o) throw nb::python_error();
    return o;
}

PyObject* to_python(const Json& j) {
    switch (j.kind()) {
        case Json::Kind::null: return Py_NewRef(Py_None);
        case Json::Kind::boolean: return Py_NewRef(j.as_bool() ? Py_True : Py_False);
        case Json::Kind::integer: return checked(PyLong_FromLongLong(j.as_int()));
        case Json::Kind::real: return checked(PyFloat_FromDouble(j.as_real()));
        case Json::Kind::string: {
            const std::string& s = j.as_string();
            return checked(PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "strict"));
        }
        case Json::Kind::array: {
            const Json::Array& items = j.as_array();
            nb::object out = nb::steal(checked(PyList_New(static_cast<Py_ssize_t>(items.size()))));
            for (std::size_t i = 0; i < items.size(); ++i) {
                PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), to_python(items[i]));
            }
            return out.release().ptr();
        }
        case Json::Kind::object: {
            nb::object out = nb::steal(checked(PyDict_New()));
            for (const auto& [k, v] : j.as_object()) {
                nb::object key = nb::steal(checked(PyUnicode_DecodeUTF8(k.data(), static_cast<Py_ssize_t>(k.size()), "strict")));
                nb::object value = nb::steal(to_python(v));
                if (PyDict_SetItem(out.ptr(), key.ptr(), value.ptr()) < 0) throw nb::python_error();
            }
            return out.release().ptr();
        }
    }
    return Py_NewRef(Py_None);
}

// The path a document's values are named by before it is read: its class name, as
// from_jsonable(cls, fields, where=name) writes them (MechMoved.heading), else "event".
std::string root_of(PyObject* o) {
    if (!PyDict_Check(o)) return "event";
    PyObject* type = nullptr;  // walked, not looked up: a key's own __eq__ never runs
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &k, &v)) {
        if (PyUnicode_CheckExact(k) && PyUnicode_CompareWithASCIIString(k, "type") == 0) type = v;
    }
    if (type == nullptr || !PyUnicode_CheckExact(type)) return "event";
    const char* text = PyUnicode_AsUTF8(type);
    if (text == nullptr) {
        PyErr_Clear();
        return "event";
    }
    return std::string(text).substr(0, 80);
}

// -- Event.to_dict() built straight into Python objects (interned keys and enum values) -------
// The field names are string literals: one interned str each, made on first use, kept forever.
PyObject* key_of(const char* name) {
    static std::unordered_map<const char*, PyObject*> keys;
    auto [it, fresh] = keys.try_emplace(name, nullptr);
    if (fresh) it->second = checked(PyUnicode_InternFromString(name));
    return it->second;  // borrowed
}

template <class E>
PyObject* enum_value(E e) {
    static const std::vector<PyObject*> values = [] {
        std::vector<PyObject*> out;
        for (std::string_view v : detail::vocab_of(E{}).values) {
            out.push_back(checked(PyUnicode_InternFromString(std::string(v).c_str())));
        }
        return out;
    }();
    return Py_NewRef(values[static_cast<std::size_t>(e)]);
}

template <class T>
PyObject* py(const T& v);

template <class Items>
PyObject* py_list(const Items& items) {
    nb::object out = nb::steal(checked(PyList_New(static_cast<Py_ssize_t>(items.size()))));
    Py_ssize_t i = 0;
    for (const auto& item : items) {
        if constexpr (std::is_same_v<Items, Flags>) PyList_SET_ITEM(out.ptr(), i++, Py_NewRef(item ? Py_True : Py_False));
        else PyList_SET_ITEM(out.ptr(), i++, py(item));
    }
    return out.release().ptr();
}

template <class T>
PyObject* py_fields(const T& record, PyObject* type) {  // type: the "type" value, or null
    nb::object out = nb::steal(checked(PyDict_New()));
    auto set = [&](PyObject* k, PyObject* value) {
        nb::object owned = nb::steal(value);
        if (PyDict_SetItem(out.ptr(), k, owned.ptr()) < 0) throw nb::python_error();
    };
    if (type) set(key_of("type"), type);
    detail::Fields<T>::each(record, [&](const char* name, const auto& value, bool) { set(key_of(name), py(value)); });
    return out.release().ptr();
}

template <class T>
PyObject* py(const T& v) {  // a new reference, as to_jsonable writes the value
    if constexpr (std::is_same_v<T, bool>) {
        return Py_NewRef(v ? Py_True : Py_False);
    } else if constexpr (std::is_same_v<T, Int>) {
        return checked(PyLong_FromLongLong(v));
    } else if constexpr (std::is_same_v<T, double>) {
        return checked(PyFloat_FromDouble(v));
    } else if constexpr (std::is_same_v<T, std::string>) {
        return checked(PyUnicode_DecodeUTF8(v.data(), static_cast<Py_ssize_t>(v.size()), "strict"));
    } else if constexpr (std::is_same_v<T, Json>) {
        return to_python(v);
    } else if constexpr (std::is_same_v<T, Point>) {
        nb::object out = nb::steal(checked(PyList_New(2)));
        PyList_SET_ITEM(out.ptr(), 0, checked(PyFloat_FromDouble(v.x)));
        PyList_SET_ITEM(out.ptr(), 1, checked(PyFloat_FromDouble(v.y)));
        return out.release().ptr();
    } else if constexpr (std::is_enum_v<T>) {
        return enum_value(v);
    } else if constexpr (detail::is_optional<T>::value) {
        return v ? py(*v) : Py_NewRef(Py_None);
    } else if constexpr (detail::is_vector<T>::value || detail::is_array<T>::value) {
        return py_list(v);
    } else {
        return py_fields(v, nullptr);
    }
}

// Event.to_dict(): {"type": <class name>, ...fields}.
PyObject* event_dict(const Event& event) {
    return std::visit(
        [](const auto& e) {
            using E = std::remove_cvref_t<decltype(e)>;
            static PyObject* const type = checked(PyUnicode_InternFromString(std::string(E::kType).c_str()));
            return py_fields(e, Py_NewRef(type));
        },
        event);
}

template <class V>
nb::tuple values_of(const V& vocab) {
    nb::list out;
    for (std::string_view v : vocab.values) out.append(nb::str(v.data(), v.size()));
    return nb::tuple(out);
}

}  // namespace

void bind_events(nb::module_& g) {
    nb::module_ m = g.def_submodule("events", "Mirrors of wargym.rules.no_quarter.battle.events (NO_QUARTER_EVENTS).");
    nb::class_<Event>(m, "Event", "A No Quarter event (one class of NO_QUARTER_EVENTS) as a native struct.")
        .def_static("from_dict",
                    [](nb::handle data) { return from_json(from_python(data.ptr(), root_of(data.ptr()), kMaxDepth)); },
                    "data"_a.none(),
                    "The event of an Event.to_dict() document; NativeStateError names a bad field.")
        .def("to_dict", [](const Event& e) { return nb::steal(event_dict(e)); },
             "The event as Event.to_dict() writes it: {'type': <class name>, ...fields}.")
        .def("_via_json", [](const Event& e) { return nb::steal(to_python(to_json(e))); },
             "to_dict() through the C++ Json writer (to_json) that native logs use, for tests.")
        .def_prop_ro("type", [](const Event& e) { return std::string(type_name(e)); })
        .def("__repr__", [](const Event& e) { return "<native " + std::string(type_name(e)) + ">"; });
    m.def("apply",
          [](nb::handle battle, nb::handle event) {
              Battle* b = nullptr;
              if (!nb::try_cast(battle, b, false) || b == nullptr) wrong_type("battle", "a native Battle", battle);
              const Event* e = nullptr;
              if (!nb::try_cast(event, e, false) || e == nullptr) wrong_type("event", "a native Event", event);
              apply(*b, *e);
          },
          "battle"_a.none(), "event"_a.none(),
          "Battle.apply(event) on the native battle (NativeStateError where the reference would fail).");
    m.def("type_names",
          []() {
              nb::list out;
              for (std::string_view name : type_names()) out.append(nb::str(name.data(), name.size()));
              return nb::tuple(out);
          },
          "Every event class name the native core knows, in NO_QUARTER_EVENTS's list order.");
    m.def("vocabulary",
          []() {
              nb::dict d;
              d[kReactionResult.name] = values_of(kReactionResult);
              d[kReactionTest.name] = values_of(kReactionTest);
              d[kMeleeAttack.name] = values_of(kMeleeAttack);
              d[kAspect.name] = values_of(kAspect);
              return d;
          },
          "The enums only events hold, by Python type name.");
}

}  // namespace wargym::no_quarter::events
