// checks/scene.hpp: the diagram as a reader sees it, shared by the rules.
// Visible strokes (each straight edge separately), text labels read by label_text.hpp, the
// vertices where drawn lines meet, and the association of each label with the element it most
// plausibly names. Built once per rule run from an ir::Diagram; spatially indexed (STRtree).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "checks/geometry.hpp"
#include "checks/label_text.hpp"
#include "ir/diagram.hpp"

namespace tikzlint::checks {

enum class StrokeKind {
  straight,  // a segment, or one edge of a polyline, rectangle or 3D face
  arc,       // part of a circle or ellipse
  round,     // a full circle or ellipse
  curve,     // Bezier curve or plot
  grid,      // one line of a grid (background, never a label's target)
  mark,      // a right-angle mark
};
const char* to_string(StrokeKind k);

struct Stroke {
  std::size_t element = 0;  // index into Diagram::elements
  int piece = 0;            // edge number within the element
  StrokeKind kind = StrokeKind::straight;
  std::vector<geo::Point> pts;
  ir::Box bounds;
  double length = 0;
  bool drawn = true;   // stroked (false: only the edge of a fill)
  bool arrow = false;  // has an arrow tip: a dimension line or a pointer
};

struct Label {
  std::size_t node = 0;  // index into Diagram::nodes
  LabelText text;
  ir::Box box;     // border box
  ir::Box glyphs;  // glyph box (border box minus inner sep)
  geo::Point center;
};

// A vertex: where straight strokes end or meet, or a vertex dot (a small node without text).
struct Vertex {
  geo::Point p;
  int degree = 0;        // number of straight stroke ends at it
  bool dot = false;      // a vertex dot or the owner of a label= label
  double reach = 0;      // length of the longest straight stroke ending at it
};

enum class TargetKind { stroke, vertex, region, owner };
struct Target {
  TargetKind kind = TargetKind::stroke;
  std::size_t index = 0;  // stroke, vertex, element or (owner) node index
  double gap = 0;         // pt between the label's box and the target (0: touching or inside)
  double center_gap = 0;  // pt from the label's centre to the target
};

struct Association {
  std::optional<Target> best;
  std::optional<Target> rival;  // the nearest candidate of a different meaning, if any
  bool caption = false;         // an area statement outside every shape: a caption
  bool enclosed = false;        // a bare number between opposite lines: it numbers a cell
};

class Scene {
 public:
  explicit Scene(const ir::Diagram& d);
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  const ir::Diagram& diagram() const { return *d_; }
  const std::vector<Stroke>& strokes() const { return strokes_; }
  const std::vector<Label>& labels() const { return labels_; }
  const std::vector<Vertex>& vertices() const { return vertices_; }
  // Extent of everything visible (strokes and labels); nullopt when nothing is drawn.
  const std::optional<ir::Box>& extent() const { return extent_; }

  // Strokes whose bounds come within `radius` of box `b` (STRtree query).
  std::vector<std::size_t> strokes_near(const ir::Box& b, double radius) const;
  std::vector<std::size_t> vertices_near(const ir::Box& b, double radius) const;
  // Visible closed shapes (element indices) whose bounds meet box `b`.
  std::vector<std::size_t> regions_near(const ir::Box& b) const;
  // Gap in pt between a label's box and a stroke, and from the label's centre.
  double gap(const Label& l, const Stroke& s) const;
  double center_gap(const Label& l, const Stroke& s) const;

  // The element a label most plausibly belongs to, with candidates chosen by the label's kind:
  // - angles: arcs and right-angle marks, then corners where lines meet;
  // - lengths: straight strokes the label lies beside (its centre projects inside the stroke),
  //   then, for a number inside a closed shape away from its sides, the shape (an area or a
  //   count), then any stroke;
  // - areas: the closed shape that contains them (outside every shape they are captions);
  // - names: the nearest of a salient vertex (dot, label owner, corner), a line or a shape.
  // A label given by label= or pin= belongs to its owner. `attach` is the distance within which
  // a label reads as attached; candidates are searched three times as far.
  Association associate(const Label& l, double attach) const;

  // Straight drawn strokes meeting a point (an end or an interior point within `tol`), as
  // rays pointing away from it; used for angles at a vertex. Strokes of element `skip` (e.g.
  // the angle mark itself) are left out.
  struct Ray {
    geo::Point dir;     // from p to the stroke's far end
    double length = 0;  // the whole stroke's length
    std::size_t stroke = 0;
  };
  std::vector<Ray> rays_at(geo::Point p, double tol, std::optional<std::size_t> skip = std::nullopt) const;

 private:
  const ir::Diagram* d_;
  std::vector<Stroke> strokes_;
  std::vector<Label> labels_;
  std::vector<Vertex> vertices_;
  std::optional<ir::Box> extent_;
  geo::SpatialIndex stroke_index_;
  geo::SpatialIndex vertex_index_;
  geo::SpatialIndex region_index_;
};

// True when the element is painted (drawn or filled, not an invisible \path).
bool visible(const ir::Element& e);
// A node whose text a reader sees.
bool has_text(const ir::Node& n);

}  // namespace tikzlint::checks
