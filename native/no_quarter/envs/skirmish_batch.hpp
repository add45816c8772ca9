// The native backend of envs/no_quarter/batch.py's SkirmishBatch (issue 16, requirement 7):
// num_envs No Quarter skirmishes (solo.py's NoQuarterSkirmishEnv: blue the agent, red the
// env's opponent) stepped by one call into buffers the caller owns, without Python.
//
// Per env (SkirmishBatchEnv): the native Battle, NumpyDice for the battle dice (the env's
// RandomDice(dice_rng)), the opponent's PCG64 stream (opponents.py: "random" draws
// rng.integers(len(options)), "rules" rolls RandomDice(rng)), the enemies-in-sight set of blue
// (encoding.seen_after's rule), the episode's step count, an observation encoder of its own
// (its caches are per battlefield) and the next episode's set-up, prepared ahead by the glue.
//
// The rule tables (RulesTables, forces/data.hpp) come from the glue (native/no_quarter/
// tables.py reads the reference's loaders); the core keeps pointers to them (the bindings keep
// them alive). Tables that carry the terrain numbers (tables.py's with_terrain) are the rules
// of every battlefield: the core builds the battlefield's sight, cover, move and protection
// tables from them for each battle it starts and again when a building falls (refresh_tables,
// terrain_tables.hpp, as Ctx::use_rules does for one call), so no Python runs for them. Tables
// without the numbers are one battlefield's: when a building falls they go stale, the env
// stops before its next use of them with status kBatchNeedsTables, the glue builds new ones
// (set_tables) and resume() goes on from there. Either way every play runs on the tables of
// the battlefield it starts on (as tests/native/lockstep.py does). A start whose battle ends before blue's first decision stops with kBatchNeedsRedraw:
// solo.py draws again from the next streams (MAX_REDRAWS), which the glue spawns.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "../../dice.hpp"
#include "../../numpy_random.hpp"
#include "../battle/events.hpp"
#include "../battle/state.hpp"
#include "../non_player/enemy.hpp"
#include "codec.hpp"
#include "encoding.hpp"

namespace wargym::no_quarter {

struct RulesTables;

// Red's player (opponents.make_opponent's names).
enum class BatchOpponent : std::uint8_t { rules, scripted, random };

// What one call leaves for the glue in the status buffer, per env.
inline constexpr std::int8_t kBatchReady = 0;        // nothing to do
inline constexpr std::int8_t kBatchNeedsTables = 1;  // the battlefield changed: set_tables, resume
inline constexpr std::int8_t kBatchNeedsRedraw = 2;  // the start ended before blue decides: redraw

// The caller's arrays (batch.py's attributes), row-major, one row per env.
struct SkirmishBatchBuffers {
    float* obs = nullptr;             // (N, size)
    std::int8_t* masks = nullptr;     // (N, n_actions), numpy bool
    double* rewards = nullptr;        // (N,)
    std::uint8_t* terminations = nullptr;
    std::uint8_t* truncations = nullptr;
    std::int8_t* deciding_side = nullptr;
    std::int64_t* episode_steps = nullptr;
    float* final_obs = nullptr;
    std::int8_t* final_masks = nullptr;
    std::int8_t* status = nullptr;    // kBatch* per env
    std::uint8_t* started = nullptr;  // the env began a new episode from its prepared set-up
};

// One episode's start before solo.py's advance: the set-up's battle (new_skirmish_setup),
// its tables, the dice's state after the set-up's pilot rolls and the opponent's stream.
struct BatchEpisodeStart {
    Battle battle;
    const RulesTables* tables = nullptr;
    Pcg64State dice;
    Pcg64State opponent;
};

// What batch.py keeps as final_infos[i] (step_info and outcome_info of the last step).
struct BatchFinalInfo {
    bool present = false;
    std::int64_t turn = 0;
    std::optional<DecisionKind> decision;  // None when over
    bool over = false;
    std::optional<Side> winner;
    std::string reason;
};

struct SkirmishBatchEnv {
    enum class Stage : std::uint8_t { idle, advance, red, finish };
    Battle battle;
    const RulesTables* tables = nullptr;
    const Battlefield* tables_for = nullptr;  // the battlefield the tables were built for
    // tables the core built for this battle's battlefield (refresh_tables), when the given
    // ones carry the terrain numbers; `tables` then points here
    std::shared_ptr<const RulesTables> own_tables;
    NumpyDice dice{Pcg64State{}};
    NumpyDice opponent{Pcg64State{}};  // the opponent's rng (random: its integers; rules: dice)
    NpContext np_context;              // "rules": the NP memory of this battle (a fresh one per start)
    std::vector<std::int64_t> seen;    // blue's enemies in sight (core._seen[BLUE])
    // blue's legal actions as the mask listed them (write_rows), kept for the next step's
    // decode: the battle does not change between the two (has_legal false: list them again)
    std::vector<Action> legal;
    bool has_legal = false;
    std::int64_t steps = 0;
    std::unique_ptr<ObservationEncoder> encoder;
    std::optional<BatchEpisodeStart> next;
    BatchFinalInfo final_info;
    // the work under way: the battle before it and the events since (for seen_after)
    Stage stage = Stage::idle;
    bool starting = false;
    Battle before;
    std::vector<events::Event> events;
};

class SkirmishBatchCore {
public:
    // `codec`: a copy of the env's native codec (its free_reach distances already known);
    // `encoder`: the env's encoder config (each env gets an encoder of its own).
    SkirmishBatchCore(std::int64_t num_envs, ActionCodec codec, EncoderConfig encoder,
                      BatchOpponent opponent, std::int64_t max_episode_steps);

    std::int64_t size() const { return static_cast<std::int64_t>(envs_.size()); }
    const SkirmishBatchEnv& env(std::int64_t i) const { return envs_.at(static_cast<std::size_t>(i)); }
    const ActionCodec& codec() const { return codec_; }
    std::int64_t obs_size() const { return size_; }
    void set_buffers(const SkirmishBatchBuffers& buffers) { buf_ = buffers; }
    const SkirmishBatchBuffers& buffers() const { return buf_; }
    bool has_buffers() const { return buf_.obs != nullptr; }

    // SkirmishBatch.reset's start of env i (solo.py reset: advance, red's plays, the first
    // observation); the result lands in status[i] and the buffers' row i.
    void start(std::int64_t i, BatchEpisodeStart episode);
    // The set-up the next auto-reset of env i starts from.
    void prepare(std::int64_t i, BatchEpisodeStart episode) {
        envs_.at(static_cast<std::size_t>(i)).next = std::move(episode);
    }
    // The NP tables (np_tactics.yaml) the "rules" opponent reads; set once, before any start.
    void set_np_tables(const NpTables& tables) {
        np_tables_ = tables;
        has_np_tables_ = true;
    }
    BatchOpponent opponent() const { return opponent_; }
    // New tables for env i's battlefield now (after kBatchNeedsTables).
    void set_tables(std::int64_t i, const RulesTables* tables);
    // SkirmishBatch.step: actions[i] (checked by the caller: legal in masks[i]) for every env.
    void step(std::span<const std::int64_t> actions);
    // Go on with envs that stopped with kBatchNeedsTables.
    void resume(std::span<const std::int64_t> which);

    // The envs that began their prepared set-up during the last call (step, resume, start).
    const std::vector<std::int64_t>& began() const { return began_; }

    // One call at a time (a second thread's call raises instead of racing).
    std::atomic<bool> busy{false};

private:
    void run(std::int64_t i);
    bool stale(const SkirmishBatchEnv& e) const;
    // Tables for e.battle's battlefield built in the core, when e.tables carry the numbers
    // (else nothing: the glue's set_tables); whether e's tables are current now.
    bool refresh_tables(SkirmishBatchEnv& e);
    void write_rows(SkirmishBatchEnv& e, float* obs, std::int8_t* mask);
    Action red_choice(SkirmishBatchEnv& e, const std::vector<Action>& options);
    void update_seen(SkirmishBatchEnv& e);
    void begin(SkirmishBatchEnv& e, BatchEpisodeStart episode);

    std::vector<SkirmishBatchEnv> envs_;
    ActionCodec codec_;
    BatchOpponent opponent_;
    NpTables np_tables_{};
    bool has_np_tables_ = false;
    std::int64_t max_steps_;
    std::int64_t size_ = 0, n_ = 0;
    SkirmishBatchBuffers buf_{};
    std::vector<std::int64_t> began_;
};

// The weapon-reach discs each env's encoder keeps (a cache: its size changes no value). The
// reference's REACH_CACHE_SIZE (512) per env would hold up to ~0.7 MB each in a big batch.
inline constexpr std::int64_t kBatchReachCacheSize = 64;

// opponents.scripted_opponent on a native battle (the enemies in sight from `encoder`).
Action scripted_opponent_choice(const Battle& battle, const std::vector<Action>& options,
                                ObservationEncoder& encoder);

}  // namespace wargym::no_quarter
