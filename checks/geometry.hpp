// checks/geometry.hpp: the geometry the rules measure with.
// Flattening of IR elements into polylines, plus a thin RAII wrapper over the reentrant GEOS C
// API (one context per thread) and an STRtree spatial index, so that rules stay O(n log n).
#pragma once
#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "ir/diagram.hpp"

struct GEOSGeom_t;
struct GEOSSTRtree_t;

namespace tikzlint::checks::geo {

using ir::Box;
using ir::Point;

// --- plane helpers (no GEOS) ---
inline Point operator+(Point a, Point b) { return {a.x + b.x, a.y + b.y}; }
inline Point operator-(Point a, Point b) { return {a.x - b.x, a.y - b.y}; }
inline Point operator*(Point a, double s) { return {a.x * s, a.y * s}; }
inline double dot(Point a, Point b) { return a.x * b.x + a.y * b.y; }
inline double cross(Point a, Point b) { return a.x * b.y - a.y * b.x; }
// sqrt(x^2 + y^2), not std::hypot: canvas coordinates are far from overflow (TeX's largest
// dimension is 16383.99998pt) and hypot's guard costs five times as much (1.9 % of a check).
// GEOS measures distances the same way (Coordinate::distance).
inline double norm(Point a) { return std::sqrt(a.x * a.x + a.y * a.y); }
inline double dist(Point a, Point b) { return norm(a - b); }
double point_segment_distance(Point p, Point a, Point b);
// Liang-Barsky: the parameter range [t0, t1] of the points a + t (c - a), t in [0, 1], inside the
// box (edges included); nullopt when the segment misses it or only touches it at one point.
std::optional<std::pair<double, double>> clip_segment(const Box& b, Point a, Point c);
double polyline_length(const std::vector<Point>& pts);
double polygon_area(const std::vector<Point>& ring);  // absolute, shoelace
// The area GEOS 3.11 gives Shape::polygon(ring) when that polygon is valid (algorithm::Area::
// ofRing on the closed shell, operation for operation); lets a rule skip building the polygon.
double geos_ring_area(const std::vector<Point>& ring);
double angle_between_deg(Point u, Point v);           // 0..180
Box bounds_of(const std::vector<Point>& pts);
Box inflate(const Box& b, double d);
bool boxes_overlap(const Box& a, const Box& b);
bool finite(Point p);

// The drawn outline of an element as polylines (closed ones repeat their first point).
// Curves are sampled finely enough (<= 5 degrees per step) for pt-level measurements.
std::vector<std::vector<Point>> element_outlines(const ir::Element& e);
// The area an element encloses, if it is a closed shape (ring without repeated first point).
std::optional<std::vector<Point>> element_region(const ir::Element& e);
// A node's border box as a ring (rotated corners).
std::vector<Point> node_ring(const ir::Node& n);
// The box the glyphs occupy: the border box minus inner sep (never inverted).
Box glyph_box(const ir::Node& n);

// --- GEOS ---
class Shape {
 public:
  Shape() = default;
  ~Shape();
  Shape(Shape&& o) noexcept : g_(o.g_) { o.g_ = nullptr; }
  Shape& operator=(Shape&& o) noexcept;
  Shape(const Shape&) = delete;
  Shape& operator=(const Shape&) = delete;

  static Shape line(const std::vector<Point>& pts);     // linestring (>= 2 points)
  static Shape polygon(const std::vector<Point>& ring);  // made valid if self-intersecting
  static Shape box(const Box& b);
  static Shape point(Point p);

  explicit operator bool() const { return g_ != nullptr; }
  double distance(const Shape& o) const;
  bool intersects(const Shape& o) const;
  bool covers(const Shape& o) const;
  double intersection_length(const Shape& area) const;  // length of this (lines) inside area
  double intersection_area(const Shape& o) const;
  // The area of the intersection with `o` and a point inside it (nullopt when empty).
  std::optional<std::pair<double, Point>> overlap_with(const Shape& o) const;
  double area() const;
  double length() const;
  Shape buffered(double d) const;
  const GEOSGeom_t* raw() const { return g_; }

 private:
  explicit Shape(GEOSGeom_t* g) : g_(g) {}
  GEOSGeom_t* g_ = nullptr;
};

// STRtree over axis-aligned boxes; items are indices into the caller's arrays.
class SpatialIndex {
 public:
  SpatialIndex();
  ~SpatialIndex();
  SpatialIndex(const SpatialIndex&) = delete;
  SpatialIndex& operator=(const SpatialIndex&) = delete;
  void insert(const Box& b, std::size_t id);
  // Ids whose boxes intersect `b`, sorted ascending (deterministic output).
  std::vector<std::size_t> query(const Box& b) const;
  std::size_t size() const { return ids_.size(); }

 private:
  GEOSSTRtree_t* tree_ = nullptr;
  std::vector<Shape> envelopes_;  // kept alive for the tree
  std::vector<std::size_t> ids_;
};

}  // namespace tikzlint::checks::geo

namespace tikzlint::checks {
// ir::Point has no operators of its own; make the plane helpers visible to every rule.
using geo::operator+;
using geo::operator-;
using geo::operator*;
}  // namespace tikzlint::checks
