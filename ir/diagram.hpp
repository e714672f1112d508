// ir/diagram.hpp: the geometric IR. Everything is in TeX points (1in = 72.27pt) with every
// transform resolved; checks read only this. Each element carries its provenance.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "support/diagnostic.hpp"
#include "support/source.hpp"

namespace tikzlint::ir {

constexpr double kPtPerIn = 72.27;
constexpr double kPtPerCm = 72.27 / 2.54;
constexpr double kPtPerBp = 72.27 / 72.0;

struct Point {
  double x = 0, y = 0;
};
struct Point3 {
  double x = 0, y = 0, z = 0;
};

struct Box {  // axis-aligned, in pt
  double xmin = 0, ymin = 0, xmax = 0, ymax = 0;
  double width() const { return xmax - xmin; }
  double height() const { return ymax - ymin; }
};

struct Style {
  bool draw = false;         // stroked
  bool fill = false;         // filled (or shaded)
  std::string draw_color;    // as written ("black", "red!50")
  std::string fill_color;
  double line_width = 0.4;   // pt (pgfmanual: thin = 0.4pt)
  std::string dash;          // "" solid, "dashed", "dotted", or "on 2pt off 1pt"
  bool arrow_start = false, arrow_end = false;
  double opacity = 1.0;
  bool invisible = false;    // \path without draw/fill: geometry exists but nothing is painted
};

// --- geometry kinds ---
struct Segment {
  Point a, b;
};
struct Polyline {  // consecutive straight segments of one path
  std::vector<Point> points;
  bool closed = false;          // ends with cycle
  bool explicit_cycle = false;  // closed by `cycle` (not by repeating the first point)
};
struct Rectangle {  // `rectangle` path op; corners in order after transforms (may be rotated)
  std::array<Point, 4> corners;
};
struct Circle {
  Point center;
  double radius = 0;
};
struct Ellipse {
  Point center;
  double rx = 0, ry = 0;
  double rotation_deg = 0;
};
struct Arc {
  Point center;
  double rx = 0, ry = 0;
  double start_deg = 0, end_deg = 0;  // as written; sweep = end - start (signed)
  double rotation_deg = 0;
  Point from, to;  // endpoints in pt
  double sweep_deg() const { return end_deg - start_deg; }
};
struct Bezier {
  Point p0, c1, c2, p1;
};
struct Grid {
  std::array<Point, 4> corners;
  double step_x = 0, step_y = 0;  // pt, along the grid's axes
};
struct RightAngleMark {  // a small square at a corner, or pgf's right-angle symbol
  Point corner;          // the vertex of the right angle
  Point leg_a, leg_b;    // the mark's two outer points on the legs
  double size = 0;       // pt
};
struct Face3D {  // a filled polygon drawn in a 3D frame
  // in the picture's 3D frame when the scope's is known there (Settings::frame3), else the scope's
  std::vector<Point3> points3;
  std::vector<Point> points;    // projected, pt
};
struct Plot {  // sampled curve (plot, parabola, sin/cos, to with bends)
  std::vector<Point> points;
};

using Geometry = std::variant<Segment, Polyline, Rectangle, Circle, Ellipse, Arc, Bezier, Grid,
                              RightAngleMark, Face3D, Plot>;

struct Element {
  Geometry geom;
  Style style;
  Provenance prov;
  std::uint32_t path_id = 0;  // elements of one path statement share it
  bool incomplete = false;    // something in its statement was unsupported
  // Its statement names a node whose place or size is not known (a key of that node was not
  // read: a package's shape or style): where it is drawn is a guess (implies incomplete).
  bool unplaced_reference = false;
  // "data" for a mark a plot handler draws from its data points (a bar, a comb's tooth): its size
  // is a value of the data, not a shape the author constructed; "data fill" for a region pgfplots
  // fills from its data on its `pre main` layer (fill between): a "data" shape painted under the
  // axis' main-layer content (its nodes, plots) whatever the source order; "line" for a straight
  // line drawn on past both of the points that define it (tkz-euclide's \tkzDrawLine and its
  // `add`): its ends are free, no corners of an outline; "" otherwise.
  std::string role;
  // The clips in force where it was drawn (indices into Diagram::clips: the \clip paths of its
  // scope and the scopes around it, a pgfplots axis' clip of its plots). TeX paints only the part
  // inside all of them. clip_unknown: a clip the lowering could not read is in force too (where
  // the element is visible is not known).
  std::vector<std::uint32_t> clips;
  bool clip_unknown = false;
  // Its layer's place in the picture's layers (tex::Picture::layers) counted from main: TeX paints
  // the layers in that order (negative: under main, as `background` under the backgrounds
  // library's list), and in each layer in source order.
  int layer = 0;
};

enum class NodeShape { rectangle, circle, ellipse, coordinate, other };

struct Node {
  std::string text;         // source text between the braces (after macro expansion)
  std::string name;         // (name), may be empty
  NodeShape shape = NodeShape::rectangle;
  Point center;             // pt
  Box box;                  // outer border box (incl. inner sep), axis-aligned, pt
  std::array<Point, 4> corners;  // the box's corners after rotation (== box when unrotated)
  double rotation_deg = 0;
  double text_width = 0, text_height = 0, text_depth = 0;  // typeset text, pt
  double font_size_pt = 10; // final size of the text
  double uncertainty_pt = 0;  // how far the box may be off (unknown commands or fonts)
  double inner_sep = 0, outer_sep = 0;
  bool drawn = false, filled = false;  // border drawn / background filled
  bool is_label = false;    // from label= or pin= of another node
  // What a package typeset the node as, when it is part of the package's own furniture rather
  // than a label the author placed: "tick label", "axis label", "legend" (a pgfplots axis, a data
  // visualization), "calendar day", "calendar month label" (a calendar), "arrow marking" (a glyph
  // tikz-cd sets across its own arrow: overlap does not count that arrow through it). Such
  // text is seen by the rules on text (in_frame, overlap, readable_size) but names no geometry.
  std::string role;
  std::optional<std::uint32_t> label_of;  // index of the node this is a label of
  std::optional<std::uint32_t> on_path;   // path_id of the path it was placed on (midway, pos=)
  // A character a text decoration (decorations.text: text along path, text effects along path)
  // set along a path: that path's path_id, and the index of the run's first node (one run per
  // decoration drawn). The decoration spaces a run's letters by their own widths along the path,
  // which is their baseline: the letters' text, not a label of anything.
  struct AlongPath {
    std::uint32_t path_id = 0;
    std::uint32_t run = 0;
  };
  std::optional<AlongPath> along_path;
  // The layout that placed the node among its fellows, "" for none: "chain" (a node `on chain`),
  // "matrix" (a cell of a \matrix). Such a node is an element of that layout carrying its text
  // (a chain's member, a table's entry), not a label placed beside another element.
  std::string placed_by;
  // Its shape paints a symbol of its own whose strokes are not elements of the IR
  // (ShapeOutline::paints_symbol: a circuitikz transistor, ground, op amp): text beside it may
  // name that symbol, text at its anchors numbers its pins.
  bool symbol = false;
  double pos_on_path = -1;  // 0..1 when placed on a path segment
  std::string placement;    // "above", "below left", "anchor=west", "" ...
  Provenance prov;
  bool incomplete = false;
  bool unplaced_reference = false;  // as Element::unplaced_reference
  int layer = 0;                    // as Element::layer
};

struct NamedCoordinate {
  std::string name;
  Point p;
  Provenance prov;
};

struct ClipRegion {
  std::vector<Point> polygon;  // pt; rectangles and circles are polygonised
  bool is_rectangle = false;
  Box bounds;
  Provenance prov;
  // "" for a \clip of the picture; "pgfplots axis" for an axis's clip of its plots, which bounds
  // the plots only and is never the picture's canvas.
  std::string owner;
  // A rectangle clip to the picture's bounding box so far (`\clip (current bounding
  // box.south west) rectangle (current bounding box.north east)`, tkz-euclide's \tkzClipBB): the
  // author fixes what is drawn so far as the frame, and what is drawn later is cropped to it on
  // purpose.
  bool to_bounding_box = false;
};

// Something the lowering could not represent; rules that depend on it say indeterminate.
struct Unsupported {
  std::string what;  // e.g. "path operation 'decorate'"
  SourceRange range;
};

// The page's text block, where the document sets it (the geometry package's options on its
// paper): the width and height a picture in the document is shown within.
struct TextBlock {
  double width = 0, height = 0;  // pt; height 0 when not known
  std::string source;            // "geometry on letter paper"
};

struct Diagram {
  std::vector<Element> elements;
  std::vector<Node> nodes;
  std::vector<NamedCoordinate> coordinates;
  std::vector<ClipRegion> clips;
  std::optional<Box> canvas;          // the frame: first clip / bounding box / page, else none
  std::string canvas_source;          // "clip", "use as bounding box", "page", ""
  Box picture_bbox;                   // TikZ's own bounding box (pgfmanual 15.4)
  bool has_picture_bbox = false;
  bool is_3d = false;                 // drew with a z vector
  // Page images (pt) of the unit x, y and z vectors of the picture's xyz frame (pgfmanual 25.2),
  // when is_3d. Lets rules read true lengths of edges along the axes (foreshortened on the page).
  std::optional<std::array<Point, 3>> xyz_vectors;
  bool uses_axis = false;             // a pgfplots axis (not lowered)
  // What a package says the picture draws: "circuit" (circuitikz's components: the labels,
  // voltages and currents it places beside them); "" when no package says.
  std::string drawn_as;
  double base_font_size_pt = 10;
  // The document the picture is shown in: its class ("IM", "article", "standalone", "" for a
  // bare snippet) and class options; decides the display width (checks: readable_size).
  std::string document_class;
  std::vector<std::string> class_options;
  // Set by the document (the geometry package); nullopt: the class's default text block.
  std::optional<TextBlock> text_block;
  // Text shares the picture's paragraph (tex::Picture::text_beside): set inline, the picture's
  // page (a standalone one) extends past its bounding box left and right by that text.
  bool text_beside = false;
  std::vector<Unsupported> unsupported;
  std::vector<Diagnostic> diagnostics;  // unsupported-* and lowering problems, located
  FileId file = 0;
};

}  // namespace tikzlint::ir
