// Mirror of rules/no_quarter/battle/flow.py's roll_index (flow.hpp).
#include "flow.hpp"

#include <string>

#include "../../errors.hpp"

namespace wargym::no_quarter {

RolledIndex roll_index(wargym::Dice& dice, std::int64_t count) {
    if (count <= 0) throw ArgumentError("count", "nothing to choose from");
    if (count > kRollIndexMaxCount) {
        throw ArgumentError("count", "roll_index picks among at most " +
                                         std::to_string(kRollIndexMaxCount) + " items, got " +
                                         std::to_string(count));
    }
    RolledIndex out;
    if (count == 1) return out;
    while (true) {
        if (count <= 6) {
            const int face = dice.roll(1).at(0);
            out.faces.push_back(face);
            if (face <= count) {
                out.index = face - 1;
                return out;
            }
        } else {
            const std::vector<int> two = dice.roll(2);
            const int first = two.at(0);
            const int second = two.at(1);
            out.faces.push_back(first);
            out.faces.push_back(second);
            const std::int64_t value = (first - 1) * 6 + (second - 1);
            if (value < count * (36 / count)) {
                out.index = value % count;
                return out;
            }
        }
    }
}

}  // namespace wargym::no_quarter
