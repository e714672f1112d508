// packages/shapes/test_shapes.cpp: the library shapes' anchors through lowering (keys, sizes, anchors), each
// against what lualatex prints for \pgfpointanchor of the same node (empty text, at the origin).
#include <string>

#include "ir/test_lower_support.hpp"

using namespace lowertest;

namespace {

// The anchor of a node made with `options` at the origin, as a path coordinate sees it.
ir::Point anchor_of(const std::string& options, const std::string& anchor) {
  Pic p;
  p.path("\\node[" + options + "] (n) at (0,0) {};");
  p.path("\\draw (n." + anchor + ") -- (0,0);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  if (d.elements.empty()) return {1e9, 1e9};
  return geom<ir::Segment>(d, 0).a;
}

// lualatex (pgf 3.1): \pgfpointanchor{n}{anchor}\pgfgetlastxy; tolerance 0.05pt
#define CHECK_ANCHOR(opts, anchor, X, Y)                             \
  do {                                                               \
    ir::Point got = anchor_of(opts, anchor);                         \
    INFO(anchor);                                                    \
    CHECK(std::abs(got.x - (X)) < 0.05);                             \
    CHECK(std::abs(got.y - (Y)) < 0.05);                             \
  } while (0)

}  // namespace

TEST_CASE("shapes: diamond size, shape aspect and its anchors (pgflibraryshapes.geometric)") {
  const std::string d = "diamond, inner sep=0pt, outer sep=1pt, minimum width=30pt, minimum height=20pt";
  CHECK_ANCHOR(d, "north", 0, 11);
  CHECK_ANCHOR(d, "north west", -8, 5.5);
  CHECK_ANCHOR(d, "30", 8.69681, 5.0211);
  const std::string d2 = "diamond, inner sep=2pt, outer sep=0pt, shape aspect=2";
  CHECK_ANCHOR(d2, "east", 6, 0);
  CHECK_ANCHOR(d2, "north", 0, 3);
}

TEST_CASE("shapes: regular polygon corners, sides, border and shape border rotate") {
  const std::string p = "regular polygon, regular polygon sides=6, inner sep=0pt, outer sep=1pt, minimum size=40pt";
  CHECK_ANCHOR(p, "corner 3", -21.15463, 0);
  CHECK_ANCHOR(p, "side 2", -15.86597, 9.16025);
  CHECK_ANCHOR(p, "north", 0, 18.32484);
  CHECK_ANCHOR(p, "100", -3.23, 18.32033);
  const std::string p5 = "regular polygon, inner sep=0pt, outer sep=0pt, minimum size=40pt, shape border rotate=10";
  CHECK_ANCHOR(p5, "corner 2", -19.8053, 2.78351);
  CHECK_ANCHOR(p5, "side 4", 16.02295, -2.25189);
  CHECK_ANCHOR(p5, "east", 16.33911, 0);
}

TEST_CASE("shapes: star points, star point ratio and star point height") {
  const std::string s = "star, star points=7, star point ratio=2, inner sep=0pt, outer sep=1pt, minimum size=40pt";
  CHECK_ANCHOR(s, "outer point 3", -22.15308, -5.0557);
  CHECK_ANCHOR(s, "inner point 2", -11.07631, 2.52802);
  CHECK_ANCHOR(s, "east", 14.76898, 0);
  CHECK_ANCHOR(s, "200", -16.33412, -5.94522);
  const std::string s2 = "star, inner sep=5pt, outer sep=0pt, star point height=8pt";
  CHECK_ANCHOR(s2, "outer point 2", -14.33357, 4.65727);
  CHECK_ANCHOR(s2, "inner point 5", 4.15625, 5.72064);
}

TEST_CASE("shapes: trapezium angles, minimum sizes and the mitred outer sep") {
  const std::string t = "trapezium, inner sep=4pt, outer sep=1pt, minimum width=40pt, minimum height=20pt, "
                        "trapezium left angle=70, trapezium right angle=110";
  CHECK_ANCHOR(t, "bottom left corner", -21.40262, -12.56006);
  CHECK_ANCHOR(t, "top right corner", 21.40262, 12.56006);
  CHECK_ANCHOR(t, "left side", -16.83147, 0);
  CHECK_ANCHOR(t, "bottom side", -4.57115, -12.56006);
  CHECK_ANCHOR(t, "east", 16.83138, 0);
  CHECK_ANCHOR(t, "north", 0, 12.5628);
  const std::string t2 = "trapezium, inner sep=5pt, outer sep=0pt";
  CHECK_ANCHOR(t2, "top left corner", -5, 5);
  CHECK_ANCHOR(t2, "right side", 7.88658, 0);
}

TEST_CASE("shapes: IEC logic gates, inputs with inverted ones, and the output") {
  const std::string a = "and gate IEC, inner sep=0pt, outer sep=0pt, minimum width=20pt, minimum height=30pt, "
                        "logic gate inputs=inn";
  CHECK_ANCHOR(a, "input 1", -14.2, 7.5);
  CHECK_ANCHOR(a, "input 3", -10, -7.5);
  CHECK_ANCHOR(a, "output", 10, 0);
  const std::string n = "nand gate IEC, inner sep=0pt, outer sep=0pt, minimum width=20pt, minimum height=30pt";
  CHECK_ANCHOR(n, "input 2", -10, -5);
  CHECK_ANCHOR(n, "output", 14.2, 0);
}

TEST_CASE("shapes: US logic gates (and, nand, or, nor), their inputs and outputs") {
  const std::string a = "and gate US, inner sep=0pt, outer sep=0pt, minimum height=30pt, logic gate inputs=ini";
  CHECK_ANCHOR(a, "input 1", -21.70007, 7.5);
  CHECK_ANCHOR(a, "input 2", -17.50008, 0);
  CHECK_ANCHOR(a, "output", 19.99992, 0);
  CHECK_ANCHOR(a, "north east", 15.60654, 10.60661);
  CHECK_ANCHOR(a, "west", -17.49985, 0);
  const std::string na = "nand gate US, inner sep=0pt, outer sep=0pt, minimum height=30pt";
  CHECK_ANCHOR(na, "output", 24.19992, 0);
  CHECK_ANCHOR(na, "input 1", -17.50008, 5);
  const std::string o = "or gate US, inner sep=0pt, outer sep=0pt, minimum height=30pt, logic gate inputs=nin";
  CHECK_ANCHOR(o, "input 1", -14.44173, 7.5);
  CHECK_ANCHOR(o, "input 2", -17.68091, 0);
  CHECK_ANCHOR(o, "input 3", -14.44173, -7.5);
  CHECK_ANCHOR(o, "output", 23.48099, 0);
  const std::string no = "nor gate US, inner sep=0pt, outer sep=0pt, minimum height=30pt";
  CHECK_ANCHOR(no, "output", 27.68076, 0);
  CHECK_ANCHOR(no, "input 2", -13.90471, -5);
}

TEST_CASE("shapes: ee symbols have input and output on their west and east sides") {
  const std::string r = "var resistor IEC, inner sep=0pt, outer sep=1pt, minimum width=20pt, minimum height=10pt";
  CHECK_ANCHOR(r, "input", -11, 0);
  CHECK_ANCHOR(r, "output", 11, 0);
}

TEST_CASE("shapes: the node box of an asymmetric shape is its outline's extent") {
  Pic p;
  p.path("\\node[trapezium, trapezium left angle=45, trapezium right angle=90, inner sep=5pt, outer sep=0pt] at (0,0) {};");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 1);
  // lower left corner at x = -5 - 10 (cot 45 * 2y), the right side upright at x = 5
  CHECK(d.nodes[0].box.xmin == doctest::Approx(-15));
  CHECK(d.nodes[0].box.xmax == doctest::Approx(5));
  CHECK(d.nodes[0].box.ymax == doctest::Approx(5));
}

TEST_CASE("shapes: an anchor a shape does not have stays unknown") {
  Pic p;
  p.path("\\node[diamond, minimum size=10pt] (n) {};");
  p.path("\\draw (n.corner 1) -- (0,0);");
  auto d = p.lower();
  CHECK(has_rule(d, "unsupported-coordinate"));
}

TEST_CASE("shapes: isosceles triangle apex, corners, sides, apex angle and border rotation") {
  const std::string i = "isosceles triangle, inner sep=3pt, outer sep=1pt";
  CHECK_ANCHOR(i, "apex", 12.85626, 0);
  CHECK_ANCHOR(i, "left corner", -4, 6.98184);
  CHECK_ANCHOR(i, "right corner", -4, -6.98184);
  CHECK_ANCHOR(i, "left side", 4.42813, 3.49092);
  CHECK_ANCHOR(i, "lower side", -4, 0);
  CHECK_ANCHOR(i, "north", 0, 5.32506);
  CHECK_ANCHOR(i, "150", -3.99997, 2.30939);
  const std::string i2 = "isosceles triangle, inner sep=2pt, outer sep=0pt, minimum height=30pt, "
                         "isosceles triangle apex angle=60, shape border rotate=90";
  CHECK_ANCHOR(i2, "apex", 0, 20.4886);
  CHECK_ANCHOR(i2, "left corner", -17.31949, -9.5114);
  CHECK_ANCHOR(i2, "lower side", 0, -9.5114);
}

TEST_CASE("shapes: semicircle apex, arc ends and chord, grown by minimum width") {
  const std::string c = "semicircle, inner sep=3pt, outer sep=1pt";
  CHECK_ANCHOR(c, "apex", 0, 4.70816);
  CHECK_ANCHOR(c, "arc start", 7.70816, -4);
  CHECK_ANCHOR(c, "arc end", -7.70816, -4);
  CHECK_ANCHOR(c, "chord center", 0, -4);
  CHECK_ANCHOR(c, "60", 2.48125, 4.29755);
  CHECK_ANCHOR(c, "south", 0, -4.00093);
  const std::string c2 = "semicircle, inner sep=2pt, outer sep=0pt, minimum width=30pt";
  CHECK_ANCHOR(c2, "apex", 0, 8.78894);
  CHECK_ANCHOR(c2, "arc end", -15, -6.21106);
  CHECK_ANCHOR(c2, "chord center", 0, -6.21106);
}

TEST_CASE("shapes: kite vertices and sides, kite vertex angles") {
  const std::string k = "kite, inner sep=3pt, outer sep=1pt";
  CHECK_ANCHOR(k, "upper vertex", 0, 5.88695);
  CHECK_ANCHOR(k, "lower vertex", 0, -10.19681);
  CHECK_ANCHOR(k, "left vertex", -6.96417, 1.86604);
  CHECK_ANCHOR(k, "upper left side", -3.48209, 3.8765);
  CHECK_ANCHOR(k, "lower right side", 3.48209, -4.16539);
  CHECK_ANCHOR(k, "east", 5.88724, 0);
  const std::string k2 = "kite, inner sep=2pt, outer sep=0pt, kite vertex angles=90 and 45, minimum height=40pt";
  CHECK_ANCHOR(k2, "upper vertex", 0, 12.5407);
  CHECK_ANCHOR(k2, "lower vertex", 0, -27.44768);
  CHECK_ANCHOR(k2, "right vertex", 11.71136, 0.82849);
}

TEST_CASE("shapes: circular sector center, arc ends and arc center") {
  const std::string c = "circular sector, inner sep=3pt, outer sep=1pt";
  CHECK_ANCHOR(c, "sector center", 10.19617, 0);
  CHECK_ANCHOR(c, "arc start", -2.20782, 7.16142);
  CHECK_ANCHOR(c, "arc end", -2.20782, -7.16142);
  CHECK_ANCHOR(c, "arc center", -4.39464, 0);
  CHECK_ANCHOR(c, "120", -3.14911, 5.45851);
  const std::string c2 = "circular sector, inner sep=2pt, outer sep=0pt, circular sector angle=90, "
                         "minimum height=30pt, shape border rotate=90";
  CHECK_ANCHOR(c2, "sector center", 0, 18.97572);
  CHECK_ANCHOR(c2, "arc end", 21.21323, -2.2375);
  CHECK_ANCHOR(c2, "arc center", 0, -11.02428);
}

TEST_CASE("shapes: dart tip, tails and sides, dart angles") {
  const std::string d = "dart, inner sep=3pt, outer sep=1pt";
  CHECK_ANCHOR(d, "tip", 12.85626, 0);
  CHECK_ANCHOR(d, "left tail", -7.59044, 8.46904);
  CHECK_ANCHOR(d, "tail center", -4.08241, 0);
  CHECK_ANCHOR(d, "right side", 2.63292, -4.23451);
  CHECK_ANCHOR(d, "north", 0, 5.32515);
  const std::string d2 = "dart, inner sep=2pt, outer sep=0pt, dart tip angle=60, dart tail angle=120, minimum height=40pt";
  CHECK_ANCHOR(d2, "tip", 19.51991, 0);
  CHECK_ANCHOR(d2, "left tail", -20.47728, 23.09236);
  CHECK_ANCHOR(d2, "tail center", -7.14478, 0);
}

TEST_CASE("shapes: cylinder top, bottom, before and after them, rotated and with shape aspect") {
  const std::string c = "cylinder, inner sep=3pt, outer sep=1pt";
  CHECK_ANCHOR(c, "shape center", 3.09999, 0);
  CHECK_ANCHOR(c, "before top", 6.2, 4);
  CHECK_ANCHOR(c, "top", 10.2, 0);
  CHECK_ANCHOR(c, "after top", 6.2, -4);
  CHECK_ANCHOR(c, "before bottom", 0, -4);
  CHECK_ANCHOR(c, "bottom", -4, 0);
  CHECK_ANCHOR(c, "after bottom", 0, 4);
  CHECK_ANCHOR(c, "30", 6.83916, 3.94843);
  const std::string c2 = "cylinder, inner sep=2pt, outer sep=0pt, minimum height=40pt, shape border rotate=90, shape aspect=.5";
  CHECK_ANCHOR(c2, "top", 0, 21.09999);
  CHECK_ANCHOR(c2, "bottom", 0, -18.9);
  CHECK_ANCHOR(c2, "before top", -2, 20.09999);
  CHECK_ANCHOR(c2, "east", 2.00029, 0);
}

TEST_CASE("shapes: single arrow tip, head, tail anchors, head extend and rotation") {
  const std::string a = "single arrow, inner sep=3pt, outer sep=1pt";
  CHECK_ANCHOR(a, "tip", 7.81442, 0);
  CHECK_ANCHOR(a, "before tip", -4.91347, 12.72745);
  CHECK_ANCHOR(a, "after tip", -4.91347, -12.72745);
  CHECK_ANCHOR(a, "before head", -4.91354, 4.20004);
  CHECK_ANCHOR(a, "after head", -4.91354, -4.20004);
  CHECK_ANCHOR(a, "before tail", -4.2, -4.2);
  CHECK_ANCHOR(a, "after tail", -4.2, 4.2);
  CHECK_ANCHOR(a, "tail", -4.2, 0);
  CHECK_ANCHOR(a, "30", 4.95432, 2.86035);
  const std::string a2 = "single arrow, inner sep=2pt, outer sep=0pt, minimum height=40pt, shape border rotate=90, "
                         "single arrow head extend=3pt";
  CHECK_ANCHOR(a2, "tip", 0, 21.10004);
  CHECK_ANCHOR(a2, "before tip", -5.2, 15.89981);
  CHECK_ANCHOR(a2, "tail", 0, -18.89995);
}

TEST_CASE("shapes: double arrow tips, heads and their numbering") {
  const std::string a = "double arrow, inner sep=3pt, outer sep=1pt, minimum height=50pt";
  CHECK_ANCHOR(a, "tip 1", 26.41429, 0);
  CHECK_ANCHOR(a, "before tip 1", 13.6864, 12.72745);
  CHECK_ANCHOR(a, "after tip 1", 13.6864, -12.72745);
  CHECK_ANCHOR(a, "before head 1", 13.68633, 4.20004);
  CHECK_ANCHOR(a, "tip 2", -26.41429, 0);
  CHECK_ANCHOR(a, "before tip 2", -13.6864, -12.72745);
  CHECK_ANCHOR(a, "after tip 2", -13.6864, 12.72745);
  CHECK_ANCHOR(a, "after head 2", -13.68633, 4.20004);
  CHECK_ANCHOR(a, "160", -19.36684, 7.04889);
  const std::string a2 = "double arrow, inner sep=2pt, outer sep=0pt, shape border rotate=90, double arrow head extend=3pt";
  CHECK_ANCHOR(a2, "tip 1", 0, 4.40009);
  CHECK_ANCHOR(a2, "before tip 2", 5.2, 0.80014);
  CHECK_ANCHOR(a2, "after head 2", -2.2, 0.80014);
}

TEST_CASE("shapes: base and mid east/west on the border at the base and mid heights") {
  const std::string t = "trapezium, inner sep=4pt, outer sep=1pt, trapezium left angle=70, trapezium right angle=110, "
                        "text height=6pt, text depth=1pt";
  CHECK_ANCHOR(t, "mid east", 7.66835, -0.34497);
  CHECK_ANCHOR(t, "base west", -8.70374, -2.5);
  const std::string n = "nand gate US, inner sep=0pt, outer sep=0pt, minimum height=30pt, text height=6pt, text depth=1pt";
  CHECK_ANCHOR(n, "mid east", 19.99992, -0.345);
  CHECK_ANCHOR(n, "base west", -17.49985, -2.5);
}

TEST_CASE("shapes: inductor IEC stands on its center line") {
  const std::string l = "inductor IEC, outer sep=1pt, minimum width=20pt, minimum height=8pt";
  CHECK_ANCHOR(l, "input", -11, 4);
  CHECK_ANCHOR(l, "output", 11, 4);
  CHECK_ANCHOR(l, "north", 0, 9);
}

TEST_CASE("nodes: shapes of the shape libraries are `other`, boxed by their own outline") {
  Pic p;
  p.path("\\node[diamond, minimum size=10pt, inner sep=0pt] {};");
  p.path("\\node[shape=magnifying glass, minimum size=10pt, inner sep=0pt] {};");
  auto d = p.lower();
  CHECK(d.nodes[0].shape == ir::NodeShape::other);
  // pgflibraryshapes.geometric: the diamond is drawn 1.414213 outer sep (0.2pt) inside its anchors
  CHECK(d.nodes[0].box.width() == doctest::Approx(2 * (5 + 0.2 - 1.414213 * 0.2)));
  // a shape without a model is sized like a rectangle
  CHECK(d.nodes[1].box.width() == doctest::Approx(10));
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("shapes: rounded rectangle's arcs, minimum sizes and its anchors (pgflibraryshapes.misc)") {
  const std::string r = "rounded rectangle, inner sep=0pt, outer sep=1pt, minimum width=40pt, minimum height=20pt";
  CHECK_ANCHOR(r, "north", 0, 11);
  CHECK_ANCHOR(r, "east", 21, 0);
  CHECK_ANCHOR(r, "west", -21, 0);
  CHECK_ANCHOR(r, "north west", -10, 11);
  CHECK_ANCHOR(r, "south east", 10, -11);
  CHECK_ANCHOR(r, "base east", 21, 0);  // the east anchor's x at the baseline, as pgf defines it
  CHECK_ANCHOR(r, "mid west", -21, 2.155);
  const std::string c = r + ", rounded rectangle arc length=120, rounded rectangle west arc=concave";
  CHECK_ANCHOR(c, "east", 18.11342, 0);
  CHECK_ANCHOR(c, "west", -26.61873, 0);
  CHECK_ANCHOR(c, "north west", -26.61873, 11);
  CHECK_ANCHOR(c, "north east", 11.60818, 11);
}
