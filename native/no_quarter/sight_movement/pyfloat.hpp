// Python's float builtins as CPython computes them, for the same doubles in the mirrors:
// round(x, n), x % m, min(a, b), max(a, b) and sum() of floats.
#pragma once

#include <span>

namespace wargym::no_quarter {

double pyround(double x, int ndigits);
double pymod(double x, double m);
inline double pymin(double a, double b) { return b < a ? b : a; }
inline double pymax(double a, double b) { return b > a ? b : a; }
// sum() of floats as this CPython sums them (plain before 3.12, compensated from 3.12).
double pysum(std::span<const double> values);
void set_compensated_sum(bool on);  // set once by the bindings from the running Python

}  // namespace wargym::no_quarter
