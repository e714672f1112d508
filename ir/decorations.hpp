// ir/decorations.hpp: what a `decorate`d path draws (pgfmanual 24 "Decorated Paths" and 50
// "Decoration Library"), as far as the rules need it. Internal to ir/.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/diagram.hpp"
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

}  // namespace tikzlint::ir
