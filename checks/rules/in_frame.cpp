// in_frame: every painted element and every text box lies inside the canvas.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "checks/geometry.hpp"
#include "checks/rule_support.hpp"
#include "checks/rules/rules.hpp"
#include "checks/scene.hpp"

namespace tikzlint::checks::rules {

const RuleDoc in_frame_doc = {
    "in_frame",
    "an element or a text box sticks out of the canvas (clip region or fixed bounding box)",
    "A diagram is in frame when nothing is cut off: every painted element (stroked or filled) and\n"
    "every text box lies inside the canvas. The canvas is the first \\clip of the picture (at\n"
    "picture level: a \\clip inside a scope clips that scope only and is no frame), or the area\n"
    "fixed by `use as bounding box` or by the page. The rule measures, for each element, the\n"
    "largest distance by which its outline leaves the canvas, and for each node the distance by\n"
    "which its border box leaves it (less the text measurement's own uncertainty). A clip acts on\n"
    "what is drawn after it: an element drawn before the picture's \\clip is not clipped, and the\n"
    "picture grows to fit it (after a clip pgf no longer counts later paths for the picture's\n"
    "size), so it is never cut by that frame.\n"
    "\n"
    "The verdict follows what a reader sees cut: a stroke or fill that runs into the canvas edge\n"
    "(partly inside, partly beyond the tolerance). An element lying entirely outside is invisible\n"
    "rather than cut, and a text box crossing a bounding box's edge is judged by readers by the\n"
    "figure it labels: both are reported as notes with their overhang, and do not fail the diagram.\n"
    "A clip is drawn on purpose: an open line it trims (a grid, an axis, a function graph: its end\n"
    "beyond the clip is free, not a corner where other lines end or a vertex dot sits, and no\n"
    "arrow tip of it lies beyond the clip: an axis cut at its tail is trimmed, one whose tip is\n"
    "cut fails) or a fill it shapes (filled, not drawn) is a note too, unless a text label is\n"
    "placed on that line; a drawn closed shape it cuts fails. A clip is a viewport onto a larger\n"
    "drawing when a grid or an open line with no text on it and free ends (no corner, no vertex\n"
    "dot) runs on past two opposite edges of the clip's bounds: the author drew the plane beyond the window (a zoom on part of a\n"
    "construction), and every line or shape without text on it that the viewport cuts (arrowed\n"
    "axes included) is a note too. Text a clip cuts stays a note (see above): the dev set's raters\n"
    "judged pictures whose clip cut a side's label as in frame. A line that crosses the canvas\n"
    "with both ends outside is cut, not invisible. A clip to the picture's bounding box so far\n"
    "(`\\clip (current bounding box.south west) rectangle (current bounding box.north east)`,\n"
    "tkz-euclide's \\tkzClipBB) fixes the frame at what is already drawn: what is drawn after it\n"
    "and runs past it (construction lines, circles) is cropped on purpose, as through a viewport,\n"
    "unless text is placed on it.\n"
    "\n"
    "A standalone page (without the tikz class option) holds the picture's whole paragraph: with\n"
    "text beside the picture, a `use as bounding box` crops only at its top and bottom, and what\n"
    "runs past its left or right edge lies on the page beside the text.\n"
    "\n"
    "Without a canvas (a standalone page grows to the picture's bounding box) nothing can be cut\n"
    "off: the verdict is pass, unless some coordinate is not a finite number (fail). This holds for\n"
    "a pgfplots axis too, which clips its plots to the axis box itself. The rule is never n/a.\n"
    "\n"
    "The clip a pgfplots axis puts around its own plots is not the picture's canvas: curves that\n"
    "run to the axis box end there by design, and the page still grows to fit the axis.\n"
    "\n"
    "An axis the lowering maps only approximately (an `approximate-axis` note: some of its keys or\n"
    "text are not modelled, packages/pgfplots/README.md) is geometry known to within\n"
    "`axis_uncertainty_pt`. Against a canvas of the picture's own, the rule then decides\n"
    "only when the evidence is clear of that uncertainty: an element sticking out by more than\n"
    "the tolerance plus the uncertainty fails, every element inside by at least the uncertainty\n"
    "less the tolerance passes, and anything between is indeterminate.\n"
    "\n"
    "Indeterminate: an element or node whose geometry is incomplete, an unsupported path\n"
    "operation, coordinate or construct, or a pgfplots axis that is not lowered, when no complete\n"
    "element sticks out (a complete element that sticks out fails the diagram whatever else is\n"
    "missing). Unsupported option keys alone (a colour, a font) leave the verdict decided.",
    "\\begin{tikzpicture}\n"
    "  \\clip (0,0) rectangle (3,2);\n"
    "  \\draw (0.5,0.5) rectangle (3.6,1.5);   % 0.6cm past the right edge\n"
    "\\end{tikzpicture}",
    "Enlarge the clip (or the bounding box) so that it contains the whole figure, or move the\n"
    "element inside it. Remember that node text needs room too.",
    {
        {"tolerance_pt", 2.0, "pt",
         "an overhang under 2pt (0.7mm) is the order of a thick line's half width and is not seen as\n"
         "something cut off at print size"},
        {"axis_uncertainty_pt", 45.0, "pt",
         "an approximately lowered pgfplots axis reserves 45pt for tick and axis labels where pgfplots\n"
         "measures them; the box's far edges, and the data points scaled with it, may be off by as much"},
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
  // Signed: the overhang outside, minus the depth to the nearest edge inside.
  double signed_overhang(geo::Point p) const {
    if (double o = overhang(p); o > 0) return o;
    if (is_box) return -std::min({p.x - box.xmin, box.xmax - p.x, p.y - box.ymin, box.ymax - p.y});
    return -boundary.distance(geo::Shape::point(p));
  }
  geo::Shape boundary;  // non-rectangular clips: the ring as a line
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

  // Each element's outlines, made once (circles and arcs are sampled): both passes read them.
  std::vector<std::vector<std::vector<geo::Point>>> outlines;
  outlines.reserve(d.elements.size());
  for (const ir::Element& e : d.elements) outlines.push_back(geo::element_outlines(e));

  for (std::size_t ei = 0; ei < d.elements.size(); ++ei) {
    const ir::Element& e = d.elements[ei];
    for (const auto& outline : outlines[ei])
      if (!std::all_of(outline.begin(), outline.end(), geo::finite)) {
        r.findings.push_back(finding(doc, e.prov.range, "element has a coordinate that is not a finite number", INFINITY,
                                     tol, "pt", {{"reason", "non-finite coordinate"}}));
        break;
      }
  }

  // The clip of a lowered pgfplots axis (made by the statement its `approximate-axis` note
  // points at) bounds the axis's plots, not the picture.
  bool approximate_axis = false, axis_not_lowered = false;
  std::vector<SourceRange> axis_ranges;
  for (const Diagnostic& diag : d.diagnostics) {
    if (diag.rule == "approximate-axis") approximate_axis = true, axis_ranges.push_back(diag.range);
    if (diag.rule == "unsupported-construct" && diag.message.find("axis") != std::string::npos) axis_not_lowered = true;
  }
  auto same = [](const SourceRange& a, const SourceRange& b) {
    return a.valid && b.valid && a.file == b.file && a.begin == b.begin && a.end == b.end;
  };
  // The frame is the picture-level clip the lowering took as the canvas; a \clip inside a scope
  // clips only that scope's contents and is not the picture's frame.
  const ir::ClipRegion* clip = nullptr;
  if (d.canvas_source == "clip" && d.canvas)
    for (const ir::ClipRegion& c : d.clips)
      if (c.owner.empty() && std::none_of(axis_ranges.begin(), axis_ranges.end(), [&](const SourceRange& r) { return same(r, c.prov.range); }) &&
          c.bounds.xmin == d.canvas->xmin && c.bounds.ymin == d.canvas->ymin && c.bounds.xmax == d.canvas->xmax &&
          c.bounds.ymax == d.canvas->ymax) {
        clip = &c;
        break;
      }
  const double uncertainty = approximate_axis ? cfg.get(doc, "axis_uncertainty_pt") : 0.0;

  Canvas canvas;
  std::string canvas_name;
  if (d.canvas_source == "clip" && clip && !clip->is_rectangle && clip->polygon.size() >= 3) {
    canvas.is_box = false;
    canvas.polygon = geo::Shape::polygon(clip->polygon);
    std::vector<geo::Point> ring = clip->polygon;
    ring.push_back(ring.front());
    canvas.boundary = geo::Shape::line(ring);
    canvas.box = clip->bounds;
    canvas_name = "clip";
  } else if (d.canvas) {
    canvas.box = *d.canvas;
    canvas_name = d.canvas_source.empty() ? "canvas" : d.canvas_source;
    // A standalone page holds the whole paragraph (without the tikz option, which makes each
    // picture a page): with text beside the picture, the page runs on past the bounding box's
    // left and right edges by that text, and only its top and bottom crop.
    const bool multi = std::find(d.class_options.begin(), d.class_options.end(), "tikz") != d.class_options.end();
    if (d.canvas_source == "use as bounding box" && d.text_beside && d.document_class == "standalone" && !multi) {
      canvas.box.xmin = -std::numeric_limits<double>::max();
      canvas.box.xmax = std::numeric_limits<double>::max();
      canvas_name = "use as bounding box (text beside it)";
    }
  } else {
    if (!r.findings.empty()) {
      r.verdict = Verdict::fail;
      return r;
    }
    // A pgfplots axis clips its plots to the axis box, and the page grows to fit the axis: with
    // no canvas of the picture's own, nothing can be cut even though the axis is not lowered.
    return make_result(Verdict::pass, "no clip and no fixed bounding box: the page grows to fit the picture");
  }
  const bool clip_frame = canvas_name == "clip";
  // A clip acts on what is drawn after it: an element drawn before the picture's \clip is not
  // in it (and the picture grows to fit it: after a clip, pgf no longer counts later paths for
  // the picture's size, earlier ones it did). Such an element is never cut by the frame.
  const std::optional<std::uint32_t> frame_clip =
      clip ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(clip - d.clips.data())) : std::nullopt;
  auto before_the_clip = [&](const ir::Element& e) {
    return clip_frame && frame_clip && !e.clip_unknown &&
           std::find(e.clips.begin(), e.clips.end(), *frame_clip) == e.clips.end();
  };
  // A clip to the picture's bounding box so far (`\clip (current bounding box.south west)
  // rectangle (current bounding box.north east)`, \tkzClipBB) fixes the frame at what is drawn,
  // and crops what follows to it on purpose (construction lines, circles run on past it).
  const bool cropped_to_bbox = clip_frame && clip && clip->to_bounding_box;
  Scene scene(d);
  const ir::Box& shown_box = d.canvas && canvas.is_box ? *d.canvas : canvas.box;  // as written
  nlohmann::json canvas_json = {{"canvas", canvas_name},
                                {"canvas_box", {shown_box.xmin, shown_box.ymin, shown_box.xmax, shown_box.ymax}}};

  // A clip is a viewport onto a larger drawing when a grid or an open line, with no text on it,
  // runs on past two opposite edges of it: the author drew the plane beyond the window and
  // looks at part of it (the PGF tutorial's zoom on the unit circle). A canvas the figure
  // outgrew is overrun on one side, by the figure's own shapes.
  bool viewport = false;
  if (clip_frame)
    for (std::size_t ei = 0; ei < d.elements.size() && !viewport; ++ei) {
      const ir::Element& e = d.elements[ei];
      if (!visible(e) || !e.style.draw || before_the_clip(e)) continue;
      const bool spanning_kind = std::holds_alternative<ir::Grid>(e.geom) || std::holds_alternative<ir::Segment>(e.geom) ||
                                 (std::holds_alternative<ir::Polyline>(e.geom) && !std::get<ir::Polyline>(e.geom).closed);
      if (!spanning_kind) continue;
      if (std::any_of(d.nodes.begin(), d.nodes.end(),
                      [&](const ir::Node& n) { return has_text(n) && n.on_path && *n.on_path == e.path_id; }))
        continue;
      std::vector<geo::Point> pts;
      for (const auto& outline : outlines[ei])
        for (const geo::Point& p : outline)
          if (geo::finite(p)) pts.push_back(p);
      if (pts.empty()) continue;
      const ir::Box b = geo::bounds_of(pts);
      const bool across_x = b.xmin < canvas.box.xmin - tol && b.xmax > canvas.box.xmax + tol;
      const bool across_y = b.ymin < canvas.box.ymin - tol && b.ymax > canvas.box.ymax + tol;
      // it must pass through the window, not beside it
      const bool through =
          b.xmax >= canvas.box.xmin && b.xmin <= canvas.box.xmax && b.ymax >= canvas.box.ymin && b.ymin <= canvas.box.ymax;
      // A line's ends out there must be free: one that ends at a corner of the figure (other
      // lines end there, or a vertex dot marks it) joins points the clip cuts off.
      bool free_ends = true;
      if (!std::holds_alternative<ir::Grid>(e.geom))
        for (const geo::Point& q : {pts.front(), pts.back()})
          for (std::size_t v : scene.vertices_near({q.x, q.y, q.x, q.y}, 1.0))
            if (scene.vertices()[v].degree >= 2 || scene.vertices()[v].dot) free_ends = false;
      if ((across_x || across_y) && through && free_ends) {
        viewport = true;
        canvas_json["viewport"] = true;
      }
    }
  if (cropped_to_bbox) canvas_json["clip_to_bounding_box"] = true;

  // With an approximate axis, the largest signed overhang of any element (for the undecided band).
  double worst_signed = -INFINITY;
  for (std::size_t ei = 0; ei < d.elements.size(); ++ei) {
    const ir::Element& e = d.elements[ei];
    if (!visible(e) || before_the_clip(e)) continue;
    double worst = 0;
    geo::Point worst_p;
    bool partly_inside = false;
    for (const auto& outline : outlines[ei])
      for (const geo::Point& p : outline) {
        if (!geo::finite(p)) continue;
        double o = canvas.overhang(p);
        if (o <= 0) partly_inside = true;
        if (o > worst) worst = o, worst_p = p;
        if (approximate_axis) worst_signed = std::max(worst_signed, canvas.signed_overhang(p));
      }
    // A straight piece may cross the canvas with both of its ends outside (an axis through a
    // small clip): it is partly inside, seen and cut, not invisible.
    if (worst > tol + uncertainty && !partly_inside) {
      const geo::Shape box_area = geo::Shape::box(canvas.box);
      const geo::Shape& area = canvas.is_box ? box_area : canvas.polygon;
      for (const auto& outline : outlines[ei])
        if (outline.size() >= 2 && std::all_of(outline.begin(), outline.end(), geo::finite) &&
            geo::Shape::line(outline).intersects(area)) {
          partly_inside = true;
          break;
        }
    }
    if (worst > tol + uncertainty) {
      // A picture-level clip is drawn on purpose: lines and fills it trims (a grid, a function
      // graph, a fill shaped by the clip) are meant to run off; only a labelled element cut by
      // it (a node placed on its path) loses something a reader needs.
      const bool open_line = std::holds_alternative<ir::Segment>(e.geom) || std::holds_alternative<ir::Plot>(e.geom) ||
                             std::holds_alternative<ir::Bezier>(e.geom) || std::holds_alternative<ir::Grid>(e.geom) ||
                             std::holds_alternative<ir::Arc>(e.geom) ||
                             (std::holds_alternative<ir::Polyline>(e.geom) && !std::get<ir::Polyline>(e.geom).closed);
      // A line meant to run off ends freely beyond the clip; one whose end out there is a corner
      // of the figure (other lines end at it, or a vertex dot marks it) is part of a shape.
      auto corner_outside = [&]() {
        std::vector<geo::Point> ends;
        if (const auto* sg = std::get_if<ir::Segment>(&e.geom)) ends = {sg->a, sg->b};
        else if (const auto* pl = std::get_if<ir::Polyline>(&e.geom); pl && !pl->points.empty())
          ends = {pl->points.front(), pl->points.back()};
        else if (const auto* bz = std::get_if<ir::Bezier>(&e.geom)) ends = {bz->p0, bz->p1};
        else if (const auto* ar = std::get_if<ir::Arc>(&e.geom)) ends = {ar->from, ar->to};
        for (const geo::Point& q : ends) {
          if (!geo::finite(q) || canvas.overhang(q) <= tol) continue;
          for (std::size_t v : scene.vertices_near({q.x, q.y, q.x, q.y}, 1.0))
            if (scene.vertices()[v].degree >= 2 || scene.vertices()[v].dot) return true;
        }
        return false;
      };
      const bool shaped_fill = e.style.fill && !e.style.draw;
      // A tip is meant to be seen: a line whose tip lies beyond the clip loses it. A line cut at
      // its tail only (an axis whose arrow is inside the picture) is trimmed like any other.
      auto tip_outside = [&]() {
        std::optional<std::pair<geo::Point, geo::Point>> ends;  // first, last point
        if (const auto* sg = std::get_if<ir::Segment>(&e.geom)) ends = {{sg->a, sg->b}};
        else if (const auto* pl = std::get_if<ir::Polyline>(&e.geom); pl && !pl->points.empty())
          ends = {{pl->points.front(), pl->points.back()}};
        else if (const auto* bz = std::get_if<ir::Bezier>(&e.geom)) ends = {{bz->p0, bz->p1}};
        else if (const auto* ar = std::get_if<ir::Arc>(&e.geom)) ends = {{ar->from, ar->to}};
        if (!ends) return true;  // where the tip is is not known: it may be the part cut
        return (e.style.arrow_start && canvas.overhang(ends->first) > tol) ||
               (e.style.arrow_end && canvas.overhang(ends->second) > tol);
      };
      const bool arrowed = (e.style.arrow_start || e.style.arrow_end) && tip_outside();
      // Through a viewport every line and shape without text on it is cropped on purpose, an
      // axis running out of the view with its tip included; so is what is drawn after a clip to
      // the picture's bounding box so far (the author fixed the frame first).
      const bool viewed = viewport || cropped_to_bbox;
      const bool trimmed = clip_frame && partly_inside &&
                           ((open_line && !arrowed && !corner_outside()) || shaped_fill || viewed) &&
                           std::none_of(d.nodes.begin(), d.nodes.end(), [&](const ir::Node& n) {
                             return has_text(n) && n.on_path && *n.on_path == e.path_id;
                           });
      nlohmann::json ev = canvas_json;
      ev["side"] = canvas.side(worst_p);
      ev["point"] = {worst_p.x, worst_p.y};
      ev["partly_inside"] = partly_inside;
      if (approximate_axis) ev["axis_uncertainty_pt"] = uncertainty;
      Diagnostic f = finding(doc, e.prov.range,
                             std::string(partly_inside ? "element is cut off: it extends " : "element lies outside: it extends ") +
                                 num(worst) + "pt past the " + canvas.side(worst_p) + " edge of the " + canvas_name +
                                 "; limit " + num(tol + uncertainty) + "pt",
                             worst, tol + uncertainty, "pt", std::move(ev));
      // Entirely outside, an element is invisible rather than visibly cut: a note. So is a line
      // or fill the clip trims on purpose.
      if (!partly_inside || trimmed) f.severity = Severity::note;
      if (trimmed) f.evidence["trimmed_by_clip"] = true;
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
                             worst, limit, "pt", std::move(ev));
      f.severity = Severity::note;  // see the description: text does not decide the verdict
      r.findings.push_back(std::move(f));
    }
  }

  bool cut = std::any_of(r.findings.begin(), r.findings.end(), [](const Diagnostic& f) { return f.severity != Severity::note; });
  if (cut) {
    r.verdict = Verdict::fail;
    return r;
  }
  if (approximate_axis && worst_signed + uncertainty > tol) {
    RuleResult ind = make_result(Verdict::indeterminate,
                                 "an element comes within the approximate axis's uncertainty (" + num(uncertainty) +
                                     "pt) of the " + canvas_name + "'s edge: " + num(worst_signed) +
                                     "pt past it (negative: inside)");
    ind.findings = std::move(r.findings);
    return ind;
  }
  if (auto why = incomplete_geometry(d, !approximate_axis || axis_not_lowered)) {
    RuleResult ind = make_result(Verdict::indeterminate, *why);
    ind.findings = std::move(r.findings);
    return ind;
  }
  r.verdict = Verdict::pass;
  return r;
}

}  // namespace tikzlint::checks::rules
