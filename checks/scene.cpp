#include "checks/scene.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <type_traits>
#include <utility>

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
    if (!std::isspace(static_cast<unsigned char>(c))) return !plain_text(n.text).empty();
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

double box_point_gap(const ir::Box& b, Point p) {
  double dx = std::max({b.xmin - p.x, 0.0, p.x - b.xmax});
  double dy = std::max({b.ymin - p.y, 0.0, p.y - b.ymax});
  return std::hypot(dx, dy);
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

}  // namespace

Scene::Scene(const ir::Diagram& d) : d_(&d) {
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
  auto add_vertex = [&](Point p, int degree) {
    auto key = std::make_pair(std::llround(p.x * 2), std::llround(p.y * 2));
    auto it = lattice.find(key);
    if (it == lattice.end()) {
      lattice.emplace(key, vertices_.size());
      vertices_.push_back({p, degree});
    } else {
      vertices_[it->second].degree += degree;
    }
  };
  for (const Stroke& s : strokes_)
    if (s.kind == StrokeKind::straight && s.drawn) {
      add_vertex(s.pts.front(), 1);
      add_vertex(s.pts.back(), 1);
    }
  for (std::size_t ni = 0; ni < d.nodes.size(); ++ni) {
    const ir::Node& n = d.nodes[ni];
    if (!geo::finite(n.center)) continue;
    if (is_vertex_dot(n)) add_vertex(n.center, 0);
    if (has_text(n)) {
      Label l{ni, read_label(n.text), n.box, geo::glyph_box(n), n.center};
      labels_.push_back(std::move(l));
      extent_pts.push_back({n.box.xmin, n.box.ymin});
      extent_pts.push_back({n.box.xmax, n.box.ymax});
    }
  }
  // Owners of label= / pin= labels mark the point they name.
  for (const ir::Node& n : d.nodes)
    if (n.label_of && *n.label_of < d.nodes.size()) add_vertex(d.nodes[*n.label_of].center, 0);
  for (std::size_t i = 0; i < vertices_.size(); ++i) vertex_index_.insert({vertices_[i].p.x, vertices_[i].p.y, vertices_[i].p.x, vertices_[i].p.y}, i);
  if (!extent_pts.empty()) extent_ = geo::bounds_of(extent_pts);
}

std::vector<std::size_t> Scene::strokes_near(const ir::Box& b, double radius) const {
  return stroke_index_.query(geo::inflate(b, radius));
}

std::vector<std::size_t> Scene::vertices_near(const ir::Box& b, double radius) const {
  return vertex_index_.query(geo::inflate(b, radius));
}

double Scene::gap(const Label& l, const Stroke& s) const {
  // Label boxes are axis-aligned rectangles in nearly every diagram; distance to a polyline is
  // then exact without GEOS. Rotated boxes go through GEOS.
  const ir::Node& n = d_->nodes[l.node];
  if (std::abs(n.rotation_deg) > 1e-9) {
    return geo::Shape::polygon(geo::node_ring(n)).distance(geo::Shape::line(s.pts));
  }
  geo::Shape box = geo::Shape::box(l.box);
  return box.distance(geo::Shape::line(s.pts));
}

double Scene::center_gap(const Label& l, const Stroke& s) const { return min_center_gap(l.center, s.pts); }

std::vector<Scene::Ray> Scene::rays_at(Point p, double tol, std::optional<std::size_t> skip) const {
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

Association Scene::associate(const Label& l, double radius) const {
  Association out;
  std::vector<Target> cands;
  LabelKind k = l.text.kind;
  const ir::Node& node = d_->nodes[l.node];

  auto stroke_ok = [&](const Stroke& s) {
    if (s.kind == StrokeKind::grid) return false;
    switch (k) {
      case LabelKind::angle: return s.kind == StrokeKind::arc || s.kind == StrokeKind::mark;
      case LabelKind::length: return s.kind == StrokeKind::straight || s.kind == StrokeKind::curve || s.kind == StrokeKind::arc || s.kind == StrokeKind::round;
      case LabelKind::area: return false;
      default: return true;
    }
  };
  for (std::size_t i : strokes_near(l.box, radius)) {
    const Stroke& s = strokes_[i];
    if (!stroke_ok(s)) continue;
    double g = gap(l, s);
    if (g > radius) continue;
    cands.push_back({TargetKind::stroke, i, g, center_gap(l, s)});
  }
  // Angles are also read at a corner where two lines meet; names at vertices and dots.
  if (k == LabelKind::angle || k == LabelKind::name || k == LabelKind::text) {
    for (std::size_t i : vertices_near(l.box, radius)) {
      const Vertex& v = vertices_[i];
      if (k == LabelKind::angle && v.degree < 2) continue;
      double g = box_point_gap(l.box, v.p);
      if (g > radius) continue;
      cands.push_back({TargetKind::vertex, i, g, geo::dist(l.center, v.p)});
    }
  }
  // Areas and names may sit inside the closed shape they name.
  if (k == LabelKind::area || k == LabelKind::name || k == LabelKind::text || k == LabelKind::length) {
    for (std::size_t ei = 0; ei < d_->elements.size(); ++ei) {
      const ir::Element& e = d_->elements[ei];
      if (!visible(e)) continue;
      if (k != LabelKind::area && std::holds_alternative<ir::Grid>(e.geom)) continue;
      auto region = geo::element_region(e);
      if (!region) continue;
      ir::Box rb = geo::bounds_of(*region);
      if (!geo::boxes_overlap(rb, l.box)) continue;
      if (!point_in_ring(l.center, *region)) continue;
      if (k == LabelKind::length) continue;  // lengths never name a region
      cands.push_back({TargetKind::region, ei, 0, 0});
    }
  }
  // A label placed on a path (midway, pos=) or attached by label= belongs there by construction.
  if (node.on_path) {
    for (Target& t : cands)
      if (t.kind == TargetKind::stroke && d_->elements[strokes_[t.index].element].path_id == *node.on_path)
        t.center_gap = std::min(t.center_gap, 0.0), t.gap = std::min(t.gap, 0.0);
  }
  if (cands.empty()) return out;

  // Rank: names prefer vertices, then regions; everything else by distance from the centre.
  auto rank = [&](const Target& t) {
    int pri = 0;
    if (k == LabelKind::name) pri = t.kind == TargetKind::vertex ? 0 : 1;
    if (k == LabelKind::angle) pri = t.kind == TargetKind::stroke ? 0 : 1;
    return std::make_pair(pri, t.center_gap);
  };
  std::stable_sort(cands.begin(), cands.end(), [&](const Target& a, const Target& b) { return rank(a) < rank(b); });
  // Names are associated to the nearest vertex when close; otherwise to any nearest element.
  if (k == LabelKind::name && cands.front().kind == TargetKind::vertex && cands.front().gap > 0.5 * radius) {
    std::stable_sort(cands.begin(), cands.end(), [](const Target& a, const Target& b) { return a.center_gap < b.center_gap; });
  }
  out.best = cands.front();

  // The rival: the nearest candidate that means something else (a stroke of another length for
  // lengths, an arc of another sweep for angles, another vertex for names).
  const Target& b = *out.best;
  for (std::size_t i = 1; i < cands.size(); ++i) {
    const Target& c = cands[i];
    if (c.kind != b.kind) continue;
    if (c.kind == TargetKind::stroke) {
      const Stroke& sb = strokes_[b.index];
      const Stroke& sc = strokes_[c.index];
      if (sb.element == sc.element && sb.piece == sc.piece) continue;
      if (k == LabelKind::length) {
        if (sc.kind != StrokeKind::straight || sb.kind != StrokeKind::straight) continue;
        // Two strokes of (nearly) the same length give the label the same meaning (a side and
        // its dimension line).
        if (std::abs(sb.length - sc.length) <= 0.1 * std::max(sb.length, sc.length)) continue;
      } else if (k == LabelKind::angle) {
        if (sc.kind != StrokeKind::arc && sc.kind != StrokeKind::mark) continue;
      } else {
        continue;  // names and text: strokes do not compete with one another
      }
    } else if (c.kind == TargetKind::region) {
      continue;
    }
    out.rival = c;
    break;
  }
  return out;
}

}  // namespace tikzlint::checks
