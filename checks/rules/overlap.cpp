// overlap: text over text, lines through text, fills hiding text, 3D faces painted out of order.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>

#include "checks/geometry.hpp"
#include "checks/rule_support.hpp"
#include "checks/rules/rules.hpp"
#include "checks/scene.hpp"

namespace tikzlint::checks::rules {

const RuleDoc overlap_doc = {
    "overlap",
    "text boxes overlap, a line runs through text, a fill hides text, or 3D faces are painted out of order",
    "Elements must not overlap in a way that hinders reading. The rule reports:\n"
    "- two text labels whose glyph boxes (border box minus inner sep) overlap by more than a\n"
    "  fraction of the smaller one (a turned text, sloped or set along a curve, by its turned box);\n"
    "  the same text set twice at the same place (up to rounding) is the same ink and reads as one;\n"
    "- a drawn line (segment, edge, arc, curve) that runs through a label's glyphs: its length\n"
    "  inside the glyph box (shrunk by a small inset, without the descender depth below the\n"
    "  baseline) exceeds a minimum. Only the part TeX paints counts: the line inside every clip in\n"
    "  force where it was drawn (a \\clip clips the rest of its scope, a pgfplots axis its plots;\n"
    "  a clip that is not convex by its bounds); a line under a clip that was not lowered is not\n"
    "  judged. A label with an opaque\n"
    "  background drawn after the line hides it and is not reported, and so does an opaque node\n"
    "  painted after the line and not after the label whose box holds the label (a pgfplots\n"
    "  legend, filled white, over the plots). Grid lines are background\n"
    "  and do not count. Painted after means as TeX paints: layer by layer in the picture's\n"
    "  order (\\pgfsetlayers; pgfonlayer and the backgrounds library's `on background layer`\n"
    "  put a scope's paths on a layer), and in a layer in source order;\n"
    "- an opaque fill painted after a label, covering the label's centre where TeX paints it\n"
    "  (inside every clip in force where the fill was drawn; under a clip not lowered, not judged;\n"
    "  a pgfplots fill between, painted on its own layer under the axis' nodes, not judged);\n"
    "- a text set on an opaque box (fill) painted over a solid side of a figure (of a closed outline:\n"
    "  a polygon, a rectangle, a 3D face; or a straight line joined to other lines at both ends: a\n"
    "  solid's edge) that passes through it, hiding more than min_crossing_pt of it with the side\n"
    "  visible on both sides of the box for at least the hidden stretch: the box cuts the figure's\n"
    "  side in two (a framed label across a cube's edge). A free line (an axis, an asymptote, a\n"
    "  construction line) is one a label may be set on. Not a label on the line it\n"
    "  labels (a node on that path), an arrow (a dimension line\n"
    "  broken for its label, as drafting sets it), a dashed or dotted line (already broken by its\n"
    "  pattern), a line under a clip, nor a line that visibly ends at the box (a remainder shorter\n"
    "  than the hidden stretch reads as the line's end: a vertex's label set where its lines end);\n"
    "- in 3D figures, a filled face painted after a face that lies in front of it where the two\n"
    "  overlap on the page (painter's order). Depth comes from the faces' 3D coordinates; the\n"
    "  viewing side is the one a reader assumes for parallel projections, from above (the axis\n"
    "  drawn most vertically points up). A face's 3D coordinates count in the picture's frame where\n"
  "  its scope was moved by a 3D shift (shift={(1,0,2)}), so cubes stacked that way compare; a\n"
  "  solid moved by a page shift (xshift) has no known depth and is not compared with others. A\n"
  "  face painted later over the place, at least as far in front, is what remains visible there.\n"
    "Two crossings are not lines through text: the edge of a fill stroked in the fill's own colour\n"
    "(\\draw[blue, fill=blue]), which is the border between the fill and what lies around it, not a\n"
    "line; and a straight line crossing a word obliquely: passing through it (a line that ends among\n"
    "the letters, such as an edge drawn to the node's centre, runs into them), at an angle at least\n"
    "min_oblique_deg away\n"
    "from the baseline (a line along the baseline strikes every letter it runs past) and from the\n"
    "upright letters' stems (a line near the vertical reads as a letter itself: l, I, 1, |, and cuts\n"
    "the word in two). Its footprint along the baseline (from where it enters the text's core to\n"
    "where it leaves, plus its width) covers one or two neighbouring letters, which it visibly\n"
    "crosses as a line, not a glyph, and readers recognise a word from its other letters. This\n"
    "holds only where every character\n"
    "the footprint covers (counted at the text's mean advance) is a letter or a space, of a text\n"
    "with at least min_word_letters letters: a struck digit, sign or symbol carries the value and\n"
    "has no such redundancy (\"60°\", \"x = 8\" are reported), and so does a short word. Two or more\n"
    "such lines through one text are reported like any other.\n"
    "Lines that end at a label's edge (arrows pointing at text), faces that only share an edge,\n"
    "and figures inscribed in one another are not overlaps. A text box measured with uncertainty\n"
    "(unknown commands or fonts) counts only where it certainly is (shrunk by the uncertainty); an\n"
    "unplaced (incomplete) node is not judged, nor a line whose statement was not fully lowered (a\n"
    "custom to path drawn straight), nor text wholly outside the picture's clip (not on the page).\n"
    "Letters a text decoration sets along a path (decorations.text) are spaced by the decoration,\n"
    "each at its own width's share of the path: two letters of one such text are not compared\n"
    "with each other (where their ink meets on a tight bend would take the glyphs' outlines), and\n"
    "the path they are set on, where it is their baseline (not raised off it), is not a line\n"
    "through them.\n"
    "Other text and lines are judged against them as against any text. A turned text (sloped,\n"
    "rotated, a letter set along a curve) is measured by its turned box, for lines as for text.\n"
    "Text a package sets as its own (an axis's tick\n"
    "labels, a calendar's days) is text like any other here: a curve through a tick label hides it;\n"
    "only a marking (tikz-cd's `\"/\" marking`, a glyph set across its own arrow on purpose) is not\n"
    "crossed by that arrow.\n"
    "\n"
    "Never n/a. Indeterminate when the geometry is incomplete and nothing complete overlaps.",
    "\\draw (0,0) -- (4,0);\n"
    "\\node at (2,0) {5 cm};   % the side runs through its own label",
    "Move the label off the line (node[midway, above]), give it an opaque background\n"
    "(fill=white) or draw the faces of a solid from back to front.",
    {
        {"text_overlap_ratio", 0.1, "ratio",
         "glyph boxes include ascender and descender room; overlapping by more than a tenth of the\n"
         "smaller box makes glyphs touch"},
        {"inset_pt", 1.0, "pt",
         "glyph boxes include side bearings and the tallest glyph's height: a line within 1pt of the\n"
         "box edge grazes white space"},
        {"min_crossing_pt", 2.0, "pt",
         "a line that crosses less than 2pt of the inset glyph box only clips a corner of a glyph"},
        {"min_oblique_deg", 20.0, "deg",
         "a line within 20 degrees of the vertical runs along the letters' stems (italic stems lean\n"
         "by 10 to 15 degrees) and can be read as one; within 20 degrees of the baseline it runs along\n"
         "the text, through every letter in its band. Between the two it crosses the text as a line"},
        {"min_word_letters", 4, "count",
         "a word of four or more letters is recognised with one or two neighbouring letters struck (the\n"
         "others fix it); a shorter word or a name of one to three letters is not"},
        {"face_overlap_ratio", 0.05, "ratio",
         "faces overlapping by less than 5% of the smaller face only meet along an edge"},
        {"max_findings", 1000, "count",
         "a dense picture has pairs by the million; at this many findings the rule stops searching\n"
         "and says so in a note (the verdict is fail either way)"},
    },
};

namespace {

// A text turned by less than this is measured by its upright box: its corners move by under 1%
// of its size.
constexpr double kTurnedDeg = 0.5;
// A box whose sides meet within about 0.6 degrees of square is a turned rectangle, not a sheared one.
constexpr double kMaxShearCos = 0.01;

// The glyph area of a node as it is drawn: its border box's corners (turned with the node), less
// the inner sep and the measurement's uncertainty. A turned text (sloped, a letter set along a
// curve) covers this quadrilateral, not the upright box around it.
std::vector<geo::Point> glyph_quad(const ir::Node& n) {
  const auto& c = n.corners;
  const double w = geo::dist(c[0], c[1]), h = geo::dist(c[1], c[2]);
  if (!(w > 0) || !(h > 0)) return {};
  const geo::Point u = (c[1] - c[0]) * (1 / w), v = (c[2] - c[1]) * (1 / h);
  const geo::Point m = (c[0] + c[2]) * 0.5;
  // The inner sep is in the node's own units: a slanted or squashed canvas (transform shape)
  // scales it with the box.
  const double tw = n.text_width + 2 * n.inner_sep, th = n.text_height + n.text_depth + 2 * n.inner_sep;
  const double ku = tw > 0 ? std::min(1.0, w / tw) : 1.0, kv = th > 0 ? std::min(1.0, h / th) : 1.0;
  double hw = std::max(0.25, w / 2 - ku * n.inner_sep - n.uncertainty_pt);
  double hh = std::max(0.25, h / 2 - kv * n.inner_sep - n.uncertainty_pt);
  // A turned rectangle holds its text's own box at its centre (geo::glyph_box, upright): an
  // inner ysep other than the inner xsep (the letters of a text decoration), a minimum size.
  if (std::abs(geo::dot(u, v)) <= kMaxShearCos && n.text_width > 0 && n.text_height + n.text_depth > 0) {
    hw = std::min(hw, std::max(0.25, n.text_width / 2 - n.uncertainty_pt));
    hh = std::min(hh, std::max(0.25, (n.text_height + n.text_depth) / 2 - n.uncertainty_pt));
  }
  return {m - u * hw - v * hh, m + u * hw - v * hh, m + u * hw + v * hh, m - u * hw + v * hh};
}

// The ink core of a turned text (sloped, set along a curve) as a line is measured against it: the
// glyph area turned with the node, shrunk by the inset, and without the depth below the baseline
// (descenders are thin tails) when the box holds just the text, as for upright text.
std::vector<geo::Point> turned_core(const ir::Node& n, double inset) {
  const std::vector<geo::Point> q = glyph_quad(n);
  if (q.size() != 4) return {};
  const double w = geo::dist(q[0], q[1]), h = geo::dist(q[1], q[2]);
  const geo::Point u = (q[1] - q[0]) * (1 / w), v = (q[2] - q[1]) * (1 / h);
  // A sheared box (a slanted canvas with transform shape): the text's metrics are scaled by the
  // frame's area factor, so its glyph band along each axis is not known; such text keeps the
  // upright bounds.
  if (std::abs(geo::dot(u, v)) > kMaxShearCos) return {};
  // the node's own units on the page (a scaled or squashed canvas: transform shape)
  const double th = n.text_height + n.text_depth + 2 * n.inner_sep;
  const double box_h = geo::dist(n.corners[1], n.corners[2]);
  const double kv = th > 0 ? std::min(1.0, box_h / th) : 1.0;
  const double depth = kv * n.text_depth, height = kv * n.text_height;
  const double bottom = n.text_depth > 0 && n.text_height > 0 && h <= depth + height + 1.0 ? depth : inset;
  if (w <= 2 * inset || h <= bottom + inset) return {};
  const geo::Point a = q[0] + u * inset + v * bottom, b = q[1] - u * inset + v * bottom;
  const geo::Point c = q[2] - u * inset - v * inset, e = q[3] + u * inset - v * inset;
  return {a, b, c, e};
}

// The middle of a letter's baseline, when a text decoration set it on its path with its base
// anchor there (no raise): that path is its baseline, which its letters sit on by construction.
std::optional<geo::Point> baseline_middle(const ir::Node& n) {
  const std::vector<geo::Point> q = glyph_quad(n);
  if (q.size() != 4) return std::nullopt;
  const double h = geo::dist(q[1], q[2]);
  if (!(h > 0) || n.text_height + n.text_depth <= 0) return std::nullopt;
  const geo::Point v = (q[2] - q[1]) * (1 / h);
  return (q[0] + q[1]) * 0.5 + v * (h * n.text_depth / (n.text_height + n.text_depth));
}

double distance_to_polyline(geo::Point p, const std::vector<geo::Point>& pts) {
  double best = INFINITY;
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    const geo::Point a = pts[i], d = pts[i + 1] - pts[i];
    const double len2 = geo::dot(d, d);
    const double t = len2 > 0 ? std::clamp(geo::dot(p - a, d) / len2, 0.0, 1.0) : 0.0;
    best = std::min(best, geo::dist(p, a + d * t));
  }
  if (pts.size() == 1) best = geo::dist(p, pts[0]);
  return best;
}

// Where a stroke crosses an upright text core: the span of its inside parts along the text's
// baseline (x) and across it (y), by Liang-Barsky clipping of each segment to the box.
struct Footprint {
  double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
  bool any() const { return xmin <= xmax; }
};

Footprint footprint_in(const ir::Box& b, const std::vector<geo::Point>& pts) {
  Footprint f;
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const geo::Point a = pts[i - 1], c = pts[i];
    const auto range = geo::clip_segment(b, a, c);
    if (!range) continue;
    for (double t : {range->first, range->second}) {
      const geo::Point q = a + (c - a) * t;
      f.xmin = std::min(f.xmin, q.x), f.xmax = std::max(f.xmax, q.x);
      f.ymin = std::min(f.ymin, q.y), f.ymax = std::max(f.ymax, q.y);
    }
  }
  return f;
}

// A straight stroke crossing an upright text obliquely through a word (see the RuleDoc): passing
// through it (no end inside the text's core), at least
// min_oblique_deg from the baseline and from the vertical, and every character its footprint in the
// core covers (at the text's mean advance, from the glyph box's left edge) is a letter or a space
// of a text with at least min_letters letters.
bool oblique_word_crossing(const ir::Box& core, const ir::Box& glyphs, const Stroke& s, double line_width,
                           const std::string& text, double min_oblique_deg, double min_letters) {
  if (s.kind != StrokeKind::straight || s.pts.size() != 2) return false;
  const geo::Point dir = s.pts[1] - s.pts[0];
  if (!(geo::norm(dir) > 0)) return false;
  const double angle = std::atan2(std::abs(dir.y), std::abs(dir.x)) * 180 / M_PI;  // from the baseline
  if (angle < min_oblique_deg || angle > 90 - min_oblique_deg) return false;
  // It passes through: a line that ends inside the text (an edge drawn to the node's centre) runs
  // into the letters and stops among them.
  for (const geo::Point& p : s.pts)
    if (p.x > core.xmin && p.x < core.xmax && p.y > core.ymin && p.y < core.ymax) return false;
  const Footprint fp = footprint_in(core, s.pts);
  if (!fp.any()) return false;
  // The characters (UTF-8 code points) and which are letters.
  std::vector<bool> letter;
  int letters = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // a continuation byte: part of the last character
    const bool is_letter = c < 0x80 && std::isalpha(c);
    letter.push_back(is_letter || c == ' ');
    letters += is_letter;
  }
  if (letter.empty() || letters < min_letters || !(glyphs.width() > 0)) return false;
  const double advance = glyphs.width() / static_cast<double>(letter.size());
  const double half_width = line_width / 2 / std::sin(angle * M_PI / 180);  // the stroke's half width along the baseline
  const double from = fp.xmin - half_width - glyphs.xmin, to = fp.xmax + half_width - glyphs.xmin;
  const auto first = static_cast<long>(std::floor(std::max(0.0, from) / advance));
  const auto last = static_cast<long>(std::floor(std::max(0.0, to) / advance));
  for (long k = first; k <= last && k < static_cast<long>(letter.size()); ++k)
    if (!letter[static_cast<std::size_t>(k)]) return false;
  return true;
}

// Two crossing lengths closer than this are a tie (the clip length and GEOS's overlay of the same
// crossing differ in the last bits): the first stroke in drawing order is the one reported.
constexpr double kTieEpsilon = 1e-9;

// Painting order (pgfcorelayers): layer by layer in the picture's order (Element::layer), and in
// a layer statements in source order; on one statement, nodes after the path.
bool painted_after(int later_layer, const SourceRange& later, int earlier_layer, const SourceRange& earlier) {
  if (later_layer != earlier_layer) return later_layer > earlier_layer;
  if (!later.valid || !earlier.valid || later.file != earlier.file) return false;
  return later.begin > earlier.begin;
}
template <class A, class B>
bool painted_after(const A& later, const B& earlier) {
  return painted_after(later.layer, later.prov.range, earlier.layer, earlier.prov.range);
}

// A side of a figure an opaque text node's box cuts in two (see the RuleDoc): drawn before the node,
// a side of a closed outline or a line joined to others at both ends, not on the node's own path (a label set on the line it labels), not an arrow (a dimension line
// broken for its label, as drafting does), not dashed or dotted (already broken by its pattern),
// passing through the box (its ends outside), hiding more than min_hidden of it, and visible on
// both sides for at least the hidden stretch (a shorter stub reads as the line's end at the box:
// a vertex's label set where its lines end). The first such stroke in drawing order.
const Stroke* line_cut_by_box(const ir::Diagram& d, const Scene& scene, const ir::Node& n, double min_hidden) {
  const ir::Box& bx = n.box;
  auto inside = [&](geo::Point p) { return p.x >= bx.xmin && p.x <= bx.xmax && p.y >= bx.ymin && p.y <= bx.ymax; };
  std::vector<std::size_t> near = scene.strokes_near(bx, 0);
  std::sort(near.begin(), near.end());
  for (std::size_t si : near) {
    const Stroke& s = scene.strokes()[si];
    if (!s.drawn || s.kind != StrokeKind::straight || s.arrow || s.pts.size() != 2) continue;
    const ir::Element& e = d.elements[s.element];
    if (!visible(e) || geometry_lost(d, e) || e.clip_unknown || !e.clips.empty() || !e.style.dash.empty()) continue;
    if (e.incomplete || (n.on_path && *n.on_path == e.path_id)) continue;
    // a side of a figure: of a closed outline (a polygon, a rectangle, a 3D face), or a line whose
    // both ends meet other lines (a solid's edge); a free line (an axis, an asymptote, a
    // construction line) is one a label may be set on
    const auto* poly = std::get_if<ir::Polyline>(&e.geom);
    const bool outline = (poly && poly->closed) || std::holds_alternative<ir::Rectangle>(e.geom) ||
                         std::holds_alternative<ir::Face3D>(e.geom);
    auto joined = [&](geo::Point p) {
      for (std::size_t vi : scene.vertices_near(ir::Box{p.x, p.y, p.x, p.y}, 0.5)) {
        const Vertex& v = scene.vertices()[vi];
        if (v.degree >= 2 && geo::dist(v.p, p) <= 0.5) return true;
      }
      return false;
    };
    if (!outline && !(joined(s.pts[0]) && joined(s.pts[1]))) continue;
    if (!painted_after(n, e)) continue;
    if (inside(s.pts[0]) || inside(s.pts[1])) continue;
    const geo::Point a = s.pts[0], b = s.pts[1];
    const double len = geo::dist(a, b);
    if (!(len > 0)) continue;
    // the parameters where the line enters and leaves the box
    const auto range = geo::clip_segment(bx, a, b);
    if (!range) continue;
    const auto [t0, t1] = *range;
    const double hidden = (t1 - t0) * len, before = t0 * len, after = (1 - t1) * len;
    if (hidden <= min_hidden || before < hidden || after < hidden) continue;
    return &s;
  }
  return nullptr;
}

struct Mat23 {
  std::array<double, 3> r0{}, r1{};
};

// Solve the 3x3 system M x = b by Cramer's rule; false when singular.
bool solve3(const std::array<std::array<double, 3>, 3>& m, const std::array<double, 3>& b, std::array<double, 3>& x) {
  auto det = [](const std::array<std::array<double, 3>, 3>& a) {
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  };
  double d = det(m);
  if (std::abs(d) < 1e-12) return false;
  for (int c = 0; c < 3; ++c) {
    auto mc = m;
    for (int r = 0; r < 3; ++r) mc[r][c] = b[r];
    x[c] = det(mc) / d;
  }
  return true;
}

// The projection's linear part, fitted by least squares on the faces' edge vectors (translation
// free, so faces shifted on the page still agree).
std::optional<Mat23> fit_projection(const std::vector<const ir::Face3D*>& faces) {
  std::array<std::array<double, 3>, 3> ata{};
  std::array<double, 3> atx{}, aty{};
  int rows = 0;
  for (const ir::Face3D* f : faces) {
    if (f->points3.size() != f->points.size() || f->points3.size() < 2) continue;
    for (std::size_t i = 1; i < f->points3.size(); ++i) {
      ir::Point3 P = f->points3[i], Q = f->points3[0];
      std::array<double, 3> v{P.x - Q.x, P.y - Q.y, P.z - Q.z};
      double dx = f->points[i].x - f->points[0].x, dy = f->points[i].y - f->points[0].y;
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) ata[a][b] += v[a] * v[b];
        atx[a] += v[a] * dx;
        aty[a] += v[a] * dy;
      }
      ++rows;
    }
  }
  Mat23 m;
  if (rows < 3 || !solve3(ata, atx, m.r0) || !solve3(ata, aty, m.r1)) return std::nullopt;
  return m;
}

// Toward the viewer: the kernel of the projection, signed so that the axis drawn most
// vertically upward points toward the viewer's side (parallel projections are read from above).
std::array<double, 3> view_direction(const Mat23& m) {
  std::array<double, 3> k{m.r0[1] * m.r1[2] - m.r0[2] * m.r1[1], m.r0[2] * m.r1[0] - m.r0[0] * m.r1[2],
                          m.r0[0] * m.r1[1] - m.r0[1] * m.r1[0]};
  int up = 0;
  double best = -INFINITY;
  for (int a = 0; a < 3; ++a) {
    double len = std::hypot(m.r0[a], m.r1[a]);
    if (len <= 0) continue;
    double vertical = m.r1[a] / len;  // cosine with the page's up direction
    if (vertical > best) best = vertical, up = a;
  }
  if (k[up] < 0)
    for (double& c : k) c = -c;
  return k;
}

// Depth (toward the viewer) of a face's plane under page point q.
std::optional<double> depth_at(const ir::Face3D& f, geo::Point q, const std::array<double, 3>& k) {
  const auto& p = f.points;
  const auto& P = f.points3;
  for (std::size_t i = 1; i + 1 < p.size(); ++i) {
    geo::Point u = p[i] - p[0], v = p[i + 1] - p[0];
    double det = geo::cross(u, v);
    if (std::abs(det) < 1e-6 * std::max(1.0, geo::norm(u) * geo::norm(v))) continue;
    geo::Point w = q - p[0];
    double a = geo::cross(w, v) / det, b = geo::cross(u, w) / det;
    double X = P[0].x + a * (P[i].x - P[0].x) + b * (P[i + 1].x - P[0].x);
    double Y = P[0].y + a * (P[i].y - P[0].y) + b * (P[i + 1].y - P[0].y);
    double Z = P[0].z + a * (P[i].z - P[0].z) + b * (P[i + 1].z - P[0].z);
    return X * k[0] + Y * k[1] + Z * k[2];
  }
  return std::nullopt;
}

// A face's depth as an affine function of the page point, from the triangle depth_at uses:
// depth(q) = d0 + g . (q - p0). It agrees with depth_at up to rounding of terms no larger than
// `mag` (the face's corners' depths and the depth steps along its sides).
struct DepthPlane {
  geo::Point p0, g;
  double d0 = 0, mag = 0;
  bool ok = false;
  double at(geo::Point q) const { return d0 + g.x * (q.x - p0.x) + g.y * (q.y - p0.y); }
};

DepthPlane depth_plane(const ir::Face3D& f, const std::array<double, 3>& k) {
  const auto& p = f.points;
  const auto& P = f.points3;
  DepthPlane out;
  auto dot = [&](const ir::Point3& X) { return X.x * k[0] + X.y * k[1] + X.z * k[2]; };
  for (std::size_t i = 1; i + 1 < p.size(); ++i) {
    geo::Point u = p[i] - p[0], v = p[i + 1] - p[0];
    double det = geo::cross(u, v);
    if (std::abs(det) < 1e-6 * std::max(1.0, geo::norm(u) * geo::norm(v))) continue;
    double d0 = dot(P[0]), e1 = dot(P[i]) - d0, e2 = dot(P[i + 1]) - d0;
    // a = cross(w, v) / det, b = cross(u, w) / det for w = q - p0; depth = d0 + a e1 + b e2
    out.p0 = p[0];
    out.d0 = d0;
    out.g = {(v.y * e1 - u.y * e2) / det, (u.x * e2 - v.x * e1) / det};
    double kn1 = std::abs(k[0]) + std::abs(k[1]) + std::abs(k[2]);
    for (const ir::Point3& X : P) out.mag = std::max(out.mag, kn1 * std::max({std::abs(X.x), std::abs(X.y), std::abs(X.z)}));
    out.ok = std::isfinite(out.d0) && std::isfinite(out.g.x) && std::isfinite(out.g.y) && std::isfinite(out.mag);
    return out;
  }
  return out;
}

// The face as a counter-clockwise strictly convex ring (every turn the same way by more than
// rounding, winding once), or nullopt; such a ring is a valid polygon as GEOS reads it.
std::optional<std::vector<geo::Point>> convex_ring(const std::vector<geo::Point>& p) {
  const std::size_t n = p.size();
  if (n < 3 || !std::all_of(p.begin(), p.end(), geo::finite)) return std::nullopt;
  int sign = 0;
  double turning = 0;
  for (std::size_t k = 0; k < n; ++k) {
    geo::Point e1 = p[(k + 1) % n] - p[k], e2 = p[(k + 2) % n] - p[(k + 1) % n];
    double c = geo::cross(e1, e2);
    if (!(std::abs(c) > 1e-9 * geo::norm(e1) * geo::norm(e2))) return std::nullopt;
    int s = c > 0 ? 1 : -1;
    if (sign != 0 && s != sign) return std::nullopt;
    sign = s;
    turning += std::atan2(c, geo::dot(e1, e2));
  }
  if (std::abs(std::abs(turning) - 2 * M_PI) > 0.1) return std::nullopt;
  std::vector<geo::Point> ring = p;
  if (sign < 0) std::reverse(ring.begin(), ring.end());
  return ring;
}

// The intersection of two counter-clockwise convex rings (Sutherland-Hodgman): convex, possibly
// empty. Its area and vertices agree with GEOS's overlay up to rounding; overlap uses them only
// to skip overlays whose outcome is certain.
std::vector<geo::Point> clip_convex(const std::vector<geo::Point>& subject, const std::vector<geo::Point>& clip) {
  std::vector<geo::Point> out = subject, in;
  for (std::size_t k = 0; k < clip.size() && !out.empty(); ++k) {
    const geo::Point a = clip[k], b = clip[(k + 1) % clip.size()];
    in.swap(out);
    out.clear();
    auto side = [&](geo::Point q) { return geo::cross(b - a, q - a); };
    for (std::size_t m = 0; m < in.size(); ++m) {
      const geo::Point p = in[m], q = in[(m + 1) % in.size()];
      double sp = side(p), sq = side(q);
      if (sp >= 0) out.push_back(p);
      if ((sp >= 0) != (sq >= 0)) out.push_back(p + (q - p) * (sp / (sp - sq)));
    }
  }
  return out;
}

// Two boxes equal up to rounding (a millionth of their size).
bool same_place(const ir::Box& a, const ir::Box& b) {
  const double eps = 1e-6 * std::max({1.0, a.width(), a.height()});
  return std::abs(a.xmin - b.xmin) <= eps && std::abs(a.xmax - b.xmax) <= eps && std::abs(a.ymin - b.ymin) <= eps &&
         std::abs(a.ymax - b.ymax) <= eps;
}

bool box_contains(const ir::Box& outer, const ir::Box& inner) {
  return outer.xmin <= inner.xmin && outer.ymin <= inner.ymin && outer.xmax >= inner.xmax && outer.ymax >= inner.ymax;
}

// The part of a text's core that TeX can paint a stroke over: the core (a convex ring) inside every
// clip in force where the stroke was drawn (ir::Element::clips). A clip that is not convex counts
// by its bounds, which hold it: the part may be larger than what is painted, never smaller.
std::vector<geo::Point> painted_part(const ir::Diagram& d, const ir::Element& e, std::vector<geo::Point> core) {
  for (std::uint32_t ci : e.clips) {
    if (core.empty()) break;
    if (ci >= d.clips.size()) continue;
    const ir::ClipRegion& c = d.clips[ci];
    std::optional<std::vector<geo::Point>> ring = convex_ring(c.polygon);
    if (!ring) {
      const ir::Box& b = c.bounds;
      ring = std::vector<geo::Point>{{b.xmin, b.ymin}, {b.xmax, b.ymin}, {b.xmax, b.ymax}, {b.xmin, b.ymax}};
    }
    core = clip_convex(core, *ring);
  }
  return core;
}

}  // namespace

RuleResult check_overlap(const ir::Diagram& d, const Config& cfg) {
  const RuleDoc& doc = overlap_doc;
  const double text_ratio = cfg.get(doc, "text_overlap_ratio");
  const double inset = cfg.get(doc, "inset_pt");
  const double min_cross = cfg.get(doc, "min_crossing_pt");
  const double face_ratio = cfg.get(doc, "face_overlap_ratio");
  const double min_oblique = cfg.get(doc, "min_oblique_deg");
  const double min_letters = cfg.get(doc, "min_word_letters");
  Scene scene(d);
  RuleResult r;
  r.max_findings = static_cast<std::size_t>(std::max(1.0, cfg.get(doc, "max_findings")));
  // Every visible text: the labels, and a package's own text (a tick label a curve runs through
  // is as hard to read as any other).
  // Text wholly outside the picture's clip is not on the page: nothing overlaps it.
  const std::vector<Label> labels = [&] {
    std::vector<Label> all = scene.labels();
    all.insert(all.end(), scene.furniture().begin(), scene.furniture().end());
    if (d.canvas_source == "clip" && d.canvas) {
      const ir::Box& c = *d.canvas;
      std::erase_if(all, [&](const Label& l) {
        return l.glyphs.xmax <= c.xmin || l.glyphs.xmin >= c.xmax || l.glyphs.ymax <= c.ymin || l.glyphs.ymin >= c.ymax;
      });
    }
    return all;
  }();

  // 1. Text over text (STRtree over glyph boxes).
  geo::SpatialIndex glyph_index;
  for (std::size_t i = 0; i < labels.size(); ++i) glyph_index.insert(labels[i].glyphs, i);
  // A text box measured with uncertainty (unknown commands or fonts: ir::Node::uncertainty_pt)
  // counts only where it certainly is: shrunk by that much. An incomplete node is not placed.
  auto certain_glyphs = [&](std::size_t k) {
    const ir::Node& n = d.nodes[labels[k].node];
    if (n.incomplete) return ir::Box{0, 0, -1, -1};
    return n.uncertainty_pt > 0 ? geo::inflate(labels[k].glyphs, -n.uncertainty_pt) : labels[k].glyphs;
  };
  for (std::size_t i = 0; i < labels.size() && !r.full(); ++i) {
    const ir::Box a = certain_glyphs(i);
    if (a.xmin > a.xmax || a.ymin > a.ymax) continue;
    for (std::size_t j : glyph_index.query(a)) {
      if (j <= i) continue;
      const ir::Box b = certain_glyphs(j);
      if (b.xmin > b.xmax || b.ymin > b.ymax) continue;
      double w = std::min(a.xmax, b.xmax) - std::max(a.xmin, b.xmin);
      double h = std::min(a.ymax, b.ymax) - std::max(a.ymin, b.ymin);
      if (w <= 0 || h <= 0) continue;
      double smaller = std::min(a.width() * a.height(), b.width() * b.height());
      if (smaller <= 0) continue;
      double ratio = w * h / smaller;
      if (ratio <= text_ratio) continue;
      const ir::Node& na = d.nodes[labels[i].node];
      const ir::Node& nb = d.nodes[labels[j].node];
      // The same text set twice at the same place (a tick label of a value listed twice) prints the
      // same ink over itself: it reads as one text. Same place up to rounding, not a tolerance.
      if (labels[i].text.plain == labels[j].text.plain && std::abs(na.rotation_deg - nb.rotation_deg) < 1e-6 &&
          same_place(labels[i].glyphs, labels[j].glyphs))
        continue;
      // Letters of one text decoration: it sets each at its own width's share of the path, so
      // their boxes abut on the baseline and fan along its bends. Where their ink meets would
      // take the glyphs' outlines, which are not modelled: not judged (promise 1).
      if (na.along_path && nb.along_path && na.along_path->run == nb.along_path->run) continue;
      // Turned text: the upright boxes around two letters along a curve overlap where the letters
      // do not; measure the turned glyph areas themselves.
      if (std::abs(na.rotation_deg) > kTurnedDeg || std::abs(nb.rotation_deg) > kTurnedDeg) {
        const auto qa = glyph_quad(na), qb = glyph_quad(nb);
        if (qa.size() == 4 && qb.size() == 4) {
          const geo::Shape pa = geo::Shape::polygon(qa), pb = geo::Shape::polygon(qb);
          const double small = std::min(pa.area(), pb.area());
          if (small <= 0) continue;
          ratio = pa.intersection_area(pb) / small;
          if (ratio <= text_ratio) continue;
        }
      }
      if (!r.room()) break;
      Diagnostic f = finding(doc, nb.prov.range,
                             "text " + quoted(labels[j].text.plain) + " overlaps text " + quoted(labels[i].text.plain) +
                                 " by " + num(ratio * 100) + "% of the smaller box; limit " + num(text_ratio * 100) + "%",
                             ratio, text_ratio, "ratio", {{"problem", "text over text"}, {"overlap_pt", {w, h}}});
      f.notes.push_back({"the other text", na.prov.range});
      r.findings.push_back(std::move(f));
    }
  }

  // Opaque fills (for 3.) by the bounds of their regions, each region built once.
  std::vector<std::optional<std::vector<geo::Point>>> fill_regions(d.elements.size());
  BoxIndex fill_index;
  bool fills_finite = true;  // else every label scans every element, as the index would not
  for (std::size_t ei = 0; ei < d.elements.size() && !labels.empty(); ++ei) {
    const ir::Element& e = d.elements[ei];
    if (!e.style.fill || e.style.invisible || e.style.opacity < 1.0) continue;
    fill_regions[ei] = geo::element_region(e);
    if (!fill_regions[ei]) continue;
    ir::Box bb = geo::bounds_of(*fill_regions[ei]);
    fills_finite = fills_finite && std::isfinite(bb.xmin) && std::isfinite(bb.ymin) && std::isfinite(bb.xmax) &&
                   std::isfinite(bb.ymax);
    fill_index.insert(bb, ei);
  }

  // Opaque node backgrounds (placed): they hide the lines painted before them (2.).
  std::vector<std::size_t> filled_nodes;
  for (std::size_t k = 0; k < d.nodes.size(); ++k)
    if (d.nodes[k].filled && !d.nodes[k].incomplete && d.nodes[k].box.width() > 0) filled_nodes.push_back(k);

  // 2. Lines through text, and 3. opaque fills painted over text.
  for (const Label& l : labels) {
    if (r.full()) break;  // (truncated is set where a finding was refused)
    const ir::Node& n = d.nodes[l.node];
    // The ink of a line of text lies between its baseline and its height; descenders (g, p, y)
    // are thin tails, so the core leaves out the depth below the baseline.
    if (n.incomplete) continue;  // not placed: nothing certain to overlap
    ir::Box core = geo::inflate(l.glyphs, -inset - n.uncertainty_pt);
    // Turned text (sloped, set along a curve) covers its turned box, not the upright box around it.
    std::vector<geo::Point> turned;
    if (std::abs(n.rotation_deg) > kTurnedDeg && !(turned = turned_core(n, inset)).empty()) {
      core = geo::bounds_of(turned);
    } else if (std::abs(n.rotation_deg) < 1e-9 && n.text_depth > 0 && n.text_height > 0 && l.glyphs.height() <= n.text_height + n.text_depth + 1.0) {
      core.ymin = std::min(core.ymax, l.glyphs.ymin + n.text_depth);
    }
    if (core.width() <= 0 || core.height() <= 0) continue;
    geo::Shape core_shape = turned.empty() ? geo::Shape::box(core) : geo::Shape::polygon(turned);
    const std::optional<geo::Point> baseline = n.along_path ? baseline_middle(n) : std::nullopt;
    double worst = 0;
    const Stroke* worst_stroke = nullptr;
    // Oblique lines through a word (see oblique_word_crossing): the longest one, reported when a
    // second one strikes the same text.
    double oblique_worst = 0;
    const Stroke* oblique_stroke = nullptr;
    int oblique = 0;
    for (std::size_t si : scene.strokes_near(core, 0)) {
      const Stroke& s = scene.strokes()[si];
      if (!s.drawn || s.kind == StrokeKind::grid) continue;
      const ir::Element& e = d.elements[s.element];
      // a guessed line (a to path drawn straight) is not where TeX draws it
      if (geometry_lost(d, e)) continue;
      // under a clip that was not lowered, what TeX paints of the line is not known
      if (e.clip_unknown) continue;
      bool same_path = n.on_path && *n.on_path == e.path_id;
      // A text decoration's letters sit on its path: descenders hang across it by design. Only
      // where the letter's baseline is on that path (within the inset; not raised off it).
      if (n.along_path && n.along_path->path_id == e.path_id && baseline &&
          distance_to_polyline(*baseline, s.pts) <= inset)
        continue;
      // The edge of a fill stroked in the fill's own colour is the border of the fill, not a line.
      if (e.style.fill && e.style.opacity >= 1.0 && !e.style.fill_color.empty() &&
          e.style.draw_color == e.style.fill_color)
        continue;
      // A marking (tikz-cd's `"/" marking`) is a glyph set across its own arrow on purpose.
      if (same_path && n.role == "arrow marking") continue;
      // An opaque node background painted after the line hides it.
      if (n.filled && (same_path || !painted_after(e, n))) continue;
      // So does another opaque node painted after the line, not after the text, whose box holds
      // the text (a pgfplots legend, filled white over the plots, under its entries).
      if (std::any_of(filled_nodes.begin(), filled_nodes.end(), [&](std::size_t m) {
            const ir::Node& c = d.nodes[m];
            return &c != &n && painted_after(c, e) && !painted_after(c, n) &&
                   box_contains(c.box, core);
          }))
        continue;
      // The exact clip length first: only a stroke that may reach the limit needs GEOS's overlay
      // (a shorter one can be neither reported nor the worst of a report).
      auto upper = box_clip_length(core, s.pts);
      if (upper && *upper < min_cross - 1e-6) continue;
      // One segment cannot overlap itself: its clip length is the overlay's length (in the upright
      // box; the turned core lies inside its bounds, so there the clip length only bounds it).
      double inside = 0;
      if (!e.clips.empty()) {
        // TeX paints the line only inside the clips in force where it was drawn (a pgfplots axis
        // clips its plots to the box; a \clip, the rest of its scope)
        std::vector<geo::Point> ring =
            turned.empty() ? std::vector<geo::Point>{{core.xmin, core.ymin}, {core.xmax, core.ymin}, {core.xmax, core.ymax},
                                                     {core.xmin, core.ymax}}
                           : turned;
        std::optional<std::vector<geo::Point>> ccw = convex_ring(ring);
        const std::vector<geo::Point> part = ccw ? painted_part(d, e, *ccw) : std::vector<geo::Point>{};
        if (part.size() < 3) continue;
        const geo::Shape area = geo::Shape::polygon(part);
        if (!area || area.area() <= 0) continue;
        inside = geo::Shape::line(s.pts).intersection_length(area);
      } else {
        inside = upper && s.pts.size() == 2 && turned.empty() ? *upper
                                                              : geo::Shape::line(s.pts).intersection_length(core_shape);
      }
      if (inside > min_cross && turned.empty() &&
          oblique_word_crossing(core, l.glyphs, s, e.style.line_width, l.text.plain, min_oblique, min_letters)) {
        ++oblique;
        if (inside > oblique_worst + kTieEpsilon) oblique_worst = inside, oblique_stroke = &s;
        continue;
      }
      if (inside > worst + kTieEpsilon) worst = inside, worst_stroke = &s;  // ties: the first stroke
    }
    if (oblique >= 2 && oblique_worst > worst + kTieEpsilon) worst = oblique_worst, worst_stroke = oblique_stroke;
    if (worst_stroke && worst > min_cross) {
      if (!r.room()) continue;
      Diagnostic f = finding(doc, n.prov.range,
                             std::string(to_string(worst_stroke->kind)) + " runs " + num(worst) + "pt through text " +
                                 quoted(l.text.plain) + "; limit " + num(min_cross) + "pt",
                             worst, min_cross, "pt", {{"problem", "line through text"}, {"text", l.text.plain}});
      f.notes.push_back({"the line", d.elements[worst_stroke->element].prov.range});
      r.findings.push_back(std::move(f));
      continue;
    }
    // 4. An opaque text box painted over a solid line that passes through it cuts the line in two.
    if (n.filled && n.box.width() > 0 && n.box.height() > 0 && std::abs(n.rotation_deg) <= kTurnedDeg &&
        !(worst_stroke && worst > min_cross)) {
      if (const Stroke* cut = line_cut_by_box(d, scene, n, min_cross)) {
        if (!r.room()) continue;
        const double hidden = box_clip_length(n.box, cut->pts).value_or(0);
        Diagnostic f = finding(doc, n.prov.range,
                               "text " + quoted(l.text.plain) + " is set on an opaque box that hides " + num(hidden) +
                                   "pt of a side of the figure drawn before it, cutting it in two; limit " + num(min_cross) + "pt",
                               hidden, min_cross, "pt", {{"problem", "box over line"}, {"text", l.text.plain}});
        f.notes.push_back({"the side", d.elements[cut->element].prov.range});
        r.findings.push_back(std::move(f));
        continue;
      }
    }
    // Ascending element order either way: the first fill found is the one reported.
    std::vector<std::size_t> candidates;
    if (fills_finite && std::isfinite(l.glyphs.xmin) && std::isfinite(l.glyphs.ymin) && std::isfinite(l.glyphs.xmax) &&
        std::isfinite(l.glyphs.ymax) && l.glyphs.xmin <= l.glyphs.xmax && l.glyphs.ymin <= l.glyphs.ymax) {
      candidates = fill_index.query(l.glyphs);
    } else {
      candidates.resize(d.elements.size());
      for (std::size_t ei = 0; ei < d.elements.size(); ++ei) candidates[ei] = ei;
    }
    for (std::size_t ei : candidates) {
      const ir::Element& e = d.elements[ei];
      if (!e.style.fill || e.style.invisible || e.style.opacity < 1.0) continue;
      if (!painted_after(e, n)) continue;
      // a fill on pgfplots' `pre main` layer lies under a node of the axis written before it; over
      // the axis' own furniture its order is that of layers, not read here: not judged
      if (e.role == "data fill") continue;
      const auto& region = fill_regions[ei];
      if (!region || !geo::boxes_overlap(geo::bounds_of(*region), l.glyphs)) continue;
      geo::Shape area = geo::Shape::polygon(*region);
      if (!area.covers(geo::Shape::point(l.center))) continue;
      // TeX paints the fill only inside the clips in force where it was drawn (a pgfplots axis
      // clips its plots to the box, so a plot filled down to zero does not cover the tick labels
      // below the box); under a clip that was not read, where it is painted is not known
      if (e.clip_unknown) continue;
      if (!e.clips.empty()) {
        const double h = 0.01;  // a speck around the centre: is the centre painted?
        const geo::Point c = l.center;
        if (painted_part(d, e, {{c.x - h, c.y - h}, {c.x + h, c.y - h}, {c.x + h, c.y + h}, {c.x - h, c.y + h}}).empty())
          continue;
      }
      if (!r.room()) break;
      Diagnostic f = finding(doc, n.prov.range,
                             "text " + quoted(l.text.plain) + " is covered by a fill painted after it", 1, 0, "count",
                             {{"problem", "fill over text"}, {"text", l.text.plain}});
      f.notes.push_back({"the fill", e.prov.range});
      r.findings.push_back(std::move(f));
      break;
    }
  }

  // 4. 3D faces in painter's order.
  // In painting order: layer by layer, in a layer in element (source) order.
  std::vector<std::size_t> face_ids;
  std::vector<const ir::Face3D*> faces;
  for (std::size_t ei = 0; ei < d.elements.size(); ++ei) {
    const ir::Element& e = d.elements[ei];
    if (!visible(e) || !e.style.fill || e.style.opacity < 1.0) continue;
    if (const auto* f = std::get_if<ir::Face3D>(&e.geom))
      if (f->points.size() >= 3 && f->points3.size() == f->points.size()) face_ids.push_back(ei);
  }
  std::stable_sort(face_ids.begin(), face_ids.end(),
                   [&](std::size_t a, std::size_t b) { return d.elements[a].layer < d.elements[b].layer; });
  for (std::size_t ei : face_ids) faces.push_back(&std::get<ir::Face3D>(d.elements[ei].geom));
  if (faces.size() >= 2) {
    if (auto proj = fit_projection(faces)) {
      std::array<double, 3> k = view_direction(*proj);
      double kn = std::sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
      // Faces placed by a page shift (not a 3D one) belong to separate solids: group by offset.
      auto offset = [&](const ir::Face3D& f) {
        const ir::Point3& P = f.points3[0];
        return geo::Point{f.points[0].x - (proj->r0[0] * P.x + proj->r0[1] * P.y + proj->r0[2] * P.z),
                          f.points[0].y - (proj->r1[0] * P.x + proj->r1[1] * P.y + proj->r1[2] * P.z)};
      };
      BoxIndex face_index;
      std::vector<geo::Shape> shapes(faces.size());  // built when an overlay needs them
      std::vector<double> areas;
      std::vector<std::optional<std::vector<geo::Point>>> convex;
      auto shape = [&](std::size_t i) -> const geo::Shape& {
        if (!shapes[i]) shapes[i] = geo::Shape::polygon(faces[i]->points);
        return shapes[i];
      };
      for (std::size_t i = 0; i < faces.size(); ++i) {
        face_index.insert(geo::bounds_of(faces[i]->points), i);
        convex.push_back(convex_ring(faces[i]->points));
        // A convex face is a valid polygon: its GEOS area without building it.
        areas.push_back(convex.back() ? geo::geos_ring_area(faces[i]->points) : shape(i).area());
      }
      // A later face is reported only where it lies more than this far (frame units; the bound
      // grows with the depth, see below) behind an earlier one: closer is rounding, or faces that
      // meet along an edge (the cubes of a stack share theirs).
      constexpr double behind_tolerance = 1e-6;
      // Pairs whose outcome is certain beyond rounding skip GEOS's overlay; the rest (and every
      // report) go through GEOS.
      std::vector<DepthPlane> planes;
      for (const ir::Face3D* f : faces) planes.push_back(depth_plane(*f, k));
      auto certainly_fine = [&](std::size_t i, std::size_t j, double limit) {
        if (!convex[i] || !convex[j] || kn <= 0 || !planes[i].ok || !planes[j].ok) return false;
        // The difference of the two depths is affine in the page point, so over any convex part of
        // the page it is largest at a corner: the later face is nowhere behind the earlier one over
        // their overlap when it is not at the corners of either face, or of the overlap itself.
        // GEOS judges one point of its own overlap, whose corners lie within 1e-12 of the
        // coordinates' magnitude of the exact ones (its robust overlay snaps at that tolerance, or
        // rounds to 14 digits); the margin allows 1e-9 for it, and 1e-9 of the terms of the depths
        // for their rounding (here and in depth_at).
        const DepthPlane &pi = planes[i], &pj = planes[j];
        const double slope = geo::norm(pi.g - pj.g);
        const double rounding = 1e-9 * (1 + pi.mag + pj.mag);
        auto nowhere_behind = [&](const std::vector<geo::Point>& corners) {
          double scale = 1;
          for (const geo::Point& q : corners) scale = std::max({scale, std::abs(q.x), std::abs(q.y)});
          const double bound = behind_tolerance * kn - slope * 1e-9 * scale - rounding;
          for (const geo::Point& q : corners)
            if (!(pi.at(q) - pj.at(q) < bound)) return false;
          return true;
        };
        if (nowhere_behind(*convex[j]) || nowhere_behind(*convex[i])) return true;
        // For two convex faces the exact overlap decides most other pairs without GEOS's overlay:
        // it is far below the area limit, or the later face is nowhere behind over it.
        std::vector<geo::Point> ov = clip_convex(*convex[j], *convex[i]);
        if (ov.size() < 3 || geo::polygon_area(ov) < limit - 1e-6 * (1 + limit)) return true;
        return nowhere_behind(ov);
      };
      int reported = 0;
      for (std::size_t j = 0; j < faces.size() && reported < 20; ++j) {
        for (std::size_t i : face_index.query(geo::bounds_of(faces[j]->points))) {
          if (i >= j) continue;  // i painted before j
          if (geo::dist(offset(*faces[i]), offset(*faces[j])) > 1.0) continue;
          double smaller = std::min(areas[i], areas[j]);
          if (smaller <= 1.0) continue;
          if (testing::face_pairs.shortcuts && certainly_fine(i, j, face_ratio * smaller)) {
            ++testing::face_pairs.skipped;
            continue;
          }
          auto ov = shape(i).overlap_with(shape(j));
          if (!ov || ov->first <= face_ratio * smaller) continue;
          auto di = depth_at(*faces[i], ov->second, k), dj = depth_at(*faces[j], ov->second, k);
          if (!di || !dj || kn <= 0) continue;
          double behind = (*di - *dj) / kn;  // > 0: the later face j lies behind face i
          if (behind <= behind_tolerance * std::max(1.0, std::abs(*di) / kn)) continue;
          // A face painted later over that place, at least as far in front as face i (a cube drawn
          // twice, the second time after its neighbour), is what TeX leaves visible there.
          bool repainted = false;
          for (std::size_t m : face_index.query(geo::bounds_of(faces[j]->points))) {
            if (m <= j || !shape(m).covers(geo::Shape::point(ov->second))) continue;
            auto dm = depth_at(*faces[m], ov->second, k);
            if (dm && geo::dist(offset(*faces[m]), offset(*faces[j])) <= 1.0 &&
                (*di - *dm) / kn <= behind_tolerance * std::max(1.0, std::abs(*di) / kn)) {
              repainted = true;
              break;
            }
          }
          if (repainted) continue;
          const ir::Element& ej = d.elements[face_ids[j]];
          Diagnostic f = finding(doc, ej.prov.range,
                                 "3D face is painted over a face in front of it (" + num(behind) +
                                     " frame units behind, overlapping " + num(ov->first) + "pt²)",
                                 ov->first / smaller, face_ratio, "ratio",
                                 {{"problem", "3D face order"}, {"depth_behind", behind}, {"overlap_pt2", ov->first}});
          f.notes.push_back({"the face in front", d.elements[face_ids[i]].prov.range});
          r.findings.push_back(std::move(f));
          ++reported;
          break;
        }
      }
    }
  }

  note_dropped(r, doc);
  return conclude(std::move(r), d);
}

}  // namespace tikzlint::checks::rules
