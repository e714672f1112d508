#include "checks/scene.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <type_traits>
#include <utility>

#include "support/ascii.hpp"

namespace tikzlint::checks {

using geo::Point;

const char* to_string(StrokeKind k) {
  switch (k) {
    case StrokeKind::straight: return "segment";
    case StrokeKind::arc: return "arc";
    case StrokeKind::round: return "circle";
    case StrokeKind::curve: return "curve";
    case StrokeKind::grid: return "grid line";
    case StrokeKind::mark: return "right-angle mark";
  }
  return "segment";
}

bool visible(const ir::Element& e) { return !e.style.invisible && (e.style.draw || e.style.fill); }

bool has_text(const ir::Node& n) {
  if (n.shape == ir::NodeShape::coordinate) return false;
  for (char c : n.text)
    if (!is_ascii_space(c)) return !plain_text(n.text).empty();
  return false;
}

namespace {

StrokeKind kind_of(const ir::Geometry& g) {
  return std::visit(
      [](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, ir::Arc>) return StrokeKind::arc;
        else if constexpr (std::is_same_v<T, ir::Circle> || std::is_same_v<T, ir::Ellipse>) return StrokeKind::round;
        else if constexpr (std::is_same_v<T, ir::Bezier> || std::is_same_v<T, ir::Plot>) return StrokeKind::curve;
        else if constexpr (std::is_same_v<T, ir::Grid>) return StrokeKind::grid;
        else if constexpr (std::is_same_v<T, ir::RightAngleMark>) return StrokeKind::mark;
        else return StrokeKind::straight;
      },
      g);
}

// Vertex dots: small drawn or filled nodes without text (TikZ "vertex" styles, circle dots).
bool is_vertex_dot(const ir::Node& n) {
  return !has_text(n) && n.shape != ir::NodeShape::coordinate && (n.drawn || n.filled) &&
         n.box.width() <= 12 && n.box.height() <= 12;
}

double min_center_gap(Point c, const std::vector<Point>& pts) {
  double best = INFINITY;
  if (pts.size() == 1) return geo::dist(c, pts[0]);
  for (std::size_t i = 1; i < pts.size(); ++i) best = std::min(best, geo::point_segment_distance(c, pts[i - 1], pts[i]));
  return best;
}

// A line's end within this of a border reads as touching it: pgf ends a pin edge at the borders
// of both nodes, `outer sep` (0.5\pgflinewidth) and a `shorten` of a point or so apart (pt).
constexpr double kLeaderTouchPt = 2.0;

double box_point_gap(const ir::Box& b, Point p) {
  double dx = std::max({b.xmin - p.x, 0.0, p.x - b.xmax});
  double dy = std::max({b.ymin - p.y, 0.0, p.y - b.ymax});
  return std::sqrt(dx * dx + dy * dy);  // as geo::norm
}

bool point_in_ring(Point p, const std::vector<Point>& ring) {
  bool in = false;
  for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
    if ((ring[i].y > p.y) != (ring[j].y > p.y) &&
        p.x < (ring[j].x - ring[i].x) * (p.y - ring[i].y) / (ring[j].y - ring[i].y) + ring[i].x)
      in = !in;
  }
  return in;
}

// GEOS 3.11 algorithm::Distance, operation by operation (the same roundings), for
// box_polyline_distance.
double coord_distance(Point p, Point q) {
  double dx = p.x - q.x, dy = p.y - q.y;
  return std::sqrt(dx * dx + dy * dy);
}

double point_to_segment(Point p, Point a, Point b) {
  if (a.x == b.x && a.y == b.y) return coord_distance(p, a);
  double len2 = (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y);
  double r = ((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y)) / len2;
  if (r <= 0.0) return coord_distance(p, a);
  if (r >= 1.0) return coord_distance(p, b);
  double s = ((a.y - p.y) * (b.x - a.x) - (a.x - p.x) * (b.y - a.y)) / len2;
  return std::fabs(s) * std::sqrt(len2);
}

// Envelope::intersects(p1, p2, q1, q2): the closed bounding boxes of two segments meet.
bool segment_boxes_meet(Point p1, Point p2, Point q1, Point q2) {
  double minq = std::min(q1.x, q2.x), maxq = std::max(q1.x, q2.x);
  double minp = std::min(p1.x, p2.x), maxp = std::max(p1.x, p2.x);
  if (minp > maxq || maxp < minq) return false;
  minq = std::min(q1.y, q2.y);
  maxq = std::max(q1.y, q2.y);
  minp = std::min(p1.y, p2.y);
  maxp = std::max(p1.y, p2.y);
  return !(minp > maxq || maxp < minq);
}

double segment_to_segment(Point a, Point b, Point c, Point d) {
  if (a.x == b.x && a.y == b.y) return point_to_segment(a, c, d);
  if (c.x == d.x && c.y == d.y) return point_to_segment(d, a, b);
  bool no_intersection = false;
  if (!segment_boxes_meet(a, b, c, d)) {
    no_intersection = true;
  } else {
    double denom = (b.x - a.x) * (d.y - c.y) - (b.y - a.y) * (d.x - c.x);
    if (denom == 0) {
      no_intersection = true;
    } else {
      double r_num = (a.y - c.y) * (d.x - c.x) - (a.x - c.x) * (d.y - c.y);
      double s_num = (a.y - c.y) * (b.x - a.x) - (a.x - c.x) * (b.y - a.y);
      double s = s_num / denom;
      double r = r_num / denom;
      if (r < 0 || r > 1 || s < 0 || s > 1) no_intersection = true;
    }
  }
  if (no_intersection)
    return std::min(std::min(point_to_segment(a, c, d), point_to_segment(b, c, d)),
                    std::min(point_to_segment(c, a, b), point_to_segment(d, a, b)));
  return 0.0;
}

bool finite_box(const ir::Box& b) {
  return std::isfinite(b.xmin) && std::isfinite(b.ymin) && std::isfinite(b.xmax) && std::isfinite(b.ymax);
}

// How far apart two ordered boxes are along x and along y (0 where they overlap): the gap of
// the boxes is the norm of this, a lower bound of the gap of anything inside them.
Point box_separation(const ir::Box& a, const ir::Box& b) {
  return {std::max({0.0, a.xmin - b.xmax, b.xmin - a.xmax}), std::max({0.0, a.ymin - b.ymax, b.ymin - a.ymax})};
}

// The bounds of segment pq.
ir::Box segment_box(Point p, Point q) {
  return {std::min(p.x, q.x), std::min(p.y, q.y), std::max(p.x, q.x), std::max(p.y, q.y)};
}

}  // namespace

std::optional<double> box_polyline_distance(const ir::Box& b, const std::vector<Point>& pts) {
  if (!(b.xmin < b.xmax && b.ymin < b.ymax) || !finite_box(b) || pts.size() < 2) return std::nullopt;
  for (const Point& p : pts)
    if (!geo::finite(p)) return std::nullopt;
  // DistanceOp::computeContainmentDistance: the line's first point inside or on the polygon.
  const Point& p0 = pts.front();
  if (p0.x >= b.xmin && p0.x <= b.xmax && p0.y >= b.ymin && p0.y <= b.ymax) return 0.0;
  // computeFacetDistance: every side (ring order of Shape::box) against every segment.
  const Point ring[5] = {{b.xmin, b.ymin}, {b.xmax, b.ymin}, {b.xmax, b.ymax}, {b.xmin, b.ymax}, {b.xmin, b.ymin}};
  // The minimum over all the pairs (GEOS takes the sides in the outer loop; the minimum is the
  // same in any order). A segment whose bounds are farther from the box than the best distance
  // so far cannot give a smaller one, and is skipped: on a long polyline, most are. The bound is
  // compared with a margin (kPruneMargin), so that its rounding can never skip the minimum.
  constexpr double kPruneMargin = 1e-9;
  double best = std::numeric_limits<double>::max();
  for (std::size_t j = 1; j < pts.size(); ++j) {
    const Point a = pts[j - 1], c = pts[j];
    const ir::Box seg = segment_box(a, c);
    auto beyond_best = [&](const ir::Box& other) {  // best * best: inf at first
      const Point g = box_separation(seg, other);
      return g.x * g.x + g.y * g.y > best * best * (1 + kPruneMargin);
    };
    if (beyond_best(b)) continue;
    for (int i = 0; i < 4; ++i) {
      // The same bound for one side (its bounds are the side itself): most sides face away.
      if (beyond_best(segment_box(ring[i], ring[i + 1]))) continue;
      best = std::min(best, segment_to_segment(ring[i], ring[i + 1], a, c));
      if (best <= 0) return best;
    }
  }
  return best;
}

std::optional<double> box_clip_length(const ir::Box& b, const std::vector<Point>& pts) {
  if (!(b.xmin < b.xmax && b.ymin < b.ymax) || !finite_box(b)) return std::nullopt;
  for (const Point& p : pts)
    if (!geo::finite(p)) return std::nullopt;
  double total = 0;
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const Point a = pts[i - 1], c = pts[i];
    const auto t = geo::clip_segment(b, a, c);
    if (!t) continue;
    total += (t->second - t->first) * std::hypot(c.x - a.x, c.y - a.y);
  }
  return total;
}

void BoxIndex::insert(const ir::Box& b, std::size_t id) {
  Item it{{std::min(b.xmin, b.xmax), std::min(b.ymin, b.ymax), std::max(b.xmin, b.xmax), std::max(b.ymin, b.ymax)}, b, id};
  finite_ = finite_ && finite_box(b);
  items_.push_back(it);
  tree_.reset();
  built_ = false;
}

namespace {

bool meets(const ir::Box& a, const ir::Box& q) {
  return !(a.xmin > q.xmax || a.xmax < q.xmin || a.ymin > q.ymax || a.ymax < q.ymin);
}

ir::Box unite(const ir::Box& a, const ir::Box& b) {
  return {std::min(a.xmin, b.xmin), std::min(a.ymin, b.ymin), std::max(a.xmax, b.xmax), std::max(a.ymax, b.ymax)};
}

}  // namespace

void BoxIndex::build() const {
  // Sort-tile-recursive packing: vertical slices by centre x, tiles of kFanout by centre y.
  const std::size_t n = items_.size();
  order_.resize(n);
  for (std::size_t i = 0; i < n; ++i) order_[i] = i;
  auto cx = [&](std::size_t i) { return items_[i].env.xmin + items_[i].env.xmax; };
  auto cy = [&](std::size_t i) { return items_[i].env.ymin + items_[i].env.ymax; };
  std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return cx(a) < cx(b); });
  const std::size_t leaves = (n + kFanout - 1) / kFanout;
  const auto slices = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(leaves))));
  const std::size_t per_slice = slices * kFanout;
  for (std::size_t s = 0; s < n; s += per_slice)
    std::stable_sort(order_.begin() + static_cast<long>(s), order_.begin() + static_cast<long>(std::min(n, s + per_slice)),
                     [&](std::size_t a, std::size_t b) { return cy(a) < cy(b); });
  levels_.assign(1, {});
  levels_[0].reserve(n);
  ids_.clear();
  ids_.reserve(n);
  for (std::size_t i : order_) {
    levels_[0].push_back(items_[i].env);
    ids_.push_back(items_[i].id);
  }
  while (levels_.back().size() > kFanout) {
    const auto& below = levels_.back();
    std::vector<ir::Box> up;
    up.reserve((below.size() + kFanout - 1) / kFanout);
    for (std::size_t i = 0; i < below.size(); i += kFanout) {
      ir::Box u = below[i];
      for (std::size_t j = i + 1; j < std::min(below.size(), i + kFanout); ++j) u = unite(u, below[j]);
      up.push_back(u);
    }
    levels_.push_back(std::move(up));
  }
  built_ = true;
}

std::vector<std::size_t> BoxIndex::query(const ir::Box& b) const {
  std::vector<std::size_t> out;
  if (items_.empty()) return out;
  out.reserve(std::min<std::size_t>(items_.size(), 16));  // one allocation for most answers
  if (!finite_ || !finite_box(b)) {
    if (!tree_) {
      tree_ = std::make_unique<geo::SpatialIndex>();
      for (const Item& it : items_) tree_->insert(it.box, it.id);
    }
    return tree_->query(b);
  }
  const ir::Box q{std::min(b.xmin, b.xmax), std::min(b.ymin, b.ymax), std::max(b.xmin, b.xmax), std::max(b.ymin, b.ymax)};
  if (items_.size() <= kScanLimit) {
    for (const Item& it : items_)
      if (meets(it.env, q)) out.push_back(it.id);
  } else {
    if (!built_) build();
    // Depth-first from the top level: a node's children are tested in one loop; a node inside
    // the query box contributes its whole run of items (the items below a node are consecutive
    // in tile order) without further tests.
    auto contained = [&](const ir::Box& env) {
      return env.xmin >= q.xmin && env.xmax <= q.xmax && env.ymin >= q.ymin && env.ymax <= q.ymax;
    };
    auto children = [&](auto&& self, std::size_t level, std::size_t index, std::size_t span) -> void {
      // Tests the children of node (level, index); `span` is the item count of one child.
      const auto& below = levels_[level - 1];
      const std::size_t end = std::min(below.size(), (index + 1) * kFanout);
      for (std::size_t j = index * kFanout; j < end; ++j) {
        const ir::Box& env = below[j];
        if (!meets(env, q)) continue;
        if (level == 1) {
          out.push_back(ids_[j]);
        } else if (contained(env)) {
          out.insert(out.end(), ids_.begin() + static_cast<long>(j * span),
                     ids_.begin() + static_cast<long>(std::min(ids_.size(), (j + 1) * span)));
        } else {
          self(self, level - 1, j, span / kFanout);
        }
      }
    };
    const std::size_t top = levels_.size() - 1;
    std::size_t span = 1;
    for (std::size_t l = 0; l < top; ++l) span *= kFanout;
    for (std::size_t i = 0; i < levels_[top].size(); ++i) {
      const ir::Box& env = levels_[top][i];
      if (!meets(env, q)) continue;
      if (contained(env))
        out.insert(out.end(), ids_.begin() + static_cast<long>(i * span),
                   ids_.begin() + static_cast<long>(std::min(ids_.size(), (i + 1) * span)));
      else
        children(children, top, i, span / kFanout);
    }
  }
  if (!std::is_sorted(out.begin(), out.end())) std::sort(out.begin(), out.end());  // a scan's answer is in insertion order
  return out;
}

namespace {
thread_local SceneCache* innermost_cache = nullptr;
}  // namespace

SceneCache::SceneCache(const ir::Diagram& d) : d_(&d), outer_(innermost_cache) { innermost_cache = this; }

SceneCache::~SceneCache() { innermost_cache = outer_; }

Scene::Scene(const ir::Diagram& d) : d_(&d) {
  for (SceneCache* c = innermost_cache; c; c = c->outer_) {
    if (c->d_ != &d) continue;
    if (!c->build_) c->build_ = build(d);
    s_ = c->build_;
    return;
  }
  s_ = build(d);
}

std::shared_ptr<Scene::Build> Scene::build(const ir::Diagram& d) {
  auto out = std::make_shared<Build>();
  auto& strokes_ = out->strokes;
  auto& labels_ = out->labels;
  auto& vertices_ = out->vertices;
  auto& stroke_index_ = out->stroke_index;
  auto& vertex_index_ = out->vertex_index;
  auto& region_index_ = out->region_index;
  std::vector<Point> extent_pts;
  for (std::size_t ei = 0; ei < d.elements.size(); ++ei) {
    const ir::Element& e = d.elements[ei];
    if (!visible(e)) continue;
    StrokeKind kind = kind_of(e.geom);
    bool arrow = e.style.arrow_start || e.style.arrow_end;
    int piece = 0;
    for (auto& outline : geo::element_outlines(e)) {
      if (outline.empty() || !std::all_of(outline.begin(), outline.end(), geo::finite)) continue;
      // Straight paths are split into their edges: a label names one side, not the path.
      if (kind == StrokeKind::straight && outline.size() > 2) {
        for (std::size_t i = 1; i < outline.size(); ++i) {
          if (geo::dist(outline[i - 1], outline[i]) <= 1e-9) continue;
          Stroke s{ei, piece++, kind, {outline[i - 1], outline[i]}, {}, 0, e.style.draw, arrow};
          strokes_.push_back(std::move(s));
        }
      } else {
        Stroke s{ei, piece++, kind, std::move(outline), {}, 0, e.style.draw, arrow};
        strokes_.push_back(std::move(s));
      }
    }
  }
  for (std::size_t i = 0; i < strokes_.size(); ++i) {
    Stroke& s = strokes_[i];
    s.bounds = geo::bounds_of(s.pts);
    s.length = geo::polyline_length(s.pts);
    stroke_index_.insert(s.bounds, i);
    if (s.kind != StrokeKind::grid) extent_pts.insert(extent_pts.end(), s.pts.begin(), s.pts.end());
  }

  // Vertices: ends of straight strokes merged on a 0.5pt lattice, plus vertex dots.
  std::map<std::pair<long long, long long>, std::size_t> lattice;
  auto add_vertex = [&](Point p, int degree, bool dot, double reach) {
    auto [it, fresh] = lattice.try_emplace({std::llround(p.x * 2), std::llround(p.y * 2)}, vertices_.size());
    if (fresh) {
      vertices_.push_back({p, degree, dot, reach});
    } else {
      Vertex& v = vertices_[it->second];
      v.degree += degree;
      v.dot = v.dot || dot;
      v.reach = std::max(v.reach, reach);
    }
  };
  for (const Stroke& s : strokes_)
    if (s.kind == StrokeKind::straight && s.drawn) {
      add_vertex(s.pts.front(), 1, false, s.length);
      add_vertex(s.pts.back(), 1, false, s.length);
    }
  // A small filled circle (`\fill (A) circle (2pt)`) marks a point as a vertex dot node does: the
  // same size limit (12pt across).
  for (const ir::Element& e : d.elements)
    if (const auto* c = std::get_if<ir::Circle>(&e.geom);
        c && visible(e) && e.style.fill && c->radius > 0 && 2 * c->radius <= 12 && geo::finite(c->center))
      add_vertex(c->center, 0, true, 0);
  for (std::size_t ni = 0; ni < d.nodes.size(); ++ni) {
    const ir::Node& n = d.nodes[ni];
    if (!geo::finite(n.center)) continue;
    if (is_vertex_dot(n)) add_vertex(n.center, 0, true, 0);
    if (has_text(n) && !n.role.empty()) {
      // a package's own text (an axis's tick labels): part of the picture's extent, names nothing
      out->furniture.push_back(Label{ni, read_label(n.text), n.box, geo::glyph_box(n), n.center});
      extent_pts.push_back({n.box.xmin, n.box.ymin});
      extent_pts.push_back({n.box.xmax, n.box.ymax});
    } else if (has_text(n)) {
      Label l{ni, read_label(n.text), n.box, geo::glyph_box(n), n.center};
      labels_.push_back(std::move(l));
      extent_pts.push_back({n.box.xmin, n.box.ymin});
      extent_pts.push_back({n.box.xmax, n.box.ymax});
    }
  }
  // Owners of label= / pin= labels mark the point they name.
  for (const ir::Node& n : d.nodes)
    if (n.label_of && *n.label_of < d.nodes.size()) add_vertex(d.nodes[*n.label_of].center, 0, true, 0);
  for (std::size_t i = 0; i < vertices_.size(); ++i) vertex_index_.insert({vertices_[i].p.x, vertices_[i].p.y, vertices_[i].p.x, vertices_[i].p.y}, i);
  if (!extent_pts.empty()) out->extent = geo::bounds_of(extent_pts);
  out->regions.resize(d.elements.size());
  for (std::size_t ei = 0; ei < d.elements.size(); ++ei) {
    const ir::Element& e = d.elements[ei];
    if (!visible(e)) continue;
    const auto& region = out->regions[ei] = geo::element_region(e);
    if (region && std::all_of(region->begin(), region->end(), geo::finite))
      region_index_.insert(geo::bounds_of(*region), ei);
  }
  return out;
}

const std::optional<std::vector<Point>>& Scene::region(std::size_t element) const {
  static const std::optional<std::vector<Point>> kNone;
  return element < s_->regions.size() ? s_->regions[element] : kNone;
}

std::vector<std::size_t> Scene::regions_near(const ir::Box& b) const { return s_->region_index.query(b); }

std::vector<std::size_t> Scene::strokes_near(const ir::Box& b, double radius) const {
  return s_->stroke_index.query(geo::inflate(b, radius));
}

std::vector<std::size_t> Scene::vertices_near(const ir::Box& b, double radius) const {
  return s_->vertex_index.query(geo::inflate(b, radius));
}

std::size_t Scene::label_index(const Label& l) const {
  const auto& ls = s_->labels;
  std::less<const Label*> before;
  if (ls.empty() || before(&l, ls.data()) || !before(&l, ls.data() + ls.size())) return ls.size();
  return static_cast<std::size_t>(&l - ls.data());
}

double Scene::gap(const Label& l, const Stroke& s) const {
  std::size_t li = label_index(l);
  const auto& ss = s_->strokes;
  std::less<const Stroke*> before;
  bool known = li < s_->labels.size() && !ss.empty() && !before(&s, ss.data()) && before(&s, ss.data() + ss.size());
  std::uint64_t key = known ? (static_cast<std::uint64_t>(li) << 32) | static_cast<std::uint64_t>(&s - ss.data()) : 0;
  if (known) {
    auto it = s_->gaps.find(key);
    if (it != s_->gaps.end()) return it->second;
  }
  double g = box_gap(l, s);
  // A memo, bounded: labels x strokes grows with the square of a dense picture (a tree of 4,000
  // children, every edge near every label, held 690 MB of it).
  if (known && s_->gaps.size() < kGapMemoLimit) s_->gaps.emplace(key, g);
  return g;
}

bool Scene::gap_exceeds(const Label& l, const Stroke& s, double limit) const {
  // An upright label's gap is measured from l.box (box_gap), and the stroke lies within its
  // bounds: the gap of the two boxes is a lower bound. The margin covers the rounding of both.
  if (std::abs(d_->nodes[l.node].rotation_deg) > 1e-9 || !finite_box(l.box) || !finite_box(s.bounds) ||
      l.box.xmin > l.box.xmax || l.box.ymin > l.box.ymax)
    return false;
  return geo::norm(box_separation(s.bounds, l.box)) > limit + 1e-9 * (1 + std::abs(limit));
}

double Scene::box_gap(const Label& l, const Stroke& s) const {
  // Label boxes are axis-aligned rectangles in nearly every diagram; distance to a polyline is
  // then exact without GEOS. Rotated boxes go through GEOS.
  const ir::Node& n = d_->nodes[l.node];
  if (std::abs(n.rotation_deg) > 1e-9) {
    return geo::Shape::polygon(geo::node_ring(n)).distance(geo::Shape::line(s.pts));
  }
  if (auto g = box_polyline_distance(l.box, s.pts)) return *g;
  geo::Shape box = geo::Shape::box(l.box);
  return box.distance(geo::Shape::line(s.pts));
}

double Scene::center_gap(const Label& l, const Stroke& s) const { return min_center_gap(l.center, s.pts); }

std::vector<Scene::Ray> Scene::rays_at(Point p, double tol, std::optional<std::size_t> skip) const {
  const auto& strokes_ = s_->strokes;
  std::vector<Ray> rays;
  for (std::size_t i : strokes_near({p.x, p.y, p.x, p.y}, tol)) {
    const Stroke& s = strokes_[i];
    if (s.kind != StrokeKind::straight || !s.drawn) continue;
    if (skip && s.element == *skip) continue;
    Point a = s.pts.front(), b = s.pts.back();
    if (geo::point_segment_distance(p, a, b) > tol) continue;
    if (geo::dist(p, a) > tol) rays.push_back({a - p, s.length, i});
    if (geo::dist(p, b) > tol) rays.push_back({b - p, s.length, i});
  }
  return rays;
}

namespace {

// Where the label's centre projects on a straight stroke: 0..1 within it.
double projection(Point c, const Stroke& s) {
  Point a = s.pts.front(), b = s.pts.back();
  double len2 = geo::dot(b - a, b - a);
  return len2 > 0 ? geo::dot(c - a, b - a) / len2 : 0.5;
}

// Two straight strokes on one line, overlapping or touching: one line to a reader.
bool same_line(const Stroke& a, const Stroke& b) {
  Point da = a.pts.back() - a.pts.front(), db = b.pts.back() - b.pts.front();
  double dev = geo::angle_between_deg(da, db);
  if (dev > 2 && dev < 178) return false;
  auto off = [&](Point p) {
    double len = geo::norm(da);
    return len > 0 ? std::abs(geo::cross(da, p - a.pts.front())) / len : geo::dist(p, a.pts.front());
  };
  return off(b.pts.front()) < 1.0 && off(b.pts.back()) < 1.0;
}

}  // namespace

Association Scene::associate(const Label& l, double attach) const {
  std::size_t li = label_index(l);
  if (li == s_->labels.size()) return associate_uncached(l, attach);
  auto key = std::make_pair(li, attach);
  auto it = s_->associations.find(key);
  if (it == s_->associations.end()) it = s_->associations.emplace(key, associate_uncached(l, attach)).first;
  return it->second;
}

Association Scene::associate_uncached(const Label& l, double attach) const {
  const auto& strokes_ = s_->strokes;
  const auto& vertices_ = s_->vertices;
  Association out;
  const LabelKind k = l.text.kind;
  const ir::Node& node = d_->nodes[l.node];
  const double search = 3 * attach;
  const double glyph_h = std::max(4.0, l.glyphs.height());

  // label= / pin=: attached to its owner by construction.
  if (node.label_of && *node.label_of < d_->nodes.size()) {
    const ir::Node& owner = d_->nodes[*node.label_of];
    // pgf places it `label distance` from the owner's border: the gap is to the owner's box (a
    // point-like owner, a coordinate or an empty node, is its centre).
    double to_owner = std::min(box_point_gap(l.box, owner.center), geo::norm(box_separation(l.box, owner.box)));
    // A drawn line from the owner's border to the label (a pin edge) joins them whatever the pin
    // distance: the label is as close as that line's end.
    if (to_owner > kLeaderTouchPt)
      for (std::size_t i : strokes_near(l.box, kLeaderTouchPt)) {
        const Stroke& s = s_->strokes[i];
        if (!s.drawn || s.kind == StrokeKind::grid || s.pts.size() < 2) continue;
        const double g = gap(l, s);
        if (g > kLeaderTouchPt) continue;
        auto near_owner = [&](Point p) { return box_point_gap(owner.box, p) <= kLeaderTouchPt; };
        if (near_owner(s.pts.front()) || near_owner(s.pts.back())) to_owner = std::min(to_owner, g);
      }
    out.best = Target{TargetKind::owner, *node.label_of, to_owner, geo::dist(l.center, owner.center)};
    return out;
  }

  std::vector<Target> beside, strokes, vertices, regions;
  std::vector<std::size_t> candidates = strokes_near(l.box, search);
  if (candidates.size() > kMaxStrokeCandidates) {
    // A dense picture (thousands of strokes within reach of every label) made this quadratic:
    // keep the strokes whose bounds come nearest (a lower bound of the exact gap), in index order.
    auto bound_gap = [&](std::size_t i) {
      const Point g = box_separation(strokes_[i].bounds, l.box);
      return std::hypot(g.x, g.y);
    };
    std::vector<std::pair<double, std::size_t>> by_bound;
    by_bound.reserve(candidates.size());
    for (std::size_t i : candidates) by_bound.emplace_back(bound_gap(i), i);
    std::nth_element(by_bound.begin(), by_bound.begin() + kMaxStrokeCandidates, by_bound.end());
    by_bound.resize(kMaxStrokeCandidates);
    candidates.clear();
    for (const auto& [g, i] : by_bound) candidates.push_back(i);
    std::sort(candidates.begin(), candidates.end());
  }
  for (std::size_t i : candidates) {
    const Stroke& s = strokes_[i];
    if (s.kind == StrokeKind::grid) continue;
    if (gap_exceeds(l, s, search)) continue;  // without the exact gap
    double g = gap(l, s);
    if (g > search) continue;
    Target t{TargetKind::stroke, i, g, center_gap(l, s)};
    // A label placed on a path (midway, pos=) sits on that path by construction.
    if (node.on_path && d_->elements[s.element].path_id == *node.on_path) t.gap = std::min(t.gap, attach);
    if (k == LabelKind::angle && s.kind != StrokeKind::arc && s.kind != StrokeKind::mark) continue;
    strokes.push_back(t);
    if (s.kind == StrokeKind::straight) {
      double tp = projection(l.center, s);
      double slack = glyph_h / std::max(1.0, s.length);
      if (tp >= -slack && tp <= 1 + slack) beside.push_back(t);
    }
  }
  if (k == LabelKind::angle || k == LabelKind::name) {
    for (std::size_t i : vertices_near(l.box, search)) {
      const Vertex& v = vertices_[i];
      bool salient = v.dot || (v.degree >= 2 && v.reach > 12);
      if (!salient) continue;
      if (k == LabelKind::angle && v.degree < 2) continue;
      double g = box_point_gap(l.box, v.p);
      if (g > search) continue;
      vertices.push_back({TargetKind::vertex, i, g, geo::dist(l.center, v.p)});
    }
  }
  for (std::size_t ei : regions_near(l.box)) {
    const ir::Element& e = d_->elements[ei];
    if (std::holds_alternative<ir::Grid>(e.geom)) continue;
    const auto& region = this->region(ei);
    if (region && point_in_ring(l.center, *region)) regions.push_back({TargetKind::region, ei, 0, 0});
  }
  auto by_center = [](const Target& a, const Target& b) { return a.center_gap < b.center_gap; };
  std::stable_sort(beside.begin(), beside.end(), by_center);
  std::stable_sort(strokes.begin(), strokes.end(), by_center);
  std::stable_sort(vertices.begin(), vertices.end(), by_center);

  switch (k) {
    case LabelKind::length: {
      std::vector<Target> near;
      for (const Target& t : beside)
        if (t.gap <= attach) near.push_back(t);
      if (!near.empty()) {
        // A dimension line (arrowed, often broken around its label) stands for the side it
        // dimensions: when that parallel side is also beside the label, the side is measured.
        if (strokes_[near.front().index].arrow) {
          const Stroke& arrow = strokes_[near.front().index];
          for (const Target& t : near) {
            const Stroke& side = strokes_[t.index];
            if (side.arrow || side.kind != StrokeKind::straight) continue;
            double dev = geo::angle_between_deg(arrow.pts.back() - arrow.pts.front(), side.pts.back() - side.pts.front());
            if (dev < 3 || dev > 177) {
              std::rotate(near.begin(), std::find_if(near.begin(), near.end(), [&](const Target& x) { return x.index == t.index; }), near.end());
              break;
            }
          }
        }
        out.best = near.front();
        const Stroke& sb = strokes_[near.front().index];
        // A bare number with lines on opposite sides of it, about as near, sits inside a cell
        // of the figure and numbers or measures that cell, not a side.
        if (l.text.unit.empty()) {
          for (std::size_t i = 1; i < near.size(); ++i) {
            const Stroke& sc = strokes_[near[i].index];
            if (near[i].center_gap - near.front().center_gap > glyph_h) break;
            Point db = sb.pts.back() - sb.pts.front(), dc = sc.pts.back() - sc.pts.front();
            double side_b = geo::cross(db, l.center - sb.pts.front());
            double side_c = geo::cross(dc, l.center - sc.pts.front()) * (geo::dot(db, dc) < 0 ? -1 : 1);
            double dev = geo::angle_between_deg(db, dc);
            if ((dev < 10 || dev > 170) && side_b * side_c < 0) {
              out.enclosed = true;
              return out;
            }
          }
        }
        for (std::size_t i = 1; i < near.size(); ++i) {
          const Stroke& sc = strokes_[near[i].index];
          if (sc.kind != StrokeKind::straight || sb.kind != StrokeKind::straight) continue;
          if (same_line(sb, sc)) continue;
          // The side's own dimension line (arrowed, parallel) is not a competitor.
          if (sc.arrow || sb.arrow) {
            double dev = geo::angle_between_deg(sb.pts.back() - sb.pts.front(), sc.pts.back() - sc.pts.front());
            if (dev < 3 || dev > 177) continue;
          }
          // Lengths within 20% (length_proportions' tolerance) give the label one reading
          // (a side and its dimension line, parallel edges of a solid).
          if (std::abs(sb.length - sc.length) <= 0.2 * std::max(sb.length, sc.length)) continue;
          out.rival = near[i];
          break;
        }
      } else if (!regions.empty()) {
        out.best = regions.front();
      } else if (!beside.empty()) {
        out.best = beside.front();
      } else if (!strokes.empty()) {
        out.best = strokes.front();
      }
      break;
    }
    case LabelKind::area:
      if (!regions.empty()) out.best = regions.front();
      else out.caption = true;
      break;
    case LabelKind::angle: {
      std::optional<Target> arc, corner;
      if (!strokes.empty()) arc = strokes.front();
      if (!vertices.empty()) corner = vertices.front();
      // A label set at an arc's middle (a node at the arc's mid-angle, anchored away from it, as
      // tikz-3dplot's \tdplotdrawarc places it) touches that arc at its midpoint: the reader
      // reads it with that arc, and only an arc the label sits at the middle of as well competes.
      auto at_middle = [&](const Target& t) {
        const auto* a = std::get_if<ir::Arc>(&d_->elements[strokes_[t.index].element].geom);
        if (!a) return false;
        const double mid = (a->start_deg + a->end_deg) / 2 * std::numbers::pi / 180;
        const double rot = a->rotation_deg * std::numbers::pi / 180;
        const Point local{a->rx * std::cos(mid), a->ry * std::sin(mid)};
        const Point m = a->center + Point{local.x * std::cos(rot) - local.y * std::sin(rot),
                                          local.x * std::sin(rot) + local.y * std::cos(rot)};
        return box_point_gap(l.box, m) <= kLeaderTouchPt;
      };
      auto middle = std::find_if(strokes.begin(), strokes.end(), at_middle);
      const bool by_middle = middle != strokes.end();
      if (by_middle) arc = *middle;
      // An angle's label is set on its bisector (tkz-euclide's \tkzLabelAngle at `pos` along it,
      // the angles library's `angle eccentricity`): a label the bisector of a corner runs through,
      // in front of the corner and within reach of both its sides, names that corner however far
      // out along the bisector it sits. Only when no arc or corner is attached otherwise.
      if (!by_middle && !(arc && arc->gap <= attach) && !(corner && corner->gap <= attach))
        for (const Target& t : vertices) {
          const Point v = vertices_[t.index].p;
          auto rays = rays_at(v, 1.0);
          if (rays.size() < 2) continue;
          std::sort(rays.begin(), rays.end(), [](const Ray& a, const Ray& b) {
            return std::atan2(a.dir.y, a.dir.x) < std::atan2(b.dir.y, b.dir.x);
          });
          bool on = false;
          for (std::size_t i = 0; i < rays.size() && !on; ++i) {
            const Ray& a = rays[i];
            const Ray& b = rays[(i + 1) % rays.size()];
            const double la = geo::norm(a.dir), lb = geo::norm(b.dir);
            if (la <= 0 || lb <= 0) continue;
            // consecutive rays (no other side between them) making a corner of less than 180°
            double wedge = std::atan2(b.dir.y, b.dir.x) - std::atan2(a.dir.y, a.dir.x);
            if (wedge <= 0) wedge += 2 * std::numbers::pi;
            if (wedge >= std::numbers::pi - 1e-6 || wedge < 1e-6) continue;
            const Point bis = a.dir * (1 / la) + b.dir * (1 / lb);
            const double lbis = geo::norm(bis);
            if (lbis <= 0) continue;
            const Point u = bis * (1 / lbis);
            const double along = geo::dot(l.center - v, u);
            const double reach = std::min(la, lb);
            if (along <= 0 || along > reach) continue;
            auto g = box_polyline_distance(l.box, {v, v + u * reach});
            on = g && *g <= kLeaderTouchPt;
          }
          if (!on) continue;
          corner = t;
          corner->gap = std::min(corner->gap, attach);
          arc.reset();
          break;
        }
      if (arc && (arc->gap <= attach || !corner)) {
        out.best = arc;
        for (std::size_t i = 0; i < strokes.size(); ++i) {
          if (strokes[i].index == arc->index) continue;
          if (by_middle && !at_middle(strokes[i])) continue;
          const Stroke& a = strokes_[arc->index];
          const Stroke& b = strokes_[strokes[i].index];
          if (a.element == b.element || b.kind != a.kind) continue;
          // Concentric arcs of one angle (double arcs) mean the same angle; so do two arcs of one
          // angle and one radius elsewhere (the same angle marked at two places, as a bend's angle
          // at both ends of an edge): a label between them reads as that angle, whichever it names.
          const auto* aa = std::get_if<ir::Arc>(&d_->elements[a.element].geom);
          const auto* ab = std::get_if<ir::Arc>(&d_->elements[b.element].geom);
          if (aa && ab && std::abs(std::abs(aa->sweep_deg()) - std::abs(ab->sweep_deg())) < 1) {
            // one radius: within half a point, the resolution at which the scene merges places
            if (geo::dist(aa->center, ab->center) < glyph_h ||
                (std::abs(aa->rx - ab->rx) <= 0.5 && std::abs(aa->ry - ab->ry) <= 0.5))
              continue;
          }
          out.rival = strokes[i];
          break;
        }
      } else if (corner) {
        out.best = corner;
      }
      break;
    }
    case LabelKind::name:
    case LabelKind::text: {
      std::vector<Target> all = vertices;
      all.insert(all.end(), strokes.begin(), strokes.end());
      all.insert(all.end(), regions.begin(), regions.end());
      if (all.empty()) break;
      // Names prefer a vertex when one is about as near as the nearest line.
      std::stable_sort(all.begin(), all.end(), [&](const Target& a, const Target& b) {
        double ga = a.center_gap - (a.kind == TargetKind::vertex ? glyph_h / 2 : 0);
        double gb = b.center_gap - (b.kind == TargetKind::vertex ? glyph_h / 2 : 0);
        return ga < gb;
      });
      out.best = all.front();
      if (out.best->kind == TargetKind::vertex) {
        Point pb = vertices_[out.best->index].p;
        for (const Target& t : vertices) {
          if (t.index == out.best->index) continue;
          // Vertices closer together than a text height are one place to a reader.
          if (geo::dist(vertices_[t.index].p, pb) <= glyph_h) continue;
          if (t.gap > attach) break;
          out.rival = t;
          break;
        }
      }
      break;
    }
  }
  return out;
}

}  // namespace tikzlint::checks
