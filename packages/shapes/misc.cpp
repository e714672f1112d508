// packages/shapes/misc.cpp: shapes of the arrows library (single and double arrow) as
// pgflibraryshapes.arrows.code.tex computes them, and the misc library's rounded rectangle. The other shapes of the misc, symbols,
// arrows, callouts and multipart libraries are not modelled yet: their nodes are sized like
// rectangles and their own anchors stay unknown (unsupported-coordinate where used).
#include <algorithm>
#include <cmath>

#include "packages/shapes/shapes.hpp"

namespace tikzlint::ir::shapes {
namespace {

// single arrow and double arrow (pgflibraryshapes.arrows): a shaft with one head, or with one
// at each end; the keys are `single arrow ...` or `double arrow ...`.
std::shared_ptr<const ShapeOutline> arrow(const NodeShapeInput& in, bool twin) {
  const std::string key = twin ? "double arrow " : "single arrow ";
  double xa = in.text_width / 2 + in.inner_xsep + 0.5 * in.line_width;
  double ya = (in.text_height + in.text_depth) / 2 + in.inner_ysep + 0.5 * in.line_width;
  double ox = in.outer_xsep, oy = in.outer_ysep, rotate = 0;
  if (param(in, "shape border uses incircle", 0) != 0) {
    xa = ya = 1.41421 * std::max(xa, ya);
    rotate = param(in, "shape border rotate", 0);
    ox = oy = std::max(ox, oy);
  } else {
    double m = std::fmod(param(in, "shape border rotate", 0), 360.0);
    if (m < 0) m += 360;
    rotate = (static_cast<int>(m) + 45) / 90 * 90;
    if (rotate == 90 || rotate == 270) {
      std::swap(xa, ya);
      std::swap(ox, oy);
    }
  }
  const double ht = param(in, key + "tip angle", 90) / 2;
  const double cot_ht = 1 / std::tan(ht * kDeg);
  double xb = cot_ht * ya;  // the head's length beyond the shaft
  double xc = param(in, key + "head extend", 0.25 * kPtPerCm);
  double yc = xc;
  xc += ya;
  if (xc < in.minimum_width / 2) {
    const double f = in.minimum_width / 2 / xc;
    ya *= f;
    xc *= f;
    yc *= f;
    xb *= f;
  }
  xc = cot_ht * (xc - ya);
  // the shaft's half length: single, (max(2xa + xb, minimum height) - xb) / 2; double,
  // max(2(xa + xb), minimum height) / 2 - xb
  xa = twin ? std::max(2 * (xa + xb), in.minimum_height) / 2 - xb : (std::max(2 * xa + xb, in.minimum_height) - xb) / 2;
  const double indent = param(in, key + "head indent", 0);
  // counter-clockwise from the tip: before tip, before head, after tail, before tail, after
  // head, after tip (the names follow the path drawn clockwise from the tail)
  const Point tip{xa + xb, 0}, before_tip{xa - xc, ya + yc}, before_head{xa - xc + indent, ya}, after_tail{-xa, ya};
  // \beforearrowheadanchor: the mitre of the head's back with a shaft taken to run towards the
  // tail, even when the head reaches behind the tail (no shaft left)
  const double a = std::atan2(before_tip.y - before_head.y, before_tip.x - before_head.x) / kDeg;
  const double t = (180 - a) / 2;
  const Point head_off = polar(180 - t, ox / std::sin(t * kDeg));
  const Point head_anchor{before_head.x + head_off.x, before_head.y + head_off.y};
  OutlineBuilder b;
  if (!twin) {
    b.path = {tip, before_tip, before_head, after_tail, {after_tail.x, -after_tail.y},
              {before_head.x, -before_head.y}, {before_tip.x, -before_tip.y}};
    std::vector<Point> border = mitre_outwards(b.path, ox);
    border[2] = head_anchor;
    border[5] = {head_anchor.x, -head_anchor.y};
    // the tail's corners take the outer xsep and ysep separately (\afterarrowtailanchor)
    border[3] = {-xa - ox, ya + oy};
    border[4] = {-xa - ox, -(ya + oy)};
    b.o.border = border;
    b.anchor("tip", border[0]);
    b.anchor("before tip", border[1]);
    b.anchor("before head", border[2]);
    b.anchor("after tail", border[3]);
    b.anchor("before tail", border[4]);
    b.anchor("after head", border[5]);
    b.anchor("after tip", border[6]);
    b.anchor("tail", {-xa - ox, 0});
  } else {
    auto fx = [](Point p) { return Point{-p.x, p.y}; };
    auto fy = [](Point p) { return Point{p.x, -p.y}; };
    auto fxy = [](Point p) { return Point{-p.x, -p.y}; };
    b.path = {tip, before_tip, before_head, fx(before_head), fx(before_tip), fx(tip),
              fxy(before_tip), fxy(before_head), fy(before_head), fy(before_tip)};
    std::vector<Point> border = mitre_outwards(b.path, ox);
    border[2] = head_anchor;
    border[3] = fx(head_anchor);
    border[7] = fxy(head_anchor);
    border[8] = fy(head_anchor);
    b.o.border = border;
    b.anchor("tip 1", border[0]);
    b.anchor("before tip 1", border[1]);
    b.anchor("before head 1", border[2]);
    b.anchor("after head 2", border[3]);
    b.anchor("after tip 2", border[4]);
    b.anchor("tip 2", border[5]);
    b.anchor("before tip 2", border[6]);
    b.anchor("before head 2", border[7]);
    b.anchor("after head 1", border[8]);
    b.anchor("after tip 1", border[9]);
  }
  for (Point& p : b.path) p = rotated(p, rotate);
  for (Point& p : b.o.border) p = rotated(p, rotate);
  for (auto& an : b.o.anchors) an.second = rotated(an.second, rotate);
  return b.finish(in);
}

// rounded rectangle (pgflibraryshapes.misc.code.tex, \roundedrectanglepoints): a rectangle whose
// west and east sides are arcs of `arc length` degrees (convex, concave or none) through the
// corners of the text box plus inner sep, floored by minimum height and width.
std::shared_ptr<const ShapeOutline> rounded_rectangle(const NodeShapeInput& in) {
  const double half_arc = param(in, "rounded rectangle arc length", 180) / 2;
  const std::string west = text_param(in, "rounded rectangle west arc", "convex");
  const std::string east = text_param(in, "rounded rectangle east arc", "convex");
  const double half_text_w = in.text_width / 2, half_text_h = (in.text_height + in.text_depth) / 2;
  const double half_h = std::max(in.inner_ysep + half_text_h, in.minimum_height / 2);
  const double radius = half_h / std::sin(half_arc * kDeg);
  const double arc_w = radius - std::cos(half_arc * kDeg) * radius;
  const double chord_w = radius - std::cos(std::asin(std::min(1.0, half_text_h / radius))) * radius;
  auto side = [&](const std::string& kind) { return kind == "concave" ? arc_w : kind == "convex" ? chord_w : 0.0; };
  const double natural = 2 * (in.inner_xsep + half_text_w) + side(west) + side(east);
  double xoffset = natural < in.minimum_width ? (in.minimum_width - natural) / 2 : in.inner_xsep;
  const double xc = radius - chord_w;
  if (xc > half_text_w + xoffset) xoffset += xc - (half_text_w + xoffset);
  const double half_w = half_text_w + xoffset;
  // the background path, counter-clockwise from the top's middle, and the border outer sep out
  const double ox = in.outer_xsep, oy = in.outer_ysep;
  OutlineBuilder b;
  std::vector<Point> path{{0, half_h}}, border{{0, half_h + oy}};
  auto west_side = [&](std::vector<Point>& into, double grow) {
    const double h = half_h + grow, r = radius + grow;
    if (west == "convex") {
      b.arc(into, {-half_w - chord_w + radius, 0}, r, r, 180 - half_arc, 180 + half_arc);
    } else if (west == "concave") {
      into.push_back({-half_w - arc_w - grow, h});
      b.arc(into, {-half_w - arc_w - grow - radius * std::cos(half_arc * kDeg), 0}, radius - grow, radius - grow,
            half_arc, -half_arc);
    } else {
      into.push_back({-half_w - grow, h});
      into.push_back({-half_w - grow, -h});
    }
  };
  auto east_side = [&](std::vector<Point>& into, double grow) {
    const double h = half_h + grow, r = radius + grow;
    if (east == "convex") {
      b.arc(into, {half_w + chord_w - radius, 0}, r, r, -half_arc, half_arc);
    } else if (east == "concave") {
      into.push_back({half_w + arc_w + grow, -h});
      b.arc(into, {half_w + arc_w + grow + radius * std::cos(half_arc * kDeg), 0}, radius - grow, radius - grow,
            180 + half_arc, 180 - half_arc);
    } else {
      into.push_back({half_w + grow, -h});
      into.push_back({half_w + grow, h});
    }
  };
  west_side(path, 0);
  east_side(path, 0);
  west_side(border, std::max(ox, oy));
  east_side(border, std::max(ox, oy));
  b.path = path;
  b.o.border = border;
  // the compass anchors as the shape defines them: outer sep beyond a convex or straight side, none
  // beyond a concave one's corners but the mitre's shift; north west and its kin over the end
  // of a convex arc's top
  auto shift = [&](double angle) {
    return half_arc == 90 ? 0.0 : ox / std::sin(angle * kDeg) * std::cos(angle * kDeg);
  };
  const double concave_shift = shift((90 - half_arc) / 2), convex_shift = shift((90 + half_arc) / 2);
  auto end_x = [&](const std::string& kind) {
    return kind == "concave" ? half_w + arc_w + concave_shift : kind == "convex" ? half_w + chord_w + ox : half_w + ox;
  };
  auto corner_x = [&](const std::string& kind) {
    return kind == "convex" ? half_w + chord_w - arc_w + convex_shift : end_x(kind);
  };
  b.anchor("north", {0, half_h + oy});
  b.anchor("south", {0, -half_h - oy});
  b.anchor("west", {-end_x(west), 0});
  b.anchor("east", {end_x(east), 0});
  b.anchor("north west", {-corner_x(west), half_h + oy});
  b.anchor("south west", {-corner_x(west), -half_h - oy});
  b.anchor("north east", {corner_x(east), half_h + oy});
  b.anchor("south east", {corner_x(east), -half_h - oy});
  // base and mid east/west: the east and west anchors' x at the baseline and half an ex above it
  const double base_y = -(in.text_height - in.text_depth) / 2, mid_y = base_y + 0.5 * in.ex;
  b.anchor("base west", {-end_x(west), base_y});
  b.anchor("base east", {end_x(east), base_y});
  b.anchor("mid west", {-end_x(west), mid_y});
  b.anchor("mid east", {end_x(east), mid_y});
  return b.finish(in);
}

}  // namespace

std::shared_ptr<const ShapeOutline> build_misc(const NodeShapeInput& in) {
  if (in.shape_name == "rounded rectangle") return rounded_rectangle(in);
  if (in.shape_name == "single arrow") return arrow(in, false);
  if (in.shape_name == "double arrow") return arrow(in, true);
  return nullptr;
}

}  // namespace tikzlint::ir::shapes
