// What other binding files need of the codec's bindings (codec_bindings.cpp).
#pragma once

#include <nanobind/nanobind.h>

#include "codec.hpp"

namespace wargym::no_quarter {

// The native ActionCodec behind a _core.no_quarter.ActionCodec object, with the free_reach
// distances of ``battle``'s RulesOptions asked of the glue first (the GIL must be held), so the
// codec can then be copied and used without Python. Anything else raises NativeTypeError naming
// ``name``.
const ActionCodec& codec_for_battle(nanobind::handle codec, const Battle& battle, const char* name);

}  // namespace wargym::no_quarter
