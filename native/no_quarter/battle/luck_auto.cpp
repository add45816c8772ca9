// luck.py's choice points outside a guard (luck.hpp): the automatic answers.
#include <algorithm>

#include "luck.hpp"
#include "ranged_combat.hpp"
#include "../forces/data.hpp"

namespace wargym::no_quarter {

namespace {

bool has_attribute(const Mech& mech, Attribute a) {
    const auto& attributes = mech.record->pilot.attributes;
    return std::find(attributes.begin(), attributes.end(), a) != attributes.end();
}

// luck._answer: None outside a guard (the automatic answer); the guard is not ported.
void answer_outside_guard(const Ctx& ctx) {
    if (ctx.guarded) throw NotPorted("not ported to the native core yet: luck._answer under a guard");
}

}  // namespace

// luck.offer_lucky
std::vector<int> offer_lucky(Ctx& ctx, const Mech& mech, std::string_view, std::span<const int> faces,
                             bool wanted, std::optional<std::int64_t>, const LuckyInfo&) {
    std::vector<int> out(faces.begin(), faces.end());
    if (!wanted || faces.empty() || ctx.battle.options->lucky != Lucky::choose || mech.lucky_used ||
        !has_attribute(mech, Attribute::lucky)) {
        return out;
    }
    answer_outside_guard(ctx);
    return out;  // no answer: the faces are kept
}

// luck.marksman_pick
Location marksman_pick(Ctx& ctx, const Mech&, const Mech&, Location first, Location second,
                       std::span<const Location>) {
    const Location automatic = better_location(ctx.rules->combat, first, second);
    if (first == second || ctx.battle.options->marksman != Marksman::choose) return automatic;
    answer_outside_guard(ctx);
    return automatic;
}

}  // namespace wargym::no_quarter
