// Python values in the core's error messages, shared by every binding file (bindings.cpp,
// no_quarter/battle/state_bindings.cpp): wargym.rules.errors.short_repr of a handle and the
// "expected ..., got ..." type error. init_short_repr() is called once at module import.
#pragma once

#include <nanobind/nanobind.h>

#include <string>

namespace wargym {

// Loads wargym.rules.errors.short_repr (idempotent; called by the module's init).
void init_short_repr();
// short_repr(value) as text; "<unprintable value>" when the value's repr itself fails.
std::string short_repr(nanobind::handle value);
// Throws ArgumentTypeError: "<name>: expected <expected>, got <short_repr(value)>".
[[noreturn]] void wrong_type(const std::string& name, const char* expected, nanobind::handle value);

}  // namespace wargym
