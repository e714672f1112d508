// ir/lowering.hpp: internal state shared by the lowering files (lower.cpp, lower_keys.cpp,
// coords.cpp). Not a public header: checks and the CLI use ir/ir.hpp.
#pragma once
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "grammar/grammar.hpp"
#include "ir/diagram.hpp"
#include "ir/nodes.hpp"
#include "ir/textmetrics.hpp"
#include "ir/transform.hpp"
#include "tex/styles.hpp"

namespace tikzlint::ir {

// pgfmanual 13.2.1 "The xyz coordinate system": x = (1cm,0), y = (0,1cm), z = (-3.85mm,-3.85mm).
constexpr double kDefaultZ = -0.385 * kPtPerCm;

// The chains of a picture (tikzlibrarychains.code.tex): pgf keeps their counts and directions
// globally (\gdef), so every copy of Settings in a picture shares one ChainState (library_keys.cpp).
struct ChainState {
  struct Chain {
    std::string direction;  // "right", "{at=(1,0)}": what `going`/`placed` said
    bool going = true;      // going: only from the second node on, as `<direction>=of <previous>`
    std::vector<std::string> members;  // the name each position is reached by (<chain>-<n> or a node's)
  };
  std::map<std::string, Chain> chains;
  std::string previous;  // \tikzchainprevious
  std::vector<std::pair<std::string, std::string>> pending_aliases;  // alias -> existing node
};

// What the keys of TikZ libraries leave for lowering to draw (library_keys.cpp): pgf turns them
// into nodes and paths on the `to` or around the node they are given on.
struct LibrarySettings {
  // circuits (tikzlibrarycircuits.code.tex): under a `circuit` style the symbol keys on a `to`
  // become nodes on it; \tikzcircuitssizeunit is 7pt
  bool circuit = false;
  double circuit_unit = 7;
  std::vector<std::string> to_symbols;  // each symbol's node options, in order
  // to paths (tikzlibrarytopaths.code.tex; tikz.code.tex \tikztonodes, parabola height)
  bool loop = false, to_move = false;
  std::optional<double> out_min_distance, out_max_distance, in_min_distance, in_max_distance;
  std::vector<std::string> to_nodes;  // `edge node=` text ("node[auto]{x}"), added to the to's nodes
  std::optional<double> parabola_height;
  // node keys that place the node or draw after it (fit, through, automata, petri); canvas pt
  std::optional<Point> fit_center, circle_through;
  bool initial_arrow = false, accepting_arrow = false;
  std::string initial_text = "start", accepting_text, initial_where = "left", accepting_where = "right";
  std::string initial_distance = "3ex", accepting_distance = "3ex";
  std::vector<std::pair<std::string, std::string>> tokens;  // options and text of each token
  std::string token_distance = "1.5ex";
  // 3d (canvas is plane) and perspective (tpp coordinates, pgf's homography a..d x a..c)
  std::string plane_origin = "(0,0)", plane_x = "(1,0)", plane_y = "(0,1)";
  std::array<double, 12> perspective{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  // turtle (tikzlibraryturtle.code.tex): heading in degrees, step, and the `how` of its to's
  double turtle_direction = 90;
  std::string turtle_distance = "1cm", turtle_how;
  // backgrounds (tikzlibrarybackgrounds.code.tex): the frame parts drawn around the finished
  // picture ("rectangle", "top", "grid", ...), in order, and the frame's separations
  std::vector<std::string> background;
  std::string inner_frame_xsep = "1ex", inner_frame_ysep = "1ex", outer_frame_xsep = "0ex", outer_frame_ysep = "0ex";
  // mindmap (tikzlibrarymindmap.code.tex \tikz@concept@color): the fill and draw of `concept`
  std::string concept_color = "black";
  // spy (tikzlibraryspy.code.tex): the `spy scope` options in force, empty outside a spy scope
  std::string spy_scope;
  // Lindenmayer systems (tikzlibrarylindenmayersystems.code.tex): the `l-system={...}` keys in force
  std::string lsystem;
  // matrices (tikz.code.tex): `row sep` / `column sep` set outside a \matrix (a scope, the
  // picture, tikz-cd's every diagram) are the ones the matrices inside use
  std::string matrix_row_sep, matrix_column_sep;
  // chains: the picture's chains; the current chain and default direction are local (TeX groups)
  std::shared_ptr<ChainState> chains = std::make_shared<ChainState>();
  std::string current_chain = "chain", chain_default_direction = "right";
  bool chain_default_going = true;
  // a node's own: `alias=` and its chain names; `join`s (from, options; "" from = the previous)
  std::vector<std::string> aliases;
  std::vector<std::pair<std::string, std::string>> joins;
  bool on_chain = false;
  std::string chain_previous;
};

// A part of Settings by value, copied on the first write: a Settings is copied for every path,
// node and scope, and most never touch the keys of these parts. Reads go through `->`, writes
// through `mut()`, which copies the part when another Settings still shares it.
template <class T>
class CopyOnWrite {
 public:
  CopyOnWrite() : p_(std::make_shared<T>()) {}
  const T* operator->() const { return p_.get(); }
  const T& operator*() const { return *p_; }
  T& mut() {
    if (p_.use_count() != 1) p_ = std::make_shared<T>(*p_);
    return *p_;
  }

 private:
  std::shared_ptr<T> p_;
};
using LibrarySettingsRef = CopyOnWrite<LibrarySettings>;

// Path operation keys that most paths never set (grids, plots, `to path`, insert path, name
// path, decorations): copy-on-write in Settings.
struct PathOpSettings {
  std::string step_x = "1cm", step_y = "1cm";
  std::vector<double> samples_at;
  std::string variable = "\\x";
  std::string at;       // `at=(c)` of circle/ellipse and pic options (the centre / position)
  std::string to_path;  // `to path={...}` text (\tikztostart, \tikztotarget, \tikztonodes inside)
  std::vector<std::string> insert_paths;
  std::string name_path;
  std::string name_intersections;
  // plot marks (pgflibraryplothandlers.code.tex \pgf@plot@mark@handler): the mark, \pgfplotmarksize
  // (TikZ's `mark size`, default 2pt) and `mark options` as written
  std::string plot_mark;
  double mark_size = 2;
  std::string mark_options;
  bool mark_subset = false;  // mark repeat / phase / indices: marks at some points only
  bool only_marks = false;
  // decorations (pgfmanual 24): the decoration= keys in force, and the decoration specs of
  // pre/postactions that decorate
  std::string decoration;
  std::vector<std::string> decorating_actions;
};

// Where a scope's 3D coordinates lie in the picture's 3D frame: picture = scale * local + shift.
// A scope shifted by a 3D coordinate (`shift={(1,0,2)}`, the way stacks of unit cubes are drawn)
// moves its solid in 3D, not only on the page; its depth is known only from this shift.
struct Frame3D {
  double scale = 1;
  Point3 shift;
};

// Everything TikZ options can set that lowering models. Copied on scope entry (TeX groups).
struct Settings {
  Transform ctm;
  Point xvec{kPtPerCm, 0}, yvec{0, kPtPerCm}, zvec{kDefaultZ, kDefaultZ};
  // The local 3D frame in the picture's, while every transformation since the picture began was a
  // shift or a uniform scale (a translation on the page keeps it: it moves whole solids alike);
  // unset after a rotation, slant, cm or reset, or when the axes change after a 3D shift.
  std::optional<Frame3D> frame3 = Frame3D{};

  Style style;  // draw/fill are path modes: reset at every path (pgfmanual 15.3)
  bool clip = false, use_as_bbox = false, overlay = false;
  // pgf's \ifpgf@relevantforpicturesize turned off by a \clip or `use as bounding box`
  // (tikz.code.tex: \aftergroup\pgf@relevantforpicturesizefalse): nothing after it in the same
  // TeX group (scope) grows the picture's bounding box.
  bool size_frozen = false;
  // The clips in force in this TeX group (indices into Diagram::clips; a \clip clips the rest of
  // its scope and the scopes inside it), and whether a clip that was not lowered is among them.
  std::vector<std::uint32_t> clip_ids;
  bool clip_unknown = false;
  // A graph drawing layout key (`tree layout`, `spring layout`, ... of \usegdlibrary) is in force:
  // Lua places every node and edge under it, so nothing lowered here has a known position.
  bool placed_by_layout = false;
  // A key of the picture's or an enclosing scope's options was not modelled (an unknown key, say
  // a style of a package whose files are not read): it may move or restyle everything drawn under
  // it, so nothing lowered here is complete.
  bool unread_scope_keys = false;
  // The layer the group's paths are painted on (pgfcorelayers: \begin{pgfonlayer}{name}, the
  // backgrounds library's `on background layer` scope key): "main" unless one of them says.
  std::string layer = "main";

  // nodes (pgfmanual 17)
  NodeShape shape = NodeShape::rectangle;
  std::string shape_name = "rectangle";
  std::shared_ptr<const ShapeParameters> shape_params;  // library shapes' keys (nodes.hpp)
  std::optional<double> inner_xsep, inner_ysep;  // default .3333em of the node font
  std::optional<double> outer_xsep, outer_ysep;  // default .5\pgflinewidth
  double minimum_width = 0, minimum_height = 0;
  std::string anchor;                 // explicit anchor= or the one a placement key implies
  std::string placement;              // "above", "below left=3pt", "right=of A", "anchor=west"
  std::string of_direction, of_target;  // positioning library: "above" "A"
  std::string of_distance;            // "" = node distance
  // With the positioning library loaded, `above=3pt` (no `of`) shifts by positioning's rule
  // (diagonals by 0.707 of the value, unitless values in x/y units), and that shift is the first
  // of the node's own transformations (\tikz@node@reset@hook adds \tikz@lib@pos@call first),
  // so the node's own scale or rotate do not reach it. The last such key of a node wins.
  std::optional<Point> positioning_pre_shift;
  bool on_grid = false;
  // `node distance` as written ("" = not set: tikz's 1cm, positioning's `1cm and 1cm`): evaluated
  // where a node is placed, since a unitless distance is a multiple of the x/y vectors
  std::string node_distance;
  std::optional<double> pos;
  bool sloped = false, transform_shape = false;
  // auto placement (tikz.code.tex \tikz@auto@anchor): a node on a path takes the anchor that puts
  // it left (or, swapped, right) of the path's direction; an explicit anchor turns it off
  bool auto_anchor = false, auto_left = true;
  double label_distance = 0;
  std::optional<double> pin_distance;  // default 3ex
  std::string label_position = "above";
  std::vector<std::string> labels, pins;
  std::string node_name;
  // Fonts (tikz.code.tex \tikz@@fig@main / \tikz@do@fig): `node font=` is put in force around the
  // node, `font=` only inside its text box; each replaces its previous value. The em and ex of
  // keys and of the default inner sep are those of the font around the node, never of font=.
  FontSpec picture_font;             // the document's font where the picture starts
  std::string node_font, text_font;  // the values of node font= and font=
  double text_width = 0;
  std::optional<double> text_height, text_depth;
  bool node_drawn = false, node_filled = false;

  // path operations (pgfmanual 14)
  std::optional<double> radius_x, radius_y;  // from radius / x radius / y radius (value + unit flag)
  bool radius_x_unit = false, radius_y_unit = false;
  std::optional<double> start_angle, end_angle, delta_angle;
  std::optional<double> out_angle, in_angle;
  double bend = 0;  // + left, - right (degrees)
  bool bend_set = false;
  double bend_angle = 30;
  double out_looseness = 1, in_looseness = 1;
  bool relative_angles = false;
  double domain_min = -5, domain_max = 5;
  int samples = 25;
  // The plot handler of `plot` (pgflibraryplothandlers.code.tex): sharp (line-to), `smooth`
  // (\pgfplothandlercurveto) or `smooth cycle` (\pgfplothandlerclosedcurve), and `tension`.
  enum class PlotHandler : std::uint8_t { sharp, smooth, smooth_cycle };
  PlotHandler plot_handler = PlotHandler::sharp;
  double plot_tension = 0.5;  // pgf's \pgfsetplottension{0.5}
  double angle_radius = 0.5 * kPtPerCm;  // angles library: angle radius=5mm
  bool custom_to_path = false;
  bool decorate = false;  // decorations (pgfmanual 24): `decorate` on the path (the keys: ops)
  // The arrow specification's two sides as written ("Stealth[length=3mm]", ">>"), and what `>`
  // means (the `>=` key; "" = TikZ's default): the tips' hulls grow the picture (ir/arrow_tips.hpp).
  std::string arrow_start_tips, arrow_end_tips, arrow_default;
  CopyOnWrite<PathOpSettings> ops;
  LibrarySettingsRef lib;
};

// What a key list is being applied for: decides where transforms and shape keys go.
enum class KeyTarget { picture, scope, path, node, op };

// A problem found while lowering, with its span in the statement text.
// Compose `t` into the settings' transformation (pgf: applied to points before the current one)
// and follow the local 3D frame through it (Settings::frame3).
void apply_transform(Settings& s, const Transform& t);
// A shift by a 3D coordinate `p3` (in the current local frame); the page shift is applied apart.
void shift_frame3(Settings& s, const Point3& p3);

struct LowerProblem {
  std::string code;  // "unsupported-key", "math-error", ...
  std::string message;
  std::uint32_t begin = 0, end = 0;  // statement-text offsets
  bool makes_incomplete = true;
};

// The colour names \definecolor'd (\colorlet, \providecolor) in a document's files: the set of
// each file that has any, as computed once per file text (a class's, once per batch).
struct UserColors {
  std::vector<const std::set<std::string>*> sets;
  bool contains(const std::string& name) const {
    for (const auto* s : sets)
      if (s->count(name)) return true;
    return false;
  }
};

// Apply flat keys (already style-expanded) to `s`. `base` is the offset of the option text in
// the statement text, for problem spans. Keys it does not know become unsupported-key problems.
struct KeyApplier {
  double base_font_size = 10;
  // \usetikzlibrary{positioning} was loaded: above/below/left/right=D are positioning's keys.
  bool positioning_loaded = false;
  const UserColors* user_colors = nullptr;  // \definecolor'd names
  const ShapeLibrary* shapes = nullptr;     // the packages' shapes: a key naming one selects it
  const tex::ExpandedDocument* doc = nullptr;  // ... when the document loads that package
  // Evaluate a coordinate written inside a key (shift={(1,2)}, rotate around={30:(1,1)}).
  std::function<std::optional<Point>(const std::string& text, const Settings& s, std::uint32_t begin,
                                     std::uint32_t end)>
      local_point;
  // The same, with the coordinate's 3D components when it has three (shift={(1,0,2)}).
  std::function<std::optional<std::pair<Point, std::optional<Point3>>>(const std::string& text, const Settings& s,
                                                                        std::uint32_t begin, std::uint32_t end)>
      local_point_3d;
  // Expand an option text through the style table (keys whose value is itself an option list).
  std::function<std::vector<tex::FlatKey>(const std::string& options)> expand_options;
  void apply(Settings& s, const std::vector<tex::FlatKey>& keys, KeyTarget target, std::uint32_t base,
             std::vector<LowerProblem>& problems) const;
  bool apply_one(Settings& s, const tex::FlatKey& k, KeyTarget target, std::uint32_t b, std::uint32_t e,
                 std::vector<LowerProblem>& problems) const;
};

// The font around a node (picture font + node font=) and the font of its text (+ font=).
void apply_font_commands(FontSpec& font, std::string_view commands);  // \small, \bfseries, \sffamily...
FontSpec node_font_of(const Settings& s);
FontSpec text_font_of(const Settings& s);

// What em and ex mean in a pgfmath expression: the quad and x-height of the font in force.
struct FontUnits {
  double em = 10, ex = 4.30554;
};
FontUnits font_units_of(const Settings& s);

// Numbers and dimensions as pgfmath reads them.
struct MathValue {
  double value = 0;
  bool is_length = false;
};
std::optional<MathValue> eval_math(const std::string& expr, FontUnits units, std::string* error);
std::optional<double> eval_dimension(const std::string& expr, FontUnits units, std::string* error);  // unitless = pt
// The shift of positioning's `above=D`/`right=D of X` (tikzlibrarypositioning.code.tex
// \tikz@lib@place@parse@nums): D is "V and H" or one value for both, scaled by 0.707 on a
// diagonal; a value with a unit is a length, a unitless one a multiple of the y (V) or x (H)
// vector. (sx, sy) is the direction: -1, 0 or 1 each.
std::optional<Point> positioning_shift(const std::string& dist, int sx, int sy, const Settings& s, std::string* error);

// Known keys without a geometric effect (colors, decorations, arrows, fonts...).
bool is_size_command(std::string_view cs);  // \\small, \\Large ...
// A statement of a picture's body made only of font declarations (\\scriptsize\\scshape).
bool is_font_switch_statement(std::string_view text);
bool is_known_cosmetic_key(const std::string& key);
bool is_color_name(const std::string& key);
// An arrow specification such as "->", "<->", "-{Stealth[length=3mm]}", "latex-latex".
bool parse_arrow_spec(const std::string& key, bool* start, bool* end, std::string* start_tips = nullptr,
                      std::string* end_tips = nullptr);
// The anchor `auto` gives a node on a path whose direction there is `tangent_deg` (canvas).
const char* auto_anchor_for(double tangent_deg, bool left);

// --- TikZ library keys (library_keys.cpp)
// The styles the libraries define with \tikzset (petri's place, automata's state, circuits'
// symbols...), installed as if \usetikzlibrary had run before the preamble's own \tikzset.
void install_library_styles(tex::StyleTable& styles);
// `plot file {name}` (ir/plot_file.cpp): the runs of (x, y) between jumps. `found` is false when the
// file cannot be opened (pgf then warns and plots nothing); `error` is set for a malformed or
// oversized file.
inline constexpr std::size_t kPlotFileMaxBytes = 16u << 20;
inline constexpr std::size_t kPlotFileMaxPoints = 1000000;
struct PlotFileData {
  bool found = false;
  std::string error;
  std::vector<std::vector<std::pair<double, double>>> runs;
};
PlotFileData read_plot_file(const std::string& path);

// A quotes-library key: "text"options (pgfmanual 17.10.4). `options` keeps a leading `'` (swap).
struct QuoteKey {
  std::string text, options;
  bool swap = false;
};
std::optional<QuoteKey> parse_quote_key(std::string_view key);

// A key of a TikZ library; false when `k` is none (KeyApplier then reports it unknown).
bool apply_library_key(const KeyApplier& keys, Settings& s, const tex::FlatKey& k, KeyTarget target,
                       std::uint32_t b, std::uint32_t e, std::vector<LowerProblem>& problems);
// \baselineskip, \pgflinewidth and \tikzcircuitssizeunit in a length expression, as pt values.
std::string substitute_library_lengths(const std::string& expr, const Settings& s);
// Forget what library keys of an enclosing scope said about a node (aliases, joins, chains):
// each node starts afresh, as tikz.code.tex resets \tikz@alias and the after node path.
void reset_node_library_keys(Settings& ns);
// The names a node is also known by (alias=, <chain>-<n>, <chain>-begin/end), and the aliases of
// existing nodes that chains made since (alias, existing name); the latter are handed out once.
std::vector<std::string> node_aliases(const Settings& ns);
std::vector<std::pair<std::string, std::string>> take_pending_aliases(const Settings& ns);
// What a library draws after a node (automata's initial/accepting arrows, petri's tokens), as
// statements that name the node `node`.
std::vector<std::string> after_node_statements(const Settings& ns, const std::string& node);
// What the backgrounds library draws around the finished picture whose bounding box is `bbox`
// (`show background rectangle`, `... top`, `... grid`), as statements in canvas pt.
std::vector<std::string> picture_end_statements(const Settings& picture, const Box& bbox);
// The coordinate systems of the libraries: `tpp` (perspective), `xyz cylindrical` and
// `xyz spherical` (3d), from the coordinate's keys; `eval` evaluates a value.
std::optional<Point> library_coordinate(const std::string& system, const std::map<std::string, std::string>& kv,
                                        const Settings& s,
                                        const std::function<std::optional<double>(const std::string&)>& eval);
// pgf's curve to path (tikzlibrarytopaths.code.tex \tikz@to@compute): from p0 leaving at `out`
// degrees to p1 arriving from `in`, controls at 0.3915 * looseness * |p1 - p0| clamped by the
// min/max distances; the angles are in the local system of `s.ctm`.
Bezier curve_to_path(Point p0, Point p1, double out_deg, double in_deg, const Settings& s);
// The node texts of `edge node=` (e.g. "node[auto]{x}") as parsed nodes.
std::vector<grammar::Node> to_path_nodes(const Settings& s, grammar::Span at);

}  // namespace tikzlint::ir
