// ir/lower.cpp: expanded TikZ statements -> ir::Diagram (issue 4 items 2-5, 7).
// Coordinates are resolved into pgf's "local" system (before the current transformation, as
// \tikz@scan@one@point does), then mapped to canvas pt by the transformation in force.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <numbers>
#include <set>

#include "grammar/grammar.hpp"
#include "ir/arrow_tips.hpp"
#include "ir/coords.hpp"
#include "ir/decorations.hpp"
#include "ir/ir.hpp"
#include "ir/library.hpp"
#include "ir/lowering.hpp"
#include "ir/nodes.hpp"
#include "ir/package.hpp"
#include "ir/page.hpp"
#include "ir/textmetrics.hpp"
#include "support/ascii.hpp"
#include "support/read_policy.hpp"
#include "tex/pgfmath.hpp"
#include "tex/styles.hpp"

namespace tikzlint::ir {
namespace {

using grammar::Coordinate;
using grammar::OpKind;
using grammar::PathOp;
constexpr double kDeg = std::numbers::pi / 180.0;
// A clip to `current bounding box` holds the picture so far when its bounds hold that box to
// within this (pt): room for the rounding of the anchors' arithmetic, nothing a reader sees.
constexpr double kBboxClipSlackPt = 0.01;

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }


// "(c)" -> "c": a coordinate written in a key value, for grammar::parse_coordinate.
std::string strip_parens(const std::string& t_in) {
  std::string t(trim(t_in));
  if (t.size() >= 2 && t.front() == '(' && t.back() == ')') return t.substr(1, t.size() - 2);
  return t;
}

std::string fmt_pt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6fpt", v);
  return buf;
}

// A node as later coordinates see it: its shape in its own frame, placed on the canvas.
struct NodeRecord {
  NodeShapeGeometry g;
  Point center;      // canvas
  Transform shape;   // linear: shape coordinates -> canvas offsets
  bool is_point = false;
  // Its place or size is not known (a key that was not read, a layout, an unsupported part of
  // its path): what is placed from it is placed by a guess too.
  bool unplaced = false;
  Point anchor_canvas(const Point& off) const { return center + shape.apply_linear(off); }
  Point border_toward_canvas(Point target) const {
    if (is_point) return center;
    Point dir = shape.inverse().apply_linear(target - center);
    if (length(dir) < 1e-9) return center;
    return center + shape.apply_linear(border_toward(g, dir));
  }
};

// The last path segment, for nodes placed with pos= (pgfmanual 17.8).
struct SegmentRef {
  enum class Kind { none, line, hv, curve, arc, plot } kind = Kind::none;
  Point a, b, corner;  // canvas
  Bezier bez;
  ConjugateEllipse ell;
  double t0 = 0, t1 = 0;
  std::vector<Point> pts;
  bool valid() const { return kind != Kind::none; }
};

// The point at time t on a segment and the tangent angle there.
Point point_on(const SegmentRef& s, double t, double* angle) {
  auto set = [&](Point d) {
    if (angle) *angle = angle_deg(d);
  };
  switch (s.kind) {
    case SegmentRef::Kind::line:
      set(s.b - s.a);
      return s.a + t * (s.b - s.a);
    case SegmentRef::Kind::hv:
      // pgfmanual 17.8: for |- and -| the corner is at pos .5
      if (t <= 0.5) {
        set(s.corner - s.a);
        return s.a + (2 * t) * (s.corner - s.a);
      }
      set(s.b - s.corner);
      return s.corner + (2 * t - 1) * (s.b - s.corner);
    case SegmentRef::Kind::curve:
      set(bezier_tangent(s.bez, t));
      return bezier_at(s.bez, t);
    case SegmentRef::Kind::arc: {
      const double u = s.t0 + t * (s.t1 - s.t0);
      Point d = s.ell.tangent(u);
      if (s.t1 < s.t0) d = -1.0 * d;
      set(d);
      return s.ell.at(u);
    }
    case SegmentRef::Kind::plot: {
      if (s.pts.empty()) return {};
      if (s.pts.size() == 1) return s.pts[0];
      const double f = std::clamp(t, 0.0, 1.0) * static_cast<double>(s.pts.size() - 1);
      std::size_t i = std::min(static_cast<std::size_t>(f), s.pts.size() - 2);
      set(s.pts[i + 1] - s.pts[i]);
      return s.pts[i] + (f - static_cast<double>(i)) * (s.pts[i + 1] - s.pts[i]);
    }
    case SegmentRef::Kind::none:
      break;
  }
  return s.a;
}

// A coordinate resolved into the local system.
struct Resolved {
  Point local;
  std::string bare_node;  // `(A)` with no anchor: lines stop at A's border
  std::optional<Point3> p3;
};

// Font families by document class (the dev set's IM class loads OpenSans at 12pt).
std::string family_for_class(const std::string& cls) { return cls == "IM" ? "opensans" : "lmr"; }

class PictureLowerer {
 public:
  PictureLowerer(const tex::ExpandedDocument& doc, const tex::Picture& pic, const tex::StyleTable& styles,
                 const UserColors& colors, const PackageRegistry& packages)
      : doc_(doc), pic_(pic), packages_(packages), styles_(styles) {
    keys_.base_font_size = doc.base_font_size_pt;
    keys_.positioning_loaded = std::find(doc.tikz_libraries.begin(), doc.tikz_libraries.end(), "positioning") !=
                               doc.tikz_libraries.end();
    // pgflibraryarrows.meta.code.tex redefines `To`, the tip `>` means by default (<-> /.tip = To),
    // as Computer Modern Rightarrow; core pgf's To is the old `to`
    arrows_meta_ = std::find(doc.tikz_libraries.begin(), doc.tikz_libraries.end(), "arrows.meta") !=
                   doc.tikz_libraries.end();
    keys_.user_colors = &colors;
    keys_.shapes = &packages_;
    keys_.doc = &doc;
    keys_.local_point = [this](const std::string& text, const Settings& s, std::uint32_t b, std::uint32_t e) {
      return key_point(text, s, b, e);
    };
    keys_.local_point_3d = [this](const std::string& text, const Settings& s, std::uint32_t b, std::uint32_t e)
        -> std::optional<std::pair<Point, std::optional<Point3>>> {
      auto r = key_resolved(text, s, b, e);
      if (!r) return std::nullopt;
      return std::pair{r->local, r->p3};
    };
    keys_.expand_options = [this](const std::string& options) { return styles_.expand(options, nullptr); };
  }

  Diagram run();
  // What one picture leaves for the later pictures of the document (LibraryHost::document_definitions).
  void set_document_definitions(std::map<std::string, std::map<std::string, std::string>>* d) { doc_defs_ = d; }
  // The directory of the file being checked: relative `plot file` names are read from there.
  void set_base_dir(std::string dir) { base_dir_ = std::move(dir); }
  // The document's read policy (support/read_policy.hpp); a data file outside it is not read.
  void set_read_gate(std::shared_ptr<const ReadGate> gate) { gate_ = std::move(gate); }
  // The file's drawing budget (tex::Limits::max_drawing_work), shared by its pictures.
  struct DrawingBudget {
    std::size_t used = 0;  // elements plus path points made so far in the file
    bool refused = false;  // a statement was refused: the rest of the file's drawing is skipped
  };
  void set_drawing_budget(DrawingBudget* b) { budget_ = b; }

 private:
  // --- per-path state
  struct PathState {
    PathState() = default;
    explicit PathState(const Settings& start) : s(start) {}  // copy once, not default + assign
    Settings s;            // after the path's options
    Transform scope_ctm;   // the transformation before the path options
    std::uint32_t path_id = 0;
    const PathOp* op = nullptr;
    std::vector<std::size_t> elements, nodes;
    bool incomplete = false;
    // A coordinate of the path names a node whose place is not known (NodeRecord::unplaced).
    bool refers_unplaced = false;
    // A coordinate of the path is an anchor of `current bounding box` (the picture so far).
    bool refers_current_bbox = false;
    std::vector<std::string> named;  // the names its nodes and coordinates were given
    bool has_cur = false;
    Point cur_local;
    Point ref_local;  // what relative coordinates add to: `+(..)` does not move it
    std::string cur_node;
    // The node an edge starts at (tikz.code.tex \tikz@to@last@fig@name, `(\tikztostart)` of the
    // edge's own path): the last node of the path, named by TikZ (tikz@f@N) when it has no name.
    // A coordinate read by a later operation takes its place (\tikz@to@use@last@coordinate).
    std::string last_fig;
    bool capture_fig = false;  // the next node emitted is the path's node (not a label or pin)
    std::optional<Point3> cur3;
    std::vector<Point> run;      // canvas points of the current straight run
    std::vector<Point3> run3;    // 3D coordinates when every run point had one
    bool run_is_3d = true;
    std::string run_start_node;  // the run starts at a bare node: trim at its border
    Point subpath_start;         // canvas
    bool subpath_start_set = false;
    SegmentRef last;
    std::map<std::string, std::string> let;  // "\p1" -> "(x pt,y pt)" text ...
    BBoxAccumulator bbox;       // the path's own points (pgf's \pgf@pathminx...)
    BBoxAccumulator node_bbox;  // its nodes, labels and pins: their borders (outer sep not included)
    // The elements of the path's current subpath, in path order (where the arrow tips go), and
    // what grows the picture without the stroke's half width: the hulls of the tips its edges
    // drew (each edge is a path of its own) and plot marks (\pgfusepathqstroke).
    std::vector<std::size_t> subpath;
    BBoxAccumulator unstroked_bbox;
    // The path closes a subpath somewhere (cycle, rectangle, circle, ellipse): pgf draws no tips
    // on it at all (pgfcorepathprocessing.code.tex \pgfprocesscheckclosed)
    bool closes = false;
    std::vector<std::vector<Point>> clip_polygons;
    bool clip_is_rect = false;
  };

  // --- statement handling
  void lower_statement(const tex::Statement& st);
  void lower_path(const grammar::Statement& gs);
  void lower_op(PathState& ps, const PathOp& op);
  void lower_op_impl(PathState& ps, const PathOp& op);
  void finish_path(PathState& ps, const grammar::Statement& gs);

  // --- coordinates
  std::optional<Resolved> resolve(PathState* ps, const Coordinate& c, const Settings& s, bool relative_ok = true);
  std::optional<Resolved> resolve_abs(PathState* ps, const Coordinate& c, const Settings& s, int depth);
  std::optional<Point> resolve_calc(PathState* ps, const std::string& text, const Settings& s, std::uint32_t b,
                                    std::uint32_t e, int depth);
  std::optional<Point> key_point(const std::string& text, const Settings& s, std::uint32_t b, std::uint32_t e);
  std::optional<Resolved> key_resolved(const std::string& text, const Settings& s, std::uint32_t b, std::uint32_t e);
  std::optional<MathValue> math(PathState* ps, const std::string& expr, const Settings& s, std::uint32_t b,
                                std::uint32_t e);
  std::string substitute_let(const PathState* ps, const std::string& text) const;

  // --- geometry output
  std::size_t add_element(PathState& ps, Geometry g, const Style& style);
  // An element that continues the path's current subpath (a closed shape starts and ends its own).
  std::size_t add_path_piece(PathState& ps, Geometry g, const Style& style) {
    const std::size_t i = add_element(ps, std::move(g), style);
    if (i != static_cast<std::size_t>(-1)) ps.subpath.push_back(i);
    return i;
  }
  // pgfcorepathusage.code.tex \pgf@add@arrow@at@start/end: the hulls of the tips `s` draws on
  // the open subpath `pieces` (elements in path order), into `acc`.
  void add_arrow_hulls(const std::vector<std::size_t>& pieces, const Settings& s, BBoxAccumulator& acc) const;
  void flush_run(PathState& ps, bool closed, bool explicit_cycle);
  void add_plot_marks(PathState& ps, const Settings& os, const std::vector<Point>& points);
  void move_to(PathState& ps, const Resolved& r);
  void line_to(PathState& ps, const Resolved& r);
  Point canvas(const PathState& ps, Point local) const { return ps.s.ctm.apply(local); }
  void add_bbox(PathState& ps, Point p) { ps.bbox.add(p); }

  // --- nodes
  struct NodePlacement {
    std::optional<Point> canvas_point;  // where the anchor goes (before node options' transforms)
    std::optional<Point> local_point;
    std::optional<double> tangent_deg;
    std::optional<std::uint32_t> on_path;
    double pos = -1;
  };
  // `right=2cm of A`, `right of=A`: the canvas point the node's anchor goes to (before the node's
  // own shifts), or nothing after reporting why; may set ns.anchor (on grid, old `of=` keys)
  std::optional<Point> relative_placement(PathState& ps, Settings& ns, std::uint32_t ob);
  std::optional<std::size_t> lower_node(PathState& ps, const grammar::Node& n, const NodePlacement& where,
                                        bool implicit_pos, const SegmentRef* seg, bool is_coordinate,
                                        const Settings* base = nullptr, const std::string& extra_style = "");
  std::size_t emit_node(PathState& ps, const Settings& ns, const std::string& text, const std::string& name,
                        Point anchor_canvas, const Transform& shape_lin, const std::string& anchor,
                        std::uint32_t b, std::uint32_t e, bool is_coordinate);
  void add_labels(PathState& ps, std::size_t node_index, const Settings& ns, const NodeRecord& rec,
                  std::uint32_t b, std::uint32_t e);
  void lower_pic(PathState& ps, const PathOp& op);
  bool skipped_edge_pic(PathState& ps, const grammar::Node& n);
  bool lower_custom_to_path(PathState& ps, const PathOp& op, const Settings& es, const Resolved& target);
  bool lower_package_to(PathState& ps, const PathOp& op);
  void lower_to_body(PathState& ps, const PathOp& op, const Settings& es, const std::string& body);
  bool lower_user_pic(PathState& ps, const PathOp& op, const std::string& type, const std::string& arg);
  // circuits library: the symbols of a `to`, nodes on its straight line that interrupt it
  SegmentRef lower_circuit_symbols(PathState& ps, const PathOp& op, const Settings& es, const Settings& base,
                                   const Resolved& target, bool is_edge);
  // what a library draws after a node (library_keys.cpp after_node_statements)
  void lower_after_node(const Settings& ns, const std::string& name, std::uint32_t b, std::uint32_t e);
  static constexpr const char* kLastNodeAlias = "tikzlint@lastnode";
  // what the backgrounds library draws around the finished picture (execute at end picture)
  void lower_picture_end();

  // The statement `st` from the end of the brace group after text offset `from` on (a run of
  // commands the front end read as one statement), lowered as a statement of its own.
  void lower_rest_of_run(const tex::Statement& st, std::size_t from);

  // --- diagnostics
  void problem(const std::string& code, const std::string& msg, std::uint32_t b, std::uint32_t e,
               PathState* ps, bool incomplete = true);
  void style_problems(const std::vector<tex::StyleProblem>& probs, std::uint32_t base, PathState* ps);
  void report(std::vector<LowerProblem>& probs, PathState* ps);
  SourceRange range(std::uint32_t b, std::uint32_t e) const {
    if (stmt_ == nullptr) return pic_.range;
    SourceRange r = stmt_->range_of(b, e);
    return r.valid ? r : stmt_->prov.range;
  }
  // The option list's keys (shared with the style table's memo: copy to change them).
  tex::StyleTable::KeyList expand(const std::string& opts, std::uint32_t base, PathState* ps);
  // A style TikZ runs by name at a path, scope, picture, coordinate or edge (`every path`...).
  // Not defined, it expands to its own name as a bare key, which has no effect (a known cosmetic
  // key): that key is not looked up through every key KeyApplier knows (20 per diagram).
  void apply_hook(Settings& s, const std::string& hook, KeyTarget target, std::uint32_t base, PathState* ps,
                  std::vector<LowerProblem>& probs) {
    const tex::StyleTable::KeyList keys = expand(hook, base, ps);
    if (keys->size() == 1 && !keys->front().has_value && keys->front().key == hook) return;
    keys_.apply(s, *keys, target, base, probs);
  }
  // Keys applied with the span of where they are used (each key's own span zeroed; copied only
  // when a span is not zero already).
  void apply_at_use(Settings& s, const tex::StyleTable::KeyList& keys, KeyTarget target, std::uint32_t base,
                    std::vector<LowerProblem>& probs) {
    if (std::all_of(keys->begin(), keys->end(),
                    [](const tex::FlatKey& k) { return k.begin == 0 && k.end == 0; })) {
      keys_.apply(s, *keys, target, base, probs);
      return;
    }
    std::vector<tex::FlatKey> at_use = *keys;
    for (auto& k : at_use) k.begin = k.end = 0;
    keys_.apply(s, at_use, target, base, probs);
  }

  void apply_decorations(PathState& ps, const grammar::Statement& gs);
  void decorate_elements(PathState& ps, const std::string& spec, const std::vector<std::size_t>& which,
                         bool replaces, std::uint32_t b, std::uint32_t e);
  bool lower_decorate_op(PathState& ps, const PathOp& op);
  void lower_drawn_decoration(PathState& ps, const DecorationEffect& fx, const std::string& spec,
                              const std::vector<std::size_t>& which, bool replaces, std::uint32_t b, std::uint32_t e);
  void detect_right_angle_marks();
  void remember_path(const PathState& ps);
  void name_intersections(PathState& ps, const std::string& spec, std::uint32_t b, std::uint32_t e);

  const tex::ExpandedDocument& doc_;
  const tex::Picture& pic_;
  const PackageRegistry& packages_;
  std::vector<std::unique_ptr<PackagePicture>> handlers_;  // the packages' handlers of this picture
  // Elements plus path points made so far in the file (Limits::max_drawing_work); once a
  // statement is refused the rest of the drawing is skipped, with one error in the file.
  DrawingBudget own_budget_;
  DrawingBudget* budget_ = &own_budget_;
  bool refusal_noted_ = false;  // this picture carries the budget's error or note
  bool fits(std::size_t units) const {
    return !budget_->refused && budget_->used + units <= doc_.max_drawing_work;
  }
  // Spends `units` if they fit; if not, reports the one error (at the current statement) and
  // refuses everything after it.
  bool afford(std::size_t units);
  void refuse_statement();  // after the budget ran out: the statement is left out of the picture
  tex::StyleTable styles_;
  KeyApplier keys_;
  Diagram d_;
  std::vector<Settings> stack_;
  std::map<std::string, NodeRecord> named_;
  int unnamed_figs_ = 0;  // nodes named tikz@f@N for an edge from them (\tikz@fig@mustbenamed)
  std::map<std::string, std::vector<std::vector<Point>>> named_paths_;  // name path= (canvas polylines)
  BBoxAccumulator bbox_;
  // LibraryHost::begin_bbox_probe: what grew the picture's box since each open probe, innermost last
  std::vector<BBoxAccumulator> bbox_probes_;
  void grow_bbox(const Box& b) {
    bbox_.add(b);
    for (auto& p : bbox_probes_) p.add(b);
  }
  // bbox_ and the open probes as they were (a trial or an interrupted box puts them back)
  struct BBoxState {
    BBoxAccumulator bbox;
    std::vector<BBoxAccumulator> probes;
  };
  BBoxState save_bbox() const { return {bbox_, bbox_probes_}; }
  void restore_bbox(const BBoxState& b) {
    bbox_ = b.bbox;
    // a probe opened since keeps what it saw; those open before see nothing of what is undone
    for (std::size_t i = 0; i < b.probes.size() && i < bbox_probes_.size(); ++i) bbox_probes_[i] = b.probes[i];
  }
  std::uint32_t next_path_id_ = 1;
  const tex::Statement* stmt_ = nullptr;
  std::vector<bool> scope_is_3d_;
  int library_depth_ = 0;      // synthetic statements emitted by a library, nested
  std::string base_dir_;       // the checked file's directory (set_base_dir)
  std::shared_ptr<const ReadGate> gate_;  // set_read_gate
  bool arrows_meta_ = false;   // \usetikzlibrary{arrows.meta}
  std::map<std::string, std::map<std::string, std::string>>* doc_defs_ = nullptr;
  int to_path_depth_ = 0;      // custom to paths inside custom to paths
  static constexpr int kMaxToPathDepth = 8;
  std::set<std::string> text_unplaced_shapes_;  // shapes whose text placement was reported
  // The statement's keys resolved a point (shift=(A.north), a key's coordinate) from a node whose
  // place is not known (NodeRecord::unplaced): what the statement places from it is a guess.
  bool key_named_unplaced_ = false;

  // --- packages (ir/package.hpp): libraries rewritten into plain statements through Host
  class Host;
  friend class Host;
  // Offers `st` to the picture's package handlers: true when one lowered it; false when none
  // did, or when the one whose statement it is declined it (the plain lowering then goes on).
  bool offer_to_packages(const tex::Statement& st, bool path);
  void remember_package_options(const std::string& options) {
    for (const auto& p : packages_.packages()) p->remember_options(styles_, options);
  }
};

// ---------------------------------------------------------------- diagnostics

void PictureLowerer::problem(const std::string& code, const std::string& msg, std::uint32_t b, std::uint32_t e,
                             PathState* ps, bool incomplete) {
  Diagnostic dg;
  dg.rule = code;
  // An expression stopped by a macro tikzlint did not expand is not known to be wrong: TeX may
  // know the macro (promise 2); what it draws is unknown, so the path is incomplete.
  if (code == "math-error" && tex::pgfmath::names_unexpanded_macro(msg)) {
    dg.rule = "unsupported-construct";
    incomplete = true;
  }
  dg.severity = starts_with(dg.rule, "unsupported") ? Severity::warning : Severity::error;
  if (dg.rule == "math-error" || dg.rule == "syntax-error") dg.severity = Severity::error;
  if (code == "missing-file") dg.severity = Severity::warning;  // TeX goes on without it (a plot file)
  // a data file outside the read policy: TeX would read it, tikzlint does not know what it draws
  const bool refused = code == "refused-read";
  if (refused) dg.severity = Severity::warning;
  dg.message = msg;
  dg.range = range(b, e);
  if (ps && incomplete) ps->incomplete = true;
  // a package's own diagnostic may stand for everything inside its construct (an unlowered axis)
  for (const auto& h : handlers_)
    if (h->covers_problem(code)) return;
  d_.diagnostics.push_back(dg);
  if (starts_with(code, "unsupported") || refused) d_.unsupported.push_back({msg, dg.range});
}

void PictureLowerer::style_problems(const std::vector<tex::StyleProblem>& probs, std::uint32_t base, PathState* ps) {
  for (const auto& p : probs) problem(p.code, p.message, base + p.begin, base + p.end, ps);
}

void PictureLowerer::report(std::vector<LowerProblem>& probs, PathState* ps) {
  for (const auto& p : probs) problem(p.code, p.message, p.begin, p.end, ps, p.makes_incomplete);
  probs.clear();
  // a key's point (shift=(A.north)) named a node whose place is not known: so is the path's
  if (ps && key_named_unplaced_) ps->refers_unplaced = true;
}

tex::StyleTable::KeyList PictureLowerer::expand(const std::string& opts, std::uint32_t base, PathState* ps) {
  std::vector<tex::StyleProblem> probs;
  auto keys = styles_.expand_shared(opts, &probs);
  style_problems(probs, base, ps);
  return keys;
}

// ---------------------------------------------------------------- math and coordinates

std::string PictureLowerer::substitute_let(const PathState* ps, const std::string& text) const {
  if (!ps || ps->let.empty() || text.find('\\') == std::string::npos) return text;
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 2 < text.size() + 1 && i + 1 < text.size() &&
        std::strchr("pxyn", text[i + 1]) != nullptr && i + 2 < text.size()) {
      std::size_t j = i + 2;
      if (text[j] == '{') {
        std::size_t close = text.find('}', j);
        if (close != std::string::npos) j = close + 1;
      } else {
        while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      }
      if (j > i + 2) {
        auto f = ps->let.find(text.substr(i, j - i));
        if (f != ps->let.end()) {
          out += f->second;
          i = j - 1;
          continue;
        }
      }
    }
    out += text[i];
  }
  return out;
}

std::optional<MathValue> PictureLowerer::math(PathState* ps, const std::string& expr, const Settings& s,
                                              std::uint32_t b, std::uint32_t e) {
  std::string err;
  // Registers and setter macros start with a backslash: without one there is nothing to replace.
  auto v = expr.find('\\') == std::string::npos
               ? eval_math(expr, font_units_of(s), &err)
               : eval_math(styles_.substitute_macros(substitute_let(ps, expr)), font_units_of(s), &err);
  if (!v) problem("math-error", err.empty() ? "cannot evaluate '" + expr + "'" : err, b, e, ps);
  return v;
}

std::optional<Point> PictureLowerer::key_point(const std::string& text, const Settings& s, std::uint32_t b,
                                               std::uint32_t e) {
  auto r = key_resolved(text, s, b, e);
  if (!r) return std::nullopt;
  return r->local;
}

std::optional<Resolved> PictureLowerer::key_resolved(const std::string& text, const Settings& s, std::uint32_t b,
                                                     std::uint32_t e) {
  std::string t(trim(text));
  if (t.size() >= 2 && t.front() == '(' && t.back() == ')') t = t.substr(1, t.size() - 2);
  Coordinate c = grammar::parse_coordinate(t);
  c.span = {b, e};
  return resolve_abs(nullptr, c, s, 0);
}

std::optional<Resolved> PictureLowerer::resolve(PathState* ps, const Coordinate& c, const Settings& s,
                                                bool relative_ok) {
  auto r = resolve_abs(ps, c, s, 0);
  if (!r) return r;
  if (c.relative != Coordinate::Relative::None && relative_ok) {
    // pgfmanual 13.4: relative coordinates add to the last point (in the local system)
    Point base = ps && ps->has_cur ? ps->ref_local : Point{0, 0};
    if (c.form == Coordinate::Form::Named) {
      // +(A) adds A's position as a vector; rare, but defined
    }
    r->local = base + r->local;
    r->bare_node.clear();
    if (r->p3 && ps && ps->cur3) r->p3 = Point3{ps->cur3->x + r->p3->x, ps->cur3->y + r->p3->y, ps->cur3->z + r->p3->z};
    else if (!(ps && ps->cur3)) r->p3.reset();
  }
  return r;
}

std::optional<Resolved> PictureLowerer::resolve_abs(PathState* ps, const Coordinate& c_in, const Settings& s,
                                                    int depth) {
  const std::uint32_t b = c_in.span.begin, e = c_in.span.end;
  if (depth > 32) {
    problem("unsupported-coordinate", "coordinate nested too deeply", b, e, ps);
    return std::nullopt;
  }
  // let registers and style macros inside the coordinate: substitute and parse again (a copy
  // only then: most coordinates are read as they are)
  Coordinate substituted;
  const Coordinate* cp = &c_in;
  if (c_in.raw.find('\\') != std::string::npos) {
    std::string sub = styles_.substitute_macros(substitute_let(ps, c_in.raw));
    if (sub != c_in.raw) {
      Coordinate again = c_in.form == Coordinate::Form::Calc ? c_in : grammar::parse_coordinate(sub);
      if (c_in.form == Coordinate::Form::Calc) again.raw = sub;
      again.relative = c_in.relative;
      again.span = c_in.span;
      if (!again.options) again.options = c_in.options;
      substituted = std::move(again);
      cp = &substituted;
    }
  }
  const Coordinate& c = *cp;
  // ([options] coordinate): the options' transformations apply to this coordinate only
  if (c.options && !c.options->raw.empty()) {
    Coordinate inner = c;
    inner.options.reset();
    auto r = resolve_abs(ps, inner, s, depth + 1);
    if (!r) return r;
    Settings t = s;
    std::vector<LowerProblem> probs;
    keys_.apply(t, *expand(c.options->raw, b, ps), KeyTarget::op, b, probs);
    report(probs, ps);
    r->local = s.ctm.inverse().apply(t.ctm.apply(r->local));
    r->bare_node.clear();
    return r;
  }
  Resolved out;
  switch (c.form) {
    case Coordinate::Form::Cartesian: {
      Point p{0, 0};
      const Point* vecs[3] = {&s.xvec, &s.yvec, &s.zvec};
      double comps[3] = {0, 0, 0};
      for (std::size_t i = 0; i < c.parts.size() && i < 3; ++i) {
        auto v = math(ps, c.parts[i], s, b, e);
        if (!v) return std::nullopt;
        comps[i] = v->value;
        if (v->is_length) {
          // a dimension is a canvas length along that axis (pgfmanual 13.2.1)
          if (i == 0) p.x += v->value;
          else if (i == 1) p.y += v->value;
          else p = p + Point{v->value, v->value};
        } else {
          p = p + v->value * *vecs[i];
        }
      }
      if (c.parts.size() == 3) {
        out.p3 = Point3{comps[0], comps[1], comps[2]};
        d_.is_3d = true;
        if (!d_.xyz_vectors)
          d_.xyz_vectors = std::array<Point, 3>{s.ctm.apply_linear(s.xvec), s.ctm.apply_linear(s.yvec),
                                                s.ctm.apply_linear(s.zvec)};
      }
      out.local = p;
      return out;
    }
    case Coordinate::Form::Polar: {
      // tikz.code.tex \tikz@polar@dir@...: `(up:2cm)`, `(north east:1)` name their angle
      static const std::map<std::string, double, std::less<>> kNamedAngles = {
          {"up", 90},     {"down", -90},         {"left", 180},         {"right", 0},
          {"north", 90},  {"south", -90},        {"east", 0},           {"west", 180},
          {"north east", 45}, {"north west", 135}, {"south east", -45}, {"south west", -135}};
      const auto named = kNamedAngles.find(collapse_spaces(std::string(trim(c.parts[0]))));
      auto a = named != kNamedAngles.end() ? std::optional<MathValue>(MathValue{named->second, false})
                                           : math(ps, c.parts[0], s, b, e);
      if (!a) return std::nullopt;
      auto rx = math(ps, c.parts[1], s, b, e);
      if (!rx) return std::nullopt;
      auto ry = rx;
      if (c.parts.size() > 2) {
        ry = math(ps, c.parts[2], s, b, e);
        if (!ry) return std::nullopt;
      }
      const double ca = std::cos(a->value * kDeg), sa = std::sin(a->value * kDeg);
      if (rx->is_length) out.local = {rx->value * ca, ry->value * sa};
      else out.local = (rx->value * ca) * s.xvec + (ry->value * sa) * s.yvec;
      return out;
    }
    case Coordinate::Form::Named: {
      std::string name = collapse_spaces(c.name);
      std::string anchor = collapse_spaces(c.anchor);
      NodeRecord rec;
      auto f = named_.find(name);
      if (f == named_.end() && anchor.empty()) {
        // a name with dots, e.g. "A.B" meant as a node name
        f = named_.find(collapse_spaces(c.raw));
      }
      if (f != named_.end()) {
        rec = f->second;
        if (rec.unplaced && ps) ps->refers_unplaced = true;
        if (rec.unplaced && !ps) key_named_unplaced_ = true;  // a key's point (report() passes it on)
      } else if (name == "current bounding box" && bbox_.any) {
        if (ps) ps->refers_current_bbox = true;
        rec.g.shape = NodeShape::rectangle;
        rec.g.half_width = bbox_.box.width() / 2;
        rec.g.half_height = bbox_.box.height() / 2;
        rec.center = {(bbox_.box.xmin + bbox_.box.xmax) / 2, (bbox_.box.ymin + bbox_.box.ymax) / 2};
      } else {
        problem("unsupported-coordinate", "undefined node or coordinate '" + name + "'", b, e, ps);
        return std::nullopt;
      }
      Point cv = rec.center;
      if (!anchor.empty()) {
        auto off = anchor_offset(rec.g, anchor);
        if (!off) {
          const auto* unmodelled = rec.g.outline ? &rec.g.outline->unmodelled_anchors : nullptr;
          const bool known = unmodelled && std::find(unmodelled->begin(), unmodelled->end(), anchor) != unmodelled->end();
          problem("unsupported-coordinate",
                  known ? "the place of anchor '" + anchor + "' of '" + name + "' is not modelled"
                        : "unknown anchor '" + anchor + "' of '" + name + "'",
                  b, e, ps);
          return std::nullopt;
        }
        cv = rec.anchor_canvas(*off);
      } else if (!rec.is_point) {
        out.bare_node = name;
      }
      out.local = s.ctm.inverse().apply(cv);
      return out;
    }
    case Coordinate::Form::Perpendicular: {
      if (c.sub.size() != 2) break;
      auto p = resolve_abs(ps, c.sub[0], s, depth + 1);
      auto q = resolve_abs(ps, c.sub[1], s, depth + 1);
      if (!p || !q) return std::nullopt;
      // (A |- B): x of A, y of B; (A -| B): x of B, y of A -- in canvas terms (pgf: \pgfpointanchor)
      Point pc = s.ctm.apply(p->local), qc = s.ctm.apply(q->local);
      Point r = c.hv ? Point{pc.x, qc.y} : Point{qc.x, pc.y};
      out.local = s.ctm.inverse().apply(r);
      return out;
    }
    case Coordinate::Form::Intersection: {
      if (c.sub.size() != 4) break;
      Point q[4];
      for (int i = 0; i < 4; ++i) {
        auto r = resolve_abs(ps, c.sub[static_cast<std::size_t>(i)], s, depth + 1);
        if (!r) return std::nullopt;
        q[i] = r->local;
      }
      auto x = line_intersection(q[0], q[1], q[2], q[3]);
      if (!x) {
        problem("math-error", "the lines of the intersection are parallel", b, e, ps);
        return std::nullopt;
      }
      out.local = *x;
      return out;
    }
    case Coordinate::Form::Calc: {
      auto p = resolve_calc(ps, c.raw, s, b, e, depth + 1);
      if (!p) return std::nullopt;
      out.local = *p;
      return out;
    }
    case Coordinate::Form::Raw:
      break;
  }
  // coordinate systems written with cs: (pgfmanual 13.2)
  std::string raw = collapse_spaces(c.raw);
  if (named_.count(raw)) {
    // a name the grammar took for another form, e.g. (intersection-1)
    Coordinate n;
    n.form = Coordinate::Form::Named;
    n.name = raw;
    n.raw = raw;
    n.span = c.span;
    return resolve_abs(ps, n, s, depth + 1);
  }
  std::size_t cs = raw.find("cs:");
  if (cs != std::string::npos) {
    std::string system = collapse_spaces(raw.substr(0, cs));
    std::map<std::string, std::string> kv;
    for (const auto& it : tex::split_options(raw.substr(cs + 3))) kv[tex::normalise_key(it.key)] = it.value;
    auto get = [&](const std::string& k) -> std::optional<MathValue> {
      auto f = kv.find(k);
      if (f == kv.end()) return MathValue{0, false};
      return math(ps, f->second, s, b, e);
    };
    if (!handlers_.empty()) {
      // a coordinate system a package defines (pgfplots' axis cs:)
      const PackagePicture::Eval eval = [&](const std::string& expr) { return math(ps, expr, s, b, e); };
      for (const auto& h : handlers_) {
        PackagePicture::Coordinate pc = h->coordinate(system, std::string_view(raw).substr(cs + 3), s, eval);
        if (!pc.handled) continue;
        if (!pc.local) return std::nullopt;
        out.local = *pc.local;
        return out;
      }
    }
    if (system == "canvas") {
      auto x = get("x"), y = get("y");
      if (!x || !y) return std::nullopt;
      out.local = {x->value, y->value};
      return out;
    }
    if (system == "xyz") {
      auto x = get("x"), y = get("y"), z = get("z");
      if (!x || !y || !z) return std::nullopt;
      out.local = x->value * s.xvec + y->value * s.yvec + z->value * s.zvec;
      if (kv.count("z")) d_.is_3d = true;
      return out;
    }
    if (system == "canvas polar" || system == "polar" || system == "xyz polar") {
      auto a = get("angle");
      auto r = kv.count("radius") ? get("radius") : get("x radius");
      if (!a || !r) return std::nullopt;
      const double ca = std::cos(a->value * kDeg), sa = std::sin(a->value * kDeg);
      out.local = (system == "canvas polar" || r->is_length) ? Point{r->value * ca, r->value * sa}
                                                             : (r->value * ca) * s.xvec + (r->value * sa) * s.yvec;
      return out;
    }
    // the coordinate systems of the 3d and perspective libraries (library_keys.cpp)
    auto number = [&](const std::string& v) -> std::optional<double> {
      auto m = math(ps, v, s, b, e);
      return m ? std::optional<double>(m->value) : std::nullopt;
    };
    if (auto p = library_coordinate(system, kv, s, number)) {
      out.local = *p;
      return out;
    }
    if (system == "node") {
      Coordinate n;
      n.form = Coordinate::Form::Named;
      n.name = kv["name"];
      n.anchor = kv.count("anchor") ? kv["anchor"] : kv.count("angle") ? kv["angle"] : "";
      n.raw = n.name;
      n.span = c.span;
      return resolve_abs(ps, n, s, depth + 1);
    }
  }
  problem("unsupported-coordinate", "unsupported coordinate '(" + c.raw + ")'", b, e, ps);
  return std::nullopt;
}

// calc library (pgfmanual 13.5): sums, k*(p), (a)!t!(b), (a)!d!(b), (a)!(p)!(b), (a)!t!angle:(b).
std::optional<Point> PictureLowerer::resolve_calc(PathState* ps, const std::string& text_in, const Settings& s,
                                                  std::uint32_t b, std::uint32_t e, int depth) {
  const std::string text = styles_.substitute_macros(substitute_let(ps, text_in));
  std::size_t i = 0;
  auto fail = [&](const std::string& why) -> std::optional<Point> {
    problem("unsupported-coordinate", "cannot read calc expression '$" + text_in + "$': " + why, b, e, ps);
    return std::nullopt;
  };
  auto skip = [&] {
    while (i < text.size() && is_ascii_space(text[i])) ++i;
  };
  // read a balanced (...) group starting at text[i] == '('; returns inner text
  auto read_paren = [&]() -> std::optional<std::string> {
    if (i >= text.size() || text[i] != '(') return std::nullopt;
    int d = 0;
    std::size_t start = i;
    for (; i < text.size(); ++i) {
      if (text[i] == '\\') {
        ++i;
        continue;
      }
      if (text[i] == '(' || text[i] == '{') ++d;
      if (text[i] == ')' || text[i] == '}') {
        if (--d == 0) {
          ++i;
          return text.substr(start + 1, i - start - 2);
        }
      }
    }
    return std::nullopt;
  };
  auto read_coord = [&]() -> std::optional<Point> {
    skip();
    auto inner = read_paren();
    if (!inner) return std::nullopt;
    Coordinate c = grammar::parse_coordinate(*inner);
    c.span = {b, e};
    auto r = resolve_abs(ps, c, s, depth + 1);
    if (!r) return std::nullopt;
    return r->local;
  };
  // read until one of `stops` at depth 0
  auto read_until = [&](const char* stops) -> std::string {
    int d = 0;
    std::size_t start = i;
    for (; i < text.size(); ++i) {
      char ch = text[i];
      if (ch == '\\') {
        ++i;
        continue;
      }
      if (ch == '{' || ch == '(') ++d;
      if (ch == '}' || ch == ')') --d;
      if (d == 0 && std::strchr(stops, ch) != nullptr) break;
    }
    return text.substr(start, std::min(i, text.size()) - start);
  };

  Point total{0, 0};
  bool first = true;
  while (true) {
    skip();
    if (i >= text.size()) break;
    double sign = 1;
    if (!first) {
      if (text[i] == '+') {
        ++i;
      } else if (text[i] == '-') {
        sign = -1;
        ++i;
      } else {
        return fail("expected + or -");
      }
      skip();
    } else if (text[i] == '-') {
      sign = -1;
      ++i;
      skip();
    }
    first = false;
    double factor = 1;
    if (i < text.size() && text[i] != '(') {
      std::string f = read_until("*");
      if (i >= text.size()) return fail("expected a coordinate");
      ++i;  // '*'
      auto v = math(ps, f, s, b, e);
      if (!v) return std::nullopt;
      factor = v->value;
    }
    auto p = read_coord();
    if (!p) return std::nullopt;
    Point cur = *p;
    // modifiers: !...!(b)
    while (true) {
      skip();
      if (i >= text.size() || text[i] != '!') break;
      ++i;
      skip();
      if (i < text.size() && text[i] == '(') {
        // projection of (p) onto the line cur--(b)
        auto proj = read_coord();
        if (!proj) return std::nullopt;
        skip();
        if (i >= text.size() || text[i] != '!') return fail("expected '!' after the projection point");
        ++i;
        auto q = read_coord();
        if (!q) return std::nullopt;
        Point d = *q - cur;
        double len2 = d.x * d.x + d.y * d.y;
        if (len2 < 1e-18) return fail("projection onto a zero-length line");
        double t = ((proj->x - cur.x) * d.x + (proj->y - cur.y) * d.y) / len2;
        cur = cur + t * d;
        continue;
      }
      std::string amount = read_until("!");
      if (i >= text.size()) return fail("unterminated '!'");
      ++i;
      skip();
      double angle = 0;
      if (i < text.size() && text[i] != '(') {
        std::string a = read_until(":");
        if (i >= text.size()) return fail("expected 'angle:' or a coordinate");
        ++i;
        auto av = math(ps, a, s, b, e);
        if (!av) return std::nullopt;
        angle = av->value;
      }
      auto q = read_coord();
      if (!q) return std::nullopt;
      Point d = *q - cur;
      if (angle != 0) {
        const double ca = std::cos(angle * kDeg), sa = std::sin(angle * kDeg);
        d = {d.x * ca - d.y * sa, d.x * sa + d.y * ca};
      }
      auto v = math(ps, amount, s, b, e);
      if (!v) return std::nullopt;
      if (v->is_length) {
        // \pgfpointnormalised: atan2(0,0) = 0, so a zero-length line points along +x
        double len = length(d);
        cur = len < 1e-12 ? cur + Point{v->value, 0} : cur + (v->value / len) * d;
      } else {
        cur = cur + v->value * d;
      }
    }
    total = total + (sign * factor) * cur;
  }
  return total;
}

// ---------------------------------------------------------------- elements

std::size_t points_of(const Geometry& g) {
  if (auto* p = std::get_if<Polyline>(&g)) return p->points.size();
  if (auto* p = std::get_if<Plot>(&g)) return p->points.size();
  if (auto* f = std::get_if<Face3D>(&g)) return f->points.size();
  return 4;  // a segment, rectangle, arc, curve, grid...: a few points each
}

bool PictureLowerer::afford(std::size_t units) {
  if (fits(units)) {
    budget_->used += units;
    return true;
  }
  if (!budget_->refused) {
    budget_->refused = true;
    refusal_noted_ = true;
    Diagnostic dg;
    dg.rule = "expansion-limit";
    dg.severity = Severity::error;
    dg.message = "the drawing would exceed " + std::to_string(doc_.max_drawing_work) +
                 " elements and path points in the file; this statement and the rest are not lowered";
    dg.range = stmt_ ? stmt_->prov.range : pic_.range;
    dg.evidence = {{"work", budget_->used + units}, {"limit", doc_.max_drawing_work}, {"name", "max_drawing_work"}};
    d_.diagnostics.push_back(dg);
    d_.unsupported.push_back({dg.message, dg.range});
  }
  return false;
}

void PictureLowerer::refuse_statement() {
  if (refusal_noted_) return;  // this picture has the error or the note already
  refusal_noted_ = true;
  Diagnostic dg;  // a later picture of the file: a note, the error was given once
  dg.rule = "expansion-limit";
  dg.severity = Severity::note;
  dg.message = "not lowered: the file's drawing budget (max_drawing_work) ran out in an earlier picture";
  dg.range = pic_.range;
  d_.diagnostics.push_back(dg);
  d_.unsupported.push_back({dg.message, dg.range});
}

std::size_t PictureLowerer::add_element(PathState& ps, Geometry g, const Style& style) {
  if (!afford(1 + points_of(g))) {
    ps.incomplete = true;
    return static_cast<std::size_t>(-1);
  }
  Element el;
  el.geom = std::move(g);
  el.style = style;
  el.prov = stmt_ ? stmt_->prov : Provenance{};
  el.path_id = ps.path_id;
  el.clips = stack_.back().clip_ids;
  el.clip_unknown = stack_.back().clip_unknown;
  d_.elements.push_back(std::move(el));
  ps.elements.push_back(d_.elements.size() - 1);
  return d_.elements.size() - 1;
}

void PictureLowerer::add_arrow_hulls(const std::vector<std::size_t>& pieces, const Settings& s,
                                     BBoxAccumulator& acc) const {
  if (pieces.empty() || (!s.style.arrow_start && !s.style.arrow_end)) return;
  const std::string_view meaning_of_gt = !s.arrow_default.empty() ? std::string_view(s.arrow_default)
                                         : arrows_meta_           ? std::string_view("Computer Modern Rightarrow")
                                                                  : std::string_view("to");
  for (const bool at_start : {true, false}) {
    const std::string& spec = at_start ? s.arrow_start_tips : s.arrow_end_tips;
    if (spec.empty()) continue;
    const auto end = path_end(d_.elements[at_start ? pieces.front() : pieces.back()].geom, at_start);
    if (!end) continue;  // closed, or no direction
    const auto tips = arrow_tip_sequence(spec, at_start, meaning_of_gt, s.style.line_width);
    if (!tips) continue;  // a tip not modelled: its flag only
    for (Point p : arrow_hull_points(*tips, end->first, end->second)) acc.add(p);
  }
}

void PictureLowerer::flush_run(PathState& ps, bool closed, bool explicit_cycle) {
  if (ps.run.size() >= 2) {
    if (ps.s.clip) {
      if (closed || ps.run.size() >= 3) ps.clip_polygons.push_back(ps.run);
    }
    if (ps.run.size() == 2 && !closed) {
      add_path_piece(ps, Segment{ps.run[0], ps.run[1]}, ps.s.style);
    } else {
      Polyline pl;
      pl.points = ps.run;
      pl.closed = closed;
      pl.explicit_cycle = explicit_cycle;
      if (!closed && pl.points.size() >= 4) {
        Point f = pl.points.front(), l = pl.points.back();
        if (std::abs(f.x - l.x) < 1e-6 && std::abs(f.y - l.y) < 1e-6) pl.closed = true;
      }
      const bool is_closed = pl.closed;
      add_path_piece(ps, pl, ps.s.style);
      if (is_closed && ps.s.style.fill && ps.run_is_3d && ps.run3.size() == ps.run.size()) {
        Face3D f;
        f.points3 = ps.run3;
        // in the picture's 3D frame when the scope's is known in it (Settings::frame3), so that
        // faces of solids shifted in 3D compare in depth
        if (const auto& fr = ps.s.frame3) {
          for (Point3& p : f.points3)
            p = Point3{fr->scale * p.x + fr->shift.x, fr->scale * p.y + fr->shift.y, fr->scale * p.z + fr->shift.z};
        }
        f.points = ps.run;
        add_element(ps, f, ps.s.style);
      }
    }
  }
  ps.run.clear();
  ps.run3.clear();
  ps.run_is_3d = true;
  ps.run_start_node.clear();
}

void PictureLowerer::move_to(PathState& ps, const Resolved& r) {
  flush_run(ps, false, false);
  ps.subpath.clear();
  ps.has_cur = true;
  ps.cur_local = r.local;
  ps.cur_node = r.bare_node;
  ps.cur3 = r.p3;
  Point c = canvas(ps, r.local);
  ps.run = {c};
  ps.run_is_3d = r.p3.has_value();
  if (r.p3) ps.run3 = {*r.p3};
  ps.run_start_node = r.bare_node;
  ps.subpath_start = c;
  ps.subpath_start_set = true;
  add_bbox(ps, c);
}

void PictureLowerer::line_to(PathState& ps, const Resolved& r) {
  if (!ps.has_cur) {
    move_to(ps, r);
    return;
  }
  if (ps.run.empty()) {
    ps.run = {canvas(ps, ps.cur_local)};
    ps.run_is_3d = ps.cur3.has_value();
    if (ps.cur3) ps.run3 = {*ps.cur3};
    ps.run_start_node = ps.cur_node;
  }
  Point target = canvas(ps, r.local);
  Point target_center = target;
  if (ps.run.size() == 1 && !ps.run_start_node.empty()) {
    // pgfmanual 13.2.3 / 17.11: a line from a node starts at its border
    const NodeRecord& n = named_.at(ps.run_start_node);
    ps.run[0] = n.border_toward_canvas(target_center);
    add_bbox(ps, ps.run[0]);
  }
  Point start = ps.run.back();
  if (!r.bare_node.empty()) target = named_.at(r.bare_node).border_toward_canvas(start);
  ps.run.push_back(target);
  if (r.p3 && ps.run_is_3d) ps.run3.push_back(*r.p3);
  else ps.run_is_3d = false;
  add_bbox(ps, target);
  ps.last = SegmentRef{};
  ps.last.kind = SegmentRef::Kind::line;
  ps.last.a = start;
  ps.last.b = target;
  ps.cur_local = r.local;
  ps.cur_node = r.bare_node;
  ps.cur3 = r.p3;
  if (!r.bare_node.empty()) {
    // the path goes on from the node's centre, trimmed again at its border
    flush_run(ps, false, false);
    ps.run = {target_center};
    ps.run_start_node = r.bare_node;
    ps.run_is_3d = false;
  }
}

// ---------------------------------------------------------------- nodes

// Node text whose box measure_text cannot tell: a box of TeX's own making (an environment, a
// \parbox, a nested picture, an image) or a multipart shape's parts. The first one, as written.
std::optional<std::string> unsized_text_construct(std::string_view text) {
  static constexpr std::string_view kBoxCommands[] = {
      "\\parbox", "\\tikz", "\\includegraphics", "\\nodepart", "\\shortstack", "\\makecell",
      "\\resizebox", "\\scalebox", "\\rotatebox", "\\vbox", "\\vtop", "\\pgfimage", "\\pic"};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') continue;
    std::size_t j = i + 1;
    while (j < text.size() && std::isalpha(static_cast<unsigned char>(text[j]))) ++j;
    const std::string_view cs = text.substr(i, j - i);
    if (cs == "\\begin") {
      std::size_t k = j;
      while (k < text.size() && text[k] == ' ') ++k;
      const std::size_t close = k < text.size() && text[k] == '{' ? text.find('}', k) : std::string_view::npos;
      return std::string(close == std::string_view::npos ? cs : text.substr(i, close + 1 - i));
    }
    for (std::string_view c : kBoxCommands)
      if (cs == c) return std::string(cs);
    if (j == i + 1) ++j;  // \\, \$ ...: skip the escaped character
    i = j - 1;
  }
  return std::nullopt;
}

// pgf's smooth plot handlers (pgflibraryplothandlers.code.tex): Bezier curves through the points,
// the tangent at a point its neighbours' difference times 0.2775 x tension (\pgfsetplottension).
// `smooth` (\pgfplothandlercurveto) starts and ends on its first and last points with those as
// control points; `smooth cycle` (\pgfplothandlerclosedcurve) runs from the second point around
// and back to it. Returns the curve sampled (each piece in kSmoothPlotSamples steps) and puts
// every control point in `controls` (pgf's bounding box counts them).
constexpr int kSmoothPlotSamples = 8;
std::vector<Point> smooth_plot(const std::vector<Point>& p, bool cycle, double tension, std::vector<Point>& controls) {
  const std::size_t n = p.size();
  if (n < 3) return p;  // two points: a straight curve (cycle: pgf draws nothing more)
  const double t = 0.2775 * tension;
  std::vector<Point> out;
  auto piece = [&](Point a, Point c1, Point c2, Point b) {
    controls.push_back(c1);
    controls.push_back(c2);
    if (out.empty()) out.push_back(a);
    for (int k = 1; k <= kSmoothPlotSamples; ++k) {
      const double u = static_cast<double>(k) / kSmoothPlotSamples, w = 1 - u;
      out.push_back(w * w * w * a + 3 * w * w * u * c1 + 3 * w * u * u * c2 + u * u * u * b);
    }
  };
  if (!cycle) {
    auto d = [&](std::size_t i) { return t * (p[i + 1] - p[i - 1]); };  // interior points only
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const Point c1 = i == 0 ? p[0] : p[i] + d(i);
      const Point c2 = i + 2 == n ? p[n - 1] : p[i + 1] - d(i + 1);
      piece(p[i], c1, c2, p[i + 1]);
    }
    return out;
  }
  auto d = [&](std::size_t i) { return t * (p[(i + 1) % n] - p[(i + n - 1) % n]); };
  for (std::size_t k = 0; k < n; ++k) {  // from p[1] around to p[1]
    const std::size_t i = (k + 1) % n, j = (k + 2) % n;
    piece(p[i], p[i] + d(i), p[j] - d(j), p[j]);
  }
  return out;
}

// The extreme points of a plot mark's path, in pt around the mark's point, before the
// transformation (pgflibraryplothandlers.code.tex and pgflibraryplotmarks.code.tex): pgf's
// bounding box counts these and a circle's Bezier control points (kCircleControl). Marks not
// listed are not added to the bounding box.
constexpr double kCircleControl = 0.55228475;  // pgf's \pgfpathellipse control distance
std::optional<std::vector<Point>> plot_mark_points(std::string_view mark, double s) {
  const double d = 0.70710678 * s;  // pgf's x and otimes diagonals
  if (mark == "*" || mark == "o" || mark == "oplus" || mark == "oplus*" || mark == "otimes" || mark == "otimes*") {
    const double k = kCircleControl * s;
    return std::vector<Point>{{s, 0}, {-s, 0}, {0, s}, {0, -s}, {s, k},  {s, -k}, {-s, k}, {-s, -k},
                              {k, s}, {-k, s}, {k, -s}, {-k, -s}};
  }
  if (mark == "+") return std::vector<Point>{{s, 0}, {-s, 0}, {0, s}, {0, -s}};
  if (mark == "x") return std::vector<Point>{{d, d}, {-d, -d}, {-d, d}, {d, -d}};
  if (mark == "|") return std::vector<Point>{{0, s}, {0, -s}};
  if (mark == "-") return std::vector<Point>{{s, 0}, {-s, 0}};
  if (mark == "square" || mark == "square*") return std::vector<Point>{{s, s}, {-s, -s}, {-s, s}, {s, -s}};
  return std::nullopt;
}

// A mark at each plot point (\pgf@plot@mark@handler: \pgftransformshift to the point, the mark
// drawn under the current transformation, so the picture's scale and rotation reach it), grown
// into the picture's bounding box. Marks moved by `mark options` transformations or drawn only
// at some points (mark repeat, phase, indices) are left out: their places are not modelled.
void PictureLowerer::add_plot_marks(PathState& ps, const Settings& os, const std::vector<Point>& points) {
  if (os.ops->mark_subset) return;
  const std::string& opts = os.ops->mark_options;
  for (std::string_view t : {"scale", "rotate", "shift", "slant", "cm", "transform"})
    if (opts.find(t) != std::string::npos) return;
  auto shape = plot_mark_points(os.ops->plot_mark, os.ops->mark_size);
  if (!shape) return;
  for (Point c : points)
    for (Point q : *shape) ps.unstroked_bbox.add(c + os.ctm.apply_linear(q));
}

// `path`, or a copy of it in `storage` with the x, y and z vectors of `node` when they differ.
const Settings& with_vectors_of(const Settings& path, const Settings& node, std::optional<Settings>& storage) {
  auto same = [](Point a, Point b) { return a.x == b.x && a.y == b.y; };
  if (same(path.xvec, node.xvec) && same(path.yvec, node.yvec) && same(path.zvec, node.zvec)) return path;
  storage = path;
  storage->xvec = node.xvec;
  storage->yvec = node.yvec;
  storage->zvec = node.zvec;
  return *storage;
}

std::size_t PictureLowerer::emit_node(PathState& ps, const Settings& ns, const std::string& text_in,
                                      const std::string& name, Point anchor_canvas, const Transform& shape_lin,
                                      const std::string& anchor, std::uint32_t b, std::uint32_t e,
                                      bool is_coordinate) {
  Node n;
  n.text = text_in;
  n.name = name;
  n.shape = is_coordinate ? NodeShape::coordinate : ns.shape;
  // shapes of the shape libraries are NodeShape::other, sized like a rectangle (documented)

  // Font: font= keys, then size commands at the start of the text (\small A)
  FontSpec font = text_font_of(ns);
  std::string text(trim(text_in));
  while (!text.empty() && text[0] == '\\') {
    std::size_t j = 1;
    while (j < text.size() && std::isalpha(static_cast<unsigned char>(text[j]))) ++j;
    std::string cs = text.substr(0, j);
    if (is_size_command(cs)) font.size_pt = font_size_for_command(cs, doc_.base_font_size_pt);
    else if (cs == "\\bfseries") font.bold = true;
    else if (cs == "\\itshape") font.italic = true;
    else if ((cs == "\\sffamily" || cs == "\\sf") && font.family == "lmr") font.family = "lmss";  // as font=
    else if ((cs == "\\ttfamily" || cs == "\\tt") && (font.family == "lmr" || font.family == "lmss"))
      font.family = "lmtt";
    else if (cs != "\\centering" && cs != "\\sffamily" && cs != "\\rmfamily" && cs != "\\ttfamily") break;
    text = std::string(trim(std::string_view(text).substr(j)));
  }
  TextBox tb;
  if (n.shape != NodeShape::coordinate && !text.empty()) {
    if (auto what = unsized_text_construct(text)) {
      if (auto box = measure_latex_box(text, font)) {
        tb = *box;  // a \parbox, minipage or tabular LaTeX sizes by its own rules
      } else {
        // measure_text would size it as literal text: the box is unknown, not that wrong one
        problem("unsupported-construct", "node text with '" + *what + "' is not sized: the node's box is unknown",
                b, e, &ps);
        n.incomplete = true;
        tb = measure_text(text, font, ns.text_width);
      }
    } else {
      tb = measure_text(text, font, ns.text_width);
    }
  }
  if (ns.text_width > 0) tb.width = std::max(tb.width, ns.text_width);
  if (ns.text_height) tb.height = *ns.text_height;
  if (ns.text_depth) tb.depth = *ns.text_depth;
  // pgfmoduleshapes: inner sep and minimum sizes are evaluated outside the text box, so em is
  // the quad of the font around the node (node font=), not of font= (tikz.code.tex \tikz@do@fig)
  const FontUnits units = font_units_of(ns);
  NodeShapeInput in;
  in.library = &packages_;
  in.shape = n.shape;
  in.text_width = tb.width;
  in.text_height = tb.height;
  in.text_depth = tb.depth;
  // pgfmanual 17.2.3: inner sep .3333em, outer sep .5\pgflinewidth
  in.inner_xsep = ns.inner_xsep.value_or(0.3333 * units.em);
  in.inner_ysep = ns.inner_ysep.value_or(0.3333 * units.em);
  in.outer_xsep = ns.outer_xsep.value_or(0.5 * ns.style.line_width);
  in.outer_ysep = ns.outer_ysep.value_or(0.5 * ns.style.line_width);
  in.minimum_width = ns.minimum_width;
  in.minimum_height = ns.minimum_height;
  in.ex = units.ex;  // the mid anchors' .5ex, also of the font around the node
  in.shape_name = ns.shape_name;  // library shapes (shapes_*.cpp)
  in.params = ns.shape_params;
  in.line_width = ns.style.line_width;
  in.font_size_pt = font.size_pt;
  NodeShapeGeometry g = node_shape_geometry(in);

  if (g.outline && g.outline->paints_symbol) n.symbol = true;
  if (g.outline && g.outline->text_unplaced && !text.empty()) {
    if (text_unplaced_shapes_.insert(ns.shape_name).second)  // once per shape and picture
      problem("unsupported-construct",
              "the text of a '" + ns.shape_name + "' node is placed by its shape, which is not modelled", b, e, &ps);
    n.incomplete = true;
  }
  std::optional<Point> off = anchor_offset(g, anchor.empty() ? "center" : anchor);
  if (!off) {
    problem("unsupported-key", "unknown anchor '" + anchor + "'", b, e, &ps);
    off = Point{0, 0};
    n.incomplete = true;
  }
  Transform lin = shape_lin;
  lin.e = lin.f = 0;
  n.center = anchor_canvas - lin.apply_linear(*off);
  n.rotation_deg = lin.rotation_deg();
  if (std::abs(n.rotation_deg) < 1e-9) n.rotation_deg = 0;
  // The IR box is the drawn border (inner sep included, outer sep not); the picture bbox
  // below adds the outer sep, as pgf's node anchors do.
  auto outline = [&](double ox, double oy) {
    BBoxAccumulator acc;
    if (g.shape == NodeShape::circle || g.shape == NodeShape::ellipse) {
      ConjugateEllipse el{n.center, lin.apply_linear({g.half_width + ox, 0}), lin.apply_linear({0, g.half_height + oy})};
      auto pr = principal_axes(el.u, el.v);
      const double r = pr.rotation_deg * kDeg;
      // extents of a rotated ellipse
      const double hx = std::sqrt(std::pow(pr.rx * std::cos(r), 2) + std::pow(pr.ry * std::sin(r), 2));
      const double hy = std::sqrt(std::pow(pr.rx * std::sin(r), 2) + std::pow(pr.ry * std::cos(r), 2));
      acc.add(Point{n.center.x - hx, n.center.y - hy});
      acc.add(Point{n.center.x + hx, n.center.y + hy});
    } else {
      for (Point q : {Point{-1, -1}, Point{1, -1}, Point{1, 1}, Point{-1, 1}})
        acc.add(n.center + lin.apply_linear(box_corner(g, q, ox, oy)));
    }
    return acc.box;
  };
  n.box = outline(0, 0);
  {
    int i = 0;
    for (Point q : {Point{-1, -1}, Point{1, -1}, Point{1, 1}, Point{-1, 1}})
      n.corners[static_cast<std::size_t>(i++)] = n.center + lin.apply_linear(box_corner(g, q, 0, 0));
  }
  const double scale = std::sqrt(std::abs(lin.determinant()));
  n.text_width = tb.width * scale;
  n.text_height = tb.height * scale;
  n.text_depth = tb.depth * scale;
  n.font_size_pt = font.size_pt * scale;
  n.uncertainty_pt = tb.uncertainty * scale;
  n.inner_sep = in.inner_xsep;
  n.outer_sep = g.outer_xsep;
  n.drawn = ns.node_drawn;
  n.filled = ns.node_filled;
  n.placement = ns.placement;
  n.prov = stmt_ ? stmt_->prov : Provenance{};
  if (!is_coordinate && !ns.overlay) {
    // pgfmoduleshapes: the picture grows by the shape's background path, the border (inner sep
    // included, outer sep not), and by half the line width when the border is drawn (lualatex:
    // minimum size=10pt gives +-5pt undrawn or filled, +-5.2pt drawn at .4pt, +-7pt at 4pt)
    const double stroke = ns.node_drawn ? ns.style.line_width / 2 : 0;
    Box border = outline(stroke, stroke);
    if (g.shape == NodeShape::coordinate) border = {n.center.x, n.center.y, n.center.x, n.center.y};
    ps.node_bbox.add(border);
  }
  // A `coordinate` (\coordinate (B) at (p)) is \pgfcoordinate, which names a point and protocols
  // no size: the picture does not grow by it (lualatex: \coordinate (B) at (2,0) beside a line
  // at x = 0 leaves the picture 0.4pt wide). A path's own point before it (`(p) coordinate`) grows
  // the picture as every path point does.
  NodeRecord rec;
  rec.g = g;
  rec.center = n.center;
  rec.shape = lin;
  rec.is_point = g.shape == NodeShape::coordinate;
  rec.unplaced = n.incomplete || ps.incomplete || ps.refers_unplaced || ns.placed_by_layout || ns.unread_scope_keys;
  if (!name.empty()) {
    named_[collapse_spaces(name)] = rec;
    ps.named.push_back(collapse_spaces(name));
  }
  if (ps.capture_fig) {
    ps.capture_fig = false;
    ps.last_fig = collapse_spaces(name);
    if (ps.last_fig.empty()) {  // tikz.code.tex \tikz@fig@mustbenamed: a dummy name
      ps.last_fig = "tikz@f@" + std::to_string(++unnamed_figs_);
      named_[ps.last_fig] = rec;
    }
  }
  for (const std::string& a : node_aliases(ns)) named_[collapse_spaces(a)] = rec;  // alias=, chains
  for (const auto& [a, existing] : take_pending_aliases(ns))
    if (auto f = named_.find(collapse_spaces(existing)); f != named_.end()) named_[collapse_spaces(a)] = f->second;
  if (is_coordinate) {
    if (!name.empty()) d_.coordinates.push_back({name, n.center, n.prov});
    return static_cast<std::size_t>(-1);
  }
  d_.nodes.push_back(std::move(n));
  ps.nodes.push_back(d_.nodes.size() - 1);
  return d_.nodes.size() - 1;
}

std::optional<Point> PictureLowerer::relative_placement(PathState& ps, Settings& ns, std::uint32_t ob) {
  struct Direction {
    const char* name;
    const char* border;  // the target's anchor the positioning library measures from
    int sx, sy;
    double old_angle;  // tikz.code.tex \tikz@of
  };
  static constexpr Direction kDirections[] = {
      {"above", "north", 0, 1, 90},  {"below", "south", 0, -1, -90},
      {"left", "west", -1, 0, 180},  {"right", "east", 1, 0, 0},
      {"above left", "north west", -1, 1, 135},  {"above right", "north east", 1, 1, 45},
      {"below left", "south west", -1, -1, -135}, {"below right", "south east", 1, -1, -45}};
  const bool old_style = ns.of_direction.ends_with(" of");
  const std::string dir_name = old_style ? ns.of_direction.substr(0, ns.of_direction.size() - 3) : ns.of_direction;
  const Direction* dir = nullptr;
  for (const auto& d : kDirections)
    if (dir_name == d.name) dir = &d;
  if (!dir) return std::nullopt;

  // The target: a node (with an anchor or not), or any coordinate (`$(A)!.5!(B)$`), as
  // \tikz@scan@one@point reads it; only a node's border shifts the reference point.
  std::string target = collapse_spaces(ns.of_target);
  if (target.size() >= 2 && target.front() == '(' && target.back() == ')') target = target.substr(1, target.size() - 2);
  std::string tanchor;
  auto f = named_.find(target);
  if (f == named_.end()) {
    const std::size_t dot = target.rfind('.');
    if (dot != std::string::npos && named_.count(target.substr(0, dot))) {
      tanchor = target.substr(dot + 1);
      f = named_.find(target.substr(0, dot));
    }
  }
  std::optional<Point> ref;
  if (f != named_.end()) {
    if (f->second.unplaced) ps.refers_unplaced = true;
    const std::string from = !tanchor.empty() ? tanchor : (old_style || ns.on_grid) ? "center" : dir->border;
    auto off = anchor_offset(f->second.g, from);
    if (!off) {
      problem("unsupported-coordinate", "unknown anchor '" + from + "' in '" + ns.placement + "'", ob, ob, &ps);
      return std::nullopt;
    }
    ref = f->second.anchor_canvas(*off);
  } else {
    grammar::Coordinate c = grammar::parse_coordinate(target);
    c.span = {ob, ob};
    auto r = resolve(&ps, c, ps.s, false);
    if (!r) return std::nullopt;  // resolve reported it
    ref = ps.s.ctm.apply(r->local);
  }
  if (!old_style && ns.on_grid && f != named_.end()) ns.anchor = "center";  // old keys set it themselves

  // The distance: the key's own, else `node distance`, read as positioning reads it;
  // \tikz@of takes its first part as a length and shifts by it in the direction's angle.
  std::string dist = ns.of_distance;
  if (dist.empty()) dist = ns.node_distance.empty() ? (old_style ? "1cm" : "1cm and 1cm") : ns.node_distance;
  const std::size_t andp = dist.find("and");
  const FontUnits fu = font_units_of(ns);
  std::string err;
  Point shift;
  if (old_style) {
    auto d = eval_dimension(std::string(trim(dist.substr(0, andp))), fu, &err);
    if (!d) {
      if (!err.empty()) problem("math-error", err, ob, ob, &ps);
      return std::nullopt;
    }
    shift = *d * Point{std::cos(dir->old_angle * kDeg), std::sin(dir->old_angle * kDeg)};
  } else if (auto p = positioning_shift(dist, dir->sx, dir->sy, ns, &err)) {
    shift = *p;
  } else {
    problem("math-error", err.empty() ? "cannot read the distance '" + dist + "'" : err, ob, ob, &ps);
    return std::nullopt;
  }
  // tikz.code.tex \tikz@node@transformations: the shift is one of the node's own transformations,
  // so the scope's scale and rotation reach it only with transform shape
  return *ref + (ns.transform_shape ? ps.s.ctm.apply_linear(shift) : shift);
}

std::optional<std::size_t> PictureLowerer::lower_node(PathState& ps, const grammar::Node& gn,
                                                      const NodePlacement& where, bool implicit_pos,
                                                      const SegmentRef* seg, bool is_coordinate,
                                                      const Settings* base, const std::string& extra_style) {
  for (const grammar::Span& u : gn.unsupported) {
    // `node foreach \x in {..}` (pgfmanual 17.? "node foreach") repeats the node with \x bound; not
    // unrolled, its options and text name an unbound variable: the node is left out, reported once
    const std::string_view what = stmt_ && u.end <= stmt_->text.size() && u.begin < u.end
                                      ? std::string_view(stmt_->text).substr(u.begin, u.end - u.begin)
                                      : std::string_view();
    if (what.starts_with("foreach")) {
      problem("unsupported-construct", "'node foreach' is not unrolled: the repeated node is left out", u.begin,
              u.end, &ps);
      return std::nullopt;
    }
  }
  Settings ns = base ? *base : ps.s;
  ns.node_drawn = ns.node_filled = false;
  ns.labels.clear();
  ns.pins.clear();
  ns.node_name.clear();
  ns.positioning_pre_shift.reset();  // \tikz@node@reset@hook: \let\tikz@lib@pos@call=\relax
  reset_node_library_keys(ns);
  if (!implicit_pos) ns.pos.reset();
  const std::uint32_t ob = gn.options ? gn.options->span.begin + 1 : gn.span.begin;
  std::vector<LowerProblem> probs;
  if (!extra_style.empty())
    keys_.apply(ns, *expand(extra_style, gn.span.begin, &ps), KeyTarget::node, gn.span.begin, probs);
  if (is_coordinate) {
    apply_hook(ns, "every coordinate", KeyTarget::node, gn.span.begin, &ps, probs);
  } else {
    std::vector<tex::StyleProblem> sp;
    auto every = styles_.expand_style_shared("every node", &sp);
    style_problems(sp, gn.span.begin, &ps);
    apply_at_use(ns, every, KeyTarget::node, gn.span.begin, probs);
  }
  if (gn.options) {
    auto list = expand(gn.options->raw, ob, &ps);
    // Copied only to take out quotes (a key that starts with '"').
    const bool quoted = std::any_of(list->begin(), list->end(), [](const tex::FlatKey& k) {
      return !k.key.empty() && k.key.front() == '"';
    });
    std::vector<tex::FlatKey> keys = quoted ? *list : std::vector<tex::FlatKey>{};
    // quotes library: "text" [options] on a node is a label
    for (auto it = keys.begin(); it != keys.end();) {
      // pgfkeys hands a first-char syntax handler the whole item, `"2" label position=left`
      // included (pgfkeys.code.tex \pgfkeys@use@handler): a value belongs to the last option
      auto q = parse_quote_key(it->has_value ? it->key + "=" + it->value : it->key);
      if (q) {
        // quotes mean label: label={[direction shorthands,every label quotes,options]text}, where the
        // direction shorthands turn `above`, `left`... into `label position=` (tikzlibraryquotes)
        std::string opts;
        for (const auto& item : tex::split_options(q->options)) {
          std::string k(trim(item.key));
          if (k == "'") continue;
          std::string kv = k + (item.has_value ? "=" + item.value : "");
          if (!item.has_value) {
            if (k == "centered") kv = "label position=center";
            else if (auto a = direction_angle(k)) kv = "label position=" + std::to_string(*a);
          }
          opts += (opts.empty() ? "" : ",") + kv;
        }
        ns.labels.push_back("[" + opts + "]" + q->text);
        it = keys.erase(it);
      } else {
        ++it;
      }
    }
    keys_.apply(ns, quoted ? keys : *list, KeyTarget::node, ob, probs);
  }
  report(probs, &ps);
  std::string name = !gn.name.empty() ? gn.name : ns.node_name;
  if (is_coordinate) ns.shape = NodeShape::coordinate;

  // Where the anchor goes. TikZ shifts to the `at` point in the path's system and then applies
  // the node options' transformations (xshift, above=3pt, scale...) around that point.
  const Transform node_own = ps.s.ctm.inverse().then_local(ns.ctm);
  // tikz.code.tex \tikz@node@transformations: without transform shape the scope's non-translations
  // are reset before the node's own shifts, so xshift/yshift are not scaled or rotated by the scope
  Point own_offset = ns.transform_shape ? ps.s.ctm.apply_linear(node_own.apply(Point{0, 0}))
                                        : node_own.apply(Point{0, 0});
  if (ns.positioning_pre_shift)  // the first of the node's own transformations (positioning)
    own_offset = own_offset + (ns.transform_shape ? ps.s.ctm.apply_linear(*ns.positioning_pre_shift)
                                                  : *ns.positioning_pre_shift);
  std::optional<Point> anchor_point;
  std::optional<double> tangent;
  NodePlacement placed = where;
  if (!ns.of_direction.empty()) {
    if (auto at = relative_placement(ps, ns, ob)) {
      anchor_point = *at + own_offset;
      placed.on_path.reset();
      placed.pos = -1;
    }
  }
  if (!anchor_point && gn.at) {
    // tikz.code.tex \tikz@fig@scan@at: `at (x,y)` becomes \pgfpointxy, evaluated when the node
    // is placed, so the x, y and z vectors of all the node's options reach it, also of those
    // written after `at` (tikz-3dplot's `\node[tdplot_rotated_coords] at (1,2,3)`); the node's
    // transformations act around the point instead.
    std::optional<Settings> storage;
    auto r = resolve(&ps, *gn.at, with_vectors_of(ps.s, ns, storage), false);
    if (r) anchor_point = ps.s.ctm.apply(r->local) + own_offset;
    placed.on_path.reset();
    placed.pos = -1;
  }
  if (!anchor_point && !ns.ops->at.empty() && ns.ops->at != ps.s.ops->at) {  // node [at=(c)] (chains' `placed {at=..}`)
    std::string t(trim(ns.ops->at));
    if (t.size() >= 2 && t.front() == '(' && t.back() == ')') t = t.substr(1, t.size() - 2);
    grammar::Coordinate c = grammar::parse_coordinate(t);
    c.span = gn.span;
    // `at=` likewise: the vectors of all the node's options
    std::optional<Settings> storage;
    if (auto r = resolve(&ps, c, with_vectors_of(ps.s, ns, storage), false)) anchor_point = ps.s.ctm.apply(r->local) + own_offset;
    placed.on_path.reset();
    placed.pos = -1;
  }
  if (!anchor_point && ns.lib->fit_center) anchor_point = *ns.lib->fit_center;  // fit: at= the box's center
  if (!anchor_point) {
    std::optional<double> pos = ns.pos;
    if (implicit_pos && !pos) pos = 0.5;
    if (pos && seg && seg->valid()) {
      double ang = 0;
      Point c = point_on(*seg, *pos, &ang);
      tangent = ang;
      anchor_point = c + own_offset;
      placed.on_path = ps.path_id;
      placed.pos = *pos;
    } else if (where.local_point) {
      anchor_point = ps.s.ctm.apply(*where.local_point) + own_offset;
    } else {
      anchor_point = ps.s.ctm.apply(Point{0, 0}) + own_offset;
    }
  }
  // tikz.code.tex \tikz@auto@pre: a sloped node reads the direction in its own, turned frame
  if (ns.auto_anchor && tangent) ns.anchor = auto_anchor_for(ns.sloped ? 0 : *tangent, ns.auto_left);
  // The node's shape: its own transformations, and the scope's only with transform shape.
  Transform shape_lin = ns.transform_shape ? ns.ctm : node_own;
  shape_lin.e = shape_lin.f = 0;
  if (ns.sloped && tangent) {
    double a = *tangent;
    // pgf keeps sloped text upright unless `allow upside down`
    while (a > 90) a -= 180;
    while (a < -90) a += 180;
    shape_lin = Transform::rotate(a).then_local(shape_lin);
  }
  const std::uint32_t b = gn.span.begin, e = gn.span.end;
  // through library: minimum size twice the distance from the node's `at`
  if (ns.lib->circle_through) ns.minimum_width = ns.minimum_height = 2 * length(*ns.lib->circle_through - *anchor_point);
  // what libraries draw after the node names it (tikz.code.tex \tikz@fig@mustbenamed)
  const bool draws_after = !is_coordinate && !after_node_statements(ns, "").empty();
  const bool alias_only = draws_after && name.empty();
  if (alias_only) name = kLastNodeAlias;
  std::size_t idx = emit_node(ps, ns, gn.text, name, *anchor_point, shape_lin, ns.anchor, b, e, is_coordinate);
  if (idx == static_cast<std::size_t>(-1)) {
    if (is_coordinate && (!ns.labels.empty() || !ns.pins.empty())) {
      // label= and pin= on a coordinate: placed around its point (a coordinate shape has no size)
      NodeRecord rec;
      rec.center = *anchor_point;
      rec.shape = shape_lin;
      rec.is_point = true;
      NodeShapeInput in;
      in.shape = NodeShape::coordinate;
      rec.g = node_shape_geometry(in);
      add_labels(ps, idx, ns, rec, b, e);
    }
    return std::nullopt;
  }
  Node& n = d_.nodes[idx];
  n.on_path = placed.on_path;
  if (ns.lib->on_chain) n.placed_by = "chain";
  n.pos_on_path = placed.pos;
  if (n.placement.empty() && placed.on_path) n.placement = "pos=" + std::to_string(placed.pos).substr(0, 5);
  if (!ns.labels.empty() || !ns.pins.empty()) {
    NodeRecord rec = named_.count(collapse_spaces(name)) ? named_[collapse_spaces(name)] : NodeRecord{};
    if (name.empty()) {
      // rebuild the record of an unnamed node for its labels
      NodeShapeInput in;
      in.shape = n.shape;
      rec.center = n.center;
      rec.shape = shape_lin;
      rec.g = node_shape_geometry(in);
      rec.g.half_width = (n.corners[1].x - n.corners[0].x) / 2;
      rec.g.half_height = (n.corners[2].y - n.corners[1].y) / 2;
      rec.g.outer_xsep = rec.g.outer_ysep = n.outer_sep;
      if (std::abs(n.rotation_deg) > 1e-9 || std::abs(shape_lin.determinant() - 1) > 1e-9) {
        // general case: recompute from the box in shape coordinates
        Point dx = shape_lin.inverse().apply_linear(n.corners[1] - n.corners[0]);
        Point dy = shape_lin.inverse().apply_linear(n.corners[2] - n.corners[1]);
        rec.g.half_width = length(dx) / 2;
        rec.g.half_height = length(dy) / 2;
      }
      if (n.shape == NodeShape::circle || n.shape == NodeShape::ellipse) {
        // corners hold the circumscribed square of the circle/ellipse
      }
    }
    add_labels(ps, idx, ns, rec, b, e);
  }
  if (draws_after) lower_after_node(ns, name, b, e);
  if (alias_only) {
    d_.nodes[idx].name.clear();
    named_.erase(kLastNodeAlias);
  }
  return idx;
}

void PictureLowerer::add_labels(PathState& ps, std::size_t node_index, const Settings& ns, const NodeRecord& rec,
                                std::uint32_t b, std::uint32_t e) {
  auto one = [&](const std::string& spec_in, bool is_pin) {
    // [options]angle:text  (pgfmanual 17.10.2)
    std::string spec(trim(spec_in));
    std::string opts;
    if (!spec.empty() && spec.front() == '[') {
      int d = 0;
      std::size_t j = 0;
      for (; j < spec.size(); ++j) {
        if (spec[j] == '[' || spec[j] == '{') ++d;
        if ((spec[j] == ']' || spec[j] == '}') && --d == 0) break;
      }
      opts = spec.substr(1, j - 1);
      spec = std::string(trim(std::string_view(spec).substr(std::min(spec.size(), j + 1))));
    }
    std::string where = ns.label_position, text = spec;
    // `label position=` (`pin position=`) among the label's own options sets its default position
    for (const auto& item : tex::split_options(opts)) {
      std::string k(trim(item.key));
      if (item.has_value && k == (is_pin ? "pin position" : "label position"))
        where = std::string(trim(tex::strip_braces(item.value)));
    }
    // the angle ends at the first ':' outside braces and math
    {
      int d = 0;
      bool math = false;
      for (std::size_t j = 0; j < spec.size(); ++j) {
        char ch = spec[j];
        if (ch == '\\') {
          ++j;
          continue;
        }
        if (ch == '{') ++d;
        if (ch == '}') --d;
        if (ch == '$') math = !math;
        if (ch == ':' && d == 0 && !math) {
          where = std::string(trim(std::string_view(spec).substr(0, j)));
          text = std::string(trim(std::string_view(spec).substr(j + 1)));
          break;
        }
      }
    }
    text = tex::strip_braces(text);
    // border point and direction
    double angle = 0;
    Point border;
    bool centered = false;
    if (where == "center") {
      border = rec.center;
      centered = true;
    } else if (auto dir = direction_angle(where)) {
      angle = *dir;
      auto off = anchor_offset(rec.g, where);
      border = rec.anchor_canvas(off ? *off : border_point(rec.g, angle));
      if (!off) border = rec.anchor_canvas(border_point(rec.g, angle));
    } else {
      std::string err;
      auto v = eval_math(where, font_units_of(ns), &err);
      if (!v) {
        problem("unsupported-key", "cannot read the label position '" + where + "'", b, e, &ps);
        return;
      }
      angle = v->value;
      border = rec.anchor_canvas(border_point(rec.g, angle));
    }
    // the label's direction on the canvas follows the main node's rotation
    const double canvas_angle = angle + rec.shape.rotation_deg();
    Settings ls = ps.s;
    ls.node_drawn = ls.node_filled = false;
    ls.anchor.clear();
    ls.placement.clear();
    ls.labels.clear();
    ls.pins.clear();
    ls.pos.reset();
    ls.of_direction.clear();
    std::vector<LowerProblem> probs;
    // The label is a node of its own (tikz.code.tex: `node [every label, ...]`): `every node`,
    // `every label` and its options are its own transformations, measured from identity
    // (lualatex: every node/.append style={scale=1.6} scales a label's box and its distance)
    const Transform before_opts = ls.ctm;
    ls.ctm = Transform{};
    {
      std::vector<tex::StyleProblem> sp;
      auto every = styles_.expand_style_shared("every node", &sp);
      auto every_label = styles_.expand_style_shared(is_pin ? "every pin" : "every label", &sp);
      style_problems(sp, b, &ps);
      apply_at_use(ls, every, KeyTarget::node, b, probs);
      apply_at_use(ls, every_label, KeyTarget::node, b, probs);
    }
    if (!opts.empty()) {
      std::vector<tex::StyleProblem> sp;
      auto keys = styles_.expand_shared(opts, &sp);
      style_problems(sp, b, &ps);
      apply_at_use(ls, keys, KeyTarget::node, b, probs);
    }
    for (auto& p : probs) {
      p.begin = b;
      p.end = e;
    }
    report(probs, &ps);
    const Transform own = ls.ctm;
    ls.ctm = before_opts;
    double dist = is_pin ? ls.pin_distance.value_or(3 * font_units_of(ls).ex) : ls.label_distance;
    std::string anchor = ls.anchor;
    if (anchor.empty()) anchor = centered ? "center" : label_anchor_for_angle(canvas_angle);
    Point p = border;
    if (!centered) {
      // With transform shape the label node's shift by the label (pin) distance is a vector of
      // the picture's system: scaled with it (lualatex: label distance=4pt under scale=1.6 and
      // transform shape puts the label 6.4pt from the border). Without it, canvas points.
      // The shift is the last of the label node's own transformations (tikz@label@post comes
      // after its options): its own scale reaches it.
      if (ls.transform_shape) dist *= std::sqrt(std::abs(ps.s.ctm.determinant()));
      p = p + own.apply_linear(Point{dist * std::cos(canvas_angle * kDeg), dist * std::sin(canvas_angle * kDeg)});
    }
    p = p + ps.s.ctm.apply_linear(own.apply(Point{0, 0}));
    Transform shape_lin = own;
    shape_lin.e = shape_lin.f = 0;
    if (ls.transform_shape) shape_lin = ps.s.ctm.then_local(shape_lin);
    shape_lin.e = shape_lin.f = 0;
    std::size_t li = emit_node(ps, ls, text, ls.node_name, p, shape_lin, anchor, b, e, false);
    if (li == static_cast<std::size_t>(-1)) return;
    Node& ln = d_.nodes[li];
    ln.is_label = true;
    if (node_index != static_cast<std::size_t>(-1)) ln.label_of = static_cast<std::uint32_t>(node_index);
    ln.placement = std::string(is_pin ? "pin=" : "label=") + where;
    if (is_pin) {
      // the pin edge: from the main node's border to the pin node (pgfmanual 17.10.3)
      NodeRecord pin;
      pin.center = ln.center;
      pin.g.shape = NodeShape::rectangle;
      pin.g.half_width = ln.box.width() / 2;
      pin.g.half_height = ln.box.height() / 2;
      Point to = pin.border_toward_canvas(border);
      Style st;
      st.draw = true;
      st.line_width = ps.s.style.line_width;
      add_element(ps, Segment{border, to}, st);
    }
  };
  for (const auto& l : ns.labels) one(l, false);
  for (const auto& p : ns.pins) one(p, true);
}

// angles library: pic {angle=A--B--C} and pic {right angle=A--B--C} (pgfmanual 42)
// A pic written among a to/edge operation's nodes (`to pic {seagull} (B)`) is drawn by its code,
// not typeset: it is no node with the pic's name as text. Not lowered: reported, and skipped.
bool PictureLowerer::skipped_edge_pic(PathState& ps, const grammar::Node& n) {
  if (!n.is_pic) return false;
  problem("unsupported-construct", "a pic placed on a to or edge operation is not lowered", n.span.begin, n.span.end,
          &ps);
  return true;
}

void PictureLowerer::lower_pic(PathState& ps, const PathOp& op) {
  if (!op.node) return;
  const grammar::Node& gn = *op.node;
  std::string text = collapse_spaces(gn.text);
  std::string type = text, arg;
  std::size_t eq = text.find('=');
  if (eq != std::string::npos) {
    type = collapse_spaces(text.substr(0, eq));
    arg = collapse_spaces(text.substr(eq + 1));
  }
  const std::uint32_t b = op.span.begin, e = op.span.end;
  if (type != "angle" && type != "right angle") {
    if (type.empty())
      // `\pic[opts];`: a style among the options sets `pic type` (grammar/byte_lexer.cpp)
      problem("unsupported-construct", "a pic whose type a style in its options sets is not lowered", b, e, &ps);
    else if (!lower_user_pic(ps, op, type, arg))
      problem("unsupported-construct", "pic '" + type + "' is not lowered", b, e, &ps);
    return;
  }
  if (arg.empty()) arg = "A--B--C";
  std::vector<std::string> names;
  for (std::size_t at = 0;;) {
    std::size_t dash = arg.find("--", at);
    names.push_back(collapse_spaces(arg.substr(at, dash == std::string::npos ? std::string::npos : dash - at)));
    if (dash == std::string::npos) break;
    at = dash + 2;
  }
  if (names.size() != 3) {
    problem("unsupported-construct", "pic '" + type + "' needs A--B--C", b, e, &ps);
    return;
  }
  Point pts[3];
  for (int i = 0; i < 3; ++i) {
    auto f = named_.find(names[static_cast<std::size_t>(i)]);
    if (f == named_.end()) {
      problem("unsupported-coordinate", "undefined node or coordinate '" + names[static_cast<std::size_t>(i)] + "'", b, e, &ps);
      return;
    }
    pts[i] = f->second.center;
  }
  // The pic's code is a path of its own (tikzlibraryangles.code.tex: `\path [pic actions] ...`):
  // the enclosing path's actions do not carry over (`\draw ... pic {angle}` draws no arc), only
  // the pic's own options (`pic ["$\alpha$", draw]`) paint it. Colours and widths still do.
  Settings s = ps.s;
  s.style.draw = false;
  s.style.fill = false;
  std::vector<LowerProblem> probs;
  std::string label;
  if (gn.options) {
    auto keys = *expand(gn.options->raw, gn.options->span.begin + 1, &ps);
    for (auto it = keys.begin(); it != keys.end();) {
      if (!it->key.empty() && it->key.front() == '"') {
        std::size_t close = it->key.find('"', 1);
        label = it->key.substr(1, close == std::string::npos ? std::string::npos : close - 1);
        it = keys.erase(it);
      } else {
        ++it;
      }
    }
    keys_.apply(s, keys, KeyTarget::op, gn.options->span.begin + 1, probs);
    report(probs, &ps);
  }
  double ecc = 0.6;
  if (gn.options) {
    for (const auto& it : tex::split_options(gn.options->raw)) {
      if (tex::normalise_key(it.key) == "angle eccentricity") {
        std::string err;
        if (auto v = eval_math(it.value, font_units_of(s), &err)) ecc = v->value;
      }
    }
  }
  const Point B = pts[1];
  const double r = s.angle_radius;
  double a0 = angle_deg(pts[0] - B), a1 = angle_deg(pts[2] - B);
  while (a1 < a0) a1 += 360;
  while (a1 - a0 >= 360) a1 -= 360;
  Style st = s.style;
  st.invisible = !st.draw && !st.fill;
  const double mid = (a0 + a1) / 2;
  double label_dist = ecc * r;
  if (type == "angle") {
    Arc arc;
    arc.center = B;
    arc.rx = arc.ry = r;
    arc.start_deg = a0;
    arc.end_deg = a1;
    arc.from = B + Point{r * std::cos(a0 * kDeg), r * std::sin(a0 * kDeg)};
    arc.to = B + Point{r * std::cos(a1 * kDeg), r * std::sin(a1 * kDeg)};
    add_element(ps, arc, st);
    ConjugateEllipse el{B, {r, 0}, {0, r}};
    for (Point p : arc_hull_points(el, a0, a1)) ps.bbox.add(p);
    ps.bbox.add(B);
  } else {
    RightAngleMark m;
    m.corner = B;
    m.leg_a = B + Point{r * std::cos(a0 * kDeg), r * std::sin(a0 * kDeg)};
    m.leg_b = B + Point{r * std::cos(a1 * kDeg), r * std::sin(a1 * kDeg)};
    m.size = r;
    add_element(ps, m, st);
    ps.bbox.add(B);
    ps.bbox.add(m.leg_a);
    ps.bbox.add(m.leg_b);
    ps.bbox.add(m.leg_a + (m.leg_b - B));
    label_dist *= std::numbers::sqrt2;
  }
  if (!label.empty()) {
    Settings ls = s;
    ls.anchor.clear();
    ls.placement.clear();
    Point at = B + Point{label_dist * std::cos(mid * kDeg), label_dist * std::sin(mid * kDeg)};
    std::size_t li = emit_node(ps, ls, label, "", at, Transform{}, "center", b, e, false);
    if (li != static_cast<std::size_t>(-1)) d_.nodes[li].placement = "angle label";
  }
}

// ---------------------------------------------------------------- path operations

void PictureLowerer::lower_op(PathState& ps, const PathOp& op) {
  const Point saved_ref = ps.ref_local;
  const bool had_cur = ps.has_cur;
  lower_op_impl(ps, op);
  switch (op.kind) {
    case OpKind::Move: case OpKind::Line: case OpKind::HV: case OpKind::VH: case OpKind::Curve:
    case OpKind::Rectangle: case OpKind::Arc: case OpKind::Grid: case OpKind::Parabola: case OpKind::Sine:
    case OpKind::Cosine: case OpKind::To: case OpKind::Plot: case OpKind::Cycle: {
      ps.last_fig.clear();
      // pgfmanual 13.4.2: `+` coordinates do not change the reference of later relative ones
      const bool plus = !op.coords.empty() && op.coords.back().relative == Coordinate::Relative::Plus;
      ps.ref_local = plus && had_cur ? saved_ref : ps.cur_local;
      break;
    }
    case OpKind::NodeOp:
    case OpKind::CoordinateOp:
      if (!had_cur && ps.has_cur) ps.ref_local = ps.cur_local;
      break;
    default:
      break;
  }
}

void PictureLowerer::lower_op_impl(PathState& ps, const PathOp& op) {
  const std::uint32_t b = op.span.begin, e = op.span.end;
  Settings& s = ps.s;
  // op-local options (circle[...], arc[...], to[...]) on a copy. Without options `os` is `s`
  // itself, not a copy (a Settings copy costs ~2,000 instructions): only the Options case below
  // changes ps.s, and it does not read `os`.
  // a package's `to` (circuitikz's to[R]): rewritten before TikZ's keys see its options
  if (op.kind == OpKind::To && op.options && !op.to_cycle && !handlers_.empty() && lower_package_to(ps, op)) return;
  std::optional<Settings> op_local;
  if (op.options && op.kind != OpKind::Options) op_local.emplace(s);
  const Settings& os = op_local ? *op_local : s;
  if (op_local) {
    std::vector<LowerProblem> probs;
    // `let ... in circle [radius=\n1]`: the let registers hold inside the operations' options too
    keys_.apply(*op_local, *expand(substitute_let(&ps, op.options->raw), op.options->span.begin + 1, &ps),
                KeyTarget::op, op.options->span.begin + 1, probs);
    report(probs, &ps);
  }
  auto place_mid_nodes = [&](const SegmentRef& seg, const Settings& base) {
    for (const auto& n : op.edge_nodes) {
      if (skipped_edge_pic(ps, n)) continue;
      NodePlacement w;
      w.local_point = ps.cur_local;
      lower_node(ps, n, w, true, &seg, n.is_coordinate, &base);
    }
  };
  auto radius_axes = [&](const Settings& st, double rx, bool rxu, double ry, bool ryu, Point* u, Point* v) {
    *u = rxu ? Point{rx, 0} : rx * st.xvec;
    *v = ryu ? Point{0, ry} : ry * st.yvec;
  };
  switch (op.kind) {
    case OpKind::Move: {
      if (op.coords.empty()) return;
      const Coordinate& c = op.coords[0];
      auto r = resolve(&ps, c, s);
      if (!r) return;
      if (c.relative == Coordinate::Relative::Plus) {
        // `+` does not change the reference point of later relative coordinates; we still move
        Point keep = ps.cur_local;
        move_to(ps, *r);
        (void)keep;
      } else {
        move_to(ps, *r);
      }
      ps.last = SegmentRef{};
      return;
    }
    case OpKind::Line:
    case OpKind::HV:
    case OpKind::VH: {
      if (op.coords.empty()) return;
      const Point start_local = ps.cur_local;
      const Point start_canvas = ps.run.empty() ? canvas(ps, ps.cur_local) : ps.run.back();
      auto r = resolve(&ps, op.coords.back(), s);
      if (!r) return;
      if (op.kind == OpKind::Line) {
        line_to(ps, *r);
      } else {
        // pgfmanual 14.2: |- goes vertically first, -| horizontally
        Point tc = canvas(ps, r->local);
        Point sc = canvas(ps, start_local);
        Point corner_c = op.kind == OpKind::HV ? Point{sc.x, tc.y} : Point{tc.x, sc.y};
        Resolved corner;
        corner.local = s.ctm.inverse().apply(corner_c);
        std::string target_node = r->bare_node;
        if (!target_node.empty()) {
          // the second leg ends at the node's border
          r->bare_node.clear();
          r->local = s.ctm.inverse().apply(named_.at(target_node).border_toward_canvas(corner_c));
        }
        line_to(ps, corner);
        line_to(ps, *r);
        if (!target_node.empty()) {
          // as after `-- (node)`: the path goes on from the node's centre, trimmed again at its
          // border (`-| (c) |- (b)` leaves c downwards at its border, not through its text)
          flush_run(ps, false, false);
          const Point center = named_.at(target_node).center;
          ps.cur_local = s.ctm.inverse().apply(center);
          ps.cur_node = target_node;
          ps.run = {center};
          ps.run_start_node = target_node;
          ps.run_is_3d = false;
        }
        ps.last = SegmentRef{};
        ps.last.kind = SegmentRef::Kind::hv;
        ps.last.a = start_canvas;
        ps.last.corner = corner_c;
        ps.last.b = canvas(ps, r->local);
      }
      place_mid_nodes(ps.last, s);
      return;
    }
    case OpKind::Cycle: {
      if (!ps.subpath_start_set) return;
      ps.closes = true;
      const Point start = ps.run.empty() ? canvas(ps, ps.cur_local) : ps.run.back();
      Point target = ps.subpath_start;
      if (op.argument == "|-" || op.argument == "-|") {
        Point corner = op.argument == "|-" ? Point{start.x, target.y} : Point{target.x, start.y};
        if (ps.run.empty()) ps.run = {start};
        ps.run.push_back(corner);
        ps.run_is_3d = false;
      }
      ps.last = SegmentRef{};
      ps.last.kind = SegmentRef::Kind::line;
      ps.last.a = ps.run.empty() ? start : ps.run.back();
      ps.last.b = target;
      const bool continuous = !ps.run.empty() && std::abs(ps.run.front().x - target.x) < 1e-6 &&
                              std::abs(ps.run.front().y - target.y) < 1e-6;
      if (continuous && ps.run.size() >= 3) {
        flush_run(ps, true, true);
      } else {
        if (ps.run.empty()) ps.run = {start};
        ps.run.push_back(target);
        ps.run_is_3d = false;
        flush_run(ps, false, false);
      }
      ps.cur_local = s.ctm.inverse().apply(target);
      ps.cur_node.clear();
      place_mid_nodes(ps.last, s);
      return;
    }
    case OpKind::Curve: {
      if (op.coords.size() < 2 && !op.to_cycle) return;
      const Point start_local = ps.cur_local;
      std::optional<Resolved> target;
      if (op.to_cycle) ps.closes = true;  // tikz.code.tex: `.. cycle` ends with \pgfpathclose
      if (op.to_cycle) {
        target = Resolved{s.ctm.inverse().apply(ps.subpath_start), "", std::nullopt};
      } else {
        target = resolve(&ps, op.coords.back(), s);
      }
      if (!target) return;
      auto c1 = resolve_abs(&ps, op.coords[0], s, 0);
      if (!c1) return;
      if (op.coords[0].relative != Coordinate::Relative::None) c1->local = start_local + c1->local;
      Resolved c2 = *c1;
      const std::size_t n_controls = op.to_cycle ? op.coords.size() : op.coords.size() - 1;
      if (n_controls >= 2) {
        auto r2 = resolve_abs(&ps, op.coords[1], s, 0);
        if (!r2) return;
        c2 = *r2;
        // pgfmanual 14.3: a relative second control point is relative to the target
        if (op.coords[1].relative != Coordinate::Relative::None) c2.local = target->local + c2.local;
      }
      Bezier bz;
      bz.p0 = ps.run.empty() ? canvas(ps, start_local) : ps.run.back();
      bz.c1 = canvas(ps, c1->local);
      bz.c2 = canvas(ps, c2.local);
      bz.p1 = canvas(ps, target->local);
      if (ps.run.size() == 1 && !ps.run_start_node.empty()) bz.p0 = named_.at(ps.run_start_node).border_toward_canvas(bz.c1);
      if (!target->bare_node.empty()) bz.p1 = named_.at(target->bare_node).border_toward_canvas(bz.c2);
      flush_run(ps, false, false);
      add_path_piece(ps, bz, s.style);
      for (Point p : {bz.p0, bz.c1, bz.c2, bz.p1}) ps.bbox.add(p);
      ps.last = SegmentRef{};
      ps.last.kind = SegmentRef::Kind::curve;
      ps.last.bez = bz;
      ps.cur_local = target->local;
      ps.cur_node.clear();
      ps.cur3.reset();
      ps.run = {bz.p1};
      ps.run_is_3d = false;
      place_mid_nodes(ps.last, s);
      return;
    }
    case OpKind::Rectangle: {
      if (op.coords.empty()) return;
      const Point a = ps.cur_local;
      auto r = resolve(&ps, op.coords.back(), s);
      if (!r) return;
      flush_run(ps, false, false);
      const Point c = r->local;
      Rectangle rect;
      rect.corners = {canvas(ps, a), canvas(ps, {c.x, a.y}), canvas(ps, c), canvas(ps, {a.x, c.y})};
      for (Point p : rect.corners) ps.bbox.add(p);
      if (s.clip) {
        ps.clip_polygons.push_back({rect.corners.begin(), rect.corners.end()});
        ps.clip_is_rect = s.ctm.is_similarity() && std::abs(std::fmod(s.ctm.rotation_deg(), 90.0)) < 1e-9;
      }
      add_element(ps, rect, s.style);
      ps.subpath.clear();
      ps.closes = true;
      if (ps.cur3 && r->p3 && s.style.fill) {
        // a filled rectangle between two 3D corners lies in a plane of the frame
      }
      ps.last = SegmentRef{};
      ps.last.kind = SegmentRef::Kind::line;
      ps.last.a = rect.corners[0];
      ps.last.b = rect.corners[2];
      ps.cur_local = c;
      ps.cur_node.clear();
      ps.cur3 = r->p3;
      ps.run.clear();
      ps.subpath_start = rect.corners[0];
      place_mid_nodes(ps.last, s);
      return;
    }
    case OpKind::Circle:
    case OpKind::Ellipse: {
      double rx = 0, ry = 0;
      bool rxu = false, ryu = false;
      std::string arg(trim(op.argument));
      if (!arg.empty()) {
        std::string xs = arg, ys = arg;
        std::size_t andp = arg.find(" and ");
        if (andp != std::string::npos) {
          xs = arg.substr(0, andp);
          ys = arg.substr(andp + 5);
        }
        auto vx = math(&ps, xs, os, b, e);
        auto vy = math(&ps, ys, os, b, e);
        if (!vx || !vy) return;
        rx = vx->value;
        ry = vy->value;
        rxu = vx->is_length;
        ryu = vy->is_length;
      } else if (os.radius_x || os.radius_y) {
        rx = os.radius_x.value_or(*os.radius_y);
        ry = os.radius_y.value_or(rx);
        rxu = os.radius_x ? os.radius_x_unit : os.radius_y_unit;
        ryu = os.radius_y ? os.radius_y_unit : rxu;
      } else {
        problem("unsupported-path-operation", "circle without a radius", b, e, &ps);
        return;
      }
      Point centre = ps.cur_local;
      if (!os.ops->at.empty()) {  // circle [at=(c)]: the centre, not the current point
        grammar::Coordinate c = grammar::parse_coordinate(strip_parens(os.ops->at));
        c.span = op.span;
        auto r = resolve(&ps, c, os);
        if (!r) return;
        centre = r->local;
      }
      Point u, v;
      radius_axes(os, rx, rxu, ry, ryu, &u, &v);
      flush_run(ps, false, false);
      ConjugateEllipse el{canvas(ps, centre), os.ctm.apply_linear(u), os.ctm.apply_linear(v)};
      PrincipalEllipse pr = principal_axes(el.u, el.v);
      if (std::abs(pr.rx - pr.ry) < 1e-6 * std::max(1.0, pr.rx)) {
        add_element(ps, Circle{el.center, pr.rx}, s.style);
        ps.subpath.clear();
        ps.closes = true;
      } else {
        double rot = pr.rotation_deg;
        add_element(ps, Ellipse{el.center, pr.rx, pr.ry, rot}, s.style);
        ps.subpath.clear();
        ps.closes = true;
      }
      for (Point p : ellipse_hull_points(el)) ps.bbox.add(p);
      if (s.clip) ps.clip_polygons.push_back(polygonise(el));
      ps.run.clear();
      ps.last = SegmentRef{};
      ps.last.kind = SegmentRef::Kind::arc;
      ps.last.ell = el;
      ps.last.t0 = 0;
      ps.last.t1 = 360;
      place_mid_nodes(ps.last, s);
      return;
    }
    case OpKind::Arc: {
      std::optional<double> t0 = os.start_angle, t1 = os.end_angle, delta = os.delta_angle;
      double rx = 0, ry = 0;
      bool rxu = false, ryu = false;
      std::string arg(trim(op.argument));
      if (!arg.empty()) {
        // old syntax (start:end:radius) or (start:end:rx and ry)
        std::vector<std::string> parts;
        int d = 0;
        std::size_t st = 0;
        for (std::size_t i = 0; i <= arg.size(); ++i) {
          if (i < arg.size() && (arg[i] == '{' || arg[i] == '(')) ++d;
          if (i < arg.size() && (arg[i] == '}' || arg[i] == ')')) --d;
          if (i == arg.size() || (arg[i] == ':' && d == 0)) {
            parts.push_back(arg.substr(st, i - st));
            st = i + 1;
          }
        }
        if (parts.size() != 3) {
          problem("unsupported-path-operation", "arc argument must be (start:end:radius)", b, e, &ps);
          return;
        }
        auto a0 = math(&ps, parts[0], os, b, e);
        auto a1 = math(&ps, parts[1], os, b, e);
        if (!a0 || !a1) return;
        t0 = a0->value;
        t1 = a1->value;
        std::string xs = parts[2], ys = parts[2];
        std::size_t andp = parts[2].find(" and ");
        if (andp != std::string::npos) {
          xs = parts[2].substr(0, andp);
          ys = parts[2].substr(andp + 5);
        }
        auto vx = math(&ps, xs, os, b, e);
        auto vy = math(&ps, ys, os, b, e);
        if (!vx || !vy) return;
        rx = vx->value;
        ry = vy->value;
        rxu = vx->is_length;
        ryu = vy->is_length;
      } else {
        if (!os.radius_x && !os.radius_y) {
          problem("unsupported-path-operation", "arc without a radius", b, e, &ps);
          return;
        }
        rx = os.radius_x.value_or(*os.radius_y);
        ry = os.radius_y.value_or(rx);
        rxu = os.radius_x ? os.radius_x_unit : os.radius_y_unit;
        ryu = os.radius_y ? os.radius_y_unit : rxu;
        if (!t1 && t0 && delta) t1 = *t0 + *delta;
        if (!t0 && t1 && delta) t0 = *t1 - *delta;
      }
      if (!t0 || !t1) {
        problem("unsupported-path-operation", "arc needs two of start angle, end angle, delta angle", b, e, &ps);
        return;
      }
      Point u, v;
      radius_axes(os, rx, rxu, ry, ryu, &u, &v);
      // pgfmanual 14.8: the arc starts at the current point
      const double c0 = std::cos(*t0 * kDeg), s0 = std::sin(*t0 * kDeg);
      const Point center_local = ps.cur_local - (c0 * u + s0 * v);
      ConjugateEllipse el{canvas(ps, center_local), s.ctm.apply_linear(u), s.ctm.apply_linear(v)};
      Point from = ps.run.empty() ? el.at(*t0) : ps.run.back();
      flush_run(ps, false, false);
      PrincipalEllipse pr = principal_axes(el.u, el.v);
      Arc arc;
      arc.center = el.center;
      arc.rx = pr.rx;
      arc.ry = pr.ry;
      arc.rotation_deg = pr.rotation_deg;
      arc.start_deg = pr.sign * *t0 + pr.shift_deg;
      arc.end_deg = pr.sign * *t1 + pr.shift_deg;
      if (s.ctm.is_similarity() && pr.sign > 0 && std::abs(pr.rx - pr.ry) < 1e-9 * std::max(1.0, pr.rx)) {
        // a circle: keep the angles as written, fold the rest into the rotation
        arc.rotation_deg = angle_deg(el.u);
        arc.start_deg = *t0;
        arc.end_deg = *t1;
      }
      arc.from = el.at(*t0);
      arc.to = el.at(*t1);
      (void)from;
      add_path_piece(ps, arc, s.style);
      for (Point p : arc_hull_points(el, *t0, *t1)) ps.bbox.add(p);
      const Point end_local = center_local + std::cos(*t1 * kDeg) * u + std::sin(*t1 * kDeg) * v;
      ps.last = SegmentRef{};
      ps.last.kind = SegmentRef::Kind::arc;
      ps.last.ell = el;
      ps.last.t0 = *t0;
      ps.last.t1 = *t1;
      ps.cur_local = end_local;
      ps.cur_node.clear();
      ps.cur3.reset();
      ps.run = {arc.to};
      ps.run_is_3d = false;
      if (s.clip) ps.clip_polygons.push_back({});  // marks the clip as not polygonal
      place_mid_nodes(ps.last, s);
      return;
    }
    case OpKind::Grid: {
      if (op.coords.empty()) return;
      const Point a = ps.cur_local;
      auto r = resolve(&ps, op.coords.back(), s);
      if (!r) return;
      flush_run(ps, false, false);
      Grid g;
      const Point c = r->local;
      g.corners = {canvas(ps, a), canvas(ps, {c.x, a.y}), canvas(ps, c), canvas(ps, {a.x, c.y})};
      auto step = [&](const std::string& t, bool is_x) -> double {
        auto m = math(&ps, t, os, b, e);
        if (!m) return 0;
        Point vec = m->is_length ? (is_x ? Point{m->value, 0} : Point{0, m->value})
                                 : m->value * (is_x ? os.xvec : os.yvec);
        return length(s.ctm.apply_linear(vec));
      };
      g.step_x = step(os.ops->step_x, true);
      g.step_y = step(os.ops->step_y, false);
      for (Point p : g.corners) ps.bbox.add(p);
      add_element(ps, g, s.style);
      ps.subpath.clear();
      ps.cur_local = c;
      ps.cur_node.clear();
      ps.run.clear();
      ps.last = SegmentRef{};
      return;
    }
    case OpKind::Parabola:
    case OpKind::Sine:
    case OpKind::Cosine: {
      if (op.coords.empty()) return;
      const Point sc = ps.run.empty() ? canvas(ps, ps.cur_local) : ps.run.back();
      auto r = resolve(&ps, op.coords.back(), s);
      if (!r) return;
      std::optional<Resolved> bend;
      if (op.kind == OpKind::Parabola && op.coords.size() == 2) {
        bend = resolve(&ps, op.coords[0], s);
        if (!bend) return;
      }
      const Point tc = canvas(ps, r->local);
      flush_run(ps, false, false);
      Plot pl;
      const int n = 24;
      if (op.kind == OpKind::Parabola) {
        // pgfmanual 14.10: the bend is at the start unless given (or `bend at end`)
        Point bp = bend ? canvas(ps, bend->local) : sc;
        bool bend_at_end = false;
        if (op.options) {
          for (const auto& it : tex::split_options(op.options->raw))
            if (tex::normalise_key(it.key) == "bend at end") bend_at_end = true;
        }
        if (!bend && bend_at_end) bp = tc;
        // tikz.code.tex: parabola height=h puts the bend h above the middle of start and target
        if (!bend && os.lib->parabola_height) bp = 0.5 * (sc + tc) + Point{0, *os.lib->parabola_height};
        // left half: from start to bend (vertex at bend); right half: bend to target
        for (int i = 0; i <= n; ++i) {
          double t = static_cast<double>(i) / n;
          pl.points.push_back({sc.x + (bp.x - sc.x) * t, bp.y + (sc.y - bp.y) * (1 - t) * (1 - t)});
        }
        for (int i = 1; i <= n; ++i) {
          double t = static_cast<double>(i) / n;
          pl.points.push_back({bp.x + (tc.x - bp.x) * t, bp.y + (tc.y - bp.y) * t * t});
        }
      } else {
        for (int i = 0; i <= n; ++i) {
          double t = static_cast<double>(i) / n;
          double f = op.kind == OpKind::Sine ? std::sin(t * std::numbers::pi / 2) : 1 - std::cos(t * std::numbers::pi / 2);
          pl.points.push_back({sc.x + (tc.x - sc.x) * t, sc.y + (tc.y - sc.y) * f});
        }
      }
      for (Point p : pl.points) ps.bbox.add(p);
      ps.last = SegmentRef{};
      ps.last.kind = SegmentRef::Kind::plot;
      ps.last.pts = pl.points;
      add_path_piece(ps, pl, s.style);
      ps.cur_local = r->local;
      ps.cur_node.clear();
      ps.run = {tc};
      ps.run_is_3d = false;
      place_mid_nodes(ps.last, s);
      return;
    }
    case OpKind::To:
    case OpKind::Edge: {
      const bool is_edge = op.kind == OpKind::Edge;
      Settings es = os;
      if (is_edge) {
        // every edge = draw (pgfmanual 17.12); the edge is its own path
        es = s;
        es.style.draw = true;
        es.style.invisible = false;
        std::vector<LowerProblem> probs;
        apply_hook(es, "every edge", KeyTarget::op, b, &ps, probs);
        if (op.options)
          keys_.apply(es, *expand(op.options->raw, op.options->span.begin + 1, &ps), KeyTarget::op,
                      op.options->span.begin + 1, probs);
        report(probs, &ps);
      }
      // an edge is a path of its own from (\tikztostart): the path's last node, if any
      const bool from_fig = is_edge && !ps.last_fig.empty() && named_.count(ps.last_fig);
      const Point S = from_fig ? s.ctm.inverse().apply(named_.at(ps.last_fig).center) : ps.cur_local;
      const std::string start_node = from_fig ? (named_.at(ps.last_fig).is_point ? "" : ps.last_fig) : ps.cur_node;
      std::optional<Resolved> target;
      if (op.to_cycle) {
        target = Resolved{s.ctm.inverse().apply(ps.subpath_start), "", std::nullopt};
        if (!is_edge) ps.closes = true;
      } else if (es.lib->loop) target = Resolved{S, start_node, std::nullopt};  // \tikztotarget=\tikztostart
      else if (!op.coords.empty()) target = resolve(&ps, op.coords.back(), s);
      if (!target) return;
      if (es.custom_to_path && !es.ops->to_path.empty() && es.lib->to_symbols.empty()) {
        if (!is_edge && lower_custom_to_path(ps, op, es, *target)) return;
        // the line TeX draws is not this straight one: the element's geometry is a guess
        problem("unsupported-construct", "custom 'to path' on an edge is not lowered; straight line used", b, e, &ps);
      }
      const Point E = target->local;
      // a circuit's symbols replace the to path by a straight line (tikzlibrarycircuits.code.tex)
      const bool symbols = !es.lib->to_symbols.empty();
      const bool curved = !symbols && (es.bend_set || es.out_angle || es.in_angle);
      SegmentRef seg;
      if (!curved) {
        if (symbols) {
          seg = lower_circuit_symbols(ps, op, es, is_edge ? es : os, *target, is_edge);
        } else if (es.lib->to_move) {
          if (!is_edge) move_to(ps, *target);  // topaths library: move to
        } else if (is_edge) {
          Point a = canvas(ps, S), t = canvas(ps, E);
          Point ac = a, tcn = t;
          if (!start_node.empty()) a = named_.at(start_node).border_toward_canvas(tcn);
          if (!target->bare_node.empty()) t = named_.at(target->bare_node).border_toward_canvas(ac);
          Style st = es.style;
          const std::size_t ei = add_element(ps, Segment{a, t}, st);
          if (ei != static_cast<std::size_t>(-1) && st.draw) add_arrow_hulls({ei}, es, ps.unstroked_bbox);
          ps.bbox.add(a);
          ps.bbox.add(t);
          seg.kind = SegmentRef::Kind::line;
          seg.a = a;
          seg.b = t;
        } else {
          line_to(ps, *target);
          seg = ps.last;
        }
      } else {
        // pgfmanual 74 (to path library): controls at 0.3915 * looseness * distance
        const Point dvec = E - S;
        const double dist = length(dvec);
        const double line_angle = angle_deg(dvec);
        double out = es.out_angle.value_or(line_angle), in = es.in_angle.value_or(line_angle + 180);
        if (es.bend_set) {
          out = line_angle + es.bend;
          in = line_angle + 180 - es.bend;
        } else if (es.relative_angles) {
          out = line_angle + es.out_angle.value_or(0);
          in = line_angle + 180 + es.in_angle.value_or(0) * -1;
          if (es.in_angle) in = line_angle + 180 - *es.in_angle;
        }
        auto clamped = [](double d, std::optional<double> lo, std::optional<double> hi) {
          return std::min(std::max(d, lo.value_or(d)), hi.value_or(std::max(d, lo.value_or(d))));
        };
        const double lo = clamped(0.3915 * es.out_looseness * dist, es.lib->out_min_distance, es.lib->out_max_distance),
                     li = clamped(0.3915 * es.in_looseness * dist, es.lib->in_min_distance, es.lib->in_max_distance);
        const Point c1 = S + Point{lo * std::cos(out * kDeg), lo * std::sin(out * kDeg)};
        const Point c2 = E + Point{li * std::cos(in * kDeg), li * std::sin(in * kDeg)};
        Bezier bz{canvas(ps, S), canvas(ps, c1), canvas(ps, c2), canvas(ps, E)};
        if (!start_node.empty()) bz.p0 = named_.at(start_node).border_toward_canvas(bz.c1);
        if (!target->bare_node.empty()) bz.p1 = named_.at(target->bare_node).border_toward_canvas(bz.c2);
        if (!start_node.empty() || !target->bare_node.empty()) {
          // tikzlibrarytopaths.code.tex \tikz@to@compute: a node end is its border point in the
          // `out` (`in`) direction, and the distance the controls are taken from is the distance
          // of those border points, the controls set off from them
          const Transform inv = ps.s.ctm.inverse();
          const Point a = inv.apply(bz.p0), t = inv.apply(bz.p1);
          const double d2 = length(t - a);
          const double lo2 = clamped(0.3915 * es.out_looseness * d2, es.lib->out_min_distance, es.lib->out_max_distance),
                       li2 = clamped(0.3915 * es.in_looseness * d2, es.lib->in_min_distance, es.lib->in_max_distance);
          bz.c1 = canvas(ps, a + Point{lo2 * std::cos(out * kDeg), lo2 * std::sin(out * kDeg)});
          bz.c2 = canvas(ps, t + Point{li2 * std::cos(in * kDeg), li2 * std::sin(in * kDeg)});
        }
        if (es.lib->loop) {
          // topaths library: a loop leaves the node at its `out` angle anchor and comes back at its
          // `in` anchor (\tikz@to@modify), controls from the distance of those anchors
          auto anchor_at = [&](double a) {
            if (start_node.empty()) return canvas(ps, S);
            const NodeRecord& r = named_.at(start_node);
            return r.is_point ? r.center : r.anchor_canvas(border_point(r.g, a));
          };
          bz = curve_to_path(anchor_at(out), anchor_at(in), out, in, es);
        }
        if (!is_edge) {
          if (!ps.run.empty() && ps.run.size() == 1) ps.run.clear();
          flush_run(ps, false, false);
        }
        if (is_edge) {
          const std::size_t ei = add_element(ps, bz, es.style);
          if (ei != static_cast<std::size_t>(-1) && es.style.draw) add_arrow_hulls({ei}, es, ps.unstroked_bbox);
        } else {
          add_path_piece(ps, bz, s.style);
        }
        for (Point p : {bz.p0, bz.c1, bz.c2, bz.p1}) ps.bbox.add(p);
        seg.kind = SegmentRef::Kind::curve;
        seg.bez = bz;
        if (!is_edge) {
          ps.cur_local = E;
          ps.cur_node = target->bare_node;
          ps.cur3.reset();
          ps.run = {canvas(ps, E)};
          ps.run_start_node = target->bare_node;
          ps.run_is_3d = false;
        }
      }
      if (!is_edge) ps.last = seg;
      // nodes inside a to/edge: implicit pos (pgfmanual 17.8)
      Settings nb = is_edge ? es : os;
      nb.style.draw = s.style.draw;
      for (const auto& n : op.edge_nodes) {
        if (skipped_edge_pic(ps, n)) continue;
        NodePlacement w;
        w.local_point = E;
        lower_node(ps, n, w, true, &seg, n.is_coordinate, &nb);
      }
      for (const auto& n : to_path_nodes(es, op.span)) {  // edge node= / edge label=
        NodePlacement w;
        w.local_point = E;
        lower_node(ps, n, w, true, &seg, n.is_coordinate, &nb);
      }
      return;
    }
    case OpKind::Plot: {
      std::vector<Point> pts;
      std::vector<std::vector<Point>> earlier_runs;  // plot file: the data sets before the last jump
      if (op.plot_kind == "file") {
        std::string name(trim(op.argument));
        if (!name.empty() && name.front() == '{') name = tex::strip_braces(name);
        std::string path = name;
        if (!path.empty() && path.front() != '/' && !base_dir_.empty()) path = base_dir_ + "/" + path;
        ReadRefusal why = gate_ ? gate_->check_name(name) : ReadRefusal::none;
        std::error_code ec;
        if (why == ReadRefusal::none && gate_ && std::filesystem::exists(path, ec)) why = gate_->check_found(path);
        if (why != ReadRefusal::none) {
          // never opened: what pgf would plot from it is unknown
          const std::size_t before = d_.diagnostics.size();
          problem("refused-read", "refused to read '" + name + "': " + describe(why) + " is outside the read policy",
                  b, e, &ps, true);
          if (d_.diagnostics.size() > before) {
            d_.diagnostics.back().evidence = {{"path", name}, {"policy", code_of(why)}};
            d_.diagnostics.back().notes.push_back(
                {std::string(ReadGate::summary()) + "; --allow-read DIR widens it", d_.diagnostics.back().range});
          }
          return;
        }
        const PlotFileData data = read_plot_file(path);
        if (!data.found) {
          // pgfmoduleplot: "Plot data file `name' not found." and nothing is plotted
          problem("missing-file", "plot data file '" + name + "' not found: pgf plots nothing here", b, e, &ps, false);
          return;
        }
        if (!data.error.empty()) {
          problem("unsupported-path-operation", data.error, b, e, &ps);
          return;
        }
        for (const auto& run : data.runs) {
          if (!pts.empty()) earlier_runs.push_back(std::move(pts));
          pts.clear();
          for (const auto& [x, y] : run) pts.push_back(canvas(ps, x * os.xvec + y * os.yvec));
        }
        for (const auto& r : earlier_runs) {
          Plot pl;
          pl.points = r;
          for (Point p : r) ps.bbox.add(p);
          add_path_piece(ps, pl, s.style);
        }
      } else if (op.plot_kind == "coordinates") {
        for (const auto& c : op.coords) {
          auto r = resolve(&ps, c, os);
          if (!r) return;
          if (c.relative == Coordinate::Relative::PlusPlus) ps.cur_local = r->local;
          pts.push_back(canvas(ps, r->local));
        }
      } else if (op.plot_kind == "expression" && !op.coords.empty()) {
        std::vector<double> xs = os.ops->samples_at;
        if (xs.empty()) {
          for (int i = 0; i < os.samples; ++i)
            xs.push_back(os.domain_min + (os.domain_max - os.domain_min) * i / std::max(1, os.samples - 1));
        }
        const std::string var = os.ops->variable.empty() ? "\\x" : os.ops->variable;
        if (!fits(pts.size() + xs.size() + 1)) {  // refused before its samples are computed
          afford(pts.size() + xs.size() + 1);
          ps.incomplete = true;
          return;
        }
        for (double x : xs) {
          std::string raw = op.coords[0].raw;
          std::string sub;
          char num[64];
          std::snprintf(num, sizeof num, "(%.10g)", x);
          for (std::size_t i = 0; i < raw.size();) {
            if (raw.compare(i, var.size(), var) == 0 &&
                (i + var.size() >= raw.size() || !std::isalpha(static_cast<unsigned char>(raw[i + var.size()])))) {
              sub += num;
              i += var.size();
            } else {
              sub += raw[i++];
            }
          }
          Coordinate c = grammar::parse_coordinate(sub);
          c.span = op.coords[0].span;
          auto r = resolve_abs(&ps, c, os, 0);
          if (!r) return;
          pts.push_back(canvas(ps, r->local));
        }
      } else {
        problem("unsupported-path-operation", "plot " + op.plot_kind + " is not lowered (needs gnuplot or a file)", b,
                e, &ps);
        return;
      }
      if (pts.empty()) return;
      flush_run(ps, false, false);
      Plot pl;
      pl.points = pts;
      for (Point p : pts) ps.bbox.add(p);
      if (!os.ops->plot_mark.empty()) add_plot_marks(ps, os, pts);  // at the points themselves
      if (os.plot_handler != Settings::PlotHandler::sharp) {
        // the curve through the points, its control points in the bounding box as pgf counts them
        std::vector<Point> controls;
        pl.points = smooth_plot(pts, os.plot_handler == Settings::PlotHandler::smooth_cycle, os.plot_tension, controls);
        for (Point p : controls) ps.bbox.add(p);
        pts = pl.points;
      }
      // `only marks` (pgfmanual 22.8): the mark handler alone, no line through the points
      if (!(os.ops->only_marks && !os.ops->plot_mark.empty())) add_path_piece(ps, pl, s.style);
      ps.last = SegmentRef{};
      ps.last.kind = SegmentRef::Kind::plot;
      ps.last.pts = pts;
      ps.has_cur = true;
      ps.cur_local = s.ctm.inverse().apply(pts.back());
      ps.cur_node.clear();
      ps.run = {pts.back()};
      ps.run_is_3d = false;
      return;
    }
    case OpKind::NodeOp:
    case OpKind::CoordinateOp: {
      if (!op.node) return;
      NodePlacement w;
      w.local_point = ps.cur_local;
      ps.capture_fig = true;
      auto idx = lower_node(ps, *op.node, w, false, &ps.last, op.kind == OpKind::CoordinateOp || op.node->is_coordinate);
      ps.capture_fig = false;
      // `\node at (p) ...` starts the path at p for following operations
      if (op.node->at && !ps.has_cur) {
        auto r = resolve(&ps, *op.node->at, s, false);
        if (r) {
          ps.has_cur = true;
          ps.cur_local = r->local;
          ps.cur_node = collapse_spaces(op.node->name);
          if (!ps.cur_node.empty() && !named_.count(ps.cur_node)) ps.cur_node.clear();
          if (!ps.cur_node.empty() && named_.at(ps.cur_node).is_point) ps.cur_node.clear();
          ps.subpath_start = canvas(ps, r->local);
          ps.subpath_start_set = true;
        }
      } else if (!ps.has_cur && named_.count(collapse_spaces(op.node->name))) {
        // a node placed without `at` (positioning's right=of a): an edge or to after it starts at
        // it (tikz.code.tex \tikz@to@use@last@fig@name)
        const std::string nm = collapse_spaces(op.node->name);
        const NodeRecord& r = named_.at(nm);
        ps.has_cur = true;
        ps.cur_local = s.ctm.inverse().apply(r.center);
        ps.cur_node = r.is_point ? "" : nm;
        ps.subpath_start = r.center;
        ps.subpath_start_set = true;
      }
      (void)idx;
      return;
    }
    case OpKind::Options: {
      if (!op.options) return;
      std::vector<LowerProblem> probs;
      const std::size_t inserted = s.ops->insert_paths.size();
      keys_.apply(s, *expand(op.options->raw, op.options->span.begin + 1, &ps), KeyTarget::path,
                  op.options->span.begin + 1, probs);
      report(probs, &ps);
      // insert path (e.g. the turtle library's) in a mid-path option list continues the path here
      const std::vector<std::string> more(s.ops->insert_paths.begin() + static_cast<std::ptrdiff_t>(inserted),
                                          s.ops->insert_paths.end());
      if (s.ops->insert_paths.size() != inserted) s.ops.mut().insert_paths.resize(inserted);
      for (const std::string& ins : more) {
        auto parsed = grammar::parse("\\path " + ins + ";");
        if (!parsed.errors.empty() || parsed.statements.empty()) {
          problem("unsupported-key", "cannot read 'insert path' text", b, e, &ps);
          continue;
        }
        for (PathOp inner : parsed.statements[0].ops) {
          inner.span = op.span;
          for (auto& c : inner.coords) c.span = op.span;
          lower_op(ps, inner);
        }
      }
      return;
    }
    case OpKind::Let: {
      for (const auto& lb : op.let_bindings) {
        std::string reg(trim(lb.reg));
        if (reg.size() < 3) continue;
        const std::string id = reg.substr(2);
        if (lb.point) {
          auto r = resolve(&ps, *lb.point, s);
          if (!r) continue;
          ps.let["\\p" + id] = fmt_pt(r->local.x) + "," + fmt_pt(r->local.y);
          ps.let["\\x" + id] = fmt_pt(r->local.x);
          ps.let["\\y" + id] = fmt_pt(r->local.y);
        } else {
          auto v = math(&ps, lb.value, s, lb.span.begin, lb.span.end);
          if (!v) continue;
          char buf[64];
          std::snprintf(buf, sizeof buf, "%.6f%s", v->value, v->is_length ? "pt" : "");
          ps.let["\\n" + id] = buf;
        }
      }
      return;
    }
    case OpKind::PicOp:
      lower_pic(ps, op);
      return;
    case OpKind::Unknown: {
      if (lower_decorate_op(ps, op)) return;
      std::string what = collapse_spaces(op.raw.substr(0, std::min<std::size_t>(op.raw.size(), 40)));
      problem("unsupported-path-operation", "unsupported path operation '" + what + "'", b, e, &ps);
      return;
    }
  }
}

// ---------------------------------------------------------------- statements

void PictureLowerer::lower_path(const grammar::Statement& gs) {
  PathState ps(stack_.back());
  ps.path_id = next_path_id_++;
  ps.scope_ctm = ps.s.ctm;
  Settings& s = ps.s;
  // path modes are not inherited (pgfmanual 15.3)
  s.style.draw = s.style.fill = false;
  s.clip = s.use_as_bbox = false;
  if (!s.ops->insert_paths.empty() || !s.ops->name_path.empty() || !s.ops->decorating_actions.empty()) {
    PathOpSettings& ops = s.ops.mut();  // a copy only when there is something to reset
    ops.insert_paths.clear();
    ops.name_path.clear();
    ops.decorating_actions.clear();
  }
  s.labels.clear();
  s.pins.clear();
  const std::string_view cmd = gs.command;  // compared by length first, without strlen
  if (cmd == "draw" || cmd == "filldraw" || cmd == "shadedraw") s.style.draw = true;
  if (cmd == "fill" || cmd == "filldraw" || cmd == "shade" || cmd == "shadedraw") s.style.fill = true;
  if (cmd == "clip") s.clip = true;
  if (cmd == "useasboundingbox") s.use_as_bbox = true;
  if (cmd == "matrix") {
    problem("unsupported-construct", "\\matrix is not lowered", gs.span.begin, gs.span.end, &ps);
    return;
  }
  std::vector<LowerProblem> probs;
  apply_hook(s, "every path", KeyTarget::path, gs.span.begin, &ps, probs);
  if (gs.options) {
    const std::uint32_t ob = gs.options->span.begin + 1;
    keys_.apply(s, *expand(gs.options->raw, ob, &ps), KeyTarget::path, ob, probs);
  }
  report(probs, &ps);
  if (!s.ops->name_intersections.empty())
    name_intersections(ps, s.ops->name_intersections, gs.options ? gs.options->span.begin : gs.span.begin,
                       gs.options ? gs.options->span.end : gs.span.end);
  // \node[opts]: the options belong to the node, not the path
  if (!s.style.draw && !s.style.fill) s.style.invisible = true;
  else s.style.invisible = false;
  if (s.clip && !s.style.draw && !s.style.fill) s.style.invisible = true;

  // insert path (e.g. Tikz-IM's right angle symbol): parsed and run before the path's own ops
  for (const std::string& ins : s.ops->insert_paths) {
    auto parsed = grammar::parse("\\path " + ins + ";");
    if (!parsed.errors.empty() || parsed.statements.empty()) {
      problem("unsupported-key", "cannot read 'insert path' text", gs.span.begin, gs.span.end, &ps);
      continue;
    }
    for (PathOp op : parsed.statements[0].ops) {
      // spans point into the inserted text; locate them at the statement
      op.span = gs.options ? gs.options->span : gs.span;
      for (auto& c : op.coords) c.span = op.span;
      for (auto& lb : op.let_bindings) {
        lb.span = op.span;
        if (lb.point) lb.point->span = op.span;
      }
      lower_op(ps, op);
    }
  }
  for (const auto& op : gs.ops) lower_op(ps, op);
  finish_path(ps, gs);
}

void PictureLowerer::finish_path(PathState& ps, const grammar::Statement& gs) {
  flush_run(ps, false, false);
  if (ps.s.decorate || !ps.s.ops->decorating_actions.empty()) apply_decorations(ps, gs);
  const Settings& s = ps.s;
  if (!s.ops->name_path.empty()) remember_path(ps);
  if (s.clip) {
    ClipRegion cr;
    bool ok = !ps.clip_polygons.empty();
    for (const auto& poly : ps.clip_polygons)
      if (poly.empty()) ok = false;
    if (ok) {
      cr.polygon = ps.clip_polygons.front();
      cr.is_rectangle = ps.clip_polygons.size() == 1 && ps.clip_is_rect;
      BBoxAccumulator acc;
      for (Point p : cr.polygon) acc.add(p);
      cr.bounds = acc.box;
      cr.prov = stmt_ ? stmt_->prov : Provenance{};
      // the picture's bounding box so far, from its anchors (with a margin or without): the frame
      // the author fixed for what follows
      cr.to_bounding_box = cr.is_rectangle && ps.refers_current_bbox && bbox_.any &&
                           cr.bounds.xmin <= bbox_.box.xmin + kBboxClipSlackPt &&
                           cr.bounds.ymin <= bbox_.box.ymin + kBboxClipSlackPt &&
                           cr.bounds.xmax >= bbox_.box.xmax - kBboxClipSlackPt &&
                           cr.bounds.ymax >= bbox_.box.ymax - kBboxClipSlackPt;
      if (ps.clip_polygons.size() > 1)
        problem("unsupported-construct", "a clip made of several shapes is reduced to its first", gs.span.begin,
                gs.span.end, &ps, false);
      d_.clips.push_back(cr);
      stack_.back().clip_ids.push_back(static_cast<std::uint32_t>(d_.clips.size() - 1));
      if (!d_.canvas && stack_.size() == 1) {
        d_.canvas = cr.bounds;
        d_.canvas_source = "clip";
      }
    } else {
      problem("unsupported-construct", "clip path with curves is not lowered", gs.span.begin, gs.span.end, &ps);
      stack_.back().clip_unknown = true;
    }
    // a clip path that is not drawn leaves no elements
    if (!s.style.draw && !s.style.fill) {
      std::sort(ps.elements.begin(), ps.elements.end());
      for (auto it = ps.elements.rbegin(); it != ps.elements.rend(); ++it)
        d_.elements.erase(d_.elements.begin() + static_cast<std::ptrdiff_t>(*it));
      ps.elements.clear();
    }
  }
  // pgfcorepathusage \pgfusepath: a stroked path adds half its line width on every side
  BBoxAccumulator extent = ps.node_bbox;
  if (ps.bbox.any) {
    Box b = ps.bbox.box;
    if (s.style.draw) {
      const double h = 0.5 * s.style.line_width;
      b = {b.xmin - h, b.ymin - h, b.xmax + h, b.ymax + h};
    }
    extent.add(b);
  }
  if (s.use_as_bbox && extent.any && !d_.canvas) {
    d_.canvas = extent.box;
    d_.canvas_source = "use as bounding box";
  }
  // pgfcorepathusage \pgfusepath: the clip path itself still counts, what follows in the scope not
  if (!s.overlay && !s.size_frozen && extent.any) grow_bbox(extent.box);
  // \pgf@arrows@rigid@hull: the tips' hulls (and plot marks), where the picture's size is still recorded
  if (!s.overlay && !s.size_frozen) {
    if (s.style.draw && !ps.closes && !s.decorate && s.ops->decorating_actions.empty()) {
      BBoxAccumulator hulls;
      add_arrow_hulls(ps.subpath, s, hulls);
      if (hulls.any) grow_bbox(hulls.box);
    }
    if (ps.unstroked_bbox.any) grow_bbox(ps.unstroked_bbox.box);
  }
  if (s.clip || s.use_as_bbox) stack_.back().size_frozen = true;
  if (ps.incomplete || ps.refers_unplaced || s.placed_by_layout || s.unread_scope_keys) {
    for (std::size_t i : ps.elements) d_.elements[i].incomplete = true;
    for (std::size_t i : ps.nodes) d_.nodes[i].incomplete = true;
  }
  if (ps.refers_unplaced) {
    for (std::size_t i : ps.elements) d_.elements[i].unplaced_reference = true;
    for (std::size_t i : ps.nodes) d_.nodes[i].unplaced_reference = true;
  }
  // What the rest of the path left unknown (a later key or operation) holds for the nodes named
  // before it too: what is placed from them later is a guess.
  if (ps.incomplete || ps.refers_unplaced)
    for (const std::string& name : ps.named)
      if (auto f = named_.find(name); f != named_.end()) f->second.unplaced = true;
}

// pgfmanual 24.2: `decorate` replaces the path by its decoration; a pre/postaction that
// decorates draws the decoration beside the path. Morphing decorations stay within their
// amplitude of the path, so its geometry stands for them; a brace is drawn as pgf shapes it.
void PictureLowerer::apply_decorations(PathState& ps, const grammar::Statement& gs) {
  const std::uint32_t b = gs.options ? gs.options->span.begin : gs.span.begin;
  const std::uint32_t e = gs.options ? gs.options->span.end : gs.span.end;
  const std::vector<std::size_t> base = ps.elements;
  if (ps.s.decorate) decorate_elements(ps, ps.s.ops->decoration, base, true, b, e);
  for (const std::string& own : ps.s.ops->decorating_actions)
    decorate_elements(ps, ps.s.ops->decoration + own, base, false, b, e);
}

void PictureLowerer::decorate_elements(PathState& ps, const std::string& spec, const std::vector<std::size_t>& which,
                                       bool replaces, std::uint32_t b, std::uint32_t e) {
  const DecorationEffect fx = classify_decoration(spec, font_units_of(ps.s));
  if (fx.kind == DecorationEffect::Kind::drawn) {
    lower_drawn_decoration(ps, fx, spec, which, replaces, b, e);
    return;
  }
  if (fx.kind == DecorationEffect::Kind::unsupported) {
    problem("unsupported-key", fx.reason, b, e, &ps);
    return;
  }
  if (fx.kind == DecorationEffect::Kind::fractal) {
    for (std::size_t idx : which) {
      std::vector<Point> pts;
      const Element& el = d_.elements[idx];
      if (const auto* sg = std::get_if<Segment>(&el.geom)) pts = {sg->a, sg->b};
      if (const auto* pl = std::get_if<Polyline>(&el.geom)) {
        pts = pl->points;
        if (pl->closed && !pts.empty()) pts.push_back(pts.front());
      }
      if (const auto* pt = std::get_if<Plot>(&el.geom)) pts = pt->points;
      if (pts.size() < 2) {
        problem("unsupported-key", "decoration '" + fx.name + "' on a curved path is not lowered", b, e, &ps);
        continue;
      }
      auto pieces = fractal_pieces(pts, fx.name);
      for (std::size_t k = 0; k < pieces.size(); ++k) {
        if (!afford(1 + pieces[k].size())) {  // the decorated points count in the drawing budget
          ps.incomplete = true;
          break;
        }
        for (Point p : pieces[k]) add_bbox(ps, p);
        if (k == 0 && replaces) {
          d_.elements[idx].geom = Plot{pieces[k]};
        } else {
          Element copy = d_.elements[idx];
          copy.geom = Plot{pieces[k]};
          ps.elements.push_back(d_.elements.size());
          d_.elements.push_back(std::move(copy));
        }
      }
    }
    return;
  }
  if (fx.kind != DecorationEffect::Kind::brace) return;
  for (std::size_t idx : which) {
    Element& el = d_.elements[idx];
    std::optional<std::pair<Point, Point>> ends;
    if (const auto* sg = std::get_if<Segment>(&el.geom)) ends = {sg->a, sg->b};
    if (const auto* pl = std::get_if<Polyline>(&el.geom); pl && pl->points.size() == 2 && !pl->closed)
      ends = {pl->points[0], pl->points[1]};
    if (!ends) {
      problem("unsupported-key", "a brace along a curved or multi-segment path is not lowered", b, e, &ps);
      continue;
    }
    Plot brace{brace_polyline(ends->first, ends->second, fx)};
    if (!afford(1 + brace.points.size())) {
      ps.incomplete = true;
      break;
    }
    for (Point p : brace.points) add_bbox(ps, p);
    if (replaces) {
      el.geom = brace;
    } else {
      Element copy = el;
      copy.geom = brace;
      ps.elements.push_back(d_.elements.size());
      d_.elements.push_back(std::move(copy));
    }
  }
}

// The `decorate [options] {subpath}` path operation (pgfmanual 24.2): the subpath is part of the
// path, decorated with the decoration in force plus the operation's own decoration= keys.
bool PictureLowerer::lower_decorate_op(PathState& ps, const PathOp& op) {
  std::string_view t = trim(op.raw);
  if (!starts_with(t, "decorate")) return false;
  std::size_t i = 8;
  auto skip_space = [&] {
    while (i < t.size() && is_ascii_space(t[i])) ++i;
  };
  auto group = [&](char open, char close) -> std::optional<std::string> {
    skip_space();
    if (i >= t.size() || t[i] != open) return std::nullopt;
    int depth = 0;
    for (std::size_t j = i; j < t.size(); ++j) {
      if (t[j] == '\\') {
        ++j;
        continue;
      }
      if (t[j] == open) ++depth;
      if (t[j] == close && --depth == 0) {
        std::string inner(t.substr(i + 1, j - i - 1));
        i = j + 1;
        return inner;
      }
    }
    return std::nullopt;
  };
  std::string own;
  if (auto opts = group('[', ']')) {
    for (const auto& it : tex::split_options(*opts))
      if (tex::normalise_key(it.key) == "decoration") own += "," + tex::strip_braces(it.value);
  }
  auto body = group('{', '}');
  skip_space();
  if (!body || i != t.size()) return false;
  auto parsed = grammar::parse("\\path " + *body + ";");
  if (!parsed.errors.empty() || parsed.statements.empty()) return false;
  flush_run(ps, false, false);
  const std::size_t first = ps.elements.size();
  for (PathOp inner : parsed.statements[0].ops) {
    inner.span = op.span;  // spans point into the body's own text: locate them at the operation
    for (auto& c : inner.coords) c.span = op.span;
    lower_op(ps, inner);
  }
  flush_run(ps, false, false);
  std::vector<std::size_t> made(ps.elements.begin() + static_cast<std::ptrdiff_t>(first), ps.elements.end());
  decorate_elements(ps, ps.s.ops->decoration + own, made, true, op.span.begin, op.span.end);
  return true;
}

void PictureLowerer::lower_statement(const tex::Statement& st) {
  stmt_ = &st;
  key_named_unplaced_ = false;
  if (budget_->refused) {
    refuse_statement();
    return;
  }
  if (st.cut) {
    // Cut short by an expansion limit (the front end reported the error): what it would draw
    // is missing, so the geometry is incomplete (a note, not a second error).
    Diagnostic dg;
    dg.rule = "expansion-limit";
    dg.severity = Severity::note;
    dg.message = "statement cut short by an expansion limit is not lowered";
    dg.range = st.prov.range;
    d_.diagnostics.push_back(dg);
    d_.unsupported.push_back({dg.message, dg.range});
    return;
  }
  switch (st.kind) {
    case tex::StatementKind::ScopeBegin: {
      stack_.push_back(stack_.back());
      styles_.push();
      Settings& s = stack_.back();
      if (!st.layer.empty()) {  // \begin{pgfonlayer}{name}: a TeX group painted on that layer
        s.layer = st.layer;
        return;
      }
      s.labels.clear();
      s.pins.clear();
      std::vector<LowerProblem> probs;
      apply_hook(s, "every scope", KeyTarget::scope, 0, nullptr, probs);
      // the option text is the statement text
      keys_.apply(s, *expand(st.text, 0, nullptr), KeyTarget::scope, 0, probs);
      remember_package_options(st.text);
      for (const auto& p : probs) s.unread_scope_keys = s.unread_scope_keys || p.makes_incomplete;
      // a scope moved to a node whose place is not known: nothing in it is placed
      if (key_named_unplaced_) s.unread_scope_keys = true;
      report(probs, nullptr);
      return;
    }
    case tex::StatementKind::ScopeEnd:
      if (stack_.size() > 1) {
        stack_.pop_back();
        styles_.pop();
      }
      return;
    case tex::StatementKind::StyleDef: {
      std::vector<tex::StyleProblem> sp;
      auto keys = styles_.run_tikzset(st.text, &sp);
      style_problems(sp, 0, nullptr);
      std::vector<LowerProblem> probs;
      keys_.apply(stack_.back(), keys, KeyTarget::scope, 0, probs);
      report(probs, nullptr);
      return;
    }
    case tex::StatementKind::Other: {
      std::string t(trim(st.text));
      std::size_t j = 1;
      while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
      std::string cs = t.substr(0, j);
      // bookkeeping commands with no drawing
      static const char* kHarmless[] = {"\\pgfmathsetmacro", "\\pgfmathtruncatemacro", "\\pgfmathparse",
                                        "\\def",             "\\let",                  "\\newcommand",
                                        "\\renewcommand",    "\\usetikzlibrary",       "\\pgfsetlayers",
                                        "\\pgfdeclarelayer", "\\colorlet",             "\\definecolor",
                                        "\\relax",           "\\pgfkeys",              "\\pgfmathsetlengthmacro",
                                        "\\setlength",       "\\newlength",            "\\begin",
                                        "\\end",             "\\tikzset",
                                        "\\global",          "\\edef",                 "\\xdef",
                                        "\\gdef",            "\\pgfmathsetseed",       "\\centering"};
      if (t.empty()) return;
      // \scriptsize, \bfseries ... in the picture's body: the font of every later node of this
      // TeX group (the picture or scope), as if it had been in force where the picture starts
      if (is_font_switch_statement(t)) {
        apply_font_commands(stack_.back().picture_font, t);
        return;
      }
      for (const char* h : kHarmless) {
        if (cs == h) {
          if (cs == "\\begin" || cs == "\\end") {
            if (t.find("pgfonlayer") != std::string::npos || t.find("{scope}") != std::string::npos) return;
            break;
          }
          // a run of commands the front end read as one statement (up to a blank line or a path
          // command): \pgfkeys{..} (one brace group) does not take what follows it with it
          if (cs == "\\pgfkeys" || cs == "\\tikzset") lower_rest_of_run(st, j);
          return;
        }
      }
      // a package's command (\calendar, \pgfpathmoveto...), or anything inside an environment a
      // package owns (a pgfplots axis)
      if (offer_to_packages(st, false)) return;
      // pgfcorescopes {pgfscope}: a TeX group around graphic state and transformations
      if (t == "\\begin{pgfscope}" || t == "\\end{pgfscope}") {
        tex::Statement syn = st;
        syn.kind = t == "\\end{pgfscope}" ? tex::StatementKind::ScopeEnd : tex::StatementKind::ScopeBegin;
        syn.text.clear();
        lower_statement(syn);
        return;
      }
      problem("unsupported-construct",
              "unsupported statement '" + collapse_spaces(t.substr(0, std::min<std::size_t>(t.size(), 30))) + "'", 0,
              static_cast<std::uint32_t>(st.text.size()), nullptr);
      return;
    }
    case tex::StatementKind::Path:
      break;
  }
  if (offer_to_packages(st, true)) return;
  {
    // path-like commands of libraries that are not lowered (pgfmanual 19, 82, 70)
    std::string t(trim(st.text));
    for (const char* cs : {"\\graph", "\\datavisualization", "\\spy", "\\matrix"}) {
      const std::size_t n = std::strlen(cs);
      if (t.compare(0, n, cs) == 0 && (t.size() == n || !std::isalpha(static_cast<unsigned char>(t[n])))) {
        problem("unsupported-construct", std::string(cs) + " is not lowered", 0,
                static_cast<std::uint32_t>(st.text.size()), nullptr);
        return;
      }
    }
  }
  auto parsed = grammar::parse(st.text);
  for (const auto& err : parsed.errors) {
    Diagnostic dg;
    dg.rule = "syntax-error";
    dg.severity = Severity::error;
    dg.message = err.message;
    dg.range = range(err.span.begin, err.span.end);
    d_.diagnostics.push_back(dg);
    d_.unsupported.push_back({"syntax error: " + err.message, dg.range});
  }
  for (const auto& gs : parsed.statements) {
    // a path is a TeX group (\tikz@command@path): what its or its nodes' options define
    // (`\draw[s/.style=..]`, circuitikz's `node[european ports, or port]`) holds for it alone
    struct Group {
      tex::StyleTable& t;
      explicit Group(tex::StyleTable& x) : t(x) { t.push(); }
      ~Group() { t.pop(); }
      Group(const Group&) = delete;
      Group& operator=(const Group&) = delete;
    } group(styles_);
    lower_path(gs);
  }
}

void PictureLowerer::lower_rest_of_run(const tex::Statement& st, std::size_t from) {
  // `from` is an offset in the trimmed text: map it back to st.text
  std::size_t lead = 0;
  while (lead < st.text.size() && std::isspace(static_cast<unsigned char>(st.text[lead]))) ++lead;
  std::size_t i = text_skip_space(st.text, lead + from);
  if (i >= st.text.size() || st.text[i] != '{') return;
  std::size_t e = text_skip_group(st.text, i);
  if (e == std::string::npos) return;
  e = text_skip_space(st.text, e);
  if (e >= st.text.size()) return;
  tex::Statement rest;
  rest.kind = tex::StatementKind::Other;
  rest.text = st.text.substr(e);
  if (st.origin.size() == st.text.size()) rest.origin.assign(st.origin.begin() + static_cast<long>(e), st.origin.end());
  rest.prov = st.prov;
  if (SourceRange r = st.range_of(static_cast<std::uint32_t>(e), static_cast<std::uint32_t>(st.text.size())); r.valid)
    rest.prov.range = r;
  const tex::Statement* saved = stmt_;
  lower_statement(rest);
  stmt_ = saved;
}

// intersections library (pgfmanual 13.3.2): `name path` keeps the path's geometry as canvas
// polylines (curves sampled); `name intersections` intersects two of them.
void PictureLowerer::remember_path(const PathState& ps) {
  std::vector<std::vector<Point>> lines;
  auto sample_ellipse = [&](const ConjugateEllipse& el, double t0, double t1, int n) {
    std::vector<Point> pts;
    for (int i = 0; i <= n; ++i) pts.push_back(el.at(t0 + (t1 - t0) * i / n));
    return pts;
  };
  for (std::size_t i : ps.elements) {
    const Geometry& g = d_.elements[i].geom;
    if (auto* sg = std::get_if<Segment>(&g)) {
      lines.push_back({sg->a, sg->b});
    } else if (auto* pl = std::get_if<Polyline>(&g)) {
      auto pts = pl->points;
      if (pl->closed && !pts.empty()) pts.push_back(pts.front());
      lines.push_back(pts);
    } else if (auto* r = std::get_if<Rectangle>(&g)) {
      lines.push_back({r->corners[0], r->corners[1], r->corners[2], r->corners[3], r->corners[0]});
    } else if (auto* c = std::get_if<Circle>(&g)) {
      lines.push_back(sample_ellipse({c->center, {c->radius, 0}, {0, c->radius}}, 0, 360, 128));
    } else if (auto* el = std::get_if<Ellipse>(&g)) {
      const double r = el->rotation_deg * kDeg;
      ConjugateEllipse ce{el->center, {el->rx * std::cos(r), el->rx * std::sin(r)},
                          {-el->ry * std::sin(r), el->ry * std::cos(r)}};
      lines.push_back(sample_ellipse(ce, 0, 360, 128));
    } else if (auto* a = std::get_if<Arc>(&g)) {
      const double r = a->rotation_deg * kDeg;
      ConjugateEllipse ce{a->center, {a->rx * std::cos(r), a->rx * std::sin(r)}, {-a->ry * std::sin(r), a->ry * std::cos(r)}};
      lines.push_back(sample_ellipse(ce, a->start_deg, a->end_deg, 64));
    } else if (auto* bz = std::get_if<Bezier>(&g)) {
      std::vector<Point> pts;
      for (int k = 0; k <= 64; ++k) pts.push_back(bezier_at(*bz, k / 64.0));
      lines.push_back(pts);
    } else if (auto* p = std::get_if<Plot>(&g)) {
      lines.push_back(p->points);
    }
  }
  named_paths_[collapse_spaces(ps.s.ops->name_path)] = std::move(lines);
}

void PictureLowerer::name_intersections(PathState& ps, const std::string& spec, std::uint32_t b, std::uint32_t e) {
  std::string of, prefix = "intersection";
  std::vector<std::string> by;
  for (const auto& it : tex::split_options(spec)) {
    const std::string k = tex::normalise_key(it.key);
    if (k == "of") of = it.value;
    else if (k == "name") prefix = collapse_spaces(it.value);
    else if (k == "by") {
      for (const auto& n : tex::split_options(it.value)) {
        std::string name = n.key;
        if (!name.empty() && name.front() == '[') name = name.substr(std::min(name.size(), name.find(']') + 1));
        by.push_back(collapse_spaces(name));
      }
    }
  }
  std::size_t andp = of.find(" and ");
  if (andp == std::string::npos) {
    problem("unsupported-key", "name intersections needs 'of=A and B'", b, e, &ps);
    return;
  }
  const std::string a = collapse_spaces(of.substr(0, andp)), c = collapse_spaces(of.substr(andp + 5));
  auto fa = named_paths_.find(a), fc = named_paths_.find(c);
  if (fa == named_paths_.end() || fc == named_paths_.end()) {
    problem("unsupported-coordinate", "no path named '" + (fa == named_paths_.end() ? a : c) + "'", b, e, &ps);
    return;
  }
  std::vector<Point> hits;
  for (const auto& la : fa->second) {
    for (std::size_t i = 0; i + 1 < la.size(); ++i) {
      for (const auto& lc : fc->second) {
        for (std::size_t j = 0; j + 1 < lc.size(); ++j) {
          const Point p = la[i], r = la[i + 1] - la[i], q = lc[j], sv = lc[j + 1] - lc[j];
          const double den = r.x * sv.y - r.y * sv.x;
          if (std::abs(den) < 1e-12) continue;
          const double t = ((q.x - p.x) * sv.y - (q.y - p.y) * sv.x) / den;
          const double u = ((q.x - p.x) * r.y - (q.y - p.y) * r.x) / den;
          if (t < -1e-9 || t > 1 + 1e-9 || u < -1e-9 || u > 1 + 1e-9) continue;
          Point x = p + t * r;
          bool dup = false;
          for (Point h : hits) dup = dup || length(h - x) < 1e-3;
          if (!dup) hits.push_back(x);
        }
      }
    }
  }
  for (std::size_t k = 0; k < hits.size(); ++k) {
    NodeRecord rec;
    rec.g.shape = NodeShape::coordinate;
    rec.center = hits[k];
    rec.is_point = true;
    named_[prefix + "-" + std::to_string(k + 1)] = rec;
    if (k < by.size() && !by[k].empty()) {
      named_[by[k]] = rec;
      d_.coordinates.push_back({by[k], hits[k], stmt_ ? stmt_->prov : Provenance{}});
    }
  }
}

// A small square (or its L) at a corner is a right-angle mark (issue 4 item 2):
//  - an open 3-point polyline P0-P1-P2 whose legs are <= 15pt, within 20% of each other and
//    perpendicular within 6 degrees: the mark's vertex is P0 + P2 - P1 (the L's far corner);
//  - a closed 4-point polygon or a rectangle that is such a square and has a corner within
//    1.5pt of a vertex of another element: the mark sits at that corner.
void PictureLowerer::detect_right_angle_marks() {
  constexpr double kMaxLeg = 15.0, kRatio = 1.25, kAngleTol = 6.0, kTouch = 1.5;
  auto perpendicular_l = [&](Point a, Point c, Point b2) {
    const Point l1 = a - c, l2 = b2 - c;
    const double n1 = length(l1), n2 = length(l2);
    if (n1 < 0.5 || n2 < 0.5 || n1 > kMaxLeg || n2 > kMaxLeg) return false;
    if (std::max(n1, n2) / std::min(n1, n2) > kRatio) return false;
    const double cosang = (l1.x * l2.x + l1.y * l2.y) / (n1 * n2);
    return std::abs(std::acos(std::clamp(cosang, -1.0, 1.0)) / kDeg - 90) <= kAngleTol;
  };
  std::vector<Point> vertices;  // of every element, with the element index
  std::vector<std::size_t> owner;
  for (std::size_t i = 0; i < d_.elements.size(); ++i) {
    const Geometry& g = d_.elements[i].geom;
    auto add = [&](Point p) {
      vertices.push_back(p);
      owner.push_back(i);
    };
    if (auto* s = std::get_if<Segment>(&g)) {
      add(s->a);
      add(s->b);
    } else if (auto* pl = std::get_if<Polyline>(&g)) {
      for (Point p : pl->points) add(p);
    } else if (auto* r = std::get_if<Rectangle>(&g)) {
      for (Point p : r->corners) add(p);
    } else if (auto* a = std::get_if<Arc>(&g)) {
      add(a->from);
      add(a->to);
    }
  }
  for (std::size_t i = 0; i < d_.elements.size(); ++i) {
    Element& el = d_.elements[i];
    if (el.style.invisible) continue;
    std::vector<Point> q;
    bool closed = false;
    if (auto* pl = std::get_if<Polyline>(&el.geom)) {
      q = pl->points;
      closed = pl->closed;
      if (closed && q.size() == 5) q.pop_back();
    } else if (auto* r = std::get_if<Rectangle>(&el.geom)) {
      q.assign(r->corners.begin(), r->corners.end());
      closed = true;
    } else {
      continue;
    }
    if (!closed && q.size() == 3 && perpendicular_l(q[0], q[1], q[2])) {
      RightAngleMark m;
      m.corner = q[0] + q[2] - q[1];
      m.leg_a = q[0];
      m.leg_b = q[2];
      m.size = (length(q[0] - m.corner) + length(q[2] - m.corner)) / 2;
      el.geom = m;
      continue;
    }
    if (closed && q.size() == 4) {
      bool square = true;
      for (int k = 0; k < 4 && square; ++k)
        square = perpendicular_l(q[static_cast<std::size_t>((k + 3) % 4)], q[static_cast<std::size_t>(k)],
                                 q[static_cast<std::size_t>((k + 1) % 4)]);
      if (!square) continue;
      for (int k = 0; k < 4; ++k) {
        const Point c = q[static_cast<std::size_t>(k)];
        bool touches = false;
        for (std::size_t v = 0; v < vertices.size() && !touches; ++v)
          touches = owner[v] != i && length(vertices[v] - c) <= kTouch;
        if (!touches) continue;
        RightAngleMark m;
        m.corner = c;
        m.leg_a = q[static_cast<std::size_t>((k + 3) % 4)];
        m.leg_b = q[static_cast<std::size_t>((k + 1) % 4)];
        m.size = (length(m.leg_a - c) + length(m.leg_b - c)) / 2;
        el.geom = m;
        break;
      }
    }
  }
}

// ---------------------------------------------------------------- libraries (ir/library.hpp)

class PictureLowerer::Host final : public LibraryHost {
 public:
  Host(PictureLowerer& L, const tex::Statement& st) : L_(L), st_(st) {}

  const Settings& settings() const override { return L_.stack_.back(); }

  std::map<std::string, std::string>* document_definitions(const std::string& kind) override {
    return L_.doc_defs_ ? &(*L_.doc_defs_)[kind] : nullptr;
  }

  void emit(const std::string& statement, std::uint32_t b, std::uint32_t e) override {
    tex::Statement syn;
    std::string t(trim(statement));
    if (starts_with(t, "\\begin{scope}")) {
      syn.kind = tex::StatementKind::ScopeBegin;
      std::string rest(trim(std::string_view(t).substr(13)));
      if (rest.size() >= 2 && rest.front() == '[' && rest.back() == ']') rest = rest.substr(1, rest.size() - 2);
      syn.text = rest;
    } else if (starts_with(t, "\\end{scope}")) {
      syn.kind = tex::StatementKind::ScopeEnd;
    } else if (starts_with(t, "\\tikzset{") && t.back() == '}') {
      // settings that last to the end of the enclosing scope, like a \tikzset in the picture
      syn.kind = tex::StatementKind::StyleDef;
      syn.text = t.substr(9, t.size() - 10);
    } else {
      std::size_t j = 1;
      while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
      static const std::set<std::string> kPath = {"\\draw", "\\path",   "\\fill",      "\\filldraw", "\\shade",
                                                  "\\shadedraw", "\\clip", "\\node",   "\\coordinate",
                                                  "\\pic",  "\\matrix", "\\useasboundingbox", "\\graph"};
      syn.kind = kPath.count(t.substr(0, j)) ? tex::StatementKind::Path : tex::StatementKind::Other;
      syn.text = t;
    }
    // every byte of the synthetic text stands for the construct's [b, e)
    const std::uint32_t n = static_cast<std::uint32_t>(st_.origin.size());
    const std::uint32_t ob = n == 0 ? st_.prov.range.begin : st_.origin[std::min(b, n - 1)];
    const std::uint32_t oe = n == 0 ? st_.prov.range.end : st_.origin[std::min(std::max(e, b + 1) - 1, n - 1)];
    syn.origin.assign(std::max<std::size_t>(syn.text.size(), 1), ob);
    syn.origin.back() = std::max(ob, oe);
    syn.prov = st_.prov;
    // What the synthetic statement draws is the construct's [b, e), not the whole statement: one
    // command of a run (\tkzDrawSegment on line 7 of a \tkz... run starting on line 3), one arrow
    // of a tikzcd matrix. Its elements and nodes, and the findings on them, point there.
    // (A construct that stands for the whole statement keeps the statement's range as it is.)
    if (e > b && !st_.origin.empty() && (b > 0 || e < st_.text.size()))
      if (SourceRange r = st_.range_of(b, e); r.valid) syn.prov.range = r;
    const tex::Statement* saved = L_.stmt_;
    if (++L_.library_depth_ <= kMaxLibraryDepth) {
      L_.lower_statement(syn);
    } else {
      L_.stmt_ = &st_;
      L_.problem("resource-limit", "library constructs nested too deeply", b, e, nullptr);
    }
    --L_.library_depth_;
    L_.stmt_ = saved;
  }

  std::optional<NodeExtent> measure_node(const std::string& options, const std::string& text) override {
    const std::size_t nodes = L_.d_.nodes.size(), elements = L_.d_.elements.size(),
                      diags = L_.d_.diagnostics.size(), unsup = L_.d_.unsupported.size(),
                      coords = L_.d_.coordinates.size();
    const BBoxState bbox = L_.save_bbox();
    const std::uint32_t path_id = L_.next_path_id_;
    static const std::string kName = "tikzlint@measure";
    auto old = L_.named_.find(kName);
    std::optional<NodeRecord> saved;
    if (old != L_.named_.end()) saved = old->second;
    emit("\\node[" + options + "] (" + kName + ") at (0,0) {" + text + "};", 0,
         static_cast<std::uint32_t>(st_.text.size()));
    std::optional<NodeExtent> out;
    if (L_.d_.nodes.size() > nodes) {
      const Node& nd = L_.d_.nodes[nodes];
      const Point o = L_.stack_.back().ctm.apply(Point{0, 0});
      NodeExtent x;
      x.box = {nd.box.xmin - o.x, nd.box.ymin - o.y, nd.box.xmax - o.x, nd.box.ymax - o.y};
      x.center = nd.center - o;
      x.text_width = nd.text_width;
      x.text_height = nd.text_height;
      x.text_depth = nd.text_depth;
      out = x;
    }
    L_.d_.nodes.resize(nodes);
    L_.d_.elements.resize(elements);
    L_.d_.diagnostics.resize(diags);
    L_.d_.unsupported.resize(unsup);
    L_.d_.coordinates.resize(coords);
    L_.restore_bbox(bbox);
    L_.next_path_id_ = path_id;
    if (saved) L_.named_[kName] = *saved;
    else L_.named_.erase(kName);
    return out;
  }

  std::optional<Box> measure_statements(const std::vector<std::string>& statements) override {
    std::optional<Box> out;
    trial([&] {
      for (const auto& s : statements) emit(s, 0, static_cast<std::uint32_t>(st_.text.size()));
      if (L_.bbox_.any) out = L_.bbox_.box;
    });
    return out;
  }

  std::optional<Point> locate(const std::vector<std::string>& statements, const std::string& coordinate) override {
    std::optional<Point> out;
    trial([&] {
      for (const auto& s : statements) emit(s, 0, static_cast<std::uint32_t>(st_.text.size()));
      static const std::string kProbe = "tikzlint@probe";
      emit("\\coordinate (" + kProbe + ") at " + coordinate + ";", 0, static_cast<std::uint32_t>(st_.text.size()));
      if (auto it = L_.named_.find(kProbe); it != L_.named_.end()) out = it->second.center;
    });
    return out;
  }

  std::optional<Point> named_center(const std::string& name) const override {
    auto it = L_.named_.find(name);
    if (it == L_.named_.end()) return std::nullopt;
    return it->second.center;
  }

  std::optional<std::vector<std::vector<Point>>> named_path(const std::string& name) const override {
    auto it = L_.named_paths_.find(collapse_spaces(name));
    if (it == L_.named_paths_.end()) return std::nullopt;
    return it->second;
  }

  std::optional<Box> named_box(const std::string& name) const override {
    for (auto it = L_.d_.nodes.rbegin(); it != L_.d_.nodes.rend(); ++it)
      if (it->name == name) return it->box;
    auto c = named_center(name);
    if (!c) return std::nullopt;
    return Box{c->x, c->y, c->x, c->y};
  }

  std::optional<Point> named_anchor(const std::string& name, const std::string& anchor) const override {
    auto it = L_.named_.find(name);
    if (it == L_.named_.end()) return std::nullopt;
    auto off = anchor_offset(it->second.g, collapse_spaces(anchor));
    if (!off) return std::nullopt;
    return it->second.anchor_canvas(*off);
  }

  void name_node(const std::string& name, Point center, const Transform& shape,
                 std::shared_ptr<const ShapeOutline> outline) override {
    NodeRecord rec;
    rec.g.shape = NodeShape::other;
    rec.g.outline = std::move(outline);
    rec.center = center;
    rec.shape = shape;
    rec.shape.e = rec.shape.f = 0;
    L_.named_[collapse_spaces(name)] = rec;
  }

  void mark_unplaced(const std::string& name) override {
    if (auto it = L_.named_.find(collapse_spaces(name)); it != L_.named_.end()) it->second.unplaced = true;
  }

  void alias_node(const std::string& alias, const std::string& existing) override {
    if (auto it = L_.named_.find(collapse_spaces(existing)); it != L_.named_.end())
      L_.named_[collapse_spaces(alias)] = it->second;
  }

  std::optional<MathValue> eval(const std::string& expr, std::string* error) const override {
    std::string err;
    return eval_math(expr, font_units_of(L_.stack_.back()), error ? error : &err);
  }

  std::vector<tex::FlatKey> expand_keys(const std::string& options) override {
    const tex::Statement* saved = L_.stmt_;
    L_.stmt_ = &st_;
    std::vector<tex::FlatKey> keys = *L_.expand(options, 0, nullptr);
    L_.stmt_ = saved;
    return keys;
  }

  void problem(const std::string& code, const std::string& message, std::uint32_t b, std::uint32_t e,
               bool incomplete) override {
    const tex::Statement* saved = L_.stmt_;
    L_.stmt_ = &st_;
    L_.problem(code, message, b, e, nullptr, incomplete);
    L_.stmt_ = saved;
  }

  std::optional<std::string> read_data_file(const std::string& name, std::uint32_t b, std::uint32_t e,
                                            std::size_t max_bytes) override {
    if (!L_.gate_) return std::nullopt;  // outside a document: no folder to read from
    const tex::Statement* saved = L_.stmt_;
    L_.stmt_ = &st_;
    std::string path = name;
    if (!path.empty() && path.front() != '/' && !L_.base_dir_.empty()) path = L_.base_dir_ + "/" + path;
    ReadRefusal why = L_.gate_->check_name(name);
    std::error_code ec;
    const bool there = std::filesystem::is_regular_file(path, ec);
    if (why == ReadRefusal::none && there) why = L_.gate_->check_found(path);
    std::optional<std::string> out;
    if (why != ReadRefusal::none) {
      // never opened (as `plot file`)
      const std::size_t before = L_.d_.diagnostics.size();
      L_.problem("refused-read", "refused to read '" + name + "': " + describe(why) + " is outside the read policy", b,
                 e, nullptr, true);
      if (L_.d_.diagnostics.size() > before) {
        L_.d_.diagnostics.back().evidence = {{"path", name}, {"policy", code_of(why)}};
        L_.d_.diagnostics.back().notes.push_back(
            {std::string(ReadGate::summary()) + "; --allow-read DIR widens it", L_.d_.diagnostics.back().range});
      }
    } else if (!there) {
      L_.problem("missing-file", "data file '" + name + "' not found", b, e, nullptr, true);
    } else if (std::filesystem::file_size(path, ec) > max_bytes || ec) {
      L_.problem("resource-limit", "data file '" + name + "' is larger than " + std::to_string(max_bytes) + " bytes", b,
                 e, nullptr, true);
    } else if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
      std::string text;
      char buf[65536];
      std::size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && text.size() <= max_bytes) text.append(buf, n);
      std::fclose(f);
      if (text.size() <= max_bytes) out = std::move(text);
    }
    L_.stmt_ = saved;
    return out;
  }

  void begin_scope(const Settings& s) override {
    L_.stack_.push_back(s);
    L_.styles_.push();
  }

  void add_path(const std::vector<Geometry>& pieces, const Style& style) override {
    const tex::Statement* saved = L_.stmt_;
    L_.stmt_ = &st_;
    PathState ps;
    ps.path_id = L_.next_path_id_++;
    for (const Geometry& g : pieces) L_.add_element(ps, g, style);
    L_.stmt_ = saved;
  }

  void add_clip(const ClipRegion& clip) override {
    L_.d_.clips.push_back(clip);
    L_.stack_.back().clip_ids.push_back(static_cast<std::uint32_t>(L_.d_.clips.size() - 1));
  }

  void grow_picture_bbox(const Box& box) override { L_.grow_bbox(box); }
  void begin_interrupt_bbox() override { interrupted_.push_back(L_.save_bbox()); }
  void end_interrupt_bbox() override {
    if (interrupted_.empty()) return;
    L_.restore_bbox(interrupted_.back());
    interrupted_.pop_back();
  }
  void begin_bbox_probe() override { L_.bbox_probes_.emplace_back(); }
  std::optional<Box> end_bbox_probe() override {
    if (L_.bbox_probes_.empty()) return std::nullopt;
    const BBoxAccumulator p = L_.bbox_probes_.back();
    L_.bbox_probes_.pop_back();
    if (!p.any) return std::nullopt;
    return p.box;
  }

  void report(const Diagnostic& dg, const std::string& unsupported) override {
    L_.d_.diagnostics.push_back(dg);
    if (!unsupported.empty()) L_.d_.unsupported.push_back({unsupported, dg.range});
  }

  void mark_incomplete() override {
    for (auto& el : L_.d_.elements) el.incomplete = true;
    for (auto& n : L_.d_.nodes) n.incomplete = true;
  }

  std::size_t node_count() const override { return L_.d_.nodes.size(); }
  void mark_nodes_incomplete(std::size_t first) override {
    for (std::size_t i = first; i < L_.d_.nodes.size(); ++i) L_.d_.nodes[i].incomplete = true;
  }
  void mark_unplaced_from(std::size_t first_node, std::size_t first_element) override {
    for (std::size_t i = first_node; i < L_.d_.nodes.size(); ++i)
      L_.d_.nodes[i].incomplete = L_.d_.nodes[i].unplaced_reference = true;
    for (std::size_t i = first_element; i < L_.d_.elements.size(); ++i)
      L_.d_.elements[i].incomplete = L_.d_.elements[i].unplaced_reference = true;
  }
  void set_uses_axis(bool uses) override { L_.d_.uses_axis = uses; }
  void set_drawn_as(const std::string& what) override { L_.d_.drawn_as = what; }
  void set_node_role(std::size_t first, const std::string& role) override {
    for (std::size_t i = first; i < L_.d_.nodes.size(); ++i) L_.d_.nodes[i].role = role;
  }
  void set_node_placed_by(std::size_t first, const std::string& layout) override {
    for (std::size_t i = first; i < L_.d_.nodes.size(); ++i)
      if (L_.d_.nodes[i].placed_by.empty()) L_.d_.nodes[i].placed_by = layout;
  }
  std::size_t element_count() const override { return L_.d_.elements.size(); }
  void set_element_role(std::size_t first, const std::string& role) override {
    for (std::size_t i = first; i < L_.d_.elements.size(); ++i) L_.d_.elements[i].role = role;
  }
  void mark_3d() override {
    L_.d_.is_3d = true;
    const Settings& s = settings();
    if (!L_.d_.xyz_vectors)
      L_.d_.xyz_vectors = std::array<Point, 3>{s.ctm.apply_linear(s.xvec), s.ctm.apply_linear(s.yvec),
                                               s.ctm.apply_linear(s.zvec)};
  }

 private:
  // Run `body` (which emits statements) with a fresh picture-size box, then drop everything it
  // added: elements, nodes, names, diagnostics, scopes left open.
  template <class Body>
  void trial(Body&& body) {
    const std::size_t nodes = L_.d_.nodes.size(), elements = L_.d_.elements.size(),
                      diags = L_.d_.diagnostics.size(), unsup = L_.d_.unsupported.size(),
                      coords = L_.d_.coordinates.size(), depth = L_.stack_.size();
    const BBoxState bbox = L_.save_bbox();
    const std::uint32_t path_id = L_.next_path_id_;
    const auto named = L_.named_;
    const auto named_paths = L_.named_paths_;
    const bool frozen = L_.stack_.back().size_frozen;
    L_.bbox_ = BBoxAccumulator{};
    L_.stack_.back().size_frozen = false;
    body();
    while (L_.stack_.size() > depth) emit("\\end{scope}", 0, 0);
    L_.stack_.back().size_frozen = frozen;
    L_.d_.nodes.resize(nodes);
    L_.d_.elements.resize(elements);
    L_.d_.diagnostics.resize(diags);
    L_.d_.unsupported.resize(unsup);
    L_.d_.coordinates.resize(coords);
    L_.restore_bbox(bbox);
    L_.next_path_id_ = path_id;
    L_.named_ = named;
    L_.named_paths_ = named_paths;
  }

  static constexpr int kMaxLibraryDepth = 16;
  PictureLowerer& L_;
  const tex::Statement& st_;
  std::vector<BBoxState> interrupted_;  // the picture's box at each begin_interrupt_bbox
};

namespace {
std::string leading_command(const std::string& text) {
  std::string_view t = trim(text);
  if (t.empty() || t[0] != '\\') return "";
  std::size_t j = 1;
  while (j < t.size() && (std::isalpha(static_cast<unsigned char>(t[j])) || t[j] == '@')) ++j;
  return std::string(t.substr(0, j));
}
}  // namespace

// tikzlibrarycircuits.code.tex \tikz@lib@circ@...: each symbol is a node at its pos on the
// straight line from the to's start to its target, turned along it (the graphic styles say
// `transform shape`); `mark connection node` draws the line up to the node's border toward the
// start and resumes at its border toward the target. A symbol at pos 0 or 1 sits at that end.
SegmentRef PictureLowerer::lower_circuit_symbols(PathState& ps, const PathOp& op, const Settings& es,
                                                 const Settings& base, const Resolved& target, bool is_edge) {
  const Point S = canvas(ps, ps.cur_local);
  const Point A = ps.cur_node.empty() ? S : named_.at(ps.cur_node).border_toward_canvas(canvas(ps, target.local));
  const Point T = target.bare_node.empty() ? canvas(ps, target.local) : named_.at(target.bare_node).border_toward_canvas(A);
  SegmentRef seg;
  seg.kind = SegmentRef::Kind::line;
  seg.a = A;
  seg.b = T;
  const Point dir = T - A;
  const double turn = angle_deg(ps.s.ctm.inverse().apply_linear(dir));
  struct Placed {
    double pos;
    Point left, right;
  };
  std::vector<Placed> placed;
  Settings nb = base;
  nb.style.draw = ps.s.style.draw;
  for (const std::string& opts : es.lib->to_symbols) {
    grammar::Node gn;
    gn.options = grammar::Options{opts + ",rotate=" + std::to_string(turn), op.span};
    gn.name = kLastNodeAlias;
    gn.has_text = true;
    gn.span = op.span;
    NodePlacement w;
    w.local_point = target.local;
    auto idx = lower_node(ps, gn, w, true, &seg, false, &nb);
    auto rec = named_.find(kLastNodeAlias);
    if (!idx || rec == named_.end()) continue;
    d_.nodes[*idx].name.clear();
    const Point c = rec->second.center;
    placed.push_back({d_.nodes[*idx].pos_on_path, rec->second.border_toward_canvas(c - dir),
                      rec->second.border_toward_canvas(c + dir)});
    named_.erase(rec);
  }
  std::stable_sort(placed.begin(), placed.end(), [](const Placed& x, const Placed& y) { return x.pos < y.pos; });
  auto local = [&](Point c) { return Resolved{ps.s.ctm.inverse().apply(c), "", std::nullopt}; };
  Point from = A;
  for (const Placed& p : placed) {
    if (is_edge) {
      if (p.pos > 0) add_element(ps, Segment{from, p.left}, es.style);
    } else if (p.pos > 0) {
      line_to(ps, local(p.left));
    }
    from = p.pos < 1 ? p.right : T;
    if (!is_edge) move_to(ps, local(from));
  }
  if (is_edge) {
    if (placed.empty() || placed.back().pos < 1) add_element(ps, Segment{from, T}, es.style);
    ps.bbox.add(A);
    ps.bbox.add(T);
  } else if (placed.empty() || placed.back().pos < 1) {
    line_to(ps, target);
  } else {
    move_to(ps, target);
  }
  return seg;
}

// Markings, text along path, waves (decorations_draw.cpp): what they draw is emitted in their frames,
// the path they construct added to this one.
void PictureLowerer::lower_drawn_decoration(PathState& ps, const DecorationEffect& fx, const std::string& spec,
                                            const std::vector<std::size_t>& which, bool replaces, std::uint32_t b,
                                            std::uint32_t e) {
  if (stmt_ == nullptr) return;
  std::vector<Geometry> pieces;
  for (std::size_t idx : which) pieces.push_back(d_.elements[idx].geom);
  DecoratedPath path = decorated_path_of(pieces);
  if (path.subpaths.empty()) path.subpaths.push_back({canvas(ps, ps.cur_local)});  // a lone moveto
  Host host(*this, *stmt_);
  const tex::Statement* saved = stmt_;
  const std::size_t first_node = d_.nodes.size();
  auto drawn = lower_drawing_decoration(fx.name, spec, path, host, b, e);
  stmt_ = saved;
  if (!drawn) return;
  // decorations.text: every node it set is a character of its text, on this path as baseline
  if (fx.name == "text along path" || fx.name == "text effects along path")
    for (std::size_t i = first_node; i < d_.nodes.size(); ++i)
      d_.nodes[i].along_path = Node::AlongPath{ps.path_id, static_cast<std::uint32_t>(first_node)};
  Element made;
  made.style = ps.s.style;
  made.prov = stmt_->prov;
  made.path_id = ps.path_id;
  if (!which.empty()) made = d_.elements[which.front()];
  // pgfmanual 24.2: the decoration's own path replaces the decorated one (whose points were
  // already counted in the picture's size when it was constructed)
  if (replaces)
    for (std::size_t idx : which) d_.elements[idx].style.invisible = true;
  for (Point p : drawn->control_points) add_bbox(ps, p);
  for (auto& piece : drawn->path) {
    if (!afford(1 + piece.size())) {  // a decoration's own path counts in the drawing budget
      ps.incomplete = true;
      break;
    }
    for (Point p : piece) add_bbox(ps, p);
    made.geom = Plot{piece};
    ps.elements.push_back(d_.elements.size());
    d_.elements.push_back(made);
  }
}

// A pic defined with `TYPE/.pic={code}` or `pics/TYPE/.style={code=..., background code=...}`
// (pgfmanual 18; tikz.code.tex \tikz@subpicture@handle@): its code runs in a scope shifted to the
// pic's position, with the translation only of the transformations in force unless `transform
// shape` (\tikz@node@transformations), then the pic's own options; `pic actions` gives the code's
// paths the pic's draw/fill. Background code first, then code, then foreground code.
bool PictureLowerer::lower_user_pic(PathState& ps, const PathOp& op, const std::string& type,
                                    const std::string& arg) {
  if (!op.node || stmt_ == nullptr) return false;
  const grammar::Node& gn = *op.node;
  const std::uint32_t b = op.span.begin, e = op.span.end;
  std::string code[3];  // background code, code, foreground code
  std::vector<std::string> scope_keys, action_keys;
  auto pics_key = [](std::string k) {
    if (starts_with(k, "/tikz/")) k = k.substr(6);
    if (starts_with(k, "pics/")) k = k.substr(5);
    return k;
  };
  auto take_code = [&](const tex::FlatKey& k) {
    const std::string name = pics_key(k.key);
    if (name == "background code") code[0] += k.value;
    else if (name == "code") code[1] += k.value;
    else if (name == "foreground code") code[2] += k.value;
    else return name == "setup code";
    return true;
  };
  static const std::set<std::string> kActions = {"draw", "fill", "pattern", "shade", "shading", "ball color",
                                                 "top color", "bottom color", "left color", "right color",
                                                 "inner color", "outer color", "path picture", "filldraw"};
  std::vector<tex::StyleProblem> sp;
  std::string at_text;
  if (gn.options) {
    for (const auto& k : styles_.expand(gn.options->raw, &sp)) {
      if (k.key == "at" && k.has_value) {  // \pic [at={(3,2)}]
        at_text = std::string(trim(tex::strip_braces(k.value)));
        continue;
      }
      if (starts_with(k.key, "pics/") || starts_with(k.key, "/tikz/pics/")) {
        if (!take_code(k)) return false;
        continue;
      }
      std::string kv = k.key + (k.has_value ? "={" + k.value + "}" : "");
      (kActions.count(k.key) ? action_keys : scope_keys).push_back(kv);
    }
  }
  if (!type.empty()) {
    if (!styles_.find("pics/" + type)) return false;
    for (const auto& k : styles_.expand("pics/" + type + (arg.empty() ? "" : "={" + arg + "}"), &sp)) {
      if (!take_code(k)) {
        problem("unsupported-key", "key '" + k.key + "' of pic '" + type + "' is not modelled", b, e, &ps);
        return true;
      }
    }
  }
  style_problems(sp, b, &ps);
  if (code[0].empty() && code[1].empty() && code[2].empty()) return false;
  // where: `at (c)` of \pic, else the current point of the path
  Point local = ps.cur_local;
  if (gn.at) {
    auto r = resolve(&ps, *gn.at, ps.s);
    if (!r) return true;
    local = r->local;
  } else if (!at_text.empty()) {
    grammar::Coordinate c = grammar::parse_coordinate(strip_parens(at_text));
    c.span = op.span;
    auto r = resolve(&ps, c, ps.s);
    if (!r) return true;
    local = r->local;
  }
  const Point at = canvas(ps, local);
  char buf[256];
  std::snprintf(buf, sizeof buf, "reset cm,shift={(%.5fpt,%.5fpt)}", at.x, at.y);
  std::string scope = buf;
  if (ps.s.transform_shape) {
    const Transform& m = ps.s.ctm;
    std::snprintf(buf, sizeof buf, ",cm={%.6f,%.6f,%.6f,%.6f,(0pt,0pt)}", m.a, m.b, m.c, m.d);
    scope += buf;
  }
  for (const auto& k : scope_keys) scope += "," + k;
  std::string actions;
  for (const auto& k : action_keys) actions += (actions.empty() ? "" : ",") + k;
  Host host(*this, *stmt_);
  const tex::Statement* saved = stmt_;
  host.emit("\\begin{scope}[" + scope + "]", b, e);
  host.emit("\\tikzset{pic actions/.style={" + actions + "}}", b, e);
  for (const std::string& c : code)
    for (const std::string& one : split_tikz_code(c)) host.emit(one, b, e);
  host.emit("\\end{scope}", b, e);
  stmt_ = saved;
  return true;
}

// `to path={...}` (pgfmanual 14.13, tikz.code.tex \tikz@to@use@path): the path text replaces the
// `to`, with \tikztostart and \tikztotarget the coordinates (a node's name, so lines stop at its
// border) and \tikztonodes the nodes written in the `to`, which land on the last segment it adds.
bool PictureLowerer::lower_custom_to_path(PathState& ps, const PathOp& op, const Settings& es,
                                          const Resolved& target) {
  if (to_path_depth_ >= kMaxToPathDepth) return false;
  auto as_text = [](const Point& local, const std::string& node) {
    return node.empty() ? fmt_pt(local.x) + "," + fmt_pt(local.y) : node;
  };
  const std::string start = as_text(ps.cur_local, ps.cur_node);
  std::string tgt = as_text(target.local, target.bare_node);
  if (target.bare_node.empty() && !op.coords.empty() && op.coords.back().form == Coordinate::Form::Named &&
      op.coords.back().relative == Coordinate::Relative::None)
    tgt = op.coords.back().raw;  // (a.north): keep the anchor as written
  std::string body = es.ops->to_path;
  auto replace_all = [&](const std::string& from, const std::string& to) {
    for (std::size_t at = body.find(from); at != std::string::npos; at = body.find(from, at + to.size())) {
      const std::size_t end = at + from.size();
      if (end < body.size() && std::isalpha(static_cast<unsigned char>(body[end]))) {
        at = end;  // a longer control word
        continue;
      }
      body.replace(at, from.size(), to);
    }
  };
  replace_all("\\tikztostart", start);
  replace_all("\\tikztotarget", tgt);
  replace_all("\\tikztonodes", "");
  if (!grammar::parse("\\path " + body + ";").errors.empty()) return false;
  lower_to_body(ps, op, es, body);
  return true;
}

// A `to` whose options a package takes (PackagePicture::lower_to): the package's path text
// replaces it, as a `to path` would; the options it leaves are TikZ's, for the to's own nodes.
bool PictureLowerer::lower_package_to(PathState& ps, const PathOp& op) {
  if (op.coords.empty() || !ps.has_cur || stmt_ == nullptr || to_path_depth_ >= kMaxToPathDepth) return false;
  PackagePicture* claimer = nullptr;
  for (auto& h : handlers_)
    if (h->claims_to(op.options->raw)) {
      claimer = h.get();
      break;
    }
  if (claimer == nullptr) return false;
  auto target = resolve(&ps, op.coords.back(), ps.s);
  if (!target) return true;  // reported by resolve, as TikZ's own `to` would
  ToOperation req;
  req.options = op.options->raw;
  req.start_local = ps.cur_local;
  req.target_local = target->local;
  req.start_canvas = canvas(ps, ps.cur_local);
  req.target_canvas = canvas(ps, target->local);
  req.ctm = ps.s.ctm;
  req.target_text = target->bare_node.empty() ? fmt_pt(target->local.x) + "," + fmt_pt(target->local.y)
                                              : target->bare_node;
  req.b = op.options->span.begin + 1;
  req.e = op.options->span.end;
  Host host(*this, *stmt_);
  const tex::Statement* saved = stmt_;
  auto rw = claimer->lower_to(req, host);
  stmt_ = saved;
  if (!rw) {  // the package reported why it could not draw it: the path goes on from the target
    move_to(ps, *target);
    return true;
  }
  Settings es = ps.s;
  if (!text_trim(rw->options).empty()) {
    std::vector<LowerProblem> probs;
    keys_.apply(es, *expand(rw->options, req.b, &ps), KeyTarget::op, req.b, probs);
    report(probs, &ps);
  }
  lower_to_body(ps, op, es, rw->path);
  return true;
}

void PictureLowerer::lower_to_body(PathState& ps, const PathOp& op, const Settings& es, const std::string& body) {
  auto parsed = grammar::parse("\\path " + body + ";");
  if (!parsed.errors.empty() || parsed.statements.empty()) {
    problem("unsupported-construct", "this `to` could not be drawn (its rewritten path does not parse)", op.span.begin,
            op.span.end, &ps);
    return;
  }
  ++to_path_depth_;
  for (PathOp inner : parsed.statements[0].ops) {
    inner.span = op.span;
    for (auto& c : inner.coords) c.span = op.span;
    if (inner.options) inner.options->span = op.span;
    if (inner.node) inner.node->span = op.span;
    lower_op(ps, inner);
  }
  --to_path_depth_;
  // \tikztonodes: the to's own nodes, on the last segment the path added (implicit pos: midway)
  Settings nb = es;
  for (const auto& n : op.edge_nodes) {
    if (skipped_edge_pic(ps, n)) continue;
    NodePlacement w;
    w.local_point = ps.cur_local;
    lower_node(ps, n, w, true, &ps.last, n.is_coordinate, &nb);
  }
}

void PictureLowerer::lower_picture_end() {
  if (!bbox_.any || stack_.empty()) return;
  const auto statements = picture_end_statements(stack_.front(), bbox_.box);
  if (statements.empty()) return;
  tex::Statement at;  // located at the picture
  at.prov.range = pic_.range;
  Host host(*this, at);
  for (const std::string& st : statements) host.emit(st, 0, 0);
  stmt_ = nullptr;
}

void PictureLowerer::lower_after_node(const Settings& ns, const std::string& name, std::uint32_t b, std::uint32_t e) {
  if (stmt_ == nullptr) return;
  Host host(*this, *stmt_);
  const tex::Statement* saved = stmt_;
  for (const std::string& st : after_node_statements(ns, name)) host.emit(st, b, e);
  stmt_ = saved;
}

bool PictureLowerer::offer_to_packages(const tex::Statement& st, bool path) {
  const std::string cs = leading_command(st.text);
  Host host(*this, st);
  const tex::Statement* saved = stmt_;
  Offer done = Offer::pass;
  // tikz.code.tex: \def\pattern{\path[pattern]}
  if (path && cs == "\\pattern") {
    host.emit("\\path[pattern]" + std::string(trim(st.text)).substr(cs.size()), 0,
              static_cast<std::uint32_t>(st.text.size()));
    done = Offer::lowered;
  }
  const PackageStatement offered{st, cs, path};
  for (std::size_t i = 0; i < handlers_.size() && done == Offer::pass; ++i)
    done = handlers_[i]->lower_statement(offered, host);
  stmt_ = saved;
  return done == Offer::lowered;
}

Diagram PictureLowerer::run() {
  d_.file = doc_.file;
  d_.base_font_size_pt = doc_.base_font_size_pt;
  d_.document_class = doc_.document_class;
  d_.class_options = doc_.class_options;
  for (const auto& p : doc_.packages)
    if (p.name == "geometry") d_.text_block = geometry_text_block(doc_.class_options, p.options);
  d_.text_beside = pic_.text_beside;
  d_.uses_axis = pic_.is_axis;
  Settings top;
  top.picture_font.size_pt = doc_.base_font_size_pt;
  top.picture_font.base_size_pt = doc_.base_font_size_pt;
  top.picture_font.family = family_for_class(doc_.document_class);
  // \Huge, \small\sffamily... of the document body around the picture: its font where it starts
  if (!pic_.body_font.empty()) apply_font_commands(top.picture_font, pic_.body_font);
  stack_ = {top};
  for (const auto& p : packages_.packages())
    if (auto h = p->begin_document_picture(pic_, doc_)) handlers_.push_back(std::move(h));
  std::vector<LowerProblem> probs;
  apply_hook(stack_.back(), "every picture", KeyTarget::picture, 0, nullptr, probs);
  if (!pic_.options.empty()) {
    std::vector<tex::StyleProblem> sp;
    auto keys = styles_.expand(pic_.options, &sp);
    remember_package_options(pic_.options);
    for (const auto& p : sp) problem(p.code, p.message, 0, 0, nullptr);
    keys_.apply(stack_.back(), keys, KeyTarget::picture, 0, probs);
  }
  for (const auto& p : probs) stack_.back().unread_scope_keys = stack_.back().unread_scope_keys || p.makes_incomplete;
  for (const auto& p : probs) problem(p.code, p.message, 0, 0, nullptr, p.makes_incomplete);
  probs.clear();
  // The layers (tex::Picture::layers): each statement's elements and nodes on the layer in force
  // for it, by its place counted from main (a name not in the list is pgf's error: left on main).
  auto layer_rank = [&](const std::string& name) {
    const auto& ls = pic_.layers;
    const auto at = std::find(ls.begin(), ls.end(), name);
    const auto main = std::find(ls.begin(), ls.end(), std::string("main"));
    return at == ls.end() || main == ls.end() ? 0 : static_cast<int>(at - ls.begin()) - static_cast<int>(main - ls.begin());
  };
  for (const auto& st : pic_.statements) {
    const std::size_t elements_before = d_.elements.size(), nodes_before = d_.nodes.size();
    lower_statement(st);
    if (stack_.back().layer == "main") continue;
    const int rank = layer_rank(stack_.back().layer);
    for (std::size_t k = elements_before; k < d_.elements.size(); ++k) d_.elements[k].layer = rank;
    for (std::size_t k = nodes_before; k < d_.nodes.size(); ++k) d_.nodes[k].layer = rank;
  }
  lower_picture_end();
  if (!handlers_.empty()) {
    tex::Statement at;  // located at the picture
    at.prov.range = pic_.range;
    Host host(*this, at);
    for (const auto& h : handlers_) h->end_picture(host);
    stmt_ = nullptr;
  }
  // A budget error of the expansion inside the picture (a refused or stopped \foreach, too many
  // tokens...) leaves its statements out: the rules must not judge what is left as the whole.
  bool cut = pic_.truncated;
  for (const Diagnostic& dg : doc_.diagnostics)
    cut = cut || (dg.rule == "expansion-limit" && dg.range.valid && pic_.range.valid && dg.range.file == pic_.range.file &&
                  dg.range.begin >= pic_.range.begin && dg.range.begin < pic_.range.end);
  if (cut) {
    Diagnostic dg;
    dg.rule = "expansion-limit";
    dg.severity = Severity::note;
    dg.message = "the picture is incomplete: expansion stopped inside it at a limit (see the error)";
    dg.range = pic_.range;
    d_.diagnostics.push_back(dg);
  }
  stmt_ = nullptr;
  detect_right_angle_marks();
  if (bbox_.any) {
    d_.picture_bbox = bbox_.box;
    d_.has_picture_bbox = true;
  }
  return std::move(d_);
}

// Colours defined with \definecolor / \colorlet / \providecolor in any file read for this input
// (the expander reads classes and packages for macros; colour names are ours to collect).
// One file's names, computed once per file text (a class read from the expansion cache is
// scanned once per batch, not once per diagram).
std::set<std::string> colors_defined_in(const std::string& t) {
  std::set<std::string> out;
  for (const char* cmd : {"\\definecolor", "\\colorlet", "\\providecolor"}) {
    const std::string c = cmd;
    for (std::size_t at = t.find(c); at != std::string::npos; at = t.find(c, at + 1)) {
      std::size_t i = at + c.size();
      while (i < t.size() && (t[i] == ' ' || t[i] == '[' )) {
        if (t[i] == '[') i = t.find(']', i) == std::string::npos ? t.size() : t.find(']', i) + 1;
        else ++i;
      }
      if (i >= t.size() || t[i] != '{') continue;
      std::size_t close = t.find('}', i);
      if (close == std::string::npos) continue;
      std::string name(trim(std::string_view(t).substr(i + 1, close - i - 1)));
      if (!name.empty() && name.find('#') == std::string::npos) out.insert(name);
    }
  }
  return out;
}

// The sets live as long as the files (SourceFile::derived): no names are copied per diagram.
UserColors defined_colors(const SourceManager& sm) {
  static const char tag = 0;
  UserColors out;
  for (std::size_t f = 0; f < sm.size(); ++f) {
    const auto& names = sm.get(static_cast<FileId>(f)).derived<std::set<std::string>>(&tag, colors_defined_in);
    if (!names.empty()) out.sets.push_back(&names);
  }
  return out;
}

// Preamble styles (classes, packages, \tikzset in the preamble) come first, then what
// \usetikzlibrary defines, unless the preamble redefined it. The class's part comes ready-made
// from the expansion cache when the class was cached; when the preamble is that class's alone
// (a batch of diagrams of one class), the table with the libraries is built once per class
// table and shared: each diagram's table is layered on it, nothing is copied.
std::shared_ptr<const tex::StyleTable> preamble_styles_of(const tex::ExpandedDocument& doc) {
  auto build = [&] {
    auto t = std::make_shared<tex::StyleTable>(doc.preamble_table);
    for (const tex::Statement& st : doc.preamble_styles) t->run_tikzset(st.text, nullptr);
    install_library_styles(*t);
    return std::shared_ptr<const tex::StyleTable>(std::move(t));
  };
  if (!doc.preamble_table || !doc.preamble_styles.empty()) return build();
  using Entry = std::pair<std::weak_ptr<const tex::StyleTable>, std::shared_ptr<const tex::StyleTable>>;
  static std::mutex mutex;
  static std::vector<Entry> cache;  // a few class tables per batch; expired ones are dropped
  std::lock_guard lock(mutex);
  for (const auto& [key, table] : cache)
    if (key.lock() == doc.preamble_table) return table;
  std::erase_if(cache, [](const Entry& e) { return e.first.expired(); });
  if (cache.size() >= 16) cache.erase(cache.begin());
  cache.emplace_back(doc.preamble_table, build());
  return cache.back().second;
}

}  // namespace

std::vector<Diagram> lower(const tex::ExpandedDocument& doc, const SourceManager& sm, const PackageRegistry& packages) {
  const UserColors colors = defined_colors(sm);
  tex::StyleTable styles(preamble_styles_of(doc));
  std::vector<Diagram> out;
  std::map<std::string, std::map<std::string, std::string>> document_definitions;
  std::string base_dir;
  if (doc.file < sm.size()) {
    const std::string& path = sm.get(doc.file).path();
    const std::size_t slash = path.find_last_of('/');
    base_dir = slash == std::string::npos ? "." : path.substr(0, slash);
  }
  // A document expanded without a policy (a test's hand-made one) gets the strictest: its folder.
  std::shared_ptr<const ReadGate> gate =
      doc.read_gate ? doc.read_gate : std::make_shared<const ReadGate>(base_dir, std::vector<std::string>{});
  PictureLowerer::DrawingBudget budget;  // Limits::max_drawing_work, for the whole file
  auto later = doc.later_styles.begin();  // styles written between pictures, applied in place
  for (const auto& pic : doc.pictures) {
    const auto before = static_cast<std::size_t>(&pic - doc.pictures.data());
    for (; later != doc.later_styles.end() && later->pictures_before <= before; ++later)
      styles.run_tikzset(later->st.text, nullptr);
    PictureLowerer pl(doc, pic, styles, colors, packages);
    pl.set_base_dir(base_dir);
    pl.set_read_gate(gate);
    pl.set_document_definitions(&document_definitions);
    pl.set_drawing_budget(&budget);
    out.push_back(pl.run());
  }
  return out;
}

}  // namespace tikzlint::ir
