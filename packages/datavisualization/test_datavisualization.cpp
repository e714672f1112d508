// packages/datavisualization/test_datavisualization.cpp: \datavisualization lowered into axes, ticks, tick labels and data lines
// (packages/datavisualization/datavisualization.cpp). Expected positions are those lualatex gives for the same input
// (pgf 3.1, tldiffhook node centres), 1cm = 28.452756pt.
#include <algorithm>

#include "ir/test_lower_support.hpp"

using namespace lowertest;

namespace {

const ir::Node* node_with(const ir::Diagram& d, const std::string& text) {
  for (const auto& n : d.nodes)
    if (n.text == text) return &n;
  return nullptr;
}

ir::Diagram one(const std::string& path) {
  Pic p;
  p.path(path);
  return p.lower();
}

#define CHECK_NEAR(a, b, tol) CHECK(std::abs((a) - (b)) <= (tol))

}  // namespace

TEST_CASE("dataviz: scientific axes=clean with a sampled function, tick labels where pgf puts them") {
  auto d = one(
      "\\datavisualization [scientific axes=clean, x axis={length=3cm, ticks=few}, visualize as smooth line]"
      " data [format=function] { var x : interval [-1.5:1.5] samples 7; func y = \\value x*\\value x; };");
  CHECK(count_unsupported(d) == 0);
  // x ticks few: step 1 over [-1.5,1.5], at -1, 0, 1; 3cm wide, so -1 sits at 1.5/3*3cm
  const ir::Node* m1 = node_with(d, "$-1$");
  const ir::Node* z = nullptr;
  for (const auto& n : d.nodes)
    if (n.text == "$0$" && n.center.y < -5) z = &n;
  REQUIRE(m1 != nullptr);
  REQUIRE(z != nullptr);
  CHECK_NEAR(m1->center.x, 14.2263, 0.05);
  CHECK_NEAR(m1->center.y, -12.66, 0.6);
  CHECK_NEAR(z->center.x, 42.6789, 0.05);
  CHECK_NEAR(z->center.y, -12.2437, 0.3);
  // y ticks some: step 0.5 over [0,2.25]; the 0.5 label left of the axis at padded min (-.5em)
  const ir::Node* half = node_with(d, "$0.5$");
  REQUIRE(half != nullptr);
  CHECK_NEAR(half->center.y, 19.5375, 0.05);
  CHECK_NEAR(half->box.xmax, -7 - 1.666, 0.3);
  REQUIRE(d.has_picture_bbox);
  CHECK_NEAR(d.picture_bbox.ymax, 88.2185, 0.5);
  CHECK_NEAR(d.picture_bbox.xmax, 85.6578, 0.5);
}

TEST_CASE("dataviz: school book axes meet at the origin, one unit per cm, arrows past the data") {
  auto d = one(
      "\\datavisualization [school book axes, visualize as line]"
      " data { x, y\n -1, 1\n 2, 3\n };");
  CHECK(count_unsupported(d) == 0);
  // x ticks at -1, 1, 2 (0 has no text); y's 0 sits at the origin, anchor north east
  CHECK(node_with(d, "$-1$") != nullptr);
  CHECK(node_with(d, "$2$") != nullptr);
  const ir::Node* three = node_with(d, "$3$");
  REQUIRE(three != nullptr);
  CHECK_NEAR(three->center.y, 3 * kCm, 0.05);
  CHECK(three->center.x < -2);
  // the x axis runs from -1cm - .75em to 2cm + .75em on y = 0
  bool found = false;
  for (const auto& el : d.elements)
    if (const auto* s = std::get_if<ir::Segment>(&el.geom))
      if (std::abs(s->a.y) < 1e-6 && std::abs(s->b.y) < 1e-6 && std::abs(s->a.x + kCm + 7.5) < 0.01 &&
          std::abs(s->b.x - 2 * kCm - 7.5) < 0.01)
        found = true;
  CHECK(found);
}

TEST_CASE("dataviz: what is not modelled stays unsupported") {
  auto d = one(
      "\\datavisualization [school book axes, visualize as line=a, a={label in data={text=A}}]"
      " data [set=a] { x, y\n 0, 0\n 1, 1\n } info { \\draw (visualization cs: x=0, y=1) circle [radius=1pt]; };");
  CHECK(count_unsupported(d) >= 2);
  auto e = one("\\datavisualization [scientific polar axes, visualize as line] data { x, y\n 0, 0\n };");
  CHECK(count_unsupported(e) >= 1);
  auto f = one("\\datavisualization [school book axes, visualize as line] data [read from file=foo.csv];");
  CHECK(count_unsupported(f) >= 1);
}

TEST_CASE("dataviz: table rows joined by the expander into one line are split again") {
  // dv-main-001: the same data with and without its line breaks give the same curve
  auto a = one("\\datavisualization [school book axes, visualize as line] data { x, y\n -1, 1\n 0, 0\n 1, 1\n };");
  auto b = one("\\datavisualization [school book axes, visualize as line] data { x, y -1, 1 0, 0 1, 1 };");
  CHECK(count_unsupported(b) == 0);
  REQUIRE(a.has_picture_bbox);
  REQUIRE(b.has_picture_bbox);
  CHECK(b.picture_bbox.xmin == doctest::Approx(a.picture_bbox.xmin));
  CHECK(b.picture_bbox.ymax == doctest::Approx(a.picture_bbox.ymax));
  CHECK(a.picture_bbox.ymax > kCm);
}

TEST_CASE("dataviz: a data group is defined for the whole document, and its body holds data commands") {
  auto statement = [](const std::string& text) {
    tex::Statement s;
    s.kind = tex::StatementKind::Path;
    s.text = text;
    for (std::uint32_t i = 0; i < text.size(); ++i) s.origin.push_back(i);
    s.prov.range = {0, 0, static_cast<std::uint32_t>(text.size()), true};
    return s;
  };
  tex::ExpandedDocument doc;
  tex::Picture def, use, direct;
  def.statements.push_back(statement(
      "\\datavisualization data group {lines} = { data [set=a, format=function] { var x : interval [0:2];"
      " func y = \\value x; } data point [x=0, y=2, set=b] data point [x=2, y=0, set=b] };"));
  use.statements.push_back(statement(
      "\\datavisualization [school book axes, visualize as line/.list={a,b}] data group {lines};"));
  direct.statements.push_back(statement(
      "\\datavisualization [school book axes, visualize as line/.list={a,b}] data [set=a, format=function]"
      " { var x : interval [0:2]; func y = \\value x; } data point [x=0, y=2, set=b] data point [x=2, y=0, set=b];"));
  for (auto* p : {&def, &use, &direct}) {
    p->range = {0, 0, 10, true};
    doc.pictures.push_back(*p);
  }
  SourceManager sm;
  auto out = ir::lower(doc, sm, packages());
  REQUIRE(out.size() == 3);
  CHECK(count_unsupported(out[1]) == 0);
  // the group's use draws exactly what the same data written in place draws
  REQUIRE(out[1].elements.size() == out[2].elements.size());
  REQUIRE(out[1].has_picture_bbox);
  REQUIRE(out[2].has_picture_bbox);
  CHECK(out[1].picture_bbox.xmax == doctest::Approx(out[2].picture_bbox.xmax));
  CHECK(out[1].picture_bbox.ymax == doctest::Approx(out[2].picture_bbox.ymax));
  // an undefined group stays unsupported
  tex::ExpandedDocument lone;
  lone.pictures.push_back(use);
  auto l = ir::lower(lone, sm, packages());
  REQUIRE(l.size() == 1);
  CHECK(count_unsupported(l[0]) >= 1);
}

TEST_CASE("dataviz: label in legend entries form the main legend east of the visualization, as lualatex places it") {
  auto d = one(
      "\\datavisualization [school book axes, visualize as line/.list={a,b},"
      " a={label in legend={text=a}}, b={label in legend={text=b}}]"
      " data point [x=-1, y=-1, set=a] data point [x=1, y=0, set=a]"
      " data point [x=-1, y=1, set=b] data point [x=1, y=0.5, set=b];");
  CHECK(count_unsupported(d) == 0);
  const ir::Node* a = node_with(d, "a");
  const ir::Node* b = node_with(d, "b");
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(a->center.y > b->center.y);  // one column, down then right, in declaration order
  CHECK_NEAR(a->box.xmin, b->box.xmin, 1e-6);
  // lualatex (pgf 3.1): picture bbox [-36.15, -36.15, 81.25, 36.15]; the legend is its right part
  REQUIRE(d.has_picture_bbox);
  CHECK_NEAR(d.picture_bbox.xmax, 81.25, 0.3);
  CHECK_NEAR(d.picture_bbox.ymax, 36.15, 0.3);
}

namespace {

// Three lines a, b, c in a 2cm x 2cm scientific system without ticks, each with a legend entry
// ("first", "$\beta$", "gg"), and `extra` legend options.
std::string legend_case(const std::string& extra) {
  return "\\datavisualization [scientific axes, all axes={length=2cm, ticks=none}, visualize as line/.list={a,b,c}, " +
         extra +
         " a={label in legend={text=first}}, b={label in legend={text=$\\beta$}}, c={label in legend={text=gg}}]"
         " data [set=a] { x, y\n 0, 0\n 1, 1\n } data [set=b] { x, y\n 0, 1\n 1, 0\n }"
         " data [set=c] { x, y\n 0, 0.5\n 1, 0.5\n };";
}

}  // namespace

// Picture bounding boxes lualatex gives for legend_case (tools/tex-diff, pgf 3.1); the legend
// matrix is what grows them, so its size and placement are checked to 0.05pt.
TEST_CASE("dataviz: the main legend, one column right of the visualization, as pgf places it") {
  auto d = one(legend_case(""));
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.has_picture_bbox);
  CHECK_NEAR(d.picture_bbox.xmax, 113.0694, 0.05);
  CHECK_NEAR(d.picture_bbox.ymax, 57.2054, 0.05);
  CHECK_NEAR(d.picture_bbox.ymin, -0.3, 0.05);
  REQUIRE(node_with(d, "first") != nullptr);
  REQUIRE(node_with(d, "gg") != nullptr);
  // down then right: "first" above "gg", both left-aligned after the sample line
  CHECK(node_with(d, "first")->center.y > node_with(d, "gg")->center.y);
  CHECK_NEAR(node_with(d, "first")->box.xmin, node_with(d, "gg")->box.xmin, 0.01);
}

TEST_CASE("dataviz: legend placements and arrangements: below (one row), columns=2, inside") {
  auto below = one(legend_case("legend=below,"));
  CHECK(count_unsupported(below) == 0);
  REQUIRE(below.has_picture_bbox);
  CHECK_NEAR(below.picture_bbox.xmin, -36.2922, 0.05);
  CHECK_NEAR(below.picture_bbox.ymin, -22.8660, 0.05);
  CHECK_NEAR(below.picture_bbox.xmax, 93.1977, 0.05);
  auto two = one(legend_case("legend={columns=2},"));
  CHECK(count_unsupported(two) == 0);
  REQUIRE(two.has_picture_bbox);
  CHECK_NEAR(two.picture_bbox.xmax, 155.6173, 0.05);
  auto inside = one(legend_case("legend={north east inside},"));
  CHECK(count_unsupported(inside) == 0);
  REQUIRE(inside.has_picture_bbox);
  CHECK_NEAR(inside.picture_bbox.xmax, 57.2054, 0.05);
  const ir::Node* first = node_with(inside, "first");
  REQUIRE(first != nullptr);
  CHECK(first->box.xmax < 57.2054);
  CHECK(first->box.ymax < 57.2054);
  auto unknown = one(legend_case("legend={frobnicate},"));
  CHECK(count_unsupported(unknown) == 1);
}

TEST_CASE("dataviz: styles of /tikz/data visualization (\\tikzdatavisualizationset) are expanded") {
  // what the expander makes of \tikzdatavisualizationset{legend example/.style={...}}
  Pic p;
  p.pre("data visualization/legend example/.style={scientific axes, all axes={length=2cm, ticks=none},"
        " a={label in legend={text=first}}, b={label in legend={text=$\\beta$}}, c={label in legend={text=gg}}}");
  p.path(
      "\\datavisualization [visualize as line/.list={a,b,c}, legend example]"
      " data [set=a] { x, y\n 0, 0\n 1, 1\n } data [set=b] { x, y\n 0, 1\n 1, 0\n }"
      " data [set=c] { x, y\n 0, 0.5\n 1, 0.5\n };");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.has_picture_bbox);
  CHECK_NEAR(d.picture_bbox.xmax, 113.0694, 0.05);
  // an unknown key is still reported
  auto e = one("\\datavisualization [visualize as line, no such style] data { x, y\n 0, 0\n 1, 1\n };");
  CHECK(count_unsupported(e) == 1);
}

TEST_CASE("dataviz: /pgf/number format keys in a tick style set how the tick texts are printed") {
  // \pgfmathprintnumber with fixed zerofill, precision=2 prints 0.50 and 1.00; std prints 0.5, 1
  auto d = one(
      "\\datavisualization [scientific axes, y axis={ticks={step=0.5, style={red, /pgf/number format/fixed zerofill,"
      " /pgf/number format/precision=2}}}, visualize as line] data { x, y\n 0, 0\n 1, 1\n };");
  CHECK(count_unsupported(d) == 0);
  CHECK(node_with(d, "$0.50$") != nullptr);
  CHECK(node_with(d, "$1.00$") != nullptr);
  CHECK(node_with(d, "$0.5$") == nullptr);
  auto s = one(
      "\\datavisualization [scientific axes, y axis={ticks={step=0.5, style={/pgf/number format/sci}}},"
      " visualize as line] data { x, y\n 0, 0\n 1, 1\n };");
  CHECK(node_with(s, "$5\\cdot 10^{-1}$") != nullptr);
  auto u = one(
      "\\datavisualization [scientific axes, y axis={ticks={style={/pgf/number format/frac}}}, visualize as line]"
      " data { x, y\n 0, 0\n 1, 1\n };");
  CHECK(count_unsupported(u) >= 1);
}

TEST_CASE("dataviz: label in legend line coordinates replace the sample line (dv-stylesheets-090)") {
  // the sample drawn through the given points; lualatex's bounding box for dv-stylesheets-090
  auto d = one(
      "\\datavisualization [school book axes, visualize as line/.list={a,b}, style sheet=vary dashing,"
      " a={label in legend={text=a, label in legend line coordinates={(-1em,0), (0,0)}}},"
      " b={label in legend={text=b, label in legend line coordinates={(-2em,0), (0,0)}}}]"
      " data point [x=-1, y=-1, set=a] data point [x=1, y=0, set=a]"
      " data point [x=-1, y=1, set=b] data point [x=1, y=0.5, set=b];");
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.has_picture_bbox);
  CHECK_NEAR(d.picture_bbox.xmax, 81.2535, 0.05);
  CHECK_NEAR(d.picture_bbox.xmin, -36.1526, 0.05);
  // both samples 1em long: the legend's one column is 1em (10pt) narrower, its west edge fixed
  auto e = one(
      "\\datavisualization [school book axes, visualize as line/.list={a,b},"
      " a={label in legend={text=a, label in legend line coordinates={(-1em,0), (0,0)}}},"
      " b={label in legend={text=b, label in legend line coordinates={(-1em,0), (0,0)}}}]"
      " data point [x=-1, y=-1, set=a] data point [x=1, y=0, set=a]"
      " data point [x=-1, y=1, set=b] data point [x=1, y=0.5, set=b];");
  REQUIRE(e.has_picture_bbox);
  CHECK_NEAR(e.picture_bbox.xmax, 81.2535 - 10, 0.05);
}

TEST_CASE("dataviz: points of a set no visualizer takes are surveyed by the axes but not drawn") {
  // dv-stylesheets-075 (lualatex's bounding box agrees to 0.04pt): the axes span the other set too
  auto d = one(
      "\\datavisualization [school book axes, visualize as line=a]"
      " data [set=a] { x, y\n 0, 0\n 1, 1\n } data [set=other] { x, y\n 0, 0\n 3, 1\n };");
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.has_picture_bbox);
  CHECK(d.picture_bbox.xmax > 3 * kCm);
  auto only = one("\\datavisualization [school book axes, visualize as line=a] data [set=a] { x, y\n 0, 0\n 1, 1\n };");
  REQUIRE(only.has_picture_bbox);
  CHECK(only.picture_bbox.xmax < 2 * kCm);
}
