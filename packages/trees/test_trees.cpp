// packages/trees/test_trees.cpp: child trees (pgfmanual 21), the trees library (pgfmanual 75) and mindmaps
// (pgfmanual 58) lowered into plain nodes and edges. Expected positions follow tikz.code.tex
// \tikz@grow@direction and tikzlibrarytrees.code.tex; 15mm is the default level and sibling
// distance.
#include <cmath>
#include <numbers>

#include "ir/test_lower_support.hpp"

using namespace lowertest;

namespace {
constexpr double kMm = kCm / 10;

const ir::Node* node(const ir::Diagram& d, const std::string& name) {
  for (const auto& n : d.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

std::optional<ir::Point> coordinate(const ir::Diagram& d, const std::string& name) {
  for (const auto& c : d.coordinates)
    if (c.name == name) return c.p;
  if (const ir::Node* n = node(d, name)) return n->center;
  return std::nullopt;
}

ir::Point at(const ir::Diagram& d, const std::string& name) {
  auto p = coordinate(d, name);
  REQUIRE(p.has_value());
  return *p;
}

std::size_t drawn(const ir::Diagram& d) {
  std::size_t n = 0;
  for (const auto& e : d.elements)
    if (e.style.draw) ++n;
  return n;
}
}  // namespace

TEST_CASE("trees: children grow down, centered, 15mm apart, edges join the borders") {
  Pic p;
  p.path("\\node (root) {root} child {node {left}} child {node {right} child {node {a}} child {node {b}}};");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK(d.nodes.size() == 5);
  CHECK_PT(at(d, "root"), 0, 0);
  CHECK_PT(at(d, "root-1"), -7.5 * kMm, -15 * kMm);
  CHECK_PT(at(d, "root-2"), 7.5 * kMm, -15 * kMm);
  CHECK_PT(at(d, "root-2-1"), 0, -30 * kMm);
  CHECK_PT(at(d, "root-2-2"), 15 * kMm, -30 * kMm);
  CHECK(drawn(d) == 4);
  // the edge starts on the root's border, not at its center
  const auto& seg = geom<ir::Segment>(d, 0);
  CHECK(seg.a.y < 0);
  CHECK(seg.a.y == doctest::Approx(node(d, "root")->box.ymin - 0.2));  // outer sep .5\pgflinewidth
}

TEST_CASE("trees: unnamed roots still name their children internally, coordinates for bare children") {
  Pic p;
  p.path("\\node (root) {root} child child { child {coordinate (special)} child };");
  p.path("\\node at (root-2-2) {x};");
  p.path("\\node at (special) {y};");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK_PT(at(d, "root-1"), -7.5 * kMm, -15 * kMm);
  CHECK_PT(at(d, "special"), 0, -30 * kMm);
  CHECK_PT(at(d, "root-2-2"), 15 * kMm, -30 * kMm);
  Pic q;
  q.path("\\node {root} child {node {a}};");
  auto e = q.lower();
  CHECK(count_unsupported(e) == 0);
  REQUIRE(e.nodes.size() == 2);
  CHECK_PT(e.nodes[1].center, 0, -15 * kMm);
}

TEST_CASE("trees: options before the first child, level distance, sibling distance, grow and grow'") {
  Pic p;
  p.path("\\path[level distance=10mm, sibling distance=5mm] node (r) {r} child child child;");
  p.path("\\node (s) at (5,0) {s} [grow=right] child child;");
  p.path("\\node (t) at (10,0) {t} [grow'=up] child child;");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK_PT(at(d, "r-1"), -5 * kMm, -10 * kMm);
  CHECK_PT(at(d, "r-3"), 5 * kMm, -10 * kMm);
  // grow=right: siblings go from the growth direction's left (-90) to its right (+90)
  CHECK_PT(at(d, "s-1"), 5 * kCm + 15 * kMm, -7.5 * kMm);
  CHECK_PT(at(d, "s-2"), 5 * kCm + 15 * kMm, 7.5 * kMm);
  // grow'=up: swapped, the first child on the left
  CHECK_PT(at(d, "t-1"), 10 * kCm - 7.5 * kMm, 15 * kMm);
}

TEST_CASE("trees: a child's grow is not spread among siblings, missing children keep their slot") {
  Pic p;
  p.path("\\node (c) {C} child[grow=up] {node {H}} child[grow=left] {node {H}};");
  p.path("\\node (r) at (5,0) {root} [level distance=10mm,sibling distance=5mm] child {node {1}} "
         "child[missing] {node {2}} child {node {3}};");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK_PT(at(d, "c-1"), 0, 15 * kMm);
  CHECK_PT(at(d, "c-2"), -15 * kMm, 0);
  CHECK(!coordinate(d, "r-2").has_value());
  CHECK_PT(at(d, "r-3"), 5 * kCm + 5 * kMm, -10 * kMm);
}

TEST_CASE("trees: level styles (with the level as #1), every child, child foreach") {
  Pic p;
  p.pre("level/.style={sibling distance=20mm/#1}");
  p.pre("level 2/.style={level distance=5mm}");
  p.path("\\coordinate (r) child foreach \\x in {1,2} {child foreach \\y in {1,...,3}};");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK_PT(at(d, "r-1"), -10 * kMm, -15 * kMm);
  CHECK_PT(at(d, "r-2-1"), 10 * kMm - 10 * kMm, -20 * kMm);
  CHECK_PT(at(d, "r-2-3"), 10 * kMm + 10 * kMm, -20 * kMm);
}

TEST_CASE("trees: the trees library growth functions") {
  Pic p;
  p.path("\\node (r) {root} [clockwise from=30,sibling angle=30] child child;");
  p.path("\\coordinate (c) at (5,0) [grow cyclic, level distance=1cm, sibling angle=90] child child;");
  p.path("\\node (g) at (10,0) {g} [grow via three points={one child at (0,1) and two children at (-.5,1) and "
         "(.5,1)}] child child child;");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const double c30 = std::cos(std::numbers::pi / 6);
  CHECK_PT(at(d, "r-1"), 15 * kMm * c30, 7.5 * kMm);
  CHECK_PT(at(d, "r-2"), 15 * kMm, 0);
  // grow cyclic: rotate by sibling angle * (i - (n+1)/2) around the x axis
  const double s45 = std::sqrt(0.5);
  CHECK_PT(at(d, "c-1"), 5 * kCm + kCm * s45, -kCm * s45);
  CHECK_PT(at(d, "c-2"), 5 * kCm + kCm * s45, kCm * s45);
  // three children: (0,1) + 2*(-.5,0) + (i-1)*(1,0), named g-0, g-1, g-2 (as lualatex names them)
  CHECK_PT(at(d, "g-0"), 10 * kCm - kCm, kCm);
  CHECK_PT(at(d, "g-1"), 10 * kCm, kCm);
  CHECK_PT(at(d, "g-2"), 10 * kCm + kCm, kCm);
}

TEST_CASE("trees: edge from parent options, labels, paths and the fork edges") {
  Pic p;
  p.pre("edge from parent/.style={draw,red,thick}");
  p.path("\\node (r) {root} child {node {left} edge from parent[draw=none]} "
         "child {node {right} edge from parent node[left] {a} node[right] {b}};");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK(d.nodes.size() == 5);  // root, two children, two labels
  CHECK(drawn(d) == 1);
  Pic q;
  q.path("\\node (r) {root} [edge from parent fork down] child {node {left}} child {node {right}};");
  auto e = q.lower();
  CHECK(count_unsupported(e) == 0);
  REQUIRE(e.elements.size() == 2);
  const auto& pl = geom<ir::Polyline>(e, 0);
  CHECK(pl.points.size() == 4);  // (r) -- +(0,-.5 level distance) -| (child)
  CHECK(pl.points[1].y == doctest::Approx(-7.5 * kMm));
}

// tikz.code.tex leaves \tikz@node@is@a@label set after the edge's path: a coordinate or node written
// after `edge from parent` (and after its collected labels) is placed halfway along the edge, like
// them. lualatex: (w) and (n) at (0, -21.42206pt), between the borders of A (0,0) and B (0,-1.5cm).
TEST_CASE("trees: a coordinate and a node after edge from parent sit halfway along the edge") {
  Pic p;
  p.path("\\node (A) {A} child {node {B} edge from parent coordinate (w) node (n) {n}};");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK_PT(at(d, "w"), 0, -21.42206);
  CHECK_PT(at(d, "n"), 0, -21.42206);
}

TEST_CASE("trees: child options and mid-path options apply to the whole child") {
  Pic p;
  p.path("\\node (r) {root} child { [level distance=5mm] child child[level distance=10mm] } child[xshift=1cm];");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK_PT(at(d, "r-1-1"), -7.5 * kMm - 7.5 * kMm, -15 * kMm - 5 * kMm);
  CHECK_PT(at(d, "r-1-2"), -7.5 * kMm + 7.5 * kMm, -15 * kMm - 10 * kMm);
  CHECK_PT(at(d, "r-2"), 7.5 * kMm + kCm, -15 * kMm);
}

TEST_CASE("trees: the path's own nodes and operations inside a child") {
  Pic p;
  p.path("\\node (r) {root} child {[fill] circle (2pt)};");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  bool circle = false;
  for (const auto& e : d.elements)
    if (auto* c = std::get_if<ir::Circle>(&e.geom)) {
      circle = true;
      CHECK_PT(c->center, 0, -15 * kMm);
    }
  CHECK(circle);
}

TEST_CASE("trees: tree keys of the picture arrive through the inherited tree keys style") {
  Pic p;
  p.pre("tikzlint@tree keys/.style={level distance=1cm, grow=right}");
  p.path("\\node (r) {root} child;");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK_PT(at(d, "r-1"), kCm, 0);
}

TEST_CASE("mindmaps: concepts are circles sized per level, joined by bars") {
  Pic p;
  p.path("\\path[mindmap, concept color=red!50] node[concept] (root) {Root} child[grow=right] {node[concept] {A}};");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const ir::Node* r = node(d, "root");
  const ir::Node* a = node(d, "root-1");
  REQUIRE(r);
  REQUIRE(a);
  CHECK(r->shape == ir::NodeShape::circle);
  CHECK(r->box.width() == doctest::Approx(4 * kCm).epsilon(0.01));
  CHECK(a->box.width() == doctest::Approx(2.25 * kCm).epsilon(0.01));
  CHECK_PT(a->center, 5 * kCm, 0);  // level 1 concept: level distance=5cm
  CHECK(drawn(d) >= 1);
}
