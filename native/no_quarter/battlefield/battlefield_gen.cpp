// Mirror of rules/no_quarter/battlefield/battlefield_gen.py (see battlefield_gen.hpp).
#include "battlefield_gen.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "../../errors.hpp"

namespace wargym::no_quarter {

namespace {

// battlefield_gen.py's own literals (the scatter's shape, not the book's tables).
constexpr std::array<Terrain, 5> kGenKinds{Terrain::building, Terrain::woods, Terrain::hill,
                                           Terrain::rough, Terrain::building};  // _KINDS
constexpr std::array<Terrain, 3> kGenStrips{Terrain::road, Terrain::river,
                                            Terrain::deep_water};  // _STRIPS
constexpr std::int64_t kGenMinFeatures = 6;    // rng.integers(6, 11)
constexpr std::int64_t kGenMaxFeatures = 11;
constexpr double kGenStripChance = 0.4;        // rng.random() < 0.4
constexpr int kGenTries = 40;                  // for _ in range(40)
constexpr double kGenDeployStrip = 6.0;        // min(6.0, height / 4.0)
constexpr std::int64_t kDeployTriesPerBase = 200;  // deployment_points: 200 * max(n, 1)

// Feature.__post_init__'s default crest of a hill: the long centre line.
std::pair<Point, Point> default_crest(const Feature& f) {
    if (f.x1 - f.x0 >= f.y1 - f.y0) {
        const double ym = (f.y0 + f.y1) / 2.0;
        return {Point{f.x0, ym}, Point{f.x1, ym}};
    }
    const double xm = (f.x0 + f.x1) / 2.0;
    return {Point{xm, f.y0}, Point{xm, f.y1}};
}

// Feature(kind, x0, y0, x1, y1, armor): the reference's constructor; its checks cannot fail
// for the values the generator makes except x0 < x1 / y0 < y1, mirrored here.
Feature make_feature(Terrain kind, double x0, double y0, double x1, double y1,
                     std::int64_t armor = 0) {
    if (!(x0 < x1)) throw StateError("feature.x1", "must exceed x0");
    if (!(y0 < y1)) throw StateError("feature.y1", "must exceed y0");
    Feature f{kind, x0, y0, x1, y1, armor, std::nullopt, false};
    if (kind == Terrain::hill) f.crest = default_crest(f);
    return f;
}

// _random_feature(rng, kind, width, height, strip, cfg, armors).
std::optional<Feature> random_feature(NumpyGenerator& rng, Terrain kind, double width,
                                      double height, double strip, const TerrainGenTables& cfg) {
    auto r = [&rng](double lo, double hi) { return pyround(rng.uniform(lo, hi), 1); };
    const double band_lo = strip;
    const double band_hi = height - strip;
    if (kind == Terrain::road) {
        const double x = r(4.0, width - 4.0 - cfg.road_width);
        return make_feature(kind, x, 0.0, x + cfg.road_width, height);
    }
    if (kind == Terrain::river) {
        const double w = r(1.5, 3.0);
        const double y = r(band_lo + 4.0, std::max(band_lo + 4.0, band_hi - 4.0 - w));
        return make_feature(kind, 0.0, y, width, std::min(y + w, band_hi));
    }
    double w = 0.0;
    double h = 0.0;
    if (kind == Terrain::building) {
        w = r(2.0, cfg.building_max_w);
        h = r(2.0, cfg.building_max_h);
    } else if (kind == Terrain::hill) {
        w = r(6.0, 12.0);
        h = r(3.0, 6.0);
        if (rng.random() < 0.5) std::swap(w, h);
    } else if (kind == Terrain::deep_water) {
        w = r(6.0, 9.0);
        h = r(6.0, 9.0);
    } else {
        w = r(3.0, 9.0);
        h = r(3.0, 8.0);
    }
    if (w >= width || h >= band_hi - band_lo) return std::nullopt;
    const double x = r(0.0, width - w);
    const double y = r(band_lo, band_hi - h);
    std::int64_t armor = 0;
    if (kind == Terrain::building) {
        const auto count = static_cast<std::int64_t>(cfg.building_armors.size());
        armor = cfg.building_armors[static_cast<std::size_t>(rng.integers(0, count))];
    }
    return make_feature(kind, x, y, std::min(x + w, width), std::min(y + h, band_hi), armor);
}

// _fits(new, placed): buildings keep 1" from everything, lakes overlap nothing.
bool fits(const Feature& nu, const std::vector<Feature>& placed) {
    for (const Feature& old : placed) {
        const bool building = nu.kind == Terrain::building || old.kind == Terrain::building;
        const double gap = building ? 1.0 : 0.0;
        const bool deep = nu.kind == Terrain::deep_water || old.kind == Terrain::deep_water;
        if (nu.kind != old.kind && gap == 0.0 && !deep) continue;
        if (nu.x0 < old.x1 + gap && old.x0 < nu.x1 + gap && nu.y0 < old.y1 + gap &&
            old.y0 < nu.y1 + gap) {
            return false;
        }
    }
    return true;
}

// numpy.arange(start, stop, step) for floats (ctors.c _calc_length, arraytypes DOUBLE_fill),
// computed on demand: value i is start, start + step, then start + i * ((start + step) - start).
struct Arange {
    double start = 0.0;
    double second = 0.0;
    double delta = 0.0;
    std::int64_t size = 0;

    Arange(double from, double stop, double step) : start(from) {
        const double next = stop - from;
        const double value = next / step;
        if (value == 0.0 && next != 0.0) {
            size = std::signbit(value) ? 0 : 1;
        } else {
            if (std::isnan(value)) throw ArgumentError("base_radius", "arange length is NaN");
            const double c = std::ceil(value);
            if (c > 1e9) throw ArgumentError("base_radius", "too many deployment steps");
            size = static_cast<std::int64_t>(c);
        }
        second = from + step;
        delta = second - from;
    }
    double operator[](std::int64_t i) const {
        if (i == 0) return start;
        if (i == 1) return second;
        return start + static_cast<double>(i) * delta;
    }
};

// repr(v) of a Python float for messages: the shortest text that reads back as v, with ".0"
// on whole numbers.
std::string py_float_text(double v) {
    char buf[64];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    std::string out = buf;
    if (std::isfinite(v) && out.find_first_of(".e") == std::string::npos) out += ".0";
    return out;
}

}  // namespace

Battlefield generate_battlefield(NumpyGenerator& rng, const TerrainGenTables& cfg, double width,
                                 double height, std::optional<std::int64_t> n_features,
                                 bool night, bool inclement_weather) {
    const std::int64_t n =
        n_features ? *n_features : rng.integers(kGenMinFeatures, kGenMaxFeatures);
    if (n < 0) throw StateError("n_features", std::to_string(n) + " is negative");
    const double strip = std::min(kGenDeployStrip, height / 4.0);
    std::vector<Terrain> extras;
    for (Terrain k : kGenStrips) {
        if (rng.random() < kGenStripChance) extras.push_back(k);
    }
    const auto kept = static_cast<std::size_t>(std::min<std::int64_t>(n, static_cast<std::int64_t>(extras.size())));
    std::vector<Terrain> kinds(extras.begin(), extras.begin() + static_cast<std::ptrdiff_t>(kept));
    for (std::int64_t i = 0; i < n - static_cast<std::int64_t>(kept); ++i) {
        kinds.push_back(kGenKinds[static_cast<std::size_t>(
            rng.integers(0, static_cast<std::int64_t>(kGenKinds.size())))]);
    }
    Battlefield bf;
    bf.width = width;
    bf.height = height;
    bf.night = night;
    bf.inclement_weather = inclement_weather;
    for (Terrain kind : kinds) {
        for (int t = 0; t < kGenTries; ++t) {
            std::optional<Feature> f = random_feature(rng, kind, width, height, strip, cfg);
            if (f && fits(*f, bf.features)) {
                bf.features.push_back(*f);
                break;
            }
        }
    }
    return bf;
}

std::vector<Point> deployment_points(const Battlefield& bf, const TerrainGenTables& cfg,
                                     const std::string& edge, std::int64_t n,
                                     NumpyGenerator& rng, double radius, double depth) {
    const bool south = edge == "south";
    const bool north = edge == "north";
    const bool west = edge == "west";
    if (!(south || north || west || edge == "east")) {
        throw ArgumentError("edge", "'" + edge + "' is not one of north, south, east, west");
    }
    const double lo = radius;
    const double hi = std::max(radius, depth);
    std::vector<Point> points;
    // Battlefield.index: buildings and the deep-water cores (the shore band inside each lake).
    const double band = cfg.deep_water_shore_band;
    std::vector<std::array<double, 4>> deep_core;
    std::vector<const Feature*> buildings;
    for (const Feature& f : bf.features) {
        if (f.kind == Terrain::building) buildings.push_back(&f);
        if (f.kind == Terrain::deep_water && f.x1 - f.x0 > 2 * band && f.y1 - f.y0 > 2 * band) {
            deep_core.push_back({f.x0 + band, f.y0 + band, f.x1 - band, f.y1 - band});
        }
    }
    auto legal = [&](Point p) {
        const bool on_table = radius - 1e-9 <= p.x && p.x <= bf.width - radius + 1e-9 &&
                              radius - 1e-9 <= p.y && p.y <= bf.height - radius + 1e-9;
        if (!on_table) return false;
        for (const auto& c : deep_core) {
            if (c[0] < p.x && p.x < c[2] && c[1] < p.y && p.y < c[3]) return false;
        }
        for (const Feature* b : buildings) {
            if (point_rect_distance(p, b->x0, b->y0, b->x1, b->y1) < radius) return false;
        }
        for (const Point& q : points) {
            if (!(pyhypot(p.x - q.x, p.y - q.y) >= 2 * radius)) return false;
        }
        return true;
    };
    auto place = [&](double a, double b) {
        if (south) return Point{a, b};
        if (north) return Point{a, bf.height - b};
        if (west) return Point{b, a};
        return Point{bf.width - b, a};
    };
    const double along = (north || south) ? bf.width : bf.height;
    const std::int64_t tries = kDeployTriesPerBase * std::max<std::int64_t>(n, 1);
    for (std::int64_t t = 0; t < tries; ++t) {
        if (static_cast<std::int64_t>(points.size()) >= n) break;
        const double a = pyround(rng.uniform(radius, along - radius), 2);
        const double b = pyround(rng.uniform(lo, hi), 2);
        const Point p = place(a, b);
        if (legal(p)) points.push_back(p);
    }
    const Arange steps(radius, along - radius + 1e-9, 2 * radius);
    const Arange rows(lo, hi + 1e-9, 2 * radius);
    for (std::int64_t j = 0; j < rows.size; ++j) {
        for (std::int64_t i = 0; i < steps.size; ++i) {
            if (static_cast<std::int64_t>(points.size()) >= n) return points;
            const Point p = place(steps[i], rows[j]);
            if (legal(p)) points.push_back(p);
        }
    }
    if (static_cast<std::int64_t>(points.size()) < n) {
        throw StateError("deployment", "only " + std::to_string(points.size()) + " of " +
                                           std::to_string(n) + " bases fit within " +
                                           py_float_text(depth) + " of the " + edge + " edge");
    }
    return points;
}

}  // namespace wargym::no_quarter
