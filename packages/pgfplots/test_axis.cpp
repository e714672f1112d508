// packages/pgfplots/test_axis.cpp: the pgfplots axis (axis.cpp, ticks.cpp, data.cpp). Expected
// numbers are lualatex's (tools/tex-diff on the same axis, pgfplots 1.18, compat=1.18).
#include <algorithm>
#include <cmath>

#include "ir/test_lower_support.hpp"
#include "packages/pgfplots/data.hpp"
#include "packages/pgfplots/fillbetween.hpp"
#include "packages/pgfplots/plots.hpp"
#include "packages/pgfplots/ticks.hpp"
#include "packages/pgfplots/view3d.hpp"

using namespace lowertest;
namespace pp = tikzlint::pgfplots;

namespace {

std::vector<const ir::Node*> nodes_with_role(const ir::Diagram& d, const std::string& role) {
  std::vector<const ir::Node*> out;
  for (const auto& n : d.nodes)
    if (n.role == role) out.push_back(&n);
  return out;
}

// the points as (x, y) pairs (ir::Point has no ==)
std::vector<std::pair<double, double>> xy(const std::vector<ir::Point>& pts) {
  std::vector<std::pair<double, double>> out;
  for (const auto& p : pts) out.push_back({p.x, p.y});
  return out;
}
using XY = std::vector<std::pair<double, double>>;

}  // namespace

TEST_CASE("pgfplots ticks: pgfplots' step of 1, 2 or 5 times a power of ten, only ticks within the limits") {
  // [-6, 6] over 195pt: 6 ticks wanted, step 12/5 = 2.4 -> 2
  CHECK(pp::linear_ticks(-6, 6, 195) == std::vector<double>{-6, -4, -2, 0, 2, 4, 6});
  // [-100, 1100] over 162pt: 5 ticks wanted, step 300 -> 200
  CHECK(pp::linear_ticks(-100, 1100, 162) == std::vector<double>{0, 200, 400, 600, 800, 1000});
  // [-0.1, 1.1] over 195pt (an empty axis): step 0.24 -> 0.2
  auto t = pp::linear_ticks(-0.1, 1.1, 195);
  REQUIRE(t.size() == 6);
  CHECK(t[1] == doctest::Approx(0.2));
  CHECK(t[5] == doctest::Approx(1.0));
  // a log axis over 10^-0.3 .. 10^3.3: one tick per decade
  CHECK(pp::log_ticks(-0.3, 3.3, 162) == std::vector<double>{0, 1, 2, 3});
}

TEST_CASE("pgfplots tick labels: pgfmathprintnumber's std format and the scaled-ticks exponent") {
  CHECK(*pp::print_number(1000) == "1{,}000");
  CHECK(*pp::print_number(0.2) == "0.2");
  CHECK(*pp::print_number(-5) == "-5");
  CHECK(*pp::print_number(0.125) == "0.13");
  CHECK(*pp::print_number(0) == "0");
  CHECK(!pp::print_number(1e5));
  CHECK(pp::tick_scale_exponent(-100, 1100) == 0);    // exponent 3: printed as is
  CHECK(pp::tick_scale_exponent(0, 20000) == 4);      // above 3: scaled
  CHECK(pp::tick_scale_exponent(0, 0.05) == -2);      // below -1: scaled
}

TEST_CASE("pgfplots data: the variable of an expression, inline tables, coordinates") {
  CHECK(pp::substitute_variable("x^2+\\x", "x", "2") == "(2)^2+(2)");
  CHECK(pp::substitute_variable("exp(-x)*max(x,1)", "x", "1") == "exp(-(1))*max((1),1)");
  auto eval = [](const std::string& e) -> std::optional<double> {
    if (e == "(-5)^2") return 25.0;
    if (e == "(5)^2") return 25.0;
    if (e == "(0)^2") return 0.0;
    if (e == "(-5)" || e == "(0)" || e == "(5)") return std::stod(e.substr(1));
    return std::nullopt;
  };
  pp::Sampling s;
  s.samples = 3;
  auto d = pp::read_plot_data("{x^2}", s, eval);
  CHECK(d.unsupported.empty());
  REQUIRE(d.points.size() == 3);
  CHECK(d.points[0].x == -5);
  CHECK(d.points[0].y == 25);
  auto tab = pp::read_plot_data("table {\n  a b\n  1 2\n  3 4\n}", s, eval);
  CHECK(tab.unsupported.empty());
  REQUIRE(tab.points.size() == 2);
  CHECK(tab.points[1].y == 4);
  auto tab2 = pp::read_plot_data("table[x=b, y=a, row sep=\\\\] {a b\\\\ 1 2\\\\ 3 4\\\\}", s, eval);
  REQUIRE(tab2.points.size() == 2);
  CHECK(tab2.points[0].x == 2);
  CHECK(!pp::read_plot_data("table {data.dat}", s, eval).unsupported.empty());
  auto c = pp::read_plot_data("coordinates {(0,1e2) (1, -2) (nan, 3)}", s, eval);
  REQUIRE(c.points.size() == 2);
  CHECK(c.points[0].y == 100);
}

TEST_CASE("pgfplots axis: data coordinates map onto the axis box (width - 45pt)") {
  Pic p;
  p.axis = true;
  p.other("\\begin{axis}[xmin=0,xmax=10,ymin=0,ymax=5,width=145pt,height=95pt]");
  p.path("\\draw (0,0) -- (10,5);");
  p.other("\\addplot coordinates {(0,0) (5,5)};");
  p.path("\\draw (axis cs:1,1) -- (axis cs:2,2);");
  p.other("\\end{axis}");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK(!has_rule(d, "approximate-axis"));
  // elements 0: the axis box; 1: the segment; 2: the plot; 3: axis cs segment
  CHECK_PT(geom<ir::Rectangle>(d, 0).corners[2], 100, 50);
  CHECK_PT(geom<ir::Segment>(d, 1).b, 100, 50);
  CHECK_PT(geom<ir::Plot>(d, 2).points.back(), 50, 50);
  CHECK_PT(geom<ir::Segment>(d, 3).a, 10, 10);
  REQUIRE(d.clips.size() == 1);
  CHECK(d.clips[0].owner == "pgfplots axis");
  // every tick label is a text node of the axis's own
  CHECK(!nodes_with_role(d, "tick label").empty());
  CHECK(!d.uses_axis);
}

TEST_CASE("pgfplots axis: automatic limits from an expression in x, enlarged by 10%, and pgfplots' tick labels") {
  Pic p;
  p.axis = true;
  p.other("\\begin{axis}[xlabel=$x$]");
  p.other("\\addplot {x^2};");
  p.other("\\end{axis}");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  for (const auto& dg : d.diagnostics) CHECK(dg.severity != Severity::error);
  // x in [-5, 5] -> [-6, 6] over 195pt; y in [0, 25] -> [-2.5, 27.5] over 162pt
  auto ticks = nodes_with_role(d, "tick label");
  std::vector<std::string> texts;
  for (const auto* n : ticks) texts.push_back(n->text);
  CHECK(std::count(texts.begin(), texts.end(), "$-6$") == 1);
  CHECK(std::count(texts.begin(), texts.end(), "$20$") == 1);
  // the tick label "6" stands centred under the right end of the box
  for (const auto* n : ticks)
    if (n->text == "$6$") CHECK(n->center.x == doctest::Approx(195).epsilon(1e-6));
  // the plot's last sample (5, 25) in the frame
  const auto& plot = geom<ir::Plot>(d, 1);
  CHECK_PT(plot.points.back(), 195.0 * 11 / 12, 162.0 * 27.5 / 30);
  REQUIRE(nodes_with_role(d, "axis label").size() == 1);
  // lualatex: tick labels reach 13.31pt below the box; the xlabel's top sits at -13.51pt
  CHECK(nodes_with_role(d, "axis label")[0]->box.ymax == doctest::Approx(-14.14 - 0.2).epsilon(0.01));
}

TEST_CASE("pgfplots axis: an axis it cannot lay out is reported once and leaves the picture unplaced") {
  Pic p;
  p.axis = true;
  p.other("\\begin{axis}");
  p.path("\\draw (0,0) -- (1,1);");
  p.other("\\addplot[quiver={u=1,v=1}] {x*y};");
  p.path("\\draw (axis cs:1,1) -- (axis cs:2,2);");
  p.other("\\end{axis}");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 1);
  REQUIRE(!d.elements.empty());
  for (const auto& el : d.elements) CHECK(el.incomplete);
  CHECK(d.uses_axis);
}

TEST_CASE("pgfplots axis: keys it does not model are reported and make the axis approximate") {
  Pic p;
  p.axis = true;
  p.other("\\begin{axis}[xmin=0,xmax=1,ymin=0,ymax=1,axis equal]");
  p.other("\\end{axis}");
  auto d = p.lower();
  CHECK(has_rule(d, "unsupported-key"));
  CHECK(has_rule(d, "approximate-axis"));
  CHECK(d.uses_axis);
}

// lualatex (tools/tex-diff, 6cm x 6cm, [0,8]^2): with axis lines=middle the tick labels reach
// 15.44pt below the axis, with the box 13.31pt: ticks centred on the line (every non boxed x axis)
// put the labels half a tick length (0.15cm / 2) further out. A tick length set in `every tick`
// (Tikz-IM.sty: tickwidth=.1in) is the axis' tick length.
TEST_CASE("pgfplots axis: axis lines=middle on a first-quadrant axis and the tick length of every tick") {
  auto top_of_x_tick_labels = [](const ir::Diagram& d) {
    double top = -1e9;
    for (const auto* n : nodes_with_role(d, "tick label"))
      if (n->text == "$4$" && n->center.y < 0) top = std::max(top, n->box.ymax);
    return top;
  };
  const std::string axis = "\\begin{axis}[width=6cm,height=6cm,xmin=0,xmax=8,ymin=0,ymax=8,axis lines=middle";
  {
    Pic p;
    p.axis = true;
    p.other(axis + "]");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(!has_rule(d, "unsupported-key"));
    CHECK(top_of_x_tick_labels(d) == doctest::Approx(-0.15 * kCm / 2 - 0.2).epsilon(1e-6));  // box incl. outer sep
  }
  {
    Pic p;
    p.axis = true;
    p.pre("every tick/.append style={black,tickwidth=.1in}");
    p.other(axis + "]");
    p.other("\\end{axis}");
    CHECK(top_of_x_tick_labels(p.lower()) == doctest::Approx(-0.1 * 72.27 / 2 - 0.2).epsilon(1e-6));
  }
}

// lualatex (tools/tex-diff; /tmp battery of axis line variants, all within 0.01pt): the line
// through the other direction's zero inside the box, its tick labels there (none where the other
// line crosses: hide obscured x ticks), the labels at the lines' ends (compat 1.18: ticklabel*
// cs:1, anchor near ticklabel opposite, align inside), and compat's label placement.
TEST_CASE("pgfplots axis: axis lines=middle through the inside, top/right lines and compat's labels") {
  auto bbox_of = [](const std::string& keys, const std::string& compat) {
    Pic p;
    p.axis = true;
    p.pgfplots_compat = compat;
    p.other("\\begin{axis}[xmin=-2,xmax=3,ymin=-1,ymax=4," + keys +
            ",xlabel={A long x label},ylabel={A long y label},title={T}]");
    p.other("\\addplot coordinates {(0,0) (1,1)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(!has_rule(d, "approximate-axis"));
    return d.picture_bbox;
  };
  auto near = [](const ir::Box& b, double x0, double y0, double x1, double y1) {
    CHECK(b.xmin == doctest::Approx(x0).epsilon(0.0001));
    CHECK(b.ymin == doctest::Approx(y0).epsilon(0.0001));
    CHECK(b.xmax == doctest::Approx(x1).epsilon(0.0001));
    CHECK(b.ymax == doctest::Approx(y1).epsilon(0.0001));
  };
  const auto mid = bbox_of("axis lines=middle", "1.18");
  {
    // the middle lines' tick labels: no "0" on either (hidden where the lines cross)
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[xmin=-2,xmax=3,ymin=-1,ymax=4,axis lines=middle]");
    p.other("\\end{axis}");
    for (const auto* n : nodes_with_role(p.lower(), "tick label")) CHECK(n->text != "$0$");
  }
  near(mid, -9.72188, -6.97186, 200.83267, 181.63087);
  near(bbox_of("axis lines=middle", "1.7"), -9.72188, -6.97186, 200.83267, 181.63087);
  // y middle after x top: the y label at the line's lower end (ticklabel* cs:0... inside)
  near(bbox_of("axis x line=top, axis y line=middle", "1.18"), -9.72188, -6.97186, 200.83267, 194.35847);
  // x middle after y right: the x label at the x line's start, outside (compat 1.18)
  near(bbox_of("axis y line=right, axis x line=middle", "1.18"), -68.81593, -6.97186, 232.86327, 181.63087);
  // compat 1.7: the top line's label 15pt above the box (axis line style pre 1.8)
  near(bbox_of("axis x line=top", "1.7"), -35.7297, -6.97186, 200.83267, 193.08089);
  // one boxed direction, the other a lower line
  near(bbox_of("axis x line=bottom", "1.18"), -35.7297, -32.36354, 200.83267, 181.63087);
  // no compat: xlabel/ylabel absolute (at (0.5,0) below, 15pt; at (0,0.5), 35pt left)
  near(bbox_of("axis lines=left", ""), -42.94298, -31.08595, 200.83267, 181.63087);
  near(bbox_of("axis y line=right", ""), -9.72188, -31.08595, 235.94267, 181.63087);
}

TEST_CASE("pgfplots plot handlers: const plot, const plot mark right/mid and jump marks as pgf draws them") {
  using H = pp::PlotKind::Handler;
  const std::vector<ir::Point> pts{{0, 0}, {1, 2}, {3, 1}};
  // \pgf@plot@const@line@handler: horizontal to the next x, then vertical
  auto left = pp::handler_pieces(pts, H::const_left);
  REQUIRE(left.size() == 1);
  CHECK(xy(left[0]) == XY{{0, 0}, {1, 0}, {1, 2}, {3, 2}, {3, 1}});
  // mark right: vertical first
  CHECK(xy(pp::handler_pieces(pts, H::const_right)[0]) == XY{{0, 0}, {0, 2}, {1, 2}, {1, 1}, {3, 1}});
  // mark mid: the step halfway between the x values
  CHECK(xy(pp::handler_pieces(pts, H::const_mid)[0]) == XY{{0, 0}, {0.5, 0}, {0.5, 2}, {1, 2}, {2, 2}, {2, 1}, {3, 1}});
  // jump mark left: one horizontal piece per point but the last
  auto jl = pp::handler_pieces(pts, H::jump_left);
  REQUIRE(jl.size() == 2);
  CHECK(xy(jl[1]) == XY{{1, 2}, {3, 2}});
  auto jr = pp::handler_pieces(pts, H::jump_right);
  REQUIRE(jr.size() == 2);
  CHECK(xy(jr[0]) == XY{{0, 2}, {1, 2}});
  // the plot-type keys: later ones win, ybar's value is the space between bars
  pp::PlotKind k;
  CHECK(pp::read_plot_kind_key("ybar", "4pt", true, k));
  CHECK((k.handler == H::bar_y && k.shift_auto && k.bar_sep == "4pt"));
  CHECK(pp::read_plot_kind_key("bar shift", "0pt", true, k));
  CHECK(!k.shift_auto);
  CHECK(!pp::read_plot_kind_key("blue", "", false, k));
  CHECK(pp::read_plot_kind_key("ybar stacked", "minus", true, k));
  CHECK(!k.unsupported.empty());
}

// lualatex (tools/tex-diff; pgfplots 1.18, compat=1.18) on the same axes: the picture's bbox.
TEST_CASE("pgfplots bars: ybar side by side, ybar stacked, xbar, symbolic x coords with xtick=data") {
  auto bbox = [](const ir::Diagram& d) { return d.picture_bbox; };
  {
    // two ybar series over x = 1..3: limits as a line plot's ([0.8, 3.2] x [0.6, 5.4]); ybar's
    // xtick align=outside: the ticks on the upper line reach 0.15cm (+ half of very thin) above
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[ybar]");
    p.other("\\addplot coordinates {(1,2) (2,3) (3,5)};");
    p.other("\\addplot coordinates {(1,1) (2,4) (3,2)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(bbox(d).ymax == doctest::Approx(166.36656).epsilon(1e-4));
    CHECK(bbox(d).ymin == doctest::Approx(-17.57826).epsilon(1e-4));
    // bar shift auto, 2 plots of width 10pt 2pt apart: the first plot's bars 6pt left of x; its
    // first bar stands from the box's bottom (0 is below the box: clipped) to y=2
    const ir::Rectangle* first = nullptr;
    for (const auto& el : d.elements)
      if (auto* r = std::get_if<ir::Rectangle>(&el.geom); r && el.style.fill && !first) first = r;
    REQUIRE(first);
    const double x1 = 195.0 * 0.2 / 2.4, y2 = 162.0 * 1.4 / 4.8;
    CHECK_PT(first->corners[0], x1 - 11, 0);
    CHECK_PT(first->corners[2], x1 - 1, y2);
  }
  {
    // stacked: the y limits are those of the sums [2, 7] enlarged ([1.5, 7.5]); no outside ticks
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[ybar stacked]");
    p.other("\\addplot coordinates {(1,2) (2,3) (3,5)};");
    p.other("\\addplot coordinates {(1,1) (2,4) (3,2)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(bbox(d).ymax == doctest::Approx(162.20421).epsilon(1e-4));
    // the upper plot's second bar from 3 to 7
    std::vector<const ir::Rectangle*> bars;
    for (const auto& el : d.elements)
      if (auto* r = std::get_if<ir::Rectangle>(&el.geom); r && el.style.fill) bars.push_back(r);
    REQUIRE(bars.size() == 6);
    CHECK(bars[4]->corners[0].y == doctest::Approx(162.0 * 1.5 / 6).epsilon(1e-6));
    CHECK(bars[4]->corners[2].y == doctest::Approx(162.0 * 5.5 / 6).epsilon(1e-6));
  }
  {
    // xbar: the y ticks stand outside, on the right line too
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[xbar]");
    p.other("\\addplot coordinates {(2,1) (3,2) (5,3)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(bbox(d).xmax == doctest::Approx(199.36627).epsilon(1e-4));
  }
  {
    // symbolic x coords: a, b, c are 0, 1, 2; xtick=data prints them by name
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[ybar,symbolic x coords={a,b,c},xtick=data]");
    p.other("\\addplot coordinates {(a,2) (b,3) (c,5)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    std::vector<std::string> texts;
    for (const auto* n : nodes_with_role(d, "tick label"))
      if (n->center.y < 0) texts.push_back(n->text);
    CHECK(texts == std::vector<std::string>{"a", "b", "c"});
    CHECK(bbox(d).ymin == doctest::Approx(-18.18369).epsilon(1e-4));
  }
  {
    // bars on a log axis: not drawn, reported
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[ybar,ymode=log]");
    p.other("\\addplot coordinates {(1,2) (2,3)};");
    p.other("\\end{axis}");
    CHECK(count_unsupported(p.lower()) == 1);
  }
}

// lualatex (tools/tex-diff): `small` is width=6.5cm with the height at the default aspect ratio,
// footnotesize tick labels and 25pt between ticks; a legend in one row (legend columns=-1)
// below the axis.
TEST_CASE("pgfplots axis: the size style small, a legend in one row") {
  {
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[small]");
    p.other("\\addplot coordinates {(1,2) (2,3) (3,5)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(d.picture_bbox.xmax == doctest::Approx(140.14159).epsilon(1e-4));
    CHECK(d.picture_bbox.ymax == doctest::Approx(114.71715).epsilon(1e-4));
    CHECK(d.picture_bbox.ymin == doctest::Approx(-12.0215).epsilon(1e-4));
  }
  {
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[ybar,legend style={at={(0.5,-0.15)},anchor=north,legend columns=-1}]");
    p.other("\\addplot coordinates {(1,2) (2,3) (3,5)};");
    p.other("\\addplot coordinates {(1,1) (2,4) (3,2)};");
    p.other("\\legend{A,B}");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(d.picture_bbox.ymin == doctest::Approx(-41.35875).epsilon(1e-4));
    // the two texts side by side on one row
    std::vector<const ir::Node*> texts;
    for (const auto& n : d.nodes)
      if (n.text == "A" || n.text == "B") texts.push_back(&n);
    REQUIRE(texts.size() == 2);
    CHECK(texts[0]->center.y == doctest::Approx(texts[1]->center.y));
    CHECK(texts[1]->center.x > texts[0]->center.x + 17);
  }
}

// lualatex (tools/tex-diff): nodes near coords print the value above each bar (right of it for
// xbar), moved by the bar shift, outside the clip (they grow the picture), none at a point
// outside the limits.
TEST_CASE("pgfplots nodes near coords: above ybar bars, right of xbar bars, none outside the limits") {
  {
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[ybar,nodes near coords,enlarge y limits=false,ymin=0]");
    p.other("\\addplot coordinates {(1,2) (2,3) (3,5)};");
    p.other("\\addplot coordinates {(1,1) (2,4) (3,-2)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(d.picture_bbox.ymax == doctest::Approx(175.30537).epsilon(1e-4));
    CHECK(d.picture_bbox.ymin == doctest::Approx(-17.57811).epsilon(1e-4));
    auto labels = nodes_with_role(d, "data label");
    REQUIRE(labels.size() == 5);  // (3,-2) is below ymin=0
    // "$5$" on the first plot's third bar: 6pt left of x=3 (bar shift auto), its bottom at the box top
    CHECK(labels[2]->text == "$5$");
    CHECK(labels[2]->center.x == doctest::Approx(195.0 * 2.2 / 2.4 - 6).epsilon(1e-6));
  }
  {
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[xbar,nodes near coords,enlargelimits=false]");
    p.other("\\addplot coordinates {(2,1) (3,2) (5,3)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(d.picture_bbox.xmax == doctest::Approx(206.86595).epsilon(1e-4));
    CHECK(d.picture_bbox.ymax == doctest::Approx(168.55519).epsilon(1e-4));
  }
  {
    // a text of one's own is not modelled
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[ybar,nodes near coords={\\pgfmathprintnumber\\pgfplotspointmeta\\%}]");
    p.other("\\addplot coordinates {(1,2) (2,3)};");
    p.other("\\end{axis}");
    CHECK(count_unsupported(p.lower()) >= 1);
  }
}

TEST_CASE("pgfplots 3D view: pgfplots' unit vectors for view={25}{30}, stretched to the box, and the tick label edges") {
  auto v = pp::make_view(25, 30, 195, 162);
  REQUIRE(v);
  // x = (cos az, -sin az sin el), y = (sin az, sin el cos az), z = (0, cos el) before the stretch:
  // the projected box spans 1.3289 x 1.5302 and is stretched to 195 x 162
  const double sx = 195 / (std::cos(25 * M_PI / 180) + std::sin(25 * M_PI / 180));
  CHECK(v->unit[0].x == doctest::Approx(std::cos(25 * M_PI / 180) * sx));
  CHECK(v->unit[2].x == doctest::Approx(0));
  CHECK(v->width == 195);
  double xmin = 1e9, xmax = -1e9, ymin = 1e9, ymax = -1e9;
  for (int c = 0; c < 8; ++c) {
    auto p = v->at(c & 1, (c >> 1) & 1, (c >> 2) & 1);
    xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x), ymin = std::min(ymin, p.y), ymax = std::max(ymax, p.y);
  }
  CHECK(xmin == doctest::Approx(0).epsilon(1e-9));
  CHECK(xmax == doctest::Approx(195));
  CHECK(ymin == doctest::Approx(0).epsilon(1e-9));
  CHECK(ymax == doctest::Approx(162));
  // background faces x=0, y=1, z=0 (n = (-0.37, 0.78, -0.5)): the front corner's 3 edges are not drawn
  CHECK(pp::background_edges(*v).size() == 9);
  // tick labels: x on y=0,z=0 (front bottom), y on x=1,z=0 (right), z on x=0,y=0 (left), as lualatex
  auto ex = pp::ticklabel_edge(*v, 0), ey = pp::ticklabel_edge(*v, 1), ez = pp::ticklabel_edge(*v, 2);
  CHECK((ex.side[1] == 0 && ex.side[2] == 0));
  CHECK((ey.side[0] == 1 && ey.side[2] == 0));
  CHECK((ez.side[0] == 0 && ez.side[1] == 0));
  // the outer normal of the z edge points left and forward (x and y both at their lower limits)
  auto n = pp::outer_normal(*v, ez);
  CHECK(n.x < 0);
  CHECK(std::hypot(n.x, n.y) == doctest::Approx(1));
  // near ticklabel: a normal pointing straight down snaps to north; pointing down-left to north east
  // (the direction is the inner normal, toward the axis: a label below an axis snaps to north)
  CHECK(pp::snap_anchor({0, 1}) == "north");
  CHECK(pp::snap_anchor({0.7, 0.7}) == "north east");
  CHECK(pp::snap_anchor({-0.1, -0.9}) == "south");
  CHECK(pp::snap_anchor({0.1, 0.1}) == "center");
  // the anchor on the line from the centre along the normal, where it meets the parallel to the
  // axis through the compass anchor: a horizontal axis, normal straight down -> the compass anchor
  auto a = pp::near_ticklabel_anchor({0, 1}, {1, 0}, {0, 5});
  CHECK(a.x == doctest::Approx(0));
  CHECK(a.y == doctest::Approx(5));
  // view {0}{90}: z is seen end on
  auto top = pp::make_view(0, 90, 195, 162);
  REQUIRE(top);
  CHECK(top->length(2) == doctest::Approx(0));
}

// lualatex (tools/tex-diff; pgfplots 1.18, compat=1.18) on the same 3D axes: the picture's bbox.
TEST_CASE("pgfplots 3D axes: addplot3 surf, coordinates and table, the view, x/y/z labels and title, view {0}{90}") {
  auto near = [](double a, double b) { return std::abs(a - b) < 0.05; };
  auto check_bbox = [&](const ir::Diagram& d, double x0, double y0, double x1, double y1) {
    CHECK(near(d.picture_bbox.xmin, x0));
    CHECK(near(d.picture_bbox.ymin, y0));
    CHECK(near(d.picture_bbox.xmax, x1));
    CHECK(near(d.picture_bbox.ymax, y1));
  };
  {
    // default view, surf of x*y over the default domain: x ticks -4..4, y -5, 0, 5, z -20, 0, 20
    // (only z enlarged); the tick labels with pgfplots' near ticklabel anchors
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}");
    p.other("\\addplot3[surf] {x*y};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    check_bbox(d, -24.64336, -15.9462, 206.65059, 162.18517);
    // the surface is drawn as its mesh lines: 25 scanlines and 25 columns
    std::size_t data = 0;
    for (const auto& el : d.elements)
      if (el.role == "data") ++data;
    CHECK(data == 50);
  }
  {
    // view={60}{20}, coordinates, all three labels (the z label rotated) and the title
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[view={60}{20},xlabel=$x$,ylabel=$y$,zlabel=$z$,title=T]");
    p.other("\\addplot3 coordinates {(0,0,0) (1,2,3) (2,1,5)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    check_bbox(d, -23.84554, -20.206, 205.25226, 181.63045);
  }
  {
    // view={0}{90}: z hidden, the y label rotated (every 3d view {0}{90}: ylabel near ticks)
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[view={0}{90},xlabel=$x$,ylabel=$y$]");
    p.other("\\addplot3[surf,domain=0:2,samples=5] {x+y};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    check_bbox(d, -32.75967, -24.48187, 200.8342, 168.5547);
  }
  {
    // small, an inline table (x, y, z columns), view={-40}{40}, a z label
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[small,zlabel={height},view={-40}{40}]");
    p.other("\\addplot3 table {x y z 0 0 1 1 0 2 1 1 4 0 1 0.5};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    check_bbox(d, -26.439, -12.62158, 149.44489, 114.71101);
  }
  {
    // a mesh whose scanlines are not known is reported, not guessed; a 2D \addplot in a 3D axis too
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}");
    p.other("\\addplot3[surf] coordinates {(0,0,0) (1,0,1) (0,1,1) (1,1,0)};");
    p.other("\\end{axis}");
    CHECK(count_unsupported(p.lower()) == 1);
    Pic q;
    q.axis = true;
    q.other("\\begin{axis}");
    q.other("\\addplot3 coordinates {(0,0,0) (1,0,1)};");
    q.other("\\addplot coordinates {(0,0) (1,1)};");
    q.other("\\end{axis}");
    CHECK(count_unsupported(q.lower()) == 1);
  }
}

TEST_CASE("pgfplots data: table read from a file through the reader, blank lines end a 3D mesh's scanlines") {
  auto eval = [](const std::string& e) { return pp::parse_number(e); };
  std::string asked;
  auto read = [&](const std::string& name) -> std::optional<std::string> {
    asked = name;
    if (name == "mesh.dat") return std::string("x y z\n0 0 0\n1 0 1\n\n0 1 1\n1 1 2\n\n0 2 0\n1 2 3\n");
    return std::nullopt;
  };
  auto pd = pp::read_plot_data3("table {mesh.dat}", {}, eval, read);
  CHECK(asked == "mesh.dat");
  CHECK(pd.unsupported.empty());
  CHECK(pd.points.size() == 6);
  CHECK(pd.scanline == 2);
  CHECK(pd.z[5] == 3);
  // a file the reader does not give (refused, missing): not modelled, never guessed
  auto missing = pp::read_plot_data("table[x=a,y=b] {none.dat}", {}, eval, {}, read);
  CHECK(!missing.unsupported.empty());
  CHECK(missing.points.empty());
  // without a reader (no document), a file is not read
  CHECK(!pp::read_plot_data("table {mesh.dat}", {}, eval).unsupported.empty());
}

TEST_CASE("pgfplots data: error values after coordinates and in a table's error column") {
  auto eval = [](const std::string& e) { return pp::parse_number(e); };
  auto pd = pp::read_plot_data("coordinates {(0,1) +- (0,3) (1,2) (2,1.5) += (0,0.5) -= (0,0.25)}", {}, eval);
  REQUIRE(pd.unsupported.empty());
  REQUIRE(pd.err_plus.size() == 3);
  CHECK(pd.err_plus[0].y == 3);
  CHECK(pd.err_minus[0].y == 3);
  CHECK(std::isnan(pd.err_plus[1].y));
  CHECK(pd.err_plus[2].y == 0.5);
  CHECK(pd.err_minus[2].y == 0.25);
  auto t = pp::read_plot_data("table[x=a,y=b,y error=e] {a b e\n1 10 4\n2 12 1\n}", {}, eval);
  REQUIRE(t.unsupported.empty());
  REQUIRE(t.err_plus.size() == 2);
  CHECK(t.err_plus[0].y == 4);
  CHECK(!pp::read_plot_data("coordinates {(0,1) +- (a)}", {}, eval).unsupported.empty());
}

// lualatex (tools/tex-diff; pgfplots 1.18, compat=1.18): the limits take in the error bars' ends.
TEST_CASE("pgfplots error bars: explicit, fixed and fixed relative, in the limits, drawn as data") {
  auto near = [](double a, double b) { return std::abs(a - b) < 0.05; };
  {
    // 1 +- 3 takes y down to -2: y ticks -2, 0, 2, 4 (-2 is the widest label: the left edge)
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}");
    p.other("\\addplot+[error bars/.cd, y dir=both, y explicit] coordinates {(0,1) +- (0,3) (1,2) +- (0,0.5) (2,1.5) +- (0,0.2)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(near(d.picture_bbox.xmin, -19.64375));
    CHECK(near(d.picture_bbox.ymin, -13.31038));
    bool minus_two = false;
    for (const auto& n : d.nodes) minus_two = minus_two || n.text == "$-2$";
    CHECK(minus_two);
    // the bars: three vertical segments of the role data besides the plot
    std::size_t data = 0;
    for (const auto& el : d.elements)
      if (el.role == "data") ++data;
    CHECK(data == 3);
  }
  {
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}");
    p.other("\\addplot+[error bars/.cd, x dir=both, x fixed=0.8, y dir=plus, y fixed relative=0.5] coordinates {(0,1) (1,2) (2,1.5)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(near(d.picture_bbox.ymin, -14.14372));
    CHECK(near(d.picture_bbox.xmin, -19.64375));
  }
  {
    // a key of the error bars that is not modelled: the axis is not lowered (its limits rest on it)
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}");
    p.other("\\addplot+[error bars/.cd, y dir=both, y explicit, draw error bar/.code={}] coordinates {(0,1) +- (0,3)};");
    p.other("\\end{axis}");
    CHECK(count_unsupported(p.lower()) == 1);
  }
}

// lualatex (tools/tex-diff; pgfplots 1.18, compat=1.18): the picture's bbox.
TEST_CASE("pgfplots size: one of width and height given, the other follows at 240 to 207") {
  Pic p;
  p.axis = true;
  p.other("\\begin{axis}[width=6cm]");
  p.other("\\addplot coordinates {(0,0) (1,1) (2,3)};");
  p.other("\\end{axis}");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  // 6cm wide; 6cm * 207/240 high, less 45pt each for the labels
  CHECK(std::abs(d.picture_bbox.ymax - 102.4453) < 0.05);
  CHECK(std::abs(d.picture_bbox.xmax - 125.9178) < 0.05);
}

TEST_CASE("pgfplots groupplots: group size, the plots' boxes placed as the library anchors them, seps") {
  auto near = [](double a, double b) { return std::abs(a - b) < 0.05; };
  {
    // 2 by 2; the third plot is wider and centred under the first (anchor north at its south)
    Pic p;
    p.axis = true;
    p.other("\\begin{groupplot}[group style={group size=2 by 2}, height=3cm, width=4cm]");
    p.other("\\nextgroupplot\\addplot coordinates {(0,0) (1,1) (2,2)};");
    p.other("\\nextgroupplot[xlabel=$x$] \\addplot coordinates {(0,2) (1,1) (2,0)};");
    p.other("\\nextgroupplot[width=6cm, title=Wide] \\addplot coordinates {(0,2) (1,1) (2,5)};");
    p.other("\\nextgroupplot\\addplot coordinates {(0,2) (1,1) (2,0)};");
    p.other("\\end{groupplot}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(near(d.picture_bbox.xmin, -40.319));
    CHECK(near(d.picture_bbox.ymin, -82.11996));
    CHECK(near(d.picture_bbox.xmax, 166.27615));
    CHECK(near(d.picture_bbox.ymax, 43.5488));
  }
  {
    // 3 by 1, horizontal sep=2cm, a y label on each; the middle plot 4cm high (its width follows)
    Pic p;
    p.axis = true;
    p.other("\\begin{groupplot}[group style={group size=3 by 1, horizontal sep=2cm}, ylabel=$y$]");
    p.other("\\nextgroupplot\\addplot {x^2};");
    p.other("\\nextgroupplot[height=4cm] \\addplot {x};");
    p.other("\\nextgroupplot\\addplot {-x};");
    p.other("\\end{groupplot}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(near(d.picture_bbox.xmin, -29.9819));
    CHECK(near(d.picture_bbox.xmax, 596.58258));
    CHECK(near(d.picture_bbox.ymax, 168.5517));
  }
  {
    // a group style key that is not modelled: not lowered, reported once
    Pic p;
    p.axis = true;
    p.other("\\begin{groupplot}[group style={group size=2 by 1, xlabels at=edge bottom}]");
    p.other("\\nextgroupplot\\addplot {x};");
    p.other("\\nextgroupplot\\addplot {x};");
    p.other("\\end{groupplot}");
    CHECK(count_unsupported(p.lower()) == 1);
  }
}

// lualatex (tools/tex-diff; pgfplots 1.18, compat=1.18): the picture's bbox.
TEST_CASE("pgfplots legend: every axis legend style from pgfplotsset places it, legend to name takes it out") {
  {
    Pic p;
    p.axis = true;
    // \pgfplotsset{every axis legend/.append style={...}} (tex/expander.cpp puts it in every axis)
    p.pre("every axis/.append style={every axis legend/.append style={at={(1.02,1)},anchor=north west}}");
    p.other("\\begin{axis}");
    p.other("\\addplot coordinates {(0,0) (1,1)};");
    p.other("\\addplot coordinates {(0,1) (1,2)};");
    p.other("\\legend{$l_1$,$l_2$}");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(std::abs(d.picture_bbox.xmax - 234.24) < 0.05);
  }
  {
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[legend to name=named, legend entries={a,b}]");
    p.other("\\addplot coordinates {(0,0) (1,1)};");
    p.other("\\addplot coordinates {(0,1) (1,2)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    for (const auto& n : d.nodes) CHECK(n.role != "legend");
  }
}

// lualatex (tools/tex-diff; pgfplots 1.18, compat=1.18): the picture's bbox.
TEST_CASE("pgfplots 2D mesh of an expression: one scanline, the polyline through the samples") {
  Pic p;
  p.axis = true;
  p.other("\\begin{axis}");
  p.other("\\addplot [mesh] {x + sin(deg(x))};");
  p.other("\\end{axis}");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK(std::abs(d.picture_bbox.xmin - -19.64375) < 0.05);
  CHECK(std::abs(d.picture_bbox.xmax - 200.82297) < 0.05);
  CHECK(std::abs(d.picture_bbox.ymin - -14.14372) < 0.05);
  // coordinates may end scanlines with blank lines the statement no longer shows: not modelled
  Pic q;
  q.axis = true;
  q.other("\\begin{axis}");
  q.other("\\addplot [mesh] coordinates {(0,0) (1,1) (2,0)};");
  q.other("\\end{axis}");
  CHECK(count_unsupported(q.lower()) == 1);
}

// lualatex (tools/tex-diff; pgfplots 1.18, compat=1.18): the picture's bbox; the manual's
// reference.2dplots-022/-023 and reference.tickoptions-028.
TEST_CASE("pgfplots ybar interval: N+1 points make N bars, the x tick labels stand for the intervals") {
  auto near = [](double a, double b) { return std::abs(a - b) < 0.05; };
  const std::string data = "coordinates {(0,2) (0.1,1) (0.3,0.5) (0.35,4) (0.5,3) (0.6,2) (0.7,1.5) (1,1.5)};";
  {
    // on the \addplot only: the bars, the axis' ticks stay pgfplots' own; the limits are the
    // data's (y from 0.5, not from the bars' zero level), the bars cut at the box
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}");
    p.other("\\addplot+[ybar interval] " + data);
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(near(d.picture_bbox.xmin, -11.86595));
    CHECK(near(d.picture_bbox.ymin, -13.31038));
    CHECK(near(d.picture_bbox.xmax, 195.20012));
    CHECK(near(d.picture_bbox.ymax, 162.20052));
    std::size_t rectangles = 0;
    for (const auto& el : d.elements)
      if (el.role == "data") ++rectangles;
    CHECK(rectangles == 7);  // 8 points, 7 intervals
  }
  {
    // on the axis: xtick=data, one label per interval at its middle, `xticklabel interval
    // boundaries` writing both ends; labels rotated below the box
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[ybar interval, xtick=data, xticklabel interval boundaries, "
            "x tick label style={rotate=90, anchor=east}]");
    p.other("\\addplot " + data);
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(near(d.picture_bbox.ymin, -53.34955));
    CHECK(near(d.picture_bbox.ymax, 166.36847));
    std::vector<std::string> texts;
    for (const auto* n : nodes_with_role(d, "tick label"))
      if (n->text.find("--") != std::string::npos) texts.push_back(n->text);
    CHECK(texts.size() == 7);
    CHECK(std::count(texts.begin(), texts.end(), "$0.35$ -- $0.5$") == 1);
  }
  {
    // ybar interval=0.9, a template of its own, 1000 sep= in the label style (2003, not 2{,}003)
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[ybar interval=0.9, x tick label as interval, xmin=2003,xmax=2030, ymin=0,ymax=140, "
            "xticklabel={$\\pgfmathprintnumber{\\tick}$ -- $\\pgfmathprintnumber{\\nexttick}$}, xtick=data, "
            "x tick label style={rotate=90,anchor=east, /pgf/number format/1000 sep=}]");
    p.other("\\addplot [draw=blue,fill=blue!40!white] coordinates {(2003,40) (2005,100) (2006,15) (2010,90) (2020,120) (2030,3)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(near(d.picture_bbox.xmin, -21.86598));
    CHECK(near(d.picture_bbox.ymin, -62.7943));
    CHECK(near(d.picture_bbox.xmax, 195.19688));
    bool found = false;
    for (const auto* n : nodes_with_role(d, "tick label")) found = found || n->text == "$2010$ -- $2020$";
    CHECK(found);
  }
  {
    // a template that uses the tick otherwise is not typeset: reported, the axis approximate
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[ybar interval, xticklabel={\\tick}]");
    p.other("\\addplot " + data);
    p.other("\\end{axis}");
    CHECK(count_unsupported(p.lower()) == 1);
  }
  {
    // `yticklabel=\ ,` (a control space: labels that show nothing) stays valid node text
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[yticklabel=\\ , xmin=0, xmax=1]");
    p.other("\\addplot coordinates {(0,0) (1,1)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    std::size_t spaces = 0;
    for (const auto* n : nodes_with_role(d, "tick label")) spaces += n->text == "\\ ";
    CHECK(spaces >= 2);
  }
}

// pgfplots' statistics library, hist (pgfplotsplothandlers.code.tex); lualatex numbers of the
// manual's libs.statistics-021 and -029 (tools/tex-diff).
TEST_CASE("pgfplots hist: the histogram's points, drawn as ybar interval or by the handler given") {
  // 12 values over [1, 10] in 3 bins of 3: [1,4) 3, [4,7) 2, [7,10] 7 (10 in the last bin)
  const std::vector<double> v = {1, 2, 1, 5, 4, 10, 7, 10, 9, 8, 9, 9};
  CHECK(xy(pp::histogram(v, 1, 10, 3, true, false, false)) == XY{{1, 3}, {4, 2}, {7, 7}, {10, 7}});
  CHECK(xy(pp::histogram(v, 1, 10, 3, false, true, false)) == XY{{1, 3}, {4, 5}, {7, 12}});
  auto density = pp::histogram(v, 1, 10, 3, false, false, true);
  CHECK(density[2].y == doctest::Approx(7.0 / (12 * 3)));
  const std::string table = "table [row sep=\\\\,y index=0] {data\\\\ 1\\\\ 2\\\\ 1\\\\ 5\\\\ 4\\\\ 10\\\\ 7\\\\ 10\\\\ 9\\\\ 8\\\\ 9\\\\ 9\\\\ };";
  auto near = [](double a, double b) { return std::abs(a - b) < 1.0; };
  {
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[ybar interval, xticklabel=\\pgfmathprintnumber\\tick--\\pgfmathprintnumber\\nexttick]");
    p.other("\\addplot+ [hist={bins=3}] " + table);
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(near(d.picture_bbox.ymin, -17.57834));
    CHECK(near(d.picture_bbox.ymax, 166.37216));
    std::size_t bars = 0;
    for (const auto& el : d.elements) bars += el.role == "data";
    CHECK(bars == 3);
  }
  {
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}");
    p.other("\\addplot+ [hist={bins=3, handler/.style={sharp plot}}] " + table);
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(near(d.picture_bbox.xmin, -11.86595));
    CHECK(near(d.picture_bbox.ymax, 162.20421));
  }
  {
    // hist keys that are not modelled: the axis is not lowered
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}");
    p.other("\\addplot+ [hist={bins=3, symbolic coords={A,B}}] " + table);
    p.other("\\end{axis}");
    CHECK(count_unsupported(p.lower()) == 1);
  }
}

TEST_CASE("pgfplots log axis: the plots' own paths are drawn, not taken for TikZ coordinates of the user's") {
  auto lowered = [](const std::string& env) {
    Pic p;
    p.axis = true;
    p.other("\\begin{" + env + "}[domain=1:4]");
    p.other("\\addplot {x};");
    p.other("\\addplot {x^2};");
    p.other("\\end{" + env + "}");
    return p.lower();
  };
  auto lin = lowered("axis"), log = lowered("semilogyaxis");
  CHECK(count_unsupported(log) == 0);
  // the box and the two plots, as on a linear axis
  CHECK(log.elements.size() == lin.elements.size());
  CHECK(log.elements.size() >= 3);
  {
    // a TikZ path of the user's with plain coordinates in a log axis is still reported
    Pic p;
    p.axis = true;
    p.other("\\begin{semilogyaxis}[domain=1:4]");
    p.other("\\addplot {x};");
    p.path("\\draw (1,2) -- (3,4);");
    p.other("\\end{semilogyaxis}");
    CHECK(count_unsupported(p.lower()) == 1);
  }
}

// lualatex (pgfplots 1.18, compat=1.18; \pgfpointanchor of each name after the picture): the
// axis' code runs where pgfplots runs it, `current axis` names the axis' box and its origin.
TEST_CASE("pgfplots axis code: after end axis, before end axis and extra description run, current axis anchors") {
  auto at = [](const ir::Diagram& d, const std::string& name) -> std::optional<ir::Point> {
    for (const auto& c : d.coordinates)
      if (c.name == name) return c.p;
    return std::nullopt;
  };
  Pic p;
  p.axis = true;
  p.libraries = {"calc"};
  // a style's `.code` replaces what `every axis` appended; the axis' own `/.append code` adds to it
  p.pre("myaxis/.style={axis lines=middle, after end axis/.code={\\node (O) at ($(current axis.origin)+(-5pt,-5pt)$) {$O$};}}");
  p.pre("every axis/.append style={after end axis/.append code={\\coordinate (A) at (current axis.above origin);}}");
  p.other("\\begin{axis}[myaxis, xmin=-3,xmax=5,ymin=-2,ymax=4, "
          "after end axis/.append code={\\coordinate (B) at (current axis.right of origin);}, "
          "before end axis/.code={\\coordinate (C) at (1,1);}, "
          "extra description/.code={\\coordinate (D) at (0.5,1); \\coordinate (G) at (axis cs:0,4);}]");
  p.other("\\addplot coordinates {(0,0) (1,1)};");
  p.other("\\end{axis}");
  p.path("\\coordinate (F) at (current axis.south east);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const ir::Node* o = nullptr;
  for (const auto& n : d.nodes)
    if (n.text == "$O$") o = &n;
  REQUIRE(o != nullptr);
  CHECK(std::abs(o->center.x - 68.123) < 0.05);
  CHECK(std::abs(o->center.y - 48.998) < 0.05);
  CHECK(!at(d, "A"));  // TeX: "No shape named `A' is known"
  const std::vector<std::tuple<const char*, double, double>> want = {
      {"B", 195.039, 54.010}, {"C", 97.498, 80.997}, {"D", 97.498, 161.993}, {"G", 73.123, 161.993}, {"F", 194.995, 0}};
  for (const auto& [name, x, y] : want) {
    CAPTURE(name);
    auto q = at(d, name);
    REQUIRE(q);
    CHECK(std::abs(q->x - x) < 0.05);
    CHECK(std::abs(q->y - y) < 0.05);
  }
  {
    // what the code holds that is not a path, and an anchor on the axis' own bounding box, are
    // reported: nothing of it is dropped unsaid
    Pic q;
    q.axis = true;
    q.other("\\begin{axis}[after end axis/.code={\\pgfmathsetmacro\\a{2} \\draw (current axis.outer north) -- +(1cm,0);}]");
    q.other("\\addplot coordinates {(0,0) (1,1)};");
    q.other("\\end{axis}");
    auto e = q.lower();
    std::vector<std::string> messages;
    for (const auto& x : e.diagnostics)
      if (x.rule.rfind("unsupported", 0) == 0) messages.push_back(x.message);
    REQUIRE(messages.size() == 2);
    CHECK(messages[0].find("after end axis code is not modelled") != std::string::npos);
    CHECK(messages[1] == "the place of anchor 'outer north' of 'current axis' is not modelled");
  }
  {
    // after the axis, plain numbers are read in pgfplots' scaled data frame (lualatex: (1,1) at
    // (0.24pt, 0.27pt) here): reported, not drawn at 1cm
    Pic q;
    q.axis = true;
    q.other("\\begin{axis}[xmin=-3,xmax=5,ymin=-2,ymax=4, after end axis/.code={\\fill (1,10) circle (5pt); "
            "\\draw (current axis.origin) -- +(1cm,0);}]");
    q.other("\\addplot coordinates {(0,0) (1,1)};");
    q.other("\\end{axis}");
    auto e = q.lower();
    CHECK(count_unsupported(e) == 1);
    CHECK(has_rule(e, "unsupported-coordinate"));
  }
}

// lualatex (pgfplots 1.18, compat=1.18): the styles of what the axis draws, set by \pgfplotsset
// (tex/expander.cpp puts them in every axis) or among the axis' keys, are read in order with its
// keys; `every axis post` after them all. Before, they were dropped without a word.
TEST_CASE("pgfplots element styles: every axis title, label and tick label styles, every axis post") {
  auto lowered = [](const std::string& pre, const std::string& opts) {
    Pic p;
    p.axis = true;
    if (!pre.empty()) p.pre(pre);
    p.other("\\begin{axis}[title=Title, xlabel=X, ylabel=Y" + opts + "]");
    p.other("\\addplot coordinates {(0,0) (1,1)};");
    p.other("\\end{axis}");
    return p.lower();
  };
  {
    auto d = lowered("every axis/.append style={every axis title/.append style={yshift=20pt}}", "");
    CHECK(count_unsupported(d) == 0);
    CHECK(std::abs(d.picture_bbox.ymax - 201.91) < 0.05);
  }
  {
    auto d = lowered("every axis/.append style={every tick label/.append style={font=\\Huge}}", "");
    CHECK(count_unsupported(d) == 0);
    CHECK(std::abs(d.picture_bbox.xmin - -50.15) < 0.05);
    CHECK(std::abs(d.picture_bbox.ymin - -36.60) < 0.05);
  }
  {
    // every axis post comes after the axis' own width
    auto d = lowered("", ", every axis post/.append style={width=10cm}, width=5cm");
    CHECK(count_unsupported(d) == 0);
    CHECK(std::abs(d.picture_bbox.xmax - 239.73) < 0.05);
    CHECK(std::abs(d.picture_bbox.ymax - 220.32) < 0.05);
  }
  {
    // a style that replaces where the title goes is reported
    auto d = lowered("every axis/.append style={every axis title/.style={at={(0,1)},above}}", "");
    CHECK(count_unsupported(d) == 1);
  }
}

TEST_CASE("pgfplots fill between: options, soft clip to a box, pgf's direction heuristics") {
  auto fb = pp::read_fill_between("of=A and B, soft clip={domain=3:5}, split, every odd segment/.style={yellow}");
  CHECK(fb.unsupported.empty());
  CHECK(fb.first == "A");
  CHECK(fb.second == "B");
  CHECK(fb.reverse == 2);
  CHECK(*fb.soft_clip == "domain=3:5");
  CHECK(pp::read_fill_between("of=A and B,reverse").reverse == 1);
  CHECK(pp::read_fill_between("of=A and B,reverse=false").reverse == 0);
  // a segment style that adds more than paint, an unknown key, no `of`: reported
  CHECK(!pp::read_fill_between("of=A and B,split,every even segment/.style={postaction={decorate}}").unsupported.empty());
  CHECK(!pp::read_fill_between("of=A and B,intersection segments={of=A and B}").unsupported.empty());
  CHECK(!pp::read_fill_between("split").unsupported.empty());
  // the part of a polyline inside [1, 3] x [-inf, inf], joined
  CHECK(xy(pp::clip_to_box({{0, 0}, {2, 2}, {4, 0}}, {1, -100}, {3, 100})) == XY{{1, 1}, {2, 2}, {3, 1}});
  CHECK(pp::clip_to_box({{0, 0}, {1, 0}}, {2, -1}, {3, 1}).empty());
  CHECK(pp::path_direction({{0, 0}, {1, -5}}) == '+');
  CHECK(pp::path_direction({{0, 5}, {0, -5}}) == '-');
  CHECK(pp::path_direction({{0, -5}, {0, 5}}) == '+');
}

TEST_CASE("pgfplots fill between: the region between a plot and a path spanning the axis, soft clipped") {
  // the pgfplots manual's fillbetween example with soft clip={domain=3:5} (lualatex: the picture
  // bbox within 1pt; orange from x=3 to x=5 between y=0 and x^2)
  Pic p;
  p.axis = true;
  p.other("\\begin{axis}");
  p.other("\\addplot+ [name path=A,domain=0:5] {x^2};");
  p.path("\\path [name path=B] (\\pgfkeysvalueof{/pgfplots/xmin},0) -- (\\pgfkeysvalueof{/pgfplots/xmax},0);");
  p.other("\\addplot [orange] fill between [of=A and B, soft clip={domain=3:5}];");
  p.other("\\end{axis}");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  for (const auto& dg : d.diagnostics) CHECK(dg.severity != Severity::error);
  const ir::Element* fill = nullptr;
  for (const auto& e : d.elements)
    if (e.role == "data fill") fill = &e;
  REQUIRE(fill != nullptr);
  CHECK(fill->style.fill);
  CHECK(!fill->style.draw);
  CHECK(fill->clips.size() == 1);  // the axis' clip of its plots
  const auto& pts = std::get<ir::Polyline>(fill->geom).points;
  REQUIRE(pts.size() == 13);
  // x in [-0.25, 5.25] over 195pt (32.5pt per unit), y in [-1.25, 26.25] over 162pt (5.4 per unit)
  CHECK_PT(pts.front(), 113.75, 62.1563);  // (3, 9)
  CHECK_PT(pts[10], 178.75, 148.5);        // (5, 25)
  CHECK_PT(pts[11], 178.75, 13.5);         // (5, 0): the path B, reversed (both run left to right)
  CHECK_PT(pts[12], 113.75, 13.5);         // (3, 0)
}

TEST_CASE("pgfplots fill between: a path not named before it is reported, the region not guessed") {
  Pic p;
  p.axis = true;
  p.other("\\begin{axis}");
  p.other("\\addplot+ [name path=A,domain=0:5] {x^2};");
  p.other("\\addplot [orange] fill between [of=A and C];");
  p.other("\\end{axis}");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 1);
  for (const auto& e : d.elements) CHECK(e.role != "data fill");
}

// lualatex (tools/tex-diff, fixtures/metrics/pgfplots_colorbar.tex): the colorbar is an axis of
// its own, 0.5cm wide and as high as the parent's box, 0.3cm right of the parent's outer box
// (its ylabel included), its tick labels on its right; below it for `colorbar horizontal`.
// Without the colorbar the pictures end at 187.8pt (right) and -13.3pt (bottom).
TEST_CASE("pgfplots colorbar: right of the parent's outer box, or below it") {
  {
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[colorbar, ylabel={$y$}, title={mesh}]");
    p.other("\\addplot[mesh, domain=0:4] {x^2};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(d.picture_bbox.xmin == doctest::Approx(-29.9819).epsilon(1e-4));
    CHECK(d.picture_bbox.xmax == doctest::Approx(234.8296).epsilon(1e-4));
    CHECK(d.picture_bbox.ymax == doctest::Approx(181.9146).epsilon(1e-4));
  }
  {
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[colorbar horizontal, xlabel={$x$}, point meta min=-100, point meta max=250]");
    p.other("\\addplot[mesh, point meta=x, domain=-2:2] {x};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(d.picture_bbox.ymin == doctest::Approx(-62.2206).epsilon(1e-4));
    CHECK(d.picture_bbox.xmax == doctest::Approx(205.8334).epsilon(1e-4));
  }
  {
    // the range rests on an expression of the coordinate index: reported, not drawn
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[colorbar]");
    p.other("\\addplot[scatter, only marks, scatter src={mod(\\coordindex,5)}, samples=10] {x};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 1);
  }
  {
    // contour levels of one's own: the colorbar shows them (lualatex: 7.8pt wider), not modelled
    Pic p;
    p.axis = true;
    p.other("\\begin{axis}[colorbar, view={0}{90}]");
    p.other("\\addplot3[domain=0:6, contour filled={levels={-0.4,-0.25,0,0.3,0.9}}] {sin(x)*sin(y)};");
    p.other("\\end{axis}");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 1);
  }
}
