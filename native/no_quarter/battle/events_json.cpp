// The events' JSON (events.hpp): rules/events.py Event.to_dict() and EventRegistry.from_dict,
// with rules/serial.py's from_jsonable rules for the fields. One writer and one reader walk
// every struct's `each` list, so a field is named once, in the struct.
#include <charconv>
#include <cstdio>
#include <string>
#include <type_traits>

#include "../../errors.hpp"
#include "events.hpp"
#include "events_fields.hpp"

namespace wargym::no_quarter::events {

namespace {

using namespace detail;

// -- writer: to_jsonable ----------------------------------------------------------------------
template <class T>
Json write(const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
        return Json::boolean(v);
    } else if constexpr (std::is_same_v<T, Int>) {
        return Json::integer(v);
    } else if constexpr (std::is_same_v<T, double>) {
        return Json::real(v);
    } else if constexpr (std::is_same_v<T, std::string>) {
        return Json::string(v);
    } else if constexpr (std::is_same_v<T, Json>) {
        return v;
    } else if constexpr (std::is_same_v<T, Point>) {
        return Json::array({Json::real(v.x), Json::real(v.y)});
    } else if constexpr (std::is_enum_v<T>) {
        return Json::string(std::string(vocab_of(v)[v]));
    } else if constexpr (is_optional<T>::value) {
        return v ? write(*v) : Json();
    } else if constexpr (std::is_same_v<T, Flags>) {
        Json::Array out;
        out.reserve(v.size());
        for (bool x : v) out.push_back(Json::boolean(x));
        return Json::array(std::move(out));
    } else if constexpr (is_vector<T>::value || is_array<T>::value) {
        Json::Array out;
        out.reserve(v.size());
        for (const auto& x : v) out.push_back(write(x));
        return Json::array(std::move(out));
    } else {
        static_assert(Record<T>);
        Json::Object out;
        Fields<T>::each(v, [&](const char* name, const auto& value, bool) { out.emplace_back(name, write(value)); });
        return Json::object(std::move(out));
    }
}

// -- reader: from_jsonable --------------------------------------------------------------------
// A field path (MechMoved.path[0][1]), built only when a refusal needs it.
struct Path {
    const Path* parent = nullptr;
    std::string_view field;
    std::size_t index = 0;
    std::string str() const {
        if (!parent) return std::string(field);
        if (!field.empty()) return parent->str() + "." + std::string(field);
        return parent->str() + "[" + std::to_string(index) + "]";
    }
    Path operator/(std::string_view f) const { return Path{this, f}; }
    Path operator[](std::size_t i) const { return Path{this, {}, i}; }
};

// Python's repr of a JSON value, at most 80 characters (rules.errors.short_repr).
void repr_into(const Json& j, std::string& out) {
    if (out.size() > 80) return;
    switch (j.kind()) {
        case Json::Kind::null: out += "None"; break;
        case Json::Kind::boolean: out += j.as_bool() ? "True" : "False"; break;
        case Json::Kind::integer: out += std::to_string(j.as_int()); break;
        case Json::Kind::real: {
            char buf[32];
            auto r = std::to_chars(buf, buf + sizeof buf, j.as_real());
            std::string s(buf, r.ptr);
            if (s.find_first_of(".en") == std::string::npos) s += ".0";
            out += s;
            break;
        }
        case Json::Kind::string: out += "'" + j.as_string() + "'"; break;
        case Json::Kind::array: {
            out += "[";
            bool first = true;
            for (const Json& x : j.as_array()) {
                if (!first) out += ", ";
                first = false;
                repr_into(x, out);
                if (out.size() > 80) break;
            }
            out += "]";
            break;
        }
        case Json::Kind::object: {
            out += "{";
            bool first = true;
            for (const auto& [k, v] : j.as_object()) {
                if (!first) out += ", ";
                first = false;
                out += "'" + k + "': ";
                repr_into(v, out);
                if (out.size() > 80) break;
            }
            out += "}";
            break;
        }
    }
}

std::string quote(const Json& j) {
    std::string out;
    repr_into(j, out);
    if (out.size() > 80) out = out.substr(0, 77) + "...";
    return out;
}

[[noreturn]] void bad(const Path& at, const std::string& message) {
    throw wargym::StateError(at.str(), message);
}

template <class T>
void read(const Json& j, const Path& at, T& out);

template <class T>
void read_record(const Json& j, const Path& at, T& out) {
    const std::string_view type = Fields<T>::name;
    if (j.kind() != Json::Kind::object) bad(at, "expected an object for " + std::string(type) + ", got " + quote(j));
    const Json::Object& fields = j.as_object();
    std::string unknown;
    for (const auto& [k, v] : fields) {
        bool known = false;
        Fields<T>::each(out, [&](const char* name, auto&, bool) { known = known || k == name; });
        if (!known) unknown += (unknown.empty() ? "'" : ", '") + k + "'";
    }
    if (!unknown.empty()) bad(at, "unknown fields [" + unknown + "] for " + std::string(type));
    Fields<T>::each(out, [&](const char* name, auto& value, bool has_default) {
        for (const auto& [k, v] : fields) {
            if (k == name) {
                read(v, at / name, value);
                return;
            }
        }
        if (!has_default) bad(at, "missing field '" + std::string(name) + "' of " + std::string(type));
    });
}

template <class T>
void read(const Json& j, const Path& at, T& out) {
    using K = Json::Kind;
    if constexpr (std::is_same_v<T, bool>) {
        if (j.kind() != K::boolean) bad(at, "expected bool, got " + quote(j));
        out = j.as_bool();
    } else if constexpr (std::is_same_v<T, Int>) {
        if (j.kind() != K::integer) bad(at, "expected int, got " + quote(j));
        out = j.as_int();
    } else if constexpr (std::is_same_v<T, double>) {
        if (j.kind() == K::integer) out = static_cast<double>(j.as_int());  // float(data)
        else if (j.kind() == K::real) out = j.as_real();
        else bad(at, "expected a number, got " + quote(j));
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (j.kind() != K::string) bad(at, "expected str, got " + quote(j));
        out = j.as_string();
    } else if constexpr (std::is_same_v<T, Json>) {  // dict[str, Any]
        if (j.kind() != K::object) bad(at, "expected an object, got " + quote(j));
        out = j;
    } else if constexpr (std::is_same_v<T, Point>) {
        std::array<double, 2> xy{};
        read(j, at, xy);
        out = Point{xy[0], xy[1]};
    } else if constexpr (std::is_enum_v<T>) {
        const auto& vocab = vocab_of(T{});
        std::optional<T> e;
        if (j.kind() == K::string) e = vocab.find(j.as_string());
        if (!e) bad(at, quote(j) + " is not a valid " + vocab.name);
        out = *e;
    } else if constexpr (is_optional<T>::value) {
        if (j.is_null()) {
            out.reset();
        } else {
            typename T::value_type v{};
            read(j, at, v);
            out = std::move(v);
        }
    } else if constexpr (is_vector<T>::value || is_array<T>::value) {
        if (j.kind() != K::array) bad(at, "expected a list, got " + quote(j));
        const Json::Array& items = j.as_array();
        if constexpr (is_array<T>::value) {
            if (items.size() != out.size()) {
                bad(at, "expected " + std::to_string(out.size()) + " items, got " + std::to_string(items.size()));
            }
            for (std::size_t i = 0; i < items.size(); ++i) read(items[i], at[i], out[i]);
        } else {
            out.clear();
            out.reserve(items.size());
            for (std::size_t i = 0; i < items.size(); ++i) {
                typename T::value_type v{};
                read(items[i], at[i], v);
                out.push_back(std::move(v));
            }
        }
    } else {
        static_assert(Record<T>);
        read_record(j, at, out);
    }
}

template <std::size_t I = 0>
Event read_event(std::string_view name, const Json& doc) {
    if constexpr (I == std::variant_size_v<Event>) {
        (void)doc;
        throw wargym::StateError("event.type", "unknown event type '" + std::string(name) + "'");
    } else {
        using E = std::variant_alternative_t<I, Event>;
        if (name != E::kType) return read_event<I + 1>(name, doc);
        E event;
        const Path root{nullptr, E::kType};
        // the document less its "type" key, read as from_jsonable(cls, fields, where=name)
        Json::Object rest;
        for (const auto& kv : doc.as_object()) {
            if (kv.first != "type") rest.push_back(kv);
        }
        read_record(Json::object(std::move(rest)), root, event);
        return event;
    }
}

}  // namespace

Json to_json(const Event& event) {
    return std::visit(
        [](const auto& e) {
            using E = std::remove_cvref_t<decltype(e)>;
            Json::Object out;
            out.emplace_back("type", Json::string(std::string(E::kType)));
            E::each(e, [&](const char* name, const auto& value, bool) { out.emplace_back(name, write(value)); });
            return Json::object(std::move(out));
        },
        event);
}

Event from_json(const Json& doc) {
    const Json* type = nullptr;
    if (doc.kind() == Json::Kind::object) {
        for (const auto& [k, v] : doc.as_object()) {
            if (k == "type") type = &v;
        }
    }
    if (type == nullptr) {
        throw wargym::StateError("event", "an event must be an object with a 'type' key, got " + quote(doc));
    }
    if (type->kind() != Json::Kind::string) {
        throw wargym::StateError("event.type", "unknown event type " + quote(*type));
    }
    return read_event(type->as_string(), doc);
}

}  // namespace wargym::no_quarter::events
