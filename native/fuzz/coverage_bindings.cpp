// _core.fuzz: the coverage probe of a -DWARGYM_FUZZ=ON build (coverage.hpp). Absent otherwise.
#include <nanobind/nanobind.h>

#include "coverage.hpp"

namespace nb = nanobind;

namespace wargym::fuzz {

void bind_fuzz(nb::module_& m) {
    nb::module_ f = m.def_submodule("fuzz", "Edge coverage of a fuzzing build (docs/native.md).");
    f.def("begin", &begin, "Start recording the code the core reaches.");
    f.def(
        "end",
        []() {
            const std::uint32_t* buckets = nullptr;
            const std::size_t count = end(&buckets);
            nb::list out;
            for (std::size_t i = 0; i < count; ++i) out.append(buckets[i]);
            return out;
        },
        "Stop recording; the coverage buckets reached since begin().");
    f.attr("BUCKETS") = kBuckets;
}

}  // namespace wargym::fuzz
