// label_association: each label sits by an element of the right kind, without ambiguity.
#include <algorithm>
#include <cmath>

#include "checks/rule_support.hpp"
#include "checks/rules/rules.hpp"
#include "checks/scene.hpp"

namespace tikzlint::checks::rules {

const RuleDoc label_association_doc = {
    "label_association",
    "a label is too far from every element of its kind, or equally close to two that differ",
    "Each text label must be attached, without ambiguity, to an element of the right kind:\n"
    "- angle labels (\"60°\", \"$\\theta$\") to an arc, a right-angle mark or a corner where two\n"
    "  lines meet;\n"
    "- numeric length labels (\"5 cm\", \"$3$\") to a segment, an edge or a curve;\n"
    "- area labels (\"A = 12\") to the closed shape that contains them;\n"
    "- names (\"A\", \"h_1\") to a vertex, a vertex dot, a line or a shape.\n"
    "A label is orphaned when the gap between its text box and the nearest element of its kind\n"
    "exceeds the orphan distance. It is ambiguous when a second element of its kind, with a\n"
    "different meaning (another length, another arc, another vertex), is about as close as the\n"
    "first: the reader cannot tell which one it names. Two arcs of one angle (within 1°) mean\n"
    "the same angle when they share a centre (a double arc) or one radius (within 0.5pt: the\n"
    "same angle marked at two places, as a bend's angle at both ends of an edge): a label\n"
    "between them reads as that angle and is not ambiguous; nor is an angle label beside an arc\n"
    "of its own angle and one of an angle more than `angle_apart_deg` off it: the reader pairs\n"
    "it with the first. Captions and other running text (titles,\n"
    "formulas, several words) describe the figure as a whole and are not checked.\n"
    "\n"
    "A length label runs along the side it names. When its centre projects inside one segment\n"
    "and past the end of another (the difference between how far inside the one and how far\n"
    "past the other exceeding the ambiguity margin), the second only ends at a corner near the\n"
    "label and does not compete, however close its end. A label sitting at a corner, inside or\n"
    "past the ends of both sides alike, stays ambiguous. A name between two points is not\n"
    "ambiguous when the other point has a name of its own nearer to it: the reader pairs each\n"
    "point with its nearest name. An angle label whose text box touches an arc at the arc's middle\n"
    "(a node at the arc's mid-angle, anchored away from it, as tikz-3dplot's \\tdplotdrawarc\n"
    "places it) names that arc; another arc competes only when the label sits at its middle too.\n"
    "An angle label the bisector of a corner runs through (its box within 2pt of the bisector, in\n"
    "front of the corner and within reach of both sides), with no arc or corner attached\n"
    "otherwise, names that corner however far out along the bisector it sits: an angle's label is\n"
    "set on its bisector (tkz-euclide's \\tkzLabelAngle, the angles library's eccentricity).\n"
    "\n"
    "Two length labels with different values (\"2 cm\" and \"4 cm\"; \"3 cm\" and \"30 mm\" are one\n"
    "value) attached to the same stretch of one segment (their text boxes overlapping along it)\n"
    "contradict each other: at least one of them is on the wrong element. Labels beside\n"
    "different parts of one drawn line (their boxes apart along it, as for a side divided by a\n"
    "point) are not in conflict.\n"
    "\n"
    "Tick marks are labels too: a short stroke drawn on its own (at most `mark_length_pt` long,\n"
    "no arrow tip) marks the side or arc it crosses. One that lies beside an element (within the\n"
    "orphan distance) but crosses and touches nothing (no stroke within `mark_touch_pt`) marks\n"
    "nothing: it is reported as an orphaned mark. Short strokes continuing one another along one\n"
    "line are the dashes of a line drawn piece by piece, not marks, and a short stroke from a node's\n"
    "border (a text node, a drawn symbol) is an edge or a wire to that node (a tree's child edge,\n"
    "a gate's input). Marks are read in geometric figures only (the scene's reading): a short edge\n"
    "of a graph or a step of a plotted curve is no mark.\n"
    "\n"
    "Numbers the scene reads as tick labels, indices or edge weights (see `tikzlint ir`'s reading)\n"
    "are placed by convention and not checked, and neither is a label placed on an arrow (midway,\n"
    "pos=, a tikz-cd label): it names that arrow, a map or a transition, whatever its text reads as\n"
    "($\\phi$ on an arrow is no angle). A node with a border or a fill of its own (a vertex,\n"
    "a state, a box of a flowchart, a shape) is an element that carries its text, not a label of\n"
    "another element, and a picture with nothing drawn but text (no line, outline or vertex dot)\n"
    "has nothing its text could name: neither is checked. Nor are the letters a text decoration\n"
    "sets along a path (decorations.text): each is a piece of that text; nor a node a layout places\n"
    "among its fellows (a chain's member, a matrix cell): it is an element of that layout, carrying\n"
    "its text. Text a package typesets as its own\n"
    "furniture (axis tick and axis labels, calendar days) names no geometry either, and a node an\n"
    "edge ends at (pgf stops the edge at its border), or any text node of a graph or flowchart, is a\n"
    "vertex carrying its own name. No text of a circuit is checked (its components' drawings are\n"
    "the package's, not modelled; circuitikz places their values, voltages, currents and flows\n"
    "beside them, and none of them is a length, angle or area of a figure); a name within the\n"
    "orphan distance of a node drawn with a shape\n"
    "of its own, or of a symbol its shape paints (a circuitikz transistor, whose leads are not\n"
    "modelled), names that node, and a label= is measured from its owner's border (a pin with a\n"
    "pin edge drawn from that border to it, from the edge's end). A number the\n"
    "scene does not read as a measurement names a point or an element and is checked as a name;\n"
    "a number set at a point of a painted symbol (a mixer's port) numbers that pin. A label whose\n"
    "own place is not known (a shape that sets its text where the model does not follow) is not\n"
    "checked. A short stroke is read as a tick mark (which must cross what it marks) only when its\n"
    "statement sets no text: one that does leads to that text (a leader to a caption) or is an\n"
    "axis tick with its value.\n"
    "\n"
    "n/a: the diagram has no text labels. A pgfplots axis with no text labels of the author's\n"
    "passes: its tick and axis labels are placed by pgfplots at the tick or axis they name.\n"
    "An axis the lowering maps only approximately (an `approximate-axis` note: some of its keys are\n"
    "not modelled, so data coordinates are scaled by a factor known only to within\n"
    "`axis_uncertainty_pt` over the box's size) does not by itself leave the verdict open. A label\n"
    "attached by construction (label=, pin=) keeps its owner whatever the scale. Any other label\n"
    "is decided only when the evidence is clear of that uncertainty: its distances, scaled by up\n"
    "to the relative uncertainty, must stay on the same side of the orphan distance and of the\n"
    "ambiguity margin, and neither of its candidates may be the axis's own box or lines, or the\n"
    "area inside them (pgfplots draws them where the lowering only estimates them, with tick labels\n"
    "beside them). Otherwise the verdict is indeterminate unless another label fails.\n"
    "Indeterminate: the geometry is incomplete (an\n"
    "unsupported construct or an incomplete element or node) and no label is found orphaned or\n"
    "ambiguous among the complete ones; orphaned labels and marks next to incomplete geometry are\n"
    "not reported, since the missing element may be the one they name.",
    "\\draw (0,0) -- (3,0) -- (0,4) -- cycle;\n"
    "\\node[right] at (3,2) {5 cm};   % the hypotenuse runs from (3,0) to (0,4): 1.2cm away",
    "Place the label next to its element: use `node[midway, above]` on the path that draws the\n"
    "side, `label=` on the vertex node, or a node at the arc's mid-angle for an angle. Draw tick\n"
    "marks across the side or arc they mark.",
    {
        {"orphan_distance_pt", 18.0, "pt",
         "a quarter inch, about one and a half text lines at 12pt: TikZ places attached labels within\n"
         "a few points (inner sep .3333em plus label distance), and a gap wider than this no longer\n"
         "reads as belonging to the element"},
        {"ambiguity_margin_pt", 3.0, "pt",
         "two candidates whose distances from the label's centre differ by less than 3pt (about a\n"
         "quarter of a 12pt glyph) look equally close to a reader"},
        {"angle_apart_deg", 5.0, "deg",
         "arcs whose angles differ by more than 5° look different to a reader (angle_labels'\n"
         "tolerance): an angle label beside an arc of its own angle and an arc of another is read\n"
         "with the first"},
        {"axis_uncertainty_pt", 45.0, "pt",
         "an approximately lowered pgfplots axis reserves 45pt for tick and axis labels where pgfplots\n"
         "measures them; the box's size, and the distances between data points scaled with it, may be\n"
         "off by as much (the same figure as in_frame's)"},
        {"mark_length_pt", 18.0, "pt",
         "tick marks are a few millimetres long, at most about a quarter inch (18pt, core_math's\n"
         "max_mark_pt); a longer stroke is a line of its own"},
        {"mark_touch_pt", 1.0, "pt",
         "a mark drawn across its element has no gap to it; a gap over 1pt (0.35mm, more than twice\n"
         "a thin 0.4pt line's width) is visible at print size"},
        {"max_findings", 1000, "count",
         "a dense picture has pairs by the million; at this many findings the rule stops searching\n"
         "and says so in a note (the verdict is fail either way)"},
    },
};

namespace {

using geo::Point;

bool same_range(const SourceRange& a, const SourceRange& b) {
  return a.valid && b.valid && a.file == b.file && a.begin == b.begin && a.end == b.end;
}

// Two straight strokes on one line, overlapping or touching: one line to a reader (as the
// scene reads them).
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

// How far (pt) the label's centre projects inside a straight stroke, measured from the nearer
// end: positive alongside the stroke, negative past one of its ends.
double depth_inside(Point c, const Stroke& s) {
  Point a = s.pts.front(), b = s.pts.back();
  double len = geo::dist(a, b);
  if (len <= 0) return -geo::dist(c, a);
  double u = geo::dot(c - a, b - a) / len;
  return std::min(u, len - u);
}

// The extent [lo, hi] (pt along the stroke from its first point) of a label's box projected
// onto a straight stroke's direction.
std::pair<double, double> extent_along(const ir::Node& n, const Stroke& s) {
  Point a = s.pts.front(), b = s.pts.back();
  double len = geo::dist(a, b);
  Point u = len > 0 ? (b - a) * (1 / len) : Point{1, 0};
  double lo = INFINITY, hi = -INFINITY;
  for (const Point& p : geo::node_ring(n)) {
    double t = geo::dot(p - a, u);
    lo = std::min(lo, t), hi = std::max(hi, t);
  }
  return {lo, hi};
}

// The rival of a length label's best stroke: Scene::associate's choice among the strokes the
// label lies beside within `attach`, except that a stroke the label lies past the end of does
// not compete with a best stroke it lies alongside (by more than `margin` in depth).
std::optional<Target> length_rival(const Scene& scene, const Label& l, const Target& best, double attach,
                                   double margin) {
  const ir::Diagram& d = scene.diagram();
  const ir::Node& node = d.nodes[l.node];
  const Stroke& sb = scene.strokes()[best.index];
  const double glyph_h = std::max(4.0, l.glyphs.height());
  const double best_depth = depth_inside(l.center, sb);
  std::vector<Target> near;
  for (std::size_t i : scene.strokes_near(l.box, 3 * attach)) {
    if (i == best.index) continue;
    const Stroke& s = scene.strokes()[i];
    if (s.kind != StrokeKind::straight) continue;
    const bool own_path = node.on_path && d.elements[s.element].path_id == *node.on_path;
    if (!own_path && scene.gap_exceeds(l, s, attach)) continue;  // without the exact gap
    double g = scene.gap(l, s);
    if (own_path) g = std::min(g, attach);
    if (g > attach) continue;
    double len2 = geo::dot(s.pts.back() - s.pts.front(), s.pts.back() - s.pts.front());
    double tp = len2 > 0 ? geo::dot(l.center - s.pts.front(), s.pts.back() - s.pts.front()) / len2 : 0.5;
    double slack = glyph_h / std::max(1.0, s.length);
    if (tp < -slack || tp > 1 + slack) continue;
    near.push_back({TargetKind::stroke, i, g, scene.center_gap(l, s)});
  }
  std::stable_sort(near.begin(), near.end(), [](const Target& a, const Target& b) { return a.center_gap < b.center_gap; });
  for (const Target& t : near) {
    const Stroke& sc = scene.strokes()[t.index];
    if (same_line(sb, sc)) continue;
    // The side's own dimension line (arrowed, parallel) is not a competitor.
    if (sc.arrow || sb.arrow) {
      double dev = geo::angle_between_deg(sb.pts.back() - sb.pts.front(), sc.pts.back() - sc.pts.front());
      if (dev < 3 || dev > 177) continue;
    }
    // Lengths within 20% give the label one reading (as the scene reads them).
    if (std::abs(sb.length - sc.length) <= 0.2 * std::max(sb.length, sc.length)) continue;
    // Alongside one side and past the end of the other: the other ends at a corner.
    double depth = depth_inside(l.center, sc);
    if (best_depth >= 0 && depth < 0 && best_depth - depth > margin) continue;
    return t;
  }
  return std::nullopt;
}

// The value of a length label in metres when its unit is physical, else as written.
struct Measure {
  double value = 0;
  bool metres = false;
};
bool same_value(const Measure& a, const Measure& b) {
  if (a.metres != b.metres) return std::abs(a.value - b.value) <= 1e-9 * std::max(1.0, std::abs(a.value));
  return std::abs(a.value - b.value) <= 1e-6 * std::max({1e-12, std::abs(a.value), std::abs(b.value)});
}

// A pgfplots axis lowered approximately (`approximate-axis` notes point at its statement).
struct AxisApproximation {
  std::vector<SourceRange> ranges;  // the \begin{axis} statements: their elements are the axis's
  bool not_lowered = false;         // some axis was not lowered at all
  double relative = 0;              // uncertainty over the smallest axis box side
};

AxisApproximation axis_approximation(const ir::Diagram& d, double uncertainty) {
  AxisApproximation ax;
  for (const Diagnostic& diag : d.diagnostics) {
    if (diag.rule == "approximate-axis") ax.ranges.push_back(diag.range);
    if (diag.rule == "unsupported-construct" && diag.message.find("axis") != std::string::npos) ax.not_lowered = true;
  }
  if (ax.ranges.empty()) return ax;
  double side = INFINITY;
  for (const ir::ClipRegion& c : d.clips)
    for (const SourceRange& r : ax.ranges)
      if (same_range(r, c.prov.range)) side = std::min({side, c.bounds.width(), c.bounds.height()});
  // Without the box (no clip recorded) nothing bounds the scale error: every distance is open.
  ax.relative = std::isfinite(side) && side > 0 ? uncertainty / side : INFINITY;
  return ax;
}

}  // namespace

RuleResult check_label_association(const ir::Diagram& d, const Config& cfg) {
  const RuleDoc& doc = label_association_doc;
  const double orphan = cfg.get(doc, "orphan_distance_pt");
  const double margin = cfg.get(doc, "ambiguity_margin_pt");
  const double angle_apart = cfg.get(doc, "angle_apart_deg");
  const double mark_len = cfg.get(doc, "mark_length_pt");
  const double touch = cfg.get(doc, "mark_touch_pt");
  Scene scene(d);
  RuleResult r;
  r.max_findings = static_cast<std::size_t>(std::max(1.0, cfg.get(doc, "max_findings")));
  if (scene.labels().empty()) {
    // pgfplots typesets its tick and axis labels itself, each at the tick or axis it names.
    if (d.uses_axis || std::any_of(d.nodes.begin(), d.nodes.end(), [](const ir::Node& n) { return !n.role.empty(); }))
      return make_result(Verdict::pass,
                         "the only labels are a pgfplots axis's own tick and axis labels, placed at what they name");
    return make_result(Verdict::na, "the diagram has no text labels");
  }
  const AxisApproximation axis = axis_approximation(d, cfg.get(doc, "axis_uncertainty_pt"));
  const bool approximate = !axis.ranges.empty();
  // An approximately lowered axis is geometry known to within its scale: decided per label below.
  auto incomplete = incomplete_geometry(d, !approximate || axis.not_lowered);
  // The axis's own box or lines (a stroke of them, or the region they enclose).
  auto is_axis_part = [&](const Target& t) {
    if (t.kind != TargetKind::stroke && t.kind != TargetKind::region) return false;
    std::size_t ei = t.kind == TargetKind::stroke ? scene.strokes()[t.index].element : t.index;
    const SourceRange& r0 = d.elements[ei].prov.range;
    return std::any_of(axis.ranges.begin(), axis.ranges.end(), [&](const SourceRange& x) { return same_range(x, r0); });
  };
  std::optional<std::string> undecided;  // a label the approximate axis leaves open

  struct Claim {  // a length label attached to one straight stroke
    std::size_t label;
    std::size_t stroke;
    Measure value;
  };
  std::vector<Claim> claims;

  // Something a label could name: a stroke (lines, arcs, outlines) or a vertex dot.
  const bool drawn_elements =
      std::any_of(scene.strokes().begin(), scene.strokes().end(), [](const Stroke& s) { return s.kind != StrokeKind::grid; }) ||
      std::any_of(scene.vertices().begin(), scene.vertices().end(), [](const Vertex& v) { return v.dot; });
  std::size_t checked = 0;
  for (std::size_t li = 0; li < scene.labels().size() && !r.full(); ++li) {
    const Label& l = scene.labels()[li];
    if (l.text.kind == LabelKind::text) continue;
    const ir::Node& n = d.nodes[l.node];
    // Numbers the scene reads as ticks, indices or edge weights are placed by convention (at their
    // tick, inside their node, on their edge), and a drawn node of a graph, flowchart or table is
    // an element itself, not a label of one.
    const LabelRole role = scene.reading(l).role;
    if (role == LabelRole::tick || role == LabelRole::index || role == LabelRole::weight) continue;
    // A label placed on an arrow (midway, pos=, a tikz-cd quoted label) names that arrow (a map, a
    // transition) by construction, whatever its text reads as ($\phi$ is no angle there).
    if (n.on_path && std::any_of(d.elements.begin(), d.elements.end(), [&](const ir::Element& e) {
          return e.path_id == *n.on_path && (e.style.arrow_start || e.style.arrow_end);
        }))
      continue;
    // A node with a border or background of its own is an element that carries its text (a
    // vertex, a state, a box, a shape example), not a label placed beside another element.
    if ((n.drawn || n.filled) && !n.label_of) continue;
    // A letter a text decoration set along a path is part of that text, not a name; a node a
    // layout placed among its fellows (a chain's member, a matrix cell) is an element of it.
    if (n.along_path) continue;
    if (!n.label_of && !n.placed_by.empty()) continue;
    // So is a node an edge ends at: a vertex of a graph, a tree or a figure, named by its text,
    // and any text node of a graph or flowchart (a vertex with no edge yet).
    if (!n.label_of && scene.joined(l.node)) continue;
    const PictureKind kind = scene.picture().kind;
    // Nor is a name in a circuit: it names a component whose drawing (a resistor's zigzag) is the
    // package's, not modelled, and whose own labels the package places beside it.
    if (!n.label_of && l.text.kind == LabelKind::name &&
        (kind == PictureKind::graph || kind == PictureKind::flowchart))
      continue;
    // In a circuit no text is a length, angle or area of a figure either: the package places the
    // components' values, voltages, currents and flows ($\phi$ is a flux there) beside them.
    if (kind == PictureKind::circuit) continue;
    // With nothing drawn but text, the text is the picture: there is nothing for it to name.
    if (!drawn_elements) continue;
    // A label whose own place is a guess (its shape sets its text where the model does not know)
    // is neither far from nor between anything the reader sees.
    if (geometry_lost(d, n)) continue;
    ++checked;
    // A number the scene does not read as a measurement (no unit, no dimension line, not by the
    // middle of a side) names a point or an element: it is associated as a name.
    Label read_as = l;
    if (l.text.kind == LabelKind::length && (role == LabelRole::number || role == LabelRole::equation))
      read_as.text.kind = LabelKind::name;
    Association a = read_as.text.kind == l.text.kind ? scene.associate(l, orphan) : scene.associate(read_as, orphan);
    if (a.caption) continue;  // an area stated outside every shape captions the figure
    if (read_as.text.kind == LabelKind::length && a.rival && a.best && a.best->kind == TargetKind::stroke &&
        scene.strokes()[a.best->index].kind == StrokeKind::straight)
      a.rival = length_rival(scene, l, *a.best, orphan, margin);
    // An angle label states its angle: beside an arc drawn at that angle and one at a visibly
    // different angle, the reader pairs it with the first.
    if (l.text.kind == LabelKind::angle && l.text.value && a.best && a.rival && a.best->kind == TargetKind::stroke &&
        a.rival->kind == TargetKind::stroke) {
      const auto* best_arc = std::get_if<ir::Arc>(&d.elements[scene.strokes()[a.best->index].element].geom);
      const auto* rival_arc = std::get_if<ir::Arc>(&d.elements[scene.strokes()[a.rival->index].element].geom);
      const double v = std::abs(*l.text.value);
      if (best_arc && rival_arc && std::abs(v - std::abs(best_arc->sweep_deg())) <= angle_apart &&
          std::abs(v - std::abs(rival_arc->sweep_deg())) > angle_apart)
        a.rival.reset();
    }
    // Inside an approximate axis, only a label attached by construction is free of the scale.
    const bool by_construction = a.best && a.best->kind == TargetKind::owner;
    const double eps = approximate && !by_construction ? axis.relative : 0.0;
    if (eps > 0 && ((a.best && is_axis_part(*a.best)) || (a.rival && is_axis_part(*a.rival)))) {
      undecided = "label " + quoted(l.text.plain) + " is read against the approximately lowered axis's own box";
      continue;
    }
    std::string what = to_string(read_as.text.kind);
    // A name beside a node drawn with a shape of its own (a place, a state, a circle) names it;
    // so does a name beside a node whose shape paints a symbol (a transistor's C at its lead).
    if (read_as.text.kind == LabelKind::name && (!a.best || a.best->gap > orphan) &&
        std::any_of(d.nodes.begin(), d.nodes.end(), [&](const ir::Node& o) {
          const double dx = std::max({o.box.xmin - l.box.xmax, l.box.xmin - o.box.xmax, 0.0});
          const double dy = std::max({o.box.ymin - l.box.ymax, l.box.ymin - o.box.ymax, 0.0});
          return &o != &n && (o.drawn || o.filled || o.symbol) && std::hypot(dx, dy) <= orphan;
        }))
      continue;
    if (!a.best || a.best->gap > orphan) {
      if (incomplete || n.incomplete) continue;  // the element it names may be the missing one
      if (a.best && a.best->gap * (1 - eps) <= orphan) {
        undecided = "label " + quoted(l.text.plain) + " is orphaned only within the approximate axis's uncertainty";
        continue;
      }
      if (!r.room()) continue;
      double measured = a.best ? a.best->gap : 3 * orphan;
      std::string dist = a.best ? num(measured) + "pt" : "more than " + num(measured) + "pt";
      std::string target = read_as.text.kind == LabelKind::angle    ? "arc, right-angle mark or corner"
                           : read_as.text.kind == LabelKind::length ? "segment"
                           : read_as.text.kind == LabelKind::area   ? "enclosing shape"
                                                              : "element";
      r.findings.push_back(finding(doc, n.prov.range,
                                   what + " label " + quoted(l.text.plain) + " is " + dist + " from the nearest " +
                                       target + "; limit " + num(orphan) + "pt",
                                   measured, orphan, "pt", {{"label", l.text.plain}, {"kind", what}, {"problem", "orphaned"}}));
      continue;
    }
    if (eps > 0 && a.best->gap * (1 + eps) > orphan) {
      undecided = "label " + quoted(l.text.plain) + " is attached only within the approximate axis's uncertainty";
      continue;
    }
    if (a.rival && a.rival->gap <= orphan) {
      double diff = a.rival->center_gap - a.best->center_gap;
      // A point that has a name of its own nearer to it than this one is taken: the reader pairs
      // each point with its nearest name (C below its dot, D below the dot under it), so this
      // name goes to the other candidate.
      if (read_as.text.kind == LabelKind::name && a.rival->kind == TargetKind::vertex) {
        const geo::Point v = scene.vertices()[a.rival->index].p;
        const double mine = geo::dist(l.center, v);
        if (std::any_of(scene.labels().begin(), scene.labels().end(), [&](const Label& o) {
              return &o != &l && o.text.kind == LabelKind::name && !d.nodes[o.node].along_path &&
                     geo::dist(o.center, v) < mine;
            }))
          diff = margin;
      }
      double spread = eps * (a.rival->center_gap + a.best->center_gap);
      if (eps > 0 && std::abs(diff - margin) < spread) {
        undecided = "label " + quoted(l.text.plain) + " is ambiguous only within the approximate axis's uncertainty";
        continue;
      }
      if (diff < margin) {
        if (!r.room()) continue;
        auto describe = [&](const Target& t) -> std::string {
          if (t.kind == TargetKind::owner || t.kind == TargetKind::region) return "shape";
          if (t.kind == TargetKind::vertex) {
            const auto& v = scene.vertices()[t.index];
            return "vertex at (" + num(v.p.x) + "pt, " + num(v.p.y) + "pt)";
          }
          const Stroke& s = scene.strokes()[t.index];
          return std::string(to_string(s.kind)) + " of length " + num(s.length) + "pt";
        };
        Diagnostic f = finding(doc, n.prov.range,
                               what + " label " + quoted(l.text.plain) + " is ambiguous: " + describe(*a.best) +
                                   " at " + num(a.best->center_gap) + "pt and " + describe(*a.rival) + " at " +
                                   num(a.rival->center_gap) + "pt; margin " + num(margin) + "pt",
                               diff, margin, "pt",
                               {{"label", l.text.plain},
                                {"kind", what},
                                {"problem", "ambiguous"},
                                {"candidates", {a.best->center_gap, a.rival->center_gap}}});
        if (a.rival->kind == TargetKind::stroke)
          f.notes.push_back({"the other candidate", d.elements[scene.strokes()[a.rival->index].element].prov.range});
        r.findings.push_back(std::move(f));
        continue;
      }
    }
    // An unambiguous length label on a side (a measurement, by the scene's reading): remembered
    // for the conflict check.
    if (read_as.text.kind == LabelKind::length && role == LabelRole::measurement && !a.enclosed && l.text.value &&
        a.best->kind == TargetKind::stroke && scene.strokes()[a.best->index].kind == StrokeKind::straight &&
        scene.strokes()[a.best->index].length > 0) {
      Measure m{*l.text.value, false};
      if (l.text.unit_in_m > 0) m = {*l.text.value * l.text.unit_in_m, true};
      claims.push_back({li, a.best->index, m});
    }
  }

  // Two different lengths on the same stretch of one segment (or of a segment drawn twice).
  // Such strokes are one stroke, or collinear within 1pt and overlapping along the line, so
  // their bounds come within 1pt: the pairs to test come from an index of the claimed strokes.
  BoxIndex claimed;
  for (std::size_t i = 0; i < claims.size(); ++i) claimed.insert(scene.strokes()[claims[i].stroke].bounds, i);
  for (std::size_t i = 0; i < claims.size() && !r.full(); ++i)
    for (std::size_t j : claimed.query(geo::inflate(scene.strokes()[claims[i].stroke].bounds, 2.0))) {
      if (j <= i) continue;
      const Claim &ci = claims[i], &cj = claims[j];
      if (same_value(ci.value, cj.value)) continue;
      const Stroke& si = scene.strokes()[ci.stroke];
      const Stroke& sj = scene.strokes()[cj.stroke];
      if (ci.stroke != cj.stroke) {
        if (!same_line(si, sj)) continue;
        // not std::minmax(0.0, si.length): it returns references, one to the temporary 0.0
        // (ASan: stack-use-after-scope, found by fuzz_pipeline)
        const double a0 = std::min(0.0, si.length), a1 = std::max(0.0, si.length);
        double b0 = geo::dot(sj.pts.front() - si.pts.front(), si.pts.back() - si.pts.front()) / std::max(1e-9, si.length);
        double b1 = geo::dot(sj.pts.back() - si.pts.front(), si.pts.back() - si.pts.front()) / std::max(1e-9, si.length);
        if (std::max(b0, b1) <= a0 || std::min(b0, b1) >= a1) continue;  // collinear but apart
      }
      const Label& li = scene.labels()[ci.label];
      const Label& lj = scene.labels()[cj.label];
      auto [i0, i1] = extent_along(d.nodes[li.node], si);
      auto [j0, j1] = extent_along(d.nodes[lj.node], si);
      double shared = std::min(i1, j1) - std::max(i0, j0);
      if (shared <= 0) continue;  // different parts of the line
      if (!r.room()) break;
      const ir::Node& nj = d.nodes[lj.node];
      Diagnostic f = finding(doc, nj.prov.range,
                             "length labels " + quoted(li.text.plain) + " and " + quoted(lj.text.plain) +
                                 " name the same stretch of one " + num(si.length) + "pt segment (" + num(shared) +
                                 "pt side by side along it): one of them is on the wrong element",
                             shared, 0, "pt",
                             {{"label", lj.text.plain}, {"other_label", li.text.plain}, {"kind", "length"},
                              {"problem", "conflicting"}});
      f.notes.push_back({"the other label", d.nodes[li.node].prov.range});
      r.findings.push_back(std::move(f));
    }

  // Tick marks: a short stroke drawn on its own must cross (or touch) what it marks. Marks are
  // read in geometric figures only: a short edge of a graph or a step of a plotted curve is none.
  if (!incomplete && scene.picture().kind == PictureKind::geometric)
    for (std::size_t i = 0; i < scene.strokes().size() && !r.full(); ++i) {
      const Stroke& t = scene.strokes()[i];
      const ir::Element& e = d.elements[t.element];
      if (t.kind != StrokeKind::straight || !t.drawn || t.arrow || t.length <= 0 || t.length > mark_len) continue;
      if (e.incomplete) continue;
      bool lone = std::holds_alternative<ir::Segment>(e.geom) ||
                  (std::holds_alternative<ir::Polyline>(e.geom) && std::get<ir::Polyline>(e.geom).points.size() == 2 &&
                   !std::get<ir::Polyline>(e.geom).closed);
      if (!lone) continue;
      // A short stroke from a node's border is an edge to it (a tree's child edge), not a mark.
      auto at_node = [&](const Point& p) {
        return std::any_of(d.nodes.begin(), d.nodes.end(), [&](const ir::Node& n) {
          const double s = n.outer_sep + touch;
          return (has_text(n) || n.drawn || n.filled) && p.x >= n.box.xmin - s && p.x <= n.box.xmax + s && p.y >= n.box.ymin - s &&
                 p.y <= n.box.ymax + s;
        });
      };
      if (at_node(t.pts.front()) || at_node(t.pts.back())) continue;
      // A short stroke that sets text of its own (`-- (p) node[below] {caption}`) leads to that
      // text, or is an axis tick with its value: an equal-length mark carries none.
      if (std::any_of(d.nodes.begin(), d.nodes.end(),
                      [&](const ir::Node& n) { return has_text(n) && same_range(n.prov.range, e.prov.range); }))
        continue;
      geo::Shape mark = geo::Shape::line(t.pts);
      double nearest = INFINITY;
      bool dash = false;  // one of the dashes of a line drawn piece by piece
      for (std::size_t j : scene.strokes_near(t.bounds, orphan)) {
        const Stroke& o = scene.strokes()[j];
        if (o.element == t.element || o.kind == StrokeKind::grid) continue;
        if (o.kind == StrokeKind::straight && same_line(t, o)) {
          dash = true;
          break;
        }
        nearest = std::min(nearest, mark.distance(geo::Shape::line(o.pts)));
      }
      if (dash || nearest <= touch || nearest > orphan) continue;  // crosses something, or is no mark
      if (!r.room()) continue;
      r.findings.push_back(finding(doc, e.prov.range,
                                   "tick mark (" + num(t.length) + "pt stroke) crosses nothing: the nearest element is " +
                                       num(nearest) + "pt away; limit " + num(touch) + "pt",
                                   nearest, touch, "pt", {{"kind", "mark"}, {"problem", "orphaned mark"}}));
    }

  note_dropped(r, doc);
  if (!r.findings.empty()) {
    r.verdict = Verdict::fail;
    return r;
  }
  if (incomplete) return make_result(Verdict::indeterminate, *incomplete);
  if (undecided) return make_result(Verdict::indeterminate, *undecided);
  r.verdict = Verdict::pass;
  if (checked == 0) r.reason = "only captions: nothing to associate";
  return r;
}

}  // namespace tikzlint::checks::rules
