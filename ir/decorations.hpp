// ir/decorations.hpp: what a `decorate`d path draws (pgfmanual 24 "Decorated Paths" and 50
// "Decoration Library"), as far as the rules need it. Internal to ir/.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/diagram.hpp"
#include "ir/library.hpp"
#include "ir/lowering.hpp"

namespace tikzlint::ir {

// pgfmoduledecorations.code.tex: \pgfdecorationsegmentamplitude 2.5pt, aspect 0.5.
constexpr double kDefaultDecorationAmplitude = 2.5;
constexpr double kDefaultDecorationAspect = 0.5;

struct DecorationEffect {
  enum class Kind {
    within_amplitude,  // path morphing (zigzag, snake, coil...): stays within `amplitude` of the path
    brace,             // pathreplacing brace: replaced by a brace bulging `amplitude` to one side
    arrows_only,       // markings whose code only places arrow tips (\arrow, \arrowreversed)
    fractal,           // decorations.fractals: each straight input segment replaced by a generator
    drawn,             // draws nodes and paths of its own (markings, text): lower_drawing_decoration
    unsupported,       // draws something the rules would need and we do not model
  };
  Kind kind = Kind::within_amplitude;
  std::string name;       // "zigzag", "brace", "markings", ...
  double amplitude = kDefaultDecorationAmplitude;  // pt
  double aspect = kDefaultDecorationAspect;
  double raise = 0;       // pt, shifts the decoration to the left of the path
  bool mirror = false;    // brace on the right of the path
  std::string reason;     // for unsupported
};

// `spec` is the text of the decoration= keys in force ("brace,amplitude=10pt,mirror").
DecorationEffect classify_decoration(const std::string& spec, FontUnits units);

// The brace pgf draws from a to b (pgflibrarydecorations.pathreplacing.code.tex), as a polyline
// through the ends and corners of its Bézier pieces (within a few percent of the amplitude).
std::vector<Point> brace_polyline(Point a, Point b, const DecorationEffect& e);

// A fractal decoration (pgflibrarydecorations.fractals.code.tex) applied once to the polyline
// `pts`: every input segment is replaced by the generator, scaled to it and drawn to its left.
// The Cantor set leaves gaps, so the result is a list of connected pieces.
std::vector<std::vector<Point>> fractal_pieces(const std::vector<Point>& pts, const std::string& name);

// A path as a decoration walks it (decorations_draw.cpp): its subpaths in canvas pt, curves sampled
// finely; a moveto between subpaths adds nothing to the distance walked.
struct DecoratedPath {
  std::vector<std::vector<Point>> subpaths;
  std::vector<Geometry> pieces;  // what it was made of, in order (show path construction)
  struct Frame {
    Point at;              // the point reached
    double angle_deg = 0;  // the tangent's direction there
  };
  double length() const;
  Frame frame_at(double distance) const;  // clamped to the path
  void reverse();                         // /pgf/decoration/reverse path
};
DecoratedPath decorated_path_of(const std::vector<Geometry>& pieces);

// Code of a decoration (a mark's `with {...}`) cut into the statements it holds.
std::vector<std::string> split_tikz_code(const std::string& code);
// `\begin{scope}[...]` whose coordinate system is the frame (canvas based: \pgftransformreset), then
// `raise` to the left of the path.
std::string decoration_frame_scope(const DecoratedPath::Frame& f, double raise);

// What a decoration that draws its own nodes and paths leaves: those it has emitted through the host,
// and `path`, the pieces of path it constructs (the decorated path's replacement under `decorate`).
struct DrawnDecoration {
  std::vector<std::vector<Point>> path;
  std::vector<Point> control_points;  // of its curves: pgf's picture size counts them
};

// decorations.markings (pgfmanual 50.5): each mark's code run at its position, `mark connection node`.
std::optional<DrawnDecoration> lower_markings(const std::string& spec, DecoratedPath path, LibraryHost& host,
                                              std::uint32_t b, std::uint32_t e);

// decorations.text `text along path` (pgfmanual 50.6): one node per character.
struct TextPathChar {
  std::string text;    // what its box holds: "a", "{ab}", "\\LaTeX", " "
  std::string format;  // |...| in force
  bool math = false;
  bool space = false;
};
std::vector<TextPathChar> scan_decoration_text(const std::string& text, const std::string& open_delim,
                                               const std::string& close_delim);
std::optional<DrawnDecoration> lower_text_along_path(const std::string& spec, DecoratedPath path, LibraryHost& host,
                                                     std::uint32_t b, std::uint32_t e);

// decorations.text `text effects along path` (pgfmanual 50.6): one TikZ node per character with its
// text effects styles; `path from text` on a lone point (decorations_text_effects.cpp).
std::optional<DrawnDecoration> lower_text_effects(const std::string& spec, DecoratedPath path, LibraryHost& host,
                                                  std::uint32_t b, std::uint32_t e);

// decorations.pathreplacing `waves` and `expanding waves`: the arcs they construct.
// One key of a decoration's options as the drawing lowerings read them: its normalised name, its
// value (trimmed, outer braces stripped), whether it has one; number(fallback) is the value by
// pgfmath through the host, or `fallback` when it is none; flag() a bare or non-false boolean key.
struct DecorationKey {
  std::string key, value;
  bool has_value = false;
  LibraryHost* host = nullptr;
  double number(double fallback) const;
  bool flag() const { return !has_value || value != "false"; }
};
std::vector<DecorationKey> decoration_keys(const std::string& spec, LibraryHost& host);

std::optional<DrawnDecoration> lower_waves(const std::string& name, const std::string& spec, DecoratedPath path,
                                           LibraryHost& host);

// decorations.footprints: the feet it constructs (decorations_footprints.cpp).
std::optional<DrawnDecoration> lower_footprints(const std::string& spec, DecoratedPath path, LibraryHost& host,
                                                std::uint32_t b, std::uint32_t e);

// decorations.pathreplacing `show path construction`: each input segment's code run with
// \tikzinputsegmentfirst/last/supporta/supportb (decorations_draw.cpp).
std::optional<DrawnDecoration> lower_show_path_construction(const std::string& spec, const DecoratedPath& path,
                                                            LibraryHost& host, std::uint32_t b, std::uint32_t e);

// The decorations above by name: nullopt when `name` is not one of them.
std::optional<DrawnDecoration> lower_drawing_decoration(const std::string& name, const std::string& spec,
                                                        const DecoratedPath& path, LibraryHost& host,
                                                        std::uint32_t b, std::uint32_t e);

}  // namespace tikzlint::ir
