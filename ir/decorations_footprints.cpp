// ir/decorations_footprints.cpp: decorations.footprints (pgfmanual 50.4): a foot every half stride,
// left and right of the path in turn, each the animal's outline scaled to `foot length`, turned by
// `foot angle` and set `foot sep`/2 off the path (pgflibrarydecorations.footprints.code.tex).
#include <cctype>
#include <cmath>
#include <vector>

#include "ir/coords.hpp"
#include "ir/decorations.hpp"

namespace tikzlint::ir {

namespace {

#include "ir/decorations_footprints.inc"

constexpr double kPi = 3.14159265358979323846;
constexpr int kCurveSteps = 8;

}  // namespace

std::optional<DrawnDecoration> lower_footprints(const std::string& spec, DecoratedPath path, LibraryHost& host,
                                                std::uint32_t b, std::uint32_t e) {
  double length = 10, stride = 30, sep = 4, angle = 10;
  std::string animal = "human";
  bool reverse = false;
  for (const DecorationKey& k : decoration_keys(spec, host)) {
    if (k.key == "foot length") length = k.number(length);
    else if (k.key == "stride length") stride = k.number(stride);
    else if (k.key == "foot sep") sep = k.number(sep);
    else if (k.key == "foot angle") angle = k.number(angle);
    else if (k.key == "foot of") animal = k.value;
    else if (k.key == "reverse path") reverse = k.flag();
  }
  const FootOutline* outline = nullptr;
  for (const auto& o : kFootOutlines)
    if (animal == o.animal) outline = &o;
  if (!outline) {
    host.problem("unsupported-key", "footprints of '" + animal + "' are not defined in pgf", b, e);
    return DrawnDecoration{};
  }
  if (reverse) path.reverse();
  const double L = path.length();
  DrawnDecoration out;
  if (stride <= 0) return out;
  const double ca = std::cos(angle * kPi / 180), sa = std::sin(angle * kPi / 180);
  // states left and right, each `stride length`/2 wide: a foot where the state starts
  bool left = true;
  for (double c = 0; L - c >= stride / 2 && out.path.size() < 100000; c += stride / 2, left = !left) {
    const DecoratedPath::Frame f = path.frame_at(c);
    const double fa = f.angle_deg * kPi / 180;
    // [yscale -1] yshift(sep/2) scale(length) rotate(angle) on the outline's point
    auto place = [&](double x, double y) {
      const double rx = length * (ca * x - sa * y), ry = length * (sa * x + ca * y) + sep / 2;
      const double lx = rx, ly = left ? ry : -ry;
      return Point{f.at.x + std::cos(fa) * lx - std::sin(fa) * ly, f.at.y + std::sin(fa) * lx + std::cos(fa) * ly};
    };
    Point current{0, 0}, start{0, 0};
    for (const FootOp& op : outline->ops) {
      switch (op.op) {
        case 'M':
          out.path.push_back({place(op.x1, op.y1)});
          current = start = {op.x1, op.y1};
          break;
        case 'L':
          out.path.back().push_back(place(op.x1, op.y1));
          current = {op.x1, op.y1};
          break;
        case 'C': {
          const Bezier bz{current, {op.x1, op.y1}, {op.x2, op.y2}, {op.x3, op.y3}};
          out.control_points.push_back(place(op.x1, op.y1));
          out.control_points.push_back(place(op.x2, op.y2));
          for (int i = 1; i <= kCurveSteps; ++i) {
            const Point p = bezier_at(bz, static_cast<double>(i) / kCurveSteps);
            out.path.back().push_back(place(p.x, p.y));
          }
          current = {op.x3, op.y3};
          break;
        }
        case 'Z':
          out.path.back().push_back(place(start.x, start.y));
          current = start;
          break;
      }
      if (out.path.empty()) break;  // an outline that does not start with a moveto
    }
  }
  return out;
}

}  // namespace tikzlint::ir
