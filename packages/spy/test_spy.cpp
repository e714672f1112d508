// packages/spy/test_spy.cpp: \spy of the spy library (pgfmanual 71, tikzlibraryspy.code.tex) lowered into its
// spy-on node, spy-in node and connection. Expected anchors are what lualatex (pgf 3.1.10)
// printed with \pgfgetlastxy for the same picture; the spy nodes have no inner or outer sep.
#include "ir/test_lower_support.hpp"

using namespace lowertest;

namespace {
const ir::Node* named(const ir::Diagram& d, const std::string& name) {
  for (const auto& n : d.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

std::string diagnostics(const ir::Diagram& d) {
  std::string out;
  for (const auto& x : d.diagnostics) out += x.rule + ": " + x.message + "\n";
  return out;
}
}  // namespace

TEST_CASE("spy: spy-in nodes of the scope's size at their place, spy-on nodes shrunk by the magnification") {
  Pic p;
  p.scope("spy using outlines={circle, magnification=4, size=2cm, connect spies}");
  p.path("\\draw (0,0) -- (2,1);");
  p.path("\\spy [red] on (1.6,0.3) in node (a) [left] at (3.5,-1.25);");
  p.path("\\spy [blue, size=1cm,rectangle,width=2cm] on (1,1) in node (b) [right] at (0,-1.25);");
  p.end();
  auto d = p.lower();
  // each \spy reports the magnified copy it does not lower; nothing else is unsupported
  CHECK_MESSAGE(count_unsupported(d) == 2, diagnostics(d));
  const ir::Node* a = named(d, "a");
  const ir::Node* b = named(d, "b");
  REQUIRE(a);
  REQUIRE(b);
  // lualatex: a.east = (99.5846,-35.56592), a.center = (71.13185,-35.56592)
  CHECK(a->shape == ir::NodeShape::circle);
  CHECK(a->drawn);
  CHECK(a->box.xmax == doctest::Approx(99.5846).epsilon(1e-5));
  CHECK(a->center.x == doctest::Approx(71.13185).epsilon(1e-5));
  CHECK(a->center.y == doctest::Approx(-35.56592).epsilon(1e-5));
  // lualatex: b.west = (0,-35.56592), b.north east = (56.90549,-21.33955): 2cm by 1cm
  CHECK(b->shape == ir::NodeShape::rectangle);
  CHECK(b->box.xmin == doctest::Approx(0).epsilon(1e-5));
  CHECK(b->box.xmax == doctest::Approx(56.90549).epsilon(1e-5));
  CHECK(b->box.ymax == doctest::Approx(-21.33955).epsilon(1e-5));
  // the spy-on nodes: the spy-in node's shape scaled by 1/4 around the spied point
  std::vector<const ir::Node*> on;
  for (const auto& n : d.nodes)
    if (n.name.empty()) on.push_back(&n);
  REQUIRE(on.size() == 2);
  CHECK(on[0]->center.x == doctest::Approx(1.6 * kCm).epsilon(1e-5));
  CHECK(on[0]->center.y == doctest::Approx(0.3 * kCm).epsilon(1e-5));
  CHECK(on[0]->box.width() == doctest::Approx(0.5 * kCm).epsilon(1e-5));
  CHECK(on[1]->box.width() == doctest::Approx(0.5 * kCm).epsilon(1e-5));
  CHECK(on[1]->box.height() == doctest::Approx(0.25 * kCm).epsilon(1e-5));
  // the line and the two connections of `connect spies`
  CHECK(d.elements.size() == 3);
}

TEST_CASE("spy: \\spy outside a spy scope is reported") {
  Pic p;
  p.path("\\spy on (1,1) in node at (2,2);");
  auto d = p.lower();
  CHECK(has_rule(d, "unsupported-construct"));
}
