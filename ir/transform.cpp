// ir/transform.cpp: pgf's coordinate transformation matrix.
#include "ir/transform.hpp"

#include <cmath>
#include <numbers>

namespace tikzlint::ir {

Transform Transform::then_local(const Transform& t) const {
  // (this ∘ t)(p) = this(t(p))
  Transform r;
  r.a = a * t.a + c * t.b;
  r.b = b * t.a + d * t.b;
  r.c = a * t.c + c * t.d;
  r.d = b * t.c + d * t.d;
  r.e = a * t.e + c * t.f + e;
  r.f = b * t.e + d * t.f + f;
  return r;
}

Transform Transform::inverse() const {
  const double det = determinant();
  if (std::abs(det) < 1e-12) return {};
  Transform r;
  r.a = d / det;
  r.b = -b / det;
  r.c = -c / det;
  r.d = a / det;
  r.e = -(r.a * e + r.c * f);
  r.f = -(r.b * e + r.d * f);
  return r;
}

bool Transform::is_identity_linear() const {
  return std::abs(a - 1) < 1e-9 && std::abs(b) < 1e-9 && std::abs(c) < 1e-9 && std::abs(d - 1) < 1e-9;
}

double Transform::rotation_deg() const { return std::atan2(b, a) * 180.0 / std::numbers::pi; }
double Transform::scale_x() const { return std::hypot(a, b); }
double Transform::scale_y() const { return std::hypot(c, d); }

bool Transform::is_similarity(double tol) const {
  const double sx = scale_x(), sy = scale_y();
  const double dot = a * c + b * d;
  return std::abs(sx - sy) <= tol * std::max(1.0, sx) && std::abs(dot) <= tol * std::max(1.0, sx * sy);
}

Transform Transform::rotate(double deg) {
  const double r = deg * std::numbers::pi / 180.0;
  const double cs = std::cos(r), sn = std::sin(r);
  return {cs, sn, -sn, cs, 0, 0};
}

}  // namespace tikzlint::ir
