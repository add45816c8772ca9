// Mirror of sections.edge_segments, exit_point and exits_through (rules/no_quarter/battlefield/sections.py).
#include "sections.hpp"

#include <cmath>
#include <string>

#include "../../errors.hpp"
#include "../sight_movement/pyfloat.hpp"

namespace wargym::no_quarter {

namespace {

constexpr double kSectionEps = 1e-9;  // sections._EPS (a float tolerance)

void check_sections_table(double width, double height) {
    if (!(width > 0) || !(height > 0)) {
        throw StateError("table", "table: width and height must be positive");
    }
}

void check_edge_name(std::string_view edge) {
    if (edge != "north" && edge != "south" && edge != "east" && edge != "west") {
        throw StateError("edge", "edge: '" + std::string(edge) + "' is not north, south, east or west");
    }
}

}  // namespace

std::vector<EdgeSegment> edge_segments(std::span<const std::int64_t> sections, double width, double height) {
    std::vector<EdgeSegment> out;
    for (const std::int64_t number : sections) {
        check_sections_table(width, height);  // section_rect
        if (number < 1 || number > 9) {
            throw StateError("section", "section: " + std::to_string(number) + " is not a section number 1-9");
        }
        const std::int64_t index = number - 1;
        const std::int64_t row_from_north = index / 3;
        const std::int64_t col = index % 3;
        const std::int64_t row_from_south = 2 - row_from_north;
        const double x0 = static_cast<double>(col) * width / 3.0;
        const double x1 = static_cast<double>(col + 1) * width / 3.0;
        const double y0 = static_cast<double>(row_from_south) * height / 3.0;
        const double y1 = static_cast<double>(row_from_south + 1) * height / 3.0;
        if (row_from_north == 0) out.push_back({"north", x0, x1});
        if (row_from_north == 2) out.push_back({"south", x0, x1});
        if (col == 0) out.push_back({"west", y0, y1});
        if (col == 2) out.push_back({"east", y0, y1});
    }
    return out;
}

Point exit_point(Point p, std::string_view edge, std::span<const std::int64_t> sections, double width,
                 double height, double margin) {
    check_edge_name(edge);
    double along = (edge == "north" || edge == "south") ? p.x : p.y;
    std::vector<EdgeSegment> segs;
    for (const EdgeSegment& s : edge_segments(sections, width, height)) {
        if (s.edge == edge) segs.push_back(s);
    }
    if (!segs.empty()) {
        const EdgeSegment* lo = nullptr;
        double best = 0.0;
        for (const EdgeSegment& s : segs) {
            const double gap = std::fabs(pymin(pymax(along, s.start), s.end) - along);
            if (lo == nullptr || gap < best) {
                lo = &s;
                best = gap;
            }
        }
        along = pymin(pymax(along, lo->start + margin), lo->end - margin);
    }
    if (edge == "north") return {along, height - margin};
    if (edge == "south") return {along, margin};
    if (edge == "east") return {width - margin, along};
    return {margin, along};
}

bool exits_through(Point p, std::string_view edge, std::span<const std::int64_t> sections, double width,
                   double height) {
    const double along = (edge == "north" || edge == "south") ? p.x : p.y;
    check_edge_name(edge);
    for (const EdgeSegment& s : edge_segments(sections, width, height)) {
        if (s.edge == edge && s.start - kSectionEps <= along && along <= s.end + kSectionEps) return true;
    }
    return false;
}

}  // namespace wargym::no_quarter
