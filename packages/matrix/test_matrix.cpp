// packages/matrix/test_matrix.cpp: \matrix lowered by packages/matrix/matrix.cpp. The expected positions are what
// lualatex (pgf 3.1.10) gives for the same pictures, read with \pgfpointanchor. pgf's bounding
// box of a node is its border (plus half the line width when drawn), lowering's the border plus
// outer sep: `outer sep=0pt` on undrawn nodes, or the default on drawn ones, makes them agree.
#include "ir/test_lower_support.hpp"

using namespace lowertest;

namespace {

const ir::Node* find_node(const ir::Diagram& d, const std::string& name) {
  for (const auto& n : d.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

void check_box(const ir::Diagram& d, const std::string& name, double x0, double y0, double x1, double y1) {
  INFO(name);
  const ir::Node* n = find_node(d, name);
  REQUIRE(n != nullptr);
  CHECK(n->box.xmin == doctest::Approx(x0).epsilon(1e-3));
  CHECK(n->box.ymin == doctest::Approx(y0).epsilon(1e-3));
  CHECK(n->box.xmax == doctest::Approx(x1).epsilon(1e-3));
  CHECK(n->box.ymax == doctest::Approx(y1).epsilon(1e-3));
}

void check_center(const ir::Diagram& d, const std::string& name, double x, double y) {
  INFO(name);
  const ir::Node* n = find_node(d, name);
  REQUIRE(n != nullptr);
  CHECK(n->center.x == doctest::Approx(x).epsilon(1e-4));
  CHECK(n->center.y == doctest::Approx(y).epsilon(1e-4));
}

}  // namespace

TEST_CASE("matrix: cells of plain nodes, column sep and row sep, matrix node around them") {
  Pic p;
  p.path(
      "\\matrix (m) [draw,inner sep=1pt,outer sep=0pt,column sep=1cm, row sep=2mm]\n"
      "{ \\node(a) {123}; & \\node (b) {1}; & \\node {1}; \\\\\n"
      "  \\node {12}; & \\node {12}; & \\node(f) {1}; \\\\ };");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  check_box(d, "a", -46.45274, 2.73526, -29.45274, 11.61526);
  check_box(d, "b", 1.5, 2.84526, 8.5, 11.50526);
  check_box(d, "f", 39.45274, -11.61528, 46.45274, -2.95528);
  check_box(d, "m", -47.45274, -12.61526, 47.45274, 12.61526);
}

TEST_CASE("matrix: matrix of nodes, between origins, |options| and empty cells") {
  Pic p;
  p.path(
      "\\matrix (n) [matrix of nodes, outer sep=0pt, row sep={1cm,between origins}] at (3,-2)\n"
      "{ 8 & 1 & 6 \\\\ 3 & g & |[red]| 7 \\\\ & & |(q)| 2 \\\\ };");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  check_center(d, "n", 85.35823, -56.90549);
  check_center(d, "n-1-1", 73.69228, -28.56274);
  check_center(d, "n-2-2", 85.35823, -59.00049);
  check_center(d, "q", 97.02419, -85.35823);
  CHECK(find_node(d, "n-3-1") == nullptr);  // no `nodes in empty cells`
}

TEST_CASE("matrix: math nodes, nodes= style, anchor, mixed cell code, column sep between origins") {
  // drawn nodes with the default outer sep: pgf's bounding box and lowering's agree
  Pic p;
  p.path(
      "\\matrix (k) [matrix of math nodes,anchor=north west,nodes={draw},"
      "row 2/.style={red},column sep={1cm,between origins}] at (0,-5)\n"
      "{ a_8 & & a_6 \\\\ a_3 & \\node{x}; \\draw (0,0) circle (10pt); & a_7 \\\\ };");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  check_center(d, "k", 40.4047, -162.43242);
  check_center(d, "k-1-1", 11.95195, -152.23242);
  check_center(d, "k-2-3", 68.85744, -167.46536);
  check_center(d, "k-1-3", 68.85744, -152.23242);
}

TEST_CASE("matrix: anchor at a node inside the matrix") {
  Pic p;
  p.path(
      "\\matrix (i) [anchor=inner.south, row sep=3mm, outer sep=0pt] at (1,1)\n"
      "{ \\node {a}; & \\node {b}; \\\\ \\node {a}; & \\node (inner) {b}; \\\\ };");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  check_center(d, "i", 22.61977, 46.43658);
  check_center(d, "inner", 28.45274, 35.31071);
}

TEST_CASE("matrix: ampersand replacement and what is not modelled") {
  Pic p;
  p.path("\\matrix (r) [ampersand replacement=\\&] { \\node (x) {1}; \\& \\node (y) {2}; \\\\ };");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  REQUIRE(find_node(d, "x") != nullptr);
  REQUIRE(find_node(d, "y") != nullptr);
  CHECK(find_node(d, "x")->center.x < find_node(d, "y")->center.x);
  CHECK(find_node(d, "x")->center.y == doctest::Approx(find_node(d, "y")->center.y));

  Pic q;
  q.path("\\matrix [matrix of math nodes,left delimiter=(] { a & b \\\\ };");
  auto e = q.lower();
  CHECK(has_rule(e, "unsupported-key"));
  CHECK(e.nodes.size() == 3);  // the two cells and the matrix node
}

TEST_CASE("matrix: the cells do not grow the picture, the matrix node does (pgf's \\pgfinterruptboundingbox)") {
  // lualatex: picture bbox -10.29 -3.58 10.29 3.58, the matrix node's (inner sep -3pt) inside its cells
  Pic p;
  p.path("\\matrix (m) [matrix of nodes, inner sep=-3pt, outer sep=0pt, nodes={inner sep=3pt, outer sep=0pt}] {A & B \\\\};");
  auto d = p.lower();
  CHECK(std::abs(d.picture_bbox.xmin - -10.29) < 0.01);
  CHECK(std::abs(d.picture_bbox.ymin - -3.58) < 0.01);
  CHECK(std::abs(d.picture_bbox.xmax - 10.29) < 0.01);
  CHECK(std::abs(d.picture_bbox.ymax - 3.58) < 0.01);
  // the cells reach 3pt past it (their inner sep 3pt against the matrix's -3pt)
  CHECK(find_node(d, "m-1-1")->box.xmin == doctest::Approx(d.picture_bbox.xmin - 3).epsilon(1e-3));
  CHECK(find_node(d, "m-1-1")->box.ymax == doctest::Approx(d.picture_bbox.ymax + 3).epsilon(1e-3));
}
