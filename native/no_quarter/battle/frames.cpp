// The typed frames (frames.hpp): key names, schemas, the reference's frame constructors, the
// copy-on-write stack.
#include "../../errors.hpp"
#include "frames.hpp"

#include <string>

namespace wargym::no_quarter {

const std::array<const char*, kFrameKeys> kFrameKeyNames{
#define WARGYM_KEY_NAME(k) #k,
    WARGYM_FRAME_KEYS(WARGYM_KEY_NAME)
#undef WARGYM_KEY_NAME
};

namespace {

constexpr KeySet keys(std::initializer_list<FrameKey> ks) {
    KeySet s = 0;
    for (FrameKey k : ks) s |= key_bit(k);
    return s;
}

using K = FrameKey;

}  // namespace

// validity_parts._frame_kinds: (required, optional) of each kind, "kind" added to required.
const std::array<FrameSchema, kFrameKinds> kFrameSchemas{{
    {keys({K::kind}), keys({K::stage})},  // turn
    {keys({K::kind, K::side, K::stage}), keys({K::groups, K::done, K::pefs, K::leaders, K::asking})},  // phase
    {keys({K::kind, K::side, K::members, K::acted}), 0},  // group
    {keys({K::kind, K::mech, K::stage, K::spent, K::moved, K::fired}), keys({K::start, K::turn})},  // mech
    {keys({K::kind, K::side, K::mover, K::group, K::enemy_groups, K::stage, K::free, K::winners,
           K::opponents, K::deferred}),
     keys({K::next, K::charging, K::charge_options, K::charge_rolls, K::charges})},  // insight
    {keys({K::kind, K::shooter, K::mode, K::targets, K::cause, K::rush, K::assigned, K::twist}),
     keys({K::rush_at})},  // fire
    {keys({K::kind, K::entries}), keys({K::free_will, K::asking})},  // react
    {keys({K::kind, K::charger, K::target, K::stage}), keys({K::allowance, K::start, K::jump, K::spent})},  // charge
    {keys({K::kind, K::attacker, K::defender, K::jump, K::decl, K::stage, K::ties}), 0},  // melee
    {keys({K::kind, K::entries, K::fired}), keys({K::picked})},  // charges
    {keys({K::kind}), 0},  // objective
    {keys({K::kind, K::order}), 0},  // pefs
    {keys({K::kind, K::unit, K::action, K::rolls, K::answers, K::stage, K::mech, K::what, K::faces,
           K::target, K::choices}),
     keys({K::passed, K::shielded_hit, K::lost, K::shielded})},  // pause
}};

namespace {

template <class T>
Frame make(T body, std::initializer_list<FrameKey> order) {
    Frame f{{}, std::move(body)};
    for (FrameKey k : order) f.keys.set(k);
    return f;
}

}  // namespace

Frame turn_frame() { return make(TurnFrame{}, {K::kind}); }

Frame phase_frame(Side side) {
    PhaseFrame p;
    p.side = side;
    p.stage = PhaseStage::start;
    return make(std::move(p), {K::kind, K::side, K::stage});
}

Frame group_frame(Side side, Ids members) {
    GroupFrame g;
    g.side = side;
    g.members = std::move(members);
    return make(std::move(g), {K::kind, K::side, K::members, K::acted});
}

Frame mech_frame(std::int64_t mech) {
    MechFrame m;
    m.mech = mech;
    m.stage = MechStage::begin;
    m.spent = Num::real(0.0);
    return make(std::move(m), {K::kind, K::mech, K::stage, K::spent, K::moved, K::fired});
}

Frame insight_frame(std::int64_t mover, Side side, Ids enemy_groups) {
    InsightFrame i;
    i.side = side;
    i.mover = mover;
    i.group = mover;
    i.enemy_groups = std::move(enemy_groups);
    i.stage = InsightStage::free;
    return make(std::move(i), {K::kind, K::side, K::mover, K::group, K::enemy_groups, K::stage, K::free,
                               K::winners, K::opponents, K::deferred});
}

Frame fire_frame(std::int64_t shooter, FireMode mode, std::optional<Ids> targets,
                 std::optional<std::int64_t> cause, bool rush) {
    FireFrame f;
    f.shooter = shooter;
    f.mode = mode;
    f.targets = std::move(targets);
    f.cause = cause;
    f.rush = rush;
    return make(std::move(f), {K::kind, K::shooter, K::mode, K::targets, K::cause, K::rush, K::assigned, K::twist});
}

Frame charge_frame(std::int64_t charger, std::int64_t target, std::optional<double> allowance,
                   std::optional<std::array<double, 2>> start) {
    ChargeFrame c;
    c.charger = charger;
    c.target = target;
    c.stage = ChargeStage::declare;
    Frame f = make(std::move(c), {K::kind, K::charger, K::target, K::stage});
    if (allowance) {
        f.as<ChargeFrame>().allowance = Num::real(*allowance);
        f.keys.set(K::allowance);
    }
    if (start) {
        f.as<ChargeFrame>().start = {Num::real((*start)[0]), Num::real((*start)[1])};
        f.keys.set(K::start);
    }
    return f;
}

Frame melee_frame(std::int64_t attacker, std::int64_t defender, bool jump_attack) {
    MeleeFrame m;
    m.attacker = attacker;
    m.defender = defender;
    m.jump = jump_attack;
    m.stage = MeleeStage::declare;
    return make(std::move(m), {K::kind, K::attacker, K::defender, K::jump, K::decl, K::stage, K::ties});
}

Frame react_frame(std::vector<ReactEntry> entries) {
    ReactFrame r;
    r.entries = std::move(entries);
    return make(std::move(r), {K::kind, K::entries});
}

ReactEntry react_entry(std::int64_t mech, ReactionTest test, Ids causes) {
    ReactEntry e;
    e.mech = mech;
    e.test = test;
    e.causes = std::move(causes);
    for (FrameKey k : {K::mech, K::test, K::causes}) e.keys.set(k);
    return e;
}

// -- the stack ---------------------------------------------------------------------------------
void FrameStack::throw_empty() {
    throw StateError("battle.frames", "the frame stack is empty (no procedure to answer)");
}

FrameRef FrameStack::ref(std::size_t i) const {
    if (i >= size()) throw_empty();
    return FrameRef{static_cast<std::uint32_t>(i), (*stack_)[i].serial};
}

FrameRef FrameStack::top_ref() const { return ref(size() - 1); }

std::vector<FrameStack::Slot>& FrameStack::own() {
    if (!stack_) {
        stack_ = std::make_shared<std::vector<Slot>>();
    } else if (stack_.use_count() > 1) {
        stack_ = std::make_shared<std::vector<Slot>>(*stack_);  // the frames stay shared
    }
    return *stack_;
}

Frame& FrameStack::edit(std::size_t i) {
    Slot& slot = own()[i];
    if (slot.frame.use_count() > 1) slot.frame = std::make_shared<Frame>(*slot.frame);
    return *slot.frame;
}

FrameRef FrameStack::push(Frame f) {
    own().push_back(Slot{std::make_shared<Frame>(std::move(f)), next_serial_++});
    return top_ref();
}

Frame FrameStack::pop_top() {
    if (empty()) throw_empty();
    std::vector<Slot>& frames = own();
    Slot slot = std::move(frames.back());
    frames.pop_back();
    if (slot.frame.use_count() > 1) return *slot.frame;
    return std::move(*slot.frame);
}

bool FrameStack::operator==(const FrameStack& o) const {
    if (size() != o.size()) return false;
    for (std::size_t i = 0; i < size(); ++i) {
        if (!((*this)[i] == o[i])) return false;
    }
    return true;
}

}  // namespace wargym::no_quarter
