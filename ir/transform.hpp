// ir/transform.hpp: pgf's affine transformation matrix (pgfmanual 107.2 "Coordinate
// transformations"): x' = a x + c y + e, y' = b x + d y + f, in pt.
#pragma once
#include "ir/diagram.hpp"

namespace tikzlint::ir {

struct Transform {
  double a = 1, b = 0, c = 0, d = 1, e = 0, f = 0;

  Point apply(Point p) const { return {a * p.x + c * p.y + e, b * p.x + d * p.y + f}; }
  Point apply_linear(Point v) const { return {a * v.x + c * v.y, b * v.x + d * v.y}; }

  // pgf semantics of \pgftransform...: the new transformation is applied to a point *before*
  // the existing one, so `[shift={(1,0)}, rotate=90]` rotates about the shifted origin.
  Transform then_local(const Transform& t) const;  // returns this ∘ t
  Transform inverse() const;                       // identity when singular
  double determinant() const { return a * d - b * c; }
  bool is_identity_linear() const;
  // Angle of the transformed x axis (degrees) and the scale factors along the axes.
  double rotation_deg() const;
  double scale_x() const;
  double scale_y() const;
  bool is_similarity(double tol = 1e-6) const;  // uniform scale + rotation (+ reflection)

  static Transform shift(double x, double y) { return {1, 0, 0, 1, x, y}; }
  static Transform scale(double sx, double sy) { return {sx, 0, 0, sy, 0, 0}; }
  static Transform rotate(double deg);
  static Transform xslant(double s) { return {1, 0, s, 1, 0, 0}; }
  static Transform yslant(double s) { return {1, s, 0, 1, 0, 0}; }
  static Transform cm(double a, double b, double c, double d, double tx, double ty) { return {a, b, c, d, tx, ty}; }
};

}  // namespace tikzlint::ir
