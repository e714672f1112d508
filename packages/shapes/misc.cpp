// packages/shapes/misc.cpp: shapes of the arrows library (single and double arrow) as
// pgflibraryshapes.arrows.code.tex computes them. The other shapes of the misc, symbols,
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

}  // namespace

std::shared_ptr<const ShapeOutline> build_misc(const NodeShapeInput& in) {
  if (in.shape_name == "single arrow") return arrow(in, false);
  if (in.shape_name == "double arrow") return arrow(in, true);
  return nullptr;
}

}  // namespace tikzlint::ir::shapes
