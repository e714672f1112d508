// packages/chains/test_chains.cpp: the chains library (pgfmanual 46, tikzlibrarychains.code.tex) lowered into
// positioned nodes and join edges. Expected positions are what lualatex (pgf 3.1.10) printed for
// the same pictures with \pgfgetlastxy on the chain names (<chain>-<n>, -begin, -end); the
// tolerance is 1e-3pt plus the .2pt outer sep where an anchor on the border is compared.
#include "ir/test_lower_support.hpp"

using namespace lowertest;

namespace {
const ir::Node* node_text(const ir::Diagram& d, const std::string& text) {
  for (const auto& n : d.nodes)
    if (n.text == text && !n.is_label) return &n;
  return nullptr;
}

ir::Point center_of(const ir::Diagram& d, const std::string& text) {
  const ir::Node* n = node_text(d, text);
  REQUIRE(n != nullptr);
  return n->center;
}

std::string diagnostics(const ir::Diagram& d) {
  std::string out;
  for (const auto& x : d.diagnostics) out += x.rule + ": " + x.message + "\n";
  return out;
}

std::size_t drawn_segments(const ir::Diagram& d) {
  std::size_t k = 0;
  for (const auto& e : d.elements)
    if (e.style.draw && std::holds_alternative<ir::Segment>(e.geom)) ++k;
  return k;
}

#define CHECK_NEAR(p, X, Y)                              \
  do {                                                   \
    CHECK((p).x == doctest::Approx(X).epsilon(1e-4));    \
    CHECK((p).y == doctest::Approx(Y).epsilon(1e-4));    \
  } while (0)
}  // namespace

TEST_CASE("chains: going right, continue chain going below, join edges between chain neighbours") {
  Pic p;
  p.options = "start chain=going right,node distance=5mm,every node/.style=draw";
  p.path("\\node [on chain] (h) {Hello};");
  p.path("\\node [on chain,join] {World};");
  p.path("\\node [continue chain=going below,on chain,join] {,};");
  p.path("\\node [on chain,join=by ->] {this};");
  p.path("\\draw (chain-begin) -- (chain-end);");
  auto d = p.lower();
  CHECK_MESSAGE(count_unsupported(d) == 0, diagnostics(d));
  // lualatex: chain-1.east = (14.78297,0), chain-2.west = (29.00934,0), chain-3.north =
  // (45.89731,-21.33934), chain-4.center = (45.89731,-52.67961)
  CHECK(node_text(d, "Hello")->box.xmax + 0.2 == doctest::Approx(14.78297).epsilon(1e-4));
  CHECK(node_text(d, "World")->box.xmin - 0.2 == doctest::Approx(29.00934).epsilon(1e-4));
  CHECK_NEAR(center_of(d, "World"), 45.89731, 0);
  CHECK(node_text(d, ",")->box.ymax + 0.2 == doctest::Approx(-21.33934).epsilon(1e-4));
  CHECK_NEAR(center_of(d, "this"), 45.89731, -52.67961);
  // three joins and the line between chain-begin and chain-end (aliases of the first and last)
  CHECK(drawn_segments(d) == 4);
  const auto& line = geom<ir::Segment>(d, d.elements.size() - 1);
  CHECK(line.a.y < 0);  // leaves Hello toward `this`, below it
  CHECK(line.b.y == doctest::Approx(node_text(d, "this")->box.ymax + 0.2).epsilon(1e-4));
}

TEST_CASE("chains: placed at \\tikzchaincount, \\chainin of an existing node, the next node placed from it") {
  Pic p;
  p.options = "start chain=going right,node distance=5mm,every node/.style=draw";
  p.path("\\node [on chain] {Hello};");
  p.scope("start chain=2 placed {at=(\\tikzchaincount*30:3)}");
  p.path("\\node [on chain=2] {a};");
  p.path("\\node [on chain=2] {b};");
  p.end();
  p.path("\\node (x) at (4,2) {x};");
  p.other("\\chainin (x) [join];");
  p.path("\\node [continue chain=going below,on chain] {after};");
  auto d = p.lower();
  CHECK_MESSAGE(count_unsupported(d) == 0, diagnostics(d));
  // lualatex: 2-1 = (73.92259,42.67911), 2-2 = (42.67911,73.92259); x = chain-2 is not moved,
  // chain-3 = (113.81097,29.87817) below it
  CHECK_NEAR(center_of(d, "a"), 73.92259, 42.67911);
  CHECK_NEAR(center_of(d, "b"), 42.67911, 73.92259);
  CHECK_NEAR(center_of(d, "x"), 4 * kCm, 2 * kCm);
  CHECK_NEAR(center_of(d, "after"), 113.81097, 29.87817);
  CHECK(drawn_segments(d) == 1);  // \chainin's join: Hello -> x
}

TEST_CASE("chains: start branch starts from the trunk's end, join=with a branch's end") {
  Pic p;
  p.options = "every on chain/.style=join,node distance=2mm and 1cm";
  p.scope("start chain=trunk");
  p.path("\\node [on chain] {A};");
  p.path("\\node [on chain] {B};");
  p.scope("start branch=numbers going below");
  p.path("\\node [on chain] {1};");
  p.path("\\node [on chain] {2};");
  p.end();
  p.path("\\node [on chain,join=with trunk/numbers-end] {C};");
  p.path("\\draw (trunk/numbers-1) -- (trunk/numbers-begin);");
  p.end();
  auto d = p.lower();
  CHECK_MESSAGE(count_unsupported(d) == 0, diagnostics(d));
  // lualatex: trunk-2 = (42.80869,0), trunk/numbers-2 = (42.80869,-19.50148),
  // trunk/numbers-3 = (42.80869,-38.91797), trunk-3 = (85.47737,0), trunk/numbers-1 = trunk-2
  CHECK_NEAR(center_of(d, "B"), 42.80869, 0);
  CHECK_NEAR(center_of(d, "1"), 42.80869, -19.50148);
  CHECK_NEAR(center_of(d, "2"), 42.80869, -38.91797);
  CHECK_NEAR(center_of(d, "C"), 85.47737, 0);
  // joins A-B, B-1, 1-2, B-C, 2-C; the branch's first names are B's
  CHECK(drawn_segments(d) >= 5);
}

TEST_CASE("chains: on chain of a chain that was never started is reported, the node still drawn") {
  Pic p;
  p.path("\\node [on chain=nowhere] {A};");
  auto d = p.lower();
  CHECK(has_rule(d, "unsupported-key"));
  CHECK(node_text(d, "A") != nullptr);
}
