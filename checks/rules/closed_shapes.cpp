// closed_shapes: outlines meant to be closed are closed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "checks/geometry.hpp"
#include "checks/rule_support.hpp"
#include "checks/rules/rules.hpp"
#include "checks/scene.hpp"

namespace tikzlint::checks::rules {

const RuleDoc closed_shapes_doc = {
    "closed_shapes",
    "an outline that is meant to be closed leaves a visible gap",
    "An outline is meant to be closed when it returns near its start, or when the line ends of\n"
    "two strokes nearly meet. The rule reports:\n"
    "- a path of three or more points whose last point stops short of its first by a visible gap\n"
    "  that is still small beside the outline and beside its first and last lines, which would meet\n"
    "  there (so the author meant to return);\n"
    "- a line end that stops short of another line's end by such a gap, with nothing else drawn\n"
    "  at that end (a corner of a shape drawn as separate segments that do not meet).\n"
    "A gap is visible when it is wider than the lines' width and the minimum gap; it is 'meant to\n"
    "close' when it is under the near-gap ratio of the shorter line (or of the outline's\n"
    "perimeter). Lines with arrow tips (dimension lines, pointers) are not outlines, nor is a line\n"
    "whose statement was not read in full (an unknown key or style may give it arrow tips or a\n"
    "dash pattern: a package's `main stream` is an arrowed flow line): whether it is an outline,\n"
    "and whether its gap is one, is not known.\n"
    "\n"
    "Only what a reader sees as a gap counts: a join covered by a node (pgf stops an edge at a\n"
    "node's border; a vertex dot covers the point) is closed, and in a graph or tree (nodes joined\n"
    "by edges) an end at any node's border, an empty node's too, is an edge's end, not a corner;\n"
    "a gap in a dashed or dotted line no\n"
    "wider than twice its dashes' gaps is one of them; two collinear pieces with a gap read as a\n"
    "broken line, not as a corner; two lines that cross each other meet (their ends past the\n"
    "crossing overshoot the corner); dashed lines (construction lines) are no outlines, nor are\n"
    "lines drawn on past both of their defining points (tkz-euclide's \\tkzDrawLine with its `add`:\n"
    "their ends are free, not corners). In a plot (the\n"
    "scene's reading: axes with tick labels) the lines are axes, ticks and data curves, which end\n"
    "where the range or the data end: a plot passes.\n"
    "\n"
    "Never n/a (no outline passes). Indeterminate when the geometry is incomplete and no gap was\n"
    "found.",
    "\\draw (0,0) -- (3,0) -- (1.5,2) -- (0.05,0.05);   % stops 1.4pt short of its start",
    "End the path with `-- cycle`, or draw the segments between the same named coordinates.",
    {
        {"min_gap_pt", 1.0, "pt",
         "a gap narrower than 1pt (0.35mm), or than the line's own width, disappears under the stroke"},
        {"near_gap_ratio", 0.1, "ratio",
         "a gap under a tenth of the line's length reads as a shape that fails to close, not as two\n"
         "separate lines"},
    },
};

namespace {

// The gap between dashes of a dash pattern, pt (pgfmanual 15.3.2: dashed = on 3pt off 3pt,
// densely 2pt, loosely 6pt; dotted = on \pgflinewidth off 2pt, densely 1pt, loosely 4pt); 0 solid.
double dash_gap(const std::string& dash) {
  if (dash.empty() || dash == "solid") return 0;
  if (dash.rfind("on ", 0) == 0 || dash.find("off") != std::string::npos) {
    double most = 0;
    for (std::size_t k = dash.find("off"); k != std::string::npos; k = dash.find("off", k + 3)) {
      double v = std::atof(dash.c_str() + k + 3);
      most = std::max(most, v > 0 ? v : 3.0);
    }
    return most > 0 ? most : 3;
  }
  bool dotted = dash.find("dot") != std::string::npos;
  if (dash.find("densely") != std::string::npos) return dotted ? 1 : 2;
  if (dash.find("loosely") != std::string::npos) return dotted ? 4 : 6;
  return dotted ? 2 : 3;
}

// Segments ab and cd cross: each one's ends lie strictly on both sides of the other's line.
bool segments_cross(geo::Point a, geo::Point b, geo::Point c, geo::Point d) {
  const double d1 = geo::cross(b - a, c - a), d2 = geo::cross(b - a, d - a);
  const double d3 = geo::cross(d - c, a - c), d4 = geo::cross(d - c, b - c);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

// A node (text, or drawn or filled) whose border box, widened by `slack`, holds point p: a join
// there is covered (pgf stops an edge at the border; a dot covers its centre).
bool covered_by_node(const ir::Diagram& d, geo::Point p, double slack) {
  for (const ir::Node& n : d.nodes) {
    if (n.shape == ir::NodeShape::coordinate || !(has_text(n) || n.drawn || n.filled)) continue;
    const double s = slack + n.outer_sep;
    if (p.x >= n.box.xmin - s && p.x <= n.box.xmax + s && p.y >= n.box.ymin - s && p.y <= n.box.ymax + s) return true;
  }
  return false;
}

// Point p lies at the border box of a node (any but a coordinate, empty ones too), within `slack`.
bool at_node_border(const ir::Diagram& d, geo::Point p, double slack) {
  for (const ir::Node& n : d.nodes) {
    if (n.shape == ir::NodeShape::coordinate || !(n.box.width() > 0 && n.box.height() > 0)) continue;
    const double s = slack + n.outer_sep;
    if (p.x >= n.box.xmin - s && p.x <= n.box.xmax + s && p.y >= n.box.ymin - s && p.y <= n.box.ymax + s) return true;
  }
  return false;
}

}  // namespace

RuleResult check_closed_shapes(const ir::Diagram& d, const Config& cfg) {
  const RuleDoc& doc = closed_shapes_doc;
  const double min_gap = cfg.get(doc, "min_gap_pt");
  const double near = cfg.get(doc, "near_gap_ratio");
  Scene scene(d);
  RuleResult r;
  // A plot's lines are axes, ticks and data curves: they end where the axis range or the data
  // end, and none is an outline (the scene's reading).
  if (scene.picture().kind == PictureKind::plot)
    return make_result(Verdict::pass, "a plot: its axes and data curves are not outlines");

  const bool networked =
      scene.picture().kind == PictureKind::graph || scene.picture().kind == PictureKind::flowchart;

  // 1. Paths that come back near their start without closing.
  for (const ir::Element& e : d.elements) {
    if (!visible(e) || !e.style.draw || e.style.arrow_start || e.style.arrow_end || e.incomplete) continue;
    const auto* p = std::get_if<ir::Polyline>(&e.geom);
    if (!p || p->closed || p->points.size() < 3) continue;
    double g = geo::dist(p->points.front(), p->points.back());
    double perimeter = geo::polyline_length(p->points) + g;
    double visible_gap = std::max({min_gap, e.style.line_width, 2 * dash_gap(e.style.dash)});
    // The gap is the corner where the first and the last line would meet: small beside the shorter
    // of the two, as for separate lines (a chevron's opening is a side of its own, not a gap).
    const double first_line = geo::dist(p->points[0], p->points[1]);
    const double last_line = geo::dist(p->points[p->points.size() - 2], p->points.back());
    if (g > visible_gap && g <= near * perimeter && g <= near * std::min(first_line, last_line) && !covered_by_node(d, p->points.front(), visible_gap) &&
        !covered_by_node(d, p->points.back(), visible_gap)) {
      r.findings.push_back(finding(doc, e.prov.range,
                                   "outline ends " + num(g) + "pt from its start; a gap wider than " + num(visible_gap) +
                                       "pt is visible",
                                   g, visible_gap, "pt", {{"problem", "open outline"}, {"perimeter_pt", perimeter}}));
    }
  }

  // 2. Line ends that nearly meet another line's end, with nothing drawn at them.
  const auto& strokes = scene.strokes();
  // The strokes of one element are consecutive; first[i]/last[i] bound the run of stroke i.
  // So are the elements of one path statement: path_first/path_last bound that run when it is
  // short (a cube drawn as two squares and four edges), else they equal first/last.
  std::vector<std::size_t> first(strokes.size()), last(strokes.size());
  std::vector<std::size_t> path_first(strokes.size()), path_last(strokes.size());
  constexpr std::size_t kPathRun = 16;
  for (std::size_t i = 0; i < strokes.size();) {
    std::size_t j = i;
    while (j < strokes.size() && strokes[j].element == strokes[i].element) ++j;
    for (std::size_t k = i; k < j; ++k) first[k] = i, last[k] = j - 1;
    i = j;
  }
  for (std::size_t i = 0; i < strokes.size();) {
    const std::uint32_t path = d.elements[strokes[i].element].path_id;
    std::size_t j = i;
    while (j < strokes.size() && d.elements[strokes[j].element].path_id == path) ++j;
    for (std::size_t k = i; k < j; ++k) {
      path_first[k] = j - i <= kPathRun ? i : first[k];
      path_last[k] = j - i <= kPathRun ? j - 1 : last[k];
    }
    i = j;
  }
  // Stroke j lies within `visible_gap` of `end` (drawn through or at it).
  auto touches = [&](const geo::Point& end, const Stroke& t, double visible_gap) {
    double to_line = INFINITY;
    for (std::size_t k = 1; k < t.pts.size(); ++k)
      to_line = std::min(to_line, geo::point_segment_distance(end, t.pts[k - 1], t.pts[k]));
    if (t.pts.size() == 1) to_line = geo::dist(end, t.pts[0]);
    return to_line <= visible_gap;
  };
  for (std::size_t i = 0; i < strokes.size(); ++i) {
    const Stroke& s = strokes[i];
    if (s.kind != StrokeKind::straight || !s.drawn || s.arrow) continue;
    const ir::Element& es = d.elements[s.element];
    if (es.incomplete) continue;  // its arrow tips or dashes may be what was not read
    if (dash_gap(es.style.dash) > 0) continue;  // a dashed line: a construction line, its gaps are dashes
    if (es.role == "line") continue;  // drawn on past its points: its ends are free, no corners
    for (const geo::Point& end : {s.pts.front(), s.pts.back()}) {
      double lw = es.style.line_width;
      double reach = near * s.length;
      if (reach <= min_gap) continue;
      // Most ends are corners of their own outline: the neighbouring edge (or, closing it, the
      // first or last one) touches them. A stroke the query below would return that touches the
      // end decides it without the query (`touched` does not depend on the order of the search).
      const ir::Box q0 = geo::inflate({end.x, end.y, end.x, end.y}, reach);
      const ir::Box q{std::min(q0.xmin, q0.xmax), std::min(q0.ymin, q0.ymax), std::max(q0.xmin, q0.xmax),
                      std::max(q0.ymin, q0.ymax)};
      if (std::isfinite(q.xmin) && std::isfinite(q.ymin) && std::isfinite(q.xmax) && std::isfinite(q.ymax)) {
        bool near_touch = false;
        auto try_stroke = [&](std::size_t j) {
          if (j == i || j >= strokes.size()) return false;
          const Stroke& t = strokes[j];
          if (!t.drawn || t.kind == StrokeKind::grid || !geo::boxes_overlap(t.bounds, q)) return false;
          return touches(end, t, std::max({min_gap, lw, d.elements[t.element].style.line_width}));
        };
        for (std::size_t j : {i - 1, i + 1, first[i], last[i]})
          if (j >= first[i] && j <= last[i] && try_stroke(j)) {
            near_touch = true;
            break;
          }
        if (!near_touch && path_last[i] - path_first[i] > last[i] - first[i])
          for (std::size_t j = path_first[i]; j <= path_last[i] && !near_touch; ++j)
            near_touch = (j < first[i] || j > last[i]) && try_stroke(j);
        if (near_touch) continue;
      }
      bool touched = false;
      double best = INFINITY;
      std::size_t best_j = i;
      for (std::size_t j : scene.strokes_near({end.x, end.y, end.x, end.y}, reach)) {
        if (j == i) continue;
        const Stroke& t = strokes[j];
        if (!t.drawn || t.kind == StrokeKind::grid) continue;
        double visible_gap = std::max({min_gap, lw, d.elements[t.element].style.line_width});
        // Anything drawn through or at this end closes it (corners, T-junctions, marks).
        if (touches(end, t, visible_gap)) {
          touched = true;
          break;
        }
        if (t.kind != StrokeKind::straight || t.arrow || dash_gap(d.elements[t.element].style.dash) > 0 ||
            d.elements[t.element].incomplete || d.elements[t.element].role == "line")
          continue;
        // Collinear pieces with a gap between them read as a broken line, not a corner.
        double dev = geo::angle_between_deg(s.pts.back() - s.pts.front(), t.pts.back() - t.pts.front());
        if (dev < 10 || dev > 170) continue;
        // Lines that cross each other meet there: their ends past the crossing overshoot the
        // corner (a construction's lines, a polygon's sides drawn on), no gap is left to close.
        if (segments_cross(s.pts.front(), s.pts.back(), t.pts.front(), t.pts.back())) continue;
        for (const geo::Point& q : {t.pts.front(), t.pts.back()}) {
          double g = geo::dist(end, q);
          if (g <= near * t.length && g < best) best = g, best_j = j;
        }
      }
      if (touched || !std::isfinite(best)) continue;
      // A vertex dot at the end also closes it visually.
      auto dots = scene.vertices_near({end.x, end.y, end.x, end.y}, 0.5);
      if (std::any_of(dots.begin(), dots.end(), [&](std::size_t v) { return scene.vertices()[v].degree == 0; }))
        continue;
      // So does a node at it: an edge stopped at a node's border, or a node placed on the join.
      if (covered_by_node(d, end, std::max(min_gap, lw))) continue;
      // In a graph or tree (the scene's reading: nodes joined by edges) an end at any node's border,
      // an empty one's too (a tree's root `\node {}`), is where pgf stopped an edge: the space
      // between two edges leaving one node is that node, not a corner left open.
      if (networked && at_node_border(d, end, std::max(min_gap, lw))) continue;
      if (best_j < i) continue;  // the pair is reported once, from its first stroke
      Diagnostic f = finding(doc, es.prov.range,
                             "line ends " + num(best) + "pt short of another line's end; a gap wider than " +
                                 num(std::max(min_gap, lw)) + "pt is visible",
                             best, std::max(min_gap, lw), "pt", {{"problem", "corner gap"}, {"point", {end.x, end.y}}});
      f.notes.push_back({"the other line", d.elements[strokes[best_j].element].prov.range});
      r.findings.push_back(std::move(f));
    }
  }

  return conclude(std::move(r), d);
}

}  // namespace tikzlint::checks::rules
