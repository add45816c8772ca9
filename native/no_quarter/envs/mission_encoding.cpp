// Mirror of envs/no_quarter/mission_encoding.py (mission_features, pef_markers); see the header.
#include "mission_encoding.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "../../errors.hpp"

namespace wargym::no_quarter {

namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
    throw ArgumentError("battle", path + ": " + why + " (as the reference reads it)");
}

const Json* find(const Json& object, const char* key) {
    if (object.kind() != Json::Kind::object) return nullptr;
    for (const auto& [k, v] : object.as_object()) {
        if (k == key) return &v;
    }
    return nullptr;
}

const Json& get(const Json& object, const char* key, const std::string& path) {
    const Json* v = find(object, key);
    if (v == nullptr) refuse(path + "." + key, "missing");
    return *v;
}

bool is_number(const Json& v) {
    return v.kind() == Json::Kind::boolean || v.kind() == Json::Kind::integer ||
           v.kind() == Json::Kind::real;
}

// float(v) of a JSON number (a bool counts, as in Python)
double number(const Json& v, const std::string& path) {
    switch (v.kind()) {
        case Json::Kind::boolean: return v.as_bool() ? 1.0 : 0.0;
        case Json::Kind::integer: return static_cast<double>(v.as_int());
        case Json::Kind::real: return v.as_real();
        default: refuse(path, "expected a number");
    }
}

// Python truthiness of a JSON value (the `or` of turn_limit)
bool truthy(const Json& v) {
    switch (v.kind()) {
        case Json::Kind::null: return false;
        case Json::Kind::boolean: return v.as_bool();
        case Json::Kind::integer: return v.as_int() != 0;
        case Json::Kind::real: return v.as_real() != 0.0;
        case Json::Kind::string: return !v.as_string().empty();
        case Json::Kind::array: return !v.as_array().empty();
        case Json::Kind::object: return !v.as_object().empty();
    }
    return false;
}

bool is_string(const Json* v, const std::string& text) {
    return v != nullptr && v->kind() == Json::Kind::string && v->as_string() == text;
}

std::int64_t index_of(const std::vector<std::string>& names, const std::string& name) {
    const auto at = std::find(names.begin(), names.end(), name);
    return at == names.end() ? -1 : at - names.begin();
}

}  // namespace

void mission_features(const Battle& battle, Side viewer, std::int64_t max_mechs, bool mirror,
                      const MissionTables& t, float* out) {
    std::vector<float> v(static_cast<std::size_t>(t.fields), 0.0F);  // written at the end
    const Json& mission = battle.mission;
    const Json& np = battle.np;
    if (mission.is_null() || np.is_null()) {
        std::copy(v.begin(), v.end(), out);
        return;
    }
    const Json& kind_value = get(mission, "kind", "mission");
    const std::int64_t kind =
        kind_value.kind() == Json::Kind::string ? index_of(t.kinds, kind_value.as_string()) : -1;
    if (kind < 0) refuse("mission.kind", "not a MissionType");
    const Json& np_side = get(np, "side", "np");
    const bool player = !is_string(&np_side, std::string(kSide[viewer]));
    std::size_t k = 0;
    v[static_cast<std::size_t>(kind)] = 1.0F;
    k += t.kinds.size();
    const std::int64_t max_turns = battle.options->max_turns;
    const Json& options = get(mission, "options", "mission");
    if (options.kind() != Json::Kind::object) refuse("mission.options", "expected an object");
    const Json* turn_limit = find(options, "turn_limit");
    std::int64_t limit = max_turns;  // mission["options"].get("turn_limit") or max_turns
    if (turn_limit != nullptr && truthy(*turn_limit)) {
        const double n = number(*turn_limit, "mission.options.turn_limit");  // int(limit)
        if (!(std::fabs(n) < 9.0e15)) refuse("mission.options.turn_limit", "out of range");
        limit = static_cast<std::int64_t>(std::trunc(n));
    }
    limit = std::min(limit, max_turns);
    v[k] = static_cast<float>(std::min(1.0, static_cast<double>(limit) / t.turn_scale));
    v[k + 1] = static_cast<float>(std::min(
        1.0, std::max(0.0, static_cast<double>(limit - battle.turn + 1) /
                               static_cast<double>(std::max<std::int64_t>(1, limit)))));
    const char* morale_key = player ? "player_morale" : "morale";
    const double morale = number(get(np, morale_key, "np"), std::string("np.") + morale_key);
    v[k + 2] = static_cast<float>(std::min(1.0, morale / t.morale_scale));
    k += 3;
    const Json* objective = find(mission, "attack_objective");
    if (player && objective != nullptr && objective->kind() == Json::Kind::string) {
        const std::int64_t o = index_of(t.objectives, objective->as_string());
        if (o >= 0) v[k + static_cast<std::size_t>(o)] = 1.0F;
    }
    k += t.objectives.size();
    const Json& recon = get(mission, "recon", "mission");
    if (recon.kind() != Json::Kind::array) refuse("mission.recon", "expected a list");
    for (std::size_t s = 0; s < t.sections.size(); ++s) {  // float(s in set(recon))
        const auto section = static_cast<double>(t.sections[s]);
        bool in = false;
        for (const Json& r : recon.as_array()) in = in || (is_number(r) && number(r, "") == section);
        v[k + static_cast<std::size_t>(t.sections[s]) - 1] = in ? 1.0F : 0.0F;
    }
    k += t.sections.size();
    const std::int64_t turn = (mirror && viewer == Side::red) ? t.mirror_edges : 0;
    const auto n_edges = static_cast<std::int64_t>(t.edges.size());
    if (player) {
        for (std::int64_t edge : t.player_exits[static_cast<std::size_t>(kind)]) {
            v[k + static_cast<std::size_t>((edge + turn) % n_edges)] = 1.0F;
        }
    }
    k += t.edges.size();
    const std::string& far = turn == 0 ? t.far : t.home;
    const std::string& home = turn == 0 ? t.home : t.far;
    const Json& edges = get(mission, "exit_edges", "mission");
    if (edges.kind() != Json::Kind::object) refuse("mission.exit_edges", "expected an object");
    std::int64_t at_far = 0, at_home = 0;
    for (const Mech& m : battle.mechs) {
        if (m.side != viewer) continue;
        const Json* edge = find(edges, std::to_string(m.id).c_str());
        at_far += is_string(edge, far);
        at_home += is_string(edge, home);
    }
    const auto md = static_cast<double>(max_mechs);
    v[k] = static_cast<float>(std::min(1.0, static_cast<double>(at_far) / md));
    v[k + 1] = static_cast<float>(std::min(1.0, static_cast<double>(at_home) / md));
    const Json& pefs = get(np, "pefs", "np");
    if (pefs.kind() != Json::Kind::array && pefs.kind() != Json::Kind::object) refuse("np.pefs", "expected a list");
    const std::size_t n_pefs = pefs.kind() == Json::Kind::array ? pefs.as_array().size() : pefs.as_object().size();
    v[k + 2] = static_cast<float>(std::min(1.0, static_cast<double>(n_pefs) / t.pef_scale));
    std::copy(v.begin(), v.end(), out);
}

std::vector<Point> pef_markers(const Battle& battle) {
    std::vector<Point> out;
    if (battle.np.is_null()) return out;
    const Json& pefs = get(battle.np, "pefs", "np");
    if (pefs.kind() != Json::Kind::array) refuse("np.pefs", "expected a list");
    for (std::size_t i = 0; i < pefs.as_array().size(); ++i) {
        const std::string path = "np.pefs." + std::to_string(i);
        const Json& pos = get(pefs.as_array()[i], "pos", path);
        if (pos.kind() != Json::Kind::array || pos.as_array().size() < 2) refuse(path + ".pos", "expected a point");
        out.push_back({number(pos.as_array()[0], path + ".pos[0]"), number(pos.as_array()[1], path + ".pos[1]")});
    }
    return out;
}

}  // namespace wargym::no_quarter
