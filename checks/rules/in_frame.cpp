// in_frame: every painted element and every text box lies inside the canvas.
#include <algorithm>
#include <cmath>

#include "checks/geometry.hpp"
#include "checks/rule_support.hpp"
#include "checks/rules/rules.hpp"
#include "checks/scene.hpp"

namespace tikzlint::checks::rules {

const RuleDoc in_frame_doc = {
    "in_frame",
    "an element or a text box sticks out of the canvas (clip region or fixed bounding box)",
    "A diagram is in frame when nothing is cut off: every painted element (stroked or filled) and\n"
    "every text box lies inside the canvas. The canvas is the first \\clip of the picture, or the\n"
    "area fixed by `use as bounding box` or by the page. The rule measures, for each element, the\n"
    "largest distance by which its outline leaves the canvas, and for each node the distance by\n"
    "which its border box leaves it (less the text measurement's own uncertainty).\n"
    "\n"
    "The verdict follows what a reader sees cut: a stroke or fill that runs into the canvas edge\n"
    "(partly inside, partly beyond the tolerance). An element lying entirely outside is invisible\n"
    "rather than cut, and a text box crossing the edge is judged by readers by the figure it\n"
    "labels: both are reported as notes with their overhang, and do not fail the diagram.\n"
    "\n"
    "Without a canvas (a standalone page grows to the picture's bounding box) nothing can be cut\n"
    "off: the verdict is pass, unless some coordinate is not a finite number (fail). This holds for\n"
    "a pgfplots axis too, which clips its plots to the axis box itself. The rule is never n/a.\n"
    "\n"
    "Indeterminate: an element or node whose geometry is incomplete, an unsupported path\n"
    "operation, coordinate or construct, or a pgfplots axis, when no complete element sticks out\n"
    "(a complete element that sticks out fails the diagram whatever else is missing). Unsupported\n"
    "option keys alone (a colour, a font) leave the verdict decided.",
    "\\begin{tikzpicture}\n"
    "  \\clip (0,0) rectangle (3,2);\n"
    "  \\draw (0.5,0.5) -- (3.6,0.5);   % 0.6cm past the right edge\n"
    "\\end{tikzpicture}",
    "Enlarge the clip (or the bounding box) so that it contains the whole figure, or move the\n"
    "element inside it. Remember that node text needs room too.",
    {
        {"tolerance_pt", 2.0, "pt",
         "an overhang under 2pt (0.7mm) is the order of a thick line's half width and is not seen as\n"
         "something cut off at print size"},
    },
};

namespace {

struct Canvas {
  bool is_box = true;
  ir::Box box;
  geo::Shape polygon;  // non-rectangular clips
  // Distance by which p lies outside the canvas (0 inside).
  double overhang(geo::Point p) const {
    if (is_box) {
      double dx = std::max({box.xmin - p.x, 0.0, p.x - box.xmax});
      double dy = std::max({box.ymin - p.y, 0.0, p.y - box.ymax});
      return std::hypot(dx, dy);
    }
    return polygon.distance(geo::Shape::point(p));
  }
  std::string side(geo::Point p) const {
    if (!is_box) return "outside";
    if (p.x < box.xmin) return "left";
    if (p.x > box.xmax) return "right";
    if (p.y < box.ymin) return "bottom";
    return "top";
  }
};

}  // namespace

RuleResult check_in_frame(const ir::Diagram& d, const Config& cfg) {
  const RuleDoc& doc = in_frame_doc;
  const double tol = cfg.get(doc, "tolerance_pt");
  RuleResult r;

  for (const ir::Element& e : d.elements) {
    for (const auto& outline : geo::element_outlines(e))
      if (!std::all_of(outline.begin(), outline.end(), geo::finite)) {
        r.findings.push_back(finding(doc, e.prov.range, "element has a coordinate that is not a finite number", INFINITY,
                                     tol, "pt", {{"reason", "non-finite coordinate"}}));
        break;
      }
  }

  Canvas canvas;
  std::string canvas_name;
  if (d.canvas_source == "clip" && !d.clips.empty() && !d.clips.front().is_rectangle &&
      d.clips.front().polygon.size() >= 3) {
    canvas.is_box = false;
    canvas.polygon = geo::Shape::polygon(d.clips.front().polygon);
    canvas.box = d.clips.front().bounds;
    canvas_name = "clip";
  } else if (d.canvas) {
    canvas.box = *d.canvas;
    canvas_name = d.canvas_source.empty() ? "canvas" : d.canvas_source;
  } else if (!d.clips.empty()) {
    canvas.box = d.clips.front().bounds;
    canvas_name = "clip";
  } else {
    if (!r.findings.empty()) {
      r.verdict = Verdict::fail;
      return r;
    }
    // A pgfplots axis clips its plots to the axis box, and the page grows to fit the axis: with
    // no canvas of the picture's own, nothing can be cut even though the axis is not lowered.
    return make_result(Verdict::pass, "no clip and no fixed bounding box: the page grows to fit the picture");
  }
  nlohmann::json canvas_json = {{"canvas", canvas_name},
                                {"canvas_box", {canvas.box.xmin, canvas.box.ymin, canvas.box.xmax, canvas.box.ymax}}};

  for (const ir::Element& e : d.elements) {
    if (!visible(e)) continue;
    double worst = 0;
    geo::Point worst_p;
    bool partly_inside = false;
    for (const auto& outline : geo::element_outlines(e))
      for (const geo::Point& p : outline) {
        if (!geo::finite(p)) continue;
        double o = canvas.overhang(p);
        if (o <= 0) partly_inside = true;
        if (o > worst) worst = o, worst_p = p;
      }
    if (worst > tol) {
      nlohmann::json ev = canvas_json;
      ev["side"] = canvas.side(worst_p);
      ev["point"] = {worst_p.x, worst_p.y};
      ev["partly_inside"] = partly_inside;
      Diagnostic f = finding(doc, e.prov.range,
                             std::string(partly_inside ? "element is cut off: it extends " : "element lies outside: it extends ") +
                                 num(worst) + "pt past the " + canvas.side(worst_p) + " edge of the " + canvas_name +
                                 "; limit " + num(tol) + "pt",
                             worst, tol, "pt", ev);
      // Entirely outside, an element is invisible rather than visibly cut: a note.
      if (!partly_inside) f.severity = Severity::note;
      r.findings.push_back(std::move(f));
    }
  }
  for (const ir::Node& n : d.nodes) {
    if (!has_text(n)) continue;
    double worst = 0;
    geo::Point worst_p;
    for (const geo::Point& p : geo::node_ring(n)) {
      if (!geo::finite(p)) continue;
      double o = canvas.overhang(p);
      if (o > worst) worst = o, worst_p = p;
    }
    // The text box is measured, not typeset: only an overhang beyond its uncertainty counts.
    double limit = tol + n.uncertainty_pt;
    if (worst > limit) {
      nlohmann::json ev = canvas_json;
      ev["side"] = canvas.side(worst_p);
      ev["text"] = n.text;
      ev["uncertainty_pt"] = n.uncertainty_pt;
      Diagnostic f = finding(doc, n.prov.range,
                             "text " + quoted(plain_text(n.text)) + " extends " + num(worst) + "pt past the " +
                                 canvas.side(worst_p) + " edge of the " + canvas_name + "; limit " + num(limit) + "pt",
                             worst, limit, "pt", ev);
      f.severity = Severity::note;  // see the description: text does not decide the verdict
      r.findings.push_back(std::move(f));
    }
  }

  bool cut = std::any_of(r.findings.begin(), r.findings.end(), [](const Diagnostic& f) { return f.severity != Severity::note; });
  if (cut) {
    r.verdict = Verdict::fail;
    return r;
  }
  if (auto why = incomplete_geometry(d)) {
    RuleResult ind = make_result(Verdict::indeterminate, *why);
    ind.findings = std::move(r.findings);
    return ind;
  }
  r.verdict = Verdict::pass;
  return r;
}

}  // namespace tikzlint::checks::rules
