// Mirror of envs/no_quarter/encoding.py's ObservationEncoder ("nq-obs-v3"): one side's view of
// a native Battle as float32 values, written into a buffer the caller owns.
//
// Every size and scale (the plane and field counts, the scales, the terrain tables the static
// planes read) is handed in by the Python glue (native/no_quarter/encoding.py) from the
// reference encoder object and the terrain tables: EncoderConfig holds no default number.
// Each value goes through the same double operations as the Python and is rounded to float32
// where numpy rounds it, so the two arrays are equal bit for bit
// (tests/native/test_encoding_agreement.py).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <span>
#include <vector>

#include "../battle/state.hpp"
#include "../battlefield/terrain_tables.hpp"  // kTerrainKinds: len(Terrain)
#include "../forces/data_combat.hpp"          // kItemTypes: len(ItemType)
#include "action_features.hpp"
#include "mission_encoding.hpp"

namespace wargym::no_quarter {

inline constexpr std::size_t kRanks = 4;         // len(Rank)

// What ObservationEncoder.__init__ computes, and the module constants and tables it reads.
struct EncoderConfig {
    std::int64_t max_mechs = 0, max_weapons = 0, max_turns = 0;
    double width = 0.0, height = 0.0, cell = 0.0;
    std::int64_t rows = 0, cols = 0;  // ObservationEncoder.rows / .cols
    bool mirror = false;
    std::int64_t planes = 0;          // len(PLANES)
    std::vector<Terrain> terrain_planes;  // TERRAIN_PLANES, in channel order
    std::int64_t unit_fields = 0;     // len(UNIT_FIELDS)
    std::int64_t weapon_fields = 0;   // len(WEAPON_FIELDS)
    std::int64_t unit_size = 0, global_size = 0, kinds = 0, size = 0;
    // SPEED_SCALE, RANGE_SCALE, IMPACT_SCALE, REP_SCALE, MOVED_SCALE and the scales written
    // inline in _unit/_globals (twist 90, class 5, rank 4, EWS 2, dice 6)
    double speed_scale = 0, range_scale = 0, impact_scale = 0, rep_scale = 0, moved_scale = 0;
    double twist_scale = 0, class_scale = 0, rank_scale = 0, ews_scale = 0, dice_scale = 0;
    double contact_slack = 0;  // _unit's 1e-6 on the contact distance (a float tolerance)
    double grid_slack = 0;     // the 1e-9 of static_planes' and __init__'s math.ceil (idem)
    double mirror_turn = 0;    // battle_slots' 180 degrees for a mirrored red viewer
    // terrain tables (static_planes): cover_config().inside_stationary gives "cover",
    // terrain_config().move_multiplier, cover_config().concealing()
    std::array<bool, kTerrainKinds> cover{};
    std::array<double, kTerrainKinds> move_multiplier{};
    std::array<bool, kTerrainKinds> concealing{};
    // the vocabulary's properties (ItemType.is_ranged_weapon, jump jets, EWS level, Rank.order)
    std::array<bool, kItemTypes> ranged{};
    std::array<bool, kItemTypes> jump_jets{};
    std::array<std::int64_t, kItemTypes> ews{};  // 0, or the bonus _design_info counts
    std::array<std::int64_t, kRanks> rank_order{};
    std::int64_t reach_cache_size = 0;  // REACH_CACHE_SIZE: weapon-reach discs kept
    // the per-action feature block ("nq-af-v1", action_features=True): n_actions columns
    bool action_features = false;
    std::int64_t n_actions = 0;
    FeatureTables features;
    // MissionObservationEncoder ("nq-obs-v4"): the mission globals after the base globals
    bool mission = false;
    bool pef_markers = false;           // markers default to mission_encoding.pef_markers
    std::int64_t base_global_size = 0;  // the "nq-obs-v3" globals
    MissionTables mission_tables;
};

// codec.Slots as the encoder needs it: the viewer-relative numbering of the mechs (the
// codec's own Slots, envs/codec.hpp, also numbers buildings; one struct for both is to do).
struct EncoderSlots {
    std::vector<std::int64_t> own;
    std::vector<std::int64_t> enemy;
    double turn = 0.0;
};

// codec.battle_slots (the buildings are not needed by the encoder).
EncoderSlots battle_slots(const Battle& battle, Side viewer, bool mirror, double mirror_turn);

// encoding.ObservationEncoder (and MissionObservationEncoder): encode() writes the flat
// layout (planes, then units, then globals with the mission globals of a mission encoder,
// then the action features block if configured: EncoderConfig::size values) into `out`.
// The advisor rows are not mirrored.
class ObservationEncoder {
public:
    explicit ObservationEncoder(EncoderConfig config);
    const EncoderConfig& config() const { return config_; }
    // encoding.static_planes(battlefield, cell): terrain planes, cover, concealment and move
    // cost, in table coordinates; computed once per battlefield and reused (the battlefield
    // is shared and immutable, so a cached entry stays right while the battlefield lives).
    const std::vector<float>& static_planes(const std::shared_ptr<const Battlefield>& bf);
    // rows, cols of static_planes(bf) (encoding.static_planes' own grid of the battlefield)
    std::pair<std::int64_t, std::int64_t> grid_of(const Battlefield& bf) const;
    // encoding.visible_enemies (bumping.enemies_in_sight over perception.line_between): the
    // enemy mechs in play that some mech of `viewer` in play has a line of sight to, arcs
    // ignored (§17.1, ruling D11; a duck-back pair sees nothing, §15.2.4.1), in id order.
    std::vector<std::int64_t> visible_enemies(const Battle& battle, Side viewer);
    // The line-of-sight terrain of a battlefield, built once and reused.
    const SightTerrain& sight_terrain(const std::shared_ptr<const Battlefield>& bf);
    // ObservationEncoder.encode(battle, viewer, visible) with the flat layout; `seen` holds
    // the enemies in sight (any order; ids of the battle), `markers` the points of the
    // markers hook, `actions` the action table (used only when the viewer decides). Every
    // argument is checked before `out` is written. out.size() must be config().size.
    void encode(const Battle& battle, Side viewer, std::span<const std::int64_t> seen,
                const EncoderSlots& slots, std::span<const Point> markers,
                std::span<const FeatureAction> actions, std::span<float> out);

private:
    struct Cached {
        std::weak_ptr<const Battlefield> battlefield;
        const Battlefield* key;
        std::vector<float> planes;
    };
    EncoderConfig config_;
    struct CachedSight {
        std::weak_ptr<const Battlefield> battlefield;
        const Battlefield* key;
        SightTerrain terrain;
    };
    std::vector<Cached> static_cache_;
    std::vector<CachedSight> sight_cache_;
    std::vector<double> xs_, ys_;  // ObservationEncoder._grid
    // ObservationEncoder._reach_cache: the disc of (position, facing, range), 1 where it reaches
    struct ReachKey {
        double x, y, facing, range;
        bool operator==(const ReachKey&) const = default;  // as the float tuple compares
    };
    struct ReachHash {
        std::size_t operator()(const ReachKey& k) const noexcept;
    };
    mutable std::unordered_map<ReachKey, std::vector<std::uint8_t>, ReachHash> reach_cache_;

    std::pair<std::int64_t, std::int64_t> cell_of(Point pos, bool flip) const;
    void mark(float* plane, Point pos, bool flip) const;
    void reach(float* counts, const Mech& mech) const;
    void unit(float* row, const Battle& battle, const Mech& mech, double turn, bool acting,
              std::span<const std::int64_t> seen) const;
    void globals(float* out, const Battle& battle, Side viewer, const EncoderSlots& slots,
                 std::span<const std::int64_t> seen, bool deciding,
                 std::optional<std::int64_t> acting) const;
};

// Python's float floor division and modulo (float_floor_div, float_rem), which the encoder's
// x // cell and (heading + twist) % 360.0 use.
double py_floordiv(double x, double y);
double py_mod(double x, double y);

}  // namespace wargym::no_quarter
