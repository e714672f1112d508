// packages/graphs/test_graphs.cpp: \graph (pgfmanual 19) lowered into nodes and edges. Expected positions are
// those lualatex gives for the same graphs (\pgfpointanchor{name}{center}), 1cm = 28.45274pt.
#include <cmath>
#include <map>

#include "ir/test_lower_support.hpp"

using namespace lowertest;

namespace {
ir::Diagram graph(const std::string& statement) {
  Pic p;
  p.path(statement);
  return p.lower();
}

std::map<std::string, ir::Point> centers(const ir::Diagram& d) {
  std::map<std::string, ir::Point> out;
  for (const auto& n : d.nodes)
    if (!n.is_label && !n.name.empty()) out[n.name] = n.center;
  return out;
}

std::size_t drawn_elements(const ir::Diagram& d) {
  std::size_t n = 0;
  for (const auto& e : d.elements)
    if (e.style.draw) ++n;
  return n;
}

std::size_t label_nodes(const ir::Diagram& d) {
  std::size_t n = 0;
  for (const auto& x : d.nodes)
    if (x.name.empty() || x.on_path) ++n;
  return n;
}

#define CHECK_AT(m, name, X, Y)                                   \
  do {                                                            \
    REQUIRE((m).count(name) == 1);                                \
    CHECK((m).at(name).x == doctest::Approx(X).epsilon(1e-4));     \
    CHECK((m).at(name).y == doctest::Approx(Y).epsilon(1e-4));     \
  } while (0)
}  // namespace

TEST_CASE("graph: a group gets an edge from the node before and to the node after") {
  auto d = graph("\\graph { a -> {b, c} -> d };");
  auto m = centers(d);
  CHECK_AT(m, "a", 0, 0);
  CHECK_AT(m, "b", kCm, 0);
  CHECK_AT(m, "c", kCm, -kCm);
  CHECK_AT(m, "d", 2 * kCm, 0);
  CHECK(drawn_elements(d) == 4);
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("graph: chains separated by , stack along the group shift, mentioned nodes are reused") {
  auto d = graph("\\graph { a -> b -> c; d -> e -> f; g -> f; };");
  auto m = centers(d);
  CHECK(d.nodes.size() == 7);
  CHECK_AT(m, "d", 0, -kCm);
  CHECK_AT(m, "f", 2 * kCm, -kCm);
  CHECK_AT(m, "g", 0, -2 * kCm);
  CHECK(drawn_elements(d) == 5);
}

TEST_CASE("graph: grow down with branch right") {
  auto d = graph("\\graph [grow down, branch right=2.5cm] { root -> { c1, c2 -> { g1, g2 }, c3 } };");
  auto m = centers(d);
  CHECK_AT(m, "c1", 0, -kCm);
  CHECK_AT(m, "c2", 2.5 * kCm, -kCm);
  CHECK_AT(m, "g2", 5 * kCm, -2 * kCm);
  CHECK_AT(m, "c3", 7.5 * kCm, -kCm);
}

TEST_CASE("graph: a cycle placed clockwise, the subgraph's own placement takes no room") {
  auto d = graph("\\graph { subgraph C_n [n=5, clockwise] -> mid };");
  auto m = centers(d);
  CHECK_AT(m, "1", 0, kCm);
  CHECK_AT(m, "2", 27.06041, 8.79248);
  CHECK_AT(m, "3", 16.72406, -23.01886);
  CHECK_AT(m, "mid", 0, 0);
  CHECK(drawn_elements(d) == 10);  // five cycle edges, five to mid
}

TEST_CASE("graph: grid placement wraps after the square root of n") {
  auto d = graph("\\graph [grid placement] { subgraph Grid_n [n=9] };");
  auto m = centers(d);
  CHECK_AT(m, "2", kCm, 0);
  CHECK_AT(m, "4", 0, -kCm);
  CHECK_AT(m, "9", 2 * kCm, -2 * kCm);
  CHECK(drawn_elements(d) == 12);
}

TEST_CASE("graph: level styles place from where the level starts") {
  auto d = graph(
      "\\graph [branch down=5mm, level 1/.style={grow right=2cm}, level 2/.style={grow right=1cm}]"
      " { a -> { b, c -> { d, e }, j } };");
  auto m = centers(d);
  CHECK_AT(m, "b", 56.9055, 0);
  CHECK_AT(m, "c", 56.9055, -14.22636);
  CHECK_AT(m, "d", 85.35825, -14.22636);
  CHECK_AT(m, "e", 85.35825, -28.45273);
  CHECK_AT(m, "j", 56.9055, -42.6791);
}

TEST_CASE("graph: no placement with the graph's x and y keys") {
  auto d = graph("\\graph [no placement] { a -> { [x=1] b [y=0] -> c[y=1] }; };");
  auto m = centers(d);
  CHECK_AT(m, "a", 0, 0);
  CHECK_AT(m, "b", kCm, 0);
  CHECK_AT(m, "c", kCm, kCm);
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("graph: grow right sep puts west anchors one node width plus 1em apart") {
  auto d = graph("\\graph [grow right sep] { start -- {long text, x} -- end };");
  auto m = centers(d);
  // text widths come from ir's font metrics: allow their small error
  REQUIRE(m.count("start") == 1);
  CHECK(m.at("start").x == doctest::Approx(13.85297).epsilon(0.02));
  CHECK(m.at("long text").x == doctest::Approx(60.8239).epsilon(0.02));
  CHECK(m.at("x").y == doctest::Approx(-kCm).epsilon(1e-4));
  CHECK(m.at("end").x == doctest::Approx(105.25484).epsilon(0.02));
}

TEST_CASE("graph: simple graphs keep one edge per pair and -!- removes it") {
  auto d = graph("\\graph [simple] { subgraph K_n [n=4, clockwise]; 1 -!- 2; 3 --[red] 1 };");
  CHECK(d.nodes.size() == 4);
  CHECK(drawn_elements(d) == 5);
}

TEST_CASE("graph: complete bipartite, and edge quotes become edge labels") {
  auto d = graph("\\graph { {a, b} -> [complete bipartite] {c, d}; e ->[\"x\"] f };");
  CHECK(drawn_elements(d) == 5);
  CHECK(label_nodes(d) == 1);
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("graph: names, quoted texts and slashes") {
  auto d = graph("\\graph { x1/$x_1$ -> \"$x_2$\" -> /; { [name=first] 1, 2 } };");
  auto m = centers(d);
  CHECK(m.count("x1") == 1);
  CHECK(m.count("first 1") == 1);
  CHECK(m.count("@DOLLAR SIGN@x@LOW LINE@2@DOLLAR SIGN@") == 1);
  bool text = false;
  for (const auto& n : d.nodes) text = text || n.text == "$x_1$";
  CHECK(text);
}

TEST_CASE("graph: graph drawing layouts are reported and nothing is guessed") {
  auto d = graph("\\graph [layered layout] { a -> b -> c };");
  CHECK(d.nodes.empty());
  CHECK(has_rule(d, "unsupported-key"));
}

TEST_CASE("graph: an unknown edge operator is reported with the rest still lowered") {
  auto d = graph("\\graph { a -> b, c [operator=\\foo] };");
  CHECK(d.nodes.size() == 3);
  CHECK(has_rule(d, "unsupported-key"));
}
