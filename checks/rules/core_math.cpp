// core_math: shapes are not degenerate and their markings do not contradict the drawing.
#include <algorithm>
#include <cmath>
#include <map>

#include "checks/angles.hpp"
#include "checks/geometry.hpp"
#include "checks/rule_support.hpp"
#include "checks/rules/rules.hpp"
#include "checks/scene.hpp"

namespace tikzlint::checks::rules {

const RuleDoc core_math_doc = {
    "core_math",
    "a shape is degenerate, or its marks (right angle, equal sides, tick marks) contradict it",
    "Core mathematical properties of the drawn shapes must hold:\n"
    "- no closed shape is degenerate: its thickness (twice its area over its perimeter; the area of\n"
    "  an outline that crosses itself is its lobes' areas added up) is not a\n"
    "  negligible fraction of its size (a zero-area triangle reads as a line); in a picture projected\n"
    "  from 3D (xyz coordinates, 3D faces) a flat shape is a face seen edge-on and is not judged;\n"
    "  a bar a plot handler draws from a data point has the size of its value (a bar of 0 is flat)\n"
    "  and is not judged either;\n"
    "- a right-angle mark sits in an angle of 90° (within the tolerance);\n"
    "- sides labelled with the same length are drawn with equal lengths;\n"
    "- sides carrying the same number of tick marks (equal-length markers) are drawn equal.\n"
    "Tick marks are short strokes crossing the middle of a longer straight line nearly at right\n"
    "angles, in 2D figures (in 3D projections short edges cross long ones everywhere).\n"
    "Marks and labelled lengths are read in geometric figures only, and a number is a length only\n"
    "on evidence (the scene's reading, shown by `tikzlint ir`; see length_proportions).\n"
    "\n"
    "Never n/a (nothing to check passes). Indeterminate when the geometry is incomplete and no\n"
    "contradiction was found.",
    "\\draw (0,0) -- (4,0) -- (1,2) -- cycle;\n"
    "\\draw (0,0) rectangle (0.2,0.2);   % right-angle mark at a 63.4 degree corner",
    "Compute the vertices from the properties the marks claim, or remove the marks.",
    {
        {"min_thickness_ratio", 0.01, "ratio",
         "a shape thinner than 1% of its size is indistinguishable from a line"},
        {"right_angle_tolerance_deg", 10.0, "deg",
         "a corner within 10 degrees of square is drawn as a right angle in a sketch; beyond it the\n"
         "mark contradicts the picture"},
        {"equal_length_tolerance", 0.2, "ratio",
         "sides claimed equal but differing by more than 20% are visibly unequal (the same tolerance\n"
         "as length_proportions: people compare non-aligned lengths to about 10-20%)"},
        {"max_mark_pt", 18.0, "pt",
         "right-angle marks and tick marks are a few millimetres long, at most about a quarter inch\n"
         "(18pt); longer strokes are lines"},
    },
};

RuleResult check_core_math(const ir::Diagram& d, const Config& cfg) {
  const RuleDoc& doc = core_math_doc;
  const double thin = cfg.get(doc, "min_thickness_ratio");
  const double right_tol = cfg.get(doc, "right_angle_tolerance_deg");
  const double eq_tol = cfg.get(doc, "equal_length_tolerance");
  const double max_mark = cfg.get(doc, "max_mark_pt");
  Scene scene(d);
  RuleResult r;

  // 1. Degenerate closed shapes. In a picture projected from 3D (3D faces, xyz coordinates) a flat
  // shape is a face seen edge-on, not a degenerate one: legitimate and skipped.
  for (const ir::Element& e : d.elements) {
    if (!visible(e) || std::holds_alternative<ir::Face3D>(e.geom) || d.is_3d) continue;
    if (e.role == "data" || e.role == "data fill") continue;  // a bar of value 0 is flat by its data
    const auto& region = scene.region(static_cast<std::size_t>(&e - d.elements.data()));
    if (!region) continue;
    ir::Box b = geo::bounds_of(*region);
    double size = std::hypot(b.width(), b.height());
    if (size <= 0) continue;
    std::vector<geo::Point> ring = *region;
    ring.push_back(ring.front());
    double perimeter = geo::polyline_length(ring);
    // The area TeX fills: an outline that crosses itself (a filled curve down to its baseline on
    // both sides of it) has lobes of opposite turn, which cancel in the signed shoelace sum; the
    // polygon made valid (GEOS) adds them up.
    double area = std::abs(geo::polygon_area(*region));
    if (const geo::Shape filled = geo::Shape::polygon(*region)) area = std::max(area, filled.area());
    double thickness = perimeter > 0 ? 2 * area / perimeter : 0;
    if (thickness < thin * size) {
      r.findings.push_back(finding(doc, e.prov.range,
                                   "shape is degenerate: " + num(thickness) + "pt thick for " + num(size) +
                                       "pt across; limit " + num(thin * 100) + "% of its size",
                                   thickness / size, thin, "ratio", {{"problem", "degenerate shape"}}));
    }
  }

  // Marks and labelled lengths state properties of a geometric figure only (the scene's reading):
  // a graph's small boxes are not right-angle marks, its numbers not lengths.
  const bool figure = scene.picture().kind == PictureKind::geometric;

  // 2. Right-angle marks on angles that are not right.
  for (const RightAngleReading& m : figure ? right_angle_marks(scene, max_mark, 2.0) : std::vector<RightAngleReading>{}) {
    double diff = std::abs(m.drawn_deg - 90);
    if (diff > right_tol)
      r.findings.push_back(finding(doc, d.elements[m.element].prov.range,
                                   "right-angle mark on a " + num(m.drawn_deg) + "° angle; differs from 90° by " +
                                       num(diff) + "°, limit " + num(right_tol) + "°",
                                   diff, right_tol, "deg", {{"problem", "right-angle mark"}, {"drawn_deg", m.drawn_deg}}));
  }

  const auto& strokes = scene.strokes();
  auto comparable = [&](const Stroke& a, const Stroke& b) {
    // In 3D only sides parallel on the page share a scale.
    if (!d.is_3d) return true;
    return geo::angle_between_deg(a.pts.back() - a.pts.front(), b.pts.back() - b.pts.front()) < 3 ||
           geo::angle_between_deg(a.pts.back() - a.pts.front(), b.pts.back() - b.pts.front()) > 177;
  };
  auto unequal = [&](const Stroke& a, const Stroke& b) {
    return std::abs(a.length - b.length) > eq_tol * std::max(a.length, b.length);
  };

  // No two of these strokes are unequal when the longest exceeds the shortest by no more than the
  // tolerance of the shortest (rounding is monotonic, so this holds for the computed values too):
  // a group of equal sides then needs no pairwise scan.
  auto none_unequal = [&](const std::vector<std::size_t>& ids) {
    if (!(eq_tol >= 0)) return false;
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t id : ids) {
      if (!std::isfinite(strokes[id].length) || strokes[id].length < 0) return false;
      lo = std::min(lo, strokes[id].length);
      hi = std::max(hi, strokes[id].length);
    }
    return ids.empty() || hi - lo <= eq_tol * lo;
  };

  // 3. Sides labelled with the same length drawn unequal.
  std::map<std::string, std::vector<std::size_t>> by_text;  // label text -> strokes
  for (const Label& l : scene.labels()) {
    if (l.text.kind != LabelKind::length || !l.text.value || !scene.measures(l)) continue;
    Association a = scene.associate(l, 24);
    if (!a.best || a.best->kind != TargetKind::stroke) continue;
    if (strokes[a.best->index].kind != StrokeKind::straight) continue;
    by_text[l.text.plain].push_back(a.best->index);
  }
  for (const auto& [text, ids] : by_text) {
    if (none_unequal(ids)) continue;
    bool reported = false;
    for (std::size_t i = 0; i < ids.size() && !reported; ++i)
      for (std::size_t j = i + 1; j < ids.size() && !reported; ++j) {
        const Stroke& a = strokes[ids[i]];
        const Stroke& b = strokes[ids[j]];
        if (ids[i] == ids[j] || !comparable(a, b) || !unequal(a, b)) continue;
        double rel = std::abs(a.length - b.length) / std::max(a.length, b.length);
        Diagnostic f = finding(doc, d.elements[b.element].prov.range,
                               "sides both labelled " + quoted(text) + " are drawn " + num(a.length) + "pt and " +
                                   num(b.length) + "pt; differ by " + num(rel * 100) + "%, limit " + num(eq_tol * 100) + "%",
                               rel, eq_tol, "ratio", {{"problem", "equal labels, unequal sides"}, {"label", text}});
        f.notes.push_back({"the other side", d.elements[a.element].prov.range});
        r.findings.push_back(std::move(f));
        reported = true;
      }
  }

  // 4. Tick marks: short strokes crossing a longer straight line away from its ends.
  std::map<std::size_t, int> ticks;  // host stroke -> tick count
  // In 3D projections short edges cross long ones everywhere; ticks are read in 2D figures only.
  for (std::size_t i = 0; i < strokes.size() && !d.is_3d && figure; ++i) {
    const Stroke& t = strokes[i];
    if (t.kind != StrokeKind::straight || !t.drawn || t.length > max_mark || t.length <= 0) continue;
    geo::Point mid = (t.pts.front() + t.pts.back()) * 0.5;
    for (std::size_t j : scene.strokes_near({mid.x, mid.y, mid.x, mid.y}, t.length)) {
      const Stroke& h = strokes[j];
      if (j == i || h.kind != StrokeKind::straight || !h.drawn || h.element == t.element) continue;
      if (h.length < 3 * t.length) continue;
      geo::Point a = h.pts.front(), b = h.pts.back();
      if (geo::point_segment_distance(mid, a, b) > 0.25 * t.length) continue;
      // Equal-length ticks are drawn across the middle of a side, near perpendicular to it.
      double along = geo::dot(mid - a, b - a) / (h.length * h.length);
      if (along < 0.3 || along > 0.7) continue;
      double cross_deg = geo::angle_between_deg(t.pts.back() - t.pts.front(), b - a);
      if (cross_deg < 60 || cross_deg > 120) continue;
      ++ticks[j];
      break;
    }
  }
  std::map<int, std::vector<std::size_t>> by_count;
  for (const auto& [host, count] : ticks) by_count[count].push_back(host);
  for (const auto& [count, hosts] : by_count) {
    if (none_unequal(hosts)) continue;
    bool reported = false;
    for (std::size_t i = 0; i < hosts.size() && !reported; ++i)
      for (std::size_t j = i + 1; j < hosts.size() && !reported; ++j) {
        const Stroke& a = strokes[hosts[i]];
        const Stroke& b = strokes[hosts[j]];
        if (!comparable(a, b) || !unequal(a, b)) continue;
        double rel = std::abs(a.length - b.length) / std::max(a.length, b.length);
        Diagnostic f = finding(doc, d.elements[b.element].prov.range,
                               "sides with " + std::to_string(count) + " tick mark" + (count > 1 ? "s" : "") +
                                   " are drawn " + num(a.length) + "pt and " + num(b.length) + "pt; differ by " +
                                   num(rel * 100) + "%, limit " + num(eq_tol * 100) + "%",
                               rel, eq_tol, "ratio", {{"problem", "tick marks"}, {"ticks", count}});
        f.notes.push_back({"the other side", d.elements[a.element].prov.range});
        r.findings.push_back(std::move(f));
        reported = true;
      }
  }

  return conclude(std::move(r), d);
}

}  // namespace tikzlint::checks::rules
