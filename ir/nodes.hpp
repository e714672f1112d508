// ir/nodes.hpp: node shapes and their anchors (pgfmanual 71 "Shape Library", pgfmoduleshapes).
// All offsets are in the node's own (shape) coordinates, relative to the `center` anchor; the
// caller applies the node's rotation/scale when `transform shape` or node options ask for it.
#pragma once
#include <optional>
#include <string_view>

#include "ir/diagram.hpp"

namespace tikzlint::ir {

struct NodeShapeInput {
  NodeShape shape = NodeShape::rectangle;
  double text_width = 0, text_height = 0, text_depth = 0;  // typeset text, pt
  double inner_xsep = 0, inner_ysep = 0;                   // pt
  double outer_xsep = 0, outer_ysep = 0;                   // pt
  double minimum_width = 0, minimum_height = 0;            // pt
  double ex = 4.30554;                                     // for the `mid` anchors
};

struct NodeShapeGeometry {
  NodeShape shape = NodeShape::rectangle;
  // Half extents of the drawn border (rectangle), or the radii (circle: rx == ry; ellipse).
  double half_width = 0, half_height = 0;
  double outer_xsep = 0, outer_ysep = 0;
  // Offset of the text baseline (`base` anchor) below/above the center: base.y - center.y.
  double base_dy = 0;
  double ex = 4.30554;
};

// pgfmanual 17.2.3: rectangle = text + 2 inner sep, floored by minimum width/height; circle
// radius = |(w/2 + inner xsep, (h+d)/2 + inner ysep)| floored by half the minimum sizes;
// ellipse radii = sqrt2 * (w/2 + inner xsep, (h+d)/2 + inner ysep), floored likewise.
NodeShapeGeometry node_shape_geometry(const NodeShapeInput& in);

// The anchor's offset from the center (`north`, `south west`, `base`, `mid east`, `text`,
// `30` ...). Anchors lie on the border plus outer sep, as in pgf. nullopt for unknown names.
std::optional<Point> anchor_offset(const NodeShapeGeometry& g, std::string_view anchor);

// The border point (outer sep included) in direction `angle_deg` from the center.
Point border_point(const NodeShapeGeometry& g, double angle_deg);
// The border point on the ray from the center along `dir` (shape coordinates).
Point border_toward(const NodeShapeGeometry& g, Point dir);

// The anchor that makes a label at border angle `angle_deg` face away (pgfmanual 17.10.2:
// within 2 degrees of a major angle the major anchor, else the combined one).
const char* label_anchor_for_angle(double angle_deg);
// Direction names used by labels and pins: "above" -> 90, "below left" -> 225 ...
std::optional<double> direction_angle(std::string_view name);

}  // namespace tikzlint::ir
