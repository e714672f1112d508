// ir/coords.hpp: geometry helpers for coordinates and curves, shared by the lowering files.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/diagram.hpp"
#include "ir/transform.hpp"

namespace tikzlint::ir {

// Running bounding box (pgfmanual 15.4: points of the path incl. control points).
struct BBoxAccumulator {
  bool any = false;
  Box box;
  void add(Point p);
  void add(const Box& b);
};

// An ellipse (or circle, or arc) given by its centre and conjugate semi-axes u, v: the points
// c + u cos t + v sin t. This is how pgf draws circles under any transformation.
struct ConjugateEllipse {
  Point center, u, v;
  Point at(double t_deg) const;
  Point tangent(double t_deg) const;  // derivative direction
};

// Principal axes of a conjugate ellipse (2x2 SVD): radii, rotation and the parameter shift.
struct PrincipalEllipse {
  double rx = 0, ry = 0, rotation_deg = 0;
  double shift_deg = 0;   // parameter t maps to s = sign * t + shift
  double sign = 1;        // -1 when the transformation reflects
};
PrincipalEllipse principal_axes(Point u, Point v);

// The Bezier control points pgf uses for an ellipse / an arc (for the bounding box).
std::vector<Point> ellipse_hull_points(const ConjugateEllipse& e);
std::vector<Point> arc_hull_points(const ConjugateEllipse& e, double t0_deg, double t1_deg);

Point bezier_at(const Bezier& b, double t);
Point bezier_tangent(const Bezier& b, double t);

// Intersection of the lines (a1,a2) and (b1,b2); nullopt when parallel.
std::optional<Point> line_intersection(Point a1, Point a2, Point b1, Point b2);

// Polygon approximation of an ellipse with n vertices (for clip regions).
std::vector<Point> polygonise(const ConjugateEllipse& e, int n = 64);

double angle_deg(Point v);  // atan2 in degrees
double length(Point v);
inline Point operator+(Point a, Point b) { return {a.x + b.x, a.y + b.y}; }
inline Point operator-(Point a, Point b) { return {a.x - b.x, a.y - b.y}; }
inline Point operator*(double k, Point a) { return {k * a.x, k * a.y}; }

}  // namespace tikzlint::ir
