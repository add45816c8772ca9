// Python values in the core's error messages (pyvalues.hpp).
#include "pyvalues.hpp"

#include <cstddef>

#include "errors.hpp"

namespace nb = nanobind;

namespace wargym {

namespace {
PyObject* g_short_repr = nullptr;  // wargym.rules.errors.short_repr, held for the process
}  // namespace

void init_short_repr() {
    if (g_short_repr != nullptr) return;
    nb::object function = nb::module_::import_("wargym.rules.errors").attr("short_repr");
    g_short_repr = function.release().ptr();
}

std::string short_repr(nb::handle value) {
    PyObject* text = PyObject_CallOneArg(g_short_repr, value.ptr());
    if (text == nullptr) {
        PyErr_Clear();
        return "<unprintable value>";
    }
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(text, &size);
    std::string out = data ? std::string(data, static_cast<std::size_t>(size)) : "<?>";
    if (!data) PyErr_Clear();
    Py_DECREF(text);
    return out;
}

[[noreturn]] void wrong_type(const std::string& name, const char* expected, nb::handle value) {
    throw ArgumentTypeError(name, std::string("expected ") + expected + ", got " +
                                      short_repr(value));
}

}  // namespace wargym
