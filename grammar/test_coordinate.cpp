// grammar/test_coordinate.cpp: every coordinate form of parse_coordinate, and parse_calc.
#include <doctest/doctest.h>

#include "grammar/grammar.hpp"

using namespace tikzlint::grammar;
using Form = Coordinate::Form;

TEST_CASE("cartesian coordinates keep their expressions and units") {
  Coordinate c = parse_coordinate("1,2");
  CHECK(c.form == Form::Cartesian);
  CHECK(c.parts == std::vector<std::string>{"1", "2"});
  CHECK(parse_coordinate("1,2,3").parts.size() == 3);
  CHECK(parse_coordinate("1cm, 2pt").parts == std::vector<std::string>{"1cm", "2pt"});
  CHECK(parse_coordinate("-.5, 3").parts == std::vector<std::string>{"-.5", "3"});
  Coordinate m = parse_coordinate("{2*cos(30)},{sin(30)*1cm}");
  CHECK(m.form == Form::Cartesian);
  CHECK(m.parts == std::vector<std::string>{"{2*cos(30)}", "{sin(30)*1cm}"});
  // A comma inside braces does not split.
  CHECK(parse_coordinate("{max(1,2)},0").parts == std::vector<std::string>{"{max(1,2)}", "0"});
  CHECK(parse_coordinate("1,2,3,4").form == Form::Raw);
}

TEST_CASE("polar coordinates, with one radius or two") {
  Coordinate p = parse_coordinate("30:1cm");
  CHECK(p.form == Form::Polar);
  CHECK(p.parts == std::vector<std::string>{"30", "1cm"});
  Coordinate e = parse_coordinate("30:2 and 1");
  CHECK(e.form == Form::Polar);
  CHECK(e.parts == std::vector<std::string>{"30", "2", "1"});
  CHECK(parse_coordinate("{-45}:{sqrt(2)}").parts == std::vector<std::string>{"{-45}", "{sqrt(2)}"});
  CHECK(parse_coordinate("1:2:3").form == Form::Raw);
}

TEST_CASE("named coordinates and anchors") {
  Coordinate a = parse_coordinate("A");
  CHECK(a.form == Form::Named);
  CHECK(a.name == "A");
  CHECK(a.anchor.empty());
  Coordinate ne = parse_coordinate(" A.north east ");
  CHECK(ne.name == "A");
  CHECK(ne.anchor == "north east");
  CHECK(parse_coordinate("A.30").anchor == "30");
  CHECK(parse_coordinate("node 1.center").name == "node 1");
  CHECK(parse_coordinate("A.center").anchor == "center");
}

TEST_CASE("options inside a coordinate") {
  Coordinate c = parse_coordinate("[xshift=2pt]A.east", 10);
  CHECK(c.form == Form::Named);
  REQUIRE(c.options);
  CHECK(c.options->raw == "xshift=2pt");
  CHECK(c.options->span.begin == 10);
  CHECK(c.options->span.end == 22);
  Coordinate brace = parse_coordinate("[label={a]b}] A");
  REQUIRE(brace.options);
  CHECK(brace.options->raw == "label={a]b}");
  CHECK(brace.name == "A");
  Coordinate s = parse_coordinate("[shift={(1,0)}] 1,2");
  CHECK(s.form == Form::Cartesian);
  CHECK(s.options->raw == "shift={(1,0)}");
}

TEST_CASE("calc coordinates keep the text between the dollars") {
  for (const char* t : {"$(A)!0.5!(B)$", "$(A)+(1,0)$", "$(A)!.5!90:(B)$", "$2*(A)-(B)$", "$(A)!(P)!(B)$"}) {
    Coordinate c = parse_coordinate(t);
    CHECK(c.form == Form::Calc);
    std::string inner(t);
    CHECK(c.raw == inner.substr(1, inner.size() - 2));
  }
}

TEST_CASE("perpendicular coordinates split into two operands") {
  Coordinate hv = parse_coordinate("A |- B");
  CHECK(hv.form == Form::Perpendicular);
  CHECK(hv.hv);
  REQUIRE(hv.sub.size() == 2);
  CHECK(hv.sub[0].name == "A");
  CHECK(hv.sub[1].name == "B");
  CHECK(hv.sub[1].span.begin == 5);
  Coordinate vh = parse_coordinate("A.north -| 1,2");
  CHECK_FALSE(vh.hv);
  CHECK(vh.sub[0].anchor == "north");
  CHECK(vh.sub[1].form == Form::Cartesian);
  Coordinate lead = parse_coordinate("1,2 |- B");
  CHECK(lead.sub[0].form == Form::Cartesian);
  Coordinate calc = parse_coordinate("$(A)+(1,0)$ |- B");
  CHECK(calc.sub[0].form == Form::Calc);
  Coordinate paren = parse_coordinate("(A) |- (B.south)");
  CHECK(paren.sub[1].anchor == "south");
}

TEST_CASE("intersections of two lines") {
  Coordinate i = parse_coordinate("intersection of A--B and C--D");
  CHECK(i.form == Form::Intersection);
  REQUIRE(i.sub.size() == 4);
  CHECK(i.sub[0].name == "A");
  CHECK(i.sub[3].name == "D");
  Coordinate n = parse_coordinate("intersection of 0,0--1,1 and {0,1}--{1,0}");
  REQUIRE(n.sub.size() == 4);
  CHECK(n.sub[2].form == Form::Cartesian);
  CHECK(n.sub[2].parts == std::vector<std::string>{"0", "1"});
  Coordinate cs = parse_coordinate("intersection cs: first line={(A)--(B)}, second line={(C)--(D)}");
  CHECK(cs.form == Form::Intersection);
  REQUIRE(cs.sub.size() == 4);
  CHECK(cs.sub[2].name == "C");
}

TEST_CASE("coordinate systems and let registers stay raw") {
  CHECK(parse_coordinate("polar cs:angle=30,radius=1").form == Form::Raw);
  CHECK(parse_coordinate("\\p1").form == Form::Raw);
  CHECK(parse_coordinate("\\p1").raw == "\\p1");
  Coordinate plot = parse_coordinate("\\x,{\\x^2}");
  CHECK(plot.form == Form::Cartesian);
  CHECK(plot.parts == std::vector<std::string>{"\\x", "{\\x^2}"});
  CHECK(parse_coordinate("").form == Form::Raw);
  CHECK(parse_coordinate("   ").form == Form::Raw);
}

TEST_CASE("coordinate lists of plot coordinates") {
  auto list = parse_coordinate_list("(0,0) (1,1)\n +(2,2) ++(0,1) {(9,9)}", 100);
  REQUIRE(list.size() == 4);
  CHECK(list[0].span.begin == 100);
  CHECK(list[0].span.end == 105);
  CHECK(list[2].relative == Coordinate::Relative::Plus);
  CHECK(list[3].relative == Coordinate::Relative::PlusPlus);
  CHECK(parse_coordinate_list("(0,0) (1,").size() == 1);
}

TEST_CASE("calc expressions decompose into terms and modifiers") {
  auto half = parse_calc("(A)!0.5!(B)");
  REQUIRE(half);
  REQUIRE(half->terms.size() == 1);
  REQUIRE(half->terms[0].modifiers.size() == 1);
  CHECK(half->terms[0].point.name == "A");
  CHECK(half->terms[0].modifiers[0].kind == CalcModifier::Kind::Partway);
  CHECK(half->terms[0].modifiers[0].amount == "0.5");
  CHECK(half->terms[0].modifiers[0].target.name == "B");

  auto sum = parse_calc("(A)+(1,0)");
  REQUIRE(sum);
  REQUIRE(sum->terms.size() == 2);
  CHECK_FALSE(sum->terms[1].negate);
  CHECK(sum->terms[1].point.form == Coordinate::Form::Cartesian);

  auto rotated = parse_calc("(A)!.5!90:(B)");
  REQUIRE(rotated);
  CHECK(rotated->terms[0].modifiers[0].angle == "90");

  auto scaled = parse_calc("2*(A)-(B)");
  REQUIRE(scaled);
  CHECK(scaled->terms[0].factor == "2");
  CHECK(scaled->terms[1].negate);

  auto projection = parse_calc("(A)!(P)!(B)");
  REQUIRE(projection);
  CHECK(projection->terms[0].modifiers[0].kind == CalcModifier::Kind::Projection);
  CHECK(projection->terms[0].modifiers[0].through.name == "P");

  auto distance = parse_calc("(A)!1cm!(B)");
  REQUIRE(distance);
  CHECK(distance->terms[0].modifiers[0].kind == CalcModifier::Kind::Distance);

  auto braced = parse_calc("{sqrt(2)}*(1,1) + (A)!{1/3}!(B)!2mm!(C)", 7);
  REQUIRE(braced);
  CHECK(braced->terms[0].factor == "{sqrt(2)}");
  CHECK(braced->terms[0].point.span.begin == 7 + 10);
  CHECK(braced->terms[1].modifiers.size() == 2);

  CHECK_FALSE(parse_calc("(A) (B)"));
  CHECK_FALSE(parse_calc("(A)!.5"));
  CHECK_FALSE(parse_calc(""));
}

TEST_CASE("one brace group around the whole coordinate is TeX's argument braces") {
  // `({2.5,0})`: TeX strips the braces of a delimited argument that is one group
  Coordinate c = parse_coordinate("{2.5,0}");
  CHECK(c.form == Form::Cartesian);
  CHECK(c.parts == std::vector<std::string>{"2.5", "0"});
  CHECK(parse_coordinate("{1},{2}").parts == std::vector<std::string>{"{1}", "{2}"});
}
