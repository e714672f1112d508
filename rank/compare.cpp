// rank/compare.cpp: similarity of two pictures on the IR (docs/rank.md). Labels are matched by
// content; strokes are sampled along their length and compared after normalising position and
// scale (symmetric Chamfer distance, as vector-sketch work measures drawings); arrow tips the
// same way; the graph structure is the set of labelled nodes joined by a stroke, with direction.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <variant>

#include "rank/rank.hpp"
#include "spec/spec.hpp"

namespace tikzlint::rank {

using ir::Point;

const checks::RuleDoc& doc() {
  static const checks::RuleDoc d{
      "compare",
      "how close a candidate diagram is to a reference (tikzlint compare, rank --reference)",
      "Compares two pictures on the IR, without rendering. Positions are first normalised: each "
      "picture is shifted so that the centre of the box around everything visible (its strokes "
      "and the centres of its labelled nodes; not their boxes, as text keeps its size when a "
      "picture is scaled) is the origin and scaled so that half that box's diagonal is 1 (the "
      "picture's size), so a uniform scale and shift changes nothing. Parts: labels (node texts matched by content after "
      "normalising TeX, Dice coefficient), label_positions (matched labels' normalised centres), "
      "strokes (points sampled along every visible stroke, symmetric Chamfer distance), arrows "
      "(the arrow tips' points, the same distance) and structure (which labelled nodes a stroke "
      "joins, and in which direction). A distance counts only beyond position_tolerance, and "
      "scores exp(-excess / distance_scale). The combined score is the weighted mean of the parts "
      "that apply (a part applies when either picture has what it measures).",
      "",
      "",
      {
          {"position_tolerance", 0.02, "ratio",
           "a shift of 2% of the picture's size (1 mm on a 5 cm figure, a few line widths) is not "
           "seen as a change of position"},
          {"distance_scale", 0.1, "ratio",
           "an average displacement of 10% of the picture's size beyond the tolerance (5 mm on a "
           "5 cm figure: a clearly different layout) scores exp(-1) = 0.37"},
          {"endpoint_gap_pt", 8.0, "pt",
           "a stroke's end this close to a node's box joins it: outer sep, a shortened end and "
           "an arrow tip take up to about 8pt (the spec's endpoint_gap_pt)"},
      }};
  return d;
}

namespace {

constexpr std::size_t kSamples = 600;   // points per picture along its strokes (resolution)
constexpr int kCurveSteps = 32;         // a curve's polygon before resampling

using Polyline = std::vector<Point>;

Point at_ellipse(Point c, double rx, double ry, double rot_deg, double t_deg) {
  const double t = t_deg * std::numbers::pi / 180, r = rot_deg * std::numbers::pi / 180;
  const double x = rx * std::cos(t), y = ry * std::sin(t);
  return {c.x + x * std::cos(r) - y * std::sin(r), c.y + x * std::sin(r) + y * std::cos(r)};
}

// The visible strokes of an element as polylines (curves flattened).
void strokes_of(const ir::Element& e, std::vector<Polyline>& out) {
  std::visit(
      [&](const auto& g) {
        using G = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<G, ir::Segment>) {
          out.push_back({g.a, g.b});
        } else if constexpr (std::is_same_v<G, ir::Polyline>) {
          Polyline p = g.points;
          if (g.closed && !p.empty()) p.push_back(p.front());
          out.push_back(std::move(p));
        } else if constexpr (std::is_same_v<G, ir::Rectangle> || std::is_same_v<G, ir::Grid>) {
          out.push_back({g.corners[0], g.corners[1], g.corners[2], g.corners[3], g.corners[0]});
        } else if constexpr (std::is_same_v<G, ir::Circle>) {
          Polyline p;
          for (int i = 0; i <= kCurveSteps; ++i) p.push_back(at_ellipse(g.center, g.radius, g.radius, 0, 360.0 * i / kCurveSteps));
          out.push_back(std::move(p));
        } else if constexpr (std::is_same_v<G, ir::Ellipse>) {
          Polyline p;
          for (int i = 0; i <= kCurveSteps; ++i) p.push_back(at_ellipse(g.center, g.rx, g.ry, g.rotation_deg, 360.0 * i / kCurveSteps));
          out.push_back(std::move(p));
        } else if constexpr (std::is_same_v<G, ir::Arc>) {
          Polyline p;
          for (int i = 0; i <= kCurveSteps; ++i)
            p.push_back(at_ellipse(g.center, g.rx, g.ry, g.rotation_deg, g.start_deg + g.sweep_deg() * i / kCurveSteps));
          out.push_back(std::move(p));
        } else if constexpr (std::is_same_v<G, ir::Bezier>) {
          Polyline p;
          for (int i = 0; i <= kCurveSteps; ++i) {
            const double t = double(i) / kCurveSteps, u = 1 - t;
            const double a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;
            p.push_back({a * g.p0.x + b * g.c1.x + c * g.c2.x + d * g.p1.x, a * g.p0.y + b * g.c1.y + c * g.c2.y + d * g.p1.y});
          }
          out.push_back(std::move(p));
        } else if constexpr (std::is_same_v<G, ir::RightAngleMark>) {
          const Point far{g.leg_a.x + g.leg_b.x - g.corner.x, g.leg_a.y + g.leg_b.y - g.corner.y};
          out.push_back({g.leg_a, far, g.leg_b});
        } else if constexpr (std::is_same_v<G, ir::Face3D>) {
          Polyline p = g.points;
          if (!p.empty()) p.push_back(p.front());
          out.push_back(std::move(p));
        } else if constexpr (std::is_same_v<G, ir::Plot>) {
          out.push_back(g.points);
        }
      },
      e.geom);
}

bool visible(const ir::Element& e) { return !e.style.invisible && (e.style.draw || e.style.fill); }

double dist(Point a, Point b) { return std::hypot(a.x - b.x, a.y - b.y); }

// kSamples points spread evenly along the total length of `lines` (every line gets its ends).
std::vector<Point> sample(const std::vector<Polyline>& lines) {
  double total = 0;
  for (const auto& l : lines)
    for (std::size_t i = 1; i < l.size(); ++i) total += dist(l[i - 1], l[i]);
  std::vector<Point> out;
  if (!(total > 0) || !std::isfinite(total)) {
    for (const auto& l : lines)
      for (const auto& p : l) out.push_back(p);
    return out;
  }
  const double step = total / kSamples;
  for (const auto& l : lines) {
    if (l.empty()) continue;
    out.push_back(l.front());
    double carry = 0;  // length since the last sample
    for (std::size_t i = 1; i < l.size(); ++i) {
      const double len = dist(l[i - 1], l[i]);
      double s = step - carry;
      while (s < len) {
        const double t = s / len;
        out.push_back({l[i - 1].x + t * (l[i].x - l[i - 1].x), l[i - 1].y + t * (l[i].y - l[i - 1].y)});
        s += step;
      }
      carry = len - (s - step);
    }
    out.push_back(l.back());
  }
  return out;
}

// Where a picture is and how large: its points are mapped by (p - origin) / size, origin the
// centre of the box around everything visible (stroke samples and labelled nodes' centres) and
// size half that box's diagonal. A uniform scale and shift of the whole picture maps to the same points.
struct Frame {
  Point origin;
  double size = 1;
  Point map(Point p) const { return {(p.x - origin.x) / size, (p.y - origin.y) / size}; }
};

Frame frame_of(const std::vector<Point>& pts) {
  Frame f;
  if (pts.empty()) return f;
  double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  for (const auto& p : pts) x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
  f.origin = {(x0 + x1) / 2, (y0 + y1) / 2};
  const double s = std::hypot(x1 - x0, y1 - y0) / 2;
  f.size = s > 1e-9 && std::isfinite(s) ? s : 1;
  return f;
}

// Mean over `from` of the distance to the nearest point of `to`, less the tolerance.
double directed_excess(const std::vector<Point>& from, const std::vector<Point>& to, double tol, double& worst) {
  if (from.empty()) return 0;
  double sum = 0;
  for (const auto& p : from) {
    double best = INFINITY;
    for (const auto& q : to) best = std::min(best, (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y));
    best = std::sqrt(best);
    worst = std::max(worst, best);
    sum += std::max(0.0, best - tol);
  }
  return sum / from.size();
}

std::string fmt(double v, int digits = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string pct(double v) { return fmt(100 * v, 0) + "%"; }

struct Label {
  std::string text;  // normalised
  std::string key;   // without spaces
  Point centre;      // normalised
};

std::vector<Label> labels_of(const ir::Diagram& d, const Frame& f) {
  std::vector<Label> out;
  for (const auto& n : d.nodes) {
    std::string t = spec::normalise_text(n.text);
    if (t.empty()) continue;
    std::string key;
    for (char c : t)
      if (c != ' ') key += c;
    out.push_back({t, key, f.map(n.center)});
  }
  return out;
}

// A labelled node at a stroke's end: the nearest box within the gap.
std::optional<std::string> node_at(const ir::Diagram& d, Point p, double gap) {
  double best = gap;
  std::optional<std::string> out;
  for (const auto& n : d.nodes) {
    std::string t = spec::normalise_text(n.text);
    if (t.empty()) continue;
    const double dx = std::max({n.box.xmin - p.x, 0.0, p.x - n.box.xmax});
    const double dy = std::max({n.box.ymin - p.y, 0.0, p.y - n.box.ymax});
    const double g = std::hypot(dx, dy);
    if (g <= best) best = g, out = t;
  }
  return out;
}

// A joined pair of labelled nodes: from, to, directed (else from < to).
using Edge = std::tuple<std::string, std::string, bool>;

struct Picture {
  std::vector<Point> samples, tips;
  std::vector<Label> labels;
  std::vector<Edge> edges;
  double size = 0;  // the frame's size in pt (0: nothing visible)
  bool empty = true;
};

Picture read(const ir::Diagram* d, double gap) {
  Picture p;
  if (!d) return p;
  std::vector<Polyline> lines;
  std::vector<Point> raw_tips;
  for (const auto& e : d->elements) {
    if (!visible(e)) continue;
    std::size_t first = lines.size();
    strokes_of(e, lines);
    if (lines.size() == first || lines[first].size() < 2) continue;
    const Point a = lines[first].front(), b = lines.back().back();
    if (e.style.arrow_start) raw_tips.push_back(a);
    if (e.style.arrow_end) raw_tips.push_back(b);
    auto na = node_at(*d, a, gap), nb = node_at(*d, b, gap);
    if (na && nb && *na != *nb) {
      if (e.style.arrow_end && !e.style.arrow_start) p.edges.emplace_back(*na, *nb, true);
      else if (e.style.arrow_start && !e.style.arrow_end) p.edges.emplace_back(*nb, *na, true);
      else p.edges.emplace_back(std::min(*na, *nb), std::max(*na, *nb), false);
    }
  }
  std::vector<Point> raw = sample(lines);
  std::vector<Point> basis = raw;
  for (const auto& n : d->nodes) {
    if (spec::normalise_text(n.text).empty()) continue;
    basis.push_back(n.center);  // not its box: text keeps its size when a picture is scaled
  }
  const Frame f = frame_of(basis);
  for (const auto& q : raw) p.samples.push_back(f.map(q));
  for (const auto& q : raw_tips) p.tips.push_back(f.map(q));
  p.labels = labels_of(*d, f);
  p.empty = p.samples.empty() && p.labels.empty();
  if (!basis.empty()) p.size = f.size;
  return p;
}

double closeness(double excess, double scale) { return std::exp(-excess / scale); }

Part labels_part(const Picture& a, const Picture& b) {
  Part part;
  part.name = "labels";
  part.applies = !a.labels.empty() || !b.labels.empty();
  std::map<std::string, std::pair<int, int>> counts;
  std::map<std::string, std::string> shown;
  for (const auto& l : a.labels) ++counts[l.key].first, shown.emplace(l.key, l.text);
  for (const auto& l : b.labels) ++counts[l.key].second, shown.emplace(l.key, l.text);
  int matched = 0;
  for (const auto& [key, c] : counts) {
    matched += std::min(c.first, c.second);
    for (int i = c.second; i < c.first; ++i) part.changes.push_back("label '" + shown[key] + "' is in A, not in B");
    for (int i = c.first; i < c.second; ++i) part.changes.push_back("label '" + shown[key] + "' is in B, not in A");
  }
  const std::size_t n = a.labels.size() + b.labels.size();
  part.score = n ? 2.0 * matched / n : 1;
  part.evidence = {{"labels_a", a.labels.size()}, {"labels_b", b.labels.size()}, {"matched", matched}};
  return part;
}

Part positions_part(const Picture& a, const Picture& b, double tol, double scale) {
  Part part;
  part.name = "label_positions";
  // Pair the labels of one text nearest first.
  std::map<std::string, std::vector<const Label*>> in_b;
  for (const auto& l : b.labels) in_b[l.key].push_back(&l);
  struct Pair { const Label *a, *b; double d; };
  std::vector<Pair> pairs;
  std::map<std::string, std::vector<const Label*>> in_a;
  for (const auto& l : a.labels) in_a[l.key].push_back(&l);
  for (auto& [key, as] : in_a) {
    auto it = in_b.find(key);
    if (it == in_b.end()) continue;
    std::vector<const Label*> bs = it->second;
    std::vector<Pair> all;
    for (auto* la : as)
      for (auto* lb : bs) all.push_back({la, lb, dist(la->centre, lb->centre)});
    std::sort(all.begin(), all.end(), [](const Pair& x, const Pair& y) { return x.d < y.d; });
    std::vector<const Label*> used;
    for (const auto& p : all) {
      if (std::find(used.begin(), used.end(), p.a) != used.end() || std::find(used.begin(), used.end(), p.b) != used.end()) continue;
      used.push_back(p.a), used.push_back(p.b);
      pairs.push_back(p);
    }
  }
  part.applies = !pairs.empty();
  if (!part.applies) return part;
  double sum = 0, worst = 0;
  std::vector<const Pair*> moved;
  for (const auto& p : pairs) {
    sum += std::max(0.0, p.d - tol);
    worst = std::max(worst, p.d);
    if (p.d > tol) moved.push_back(&p);
  }
  const double excess = sum / pairs.size();
  part.score = closeness(excess, scale);
  std::vector<bool> told(moved.size(), false);
  for (std::size_t i = 0; i < moved.size(); ++i)
    for (std::size_t j = i + 1; j < moved.size() && !told[i]; ++j) {
      // Two labels that each went where the other was: a swap.
      if (dist(moved[i]->b->centre, moved[j]->a->centre) <= tol && dist(moved[j]->b->centre, moved[i]->a->centre) <= tol) {
        part.changes.push_back("labels '" + moved[i]->a->text + "' and '" + moved[j]->a->text + "' swapped places");
        told[i] = told[j] = true;
      }
    }
  for (std::size_t i = 0; i < moved.size(); ++i)
    if (!told[i])
      part.changes.push_back("label '" + moved[i]->a->text + "' moved by " + pct(moved[i]->d) + " of the picture's size");
  part.evidence = {{"pairs", pairs.size()}, {"mean_excess", excess}, {"largest_shift", worst}, {"unit", "picture size"}};
  return part;
}

Part chamfer_part(const char* name, const char* what, const std::vector<Point>& a, const std::vector<Point>& b,
                  double tol, double scale) {
  Part part;
  part.name = name;
  part.applies = !a.empty() || !b.empty();
  if (!part.applies) return part;
  if (a.empty() || b.empty()) {
    part.score = 0;
    part.changes.push_back(std::string(a.empty() ? "B" : "A") + " has " + what + ", the other none");
    part.evidence = {{"points_a", a.size()}, {"points_b", b.size()}};
    return part;
  }
  double worst_ab = 0, worst_ba = 0;
  const double ab = directed_excess(a, b, tol, worst_ab), ba = directed_excess(b, a, tol, worst_ba);
  const double chamfer = (ab + ba) / 2;
  part.score = closeness(chamfer, scale);
  if (worst_ab > tol) part.changes.push_back(std::string(what) + " of A are up to " + pct(worst_ab) + " of the picture's size from any of B");
  if (worst_ba > tol) part.changes.push_back(std::string(what) + " of B are up to " + pct(worst_ba) + " of the picture's size from any of A");
  part.evidence = {{"chamfer_excess", chamfer}, {"a_to_b", ab}, {"b_to_a", ba}, {"points_a", a.size()},
                   {"points_b", b.size()}, {"tolerance", tol}, {"unit", "picture size"}};
  return part;
}

std::string edge_text(const Edge& e) {
  return "'" + std::get<0>(e) + "' " + (std::get<2>(e) ? "→" : "—") + " '" + std::get<1>(e) + "'";
}

Part structure_part(const Picture& a, const Picture& b) {
  Part part;
  part.name = "structure";
  part.applies = !a.edges.empty() || !b.edges.empty();
  if (!part.applies) return part;
  std::vector<Edge> rest_b = b.edges, rest_a;
  int matched = 0;
  for (const auto& e : a.edges) {
    auto it = std::find(rest_b.begin(), rest_b.end(), e);
    if (it != rest_b.end()) {
      ++matched;
      rest_b.erase(it);
    } else {
      rest_a.push_back(e);
    }
  }
  double reversed = 0;
  for (const auto& e : rest_a) {
    // Named references, not a structured binding: clang before 16 cannot capture those.
    const std::string &from = std::get<0>(e), &to = std::get<1>(e);
    const bool directed = std::get<2>(e);
    // The same two nodes, joined the other way (or with the tip gone or added).
    auto it = std::find_if(rest_b.begin(), rest_b.end(), [&](const Edge& o) {
      return (std::get<0>(o) == to && std::get<1>(o) == from) || (std::get<0>(o) == from && std::get<1>(o) == to);
    });
    if (it != rest_b.end()) {
      reversed += 0.5;
      part.changes.push_back("edge " + edge_text(e) + " in A is " + edge_text(*it) + " in B" +
                             (directed && std::get<2>(*it) ? " (reversed)" : ""));
      rest_b.erase(it);
    } else {
      part.changes.push_back("edge " + edge_text(e) + " is in A, not in B");
    }
  }
  for (const auto& e : rest_b)
    if (std::none_of(rest_a.begin(), rest_a.end(), [&](const Edge& o) {
          return (std::get<0>(o) == std::get<1>(e) && std::get<1>(o) == std::get<0>(e)) || o == e;
        }))
      part.changes.push_back("edge " + edge_text(e) + " is in B, not in A");
  part.score = 2.0 * (matched + reversed) / (a.edges.size() + b.edges.size());
  part.evidence = {{"edges_a", a.edges.size()}, {"edges_b", b.edges.size()}, {"matched", matched}};
  return part;
}

}  // namespace

nlohmann::json Similarity::to_json() const {
  nlohmann::json parts_j = nlohmann::json::array();
  for (const auto& p : parts)
    parts_j.push_back({{"name", p.name}, {"score", p.score}, {"weight", p.weight}, {"applies", p.applies},
                       {"changes", p.changes}, {"evidence", p.evidence}});
  return {{"score", score}, {"size_ratio", size_ratio}, {"parts", parts_j}};
}

Similarity compare(const ir::Diagram& a, const ir::Diagram& b, const checks::Config& cfg) {
  return compare(std::vector<ir::Diagram>{a}, std::vector<ir::Diagram>{b}, cfg);
}

Similarity compare(const std::vector<ir::Diagram>& da, const std::vector<ir::Diagram>& db, const checks::Config& cfg) {
  const auto& d = doc();
  const double tol = cfg.get(d, "position_tolerance"), scale = cfg.get(d, "distance_scale"), gap = cfg.get(d, "endpoint_gap_pt");
  const Picture a = read(da.empty() ? nullptr : &da.front(), gap);
  const Picture b = read(db.empty() ? nullptr : &db.front(), gap);
  Similarity s;
  // Weights: what a reader checks first (the texts and the drawing) weighs most.
  s.parts.push_back(labels_part(a, b));
  s.parts.back().weight = 0.25;
  s.parts.push_back(positions_part(a, b, tol, scale));
  s.parts.back().weight = 0.2;
  s.parts.push_back(chamfer_part("strokes", "strokes", a.samples, b.samples, tol, scale));
  s.parts.back().weight = 0.25;
  s.parts.push_back(chamfer_part("arrows", "arrow tips", a.tips, b.tips, tol, scale));
  s.parts.back().weight = 0.1;
  s.parts.push_back(structure_part(a, b));
  s.parts.back().weight = 0.2;
  double sum = 0, weights = 0;
  for (auto& p : s.parts) {
    if (!p.applies) p.weight = 0;
    sum += p.weight * p.score;
    weights += p.weight;
  }
  s.score = weights > 0 ? std::clamp(sum / weights, 0.0, 1.0) : 1.0;
  if (a.size > 0 && b.size > 0) s.size_ratio = b.size / a.size;
  return s;
}

}  // namespace tikzlint::rank
