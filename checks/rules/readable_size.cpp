// readable_size: text and shapes large enough to read once the picture is shown on a page.
#include <algorithm>
#include <cmath>

#include "checks/geometry.hpp"
#include "checks/rule_support.hpp"
#include "checks/rules/rules.hpp"
#include "checks/scene.hpp"

namespace tikzlint::checks::rules {

const RuleDoc readable_size_doc = {
    "readable_size",
    "text or shapes too small to read once the picture is fitted on the page",
    "A diagram is read at the size it is shown. The display comes from the document: a standalone\n"
    "page or a bare snippet is shown at its natural size; in a document class the picture is\n"
    "fitted to the text width (IM: 4.875in; article, report, book: 345pt, 360pt, 390pt at 10, 11,\n"
    "12pt; beamer: 307pt) and the page's text height, and its text shrinks with it. A document\n"
    "that loads the geometry package sets its own text block: its margins, text width and paper\n"
    "(geometry's options and the class's paper option) decide the width and height. A setting\n"
    "(display_width_pt > 0) overrides the width; the evidence names the display used. The rule\n"
    "computes the fit factor from the picture's extent (strokes and text boxes) and checks:\n"
    "- every text label's size after fitting (its final font size times the fit factor) against\n"
    "  an absolute minimum (min_text_pt for text at its set size, min_scaled_text_pt for text\n"
    "  shrunk by fitting);\n"
    "- every shape (closed outline, circle) against a minimum fraction of the diagram's extent:\n"
    "  a shape that small is a speck next to the rest. Marks meant to be small (right-angle marks,\n"
    "  tick marks, vertex dots, angle arcs, arrows) are exempt.\n"
    "\n"
    "Never n/a (an empty picture passes). Indeterminate when the geometry is incomplete and\n"
    "nothing measured fails (the missing part could change the extent); text that is too small\n"
    "only because incomplete geometry (an unplaced node, a node whose nested picture is not sized)\n"
    "widens the extent is not reported either. A pgfplots axis does not\n"
    "make it indeterminate: pgfplots sets the axis to a fixed size (240pt wide by default) with\n"
    "text at the document's size, so the rule decides on the rest of the picture.",
    "\\begin{tikzpicture}[x=1in,y=1in]\n"
    "  \\draw (0,0) rectangle (12,4);          % 12in wide: shown at 40% on a 4.875in text width\n"
    "  \\node[below] at (6,0) {12 units};     % 12pt text then reads as 4.9pt\n"
    "\\end{tikzpicture}",
    "Draw the figure at the size it will be shown (at most the text width, e.g. x=0.25in for a\n"
    "12-unit side), or enlarge the text (font=\\Large) when the figure must be big.",
    {
        {"min_text_pt", 7.0, "pt",
         "text set at its size (not shrunk by fitting): 7pt is \\scriptsize of a 10pt document, the\n"
         "smallest size print sets for reading (sub- and superscripts, small captions), with fonts cut\n"
         "for it (optical sizes: wider, heavier letters); \\tiny (5pt) is not read comfortably"},
        {"min_scaled_text_pt", 8.0, "pt",
         "text shrunk by fitting: a font designed for 10 to 12pt scaled below 8pt (\\footnotesize) has\n"
         "thinner strokes and tighter spacing than a font cut for that size, and reads worse"},
        {"display_width_pt", 0.0, "pt",
         "the width the picture is shown at; 0 derives it from the document class (see above), a\n"
         "positive value overrides it (e.g. the column width a figure will be placed in)"},
        {"page_height_pt", 578.2, "pt",
         "8in, the usable text height of a letter page; a taller picture in a document class is\n"
         "scaled down to fit"},
        {"min_shape_ratio", 0.02, "ratio",
         "a shape smaller than 2% of the diagram's smaller side is a speck beside the rest (the\n"
         "published pipeline's threshold)"},
    },
};

namespace {

// Where the picture is shown: the text block of its document class, or its natural size.
struct Display {
  double width = 0, height = 0;  // 0: natural size in that direction (no fitting)
  std::string source;
};

Display display_of(const ir::Diagram& d, double width_setting, double page_height) {
  if (width_setting > 0) return {width_setting, page_height, "display_width_pt setting"};
  const std::string& c = d.document_class;
  if (c.empty() || c == "standalone") return {0, 0, c.empty() ? "a bare picture, at natural size" : "standalone, at natural size"};
  // The text block the document sets (the geometry package's margins on its paper).
  if (d.text_block)
    return {d.text_block->width, d.text_block->height > 0 ? d.text_block->height : page_height,
            "the text width " + num(d.text_block->width) + "pt (" + d.text_block->source + ")"};
  if (c == "IM") return {352.3, page_height, "the IM class's text width (4.875in)"};
  if (c == "beamer") return {307.3, 0, "beamer's text width (108mm)"};
  // The standard classes (and those built on them): \textwidth by the base font size
  // (classes.dtx: 345pt, 360pt, 390pt at 10pt, 11pt, 12pt, letter paper).
  double w = d.base_font_size_pt >= 12 ? 390 : d.base_font_size_pt >= 11 ? 360 : 345;
  return {w, page_height, "the text width of class " + c + " (" + num(w) + "pt)"};
}

}  // namespace

RuleResult check_readable_size(const ir::Diagram& d, const Config& cfg) {
  const RuleDoc& doc = readable_size_doc;
  const double min_text = cfg.get(doc, "min_text_pt");
  const double min_scaled_text = cfg.get(doc, "min_scaled_text_pt");
  const Display display = display_of(d, cfg.get(doc, "display_width_pt"), cfg.get(doc, "page_height_pt"));
  const double ratio = cfg.get(doc, "min_shape_ratio");
  Scene scene(d);
  RuleResult r;
  if (!scene.extent()) {
    if (auto why = incomplete_geometry(d, false)) return make_result(Verdict::indeterminate, *why);
    return make_result(Verdict::pass, "nothing is drawn");
  }
  // The canvas, when there is one, is what is shown; otherwise the picture's extent.
  ir::Box shown = *scene.extent();
  if (d.canvas) {
    shown.xmin = std::max(shown.xmin, d.canvas->xmin);
    shown.ymin = std::max(shown.ymin, d.canvas->ymin);
    shown.xmax = std::min(shown.xmax, d.canvas->xmax);
    shown.ymax = std::min(shown.ymax, d.canvas->ymax);
    if (shown.width() <= 0 || shown.height() <= 0) shown = *d.canvas;
  }
  auto fit_of = [&](const ir::Box& b) {
    double f = 1.0;
    if (b.width() > 0 && display.width > 0) f = std::min(f, display.width / b.width());
    if (b.height() > 0 && display.height > 0) f = std::min(f, display.height / b.height());
    return f;
  };
  const double fit = fit_of(shown);
  // The fit the complete geometry alone asks for: text too small only because an unplaced or
  // unsized part (a node whose nested picture was not measured) widens the extent is undecided.
  double fit_sure = fit;
  if (fit < 1) {
    std::vector<geo::Point> pts;
    for (const Stroke& s : scene.strokes())
      if (s.kind != StrokeKind::grid && !d.elements[s.element].incomplete) pts.insert(pts.end(), s.pts.begin(), s.pts.end());
    for (const auto* list : {&scene.labels(), &scene.furniture()})
      for (const Label& l : *list)
        if (!d.nodes[l.node].incomplete) {
          pts.push_back({l.box.xmin, l.box.ymin});
          pts.push_back({l.box.xmax, l.box.ymax});
        }
    if (!pts.empty()) {
      ir::Box sure = geo::bounds_of(pts);
      if (d.canvas) {
        sure.xmin = std::max(sure.xmin, d.canvas->xmin);
        sure.ymin = std::max(sure.ymin, d.canvas->ymin);
        sure.xmax = std::min(sure.xmax, d.canvas->xmax);
        sure.ymax = std::min(sure.ymax, d.canvas->ymax);
      }
      if (sure.width() > 0 && sure.height() > 0) fit_sure = std::max(fit, fit_of(sure));
    } else {
      fit_sure = 1.0;  // nothing complete bounds the extent
    }
  }
  // Evidence of a finding (built only for one: most diagrams have none).
  auto fit_json = [&] {
    return nlohmann::json{{"fit_factor", std::round(fit * 1000) / 1000},
                          {"extent_pt", {shown.width(), shown.height()}},
                          {"display", display.source},
                          {"display_width_pt", display.width}};
  };

  // Text after fitting: report the smallest label, counting all that are too small.
  const Label* worst = nullptr;
  double worst_size = INFINITY;
  int small = 0;
  // The limit: text at its set size against min_text_pt, text shrunk by fitting against
  // min_scaled_text_pt.
  const double limit_text = fit < 1 ? min_scaled_text : min_text;
  for (const Label& l : scene.labels()) {
    const ir::Node& n = d.nodes[l.node];
    double size = n.font_size_pt * fit;
    // Small only through the incomplete geometry's share of the extent: not decided.
    if (n.font_size_pt * fit_sure >= limit_text) continue;
    if (size < limit_text) ++small;
    if (size < worst_size) worst_size = size, worst = &l;
  }
  if (worst && worst_size < limit_text) {
    const ir::Node& n = d.nodes[worst->node];
    nlohmann::json ev = fit_json();
    ev["font_size_pt"] = n.font_size_pt;
    ev["labels_too_small"] = small;
    std::string why = fit < 1 ? " (" + num(n.font_size_pt) + "pt text in a picture " + num(shown.width()) + "pt x " +
                                    num(shown.height()) + "pt shown at " + num(fit * 100) + "%)"
                              : "";
    r.findings.push_back(finding(doc, n.prov.range,
                                 "text " + quoted(worst->text.plain) + " reads at " + num(worst_size) + "pt" + why +
                                     "; limit " + num(limit_text) + "pt",
                                 worst_size, limit_text, "pt", std::move(ev)));
  }

  // Shapes that are specks beside the diagram.
  double ref = std::min(shown.width(), shown.height());
  double limit = ratio * ref;
  for (const ir::Element& e : d.elements) {
    if (!visible(e)) continue;
    if (std::holds_alternative<ir::RightAngleMark>(e.geom) || std::holds_alternative<ir::Grid>(e.geom)) continue;
    const auto& region = scene.region(static_cast<std::size_t>(&e - d.elements.data()));
    if (!region) continue;
    ir::Box b = geo::bounds_of(*region);
    double size = std::max(b.width(), b.height());
    // Small squares and dots at a vertex are marks (right-angle marks, vertex dots), not shapes.
    if (size < 12) continue;
    if (size < limit) {
      r.findings.push_back(finding(doc, e.prov.range,
                                   "shape is " + num(size) + "pt across in a diagram " + num(ref) +
                                       "pt on its smaller side; limit " + num(limit) + "pt",
                                   size, limit, "pt", fit_json()));
    }
  }

  if (!r.findings.empty()) {
    r.verdict = Verdict::fail;
    return r;
  }
  if (auto why = incomplete_geometry(d, false)) return make_result(Verdict::indeterminate, *why);
  r.verdict = Verdict::pass;
  return r;
}

}  // namespace tikzlint::checks::rules
