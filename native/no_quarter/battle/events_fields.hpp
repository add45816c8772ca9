// Internal to the events' JSON writers and reader (events_json.cpp, events_bindings.cpp): the
// field lists of the records an event holds (forces/records.py), the vocabulary of each enum,
// and the type traits the generic walkers dispatch on.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "events.hpp"

namespace wargym::no_quarter::events::detail {

// -- the records inside events (forces/records.py), listed like the events ----------------------
template <class T>
struct Fields {
    static constexpr std::string_view name = T::kType;
    template <class S, class F>
    static void each(S& s, F&& f) { T::each(s, f); }
};
template <>
struct Fields<MountedItem> {
    static constexpr std::string_view name = "MountedItem";
    template <class S, class F>
    static void each(S& s, F&& f) {
        f("item", s.item, false); f("location", s.location, false); f("wv", s.wv, false);
        f("range", s.range, false); f("target", s.target, false); f("impact", s.impact, false);
        f("label", s.label, false);
    }
};
template <>
struct Fields<MechDesign> {
    static constexpr std::string_view name = "MechDesign";
    template <class S, class F>
    static void each(S& s, F&& f) {
        f("id", s.id, false); f("name", s.name, false); f("faction", s.faction, false);
        f("mech_class", s.mech_class, false); f("speed", s.speed, false); f("armor", s.armor, false);
        f("items", s.items, false); f("notes", s.notes, false); f("capacity", s.capacity, false);
        f("ews_bonus", s.ews_bonus, false);
    }
};
template <>
struct Fields<Pilot> {
    static constexpr std::string_view name = "Pilot";
    template <class S, class F>
    static void each(S& s, F&& f) {
        f("name", s.name, false); f("faction", s.faction, false); f("race", s.race, false);
        f("rep", s.rep, false); f("star", s.star, false); f("attributes", s.attributes, false);
    }
};

template <class T>
concept Record = requires(T& t) { Fields<T>::each(t, [](const char*, auto&, bool) {}); };

// The vocabulary of each enum an event holds.
constexpr const auto& vocab_of(Side) { return kSide; }
constexpr const auto& vocab_of(Rank) { return kRank; }
constexpr const auto& vocab_of(Status) { return kStatus; }
constexpr const auto& vocab_of(Removal) { return kRemoval; }
constexpr const auto& vocab_of(Location) { return kLocation; }
constexpr const auto& vocab_of(Faction) { return kFaction; }
constexpr const auto& vocab_of(Race) { return kRace; }
constexpr const auto& vocab_of(Attribute) { return kAttribute; }
constexpr const auto& vocab_of(ItemType) { return kItemType; }
constexpr const auto& vocab_of(ReactionResult) { return kReactionResult; }
constexpr const auto& vocab_of(ReactionTest) { return kReactionTest; }
constexpr const auto& vocab_of(MeleeAttack) { return kMeleeAttack; }
constexpr const auto& vocab_of(Aspect) { return kAspect; }

template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};
template <class T> struct is_array : std::false_type {};
template <class T, std::size_t N> struct is_array<std::array<T, N>> : std::true_type {};

}  // namespace wargym::no_quarter::events::detail
