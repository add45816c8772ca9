// Mirror of facing.face_options and facing.face_toward (§6.2, D2, D5); see facing.hpp.
#include "facing.hpp"

#include <tuple>

#include "movement_geometry.hpp"

namespace wargym::no_quarter {

// facing.face_options
std::vector<FaceChoice> face_options(double heading, bool turn, std::span<const double> headings,
                                     std::span<const std::int64_t> twists) {
    std::vector<std::optional<double>> legs{std::nullopt};
    if (turn) {
        for (const double h : headings) {
            if (angle_between(h, heading) > 1) legs.emplace_back(h);
        }
    }
    std::vector<FaceChoice> out;
    for (const auto& h : legs) {
        for (const std::int64_t t : twists) out.push_back({h, t});
    }
    return out;
}

// facing.face_toward (min() keeps the first of equal keys)
std::optional<std::size_t> face_toward(std::span<const FaceChoice> faces, Point pos,
                                       double heading, Point point) {
    if (faces.empty()) return std::nullopt;
    const double want = heading_to(pos, point);
    auto key = [&](const FaceChoice& o) {
        const double legs = o.heading ? *o.heading : heading;
        const double gap =
            pyround(angle_between(pymod(legs + static_cast<double>(o.twist), 360.0), want), 6);
        return std::make_tuple(gap, o.twist != 0, o.heading.has_value());
    };
    std::size_t best = 0;
    auto best_key = key(faces[0]);
    for (std::size_t i = 1; i < faces.size(); ++i) {
        const auto k = key(faces[i]);
        if (k < best_key) {
            best = i;
            best_key = k;
        }
    }
    return best;
}

}  // namespace wargym::no_quarter
