// Mirror of data.activation_rep (pilots.py re-exports it); see pilots.hpp.
#include "pilots.hpp"

namespace wargym::no_quarter {

std::int64_t activation_rep(const ActivationTables& tables, std::int64_t rep,
                            std::span<const Attribute> attributes, std::int64_t group_size) {
    std::int64_t total = rep;
    std::array<bool, kAttributes> counted{};  // set(attributes): each attribute once
    for (Attribute attribute : attributes) {
        const auto i = static_cast<std::size_t>(attribute);
        if (counted[i]) continue;
        counted[i] = true;
        const auto& only = tables.only_when_group_size[i];
        if (!only || *only == group_size) total += tables.attribute_rep[i];
    }
    return total;
}

}  // namespace wargym::no_quarter
