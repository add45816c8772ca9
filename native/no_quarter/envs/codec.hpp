// The flat action space of the No Quarter envs, "nq-act-v2" (envs/no_quarter/codec.py:
// ActionCodec, Slots, battle_slots, ranged_weapons, free_reach), on the native Battle.
//
// Every number of the layout comes from the Python codec object and its module, handed in by
// the glue (native/no_quarter/codec.py) as CodecTables: the maxima, the move grid, the block
// sizes in layout order, the heading and free-move counts, the Free Will, limb, edge,
// objective, Lucky, location and twist slot lists, REVERSE_FRACTION, _TOL, and free_reach()'s
// two distances per RulesOptions (the rules' free_move_inches, §16.1.3). The C++ only knows the
// block names and the order of the operations.
//
// The reference computes the legal options itself (game.legal_actions); here the caller hands
// them in (`legal`, in the engine's order: the first listed keeps an index on a clash).
// Errors the reference raises as ValueError throw CodecError (an ArgumentError: the bindings
// raise NativeArgumentError) with the reference's message; table() counts them as clashes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../../errors.hpp"
#include "../battle/actions.hpp"
#include "../battle/state.hpp"

namespace wargym::no_quarter {

// A ValueError of the reference codec (its message); `argument` names what was handed in.
class CodecError : public ArgumentError {
public:
    using ArgumentError::ArgumentError;
};

// The blocks of the layout, in ActionCodec.sizes order (the glue checks the names).
enum class Block : std::uint8_t {
    wait, activate, skip, choose, fire_first, stay, move, jump, reverse, charge, assign_fire,
    fire_building, end_fire, free_move, free_will, declare_melee, fight, attack_building, exit,
    objective, face, lead, lead_done, split, keep_groups, lucky, marksman
};
inline constexpr std::size_t kBlocks = 27;
inline constexpr std::array<std::string_view, kBlocks> kBlockNames{
    "wait", "activate", "skip", "choose", "fire_first", "stay", "move", "jump", "reverse",
    "charge", "assign_fire", "fire_building", "end_fire", "free_move", "free_will",
    "declare_melee", "fight", "attack_building", "exit", "objective", "face", "lead",
    "lead_done", "split", "keep_groups", "lucky", "marksman"};

// free_reach()'s distances for the battles of one RulesOptions.
struct RulesReach {
    RulesOptions rules;
    std::vector<double> reach;  // FREE_REACHES distances, in slot order
};

// Everything ActionCodec reads from its constructor arguments and its module's constants.
struct CodecTables {
    std::int64_t max_mechs = 0, max_weapons = 0, max_buildings = 0;
    std::int64_t directions = 0;           // battle_options.move_directions
    std::vector<double> fractions;         // battle_options.move_fractions
    bool mirror = true;
    std::array<std::int64_t, kBlocks> sizes{};    // ActionCodec.sizes
    std::array<std::int64_t, kBlocks> offsets{};  // ActionCodec.offsets (set by ActionCodec)
    std::int64_t n = 0;
    std::int64_t headings = 0;             // HEADINGS
    std::int64_t free_directions = 0;      // FREE_DIRECTIONS
    std::int64_t free_reaches = 0;         // FREE_REACHES
    std::vector<std::int64_t> free_will;   // FREE_WILL
    std::vector<std::pair<MeleeAttack, Location>> limbs;  // LIMBS
    std::vector<std::string> edges;        // EDGES (viewer frame)
    std::vector<std::string> objectives;   // OBJECTIVES
    std::vector<bool> lucky_choices;       // LUCKY_CHOICES
    std::vector<Location> location_slots;  // LOCATION_SLOTS
    std::vector<std::int64_t> twists;      // TWISTS (perception.py)
    double reverse_fraction = 0.0;         // REVERSE_FRACTION (§15.2.2)
    double tol = 0.0;                      // _TOL
    std::vector<RulesReach> reach;         // free_reach() per RulesOptions met so far
};

// codec.Slots: the viewer-relative numbering of one battle's mechs and buildings.
struct Slots {
    Side viewer{};
    std::vector<std::int64_t> own, enemy, buildings;
    double turn = 0.0;  // degrees added to absolute directions (180 for mirrored red)
};

// codec.battle_slots
Slots battle_slots(const Battle& battle, Side viewer, bool mirror = true);
// codec.ranged_weapons_of: item indices of the design's ranged weapons (ItemType.is_ranged_weapon).
std::vector<std::int64_t> ranged_weapons(const MechDesign& design);
// RulesOptions equality (the dataclass's ==).
bool same_rules(const RulesOptions& a, const RulesOptions& b);

// codec.ActionCodec. `slots` (optional everywhere): the numbering of a custom slot function;
// none: battle_slots(battle, decision side, mirror).
class ActionCodec {
public:
    // Checks the tables (sizes non-negative, counts positive, lists of the right lengths) and
    // sets the offsets; a bad table throws ArgumentError naming "codec.<field>".
    explicit ActionCodec(CodecTables tables);
    const CodecTables& tables() const { return t_; }
    CodecTables& tables() { return t_; }
    std::int64_t n() const { return t_.n; }

    // ActionCodec.slots (viewer none: the deciding side; "no decision is pending" otherwise).
    Slots slots(const Battle& battle, std::optional<Side> viewer = std::nullopt) const;
    // ActionCodec.encode
    std::int64_t encode(const Action& action, const Battle& battle, const Slots* slots = nullptr) const;
    // ActionCodec.decode: the legal action of `index` if the table has it, else _nominal.
    Action decode(std::int64_t index, const Battle& battle, std::span<const Action> legal,
                  const Slots* slots = nullptr) const;
    // ActionCodec.table: (index, position in `legal`) in insertion order, and the clashes
    // (collisions()): legal actions left out (no slot, or an index taken by an earlier one).
    struct Table {
        std::vector<std::pair<std::int64_t, std::size_t>> entries;
        std::int64_t clashes = 0;
    };
    Table table(const Battle& battle, std::span<const Action> legal, const Slots* slots = nullptr) const;
    // ActionCodec.mask into `out` (n() bytes): 1 at the table's indices, all 0 when nobody decides.
    void mask(const Battle& battle, std::span<const Action> legal, std::span<std::int8_t> out,
              const Slots* slots = nullptr) const;
    // ActionCodec.block_of
    std::pair<Block, std::int64_t> block_of(std::int64_t index) const;
    // ActionCodec._nominal: the action an index names now, legal or not.
    Action nominal(std::int64_t index, const Battle& battle, const Slots* slots = nullptr) const;
    // codec.free_reach: the distances handed in for the battle's RulesOptions (none: not handed
    // in yet; the bindings then ask the glue and add them).
    const std::vector<double>* free_reach(const Battle& battle) const;
    // ActionCodec._dir_slot and _angle
    std::int64_t dir_slot(double angle, const Slots& slots, std::int64_t count) const;
    double angle(std::int64_t k, const Slots& slots, std::int64_t count) const;

private:
    std::int64_t encode_with(const Action& action, const Battle& battle, const Decision& decision,
                             const Slots& slots) const;
    std::int64_t encode_move(const Move& action, const Battle& battle, const Mech& mech,
                             const Slots& slots) const;
    Move nominal_move(Block block, std::int64_t k, const Battle& battle, const Mech& mech,
                      const Slots& slots) const;
    const std::vector<double>& reach_of(const Battle& battle) const;
    std::int64_t off(Block b) const { return t_.offsets[static_cast<std::size_t>(b)]; }
    CodecTables t_;
};

}  // namespace wargym::no_quarter
