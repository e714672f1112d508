// packages/lsystems/test_lsystems.cpp: Lindenmayer systems (pgfmanual 57) lowered into the turtle's path. Expected
// boxes are what lualatex (pgf 3.1.10) printed for the same paths with `local bounding box` (the
// path's points); the lowered picture box also holds half the 0.4pt line width around them.
#include "ir/test_lower_support.hpp"

namespace {
constexpr double kHalfLine = 0.2;
}

using namespace lowertest;

namespace {
// The box of the drawn lines' points (segments and polylines).
ir::Box drawn_box(const ir::Diagram& d) {
  ir::Box b{1e9, 1e9, -1e9, -1e9};
  auto add = [&](ir::Point p) {
    b.xmin = std::min(b.xmin, p.x);
    b.ymin = std::min(b.ymin, p.y);
    b.xmax = std::max(b.xmax, p.x);
    b.ymax = std::max(b.ymax, p.y);
  };
  for (const auto& e : d.elements) {
    if (const auto* s = std::get_if<ir::Segment>(&e.geom)) {
      add(s->a);
      add(s->b);
    } else if (const auto* l = std::get_if<ir::Polyline>(&e.geom)) {
      for (const auto& p : l->points) add(p);
    }
  }
  return b;
}

std::string diagnostics(const ir::Diagram& d) {
  std::string out;
  for (const auto& x : d.diagnostics) out += x.rule + ": " + x.message + "\n";
  return out;
}
}  // namespace

TEST_CASE("lsystems: a declared system expanded twice, the turtle starts at the origin, the path at its point") {
  Pic p;
  p.other("\\pgfdeclarelindenmayersystem{Koch curve}{\\rule{F -> F-F++F-F}}");
  p.path("\\draw [l-system={Koch curve, step=10pt, angle=60, axiom=F, order=2}] (1,1) lindenmayer system;");
  auto d = p.lower();
  CHECK_MESSAGE(count_unsupported(d) == 0, diagnostics(d));
  REQUIRE(d.has_picture_bbox);
  // lualatex: (10pt,-25.98083pt) to (90pt,28.45274pt): (1,1), then the 16 steps of the curve from
  // (10pt,0) on; the origin itself is no point of the path
  CHECK(d.picture_bbox.xmin == doctest::Approx(10 - kHalfLine).epsilon(1e-4));
  CHECK(d.picture_bbox.ymin == doctest::Approx(-25.98083 - kHalfLine).epsilon(1e-4));
  CHECK(d.picture_bbox.xmax == doctest::Approx(90 + kHalfLine).epsilon(1e-4));
  CHECK(d.picture_bbox.ymax == doctest::Approx(kCm + kHalfLine).epsilon(1e-4));
}

TEST_CASE("lsystems: symbols of a declared system, anchor places the system's box at the current point") {
  Pic p;
  p.other(
      "\\pgfdeclarelindenmayersystem{Sierpinski triangle}{\\symbol{X}{\\pgflsystemdrawforward}"
      "\\symbol{Y}{\\pgflsystemdrawforward}\\rule{X -> Y-X-Y}\\rule{Y -> X+Y+X}}");
  p.path(
      "\\draw [blue] (3,2) l-system [l-system={Sierpinski triangle, axiom=X, anchor=north east, step=3pt, "
      "order=3, angle=60}];");
  auto d = p.lower();
  CHECK_MESSAGE(count_unsupported(d) == 0, diagnostics(d));
  REQUIRE(d.has_picture_bbox);
  // lualatex: (62.45824pt,35.72083pt) to (85.35823pt,56.90549pt): the box (the points and half
  // the 0.4pt line width) with its north east at (3,2)
  const ir::Box box = drawn_box(d);
  CHECK(box.xmin - kHalfLine == doctest::Approx(62.45824).epsilon(1e-4));
  CHECK(box.ymin - kHalfLine == doctest::Approx(35.72083).epsilon(1e-4));
  CHECK(box.xmax + kHalfLine == doctest::Approx(85.35823).epsilon(1e-4));
  CHECK(box.ymax + kHalfLine == doctest::Approx(56.90549).epsilon(1e-4));
}

TEST_CASE("lsystems: keys of the picture hold for its paths, rule set, a string past the cap is reported") {
  Pic p;
  p.options = "l-system={step=10pt, angle=90}";
  p.path("\\draw [l-system={rule set={F -> F+F}, axiom=F, order=1}] lindenmayer system;");
  auto d = p.lower();
  CHECK_MESSAGE(count_unsupported(d) == 0, diagnostics(d));
  REQUIRE(d.has_picture_bbox);
  // F+F: (0,0) -> (10pt,0) -> (10pt,10pt)
  CHECK(d.picture_bbox.xmax == doctest::Approx(10 + kHalfLine).epsilon(1e-6));
  CHECK(d.picture_bbox.ymax == doctest::Approx(10 + kHalfLine).epsilon(1e-6));

  Pic big;
  big.path("\\draw [l-system={rule set={F -> FF}, axiom=F, order=40}] lindenmayer system;");
  auto db = big.lower();
  CHECK(has_rule(db, "resource-limit"));

  Pic undeclared;
  undeclared.path("\\draw [l-system={Nowhere, axiom=F, order=1}] lindenmayer system;");
  CHECK(has_rule(undeclared.lower(), "unsupported-construct"));
}
