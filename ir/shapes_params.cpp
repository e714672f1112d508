// ir/shapes_params.cpp: the library shapes' keys (their pgfkeys values) and the helpers every
// shape builder shares (line intersections, mitred outer borders, the outline's extent).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

#include "ir/shapes.hpp"
#include "support/ascii.hpp"

namespace tikzlint::ir {
namespace {

enum class Kind { length, number, text, boolean };
struct ParameterKey {
  std::string_view key;
  Kind kind;
  std::string_view stored_as;  // "" = key itself; styles that set another key name it
};
// pgflibraryshapes.*.code.tex and shapes/circuits/ (the /pgf/ keys the shapes read).
constexpr ParameterKey kParameters[] = {
    {"shape aspect", Kind::number, ""},
    {"aspect", Kind::number, "shape aspect"},
    {"shape border rotate", Kind::number, ""},
    {"star rotate", Kind::number, "shape border rotate"},
    {"regular polygon rotate", Kind::number, "shape border rotate"},
    {"shape border uses incircle", Kind::boolean, ""},
    {"regular polygon sides", Kind::number, ""},
    {"star points", Kind::number, ""},
    {"star point ratio", Kind::number, ""},
    {"star point height", Kind::length, ""},
    {"trapezium left angle", Kind::number, ""},
    {"trapezium right angle", Kind::number, ""},
    {"trapezium stretches", Kind::boolean, ""},
    {"trapezium stretches body", Kind::boolean, ""},
    {"isosceles triangle apex angle", Kind::number, ""},
    {"isosceles triangle stretches", Kind::boolean, ""},
    {"kite upper vertex angle", Kind::number, ""},
    {"kite lower vertex angle", Kind::number, ""},
    {"dart tip angle", Kind::number, ""},
    {"dart tail angle", Kind::number, ""},
    {"circular sector angle", Kind::number, ""},
    {"logic gate inputs", Kind::text, ""},
    {"logic gate inverted radius", Kind::length, ""},
    {"logic gate input sep", Kind::length, ""},
    {"logic gate anchors use bounding box", Kind::boolean, ""},
    {"single arrow tip angle", Kind::number, ""},
    {"single arrow head extend", Kind::length, ""},
    {"single arrow head indent", Kind::length, ""},
    {"double arrow tip angle", Kind::number, ""},
    {"double arrow head extend", Kind::length, ""},
    {"double arrow head indent", Kind::length, ""},
    {"chamfered rectangle angle", Kind::number, ""},
    {"chamfered rectangle xsep", Kind::length, ""},
    {"chamfered rectangle ysep", Kind::length, ""},
    {"cylinder uses custom fill", Kind::boolean, ""},
};

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string unbraced(std::string_view s) {
  s = trimmed(s);
  if (s.size() >= 2 && s.front() == '{' && s.back() == '}') s = trimmed(s.substr(1, s.size() - 2));
  return std::string(s);
}

}  // namespace

bool record_shape_parameter(std::shared_ptr<const ShapeParameters>& params, std::string_view key,
                            const std::string& value, const Evaluate& dim, const Evaluate& num) {
  auto edit = [&]() -> ShapeParameters& {
    auto copy = params ? std::make_shared<ShapeParameters>(*params) : std::make_shared<ShapeParameters>();
    params = copy;
    return *copy;
  };
  // styles over two keys
  if (key == "trapezium angle") {
    if (auto a = num(value)) {
      auto& p = edit();
      p.numbers["trapezium left angle"] = p.numbers["trapezium right angle"] = *a;
    }
    return true;
  }
  if (key == "chamfered rectangle sep") {
    if (auto a = dim(value)) {
      auto& p = edit();
      p.numbers["chamfered rectangle xsep"] = p.numbers["chamfered rectangle ysep"] = *a;
    }
    return true;
  }
  if (key == "kite vertex angles") {
    // "a" or "a and b" (pgflibraryshapes.geometric: upper, lower)
    const std::string v = unbraced(value);
    const std::size_t sep = v.find(" and ");
    auto upper = num(sep == std::string::npos ? v : v.substr(0, sep));
    auto lower = num(sep == std::string::npos ? v : v.substr(sep + 5));
    if (upper && lower) {
      auto& p = edit();
      p.numbers["kite upper vertex angle"] = *upper;
      p.numbers["kite lower vertex angle"] = *lower;
    }
    return true;
  }
  static const std::unordered_map<std::string_view, const ParameterKey*> by_key = [] {
    std::unordered_map<std::string_view, const ParameterKey*> m;
    for (const auto& k : kParameters) m.emplace(k.key, &k);  // the first entry of a key wins, as in a scan
    return m;
  }();
  if (auto f = by_key.find(key); f != by_key.end()) {
    const ParameterKey& k = *f->second;
    const std::string stored(k.stored_as.empty() ? k.key : k.stored_as);
    switch (k.kind) {
      case Kind::length:
        if (auto d = dim(value)) edit().numbers[stored] = *d;
        break;
      case Kind::number:
        if (auto d = num(value)) edit().numbers[stored] = *d;
        break;
      case Kind::boolean:
        edit().numbers[stored] = trimmed(value) == "false" ? 0 : 1;
        break;
      case Kind::text:
        edit().texts[stored] = unbraced(value);
        break;
    }
    // star point height / ratio: the last one set decides how the outer radius is found
    if (key == "star point height") edit().numbers["star uses ratio"] = 0;
    if (key == "star point ratio") edit().numbers["star uses ratio"] = 1;
    return true;
  }
  return false;
}

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
