// angle_labels: labelled angles and right-angle marks agree with the angles drawn.
#include <cmath>

#include "checks/angles.hpp"
#include "checks/rule_support.hpp"
#include "checks/rules/rules.hpp"
#include "checks/scene.hpp"

namespace tikzlint::checks::rules {

const RuleDoc angle_labels_doc = {
    "angle_labels",
    "a numeric angle label or a right-angle mark disagrees with the angle drawn",
    "Each numeric angle label (\"60°\", \"$60^\\circ$\", \"60^{\\circ}\") is matched with the angle it\n"
    "names: the nearest arc (then the angle between the two lines that meet at the arc's centre, or\n"
    "the arc's sweep when no lines meet there), a right-angle mark, or the corner whose wedge holds\n"
    "the label. Two arcs of one circle drawn out of one point, one each way (an angle marked by\n"
    "arrows from its bisector to both sides), are one arc: a label set toward the point they\n"
    "share rather than toward the nearer arc's middle names the angle both span. The drawn angle\n"
    "must equal the label within a tolerance. Each right-angle mark\n"
    "(the IR's mark, a small square in a corner, or a small \"L\" resting on two lines) must sit\n"
    "between two lines that meet at 90° within the same tolerance.\n"
    "\n"
    "n/a: no numeric angle label and no right-angle mark (arcs without numbers, and angle names\n"
    "such as \"$\\theta$\", state no value). A label whose angle cannot be found is left to\n"
    "label_association. The rule applies to geometric figures only (the scene's reading, shown by\n"
    "`tikzlint ir`): in a graph, flowchart, plot or table it is n/a. A label, arc or mark whose place\n"
    "is not known (something in its statement, or a key of its scope, was not modelled) is not\n"
    "judged. Indeterminate: the geometry is incomplete and nothing that was measured\n"
    "disagrees.",
    "\\draw (0,0) -- (4,0) -- (2,1) -- cycle;\n"
    "\\draw (0.6,0) arc (0:26.6:0.6);\n"
    "\\node at (0.9,0.2) {$60^\\circ$};   % the angle drawn is 26.6 degrees",
    "Compute the vertices from the angle (e.g. (60:3) in polar coordinates) or correct the label.",
    {
        {"tolerance_deg", 5.0, "deg",
         "readers estimate drawn angles to within about 5 degrees; a larger difference is visible"},
        {"association_pt", 24.0, "pt",
         "an angle label is read as naming an arc or corner within two text lines (24pt at 12pt)"},
        {"max_mark_pt", 18.0, "pt",
         "right-angle marks are drawn a few millimetres wide, at most about a quarter inch (18pt); a\n"
         "wider square is a shape"},
        {"mark_line_ratio", 2.0, "ratio",
         "a mark is small beside the lines it marks: both lines are at least twice its leg"},
    },
};

RuleResult check_angle_labels(const ir::Diagram& d, const Config& cfg) {
  const RuleDoc& doc = angle_labels_doc;
  const double tol = cfg.get(doc, "tolerance_deg");
  const double radius = cfg.get(doc, "association_pt");
  Scene scene(d);
  // Angles are measured in geometric figures only (the scene's reading).
  if (scene.picture().kind != PictureKind::geometric)
    return make_result(Verdict::na, std::string("a ") + to_string(scene.picture().kind) + " (" + scene.picture().evidence +
                                        "): no angle of a figure is stated");
  auto marks = right_angle_marks(scene, cfg.get(doc, "max_mark_pt"), cfg.get(doc, "mark_line_ratio"));
  RuleResult r;
  int checked = 0;

  for (const Label& l : scene.labels()) {
    if (l.text.kind != LabelKind::angle || !l.text.value || !scene.measures(l)) continue;
    // a label or an arc whose place is not known (something in its statement or scope was not
    // modelled) states nothing the reader is shown
    const ir::Node& ln = d.nodes[l.node];
    if (geometry_lost(d, ln)) continue;
    double labelled = *l.text.value;
    auto reading = angle_named_by(scene, l, radius, marks);
    if (!reading) continue;
    if (reading->source == AngleReading::Source::arc) {
      const ir::Element& arc = d.elements[scene.strokes()[reading->index].element];
      if (geometry_lost(d, arc)) continue;
    }
    ++checked;
    double diff = std::abs(reading->drawn_deg - labelled);
    if (diff > tol) {
      const char* where = reading->source == AngleReading::Source::arc      ? "arc"
                          : reading->source == AngleReading::Source::mark ? "right-angle mark"
                                                                          : "corner";
      r.findings.push_back(finding(doc, d.nodes[l.node].prov.range,
                                   "angle label " + quoted(l.text.plain) + " names a " + num(reading->drawn_deg) +
                                       "° angle at the " + where + "; differs by " + num(diff) + "°, limit " + num(tol) + "°",
                                   diff, tol, "deg",
                                   {{"label", l.text.plain}, {"labelled_deg", labelled}, {"drawn_deg", reading->drawn_deg}}));
    }
  }
  for (const RightAngleReading& m : marks) {
    if (geometry_lost(d, d.elements[m.element])) continue;
    ++checked;
    double diff = std::abs(m.drawn_deg - 90);
    if (diff > tol)
      r.findings.push_back(finding(doc, d.elements[m.element].prov.range,
                                   "right-angle mark sits in a " + num(m.drawn_deg) + "° angle; differs from 90° by " +
                                       num(diff) + "°, limit " + num(tol) + "°",
                                   diff, tol, "deg", {{"drawn_deg", m.drawn_deg}, {"labelled_deg", 90}}));
  }

  if (!r.findings.empty()) {
    r.verdict = Verdict::fail;
    return r;
  }
  auto incomplete = incomplete_geometry(d);
  if (checked == 0) {
    bool numeric_angle_label = false;
    for (const Label& l : scene.labels()) numeric_angle_label |= l.text.kind == LabelKind::angle && l.text.value.has_value();
    if (numeric_angle_label && incomplete) return make_result(Verdict::indeterminate, *incomplete);
    return make_result(Verdict::na, numeric_angle_label ? "no angle label could be matched with a drawn angle"
                                                        : "no numeric angle label and no right-angle mark");
  }
  if (incomplete) return make_result(Verdict::indeterminate, *incomplete);
  r.verdict = Verdict::pass;
  return r;
}

}  // namespace tikzlint::checks::rules
