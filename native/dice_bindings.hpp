// The dice argument of the bound functions: one of the core's dice (RandomDice, ScriptedDice,
// NumpyDice), found by a cast, or a typed error naming the argument.
#pragma once

#include <nanobind/nanobind.h>

#include <string>

#include "dice.hpp"
#include "pyvalues.hpp"

namespace wargym {

// The core's dice behind ``h``, or nullptr when ``h`` is not one of them.
inline Dice* native_dice_or_null(nanobind::handle h) {
    if (ScriptedDice* s = nullptr; nanobind::try_cast(h, s, false) && s != nullptr) return s;
    if (RandomDice* r = nullptr; nanobind::try_cast(h, r, false) && r != nullptr) return r;
    if (NumpyDice* n = nullptr; nanobind::try_cast(h, n, false) && n != nullptr) return n;
    return nullptr;
}

// The core's dice behind ``h``; anything else raises NativeTypeError naming ``name``.
inline Dice& native_dice_arg(nanobind::handle h, const std::string& name = "dice") {
    Dice* d = native_dice_or_null(h);
    if (d == nullptr) wrong_type(name, "a native RandomDice, ScriptedDice or NumpyDice", h);
    return *d;
}

}  // namespace wargym
