// Decorated paths (pgfmanual 24, 50): what lowering keeps of them.
#include "ir/decorations.hpp"
#include "ir/test_lower_support.hpp"

using namespace lowertest;

TEST_CASE("brace decoration: the brace pgf draws, bulging its amplitude to the left") {
  Pic p;
  p.path("\\draw[decorate, decoration={brace, amplitude=10pt}] (0,0) -- (2,0);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const auto& pl = geom<ir::Plot>(d, 0);
  REQUIRE(pl.points.size() == 7);
  CHECK_PT(pl.points.front(), 0, 0);
  CHECK_PT(pl.points[3], kCm, 10);  // the tip at the middle, one amplitude up
  CHECK_PT(pl.points.back(), 2 * kCm, 0);
  CHECK(d.picture_bbox.ymax >= 10);
}

TEST_CASE("zigzag and snake are drawn as pgf's decoration automaton draws them") {
  Pic p;
  // 2cm = 56.9pt of 10pt segments: peaks at 2.5, 7.5, ... 52.5pt, then center finish at 55pt
  p.path("\\draw[decorate, decoration=zigzag] (0,0) -- (2,0);");
  p.path("\\draw[decorate, decoration={snake, amplitude=4pt, mirror, post length=1cm}] (0,-2) -- (3,-2);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.elements.size() == 4);  // each path, invisible, and its decoration
  CHECK(d.elements[0].style.invisible);
  const auto& zz = geom<ir::Plot>(d, 1);
  REQUIRE(zz.points.size() == 14);  // start, 11 peaks, center finish, end
  CHECK_PT(zz.points[1], 2.5, 2.5);
  CHECK_PT(zz.points[2], 7.5, -2.5);
  CHECK_PT(zz.points[12], 55, 0);
  CHECK_PT(zz.points[13], 2 * kCm, 0);
  const auto& sn = geom<ir::Plot>(d, 3);
  CHECK_PT(sn.points.back(), 3 * kCm, -2 * kCm);  // the post length's straight end
  CHECK(d.picture_bbox.ymin == doctest::Approx(-2 * kCm - 4 - 0.2).epsilon(1e-4));  // mirrored: below
  CHECK(d.picture_bbox.ymax == doctest::Approx(2.5 + 0.2).epsilon(1e-4));
}

TEST_CASE("mirrored brace bulges to the right of the path") {
  Pic p;
  p.path("\\draw[decorate, decoration={brace, mirror, amplitude=4pt}] (0,0) -- (0,2);");
  auto d = p.lower();
  const auto& pl = geom<ir::Plot>(d, 0);
  CHECK_PT(pl.points[3], 4, kCm);  // going up, the right side is +x
}

TEST_CASE("morphing decorations not walked and arrow markings keep the path's geometry") {
  Pic p;
  p.path("\\draw[decorate, decoration=coil] (0,0) -- (2,0);");
  p.path("\\draw[postaction={decorate}, decoration={markings, mark=at position .5 with {\\arrow{>}}}] (0,1) -- (2,1);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK(d.elements.size() == 2);
}

TEST_CASE("decorations that draw what is not modelled are reported unsupported") {
  Pic p;
  p.path("\\draw[decorate, decoration={path from text, text={abc}}] (0,1) -- (2,1);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 1);
  for (const auto& el : d.elements) CHECK(el.incomplete);
}

TEST_CASE("classify_decoration reads name, amplitude and mirror") {
  auto e = ir::classify_decoration("brace,amplitude=3pt,mirror,raise=2pt", {});
  CHECK(e.kind == ir::DecorationEffect::Kind::brace);
  CHECK(e.amplitude == doctest::Approx(3));
  CHECK(e.raise == doctest::Approx(2));
  CHECK(e.mirror);
  CHECK(ir::classify_decoration("", {}).kind == ir::DecorationEffect::Kind::within_amplitude);
  CHECK(ir::classify_decoration("name=koch snowflake", {}).kind == ir::DecorationEffect::Kind::unsupported);
}

TEST_CASE("decorate path operation: the subpath is lowered with the decoration in force") {
  Pic p;
  p.path("\\draw (0,1) decorate[decoration={brace,amplitude=6pt}] { -- (2,1) };");
  p.path("\\draw[decoration=coil] decorate { decorate { (0,2) -- (3,2) } };");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.elements.size() == 2);
  const auto& brace = geom<ir::Plot>(d, 0);
  CHECK_PT(brace.points[3], kCm, kCm + 6);
  CHECK(d.picture_bbox.xmax == doctest::Approx(3 * kCm + 0.2));
}

TEST_CASE("fractal decorations replace each segment by their generator, nested ones compose") {
  Pic p;
  p.path("\\draw decorate[decoration=Koch snowflake] { (0,0) -- (3,0) };");
  p.path("\\draw decorate[decoration=Cantor set] { decorate[decoration=Cantor set] { (0,-1) -- (9,-1) } };");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const auto& koch = geom<ir::Plot>(d, 0);
  REQUIRE(koch.points.size() == 5);
  CHECK_PT(koch.points[2], 1.5 * kCm, 0.2886751347 * 3 * kCm);  // the peak, to the left of travel
  std::size_t cantor = 0;
  for (const auto& el : d.elements) cantor += el.path_id == 2;
  CHECK(cantor == 4);  // two levels of middle thirds removed
}
