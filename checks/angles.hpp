// checks/angles.hpp: reading the angles a diagram draws, shared by angle_labels and core_math.
// Right-angle marks (the IR's RightAngleMark, a small square drawn at a corner, or a small "L"
// of two short legs) and the angle a label names (at an arc's centre or at a corner).
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "checks/scene.hpp"

namespace tikzlint::checks {

struct RightAngleReading {
  std::size_t element = 0;  // the mark
  geo::Point corner;        // the vertex it marks
  double size = 0;          // pt, the mark's leg length
  double drawn_deg = 90;    // angle between the two lines the mark sits in
};

// Every right-angle mark whose two legs lie along drawn lines at least `min_line_ratio` times
// longer than the mark. A small square that does not sit in the corner of two such lines is a
// shape, not a mark, and is not returned.
std::vector<RightAngleReading> right_angle_marks(const Scene& s, double max_side_pt, double min_line_ratio);

struct AngleReading {
  enum class Source { arc, corner, mark } source = Source::arc;
  std::size_t index = 0;  // stroke (arc), vertex (corner) or element (mark)
  geo::Point vertex;
  double drawn_deg = 0;
};

// The angle a label names: the arc nearest to it (the angle between the two lines at the arc's
// centre, or the arc's sweep when no lines meet there), or the corner whose wedge holds it.
std::optional<AngleReading> angle_named_by(const Scene& s, const Label& l, double radius,
                                           const std::vector<RightAngleReading>& marks);

}  // namespace tikzlint::checks
