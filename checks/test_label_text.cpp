#include <doctest/doctest.h>

#include <random>
#include <regex>
#include <string>
#include <vector>

#include "checks/label_text.hpp"

using namespace tikzlint::checks;

TEST_CASE("degree signs in every spelling make an angle label with its value") {
  for (const char* t : {"$60^\\circ$", "60^{\\circ}", "60°", "$60\\degree$", "\\(60^\\circ\\)"}) {
    CAPTURE(t);
    LabelText l = read_label(t);
    CHECK(l.kind == LabelKind::angle);
    REQUIRE(l.value);
    CHECK(*l.value == doctest::Approx(60));
  }
  LabelText named = read_label("$x^\\circ$");
  CHECK(named.kind == LabelKind::angle);
  CHECK_FALSE(named.value);
  CHECK(read_label("$\\theta$").kind == LabelKind::angle);
}

TEST_CASE("numbers with units are lengths, squared units and A = are areas") {
  LabelText cm = read_label("5 cm");
  CHECK(cm.kind == LabelKind::length);
  CHECK(*cm.value == doctest::Approx(5));
  CHECK(cm.unit == "cm");
  CHECK(cm.unit_in_m == doctest::Approx(0.01));
  CHECK(read_label("$3$").kind == LabelKind::length);
  CHECK(*read_label("2.5 in").value == doctest::Approx(2.5));
  CHECK(*read_label("$\\frac{3}{2}$").value == doctest::Approx(1.5));
  CHECK(read_label("8 units").kind == LabelKind::length);
  CHECK(read_label("AB = 7").kind == LabelKind::length);
  CHECK(read_label("12 m²").kind == LabelKind::area);
  CHECK(read_label("$12 \\text{ cm}^2$").kind == LabelKind::area);
  CHECK(read_label("A = 12").kind == LabelKind::area);
  CHECK(read_label("24 sq units").kind == LabelKind::area);
}

TEST_CASE("algebraic and compound texts are not numeric labels") {
  CHECK(read_label("2x").kind != LabelKind::length);
  CHECK(read_label("$3 \\times 9 = 27$").kind == LabelKind::text);
  CHECK(read_label("(5,6)").kind == LabelKind::text);
  CHECK(read_label("V = 24").kind != LabelKind::length);
  CHECK(read_label("Triangle ABC").kind == LabelKind::text);
}

TEST_CASE("short identifiers are names") {
  CHECK(read_label("$A$").kind == LabelKind::name);
  CHECK(read_label("B'").kind == LabelKind::name);
  CHECK(read_label("$h_1$").kind == LabelKind::name);
  CHECK(read_label("$h_1$").plain == "h1");
  // a capital with a lower-case index in math mode is a point's name; the same letters in text
  // mode are a word
  CHECK(read_label("$Ge$").kind == LabelKind::name);
  CHECK(read_label("$I_a$").kind == LabelKind::name);
  CHECK(read_label("$M_b'$").kind == LabelKind::name);
  CHECK(read_label("On").kind == LabelKind::text);
  CHECK(read_label("$\\text{On}$").kind == LabelKind::text);
  CHECK(read_label("$Abc$").kind == LabelKind::text);
}

TEST_CASE("plain text drops markup but keeps what is printed") {
  CHECK(plain_text("\\textbf{Area} = $12\\,\\text{cm}^2$") == "Area = 12 cm²");
  CHECK(plain_text("{\\small 5 cm}") == "5 cm");
}

TEST_CASE("label_patterns match as the std::regex they replace, groups included") {
  const std::regex degree(R"((-?\d+(?:\.\d+)?)\s*°)");
  const std::regex measure(
      R"(^(?:([A-Za-z][A-Za-z0-9']{0,9})\s*[=:]\s*)?(\d+(?:\.\d+)?|\.\d+|\d+\s*/\s*\d+)\s*)"
      R"(((?:sq\.?|square)\s+)?([A-Za-z]+)?\s*(²|\^2)?\.?$)");
  const std::regex identifier(R"(^(?:[A-Za-z]'{0,2}|[A-Za-z][0-9]{1,2}'?|[A-Z]{2,3}'?|α|β|γ|θ|φ|δ|∠ ?[A-Z]{1,3})$)");
  const std::vector<std::string> pieces = {
      "0", "1", "7", "12", "345", ".", "-", " ", "  ", "\t", "/", "=", ":", "'", "''", "sq", "sq.", "square",
      "s", "q", "m", "cm", "in", "ft", "units", "A", "AB", "XYZW", "Area", "h", "x", "²", "^2", "^", "°", "∠",
      "∠ ", "α", "θ", "δ", "π", "×", "abcdefghijk", "P", "S", "e", "3.5", ".5", "1/2", " / "};
  std::vector<std::string> inputs = {"5 cm", "3", "2.5 in", "A = 12 cm²", "Area: 4 sq. m", "3/4", "3 / 4 ft",
                                     ".5", "5.", "60°", "-45.5 °", "x°", "AB", "B'", "h1", "∠ ABC", "∠ABCD",
                                     "Cube", "7×4×5 cm", "3 × 9 = 27", "12 square units", "V = 3", ""};
  std::mt19937 rng(5);
  for (int round = 0; round < 200000; ++round) {
    std::string s;
    for (int k = 1 + static_cast<int>(rng() % 6); k > 0; --k) s += pieces[rng() % pieces.size()];
    inputs.push_back(s);
  }
  std::size_t measured = 0, named = 0, angles = 0;
  for (const std::string& s : inputs) {
    CAPTURE(s);
    std::smatch m;
    bool found = std::regex_search(s, m, degree);
    auto deg = label_patterns::number_before_degree(s);
    REQUIRE(found == deg.has_value());
    if (found) {
      CHECK(m[1].str() == *deg);
      ++angles;
    }
    bool whole = std::regex_match(s, m, measure);
    auto me = label_patterns::measure(s);
    REQUIRE(whole == me.has_value());
    if (whole) {
      ++measured;
      CHECK(m[1].str() == me->prefix);
      CHECK(m[2].str() == me->number);
      CHECK(m[3].str() == me->square);
      CHECK(m[4].str() == me->unit);
      CHECK(m[5].matched == me->squared);
    }
    bool id = std::regex_match(s, identifier);
    CHECK(id == label_patterns::identifier(s));
    named += id;
  }
  // The generated strings reach every pattern (not only their failures).
  CHECK(measured > 1000);
  CHECK(named > 100);
  CHECK(angles > 1000);
}
