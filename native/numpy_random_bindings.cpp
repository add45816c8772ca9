// Bindings of the numpy Generator mirror (numpy_random.hpp): _core.NumpyGenerator, built from
// and answering `rng.bit_generator.state` dicts. Called from native/bindings.cpp.
#include "numpy_random_bindings.hpp"

#include <Python.h>

#include <string>

#include "dice.hpp"
#include "errors.hpp"
#include "numpy_random.hpp"
#include "pyvalues.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace wargym {

namespace {

// A Python int in [0, 2**bits) as an unsigned 128-bit value.
unsigned __int128 unsigned_int(nb::handle v, const std::string& name, int bits) {
    if (!PyLong_Check(v.ptr()) || PyBool_Check(v.ptr())) wrong_type(name, "an int", v);
    nb::object zero = nb::int_(0);
    const int negative = PyObject_RichCompareBool(v.ptr(), zero.ptr(), Py_LT);
    if (negative < 0) throw nb::python_error();
    nb::object shifted = nb::steal(PyNumber_Rshift(v.ptr(), nb::int_(bits).ptr()));
    if (!shifted.is_valid()) throw nb::python_error();
    const int too_big = PyObject_IsTrue(shifted.ptr());
    if (too_big < 0) throw nb::python_error();
    if (negative || too_big) {
        throw ArgumentError(name, short_repr(v) + " is not in [0, 2**" +
                                      std::to_string(bits) + ")");
    }
    nb::object high = nb::steal(PyNumber_Rshift(v.ptr(), nb::int_(64).ptr()));
    if (!high.is_valid()) throw nb::python_error();
    const unsigned long long hi = PyLong_AsUnsignedLongLong(high.ptr());
    const unsigned long long lo = PyLong_AsUnsignedLongLongMask(v.ptr());
    if (PyErr_Occurred()) throw nb::python_error();
    return (static_cast<unsigned __int128>(hi) << 64U) | lo;
}

nb::object python_int(unsigned __int128 v) {
    nb::object hi = nb::steal(PyLong_FromUnsignedLongLong(static_cast<std::uint64_t>(v >> 64U)));
    nb::object lo = nb::steal(PyLong_FromUnsignedLongLong(static_cast<std::uint64_t>(v)));
    nb::object shifted = nb::steal(PyNumber_Lshift(hi.ptr(), nb::int_(64).ptr()));
    if (!shifted.is_valid()) throw nb::python_error();
    nb::object out = nb::steal(PyNumber_Or(shifted.ptr(), lo.ptr()));
    if (!out.is_valid()) throw nb::python_error();
    return out;
}

nb::handle item(nb::handle d, const char* key, const std::string& name) {
    PyObject* v = PyDict_GetItemString(d.ptr(), key);  // borrowed
    if (v == nullptr) throw ArgumentError(name, std::string("the key ") + key + " is missing");
    return v;
}

std::int64_t int64_arg(nb::handle v, const std::string& name) {
    // numpy integers are accepted as numpy accepts them (operator.index); a bool is not an int
    if (PyBool_Check(v.ptr()) || !PyIndex_Check(v.ptr())) wrong_type(name, "an int", v);
    int overflow = 0;
    nb::object index = nb::steal(PyNumber_Index(v.ptr()));
    if (!index.is_valid()) throw nb::python_error();
    const long long out = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (overflow != 0) {
        throw ArgumentError(name, short_repr(v) + " is out of bounds for int64");
    }
    if (out == -1 && PyErr_Occurred()) throw nb::python_error();
    return out;
}

// high - 1 of an exclusive int64 bound: numpy accepts high = 2**63 (its top is 2**63 - 1).
std::int64_t exclusive_top(nb::handle high) {
    if (PyBool_Check(high.ptr()) || !PyIndex_Check(high.ptr())) wrong_type("high", "an int", high);
    nb::object index = nb::steal(PyNumber_Index(high.ptr()));
    if (!index.is_valid()) throw nb::python_error();
    nb::object top = nb::steal(PyNumber_Subtract(index.ptr(), nb::int_(1).ptr()));
    if (!top.is_valid()) throw nb::python_error();
    int overflow = 0;
    const long long out = PyLong_AsLongLongAndOverflow(top.ptr(), &overflow);
    if (overflow != 0) throw ArgumentError("high", short_repr(high) + " is out of bounds for int64");
    return out;
}

double float_arg(nb::handle v, const std::string& name) {
    if (PyBool_Check(v.ptr()) || !(PyFloat_Check(v.ptr()) || PyLong_Check(v.ptr()))) {
        wrong_type(name, "a float", v);
    }
    const double out = PyFloat_AsDouble(v.ptr());
    if (out == -1.0 && PyErr_Occurred()) throw nb::python_error();
    return out;
}

}  // namespace

// rng.bit_generator.state of a PCG64 (the keys _pcg64.pyx's state setter reads).
Pcg64State pcg64_state_from_dict(nb::handle value, const std::string& name) {
    if (!PyDict_Check(value.ptr())) wrong_type(name, "a PCG64 state dict", value);
    nb::handle kind = item(value, "bit_generator", name);
    if (!PyUnicode_Check(kind.ptr()) || PyUnicode_CompareWithASCIIString(kind.ptr(), "PCG64") != 0) {
        throw ArgumentError(name + ".bit_generator", "expected 'PCG64', got " + short_repr(kind));
    }
    nb::handle inner = item(value, "state", name);
    if (!PyDict_Check(inner.ptr())) wrong_type(name + ".state", "a dict", inner);
    Pcg64State s;
    s.state = unsigned_int(item(inner, "state", name + ".state"), name + ".state.state", 128);
    s.inc = unsigned_int(item(inner, "inc", name + ".state"), name + ".state.inc", 128);
    s.has_uint32 = static_cast<int>(unsigned_int(item(value, "has_uint32", name), name + ".has_uint32", 1));
    s.uinteger = static_cast<std::uint32_t>(unsigned_int(item(value, "uinteger", name), name + ".uinteger", 32));
    return s;
}

nb::dict pcg64_state_to_dict(const Pcg64State& s) {
    nb::dict inner;
    inner["state"] = python_int(s.state);
    inner["inc"] = python_int(s.inc);
    nb::dict out;
    out["bit_generator"] = "PCG64";
    out["state"] = inner;
    out["has_uint32"] = s.has_uint32;
    out["uinteger"] = s.uinteger;
    return out;
}

void bind_numpy_random(nb::module_& m) {
    nb::class_<NumpyGenerator>(m, "NumpyGenerator",
                               "numpy's PCG64 Generator (integers, random, uniform), bit for bit.")
        .def("__init__",
             [](NumpyGenerator* self, nb::handle state) {
                 new (self) NumpyGenerator(pcg64_state_from_dict(state, "state"));
             },
             "state"_a.none(), "From rng.bit_generator.state (a PCG64 state dict).")
        .def_prop_ro("state", [](const NumpyGenerator& g) { return pcg64_state_to_dict(g.state()); },
                     "The state as rng.bit_generator.state writes it.")
        .def("integers",
             [](NumpyGenerator& g, nb::handle low, nb::handle high, nb::handle size) -> nb::object {
                 const std::int64_t lo = int64_arg(low, "low");
                 const std::int64_t top = exclusive_top(high);
                 if (size.is_none()) return nb::int_(g.integers_closed(lo, top));
                 const std::int64_t n = int64_arg(size, "size");
                 if (n > (std::int64_t{1} << 32)) throw ArgumentError("size", "at most 2**32 values");
                 nb::list out;
                 for (std::int64_t v : g.integers_closed(lo, top, n)) out.append(v);
                 return out;
             },
             "low"_a.none(), "high"_a.none(), "size"_a.none() = nb::none(),
             "Generator.integers(low, high[, size]) (int64, endpoint=False); size gives a list.")
        .def("random", &NumpyGenerator::random, "Generator.random().")
        .def("uniform",
             [](NumpyGenerator& g, nb::handle low, nb::handle high) {
                 return g.uniform(float_arg(low, "low"), float_arg(high, "high"));
             },
             "low"_a.none(), "high"_a.none(), "Generator.uniform(low, high).");

    nb::class_<NumpyDice>(m, "NumpyDice",
                                "rules.dice.RandomDice over a numpy Generator, bit for bit "
                                "(rng.integers(1, 7, size=n) on the PCG64 mirror).")
        .def("__init__",
             [](NumpyDice* self, nb::handle state) {
                 new (self) NumpyDice(pcg64_state_from_dict(state, "state"));
             },
             "state"_a.none(), "From rng.bit_generator.state (a PCG64 state dict).")
        .def("roll",
             [](NumpyDice& self, nb::handle n) {
                 const std::int64_t count = int64_arg(n, "n");
                 nb::list faces;
                 for (int f : self.roll(count)) faces.append(f);
                 return nb::tuple(faces);
             },
             "n"_a.none(), "Roll ``n`` d6 (``n <= 0`` gives ``()``).")
        .def_prop_ro("state", [](const NumpyDice& d) { return pcg64_state_to_dict(d.state()); },
                     "The generator's state as rng.bit_generator.state writes it.");
}

}  // namespace wargym
