// tex/pgfmath.cpp: pgfmath expressions on Boost.Spirit X3, plus dimensions and number printing.
//
// The grammar evaluates while it parses (semantic actions fold each operator as soon as its
// right operand is known), so there is no syntax tree to allocate and no recursion over one.
// Errors are values: a failed sub-expression yields a Val carrying an error index, which
// propagates through every operator; `c ? a : b` and ifthenelse drop the error of the branch
// they do not take. Problems that are wrong whatever the values (unknown function, unknown
// name, unknown unit) are "static" and always reported; syntax errors abort the parse.
#include "tex/pgfmath.hpp"

#include <algorithm>
#include <array>
#include <boost/spirit/home/x3.hpp>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <functional>
#include <limits>
#include <memory_resource>
#include <span>

// An expectation failure names what was expected; for a parser with a semantic action that is
// the parser itself (X3 would print the mangled type name).
namespace boost::spirit::x3 {
template <class Subject, class Action>
struct get_info<action<Subject, Action>> {
  using result_type = std::string;
  std::string operator()(action<Subject, Action> const& p) const { return what(p.subject); }
};
}  // namespace boost::spirit::x3

namespace tikzlint::tex::pgfmath {
namespace {

namespace x3 = boost::spirit::x3;

// TeX's largest dimension is 16383.99998pt; pgf's basic engine computes with dimensions, so
// every value beyond it is "Dimension too large" (pgfmanual, part VIII "Design principles").
constexpr double kMaxDimen = max_magnitude;
constexpr std::size_t kHardNestingCap = 512;  // whatever the budget says, the parser stack stays bounded
constexpr double kPi = 3.14159265358979323846;

// ---------------------------------------------------------------------------------------------
// Values and evaluation state

enum class Text : std::uint8_t { computed, literal, integer };

struct Val {
  double v = 0;
  bool len = false;       // some operand carried a unit (value in pt)
  std::int32_t err = -1;  // index into State::errors when the sub-expression failed
  std::int32_t arr = -1;  // index into State::arrays for an array literal {a,b,...}
  // How \pgfmathresult prints it (pgfmathparser.code.tex): a number literal passes through as
  // written ("3", "3.50", ".5"), a comparison, logic operation or integer function leaves an
  // integer ("1", "-2": \def\pgfmathresult{1}), anything computed prints as "3.0".
  Text text = Text::computed;
  std::uint32_t lit_begin = 0, lit_len = 0;  // Text::literal: where in the expression
};

struct Function;

struct Frame {
  const Function* fn = nullptr;  // null: a brace group / array literal, or an unknown function
  std::size_t base = 0;          // first argument on State::args
  std::size_t pos = 0;           // byte offset of the function name or the brace
};

struct State {
  std::string_view text;
  const Context* ctx = nullptr;
  std::uint64_t* rng = nullptr;
  std::uint64_t local_rng = 0;
  std::vector<Error> errors;             // value errors (only grows when something fails)
  std::optional<Error> static_error;     // first unknown function / name / unit
  std::vector<std::vector<Val>> arrays;  // array literals met so far
  // Argument stack of the calls being parsed, and their frames: served from a buffer inside
  // State, so typical expressions evaluate without touching the heap.
  std::array<std::byte, 1536> scratch;
  std::pmr::monotonic_buffer_resource arena{scratch.data(), scratch.size()};
  std::pmr::vector<Val> args{&arena};
  std::pmr::vector<Frame> frames{&arena};
  std::size_t depth = 0;
  std::size_t max_depth = 0;

  std::size_t offset(const char* p) const { return static_cast<std::size_t>(p - text.data()); }
};

Val fail(State& s, ErrorKind kind, std::string message, std::size_t pos) {
  s.errors.push_back(Error{kind, std::move(message), pos});
  Val v;
  v.err = static_cast<std::int32_t>(s.errors.size() - 1);
  return v;
}

void fail_static(State& s, ErrorKind kind, std::string message, std::size_t pos) {
  if (!s.static_error || pos < s.static_error->position)
    s.static_error = Error{kind, std::move(message), pos};
}

// A computed number: non-finite or out-of-range results are overflow errors, as in TeX.
Val number(State& s, double v, bool len, std::size_t pos) {
  if (!std::isfinite(v)) return fail(s, ErrorKind::overflow, "result is not a finite number", pos);
  if (std::fabs(v) > kMaxDimen)
    return fail(
        s, ErrorKind::overflow,
        "value " + format_number(v) + " exceeds 16383.99999, tex's largest dimension (dimension too large)",
        pos);
  if (v == 0) v = 0;  // no negative zero
  return Val{v, len, -1, -1};
}

// If any operand already failed (or is an array where a number is needed), the result of the
// operation is decided: returns true and sets `out`.
bool decided(State& s, std::span<const Val> ops, std::size_t pos, Val& out) {
  for (const Val& a : ops)
    if (a.err >= 0) {
      out = a;
      return true;
    }
  for (const Val& a : ops)
    if (a.arr >= 0) {
      out = fail(s, ErrorKind::syntax, "array used where a number is expected", pos);
      return true;
    }
  return false;
}

bool any_len(std::span<const Val> ops) {
  return std::any_of(ops.begin(), ops.end(), [](const Val& a) { return a.len; });
}

std::string show(double v) { return format_number(v); }

double next_uniform(State& s) { return next_random(s.rng ? *s.rng : s.local_rng); }

// ---------------------------------------------------------------------------------------------
// Functions (pgfmanual, part VIII "Syntax for Mathematical Expressions: Functions")

using Impl = Val (*)(State&, std::span<const Val>, std::size_t pos);

struct Function {
  std::string_view name;
  std::uint8_t min_args, max_args;  // max_args 255: any number
  Impl impl;
  bool raw_args = false;  // receives failed / array arguments unchecked (ifthenelse, array, dim...)
};

double rad(double deg) { return deg * kPi / 180.0; }
double deg(double rad) { return rad * 180.0 / kPi; }

// Sine and cosine of degrees with exact values at multiples of 90 (so tan(90) fails cleanly).
double sin_deg(double x) {
  double r = std::fmod(x, 360.0);
  if (r < 0) r += 360.0;
  if (r == 0 || r == 180) return 0;
  if (r == 90) return 1;
  if (r == 270) return -1;
  if (r == 30 || r == 150) return 0.5;
  if (r == 210 || r == 330) return -0.5;
  return std::sin(rad(r));
}
double cos_deg(double x) { return sin_deg(x + 90.0); }

template <double (*F)(double)>
Val unary_fn(State& s, std::span<const Val> a, std::size_t pos) {
  return number(s, F(a[0].v), a[0].len, pos);
}

Val divide_checked(State& s, const Val& a, const Val& b, std::size_t pos) {
  if (b.v == 0) return fail(s, ErrorKind::division_by_zero, "division of " + show(a.v) + " by zero", pos);
  return number(s, a.v / b.v, a.len || b.len, pos);
}

// A result pgf leaves as an integer (\def\pgfmathresult{1}, \pgfmathint's digits).
Val integral(Val v) {
  if (v.err < 0 && v.arr < 0) v.text = Text::integer;
  return v;
}
template <Val (*F)(State&, std::span<const Val>, std::size_t)>
Val integral_fn(State& s, std::span<const Val> a, std::size_t p) {
  return integral(F(s, a, p));
}

Val fn_add(State& s, std::span<const Val> a, std::size_t p) {
  return number(s, a[0].v + a[1].v, any_len(a), p);
}
Val fn_subtract(State& s, std::span<const Val> a, std::size_t p) {
  return number(s, a[0].v - a[1].v, any_len(a), p);
}
Val fn_multiply(State& s, std::span<const Val> a, std::size_t p) {
  return number(s, a[0].v * a[1].v, any_len(a), p);
}
Val fn_divide(State& s, std::span<const Val> a, std::size_t p) { return divide_checked(s, a[0], a[1], p); }
Val fn_div(State& s, std::span<const Val> a, std::size_t p) {
  Val q = divide_checked(s, a[0], a[1], p);
  if (q.err < 0) q.v = std::trunc(q.v) + 0.0;
  return q;
}
Val fn_neg(State& s, std::span<const Val> a, std::size_t p) { return number(s, -a[0].v, a[0].len, p); }
Val fn_abs(State& s, std::span<const Val> a, std::size_t p) {
  return number(s, std::fabs(a[0].v), a[0].len, p);
}
Val fn_scalar(State& s, std::span<const Val> a, std::size_t p) { return number(s, a[0].v, false, p); }
Val fn_real(State& s, std::span<const Val> a, std::size_t p) { return number(s, a[0].v, a[0].len, p); }

Val fn_factorial(State& s, std::span<const Val> a, std::size_t p) {
  double n = std::trunc(a[0].v);
  if (n < 0) return fail(s, ErrorKind::domain, "factorial of negative number " + show(a[0].v), p);
  double f = 1;
  for (double k = 2; k <= n && f <= kMaxDimen; ++k) f *= k;
  return number(s, f, a[0].len, p);
}

Val fn_sqrt(State& s, std::span<const Val> a, std::size_t p) {
  if (a[0].v < 0) return fail(s, ErrorKind::domain, "square root of negative number " + show(a[0].v), p);
  return number(s, std::sqrt(a[0].v), a[0].len, p);
}

Val power(State& s, const Val& x, const Val& y, std::size_t p) {
  if (x.v < 0 && y.v != std::trunc(y.v))
    return fail(s, ErrorKind::domain, "non-integer power " + show(y.v) + " of negative number " + show(x.v),
                p);
  if (x.v == 0 && y.v < 0) return fail(s, ErrorKind::division_by_zero, "negative power of zero", p);
  return number(s, std::pow(x.v, y.v), x.len || y.len, p);
}
Val fn_pow(State& s, std::span<const Val> a, std::size_t p) { return power(s, a[0], a[1], p); }

Val fn_e(State& s, std::span<const Val>, std::size_t p) { return number(s, std::exp(1.0), false, p); }
Val fn_pi(State& s, std::span<const Val>, std::size_t p) { return number(s, kPi, false, p); }
Val fn_true(State& s, std::span<const Val>, std::size_t p) { return integral(number(s, 1, false, p)); }
Val fn_false(State& s, std::span<const Val>, std::size_t p) { return integral(number(s, 0, false, p)); }
Val fn_exp(State& s, std::span<const Val> a, std::size_t p) {
  return number(s, std::exp(a[0].v), a[0].len, p);
}

template <double (*F)(double)>
Val log_fn(State& s, std::span<const Val> a, std::size_t p) {
  if (a[0].v <= 0) return fail(s, ErrorKind::domain, "logarithm of non-positive number " + show(a[0].v), p);
  return number(s, F(a[0].v), a[0].len, p);
}
double ln_d(double x) { return std::log(x); }
double log10_d(double x) { return std::log10(x); }
double log2_d(double x) { return std::log2(x); }

Val fn_mod(State& s, std::span<const Val> a, std::size_t p) {
  if (a[1].v == 0) return fail(s, ErrorKind::division_by_zero, "modulo of " + show(a[0].v) + " by zero", p);
  return number(s, std::fmod(a[0].v, a[1].v), any_len(a), p);  // truncated division
}
Val fn_Mod(State& s, std::span<const Val> a, std::size_t p) {
  if (a[1].v == 0) return fail(s, ErrorKind::division_by_zero, "modulo of " + show(a[0].v) + " by zero", p);
  double r = std::fmod(a[0].v, a[1].v);
  if (r < 0) r += std::fabs(a[1].v);
  return number(s, r, any_len(a), p);
}
Val fn_sign(State& s, std::span<const Val> a, std::size_t p) {
  return number(s, a[0].v > 0 ? 1 : a[0].v < 0 ? -1 : 0, false, p);
}
Val fn_round(State& s, std::span<const Val> a, std::size_t p) {
  return number(s, std::round(a[0].v), a[0].len, p);  // half away from zero, as pgfmanual says
}
double floor_d(double x) { return std::floor(x); }
double ceil_d(double x) { return std::ceil(x); }
double trunc_d(double x) { return std::trunc(x); }
double frac_d(double x) { return std::fabs(x - std::trunc(x)); }

Val fn_gcd(State& s, std::span<const Val> a, std::size_t p) {
  auto x = static_cast<long long>(std::fabs(std::trunc(a[0].v)));
  auto y = static_cast<long long>(std::fabs(std::trunc(a[1].v)));
  while (y != 0) {
    long long t = x % y;
    x = y;
    y = t;
  }
  return number(s, static_cast<double>(x), false, p);
}
Val fn_isodd(State& s, std::span<const Val> a, std::size_t p) {
  return number(s, std::fmod(std::trunc(a[0].v), 2.0) != 0 ? 1 : 0, false, p);
}
Val fn_iseven(State& s, std::span<const Val> a, std::size_t p) {
  return number(s, std::fmod(std::trunc(a[0].v), 2.0) == 0 ? 1 : 0, false, p);
}
Val fn_isprime(State& s, std::span<const Val> a, std::size_t p) {
  auto n = static_cast<long long>(std::trunc(a[0].v));
  bool prime = n >= 2;
  for (long long d = 2; prime && d * d <= n; ++d)
    if (n % d == 0) prime = false;
  return number(s, prime ? 1 : 0, false, p);
}

Val fn_rad(State& s, std::span<const Val> a, std::size_t p) { return number(s, rad(a[0].v), a[0].len, p); }
Val fn_deg(State& s, std::span<const Val> a, std::size_t p) { return number(s, deg(a[0].v), a[0].len, p); }
Val fn_sin(State& s, std::span<const Val> a, std::size_t p) { return number(s, sin_deg(a[0].v), false, p); }
Val fn_cos(State& s, std::span<const Val> a, std::size_t p) { return number(s, cos_deg(a[0].v), false, p); }

Val ratio(State& s, double num, double den, std::string_view what, double x, std::size_t p) {
  if (den == 0)
    return fail(s, ErrorKind::division_by_zero, std::string(what) + "(" + show(x) + ") divides by zero", p);
  return number(s, num / den, false, p);
}
Val fn_tan(State& s, std::span<const Val> a, std::size_t p) {
  return ratio(s, sin_deg(a[0].v), cos_deg(a[0].v), "tan", a[0].v, p);
}
Val fn_cot(State& s, std::span<const Val> a, std::size_t p) {
  return ratio(s, cos_deg(a[0].v), sin_deg(a[0].v), "cot", a[0].v, p);
}
Val fn_sec(State& s, std::span<const Val> a, std::size_t p) {
  return ratio(s, 1, cos_deg(a[0].v), "sec", a[0].v, p);
}
Val fn_cosec(State& s, std::span<const Val> a, std::size_t p) {
  return ratio(s, 1, sin_deg(a[0].v), "cosec", a[0].v, p);
}

template <double (*F)(double)>
Val arc_fn(State& s, std::span<const Val> a, std::size_t p) {
  if (a[0].v < -1 || a[0].v > 1)
    return fail(s, ErrorKind::domain, "argument " + show(a[0].v) + " outside [-1,1]", p);
  return number(s, deg(F(a[0].v)), false, p);
}
double asin_d(double x) { return std::asin(x); }
double acos_d(double x) { return std::acos(x); }
Val fn_atan(State& s, std::span<const Val> a, std::size_t p) {
  return number(s, deg(std::atan(a[0].v)), false, p);
}
Val fn_atan2(State& s, std::span<const Val> a, std::size_t p) {  // pgf: atan2(y, x)
  return number(s, deg(std::atan2(a[0].v, a[1].v)), false, p);
}
double sinh_d(double x) { return std::sinh(x); }
double cosh_d(double x) { return std::cosh(x); }
double tanh_d(double x) { return std::tanh(x); }
Val fn_veclen(State& s, std::span<const Val> a, std::size_t p) {
  return number(s, std::hypot(a[0].v, a[1].v), any_len(a), p);
}

Val fn_equal(State& s, std::span<const Val> a, std::size_t p) {
  return number(s, a[0].v == a[1].v, any_len(a), p);
}
Val fn_notequal(State& s, std::span<const Val> a, std::size_t p) {
  return integral(number(s, a[0].v != a[1].v, any_len(a), p));
}
Val fn_greater(State& s, std::span<const Val> a, std::size_t p) {
  return integral(number(s, a[0].v > a[1].v, any_len(a), p));
}
Val fn_less(State& s, std::span<const Val> a, std::size_t p) {
  return integral(number(s, a[0].v < a[1].v, any_len(a), p));
}
Val fn_notgreater(State& s, std::span<const Val> a, std::size_t p) {
  return integral(number(s, a[0].v <= a[1].v, any_len(a), p));
}
Val fn_notless(State& s, std::span<const Val> a, std::size_t p) {
  return integral(number(s, a[0].v >= a[1].v, any_len(a), p));
}
Val fn_and(State& s, std::span<const Val> a, std::size_t p) {
  return integral(number(s, a[0].v != 0 && a[1].v != 0, false, p));
}
Val fn_or(State& s, std::span<const Val> a, std::size_t p) {
  return integral(number(s, a[0].v != 0 || a[1].v != 0, false, p));
}
Val fn_not(State& s, std::span<const Val> a, std::size_t p) { return integral(number(s, a[0].v == 0, false, p)); }

// Lazy in effect: the error of the branch not taken is dropped (pgf would evaluate both, but
// a linter should not report a division by zero that cannot happen).
Val fn_ifthenelse(State& s, std::span<const Val> a, std::size_t p) {
  if (a[0].err >= 0) return a[0];
  if (a[0].arr >= 0) return fail(s, ErrorKind::syntax, "array used where a number is expected", p);
  return a[0].v != 0 ? a[1] : a[2];
}

Val fn_rnd(State& s, std::span<const Val>, std::size_t p) { return number(s, next_uniform(s), false, p); }
Val fn_rand(State& s, std::span<const Val>, std::size_t p) {
  return number(s, 2 * next_uniform(s) - 1, false, p);
}
Val fn_random(State& s, std::span<const Val> a, std::size_t p) {
  if (a.empty()) return number(s, next_uniform(s), false, p);
  double lo = a.size() == 2 ? std::trunc(a[0].v) : 1;
  double hi = std::trunc(a.size() == 2 ? a[1].v : a[0].v);
  if (hi < lo)
    return fail(s, ErrorKind::domain, "random range [" + show(lo) + "," + show(hi) + "] is empty", p);
  double k = std::floor(next_uniform(s) * (hi - lo + 1));
  return number(s, lo + std::min(k, hi - lo), false, p);
}

// min and max flatten array arguments (pgf's \pgfmathmax takes comma lists).
template <bool Max>
Val fn_extremum(State& s, std::span<const Val> a, std::size_t p) {
  bool found = false, len = false;
  double best = 0;
  auto visit = [&](auto& self, const Val& v) -> std::optional<Val> {
    if (v.err >= 0) return v;
    if (v.arr >= 0) {
      for (std::size_t i = 0; i < s.arrays[static_cast<std::size_t>(v.arr)].size(); ++i)
        if (auto e = self(self, s.arrays[static_cast<std::size_t>(v.arr)][i])) return e;
      return std::nullopt;
    }
    if (!found || (Max ? v.v > best : v.v < best)) best = v.v;
    found = true;
    len = len || v.len;
    return std::nullopt;
  };
  for (const Val& v : a)
    if (auto e = visit(visit, v)) return *e;
  if (!found) return fail(s, ErrorKind::syntax, Max ? "max of no values" : "min of no values", p);
  return number(s, best, len, p);
}

Val array_at(State& s, const Val& arr, const Val& index, std::size_t p) {
  if (arr.err >= 0) return arr;
  if (index.err >= 0) return index;
  if (arr.arr < 0) return fail(s, ErrorKind::syntax, "indexing a value that is not an array", p);
  if (index.arr >= 0) return fail(s, ErrorKind::syntax, "array index is an array", p);
  const auto& items = s.arrays[static_cast<std::size_t>(arr.arr)];
  double i = std::trunc(index.v);
  if (i < 0 || i >= static_cast<double>(items.size()))
    return fail(
        s, ErrorKind::domain,
        "array index " + show(i) + " out of range (array has " + std::to_string(items.size()) + " elements)",
        p);
  return items[static_cast<std::size_t>(i)];
}
Val fn_array(State& s, std::span<const Val> a, std::size_t p) { return array_at(s, a[0], a[1], p); }
Val fn_dim(State& s, std::span<const Val> a, std::size_t p) {
  if (a[0].err >= 0) return a[0];
  if (a[0].arr < 0) return fail(s, ErrorKind::syntax, "dim of a value that is not an array", p);
  return number(s, static_cast<double>(s.arrays[static_cast<std::size_t>(a[0].arr)].size()), false, p);
}

// tikz-cd's math font dimensions (tikzlibrarycd.code.tex, under LuaTeX \Umathaxis and
// \Umathfractionrule of \textstyle): Computer Modern's axis height is 0.25em, its fraction rule
// 0.04em (2.5pt and 0.4pt at 10pt). A picture that names them without tikz-cd is a TeX error
// this evaluator does not see: it only ever reads them as tikz-cd defines them.
Val fn_axis_height(State& s, std::span<const Val>, std::size_t p) {
  return number(s, 0.25 * (s.ctx ? s.ctx->em_pt : 10.0), true, p);
}
Val fn_rule_thickness(State& s, std::span<const Val>, std::size_t p) {
  return number(s, 0.04 * (s.ctx ? s.ctx->em_pt : 10.0), true, p);
}

constexpr std::uint8_t kAny = 255;

// Sorted by name (checked below) for binary search.
constexpr std::array kFunctions = {
    Function{"Mod", 2, 2, fn_Mod},
    Function{"abs", 1, 1, fn_abs},
    Function{"acos", 1, 1, arc_fn<acos_d>},
    Function{"add", 2, 2, fn_add},
    Function{"and", 2, 2, fn_and},
    Function{"array", 2, 2, fn_array, true},
    Function{"asin", 1, 1, arc_fn<asin_d>},
    Function{"atan", 1, 1, fn_atan},
    Function{"atan2", 2, 2, fn_atan2},
    Function{"axis_height", 0, 0, fn_axis_height},
    Function{"ceil", 1, 1, unary_fn<ceil_d>},
    Function{"cos", 1, 1, fn_cos},
    Function{"cosec", 1, 1, fn_cosec},
    Function{"cosh", 1, 1, unary_fn<cosh_d>},
    Function{"cot", 1, 1, fn_cot},
    Function{"deg", 1, 1, fn_deg},
    Function{"dim", 1, 1, fn_dim, true},
    Function{"div", 2, 2, integral_fn<fn_div>},
    Function{"divide", 2, 2, fn_divide},
    Function{"e", 0, 0, fn_e},
    Function{"equal", 2, 2, integral_fn<fn_equal>},
    Function{"exp", 1, 1, fn_exp},
    Function{"factorial", 1, 1, fn_factorial},
    Function{"false", 0, 0, fn_false},
    Function{"floor", 1, 1, unary_fn<floor_d>},
    Function{"frac", 1, 1, unary_fn<frac_d>},
    Function{"gcd", 2, 2, integral_fn<fn_gcd>},
    Function{"greater", 2, 2, fn_greater},
    Function{"ifthenelse", 3, 3, fn_ifthenelse, true},
    Function{"int", 1, 1, integral_fn<unary_fn<trunc_d>>},
    Function{"iseven", 1, 1, integral_fn<fn_iseven>},
    Function{"isodd", 1, 1, integral_fn<fn_isodd>},
    Function{"isprime", 1, 1, integral_fn<fn_isprime>},
    Function{"less", 2, 2, fn_less},
    Function{"ln", 1, 1, log_fn<ln_d>},
    Function{"log10", 1, 1, log_fn<log10_d>},
    Function{"log2", 1, 1, log_fn<log2_d>},
    Function{"max", 1, kAny, fn_extremum<true>, true},
    Function{"min", 1, kAny, fn_extremum<false>, true},
    Function{"mod", 2, 2, fn_mod},
    Function{"multiply", 2, 2, fn_multiply},
    Function{"neg", 1, 1, fn_neg},
    Function{"not", 1, 1, fn_not},
    Function{"notequal", 2, 2, fn_notequal},
    Function{"notgreater", 2, 2, fn_notgreater},
    Function{"notless", 2, 2, fn_notless},
    Function{"or", 2, 2, fn_or},
    Function{"pi", 0, 0, fn_pi},
    Function{"pow", 2, 2, fn_pow},
    Function{"rad", 1, 1, fn_rad},
    Function{"rand", 0, 0, fn_rand},
    Function{"random", 0, 2, fn_random},
    Function{"real", 1, 1, fn_real},
    Function{"rnd", 0, 0, fn_rnd},
    Function{"round", 1, 1, fn_round},
    Function{"rule_thickness", 0, 0, fn_rule_thickness},
    Function{"scalar", 1, 1, fn_scalar},
    Function{"sec", 1, 1, fn_sec},
    Function{"sign", 1, 1, integral_fn<fn_sign>},
    Function{"sin", 1, 1, fn_sin},
    Function{"sinh", 1, 1, unary_fn<sinh_d>},
    Function{"sqrt", 1, 1, fn_sqrt},
    Function{"subtract", 2, 2, fn_subtract},
    Function{"tan", 1, 1, fn_tan},
    Function{"tanh", 1, 1, unary_fn<tanh_d>},
    Function{"true", 0, 0, fn_true},
    Function{"veclen", 2, 2, fn_veclen},
};
static_assert(std::is_sorted(kFunctions.begin(), kFunctions.end(),
                             [](const Function& a, const Function& b) { return a.name < b.name; }));

// pgf functions we recognise but cannot evaluate (they typeset text or return strings).
constexpr std::array<std::string_view, 7> kUnsupportedFunctions = {"Hex", "bin", "depth", "height",
                                                                   "hex", "oct", "width"};

const Function* find_function(std::string_view name) {
  auto it = std::lower_bound(kFunctions.begin(), kFunctions.end(), name,
                             [](const Function& f, std::string_view n) { return f.name < n; });
  return it != kFunctions.end() && it->name == name ? &*it : nullptr;
}

Val call_function(State& s, const Function& fn, std::span<const Val> args, std::size_t pos) {
  if (args.size() < fn.min_args || (fn.max_args != kAny && args.size() > fn.max_args)) {
    std::string expected = fn.min_args == fn.max_args ? std::to_string(fn.min_args)
                           : fn.max_args == kAny
                               ? "at least " + std::to_string(fn.min_args)
                               : std::to_string(fn.min_args) + " to " + std::to_string(fn.max_args);
    return fail(s, ErrorKind::syntax,
                "function '" + std::string(fn.name) + "' takes " + expected + " argument" +
                    (expected == "1" ? "" : "s") + ", got " + std::to_string(args.size()),
                pos);
  }
  Val out;
  if (!fn.raw_args && decided(s, args, pos, out)) return out;
  return fn.impl(s, args, pos);
}

// ---------------------------------------------------------------------------------------------
// Units (TeXbook chapter 10; em/ex from the current font)

struct Unit {
  std::string_view name;
  double pt;  // size in pt; 0 marks the font-dependent em/ex
};
constexpr std::array kUnits = {
    Unit{"pt", 1.0},
    Unit{"bp", 72.27 / 72.0},
    Unit{"mm", 72.27 / 25.4},
    Unit{"cm", 72.27 / 2.54},
    Unit{"in", 72.27},
    Unit{"pc", 12.0},
    Unit{"dd", 1238.0 / 1157.0},
    Unit{"cc", 12.0 * 1238.0 / 1157.0},
    Unit{"sp", 1.0 / 65536.0},
    Unit{"em", 0.0},
    Unit{"ex", 0.0},
    Unit{"mu", 1.0},  // pgfmanual: math units are "treated as if pt had been used"
};

// Units are keywords in TeX, matched case-insensitively.
std::optional<double> unit_size(std::string_view word, const Context& ctx) {
  if (word.size() != 2) return std::nullopt;
  char a = static_cast<char>(word[0] | 0x20), b = static_cast<char>(word[1] | 0x20);
  for (const Unit& u : kUnits)
    if (u.name[0] == a && u.name[1] == b) {
      if (u.pt != 0) return u.pt;
      return a == 'e' && b == 'm' ? ctx.em_pt : ctx.ex_pt;
    }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Lexical primitives. Hand-written X3 parsers test bytes as unsigned, so input with bytes above
// 0x7f never reaches the locale-dependent <cctype> classifiers.

constexpr bool is_blank(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
constexpr bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
constexpr bool is_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_word(unsigned char c) { return is_letter(c) || is_digit(c) || c == '_'; }

struct blank_parser : x3::parser<blank_parser> {
  using attribute_type = x3::unused_type;
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, Attr&) const {
    if (first != last && is_blank(static_cast<unsigned char>(*first))) {
      ++first;
      return true;
    }
    return false;
  }
};
constexpr blank_parser blank{};

// A number literal: 12, 1.5, .5, 5., 1e3, 1.2E-2, 0x1F, 0b101, 017 (octal, as pgf reads it).
// The exponent needs digits, so "2em" is the number 2 followed by the unit em.
struct number_parser : x3::parser<number_parser> {
  using attribute_type = double;
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr& attr) const {
    x3::skip_over(first, last, ctx);
    It p = first;
    auto at = [&](It q, auto pred) { return q != last && pred(static_cast<unsigned char>(*q)); };
    if (p != last && *p == '0' && std::next(p) != last) {
      char k = static_cast<char>(*std::next(p) | 0x20);
      int base = k == 'x' ? 16 : k == 'b' ? 2 : 0;
      if (base != 0) {
        It q = std::next(p, 2);
        double v = 0;
        It digits = q;
        for (; q != last; ++q) {
          unsigned char c = static_cast<unsigned char>(*q);
          int d = is_digit(c) ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : 99;
          if (d >= base) break;
          v = v * base + d;
        }
        if (q != digits) {
          first = q;
          x3::traits::move_to(v, attr);
          return true;
        }
      }
    }
    It start = p;
    while (at(p, is_digit)) ++p;
    bool int_digits = p != start;
    bool dot = false;
    if (p != last && *p == '.') {
      dot = true;
      ++p;
      while (at(p, is_digit)) ++p;
    }
    if (!int_digits && (!dot || p == std::next(start))) return false;  // no digits at all
    bool exponent = false;
    if (p != last && (*p == 'e' || *p == 'E')) {
      It q = std::next(p);
      if (q != last && (*q == '+' || *q == '-')) ++q;
      if (at(q, is_digit)) {
        exponent = true;
        while (at(q, is_digit)) ++q;
        p = q;
      }
    }
    double v = 0;
    std::string_view digits(&*start, static_cast<std::size_t>(p - start));
    bool octal = !dot && !exponent && digits.size() > 1 && digits[0] == '0' &&
                 std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '7'; });
    if (octal) {
      for (char c : digits) v = v * 8 + (c - '0');
    } else {
      auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      if (r.ec == std::errc::result_out_of_range)  // 1e309 overflows; 1e-400 underflows to 0
        v = digits.find("e-") == std::string_view::npos && digits.find("E-") == std::string_view::npos
                ? std::numeric_limits<double>::infinity()
                : 0.0;
    }
    first = p;
    x3::traits::move_to(v, attr);
    return true;
  }
};
constexpr number_parser number_literal{};

// An identifier [A-Za-z_][A-Za-z0-9_]*, as a view into the input.
struct word_parser : x3::parser<word_parser> {
  using attribute_type = std::string_view;
  bool allow_r = true;  // false: the postfix radians marker "r" alone is not a word
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr& attr) const {
    x3::skip_over(first, last, ctx);
    if (first == last || !(is_letter(static_cast<unsigned char>(*first)) || *first == '_')) return false;
    It p = first;
    while (p != last && is_word(static_cast<unsigned char>(*p))) ++p;
    std::string_view w(&*first, static_cast<std::size_t>(p - first));
    if (!allow_r && w == "r") return false;
    first = p;
    x3::traits::move_to(w, attr);
    return true;
  }
};
constexpr word_parser word{};
constexpr word_parser unit_word{{}, false};

// The postfix radians operator: the letter r standing alone.
struct radians_parser : x3::parser<radians_parser> {
  using attribute_type = x3::unused_type;
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
    x3::skip_over(first, last, ctx);
    if (first == last || *first != 'r') return false;
    It p = std::next(first);
    if (p != last && is_word(static_cast<unsigned char>(*p))) return false;
    first = p;
    return true;
  }
};
constexpr radians_parser radians{};

// The bytes of the UTF-8 character starting at p, or an empty view when p does not start a
// well-formed one (messages must stay valid UTF-8: they end up in JSON and SARIF).
std::string_view utf8_char(const char* p, const char* end) {
  auto lead = static_cast<unsigned char>(*p);
  std::size_t n = lead < 0x80           ? 1
                  : (lead >> 5) == 0x6  ? 2
                  : (lead >> 4) == 0xE  ? 3
                  : (lead >> 3) == 0x1E ? 4
                                        : 0;
  if (n == 0 || static_cast<std::size_t>(end - p) < n) return {};
  for (std::size_t i = 1; i < n; ++i)
    if ((static_cast<unsigned char>(p[i]) & 0xC0) != 0x80) return {};
  return {p, n};
}

// "'x'" for a character, "byte 0xff" for a byte that is not one.
std::string describe_char(const char* p, const char* end) {
  std::string_view c = utf8_char(p, end);
  if (!c.empty() && (c.size() > 1 || (c[0] >= 0x20 && c[0] < 0x7f))) return "'" + std::string(c) + "'";
  constexpr char hex[] = "0123456789abcdef";
  auto b = static_cast<unsigned char>(*p);
  return std::string("byte 0x") + hex[b >> 4] + hex[b & 0xF];
}

// A control sequence left in the expression: \name or \<symbol>.
struct control_sequence_parser : x3::parser<control_sequence_parser> {
  using attribute_type = std::string_view;
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr& attr) const {
    x3::skip_over(first, last, ctx);
    if (first == last || *first != '\\') return false;
    It p = std::next(first);
    if (p != last && (is_letter(static_cast<unsigned char>(*p)) || *p == '@')) {
      while (p != last && (is_letter(static_cast<unsigned char>(*p)) || *p == '@')) ++p;
    } else if (p != last) {
      std::size_t n = utf8_char(&*p, &*p + (last - p)).size();
      p += n == 0 ? 1 : static_cast<std::ptrdiff_t>(n);
    }
    std::string_view cs(&*first, static_cast<std::size_t>(p - first));
    if (cs.size() > 1 && utf8_char(cs.data() + 1, cs.data() + cs.size()).empty())
      cs = cs.substr(0, 1);  // "\" followed by a stray byte: keep the message valid UTF-8
    x3::traits::move_to(cs, attr);
    first = p;
    return true;
  }
};
constexpr control_sequence_parser control_sequence{};

// A postfix '!' (factorial) that is not the start of "!=".
struct bang_parser : x3::parser<bang_parser> {
  using attribute_type = x3::unused_type;
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
    x3::skip_over(first, last, ctx);
    if (first == last || *first != '!') return false;
    It p = std::next(first);
    if (p != last && *p == '=') return false;
    first = p;
    return true;
  }
};
constexpr bang_parser bang{};

// ---------------------------------------------------------------------------------------------
// Grammar

struct state_tag;
struct too_deep {
  std::size_t pos;
};

template <class Ctx>
State& state_of(Ctx const& ctx) {
  return x3::get<state_tag>(ctx).get();
}

// Byte offset where the text matched by a located action starts.
template <class Ctx>
std::size_t where(Ctx const& ctx) {
  return state_of(ctx).offset(x3::_where(ctx).begin());
}

// Bounds the nesting of operands so hostile input cannot exhaust the stack.
template <class Subject>
struct nesting_guard : x3::unary_parser<Subject, nesting_guard<Subject>> {
  using base_type = x3::unary_parser<Subject, nesting_guard<Subject>>;
  static bool const is_pass_through_unary = true;
  constexpr nesting_guard(Subject const& subject) : base_type(subject) {}
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx, Attr& attr) const {
    State& s = state_of(ctx);
    if (++s.depth > s.max_depth) throw too_deep{s.offset(first)};
    bool ok = this->subject.parse(first, last, ctx, rctx, attr);
    --s.depth;
    return ok;
  }
};
struct nesting_guard_gen {
  template <class Subject>
  constexpr nesting_guard<typename x3::extension::as_parser<Subject>::value_type> operator[](
      Subject const& s) const {
    return {x3::as_parser(s)};
  }
};
constexpr nesting_guard_gen guarded{};

// Like x3::action, but x3::_where(ctx) is the matched text (X3's own action hands over the
// rest of the input), so error positions point at the operator, name or number.
template <class Subject, class Action>
struct located : x3::unary_parser<Subject, located<Subject, Action>> {
  using base_type = x3::unary_parser<Subject, located<Subject, Action>>;
  static bool const is_pass_through_unary = true;
  static bool const has_action = true;
  constexpr located(Subject const& subject, Action f) : base_type(subject), f(f) {}
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx, Attr&) const {
    x3::skip_over(first, last, ctx);
    It start = first;
    typename x3::traits::attribute_of<Subject, Ctx>::type attr{};
    if (!this->subject.parse(first, last, ctx, rctx, attr)) {
      first = start;
      return false;
    }
    boost::iterator_range<It> matched(start, first);
    auto val_context = x3::make_context<x3::rule_val_context_tag>(rctx, ctx);
    auto where_context = x3::make_context<x3::where_context_tag>(matched, val_context);
    auto attr_context = x3::make_context<x3::attr_context_tag>(attr, where_context);
    f(attr_context);
    return true;
  }
  Action f;
};
template <class Subject, class Action>
constexpr auto on(Subject const& subject, Action f) {
  return located<typename x3::extension::as_parser<Subject>::value_type, Action>(x3::as_parser(subject), f);
}

using BinaryOp = Val (*)(State&, const Val&, const Val&, std::size_t);

Val op_add(State& s, const Val& a, const Val& b, std::size_t p) {
  return number(s, a.v + b.v, a.len || b.len, p);
}
Val op_sub(State& s, const Val& a, const Val& b, std::size_t p) {
  return number(s, a.v - b.v, a.len || b.len, p);
}
Val op_mul(State& s, const Val& a, const Val& b, std::size_t p) {
  return number(s, a.v * b.v, a.len || b.len, p);
}
Val op_div(State& s, const Val& a, const Val& b, std::size_t p) { return divide_checked(s, a, b, p); }
Val op_pow(State& s, const Val& a, const Val& b, std::size_t p) { return power(s, a, b, p); }
Val op_eq(State& s, const Val& a, const Val& b, std::size_t p) {
  return integral(number(s, a.v == b.v, a.len || b.len, p));
}
Val op_ne(State& s, const Val& a, const Val& b, std::size_t p) {
  return integral(number(s, a.v != b.v, a.len || b.len, p));
}
Val op_lt(State& s, const Val& a, const Val& b, std::size_t p) {
  return integral(number(s, a.v < b.v, a.len || b.len, p));
}
Val op_gt(State& s, const Val& a, const Val& b, std::size_t p) {
  return integral(number(s, a.v > b.v, a.len || b.len, p));
}
Val op_le(State& s, const Val& a, const Val& b, std::size_t p) {
  return integral(number(s, a.v <= b.v, a.len || b.len, p));
}
Val op_ge(State& s, const Val& a, const Val& b, std::size_t p) {
  return integral(number(s, a.v >= b.v, a.len || b.len, p));
}
Val op_and(State& s, const Val& a, const Val& b, std::size_t p) {
  return integral(number(s, a.v != 0 && b.v != 0, false, p));
}
Val op_or(State& s, const Val& a, const Val& b, std::size_t p) {
  return integral(number(s, a.v != 0 || b.v != 0, false, p));
}

// Folds `_val op _attr` into _val; the operator's position is where the action's match begins.
template <BinaryOp Op>
constexpr auto fold = [](auto& ctx) {
  State& s = state_of(ctx);
  Val& lhs = x3::_val(ctx);
  const Val& rhs = x3::_attr(ctx);
  std::size_t pos = where(ctx);
  std::array<Val, 2> ops{lhs, rhs};
  Val out;
  lhs = decided(s, ops, pos, out) ? out : Op(s, lhs, rhs, pos);
};

constexpr auto assign = [](auto& ctx) { x3::_val(ctx) = x3::_attr(ctx); };

template <double (*F)(double)>
constexpr auto apply_unary = [](auto& ctx) {
  State& s = state_of(ctx);
  const Val& a = x3::_attr(ctx);
  std::size_t pos = where(ctx);
  Val out;
  x3::_val(ctx) = decided(s, std::span<const Val>(&a, 1), pos, out) ? out : number(s, F(a.v), a.len, pos);
};
double negate(double x) { return -x; }
double logical_not(double x) { return x == 0 ? 1 : 0; }
constexpr auto not_operator = [](auto& ctx) {
  apply_unary<logical_not>(ctx);
  x3::_val(ctx) = integral(x3::_val(ctx));
};

constexpr auto to_degrees = [](auto& ctx) {
  State& s = state_of(ctx);
  Val& a = x3::_val(ctx);
  std::size_t pos = where(ctx);
  Val out;
  a = decided(s, std::span<const Val>(&a, 1), pos, out) ? out : number(s, deg(a.v), a.len, pos);
};

constexpr auto factorial_postfix = [](auto& ctx) {
  State& s = state_of(ctx);
  Val& a = x3::_val(ctx);
  std::size_t pos = where(ctx);
  Val out;
  a = decided(s, std::span<const Val>(&a, 1), pos, out) ? out
                                                        : fn_factorial(s, std::span<const Val>(&a, 1), pos);
};

constexpr auto apply_unit = [](auto& ctx) {
  State& s = state_of(ctx);
  Val& a = x3::_val(ctx);
  std::string_view w = x3::_attr(ctx);
  std::size_t pos = where(ctx);
  auto size = unit_size(w, *s.ctx);
  if (!size) {
    fail_static(s, ErrorKind::unknown_unit, "unknown unit '" + std::string(w) + "'", pos);
    return;
  }
  if (a.err >= 0) return;
  if (a.arr >= 0 || a.len) {
    a = fail(s, ErrorKind::syntax, "unit '" + std::string(w) + "' applied to a value that already has one",
             pos);
    return;
  }
  a = number(s, a.v * *size, true, pos);
};

constexpr auto index_postfix = [](auto& ctx) {
  State& s = state_of(ctx);
  x3::_val(ctx) = array_at(s, x3::_val(ctx), x3::_attr(ctx), where(ctx));
};

// True when a unit keyword follows at p ("65536sp" is 1pt: the literal alone may exceed TeX's
// range, only the converted length must not).
bool unit_follows(const State& s, const char* p) {
  const char* end = s.text.data() + s.text.size();
  while (p != end && is_blank(static_cast<unsigned char>(*p))) ++p;
  const char* q = p;
  while (q != end && is_word(static_cast<unsigned char>(*q))) ++q;
  return unit_size(std::string_view(p, static_cast<std::size_t>(q - p)), *s.ctx).has_value();
}

constexpr auto number_value = [](auto& ctx) {
  State& s = state_of(ctx);
  double v = x3::_attr(ctx);
  std::size_t pos = where(ctx);
  if (std::isfinite(v) && unit_follows(s, x3::_where(ctx).end())) {
    x3::_val(ctx) = Val{v, false, -1, -1};
  } else {
    Val out = number(s, v, false, pos);
    // written with digits and a point only: \pgfmathresult is the literal as written
    const auto range = x3::_where(ctx);
    std::string_view lit(&*range.begin(), static_cast<std::size_t>(range.end() - range.begin()));
    while (!lit.empty() && is_blank(static_cast<unsigned char>(lit.front()))) lit.remove_prefix(1);
    while (!lit.empty() && is_blank(static_cast<unsigned char>(lit.back()))) lit.remove_suffix(1);
    const bool plain = !lit.empty() && std::all_of(lit.begin(), lit.end(), [](char c) { return is_digit(static_cast<unsigned char>(c)) || c == '.'; }) &&
                       !(lit.size() > 1 && lit[0] == '0' && lit[1] != '.');
    if (out.err < 0 && plain) {
      out.text = Text::literal;
      out.lit_begin = static_cast<std::uint32_t>(s.offset(lit.data()));
      out.lit_len = static_cast<std::uint32_t>(lit.size());
    }
    x3::_val(ctx) = out;
  }
};

constexpr auto conditional = [](auto& ctx) {
  State& s = state_of(ctx);
  Val& c = x3::_val(ctx);
  auto& branches = x3::_attr(ctx);
  std::size_t pos = where(ctx);
  Val out;
  if (decided(s, std::span<const Val>(&c, 1), pos, out)) {
    c = out;
    return;
  }
  c = c.v != 0 ? boost::fusion::at_c<0>(branches) : boost::fusion::at_c<1>(branches);
};

// A control sequence is a register or macro that expansion left behind: as an operand
// ("\x+1") or as a factor like a unit ("0.5\pgf@x", TeX's <factor><internal dimen>).
constexpr auto unknown_control_sequence = [](auto& ctx) {
  State& s = state_of(ctx);
  std::string_view cs = x3::_attr(ctx);
  fail_static(s, ErrorKind::unknown_name, "unknown name '" + std::string(cs) + "'" + std::string(kUnexpandedMacroSuffix),
              where(ctx));
};

// Function calls push their arguments on State::args; the frame remembers where they start.
constexpr auto open_call = [](auto& ctx) {
  State& s = state_of(ctx);
  std::string_view name = x3::_attr(ctx);
  std::size_t pos = where(ctx);
  const Function* fn = find_function(name);
  if (!fn) {
    bool known = std::find(kUnsupportedFunctions.begin(), kUnsupportedFunctions.end(), name) !=
                 kUnsupportedFunctions.end();
    fail_static(s, ErrorKind::unknown_function,
                known ? "function '" + std::string(name) + "' is not supported"
                      : "unknown function '" + std::string(name) + "'",
                pos);
  }
  s.frames.push_back(Frame{fn, s.args.size(), pos});
};
constexpr auto open_group = [](auto& ctx) {
  State& s = state_of(ctx);
  s.frames.push_back(Frame{nullptr, s.args.size(), where(ctx)});
};
constexpr auto push_arg = [](auto& ctx) { state_of(ctx).args.push_back(x3::_attr(ctx)); };

constexpr auto close_call = [](auto& ctx) {
  State& s = state_of(ctx);
  Frame f = s.frames.back();
  s.frames.pop_back();
  std::span<const Val> args(s.args.data() + f.base, s.args.size() - f.base);
  Val out{};
  if (f.fn) out = call_function(s, *f.fn, args, f.pos);
  s.args.resize(f.base);
  x3::_val(ctx) = out;
};

// {a} groups; {a, b, ...} is an array literal (pgfmanual: "array" operators).
constexpr auto close_group = [](auto& ctx) {
  State& s = state_of(ctx);
  Frame f = s.frames.back();
  s.frames.pop_back();
  std::size_t n = s.args.size() - f.base;
  Val out;
  if (n == 1) {
    out = s.args[f.base];
  } else {
    s.arrays.emplace_back(s.args.begin() + static_cast<std::ptrdiff_t>(f.base), s.args.end());
    out.arr = static_cast<std::int32_t>(s.arrays.size() - 1);
  }
  s.args.resize(f.base);
  x3::_val(ctx) = out;
};

// A name without parentheses: a constant (pi, e, true, rnd...), or a one-argument function
// applied to the operand that follows ("sin 30*10" is sin(30)*10, pgfmanual).
constexpr auto bare_name = [](auto& ctx) {
  State& s = state_of(ctx);
  std::string_view name = x3::_attr(ctx);
  std::size_t pos = where(ctx);
  const Function* fn = find_function(name);
  if (fn && fn->min_args == 0) {
    x3::_val(ctx) = call_function(s, *fn, {}, pos);
  } else if (fn) {
    x3::_val(ctx) = fail(s, ErrorKind::syntax, "function '" + std::string(name) + "' needs arguments", pos);
  } else {
    fail_static(s, ErrorKind::unknown_name, "unknown name '" + std::string(name) + "'", pos);
    x3::_val(ctx) = Val{};
  }
};
constexpr auto prefix_call = [](auto& ctx) {
  State& s = state_of(ctx);
  auto& attr = x3::_attr(ctx);
  std::string_view name = boost::fusion::at_c<0>(attr);
  const Val& arg = boost::fusion::at_c<1>(attr);
  x3::_val(ctx) = call_function(s, *find_function(name), std::span<const Val>(&arg, 1), where(ctx));
};

// A one-argument function name (the only kind that may omit parentheses).
struct unary_function_name_parser : x3::parser<unary_function_name_parser> {
  using attribute_type = std::string_view;
  template <class It, class Ctx, class RCtx, class Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx, Attr& attr) const {
    It save = first;
    std::string_view w;
    if (!word.parse(first, last, ctx, rctx, w)) return false;
    const Function* fn = find_function(w);
    if (!fn || fn->min_args != 1 || fn->max_args != 1 || fn->raw_args) {
      first = save;
      return false;
    }
    x3::traits::move_to(w, attr);
    return true;
  }
};
constexpr unary_function_name_parser unary_function_name{};

x3::rule<class expression_rule, Val> const expression = "expression";
x3::rule<class disjunction_rule, Val> const disjunction = "expression";
x3::rule<class conjunction_rule, Val> const conjunction = "expression";
x3::rule<class equality_rule, Val> const equality = "expression";
x3::rule<class relational_rule, Val> const relational = "expression";
x3::rule<class additive_rule, Val> const additive = "operand";
x3::rule<class multiplicative_rule, Val> const multiplicative = "operand";
x3::rule<class unary_rule, Val> const unary = "operand";
x3::rule<class power_rule, Val> const power_expr = "operand";
x3::rule<class postfix_rule, Val> const postfix = "operand";
x3::rule<class primary_rule, Val> const primary = "operand";
x3::rule<class call_rule, Val> const call = "function call";
x3::rule<class call_close_rule, Val> const call_close = "')'";
x3::rule<class group_rule, Val> const group = "array";
x3::rule<class group_close_rule, Val> const group_close = "'}'";

// Precedence, loosest first: ?:  ||  &&  == !=  < > <= >=  + -  * / r  unary - ! +  ^  postfix
auto const expression_def = disjunction[assign] >> -on('?' > expression > ':' > expression, conditional);
auto const disjunction_def = conjunction[assign] >> *on(x3::lit("||") > conjunction, fold<op_or>);
auto const conjunction_def = equality[assign] >> *on(x3::lit("&&") > equality, fold<op_and>);
auto const equality_def = relational[assign] >> *(on(x3::lit("==") > relational, fold<op_eq>) |
                                                  on(x3::lit("!=") > relational, fold<op_ne>));
auto const relational_def = additive[assign] >>
                            *(on(x3::lit("<=") > additive, fold<op_le>) |
                              on(x3::lit(">=") > additive, fold<op_ge>) | on('<' > additive, fold<op_lt>) |
                              on('>' > additive, fold<op_gt>));
auto const additive_def = multiplicative[assign] >>
                          *(on('+' > multiplicative, fold<op_add>) | on('-' > multiplicative, fold<op_sub>));
// pgfmanual: the postfix r "has the same precedence as multiplication".
auto const multiplicative_def = unary[assign] >> *(on('*' > unary, fold<op_mul>) |
                                                   on('/' > unary, fold<op_div>) | on(radians, to_degrees));
// -2^2 is -(2^2) = -4, as in current pgf (PGF 2.00 computed (-2)^2, a bug the pgfplots manual
// warns about next to its "exp(0-x^2/10)" example).
auto const unary_def = guarded[on('-' > unary, apply_unary<negate>) | ('+' > unary)[assign] |
                               on(x3::lit('!') > unary, not_operator) | power_expr[assign]];
// Right associative: 2^3^2 = 2^9; the exponent may carry its own sign (e^-2).
auto const power_expr_def = postfix[assign] >> -on('^' > unary, fold<op_pow>);
auto const postfix_def = primary[assign] >>
                         *(on(bang, factorial_postfix) | on('[' > expression > ']', index_postfix) |
                           on(unit_word, apply_unit) | on(control_sequence, unknown_control_sequence));
auto const call_def = on(word >> '(', open_call) >
                      -(expression[push_arg] >> *(',' > expression[push_arg])) > call_close[assign];
auto const call_close_def = x3::lit(')')[close_call];
auto const group_def = on(x3::lit('{'), open_group) > expression[push_arg] >
                       *(',' > expression[push_arg]) > group_close[assign];
auto const group_close_def = x3::lit('}')[close_group];
auto const primary_def = on(number_literal, number_value) | ('(' > expression > ')')[assign] | group[assign] |
                         on(control_sequence, unknown_control_sequence) | call[assign] |
                         on(unary_function_name >> postfix, prefix_call) | on(word, bare_name);

BOOST_SPIRIT_DEFINE(expression, disjunction, conjunction, equality, relational, additive, multiplicative,
                    unary, power_expr, postfix, primary, call, call_close, group, group_close)

std::string describe_expected(const std::string& which) {
  if (which.size() == 3 && which.front() == '\'' && which.back() == '\'')
    return "'" + which.substr(1, 1) + "'";
  if (which.size() >= 2 && which.front() == '"' && which.back() == '"')
    return "'" + which.substr(1, which.size() - 2) + "'";
  return which;
}

// Most expressions TikZ hands over are a bare number or dimension ("1.5", "-2", "3cm"). They
// skip the grammar; anything else (exponents, octal/hex, operators) returns nullopt.
std::optional<Value> simple_number(std::string_view e, const Context& ctx) {
  std::size_t i = 0, n = e.size();
  while (i < n && is_blank(static_cast<unsigned char>(e[i]))) ++i;
  while (n > i && is_blank(static_cast<unsigned char>(e[n - 1]))) --n;
  bool negative = false;
  if (i < n && (e[i] == '-' || e[i] == '+')) negative = e[i++] == '-';
  std::size_t start = i;
  while (i < n && is_digit(static_cast<unsigned char>(e[i]))) ++i;
  std::size_t int_digits = i - start;
  if (int_digits > 1 && e[start] == '0') return std::nullopt;  // octal in pgf
  std::size_t frac_digits = 0;
  if (i < n && e[i] == '.') {
    std::size_t f = ++i;
    while (i < n && is_digit(static_cast<unsigned char>(e[i]))) ++i;
    frac_digits = i - f;
  }
  if (int_digits + frac_digits == 0 || int_digits + frac_digits > 15) return std::nullopt;
  // At most 15 digits: the digits as an integer and 10^frac_digits are both exact doubles, so
  // one division is the correctly rounded value (Clinger's fast path), as from_chars gives it.
  static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  std::uint64_t digits = 0;
  for (std::size_t k = start; k < i; ++k)
    if (e[k] != '.') digits = digits * 10 + static_cast<std::uint64_t>(e[k] - '0');
  double v = static_cast<double>(digits) / kPow10[frac_digits];
  const std::size_t number_end = i;
  while (i < n && is_blank(static_cast<unsigned char>(e[i]))) ++i;
  bool len = false;
  if (i < n) {
    if (n - i != 2) return std::nullopt;
    auto size = unit_size(e.substr(i, 2), ctx);
    if (!size) return std::nullopt;
    v *= *size;
    len = true;
  }
  if (v > kMaxDimen) return std::nullopt;  // let the grammar report the overflow
  Value out{negative && v != 0 ? -v : v, len, {}};
  if (!len && !negative) out.text = std::string(e.substr(start, number_end - start));  // "3", "3.50", ".5"
  return out;
}

Result error_result(Error e) {
  Result r;
  r.error = std::move(e);
  return r;
}

}  // namespace

std::string_view to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::syntax:
      return "syntax";
    case ErrorKind::unknown_function:
      return "unknown-function";
    case ErrorKind::unknown_name:
      return "unknown-name";
    case ErrorKind::unknown_unit:
      return "unknown-unit";
    case ErrorKind::division_by_zero:
      return "division-by-zero";
    case ErrorKind::domain:
      return "domain";
    case ErrorKind::overflow:
      return "overflow";
    case ErrorKind::limit:
      return "limit";
  }
  return "unknown";
}

// splitmix64 (Steele, Lea, Flood 2014): the state advances by the golden-ratio increment per
// draw; the output is mixed and its top 53 bits give a double in [0,1).
double next_random(std::uint64_t& state) {
  state += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

std::optional<int> function_arity(std::string_view name) {
  const Function* fn = find_function(name);
  if (!fn || fn->min_args != fn->max_args || fn->raw_args) return std::nullopt;
  return static_cast<int>(fn->min_args);
}

Result evaluate(std::string_view expr, const Context& ctx) {
  if (expr.size() > ctx.max_expression_bytes)
    return error_result(Error{ErrorKind::limit,
                              "expression of " + std::to_string(expr.size()) +
                                  " bytes exceeds the limit of " + std::to_string(ctx.max_expression_bytes),
                              0});

  // Most coordinates are plain numbers: answered before the parser's state is allocated.
  if (auto v = simple_number(expr, ctx)) {
    Result r;
    r.value = *v;
    return r;
  }

  State s;
  s.text = expr;
  s.ctx = &ctx;
  s.rng = ctx.random_state;
  s.local_rng = default_random_seed;
  s.args.reserve(16);
  s.frames.reserve(8);
  s.max_depth = std::min(ctx.max_nesting_depth, kHardNestingCap);

  const char* first = expr.data();
  const char* const last = expr.data() + expr.size();
  Val value;
  try {
    bool ok = x3::phrase_parse(first, last, x3::with<state_tag>(std::ref(s))[expression], blank, value);
    while (first != last && is_blank(static_cast<unsigned char>(*first))) ++first;
    if (!ok || first != last) {
      if (s.static_error) return error_result(*s.static_error);
      std::size_t pos = s.offset(first);
      if (first == last) return error_result(Error{ErrorKind::syntax, "empty expression", pos});
      return error_result(Error{ErrorKind::syntax, "unexpected " + describe_char(first, last), pos});
    }
  } catch (const x3::expectation_failure<const char*>& e) {
    const char* at = e.where();
    while (at != last && is_blank(static_cast<unsigned char>(*at))) ++at;
    std::size_t pos = s.offset(at);
    if (s.static_error && s.static_error->position < pos) return error_result(*s.static_error);
    std::string found = at == last ? std::string("end of expression") : describe_char(at, last);
    return error_result(
        Error{ErrorKind::syntax, "expected " + describe_expected(e.which()) + ", found " + found, pos});
  } catch (const too_deep& e) {
    return error_result(Error{
        ErrorKind::limit, "expression nested deeper than " + std::to_string(s.max_depth) + " levels", e.pos});
  }
  if (s.static_error) return error_result(*s.static_error);
  if (value.err >= 0) return error_result(s.errors[static_cast<std::size_t>(value.err)]);
  if (value.arr >= 0)
    return error_result(Error{ErrorKind::syntax, "expression is an array, not a number", 0});
  Result r;
  r.value = Value{value.v, value.len, {}};
  if (value.text == Text::literal) r.value->text = std::string(expr.substr(value.lit_begin, value.lit_len));
  else if (value.text == Text::integer) r.value->text = std::to_string(static_cast<long long>(value.v));
  return r;
}

std::optional<double> parse_dimension(std::string_view text, const Context& ctx) {
  // <optional signs> <decimal constant> <optional spaces> <unit>, TeXbook chapter 10.
  bool negative = false;
  double magnitude = 0;
  std::string_view unit;
  auto signs = *(x3::lit('-')[([&](auto&) { negative = !negative; })] | x3::lit('+'));
  auto decimal =
      x3::raw[+x3::char_('0', '9') >> -('.' >> *x3::char_('0', '9')) | '.' >> +x3::char_('0', '9')];
  auto keep_decimal = [&](auto& c) {
    auto r = x3::_attr(c);
    std::string_view d(&*r.begin(), static_cast<std::size_t>(r.size()));
    if (d.front() == '.') {
      std::string padded = "0" + std::string(d);
      std::from_chars(padded.data(), padded.data() + padded.size(), magnitude);
    } else {
      std::from_chars(d.data(), d.data() + d.size(), magnitude);
    }
  };
  auto keep_unit = [&](auto& c) { unit = x3::_attr(c); };
  const char* first = text.data();
  const char* last = text.data() + text.size();
  bool ok = x3::phrase_parse(first, last, signs >> decimal[keep_decimal] >> word[keep_unit], blank);
  while (first != last && is_blank(static_cast<unsigned char>(*first))) ++first;
  if (!ok || first != last) return std::nullopt;
  auto size = unit_size(unit, ctx);
  if (!size) return std::nullopt;
  double v = magnitude * *size;
  if (!std::isfinite(v) || v > kMaxDimen) return std::nullopt;
  return negative && v != 0 ? -v : v;
}

std::string format_number(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
  std::array<char, 400> buf{};
  auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::fixed, 5);
  std::string s(buf.data(), r.ptr);
  while (s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
  if (s == "-0.0") s = "0.0";
  return s;
}

}  // namespace tikzlint::tex::pgfmath
