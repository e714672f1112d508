// length_proportions: labelled lengths and areas are in the proportions drawn.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "checks/geometry.hpp"
#include "checks/rule_support.hpp"
#include "checks/rules/rules.hpp"
#include "checks/scene.hpp"

namespace tikzlint::checks::rules {

const RuleDoc length_proportions_doc = {
    "length_proportions",
    "two labelled lengths (or areas) are not in the proportion their drawn sizes have",
    "Each numeric length label (\"5 cm\", \"$3$\", \"2.5 in\", \"AB = 7\") is associated with the\n"
    "nearest straight stroke (a side, an edge, or a dimension line) within the association\n"
    "distance; each area label (\"12 m²\", \"A = 12\", \"12 sq units\") with the smallest closed shape\n"
    "that contains it. Units are converted (mm, cm, m, km, in, ft, yd); unitless numbers share the\n"
    "labels' unit. Then, for every pair of labels, the drawn ratio must equal the labelled ratio:\n"
    "|m1·v2 − m2·v1| <= tolerance · max(m1·v2, m2·v1), with the area tolerance widened to\n"
    "(1+tolerance)² − 1. Several different numbers along one stroke are tick labels of an axis or\n"
    "a number line, not lengths, and are left out.\n"
    "\n"
    "A number is a length only on evidence (the scene's reading, shown by `tikzlint ir`): a unit,\n"
    "a dimension line (tips or bars at both ends; a one-tipped line is an axis or a pointer),\n"
    "placement on a side by its middle (midway, pos=.5, sloped) or beside the middle of a side,\n"
    "or another side of the same shape so labelled. Evenly spaced numbers in a row are ticks,\n"
    "numbers in drawn nodes are indices, \"T=1\" away from any side is an equation. The rule\n"
    "applies to geometric figures only: in a graph, flowchart, plot or table it is n/a.\n"
    "\n"
    "In 3D figures edges are foreshortened: lengths along the frame's axes are read in frame\n"
    "units when the axes are known; otherwise only edges parallel on the page are compared\n"
    "(a parallel projection scales parallel lines alike). Areas are not compared in 3D.\n"
    "\n"
    "n/a: fewer than two comparable labelled lengths or areas (no labels, a single label, labels\n"
    "that are not numbers such as \"2x\"). Indeterminate: the geometry is incomplete and no pair\n"
    "that was measured disagrees.",
    "\\draw (0,0) -- (4,0) -- (4,1) -- cycle;\n"
    "\\node[below] at (2,0) {3 cm};\n"
    "\\node[right] at (4,0.5) {4 cm};   % drawn 4:1, labelled 3:4",
    "Draw the sides to scale (one unit per labelled unit, e.g. x=0.5cm) or correct the labels.",
    {
        {"tolerance", 0.2, "ratio",
         "people compare the lengths of non-aligned lines to about 10-20%; a larger departure from the\n"
         "labelled ratio is visibly out of proportion"},
        {"association_pt", 24.0, "pt",
         "a length label names a side within two text lines (24pt at 12pt) of it"},
    },
};

namespace {

struct Measured {
  const Label* label = nullptr;
  double value = 0;     // in the labels' common unit
  double drawn = 0;     // pt, pt², or frame units
  int klass = -1;       // comparable only within the same class (-1: with everything)
  bool area = false;
  std::size_t target = 0;  // stroke or element
};

}  // namespace

RuleResult check_length_proportions(const ir::Diagram& d, const Config& cfg) {
  const RuleDoc& doc = length_proportions_doc;
  const double tol = cfg.get(doc, "tolerance");
  const double radius = cfg.get(doc, "association_pt");
  Scene scene(d);
  RuleResult r;
  // Numbers state lengths in geometric figures only (in a graph they are weights, in a plot
  // ticks), and there only on evidence (the scene's reading).
  if (scene.picture().kind != PictureKind::geometric)
    return make_result(Verdict::na, std::string("a ") + to_string(scene.picture().kind) + " (" + scene.picture().evidence +
                                        "): its numbers are not lengths");

  // A common unit: the first physical unit met; unitless values are taken to be in it.
  double ref_unit = 0;
  for (const Label& l : scene.labels())
    if ((l.text.kind == LabelKind::length || l.text.kind == LabelKind::area) && l.text.unit_in_m > 0) {
      ref_unit = l.text.unit_in_m;
      break;
    }
  auto common_value = [&](const LabelText& t) {
    if (t.unit_in_m <= 0 || ref_unit <= 0) return *t.value;
    double f = t.unit_in_m / ref_unit;
    return *t.value * (t.kind == LabelKind::area ? f * f : f);
  };

  std::vector<Measured> lengths, areas;
  std::map<std::size_t, std::vector<std::size_t>> by_stroke;  // stroke -> indices in lengths
  for (const Label& l : scene.labels()) {
    if (!l.text.value || *l.text.value <= 0 || !scene.measures(l)) continue;
    if (l.text.kind == LabelKind::length) {
      Association a = scene.associate(l, radius);
      if (a.enclosed || !a.best || a.best->kind != TargetKind::stroke) continue;
      const Stroke& s = scene.strokes()[a.best->index];
      if (s.kind != StrokeKind::straight || s.length <= 0) continue;
      Measured m{&l, common_value(l.text), s.length, -1, false, a.best->index};
      if (d.is_3d) {
        geo::Point dir = s.pts.back() - s.pts.front();
        m.klass = -2;
        if (d.xyz_vectors) {
          for (int k = 0; k < 3; ++k) {
            geo::Point axis = (*d.xyz_vectors)[k];
            double an = geo::norm(axis);
            if (an <= 0) continue;
            double dev = geo::angle_between_deg(dir, axis);
            if (dev < 3 || dev > 177) {
              m.drawn = s.length / an;
              m.klass = -1;
            }
          }
        }
        if (m.klass == -2) {
          // Unknown axes: the page direction (mod 180°, 3° buckets) is the comparison class.
          double ang = std::fmod(std::atan2(dir.y, dir.x) * 180 / 3.14159265358979 + 360, 180.0);
          m.klass = static_cast<int>(std::lround(ang / 3.0)) % 60;
        }
      }
      by_stroke[a.best->index].push_back(lengths.size());
      lengths.push_back(m);
    } else if (l.text.kind == LabelKind::area && !d.is_3d) {
      double best_area = INFINITY;
      std::size_t best_el = 0;
      for (std::size_t ei = 0; ei < d.elements.size(); ++ei) {
        const ir::Element& e = d.elements[ei];
        if (!visible(e) || std::holds_alternative<ir::Grid>(e.geom)) continue;
        auto region = geo::element_region(e);
        if (!region || !geo::boxes_overlap(geo::bounds_of(*region), l.box)) continue;
        geo::Shape shape = geo::Shape::polygon(*region);
        if (!shape.covers(geo::Shape::point(l.center))) continue;
        double a = shape.area();
        if (a > 0 && a < best_area) best_area = a, best_el = ei;
      }
      if (std::isfinite(best_area)) areas.push_back({&l, common_value(l.text), best_area, -1, true, best_el});
    }
  }
  // Different numbers along one stroke are tick labels; the same number twice is one label.
  std::vector<bool> keep(lengths.size(), true);
  for (const auto& [stroke, idx] : by_stroke) {
    bool differ = false;
    for (std::size_t i : idx) differ |= std::abs(lengths[i].value - lengths[idx[0]].value) > 1e-9;
    for (std::size_t k = 0; k < idx.size(); ++k)
      if (differ || k > 0) keep[idx[k]] = false;
  }
  std::vector<Measured> used;
  for (std::size_t i = 0; i < lengths.size(); ++i)
    if (keep[i]) used.push_back(lengths[i]);

  int pairs = 0;
  auto compare = [&](const std::vector<Measured>& ms, double eps, const char* what, const char* unit) {
    // Report each label whose drawn scale disagrees with some other's, against the one it
    // disagrees with most.
    // Two labels compare when their classes are equal. rel(i, j) = 1 - min(r_i/r_j, r_j/r_i) with
    // r = drawn / value, so the label disagreeing most with i has the least or the greatest r of
    // its class. A large class whose r spread is moderate (rel stays far from 1, so rounding
    // cannot reorder candidates) scans only the labels within 1e-9 of those extremes, one per
    // distinct (drawn, value) (equal pairs give equal rel; the first in index order wins ties,
    // as in the full scan). Anything else scans its whole class in index order.
    std::map<int, std::vector<std::size_t>> classes;
    for (std::size_t i = 0; i < ms.size(); ++i) classes[ms[i].klass].push_back(i);
    std::vector<std::vector<std::size_t>> reduced;
    reduced.reserve(classes.size());
    std::vector<const std::vector<std::size_t>*> scan_of(ms.size());
    for (const auto& [klass, members] : classes) {
      pairs += static_cast<int>(members.size() * (members.size() - 1) / 2);
      const std::vector<std::size_t>* scan = &members;
      auto plain = [](double x) { return std::isfinite(x) && x > 1e-150 && x < 1e150; };
      if (members.size() > 32 &&
          std::all_of(members.begin(), members.end(), [&](std::size_t m) { return plain(ms[m].drawn) && plain(ms[m].value); })) {
        double rmin = INFINITY, rmax = 0;
        for (std::size_t m : members) {
          double r = ms[m].drawn / ms[m].value;
          rmin = std::min(rmin, r);
          rmax = std::max(rmax, r);
        }
        if (rmax < 1e3 * rmin) {
          std::vector<std::size_t> cand;
          std::set<std::pair<double, double>> seen;
          for (std::size_t m : members) {
            double r = ms[m].drawn / ms[m].value;
            if ((r <= rmin * (1 + 1e-9) || r >= rmax * (1 - 1e-9)) && seen.insert({ms[m].drawn, ms[m].value}).second)
              cand.push_back(m);
          }
          reduced.push_back(std::move(cand));
          scan = &reduced.back();
        }
      }
      for (std::size_t m : members) scan_of[m] = scan;
    }
    std::vector<bool> reported(ms.size(), false);
    for (std::size_t i = 0; i < ms.size(); ++i) {
      double worst = 0;
      std::size_t worst_j = i;
      for (std::size_t j : *scan_of[i]) {
        if (i == j) continue;
        double a = ms[i].drawn * ms[j].value, b = ms[j].drawn * ms[i].value;
        double rel = std::abs(a - b) / std::max(a, b);
        if (rel > worst) worst = rel, worst_j = j;
      }
      if (worst <= eps || reported[worst_j]) continue;
      reported[i] = true;
      const Measured& m = ms[i];
      const Measured& o = ms[worst_j];
      double drawn_ratio = m.drawn / o.drawn, label_ratio = m.value / o.value;
      Diagnostic f = finding(doc, d.nodes[m.label->node].prov.range,
                             std::string(what) + " label " + quoted(m.label->text.plain) + " against " +
                                 quoted(o.label->text.plain) + ": drawn ratio " + num(drawn_ratio) + " (" + num(m.drawn) + unit + " : " + num(o.drawn) + unit +
                                 "), labelled " + num(label_ratio) + "; differs by " + num(worst * 100) + "%, limit " +
                                 num(eps * 100) + "%",
                             worst, eps, "ratio",
                             {{"label", m.label->text.plain},
                              {"other_label", o.label->text.plain},
                              {"drawn", m.drawn},
                              {"other_drawn", o.drawn},
                              {"drawn_ratio", drawn_ratio},
                              {"labelled_ratio", label_ratio}});
      f.notes.push_back({"the other label", d.nodes[o.label->node].prov.range});
      r.findings.push_back(std::move(f));
    }
  };
  compare(used, tol, "length", d.is_3d && d.xyz_vectors ? "" : "pt");
  compare(areas, (1 + tol) * (1 + tol) - 1, "area", "pt²");

  if (!r.findings.empty()) {
    r.verdict = Verdict::fail;
    return r;
  }
  auto incomplete = incomplete_geometry(d);
  if (pairs == 0) {
    if (incomplete && (!used.empty() || !areas.empty())) return make_result(Verdict::indeterminate, *incomplete);
    return make_result(Verdict::na, "fewer than two comparable labelled lengths or areas");
  }
  if (incomplete) return make_result(Verdict::indeterminate, *incomplete);
  r.verdict = Verdict::pass;
  return r;
}

}  // namespace tikzlint::checks::rules
