// packages/pgfplots/view3d.cpp: the projection of a 3D pgfplots axis (see view3d.hpp).
#include "packages/pgfplots/view3d.hpp"

#include <algorithm>
#include <cmath>

namespace tikzlint::pgfplots {
namespace {

constexpr double kDegree = 3.14159265358979323846 / 180;
// pgfplots' sines and cosines are pgfmath's, good to about 1e-5: a component below this is zero
// (view={0}{90} has exact zeros in TeX).
constexpr double kZero = 1e-9;
// \pgfplots@borderanchor@snap@to@nearest@anchor: a component above 0.17 (about 80 degrees from
// the other axis) selects north/south, east/west.
constexpr double kSnapThreshold = 0.17;
// \pgfplots@borderanchor@for@axis@: with |n . d| >= 0.8 the normal and the axis are too close to
// parallel to intersect; the snapped anchor is used as it is.
constexpr double kParallel = 0.8;

double clean(double v) { return std::abs(v) < kZero ? 0.0 : v; }

}  // namespace

double View3d::length(int a) const { return std::hypot(unit[static_cast<std::size_t>(a)].x, unit[static_cast<std::size_t>(a)].y); }

std::optional<View3d> make_view(double azimuth, double elevation, double width, double height) {
  const double sa = clean(std::sin(azimuth * kDegree)), ca = clean(std::cos(azimuth * kDegree));
  const double se = clean(std::sin(elevation * kDegree)), ce = clean(std::cos(elevation * kDegree));
  // \pgfplotssetaxesfromazel (which negates the elevation): x = (cos az, -sin az sin el),
  // y = (sin az, sin el cos az), z = (0, cos el); n = (-sin az cos el, cos az cos el, -sin el)
  View3d v;
  v.unit = {ir::Point{ca, -sa * se}, ir::Point{sa, se * ca}, ir::Point{0, ce}};
  v.dir = {clean(-sa * ce), clean(ca * ce), clean(-se)};
  double xmin = 0, xmax = 0, ymin = 0, ymax = 0;
  for (int c = 0; c < 8; ++c) {
    const ir::Point p = v.at(c & 1, (c >> 1) & 1, (c >> 2) & 1);
    xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x), ymin = std::min(ymin, p.y), ymax = std::max(ymax, p.y);
  }
  if (!(xmax - xmin > kZero) || !(ymax - ymin > kZero) || !(width > 0) || !(height > 0)) return std::nullopt;
  // scale mode=stretch to fill: every x component by W/w, every y component by H/h
  const double sx = width / (xmax - xmin), sy = height / (ymax - ymin);
  for (ir::Point& u : v.unit) u = {u.x * sx, u.y * sy};
  v.origin = {-xmin * sx, -ymin * sy};
  v.width = width, v.height = height;
  return v;
}

BoxEdge ticklabel_edge(const View3d& v, int axis) {
  // the other two axes in pgfplots' order: x -> (y, z), y -> (x, z), z -> (x, y)
  const int b = axis == 0 ? 1 : 0, n = axis == 2 ? 1 : 2;
  // x and y compare the projected y coordinate (lower), z the projected x coordinate (left)
  const bool compare_x = axis == 2;
  auto edge = [&](int sb, int sn) {
    BoxEdge e;
    e.axis = axis;
    e.side[static_cast<std::size_t>(b)] = sb, e.side[static_cast<std::size_t>(n)] = sn;
    return e;
  };
  auto mid = [&](const BoxEdge& e) {
    double u[3] = {0.5, 0.5, 0.5};
    u[b] = e.side[static_cast<std::size_t>(b)], u[n] = e.side[static_cast<std::size_t>(n)];
    const ir::Point p = v.at(u[0], u[1], u[2]);
    return compare_x ? p.x : p.y;
  };
  const ir::Point c = v.at(0.5, 0.5, 0.5);
  const double center = compare_x ? c.x : c.y;
  // \pgfplotsifaxislineisonconvexhull: the edge 00 is on the outline when exactly one of its two
  // faces is in the foreground; then 00 or 11, else 10 or 01
  const bool hull00 = v.foreground(b, 0) != v.foreground(n, 0);
  const BoxEdge first = hull00 ? edge(0, 0) : edge(1, 0);
  const BoxEdge second = hull00 ? edge(1, 1) : edge(0, 1);
  // `ticklabel pos=lower`: keep the first when its middle is strictly below (left of) the centre
  // (TeX compares dimensions; equal counts as not below)
  return mid(first) < center - 1e-6 ? first : second;
}

std::vector<BoxEdge> background_edges(const View3d& v) {
  std::vector<BoxEdge> out;
  for (int a = 0; a < 3; ++a) {
    if (!(v.length(a) > kZero)) continue;
    const int b = a == 0 ? 1 : 0, n = a == 2 ? 1 : 2;
    for (int sb = 0; sb < 2; ++sb)
      for (int sn = 0; sn < 2; ++sn) {
        if (v.foreground(b, sb) && v.foreground(n, sn)) continue;
        BoxEdge e;
        e.axis = a;
        e.side[static_cast<std::size_t>(b)] = sb, e.side[static_cast<std::size_t>(n)] = sn;
        out.push_back(e);
      }
  }
  return out;
}

ir::Point outer_normal(const View3d& v, const BoxEdge& e) {
  ir::Point sum{0, 0};
  for (int k = 0; k < 3; ++k) {
    if (k == e.axis) continue;
    const double len = v.length(k);
    if (!(len > kZero)) continue;
    const double sign = e.side[static_cast<std::size_t>(k)] == 0 ? -1.0 : 1.0;
    sum.x += sign * v.unit[static_cast<std::size_t>(k)].x / len;
    sum.y += sign * v.unit[static_cast<std::size_t>(k)].y / len;
  }
  const double len = std::hypot(sum.x, sum.y);
  if (!(len > kZero)) return {0, 0};
  return {sum.x / len, sum.y / len};
}

std::string snap_anchor(ir::Point d) {
  std::string y = d.y > kSnapThreshold ? "north" : d.y < -kSnapThreshold ? "south" : "";
  std::string x = d.x > kSnapThreshold ? "east" : d.x < -kSnapThreshold ? "west" : "";
  if (y.empty()) return x.empty() ? "center" : x;
  return x.empty() ? y : y + " " + x;
}

ir::Point near_ticklabel_anchor(ir::Point inward, ir::Point along, ir::Point compass) {
  const double al = std::hypot(along.x, along.y);
  if (!(al > kZero)) return compass;
  const ir::Point d{along.x / al, along.y / al};
  if (std::abs(inward.x * d.x + inward.y * d.y) >= kParallel) return compass;
  // r * inward + s * d = compass
  const double det = inward.x * d.y - d.x * inward.y;
  if (std::abs(det) < kZero) return compass;
  const double r = (compass.x * d.y - d.x * compass.y) / det;
  return {r * inward.x, r * inward.y};
}

}  // namespace tikzlint::pgfplots
