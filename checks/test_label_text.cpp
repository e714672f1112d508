#include <doctest/doctest.h>

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
}

TEST_CASE("plain text drops markup but keeps what is printed") {
  CHECK(plain_text("\\textbf{Area} = $12\\,\\text{cm}^2$") == "Area = 12 cm²");
  CHECK(plain_text("{\\small 5 cm}") == "5 cm");
}
