// label_association: each label sits by an element of the right kind, without ambiguity.
#include <algorithm>

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
    "first: the reader cannot tell which one it names. Captions and other running text (titles,\n"
    "formulas, several words) describe the figure as a whole and are not checked.\n"
    "\n"
    "n/a: the diagram has no text labels. A pgfplots axis with no text labels of the author's\n"
    "passes: its tick and axis labels are placed by pgfplots at the tick or axis they name.\n"
    "Indeterminate: the geometry is incomplete (an\n"
    "unsupported construct or an incomplete element or node) and no label is found orphaned or\n"
    "ambiguous among the complete ones; orphaned labels next to incomplete geometry are not\n"
    "reported, since the missing element may be the one they name.",
    "\\draw (0,0) -- (3,0) -- (0,4) -- cycle;\n"
    "\\node[right] at (3,2) {5 cm};   % the hypotenuse runs from (3,0) to (0,4): 1.2cm away",
    "Place the label next to its element: use `node[midway, above]` on the path that draws the\n"
    "side, `label=` on the vertex node, or a node at the arc's mid-angle for an angle.",
    {
        {"orphan_distance_pt", 18.0, "pt",
         "a quarter inch, about one and a half text lines at 12pt: TikZ places attached labels within\n"
         "a few points (inner sep .3333em plus label distance), and a gap wider than this no longer\n"
         "reads as belonging to the element"},
        {"ambiguity_margin_pt", 3.0, "pt",
         "two candidates whose distances from the label's centre differ by less than 3pt (about a\n"
         "quarter of a 12pt glyph) look equally close to a reader"},
    },
};

RuleResult check_label_association(const ir::Diagram& d, const Config& cfg) {
  const RuleDoc& doc = label_association_doc;
  const double orphan = cfg.get(doc, "orphan_distance_pt");
  const double margin = cfg.get(doc, "ambiguity_margin_pt");
  Scene scene(d);
  RuleResult r;
  if (scene.labels().empty()) {
    // pgfplots typesets its tick and axis labels itself, each at the tick or axis it names.
    if (d.uses_axis)
      return make_result(Verdict::pass,
                         "the only labels are a pgfplots axis's own tick and axis labels, placed at what they name");
    return make_result(Verdict::na, "the diagram has no text labels");
  }
  auto incomplete = incomplete_geometry(d);

  std::size_t checked = 0;
  for (const Label& l : scene.labels()) {
    if (l.text.kind == LabelKind::text) continue;
    const ir::Node& n = d.nodes[l.node];
    ++checked;
    Association a = scene.associate(l, orphan);
    if (a.caption) continue;  // an area stated outside every shape captions the figure
    std::string what = to_string(l.text.kind);
    if (!a.best || a.best->gap > orphan) {
      if (incomplete || n.incomplete) continue;  // the element it names may be the missing one
      double measured = a.best ? a.best->gap : 3 * orphan;
      std::string dist = a.best ? num(measured) + "pt" : "more than " + num(measured) + "pt";
      std::string target = l.text.kind == LabelKind::angle    ? "arc, right-angle mark or corner"
                           : l.text.kind == LabelKind::length ? "segment"
                           : l.text.kind == LabelKind::area   ? "enclosing shape"
                                                              : "element";
      r.findings.push_back(finding(doc, n.prov.range,
                                   what + " label " + quoted(l.text.plain) + " is " + dist + " from the nearest " +
                                       target + "; limit " + num(orphan) + "pt",
                                   measured, orphan, "pt", {{"label", l.text.plain}, {"kind", what}, {"problem", "orphaned"}}));
      continue;
    }
    if (a.rival && a.rival->gap <= orphan && a.rival->center_gap - a.best->center_gap < margin) {
      double diff = a.rival->center_gap - a.best->center_gap;
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
                             what + " label " + quoted(l.text.plain) + " is ambiguous: " + describe(*a.best) + " at " +
                                 num(a.best->center_gap) + "pt and " + describe(*a.rival) + " at " +
                                 num(a.rival->center_gap) + "pt; margin " + num(margin) + "pt",
                             diff, margin, "pt",
                             {{"label", l.text.plain},
                              {"kind", what},
                              {"problem", "ambiguous"},
                              {"candidates", {a.best->center_gap, a.rival->center_gap}}});
      if (a.rival->kind == TargetKind::stroke)
        f.notes.push_back({"the other candidate", d.elements[scene.strokes()[a.rival->index].element].prov.range});
      r.findings.push_back(std::move(f));
    }
  }
  if (!r.findings.empty()) {
    r.verdict = Verdict::fail;
    return r;
  }
  if (incomplete) return make_result(Verdict::indeterminate, *incomplete);
  r.verdict = Verdict::pass;
  if (checked == 0) r.reason = "only captions: nothing to associate";
  return r;
}

}  // namespace tikzlint::checks::rules
