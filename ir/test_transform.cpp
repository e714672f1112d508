// ir/test_transform.cpp: pgf's transformation keys, each checked against pgfmanual 25.3.
#include "ir/test_lower_support.hpp"
#include "ir/transform.hpp"

using namespace lowertest;
using tikzlint::ir::Transform;

namespace {
ir::Point end_of(const ir::Diagram& d) { return geom<ir::Segment>(d, 0).b; }
ir::Point seg_end(const std::string& opts, const std::string& path = "\\draw (0,0) -- (1,0);") {
  Pic p;
  p.scope(opts).path(path).end();
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  return end_of(d);
}
}  // namespace

TEST_CASE("matrix composition: the new transformation applies first") {
  Transform t = Transform::shift(10, 0).then_local(Transform::rotate(90));
  CHECK_PT(t.apply({1, 0}), 10, 1);
  Transform inv = t.inverse();
  CHECK_PT(inv.apply(t.apply({3, 4})), 3, 4);
}

TEST_CASE("default units: 1cm per unit, x=1in, y=1in") {
  CHECK_PT(seg_end(""), kCm, 0);
  CHECK_PT(seg_end("x=1in,y=1in", "\\draw (0,0) -- (1,1);"), 72.27, 72.27);
}

TEST_CASE("x and y as coordinates, z as a dimension means (v,v), default z = -3.85mm") {
  CHECK_PT(seg_end("x={(1cm,0.2cm)}"), kCm, 0.2 * kCm);
  CHECK_PT(seg_end("", "\\draw (0,0,0) -- (0,0,1);"), -0.385 * kCm, -0.385 * kCm);
  CHECK_PT(seg_end("z=1cm", "\\draw (0,0,0) -- (0,0,1);"), kCm, kCm);
  Pic p;
  p.path("\\draw (0,0,0) -- (1,2,3);");
  CHECK(p.lower().is_3d);
}

TEST_CASE("shift, xshift, yshift") {
  CHECK_PT(seg_end("shift={(1,2)}"), 2 * kCm, 2 * kCm);
  CHECK_PT(seg_end("xshift=10pt"), kCm + 10, 0);
  CHECK_PT(seg_end("yshift=-5pt"), kCm, -5);
}

TEST_CASE("scale, xscale, yscale, the order of keys matters") {
  CHECK_PT(seg_end("scale=2"), 2 * kCm, 0);
  CHECK_PT(seg_end("xscale=3", "\\draw (0,0) -- (1,1);"), 3 * kCm, kCm);
  CHECK_PT(seg_end("yscale=-1", "\\draw (0,0) -- (1,1);"), kCm, -kCm);
  // scale first: the later shift is scaled too
  CHECK_PT(seg_end("scale=2, xshift=1cm", "\\draw (0,0) -- (0,0);"), 2 * kCm, 0);
  CHECK_PT(seg_end("xshift=1cm, scale=2", "\\draw (0,0) -- (0,0);"), kCm, 0);
}

TEST_CASE("rotate and rotate around") {
  CHECK_PT(seg_end("rotate=90"), 0, kCm);
  CHECK_PT(seg_end("rotate around={90:(1,0)}", "\\draw (0,0) -- (2,0);"), kCm, kCm);
}

TEST_CASE("cm and slants (pgfmanual: (a c, b d)(x y) + t)") {
  CHECK_PT(seg_end("cm={1,0,1,1,(0,0)}", "\\draw (0,0) -- (1,1);"), 2 * kCm, kCm);
  CHECK_PT(seg_end("cm={0,1,-1,0,(1,0)}"), kCm, kCm);
  CHECK_PT(seg_end("xslant=1", "\\draw (0,0) -- (0,1);"), kCm, kCm);
  CHECK_PT(seg_end("yslant=0.5", "\\draw (0,0) -- (1,0);"), kCm, 0.5 * kCm);
}

TEST_CASE("nested scopes compose, the end of a scope restores the outer state") {
  Pic p;
  p.scope("shift={(1,0)}").scope("rotate=90").path("\\draw (0,0) -- (1,0);").end().path("\\draw (0,0) -- (1,0);").end();
  p.path("\\draw (0,0) -- (1,0);");
  auto d = p.lower();
  CHECK_PT(geom<ir::Segment>(d, 0).b, kCm, kCm);
  CHECK_PT(geom<ir::Segment>(d, 1).b, 2 * kCm, 0);
  CHECK_PT(geom<ir::Segment>(d, 2).b, kCm, 0);
}

TEST_CASE("tikzpicture options and every picture") {
  Pic p;
  p.options = "x=2cm";
  p.pre("every picture/.style={yshift=1cm}");
  p.path("\\draw (0,0) -- (1,0);");
  auto d = p.lower();
  CHECK_PT(geom<ir::Segment>(d, 0).a, 0, kCm);
  CHECK_PT(geom<ir::Segment>(d, 0).b, 2 * kCm, kCm);
}

TEST_CASE("path options transform the path, styles expand into transforms") {
  Pic p;
  p.style("\\tikzset{moved/.style={xshift=#1}}").path("\\draw[moved=5pt] (0,0) -- (1,0);");
  auto d = p.lower();
  CHECK_PT(geom<ir::Segment>(d, 0).b, kCm + 5, 0);
}
