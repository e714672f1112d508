#include "checks/angles.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace tikzlint::checks {

using geo::Point;

namespace {

constexpr double kDeg = 180.0 / std::numbers::pi;

double direction_deg(Point v) { return std::atan2(v.y, v.x) * kDeg; }

// The ray best aligned with `leg` (within max_dev degrees) among rays long enough to be lines
// the mark sits on.
const Scene::Ray* match_leg(const std::vector<Scene::Ray>& rays, Point leg, double min_length, double max_dev) {
  const Scene::Ray* best = nullptr;
  double best_dev = max_dev;
  for (const Scene::Ray& r : rays) {
    if (r.length < min_length) continue;
    double dev = geo::angle_between_deg(r.dir, leg);
    if (dev <= best_dev) best_dev = dev, best = &r;
  }
  return best;
}

std::optional<RightAngleReading> read_mark(const Scene& s, std::size_t element, Point corner, Point leg_a, Point leg_b,
                                           double max_side, double ratio) {
  double size = std::max(geo::norm(leg_a), geo::norm(leg_b));
  double small = std::min(geo::norm(leg_a), geo::norm(leg_b));
  if (size <= 0 || size > max_side || small < 0.3 * size) return std::nullopt;
  double own = geo::angle_between_deg(leg_a, leg_b);
  if (own < 60 || own > 120) return std::nullopt;  // not drawn as a square corner
  double tol = std::max(1.0, 0.15 * size);
  auto rays = s.rays_at(corner, tol, element);
  const Scene::Ray* ra = match_leg(rays, leg_a, ratio * size, 45);
  const Scene::Ray* rb = match_leg(rays, leg_b, ratio * size, 45);
  if (!ra || !rb || ra == rb) return std::nullopt;
  // A mark stands free inside its angle: no other line passes through its outer corner. (The
  // corner of a square in a tiling of unit squares or cube faces touches its neighbours.)
  Point outer = corner + leg_a + leg_b;
  for (std::size_t i : s.strokes_near({outer.x, outer.y, outer.x, outer.y}, tol)) {
    const Stroke& st = s.strokes()[i];
    if (st.element == element || !st.drawn || st.kind == StrokeKind::grid) continue;
    for (std::size_t k = 1; k < st.pts.size(); ++k)
      if (geo::point_segment_distance(outer, st.pts[k - 1], st.pts[k]) <= tol) return std::nullopt;
  }
  if (geo::angle_between_deg(ra->dir, rb->dir) < 1) return std::nullopt;
  return RightAngleReading{element, corner, size, geo::angle_between_deg(ra->dir, rb->dir)};
}

}  // namespace

std::vector<RightAngleReading> right_angle_marks(const Scene& s, double max_side, double ratio) {
  std::vector<RightAngleReading> out;
  const ir::Diagram& d = s.diagram();
  for (std::size_t ei = 0; ei < d.elements.size(); ++ei) {
    const ir::Element& e = d.elements[ei];
    if (!visible(e) || !e.style.draw) continue;
    std::optional<RightAngleReading> reading;
    auto try_square = [&](const std::array<Point, 4>& c) {
      for (int i = 0; i < 4 && !reading; ++i)
        reading = read_mark(s, ei, c[i], c[(i + 1) % 4] - c[i], c[(i + 3) % 4] - c[i], max_side, ratio);
    };
    if (const auto* m = std::get_if<ir::RightAngleMark>(&e.geom)) {
      // The lowering's marks pass the same test: a small square in the corner of two lines.
      reading = read_mark(s, ei, m->corner, m->leg_a - m->corner, m->leg_b - m->corner, max_side, ratio);
    } else if (const auto* r = std::get_if<ir::Rectangle>(&e.geom)) {
      if (!e.style.fill) try_square(r->corners);
    } else if (const auto* p = std::get_if<ir::Polyline>(&e.geom)) {
      std::vector<Point> pts = p->points;
      if (pts.size() == 5 && geo::dist(pts.front(), pts.back()) < 1e-6) pts.pop_back();
      if (pts.size() == 4 && (p->closed || p->points.size() == 5) && !e.style.fill) {
        try_square({pts[0], pts[1], pts[2], pts[3]});
      } else if (pts.size() == 3 && !p->closed) {
        // An "L": two short legs whose free ends rest on the two lines; the corner is opposite.
        Point corner = pts[0] + pts[2] - pts[1];
        reading = read_mark(s, ei, corner, pts[0] - corner, pts[2] - corner, max_side, ratio);
      }
    }
    if (reading) out.push_back(*reading);
  }
  return out;
}

std::optional<AngleReading> angle_named_by(const Scene& s, const Label& l, double radius,
                                           const std::vector<RightAngleReading>& marks) {
  const ir::Diagram& d = s.diagram();
  Association a = s.associate(l, radius);
  if (!a.best) return std::nullopt;
  const Target& t = *a.best;
  if (t.kind == TargetKind::stroke) {
    const Stroke& st = s.strokes()[t.index];
    const ir::Element& e = d.elements[st.element];
    if (const auto* arc = std::get_if<ir::Arc>(&e.geom)) {
      Point u = arc->from - arc->center, v = arc->to - arc->center;
      double sweep = std::fmod(std::abs(arc->sweep_deg()), 360.0);
      double drawn = std::abs(arc->rx - arc->ry) < 1e-6 ? sweep : geo::angle_between_deg(u, v);
      if (std::abs(arc->rx - arc->ry) >= 1e-6 && sweep > 180) drawn = 360 - drawn;
      auto rays = s.rays_at(arc->center, 1.5, st.element);
      const Scene::Ray* ru = match_leg(rays, u, 0, 20);
      const Scene::Ray* rv = match_leg(rays, v, 0, 20);
      if (ru && rv && ru != rv && geo::angle_between_deg(ru->dir, rv->dir) > 1) {
        drawn = geo::angle_between_deg(ru->dir, rv->dir);
        if (sweep > 180) drawn = 360 - drawn;
      }
      // Two arcs of one circle drawn out of one point, one each way (an angle marked by arrows
      // from its bisector to both sides) are one arc to a reader: a label set toward the point
      // they share, rather than toward this arc's middle, names the angle both span.
      if (std::abs(arc->rx - arc->ry) < 1e-6 && sweep < 180) {
        const double mid = direction_deg(u) + arc->sweep_deg() / 2;
        const double w = direction_deg(l.center - arc->center);
        auto apart = [](double a, double b) {
          const double x = std::fmod(std::abs(a - b), 360.0);
          return x > 180 ? 360 - x : x;
        };
        for (const Stroke& other : s.strokes()) {
          if (other.element == st.element) continue;
          const auto* o = std::get_if<ir::Arc>(&d.elements[other.element].geom);
          if (!o || geo::dist(o->center, arc->center) > 0.5 || std::abs(o->rx - arc->rx) > 0.5 ||
              std::abs(o->ry - arc->ry) > 0.5 || std::abs(o->rx - o->ry) > 1e-6)
            continue;
          const double osweep = std::abs(o->sweep_deg());
          // they share their start, and turn opposite ways from it
          if (geo::dist(o->from, arc->from) > 0.5 || (o->sweep_deg() > 0) == (arc->sweep_deg() > 0) ||
              sweep + osweep >= 180)
            continue;
          const double shared = direction_deg(u);
          if (apart(w, shared) < apart(w, mid)) drawn = sweep + osweep;
          break;
        }
      }
      return AngleReading{AngleReading::Source::arc, t.index, arc->center, drawn};
    }
    for (const RightAngleReading& m : marks)
      if (m.element == st.element) return AngleReading{AngleReading::Source::mark, m.element, m.corner, m.drawn_deg};
    return std::nullopt;
  }
  if (t.kind == TargetKind::vertex) {
    Point v = s.vertices()[t.index].p;
    for (const RightAngleReading& m : marks)
      if (geo::dist(m.corner, v) <= std::max(1.0, 0.2 * m.size))
        return AngleReading{AngleReading::Source::mark, m.element, m.corner, m.drawn_deg};
    auto rays = s.rays_at(v, 1.0);
    if (rays.size() < 2) return std::nullopt;
    std::vector<double> dirs;
    for (const auto& r : rays) dirs.push_back(direction_deg(r.dir));
    std::sort(dirs.begin(), dirs.end());
    double w = direction_deg(l.center - v);
    // The wedge between consecutive rays that holds the label's direction.
    for (std::size_t i = 0; i < dirs.size(); ++i) {
      double lo = dirs[i], hi = i + 1 < dirs.size() ? dirs[i + 1] : dirs[0] + 360;
      double ww = w < lo ? w + 360 : w;
      if (ww >= lo && ww <= hi) {
        double wedge = hi - lo;
        // Outside a two-line corner the reader still means the angle between the lines.
        if (wedge > 180 && rays.size() == 2) wedge = 360 - wedge;
        return AngleReading{AngleReading::Source::corner, t.index, v, wedge};
      }
    }
  }
  return std::nullopt;
}

}  // namespace tikzlint::checks
