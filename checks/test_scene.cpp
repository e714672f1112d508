// checks/test_scene.cpp: the Scene's shortcuts give exactly what GEOS gives, and one SceneCache
// makes the rules of a diagram share one build.
#include <doctest/doctest.h>

// GCC 12 reports an overlap (-Wrestrict) for std::string::assign of a literal inlined here (a
// known false positive of its string code, as in tex/reader.cpp); -Werror builds stop on it.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "checks/geometry.hpp"
#include "checks/scene.hpp"
#include "checks/test_support.hpp"

using namespace tikzlint;
using namespace tikzlint::checks;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

double geos_gap(const ir::Box& b, const std::vector<geo::Point>& pts) {
  return geo::Shape::box(b).distance(geo::Shape::line(pts));
}

}  // namespace

TEST_CASE("box_polyline_distance is GEOS's DistanceOp bit for bit") {
  std::mt19937_64 rng(8);
  // Coordinates on a coarse lattice (shared x/y values, touching and collinear cases) and
  // continuous ones (general position).
  std::uniform_int_distribution<int> lattice(-6, 6);
  std::uniform_real_distribution<double> real(-60, 60);
  std::size_t checked = 0, zero = 0;
  for (int round = 0; round < 60000; ++round) {
    const bool snap = round % 2 == 0;
    auto coord = [&] { return snap ? lattice(rng) * 2.5 : real(rng); };
    double x0 = coord(), x1 = coord(), y0 = coord(), y1 = coord();
    ir::Box b{std::min(x0, x1), std::min(y0, y1), std::max(x0, x1), std::max(y0, y1)};
    std::vector<geo::Point> pts(round % 10 == 9 ? 24 : 2 + round % 4);  // long ones: most segments pruned
    for (auto& p : pts) p = {coord(), coord()};
    if (round % 7 == 0) pts[1] = pts[0];  // a zero-length segment
    auto mine = box_polyline_distance(b, pts);
    if (!(b.xmin < b.xmax && b.ymin < b.ymax)) {
      CHECK_FALSE(mine.has_value());
      continue;
    }
    REQUIRE(mine.has_value());
    double g = geos_gap(b, pts);
    if (!same_bits(*mine, g)) FAIL_CHECK("round " << round << ": " << *mine << " vs GEOS " << g);
    ++checked;
    zero += g == 0;
  }
  CHECK(checked > 40000);
  CHECK(zero > 1000);  // the containment and intersection cases were exercised
}

TEST_CASE("box_polyline_distance declines what it does not model") {
  CHECK_FALSE(box_polyline_distance({0, 0, 0, 1}, {{2, 2}, {3, 3}}));  // degenerate box
  CHECK_FALSE(box_polyline_distance({0, 0, 1, 1}, {{2, 2}}));          // a point
  CHECK_FALSE(box_polyline_distance({0, 0, 1, 1}, {{2, 2}, {NAN, 3}}));
  CHECK(*box_polyline_distance({0, 0, 1, 1}, {{2, 0.5}, {3, 0.5}}) == 1);
  CHECK(*box_polyline_distance({0, 0, 1, 1}, {{0.5, 0.5}, {3, 0.5}}) == 0);  // starts inside
  CHECK(*box_polyline_distance({0, 0, 1, 1}, {{-1, 0.5}, {3, 0.5}}) == 0);   // crosses
}

TEST_CASE("BoxIndex answers like the STRtree, scanning or not") {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> real(-100, 100);
  for (std::size_t n : {1u, 5u, 40u, 64u, 65u, 255u, 256u, 257u, 300u, 900u, 5000u}) {
    BoxIndex mine;
    geo::SpatialIndex tree;  // GEOS builds its tree on the first query: no inserts after that
    std::vector<std::pair<ir::Box, std::size_t>> all;
    auto brute = [&](const ir::Box& q) {
      std::vector<std::size_t> out;
      for (const auto& [b, id] : all) {
        double x0 = std::min(b.xmin, b.xmax), x1 = std::max(b.xmin, b.xmax);
        double y0 = std::min(b.ymin, b.ymax), y1 = std::max(b.ymin, b.ymax);
        if (!(x0 > q.xmax || x1 < q.xmin || y0 > q.ymax || y1 < q.ymin)) out.push_back(id);
      }
      std::sort(out.begin(), out.end());
      return out;
    };
    for (std::size_t i = 0; i < n; ++i) {
      double x = real(rng), y = real(rng), w = real(rng) / 5, h = real(rng) / 5;  // some inverted
      ir::Box b = i % 9 == 0 ? ir::Box{x, y, x, y} : i % 97 == 0 ? ir::Box{-150, y, 150, y + 1} : ir::Box{x, y, x + w, y + h};
      mine.insert(b, i * 3);
      tree.insert(b, i * 3);
      all.emplace_back(b, i * 3);
    }
    for (int q = 0; q < 300; ++q) {
      double x = real(rng), y = real(rng), r = q % 50 == 0 ? 500 : std::abs(real(rng)) / 4;
      ir::Box probe{x - r, y - r, x + r, y + r};
      auto got = mine.query(probe);
      CHECK(got == brute(probe));
      if (q < 150) CHECK(got == tree.query(probe));
      if (q == 150)  // inserts after queries rebuild the index
        for (int k = 0; k < 70; ++k) {
          ir::Box extra{real(rng), real(rng), real(rng), real(rng)};
          mine.insert(extra, 100000 + static_cast<std::size_t>(k));
          all.emplace_back(extra, 100000 + static_cast<std::size_t>(k));
        }
    }
  }
}

TEST_CASE("a SceneCache shares one build among the Scenes of its diagram") {
  ir::Diagram d;
  ir::Element e;
  e.geom = ir::Segment{{0, 0}, {100, 0}};
  e.style.draw = true;
  d.elements.push_back(e);
  ir::Node n;
  n.text = "5";
  n.center = {50, 8};
  n.box = {45, 3, 55, 13};
  d.nodes.push_back(n);

  Scene alone_a(d), alone_b(d);
  CHECK(&alone_a.strokes() != &alone_b.strokes());  // no cache: each builds its own
  {
    SceneCache cache(d);
    Scene a(d), b(d);
    CHECK(&a.strokes() == &b.strokes());
    REQUIRE(a.labels().size() == 1);
    Association first = a.associate(a.labels()[0], 24);
    Association again = b.associate(b.labels()[0], 24);
    REQUIRE(first.best.has_value());
    REQUIRE(again.best.has_value());
    CHECK(first.best->index == again.best->index);
    CHECK(first.best->gap == again.best->gap);
    ir::Diagram other = d;
    Scene c(other);  // another diagram is not served from this cache
    CHECK(&c.strokes() != &a.strokes());
  }
  Scene after(d);
  CHECK(&after.strokes() != &alone_a.strokes());
}

TEST_CASE("box_clip_length is the length GEOS's overlay finds inside the box") {
  std::mt19937_64 rng(10);
  std::uniform_int_distribution<int> lattice(-6, 6);
  std::uniform_real_distribution<double> real(-60, 60);
  double worst = 0;
  for (int round = 0; round < 20000; ++round) {
    const bool snap = round % 2 == 0;
    auto coord = [&] { return snap ? lattice(rng) * 2.5 : real(rng); };
    double x0 = coord(), x1 = coord(), y0 = coord(), y1 = coord();
    ir::Box b{std::min(x0, x1), std::min(y0, y1), std::max(x0, x1), std::max(y0, y1)};
    std::vector<geo::Point> pts(2 + round % 3);
    for (auto& p : pts) p = {coord(), coord()};
    auto mine = box_clip_length(b, pts);
    if (!(b.xmin < b.xmax && b.ymin < b.ymax)) {
      CHECK_FALSE(mine.has_value());
      continue;
    }
    REQUIRE(mine.has_value());
    double g = geo::Shape::line(pts).intersection_length(geo::Shape::box(b));
    // Never less than GEOS (which dissolves segments run twice); equal up to rounding otherwise.
    CHECK(*mine >= g - 1e-9);
    if (!snap) worst = std::max(worst, std::abs(*mine - g));
  }
  CHECK(worst < 1e-9);
}

TEST_CASE("geos_ring_area is GEOS's polygon area bit for bit") {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(0, 1);
  std::size_t checked = 0;
  for (int round = 0; round < 20000; ++round) {
    // A star-shaped ring around a centre (simple, so valid), convex when the radius is
    // constant; coordinates from small to large magnitudes.
    const double scale = std::pow(10.0, -1 + 5 * unit(rng));
    const geo::Point c{(unit(rng) - 0.5) * scale * 10, (unit(rng) - 0.5) * scale * 10};
    const std::size_t n = 3 + round % 6;
    // Gaps between angles stay under pi, so the ring winds once around the centre.
    std::vector<double> angles(n);
    for (std::size_t k = 0; k < n; ++k) angles[k] = (static_cast<double>(k) + 0.45 * unit(rng)) * 2 * M_PI / static_cast<double>(n);
    const bool convex = round % 2 == 0;
    std::vector<geo::Point> ring;
    for (double a : angles) {
      double r = scale * (convex ? 1.0 : 0.3 + unit(rng));
      ring.push_back({c.x + r * std::cos(a), c.y + r * std::sin(a)});
    }
    if (round % 5 == 0) ring.push_back(ring.front());  // an explicitly closed ring
    if (round % 3 == 0) std::reverse(ring.begin(), ring.end());
    geo::Shape poly = geo::Shape::polygon(ring);
    REQUIRE(poly);
    CHECK(same_bits(geo::geos_ring_area(ring), poly.area()));
    ++checked;
  }
  CHECK(checked == 20000);
}

TEST_CASE("gap_exceeds answers only when the exact gap is more than the limit") {
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> coord(-60, 60), limit(0, 40);
  ir::Diagram d;
  d.nodes.push_back(testing::text_node("5 cm", 0, 0));
  ir::Node turned = testing::text_node("3 cm", 10, 5);
  turned.rotation_deg = 30;  // measured through its ring: never answered from the bounds
  d.nodes.push_back(turned);
  for (int i = 0; i < 400; ++i) d.elements.push_back(testing::segment(coord(rng), coord(rng), coord(rng), coord(rng)));
  Scene scene(d);
  REQUIRE(scene.labels().size() == 2);
  int answered = 0, checked = 0;
  for (const Label& l : scene.labels()) {
    for (const Stroke& s : scene.strokes()) {
      for (int k = 0; k < 4; ++k) {
        const double lim = k == 0 ? scene.gap(l, s) : limit(rng);  // k == 0: the limit is the gap itself
        const bool exceeds = scene.gap_exceeds(l, s, lim);
        ++checked;
        if (!exceeds) continue;
        ++answered;
        CHECK(scene.gap(l, s) > lim);
        CHECK(d.nodes[l.node].rotation_deg == 0);
      }
    }
  }
  CHECK(checked == 2 * 400 * 4);
  CHECK(answered > 200);  // the shortcut is taken, not vacuous
}

TEST_CASE("Scene::region is element_region of a visible element, made once, nothing for the others") {
  ir::Diagram d;
  d.elements.push_back(testing::polygon({{0, 0}, {40, 0}, {40, 30}}));
  ir::Element hidden = testing::polygon({{0, 0}, {10, 0}, {10, 10}});
  hidden.style.draw = false;  // an invisible \path
  d.elements.push_back(hidden);
  d.elements.push_back(testing::segment(0, 0, 50, 50));
  Scene scene(d);
  REQUIRE(scene.region(0));
  const auto expected = geo::element_region(d.elements[0]);
  REQUIRE(expected);
  REQUIRE(scene.region(0)->size() == expected->size());
  for (std::size_t i = 0; i < expected->size(); ++i) {
    CHECK(same_bits((*scene.region(0))[i].x, (*expected)[i].x));
    CHECK(same_bits((*scene.region(0))[i].y, (*expected)[i].y));
  }
  CHECK_FALSE(scene.region(1));
  CHECK(scene.region(2).has_value() == geo::element_region(d.elements[2]).has_value());
  CHECK_FALSE(scene.region(99));
  SceneCache cache(d);
  CHECK(&Scene(d).region(0) == &Scene(d).region(0));  // one build while the cache lives
}
