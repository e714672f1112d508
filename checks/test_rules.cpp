#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "checks/check.hpp"
#include "checks/rule_support.hpp"
#include "checks/rules/rules.hpp"
#include "checks/test_support.hpp"

using namespace tikzlint;
using namespace tikzlint::checks;
using namespace tikzlint::checks::testing;

namespace {

ir::Diagram clipped(double w, double h) {
  ir::Diagram d;
  d.canvas = ir::Box{0, 0, w, h};
  d.canvas_source = "clip";
  ir::ClipRegion c;
  c.polygon = {{0, 0}, {w, 0}, {w, h}, {0, h}};
  c.is_rectangle = true;
  c.bounds = *d.canvas;
  d.clips.push_back(c);
  return d;
}

// A 3-4-5 right triangle (cm), right angle at the origin.
ir::Diagram right_triangle(double scale = cm) {
  ir::Diagram d;
  d.elements.push_back(polygon({{0, 0}, {4 * scale, 0}, {0, 3 * scale}}));
  return d;
}

}  // namespace

TEST_CASE("the registry lists the eight rubric rules in order, each documented") {
  const char* names[] = {"angle_labels", "length_proportions", "in_frame", "readable_size",
                         "label_association", "overlap", "closed_shapes", "core_math"};
  REQUIRE(registry().size() == 8);
  for (std::size_t i = 0; i < 8; ++i) {
    const RuleDoc& doc = *registry()[i].doc;
    CHECK(doc.name == names[i]);
    CHECK(!doc.summary.empty());
    CHECK(doc.description.find("n/a") != std::string::npos);
    CHECK(doc.description.find("ndeterminate") != std::string::npos);
    CHECK(!doc.failing_example.empty());
    CHECK(!doc.fix.empty());
    CHECK(!doc.thresholds.empty());
    for (const Threshold& t : doc.thresholds) CHECK(!t.reason.empty());
    CHECK(explain(doc).find(doc.thresholds[0].name) != std::string::npos);
    CHECK(explain(doc, true).find("## Thresholds") != std::string::npos);
  }
  CHECK(find_rule("overlap") == &registry()[5]);
  CHECK(find_rule("nope") == nullptr);
}

TEST_CASE("Config overrides a threshold by rule.name") {
  Config cfg;
  const RuleDoc& doc = *find_rule("in_frame")->doc;
  CHECK(cfg.get(doc, "tolerance_pt") == doctest::Approx(2.0));
  cfg.set("in_frame.tolerance_pt", 30);
  CHECK(cfg.get(doc, "tolerance_pt") == doctest::Approx(30));
}

TEST_CASE("in_frame: a segment past the clip fails with its overhang as evidence") {
  ir::Diagram d = clipped(100, 100);
  d.elements.push_back(segment(10, 10, 130, 10, 3));
  d.elements.back().style.arrow_end = true;  // its tip is cut off (a plain line is trimmed on purpose)
  d.elements.back().clips = {0};             // drawn after the clip, in force for it
  RuleResult r = run("in_frame", d);
  CHECK(r.verdict == Verdict::fail);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].evidence["measured"].get<double>() == doctest::Approx(30));
  CHECK(r.findings[0].evidence["unit"] == "pt");
  CHECK(r.findings[0].evidence["side"] == "right");
  CHECK(r.findings[0].range.begin == at_line(3).begin);
  CHECK(r.findings[0].message.find("30pt past the right edge") != std::string::npos);

  Config loose;
  loose.set("in_frame.tolerance_pt", 31);
  CHECK(run("in_frame", d, loose).verdict == Verdict::pass);

  // drawn before the clip: not clipped, the picture grows to fit it
  d.elements.back().clips.clear();
  CHECK(run("in_frame", d).verdict == Verdict::pass);
  CHECK(run("in_frame", d).findings.empty());
}

TEST_CASE("in_frame: near miss within the tolerance, text inside, and no canvas pass") {
  ir::Diagram d = clipped(100, 100);
  d.elements.push_back(segment(0, 50, 101.5, 50));
  d.elements.back().clips = {0};
  d.nodes.push_back(text_node("A", 50, 50));
  CHECK(run("in_frame", d).verdict == Verdict::pass);

  ir::Diagram free;
  free.elements.push_back(segment(-500, 0, 500, 0));
  CHECK(run("in_frame", free).verdict == Verdict::pass);
}

TEST_CASE("in_frame: text or elements wholly outside are notes, incomplete geometry is indeterminate") {
  ir::Diagram d = clipped(100, 100);
  d.nodes.push_back(text_node("Triangle", 95, 50));
  d.elements.push_back(segment(120, 10, 150, 10));
  d.elements.back().clips = {0};
  RuleResult r = run("in_frame", d);
  CHECK(r.verdict == Verdict::pass);
  REQUIRE(r.findings.size() == 2);
  CHECK(r.findings[0].severity == Severity::note);
  CHECK(r.findings[1].severity == Severity::note);

  ir::Diagram inside = clipped(100, 100);
  inside.elements.push_back(segment(10, 10, 20, 20));
  inside.elements.back().incomplete = true;
  CHECK(run("in_frame", inside).verdict == Verdict::indeterminate);
}

TEST_CASE("overlap stops at max_findings, says so in a note, and still fails") {
  ir::Diagram d;
  for (int i = 0; i < 10; ++i) d.nodes.push_back(text_node("Label", 50 + 0.5 * i, 50));  // 45 overlapping pairs
  RuleResult all = run("overlap", d);
  CHECK(all.verdict == Verdict::fail);
  CHECK(all.findings.size() == 45);
  CHECK_FALSE(all.truncated);
  Config capped;
  capped.set("overlap.max_findings", 3);
  RuleResult r = run("overlap", d, capped);
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.truncated);
  REQUIRE(r.findings.size() == 4);  // three findings and the note
  CHECK(r.findings[3].severity == Severity::note);
  CHECK(r.findings[3].message == "overlap stopped at 3 findings (max_findings): the rest of the picture was not searched");
  CHECK(r.findings[0].message == all.findings[0].message);
}

TEST_CASE("a library construct cut short at a resource limit leaves the geometry rules indeterminate") {
  ir::Diagram d;
  d.elements.push_back(segment(10, 10, 20, 20));
  CHECK(run("overlap", d).verdict != Verdict::indeterminate);
  Diagnostic cut;
  cut.rule = "resource-limit";
  cut.severity = Severity::error;
  cut.message = "calendar of 365273 days; limit 10000";
  d.diagnostics.push_back(cut);
  CHECK(run("overlap", d).verdict == Verdict::indeterminate);
  CHECK(run("closed_shapes", d).verdict == Verdict::indeterminate);
}

TEST_CASE("readable_size: 12pt text in a picture three page widths wide fails, a page-sized one passes") {
  ir::Diagram big;
  big.document_class = "IM";  // fitted to the class's text width (standalone: natural size)
  big.elements.push_back(polygon({{0, 0}, {12 * 72.27, 0}, {12 * 72.27, 4 * 72.27}, {0, 4 * 72.27}}));
  big.nodes.push_back(text_node("12 units", 6 * 72.27, -10));
  RuleResult r = run("readable_size", big);
  CHECK(r.verdict == Verdict::fail);
  REQUIRE(!r.findings.empty());
  CHECK(r.findings[0].evidence["measured"].get<double>() < 7);

  ir::Diagram ok;
  ok.document_class = "IM";
  ok.elements.push_back(polygon({{0, 0}, {3 * 72.27, 0}, {3 * 72.27, 2 * 72.27}, {0, 2 * 72.27}}));
  ok.nodes.push_back(text_node("3 in", 1.5 * 72.27, -10));
  CHECK(run("readable_size", ok).verdict == Verdict::pass);
}

TEST_CASE("readable_size: text set at 4pt fails whatever the picture's size") {
  ir::Diagram d;
  d.elements.push_back(segment(0, 0, 100, 0));
  d.nodes.push_back(text_node("A", 50, 10, 2, 4));
  CHECK(run("readable_size", d).verdict == Verdict::fail);
}

TEST_CASE("label_association: a length label far from every segment is orphaned") {
  ir::Diagram d = right_triangle();
  d.nodes.push_back(text_node("5 cm", 4 * cm + 30, 3 * cm));  // right of the picture, far from the hypotenuse
  RuleResult r = run("label_association", d);
  CHECK(r.verdict == Verdict::fail);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].evidence["problem"] == "orphaned");
  CHECK(r.findings[0].evidence["limit"].get<double>() == doctest::Approx(18));
}

TEST_CASE("label_association: labels beside their sides and vertices pass, no labels is n/a") {
  ir::Diagram d = right_triangle();
  d.nodes.push_back(text_node("4 cm", 2 * cm, -10));
  d.nodes.push_back(text_node("3 cm", -20, 1.5 * cm));
  d.nodes.push_back(text_node("$A$", -8, -8));
  d.nodes.push_back(text_node("Right triangle", 2 * cm, 4 * cm + 40));  // a caption is not checked
  CHECK(run("label_association", d).verdict == Verdict::pass);
  CHECK(run("label_association", right_triangle()).verdict == Verdict::na);
}

TEST_CASE("label_association: a length label equidistant from two sides of different lengths is ambiguous") {
  ir::Diagram d;
  d.elements.push_back(polygon({{0, 0}, {200, 0}, {0, 100}}));
  // at the right-angle corner, both legs equally near; its unit makes it a length (a bare "7"
  // there, by no side's middle, is read as a name of the corner: the scene's reading)
  d.nodes.push_back(text_node("7 cm", -9, -9));
  RuleResult r = run("label_association", d);
  CHECK(r.verdict == Verdict::fail);
  REQUIRE(!r.findings.empty());
  CHECK(r.findings[0].evidence["problem"] == "ambiguous");
}

TEST_CASE("overlap: a side through its own label fails, the label set above it passes") {
  ir::Diagram d;
  d.elements.push_back(segment(0, 0, 200, 0, 1));
  d.nodes.push_back(text_node("5 cm", 100, 0, 2));
  RuleResult r = run("overlap", d);
  CHECK(r.verdict == Verdict::fail);
  REQUIRE(!r.findings.empty());
  CHECK(r.findings[0].evidence["problem"] == "line through text");

  ir::Diagram ok;
  ok.elements.push_back(segment(0, 0, 200, 0, 1));
  ok.nodes.push_back(text_node("5 cm", 100, 12, 2));
  CHECK(run("overlap", ok).verdict == Verdict::pass);
}

TEST_CASE("overlap: an opaque label background painted after the line hides it") {
  ir::Diagram d;
  d.elements.push_back(segment(0, 0, 200, 0, 1));
  d.nodes.push_back(text_node("5 cm", 100, 0, 2));
  d.nodes.back().filled = true;
  CHECK(run("overlap", d).verdict == Verdict::pass);
}

TEST_CASE("overlap: two labels on top of each other fail") {
  ir::Diagram d;
  d.nodes.push_back(text_node("A", 0, 0, 1));
  d.nodes.push_back(text_node("B", 2, 1, 2));
  RuleResult r = run("overlap", d);
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.findings[0].evidence["problem"] == "text over text");
}

namespace {

// Unit cube faces under TikZ's default projection: x right, y up, z = (-0.385, -0.385) cm.
ir::Element face(std::vector<ir::Point3> p3, std::uint32_t line) {
  ir::Face3D f;
  f.points3 = p3;
  for (const auto& p : p3) f.points.push_back({(p.x - 0.385 * p.z) * cm, (p.y - 0.385 * p.z) * cm});
  ir::Element e = drawn(f, line);
  e.style.fill = true;
  return e;
}

}  // namespace

TEST_CASE("overlap: a 3D back face painted over the front face fails, back to front passes") {
  auto front = face({{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}, 1);
  auto back = face({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, 2);
  auto top = face({{0, 1, 0}, {1, 1, 0}, {1, 1, 1}, {0, 1, 1}}, 3);
  ir::Diagram wrong;
  wrong.is_3d = true;
  wrong.elements = {front, top, back};  // back painted last
  RuleResult r = run("overlap", wrong);
  CHECK(r.verdict == Verdict::fail);
  REQUIRE(!r.findings.empty());
  CHECK(r.findings[0].evidence["problem"] == "3D face order");

  ir::Diagram right;
  right.is_3d = true;
  right.elements = {back, top, front};
  CHECK(run("overlap", right).verdict == Verdict::pass);
}

TEST_CASE("overlap: the 3D-face pairs decided without GEOS are only pairs GEOS would not report") {
  // Stacks of unit cubes on a half-unit grid (so that faces meet along edges and lie in common
  // planes, where depths tie, or nearly), all six faces, painted in a random order, under two
  // projections:
  // the findings with the shortcuts are those with every pair sent through GEOS, and the
  // shortcuts decide most pairs.
  using rules::testing::face_pairs;
  std::mt19937 rng(20261129);
  std::uniform_int_distribution<int> half(0, 4), count(2, 6), jitter(0, 6);
  const std::array<std::array<double, 6>, 2> views = {{{1, 0, 0, 1, -0.385, -0.385},  // TikZ's default
                                                       {0.87, -0.3, -0.5, -0.52, 0, 1}}};  // tikz-3dplot-like
  std::size_t findings = 0, skipped = 0, diagrams = 0;
  for (int n = 0; n < 60; ++n) {
    const auto& v = views[n % 2];
    auto make_face = [&](std::vector<ir::Point3> p3, std::uint32_t line) {
      ir::Face3D f;
      f.points3 = p3;
      for (const auto& p : p3) f.points.push_back({(v[0] * p.x + v[2] * p.y + v[4] * p.z) * cm, (v[1] * p.x + v[3] * p.y + v[5] * p.z) * cm});
      ir::Element e = drawn(f, line);
      e.style.fill = true;
      return e;
    };
    ir::Diagram d;
    d.is_3d = true;
    std::uint32_t line = 1;
    for (int c = count(rng); c > 0; --c) {
      // Some cubes are nudged by a few millionths, across the report's tolerance (1e-6 frame units)
      const double nudge = std::array<double, 7>{0, 0, 0, 5e-7, -5e-7, 4e-6, -1e-5}[jitter(rng)];
      const double x = half(rng) / 2.0, y = half(rng) / 2.0, z = half(rng) / 2.0 + nudge;
      for (int axis = 0; axis < 3; ++axis)
        for (double side : {0.0, 1.0}) {
          std::vector<ir::Point3> q;
          for (auto [a, b] : {std::pair{0, 0}, {1, 0}, {1, 1}, {0, 1}}) {
            double p[3];
            p[axis] = side;
            p[(axis + 1) % 3] = a;
            p[(axis + 2) % 3] = b;
            q.push_back({x + p[0], y + p[1], z + p[2]});
          }
          d.elements.push_back(make_face(q, line++));
        }
    }
    std::shuffle(d.elements.begin(), d.elements.end(), rng);
    face_pairs = {};
    const RuleResult fast = run("overlap", d);
    skipped += face_pairs.skipped;
    face_pairs.shortcuts = false;
    const RuleResult exact = run("overlap", d);
    face_pairs = {};
    ++diagrams;
    CHECK(fast.verdict == exact.verdict);
    REQUIRE(fast.findings.size() == exact.findings.size());
    for (std::size_t k = 0; k < fast.findings.size(); ++k) {
      CHECK(fast.findings[k].message == exact.findings[k].message);
      CHECK(fast.findings[k].evidence.dump() == exact.findings[k].evidence.dump());
      CHECK(fast.findings[k].range.begin == exact.findings[k].range.begin);
    }
    findings += exact.findings.size();
  }
  INFO(diagrams, " diagrams, ", findings, " findings, ", skipped, " pairs skipped");
  CHECK(findings > 20);   // the random orders put faces behind others: there is something to find
  CHECK(skipped > 1000);  // and the shortcuts are taken
}

namespace {

ir::Element arc(ir::Point c, double r, double a0, double a1, std::uint32_t line = 5) {
  ir::Arc a;
  a.center = c;
  a.rx = a.ry = r;
  a.start_deg = a0;
  a.end_deg = a1;
  a.from = {c.x + r * std::cos(a0 * M_PI / 180), c.y + r * std::sin(a0 * M_PI / 180)};
  a.to = {c.x + r * std::cos(a1 * M_PI / 180), c.y + r * std::sin(a1 * M_PI / 180)};
  return drawn(a, line);
}

}  // namespace

TEST_CASE("angle_labels: a 60 degree label on a 26.6 degree angle fails, the right value passes") {
  ir::Diagram d;
  d.elements.push_back(polygon({{0, 0}, {4 * cm, 0}, {2 * cm, 1 * cm}}));
  d.elements.push_back(arc({0, 0}, 0.6 * cm, 0, 26.57));
  d.nodes.push_back(text_node("$60^\\circ$", 0.9 * cm + 12, 0.2 * cm));
  RuleResult r = run("angle_labels", d);
  CHECK(r.verdict == Verdict::fail);
  REQUIRE(!r.findings.empty());
  CHECK(r.findings[0].evidence["drawn_deg"].get<double>() == doctest::Approx(26.57).epsilon(0.01));

  d.nodes.back().text = "$27^\\circ$";
  CHECK(run("angle_labels", d).verdict == Verdict::pass);
}

TEST_CASE("angle_labels: right-angle marks are checked against 90 degrees, none at all is n/a") {
  ir::Diagram d = right_triangle();
  ir::Rectangle mark;
  mark.corners = {{{0, 0}, {8, 0}, {8, 8}, {0, 8}}};
  d.elements.push_back(drawn(mark, 4));
  CHECK(run("angle_labels", d).verdict == Verdict::pass);

  ir::Diagram skew;
  skew.elements.push_back(polygon({{0, 0}, {4 * cm, 0}, {2 * cm, 3 * cm}}));
  skew.elements.push_back(drawn(mark, 4));  // axis-aligned square in a 56 degree corner
  RuleResult r = run("angle_labels", skew);
  CHECK(r.verdict == Verdict::fail);

  CHECK(run("angle_labels", right_triangle()).verdict == Verdict::na);
}

TEST_CASE("length_proportions: labels 3 and 4 on sides drawn 4:1 fail, drawn 3:4 pass") {
  ir::Diagram bad;
  bad.elements.push_back(polygon({{0, 0}, {4 * cm, 0}, {4 * cm, 1 * cm}}));
  bad.nodes.push_back(text_node("3 cm", 2 * cm, -10));
  bad.nodes.push_back(text_node("4 cm", 4 * cm + 20, 0.5 * cm));
  RuleResult r = run("length_proportions", bad);
  CHECK(r.verdict == Verdict::fail);
  REQUIRE(!r.findings.empty());
  CHECK(r.findings[0].evidence["unit"] == "ratio");

  ir::Diagram good = right_triangle();
  good.nodes.push_back(text_node("4 cm", 2 * cm, -10));
  good.nodes.push_back(text_node("3 cm", -20, 1.5 * cm));
  CHECK(run("length_proportions", good).verdict == Verdict::pass);
}

TEST_CASE("length_proportions: one label, or labels that are not numbers, is n/a") {
  ir::Diagram one = right_triangle();
  one.nodes.push_back(text_node("4 cm", 2 * cm, -10));
  CHECK(run("length_proportions", one).verdict == Verdict::na);
  ir::Diagram algebra = right_triangle();
  algebra.nodes.push_back(text_node("2x", 2 * cm, -10));
  algebra.nodes.push_back(text_node("x", -14, 1.5 * cm));
  CHECK(run("length_proportions", algebra).verdict == Verdict::na);
}

TEST_CASE("length_proportions: different units are converted before comparing") {
  ir::Diagram d;
  d.elements.push_back(polygon({{0, 0}, {100, 0}, {100, 10}}));
  d.nodes.push_back(text_node("1 m", 50, -10));
  d.nodes.push_back(text_node("10 cm", 120, 5));
  CHECK(run("length_proportions", d).verdict == Verdict::pass);
}

TEST_CASE("closed_shapes: a path stopping short of its start fails, a cycle and a touching end pass") {
  ir::Diagram open;
  open.elements.push_back(polygon({{0, 0}, {100, 0}, {50, 80}, {3, 3}}, false));
  RuleResult r = run("closed_shapes", open);
  CHECK(r.verdict == Verdict::fail);
  REQUIRE(!r.findings.empty());
  CHECK(r.findings[0].evidence["measured"].get<double>() == doctest::Approx(4.24).epsilon(0.01));

  ir::Diagram closed;
  closed.elements.push_back(polygon({{0, 0}, {100, 0}, {50, 80}}, true));
  CHECK(run("closed_shapes", closed).verdict == Verdict::pass);
  ir::Diagram touching;
  touching.elements.push_back(polygon({{0, 0}, {100, 0}, {50, 80}, {0.2, 0.2}}, false));
  CHECK(run("closed_shapes", touching).verdict == Verdict::pass);
}

TEST_CASE("closed_shapes: separate sides whose ends miss each other by a few points fail") {
  ir::Diagram d;
  d.elements.push_back(segment(0, 0, 100, 0, 1));
  d.elements.push_back(segment(100, 0, 50, 80, 2));
  d.elements.push_back(segment(50, 80, 4, 4, 3));
  CHECK(run("closed_shapes", d).verdict == Verdict::fail);
  d.elements.back() = segment(50, 80, 0, 0, 3);
  CHECK(run("closed_shapes", d).verdict == Verdict::pass);
}

TEST_CASE("core_math: a zero-area triangle and a right-angle mark on a 56 degree corner fail") {
  ir::Diagram flat;
  flat.elements.push_back(polygon({{0, 0}, {100, 0}, {200, 0.5}}));
  RuleResult r = run("core_math", flat);
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.findings[0].evidence["problem"] == "degenerate shape");

  ir::Diagram skew;
  skew.elements.push_back(polygon({{0, 0}, {4 * cm, 0}, {2 * cm, 3 * cm}}));
  ir::Rectangle mark;
  mark.corners = {{{0, 0}, {8, 0}, {8, 8}, {0, 8}}};
  skew.elements.push_back(drawn(mark, 4));
  CHECK(run("core_math", skew).verdict == Verdict::fail);

  CHECK(run("core_math", right_triangle()).verdict == Verdict::pass);
}

TEST_CASE("core_math: sides with one tick mark each but unequal lengths fail") {
  ir::Diagram d;
  d.elements.push_back(polygon({{0, 0}, {200, 0}, {60, 100}}));
  d.elements.push_back(segment(100, -4, 100, 4, 2));  // tick on the base (200pt)
  ir::Point m{30, 50};                                // tick on the left side (~117pt)
  d.elements.push_back(segment(m.x - 3.4, m.y + 2, m.x + 3.4, m.y - 2, 3));
  CHECK(run("core_math", d).verdict == Verdict::fail);
}

TEST_CASE("stress: 10,000 labelled points are checked in n log n time") {
  ir::Diagram d;
  for (int i = 0; i < 10000; ++i) {
    double x = (i % 100) * 40.0, y = (i / 100) * 40.0;
    d.elements.push_back(segment(x, y, x + 20, y, 1));
    d.nodes.push_back(text_node("A", x + 10, y + 12, 2));
  }
  auto t0 = std::chrono::steady_clock::now();
  for (const char* rule : {"overlap", "label_association", "length_proportions", "angle_labels", "in_frame"})
    CHECK(run(rule, d).verdict != Verdict::indeterminate);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(secs < 20);
}

TEST_CASE("length_proportions: a label on a dimension line broken around it measures the side beside it") {
  ir::Diagram d;
  d.elements.push_back(polygon({{0, 0}, {200, 0}, {100, 140}}));
  // Base dimension line drawn as two arrows pointing away from the label at x = 100.
  ir::Element left = segment(85, -12, 0, -12, 2), right = segment(115, -12, 200, -12, 3);
  left.style.arrow_end = right.style.arrow_end = true;
  d.elements.push_back(left);
  d.elements.push_back(right);
  d.nodes.push_back(text_node("10", 100, -12, 4));
  ir::Element height = segment(100, 140, 100, 0, 5);
  height.style.dash = "dashed";
  d.elements.push_back(height);
  d.nodes.push_back(text_node("7", 112, 70, 6));
  CHECK(run("length_proportions", d).verdict == Verdict::pass);
}

TEST_CASE("label_association: a length label alongside one side and past the end of another names the first") {
  // The base of a prism drawn in oblique projection; '3 cm' below right of the receding side's
  // middle. The base's back side ends at a corner about as near to the label's centre (18.6pt
  // against 16.2pt), but the label lies past that side's end.
  ir::Diagram d;
  d.elements.push_back(polygon({{0, 0}, {17.5, -1.5}, {49.8, 19.7}, {32.3, 21.2}}));
  ir::Node n = text_node("3 cm", 50.75, 0.1);
  n.box = {34.2, -7.9, 67.3, 8.1};
  n.corners = {{{34.2, -7.9}, {67.3, -7.9}, {67.3, 8.1}, {34.2, 8.1}}};
  d.nodes.push_back(n);
  RuleResult r = run("label_association", d);
  CHECK(r.verdict == Verdict::pass);
  CHECK(r.findings.empty());
}

TEST_CASE("label_association: two different lengths on the same stretch of one side conflict") {
  ir::Diagram d;
  d.elements.push_back(polygon({{0, 0}, {3 * cm, 0}, {3 * cm, 4 * cm}, {0, 4 * cm}}));
  d.nodes.push_back(text_node("4 cm", -20, 2 * cm, 2));
  d.nodes.push_back(text_node("2 cm", 20, 2 * cm, 3));  // inside, against the same side
  RuleResult r = run("label_association", d);
  CHECK(r.verdict == Verdict::fail);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].evidence["problem"] == "conflicting");

  // Near miss: two lengths below different parts of one drawn line.
  ir::Diagram parts;
  parts.elements.push_back(polygon({{0, 0}, {8 * cm, 0}, {3 * cm, 4 * cm}}));
  parts.nodes.push_back(text_node("3 cm", 1.5 * cm, -12, 2));
  parts.nodes.push_back(text_node("5 cm", 5.5 * cm, -12, 3));
  CHECK(run("label_association", parts).verdict == Verdict::pass);
  // "4 cm" and "40 mm" are one length, not a conflict.
  ir::Diagram units = d;
  units.nodes[1] = text_node("40 mm", 20, 2 * cm, 3);
  CHECK(run("label_association", units).verdict == Verdict::pass);
}

TEST_CASE("label_association: a tick mark that crosses nothing marks nothing") {
  ir::Diagram d;
  d.elements.push_back(polygon({{0, 0}, {4 * cm, 0}, {2 * cm, 3 * cm}}));
  d.nodes.push_back(text_node("$A$", -8, -8, 2));
  // Across the middle of the left side, perpendicular to it: a tick mark.
  d.elements.push_back(segment(0.85 * cm, 1.6 * cm, 1.15 * cm, 1.4 * cm, 3));
  CHECK(run("label_association", d).verdict == Verdict::pass);
  // Meant for the right side but stopping 3.5pt short of it.
  d.elements.push_back(segment(2.6 * cm, 1.23 * cm, 2.9 * cm, 1.43 * cm, 4));
  RuleResult r = run("label_association", d);
  CHECK(r.verdict == Verdict::fail);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].evidence["problem"] == "orphaned mark");
  CHECK(r.findings[0].range.begin == at_line(4).begin);

  // Near miss: a line drawn dash by dash beside the base is no set of marks.
  ir::Diagram dashes;
  dashes.elements.push_back(polygon({{0, 0}, {4 * cm, 0}, {2 * cm, 3 * cm}}));
  dashes.nodes.push_back(text_node("$A$", -8, -8, 2));
  for (int i = 0; i < 10; ++i) dashes.elements.push_back(segment(6.0 * i, -8, 6.0 * i + 3, -8, 3));
  CHECK(run("label_association", dashes).verdict == Verdict::pass);
}

TEST_CASE("label_association: an approximately lowered axis decides labels attached by construction") {
  // The axis box and clip come from the \begin{axis} statement an approximate-axis note points at.
  ir::Diagram d;
  d.uses_axis = true;
  const SourceRange axis_stmt = at_line(1);
  Diagnostic note;
  note.rule = "approximate-axis";
  note.severity = Severity::note;
  note.message = "pgfplots axis lowered approximately: data coordinates mapped, tick labels not modelled";
  note.range = axis_stmt;
  d.diagnostics.push_back(note);
  ir::Element box = drawn(ir::Rectangle{{{{0, 0}, {190, 0}, {190, 190}, {0, 190}}}}, 1);
  d.elements.push_back(box);
  ir::ClipRegion clip;
  clip.polygon = {{0, 0}, {190, 0}, {190, 190}, {0, 190}};
  clip.is_rectangle = true;
  clip.bounds = {0, 0, 190, 190};
  clip.prov.range = axis_stmt;
  d.clips.push_back(clip);
  d.elements.push_back(polygon({{38, 38}, {114, 38}, {76, 114}}, true, 2));
  // Vertex dots named with label=.
  const ir::Point corners[] = {{38, 38}, {114, 38}, {76, 114}};
  const char* names[] = {"$R$", "$S$", "$T$"};
  for (int i = 0; i < 3; ++i) {
    ir::Node dot;
    dot.center = corners[i];
    dot.box = {corners[i].x - 2, corners[i].y - 2, corners[i].x + 2, corners[i].y + 2};
    dot.corners = {{{dot.box.xmin, dot.box.ymin}, {dot.box.xmax, dot.box.ymin}, {dot.box.xmax, dot.box.ymax}, {dot.box.xmin, dot.box.ymax}}};
    dot.filled = true;
    dot.prov.range = at_line(3 + i);
    d.nodes.push_back(dot);
    ir::Node label = text_node(names[i], corners[i].x - 10, corners[i].y + (i == 2 ? 12 : -12), 3 + i);
    label.label_of = static_cast<std::uint32_t>(d.nodes.size() - 1);
    d.nodes.push_back(label);
  }
  RuleResult r = run("label_association", d);
  CHECK(r.verdict == Verdict::pass);

  // A bare number read against the axis box (no element of the author's near it) stays open.
  ir::Diagram open = d;
  open.nodes.push_back(text_node("4", 160, 14, 9));
  CHECK(run("label_association", open).verdict == Verdict::indeterminate);
  // An axis that was not lowered at all leaves everything open, as before.
  ir::Diagram unlowered = d;
  Diagnostic skipped;
  skipped.rule = "unsupported-construct";
  skipped.severity = Severity::warning;
  skipped.message = "pgfplots axis is not lowered";
  skipped.range = axis_stmt;
  unlowered.diagnostics.push_back(skipped);
  CHECK(run("label_association", unlowered).verdict == Verdict::indeterminate);
}

// Large inputs take the indexed and reduced paths of the rules (more than BoxIndex::kScanLimit
// items, classes of more than 32 labels); their findings are those of the plain pairwise scans.
TEST_CASE("length_proportions: in a class of 40 labels the one disagreeing label is named by every other") {
  ir::Diagram d;
  for (std::uint32_t k = 0; k < 40; ++k) {
    double y = 40.0 * k;
    d.elements.push_back(segment(0, y, 4 * cm, y, 1 + k));
    d.nodes.push_back(text_node(k == 20 ? "6 cm" : "4 cm", 2 * cm, y - 10, 100 + k));
  }
  RuleResult r = run("length_proportions", d);
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.findings.size() == 39);  // each 4 cm label against the 6 cm one; that one's partner is reported
  for (const auto& f : r.findings) CHECK(f.evidence["other_label"] == "6 cm");
  d.nodes[20].text = "4 cm";
  CHECK(run("length_proportions", d).verdict == Verdict::pass);
}

TEST_CASE("core_math: forty sides labelled alike pass when drawn equal and fail when one is longer") {
  ir::Diagram d;
  for (std::uint32_t k = 0; k < 40; ++k) {
    double y = 40.0 * k;
    d.elements.push_back(segment(0, y, 4 * cm, y, 1 + k));
    d.nodes.push_back(text_node("4", 2 * cm, y - 10, 100 + k));
  }
  CHECK(run("core_math", d).verdict == Verdict::pass);
  d.elements[30] = segment(0, 1200, 5 * cm, 1200, 31);
  RuleResult r = run("core_math", d);
  CHECK(r.verdict == Verdict::fail);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].range.begin == at_line(31).begin);
}

TEST_CASE("overlap: among a hundred opaque fills, the one painted over a label is reported") {
  ir::Diagram d;
  for (std::uint32_t k = 0; k < 100; ++k) {  // painted before the labels: under them
    ir::Element sq = polygon({{k * 30.0, 0}, {k * 30.0 + 20, 0}, {k * 30.0 + 20, 20}, {k * 30.0, 20}}, true, 1 + k);
    sq.style.fill = true;
    d.elements.push_back(sq);
  }
  for (std::uint32_t k = 0; k < 100; ++k) d.nodes.push_back(text_node("A", k * 30.0 + 10, 10, 200 + k));
  CHECK(run("overlap", d).verdict == Verdict::pass);
  ir::Element late = polygon({{1500, 0}, {1520, 0}, {1520, 20}, {1500, 20}}, true, 400);
  late.style.fill = true;
  d.elements.push_back(late);
  RuleResult r = run("overlap", d);
  CHECK(r.verdict == Verdict::fail);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].evidence["problem"] == "fill over text");
  CHECK(r.findings[0].range.begin == at_line(250).begin);
}

TEST_CASE("num writes what printf's %.0f / %.1f writes for the value rounded to a tenth") {
  auto reference = [](double v) -> std::string {
    if (!std::isfinite(v)) return v > 0 ? "inf" : "-inf";
    char buf[400];
    const double r = std::round(v * 10) / 10;
    std::snprintf(buf, sizeof buf, std::abs(r - std::round(r)) < 1e-9 ? "%.0f" : "%.1f", r);
    return buf;
  };
  std::vector<double> values = {0.0, -0.0, 0.05, 0.15, 0.25, -0.05, -0.04, 1.25, 2.35, 2.45, 12.95, 99.95, -99.95,
                                1e-12, 123456789.05, 1e300, -1e300, 1.7976931348623157e308, 0.1 + 0.2,
                                INFINITY, -INFINITY};
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> small(-1000, 1000);
  std::uniform_int_distribution<int> tenths(-100000, 100000);
  for (int i = 0; i < 20000; ++i) {
    values.push_back(small(rng));
    values.push_back(tenths(rng) / 10.0);         // already on a tenth
    values.push_back(tenths(rng) / 10.0 + 0.05);  // halfway cases (in decimal)
  }
  for (double v : values) {
    INFO("value " << v);
    CHECK(checks::num(v) == reference(v));
  }
}
