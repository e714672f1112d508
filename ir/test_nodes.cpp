// ir/test_nodes.cpp: node shapes, anchors and placement (pgfmanual 17), with empty or fixed-size
// text so that the expected boxes follow from pgf's rules alone.
#include <numbers>

#include "ir/nodes.hpp"
#include "ir/textmetrics.hpp"
#include "ir/test_lower_support.hpp"

using namespace lowertest;

namespace {
constexpr double kDeg = std::numbers::pi / 180;
const char* kSquare = "minimum size=20pt, inner sep=0pt, outer sep=0pt";
}  // namespace

TEST_CASE("shape geometry: rectangle, circle, ellipse (pgfmoduleshapes)") {
  ir::NodeShapeInput in;
  in.text_width = 10;
  in.text_height = 7;
  in.text_depth = 1;
  in.inner_xsep = in.inner_ysep = 2;
  auto r = ir::node_shape_geometry(in);
  CHECK(r.half_width == doctest::Approx(7));
  CHECK(r.half_height == doctest::Approx(6));
  CHECK(r.base_dy == doctest::Approx(-3));
  in.shape = ir::NodeShape::circle;
  auto c = ir::node_shape_geometry(in);
  CHECK(c.half_width == doctest::Approx(std::hypot(7.0, 6.0)));
  in.minimum_width = 40;
  CHECK(ir::node_shape_geometry(in).half_width == doctest::Approx(20));
  in.minimum_width = 0;
  in.shape = ir::NodeShape::ellipse;
  auto e = ir::node_shape_geometry(in);
  CHECK(e.half_width == doctest::Approx(7 * std::numbers::sqrt2));
  CHECK(e.half_height == doctest::Approx(6 * std::numbers::sqrt2));
}

TEST_CASE("anchors: compass, base, numeric angles on rectangles and circles") {
  ir::NodeShapeGeometry g;
  g.half_width = 10;
  g.half_height = 5;
  g.outer_xsep = g.outer_ysep = 1;
  CHECK_PT(*ir::anchor_offset(g, "north east"), 11, 6);
  CHECK_PT(*ir::anchor_offset(g, "west"), -11, 0);
  CHECK_PT(*ir::anchor_offset(g, "0"), 11, 0);
  CHECK_PT(*ir::anchor_offset(g, "90"), 0, 6);
  CHECK_PT(*ir::anchor_offset(g, "45"), 6, 6);
  CHECK(!ir::anchor_offset(g, "nonsense").has_value());
  g.shape = ir::NodeShape::circle;
  g.half_width = g.half_height = 10;
  g.outer_xsep = g.outer_ysep = 0;
  CHECK_PT(*ir::anchor_offset(g, "30"), 10 * std::cos(30 * kDeg), 10 * std::sin(30 * kDeg));
  CHECK_PT(*ir::anchor_offset(g, "north west"), -10 * std::cos(45 * kDeg), 10 * std::sin(45 * kDeg));
  CHECK(std::string(ir::label_anchor_for_angle(2)) == "west");
  CHECK(std::string(ir::label_anchor_for_angle(3)) == "south west");
  CHECK(std::string(ir::label_anchor_for_angle(110)) == "south east");
}

TEST_CASE("nodes: box at the position, default inner and outer sep") {
  Pic p;
  p.path(std::string("\\node[draw, ") + kSquare + "] (A) at (1,0) {};");
  p.path("\\node at (0,0) {};");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 2);
  CHECK(d.nodes[0].box.xmin == doctest::Approx(kCm - 10));
  CHECK(d.nodes[0].box.ymax == doctest::Approx(10));
  CHECK(d.nodes[0].drawn);
  CHECK(d.nodes[0].name == "A");
  // pgfmanual 17.2.3: inner sep .3333em, outer sep .5\pgflinewidth (0.2pt)
  CHECK(d.nodes[1].box.width() == doctest::Approx(2 * 0.3333 * 10));
  CHECK(d.nodes[1].outer_sep == doctest::Approx(0.2));
  // the picture grows by the node's border, not its outer sep (lualatex: an undrawn node of
  // minimum size 10pt gives a bbox of +-5pt, drawn at .4pt +-5.2pt)
  CHECK(d.picture_bbox.xmin == doctest::Approx(-0.3333 * 10));
}

TEST_CASE("nodes: inner sep's em is the quad of the font around the node, not of font=") {
  // checked with lualatex (tikz.code.tex: node font= is set around the node, font= only in its box)
  Pic p;
  p.path("\\node[font=\\Large] {};");
  p.path("\\node[node font=\\Large] {};");
  p.path("\\node[node font=\\Large, font=\\small] {};");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 3);
  const double large_quad = ir::font_quad_pt(ir::FontSpec{14.4, "lmr", false, false, 10});
  CHECK(d.nodes[0].inner_sep == doctest::Approx(0.3333 * 10));
  CHECK(d.nodes[0].font_size_pt == doctest::Approx(14.4));
  CHECK(d.nodes[1].inner_sep == doctest::Approx(0.3333 * large_quad));
  CHECK(d.nodes[1].font_size_pt == doctest::Approx(14.4));
  CHECK(d.nodes[2].inner_sep == doctest::Approx(0.3333 * large_quad));
  CHECK(d.nodes[2].font_size_pt == doctest::Approx(9));
  // the IM class: Open Sans at 12pt is loaded at 11.4pt, whose quad is 11.4pt
  Pic im;
  im.path("\\node[font=\\small] {};");
  auto m = im.lower(12, "IM");
  REQUIRE(m.nodes.size() == 1);
  CHECK(m.nodes[0].inner_sep == doctest::Approx(0.3333 * 11.4));
}

TEST_CASE("nodes: a node's own yshift is not scaled by the scope (no transform shape)") {
  // lualatex: 51.905 -15 61.905 -5
  Pic p;
  p.options = "scale=2";
  p.path("\\node[minimum size=10pt, inner sep=0pt, outer sep=0pt, yshift=-10pt] at (1,0) {};");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 1);
  CHECK(d.nodes[0].center.x == doctest::Approx(2 * kCm));
  CHECK(d.nodes[0].center.y == doctest::Approx(-10));
}

TEST_CASE("nodes: font= replaces the previous font=, it does not add to it") {
  Pic p;
  p.options = "every node/.style={font=\\Large}";
  p.path("\\node[font=\\bfseries] {A};");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 1);
  CHECK(d.nodes[0].font_size_pt == doctest::Approx(10));
}

TEST_CASE("nodes: anchor= and above/below/left/right with distances") {
  Pic p;
  const std::string sq = "minimum size=10pt, inner sep=0pt, outer sep=0pt";
  p.path("\\node[" + sq + ", anchor=north west] at (0,0) {};");
  p.path("\\node[" + sq + ", above] at (0,0) {};");
  p.path("\\node[" + sq + ", above=3pt] at (0,0) {};");
  p.path("\\node[" + sq + ", below left=2pt] at (0,0) {};");
  auto d = p.lower();
  CHECK_PT(d.nodes[0].center, 5, -5);
  CHECK_PT(d.nodes[1].center, 0, 5);
  CHECK_PT(d.nodes[2].center, 0, 8);
  CHECK(d.nodes[2].placement == "above=3pt");
  CHECK_PT(d.nodes[3].center, -7, -7);
}

TEST_CASE("nodes: positioning library, border to border and on grid") {
  Pic p;
  const std::string sq = "minimum size=10pt, inner sep=0pt, outer sep=0pt";
  p.path("\\node[" + sq + "] (A) at (0,0) {};");
  p.path("\\node[" + sq + ", right=of A] (B) {};");
  p.path("\\node[" + sq + ", above=5pt of A] (C) {};");
  p.path("\\node[" + sq + ", above right=of A] (D) {};");
  p.path("\\node[" + sq + ", right=of A, on grid] (E) {};");
  auto d = p.lower();
  CHECK_PT(d.nodes[1].center, 10 + kCm, 0);
  CHECK_PT(d.nodes[2].center, 0, 15);
  // positioning's own default is `node distance=1cm and 1cm`: no diagonal factor (lualatex agrees)
  CHECK_PT(d.nodes[3].center, 10 + kCm, 10 + kCm);
  CHECK_PT(d.nodes[4].center, kCm, 0);
}

TEST_CASE("nodes: positioning distances: one value on a diagonal, unitless, a macro, x vector") {
  Pic p;
  const std::string sq = "minimum size=10pt, inner sep=0pt, outer sep=0pt";
  p.path("\\node[" + sq + "] (A) at (0,0) {};");
  p.path("\\node[" + sq + ", node distance=2cm, above right=of A] {};");
  p.path("\\node[" + sq + ", right=2 of A] {};");       // unitless: times the x vector
  p.path("\\node[" + sq + ", x=2cm, right=2 of A] {};");
  p.path("\\node[" + sq + ", below=1.5cmof A] {};");    // what `\d of A` is once TeX ate the space
  p.path("\\node[" + sq + ", above=3pt of $(1,1)$] {};");  // a point, not a node: no border
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 6);
  CHECK_PT(d.nodes[1].center, 10 + 0.707106781 * 2 * kCm, 10 + 0.707106781 * 2 * kCm);
  CHECK_PT(d.nodes[2].center, 10 + 2 * kCm, 0);
  CHECK_PT(d.nodes[3].center, 10 + 4 * kCm, 0);
  CHECK_PT(d.nodes[4].center, 0, -10 - 1.5 * kCm);
  CHECK_PT(d.nodes[5].center, kCm, kCm + 8);
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("nodes: the shift of a relative placement is not scaled or turned by the picture") {
  // tikz.code.tex \tikz@node@transformations: without transform shape the scope's scale and
  // rotation do not reach a node's own shifts (lualatex: right=1cm of A stays 1cm at scale=2)
  Pic p;
  const std::string sq = "minimum size=10pt, inner sep=0pt, outer sep=0pt";
  p.scope("scale=2, rotate=90");
  p.path("\\node[" + sq + "] (A) at (0,0) {};");
  p.path("\\node[" + sq + ", right=1cm of A] {};");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 2);
  CHECK_PT(d.nodes[1].center, 10 + kCm, 0);
}

TEST_CASE("nodes: right of= and friends put the centre a node distance from the target's centre") {
  Pic p;
  const std::string sq = "minimum size=10pt, inner sep=0pt, outer sep=0pt";
  p.path("\\node[" + sq + "] (A) at (1,0) {};");
  p.path("\\node[" + sq + ", right of=A] {};");
  p.path("\\node[" + sq + ", node distance=2cm, above left of=A] {};");
  p.path("\\node[" + sq + ", node distance=3cm and 1cm, below of=A] {};");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 4);
  CHECK_PT(d.nodes[1].center, 2 * kCm, 0);
  CHECK_PT(d.nodes[2].center, kCm - 2 * kCm * 0.707106781, 2 * kCm * 0.707106781);
  CHECK_PT(d.nodes[3].center, kCm, -3 * kCm);
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("nodes: a circle with minimum size and short text is the minimum size") {
  Pic p;
  p.path("\\node[circle, draw, minimum size=1cm] {a};");
  auto d = p.lower();
  CHECK(d.nodes[0].shape == ir::NodeShape::circle);
  CHECK(d.nodes[0].box.width() == doctest::Approx(kCm));
}

TEST_CASE("nodes: numeric border anchors as coordinates") {
  Pic p;
  p.path("\\node[circle, " + std::string(kSquare) + "] (C) at (0,0) {};");
  p.path("\\draw (C.30) -- (C.center);");
  auto d = p.lower();
  CHECK_PT(geom<ir::Segment>(d, 0).a, 10 * std::cos(30 * kDeg), 10 * std::sin(30 * kDeg));
}

TEST_CASE("labels: label= places a node at the border, facing away, with label distance") {
  Pic p;
  p.path("\\node[" + std::string(kSquare) + ", label=right:{}, label={[label distance=2pt]above:{}}] (A) at (0,0) {};");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 3);
  const auto& r = d.nodes[1];
  CHECK(r.is_label);
  CHECK(r.label_of == std::optional<std::uint32_t>(0));
  // anchor west (incl. outer sep 0.2pt) on the east border at x = 10
  CHECK(r.box.xmin == doctest::Approx(10 + 0.2));
  CHECK(r.center.y == doctest::Approx(0));
  CHECK(d.nodes[2].box.ymin == doctest::Approx(10 + 2 + 0.2));
}

TEST_CASE("labels: every label (e.g. a class's label distance) applies") {
  Pic p;
  p.pre("every label/.append style={label distance=-.1cm}");
  p.path("\\node[" + std::string(kSquare) + ", label=below:{}] at (0,0) {};");
  auto d = p.lower();
  CHECK(d.nodes[1].box.ymax == doctest::Approx(-10 + 0.1 * kCm - 0.2));
}

TEST_CASE("labels: pin= uses pin distance 3ex and draws an edge") {
  Pic p;
  p.path("\\node[" + std::string(kSquare) + ", pin=above:{}] at (0,0) {};");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 2);
  // 3ex of lualatex's Latin Modern (\fontdimen5 = 4.31pt)
  CHECK(d.nodes[1].box.ymin == doctest::Approx(10 + 3 * 4.31 + 0.2));
  CHECK(d.elements.size() == 1);
}

TEST_CASE("nodes on paths: midway on a line, implicit pos, |- corner, curves, sloped") {
  Pic p;
  const std::string dot = "minimum size=4pt, inner sep=0pt, outer sep=0pt";
  p.path("\\draw (0,0) -- (2,0) node[midway, " + dot + "] {};");
  p.path("\\draw (0,0) -- node[" + dot + "] {} (2,2);");
  p.path("\\draw (0,0) |- (2,1) node[pos=0.5, " + dot + "] {};");
  p.path("\\draw (0,0) .. controls (0,1) and (2,1) .. (2,0) node[midway, " + dot + "] {};");
  p.path("\\draw (0,0) -- (1,1) node[midway, sloped, minimum width=20pt, minimum height=4pt, inner sep=0pt] {};");
  p.path("\\draw (0,0) -- (3,0) node[" + dot + "] {};");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 6);
  CHECK_PT(d.nodes[0].center, kCm, 0);
  CHECK(d.nodes[0].pos_on_path == doctest::Approx(0.5));
  CHECK(d.nodes[0].on_path == std::optional<std::uint32_t>(d.elements[0].path_id));
  CHECK_PT(d.nodes[1].center, kCm, kCm);
  CHECK_PT(d.nodes[2].center, 0, kCm);
  CHECK_PT(d.nodes[3].center, kCm, 0.75 * kCm);
  CHECK(d.nodes[4].rotation_deg == doctest::Approx(45));
  CHECK_PT(d.nodes[5].center, 3 * kCm, 0);
  CHECK(!d.nodes[5].on_path.has_value());
}

TEST_CASE("nodes: scope transforms move nodes but scale/rotate them only with transform shape") {
  Pic p;
  const std::string sq = "minimum size=10pt, inner sep=0pt, outer sep=0pt";
  p.scope("scale=2, rotate=90");
  p.path("\\node[" + sq + "] at (1,0) {};");
  p.path("\\node[" + sq + ", transform shape] at (1,0) {};");
  p.end();
  p.path("\\node[" + sq + ", scale=3] at (1,0) {};");
  p.path("\\node[" + sq + ", rotate=45] at (0,0) {};");
  auto d = p.lower();
  CHECK_PT(d.nodes[0].center, 0, 2 * kCm);
  CHECK(d.nodes[0].box.width() == doctest::Approx(10));
  CHECK(d.nodes[0].rotation_deg == doctest::Approx(0));
  CHECK(d.nodes[1].box.width() == doctest::Approx(20));
  CHECK(d.nodes[1].rotation_deg == doctest::Approx(90));
  CHECK_PT(d.nodes[2].center, kCm, 0);
  CHECK(d.nodes[2].box.width() == doctest::Approx(30));
  CHECK(d.nodes[3].rotation_deg == doctest::Approx(45));
  CHECK(d.nodes[3].box.width() == doctest::Approx(10 * std::numbers::sqrt2));
}

TEST_CASE("nodes: every node style and \\tikzstyle vertex") {
  Pic p;
  p.pre("\\tikzstyle{vertex}=[circle, fill, inner sep=0pt, minimum size=4pt]");
  p.style("\\tikzset{every node/.style={draw}}");
  p.path("\\node[vertex] (v) at (1,1) {};");
  auto d = p.lower();
  CHECK(d.nodes[0].shape == ir::NodeShape::circle);
  CHECK(d.nodes[0].filled);
  CHECK(d.nodes[0].drawn);
  CHECK(d.nodes[0].box.width() == doctest::Approx(4));
}

TEST_CASE("nodes: the picture grows by the border, plus half the line width when the border is drawn") {
  for (const auto& row : std::vector<std::pair<std::string, double>>{
           {"", 5.0}, {"draw", 5.2}, {"outer sep=5pt", 5.0}, {"draw,outer sep=5pt", 5.2},
           {"draw,line width=4pt", 7.0}, {"fill=red,outer sep=5pt", 5.0}}) {
    const std::string& opts = row.first;  // not a structured binding: clang 14's CHECK_MESSAGE
    const double half = row.second;        // lambdas cannot capture one
    Pic p;
    p.path("\\node[minimum size=10pt,inner sep=0pt," + opts + "] at (0,0) {};");
    auto d = p.lower();
    REQUIRE(d.has_picture_bbox);
    CHECK_MESSAGE(d.picture_bbox.xmax == doctest::Approx(half), opts);  // lualatex, pgf 3.1
    CHECK_MESSAGE(d.picture_bbox.ymin == doctest::Approx(-half), opts);
  }
}

TEST_CASE("labels: label= and pin= on a coordinate sit around its point") {
  Pic p;
  p.path("\\coordinate[label=above:{}, pin=right:{}] (P) at (1,1);");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 2);
  CHECK(d.nodes[0].is_label);
  CHECK(!d.nodes[0].label_of);  // a coordinate is no node
  // label above: its south anchor (outer sep included) on the point
  CHECK(d.nodes[0].center.x == doctest::Approx(kCm));
  CHECK(d.nodes[0].box.ymin > kCm);
  CHECK(d.nodes[1].box.xmin > kCm);
}

TEST_CASE("nodes: text TeX boxes itself (a minipage of a page width, a nested picture, node parts) is unsized") {
  for (const char* text : {"\\begin{minipage}{\\linewidth}a b\\end{minipage}", "\\parbox{.3\\textwidth}{a}",
                           "\\tikz \\draw (0,0)--(1,1);",
                           "a \\nodepart{second} b", "$\\begin{array}{c} x\\\\ y\\end{array}$"}) {
    Pic p;
    p.path(std::string("\\node {") + text + "};");
    auto d = p.lower();
    REQUIRE(d.nodes.size() == 1);
    CHECK(d.nodes[0].incomplete);
    CHECK(count_unsupported(d) == 1);
  }
  Pic q;
  q.path("\\node {\\textbf{a} $x^2$ \\\\ b};");
  auto d = q.lower();
  CHECK(!d.nodes[0].incomplete);
  CHECK(count_unsupported(d) == 0);
  // a \\parbox, minipage or tabular of a known width is sized (ir/textboxes.cpp)
  for (const char* text : {"\\begin{minipage}{2cm}a b\\end{minipage}", "\\parbox{2cm}{a}",
                           "\\begin{tabular}{cc} a & b \\end{tabular}"}) {
    Pic r;
    r.path(std::string("\\node {") + text + "};");
    auto dr = r.lower();
    REQUIRE(dr.nodes.size() == 1);
    CHECK(!dr.nodes[0].incomplete);
    CHECK(count_unsupported(dr) == 0);
  }
}
