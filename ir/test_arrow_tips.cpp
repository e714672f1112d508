// ir/test_arrow_tips.cpp: arrow tips' hulls (pgfcorearrows.code.tex, pgflibraryarrows.meta.code.tex)
// and the picture's bounding box they grow. Expected values are lualatex's (fixtures/metrics/arrow_tips.tex).
#include "ir/arrow_tips.hpp"
#include "ir/coords.hpp"
#include "ir/test_lower_support.hpp"

using namespace tikzlint;
using lowertest::kCm;
using lowertest::Pic;

namespace {
ir::Box hull_box(const std::vector<ir::ArrowTip>& tips, ir::Point end, ir::Point dir) {
  ir::BBoxAccumulator acc;
  for (ir::Point p : ir::arrow_hull_points(tips, end, dir)) acc.add(p);
  REQUIRE(acc.any);
  return acc.box;
}
ir::Box picture_bbox(const std::string& path, std::vector<std::string> libraries = {"arrows.meta"}) {
  Pic p;
  p.libraries = std::move(libraries);
  p.path(path);
  const ir::Diagram d = p.lower();
  REQUIRE(d.has_picture_bbox);
  return d.picture_bbox;
}
}  // namespace

TEST_CASE("arrow tips: Stealth and Latex take their defaults and options as arrows.meta does") {
  // Stealth at 0.4pt: length 3pt + 4.5 * 0.4pt = 4.8pt, width .75 of it: half width 1.8pt
  auto st = ir::arrow_tip_sequence("Stealth", false, "", 0.4);
  REQUIRE(st);
  REQUIRE(st->size() == 1);
  CHECK(st->front().tip_end == doctest::Approx(4.8));
  ir::Box b = hull_box(*st, {0, 0}, {1, 0});
  CHECK(b.xmin == doctest::Approx(-4.8));
  CHECK(b.xmax == doctest::Approx(0));
  CHECK(b.ymax == doctest::Approx(1.8));
  CHECK(b.ymin == doctest::Approx(-1.8));
  // width' is late: it follows the length written after it
  auto lx = ir::arrow_tip_sequence("{Latex[width'=0pt .5, length=10pt]}", false, "", 0.4);
  REQUIRE(lx);
  CHECK(hull_box(*lx, {0, 0}, {1, 0}).ymax == doctest::Approx(2.5));
  // a harpoon keeps one side; swap mirrors it (ultra thick: lualatex's y down to -3.83pt)
  auto hp = ir::arrow_tip_sequence("Stealth[harpoon,swap]", false, "", 1.6);
  REQUIRE(hp);
  ir::Box h = hull_box(*hp, {0, 0}, {1, 0});
  CHECK(h.ymin == doctest::Approx(-3.825));
  CHECK(h.ymax == doctest::Approx(0.8));
  // along the path's direction: a tip pointing up spans x
  ir::Box up = hull_box(*st, {10, 10}, {0, 3});
  CHECK(up.xmin == doctest::Approx(8.2));
  CHECK(up.ymin == doctest::Approx(5.2));
}

TEST_CASE("arrow tips: > is the >= tip, < its reverse, old-style tips have no hull, unknown tips are not guessed") {
  auto two = ir::arrow_tip_sequence(">>", false, "Latex", 0.4);
  REQUIRE(two);
  CHECK(two->size() == 2);
  auto start = ir::arrow_tip_sequence("<", true, "Stealth", 0.4);
  REQUIRE(start);
  CHECK(start->front().tip_end == doctest::Approx(4.8));  // outward at the start: not reversed
  auto rev = ir::arrow_tip_sequence(">", true, "Stealth", 0.4);
  REQUIRE(rev);
  CHECK(rev->front().tip_end == doctest::Approx(0));
  CHECK(rev->front().back_end == doctest::Approx(-4.8));
  auto old = ir::arrow_tip_sequence("stealth", false, "", 0.4);
  REQUIRE(old);
  CHECK(old->front().hull.empty());
  CHECK(!ir::arrow_tip_sequence("Kite", false, "", 0.4));
  CHECK(!ir::arrow_tip_sequence("Stealth[slant=.3]", false, "", 0.4));
}

TEST_CASE("arrow tips grow the picture's bounding box on the last open subpath only") {
  CHECK(picture_bbox("\\draw[Stealth-Stealth] (0,0) -- (1,0);").ymax == doctest::Approx(1.8));
  // `->` is To: Computer Modern Rightarrow with arrows.meta, the old `to` (no hull) without
  CHECK(picture_bbox("\\draw[->] (0,0) -- (1,0);").ymax == doctest::Approx(2.6));
  CHECK(picture_bbox("\\draw[->] (0,0) -- (1,0);", {}).ymax == doctest::Approx(0.2));
  // not reached by the picture's scale
  CHECK(picture_bbox("\\draw[scale=2,-Stealth] (0,0) -- (1,0);").ymax == doctest::Approx(1.8));
  // only the last subpath carries the tips
  ir::Box two = picture_bbox("\\draw[-Stealth] (0,0) -- (1,0) (2,0) -- (2,1);");
  CHECK(two.xmax == doctest::Approx(2 * kCm + 1.8));
  CHECK(two.ymin == doctest::Approx(-0.2));
  // a path that closes anywhere has none
  CHECK(picture_bbox("\\draw[-Stealth] (0,0) -- (1,0) -- cycle;").ymax == doctest::Approx(0.2));
  CHECK(picture_bbox("\\draw[-Stealth] (0,0) circle (0.5) (2,0) -- (3,0);").ymax == doctest::Approx(0.5 * kCm + 0.2));
  // an edge is a path of its own
  CHECK(picture_bbox("\\draw (0,0) edge[-Stealth] (1,0) (2,0) -- (3,0);").ymax == doctest::Approx(1.8));
  // an overlay path does not count
  CHECK(picture_bbox("\\draw[->,overlay] (0,0) -- (1,0); \\draw (0,0) -- (0.5,0.5);").ymin == doctest::Approx(-0.2));
}
