// Python's float builtins (pyfloat.hpp).
#include "pyfloat.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace wargym::no_quarter {

namespace {
bool g_compensated_sum = false;
}

double pyround(double x, int ndigits) {
    if (!std::isfinite(x) || ndigits < 0) return x;  // ndigits < 0: never asked by the rules
    if (ndigits <= 15) {
        double scale = 1.0;
        for (int i = 0; i < ndigits; ++i) scale *= 10.0;
        const double y = x * scale;
        // y is x * 10^n within half an ulp (|y| 2^-53): further than twice that from a half,
        // the nearest integer of y is the exact value's, and r / 10^n is the double nearest
        // that decimal, as CPython's round (correctly rounded decimal, then strtod) gives.
        const double ay = std::fabs(y);
        if (ay < 4503599627370496.0) {  // 2^52: ay - floor(ay) is exact
            const double frac = ay - std::floor(ay);
            if (std::fabs(frac - 0.5) > ay * 0x1p-52) return std::nearbyint(y) / scale;
        }
    }
    // Near a half, or many digits: the correctly rounded decimal (glibc and CPython both round
    // the exact binary value half to even), read back.
    const int size = std::snprintf(nullptr, 0, "%.*f", ndigits, x);
    std::string text(static_cast<std::size_t>(size) + 1, '\0');
    std::snprintf(text.data(), text.size(), "%.*f", ndigits, x);
    return std::strtod(text.c_str(), nullptr);
}

double pymod(double x, double m) {  // CPython float_rem
    double mod = std::fmod(x, m);
    if (mod != 0.0) {
        if ((m < 0.0) != (mod < 0.0)) mod += m;
    } else {
        mod = std::copysign(0.0, m);
    }
    return mod;
}

void set_compensated_sum(bool on) { g_compensated_sum = on; }

double pysum(std::span<const double> values) {
    if (values.empty()) return 0.0;
    double total = 0.0 + values[0];  // int 0 + the first float
    if (!g_compensated_sum) {
        for (std::size_t i = 1; i < values.size(); ++i) total += values[i];
        return total;
    }
    double c = 0.0;  // CPython 3.12+: Neumaier's compensated sum
    for (std::size_t i = 1; i < values.size(); ++i) {
        const double x = values[i];
        const double t = total + x;
        if (std::fabs(total) >= std::fabs(x)) {
            c += (total - t) + x;
        } else {
            c += (x - t) + total;
        }
        total = t;
    }
    if (c != 0.0 && std::isfinite(c)) total += c;
    return total;
}

}  // namespace wargym::no_quarter
