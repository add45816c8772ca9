// Mirror of rules/no_quarter/battlefield/roads.py (movement cost along a segment, roads and
// bridges, §19.8, §19.7 rulings, ruling D5) and of the Battlefield point tests it uses.
#include "roads.hpp"

#include <algorithm>
#include <limits>

#include "../sight_movement/pyfloat.hpp"

namespace wargym::no_quarter {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTiny = 1e-9;  // roads._TINY

// roads._road_spans, into spans
void road_spans(const MoveTerrain& t, Point a, Point b, double length,
                std::vector<std::pair<double, double>>& spans) {
    spans.clear();
    for (const Rect& r : t.roads) {
        const auto span = clip_segment_to_rect(a, b, r.x0, r.y0, r.x1, r.y1);
        if (span && (span->second - span->first) * length > kTiny) spans.push_back(*span);
    }
}

// roads._covers
bool covers(const std::vector<std::pair<double, double>>& spans, double length) {
    thread_local std::vector<std::pair<double, double>> sorted;
    sorted.assign(spans.begin(), spans.end());
    std::sort(sorted.begin(), sorted.end());
    double covered = 0.0;
    for (const auto& [t0, t1] : sorted) {
        if ((t0 - covered) * length > 1e-6) return false;
        covered = pymax(covered, t1);
    }
    return (1.0 - covered) * length <= 1e-6;
}

struct Pen {
    double t0, t1, rate;
    bool wet;
};


}  // namespace

// Battlefield.is_on_table
bool is_on_table(const MoveTerrain& t, Point p, double margin) {
    return margin - 1e-9 <= p.x && p.x <= t.width - margin + 1e-9 && margin - 1e-9 <= p.y &&
           p.y <= t.height - margin + 1e-9;
}

// Battlefield.in_deep_water
bool in_deep_water(const MoveTerrain& t, Point p) {
    for (const Rect& c : t.deep_core) {
        if (c.x0 < p.x && p.x < c.x1 && c.y0 < p.y && p.y < c.y1) return true;
    }
    return false;
}

// Battlefield.on_road
bool on_road(const MoveTerrain& t, Point p) {
    for (const Rect& r : t.roads) {
        if (r.x0 <= p.x && p.x <= r.x1 && r.y0 <= p.y && p.y <= r.y1) return true;
    }
    return false;
}

// roads.segment_on_road
bool segment_on_road(const MoveTerrain& t, Point a, Point b) {
    const double length = distance(a, b);
    if (length <= 0.0) return on_road(t, a);
    thread_local std::vector<std::pair<double, double>> spans;
    road_spans(t, a, b, length, spans);
    return covers(spans, length);
}

// roads.path_on_road
bool path_on_road(const MoveTerrain& t, std::span<const Point> path,
                  std::optional<std::int64_t> jump_segment) {
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        if (jump_segment && static_cast<std::int64_t>(i) == *jump_segment) continue;
        if (!segment_on_road(t, path[i], path[i + 1])) return false;
    }
    return true;
}

// roads.profile
std::vector<Span> profile(const MoveTerrain& t, Point a, Point b, std::optional<bool> on_road) {
    if (t.half_speed.empty()) return {{0.0, 1.0, 1.0}};
    const double length = distance(a, b);
    const double lox = pymin(a.x, b.x), hix = pymax(a.x, b.x);
    const double loy = pymin(a.y, b.y), hiy = pymax(a.y, b.y);
    thread_local std::vector<Pen> pens;  // scratch (no allocation once grown)
    pens.clear();
    for (const HalfSpeed& h : t.half_speed) {
        const Rect& r = h.rect;
        if (r.x1 < lox || r.x0 > hix || r.y1 < loy || r.y0 > hiy) continue;
        const auto span = clip_segment_to_rect(a, b, r.x0, r.y0, r.x1, r.y1);
        if (span && (span->second - span->first) * length > kTiny) {
            pens.push_back({span->first, span->second, h.rate, h.wet});
        }
    }
    if (pens.empty()) return {{0.0, 1.0, 1.0}};
    for (const Rect& c : t.deep_core) {
        const auto span = clip_segment_to_rect(a, b, c.x0, c.y0, c.x1, c.y1);
        if (span && (span->second - span->first) * length > kTiny) {
            pens.push_back({span->first, span->second, kInf, true});
        }
    }
    thread_local std::vector<std::pair<double, double>> roads;
    road_spans(t, a, b, length, roads);
    const bool speed = on_road ? *on_road : (t.tables.road_per_inch || covers(roads, length));
    // sorted({0.0, 1.0, *t0s, *t1s} | road ends): the set keeps the +0.0 it starts with
    thread_local std::vector<double> cuts;
    cuts.assign({0.0, 1.0});
    for (const Pen& p : pens) cuts.push_back(p.t0);
    for (const Pen& p : pens) cuts.push_back(p.t1);
    for (const auto& [r0, r1] : roads) {
        cuts.push_back(r0);
        cuts.push_back(r1);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (double& c : cuts) {
        if (c == 0.0) c = 0.0;
    }
    std::vector<Span> out;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
        const double p = cuts[i], q = cuts[i + 1];
        if (q - p <= 0.0) continue;
        const double m = (p + q) / 2.0;
        bool under_road = false;
        for (const auto& [r0, r1] : roads) {
            if (r0 <= m && m <= r1) {
                under_road = true;
                break;
            }
        }
        double rate = 1.0;
        for (const Pen& pen : pens) {
            const bool lifted = under_road && (pen.wet || speed);  // a bridge always; land on a road move
            if (pen.t0 <= m && m <= pen.t1 && pen.rate > rate && !lifted) rate = pen.rate;
        }
        if (!out.empty() && out.back().rate == rate) {
            out.back().t1 = q;
        } else {
            out.push_back({p, q, rate});
        }
    }
    return out;
}


}  // namespace wargym::no_quarter
