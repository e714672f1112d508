// ir/coords.cpp: ellipse axes, Bezier evaluation and bounding-box points.
#include "ir/coords.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace tikzlint::ir {
namespace {
constexpr double kDeg = std::numbers::pi / 180.0;
// pgf approximates a quarter circle by a Bezier with this control distance (pgfpathellipse).
constexpr double kKappa = 0.55228475;
}  // namespace

void BBoxAccumulator::add(Point p) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) return;
  if (!any) {
    box = {p.x, p.y, p.x, p.y};
    any = true;
    return;
  }
  box.xmin = std::min(box.xmin, p.x);
  box.ymin = std::min(box.ymin, p.y);
  box.xmax = std::max(box.xmax, p.x);
  box.ymax = std::max(box.ymax, p.y);
}

void BBoxAccumulator::add(const Box& b) {
  add(Point{b.xmin, b.ymin});
  add(Point{b.xmax, b.ymax});
}

Point ConjugateEllipse::at(double t_deg) const {
  const double t = t_deg * kDeg;
  return {center.x + u.x * std::cos(t) + v.x * std::sin(t), center.y + u.y * std::cos(t) + v.y * std::sin(t)};
}

Point ConjugateEllipse::tangent(double t_deg) const {
  const double t = t_deg * kDeg;
  return {-u.x * std::sin(t) + v.x * std::cos(t), -u.y * std::sin(t) + v.y * std::cos(t)};
}

PrincipalEllipse principal_axes(Point u, Point v) {
  // M = [u v] = R(phi) diag(sx, sy) R(theta)  (closed-form 2x2 SVD)
  const double a = u.x, b = v.x, c = u.y, d = v.y;
  const double E = (a + d) / 2, F = (a - d) / 2, G = (c + b) / 2, H = (c - b) / 2;
  const double Q = std::hypot(E, H), R = std::hypot(F, G);
  const double sx = Q + R, sy = Q - R;
  const double a1 = std::atan2(G, F), a2 = std::atan2(H, E);
  const double theta = (a2 - a1) / 2, phi = (a2 + a1) / 2;
  PrincipalEllipse p;
  p.rx = sx;
  p.ry = std::abs(sy);
  p.rotation_deg = phi / kDeg;
  p.shift_deg = theta / kDeg;
  p.sign = 1;
  if (sy < 0) {
    // diag(sx, sy)(cos w, sin w) = diag(sx, |sy|)(cos -w, sin -w)
    p.sign = -1;
    p.shift_deg = -theta / kDeg;
  }
  return p;
}

std::vector<Point> ellipse_hull_points(const ConjugateEllipse& e) {
  std::vector<Point> pts;
  for (int q = 0; q < 4; ++q) {
    const double t0 = q * 90.0;
    auto hull = arc_hull_points(e, t0, t0 + 90.0);
    pts.insert(pts.end(), hull.begin(), hull.end());
  }
  return pts;
}

std::vector<Point> arc_hull_points(const ConjugateEllipse& e, double t0, double t1) {
  std::vector<Point> pts;
  // pgfcorepathconstruct.code.tex \pgfpatharc: while more than 90 degrees are left, a piece of 90
  // (60 when no more than 115 are left, so that the last piece is not a sliver), then the rest.
  // The pieces' control points are what grows pgf's bounding box, so the split must be pgf's.
  std::vector<std::pair<double, double>> pieces;
  const double dir = t1 >= t0 ? 1.0 : -1.0;
  double a0 = t0;
  while (std::abs(t1 - a0) > 90.0 + 1e-9) {
    const double step = std::abs(t1 - a0) > 115.0 ? 90.0 : 60.0;
    pieces.emplace_back(a0, a0 + dir * step);
    a0 += dir * step;
  }
  pieces.emplace_back(a0, t1);
  for (const auto& [a, b] : pieces) {
    const double step = b - a;
    const double h = 4.0 / 3.0 * std::tan(step * kDeg / 4.0);
    const Point p0 = e.at(a), p1 = e.at(b);
    const Point d0 = e.tangent(a), d1 = e.tangent(b);
    pts.push_back(p0);
    pts.push_back({p0.x + h * d0.x, p0.y + h * d0.y});
    pts.push_back({p1.x - h * d1.x, p1.y - h * d1.y});
    pts.push_back(p1);
  }
  (void)kKappa;
  return pts;
}

Point bezier_at(const Bezier& b, double t) {
  const double s = 1 - t;
  const double k0 = s * s * s, k1 = 3 * s * s * t, k2 = 3 * s * t * t, k3 = t * t * t;
  return {k0 * b.p0.x + k1 * b.c1.x + k2 * b.c2.x + k3 * b.p1.x, k0 * b.p0.y + k1 * b.c1.y + k2 * b.c2.y + k3 * b.p1.y};
}

Point bezier_tangent(const Bezier& b, double t) {
  const double s = 1 - t;
  const double k0 = 3 * s * s, k1 = 6 * s * t, k2 = 3 * t * t;
  Point d{k0 * (b.c1.x - b.p0.x) + k1 * (b.c2.x - b.c1.x) + k2 * (b.p1.x - b.c2.x),
          k0 * (b.c1.y - b.p0.y) + k1 * (b.c2.y - b.c1.y) + k2 * (b.p1.y - b.c2.y)};
  if (std::hypot(d.x, d.y) < 1e-12) d = b.p1 - b.p0;
  return d;
}

std::optional<Point> line_intersection(Point a1, Point a2, Point b1, Point b2) {
  const Point r = a2 - a1, s = b2 - b1;
  const double den = r.x * s.y - r.y * s.x;
  if (std::abs(den) < 1e-12) return std::nullopt;
  const Point q = b1 - a1;
  const double t = (q.x * s.y - q.y * s.x) / den;
  return a1 + t * r;
}

std::vector<Point> polygonise(const ConjugateEllipse& e, int n) {
  std::vector<Point> pts;
  pts.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) pts.push_back(e.at(360.0 * i / n));
  return pts;
}

double angle_deg(Point v) { return std::atan2(v.y, v.x) / kDeg; }
double length(Point v) { return std::hypot(v.x, v.y); }

}  // namespace tikzlint::ir
