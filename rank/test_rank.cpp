#include <doctest/doctest.h>

#include "rank/rank.hpp"

using namespace tikzlint;

namespace {

ir::Node node(const std::string& text, double x, double y) {
  ir::Node n;
  n.text = text;
  n.center = {x, y};
  n.box = {x - 10, y - 6, x + 10, y + 6};
  return n;
}

ir::Element arrow(ir::Point a, ir::Point b, bool tip_end = true) {
  ir::Element e;
  e.geom = ir::Segment{a, b};
  e.style.draw = true;
  e.style.arrow_end = tip_end;
  return e;
}

// Two labelled boxes joined by an arrow, a triangle beside them; everything scaled by k, shifted by (dx, dy).
ir::Diagram flow(double k = 1, double dx = 0, double dy = 0) {
  ir::Diagram d;
  auto P = [&](double x, double y) { return ir::Point{k * x + dx, k * y + dy}; };
  d.nodes.push_back(node("ATP", P(0, 0).x, P(0, 0).y));
  d.nodes.push_back(node("ADP", P(100, 0).x, P(100, 0).y));
  d.nodes.back().box = {P(100, 0).x - 10, P(100, 0).y - 6, P(100, 0).x + 10, P(100, 0).y + 6};
  d.nodes.front().box = {P(0, 0).x - 10, P(0, 0).y - 6, P(0, 0).x + 10, P(0, 0).y + 6};
  d.elements.push_back(arrow(P(10, 0), P(90, 0)));
  ir::Element tri;
  tri.geom = ir::Polyline{{P(0, 40), P(60, 40), P(0, 80)}, true, true};
  tri.style.draw = true;
  d.elements.push_back(tri);
  return d;
}

const rank::Part& part(const rank::Similarity& s, const std::string& name) {
  for (const auto& p : s.parts)
    if (p.name == name) return p;
  FAIL("no part " << name);
  return s.parts.front();
}

}  // namespace

TEST_CASE("compare: a picture with itself scores 1, every part applying") {
  auto s = rank::compare(flow(), flow());
  CHECK(s.score == doctest::Approx(1.0));
  for (const auto& p : s.parts) {
    CHECK(p.applies);
    CHECK(p.changes.empty());
  }
}

TEST_CASE("compare: a uniform scale and shift changes nothing measurable") {
  // Node boxes do not scale with the picture here (as TikZ nodes without transform shape), so
  // the arrow ends move a little: within the position tolerance.
  auto s = rank::compare(flow(), flow(1.7, 300, -120));
  CHECK(s.score >= 0.99);
  CHECK(part(s, "labels").score == doctest::Approx(1.0));
  CHECK(part(s, "structure").score == doctest::Approx(1.0));
}

TEST_CASE("compare: a dropped label lowers labels and names it") {
  auto b = flow();
  b.nodes.pop_back();
  auto s = rank::compare(flow(), b);
  CHECK(s.score < 0.99);
  const auto& p = part(s, "labels");
  CHECK(p.score < 1.0);
  REQUIRE(p.changes.size() == 1);
  CHECK(p.changes[0] == "label 'ADP' is in A, not in B");
}

TEST_CASE("compare: a reversed arrow lowers structure and arrows and names it") {
  auto b = flow();
  b.elements[0] = arrow({90, 0}, {10, 0});
  auto s = rank::compare(flow(), b);
  CHECK(s.score < 0.99);
  const auto& st = part(s, "structure");
  CHECK(st.score < 1.0);
  REQUIRE(st.changes.size() == 1);
  CHECK(st.changes[0].find("reversed") != std::string::npos);
  CHECK(part(s, "arrows").score < 1.0);
}

TEST_CASE("compare: swapped labels are named as a swap") {
  auto b = flow();
  std::swap(b.nodes[0].text, b.nodes[1].text);
  auto s = rank::compare(flow(), b);
  const auto& p = part(s, "label_positions");
  CHECK(p.score < 0.9);
  REQUIRE(!p.changes.empty());
  CHECK(p.changes[0].find("swapped") != std::string::npos);
}

TEST_CASE("compare: a moved element lowers strokes, and an empty picture scores 0 on strokes") {
  auto b = flow();
  std::get<ir::Polyline>(b.elements[1].geom).points[1] = {120, 60};
  CHECK(part(rank::compare(flow(), b), "strokes").score < 0.95);
  auto e = rank::compare(flow(), ir::Diagram{});
  CHECK(part(e, "strokes").score == 0.0);
  CHECK(e.score < 0.5);
}

TEST_CASE("rank: compiles > no rule fails > lighter findings > closer to the reference") {
  std::vector<ir::Diagram> ref{flow()}, same{flow()}, moved{flow(1, 0, 0)};
  std::get<ir::Polyline>(moved[0].elements[1].geom).points[1] = {120, 60};
  auto diag = [](Severity s) {
    Diagnostic d;
    d.rule = "x";
    d.severity = s;
    return d;
  };
  std::vector<rank::Candidate> cs(5);
  cs[0].diagnostics = {diag(Severity::error)};                   // does not compile
  cs[1].verdicts = {{"in_frame", checks::Verdict::fail}};        // a rule fails
  cs[2].diagnostics = {diag(Severity::warning)};                 // one finding
  cs[3].diagrams = &moved;                                       // clean, further from the reference
  cs[4].diagrams = &same;                                        // clean, the reference itself
  for (auto& c : cs)
    if (!c.diagrams) c.diagrams = &same;
  rank::Candidate reference;
  reference.diagrams = &ref;
  auto r = rank::rank(cs, &reference);
  REQUIRE(r.size() == 5);
  CHECK(r[0].index == 4);
  CHECK(r[1].index == 3);
  CHECK(r[2].index == 2);
  CHECK(r[3].index == 1);
  CHECK(r[4].index == 0);
  for (std::size_t i = 1; i < r.size(); ++i) CHECK(r[i - 1].score > r[i].score);
  CHECK(r[4].reasons[0].find("does not compile") == 0);
  CHECK(r[0].score <= 1.0);
  CHECK(r[4].score >= 0.0);
  // Without a reference the two clean candidates tie and keep their input order.
  auto nr = rank::rank(cs, nullptr);
  CHECK(nr[0].index == 3);
  CHECK(nr[1].index == 4);
}

TEST_CASE("rank: with a reference, what the reference has does not count against a candidate") {
  std::vector<ir::Diagram> ref{flow()}, moved{flow(1, 0, 0)};
  std::get<ir::Polyline>(moved[0].elements[1].geom).points[1] = {120, 60};
  auto diag = [](const char* rule, Severity s) {
    Diagnostic d;
    d.rule = rule;
    d.severity = s;
    return d;
  };
  // The reference fails in_frame with one warning: a faithful copy has the same.
  rank::Candidate reference;
  reference.diagrams = &ref;
  reference.verdicts = {{"in_frame", checks::Verdict::fail}};
  reference.diagnostics = {diag("in_frame", Severity::warning)};
  std::vector<rank::Candidate> cs(3);
  cs[0].diagrams = &moved;  // the finding gone, but the figure moved
  cs[1] = reference;        // the unchanged copy
  cs[2] = reference;        // the copy with a new finding of another rule
  cs[2].diagnostics.push_back(diag("overlap", Severity::warning));
  auto r = rank::rank(cs, &reference);
  REQUIRE(r.size() == 3);
  CHECK(r[0].index == 1);
  CHECK(r[1].index == 0);
  CHECK(r[2].index == 2);
  CHECK(r[0].rules_pass);
  CHECK(r[0].finding_weight == 0);
  CHECK(r[2].finding_weight == 1);
  // A second in_frame finding is beyond the reference's count and weighs.
  cs[2].diagnostics = {diag("in_frame", Severity::warning), diag("in_frame", Severity::warning)};
  CHECK(rank::rank(cs, &reference)[2].finding_weight == 1);
  // An error of the reference still stops a candidate from compiling.
  reference.diagnostics = {diag("x", Severity::error)};
  cs[1] = reference;
  auto e = rank::rank(cs, &reference);
  CHECK(e.back().index == 1);
  CHECK_FALSE(e.back().compiles);
  // Without a reference the copy's failing rule counts: the moved clean candidate is first.
  cs[1].diagnostics.clear();
  CHECK(rank::rank(cs, nullptr)[0].index == 0);
}

TEST_CASE("rank: between candidates equally close to the reference, the one at its size first") {
  std::vector<ir::Diagram> ref{flow()}, same{flow()}, larger{flow(1.4, 50, 0)};
  rank::Candidate reference;
  reference.diagrams = &ref;
  std::vector<rank::Candidate> cs(2);
  cs[0].diagrams = &larger;  // first in the input: a tie would keep it first
  cs[1].diagrams = &same;
  auto s = rank::compare(ref, larger);
  CHECK(s.size_ratio == doctest::Approx(1.4));
  CHECK(rank::compare(ref, same).size_ratio == doctest::Approx(1.0));
  auto r = rank::rank(cs, &reference);
  CHECK(r[0].index == 1);
  CHECK(r[1].index == 0);
}
