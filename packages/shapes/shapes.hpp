// packages/shapes/shapes.hpp: the library shapes' geometry (pgflibraryshapes.*.code.tex and shapes/circuits/),
// internal to packages/shapes/. Each builder reads the node's text box, seps, minimum sizes and its shape's
// parameters, and returns the outline (anchors, anchor border, extent) in shape coordinates,
// relative to the `center` anchor, as its pgf code computes them.
#pragma once
#include <cmath>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/coords.hpp"
#include "ir/nodes.hpp"

namespace tikzlint::ir::shapes {

constexpr double kDeg = 3.14159265358979323846 / 180.0;

// What every builder starts from: pgf's \pgfnodeparttextbox and the keys of /pgf/.
struct Box2 {
  double hw, hh;  // half the text box plus inner sep: (w/2 + inner xsep, (h+d)/2 + inner ysep)
};
inline Box2 inner_half(const NodeShapeInput& in) {
  return {in.text_width / 2 + in.inner_xsep, (in.text_height + in.text_depth) / 2 + in.inner_ysep};
}
inline double param(const NodeShapeInput& in, std::string_view key, double fallback) {
  return in.params ? in.params->number(key, fallback) : fallback;
}
inline std::string text_param(const NodeShapeInput& in, std::string_view key, std::string_view fallback) {
  return in.params ? in.params->text(key, fallback) : std::string(fallback);
}
inline Point polar(double angle_deg, double r) { return {r * std::cos(angle_deg * kDeg), r * std::sin(angle_deg * kDeg)}; }

// Assembles an outline: named anchors, the anchor border and the background path's points.
struct OutlineBuilder {
  ShapeOutline o;
  std::vector<Point> path;  // points of the background path (curves sampled)
  void anchor(const std::string& name, Point p) { o.anchors.emplace_back(name, p); }
  void arc(std::vector<Point>& into, Point c, double rx, double ry, double from_deg, double to_deg, int n = 48) const;
  std::shared_ptr<const ShapeOutline> finish(const NodeShapeInput& in);
};

// pgf's \pgfpointintersectionoflines of (p1,p2) and (q1,q2); p1 when parallel.
Point intersect_lines(Point p1, Point p2, Point q1, Point q2);
// The polygon of `pts` grown outwards by `sep` with mitred corners (pgf's anchor borders put the
// outer sep along each side's normal; counter-clockwise polygons).
std::vector<Point> mitre_outwards(const std::vector<Point>& pts, double sep);
// `p` turned by `deg` degrees about the origin (shape border rotate).
Point rotated(Point p, double deg);

// One builder per shape family; shape_name selects within the family. nullptr = not this family.
std::shared_ptr<const ShapeOutline> build_geometric(const NodeShapeInput& in);
std::shared_ptr<const ShapeOutline> build_circuit(const NodeShapeInput& in);
std::shared_ptr<const ShapeOutline> build_misc(const NodeShapeInput& in);

}  // namespace tikzlint::ir::shapes
