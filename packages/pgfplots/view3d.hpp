// packages/pgfplots/view3d.hpp: the projection of a three-dimensional pgfplots axis (pgfplots
// manual 4.11 "3D plots"; pgfplots.scaling.code.tex \pgfplotssetaxesfromazel and
// \pgfplots@scaleaxes@to@BB, pgfplots.code.tex \pgfplots@init@ticklabelaxisspec,
// pgfplotscoordprocessing.code.tex \pgfplotspointouternormalvectorofaxis and the `near ticklabel`
// anchor). Coordinates of the box are normalised: 0 at an axis' lower limit, 1 at its upper one.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "ir/diagram.hpp"

namespace tikzlint::pgfplots {

struct View3d {
  // the projected vector of one normalised unit along x, y, z (pt), scaled to the box
  std::array<ir::Point, 3> unit{};
  ir::Point origin;            // where (0,0,0) lands: the projected box's bounding box starts at (0,0)
  std::array<double, 3> dir{};  // the 3D view direction (pgfplots' n), decides fore- and background
  double width = 0, height = 0;  // the projected box's bounding box

  ir::Point at(double u, double v, double w) const {
    return {origin.x + u * unit[0].x + v * unit[1].x + w * unit[2].x,
            origin.y + u * unit[0].y + v * unit[1].y + w * unit[2].y};
  }
  // the face where axis `a` is fixed at `side` (0 lower, 1 upper) faces the viewer
  bool foreground(int a, int side) const { return (dir[a] > 0) == (side == 0); }
  // the length of one normalised unit along an axis (0: the axis is seen end on, pgfplots hides it)
  double length(int a) const;
};

// `view={az}{el}` (degrees) scaled so that the projected unit cube's bounding box is
// `width` x `height` (`scale mode=stretch to fill`, the 3D default). nullopt when the box
// collapses to a line or a point in a direction.
std::optional<View3d> make_view(double azimuth, double elevation, double width, double height);

// One edge of the box: the axis along it and the normalised coordinates (0 or 1) of the other two.
struct BoxEdge {
  int axis = 0;
  std::array<int, 3> side{};  // side[axis] is unused
};

// The edge that carries an axis' tick labels (\pgfplots@init@ticklabelaxisspecfor, `ticklabel
// pos=lower`, the default): of the two edges on the projected box's outline, the lower one for x
// and y, the left one for z.
BoxEdge ticklabel_edge(const View3d& v, int axis);

// The edges pgfplots draws for `3d box=background` (its default): those of a background face.
std::vector<BoxEdge> background_edges(const View3d& v);

// pgfplots' outer unit normal of an edge: the sum of the unit directions of the two other axes,
// each pointing away from the box.
ir::Point outer_normal(const View3d& v, const BoxEdge& e);

// The compass anchor pgfplots snaps a direction to (\pgfplots@borderanchor@snap@to@nearest@anchor,
// threshold 0.17 ~ 80 degrees): "north east", "west", "" (center)...
std::string snap_anchor(ir::Point dir);

// The `near ticklabel` anchor (`near ticklabel align=center`), relative to the node's center:
// on the line from the center along `inward` (the inner normal, toward the axis) where it
// crosses the parallel to the axis direction `along` through the snapped compass anchor, which
// lies at `compass` from the center. Parallel directions: the compass anchor itself.
ir::Point near_ticklabel_anchor(ir::Point inward, ir::Point along, ir::Point compass);

}  // namespace tikzlint::pgfplots
