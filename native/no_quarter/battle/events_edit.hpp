// Internal to the events' apply (battle/events.cpp, non_player/np_events.cpp): the Python
// dict and list operations Battle.apply and the apply_to hooks use, over the native Battle's
// id-keyed lists and over plain JSON (serial.hpp's Json is immutable: an edit builds the changed
// object or list and shares the rest). Where the Python would raise (a missing key, a value of
// another type), they throw wargym::StateError naming the place.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../../errors.hpp"
#include "../../serial.hpp"
#include "../../events.hpp"
#include "state.hpp"

namespace wargym::no_quarter::events::detail {

[[noreturn]] inline void fail(const std::string& path, const std::string& reason) {
    throw wargym::StateError(path, reason);
}

// battle.mechs[id] (a KeyError in the reference).
inline Mech& mech_of(Battle& b, Int id) {
    auto it = std::lower_bound(b.mechs.begin(), b.mechs.end(), id,
                               [](const Mech& m, Int key) { return m.id < key; });
    if (it == b.mechs.end() || it->id != id) fail("battle.mechs", "no mech with id " + std::to_string(id));
    return *it;
}

// dict[int, int] assignment: an existing key keeps its place, a new one goes last.
inline void set_key(std::vector<std::pair<Int, Int>>& map, Int key, Int value) {
    for (auto& [k, v] : map) {
        if (k == key) {
            v = value;
            return;
        }
    }
    map.emplace_back(key, value);
}

// -- plain JSON, copy on write -----------------------------------------------------------------
inline const Json::Object& object_at(const Json& j, const std::string& path) {
    if (j.kind() != Json::Kind::object) fail(path, "expected an object");
    return j.as_object();
}

inline const Json& key_of(const Json& j, std::string_view key, const std::string& path) {
    for (const auto& [k, v] : object_at(j, path)) {
        if (k == key) return v;
    }
    fail(path, "missing key '" + std::string(key) + "'");
}

inline bool has_key(const Json& j, std::string_view key, const std::string& path) {
    for (const auto& kv : object_at(j, path)) {
        if (kv.first == key) return true;
    }
    return false;
}

// obj[key] = value on a copy of the object: an existing key keeps its place.
inline Json with_key(const Json& j, std::string_view key, Json value, const std::string& path) {
    Json::Object out = object_at(j, path);
    for (auto& [k, v] : out) {
        if (k == key) {
            v = std::move(value);
            return Json::object(std::move(out));
        }
    }
    out.emplace_back(std::string(key), std::move(value));
    return Json::object(std::move(out));
}

inline const Json::Array& array_at(const Json& j, const std::string& path) {
    if (j.kind() != Json::Kind::array) fail(path, "expected a list");
    return j.as_array();
}

// Python truth of a JSON value (for `a or b`).
inline bool truthy(const Json& j) {
    switch (j.kind()) {
        case Json::Kind::null: return false;
        case Json::Kind::boolean: return j.as_bool();
        case Json::Kind::integer: return j.as_int() != 0;
        case Json::Kind::real: return j.as_real() != 0.0;
        case Json::Kind::string: return !j.as_string().empty();
        case Json::Kind::array: return !j.as_array().empty();
        case Json::Kind::object: return !j.as_object().empty();
    }
    return false;
}

// Python `j == value` for an int (True == 1 and 3.0 == 3, as in Python).
inline bool equals_int(const Json& j, Int value) {
    switch (j.kind()) {
        case Json::Kind::boolean: return static_cast<Int>(j.as_bool()) == value;
        case Json::Kind::integer: return j.as_int() == value;
        case Json::Kind::real: return j.as_real() == static_cast<double>(value);
        default: return false;
    }
}

// Python `max(j, value)` for a number (the first of equals is kept).
inline Json max_with(const Json& j, Int value, const std::string& path) {
    switch (j.kind()) {
        case Json::Kind::boolean: return value > static_cast<Int>(j.as_bool()) ? Json::integer(value) : j;
        case Json::Kind::integer: return value > j.as_int() ? Json::integer(value) : j;
        case Json::Kind::real: return static_cast<double>(value) > j.as_real() ? Json::integer(value) : j;
        default: fail(path, "expected a number");
    }
}

// Python `j + n` for a number.
inline Json plus(const Json& j, Int n, const std::string& path) {
    switch (j.kind()) {
        case Json::Kind::boolean: return Json::integer(static_cast<Int>(j.as_bool()) + n);
        case Json::Kind::integer: return Json::integer(j.as_int() + n);
        case Json::Kind::real: return Json::real(j.as_real() + static_cast<double>(n));
        default: fail(path, "expected a number");
    }
}

inline Json point_json(Point p) { return Json::array({Json::real(p.x), Json::real(p.y)}); }

inline const Json& np_of(const Battle& b) {
    if (b.np.is_null()) fail("battle.np", "the battle has no NP bookkeeping");
    return b.np;
}

}  // namespace wargym::no_quarter::events::detail
