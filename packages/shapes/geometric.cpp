// packages/shapes/geometric.cpp: diamond, regular polygon, star and trapezium as
// pgflibraryshapes.geometric.code.tex computes them (sizes, anchors, anchor borders).
#include <algorithm>
#include <cmath>

#include "packages/shapes/shapes.hpp"

namespace tikzlint::ir::shapes {
namespace {

Point mid(Point p, Point q) { return {(p.x + q.x) / 2, (p.y + q.y) / 2}; }

// pgf's \pgfmathanglebetweenlines: the angle at which two directions meet, in degrees.
double angle_between(Point d1, Point d2) {
  double a = (std::atan2(d2.y, d2.x) - std::atan2(d1.y, d1.x)) / kDeg;
  while (a < 0) a += 360;
  while (a >= 360) a -= 360;
  return a;
}

std::shared_ptr<const ShapeOutline> diamond(const NodeShapeInput& in) {
  const Box2 t = inner_half(in);
  const double aspect = param(in, "shape aspect", 1);
  double x = t.hw + aspect * t.hh;
  double y = t.hw / aspect + t.hh;
  x = std::max(x, in.minimum_width / 2);
  y = std::max(y, in.minimum_height / 2);
  // \outernortheast includes the outer sep; the path is drawn 1.414213 outer sep inside it
  const double X = x + in.outer_xsep, Y = y + in.outer_ysep;
  OutlineBuilder b;
  b.o.border = {{X, 0}, {0, Y}, {-X, 0}, {0, -Y}};
  const double px = X - 1.414213 * in.outer_xsep, py = Y - 1.414213 * in.outer_ysep;
  b.path = {{px, 0}, {0, py}, {-px, 0}, {0, -py}};
  b.anchor("north", {0, Y});
  b.anchor("south", {0, -Y});
  b.anchor("east", {X, 0});
  b.anchor("west", {-X, 0});
  b.anchor("north west", {-X / 2, Y / 2});
  b.anchor("north east", {X / 2, Y / 2});
  b.anchor("south west", {-X / 2, -Y / 2});
  b.anchor("south east", {X / 2, -Y / 2});
  return b.finish(in);
}

// The incircle radius of star and regular polygon: 1.41421 * max(half width, half height).
double incircle(const NodeShapeInput& in) {
  const Box2 t = inner_half(in);
  return 1.41421 * std::max(t.hw, t.hh);
}

std::shared_ptr<const ShapeOutline> regular_polygon(const NodeShapeInput& in) {
  const int sides = static_cast<int>(std::trunc(param(in, "regular polygon sides", 5)));
  if (sides < 3) return nullptr;
  const double step = 360.0 / sides;
  double radius = incircle(in) / std::cos(180.0 / sides * kDeg);
  radius = std::max(radius, std::max(in.minimum_width, in.minimum_height) / 2);
  const double sep = std::max(in.outer_xsep, in.outer_ysep);
  const double anchor_radius = radius + sep / std::sin((90 - 180.0 / sides) * kDeg);
  const double start = (sides % 2 == 1 ? 90 : 90 - step / 2) + param(in, "shape border rotate", 0);
  OutlineBuilder b;
  for (int i = 0; i < sides; ++i) {
    const double a = start + i * step;
    b.path.push_back(polar(a, radius));
    b.o.border.push_back(polar(a, anchor_radius));
  }
  for (int i = 0; i < sides; ++i) {
    const Point c = b.o.border[static_cast<std::size_t>(i)];
    const Point d = b.o.border[static_cast<std::size_t>((i + 1) % sides)];
    b.anchor("corner " + std::to_string(i + 1), c);
    b.anchor("side " + std::to_string(i + 1), {(c.x + d.x) / 2, (c.y + d.y) / 2});
  }
  return b.finish(in);
}

std::shared_ptr<const ShapeOutline> star(const NodeShapeInput& in) {
  const int points = static_cast<int>(std::trunc(param(in, "star points", 5)));
  if (points < 2) return nullptr;
  const double step = 180.0 / points;
  const bool uses_ratio = param(in, "star uses ratio", 1) != 0;
  const double ratio = param(in, "star point ratio", 1.5);
  const double height = param(in, "star point height", 0.5 * kPtPerCm);
  double inner = incircle(in);
  double outer = uses_ratio ? ratio * inner : inner + height;
  const double wanted = outer;
  outer = std::max(outer, std::max(in.minimum_width, in.minimum_height) / 2);
  if (outer > wanted) inner = uses_ratio ? outer / ratio : outer - height;
  // the outer sep along the mitre of the points and of the notches
  const double sep = std::max(in.outer_xsep, in.outer_ysep);
  const Point po = polar(step, outer), pi1 = polar(2 * step, inner), pi0 = polar(0, inner);
  const double tip = angle_between(pi1 - po, pi0 - po);
  const double anchor_outer = outer + sep / std::sin(tip / 2 * kDeg);
  const Point qi = polar(step, inner), qo0 = polar(0, outer), qo1 = polar(2 * step, outer);
  const double notch = angle_between(qo0 - qi, qo1 - qi);
  const double anchor_inner = inner + sep / std::sin(notch / 2 * kDeg);
  const double start = 90 + param(in, "shape border rotate", 0);
  OutlineBuilder b;
  for (int i = 0; i < 2 * points; ++i) {
    const double a = start + i * step;
    b.path.push_back(polar(a, i % 2 == 0 ? outer : inner));
    b.o.border.push_back(polar(a, i % 2 == 0 ? anchor_outer : anchor_inner));
  }
  for (int i = 0; i < points; ++i) {
    b.anchor("outer point " + std::to_string(i + 1), polar(start + 2 * i * step, anchor_outer));
    b.anchor("inner point " + std::to_string(i + 1), polar(start + 2 * i * step + step, anchor_inner));
  }
  return b.finish(in);
}

std::shared_ptr<const ShapeOutline> trapezium(const NodeShapeInput& in) {
  const Box2 t = inner_half(in);
  double x = t.hw, y = t.hh;
  // shape border rotate, rounded to a multiple of 90 (without `shape border uses incircle`)
  int rotate = 0;
  if (param(in, "shape border uses incircle", 0) != 0) {
    x = y = 1.41421 * std::max(x, y);
    rotate = static_cast<int>(std::lround(param(in, "shape border rotate", 0)));
  } else {
    int r = static_cast<int>(std::trunc(std::fmod(param(in, "shape border rotate", 0), 360.0)));
    r = (r + 45) / 90 * 90;
    if (r < 0) r += 360;
    rotate = r;
    if (r == 90 || r == 270) std::swap(x, y);
  }
  auto cot = [](double deg) {
    double a = std::fmod(deg, 360.0);
    if (a < 0) a += 360;
    return a == 0 ? 0.0 : 1.0 / std::tan(a * kDeg);
  };
  double xa = 2 * y * cot(param(in, "trapezium left angle", 60));
  double xb = 2 * y * cot(param(in, "trapezium right angle", 60));
  const bool stretches = param(in, "trapezium stretches", 0) != 0;
  const bool stretches_body = param(in, "trapezium stretches body", 0) != 0;
  if (y < in.minimum_height / 2) {
    if (stretches || stretches_body) {
      y = in.minimum_height / 2;
    } else {
      const double f = in.minimum_height / 2 / y;
      y = in.minimum_height / 2;
      x *= f;
      xa *= f;
      xb *= f;
    }
  }
  const double total = 2 * x + std::abs(xa) + std::abs(xb);
  if (total < in.minimum_width) {
    if (stretches_body) {
      x += (in.minimum_width - total) / 2;
    } else {
      const double f = in.minimum_width / total;
      x *= f;
      xa *= f;
      xb *= f;
      if (!stretches) y *= f;
    }
  }
  const Point ll{-x - (xa > 0 ? xa : 0), -y}, ul{-x + (xa < 0 ? xa : 0), y};
  const Point ur{x - (xb < 0 ? xb : 0), y}, lr{x + (xb > 0 ? xb : 0), -y};
  const double sep = std::max(in.outer_xsep, in.outer_ysep);
  std::vector<Point> corners = {ll, lr, ur, ul};  // counter-clockwise
  std::vector<Point> border = mitre_outwards(corners, sep);
  OutlineBuilder b;
  for (Point& p : corners) p = rotated(p, rotate);
  for (Point& p : border) p = rotated(p, rotate);
  b.path = corners;
  b.o.border = border;
  const Point bll = border[0], blr = border[1], bur = border[2], bul = border[3];
  b.anchor("bottom left corner", bll);
  b.anchor("top left corner", bul);
  b.anchor("top right corner", bur);
  b.anchor("bottom right corner", blr);
  b.anchor("left side", mid(bll, bul));
  b.anchor("right side", mid(blr, bur));
  b.anchor("top side", mid(bul, bur));
  b.anchor("bottom side", mid(bll, blr));
  return b.finish(in);
}

// `shape border rotate` rounded as pgf does for shapes whose border does not use the incircle:
// to a multiple of 90 in [0, 360).
int quarter_turns_rotation(const NodeShapeInput& in) {
  double m = std::fmod(param(in, "shape border rotate", 0), 360.0);
  if (m < 0) m += 360;
  return (static_cast<int>(m) + 45) / 90 * 90;
}

std::shared_ptr<const ShapeOutline> isosceles_triangle(const NodeShapeInput& in) {
  const Box2 t = inner_half(in);
  double h = param(in, "isosceles triangle apex angle", 45) / 2;
  const double tan_h = std::tan(h * kDeg), cot_h = 1 / tan_h, cosec_h = 1 / std::sin(h * kDeg);
  const bool incircle = param(in, "shape border uses incircle", 0) != 0;
  const bool stretches = param(in, "isosceles triangle stretches", 0) != 0;
  double x = t.hw, y = t.hh, xa = 0, ya = 0, rotate = 0;
  if (incircle) {
    rotate = param(in, "shape border rotate", 0);
    x = y = 1.414213 * std::max(x, y);
    xa = x + cosec_h * x;
    ya = tan_h * xa;
  } else {
    rotate = quarter_turns_rotation(in);
    if (rotate == 90 || rotate == 270) std::swap(x, y);
    xa = 2 * x;
    ya = tan_h * xa + y;
    xa += cot_h * y;
  }
  if (xa == 0) xa = in.minimum_height;
  if (ya < in.minimum_width / 2) {
    ya = in.minimum_width / 2;
    if (stretches) h = std::atan(ya / xa) / kDeg;
    else xa = cot_h * ya;
  }
  if (xa < in.minimum_height) {
    xa = in.minimum_height;
    if (stretches) h = std::atan(ya / xa) / kDeg;
    else ya = tan_h * xa;
  }
  const double sin_h = std::sin(h * kDeg);
  // the distance from the center to the base
  const double d = incircle ? xa * sin_h / (1 + sin_h)
                            : ((ya - y) * std::cos(h * kDeg) - 2 * sin_h * x) / (sin_h + 1) + x;
  const Point apex{xa - d, 0}, lower_left{-d, ya};
  const double o = std::max(in.outer_xsep, in.outer_ysep);
  const Point apex_anchor{apex.x + cosec_h * o, 0};
  const double c = 1 / std::tan((90 - h) / 2 * kDeg);
  const Point left_anchor{lower_left.x - o, ya + c * o}, right_anchor{lower_left.x - o, -(ya + c * o)};
  OutlineBuilder b;
  b.path = {rotated(apex, rotate), rotated(lower_left, rotate), rotated({lower_left.x, -ya}, rotate)};
  b.o.border = {rotated(apex_anchor, rotate), rotated(left_anchor, rotate), rotated(right_anchor, rotate)};
  b.anchor("apex", rotated(apex_anchor, rotate));
  b.anchor("left corner", rotated(left_anchor, rotate));
  b.anchor("right corner", rotated(right_anchor, rotate));
  b.anchor("left side", rotated(mid(left_anchor, apex_anchor), rotate));
  b.anchor("right side", rotated(mid(right_anchor, apex_anchor), rotate));
  b.anchor("lower side", rotated(mid(left_anchor, right_anchor), rotate));
  return b.finish(in);
}

std::shared_ptr<const ShapeOutline> semicircle(const NodeShapeInput& in) {
  const Box2 t = inner_half(in);
  const double o = std::max(in.outer_xsep, in.outer_ysep);
  double x = t.hw, y = t.hh, rotate = 0, default_radius = 0, half_height = 0;
  if (param(in, "shape border uses incircle", 0) != 0) {
    rotate = param(in, "shape border rotate", 0);
    half_height = 1.41421 * std::max(x, y);
    default_radius = 2 * half_height;
  } else {
    rotate = quarter_turns_rotation(in);
    if (rotate == 90 || rotate == 270) std::swap(x, y);
    default_radius = std::hypot(x, 2 * y);
    half_height = y;
  }
  const double r = std::max({default_radius, in.minimum_width / 2, in.minimum_height});
  // the chord sits below the center; a radius grown by the minimum sizes moves it by .4 of that
  const Point c{0, -0.4 * (r - default_radius) - half_height};
  const double ro = r + o;
  OutlineBuilder b;
  std::vector<Point> border, path;
  b.arc(border, c, ro, ro, 0, 180);
  const Point end_corner{c.x - ro, c.y - o}, start_corner{c.x + ro, c.y - o};
  border.push_back(end_corner);
  border.push_back(start_corner);
  b.arc(path, c, r, r, 0, 180);
  for (Point& p : border) p = rotated(p, rotate);
  for (Point& p : path) p = rotated(p, rotate);
  b.o.border = border;
  b.path = path;
  b.anchor("apex", rotated({c.x, c.y + ro}, rotate));
  b.anchor("arc start", rotated(start_corner, rotate));
  b.anchor("arc end", rotated(end_corner, rotate));
  b.anchor("chord center", rotated({c.x, c.y - o}, rotate));
  return b.finish(in);
}

std::shared_ptr<const ShapeOutline> kite(const NodeShapeInput& in) {
  const Box2 t = inner_half(in);
  const double hu = param(in, "kite upper vertex angle", 120) / 2, hl = param(in, "kite lower vertex angle", 60) / 2;
  double x = t.hw, y = t.hh, rotate = 0, xa = 0, ya = 0, yb = 0, deltay = 0;
  if (param(in, "shape border uses incircle", 0) != 0) {
    rotate = param(in, "shape border rotate", 0);
    x = 1.41421 * std::max(x, y);
    const double su = std::sin(hu * kDeg), sl = std::sin(hl * kDeg);
    ya = x / su;
    yb = x / sl;
    double yc = x / std::sin((hu + hl) * kDeg) * (su + sl) * std::cos(hu * kDeg);
    yc = -yc / su + x / su;
    deltay = yc;
    ya -= yc;
    yb += yc;
    xa = std::tan(hu * kDeg) * ya;
  } else {
    x *= 2;
    y *= 2;
    rotate = quarter_turns_rotation(in);
    if (rotate == 90 || rotate == 270) std::swap(x, y);
    ya = y / std::sin((hu + hl) * kDeg) * std::cos(hu * kDeg) * std::sin(hl * kDeg);
    yb = y - ya;
    deltay = 0.5 * y - ya;
    xa = 0.5 * x + std::tan(hu * kDeg) * ya;
    ya += 0.5 * x / std::tan(hu * kDeg);
    yb += 0.5 * x / std::tan(hl * kDeg);
  }
  if (ya + yb < in.minimum_height) {
    const double f = in.minimum_height / (ya + yb);
    xa *= f;
    ya *= f;
    yb *= f;
  }
  if (2 * xa < in.minimum_width) {
    const double f = in.minimum_width / (2 * xa);
    xa *= f;
    ya *= f;
    yb *= f;
  }
  std::vector<Point> corners = {{0, deltay - yb}, {xa, deltay}, {0, deltay + ya}, {-xa, deltay}};  // ccw
  std::vector<Point> border = mitre_outwards(corners, std::max(in.outer_xsep, in.outer_ysep));
  for (Point& p : corners) p = rotated(p, rotate);
  for (Point& p : border) p = rotated(p, rotate);
  OutlineBuilder b;
  b.path = corners;
  b.o.border = border;
  const Point lower = border[0], right = border[1], upper = border[2], left = border[3];
  b.anchor("upper vertex", upper);
  b.anchor("lower vertex", lower);
  b.anchor("left vertex", left);
  b.anchor("right vertex", right);
  b.anchor("upper left side", mid(upper, left));
  b.anchor("lower left side", mid(lower, left));
  b.anchor("upper right side", mid(upper, right));
  b.anchor("lower right side", mid(lower, right));
  return b.finish(in);
}

std::shared_ptr<const ShapeOutline> circular_sector(const NodeShapeInput& in) {
  const Box2 t = inner_half(in);
  const double o = std::max(in.outer_xsep, in.outer_ysep);
  double angle = std::fmod(param(in, "circular sector angle", 60), 360.0);
  if (angle < 0) angle += 360;
  const double h = angle / 2;
  const double cosec = 1 / std::sin(h * kDeg), cos_h = std::cos(std::abs(h) * kDeg);
  const double centermiter = o * cosec;
  const double start = 180 - h, end = 180 + h;
  double x = t.hw, y = t.hh, rotate = 0, xa = 0, xb = 0;
  if (param(in, "shape border uses incircle", 0) != 0) {
    rotate = param(in, "shape border rotate", 0);
    x = 1.41421 * std::max(x, y);
    xa = cosec * x;
    xb = xa;
    xa += x;
  } else {
    rotate = quarter_turns_rotation(in);
    if (rotate == 90 || rotate == 270) std::swap(x, y);
    xa = cosec * y * cos_h + x;
    xb = xa;
    xa = std::hypot(xa + x, y);
  }
  const double xc = std::abs(xb / std::cos(h * kDeg));
  if (xc < in.minimum_width / 2) {
    const double f = in.minimum_width / 2 / xc;
    xa *= f;
    xb *= f;
  }
  if (xa < in.minimum_height) {
    xb *= in.minimum_height / xa;
    xa = in.minimum_height;
  }
  const double radius = xa, border_radius = xa + o, corner_radius = border_radius + o * cosec * cos_h;
  const Point sc{xb, 0}, scb{xb + centermiter, 0};
  OutlineBuilder b;
  std::vector<Point> path{sc}, border{scb, scb + polar(start, corner_radius)};
  b.arc(path, sc, radius, radius, start, end);
  b.arc(border, sc, border_radius, border_radius, start, end);
  border.push_back(scb + polar(end, corner_radius));
  for (Point& p : path) p = rotated(p, rotate);
  for (Point& p : border) p = rotated(p, rotate);
  b.path = path;
  b.o.border = border;
  b.anchor("sector center", rotated(scb, rotate));
  b.anchor("arc start", rotated(scb + polar(start, corner_radius), rotate));
  b.anchor("arc end", rotated(scb + polar(end, corner_radius), rotate));
  // the border point opposite the sector center: on the arc, on the axis
  b.anchor("arc center", rotated({xb - border_radius, 0}, rotate));
  return b.finish(in);
}

std::shared_ptr<const ShapeOutline> dart(const NodeShapeInput& in) {
  const Box2 t = inner_half(in);
  const double ht = param(in, "dart tip angle", 45) / 2, htail = param(in, "dart tail angle", 135) / 2;
  const double cot_ht = 1 / std::tan(ht * kDeg);
  double x = t.hw, y = t.hh, rotate = 0, xa = 0;
  if (param(in, "shape border uses incircle", 0) != 0) {
    rotate = param(in, "shape border rotate", 0);
    x = 1.41421 * std::max(x, y);
    xa = cot_ht * x + x;
  } else {
    rotate = quarter_turns_rotation(in);
    if (rotate == 90 || rotate == 270) std::swap(x, y);
    xa = cot_ht * y + 2 * x;
  }
  // the tails' half separation (pgf: cosec(tail/2 - tip/2) * length * sin(tip/2) * cos(tip/2))
  double ya = xa / std::sin((htail - ht) * kDeg) * std::sin(ht * kDeg) * std::cos(ht * kDeg);
  const double xb = cot_ht * ya;
  double xc = -xa + xb;
  if (xb < in.minimum_height) {
    const double f = in.minimum_height / xb;
    xa *= f;
    xc *= f;
    ya *= f;
    x *= f;
  }
  if (ya < in.minimum_width / 2) {
    const double f = in.minimum_width / 2 / ya;
    ya = in.minimum_width / 2;
    xa *= f;
    xc *= f;
    x *= f;
  }
  std::vector<Point> corners = {{xa - x, 0}, {-x - xc, ya}, {-x, 0}, {-x - xc, -ya}};  // ccw
  std::vector<Point> border = mitre_outwards(corners, std::max(in.outer_xsep, in.outer_ysep));
  for (Point& p : corners) p = rotated(p, rotate);
  for (Point& p : border) p = rotated(p, rotate);
  OutlineBuilder b;
  b.path = corners;
  b.o.border = border;
  b.anchor("tip", border[0]);
  b.anchor("left tail", border[1]);
  b.anchor("tail center", border[2]);
  b.anchor("right tail", border[3]);
  b.anchor("left side", mid(border[0], border[1]));
  b.anchor("right side", mid(border[0], border[3]));
  return b.finish(in);
}

std::shared_ptr<const ShapeOutline> cylinder(const NodeShapeInput& in) {
  const Box2 t = inner_half(in);
  double x = t.hw, y = t.hh, yc = in.inner_ysep, rotate = 0;
  if (param(in, "shape border uses incircle", 0) != 0) {
    rotate = param(in, "shape border rotate", 0);
    x = y = 1.414213 * std::max(x, y);
  } else {
    rotate = quarter_turns_rotation(in);
    if (rotate == 90 || rotate == 270) {
      std::swap(x, y);
      yc = in.inner_xsep;
    }
  }
  // the end caps are half ellipses with radii (aspect * half height, half height)
  double xa = x, ya = y;
  const double rx = param(in, "shape aspect", 1) * ya;
  double ry = ya;
  if (ry < in.minimum_width / 2) ry = ya = in.minimum_width / 2;
  const double xb = std::cos(std::asin(std::clamp((ry - yc) / ry, -1.0, 1.0))) * rx;
  const double length = 0.5 * in.line_width + 2 * xa + 3 * rx - xb;
  if (length < in.minimum_height) xa += 0.5 * (in.minimum_height - length);
  const double o = std::max(in.outer_xsep, in.outer_ysep);
  const double xr = rx + o, yr = ry + o;
  const Point before_top{xa + rx + 0.5 * in.line_width, ya}, after_bottom{-xa + xb, ya};
  OutlineBuilder b;
  std::vector<Point> border, path;
  b.arc(border, {before_top.x, 0}, xr, yr, -90, 90);
  b.arc(border, {after_bottom.x, 0}, xr, yr, 90, 270);
  b.arc(path, {before_top.x, 0}, rx, ry, -90, 90);
  b.arc(path, {after_bottom.x, 0}, rx, ry, 90, 270);
  for (Point& p : border) p = rotated(p, rotate);
  for (Point& p : path) p = rotated(p, rotate);
  b.o.border = border;
  b.path = path;
  b.anchor("shape center", rotated({(rx + 0.5 * in.line_width + xb) / 2, 0}, rotate));
  b.anchor("before top", rotated({before_top.x, before_top.y + in.outer_ysep}, rotate));
  b.anchor("top", rotated({before_top.x + xr, 0}, rotate));
  b.anchor("after top", rotated({before_top.x, -(before_top.y + in.outer_ysep)}, rotate));
  b.anchor("before bottom", rotated({after_bottom.x, -(after_bottom.y + in.outer_ysep)}, rotate));
  b.anchor("bottom", rotated({after_bottom.x - xr, 0}, rotate));
  b.anchor("after bottom", rotated({after_bottom.x, after_bottom.y + in.outer_ysep}, rotate));
  return b.finish(in);
}

}  // namespace

std::shared_ptr<const ShapeOutline> build_geometric(const NodeShapeInput& in) {
  const std::string& n = in.shape_name;
  if (n == "diamond") return diamond(in);
  if (n == "regular polygon") return regular_polygon(in);
  if (n == "star") return star(in);
  if (n == "trapezium") return trapezium(in);
  if (n == "isosceles triangle") return isosceles_triangle(in);
  if (n == "semicircle") return semicircle(in);
  if (n == "kite") return kite(in);
  if (n == "circular sector") return circular_sector(in);
  if (n == "dart") return dart(in);
  if (n == "cylinder") return cylinder(in);
  return nullptr;
}

}  // namespace tikzlint::ir::shapes
