// checks/scene_reading.cpp: what a picture is and what its numbers state (Scene::picture,
// Scene::reading). Read once per diagram, on evidence only: a number states a length, area or
// angle when it carries a unit or a degree sign, sits on a dimension line, or is placed along a
// side (on the path, or beside the middle of a segment), or labels another side of a shape one
// of whose sides is so labelled. Evenly spaced numbers in a row are ticks; a number inside a drawn
// node numbers it; a number on an edge of a graph weighs it.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "checks/scene.hpp"

namespace tikzlint::checks {

using geo::Point;

const char* to_string(PictureKind k) {
  switch (k) {
    case PictureKind::geometric: return "geometric figure";
    case PictureKind::graph: return "graph";
    case PictureKind::flowchart: return "flowchart";
    case PictureKind::plot: return "plot";
    case PictureKind::table: return "table";
    case PictureKind::circuit: return "circuit";
    case PictureKind::other: return "other";
  }
  return "other";
}

const char* to_string(LabelRole r) {
  switch (r) {
    case LabelRole::measurement: return "measurement";
    case LabelRole::tick: return "tick label";
    case LabelRole::index: return "index";
    case LabelRole::weight: return "edge weight";
    case LabelRole::equation: return "equation";
    case LabelRole::number: return "number";
    case LabelRole::none: return "none";
  }
  return "none";
}

namespace {

// How near a label must be to the side it names: two text lines at 12pt, as the measurement
// rules' association_pt.
constexpr double kAttachPt = 24;
// A label beside a side measures it when its centre projects on the middle of the side, away
// from the ends where vertex names and indices sit: the middle three fifths.
constexpr double kMiddleFrom = 0.2, kMiddleTo = 0.8;
// Another labelled side of the same shape: anywhere but the last tenth at either end.
constexpr double kSideFrom = 0.1, kSideTo = 0.9;
// Tick labels: at least three numbers on one row (centres within kRowTolPt), spaced evenly
// (within kSpacingTol of the mean spacing or 1pt) with values in arithmetic progression.
constexpr std::size_t kMinTicks = 3;
constexpr double kRowTolPt = 2.0;
constexpr double kSpacingTol = 0.1;
// A node an edge ends at: the edge's end lies within kBorderPt of the node's border box (pgf
// stops an edge at the border, outer sep beyond it), and a straight end points at the centre.
constexpr double kBorderPt = 2.0;

// A node placed at the middle of a side: its anchor point within kOnSidePt of the side (pgf's
// outer sep, .5\pgflinewidth, and rounding), between kAnchorFrom and kAnchorTo of its length.
constexpr double kOnSidePt = 2.0;
constexpr double kPtPerMetre = 7227.0 / 2.54;  // 72.27pt per inch
constexpr double kAnchorFrom = 0.35, kAnchorTo = 0.65;
// A node placed at a vertex dot: its anchor point within the dot (vertex dots are at most 12pt
// across, Scene's limit) plus the outer sep.
constexpr double kDotReachPt = 6.0 + kOnSidePt;
// A node placed at a pin of a symbol: its anchor point on the symbol's box, within the outer sep
// and rounding (kOnSidePt).
constexpr double kPinReachPt = kOnSidePt;

// The point a node was placed at, from its placement ("above", "below left", ...): the middle
// of the border side (or corner) opposite the direction; nullopt for other placements.
std::optional<Point> anchor_point(const ir::Node& n) {
  if (std::abs(n.rotation_deg) > 1e-9 || n.placement.empty() || n.label_of) return std::nullopt;
  const std::string& p = n.placement;
  auto has = [&](const char* w) { return p.find(w) != std::string::npos; };
  if (p.find('=') != std::string::npos || has("of ")) return std::nullopt;  // anchor=, pos=, above=of
  const bool above = has("above"), below = has("below"), left = has("left"), right = has("right");
  if (!(above || below || left || right)) return std::nullopt;
  Point c = n.center;
  double x = left ? n.box.xmax : right ? n.box.xmin : c.x;
  double y = above ? n.box.ymin : below ? n.box.ymax : c.y;
  return Point{x, y};
}

bool numeric(const LabelText& t) {
  return t.value && (t.kind == LabelKind::length || t.kind == LabelKind::area || t.kind == LabelKind::angle);
}

double projection(Point c, const Stroke& s) {
  Point a = s.pts.front(), b = s.pts.back();
  double len2 = geo::dot(b - a, b - a);
  return len2 > 0 ? geo::dot(c - a, b - a) / len2 : 0.5;
}

// Labels (indices into `labels`) that are evenly spaced numbers along a row (axis 0: same y,
// spaced in x) or a column (axis 1); each run as its own list.
std::vector<std::vector<std::size_t>> tick_runs(const std::vector<Label>& labels, int axis) {
  std::vector<std::size_t> cand;
  for (std::size_t i = 0; i < labels.size(); ++i)
    if ((labels[i].text.kind == LabelKind::length || labels[i].text.kind == LabelKind::angle) && labels[i].text.value &&
        labels[i].text.unit.empty() && labels[i].text.prefix.empty())
      cand.push_back(i);
  auto across = [&](std::size_t i) { return axis == 0 ? labels[i].center.y : labels[i].center.x; };
  auto along = [&](std::size_t i) { return axis == 0 ? labels[i].center.x : labels[i].center.y; };
  std::stable_sort(cand.begin(), cand.end(), [&](std::size_t a, std::size_t b) { return across(a) < across(b); });
  std::vector<std::vector<std::size_t>> runs;
  for (std::size_t i = 0; i < cand.size();) {
    std::size_t j = i;
    while (j < cand.size() && across(cand[j]) - across(cand[i]) <= kRowTolPt) ++j;
    std::vector<std::size_t> row(cand.begin() + static_cast<long>(i), cand.begin() + static_cast<long>(j));
    i = j;
    if (row.size() < kMinTicks) continue;
    std::stable_sort(row.begin(), row.end(), [&](std::size_t a, std::size_t b) { return along(a) < along(b); });
    // Maximal runs of equal spacing and equal value steps.
    std::size_t start = 0;
    auto even = [&](std::size_t k) {  // row[k-1], row[k], row[k+1] evenly spaced and stepped
      double s1 = along(row[k]) - along(row[k - 1]), s2 = along(row[k + 1]) - along(row[k]);
      double v1 = *labels[row[k]].text.value - *labels[row[k - 1]].text.value;
      double v2 = *labels[row[k + 1]].text.value - *labels[row[k]].text.value;
      return s1 > 1 && std::abs(s1 - s2) <= std::max(1.0, kSpacingTol * std::max(s1, s2)) && v1 != 0 &&
             std::abs(v1 - v2) <= 1e-6 * std::max(std::abs(v1), std::abs(v2));
    };
    for (std::size_t k = 1; k + 1 <= row.size(); ++k) {
      bool extend = k + 1 < row.size() && even(k);
      if (!extend) {
        // run is row[start .. k] when k - start + 1 >= kMinTicks
        if (k - start + 1 >= kMinTicks) runs.emplace_back(row.begin() + static_cast<long>(start), row.begin() + static_cast<long>(k + 1));
        start = k;
      }
    }
  }
  return runs;
}

// The two ends of an open line (with the point before each, for the direction it arrives in).
struct Ends {
  Point a, a_from, b, b_from;
  bool straight = true;
};
std::optional<Ends> ends_of(const ir::Geometry& g) {
  if (const auto* s = std::get_if<ir::Segment>(&g)) return Ends{s->a, s->b, s->b, s->a, true};
  if (const auto* p = std::get_if<ir::Polyline>(&g)) {
    if (p->closed || p->points.size() < 2) return std::nullopt;
    const auto& v = p->points;
    return Ends{v.front(), v[1], v.back(), v[v.size() - 2], true};
  }
  if (const auto* b = std::get_if<ir::Bezier>(&g)) return Ends{b->p0, b->c1, b->p1, b->c2, false};
  if (const auto* p = std::get_if<ir::Plot>(&g)) {
    if (p->points.size() < 2) return std::nullopt;
    return Ends{p->points.front(), p->points[1], p->points.back(), p->points[p->points.size() - 2], false};
  }
  if (const auto* a = std::get_if<ir::Arc>(&g)) return Ends{a->from, a->from, a->to, a->to, false};
  return std::nullopt;
}

double box_point_gap(const ir::Box& b, Point p) {
  double dx = std::max({b.xmin - p.x, 0.0, p.x - b.xmax});
  double dy = std::max({b.ymin - p.y, 0.0, p.y - b.ymax});
  return std::hypot(dx, dy);
}

}  // namespace

const PictureReading& Scene::picture() const {
  read();
  return s_->picture;
}

bool Scene::joined(std::size_t ni) const {
  read();
  return s_->joined_nodes.count(ni) > 0;
}

const LabelReading& Scene::reading(const Label& l) const {
  static const LabelReading kNone;
  read();
  std::size_t i = label_index(l);
  return i < s_->label_readings.size() ? s_->label_readings[i] : kNone;
}

void Scene::read() const {
  if (s_->read) return;
  s_->read = true;
  const ir::Diagram& d = *d_;
  const auto& labels = s_->labels;
  const auto& strokes = s_->strokes;
  auto& roles = s_->label_readings;
  roles.assign(labels.size(), {});

  // 1. Tick labels.
  std::vector<bool> tick(labels.size(), false);
  std::vector<std::vector<std::size_t>> runs[2] = {tick_runs(labels, 0), tick_runs(labels, 1)};
  for (const auto& rs : runs)
    for (const auto& run : rs)
      for (std::size_t i : run) tick[i] = true;

  // 1b. Positions along a line: lengths with a physical unit centred on one straight line, each
  // as far along it from the same end as it states (a ruler, points at partway distances). Two
  // at least: one label at the distance it states may be a coincidence.
  std::vector<bool> position(labels.size(), false);
  {
    std::map<std::pair<std::size_t, int>, std::vector<std::size_t>> at_distance;  // (stroke, end) -> labels
    for (std::size_t i = 0; i < labels.size(); ++i) {
      const Label& l = labels[i];
      if (l.text.kind != LabelKind::length || !l.text.value || !(l.text.unit_in_m > 0)) continue;
      const double stated = *l.text.value * l.text.unit_in_m * kPtPerMetre;
      for (std::size_t si : strokes_near({l.center.x, l.center.y, l.center.x, l.center.y}, kOnSidePt)) {
        const Stroke& st = strokes[si];
        if (st.kind != StrokeKind::straight || st.length <= 0) continue;
        if (geo::point_segment_distance(l.center, st.pts.front(), st.pts.back()) > kOnSidePt) continue;
        const double along = projection(l.center, st) * st.length;
        if (std::abs(along - stated) <= kOnSidePt) at_distance[{si, 0}].push_back(i);
        if (std::abs(st.length - along - stated) <= kOnSidePt) at_distance[{si, 1}].push_back(i);
      }
    }
    for (const auto& [key, ids] : at_distance)
      if (ids.size() >= 2)
        for (std::size_t i : ids) position[i] = true;
  }

  // 2. Edges between nodes: open lines whose both ends stop at two different nodes' borders.
  // The nodes an edge can end at, indexed by their boxes widened by the border slack.
  BoxIndex node_index;
  for (std::size_t ni = 0; ni < d.nodes.size(); ++ni) {
    const ir::Node& n = d.nodes[ni];
    if (n.shape == ir::NodeShape::coordinate || n.label_of || !(has_text(n) || n.drawn || n.filled)) continue;
    if (!(n.box.width() > 0 && n.box.height() > 0) || !geo::finite(n.center)) continue;
    node_index.insert(geo::inflate(n.box, kBorderPt + n.outer_sep), ni);
  }
  auto end_node = [&](Point p, Point from, bool straight, std::uint32_t path) -> std::optional<std::size_t> {
    std::optional<std::size_t> best;
    double best_area = INFINITY;
    if (!geo::finite(p)) return best;
    for (std::size_t ni : node_index.query({p.x, p.y, p.x, p.y})) {
      const ir::Node& n = d.nodes[ni];
      // A node placed on the line itself (midway, pos=) is its label, not where it ends.
      if (n.on_path && *n.on_path == path) continue;
      if (box_point_gap(n.box, p) > kBorderPt + n.outer_sep) continue;
      // An end at the centre is a line drawn to a point the node marks (a vertex dot), not an
      // edge stopped at a border.
      double half = 0.5 * std::min(n.box.width(), n.box.height());
      if (geo::dist(p, n.center) < 0.5 * half) continue;
      if (straight) {
        Point dir = p - from;
        double len = geo::norm(dir);
        if (len <= 0) continue;
        double off = std::abs(geo::cross(dir, n.center - p)) / len;
        if (off > std::max(1.5, 0.25 * half)) continue;
      }
      double area = n.box.width() * n.box.height();
      if (area < best_area) best_area = area, best = ni;
    }
    return best;
  };
  int lines = 0, edges = 0, arrowed = 0;
  std::set<std::size_t> joined;
  std::set<std::uint32_t> edge_paths;
  for (const ir::Element& e : d.elements) {
    if (!visible(e) || !e.style.draw || std::holds_alternative<ir::Grid>(e.geom)) continue;
    ++lines;
    auto ends = ends_of(e.geom);
    if (!ends) continue;
    auto na = end_node(ends->a, ends->a_from, ends->straight, e.path_id);
    auto nb = end_node(ends->b, ends->b_from, ends->straight, e.path_id);
    if (!na || !nb || *na == *nb) continue;
    ++edges;
    edge_paths.insert(e.path_id);
    if (e.style.arrow_start || e.style.arrow_end) ++arrowed;
    joined.insert(*na);
    joined.insert(*nb);
  }
  int boxes = 0;
  for (std::size_t ni : joined) {
    const ir::Node& n = d.nodes[ni];
    if (n.drawn && n.shape == ir::NodeShape::rectangle && has_text(n)) ++boxes;
  }

  // 3. Plots: a pgfplots axis, or a row of tick labels along a straight line as long as the row.
  bool axis = d.uses_axis;
  for (const Diagnostic& diag : d.diagnostics) axis |= diag.rule == "approximate-axis";
  std::string axis_why = axis ? "a pgfplots axis" : "";
  // A package's axis system (a data visualization) sets its tick labels as its own text.
  if (!axis && std::any_of(d.nodes.begin(), d.nodes.end(), [](const ir::Node& n) { return n.role == "tick label"; }))
    axis = true, axis_why = "an axis whose tick labels a package set";
  for (int ax = 0; ax < 2 && !axis; ++ax)
    for (const auto& run : runs[ax]) {
      const Label& first = labels[run.front()];
      const Label& last = labels[run.back()];
      double lo = ax == 0 ? first.center.x : first.center.y, hi = ax == 0 ? last.center.x : last.center.y;
      double at = ax == 0 ? first.center.y : first.center.x;
      for (const Stroke& s : strokes) {
        if (s.kind != StrokeKind::straight && s.kind != StrokeKind::grid) continue;
        Point dir = s.pts.back() - s.pts.front();
        double dev = geo::angle_between_deg(dir, ax == 0 ? Point{1, 0} : Point{0, 1});
        if (dev > 2 && dev < 178) continue;
        double s_lo = ax == 0 ? s.bounds.xmin : s.bounds.ymin, s_hi = ax == 0 ? s.bounds.xmax : s.bounds.ymax;
        double s_at = ax == 0 ? s.pts.front().y : s.pts.front().x;
        if (std::abs(s_at - at) > kAttachPt || s_lo > lo + 1 || s_hi < hi - 1) continue;
        axis = true;
        axis_why = std::to_string(run.size()) + " evenly spaced numbers along a " + (ax == 0 ? "horizontal" : "vertical") +
                   " axis line";
        break;
      }
      if (axis) break;
    }

  // 4. Tables: text nodes in at least three rows and three columns, nothing joining them.
  auto grid_share = [&]() {
    if (labels.size() < 9) return 0.0;
    std::map<long long, int> rows, cols;
    for (const Label& l : labels) {
      ++rows[std::llround(l.center.y / kRowTolPt)];
      ++cols[std::llround(l.center.x / kRowTolPt)];
    }
    int full_rows = 0, full_cols = 0;
    std::size_t in = 0;
    for (const Label& l : labels) {
      bool r = rows[std::llround(l.center.y / kRowTolPt)] >= 3, c = cols[std::llround(l.center.x / kRowTolPt)] >= 3;
      if (r && c) ++in;
    }
    for (const auto& [k, n] : rows) full_rows += n >= 3;
    for (const auto& [k, n] : cols) full_cols += n >= 3;
    if (full_rows < 3 || full_cols < 3) return 0.0;
    return static_cast<double>(in) / static_cast<double>(labels.size());
  };

  s_->joined_nodes = joined;
  PictureReading& pic = s_->picture;
  const bool has_strokes = std::any_of(strokes.begin(), strokes.end(), [](const Stroke& s) { return s.kind != StrokeKind::grid; });
  if (axis) {
    pic = {PictureKind::plot, axis_why};
  } else if (d.drawn_as == "circuit") {
    // its labels, voltages and currents are placed by the package beside their components, and
    // its short strokes are arrows and symbols: nothing in it is a measurement or a mark
    pic = {PictureKind::circuit, "circuit components (circuitikz) joined by wires"};
  } else if (edges >= 2 && 2 * edges >= lines) {
    bool flow = 2 * boxes >= static_cast<int>(joined.size()) && 2 * arrowed >= edges;
    pic = {flow ? PictureKind::flowchart : PictureKind::graph,
           std::to_string(edges) + " of " + std::to_string(lines) + " lines join " + std::to_string(joined.size()) +
               " nodes" + (flow ? " (drawn boxes, arrows)" : "")};
  } else if (edges == 0 && grid_share() >= 0.8) {
    pic = {PictureKind::table, std::to_string(labels.size()) + " text nodes in rows and columns"};
  } else if (has_strokes) {
    pic = {PictureKind::geometric, "lines, arcs or shapes that do not join nodes"};
  } else {
    pic = {PictureKind::other, "nothing drawn but text"};
  }

  // 5. Each numeric label's role.
  const bool networked = pic.kind == PictureKind::graph || pic.kind == PictureKind::flowchart;
  std::vector<ir::Box> symbols;  // the boxes of the symbols shapes paint (ir::Node::symbol)
  for (const ir::Node& o : d.nodes)
    if (o.symbol) symbols.push_back(o.box);
  std::vector<std::optional<std::size_t>> side(labels.size());  // the stroke a number is beside
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const Label& l = labels[i];
    const ir::Node& n = d.nodes[l.node];
    LabelReading& r = roles[i];
    if (!numeric(l.text)) continue;
    const bool sign = (l.text.kind == LabelKind::angle) || !l.text.unit.empty() ||
                      (l.text.kind == LabelKind::area);
    if (tick[i]) {
      r = {LabelRole::tick, "one of evenly spaced numbers in a row or column"};
      continue;
    }
    if (position[i]) {
      r = {LabelRole::number, "on a line as far along it as it states, as another label is: it marks a point"};
      continue;
    }
    if (n.drawn && !sign) {
      r = {LabelRole::index, "a number inside a drawn node"};
      continue;
    }
    // A node with options that were not read (a style of a package tikzlint does not read, such
    // as pfdicons' `sid`): whether it is drawn as a symbol around the number (which makes it an
    // index, as above), and where, is not known; only a sign says it states a size.
    if (n.incomplete && !sign) {
      r = {LabelRole::number, "its node has options that were not read: how it is drawn is not known"};
      continue;
    }
    // Set at a point of a symbol a shape paints (`(mix.1) node[left] {1}`, a port or pin of a
    // circuitikz mixer or coupler): the number names that pin, it states no size.
    if (auto at = anchor_point(n); at && !sign && !symbols.empty()) {
      const bool pin = std::any_of(symbols.begin(), symbols.end(), [&](const ir::Box& b) {
        return at->x >= b.xmin - kPinReachPt && at->x <= b.xmax + kPinReachPt && at->y >= b.ymin - kPinReachPt &&
               at->y <= b.ymax + kPinReachPt;
      });
      if (pin) {
        r = {LabelRole::index, "placed " + n.placement + " a point of a drawn symbol: it numbers a pin"};
        continue;
      }
    }
    if (l.text.kind == LabelKind::angle) {
      r = {LabelRole::measurement, "a degree sign"};
      continue;
    }
    if (!l.text.unit.empty()) {
      r = {LabelRole::measurement, "the unit '" + l.text.unit + "'"};
      continue;
    }
    if (l.text.kind == LabelKind::area) {
      r = {LabelRole::measurement, "area notation (squared or A =)"};
      continue;
    }
    if (networked) {
      r = {LabelRole::weight, "a number in a " + std::string(to_string(pic.kind))};
      continue;
    }
    // Placed above/below/left/right of a point marked by a dot (an intersection, a point of a
    // plot): the number names that point, whatever side runs through it.
    if (auto at = anchor_point(n)) {
      bool dot = false;
      for (std::size_t vi : vertices_near({at->x, at->y, at->x, at->y}, kDotReachPt))
        if (vertices()[vi].dot && geo::dist(vertices()[vi].p, *at) <= kDotReachPt) dot = true;
      if (dot) {
        r = {LabelRole::number, "placed " + n.placement + " a point marked by a dot"};
        continue;
      }
    }
    // Placed above/below/left/right of a point of an axis (a straight line with one arrow tip)
    // away from its middle: the number is the coordinate of that point (a hand-drawn axis' unit
    // mark, `\node[below] at (1,0) {1}`), not the length of the axis.
    if (auto at = anchor_point(n)) {
      bool on_axis = false;
      for (std::size_t si : strokes_near({at->x, at->y, at->x, at->y}, kOnSidePt)) {
        const Stroke& s = strokes[si];
        const ir::Element& e = d.elements[s.element];
        if (s.kind != StrokeKind::straight || s.length <= 0 || e.style.arrow_start == e.style.arrow_end) continue;
        if (geo::point_segment_distance(*at, s.pts.front(), s.pts.back()) > kOnSidePt) continue;
        const double t = projection(*at, s);
        if (t < kAnchorFrom || t > kAnchorTo) on_axis = true;
      }
      if (on_axis) {
        r = {LabelRole::tick, "placed " + n.placement + " a point of an axis (a line with one arrow tip): a coordinate"};
        continue;
      }
    }
    // Placed above/below/left/right of the middle of a side: the node's anchor point (where
    // `at` put it, on its border opposite the placement) lies on a straight side near its middle.
    if (auto at = anchor_point(n)) {
      bool mid = false;
      for (std::size_t si : strokes_near({at->x, at->y, at->x, at->y}, kOnSidePt)) {
        const Stroke& s = strokes[si];
        if (s.kind != StrokeKind::straight || s.length <= 0) continue;
        double t = projection(*at, s);
        if (t < kAnchorFrom || t > kAnchorTo) continue;
        if (geo::point_segment_distance(*at, s.pts.front(), s.pts.back()) > kOnSidePt) continue;
        mid = true;
        side[i] = si;
        break;
      }
      if (mid) {
        r = {LabelRole::measurement, "placed " + n.placement + " the middle of a side"};
        continue;
      }
    }
    Association a = associate(l, kAttachPt);
    if (a.enclosed) {
      r = {LabelRole::number, "between two parallel lines: it numbers a cell"};
      continue;
    }
    if (a.best && a.best->kind == TargetKind::stroke) {
      const Stroke& s = strokes[a.best->index];
      const ir::Element& e = d.elements[s.element];
      // A dimension line spans the length it states: tips (or bars) at both ends. A line with one
      // tip is an axis or a pointer, and a number by it is a tick value or a name.
      if (s.kind == StrokeKind::straight && s.arrow && e.style.arrow_start && e.style.arrow_end &&
          a.best->gap <= kAttachPt) {
        r = {LabelRole::measurement, "on a dimension line"};
        side[i] = a.best->index;
        continue;
      }
      // On its own path, by the middle of a side (midway, pos=.5 of a segment): a position along
      // the path away from the middle (pos=0, pos=.9, the corner of -|) marks a point instead.
      const double along = s.kind == StrokeKind::straight ? projection(l.center, s) : -1;
      if (n.on_path && e.path_id == *n.on_path && s.kind == StrokeKind::straight && along >= kMiddleFrom &&
          along <= kMiddleTo) {
        r = {LabelRole::measurement, "placed on a side (" + (n.placement.empty() ? std::string("on the path") : n.placement) + ")"};
        side[i] = a.best->index;
        continue;
      }
      if (s.kind == StrokeKind::straight && a.best->gap <= kAttachPt) {
        double t = projection(l.center, s);
        side[i] = a.best->index;
        if (t >= kMiddleFrom && t <= kMiddleTo) {
          r = {LabelRole::measurement, "beside the middle of a side"};
          continue;
        }
      }
    }
    if (!l.text.prefix.empty()) r = {LabelRole::equation, "a value given to '" + l.text.prefix + "', not placed on a side"};
    else r = {LabelRole::number, "no unit, dimension line or placement along a side"};
  }
  // 6. Another labelled side of a shape one of whose sides carries a measurement.
  std::set<std::size_t> measured_elements;
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (roles[i].role == LabelRole::measurement && side[i]) measured_elements.insert(strokes[*side[i]].element);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (roles[i].role != LabelRole::number || !side[i]) continue;
    const Stroke& s = strokes[*side[i]];
    double t = projection(labels[i].center, s);
    if (measured_elements.count(s.element) && t >= kSideFrom && t <= kSideTo)
      roles[i] = {LabelRole::measurement, "along a side of a shape with another side labelled"};
  }
}

nlohmann::json Scene::reading_json() const {
  const PictureReading& pic = picture();
  nlohmann::json labels = nlohmann::json::array();
  for (std::size_t i = 0; i < s_->labels.size(); ++i) {
    const Label& l = s_->labels[i];
    const LabelReading& r = s_->label_readings[i];
    if (r.role == LabelRole::none) continue;
    labels.push_back({{"node", l.node},
                      {"text", l.text.plain},
                      {"kind", to_string(l.text.kind)},
                      {"value", *l.text.value},
                      {"role", to_string(r.role)},
                      {"evidence", r.evidence}});
  }
  return {{"picture", {{"kind", to_string(pic.kind)}, {"evidence", pic.evidence}}}, {"numbers", std::move(labels)}};
}

}  // namespace tikzlint::checks
