// ir/nodes.hpp: node shapes and their anchors (pgfmanual 71 "Shape Library", pgfmoduleshapes).
// All offsets are in the node's own (shape) coordinates, relative to the `center` anchor; the
// caller applies the node's rotation/scale when `transform shape` or node options ask for it.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/diagram.hpp"

namespace tikzlint::tex {
struct ExpandedDocument;
}

namespace tikzlint::ir {

// The values of the library shapes' own keys (`regular polygon sides`, `star point ratio`,
// `shape border rotate`, `logic gate inputs` ...), as pgfkeys holds them: lengths in pt, numbers,
// or the text as written. Shared and copied on write, since Settings are copied at every scope.
struct ShapeParameters {
  std::map<std::string, double, std::less<>> numbers;
  std::map<std::string, std::string, std::less<>> texts;
  double number(std::string_view key, double fallback) const {
    auto it = numbers.find(key);
    return it == numbers.end() ? fallback : it->second;
  }
  std::string text(std::string_view key, std::string_view fallback) const {
    auto it = texts.find(key);
    return it == texts.end() ? std::string(fallback) : it->second;
  }
};

using Evaluate = std::function<std::optional<double>(const std::string&)>;
// Records `key=value` when key is a shape parameter (evaluating lengths with `dim`, numbers with
// `num`); false for any other key. shape_keys.cpp lists the keys and their pgf initial values.
bool record_shape_parameter(std::shared_ptr<const ShapeParameters>& params, std::string_view key,
                            const std::string& value, const Evaluate& dim, const Evaluate& num);

// A library shape's border and anchors in shape coordinates (relative to `center`), built once
// per node by the shape's code in packages/shapes/ from its pgf definition.
struct ShapeOutline {
  std::vector<std::pair<std::string, Point>> anchors;  // named anchors, outer sep included as pgf
  std::vector<Point> border;  // pgf's anchor border (outer sep included), a closed polygon
  Box path_box;               // extent of the background path (no outer sep)
  Box outer_box;              // extent with the outer sep (what the picture's bounding box sees)
  // The shape puts its text somewhere of its own that is not modelled (a circuitikz transistor
  // writes it beside the symbol): a node of this shape with text is unplaced for the rules.
  bool text_unplaced = false;
  // The shape paints a symbol of its own inside its box, whatever `draw` says (a circuitikz
  // transistor's leads, an op amp's triangle), whose strokes are not modelled as elements.
  bool paints_symbol = false;
  // Anchors the shape has in pgf but whose place is not modelled (pgfplots' `current axis.outer
  // north east`, which rests on the axis' own bounding box): a reference is reported as such.
  std::vector<std::string> unmodelled_anchors;
};

struct NodeShapeInput;
// Where library shapes come from (the packages' registry, ir/package.hpp): the outline of
// `in.shape_name`, or null when no package models it.
class ShapeLibrary {
 public:
  virtual ~ShapeLibrary() = default;
  virtual std::shared_ptr<const ShapeOutline> outline(const NodeShapeInput& in) const = 0;
  // Whether a package the document loads defines a shape of this name: TikZ reads an unknown key
  // that names a shape as `shape=<key>` (tikz.code.tex, /tikz/.unknown: \pgf@sh@s@<key> defined),
  // as circuitikz's `node[ground]`. Only where the package is loaded: elsewhere `box` is a key
  // TeX does not know, not circuitikz's shape.
  virtual bool names_shape(std::string_view name, const tex::ExpandedDocument& doc) const { return false; }
};

struct NodeShapeInput {
  const ShapeLibrary* library = nullptr;            // null: no library shapes (sized as rectangles)
  NodeShape shape = NodeShape::rectangle;
  std::string shape_name;                           // "diamond", "and gate US" ... ("" = by shape)
  std::shared_ptr<const ShapeParameters> params;    // null: every parameter at its initial value
  double line_width = 0.4;                          // \pgflinewidth at the node (pt)
  double font_size_pt = 10;                         // the node's font (IEC gate symbols)
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
  // A library shape's border and named anchors; null for rectangle, circle, ellipse, coordinate.
  std::shared_ptr<const ShapeOutline> outline;
};

// pgfmanual 17.2.3: rectangle = text + 2 inner sep, floored by minimum width/height; circle
// radius = |(w/2 + inner xsep, (h+d)/2 + inner ysep)| floored by half the minimum sizes;
// ellipse radii = sqrt2 * (w/2 + inner xsep, (h+d)/2 + inner ysep), floored likewise.
NodeShapeGeometry node_shape_geometry(const NodeShapeInput& in);

// The corner q (q.x, q.y = +-1) of the node's box in shape coordinates, grown by (ox, oy): the
// drawn border's extent for (0, 0), the anchors' for the outer seps. Library shapes need not be
// symmetric about their center (an isosceles triangle's apex, a callout's pointer).
Point box_corner(const NodeShapeGeometry& g, Point q, double ox, double oy);

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
