// checks/scene.hpp: the diagram as a reader sees it, shared by the rules.
// Visible strokes (each straight edge separately), text labels read by label_text.hpp, the
// vertices where drawn lines meet, and the association of each label with the element it most
// plausibly names. Built once per diagram (see SceneCache); spatially indexed (STRtree).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "checks/geometry.hpp"
#include "checks/label_text.hpp"
#include "ir/diagram.hpp"
#include "support/diagnostic.hpp"

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

// What a picture is, read once from its elements (Scene::picture()). Measurement rules apply to
// geometric figures only: in a graph, a plot, a flowchart or a table the numbers are weights,
// ticks, values or indices, not lengths.
enum class PictureKind {
  geometric,  // shapes drawn as lines, arcs, circles (a triangle, a prism, a construction)
  graph,      // text nodes joined by edges (a graph, tree, automaton)
  flowchart,  // drawn boxes with text joined by arrows
  plot,       // axes with evenly spaced tick labels, or a pgfplots axis
  table,      // text nodes in rows and columns (a matrix)
  circuit,    // a package's circuit components (circuitikz) joined by wires
  other,      // nothing that tells (text only, nothing drawn)
};
const char* to_string(PictureKind k);
struct PictureReading {
  PictureKind kind = PictureKind::other;
  std::string evidence;  // why, in words (shown by `tikzlint ir`, quoted in n/a reasons)
};

// What a numeric label (a length, area or angle by its text) states. Only `measurement` is a
// length, area or angle a rule may compare with the drawing; the others are numbers that do not
// state a size (pgfmanual readers' conventions: tick labels, vertex numbers, edge weights).
enum class LabelRole {
  measurement,  // on evidence: a unit or degree sign, a dimension line, placement along a side
  tick,         // one of evenly spaced numbers in a row or column (an axis, a number line)
  index,        // a number inside a drawn node (a vertex, face or state number)
  weight,       // a number on an edge of a graph, flowchart or automaton
  equation,     // "T=1", "w0 = 0": a value given to a name, with no placement on a side
  number,       // a number with no evidence of stating a size (a title, a value, a count)
  none,         // not numeric: a name or a caption
};
const char* to_string(LabelRole r);
struct LabelReading {
  LabelRole role = LabelRole::none;
  std::string evidence;
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

// The diagram as the rules see it. Constructing a Scene is cheap while a SceneCache for the
// same diagram is alive on this thread (the driver holds one around the rules of each diagram):
// every rule's `Scene scene(d)` then shares one build (strokes, labels, vertices, three
// STRtrees) and its memoised associations. Without a cache each Scene builds its own.
// The distance GEOS's DistanceOp gives between an axis-aligned box (as Shape::box makes it) and
// a polyline (Shape::line), computed the same way without building either geometry: zero when
// the polyline's first point is in or on the box, else the least Distance::segmentToSegment
// over the box's sides and the polyline's segments. nullopt when the box is not a proper finite
// rectangle or the polyline has fewer than two points (then ask GEOS).
std::optional<double> box_polyline_distance(const ir::Box& b, const std::vector<geo::Point>& pts);

// The length of a polyline inside an axis-aligned box (closed), clipping each segment exactly
// (a segment run twice counts twice; GEOS's overlay, which dissolves them, never gives more than
// this beyond rounding). nullopt when the box is not a proper finite rectangle or a point is not
// finite. Lets a rule skip the GEOS overlay for strokes that cannot reach a limit.
std::optional<double> box_clip_length(const ir::Box& b, const std::vector<geo::Point>& pts);

// The scene's spatial index: answers like geo::SpatialIndex (ids whose boxes meet the query box,
// closed, ascending). The few dozen items of a typical diagram are scanned; larger sets get a
// packed R-tree (sort-tile-recursive, built on the first query after inserts), which answers a
// query in a few hundred instructions where a GEOS STRtree query costs thousands (a probe
// geometry, a callback per hit). Boxes with non-finite coordinates go to GEOS's STRtree.
class BoxIndex {
 public:
  void insert(const ir::Box& b, std::size_t id);
  std::vector<std::size_t> query(const ir::Box& b) const;

  static constexpr std::size_t kScanLimit = 64;
  static constexpr std::size_t kFanout = 16;

 private:
  struct Item {
    ir::Box env;  // normalised envelope (min <= max), as the STRtree stores it
    ir::Box box;  // as inserted (for the STRtree)
    std::size_t id;
  };
  void build() const;
  std::vector<Item> items_;
  bool finite_ = true;
  // The R-tree: levels_[0] holds the items' envelopes in tile order (order_ maps them back to
  // items_), levels_[k + 1][i] the union of levels_[k][i * kFanout ..].
  mutable std::vector<std::vector<ir::Box>> levels_;
  mutable std::vector<std::size_t> order_;
  mutable std::vector<std::size_t> ids_;  // the items' ids in tile order
  mutable bool built_ = false;
  mutable std::unique_ptr<geo::SpatialIndex> tree_;
};

class Scene {
 public:
  // The most label-stroke gaps memoised per diagram (a cache: past it gaps are recomputed).
  static constexpr std::size_t kGapMemoLimit = 1u << 20;
  // The most strokes an association weighs for one label: the nearest by their bounds. Only a
  // dense picture has more within reach of a label (thousands of arcs 0.01 mm apart); no output
  // on the dev set or the fixtures changes with it.
  static constexpr std::size_t kMaxStrokeCandidates = 256;
  explicit Scene(const ir::Diagram& d);
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  const ir::Diagram& diagram() const { return *d_; }
  const std::vector<Stroke>& strokes() const { return s_->strokes; }
  const std::vector<Label>& labels() const { return s_->labels; }
  // Text a package set as its own furniture (tick and axis labels, calendar days): not among
  // labels(), since it names no geometry, but visible text all the same.
  const std::vector<Label>& furniture() const { return s_->furniture; }
  const std::vector<Vertex>& vertices() const { return s_->vertices; }
  // Extent of everything visible (strokes and labels); nullopt when nothing is drawn.
  const std::optional<ir::Box>& extent() const { return s_->extent; }

  // Strokes whose bounds come within `radius` of box `b` (STRtree query).
  std::vector<std::size_t> strokes_near(const ir::Box& b, double radius) const;
  std::vector<std::size_t> vertices_near(const ir::Box& b, double radius) const;
  // Visible closed shapes (element indices) whose bounds meet box `b`.
  std::vector<std::size_t> regions_near(const ir::Box& b) const;
  // geo::element_region of a visible element, made once per diagram (nullopt for the others).
  const std::optional<std::vector<geo::Point>>& region(std::size_t element) const;
  // Gap in pt between a label's box and a stroke, and from the label's centre.
  double gap(const Label& l, const Stroke& s) const;
  // Whether gap(l, s) is certainly more than `limit`, known from the bounds alone (their gap,
  // with a margin for rounding); false when the exact gap must be computed to tell.
  bool gap_exceeds(const Label& l, const Stroke& s, double limit) const;
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
  // Memoised per (label of labels(), attach) in the shared build.
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

  // What the picture is (read once per build).
  const PictureReading& picture() const;
  // Node `ni` is joined by an edge: a line ends at its border (pgf stops edges there), so it is a
  // vertex of a graph, tree or figure that carries its own text, not a label beside one.
  bool joined(std::size_t ni) const;
  // What label `l` (one of labels()) states; role none for a label that is not one of them.
  const LabelReading& reading(const Label& l) const;
  // The label states a measurement in a geometric figure: what the measurement rules compare.
  bool measures(const Label& l) const {
    return picture().kind == PictureKind::geometric && reading(l).role == LabelRole::measurement;
  }
  // The reading as JSON ({"picture": {kind, evidence}, "labels": [...]}) for `tikzlint ir`.
  nlohmann::json reading_json() const;

  // What is built once per diagram (shared through a SceneCache). Not thread-safe: a cache and
  // the Scenes sharing it belong to one thread.
  struct Build {
    std::vector<Stroke> strokes;
    std::vector<Label> labels;
    std::vector<Label> furniture;  // a package's own text (ir::Node::role): seen, names nothing
    std::vector<Vertex> vertices;
    std::optional<ir::Box> extent;
    BoxIndex stroke_index;
    BoxIndex vertex_index;
    BoxIndex region_index;
    std::vector<std::optional<std::vector<geo::Point>>> regions;  // per element: see region()
    // Memo: associate() per (label index, attach); gap() per (label index, stroke index).
    std::map<std::pair<std::size_t, double>, Association> associations;
    std::unordered_map<std::uint64_t, double> gaps;  // at most kGapMemoLimit entries
    // The reading (picture kind, label roles), made on first use (it associates labels).
    bool read = false;
    PictureReading picture;
    std::vector<LabelReading> label_readings;  // parallel to labels
    std::set<std::size_t> joined_nodes;        // nodes an edge ends at (see joined())
  };

 private:
  static std::shared_ptr<Build> build(const ir::Diagram& d);
  Association associate_uncached(const Label& l, double attach) const;
  double box_gap(const Label& l, const Stroke& s) const;
  std::size_t label_index(const Label& l) const;  // labels().size() when `l` is not one of them
  void read() const;  // fills picture / label_readings (checks/scene_reading.cpp)

  const ir::Diagram* d_;
  std::shared_ptr<Build> s_;
  friend class SceneCache;
};

// While alive, the Scenes of `d` constructed on this thread share one build. Nestable (the
// innermost cache of a diagram wins); must be destroyed on the thread that made it, before `d`.
class SceneCache {
 public:
  explicit SceneCache(const ir::Diagram& d);
  ~SceneCache();
  SceneCache(const SceneCache&) = delete;
  SceneCache& operator=(const SceneCache&) = delete;

 private:
  friend class Scene;
  const ir::Diagram* d_;
  std::shared_ptr<Scene::Build> build_;
  SceneCache* outer_;
};

// True when the element is painted (drawn or filled, not an invisible \path).
bool visible(const ir::Element& e);
// A node whose text a reader sees.
bool has_text(const ir::Node& n);

}  // namespace tikzlint::checks
