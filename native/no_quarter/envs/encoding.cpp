// Mirror of envs/no_quarter/encoding.py (ObservationEncoder, static_planes, _design_info) and
// codec.battle_slots; see encoding.hpp. Each function's comment names its Python twin.
#include "encoding.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "../../errors.hpp"
#include "../sight_movement/geometry.hpp"

namespace wargym::no_quarter {

// CPython's float_floor_div (_float_div_mod), the x // y of two floats.
double py_floordiv(double x, double y) {
    double mod = std::fmod(x, y);
    double div = (x - mod) / y;
    if (mod != 0.0) {
        if ((y < 0) != (mod < 0)) {
            mod += y;
            div -= 1.0;
        }
    }
    double floordiv;
    if (div != 0.0) {
        floordiv = std::floor(div);
        if (div - floordiv > 0.5) floordiv += 1.0;
    } else {
        floordiv = std::copysign(0.0, x / y);
    }
    return floordiv;
}

// CPython's float_rem, the x % y of two floats.
double py_mod(double x, double y) {
    double mod = std::fmod(x, y);
    if (mod != 0.0) {
        if ((y < 0) != (mod < 0)) mod += y;
    } else {
        mod = std::copysign(0.0, y);
    }
    return mod;
}

namespace {

// math.ceil(extent / cell - slack), at least 1 (ObservationEncoder.__init__, static_planes)
std::int64_t cells(double extent, double cell, double slack) {
    const double n = std::ceil(extent / cell - slack);
    return n < 1.0 ? 1 : static_cast<std::int64_t>(n);
}

const Mech& mech_of(const Battle& battle, std::int64_t id, const char* what) {
    const Mech* m = battle.mech(id);
    if (m == nullptr) {
        throw ArgumentError(what, "mech " + std::to_string(id) + " is not in the battle");
    }
    return *m;
}

bool contains(std::span<const std::int64_t> ids, std::int64_t id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

bool broken(const Mech& mech, std::int64_t item) {
    return std::find(mech.inoperable.begin(), mech.inoperable.end(), item) !=
           mech.inoperable.end();
}

// encoding._design_info's `ranged`: codec.ranged_weapons_of(design)[:max_weapons]
std::vector<std::int64_t> ranged_of(const MechDesign& design, const EncoderConfig& cfg) {
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < design.items.size(); ++i) {
        if (static_cast<std::int64_t>(out.size()) >= cfg.max_weapons) break;
        if (cfg.ranged[static_cast<std::size_t>(design.items[i].item)]) {
            out.push_back(static_cast<std::int64_t>(i));
        }
    }
    return out;
}

// Battle.mechs_of(side): mechs of `side` still in play, in id order
template <class F>
void each_in_play(const Battle& battle, Side side, F&& f) {
    for (const Mech& m : battle.mechs) {
        if (m.side == side && !m.removed) f(m);
    }
}

Side other(Side side) { return side == Side::blue ? Side::red : Side::blue; }

}  // namespace

// codec.battle_slots: own and enemy mech ids in id order (removed mechs included).
EncoderSlots battle_slots(const Battle& battle, Side viewer, bool mirror, double mirror_turn) {
    EncoderSlots slots;
    for (const Mech& m : battle.mechs) (m.side == viewer ? slots.own : slots.enemy).push_back(m.id);
    slots.turn = (mirror && viewer == Side::red) ? mirror_turn : 0.0;
    return slots;
}

ObservationEncoder::ObservationEncoder(EncoderConfig config) : config_(std::move(config)) {
    for (std::int64_t c = 0; c < config_.cols; ++c) {
        xs_.push_back((static_cast<double>(c) + 0.5) * config_.cell);
    }
    for (std::int64_t r = 0; r < config_.rows; ++r) {
        ys_.push_back((static_cast<double>(r) + 0.5) * config_.cell);
    }
}

std::pair<std::int64_t, std::int64_t> ObservationEncoder::grid_of(const Battlefield& bf) const {
    return {cells(bf.height, config_.cell, config_.grid_slack),
            cells(bf.width, config_.cell, config_.grid_slack)};
}

// encoding.static_planes: the terrain kinds of TERRAIN_PLANES, then cover (stationary, table
// 17.2), concealment (ruling D12) and move cost (0 clear, 1 - multiplier, §19), at each cell
// centre of the battlefield's own grid.
const std::vector<float>& ObservationEncoder::static_planes(
    const std::shared_ptr<const Battlefield>& bf) {
    for (const Cached& hit : static_cache_) {
        if (hit.key == bf.get() && hit.battlefield.lock() == bf) return hit.planes;
    }
    const auto [rows, cols] = grid_of(*bf);
    const auto n_terrain = static_cast<std::int64_t>(config_.terrain_planes.size());
    const std::size_t area = static_cast<std::size_t>(rows * cols);
    std::vector<float> planes(static_cast<std::size_t>(n_terrain + 3) * area, 0.0F);
    std::vector<double> ys, xs;
    for (std::int64_t r = 0; r < rows; ++r) ys.push_back((static_cast<double>(r) + 0.5) * config_.cell);
    for (std::int64_t c = 0; c < cols; ++c) xs.push_back((static_cast<double>(c) + 0.5) * config_.cell);
    float* cover = planes.data() + static_cast<std::size_t>(n_terrain) * area;
    float* concealed = cover + area;
    float* cost = concealed + area;
    for (const Feature& f : bf->features) {
        const auto at = std::find(config_.terrain_planes.begin(), config_.terrain_planes.end(), f.kind);
        if (at == config_.terrain_planes.end()) {
            throw ArgumentError("battle", "a feature of kind " + std::to_string(static_cast<int>(f.kind)) +
                                              " has no terrain plane (TERRAIN_PLANES.index fails)");
        }
        float* plane = planes.data() + static_cast<std::size_t>(at - config_.terrain_planes.begin()) * area;
        const auto kind = static_cast<std::size_t>(f.kind);
        const double multiplier = config_.move_multiplier[kind];
        const double slow = multiplier > 0 ? 1.0 - multiplier : 1.0;
        for (std::int64_t r = 0; r < rows; ++r) {
            const double y = ys[static_cast<std::size_t>(r)];
            if (!(y >= f.y0 && y <= f.y1)) continue;
            for (std::int64_t c = 0; c < cols; ++c) {
                const double x = xs[static_cast<std::size_t>(c)];
                if (!(x >= f.x0 && x <= f.x1)) continue;
                const std::size_t i = static_cast<std::size_t>(r * cols + c);
                plane[i] = 1.0F;
                if (config_.cover[kind]) cover[i] = 1.0F;
                cost[i] = static_cast<float>(std::max(static_cast<double>(cost[i]), slow));
            }
        }
    }
    for (const Feature& f : bf->features) {  // sight.concealing_rects, in feature order
        if (!config_.concealing[static_cast<std::size_t>(f.kind)]) continue;
        for (std::int64_t r = 0; r < rows; ++r) {
            const double y = ys[static_cast<std::size_t>(r)];
            if (!(f.y0 <= y && y <= f.y1)) continue;
            for (std::int64_t c = 0; c < cols; ++c) {
                const double x = xs[static_cast<std::size_t>(c)];
                if (f.x0 <= x && x <= f.x1) concealed[static_cast<std::size_t>(r * cols + c)] = 1.0F;
            }
        }
    }
    if (static_cache_.size() > 16) static_cache_.clear();  // _STATIC_CACHE's bound
    static_cache_.push_back({bf, bf.get(), std::move(planes)});
    return static_cache_.back().planes;
}

const SightTerrain& ObservationEncoder::sight_terrain(const std::shared_ptr<const Battlefield>& bf) {
    for (const CachedSight& hit : sight_cache_) {
        if (hit.key == bf.get() && hit.battlefield.lock() == bf) return hit.terrain;
    }
    if (sight_cache_.size() > 16) sight_cache_.clear();
    sight_cache_.push_back({bf, bf.get(), sight_terrain_of(*bf, config_.features)});
    return sight_cache_.back().terrain;
}

namespace {

bool listed(const std::vector<std::int64_t>& ids, std::int64_t id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// perception.hidden_pair: one ducked back into cover from the other (§15.2.4.1)
bool hidden_pair(const Mech& a, const Mech& b) {
    return (a.status == Status::duck_back && listed(a.hidden_from, b.id)) ||
           (b.status == Status::duck_back && listed(b.hidden_from, a.id));
}

}  // namespace

std::vector<std::int64_t> ObservationEncoder::visible_enemies(const Battle& battle, Side viewer) {
    const SightTerrain& terrain = sight_terrain(battle.battlefield);
    const double radius = battle.options->base_radius;
    std::vector<Body> bodies;  // perception.bodies: mechs in play, then wrecks (D22)
    for (const Mech& m : battle.mechs) {
        if (!m.removed) bodies.push_back({m.id, m.pos.x, m.pos.y, radius});
    }
    for (std::size_t i = 0; i < battle.wrecks.size(); ++i) {
        bodies.push_back({-1000 - static_cast<std::int64_t>(i), battle.wrecks[i].x, battle.wrecks[i].y, radius});
    }
    std::vector<std::int64_t> found;
    for (const Mech& enemy : battle.mechs) {
        if (enemy.side == viewer || enemy.removed) continue;
        for (const Mech& own : battle.mechs) {
            if (own.side != viewer || own.removed || hidden_pair(own, enemy)) continue;
            if (sight(terrain, own.pos, enemy.pos, own.id, enemy.id, bodies,
                      has_functioning_ews(own, config_.features), radius)
                    .visible) {
                found.push_back(enemy.id);
                break;
            }
        }
    }
    return found;
}

// ObservationEncoder._cell
std::pair<std::int64_t, std::int64_t> ObservationEncoder::cell_of(Point pos, bool flip) const {
    const double x = flip ? config_.width - pos.x : pos.x;
    const double y = flip ? config_.height - pos.y : pos.y;
    const auto clamp = [](double v, std::int64_t n) {  // min(n - 1, max(0, int(v)))
        if (!(v > 0.0)) return std::int64_t{0};
        if (v >= static_cast<double>(n - 1)) return n - 1;
        return static_cast<std::int64_t>(v);
    };
    return {clamp(py_floordiv(y, config_.cell), config_.rows),
            clamp(py_floordiv(x, config_.cell), config_.cols)};
}

// ObservationEncoder._mark with value 1.0
void ObservationEncoder::mark(float* plane, Point pos, bool flip) const {
    const auto [r, c] = cell_of(pos, flip);
    float& v = plane[static_cast<std::size_t>(r * config_.cols + c)];
    v = std::max(v, 1.0F);
}

// ObservationEncoder._reach: adds 1 where an operable ranged weapon reaches in the front arc
// (table frame; the caller divides and turns the plane).
void ObservationEncoder::reach(float* counts, const Mech& mech) const {
    if (mech.status != Status::carry_on) return;
    bool any = false;
    double longest = 0.0;  // max(ranges)
    for (std::int64_t i : ranged_of(mech.design(), config_)) {
        if (broken(mech, i)) continue;
        const auto& range = mech.design().items[static_cast<std::size_t>(i)].range;
        const double r = static_cast<double>(range ? *range : 0);
        if (!any || r > longest) longest = r;
        any = true;
    }
    if (!any) return;
    const double facing = py_mod(mech.heading + static_cast<double>(mech.twist), 360.0);
    const ReachKey key{mech.pos.x, mech.pos.y, facing, longest};
    auto hit = reach_cache_.find(key);
    if (hit == reach_cache_.end()) {
        std::vector<std::uint8_t> disc(ys_.size() * xs_.size(), 0);
        const double rad = radians(facing);
        const double cos = std::cos(rad), sin = std::sin(rad);
        const double limit = longest * longest;  // key[2] ** 2
        const std::size_t cols = xs_.size();
        for (std::size_t r = 0; r < ys_.size(); ++r) {
            const double dy = ys_[r] - mech.pos.y;
            // dx * dx + dy * dy >= dy * dy in floating point too, so such a row reaches nowhere
            if (dy * dy > limit) continue;
            const double dy_sin = dy * sin, dy_dy = dy * dy;
            for (std::size_t c = 0; c < cols; ++c) {
                const double dx = xs_[c] - mech.pos.x;
                const bool front = (dx * cos + dy_sin) >= 0.0;
                const bool near = dx * dx + dy_dy <= limit;
                disc[r * cols + c] = near && front;
            }
        }
        if (static_cast<std::int64_t>(reach_cache_.size()) >= config_.reach_cache_size) reach_cache_.clear();
        hit = reach_cache_.emplace(key, std::move(disc)).first;
    }
    const std::vector<std::uint8_t>& disc = hit->second;
    for (std::size_t i = 0; i < disc.size(); ++i) counts[i] += disc[i] ? 1.0F : 0.0F;  // plane += reach
}

std::size_t ObservationEncoder::ReachHash::operator()(const ReachKey& k) const noexcept {
    std::size_t h = 0;
    for (double v : {k.x, k.y, k.facing, k.range}) {
        h = h * 1000003U ^ std::hash<double>{}(v == 0.0 ? 0.0 : v);  // -0.0 == 0.0: one hash
    }
    return h;
}

// ObservationEncoder._unit (the row is clipped to [-1, 1] by encode)
void ObservationEncoder::unit(float* row, const Battle& battle, const Mech& mech, double turn,
                              bool acting, std::span<const std::int64_t> seen) const {
    const EncoderConfig& k = config_;
    const MechDesign& design = mech.design();
    const bool flip = turn != 0.0;
    const double x = flip ? k.width - mech.pos.x : mech.pos.x;
    const double y = flip ? k.height - mech.pos.y : mech.pos.y;
    const double heading = radians(mech.heading + turn);
    bool engaged = false;
    const double contact = 2 * battle.options->base_radius + k.contact_slack;
    const auto touches = [&](const Mech& f) {
        if (pyhypot(f.pos.x - mech.pos.x, f.pos.y - mech.pos.y) <= contact) engaged = true;
    };
    if (contains(seen, mech.id)) {  // an enemy: contact with the viewer's own mechs
        each_in_play(battle, other(mech.side), touches);
    } else {  // an own mech: contact with enemies in sight only
        for (std::int64_t i : seen) touches(mech_of(battle, i, "visible"));
    }
    std::int64_t armor_sum = 0, design_sum = 0;
    for (std::size_t i = 0; i < kLocations; ++i) {
        armor_sum += mech.armor[i];
        design_sum += design.armor[i];
    }
    std::size_t n = 0;
    const auto put = [&](double v) { row[n++] = static_cast<float>(v); };
    put(1.0);
    put(x / k.width);
    put(y / k.height);
    put(std::sin(heading));
    put(std::cos(heading));
    put(static_cast<double>(mech.twist) / k.twist_scale);
    for (std::size_t i = 0; i < kLocations; ++i) {  // a * (1.0 / max(1, design armour))
        const double inv = 1.0 / static_cast<double>(std::max<std::int64_t>(1, design.armor[i]));
        put(static_cast<double>(mech.armor[i]) * inv);
    }
    put(static_cast<double>(armor_sum) / static_cast<double>(std::max<std::int64_t>(1, design_sum)));
    put(static_cast<double>(design.mech_class) / k.class_scale);
    put(static_cast<double>(mech.speed) / k.speed_scale);
    put(static_cast<double>(mech.speed) / static_cast<double>(std::max<std::int64_t>(1, design.speed)));
    put(static_cast<double>(mech.rep) / k.rep_scale);
    put(mech.status == Status::duck_back ? 1.0 : 0.0);
    put(mech.status == Status::leave_battlefield ? 1.0 : 0.0);
    put(mech.prone ? 1.0 : 0.0);
    put(std::min(1.0, mech.moved / k.moved_scale));
    put(mech.fired_this_activation ? 1.0 : 0.0);
    put(mech.rank ? static_cast<double>(k.rank_order[static_cast<std::size_t>(*mech.rank)] + 1) / k.rank_scale
                  : 0.0);
    put(mech.record->pilot.star ? 1.0 : 0.0);
    put(acting ? 1.0 : 0.0);
    bool leader = false;  // battle.group_of.get(mech.id) == mech.id
    for (const auto& [member, head] : battle.group_of) {
        if (member == mech.id) {
            leader = head == mech.id;
            break;
        }
    }
    put(leader ? 1.0 : 0.0);
    bool jets = false;
    std::int64_t ews = 0;
    for (std::size_t i = 0; i < design.items.size(); ++i) {
        const auto type = static_cast<std::size_t>(design.items[i].item);
        if (broken(mech, static_cast<std::int64_t>(i))) continue;
        if (k.jump_jets[type]) jets = true;
        if (k.ews[type] > 0) ews = std::max(ews, k.ews[type]);
    }
    put(jets ? 1.0 : 0.0);
    put(static_cast<double>(ews) / k.ews_scale);
    put(engaged ? 1.0 : 0.0);
    // the weapon slots: _design_info's weapons, then operable cleared for broken weapons
    float* slots = row + k.unit_fields;
    const auto ranged = ranged_of(design, k);
    for (std::size_t s = 0; s < ranged.size(); ++s) {
        const MountedItem& item = design.items[static_cast<std::size_t>(ranged[s])];
        float* w = slots + static_cast<std::int64_t>(s) * k.weapon_fields;
        w[0] = 1.0F;
        w[1] = broken(mech, ranged[s]) ? 0.0F : 1.0F;
        w[2] = static_cast<float>(static_cast<double>(item.range ? *item.range : 0) / k.range_scale);
        w[3] = static_cast<float>(static_cast<double>(item.impact) / k.impact_scale);
    }
}

// ObservationEncoder._globals
void ObservationEncoder::globals(float* out, const Battle& battle, Side viewer, const EncoderSlots& slots,
                                 std::span<const std::int64_t> seen, bool deciding,
                                 std::optional<std::int64_t> acting) const {
    const EncoderConfig& k = config_;
    const std::int64_t m = k.max_mechs;
    const auto md = static_cast<double>(m);
    const auto get = [](const SideMap<std::int64_t>& map, Side s) {
        const std::int64_t* v = map.find(s);
        return static_cast<double>(v ? *v : 0);
    };
    out[0] = static_cast<float>(std::min(
        1.0, static_cast<double>(battle.turn) / static_cast<double>(std::max<std::int64_t>(1, k.max_turns))));
    out[1] = static_cast<float>(get(battle.dice, viewer) / k.dice_scale);
    out[2] = static_cast<float>(get(battle.dice, other(viewer)) / k.dice_scale);
    out[3] = battle.first_side == viewer ? 1.0F : 0.0F;
    out[4] = battle.active_side == viewer ? 1.0F : 0.0F;
    out[5] = deciding ? 1.0F : 0.0F;
    if (deciding && battle.decision) {
        out[6 + static_cast<std::int64_t>(battle.decision->kind)] = 1.0F;
        if (acting) {
            const auto at = std::find(slots.own.begin(), slots.own.end(), *acting);
            if (at != slots.own.end() && at - slots.own.begin() < m) out[6 + k.kinds + (at - slots.own.begin())] = 1.0F;
        }
    }
    const std::int64_t tail = 6 + k.kinds + m;
    std::int64_t in_play = 0;
    each_in_play(battle, viewer, [&](const Mech&) { ++in_play; });
    out[tail] = battle.battlefield->night ? 1.0F : 0.0F;
    out[tail + 1] = battle.battlefield->inclement_weather ? 1.0F : 0.0F;
    out[tail + 2] = static_cast<float>(std::min(1.0, get(battle.losses, viewer) / md));
    out[tail + 3] = static_cast<float>(std::min(1.0, static_cast<double>(in_play) / md));
    out[tail + 4] = static_cast<float>(std::min(1.0, static_cast<double>(seen.size()) / md));
}

// ObservationEncoder.encode, flat layout: planes, units, globals.
void ObservationEncoder::encode(const Battle& battle, Side viewer, std::span<const std::int64_t> seen,
                                const EncoderSlots& slots, std::span<const Point> markers,
                                std::span<const FeatureAction> actions, std::span<float> out) {
    const EncoderConfig& k = config_;
    for (std::int64_t id : seen) mech_of(battle, id, "visible");
    const bool flip = slots.turn != 0.0;
    const bool deciding = battle.decision && battle.decision->side == viewer;
    const std::optional<std::int64_t> acting = deciding ? battle.decision->mech : std::nullopt;
    const std::size_t area = static_cast<std::size_t>(k.rows * k.cols);
    const auto [rows, cols] = grid_of(*battle.battlefield);
    if (rows != k.rows || cols != k.cols) {
        throw ArgumentError("battle", "the battlefield has " + std::to_string(rows) + " x " +
                                          std::to_string(cols) + " cells; the encoder " +
                                          std::to_string(k.rows) + " x " + std::to_string(k.cols));
    }
    const std::vector<float>& terrain = static_planes(battle.battlefield);
    const std::size_t own_n = std::min(slots.own.size(), static_cast<std::size_t>(k.max_mechs));
    const std::size_t enemy_n = std::min(slots.enemy.size(), static_cast<std::size_t>(k.max_mechs));
    std::vector<const Mech*> own_list, enemy_list;  // looked up first, as the Python does
    for (std::size_t i = 0; i < own_n; ++i) own_list.push_back(&mech_of(battle, slots.own[i], "slots.own"));
    for (std::size_t i = 0; i < enemy_n; ++i) enemy_list.push_back(&mech_of(battle, slots.enemy[i], "slots.enemy"));
    // the action table only counts while the viewer decides (else the reference's {})
    const std::span<const FeatureAction> table = deciding ? actions : std::span<const FeatureAction>{};
    if (k.action_features) check_feature_actions(battle, table, k.n_actions);
    const SightTerrain* los = k.action_features ? &sight_terrain(battle.battlefield) : nullptr;
    std::vector<float> mission(static_cast<std::size_t>(k.mission ? k.mission_tables.fields : 0));
    if (k.mission) mission_features(battle, viewer, k.max_mechs, k.mirror, k.mission_tables, mission.data());
    // every check is done: from here on `out` is written and nothing throws
    float* planes = out.data();
    const std::size_t n_static = terrain.size() / area;
    std::fill(out.begin() + static_cast<std::ptrdiff_t>(n_static * area), out.end(), 0.0F);
    for (std::size_t p = 0; p < n_static; ++p) {  // terrain[:, ::-1, ::-1] if flip
        const float* src = terrain.data() + p * area;
        float* dst = planes + p * area;
        if (flip) {
            for (std::size_t i = 0; i < area; ++i) dst[i] = src[area - 1 - i];
        } else {
            std::copy(src, src + area, dst);
        }
    }
    float* own_plane = planes + n_static * area;
    float* acting_plane = own_plane + area;
    float* enemy_plane = acting_plane + area;
    float* own_reach = enemy_plane + area;
    float* enemy_reach = own_reach + area;
    float* marker_plane = enemy_reach + area;
    float* units = planes + static_cast<std::size_t>(k.planes) * area;
    const auto unit_row = [&](std::int64_t row) { return units + row * k.unit_size; };
    for (std::size_t row = 0; row < own_list.size(); ++row) {
        const Mech& mech = *own_list[row];
        if (mech.removed) continue;
        mark(own_plane, mech.pos, flip);
        reach(own_reach, mech);
        if (acting && mech.id == *acting) mark(acting_plane, mech.pos, flip);
        unit(unit_row(static_cast<std::int64_t>(row)), battle, mech, slots.turn, acting && mech.id == *acting, seen);
    }
    for (std::size_t row = 0; row < enemy_list.size(); ++row) {
        const Mech& mech = *enemy_list[row];
        if (!contains(seen, mech.id) || mech.removed) continue;
        mark(enemy_plane, mech.pos, flip);
        reach(enemy_reach, mech);
        unit(unit_row(k.max_mechs + static_cast<std::int64_t>(row)), battle, mech, slots.turn, false, seen);
    }
    for (float* plane : {own_reach, enemy_reach}) {  // planes[r] / max_mechs, turned if flip
        if (std::all_of(plane, plane + area, [](float v) { return v == 0.0F; })) continue;  // stays 0
        const auto m = static_cast<float>(k.max_mechs);
        for (std::size_t i = 0; i < area; ++i) plane[i] = plane[i] / m;
        if (flip) std::reverse(plane, plane + area);
    }
    for (const Point& p : markers) mark(marker_plane, p, flip);
    float* glob = units + 2 * k.max_mechs * k.unit_size;
    globals(glob, battle, viewer, slots, seen, deciding, acting);
    std::copy(mission.begin(), mission.end(), glob + k.base_global_size);  // MissionObservationEncoder._globals
    if (los != nullptr) action_features(battle, *los, k.features, table, k.n_actions, seen, glob + k.global_size);
    const std::size_t n_units = static_cast<std::size_t>(2 * k.max_mechs * k.unit_size);
    for (std::size_t i = 0; i < n_units; ++i) {  // np.clip(units, -1.0, 1.0)
        float& v = units[i];
        if (v < -1.0F) v = -1.0F;
        else if (v > 1.0F) v = 1.0F;
    }
}

}  // namespace wargym::no_quarter
