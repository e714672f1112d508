#include "checks/geometry.hpp"

#include <geos_c.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <type_traits>

namespace tikzlint::checks::geo {

namespace {

// One GEOS context per thread: the reentrant API needs no locking and no global state.
GEOSContextHandle_t ctx() {
  struct Holder {
    GEOSContextHandle_t h = GEOS_init_r();
    ~Holder() { GEOS_finish_r(h); }
  };
  thread_local Holder holder;
  return holder.h;
}

constexpr double kDeg = std::numbers::pi / 180.0;

// Samples of an ellipse arc between parameter angles a0 and a1 (degrees).
std::vector<Point> sample_ellipse(Point c, double rx, double ry, double rot, double a0, double a1) {
  double sweep = a1 - a0;
  int steps = std::clamp(static_cast<int>(std::ceil(std::abs(sweep) / 5.0)), 2, 2000);
  std::vector<Point> pts;
  pts.reserve(steps + 1);
  const double rc = std::cos(rot * kDeg), rs = std::sin(rot * kDeg);
  // cos and sin of the parameter angle by the angle-addition recurrence, re-anchored on the
  // exact values every 8 samples (the drift stays below 1e-14 of the radius); this function
  // ran two sincos per sample and was most of the checks' time on a diagram of circles.
  const double dt = sweep / steps * kDeg, dc = std::cos(dt), ds = std::sin(dt);
  double ct = 0, st = 0;
  for (int i = 0; i <= steps; ++i) {
    if (i % 8 == 0 || i == steps) {
      double t = (a0 + sweep * i / steps) * kDeg;
      ct = std::cos(t);
      st = std::sin(t);
    }
    const double x = rx * ct, y = ry * st;
    pts.push_back(c + Point{x * rc - y * rs, x * rs + y * rc});
    const double cn = ct * dc - st * ds;
    st = st * dc + ct * ds;
    ct = cn;
  }
  return pts;
}

std::vector<Point> sample_bezier(const ir::Bezier& b) {
  std::vector<Point> pts;
  constexpr int kSteps = 24;
  for (int i = 0; i <= kSteps; ++i) {
    double t = static_cast<double>(i) / kSteps, u = 1 - t;
    pts.push_back(b.p0 * (u * u * u) + b.c1 * (3 * u * u * t) + b.c2 * (3 * u * t * t) + b.p1 * (t * t * t));
  }
  return pts;
}

GEOSCoordSequence* sequence(const std::vector<Point>& pts) {
  GEOSContextHandle_t h = ctx();
  GEOSCoordSequence* seq = GEOSCoordSeq_create_r(h, static_cast<unsigned>(pts.size()), 2);
  for (unsigned i = 0; i < pts.size(); ++i) GEOSCoordSeq_setXY_r(h, seq, i, pts[i].x, pts[i].y);
  return seq;
}

}  // namespace

std::optional<std::pair<double, double>> clip_segment(const Box& b, Point a, Point c) {
  const double dx = c.x - a.x, dy = c.y - a.y;
  double t0 = 0, t1 = 1;
  bool outside = false;
  auto clip = [&](double p, double q) {  // p t <= q
    if (p == 0) {
      if (q < 0) outside = true;
      return;
    }
    const double t = q / p;
    if (p < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
  };
  clip(-dx, a.x - b.xmin);
  clip(dx, b.xmax - a.x);
  clip(-dy, a.y - b.ymin);
  clip(dy, b.ymax - a.y);
  if (outside || t1 <= t0) return std::nullopt;
  return std::make_pair(t0, t1);
}

double point_segment_distance(Point p, Point a, Point b) {
  Point ab = b - a;
  double len2 = dot(ab, ab);
  if (len2 <= 0) return dist(p, a);
  double t = std::clamp(dot(p - a, ab) / len2, 0.0, 1.0);
  return dist(p, a + ab * t);
}

double polyline_length(const std::vector<Point>& pts) {
  double s = 0;
  for (std::size_t i = 1; i < pts.size(); ++i) s += dist(pts[i - 1], pts[i]);
  return s;
}

double polygon_area(const std::vector<Point>& ring) {
  double s = 0;
  for (std::size_t i = 0; i < ring.size(); ++i) s += cross(ring[i], ring[(i + 1) % ring.size()]);
  return std::abs(s) / 2;
}

double geos_ring_area(const std::vector<Point>& ring) {
  // Shape::polygon closes the ring; Area::ofRingSigned is the shoelace sum relative to the first x.
  const std::size_t m = ring.size();
  if (m < 3) return 0;
  const bool closed = !(dist(ring.front(), ring.back()) > 0);
  const std::size_t n = closed ? m : m + 1;
  auto at = [&](std::size_t i) -> const Point& { return i < m ? ring[i] : ring[0]; };
  Point p0{}, p1 = at(0), p2 = at(1);
  const double x0 = p1.x;
  p2.x -= x0;
  double sum = 0.0;
  for (std::size_t i = 1; i < n - 1; i++) {
    p0.y = p1.y;
    p1.x = p2.x;
    p1.y = p2.y;
    p2 = at(i + 1);
    p2.x -= x0;
    sum += p1.x * (p0.y - p2.y);
  }
  return std::abs(sum / 2.0);
}

double angle_between_deg(Point u, Point v) {
  double nu = norm(u), nv = norm(v);
  if (nu <= 0 || nv <= 0) return 0;
  return std::acos(std::clamp(dot(u, v) / (nu * nv), -1.0, 1.0)) / kDeg;
}

Box bounds_of(const std::vector<Point>& pts) {
  Box b{INFINITY, INFINITY, -INFINITY, -INFINITY};
  for (const Point& p : pts) {
    b.xmin = std::min(b.xmin, p.x);
    b.ymin = std::min(b.ymin, p.y);
    b.xmax = std::max(b.xmax, p.x);
    b.ymax = std::max(b.ymax, p.y);
  }
  return b;
}

Box inflate(const Box& b, double d) { return {b.xmin - d, b.ymin - d, b.xmax + d, b.ymax + d}; }

bool boxes_overlap(const Box& a, const Box& b) {
  return a.xmin <= b.xmax && b.xmin <= a.xmax && a.ymin <= b.ymax && b.ymin <= a.ymax;
}

bool finite(Point p) { return std::isfinite(p.x) && std::isfinite(p.y); }

std::vector<std::vector<Point>> element_outlines(const ir::Element& e) {
  // One outline, moved in (a braced list would copy it: one allocation and copy more per element).
  auto one = [](std::vector<Point> pts) {
    std::vector<std::vector<Point>> out;
    out.push_back(std::move(pts));
    return out;
  };
  return std::visit(
      [&](const auto& g) -> std::vector<std::vector<Point>> {
        using T = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<T, ir::Segment>) {
          return one({g.a, g.b});
        } else if constexpr (std::is_same_v<T, ir::Polyline>) {
          std::vector<Point> pts = g.points;
          if (g.closed && pts.size() > 2) pts.push_back(pts.front());
          return one(std::move(pts));
        } else if constexpr (std::is_same_v<T, ir::Rectangle>) {
          return one({g.corners[0], g.corners[1], g.corners[2], g.corners[3], g.corners[0]});
        } else if constexpr (std::is_same_v<T, ir::Circle>) {
          return one(sample_ellipse(g.center, g.radius, g.radius, 0, 0, 360));
        } else if constexpr (std::is_same_v<T, ir::Ellipse>) {
          return one(sample_ellipse(g.center, g.rx, g.ry, g.rotation_deg, 0, 360));
        } else if constexpr (std::is_same_v<T, ir::Arc>) {
          return one(sample_ellipse(g.center, g.rx, g.ry, g.rotation_deg, g.start_deg, g.end_deg));
        } else if constexpr (std::is_same_v<T, ir::Bezier>) {
          return one(sample_bezier(g));
        } else if constexpr (std::is_same_v<T, ir::Grid>) {
          // Lines of the grid along both axes; capped so a fine grid stays cheap.
          std::vector<std::vector<Point>> lines;
          Point o = g.corners[0], u = g.corners[1] - g.corners[0], v = g.corners[3] - g.corners[0];
          double lu = norm(u), lv = norm(v);
          auto add = [&](Point axis, double len, double step, Point across) {
            if (len <= 0) return;
            int n = step > 0 ? static_cast<int>(std::floor(len / step + 1e-6)) : 0;
            n = std::min(n, 1000);
            for (int i = 0; i <= n; ++i) {
              Point s = o + axis * (n == 0 ? 0 : std::min(1.0, i * step / len));
              lines.push_back({s, s + across});
            }
            Point last = o + axis;
            lines.push_back({last, last + across});
          };
          add(u, lu, g.step_x, v);
          add(v, lv, g.step_y, u);
          return lines;
        } else if constexpr (std::is_same_v<T, ir::RightAngleMark>) {
          Point far = g.leg_a + (g.leg_b - g.corner);
          return one({g.leg_a, far, g.leg_b});
        } else if constexpr (std::is_same_v<T, ir::Face3D>) {
          std::vector<Point> pts = g.points;
          if (pts.size() > 2) pts.push_back(pts.front());
          return one(std::move(pts));
        } else {
          static_assert(std::is_same_v<T, ir::Plot>);
          return one(g.points);
        }
      },
      e.geom);
}

std::optional<std::vector<Point>> element_region(const ir::Element& e) {
  return std::visit(
      [](const auto& g) -> std::optional<std::vector<Point>> {
        using T = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<T, ir::Polyline>) {
          std::vector<Point> pts = g.points;
          if (pts.size() > 3 && dist(pts.front(), pts.back()) < 1e-6) pts.pop_back();
          if (!g.closed && !(g.points.size() > 3 && dist(g.points.front(), g.points.back()) < 1e-6))
            return std::nullopt;
          if (pts.size() < 3) return std::nullopt;
          return pts;
        } else if constexpr (std::is_same_v<T, ir::Rectangle>) {
          return std::vector<Point>(g.corners.begin(), g.corners.end());
        } else if constexpr (std::is_same_v<T, ir::Circle>) {
          auto pts = sample_ellipse(g.center, g.radius, g.radius, 0, 0, 360);
          pts.pop_back();
          return pts;
        } else if constexpr (std::is_same_v<T, ir::Ellipse>) {
          auto pts = sample_ellipse(g.center, g.rx, g.ry, g.rotation_deg, 0, 360);
          pts.pop_back();
          return pts;
        } else if constexpr (std::is_same_v<T, ir::Face3D>) {
          if (g.points.size() < 3) return std::nullopt;
          return g.points;
        } else {
          return std::nullopt;
        }
      },
      e.geom);
}

std::vector<Point> node_ring(const ir::Node& n) {
  bool rotated = std::abs(n.rotation_deg) > 1e-9;
  if (rotated) return {n.corners.begin(), n.corners.end()};
  return {{n.box.xmin, n.box.ymin}, {n.box.xmax, n.box.ymin}, {n.box.xmax, n.box.ymax}, {n.box.xmin, n.box.ymax}};
}

Box glyph_box(const ir::Node& n) {
  Box b = n.box;
  double sx = std::min(n.inner_sep, std::max(0.0, b.width() / 2 - 0.5));
  double sy = std::min(n.inner_sep, std::max(0.0, b.height() / 2 - 0.5));
  Box g{b.xmin + sx, b.ymin + sy, b.xmax - sx, b.ymax - sy};
  // A node enlarged by minimum width/height (or a large inner sep not recorded) holds its text
  // at its centre (pgfmanual 17.2.3, the basic shapes' text box is centred): the glyphs are the
  // text's own box there, not the whole inside of the border.
  const double tw = n.text_width, th = n.text_height + n.text_depth;
  if (std::abs(n.rotation_deg) < 1e-9 && tw > 0 && th > 0 && std::isfinite(n.center.x) && std::isfinite(n.center.y)) {
    const Box t{n.center.x - tw / 2, n.center.y - th / 2, n.center.x + tw / 2, n.center.y + th / 2};
    const Box c{std::max(g.xmin, t.xmin), std::max(g.ymin, t.ymin), std::min(g.xmax, t.xmax), std::min(g.ymax, t.ymax)};
    if (c.xmin < c.xmax && c.ymin < c.ymax) return c;
  }
  return g;
}

// --- Shape ---

Shape::~Shape() {
  if (g_) GEOSGeom_destroy_r(ctx(), g_);
}

Shape& Shape::operator=(Shape&& o) noexcept {
  if (this != &o) {
    if (g_) GEOSGeom_destroy_r(ctx(), g_);
    g_ = o.g_;
    o.g_ = nullptr;
  }
  return *this;
}

Shape Shape::line(const std::vector<Point>& pts) {
  if (pts.empty()) return {};
  if (pts.size() == 1) return point(pts.front());
  return Shape(GEOSGeom_createLineString_r(ctx(), sequence(pts)));
}

Shape Shape::polygon(const std::vector<Point>& ring) {
  if (ring.size() < 3) return line(ring);
  std::vector<Point> closed = ring;
  if (dist(closed.front(), closed.back()) > 0) closed.push_back(closed.front());
  GEOSContextHandle_t h = ctx();
  GEOSGeometry* shell = GEOSGeom_createLinearRing_r(h, sequence(closed));
  if (!shell) return {};
  GEOSGeometry* poly = GEOSGeom_createPolygon_r(h, shell, nullptr, 0);
  if (poly && GEOSisValid_r(h, poly) != 1) {
    GEOSGeometry* valid = GEOSMakeValid_r(h, poly);
    GEOSGeom_destroy_r(h, poly);
    poly = valid;
  }
  return Shape(poly);
}

Shape Shape::box(const Box& b) {
  // An axis-aligned rectangle of positive extent is always a valid polygon: skip polygon()'s
  // GEOSisValid, which dominated rule time (docs/performance.md). Degenerate or non-finite
  // boxes still go through it.
  bool proper = b.xmin < b.xmax && b.ymin < b.ymax && std::isfinite(b.xmin) && std::isfinite(b.ymin) &&
                std::isfinite(b.xmax) && std::isfinite(b.ymax);
  if (!proper) return polygon({{b.xmin, b.ymin}, {b.xmax, b.ymin}, {b.xmax, b.ymax}, {b.xmin, b.ymax}});
  GEOSContextHandle_t h = ctx();
  GEOSGeometry* shell = GEOSGeom_createLinearRing_r(
      h, sequence({{b.xmin, b.ymin}, {b.xmax, b.ymin}, {b.xmax, b.ymax}, {b.xmin, b.ymax}, {b.xmin, b.ymin}}));
  if (!shell) return {};
  return Shape(GEOSGeom_createPolygon_r(h, shell, nullptr, 0));
}

// The STRtree reads only envelopes: a diagonal of the box has the same one and costs no polygon.
static Shape envelope_of(const Box& b) { return Shape::line({{b.xmin, b.ymin}, {b.xmax, b.ymax}}); }

Shape Shape::point(Point p) { return Shape(GEOSGeom_createPointFromXY_r(ctx(), p.x, p.y)); }

double Shape::distance(const Shape& o) const {
  double d = INFINITY;
  if (g_ && o.g_) GEOSDistance_r(ctx(), g_, o.g_, &d);
  return d;
}

bool Shape::intersects(const Shape& o) const { return g_ && o.g_ && GEOSIntersects_r(ctx(), g_, o.g_) == 1; }

bool Shape::covers(const Shape& o) const { return g_ && o.g_ && GEOSCovers_r(ctx(), g_, o.g_) == 1; }

double Shape::intersection_length(const Shape& area) const {
  if (!g_ || !area.g_) return 0;
  GEOSGeometry* inter = GEOSIntersection_r(ctx(), g_, area.g_);
  if (!inter) return 0;
  double len = 0;
  GEOSLength_r(ctx(), inter, &len);
  GEOSGeom_destroy_r(ctx(), inter);
  return len;
}

double Shape::intersection_area(const Shape& o) const {
  if (!g_ || !o.g_) return 0;
  GEOSGeometry* inter = GEOSIntersection_r(ctx(), g_, o.g_);
  if (!inter) return 0;
  double a = 0;
  GEOSArea_r(ctx(), inter, &a);
  GEOSGeom_destroy_r(ctx(), inter);
  return a;
}

std::optional<std::pair<double, Point>> Shape::overlap_with(const Shape& o) const {
  if (!g_ || !o.g_) return std::nullopt;
  GEOSContextHandle_t h = ctx();
  GEOSGeometry* inter = GEOSIntersection_r(h, g_, o.g_);
  if (!inter) return std::nullopt;
  double a = 0;
  GEOSArea_r(h, inter, &a);
  std::optional<std::pair<double, Point>> out;
  if (a > 0) {
    if (GEOSGeometry* p = GEOSPointOnSurface_r(h, inter)) {
      double x = 0, y = 0;
      if (GEOSGeomGetX_r(h, p, &x) == 1 && GEOSGeomGetY_r(h, p, &y) == 1) out = std::make_pair(a, Point{x, y});
      GEOSGeom_destroy_r(h, p);
    }
  }
  GEOSGeom_destroy_r(h, inter);
  return out;
}

double Shape::area() const {
  double a = 0;
  if (g_) GEOSArea_r(ctx(), g_, &a);
  return a;
}

double Shape::length() const {
  double l = 0;
  if (g_) GEOSLength_r(ctx(), g_, &l);
  return l;
}

Shape Shape::buffered(double d) const {
  if (!g_) return {};
  return Shape(GEOSBuffer_r(ctx(), g_, d, 8));
}

// --- SpatialIndex ---

SpatialIndex::SpatialIndex() : tree_(GEOSSTRtree_create_r(ctx(), 10)) {}

SpatialIndex::~SpatialIndex() {
  if (tree_) GEOSSTRtree_destroy_r(ctx(), tree_);
}

void SpatialIndex::insert(const Box& b, std::size_t id) {
  ids_.push_back(id);
  envelopes_.push_back(envelope_of(b));
  // The item pointer carries the position in ids_ (stable: ids_ only grows before queries).
  GEOSSTRtree_insert_r(ctx(), tree_, envelopes_.back().raw(), reinterpret_cast<void*>(ids_.size()));
}

std::vector<std::size_t> SpatialIndex::query(const Box& b) const {
  std::vector<std::size_t> out;
  if (ids_.empty()) return out;
  Shape probe = envelope_of(b);
  struct Sink {
    const std::vector<std::size_t>* ids;
    std::vector<std::size_t>* out;
  } sink{&ids_, &out};
  GEOSSTRtree_query_r(
      ctx(), tree_, probe.raw(),
      [](void* item, void* data) {
        auto* s = static_cast<Sink*>(data);
        s->out->push_back((*s->ids)[reinterpret_cast<std::size_t>(item) - 1]);
      },
      &sink);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tikzlint::checks::geo
