// packages/pgfplots/fillbetween.hpp: `\addplot fill between[of=A and B]` (pgfplots manual 5.7,
// the fillbetween library: tikzlibrarypgfplots.fillbetween.code.tex, pgflibraryfillbetween.code.tex):
// the region between two named paths, as pgf's \pgfpathfillbetween builds it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/diagram.hpp"

namespace tikzlint::pgfplots {

// The options of `fill between[...]` that shape the region.
struct FillBetween {
  std::string first, second;  // of=<first> and <second>
  // reverse: 0 false, 1 true, 2 auto (the default: reverse the second path when both run the
  // same way, pgfpathfillbetween@heuristics@get@direction)
  int reverse = 2;
  // soft clip={domain=a:b} (data x in [a, b]) or soft clip={(x0,y0) rectangle (x1,y1)} (axis cs);
  // as written, read by the axis (its data frame)
  std::optional<std::string> soft_clip;
  std::string unsupported;  // non-empty: a key or form that is not modelled (says which)
};

// Reads `of`, `reverse`, `soft clip`, `split`, `on layer` and the segment styles (`every segment`,
// `every odd segment`, `every even segment`, `every last segment`, `every segment no N`, which
// only colour the pieces of the same region when they hold paint keys: colours, patterns,
// shadings, `fill`); any other key is reported through `unsupported`.
FillBetween read_fill_between(const std::string& options);

// The pieces of a polyline inside the axis-aligned box [lo, hi] (Liang-Barsky, per segment),
// joined into one polyline as pgf joins a soft-clipped path (inner moveto=connect).
std::vector<ir::Point> clip_to_box(const std::vector<ir::Point>& line, ir::Point lo, ir::Point hi);

// pgf's direction heuristics: '+' when the path's second point lies right of its first (or
// above it at the same x), else '-'; '+' for fewer than two points.
char path_direction(const std::vector<ir::Point>& line);

// The closed outline pgf fills: the first path, then the second one (reversed when `reverse`).
std::vector<ir::Point> fill_between_outline(const std::vector<ir::Point>& first, std::vector<ir::Point> second,
                                            bool reverse);

}  // namespace tikzlint::pgfplots
