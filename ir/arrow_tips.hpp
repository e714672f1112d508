// ir/arrow_tips.hpp: arrow tips as pgf instantiates them, for the picture's bounding box.
// pgfcorearrows.code.tex: each tip's setup code declares its tip end, back end and the points of
// its convex hull (\pgfarrowshullpoint) in a frame whose x axis points along the path's end
// tangent; \pgf@arrows@rigid@hull adds the hull, rotated into place, to the picture's size.
#pragma once
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/diagram.hpp"

namespace tikzlint::ir {

struct ArrowTip {
  double tip_end = 0, back_end = 0;  // pt, along the tip's own x axis
  double sep = 0;                    // arrows.meta's `sep`: gap after this tip
  std::vector<Point> hull;           // empty for old-style tips (\pgfarrowsdeclare): no hull
};

// The tips one side of an arrow specification draws, innermost first (pgfcorearrows.code.tex
// \pgfsetarrowsend, and \pgfsetarrowsstart which reverses the list and swaps `<` and `>`).
// `default_tip` is what `>` means (the `>=` key; empty: `to`), `line_width` the path's, in pt.
// nullopt when a tip or one of its options is not modelled: the caller keeps only the flags.
std::optional<std::vector<ArrowTip>> arrow_tip_sequence(std::string_view side, bool at_start,
                                                        std::string_view default_tip, double line_width);

// Where a tip sits on an open piece of path: its end point (at_start: its start point) and the
// direction pointing out of the path there, as pgf takes it: from the last control point of a
// curve, skipping repeated points. nullopt for a closed piece or one without a direction.
std::optional<std::pair<Point, Point>> path_end(const Geometry& g, bool at_start);

// The canvas points of the tips' hulls, the outermost tip's tip end at `end`, pointing along
// `dir` (away from the path). pgf draws tips under \pgftransformreset: the picture's scale does
// not reach them.
std::vector<Point> arrow_hull_points(const std::vector<ArrowTip>& tips, Point end, Point dir);

}  // namespace tikzlint::ir
