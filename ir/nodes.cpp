// ir/nodes.cpp: shapes rectangle, circle, ellipse and coordinate with pgf's anchors; the library
// shapes' outlines come from the packages (NodeShapeInput::library, packages/shapes/).
#include "ir/nodes.hpp"

#include <algorithm>

#include <cmath>
#include <numbers>
#include <string>
#include <tuple>


namespace tikzlint::ir {
namespace {

// The library shape named `in.shape_name`, or null when it is not modelled (then it is sized
// like a rectangle and its own anchors are unknown).
std::shared_ptr<const ShapeOutline> library_outline(const NodeShapeInput& in) {
  if (in.shape_name.empty() || in.library == nullptr) return nullptr;
  return in.library->outline(in);
}

// The outermost crossing, towards +x (dir > 0) or -x, of the line at height y with a polygon.
std::optional<double> horizontal_crossing(const std::vector<Point>& poly, double y, int dir) {
  std::optional<double> best;
  const std::size_t n = poly.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Point a = poly[i], b = poly[(i + 1) % n];
    if ((a.y - y) * (b.y - y) > 0 || a.y == b.y) continue;
    const double x = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x);
    if (!best || (dir > 0 ? x > *best : x < *best)) best = x;
  }
  return best;
}

// The farthest crossing of the ray from the origin along (ux, uy) with a closed polygon.
std::optional<Point> ray_polygon(const std::vector<Point>& poly, double ux, double uy) {
  double best = -1;
  const std::size_t n = poly.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Point a = poly[i], b = poly[(i + 1) % n];
    const double ex = b.x - a.x, ey = b.y - a.y;
    const double den = ux * ey - uy * ex;
    if (std::abs(den) < 1e-12) continue;
    const double t = (a.x * ey - a.y * ex) / den;      // along the ray
    const double s = (a.x * uy - a.y * ux) / den;      // along the edge
    if (t >= 0 && s >= -1e-9 && s <= 1 + 1e-9) best = std::max(best, t);
  }
  if (best < 0) return std::nullopt;
  return Point{best * ux, best * uy};
}

constexpr double kDeg = std::numbers::pi / 180.0;

// Compass anchors as unit directions; the shape maps them onto its border.
struct CompassAnchor {
  std::string_view name;
  int dx, dy;
};
constexpr CompassAnchor kCompass[] = {
    {"center", 0, 0},     {"north", 0, 1},      {"south", 0, -1},     {"east", 1, 0},
    {"west", -1, 0},      {"north east", 1, 1}, {"north west", -1, 1}, {"south east", 1, -1},
    {"south west", -1, -1}};

struct Direction {
  std::string_view name;
  double angle;
};
constexpr Direction kDirections[] = {{"right", 0},        {"above right", 45}, {"above", 90},
                                     {"above left", 135}, {"left", 180},       {"below left", 225},
                                     {"below", 270},      {"below right", 315}, {"north", 90},
                                     {"south", 270},      {"east", 0},          {"west", 180},
                                     {"north east", 45},  {"north west", 135},  {"south west", 225},
                                     {"south east", 315}};

std::string normalise(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

}  // namespace

NodeShapeGeometry node_shape_geometry(const NodeShapeInput& in) {
  NodeShapeGeometry g;
  g.shape = in.shape;
  g.ex = in.ex;
  g.outer_xsep = in.outer_xsep;
  g.outer_ysep = in.outer_ysep;
  const double hw = in.text_width / 2 + in.inner_xsep;
  const double hh = (in.text_height + in.text_depth) / 2 + in.inner_ysep;
  // The center sits midway through the text box, so the baseline is (h-d)/2 below it.
  g.base_dy = -(in.text_height - in.text_depth) / 2;
  switch (in.shape) {
    case NodeShape::coordinate:
      g.half_width = g.half_height = 0;
      g.outer_xsep = g.outer_ysep = 0;
      g.base_dy = 0;
      break;
    case NodeShape::circle: {
      double r = std::hypot(hw, hh);
      r = std::max({r, in.minimum_width / 2, in.minimum_height / 2});
      g.half_width = g.half_height = r;
      // pgf adds the larger of the two outer seps to the radius
      g.outer_xsep = g.outer_ysep = std::max(in.outer_xsep, in.outer_ysep);
      break;
    }
    case NodeShape::ellipse:
      g.half_width = std::max(std::numbers::sqrt2 * hw, in.minimum_width / 2);
      g.half_height = std::max(std::numbers::sqrt2 * hh, in.minimum_height / 2);
      break;
    case NodeShape::rectangle:
    case NodeShape::other:
      g.half_width = std::max(hw, in.minimum_width / 2);
      g.half_height = std::max(hh, in.minimum_height / 2);
      if (in.shape == NodeShape::other) g.outline = library_outline(in);
      if (g.outline) {
        // half extents of the drawn border about the center (rules that read only these)
        const Box& b = g.outline->path_box;
        g.half_width = std::max(-b.xmin, b.xmax);
        g.half_height = std::max(-b.ymin, b.ymax);
      }
      break;
  }
  return g;
}

Point box_corner(const NodeShapeGeometry& g, Point q, double ox, double oy) {
  if (!g.outline) return {q.x * (g.half_width + ox), q.y * (g.half_height + oy)};
  const Box& b = g.outline->path_box;
  return {q.x < 0 ? b.xmin - ox : b.xmax + ox, q.y < 0 ? b.ymin - oy : b.ymax + oy};
}

Point border_toward(const NodeShapeGeometry& g, Point dir) {
  const double len = std::hypot(dir.x, dir.y);
  if (len < 1e-12) return {0, 0};
  const double ux = dir.x / len, uy = dir.y / len;
  if (g.outline && !g.outline->border.empty()) {
    if (auto p = ray_polygon(g.outline->border, ux, uy)) return *p;
    return {0, 0};
  }
  const double a = g.half_width + g.outer_xsep, b = g.half_height + g.outer_ysep;
  switch (g.shape) {
    case NodeShape::coordinate:
      return {0, 0};
    case NodeShape::circle:
      return {a * ux, a * uy};
    case NodeShape::ellipse: {
      // ray t*(ux,uy) meets x^2/a^2 + y^2/b^2 = 1
      if (a <= 0 || b <= 0) return {0, 0};
      const double t = 1.0 / std::sqrt(ux * ux / (a * a) + uy * uy / (b * b));
      return {t * ux, t * uy};
    }
    case NodeShape::rectangle:
    case NodeShape::other: {
      double t = 1e300;
      if (std::abs(ux) > 1e-12) t = std::min(t, a / std::abs(ux));
      if (std::abs(uy) > 1e-12) t = std::min(t, b / std::abs(uy));
      return {t * ux, t * uy};
    }
  }
  return {0, 0};
}

Point border_point(const NodeShapeGeometry& g, double angle_deg) {
  return border_toward(g, {std::cos(angle_deg * kDeg), std::sin(angle_deg * kDeg)});
}

std::optional<Point> anchor_offset(const NodeShapeGeometry& g, std::string_view anchor_in) {
  const std::string anchor = normalise(anchor_in);
  if (anchor.empty() || anchor == "center") return Point{0, 0};
  if (g.outline) {
    for (const auto& [name, p] : g.outline->anchors)
      if (name == anchor) return p;
    // pgf's library shapes put the compass anchors where the border meets their direction,
    // unless the shape names them itself (above)
    for (const auto& c : kCompass)
      if (c.name == anchor) return border_toward(g, {double(c.dx), double(c.dy)});
    if (anchor == "base") return Point{0, g.base_dy};
    if (anchor == "mid") return Point{0, g.base_dy + 0.5 * g.ex};
    // base/mid east/west: where the border meets the horizontal through the base or mid point
    // (the shapes' anchor borders taken from \basepoint / \midpoint as reference)
    for (const auto& [name, dy, dx] : {std::tuple<const char*, double, int>{"base east", 0, 1},
                                       {"base west", 0, -1},
                                       {"mid east", 0.5 * g.ex, 1},
                                       {"mid west", 0.5 * g.ex, -1}}) {
      if (anchor != name) continue;
      const double y = g.base_dy + dy;
      if (auto x = horizontal_crossing(g.outline->border, y, dx)) return Point{*x, y};
      return std::nullopt;
    }
    char* end = nullptr;
    const double angle = std::strtod(anchor.c_str(), &end);
    if (end != nullptr && *end == '\0' && end != anchor.c_str()) return border_point(g, angle);
    return std::nullopt;
  }
  const double a = g.half_width + g.outer_xsep, b = g.half_height + g.outer_ysep;
  const bool round = g.shape == NodeShape::circle || g.shape == NodeShape::ellipse;
  for (const auto& c : kCompass) {
    if (c.name != anchor) continue;
    if (round && c.dx != 0 && c.dy != 0) return border_point(g, c.dx > 0 ? (c.dy > 0 ? 45 : 315) : (c.dy > 0 ? 135 : 225));
    return Point{c.dx * a, c.dy * b};
  }
  // Baseline anchors: base, mid (base + .5ex), text (left end of the baseline).
  const double mid_dy = g.base_dy + 0.5 * g.ex;
  struct Line {
    std::string_view name;
    double dy;
    int dx;
  };
  const Line lines[] = {{"base", g.base_dy, 0},  {"base west", g.base_dy, -1}, {"base east", g.base_dy, 1},
                        {"mid", mid_dy, 0},      {"mid west", mid_dy, -1},     {"mid east", mid_dy, 1}};
  for (const auto& l : lines) {
    if (l.name == anchor) {
      double x = 0;
      if (l.dx != 0) {
        if (round) {
          // pgf's circle puts mid/base west/east at the radius on the horizontal
          x = l.dx * a;
        } else {
          x = l.dx * a;
        }
      }
      return Point{x, l.dy};
    }
  }
  if (anchor == "text") return Point{-(g.half_width), g.base_dy};  // approximate: text origin
  // numeric angle anchors: "30", "-45.5"
  char* end = nullptr;
  const double angle = std::strtod(anchor.c_str(), &end);
  if (end != nullptr && *end == '\0' && end != anchor.c_str()) return border_point(g, angle);
  return std::nullopt;
}

const char* label_anchor_for_angle(double angle_deg) {
  double a = std::fmod(angle_deg, 360.0);
  if (a < 0) a += 360.0;
  auto near = [&](double m) { return std::abs(a - m) <= 2.0 || std::abs(a - m - 360) <= 2.0; };
  if (near(0)) return "west";
  if (near(90)) return "south";
  if (near(180)) return "east";
  if (near(270)) return "north";
  if (a < 90) return "south west";
  if (a < 180) return "south east";
  if (a < 270) return "north east";
  return "north west";
}

std::optional<double> direction_angle(std::string_view name) {
  const std::string n = normalise(name);
  for (const auto& d : kDirections)
    if (d.name == n) return d.angle;
  return std::nullopt;
}

}  // namespace tikzlint::ir
