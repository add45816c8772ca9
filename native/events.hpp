// The generic base of the events (rules/events.py Event): every event is a plain struct that
// names its class (kType) and lists its fields once, in the dataclass's order, through `each`:
//
//     struct TurnStarted {
//         Int turn = 0;
//         NQ_EVENT(TurnStarted) { NQ_REQ(turn) }
//     };
//
// NQ_REQ marks a field without a default, NQ_OPT one with a default (the C++ initialiser is the
// Python one). One writer and one reader walk `each` (no_quarter/battle/events_json.cpp), so
// Event.to_dict()'s {"type": <class name>, ...fields} and the registry's from_dict come from
// the same list.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "no_quarter/sight_movement/geometry.hpp"

namespace wargym::no_quarter::events {

using Int = std::int64_t;
using Ints = std::vector<Int>;
using Pair = std::array<Int, 2>;
using Points = std::vector<Point>;
using Flags = std::vector<bool>;
using std::optional;
using std::string;
using std::vector;

#define NQ_EVENT(T)                                  \
    static constexpr std::string_view kType = #T;    \
    template <class S, class F>                      \
    static void each(S& s, F&& f)
#define NQ_REQ(x) f(#x, s.x, false);
#define NQ_OPT(x) f(#x, s.x, true);

}  // namespace wargym::no_quarter::events
