// ir/library.hpp: how a package model (packages/, ir/package.hpp) talks to the picture being
// lowered: LibraryHost. Library constructs (\graph, \matrix, \datavisualization, \calendar, child
// trees, pgf basic-layer commands, a pgfplots axis) are lowered by rewriting them into the plain
// TikZ statements that lower.cpp already knows, the way the libraries themselves expand into
// \node / \draw / scope code, so that a package never reaches into PictureLowerer's state.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/lowering.hpp"
#include "tex/tex.hpp"

namespace tikzlint::ir {

// The size of a node as TikZ would typeset it, relative to its anchor point (canvas pt, before
// it is placed): the anchor's offset from the node's center is part of the answer.
struct NodeExtent {
  Box box;        // the border box around the anchor at (0,0)
  Point center;   // the node's center relative to the anchor
  double text_width = 0, text_height = 0, text_depth = 0;
};

class LibraryHost {
 public:
  virtual ~LibraryHost() = default;

  // The settings in force where the construct stands (transform, vectors, node distance, fonts).
  virtual const Settings& settings() const = 0;

  // Lower one synthetic statement now, as if it were written where the construct stands:
  //   "\\draw[->] (a) -- (b);"  "\\node[draw] (a) at (1cm,0) {x};"  (';'-terminated path statement)
  //   "\\begin{scope}[xshift=1cm]"  and  "\\end{scope}"  (scope begin / end; keep them balanced)
  // Its diagnostics and provenance point at [b, e) of the construct's statement text.
  virtual void emit(const std::string& statement, std::uint32_t b, std::uint32_t e) = 0;

  // What `\node[options] {text};` would measure if placed now; nothing is added to the picture.
  virtual std::optional<NodeExtent> measure_node(const std::string& options, const std::string& text) = 0;

  // Lower `statements` (as emit() would, in order) as a trial: the picture-size box (canvas pt) of
  // what they add, as pgf's \pgf@picminx.. would grow; nothing is kept. nullopt when they add nothing.
  virtual std::optional<Box> measure_statements(const std::vector<std::string>& statements) = 0;
  // The same trial, then where `coordinate` ("(a.north)", "(1,2)") lies (canvas pt).
  virtual std::optional<Point> locate(const std::vector<std::string>& statements, const std::string& coordinate) = 0;

  // A named node or coordinate lowered so far: its center and border box (canvas pt).
  virtual std::optional<Point> named_center(const std::string& name) const = 0;
  virtual std::optional<Box> named_box(const std::string& name) const = 0;
  // A node's anchor ("north", "south west", "30", "center", ...) as `(name.anchor)` would give it
  // (canvas pt); nullopt for an unknown node or anchor.
  virtual std::optional<Point> named_anchor(const std::string&, const std::string&) const { return std::nullopt; }

  // The geometry of a path named with `name path` (intersections library) so far: its pieces as
  // polylines (curves sampled), canvas pt; nullopt when no path has that name.
  virtual std::optional<std::vector<std::vector<Point>>> named_path(const std::string&) const { return std::nullopt; }

  // Make `alias` another name of the node or coordinate `existing` (chains' <chain>-<n>), as
  // `alias=` does; nothing when `existing` is unknown.
  virtual void alias_node(const std::string& alias, const std::string& existing) {}
  // A construct the package does not model may have moved the named node or coordinate `name`
  // (tkz-euclide's \tkzPermute redefines the points it names): its place is no longer known, and
  // what is placed from it later is unplaced for the rules (NodeRecord::unplaced).
  virtual void mark_unplaced(const std::string& name) {}

  // A name for a node the package makes without drawing anything (pgfplots' `current axis`, a
  // node of an empty shape): `(name)` is `center` (canvas pt), `(name.anchor)` an anchor of
  // `outline`, whose offsets from the center `shape` (its linear part) maps to canvas offsets.
  // Nothing is added to the picture; a later node of the same name replaces it.
  virtual void name_node(const std::string& name, Point center, const Transform& shape,
                         std::shared_ptr<const ShapeOutline> outline) {}

  // Definitions that outlive the picture and hold for the rest of the document, one table per
  // kind (pgf defines them globally: `\datavisualization data group {name} = {...}` is
  // \pgfdatagroup's \gdef). Pictures are lowered in document order; null outside a document.
  virtual std::map<std::string, std::string>* document_definitions(const std::string& /*kind*/) { return nullptr; }

  // pgfmath in the current font units: "2*3" -> 6, "1cm" -> 28.45 (is_length).
  virtual std::optional<MathValue> eval(const std::string& expr, std::string* error = nullptr) const = 0;

  // Option text through the style table (user .style keys, /.append style, every ...).
  virtual std::vector<tex::FlatKey> expand_keys(const std::string& options) = 0;

  // A problem at [b, e) of the construct's statement text. "unsupported-*" codes make the
  // picture incomplete for the rules when `incomplete` is set.
  virtual void problem(const std::string& code, const std::string& message, std::uint32_t b, std::uint32_t e,
                       bool incomplete = true) = 0;

  // The text of a data file the construct names (pgfplots' `\addplot table {data.dat}`), looked
  // up as TeX does, next to the input, and read only under the read policy
  // (support/read_policy.hpp): a refused name is a `refused-read` warning, a file that is not
  // there `missing-file`, a file over `max_bytes` `resource-limit`; nullopt then (and outside a
  // document).
  virtual std::optional<std::string> read_data_file(const std::string& name, std::uint32_t b, std::uint32_t e,
                                                    std::size_t max_bytes) {
    return std::nullopt;
  }

  // --- For packages that model an environment with a coordinate frame of its own (a pgfplots
  // axis): its frame, its own drawing and its diagnostics. The defaults do nothing.

  // Open a scope whose settings are `s` (a frame the package computed, e.g. data units per axis);
  // `emit("\\end{scope}")` closes it, as it closes any scope.
  virtual void begin_scope(const Settings& s) {}
  // Add `pieces` as one path of the construct's statement, drawn with `style`; the picture's
  // bounding box does not grow (grow_picture_bbox says what does).
  virtual void add_path(const std::vector<Geometry>& pieces, const Style& style) {}
  // A clip of the rest of the current scope (begin_scope): the elements added after it are clipped.
  virtual void add_clip(const ClipRegion& clip) {}
  virtual void grow_picture_bbox(const Box& box) {}
  // pgf's \pgfinterruptboundingbox ... \endpgfinterruptboundingbox: what is emitted in between
  // does not grow the picture's bounding box (a matrix's cells: only the matrix node does). Nest.
  virtual void begin_interrupt_bbox() {}
  virtual void end_interrupt_bbox() {}
  // The picture-size box (canvas pt) of what grows the picture between begin_bbox_probe() and
  // the matching end_bbox_probe() (a pgfplots axis typeset as a picture of its own: its `outer`
  // and `right of north east` anchors rest on that box). Probes nest; nullopt when nothing grew.
  virtual void begin_bbox_probe() {}
  virtual std::optional<Box> end_bbox_probe() { return std::nullopt; }
  // A diagnostic of the package's own (an "approximate" note, "not lowered" warning). With
  // `unsupported` set it is also what makes the picture incomplete for the rules.
  virtual void report(const Diagnostic& dg, const std::string& unsupported = "") {}
  // Everything lowered so far rests on what the package could not model: unplaced for the rules.
  virtual void mark_incomplete() {}
  // The nodes lowered from `first` on rest on what the package could not model (their place is
  // a guess): unplaced for the rules.
  virtual void mark_nodes_incomplete(std::size_t first) {}
  // The nodes and elements lowered from `first_node` and `first_element` on stand where the package
  // guessed (a placement it models only approximately, reported): their place is not known, and
  // no rule judges them (ir::Node::unplaced_reference, ir::Element::unplaced_reference).
  virtual void mark_unplaced_from(std::size_t first_node, std::size_t first_element) {}
  // The number of nodes lowered so far, and the role (ir::Node::role) of those from `first` on:
  // a package's own furniture (a pgfplots axis's tick labels) emitted as plain nodes.
  virtual std::size_t node_count() const { return 0; }
  // The picture's pgfplots axes are all laid out as pgfplots lays them out: the diagram does not
  // "use an axis that is not lowered" (ir::Diagram::uses_axis) after all.
  virtual void set_uses_axis(bool uses) {}
  // What the picture draws, as the package knows it (ir::Diagram::drawn_as: "circuit").
  virtual void set_drawn_as(const std::string& what) {}
  virtual void set_node_role(std::size_t first, const std::string& role) {}
  // The layout (ir::Node::placed_by: "matrix") that placed the nodes from `first` on, where no
  // inner layout did.
  virtual void set_node_placed_by(std::size_t first, const std::string& layout) {}
  // The same for elements (ir::Element::role): the bars a plot handler draws from its data.
  virtual std::size_t element_count() const { return 0; }
  virtual void set_element_role(std::size_t first, const std::string& role) {}
  // The package placed a point with a z component (\pgfpointxyz, \pgfpointspherical...): the
  // picture is projected from 3D (ir::Diagram::is_3d), as a TikZ (x,y,z) coordinate makes it.
  virtual void mark_3d() {}
};

// A LibraryHost that passes every call on to another one: a package that runs a piece of its own
// model on a construct it synthesised (pgfplots' colorbar, an axis of its own) overrides what it
// must see differently (the problems that construct reports, where its text points).
class ForwardingHost : public LibraryHost {
 public:
  explicit ForwardingHost(LibraryHost& inner) : in_(inner) {}
  const Settings& settings() const override { return in_.settings(); }
  void emit(const std::string& statement, std::uint32_t b, std::uint32_t e) override { in_.emit(statement, b, e); }
  std::optional<NodeExtent> measure_node(const std::string& options, const std::string& text) override {
    return in_.measure_node(options, text);
  }
  std::optional<Box> measure_statements(const std::vector<std::string>& statements) override {
    return in_.measure_statements(statements);
  }
  std::optional<Point> locate(const std::vector<std::string>& statements, const std::string& coordinate) override {
    return in_.locate(statements, coordinate);
  }
  std::optional<Point> named_center(const std::string& name) const override { return in_.named_center(name); }
  std::optional<Box> named_box(const std::string& name) const override { return in_.named_box(name); }
  std::optional<Point> named_anchor(const std::string& n, const std::string& a) const override {
    return in_.named_anchor(n, a);
  }
  std::optional<std::vector<std::vector<Point>>> named_path(const std::string& n) const override {
    return in_.named_path(n);
  }
  void alias_node(const std::string& alias, const std::string& existing) override { in_.alias_node(alias, existing); }
  void mark_unplaced(const std::string& name) override { in_.mark_unplaced(name); }
  void name_node(const std::string& name, Point center, const Transform& shape,
                 std::shared_ptr<const ShapeOutline> outline) override {
    in_.name_node(name, center, shape, std::move(outline));
  }
  std::map<std::string, std::string>* document_definitions(const std::string& kind) override {
    return in_.document_definitions(kind);
  }
  std::optional<MathValue> eval(const std::string& expr, std::string* error = nullptr) const override {
    return in_.eval(expr, error);
  }
  std::vector<tex::FlatKey> expand_keys(const std::string& options) override { return in_.expand_keys(options); }
  void problem(const std::string& code, const std::string& message, std::uint32_t b, std::uint32_t e,
               bool incomplete = true) override {
    in_.problem(code, message, b, e, incomplete);
  }
  std::optional<std::string> read_data_file(const std::string& name, std::uint32_t b, std::uint32_t e,
                                            std::size_t max_bytes) override {
    return in_.read_data_file(name, b, e, max_bytes);
  }
  void begin_scope(const Settings& s) override { in_.begin_scope(s); }
  void add_path(const std::vector<Geometry>& pieces, const Style& style) override { in_.add_path(pieces, style); }
  void add_clip(const ClipRegion& clip) override { in_.add_clip(clip); }
  void grow_picture_bbox(const Box& box) override { in_.grow_picture_bbox(box); }
  void begin_interrupt_bbox() override { in_.begin_interrupt_bbox(); }
  void end_interrupt_bbox() override { in_.end_interrupt_bbox(); }
  void begin_bbox_probe() override { in_.begin_bbox_probe(); }
  std::optional<Box> end_bbox_probe() override { return in_.end_bbox_probe(); }
  void report(const Diagnostic& dg, const std::string& unsupported = "") override { in_.report(dg, unsupported); }
  void mark_incomplete() override { in_.mark_incomplete(); }
  void mark_nodes_incomplete(std::size_t first) override { in_.mark_nodes_incomplete(first); }
  void mark_unplaced_from(std::size_t first_node, std::size_t first_element) override {
    in_.mark_unplaced_from(first_node, first_element);
  }
  std::size_t node_count() const override { return in_.node_count(); }
  void set_uses_axis(bool uses) override { in_.set_uses_axis(uses); }
  void set_drawn_as(const std::string& what) override { in_.set_drawn_as(what); }
  void set_node_role(std::size_t first, const std::string& role) override { in_.set_node_role(first, role); }
  void set_node_placed_by(std::size_t first, const std::string& layout) override {
    in_.set_node_placed_by(first, layout);
  }
  std::size_t element_count() const override { return in_.element_count(); }
  void set_element_role(std::size_t first, const std::string& role) override { in_.set_element_role(first, role); }
  void mark_3d() override { in_.mark_3d(); }

 protected:
  LibraryHost& in_;
};

// Reading a construct's text (library_text.cpp): the same brace rules for every library.
std::string_view text_trim(std::string_view s);
// A number for synthetic TikZ text: five decimals, no unit, -0 and tiny values as 0.
std::string text_number(double v);
std::size_t text_skip_space(const std::string& t, std::size_t i);
// The index after the group opening at t[i] ('{', '[' or '('); braces nest inside '[' and '(';
// npos when it does not close.
std::size_t text_skip_group(const std::string& t, std::size_t i);

}  // namespace tikzlint::ir
