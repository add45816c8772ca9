// Plain JSON values (rules/serial.py's to_jsonable output) for the parts of a state that the
// reference keeps as plain JSON data: the rules orchestrator's frame stack and the NP and
// mission bookkeeping (rules/no_quarter/battle/state.py: frames, np, mission).
//
// A Json is immutable and shares its arrays and objects: copying one (Battle::clone) only
// bumps a reference count (a string is held inline: short ones need no allocation). Code that changes such data builds a new value (copy on write).
// Object keys keep their order, as a Python dict does; integers and floats stay apart, as
// they do in Python (1 and 1.0 write back as they were read).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace wargym {

class Json {
public:
    using Array = std::vector<Json>;
    using Object = std::vector<std::pair<std::string, Json>>;
    enum class Kind : std::uint8_t { null, boolean, integer, real, string, array, object };

    Json() = default;
    static Json boolean(bool b) { return Json(b); }
    static Json integer(std::int64_t i) { return Json(i); }
    static Json real(double d) { return Json(d); }
    static Json string(std::string s) { return Json(std::move(s)); }
    static Json array(Array a) { return Json(std::make_shared<const Array>(std::move(a))); }
    static Json object(Object o) { return Json(std::make_shared<const Object>(std::move(o))); }

    Kind kind() const noexcept { return static_cast<Kind>(value_.index()); }
    bool is_null() const noexcept { return kind() == Kind::null; }
    bool as_bool() const { return std::get<bool>(value_); }
    std::int64_t as_int() const { return std::get<std::int64_t>(value_); }
    double as_real() const { return std::get<double>(value_); }
    const std::string& as_string() const { return std::get<4>(value_); }
    const Array& as_array() const { return *std::get<5>(value_); }
    const Object& as_object() const { return *std::get<6>(value_); }

    friend bool operator==(const Json& a, const Json& b);

private:
    using Value = std::variant<std::monostate, bool, std::int64_t, double, std::string,
                               std::shared_ptr<const Array>, std::shared_ptr<const Object>>;
    template <class T>
    explicit Json(T v) : value_(std::move(v)) {}
    Value value_;
};

// Deep equality (object keys in order; 1 and 1.0 differ, as the writer keeps them apart).
inline bool operator==(const Json& a, const Json& b) {
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
        case Json::Kind::null: return true;
        case Json::Kind::boolean: return a.as_bool() == b.as_bool();
        case Json::Kind::integer: return a.as_int() == b.as_int();
        case Json::Kind::real: return a.as_real() == b.as_real();
        case Json::Kind::string: return a.as_string() == b.as_string();
        case Json::Kind::array: return a.as_array() == b.as_array();
        case Json::Kind::object: return a.as_object() == b.as_object();
    }
    return false;
}

}  // namespace wargym
