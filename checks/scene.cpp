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
  auto add_vertex = [&](Point p, int degree, bool dot, double reach) {
    auto key = std::make_pair(std::llround(p.x * 2), std::llround(p.y * 2));
    auto it = lattice.find(key);
    if (it == lattice.end()) {
      lattice.emplace(key, vertices_.size());
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
  for (std::size_t ni = 0; ni < d.nodes.size(); ++ni) {
    const ir::Node& n = d.nodes[ni];
    if (!geo::finite(n.center)) continue;
    if (is_vertex_dot(n)) add_vertex(n.center, 0, true, 0);
    if (has_text(n)) {
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
  if (!extent_pts.empty()) extent_ = geo::bounds_of(extent_pts);
  for (std::size_t ei = 0; ei < d.elements.size(); ++ei) {
    const ir::Element& e = d.elements[ei];
    if (!visible(e)) continue;
    if (auto region = geo::element_region(e)) {
      if (std::all_of(region->begin(), region->end(), geo::finite)) region_index_.insert(geo::bounds_of(*region), ei);
    }
  }
}

std::vector<std::size_t> Scene::regions_near(const ir::Box& b) const { return region_index_.query(b); }

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
  Association out;
  const LabelKind k = l.text.kind;
  const ir::Node& node = d_->nodes[l.node];
  const double search = 3 * attach;
  const double glyph_h = std::max(4.0, l.glyphs.height());

  // label= / pin=: attached to its owner by construction.
  if (node.label_of && *node.label_of < d_->nodes.size()) {
    const ir::Node& owner = d_->nodes[*node.label_of];
    out.best = Target{TargetKind::owner, *node.label_of, box_point_gap(l.box, owner.center), geo::dist(l.center, owner.center)};
    return out;
  }

  std::vector<Target> beside, strokes, vertices, regions;
  for (std::size_t i : strokes_near(l.box, search)) {
    const Stroke& s = strokes_[i];
    if (s.kind == StrokeKind::grid) continue;
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
    auto region = geo::element_region(e);
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
      if (arc && (arc->gap <= attach || !corner)) {
        out.best = arc;
        for (std::size_t i = 1; i < strokes.size(); ++i) {
          const Stroke& a = strokes_[arc->index];
          const Stroke& b = strokes_[strokes[i].index];
          if (a.element == b.element || b.kind != a.kind) continue;
          // Concentric arcs of one angle (double arcs) mean the same angle.
          const auto* aa = std::get_if<ir::Arc>(&d_->elements[a.element].geom);
          const auto* ab = std::get_if<ir::Arc>(&d_->elements[b.element].geom);
          if (aa && ab && geo::dist(aa->center, ab->center) < glyph_h &&
              std::abs(std::abs(aa->sweep_deg()) - std::abs(ab->sweep_deg())) < 1)
            continue;
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
