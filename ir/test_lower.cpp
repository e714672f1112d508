// ir/test_lower.cpp: coordinate forms, path operations, canvas and bounding box, unsupported
// reporting. Expected values follow pgf's rules (pgfmanual 13-15); 1cm = 72.27/2.54pt.
#include <numbers>
#include <cstdio>

#include "ir/test_lower_support.hpp"

// ir's own tests lower plain TikZ: no package (those are packages_tests').
const tikzlint::ir::PackageRegistry& lowertest::packages() {
  static const tikzlint::ir::PackageRegistry none;
  return none;
}

using namespace lowertest;

namespace {
constexpr double kDeg = std::numbers::pi / 180;
ir::Diagram one(const std::string& path) {
  Pic p;
  p.path(path);
  return p.lower();
}
}  // namespace

TEST_CASE("coordinates: polar with and without units, elliptic polar") {
  auto d = one("\\draw (90:2) -- (0:10pt) -- (30:2 and 1);");
  const auto& pl = geom<ir::Polyline>(d, 0);
  CHECK_PT(pl.points[0], 0, 2 * kCm);
  CHECK_PT(pl.points[1], 10, 0);
  CHECK_PT(pl.points[2], 2 * kCm * std::cos(30 * kDeg), kCm * std::sin(30 * kDeg));
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("coordinates: mixed units per component") {
  auto d = one("\\draw (0,0) -- (1,10pt);");
  CHECK_PT(geom<ir::Segment>(d, 0).b, kCm, 10);
}

TEST_CASE("coordinates: named coordinates, node anchors and numeric border anchors") {
  Pic p;
  p.path("\\coordinate (A) at (1,2);");
  p.path("\\node[minimum size=20pt, inner sep=0pt, outer sep=0pt] (B) at (0,0) {};");
  p.path("\\draw (A) -- (B.north) -- (B.45) -- (B.south west) -- (B.west);");
  auto d = p.lower();
  REQUIRE(d.coordinates.size() == 1);
  CHECK_PT(d.coordinates[0].p, kCm, 2 * kCm);
  const auto& pl = geom<ir::Polyline>(d, 0);
  REQUIRE(pl.points.size() == 5);
  CHECK_PT(pl.points[0], kCm, 2 * kCm);
  CHECK_PT(pl.points[1], 0, 10);
  CHECK_PT(pl.points[2], 10, 10);
  CHECK_PT(pl.points[3], -10, -10);
  CHECK_PT(pl.points[4], -10, 0);
}

TEST_CASE("coordinates: a line to a bare node name stops at its border") {
  Pic p;
  p.path("\\node[minimum size=20pt, inner sep=0pt, outer sep=0pt] (B) at (0,0) {};");
  p.path("\\draw (B) -- (2,0);");
  p.path("\\draw (2,0) -- (B);");
  auto d = p.lower();
  CHECK_PT(geom<ir::Segment>(d, 0).a, 10, 0);
  CHECK_PT(geom<ir::Segment>(d, 0).b, 2 * kCm, 0);
  CHECK_PT(geom<ir::Segment>(d, 1).b, 10, 0);
}

TEST_CASE("coordinates: ++ moves the reference, + does not") {
  auto d = one("\\draw (1,0) -- ++(1,0) -- +(0,1) -- +(0,-1);");
  const auto& pl = geom<ir::Polyline>(d, 0);
  REQUIRE(pl.points.size() == 4);
  CHECK_PT(pl.points[1], 2 * kCm, 0);
  CHECK_PT(pl.points[2], 2 * kCm, kCm);
  CHECK_PT(pl.points[3], 2 * kCm, -kCm);
}

TEST_CASE("coordinates: calc partway, distance, projection, rotation, sums and factors") {
  auto d = one(
      "\\draw ($(0,0)!0.25!(4,0)$) -- ($(0,0)!10pt!(0,3)$) -- ($(0,0)!(1,1)!(2,0)$) -- ($(0,0)!1!90:(1,0)$) -- "
      "($(1,1)+(2,0)$) -- ($2*(1,1)-(1,0)$);");
  const auto& pl = geom<ir::Polyline>(d, 0);
  REQUIRE(pl.points.size() == 6);
  CHECK_PT(pl.points[0], kCm, 0);
  CHECK_PT(pl.points[1], 0, 10);
  CHECK_PT(pl.points[2], kCm, 0);
  CHECK_PT(pl.points[3], 0, kCm);
  CHECK_PT(pl.points[4], 3 * kCm, kCm);
  CHECK_PT(pl.points[5], kCm, 2 * kCm);
}

TEST_CASE("coordinates: perpendicular and intersection of lines") {
  Pic p;
  p.path("\\coordinate (A) at (1,0);");
  p.path("\\coordinate (B) at (0,2);");
  p.path("\\draw (A |- B) -- (A -| B) -- (intersection of 0,0--2,2 and 0,2--2,0);");
  auto d = p.lower();
  const auto& pl = geom<ir::Polyline>(d, 0);
  CHECK_PT(pl.points[0], kCm, 2 * kCm);
  CHECK_PT(pl.points[1], 0, 0);
  CHECK_PT(pl.points[2], kCm, kCm);
}

TEST_CASE("coordinates: let with \\p, \\x, \\y and \\n") {
  auto d = one("\\draw let \\p1=(1,2), \\n1={veclen(3,4)} in (0,0) -- (\\x1,\\y1) -- (\\n1 pt,0) -- (\\p1);");
  const auto& pl = geom<ir::Polyline>(d, 0);
  REQUIRE(pl.points.size() == 4);
  CHECK_PT(pl.points[1], kCm, 2 * kCm);
  CHECK_PT(pl.points[2], 5, 0);
  CHECK_PT(pl.points[3], kCm, 2 * kCm);
  CHECK(count_unsupported(d) == 0);
}

TEST_CASE("paths: a lone -- is a segment, consecutive lines a polyline, cycle closes it") {
  auto d = one("\\draw (0,0) -- (1,0) -- (1,1) -- cycle;");
  const auto& pl = geom<ir::Polyline>(d, 0);
  CHECK(pl.closed);
  CHECK(pl.explicit_cycle);
  CHECK(pl.points.size() == 3);
  auto s = one("\\draw (0,0) -- (1,0);");
  CHECK(std::holds_alternative<ir::Segment>(s.elements[0].geom));
}

TEST_CASE("paths: |- and -| go through the corner") {
  auto d = one("\\draw (0,0) |- (2,1) -| (3,0);");
  const auto& pl = geom<ir::Polyline>(d, 0);
  REQUIRE(pl.points.size() == 5);
  CHECK_PT(pl.points[1], 0, kCm);
  CHECK_PT(pl.points[3], 3 * kCm, kCm);
}

TEST_CASE("paths: rectangle, circle, ellipse, circle under xscale") {
  // `circle[radius=5pt] (0,0)` would read (0,0) as an old-syntax radius, as TikZ does
  auto d = one("\\draw (0,0) rectangle (2,1) (1,1) circle (1) (0,0) ellipse (2 and 1) (0,0) circle[radius=5pt];");
  const auto& r = geom<ir::Rectangle>(d, 0);
  CHECK_PT(r.corners[1], 2 * kCm, 0);
  CHECK_PT(r.corners[2], 2 * kCm, kCm);
  CHECK(geom<ir::Circle>(d, 1).radius == doctest::Approx(kCm));
  CHECK_PT(geom<ir::Circle>(d, 1).center, kCm, kCm);
  CHECK(geom<ir::Circle>(d, 3).radius == doctest::Approx(5));
  CHECK(geom<ir::Ellipse>(d, 2).rx == doctest::Approx(2 * kCm));
  CHECK(geom<ir::Ellipse>(d, 2).ry == doctest::Approx(kCm));
  auto e = one("\\draw[xscale=2] (0,0) circle (1);");
  CHECK(geom<ir::Ellipse>(e, 0).rx == doctest::Approx(2 * kCm));
  CHECK(geom<ir::Ellipse>(e, 0).ry == doctest::Approx(kCm));
}

TEST_CASE("paths: arcs start at the current point, in both syntaxes") {
  auto d = one("\\draw (1,0) arc (0:90:1);");
  const auto& a = geom<ir::Arc>(d, 0);
  CHECK_PT(a.center, 0, 0);
  CHECK_PT(a.from, kCm, 0);
  CHECK_PT(a.to, 0, kCm);
  CHECK(a.sweep_deg() == doctest::Approx(90));
  auto n = one("\\draw (0,0) arc[start angle=180, delta angle=-90, radius=2pt];");
  const auto& b = geom<ir::Arc>(n, 0);
  CHECK_PT(b.center, 2, 0);
  CHECK_PT(b.to, 2, 2);
  CHECK(b.sweep_deg() == doctest::Approx(-90));
  auto e = one("\\draw (2,0) arc (0:180:2 and 1);");
  const auto& c = geom<ir::Arc>(e, 0);
  CHECK(c.rx == doctest::Approx(2 * kCm));
  CHECK(c.ry == doctest::Approx(kCm));
  CHECK_PT(c.to, -2 * kCm, 0);
}

TEST_CASE("paths: grid with step") {
  auto d = one("\\draw[step=0.5] (0,0) grid (2,1);");
  const auto& g = geom<ir::Grid>(d, 0);
  CHECK(g.step_x == doctest::Approx(0.5 * kCm));
  CHECK_PT(g.corners[2], 2 * kCm, kCm);
}

TEST_CASE("paths: curves with controls, relative second control point") {
  auto d = one("\\draw (0,0) .. controls +(0,1) and +(0,1) .. (2,0);");
  const auto& b = geom<ir::Bezier>(d, 0);
  CHECK_PT(b.c1, 0, kCm);
  CHECK_PT(b.c2, 2 * kCm, kCm);
  CHECK_PT(b.p1, 2 * kCm, 0);
}

TEST_CASE("paths: to with bend left uses the to-path library's curve") {
  auto d = one("\\draw (0,0) to[bend left] (2,0);");
  const auto& b = geom<ir::Bezier>(d, 0);
  const double l = 0.3915 * 2 * kCm;
  CHECK_PT(b.c1, l * std::cos(30 * kDeg), l * std::sin(30 * kDeg));
  CHECK_PT(b.c2, 2 * kCm + l * std::cos(150 * kDeg), l * std::sin(150 * kDeg));
  auto o = one("\\draw (0,0) to[out=90, in=90, looseness=2] (1,0);");
  const auto& c = geom<ir::Bezier>(o, 0);
  CHECK_PT(c.c1, 0, 2 * 0.3915 * kCm);
  auto s = one("\\draw (0,0) to (1,0);");
  CHECK(std::holds_alternative<ir::Segment>(s.elements[0].geom));
}

TEST_CASE("paths: edges all start at the coordinate before the first edge") {
  auto d = one("\\path (0,0) edge (1,0) edge (0,1);");
  REQUIRE(d.elements.size() == 2);
  CHECK_PT(geom<ir::Segment>(d, 0).a, 0, 0);
  CHECK_PT(geom<ir::Segment>(d, 1).a, 0, 0);
  CHECK_PT(geom<ir::Segment>(d, 1).b, 0, kCm);
  CHECK(d.elements[0].style.draw);
  CHECK(!d.elements[0].style.invisible);
}

TEST_CASE("paths: parabola and sine are sampled") {
  auto d = one("\\draw (0,0) parabola (2,4);");
  const auto& p = geom<ir::Plot>(d, 0);
  CHECK_PT(p.points.front(), 0, 0);
  CHECK_PT(p.points.back(), 2 * kCm, 4 * kCm);
  auto s = one("\\draw (0,0) sin (1,1);");
  const auto& q = geom<ir::Plot>(s, 0);
  CHECK_PT(q.points[12], 0.5 * kCm, std::sin(45 * kDeg) * kCm);
}

TEST_CASE("paths: plot coordinates and plot of a function over a domain") {
  auto d = one("\\draw plot coordinates {(0,0) (1,1) (2,0)};");
  CHECK(geom<ir::Plot>(d, 0).points.size() == 3);
  auto f = one("\\draw[domain=0:2, samples=3] plot (\\x,{\\x*\\x});");
  const auto& p = geom<ir::Plot>(f, 0);
  REQUIRE(p.points.size() == 3);
  CHECK_PT(p.points[1], kCm, kCm);
  CHECK_PT(p.points[2], 2 * kCm, 4 * kCm);
}

TEST_CASE("styles: line widths, dashes, arrows, fill, invisible \\path") {
  auto d = one("\\draw[very thick, dashed, ->] (0,0) -- (1,0);");
  const auto& st = d.elements[0].style;
  CHECK(st.line_width == doctest::Approx(1.2));
  CHECK(st.dash == "dashed");
  CHECK(st.arrow_end);
  CHECK(!st.arrow_start);
  auto f = one("\\filldraw[fill=red!20, line width=2pt, -{Stealth[length=3mm]}] (0,0) -- (1,0) -- (0,1) -- cycle;");
  CHECK(f.elements[0].style.fill);
  CHECK(f.elements[0].style.draw);
  CHECK(f.elements[0].style.line_width == doctest::Approx(2));
  CHECK(f.elements[0].style.arrow_end);
  CHECK(count_unsupported(f) == 0);
  auto p = one("\\path (0,0) -- (1,0);");
  CHECK(p.elements[0].style.invisible);
}

TEST_CASE("right-angle marks: a small L at a corner, and the angles library pics") {
  Pic p;
  p.path("\\draw (0,0) -- (3,0) -- (0,2) -- cycle;");
  p.path("\\draw (0.2,0) -- (0.2,0.2) -- (0,0.2);");
  p.path("\\coordinate (A) at (3,0); \\coordinate (B) at (0,0); \\coordinate (C) at (0,2);");
  p.path("\\pic[draw] {right angle=A--B--C};");
  p.path("\\pic[draw, angle radius=10pt] {angle=A--B--C};");
  auto d = p.lower();
  const auto& m = geom<ir::RightAngleMark>(d, 1);
  CHECK_PT(m.corner, 0, 0);
  CHECK(m.size == doctest::Approx(0.2 * kCm));
  const auto& pic = geom<ir::RightAngleMark>(d, 2);
  CHECK_PT(pic.corner, 0, 0);
  CHECK(pic.size == doctest::Approx(0.5 * kCm));
  const auto& arc = geom<ir::Arc>(d, 3);
  CHECK(arc.rx == doctest::Approx(10));
  CHECK(arc.start_deg == doctest::Approx(0));
  CHECK(arc.end_deg == doctest::Approx(90));
}

TEST_CASE("angles pics: painted by their own options, not by the enclosing path's actions") {
  // tikzlibraryangles.code.tex draws the pic with `\path [pic actions]`: checked with lualatex,
  // `\draw ... pic {angle}` draws no arc, `\path ... pic [draw] {angle}` does
  auto lowered = [](const std::string& path) {
    Pic p;
    p.path("\\coordinate (A) at (3,0); \\coordinate (B) at (0,0); \\coordinate (C) at (0,2);");
    p.path(path);
    return p.lower();
  };
  auto pic_style = [](const ir::Diagram& d) {
    for (const auto& e : d.elements)
      if (std::holds_alternative<ir::Arc>(e.geom) || std::holds_alternative<ir::RightAngleMark>(e.geom))
        return e.style;
    FAIL("no pic element");
    return ir::Style{};
  };
  CHECK(pic_style(lowered("\\draw (A) -- (B) -- (C) pic {angle=A--B--C};")).invisible);
  auto drawn = pic_style(lowered("\\path (A) -- (B) -- (C) pic [draw, fill=yellow] {angle=A--B--C};"));
  CHECK(!drawn.invisible);
  CHECK(drawn.draw);
  CHECK(drawn.fill);
  // a colour alone paints nothing
  CHECK(pic_style(lowered("\\path (A) -- (B) -- (C) pic [red] {right angle=A--B--C};")).invisible);
}

TEST_CASE("right-angle marks: a small square at a polygon vertex") {
  Pic p;
  p.path("\\draw (0,0) -- (3,0) -- (0,2) -- cycle;");
  p.path("\\draw (0,0) rectangle (0.25,0.25);");
  auto d = p.lower();
  const auto& m = geom<ir::RightAngleMark>(d, 1);
  CHECK_PT(m.corner, 0, 0);
  // a lone small square is not a mark
  auto lone = one("\\draw (5,5) rectangle (5.25,5.25);");
  CHECK(std::holds_alternative<ir::Rectangle>(lone.elements[0].geom));
}

TEST_CASE("insert path styles with let (Tikz-IM's right angle symbol)") {
  Pic p;
  p.pre(
      "right angle length/.code={\\def\\rightanglelength{#1}}, right angle length=.125in,"
      "right angle symbol/.style n args={3}{insert path={let \\p0 = ($(#1)!(#3)!(#2)$) in "
      "let \\p1 = ($(\\p0)!\\rightanglelength!(#3)$), \\p2 = ($(\\p0)!\\rightanglelength!(#2)$) in "
      "let \\p3 = ($(\\p1)+(\\p2)-(\\p0)$) in (\\p1) -- (\\p3) -- (\\p2)}}");
  p.path("\\coordinate (A) at (0,0); \\coordinate (B) at (0,3); \\coordinate (C) at (4,0);");
  p.path("\\draw[right angle symbol={A}{B}{C}];");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const auto& m = geom<ir::RightAngleMark>(d, 0);
  CHECK_PT(m.corner, 0, 0);
  CHECK(m.size == doctest::Approx(0.125 * 72.27));
}

TEST_CASE("3D: filled closed polygons with xyz coordinates are faces") {
  auto d = one("\\fill[gray] (0,0,0) -- (1,0,0) -- (1,0,1) -- (0,0,1) -- cycle;");
  CHECK(d.is_3d);
  REQUIRE(d.elements.size() == 2);
  const auto& f = geom<ir::Face3D>(d, 1);
  CHECK(f.points3.size() == 4);
  CHECK(f.points3[2].z == doctest::Approx(1));
  CHECK_PT(f.points[2], kCm - 0.385 * kCm, -0.385 * kCm);
}

TEST_CASE("canvas: the first top-level clip is the canvas, only the clip path counts for the bbox") {
  Pic p;
  p.path("\\clip (0,0) rectangle (2,1);");
  p.path("\\draw (-1,-1) -- (3,3);");
  auto d = p.lower();
  REQUIRE(d.canvas.has_value());
  CHECK(d.canvas_source == "clip");
  CHECK(d.canvas->xmax == doctest::Approx(2 * kCm));
  CHECK(d.clips.size() == 1);
  CHECK(d.clips[0].is_rectangle);
  CHECK(d.elements.size() == 1);  // the clip path itself is not drawn
  // pgf stops growing the picture after a clip (lualatex: 0 0 56.9 28.45)
  CHECK(d.picture_bbox.xmin == doctest::Approx(0));
  CHECK(d.picture_bbox.ymin == doctest::Approx(0));
  CHECK(d.picture_bbox.xmax == doctest::Approx(2 * kCm));
  CHECK(d.picture_bbox.ymax == doctest::Approx(kCm));
}

TEST_CASE("bounding box: \\coordinate (B) at (p) does not grow the picture, (p) coordinate (B) does") {
  // lualatex: \coordinate (B) at (2,0); \draw (0,0) -- (0,1); is -0.2 -0.2 0.2 28.65
  Pic p;
  p.path("\\coordinate (B) at (2,0);");
  p.path("\\draw (0,0) -- (0,1);");
  auto d = p.lower();
  CHECK(d.picture_bbox.xmax == doctest::Approx(0.2));
  Pic q;
  q.path("\\path (2,0) coordinate (B);");
  q.path("\\draw (0,0) -- (0,1);");
  auto e = q.lower();
  CHECK(e.picture_bbox.xmax == doctest::Approx(2 * kCm));
}

TEST_CASE("bounding box: a clip in a scope stops the growth until the scope ends") {
  // lualatex: 0 -57.105 142.464 28.453
  Pic p;
  p.scope("").path("\\clip (0,0) rectangle (2,1);").path("\\draw (-1,-1) -- (3,3);").end();
  p.path("\\draw (4,0) -- (5,-2);");
  auto d = p.lower();
  CHECK(d.picture_bbox.xmin == doctest::Approx(0));
  CHECK(d.picture_bbox.ymin == doctest::Approx(-2 * kCm - 0.2));
  CHECK(d.picture_bbox.xmax == doctest::Approx(5 * kCm + 0.2));
  CHECK(d.picture_bbox.ymax == doctest::Approx(kCm));
  // a drawn clip keeps its stroke, and the nodes on it count
  Pic q;
  q.path("\\draw[clip] (0,0) rectangle (2,1) node[minimum size=10pt, inner sep=0pt, outer sep=0pt] {};");
  q.path("\\draw (-1,-1) -- (3,3);");
  auto e = q.lower();
  CHECK(e.picture_bbox.xmin == doctest::Approx(-0.2));
  CHECK(e.picture_bbox.xmax == doctest::Approx(2 * kCm + 5));
  CHECK(e.picture_bbox.ymax == doctest::Approx(kCm + 5));
}

TEST_CASE("canvas: a circular clip is polygonised, a clip in a scope is not the canvas") {
  Pic p;
  p.scope("").path("\\clip (0,0) circle (1);").end();
  auto d = p.lower();
  REQUIRE(d.clips.size() == 1);
  CHECK(!d.clips[0].is_rectangle);
  CHECK(d.clips[0].bounds.xmax == doctest::Approx(kCm).epsilon(1e-3));
  CHECK(!d.canvas.has_value());
}

TEST_CASE("bounding box: control points and half the line width count, use as bounding box freezes it, overlay is excluded") {
  auto d = one("\\draw (0,0) .. controls (1,2) and (2,2) .. (3,0);");
  // a stroked path adds half its line width (0.4pt) on every side (\pgfusepath)
  CHECK(d.picture_bbox.ymax == doctest::Approx(2 * kCm + 0.2));
  Pic p;
  p.path("\\useasboundingbox (0,0) rectangle (1,1);");
  p.path("\\draw (0,0) -- (5,5);");
  p.path("\\draw[overlay] (0,0) -- (-5,-5);");
  auto b = p.lower();
  CHECK(b.canvas_source == "use as bounding box");
  CHECK(b.picture_bbox.xmax == doctest::Approx(kCm));
  CHECK(b.picture_bbox.xmin == doctest::Approx(0));
  Pic o;
  o.path("\\draw (0,0) -- (1,1);");
  o.path("\\draw[overlay] (0,0) -- (-5,-5);");
  CHECK(o.lower().picture_bbox.xmin == doctest::Approx(-0.2));
  auto c = one("\\draw (0,0) circle (1);");
  CHECK(c.picture_bbox.xmin == doctest::Approx(-kCm - 0.2));
  CHECK(c.picture_bbox.ymax == doctest::Approx(kCm + 0.2));
}

TEST_CASE("unsupported: unknown keys are located and make the element incomplete") {
  auto d = one("\\draw[frobnicate] (0,0) -- (1,0);");
  REQUIRE(d.diagnostics.size() == 1);
  CHECK(d.diagnostics[0].rule == "unsupported-key");
  CHECK(d.diagnostics[0].range.begin == 1000 + 6);
  CHECK(d.diagnostics[0].range.end == 1000 + 16);
  CHECK(d.elements[0].incomplete);
  CHECK(d.unsupported.size() == 1);
}

TEST_CASE("unsupported: unknown path operations, \\matrix and other statements") {
  auto d = one("\\draw (0,0) frobnicate {(1,0)};");
  CHECK(has_rule(d, "unsupported-path-operation"));
  auto m = one("\\matrix {\\foo{a};\\\\};");  // a cell that is no path command
  CHECK(has_rule(m, "unsupported-construct"));
  Pic o;
  o.other("\\graphfoo");
  CHECK(has_rule(o.lower(), "unsupported-construct"));
  Pic a;
  a.axis = true;
  a.other("\\addplot {x};");
  auto ad = a.lower();
  CHECK(ad.uses_axis);
  CHECK(count_unsupported(ad) == 1);
}

TEST_CASE("errors: syntax errors and math errors are located diagnostics") {
  auto d = one("\\draw (0,0) -- ;");
  CHECK(has_rule(d, "syntax-error"));
  auto m = one("\\draw (0,0) -- (1/0,0);");
  CHECK(has_rule(m, "math-error"));
  auto u = one("\\draw (0,0) -- (nowhere);");
  CHECK(has_rule(u, "unsupported-coordinate"));
  // A macro tikzlint did not expand may be one TeX knows: unsupported, never an error.
  auto x = one("\\draw (0,0) -- (\\pgfinternalthing,0);");
  CHECK_FALSE(has_rule(x, "math-error"));
  CHECK(has_rule(x, "unsupported-construct"));
}

TEST_CASE("provenance and path ids") {
  Pic p;
  p.path("\\draw (0,0) -- (1,0) (2,0) circle (1);");
  p.path("\\draw (0,0) -- (1,0);");
  auto d = p.lower();
  REQUIRE(d.elements.size() == 3);
  CHECK(d.elements[0].path_id == d.elements[1].path_id);
  CHECK(d.elements[2].path_id != d.elements[0].path_id);
  CHECK(d.elements[0].prov.range.begin == 1000);
}

TEST_CASE("intersections library: name path and name intersections") {
  Pic p;
  p.path("\\draw[name path=c] (0,0) circle (1);");
  p.path("\\draw[name path=l] (-2,0) -- (2,0);");
  p.path("\\path[name intersections={of=c and l, by={P}}];");
  p.path("\\draw (intersection-1) -- (intersection-2);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const auto& s = geom<ir::Segment>(d, 2);
  CHECK(std::abs(s.a.x) == doctest::Approx(kCm).epsilon(1e-3));
  CHECK(std::abs(s.b.x) == doctest::Approx(kCm).epsilon(1e-3));
  CHECK(s.a.x * s.b.x < 0);
  REQUIRE(d.coordinates.size() == 1);
  CHECK(d.coordinates[0].name == "P");
}

TEST_CASE("pattern command is a path with the pattern fill (tikz.code.tex: \\pattern = \\path[pattern])") {
  Pic p;
  p.path("\\pattern[pattern=north east lines] (0,0) rectangle (1,2);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.elements.size() == 1);
  CHECK(d.elements[0].style.fill);
  CHECK(!d.elements[0].style.draw);
  CHECK(d.picture_bbox.xmax == doctest::Approx(kCm));
  CHECK(d.picture_bbox.ymax == doctest::Approx(2 * kCm));
}

TEST_CASE("pics: TYPE/.pic code is drawn at the pic's position, the enclosing scale moves it but does not scale it") {
  lowertest::Pic p;
  p.style("seagull/.pic={\\draw (-3mm,0) -- (3mm,0);}");
  p.scope("scale=2");
  p.path("\\path (1,0) pic[rotate=90] {seagull};");
  p.end();
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.elements.size() == 1);
  const auto& s = geom<ir::Segment>(d, 0);
  // pgf: shift to the point (2 cm after scale=2), linear part reset (no transform shape), then rotate=90
  CHECK_PT(s.a, 2 * kCm, -0.3 * kCm);
  CHECK_PT(s.b, 2 * kCm, 0.3 * kCm);
}

TEST_CASE("pics: pics/TYPE/.style with background code and an argument, pic actions gives the pic's fill") {
  lowertest::Pic p;
  p.style("pics/dot/.style={background code={\\path[pic actions] (0,0) circle [radius=#1];}}");
  p.path("\\pic[fill=red] at (1,1) {dot=2mm};");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.elements.size() == 1);
  const auto& c = geom<ir::Circle>(d, 0);
  CHECK_PT(c.center, kCm, kCm);
  CHECK(c.radius == doctest::Approx(0.2 * kCm));
  CHECK(d.elements[0].style.fill);
}

TEST_CASE("pics: an undefined pic type stays unsupported") {
  auto d = one("\\path (0,0) pic {nosuchpic};");
  CHECK(count_unsupported(d) == 1);
}

TEST_CASE("quotes: \"text\" on an edge is an auto-placed node at the middle, on a node a label") {
  auto d = one("\\draw (0,0) edge [\"mid\"'] (2,0);");
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.nodes.size() == 1);
  CHECK(d.nodes[0].text == "mid");
  CHECK(d.nodes[0].center.x == doctest::Approx(kCm));
  CHECK(d.nodes[0].box.ymax <= 0.01);  // swap: auto puts it right of the edge, i.e. below
  auto n = one("\\node [draw, \"lab\" left] (a) at (0,0) {A};");
  CHECK(count_unsupported(n) == 0);
  REQUIRE(n.nodes.size() == 2);
  CHECK(n.nodes[1].is_label);
  CHECK(n.nodes[1].box.xmax <= n.nodes[0].box.xmin);  // `left` among the options: label position=180
}

TEST_CASE("opacity levels of pgfmanual 23.2 set opacity") {
  auto d = one("\\draw[semitransparent] (0,0) -- (1,0);");
  CHECK(d.elements[0].style.opacity == doctest::Approx(0.5));
  auto u = one("\\draw[ultra nearly transparent] (0,0) -- (1,0);");
  CHECK(u.elements[0].style.opacity == doctest::Approx(0.05));
}

TEST_CASE("plot file: points in the x/y vectors, an empty line or a `u` flag is a jump, a missing file plots nothing") {
  // relative to the input's folder (here: none, so the working directory): the read policy
  // refuses absolute names (support/read_policy.hpp)
  const std::string path = "tikzlint-test-plot-file.table";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f != nullptr);
    std::fputs("# x y\n0 0\n1 2 i\n2 0\n\n3 1\n4 1 u\n5 0 % comment\n6 1\n", f);
    std::fclose(f);
  }
  auto d = one("\\draw[x=2cm] plot file {" + path + "};");
  CHECK(count_unsupported(d) == 0);
  std::vector<const ir::Plot*> plots;
  for (const auto& el : d.elements)
    if (auto p = std::get_if<ir::Plot>(&el.geom)) plots.push_back(p);
  REQUIRE(plots.size() == 3);
  REQUIRE(plots[0]->points.size() == 3);
  CHECK_PT(plots[0]->points[1], 2 * kCm, 2 * kCm);
  CHECK(plots[1]->points.size() == 1);
  REQUIRE(plots[2]->points.size() == 2);
  CHECK_PT(plots[2]->points[1], 12 * kCm, kCm);
  std::remove(path.c_str());
  auto m = one("\\draw plot file {tikzlint-no-such.table};");
  CHECK(count_unsupported(m) == 0);
  CHECK(m.elements.empty());
  bool warned = false;
  for (const auto& dg : m.diagnostics) warned = warned || (dg.rule == "missing-file" && dg.severity == Severity::warning);
  CHECK(warned);
  // outside the read policy: never opened, and what it would draw is unknown
  auto refused = one("\\draw plot file {/etc/hostname};");
  CHECK(refused.elements.empty());
  CHECK(refused.unsupported.size() == 1);  // the rules that depend on it are indeterminate
  bool refusal = false;
  for (const auto& dg : refused.diagnostics)
    refusal = refusal || (dg.rule == "refused-read" && dg.severity == Severity::warning &&
                          dg.evidence["policy"] == "absolute");
  CHECK(refusal);
}

TEST_CASE("to path: the custom path replaces the to, with \\tikztotarget and \\tikztonodes") {
  lowertest::Pic p;
  p.path("\\node[minimum size=10pt, inner sep=0pt, outer sep=0pt] (a) at (0,0) {};");
  p.path("\\draw[to path={-- ++(0,1) -| (\\tikztotarget) \\tikztonodes}] (0,0) to node {x} (2,0);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const auto& pl = geom<ir::Polyline>(d, 0);
  REQUIRE(pl.points.size() == 4);
  CHECK_PT(pl.points[1], 0, kCm);
  CHECK_PT(pl.points[2], 2 * kCm, kCm);
  CHECK_PT(pl.points[3], 2 * kCm, 0);
  // the node lands midway on the last segment the to path added: the -| leg from (0,1) to (2,0)
  REQUIRE(d.nodes.size() == 2);
  CHECK(d.nodes[1].text == "x");
  CHECK(d.nodes[1].center.x == doctest::Approx(2 * kCm).epsilon(0.01));
}

TEST_CASE("circle [at=(c)] is centred at c, let registers hold inside an operation's options") {
  lowertest::Pic p;
  p.path("\\coordinate (c) at (1,2);");
  p.path("\\draw let \\n1 = {3pt} in (0,0) circle [at=(c), radius=\\n1];");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  REQUIRE(!d.elements.empty());
  const auto& c = geom<ir::Circle>(d, 0);
  CHECK_PT(c.center, kCm, 2 * kCm);
  CHECK(c.radius == doctest::Approx(3));
}

TEST_CASE("a graph drawing layout key places everything under it: nothing there has a known position") {
  Pic p;
  p.scope("spring layout").path("\\node (a) at (0,0) {a};").path("\\draw (a) -- (1,1);").end();
  p.path("\\node (c) at (3,0) {c};");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 2);
  CHECK(d.nodes[0].incomplete);
  CHECK_FALSE(d.nodes[1].incomplete);
  REQUIRE_FALSE(d.elements.empty());
  CHECK(d.elements[0].incomplete);
}

TEST_CASE("to[bend left] between nodes: the controls set off from the border points, at their distance") {
  // lualatex: the picture's top is the controls' height plus half the line width, 12.27pt
  // (\tikz@to@compute: the ends are the nodes' `out`/`in` anchors, the distance theirs)
  Pic p;
  p.path("\\node (a) at (0,0) {A};");
  p.path("\\node (b) at (1,0) {B};");
  p.path("\\draw (a) to[bend left=50] (b);");
  auto d = p.lower();
  CHECK(std::abs(d.picture_bbox.ymax - 12.27) < 0.1);
}

TEST_CASE("a style that a path's or a node's options define holds for that path alone") {
  // TikZ runs each path in a TeX group: `\path[wide]` and `node[wide]` redefine `w` inside it only
  // (lualatex: the later node is 1cm wide, not 4cm)
  lowertest::Pic p;
  p.style("w/.style={minimum width=1cm}, wide/.style={w/.style={minimum width=4cm}}");
  p.path("\\path[wide] (0,2) node[w, draw] {};");
  p.path("\\node[wide, w, draw] at (0,4) {};");
  p.path("\\node[w, draw] {};");
  auto d = p.lower();
  REQUIRE(d.nodes.size() == 3);
  CHECK(d.nodes[0].box.width() == doctest::Approx(4 * kCm).epsilon(0.01));
  CHECK(d.nodes[1].box.width() == doctest::Approx(4 * kCm).epsilon(0.01));
  CHECK(d.nodes[2].box.width() == doctest::Approx(1 * kCm).epsilon(0.01));
}

TEST_CASE("a style written between pictures holds for the pictures after it, not before") {
  // \tikzset{w/.style=..} after the first picture: in TeX the first picture is already typeset
  // with the preamble's `w` (1cm); the second and third see the redefinition (3cm)
  tex::ExpandedDocument doc;
  tex::Statement pre;
  pre.kind = tex::StatementKind::StyleDef;
  pre.text = "w/.style={minimum width=1cm}";
  doc.preamble_styles.push_back(pre);
  tex::Statement later = pre;
  later.text = "w/.style={minimum width=3cm}";
  doc.later_styles.push_back({1, later});
  for (int k = 0; k < 3; ++k) {
    tex::Picture pic;
    tex::Statement s;
    s.kind = tex::StatementKind::Path;
    s.text = "\\node[w, draw] {};";
    for (std::uint32_t i = 0; i < s.text.size(); ++i) s.origin.push_back(1000 + i);
    s.prov.range = {0, 1000, static_cast<std::uint32_t>(1000 + s.text.size()), true};
    pic.statements.push_back(s);
    pic.range = {0, 0, 10, true};
    doc.pictures.push_back(pic);
  }
  SourceManager sm;
  auto out = ir::lower(doc, sm, lowertest::packages());
  REQUIRE(out.size() == 3);
  const double widths[] = {1 * kCm, 3 * kCm, 3 * kCm};
  for (int k = 0; k < 3; ++k) {
    REQUIRE(out[k].nodes.size() == 1);
    CHECK(out[k].nodes[0].box.width() == doctest::Approx(widths[k]).epsilon(0.01));
  }
}
