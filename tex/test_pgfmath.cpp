// Unit tests of pgfmath: reference values are the examples of the pgfmanual, part VIII
// ("Syntax for Mathematical Expressions"), computed by pgf's basic engine.
#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "tex/pgfmath.hpp"

using namespace tikzlint::tex::pgfmath;

namespace {

double num(std::string_view expr, const Context& ctx = {}) {
  Result r = evaluate(expr, ctx);
  INFO("expression: ", std::string(expr));
  if (!r) {
    INFO("error: ", r.error ? r.error->message : std::string("none"));
    FAIL("evaluation failed");
  }
  REQUIRE(r.value.has_value());
  return r.value->number;
}

bool is_len(std::string_view expr) {
  Result r = evaluate(expr);
  REQUIRE(r.value.has_value());
  return r.value->is_length;
}

Error err(std::string_view expr, const Context& ctx = {}) {
  Result r = evaluate(expr, ctx);
  INFO("expression: ", std::string(expr));
  REQUIRE_FALSE(r.value.has_value());
  REQUIRE(r.error.has_value());
  return *r.error;
}

constexpr double kCm = 72.27 / 2.54;

}  // namespace

TEST_CASE("pgfmath: numbers") {
  CHECK(num("42") == 42);
  CHECK(num("1.5") == 1.5);
  CHECK(num(".5") == 0.5);
  CHECK(num("5.") == 5);
  CHECK(num("1e3") == 1000);
  CHECK(num("1e-2") == doctest::Approx(0.01));
  CHECK(num("1.234e+2") == doctest::Approx(123.4));
  CHECK(num("1E2") == 100);
  CHECK(num("  7  ") == 7);
  // pgfmanual: 0x / 0b prefixes and a leading zero (octal) change the base.
  CHECK(num("0x1F") == 31);
  CHECK(num("0b101") == 5);
  CHECK(num("010") == 8);
  CHECK(num("0") == 0);
  CHECK(num("0.25") == 0.25);
  CHECK(num("1e-400") == 0);
}

TEST_CASE("pgfmath: precedence and associativity") {
  CHECK(num("1+2*3") == 7);
  CHECK(num("(1+2)*3") == 9);
  CHECK(num("10-4-3") == 3);
  CHECK(num("24/4/2") == 3);
  CHECK(num("2^3^2") == 512);  // right associative
  CHECK(num("-2^2") == -4);    // unary minus is looser than ^
  CHECK(num("2^-1") == 0.5);
  CHECK(num("2*-3") == -6);
  CHECK(num("--3") == 3);
  CHECK(num("+3") == 3);
  CHECK(num("2^3!") == 64);  // postfix binds tightest
  CHECK(num("3!") == 6);
  CHECK(num("(2+1)!") == 6);
  CHECK(num("1 + 2 < 4") == 1);
  CHECK(num("1 < 2 == 1") == 1);
  CHECK(num("1 == 1 && 0 == 1") == 0);
  CHECK(num("1 == 1 || 0 == 1") == 1);
  CHECK(num("0 && 1 || 1") == 1);
  CHECK(num("1 || 0 && 0") == 1);  // && binds tighter than ||
  CHECK(num("!0") == 1);
  CHECK(num("!2") == 0);
  CHECK(num("3 != 4") == 1);
  CHECK(num("3!=6") == 1);  // "!=" wins over factorial
  CHECK(num("2 <= 2") == 1);
  CHECK(num("3 >= 4") == 0);
  CHECK(num("3 > 2") == 1);
  CHECK(num("1 ? 2 : 3") == 2);
  CHECK(num("0 ? 2 : 3") == 3);
  CHECK(num("1 + 0 ? 5 : 6") == 5);
  CHECK(num("0 ? 1 : 0 ? 2 : 3") == 3);  // right associative
  CHECK(num("{2+3}*2") == 10);           // braces group
  CHECK(num("(e^2-e^-2)/2") == doctest::Approx(std::sinh(2.0)));
  CHECK(num("-abs(4*-3)") == -12);
}

TEST_CASE("pgfmath: the r operator has the precedence of multiplication") {
  CHECK(num("pi r") == doctest::Approx(180));
  CHECK(num("sin(pi/2 r)") == doctest::Approx(1));
  CHECK(num("sin(.5*pi r)*60") == doctest::Approx(60));
  CHECK(num("1 + pi r") == doctest::Approx(181));
  CHECK(num("pi r * 2") == doctest::Approx(360));
}

TEST_CASE("pgfmath: arithmetic functions") {
  CHECK(num("add(75,6)") == 81);
  CHECK(num("subtract(75,6)") == 69);
  CHECK(num("neg(50)") == -50);
  CHECK(num("multiply(75,6)") == 450);
  CHECK(num("divide(75,6)") == 12.5);
  CHECK(num("div(75,9)") == 8);
  CHECK(num("factorial(5)") == 120);
  CHECK(num("sqrt(10)") == doctest::Approx(3.16228).epsilon(1e-5));
  CHECK(num("pow(2,7)") == 128);
  CHECK(num("e") == doctest::Approx(2.718281828));
  CHECK(num("exp(1)") == doctest::Approx(2.718281828));
  CHECK(num("ln(10)") == doctest::Approx(2.302585));
  CHECK(num("ln(exp(5))") == doctest::Approx(5));
  CHECK(num("log10(100)") == doctest::Approx(2));
  CHECK(num("log2(128)") == doctest::Approx(7));
  CHECK(num("abs(-5)") == 5);
  CHECK(num("mod(20,6)") == 2);
  CHECK(num("mod(-100,30)") == -10);
  CHECK(num("mod(-7,3)") == -1);
  CHECK(num("Mod(-100,30)") == 20);
  CHECK(num("Mod(-7,3)") == 2);
  CHECK(num("sign(-5)") == -1);
  CHECK(num("sign(0)") == 0);
  CHECK(num("sign(5)") == 1);
  CHECK(num("veclen(3,4)") == 5);
  CHECK(num("veclen(12,5)") == 13);
  CHECK(num("max(3,4,-2,250,-8,100)") == 250);
  CHECK(num("min(3,4,-2,250,-8,100)") == -8);
  CHECK(num("max(7)") == 7);
  CHECK(num("max({1,9},{3})") == 9);  // arrays are flattened, as \pgfmathmax's comma lists
}

TEST_CASE("pgfmath: rounding and integer functions") {
  CHECK(num("round(32.5/17)") == 2);
  CHECK(num("round(398/12)") == 33);
  CHECK(num("round(1.5)") == 2);
  CHECK(num("round(-1.5)") == -2);  // asymmetric half-up
  CHECK(num("floor(32.5/17)") == 1);
  CHECK(num("floor(-398/12)") == -34);
  CHECK(num("ceil(32.5/17)") == 2);
  CHECK(num("ceil(-398/12)") == -33);
  CHECK(num("int(32.5/17)") == 1);
  CHECK(num("int(-3.7)") == -3);
  CHECK(num("frac(32.5/17)") == doctest::Approx(0.91176).epsilon(1e-4));
  CHECK(num("real(4)") == 4);
  CHECK(num("gcd(42,56)") == 14);
  CHECK(num("isodd(2)") == 0);
  CHECK(num("isodd(3)") == 1);
  CHECK(num("iseven(2)") == 1);
  CHECK(num("iseven(3)") == 0);
  CHECK(num("isprime(1)") == 0);
  CHECK(num("isprime(2)") == 1);
  CHECK(num("isprime(31)") == 1);
  CHECK(num("isprime(64)") == 0);
}

TEST_CASE("pgfmath: trigonometry is in degrees") {
  CHECK(num("pi") == doctest::Approx(3.141592654));
  CHECK(num("rad(90)") == doctest::Approx(1.570796));
  CHECK(num("deg(3*pi/2)") == doctest::Approx(270));
  CHECK(num("sin(30)") == doctest::Approx(0.5));
  CHECK(num("sin(90)") == 1);
  CHECK(num("sin(180)") == 0);
  CHECK(num("cos(60)") == doctest::Approx(0.5));
  CHECK(num("cos(90)") == 0);
  CHECK(num("cos(-360)") == 1);
  CHECK(num("tan(45)") == doctest::Approx(1));
  CHECK(num("sec(60)") == doctest::Approx(2));
  CHECK(num("cosec(30)") == doctest::Approx(2));
  CHECK(num("cot(45)") == doctest::Approx(1));
  CHECK(num("asin(1)") == doctest::Approx(90));
  CHECK(num("acos(0.5)") == doctest::Approx(60));
  CHECK(num("atan(1)") == doctest::Approx(45));
  CHECK(num("atan2(1,1)") == doctest::Approx(45));
  CHECK(num("atan2(-4,3)") == doctest::Approx(-53.1301));  // atan2(y, x)
  CHECK(num("atan2(1,-1)") == doctest::Approx(135));
  CHECK(num("sinh(1)") == doctest::Approx(std::sinh(1.0)));
  CHECK(num("cosh(1)") == doctest::Approx(std::cosh(1.0)));
  CHECK(num("tanh(1)") == doctest::Approx(std::tanh(1.0)));
  CHECK(num("sin 30*10") == doctest::Approx(5));  // pgfmanual: functions bind tightest
  CHECK(num("cos 60") == doctest::Approx(0.5));
}

TEST_CASE("pgfmath: comparison and logic functions") {
  CHECK(num("equal(20,20)") == 1);
  CHECK(num("greater(20,25)") == 0);
  CHECK(num("less(20,25)") == 1);
  CHECK(num("notequal(20,25)") == 1);
  CHECK(num("notgreater(20,25)") == 1);
  CHECK(num("notless(20,25)") == 0);
  CHECK(num("and(5>4,6>7)") == 0);
  CHECK(num("or(5>4,6>7)") == 1);
  CHECK(num("not(true)") == 0);
  CHECK(num("true") == 1);
  CHECK(num("false") == 0);
  CHECK(num("ifthenelse(5==4,1,2)") == 2);
  CHECK(num("ifthenelse(1,3,1/0)") == 3);  // the branch not taken may fail
}

TEST_CASE("pgfmath: arrays") {
  CHECK(num("{1,1,-1,-1}[2]") == -1);
  CHECK(num("{7,-3,4,-9,11}[3]") == -9);
  CHECK(num("{{1,0,0},{0,1,0},{0,0,1}}[1][1]") == 1);
  CHECK(num("{{1,0,0},{0,1,0},{0,0,1}}[2][0]") == 0);
  CHECK(num("{1, 2+1, 3*3}[2]") == 9);
  CHECK(num("array({9,13,17,21},2)") == 17);
  CHECK(num("dim({1,2,3,4})") == 4);
  CHECK(num("{1,2}[1.7]") == 2);  // the index is truncated
  CHECK(err("{1,2}[2]").kind == ErrorKind::domain);
  CHECK(err("{1,2}[-1]").kind == ErrorKind::domain);
  CHECK(err("{1,2}").kind == ErrorKind::syntax);
  CHECK(err("{1,2}+1").kind == ErrorKind::syntax);
  CHECK(err("3[0]").kind == ErrorKind::syntax);
}

TEST_CASE("pgfmath: units convert to pt and make a length") {
  CHECK(num("1pt") == 1);
  CHECK(num("1in") == doctest::Approx(72.27));
  CHECK(num("1cm") == doctest::Approx(kCm));
  CHECK(num("10mm") == doctest::Approx(kCm));
  CHECK(num("72bp") == doctest::Approx(72.27));
  CHECK(num("1pc") == doctest::Approx(12));
  CHECK(num("1157dd") == doctest::Approx(1238));
  CHECK(num("1cc") == doctest::Approx(12 * 1238.0 / 1157.0));
  CHECK(num("65536sp") == doctest::Approx(1));  // the literal may exceed the range, the length not
  CHECK(num("16384sp*2") == doctest::Approx(0.5));
  CHECK(num("1.2 cm") == doctest::Approx(1.2 * kCm));
  CHECK(num("2PT") == 2);  // TeX keywords are case-insensitive
  CHECK(num("1mu+3*4mu") == 13);  // pgfmanual: mu is treated as pt
  Context ctx;
  ctx.em_pt = 12;
  ctx.ex_pt = 5;
  CHECK(num("2em", ctx) == 24);
  CHECK(num("2ex", ctx) == 10);
  CHECK(num("2em") == 20);  // default: cmr10
  CHECK(num("2pt+3.5pt") == 5.5);
  CHECK(num("2*3cm") == doctest::Approx(6 * kCm));
  CHECK(num("1cm+1") == doctest::Approx(kCm + 1));  // plain numbers count as pt
  CHECK(num("(1+1)cm") == doctest::Approx(2 * kCm));
  CHECK(num("-.5in") == doctest::Approx(-0.5 * 72.27));
  CHECK(is_len("1cm"));
  CHECK(is_len("2*1cm"));
  CHECK(is_len("max(1,2pt)"));
  CHECK_FALSE(is_len("2*3"));
  CHECK_FALSE(is_len("sin(30)"));
  CHECK_FALSE(is_len("scalar(3pt)"));
  CHECK(num("scalar(3pt)") == 3);
  CHECK(err("1pt pt").kind == ErrorKind::syntax);
}

TEST_CASE("pgfmath: rand, rnd and random are deterministic") {
  // Same input, same state: same output.
  CHECK(num("rnd") == num("rnd"));
  CHECK(num("rand") == num("rand"));
  std::uint64_t a = 12345, b = 12345;
  Context ca, cb;
  ca.random_state = &a;
  cb.random_state = &b;
  double first = num("rnd", ca);
  CHECK(first == num("rnd", cb));
  CHECK(a == b);
  CHECK(a != 12345);               // the state advanced
  CHECK(num("rnd", ca) != first);  // the next draw differs
  // A null state always starts from the fixed seed.
  std::uint64_t seed = default_random_seed;
  CHECK(num("rnd") == next_random(seed));
  // Ranges (pgfmanual: rnd in [0,1], rand in [-1,1], random(n) in 1..n, random(m,n) in m..n).
  std::uint64_t s = 7;
  Context c;
  c.random_state = &s;
  bool saw_low = false, saw_high = false;
  for (int i = 0; i < 200; ++i) {
    double u = num("rnd", c);
    CHECK((u >= 0 && u <= 1));
    double v = num("rand", c);
    CHECK((v >= -1 && v <= 1));
    double k = num("random(6)", c);
    CHECK((k >= 1 && k <= 6 && k == std::floor(k)));
    saw_low = saw_low || k == 1;
    saw_high = saw_high || k == 6;
    double m = num("random(3,5)", c);
    CHECK((m >= 3 && m <= 5 && m == std::floor(m)));
    double w = num("random()", c);
    CHECK((w >= 0 && w <= 1));
  }
  CHECK(saw_low);
  CHECK(saw_high);
  CHECK(err("random(5,3)").kind == ErrorKind::domain);
}

TEST_CASE("pgfmath: unknown function") {
  Error e = err("2*foo(3)");
  CHECK(e.kind == ErrorKind::unknown_function);
  CHECK(e.message == "unknown function 'foo'");
  CHECK(e.position == 2);
  CHECK(err("width(3)").kind == ErrorKind::unknown_function);
}

TEST_CASE("pgfmath: unknown names are never silently zero") {
  Error e = err("1 + \\x");
  CHECK(e.kind == ErrorKind::unknown_name);
  CHECK(e.position == 4);
  CHECK(e.message.find("\\x") != std::string::npos);
  CHECK(err("0.5\\pgf@x").kind == ErrorKind::unknown_name);
  Error n = err("2*radius");
  CHECK(n.kind == ErrorKind::unknown_name);
  CHECK(n.message == "unknown name 'radius'");
  CHECK(n.position == 2);
  // Even in the branch that is not taken.
  CHECK(err("1 ? 2 : \\y").kind == ErrorKind::unknown_name);
}

TEST_CASE("pgfmath: unknown unit") {
  Error e = err("3xy");
  CHECK(e.kind == ErrorKind::unknown_unit);
  CHECK(e.message == "unknown unit 'xy'");
  CHECK(e.position == 1);
  CHECK(err("2 pi").kind == ErrorKind::unknown_unit);
  CHECK(err("2px").kind == ErrorKind::unknown_unit);
}

TEST_CASE("pgfmath: division by zero") {
  Error e = err("1/0");
  CHECK(e.kind == ErrorKind::division_by_zero);
  CHECK(e.position == 1);
  CHECK(err("divide(1,0)").kind == ErrorKind::division_by_zero);
  CHECK(err("mod(1,0)").kind == ErrorKind::division_by_zero);
  CHECK(err("Mod(1,0)").kind == ErrorKind::division_by_zero);
  CHECK(err("tan(90)").kind == ErrorKind::division_by_zero);
  CHECK(err("cot(0)").kind == ErrorKind::division_by_zero);
  CHECK(err("1/(2-2)").kind == ErrorKind::division_by_zero);
  // The branch of ?: that is not taken does not fail the expression.
  CHECK(num("1 ? 2 : 1/0") == 2);
  Error taken = err("0 ? 2 : 1/0");
  CHECK(taken.kind == ErrorKind::division_by_zero);
  CHECK(taken.position == 9);
}

TEST_CASE("pgfmath: domain errors") {
  Error e = err("sqrt(-1)");
  CHECK(e.kind == ErrorKind::domain);
  CHECK(e.position == 0);
  CHECK(err("ln(0)").kind == ErrorKind::domain);
  CHECK(err("log10(-2)").kind == ErrorKind::domain);
  CHECK(err("acos(2)").kind == ErrorKind::domain);
  CHECK(err("asin(-1.5)").kind == ErrorKind::domain);
  CHECK(err("factorial(-1)").kind == ErrorKind::domain);
  CHECK(err("(-8)^(1/3)").kind == ErrorKind::domain);
  CHECK(num("(-2)^3") == -8);
}

TEST_CASE("pgfmath: overflow is TeX's dimension too large") {
  CHECK(err("1e309").kind == ErrorKind::overflow);
  CHECK(err("20000").kind == ErrorKind::overflow);
  CHECK(err("100*200").kind == ErrorKind::overflow);
  CHECK(err("600cm").kind == ErrorKind::overflow);
  CHECK(err("8!").kind == ErrorKind::overflow);
  CHECK(err("exp(100)").kind == ErrorKind::overflow);
  CHECK(err("2^20").kind == ErrorKind::overflow);
  CHECK(num("16383") == 16383);
  CHECK(num("7!") == 5040);
  CHECK(err("sinh(1000)").kind == ErrorKind::overflow);
}

TEST_CASE("pgfmath: syntax errors carry a position") {
  Error e = err("2+");
  CHECK(e.kind == ErrorKind::syntax);
  CHECK(e.position == 2);
  CHECK(e.message == "expected operand, found end of expression");
  Error p = err("(1+2");
  CHECK(p.kind == ErrorKind::syntax);
  CHECK(p.message == "expected ')', found end of expression");
  CHECK(p.position == 4);
  Error t = err("2 3");
  CHECK(t.kind == ErrorKind::syntax);
  CHECK(t.position == 2);
  CHECK(err("").kind == ErrorKind::syntax);
  CHECK(err("   ").kind == ErrorKind::syntax);
  CHECK(err("sin(30").message == "expected ')', found end of expression");
  CHECK(err("{1,2").message == "expected '}', found end of expression");
  CHECK(err("1 ? 2").message == "expected ':', found end of expression");
  CHECK(err("2*/3").position == 2);
  CHECK(err("sin(1,2)").kind == ErrorKind::syntax);
  CHECK(err("atan2(1)").message == "function 'atan2' takes 2 arguments, got 1");
  CHECK(err("sin").kind == ErrorKind::syntax);
  CHECK(err("max()").kind == ErrorKind::syntax);
  CHECK(err("\"quoted\"").kind == ErrorKind::syntax);
}

TEST_CASE("pgfmath: budgets") {
  Context ctx;
  ctx.max_nesting_depth = 8;
  CHECK(num("((((1))))", ctx) == 1);
  Error deep = err("((((((((((1))))))))))", ctx);
  CHECK(deep.kind == ErrorKind::limit);
  CHECK(err("----------1", ctx).kind == ErrorKind::limit);
  ctx.max_expression_bytes = 4;
  CHECK(err("1+2+3", ctx).kind == ErrorKind::limit);
  // Hostile input is an error, never a stack overflow.
  CHECK(err(std::string(100000, '(')).kind == ErrorKind::limit);
  CHECK(err(std::string(50000, '-') + "1").kind == ErrorKind::limit);
  // Long flat chains are folded, not nested.
  std::string chain = "0";
  for (int i = 0; i < 5000; ++i) chain += "+1";
  CHECK(num(chain) == 5000);
}

TEST_CASE("pgfmath: every error kind has a name") {
  CHECK(to_string(ErrorKind::syntax) == "syntax");
  CHECK(to_string(ErrorKind::unknown_function) == "unknown-function");
  CHECK(to_string(ErrorKind::unknown_name) == "unknown-name");
  CHECK(to_string(ErrorKind::unknown_unit) == "unknown-unit");
  CHECK(to_string(ErrorKind::division_by_zero) == "division-by-zero");
  CHECK(to_string(ErrorKind::domain) == "domain");
  CHECK(to_string(ErrorKind::overflow) == "overflow");
  CHECK(to_string(ErrorKind::limit) == "limit");
}

TEST_CASE("pgfmath: bytes above 0x7f are rejected, not misread") {
  CHECK(err("2\xc3\xa9").kind == ErrorKind::syntax);
  CHECK(err("\xff").kind == ErrorKind::syntax);
}

TEST_CASE("parse_dimension") {
  CHECK(parse_dimension("3pt") == doctest::Approx(3));
  CHECK(parse_dimension("-.5in") == doctest::Approx(-0.5 * 72.27));
  CHECK(parse_dimension("1.2 cm") == doctest::Approx(1.2 * kCm));
  CHECK(parse_dimension(" 2em ") == doctest::Approx(20));
  CHECK(parse_dimension("--3pt") == doctest::Approx(3));  // TeX: signs multiply
  CHECK(parse_dimension("+ 3 mm") == doctest::Approx(3 * 72.27 / 25.4));
  CHECK(parse_dimension("4.PT") == doctest::Approx(4));
  Context ctx;
  ctx.ex_pt = 5;
  CHECK(parse_dimension("2ex", ctx) == doctest::Approx(10));
  CHECK_FALSE(parse_dimension("0").has_value());  // TeX needs a unit
  CHECK_FALSE(parse_dimension("3").has_value());
  CHECK_FALSE(parse_dimension("3xy").has_value());
  CHECK_FALSE(parse_dimension("1pt+2pt").has_value());
  CHECK_FALSE(parse_dimension("").has_value());
  CHECK_FALSE(parse_dimension("pt").has_value());
  CHECK_FALSE(parse_dimension("20000pt").has_value());
}

TEST_CASE("format_number prints like \\pgfmathresult") {
  CHECK(format_number(3) == "3.0");
  CHECK(format_number(0.5) == "0.5");
  CHECK(format_number(-2) == "-2.0");
  CHECK(format_number(1.0 / 3) == "0.33333");
  CHECK(format_number(2.0 / 3) == "0.66667");
  CHECK(format_number(0) == "0.0");
  CHECK(format_number(-0.0) == "0.0");
  CHECK(format_number(-0.000001) == "0.0");
  CHECK(format_number(72.27 / 2.54) == "28.45276");
  CHECK(format_number(16383.99998) == "16383.99998");
  CHECK(format_number(1e-7) == "0.0");
}

TEST_CASE("pgfmath: bare numbers (fast path) agree with the full grammar") {
  for (const char* text : {"3",       "-2.5cm", "+.5", "5.",    " 12 pt ", "0",        "-0",    "2em",
                           "1.2 cm",  "007",    "010", "0x10",  "1e3",     "16383.99", "20000", "-16384",
                           "65536sp", "3xy",    "3 e", "1.5.2", "-",       ".",        "2ex"}) {
    INFO("expression: ", text);
    Result bare = evaluate(text);
    Result grouped = evaluate("(" + std::string(text) + ")");
    REQUIRE(bare.value.has_value() == grouped.value.has_value());
    if (bare.value) {
      CHECK(bare.value->number == grouped.value->number);
      CHECK(bare.value->is_length == grouped.value->is_length);
    } else {
      CHECK(bare.error->kind == grouped.error->kind);
    }
  }
}

TEST_CASE("pgfmath: the leftmost static problem is reported") {
  Error e = err("foo(1) + \\x + 2qq");
  CHECK(e.kind == ErrorKind::unknown_function);
  CHECK(e.position == 0);
  Error n = err("1 + \\x + foo(1)");
  CHECK(n.kind == ErrorKind::unknown_name);
  CHECK(n.position == 4);
  // A static problem before a syntax error wins; the syntax error is a consequence.
  CHECK(err("\\x + (").kind == ErrorKind::unknown_name);
  CHECK(err("(*) + \\x").kind == ErrorKind::syntax);  // the parse stops before the name
}

TEST_CASE("pgfmath: messages stay valid UTF-8 and point past blanks") {
  CHECK(err("2\xc3\xa9").message == "unexpected '\xc3\xa9'");
  CHECK(err("\xff").message == "unexpected byte 0xff");
  CHECK(err("\\\xff").message == "unknown name '\\' (macro not expanded)");
  CHECK(err("\\\xc3\xa9").message == "unknown name '\\\xc3\xa9' (macro not expanded)");
  Error e = err("1+ \t ");
  CHECK(e.message == "expected operand, found end of expression");
  CHECK(e.position == 5);
  Error p = err("(1   x2");
  CHECK(p.kind == ErrorKind::unknown_unit);
  Error q = err("(1 ; 2)");
  CHECK(q.message == "expected ')', found ';'");
  CHECK(q.position == 3);
}

TEST_CASE("pgfmath: a lone backslash is an unknown name") {
  // Found by the fuzzer (tex/fuzz/fuzz_pgfmath.cpp): reading past the end of "\".
  CHECK(err("\\").kind == ErrorKind::unknown_name);
  CHECK(err("1+\\").kind == ErrorKind::unknown_name);
}

TEST_CASE("a plain decimal evaluates to the double from_chars reads, bit for bit") {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int> len(1, 15), digit(0, 9), sign(0, 3);
  Context ctx;
  int checked = 0;
  for (int i = 0; i < 100000; ++i) {
    const int total = len(rng);
    std::uniform_int_distribution<int> point(0, std::min(total, 4));  // below 10^4: pgf stops at 16383.99999
    const int int_digits = point(rng);
    std::string number;
    for (int k = 0; k < total; ++k) {
      if (k == int_digits) number += '.';
      number += static_cast<char>('0' + digit(rng));
    }
    if (int_digits > 1 && number[0] == '0') number[0] = '1';  // a leading 0 is octal in pgf
    if (number.front() == '.') number.insert(number.begin(), '0');
    const int s = sign(rng);
    const std::string text = (s == 0 ? "-" : s == 1 ? "+" : "") + number;
    double expected = 0;
    REQUIRE(std::from_chars(number.data(), number.data() + number.size(), expected).ec == std::errc{});
    if (expected > 16383.99998) continue;  // too large for pgfmath: an error, tested elsewhere
    if (s == 0 && expected != 0) expected = -expected;
    auto r = evaluate(text, ctx);
    INFO(text);
    REQUIRE(r.value);
    CHECK(std::memcmp(&r.value->number, &expected, sizeof expected) == 0);
    ++checked;
  }
  CHECK(checked > 90000);
}
