// packages/tkzeuclide/test_tkzeuclide.cpp: tkz-euclide's commands lowered by
// packages/tkzeuclide/tkzeuclide.cpp. Expected numbers are lualatex's (tkz-euclide 4.25c, pgf
// 3.1.10) for the same picture (fixtures/metrics/tkzeuclide.tex holds it, compared by ctest
// tex_diff_fixtures): the picture's \pgf@picminx..\pgf@picmaxy and the nodes' centers.
#include <cmath>

#include "ir/test_lower_support.hpp"

using namespace lowertest;

namespace {

// tex/expander.cpp tkzeuclide_styles: what \usepackage{tkz-euclide} defines.
const char* kStyles =
    "point style/.style={draw=black, inner sep=0pt, shape=circle, minimum size=2, fill=black},"
    "label style/.style={below, black, font=\\normalsize},"
    "label angle style/.style={black, font=\\normalsize},"
    "line style/.style={line width=0.2pt, color=black, solid, line cap=round},"
    "circle style/.style={color=black!50, line width=0.2pt, solid}";

const ir::Node* node_with_text(const ir::Diagram& d, const std::string& text) {
  for (const auto& n : d.nodes)
    if (n.text == text) return &n;
  return nullptr;
}

}  // namespace

TEST_CASE("tkzeuclide: points, a midpoint, a polygon, labels and marks as tkz-euclide draws them") {
  Pic p;
  p.pre(kStyles);
  p.other(
      "\\tkzDefPoint(0,0){A}\\tkzDefPoint(4,0){B}\\tkzDefPoint(0,3){C}\n"
      "\\tkzDefMidPoint(B,C) \\tkzGetPoint{M}\n"
      "\\tkzDrawPolygon(A,B,C)\\tkzDrawSegment(A,M)\\tkzDrawPoints(A,B,C,M)\n"
      "\\tkzLabelPoints(A,B)\\tkzLabelPoint[above](C){$C$}\\tkzLabelPoint[above right](M){$M$}\n"
      "\\tkzLabelSegment(A,B){$4$}\\tkzMarkRightAngle(B,A,C)\\tkzMarkAngle(C,B,A)\n"
      "\\tkzLabelAngle[pos=1.6](C,B,A){$37^\\circ$}");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.has_picture_bbox);
  // lualatex: [-7.26, -13.70, 121.19, 99.06]
  CHECK(std::abs(d.picture_bbox.xmin - -7.26) < 0.05);
  CHECK(std::abs(d.picture_bbox.ymin - -13.70) < 0.05);
  CHECK(std::abs(d.picture_bbox.xmax - 121.19) < 0.05);
  CHECK(std::abs(d.picture_bbox.ymax - 99.06) < 0.05);
  // the midpoint of B (4cm,0) and C (0,3cm), labelled above right
  const ir::Node* m = node_with_text(d, "$M$");
  REQUIRE(m != nullptr);
  CHECK(m->center.x > 56.9);
  CHECK(m->center.y > 42.7);
  // the side's label sits below the side's midpoint (label style: below)
  const ir::Node* four = node_with_text(d, "$4$");
  REQUIRE(four != nullptr);
  CHECK(std::abs(four->center.x - 56.905) < 0.01);
  CHECK(four->center.y < 0);
}

TEST_CASE("tkzeuclide: images by rotation, projection and reflection, lines extended by add") {
  Pic p;
  p.pre(kStyles);
  p.options = "scale=.75";
  p.other(
      "\\tkzDefPoints{0/0/O,3/1/A,1/2/B}\n"
      "\\tkzDefPointBy[rotation=center O angle 90](A) \\tkzGetPoint{R}\n"
      "\\tkzDefPointBy[projection=onto O--A](B) \\tkzGetPoint{H}\n"
      "\\tkzDefPointBy[reflection=over O--A](B) \\tkzGetPoint{F}\n"
      "\\tkzDrawLine[add=0 and 1](O,A)\\tkzLabelPoints(R,H,F)");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const double u = 0.75 * 72.27 / 2.54;  // 1cm at scale .75
  const ir::Node* r = node_with_text(d, "$R$");
  REQUIRE(r != nullptr);
  CHECK(std::abs(r->center.x - -1 * u) < 0.01);  // (3,1) turned by 90 degrees: (-1,3)
  // H = ((B.A)/|A|^2) A = 0.5 (3,1); F = 2H - B = (2,-1)
  const ir::Node* h = node_with_text(d, "$H$");
  const ir::Node* f = node_with_text(d, "$F$");
  REQUIRE(h != nullptr);
  REQUIRE(f != nullptr);
  CHECK(std::abs(h->center.x - 1.5 * u) < 0.01);
  CHECK(std::abs(f->center.x - 2 * u) < 0.01);
  CHECK(f->center.y < h->center.y);
  // the line runs from O to A + 1 (A - O) = (6,2): the picture reaches x = 6cm at scale .75
  REQUIRE(d.has_picture_bbox);
  CHECK(d.picture_bbox.xmax >= 6 * u - 0.01);
}

TEST_CASE("tkzeuclide: an unmodelled construction is reported once, what it defines is not guessed") {
  Pic p;
  p.pre(kStyles);
  p.other(
      "\\tkzDefPoint(0,0){A}\\tkzDefPoint(4,0){B}\n"
      "\\tkzDefMidPoint(A,B)\\tkzGetPoint{M}\n"
      "\\tkzDefCircle[spieker](A,B,M)\\tkzGetPoint{C}\n"
      "\\tkzDrawPolygon(A,B,C)\\tkzDrawPoints(A,B,C,M)\\tkzLabelPoints(C)");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 1);
  // C is not the stale midpoint: nothing is drawn at it, no label names it
  CHECK(node_with_text(d, "$C$") == nullptr);
  std::size_t points = 0;
  for (const auto& n : d.nodes)
    if (n.text.empty()) ++points;
  CHECK(points == 3);  // A, B, M
}

// Checked with lualatex (tkz-euclide 4.25c, tools/tex-diff): the same points with their lines
// drawn give the picture [-17.17, -64.11, 102.52, 85.45] and the label I, below the crossing at
// (2, 0.5) cm, centred within 0.01pt of TeX's.
TEST_CASE("tkzeuclide: \\tkzInterLL places the crossing of the two lines, parallel lines are not placed") {
  Pic p;
  p.pre(kStyles);
  p.options = "scale=.75";
  p.other(
      "\\tkzDefPoints{0/0/A,4/1/B,1/3/C,3/-2/D}\n"
      "\\tkzInterLL(A,B)(C,D) \\tkzGetPoint{I}\n"
      "\\tkzDrawPoints(I)\\tkzLabelPoints(I)");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const double u = 0.75 * 72.27 / 2.54;
  // y = x/4 and y = 5.5 - 2.5x: I = (2, 0.5) cm
  const ir::Node* i = node_with_text(d, "$I$");
  REQUIRE(i != nullptr);
  CHECK(std::abs(i->center.x - 2 * u) < 0.01);
  CHECK(i->center.y < 0.5 * u);  // below its point (label style)

  Pic q;
  q.pre(kStyles);
  q.other(
      "\\tkzDefPoints{0/0/A,4/1/B,0/1/C,4/2/D}\n"
      "\\tkzInterLL(A,B)(C,D) \\tkzGetPoint{I}\n"
      "\\tkzDrawPoints(A,I)\\tkzLabelPoints(I)");
  auto e = q.lower();
  CHECK(count_unsupported(e) == 1);
  CHECK(node_with_text(e, "$I$") == nullptr);
}

namespace {
bool point_drawn_at(const ir::Diagram& d, double x, double y) {
  for (const auto& n : d.nodes)
    if (n.text.empty() && std::abs(n.center.x - x) < 0.02 && std::abs(n.center.y - y) < 0.02) return true;
  return false;
}
}  // namespace

// Expected centres from lualatex (tkz-euclide 4.25c): \pgfpointanchor of each result in the
// picture of scale .5 (local pt), halved to canvas pt. tkz computes in the local frame, so R=
// radii and `normed` lengths are local cm (half a canvas cm here).
TEST_CASE("tkzeuclide: circles, line-circle and circle-circle crossings, lines and points with") {
  Pic p;
  p.pre(kStyles);
  p.options = "scale=.5";
  p.other(
      "\\tkzDefPoints{0/0/A,4/0/B,0/3/C}\n"
      "\\tkzDefCircle[circum](A,B,C)\\tkzGetPoints{O}{P}\n"
      "\\tkzDefCircle[ex](A,B,C)\\tkzGetPoints{E}{F}\n"
      "\\tkzInterCC(A,B)(C,A)\\tkzGetPoints{K1}{K2}\n"
      "\\tkzInterLC[R](A,B)(C,4)\\tkzGetPoints{R1}{R2}\n"
      "\\tkzDefLine[mediator](A,B)\\tkzGetPoints{m1}{m2}\n"
      "\\tkzDefLine[perpendicular=through C](A,B)\\tkzGetPoint{p}\n"
      "\\tkzDefPointWith[orthogonal normed,K=2](A,B)\\tkzGetPoint{w}\n"
      "\\tkzDrawPoints(O,E,F,K1,R1,m1,p,w)");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK(point_drawn_at(d, 56.90549 / 2, 42.67911 / 2));   // circumcentre
  CHECK(point_drawn_at(d, -56.90549 / 2, 56.90549 / 2));  // excentre opposite B
  CHECK(point_drawn_at(d, 0, 56.90533 / 2));              // its foot on A--C
  CHECK(point_drawn_at(d, -84.82971 / 2, 75.874 / 2));    // first of the circles' crossings
  CHECK(point_drawn_at(d, -75.27371 / 2, 0.00516 / 2));   // first of line and circle
  CHECK(point_drawn_at(d, 56.90549 / 2, 98.56345 / 2));   // mediator: equilateral apex
  CHECK(point_drawn_at(d, 0, 199.16919 / 2));             // C + (B - A) turned 90 degrees
  CHECK(point_drawn_at(d, 0, 56.90549 / 2));              // 2 (local) cm from A, normal to AB
}

TEST_CASE("tkzeuclide: a line that misses the circle gives no crossing, nothing is guessed") {
  Pic p;
  p.pre(kStyles);
  p.other(
      "\\tkzDefPoints{0/0/A,4/0/B,0/3/C}\n"
      "\\tkzInterLC[R](A,B)(C,1)\\tkzGetPoints{X}{Y}\n"
      "\\tkzDrawPoints(A,X,Y)");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 1);
  std::size_t points = 0;
  for (const auto& n : d.nodes)
    if (n.text.empty()) ++points;
  CHECK(points == 1);
}

// lualatex (tools/tex-diff): the first picture's bbox [-53.45, -53.45, 67.11, 75.87], the second's
// [-42.68, -14.23, 156.49, 99.58].
TEST_CASE("tkzeuclide: arcs of every kind, \\tkzInit's window clipped by \\tkzClip, its origin moves points") {
  Pic p;
  p.pre(kStyles);
  p.pre("arc style/.style={color=black, line width=0.2pt}");  // tex/expander.cpp tkzeuclide_styles
  p.options = "scale=.75";
  p.other(
      "\\tkzDefPoints{0/0/O,2/0/A,0/3/B,-1/1/C}\n"
      "\\tkzDrawArc[delta=10](O,A)(B)\\tkzDrawArc[rotate,color=red](O,B)(-100)\n"
      "\\tkzDrawArc[R](C,1.5)(200,330)\\tkzDrawArc[angles](A,B)(100,170)\n"
      "\\tkzDrawArc[R with nodes,reverse](O,2.5)(B,A)\\tkzDrawPoints(O,A,B)");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.has_picture_bbox);
  CHECK(std::abs(d.picture_bbox.xmin - -53.45) < 0.05);
  CHECK(std::abs(d.picture_bbox.ymin - -53.45) < 0.05);
  CHECK(std::abs(d.picture_bbox.xmax - 67.11) < 0.05);
  CHECK(std::abs(d.picture_bbox.ymax - 75.87) < 0.05);

  Pic q;
  q.pre(kStyles);
  q.other(
      "\\tkzInit[xmin=-1,xmax=5,ymin=1,ymax=4]\\tkzClip[space=.5]\n"
      "\\tkzDefPoints{0/1/A,4/3/B}\\tkzDrawSegment(A,B)\\tkzDrawPoints(A,B)");
  auto e = q.lower();
  CHECK(count_unsupported(e) == 0);
  REQUIRE(e.has_picture_bbox);
  CHECK(std::abs(e.picture_bbox.xmin - -42.68) < 0.05);
  CHECK(std::abs(e.picture_bbox.ymin - -14.23) < 0.05);
  CHECK(std::abs(e.picture_bbox.xmax - 156.49) < 0.05);
  CHECK(std::abs(e.picture_bbox.ymax - 99.58) < 0.05);
}

// The same triangles in fixtures/metrics/tkzeuclide_triangles.tex agree with lualatex within 0.11pt.
TEST_CASE("tkzeuclide: triangles, squares, triangle centres and special triangles") {
  Pic p;
  p.pre(kStyles);
  p.other(
      "\\tkzDefPoints{0/0/A,4/0/B,1.5/3.5/C}\n"
      "\\tkzDefTriangle[equilateral](A,B)\\tkzGetPoint{T}\n"
      "\\tkzDefSquare(A,B)\\tkzGetPoints{S1}{S2}\n"
      "\\tkzDefTriangleCenter[ortho](A,B,C)\\tkzGetPoint{H}\n"
      "\\tkzDefSpcTriangle[medial,name=M](A,B,C){a,b,c}\n"
      "\\tkzDrawPoints(T,S1,S2,H,Ma)");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const double cm = 72.27 / 2.54;
  CHECK(point_drawn_at(d, 2 * cm, std::sqrt(12.0) * cm));  // B turned 60 degrees about A
  CHECK(point_drawn_at(d, 4 * cm, 4 * cm));                 // A turned -90 degrees about B
  CHECK(point_drawn_at(d, 0, 4 * cm));                      // B turned 90 degrees about A
  // orthocentre: x = 1.5 (on the altitude from C); A->H is normal to C->B = (2.5, -3.5):
  // (1.5, y) . (2.5, -3.5) = 0 gives y = 3.75 / 3.5
  CHECK(point_drawn_at(d, 1.5 * cm, 3.75 / 3.5 * cm));
  CHECK(point_drawn_at(d, 2.75 * cm, 1.75 * cm));  // Ma, the midpoint of B and C
}

// A statement of the front end is a run of tkz commands over several lines; what each command
// draws points at that command (LibraryHost::emit's [b, e)), so a finding on a segment drawn on
// the run's third line is reported there, not on the run's first line.
TEST_CASE("tkzeuclide: what a command of a run draws points at that command, not at the run") {
  Pic p;
  p.pre(kStyles);
  const std::string run =
      "\\tkzDefPoints{0/0/A,4/0/B,0/3/C}\n"
      "\\tkzDrawSegment(A,B)\n"
      "\\tkzLabelPoint(C){$C$}";
  p.other(run);
  p.path("\\draw (0,0) -- (1,1);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const std::uint32_t seg = 1000 + static_cast<std::uint32_t>(run.find("\\tkzDrawSegment"));
  const std::uint32_t lab = 1000 + static_cast<std::uint32_t>(run.find("\\tkzLabelPoint"));
  const std::uint32_t end = 1000 + static_cast<std::uint32_t>(run.size());
  std::size_t segments = 0;
  for (const auto& el : d.elements) {
    if (el.prov.range.begin == seg) {
      ++segments;
      CHECK(el.prov.range.end == lab - 1);  // up to the segment's ')', not past the newline
    }
  }
  CHECK(segments == 1);
  const ir::Node* c = node_with_text(d, "$C$");
  REQUIRE(c != nullptr);
  CHECK(c->prov.range.begin == lab);
  CHECK(c->prov.range.end == end);
  // a statement of its own keeps its whole range
  REQUIRE(!d.elements.empty());
  CHECK(d.elements.back().prov.range.begin == 1000);
}

TEST_CASE("tkzeuclide: a run that starts with \\pgfkeys is lowered, angle marks in a rotated picture's frame") {
  // fixtures/metrics/tkzeuclide_rotated.tex's picture; lualatex's label centres and bbox
  Pic p;
  p.pre(kStyles);
  p.options = "rotate=-30";
  p.other(
      "\\pgfkeys{/pgf/number format/.cd,fixed,precision=1}\n"
      "\\tkzDefPoints{0/0/A,4/0/B,1/3/C}\n"
      "\\tkzDrawPolygon(A,B,C)\n"
      "\\tkzMarkAngle[size=1.5](B,A,C)\n"
      "\\tkzLabelAngle[pos=2](B,A,C){$\\alpha$}\n"
      "\\tkzMarkRightAngle[size=.4](A,B,C)\n"
      "\\tkzMarkAngle[size=.6](C,B,A)\n"
      "\\tkzLabelAngle(C,B,A){$\\beta$}\n"
      "\\pgfinterruptboundingbox\n\\tkzDrawCircle(A,B)\n\\endpgfinterruptboundingbox\n"
      "\\tkzLabelCircle[above](B,C)(40){$c$}\n"
      "\\tkzDuplicateSegment(A,C)(B,C)\\tkzGetPoint{D}\n"
      "\\tkzDefGoldenRatio(A,B)\\tkzGetPoint{G}\n"
      "\\tkzDrawPoints(D,G)\n"
      "\\tkzLabelPoints(A,B)\n"
      "\\tkzLabelPoint[above](C){$C$}");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.has_picture_bbox);
  // lualatex: [-7.083, -70.605, 105.940, 73.395] (the circle of radius 4cm about A does not count)
  CHECK(std::abs(d.picture_bbox.xmin - -7.083) < 0.05);
  CHECK(std::abs(d.picture_bbox.ymin - -70.605) < 0.05);
  CHECK(std::abs(d.picture_bbox.xmax - 105.940) < 0.05);
  CHECK(std::abs(d.picture_bbox.ymax - 73.395) < 0.05);
  // the labels on the angles' bisectors, taken in the picture's frame (canvas directions would
  // turn them 30 degrees further)
  const ir::Node* alpha = node_with_text(d, "$\\alpha$");
  const ir::Node* beta = node_with_text(d, "$\\beta$");
  const ir::Node* c = node_with_text(d, "$c$");
  REQUIRE(alpha != nullptr);
  REQUIRE(beta != nullptr);
  REQUIRE(c != nullptr);
  CHECK(std::abs(alpha->center.x - 56.616) < 0.01);
  CHECK(std::abs(alpha->center.y - 5.733) < 0.01);
  CHECK(std::abs(beta->center.x - 81.242) < 0.01);
  CHECK(std::abs(beta->center.y - -34.332) < 0.01);
  CHECK(std::abs(c->center.x - -0.321) < 0.01);
  CHECK(std::abs(c->center.y - 18.019) < 0.01);
}

TEST_CASE("tkzeuclide: what tkz's result would rest on pgfmath's rounding, or a split interrupt, is reported") {
  {
    // a slanted line through the centre: which crossing tkz names first rests on pgfmath's
    // rounding of two equal directions, not known
    Pic p;
    p.pre(kStyles);
    p.other("\\tkzDefPoints{0/0/O,1/1/A,-2/-2/B}\\tkzInterLC(A,B)(O,A)\\tkzGetPoints{E}{F}\\tkzDrawPoints(E,F)");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 1);
    CHECK(d.nodes.empty());
  }
  {
    // a horizontal one: pgf's atan2 is exact, tkz keeps its raw order (the first point is
    // against the line's direction A->B)
    Pic p;
    p.pre(kStyles);
    p.other("\\tkzDefPoints{0/0/O,1/0/A,-2/0/B}\\tkzInterLC(A,B)(O,A)\\tkzGetPoints{E}{F}\\tkzLabelPoints(E,F)");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    const ir::Node* e = node_with_text(d, "$E$");
    const ir::Node* f = node_with_text(d, "$F$");
    REQUIRE(e != nullptr);
    REQUIRE(f != nullptr);
    CHECK(std::abs(e->center.x - 28.453) < 0.01);
    CHECK(std::abs(f->center.x - -28.453) < 0.01);
  }
  {
    Pic p;
    p.pre(kStyles);
    p.other("\\tkzDefPoints{0/0/O,1/0/A}\\pgfinterruptboundingbox\\tkzDrawCircle(O,A)");
    p.path("\\draw (0,0) -- (1,1);");
    p.other("\\endpgfinterruptboundingbox");
    auto d = p.lower();
    CHECK(count_unsupported(d) >= 1);
  }
}

TEST_CASE("tkzeuclide: \\tkzSetUpCompass, \\tkzSetUpArc and \\tkzSetUpCircle share their keys as tkz stores them") {
  // O at the origin, A east, B north: \tkzDrawArc(O,A)(B) runs from 0 to 90 degrees, widened by
  // tkz's \tkz@delta either side; \tkzCompass(O,A) is delta either side of A
  auto arcs = [](const ir::Diagram& d) {
    std::vector<ir::Arc> out;
    for (const auto& e : d.elements)
      if (const auto* a = std::get_if<ir::Arc>(&e.geom)) out.push_back(*a);
    return out;
  };
  auto colors = [](const ir::Diagram& d) {
    std::vector<std::string> out;
    for (const auto& e : d.elements)
      if (std::holds_alternative<ir::Arc>(e.geom)) out.push_back(e.style.draw_color);
    return out;
  };
  const std::string pts = "\\tkzDefPoints{0/0/O,1/0/A,0/1/B}";
  {
    Pic p;
    p.pre(kStyles);
    p.pre("compass style/.style={color=black}, arc style/.style={color=black}");
    p.other(pts + "\\tkzSetUpCompass[delta=20,color=red]\\tkzDrawArc(O,A)(B)\\tkzCompass(O,A)");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    auto a = arcs(d);
    REQUIRE(a.size() == 2);
    CHECK(std::abs(a[0].start_deg - -20) < 1e-6);  // \tkzDrawArc's default delta is the compass's
    CHECK(std::abs(a[0].end_deg - 110) < 1e-6);
    CHECK(std::abs(a[1].start_deg - -20) < 1e-6);
    CHECK(std::abs(a[1].end_deg - 20) < 1e-6);
    auto c = colors(d);
    CHECK(c[0] == "black");  // arc style is not the compass's
    CHECK(c[1] == "red");
  }
  {
    Pic p;
    p.pre(kStyles);
    p.pre("compass style/.style={color=black}, arc style/.style={color=black}");
    p.other(pts + "\\tkzSetUpArc[delta=5,color=blue]\\tkzSetUpCircle[delta=30]\\tkzDrawArc(O,A)(B)\\tkzCompass(O,A)");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    auto a = arcs(d);
    REQUIRE(a.size() == 2);
    CHECK(std::abs(a[0].start_deg - -5) < 1e-6);  // \tkzSetUpCircle's delta is not stored
    CHECK(std::abs(a[0].end_deg - 95) < 1e-6);
    CHECK(std::abs(a[1].start_deg - -5) < 1e-6);  // \tkzSetUpArc's delta is the compass's too
    auto c = colors(d);
    CHECK(c[0] == "blue");
    CHECK(c[1] == "black");
  }
  {
    // add= of \tkzSetUpLine holds for later lines; add= on the command wins; a malformed one is reported
    Pic p;
    p.pre(kStyles);
    p.other(pts + "\\tkzSetUpLine[add=.5 and 0]\\tkzDrawLine(O,A)\\tkzDrawLine[add=0 and 1](O,B)\\tkzDrawLine[add=1](O,A)");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 1);
    std::vector<ir::Segment> seg;
    for (const auto& e : d.elements)
      if (const auto* s = std::get_if<ir::Segment>(&e.geom)) seg.push_back(*s);
    REQUIRE(seg.size() == 2);
    const double cm = 72.27 / 2.54;
    CHECK(std::abs(seg[0].a.x - -0.5 * cm) < 0.01);
    CHECK(std::abs(seg[0].b.x - 1 * cm) < 0.01);
    CHECK(std::abs(seg[1].a.y - 0) < 0.01);
    CHECK(std::abs(seg[1].b.y - 2 * cm) < 0.01);
  }
}

TEST_CASE("tkzeuclide: \\tkzDrawX and \\tkzDrawY over \\tkzInit's window, ticks are reported") {
  Pic p;
  p.pre(kStyles);
  p.pre("xaxe style/.style={>=latex, ->}, yaxe style/.style={>=latex, ->},"
        "xlabel style/.style={below=3pt, inner sep=1pt, outer sep=0pt},"
        "ylabel style/.style={left=3pt, inner sep=1pt, outer sep=0pt}");
  p.other("\\tkzInit[xmin=-1,xmax=4,ymin=-1,ymax=3]\\tkzDrawX\\tkzDrawY[label=$v$]");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const double cm = 72.27 / 2.54;
  // the x axis from -1 to 4.5 (right space .5), labelled $x$ below its end
  const ir::Node* xl = node_with_text(d, "$x$");
  const ir::Node* vl = node_with_text(d, "$v$");
  REQUIRE(xl != nullptr);
  REQUIRE(vl != nullptr);
  CHECK(std::abs(xl->center.x - 4.5 * cm) < 0.01);
  CHECK(xl->center.y < -3);
  CHECK(std::abs(vl->center.y - 3.5 * cm) < 0.01);
  CHECK(vl->center.x < -3);
  REQUIRE(d.has_picture_bbox);
  CHECK(std::abs(d.picture_bbox.xmin - -1 * cm) < 4);
  Pic q;
  q.pre(kStyles);
  q.other("\\tkzDrawX[noticks=false]");
  CHECK(count_unsupported(q.lower()) == 1);
}

TEST_CASE("tkzeuclide: pgffor ranges in point lists, a stepped one and one with a context") {
  Pic p;
  p.pre(kStyles);
  p.other(
      "\\tkzDefPoints{0/0/A,1/0/B,2/0/C,3/0/D,4/0/E,5/0/F,6/0/G,0/2/P1,1/2/P2,2/2/P3}\n"
      "\\tkzLabelPoints(A,C,...,G)\\tkzLabelPoints(P1,P...,P3)");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  // pgffor: the step is C - A, the range stops at G; "P..." strips the context P from P1 and P3
  for (const char* t : {"$A$", "$C$", "$E$", "$G$", "$P1$", "$P2$", "$P3$"}) CHECK(node_with_text(d, t) != nullptr);
  CHECK(node_with_text(d, "$B$") == nullptr);
  CHECK(node_with_text(d, "$F$") == nullptr);
  // a range pgffor reads as neither letters nor integers is reported, not guessed
  Pic q;
  q.pre(kStyles);
  q.other("\\tkzDefPoints{0/0/A,1/0/B}\\tkzDrawPoints(A,...,Bx)");
  CHECK(count_unsupported(q.lower()) == 1);
}

TEST_CASE("tkzeuclide: the radical axis of tangent circles, turned about the point of contact") {
  Pic p;
  p.pre(kStyles);
  p.other(
      "\\tkzDefPoints{0/0/A,4/0/B,6/0/C}\n"
      "\\tkzDefRadicalAxis(A,B)(C,B)\\tkzGetPoints{E}{F}\n"
      "\\tkzLabelPoint(E){$E$}\\tkzLabelPoint(F){$F$}");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  // \tkzURotateAngle(B,+-90)(C): (4cm, 2cm) then (4cm, -2cm); the labels hang below them
  const ir::Node* e = node_with_text(d, "$E$");
  const ir::Node* f = node_with_text(d, "$F$");
  REQUIRE(e != nullptr);
  REQUIRE(f != nullptr);
  CHECK(std::abs(e->center.x - 113.81) < 0.05);
  CHECK(std::abs(f->center.x - 113.81) < 0.05);
  CHECK(e->center.y > 40);
  CHECK(f->center.y < -56.9);
}

TEST_CASE("tkzeuclide: \\tkzShowLine draws the compass arcs of its kind, and keeps the last global kind") {
  auto arcs = [](const ir::Diagram& d) {
    std::vector<ir::Arc> out;
    for (const auto& e : d.elements)
      if (const auto* a = std::get_if<ir::Arc>(&e.geom)) out.push_back(*a);
    return out;
  };
  const std::string pts = "\\tkzDefPoints{0/0/A,4/0/B,1/2/C}";
  auto lower = [&](const std::string& body) {
    Pic p;
    p.pre(kStyles);
    p.pre("compass style/.style={color=black}");
    p.other(pts + body);
    return p.lower();
  };
  {
    // mediator of A--B: M=(2,0), arcs about A and B through (2cm, -+2cm); A's arcs ratio*length
    auto d = lower("\\tkzShowLine[mediator](A,B)");
    CHECK(count_unsupported(d) == 0);
    auto a = arcs(d);
    REQUIRE(a.size() == 4);
    CHECK(std::abs(std::abs(a[0].end_deg - a[0].start_deg) - std::abs(a[1].end_deg - a[1].start_deg) / 2) < 0.2);
  }
  CHECK(arcs(lower("\\tkzShowLine[parallel=through C](A,B)")).size() == 2);
  CHECK(arcs(lower("\\tkzShowLine[perpendicular=through C](A,B)")).size() == 4);
  {
    // no kind: the last kind set globally (bisector), mediator sets it only locally
    auto d = lower("\\tkzShowLine[bisector](B,A,C)\\tkzShowLine[mediator](A,B)\\tkzShowLine(B,A,C)");
    CHECK(count_unsupported(d) == 0);
    CHECK(arcs(d).size() == 12);
  }
  // a style may carry the kind: not guessed
  CHECK(count_unsupported(lower("\\tkzShowLine[mystyle](A,B)")) == 1);
}
