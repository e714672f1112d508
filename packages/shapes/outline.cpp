// packages/shapes/outline.cpp: the helpers every shape builder shares (line intersections, mitred
// outer borders, the outline's extent).
#include <algorithm>
#include <cmath>

#include "packages/shapes/shapes.hpp"

namespace tikzlint::ir {
namespace shapes {

Point intersect_lines(Point p1, Point p2, Point q1, Point q2) {
  const double d1x = p2.x - p1.x, d1y = p2.y - p1.y, d2x = q2.x - q1.x, d2y = q2.y - q1.y;
  const double den = d1x * d2y - d1y * d2x;
  if (std::abs(den) < 1e-12) return p1;
  const double t = ((q1.x - p1.x) * d2y - (q1.y - p1.y) * d2x) / den;
  return {p1.x + t * d1x, p1.y + t * d1y};
}

Point rotated(Point p, double deg) {
  const double c = std::cos(deg * kDeg), s = std::sin(deg * kDeg);
  return {c * p.x - s * p.y, s * p.x + c * p.y};
}

std::vector<Point> mitre_outwards(const std::vector<Point>& pts, double sep) {
  const std::size_t n = pts.size();
  if (n < 3 || sep == 0) return pts;
  // each side moved by sep along its outward normal (counter-clockwise: right-hand normal)
  std::vector<std::pair<Point, Point>> sides;
  for (std::size_t i = 0; i < n; ++i) {
    Point a = pts[i], b = pts[(i + 1) % n];
    const double len = std::hypot(b.x - a.x, b.y - a.y);
    if (len < 1e-12) continue;
    const Point nrm{(b.y - a.y) / len * sep, -(b.x - a.x) / len * sep};
    sides.push_back({{a.x + nrm.x, a.y + nrm.y}, {b.x + nrm.x, b.y + nrm.y}});
  }
  std::vector<Point> out;
  for (std::size_t i = 0; i < sides.size(); ++i) {
    const auto& prev = sides[(i + sides.size() - 1) % sides.size()];
    const auto& cur = sides[i];
    out.push_back(intersect_lines(prev.first, prev.second, cur.first, cur.second));
  }
  return out;
}

void OutlineBuilder::arc(std::vector<Point>& into, Point c, double rx, double ry, double from_deg, double to_deg,
                         int n) const {
  for (int i = 0; i <= n; ++i) {
    const double a = (from_deg + (to_deg - from_deg) * i / n) * kDeg;
    into.push_back({c.x + rx * std::cos(a), c.y + ry * std::sin(a)});
  }
}

std::shared_ptr<const ShapeOutline> OutlineBuilder::finish(const NodeShapeInput& in) {
  auto extent = [](const std::vector<Point>& pts) {
    Box b{1e300, 1e300, -1e300, -1e300};
    for (Point p : pts) {
      b.xmin = std::min(b.xmin, p.x);
      b.ymin = std::min(b.ymin, p.y);
      b.xmax = std::max(b.xmax, p.x);
      b.ymax = std::max(b.ymax, p.y);
    }
    if (pts.empty()) b = Box{};
    return b;
  };
  // the text anchors every shape has: text (the text box's origin), as pgf's \\text saved anchor
  const double base_dy = -(in.text_height - in.text_depth) / 2;
  if (std::none_of(o.anchors.begin(), o.anchors.end(), [](const auto& a) { return a.first == "text"; }))
    anchor("text", {-in.text_width / 2, base_dy});
  o.path_box = extent(path.empty() ? o.border : path);
  o.outer_box = o.path_box;
  o.outer_box.xmin -= in.outer_xsep;
  o.outer_box.xmax += in.outer_xsep;
  o.outer_box.ymin -= in.outer_ysep;
  o.outer_box.ymax += in.outer_ysep;
  return std::make_shared<const ShapeOutline>(std::move(o));
}

}  // namespace shapes
}  // namespace tikzlint::ir
