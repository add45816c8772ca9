// Argument conversion for the movement bindings (movement_bindings.cpp,
// battle/flow_mech_moves_bindings.cpp), with the rules of native/bindings.cpp: a wrong type
// raises NativeTypeError, a bad value NativeArgumentError, both naming the argument.
// (bindings.cpp keeps its own helpers in an anonymous namespace; these are the same rules.)
#pragma once

#include <Python.h>
#include <nanobind/nanobind.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "../../errors.hpp"
#include "../../pyvalues.hpp"
#include "geometry.hpp"

namespace wargym::movement_args {

namespace nb = nanobind;

inline bool flag(nb::handle h, const std::string& name) {
    if (!PyBool_Check(h.ptr())) wrong_type(name, "True or False", h);
    return h.ptr() == Py_True;
}

inline double real(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (PyBool_Check(o) || !(PyFloat_Check(o) || PyLong_Check(o))) wrong_type(name, "a number", h);
    const double value = PyFloat_AsDouble(o);
    if (PyErr_Occurred() || !std::isfinite(value)) {
        PyErr_Clear();
        throw ArgumentError(name, "expected a finite number, got " + short_repr(h));
    }
    return value;
}

inline double positive(nb::handle h, const std::string& name) {
    const double value = real(h, name);
    if (!(value > 0.0)) throw ArgumentError(name, "expected a positive number, got " + short_repr(h));
    return value;
}

inline std::int64_t integer(nb::handle h, const std::string& name,
                            std::int64_t lo = std::numeric_limits<std::int64_t>::min(),
                            std::int64_t hi = std::numeric_limits<std::int64_t>::max()) {
    PyObject* o = h.ptr();
    if (!PyLong_Check(o) || PyBool_Check(o)) wrong_type(name, "an integer", h);
    int overflow = 0;
    const long long value = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || value < lo || value > hi) {
        throw ArgumentError(name, "expected an integer in " + std::to_string(lo) + ".." +
                                      std::to_string(hi) + ", got " + short_repr(h));
    }
    return value;
}

inline no_quarter::Point point(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if ((PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 2) || (PyList_Check(o) && PyList_GET_SIZE(o) == 2)) {
        nb::sequence seq = nb::borrow<nb::sequence>(h);
        return {real(seq[0], name + "[0]"), real(seq[1], name + "[1]")};
    }
    wrong_type(name, "a point (x, y) of two numbers", h);
}

inline std::vector<no_quarter::Point> points(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (!PyTuple_Check(o) && !PyList_Check(o)) wrong_type(name, "a list of points (x, y)", h);
    nb::sequence seq = nb::borrow<nb::sequence>(h);
    std::vector<no_quarter::Point> out;
    const std::size_t n = nb::len(seq);
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) out.push_back(point(seq[i], name + "[" + std::to_string(i) + "]"));
    return out;
}

// A sequence of numbers (the move fractions).
inline std::vector<double> reals(nb::handle h, const std::string& name) {
    PyObject* o = h.ptr();
    if (!PyTuple_Check(o) && !PyList_Check(o)) wrong_type(name, "a list of numbers", h);
    nb::sequence seq = nb::borrow<nb::sequence>(h);
    std::vector<double> out;
    const std::size_t n = nb::len(seq);
    for (std::size_t i = 0; i < n; ++i) out.push_back(real(seq[i], name + "[" + std::to_string(i) + "]"));
    return out;
}

// None or an integer.
inline std::optional<std::int64_t> maybe_integer(nb::handle h, const std::string& name) {
    if (h.is_none()) return std::nullopt;
    return integer(h, name);
}

inline nb::tuple point_tuple(no_quarter::Point p) { return nb::make_tuple(p.x, p.y); }

}  // namespace wargym::movement_args
