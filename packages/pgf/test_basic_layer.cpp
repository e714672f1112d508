// packages/pgf/test_basic_layer.cpp: pgf basic-layer commands inside a tikzpicture (pgfmanual part IX), lowered
// through packages/pgf/basic_layer.cpp. Expected values follow the pgf sources; 1cm = 72.27/2.54pt.
#include <numbers>

#include "ir/test_lower_support.hpp"

using namespace lowertest;

namespace {
constexpr double kDeg = std::numbers::pi / 180;

ir::Diagram pgf(const std::string& code) {
  Pic p;
  p.other(code);
  return p.lower();
}
}  // namespace

TEST_CASE("pgf: moveto, lineto and \\pgfusepath{stroke} draw a segment in pt") {
  auto d = pgf("\\pgfpathmoveto{\\pgfpoint{1cm}{0cm}}\\pgfpathlineto{\\pgfpointorigin}\\pgfusepath{stroke}");
  REQUIRE(d.elements.size() == 1);
  const auto& s = geom<ir::Segment>(d, 0);
  CHECK_PT(s.a, kCm, 0);
  CHECK_PT(s.b, 0, 0);
  CHECK(d.elements[0].style.draw);
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("pgf: point forms (polar, xy, add, diff, scale, line at time, intersection of lines)") {
  auto d = pgf(
      "\\pgfpathmoveto{\\pgfpointpolar{30}{1cm}}"
      "\\pgfpathlineto{\\pgfpointxy{1}{2}}"
      "\\pgfpathlineto{\\pgfpointadd{\\pgfpoint{1cm}{0cm}}{\\pgfpoint{0cm}{2pt}}}"
      "\\pgfpathlineto{\\pgfpointdiff{\\pgfpoint{1pt}{1pt}}{\\pgfpoint{3pt}{5pt}}}"
      "\\pgfpathlineto{\\pgfpointscale{2}{\\pgfpoint{1pt}{3pt}}}"
      "\\pgfpathlineto{\\pgfpointlineattime{0.25}{\\pgfpointorigin}{\\pgfpoint{4pt}{8pt}}}"
      "\\pgfpathlineto{\\pgfpointintersectionoflines{\\pgfpoint{0pt}{0pt}}{\\pgfpoint{2pt}{2pt}}"
      "{\\pgfpoint{0pt}{4pt}}{\\pgfpoint{4pt}{0pt}}}"
      "\\pgfusepath{stroke}");
  const auto& pl = geom<ir::Polyline>(d, 0);
  REQUIRE(pl.points.size() == 7);
  CHECK_PT(pl.points[0], kCm * std::cos(30 * kDeg), kCm * std::sin(30 * kDeg));
  CHECK_PT(pl.points[1], kCm, 2 * kCm);
  CHECK_PT(pl.points[2], kCm, 2);
  CHECK_PT(pl.points[3], 2, 4);
  CHECK_PT(pl.points[4], 2, 6);
  CHECK_PT(pl.points[5], 1, 2);
  CHECK_PT(pl.points[6], 2, 2);
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("pgf: a transformation lasts to the end of its pgfscope and applies to later TikZ paths") {
  Pic p;
  p.other("\\begin{pgfscope}");
  p.other("\\pgftransformshift{\\pgfpoint{1cm}{1cm}}");
  p.path("\\draw (0,0) -- (1,0);");
  p.other("\\end{pgfscope}");
  p.path("\\draw (0,0) -- (1,0);");
  auto d = p.lower();
  REQUIRE(d.elements.size() == 2);
  CHECK_PT(geom<ir::Segment>(d, 0).a, kCm, kCm);
  CHECK_PT(geom<ir::Segment>(d, 1).a, 0, 0);
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("pgf: transformations compose like pgf (rotate then shift moves along the rotated axis)") {
  auto d = pgf(
      "\\pgftransformrotate{90}\\pgftransformxshift{1cm}"
      "\\pgfpathmoveto{\\pgfpointorigin}\\pgfpathlineto{\\pgfpoint{1pt}{0pt}}\\pgfusepath{stroke}");
  const auto& s = geom<ir::Segment>(d, 0);
  CHECK_PT(s.a, 0, kCm);
  CHECK_PT(s.b, 0, kCm + 1);
}

TEST_CASE("pgf: a TeX group inside the statement ends its transformation") {
  auto d = pgf(
      "\\pgfsetlinewidth{1pt}{\\pgftransformxshift{10pt}\\pgfpathmoveto{\\pgfpointorigin}\\pgfpathlineto{\\pgfpoint{1pt}{0pt}}"
      "\\pgfusepath{stroke}}\\pgfpathmoveto{\\pgfpointorigin}\\pgfpathlineto{\\pgfpoint{1pt}{0pt}}\\pgfusepath{stroke}");
  REQUIRE(d.elements.size() == 2);
  CHECK_PT(geom<ir::Segment>(d, 0).a, 10, 0);
  CHECK_PT(geom<ir::Segment>(d, 1).a, 0, 0);
}

TEST_CASE("pgf: circle, ellipse, rectangle and arc keep their kinds") {
  auto d = pgf(
      "\\pgfpathcircle{\\pgfpoint{1cm}{0cm}}{5pt}"
      "\\pgfpathellipse{\\pgfpointorigin}{\\pgfpoint{2pt}{0pt}}{\\pgfpoint{0pt}{1pt}}"
      "\\pgfpathrectangle{\\pgfpoint{1pt}{2pt}}{\\pgfpoint{3pt}{4pt}}"
      "\\pgfpathmoveto{\\pgfpoint{0pt}{10pt}}\\pgfpatharc{180}{90}{5pt}"
      "\\pgfusepath{fill,stroke}");
  REQUIRE(d.elements.size() == 4);
  const auto& c = geom<ir::Circle>(d, 0);
  CHECK_PT(c.center, kCm, 0);
  CHECK(c.radius == doctest::Approx(5));
  const auto& el = geom<ir::Ellipse>(d, 1);
  CHECK(el.rx == doctest::Approx(2));
  CHECK(el.ry == doctest::Approx(1));
  const auto& r = geom<ir::Rectangle>(d, 2);
  CHECK_PT(r.corners[0], 1, 2);
  CHECK_PT(r.corners[2], 4, 6);
  const auto& a = geom<ir::Arc>(d, 3);
  CHECK_PT(a.from, 0, 10);
  CHECK_PT(a.to, 5, 15);
  CHECK(d.elements[0].style.fill);
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("pgf: a circle under a non-uniform scale becomes pgf's transformed ellipse") {
  auto d = pgf("\\pgftransformxscale{2}\\pgfpathcircle{\\pgfpointorigin}{3pt}\\pgfusepath{stroke}");
  REQUIRE(d.elements.size() == 1);
  const auto& el = geom<ir::Ellipse>(d, 0);
  CHECK(el.rx == doctest::Approx(6));
  CHECK(el.ry == doctest::Approx(3));
}

TEST_CASE("pgf: sine and curveto are Bezier curves with pgf's control points") {
  auto d = pgf(
      "\\pgfpathmoveto{\\pgfpointorigin}\\pgfpathsine{\\pgfpoint{10pt}{20pt}}\\pgfusepath{stroke}");
  const auto& b = geom<ir::Bezier>(d, 0);
  CHECK_PT(b.c1, 3.26, 10.24);
  CHECK_PT(b.c2, 6.38, 20);
  CHECK_PT(b.p1, 10, 20);
}

TEST_CASE("pgf: \\pgfplothandlercurveto smooths with tension .5 (0.13875 of the neighbours' distance)") {
  auto d = pgf(
      "\\pgfplothandlercurveto\\pgfplotstreamstart"
      "\\pgfplotstreampoint{\\pgfpoint{0pt}{0pt}}\\pgfplotstreampoint{\\pgfpoint{10pt}{10pt}}"
      "\\pgfplotstreampoint{\\pgfpoint{20pt}{0pt}}\\pgfplotstreamend\\pgfusepath{stroke}");
  REQUIRE(d.elements.size() == 2);
  const auto& first = geom<ir::Bezier>(d, 0);
  CHECK_PT(first.c1, 0, 0);
  CHECK_PT(first.c2, 10 - 0.13875 * 20, 10);
  CHECK_PT(first.p1, 10, 10);
  const auto& second = geom<ir::Bezier>(d, 1);
  CHECK_PT(second.c1, 10 + 0.13875 * 20, 10);
  CHECK_PT(second.c2, 20, 0);
}

TEST_CASE("pgf: \\pgfplothandlerycomb draws a line from the x axis to every point") {
  auto d = pgf(
      "\\pgfplothandlerycomb\\pgfplotstreamstart\\pgfplotstreampoint{\\pgfpoint{1pt}{5pt}}"
      "\\pgfplotstreampoint{\\pgfpoint{2pt}{-3pt}}\\pgfplotstreamend\\pgfusepath{stroke}");
  REQUIRE(d.elements.size() == 2);
  CHECK_PT(geom<ir::Segment>(d, 0).a, 1, 0);
  CHECK_PT(geom<ir::Segment>(d, 0).b, 1, 5);
  CHECK_PT(geom<ir::Segment>(d, 1).b, 2, -3);
}

TEST_CASE("pgf: \\pgftext places its box by the named side, with no inner sep") {
  auto d = pgf("\\pgftext[left,at={\\pgfpoint{1cm}{0cm}}]{lovely}");
  REQUIRE(d.nodes.size() == 1);
  CHECK(d.nodes[0].box.xmin == doctest::Approx(kCm).epsilon(1e-6));
  CHECK(d.nodes[0].text == "lovely");
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("pgf: \\pgfnode with a name, then \\pgfpointanchor on it") {
  Pic p;
  p.other("\\pgfset{inner sep=0pt, outer sep=0pt, minimum width=20pt, minimum height=10pt}"
          "\\pgfnode{rectangle}{center}{}{box}{\\pgfusepath{stroke}}");
  p.other("\\pgfpathmoveto{\\pgfpointanchor{box}{north east}}\\pgfpathlineto{\\pgfpointorigin}\\pgfusepath{stroke}");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 1);
  CHECK(d.nodes[0].name == "box");
  CHECK(d.nodes[0].drawn);
  const auto& s = geom<ir::Segment>(d, 0);
  CHECK_PT(s.a, 10, 5);
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("pgf: an unknown command is reported at its place and the rest still lowers") {
  auto d = pgf("\\pgfdoesnotexist{1}\\pgfpathmoveto{\\pgfpointorigin}\\pgfpathlineto{\\pgfpoint{1pt}{0pt}}"
               "\\pgfusepath{stroke}");
  CHECK(count_unsupported(d) == 1);
  REQUIRE(!d.diagnostics.empty());
  bool named = false;
  for (const auto& x : d.diagnostics) named = named || x.message.find("\\pgfdoesnotexist") != std::string::npos;
  CHECK(named);
  CHECK(d.elements.size() == 1);
}

TEST_CASE("pgf: line width set by \\pgfsetlinewidth applies to the following paths") {
  Pic p;
  p.other("\\pgfsetlinewidth{2pt}");
  p.path("\\draw (0,0) -- (1,0);");
  auto d = p.lower();
  REQUIRE(d.elements.size() == 1);
  CHECK(d.elements[0].style.line_width == doctest::Approx(2));
}

TEST_CASE("pgf: animation commands leave the static (PDF) picture unchanged, snapshots stay unsupported") {
  auto d = pgf("\\pgfanimateattribute{fill}{whom=node.background, entry={0s}{red}}"
               "\\pgfpathcircle{\\pgfpointorigin}{1cm}\\pgfusepath{fill}");
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.elements.size() == 1);
  CHECK(geom<ir::Circle>(d, 0).radius == doctest::Approx(kCm));
  CHECK(count_unsupported(pgf("\\pgfsnapshot{1s}")) == 1);
}
